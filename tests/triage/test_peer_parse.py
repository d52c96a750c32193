"""ascend-fd's parse output read as evidence: the peer's module cases that ship only `ascend-rc-parser.json`
give the verdicts the peer's own test asserts (tests/fixtures/ascend_fd_parse/EXPECTED.json names the source)."""

import json
import os

import pytest

from ascend_doctor.triage import triage_paths
from ascend_doctor.triage.peer_parse import _time

from tests.helpers import run_cli

CASES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "ascend_fd_parse")
EXPECTED = json.load(open(os.path.join(CASES, "EXPECTED.json")))["cases"]


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_parse_output_gives_the_peer_verdict(case):
    rc = triage_paths([os.path.join(CASES, case)]).root_cause
    want = EXPECTED[case]
    assert (rc["ascend_fd_code"], rc["peer_devices"]) == (want["ascend_fd_code"], want["devices"])


def test_parse_output_beside_the_filtered_plogs_is_read_once(tmp_path):
    """A real parse folder holds both the JSON and the plog-parser logs of the same processes: the evidence is
    taken once (the JSON's), the logs still give their problems."""
    import shutil

    src = os.path.join(CASES, "rc_126", "w_1", "ascend-rc-parser.json")
    node = tmp_path / "fault_diag_data" / "w_1"
    node.mkdir(parents=True)
    shutil.copy(src, node)
    data = json.load(open(src))["12337"]
    (node / "plog-parser-12337-1.log").write_text("".join(data["show_logs"]["normal"]) +
                                                    "\n".join(data["show_logs"]["error"]) + "\n")
    res = triage_paths([str(tmp_path / "fault_diag_data")])
    assert (res.root_cause["ascend_fd_code"], res.root_cause["devices"]) == (126, ["w_1 device-4"])
    assert len([i for i in res.inputs if i.scanned]) == 2


def test_root_cause_names_first_and_last_error_device_and_the_root_event():
    out = json.loads(run_cli("triage", os.path.join(CASES, "rc_107"), "--format", "json").stdout)["root_cause"]
    assert out["first_error_device"]["time"] <= out["last_error_device"]["time"]
    assert out["last_error_device"]["device"] == "worker-0 device-6"  # the late reporter of 107
    ev = out["device_events"]["worker-0 device-6"]
    assert ev["file"].endswith("plog-parser-90376-1.log") and ev["time"].startswith("2023-10-24 11:45:09")


def test_bad_parse_output_is_named_and_skipped(tmp_path):
    d = tmp_path / "worker-0"
    d.mkdir()
    (d / "ascend-rc-parser.json").write_text('["not", "an", "object"]')
    (d / "train.log").write_text("[ERROR] ME(1,1,python):2024-05-01-10:00:00.000.000 RuntimeError: x\n")
    proc = run_cli("triage", str(d), "--format", "json")
    assert "ascend-rc-parser.json: not readable as ascend-fd parse output (expected an object of process ids" \
        in proc.stderr


def test_peer_times_become_ours():
    assert _time("2023-10-24-11:45:09.285363") == "2023-10-24 11:45:09.285363"
    assert _time("0000-01-01-00:00:00.000000") is None and _time("garbage") is None


@pytest.mark.parametrize("fmt,said", [("text", "Root cause: Unknown Device ("),
                                      ("html", "Root cause: Unknown Device (")])
def test_unknown_device_is_said_in_the_reports(fmt, said):
    """The peer's case that names no device (124): the text and HTML reports say "Unknown Device", as the peer
    does, where the JSON's device list is empty."""
    want = [c for c, w in EXPECTED.items() if w["devices"] == ["Unknown Device"]]
    assert want
    for case in want:
        out = run_cli("triage", os.path.join(CASES, case), "--format", fmt).stdout
        assert said in out, case
