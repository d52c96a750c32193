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
from conftest import fixture_path
from faults import BAD_KINDS, READABLE_KINDS, RootedLiveHost, copy_fixture

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
