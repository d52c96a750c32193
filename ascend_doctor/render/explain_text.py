"""`explain` as text: a check, a pitfall, an error code's head, an HCCL variable, a root-cause verdict."""

from __future__ import annotations

from typing import List

from ..i18n import _, get_lang, lookup, sentences
from .aggregate_text import status_word
from .kb_text import wrap_lines
from .layout import keyed
from .common import joined
from ..kb.lookup import cann_text, in_run_language


def status_label(status: str) -> str:
    word = status_word(status)
    return f"  {word:>5}: " if word.isascii() else f"  {word}："


def check_text(e: dict) -> List[str]:
    out = [_("{id}  (check, area: {area})").format(id=e["id"], area=lookup(e["area_title"])), ""]
    out += [_("What it checks:")] + wrap_lines(_("It passes when: {title}.").format(title=lookup(e["passes_when"])))
    for status, title in e["outcomes"].items():
        out += wrap_lines(lookup(title), "      ", status_label(status))
    about = lookup(e["about"])
    if about and (get_lang() == "en" or about != e["about"]):  # a module's own doc, shown only where translated
        out += [""] + [_("About this area:")] + wrap_lines(about)
    if e["pitfalls"]:
        out += ["", _("Why it happens and how to fix it (the pitfalls it reports):")]
        for p in e["pitfalls"]:
            out += wrap_lines(f"{p['id']} {p['title']}", "    ", "  ")
            out += wrap_lines(p["advice"], "    ")
    else:
        out += ["", _("How to fix it: the finding's own fix lines name the commands for your machine:")]
    # A module path means nothing to a reader of a Chinese report: the checks' page documents each check.
    source = e["source"] if get_lang() == "en" else "docs/checks.md"
    out += ["", _("See it on this machine:"), f"  {e['run']}", "",
            _("Where it comes from: {source}").format(source=source)]
    return out


def pitfall_text(e: dict) -> List[str]:
    zh = get_lang() == "zh" and e.get("advice_zh")
    out = wrap_lines(f"{e['id']}  {e['title_zh'] if zh else e['title']}", "    ", "") + [""]
    out += [_("What to do:")] + wrap_lines(e["advice_zh"] if zh else e["advice"])
    if e["checks"]:
        out += ["", _("Checks that report it:")] + wrap_lines(joined(e["checks"]))
    if e["signatures"]:
        out += ["", _("Log signatures that point at it:")]
        for s in e["signatures"]:
            out += wrap_lines(s["title"], "      ", "  " + keyed(s["id"], "")) if len(s["id"]) < 36 else \
                [f"  {s['id']}"] + wrap_lines(s["title"], "      ")
    out += [""] + wrap_lines(_("Where it comes from: {source}").format(source=readable_source(e["source"])), "  ", "")
    return out


def readable_source(source: str) -> str:
    """The research notes are not shipped: say where the same list can be read."""
    if source.startswith("reference/pitfalls.md"):
        return _("the project's pitfall list (research notes, reference/pitfalls.md), summarised in the "
                 "'Pitfall coverage' table of the documentation (docs/pitfalls.md)")
    return source


def code_text(entry) -> List[str]:
    """The head of an error-code answer: what the code is, and where its signatures come from."""
    info, code, sigs = entry.info, entry.key, entry.signatures
    out: List[str] = []
    if info.get("family") == "dcmi" and info.get("meaning"):
        if info.get("name"):
            out += wrap_lines(_("{code}: {name} (DCMI return code): {meaning}").format(
                code=code, name=info["name"], meaning=in_run_language(info)), "  ", "")
        else:
            out += wrap_lines(_("{code}: a DCMI return code: {meaning}").format(
                code=code, meaning=in_run_language(info)), "  ", "")
    elif info.get("name"):
        out += wrap_lines(_("{code}: {name} (AscendCL return code): {meaning}").format(
            code=code, name=info["name"], meaning=in_run_language(info)), "  ", "")
    if info.get("torch_npu"):
        known = info["torch_npu"]
        out += wrap_lines(_("{code}: {meaning} ({name}) in torch_npu's {module} sub-module ({covers}); torch_npu prints "
                            "it after the message that says which call or operator failed and why.").format(
            code=code, meaning=known["meaning"], name=known["name"], module=known["module"], covers=known["covers"]),
            "  ", "")
    if info.get("cann"):  # what the vendor's catalogue says of it (lookup.cann_code; cann_text: in the run's language)
        known = info["cann"]
        if known.get("words"):
            out += wrap_lines(_("{code}: {words} ({group} in CANN's error-code catalogue)").format(
                code=code, words=cann_text(known, "words"), group=known.get("class") or known.get("title", "")),
                "  ", "")
        else:
            out += wrap_lines(_("{code}: a code of CANN's error-code catalogue").format(code=code), "  ", "")
        out += wrap_lines(_("Message: {message}").format(message=known["message"]), "      ", "  ")
        if known.get("cause"):
            out += wrap_lines(_("Possible cause: {cause}").format(cause=cann_text(known, "cause")), "      ", "  ")
        if known.get("solution"):
            out += wrap_lines(_("Solution: {solution}").format(solution=cann_text(known, "solution")), "      ", "  ")
    if info.get("inner_error"):
        out += wrap_lines(_("{code}: an inner error of a CANN module: the TraceBack lines after it and the plog give "
                       "the reason.").format(code=code), "  ", "")
    if info.get("ascend_fd") and not info.get("unknown") and not any(code in s.id for s in sigs) and \
            not info.get("inner_error") and len(sigs) and all(s.kind == "wrapper" for s in sigs):
        out += wrap_lines(sentences(
            _("{code}: no entry of its own in the knowledge base; the generic entry below applies (ascend-fd "
              "reports it as {fd}).").format(code=code, fd=info["ascend_fd"]),
            _("The lines after it in the log (Possible Cause / Solution, and the plog) say more; if they do "
              "not help, collect with `ascend-doctor collect --logs <dir>` and send the archive to Huawei "
              "support.")), "  ", "")
    elif info.get("unknown"):
        out += wrap_lines(sentences(
            _("{code}: a CANN error code the knowledge base has no entry for.").format(code=code),
            _("The lines after it in the log (Possible Cause / Solution, and the plog) say more; if they do "
              "not help, collect with `ascend-doctor collect --logs <dir>` and send the archive to Huawei "
              "support.")), "  ", "")
    elif not sigs:
        out += wrap_lines(_("No signature of the knowledge base names this code: the call that returned it is on the "
                       "same log line, and the lines after it and the plog say more."), "  ", "")
    if sigs:
        out += ([""] if out else []) + wrap_lines(_("{code}: recognised by {count} signature(s):").format(
            code=code, count=len(sigs)), "", "") + [""]
    return out


def value_range(lo, hi, unit: str) -> str:
    text = f">= {lo}" if hi is None else f"{lo}-{hi}"
    return f"{text} {unit}".rstrip()


def variable_text(e: dict) -> List[str]:
    unit = e["unit"]
    out = [_("{name}  (HCCL environment variable)").format(name=e["name"]), ""]
    out += [_("What it does:")] + wrap_lines(e["meaning"] or e["note"] or _("see its HCCL document (below)."))
    if e["default"] is not None:
        out += wrap_lines(_("Default: {value}").format(value=f"{e['default']} {unit}".rstrip()), "    ", "")
    if e["range"]:
        out += wrap_lines(_("Range: {range}").format(range=value_range(e["range"][0], e["range"][1], unit)), "    ", "")
    for family, spec in e["by_family"].items():
        if spec.get("range"):
            out += wrap_lines(_("on {family}: {range}").format(family=family, range=value_range(
                spec["range"][0], spec["range"][1], unit)), "      ", "  ")
    if e["values"]:
        out += wrap_lines(_("Values: {values}").format(values=", ".join(e["values"])), "    ", "")
    if e["note"] and e["meaning"]:
        out += wrap_lines(_("Note: {note}").format(note=e["note"]), "    ", "")
    if e["signatures"]:
        out += ["", _("Signatures that mention it:")]
        for s in e["signatures"]:
            out += wrap_lines(s["title"], "      ", "  " + keyed(s["id"], "")) if len(s["id"]) < 36 else \
                [f"  {s['id']}"] + wrap_lines(s["title"], "      ")
    out += ["", _("Check the value on this machine:"), f"  {e['check']}", ""]
    if e["source"]:
        out += wrap_lines(_("Where it comes from: {source}").format(source=e["source"]), "  ", "")
    return out


def root_cause_json(kind: str) -> dict:
    """A root-cause verdict of `triage` as data: its fix steps in the current language and, under "i18n", their
    messages (a saved document is worded again in the other language: render/kb_text.reworded)."""
    from ..i18n import deferred
    from ..i18n_text import to_i18n, worded
    from ..triage.rootcause import fix_steps

    with deferred():
        steps = fix_steps(kind)
    return {"kind": kind, "fix": worded(steps), "i18n": {"fix": [to_i18n(s) for s in steps]}}


def root_cause_text(entry) -> List[str]:
    out = wrap_lines(_("{kind}: a root-cause verdict of `ascend-doctor triage` (the bracket after 'Root cause:')").format(
        kind=entry.key), "  ", "") + ["", _("How to act on it:")]
    for n, step in enumerate(entry.info["fix"], 1):
        out += wrap_lines(step, " " * (4 + len(str(n))), f"  {n}. ")
    out += [""] + wrap_lines(_("Where it comes from: {source}").format(source="docs/root-cause.md"), "  ", "")
    return out
