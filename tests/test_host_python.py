"""`--python PATH` and the default choice of the interpreter that trains: the doctor judges that one
(version, packages, MindSpore) and runs the smoke child with it, never importing MindSpore itself."""

import json
import os
import subprocess
import sys

import pytest

from ascend_doctor.host import LiveHost, choose_python
from tests.helpers import FIXTURES, run_cli, run_json


@pytest.fixture(scope="module")
def bare_venv(tmp_path_factory):
    """A venv with no MindSpore (the doctor's own environment has one)."""
    d = tmp_path_factory.mktemp("venv") / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(d)], check=True, timeout=120)
    return d


def _doctor_has_mindspore():
    import importlib.util

    return importlib.util.find_spec("mindspore") is not None


def test_check_judges_the_named_interpreter(bare_venv):
    py = str(bare_venv / "bin" / "python")
    proc, data = run_json("check", "--python", py, "--only", "mindspore")
    facts = data["facts"]["python"]
    assert facts["chosen_by"] == "--python" and facts["executable"].startswith(str(bare_venv))
    assert all(str(bare_venv) in sp for sp in facts["site_packages"])
    assert data["facts"]["mindspore"]["distributions"] == []  # that Python has none, whatever the doctor's has
    installed = {f["id"]: f for f in data["findings"]}["mindspore.installed"]
    assert installed["status"] != "pass"
    text = run_cli("check", "--python", py, "--only", "mindspore", "--no-color").stdout
    assert f"({facts['executable']}, from --python)" in text.splitlines()[3]


@pytest.mark.skipif(not _doctor_has_mindspore(), reason="the doctor's environment has no MindSpore to contrast with")
def test_without_python_the_doctors_own_interpreter_is_judged():
    _, data = run_json("check", "--only", "mindspore", env={"VIRTUAL_ENV": "", "CONDA_PREFIX": ""})
    assert data["facts"]["python"]["chosen_by"] == "doctor"
    assert data["facts"]["mindspore"]["distributions"]


def test_an_activated_venv_that_is_not_the_doctors_is_the_default(bare_venv):
    _, data = run_json("check", "--only", "mindspore", env={"VIRTUAL_ENV": str(bare_venv), "CONDA_PREFIX": ""})
    assert data["facts"]["python"]["chosen_by"] == "VIRTUAL_ENV"
    assert data["facts"]["mindspore"]["distributions"] == []


def test_the_doctors_own_activated_venv_is_not_another_interpreter():
    exe, why = choose_python(None, {"VIRTUAL_ENV": sys.prefix})
    assert (exe, why) == (sys.executable, "doctor")
    exe, why = choose_python("/opt/x/bin/python", {"VIRTUAL_ENV": "/elsewhere"})
    assert why == "--python"


@pytest.mark.parametrize("what, expect", [("missing", "no such file"), ("dir", "is a directory"),
                                          ("not-python", "not a working Python interpreter")])
def test_an_unusable_python_is_one_line_exit_2(tmp_path, what, expect):
    target = {"missing": tmp_path / "nope", "dir": tmp_path, "not-python": tmp_path / "fake"}[what]
    if what == "not-python":
        target.write_text("#!/bin/sh\necho hello\n")
        target.chmod(0o755)
    for cmd in (["check"], ["preflight"], ["collect", "--show"], ["smoke", "--steps", "10"]):
        proc = run_cli(*cmd, "--python", str(target))
        assert proc.returncode == 2, (cmd, proc.stdout, proc.stderr)
        assert expect in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_a_program_that_echoes_its_arguments_does_not_print_the_probe_script():
    """`--python /bin/ls`: ls names what it was given; the one line must not carry the doctor's probe script."""
    proc = run_cli("check", "--python", "/bin/ls")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "not a working Python interpreter (exit 2: /bin/ls: cannot access '-'" in proc.stderr
    assert "import" not in proc.stderr and "sys" not in proc.stderr


def test_python_and_bundle_are_exclusive(bare_venv):
    proc = run_cli("check", "--bundle", os.path.join(FIXTURES, "a2_healthy"), "--python", str(bare_venv / "bin/python"))
    assert proc.returncode == 2 and "--bundle" in proc.stderr


def test_collect_records_the_judged_interpreter(bare_venv, tmp_path):
    out = tmp_path / "b.tar.gz"
    proc = run_cli("collect", "--python", str(bare_venv / "bin" / "python"), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    _, data = run_json("check", "--bundle", str(out), "--only", "mindspore")
    assert data["facts"]["python"]["chosen_by"] == "--python"
    assert data["facts"]["python"]["executable"].startswith(str(bare_venv))


def test_smoke_child_runs_in_the_named_interpreter(bare_venv):
    """The child is that Python, with none of the doctor's packages on its path: the import stage fails on the
    first package it lacks (numpy, then mindspore), although the doctor's own environment has both."""
    proc, data = run_json("smoke", "--python", str(bare_venv / "bin" / "python"), "--steps", "10", "--device", "cpu")
    assert proc.returncode == 1, proc.stderr
    imp = {f["id"]: f for f in data["findings"]}["smoke.import"]
    said = (imp["summary"] + json.dumps(imp["evidence"])).lower()
    assert imp["status"] == "fail" and "no module named" in said and ("numpy" in said or "mindspore" in said)


def test_ask_python_never_imports_mindspore(bare_venv):
    host = LiveHost(python=str(bare_venv / "bin" / "python"))
    info = host.python
    assert info.error is None and info.version.count(".") == 2 and info.chosen_by == "--python"
    assert host.python is info  # asked once
