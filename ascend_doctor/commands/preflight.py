"""`ascend-doctor preflight`: the quick checks every training job runs first, on every node.

Identity comes from the launcher (msrun, Slurm, Open MPI, Kubernetes), so the same line
works everywhere; each node writes `<report-dir>/<node>.json` atomically for
`ascend-doctor aggregate`, and the exit code tells the job script whether to go on.
"""

from __future__ import annotations

import os
import sys
import threading
import time

from .. import __version__
from ..cli import COMMANDS
from ..errors import CliError, EXIT_FINDINGS, EXIT_OK
from ..doctor import run_checks
from ..facts import launch_of, put_launch
from ..findings import FAIL, Finding, Report
from ..i18n import _, deferred, sentences
from ..process import kill_running
from ..probes.launch import probe_launch, safe_node_name
from ..redact import redact_report
from ..render import render
from .check import add_report_arguments, run_options
from .common import (
    Progress, live_host, opened_bundle, reject_python_with_bundle, report_color, require_positive_seconds,
    write_output,
)

# Checks a preflight leaves out unless asked: the smoke train (and its PYNATIVE/GRAPH
# comparison) takes minutes and loads MindSpore; everything else reads files and runs
# bounded commands.
SLOW_CHECKS = ("smoke.*",)
ALSO_FORMATS = {"junit": ".xml", "prom": ".prom", "text": ".txt", "markdown": ".md"}
# The smoke train loads MindSpore and compiles a graph: below this budget it cannot finish, so it is skipped.
SMOKE_MIN_BUDGET_S = 120.0
# Part of the budget kept back for writing the report after the checks stop.
WRITE_RESERVE_S = 1.0


def register(sub) -> None:
    p = sub.add_parser("preflight", help=_(COMMANDS["preflight"]),
                       description=_("Run the quick checks within a time budget, write one report per node to a "
                                      "shared directory, and exit 0 (go), 1 (problems) or 2 (could not run)."))
    add_report_arguments(p)
    p.add_argument("--report-dir", metavar="DIR",
                   help=_("write <DIR>/<node>.json (atomically; node from the launcher's rank/node variables)"))
    p.add_argument("--also", metavar="FMT[,FMT]", default="",
                   help=_("with --report-dir, also write these formats next to the JSON: junit (.xml), prom (.prom), "
                           "text (.txt), markdown (.md)"))
    p.add_argument("--budget", type=float, default=60.0, metavar="S",
                   help=_("total wall-time budget in seconds (default: 60); command timeouts shrink to fit, and a "
                           "run that overruns reports preflight.time_budget as fail"))
    p.add_argument("--net", action="store_true",
                   help=_("with a rank table, ping a sample of the peer device addresses from this node's devices "
                          "(hccn_tool -i N -ping; up to 4 peer servers per device, within one command timeout) and "
                          "report the pairs that do not answer"))
    p.add_argument("--smoke", action="store_true", help=_("also run the smoke train (slow; skipped by default; "
                                                            "never the PYNATIVE comparison in a pre-flight)"))
    from .smoke import add_smoke_arguments

    add_smoke_arguments(p)
    p.set_defaults(func=run)


def _also_formats(text: str):
    wanted = [x.strip() for x in text.split(",") if x.strip()]
    for fmt in wanted:
        if fmt not in ALSO_FORMATS:
            raise CliError(_("--also: {format} is not one of {formats}").format(format=repr(fmt),
                                                                                 formats=", ".join(ALSO_FORMATS)))
    return wanted


def _facts_json(facts) -> dict:
    """The facts gathered so far, as JSON (the abandoned worker may still be writing one: retry)."""
    for _attempt in range(3):
        try:
            return facts.to_json()
        except RuntimeError:  # "dictionary changed size during iteration"
            continue
    return {}


def _budget_overrun(host, args, elapsed: float, partial: dict) -> Report:
    """The report when the checks did not finish in time: what was gathered (facts, finished checks) plus one
    failing finding that says how long it ran and what it was doing when stopped. Its words are messages, as a
    run's (i18n.deferred): the renderer words them, the JSON keeps their ids."""
    with deferred():
        return _overrun_report(host, args, elapsed, partial)


def _overrun_report(host, args, elapsed: float, partial: dict) -> Report:
    facts = _facts_json(partial["facts"]) if partial.get("facts") is not None else {}
    if launch_of(facts) is None:
        put_launch(facts, probe_launch(host, None))
    running = partial.get("now")
    values = {"budget": f"{args.budget:g}", "elapsed": f"{elapsed:.1f}", "running": running}
    stopped = (_("The checks did not finish within --budget {budget} s: stopped after {elapsed} s, while running "
                 "{running}.") if running else
               _("The checks did not finish within --budget {budget} s: stopped after {elapsed} s.")).format(**values)
    finding = Finding(
        id="preflight.time_budget", status=FAIL, title=_("Pre-flight finished within its time budget"),
        summary=sentences(stopped, _("A node where npu-smi or a driver query hangs usually hangs HCCL "
                                     "initialisation too.")),
        evidence={"budget_s": args.budget, "elapsed_s": round(elapsed, 2), "per_command_timeout_s": args.timeout,
                  "running when stopped": running or _("unknown"),
                  "checks finished": len(partial.get("findings") or [])},
        fix=[_("ascend-doctor check --timeout 30   # on this node, to see which check hangs"),
             _("npu-smi info   # if this hangs too, the driver or a device is stuck: reset the device or reboot the "
               "node")],
        pitfall="P13")
    tool = {"name": "ascend-doctor", "duration_ms": int(elapsed * 1000), "finished_unix": round(time.time(), 3)}
    tool["version"] = __version__
    done = list(partial.get("findings") or [])
    report = Report(tool=tool, host={"kind": host.kind, "name": host.label}, facts=facts, findings=done + [finding])
    return redact_report(report, environ=host.env, also=[os.environ] if host.env is not os.environ else [])


def _write_reserve(budget: float) -> float:
    """Part of the budget kept for writing the report: a second, or a tenth of a short budget."""
    return min(WRITE_RESERVE_S, budget / 10.0)


def _run_within_budget(host, options, args, progress, started: float):
    """Run the checks in a worker; wait until `started` + budget (less the write reserve), no longer."""
    box = {}
    partial = options.partial = {}

    def work():
        try:
            box["report"] = run_checks(host, options, progress)
        except BaseException as exc:  # handed to the main thread, which decides
            box["error"] = exc

    worker = threading.Thread(target=work, name="ascend-doctor-preflight", daemon=True)
    worker.start()
    worker.join(max(0.0, started + args.budget - _write_reserve(args.budget) - time.monotonic()))
    if "error" in box:
        raise box["error"]
    if "report" in box:
        return box["report"]
    # The checks are abandoned: end the tool they wait for (a hung npu-smi) rather than leave it running.
    kill_running()
    return _budget_overrun(host, args, time.monotonic() - started, partial)


def produce_preflight_report(args, started: float = None) -> Report:
    """The node's report; the --budget counts from `started` (when the command began), not from here."""
    started = time.monotonic() if started is None else started
    require_positive_seconds("--budget", args.budget)
    # Commands may take at most a third of the budget each, so one hung tool leaves room for the rest.
    args.timeout = min(args.timeout, max(0.5, args.budget / 3.0))
    if args.smoke and args.budget < SMOKE_MIN_BUDGET_S:
        print(_("ascend-doctor preflight: --smoke skipped, --budget {budget} s is under the {needed} s a smoke "
                "train needs").format(budget=f"{args.budget:g}", needed=f"{SMOKE_MIN_BUDGET_S:g}"), file=sys.stderr)
        args.smoke = False
    args.pynative = False  # a pre-flight runs the quick checks only: no GRAPH/PYNATIVE comparison
    options = run_options(args)
    if not args.smoke:
        options.skip = list(options.skip) + list(SLOW_CHECKS)
    options.extra.update({"preflight": True, "smoke": bool(args.smoke), "ping_peers": bool(args.net)})
    reject_python_with_bundle(args)
    progress = Progress()
    try:
        if args.bundle:
            with opened_bundle(args.bundle) as host:
                return _run_within_budget(host, options, args, progress, started)
        return _run_within_budget(live_host(args), options, args, progress, started)
    finally:
        progress.done()


def node_name(report: Report) -> str:
    launch = launch_of(report.facts)
    return safe_node_name(str((launch.name if launch else None) or report.host.get("name") or "node"))


def run(args) -> int:
    started = time.monotonic()
    also = _also_formats(args.also)
    if also and not args.report_dir:
        raise CliError(_("--also needs --report-dir (the extra formats are written next to the node's JSON)"))
    if not args.bundle and os.environ.get("MS_ROLE") == "MS_SCHED":
        # msrun runs the same command in its scheduler process, which holds no device: the workers report.
        print(_("ascend-doctor preflight: msrun scheduler process, nothing to check here (the workers report)"),
              file=sys.stderr)
        return EXIT_OK
    if args.report_dir:
        try:
            os.makedirs(args.report_dir, exist_ok=True)
        except OSError as exc:
            raise CliError(_("--report-dir {path}: cannot create ({reason})").format(
                path=args.report_dir, reason=exc.strerror or exc)) from None
    report = produce_preflight_report(args, started)
    if args.report_dir:
        base = os.path.join(args.report_dir, node_name(report))
        for fmt in also:
            write_output(render(report, fmt), base + ALSO_FORMATS[fmt])
        # The JSON goes last: aggregate reads *.json, so once it exists the node's other files do too.
        write_output(render(report, "json"), base + ".json")
    text = render(report, args.format, color=report_color(args))
    write_output(text, args.output)
    return EXIT_FINDINGS if report.failed(args.fail_on) else EXIT_OK
