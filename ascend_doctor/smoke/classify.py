"""Turn a smoke run into findings: which stage broke, the lines that say why, and the known fix.

A failure names its stage, shows the few useful stderr lines (not the wall of
compile logs), and matches the child's error and stderr against the knowledge
base so a known error prints its fix. Stages after the one that broke are
reported as not reached, never as passed.
"""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..findings import FAIL, PASS, SKIP, WARN, Finding
from .runner import CRASHED, FAILED, HUNG, NOT_RUN, SKIPPED, SmokeRun

# Host RSS growth across the smoke's steps that is worth a warning (P02). The
# tiny net needs no new host memory after its first step; a steady climb means
# something keeps allocating per step.
RSS_WARN_MB = 32.0
RSS_WARN_KB_PER_STEP = 1024.0
# Shown in the report when the stack is healthy: how much PYNATIVE costs (P03).
PYNATIVE_SLOW_RATIO = 1.2

FINDINGS: List[Tuple[str, str, Sequence[str]]] = [
    ("smoke.import", "MindSpore imports", ("import",)),
    ("smoke.device", "MindSpore selects the device", ("device",)),
    ("smoke.op_check", "An operator on the device matches NumPy", ("op_check",)),
    ("smoke.graph_compile", "GRAPH mode compiles a train step (forward, backward, optimizer)", ("graph_compile",)),
    ("smoke.train_converges", "Training on a learnable task converges", ("train", "verify")),
    ("smoke.pynative_agreement", "PYNATIVE mode agrees with GRAPH mode", ("pynative",)),
    ("smoke.host_memory_growth", "Host memory stays flat across train steps", ("host_memory",)),
    ("smoke.mindir_roundtrip", "The trained net exports to MindIR and reloads with the same outputs", ("mindir",)),
    ("smoke.atc_convert", "ATC converts the MindIR for this SoC", ("atc",)),
]
STAGE_FINDING = {stage: fid for fid, _, stages in FINDINGS for stage in stages}
# What each line says when the stage did not pass (findings.outcome_title): the line says what is wrong.
OUTCOME_TITLES: Dict[str, Dict[str, str]] = {
    "smoke.import": {FAIL: "MindSpore does not import"},
    "smoke.device": {FAIL: "MindSpore cannot use the device"},
    "smoke.op_check": {FAIL: "An operator on the device does not match NumPy"},
    "smoke.graph_compile": {FAIL: "GRAPH mode does not compile the train step"},
    "smoke.train_converges": {FAIL: "Training on a learnable task does not converge"},
    "smoke.pynative_agreement": {FAIL: "PYNATIVE mode disagrees with GRAPH mode",
                                 WARN: "PYNATIVE mode disagrees with GRAPH mode"},
    "smoke.host_memory_growth": {FAIL: "Host memory grows across train steps", WARN: "Host memory grows across train steps"},
    "smoke.mindir_roundtrip": {FAIL: "The trained net does not export to MindIR and reload with the same outputs"},
    "smoke.atc_convert": {FAIL: "ATC cannot convert the MindIR for this SoC"},
    "smoke.collectives": {FAIL: "Collectives across ranks failed"},
}
OUTCOME_TITLES = {fid: dict(words, skip="Not run: " + title)
                  for fid, title, _ in FINDINGS + [("smoke.collectives", "Collectives (AllReduce, AllGather) across ranks", ())]
                  for words in [OUTCOME_TITLES.get(fid, {})]}

# What to do when a stage breaks and no known error explains it.
STAGE_FIX = {
    "import": ["python -c 'import mindspore; print(mindspore.__file__)'   # the full import error",
               "pip install mindspore==<version for your CANN/CUDA>   # see https://www.mindspore.cn/install"],
    "device": ["python -c \"import mindspore as ms; ms.set_device('<Ascend|GPU|CPU>'); print(ms.get_context('device_target'))\"",
               "ascend-doctor check   # driver, CANN and MindSpore versions must belong together (P07)"],
    "op_check": ["ascend-doctor check   # a wrong result from a basic op points at mismatched MindSpore/CANN/driver (P07)",
                 "ascend-doctor smoke --device cpu   # compare with the CPU"],
    "graph_compile": ["export GLOG_v=1 ASCEND_GLOBAL_LOG_LEVEL=1 ASCEND_SLOG_PRINT_TO_STDOUT=1   # then re-run for the compile log",
                      "set_context(save_graphs=True) and read analyze_fail.ir / the saved graphs (P18)",
                      "debug the same code with set_context(mode=PYNATIVE_MODE); move data-dependent control flow out of "
                      "the graph (P19)"],
    "train": ["ascend-doctor check   # device memory, versions and device health",
              "re-run with --steps 10 to see whether it fails at the first step or later"],
    "verify": ["the stack computed a wrong gradient or update: compare with `ascend-doctor smoke --device cpu`",
               "install the MindSpore / CANN / driver versions that belong together (ascend-doctor check, P07)"],
    "pynative": ["run the smoke with --no-pynative to confirm the GRAPH path alone is healthy",
                 "GRAPH and PYNATIVE must compute the same thing: report the disagreement with both versions to MindSpore"],
    "mindir": ["python -c \"import mindspore as ms; print(ms.__version__)\"   # export and load must use one MindSpore",
               "check free disk space in the working directory (ascend-doctor check --only resources)"],
    "atc": ["replace operators the SoC does not support, or write a custom operator (P09)",
            "check the operator support list of the CANN release for this SoC"],
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


def smoke_findings(run: SmokeRun, kb=None, device_reasons: Sequence[str] = ()) -> List[Finding]:
    """One finding per area of the smoke, in stage order."""
    stderr_lines = run.stderr.splitlines()
    findings = []
    for fid, title, stages in FINDINGS:
        results = [run.stages[s] for s in stages]
        broken = next((r for r in results if r.status in (FAILED, HUNG, CRASHED)), None)
        ms = sum(r.ms for r in results)
        if broken is not None:
            f = _broken_finding(fid, title, broken, run, kb, stderr_lines)
        elif all(r.status == NOT_RUN for r in results):
            f = Finding(fid, SKIP, title, summary=f"Not reached: the smoke stopped at the '{run.stopped_at}' stage "
                                                  f"(see {STAGE_FINDING.get(run.stopped_at, 'above')}).")
        elif any(r.status == SKIPPED for r in results):
            r = next(r for r in results if r.status == SKIPPED)
            f = Finding(fid, SKIP, title, summary=f"Skipped: {r.data.get('reason', 'does not apply here')}.")
        else:
            try:
                f = _passed_finding(fid, title, results, run, device_reasons)
            except (KeyError, TypeError, ValueError):  # a child of another version left a number out
                f = Finding(fid, PASS, title, summary="Passed.", evidence={r.stage: r.data for r in results})
        f.duration_ms = ms
        findings.append(f.with_outcome_title(title, OUTCOME_TITLES[fid]))
    return findings


def _broken_finding(fid, title, res, run: SmokeRun, kb, stderr_lines) -> Finding:
    stage = res.stage
    error_lines = (res.error or "").splitlines()
    matches = kb_matches(kb, error_lines + stderr_lines)
    shown = useful_stderr_lines(run.stderr, keep=[line for _, line in matches])
    if res.status == HUNG:
        what = (f"The smoke hung in the '{stage}' stage: no progress for {run.timeout_s:g} s, so its whole "
                f"process group was killed.")
    elif res.status == CRASHED:
        what = (f"The smoke process died during the '{stage}' stage "
                f"({run.signal_name or f'exit code {run.returncode}'}), without a Python error.")
    else:
        first = error_lines[0].rstrip(".") if error_lines else "no error text"
        what = f"The smoke failed in the '{stage}' stage: {first}."
    if res.data.get("unsupported_ops"):
        what += f" Operators ATC could not convert for this SoC: {', '.join(res.data['unsupported_ops'])}."
    evidence: Dict[str, object] = {"stage": stage, "device": run.device}
    evidence.update({k: v for k, v in res.data.items() if k not in ("traceback",)})
    if res.error and res.status == FAILED:
        evidence["error"] = [l for l in error_lines if l.strip() and not _RULE.match(l)][:6]
    if shown:
        evidence["stderr"] = shown
    fix: List[str] = []
    pitfall: Optional[str] = None
    if matches:
        evidence["known_errors"] = [f"{sig.id}: {line.strip()[:160]}" for sig, line in matches]
        what += " Known error: " + "; ".join(sig.cause.split(". ")[0].rstrip(".") for sig, _ in matches[:2]) + "."
        from ..advice_facts import applicable_fixes

        imported = run.stages.get("import")
        installed = {"mindspore": (imported.data or {}).get("version") if imported else None}
        for sig, _ in matches:
            # steps naming an API the MindSpore that ran does not have are left out (advice_facts.json ranges)
            fix.extend(s for s in applicable_fixes(sig.fix, installed) if s not in fix)
            pitfall = pitfall or sig.pitfall
    if stage == "import" and "No module named 'mindspore'" in (res.error or ""):
        fix.extend([f"{run.python} -m pip install 'mindspore>=2.7'   # or the build for your device: "
                    "https://www.mindspore.cn/install (pip install 'ascend-doctor[smoke]' pins a tested one)",
                    "if it is installed elsewhere: run ascend-doctor with that environment's python"])
    else:
        fix.extend(s for s in STAGE_FIX.get(stage, []) if s not in fix)
    if res.status == HUNG:
        fix.insert(0, f"re-run with --stage-timeout {stage}=<seconds> if this stage is only slow here")
    pitfall = pitfall or STAGE_PITFALL.get(stage)
    return Finding(fid, FAIL, title, summary=what, evidence=evidence, fix=fix, pitfall=pitfall)


def _passed_finding(fid, title, results, run: SmokeRun, device_reasons) -> Finding:
    d: Dict[str, object] = {}
    for r in results:
        d.update(r.data)
    ms = sum(r.ms for r in results)
    if fid == "smoke.import":
        return Finding(fid, PASS, title, summary=f"MindSpore {d.get('version')} imports in {_fmt_ms(ms)}.",
                       evidence={"version": d.get("version"), "location": d.get("location"), "python": d.get("python")})
    if fid == "smoke.device":
        dev = f"{d.get('target')}" + (f":{d['device_id']}" if d.get("device_id") is not None else "")
        return Finding(fid, PASS, title, summary=f"MindSpore runs on {dev} in GRAPH mode.",
                       evidence={"target": dev, "why this device": list(device_reasons)})
    if fid == "smoke.op_check":
        return Finding(fid, PASS, title,
                       summary=f"{d.get('op')} on {run.device.upper()} matches NumPy "
                               f"(max abs error {d.get('max_abs_error', 0):.1e}).",
                       evidence={"op": d.get("op"), "max_abs_error": d.get("max_abs_error")})
    if fid == "smoke.graph_compile":
        return Finding(fid, PASS, title,
                       summary=f"The train step compiled and ran its first step in {_fmt_ms(ms)}.",
                       evidence={"compile_and_first_step_ms": d.get("compile_and_first_step_ms")})
    if fid == "smoke.train_converges":
        return Finding(fid, PASS, title,
                       summary=f"Loss fell from {d['loss_first']:.3f} to {d['loss_last_mean']:.3f} in {d['steps']} "
                               f"GRAPH steps and held-out accuracy is {d['accuracy']:.2f} (bar {d['accuracy_bar']}; a "
                               f"broken gradient stays near 0.5).",
                       evidence={k: d.get(k) for k in ("steps", "loss_first", "loss_last_mean", "loss_threshold",
                                                        "accuracy", "accuracy_bar", "step_ms_median")})
    if fid == "smoke.pynative_agreement":
        ratio = d.get("pynative_over_graph")
        ev = {k: d.get(k) for k in ("loss_last_graph", "loss_last_pynative", "accuracy_graph", "accuracy_pynative",
                                     "step_ms_graph", "step_ms_pynative", "pynative_over_graph")}
        text = (f"Both modes reach the same loss ({d['loss_last_graph']:.4f} vs {d['loss_last_pynative']:.4f}) "
                f"from the same start.")
        if ratio and ratio >= PYNATIVE_SLOW_RATIO:
            text += (f" A PYNATIVE step takes {ratio:.1f}x a GRAPH step here: train in GRAPH_MODE, keep PYNATIVE "
                     f"for debugging.")
            return Finding(fid, PASS, title, summary=text, evidence=ev, pitfall="P03")
        return Finding(fid, PASS, title, summary=text, evidence=ev)
    if fid == "smoke.host_memory_growth":
        ev = {k: d.get(k) for k in ("rss_before_mb", "rss_after_mb", "growth_mb", "growth_kb_per_step", "steps")}
        if d.get("growth_mb", 0) > RSS_WARN_MB or d.get("growth_kb_per_step", 0) > RSS_WARN_KB_PER_STEP:
            return Finding(fid, WARN, title,
                           summary=f"Host RSS grew {d['growth_mb']} MB over {d['steps']} steps of a tiny net "
                                   f"({d['growth_kb_per_step']} KB a step); a real job would keep growing until the "
                                   f"OOM killer ends it.",
                           evidence=ev, pitfall="P02",
                           fix=["ps -o pid,rss,cmd -p <training pid>   # every N steps, to see the trend",
                                "keep loss.asnumpy()/float(loss), not tensors, across steps; lower dataset prefetch",
                                "check this MindSpore release's notes for known host-memory leaks and upgrade"])
        return Finding(fid, PASS, title,
                       summary=f"Host RSS changed {d['growth_mb']} MB over {d['steps']} steps.", evidence=ev)
    if fid == "smoke.mindir_roundtrip":
        return Finding(fid, PASS, title,
                       summary=f"Exported {d.get('bytes')} bytes of MindIR, reloaded it with nn.GraphCell: outputs match "
                               f"(max abs error {d.get('max_abs_error', 0):.1e}).",
                       evidence={"bytes": d.get("bytes"), "max_abs_error": d.get("max_abs_error")})
    if fid == "smoke.atc_convert":
        return Finding(fid, PASS, title, summary=f"atc converted the MindIR to {d.get('om')}.",
                       evidence={"argv": d.get("argv")})
    raise KeyError(fid)


def collectives_finding(drun, kb=None) -> Finding:
    """smoke.collectives from a DistributedRun (P13 when a rank never joins, P16 for bandwidth)."""
    title = "Collectives (AllReduce, AllGather) across ranks"
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
        bw = f", AllReduce bus bandwidth ~{min(bws):.2f} GB/s" if bws else ""
        return Finding(fid, PASS, title,
                       summary=f"{len(drun.results)} ranks joined in {init_ms / 1000:.1f} s; AllReduce and AllGather "
                               f"gave the expected values on every rank{bw}.",
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
    for sig, _ in matches:
        fix.extend(s for s in sig.fix if s not in fix)
        pitfall = pitfall or sig.pitfall
    if matches:
        evidence["known_errors"] = [f"{sig.id}: {line.strip()[:160]}" for sig, line in matches]
    no_ms = sorted(name for name, lines in drun.log_tails.items()
                   if any(_NO_MINDSPORE.search(line) for line in lines))
    if no_ms:
        # msrun starts workers as `python <script>` from PATH: another interpreter than the one with MindSpore.
        bindir = drun.argv[0].rsplit("/", 1)[0] if "/" in drun.argv[0] else None
        evidence["workers without MindSpore"] = no_ms
        fix.insert(0, (f"export PATH={bindir}:$PATH   # " if bindir else "activate the environment that has "
                       "MindSpore   # ") + "msrun starts workers with the first `python` on PATH")
        fix.insert(1, "ascend-doctor check --only mindspore.launcher_python   # which `python` that is")
    if drun.status == "hung":
        who = (f"ranks {missing} never started" if missing and drun.phase == "launch"
               else (f"ranks {drun.arrived} started, the scheduler registered {drun.registered}; "
                     f"{[i for i in drun.expected if i not in drun.registered]} never joined") if drun.phase == "init"
               else "the collectives did not finish")
        summary = (f"The distributed smoke hung in the '{drun.phase}' phase after {drun.timeout_s:g} s: {who}. "
                   f"All of msrun's processes were killed.")
        fix += ["check each missing rank's log (worker_<n>.log) and the scheduler's (scheduler.log)",
                "every node: the same --master-addr/--master-port and --ranks, and that port open (nc -zv <addr> <port>)",
                "on Ascend: same driver/CANN on every card and node, a valid rank table, HCCL_CONNECT_TIMEOUT (P13)"]
        pitfall = pitfall or "P13"
    elif drun.status == "crashed":
        summary = (f"msrun ended (exit {drun.returncode}) during the '{drun.phase}' phase: ranks arrived {drun.arrived}, "
                   f"joined {drun.joined}, results from {sorted(drun.results)}.")
        fix += ["read worker_<n>.log of the rank that has no result (last lines above)"]
        pitfall = pitfall or "P13"
    else:
        wrong = {r: {k: v for k, v in res["checks"].items() if not v["ok"]} for r, res in drun.results.items()}
        wrong = {r: v for r, v in wrong.items() if v}
        evidence["wrong results"] = wrong
        summary = (f"Collectives gave wrong values on ranks {sorted(wrong)}" if wrong else
                   f"msrun exited with {drun.returncode} after the collectives") + "."
        fix += ["ascend-doctor check   # versions and device health on every node",
                "on Ascend: HCCL and driver versions must be equal on every card and node (P13)"]
    if no_ms:
        summary = (f"The workers could not import MindSpore (ModuleNotFoundError: No module named 'mindspore' in "
                   f"{', '.join(no_ms)}): msrun starts them with the first `python` on PATH, which is not "
                   f"{drun.argv[0]}, the interpreter that has MindSpore. " + summary)
    return Finding(fid, FAIL, title, summary=summary, evidence=evidence, fix=fix, pitfall=pitfall,
                   duration_ms=drun.wall_ms).with_outcome_title(title, OUTCOME_TITLES[fid])
