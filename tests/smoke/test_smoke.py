"""The smoke train: device choice, stage classification, fault injection, CLI.

Fast tests never import MindSpore (the child fails or hangs before it would);
tests that train with the real MindSpore CPU build are marked slow.
Fixtures in tests/fixtures/smoke/ are real outputs captured on this machine
(MindSpore 2.10.0 CPU): see tests/fixtures/smoke/README.md.
"""

import re
import json
import os

import pytest

from ascend_doctor.facts import Facts, NpuDevice
from ascend_doctor.kb.load import load_knowledge_base
from ascend_doctor.kb.model import KnowledgeBase, Pitfall, Signature
from ascend_doctor.smoke import classify, device, distributed, runner
from tests.helpers import FIXTURES, run_cli, run_json
from tests.helpers.i18n_asserts import assert_msg, deferred, deferring

# classified as a smoke session classifies (words deferred): the asserts read message ids and parameters
smoke_findings = deferring(classify.smoke_findings)

FAULT = "ASCEND_DOCTOR_SMOKE_FAULT"
SMOKE_FIXTURES = os.path.join(FIXTURES, "smoke")


def _fixture(name):
    with open(os.path.join(SMOKE_FIXTURES, name), encoding="utf-8") as fh:
        return fh.read()


# Signatures copied from shared/reference/error_signatures.md (patterns, fix in short).
# Built as records: a knowledge_base.json read by the loader is checked against its schema (60+ signatures, each with
# examples and near misses), which these three are not.
KB = KnowledgeBase(
    {pid: Pitfall(pid, p.title, p.advice) for pid, p in load_knowledge_base().pitfalls.items()},
    [Signature(**s) for s in [
        {"id": "CANN_ENV_LIB_NOT_FOUND", "regex": True, "component": "cann", "severity": "fail", "pitfall": "P08",
         "pattern": r"(libascendcl|libge_runner|libhccl|libgraph)\.so[.\d]*: cannot open shared object file",
         "cause": "The CANN libraries are not on LD_LIBRARY_PATH in this process. set_env.sh was not sourced.",
         "fix": ["source /usr/local/Ascend/ascend-toolkit/set_env.sh"]},
        {"id": "MS_CLUSTER_TOPOLOGY_TIMEOUT", "regex": False, "component": "mindspore", "severity": "fail",
         "pattern": "Topology build timed out", "pitfall": "P13",
         "cause": "Workers cannot reach the scheduler or MS_WORKER_NUM does not match the processes started.",
         "fix": ["start exactly MS_WORKER_NUM workers with the same MS_SCHED_HOST/MS_SCHED_PORT"]},
        {"id": "MS_COMPILE_INFO_BENIGN", "regex": False, "component": "mindspore", "severity": "info",
         "pattern": "Start compiling and it will take a while", "cause": "normal", "fix": []},
    ]],
)


# -- device choice ----------------------------------------------------------

def test_auto_device_is_ascend_only_with_driver_cann_and_ascend_mindspore():
    from ascend_doctor.facts import CannInstall

    facts = Facts()
    facts.mindspore.flavour, facts.mindspore.installed = "ascend", True
    facts.driver.installed = True
    assert device.detect_device(facts)[0] == "cpu"  # no CANN yet
    reasons = device.detect_device(facts)[1]
    assert any("CANN" in r for r in reasons)
    facts.cann.installs.append(CannInstall(root="/usr/local/Ascend/ascend-toolkit/latest", kind="toolkit"))
    assert device.detect_device(facts)[0] == "ascend"


def test_auto_device_gpu_needs_a_cuda_build_and_a_gpu():
    facts = Facts()
    facts.mindspore.flavour = "gpu"
    dev, reasons = device.detect_device(facts)
    assert dev == "cpu" and any("no GPU" in r for r in reasons)
    facts.cuda.gpus.append({"name": "Tesla V100"})
    assert device.detect_device(facts)[0] == "gpu"


def test_soc_version_comes_from_npu_smi_chip_name():
    facts = Facts()
    assert device.ascend_soc_version(facts) is None
    facts.npu.devices.append(NpuDevice(npu_id=0, name="910B1"))
    assert device.ascend_soc_version(facts) == "Ascend910B1"


# -- stderr and logs: the useful lines only ------------------------------------

def test_useful_stderr_lines_drop_cpp_stack_and_frames_of_a_real_compile_error():
    lines = classify.useful_stderr_lines(_fixture("graph_compile_typeerror_stderr.txt"))
    assert lines[0].startswith("TypeError: The parameters number of the function is 2")
    assert not any("C++ Call Stack" in l or "evaluator.cc" in l or 'File "' in l or "^^^" in l for l in lines)


def test_msrun_scheduler_log_names_registered_ranks_and_collapses_retries():
    text = _fixture("msrun_nojoin_scheduler.log")
    assert distributed.registered_ranks(text) == [0]
    lines = classify.useful_stderr_lines(text, warnings=True, limit=50)
    assert sum("Topology build timed out" in l for l in lines) == 1  # 30 retries, shown once
    assert any("Failed to initialize distributed job cluster" in l for l in lines)


# -- classification of a run ---------------------------------------------------

def _recorded_run():
    """The SmokeRun of a real passing child (its JSON lines, recorded)."""
    stages = {}
    for line in _fixture("child_pass_cpu.jsonl").splitlines():
        msg = runner.parse_line(line)
        if msg and msg["event"] == "end":
            stages[msg["stage"]] = runner.result_from_end(msg)
    return runner.SmokeRun("cpu", stages, 0, "", 9000)


def _run(stopped_at, status, error=None, stderr="", **data):
    """A recorded healthy run, broken at `stopped_at` (later stages not reached)."""
    run = _recorded_run()
    run.device, run.stderr, run.returncode, run.stopped_at, run.timeout_s = "ascend", stderr, 3, stopped_at, 30.0
    hit = False
    for s in runner.STAGES:
        if s == stopped_at:
            run.stages[s] = runner.StageResult(s, status, 7, data, error)
            hit = True
        elif hit:
            run.stages[s] = runner.StageResult(s, runner.NOT_RUN)
    return run


def test_import_failure_of_cann_library_prints_the_known_fix():
    err = "ImportError: libascendcl.so: cannot open shared object file: No such file or directory"
    findings = {f.id: f for f in smoke_findings(_run("import", runner.FAILED, err, stderr=err + "\n"), KB)}
    f = findings["smoke.import"]
    assert f.status == "fail" and "'import' stage" in f.summary
    assert f.fix[0] == "source /usr/local/Ascend/ascend-toolkit/set_env.sh"
    assert f.pitfall == "P08"
    assert f.evidence["known_errors"][0].startswith("CANN_ENV_LIB_NOT_FOUND")
    # every later area is reported, as not reached
    assert findings["smoke.mindir_roundtrip"].status == "skip"
    assert_msg(findings["smoke.mindir_roundtrip"].summary, "Not reached: the smoke stopped at the '{stage}' stage (see "
               "{finding}).", stage="import", finding="smoke.import")
    assert len(findings) == len(classify.FINDINGS)


def test_device_failure_on_a_host_without_cann_points_at_set_env():
    """Recorded: --device ascend with the unified MindSpore 2.10 wheel and no CANN installed."""
    stages = {}
    for line in _fixture("child_device_ascend_on_cpu_host.jsonl").splitlines():
        msg = runner.parse_line(line)
        if msg and msg["event"] == "end":
            stages[msg["stage"]] = runner.result_from_end(msg)
    for s in runner.STAGES:
        stages.setdefault(s, runner.StageResult(s, runner.NOT_RUN))
    run = runner.SmokeRun("ascend", stages, 3, _fixture("child_device_ascend_on_cpu_host_stderr.txt"), 8000, "device")
    f = {f.id: f for f in classify.smoke_findings(run, KB)}["smoke.device"]
    assert f.status == "fail"
    assert f.summary.startswith("The smoke failed in the 'device' stage: RuntimeError: Unsupported device target Ascend")
    assert f.fix[0] == "source /usr/local/Ascend/ascend-toolkit/set_env.sh" and f.pitfall == "P08"
    assert any("libge_runner.so: cannot open shared object file" in l for l in f.evidence["stderr"])
    assert not any(set(l) <= set("-") for l in f.evidence["error"])


def test_benign_kb_lines_do_not_count_as_the_cause():
    stderr = "[WARNING] ME(1:1,MainProcess):2026 [api.py:1] Start compiling and it will take a while. Please wait...\n"
    f = smoke_findings(_run("graph_compile", runner.HUNG, "no progress", stderr=stderr), KB)[3]
    assert f.id == "smoke.graph_compile" and f.status == "fail" and "known_errors" not in f.evidence
    assert_msg(f.summary, "The smoke hung in the '{stage}' stage: no progress for {seconds} s, so its whole process group "
               "was killed.", stage="graph_compile")
    assert f.fix[0].startswith("re-run with --stage-timeout graph_compile=")


def test_a_recorded_healthy_run_passes_with_its_numbers():
    findings = {f.id: f for f in smoke_findings(_recorded_run(), KB, ["--device cpu given"])}
    assert {i: f.status for i, f in findings.items() if f.status != "pass"} == {"smoke.atc_convert": "skip"}
    assert_msg(findings["smoke.atc_convert"].summary, "atc is not installed (CANN toolkit not on PATH)")
    conv = findings["smoke.train_converges"]
    assert conv.evidence["accuracy"] >= 0.9
    assert_msg(conv.summary, "Loss fell from {first} to {last} in {steps} GRAPH steps and held-out accuracy is {accuracy} "
               "(bar {bar}; a broken gradient stays near 0.5).", first="0.707", steps="40", bar="0.9")
    py = findings["smoke.pynative_agreement"]
    assert py.pitfall == "P03"  # PYNATIVE was slower on this CPU
    assert_msg(py.summary, "A PYNATIVE step takes {ratio}x a GRAPH step here: train in GRAPH_MODE, keep PYNATIVE for "
               "debugging.")


def test_host_memory_growth_warns_with_p02():
    run = _recorded_run()
    run.stages["host_memory"].data = {"rss_before_mb": 400.0, "rss_after_mb": 480.0, "growth_mb": 80.0,
                                      "growth_kb_per_step": 2100.0, "steps": 39}
    f = {f.id: f for f in classify.smoke_findings(run, KB)}["smoke.host_memory_growth"]
    assert f.status == "warn" and f.pitfall == "P02" and "80.0 MB" in f.summary


def test_atc_unsupported_operators_are_named():
    from ascend_doctor.smoke.__main__ import _unsupported_ops

    lines = ["E19010: No parser is registered for Op [model/custom_op, optype [MyCustomOp]].",
             "E20001: [PID: 9] Failed to compile Op [SoftmaxV2]. (oppath: ...)",
             "ATC run failed, Please check the detail log"]
    assert _unsupported_ops(lines) == ["MyCustomOp", "SoftmaxV2"]
    run = _run("atc", runner.FAILED, "atc failed (exit 255)", stderr="\n".join(lines),
               unsupported_ops=["MyCustomOp", "SoftmaxV2"], rc=255)
    f = {f.id: f for f in smoke_findings(run, KB)}["smoke.atc_convert"]
    assert f.status == "fail" and f.pitfall == "P09"
    assert_msg(f.summary, "Operators ATC could not convert for this SoC: {operators}.", operators="MyCustomOp, SoftmaxV2")


def _assert_never_joined(f):
    """The distributed smoke's words for a hang in init with rank 1 never joining (a Finding, or one of a JSON report)."""
    assert_msg(f, "The distributed smoke hung in the '{phase}' phase after {seconds} s: {who}.", phase="init")
    assert_msg(f, "ranks {arrived} started, the scheduler registered {registered}; {missing} never joined",
               registered="[0]", missing="[1]")


def test_collectives_hang_names_the_ranks_that_arrived():
    drun = distributed.DistributedRun(
        status="hung", phase="init", argv=["python", "-m", "mindspore.parallel.cluster.run", "--worker_num", "2"],
        expected=[0, 1], arrived=[0, 1], joined=[], results={}, returncode=None, wall_ms=20000,
        phase_ms={"launch": 3000}, log_tails={"scheduler.log": _fixture("msrun_nojoin_scheduler.log").splitlines()},
        timeout_s=20.0, registered=[0])
    f = deferred(classify.collectives_finding, drun, KB)
    assert f.status == "fail" and f.pitfall == "P13"
    _assert_never_joined(f)
    assert f.fix[0].startswith("start exactly MS_WORKER_NUM workers")
    assert any("Topology build timed out" in l for l in f.evidence["last log lines"]["scheduler.log"])


# -- the child and the parent, without MindSpore ------------------------------------

def test_missing_mindspore_still_gives_a_full_report():
    proc, report = run_json("smoke", env={FAULT: "missing_mindspore"})
    assert proc.returncode == 1
    by_id = {f["id"]: f for f in report["findings"]}
    assert by_id["smoke.import"]["status"] == "fail"
    assert_msg(by_id["smoke.import"], "The smoke failed in the '{stage}' stage: {error}.", stage="import",
               error="ModuleNotFoundError: No module named 'mindspore'")
    assert any("pip install" in step for step in by_id["smoke.import"]["fix"])
    assert {f["status"] for i, f in by_id.items() if i != "smoke.import"} == {"skip"}
    assert len(by_id) == len(classify.FINDINGS)
    assert "smoke: [1/10] import fail" in proc.stderr  # plain progress lines off a TTY


@pytest.mark.parametrize("python, why", [
    ("3.13.0", "no MindSpore wheel for Python 3.13; 3.9–3.12 have one"),
    ("3.8.18", "no wheel of MindSpore 2.7 or later for Python 3.8; 3.9–3.12 have one")])
def test_a_python_without_a_mindspore_wheel_says_so_instead_of_failing(python, why):
    """scripts/doctor-here installs the doctor without MindSpore on such a Python: its smoke line says why (the
    Pythons from the matrix's PyPI rows of the releases the smoke supports), and asks for no pip install."""
    err = "ModuleNotFoundError: No module named 'mindspore'"
    run = _run("import", runner.FAILED, err, python=python)
    f = {f.id: f for f in smoke_findings(run, KB)}["smoke.import"]
    assert (f.status, f.title) == ("error", "Smoke not run: " + why)
    assert f.evidence["python"] == python
    assert_msg(f.summary, "MindSpore is not installed in this Python, and PyPI has no wheel of it for this Python, so the "
               "smoke train could not run here.")
    assert not any("pip install" in step for step in f.fix) and "--python" in f.fix[0]


def test_a_python_with_a_mindspore_wheel_keeps_the_install_fix():
    err = "ModuleNotFoundError: No module named 'mindspore'"
    f = {f.id: f for f in classify.smoke_findings(_run("import", runner.FAILED, err, python="3.11.7"), KB)}
    assert f["smoke.import"].status == "fail" and "pip install 'mindspore>=2.7'" in f["smoke.import"].fix[0]


def test_python_ranges_are_said_as_a_range_only_when_unbroken():
    assert classify._python_range(["3.9", "3.10", "3.11", "3.12"]) == "3.9–3.12"
    assert classify._python_range(["3.8", "3.10"]) == "3.8, 3.10"
    assert classify._python_range(["3.11"]) == "3.11"


def test_hang_is_named_and_the_process_group_killed(monkeypatch):
    monkeypatch.setenv(FAULT, "hang:import")
    run = runner.run_smoke(runner.SmokeConfig(stage_timeouts={"import": 2.0}))
    assert run.stopped_at == "import" and run.stages["import"].status == runner.HUNG
    assert run.returncode == -9  # SIGKILL to the group
    assert "hanging in stage import" in run.stderr


# -- real MindSpore on the CPU -----------------------------------------------------

@pytest.mark.slow
def test_single_process_smoke_passes_on_cpu():
    proc, report = run_json("smoke", "--device", "cpu", "--steps", "30")
    by_id = {f["id"]: f for f in report["findings"]}
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert {i: f["status"] for i, f in by_id.items()} == {
        "smoke.import": "pass", "smoke.device": "pass", "smoke.op_check": "pass", "smoke.graph_compile": "pass",
        "smoke.train_converges": "pass", "smoke.pynative_agreement": "pass", "smoke.host_memory_growth": "pass",
        "smoke.mindir_roundtrip": "pass", "smoke.atc_convert": "skip"}
    assert by_id["smoke.train_converges"]["evidence"]["accuracy"] >= 0.9
    assert by_id["smoke.pynative_agreement"]["evidence"]["pynative_over_graph"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("fault, finding, words, compile_s", [
    # the hang sleeps as the stage starts: any deadline catches it, a short one sooner
    ("hang:graph_compile", "smoke.graph_compile", "hung in the 'graph_compile' stage", 2),
    # these compile for real first: 6 s covers a loaded 2-core machine
    ("crash:train", "smoke.train_converges", "died during the 'train' stage (SIGABRT)", 6),
    ("bad_grad", "smoke.train_converges", "the loss did not fall", 6),
])
def test_injected_faults_are_caught_and_named(fault, finding, words, compile_s):
    proc, report = run_json("smoke", "--device", "cpu", "--no-pynative", "--steps", "20",
                            "--stage-timeout", f"graph_compile={compile_s}", env={FAULT: fault})
    by_id = {f["id"]: f for f in report["findings"]}
    assert proc.returncode == 1
    assert by_id[finding]["status"] == "fail"
    assert words in by_id[finding]["summary"], by_id[finding]["summary"]
    assert [i for i, f in by_id.items() if f["status"] == "fail"] == [finding]


@pytest.mark.slow
def test_two_rank_smoke_passes_on_cpu_even_from_an_unactivated_venv(tmp_path):
    """msrun starts workers with `python` from PATH; the smoke puts this interpreter's directory first. One real
    two-rank run proves both (tests/checks/test_launcher_python.py tests the check and the failing side)."""
    bindir = tmp_path / "bin"  # the first `python` on PATH has no MindSpore (the system one), as from an
    bindir.mkdir()  # un-activated venv
    (bindir / "python").symlink_to("/usr/bin/python3")
    proc, report = run_json("smoke", "--ranks", "2", "--master-port", "18911",
                            env={"PATH": f"{bindir}:/usr/bin:/bin"})
    f = report["findings"][0]
    assert proc.returncode == 0, json.dumps(f, indent=1)
    assert f["id"] == "smoke.collectives" and f["status"] == "pass"
    assert f["evidence"]["checks"] == {"0": {"allreduce_sum": True, "allgather": True},
                                       "1": {"allreduce_sum": True, "allgather": True}}
    assert f["evidence"]["init_ms"] > 0 and f["evidence"]["busbw_gbps"] > 0


@pytest.mark.slow
@pytest.mark.alone  # rank 0 must register within the init deadline: beside the other worker's tests (a CI run's end,
# load 8) it did not within 20 s; alone it does in ~3 s
def test_worker_that_never_joins_is_named(tmp_path):
    # init=20: rank 0 must import MindSpore and register with the scheduler before it; ~3 s into the phase at a
    # load of 2 on the 2-core machine, but not within 10 s at a load of 7-26 (a shared machine, the other worker)
    tag = f"ASCEND_DOCTOR_TEST_RUN={tmp_path}"  # in every process of this run: another run's workers are not ours
    proc, report = run_json("smoke", "--ranks", "2", "--master-port", "18912", "--stage-timeout", "init=20",
                            env={FAULT: "nojoin:1", "ASCEND_DOCTOR_TEST_RUN": str(tmp_path)})
    f = report["findings"][0]
    assert proc.returncode == 1
    assert f["status"] == "fail" and f["pitfall"] == "P13"
    _assert_never_joined(f)
    assert "worker_1.log" in f["evidence"]["last log lines"]
    assert not [p for p in os.listdir("/proc") if p.isdigit() and "collective_worker.py" in _proc(p, "cmdline")
                and tag in _proc(p, "environ").split("\0")]


def _proc(pid, name):
    try:
        with open(f"/proc/{pid}/{name}", "rb") as fh:
            return fh.read().decode("utf-8", "replace")
    except OSError:
        return ""


def test_a_host_without_cann_is_never_told_to_source_a_set_env_that_is_not_there():
    """--device ascend on a host with no CANN install: the fix says to install CANN first; with an install
    elsewhere, the step names that install's set_env.sh."""
    err = "ImportError: libascendcl.so: cannot open shared object file: No such file or directory"
    run = _run("import", runner.FAILED, err, stderr=err + "\n")
    none = {f.id: f for f in classify.smoke_findings(run, KB, set_env_files=[])}["smoke.import"]
    assert not any(s.startswith("source ") for s in none.fix)
    assert none.fix[0].startswith("no CANN is installed here: install the CANN toolkit")
    home = {f.id: f for f in classify.smoke_findings(run, KB, set_env_files=["/home/a/Ascend/cann/set_env.sh"])}
    assert home["smoke.import"].fix[0] == "source /home/a/Ascend/cann/set_env.sh"


def test_a_gpu_run_gets_no_ascend_only_fix():
    err = "ImportError: libascendcl.so: cannot open shared object file: No such file or directory"
    run = _run("import", runner.FAILED, err, stderr=err + "\n")
    run.device = "gpu"
    f = {f.id: f for f in classify.smoke_findings(run, KB)}["smoke.import"]
    assert not any(re.search(r"set_env\.sh|libmindspore_ascend|/usr/local/Ascend", s) for s in f.fix), f.fix
    assert "known_errors" not in f.evidence  # a CANN signature is not the cause of a GPU run's failure
