"""The facts that must be equal on every node of a job, read from a JSON report.

`aggregate` groups nodes by these to find skew (one node on another driver hangs
HCCL init for the whole job, P13); `baseline` compares them with a trusted node.
Input is the report's JSON (report["facts"]), so both work on files from any node.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Dict, Optional

from .redact import shown_env_value

UNKNOWN = "unknown"
UNSET = "(unset)"

# HCCL variables that legitimately differ per node (each node's own interface address).
PER_NODE_VARIABLES = frozenset({"HCCL_IF_IP"})

# Display names, in the order reports show them.
DRIVER, FIRMWARE, CANN, MINDSPORE, PYTHON, NPU_COUNT, NPU_MODEL = (
    "NPU driver", "NPU firmware", "CANN", "MindSpore", "Python", "NPU count", "NPU model")
VERSION_KEYS = (DRIVER, FIRMWARE, CANN, MINDSPORE, PYTHON)


def _installed_version(section: Dict[str, Any]) -> str:
    if not section:
        return UNKNOWN
    if section.get("version"):
        return str(section["version"])
    return "not installed" if section.get("installed") is False and not section.get("errors") else UNKNOWN


def _cann(cann: Dict[str, Any]) -> str:
    installs = cann.get("installs") or []
    chosen = [i for i in installs if i.get("active")] or (installs if len(installs) == 1 else [])
    if not chosen:
        return "none found" if not installs and not cann.get("errors") else UNKNOWN
    inst = chosen[0]
    return str(inst.get("release") or inst.get("compiler_version") or UNKNOWN)


def _npu(npu: Dict[str, Any]):
    devices = npu.get("devices") or []
    if not devices and not npu.get("available") and not npu.get("dev_nodes"):
        return UNKNOWN if npu.get("command_error") or npu.get("errors") else "0", UNKNOWN
    names = sorted({str(d.get("name") or "?") for d in devices})
    return str(len(devices) or len(npu.get("dev_nodes") or [])), ", ".join(names) or UNKNOWN


# The parts of a report that aggregate and baseline read, and the JSON type each must have.
# A report is another node's output (or a torn or hand-edited file): check the shape once here
# instead of trusting it in every reader.
_SHAPE = (
    (("host",), dict), (("facts",), dict), (("findings",), list),
    (("facts", "driver"), dict), (("facts", "firmware"), dict), (("facts", "cann"), dict),
    (("facts", "cann", "installs"), list), (("facts", "mindspore"), dict), (("facts", "python"), dict),
    (("facts", "npu"), dict), (("facts", "npu", "devices"), list), (("facts", "npu", "dev_nodes"), list),
    (("facts", "extra"), dict), (("facts", "extra", "launch"), dict),
    (("facts", "extra", "launch", "variables"), dict), (("facts", "extra", "launch", "addresses"), list),
    (("facts", "extra", "launch", "rank_table"), dict),
)


def report_shape_problem(report: Any) -> Optional[str]:
    """None when the parts of `report` that are read have the right JSON types, else 'field: what'."""
    if not isinstance(report, dict):
        return f"top level is {type(report).__name__}, expected an object"
    for path, kind in _SHAPE:
        node: Any = report
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if node is not None and not isinstance(node, kind):
            return (f"field '{'.'.join(path)}' is {type(node).__name__}, "
                    f"expected {'an object' if kind is dict else 'a list'}")
    lists = (("findings", "an object per finding"), ("facts.cann.installs", "an object per install"),
             ("facts.npu.devices", "an object per device"))
    for dotted, what in lists:
        node = report
        for key in dotted.split("."):
            node = node.get(key) if isinstance(node, dict) else None
        if node and not all(isinstance(x, dict) for x in node):
            return f"field '{dotted}' has an item that is not an object, expected {what}"
    for i, f in enumerate(report.get("findings") or []):
        if f.get("fix") is not None and not isinstance(f["fix"], list):
            return f"field 'findings[{i}].fix' is {type(f['fix']).__name__}, expected a list of steps"
        if f.get("evidence") is not None and not isinstance(f["evidence"], dict):
            return f"field 'findings[{i}].evidence' is {type(f['evidence']).__name__}, expected an object"
    return None


def comparable_facts(report: Dict[str, Any]) -> "OrderedDict[str, str]":
    """Facts that should agree across the job, as display-name -> value strings."""
    facts = report.get("facts") or {}
    out: "OrderedDict[str, str]" = OrderedDict()
    out[DRIVER] = _installed_version(facts.get("driver") or {})
    out[FIRMWARE] = _installed_version(facts.get("firmware") or {})
    out[CANN] = _cann(facts.get("cann") or {})
    ms = facts.get("mindspore") or {}
    out[MINDSPORE] = (f"{ms['version']} ({ms.get('flavour') or '?'})" if ms.get("version")
                      else _installed_version(ms))
    out[PYTHON] = str((facts.get("python") or {}).get("version") or UNKNOWN)
    out[NPU_COUNT], out[NPU_MODEL] = _npu(facts.get("npu") or {})
    launch = (facts.get("extra") or {}).get("launch") or {}
    for name, value in sorted((launch.get("variables") or {}).items()):
        if name.startswith("HCCL_") and name not in PER_NODE_VARIABLES:
            # a report from an older doctor (or written by hand) may carry a secret: the one policy applies
            out[name] = shown_env_value(name, value)
    return out


def mindspore_version(value: str) -> str:
    """'2.3.0 (ascend)' -> '2.3.0' (the version part of the MindSpore comparable fact)."""
    return value.split(" ", 1)[0]
