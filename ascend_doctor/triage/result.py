"""What triage returns: problems (one per known signature), their occurrences, the inputs read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional

from ..knowledge import Signature

TRIAGE_SCHEMA = "ascend-doctor.triage/1"
SEVERITY_ORDER = {"fail": 0, "warn": 1, "info": 2}
CLASS_ORDER = {"root": 0, "wrapper": 1, "benign": 2}


@dataclass
class Occurrence:
    file: str
    line: int
    rank: Optional[str]
    time: Optional[str]
    seq: int  # global order of discovery, the tie-breaker when lines carry no time

    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "rank": self.rank, "time": self.time}


@dataclass
class Problem:
    signature: Signature
    count: int
    first: Occurrence
    last: Occurrence
    text: str  # the first matching line: the most telling one for a root cause
    ranks: Dict[str, Occurrence] = field(default_factory=dict)  # rank -> its first occurrence
    resolved_by: Optional[Occurrence] = None

    @property
    def severity(self) -> str:
        return "info" if self.resolved_by else self.signature.severity

    def first_rank(self) -> Optional[str]:
        if not self.ranks:
            return None
        return min(self.ranks.items(), key=lambda kv: order_key(kv[1]))[0]

    def to_json(self) -> dict:
        s = self.signature
        return {
            "id": s.id, "signature": s.id, "title": s.title, "pitfall": s.pitfall, "severity": self.severity,
            "class": s.kind, "component": s.component, "count": self.count,
            "first": self.first.to_json(), "last": self.last.to_json(), "line": self.text,
            "cause": s.cause, "fix": list(s.fix), "source": s.source,
            "ranks": {r: o.to_json() for r, o in sorted(self.ranks.items(), key=lambda kv: order_key(kv[1]))},
            "first_rank": self.first_rank(),
            "resolved_by": self.resolved_by.to_json() if self.resolved_by else None,
        }


def order_key(o: "Occurrence"):
    return (o.time or "9999", o.seq)


@dataclass
class InputInfo:
    label: str
    rank: Optional[str] = None
    bytes: int = 0
    lines: int = 0
    note: Optional[str] = None  # why it was skipped or only partly read
    scanned: bool = True

    def to_json(self) -> dict:
        return {"file": self.label, "rank": self.rank, "bytes": self.bytes, "lines": self.lines,
                "scanned": self.scanned, "note": self.note}


@dataclass
class TriageResult:
    problems: List[Problem]
    inputs: List[InputInfo]
    last_error_lines: List[dict]

    def counts(self) -> Dict[str, int]:
        out = {"fail": 0, "warn": 0, "info": 0}
        for p in self.problems:
            out[p.severity] += 1
        return out

    def failed(self, fail_on: str = "fail") -> bool:
        limit = SEVERITY_ORDER[fail_on]
        return any(SEVERITY_ORDER[p.severity] <= limit for p in self.problems)

    def first_problem(self) -> Optional[Problem]:
        real = [p for p in self.problems if p.severity != "info"]
        return min(real, key=lambda p: order_key(p.first)) if real else None

    def to_json(self) -> dict:
        first = self.first_problem()
        return {
            "schema": TRIAGE_SCHEMA,
            "problems": [p.to_json() for p in self.problems],
            "first_problem": None if first is None else {"id": first.signature.id, **first.first.to_json()},
            "summary": self.counts(),
            "inputs": [i.to_json() for i in self.inputs],
            "last_error_lines": self.last_error_lines,
        }


