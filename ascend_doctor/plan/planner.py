"""The plan: the stack's target state and every other finding's least disruptive option that agrees with it, in
dependency order (`build_plan`); findings the plan does not clear judged again on the state it leads to.

Part of ascend_doctor.plan (the package's docstring says how a plan is chosen).
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Finding
from ..i18n import _
from .stack import PAIRING_CHECKS, SEVERITY_ORDER, STACK_CHECKS, StackState, _apply, _attribute, _cleared, plan_stack
from .steps import (
    DO_ORDER, LEVELS, RANK, Plan, PlanStep, _is_look, _option_key, _option_level, _options, _same_command,
    command_part, normalize_fixes, step_level, step_targets,
)

UNRESOLVED_KEY = "not cleared by the plan"
AFTER_PLAN_KEY = "after the plan"  # what the check says on the state the plan leads to (a finding it does not clear)

_NEW_ENV = re.compile(r"\bconda create\b|\b(?:python3?\s+-m\s+)?venv\b|\bvirtualenv\b|\buv venv\b")


def _option_conflicts(steps: Sequence[str], targets: Dict[str, str], installed: Dict[str, List[str]]) -> bool:
    """An option contradicts the plan's targets or installs what is installed (a package in a new Python
    environment is no reinstall)."""
    if any(_NEW_ENV.search(command_part(s)) for s in steps):
        installed = {k: v for k, v in installed.items() if k != "mindspore"}
    return any(_conflicts(s, targets, installed) for s in steps)


def _conflicts(step: str, targets: Dict[str, str], installed: Dict[str, List[str]]) -> bool:
    from ..versions import release_matches

    for kind, version in step_targets(step):
        if kind in targets and not (release_matches(version, targets[kind]) or release_matches(targets[kind], version)):
            return True  # a second answer to a question the plan answers
        if any(release_matches(version, v) and release_matches(v, version) for v in installed.get(kind, [])):
            return True  # installs what is installed
    return False


def _installed(facts) -> Dict[str, List[str]]:
    if facts is None:
        return {}
    out: Dict[str, List[str]] = {"cann": [i.release for i in facts.cann.installs if i.release]}
    if facts.mindspore.installed and facts.mindspore.version:
        out["mindspore"] = [facts.mindspore.version]
    if facts.driver.package_version or facts.driver.version:
        out["hdk"] = [facts.driver.package_version or facts.driver.version]
    return out


def build_plan(findings: Sequence[Finding], facts=None, matrix=None) -> Plan:
    """The node's plan (see the module docstring). Without facts and matrix (a saved report read back), the
    version stack is not searched: each finding's own options are planned as they are."""
    normalize_fixes(findings)
    plan = Plan()
    chosen: List[Tuple[PlanStep, int]] = []  # (step, its group: the steps of one finding's option, or the stack's)
    targets: Dict[str, str] = {}
    installed = _installed(facts)
    stack_ids: List[str] = []
    best, others = (None, [])
    # MindSpore on CUDA (a GPU build, no CANN here or planned) has no CANN or NPU driver to change: its findings'
    # own fixes (checks/_gpu_fix.py: driver, runtime, MindSpore in that order) are planned as they are
    cuda_stack = facts is not None and facts.mindspore.installed and facts.mindspore.flavour == "gpu" \
        and facts.cann.judged_install is None
    stacked = facts is not None and matrix is not None and not cuda_stack
    if stacked:
        try:
            best, others = plan_stack(facts, matrix, findings)
        except Exception:  # planning must never hide the report; the findings' own fixes are planned instead
            best, others = None, []
    if best is not None:
        resolved = [f.id for f in findings if f.id in best.statuses and _cleared(f.status, best.statuses[f.id])]
        stack_ids = resolved
        credit = _attribute(facts, matrix, best, resolved, {f.id: f.status for f in findings})
        for name in ("hdk", "cann", "mindspore"):  # the order to do them in
            for step, level in best.parts.get(name, (None, []))[1]:
                chosen.append((PlanStep.of(step, credit.get(name) or resolved, level), best.level))
                for kind, version in step_targets(step):
                    targets[kind] = version
        for state in others:
            plan.alternatives.append({"why": _why_state(state), "steps": [PlanStep.of(s, [], lvl) for s, lvl in
                                                                          state.steps]})
    failing_levels = []
    # failures first (they decide how far the plan must go), then warnings that fit under it
    order = sorted(range(len(findings)), key=lambda i: {FAIL: 0, ERROR: 2, WARN: 1}.get(findings[i].status, 3))
    for i in order:
        f = findings[i]
        if f.status not in (FAIL, WARN, ERROR) or f.id in stack_ids or (stacked and f.id in STACK_CHECKS):
            continue  # the version stack is planned as a whole (above) when the facts and the matrix are here
        options = [(why, steps) for why, steps in _options(f) if not _option_conflicts(steps, targets, installed)]
        if not options:
            if f.status == FAIL:
                plan.unresolved.append(f.id)
                why = (_("every fix it offers contradicts the plan's targets or installs what is installed")
                       if _options(f) else _("no fix is known: collect the facts (ascend-doctor collect) and ask "
                                             "support"))
                f.evidence[UNRESOLVED_KEY] = why
            continue
        why, steps = min(options, key=_option_key)  # the first of the least disruptive
        level = _option_level(steps)
        if f.status == FAIL:
            failing_levels.append(level)
        else:
            ceiling = max(failing_levels + [RANK["python"]] + [RANK[s.level] for s, _g in chosen])
            if level > ceiling:
                continue
        for s in steps:
            for kind, version in step_targets(s):
                targets.setdefault(kind, version)
            chosen.append((PlanStep.of(s, [f.id]), level))
        if why or steps != f.fix:  # an alternative was chosen: it becomes the finding's fix, the fix an alternative
            _promote(f, steps)
    # stack findings not cleared by the state (or no state): their own fixes, else unresolved
    blocked: Optional[str] = None
    for f in findings:
        if f.id in STACK_CHECKS and f.status == FAIL and f.id not in stack_ids:
            if stacked or not f.fix:
                plan.unresolved.append(f.id)
                if stacked and f.fix and blocked is None:
                    blocked = _older_driver_needed(facts, matrix, findings) or ""
                driver = (facts.driver.package_version or facts.driver.version) if facts is not None else None
                f.evidence[UNRESOLVED_KEY] = (_(
                    "the published pairings that clear it need an older NPU driver (Ascend HDK {hdk}) than the "
                    "installed {driver}, which no check proves wrong: check the release notes of Ascend HDK {driver} "
                    "for the CANN releases it supports, or ask support before a downgrade").format(
                        hdk=blocked, driver=driver) if blocked else
                    _("no published pairing in the matrix clears it together with the other findings")) if f.fix else \
                    _("no fix is known: collect the facts (ascend-doctor collect) and ask support")
            else:
                options = [(w, s) for w, s in _options(f) if not _option_conflicts(s, targets, installed)]
                if options:
                    why, steps = min(options, key=_option_key)
                    chosen.extend((PlanStep.of(s, [f.id]), _option_level(steps)) for s in steps)
                else:
                    plan.unresolved.append(f.id)
                    f.evidence[UNRESOLVED_KEY] = _("every fix it offers contradicts the plan's targets or "
                                                   "installs what is installed")
    plan.steps = _merged(chosen)
    if best is not None:
        _agree(findings, best, plan, installed)
        _rejudge(findings, facts, matrix, best, plan, installed)
    if stacked:
        _unknown_left(findings, best, plan)
    return plan


def _older_driver_needed(facts, matrix, findings: Sequence[Finding]) -> Optional[str]:
    """The Ascend HDK of a published state that clears every stack failure but was left out because it downgrades a
    driver no check proves wrong (stack._downgrades_a_driver_not_proven_wrong), else None: why the plan leaves those
    failures unresolved."""
    from .stack import _candidates, _downgrades_a_driver_not_proven_wrong, _judge, unpublished

    now = {f.id: f.status for f in findings if f.id in STACK_CHECKS}
    failing = [c for c, st in now.items() if st == FAIL]
    try:
        for combined in (False, True):
            for state in _candidates(facts, matrix, combined):
                if not _downgrades_a_driver_not_proven_wrong(facts, state, now):
                    continue
                statuses = _judge(_apply(facts, matrix, state), matrix, tuple(dict.fromkeys(
                    list(now) + ["compat.mindspore_cann", "compat.cann_driver", "compat.driver_firmware",
                                 "compat.python_mindspore"])))
                if not unpublished(facts, matrix, state, statuses) and \
                        not any(statuses.get(c) == FAIL for c in failing):
                    return state.hdk
    except Exception:  # the why is a courtesy: never let it hide the report
        return None
    return None


def _unknown_left(findings: Sequence[Finding], best: Optional[StackState], plan: Plan) -> None:
    """A pairing the plan leaves unknown (no source gives it: a warning on the state the plan leads to, or now
    when the plan does not change the stack) is not resolved: the plan lists it, so the user is told to check it
    (its fix says what to check and whom to ask)."""
    for f in findings:
        if f.id not in PAIRING_CHECKS or f.status not in (FAIL, WARN) or f.id in plan.unresolved:
            continue
        after = best.statuses.get(f.id, f.status) if best is not None else f.status
        if after != WARN:
            continue
        for s in plan.steps:
            if f.id in s.resolves:
                s.resolves.remove(f.id)
        plan.unresolved.append(f.id)
        f.evidence[UNRESOLVED_KEY] = _("the pairing stays unknown after the plan (no source gives it): check it "
                                       "as its fix says, or ask support")


def _check_on(facts, matrix, check_id: str) -> Optional[Finding]:
    """The finding one check gives on these facts (the worst, if it gives several); None when it crashes."""
    from ..checks import CheckContext, all_checks

    ctx = CheckContext(facts=facts, options={"live": False}, _matrix=matrix)
    spec = next((c for c in all_checks() if c.id == check_id), None)
    if spec is None:
        return None
    try:
        result = spec.func(ctx)
    except Exception:  # a check crashing on a hypothetical state says nothing about it
        return None
    mine = [f for f in (result if isinstance(result, list) else [result] if result is not None else [])
            if f.id == check_id]
    return max(mine, key=lambda f: SEVERITY_ORDER.get(f.status, 0), default=None)


def _rejudge(findings: Sequence[Finding], facts, matrix, best: StackState, plan: Plan,
             installed: Dict[str, List[str]]) -> None:
    """The findings the plan's stack change does not clear, whose advice was written for the stack as it is
    (a stack check, or advice naming another CANN, driver or MindSpore than the plan), judged again on the state
    the plan leads to: cleared there, the plan's steps are their fix; still open, the advice the check gives for
    that state (what contradicts the plan left out); so no step a report gives contradicts another."""
    targets: Dict[str, str] = {}
    for step, _lvl in best.steps:
        for kind, version in step_targets(step):
            targets[kind] = version
    changes_cann = best.cann_installed is not None or bool(best.cann_new)
    stack_steps = [s for s in plan.steps if any(_same_command(s.do) == _same_command(b) for b, _l in best.steps)]
    planned = None
    for f in findings:
        if f.status == FAIL and best.statuses.get(f.id) in (WARN, ERROR) and \
                any(f.id in s.resolves for s in plan.steps):
            # cleared as a failure, a warning on the state the plan leads to (a pairing no source gives): said so
            if planned is None:
                planned = _apply(facts, matrix, best)
            again = _check_on(planned, matrix, f.id)
            if again is not None and again.status in (WARN, ERROR) and again.summary != f.summary:
                f.evidence[AFTER_PLAN_KEY] = again.summary
            continue
        if f.status not in (FAIL, WARN, ERROR) or any(f.id in s.resolves for s in plan.steps):
            continue
        options = _options(f)
        stale = f.id in STACK_CHECKS or any(_option_conflicts(steps, targets, installed) for _w, steps in options) \
            or (changes_cann and any(step_level(x)[0] in ("cann", "driver") for _w, steps in options for x in steps))
        if not stale:
            continue
        if planned is None:
            planned = _apply(facts, matrix, best)
        again = _check_on(planned, matrix, f.id)
        if again is not None and again.status in (PASS, SKIP):
            for s in stack_steps:  # the plan's stack change clears it too
                s.resolves.append(f.id)
            f.fix, f.alternatives = [s.do for s in stack_steps], []
            if f.id in plan.unresolved:
                plan.unresolved.remove(f.id)
                f.evidence.pop(UNRESOLVED_KEY, None)
            continue
        if again is not None:
            normalize_fixes([again])
            options = _options(again)
        done = {_same_command(s.do) for s in plan.steps}
        kept = [(w, [x for x in steps if _same_command(x) not in done]) for w, steps in options
                if not _option_conflicts(steps, targets, installed)
                and not (changes_cann and any(step_level(x)[0] in ("cann", "driver") for x in steps))]
        kept = [(w, steps) for w, steps in kept if steps]
        if not kept:  # a look at the node contradicts nothing: the finding's own way to settle it stays
            kept = [(w, steps) for w, steps in _options(f) if all(_is_look(x) for x in steps)]
        f.fix = list(kept[0][1]) if kept else []
        f.alternatives = [{"why": w, "steps": list(steps)} for w, steps in kept[1:]]
        if again is None:
            f.evidence[AFTER_PLAN_KEY] = _("not judged again: its advice for the stack as it is was left out (it "
                                           "contradicts the plan)")
        elif again.summary != f.summary:
            f.evidence[AFTER_PLAN_KEY] = again.summary


def _why_state(state: StackState) -> str:
    """What another way changes, said by what it changes (a CANN with its MindSpore changes both), its worst
    disruption named where it takes the node down."""
    level = LEVELS[state.level] if state.level >= 0 else "shell"
    if state.keeps_cann:
        return _("keep CANN {cann}: change MindSpore only, a pip install, no root; the pairing of CANN {cann} with "
                 "the NPU driver stays unknown (no source gives it)").format(cann=state.keeps_cann)
    if level == "hardware":
        return _("replace hardware")
    if "hdk" in state.parts:
        return _("change the NPU driver and firmware too: root, a reboot, a node outage")
    cann, mindspore = "cann" in state.parts, "mindspore" in state.parts
    if cann and state.cann_installed is not None:
        return _("use a CANN install that is already here, with a MindSpore published with it") if mindspore else \
            _("use a CANN install that is already here")
    if cann:
        return _("change CANN and MindSpore together: a CANN and the MindSpore published with it") if mindspore \
            else _("keep MindSpore: install a CANN published with it")
    if mindspore:
        return _("change MindSpore only: a pip install, no root")
    return _("another way")


def _merged(chosen: List[Tuple[PlanStep, int]]) -> List[PlanStep]:
    """One step per command (their resolves merged), in dependency order: the steps of one option stay together
    in the order its check wrote them (a conda activate before the export that uses it), and options go by the
    level of the first thing they do (DO_ORDER: the driver before CANN before the shell that sources it before
    Python packages before settings; a look first goes with the action after it)."""
    groups: List[List[PlanStep]] = []
    for n, (s, _level) in enumerate(chosen):
        if not n or chosen[n - 1][0].resolves != s.resolves or chosen[n - 1][1] != _level:
            groups.append([])
        groups[-1].append(s)

    def first_action(steps: List[PlanStep]) -> float:
        acts = [DO_ORDER[s.level] for s in steps if not _is_look(s.do)]
        if not acts and any("mindspore.run_check()" in s.do for s in steps):
            # MindSpore's own check verifies the Python packages: it goes after them (after every option that
            # installs one, whichever finding's option came first), before the settings
            return DO_ORDER["python"] + 0.5
        return acts[0] if acts else DO_ORDER["shell"]

    order = sorted(range(len(groups)), key=lambda g: (first_action(groups[g]), g))
    out: Dict[str, PlanStep] = {}
    for g in order:
        for s in groups[g]:
            key = command_part(s.do) or s.do
            if "mindspore.run_check()" in key:
                # one check of MindSpore, after the installs: a finding's own check of the release it found (a
                # set_device that an older release the plan installs lacks) is the plan's check of what it installs
                key = "mindspore.run_check()"
            if key in out:
                out[key].resolves = list(dict.fromkeys(out[key].resolves + s.resolves))
            else:
                out[key] = PlanStep(s.do, s.level, s.needs_root, s.reboot, list(s.resolves))
    return list(out.values())


def _promote(f: Finding, steps: List[str]) -> None:
    """The option the plan chose becomes the finding's fix; its fix as it was stays, a labelled alternative (an
    alternative always says what it is)."""
    rest = [{"why": _("the fix the check gives first"), "steps": list(f.fix)}] if f.fix and f.fix != steps else []
    alts = [a for a in f.alternatives if list(a.get("steps") or []) != steps]
    f.fix, f.alternatives = list(steps), rest + alts


def _agree(findings: Sequence[Finding], best: StackState, plan: Plan, installed: Dict[str, List[str]]) -> None:
    """The stack findings the plan clears take the plan's steps as their fix; their own ways stay as labelled
    alternatives, except one naming another driver, CANN or MindSpore target than the plan (a second answer)."""
    targets: Dict[str, str] = {}
    for step, _lvl in best.steps:
        for kind, version in step_targets(step):
            targets[kind] = version
    for f in findings:
        mine = [s.do for s in plan.steps if f.id in s.resolves and f.id in STACK_CHECKS]
        if not mine:
            continue
        done = {_same_command(m) for m in mine}
        fix, keep = list(mine), []
        for n, (why, steps) in enumerate(_options(f)):
            if len(steps) > 1 and any(_NEW_ENV.search(command_part(x)) for x in steps):
                # a new Python environment and what is installed in it are one way (the install alone has no
                # wheel for this Python): kept whole, or not at all
                if not _option_conflicts(steps, targets, installed) and \
                        all(_same_command(x) not in done for x in steps) and \
                        not any(step_level(x)[0] in ("cann", "driver") for x in steps):
                    done.update(_same_command(x) for x in steps)
                    keep.append({"why": why, "steps": list(steps)})
                continue
            for step in steps:  # the stack checks' ways are each one step, another way to the same pairing
                same = bool(step_targets(step)) and all(k in targets and not _conflicts(step, targets, {})
                                                        for k, _v in step_targets(step))
                # a driver for the CANN the plan leaves behind answers a question the plan no longer asks
                # (and another CANN than the plan's answers it twice)
                stale = (best.cann_installed is not None or best.cann_new) and (
                    any(k == "hdk" for k, _v in step_targets(step)) or step_level(step)[0] == "cann")
                # a look at the pairing as it is (a release notes' table for the CANN or driver in use) asks about a
                # pairing the plan replaces
                stale = stale or (f.id in PAIRING_CHECKS and _is_look(step) and bool(
                    best.cann_installed is not None or best.cann_new or best.hdk))
                if _same_command(step) in done or same or stale or _option_conflicts([step], targets, installed):
                    continue  # the plan's own step (or the same target again), or a second answer
                if _NEW_ENV.search(command_part(step)):
                    continue  # a new environment alone installs nothing: not a way; the plan's own has its steps
                done.add(_same_command(step))
                if n == 0 and not step_targets(step) and _is_look(step):
                    fix.append(step)  # the check's own look that confirms the result
                else:
                    keep.append({"why": why, "steps": [step]})
        f.fix, f.alternatives = fix, keep
