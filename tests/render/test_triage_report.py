"""render/triage_report.py: triage's text and Markdown."""

from tests.helpers import run_cli
from tests.triage.test_triage import OOM, write  # noqa: F401


def test_markdown_and_text_formats(tmp_path):
    log = write(tmp_path / "a.log", [OOM])
    md = run_cli("triage", log, "--format", "markdown").stdout
    assert "| 1 | fail | `TORCH_NPU_OOM`" in md and "**Fix.**" in md
    txt = run_cli("triage", log).stdout
    assert "FAIL TORCH_NPU_OOM" in txt and "Fix:" in txt and "PYTORCH_NPU_ALLOC_CONF" in txt


def test_root_cause_headline_says_unknown_device_where_the_peer_does():
    """No device named, and ascend-fd's form of the list is "Unknown Device": the headline says so (with the wait
    cycle when there is one); a named device and a list the peer gives otherwise ("ALL Device") keep their
    headlines."""
    from ascend_doctor.render.triage_report import root_cause_headline

    rc = {"kind": "wait_cycle", "ascend_fd_code": 124, "devices": [], "chain": ["a device-0", "b device-1"],
          "peer_devices": ["Unknown Device"]}
    assert root_cause_headline(rc).startswith(
        "Root cause: Unknown Device (no single device; they wait on each other: a device-0 → b device-1)")
    assert root_cause_headline(dict(rc, chain=[])).startswith(
        "Root cause: Unknown Device (not determined from these logs)")
    assert root_cause_headline(dict(rc, chain=[], peer_devices=["ALL Device"])).startswith(
        "Root cause: not determined from these logs")
    assert root_cause_headline(dict(rc, devices=["a device-0"], chain=[], peer_devices=["a device-0"])).startswith(
        "Root cause: a device-0  [")
