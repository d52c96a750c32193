"""The cross-node view of a rank table (aggregate): which table each node holds and its servers."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

from .parse import parse_rank_table_text

# Every node of a job holds the same table; copying all of it into every node's report would make
# aggregation quadratic (4,096 reports x 4,096 servers). Rank 0 (or a process without a rank) keeps
# the full server list; the others keep the digest and their own server's entry.
FULL_TABLE_MAX_SERVERS = 64


def summarise_rank_table(text: str, path: str, errors: List[str], keep_all: bool = True,
                         own_ids: Optional[List[str]] = None) -> Dict[str, Any]:
    """What aggregate needs from a rank table: its digest, and servers with their devices.

    Read by the same strict reader as the validator (a BOM, `//` comments and NaN are taken the same
    way), so aggregate compares the table the checks judged. Only the cross-node view lives here;
    validating the fields is `validate_rank_table_text`'s business.
    """
    import hashlib  # only when there is a rank table to fingerprint

    summary: Dict[str, Any] = {"path": path, "digest": hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16],
                               "servers": [], "server_count": None}
    data, problems, _parsed = parse_rank_table_text(text)
    if data is None and problems:
        errors.append(f"{path}: not valid JSON ({problems[-1].describe()}); expected a rank table with server_list")
        summary["error"] = "not valid JSON"
        return summary
    servers = data.get("server_list") if isinstance(data, dict) else None
    if not isinstance(servers, list):
        errors.append(f"{path}: field 'server_list': expected a list of servers")
        summary["error"] = "no server_list"
        return summary
    # The digest compares content, not formatting: two nodes holding the same table
    # pretty-printed differently agree.
    summary["digest"] = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
    summary["server_count"] = data.get("server_count")
    summary["servers_listed"] = len(servers)
    keep_all = keep_all or len(servers) <= FULL_TABLE_MAX_SERVERS
    summary["complete"] = keep_all
    own = set(own_ids or [])
    for server in servers:
        if not isinstance(server, dict):
            continue
        if not keep_all and str(server.get("server_id")) not in own and server.get("host_ip") not in own:
            continue
        devices = []
        listed = server.get("device") or []
        if not isinstance(listed, list):
            errors.append(f"{path}: server {str(server.get('server_id'))[:64]!r}: field 'device': expected a list")
            listed = []
        for dev in listed:
            if isinstance(dev, dict):
                devices.append({"device_id": str(dev.get("device_id")), "device_ip": dev.get("device_ip"),
                                "rank_id": str(dev.get("rank_id"))})
        summary["servers"].append({"server_id": str(server.get("server_id")),
                                   "host_ip": server.get("host_ip"), "devices": devices})
    return summary
