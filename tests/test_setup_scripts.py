"""scripts/doctor-here and scripts/test (scripts/_venv.sh) on every Python the README names (3.8-3.13).

The per-Python pins agree with the matrix, and each way the set-up can go wrong ends in one line of ours (exit 2):
an unknown Python, a venv made by another Python that is not ours, pip failing. The installs themselves are run by
hand with each Python (see docs/reliability.md); here a stand-in Python answers what the script asks of it."""

import configparser
import os
import re
import stat
import subprocess

import pytest

from ascend_doctor.matrix import load_bundled
from ascend_doctor.smoke.classify import SMOKE_MINDSPORE_MINIMUM, no_wheel_reason
from tests.helpers import REPO

CONSTRAINTS = os.path.join(REPO, "constraints")
README_PYTHONS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]
PLATFORM = "linux-x86_64"


def _pin(python):
    with open(os.path.join(CONSTRAINTS, f"python{python}.txt"), encoding="utf-8") as fh:
        pins = re.findall(r"^mindspore==(\S+)$", fh.read(), re.M)
    assert len(pins) <= 1, pins
    return pins[0] if pins else None


def test_a_constraints_file_for_each_python_the_readme_names_and_no_other():
    names = sorted(f for f in os.listdir(CONSTRAINTS) if f.endswith(".txt"))
    assert names == sorted(f"python{v}.txt" for v in README_PYTHONS)
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as fh:
        assert "Python 3.8" in fh.read()


@pytest.mark.parametrize("python", README_PYTHONS)
def test_each_pin_has_a_wheel_for_its_python_and_a_missing_pin_is_a_python_without_one(python):
    pin = _pin(python)
    matrix = load_bundled()
    if pin is None:  # the doctor is installed without MindSpore: the smoke must say why
        assert no_wheel_reason(python, PLATFORM) is not None
        return
    assert no_wheel_reason(python, PLATFORM) is None
    assert pin in [r["version"] for r in matrix.mindspore_for_python(python, PLATFORM)]
    assert matrix.on_pypi(matrix.mindspore_row(pin)), pin
    newest = max((r for r in matrix.mindspore_for_python(python, PLATFORM) if matrix.on_pypi(r)),
                 key=lambda r: [int(x) for x in re.findall(r"\d+", r["version"])])
    assert pin == newest["version"], f"Python {python}: pinned {pin}, newest on PyPI {newest['version']}"


def test_the_smoke_minimum_is_the_smoke_extra_of_setup_cfg():
    cfg = configparser.ConfigParser()
    cfg.read(os.path.join(REPO, "setup.cfg"))
    smoke = [line.strip() for line in cfg["options.extras_require"]["smoke"].splitlines() if line.strip()]
    assert smoke == [f"mindspore>={SMOKE_MINDSPORE_MINIMUM}"]


# -- the script, with a stand-in Python ------------------------------------------------------------------------

FAKE_PYTHON = """#!/bin/sh
# A stand-in Python {version}: answers the version, makes a "venv" (a copy of itself), and a pip that fails as
# pip's resolver does.
if [ "$1" = "-c" ]; then echo "{version}"; exit 0; fi
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python" && exit 0; fi
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then
  case "$*" in *--upgrade*) exit 0;; esac
  echo "ERROR: Cannot install ascend-doctor because these package versions have conflicting dependencies." >&2
  echo "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/" >&2
  exit 1
fi
exit 3
"""


def _fake_python(directory, version):
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"python{version}"
    path.write_text(FAKE_PYTHON.format(version=version))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def _set_up(tmp_path, python, venv):
    env = dict(os.environ, ASCEND_DOCTOR_PYTHON=python, ASCEND_DOCTOR_VENV=str(venv))
    return subprocess.run(["bash", os.path.join(REPO, "scripts", "doctor-here")], capture_output=True, text=True,
                          env=env, timeout=60, cwd=str(tmp_path))


def _last_line(proc):
    lines = proc.stderr.strip().splitlines()
    return lines[-1] if lines else ""


def test_pips_resolver_message_is_never_the_last_line(tmp_path):
    venv = tmp_path / "venv"
    proc = _set_up(tmp_path, _fake_python(tmp_path / "bin", "3.11"), venv)
    assert proc.returncode == 2
    assert "ResolutionImpossible" in proc.stderr  # pip's words are shown ...
    last = _last_line(proc)
    assert last.startswith("ascend-doctor set-up: pip could not install ascend-doctor[test,network,fast,smoke] "
                           "for Python 3.11 with constraints/python3.11.txt"), last  # ... then ours
    assert str(venv / "pip.log") in last and (venv / "pip.log").read_text().count("ResolutionImpossible") == 1
    assert not list(venv.glob(".installed-*"))  # a failed install is tried again next time


def test_a_python_without_a_mindspore_wheel_installs_without_the_smoke_extra(tmp_path):
    proc = _set_up(tmp_path, _fake_python(tmp_path / "bin", "3.13"), tmp_path / "venv")
    assert "ascend-doctor[test,network,fast] for Python 3.13" in _last_line(proc)


def test_an_unknown_python_is_one_line(tmp_path):
    proc = _set_up(tmp_path, _fake_python(tmp_path / "bin", "3.7"), tmp_path / "venv")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Python 3.7" in proc.stderr and "3.8-3.13" in proc.stderr
    assert not (tmp_path / "venv").exists()


def test_a_venv_of_another_python_that_is_not_ours_is_named_and_left_alone(tmp_path):
    venv = tmp_path / "venv"
    _fake_python(tmp_path / "other", "3.9")
    (venv / "bin").mkdir(parents=True)
    os.symlink(tmp_path / "other" / "python3.9", venv / "bin" / "python")
    proc = _set_up(tmp_path, _fake_python(tmp_path / "bin", "3.11"), venv)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert f"{venv} was made by Python 3.9, not by Python 3.11" in proc.stderr
    assert (venv / "bin" / "python").exists()


def test_a_venv_the_scripts_made_with_another_python_is_made_again(tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / ".installed-123").touch()  # what the scripts leave
    os.symlink(tmp_path / "gone" / "python3.8", venv / "bin" / "python")  # its interpreter is gone
    proc = _set_up(tmp_path, _fake_python(tmp_path / "bin", "3.11"), venv)
    assert f"{venv} was made by a Python that no longer runs; making it again with Python 3.11" in proc.stderr
    assert (venv / ".ascend-doctor-venv").exists() and not (venv / ".installed-123").exists()
    assert _last_line(proc).startswith("ascend-doctor set-up: pip could not install")
