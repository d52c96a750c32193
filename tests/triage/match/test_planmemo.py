"""triage/match/planmemo.py: the plan worked out with kept answers is the plan worked out from nothing."""

import os

import pytest

from ascend_doctor.kb.load import load_knowledge_base
from ascend_doctor.kb.model import Signature
from ascend_doctor.triage.match import cache, finders, planmemo


@pytest.fixture
def memo_dir(monkeypatch, tmp_path):
    monkeypatch.setenv(cache.CACHE_ENV_DIR, str(tmp_path))
    monkeypatch.delenv(cache.CACHE_ENV_OFF, raising=False)
    return tmp_path


def _memo_file(d):
    return [p for p in d.iterdir() if p.name.startswith("planmemo-")]


def test_a_plan_from_kept_answers_is_the_plan_from_nothing(memo_dir, monkeypatch):
    sigs = list(load_knowledge_base().signatures)
    first = finders._scan_plan(sigs)  # works every answer out, keeps them
    [path] = _memo_file(memo_dir)
    kept = planmemo._read(str(path))
    assert {"hs_expression", "gate_of", "own_anchors", "required_literals"} <= set(kept)
    assert len(kept["hs_expression"]) > 1000
    before = path.stat().st_mtime_ns
    again = finders._scan_plan(sigs)  # every answer read back: nothing new to write
    assert again == first and path.stat().st_mtime_ns == before
    # a knowledge base with one more entry: the answers of the others read back, the new entry's worked out
    new = Signature(id="NEW_FAULT", pattern=r"widget (?:frobnication|spindle) failed: code \d+", regex=True,
                    component="cann", severity="fail", cause="c", fix=["f"], origin="families_new.json")
    grown = finders._scan_plan(sigs + [new])
    monkeypatch.setenv(cache.CACHE_ENV_OFF, "1")
    assert finders._scan_plan(sigs) == first  # without the memo at all
    assert finders._scan_plan(sigs + [new]) == grown
    assert any("frobnication" in k for k in planmemo._read(str(path))["hs_expression"])


def test_a_damaged_memo_is_not_read(memo_dir):
    sigs = [Signature(id="A", pattern=r"alpha (?:beta|gamma) failed with code \d+", regex=True, component="cann",
                      severity="fail", cause="c", fix=["f"]),
            Signature(id="B", pattern=r"delta\s+epsilon", regex=True, component="cann", severity="fail", cause="c",
                      fix=["f"])]
    assert finders._scan_plan(sigs) and not _memo_file(memo_dir)  # a small knowledge base: no memo
    sigs += [Signature(id=f"F{k}", pattern=f"filler {k:03d} widget [a-z]+ failed", regex=True, component="cann",
                       severity="fail", cause="c", fix=["f"]) for k in range(cache._CACHE_MIN_SIGNATURES)]
    want = finders._scan_plan(sigs)
    [path] = _memo_file(memo_dir)
    raw = path.read_bytes()
    # a sound file with a wrong answer would be believed: the digest is what keeps a damaged one out
    bad = raw[:-16].replace(b'"hs_expression":{', b'"hs_expression":{"0:x":["y",true],', 1)
    assert bad != raw[:-16]
    path.write_bytes(bad + raw[-16:])
    assert planmemo._read(str(path)) == {}
    assert finders._scan_plan(sigs) == want
    assert planmemo._read(str(path)) != {}  # written again, sound


def test_the_memo_is_named_by_the_matching_code(memo_dir, monkeypatch):
    a = planmemo._path()
    monkeypatch.setattr(cache, "_code_digest", lambda: b"another version of the matching code")
    monkeypatch.setattr(planmemo, "_code_digest", lambda: b"another version of the matching code")
    assert planmemo._path() != a and os.path.dirname(planmemo._path()) == str(memo_dir)
    assert planmemo.table("gate_of") is None  # only while a plan is worked out
