"""`ascend-doctor fix --script`: every fix of a report's problems as one reviewable bash script."""

from __future__ import annotations


import time

from ..cli import COMMANDS
from ..errors import CliError, EXIT_OK
from ..data import DataError, load_json_file
from ..findings import Report
from .check import add_report_arguments, produce_report
from .common import write_output


def register(sub) -> None:
    p = sub.add_parser("fix", help=COMMANDS["fix"],
                       description="Write the fixes of every fail/warn finding as one bash script to review and "
                                   "run yourself (Linux nodes; bash only). The doctor never runs it. Source: this "
                                   "machine (default), --bundle, or --from-report REPORT.json.")
    p.add_argument("--script", action="store_true", required=True,
                   help="print the fixes as a bash script (the only form for now)")
    p.add_argument("--from-report", metavar="REPORT.json",
                   help="take the findings of a saved JSON report (check/preflight --format json) instead of "
                        "running the checks")
    add_report_arguments(p)
    p.set_defaults(func=run)


def _load_report(path: str) -> Report:
    try:
        data = load_json_file(path, "an ascend-doctor JSON report")
    except DataError as exc:
        raise CliError(str(exc)) from None
    if not isinstance(data, dict):
        raise CliError(f"{path}: expected an ascend-doctor JSON report (an object), got {type(data).__name__}")
    try:
        return Report.from_json(data)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise CliError(f"{path}: not an ascend-doctor report ({exc})") from None


def run(args) -> int:
    from ..fix_script import script_for

    if args.format != "text":
        raise CliError("fix --script writes a bash script; --format does not apply")
    if args.from_report:
        if args.bundle:
            raise CliError("--from-report and --bundle are two sources; give one")
        report = _load_report(args.from_report)
    else:
        report = produce_report(args)
    when = time.strftime("%Y-%m-%d %H:%M %Z")
    write_output(script_for(report, when), args.output)
    return EXIT_OK



