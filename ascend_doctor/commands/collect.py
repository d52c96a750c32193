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
from ..render.layout import terminal_width, wrap
from .common import Progress, add_python_argument, live_host, require_positive_seconds

# `--show` lists these kinds one by one (each entry is content that leaves the machine, and they are few);
# the others (empty placeholders, links, directories) are counted per top directory.
LISTED_KINDS = ("file", "unreadable", "command", "log", "report")
LISTED_MAX = 25
KIND_WORDS = {"file": "files read", "unreadable": "unreadable files (recorded as permission denied)",
              "command": "command outputs", "log": "logs", "report": "report",
              "exists": "empty entries (exist, content not read: device nodes, directory entries, tools)",
              "link": "symbolic links", "env": "environment variables"}


def _top(path: str) -> str:
    parts = [p for p in path.split("/") if p]
    return "/" + parts[0] if parts else path


def show_summary(rows, width: int):
    """`collect --show`: per kind, the count; the entries that are content, listed; the rest counted per top
    directory ("1,112 empty entries under /dev"); environment names split into kept and redacted."""
    by_kind = {}
    for kind, what, detail in rows:
        by_kind.setdefault(kind, []).append((what, detail))
    out = ["What the bundle would hold:"]
    for kind, items in by_kind.items():
        out.append("")
        out.append(f"{len(items):,} {KIND_WORDS.get(kind, kind)}:")
        if kind in LISTED_KINDS:
            for what, detail in items[:LISTED_MAX]:
                out.extend(wrap(f"{what}  ({detail})", width, "  ", "      "))
            if len(items) > LISTED_MAX:
                out.append(f"  ... {len(items) - LISTED_MAX:,} more (--show-all lists every entry)")
        elif kind == "env":
            kept = [w for w, d in items if d == "kept"]
            hidden = [w for w, d in items if d != "kept"]
            out.extend(wrap(f"{len(kept):,} kept: {', '.join(kept) or 'none'}", width, "  ", "    "))
            out.extend(wrap(f"{len(hidden):,} with the value redacted: {', '.join(hidden) or 'none'}", width,
                            "  ", "    "))
        else:
            counts = {}
            for what, _ in items:
                counts[_top(what)] = counts.get(_top(what), 0) + 1
            groups = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
            out.extend(wrap(", ".join(f"{n:,} under {top}" for top, n in groups), width, "  ", "  "))
    return out


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
    p.add_argument("--show", action="store_true",
                   help="summarise what would be written (counts per kind, the files and commands), write nothing")
    p.add_argument("--show-all", action="store_true", help="like --show, but list every entry")
    add_python_argument(p)
    p.add_argument("--timeout", type=float, default=10.0, metavar="S",
                   help="timeout in seconds for each external command (default: 10)")
    p.set_defaults(func=run)


def run(args) -> int:
    args.show = args.show or args.show_all
    require_positive_seconds("--timeout", args.timeout)
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
    if args.show or args.show_all:
        rows = col.listing()
        if args.show_all:
            width = max(len(k) for k, _, _ in rows)
            lines = [f"{kind:<{width}}  {what}  ({detail})" for kind, what, detail in rows]
        else:
            lines = show_summary(rows, terminal_width())
        lines += [f"note: {note}" for note in col.notes]
        flag = "--show-all" if args.show_all else "--show"
        lines += ["", f"{len(rows):,} entries, {col.redactions:,} value(s) redacted; nothing written ({flag})."]
        print("\n".join(lines))
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
