"""Which device the smoke trains on: the one the user will use, decided from the probed facts.

Ascend when an NPU driver, a CANN install and an Ascend build of MindSpore are
all present; GPU when a CUDA build of MindSpore meets a visible GPU; CPU
otherwise. Each reason is kept so the report says why that device was chosen.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from ..facts import Facts

DEVICES = ("ascend", "gpu", "cpu")


def detect_device(facts: Facts) -> Tuple[str, List[str]]:
    """(device, reasons): the reasons say what was found and what was missing."""
    ms = facts.mindspore
    flavour = (ms.flavour or "").lower()
    npu_seen = facts.npu.count > 0
    driver = facts.driver.installed or npu_seen
    cann = bool(facts.cann.installs)
    reasons: List[str] = []
    if flavour == "ascend":
        missing = [what for what, ok in (("NPU driver", driver), ("CANN", cann)) if not ok]
        if not missing:
            return "ascend", [f"MindSpore {ms.version or ''} is an Ascend build, NPU driver and CANN are installed"
                              .replace("  ", " ")]
        reasons.append(f"MindSpore is an Ascend build but {' and '.join(missing)} not found")
    elif driver and cann:
        reasons.append(f"NPU driver and CANN are installed but MindSpore is {_describe_flavour(ms)}")
    if flavour == "gpu":
        if facts.cuda.gpus:
            return "gpu", reasons + [f"MindSpore is a CUDA build and {len(facts.cuda.gpus)} GPU(s) are visible"]
        reasons.append("MindSpore is a CUDA build but no GPU is visible (nvidia-smi)")
    reasons.append("using the CPU")
    return "cpu", reasons


def _describe_flavour(ms) -> str:
    if not ms.installed and not ms.flavour:
        return "not found by the probe"
    return f"a {ms.flavour or 'unknown'} build"


def ascend_soc_version(facts: Facts) -> Optional[str]:
    """The --soc_version ATC wants (Ascend910B1, Ascend310P3 ...), from npu-smi's chip name; None when unknown."""
    for dev in facts.npu.devices:
        name = (dev.name or "").strip()
        if not name:
            continue
        name = name.split()[0]
        if not name.lower().startswith("ascend"):
            name = "Ascend" + name
        return name
    return None
