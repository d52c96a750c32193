"""The smoke child under real faults, through `ascend-doctor smoke`: MindSpore missing, an import that
segfaults, a child the kernel's OOM killer ends, a stage that hangs. The parent reports each one by
stage and leaves no process behind: neither the child nor the helper processes it started
(MindSpore forks op-compile workers; the fake packages here start a marked `sleep` for that).

The faults are real: a fake `mindspore` package first on PYTHONPATH does the damage on import.
"""

import json
import os
import textwrap
import time

import psutil
import pytest

from tests.helpers import REPO, run_cli
from tests.helpers.faults import default_signals
from tests.helpers.i18n_asserts import assert_msg

MARKER = "ascend-doctor-smoke-helper-4242"
# Starts a helper in the child's session, as MindSpore's op-compile workers are.
SPAWN_HELPER = textwrap.dedent(f"""
    import subprocess, sys
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", "{MARKER}"])
    open(__file__ + ".helper-started", "w").close()
""")

FAKE_MINDSPORE = {
    "missing": 'raise ModuleNotFoundError("No module named \'mindspore\'", name="mindspore")\n',
    "segfault": SPAWN_HELPER + "import ctypes\nctypes.string_at(0)\n",
    "hang": SPAWN_HELPER + "import time\nwhile True:\n    time.sleep(3600)\n",
    # Joins a 64 MiB memory cgroup and allocates until the kernel kills it. Where no cgroup can be
    # made (not root, cgroup v2 without delegation) it dies by the same signal the OOM killer sends.
    "oom": SPAWN_HELPER + textwrap.dedent("""
        import os, signal
        cg = os.environ.get("FAKE_MS_CGROUP")
        if cg:
            with open(os.path.join(cg, "cgroup.procs"), "w") as fh:
                fh.write(str(os.getpid()))
            hog = []
            while True:
                hog.append(b"x" * (1 << 20))  # written, so resident
        os.kill(os.getpid(), signal.SIGKILL)
    """),
}


def _fake(tmp_path, kind):
    pkg = tmp_path / "fake" / "mindspore"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(FAKE_MINDSPORE[kind])
    return str(tmp_path / "fake")


def _mine(p, tag):
    """Processes of this test only (other sessions may run smoke tests on the same machine)."""
    try:
        return tag in p.environ().get("PYTHONPATH", "")
    except psutil.Error:
        return False


def _helpers(tag):
    out = []
    for p in psutil.process_iter(["pid", "cmdline"]):
        try:
            if MARKER in " ".join(p.info["cmdline"] or []) and _mine(p, tag):
                out.append(p)
        except psutil.Error:
            pass
    return out


def _smoke_children(tag):
    out = []
    for p in psutil.process_iter(["pid", "cmdline"]):
        try:
            cmd = p.info["cmdline"] or []
            if "ascend_doctor.smoke" in cmd and p.pid != os.getpid() and _mine(p, tag):
                out.append(p)
        except psutil.Error:
            pass
    return out


@pytest.fixture
def memory_cgroup():
    """A 64 MiB memory cgroup (v1) the fake child joins, or None where one cannot be made."""
    base = "/sys/fs/cgroup/memory"
    path = os.path.join(base, f"ascend-doctor-test-{os.getpid()}")
    try:
        os.mkdir(path)
        with open(os.path.join(path, "memory.limit_in_bytes"), "w") as fh:
            fh.write(str(64 << 20))
        memsw = os.path.join(path, "memory.memsw.limit_in_bytes")
        if os.path.exists(memsw):
            with open(memsw, "w") as fh:
                fh.write(str(64 << 20))
    except OSError:
        yield None
        return
    try:
        yield path
    finally:
        for _ in range(50):
            try:
                os.rmdir(path)
                break
            except OSError:  # the killed process is still being reaped
                time.sleep(0.1)


def _run(tmp_path, kind, extra_env=None, timeout_import="20"):
    env = {"PYTHONPATH": _fake(tmp_path, kind) + os.pathsep + REPO}
    env.update(extra_env or {})
    start = time.monotonic()
    proc = run_cli("smoke", "--device", "cpu", "--no-pynative", "--stage-timeout", f"import={timeout_import}",
                   "--format", "json", env=env, timeout=180)
    return proc, json.loads(proc.stdout), time.monotonic() - start


def _import_finding(report):
    return next(f for f in report["findings"] if f["id"] == "smoke.import")


def _assert_helper_ran(tmp_path):
    assert (tmp_path / "fake" / "mindspore" / "__init__.py.helper-started").exists()


def _assert_clean(tmp_path):
    tag = str(tmp_path)
    deadline = time.monotonic() + 5
    while (_helpers(tag) or _smoke_children(tag)) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [(p.pid, p.info["cmdline"]) for p in _helpers(tag) + _smoke_children(tag)]
    assert not left, f"processes left running: {left}"


def test_mindspore_missing(tmp_path):
    proc, report, _ = _run(tmp_path, "missing")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr.split("smoke:")[0]
    f = _import_finding(report)
    assert f["status"] == "fail"
    assert_msg(f, "The smoke failed in the '{stage}' stage: {error}.", stage="import",
               error="ModuleNotFoundError: No module named 'mindspore'")
    _assert_clean(tmp_path)


def test_import_segfault_is_a_crash_named_by_signal(tmp_path):
    proc, report, _ = _run(tmp_path, "segfault")
    assert proc.returncode == 1
    f = _import_finding(report)
    assert f["status"] == "fail" and "SIGSEGV" in f["summary"], f
    _assert_helper_ran(tmp_path)
    _assert_clean(tmp_path)


def test_child_killed_for_memory_is_named(tmp_path, memory_cgroup):
    extra = {"FAKE_MS_CGROUP": memory_cgroup} if memory_cgroup else {}
    print("memory cgroup:", memory_cgroup or "none (simulated by SIGKILL)")
    proc, report, _ = _run(tmp_path, "oom", extra)
    assert proc.returncode == 1
    f = _import_finding(report)
    assert f["status"] == "fail" and "SIGKILL" in f["summary"], f
    _assert_helper_ran(tmp_path)
    _assert_clean(tmp_path)


def test_hung_stage_is_killed_at_its_deadline_with_its_helpers(tmp_path):
    proc, report, seconds = _run(tmp_path, "hang", timeout_import="3")
    assert proc.returncode == 1
    f = _import_finding(report)
    assert f["status"] == "fail", f
    assert_msg(f, "The smoke hung in the '{stage}' stage: no progress for {seconds} s, so its whole process group was "
               "killed.", stage="import", seconds=3)
    assert seconds < 3 + 20  # the deadline, plus start-up and the report
    _assert_helper_ran(tmp_path)
    _assert_clean(tmp_path)


def test_interrupted_parent_leaves_no_child(tmp_path):
    """Ctrl-C on the doctor while the child hangs: the child and its helpers go too."""
    import signal
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=_fake(tmp_path, "hang") + os.pathsep + REPO)
    parent = subprocess.Popen([sys.executable, "-m", "ascend_doctor", "smoke", "--device", "cpu",
                               "--stage-timeout", "import=60"], env=env, cwd=REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=default_signals)
    try:
        deadline = time.monotonic() + 30
        while not _helpers(str(tmp_path)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _helpers(str(tmp_path)), "the fake child never started"
        parent.send_signal(signal.SIGINT)
        _, err = parent.communicate(timeout=30)
    finally:
        if parent.poll() is None:  # only if the test failed before the interrupt
            parent.kill()
    assert parent.returncode in (130, 1, 2), err
    _assert_clean(tmp_path)


def test_caller_that_stops_waiting_takes_the_child_down(tmp_path):
    """preflight runs the smoke in a worker thread and stops waiting at its budget; the process then
    exits. The hung child (and its helper) must not outlive it: an exiting interpreter kills every
    tracked child. Here: a script that starts the smoke in a daemon thread and exits once the hung child has
    started its helper (at most 30 s)."""
    import subprocess
    import sys

    script = tmp_path / "abandon.py"
    started = tmp_path / "fake" / "mindspore" / "__init__.py.helper-started"
    script.write_text(textwrap.dedent(f"""
        import os, threading, time
        from ascend_doctor.smoke import runner
        threading.Thread(target=runner.run_smoke,
                         args=(runner.SmokeConfig(stage_timeouts={{"import": 600}}),), daemon=True).start()
        deadline = time.monotonic() + 30
        while not os.path.exists({str(started)!r}) and time.monotonic() < deadline:
            time.sleep(0.05)
    """))
    env = dict(os.environ, PYTHONPATH=_fake(tmp_path, "hang") + os.pathsep + REPO)
    proc = subprocess.run([sys.executable, str(script)], env=env, cwd=REPO, capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    _assert_helper_ran(tmp_path)
    _assert_clean(tmp_path)
