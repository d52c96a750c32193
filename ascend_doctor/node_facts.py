"""The facts that must be equal on every node of a job, read from the typed facts of a node's report.

`aggregate` groups nodes by these to find skew (one node on another driver hangs
HCCL init for the whole job, P13); `baseline` compares them with a trusted node.
`read_node_facts` reads a report's JSON (report["facts"]) into typed Facts, only the fields these need
(Facts.from_json with `only`: the rest of the report is not built), so both work on files from any node.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from typing import Any, Dict, FrozenSet, Optional, Tuple, Union

from .facts import (CannFacts, DriverFacts, Facts, FirmwareFacts, HccnFacts, LaunchFacts, MindSporeFacts,
                    NpuSmiFacts, PythonFacts, read_facts)
from .i18n import N_, _
from .records import dataclass, field
from .redact import shown_env_value

# The values and names below are facts (compared across nodes, kept in JSON): English, marked for the
# renderers and checks to show in the report's language with i18n.lookup().
UNKNOWN = N_("unknown")
UNSET = N_("(unset)")
NOT_INSTALLED = N_("not installed")
NONE_FOUND = N_("none found")

# HCCL variables that legitimately differ per node (each node's own interface address).
PER_NODE_VARIABLES = frozenset({"HCCL_IF_IP"})

# Display names, in the order reports show them.
DRIVER, FIRMWARE, CANN, MINDSPORE, PYTHON, NPU_COUNT, NPU_MODEL = (
    N_("NPU driver"), N_("NPU firmware"), "CANN", "MindSpore", "Python", N_("NPU count"), N_("NPU model"))
VERSION_KEYS = (DRIVER, FIRMWARE, CANN, MINDSPORE, PYTHON)

# The facts a node's comparable facts, name and launch identity come from: read_node_facts builds these only.
NODE_FIELDS = ("driver.version", "driver.installed", "driver.errors",
               "firmware.version", "firmware.installed", "firmware.errors",
               "cann.installs.root", "cann.installs.kind", "cann.installs.owner", "cann.installs.active",
               "cann.installs.release", "cann.installs.compiler_version", "cann.judged", "cann.env_roots",
               "cann.errors",
               "mindspore.version", "mindspore.flavour", "mindspore.installed", "mindspore.errors",
               "python.version",
               "npu.devices.name", "npu.available", "npu.dev_nodes", "npu.command_error", "npu.errors",
               "launch.name", "launch.host", "launch.rank", "launch.world_size", "launch.addresses",
               "launch.variables", "launch.rank_table",
               # the NPU RoCE ports (aggregate: settings that differ from the cluster's, ports down, pings)
               "hccn.devices.device_id", "hccn.devices.link", "hccn.devices.tls", "hccn.devices.mtu",
               "hccn.devices.speed", "hccn.devices.fec", "hccn.pings")
# Sections whose absence from a report means "unknown", not "not installed".
_KNOWN_IF_PRESENT = ("driver", "firmware", "mindspore")
ALL_PRESENT: FrozenSet[str] = frozenset(_KNOWN_IF_PRESENT)


@dataclass
class NodeFacts:
    """The sections of a report's Facts that node facts come from, by the same names and types (so
    comparable() takes Facts or NodeFacts): reading thousands of reports builds only these."""

    driver: DriverFacts = field(default_factory=DriverFacts)
    firmware: FirmwareFacts = field(default_factory=FirmwareFacts)
    npu: NpuSmiFacts = field(default_factory=NpuSmiFacts)
    cann: CannFacts = field(default_factory=CannFacts)
    mindspore: MindSporeFacts = field(default_factory=MindSporeFacts)
    python: PythonFacts = field(default_factory=PythonFacts)
    hccn: HccnFacts = field(default_factory=HccnFacts)
    launch: Optional[LaunchFacts] = None


def read_node_facts(report: Dict[str, Any]) -> Tuple[NodeFacts, FrozenSet[str]]:
    """The typed facts of a report, NODE_FIELDS only (the rest of each section keeps its default: these facts
    are for comparing nodes, not for judging them), and which of driver, firmware and mindspore the report
    holds. Raises FactsError (a ValueError) naming the first field of the wrong type."""
    data = report.get("facts") or {}
    facts = read_facts(NodeFacts, data, "facts", NODE_FIELDS)
    get = data.get
    if get("driver") and get("firmware") and get("mindspore"):  # every report this doctor writes
        return facts, ALL_PRESENT
    return facts, frozenset(n for n in _KNOWN_IF_PRESENT if get(n))


def _installed_version(section: Union[DriverFacts, FirmwareFacts, MindSporeFacts], present: bool) -> str:
    if not present:
        return UNKNOWN
    if section.version:
        return str(section.version)
    return NOT_INSTALLED if section.installed is False and not section.errors else UNKNOWN


def _cann(facts: Union[Facts, NodeFacts]) -> str:
    cann = facts.cann
    inst = cann.judged_install
    if inst is None:
        return NONE_FOUND if not cann.installs and not cann.errors else UNKNOWN
    return str(inst.release or inst.compiler_version or UNKNOWN)


def _npu(npu: NpuSmiFacts):
    if not npu.devices and not npu.available and not npu.dev_nodes:
        return UNKNOWN if npu.command_error or npu.errors else "0", UNKNOWN
    names = sorted({str(d.name or "?") for d in npu.devices})
    return str(npu.count), ", ".join(names) or UNKNOWN


# The parts of a report outside its facts that aggregate and baseline read, and the JSON type each must have.
# A report is another node's output (or a torn or hand-edited file): check the shape once here
# instead of trusting it in every reader. The facts are checked field by field as they are read
# (read_node_facts: FactsError names the field).
_SHAPE = (("host", dict, N_("field '{field}' is {type}, expected an object")),
          ("facts", dict, N_("field '{field}' is {type}, expected an object")),
          ("findings", list, N_("field '{field}' is {type}, expected a list")))


def report_shape_problem(report: Any, findings: bool = True) -> Optional[str]:
    """None when the parts of `report` that are read have the right JSON types, else 'field: what'.
    findings=False: the caller checks each finding itself (finding_shape_problem) as it reads them."""
    if not isinstance(report, dict):
        return _("top level is {type}, expected an object").format(type=type(report).__name__)
    for key, kind, message in _SHAPE:
        node = report.get(key)
        if node is not None and not isinstance(node, kind):
            return _(message).format(field=key, type=type(node).__name__)
    if findings:
        for i, f in enumerate(report.get("findings") or ()):
            problem = finding_shape_problem(f, i)
            if problem:
                return problem
    return None


def finding_shape_problem(f: Any, i: int) -> Optional[str]:
    """None when finding number `i` is an object whose fix and evidence have the right JSON types."""
    if type(f) is not dict and not isinstance(f, dict):  # the common case first: JSON objects are dicts
        return _("field '{field}' has an item that is not an object, expected an object per finding").format(
            field="findings")
    fix, evidence = f.get("fix"), f.get("evidence")
    if fix is not None and type(fix) is not list and not isinstance(fix, list):
        return _("field '{field}' is {type}, expected a list of steps").format(field=f"findings[{i}].fix",
                                                                           type=type(fix).__name__)
    if evidence is not None and type(evidence) is not dict and not isinstance(evidence, dict):
        return _("field '{field}' is {type}, expected an object").format(field=f"findings[{i}].evidence",
                                                                      type=type(evidence).__name__)
    return None


@functools.lru_cache(maxsize=4096)
def _shown(name: str, value: str) -> str:
    """shown_env_value, once per (name, value): the nodes of a job mostly share their HCCL settings."""
    return shown_env_value(name, value)


def comparable(facts: Union[Facts, NodeFacts], present: FrozenSet[str] = ALL_PRESENT) -> "OrderedDict[str, str]":
    """Facts that should agree across the job, as display-name -> value strings. `present`: which of driver,
    firmware and mindspore the facts hold (a report without them: unknown)."""
    out: "OrderedDict[str, str]" = OrderedDict()
    out[DRIVER] = _installed_version(facts.driver, "driver" in present)
    out[FIRMWARE] = _installed_version(facts.firmware, "firmware" in present)
    out[CANN] = _cann(facts)
    ms = facts.mindspore
    out[MINDSPORE] = (f"{ms.version} ({ms.flavour or '?'})" if ms.version
                      else _installed_version(ms, "mindspore" in present))
    out[PYTHON] = str(facts.python.version or UNKNOWN)
    out[NPU_COUNT], out[NPU_MODEL] = _npu(facts.npu)
    variables = facts.launch.variables if facts.launch is not None else {}
    for name, value in sorted(variables.items()):
        if name.startswith("HCCL_") and name not in PER_NODE_VARIABLES:
            # a report from an older doctor (or written by hand) may carry a secret: the one policy applies
            out[name] = _shown(name, value)
    return out


def comparable_facts(report: Dict[str, Any]) -> "OrderedDict[str, str]":
    """comparable() of a report's JSON (raises FactsError for facts of the wrong shape)."""
    return comparable(*read_node_facts(report))


# The NPU port settings that must be the same on every port of a job (display name, HccnDevice field); each
# device is compared, not each node: aggregate names the odd device out.
from .phrases import PORT_FEC, PORT_MTU, PORT_SPEED, TLS_SWITCH  # noqa: E402 (network.* checks name them too)
PORT_SETTINGS = ((TLS_SWITCH, "tls"), (PORT_MTU, "mtu"), (PORT_SPEED, "speed"), (PORT_FEC, "fec"))
PORT_NO_VALUE = (None, "Unknown")  # not answered, or a speed without a link (network.link says that)


def port_facts(facts: Union[Facts, NodeFacts]) -> Tuple[Dict[str, Dict[int, str]], Tuple[int, ...]]:
    """({setting: {device id: value}}, the devices whose link is not UP) of one node's hccn facts."""
    settings: Dict[str, Dict[int, str]] = {}
    down = []
    for d in facts.hccn.devices:
        for label, attr in PORT_SETTINGS:
            value = getattr(d, attr)
            if value not in PORT_NO_VALUE:
                settings.setdefault(label, {})[d.device_id] = str(value)
        if d.link is not None and d.link != "UP":
            down.append(d.device_id)
    return settings, tuple(down)


def node_name(facts: Union[Facts, NodeFacts]) -> Optional[str]:
    """The name a node's report goes by: the launch identity's (<host>-rank<N>), None when not collected."""
    return facts.launch.name if facts.launch is not None and facts.launch.name else None


def mindspore_version(value: str) -> str:
    """'2.3.0 (ascend)' -> '2.3.0' (the version part of the MindSpore comparable fact)."""
    return value.split(" ", 1)[0]
