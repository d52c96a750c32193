"""The rank table named by RANK_TABLE_FILE (or MINDSPORE_HCCL_CONFIG_PATH), read through the Host.

The file is validated here, once (it can hold 32k ranks); the facts keep the verdict,
the problems, the per-server device sets and the entry for *this* node, not the whole
table, so a report stays small. "This node" is the server whose server_id / host_ip /
host_nic_ip / container_ip is one of this host's names or addresses.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Dict, Optional

from .. import phrases
from ..i18n_text import Text
from ..facts import RankTableFacts
from ..host import Host, HostError

if TYPE_CHECKING:  # the validator is imported only when a rank table is named
    from ..rank_table import RankTable

# MindSpore reads MINDSPORE_HCCL_CONFIG_PATH first, then RANK_TABLE_FILE (ascend_formats.md §4.7).
RANK_TABLE_VARS = ("MINDSPORE_HCCL_CONFIG_PATH", "RANK_TABLE_FILE")
# Kept in the facts (and so in the report); the count covers the whole file.
MAX_KEPT_PROBLEMS = 200
# A 32k-rank 1.x table is ~3 MB; this bounds memory on a garbage file.
MAX_READ_BYTES = 256 << 20
# Env variables that name this node's address in launchers we know: mindxdl's rank_table.sh
# matches XDL_IP (§4.1); Kubernetes pods carry POD_IP; msrun/dynamic cluster MS_WORKER_IP.
IDENTITY_VARS = ("XDL_IP", "POD_IP", "MS_WORKER_IP", "HCCL_IF_IP")
SERVER_ADDRESS_KEYS = ("server_id", "host_ip", "host_nic_ip", "container_ip", "server_ip", "pod_ip")


def rank_table_path(env) -> Optional[tuple]:
    for var in RANK_TABLE_VARS:
        value = env.get(var)
        if value:
            return var, value
    return None


def local_identity(host: Host, timeout: float = 10.0) -> Dict[str, str]:
    """{name or address: where it came from} for this host (no network traffic: local commands only)."""
    names: Dict[str, str] = {}
    hostname = (host.machine() or {}).get("hostname")
    if hostname:
        names[str(hostname)] = phrases.MATCH_HOSTNAME
        names.setdefault(str(hostname).split(".", 1)[0], phrases.MATCH_HOSTNAME)
    for var in IDENTITY_VARS:
        if host.env.get(var):
            names.setdefault(host.env[var].strip(), var)
    res = host.run(["hostname", "-I"], timeout=timeout)
    if res.ok:
        for addr in res.stdout.split():
            names.setdefault(addr.split("%", 1)[0], phrases.MATCH_HOSTNAME_I)
    else:
        res = host.run(["ip", "-o", "addr", "show"], timeout=timeout)
        if res.ok:
            for m in re.finditer(r"\binet6?\s+([0-9a-fA-F.:]+)/", res.stdout):
                names.setdefault(m.group(1), phrases.MATCH_IP_ADDR)
    return names


SHOWN_SERVER_IDS = 16


def find_local_server(table: RankTable, names: Dict[str, str]) -> Optional[dict]:
    hits = []
    for s in table.servers:
        candidates = {"server_id": s.server_id, **s.addresses}
        for key in SERVER_ADDRESS_KEYS:
            value = candidates.get(key)
            if value and value in names and value != "reserve":
                hits.append((s, Text(phrases.MATCHED_BY, key=key, value=value, what=Text(names[value]))))
                break
    if not hits:
        return None
    s, how = hits[0]
    return {
        "path": s.path, "server_id": s.server_id, "matched_by": how,
        "also_matched": [h[0].path for h in hits[1:]],
        "devices": [{k: d.get(k) for k in ("device_id", "device_ip", "rank_id", "path")} for d in s.devices],
    }


def rank_table_facts(table: RankTable, env_var: Optional[str], path: Optional[str],
                     names: Dict[str, str]) -> RankTableFacts:
    from ..rank_table import FORMAT_V20, problem_counts

    facts = RankTableFacts(env_var=env_var, path=path)
    facts.format, facts.version, facts.status = table.format, table.version, table.status
    # a 2.0 table has no server_list (ranks only): its server count is unknown, not 0
    facts.server_count = len(table.servers) if table.format and table.format != FORMAT_V20 else None
    facts.rank_count = table.rank_count
    facts.problems = [p.to_json() for p in table.problems[:MAX_KEPT_PROBLEMS]]
    facts.problem_counts = problem_counts(table.problems)
    facts.device_sets = table.device_sets()
    facts.server_paths = [s.path for s in table.servers]
    # a few are enough to say "this node is not one of them" (every node's report carries them: not all 4,096)
    facts.server_ids = [str(s.server_id) for s in table.servers[:SHOWN_SERVER_IDS]]
    facts.local_names = sorted(names)
    facts.local_server = find_local_server(table, names)
    return facts


def probe_rank_table(host: Host, options) -> RankTableFacts:
    named = rank_table_path(host.env)
    if named is None:
        if host.env.get("HCCL_IF_IP"):
            # HCCL_IF_IP must be one of this host's addresses (hccl.env_values checks it with these names).
            return RankTableFacts(local_names=sorted(local_identity(host, getattr(options, "timeout", 10.0))))
        return RankTableFacts()
    var, path = named
    try:
        text = host.read_text(path, max_bytes=MAX_READ_BYTES)
    except HostError as exc:
        return RankTableFacts(env_var=var, path=path, read_error=str(exc))
    # RANK_SIZE against the table is the launch-environment check's to report, not the file's.
    env = {k: v for k, v in host.env.items() if k != "RANK_SIZE"}
    from ..rank_table import validate_rank_table_text  # the validator only when a rank table is named

    table = validate_rank_table_text(text, env=env)
    return rank_table_facts(table, var, path, local_identity(host, getattr(options, "timeout", 10.0)))
