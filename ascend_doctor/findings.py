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

REPORT_SCHEMA = "ascend-doctor.report/1"

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
        return {
            "id": self.id,
            "status": self.status,
            "title": self.title,
            "summary": self.summary,
            "evidence": self.evidence,
            "fix": list(self.fix),
            "pitfall": self.pitfall,
            "duration_ms": self.duration_ms,
            "alternatives": [{"why": a.get("why") or "", "steps": list(a.get("steps") or [])}
                             for a in self.alternatives],
        }

    def with_outcome_title(self, neutral: str, titles: Dict[str, str]) -> "Finding":
        """Give this finding the line for its outcome (see `outcome_title`); returns self."""
        if self.status == PASS:
            return self
        line = outcome_title(neutral, self.status, titles)
        if self.title == neutral:
            self.title = line
        elif self.title.startswith(neutral + ": "):  # "<title>: HCCL_BUFFSIZE" - one finding per variable
            self.title = line + self.title[len(neutral):]
        return self

    @classmethod
    def from_json(cls, data: dict) -> "Finding":
        return cls(
            id=str(data["id"]),
            status=str(data["status"]),
            title=str(data.get("title", "")),
            summary=str(data.get("summary", "")),
            evidence=dict(data.get("evidence") or {}),
            fix=[str(x) for x in data.get("fix") or []],
            pitfall=data.get("pitfall"),
            duration_ms=int(data.get("duration_ms") or 0),
            alternatives=[{"why": str(a.get("why") or ""), "steps": [str(x) for x in a.get("steps") or []]}
                          for a in data.get("alternatives") or [] if isinstance(a, dict)],
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
            from .plan import build_plan, normalize_fixes

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
        return {
            "schema": REPORT_SCHEMA,
            "tool": self.tool,
            "host": self.host,
            "facts": self.facts,
            "findings": [f.to_json() for f in self.findings],
            "summary": self.summary,
            "lang": self.lang,
            "plan": self.node_plan().to_json(),
        }

    @classmethod
    def from_json(cls, data: dict) -> "Report":
        if data.get("schema") != REPORT_SCHEMA:
            raise ValueError(f"field 'schema' is {data.get('schema')!r}, expected {REPORT_SCHEMA!r}")
        return cls(
            tool=dict(data.get("tool") or {}),
            host=dict(data.get("host") or {}),
            facts=dict(data.get("facts") or {}),
            findings=[Finding.from_json(f) for f in data.get("findings") or []],
            lang=str(data.get("lang") or "en"),
            plan=_plan_from_json(data["plan"]) if isinstance(data.get("plan"), dict) else None,
        )


def _plan_from_json(data: dict):
    from .plan import Plan

    return Plan.from_json(data)
