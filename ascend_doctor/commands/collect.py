"""`ascend-doctor collect`: a redacted .tar.gz snapshot of this machine for support (replay with check/triage --bundle)."""

from __future__ import annotations

import datetime
import os
import platform
import re
import sys

from ..cli import COMMANDS
from ..errors import CliError, EXIT_OK
from ..collect import LogOptions, collect, write_bundle
from ..i18n import _
from ..render.layout import terminal_width
from .common import Progress, add_python_argument, live_host, require_positive_seconds

def register(sub) -> None:
    p = sub.add_parser(
        "collect", help=_(COMMANDS["collect"]),
        description=_("Collect the version files, npu-smi / hccn_tool / nvidia-smi outputs, environment (allowlist), "
                       "rank table, package metadata, the doctor's own report and optionally logs into a .tar.gz "
                       "that `ascend-doctor check --bundle` and `ascend-doctor triage --bundle` replay. Secrets "
                       "never leave the machine: unknown environment values, tokens, passwords, keys and URL "
                       "credentials are replaced in every file."))
    p.add_argument("--output", "-o", metavar="FILE",
                   help=_("archive to write (default: ascend-doctor-<host>-<UTC time>.tar.gz here)"))
    p.add_argument("--logs", metavar="DIR", help=_("also collect the logs under DIR (recursively, tail-capped)"))
    p.add_argument("--log-max-mb", type=float, default=20.0, metavar="MB",
                   help=_("keep at most the last MB of each log file (default: 20)"))
    p.add_argument("--logs-max-mb", type=float, default=100.0, metavar="MB",
                   help=_("at most this many MB of logs in total (default: 100)"))
    p.add_argument("--redact-ips", action="store_true",
                   help=_("replace IPv4 addresses consistently (same address, same mask) in every file"))
    p.add_argument("--show", action="store_true",
                   help=_("summarise what would be written (counts per kind, the files and commands), write nothing"))
    p.add_argument("--show-all", action="store_true", help=_("like --show, but list every entry"))
    add_python_argument(p)
    p.add_argument("--timeout", type=float, default=10.0, metavar="S",
                   help=_("timeout in seconds for each external command (default: 10)"))
    p.set_defaults(func=run)


def run(args) -> int:
    args.show = args.show or args.show_all
    require_positive_seconds("--timeout", args.timeout)
    if args.log_max_mb <= 0 or args.logs_max_mb <= 0:
        raise CliError(_("--log-max-mb and --logs-max-mb must be positive"))
    if args.logs and not os.path.isdir(args.logs):
        raise CliError(_("--logs {path}: not a directory").format(path=args.logs))
    output = args.output or "ascend-doctor-{}-{}.tar.gz".format(
        re.sub(r"[^A-Za-z0-9._-]", "_", platform.node() or "host"),
        datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ"))
    if not args.show:
        out_dir = os.path.dirname(os.path.abspath(output))
        if not os.path.isdir(out_dir):
            raise CliError(_("--output {path}: directory {directory} does not exist").format(path=output,
                                                                                             directory=out_dir))
    if args.python:
        live_host(args)  # an interpreter that cannot be asked is a one-line error before anything is collected
    progress = Progress()
    try:
        col = collect(timeout=args.timeout, redact_ips=args.redact_ips, progress=progress, python=args.python,
                      logs=LogOptions(args.logs, int(args.log_max_mb * (1 << 20)), int(args.logs_max_mb * (1 << 20))))
    finally:
        progress.done()
    if args.show or args.show_all:
        from ..render.collect_text import show_text

        print("\n".join(show_text(col.listing(), col.notes, col.redactions, args.show_all, terminal_width())))
        return EXIT_OK
    try:
        write_bundle(col, output)
    except OSError as exc:
        raise CliError(_("--output {path}: cannot write ({reason})").format(path=output, reason=exc.strerror or exc)) \
            from None
    for note in col.notes:
        print(_("ascend-doctor: note: {note}").format(note=note), file=sys.stderr)
    print(_("wrote {path} ({size} KiB, {files} files, {commands} command outputs, {logs} logs, {redacted} value(s) "
            "redacted)").format(path=output, size=f"{os.path.getsize(output) / 1024:.0f}", files=len(col.files),
                                commands=len(col.commands), logs=len(col.logs), redacted=col.redactions))
    replay = _("replay: ascend-doctor check --bundle {path}; ascend-doctor triage --bundle {path}") if col.logs else \
        _("replay: ascend-doctor check --bundle {path}")
    print(replay.format(path=output))
    return EXIT_OK
