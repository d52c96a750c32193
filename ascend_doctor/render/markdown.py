"""Markdown report: for pasting into a ticket or a pull request."""

from __future__ import annotations

import json
import re
from typing import List

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Report
from ..i18n import _, get_lang, lookup
from .common import (
    TIP_LABEL, TRY_LABEL, alternative_label, area_title, facts_summary, is_tip, joined, plan_lines, shown_areas,
    status_label, verdict_scope,
)
from .layout import has_wide, keyed, scalar
from ..fix_script import command_tail, is_prose
from ..plan import split_comment


# a literal inside Chinese words: a path, a version, a file name (a '/', '.' or '_' in it), kept in a code span
_LITERAL = re.compile(r"[!-~]*[/._][!-~]*[0-9A-Za-z*/]")
_CODE_SPAN = re.compile(r"(`[^`]+`)")
_WIDE_SPLIT = re.compile(r"([\u3000-\u303f\u3400-\u9fff\uff00-\uffef\s]+)")


def _value(v) -> str:
    """One evidence value as Markdown: a literal in a code span; a phrase standing for no value ("(not set)",
    "（未设置）") as words, a code span would read as the literal value. In Chinese a value is first written as
    the text report writes it (layout.scalar: "3.9.2（/usr/bin/python3）", "2.4.1、2.4.0"); one with Chinese
    words in it is words, only its literals (paths, versions) in code spans: a code span holds no prose."""
    text = str(v).strip()
    if len(text) > 1 and text[0] in "(（" and text[-1] in ")）":
        return _cell(text)
    if get_lang() == "zh":
        text = scalar(text)
        if has_wide(text):
            return "".join(part if part.startswith("`") else
                           "".join(f"`{w}`" if _LITERAL.fullmatch(w) else _words(w) for w in _WIDE_SPLIT.split(part) if w)
                           for part in _CODE_SPAN.split(_cell(text)) if part)  # a `span` the text has stays one
    return f"`{_cell(text)}`"


def _words(text: str) -> str:
    """Words in a Markdown list item: the few marks Markdown would take for markup escaped."""
    return text.replace("*", "\\*").replace("<", "\\<").replace("`", "\\`")


def _item(v) -> str:
    """One entry of an evidence list: a sentence ("ASCEND_HOME_PATH is not set") as words, with the few marks
    Markdown would take for markup escaped; a single token (a version, a path) as a literal."""
    text = str(lookup(v) if isinstance(v, str) else v)
    if " " in text.strip():
        return _words(_cell(text))
    return _value(text)


def _evidence(key: str, v) -> List[str]:
    """An evidence item: a list (of words) or a mapping as a nested list, never as JSON."""
    key = lookup(str(key))
    head = "  - " + keyed(key, "").rstrip()
    if isinstance(v, list) and v and all(isinstance(x, (str, int, float)) for x in v):
        return [head] + ["    - " + _item(x) for x in v]
    if isinstance(v, dict) and v and all(isinstance(x, (str, int, float)) for x in v.values()):
        return [head] + ["    - " + keyed(lookup(str(k)), _item(x)) for k, x in v.items()]
    if isinstance(v, (dict, list)):
        return ["  - " + keyed(key, f"`{_cell(json.dumps(v, ensure_ascii=False))}`")]
    return ["  - " + keyed(key, _value(lookup(v) if isinstance(v, str) else v))]  # a fixed phrase in the reader's language


def _steps(steps) -> List[str]:
    """Fix steps under a list item, in order: runs of commands (and code) in a fenced block, to paste as they are;
    a step written in words as a list item of its own, never inside a block."""
    out: List[str] = []
    block: List[str] = []
    for step in steps:
        if is_prose(step):
            if block:
                out += ["    ```", *block, "    ```"]
                block = []
            cmd, why = split_comment(step.strip())
            cmd = cmd.strip()
            tail = command_tail(cmd)
            if tail:  # the command after the words in a code span: copied whole
                cmd = tail[0] + ("" if tail[0].endswith("：") else " ") + f"`{tail[1]}`"
            words = _("{step} — {why}").format(step=cmd, why=why.strip()) if why else cmd
            out.append("    - " + _("by hand: {step}").format(step=words))
        else:
            block.extend("    " + line for line in step.splitlines())
    if block:
        out += ["    ```", *block, "    ```"]
    return out


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render(report: Report, color: bool = False) -> str:
    report = report.worded()  # the door: message ids become words in the current language
    out: List[str] = [_("# ascend-doctor report: {name}").format(name=report.host.get("name")), ""]
    out += [_("| component | found |"), "|---|---|"]
    out += [f"| {_cell(k)} | {_cell(v)} |" for k, v in facts_summary(report.facts)]
    out.append("")
    s = report.summary
    scope = verdict_scope(report.host)
    counts = {"fail": s[FAIL], "warn": s[WARN], "error": s[ERROR], "passed": s[PASS], "skipped": s[SKIP],
              "scope": scope}
    out.append((_("**{fail} fail, {warn} warn, {error} could not check, {passed} pass, {skipped} skipped** "
                  "({scope})") if scope else
                _("**{fail} fail, {warn} warn, {error} could not check, {passed} pass, {skipped} skipped**"))
               .format(**counts))
    out.append("")
    areas, all_skipped = shown_areas(report)
    for area, items in areas:
        out.append(f"## {area_title(area)}")
        out.append("")
        for f in items:
            if f.status == SKIP:
                continue
            item = {"status": _(TIP_LABEL) if is_tip(f) else status_label(f.status), "title": f.title, "id": f.id,
                    "summary": f.summary}
            out.append((_("- **{status}** {title} (`{id}`) — {summary}") if f.summary else
                        _("- **{status}** {title} (`{id}`)")).format(**item))
            if f.status in (FAIL, ERROR, WARN) or is_tip(f):
                for k, v in f.evidence.items():
                    out.extend(_evidence(k, v))
                if f.fix:
                    out.append("  - " + (_(TRY_LABEL) if is_tip(f) else _("fix:")))
                    out.extend(_steps(f.fix))
                for alt in f.alternatives:  # another way, labelled: not a further step
                    out.append("  - " + alternative_label(alt.get("why") or ""))
                    out.extend(_steps(alt.get("steps") or []))
                if f.pitfall:
                    out.append("  - " + _("pitfall: {pitfall}").format(pitfall=f.pitfall))
        out.append("")
    if all_skipped:
        out += [_("Not applicable here (every check skipped; ids in --format json): {areas}.")
                .format(areas=joined(all_skipped)), ""]
    plan = report.node_plan()
    if plan.steps or plan.unresolved:
        out += ["## " + _("Plan: the least disruptive steps that clear the failures"), ""]
        for kind, text in plan_lines(plan):
            if kind == "step":
                out.append(text.replace("\n", " "))
            elif kind == "alt_step":
                out.append("   " + text.replace("\n", " "))
            elif kind == "alternative":
                out += ["", "- " + text]
            else:
                out.append(("   - " if kind == "resolves" else "- ") + text)
        out.append("")
    return "\n".join(out) + "\n"
