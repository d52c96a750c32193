"""`ascend-doctor triage PATH...`: name the known problems in logs (files, directories, .gz, stdin, a bundle)."""

from __future__ import annotations

import sys

from ..cli import COMMANDS
from ..errors import CliError, EXIT_FINDINGS, EXIT_OK
from ..i18n import _, lookup
from ..render.triage_report import FORMATS, render_triage
from ..triage import Triage
from ..triage.result import NOT_A_LOG
from .common import add_kb_option, load_kb, opened_bundle, report_color, write_output


def register(sub) -> None:
    p = sub.add_parser(
        "triage", help=_(COMMANDS["triage"]),
        description=_("Read MindSpore / msrun / CANN plog / device logs (files, directories recursively, .gz, "
                       "'-' for stdin, or the logs inside a bundle) and print each known problem once: count, "
                       "first and last occurrence, the most telling line, the cause and the fix."))
    p.add_argument("paths", nargs="*", metavar="PATH", help=_("log files, directories, .gz files, or - for stdin"))
    p.add_argument("--bundle", metavar="FILE", help=_("triage the logs collected inside a snapshot (collect --logs)"))
    p.add_argument("--node", metavar="NAME",
                   help=_("the node every PATH belongs to (default: one node per sub-directory of a cluster "
                           "directory, else the directory's name)"))
    p.add_argument("--format", choices=FORMATS, default="text", help=_("output format (default: text)"))
    p.add_argument("--output", "-o", metavar="FILE", help=_("write the result to FILE (atomically) instead of stdout"))
    p.add_argument("--fail-on", choices=["warn", "fail", "unexplained"], default="fail",
                   help=_("exit 1 when a problem at this level or worse is found (default: fail)") + "; " +
                   _("unexplained: also when an error line that no known signature explains is found"))
    p.add_argument("--no-color", action="store_true", help=_("plain text even on a terminal"))
    add_kb_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    if not args.paths and not args.bundle:
        raise CliError(_("triage: give at least one PATH (a file, a directory, or - for stdin) or --bundle FILE"))
    t = Triage(load_kb(args.kb), node=args.node)
    if args.bundle:
        with opened_bundle(args.bundle) as host:
            if not t.add_bundle(host, args.node):  # like an empty directory: an input with nothing to read
                t.add_unread(args.bundle, _("the bundle holds no logs (collect it with --logs DIR)"))
            for path in args.paths:  # inside: the bundle's files stay on disk until the scan is over
                t.add_path(path)
    else:
        for path in args.paths:
            t.add_path(path)
    result = t.result()
    for info in result.inputs:
        if info.note and not info.scanned and info.note != NOT_A_LOG:
            print(f"ascend-doctor: {info.label}: {lookup(info.note)}", file=sys.stderr)
    if result.inputs and not any(i.scanned for i in result.inputs):
        raise CliError(_("none of the inputs could be read as a text log (see the lines above)"))
    text = render_triage(result, args.format, color=report_color(args))
    write_output(text, args.output)
    return EXIT_FINDINGS if result.failed(args.fail_on) else EXIT_OK

