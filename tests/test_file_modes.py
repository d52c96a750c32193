"""Report files honour the umask (node_exporter and colleagues must read them); collect bundles stay 0600."""

import os
import stat

import pytest

from tests.helpers import run_cli


@pytest.fixture
def umask():
    """Set the umask the CLI children inherit; restore it afterwards."""
    old = os.umask(0o022)
    try:
        yield lambda value: os.umask(value)
    finally:
        os.umask(old)


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "junit", "prom"])
def test_check_output_file_follows_the_umask(tmp_path, umask, fmt):
    out = tmp_path / f"report.{fmt}"
    proc = run_cli("check", "--only", "resources", "--format", fmt, "-o", str(out))
    assert proc.returncode in (0, 1), proc.stderr
    assert _mode(out) == 0o644
    umask(0o077)
    proc = run_cli("check", "--only", "resources", "--format", fmt, "-o", str(out))
    assert _mode(out) == 0o600


def test_preflight_report_dir_files_follow_the_umask(tmp_path, umask):
    reports = tmp_path / "reports"
    proc = run_cli("preflight", "--only", "resources", "--report-dir", str(reports), "--also",
                   "junit,prom,text,markdown")
    assert proc.returncode in (0, 1), proc.stderr
    names = sorted(os.listdir(reports))
    assert len(names) == 5
    assert {n: _mode(reports / n) for n in names} == {n: 0o644 for n in names}
    for fmt in ("text", "json", "html"):
        out = tmp_path / f"cluster.{fmt}"
        run_cli("aggregate", str(reports), "--format", fmt, "-o", str(out))
        assert _mode(out) == 0o644, fmt


def test_collect_bundle_stays_private_whatever_the_umask(tmp_path, umask):
    out = tmp_path / "node.tar.gz"
    proc = run_cli("collect", "--output", str(out), cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert _mode(out) == 0o600
