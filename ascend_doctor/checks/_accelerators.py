"""What accelerators the facts show, in one place for the gpu, mindspore and advice checks.

A device counts as present on any hard evidence: a device list from the vendor
tool, device nodes (/dev/davinciN, /dev/nvidiaN), or a loaded driver.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from ..facts import CudaFacts, Facts
from ..i18n import N_, _


def npu_count(facts: Facts) -> int:
    return facts.npu.count or (1 if facts.driver.installed else 0)


def npu_present(facts: Facts) -> bool:
    return npu_count(facts) > 0


def npu_names(facts: Facts) -> List[str]:
    names = sorted({d.name for d in facts.npu.devices if d.name})
    if facts.npu.soc_family and not names:
        names = [facts.npu.soc_family]
    return names


def is_310_class(facts: Facts) -> bool:
    """Ascend 310 / 310P (inference SoCs: FP16/INT8 compute)."""
    soc = (facts.npu.soc_family or "").upper()
    if soc in ("310", "310P", "310B"):
        return True
    return any(re.search(r"310", n or "") for n in (d.name for d in facts.npu.devices))


def gpu_count(facts: Facts) -> int:
    cuda = facts.cuda
    if cuda.gpus:
        return len(cuda.gpus)
    if cuda.dev_nodes:
        return len(cuda.dev_nodes)
    return 1 if (cuda.kernel_module_version or cuda.driver_version or cuda.nvml_mismatch) else 0


def gpu_present(facts: Facts) -> bool:
    return gpu_count(facts) > 0


def gpu_names(facts: Facts) -> List[str]:
    return sorted({g.get("name") for g in facts.cuda.gpus if g.get("name")})


def accelerator_count(facts: Facts) -> int:
    return npu_count(facts) + gpu_count(facts)


def checked_as(facts: Facts) -> str:
    """What kind of host the report judged, for its verdict line: a report without an Ascend stack must
    not read "healthy" as if the Ascend stack had been checked."""
    from ._ascend import ascend_signs  # the one list of what says "this host is meant to run Ascend"

    gpu = gpu_present(facts)
    # Stored in English (the report's host info); the renderers show it in the run's language (i18n.lookup).
    if ascend_signs(facts):
        return N_("checked as an Ascend NPU and NVIDIA GPU host") if gpu else N_("checked as an Ascend NPU host")
    return N_("no Ascend NPU stack found \u2014 checked as a GPU host") if gpu else \
        N_("no Ascend NPU stack found \u2014 checked as a CPU host")


def device_phrase(facts: Facts) -> str:
    parts = []
    if npu_present(facts):
        names = npu_names(facts)
        parts.append((_("{count} Ascend NPU(s) ({names})") if names else _("{count} Ascend NPU(s)")).format(
            count=npu_count(facts), names=", ".join(names)))
    if gpu_present(facts):
        names = gpu_names(facts)
        parts.append((_("{count} NVIDIA GPU(s) ({names})") if names else _("{count} NVIDIA GPU(s)")).format(
            count=gpu_count(facts), names=", ".join(names)))
    if len(parts) == 2:
        return _("{npus} and {gpus}").format(npus=parts[0], gpus=parts[1])
    return parts[0] if parts else _("no NPU and no NVIDIA GPU")


def nvidia_driver_state(cuda: CudaFacts) -> Optional[Tuple[str, Dict[str, Any]]]:
    """The NVIDIA driver as the gpu checks see it (the same fields): (state, values), None when there is none at all.
    States: "version" (nvidia-smi's, agreeing with the kernel module or no module read), "module_mismatch",
    "nvml_mismatch", "module_smi_said" / "module" (a kernel module, nvidia-smi failing or silent), "userspace_only"
    (libraries, no module), "smi_said", "no_answer" (devices but no version). render.common words them."""
    smi, module = cuda.driver_version, cuda.kernel_module_version
    if smi:
        if module and module != smi:
            return "module_mismatch", {"version": smi, "module": module}
        return "version", {"version": smi}
    if cuda.nvml_mismatch:
        return "nvml_mismatch", {"module": module or None, "nvml": cuda.nvml_library_version or None}
    said = cuda.nvidia_smi_failure or cuda.nvidia_smi_unusable
    if module:
        if said:
            return "module_smi_said", {"module": module, "said": said}
        return "module", {"module": module}
    libs = sorted({e.get("version") for e in cuda.userspace_driver_libs if e.get("version")})
    if libs:
        return "userspace_only", {"versions": libs}
    if said:
        return "smi_said", {"said": said}
    if cuda.dev_nodes or cuda.gpus:
        return "no_answer", {}
    return None
