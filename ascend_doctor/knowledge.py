"""The knowledge base: documented pitfalls (P01..P24) and known log signatures.

One data file (`data/knowledge_base.json`) serves the report's advice, `triage`
and the smoke stage classifier, so a signature is added in one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional

from .data import DataError, data_path, load_json_file

KB_SCHEMA = "ascend-doctor.kb/1"


@dataclass
class Pitfall:
    id: str
    title: str
    advice: str
    source: str = ""


@dataclass
class Signature:
    id: str
    pattern: str
    regex: bool
    component: str
    severity: str  # fail | warn | info
    cause: str
    fix: List[str]
    pitfall: Optional[str] = None
    source: str = ""
    examples: List[str] = field(default_factory=list)
    near_misses: List[str] = field(default_factory=list)
    _compiled: Optional[re.Pattern] = None

    def search(self, line: str) -> bool:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern if self.regex else re.escape(self.pattern))
        return self._compiled.search(line) is not None


@dataclass
class KnowledgeBase:
    pitfalls: Dict[str, Pitfall]
    signatures: List[Signature]

    def pitfall(self, pid: str) -> Pitfall:
        return self.pitfalls[pid]

    def match_line(self, line: str) -> List[Signature]:
        return [s for s in self.signatures if s.search(line)]

    def match_lines(self, lines: Iterable[str]) -> List[tuple]:
        """[(signature, first matching line)] in order of first appearance, each signature once."""
        seen: Dict[str, tuple] = {}
        for line in lines:
            for sig in self.match_line(line):
                if sig.id not in seen:
                    seen[sig.id] = (sig, line.rstrip("\n"))
        return list(seen.values())


_cache: Optional[KnowledgeBase] = None


def load_knowledge_base(path: Optional[str] = None) -> KnowledgeBase:
    global _cache
    if path is None and _cache is not None:
        return _cache
    file = path or data_path("knowledge_base.json")
    raw = load_json_file(file)
    kb = parse_knowledge_base(raw, file)
    if path is None:
        _cache = kb
    return kb


def parse_knowledge_base(raw, file: str = "knowledge_base.json") -> KnowledgeBase:
    if not isinstance(raw, dict) or raw.get("schema") != KB_SCHEMA:
        raise DataError(f"{file}: field 'schema' must be {KB_SCHEMA!r}")
    pitfalls = {}
    for pid, p in (raw.get("pitfalls") or {}).items():
        if not re.fullmatch(r"P\d\d", pid) or not isinstance(p, dict):
            raise DataError(f"{file}: pitfalls.{pid}: expected an id like P07 with an object value")
        pitfalls[pid] = Pitfall(pid, str(p.get("title", "")), str(p.get("advice", "")), str(p.get("source", "")))
    sigs = []
    for i, s in enumerate(raw.get("signatures") or []):
        try:
            sig = Signature(
                id=s["id"], pattern=s["pattern"], regex=bool(s.get("regex", False)),
                component=s["component"], severity=s["severity"], cause=s["cause"],
                fix=list(s["fix"]), pitfall=s.get("pitfall"), source=s.get("source", ""),
                examples=list(s.get("examples") or []), near_misses=list(s.get("near_misses") or []),
            )
        except (KeyError, TypeError) as exc:
            raise DataError(f"{file}: signatures[{i}]: missing or wrong field {exc}") from None
        if sig.regex:
            try:
                re.compile(sig.pattern)
            except re.error as exc:
                raise DataError(f"{file}: signatures[{i}].pattern: invalid regex ({exc})") from None
        sigs.append(sig)
    return KnowledgeBase(pitfalls, sigs)
