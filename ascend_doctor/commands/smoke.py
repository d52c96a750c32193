"""`ascend-doctor smoke`: prove MindSpore trains here, in GRAPH mode, on the device the user will use."""

from __future__ import annotations

import argparse
import os
import time

from .. import __version__
from ..cli import COMMANDS
from ..errors import CliError, EXIT_FINDINGS, EXIT_OK
from ..findings import FAIL, WARN, Report
from ..i18n import _
from ..render import FORMATS, render
from .common import add_python_argument, live_host, report_color, require_positive_seconds, write_output

DEVICE_CHOICES = ["auto", "ascend", "gpu", "cpu"]


def add_smoke_arguments(p: argparse.ArgumentParser) -> None:
    """The flags `smoke` and `check --smoke` share."""
    g = p.add_argument_group(_("smoke train"))
    g.add_argument("--device", choices=DEVICE_CHOICES, default="auto",
                   help=_("device to train on (default: auto = Ascend when driver, CANN and an Ascend MindSpore are "
                           "present, GPU for a CUDA MindSpore with a GPU, else CPU)"))
    g.add_argument("--device-id", type=int, default=None, metavar="N", help=_("which card (default: MindSpore's default)"))
    g.add_argument("--steps", type=int, default=40, metavar="N", help=_("train steps in each mode (default: 40, min 10)"))
    g.add_argument("--stage-timeout", action="append", default=[], metavar="[STAGE=]S",
                   help=_("seconds a stage may run before it is called hung and killed (default: 300); "
                           "STAGE=S for one stage, e.g. --stage-timeout graph_compile=900; repeatable"))
    g.add_argument("--no-pynative", dest="pynative", action="store_false",
                   help=_("skip the PYNATIVE comparison (saves one more training run)"))


def parse_stage_timeouts(values):
    from ..smoke.distributed import PHASES
    from ..smoke.runner import STAGES

    out = {}
    for value in values or []:
        stage, sep, secs = value.rpartition("=")
        stage = stage if sep else "*"
        if stage != "*" and stage not in STAGES + PHASES:
            raise CliError(_("--stage-timeout {value}: stage must be one of {stages}").format(
                value=value, stages=", ".join(STAGES + PHASES)))
        try:
            seconds = float(secs)
        except ValueError:
            seconds = -1.0
        if seconds <= 0:
            raise CliError(_("--stage-timeout {value}: expected a positive number of seconds").format(value=value))
        out[stage] = seconds
    return out


def smoke_options(args) -> dict:
    if args.steps < 10:
        raise CliError(_("--steps {steps}: at least 10 steps are needed to see the loss fall").format(steps=args.steps))
    if args.device_id is not None and args.device_id < 0:
        raise CliError(_("--device-id {device_id}: expected a card number >= 0").format(device_id=args.device_id))
    opts = {"device": args.device, "device_id": args.device_id, "steps": args.steps, "pynative": args.pynative,
            "stage_timeout": parse_stage_timeouts(args.stage_timeout)}
    ranks = getattr(args, "ranks", None)
    if ranks is not None:
        if ranks < 1:
            raise CliError(_("--ranks {ranks}: expected at least 1 worker").format(ranks=ranks))
        if not 1024 <= args.master_port <= 65535:
            raise CliError(_("--master-port {port}: expected a port in 1024..65535").format(port=args.master_port))
        if args.nnodes < 1:
            raise CliError(_("--nnodes {nnodes}: expected at least 1 node").format(nnodes=args.nnodes))
        if args.nnodes > 1 and args.node_rank is None:
            raise CliError(_("--node-rank: required with --nnodes > 1 (0 on the node that runs the scheduler)"))
        if args.node_rank is not None and not 0 <= args.node_rank < args.nnodes:
            raise CliError(_("--node-rank {node_rank}: expected 0..{last}").format(node_rank=args.node_rank,
                                                                                   last=args.nnodes - 1))
        opts.update(ranks=ranks, master_port=args.master_port, master_addr=args.master_addr, nnodes=args.nnodes,
                    node_rank=args.node_rank)
    return opts


def register(sub) -> None:
    p = sub.add_parser("smoke", help=_(COMMANDS["smoke"]),
                       description=_("Run a short training in a child process, stage by stage (import, device, op "
                                      "check, GRAPH compile, train, verify, PYNATIVE, host memory, MindIR, atc), each "
                                      "with a timeout. With --ranks N: N workers through msrun, collectives checked."))
    add_smoke_arguments(p)
    d = p.add_argument_group(_("distributed (msrun)"))
    d.add_argument("--ranks", type=int, default=None, metavar="N", help=_("workers on this node; runs the collectives "
                                                                            "check instead of the single-device train"))
    d.add_argument("--master-port", type=int, default=8118, metavar="P", help=_("scheduler port (default: 8118)"))
    d.add_argument("--master-addr", default="127.0.0.1", metavar="ADDR", help=_("scheduler address (default: 127.0.0.1)"))
    d.add_argument("--nnodes", type=int, default=1, metavar="N", help=_("nodes in the job (default: 1)"))
    d.add_argument("--node-rank", type=int, default=None, metavar="I", help=_("this node's index (0..nnodes-1)"))
    p.add_argument("--format", choices=FORMATS, default="text", help=_("report format (default: text)"))
    p.add_argument("--output", "-o", metavar="FILE", help=_("write the report to FILE (atomically) instead of stdout"))
    p.add_argument("--fail-on", choices=[WARN, FAIL], default=FAIL, help=_("exit 1 at this level or worse (default: fail)"))
    p.add_argument("--timeout", type=float, default=10.0, metavar="S",
                   help=_("timeout for each probe command used to detect the device (default: 10)"))
    p.add_argument("--no-color", action="store_true", help=_("plain text even on a terminal"))
    add_python_argument(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..kb.load import load_knowledge_base
    from ..probes import ProbeOptions, collect_facts
    from ..smoke.session import StageProgress, run_session

    options = smoke_options(args)
    require_positive_seconds("--timeout", args.timeout)
    start = time.monotonic()
    host = live_host(args)
    facts = collect_facts(host, ProbeOptions(timeout=args.timeout))
    progress = StageProgress()
    try:
        findings = run_session(facts, options, load_knowledge_base(), progress)
    finally:
        progress.done()
    report = Report(tool={"name": "ascend-doctor", "version": __version__, "command": "smoke",
                          "duration_ms": int((time.monotonic() - start) * 1000)},
                    host={"kind": host.kind, "name": host.label}, facts=facts.to_json(), findings=findings)
    # A child's stderr can quote a token: secrets leave the report when it is built (renderers render only).
    from ..redact import redact_report

    redact_report(report, environ=host.env, also=[os.environ] if host.env is not os.environ else [])
    text = render(report, args.format, color=report_color(args))
    write_output(text, args.output)
    return EXIT_FINDINGS if report.failed(args.fail_on) else EXIT_OK
