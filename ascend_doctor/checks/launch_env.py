"""The per-process launch environment of a multi-card job (pitfalls P13, P14).

Launch modes are told apart (rank table, MindSpore dynamic cluster / msrun, HCCL's
CM_* variables, and the rank/size other launchers imply: OpenMPI, Slurm, torchrun),
checked for completeness, and checked to agree with each other. Rules L1..L7 of
ascend_formats.md §7.5.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Finding
from ..i18n import N_, _, sentences
from ..i18n_text import join
from ..plan import or_step
from . import check
from ._node import node_device_ids

MODE_TITLE = N_("Distributed launch mode and its variables agree")
RT_TITLE = N_("Rank-table launch variables (RANK_TABLE_FILE, RANK_ID, RANK_SIZE, DEVICE_ID)")
DYN_TITLE = N_("MindSpore dynamic cluster / msrun variables")
VIS_TITLE = N_("ASCEND_RT_VISIBLE_DEVICES and device ids match the devices present")

# Which variables each launcher sets for the rank and the world size. OpenMPI and the CM_*
# set are from ascend_formats.md §4.4/§4.7; Slurm's from its srun/sbatch "OUTPUT ENVIRONMENT
# VARIABLES"; torchrun's from the PyTorch elastic launch documentation. The names are shown translated: _(name).
LAUNCHERS = {
    N_("rank table"): {"detect": ("RANK_TABLE_FILE", "MINDSPORE_HCCL_CONFIG_PATH"), "rank": "RANK_ID", "size": "RANK_SIZE"},
    N_("dynamic cluster (msrun)"): {"detect": ("MS_ROLE", "MS_SCHED_HOST", "MS_SCHED_PORT", "MS_WORKER_NUM"),
                                "rank": None, "size": "MS_WORKER_NUM"},
    "OpenMPI": {"detect": ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"), "rank": "OMPI_COMM_WORLD_RANK",
                "size": "OMPI_COMM_WORLD_SIZE"},
    "Slurm": {"detect": ("SLURM_PROCID",), "rank": "SLURM_PROCID", "size": "SLURM_NTASKS"},
    "torchrun": {"detect": ("WORLD_SIZE",), "rank": "RANK", "size": "WORLD_SIZE"},
    N_("HCCL env-var cluster (CM_*)"): {"detect": ("CM_CHIEF_IP", "CM_CHIEF_PORT", "CM_CHIEF_DEVICE", "CM_WORKER_SIZE",
                                               "CM_WORKER_IP"), "rank": None, "size": "CM_WORKER_SIZE"},
}


def _problems_finding(ctx, problems: List[Tuple[str, str, List[str]]], evidence: dict,
                      pitfall: Optional[str]) -> Finding:
    """One finding for a check's (status, sentence, fixes) problems: fail if any fails, else warn; the
    sentences in order, each fix once."""
    fixes: List[str] = []
    for *__, fix in problems:
        fixes.extend(f for f in fix if f not in fixes)
    worst = FAIL if any(p[0] == FAIL for p in problems) else WARN
    return ctx.finding(worst, summary=sentences(*(_("{problem}.").format(problem=p[1]) for p in problems)),
                       evidence=evidence, fix=fixes,
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
                           summary=_("No distributed launch variables are set: a single-process job."))
    evidence: Dict[str, object] = {"launch modes found": join(", ", (_(m) for m in modes))}
    problems: List[Tuple[str, str, List[str]]] = []  # (status, message, fix)

    if "HCCL env-var cluster (CM_*)" in modes:
        clash = [v for v in ("RANK_TABLE_FILE", "RANK_ID", "RANK_SIZE") if env.get(v)]
        if clash:
            problems.append((FAIL, _("CM_* cluster variables are set together with {variables}; HCCL's env-var cluster "
                                     "configuration requires those to be absent (the two methods cannot be mixed)").format(
                                         variables=", ".join(clash)),
                             [_("unset {variables}   # keep the CM_* method").format(variables=" ".join(clash)),
                              or_step(_("unset the CM_* variables and use the rank table"))]))
    if "dynamic cluster (msrun)" in modes and "OpenMPI" in modes:
        problems.append((WARN, _("MS_ROLE (dynamic cluster) and OMPI_COMM_WORLD_* (OpenMPI) are both set; MindSpore uses "
                                 "the dynamic cluster and ignores the OpenMPI ranks"),
                         [_("launch with one method: msrun, or mpirun without MS_* variables")]))

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
                problems.append((FAIL, _("{name}={value} is not a whole number").format(name=var, value=repr(env[var])),
                                 [f"export {var}=<number>"]))
            else:
                store[var] = n
    for var, n in sizes.items():
        if n == 0:
            problems.append((FAIL, _("{name}=0: a job needs at least one process").format(name=var),
                             [f"export {var}=<process count>"]))
    for name in modes:
        spec = LAUNCHERS[name]
        r, s = spec["rank"], spec["size"]
        if r in ranks and s in sizes and ranks[r] >= sizes[s] > 0:
            problems.append((FAIL, _("{rank_var}={rank} but {size_var}={size}: ranks run 0..{last}").format(
                rank_var=r, rank=ranks[r], size_var=s, size=sizes[s], last=sizes[s] - 1), [f"export {r}=<0..{sizes[s] - 1}>"]))
    # Slurm counts tasks: with one msrun per node, SLURM_PROCID is the node, not the rank. So disagreement is a warning.
    if len(set(ranks.values())) > 1:
        shown = ", ".join(f"{k}={v}" for k, v in ranks.items())
        problems.append((WARN, _("the launchers disagree on this process's rank ({ranks}); MindSpore copies OpenMPI's "
                                 "rank into RANK_ID, so the rank the rank table expects may not be the one used").format(
                                     ranks=shown),
                         [_("set RANK_ID from the launcher that starts the process, e.g. export "
                            "RANK_ID=$OMPI_COMM_WORLD_RANK")]))
    if len(set(sizes.values())) > 1:
        shown = ", ".join(f"{k}={v}" for k, v in sizes.items())
        problems.append((WARN, _("the launchers disagree on the world size ({sizes}); a job whose processes wait for a "
                                 "different number of peers hangs at start until HCCL_CONNECT_TIMEOUT").format(sizes=shown),
                         [_("export RANK_SIZE=<total processes> (and MS_WORKER_NUM the same) on every process")]))
    if not problems:
        where = ", ".join(f"{k}={v}" for k, v in list(ranks.items())[:1] + list(sizes.items())[:1])
        return ctx.finding(PASS,
                           summary=(_("{modes} ({where})") if where else "{modes}").format(
                               modes=join(", ", (_(m) for m in modes)), where=where), evidence=evidence)
    return _problems_finding(ctx, problems, evidence, "P13")


@check("env.rank_table_env", RT_TITLE, pitfalls=["P13", "P14"],
       fail="Rank-table launch variables missing or wrong", warn="Rank-table launch variables incomplete",
       skip="Not a rank-table launch")
def check_rank_table_env(ctx):
    env = ctx.facts.env
    rt = ctx.facts.rank_table
    if not rt.env_var:
        return ctx.finding(SKIP, summary=_("RANK_TABLE_FILE is not set: not a rank-table launch."))
    evidence: Dict[str, object] = {rt.env_var: rt.path}
    problems: List[Tuple[str, str, List[str]]] = []
    a, b = env.get("MINDSPORE_HCCL_CONFIG_PATH"), env.get("RANK_TABLE_FILE")
    if a and b and a != b:
        problems.append((WARN, _("MINDSPORE_HCCL_CONFIG_PATH ({first}) and RANK_TABLE_FILE ({second}) name different "
                                 "files; MindSpore reads the first, HCCL in other frameworks the second").format(
                                     first=a, second=b), [f"export RANK_TABLE_FILE={a}"]))
    if rt.read_error:
        problems.append((FAIL, _("{variable} names a file that cannot be read: {error}").format(
                             variable=rt.env_var, error=rt.read_error),
                         [f"ls -l {rt.path}", _("generate the table on each server (hccl_tools.py) and point {variable} at "
                                                "its absolute path").format(variable=rt.env_var)]))
    host_distributed = env.get("MS_ROLE") or env.get("OMPI_COMM_WORLD_RANK")
    rank_id = env.get("RANK_ID")
    if rank_id is None:
        if not host_distributed:
            problems.append((FAIL, _("RANK_ID is not set; MindSpore's init() stops with \"Environment variables RANK_ID "
                                     "has not been exported\""), ["export RANK_ID=<this process's rank, 0..RANK_SIZE-1>"]))
    else:
        evidence["RANK_ID"] = rank_id
        if _int(rank_id) is None:
            problems.append((FAIL, _("RANK_ID={value} is not a whole number (MindSpore only prints a message and goes on "
                                     "with a wrong rank)").format(value=repr(rank_id)), ["export RANK_ID=<0..RANK_SIZE-1>"]))
    size = env.get("RANK_SIZE")
    if size is not None:
        evidence["RANK_SIZE"] = size
        if _int(size) is None:
            problems.append((FAIL, _("{name}={value} is not a whole number").format(name="RANK_SIZE", value=repr(size)),
                             ["export RANK_SIZE=<total ranks>"]))
    if rt.rank_count is not None:
        evidence["ranks in the table"] = rt.rank_count
        if _int(size) is not None and _int(size) != rt.rank_count:
            problems.append((FAIL, _("RANK_SIZE={size} but the rank table describes {count} ranks (L2); HCCL waits for "
                                     "ranks that never come, or rejects the table").format(size=size, count=rt.rank_count),
                             [f"export RANK_SIZE={rt.rank_count}", or_step(_("regenerate the rank table for the devices you use"))]))
    limit = _int(size) if _int(size) is not None else rt.rank_count
    if _int(rank_id) is not None and limit is not None and _int(rank_id) >= limit:
        problems.append((FAIL, _("RANK_ID={rank} but ranks run 0..{last}").format(rank=rank_id, last=limit - 1),
                         [f"export RANK_ID=<0..{limit - 1}>"]))
    dev = env.get("DEVICE_ID")
    if dev is None:
        problems.append((WARN, _("DEVICE_ID is not set: every process uses device 0 unless the script passes device_id "
                                 "itself, and the rank table's device for this rank is not the one used"),
                         ["export DEVICE_ID=<the physical device_id of this rank in the rank table>"]))
    else:
        evidence["DEVICE_ID"] = dev
        if _int(dev) is None:
            problems.append((FAIL, _("{name}={value} is not a whole number").format(name="DEVICE_ID", value=repr(dev)),
                             ["export DEVICE_ID=<0..N-1>"]))
    if not problems:
        return ctx.finding(PASS, summary=_("rank {rank} of {size}").format(rank=rank_id, size=size or rt.rank_count),
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
        return ctx.finding(SKIP, summary=_("No MS_ROLE / MS_SCHED_* variables: not a dynamic-cluster launch."))
    evidence = {v: env[v] for v in DYN_VARS + ("MS_SERVER_NUM", "MS_NODE_ID", "MS_LOCAL_WORKER", "RANK_SIZE") if v in env}
    problems: List[Tuple[str, str, List[str]]] = []
    missing = [v for v in DYN_VARS if not env.get(v)]
    if missing:
        problems.append((FAIL, _("{missing} not set: a dynamic-cluster process needs all of {variables} (msrun sets "
                                 "them for you)").format(missing=", ".join(missing), variables=", ".join(DYN_VARS)),
                         [_("msrun --worker_num=<N> --local_worker_num=<n> --master_addr=<scheduler IP> "
                            "--master_port=8118 train.py   # sets every MS_* variable consistently")]))
    role = env.get("MS_ROLE")
    if role and role not in MS_ROLES:
        problems.append((FAIL, _("MS_ROLE={value} is not one of {roles}").format(value=repr(role), roles=", ".join(MS_ROLES)),
                         [_("export MS_ROLE=MS_WORKER   # or MS_SCHED for the one scheduler")]))
    host = env.get("MS_SCHED_HOST")
    if host:
        import ipaddress  # only when MS_SCHED_HOST is set

        try:
            addr = ipaddress.ip_address(host.strip())
            local = _int(env.get("MS_LOCAL_WORKER"))
            workers = _int(env.get("MS_WORKER_NUM"))
            if addr.is_loopback and local is not None and workers is not None and workers > local:
                problems.append((FAIL, _("MS_SCHED_HOST={host} is a loopback address, but MS_WORKER_NUM={workers} is more "
                                         "than this node's MS_LOCAL_WORKER={local}: workers on other nodes cannot reach "
                                         "it").format(host=host, workers=workers, local=local),
                                 ["export MS_SCHED_HOST=<the scheduler node's IP>   # msrun --master_addr"]))
        except ValueError:
            problems.append((FAIL, _("MS_SCHED_HOST={value} is not an IPv4/IPv6 address").format(value=repr(host)),
                             ["export MS_SCHED_HOST=<scheduler IP>"]))
    port = env.get("MS_SCHED_PORT")
    if port:
        n = _int(port)
        if n is None or not 1024 <= n <= 65535:
            problems.append((FAIL, _("MS_SCHED_PORT={value} is not a port in 1024-65535").format(value=repr(port)),
                             [_("export MS_SCHED_PORT=8118   # msrun's default")]))
    workers = env.get("MS_WORKER_NUM")
    if workers:
        n = _int(workers)
        if n is None or n == 0:
            problems.append((FAIL, _("MS_WORKER_NUM={value} must be a whole number > 0").format(value=repr(workers)),
                             ["export MS_WORKER_NUM=<total workers>"]))
        else:
            local = _int(env.get("MS_LOCAL_WORKER"))
            if env.get("MS_LOCAL_WORKER") and (local is None or local > n):
                problems.append((FAIL, _("MS_LOCAL_WORKER={local} is more than MS_WORKER_NUM={workers} (msrun refuses "
                                         "local_worker_num > worker_num)").format(local=env["MS_LOCAL_WORKER"], workers=n),
                                 [f"msrun --worker_num={n} --local_worker_num=<= {n}"]))
            node = _int(env.get("MS_NODE_ID"))
            if node is not None and role == "MS_WORKER" and node >= n:
                problems.append((WARN, _("MS_NODE_ID={node} but there are only {workers} workers (msrun numbers them "
                                         "0..{last})").format(node=node, workers=n, last=n - 1),
                                 [_("let msrun set MS_NODE_ID, or give each worker a unique id below MS_WORKER_NUM")]))
            size = _int(env.get("RANK_SIZE"))
            if size is not None and size != n:
                problems.append((WARN, _("RANK_SIZE={size} differs from MS_WORKER_NUM={workers}").format(size=size, workers=n),
                                 [f"export RANK_SIZE={n}"]))
    servers = env.get("MS_SERVER_NUM")
    if servers is not None and _int(servers) is None:
        problems.append((FAIL, _("MS_SERVER_NUM={value} must be a whole number (0 without parameter servers)").format(
                             value=repr(servers)), ["export MS_SERVER_NUM=0"]))
    if not problems:
        return ctx.finding(PASS,
                           summary=_("{role} of {workers} workers, scheduler {host}:{port}").format(
                               role=role, workers=workers, host=host, port=port), evidence=evidence)
    return _problems_finding(ctx, problems,
                             dict(evidence, note=_("MS_SCHED_HOST, MS_SCHED_PORT and MS_WORKER_NUM must be identical "
                                                   "in every process")), "P13")


def parse_visible_devices(value: str) -> Tuple[List[int], Optional[str]]:
    """CANN's reading of ASCEND_RT_VISIBLE_DEVICES: ids up to the first invalid entry, and what was wrong."""
    ids: List[int] = []
    for i, part in enumerate(value.split(",")):
        n = _int(part) if part == part.strip() else None
        if n is None:
            if i == 0:
                return [], _("entry {entry} is not a device id: CANN stops reading at the first bad entry, so no device "
                             "is visible").format(entry=repr(part))
            return ids, _("entry {entry} is not a device id: CANN stops there, so only {ids} are visible").format(
                entry=repr(part), ids=ids)
        if ids and n <= ids[-1]:
            return ids, _("ids must be in ascending order without repeats ({id} after {previous}); CANN stops at "
                          "{id}").format(id=n, previous=ids[-1])
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
                           summary=_("Neither ASCEND_RT_VISIBLE_DEVICES nor a device id variable is set."))
    present = node_device_ids(ctx.facts)
    evidence: Dict[str, object] = dict(dev_vars)
    evidence["devices on this node"] = sorted(present) if present else \
        _("unknown device count (no npu-smi devices or /dev/davinciN)")
    problems: List[Tuple[str, str, List[str]]] = []
    visible: Optional[List[int]] = None
    if raw is not None:
        evidence["ASCEND_RT_VISIBLE_DEVICES"] = raw
        visible, why = parse_visible_devices(raw)
        if why:
            problems.append((FAIL, _("ASCEND_RT_VISIBLE_DEVICES={value}: {problem}").format(value=repr(raw), problem=why),
                             [_("export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3   # comma-separated ascending ids, no spaces")]))
        if present is not None:
            absent = [d for d in visible if d not in present]
            if absent:
                problems.append((FAIL, _("ASCEND_RT_VISIBLE_DEVICES lists {absent}, which this node does not have "
                                         "(devices: {present})").format(absent=absent, present=sorted(present)),
                                 [f"export ASCEND_RT_VISIBLE_DEVICES={','.join(map(str, sorted(present)))}"]))
    for var, value in dev_vars.items():
        n = _int(value)
        if n is None:
            problems.append((FAIL, _("{name}={value} is not a whole number").format(name=var, value=repr(value)),
                             [f"export {var}=0"]))
            continue
        if var == "DEVICE_ID" and ctx.facts.rank_table.env_var and visible is None:
            continue  # rank-table DEVICE_ID is a physical id: rank_table.this_node checks it against the table
        if visible is not None:
            if n >= len(visible):
                problems.append((FAIL, _("{name}={value}, but with ASCEND_RT_VISIBLE_DEVICES={visible} only {count} "
                                         "device(s) are visible, numbered 0..{last} inside the process").format(
                                             name=var, value=n, visible=repr(raw), count=len(visible),
                                             last=max(len(visible) - 1, 0)),
                                 [_("export {name}=<0..{last}>   # an index into ASCEND_RT_VISIBLE_DEVICES").format(
                                     name=var, last=max(len(visible) - 1, 0))]))
        elif present is not None and n not in present:
            problems.append((FAIL, _("{name}={value}, but this node has devices {present}").format(
                                 name=var, value=n, present=sorted(present)),
                             [f"export {var}=<one of {sorted(present)}>"]))
    if not problems and present is None:
        return ctx.finding(ERROR,
                           summary=_("The variables parse, but the device count on this node is unknown (npu-smi gave "
                                     "no devices and no /dev/davinciN was found), so they could not be compared with the "
                                     "devices present."),
                           evidence=evidence, fix=[_("npu-smi info   # is the driver loaded and are devices visible?"),
                                                   "ls /dev/davinci*"])
    if not problems:
        summary = _("visible devices {devices} (npu-smi and hccn_tool ignore it and keep physical ids)").format(
            devices=visible) if raw is not None else ", ".join(f"{k}={v}" for k, v in dev_vars.items())
        return ctx.finding(PASS,
                           summary=summary,
                           evidence=evidence)
    return _problems_finding(ctx, problems, evidence, "P13")
