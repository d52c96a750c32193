"""The CLI contract: default command, formats, exit codes, streams, atomic output."""

import json

import pytest

from conftest import run_cli, run_json


def test_bare_command_runs_check_and_prints_a_report():
    proc = run_cli()
    assert proc.returncode in (0, 1), proc.stderr
    assert "ascend-doctor" in proc.stdout and "Summary:" in proc.stdout


def test_json_report_shape_and_clean_stdout():
    proc, data = run_json("check")
    assert data["schema"] == "ascend-doctor.report/1"
    assert set(data) >= {"tool", "host", "facts", "findings", "summary"}
    assert set(data["summary"]) == {"pass", "warn", "fail", "skip", "error"}
    for f in data["findings"]:
        assert set(f) >= {"id", "status", "title", "summary", "evidence", "fix", "pitfall", "duration_ms"}
        assert f["status"] in data["summary"]


def test_bad_arguments_exit_2_with_one_line():
    proc = run_cli("check", "--format", "yaml")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "yaml" in proc.stderr


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
    assert json.loads(out.read_text())["schema"] == "ascend-doctor.report/1"
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


def test_no_color_when_piped():
    proc = run_cli()
    assert "\033[" not in proc.stdout


def test_help_lists_every_subcommand():
    from ascend_doctor.cli import COMMANDS

    proc = run_cli("--help")
    assert proc.returncode == 0
    for name in COMMANDS:
        assert name in proc.stdout
