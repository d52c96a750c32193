"""Who this process is in a distributed job: rank, node, launcher, and the launch variables.

The same `ascend-doctor preflight` line runs under msrun, Slurm, Open MPI and
Kubernetes; each launcher names rank and node differently, so identity is read
from whichever is present. The result is `facts.launch` (a LaunchFacts, which a report's JSON
carries as `extra.launch` in its facts) so that `aggregate` can compare nodes without re-probing anything.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from .. import phrases
from ..i18n_text import Text
from ..facts import LaunchFacts, LaunchRankTable
from ..host import Host
from ..redact import REDACTED, shown_env_value

# First variable present wins. msrun exports RANK_ID (and MS_NODE_ID) per worker;
# Slurm, Open MPI, MPICH/Intel MPI (PMI_*) and Kubernetes indexed Jobs have their own.
RANK_VARS = ("RANK_ID", "MS_NODE_ID", "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "JOB_COMPLETION_INDEX")
LOCAL_RANK_VARS = ("LOCAL_RANK", "SLURM_LOCALID", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID")
WORLD_SIZE_VARS = ("RANK_SIZE", "MS_WORKER_NUM", "SLURM_NTASKS", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE")
# The physical machine: Slurm's node name, the Kubernetes downward API's spec.nodeName.
HOST_VARS = ("SLURMD_NODENAME", "NODE_NAME")
JOB_VARS = ("SLURM_JOB_ID", "PBS_JOBID", "JOB_NAME")

# Launch variables worth comparing across nodes. Anything else stays out of the
# report: the report is written to a shared directory and may be attached to tickets.
VARIABLE_PREFIXES = ("HCCL_", "MS_", "HCCN_", "ASCEND_")
VARIABLE_NAMES = ("RANK_TABLE_FILE", "MINDSPORE_HCCL_CONFIG_PATH", "RANK_ID", "RANK_SIZE", "DEVICE_ID",
                  "LOCAL_RANK", "GLOG_v", "SLURM_JOB_ID", "SLURM_NNODES", "SLURM_NTASKS", "SLURM_PROCID",
                  "SLURM_NODEID", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "JOB_COMPLETION_INDEX",
                  "POD_NAME", "NODE_NAME", "POD_IP")
# A variable whose name says it holds a secret is never copied, whatever its prefix: the one policy
# is redact.is_secret (shared with collect, the renderers and the HCCL name check).
MAX_VALUE_CHARS = 512
MAX_RANK_TABLE_BYTES = 16 << 20


def _first(env, names) -> Tuple[Optional[str], Optional[str]]:
    for name in names:
        value = env.get(name)
        if value not in (None, ""):
            return name, value
    return None, None


def _int_or_none(value: Optional[str], name: Optional[str], errors: List[str]) -> Optional[int]:
    if value is None:
        return None
    try:
        return int(value.strip())
    except ValueError:
        errors.append(Text(phrases.LAUNCH_NOT_INTEGER, name=name, value=repr(value)))
        return None


def detect_launchers(env) -> List[str]:
    """Every launcher whose variables are present, the innermost (the one that started us) first."""
    found = []
    if env.get("MS_ROLE") or env.get("MS_WORKER_NUM") or env.get("MS_SCHED_HOST"):
        found.append("msrun")
    if env.get("OMPI_COMM_WORLD_RANK") is not None:
        found.append("openmpi")
    elif env.get("PMI_RANK") is not None:
        found.append("mpi")
    if env.get("SLURM_JOB_ID") or env.get("SLURM_PROCID") is not None:
        found.append("slurm")
    if env.get("KUBERNETES_SERVICE_HOST") or env.get("POD_NAME"):
        found.append("kubernetes")
    return found


def launch_variables(env) -> Dict[str, str]:
    """The non-secret launch variables (HCCL_*, MS_*, rank identity ...), values capped in length."""
    out = {}
    for name in sorted(env):
        if not (name.startswith(VARIABLE_PREFIXES) or name in VARIABLE_NAMES):
            continue
        value = shown_env_value(name, env[name])
        if value == REDACTED:
            continue
        out[name] = value if len(value) <= MAX_VALUE_CHARS else value[:MAX_VALUE_CHARS] + "...(truncated)"
    return out


def shown_value(name: str, value) -> str:
    """An environment value as reports may show it: a secret-looking name shows only that it is set."""
    return shown_env_value(name, value)


def safe_node_name(text: str) -> str:
    """A name usable as a file name on every node: letters, digits, '.', '_' and '-' only."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._")
    return cleaned[:128] or "node"


def parse_local_addresses(fib_trie: str) -> List[str]:
    """IPv4 addresses of this host from /proc/net/fib_trie (the '/32 host LOCAL' entries)."""
    addresses = []
    last_ip = None
    for line in fib_trie.splitlines():
        m = re.search(r"[|+]-- (\d+\.\d+\.\d+\.\d+)\s*$", line)
        if m:
            last_ip = m.group(1)
            continue
        if "/32 host LOCAL" in line and last_ip and not last_ip.startswith("127.") and last_ip not in addresses:
            addresses.append(last_ip)
    return addresses


def probe_launch(host: Host, options) -> LaunchFacts:
    env = host.env
    errors: List[str] = []
    source: Dict[str, str] = {}

    rank_var, rank_raw = _first(env, RANK_VARS)
    rank = _int_or_none(rank_raw, rank_var, errors)
    if rank is not None:
        source["rank"] = rank_var
    local_var, local_raw = _first(env, LOCAL_RANK_VARS)
    local_rank = _int_or_none(local_raw, local_var, errors)
    size_var, size_raw = _first(env, WORLD_SIZE_VARS)
    world_size = _int_or_none(size_raw, size_var, errors)
    if world_size is not None:
        source["world_size"] = size_var
    host_var, host_name = _first(env, HOST_VARS)
    if host_name is None:
        host_name = (host.machine().get("hostname") or host.label or "node")
        host_var = "hostname"
    source["host"] = host_var
    job_var, job_id = _first(env, JOB_VARS)

    name = safe_node_name(host_name if rank is None else f"{host_name}-rank{rank}")
    addresses: List[str] = []
    fib = host.read_text_or_none("/proc/net/fib_trie")
    if fib:
        addresses = parse_local_addresses(fib)
    for var in ("POD_IP", "HCCL_IF_IP"):
        if env.get(var) and env[var] not in addresses:
            addresses.append(env[var])

    rank_table = None
    # The same file the rank_table checks judge (one order of the variables: probes.rank_table.RANK_TABLE_VARS).
    from .rank_table import rank_table_path

    table_var, table_path = rank_table_path(env) or (None, None)
    if table_path:
        text = host.read_text_or_none(table_path, max_bytes=MAX_RANK_TABLE_BYTES)
        if text is None:
            errors.append(Text(phrases.LAUNCH_RANK_TABLE_UNREADABLE, path=table_path, var=table_var))
            rank_table = LaunchRankTable(path=table_path, error="not readable")
        else:
            from ..rank_table import summarise_rank_table  # only when a rank table is named

            rank_table = LaunchRankTable(**summarise_rank_table(text, table_path, errors, keep_all=rank in (None, 0),
                                                                own_ids=[host_name, name] + addresses))

    return LaunchFacts(name=name, host=host_name, rank=rank, local_rank=local_rank, world_size=world_size,
                       job_id=job_id, role=env.get("MS_ROLE"), launchers=detect_launchers(env),
                       identity_source=source, addresses=addresses, variables=launch_variables(env),
                       rank_table=rank_table, errors=errors)
