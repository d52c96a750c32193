"""The `python` msrun starts is the interpreter with MindSpore: the check, the smoke's PATH, the smoke's words."""

import os
import sys

import pytest

from ascend_doctor.doctor import RunOptions, run_checks
from ascend_doctor.host import SnapshotHost
from ascend_doctor.smoke.classify import collectives_finding
from ascend_doctor.smoke.distributed import DistributedConfig, DistributedRun
from ascend_doctor.smoke.runner import child_env

from tests.helpers import run_json
from tests.helpers.i18n_asserts import assert_msg, deferred

SP = "/opt/venv/lib/python3.10/site-packages"
MS = {f"{SP}/mindspore-2.6.0.dist-info/METADATA": "Name: mindspore\nVersion: 2.6.0\n",
      f"{SP}/mindspore-2.6.0.dist-info/top_level.txt": "mindspore\n", f"{SP}/mindspore/__init__.py": "",
      "/opt/venv/pyvenv.cfg": "home = /usr/bin\n", "/usr/bin/python3.10": "", "/usr/local/bin/python": ""}
VENV_PY = {"version": "3.10.12", "executable": "/opt/venv/bin/python", "site_packages": [SP], "launchers_recorded": True}


def _finding(make_snapshot, path, python=VENV_PY, files=None, links=None):
    snap = make_snapshot(files=dict(MS, **(files or {})), env={"PATH": path, "HOME": "/root"}, python=python,
                         symlinks=dict({"/opt/venv/bin/python": "/usr/bin/python3.10",
                                        "/opt/venv/bin/python3": "python", "/usr/bin/python3": "python3.10"},
                                       **(links or {})))
    return run_checks(SnapshotHost(snap), RunOptions(only=["mindspore.launcher_python"])).find("mindspore.launcher_python")


def test_warns_when_path_starts_another_python(make_snapshot):
    f = _finding(make_snapshot, "/usr/local/bin:/usr/bin:/bin")
    assert f.status == "warn"
    assert_msg(f.summary, "The first `python` on PATH is {launched}, not {python}, the interpreter that has MindSpore.",
               launched="/usr/local/bin/python", python="/opt/venv/bin/python")
    assert_msg(f.summary, "msrun starts its workers as `python <script>`, so each worker fails with \"ModuleNotFoundError: "
               "No module named 'mindspore'\" although MindSpore imports in this interpreter.")
    assert f.fix[0].startswith("export PATH=/opt/venv/bin:$PATH")


def test_a_venv_python_is_not_its_base_interpreter(make_snapshot):
    """The venv's bin/python links to /usr/bin/python3.10: the same file, but not the same environment."""
    f = _finding(make_snapshot, "/usr/bin:/bin", links={"/usr/bin/python": "python3.10"})
    assert f.status == "warn" and "/usr/bin/python," in f.summary
    # a system Python is judged by its file: /usr/bin/python -> python3.10 is /usr/bin/python3
    system = {"version": "3.10.12", "executable": "/usr/bin/python3", "site_packages": [SP], "launchers_recorded": True}
    assert _finding(make_snapshot, "/usr/bin:/bin", python=system, links={"/usr/bin/python": "python3.10"}).status == "pass"


def test_passes_when_the_environment_is_first_on_path(make_snapshot):
    f = _finding(make_snapshot, "/opt/venv/bin:/usr/local/bin:/usr/bin")
    assert f.status == "pass" and "/opt/venv/bin/python" in f.summary


def test_no_python_on_path_warns_and_an_older_snapshot_is_not_judged(make_snapshot):
    f = _finding(make_snapshot, "/nowhere")
    assert f.status == "warn"
    assert_msg(f.summary, "There is no `python` on PATH: msrun starts its workers as `python <script>`, so they cannot start; "
               "MindSpore is in {python}.", python="/opt/venv/bin/python")
    old = dict(VENV_PY)
    del old["launchers_recorded"]
    assert _finding(make_snapshot, "/nowhere", python=old).status == "skip"


def test_msrun_runs_with_this_interpreters_directory_first_on_path(monkeypatch):
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    env = child_env(DistributedConfig(ranks=2, python="/opt/venv/bin/python").python)
    assert env["PATH"].split(os.pathsep)[:2] == ["/opt/venv/bin", "/usr/bin"]


def test_the_collectives_finding_names_a_worker_without_mindspore():
    lines = ["Traceback (most recent call last):", '  File "collective_worker.py", line 12, in <module>',
             "    import mindspore as ms", "ModuleNotFoundError: No module named 'mindspore'"]
    drun = DistributedRun("crashed", "launch", ["/opt/venv/bin/python", "-m", "mindspore.parallel.cluster.run"],
                          [0, 1], [], [], {}, 1, 900, {}, {"worker_0.log": lines, "worker_1.log": lines})
    f = deferred(collectives_finding, drun)
    assert f.status == "fail" and "worker_0.log" in f.summary
    assert_msg(f.summary, "The workers could not import MindSpore (ModuleNotFoundError: No module named 'mindspore' in "
               "{workers}): msrun starts them with the first `python` on PATH, which is not {python}, the interpreter "
               "that has MindSpore.", python="/opt/venv/bin/python")
    assert f.fix[0].startswith("export PATH=/opt/venv/bin:$PATH")


@pytest.fixture
def path_without_mindspore(tmp_path):
    """A PATH whose first `python` is a Python without MindSpore (the system one), as from an un-activated venv."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "python").symlink_to("/usr/bin/python3")
    return f"{bindir}:/usr/bin:/bin"


def test_live_check_warns_from_an_unactivated_venv(path_without_mindspore):
    if not os.path.exists("/usr/bin/python3"):
        pytest.skip("no system python3 to stand for the wrong interpreter")
    proc, data = run_json("check", "--only", "mindspore.launcher_python", env={"PATH": path_without_mindspore})
    (f,) = data["findings"]
    assert f["status"] == ("warn" if _has_mindspore() else "skip"), f


def _has_mindspore():
    import importlib.util

    return importlib.util.find_spec("mindspore") is not None


# The two-rank smoke passing from an unactivated venv (msrun's workers get this interpreter's directory first on
# PATH) is tests/smoke/test_smoke.py::test_two_rank_smoke_passes_on_cpu_even_from_an_unactivated_venv: one real run.


@pytest.mark.slow
def test_a_worker_started_with_another_python_is_named_as_such(path_without_mindspore, monkeypatch):
    """Without the PATH fix (child_env given no interpreter) the workers really fail; the finding says why."""
    if not _has_mindspore():
        pytest.skip("MindSpore is not installed in this Python")
    from ascend_doctor.smoke import distributed
    monkeypatch.setenv("PATH", path_without_mindspore)
    monkeypatch.setattr(distributed, "child_env", lambda python=None: child_env())
    drun = distributed.run_distributed(DistributedConfig(ranks=2, master_port=18915, phase_timeouts={"init": 60},
                                                         python=sys.executable))
    f = deferred(collectives_finding, drun)
    assert f.status == "fail", f.summary
    assert_msg(f.summary, "The workers could not import MindSpore (ModuleNotFoundError: No module named 'mindspore' in "
               "{workers}): msrun starts them with the first `python` on PATH, which is not {python}, the interpreter "
               "that has MindSpore.", python=sys.executable)
    assert f.fix[0].startswith(f"export PATH={os.path.dirname(sys.executable)}:$PATH")
