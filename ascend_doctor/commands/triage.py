"""`ascend-doctor triage PATH...`: name the known problems in logs (files, directories, .gz, stdin, a bundle)."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Optional

from ..cli import COMMANDS
from ..errors import CliError, EXIT_FINDINGS, EXIT_OK
from ..i18n import N_, _, lookup
from ..i18n_text import Text, worded
from ..render import TRIAGE_FORMATS as FORMATS
from ..triage import Triage
from ..triage.result import NOT_A_LOG
from .common import Progress, add_kb_option, load_kb, opened_bundle, report_color, write_output


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
    p.add_argument("--node-summary", action="store_true",
                   help=_("scan this node's logs and write a small node summary (JSON, schema "
                           "ascend-doctor.triage-node/1; the node is --node, else this host's name) for one central "
                           "`triage` over every node's summary"))
    p.add_argument("--summary-dir", metavar="DIR",
                   help=_("with --node-summary: write DIR/<node>.json, the node named by the launcher (SLURMD_NODENAME, "
                           "NODE_NAME) or the host name; a launcher's task other than the node's first (LOCAL_RANK, "
                           "SLURM_LOCALID, OMPI_COMM_WORLD_LOCAL_RANK) writes nothing"))
    p.add_argument("--format", choices=FORMATS, default="text", help=_("output format (default: text)"))
    p.add_argument("--output", "-o", metavar="FILE", help=_("write the result to FILE (atomically) instead of stdout"))
    p.add_argument("--fail-on", choices=["warn", "fail", "unexplained"], default="fail",
                   help=_("exit 1 when a problem at this level or worse is found (default: fail)") + _("; ") +
                   _("unexplained: also when an error line that no known signature explains is found"))
    p.add_argument("--no-color", action="store_true", help=_("plain text even on a terminal"))
    p.add_argument("--progress", action="store_true",
                   help=_("report progress on stderr (files read / total, MB/s) once reading passes 2 s, also when "
                           "stderr is not a terminal (on a terminal it is reported anyway)"))
    add_kb_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    if not args.paths and not args.bundle:
        raise CliError(_("triage: give at least one PATH (a file, a directory, or - for stdin) or --bundle FILE"))
    if args.node_summary:
        return _node_summary(args)
    if args.summary_dir:
        raise CliError(_("--summary-dir is where --node-summary writes; to merge summaries, give their directory as "
                         "a PATH"))
    with _collector_paused():
        return _triage(args)


@contextlib.contextmanager
def _collector_paused():
    """The cyclic garbage collector paused for the run: a triage builds millions of records (a merge of 4,096
    node summaries: every process, input and occurrence of the cluster) and none of them form cycles; the
    collector re-scanning the growing heap cost a third of such a merge. Resumed afterwards (an in-process caller
    keeps its collector), unless the process ends right after (cli.ENDS_AFTER_MAIN)."""
    import gc

    from .. import cli

    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was and not cli.ENDS_AFTER_MAIN[0]:
            gc.enable()


def _triage(args) -> int:
    from ..triage.match import scanner

    # the first run after an install or an update builds the matcher (up to a minute on a slow core): said where the
    # progress line would be (a terminal, or --progress), not left as a silent wait
    scanner.BUILD_NOTICE[0] = _say_building if _shows_progress(args) else None
    try:
        t = Triage(load_kb(args.kb), node=args.node)
    finally:
        scanner.BUILD_NOTICE[0] = None
    progress = _progress(t, args)
    if args.bundle:
        with opened_bundle(args.bundle) as host:
            if not t.add_bundle(host, args.node):  # like an empty directory: an input with nothing to read
                t.add_unread(args.bundle, Text(N_("the bundle holds no logs (collect it with --logs DIR)")))
            for path in args.paths:  # inside: the bundle's files stay on disk until the scan is over
                t.add_path(path)
    else:
        for path in args.paths:
            t.add_path(path)
    progress.done()
    result = t.result()
    nothing_read = bool(result.inputs) and not any(i.scanned for i in result.inputs)
    _say_skipped(result.inputs, every=nothing_read)
    for merged in result.summaries:
        for warning in merged["warnings"]:  # messages (i18n_text.Text): worded here, in the language asked
            print(f"ascend-doctor: {worded(warning)}", file=sys.stderr)
    if nothing_read:
        raise CliError(_("none of the inputs could be read as a text log (see the lines above)"))
    from ..render.triage_report import triage_pieces  # only here: a node summary renders nothing

    write_output(triage_pieces(result, args.format, color=report_color(args)), args.output)
    return EXIT_FINDINGS if result.failed(args.fail_on) else EXIT_OK


PROGRESS_AFTER_S = 2.0


def _shows_progress(args) -> bool:
    """Whether progress goes to stderr: on a terminal, or when --progress asks for it."""
    return sys.stderr.isatty() or args.progress


def _say_building(folder: str) -> None:
    print("ascend-doctor: " + _("preparing the knowledge base's matcher for this machine (the first run after an "
                                "install or an update: up to a minute); later runs read it from {dir}").format(dir=folder),
          file=sys.stderr, flush=True)


def _say_slow_matcher(matcher: str) -> None:
    """Where triage matches without Hyperscan (no wheel was installed: Python 3.8/3.9, where the package does not
    depend on it, or another machine), what installs it: 10-25 times faster on big logs (docs/performance.md)."""
    from ..triage.match.finders import MATCHER_ENV

    if matcher == "hyperscan" or os.environ.get(MATCHER_ENV):
        return
    import shlex

    command = f"{shlex.quote(sys.executable)} -m pip install --only-binary=:all: hyperscan"
    print("ascend-doctor: " + _("triage is matching without Hyperscan ({matcher}), 10-25 times slower on big logs; "
                                "`{command}` installs it where a wheel exists for this Python and machine").format(
                                    matcher=matcher, command=command), file=sys.stderr, flush=True)


def _progress(t, args):
    """The progress line of a triage that runs past 2 s (files read / total, MB/s): on a terminal, or when
    --progress asks for it."""
    import time

    terminal = sys.stderr.isatty()
    progress = Progress(_shows_progress(args))
    if not progress.tty:
        return progress
    start = time.monotonic()
    shown = [0.0]

    def report(done: int, total: int, nbytes: int) -> None:
        now = time.monotonic()
        elapsed = now - start
        # a terminal's line is rewritten; elsewhere (--progress into a log) one line every 2 s at most
        if elapsed < PROGRESS_AFTER_S or now - shown[0] < (0.2 if terminal else PROGRESS_AFTER_S):
            return
        if not shown[0]:  # a run long enough to show progress: the one way to make it shorter, said once
            _say_slow_matcher(t.scanner.matcher)
        shown[0] = now
        text = _("  reading logs: {done}/{total} files, {mb} MB, {rate} MB/s").format(
            done=done, total=total, mb=f"{nbytes / 1e6:.0f}", rate=f"{nbytes / 1e6 / elapsed:.0f}")
        if terminal:
            progress.line(text)
        else:
            print(text.strip(), file=sys.stderr, flush=True)

    t.progress = report
    return progress


def _say_skipped(inputs, every: bool = False) -> None:
    """Each input not read, and why; files skipped as not logs only when nothing was read (`every`: the error after
    refers to these lines), at most 20 of them."""
    shown = 0
    for info in inputs:
        if info.note and not info.scanned and (every or info.note != NOT_A_LOG):
            if info.note == NOT_A_LOG:
                shown += 1
                if shown > 20:
                    continue
            print(f"ascend-doctor: {info.label}: {lookup(info.note)}", file=sys.stderr)
    if shown > 20:
        print(f"ascend-doctor: {_('... and {n} more files skipped as not logs').format(n=shown - 20)}", file=sys.stderr)


def _host_name() -> str:
    import socket  # only here: ~1 ms of a node summary's start-up when the launcher or --node names the node

    return socket.gethostname()


def _launcher_host() -> Optional[str]:
    """The node's name as the launcher gives it; imported only when --node does not name it (~2 ms: the probes)."""
    from ..probes.launch import HOST_VARS

    return next((os.environ[v] for v in HOST_VARS if os.environ.get(v)), None)


def _node_summary(args) -> int:
    """`triage --node-summary`: one node's logs scanned as `triage` scans them, written as its summary."""
    from ..triage import summary

    if args.bundle:
        raise CliError(_("--node-summary reads this node's log files; give their PATHs, not --bundle"))
    if args.summary_dir and args.output:
        raise CliError(_("--summary-dir names the file itself (DIR/<node>.json): give it or --output, not both"))
    node = args.node or _launcher_host() or _host_name() or "localhost"
    output = args.output
    if args.summary_dir:
        from ..probes.launch import LOCAL_RANK_VARS, safe_node_name

        local = next(((v, os.environ[v]) for v in LOCAL_RANK_VARS if os.environ.get(v)), None)
        if os.environ.get("MS_ROLE") == "MS_SCHED" or (local and local[1].strip() not in ("0", "")):
            print("ascend-doctor: " + _("{node}: not the node's first task ({var}={value}): that one writes the "
                                        "node's summary").format(node=node, var=local[0] if local else "MS_ROLE",
                                                                  value=local[1] if local else "MS_SCHED"),
                  file=sys.stderr)
            return EXIT_OK
        try:
            os.makedirs(args.summary_dir, exist_ok=True)
        except OSError as exc:
            raise CliError(_("--summary-dir {path}: cannot create it: {reason}").format(
                path=args.summary_dir, reason=exc.strerror or exc)) from None
        output = os.path.join(args.summary_dir, safe_node_name(node) + ".json")
    t = Triage(load_kb(args.kb), node=node)
    progress = _progress(t, args)
    for path in args.paths:
        t.add_path(path)
    progress.done()
    _say_skipped(t.inputs)
    if not any(i.scanned for i in t.inputs):
        print("ascend-doctor: " + _("{node}: none of the inputs could be read as a text log; the summary says "
                                    "so").format(node=node), file=sys.stderr)
    write_output(summary.dumps(summary.node_summary(t, node)), output)
    return EXIT_OK

