"""What every human-readable renderer shares: grouping, ordering and the facts summary."""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

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


def nvidia_driver_state(cuda: dict) -> Optional[str]:
    """The NVIDIA driver as the gpu checks see it (the same fields), or None when there is none at all."""
    smi, module = cuda.get("driver_version"), cuda.get("kernel_module_version")
    if smi:
        return smi + (f" (kernel module {module}: mismatch)" if module and module != smi else "")
    if cuda.get("nvml_mismatch"):
        return (f"kernel module {module or 'unknown'}, user-space (NVML) {cuda.get('nvml_library_version') or 'unknown'}"
                ": mismatch, nvidia-smi fails")
    said = cuda.get("nvidia_smi_failure") or cuda.get("nvidia_smi_unusable")
    if module:
        return f"kernel module {module}" + (f" (nvidia-smi: {said})" if said else "")
    libs = sorted({e.get("version") for e in cuda.get("userspace_driver_libs") or [] if e.get("version")})
    if libs:
        return f"user-space libraries {', '.join(libs)}, no kernel module loaded"
    if said:
        return f"unknown (nvidia-smi: {said})"
    if cuda.get("dev_nodes") or cuda.get("gpus"):
        return "unknown (/dev/nvidia* present, nvidia-smi did not answer)"
    return None


def _nvidia_rows(cuda: dict) -> List[Tuple[str, str]]:
    driver = nvidia_driver_state(cuda)
    runtimes = sorted({r.get("version", "?") for r in cuda.get("runtime_libs") or []})
    rows: List[Tuple[str, str]] = []
    if driver:
        rows.append(("NVIDIA driver", driver))
        rows.append(("CUDA runtime", ", ".join(runtimes) or cuda.get("toolkit_version") or "not found"))
    elif runtimes or cuda.get("toolkit_version"):
        # A toolkit under /usr/local/cuda with no driver runs nothing here: say so, not "CUDA runtime 13.0.96".
        mms = sorted({major_minor(v) or v for v in runtimes or [cuda.get("toolkit_version")]})
        rows.append(("CUDA toolkit", f"{', '.join(mms)} (no NVIDIA driver: unused)"))
        return rows
    if driver and cuda.get("cudnn_version"):
        rows.append(("cuDNN", cuda["cudnn_version"]))
    return rows


def _planned_summary(facts: dict) -> List[Tuple[str, str]]:
    """The versions of a planned install (`matrix check`): what was given, nothing "installed" or "not found"."""
    rows = [("Target", f"{(facts.get('system') or {}).get('arch') or 'unknown architecture'} (planned)")]
    for key, label in (("python", "Python"), ("driver", "NPU driver"), ("firmware", "NPU firmware")):
        if (facts.get(key) or {}).get("version"):
            rows.append((label, f"{facts[key]['version']} (planned)"))
    for inst in (facts.get("cann") or {}).get("installs") or []:
        rows.append(("CANN", f"{inst.get('release') or 'unknown release'} (planned)"))
    for lib in (facts.get("cuda") or {}).get("runtime_libs") or []:
        rows.append(("CUDA", f"{lib.get('version')} (planned)"))
    ms = facts.get("mindspore") or {}
    if ms.get("version"):
        rows.append(("MindSpore", f"{ms['version']} (planned)"))
    return rows


def facts_summary(facts: dict) -> List[Tuple[str, str]]:
    """The one-line-per-component version table at the top of a report."""
    if facts.get("planned") or (facts.get("extra") or {}).get("planned"):  # extra.planned: older reports
        return _planned_summary(facts)
    rows: List[Tuple[str, str]] = []
    s = facts.get("system") or {}
    os_line = " ".join(x for x in [s.get("os_name") or "unknown OS", s.get("arch") or "", f"kernel {s['kernel']}" if s.get("kernel") else ""] if x)
    rows.append(("OS", os_line))
    py = facts.get("python") or {}
    chosen = py.get("chosen_by") or "doctor"
    why = "" if chosen == "doctor" else f", from {chosen}" if chosen == "--python" else f", the activated {chosen}"
    rows.append(("Python", f"{py.get('version') or 'unknown'} ({py.get('executable') or '?'}{why})"))
    drv = facts.get("driver") or {}
    fw = facts.get("firmware") or {}
    if drv.get("installed") or fw.get("installed"):
        rows.append(("NPU driver", drv.get("version") or "unknown"))
        rows.append(("NPU firmware", fw.get("version") or "unknown"))
    npu = facts.get("npu") or {}
    devices = npu.get("devices") or []
    if devices:
        names = sorted({d.get("name") or "?" for d in devices})
        rows.append(("NPUs", f"{len(devices)} × {', '.join(names)}"))
    cann = facts.get("cann") or {}
    for inst in cann.get("installs") or []:
        mark = " (active)" if inst.get("active") else ""
        rows.append((f"CANN {inst.get('kind')}", f"{inst.get('release') or 'unknown release'} at {inst.get('root')}{mark}"))
    rows.extend(_nvidia_rows(facts.get("cuda") or {}))
    ms = facts.get("mindspore") or {}
    if ms.get("installed"):
        flav = ms.get("flavour") or "unknown build"
        if ms.get("cuda_version"):
            flav += f", CUDA {ms['cuda_version']}"
        rows.append(("MindSpore", f"{ms.get('version')} ({flav}) in {ms.get('location')}"))
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
