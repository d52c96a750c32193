"""The shipped knowledge base's index (kb/index.py): the same signatures as a full read, words read per file where
asked for, and a new index where a file changed."""

import json
import os
import shutil

import pytest

from ascend_doctor.data import DataError, data_path
from ascend_doctor.kb import index, load
from ascend_doctor.kb.model import Signature
from ascend_doctor.records import fields
from ascend_doctor.triage.match.cache import fields_digest


@pytest.fixture
def parts(tmp_path, monkeypatch):
    """A copy of the shipped parts as the knowledge base's parts, with a cache directory of its own."""
    d = tmp_path / "kb"
    shutil.copytree(load.kb_parts_dir(), d)
    monkeypatch.setattr(load, "kb_parts_dir", lambda: str(d))
    monkeypatch.setenv("ASCEND_DOCTOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ASCEND_DOCTOR_NO_CACHE", raising=False)
    monkeypatch.delenv(load.KB_ENV, raising=False)
    monkeypatch.setattr(load, "_cache", {})
    return d


def _fresh():
    load._cache.clear()
    kb = load.load_knowledge_base()
    return kb, kb.signatures


def _full():
    """Every signature as a full read gives it (no index)."""
    files = [data_path("knowledge_base.json")] + load.part_files()
    base = load.load_knowledge_base(parts=[])
    return load.merge_parts(base.pitfalls, base.signatures, [(f, False) for f in files[1:]], trusted=True)


def _indexes(cache_dir):
    return sorted(p for p in os.listdir(cache_dir) if p.startswith("kbindex-")) if os.path.isdir(cache_dir) else []


def test_the_index_gives_every_signature_a_full_read_gives(parts, tmp_path):
    _, first = _fresh()  # builds the index
    assert _indexes(tmp_path / "cache"), "the first read writes the index"
    kb, sigs = _fresh()  # reads it
    assert all(isinstance(s, index.LazySignature) for s in sigs)
    full = _full()
    assert [s.id for s in sigs] == [s.id for s in full]
    names = [f.name for f in fields(Signature)]
    for got, want in zip(sigs, full):
        assert {n: getattr(got, n) for n in names} == {n: getattr(want, n) for n in names}, got.id
    assert sigs == full
    assert kb.match_digest == fields_digest(full)


def test_words_are_read_only_for_the_file_of_the_signature_asked(parts):
    _fresh()
    _, sigs = _fresh()
    one = sigs[-1]
    assert one.cause  # reads its file
    same = [s for s in sigs if s.origin == one.origin]
    other = [s for s in sigs if s.origin != one.origin]
    assert all("_words" not in s.__dict__ and "cause" in s.__dict__ for s in same)
    assert all("_words" in s.__dict__ and "cause" not in s.__dict__ for s in other)


def test_a_changed_part_gives_a_new_index(parts, tmp_path):
    _fresh()
    name = sorted(os.listdir(parts))[0]
    raw = json.loads((parts / name).read_text(encoding="utf-8"))
    sid = raw["signatures"][0]["id"]
    raw["signatures"][0]["cause"] = "changed cause"
    raw["signatures"][0]["anchors"] = ["changed-anchor"]
    (parts / name).write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    kb, sigs = _fresh()
    changed = kb.signature(sid)
    assert changed.anchors == ["changed-anchor"] and changed.cause == "changed cause"
    assert kb.match_digest == fields_digest(_full())
    assert len(_indexes(tmp_path / "cache")) == 2


def test_a_damaged_index_is_built_again(parts, tmp_path):
    _fresh()
    [name] = _indexes(tmp_path / "cache")
    path = tmp_path / "cache" / name
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    kb, sigs = _fresh()
    assert not any(isinstance(s, index.LazySignature) for s in sigs)  # read whole, and indexed again
    assert sigs == _full()
    _, again = _fresh()
    assert all(isinstance(s, index.LazySignature) for s in again)


def test_no_cache_reads_every_file(parts, tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_DOCTOR_NO_CACHE", "1")
    _fresh()
    _, sigs = _fresh()
    assert not _indexes(tmp_path / "cache")
    assert not any(isinstance(s, index.LazySignature) for s in sigs)


def test_a_part_changed_during_the_run_is_one_line_naming_the_file(parts):
    _fresh()
    _, sigs = _fresh()
    one = sigs[-1]
    path = one.origin
    raw = json.loads(open(path, encoding="utf-8").read())
    raw["signatures"] = [s for s in raw["signatures"] if s["id"] != one.id]
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(raw, fh)
    with pytest.raises(DataError) as err:
        one.cause
    assert str(err.value).startswith(f"{path}: signatures: ") and one.id in str(err.value)
    assert "\n" not in str(err.value)


def test_a_users_part_is_read_after_the_index_and_can_extend_a_shipped_entry(parts, tmp_path):
    _fresh()
    _, sigs = _fresh()
    target = sigs[0]
    user = tmp_path / "mine.json"
    user.write_text(json.dumps({"schema": load.PART_SCHEMA, "existing": {target.id: ["AISW_TEST_ID_01"]}}),
                    encoding="utf-8")
    load._cache.clear()
    kb = load.load_knowledge_base(extra=[str(user)])
    assert "AISW_TEST_ID_01" in kb.signature(target.id).ascend_fd
    assert kb.match_digest == fields_digest(kb.signatures)
