"""triage/match/cache.py: the scanner's cache is keyed by the source of every module its plan is worked out by."""

import os

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
