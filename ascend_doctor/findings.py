"""The report contract: findings, their statuses, and the report that holds them.

A Finding is what one check concluded. `error` means "could not check" and is
never folded into pass; `skip` means the check does not apply to this machine.
A check that crashed (an exception in the doctor, a bug) is also `error`, told
apart by evidence `crashed: true` and a title starting with CRASHED_TITLE_PREFIX.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from .i18n import _, get_lang
from .records import dataclass, field

# report/2: each finding (and each plan step) keeps its worded texts and, under "i18n", their message ids and
# parameters, so a saved report is worded again exactly in any language (docs/report.md). report/1 files (the
# worded texts only) are still read: their texts are worded again by the phrase templates (phrases.reword_stored).
REPORT_SCHEMA = "ascend-doctor.report/2"
REPORT_SCHEMA_1 = "ascend-doctor.report/1"
REPORT_SCHEMAS = (REPORT_SCHEMA, REPORT_SCHEMA_1)

PASS, WARN, FAIL, SKIP, ERROR = "pass", "warn", "fail", "skip", "error"
STATUSES = (PASS, WARN, FAIL, SKIP, ERROR)

# Order used to sort and to compare against --fail-on. `error` (could not check)
# sits with warn: the doctor could not vouch for that area, which is worth flagging
# to a pre-flight job set to --fail-on warn, but it is not a proven failure.
SEVERITY = {PASS: 0, SKIP: 0, WARN: 1, ERROR: 1, FAIL: 2}

CRASHED_TITLE_PREFIX = "Check crashed: "

# A problem (a rank-table rule broken, an HCCL variable misset, a known log line) is fail, warn or info:
# the words of findings, plus "info" for what is worth knowing but not wrong. A problem is never "error"
# (could not check): that is a finding's word.
INFO = "info"
PROBLEM_SEVERITIES = (FAIL, WARN, INFO)


def outcome_title(neutral: str, status: str, titles: Dict[str, str]) -> str:
    """The line a finding shows for its outcome, as flutter doctor words it: the line says what is wrong.

    `neutral` is the check's title, which states the passing condition ("NPU driver installed");
    `titles` maps fail/warn/error/skip to the words for that outcome ("No NPU driver found"). A
    check must write its fail and warn words (tests/checks/test_titles.py); "could not check" and "not
    applicable" have a generic form for a check that has none.
    """
    if status == PASS:
        return neutral
    if titles.get(status):
        return titles[status]
    if status == ERROR:
        return _("Could not check: {title}").format(title=neutral)
    if status == SKIP:
        return _("Not applicable: {title}").format(title=neutral)
    return f"Problem: {neutral}"  # a fail/warn without its own words (a test forbids it)


@dataclass
class Finding:
    id: str
    status: str
    title: str
    summary: str = ""
    evidence: Dict[str, Any] = field(default_factory=dict)
    fix: List[str] = field(default_factory=list)
    pitfall: Optional[str] = None
    duration_ms: int = 0
    # Other ways to the same end, each labelled: [{"why": str, "steps": [str]}] (`fix` holds steps only)
    alternatives: List[Dict[str, Any]] = field(default_factory=list)

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"finding {self.id}: status {self.status!r} is not one of {STATUSES}")

    @property
    def crashed(self) -> bool:
        """The check raised (a bug in the doctor), as opposed to running and lacking what it needed."""
        return self.evidence.get("crashed") is True

    @property
    def area(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def is_problem(self) -> bool:
        return self.status in (WARN, FAIL, ERROR)

    def to_json(self) -> dict:
        """The finding worded in the current language, and (under "i18n") the message ids and parameters of its
        texts, from which from_json words it again in any language."""
        from .i18n_text import Text, entry as to_i18n, worded

        alternatives = [{"why": a.get("why") or "", "steps": list(a.get("steps") or [])} for a in self.alternatives]
        i18n: Dict[str, Any] = {"title": to_i18n(self.title), "summary": to_i18n(self.summary),
                                "fix": [to_i18n(s) for s in self.fix]}
        if alternatives:
            i18n["alternatives"] = [{"why": to_i18n(a["why"]), "steps": [to_i18n(s) for s in a["steps"]]}
                                    for a in alternatives]
        texts = _evidence_texts(self.evidence)
        if texts:
            i18n["evidence"] = texts
        keys = {worded(k): to_i18n(k) for k in self.evidence if isinstance(k, Text)}
        if keys:  # an evidence label made of a message with parameters ("published with {target}")
            i18n["evidence_keys"] = keys
        return {
            "id": self.id,
            "status": self.status,
            "title": worded(self.title),
            "summary": worded(self.summary),
            "evidence": worded(self.evidence),
            "fix": worded(list(self.fix)),
            "pitfall": self.pitfall,
            "duration_ms": self.duration_ms,
            "alternatives": worded(alternatives),
            "i18n": i18n,
        }

    def worded(self) -> "Finding":
        """A copy with every text in the current language (what a renderer shows)."""
        from .i18n_text import worded

        return Finding(self.id, self.status, worded(self.title), worded(self.summary), worded(self.evidence),
                       worded(list(self.fix)), self.pitfall, self.duration_ms, worded(list(self.alternatives)))

    def with_outcome_title(self, neutral: str, titles: Dict[str, str]) -> "Finding":
        """Give this finding the line for its outcome (see `outcome_title`); returns self."""
        if self.status == PASS:
            return self
        line = outcome_title(neutral, self.status, titles)
        params = getattr(self.title, "params", None)
        if self.title == neutral:
            self.title = line
        elif params and params.get("title") == neutral and getattr(self.title, "msgid", "") == "{title}: {name}":
            from .i18n_text import Text  # "<title>: HCCL_BUFFSIZE", a message: the outcome's line in its title

            self.title = Text._make(self.title.msgid, dict(params, title=line))
        elif self.title.startswith(neutral + ": "):  # "<title>: HCCL_BUFFSIZE" - one finding per variable
            self.title = line + self.title[len(neutral):]
        return self

    @classmethod
    def from_json(cls, data: dict) -> "Finding":
        """A finding of a saved report: report/2 texts rebuilt from their message ids ("i18n"), so they are worded
        again exactly; a report/1 finding's texts (no ids) as Stored texts, worded by the phrase templates."""
        i18n = data.get("i18n")
        if i18n is not None:
            return cls._from_i18n(data, i18n)
        from .i18n_text import Stored

        def text(value: Any) -> Any:
            return Stored(str(value), report=True) if value else ""

        return cls(
            id=str(data["id"]),
            status=str(data["status"]),
            title=text(data.get("title", "")),
            summary=text(data.get("summary", "")),
            evidence=dict(data.get("evidence") or {}),
            fix=[text(x) for x in data.get("fix") or []],
            pitfall=data.get("pitfall"),
            duration_ms=int(data.get("duration_ms") or 0),
            alternatives=[{"why": text(a.get("why") or ""), "steps": [text(x) for x in a.get("steps") or []]}
                          for a in data.get("alternatives") or [] if isinstance(a, dict)],
        )

    @classmethod
    def _from_i18n(cls, data: dict, i18n: Any) -> "Finding":
        from .i18n_text import from_entry as from_i18n, unmarked

        if not isinstance(i18n, dict) or not isinstance(i18n.get("fix", []), list):
            raise ValueError(f"finding {data.get('id')}: field 'i18n' is not an object with a 'fix' list")
        fix_shown = [str(x) for x in data.get("fix") or []]
        alts_shown = [a for a in data.get("alternatives") or [] if isinstance(a, dict)]

        def shown(items: list, i: int) -> str:
            return str(items[i]) if i < len(items) else ""
        evidence = dict(data.get("evidence") or {})
        for key, entry in (i18n.get("evidence") or {}).items():
            if key in evidence:
                evidence[key] = unmarked(entry)
        keys = i18n.get("evidence_keys") or {}
        if keys:
            evidence = {(from_i18n(keys[k], k) if k in keys else k): v for k, v in evidence.items()}
        return cls(
            id=str(data["id"]),
            status=str(data["status"]),
            title=from_i18n(i18n.get("title"), str(data.get("title") or "")),
            summary=from_i18n(i18n.get("summary"), str(data.get("summary") or "")),
            evidence=evidence,
            fix=[from_i18n(x, shown(fix_shown, i)) for i, x in enumerate(i18n.get("fix") or [])],
            pitfall=data.get("pitfall"),
            duration_ms=int(data.get("duration_ms") or 0),
            alternatives=[{"why": from_i18n(a.get("why"), str((alts_shown[j] if j < len(alts_shown) else {}).get("why")
                                                               or "")),
                           "steps": [from_i18n(x, shown(list((alts_shown[j] if j < len(alts_shown) else {}).get("steps")
                                                              or []), i)) for i, x in enumerate(a.get("steps") or [])]}
                          for j, a in enumerate(i18n.get("alternatives") or []) if isinstance(a, dict)],
        )


@dataclass
class Report:
    tool: Dict[str, Any]
    host: Dict[str, Any]
    facts: Dict[str, Any]
    findings: List[Finding]
    lang: str = field(default_factory=get_lang)  # the language of its texts (ids, keys, statuses stay English)
    # The node's plan (plan.Plan): set by doctor.evaluate; None: planned from the findings alone when asked for
    plan: Any = None

    def node_plan(self):
        """The plan of this report (plan.build_plan over the findings when no run planned it)."""
        if self.plan is None:
            from .i18n import deferred
            from .plan import build_plan, normalize_fixes

            with deferred():  # its steps worded where shown, as a run's plan
                normalize_fixes(self.findings)
                self.plan = build_plan(self.findings)
        return self.plan

    @property
    def summary(self) -> Dict[str, int]:
        counts = {s: 0 for s in STATUSES}
        for f in self.findings:
            counts[f.status] += 1
        return counts

    def worst(self) -> int:
        return max((SEVERITY[f.status] for f in self.findings), default=0)

    def failed(self, fail_on: str = FAIL) -> bool:
        """True when some finding is at or above the --fail-on level."""
        return self.worst() >= SEVERITY[fail_on]

    def find(self, finding_id: str) -> Optional[Finding]:
        for f in self.findings:
            if f.id == finding_id:
                return f
        return None

    def to_json(self) -> dict:
        """report/2: the texts worded in the current language (the report's `lang`), their message ids beside."""
        return {
            "schema": REPORT_SCHEMA,
            "tool": self.tool,
            "host": self.host,
            "facts": self.facts,
            "findings": [f.to_json() for f in self.findings],
            "summary": self.summary,
            "lang": self.lang if getattr(self, "_worded", False) else get_lang(),
            "plan": self.node_plan().to_json(),
            **_facts_i18n(self.facts),
        }

    def worded(self) -> "Report":
        """A copy whose findings and plan are worded in the current language: what every renderer shows (the
        door where message ids become words)."""
        plan = self.node_plan()
        shown = Report(tool=self.tool, host=self.host, facts=self.facts, findings=[f.worded() for f in self.findings],
                       lang=get_lang(), plan=plan.worded() if hasattr(plan, "worded") else plan)
        shown._worded = True  # its texts are words of `lang` now: its JSON says so whatever language writes it
        return shown

    @classmethod
    def from_json(cls, data: dict) -> "Report":
        if data.get("schema") not in REPORT_SCHEMAS:
            raise ValueError(f"field 'schema' is {data.get('schema')!r}, expected {REPORT_SCHEMA!r} "
                             f"(or {REPORT_SCHEMA_1!r})")
        return cls(
            tool=dict(data.get("tool") or {}),
            host=dict(data.get("host") or {}),
            facts=_facts_from_json(data),
            findings=[Finding.from_json(f) for f in data.get("findings") or []],
            lang=str(data.get("lang") or "en"),
            plan=_plan_from_json(data["plan"]) if isinstance(data.get("plan"), dict) else None,
        )


def _facts_i18n(facts: Dict[str, Any]) -> Dict[str, Any]:
    """report/2's {"i18n": {"facts": {JSON Pointer: entry}}}: the messages the facts' English phrases were made from
    (a probe's problem, a host error), so `check --from-report` shows them again exactly; {} when none."""
    from .i18n_text import texts_at

    texts = texts_at(facts)
    return {"i18n": {"facts": texts}} if texts else {}


def _facts_from_json(data: dict) -> Dict[str, Any]:
    """A report's facts, each phrase report/2 kept the message of (`_facts_i18n`) that message again (a Text); a
    report/1's are plain strings, worded by the phrase templates (phrases.py) where shown."""
    from .i18n_text import with_texts

    facts = dict(data.get("facts") or {})
    i18n = data.get("i18n")
    if data.get("schema") == REPORT_SCHEMA and isinstance(i18n, dict):
        facts = with_texts(facts, i18n.get("facts"))
    return facts


def _evidence_texts(evidence: Dict[str, Any]) -> Dict[str, Any]:
    """The evidence values that hold texts (words, not data), keyed as the JSON evidence is, for report/2's i18n."""
    from .i18n_text import has_text, marked, worded

    return {worded(k): marked(v) for k, v in evidence.items() if has_text(v)}


def _plan_from_json(data: dict):
    from .plan import Plan

    return Plan.from_json(data)
