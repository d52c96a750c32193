"""Turn a smoke run into findings: which stage broke, the lines that say why, and the known fix.

A failure names its stage, shows the few useful stderr lines (not the wall of
compile logs), and matches the child's error and stderr against the knowledge
base so a known error prints its fix. Stages after the one that broke are
reported as not reached, never as passed.

Titles, summaries and fixes are written in the report's language (i18n); the child's own words (its error
lines, stderr) and the stage names stay as the child wrote them.
"""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Finding
from ..i18n import N_, _, get_lang, lookup, sentences
from .runner import CRASHED, FAILED, HUNG, NOT_RUN, SKIPPED, SmokeRun

# Host RSS growth across the smoke's steps that is worth a warning (P02). The
# tiny net needs no new host memory after its first step; a steady climb means
# something keeps allocating per step.
RSS_WARN_MB = 32.0
RSS_WARN_KB_PER_STEP = 1024.0
# Shown in the report when the stack is healthy: how much PYNATIVE costs (P03).
PYNATIVE_SLOW_RATIO = 1.2

FINDINGS: List[Tuple[str, str, Sequence[str]]] = [  # titles translated where a finding is made: _(title)
    ("smoke.import", N_("MindSpore imports"), ("import",)),
    ("smoke.device", N_("MindSpore selects the device"), ("device",)),
    ("smoke.op_check", N_("An operator on the device matches NumPy"), ("op_check",)),
    ("smoke.graph_compile", N_("GRAPH mode compiles a train step (forward, backward, optimizer)"), ("graph_compile",)),
    ("smoke.train_converges", N_("Training on a learnable task converges"), ("train", "verify")),
    ("smoke.pynative_agreement", N_("PYNATIVE mode agrees with GRAPH mode"), ("pynative",)),
    ("smoke.host_memory_growth", N_("Host memory stays flat across train steps"), ("host_memory",)),
    ("smoke.mindir_roundtrip", N_("The trained net exports to MindIR and reloads with the same outputs"), ("mindir",)),
    ("smoke.atc_convert", N_("ATC converts the MindIR for this SoC"), ("atc",)),
]
STAGE_FINDING = {stage: fid for fid, _, stages in FINDINGS for stage in stages}
# What each line says when the stage did not pass (findings.outcome_title): the line says what is wrong.
OUTCOME_TITLES: Dict[str, Dict[str, str]] = {
    "smoke.import": {FAIL: N_("MindSpore does not import")},
    "smoke.device": {FAIL: N_("MindSpore cannot use the device")},
    "smoke.op_check": {FAIL: N_("An operator on the device does not match NumPy")},
    "smoke.graph_compile": {FAIL: N_("GRAPH mode does not compile the train step")},
    "smoke.train_converges": {FAIL: N_("Training on a learnable task does not converge")},
    "smoke.pynative_agreement": {FAIL: N_("PYNATIVE mode disagrees with GRAPH mode"),
                                 WARN: N_("PYNATIVE mode disagrees with GRAPH mode")},
    "smoke.host_memory_growth": {FAIL: N_("Host memory grows across train steps"),
                                 WARN: N_("Host memory grows across train steps")},
    "smoke.mindir_roundtrip": {FAIL: N_("The trained net does not export to MindIR and reload with the same outputs")},
    "smoke.atc_convert": {FAIL: N_("ATC cannot convert the MindIR for this SoC")},
    "smoke.collectives": {FAIL: N_("Collectives across ranks failed")},
}
COLLECTIVES_TITLE = N_("Collectives (AllReduce, AllGather) across ranks")
OUTCOME_TITLES = {fid: dict(words, skip="Not run: " + title)
                  for fid, title, __ in FINDINGS + [("smoke.collectives", COLLECTIVES_TITLE, ())]
                  for words in [OUTCOME_TITLES.get(fid, {})]}


def _outcome_titles(fid: str, title: str) -> Dict[str, str]:
    """OUTCOME_TITLES[fid] in the report's language (`title`: the English title of the finding)."""
    words = {status: _(text) for status, text in OUTCOME_TITLES[fid].items() if status != SKIP}
    words[SKIP] = _("Not run: {title}").format(title=_(title))
    return words


# Why the child skipped a stage (smoke/__main__.py writes them; the child runs without the report's language).
CHILD_REASONS = (N_("psutil is not importable in this Python"), N_("atc is not installed (CANN toolkit not on PATH)"),
                 N_("no Ascend SoC detected to convert for"), N_("does not apply here"))

# What to do when a stage breaks and no known error explains it.
STAGE_FIX = {  # translated where used: _(step)
    "import": [N_("python -c 'import mindspore; print(mindspore.__file__)'   # the full import error"),
               N_("pip install mindspore==<version for your CANN/CUDA>   # see https://www.mindspore.cn/install")],
    "device": ["python -c \"import mindspore as ms; ms.set_device('<Ascend|GPU|CPU>'); print(ms.get_context('device_target'))\"",
               N_("ascend-doctor check   # driver, CANN and MindSpore versions must belong together (P07)")],
    "op_check": [N_("ascend-doctor check   # a wrong result from a basic op points at mismatched MindSpore/CANN/driver (P07)"),
                 N_("ascend-doctor smoke --device cpu   # compare with the CPU")],
    "graph_compile": [N_("export GLOG_v=1 ASCEND_GLOBAL_LOG_LEVEL=1 ASCEND_SLOG_PRINT_TO_STDOUT=1   # then re-run for the "
                         "compile log"),
                      N_("set_context(save_graphs=True) and read analyze_fail.ir / the saved graphs (P18)"),
                      N_("debug the same code with set_context(mode=PYNATIVE_MODE); move data-dependent control flow out "
                         "of the graph (P19)")],
    "train": [N_("ascend-doctor check   # device memory, versions and device health"),
              N_("re-run with --steps 10 to see whether it fails at the first step or later")],
    "verify": [N_("the stack computed a wrong gradient or update: compare with `ascend-doctor smoke --device cpu`"),
               N_("install the MindSpore / CANN / driver versions that belong together (ascend-doctor check, P07)")],
    "pynative": [N_("run the smoke with --no-pynative to confirm the GRAPH path alone is healthy"),
                 N_("GRAPH and PYNATIVE must compute the same thing: report the disagreement with both versions to "
                    "MindSpore")],
    "mindir": [N_("python -c \"import mindspore as ms; print(ms.__version__)\"   # export and load must use one MindSpore"),
               N_("check free disk space in the working directory (ascend-doctor check --only resources)")],
    "atc": [N_("replace operators the SoC does not support, or write a custom operator (P09)"),
            N_("check the operator support list of the CANN release for this SoC")],
}
STAGE_PITFALL = {"graph_compile": "P18", "atc": "P09"}

_LOG_NOISE = re.compile(r"^\[(WARNING|INFO|DEBUG)\] ")
_SECTION = re.compile(r"^- (C\+\+ Call Stack|The Traceback of Net Construct Code|\w[\w ]+ Message):")
_SKIPPED_SECTIONS = ("C++ Call Stack", "The Traceback of Net Construct Code")
_RULE = re.compile(r"^[-=^~\s]+$")
_FRAME = re.compile(r'^\s+File "')
# "[WARNING] DISTRIBUTED(21240,7f22...,python):2026-11-30-05:45:37.518.614 [file.cc:316] Func] text"
_LOG_PREFIX = re.compile(r"^\[(\w+)\] [A-Z_]+\([^)]*\):\S+ ")
_RETRY = re.compile(r"retry\(\d+/\d+\)")
_NO_MINDSPORE = re.compile(r"No module named '?mindspore'?(?![.\w])")


# The oldest MindSpore the smoke supports: setup.cfg's smoke extra asks for mindspore>=2.7 (a test keeps them equal).
SMOKE_MINDSPORE_MINIMUM = "2.7"


def _python_range(pythons: Sequence[str]) -> str:
    """'3.9–3.12' for consecutive minor versions of one major, else '3.8, 3.10'."""
    parts = [tuple(int(x) for x in p.split(".")[:2]) for p in pythons]
    if len(parts) > 1 and all(b == (a[0], a[1] + 1) for a, b in zip(parts, parts[1:])):
        return f"{pythons[0]}–{pythons[-1]}"
    return ", ".join(pythons)


def no_wheel_reason(python: Optional[str], platform: Optional[str] = None) -> Optional[Tuple[str, str]]:
    """(why, the Pythons that have one) when no MindSpore release the smoke supports has a wheel for `python` (a
    version, '3.13.0') on `platform` (default this machine's), per the matrix's PyPI and release-list rows; None
    when one has, or it cannot be told."""
    from ..versions import python_major_minor

    mm = python_major_minor(python) if python else None
    if not mm:
        return None
    if platform is None:
        import os

        from ..checks._recommend import _ARCH_PLATFORM

        platform = _ARCH_PLATFORM.get(os.uname().machine.lower())
    from ..matrix import matrix_for_checks

    matrix = matrix_for_checks()
    supported = matrix.pythons_with_wheels(platform, SMOKE_MINDSPORE_MINIMUM)
    if not supported or mm in supported:
        return None
    pythons = _python_range(supported)
    if mm in matrix.pythons_with_wheels(platform):  # older releases had one (3.8: 2.0.0 ... 2.3.1)
        why = _("no wheel of MindSpore {minimum} or later for Python {python}; {pythons} have one").format(
            minimum=SMOKE_MINDSPORE_MINIMUM, python=mm, pythons=pythons)
    else:
        why = _("no MindSpore wheel for Python {python}; {pythons} have one").format(python=mm, pythons=pythons)
    return why, pythons


def useful_stderr_lines(text: str, keep: Iterable[str] = (), limit: int = 12, warnings: bool = False) -> List[str]:
    """The lines of a failing run worth reading: errors, not INFO/WARNING logs, C++ stacks or code frames.

    Lines in `keep` (those a knowledge-base signature matched) are kept even if they are log lines.
    """
    keep = {k.strip() for k in keep}
    out: List[str] = []
    skipping = after_frame = False
    for raw in text.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            continue
        if stripped in keep:
            out.append(line)
            continue
        m = _SECTION.match(stripped)
        if m:
            skipping = m.group(1) in _SKIPPED_SECTIONS
            continue
        if skipping and not line.startswith(("[", "Traceback")) or _RULE.match(line):
            continue
        skipping = False
        if _LOG_NOISE.match(line) and not (warnings and line.startswith("[WARNING]")):
            continue
        if _FRAME.match(line):
            after_frame = True
            continue
        if after_frame and line.startswith(" "):  # the source line under a traceback frame
            continue
        after_frame = False
        if stripped == "Traceback (most recent call last):":
            continue
        out.append(line)
    deduped: List[Tuple[bool, str]] = []
    seen = set()
    for line in out:
        # Log lines repeat with new timestamps, pids and retry counters; show each message once.
        key = _RETRY.sub("", _LOG_PREFIX.sub("", line))
        if key not in seen:
            seen.add(key)
            deduped.append((line.strip() in keep, _LOG_PREFIX.sub(lambda m: f"[{m.group(1)}] ", line)[:240]))
    # Lines a known error matched always stay; the rest of the room goes to the last lines.
    room = max(0, limit - sum(1 for k, _ in deduped if k))
    others = [i for i, (k, _) in enumerate(deduped) if not k]
    chosen = set(others[len(others) - room:] if room else [])
    return [text for i, (k, text) in enumerate(deduped) if k or i in chosen]


def kb_matches(kb, lines: Sequence[str]) -> List[tuple]:
    """Known-error matches that mean something is wrong (benign/info signatures are left out)."""
    return [(sig, line) for sig, line in kb.match_lines(lines) if sig.severity != "info"] if kb else []


def _fmt_ms(ms) -> str:
    return f"{ms / 1000:.1f} s" if ms >= 1000 else f"{ms} ms"


def _first_sentence(text: str) -> str:
    """The first sentence of a knowledge-base cause, in the language it is written in (a zh cause ends its
    sentences with 。; an English one, also the fallback of a cause with no Chinese, with ". ")."""
    if "。" in text:
        return text.split("。")[0]
    return text.split(". ")[0].rstrip(".")


def smoke_findings(run: SmokeRun, kb=None, device_reasons: Sequence[str] = (),
                   set_env_files: Optional[Sequence[str]] = None) -> List[Finding]:
    """One finding per area of the smoke, in stage order. `set_env_files`: the CANN set_env.sh files this host has
    (from its facts; None: not known), so a fix never sources one that is not there."""
    stderr_lines = run.stderr.splitlines()
    findings = []
    for fid, title, stages in FINDINGS:
        results = [run.stages[s] for s in stages]
        broken = next((r for r in results if r.status in (FAILED, HUNG, CRASHED)), None)
        ms = sum(r.ms for r in results)
        shown_title = _(title)
        if broken is not None:
            f = _broken_finding(fid, shown_title, broken, run, kb, stderr_lines)
            if set_env_files is not None:
                f.fix = _sourcing_what_is_here(f.fix, list(set_env_files))
        elif all(r.status == NOT_RUN for r in results):
            summary = _("Not reached: the smoke stopped at the '{stage}' stage (see {finding}).") \
                if run.stopped_at in STAGE_FINDING else _("Not reached: the smoke stopped at the '{stage}' stage (see above).")
            f = Finding(fid, SKIP, shown_title, summary=summary.format(stage=run.stopped_at,
                                                                       finding=STAGE_FINDING.get(run.stopped_at)))
        elif any(r.status == SKIPPED for r in results):
            r = next(r for r in results if r.status == SKIPPED)
            f = Finding(fid, SKIP, shown_title, summary=_("Skipped: {reason}.").format(
                reason=lookup(r.data.get("reason", "does not apply here"))))
        else:
            try:
                f = _passed_finding(fid, shown_title, results, run, device_reasons)
            except (KeyError, TypeError, ValueError):  # a child of another version left a number out
                f = Finding(fid, PASS, shown_title, summary=_("Passed."), evidence={r.stage: r.data for r in results})
        f.duration_ms = ms
        findings.append(f.with_outcome_title(shown_title, _outcome_titles(fid, title)))
    return findings


ASCEND_COMPONENTS = ("cann", "driver", "npu", "hccl", "mindx")  # knowledge-base components of the Ascend stack


def _ascend_only(step: str, device: Optional[str]) -> bool:
    """A fix step only an Ascend host can follow (source CANN's set_env.sh, the Ascend plugin library), on a run
    that did not use an Ascend device."""
    return (device or "").lower() not in ("ascend", "npu") and bool(
        re.search(r"set_env\.sh|libmindspore_ascend|ascend-toolkit|/usr/local/Ascend", step))


_SOURCE_SET_ENV = re.compile(r"^(source|\.)\s+(\S*set_env\.sh)\b")


def _sourcing_what_is_here(fix: List[str], here: List[str]) -> List[str]:
    """A `source <path>/set_env.sh` step names a set_env.sh this host has: the knowledge base's default path is
    replaced by the install that is here, and with no CANN here the step says to install one first."""
    out: List[str] = []
    for step in fix:
        m = _SOURCE_SET_ENV.match(step)
        if not m or m.group(2) in here:
            out.append(step)
        elif here:
            out.append(step.replace(m.group(2), here[0], 1))
        else:
            out.append(_("no CANN is installed here: install the CANN toolkit and kernels your MindSpore needs "
                         "(ascend-doctor check names the release), then source <install>/set_env.sh"))
    return list(dict.fromkeys(out))


def _broken_finding(fid, title, res, run: SmokeRun, kb, stderr_lines) -> Finding:
    stage = res.stage
    error_lines = (res.error or "").splitlines()
    matches = kb_matches(kb, error_lines + stderr_lines)
    if (run.device or "").lower() not in ("ascend", "npu"):
        # a GPU or CPU run: an Ascend-stack signature (CANN, driver, NPU, HCCL) is not its cause, and its fix
        # (source a set_env.sh, the Ascend plugin library) names what this host need not have
        matches = [(sig, line) for sig, line in matches if sig.component not in ASCEND_COMPONENTS]
    shown = useful_stderr_lines(run.stderr, keep=[line for _, line in matches])
    if res.status == HUNG:
        what = _("The smoke hung in the '{stage}' stage: no progress for {seconds} s, so its whole process group was "
                 "killed.").format(stage=stage, seconds=f"{run.timeout_s:g}")
    elif res.status == CRASHED:
        what = _("The smoke process died during the '{stage}' stage ({how}), without a Python error.").format(
            stage=stage, how=run.signal_name or _("exit code {code}").format(code=run.returncode))
    else:
        first = error_lines[0].rstrip(".") if error_lines else _("no error text")
        what = _("The smoke failed in the '{stage}' stage: {error}.").format(stage=stage, error=first)
    if res.data.get("unsupported_ops"):
        what = sentences(what, _("Operators ATC could not convert for this SoC: {operators}.").format(
            operators=", ".join(res.data["unsupported_ops"])))
    evidence: Dict[str, object] = {"stage": stage, "device": run.device}
    evidence.update({k: v for k, v in res.data.items() if k not in ("traceback", "python")})  # python: no_wheel_reason
    if res.error and res.status == FAILED:
        evidence["error"] = [l for l in error_lines if l.strip() and not _RULE.match(l)][:6]
    if shown:
        evidence["stderr"] = shown
    fix: List[str] = []
    pitfall: Optional[str] = None
    if matches:
        evidence["known_errors"] = [f"{sig.id}: {line.strip()[:160]}" for sig, line in matches]
        what = sentences(what, _("Known error: {causes}.").format(
            causes=_("; ").join(_first_sentence(sig.text(get_lang())[1]) for sig, __ in matches[:2])))
        from ..advice_facts import applicable_fixes

        imported = run.stages.get("import")
        installed = {"mindspore": (imported.data or {}).get("version") if imported else None}
        for sig, __ in matches:
            # steps naming an API the MindSpore that ran does not have are left out (advice_facts.json ranges)
            fix.extend(s for s in applicable_fixes(sig.text(get_lang())[2], installed)
                       if s not in fix and not _ascend_only(s, run.device))
            pitfall = pitfall or sig.pitfall
    no_wheel = no_wheel_reason(res.data.get("python")) \
        if stage == "import" and "No module named 'mindspore'" in (res.error or "") else None
    if no_wheel:  # nothing to install in this Python: the smoke could not run here, which is no verdict on the stack
        why, pythons = no_wheel
        evidence["python"] = res.data["python"]
        return Finding(fid, ERROR, _("Smoke not run: {reason}").format(reason=why),
                       summary=sentences(_("MindSpore is not installed in this Python, and PyPI has no wheel of it "
                                           "for this Python, so the smoke train could not run here."),
                                         _("This says nothing about the stack: run the smoke with a Python that has "
                                           "one.")),
                       evidence=evidence,
                       fix=[_("ascend-doctor check --smoke --python <a Python {pythons} with MindSpore installed>   "
                              "# or scripts/doctor-here with that Python first on PATH; wheels: "
                              "https://pypi.org/project/mindspore/#files").format(pythons=pythons)])
    if stage == "import" and "No module named 'mindspore'" in (res.error or ""):
        fix.extend([_("{python} -m pip install 'mindspore>=2.7'   # or the build for your device: "
                      "https://www.mindspore.cn/install (pip install 'ascend-doctor[smoke]' pins a tested one)").format(
                        python=run.python),
                    _("if it is installed elsewhere: run ascend-doctor with that environment's python")])
    else:
        fix.extend(s for s in (_(step) for step in STAGE_FIX.get(stage, [])) if s not in fix)
    if res.status == HUNG:
        fix.insert(0, _("re-run with --stage-timeout {stage}=<seconds> if this stage is only slow here").format(stage=stage))
    pitfall = pitfall or STAGE_PITFALL.get(stage)
    return Finding(fid, FAIL, title, summary=what, evidence=evidence, fix=fix, pitfall=pitfall)


def _passed_finding(fid, title, results, run: SmokeRun, device_reasons) -> Finding:
    d: Dict[str, object] = {}
    for r in results:
        d.update(r.data)
    ms = sum(r.ms for r in results)
    if fid == "smoke.import":
        return Finding(fid, PASS, title, summary=_("MindSpore {version} imports in {time}.").format(
                           version=d.get("version"), time=_fmt_ms(ms)),
                       evidence={"version": d.get("version"), "location": d.get("location"), "python": d.get("python")})
    if fid == "smoke.device":
        dev = f"{d.get('target')}" + (f":{d['device_id']}" if d.get("device_id") is not None else "")
        return Finding(fid, PASS, title, summary=_("MindSpore runs on {device} in GRAPH mode.").format(device=dev),
                       evidence={"target": dev, "why this device": list(device_reasons)})
    if fid == "smoke.op_check":
        return Finding(fid, PASS, title,
                       summary=_("{op} on {device} matches NumPy (max abs error {error}).").format(
                           op=d.get("op"), device=run.device.upper(), error=f"{d.get('max_abs_error', 0):.1e}"),
                       evidence={"op": d.get("op"), "max_abs_error": d.get("max_abs_error")})
    if fid == "smoke.graph_compile":
        return Finding(fid, PASS, title,
                       summary=_("The train step compiled and ran its first step in {time}.").format(time=_fmt_ms(ms)),
                       evidence={"compile_and_first_step_ms": d.get("compile_and_first_step_ms")})
    if fid == "smoke.train_converges":
        return Finding(fid, PASS, title,
                       summary=_("Loss fell from {first} to {last} in {steps} GRAPH steps and held-out accuracy is "
                                 "{accuracy} (bar {bar}; a broken gradient stays near 0.5).").format(
                           first=f"{d['loss_first']:.3f}", last=f"{d['loss_last_mean']:.3f}", steps=d["steps"],
                           accuracy=f"{d['accuracy']:.2f}", bar=d["accuracy_bar"]),
                       evidence={k: d.get(k) for k in ("steps", "loss_first", "loss_last_mean", "loss_threshold",
                                                        "accuracy", "accuracy_bar", "step_ms_median")})
    if fid == "smoke.pynative_agreement":
        ratio = d.get("pynative_over_graph")
        ev = {k: d.get(k) for k in ("loss_last_graph", "loss_last_pynative", "accuracy_graph", "accuracy_pynative",
                                     "step_ms_graph", "step_ms_pynative", "pynative_over_graph")}
        text = _("Both modes reach the same loss ({graph} vs {pynative}) from the same start.").format(
            graph=f"{d['loss_last_graph']:.4f}", pynative=f"{d['loss_last_pynative']:.4f}")
        if ratio and ratio >= PYNATIVE_SLOW_RATIO:
            text = sentences(text, _("A PYNATIVE step takes {ratio}x a GRAPH step here: train in GRAPH_MODE, keep "
                                     "PYNATIVE for debugging.").format(ratio=f"{ratio:.1f}"))
            return Finding(fid, PASS, title, summary=text, evidence=ev, pitfall="P03")
        return Finding(fid, PASS, title, summary=text, evidence=ev)
    if fid == "smoke.host_memory_growth":
        ev = {k: d.get(k) for k in ("rss_before_mb", "rss_after_mb", "growth_mb", "growth_kb_per_step", "steps")}
        if d.get("growth_mb", 0) > RSS_WARN_MB or d.get("growth_kb_per_step", 0) > RSS_WARN_KB_PER_STEP:
            return Finding(fid, WARN, title,
                           summary=_("Host RSS grew {growth} MB over {steps} steps of a tiny net ({per_step} KB a "
                                     "step); a real job would keep growing until the OOM killer ends it.").format(
                               growth=d["growth_mb"], steps=d["steps"], per_step=d["growth_kb_per_step"]),
                           evidence=ev, pitfall="P02",
                           fix=[_("ps -o pid,rss,cmd -p <training pid>   # every N steps, to see the trend"),
                                _("keep loss.asnumpy()/float(loss), not tensors, across steps; lower dataset prefetch"),
                                _("check this MindSpore release's notes for known host-memory leaks and upgrade")])
        return Finding(fid, PASS, title,
                       summary=_("Host RSS changed {growth} MB over {steps} steps.").format(
                           growth=d["growth_mb"], steps=d["steps"]), evidence=ev)
    if fid == "smoke.mindir_roundtrip":
        return Finding(fid, PASS, title,
                       summary=_("Exported {bytes} bytes of MindIR, reloaded it with nn.GraphCell: outputs match (max "
                                 "abs error {error}).").format(bytes=d.get("bytes"),
                                                                error=f"{d.get('max_abs_error', 0):.1e}"),
                       evidence={"bytes": d.get("bytes"), "max_abs_error": d.get("max_abs_error")})
    if fid == "smoke.atc_convert":
        return Finding(fid, PASS, title, summary=_("atc converted the MindIR to {om}.").format(om=d.get("om")),
                       evidence={"argv": d.get("argv")})
    raise KeyError(fid)


def collectives_finding(drun, kb=None) -> Finding:
    """smoke.collectives from a DistributedRun (P13 when a rank never joins, P16 for bandwidth)."""
    title = _(COLLECTIVES_TITLE)
    fid = "smoke.collectives"
    evidence: Dict[str, object] = {"ranks expected on this node": drun.expected, "arrived": drun.arrived,
                                   "joined": drun.joined, "launcher": "msrun " + " ".join(drun.argv[3:]),
                                   "phase_ms": drun.phase_ms}
    if drun.status == "pass":
        init_ms = max((r.get("init_ms") or 0) for r in drun.results.values())
        bws = [r["bandwidth"]["busbw_gbps"] for r in drun.results.values()
               if r.get("bandwidth", {}).get("busbw_gbps") is not None]
        evidence.update({"init_ms": round(init_ms), "busbw_gbps": round(min(bws), 3) if bws else None,
                         "allreduce_bytes": next(iter(drun.results.values())).get("bandwidth", {}).get("bytes"),
                         "checks": {r: {k: v["ok"] for k, v in res["checks"].items()}
                                    for r, res in sorted(drun.results.items())}})
        summary = _("{ranks} ranks joined in {seconds} s; AllReduce and AllGather gave the expected values on every "
                    "rank, AllReduce bus bandwidth ~{bandwidth} GB/s.") if bws else \
            _("{ranks} ranks joined in {seconds} s; AllReduce and AllGather gave the expected values on every rank.")
        return Finding(fid, PASS, title,
                       summary=summary.format(ranks=len(drun.results), seconds=f"{init_ms / 1000:.1f}",
                                              bandwidth=f"{min(bws):.2f}" if bws else ""),
                       evidence=evidence, pitfall="P16", duration_ms=drun.wall_ms)
    missing = [i for i in drun.expected if i not in drun.arrived]
    log_lines: List[str] = []
    for lines in drun.log_tails.values():
        log_lines.extend(lines)
    matches = kb_matches(kb, log_lines)
    keep = [line for _, line in matches]
    evidence["ranks registered with the scheduler"] = drun.registered
    evidence["last log lines"] = {name: useful_stderr_lines("\n".join(lines), keep=keep, limit=5, warnings=True)
                                  for name, lines in drun.log_tails.items()}
    fix: List[str] = []
    pitfall = None
    for sig, __ in matches:
        fix.extend(s for s in sig.text(get_lang())[2] if s not in fix)
        pitfall = pitfall or sig.pitfall
    if matches:
        evidence["known_errors"] = [f"{sig.id}: {line.strip()[:160]}" for sig, line in matches]
    no_ms = sorted(name for name, lines in drun.log_tails.items()
                   if any(_NO_MINDSPORE.search(line) for line in lines))
    if no_ms:
        # msrun starts workers as `python <script>` from PATH: another interpreter than the one with MindSpore.
        bindir = drun.argv[0].rsplit("/", 1)[0] if "/" in drun.argv[0] else None
        evidence["workers without MindSpore"] = no_ms
        fix.insert(0, _("export PATH={bindir}:$PATH   # msrun starts workers with the first `python` on PATH").format(
            bindir=bindir) if bindir else
            _("activate the environment that has MindSpore   # msrun starts workers with the first `python` on PATH"))
        fix.insert(1, _("ascend-doctor check --only mindspore.launcher_python   # which `python` that is"))
    if drun.status == "hung":
        who = (_("ranks {ranks} never started").format(ranks=missing) if missing and drun.phase == "launch"
               else _("ranks {arrived} started, the scheduler registered {registered}; {missing} never joined").format(
                   arrived=drun.arrived, registered=drun.registered,
                   missing=[i for i in drun.expected if i not in drun.registered]) if drun.phase == "init"
               else _("the collectives did not finish"))
        summary = sentences(_("The distributed smoke hung in the '{phase}' phase after {seconds} s: {who}.").format(
                                phase=drun.phase, seconds=f"{drun.timeout_s:g}", who=who),
                            _("All of msrun's processes were killed."))
        fix += [_("check each missing rank's log (worker_<n>.log) and the scheduler's (scheduler.log)"),
                _("every node: the same --master-addr/--master-port and --ranks, and that port open (nc -zv <addr> "
                  "<port>)"),
                _("on Ascend: same driver/CANN on every card and node, a valid rank table, HCCL_CONNECT_TIMEOUT (P13)")]
        pitfall = pitfall or "P13"
    elif drun.status == "crashed":
        summary = _("msrun ended (exit {code}) during the '{phase}' phase: ranks arrived {arrived}, joined {joined}, "
                    "results from {results}.").format(code=drun.returncode, phase=drun.phase, arrived=drun.arrived,
                                                      joined=drun.joined, results=sorted(drun.results))
        fix += [_("read worker_<n>.log of the rank that has no result (last lines above)")]
        pitfall = pitfall or "P13"
    else:
        wrong = {r: {k: v for k, v in res["checks"].items() if not v["ok"]} for r, res in drun.results.items()}
        wrong = {r: v for r, v in wrong.items() if v}
        evidence["wrong results"] = wrong
        summary = (_("Collectives gave wrong values on ranks {ranks}.").format(ranks=sorted(wrong)) if wrong else
                   _("msrun exited with {code} after the collectives.").format(code=drun.returncode))
        fix += [_("ascend-doctor check   # versions and device health on every node"),
                _("on Ascend: HCCL and driver versions must be equal on every card and node (P13)")]
    if no_ms:
        summary = sentences(_("The workers could not import MindSpore (ModuleNotFoundError: No module named 'mindspore' "
                              "in {workers}): msrun starts them with the first `python` on PATH, which is not {python}, "
                              "the interpreter that has MindSpore.").format(workers=", ".join(no_ms),
                                                                            python=drun.argv[0]), summary)
    return Finding(fid, FAIL, title, summary=summary, evidence=evidence, fix=fix, pitfall=pitfall,
                   duration_ms=drun.wall_ms).with_outcome_title(title, _outcome_titles(fid, COLLECTIVES_TITLE))
