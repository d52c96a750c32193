"""`ascend-doctor kb show|search|match`: look things up in the knowledge base, in English or Chinese.

show ID     our signature id, a pitfall id (P08) or an ascend-fd id (the signatures carrying it)
search W..  signatures whose id, ascend-fd ids, title or cause (en and zh) hold every word
match -|F   each input line -> the signatures it matches (a support engineer pastes a line from a ticket)
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import List

from ..cli import COMMANDS
from ..errors import CliError, EXIT_FINDINGS, EXIT_OK
from ..i18n import _
from ..render.kb_text import kb_refs, match_text, search_text, sig_json, sig_text, wrap_lines
from .common import add_kb_option, load_kb, write_output


def register(sub) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--format", choices=["text", "json"], default="text", help=_("output format (default: text)"))
    common.add_argument("--output", "-o", metavar="FILE", help=_("write the result to FILE instead of stdout"))
    add_kb_option(common)
    p = sub.add_parser("kb", help=_(COMMANDS["kb"]),
                       description=_("Look up the knowledge base: our signatures, the pitfalls and the ascend-fd "
                                      "fault ids they recognise; match log lines against it."))
    actions = p.add_subparsers(dest="kb_action", metavar="ACTION", parser_class=type(p))
    show = actions.add_parser("show", parents=[common], help=_("a signature (our id), a pitfall (P08) or an ascend-fd id"))
    show.add_argument("id", metavar="ID")
    search = actions.add_parser("search", parents=[common], help=_("signatures whose id, title or cause hold every word"))
    search.add_argument("words", nargs="+", metavar="WORD")
    match = actions.add_parser("match", parents=[common], help=_("each line of FILE (or - for stdin) -> its matches"))
    match.add_argument("file", metavar="FILE", help=_("a log excerpt, or - for stdin"))
    p.set_defaults(func=run)


def run(args) -> int:
    action = getattr(args, "kb_action", None)
    if not action:
        raise CliError(_("kb: give an action: show ID, search WORD..., or match FILE|- (see ascend-doctor kb --help)"))
    kb = load_kb(args.kb)
    if action == "show":
        return _show(kb, args)
    if action == "search":
        return _search(kb, args)
    return _match(kb, args)


def _emit(args, obj, lines: List[str]) -> None:
    if args.format == "json":
        write_output(json.dumps(obj, ensure_ascii=False, indent=1) + "\n", args.output)
    else:
        write_output("\n".join(lines) + "\n" if lines else "", args.output)


# ---- actions ----

def _show(kb, args) -> int:
    from ..kb.lookup import find

    key = args.id.strip()
    entry = find(key, kb)
    if entry is None:
        raise CliError(_("kb show: {key} is not a signature id, a pitfall id (P01..P{last}) or an ascend-fd id the "
                         "knowledge base knows (try: ascend-doctor kb search WORD)").format(
            key=repr(key), last=f"{len(kb.pitfalls):02d}"))
    if entry.kind not in ("signature", "pitfall", "ascend_fd"):
        return _show_other(kb, args, entry)
    sigs, pitfall = entry.signatures, entry.pitfall
    lines: List[str] = []
    if pitfall is not None:
        p_title, p_advice = pitfall.text()
        lines += wrap_lines(f"{pitfall.id}  {p_title}", "    ", "")
        lines += wrap_lines(p_advice, "  ")
        lines.append("  " + _("signatures: {count}").format(count=len(sigs)))
        lines.append("")
    for sig in sigs:
        lines += sig_text(kb, sig) + [""]
    obj = {"query": key, "pitfall": None if pitfall is None else dict(zip(("id", "title", "advice"),
                                                                          (pitfall.id,) + pitfall.text()),
                                                                      i18n=kb_refs(pitfall.id, ("title", "advice"))),
           "signatures": [sig_json(s) for s in sigs]}
    _emit(args, obj, lines[:-1] if lines and lines[-1] == "" else lines)
    return EXIT_OK


def _show_other(kb, args, entry) -> int:
    """A code, an HCCL variable or a root-cause verdict: the same answer as `explain` gives (one index)."""
    from ..render.explain_text import code_text, root_cause_json, root_cause_text, variable_text
    from .explain import explain_variable

    if entry.kind == "hccl_env":
        var = explain_variable(entry)
        _emit(args, {"query": entry.key, "variable": var}, variable_text(var))
        return EXIT_OK
    if entry.kind == "root_cause":
        _emit(args, {"query": entry.key, "root_cause": root_cause_json(entry.key)}, root_cause_text(entry))
        return EXIT_OK
    lines = code_text(entry)
    for sig in entry.signatures:
        lines += sig_text(kb, sig) + [""]
    _emit(args, {"query": args.id.strip(), "code": dict(entry.info), "signatures": [sig_json(s) for s in entry.signatures]},
          lines[:-1] if lines and lines[-1] == "" else lines)
    return EXIT_OK


# A Chinese query for a common fault -> its English twin (docs/glossary.md): `kb search 超时` finds exactly what
# `kb search timeout` finds, whatever word each Chinese text happens to use (超时, 等待超时, 未在…内完成).
# Keys are the words as typed (a phrase given as several words is joined with one space).
SEARCH_TWINS = {
    "超时": "timeout", "链路": "link", "内存": "memory", "未 source": "not sourced", "未执行 source": "not sourced",
    "版本不匹配": "version mismatch", "版本不配套": "version mismatch",
}


def search_words(words: List[str]) -> List[str]:
    """The lower-cased words a search looks for: a Chinese phrase with an English twin (SEARCH_TWINS) becomes
    the twin's words, every other word stays as typed."""
    phrase = " ".join(w.strip() for w in words if w.strip())
    if phrase in SEARCH_TWINS:
        return SEARCH_TWINS[phrase].split()
    out: List[str] = []
    for w in words:
        out += SEARCH_TWINS.get(w.strip(), w).lower().split()
    return out


def _search(kb, args) -> int:
    words = search_words(args.words)
    hits = []
    for s in kb.signatures:
        hay = " ".join([s.id, " ".join(s.ascend_fd), s.title, s.title_zh, s.cause, s.cause_zh,
                        s.pitfall or ""]).lower()
        if all(w in hay for w in words):
            hits.append(s)
    lines = search_text(hits)
    obj = {"query": args.words, "results": [{"id": s.id, "ascend_fd": list(s.ascend_fd), "severity": s.severity,
                                             "title": s.text()[0], "i18n": kb_refs(s.id, ("title",))} for s in hits]}
    _emit(args, obj, lines)
    return EXIT_OK if hits else EXIT_FINDINGS


def _read_lines(path: str):
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            raise CliError(_("kb match: {path}: cannot read ({reason})").format(path=path, reason=exc.strerror or exc)) \
                from None
    if b"\x00" in data[:8192]:
        raise CliError(_("kb match: {path}: binary data, expected text lines").format(path=path))
    return data.decode("utf-8", errors="replace").splitlines()


def _match(kb, args) -> int:
    from ..kb.peers import peer_ids  # an ascend-fd id only where its own rule holds on the line

    lines = _read_lines(args.file)
    rows, hits = [], []
    for n, line in enumerate(lines, 1):
        found = [(s, peer_ids(s, [line])) for s in kb.explaining(line)]
        matches = []
        for s, peers in found:
            _title, cause, fix = s.text(line=line)
            matches.append({"id": s.id, "ascend_fd": peers, "severity": s.severity_on(line), "cause": cause, "fix": fix,
                            "i18n": kb_refs(s.id, ("cause", "fix"), line, s)})
        rows.append({"line": n, "matches": matches})
        if found:
            hits.append((n, line, found))
    _emit(args, {"lines": rows}, match_text(hits))
    return EXIT_FINDINGS if hits else EXIT_OK
