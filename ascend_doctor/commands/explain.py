"""`ascend-doctor explain ID`: what an id from a report, a log or a ticket means, offline.

ID is a check id (`install.cann_env_sourced`), a pitfall (`P08`), a knowledge-base signature (ours, or an
ascend-fd fault id) or a CANN error code (`EI0006`). Each answer says what it is, why it happens, how to fix
it and where that comes from; `--format json` gives the same as data.
"""

from __future__ import annotations

import difflib
import json
import sys
from typing import Dict, List, Optional, Tuple

from ..cli import COMMANDS
from ..errors import CliError, EXIT_OK
from ..i18n import _, get_lang, lookup, sentences
from .common import add_kb_option, load_kb, write_output

WIDTH = 80


def register(sub) -> None:
    p = sub.add_parser("explain", help=_(COMMANDS["explain"]),
                       description=_("Explain a check id, a pitfall (P08), a knowledge-base signature (ours or an "
                                      "ascend-fd fault id) or a CANN error code (EI0006): what it means, why it "
                                      "happens, how to fix it, and where that comes from. Works offline."))
    p.add_argument("id", metavar="ID")
    p.add_argument("--format", choices=["text", "json"], default="text", help=_("output format (default: text)"))
    p.add_argument("--output", "-o", metavar="FILE", help=_("write to FILE instead of stdout"))
    add_kb_option(p)
    p.set_defaults(func=run)


# ---------------------------------------------------------------------------
# looking up

def _checks() -> Dict[str, object]:
    from ..checks import all_checks

    return {c.id: c for c in all_checks()}


def _module_doc(spec) -> str:
    mod = sys.modules.get(spec.module)
    doc = (getattr(mod, "__doc__", "") or "").strip()
    return " ".join(doc.split("\n\n", 1)[0].split())


def explain_check(spec, kb) -> dict:
    from ..i18n import _
    from ..render.common import area_title

    titles = dict(getattr(spec, "titles", {}) or {})
    pitfalls = []
    for pid in spec.pitfalls:
        p = kb.pitfalls.get(pid)
        if p is not None:
            title, advice = p.text()
            pitfalls.append({"id": p.id, "title": title, "advice": advice, "source": p.source})
    return {"kind": "check", "id": spec.id, "area": spec.id.split(".", 1)[0],
            "area_title": area_title(spec.id.split(".", 1)[0]),
            "passes_when": _(spec.title),  # check titles are catalogued with the checks: the reader's language
            "outcomes": {status: _(titles[status]) for status in ("fail", "warn", "error", "skip") if titles.get(status)},
            "about": _module_doc(spec), "pitfalls": pitfalls,
            "source": f"ascend_doctor/{spec.module.split('ascend_doctor.', 1)[-1].replace('.', '/')}.py",
            "run": f"ascend-doctor check --only {spec.id}"}


def explain_pitfall(pitfall, kb, checks) -> dict:
    return {"kind": "pitfall", "id": pitfall.id, "title": pitfall.title, "advice": pitfall.advice,
            "title_zh": getattr(pitfall, "title_zh", "") or "", "advice_zh": getattr(pitfall, "advice_zh", "") or "",
            "source": pitfall.source,
            "checks": sorted(c.id for c in checks.values() if pitfall.id in c.pitfalls),
            "signatures": [{"id": s.id, "title": s.text()[0]} for s in kb.signatures if s.pitfall == pitfall.id]}


def resolve(query: str, kb) -> Tuple[str, object]:
    """(kind, thing) for an id: a check (its spec), a pitfall, else what the one index (`lookup.find`) says
    (an Entry); CliError with the closest names when nothing is called that."""
    from ..kb.lookup import find, known_names

    key = query.strip()
    checks = _checks()
    lowered = {k.lower(): k for k in checks}
    if key.lower() in lowered:
        return "check", checks[lowered[key.lower()]]
    entry = find(key, kb)
    if entry is not None:
        return entry.kind, (entry.pitfall if entry.kind == "pitfall" else entry)
    names = list(checks) + known_names(kb)
    close = difflib.get_close_matches(key, names, n=3, cutoff=0.6) or \
        difflib.get_close_matches(key.upper(), [n.upper() for n in names], n=3, cutoff=0.6)
    if close:
        text = _("explain: {key} is not a check id, a pitfall (P01..P{last}), a knowledge-base signature, an "
                 "ascend-fd fault id or a CANN error code (like EI0006); did you mean {close}?")
    else:
        text = _("explain: {key} is not a check id, a pitfall (P01..P{last}), a knowledge-base signature, an "
                 "ascend-fd fault id or a CANN error code (like EI0006) (try: ascend-doctor kb search WORD)")
    raise CliError(text.format(key=repr(key), last=f"{len(kb.pitfalls):02d}", close=", ".join(close)))


# ---------------------------------------------------------------------------
# text

def _wrap(text: str, indent: str = "  ", first: Optional[str] = None) -> List[str]:
    """kb's wrapping (Chinese by display width), keeping a word longer than the line whole."""
    from .kb import _wrap as kb_wrap

    return kb_wrap(text, indent, first, break_long_words=False)


def _status_label(status: str) -> str:
    from ..render.aggregate_text import status_word

    word = status_word(status)
    return f"  {word:>5}: " if word.isascii() else f"  {word}："


def _check_text(e: dict) -> List[str]:
    out = [_("{id}  (check, area: {area})").format(id=e["id"], area=lookup(e["area_title"])), ""]
    out += [_("What it checks:")] + _wrap(_("It passes when: {title}.").format(title=lookup(e["passes_when"])))
    for status, title in e["outcomes"].items():
        out += _wrap(lookup(title), "      ", _status_label(status))
    about = lookup(e["about"])
    if about and (get_lang() == "en" or about != e["about"]):  # a module's own doc, shown only where translated
        out += [""] + [_("About this area:")] + _wrap(about)
    if e["pitfalls"]:
        out += ["", _("Why it happens and how to fix it (the pitfalls it reports):")]
        for p in e["pitfalls"]:
            out += _wrap(f"{p['id']} {p['title']}", "    ", "  ")
            out += _wrap(p["advice"], "    ")
    else:
        out += ["", _("How to fix it: the finding's own fix lines name the commands for your machine:")]
    # A module path means nothing to a reader of a Chinese report: the checks' page documents each check.
    source = e["source"] if get_lang() == "en" else "docs/checks.md"
    out += ["", _("See it on this machine:"), f"  {e['run']}", "",
            _("Where it comes from: {source}").format(source=source)]
    return out


def _pitfall_text(e: dict) -> List[str]:
    zh = get_lang() == "zh" and e.get("advice_zh")
    out = _wrap(f"{e['id']}  {e['title_zh'] if zh else e['title']}", "    ", "") + [""]
    out += [_("What to do:")] + _wrap(e["advice_zh"] if zh else e["advice"])
    if e["checks"]:
        out += ["", _("Checks that report it:")] + _wrap(", ".join(e["checks"]))
    if e["signatures"]:
        out += ["", _("Log signatures that point at it:")]
        for s in e["signatures"]:
            out += _wrap(s["title"], "      ", f"  {s['id']}: ") if len(s["id"]) < 36 else \
                [f"  {s['id']}"] + _wrap(s["title"], "      ")
    out += [""] + _wrap(_("Where it comes from: {source}").format(source=_readable_source(e["source"])), "  ", "")
    return out


def _readable_source(source: str) -> str:
    """The research notes are not shipped: say where the same list can be read."""
    if source.startswith("reference/pitfalls.md"):
        return _("the project's pitfall list (research notes, reference/pitfalls.md), summarised in the "
                 "'Pitfall coverage' table of the documentation (docs/pitfalls.md)")
    return source


def _code_text(entry) -> List[str]:
    """The head of an error-code answer: what the code is, and where its signatures come from."""
    info, code, sigs = entry.info, entry.key, entry.signatures
    out: List[str] = []
    if info.get("name"):
        out += _wrap(_("{code}: {name} (AscendCL return code): {meaning}").format(
            code=code, name=info["name"], meaning=info["meaning"]), "  ", "")
    if info.get("inner_error"):
        out += _wrap(_("{code}: an inner error of a CANN module: the TraceBack lines after it and the plog give "
                       "the reason.").format(code=code), "  ", "")
    if info.get("ascend_fd") and not info.get("unknown") and not any(code in s.id for s in sigs) and \
            not info.get("inner_error") and len(sigs) and all(s.kind == "wrapper" for s in sigs):
        out += _wrap(sentences(
            _("{code}: no entry of its own in the knowledge base; the generic entry below applies (ascend-fd "
              "reports it as {fd}).").format(code=code, fd=info["ascend_fd"]),
            _("The lines after it in the log (Possible Cause / Solution, and the plog) say more; if they do "
              "not help, collect with `ascend-doctor collect --logs <dir>` and send the archive to Huawei "
              "support.")), "  ", "")
    elif info.get("unknown"):
        out += _wrap(sentences(
            _("{code}: a CANN error code the knowledge base has no entry for.").format(code=code),
            _("The lines after it in the log (Possible Cause / Solution, and the plog) say more; if they do "
              "not help, collect with `ascend-doctor collect --logs <dir>` and send the archive to Huawei "
              "support.")), "  ", "")
    elif not sigs:
        out += _wrap(_("No signature of the knowledge base names this code: the call that returned it is on the "
                       "same log line, and the lines after it and the plog say more."), "  ", "")
    if sigs:
        out += ([""] if out else []) + _wrap(_("{code}: recognised by {count} signature(s):").format(
            code=code, count=len(sigs)), "", "") + [""]
    return out


def _range(lo, hi, unit: str) -> str:
    text = f">= {lo}" if hi is None else f"{lo}-{hi}"
    return f"{text} {unit}".rstrip()


def explain_variable(entry) -> dict:
    """An HCCL variable as data: its table row with the texts in the reader's language."""
    from ..hccl_env import data_text, family_name
    from ..i18n import get_lang

    spec = entry.info["variable"]
    zh = get_lang() == "zh" and spec.get("meaning_zh")
    return {"name": spec["name"], "meaning": (spec.get("meaning_zh") if zh else spec.get("meaning")) or "",
            "type": spec["type"], "default": spec.get("default"), "unit": spec.get("unit", ""),
            "range": spec.get("range"), "values": spec.get("values"),
            "by_family": {family_name(f): v for f, v in (spec.get("by_family") or {}).items()},
            "note": data_text(spec.get("note")) or "", "source": spec["source"],
            "signatures": [{"id": s.id, "title": s.text()[0]} for s in entry.signatures],
            "check": "ascend-doctor check --only hccl.env_values"}


def _variable_text(e: dict) -> List[str]:
    unit = e["unit"]
    out = [_("{name}  (HCCL environment variable)").format(name=e["name"]), ""]
    out += [_("What it does:")] + _wrap(e["meaning"] or e["note"] or _("see its HCCL document (below)."))
    if e["default"] is not None:
        out += _wrap(_("Default: {value}").format(value=f"{e['default']} {unit}".rstrip()), "    ", "")
    if e["range"]:
        out += _wrap(_("Range: {range}").format(range=_range(e["range"][0], e["range"][1], unit)), "    ", "")
    for family, spec in e["by_family"].items():
        if spec.get("range"):
            out += _wrap(_("on {family}: {range}").format(family=family, range=_range(
                spec["range"][0], spec["range"][1], unit)), "      ", "  ")
    if e["values"]:
        out += _wrap(_("Values: {values}").format(values=", ".join(e["values"])), "    ", "")
    if e["note"] and e["meaning"]:
        out += _wrap(_("Note: {note}").format(note=e["note"]), "    ", "")
    if e["signatures"]:
        out += ["", _("Signatures that mention it:")]
        for s in e["signatures"]:
            out += _wrap(s["title"], "      ", f"  {s['id']}: ") if len(s["id"]) < 36 else \
                [f"  {s['id']}"] + _wrap(s["title"], "      ")
    out += ["", _("Check the value on this machine:"), f"  {e['check']}", ""]
    out += _wrap(_("Where it comes from: {source}").format(source=e["source"]), "  ", "")
    return out


def _root_cause_text(entry) -> List[str]:
    out = _wrap(_("{kind}: a root-cause verdict of `ascend-doctor triage` (the bracket after 'Root cause:')").format(
        kind=entry.key), "  ", "") + ["", _("How to act on it:")]
    for n, step in enumerate(entry.info["fix"], 1):
        out += _wrap(step, " " * (4 + len(str(n))), f"  {n}. ")
    out += [""] + _wrap(_("Where it comes from: {source}").format(source="docs/root-cause.md"), "  ", "")
    return out


def run(args) -> int:
    from .kb import _sig_json, _sig_text

    kb = load_kb(args.kb)
    kind, thing = resolve(args.id, kb)
    if kind == "check":
        entry = explain_check(thing, kb)
        obj = {"query": args.id, "kind": kind, "check": entry}
        lines = _check_text(entry)
    elif kind == "pitfall":
        entry = explain_pitfall(thing, kb, _checks())
        obj = {"query": args.id, "kind": kind, "pitfall": entry}
        lines = _pitfall_text(entry)
    elif kind == "hccl_env":
        entry = explain_variable(thing)
        obj = {"query": args.id, "kind": kind, "variable": entry}
        lines = _variable_text(entry)
    elif kind == "root_cause":
        obj = {"query": args.id, "kind": kind, "root_cause": {"kind": thing.key, "fix": thing.info["fix"]}}
        lines = _root_cause_text(thing)
    else:
        sigs = thing.signatures
        obj = {"query": args.id, "kind": kind, "signatures": [_sig_json(s) for s in sigs]}
        lines = []
        if kind == "error_code":
            obj["code"] = dict(thing.info)
            lines += _code_text(thing)
        elif kind == "ascend_fd":
            lines += _wrap(_("{id}: an ascend-fd fault id, recognised by {count} signature(s):").format(
                id=args.id, count=len(sigs)), "", "")
            lines.append("")
        for s in sigs:
            lines += _sig_text(kb, s) + [""]
        if kind == "error_code" and thing.info.get("source"):
            lines += _wrap(_("Where it comes from: {source}").format(source=thing.info["source"]), "  ", "")
        if lines and lines[-1] == "":
            lines.pop()
    if args.format == "json":
        write_output(json.dumps(obj, ensure_ascii=False, indent=1) + "\n", args.output)
    else:
        write_output("\n".join(lines) + "\n", args.output)
    return EXIT_OK
