"""What validating a rank table finds: its problems, servers and devices, and the limits the rules use."""

from __future__ import annotations

from ..records import dataclass, field
from typing import Any, Dict, Iterable, List, Optional

from ..findings import FAIL, INFO, WARN

# Problem severities are findings.PROBLEM_SEVERITIES (fail, warn, info), as for HCCL variables and triage.
# Reports written before the vocabulary was one said "error" / "warning" for a rank-table problem.
_LEGACY_SEVERITY = {"error": FAIL, "warning": WARN}


def problem_severity(value: Any) -> str:
    """A problem's severity in today's words, also for one read from an older report."""
    return _LEGACY_SEVERITY.get(value, value)


FORMAT_V10, FORMAT_V12, FORMAT_V20, FORMAT_GROUP_LIST = "1.0", "1.2", "2.0", "group_list"
KNOWN_VERSIONS = (FORMAT_V10, FORMAT_V12, FORMAT_V20)

# HCCL rank-table doc: server_id length <= 64.
MAX_SERVER_ID = 64
# No Ascend server exposes more than 16 devices (A3: 8 NPUs x 2 dies; A2 Box16: 16) — §4.6, R6.
MAX_DEVICES_PER_SERVER = 16
# Per family: highest device count on one server (R6) — §4.6, §7.4 R6.
DEVICES_PER_SERVER = {"910": 8, "910B": 16, "910_93": 16, "310P": 16, "310": 16}
# v2.0 rank tables may be up to 1 GB (HCCL rank_table_config_a5.md).
MAX_FILE_BYTES = 1 << 30


@dataclass(compiled=True)
class Problem:
    path: str  # JSON path inside the file, "" for the whole document
    severity: str  # fail | warn | info
    rule: str  # R1..R15, L2 ... (ascend_formats.md §7)
    message: str
    line: Optional[int] = None
    column: Optional[int] = None

    def to_json(self) -> dict:
        out = {"path": self.path, "severity": self.severity, "rule": self.rule, "message": str(self.message)}
        if self.line is not None:
            out["line"], out["column"] = self.line, self.column
        return out

    def describe(self) -> str:
        where = self.path or "(file)"
        if self.line is not None:
            where += f" (line {self.line}, column {self.column})"
        return f"{where}: {self.message}"

    def shown(self) -> str:
        """describe() in the run's language (the message is a Text made in English, or that English read back from
        a report's facts: i18n_text.localized() words either)."""
        from ..i18n import _
        from ..i18n_text import localized

        where = self.path or _("(file)")
        if self.line is not None:
            where = _("{where} (line {line}, column {column})").format(where=where, line=self.line, column=self.column)
        return _("{where}: {message}").format(where=where, message=localized(self.message))


@dataclass(compiled=True)
class ServerEntry:
    index: int
    path: str
    server_id: Optional[str]
    addresses: Dict[str, str] = field(default_factory=dict)  # host_ip, host_nic_ip, container_ip ... as given
    # [{"device_id": int|None, "device_ip": str|None, "rank_id": int|None, "path": str}]
    devices: List[Dict[str, Any]] = field(default_factory=list)


@dataclass(compiled=True)
class RankTable:
    """What validating one rank table found."""

    format: Optional[str] = None  # 1.0 | 1.2 | 2.0 | group_list | None (not a rank table)
    version: Optional[str] = None
    status: Optional[str] = None
    servers: List[ServerEntry] = field(default_factory=list)
    rank_count: Optional[int] = None  # ranks (devices) the table describes
    problems: List[Problem] = field(default_factory=list)

    @property
    def errors(self) -> List[Problem]:
        return [p for p in self.problems if p.severity == FAIL]

    @property
    def ok(self) -> bool:
        return not self.errors

    def device_sets(self) -> Dict[str, List[int]]:
        """Distinct per-server device-id sets ("0,1,2,3" -> [server indexes]): what topology rules need."""
        sets: Dict[str, List[int]] = {}
        for s in self.servers:
            ids = sorted({d["device_id"] for d in s.devices if d.get("device_id") is not None})
            sets.setdefault(",".join(map(str, ids)), []).append(s.index)
        return sets


def problem_counts(problems: Iterable[Problem]) -> Dict[str, int]:
    counts = {FAIL: 0, WARN: 0, INFO: 0}
    for p in problems:
        counts[p.severity] = counts.get(p.severity, 0) + 1
    return counts
