"""What every human-readable renderer shares: grouping, ordering and the facts summary."""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple, Union

from ..facts import CudaFacts, Facts, FactsError
from ..findings import FAIL, ERROR, PASS, SKIP, WARN, Finding, Report
from ..versions import major_minor

AREA_TITLES = {
    "doctor": "ascend-doctor itself",
    "system": "Host system",
    "resources": "Host resources",
    "install": "Installation (driver, firmware, CANN)",
    "compat": "Version compatibility",
    "devices": "NPU devices",
    "gpu": "GPU / CUDA",
    "mindspore": "MindSpore",
    "env": "Launch environment",
    "hccl": "HCCL configuration",
    "rank_table": "Rank table",
    "smoke": "Smoke training",
    "advice": "Advice for this machine",
    "baseline": "Drift from baseline",
    "preflight": "Pre-flight",
}

ORDER = {FAIL: 0, ERROR: 1, WARN: 2, PASS: 3, SKIP: 4}
LABEL = {FAIL: "FAIL", ERROR: "ERROR", WARN: "WARN", PASS: "ok", SKIP: "skip"}


def area_title(area: str) -> str:
    return AREA_TITLES.get(area, area.replace("_", " ").capitalize())


def grouped(report: Report) -> List[Tuple[str, List[Finding]]]:
    """Areas with problems first (worst first), then the rest; inside, worst first."""
    areas: Dict[str, List[Finding]] = {}
    for f in report.findings:
        areas.setdefault(f.area, []).append(f)
    for items in areas.values():
        items.sort(key=lambda f: ORDER[f.status])  # stable: keeps the checks' own order (smoke: stage order)
    return sorted(areas.items(), key=lambda kv: (min(ORDER[f.status] for f in kv[1]), kv[0]))


def nvidia_driver_state(cuda: CudaFacts) -> Optional[str]:
    """The NVIDIA driver as the gpu checks see it (the same fields), or None when there is none at all."""
    smi, module = cuda.driver_version, cuda.kernel_module_version
    if smi:
        return smi + (f" (kernel module {module}: mismatch)" if module and module != smi else "")
    if cuda.nvml_mismatch:
        return (f"kernel module {module or 'unknown'}, user-space (NVML) {cuda.nvml_library_version or 'unknown'}"
                ": mismatch, nvidia-smi fails")
    said = cuda.nvidia_smi_failure or cuda.nvidia_smi_unusable
    if module:
        return f"kernel module {module}" + (f" (nvidia-smi: {said})" if said else "")
    libs = sorted({e.get("version") for e in cuda.userspace_driver_libs if e.get("version")})
    if libs:
        return f"user-space libraries {', '.join(libs)}, no kernel module loaded"
    if said:
        return f"unknown (nvidia-smi: {said})"
    if cuda.dev_nodes or cuda.gpus:
        return "unknown (/dev/nvidia* present, nvidia-smi did not answer)"
    return None


def _nvidia_rows(cuda: CudaFacts) -> List[Tuple[str, str]]:
    driver = nvidia_driver_state(cuda)
    runtimes = sorted({r.get("version", "?") for r in cuda.runtime_libs})
    rows: List[Tuple[str, str]] = []
    if driver:
        rows.append(("NVIDIA driver", driver))
        rows.append(("CUDA runtime", ", ".join(runtimes) or cuda.toolkit_version or "not found"))
    elif runtimes or cuda.toolkit_version:
        # A toolkit under /usr/local/cuda with no driver runs nothing here: say so, not "CUDA runtime 13.0.96".
        mms = sorted({major_minor(v) or v for v in runtimes or [cuda.toolkit_version]})
        rows.append(("CUDA toolkit", f"{', '.join(mms)} (no NVIDIA driver: unused)"))
        return rows
    if driver and cuda.cudnn_version:
        rows.append(("cuDNN", cuda.cudnn_version))
    return rows


def _planned_summary(facts: Facts) -> List[Tuple[str, str]]:
    """The versions of a planned install (`matrix check`): what was given, nothing "installed" or "not found"."""
    rows = [("Target", f"{facts.system.arch or 'unknown architecture'} (planned)")]
    for part, label in ((facts.python, "Python"), (facts.driver, "NPU driver"), (facts.firmware, "NPU firmware")):
        if part.version:
            rows.append((label, f"{part.version} (planned)"))
    for inst in facts.cann.installs:
        rows.append(("CANN", f"{inst.release or 'unknown release'} (planned)"))
    for lib in facts.cuda.runtime_libs:
        rows.append(("CUDA", f"{lib.get('version')} (planned)"))
    if facts.mindspore.version:
        rows.append(("MindSpore", f"{facts.mindspore.version} (planned)"))
    return rows


def typed_facts(facts: Union[Facts, dict]) -> Facts:
    """A report's facts as the typed Facts (a report's JSON, or already typed). Facts of the wrong shape (a
    hand-edited file) show as unknown rather than stop the renderer."""
    if isinstance(facts, Facts):
        return facts
    try:
        typed = Facts.from_json(facts)
    except FactsError:
        return Facts()
    if isinstance(facts.get("extra"), dict) and facts["extra"].get("planned"):  # reports before facts.planned
        typed.planned = True
    return typed


def facts_summary(facts: Union[Facts, dict]) -> List[Tuple[str, str]]:
    """The one-line-per-component version table at the top of a report."""
    facts = typed_facts(facts)
    if facts.planned:
        return _planned_summary(facts)
    rows: List[Tuple[str, str]] = []
    s = facts.system
    os_line = " ".join(x for x in [s.os_name or "unknown OS", s.arch or "", f"kernel {s.kernel}" if s.kernel else ""] if x)
    rows.append(("OS", os_line))
    py = facts.python
    chosen = py.chosen_by or "doctor"
    why = "" if chosen == "doctor" else f", from {chosen}" if chosen == "--python" else f", the activated {chosen}"
    rows.append(("Python", f"{py.version or 'unknown'} ({py.executable or '?'}{why})"))
    drv, fw = facts.driver, facts.firmware
    if drv.installed or fw.installed:
        rows.append(("NPU driver", drv.version or "unknown"))
        rows.append(("NPU firmware", fw.version or "unknown"))
    devices = facts.npu.devices
    if devices:
        names = sorted({d.name or "?" for d in devices})
        rows.append(("NPUs", f"{len(devices)} × {', '.join(names)}"))
    for inst in facts.cann.installs:
        mark = " (active)" if inst.active else ""
        rows.append((f"CANN {inst.kind}", f"{inst.release or 'unknown release'} at {inst.root}{mark}"))
    rows.extend(_nvidia_rows(facts.cuda))
    ms = facts.mindspore
    if ms.installed:
        flav = ms.flavour or "unknown build"
        if ms.cuda_version:
            flav += f", CUDA {ms.cuda_version}"
        rows.append(("MindSpore", f"{ms.version} ({flav}) in {ms.location}"))
    else:
        rows.append(("MindSpore", "not installed in this Python"))
    return rows


def matrix_summary(tool: dict) -> List[Tuple[str, str]]:
    """The header row naming the compatibility matrix the verdicts used: version, bundled or cached, origin."""
    info = tool.get("matrix") if isinstance(tool, dict) else None
    if not isinstance(info, dict) or not info.get("version"):
        return []
    where = "bundled" if info.get("source") == "bundled" else f"cached {info.get('source')}"
    if info.get("from"):
        where += f", from {info['from']}"
    return [("Compat matrix", f"{info['version']} ({where})")]
