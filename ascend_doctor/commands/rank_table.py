"""`ascend-doctor rank-table FILE`: validate a rank table, every problem with its JSON path.

With `--bundle PATH` (a collected snapshot) or `--here` (this machine) the table is also
checked against that node: it is one of the table's servers, its devices exist, and the
device IPs match /etc/hccn.conf / hccn_tool, and the NICs are up.
"""

from __future__ import annotations

import contextlib
import json
import os

from ..cli import COMMANDS
from ..errors import CliError, EXIT_FINDINGS, EXIT_OK
from ..checks._node import KNOWN_FAMILIES, node_family
from ..findings import FAIL, SEVERITY, WARN
from ..host import HostError, LiveHost
from ..i18n import _, get_lang
from ..i18n_text import localized
from ..probes import ProbeOptions, collect_facts
from ..probes.rank_table import MAX_READ_BYTES, local_identity, rank_table_facts
from ..rank_table import FORMAT_V20, problem_counts, validate_rank_table_text
from .common import opened_bundle, require_positive_seconds, write_output

# /2: problem severities and count keys are fail/warn/info (were error/warning/info in /1)
SCHEMA = "ascend-doctor.rank-table/2"
# The checks that judge the table against a node, in the order they are shown.
NODE_CHECKS = ("rank_table.this_node", "rank_table.device_ips", "rank_table.device_nics")
# The verdict as the JSON says it (an enum) and as the text shows it (words).


def register(sub) -> None:
    p = sub.add_parser("rank-table", help=_(COMMANDS["rank-table"]),
                       description=_("Validate an HCCL rank table (versions 1.0, 1.2, 2.0 and the legacy group_list): "
                                      "every problem with its JSON path, rule id and, for syntax errors, line and column."))
    p.add_argument("file", metavar="FILE", help=_("the rank table (JSON)"))
    p.add_argument("--format", choices=("text", "json"), default="text", help=_("output format (default: text)"))
    p.add_argument("--output", "-o", metavar="FILE", help=_("write the result to FILE (atomically) instead of stdout"))
    p.add_argument("--fail-on", choices=[WARN, FAIL], default=FAIL,
                   help=_("exit 1 on errors (default), or also on warnings with 'warn'"))
    node = p.add_mutually_exclusive_group()
    node.add_argument("--bundle", metavar="PATH", help=_("also check the table against the node in this snapshot"))
    node.add_argument("--here", action="store_true", help=_("also check the table against this machine"))
    p.add_argument("--soc", choices=KNOWN_FAMILIES,
                   help=_("device family for the topology rules (default: the node's, when --bundle/--here gives one)"))
    p.add_argument("--max-per-rule", type=int, default=20, metavar="N",
                   help=_("text output: show at most N problems per rule (0 = all; JSON always lists all)"))
    p.add_argument("--timeout", type=float, default=10.0, metavar="S", help=_("timeout per external command (default: 10)"))
    p.set_defaults(func=run)


def _read(path: str) -> str:
    try:
        text = LiveHost().read_text(path, max_bytes=MAX_READ_BYTES)
    except HostError as exc:  # its message is a phrase (phrases.FILE_MISSING ...): said in the run's language
        from ..i18n_text import error_text

        raise CliError(localized(error_text(exc))) from None
    binary = binary_at(text)
    if binary is not None:
        raise CliError(_("rank-table FILE {path}: binary data (character {position} is not text), expected a JSON "
                         "rank table (UTF-8 text)").format(path=path, position=binary))
    return text


def binary_at(text: str, window: int = 8000):
    """Where `text` (decoded with replacement) shows it was not text: the first NUL (git's rule for binary), or
    the first undecodable character when more than one in ten of the first `window` are. None for text: a stray
    non-UTF-8 byte in a real table is the validator's to report, with its line."""
    nul = text.find("\x00")
    if nul >= 0:
        return nul
    head = text[:window]
    if head and head.count("\ufffd") * 10 > len(head):
        return head.find("\ufffd")
    return None


@contextlib.contextmanager
def _node_host(args):
    if args.bundle:
        with opened_bundle(args.bundle) as host:
            yield host
    elif args.here:
        yield LiveHost()
    else:
        yield None


def _node_findings(host, args, text: str):
    facts = collect_facts(host, ProbeOptions(timeout=args.timeout))
    soc = args.soc or node_family(facts)
    env = dict(host.env)
    table = validate_rank_table_text(text, soc_family=soc, env=env)
    facts.rank_table = rank_table_facts(table, "rank-table FILE", args.file, local_identity(host, args.timeout))
    from ..doctor import RunOptions, Selection, evaluate

    report = evaluate(facts, Selection(only=list(NODE_CHECKS)), RunOptions(timeout=args.timeout),
                      origin={"kind": host.kind, "name": host.label},
                      environ=host.env, also=[os.environ] if host.env is not os.environ else [])
    findings = sorted(report.findings,  # their texts still messages: the JSON keeps their ids, the text words them
                      key=lambda f: NODE_CHECKS.index(f.id) if f.id in NODE_CHECKS else len(NODE_CHECKS))
    return table, findings, {"kind": host.kind, "name": host.label, "soc_family": soc}


def run(args) -> int:
    require_positive_seconds("--timeout", args.timeout)
    if args.max_per_rule < 0:
        raise CliError(_("--max-per-rule must be 0 or more, got {value}").format(value=args.max_per_rule))
    text = _read(args.file)
    with _node_host(args) as host:
        if host is None:
            table = validate_rank_table_text(text, soc_family=args.soc)
            findings, node = [], None
        else:
            table, findings, node = _node_findings(host, args, text)
    counts = problem_counts(table.problems)
    worst = max([2 if counts[FAIL] else 1 if counts[WARN] else 0] + [SEVERITY[f.status] for f in findings])
    failed = worst >= SEVERITY[args.fail_on]
    verdict = "invalid" if counts[FAIL] else ("valid, with warnings" if counts[WARN] else "valid")
    if args.format == "json":
        doc = {"schema": SCHEMA, "lang": get_lang(), "file": args.file, "format": table.format, "version": table.version,
               "status": table.status, "servers": len(table.servers) if table.format and table.format != FORMAT_V20 else None,
               "ranks": table.rank_count, "verdict": verdict, "counts": counts,
               "problems": [dict(p.to_json(), message=localized(p.message)) for p in table.problems],
               "node": None if node is None else dict(node, findings=[f.to_json() for f in findings])}
        out = json.dumps(doc, indent=2, ensure_ascii=True) + "\n"
    else:
        from ..render.rank_table_text import render_rank_table

        out = render_rank_table(args, table, counts, verdict, [f.worded() for f in findings], node)
    write_output(out, args.output)
    return EXIT_FINDINGS if failed else EXIT_OK
