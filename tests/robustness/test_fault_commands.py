"""Vendor tools that hang, print garbage or 100 MB, fail, or cannot be executed.

The fake npu-smi / nvidia-smi / nvcc / hccn_tool are scripts put FIRST on PATH of a real
`python -m ascend_doctor check --timeout 1` process. Whatever they do, the report completes
within the timeouts plus a margin, says which command it could not use, and leaves no process behind.
"""

import json
import os
import time

import pytest

from ascend_doctor import phrases
from ascend_doctor.doctor import RunOptions, run_checks
from tests.helpers import fixture_path, run_cli
from tests.helpers.i18n_asserts import assert_msg
from tests.helpers.faults import (TOOL_BEHAVIOURS, RootedLiveHost, copy_fixture, default_signals, leftover_sleepers,
                                  make_tools)

TIMEOUT = 1.0
# A tool that hangs is cut at whatever timeout is given: the hangs are tested with a shorter one, so each costs less
# (tools that do answer, with garbage or 100 MB, keep TIMEOUT to finish in on a loaded machine).
HANG_TIMEOUT = 0.5


def _timeout(behaviour):
    return HANG_TIMEOUT if behaviour.startswith("sleep") else TIMEOUT
# On this (or any) machine a live `check` runs at most these commands that can hang:
# npu-smi info, nvidia-smi (its --query-gpu only after a good banner), nvcc --version.
HANGABLE_COMMANDS = 3
# Interpreter start-up, the probes and the checks on a loaded 2-core CI machine.
MARGIN_S = 5.0
# Whatever a tool prints, the JSON report stays small: output is capped and error lists are cut.
MAX_REPORT_BYTES = 1 << 20


def _check(tmp_path, behaviour, *extra):
    tools = make_tools(tmp_path / "bin", behaviour)
    start = time.monotonic()
    proc = run_cli("check", "--timeout", str(_timeout(behaviour)), "--format", "json", *extra,
                   env={"PATH": tools + os.pathsep + os.environ["PATH"]}, timeout=120, process=True)
    return proc, time.monotonic() - start


def _finding(report, fid):
    return next(f for f in report["findings"] if f["id"] == fid)


EXPECT = {
    # behaviour: (npu-smi finding status, words in it, nvidia-smi finding status, words in it)
    "sleep": ("error", "`npu-smi info` did not finish", "error", "`nvidia-smi` did not finish"),
    "sleep-trap": ("error", "`npu-smi info` did not finish", "error", "`nvidia-smi` did not finish"),
    "garbage": ("error", "not the `npu-smi info` table", "error", "`nvidia-smi` printed no"),
    "table-like-lines": ("error", "not the `npu-smi info` table", "error", "`nvidia-smi` printed no"),
    "100MB": ("error", "not the `npu-smi info` table", "error", "`nvidia-smi` printed no"),
    "exit-nonzero": ("error", "`npu-smi info` exited with code 3", "fail", "nvidia-smi cannot talk to the driver"),
    "not-executable": ("error", "`npu-smi info` could not run (not-executable)", "error",
                       "`nvidia-smi` could not run (not-executable)"),
    "stderr-flood": ("error", "`npu-smi info` exited with code 1", "fail", "nvidia-smi cannot talk to the driver"),
}


@pytest.mark.parametrize("behaviour", sorted(TOOL_BEHAVIOURS))
def test_broken_tool_report_completes_in_time_and_names_the_command(tmp_path, behaviour):
    proc, seconds = _check(tmp_path, behaviour)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert seconds <= _timeout(behaviour) * HANGABLE_COMMANDS + MARGIN_S, f"{behaviour}: took {seconds:.1f} s"
    assert len(proc.stdout) < MAX_REPORT_BYTES, f"{behaviour}: report of {len(proc.stdout)} bytes"
    report = json.loads(proc.stdout)
    npu_status, npu_words, gpu_status, gpu_words = EXPECT[behaviour]
    npu = _finding(report, "devices.npu_smi")
    assert npu["status"] == npu_status and npu_words in npu["summary"], npu
    gpu = _finding(report, "gpu.driver_module_match")
    assert gpu["status"] == gpu_status and gpu_words in gpu["summary"], gpu
    for fact in ("npu", "cuda"):
        assert len(report["facts"][fact]["errors"]) <= 51  # capped, with a "... and N more" line
    assert not leftover_sleepers()


def test_text_report_also_completes_and_names_the_command(tmp_path):
    tools = make_tools(tmp_path / "bin", "sleep")
    proc = run_cli("check", "--timeout", str(HANG_TIMEOUT), env={"PATH": tools + os.pathsep + os.environ["PATH"]})
    assert proc.returncode == 1 and "npu-smi info" in proc.stdout and "nvidia-smi" in proc.stdout
    assert not leftover_sleepers()


@pytest.mark.parametrize("behaviour", ["sleep", "sleep-trap", "garbage", "exit-nonzero", "not-executable"])
def test_hccn_tool_faults_stop_after_the_first_timeout_and_are_reported(tmp_path, behaviour):
    """hccn_tool runs 12 queries per device: a hung one must cost one timeout, not one per query and device."""
    snap = copy_fixture(fixture_path("distributed_910b_node"), tmp_path / "snap")
    with open(os.path.join(snap, "env.json")) as fh:
        env = json.load(fh)
    env["PATH"] = make_tools(tmp_path / "bin", behaviour) + ":/usr/bin:/bin"
    with open(snap + "/root/user/config/hccl.json") as fh:  # this node is the table's first server
        env["XDL_IP"] = json.load(fh)["server_list"][0]["server_id"]
    host = RootedLiveHost(snap + "/root", env)
    start = time.monotonic()
    report = run_checks(host, RunOptions(timeout=_timeout(behaviour))).to_json()
    seconds = time.monotonic() - start
    # npu-smi, nvidia-smi, nvcc and the first hccn_tool call can each use one timeout
    assert seconds <= _timeout(behaviour) * (HANGABLE_COMMANDS + 1) + MARGIN_S
    hccn = report["facts"]["hccn"]
    said = json.dumps(hccn)
    facts_said = {k: v for k, v in report["i18n"]["facts"].items() if k.startswith("/hccn/")}  # its messages
    assert "hccn_tool" in said
    if behaviour.startswith("sleep"):
        assert_msg(facts_said, phrases.COMMAND_TIMEOUT)
        nics = _finding(report, "rank_table.device_nics")
        assert nics["status"] == "error" and "hccn_tool" in nics["summary"], nics["summary"]
    elif behaviour == "not-executable":
        assert "not-executable" in said
    elif behaviour == "exit-nonzero":
        assert_msg(facts_said, phrases.COMMAND_EXIT, code=3)
    else:  # garbage: answers that are not hccn_tool's
        assert_msg(facts_said, phrases.HCCN_NO_LINE, expected="link status:")
    assert not leftover_sleepers()


def test_preflight_with_every_tool_hung_reports_within_its_budget(tmp_path):
    tools = make_tools(tmp_path / "bin", "sleep")
    start = time.monotonic()
    # 3 s: each command gets a third of it (1 s), so the three hung tools use it all
    proc = run_cli("preflight", "--budget", "3", "--report-dir", str(tmp_path / "reports"), "--format", "json",
                   env={"PATH": tools + os.pathsep + os.environ["PATH"], "RANK_ID": "0"})
    seconds = time.monotonic() - start
    assert seconds <= 3 + MARGIN_S
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    said = json.dumps(report["findings"])
    assert "npu-smi" in said
    [written] = [n for n in os.listdir(tmp_path / "reports") if n.endswith(".json")]
    assert json.load(open(tmp_path / "reports" / written))["findings"]
    assert not leftover_sleepers()


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_doctor_cancelled_while_a_tool_hangs_takes_the_tool_down(tmp_path, sig):
    """A scheduler cancelling the job sends SIGTERM to the doctor; the hung npu-smi lives in its own
    session (so a timeout can kill its group) and would not get the signal: the doctor must end it."""
    import signal
    import subprocess
    import sys

    from tests.helpers import REPO

    tools = make_tools(tmp_path / "bin", "sleep")
    env = dict(os.environ, PATH=tools + os.pathsep + os.environ["PATH"], PYTHONPATH=REPO)
    proc = subprocess.Popen([sys.executable, "-m", "ascend_doctor", "check", "--timeout", "60"], env=env, cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=default_signals)
    import psutil

    def tool_processes():
        try:
            return [p for p in psutil.Process(proc.pid).children(recursive=True)]
        except psutil.Error:
            return []

    try:
        deadline = time.monotonic() + 20
        while not tool_processes() and time.monotonic() < deadline:
            time.sleep(0.05)
        tools_running = tool_processes()
        assert tools_running, "npu-smi never started"
        time.sleep(0.3)  # the sleep under the script has started too
        tools_running = tool_processes()
        proc.send_signal(getattr(signal, sig))
        _, err = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode in (128 + getattr(signal, sig), 130), err.decode()[-1000:]
    assert b"Traceback" not in err
    deadline = time.monotonic() + 5
    while any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE for p in tools_running) \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [p.pid for p in tools_running if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert not left, f"the tool outlived the doctor: {left}"
