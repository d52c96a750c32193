"""What every human-readable renderer shares: grouping, ordering and the facts summary."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple, Union

from ..facts import CudaFacts, Facts, FactsError
from ..findings import FAIL, ERROR, PASS, SKIP, WARN, Finding, Report
from ..i18n import N_, _, get_lang, lookup
from ..versions import major_minor

# Marked here, translated where shown (area_title): the module is imported before the language is chosen.
AREA_TITLES = {
    "doctor": N_("ascend-doctor itself"),
    "system": N_("Host system"),
    "resources": N_("Host resources"),
    "install": N_("Installation (driver, firmware, CANN)"),
    "compat": N_("Version compatibility"),
    "devices": N_("NPU devices"),
    "gpu": N_("GPU / CUDA"),
    "mindspore": N_("MindSpore"),
    "env": N_("Launch environment"),
    "hccl": N_("HCCL configuration"),
    "rank_table": N_("Rank table"),
    "network": N_("NPU network ports (RoCE)"),
    "smoke": N_("Smoke training"),
    "advice": N_("Advice for this machine"),
    "baseline": N_("Drift from baseline"),
    "preflight": N_("Pre-flight"),
}

ORDER = {FAIL: 0, ERROR: 1, WARN: 2, PASS: 3, SKIP: 4}
# A finding's status tag (English: the words CI logs grep for); translated by status_label.
LABEL = {FAIL: N_("FAIL"), ERROR: N_("ERROR"), WARN: N_("WARN"), PASS: N_("ok"), SKIP: N_("skip")}


def area_title(area: str) -> str:
    return _(AREA_TITLES[area]) if area in AREA_TITLES else area.replace("_", " ").capitalize()


INFO_LABEL = N_("info")
# A passing advice finding is a suggestion, not a repair: its tag and the head of its steps say so
TIP_LABEL = N_("tip")
TRY_LABEL = N_("to try:")


def is_tip(finding) -> bool:
    """Advice that applies (status pass): shown with its steps, as a tip to try, never as 'ok' with a fix."""
    return finding.status == PASS and finding.area == "advice" and bool(finding.fix)


# A CANN install kind in the header of a report: the install guide's name of the package in Chinese
# (开发套件包), the kind itself in English (the catalog has no English entry, so _() gives the msgid back).
INSTALL_KINDS = {"toolkit": N_("install kind|toolkit"), "nnae": N_("install kind|nnae"),
                 "nnrt": N_("install kind|nnrt")}


def status_label(status: str) -> str:
    """The status tag of a finding in the current language ("FAIL", "失败")."""
    return _(LABEL[status])


def severity_tag(severity: str) -> str:
    """The tag of a triage problem or a rank-table problem: a finding's status tag for fail/warn ("FAIL", 失败),
    "info" (提示) for the harmless ones."""
    return status_label(severity) if severity in LABEL else _(INFO_LABEL)


def node_words(value: Any) -> Any:
    """A text from a node's saved report (a summary, a fix line, an evidence value), written in the language that
    node ran in (nodes usually run in English), shown in the current language where it is recognised as the
    doctor's own words (phrases.reword_stored); data and anything unrecognised are shown as the node wrote them."""
    if getattr(value, "localized", None) is not None:  # a report/2 text (i18n_text.Text): its message, worded
        return value.localized()
    if get_lang() == "en" or not isinstance(value, str):
        return value
    from ..phrases import reword_stored

    return reword_stored(value)


def joined(items) -> str:
    """Items of a list as a reader writes them: "a, b" in English, "a、b" in Chinese."""
    return ("、" if get_lang() == "zh" else ", ").join(items)


def verdict_scope(host: dict) -> str:
    """What the verdict covers ("checked as an Ascend NPU host"), in the current language; "" when unknown.
    The host block keeps the English phrase (a saved report is judged again in any language)."""
    return lookup(host.get("checked_as") or "")


# The four phrases checks/_accelerators.checked_as writes into a report's host block, shown in the verdict
CHECKED_AS = (N_("checked as an Ascend NPU host"), N_("checked as an Ascend NPU and NVIDIA GPU host"),
              N_("no Ascend NPU stack found \u2014 checked as a GPU host"),
              N_("no Ascend NPU stack found \u2014 checked as a CPU host"))


def grouped(report: Report) -> List[Tuple[str, List[Finding]]]:
    """Areas with problems first (worst first), then the rest; inside, worst first."""
    areas: Dict[str, List[Finding]] = {}
    for f in report.findings:
        areas.setdefault(f.area, []).append(f)
    for items in areas.values():
        items.sort(key=lambda f: ORDER[f.status])  # stable: keeps the checks' own order (smoke: stage order)
    return sorted(areas.items(), key=lambda kv: (min(ORDER[f.status] for f in kv[1]), kv[0]))


def shown_areas(report: Report) -> Tuple[List[Tuple[str, List[Finding]]], List[str]]:
    """`grouped` split for a report page: the areas with a finding that is not a skip, and the labels
    ("Area (count)") of the areas whose every check was skipped, named once at the end."""
    shown, all_skipped = [], []
    for area, items in grouped(report):
        if all(f.status == SKIP for f in items):
            all_skipped.append(_("{area} ({count})").format(area=area_title(area), count=len(items)))
        else:
            shown.append((area, items))
    return shown, all_skipped


def shown_in_full(area: str) -> Tuple[str, ...]:
    """The statuses a report shows with summary, evidence and fix (the rest on one line). Advice is only emitted
    when it applies, so it is shown in full like a problem."""
    return (FAIL, ERROR, WARN, PASS) if area == "advice" else (FAIL, ERROR, WARN)


# How the NVIDIA driver's state (checks/_accelerators.nvidia_driver_state, the judgement) is worded.
NVIDIA_DRIVER_WORDS = {
    "module_mismatch": N_("{version} (kernel module {module}: mismatch)"),
    "nvml_mismatch": N_("kernel module {module}, user-space (NVML) {nvml}: mismatch, nvidia-smi fails"),
    "module_smi_said": N_("kernel module {module} (nvidia-smi: {said})"),
    "module": N_("kernel module {module}"),
    "userspace_only": N_("user-space libraries {versions}, no kernel module loaded"),
    "smi_said": N_("unknown (nvidia-smi: {said})"),
    "no_answer": N_("unknown (/dev/nvidia* present, nvidia-smi did not answer)"),
}


def nvidia_driver_text(cuda: CudaFacts) -> Optional[str]:
    """The NVIDIA driver's state in words, or None when there is none at all."""
    from ..checks._accelerators import nvidia_driver_state

    state = nvidia_driver_state(cuda)
    if state is None:
        return None
    kind, values = state
    if kind == "version":
        return values["version"]
    shown = {k: _("unknown") if v is None else joined(v) if isinstance(v, list) else v for k, v in values.items()}
    return _(NVIDIA_DRIVER_WORDS[kind]).format(**shown)


def _nvidia_rows(cuda: CudaFacts) -> List[Tuple[str, str]]:
    driver = nvidia_driver_text(cuda)
    runtimes = sorted({r.get("version", "?") for r in cuda.runtime_libs})
    rows: List[Tuple[str, str]] = []
    if driver:
        rows.append((_("NVIDIA driver"), driver))
        rows.append((_("CUDA runtime"), joined(runtimes) or cuda.toolkit_version or _("not found")))
    elif runtimes or cuda.toolkit_version:
        # A toolkit under /usr/local/cuda with no driver runs nothing here: say so, not "CUDA runtime 13.0.96".
        mms = sorted({major_minor(v) or v for v in runtimes or [cuda.toolkit_version]})
        rows.append((_("CUDA toolkit"), _("{versions} (no NVIDIA driver: unused)").format(versions=joined(mms))))
        return rows
    if driver and cuda.cudnn_version:
        rows.append(("cuDNN", cuda.cudnn_version))
    return rows


def _planned_summary(facts: Facts) -> List[Tuple[str, str]]:
    """The versions of a planned install (`matrix check`): what was given, nothing "installed" or "not found"."""
    planned = _("{version} (planned)")
    rows = [(_("Target"), planned.format(version=facts.system.arch or _("unknown architecture")))]
    for part, label in ((facts.python, "Python"), (facts.driver, _("NPU driver")), (facts.firmware, _("NPU firmware"))):
        if part.version:
            rows.append((label, planned.format(version=part.version)))
    for inst in facts.cann.installs:
        rows.append(("CANN", planned.format(version=inst.release or _("unknown release"))))
    if facts.cuda.driver_version:
        rows.append((_("NVIDIA driver"), planned.format(version=facts.cuda.driver_version)))
    for lib in facts.cuda.runtime_libs:
        rows.append(("CUDA", planned.format(version=lib.get("version"))))
    if facts.mindspore.version:
        rows.append(("MindSpore", planned.format(version=facts.mindspore.version)))
    return rows


def typed_facts(facts: Union[Facts, dict]) -> Facts:
    """A report's facts as the typed Facts (a report's JSON, or already typed). Facts of the wrong shape (a
    hand-edited file) show as unknown rather than stop the renderer."""
    if isinstance(facts, Facts):
        return facts
    try:
        return Facts.from_json(facts)  # converts older reports too (extra.planned: before facts.planned)
    except FactsError:
        return Facts()


def facts_summary(facts: Union[Facts, dict]) -> List[Tuple[str, str]]:
    """The one-line-per-component version table at the top of a report (labels and words in the current
    language; versions, paths and names as found)."""
    facts = typed_facts(facts)
    if facts.planned:
        return _planned_summary(facts)
    rows: List[Tuple[str, str]] = []
    s = facts.system
    kernel = _("kernel {kernel}").format(kernel=s.kernel) if s.kernel else ""
    os_line = ("，" if get_lang() == "zh" else " ").join(x for x in [s.os_name or _("unknown OS"), s.arch or "", kernel]
                                                       if x)  # "未知操作系统，aarch64，内核 5.10.0" in Chinese
    rows.append((_("OS"), os_line))
    py = facts.python
    chosen = py.chosen_by or "doctor"
    values = {"version": py.version or _("unknown"), "executable": py.executable or "?", "chosen": chosen}
    if chosen == "doctor":
        python = _("{version} ({executable})").format(**values)
    elif chosen == "--python":
        python = _("{version} ({executable}, from {chosen})").format(**values)
    else:
        python = _("{version} ({executable}, the activated {chosen})").format(**values)
    rows.append(("Python", python))
    drv, fw = facts.driver, facts.firmware
    if drv.installed or fw.installed:
        rows.append((_("NPU driver"), drv.version or _("unknown")))
        rows.append((_("NPU firmware"), fw.version or _("unknown")))
    devices = facts.npu.devices
    if devices:
        names = sorted({d.name or "?" for d in devices})
        rows.append((_("NPUs"), f"{len(devices)} × {', '.join(names)}"))
    for inst in facts.cann.installs:
        where = _("{release} at {root} (active)") if inst.active else _("{release} at {root}")
        kind = _(INSTALL_KINDS[inst.kind]) if inst.kind in INSTALL_KINDS else inst.kind
        kind = inst.kind if kind == INSTALL_KINDS.get(inst.kind) else kind
        rows.append((f"CANN {kind}", where.format(release=inst.release or _("unknown release"), root=inst.root)))
    rows.extend(_nvidia_rows(facts.cuda))
    ms = facts.mindspore
    if ms.installed:
        flav = ms.flavour or _("unknown build")
        if ms.cuda_version:
            flav = joined([flav, f"CUDA {ms.cuda_version}"])  # "gpu, CUDA 11.1"; "gpu、CUDA 11.1" in Chinese
        rows.append(("MindSpore", _("{version} ({build}) in {location}").format(
            version=ms.version, build=flav, location=ms.location)))
    else:
        rows.append(("MindSpore", _("not installed in this Python")))
    return rows


def matrix_summary(tool: dict) -> List[Tuple[str, str]]:
    """The header row naming the compatibility matrix the verdicts used: version, bundled or cached, origin."""
    info = tool.get("matrix") if isinstance(tool, dict) else None
    if not isinstance(info, dict) or not info.get("version"):
        return []
    values = {"version": info["version"], "source": info.get("source"), "origin": info.get("from")}
    if info.get("source") == "bundled":
        text = _("{version} (bundled, from {origin})") if info.get("from") else _("{version} (bundled)")
    else:
        text = _("{version} (cached {source}, from {origin})") if info.get("from") else _("{version} (cached {source})")
    return [(_("Compat matrix"), text.format(**values))]


# The disruption of a plan step, as a reader sees it (the JSON keeps the English level).
PLAN_LEVEL_LABELS = {
    "shell": N_("this shell"),
    "config": N_("a setting"),
    "python": N_("Python packages"),
    "cann": N_("CANN install"),
    "driver": N_("driver/firmware"),
    "hardware": N_("hardware"),
}

BY_HAND_LABEL = N_("by hand")


def plan_step_tag(step) -> str:
    """'[Python packages]', '[driver/firmware, needs root, reboot]': how disruptive a plan step is."""
    from ..fix_script import is_prose

    level = _(PLAN_LEVEL_LABELS.get(step.level, step.level))
    if is_prose(step.do):  # a sentence is no command to paste: done by hand (at its level, unless the shell's)
        parts = [_(BY_HAND_LABEL)] + ([] if step.level == "shell" else [level])
    else:
        parts = [level]
    if step.needs_root:
        parts.append(_("needs root"))
    if step.reboot:
        parts.append(_("reboot"))
    return "[" + _(", ").join(parts) + "]"


def alternative_label(why: str) -> str:
    """The line before a finding's or a plan's alternative: it is another way, not a further step."""
    return _("or, instead ({why}):").format(why=why) if why else _("or, instead:")


def plan_lines(plan) -> List[str]:
    """The plan as numbered lines without indentation or wrapping (text and Markdown lay them out):
    [(kind, text)] with kind heading | step | resolves | unresolved | alternative | alt_step."""
    out = []
    for i, step in enumerate(plan.steps, 1):
        out.append(("step", f"{i}. {plan_step_tag(step)} {step.do}"))
        if step.resolves:
            out.append(("resolves", _("clears: {ids}").format(ids=joined(step.resolves))))
    if plan.unresolved:
        out.append(("unresolved", _("no step clears: {ids} (see each finding's evidence)").format(
            ids=joined(plan.unresolved))))
    for alt in plan.alternatives:
        out.append(("alternative", alternative_label(alt["why"])))
        for i, step in enumerate(alt["steps"], 1):
            out.append(("alt_step", f"{i}. {plan_step_tag(step)} {step.do}"))
    return out
