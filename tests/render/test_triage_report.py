"""render/triage_report.py: triage's text and Markdown."""

from tests.helpers import run_cli
from tests.triage.test_triage import OOM, write  # noqa: F401


def test_markdown_and_text_formats(tmp_path):
    log = write(tmp_path / "a.log", [OOM])
    md = run_cli("triage", log, "--format", "markdown").stdout
    assert "| 1 | fail | `TORCH_NPU_OOM`" in md and "**Fix.**" in md
    txt = run_cli("triage", log).stdout
    assert "FAIL TORCH_NPU_OOM" in txt and "Fix:" in txt and "PYTORCH_NPU_ALLOC_CONF" in txt
