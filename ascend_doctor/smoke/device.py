"""Which device the smoke trains on: the one the user will use, decided from the probed facts.

Ascend when an NPU driver, a CANN install and an Ascend build of MindSpore are
all present; GPU when a CUDA build of MindSpore meets a visible GPU; CPU
otherwise. Each reason is kept so the report says why that device was chosen.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from ..facts import Facts
from ..i18n import _

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
            return "ascend", [_("MindSpore {version} is an Ascend build, NPU driver and CANN are installed")
                              .format(version=ms.version or "").replace("  ", " ")]
        reasons.append({("NPU driver",): _("MindSpore is an Ascend build but NPU driver not found"),
                        ("CANN",): _("MindSpore is an Ascend build but CANN not found")}.get(
                            tuple(missing), _("MindSpore is an Ascend build but NPU driver and CANN not found")))
    elif driver and cann:
        reasons.append(_describe_flavour(ms))
    if flavour == "gpu":
        if facts.cuda.gpus:
            return "gpu", reasons + [_("MindSpore is a CUDA build and {count} GPU(s) are visible").format(
                count=len(facts.cuda.gpus))]
        reasons.append(_("MindSpore is a CUDA build but no GPU is visible (nvidia-smi)"))
    reasons.append(_("using the CPU"))
    return "cpu", reasons


def _describe_flavour(ms) -> str:
    if not ms.installed and not ms.flavour:
        return _("NPU driver and CANN are installed but MindSpore is not found by the probe")
    return _("NPU driver and CANN are installed but MindSpore is a {flavour} build").format(flavour=ms.flavour or "unknown")


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
