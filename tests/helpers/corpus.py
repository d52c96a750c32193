"""The corpus of real log excerpts as tests read it: scripts/measure_corpus.py loaded as a module, and the clean
excerpts a set of signatures must stay quiet on."""

from tests.helpers import script_module


def measure_module():
    """scripts/measure_corpus.py (a script, not a package module) loaded as a module."""
    return script_module("measure_corpus")


def clean_excerpt_hits(kb, ids, measure=None):
    """(split, excerpt, signature id) for every line of a clean excerpt, in every split, that one of the signatures
    `ids` reads (their own regex, whatever triage would then report)."""
    measure = measure or measure_module()
    sigs = [kb.signature(i) for i in ids]
    return [(ex["split"], ex["name"], s.id) for split in measure.SPLITS for ex in measure.excerpts(split)
            if ex["expect"] == "clean" for s in sigs for line in ex["lines"] if s.search(line)]
