"""The per-process launch environment of a multi-card job (pitfalls P13, P14).

Launch modes are told apart (rank table, MindSpore dynamic cluster / msrun, HCCL's
CM_* variables, and the rank/size other launchers imply: OpenMPI, Slurm, torchrun),
checked for completeness, and checked to agree with each other. Rules L1..L7 of
ascend_formats.md §7.5.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Finding
from . import check
from ._node import node_device_ids

MODE_TITLE = "Distributed launch mode and its variables agree"
RT_TITLE = "Rank-table launch variables (RANK_TABLE_FILE, RANK_ID, RANK_SIZE, DEVICE_ID)"
DYN_TITLE = "MindSpore dynamic cluster / msrun variables"
VIS_TITLE = "ASCEND_RT_VISIBLE_DEVICES and device ids match the devices present"

# Which variables each launcher sets for the rank and the world size. OpenMPI and the CM_*
# set are from ascend_formats.md §4.4/§4.7; Slurm's from its srun/sbatch "OUTPUT ENVIRONMENT
# VARIABLES"; torchrun's from the PyTorch elastic launch documentation.
LAUNCHERS = {
    "rank table": {"detect": ("RANK_TABLE_FILE", "MINDSPORE_HCCL_CONFIG_PATH"), "rank": "RANK_ID", "size": "RANK_SIZE"},
    "dynamic cluster (msrun)": {"detect": ("MS_ROLE", "MS_SCHED_HOST", "MS_SCHED_PORT", "MS_WORKER_NUM"),
                                "rank": None, "size": "MS_WORKER_NUM"},
    "OpenMPI": {"detect": ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"), "rank": "OMPI_COMM_WORLD_RANK",
                "size": "OMPI_COMM_WORLD_SIZE"},
    "Slurm": {"detect": ("SLURM_PROCID",), "rank": "SLURM_PROCID", "size": "SLURM_NTASKS"},
    "torchrun": {"detect": ("WORLD_SIZE",), "rank": "RANK", "size": "WORLD_SIZE"},
    "HCCL env-var cluster (CM_*)": {"detect": ("CM_CHIEF_IP", "CM_CHIEF_PORT", "CM_CHIEF_DEVICE", "CM_WORKER_SIZE",
                                               "CM_WORKER_IP"), "rank": None, "size": "CM_WORKER_SIZE"},
}


def _problems_finding(ctx, problems: List[Tuple[str, str, List[str]]], evidence: dict,
                      pitfall: Optional[str]) -> Finding:
    """One finding for a check's (status, sentence, fixes) problems: fail if any fails, else warn; the
    sentences in order, each fix once."""
    fixes: List[str] = []
    for _, _, fix in problems:
        fixes.extend(f for f in fix if f not in fixes)
    worst = FAIL if any(p[0] == FAIL for p in problems) else WARN
    return ctx.finding(worst, summary=" ".join(p[1] + "." for p in problems), evidence=evidence, fix=fixes,
                       pitfall=pitfall)


def _int(value: Optional[str]) -> Optional[int]:
    if value is None:
        return None
    v = value.strip()
    return int(v) if v.isascii() and v.isdigit() and len(v) <= 9 else None


def detect_launch_modes(env) -> List[str]:
    return [name for name, spec in LAUNCHERS.items() if any(env.get(v) for v in spec["detect"])]


@check("env.launch_mode", MODE_TITLE, pitfalls=["P13"],
       fail="Distributed launch variables are wrong or contradict each other",
       warn="Distributed launch variables disagree", skip="No distributed launch variables set")
def check_launch_mode(ctx):
    env = ctx.facts.env
    modes = detect_launch_modes(env)
    if not modes:
        return ctx.finding(SKIP,
                           summary="No distributed launch variables are set: a single-process job.")
    evidence: Dict[str, object] = {"launch modes found": ", ".join(modes)}
    problems: List[Tuple[str, str, List[str]]] = []  # (status, message, fix)

    if "HCCL env-var cluster (CM_*)" in modes:
        clash = [v for v in ("RANK_TABLE_FILE", "RANK_ID", "RANK_SIZE") if env.get(v)]
        if clash:
            problems.append((FAIL, f"CM_* cluster variables are set together with {', '.join(clash)}; HCCL's env-var "
                                   "cluster configuration requires those to be absent (the two methods cannot be mixed)",
                             [f"unset {' '.join(clash)}   # keep the CM_* method", "or: unset the CM_* variables and use the rank table"]))
    if "dynamic cluster (msrun)" in modes and "OpenMPI" in modes:
        problems.append((WARN, "MS_ROLE (dynamic cluster) and OMPI_COMM_WORLD_* (OpenMPI) are both set; MindSpore uses the "
                               "dynamic cluster and ignores the OpenMPI ranks", ["launch with one method: msrun, or mpirun without MS_* variables"]))

    ranks: Dict[str, int] = {}
    sizes: Dict[str, int] = {}
    for name in modes:
        spec = LAUNCHERS[name]
        for kind, store in (("rank", ranks), ("size", sizes)):
            var = spec[kind]
            if not var or var not in env:
                continue
            n = _int(env[var])
            evidence[var] = env[var]
            if n is None:
                problems.append((FAIL, f"{var}={env[var]!r} is not a whole number", [f"export {var}=<number>"]))
            else:
                store[var] = n
    for var, n in sizes.items():
        if n == 0:
            problems.append((FAIL, f"{var}=0: a job needs at least one process", [f"export {var}=<process count>"]))
    for name in modes:
        spec = LAUNCHERS[name]
        r, s = spec["rank"], spec["size"]
        if r in ranks and s in sizes and ranks[r] >= sizes[s] > 0:
            problems.append((FAIL, f"{r}={ranks[r]} but {s}={sizes[s]}: ranks run 0..{sizes[s] - 1}", [f"export {r}=<0..{sizes[s] - 1}>"]))
    # Slurm counts tasks: with one msrun per node, SLURM_PROCID is the node, not the rank. So disagreement is a warning.
    if len(set(ranks.values())) > 1:
        shown = ", ".join(f"{k}={v}" for k, v in ranks.items())
        problems.append((WARN, f"the launchers disagree on this process's rank ({shown}); MindSpore copies OpenMPI's "
                               "rank into RANK_ID, so the rank the rank table expects may not be the one used",
                         ["set RANK_ID from the launcher that starts the process, e.g. export RANK_ID=$OMPI_COMM_WORLD_RANK"]))
    if len(set(sizes.values())) > 1:
        shown = ", ".join(f"{k}={v}" for k, v in sizes.items())
        problems.append((WARN, f"the launchers disagree on the world size ({shown}); a job whose processes wait for a "
                               "different number of peers hangs at start until HCCL_CONNECT_TIMEOUT",
                         ["export RANK_SIZE=<total processes> (and MS_WORKER_NUM the same) on every process"]))
    if not problems:
        where = ", ".join(f"{k}={v}" for k, v in list(ranks.items())[:1] + list(sizes.items())[:1])
        return ctx.finding(PASS,
                           summary=f"{', '.join(modes)}" + (f" ({where})" if where else ""), evidence=evidence)
    return _problems_finding(ctx, problems, evidence, "P13")


@check("env.rank_table_env", RT_TITLE, pitfalls=["P13", "P14"],
       fail="Rank-table launch variables missing or wrong", warn="Rank-table launch variables incomplete",
       skip="Not a rank-table launch")
def check_rank_table_env(ctx):
    env = ctx.facts.env
    rt = ctx.facts.rank_table
    if not rt.env_var:
        return ctx.finding(SKIP, summary="RANK_TABLE_FILE is not set: not a rank-table launch.")
    evidence: Dict[str, object] = {rt.env_var: rt.path}
    problems: List[Tuple[str, str, List[str]]] = []
    a, b = env.get("MINDSPORE_HCCL_CONFIG_PATH"), env.get("RANK_TABLE_FILE")
    if a and b and a != b:
        problems.append((WARN, f"MINDSPORE_HCCL_CONFIG_PATH ({a}) and RANK_TABLE_FILE ({b}) name different files; MindSpore "
                               "reads the first, HCCL in other frameworks the second", [f"export RANK_TABLE_FILE={a}"]))
    if rt.read_error:
        problems.append((FAIL, f"{rt.env_var} names a file that cannot be read: {rt.read_error}",
                         [f"ls -l {rt.path}", "generate the table on each server (hccl_tools.py) and point "
                                               f"{rt.env_var} at its absolute path"]))
    host_distributed = env.get("MS_ROLE") or env.get("OMPI_COMM_WORLD_RANK")
    rank_id = env.get("RANK_ID")
    if rank_id is None:
        if not host_distributed:
            problems.append((FAIL, "RANK_ID is not set; MindSpore's init() stops with \"Environment variables RANK_ID has "
                                   "not been exported\"", ["export RANK_ID=<this process's rank, 0..RANK_SIZE-1>"]))
    else:
        evidence["RANK_ID"] = rank_id
        if _int(rank_id) is None:
            problems.append((FAIL, f"RANK_ID={rank_id!r} is not a whole number (MindSpore only prints a message and goes on "
                                   "with a wrong rank)", ["export RANK_ID=<0..RANK_SIZE-1>"]))
    size = env.get("RANK_SIZE")
    if size is not None:
        evidence["RANK_SIZE"] = size
        if _int(size) is None:
            problems.append((FAIL, f"RANK_SIZE={size!r} is not a whole number", ["export RANK_SIZE=<total ranks>"]))
    if rt.rank_count is not None:
        evidence["ranks in the table"] = rt.rank_count
        if _int(size) is not None and _int(size) != rt.rank_count:
            problems.append((FAIL, f"RANK_SIZE={size} but the rank table describes {rt.rank_count} ranks (L2); HCCL waits "
                                   "for ranks that never come, or rejects the table",
                             [f"export RANK_SIZE={rt.rank_count}", "or regenerate the rank table for the devices you use"]))
    limit = _int(size) if _int(size) is not None else rt.rank_count
    if _int(rank_id) is not None and limit is not None and _int(rank_id) >= limit:
        problems.append((FAIL, f"RANK_ID={rank_id} but ranks run 0..{limit - 1}", [f"export RANK_ID=<0..{limit - 1}>"]))
    dev = env.get("DEVICE_ID")
    if dev is None:
        problems.append((WARN, "DEVICE_ID is not set: every process uses device 0 unless the script passes device_id "
                               "itself, and the rank table's device for this rank is not the one used",
                         ["export DEVICE_ID=<the physical device_id of this rank in the rank table>"]))
    else:
        evidence["DEVICE_ID"] = dev
        if _int(dev) is None:
            problems.append((FAIL, f"DEVICE_ID={dev!r} is not a whole number", ["export DEVICE_ID=<0..N-1>"]))
    if not problems:
        return ctx.finding(PASS, summary=f"rank {rank_id} of {size or rt.rank_count}",
                           evidence=evidence)
    return _problems_finding(ctx, problems, evidence, "P14" if rt.read_error else "P13")


DYN_VARS = ("MS_ROLE", "MS_SCHED_HOST", "MS_SCHED_PORT", "MS_WORKER_NUM")
MS_ROLES = ("MS_SCHED", "MS_WORKER", "MS_PSERVER")


@check("env.dynamic_cluster", DYN_TITLE, pitfalls=["P13"],
       fail="MindSpore dynamic cluster / msrun variables missing or wrong",
       warn="MindSpore dynamic cluster / msrun variables disagree", skip="Not a dynamic-cluster (msrun) launch")
def check_dynamic_cluster(ctx):
    env = ctx.facts.env
    if not any(env.get(v) for v in DYN_VARS):
        return ctx.finding(SKIP, summary="No MS_ROLE / MS_SCHED_* variables: not a dynamic-cluster launch.")
    evidence = {v: env[v] for v in DYN_VARS + ("MS_SERVER_NUM", "MS_NODE_ID", "MS_LOCAL_WORKER", "RANK_SIZE") if v in env}
    problems: List[Tuple[str, str, List[str]]] = []
    missing = [v for v in DYN_VARS if not env.get(v)]
    if missing:
        problems.append((FAIL, f"{', '.join(missing)} not set: a dynamic-cluster process needs all of {', '.join(DYN_VARS)} "
                               "(msrun sets them for you)",
                         ["msrun --worker_num=<N> --local_worker_num=<n> --master_addr=<scheduler IP> "
                          "--master_port=8118 train.py   # sets every MS_* variable consistently"]))
    role = env.get("MS_ROLE")
    if role and role not in MS_ROLES:
        problems.append((FAIL, f"MS_ROLE={role!r} is not one of {', '.join(MS_ROLES)}", ["export MS_ROLE=MS_WORKER   # or MS_SCHED for the one scheduler"]))
    host = env.get("MS_SCHED_HOST")
    if host:
        import ipaddress  # only when MS_SCHED_HOST is set

        try:
            addr = ipaddress.ip_address(host.strip())
            local = _int(env.get("MS_LOCAL_WORKER"))
            workers = _int(env.get("MS_WORKER_NUM"))
            if addr.is_loopback and local is not None and workers is not None and workers > local:
                problems.append((FAIL, f"MS_SCHED_HOST={host} is a loopback address, but MS_WORKER_NUM={workers} is more than "
                                       f"this node's MS_LOCAL_WORKER={local}: workers on other nodes cannot reach it",
                                 ["export MS_SCHED_HOST=<the scheduler node's IP>   # msrun --master_addr"]))
        except ValueError:
            problems.append((FAIL, f"MS_SCHED_HOST={host!r} is not an IPv4/IPv6 address", ["export MS_SCHED_HOST=<scheduler IP>"]))
    port = env.get("MS_SCHED_PORT")
    if port:
        n = _int(port)
        if n is None or not 1024 <= n <= 65535:
            problems.append((FAIL, f"MS_SCHED_PORT={port!r} is not a port in 1024-65535", ["export MS_SCHED_PORT=8118   # msrun's default"]))
    workers = env.get("MS_WORKER_NUM")
    if workers:
        n = _int(workers)
        if n is None or n == 0:
            problems.append((FAIL, f"MS_WORKER_NUM={workers!r} must be a whole number > 0", ["export MS_WORKER_NUM=<total workers>"]))
        else:
            local = _int(env.get("MS_LOCAL_WORKER"))
            if env.get("MS_LOCAL_WORKER") and (local is None or local > n):
                problems.append((FAIL, f"MS_LOCAL_WORKER={env['MS_LOCAL_WORKER']} is more than MS_WORKER_NUM={n} (msrun refuses "
                                       "local_worker_num > worker_num)", [f"msrun --worker_num={n} --local_worker_num=<= {n}"]))
            node = _int(env.get("MS_NODE_ID"))
            if node is not None and role == "MS_WORKER" and node >= n:
                problems.append((WARN, f"MS_NODE_ID={node} but there are only {n} workers (msrun numbers them 0..{n - 1})",
                                 ["let msrun set MS_NODE_ID, or give each worker a unique id below MS_WORKER_NUM"]))
            size = _int(env.get("RANK_SIZE"))
            if size is not None and size != n:
                problems.append((WARN, f"RANK_SIZE={size} differs from MS_WORKER_NUM={n}", [f"export RANK_SIZE={n}"]))
    servers = env.get("MS_SERVER_NUM")
    if servers is not None and _int(servers) is None:
        problems.append((FAIL, f"MS_SERVER_NUM={servers!r} must be a whole number (0 without parameter servers)", ["export MS_SERVER_NUM=0"]))
    if not problems:
        return ctx.finding(PASS,
                           summary=f"{role} of {workers} workers, scheduler {host}:{port}", evidence=evidence)
    return _problems_finding(ctx, problems,
                             dict(evidence, note="MS_SCHED_HOST, MS_SCHED_PORT and MS_WORKER_NUM must be identical "
                                                 "in every process"), "P13")


def parse_visible_devices(value: str) -> Tuple[List[int], Optional[str]]:
    """CANN's reading of ASCEND_RT_VISIBLE_DEVICES: ids up to the first invalid entry, and what was wrong."""
    ids: List[int] = []
    for i, part in enumerate(value.split(",")):
        n = _int(part) if part == part.strip() else None
        if n is None:
            why = f"entry {part!r} is not a device id"
            if i == 0:
                return [], why + ": CANN stops reading at the first bad entry, so no device is visible"
            return ids, why + f": CANN stops there, so only {ids} are visible"
        if ids and n <= ids[-1]:
            return ids, f"ids must be in ascending order without repeats ({n} after {ids[-1]}); CANN stops at {n}"
        ids.append(n)
    return ids, None


@check("env.visible_devices", VIS_TITLE, pitfalls=["P13"],
       fail="ASCEND_RT_VISIBLE_DEVICES or a device id names devices that are not there",
       warn="ASCEND_RT_VISIBLE_DEVICES or a device id looks wrong",
       error="Could not compare the visible devices with the devices present", skip="No visible-device variable set")
def check_visible_devices(ctx):
    env = ctx.facts.env
    raw = env.get("ASCEND_RT_VISIBLE_DEVICES")
    dev_vars = {v: env[v] for v in ("ASCEND_DEVICE_ID", "DEVICE_ID") if env.get(v) is not None}
    if raw is None and not dev_vars:
        return ctx.finding(SKIP,
                           summary="Neither ASCEND_RT_VISIBLE_DEVICES nor a device id variable is set.")
    present = node_device_ids(ctx.facts)
    evidence: Dict[str, object] = dict(dev_vars)
    evidence["devices on this node"] = sorted(present) if present else "unknown device count (no npu-smi devices or /dev/davinciN)"
    problems: List[Tuple[str, str, List[str]]] = []
    visible: Optional[List[int]] = None
    if raw is not None:
        evidence["ASCEND_RT_VISIBLE_DEVICES"] = raw
        visible, why = parse_visible_devices(raw)
        if why:
            problems.append((FAIL, f"ASCEND_RT_VISIBLE_DEVICES={raw!r}: {why}",
                             ["export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3   # comma-separated ascending ids, no spaces"]))
        if present is not None:
            absent = [d for d in visible if d not in present]
            if absent:
                problems.append((FAIL, f"ASCEND_RT_VISIBLE_DEVICES lists {absent}, which this node does not have "
                                       f"(devices: {sorted(present)})",
                                 [f"export ASCEND_RT_VISIBLE_DEVICES={','.join(map(str, sorted(present)))}"]))
    for var, value in dev_vars.items():
        n = _int(value)
        if n is None:
            problems.append((FAIL, f"{var}={value!r} is not a whole number", [f"export {var}=0"]))
            continue
        if var == "DEVICE_ID" and ctx.facts.rank_table.env_var and visible is None:
            continue  # rank-table DEVICE_ID is a physical id: rank_table.this_node checks it against the table
        if visible is not None:
            if n >= len(visible):
                problems.append((FAIL, f"{var}={n}, but with ASCEND_RT_VISIBLE_DEVICES={raw!r} only {len(visible)} device(s) "
                                       f"are visible, numbered 0..{max(len(visible) - 1, 0)} inside the process",
                                 [f"export {var}=<0..{max(len(visible) - 1, 0)}>   # an index into ASCEND_RT_VISIBLE_DEVICES"]))
        elif present is not None and n not in present:
            problems.append((FAIL, f"{var}={n}, but this node has devices {sorted(present)}",
                             [f"export {var}=<one of {sorted(present)}>"]))
    if not problems and present is None:
        return ctx.finding(ERROR,
                           summary="The variables parse, but the device count on this node is unknown (npu-smi gave no "
                                   "devices and no /dev/davinciN was found), so they could not be compared with the devices present.",
                           evidence=evidence, fix=["npu-smi info   # is the driver loaded and are devices visible?", "ls /dev/davinci*"])
    if not problems:
        note = " (npu-smi and hccn_tool ignore it and keep physical ids)" if raw is not None else ""
        return ctx.finding(PASS,
                           summary=(f"visible devices {visible}" if raw is not None else ", ".join(f"{k}={v}" for k, v in dev_vars.items())) + note,
                           evidence=evidence)
    return _problems_finding(ctx, problems, evidence, "P13")
