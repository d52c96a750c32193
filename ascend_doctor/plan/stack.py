"""The version stack (MindSpore x CANN in use x NPU driver/firmware) planned as a whole: the candidate target states
from the matrix's published pairings and the CANN installs already on the node, each judged again by the compat
checks on the changed facts, and their ranking (`plan_stack`).

Part of ascend_doctor.plan (the package's docstring says how a plan is chosen).
"""

from __future__ import annotations

import copy
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Finding
from ..i18n import _
from ..records import dataclass, field
from ..versions import major_minor, python_major_minor, version_key
from .steps import RANK

# The compat checks judge the version stack; the planner runs them again on candidate target states.
STACK_CHECKS = ("compat.mindspore_cann", "compat.cann_driver", "compat.driver_firmware", "compat.firmware_min",
                "compat.python_mindspore", "compat.custom_ops_cann")

@dataclass
class StackState:
    """A target state of the version stack: what changes (None: stays), and the steps that get there."""

    mindspore: Optional[dict] = None  # matrix row
    python: Optional[str] = None  # a new Python environment of this version (MindSpore installed in it)
    cann_installed: Any = None  # a CannInstall already on the node, to source
    cann_new: Optional[str] = None  # a CANN release to install
    hdk: Optional[str] = None  # an Ascend HDK release: driver (+ firmware of that release)
    driver_only: bool = False  # the driver changes to `hdk`, the firmware stays
    paired: bool = False  # the CANN comes with the MindSpore published with it: the two are one change
    keeps_cann: Optional[str] = None  # an alternative that keeps this CANN (and its pairing with the driver unknown)
    steps: List[Tuple[str, str]] = field(default_factory=list)  # (step, level)
    statuses: Dict[str, str] = field(default_factory=dict)  # check id -> status in this state
    parts: Dict[str, Any] = field(default_factory=dict)  # "cann" | "mindspore" | "hdk" -> (option, its steps)

    @property
    def level(self) -> int:
        return max((RANK[lvl] for _s, lvl in self.steps), default=-1)


def _judge(facts, matrix, only: Sequence[str]) -> Dict[str, str]:
    from ..checks import CheckContext, all_checks

    ctx = CheckContext(facts=facts, options={"live": False}, _matrix=matrix)
    out: Dict[str, str] = {}
    for spec in all_checks():
        if spec.id not in only:
            continue
        try:
            result = spec.func(ctx)
        except Exception:  # a check crashing on a hypothetical state: that state proves nothing
            out[spec.id] = ERROR
            continue
        for f in result if isinstance(result, list) else [result] if result is not None else []:
            if SEVERITY_ORDER.get(f.status, 0) >= SEVERITY_ORDER.get(out.get(f.id, PASS), 0):
                out[f.id] = f.status
    return out


SEVERITY_ORDER = {PASS: 0, SKIP: 0, WARN: 1, ERROR: 1, FAIL: 2}


def _driver_spelling(hdk: str) -> str:
    return re.sub(r"(?i)\.rc", ".rc", hdk)  # the driver's version.info writes 24.1.rc2 for HDK 24.1.RC2


def _apply(facts, matrix, state: StackState):
    """The facts as they would be after the state's steps (a copy; the matrix's rows stand for new packages)."""
    from ..facts import JUDGED_ENV, CannChoice, CannInstall

    new = copy.copy(facts)  # only the parts a state changes are copied (the rest is read, never written)
    for part in ("mindspore", "cann", "driver", "firmware", "python", "npu"):
        setattr(new, part, copy.deepcopy(getattr(facts, part)))
    if state.python:
        new.python.version = state.python
    if state.mindspore is not None:
        ms = new.mindspore
        ms.installed, ms.version = True, state.mindspore["version"]
        ms.accepted_cann, ms.custom_ops_cann, ms.wheel_tags = [], {}, []
        ms.flavour = ms.flavour if ms.flavour in ("ascend", "gpu", "cpu") else "ascend"
    inst = None
    if state.cann_installed is not None:
        inst = next(i for i in new.cann.installs if i.root == state.cann_installed.root)
    elif state.cann_new:
        mm = matrix.compiler_for_cann(state.cann_new)[0]
        inst = CannInstall(root=f"(planned {state.cann_new})", kind="toolkit", release=state.cann_new,
                           compiler_version=mm, active=True)
        new.cann.installs = list(new.cann.installs) + [inst]
    if inst is not None:
        for i in new.cann.installs:
            i.active = i is inst
        new.cann.active_root = inst.root
        new.cann.judged = CannChoice(root=inst.root, reason=JUDGED_ENV)
    if state.hdk:
        drv = new.driver
        drv.installed, drv.version = True, _driver_spelling(state.hdk)
        drv.package_version, drv.compatible_version, drv.compatible_version_fw = state.hdk, [], []
        new.npu.driver_version = None
        if not state.driver_only:
            fws = [r["firmware"] for r in matrix.firmware_for_hdk(state.hdk)]
            fw = new.firmware
            # An HDK's own driver and firmware are released together; with no firmware row the pair is not judged
            fw.version, fw.package_version, fw.compatible_version_drv = (fws[0] if fws else None), state.hdk, []
    return new


def _same_release(a: str, b: str) -> bool:
    from ..versions import release_matches

    return release_matches(a, b) and release_matches(b, a)


def _installed_release(facts, release: str):
    from ..versions import release_matches

    return next((i for i in facts.cann.installs if i.release and release_matches(i.release, release)
                 and release_matches(release, i.release)), None)


def _hdk_choices(matrix, cann: Optional[str]) -> List[str]:
    """The HDK releases a source pairs with (else lists as compatible with) this CANN; never a known-working
    report, which no vendor table gives."""
    from ..checks.compat import needed_hdk

    return needed_hdk(matrix, cann)[:2] if cann else []


def _driver_canns(matrix, driver: Optional[str], python, platform,
                  limit: int = 2) -> List[Tuple[str, str, List[str], bool]]:
    """(CANN release, the newest MindSpore published with it for this Python, else for any (else one built with it),
    the matrix's sources of the driver row, whether that MindSpore is published with it) for the CANN releases a
    source pairs with the installed driver or lists as compatible with it, newest CANN first: the candidates that
    keep the driver. Where no such source names the driver, the CANN releases the vendor's package list reports
    working with it (a `known-working` row, which compat.cann_driver passes): a CANN install is still no root and
    no reboot, and keeping the driver is never a claim about another driver."""
    from ..versions import release_matches

    if not driver:
        return []
    for relations in (("paired", "compatible"), ("known-working",)):
        found: Dict[str, Tuple[str, List[str]]] = {}
        for row in matrix.data["cann_hdk"]:
            if row["relation"] not in relations or row["cann"] in found:
                continue
            if not any(release_matches(driver, p) for p in row["hdk"]):
                continue
            # a MindSpore with a wheel for this Python, else one in a new environment (its Python's wheels); else
            # one whose wheel is built with that CANN and whose own check accepts it (read from the wheel)
            published = matrix.published_mindspore_for_cann(row["cann"], None, python, platform) or \
                matrix.published_mindspore_for_cann(row["cann"], None, None, platform)
            built = [] if published else (matrix.built_with_mindspore_for_cann(row["cann"], python, platform) or
                                          matrix.built_with_mindspore_for_cann(row["cann"], None, platform))
            if published or built:
                found[row["cann"]] = ((published or built)[0]["version"], list(row["source"]), bool(published))
        if found:
            return [(c, v, src, pub) for c, (v, src, pub) in
                    sorted(found.items(), key=lambda kv: version_key(kv[0]), reverse=True)[:limit]]
    return []


def _dimensions(facts, matrix, wide: bool = False):
    """The ways each part of the stack may change, from the matrix's published pairings and the installs here:
    [(cann change, [MindSpore changes], [driver changes])], a change being (what, steps) and None "stays"."""
    from ..checks._recommend import _by, cann_install_step, platform_of
    from ..matrix import mindspore_install_steps

    ms = facts.mindspore if facts.mindspore.installed and facts.mindspore.version else None
    judged = facts.cann.judged_install
    python, platform = facts.python.version, platform_of(facts)

    def source_step(inst):
        path = inst.set_env or inst.root.rstrip("/") + "/set_env.sh"
        return (_("source {path}   # CANN {release} is installed there; use it instead of installing one").format(
            path=path, release=inst.release or inst.compiler_version), "shell")

    def cann_step(release, version, driver_source=None, published=True):
        step = cann_install_step(release)
        if driver_source and not published:  # MindSpore's wheel is built with it (no table pairs the two)
            return (_("{step}   # MindSpore {version}'s wheel is built with it and its own check accepts it; the "
                      "installed driver {driver} runs it ({source})").format(
                step=step, version=version, driver=driver, source=matrix.describe_source(driver_source)), "cann")
        if driver_source:  # chosen because the driver here runs it: the comment says so, and who says it
            return (_("{step}   # published with MindSpore {version}; the installed driver {driver} runs it "
                      "({source})").format(step=step, version=version, driver=driver,
                                           source=matrix.describe_source(driver_source)), "cann")
        return (_("{step}   # published with MindSpore {version}").format(step=step, version=version), "cann")

    def hdk_step(hdk, cann):
        if facts.driver.version and _same_release(facts.driver.version, hdk):  # the driver is that release already
            return (_("{step}   # needs root and a reboot; the driver already is that release").format(
                step=_("install the NPU firmware of HDK {hdk} (the driver's release), then reboot").format(hdk=hdk)),
                "driver")
        # The HDK install guide's order (CANN install guide "Installing the NPU Driver and Firmware",
        # https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/softwareinst/instg/instg_0005.html):
        # a first install (no driver, or driver and firmware uninstalled) is driver > firmware; an overwrite install
        # or upgrade over an installed driver and firmware is firmware > driver.
        if facts.driver.installed or facts.driver.version:
            step = _("install Ascend HDK {hdk} (the NPU firmware, then the driver, as the HDK install guide orders it), "
                     "then reboot").format(hdk=hdk)
        else:
            step = _("install Ascend HDK {hdk} (the NPU driver, then the firmware, as the HDK install guide orders it), "
                     "then reboot").format(hdk=hdk)
        return (_("{step}   # needs root and a reboot; paired with CANN {cann} by the matrix's sources").format(
            step=step, cann=cann), "driver")

    # the CANN in use: stays, another install here (sourced), or a release published with this MindSpore (or the
    # newest published pairing's) that is not here; an installed release is sourced, never installed again
    cann_opts: List[Tuple[Any, Optional[str], List[Tuple[str, str]]]] = [(None, None, [])]
    for other in facts.cann.installs:
        if other is not judged and (other.release or other.compiler_version):
            cann_opts.append((other, None, [source_step(other)]))
    wanted = {c["cann"]: ms.version for c in matrix.published_canns(ms.version)[:3]} if ms else {}
    newest = matrix.newest_published_pairing(python, platform) if ms else None
    if newest:
        wanted.setdefault(newest[1]["cann"], newest[0]["version"])
    if wide and ms:
        # no state above clears the failures: the newest published pairing in a new Python environment too
        newest = matrix.newest_published_pairing(None, platform)
        if newest:
            wanted.setdefault(newest[1]["cann"], newest[0]["version"])
    # a CANN release the installed driver is paired or listed compatible with, in a pair with a MindSpore release
    # published with it: a CANN install (and a pip install) where the other ways change the driver
    pair_only = set()
    driver = facts.driver.package_version or facts.driver.version
    driver_source: Dict[str, List[str]] = {}
    only_built = set()  # pair_only releases whose MindSpore is built with them, not published with them
    if ms:
        for release, version, source, published in _driver_canns(matrix, driver, python, platform):
            same = next((w for w in wanted if _same_release(release, w)), None)
            if same is None:
                wanted[release] = version
                pair_only.add(release)
                driver_source[release] = source
                if not published:
                    only_built.add(release)
            elif wanted[same] == version != ms.version:
                pair_only.add(same)  # the newest published pairing is such a pair: one change, as the others
    for release, version in wanted.items():
        there = _installed_release(facts, release)
        if there is None:
            cann_opts.append((None, release, [cann_step(release, version, driver_source.get(release),
                                                        release not in only_built)]))
        elif there is not judged and all(o[0] is not there for o in cann_opts):
            cann_opts.append((there, None, [source_step(there)]))
    out = []
    for inst, release, steps in cann_opts:
        cann = release or (inst.release if inst is not None else judged.release if judged is not None else None)
        compiler = None if release else (inst or judged).compiler_version if (inst or judged) is not None else None
        label = f"CANN {cann or compiler}"
        ms_opts: List[Tuple[Optional[dict], Optional[str], List[Tuple[str, str]]]] = [(None, None, [])]
        if release in pair_only and not any(_same_release(release, c["cann"]) for c in matrix.published_canns(
                ms.version)) and not any(r["version"] == ms.version for r in
                                         matrix.built_with_mindspore_for_cann(release)):
            ms_opts = []  # that CANN comes with a MindSpore published (or built) with it: this one is not
        if ms and (cann or compiler):
            def install(row, why_cann=True):
                why = _("published with {cann} ({sources})").format(cann=label, sources=_by(matrix, row, cann or "")) \
                    if why_cann else _("the same MindSpore, in a Python it has wheels for")
                return [(x, "python") for x in mindspore_install_steps([row], why, limit=1)]

            def built(row):
                return [(x, "python") for x in mindspore_install_steps([row], _(
                    "its custom ops are built with {cann} and its own check accepts it (both read from its wheel)"
                ).format(cann=label), limit=1)]

            # a release published with this CANN, else one whose wheel is built with it (it runs on that CANN as
            # shipped, and keeps it: a pip-level fix before any CANN change)
            published = matrix.published_mindspore_for_cann(cann, compiler, python, platform)[:2]
            # (a CANN install is planned with one only where the installed driver runs that CANN: pair_only)
            shipped = [r for r in (matrix.built_with_mindspore_for_cann(cann, python, platform)
                                   if release is None or release in only_built else [])
                       if all(r["version"] != p["version"] for p in published)][:1]
            for row in published + shipped:
                if row["version"] != ms.version:
                    ms_opts.append((row, None, install(row) if row in published else built(row)))
            # a Python the release has wheels for, in a new environment (this MindSpore, or one published with CANN,
            # or one built with it), inside the Python range the CANN's install guide states
            here = matrix.mindspore_row(ms.version)
            pub_any = matrix.published_mindspore_for_cann(cann, compiler, None, platform)[:2]
            anypy = pub_any + [r for r in (matrix.built_with_mindspore_for_cann(cann, None, platform)
                                           if release is None or release in only_built else [])
                               if all(r["version"] != p["version"] for p in pub_any)][:1]
            rows = ([here] if here else []) + [r for r in anypy if not here or r["version"] != here["version"]]
            for row in rows:
                fits = matrix.python_for(row["version"], platform, "ascend")
                pythons = sorted((fits or {}).get("python") or [], key=version_key)
                if not pythons or (python and python_major_minor(python) in pythons):
                    continue
                ranged = [p for p in pythons if matrix.python_in_cann_range(p, cann)]
                pythons = ranged or pythons
                env = (_("{step}   # a Python MindSpore {version} has wheels for").format(
                    step=f"conda create -n mindspore python={pythons[-1]} -y && conda activate mindspore",
                    version=row["version"]), "python")
                way = install(row, row is not here) if row is here or row in pub_any else built(row)
                ms_opts.append((row, pythons[-1], [env] + way))
        hdk_opts: List[Tuple[Optional[str], bool, List[Tuple[str, str]]]] = [(None, False, [])]
        for hdk in (_hdk_choices(matrix, cann) if cann else []):
            hdk_opts.append((hdk, False, [hdk_step(hdk, cann)]))
        fw = facts.firmware
        own = facts.driver.package_version or facts.driver.version
        if own and fw.version and not any(_same_release(own, h) for h, _d, _s in hdk_opts if h):
            hdk_opts.append((own, False, [hdk_step(own, cann)]))  # the firmware of the driver's own release
        if fw.package_version and facts.driver.version and not _same_release(facts.driver.version, fw.package_version):
            hdk_opts.append((fw.package_version, True, [(_(
                "{step}   # needs root and a reboot; the firmware already is that release").format(
                step=f"upgrade the NPU driver to Ascend HDK {fw.package_version} (the firmware's release), then "
                     f"reboot"), "driver")]))
        out.append(((inst, release, steps), ms_opts, hdk_opts, release in pair_only))
    return out


def _state(cann, ms_opt, hdk_opt) -> StackState:
    inst, release, cann_steps = cann
    row, python, ms_steps = ms_opt
    hdk, driver_only, hdk_steps = hdk_opt
    # the order to do them in: the driver under CANN, CANN (or the shell that sources it), then MindSpore
    parts = {name: (opt, steps) for name, opt, steps in (("hdk", hdk_opt, hdk_steps), ("cann", cann, cann_steps),
                                                          ("mindspore", ms_opt, ms_steps)) if steps}
    return StackState(mindspore=row, python=python, cann_installed=inst, cann_new=release, hdk=hdk,
                      driver_only=driver_only, steps=hdk_steps + cann_steps + ms_steps, parts=parts)


def _cleared(before: str, after: str) -> bool:
    """A failure is cleared when it no longer fails (an unknown pairing may stay a warning); a warning when it
    passes or no longer applies."""
    return (before == FAIL and after != FAIL) or (before in (WARN, ERROR) and after in (PASS, SKIP))


_STAYS = {"hdk": (None, False, []), "cann": (None, None, []), "mindspore": (None, None, [])}


def _attribute(facts, matrix, best: StackState, resolved: List[str], now: Dict[str, str]) -> Dict[str, List[str]]:
    """Which of the findings the state clears each part of it clears: those that come back without that part
    (a finding no single part clears alone is credited to every part)."""
    if len(best.parts) < 2:
        return {name: list(resolved) for name in best.parts}
    out: Dict[str, List[str]] = {}
    for name in best.parts:
        rest = {n: (best.parts[n][0] if n in best.parts else _STAYS[n]) for n in _STAYS}
        rest[name] = _STAYS[name]
        without = _state(rest["cann"], rest["mindspore"], rest["hdk"])
        statuses = _judge(_apply(facts, matrix, without), matrix, tuple(best.statuses))
        out[name] = [fid for fid in resolved if not _cleared(now[fid], statuses.get(fid, PASS))]
    credited = {fid for ids in out.values() for fid in ids}
    for name in out:
        out[name] += [fid for fid in resolved if fid not in credited]
    if best.paired and "cann" in out and "mindspore" in out:
        # a CANN installed with the MindSpore published with it: what either clears, the pair clears (a finding
        # never gets the CANN without the MindSpore that makes it a published pairing)
        both = list(dict.fromkeys(out["cann"] + out["mindspore"]))
        out["cann"], out["mindspore"] = both, list(both)
    return out


def _candidates(facts, matrix, combined: bool, wide: bool = False) -> List[StackState]:
    """Target states: one part changed at a time, or (`combined`) every combination of the parts' changes."""
    dims = _dimensions(facts, matrix, wide)
    states: List[StackState] = []
    for cann, ms_opts, hdk_opts, paired in dims:
        for ms_opt in ms_opts:
            for hdk_opt in hdk_opts:
                # a CANN that comes with its MindSpore is one change (the pair)
                changed = (cann[0] is not None or cann[1] is not None) + (ms_opt[2] != [] and not paired) + \
                    (hdk_opt[0] is not None)
                if (changed <= 1) != combined:
                    states.append(_state(cann, ms_opt, hdk_opt))
                    states[-1].paired = paired
    return states


# The checks that judge a pairing of two parts of the stack: their warning on a state is "no source gives this
# pairing" (an unknown, not proven wrong), a pairing the plan itself would leave behind.
PAIRING_CHECKS = ("compat.mindspore_cann", "compat.cann_driver", "compat.driver_firmware")


def _key(state: StackState, index: int) -> tuple:
    fails = sum(1 for s in state.statuses.values() if s == FAIL)
    warns = sum(1 for s in state.statuses.values() if s in (WARN, ERROR))
    unknown = sum(1 for c, s in state.statuses.items() if c in PAIRING_CHECKS and s in (WARN, ERROR))
    levels = [RANK[lvl] for _s, lvl in state.steps]
    # fewest failures left; then the least disruptive (its worst step); then, at that level, the fewest pairings
    # no source gives (a CANN the driver has no source pairing for loses to a published CANN + MindSpore pair the
    # driver runs, though that is one step more); then all its steps (MindSpore before CANN before the driver);
    # then the fewest warnings; then the matrix's order (best published pairing first). Sourcing another CANN to
    # silence a warning would contradict the checks that decide which install a shell sources: it is never done
    # for one.
    return fails, state.level, unknown, sum(levels), warns, len(state.steps), index


def _warning_key(state: StackState, index: int) -> tuple:
    """With no failure to clear, a warning is cleared only by changing MindSpore (a pip install): the fewest
    warnings left, then the least change. Sourcing another CANN or changing the driver for a warning would
    contradict the checks that decide which install a shell sources, or take a node down for an unknown."""
    fails, level, _unknown, total, warns, steps, index = _key(state, index)
    return fails, warns, level, total, steps, index


def _python_only(state: StackState) -> bool:
    return state.level <= RANK["python"] and "cann" not in state.parts and "hdk" not in state.parts


def _downgrades_a_driver_not_proven_wrong(facts, state: StackState, now: Dict[str, str]) -> bool:
    """A driver downgrade (root, a reboot, an older driver) is only for a driver the checks prove wrong (for the CANN
    in use, or with its firmware); an unknown pairing is not proven wrong (what to check and whom to ask is its fix instead)."""
    from ..versions import parse_version

    driver = facts.driver.package_version or facts.driver.version
    proven = any(now.get(c) == FAIL for c in ("compat.cann_driver", "compat.driver_firmware", "compat.firmware_min"))
    if not state.hdk or not driver or proven:
        return False
    try:
        return parse_version(state.hdk.lower().replace(".x", ".0")) < parse_version(driver)
    except Exception:  # versions the parser cannot order: no claim that it is a downgrade
        return False


def _final_cann(facts, state: StackState) -> Optional[str]:
    if state.cann_new:
        return state.cann_new
    inst = state.cann_installed if state.cann_installed is not None else facts.cann.judged_install
    return inst.release if inst is not None else None


def unpublished(facts, matrix, state: StackState, statuses: Dict[str, str]) -> List[str]:
    """The pairings a state changes (one side of it or both) that no source in the matrix gives: each pairing check
    that judges a part the state changes and does not pass there (MindSpore x CANN, CANN x NPU driver, driver x
    firmware, MindSpore x Python), and CANN x Python when the Python is outside the range the CANN's install guide
    states. A plan never takes a step into such a state: it trades a failure for an unknown (audit H #43). A pairing
    the state leaves as it is is not its doing (the plan lists it unresolved when it is unknown)."""
    from ..checks.compat import CANN_DRIVER, DRIVER_FW, MS_CANN, PY_MS

    driver = facts.driver.package_version or facts.driver.version
    changes_ms, changes_py = state.mindspore is not None, bool(state.python)
    changes_cann = state.cann_installed is not None or bool(state.cann_new)
    changes_driver = bool(state.hdk) and not (driver and _same_release(driver, state.hdk))
    changes_fw = bool(state.hdk) and not state.driver_only
    touched = {MS_CANN: changes_ms or changes_cann, CANN_DRIVER: changes_cann or changes_driver,
               DRIVER_FW: changes_driver or changes_fw, PY_MS: changes_ms or changes_py}
    out = [c for c, changed in touched.items() if changed and statuses.get(c, PASS) not in (PASS, SKIP)]
    cann = _final_cann(facts, state)
    if (changes_cann or changes_py) and cann and not matrix.python_in_cann_range(state.python or facts.python.version,
                                                                                   cann):
        out.append(CANN_PYTHON)
    return out


# the pairing of the CANN and the Python it runs in (no check of its own: the CANN install guide's stated range)
CANN_PYTHON = "cann x python"


def plan_stack(facts, matrix, findings: Sequence[Finding]) -> Tuple[Optional[StackState], List[StackState]]:
    """The best target state of the version stack for the failures and warnings its checks report now, and the
    next best of other levels (alternatives). (None, []) when the stack has nothing to change. Only states whose
    every pairing the state changes is published (`unpublished`) are candidates: where none clears a failure, the
    failure is the plan's `unresolved`, never a step into an unknown."""
    from ..checks.compat import CANN_DRIVER, DRIVER_FW, MS_CANN, PY_MS

    now = {f.id: f.status for f in findings if f.id in STACK_CHECKS}
    if not any(s in (FAIL, WARN) for s in now.values()):
        return None, []
    only = tuple(now)
    judge_ids = tuple(dict.fromkeys(only + (MS_CANN, CANN_DRIVER, DRIVER_FW, PY_MS)))
    failing = any(s == FAIL for s in now.values())
    key = _key if failing else _warning_key
    judged: List[Tuple[tuple, StackState]] = []
    for combined, wide in ((False, False), (True, False), (True, True)):
        if combined and judged and judged[0][0][0] == 0:
            break  # a single change clears every failure: combining changes only adds disruption
        for state in _candidates(facts, matrix, combined, wide):
            if wide and state.cann_new is None:
                continue  # judged in the rounds before: only the wider CANN choice is new
            if not failing and not _python_only(state):
                continue
            if _downgrades_a_driver_not_proven_wrong(facts, state, now):
                continue
            if not state.steps:
                state.statuses = now
            else:
                statuses = _judge(_apply(facts, matrix, state), matrix, judge_ids)
                if unpublished(facts, matrix, state, statuses):
                    continue
                state.statuses = {c: statuses[c] for c in only if c in statuses}
            judged.append((key(state, len(judged)), state))
        judged.sort(key=lambda x: x[0])
    best_key, best = judged[0]
    if not best.steps:
        return None, []
    others, seen = [], {best.level}
    cleared = [i for i in now if _cleared(now[i], best.statuses.get(i, PASS))]
    for key, state in judged[1:]:
        if not all(_cleared(now[i], state.statuses.get(i, PASS)) for i in cleared):
            continue  # another way is one that clears what the plan clears
        if key[0] <= best_key[0] and state.steps and state.level not in seen and state.level > best.level:
            seen.add(state.level)
            others.append(state)
    others = others[:2]
    if best.cann_new or best.cann_installed is not None:
        keep = _keeping_the_cann(facts, matrix, now, judge_ids, only)
        if keep is not None:
            others.insert(0, keep)
    return best, others


def _keeping_the_cann(facts, matrix, now: Dict[str, str], judge_ids: Sequence[str],
                      only: Sequence[str]) -> Optional[StackState]:
    """Where the plan moves CANN to reach a published state (audit I #17/#47): the cheaper way that keeps the CANN in
    use, as an alternative: the newest MindSpore whose own check accepts that CANN (published with a CANN of the same
    compiler version), in a new Python environment with a wheel for it inside the CANN's Python range; it clears
    every failure and leaves only pairings that are unknown now (its label says so). None when there is none."""
    from ..checks._recommend import platform_of
    from ..matrix import mindspore_install_steps

    from ..checks.compat import CANN_DRIVER

    judged, ms = facts.cann.judged_install, facts.mindspore
    if judged is None or not judged.compiler_version or not judged.release or not ms.version or \
            now.get(CANN_DRIVER) not in (WARN, ERROR):
        return None  # the class: a CANN move made to leave a CANN / driver pairing no source gives
    platform = platform_of(facts)
    mm = major_minor(judged.compiler_version)
    for row in sorted(matrix.mindspore_releases, key=lambda r: version_key(r["version"]), reverse=True):
        if row["version"] == ms.version or row.get("release_kind") not in ("final", "post") or not any(
                major_minor(matrix.compiler_for_cann(c["cann"])[0]) == mm for c in matrix.published_canns(row["version"])):
            continue
        fits = matrix.python_for(row["version"], platform, "ascend")
        pythons = [p for p in sorted((fits or {}).get("python") or [], key=version_key)
                   if matrix.python_in_cann_range(p, judged.release)]
        if not pythons:
            continue
        here = python_major_minor(facts.python.version) if facts.python.version else None
        py = here if here in pythons else pythons[-1]
        why = _("its own check accepts CANN {cann}: it is published with CANN {published}, the same compiler "
                "version {compiler}").format(cann=judged.release, published=", ".join(
                    c["cann"] for c in matrix.published_canns(row["version"])
                    if major_minor(matrix.compiler_for_cann(c["cann"])[0]) == mm), compiler=mm)
        steps = [] if py == here else [(_("{step}   # a Python MindSpore {version} has wheels for").format(
            step=f"conda create -n mindspore python={py} -y && conda activate mindspore", version=row["version"]),
            "python")]
        steps += [(x, "python") for x in mindspore_install_steps([row], why, limit=1)]
        state = _state((None, None, []), (row, None if py == here else py, steps), (None, False, []))
        statuses = _judge(_apply(facts, matrix, state), matrix, judge_ids)
        if any(v == FAIL for v in statuses.values()) or unpublished(facts, matrix, state, statuses):
            continue
        if any(statuses.get(c) in (WARN, ERROR) and now.get(c) not in (WARN, ERROR) for c in PAIRING_CHECKS):
            continue  # an unknown it would bring is no cheaper way
        state.statuses = {c: statuses[c] for c in only if c in statuses}
        state.keeps_cann = judged.release
        return state
    return None
