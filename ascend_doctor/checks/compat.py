"""Version compatibility (pitfall P07 and friends): MindSpore <-> CANN <-> driver <-> firmware,
Python <-> MindSpore wheel, MindSpore GPU <-> CUDA/cuDNN, bundled custom ops <-> CANN.

Every verdict compares versions the probes found with a row of the compatibility
matrix (data/compat_matrix.json) and shows both, with the row's source. Where the
matrix has no row, the verdict is "unknown" (warn), never pass. `ascend-doctor
matrix check` runs these same functions on facts built from command-line versions.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..facts import CannInstall
from ..findings import FAIL, PASS, SKIP, WARN
from ..matrix import PUBLISHED_ROLES
from ..versions import (
    FIRMWARE_MIN_PREFIX, innerversion_code, innerversion_listed, major_minor, parse_range_list, parse_version,
    python_major_minor, release_matches, vendor_firmware_too_old, vendor_in_any_range, version_key,
)
from . import check
from ._ascend import FIXED_PATH_SOURCE, nnae_wins
from ._recommend import advise_mindspore

MS_CANN = "compat.mindspore_cann"
CANN_DRIVER = "compat.cann_driver"
DRIVER_FW = "compat.driver_firmware"
FW_MIN = "compat.firmware_min"
PY_MS = "compat.python_mindspore"
CUDA_MS = "compat.cuda_mindspore"
CUSTOM_OPS = "compat.custom_ops_cann"

TITLES = {
    MS_CANN: "MindSpore and CANN belong together",
    CANN_DRIVER: "CANN and the NPU driver belong together",
    DRIVER_FW: "NPU driver and firmware accept each other (Huawei's rule)",
    FW_MIN: "NPU firmware is 6.4 or newer",
    PY_MS: "Python version is one the MindSpore release was built for",
    CUDA_MS: "MindSpore GPU build matches the CUDA runtime and cuDNN",
    CUSTOM_OPS: "MindSpore's bundled custom operators were built for this CANN",
}

# MindSpore <= 2.3 read fixed paths, nnae first (compat_facts.md table 1, [fixed/...]).
_FIXED_ORDER = ("/usr/local/Ascend/nnae/latest", "/usr/local/Ascend/ascend-toolkit/latest", "/usr/local/Ascend/latest")
_ARCH_PLATFORM = {"x86_64": "linux-x86_64", "amd64": "linux-x86_64", "aarch64": "linux-aarch64", "arm64": "linux-aarch64"}


def _matrix_info(ctx) -> str:
    info = ctx.matrix.info()
    return f"{info['version']} ({info['source']})"


def _installed_mindspore(ctx):
    ms = ctx.facts.mindspore
    return ms if ms.installed and ms.version else None


def is_planned(facts) -> bool:
    """Facts of a planned install (`matrix check`), not of a machine: say "planned", never "installed"."""
    return facts.planned


def _cann_here(ctx) -> str:
    return "the planned CANN" if is_planned(ctx.facts) else "the installed CANN"


def _at(inst: CannInstall, ctx) -> str:
    return "" if is_planned(ctx.facts) else f" at {inst.root}"


def needed_hdk(matrix, cann_release: Optional[str]) -> List[str]:
    """The Ascend HDK releases the matrix pairs with a CANN release (else those it lists as compatible); [] when
    no source says (then the driver it needs is unknown, never guessed)."""
    if not cann_release:
        return []
    rows = matrix.hdk_for_cann(cann_release)
    for relation in ("paired", "compatible"):
        found = list(dict.fromkeys(p for r in rows if r["relation"] == relation for p in r["hdk"]))
        if found:
            return found
    return []


def driver_note(matrix, cann_release: Optional[str], driver: Optional[str]) -> str:
    """' with Ascend HDK X (NPU driver + firmware; the driver here is Y)' when the driver is not one of them."""
    if driver and any(release_matches(driver, p) for r in matrix.hdk_for_cann(cann_release or "")
                      if r["relation"] != "incompatible" for p in r["hdk"]):
        return ""  # a source pairs this driver with that CANN
    need = needed_hdk(matrix, cann_release)
    if not need:
        return " (which NPU driver it needs is not in the matrix: see that CANN's release notes)"
    here = f"; this driver is {driver}" if driver else ""
    return f" with Ascend HDK {' or '.join(need)} (NPU driver + firmware, the pairing sources give{here})"


def judged_cann(facts) -> Tuple[Optional[CannInstall], List[CannInstall], str]:
    """The CANN install MindSpore will actually read, the others, and why that one."""
    installs = list(facts.cann.installs)
    if not installs:
        return None, [], "no CANN install found"
    active = facts.cann.active
    if active is not None:
        why = "the planned CANN" if is_planned(facts) else "the environment points at it"
        return active, [i for i in installs if i is not active], why
    if len(installs) == 1:
        return installs[0], [], "the only CANN install found (the environment does not point at any)"
    for root in _FIXED_ORDER:
        for inst in installs:
            if inst.root.rstrip("/") == root:
                return inst, [i for i in installs if i is not inst], \
                    f"the environment points at none; {root} is the first default path MindSpore reads"
    return installs[0], installs[1:], "the environment points at none; judged the first install found"


def _describe_install(inst: CannInstall) -> str:
    parts = ["planned" if inst.root == "(planned)" else inst.root]
    if inst.release:
        parts.append(f"CANN {inst.release}")
    if inst.compiler_version:
        parts.append(f"compiler {inst.compiler_version}")
    return ", ".join(parts)


def _cann_label(matrix, mm: Optional[str]) -> str:
    rels = [c["release"] for c in matrix.cann_for_compiler(mm)] if mm else []
    return f"{mm} (CANN {' / '.join(rels)})" if rels else f"{mm} (no CANN release known)"



def _cann_steps(matrix, candidates: List[dict], mindspore: str, driver: Optional[str] = None,
                limit: int = 3) -> List[str]:
    """Install steps for the CANN releases published with this MindSpore (never one the checker merely accepts)."""
    published = {c["cann"] for c in matrix.published_canns(mindspore)}
    steps = []
    for c in [c for c in candidates if c["accepted"] and c["cann"] in published][:limit]:
        by = "; ".join(sorted({n["by"] for n in c["named_by"] if n["role"] in PUBLISHED_ROLES}))
        build = f" (build {', '.join(c['builds'])})" if c["builds"] else ""
        # Another CANN may need another driver: the fix names it (from the matrix's pairings only).
        steps.append(f"install CANN {c['cann']}{build} toolkit + kernels for MindSpore {mindspore}"
                     f"{driver_note(matrix, c['cann'], driver)}, then "
                     f"`source <install>/set_env.sh`   # compiler {c['compiler']}; published pairing: {by}")
    return steps


# ---------------------------------------------------------------------------

@check(MS_CANN, TITLES[MS_CANN], pitfalls=["P07"],
       fail="MindSpore and CANN do not belong together", warn="MindSpore and CANN: pairing unknown",
       skip="MindSpore and CANN: nothing to pair")
def check_mindspore_cann(ctx):
    ms = _installed_mindspore(ctx)
    if not ms:
        return ctx.finding(SKIP, "MindSpore is not installed in this Python; nothing to pair with CANN.")
    inst, others, why = judged_cann(ctx.facts)
    fixed = nnae_wins(ctx.facts, ctx.matrix)
    if fixed and inst is not fixed[0]:
        # this MindSpore's version check reads the default nnae whatever the environment points at
        others = [i for i in ctx.facts.cann.installs if i is not fixed[0]]
        inst, why = fixed[0], f"MindSpore {fixed[1]} reads {fixed[0].root} first, whatever the environment says ({FIXED_PATH_SOURCE})"
    if inst is None:
        return ctx.finding(SKIP, f"No CANN install was found, so MindSpore {ms.version} has no CANN to "
                                          "check against (the install checks report a missing CANN).")
    matrix = ctx.matrix
    row = matrix.mindspore_row(ms.version)
    evidence: Dict[str, object] = {"mindspore": ms.version, "cann_judged": _describe_install(inst), "why_this_cann": why}
    if others:
        evidence["other_cann_installs"] = [_describe_install(i) for i in others]
    if ms.accepted_cann:
        accepted, accepted_from = list(ms.accepted_cann), "the installed mindspore/run_check/_check_version.py"
    elif row:
        accepted, accepted_from = list(row["checker"]["accepted_compilers"]), "the matrix"
    else:
        accepted, accepted_from = [], None
    if row:
        evidence["matrix_row"] = (f"MindSpore {row['version']}: checker accepts {row['checker']['accepted_compilers']}, "
                                  f"reads {row['checker']['file_read']} [{matrix.describe_source(row['checker']['source'])}]")
        if ms.accepted_cann and sorted(ms.accepted_cann) != sorted(row["checker"]["accepted_compilers"]):
            evidence["note"] = "the installed MindSpore's list differs from the matrix row; the installed list decides"
    evidence["matrix"] = _matrix_info(ctx)
    compiler = inst.compiler_version
    mm = major_minor(compiler)
    if not mm:
        return ctx.finding(WARN,
                           f"The CANN compiler version of {inst.root} could not be read (compiler/version.info), so "
                           f"whether MindSpore {ms.version} accepts it is unknown; MindSpore itself skips its check then.",
                           evidence, ["cat " + inst.root.rstrip("/") + "/compiler/version.info   # should start with Version="],
                           "P07")
    evidence["compiler_major_minor"] = _cann_label(matrix, mm)
    if not accepted:
        return ctx.finding(WARN,
                           f"MindSpore {ms.version} is not in the compatibility matrix {_matrix_info(ctx)} and its own "
                           f"accepted-CANN list could not be read, so the pairing with CANN compiler {mm} is unknown.",
                           evidence, ["ascend-doctor matrix update --url <newer matrix URL>   # if a newer matrix exists",
                                      "python -c 'import mindspore; mindspore.run_check()'   # MindSpore's own check"], "P07")
    evidence["accepted_compilers"] = f"{accepted} (from {accepted_from})"
    candidates = matrix.cann_candidates(ms.version) if row else []
    disagree = [c for c in candidates if c["accepted"] is False]
    if disagree:
        evidence["sources_disagree"] = [
            f"{n['by']} names CANN {c['cann']} (compiler {c['compiler']}), which MindSpore {ms.version}'s checker "
            f"does not accept [{matrix.describe_source(n['source'])}]" for c in disagree for n in c["named_by"]]
    if row and row.get("notes"):
        evidence["matrix_notes"] = row["notes"]
    if mm in accepted:
        named = [c for c in candidates if c["cann"] and release_matches(inst.release or "", c["cann"])]
        extra = ""
        if disagree:
            others_named = "; ".join(f"{n['by']} names CANN {c['cann']}" for c in disagree for n in c["named_by"])
            extra = f" Sources disagree ({others_named}, which this MindSpore's checker rejects); the verdict " \
                    f"follows MindSpore's own checker."
        by = f" ({'; '.join(sorted({n['by'] for c in named for n in c['named_by']}))})" if named else ""
        return ctx.finding(PASS,
                           f"MindSpore {ms.version} accepts CANN compiler {mm}{' = CANN ' + inst.release if inst.release else ''}"
                           f"{by}.{extra}", evidence)
    # Mismatch: MindSpore only logs a warning at import, then jobs die without a clear log (P07).
    fix = _cann_steps(matrix, candidates, ms.version, ctx.facts.driver.version)
    if not fix:
        fix = [f"the matrix names no CANN published with MindSpore {ms.version}; its version check accepts compiler "
               f"{', '.join(accepted)}, which is not a tested pairing: see https://www.mindspore.cn/install"]
    advice = advise_mindspore(matrix, ctx.facts, inst.release, compiler, why="or keep this CANN: the newest "
                              "MindSpore published with")
    fix += [line for line in advice.fix if not line.startswith("or upgrade CANN")] if advice.rows else \
        [f"no MindSpore release in the matrix is published with CANN {inst.release or mm}; change CANN"]
    others_ok = [i for i in others if major_minor(i.compiler_version) in accepted]
    if others_ok:
        alt = others_ok[0]
        fix.insert(0, f"source {alt.set_env or alt.root.rstrip('/') + '/set_env.sh'}   # another install here, "
                      f"{_describe_install(alt)}, is one MindSpore {ms.version} accepts")
    rel = f"CANN {inst.release}" if inst.release else "this CANN"
    return ctx.finding(FAIL,
                       f"MindSpore {ms.version} expects a CANN compiler version in {accepted}, but {rel}{_at(inst, ctx)} "
                       f"has compiler {compiler} ({mm}). MindSpore only prints a warning at import; jobs then fail "
                       f"later with errors that do not name the version mismatch.",
                       evidence, fix, "P07")


def _hdk_min(patterns: List[str]):
    return min((parse_version(p.lower().replace(".x", ".0")) for p in patterns), default=None)


@check(CANN_DRIVER, TITLES[CANN_DRIVER], pitfalls=["P07"],
       fail="CANN and the NPU driver do not belong together",
       warn="CANN and the NPU driver: pairing unknown",
       skip="CANN and the NPU driver: nothing to pair")
def check_cann_driver(ctx):
    drv = ctx.facts.driver
    if not drv.version and ctx.facts.npu.driver_version:
        # version.info is not visible (a container that does not mount it) but npu-smi reports the driver it
        # runs: judge with that (install.driver_present says what is missing).
        from ..records import replace

        drv = replace(drv, version=ctx.facts.npu.driver_version)
        driver_from = "npu-smi (driver/version.info is not visible here)"
    elif is_planned(ctx.facts):
        driver_from = "the planned install"
    else:
        driver_from = drv.version_file or "driver/version.info"
    inst, others, why = judged_cann(ctx.facts)
    if not drv.version or inst is None:
        missing = "driver version" if not drv.version else "CANN install"
        return ctx.finding(SKIP, f"No {missing} found; nothing to pair.")
    matrix = ctx.matrix
    evidence: Dict[str, object] = {"driver": f"{drv.version} (from {driver_from})", "cann_judged": _describe_install(inst),
                                   "why_this_cann": why, "matrix": _matrix_info(ctx)}
    if others:
        evidence["other_cann_installs"] = [_describe_install(i) for i in others]
    # Heuristic only (compat_facts.md §4.3): the driver lists CANN innerversion codes it was made for.
    code = innerversion_code(inst.innerversion)
    if code and drv.compatible_version:
        listed = innerversion_listed(code, drv.compatible_version)
        evidence["innerversion_hint"] = (f"CANN innerversion {code} is {'' if listed else 'not '}in the driver's "
                                         f"compatible_version list (a heuristic; Huawei does not document the rule)")
    if not inst.release:
        return ctx.finding(WARN, f"The CANN release of {inst.root} is unknown, so its driver pairing is unknown.",
                           evidence, [], "P07")
    rows = matrix.hdk_for_cann(inst.release)
    matched = [(r, p) for r in rows for p in r["hdk"] if release_matches(drv.version, p)]
    stated = [f"{r['relation']}: {', '.join(r['hdk'])} [{matrix.describe_source(r['source'])}, {r['confidence']}]"
              for r in rows]
    if stated:
        evidence["matrix_rows"] = stated
    paired = [p for r in rows if r["relation"] == "paired" for p in r["hdk"]]
    fix_hdk = [f"install Ascend HDK {p} (NPU driver + firmware) for CANN {inst.release}   # paired by "
               + "; ".join(matrix.describe_source(r["source"]) for r in rows if p in r["hdk"] and r["relation"] == "paired")
               for p in dict.fromkeys(paired)][:2]
    if not fix_hdk and rows:
        listed = list(dict.fromkeys(p for r in rows if r["relation"] != "incompatible" for p in r["hdk"]))
        fix_hdk = [f"install one of the Ascend HDK releases sources give for CANN {inst.release}: {', '.join(listed)}"]
    bad = [(r, p) for r, p in matched if r["relation"] == "incompatible"]
    if bad:
        r, p = bad[0]
        return ctx.finding(FAIL,
                           f"CANN {inst.release} is stated NOT to work with HDK {p}, and the driver is {drv.version}.",
                           evidence, fix_hdk or [f"install an HDK listed for CANN {inst.release}"], "P07")
    good = [(r, p) for r, p in matched if r["relation"] != "incompatible"]
    if good:
        r, p = good[0]
        return ctx.finding(PASS,
                           f"Driver {drv.version} is HDK {p}, {r['relation']} with CANN {inst.release} "
                           f"({matrix.describe_source(r['source'])}).", evidence)
    if not rows:
        return ctx.finding(WARN,
                           f"No source in the matrix pairs CANN {inst.release} with a driver, so driver {drv.version} "
                           f"is an unknown pairing (not proven wrong).", evidence,
                           ["check the CANN release notes' 'version compatibility' table for your server"], "P07")
    complete = [p for r in rows if r["relation"] == "compatible" and r["confidence"] == "high" for p in r["hdk"]]
    lowest = _hdk_min(complete)
    if complete and lowest is not None and parse_version(drv.version) < lowest:
        return ctx.finding(FAIL,
                           f"CANN {inst.release}'s release notes list HDK {', '.join(complete)}; driver {drv.version} is "
                           f"older than all of them.", evidence,
                           fix_hdk or [f"upgrade the driver and firmware to one of HDK {', '.join(complete)}"], "P07")
    need = needed_hdk(matrix, inst.release)
    if need:
        only = "the only Ascend HDK release" if len(need) == 1 else "the Ascend HDK releases"
        return ctx.finding(WARN,
                           f"CANN {inst.release} needs the NPU driver of Ascend HDK {' or '.join(need)}, {only} sources "
                           f"pair with it; driver {drv.version} is not {'that release' if len(need) == 1 else 'one of them'}, "
                           f"so whether it works with CANN {inst.release} is unknown (no source states it).",
                           evidence, fix_hdk, "P07")
    return ctx.finding(WARN,
                       f"Driver {drv.version} is not among the HDK releases sources give for CANN {inst.release}; "
                       f"the pairing is unknown.", evidence, fix_hdk, "P07")


def _upgrade_order_steps(drv, fw, matrix) -> List[str]:
    drv_pkg = drv.package_version or drv.version
    fw_pkg = fw.package_version
    steps = []
    if fw_pkg and drv_pkg and parse_version(fw_pkg) < parse_version(drv_pkg):
        fws = [r["firmware"] for r in matrix.firmware_for_hdk(drv_pkg)]
        steps.append(f"upgrade the firmware to the one from HDK {drv_pkg} (the driver's release)"
                     + (f": firmware {', '.join(fws)}" if fws else "")
                     + "   # the firmware is the older of the two")
    elif fw_pkg and drv_pkg and parse_version(drv_pkg) < parse_version(fw_pkg):
        steps.append(f"upgrade the driver to HDK {fw_pkg} (the firmware's release)   # the driver is the older of the two")
    else:
        steps.append("install the driver and the firmware from the same Ascend HDK release")
    steps.append("./Ascend-hdk-<chip>-npu-firmware_<version>.run --upgrade  /  "
                 "./Ascend-hdk-<chip>-npu-driver_<version>_linux-<arch>.run --upgrade   "
                 "# order as the HDK install guide for your server says; reboot after the firmware")
    steps.append("npu-smi info -t board -i 0   # afterwards: Compatibility should read OK")
    return steps


def _numeric_in_range(candidate: str, lo: str, hi: str) -> bool:
    v = parse_version(candidate)
    return parse_version(lo) <= v <= parse_version(hi)


@check(DRIVER_FW, TITLES[DRIVER_FW], pitfalls=["P24"],
       fail="NPU driver and firmware do not accept each other", warn="NPU driver and firmware: match unknown",
       skip="NPU driver and firmware: nothing to compare")
def check_driver_firmware(ctx):
    drv, fw = ctx.facts.driver, ctx.facts.firmware
    if not drv.version or not fw.version:
        missing = [n for n, v in (("driver", drv.version), ("firmware", fw.version)) if not v]
        return ctx.finding(SKIP, f"No {' or '.join(missing)} version found; nothing to compare.")
    matrix = ctx.matrix
    fw_ranges, fw_from = parse_range_list(drv.compatible_version_fw), "driver version.info compatible_version_fw"
    if not fw_ranges and matrix.driver_sample(drv.version):
        s = matrix.driver_sample(drv.version)
        fw_ranges, fw_from = s["compatible_version_fw"], f"matrix sample of driver {s['version']} [{matrix.describe_source(s['source'])}]"
    drv_ranges, drv_from = parse_range_list(fw.compatible_version_drv), "firmware version.info compatible_version_drv"
    if not drv_ranges and matrix.firmware_sample(fw.version):
        s = matrix.firmware_sample(fw.version)
        drv_ranges, drv_from = s["compatible_version_drv"], f"matrix sample of firmware {s['version']} [{matrix.describe_source(s['source'])}]"
    evidence = {"driver": drv.version, "firmware": fw.version,
                "compatible_version_fw": f"{fw_ranges} (from {fw_from})" if fw_ranges else "unknown",
                "compatible_version_drv": f"{drv_ranges} (from {drv_from})" if drv_ranges else "unknown",
                "rule": "Huawei DCMI: firmware >= '6.4.'; then firmware in a driver range, or driver in a firmware "
                        "range; byte-wise compare after cutting to the bound's length (hicann/driver dcmi_permission_judge.c)"}
    if vendor_firmware_too_old(fw.version):
        return ctx.finding(FAIL,
                           f"Firmware {fw.version} is older than 6.4, which no current driver accepts (Huawei's first rule; "
                           f"see {FW_MIN}).", evidence, _upgrade_order_steps(drv, fw, matrix), "P24")
    hit = vendor_in_any_range(fw.version, fw_ranges)
    if hit:
        if not _numeric_in_range(fw.version, *hit):
            evidence["note"] = (f"accepted only because Huawei compares strings: numerically {fw.version} is outside "
                                f"[{hit[0]}, {hit[1]}]")
        return ctx.finding(PASS, f"Firmware {fw.version} is inside driver {drv.version}'s range "
                                            f"[{hit[0]}, {hit[1]}].", evidence)
    hit = vendor_in_any_range(drv.version, drv_ranges)
    if hit:
        return ctx.finding(PASS, f"Driver {drv.version} is inside firmware {fw.version}'s range "
                                            f"[{hit[0]}, {hit[1]}]" + (" (any " + hit[0] + ".*)" if hit[1] == hit[0] + "." else "")
                           + ".", evidence)
    if not fw_ranges and not drv_ranges:
        return ctx.finding(WARN,
                           f"Neither the driver nor the firmware version.info lists the other's accepted versions, and the "
                           f"matrix has no sample for driver {drv.version}; whether they match is unknown "
                           f"(npu-smi would show Compatibility: UNKNOWN).", evidence,
                           ["npu-smi info -t board -i 0   # read the Compatibility line"], "P24")
    return ctx.finding(FAIL,
                       f"Driver {drv.version} and firmware {fw.version} do not accept each other: the firmware is outside "
                       f"{fw_ranges or 'the (unknown) driver ranges'} and the driver is outside "
                       f"{drv_ranges or 'the (unknown) firmware ranges'}. Devices may fail to start or run with a "
                       f"mismatched microcode.", evidence, _upgrade_order_steps(drv, fw, matrix), "P24")


@check(FW_MIN, TITLES[FW_MIN], pitfalls=["P24"],
       fail="NPU firmware is older than 6.4", skip="No NPU firmware version to judge")
def check_firmware_min(ctx):
    fw = ctx.facts.firmware
    if not fw.version:
        return ctx.finding(SKIP, "No firmware version found.")
    evidence = {"firmware": fw.version, "minimum": f"'{FIRMWARE_MIN_PREFIX}' (byte-wise, COMPAT_VERSION_START_FW)",
                "source": ctx.matrix.describe_source(ctx.matrix["rules"]["driver_firmware"]["source"])}
    if vendor_firmware_too_old(fw.version):
        fix = [r["firmware"] for r in ctx.matrix.data["hdk_firmware"] if not vendor_firmware_too_old(r["firmware"])]
        return ctx.finding(FAIL,
                           f"Firmware {fw.version} is older than 6.4; Huawei's driver reports any firmware before 6.4 as "
                           f"not compatible.", evidence,
                           [f"upgrade the NPU firmware to the one shipped with your driver's HDK (6.4 or newer, e.g. "
                            f"{', '.join(sorted(set(fix), key=version_key)[:3])})",
                            "reboot, then: npu-smi info -t board -i 0   # Firmware Version and Compatibility"], "P24")
    return ctx.finding(PASS, f"Firmware {fw.version} is 6.4 or newer.", evidence)


def _platform(ctx) -> Optional[str]:
    arch = (ctx.facts.system.arch or "").lower()
    return _ARCH_PLATFORM.get(arch)


@check(PY_MS, TITLES[PY_MS], pitfalls=["P21"],
       fail="No MindSpore wheel for this Python version", warn="Python and the MindSpore release: support unknown",
       skip="Python and the MindSpore release: judged elsewhere")
def check_python_mindspore(ctx):
    ms = _installed_mindspore(ctx)
    py = ctx.facts.python.version
    if not ms or not py:
        return ctx.finding(SKIP, "MindSpore or the Python version is unknown; nothing to compare.")
    matrix = ctx.matrix
    platform = _platform(ctx)
    flavour = ms.flavour if ms.flavour in ("ascend", "gpu", "cpu") else "ascend"
    pm = python_major_minor(py)
    row = matrix.python_for(ms.version, platform, flavour)
    evidence = {"python": py, "mindspore": ms.version, "platform": platform or ctx.facts.system.arch,
                "matrix": _matrix_info(ctx)}
    if row:
        evidence["matrix_row"] = (f"MindSpore {ms.version} {row['platform']}/{row['flavour']}: Python "
                                  f"{', '.join(row['python'])} [{matrix.describe_source(row['source'])}]")
    if ms.wheel_tags:
        # The installed wheel's own tags are the better witness; mindspore.python_supported judges them.
        evidence["wheel_tags"] = ms.wheel_tags
        return ctx.finding(SKIP, "Judged from the installed wheel's tags (mindspore.python_supported); the matrix "
                                        "view is in the evidence.", evidence)
    if not row:
        return ctx.finding(WARN, f"MindSpore {ms.version} has no Python row in the matrix; whether Python {pm} "
                                        f"is supported is unknown.", evidence, [], "P21")
    if pm in row["python"]:
        return ctx.finding(PASS, f"MindSpore {ms.version} wheels exist for Python {pm}.", evidence)
    newest = sorted(row["python"], key=version_key)[-1]
    fix = [f"conda create -n mindspore python={newest} && conda activate mindspore   # a Python MindSpore "
           f"{ms.version} has wheels for ({', '.join(row['python'])})"]
    inst, _, _ = judged_cann(ctx.facts)
    advice = advise_mindspore(matrix, ctx.facts, inst.release if inst else None, inst.compiler_version if inst else None,
                              why=f"or keep Python {pm}: the newest MindSpore published with")
    fix += [line for line in advice.fix if advice.rows or line.startswith("or upgrade CANN")]
    return ctx.finding(FAIL,
                       f"MindSpore {ms.version} has wheels for Python {', '.join(row['python'])} on {row['platform']}, "
                       f"not for Python {pm}: pip refuses it, or a copied install fails to import its C extensions.",
                       evidence, fix, "P21")


def _cuda_mms(ctx) -> List[Tuple[str, str]]:
    out = []
    for lib in ctx.facts.cuda.runtime_libs:
        mm = major_minor(lib.get("version"))
        if mm:
            out.append((mm, lib.get("path") or "?"))
    return out


@check(CUDA_MS, TITLES[CUDA_MS], pitfalls=["P01"],
       fail="MindSpore GPU build does not match the CUDA runtime or cuDNN",
       warn="MindSpore GPU build and CUDA/cuDNN: a mismatch MindSpore warns about",
       skip="No MindSpore GPU build to match with CUDA")
def check_cuda_mindspore(ctx):
    ms = _installed_mindspore(ctx)
    if not ms or not (ms.flavour == "gpu" or ms.cuda_version):
        return ctx.finding(SKIP, "No MindSpore GPU build is " + ("planned." if is_planned(ctx.facts) else "installed."))
    if ms.gpu_cuda_versions or ms.accepted_cuda:
        # The installed package says which CUDA it needs; gpu.cuda_runtime_for_mindspore and gpu.cudnn judge
        # that on the machine (loader path, driver limit). This check is the matrix's view for a planned
        # install (`matrix check --cuda`) or a package that does not say.
        return ctx.finding(SKIP, "Judged from the installed package by gpu.cuda_runtime_for_mindspore "
                                          "and gpu.cudnn.")
    matrix = ctx.matrix
    row = matrix.mindspore_row(ms.version)
    cuda = ctx.facts.cuda
    found = _cuda_mms(ctx)
    evidence: Dict[str, object] = {"mindspore": ms.version, "built_for_cuda": ms.cuda_version or "unknown",
                                   "libcudart_found": [f"{p} ({mm})" for mm, p in found] or "none",
                                   "matrix": _matrix_info(ctx)}
    gpu = (row or {}).get("gpu", {})
    checker = gpu.get("cuda_checker", {}).get("value", [])
    builds = (gpu.get("cuda_plugins") or gpu.get("cuda_wheels") or {}).get("value", [])
    if row:
        evidence["matrix_row"] = (f"MindSpore {row['version']}: GPU builds for CUDA {builds or 'none listed'}; checker "
                                  f"accepts {checker} [{matrix.describe_source(gpu.get('cuda_checker', {}).get('source', []))}]")
    need = [major_minor(ms.cuda_version)] if major_minor(ms.cuda_version) else builds
    if ms.cuda_version and not major_minor(ms.cuda_version):
        evidence["note"] = f"the CUDA version the build names ({ms.cuda_version!r}) is not X.Y; using the matrix row"
    problems, fix, status = [], [], PASS
    if not found:
        status = FAIL
        want = " or ".join(need) if need else "the CUDA it was built for"
        problems.append(f"No libcudart was found; MindSpore GPU {ms.version} needs the CUDA {want} runtime "
                        f"(ImportError: libcudart.so.X: cannot open shared object file)")
    elif need and not any(mm in need for mm, _ in found):
        status = FAIL
        problems.append(f"MindSpore {ms.version} was built for CUDA {' / '.join(need)} but the runtime found is "
                        f"{', '.join(mm for mm, _ in found)}")
    elif checker and not any(mm in checker for mm, _ in found):
        status = WARN
        problems.append(f"MindSpore {ms.version}'s GPU checker accepts CUDA {checker}, found "
                        f"{', '.join(mm for mm, _ in found)}")
    if row and not builds:
        status = WARN if status == PASS else status
        with_gpu = sorted((r for r in matrix.mindspore_releases if r["release_kind"] in ("final", "post") and
                           (r["gpu"].get("cuda_plugins") or r["gpu"].get("cuda_wheels"))),
                          key=lambda r: version_key(r["version"]), reverse=True)
        problems.append(f"The matrix lists no GPU (CUDA) build of MindSpore {ms.version}")
        fix.append("install a MindSpore release that ships a GPU build, e.g. "
                   + ", ".join(f"{r['version']} (CUDA {', '.join((r['gpu'].get('cuda_plugins') or r['gpu'].get('cuda_wheels'))['value'])})"
                               for r in with_gpu[:2]))
    if status == FAIL and need:
        target = need[-1]
        fix += [f"conda install -c conda-forge cudatoolkit={target}   # in an isolated env, the CUDA MindSpore needs",
                f"export LD_LIBRARY_PATH=/usr/local/cuda-{target}/lib64:$LD_LIBRARY_PATH   # if CUDA {target} is "
                f"installed system-wide"]
        have = [mm for mm, _ in found]
        alt = [r for r in matrix.mindspore_releases if any(
            mm in ((r["gpu"].get("cuda_plugins") or r["gpu"].get("cuda_wheels") or {}).get("value", [])) for mm in have)
            and r["release_kind"] in ("final", "post")]
        if alt:
            alt = sorted(alt, key=lambda r: version_key(r["version"]), reverse=True)
            fix.append(f"or install a MindSpore GPU build for CUDA {have[0]}: MindSpore "
                       f"{', '.join(r['version'] for r in alt[:3])}")
    if cuda.driver_cuda_max and need:
        top = max(need, key=version_key)
        if parse_version(cuda.driver_cuda_max) < parse_version(min(need, key=version_key)):
            status = FAIL
            problems.append(f"The NVIDIA driver supports CUDA up to {cuda.driver_cuda_max}, older than the CUDA "
                            f"{min(need, key=version_key)} MindSpore needs")
            fix.append(f"upgrade the NVIDIA driver to one that supports CUDA {top} (nvidia-smi shows the maximum)")
        evidence["driver_cuda_max"] = cuda.driver_cuda_max
    if cuda.cudnn_version:
        evidence["cudnn"] = cuda.cudnn_version
        cu = [mm for mm, _ in found] or need
        pairs = [matrix.cudnn_for_cuda(c) for c in cu]
        pairs = [p for p in pairs if p]
        if pairs:
            evidence["cudnn_per_install_guide"] = [f"CUDA {p['cuda']} + cuDNN {p['cudnn']}.x" for p in pairs]
        v = parse_version(cuda.cudnn_version)
        cu_max = max((parse_version(c) for c in cu), default=None)
        if v < parse_version("7.6") or (cu_max is not None and cu_max > parse_version("10.99") and v < parse_version("8.0")):
            status = FAIL if status == FAIL else WARN
            problems.append(f"cuDNN {cuda.cudnn_version} is too old (MindSpore warns below 7.6, or below 8.0 with CUDA 11)")
            fix.append(f"install cuDNN {pairs[0]['cudnn'] if pairs else '8.x'} for CUDA {cu[0] if cu else ''}".strip())
    if status == PASS:
        return ctx.finding(PASS, f"MindSpore {ms.version} GPU finds CUDA "
                                          f"{', '.join(sorted({mm for mm, _ in found}))}, which it supports.", evidence)
    return ctx.finding(status, "; ".join(problems) + ".", evidence, fix, "P01")


@check(CUSTOM_OPS, TITLES[CUSTOM_OPS], pitfalls=["P22"],
       warn="MindSpore's bundled custom operators were built for another CANN",
       skip="No bundled custom operators to match with CANN")
def check_custom_ops_cann(ctx):
    ms = _installed_mindspore(ctx)
    if not ms:
        return ctx.finding(SKIP, "MindSpore is not installed.")
    inst, others, why = judged_cann(ctx.facts)
    matrix = ctx.matrix
    row = matrix.mindspore_row(ms.version)
    built = dict(ms.custom_ops_cann)
    built_from = "the installed wheel's custom-op version.info"
    if not built and row and row.get("custom_ops_built_with"):
        built = {"custom_ascendc_910b (matrix)": row["custom_ops_built_with"]["compiler_version"]}
        built_from = f"the matrix [{matrix.describe_source(row['custom_ops_built_with']['source'])}]"
    if not built:
        return ctx.finding(SKIP, f"MindSpore {ms.version} ships no custom-operator build record "
                                             "(releases before 2.4 do not check it).")
    if inst is None or not major_minor(inst.compiler_version):
        return ctx.finding(SKIP, "The installed CANN compiler version is unknown; nothing to compare "
                                             "the custom operators with.", {"custom_ops_built_with": built})
    mm = major_minor(inst.compiler_version)
    evidence = {"mindspore": ms.version, "cann_judged": _describe_install(inst), "why_this_cann": why,
                "custom_ops_built_with": f"{built} (from {built_from})", "matrix": _matrix_info(ctx)}
    differ = {d: v for d, v in built.items() if major_minor(v) != mm}
    if not differ:
        return ctx.finding(PASS, f"The bundled custom operators were built with CANN compiler {mm}, "
                                             f"that of {_cann_here(ctx)}.", evidence)
    want = sorted({major_minor(v) for v in differ.values() if major_minor(v)})
    published = [c["cann"] for c in matrix.published_canns(ms.version)
                 if any(major_minor(matrix.compiler_for_cann(c["cann"])[0]) == w for w in want)]
    fix = ([f"install CANN {' / '.join(published)}, published with MindSpore {ms.version} and built with the "
            f"compiler these operators need ({', '.join(want)})"] if published else
           [f"install the CANN whose compiler is {' / '.join(want)} (the one these operators were built with); the "
            f"matrix names no published pairing of it with MindSpore {ms.version}"])
    advice = advise_mindspore(matrix, ctx.facts, inst.release, inst.compiler_version,
                              why="or the newest MindSpore published with")
    fix += [line for line in advice.fix if not line.startswith("or upgrade CANN")] if advice.rows else []
    return ctx.finding(WARN,
                       f"MindSpore {ms.version}'s bundled custom operators were built with CANN compiler "
                       f"{', '.join(sorted(set(differ.values())))}, but {_cann_here(ctx)} is {mm}; MindSpore warns at "
                       f"import and those operators may fail to load or compute wrongly.", evidence, fix, "P22")
