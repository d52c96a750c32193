"""`ascend-doctor collect`: a redacted .tar.gz snapshot of this machine for support (replay with check/triage --bundle)."""

from __future__ import annotations

import datetime
import os
import platform
import re
import sys

from ..cli import COMMANDS, CliError, EXIT_OK
from ..collect import LogOptions, collect, write_bundle
from .common import Progress, add_python_argument, live_host


def register(sub) -> None:
    p = sub.add_parser(
        "collect", help=COMMANDS["collect"],
        description="Collect the version files, npu-smi / hccn_tool / nvidia-smi outputs, environment (allowlist), "
                    "rank table, package metadata, the doctor's own report and optionally logs into a .tar.gz "
                    "that `ascend-doctor check --bundle` and `ascend-doctor triage --bundle` replay. Secrets "
                    "never leave the machine: unknown environment values, tokens, passwords, keys and URL "
                    "credentials are replaced in every file.")
    p.add_argument("--output", "-o", metavar="FILE",
                   help="archive to write (default: ascend-doctor-<host>-<UTC time>.tar.gz here)")
    p.add_argument("--logs", metavar="DIR", help="also collect the logs under DIR (recursively, tail-capped)")
    p.add_argument("--log-max-mb", type=float, default=20.0, metavar="MB",
                   help="keep at most the last MB of each log file (default: 20)")
    p.add_argument("--logs-max-mb", type=float, default=100.0, metavar="MB",
                   help="at most this many MB of logs in total (default: 100)")
    p.add_argument("--redact-ips", action="store_true",
                   help="replace IPv4 addresses consistently (same address, same mask) in every file")
    p.add_argument("--show", action="store_true", help="list what would be written, write nothing")
    add_python_argument(p)
    p.add_argument("--timeout", type=float, default=10.0, metavar="S",
                   help="timeout in seconds for each external command (default: 10)")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.timeout <= 0:
        raise CliError(f"--timeout must be a positive number of seconds, got {args.timeout}")
    if args.log_max_mb <= 0 or args.logs_max_mb <= 0:
        raise CliError("--log-max-mb and --logs-max-mb must be positive")
    if args.logs and not os.path.isdir(args.logs):
        raise CliError(f"--logs {args.logs}: not a directory")
    output = args.output or "ascend-doctor-{}-{}.tar.gz".format(
        re.sub(r"[^A-Za-z0-9._-]", "_", platform.node() or "host"),
        datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ"))
    if not args.show:
        out_dir = os.path.dirname(os.path.abspath(output))
        if not os.path.isdir(out_dir):
            raise CliError(f"--output {output}: directory {out_dir} does not exist")
    if args.python:
        live_host(args)  # an interpreter that cannot be asked is a one-line error before anything is collected
    progress = Progress()
    try:
        col = collect(timeout=args.timeout, redact_ips=args.redact_ips, progress=progress, python=args.python,
                      logs=LogOptions(args.logs, int(args.log_max_mb * (1 << 20)), int(args.logs_max_mb * (1 << 20))))
    finally:
        progress.done()
    if args.show:
        rows = col.listing()
        width = max(len(k) for k, _, _ in rows)
        for kind, what, detail in rows:
            print(f"{kind:<{width}}  {what}  ({detail})")
        for note in col.notes:
            print(f"note: {note}")
        print(f"\n{len(rows)} entries, {col.redactions} value(s) redacted; nothing written (--show).")
        return EXIT_OK
    try:
        write_bundle(col, output)
    except OSError as exc:
        raise CliError(f"--output {output}: cannot write ({exc.strerror or exc})") from None
    for note in col.notes:
        print(f"ascend-doctor: note: {note}", file=sys.stderr)
    print(f"wrote {output} ({os.path.getsize(output) / 1024:.0f} KiB, {len(col.files)} files, "
          f"{len(col.commands)} command outputs, {len(col.logs)} logs, {col.redactions} value(s) redacted)")
    print(f"replay: ascend-doctor check --bundle {output}" + (f"; ascend-doctor triage --bundle {output}" if col.logs else ""))
    return EXIT_OK
