"""The CLI contract: default command, formats, exit codes, streams, atomic output."""

import json

import pytest

from tests.helpers import run_cli, run_json


def test_bare_command_runs_check_and_prints_a_report():
    proc = run_cli()
    assert proc.returncode in (0, 1), proc.stderr
    assert "ascend-doctor" in proc.stdout and "Summary:" in proc.stdout


def test_json_report_shape_and_clean_stdout():
    proc, data = run_json("check")
    assert data["schema"] == "ascend-doctor.report/2"
    assert set(data) >= {"tool", "host", "facts", "findings", "summary"}
    assert set(data["summary"]) == {"pass", "warn", "fail", "skip", "error"}
    for f in data["findings"]:
        assert set(f) >= {"id", "status", "title", "summary", "evidence", "fix", "pitfall", "duration_ms"}
        assert f["status"] in data["summary"]


def test_bad_arguments_exit_2_with_one_line():
    proc = run_cli("check", "--format", "yaml")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "yaml" in proc.stderr


def test_no_color_when_piped():
    proc = run_cli()
    assert "\033[" not in proc.stdout


def test_help_lists_every_subcommand():
    from ascend_doctor.cli import COMMANDS

    proc = run_cli("--help")
    assert proc.returncode == 0
    for name in COMMANDS:
        assert name in proc.stdout


def test_lang_before_help_is_ascend_doctors_own_help_in_that_language():
    """`--lang zh --help` printed check's help (the default command took the --lang and the --help)."""
    top = run_cli("--help")
    zh = run_cli("--lang", "zh", "--help")
    assert zh.returncode == 0 and zh.stdout.startswith("用法：ascend-doctor [-h] [--version] COMMAND"), zh.stdout[:200]
    assert "不带子命令时运行 `check`" in zh.stdout
    assert run_cli("--lang=en", "--help").stdout == top.stdout and top.stdout.startswith("usage: ascend-doctor [-h]")
    assert run_cli("--lang", "zh", "--version").stdout == run_cli("--version").stdout
    assert run_cli("--lang", "zh", "--format", "json", "--help").stdout.startswith("用法：ascend-doctor check")


@pytest.mark.parametrize("args", [
    ("check", "--bundle", "tests/fixtures/a2_env_not_sourced", "--no-color"),
    ("check", "--bundle", "tests/fixtures/a2_env_not_sourced", "--lang", "zh", "--only", "install"),
    ("--lang", "zh", "--help"),
    ("matrix", "show", "--cann", "8.0.RC3"),
    ("rank-table", "/dev/stdin"),
    ("check", "--from-report", "missing.json"),
    ("explain", "no-such-id"),
])
def test_the_in_process_run_of_the_suite_is_the_process_run(args):
    """tests.helpers.run_cli calls main() in the test's process: what it gives back is what a real
    `python -m ascend_doctor` gives (exit code, stdout, stderr), so the suite tests what users run."""
    kw = {"input": '{"version": "1.0"}'} if "/dev/stdin" in args else {}
    inside, child = run_cli(*args, **kw), run_cli(*args, process=True, **kw)
    assert (inside.returncode, inside.stdout, inside.stderr) == (child.returncode, child.stdout, child.stderr)


@pytest.mark.parametrize("argv, expected", [
    (["--lang", "zh", "triage", "d"], ["triage", "d", "--lang", "zh"]),
    (["--lang=zh", "kb", "search", "超时"], ["kb", "search", "超时", "--lang=zh"]),
    (["--lang", "zh", "smoke", "--", "-x"], ["smoke", "--lang", "zh", "--", "-x"]),
    (["--lang", "zh", "--bundle", "b"], ["check", "--lang", "zh", "--bundle", "b"]),
    (["--lang", "zh", "--help"], ["--help"]),
    (["triage", "--lang", "zh", "d"], ["triage", "d", "--lang", "zh"]),
    (["kb", "--lang", "zh", "search", "超时"], ["kb", "search", "超时", "--lang", "zh"]),
    (["check", "--bundle", "b"], ["check", "--bundle", "b"]),
])
def test_lang_before_the_subcommand_is_the_subcommands_lang(argv, expected):
    """A reader puts `--lang zh` first; it used to drop the command line into `check` ('unrecognised arguments:
    triage d')."""
    from ascend_doctor.cli import _with_default_command

    assert _with_default_command(argv) == expected
