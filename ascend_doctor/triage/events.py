"""HCCL evidence in CANN process logs, folded per process.

Only the lines that carry evidence reach Python: a small scanner (the knowledge base's `Scanner`, fed
with literal markers) finds them in the chunks the streaming reader already holds. Each line then goes
to the `ProcessLog` of its process (the pid comes from the file name: `plog-<pid>_<ts>.log`,
`device-<pid>_<ts>.log`, `plog-parser-<pid>-<n>.log`).

What a process yields (the line shapes are those of CANN's HCCL and AI CPU logs, as described in
`shared/reference/hccl_root_cause.md`):

- identity from init lines of any level: groups (`identifier[`) with this process's rank (`rank[`) and
  the group size (`ranks[`, `rankNum[`, `totalRanks[`, `nRanks[`), logical and physical device id, device
  IP, server, the vNIC IP, the groups it is the root rank of, the timeouts it states, its TLS switch;
- errors from `[ERROR]` lines only: the first error line, and one event per evidence family: socket link
  setup (with the peers of the link table rows or the p2p remote id), plain socket, notify wait (op tag,
  index, remote rank, group), FFTS+, root-info exchange (with the ranks that did connect), transport init
  (remote server/device), RoCE CQE peers, the cluster exception location, the AI CPU notify wait of
  device logs;
- restarts: a second `attr init success` starts the process over, `HcclCommResume:success` and
  `error log can be ignored` clear the errors before them, `ReportTimeoutProc: report timeout` marks
  when the process last reported waiting.

Identical messages (the text after the time header) are counted once per process, as the reference does.
"""

from __future__ import annotations

import re
from ..records import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

# Kinds of timeout event
SOCKET, NORMAL, NOTIFY, FFTS, ROOT_INFO = "socket", "plain_socket", "notify", "ffts", "root_info"

# Literal markers: a line holding none of them carries no evidence.
MARKERS = (
    "[ERROR]", "Entry-HcclCommInitRootInfo", "SetupAgent", "HcclCommInitRootInfo success",
    "HcclCommInitRootInfo failed", "hcclCommInitInfo", "hcom init by file", "RootInfoDetect",
    "HcclGetRootInfo success", "[Vnic]Listen on ip[", "HCCL_CONNECT_TIMEOUT set by", "HCCL_EXEC_TIMEOUT set by",
    "HCCL_CONNECT_TIMEOUT is set", "ExecTimeOut is set", "attr init success", "HcclCommResume:success",
    "error log can be ignored", "ReportTimeoutProc: report timeout", "TLS SWITCH (", "NOTIFY WAIT",
    "opData information",
)



_MARKER_BYTES = [m.encode() for m in MARKERS]
_finders: Dict[tuple, object] = {}


def _finder():
    """The knowledge base's own anchor finder (Hyperscan, an RE2 set, or prefix-trie regex passes: the first
    that loads, as ASCEND_DOCTOR_MATCHER asks), built once over the markers."""
    from .match import finders

    order = tuple(finders.matcher_order())
    found = _finders.get(order)
    if found is None:
        lit_sigs = {m: {i} for i, m in enumerate(_MARKER_BYTES)}
        for name in order:
            try:
                found = finders._FINDERS[name](lit_sigs)
                break
            except Exception:  # not installed here: the next one
                continue
        else:
            found = finders._FINDERS["python"](lit_sigs)
        _finders[order] = found
    return found


def evidence_lines(buf: bytes, start: int, end: int):
    """(line start, line end) of every line of buf[start:end] that holds a marker, in order."""
    lines: Dict[int, Set[int]] = {}
    _finder().add_lines(buf, start, end, lines)
    find = buf.find
    for ls in sorted(lines):
        le = find(b"\n", ls, end)
        yield ls, (end if le < 0 else le)


_HEADER = re.compile(r"^\[(\w+)\]\s*([\w-]+)\((\d+),[^)]*\):(\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}(?:\.\d{3})?)")
_ANY_TIME = re.compile(r"(\d{4}-\d\d-\d\d)[- T](\d\d:\d\d:\d\d)(?:[.,](\d{1,6}))?(?:\.(\d{3}))?")
_KEYS = re.compile(r"(?:^|[^\w])(ranks|rank|rankNum|totalRanks|nRanks|identifier|deviceLogicId|logicDevId|device|"
                   r"phydevId|devPhyId|deviceIp|server|serverId)\[([^\]]*)\]")
_TIMEOUT_TO = re.compile(r"to \[(\d+)\]")
_TIMEOUT_VAL = re.compile(r"timeOut\[(\d+)\]")
_LINK_ROW = re.compile(r"\|\s{1,5}(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\((\d{1,5})\)")
_TRANSPORT_REMOTE = re.compile(r"remoteIpAddr\[(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})/(\d+)\]")
_TLS = re.compile(r"TLS SWITCH \((\d{1,3})\)")
_IP = re.compile(r"\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}")
NO_RANK = "4294967295"  # AI CPU's "no remote rank"

_ROOT_INFO_KEYS = ("topo exchange server get socket timeout", "GetRankBasicInfo from rank[",
                   "topo exchange agent get socket timeout", "receive from fdhandle failed",
                   "receive msg length from fdhandle failed")
_NORMAL_KEYS = ("Wait timeout for sockets recv", "get rasocket timeout", "recv fail")
_SOCKET_KEYS = ("the connection failure between this device and target device", "the connection failure",
                "Wait links establish completed failed")


def _bracket(line: str, key: str) -> str:
    """The text between `key` and the next ']' ('' when the key is absent)."""
    at = line.find(key)
    if at < 0:
        return ""
    rest = line[at + len(key):]
    end = rest.find("]")
    return rest if end < 0 else rest[:end]


def time_of(line: str) -> Optional[str]:
    """A sortable time 'YYYY-MM-DD HH:MM:SS.uuuuuu' from a log line (the CANN header or an ISO-like stamp)."""
    m = _ANY_TIME.search(line)
    if not m:
        return None
    day, hms, frac, micro = m.groups()
    frac = (frac or "0")
    if micro is not None and len(frac) == 3:  # CANN: .mmm.uuu
        frac = frac + micro
    return f"{day} {hms}.{frac[:6].ljust(6, '0')}"


def seconds_between(a: str, b: str) -> float:
    from datetime import datetime  # here: only the root-cause rules compare times (a node summary never does)

    fmt = "%Y-%m-%d %H:%M:%S.%f"
    try:
        return (datetime.strptime(b, fmt) - datetime.strptime(a, fmt)).total_seconds()
    except ValueError:
        return 0.0


@dataclass(compiled=True, slots=True)
class Remote:
    """A peer a socket event waited on: by device IP, or by physical device id on the same node."""
    ip: str = ""
    phy: str = ""


@dataclass(compiled=True, slots=True)
class TimeoutEvent:
    kind: str
    time: str
    group: Optional[str] = None
    tag: str = ""
    index: str = ""
    remote_rank: str = ""  # notify: a rank number or "local"
    remotes: List[Remote] = field(default_factory=list)
    connected_ranks: Set[str] = field(default_factory=set)
    lines: List[str] = field(default_factory=list)


@dataclass(compiled=True, slots=True)
class FirstError:
    time: str
    text: str
    file: str
    line: int


@dataclass(compiled=True, slots=True)
class ProcessLog:
    """Everything one process's logs say about its identity and its errors."""
    node: str
    pid: str
    start: Optional[str] = None
    files: List[str] = field(default_factory=list)
    # identity
    groups: Dict[str, Dict[str, Optional[str]]] = field(default_factory=dict)  # group -> {"rank", "size"}
    logic_id: str = ""
    phy_id: str = ""
    device_ip: str = ""
    server: str = ""
    vnic_ip: str = ""
    roots: Set[str] = field(default_factory=set)
    timeouts: Dict[str, int] = field(default_factory=dict)  # "connect" / "exec" -> seconds
    tls: str = ""
    lag_time: Optional[str] = None
    attr_inits: int = 0
    resume_time: Optional[str] = None  # when it started over (a second "attr init success")
    base_after_resume: bool = True
    earliest: Optional[str] = None  # the earliest time of what was folded (errors, each file's first line)
    # errors
    first_error: Optional[FirstError] = None
    error_lines: List[Tuple[str, str, int, str]] = field(default_factory=list)  # (time, file, line, text), first few
    events: List[TimeoutEvent] = field(default_factory=list)
    cqe_peers: List[str] = field(default_factory=list)
    cluster_exception: Dict[str, str] = field(default_factory=dict)  # "ip/dev" -> cause
    transport_error: bool = False
    transport_remote: Optional[Tuple[str, str]] = None  # (server ip, device id)
    aicpu_wait: Optional[Tuple[str, str]] = None  # (group, rank)
    peer_parse: bool = False  # read from ascend-fd's parse output (peer_parse.py), not from log lines
    # parsing state (the sets and the notify events by tag: made on the first line fed, dropped by `finish`; a
    # process merged from a node summary never gets them: 32,768 of them held ~60 MB of empty sets)
    _parse: Optional["_Parsing"] = None
    _notify: Optional[TimeoutEvent] = None
    _socket: Optional[TimeoutEvent] = None
    _root_info: Optional[TimeoutEvent] = None
    _aicpu_pending: Optional[Tuple[str, int, str]] = None  # (rank, line number, file)
    _file: str = ""  # the file of the last line fed

    # ---- identity ----
    @property
    def device_id(self) -> str:
        return self.phy_id or self.logic_id

    def has_errors(self) -> bool:
        return self.first_error is not None

    # ---- feeding ----
    @property
    def _parsing(self) -> "_Parsing":
        got = self._parse
        if got is None:
            got = self._parse = _Parsing()
        return got

    def feed_bytes(self, line: bytes, file: str, line_no: int) -> None:
        """A raw evidence line: an init line this process already said is skipped before any decoding."""
        key = init_key_bytes(line)
        if key is not None:
            seen = (self._parse or self._parsing).raw_init_seen
            if key in seen:
                return
            seen.add(key)
        self.feed(line.decode("utf-8", errors="replace").rstrip("\r"), file, line_no)

    def feed(self, line: str, file: str, line_no: int) -> None:
        """One evidence line of this process (lines arrive in file order)."""
        is_error = line.startswith("[ERROR]")
        special = not is_error and ("attr init success" in line or "HcclCommResume:success" in line
                                    or "ReportTimeoutProc: report timeout" in line)
        if is_error or special or self.start is None or file != self._file:
            head = _HEADER.match(line)
            module = head.group(2) if head else ""
            t = time_of(head.group(4) if head else line)
            if self.start is None:
                self.start = t  # lines arrive in order: the first one says when the process started
            if not special and t and (self.earliest is None or t < self.earliest):
                self.earliest = t
            self._file = file
        if "error log can be ignored" in line and "Process group work" not in line:
            self._clear_errors()
            return
        if special:
            if "attr init success" in line:
                self.attr_inits += 1
                if self.attr_inits > 1 and t and self.earliest and t < self.earliest:
                    # a restart logged before everything read so far (its run/ plog read after its debug/ plog):
                    # what was read is after it, and stays; only the time is recorded (as the reference judges by time)
                    self.resume_time = max(self.resume_time or t, t)
                elif self.attr_inits > 1:  # the process started over: what it said before is history
                    self._restart(t, keep_identity=False)
                return
            if "HcclCommResume:success" in line:
                self._restart(t, keep_identity=True)
                return
            if t and (self.lag_time is None or t > self.lag_time):
                self.lag_time = t
            return
        if "NOTIFY WAIT" in line or "opData information" in line:
            self._aicpu(line, file, line_no)
        if not is_error:
            self._identity(line)
            if "TLS SWITCH (" in line and not self.tls:
                m = _TLS.search(line)
                if m:
                    self.tls = m.group(1)
            return
        # identical error messages (the text after the time header) count once, as in the reference
        feature = line.split("[", 2)[-1]
        seen = self._parsing.seen
        if feature in seen:
            return
        seen.add(feature)
        self._identity(line)
        if t and (self.first_error is None or t < self.first_error.time):
            self.first_error = FirstError(t, line, file, line_no)
        if len(self.error_lines) < 20:
            self.error_lines.append((t or "", file, line_no, line))
        if module.upper() in ("HCCL", "HCCP") or not head:
            self._error(line, t or "9999")

    def _restart(self, t: Optional[str], keep_identity: bool) -> None:
        self.resume_time = t
        self.earliest = None
        parsing = self._parsing
        parsing.init_seen.clear()
        parsing.raw_init_seen.clear()
        self._clear_errors()  # and the error messages seen
        if not keep_identity:
            self.groups.clear()
            self.roots.clear()
            self.logic_id = self.phy_id = self.device_ip = self.server = ""
            self.base_after_resume = False

    def _clear_errors(self) -> None:
        self.first_error = None
        self.error_lines = []
        self.events = []
        self.cqe_peers = []
        self.cluster_exception = {}
        self.transport_error, self.transport_remote = False, None
        self._notify, self._socket, self._root_info = None, None, None
        if self._parse is not None:
            self._parse.notify_by_tag = {}
            self._parse.seen.clear()

    def _identity(self, line: str) -> None:
        if "HcclGetRootInfo success" in line:
            g = _bracket(line, "identifier[")
            if g:
                self.roots.add(g)
            return
        if "[Vnic]Listen on ip[" in line:
            self.vnic_ip = self.vnic_ip or _bracket(line, "[Vnic]Listen on ip[")
            self.phy_id = self.phy_id or _valid(_bracket(line, "devPhyId["))
            return
        if "HCCL_CONNECT_TIMEOUT" in line or "ExecTimeOut is set" in line or "HCCL_EXEC_TIMEOUT" in line:
            m = _TIMEOUT_TO.search(line) or _TIMEOUT_VAL.search(line)
            if m:
                key = "connect" if "CONNECT" in line else "exec"
                self.timeouts.setdefault(key, int(m.group(1)))
            return
        if not any(k in line for k in ("Entry-HcclCommInitRootInfo", "SetupAgent", "HcclCommInitRootInfo",
                                         "hcclCommInitInfo", "hcom init by file", "RootInfoDetect")):
            return
        # the same init message again (another "take time" figure) says nothing new: skip the full parse
        key = init_key(line)
        seen = self._parsing.init_seen
        if key in seen:
            return
        seen.add(key)
        values: Dict[str, str] = {}
        for key, val in _KEYS.findall(line):
            values.setdefault(key, val.strip())
        group = values.get("identifier") or "default"
        size = values.get("ranks") or values.get("rankNum") or values.get("totalRanks") or values.get("nRanks")
        rank = values.get("rank")
        if rank is not None or size is not None:
            entry = self.groups.setdefault(group, {"rank": None, "size": None})
            if rank and rank.isdigit():
                entry["rank"] = rank
            if size and size.isdigit():
                entry["size"] = size
            self.base_after_resume = True
        self.logic_id = self.logic_id or _valid(values.get("deviceLogicId") or values.get("logicDevId")
                                                or values.get("device") or "")
        self.phy_id = self.phy_id or _valid(values.get("phydevId") or values.get("devPhyId") or "")
        ip = values.get("deviceIp") or ""
        if ip and ip != "0.0.0.0":
            self.device_ip = self.device_ip or ip
        server = (values.get("server") or "").split("%")[0] or values.get("serverId") or ""
        self.server = self.server or server

    def _aicpu(self, line: str, file: str, line_no: int) -> None:
        if "NOTIFY WAIT" in line and "remoteRank:" in line:
            if self.aicpu_wait or self._aicpu_pending:
                return
            for item in line.split(","):
                if "remoteRank:" in item:
                    rank = item.split(":")[-1].strip()
                    if rank and rank != NO_RANK:
                        self._aicpu_pending = (rank, line_no, file)
            return
        pending = self._aicpu_pending
        if pending and "group:" in line:
            rank, at, where = pending
            self._aicpu_pending = None
            if where == file and line_no == at + 1:  # the group is on the line right after the wait
                for item in line.split(","):
                    if "group:" in item:
                        self.aicpu_wait = (item.split(":")[-1].strip(), rank)

    def _error(self, line: str, t: str) -> None:
        if "cqe err status[12]" in line or "cqe error status[12]" in line:
            if "remoteIP{" in line:
                peer = _bracket(line.split("remoteIP{")[-1], "deviceIp[")
            else:
                peer = _bracket(line, "remoteIP:[") or _bracket(line, "ip:[")
            if peer and peer not in self.cqe_peers:
                self.cqe_peers.append(peer)
        if "Cluster Exception Location[IP/ID]:[" in line:
            where = _bracket(line, "Cluster Exception Location[IP/ID]:[")
            if where:
                self.cluster_exception[where] = _bracket(line, "ExceptionType:[")
        if "Transport init error" in line or "transport init error" in line:
            self.transport_error = True
            m = _TRANSPORT_REMOTE.search(line)
            if m and self.transport_remote is None:
                self.transport_remote = (m.group(1), m.group(2))
        self._root_info_line(line, t)
        self._notify_line(line, t)
        if "FFTS+ run failed" in line:
            self.events.append(TimeoutEvent(FFTS, t, lines=[line]))
        for key in _NORMAL_KEYS:
            if key in line:
                self.events.append(TimeoutEvent(NORMAL, t, lines=[line]))
                break
        self._socket_line(line, t)

    def _root_info_line(self, line: str, t: str) -> None:
        ev = self._root_info
        if ("DisplayConnectionedRank" in line or "DispalyConnectionedRank" in line) and "connected rankinfo" in line:
            ev = self._root_info = ev or TimeoutEvent(ROOT_INFO, "9999")
            for item in line.split("]:")[-1].strip(";\n ").split(","):
                rank = item.split(":")[0].strip().lstrip("[").rstrip("]")
                if rank:
                    ev.connected_ranks.add(rank)
            ev.lines.append(line)
            return
        for key in _ROOT_INFO_KEYS:
            if key in line:
                ev = self._root_info = ev or TimeoutEvent(ROOT_INFO, t)
                ev.time = min(ev.time, t)
                ev.lines.append(line)
                if key in _ROOT_INFO_KEYS[:2]:
                    ev.tag = "root"  # these two are logged by the group's root rank
                return
        if ev is not None and "rootInfo identifier[" in line:
            ev.group = _bracket(line, "identifier[") or None
            ev.lines.append(line)
            self.events.append(ev)
            self._root_info = None

    def _notify_line(self, line: str, t: str) -> None:
        if "TaskExceptionHandler" not in line:
            return
        if "taskType[Notify Wait]" in line:
            self._flush_notify()
            self._notify = TimeoutEvent(NOTIFY, t, tag=_bracket(line, "tag["), index=_bracket(line, "index["),
                                        lines=[line])
            return
        ev = self._notify
        if ev is None:
            return
        if "para information" in line:
            rank = _bracket(line, "remote rank:[")
            if rank and (not ev.remote_rank or ev.remote_rank == "local"):
                ev.remote_rank = rank
            ev.lines.append(line)
        elif "groupRank information" in line:
            ev.group = _bracket(line, "group:[") or None
            ev.lines.append(line)

    def _flush_notify(self) -> None:
        ev, self._notify = self._notify, None
        if ev is None:
            return
        by_tag = self._parsing.notify_by_tag
        kept = by_tag.get(ev.tag)
        if kept is None:
            by_tag[ev.tag] = ev
        elif kept.remote_rank == "local" and ev.remote_rank not in ("", "local"):
            kept.remote_rank = ev.remote_rank

    def _socket_line(self, line: str, t: str) -> None:
        ev = self._socket
        if any(k in line for k in _SOCKET_KEYS) or ("channel connect timeout after" in line and "channelNum" in line):
            ev = self._socket = ev or TimeoutEvent(SOCKET, t)
            ev.time = min(ev.time, t)
            ev.lines.append(line)
            return
        if "connected p2p timeout" in line and "remote physic id:" in line:
            ev = self._socket = ev or TimeoutEvent(SOCKET, t)
            ev.time = min(ev.time, t)
            ev.lines.append(line)
            phy = line.split("remote physic id:", 1)[1].strip(" .\n")
            if phy.isdigit():
                ev.remotes.append(Remote(phy=phy))
            return
        if "| no connect |" in line or "| time out |" in line:
            cells = _LINK_ROW.findall(line)
            if len(cells) == 2:  # destination first, then this side
                ev = self._socket = ev or TimeoutEvent(SOCKET, t)
                ev.time = min(ev.time, t)
                ev.lines.append(line)
                ev.remotes.append(Remote(ip=cells[0][0]))

    def finish(self) -> None:
        """Close the events still being assembled (end of this process's logs)."""
        self._flush_notify()
        if self._parse is not None:
            self.events.extend(self._parse.notify_by_tag.values())
            self._parse = None
        if self._socket is not None:
            self.events.append(self._socket)
            self._socket = None
        if self._root_info is not None and self._root_info.time != "9999":
            self.events.append(self._root_info)
            self._root_info = None
        self.events.sort(key=lambda e: e.time)


class _Parsing:
    """A process's state while its lines are fed: the error messages and init lines seen (decoded and raw), the
    notify-wait events by op tag (closed into its events by `finish`)."""

    __slots__ = ("seen", "init_seen", "raw_init_seen", "notify_by_tag")

    def __init__(self):
        self.seen: Set[str] = set()
        self.init_seen: Set[tuple] = set()
        self.raw_init_seen: Set[tuple] = set()
        self.notify_by_tag: Dict[str, TimeoutEvent] = {}

    def __eq__(self, other):  # compared as ProcessLog compares its fields (a test's round trip)
        return isinstance(other, _Parsing) and all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    def __repr__(self) -> str:
        return f"_Parsing(seen={len(self.seen)}, init_seen={len(self.init_seen)})"


def _bracket_b(line: bytes, key: bytes) -> bytes:
    at = line.find(key)
    if at < 0:
        return b""
    end = line.find(b"]", at)
    return line[at + len(key):] if end < 0 else line[at + len(key):end]


def init_key_bytes(line: bytes) -> Optional[tuple]:
    """The init_key of a raw init line (None: not an init line, or an error line, which is always read)."""
    if line.startswith(b"[ERROR]") or not (b"HcclCommInitRootInfo" in line or b"SetupAgent" in line
                                           or b"hcclCommInitInfo" in line):  # (Entry-HcclCommInitRootInfo too)
        return None
    return (_bracket_b(line, b"identifier["), _bracket_b(line, b"rank["), _bracket_b(line, b"ranks[") or
            _bracket_b(line, b"rankNum[") or _bracket_b(line, b"totalRanks["), line.count(b"["))


def init_key(line: str) -> tuple:
    """What makes an init line new for its process: the group, the rank, the size, the shape of the line."""
    return (_bracket(line, "identifier["), _bracket(line, "rank["), _bracket(line, "ranks[") or
            _bracket(line, "rankNum[") or _bracket(line, "totalRanks["), line.count("["))


def worth_forwarding(line: bytes, seen: Set[tuple]) -> bool:
    """In a worker scanning part of a big file: drop init lines it already passed on (the parent would too)."""
    if b"attr init success" in line or b"HcclCommResume:success" in line:
        seen.clear()  # after a restart the same init line is news again
        return True
    key = init_key_bytes(line)
    if key is None:
        return True
    if key in seen:
        return False
    seen.add(key)
    return True


def _valid(v: str) -> str:
    return "" if v in ("", "-1") or not v.lstrip("-").isdigit() else v
