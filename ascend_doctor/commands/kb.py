"""`ascend-doctor kb show|search|match`: look things up in the knowledge base, in English or Chinese.

show ID     our signature id, a pitfall id (P08) or an ascend-fd id (the signatures carrying it)
search W..  signatures whose id, ascend-fd ids, title or cause (en and zh) hold every word
match -|F   each input line -> the signatures it matches (a support engineer pastes a line from a ticket)
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import List, Optional

from ..cli import COMMANDS
from ..errors import CliError, EXIT_FINDINGS, EXIT_OK
from ..i18n import _
from ..kb.model import CLASS_WORDS, COMPONENT_WORDS, LOG_SOURCE_WORDS, SEVERITY_WORDS, field_word
from ..render.layout import display_width, has_wide, hold_spans, join_values, release_spans, wrap
from ..triage.result import shown_source
from .common import add_kb_option, load_kb, write_output

WIDTH = 80
SHOW_LINE_CHARS = 300


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


# ---- pieces ----

def _wrap(text: str, indent: str = "  ", first: Optional[str] = None, break_long_words: bool = False) -> List[str]:
    """Lines of at most WIDTH terminal columns (Chinese by display width: render.layout.wrap). A token (a URL, a
    path, an option, an id) and a backticked command are never cut: one longer than the line keeps its own
    longer line, so it can be copied back whole."""
    first = indent if first is None else first
    if has_wide(first + text):
        return wrap(text.strip(), WIDTH, first, indent, break_long_words=break_long_words)
    held = hold_spans(text)
    return [release_spans(line) for line in textwrap.wrap(
        held, WIDTH, initial_indent=first, subsequent_indent=indent, break_long_words=break_long_words,
        break_on_hyphens=False)] or [indent.rstrip()]


def sig_tag(sig) -> str:
    """"[fail · hccl · root]" in English, "[失败 · HCCL · 根因]" in Chinese."""
    severity = _(SEVERITY_WORDS[sig.severity]) if sig.severity in SEVERITY_WORDS else sig.severity
    return f"[{severity} · {field_word(COMPONENT_WORDS, sig.component)} · {field_word(CLASS_WORDS, sig.kind)}]"


_width = display_width  # the one measure of terminal columns (render.layout)


def _match_rule(sig) -> str:
    if sig.derived:
        return _("no telling line of its own: shown when a fault that leads to it is found")
    sep = _(" | or | ")
    if sig.all_of:
        return sep.join(" + ".join(json.dumps(lit, ensure_ascii=False) for lit in alt) for alt in sig.all_of)
    return sep.join(f"/{p}/" for p in sig.patterns())


def _label(text: str, indent: str = "  ") -> str:
    """A label that starts a line, the value after it: "  Source: " (no space after a Chinese colon)."""
    return indent + text + ("" if text.endswith("：") else " ")


def _sig_json(sig, lang: Optional[str] = None) -> dict:
    title, cause, fix = sig.text(lang)
    return {"id": sig.id, "ascend_fd": list(sig.ascend_fd), "title": title, "severity": sig.severity,
            "class": sig.kind, "component": sig.component, "log_sources": list(sig.log_sources),
            "pitfall": sig.pitfall, "cause": cause, "fix": fix, "leads_to": list(sig.leads_to),
            "derived": sig.derived, "all_of": [list(a) for a in sig.all_of], "patterns": sig.patterns(),
            "examples": list(sig.examples), "source": sig.public_source()}


def _causes_of(kb, sig) -> List[str]:
    """Our ids of the signatures whose leads_to names one of this signature's ascend-fd ids."""
    mine = set(sig.ascend_fd)
    return [s.id for s in kb.signatures if mine and mine & set(s.leads_to) and s is not sig]


def _effects_of(kb, sig) -> List[str]:
    out: List[str] = []
    for fd in sig.leads_to:
        for s in kb.by_ascend_fd(fd):
            if s.id not in out and s is not sig:
                out.append(s.id)
    return out


def _sig_text(kb, sig, lang: Optional[str] = None) -> List[str]:
    title, cause, fix = sig.text(lang)
    head = f"{sig.id}  {sig_tag(sig)}"
    out = ([head] if _width(head) <= WIDTH else _wrap(head, "    ", "")) + _wrap(title, "  ")
    if sig.ascend_fd:
        out += _wrap(", ".join(sig.ascend_fd), "    ", _label(_("ascend-fd:")))
    if sig.log_sources:
        out += _wrap(join_values(field_word(LOG_SOURCE_WORDS, x) for x in sig.log_sources), "    ",
                     _label(_("log sources:")))
    if sig.pitfall:
        p = kb.pitfalls.get(sig.pitfall)
        out += _wrap(f"{sig.pitfall} {p.text(lang)[0] if p else ''}".rstrip(), "    ", _label(_("pitfall:")))
    out.append("  " + _("Cause:"))
    out += _wrap(cause, "    ")
    out.append("  " + _("Fix:"))
    for n, step in enumerate(fix, 1):
        out += _wrap(step, " " * (6 + len(str(n))), f"    {n}. ")
    out.append("  " + _("Matches:"))
    out += _wrap(_match_rule(sig), "    ")
    if sig.examples:
        out += _wrap(sig.examples[0], "    ", _label(_("Example:")))
    effects, causes = _effects_of(kb, sig), _causes_of(kb, sig)
    if causes:
        out += _wrap(", ".join(causes), "    ", _label(_("Caused by:")))
    if effects:
        out += _wrap(", ".join(effects), "    ", _label(_("Leads to:")))
    if sig.public_source():
        out += _wrap(shown_source(sig), "    ", _label(_("Source:")))
    return out


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
        lines += _wrap(f"{pitfall.id}  {p_title}", "    ", "")
        lines += _wrap(p_advice, "  ")
        lines.append("  " + _("signatures: {count}").format(count=len(sigs)))
        lines.append("")
    for sig in sigs:
        lines += _sig_text(kb, sig) + [""]
    obj = {"query": key, "pitfall": None if pitfall is None else dict(zip(("id", "title", "advice"),
                                                                          (pitfall.id,) + pitfall.text())),
           "signatures": [_sig_json(s) for s in sigs]}
    _emit(args, obj, lines[:-1] if lines and lines[-1] == "" else lines)
    return EXIT_OK


def _show_other(kb, args, entry) -> int:
    """A code, an HCCL variable or a root-cause verdict: the same answer as `explain` gives (one index)."""
    from .explain import _code_text, _root_cause_text, _variable_text, explain_variable

    if entry.kind == "hccl_env":
        var = explain_variable(entry)
        _emit(args, {"query": entry.key, "variable": var}, _variable_text(var))
        return EXIT_OK
    if entry.kind == "root_cause":
        _emit(args, {"query": entry.key, "root_cause": {"kind": entry.key, "fix": entry.info["fix"]}},
              _root_cause_text(entry))
        return EXIT_OK
    lines = _code_text(entry)
    for sig in entry.signatures:
        lines += _sig_text(kb, sig) + [""]
    _emit(args, {"query": args.id.strip(), "code": dict(entry.info), "signatures": [_sig_json(s) for s in entry.signatures]},
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
    lines = []
    for s in hits:
        title = s.text()[0]
        fd = f" ({', '.join(s.ascend_fd[:2])}{', …' if len(s.ascend_fd) > 2 else ''})" if s.ascend_fd else ""
        lines += _wrap(title + fd, "      ", f"{s.id}  [{s.severity}]  ") if len(s.id) < 40 else \
            [f"{s.id}  [{s.severity}]"] + _wrap(title + fd, "      ")
    lines.append(_("{count} signature(s)").format(count=len(hits)))
    obj = {"query": args.words, "results": [{"id": s.id, "ascend_fd": list(s.ascend_fd), "severity": s.severity,
                                             "title": s.text()[0]} for s in hits]}
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
    out_lines, rows, any_hit = [], [], False
    for n, line in enumerate(lines, 1):
        sigs = kb.match_line(line)
        matches = []
        for s in sigs:
            _title, cause, fix = s.text(line=line)
            matches.append({"id": s.id, "ascend_fd": peer_ids(s, [line]), "severity": s.severity,
                            "cause": cause, "fix": fix})
        rows.append({"line": n, "matches": matches})
        if not sigs:
            continue
        any_hit = True
        shown = line if len(line) <= SHOW_LINE_CHARS else line[:SHOW_LINE_CHARS] + " …"
        out_lines += _wrap(shown, "    ", _label(_("line {number}:").format(number=n), ""))
        for s in sigs:
            title, cause, fix = s.text(line=line)
            peers = peer_ids(s, [line])
            fd = f" ascend-fd {', '.join(peers)}" if peers else ""
            out_lines += _wrap(f"{s.id} [{s.severity}]{fd}: {title}", "      ", "  -> ")
            out_lines += _wrap(cause, "     ")
            for k, step in enumerate(fix, 1):
                out_lines += _wrap(step, " " * (7 + len(str(k))), f"     {k}. ")
        out_lines.append("")
    if not any_hit:
        out_lines = [_("no line matches a known signature")]
    elif out_lines[-1] == "":
        out_lines.pop()
    _emit(args, {"lines": rows}, out_lines)
    return EXIT_FINDINGS if any_hit else EXIT_OK
