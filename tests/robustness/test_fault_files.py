"""Hostile files where the doctor expects small text files: every bad kind, at every file a probe reads.

Property for each (file, kind): the report completes, no probe or check crashes, and a file that
could not be used is named in what the report says (a fact's errors or a non-passing finding).
CRLF and BOM variants must give exactly the facts of the clean file.
"""

import json
import os
import time

import pytest

from ascend_doctor.doctor import RunOptions, run_checks
from ascend_doctor.host import SnapshotHost
from tests.helpers import fixture_path
from tests.helpers.faults import BAD_KINDS, READABLE_KINDS, RootedLiveHost, copy_fixture

# (fixture, path the probes read) — one of each file format the probes parse.
TARGETS = [
    ("a2_healthy", "/usr/local/Ascend/driver/version.info"),
    ("a2_healthy", "/usr/local/Ascend/firmware/version.info"),
    ("a2_healthy", "/etc/ascend_install.info"),
    ("a2_healthy", "/usr/local/Ascend/ascend-toolkit/8.0.RC3/aarch64-linux/ascend_toolkit_install.info"),
    ("a2_healthy", "/usr/local/Ascend/ascend-toolkit/8.0.RC3/version.cfg"),
    ("a2_healthy", "/usr/local/Ascend/ascend-toolkit/8.0.RC3/compiler/version.info"),
    ("distributed_910b_node", "/etc/hccn.conf"),
    ("distributed_910b_node", "/user/config/hccl.json"),
    ("cpu_only", "/opt/conda/envs/ms/lib/python3.9/site-packages/mindspore-1.10.1.dist-info/METADATA"),
]
# A dangling link is a missing file: the verdict is the one for "not installed", not an error.
NAMED_KINDS = ("unreadable", "directory", "symlink-loop", "1GB-sparse", "binary", "empty", "fifo")
SNAPSHOT_KINDS = [k for k in BAD_KINDS if k != "fifo"]  # a bundle cannot carry a FIFO (refused on unpack)
LIVE_KINDS = [k for k in BAD_KINDS if k != "unreadable"]  # as root, permission bits do not stop a read


def _strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def _error_lists(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "errors" and isinstance(v, list):
                yield from (str(x) for x in v)
            else:
                yield from _error_lists(v)
    elif isinstance(node, list):
        for v in node:
            yield from _error_lists(v)


def complaints(report_json):
    """Everything the report says is wrong or unknown: fact errors and non-passing findings."""
    out = list(_error_lists(report_json["facts"]))
    for f in report_json["findings"]:
        if f["status"] in ("warn", "fail", "error"):
            out.extend(_strings({"s": f["summary"], "e": f["evidence"]}))
    return "\n".join(out)


def assert_survived(report_json):
    assert report_json["facts"].get("probe_crashes", {}) in ({}, None), report_json["facts"]["probe_crashes"]
    crashed = [f["id"] for f in report_json["findings"] if "crashed" in f["summary"] or f["id"].startswith("doctor.")]
    assert not crashed
    assert all(f["status"] in ("pass", "warn", "fail", "skip", "error") for f in report_json["findings"])
    json.dumps(report_json)  # serialisable: the JSON report can be written


def assert_named(path, rep, kind):
    said = complaints(rep)
    # The CANN probe reads the install through the `latest` link the environment uses.
    names = {path, path.replace("/8.0.RC3/", "/latest/")}
    assert any(n in said for n in names), f"{path} ({kind}) is not named in any error or finding"


def _facts_without_timing(report_json):
    facts = dict(report_json["facts"])
    facts.pop("probe_ms", None)
    return json.dumps(facts, sort_keys=True)


def _report(host):
    t0 = time.monotonic()
    rep = run_checks(host, RunOptions(timeout=2)).to_json()
    return rep, time.monotonic() - t0


_clean_cache = {}


def _clean(fixture):
    if fixture not in _clean_cache:
        _clean_cache[fixture] = _report(SnapshotHost(fixture_path(fixture)))[0]
    return _clean_cache[fixture]


def _apply(root, path, kind):
    local = root + path
    with open(local, encoding="utf-8", newline="") as fh:
        good = fh.read()
    BAD_KINDS[kind](local, good)


@pytest.mark.parametrize("kind", SNAPSHOT_KINDS)
@pytest.mark.parametrize("fixture, path", TARGETS, ids=[os.path.basename(p) for _, p in TARGETS])
def test_bad_file_in_a_snapshot(tmp_path, fixture, path, kind):
    snap = copy_fixture(fixture_path(fixture), tmp_path / "snap")
    _apply(snap + "/root", path, kind)
    rep, seconds = _report(SnapshotHost(snap))
    assert_survived(rep)
    assert seconds < 20
    if kind in READABLE_KINDS:
        assert _facts_without_timing(rep) == _facts_without_timing(_clean(fixture))
    elif kind in NAMED_KINDS:
        assert_named(path, rep, kind)


@pytest.mark.parametrize("kind", LIVE_KINDS)
@pytest.mark.parametrize("fixture, path", TARGETS, ids=[os.path.basename(p) for _, p in TARGETS])
def test_bad_file_on_a_live_host(tmp_path, fixture, path, kind):
    """The same through LiveHost.read_text: real open(), real FIFOs and links, nothing of this machine read."""
    snap = copy_fixture(fixture_path(fixture), tmp_path / "snap")
    root = snap + "/root"
    _apply(root, path, kind)
    with open(os.path.join(snap, "env.json")) as fh:
        env = json.load(fh)
    env["PATH"] = str(tmp_path / "empty-bin")  # no vendor tool of this machine answers
    rep, seconds = _report(RootedLiveHost(root, env))
    assert_survived(rep)
    assert seconds < 20  # a FIFO must not block the read
    if kind in NAMED_KINDS:
        assert_named(path, rep, kind)


def test_fifo_with_a_silent_writer_is_read_with_a_deadline(tmp_path, monkeypatch):
    """A FIFO someone holds open but never writes to: the read gives up at the deadline."""
    from ascend_doctor import host as host_mod
    from ascend_doctor.host import FileUnreadable, LiveHost

    monkeypatch.setattr(host_mod.live, "NON_REGULAR_READ_TIMEOUT", 0.5)
    fifo = tmp_path / "hccn.conf"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)  # holds a writer end open, writes nothing
    try:
        start = time.monotonic()
        with pytest.raises(FileUnreadable, match="FIFO"):
            LiveHost().read_text(str(fifo))
        assert time.monotonic() - start < 3
    finally:
        os.close(writer)


def test_device_files_are_not_read_forever():
    from ascend_doctor.host import FileTooLarge, LiveHost

    with pytest.raises(FileTooLarge):
        LiveHost().read_text("/dev/zero")
    assert LiveHost().read_text("/dev/null") == ""


# -- files the user names: --baseline and aggregate inputs -------------------------------------

BAD_REPORTS = {
    "fifo": None,
    "binary": b"\xff\xfe\x00\x01" * 100,
    "invalid-utf8": b'{"schema": "ascend-doctor.report/1", "host": {"name": "\xff"}}',
    "deep": b"[" * 100000 + b"]" * 100000,
    "empty": b"",
    "truncated": b'{"schema": "ascend-doctor.report/1", "facts": {',
    "wrong-types": json.dumps({"schema": "ascend-doctor.report/1", "facts": {"extra": {"launch": [1]}},
                               "findings": "none"}).encode(),
}


@pytest.mark.parametrize("kind", sorted(BAD_REPORTS))
def test_bad_baseline_file_is_one_line_exit_2(tmp_path, kind):
    from tests.helpers import run_cli

    path = tmp_path / "base.json"
    if BAD_REPORTS[kind] is None:
        os.mkfifo(path)
    else:
        path.write_bytes(BAD_REPORTS[kind])
    proc = run_cli("check", "--bundle", fixture_path("a2_healthy"), "--baseline", str(path), timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "base.json" in proc.stderr


@pytest.mark.parametrize("kind", sorted(BAD_REPORTS))
def test_bad_report_in_an_aggregate_directory_is_named_not_fatal(tmp_path, kind):
    from tests.helpers import run_cli

    d = tmp_path / "reports"
    d.mkdir()
    good = run_cli("check", "--bundle", fixture_path("a2_healthy"), "--format", "json").stdout
    (d / "good.json").write_text(good)
    bad = d / "bad.json"
    if BAD_REPORTS[kind] is None:
        os.mkfifo(bad)
    else:
        bad.write_bytes(BAD_REPORTS[kind])
    proc = run_cli("aggregate", str(d), "--format", "json", timeout=60)
    assert proc.returncode in (0, 1), proc.stderr
    assert "bad.json" in proc.stdout and "Traceback" not in proc.stderr
