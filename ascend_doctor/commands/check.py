"""`ascend-doctor check`: probe the machine (or a bundle), run every check, print the report."""

from __future__ import annotations

import argparse

from ..baseline import baseline_argument
from ..cli import COMMANDS
from ..errors import CliError, EXIT_FINDINGS, EXIT_OK
from ..doctor import RunOptions, SelectionError, check_selection, run_checks
from ..findings import FAIL, WARN
from ..render import FORMATS, render
from .common import (
    Progress, add_python_argument, live_host, opened_bundle, reject_python_with_bundle, report_color,
    require_positive_seconds, write_output,
)


def add_report_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=FORMATS, default="text", help="report format (default: text)")
    p.add_argument("--output", "-o", metavar="FILE", help="write the report to FILE (atomically) instead of stdout")
    p.add_argument("--only", nargs="+", metavar="ID", default=[],
                   help="run only these checks (ids, areas like 'install', or globs like 'devices.*')")
    p.add_argument("--skip", nargs="+", metavar="ID", default=[], help="skip these checks (same forms as --only)")
    p.add_argument("--fail-on", choices=[WARN, FAIL], default=FAIL,
                   help="exit 1 when a finding is at this level or worse (default: fail; 'warn' also counts "
                        "warnings and checks that could not run)")
    p.add_argument("--bundle", metavar="PATH",
                   help="diagnose a collected snapshot (directory or .tar.gz) instead of this machine")
    p.add_argument("--timeout", type=float, default=10.0, metavar="S",
                   help="timeout in seconds for each external command such as npu-smi (default: 10)")
    p.add_argument("--no-color", action="store_true", help="plain text even on a terminal (NO_COLOR is honoured too)")
    p.add_argument("--baseline", metavar="REPORT.json", type=baseline_argument, default=None,
                   help="a trusted node's JSON report: report drift from it (versions, HCCL variables, device count)")
    add_python_argument(p)


def register(sub) -> None:
    p = sub.add_parser("check", help=COMMANDS["check"],
                       description="Probe versions and devices, run every check, print a fix-it report.")
    add_report_arguments(p)
    from .smoke import add_smoke_arguments

    p.add_argument("--smoke", action="store_true",
                   help="also run the smoke train on this machine (ascend-doctor smoke; not on bundles)")
    add_smoke_arguments(p)
    p.set_defaults(func=run)


def run_options(args) -> RunOptions:
    require_positive_seconds("--timeout", args.timeout)
    try:
        check_selection(args.only, args.skip)
    except SelectionError as exc:
        raise CliError(str(exc)) from None
    extra = {k: getattr(args, k) for k in ("smoke", "device", "device_id", "baseline") if hasattr(args, k)}
    if getattr(args, "smoke", False):
        from .smoke import smoke_options

        extra.update(smoke_options(args))
    return RunOptions(only=args.only, skip=args.skip, timeout=args.timeout, extra=extra)


def produce_report(args):
    options = run_options(args)
    reject_python_with_bundle(args)
    progress = Progress()
    try:
        if args.bundle:
            with opened_bundle(args.bundle) as host:
                return run_checks(host, options, progress)
        return run_checks(live_host(args), options, progress)
    finally:
        progress.done()


def run(args) -> int:
    report = produce_report(args)
    text = render(report, args.format, color=report_color(args))
    write_output(text, args.output)
    return EXIT_FINDINGS if report.failed(args.fail_on) else EXIT_OK
