"""triage/match/recache.py: a kept regex program is the one re.compile makes, and only a sound file is read back."""

import os
import re

import pytest

from ascend_doctor.kb.load import load_knowledge_base
from ascend_doctor.triage.match import cache, recache


@pytest.fixture
def kept(monkeypatch, tmp_path):
    """recache with an empty directory of its own and nothing remembered in this process."""
    monkeypatch.setenv(cache.CACHE_ENV_DIR, str(tmp_path))
    monkeypatch.delenv(cache.CACHE_ENV_OFF, raising=False)
    monkeypatch.setattr(recache, "_where", [])
    monkeypatch.setattr(recache, "_memo", {})
    return tmp_path


def _fresh(monkeypatch):
    monkeypatch.setattr(recache, "_memo", {})


def test_every_pattern_of_the_knowledge_base_reads_back_as_the_program_re_compile_makes(kept, monkeypatch):
    # Pattern equality compares the flags, the pattern and the compiled program word by word
    pats = set()
    for s in load_knowledge_base().signatures:
        pats.update(s.raw_patterns())
        pats.update(p.encode("utf-8") for p in s.patterns())
        pats.update(x.encode("utf-8") for x in s.exclude)
    long = [p for p in pats if len(p) >= recache.LONG_PATTERN]
    assert len(long) > 300
    made = {p: recache.compile(p) for p in long}
    d = recache._directory()
    assert len(os.listdir(d)) == len(long)
    _fresh(monkeypatch)
    for p in long:
        rx = recache._read(d, p, 0)
        assert rx is not None and rx == re.compile(p) == made[p], p
        assert (rx.groupindex, rx.groups) == (re.compile(p).groupindex, re.compile(p).groups)
    assert recache.compile(long[0], re.M) == re.compile(long[0], re.M)


def test_a_short_pattern_is_compiled_each_time_and_keeps_no_file(kept):
    assert recache.compile(r"\bE\d{5}\b") == re.compile(r"\bE\d{5}\b")
    assert not os.path.exists(str(kept)) or not any(n.startswith("re-") for n in os.listdir(kept))


def test_a_damaged_or_foreign_file_is_not_read(kept, monkeypatch):
    p = r"(?P<module>[A-Za-z_][\w.]*) (?:failed|error) with code (?P<code>\d{3,6}) in [^\n]{0,80}? at line \d+"
    q = r"(?P<module>[A-Za-z_][\w.]*) (?:failed|error) with code (?P<code>\d{3,6}) in [^\n]{0,80}? at rank \d+"
    recache.compile(p)
    recache.compile(q)
    d = recache._directory()
    fp, fq = recache._file(d, p, 0), recache._file(d, q, 0)
    good = open(fp, "rb").read()
    # a flipped byte: the digest fails
    open(fp, "wb").write(good[:40] + bytes([good[40] ^ 1]) + good[41:])
    assert recache._read(d, p, 0) is None
    # another pattern's sound file under this pattern's name: its pattern is not the one asked for
    open(fp, "wb").write(open(fq, "rb").read())
    assert recache._read(d, p, 0) is None
    _fresh(monkeypatch)
    assert recache.compile(p) == re.compile(p)  # compiled again, and kept again
    assert recache._read(d, p, 0) == re.compile(p)
    # a bad pattern raises as re.compile does, and keeps nothing
    with pytest.raises(re.error):
        recache.compile("(?P<x>" + "a" * 80)


def test_no_cache_keeps_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv(cache.CACHE_ENV_DIR, str(tmp_path))
    monkeypatch.setenv(cache.CACHE_ENV_OFF, "1")
    monkeypatch.setattr(recache, "_where", [])
    monkeypatch.setattr(recache, "_memo", {})
    p = "x" * 70 + r"(\d+)"
    assert recache.compile(p) == re.compile(p)
    assert os.listdir(tmp_path) == []


def test_the_directory_is_named_by_the_interpreter(kept, monkeypatch):
    d = recache._directory()
    monkeypatch.setattr(recache.sys, "version", recache.sys.version + " other")
    monkeypatch.setattr(recache, "_where", [])
    assert recache._directory() != d


def test_the_directories_of_interpreters_not_seen_for_a_month_are_removed_when_this_one_writes(kept, monkeypatch):
    import time

    monkeypatch.setattr(recache, "_pruned", [False])
    old = time.time() - (recache._STALE_DAYS + 1) * 86400
    stale, recent = kept / "re-0000000000000000", kept / "re-1111111111111111"
    other = kept / "scanner-keep"  # not an interpreter's directory: never touched
    for d in (stale, recent, other):
        d.mkdir()
        (d / "x").write_text("x")
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    recache.compile("(?P<code>E[0-9A-Z]\\d{4})" + "x" * recache.LONG_PATTERN)
    assert not stale.exists() and recent.exists() and other.exists()
    assert os.path.isdir(recache._directory())


def test_no_more_than_eight_interpreters_directories_are_kept(kept, monkeypatch):
    monkeypatch.setattr(recache, "_pruned", [False])
    made = []
    for i in range(recache._KEEP_DIRS + 3):
        d = kept / f"re-{i:016d}"
        d.mkdir()
        made.append(d)
    now = __import__("time").time()  # all within the month: only the count removes them, the oldest first
    for i, d in enumerate(made):
        os.utime(d, (now - 100 + i, now - 100 + i))
    recache.compile("(?P<code>E[0-9A-Z]\\d{4})" + "y" * recache.LONG_PATTERN)
    left = sorted(p.name for p in kept.iterdir() if p.name.startswith("re-") and str(p) != recache._directory())
    assert left == [d.name for d in made[-(recache._KEEP_DIRS - 1):]]
