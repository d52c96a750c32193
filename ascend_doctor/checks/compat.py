"""Version compatibility (pitfall P07 and friends): MindSpore <-> CANN <-> driver <-> firmware,
Python <-> MindSpore wheel, bundled custom ops <-> CANN (MindSpore GPU <-> CUDA/cuDNN/NVIDIA driver: compat_gpu.py).

Every verdict compares versions the probes found with a row of the compatibility
matrix (data/compat_matrix.json) and shows both, with the row's source. Where the
matrix has no row, the verdict is "unknown" (warn), never pass. `ascend-doctor
matrix check` runs these same functions on facts built from command-line versions.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..facts import JUDGED_ENV, JUDGED_ONLY, CannInstall
from ..findings import FAIL, PASS, SKIP, WARN
from ..i18n import N_, _, lookup, sentences
from ..plan import or_heading, or_step
from ..i18n_text import join
from ..matrix import PUBLISHED_ROLES
from ..versions import (
    FIRMWARE_MIN_PREFIX, innerversion_code, innerversion_listed, major_minor, parse_range_list, parse_version,
    python_major_minor, release_matches, vendor_firmware_too_old, vendor_in_any_range, version_key,
)
from . import check
from ._ascend import FIXED_PATH_SOURCE, nnae_wins
from ._recommend import advise_mindspore, cann_install_step, source_names

MS_CANN = "compat.mindspore_cann"
CANN_DRIVER = "compat.cann_driver"
DRIVER_FW = "compat.driver_firmware"
FW_MIN = "compat.firmware_min"
PY_MS = "compat.python_mindspore"
CUSTOM_OPS = "compat.custom_ops_cann"

TITLES = {
    MS_CANN: N_("MindSpore and CANN belong together"),
    CANN_DRIVER: N_("CANN and the NPU driver belong together"),
    DRIVER_FW: N_("NPU driver and firmware accept each other (Huawei's rule)"),
    FW_MIN: N_("NPU firmware is 6.4 or newer"),
    PY_MS: N_("Python version is one the MindSpore release was built for"),
    CUSTOM_OPS: N_("MindSpore's bundled custom operators were built for this CANN"),
}

_ARCH_PLATFORM = {"x86_64": "linux-x86_64", "amd64": "linux-x86_64", "aarch64": "linux-aarch64", "arm64": "linux-aarch64"}


def _listed(values) -> str:
    """Versions as prose, never Python's repr: ['7.6', '7.7'] -> '7.6, 7.7'; {'ascend': '7.3'} -> 'ascend 7.3';
    version.info ranges [['7.0.0', '7.5.99']] -> '[7.0.0,7.5.99]' (as the file writes them)."""
    if isinstance(values, dict):
        return ", ".join(f"{k} {v}" for k, v in values.items())
    items = list(values)
    if items and all(isinstance(v, (list, tuple)) and len(v) == 2 for v in items):
        return ",".join(f"[{a},{b}]" for a, b in items)
    return ", ".join(str(v) for v in items)


def _matrix_info(ctx) -> str:
    info = ctx.matrix.info()
    if info["source"] == "bundled":  # a word; a path (the cache) stays as it is
        return _("{version} ({source})").format(version=info["version"], source=lookup(info["source"]))
    return f"{info['version']} ({info['source']})"


def _installed_mindspore(ctx):
    ms = ctx.facts.mindspore
    return ms if ms.installed and ms.version else None


def is_planned(facts) -> bool:
    """Facts of a planned install (`matrix check`), not of a machine: say "planned", never "installed"."""
    return facts.planned


def _cann_here(ctx) -> str:
    return _("the planned CANN") if is_planned(ctx.facts) else _("the installed CANN")


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


def _all_older(hdks: List[str], driver: str) -> bool:
    """Every one of these HDK releases is older than the installed driver (False where a version cannot be ordered)."""
    try:
        return all(parse_version(h.lower().replace(".x", ".0")) < parse_version(driver) for h in hdks)
    except Exception:  # a version the parser cannot order: no claim that it is older
        return False


def driver_runs(matrix, cann_release: Optional[str], driver: Optional[str]) -> bool:
    """A source pairs this driver with that CANN (or lists it as compatible, or reports it working)."""
    return bool(driver) and any(release_matches(driver, p) for r in matrix.hdk_for_cann(cann_release or "")
                                if r["relation"] != "incompatible" for p in r["hdk"])


def older_hdk_note(matrix, cann_release: Optional[str], driver: Optional[str]) -> str:
    """For a CANN whose sources pair it only with HDK releases older than the installed driver: what to check
    instead of a downgrade (a driver newer than them is not proven wrong for it), said as a step's comment (an HDK
    named in the command part would read as one to install); '' otherwise."""
    if not driver or driver_runs(matrix, cann_release, driver):
        return ""
    need = needed_hdk(matrix, cann_release)
    if not need or not _all_older(need, driver):
        return ""
    return _("sources pair it with Ascend HDK {hdk}, older than this driver {driver}: check the release notes of "
             "Ascend HDK {driver} for it rather than downgrading the driver").format(hdk=" or ".join(need),
                                                                                    driver=driver)


def driver_note(matrix, cann_release: Optional[str], driver: Optional[str]) -> str:
    """' with Ascend HDK X (NPU driver + firmware; the driver here is Y)' when the driver is not one of them."""
    if driver_runs(matrix, cann_release, driver):
        return ""  # a source pairs this driver with that CANN
    need = needed_hdk(matrix, cann_release)
    if not need:
        return _(" (which NPU driver it needs is not in the matrix: see that CANN's release notes)")
    if driver and _all_older(need, driver):
        return ""  # no HDK to install for it: what to check instead is the step's comment (older_hdk_note)
    if driver:
        return _(" with Ascend HDK {hdk} (NPU driver + firmware, the pairing sources give; this driver is {driver})"
                 ).format(hdk=_(" or ").join(need), driver=driver)
    return _(" with Ascend HDK {hdk} (NPU driver + firmware, the pairing sources give)").format(
        hdk=_(" or ").join(need))


def judged_cann(facts) -> Tuple[Optional[CannInstall], List[CannInstall], str]:
    """The CANN install a job here uses (facts.cann.judged, one rule: CannFacts.choose), the others, and why
    that one. MindSpore releases that read fixed paths get their own override (nnae_wins)."""
    installs = list(facts.cann.installs)
    inst = facts.cann.judged_install
    if inst is None:
        return None, [], _("no CANN install found")
    others = [i for i in installs if i is not inst]
    reason = facts.cann.choice.reason
    if reason == JUDGED_ENV or is_planned(facts):
        why = _("the planned CANN") if is_planned(facts) else _("the environment points at it")
    elif reason == JUDGED_ONLY:
        why = _("the only CANN install found (the environment does not point at any)")
    else:
        why = _("the environment points at none; {root} comes first in the default order (ascend-toolkit, cann, "
                "nnae, nnrt; /usr/local/Ascend before $HOME/Ascend)").format(root=inst.root)
    return inst, others, why


def _describe_install(inst: CannInstall) -> str:
    parts = [_("planned") if inst.root == "(planned)" else inst.root]
    if inst.release:
        parts.append(f"CANN {inst.release}")
    if inst.compiler_version:
        parts.append(_("compiler {version}").format(version=inst.compiler_version))
    return join(_(", "), parts)


def _cann_label(matrix, mm: Optional[str]) -> str:
    rels = [c["release"] for c in matrix.cann_for_compiler(mm)] if mm else []
    return f"{mm} (CANN {' / '.join(rels)})" if rels else _("{compiler} (no CANN release known)").format(compiler=mm)



def _cann_steps(matrix, candidates: List[dict], mindspore: str, driver: Optional[str] = None,
                limit: int = 3) -> List[str]:
    """Install steps for the CANN releases published with this MindSpore (never one the checker merely accepts)."""
    published = {c["cann"] for c in matrix.published_canns(mindspore)}
    steps = []
    for c in [c for c in candidates if c["accepted"] and c["cann"] in published][:limit]:
        by = source_names(sorted({n["by"] for n in c["named_by"] if n["role"] in PUBLISHED_ROLES}))
        build = _(" (build {builds})").format(builds=", ".join(c["builds"])) if c["builds"] else ""
        # Another CANN may need another driver: the fix names it (from the matrix's pairings only). The step is a
        # sentence (a message, its command in backticks), its comment another.
        # the CANN install sentence is one message (_recommend.cann_install_step: ops or kernels by release)
        step = cann_install_step(c["cann"], build, _(" for MindSpore {mindspore}").format(mindspore=mindspore),
                                 driver_note(matrix, c["cann"], driver))
        older = older_hdk_note(matrix, c["cann"], driver)
        steps.append(_("{step}   # compiler {compiler}; published pairing: {sources}; {note}").format(
            step=step, compiler=c["compiler"], sources=by, note=older) if older else
            _("{step}   # compiler {compiler}; published pairing: {sources}").format(
            step=step, compiler=c["compiler"], sources=by))
    return steps


# ---------------------------------------------------------------------------

@check(MS_CANN, TITLES[MS_CANN], pitfalls=["P07"],
       fail=N_("MindSpore and CANN do not belong together"), warn=N_("MindSpore and CANN: pairing unknown"),
       skip=N_("MindSpore and CANN: nothing to pair"))
def check_mindspore_cann(ctx):
    ms = _installed_mindspore(ctx)
    if not ms:
        return ctx.finding(SKIP, _("MindSpore is not installed in this Python; nothing to pair with CANN."))
    inst, others, why = judged_cann(ctx.facts)
    fixed = nnae_wins(ctx.facts, ctx.matrix)
    if fixed and inst is not fixed[0]:
        # this MindSpore's version check reads the default nnae whatever the environment points at
        others = [i for i in ctx.facts.cann.installs if i is not fixed[0]]
        inst, why = fixed[0], _("MindSpore {version} reads {root} first, whatever the environment says ({source})").format(
            version=fixed[1], root=fixed[0].root, source=_(FIXED_PATH_SOURCE))
    if inst is None:
        return ctx.finding(SKIP, _("No CANN install was found, so MindSpore {version} has no CANN to "
                                   "check against (the install checks report a missing CANN).").format(version=ms.version))
    matrix = ctx.matrix
    row = matrix.mindspore_row(ms.version)
    evidence: Dict[str, object] = {"mindspore": ms.version, "cann_judged": _describe_install(inst), "why_this_cann": why}
    if others:
        evidence["other_cann_installs"] = [_describe_install(i) for i in others]
    if ms.accepted_cann:
        accepted, accepted_from = list(ms.accepted_cann), _("the installed mindspore/run_check/_check_version.py")
    elif row:
        accepted, accepted_from = list(row["checker"]["accepted_compilers"]), _("the matrix")
    else:
        accepted, accepted_from = [], None
    if row:
        evidence["matrix_row"] = _("MindSpore {version}: checker accepts {accepted}, reads {file} [{source}]").format(
            version=row["version"], accepted=_listed(row["checker"]["accepted_compilers"]),
            file=lookup(row["checker"]["file_read"]),
            source=matrix.describe_source(row["checker"]["source"]))
        if ms.accepted_cann and sorted(ms.accepted_cann) != sorted(row["checker"]["accepted_compilers"]):
            evidence["note"] = _("the installed MindSpore's list differs from the matrix row; the installed list decides")
    evidence["matrix"] = _matrix_info(ctx)
    compiler = inst.compiler_version
    mm = major_minor(compiler)
    if not mm:
        return ctx.finding(WARN,
                           _("The CANN compiler version of {root} could not be read (compiler/version.info), so "
                             "whether MindSpore {version} accepts it is unknown; MindSpore itself skips its check then.")
                           .format(root=inst.root, version=ms.version),
                           evidence, [_("cat {path}   # should start with Version=").format(
                               path=inst.root.rstrip("/") + "/compiler/version.info")],
                           "P07")
    evidence["compiler_major_minor"] = _cann_label(matrix, mm)
    if not accepted and is_planned(ctx.facts):
        # a planned install has no installed list to read: the version is one the matrix does not know
        return ctx.finding(WARN,
                           _("MindSpore {version} is not a release in the compatibility matrix {matrix}, so its "
                             "pairing with CANN compiler {compiler} is unknown; check the version number against "
                             "https://www.mindspore.cn/versions.").format(version=ms.version,
                                                                         matrix=_matrix_info(ctx), compiler=mm),
                           evidence, [_("ascend-doctor matrix show --mindspore <release>   # a release the matrix "
                                        "knows"),
                                      _("ascend-doctor matrix update --url <newer matrix URL>   # if a newer matrix "
                                        "exists")], "P07")
    if not accepted:
        return ctx.finding(WARN,
                           _("MindSpore {version} is not in the compatibility matrix {matrix} and its own "
                             "accepted-CANN list could not be read, so the pairing with CANN compiler {compiler} is "
                             "unknown.").format(version=ms.version, matrix=_matrix_info(ctx), compiler=mm),
                           evidence, [_("ascend-doctor matrix update --url <newer matrix URL>   # if a newer matrix exists"),
                                      _("python -c 'import mindspore; mindspore.run_check()'   # MindSpore's own check")],
                           "P07")
    evidence["accepted_compilers"] = _("{values} (from {source})").format(values=_listed(accepted), source=accepted_from)
    candidates = matrix.cann_candidates(ms.version) if row else []
    disagree = [c for c in candidates if c["accepted"] is False]
    if disagree:
        evidence["sources_disagree"] = [
            _("{by} names CANN {cann} (compiler {compiler}), which MindSpore {version}'s checker "
              "does not accept [{source}]").format(by=n["by"], cann=c["cann"], compiler=c["compiler"], version=ms.version,
                                                   source=matrix.describe_source(n["source"]))
            for c in disagree for n in c["named_by"]]
    if row and row.get("notes"):
        evidence["matrix_notes"] = [lookup(note) for note in row["notes"]]  # data texts, catalogued
    if mm in accepted:
        named = [c for c in candidates if c["cann"] and release_matches(inst.release or "", c["cann"])]
        extra = ""
        if disagree:
            others_named = _("; ").join(_("{by} names CANN {cann}").format(by=n["by"], cann=c["cann"])
                                        for c in disagree for n in c["named_by"])
            extra = _("Sources disagree ({named}, which this MindSpore's checker rejects); the verdict "
                      "follows MindSpore's own checker.").format(named=others_named)
        by = f" ({'; '.join(sorted({n['by'] for c in named for n in c['named_by']}))})" if named else ""
        compiler_text = f"{mm} = CANN {inst.release}" if inst.release else mm
        return ctx.finding(PASS,
                           sentences(_("MindSpore {version} accepts CANN compiler {compiler}{sources}.").format(
                               version=ms.version, compiler=compiler_text, sources=by), extra), evidence)
    # Mismatch: MindSpore only logs a warning at import, then jobs die without a clear log (P07).
    fix = _cann_steps(matrix, candidates, ms.version, ctx.facts.driver.version)
    no_cann = None
    if not fix:
        # what the matrix does not know is said once, in the evidence, unless it is all there is to say
        no_cann = _("the matrix names no CANN published with MindSpore {version}; its version check accepts compiler "
                    "{accepted}, which is not a tested pairing: see https://www.mindspore.cn/install").format(
                        version=ms.version, accepted=", ".join(accepted))
    advice = advise_mindspore(matrix, ctx.facts, inst.release, compiler,
                              why=N_("or keep this CANN: the newest MindSpore published with {target}"))
    if advice.rows:
        fix += [line for line in advice.fix if line != advice.upgrade]
    else:
        # none for this Python: one published with this CANN for another Python, in a new environment
        from ..matrix import mindspore_install_steps
        from ._recommend import _by

        for_cann = matrix.published_mindspore_for_cann(inst.release, compiler, None, _platform(ctx))
        pythons = sorted((matrix.python_for(for_cann[0]["version"], _platform(ctx), "ascend") or {}).get("python") or [],
                         key=version_key) if for_cann else []
        if pythons:
            label = f"CANN {inst.release or mm}"
            # one way: the new environment and the MindSpore installed in it (never the install alone, which this
            # Python has no wheel for)
            fix.append([_("{step}   # a Python MindSpore {version} has wheels for").format(
                        step=f"conda create -n mindspore python={pythons[-1]} -y && conda activate mindspore",
                        version=for_cann[0]["version"])] +
                mindspore_install_steps(for_cann, _("published with {cann} ({sources})").format(
                    cann=label, sources=_by(matrix, for_cann[0], inst.release or "")), limit=1))
        elif not any(step.startswith("install CANN ") for step in fix):  # the CANN installs are that change already
            fix.append(_("no MindSpore release in the matrix is published with CANN {cann}; change CANN").format(
                cann=inst.release or mm))
    if no_cann:
        if advice.rows or any(step.startswith(("pip install", "install MindSpore"))
                              for way in fix for step in (way if isinstance(way, list) else [way])):
            evidence["published_cann"] = no_cann  # a published MindSpore is the answer; the note is context
        else:
            fix.insert(0, no_cann)
    others_ok = [i for i in others if major_minor(i.compiler_version) in accepted]
    if others_ok:
        alt = others_ok[0]
        fix.insert(0, _("source {path}   # another install here, {install}, is one MindSpore {version} accepts").format(
            path=alt.set_env or alt.root.rstrip("/") + "/set_env.sh", install=_describe_install(alt), version=ms.version))
    rel = f"CANN {inst.release}" if inst.release else _("this CANN")
    # each line (or group of lines) is one way to a pairing (this CANN, that one, another MindSpore): one is the
    # fix, the others are labelled alternatives, never further steps
    from ..plan import as_ways

    fix, ways = as_ways(fix)
    if compiler != mm:
        head = (_("MindSpore {version} expects a CANN compiler version in {accepted}, but {cann} at {root} has "
                  "compiler {compiler} ({major_minor}).") if not is_planned(ctx.facts) else
                _("MindSpore {version} expects a CANN compiler version in {accepted}, but {cann} has compiler "
                  "{compiler} ({major_minor})."))
    else:  # a compiler known only by its major.minor (a planned install): said once, not "8.5 (8.5)"
        head = (_("MindSpore {version} expects a CANN compiler version in {accepted}, but {cann} at {root} has "
                  "compiler {compiler}.") if not is_planned(ctx.facts) else
                _("MindSpore {version} expects a CANN compiler version in {accepted}, but {cann} has compiler "
                  "{compiler}."))
    finding = ctx.finding(FAIL,
                       sentences(head.format(version=ms.version, accepted=_listed(accepted), cann=rel, root=inst.root,
                                             compiler=compiler, major_minor=mm),
                                 _("MindSpore only prints a warning at import; jobs then fail later with errors that do "
                                   "not name the version mismatch.")),
                       evidence, fix, "P07")
    finding.alternatives = ways
    return finding


# The PASS line of compat.cann_driver for each relation a matrix row states (None: any other relation, named).
_RELATION_SUMMARY = {
    "paired": N_("Driver {driver} is HDK {hdk}, paired with CANN {cann} ({source})."),
    "compatible": N_("Driver {driver} is HDK {hdk}, compatible with CANN {cann} ({source})."),
    "known-working": N_("Driver {driver} is HDK {hdk}, known-working with CANN {cann} ({source})."),
    None: N_("Driver {driver} is HDK {hdk}, {relation} with CANN {cann} ({source})."),
}


# A matrix row of CANN -> HDK as the evidence shows it, one message per relation and confidence (its words are
# enum values in English, so the row is the message; any other value is shown as it is).
_MATRIX_ROW = {
    ("paired", "high"): N_("paired: {hdk} [{source}, high]"),
    ("paired", "medium"): N_("paired: {hdk} [{source}, medium]"),
    ("paired", "low"): N_("paired: {hdk} [{source}, low]"),
    ("compatible", "high"): N_("compatible: {hdk} [{source}, high]"),
    ("compatible", "medium"): N_("compatible: {hdk} [{source}, medium]"),
    ("compatible", "low"): N_("compatible: {hdk} [{source}, low]"),
    ("incompatible", "high"): N_("incompatible: {hdk} [{source}, high]"),
    ("incompatible", "medium"): N_("incompatible: {hdk} [{source}, medium]"),
    ("incompatible", "low"): N_("incompatible: {hdk} [{source}, low]"),
    ("known-working", "high"): N_("known-working: {hdk} [{source}, high]"),
    ("known-working", "medium"): N_("known-working: {hdk} [{source}, medium]"),
    ("known-working", "low"): N_("known-working: {hdk} [{source}, low]"),
}


def _hdk_min(patterns: List[str]):
    return min((parse_version(p.lower().replace(".x", ".0")) for p in patterns), default=None)


@check(CANN_DRIVER, TITLES[CANN_DRIVER], pitfalls=["P07"],
       fail=N_("CANN and the NPU driver do not belong together"),
       warn=N_("CANN and the NPU driver: pairing unknown"),
       skip=N_("CANN and the NPU driver: nothing to pair"))
def check_cann_driver(ctx):
    drv = ctx.facts.driver
    if not drv.version and ctx.facts.npu.driver_version:
        # version.info is not visible (a container that does not mount it) but npu-smi reports the driver it
        # runs: judge with that (install.driver_present says what is missing).
        from ..records import replace

        drv = replace(drv, version=ctx.facts.npu.driver_version)
        driver_from = _("npu-smi (driver/version.info is not visible here)")
    elif is_planned(ctx.facts):
        driver_from = _("the planned install")
    else:
        driver_from = drv.version_file or "driver/version.info"
    inst, others, why = judged_cann(ctx.facts)
    if not drv.version or inst is None:
        return ctx.finding(SKIP, _("No driver version found; nothing to pair.") if not drv.version else
                           _("No CANN install found; nothing to pair."))
    matrix = ctx.matrix
    evidence: Dict[str, object] = {"driver": _("{version} (from {source})").format(version=drv.version, source=driver_from), "cann_judged": _describe_install(inst),
                                   "why_this_cann": why, "matrix": _matrix_info(ctx)}
    if others:
        evidence["other_cann_installs"] = [_describe_install(i) for i in others]
    # Heuristic only (compat_facts.md §4.3): the driver lists CANN innerversion codes it was made for.
    code = innerversion_code(inst.innerversion)
    if code and drv.compatible_version:
        listed = innerversion_listed(code, drv.compatible_version)
        evidence["innerversion_hint"] = (_("CANN innerversion {code} is in the driver's compatible_version list (a "
                                           "heuristic; Huawei does not document the rule)") if listed else
                                         _("CANN innerversion {code} is not in the driver's compatible_version list (a "
                                           "heuristic; Huawei does not document the rule)")).format(code=code)
    if not inst.release:
        return ctx.finding(WARN, _("The CANN release of {root} is unknown, so its driver pairing is unknown.").format(
            root=inst.root), evidence, [], "P07")
    rows = matrix.hdk_for_cann(inst.release)
    matched = [(r, p) for r in rows for p in r["hdk"] if release_matches(drv.version, p)]
    stated = [_(_MATRIX_ROW.get((r["relation"], r["confidence"]), "{relation}: {hdk} [{source}, {confidence}]")).format(
        relation=r["relation"], hdk=", ".join(r["hdk"]), source=matrix.describe_source(r["source"]),
        confidence=r["confidence"]) for r in rows]
    if stated:
        evidence["matrix_rows"] = stated
    paired = [p for r in rows if r["relation"] == "paired" for p in r["hdk"]]
    # one HDK to install; a second pairing is an alternative ("or ..."), never a second step after the first
    fix_hdk = []
    named = list(dict.fromkeys(paired))[:2]  # the HDK releases the fix names
    for i, p in enumerate(list(dict.fromkeys(paired))[:2]):
        line = _("{step}   # paired by {sources}").format(
            step=_("install Ascend HDK {hdk} (NPU driver + firmware) for CANN {cann}").format(hdk=p, cann=inst.release),
            sources=join(_("; "), [matrix.describe_source(r["source"]) for r in rows
                                   if p in r["hdk"] and r["relation"] == "paired"]))
        fix_hdk.append(or_step(line) if i else line)
    if not fix_hdk and rows:
        # only what a vendor table gives (paired, compatible): a "known-working" report is no pairing to install
        listed = list(dict.fromkeys(p for r in rows if r["relation"] in ("paired", "compatible") for p in r["hdk"]))
        named = listed
        fix_hdk = [_("install one of the Ascend HDK releases sources give for CANN {cann}: {hdk}").format(
            cann=inst.release, hdk=", ".join(listed))] if listed else \
            [_("check the CANN release notes' 'version compatibility' table for your server")]
    bad = [(r, p) for r, p in matched if r["relation"] == "incompatible"]
    if bad:
        r, p = bad[0]
        return ctx.finding(FAIL,
                           _("CANN {cann} is stated NOT to work with HDK {hdk}, and the driver is {driver}.").format(
                               cann=inst.release, hdk=p, driver=drv.version),
                           evidence, fix_hdk or [_("install an HDK listed for CANN {cann}").format(cann=inst.release)],
                           "P07")
    good = [(r, p) for r, p in matched if r["relation"] != "incompatible"]
    if good:
        r, p = good[0]
        return ctx.finding(PASS,
                           _(_RELATION_SUMMARY.get(r["relation"], _RELATION_SUMMARY[None])).format(
                               driver=drv.version, hdk=p, relation=r["relation"], cann=inst.release,
                               source=matrix.source_short(r["source"])), evidence)  # in full: the evidence
    if not rows:
        return ctx.finding(WARN,
                           _("No source in the matrix pairs CANN {cann} with a driver, so driver {driver} "
                             "is an unknown pairing (not proven wrong).").format(cann=inst.release, driver=drv.version),
                           evidence,
                           [_("check the CANN release notes' 'version compatibility' table for your server")], "P07")
    complete = [p for r in rows if r["relation"] == "compatible" and r["confidence"] == "high" for p in r["hdk"]]
    lowest = _hdk_min(complete)
    if complete and lowest is not None and parse_version(drv.version) < lowest:
        return ctx.finding(FAIL,
                           _("CANN {cann}'s release notes list HDK {hdk}; driver {driver} is older than all of them.")
                           .format(cann=inst.release, hdk=", ".join(complete), driver=drv.version), evidence,
                           fix_hdk or [_("upgrade the driver and firmware to one of HDK {hdk}").format(
                               hdk=", ".join(complete))], "P07")
    need = needed_hdk(matrix, inst.release)
    if need:
        text = _("CANN {cann} needs the NPU driver of Ascend HDK {hdk}, the only Ascend HDK release sources pair with "
                 "it; driver {driver} is not that release, so whether it works with CANN {cann} is unknown (no source "
                 "states it).") if len(need) == 1 else \
            _("CANN {cann} needs the NPU driver of Ascend HDK {hdk}, the Ascend HDK releases sources pair with it; "
              "driver {driver} is not one of them, so whether it works with CANN {cann} is unknown (no source states it).")
        return ctx.finding(WARN, text.format(cann=inst.release, hdk=_(" or ").join(need), driver=drv.version),
                           evidence, _unknown_fix(fix_hdk, named, drv.version, inst.release), "P07")
    return ctx.finding(WARN,
                       _("Driver {driver} is not among the HDK releases sources give for CANN {cann}; "
                         "the pairing is unknown.").format(driver=drv.version, cann=inst.release),
                       evidence, _unknown_fix(fix_hdk, named, drv.version, inst.release), "P07")


def _unknown_fix(fix_hdk: List[str], named: List[str], driver: str, cann: str) -> List[str]:
    """An unknown pairing is not proven wrong: never a driver downgrade (root, a reboot, and no source says the
    older driver is better) for it; what to check, and whom to ask, instead."""
    try:
        older = any(parse_version(h.lower().replace(".x", ".0")) < parse_version(driver) for h in named)
    except Exception:  # a version the parser cannot order: no claim that it is older
        older = False
    if not older:
        return fix_hdk
    return [_("check the 'version compatibility' table in the release notes of Ascend HDK {driver} (the installed "
              "driver) for CANN {cann}; if it does not list it, ask support with the output of `npu-smi info` and "
              "`cat /usr/local/Ascend/driver/version.info`").format(driver=driver, cann=cann)]


def _upgrade_order_steps(drv, fw, matrix) -> List[str]:
    drv_pkg = drv.package_version or drv.version
    fw_pkg = fw.package_version
    steps = []
    if fw_pkg and drv_pkg and parse_version(fw_pkg) < parse_version(drv_pkg):
        fws = [r["firmware"] for r in matrix.firmware_for_hdk(drv_pkg)]
        steps.append(_("{step}   # the firmware is the older of the two").format(
            step=_("upgrade the firmware to the one from HDK {hdk} (the driver's release): firmware {firmware}").format(
                hdk=drv_pkg, firmware=", ".join(fws)) if fws else
            _("upgrade the firmware to the one from HDK {hdk} (the driver's release)").format(hdk=drv_pkg)))
    elif fw_pkg and drv_pkg and parse_version(drv_pkg) < parse_version(fw_pkg):
        steps.append(_("{step}   # the driver is the older of the two").format(
            step=_("upgrade the driver to HDK {hdk} (the firmware's release)").format(hdk=fw_pkg)))
    else:
        steps.append(_("install the driver and the firmware from the same Ascend HDK release"))
    steps.append(_("./Ascend-hdk-<chip>-npu-firmware_<version>.run --upgrade  /  "
                   "./Ascend-hdk-<chip>-npu-driver_<version>_linux-<arch>.run --upgrade   "
                   "# order as the HDK install guide for your server says; reboot after the firmware"))
    steps.append(_("npu-smi info -t board -i 0   # afterwards: Compatibility should read OK"))
    return steps


def _numeric_in_range(candidate: str, lo: str, hi: str) -> bool:
    v = parse_version(candidate)
    return parse_version(lo) <= v <= parse_version(hi)


@check(DRIVER_FW, TITLES[DRIVER_FW], pitfalls=["P24"],
       fail=N_("NPU driver and firmware do not accept each other"), warn=N_("NPU driver and firmware: match unknown"),
       skip=N_("NPU driver and firmware: nothing to compare"))
def check_driver_firmware(ctx):
    drv, fw = ctx.facts.driver, ctx.facts.firmware
    if not drv.version or not fw.version:
        return ctx.finding(SKIP, _("No driver or firmware version found; nothing to compare.")
                           if not drv.version and not fw.version else
                           _("No driver version found; nothing to compare.") if not drv.version else
                           _("No firmware version found; nothing to compare."))
    matrix = ctx.matrix
    fw_ranges, fw_from = parse_range_list(drv.compatible_version_fw), _("driver version.info compatible_version_fw")
    if not fw_ranges and matrix.driver_sample(drv.version):
        s = matrix.driver_sample(drv.version)
        fw_ranges, fw_from = s["compatible_version_fw"], _("matrix sample of driver {version} [{source}]").format(
            version=s["version"], source=matrix.describe_source(s["source"]))
    drv_ranges, drv_from = parse_range_list(fw.compatible_version_drv), _("firmware version.info compatible_version_drv")
    if not drv_ranges and matrix.firmware_sample(fw.version):
        s = matrix.firmware_sample(fw.version)
        drv_ranges, drv_from = s["compatible_version_drv"], _("matrix sample of firmware {version} [{source}]").format(
            version=s["version"], source=matrix.describe_source(s["source"]))
    evidence = {"driver": drv.version, "firmware": fw.version,
                "compatible_version_fw": _("{values} (from {source})").format(values=_listed(fw_ranges), source=fw_from)
                if fw_ranges else _("unknown"),
                "compatible_version_drv": _("{values} (from {source})").format(values=_listed(drv_ranges),
                                                                                source=drv_from)
                if drv_ranges else _("unknown"),
                "rule": _("Huawei DCMI: firmware >= '6.4.'; then firmware in a driver range, or driver in a firmware "
                          "range; byte-wise compare after cutting to the bound's length (hicann/driver "
                          "dcmi_permission_judge.c)")}
    if vendor_firmware_too_old(fw.version):
        return ctx.finding(FAIL,
                           _("Firmware {firmware} is older than 6.4, which no current driver accepts (Huawei's first "
                             "rule; see {check}).").format(firmware=fw.version, check=FW_MIN),
                           evidence, _upgrade_order_steps(drv, fw, matrix), "P24")
    hit = vendor_in_any_range(fw.version, fw_ranges)
    if hit:
        if not _numeric_in_range(fw.version, *hit):
            evidence["note"] = _("accepted only because Huawei compares strings: numerically {firmware} is outside "
                                 "[{low}, {high}]").format(firmware=fw.version, low=hit[0], high=hit[1])
        return ctx.finding(PASS, _("Firmware {firmware} is inside driver {driver}'s range [{low}, {high}].").format(
            firmware=fw.version, driver=drv.version, low=hit[0], high=hit[1]), evidence)
    hit = vendor_in_any_range(drv.version, drv_ranges)
    if hit:
        text = _("Driver {driver} is inside firmware {firmware}'s range [{low}, {high}] (any {low}.*).") \
            if hit[1] == hit[0] + "." else _("Driver {driver} is inside firmware {firmware}'s range [{low}, {high}].")
        return ctx.finding(PASS, text.format(driver=drv.version, firmware=fw.version, low=hit[0], high=hit[1]), evidence)
    if not fw_ranges and not drv_ranges:
        return ctx.finding(WARN,
                           _("Neither the driver nor the firmware version.info lists the other's accepted versions, and "
                             "the matrix has no sample for driver {driver}; whether they match is unknown "
                             "(npu-smi would show Compatibility: UNKNOWN).").format(driver=drv.version), evidence,
                           [_("npu-smi info -t board -i 0   # read the Compatibility line")], "P24")
    return ctx.finding(FAIL,
                       sentences(_("Driver {driver} and firmware {firmware} do not accept each other: the firmware is "
                                   "outside {driver_ranges} and the driver is outside {firmware_ranges}.").format(
                                       driver=drv.version, firmware=fw.version,
                                       driver_ranges=fw_ranges or _("the (unknown) driver ranges"),
                                       firmware_ranges=drv_ranges or _("the (unknown) firmware ranges")),
                                 _("Devices may fail to start or run with a mismatched microcode.")),
                       evidence, _upgrade_order_steps(drv, fw, matrix), "P24")


@check(FW_MIN, TITLES[FW_MIN], pitfalls=["P24"],
       fail=N_("NPU firmware is older than 6.4"), skip=N_("No NPU firmware version to judge"))
def check_firmware_min(ctx):
    fw = ctx.facts.firmware
    if not fw.version:
        return ctx.finding(SKIP, _("No firmware version found."))
    evidence = {"firmware": fw.version,
                "minimum": _("'{prefix}' (byte-wise, COMPAT_VERSION_START_FW)").format(prefix=FIRMWARE_MIN_PREFIX),
                "source": ctx.matrix.describe_source(ctx.matrix["rules"]["driver_firmware"]["source"])}
    if vendor_firmware_too_old(fw.version):
        fix = [r["firmware"] for r in ctx.matrix.data["hdk_firmware"] if not vendor_firmware_too_old(r["firmware"])]
        return ctx.finding(FAIL,
                           _("Firmware {firmware} is older than 6.4; Huawei's driver reports any firmware before 6.4 "
                             "as not compatible.").format(firmware=fw.version), evidence,
                           [_("upgrade the NPU firmware to the one shipped with your driver's HDK (6.4 or newer, e.g. "
                              "{examples})").format(examples=", ".join(sorted(set(fix), key=version_key)[:3])),
                            _("npu-smi info -t board -i 0   # after a reboot: Firmware Version and Compatibility")], "P24")
    return ctx.finding(PASS, _("Firmware {firmware} is 6.4 or newer.").format(firmware=fw.version), evidence)


def _platform(ctx) -> Optional[str]:
    arch = (ctx.facts.system.arch or "").lower()
    return _ARCH_PLATFORM.get(arch)


@check(PY_MS, TITLES[PY_MS], pitfalls=["P21"],
       fail=N_("No MindSpore wheel for this Python version"), warn=N_("Python and the MindSpore release: support unknown"),
       skip=N_("Python and the MindSpore release: judged elsewhere"))
def check_python_mindspore(ctx):
    ms = _installed_mindspore(ctx)
    py = ctx.facts.python.version
    if not ms or not py:
        return ctx.finding(SKIP, _("MindSpore or the Python version is unknown; nothing to compare."))
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
        return ctx.finding(SKIP, _("Judged from the installed wheel's tags (mindspore.python_supported); the matrix "
                                   "view is in the evidence."), evidence)
    if not row:
        return ctx.finding(WARN, _("MindSpore {version} has no Python row in the matrix; whether Python {python} "
                                   "is supported is unknown.").format(version=ms.version, python=pm), evidence, [], "P21")
    if pm in row["python"]:
        return ctx.finding(PASS, _("MindSpore {version} wheels exist for Python {python}.").format(
            version=ms.version, python=pm), evidence)
    newest = sorted(row["python"], key=version_key)[-1]
    fix = [_("conda create -n mindspore python={newest} && conda activate mindspore   # a Python MindSpore "
             "{version} has wheels for ({pythons})").format(newest=newest, version=ms.version,
                                                           pythons=", ".join(row["python"]))]
    if flavour == "gpu":
        # a GPU plan: no CANN in it; the way out is a release with a GPU build for this Python (checks/_gpu_fix.py)
        from ._gpu_fix import env_steps, pick_python, plan
        from .compat_gpu import _cuda_mms

        planned_cuda = [mm for mm, _path in _cuda_mms(ctx)]
        # the node's CUDA first where every source names a build of this release for it; one the sources disagree
        # on is not preferred (compat.cuda_mindspore plans a CUDA they agree on: one CUDA in a report)
        agreed = (matrix.mindspore_row(ms.version) or {}).get("gpu", {}).get("built_for", {}).get("value", [])
        p = plan(matrix, ms.version, newest, ctx.facts.cuda.driver_version,
                 prefer=[c for c in planned_cuda if c in agreed or not agreed],
                 cuda_max=ctx.facts.cuda.driver_cuda_max, node_cuda=planned_cuda)
        fix = p["steps"] + p["alternative"] or fix
        cudas = sorted({c for r in matrix.mindspore_releases for c in r["gpu"]["built_for"]["value"]}, key=version_key)
        alt = matrix.mindspore_gpu_for_cuda(cudas, python=pm, platform=platform)
        if alt:
            other = plan(matrix, alt[0]["version"], pm, ctx.facts.cuda.driver_version, prefer=planned_cuda,
                         cuda_max=ctx.facts.cuda.driver_cuda_max, node_cuda=planned_cuda)
            fix.append(or_heading(_("keep Python {python}: MindSpore {version} has a GPU build for it (CUDA {cuda})").format(
                python=pm, version=alt[0]["version"], cuda=", ".join(alt[0]["gpu"]["built_for"]["value"]))))
            fix += other["steps"] or env_steps(matrix, alt[0]["version"], alt[0]["gpu"]["built_for"]["value"][-1],
                                               pick_python(matrix, alt[0]["version"], pm) or pm, planned_cuda)
    else:
        inst = judged_cann(ctx.facts)[0]
        advice = advise_mindspore(matrix, ctx.facts, inst.release if inst else None,
                                  inst.compiler_version if inst else None,
                                  why=N_("or keep Python {python}: the newest MindSpore published with {target}"),
                                  why_values={"python": pm})
        fix += [line for line in advice.fix if advice.rows or line == advice.upgrade]
    return ctx.finding(FAIL,
                       _("MindSpore {version} has wheels for Python {pythons} on {platform}, not for Python {python}: "
                         "pip refuses it, or a copied install fails to import its C extensions.").format(
                           version=ms.version, pythons=", ".join(row["python"]), platform=row["platform"], python=pm),
                       evidence, fix, "P21")




@check(CUSTOM_OPS, TITLES[CUSTOM_OPS], pitfalls=["P22"],
       warn=N_("MindSpore's bundled custom operators were built for another CANN"),
       skip=N_("No bundled custom operators to match with CANN"))
def check_custom_ops_cann(ctx):
    ms = _installed_mindspore(ctx)
    if not ms:
        return ctx.finding(SKIP, _("MindSpore is not installed."))
    inst, others, why = judged_cann(ctx.facts)
    matrix = ctx.matrix
    row = matrix.mindspore_row(ms.version)
    built = dict(ms.custom_ops_cann)
    built_from = _("the installed wheel's custom-op version.info")
    if not built and row and row.get("custom_ops_built_with"):
        built = {"custom_ascendc_910b": row["custom_ops_built_with"]["compiler_version"]}  # built_from names the matrix
        built_from = _("the matrix [{source}]").format(source=matrix.describe_source(row["custom_ops_built_with"]["source"]))
    if not built:
        return ctx.finding(SKIP, _("MindSpore {version} ships no custom-operator build record "
                                   "(releases before 2.4 do not check it).").format(version=ms.version))
    if inst is None or not major_minor(inst.compiler_version):
        return ctx.finding(SKIP, _("The installed CANN compiler version is unknown; nothing to compare "
                                   "the custom operators with."), {"custom_ops_built_with": built})
    mm = major_minor(inst.compiler_version)
    evidence = {"mindspore": ms.version, "cann_judged": _describe_install(inst), "why_this_cann": why,
                "custom_ops_built_with": _("{values} (from {source})").format(values=_listed(built), source=built_from),
                "matrix": _matrix_info(ctx)}
    differ = {d: v for d, v in built.items() if major_minor(v) != mm}
    if not differ:
        return ctx.finding(PASS, _("The bundled custom operators were built with CANN compiler {compiler}, "
                                   "that of {cann}.").format(compiler=mm, cann=_cann_here(ctx)), evidence)
    want = sorted({major_minor(v) for v in differ.values() if major_minor(v)})
    published = [c["cann"] for c in matrix.published_canns(ms.version)
                 if any(major_minor(matrix.compiler_for_cann(c["cann"])[0]) == w for w in want)]
    # A CANN the driver here runs (a source pairs them) is named alone; else each CANN with the HDK it needs.
    driver = ctx.facts.driver.package_version or ctx.facts.driver.version
    runs = [c for c in published if driver_runs(matrix, c, driver)]
    ways = [(" / ".join(runs), "", "")] if runs else \
        [(c, driver_note(matrix, c, driver), older_hdk_note(matrix, c, driver)) for c in published]
    fix = ([(lambda line, older: _("{step}   # {note}").format(step=line, note=older) if older else line)(
        _("install CANN {cann}{driver}, published with MindSpore {version} and built with the compiler these "
          "operators need ({compilers})").format(cann=cann, driver=note, version=ms.version,
                                                  compilers=", ".join(want)), older)
            for cann, note, older in ways]
           if published else
           [_("install the CANN whose compiler is {compilers} (the one these operators were built with); the "
              "matrix names no published pairing of it with MindSpore {version}").format(
                  compilers=" / ".join(want), version=ms.version)])
    advice = advise_mindspore(matrix, ctx.facts, inst.release, inst.compiler_version,
                              why=N_("or the newest MindSpore published with {target}"))
    fix += [line for line in advice.fix if line != advice.upgrade] if advice.rows else []
    from ..plan import as_ways

    fix, ways = as_ways(fix)  # each line is one way (a CANN, or a MindSpore): the others are alternatives
    finding = ctx.finding(WARN,
                       _("MindSpore {version}'s bundled custom operators were built with CANN compiler "
                         "{built}, but {cann} is {compiler}; MindSpore warns at "
                         "import and those operators may fail to load or compute wrongly.").format(
                           version=ms.version, built=", ".join(sorted(set(differ.values()))), cann=_cann_here(ctx),
                           compiler=mm),
                       evidence, fix, "P22")
    finding.alternatives = ways
    return finding
