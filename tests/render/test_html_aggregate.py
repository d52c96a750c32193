"""The aggregate HTML report, rendered in real headless Chromium: it must show the verdict, the
skew, the fix and a coloured node × check grid, from the file alone (no network)."""

import os
import re
import shutil

import pytest

from tests.helpers.cluster_helpers import FULL_DISKS, node_report, write_report
from tests.helpers import REPO, run_cli
from tests.helpers import FIXTURES, run_cli
from tests.helpers.browser import browser, console_messages, needs_chromium

ARTIFACTS = os.path.join(REPO, "test-artifacts")


def _browser(tmp_path, *args):
    return browser(*args, profile=str(tmp_path / "profile"))


@pytest.fixture
def html_report(tmp_path):
    d = tmp_path / "reports"
    for i in range(6):
        name = f"node-{10 + i}"
        write_report(d, node_report(tmp_path, name, rank=i, world_size=6,
                                    driver="23.0.3" if name == "node-15" else "24.1.rc2",
                                    disks=FULL_DISKS if name == "node-12" else None,
                                    env={"HCCL_CONNECT_TIMEOUT": "<script>alert(1)</script>"} if name == "node-13" else None))
    out = tmp_path / "job.html"
    proc = run_cli("aggregate", str(d), "--format", "html", "-o", str(out))
    assert proc.returncode == 1, proc.stderr
    return out


def test_html_is_self_contained_and_escaped(html_report):
    text = html_report.read_text()
    assert "<script" not in text.replace("&lt;script&gt;", "")  # the injected value is escaped, no scripts at all
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert not re.search(r"""(src|href)\s*=\s*['"]?(https?:)?//""", text)  # nothing to fetch
    assert "@import" not in text and "url(" not in text


@needs_chromium
def test_html_renders_in_headless_chromium(html_report, tmp_path):
    os.makedirs(ARTIFACTS, exist_ok=True)
    shot = os.path.join(ARTIFACTS, "aggregate_report.png")
    if os.path.exists(shot):
        os.unlink(shot)
    url = "file://" + str(html_report)
    proc = _browser(tmp_path, f"--screenshot={shot}", "--window-size=1400,900", url)
    assert os.path.getsize(shot) > 10000, proc.stderr[-2000:]
    loaded = _browser(tmp_path, "--dump-dom", url)
    dom = loaded.stdout
    assert console_messages(loaded.stderr) == []
    shutil.copy(str(html_report), os.path.join(ARTIFACTS, "aggregate_report.html"))
    # What the support engineer sees, as the browser parsed it:
    assert re.search(r"<span class=\"verdict problems\" id=\"verdict\">PROBLEMS</span>", dom)
    skew_row = re.search(r"<tr><td>NPU driver</td><td>24\.1\.rc2 \(5 nodes\)</td><td>(.*?)</td></tr>", dom)
    assert skew_row and "23.0.3" in skew_row.group(1) and "node-15-rank5" in skew_row.group(1)
    assert "du -sh" in dom  # the fix for the full disk
    row = re.search(r'<tr data-node="node-12-rank2">(.*?)</tr>', dom, re.S).group(1)
    assert 'class="s-fail" title="node-12-rank2 · resources.disk_space: fail"' in row
    healthy = re.search(r'<tr data-node="node-10-rank0">(.*?)</tr>', dom, re.S).group(1)
    assert "s-fail" not in healthy and "s-pass" in healthy
    assert "alert(1)" in dom and "<script>alert" not in dom


def test_html_evidence_is_never_a_python_repr(tmp_path):
    reports = tmp_path / "r"
    run_cli("preflight", "--bundle", os.path.join(FIXTURES, "two_cann_installs"), "--report-dir", str(reports))
    out = tmp_path / "a.html"
    run_cli("aggregate", str(reports), "--format", "html", "-o", str(out))
    html = out.read_text()
    assert "other_cann_installs" in html
    assert "[&#x27;" not in html and "{&#x27;" not in html and "['" not in html  # no list or dict repr
