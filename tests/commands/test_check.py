"""commands/check.py: `ascend-doctor check`: selection, formats, output files, bundles."""

from tests.helpers import run_cli
import json
import pytest
from tests.helpers import run_cli, run_json


def test_check_offers_junit_and_prom_formats():
    proc = run_cli("check", "--format", "prom")
    assert proc.returncode in (0, 1), proc.stderr
    assert "# TYPE ascend_doctor_check_status gauge" in proc.stdout


def test_unreadable_bundle_exit_2_one_line(tmp_path):
    proc = run_cli("check", "--bundle", str(tmp_path / "nope.tar.gz"))
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "nope.tar.gz" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_output_file_is_written_whole(tmp_path):
    out = tmp_path / "r.json"
    proc = run_cli("--format", "json", "--output", str(out))
    assert proc.returncode in (0, 1)
    assert proc.stdout == ""
    assert json.loads(out.read_text())["schema"] == "ascend-doctor.report/2"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_output_into_missing_directory_is_exit_2(tmp_path):
    proc = run_cli("--output", str(tmp_path / "no" / "r.txt"))
    assert proc.returncode == 2 and "--output" in proc.stderr


def test_only_and_skip_select_checks():
    _, data = run_json("check", "--only", "resources")
    assert data["findings"] and all(f["id"].startswith("resources.") for f in data["findings"])
    _, data = run_json("check", "--skip", "resources.*")
    assert not any(f["id"].startswith("resources.") for f in data["findings"])


@pytest.mark.parametrize("args, named, closest", [
    (["check", "--only", "hccl.env_nmes"], "hccl.env_nmes", "hccl.env_names"),
    (["check", "--skip", "resourcez"], "resourcez", "resources"),
    (["check", "--only", "install", "devics.*"], "devics.*", "devices"),
    (["preflight", "--only", "hccl.env_valus"], "hccl.env_valus", "hccl.env_values"),
    (["preflight", "--skip", "rank_tabel"], "rank_tabel", "rank_table"),
])
def test_selection_that_matches_no_check_is_exit_2(args, named, closest):
    proc = run_cli(*args)
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-300:], proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0] and closest in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


@pytest.mark.parametrize("selection, reason", [
    (["--skip", "*"], "--skip *: nothing was checked: the selection leaves no check to run"),
    (["--only", "smoke"], "--only smoke: nothing was checked: the smoke train (smoke.train) runs only with --smoke")])
def test_a_selection_that_checks_nothing_is_not_called_healthy(selection, reason):
    """It used to print "0 pass, 0 skipped — healthy" and exit 0 after checking nothing."""
    from tests.helpers import fixture_path

    for command in (["check"], ["fix", "--script"], ["preflight"]):
        proc = run_cli(*command, "--bundle", fixture_path("a2_healthy"), *selection)
        assert (proc.returncode, proc.stdout, proc.stderr) == (2, "", f"ascend-doctor: error: {reason}\n"), command
    proc = run_cli("check", "--bundle", fixture_path("a2_healthy"), *selection, "--lang", "zh")
    assert proc.returncode == 2 and "什么都没有检查" in proc.stderr
