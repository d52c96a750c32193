"""The knowledge-base part files as their tests read them (data/kb/families_*.json): a part's ids, the whole knowledge
base in English, and the check that a family's examples are each explained by their own entry alone."""

import json
import os

from ascend_doctor.data import data_path


def part_ids(name):
    """The signature ids of data/kb/<name>.json, in its order."""
    with open(data_path(os.path.join("kb", name + ".json")), encoding="utf-8") as fh:
        return [s["id"] for s in json.load(fh)["signatures"]]


def english_kb():
    """The shipped knowledge base with English texts (the run's language set to en)."""
    from ascend_doctor.i18n import set_lang
    from ascend_doctor.kb.load import load_knowledge_base

    set_lang("en")
    return load_knowledge_base()


def family_overlaps(kb, family):
    """(id, example, entries of `family` that explain it) for every example of a family entry that is not explained
    by that entry alone among the family ([] when each example is one problem of the family)."""
    out = []
    for sid in family:
        for line in kb.signature(sid).examples:
            got = [s.id for s in kb.explaining(line) if s.id in family]
            if got != [sid]:
                out.append((sid, line, got))
    return out


def explained_title(kb, line, sig_id, among=None, ignore=()):
    """The English title of the one problem `line` is explained by, after checking that it is `sig_id`: of everything
    that explains the line, the ids in `among` (all when None) and not in `ignore` (a failure names them all)."""
    every = kb.explaining(line)
    hits = [s for s in every if (among is None or s.id in among) and s.id not in ignore]
    assert [s.id for s in hits] == [sig_id], [s.id for s in every]
    return hits[0].text("en", line=line)[0]


def statements(kb, line):
    """{id: (title, cause, fix steps joined by spaces)} in English of every entry that explains `line`: what the report
    says of it (the precision tests assert a phrase of one part, or that an entry no longer speaks)."""
    out = {}
    for s in kb.explaining(line):
        title, cause, fix = s.text("en", line=line)
        out[s.id] = (title, cause, " ".join(fix))
    return out


def assert_says(kb, line, sig_id, part, phrase, unsaid=None):
    """A precision mend's check: `sig_id` explains `line`, and part `part` of what it says (0 title, 1 cause, 2 fix steps)
    holds `phrase` and not `unsaid` (None: nothing checked)."""
    said = statements(kb, line)
    assert sig_id in said, sorted(said)
    text = said[sig_id][part]
    assert phrase in text, text
    assert unsaid is None or unsaid not in text, text


def assert_moved(kb, line, gone, reader):
    """A precision mend's check: `gone` no longer explains `line`, and `reader` (None: none checked) does."""
    said = statements(kb, line)
    assert gone not in said, sorted(said)
    assert reader is None or reader in said, sorted(said)


def clean_run_hits(kb, name, ids, at_least):
    """(line, ids explaining it) for every line of tests/kb/<name> (a clean run's output kept beside a part's test)
    that an entry of `ids` explains ([] when the run gives no statement); the file must hold more than `at_least`
    lines, so a file cut short does not pass as quiet."""
    here = os.path.join(os.path.dirname(os.path.dirname(__file__)), "kb", name)
    with open(here, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    assert len(lines) > at_least, (name, len(lines))
    wanted = set(ids)
    return [(line, got) for line in lines for got in [[s.id for s in kb.explaining(line)]] if wanted.intersection(got)]
