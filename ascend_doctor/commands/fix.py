"""`ascend-doctor fix --script`: every fix of a report's problems as one reviewable bash script."""

from __future__ import annotations


import time

from ..cli import COMMANDS
from ..errors import CliError, EXIT_OK
from ..i18n import _
from .check import add_from_report_argument, add_report_arguments, produce_report
from .common import write_output


def register(sub) -> None:
    p = sub.add_parser("fix", help=_(COMMANDS["fix"]),
                       description=_("Write the fixes of every fail/warn finding as one bash script to review and "
                                      "run yourself (Linux nodes; bash only). The doctor never runs it. Source: this "
                                      "machine (default), --bundle, or --from-report REPORT.json."))
    p.add_argument("--script", action="store_true", required=True,
                   help=_("print the fixes as a bash script (the only form for now)"))
    add_report_arguments(p)
    add_from_report_argument(p)  # the saved report's facts are judged again: today's fixes, not last month's
    p.set_defaults(func=run)


def run(args) -> int:
    from ..fix_script import script_for

    if args.format != "text":
        raise CliError(_("fix --script writes a bash script; --format does not apply"))
    report = produce_report(args)
    when = time.strftime("%Y-%m-%d %H:%M %Z")
    write_output(script_for(report, when), args.output)
    return EXIT_OK



