"""Typed facts the probes produce and the checks consume.

Every fact has an `errors` list: a probe that meets missing, unreadable or
garbled input records what went wrong there and carries on. A value of None
means "unknown", never "absent and fine".
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Dict, Iterator, List, Optional, Tuple

from . import records
# The facts' JSON codec (to_jsonable, from_jsonable, the converters built once per record class).
from .facts_json import _READERS, FactsError, _converter, _only_tree, from_jsonable, to_jsonable  # noqa: F401
from .records import dataclass, field


@dataclass
class SystemFacts:
    """OS, kernel, CPUs, memory, the disks compile caches go to, /dev/shm."""

    hostname: Optional[str] = None
    os_name: Optional[str] = None  # PRETTY_NAME from /etc/os-release
    os_id: Optional[str] = None
    os_version: Optional[str] = None
    kernel: Optional[str] = None
    arch: Optional[str] = None
    libc: Optional[str] = None
    container: Optional[str] = None  # "docker", "podman", "kubernetes", "containerd" ...
    cpu_count: Optional[int] = None
    mem_total_mb: Optional[int] = None
    mem_available_mb: Optional[int] = None
    disks: Dict[str, Dict[str, Any]] = field(default_factory=dict)  # purpose -> {"path", "total_mb", "free_mb"}
    shm_total_mb: Optional[int] = None
    shm_free_mb: Optional[int] = None
    errors: List[str] = field(default_factory=list)


@dataclass
class PythonFacts:
    """The interpreter that trains (the doctor's own unless --python or an activated environment says
    otherwise, see chosen_by), and where its packages live."""

    version: Optional[str] = None
    executable: Optional[str] = None
    implementation: Optional[str] = None
    site_packages: List[str] = field(default_factory=list)
    chosen_by: str = "doctor"  # doctor | --python | VIRTUAL_ENV | CONDA_PREFIX (host.choose_python)
    errors: List[str] = field(default_factory=list)
    # The interpreters launchers start: msrun runs its workers as `python <script>` from PATH. name -> the
    # first one on PATH (None: none); empty when not known (a snapshot that did not record it).
    on_path: Dict[str, Optional[str]] = field(default_factory=dict)
    # name -> whether that interpreter is this one (the same venv, or the same file); None: unknown.
    on_path_is_this: Dict[str, Optional[bool]] = field(default_factory=dict)


@dataclass
class DriverFacts:
    """NPU driver, from <Driver_Install_Path_Param>/driver/version.info."""

    installed: bool = False
    install_info_path: Optional[str] = None  # /etc/ascend_install.info
    install_info: Dict[str, str] = field(default_factory=dict)
    version_file: Optional[str] = None
    version: Optional[str] = None
    innerversion: Optional[str] = None
    compatible_version: List[str] = field(default_factory=list)  # CANN innerversion codes
    compatible_version_fw: List[List[str]] = field(default_factory=list)  # [[lo, hi], ...]
    package_version: Optional[str] = None
    errors: List[str] = field(default_factory=list)


@dataclass
class FirmwareFacts:
    """NPU firmware, from <Firmware_Install_Path_Param>/firmware/version.info."""

    installed: bool = False
    version_file: Optional[str] = None
    version: Optional[str] = None
    package_version: Optional[str] = None
    compatible_version_drv: List[List[str]] = field(default_factory=list)
    errors: List[str] = field(default_factory=list)


@dataclass
class NpuDevice:
    """One NPU chip (die) as a row pair of `npu-smi info` describes it."""

    npu_id: int
    chip_id: int = 0
    device_id: Optional[int] = None  # logical / Phy-ID: what DEVICE_ID and rank tables use
    name: Optional[str] = None
    health: Optional[str] = None
    power_w: Optional[float] = None
    temp_c: Optional[float] = None
    aicore_pct: Optional[float] = None
    memory_used_mb: Optional[int] = None
    memory_total_mb: Optional[int] = None
    hbm_used_mb: Optional[int] = None
    hbm_total_mb: Optional[int] = None
    bus_id: Optional[str] = None


@dataclass
class NpuSmiFacts:
    """`npu-smi info` parsed, plus the /dev/davinci nodes."""

    available: bool = False
    command_error: Optional[str] = None  # CommandResult.describe() when it did not run cleanly
    tool_version: Optional[str] = None
    driver_version: Optional[str] = None
    layout: Optional[str] = None  # "A" (910/910B), "B" (A3 two dies), "C" (310P), "D" (310)
    devices: List[NpuDevice] = field(default_factory=list)
    processes: List[Dict[str, Any]] = field(default_factory=list)
    idle_npus: List[int] = field(default_factory=list)  # "No running processes found in NPU n"
    dev_nodes: List[str] = field(default_factory=list)  # /dev/davinciN found
    soc_family: Optional[str] = None  # "910", "910B", "910_93", "310P", "310"
    errors: List[str] = field(default_factory=list)

    # The device inventory, derived here once for every reader (checks, smoke, reports).
    @property
    def count(self) -> int:
        """NPUs seen: npu-smi's devices, else the /dev/davinciN nodes (0: none seen)."""
        return len(self.devices) or len(self.dev_nodes)

    @property
    def device_ids(self) -> List[int]:
        """Physical device ids (what DEVICE_ID and rank tables use): npu-smi's, else the /dev/davinciN numbers."""
        ids = {d.device_id for d in self.devices if d.device_id is not None}
        if not ids:
            ids = {int(m.group(1)) for m in (re.search(r"davinci(\d+)$", n) for n in self.dev_nodes) if m}
        return sorted(ids)


@dataclass
class CannInstall:
    """One CANN install root (toolkit, nnae, nnrt, the new cann layout or a legacy one)."""

    root: str  # the directory a set_env.sh would export as ASCEND_HOME_PATH (".../latest" or ".../cann")
    kind: str  # toolkit | nnae | nnrt | cann | legacy
    owner: str = "root"  # root (/usr/local/Ascend) | user ($HOME/Ascend) | custom
    resolved: Optional[str] = None  # realpath of root
    release: Optional[str] = None  # CANN release name: 8.0.RC2, 8.5.0 ...
    compiler_version: Optional[str] = None  # compiler/version.info Version= (what MindSpore reads)
    innerversion: Optional[str] = None
    install_info_path: Optional[str] = None
    arch: Optional[str] = None
    components: Dict[str, str] = field(default_factory=dict)  # component -> version.info Version=
    version_cfg: Dict[str, str] = field(default_factory=dict)  # component -> running CANN release
    has_opp: bool = False
    has_opp_kernel: bool = False
    has_te: bool = False  # te package shipped under python/site-packages
    set_env: Optional[str] = None  # path of the set_env.sh that activates this install
    active: bool = False  # what the environment (ASCEND_HOME_PATH ...) points at
    errors: List[str] = field(default_factory=list)
    version_dirs: Dict[str, str] = field(default_factory=dict)  # component -> version.info version_dir=
    has_fwkacllib: bool = False  # CANN <= 5.x layout marker
    aliases: List[str] = field(default_factory=list)  # other paths naming this install (cann -> cann-8.5.0 ...)


# Which install a job uses when the environment names none: the order a user is told to source one (the full
# toolkit first: MindSpore training needs its compiler and te; then the new-layout cann, then runtimes only), root's
# prefix before the user's ($HOME/Ascend) before a custom one. ModelZoo's env_npu.sh sources
# <prefix>/ascend-toolkit/set_env.sh when it exists, else nnae's (reference ascend_formats §1.2); the doctor's probe
# order puts ascend-toolkit/latest, then cann, then nnae/latest (§7.1 V7).
CANN_KIND_ORDER = {"toolkit": 0, "cann": 1, "nnae": 2, "nnrt": 3, "legacy": 4}
CANN_OWNER_ORDER = {"root": 0, "user": 1, "custom": 2}
# Why an install was judged (CannChoice.reason).
JUDGED_ENV, JUDGED_ONLY, JUDGED_DEFAULT, JUDGED_NONE = "environment", "only", "default_order", "none"
_LAYOUT_SUFFIX = r"/(?:(?:ascend-toolkit|nnae|nnrt)/[^/]+|cann(?:-[^/]+)?|latest)$"  # compiled on first use


def install_prefix(root: str, kind: str) -> Optional[str]:
    """The prefix an install root lives under (`--install-path`): /usr/local/Ascend for
    /usr/local/Ascend/ascend-toolkit/latest or /usr/local/Ascend/cann; a legacy root is the prefix itself."""
    if not root.startswith("/"):
        return None  # "(planned)"
    root = root.rstrip("/") or "/"
    if kind == "legacy":
        return root
    m = re.search(_LAYOUT_SUFFIX, root)
    return (root[: m.start()] or "/") if m else None


@dataclass
class CannChoice:
    """The CANN install a job here uses, decided once (probes.cann; `CannFacts.choose` for facts built by hand or
    read from an older report) and read by every check, node_facts and aggregate."""

    root: Optional[str] = None  # root of the chosen install (one of CannFacts.installs); None: none found
    prefix: Optional[str] = None  # the prefix it is installed under (/usr/local/Ascend, $HOME/Ascend ...)
    reason: str = JUDGED_NONE  # environment | only | default_order | none
    variable: Optional[str] = None  # reason "environment": the variable that points into it (ASCEND_HOME_PATH ...)


@dataclass
class CannFacts:
    """Every CANN install found, which one the environment points at, and which one is judged (`judged`)."""

    installs: List[CannInstall] = field(default_factory=list)
    active_root: Optional[str] = None  # root of the install the environment points at, if any
    env_points_to: Optional[str] = None  # raw ASCEND_HOME_PATH / ASCEND_TOOLKIT_HOME value
    errors: List[str] = field(default_factory=list)
    # Each CANN variable set -> root of the install it points into (None: into no install found).
    env_roots: Dict[str, Optional[str]] = field(default_factory=dict)
    dangling_links: Dict[str, str] = field(default_factory=dict)  # link under an install root -> missing target
    te_in_python: Optional[str] = None  # `te` found in the interpreter's own site-packages (pip-installed wheel)
    # The install a job here uses and why (None: not derived, facts built by hand or an older report: see `choice`).
    judged: Optional[CannChoice] = None

    @property
    def active(self) -> Optional[CannInstall]:
        for inst in self.installs:
            if inst.active:
                return inst
        return None

    def choose(self) -> CannChoice:
        """The one rule: the install the environment points at (ASCEND_HOME_PATH, ASCEND_TOOLKIT_HOME,
        ASCEND_OPP_PATH, ASCEND_AICPU_PATH: what set_env.sh exports), else the only one, else the first in
        the default order (CANN_KIND_ORDER, then CANN_OWNER_ORDER, then the order found)."""
        if not self.installs:
            return CannChoice()
        inst, variable = self.active, None
        if inst is not None:
            reason = JUDGED_ENV
            variable = next((var for var, root in self.env_roots.items() if root == inst.root), None)
        elif len(self.installs) == 1:
            inst, reason = self.installs[0], JUDGED_ONLY
        else:
            inst = sorted(self.installs, key=lambda i: (CANN_KIND_ORDER.get(i.kind, 9),
                                                         CANN_OWNER_ORDER.get(i.owner, 9)))[0]
            reason = JUDGED_DEFAULT
        return CannChoice(root=inst.root, prefix=install_prefix(inst.root, inst.kind), reason=reason,
                          variable=variable)

    @property
    def choice(self) -> CannChoice:
        """The stored choice (probes.cann), else the same rule applied now (facts built by hand, an older report,
        or a hand-edited one whose choice names no install it lists)."""
        judged = self.judged
        if judged is not None and (any(i.root == judged.root for i in self.installs) if judged.root is not None
                                   else not self.installs):
            return judged
        return self.choose()

    @property
    def judged_install(self) -> Optional[CannInstall]:
        """The install a job here uses (see `choose`); None when no install was found."""
        judged = self.judged
        if judged is not None and judged.root is not None:
            for inst in self.installs:  # the stored choice (read for thousands of reports: one pass)
                if inst.root == judged.root:
                    return inst
        root = self.choice.root
        return next((i for i in self.installs if i.root == root), None) if root is not None else None


@dataclass
class CudaFacts:
    """NVIDIA driver, CUDA runtime/toolkit and cuDNN, read from files and nvidia-smi."""

    driver_version: Optional[str] = None  # nvidia-smi "Driver Version"
    driver_cuda_max: Optional[str] = None  # nvidia-smi "CUDA Version": newest CUDA the driver supports
    kernel_module_version: Optional[str] = None  # /proc/driver/nvidia/version
    gpus: List[Dict[str, Any]] = field(default_factory=list)
    runtime_libs: List[Dict[str, Any]] = field(default_factory=list)  # [{"path", "version", "aliases"}] libcudart.so.X.Y.Z
    toolkit_version: Optional[str] = None  # version.json / version.txt
    toolkit_root: Optional[str] = None
    nvcc_version: Optional[str] = None
    cudnn_version: Optional[str] = None
    cudnn_source: Optional[str] = None
    nvidia_smi_error: Optional[str] = None
    errors: List[str] = field(default_factory=list)
    # Appended by the CUDA probe (gpu-ms):
    nvml_mismatch: bool = False  # nvidia-smi said "Failed to initialize NVML: Driver/library version mismatch"
    nvml_library_version: Optional[str] = None  # the "NVML library version: X" nvidia-smi printed with it
    nvidia_smi_failure: Optional[str] = None  # first line of what a failing nvidia-smi printed
    kernel_module_flavour: Optional[str] = None  # "proprietary" | "open"
    userspace_driver_libs: List[Dict[str, Any]] = field(default_factory=list)  # libcuda/libnvidia-ml .so.<ver>
    toolkits: List[Dict[str, Any]] = field(default_factory=list)  # [{"root", "version", "source"}]
    cuda_home: Optional[str] = None  # CUDA_HOME (or CUDA_PATH) from the environment
    cudnn_libs: List[Dict[str, Any]] = field(default_factory=list)  # libcudnn.so.X.Y.Z found
    dev_nodes: List[str] = field(default_factory=list)  # /dev/nvidia0 ...
    loader_dirs: List[str] = field(default_factory=list)  # dirs the dynamic loader searches (LD_LIBRARY_PATH, ld.so.conf)
    # nvidia-smi is there but hung, could not start or printed no banner: the GPUs are unknown, not absent.
    nvidia_smi_unusable: Optional[str] = None


@dataclass
class MindSporeFacts:
    """The installed MindSpore, read from its files without importing it."""

    installed: bool = False
    dist_name: Optional[str] = None  # mindspore | mindspore-ascend | mindspore-gpu ...
    version: Optional[str] = None
    location: Optional[str] = None  # the site-packages directory
    flavour: Optional[str] = None  # cpu | gpu | ascend | unknown
    cuda_version: Optional[str] = None  # GPU build: the CUDA it was built for
    wheel_tags: List[str] = field(default_factory=list)  # from WHEEL: cp39-cp39-linux_x86_64 ...
    requires_python: Optional[str] = None
    accepted_cann: List[str] = field(default_factory=list)  # AscendEnvChecker.version from the installed source
    custom_ops_cann: Dict[str, str] = field(default_factory=dict)  # custom op dir -> compiler version it was built with
    commit_id: Optional[str] = None
    errors: List[str] = field(default_factory=list)
    # Appended by the MindSpore probe (gpu-ms):
    package_dir: Optional[str] = None  # <site-packages>/mindspore
    dist_info: Optional[str] = None  # the .dist-info directory the facts above come from
    backends: List[str] = field(default_factory=list)  # device targets the install carries: cpu, gpu, ascend
    gpu_cuda_versions: List[str] = field(default_factory=list)  # CUDA of each bundled GPU plugin ("11.1", "11" ...)
    cuda_version_source: Optional[str] = None  # where cuda_version / gpu_cuda_versions came from
    flavour_source: Optional[str] = None  # what decided `flavour`
    extension_pythons: List[str] = field(default_factory=list)  # "3.11" from _c_expression.cpython-311-*.so
    accepted_cuda: List[str] = field(default_factory=list)  # GPUEnvChecker.version from the installed source
    distributions: List[Dict[str, str]] = field(default_factory=list)  # every MindSpore dist found: name, version, location


@dataclass
class EnvFacts(Mapping):
    """The environment variables the checks judge (the shell's, or a bundle's env.json), read once by
    probes.environment: configuration and launcher variables only (HCCL_*, ASCEND_*, MS_*, RANK_*, PATH ...,
    see probes.environment.judged). A variable whose name says it holds a secret keeps only "<redacted>".
    Reads like a mapping: `facts.env.get("RANK_ID")`, `"PATH" in facts.env`."""

    variables: Dict[str, str] = field(default_factory=dict)

    def __getitem__(self, name: str) -> str:
        return self.variables[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.variables)

    def __len__(self) -> int:
        return len(self.variables)

    __hash__ = None  # a dataclass with eq is not hashable; Mapping must not pretend otherwise


@dataclass
class Facts:
    """Everything the probes found; what the checks judge."""

    system: SystemFacts = field(default_factory=SystemFacts)
    python: PythonFacts = field(default_factory=PythonFacts)
    driver: DriverFacts = field(default_factory=DriverFacts)
    firmware: FirmwareFacts = field(default_factory=FirmwareFacts)
    npu: NpuSmiFacts = field(default_factory=NpuSmiFacts)
    cann: CannFacts = field(default_factory=CannFacts)
    cuda: CudaFacts = field(default_factory=CudaFacts)
    mindspore: MindSporeFacts = field(default_factory=MindSporeFacts)
    # Per-probe wall time, and probes that crashed (a bug in the doctor, reported as such).
    probe_ms: Dict[str, int] = field(default_factory=dict)
    probe_crashes: Dict[str, str] = field(default_factory=dict)
    hccn: "HccnFacts" = field(default_factory=lambda: HccnFacts())
    rank_table: "RankTableFacts" = field(default_factory=lambda: RankTableFacts())
    env: EnvFacts = field(default_factory=EnvFacts)
    # Versions given to `matrix check`, not read from a machine: the checks say "planned", not "installed".
    planned: bool = False
    # Who this process is in a distributed job (probes.launch); None: not collected (the probe crashed).
    # In the JSON it stays where reports have always carried it: facts.extra.launch.
    launch: Optional["LaunchFacts"] = None

    def to_json(self) -> dict:
        out = to_jsonable(self)
        launch = out.pop("launch")
        out["extra"] = {"launch": launch} if launch is not None else {}
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "facts", only: Optional[Tuple[str, ...]] = None) -> "Facts":
        """The Facts a report's "facts" holds (the inverse of to_json); FactsError names the first bad field.
        `only`: read just these fields ("driver", "driver.version", "npu.devices.name": a dotted path into the
        sections; required fields come along), the rest keep their defaults, unread and unchecked: what
        aggregate and baseline need of each of thousands of reports, without building the rest. Such facts
        are a read-only view: unread list and object fields are empty read-only values, and the lists and
        objects read may be the JSON's own."""
        return read_facts(cls, data, where, only)


def read_facts(cls: type, data: Any, where: str = "facts", only: Optional[Tuple[str, ...]] = None) -> Any:
    """Facts.from_json into `cls`: Facts, or a dataclass holding some of its sections under the same names
    (node_facts.NodeFacts), which a reader of thousands of reports builds instead of all of Facts."""
    if not isinstance(data, dict):
        raise FactsError(f"{where}: expected an object, got {type(data).__name__}")
    readers = _READERS.get((cls, only))
    if readers is None:
        tree = None if only is None else _only_tree(only)
        wanted = dict(tree) if tree is not None else None
        names = {f.name for f in records.fields(cls)}
        launch_reader = None if "launch" not in names or wanted is not None and "launch" not in wanted else \
            _converter(LaunchFacts, wanted["launch"] if wanted is not None else None, wanted is not None)
        readers = _READERS[(cls, only)] = (_converter(cls, tree, tree is not None), launch_reader, "planned" in names)
    facts = readers[0](data, where)  # "launch" is not a key of the JSON (extra.launch is): read below
    extra = data.get("extra")
    if extra is None:
        return facts
    if not isinstance(extra, dict):
        raise FactsError(f"{where}.extra: expected an object, got {type(extra).__name__}")
    launch = extra.get("launch")
    if launch is not None and readers[1] is not None:
        facts.launch = readers[1](launch, f"{where}.extra.launch")
    if readers[2] and extra.get("planned") is True and "planned" not in data:  # reports before facts.planned
        facts.planned = True
    return facts


@dataclass
class HccnDevice:
    """One device NIC as /etc/hccn.conf and `hccn_tool -i N ...` describe it (N = physical device id)."""

    device_id: int
    conf: Dict[str, str] = field(default_factory=dict)  # address, netmask, netdetect, gateway ... from hccn.conf
    ip: Optional[str] = None  # `-ip -g` ipaddr (None: not queried, or nothing configured)
    netmask: Optional[str] = None
    ip_queried: bool = False  # `-ip -g` ran to completion (an empty answer then means "no IP configured")
    link: Optional[str] = None  # `-link -g`: "UP", "DOWN" ...
    net_health: Optional[str] = None  # `-net_health -g`: "Success", "Fault", "Init", "Socket failed" ...
    # The port queries of hccn_tool.md §3-§9; None: not asked, not answered, or not understood (see errors).
    link_stat: Optional["LinkStat"] = None  # `-link_stat -g`: up/down counts, the recent change records
    optical: Optional["OpticalModule"] = None  # `-optical -g`
    lldp: Optional["LldpNeighbour"] = None  # `-lldp -g`: the switch port seen on the other end
    tls: Optional[int] = None  # `-tls -g`: tls switch[0|1]
    mtu: Optional[int] = None  # `-mtu -g`
    speed: Optional[str] = None  # `-speed -g`: "200000 Mb/s", or "Unknown" (no link)
    fec: Optional[str] = None  # `-fec -g`: "rs", "no", "auto" ... (the word before "FEC mode")
    gateway: Optional[str] = None  # `-gateway -g`: default gateway
    netdetect: Optional[str] = None  # `-netdetect -g`: the address net health probes
    errors: List[str] = field(default_factory=list)


@dataclass
class LinkRecord:
    """One line of `-link_stat -g`'s change records (newest first)."""

    time: str  # as printed (asctime): "Tue Aug  1 14:43:40 2022"
    state: str  # "UP" | "DOWN"
    seconds_before: Optional[int] = None  # how long before the output's "current time" (None: a time not understood)


@dataclass
class LinkStat:
    """`hccn_tool -i N -link_stat -g` (hccn_tool.md §3): counts since boot or the last `-link_stat -c`."""

    current_time: Optional[str] = None
    up_count: Optional[int] = None
    down_count: Optional[int] = None  # None: older drivers print no down count
    records: List[LinkRecord] = field(default_factory=list)  # newest first, at most 10 kept by the driver


@dataclass
class OpticalModule:
    """`hccn_tool -i N -optical -g` (hccn_tool.md §4): presence and the module's own DDM thresholds.
    Powers in mW, temperature in degrees C, Vcc in mV; None: NA, not supported or not printed."""

    present: Optional[bool] = None
    temperature: Optional[float] = None
    temp_high: Optional[float] = None
    temp_low: Optional[float] = None
    vcc: Optional[float] = None
    vcc_high: Optional[float] = None
    vcc_low: Optional[float] = None
    tx_high: Optional[float] = None
    tx_low: Optional[float] = None
    rx_high: Optional[float] = None
    rx_low: Optional[float] = None
    tx_power: Dict[str, float] = field(default_factory=dict)  # "Tx Power0" -> mW (lanes printed NA left out)
    rx_power: Dict[str, float] = field(default_factory=dict)
    flags: Dict[str, int] = field(default_factory=dict)  # "Tx Los Flag", "Rx Los Flag", "Tx LoL Flag", "Rx LoL Flag"
    high_power: Optional[bool] = None  # high power enable reg: enabled
    vendor: Optional[str] = None
    part_number: Optional[str] = None


@dataclass
class LldpNeighbour:
    """`hccn_tool -i N -lldp -g` (hccn_tool.md §5): empty output means no neighbour."""

    present: bool = False
    port: Optional[str] = None  # Port ID TLV Ifname: the switch port
    system_name: Optional[str] = None
    system_description: Optional[str] = None  # its first line


@dataclass
class PingResult:
    """`hccn_tool -i N -ping -g address IP` to a peer device of the rank table (preflight --net)."""

    device_id: int
    address: str
    server_id: Optional[str] = None  # the peer's server in the rank table
    peer_device: Optional[int] = None
    sent: Optional[int] = None
    received: Optional[int] = None
    error: Optional[str] = None  # the command failed, timed out or printed no summary


@dataclass
class HccnFacts:
    """Device NICs: /etc/hccn.conf and hccn_tool answers."""

    conf_path: Optional[str] = None  # /etc/hccn.conf when it exists
    tool: Optional[str] = None  # the hccn_tool that was run, None when it is not there
    tool_error: Optional[str] = None  # why hccn_tool gave no answers (not installed, timed out ...)
    devices: List[HccnDevice] = field(default_factory=list)
    errors: List[str] = field(default_factory=list)
    # preflight --net: pings from this node's devices to a sample of the rank table's peer devices
    pings: List[PingResult] = field(default_factory=list)
    ping_note: Optional[str] = None  # how the peers were chosen, or why no ping ran

    def device(self, device_id: int) -> Optional[HccnDevice]:
        for d in self.devices:
            if d.device_id == device_id:
                return d
        return None


@dataclass
class RankTableFacts:
    """The rank table the environment points at (RANK_TABLE_FILE / MINDSPORE_HCCL_CONFIG_PATH), validated."""

    env_var: Optional[str] = None  # the variable that named the file
    path: Optional[str] = None
    read_error: Optional[str] = None  # missing, unreadable, too large
    format: Optional[str] = None  # 1.0 | 1.2 | 2.0 | group_list
    version: Optional[str] = None
    status: Optional[str] = None
    server_count: Optional[int] = None
    rank_count: Optional[int] = None
    problems: List[Dict[str, Any]] = field(default_factory=list)  # Problem.to_json(), the first MAX_KEPT
    problem_counts: Dict[str, int] = field(default_factory=dict)  # error/warning/info over the whole file
    device_sets: Dict[str, List[int]] = field(default_factory=dict)  # "0,1,2,3" -> server indexes using that set
    server_paths: List[str] = field(default_factory=list)
    server_ids: List[str] = field(default_factory=list)  # the first SHOWN_SERVER_IDS, to name when this node is not one
    local_names: List[str] = field(default_factory=list)  # hostname, local IPs, XDL_IP/POD_IP: how we know "this node"
    local_server: Optional[Dict[str, Any]] = None  # {"path", "server_id", "matched_by", "devices": [...]}
    errors: List[str] = field(default_factory=list)


@dataclass
class LaunchRankTable:
    """What this node read of the rank table its launch variables name (rank_table.summarise_rank_table):
    enough for aggregate to tell whether every node sees the same table and which servers sent no report."""

    path: Optional[str] = None
    digest: Optional[str] = None  # of the parsed content (of the text when it is not JSON); None: not readable
    error: Optional[str] = None  # "not readable", "not valid JSON", "no server_list"
    server_count: Any = None  # as the file writes it (a string in the 1.0 format)
    servers_listed: Optional[int] = None
    complete: bool = True  # servers holds every server (rank 0, or a small table), else this node's own entry
    servers: List[Dict[str, Any]] = field(default_factory=list)  # {"server_id", "host_ip", "devices": [...]}


@dataclass
class LaunchFacts:
    """Who this process is in a distributed job (probes.launch): rank, node, launcher, the launch variables.
    Written by every node's report so that aggregate can compare nodes without re-probing anything."""

    name: Optional[str] = None  # the node's report name: <host>-rank<N>, or <host>
    host: Optional[str] = None
    rank: Optional[int] = None
    local_rank: Optional[int] = None
    world_size: Optional[int] = None
    job_id: Optional[str] = None
    role: Optional[str] = None  # MS_ROLE
    launchers: List[str] = field(default_factory=list)  # msrun, openmpi, mpi, slurm, kubernetes: innermost first
    identity_source: Dict[str, str] = field(default_factory=dict)  # "rank"/"world_size"/"host" -> the variable read
    addresses: List[str] = field(default_factory=list)  # this host's IPv4 addresses (and POD_IP, HCCL_IF_IP)
    variables: Dict[str, str] = field(default_factory=dict)  # the non-secret launch variables, capped in length
    rank_table: Optional[LaunchRankTable] = None  # None: no rank table named
    errors: List[str] = field(default_factory=list)


def launch_of(facts_json: Any) -> Optional[LaunchFacts]:
    """The launch facts of a report's JSON facts (only that section is read); None when it has none, or none of
    the launch shape (a hand-edited file: a renderer shows the host name instead)."""
    if not isinstance(facts_json, dict):
        return None
    try:
        return Facts.from_json(facts_json, only=("launch",)).launch
    except FactsError:
        return None


def put_launch(facts_json: Dict[str, Any], launch: LaunchFacts) -> None:
    """Put `launch` into a report's JSON facts, where Facts.to_json writes it."""
    facts_json.setdefault("extra", {})["launch"] = to_jsonable(launch)
