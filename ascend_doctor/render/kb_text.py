"""A knowledge-base signature as text (`kb show`, `explain`) and as JSON; the wrapping kb and explain share."""

from __future__ import annotations

import json
import textwrap
from typing import List, Optional

from ..i18n import _
from ..kb.model import PLACEHOLDER, ascend_fd_label, CLASS_WORDS, COMPONENT_WORDS, LOG_SOURCE_WORDS, SEVERITY_WORDS, field_word
from ..triage.result import shown_source
from .common import joined
from .layout import display_width, has_wide, hold_spans, join_values, release_spans, wrap

WIDTH = 80
SHOW_LINE_CHARS = 300  # `kb match` shows an input line up to this many characters


def wrap_lines(text: str, indent: str = "  ", first: Optional[str] = None, break_long_words: bool = False) -> List[str]:
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


def severity_word(sig, line: Optional[str] = None) -> str:
    """"fail" in English, "失败" in Chinese (the severity of a hit on `line` where one is given)."""
    severity = sig.severity_on(line) if line is not None else sig.severity
    return _(SEVERITY_WORDS[severity]) if severity in SEVERITY_WORDS else severity


def sig_tag(sig) -> str:
    """"[fail · hccl · root]" in English, "[失败 · HCCL · 根因]" in Chinese."""
    return f"[{severity_word(sig)} · {field_word(COMPONENT_WORDS, sig.component)} · {field_word(CLASS_WORDS, sig.kind)}]"


def _ids_after(title: str, ids: str) -> str:
    """" (ids)" after an English title, "（ids）" after a Chinese one."""
    return f"（{ids}）" if has_wide(title) else f" ({ids})"


width = display_width  # the one measure of terminal columns (render.layout)


def match_rule(sig) -> str:
    if sig.derived:
        return _("no telling line of its own: shown when a fault that leads to it is found")
    sep = _(" | or | ")
    if sig.all_of:
        return sep.join(" + ".join(json.dumps(lit, ensure_ascii=False) for lit in alt) for alt in sig.all_of)
    return sep.join(f"/{p}/" for p in sig.patterns())


def label(text: str, indent: str = "  ") -> str:
    """A label that starts a line, the value after it: "  Source: " (no space after a Chinese colon)."""
    return indent + text + ("" if text.endswith("：") else " ")


def sig_json(sig, lang: Optional[str] = None) -> dict:
    title, cause, fix = sig.text(lang)
    return {"id": sig.id, "ascend_fd": list(sig.ascend_fd), "title": title, "severity": sig.severity,
            "class": sig.kind, "component": sig.component, "log_sources": list(sig.log_sources),
            "pitfall": sig.pitfall, "cause": cause, "fix": fix, "leads_to": list(sig.leads_to),
            "derived": sig.derived, "all_of": [list(a) for a in sig.all_of], "patterns": sig.patterns(),
            "examples": list(sig.examples), "source": shown_source(sig),
            "i18n": kb_refs(sig.id, ("title", "cause", "fix", "source"))}


# ---------------------------------------------------------------------------
# Message refs: a saved `kb` or `explain` JSON document worded again in either language
# ---------------------------------------------------------------------------

def kb_refs(key: str, fields, line: Optional[str] = None, sig=None) -> dict:
    """The "i18n" of a JSON object whose `fields` are a knowledge-base entry's words (a signature's title, cause,
    fix; a pitfall's title, advice): each named by the entry and its field ({"kb": id, "field": name}), as a triage
    JSON names them; with `line`, the matched line a signature's `{name|words}` placeholders take their values
    from (only where its words have one)."""
    with_line = line is not None and sig is not None and any(
        PLACEHOLDER.search(t) for t in [sig.title, sig.cause, *sig.fix, sig.title_zh, sig.cause_zh, *sig.fix_zh])
    return {f: dict({"kb": key, "field": f}, **({"line": line} if with_line else {})) for f in fields}


_ENTRY_KEYS = frozenset(("kb", "id", "text", "join", "stored"))
_MISSING = object()


def reworded(doc, kb):
    """A saved `kb` or `explain` JSON document in the current language, as a run in it writes it: in every object
    with "i18n", each field it names worded again: a knowledge-base field ({"kb": id, "field": name}) from the
    signature or pitfall `kb` holds (an entry `kb` does not hold keeps its words), any other entry from its message
    (i18n_text.from_i18n; an object of entries: each). Bad entries raise ValueError."""
    if isinstance(doc, list):
        return [reworded(x, kb) for x in doc]
    if not isinstance(doc, dict):
        return doc
    out = {k: (v if k == "i18n" else reworded(v, kb)) for k, v in doc.items()}
    refs = doc.get("i18n")
    if isinstance(refs, dict):
        for name, ref in refs.items():
            if name in out:
                got = _field(ref, kb)
                if got is not _MISSING:
                    out[name] = got
    return out


def _field(ref, kb):
    from ..i18n_text import from_i18n, worded

    if isinstance(ref, dict) and "kb" in ref:
        key, name = str(ref["kb"]), str(ref.get("field"))
        try:
            sig = kb.signature(key)
            if name == "source":
                return shown_source(sig)
            title, cause, fix = sig.text(line=ref.get("line"))
            return {"title": title, "cause": cause, "fix": fix}.get(name, _MISSING)
        except KeyError:
            pitfall = kb.pitfalls.get(key)
            if pitfall is None:
                return _MISSING
            title, advice = pitfall.text()
            return {"title": title, "advice": advice}.get(name, _MISSING)
    if isinstance(ref, dict) and not _ENTRY_KEYS & set(ref):
        return {k: _field(v, kb) for k, v in ref.items()}
    return worded(from_i18n(ref))


def causes_of(kb, sig) -> List[str]:
    """Our ids of the signatures whose leads_to names this signature: its id or one of its ascend-fd ids."""
    mine = set(sig.ascend_fd) | {sig.id}
    return [s.id for s in kb.signatures if mine & set(s.leads_to) and s is not sig]


def effects_of(kb, sig) -> List[str]:
    """Our ids of the signatures this one's leads_to names (KnowledgeBase.by_effect)."""
    out: List[str] = []
    for name in sig.leads_to:
        for s in kb.by_effect(name):
            if s.id not in out and s is not sig:
                out.append(s.id)
    return out


def sig_text(kb, sig, lang: Optional[str] = None) -> List[str]:
    title, cause, fix = sig.text(lang)
    head = f"{sig.id}  {sig_tag(sig)}"
    out = ([head] if width(head) <= WIDTH else wrap_lines(head, "    ", "")) + wrap_lines(title, "  ")
    if sig.ascend_fd:
        out += wrap_lines(joined(sig.ascend_fd), "    ", label(ascend_fd_label(sig.ascend_fd)))
    if sig.log_sources:
        out += wrap_lines(join_values(field_word(LOG_SOURCE_WORDS, x) for x in sig.log_sources), "    ",
                     label(_("log sources:")))
    if sig.pitfall:
        p = kb.pitfalls.get(sig.pitfall)
        out += wrap_lines(f"{sig.pitfall} {p.text(lang)[0] if p else ''}".rstrip(), "    ", label(_("pitfall:")))
    out.append("  " + _("Cause:"))
    out += wrap_lines(cause, "    ")
    out.append("  " + _("Fix:"))
    for n, step in enumerate(fix, 1):
        out += wrap_lines(step, " " * (6 + len(str(n))), f"    {n}. ")
    out.append("  " + _("Matches:"))
    out += wrap_lines(match_rule(sig), "    ")
    if sig.examples:
        out += wrap_lines(sig.examples[0], "    ", label(_("Example:")))
    effects, causes = effects_of(kb, sig), causes_of(kb, sig)
    if causes:
        out += wrap_lines(joined(causes), "    ", label(_("Caused by:")))
    if effects:
        out += wrap_lines(joined(effects), "    ", label(_("Leads to:")))
    if sig.public_source():  # the ascend-fd ids are said once, on their line above
        out += wrap_lines(shown_source(sig, sig.ascend_fd), "    ", label(_("Source:")))
    return out


def search_text(hits) -> List[str]:
    """`kb search`: one entry per signature found (id, severity, title, its first ascend-fd ids), then the count."""
    lines: List[str] = []
    for s in hits:
        title, severity = s.text()[0], severity_word(s)
        fd = _ids_after(title, joined(s.ascend_fd[:2] + (["…"] if len(s.ascend_fd) > 2 else []))) \
            if s.ascend_fd else ""  # "（a、b、…）" after a Chinese title
        lines += wrap_lines(title + fd, "      ", f"{s.id}  [{severity}]  ") if len(s.id) < 40 else \
            [f"{s.id}  [{severity}]"] + wrap_lines(title + fd, "      ")
    lines.append(_("{count} signature(s)").format(count=len(hits)))
    return lines


def match_text(hits) -> List[str]:
    """`kb match`: per matching input line (number, the line, [(signature, the ascend-fd ids whose rule holds on
    it)]), the line clipped to SHOW_LINE_CHARS and each signature with its cause and fix steps."""
    out_lines: List[str] = []
    for n, line, found in hits:
        shown = line if len(line) <= SHOW_LINE_CHARS else line[:SHOW_LINE_CHARS] + " …"
        out_lines += wrap_lines(shown, "    ", label(_("line {number}:").format(number=n), ""))
        for s, peers in found:
            title, cause, fix = s.text(line=line)
            fd = f" ascend-fd {', '.join(peers)}" if peers else ""
            colon = "：" if has_wide(title) else ": "
            out_lines += wrap_lines(f"{s.id} [{severity_word(s, line)}]{fd}{colon}{title}", "      ", "  -> ")
            out_lines += wrap_lines(cause, "     ")
            for k, step in enumerate(fix, 1):
                out_lines += wrap_lines(step, " " * (7 + len(str(k))), f"     {k}. ")
        out_lines.append("")
    if not hits:
        return [_("no line matches a known signature")]
    out_lines.pop()
    return out_lines
