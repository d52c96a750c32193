"""`ascend-doctor aggregate DIR|FILES...`: one verdict for the whole job from the per-node reports."""

from __future__ import annotations

import time

from ..aggregate import (AggregateInputError, Aggregator, add_bundles, add_logs, bundle_paths, log_dirs,
                         report_paths, triage_logs)
from ..baseline import baseline_argument
from ..cli import COMMANDS
from ..errors import CliError, EXIT_FINDINGS, EXIT_OK
from ..findings import FAIL, REPORT_SCHEMA, WARN
from ..i18n import _
from ..i18n_text import worded
from ..render.aggregate_json import aggregate_json_pieces
from ..render.aggregate_text import render_aggregate_text
from ..render.html_aggregate import render_aggregate_html
from .common import write_output

AGGREGATE_FORMATS = ("text", "json", "html")
COMPACT_JSON_ABOVE = 256


def register(sub) -> None:
    p = sub.add_parser("aggregate", help=_(COMMANDS["aggregate"]),
                       description=_("Read the node reports in DIR (or the FILES given) and report failing nodes, facts "
                                      "that differ across nodes, rank-table disagreement and missing ranks. A DIR of node "
                                      "log directories (no *.json at its top) is triaged as `triage` does: the device the "
                                      "cluster waited on, and the known problems in the logs."))
    p.add_argument("inputs", nargs="+", metavar="DIR|FILE", help=_("a report directory, or report .json files"))
    p.add_argument("--format", choices=AGGREGATE_FORMATS, default="text", help=_("output format (default: text)"))
    p.add_argument("--output", "-o", metavar="FILE", help=_("write to FILE (atomically) instead of stdout"))
    p.add_argument("--fail-on", choices=[WARN, FAIL], default=FAIL,
                   help=_("a node fails when it has a finding at this level or worse (default: fail)"))
    p.add_argument("--expect", type=int, metavar="N",
                   help=_("number of reports expected (default: the world size the launchers reported)"))
    p.add_argument("--wait", type=float, default=0.0, metavar="S",
                   help=_("with --expect: wait up to S seconds for the N reports to appear (other nodes still writing)"))
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help=_("processes that parse reports in parallel (default: 1; a pool pays off from a few thousand "
                           "reports on idle cores, and costs more than it saves on a busy login node)"))
    p.add_argument("--baseline", metavar="REPORT.json", type=baseline_argument, default=None,
                   help=_("a trusted node's JSON report: name the nodes that drifted from it"))
    p.set_defaults(func=run)


def _paths(args):
    try:
        return report_paths(args.inputs)
    except AggregateInputError as exc:
        raise CliError(str(exc)) from None


def run(args) -> int:
    if args.jobs < 1:
        raise CliError(_("--jobs must be 1 or more, got {value}").format(value=args.jobs))
    if args.expect is not None and args.expect <= 0:
        raise CliError(_("--expect must be a positive number of reports, got {value}").format(value=args.expect))
    if args.wait and args.expect is None:
        raise CliError(_("--wait needs --expect N (the number of reports to wait for)"))
    paths = _paths(args)
    deadline = time.monotonic() + max(0.0, args.wait)
    while args.expect is not None and len(paths) < args.expect and time.monotonic() < deadline:
        time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))
        paths = _paths(args)
    logs = log_dirs(args.inputs)
    bundles = bundle_paths(args.inputs)
    if not paths and not logs and not bundles:
        raise CliError(_("{inputs}: no *.json node reports found").format(inputs=", ".join(args.inputs)))
    agg = Aggregator(fail_on=args.fail_on, expect=args.expect, baseline=args.baseline)
    agg.add_files(paths, jobs=args.jobs)
    try:
        bundle_logs = add_bundles(agg, bundles) if bundles else None
    except AggregateInputError as exc:
        raise CliError(str(exc)) from None
    if agg.unreadable and not agg.nodes:
        # Not one node report among the inputs: nothing to aggregate (a torn report next to good ones is a
        # finding about that node instead, see "unreadable").
        first = agg.unreadable[0]
        if len(agg.unreadable) > 1:
            text = _("{error} (and {count} more file(s) like it); expected a node report: JSON with \"schema\": "
                     "\"{schema}\", as `ascend-doctor preflight --report-dir` or `check --format json` write")
        else:
            text = _("{error}; expected a node report: JSON with \"schema\": \"{schema}\", as `ascend-doctor "
                     "preflight --report-dir` or `check --format json` write")
        raise CliError(text.format(error=worded(first.error), count=len(agg.unreadable) - 1, schema=REPORT_SCHEMA))
    result = agg.result()
    if logs or bundle_logs is not None:
        add_logs(result, triage_logs(logs, bundle_logs))
    if args.format == "json":
        # Indented for reading when small; compact when large (the indenting encoder is pure Python, ~5x slower).
        indent = 1 if result["nodes_total"] <= COMPACT_JSON_ABOVE else None
        text = aggregate_json_pieces(result, indent)
    elif args.format == "html":
        text = render_aggregate_html(result)
    else:
        text = render_aggregate_text(result)
    write_output(text, args.output)
    return EXIT_OK if result["verdict"] == "ok" else EXIT_FINDINGS
