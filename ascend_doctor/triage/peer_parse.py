"""ascend-fd's parse output read as evidence: `ascend-rc-parser.json` of its `fault_diag_data/<node>/` layout.

Support teams that already ran the peer's `ascend-fd parse` on each node hold only its output. Its
root-cluster file maps each process id to what the peer's parser folded from that process's CANN logs
(the same facts `events.ProcessLog` folds from the raw lines; field names as the peer writes them,
MindCluster ascend-faultdiag, Apache-2.0, `pkg/parse/root_cluster/parser.py`):

- `base`: `logic_device_id`, `phy_device_id`, `device_ip`, `server_id`, `vNic_ip`, `rank_map`
  ({group: {rank_num, rank_id}}; `identifier-NA`, no identifier logged, is our `default` group; a group
  of no rank is none), `root_list` (groups it is the root rank of), `timeout_param` (CONNECT_TIMEOUT / EXEC_TIMEOUT);
- `error`: `first_error_time`, `first_error_module`, `timeout_error_events_list` (`error_type` Socket / P2P
  / Notify / FFTS / RootInfo / normal, `error_time`, `key_info`: the lines, and per type `tag`, `index`,
  `remote_rank`, `identifier`, `connected_ranks`, `root_flag`, `remote_info`), `cqe_links` (peer IPs),
  `cluster_exception` ({"ip/dev": cause}), `transport_error_remote`, `transport_init_error_happened`;
- `show_logs` (the first error lines), `plog_parsed_name`, `start_train_time`, `lagging_time`,
  `start_resumable_training_time` (the process started over), `tls_status`, `aicpu_notify_wait_remote`.

Times are the peer's `YYYY-MM-DD-HH:MM:SS.ffffff`. Each process becomes a `ProcessLog` with the same
fields our own reading fills, so the same rules decide.
"""

from __future__ import annotations

import json
import os
from typing import Dict, List, Optional

from ..i18n import _
from .events import FFTS, NORMAL, NOTIFY, ROOT_INFO, SOCKET, FirstError, ProcessLog, Remote, TimeoutEvent

RC_PARSER_SUFFIX = "rc-parser.json"  # the peer finds it by this suffix (collect_parse_results)
_MIN_TIME = "0000-01-01-00:00:00.000000"
_MAX_TIME = "9999-12-31-23:59:59.999999"
_NO_GROUP = "identifier-NA"
_KINDS = {"Socket": SOCKET, "P2P": SOCKET, "Notify": NOTIFY, "FFTS": FFTS, "RootInfo": ROOT_INFO, "normal": NORMAL}


class PeerParseError(ValueError):
    pass


def is_rc_parser(name: str) -> bool:
    return name.endswith(RC_PARSER_SUFFIX)


def _time(t) -> Optional[str]:
    """The peer's time as ours ('YYYY-MM-DD HH:MM:SS.ffffff'); None for its 'no time' bounds."""
    if not isinstance(t, str) or not t or t in (_MIN_TIME, _MAX_TIME):
        return None
    parts = t.split("-")
    if len(parts) < 4:
        return None
    day, clock = "-".join(parts[:3]), "-".join(parts[3:])
    hms, _dot, frac = clock.partition(".")
    return f"{day} {hms}.{(frac.replace('.', '') or '0')[:6].ljust(6, '0')}"


def _s(v) -> str:
    return "" if v is None else str(v)


def read(path: str) -> Dict[str, dict]:
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read().decode("utf-8", errors="replace"))
    except OSError as exc:
        raise PeerParseError(exc.strerror or str(exc)) from None
    except ValueError as exc:
        raise PeerParseError(_("invalid JSON at byte {pos}").format(pos=getattr(exc, "pos", "?"))) from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise PeerParseError(_("expected an object of process ids, each an object"))
    return data


def processes(data: Dict[str, dict], node: str, label: str) -> List[ProcessLog]:
    """One ProcessLog per process the peer's parser kept."""
    out = []
    where = os.path.dirname(label)
    for pid, info in data.items():
        out.append(_process(str(info.get("pid") or pid), info, node, where))
    return out


def _process(pid: str, info: dict, node: str, where: str) -> ProcessLog:
    p = ProcessLog(node, pid)
    p.peer_parse = True
    base = info.get("base") if isinstance(info.get("base"), dict) else {}
    err = info.get("error") if isinstance(info.get("error"), dict) else {}
    p.start = _time(info.get("start_train_time"))
    file = os.path.join(where, _s(info.get("plog_parsed_name"))) if info.get("plog_parsed_name") else where
    p.files.append(file)
    # identity
    rank_map = base.get("rank_map") if isinstance(base.get("rank_map"), dict) else {}
    for group, rank in rank_map.items():
        if not isinstance(rank, dict):
            continue
        group = "default" if group == _NO_GROUP else group  # no identifier logged: our name for that group
        try:
            size = int(rank.get("rank_num") or 0)
        except (TypeError, ValueError):
            size = 0
        if size < 1:
            continue
        rid = _s(rank.get("rank_id"))
        p.groups[str(group)] = {"rank": rid if rid.isdigit() else None, "size": str(size)}
    p.logic_id = _valid(base.get("logic_device_id"))
    p.phy_id = _valid(base.get("phy_device_id"))
    ip = _s(base.get("device_ip"))
    p.device_ip = "" if ip == "0.0.0.0" else ip
    p.server = _s(base.get("server_id")).split("%")[0]
    p.vnic_ip = _s(base.get("vNic_ip"))
    p.roots = {str(g) for g in base.get("root_list") or []}
    for key, name in (("CONNECT_TIMEOUT", "connect"), ("EXEC_TIMEOUT", "exec")):
        v = (base.get("timeout_param") or {}).get(key)
        if isinstance(v, int) or (isinstance(v, str) and v.isdigit()):
            p.timeouts[name] = int(v)
    p.tls = _s(info.get("tls_status"))
    p.lag_time = _time(info.get("lagging_time"))
    resumed = _time(info.get("start_resumable_training_time"))
    if resumed:  # the process started over (a second "attr init success"): as our reading records it
        p.attr_inits, p.resume_time = 2, resumed
        p.base_after_resume = any(bool(v) for v in base.values())
    # errors
    shown = (info.get("show_logs") or {}).get("error") or []
    first_time = _time(err.get("first_error_time"))
    if first_time:
        text = next((ln for ln in shown if isinstance(ln, str)), "") or \
            f"[ERROR] {_s(err.get('first_error_module'))} ({pid}) {first_time}"
        p.first_error = FirstError(first_time, text.rstrip("\n"), file, 0)
        p.error_lines = [(first_time, file, 0, p.first_error.text)]
    for ev in err.get("timeout_error_events_list") or []:
        event = _event(ev)
        if event is not None:
            p.events.append(event)
    p.events.sort(key=lambda e: e.time)
    p.cqe_peers = [_s(x) for x in err.get("cqe_links") or [] if x]
    p.cluster_exception = {str(k): _s(v) for k, v in (err.get("cluster_exception") or {}).items()}
    remote = err.get("transport_error_remote")
    if isinstance(remote, dict) and remote.get("server_ip"):
        p.transport_remote = (_s(remote.get("server_ip")), _s(remote.get("phy_device_id")))
    p.transport_error = bool(err.get("transport_init_error_happened")) or p.transport_remote is not None
    wait = _s(info.get("aicpu_notify_wait_remote"))
    if ":" in wait:
        group, _sep, rank = wait.rpartition(":")
        p.aicpu_wait = (group, rank)
    return p


def _event(ev) -> Optional[TimeoutEvent]:
    if not isinstance(ev, dict):
        return None
    kind = _KINDS.get(_s(ev.get("error_type")))
    t = _time(ev.get("error_time"))
    if kind is None or not t:
        return None
    lines = [ln for ln in _s(ev.get("key_info")).splitlines() if ln.strip()]
    e = TimeoutEvent(kind, t, group=_s(ev.get("identifier")) or None, tag=_s(ev.get("tag")),
                     index=_s(ev.get("index")), remote_rank=_s(ev.get("remote_rank")), lines=lines)
    if kind == ROOT_INFO:
        e.connected_ranks = {_s(r) for r in ev.get("connected_ranks") or [] if _s(r)}
        if ev.get("root_flag"):
            e.tag = "root"
    if kind == SOCKET:
        for r in ev.get("remote_info") or []:
            if isinstance(r, dict) and (r.get("device_ip") or r.get("phy_device_id")):
                e.remotes.append(Remote(ip=_s(r.get("device_ip")), phy=_s(r.get("phy_device_id"))))
        if not e.remotes:  # older parse output: the peers are in the key lines, read as our own reading does
            scratch = ProcessLog("", "")
            for ln in lines:
                scratch._socket_line(ln, t)
            if scratch._socket is not None:
                e.remotes = scratch._socket.remotes
    return e


def _valid(v) -> str:
    s = _s(v)
    return "" if s in ("", "-1") or not s.lstrip("-").isdigit() else s
