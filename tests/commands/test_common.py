"""errors.py (exit codes, CliError) and the helpers every subcommand shares (commands/common.py)."""

import argparse
import math

import pytest

from ascend_doctor import cli, errors
from ascend_doctor.commands.common import opened_bundle, report_color, require_positive_seconds

from tests.helpers import run_cli


def test_named_exit_codes_and_cli_re_exports():
    assert (errors.EXIT_OK, errors.EXIT_FINDINGS, errors.EXIT_CANNOT_RUN) == (0, 1, 2)
    assert (errors.EXIT_INTERRUPTED, errors.EXIT_PIPE) == (130, 141)
    assert cli.CliError is errors.CliError and cli.EXIT_CANNOT_RUN == 2


@pytest.mark.parametrize("value", [0, -1, math.nan, math.inf])
def test_positive_seconds_refuses_what_is_not_a_finite_positive_number(value):
    with pytest.raises(errors.CliError, match=r"^--budget must be a positive number of seconds, got "):
        require_positive_seconds("--budget", value)


def test_positive_seconds_passes_the_value_through():
    assert require_positive_seconds("--timeout", 0.5) == 0.5


def test_opened_bundle_turns_a_bad_bundle_into_one_line(tmp_path):
    bad = tmp_path / "not-a-bundle.tar.gz"
    bad.write_bytes(b"this is not a tar archive")
    with pytest.raises(errors.CliError) as info:
        with opened_bundle(str(bad)):
            pass
    assert str(bad) in str(info.value) and "\n" not in str(info.value)


def test_report_color_only_for_text_on_a_terminal(monkeypatch):
    args = argparse.Namespace(format="json", output=None, no_color=False)
    assert report_color(args) is False
    args = argparse.Namespace(format="text", output="r.txt", no_color=False)
    assert not report_color(args)
    args = argparse.Namespace(format="text", output=None, no_color=True)
    assert report_color(args) is False


@pytest.mark.parametrize("argv", [["check", "--timeout", "nan"], ["collect", "--timeout", "inf"],
                                  ["preflight", "--budget", "0"], ["rank-table", "x.json", "--timeout", "-1"]])
def test_every_command_refuses_a_timeout_that_is_not_positive(argv):
    proc = run_cli(*argv)
    assert proc.returncode == 2 and "must be a positive number of seconds" in proc.stderr, proc.stderr


def test_colour_asks_stdout_as_it_is_when_the_report_is_written(monkeypatch):
    """Not the stdout of when commands/common.py was imported: a caller of main() (a test's run_cli) may have
    redirected it since, and that stream may be closed by now (a ValueError instead of a report)."""
    import io
    import sys

    from ascend_doctor.commands.common import use_color

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr(sys, "stdout", Terminal())
    assert use_color() and not use_color(disabled=True)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert not use_color()
