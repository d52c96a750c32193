"""triage/match/cache.py: the scanner's cache is keyed by the source of every module its plan is worked out by."""

import json
import os

import pytest

from ascend_doctor import jsonstream
from ascend_doctor.triage.match import cache


def test_the_cache_key_covers_every_module_of_the_matching_engine():
    here = os.path.dirname(os.path.abspath(cache.__file__))
    engine = {n for n in os.listdir(here) if n.endswith(".py") and n != "__init__.py"}
    assert engine <= set(cache._CODE_FILES)
    files = [os.path.normpath(os.path.join(here, n)) for n in cache._CODE_FILES]
    assert all(os.path.isfile(f) for f in files)
    assert os.path.join("ascend_doctor", "kb", "model.py") in {os.path.relpath(f, os.path.dirname(os.path.dirname(
        os.path.dirname(here)))) for f in files}  # the signatures' own scan literals and bare codes


def test_a_change_in_any_of_them_is_a_new_key(monkeypatch, tmp_path):
    from ascend_doctor.kb.model import Signature

    sigs = [Signature(id="T", pattern="x", regex=False, component="cann", severity="fail", cause="c", fix=[])]
    key = cache._scanner_key(sigs)
    copy = tmp_path / "model.py"
    copy.write_text(open(os.path.join(os.path.dirname(cache.__file__), cache._CODE_FILES[-1])).read() + "\n# changed\n")
    monkeypatch.setattr(cache, "_CODE_FILES", cache._CODE_FILES[:-1] + (str(copy),))
    cache._code_digest.cache_clear()
    try:
        assert cache._scanner_key(sigs) != key
    finally:
        cache._code_digest.cache_clear()


@pytest.mark.parametrize("obj", [
    {}, [], "x", 3, None,
    {"lit": [["ab\u00e9", [1, 2]], ["c", []]], "pre": {"7": [["x", "y"]], "8": []}, "hs_levels": {"l1": [[None, 1, [3]]]}},
    [[1, [2, [3, {"k": "v"}]]], {"k": {"z": 1.5, "t": True}}],
    {"s": "\udcff tail", 5: "int key", True: [None], None: {"a": {1: 2}}},
])
@pytest.mark.parametrize("ascii_only", [True, False])
def test_json_pieces_are_json_dumps_in_pieces(obj, ascii_only, monkeypatch):
    """The plan and the plan memo are written as pieces (cache.json_pieces), not as one json.dumps, whose token list,
    join and encoding were the first run's peak; the bytes are the same."""
    monkeypatch.setattr(jsonstream, "PIECE", 5)
    want = json.dumps(obj, separators=(",", ":"), ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    pieces = cache.json_pieces(obj, ensure_ascii=ascii_only, errors="surrogatepass")
    assert b"".join(pieces) == want
    assert len(pieces) > 1 or len(want) <= 5
