"""The environment variables the checks judge, read once from the Host (the shell, or a bundle's env.json).

Checks read `facts.env`, never the host: a saved report's facts can be judged again. Only configuration and
launcher variables are kept (the report may be pasted into a ticket): the names a bundle keeps the value of
(redact.SAFE_ENV_NAMES / SAFE_ENV_PREFIXES), the launchers' rank and cluster variables, every name of the
HCCL variable table and every name that looks like one of its prefixes (hccl.env_names judges misspellings).
"""

from __future__ import annotations

from typing import FrozenSet, Tuple

from ..facts import EnvFacts
from ..host import Host
from ..redact import REDACTED, SAFE_ENV_NAMES, SAFE_ENV_PREFIXES, is_secret_name

# Launchers' identity and cluster variables (checks.launch_env.LAUNCHERS, probes.launch, probes.rank_table).
LAUNCH_PREFIXES = ("CM_", "OMPI_", "PMI_", "SLURM_", "MPI_")
LAUNCH_NAMES = frozenset({"RANK", "WORLD_SIZE", "LOCAL_RANK", "XDL_IP", "POD_IP", "NODE_NAME", "SLURMD_NODENAME",
                          "JOB_COMPLETION_INDEX", "JOB_NAME", "PBS_JOBID"})


def _hccl_names() -> Tuple[Tuple[str, ...], FrozenSet[str]]:
    from ..hccl_env import load_hccl_env_table

    table = load_hccl_env_table()
    return tuple(table["prefixes"]), frozenset(v["name"] for v in table["variables"])


def judged(name: str, hccl_prefixes: Tuple[str, ...] = (), hccl_names: FrozenSet[str] = frozenset()) -> bool:
    """Whether a check may read this variable (and so whether the facts keep it)."""
    if name in SAFE_ENV_NAMES or name in LAUNCH_NAMES or name in hccl_names:
        return True
    if name.startswith(SAFE_ENV_PREFIXES + LAUNCH_PREFIXES):
        return True
    # hccl.env_names judges misspelled names the way hccl_env.name_issues normalises them
    return bool(hccl_prefixes) and name.strip().upper().replace("-", "_").startswith(hccl_prefixes)


def env_facts(environ) -> EnvFacts:
    prefixes, names = _hccl_names()
    return EnvFacts({name: REDACTED if is_secret_name(name) else str(value)
                     for name, value in sorted(environ.items()) if judged(name, prefixes, names)})


def probe_env(host: Host, options=None) -> EnvFacts:
    return env_facts(host.env)
