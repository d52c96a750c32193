"""Command line: `ascend-doctor [check] ...` and the other subcommands.

The CLI alone owns exit codes and streams: the report goes to stdout (or
--output), progress and logs to stderr.

Exit codes: 0 nothing at or above --fail-on; 1 findings at or above it;
2 the doctor could not run (bad arguments, unreadable bundle), with a one-line reason.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import List, Optional

from . import __version__

EXIT_OK, EXIT_FINDINGS, EXIT_CANNOT_RUN = 0, 1, 2

# Subcommand modules under ascend_doctor.commands, in the order --help lists them.
COMMANDS = ["check", "triage", "collect"]


class CliError(Exception):
    """A one-line reason the doctor could not run (exit 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, like every other could-not-run
        self.exit(EXIT_CANNOT_RUN, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ascend-doctor",
        description="Diagnose the Huawei Ascend AI stack (NPU driver/firmware, CANN, HCCL, MindSpore; "
                    "MindSpore on CUDA too) and print how to fix what is wrong. "
                    "With no subcommand, runs `check`.",
        epilog="Exit codes: 0 healthy (nothing at or above --fail-on), 1 problems found, 2 could not run.",
    )
    parser.add_argument("--version", action="version", version=f"ascend-doctor {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(f".commands.{name.replace('-', '_')}", __package__).register(sub)
    return parser


def _with_default_command(argv: List[str]) -> List[str]:
    if not argv:
        return ["check"]
    first = argv[0]
    if first in ("-h", "--help", "--version") or first in COMMANDS:
        return argv
    if first.startswith("-"):
        return ["check"] + argv
    return argv


def main(argv: Optional[List[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(_with_default_command(argv))
    try:
        return int(args.func(args))
    except CliError as exc:
        print(f"ascend-doctor: error: {exc}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    except KeyboardInterrupt:
        print("ascend-doctor: interrupted", file=sys.stderr)
        return 130
