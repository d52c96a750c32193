"""The built wheel carries the data files and its console script works outside the checkout."""

import json
import os
import re
import subprocess
import sys
import zipfile

import pytest

from tests.helpers import REPO


@pytest.mark.slow
def test_wheel_installs_and_runs_against_a_snapshot(tmp_path, make_snapshot):
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), REPO],
                   check=True, capture_output=True, text=True)
    wheel = next(dist.glob("ascend_doctor-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "ascend_doctor/data/compat_matrix.json" in names
    assert "ascend_doctor/data/knowledge_base.json" in names
    # every sub-package of the source tree is in the wheel (setup.cfg lists them by hand)
    packages = {os.path.relpath(d, REPO) for d, _, files in os.walk(os.path.join(REPO, "ascend_doctor"))
                if "__init__.py" in files}
    missing = [p for p in packages if f"{p}/__init__.py" not in names]
    assert not missing, f"setup.cfg packages lacks {missing}"
    data_files = {f"ascend_doctor/data/{n}" for n in os.listdir(os.path.join(REPO, "data")) if n.endswith(".json")}
    kb_dir = os.path.join(REPO, "data", "kb")  # the knowledge-base parts (setup.cfg package_data kb/*.json)
    data_files |= {f"ascend_doctor/data/kb/{n}" for n in (os.listdir(kb_dir) if os.path.isdir(kb_dir) else [])
                   if n.endswith(".json")}
    assert data_files <= set(names), sorted(data_files - set(names))
    # the Chinese catalog is compiled at build (setup.py) and shipped as gettext's .mo
    assert "ascend_doctor/locale/zh_CN/LC_MESSAGES/ascend_doctor.mo" in names
    # the build-time tools (the .mo compiler, the pitfall table) stay out of the runtime package
    assert not [n for n in names if n.startswith("tools/") or n in ("ascend_doctor/coverage.py",)]
    assert not any(re.search(r"\bdef mo_bytes\b", zipfile.ZipFile(wheel).read(n).decode("utf-8", "replace"))
                   for n in names if n.startswith("ascend_doctor/") and n.endswith(".py"))  # the .mo compiler

    venv = tmp_path / "venv"
    # a venv without its own pip (ensurepip takes seconds): this interpreter's pip installs into it (--python)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q"]
    # without PYTHONPATH: a checkout on it (its .egg-info) would make pip think the doctor is installed already
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    subprocess.run(pip + [str(wheel)], check=True, capture_output=True, text=True, env=clean)

    snap = make_snapshot(files={"/etc/os-release": 'PRETTY_NAME="EulerOS 2.0 (SP10)"\nID=euleros\n'},
                         machine={"arch": "aarch64", "cpu_count": 192, "mem_total_mb": 1500000,
                                  "mem_available_mb": 1400000})
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([str(venv / "bin" / "ascend-doctor"), "check", "--bundle", snap, "--format", "json"],
                          capture_output=True, text=True, cwd=str(tmp_path), env=env)
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["host"]["kind"] == "snapshot" and report["host"]["name"] == "node"
    assert report["facts"]["system"]["os_name"] == "EulerOS 2.0 (SP10)"
    # the installed package, not this checkout, answered
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import ascend_doctor,sys;print(ascend_doctor.__file__)"],
                           capture_output=True, text=True, cwd=str(tmp_path), env=env).stdout
    assert str(venv) in where
    # the installed KB (parts included) answers `kb show` for one of our ids
    proc = subprocess.run([str(venv / "bin" / "ascend-doctor"), "kb", "show", "CANN_ENV_LIB_NOT_FOUND", "--format", "json"],
                          capture_output=True, text=True, cwd=str(tmp_path), env=env)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["signatures"][0]["id"] == "CANN_ENV_LIB_NOT_FOUND"
    # Chinese from the compiled catalog, chosen by the locale (LANG) when nothing else says
    zh_env = {k: v for k, v in env.items() if k not in ("ASCEND_DOCTOR_LANG", "LC_ALL", "LC_MESSAGES")}
    zh_env["LANG"] = "zh_CN.UTF-8"
    proc = subprocess.run([str(venv / "bin" / "ascend-doctor"), "check", "--bundle", snap, "--format", "json"],
                          capture_output=True, text=True, cwd=str(tmp_path), env=zh_env)
    zh_report = json.loads(proc.stdout)
    assert zh_report["lang"] == "zh"
    catalog_dir = os.path.join(REPO, "ascend_doctor", "locale", "zh_CN")
    from ascend_doctor.catalog import read_po_dir

    po = read_po_dir(catalog_dir)
    titled = [f for f in zh_report["findings"] if f["title"] != f["title"].encode("ascii", "ignore").decode()]
    assert titled, "no finding title in Chinese"
    assert all("\u4e00" <= ch <= "\u9fff" or ch.isascii() or not ch.isalpha() for f in titled for ch in f["title"])
    assert len(po) > 0
