"""`ascend-doctor check`: probe the machine (or a bundle), run every check, print the report.

With --from-report the facts of a saved JSON report are judged again (today's matrix and knowledge base).
"""

from __future__ import annotations

import argparse

from ..cli import COMMANDS
from ..errors import CliError, EXIT_FINDINGS, EXIT_OK
from ..checks import all_checks
from ..doctor import RunOptions, Selection, SelectionError, check_selection, evaluate, run_checks
from ..facts import Facts, FactsError
from ..findings import FAIL, WARN, Report
from ..i18n import N_, _
from ..render import FORMATS, render
from .common import (
    Progress, add_python_argument, live_host, opened_bundle, reject_python_with_bundle, report_color,
    require_positive_seconds, write_output,
)


def baseline_argument(path: str):
    """argparse `type=` for --baseline (baseline.baseline_argument), imported only when --baseline is given."""
    from ..baseline import baseline_argument as load

    return load(path)


def add_report_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=FORMATS, default="text", help=_("report format (default: text)"))
    p.add_argument("--output", "-o", metavar="FILE", help=_("write the report to FILE (atomically) instead of stdout"))
    p.add_argument("--only", nargs="+", metavar="ID", default=[],
                   help=_("run only these checks (ids, areas like 'install', or globs like 'devices.*')"))
    p.add_argument("--skip", nargs="+", metavar="ID", default=[], help=_("skip these checks (same forms as --only)"))
    p.add_argument("--fail-on", choices=[WARN, FAIL], default=FAIL,
                   help=_("exit 1 when a finding is at this level or worse (default: fail; 'warn' also counts "
                           "warnings and checks that could not run)"))
    p.add_argument("--bundle", metavar="PATH",
                   help=_("diagnose a collected snapshot (directory or .tar.gz) instead of this machine"))
    p.add_argument("--timeout", type=float, default=10.0, metavar="S",
                   help=_("timeout in seconds for each external command such as npu-smi (default: 10)"))
    p.add_argument("--no-color", action="store_true", help=_("plain text even on a terminal (NO_COLOR is honoured too)"))
    p.add_argument("--baseline", metavar="REPORT.json", type=baseline_argument, default=None,
                   help=_("a trusted node's JSON report: report drift from it (versions, HCCL variables, device count)"))
    add_python_argument(p)


def add_from_report_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--from-report", metavar="REPORT.json",
                   help=_("judge the facts of a saved JSON report (check/preflight --format json) again, with today's "
                           "matrix and knowledge base, instead of probing a machine"))


def register(sub) -> None:
    p = sub.add_parser("check", help=_(COMMANDS["check"]),
                       description=_("Probe versions and devices, run every check, print a fix-it report."))
    add_report_arguments(p)
    add_from_report_argument(p)
    from .smoke import add_smoke_arguments

    p.add_argument("--smoke", action="store_true",
                   help=_("also run the smoke train on this machine (ascend-doctor smoke; not on bundles)"))
    add_smoke_arguments(p)
    p.set_defaults(func=run)


def require_a_check(args) -> None:
    """A selection that runs no check would end in "0 pass, 0 skipped — healthy" about nothing: `--skip '*'`, or
    `--only smoke` without --smoke (the smoke train runs only when asked). One line, exit 2, before any probing."""
    selected = [spec.id for spec in all_checks() if Selection(args.only, args.skip).includes(spec.id)]
    given = " ".join(f"{flag} {' '.join(patterns)}" for flag, patterns in (("--only", args.only), ("--skip", args.skip))
                     if patterns)
    if not selected:
        raise CliError(_("{options}: nothing was checked: the selection leaves no check to run").format(options=given))
    if not getattr(args, "smoke", False) and selected == ["smoke.train"]:
        raise CliError(_("{options}: nothing was checked: the smoke train (smoke.train) runs only with --smoke").format(
            options=given))


def run_options(args) -> RunOptions:
    require_positive_seconds("--timeout", args.timeout)
    try:
        check_selection(args.only, args.skip)
    except SelectionError as exc:
        raise CliError(str(exc)) from None
    require_a_check(args)
    extra = {k: getattr(args, k) for k in ("smoke", "device", "device_id", "baseline") if hasattr(args, k)}
    if getattr(args, "smoke", False):
        from .smoke import smoke_options

        extra.update(smoke_options(args))
    return RunOptions(only=args.only, skip=args.skip, timeout=args.timeout, extra=extra)


def load_saved_report(path: str) -> Report:
    """A saved JSON report (check/preflight --format json); bad input is one line naming the file (exit 2)."""
    from ..data import DataError, load_json_file

    try:
        data = load_json_file(path, N_("an ascend-doctor JSON report"))  # translated where the error is said
    except DataError as exc:
        raise CliError(str(exc)) from None
    if not isinstance(data, dict):
        raise CliError(_("{path}: expected an ascend-doctor JSON report (an object), got {type}").format(
            path=path, type=type(data).__name__))
    try:
        return Report.from_json(data)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise CliError(_("{path}: not an ascend-doctor report ({reason})").format(path=path, reason=exc)) from None


def rejudge(path: str, options: RunOptions) -> Report:
    """The verdicts today's checks, matrix and knowledge base give on the facts of a saved report."""
    saved = load_saved_report(path)
    try:
        facts = Facts.from_json(saved.facts)
    except FactsError as exc:
        raise CliError(_("{path}: not an ascend-doctor report ({reason})").format(path=path, reason=exc)) from None
    origin = {"kind": "report", "name": saved.host.get("name") or "unknown", "report": path,
              "judged_before": {k: saved.host.get(k) for k in ("kind", "created") if saved.host.get(k) is not None}}
    return evaluate(facts, None, options, origin=origin)


def produce_report(args):
    options = run_options(args)
    reject_python_with_bundle(args)
    if getattr(args, "from_report", None):
        for flag, given in (("--bundle", args.bundle), ("--python", getattr(args, "python", None)),
                            ("--smoke", getattr(args, "smoke", False))):
            if given:
                raise CliError(_("--from-report judges the facts of a saved report; {flag} needs a machine or a "
                                 "bundle: give one source").format(flag=flag))
        return rejudge(args.from_report, options)
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
