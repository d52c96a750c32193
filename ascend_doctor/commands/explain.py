"""`ascend-doctor explain ID`: what an id from a report, a log or a ticket means, offline.

ID is a check id (`install.cann_env_sourced`), a pitfall (`P08`), a knowledge-base signature (ours, or an
ascend-fd fault id) or a CANN error code (`EI0006`). Each answer says what it is, why it happens, how to fix
it and where that comes from; `--format json` gives the same as data.
"""

from __future__ import annotations

import difflib
import json
import sys
from typing import Dict, Tuple

from ..cli import COMMANDS
from ..errors import CliError, EXIT_OK
from ..i18n import _, get_lang
from .common import add_kb_option, load_kb, write_output


def register(sub) -> None:
    p = sub.add_parser("explain", help=_(COMMANDS["explain"]),
                       description=_("Explain a check id, a pitfall (P08), a knowledge-base signature (ours or an "
                                      "ascend-fd fault id), an error code (CANN EI0006, AscendCL 507014, DCMI -8255, "
                                      "torch_npu ERR01007) or an HCCL variable (HCCL_CONNECT_TIMEOUT): what it "
                                      "means, why it happens, how to fix it, and where that comes from. Works "
                                      "offline."))
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
    from ..render.common import AREA_TITLES, area_title
    from ..render.kb_text import kb_refs

    titles = dict(getattr(spec, "titles", {}) or {})
    pitfalls = []
    for pid in spec.pitfalls:
        p = kb.pitfalls.get(pid)
        if p is not None:
            title, advice = p.text()
            pitfalls.append({"id": p.id, "title": title, "advice": advice, "source": p.source,
                             "i18n": kb_refs(p.id, ("title", "advice"))})
    area = spec.id.split(".", 1)[0]
    outcomes = [status for status in ("fail", "warn", "error", "skip") if titles.get(status)]
    # the check's words are messages of the catalog (the reader's language); "i18n" keeps them, for reworded()
    refs = {"passes_when": {"id": spec.title}, "outcomes": {status: {"id": titles[status]} for status in outcomes}}
    if area in AREA_TITLES:
        refs["area_title"] = {"id": AREA_TITLES[area]}
    return {"kind": "check", "id": spec.id, "area": area, "area_title": area_title(area),
            "passes_when": _(spec.title), "outcomes": {status: _(titles[status]) for status in outcomes},
            "about": _module_doc(spec), "pitfalls": pitfalls,
            "source": f"ascend_doctor/{spec.module.split('ascend_doctor.', 1)[-1].replace('.', '/')}.py",
            "run": f"ascend-doctor check --only {spec.id}", "i18n": refs}


def explain_pitfall(pitfall, kb, checks) -> dict:
    return {"kind": "pitfall", "id": pitfall.id, "title": pitfall.title, "advice": pitfall.advice,
            "title_zh": getattr(pitfall, "title_zh", "") or "", "advice_zh": getattr(pitfall, "advice_zh", "") or "",
            "source": pitfall.source,
            "checks": sorted(c.id for c in checks.values() if pitfall.id in c.pitfalls),
            "signatures": [_sig_title(s) for s in kb.signatures if s.pitfall == pitfall.id]}


def _sig_title(sig) -> dict:
    """A signature named in a list: its id and title (and the title's ref, for reworded())."""
    from ..render.kb_text import kb_refs

    return {"id": sig.id, "title": sig.text()[0], "i18n": kb_refs(sig.id, ("title",))}


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


def explain_variable(entry) -> dict:
    """An HCCL variable as data: its table row with the texts in the reader's language."""
    from ..hccl_env import data_text, family_name, shown_source
    from ..i18n import get_lang

    spec = entry.info["variable"]
    zh = get_lang() == "zh" and spec.get("meaning_zh")
    # the table's texts: its meaning in both languages, a note a message of the catalog; "i18n" keeps them
    refs = {"meaning": {"text": spec.get("meaning") or "", "zh": spec.get("meaning_zh") or ""}}
    if spec.get("note"):
        refs["note"] = {"id": spec["note"]}
    return {"name": spec["name"], "meaning": (spec.get("meaning_zh") if zh else spec.get("meaning")) or "",
            "type": spec["type"], "default": spec.get("default"), "unit": spec.get("unit", ""),
            "range": spec.get("range"), "values": spec.get("values"),
            "by_family": {family_name(f): v for f, v in (spec.get("by_family") or {}).items()},
            "note": data_text(spec.get("note")) or "", "source": shown_source(spec["source"]),
            "signatures": [_sig_title(s) for s in entry.signatures],
            "check": "ascend-doctor check --only hccl.env_values", "i18n": refs}


def run(args) -> int:
    from ..render.explain_text import (check_text, code_text, pitfall_text, root_cause_json, root_cause_text,
                                       variable_text)
    from ..render.kb_text import sig_json, sig_text, wrap_lines

    kb = load_kb(args.kb)
    kind, thing = resolve(args.id, kb)
    if kind == "check":
        entry = explain_check(thing, kb)
        obj = {"query": args.id, "kind": kind, "check": entry}
        lines = check_text(entry)
    elif kind == "pitfall":
        entry = explain_pitfall(thing, kb, _checks())
        obj = {"query": args.id, "kind": kind, "pitfall": entry}
        lines = pitfall_text(entry)
    elif kind == "hccl_env":
        entry = explain_variable(thing)
        obj = {"query": args.id, "kind": kind, "variable": entry}
        lines = variable_text(entry)
    elif kind == "root_cause":
        obj = {"query": args.id, "kind": kind, "root_cause": root_cause_json(thing.key)}
        lines = root_cause_text(thing)
    else:
        sigs = thing.signatures
        obj = {"query": args.id, "kind": kind, "signatures": [sig_json(s) for s in sigs]}
        lines = []
        if kind == "error_code":
            obj["code"] = dict(thing.info)
            lines += code_text(thing)
        elif kind == "ascend_fd":
            lines += wrap_lines(_("{id}: an ascend-fd fault id, recognised by {count} signature(s):").format(
                id=args.id, count=len(sigs)), "", "")
            lines.append("")
        for s in sigs:
            lines += sig_text(kb, s) + [""]
        if kind == "error_code" and thing.info.get("source"):
            source = (get_lang() == "zh" and thing.info.get("source_zh")) or thing.info["source"]
            lines += wrap_lines(_("Where it comes from: {source}").format(source=source), "  ", "")
        if lines and lines[-1] == "":
            lines.pop()
    if args.format == "json":
        write_output(json.dumps(obj, ensure_ascii=False, indent=1) + "\n", args.output)
    else:
        write_output("\n".join(lines) + "\n", args.output)
    return EXIT_OK
