"""Renderers for `ascend-doctor triage`: text, json, markdown, html (render/html_triage.py). Pure functions of a
TriageResult."""

from __future__ import annotations

import json
import re
from itertools import chain
from typing import Iterable, List, Optional

from ..i18n import N_, _, get_lang, is_deferred, lookup
from ..i18n_text import Bilingual, Joined, worded
from ..jsonstream import pieces
from .common import INFO_LABEL, joined, severity_tag
from ..kb.model import COMPONENT_WORDS, ascend_fd_label, field_word
from ..triage.result import Problem, TriageResult, shown_source

from . import TRIAGE_FORMATS as FORMATS  # noqa: E402  (the choices: render/__init__.py)
# The severity as a word (markdown table): the JSON keeps the enum value.
_SEVERITY_WORD = {"fail": N_("fail"), "warn": N_("warn"), "info": INFO_LABEL}
_COLOR = {"fail": "\033[31;1m", "warn": "\033[33;1m", "info": "\033[2m"}


def render_triage(result: TriageResult, fmt: str, color: bool = False) -> str:
    return "".join(triage_pieces(result, fmt, color))


def triage_pieces(result: TriageResult, fmt: str, color: bool = False) -> Iterable[str]:
    """The report in `fmt` as pieces of text to write one after the other (commands.common.write_output)."""
    if fmt != "json":
        return [_rendered(result, fmt, color)]
    # Indented for reading when small; one line when large: the indenting encoder is pure Python (~0.1 s for 700
    # problems, a quarter of a 200 MB triage), the compact one is C (`jq .` indents it for reading). A large one is
    # made a problem at a time (jsonstream): 2,000 problems' 6 MB of JSON took 35 MB at once as a json.dumps.
    if len(result.problems) > COMPACT_JSON_ABOVE or len(result.inputs) > COMPACT_INPUTS_ABOVE:
        return chain(pieces(result.to_json(streamed=True), ensure_ascii=False), ["\n"])
    return [json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n"]


def _rendered(result: TriageResult, fmt: str, color: bool) -> str:
    if fmt == "markdown":
        return _markdown(result)
    if fmt == "html":
        from .html_triage import render_triage_html

        return render_triage_html(result.to_json())
    return _text(result, color)


def reworded(doc: dict, kb) -> dict:
    """A saved triage JSON document (`--format json`) in the current language, exactly as a run in it writes it:
    each problem's title, cause, fix and source from the knowledge base `kb` by the signature its "i18n" names (a signature
    `kb` does not hold keeps its words), the root cause's texts and the inputs' notes from their message entries. A document without
    "i18n" (written before it) is returned with its words as they are; the merged node summaries' warnings likewise.
    Bad entries raise ValueError."""
    from ..i18n import get_lang
    from ..i18n_text import from_i18n, unmarked

    out = dict(doc, lang=get_lang())
    problems = []
    for p in doc.get("problems") or []:
        refs = p.get("i18n") if isinstance(p, dict) else None
        if isinstance(refs, dict):
            try:
                sig = kb.signature(str(p.get("signature")))
            except KeyError:
                sig = None
            if sig is not None:
                # the values a run said in the words come from the problem's line, as the run read them
                line = p.get("line")
                title, cause, fix = sig.text(line=line if isinstance(line, str) else None)
                p = dict(p, title=title, cause=cause, fix=fix, source=shown_source(sig))
        problems.append(p)
    out["problems"] = problems
    out["inputs"] = [dict(i, note=worded(from_i18n(i["i18n"]["note"])))
                     if isinstance(i, dict) and isinstance(i.get("i18n"), dict) and "note" in i["i18n"] else i
                     for i in doc.get("inputs") or []]
    if "summaries" in doc:
        out["summaries"] = [dict(m, warnings=worded(from_i18n(m["i18n"]["warnings"])))
                        if isinstance(m, dict) and isinstance(m.get("i18n"), dict) and "warnings" in m["i18n"] else m
                        for m in doc.get("summaries") or []]
    rc = doc.get("root_cause")
    if isinstance(rc, dict) and isinstance(rc.get("i18n"), dict):
        out["root_cause"] = dict(rc, **worded({k: unmarked(v) for k, v in rc["i18n"].items()}))
    return out


def who(loc) -> str:
    """A device with its rank ("worker-1 device-6 (rank 6)"), else the rank or node, in the run's language: inside
    Chinese brackets the rank is said after a "，" rather than in a second, half-width pair."""
    if loc.device and loc.rank:
        return _("{device} ({rank})").format(device=loc.device, rank=loc.rank)
    return loc.who()


def _quoted(p: Problem) -> str:
    """A problem's line as a report quotes it: with its place before it when it was not read at `first` (a graded
    entry's first FAIL line, Problem.at)."""
    return f"{p.at.where()}: {p.text}" if p.at else p.text


def _where(p: Problem) -> str:
    first, last = p.first, p.last
    who_, time = who(first), first.time
    if who_ and time:
        s = _("first {where} ({who}) at {time}")
    elif who_:
        s = _("first {where} ({who})")
    elif time:
        s = _("first {where} at {time}")
    else:
        s = _("first {where}")
    s = s.format(where=first.where(), who=who_, time=time)
    if p.count > 1:
        s += (_(", last {where} ({device})") if last.device else _(", last {where}")).format(
            where=last.where(), device=last.device)
    return s


def _place(where: str, who, time) -> str:
    """'plog-1.log:12 (rank 3), 2024-07-12 10:21:33.512': where a problem first showed."""
    if who and time:
        s = _("{where} ({who}), {time}")
    elif who:
        s = _("{where} ({who})")
    elif time:
        s = _("{where}, {time}")
    else:
        return where
    return s.format(where=where, who=who, time=time)


def _peer_unknown() -> str:
    from ..triage.rootcause import PEER_UNKNOWN  # imported by then (a root cause was made); not for every triage

    return PEER_UNKNOWN


# The headline's tail: the rule's kind and ascend-fd's root-cause class. Chinese says only ascend-fd's class (the
# rule's id, "init_timeout_root_rank", is an English name a reader cannot use; the JSON keeps it as "kind"): its
# translations drop {kind} with an empty precision ("{kind:.0}") and put the class in the headline's own brackets.
_TAIL = N_("{headline}  [{kind}]")
_TAIL_CODE = N_("{headline}  [{kind}, ascend-fd {code}]")
_WAITED = N_("Root cause: {devices} (the others waited on it: {chain})")
_WAITED_CODE = N_("Root cause: {devices} (the others waited on it: {chain})  [{kind}, ascend-fd {code}]")
# the root devices joined as a reader writes a list, in the language the headline is said in
_DEVICES_SEP = Bilingual(", ", "、")


def root_cause_headline(rc: dict) -> str:
    """'Root cause: worker-1 device-1 (all others waited on it: a → b → worker-1 device-1)  [kind, ascend-fd
    code]': one message (a Text with its id and parameters while wording is deferred: the triage JSON keeps it
    under the root cause's "i18n")."""
    devices, chain = rc.get("devices") or [], rc.get("chain") or []
    code, kind = rc.get("ascend_fd_code"), rc.get("kind")
    arrow = " → ".join(chain)
    shown = Joined(list(devices), _DEVICES_SEP) if is_deferred() and len(devices) > 1 else joined(devices)
    if devices and chain:
        if code:
            return _(_WAITED_CODE).format(devices=shown, chain=arrow, kind=kind, code=code)
        head = _(_WAITED)
    elif devices:
        head = _("Root cause: {devices}")
    elif rc.get("peer_devices") == [_peer_unknown()]:  # said in ascend-fd's words where it names none
        head = (_("Root cause: Unknown Device (no single device; they wait on each other: {chain})") if chain
                else _("Root cause: Unknown Device (not determined from these logs)"))
    elif chain:
        head = _("Root cause: no single device; they wait on each other: {chain}")
    else:
        head = _("Root cause: not determined from these logs")
    head = head.format(devices=shown, chain=arrow)
    if code:
        return _(_TAIL_CODE).format(headline=head, kind=kind, code=code)
    return _(_TAIL).format(headline=head, kind=kind)


def _root_cause_lines(rc: dict) -> List[str]:
    out = [root_cause_headline(rc), f"  {rc['summary']}"]
    fe = rc.get("first_error")
    if fe:
        out.append("  " + _first_error_line(fe, fe["file"]))
        out.append(f"    > {fe['line']}")
    if rc.get("problem"):
        out.append("  " + _("matches known problem {problem} (below)").format(problem=rc["problem"]))
    for k, v in (rc.get("evidence") or {}).items():
        if isinstance(v, dict):
            v = ("；" if get_lang() == "zh" else "; ").join(
                _("{label}: {value}").format(label=a, value=joined(b) if isinstance(b, list) else b)
                for a, b in v.items())
        elif isinstance(v, list):
            v = joined(map(str, v))
        out.append("  " + _("{label}: {value}").format(label=evidence_label(k), value=v))
    for m in rc.get("missing") or []:
        out.append("  " + _("missing: {what}").format(what=m))
    if rc.get("fix"):
        out.append("  " + _("What to do:"))
        out += [f"    {i}. {step}" for i, step in enumerate(rc["fix"], 1)]
    return out


def evidence_label(key: str) -> str:
    """A root-cause evidence key (a JSON key: "first reporter", "nodes") as its label in the run's language. The
    catalog holds it as "root cause|<key>": one English word can need two Chinese ones ("nodes" of a cluster
    here, device nodes under /dev in a check), and gettext's contexts are not used in this project."""
    msgid = f"root cause|{key}"
    shown = lookup(msgid)
    return key if shown == msgid else shown


def _first_error_line(fe: dict, file: str) -> str:
    return _("{device}'s first error ({file}:{line}, {time}):").format(
        device=fe["device"], file=file, line=fe["line_no"], time=fe["time"])


def _ranks_line(p: Problem) -> str:
    if len(p.ranks) < 2:
        return ""
    order = sorted(p.ranks.items(), key=lambda kv: (kv[1].time or "9999", kv[1].seq))
    head = order[0]
    where = head[1].where()
    if where.startswith(head[0] + ":"):  # keyed by its file: the place alone says it (the file was printed twice)
        text = (_("seen on {count} devices/ranks/files; first at {where} at {time}, then {others}")
                if head[1].time else _("seen on {count} devices/ranks/files; first at {where}, then {others}"))
    else:
        text = (_("seen on {count} devices/ranks/files; first on {first} ({where}) at {time}, then {others}")
                if head[1].time else _("seen on {count} devices/ranks/files; first on {first} ({where}), then {others}"))
    return text.format(count=len(order), first=head[0], where=where, time=head[1].time,
                       others=joined(k for k, _o in order[1:6]) + (" …" if len(order) > 6 else ""))


UNEXPLAINED_SHOWN = 20  # in the text report (the JSON lists up to triage.scan.UNEXPLAINED_KEEP)


def traceback_note(tb: Optional[dict]) -> str:
    """What an unexplained entry that stands for a traceback folds (its `traceback` field), in a few words; "" for
    a line of its own (or a field not of that shape, from a JSON report written elsewhere)."""
    if not isinstance(tb, dict) or not all(isinstance(tb.get(k), int) for k in ("first_line", "frames")):
        return ""
    if tb.get("exception"):
        return _("(a traceback from line {first}: {frames} frame(s) folded into its exception line)").format(
            first=tb["first_line"], frames=tb["frames"])
    return _("(a traceback from line {first}, {frames} frame(s) folded; its exception line is not in the log)").format(
        first=tb["first_line"], frames=tb["frames"])


def _unexplained_lines(result: TriageResult, indent: str = "  ") -> List[str]:
    """Each distinct unexplained error line at its first place (×N when it came again), the first
    UNEXPLAINED_SHOWN of them."""
    out = []
    for e in result.unexplained[:UNEXPLAINED_SHOWN]:
        zh = get_lang() == "zh"  # "file:4（×3）：line" in Chinese (review 3 R7)
        times = (f"（×{e['count']}）" if zh else f" (×{e['count']})") if e.get("count", 1) > 1 else ""
        out.append(f"{indent}{e['file']}:{e['line']}{times}{'：' if zh else ': '}{e['text']}")
        note = traceback_note(e.get("traceback"))
        if note:
            out.append(f"{indent}  {note}")
    more = result.unexplained_total - min(len(result.unexplained), UNEXPLAINED_SHOWN)
    if more > 0:
        out.append(indent + _("… and {count} more (--format json lists the first {keep})").format(
            count=more, keep=len(result.unexplained)))
    return out


def _inputs_summary(result: TriageResult) -> List[str]:
    scanned = [i for i in result.inputs if i.scanned]
    out = [_("Read {files} file(s), {mb} MB, {lines} lines.").format(
        files=len(scanned), mb=f"{sum(i.bytes for i in scanned) / 1e6:.1f}", lines=sum(i.lines for i in scanned))]
    for i in result.inputs:
        if i.note:
            out.append("  " + _("note: {file}: {note}").format(file=i.label, note=lookup(i.note)))
    return out


def _text(result: TriageResult, color: bool) -> str:
    def c(sev, s):
        return f"{_COLOR[sev]}{s}\033[0m" if color else s

    lines = ["ascend-doctor triage", ""]
    lines += _inputs_summary(result)
    lines.append("")
    real = [p for p in result.problems if p.severity != "info"]
    harmless = [p for p in result.problems if p.severity == "info"]
    if result.root_cause:
        lines += _root_cause_lines(worded(result.root_cause))
        lines.append("")
    if not real:
        if result.unexplained_total:
            lines.append(_("No known problem found in these logs; {count} error line(s) not recognised.").format(
                count=result.unexplained_total))
        else:
            lines.append(_("No known problem found in these logs."))
            if not harmless:
                lines.append(_("No error-looking lines either."))
    else:
        first, over = result.lead()
        place = _place(first.since.where(), who(first.since), first.since.time)
        earlier = earlier_place = cause_id = None
        if over is not None:  # the headline's problem is not the earliest of its level: say which came before, and why
            earlier, why = over[0].signature.id, over[1]
            earlier_place = _place(over[0].since.where(), who(over[0].since), over[0].since.time)
            cause_id = over[0].caused_by
            headline = (_("{count} known problem(s). The leading {label}: {problem} at {place}; {earlier} at "
                          "{earlier_place} came before it and was raised again as it.") if why == "became" else
                        _("{count} known problem(s). The leading {label}: {problem} at {place}; {earlier} at "
                          "{earlier_place} came before it but follows from {cause}.") if why == "effect" else
                        _("{count} known problem(s). The leading {label}: {problem} at {place}; {earlier} at "
                          "{earlier_place} came before it but says only that a call failed."))
        elif first.severity == "fail":
            headline = _("{count} known problem(s). The earliest {label}: {problem} at {place} — when ranks fail "
                         "together, the first failure is usually the cause; the others often follow from it.")
        else:
            headline = _("{count} known problem(s). The earliest {label}: {problem} at {place}.")
        lines.append(headline.format(count=len(real), label=severity_tag(first.severity), problem=first.signature.id,
                                     place=place, earlier=earlier, earlier_place=earlier_place, cause=cause_id))
        for n, p in enumerate(real, 1):
            s = p.signature
            title, cause, fix = s.text(line=p.text)
            tags = [field_word(COMPONENT_WORDS, s.component)] + ([_("pitfall {pitfall}").format(pitfall=s.pitfall)] if s.pitfall else []) \
                + ([_("generic wrapper")] if s.kind == "wrapper" else [])
            lines.append("")
            lines.append(c(p.severity, f"{n}. {severity_tag(p.severity)} {s.id}") + "  [" + _(", ").join(tags) + f"]  ×{p.count}")
            lines.append(f"   {title}")
            if p.caused_by:
                lines.append("   " + _("caused by {problem} (above)").format(problem=p.caused_by))
            lines.append(f"   {_where(p)}")
            rl = _ranks_line(p)
            if rl:
                lines.append(f"   {rl}")
            lines.append(f"   > {_quoted(p)}")
            lines.append("   " + _("Cause: {cause}").format(cause=cause))
            lines.append("   " + _("Fix:"))
            for i, step in enumerate(fix, 1):
                lines.append(f"     {i}. {step}")
            fd = list(p.peers)
            lines.append("   " + _("Source: {source}").format(source=shown_source(s, fd)))
            if fd:  # the ids the log shows, once, labelled as kb show labels them: the source line does not repeat them
                head = ascend_fd_label(fd)
                lines.append("   " + head + ("" if head.endswith("：") else " ") + joined(fd))
    if result.unexplained:
        lines.append("")
        lines.append(_("Errors no known signature explains (read them too):"))
        lines += _unexplained_lines(result)
    if harmless:
        lines.append("")
        lines.append(_("Harmless or cleared (no action needed):"))
        for p in harmless:
            why = _("cleared later at {where}").format(where=p.resolved_by.where()) if p.resolved_by \
                else p.signature.text(line=p.text)[0]
            lines.append(f"  - {p.signature.id} ×{p.count} ({p.first.where()}): {why}")
    counts = result.counts()
    lines.append("")
    lines.append(_("Summary: {fail} fail, {warn} warn, {info} info").format(**counts))
    return "\n".join(_fit(lines)) + "\n"


COMPACT_JSON_ABOVE = 100  # problems
COMPACT_INPUTS_ABOVE = 2048  # inputs read (a cluster's plogs: 4,096 nodes' took 1 s to indent)

_QUOTED = re.compile(r"^\s*(?:> |\S+:\d+(?: \(×\d+\)|（×\d+）)?(?:: |：))")  # a quoted log line: shown whole, as it is in the file


def _fit(lines: List[str]) -> List[str]:
    """Every line to the terminal width (render.layout: breaks at spaces only), quoted log lines whole."""
    from .layout import fit_lines, terminal_width

    return fit_lines(lines, terminal_width(), keep=_QUOTED.match)


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def _markdown(result: TriageResult) -> str:
    out = ["# ascend-doctor triage", ""]
    out += [l.strip() for l in _inputs_summary(result)]
    out.append("")
    real = [p for p in result.problems if p.severity != "info"]
    rc = worded(result.root_cause)
    if rc:
        out += [f"## {_md_escape(root_cause_headline(rc))}", "", _md_escape(rc["summary"]), ""]
        fe = rc.get("first_error")
        if fe:
            out += [_first_error_line(fe, _md_escape(fe["file"])), "", "```", fe["line"], "```", ""]
        for m in rc.get("missing") or []:
            out.append("- " + _("missing: {what}").format(what=_md_escape(m)))
        if rc.get("fix"):
            out += ["", "**" + _("What to do.") + "**", ""] + [f"{i}. {step}" for i, step in enumerate(rc["fix"], 1)]
        out.append("")
    if not real:
        if result.unexplained_total:
            out.append("**" + _("No known problem found in these logs; {count} error line(s) not recognised.").format(
                count=result.unexplained_total) + "**")
        else:
            out.append("**" + _("No known problem found in these logs.") + "**")
    else:
        out += [_("| # | severity | signature | pitfall | count | first | last |"), "|---|---|---|---|---|---|---|"]
        for n, p in enumerate(real, 1):
            out.append(f"| {n} | {_(_SEVERITY_WORD[p.severity])} | `{p.signature.id}` | {p.signature.pitfall or ''} | {p.count} | "
                       f"{_md_escape(p.first.where())} {who(p.first) or ''} | {_md_escape(p.last.where())} |")
        for n, p in enumerate(real, 1):
            s = p.signature
            title, cause, fix = s.text(line=p.text)
            out += ["", f"## {n}. {s.id}: {_md_escape(title)}", "", "```", _quoted(p), "```", "",
                    _("**Cause.** {cause}").format(cause=cause), "", "**" + _("Fix.") + "**", ""]
            out += [f"{i}. {step}" for i, step in enumerate(fix, 1)]
            rl = _ranks_line(p)
            if rl:
                out += ["", f"*{rl}*"]
            if p.caused_by:
                out += ["", _("Caused by `{problem}`.").format(problem=p.caused_by)]
            out += ["", _("Source: {source}").format(source=_md_escape(shown_source(s)))]
    if result.unexplained:
        out += ["", "## " + _("Errors no known signature explains"), "", "```"]
        out += _unexplained_lines(result, "")
        out.append("```")
    harmless = [p for p in result.problems if p.severity == "info"]
    if harmless:
        out += ["", "## " + _("Harmless or cleared"), ""]
        out += [f"- `{p.signature.id}` ×{p.count}: {_md_escape(p.signature.text(line=p.text)[0])}" for p in harmless]
    return "\n".join(out) + "\n"
