"""GPU and MindSpore-package checks: verdicts, fix text and exit codes on the fixtures and on edge snapshots."""

import pytest

from tests.helpers import fixture_path, run_json
from tests.helpers.i18n_asserts import assert_msg, msg_ids

from ascend_doctor.doctor import RunOptions, run_checks
from ascend_doctor.host import SnapshotHost

GPU_IDS = ["gpu.driver_module_match", "gpu.cuda_runtime_for_mindspore", "gpu.cudnn", "gpu.nvcc_matches_runtime"]
MS_IDS = ["mindspore.installed", "mindspore.python_supported", "mindspore.single_distribution",
          "mindspore.flavour_matches_device"]
SP = "/usr/local/lib/python3.8/dist-packages"


# the fix steps that upgrade the NVIDIA driver (their message ids)
UPGRADE_DRIVER = {"upgrade the NVIDIA driver for CUDA {cuda} (no MindSpore release has a GPU build for it)",
                  "upgrade the NVIDIA driver to one that supports CUDA {cuda} (nvidia-smi shows the maximum)",
                  "upgrade the NVIDIA driver to {asked} or newer for CUDA {cuda} ({by})"}


def _by_id(data):
    return {f["id"]: f for f in data["findings"]}


def _run(host, only=("gpu", "mindspore")):
    report = run_checks(host, RunOptions(only=list(only)))
    return {f.id: f for f in report.findings}


def test_gpu_node_is_healthy():
    proc, data = run_json("check", "--bundle", fixture_path("gpu_node"), "--only", "gpu", "mindspore")
    f = _by_id(data)
    assert proc.returncode == 0, proc.stderr
    # mindspore-gpu 1.10.1 is the cuda-11.1 wheel; CUDA 11.6 loads it and 1.10.1's checker accepts 11.6, but its
    # install guide and release list name builds for 10.1/11.1 only: a warning, the one `matrix check` gives too
    expected = {i: "pass" for i in GPU_IDS + MS_IDS}
    expected["gpu.cuda_runtime_for_mindspore"] = "warn"
    assert {i: f[i]["status"] for i in GPU_IDS + MS_IDS} == expected
    assert "11.6.55" in f["gpu.cuda_runtime_for_mindspore"]["summary"]
    assert_msg(f["gpu.cuda_runtime_for_mindspore"]["i18n"]["summary"], "CUDA runtime {runtime} loads MindSpore {version} and "
               "its checker accepts CUDA {cuda}, but its GPU builds are for CUDA {built} only.", built="10.1, 11.1")
    _, planned = run_json("matrix", "check", "--mindspore", "1.10.1", "--cuda", "11.6")
    assert _by_id(planned)["compat.cuda_mindspore"]["status"] == "warn"


def test_gpu_cuda_mismatch_fails_with_p01_fix():
    proc, data = run_json("check", "--bundle", fixture_path("gpu_cuda_mismatch"))
    f = _by_id(data)["gpu.cuda_runtime_for_mindspore"]
    assert proc.returncode == 1
    assert f["status"] == "fail" and f["pitfall"] == "P01"
    assert "libcudart.so.11.0" in f["summary"] and "12.2" in f["summary"]
    fix = "\n".join(f["fix"])
    assert "conda create -n ms-gpu python=3.8" in fix
    assert "cudatoolkit=11.1" in fix  # the CUDA the mindspore-gpu wheel was downloaded for (cuda-11.1 URL)
    assert "export LD_LIBRARY_PATH=$CONDA_PREFIX/lib" in fix
    # the driver itself is fine there
    assert _by_id(data)["gpu.driver_module_match"]["status"] == "pass"


def test_gpu_driver_mismatch_fails_and_says_reboot():
    proc, data = run_json("check", "--bundle", fixture_path("gpu_driver_mismatch"), "--only", "gpu")
    f = _by_id(data)["gpu.driver_module_match"]
    assert proc.returncode == 1
    assert f["status"] == "fail"
    assert "580.173.02" in f["summary"] and "580.178" in f["summary"]
    assert any("sudo reboot" in step for step in f["fix"])


def test_cpu_only_box_skips_gpu_and_passes_cpu_build():
    proc, data = run_json("check", "--bundle", fixture_path("cpu_only"))
    f = _by_id(data)
    assert proc.returncode == 0
    assert all(f[i]["status"] == "skip" for i in GPU_IDS)
    assert f["mindspore.flavour_matches_device"]["status"] == "pass"
    assert_msg(f["mindspore.flavour_matches_device"]["i18n"]["summary"],
               "{flavour} build; no accelerator here, it runs on the CPU")


def test_python_unsupported_fails_with_conda_fix():
    proc, data = run_json("check", "--bundle", fixture_path("python_unsupported"), "--only", "mindspore")
    f = _by_id(data)["mindspore.python_supported"]
    assert proc.returncode == 1
    assert f["status"] == "fail" and f["pitfall"] == "P21"
    assert "3.9" in f["summary"] and "3.12.3" in f["summary"]
    assert f["fix"][0].startswith("conda create -n ms python=3.9")
    # PyPI does not carry 1.10.1: the same release from the download page, never a pip line that cannot resolve
    assert f["fix"][1].startswith("install MindSpore 1.10.1 from https://www.mindspore.cn/versions")


# -- edge cases on small snapshots ------------------------------------------------------------------

def _ms_gpu(sp=SP, cuda_url="cuda-11.1", tag="cp38-cp38-linux_x86_64", name="mindspore_gpu", dist="mindspore-gpu",
            version="1.10.1", pyext="38"):
    di = f"{sp}/{name}-{version}.dist-info"
    return {f"{di}/METADATA": f"Name: {dist}\nVersion: {version}\nRequires-Python: >=3.7\n",
            f"{di}/WHEEL": f"Tag: {tag}\n", f"{di}/top_level.txt": "mindspore\n",
            f"{di}/direct_url.json": '{"url": "https://ms-release.obs.cn-north-4.myhuaweicloud.com/1.10.1/MindSpore/'
                                     f'gpu/x86_64/{cuda_url}/mindspore_gpu-1.10.1-cp38-cp38-linux_x86_64.whl"}}',
            f"{sp}/mindspore/version.py": f"__version__ = '{version}'\n",
            f"{sp}/mindspore/_c_expression.cpython-{pyext}-x86_64-linux-gnu.so": ""}


SMI = ("| NVIDIA-SMI 470.82.01    Driver Version: 470.82.01    CUDA Version: 11.4     |\n")
PROC = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.82.01  Thu Oct 28 14:04:39 UTC 2021\n"


def _gpu_host(make_snapshot, files, env=None, smi=SMI, commands=None, python_version="3.8.10"):
    base = {"/proc/driver/nvidia/version": PROC, "/dev/nvidia0": ""}
    base.update(files)
    cmds = commands if commands is not None else [{"argv": ["nvidia-smi"], "rc": 0, "stdout": smi}]
    return SnapshotHost(make_snapshot(files=base, env=env or {"HOME": "/root"}, commands=cmds,
                                      python={"version": python_version, "executable": "/usr/bin/python3",
                                              "site_packages": [SP]}))


def test_runtime_installed_but_not_on_loader_path(make_snapshot):
    host = _gpu_host(make_snapshot, {**_ms_gpu(), "/usr/local/cuda-11.1/lib64/libcudart.so.11.1.74": "",
                                     "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.0.5": ""})
    f = _run(host)["gpu.cuda_runtime_for_mindspore"]
    assert f.status == "fail" and f.pitfall == "P01"
    assert_msg(f.summary, "The CUDA {version} runtime MindSpore needs is in {dir}, but the dynamic loader does not search "
               "that directory (not in LD_LIBRARY_PATH or ld.so.conf): loading the GPU backend fails with "
               "'libcudart.so...: cannot open shared object file'.", dir="/usr/local/cuda-11.1/lib64")
    assert f.fix[0] == "export LD_LIBRARY_PATH=/usr/local/cuda-11.1/lib64:$LD_LIBRARY_PATH"


def test_runtime_newer_than_driver(make_snapshot):
    smi = "| NVIDIA-SMI 440.33.01    Driver Version: 440.33.01    CUDA Version: 10.2     |\n"
    host = _gpu_host(make_snapshot, {**_ms_gpu(), "/usr/lib/x86_64-linux-gnu/libcudart.so.11.1.74": ""}, smi=smi)
    f = _run(host)["gpu.cuda_runtime_for_mindspore"]
    assert f.status == "fail"
    assert_msg(f.summary, "The CUDA runtime {runtime} is newer than the driver {driver} supports (up to CUDA "
               "{driver_cuda}): CUDA calls fail with 'CUDA driver version is insufficient for CUDA runtime version'.",
               runtime="11.1.74", driver="440.33.01", driver_cuda="10.2")
    # the two ways are told apart, and the plan takes the one without root and a reboot: a runtime the driver
    # supports (conda), the driver upgrade a labelled alternative
    assert any("cudatoolkit=10." in s for s in f.fix) and not msg_ids(f.fix) & UPGRADE_DRIVER
    assert any(msg_ids(a["steps"][0]) & UPGRADE_DRIVER for a in f.alternatives)


def test_runtime_minor_newer_than_driver_warns(make_snapshot):
    host = _gpu_host(make_snapshot, {**_ms_gpu(), "/usr/lib/x86_64-linux-gnu/libcudart.so.11.6.55": ""})
    f = _run(host)["gpu.cuda_runtime_for_mindspore"]
    assert f.status == "warn" and "minor-version compatibility" in f.summary  # 11.6 runtime, driver max 11.4


def test_unified_wheel_without_cuda_home_warns(make_snapshot):
    files = {f"{SP}/mindspore-2.7.1.dist-info/METADATA": "Name: mindspore\nVersion: 2.7.1\n",
             f"{SP}/mindspore/_c_expression.cpython-38-x86_64-linux-gnu.so": "",
             f"{SP}/mindspore/lib/plugin/libmindspore_gpu.so.11.1": "",
             f"{SP}/mindspore/lib/plugin/libmindspore_gpu.so.11.6": "",
             f"{SP}/mindspore/lib/plugin/libmindspore_ascend.so.2": "",
             f"{SP}/mindspore-2.7.1.dist-info/top_level.txt": "mindspore\n",
             "/usr/lib/x86_64-linux-gnu/libcudart.so.11.1.74": ""}
    f = _run(_gpu_host(make_snapshot, files))["gpu.cuda_runtime_for_mindspore"]
    assert f.status == "warn" and "CUDA_HOME" in f.summary
    assert f.fix[0].startswith("export CUDA_HOME=")


def test_cudnn_missing_and_too_old(make_snapshot):
    rt = {"/usr/lib/x86_64-linux-gnu/libcudart.so.11.1.74": ""}
    f = _run(_gpu_host(make_snapshot, {**_ms_gpu(), **rt}))["gpu.cudnn"]
    assert f.status == "warn"
    assert_msg(f.summary, "No cuDNN found (no cudnn_version.h / cudnn.h and no libcudnn.so.X.Y.Z in the CUDA, system or "
               "conda library directories).")
    f = _run(_gpu_host(make_snapshot, {**_ms_gpu(), **rt, "/usr/lib/x86_64-linux-gnu/libcudnn.so.7.6.5": ""}))["gpu.cudnn"]
    # the guide's pair for the build's CUDA, and MindSpore's own < 8.0 with CUDA > 10 rule
    assert f.status == "warn"
    assert_msg(f.summary, "cuDNN {version} with MindSpore's CUDA {cuda} build: MindSpore's install guide pairs CUDA {cuda} "
               "with cuDNN {pair}.x, and its checker warns below 8.0 with CUDA 11.", version="7.6.5", pair="8.0")
    f = _run(_gpu_host(make_snapshot, {**_ms_gpu(), **rt, "/usr/lib/x86_64-linux-gnu/libcudnn.so.8.0.5": ""}))["gpu.cudnn"]
    assert f.status == "pass"


def test_nvcc_release_differs_from_runtime(make_snapshot):
    cmds = [{"argv": ["nvidia-smi"], "rc": 0, "stdout": SMI},
            {"argv": ["nvcc", "--version"], "rc": 0, "stdout": "Cuda compilation tools, release 10.2, V10.2.89\n"}]
    host = _gpu_host(make_snapshot, {**_ms_gpu(), "/usr/lib/x86_64-linux-gnu/libcudart.so.11.1.74": ""}, commands=cmds)
    f = _run(host)["gpu.nvcc_matches_runtime"]
    assert f.status == "warn" and "10.2" in f.summary and "11.1.74" in f.summary


def test_kernel_module_differs_from_nvidia_smi(make_snapshot):
    host = _gpu_host(make_snapshot, {"/proc/driver/nvidia/version": PROC.replace("470.82.01", "470.57.02")})
    f = _run(host)["gpu.driver_module_match"]
    assert f.status == "fail" and "470.57.02" in f.summary and "470.82.01" in f.summary


def test_cpu_build_on_gpu_node_and_gpu_build_without_gpu(make_snapshot):
    cpu_build = {f"{SP}/mindspore-1.10.1.dist-info/METADATA": "Name: mindspore\nVersion: 1.10.1\n",
                 f"{SP}/mindspore-1.10.1.dist-info/top_level.txt": "mindspore\n", f"{SP}/mindspore/__init__.py": ""}
    f = _run(_gpu_host(make_snapshot, cpu_build))
    assert f["mindspore.flavour_matches_device"].status == "fail"
    assert_msg(f["mindspore.flavour_matches_device"].summary, "This machine has NVIDIA GPUs but the installed MindSpore is a "
               "{flavour} build without the GPU backend: it runs on the CPU only.")
    assert f["gpu.cuda_runtime_for_mindspore"].status == "skip"
    no_gpu = SnapshotHost(make_snapshot(files=_ms_gpu(), python={"version": "3.8.10", "site_packages": [SP]}))
    f = _run(no_gpu)
    assert f["mindspore.flavour_matches_device"].status == "warn"
    assert all(f[i].status == "skip" for i in GPU_IDS)


def test_two_distributions_fail_single_distribution(make_snapshot):
    files = {**_ms_gpu(), f"{SP}/mindspore-2.2.14.dist-info/METADATA": "Name: mindspore\nVersion: 2.2.14\n",
             f"{SP}/mindspore-2.2.14.dist-info/top_level.txt": "mindspore\n"}
    f = _run(_gpu_host(make_snapshot, files))["mindspore.single_distribution"]
    assert f.status == "fail" and f.fix[0].startswith("pip uninstall -y mindspore mindspore-gpu")
    assert f.fix[1].startswith("pip install --no-cache-dir mindspore-gpu==1.10.1")


def test_not_installed_advises_by_device(make_snapshot):
    f = _run(_gpu_host(make_snapshot, {}))["mindspore.installed"]
    assert f.status == "warn" and f.fix[0] == "pip install mindspore"
    assert_msg(f.summary, "The Linux x86_64 `mindspore` wheel carries GPU plugins for CUDA 11.1 and 11.6 "
               "(libmindspore_gpu.so.11.1/.11.6; none for CUDA 12), so it needs one of those CUDA runtimes with cuDNN 8.")
    bare = SnapshotHost(make_snapshot(python={"version": "3.10.12", "site_packages": [SP]}))
    f = _run(bare)["mindspore.installed"]
    assert f.status == "skip"
    assert_msg(f.summary, "MindSpore is not installed, and this machine has no NPU and no NVIDIA GPU: nothing to run it on "
               "but the CPU.")
    unknown = SnapshotHost(make_snapshot(python={"version": "3.10.12", "site_packages": []}))
    assert _run(unknown)["mindspore.installed"].status == "error"


def test_requires_python_violated(make_snapshot):
    di = f"{SP}/mindspore-2.10.0.dist-info"
    files = {f"{di}/METADATA": "Name: mindspore\nVersion: 2.10.0\nRequires-Python: >=3.9,<3.13\n",
             f"{di}/WHEEL": "Tag: py3-none-any\n", f"{di}/top_level.txt": "mindspore\n", f"{SP}/mindspore/x.py": ""}
    host = SnapshotHost(make_snapshot(files=files, python={"version": "3.13.1", "site_packages": [SP]}))
    f = _run(host)["mindspore.python_supported"]
    assert f.status == "fail" and ">=3.9,<3.13" in f.summary


def test_a_python_suggested_for_a_requires_python_is_one_it_admits():
    """The fix once suggested `python=3.10` whatever Requires-Python said (>=3.11 excludes it)."""
    from ascend_doctor.checks.mindspore import _newest_allowed
    from ascend_doctor.versions import python_spec_allows

    for spec in (">=3.11", ">=3.9,<3.12", ">=3.7,!=3.13.*", "~=3.8.0"):
        picked = _newest_allowed(spec)
        assert python_spec_allows(spec, picked + ".0"), (spec, picked)
    assert _newest_allowed("<3.0") == "<X.Y>"  # none of ours: the user fills it in, nothing is guessed


# --- issue 28: the GPU node cases (tests/fixtures/build_gpu_cases.py) ----------------------------------------------

GPU_CASES = ["gpu_node", "gpu_cuda_mismatch", "gpu_driver_mismatch", "gpu_driver_too_old", "gpu_ms22_cuda116",
             "gpu_ms25_node", "gpu_cudnn7_cuda116"]


@pytest.mark.parametrize("name", GPU_CASES)
def test_no_gpu_fix_installs_a_cuda_the_driver_cannot_run(name):
    """Every fix line that installs a CUDA runtime comes after a driver upgrade, or is one the node's driver runs."""
    import re

    from ascend_doctor.checks._gpu_fix import driver_verdict
    from ascend_doctor.matrix import load_bundled

    matrix = load_bundled()
    _, data = run_json("check", "--bundle", fixture_path(name))
    driver = data["facts"]["cuda"]["driver_version"]
    cuda_max = data["facts"]["cuda"]["driver_cuda_max"]
    # each way is read on its own, from the node as it is: a finding's fix, each of its alternatives, the plan
    ways = [(f["id"], f.get("fix") or []) for f in data["findings"]]
    ways += [(f["id"], a["steps"]) for f in data["findings"] for a in f.get("alternatives") or []]
    ways += [("plan", [s["do"] for s in (data.get("plan") or {}).get("steps") or []])]
    ways += [("plan", [s["do"] for s in a["steps"]]) for a in (data.get("plan") or {}).get("alternatives") or []]
    for fid, steps in ways:
        f = {"id": fid}
        upgraded = False
        for line in steps:
            if line.startswith("upgrade the NVIDIA driver"):
                upgraded = True
            m = re.search(r"cudatoolkit=(\d+\.\d+)", line)
            if m and not upgraded and (driver or cuda_max):
                assert driver_verdict(matrix, driver, m.group(1), cuda_max) != "too-old", (name, f["id"], line)


def test_driver_too_old_node_upgrades_first_or_keeps_a_cuda_it_runs():
    proc, data = run_json("check", "--bundle", fixture_path("gpu_driver_too_old"))
    f = _by_id(data)
    assert proc.returncode == 1
    drv = f["compat.nvidia_driver_cuda"]
    assert drv["status"] == "fail" and "418.87.00" in drv["summary"] and "450.80.02" in drv["summary"]
    rt = f["gpu.cuda_runtime_for_mindspore"]
    # the least disruptive way is the fix: keep 418.87 and use 1.10.1's own cuda-10.1 wheel with a CUDA 10.1 runtime;
    # the driver upgrade (root, a reboot) is the labelled alternative
    keep = "\n".join(rt["fix"])
    assert rt["status"] == "fail" and "cudatoolkit=10.1" in keep and "cuda-10.1/mindspore_gpu-" in keep
    assert "cudatoolkit=11" not in keep and not msg_ids(rt["i18n"]["fix"]) & UPGRADE_DRIVER
    assert any(a["steps"][0].startswith("upgrade the NVIDIA driver to 455.23") for a in rt["alternatives"])
    assert not any(s["level"] == "driver" for s in data["plan"]["steps"])


def test_cuda_116_on_2_2_node_and_plan_agree_it_is_not_a_failure():
    _, data = run_json("check", "--bundle", fixture_path("gpu_ms22_cuda116"))
    assert _by_id(data)["gpu.cuda_runtime_for_mindspore"]["status"] == "pass"  # the wheel holds the 11.6 plugin
    _, planned = run_json("matrix", "check", "--mindspore", "2.2.0", "--cuda", "11.6")
    f = _by_id(planned)["compat.cuda_mindspore"]
    assert f["status"] == "warn" and "release_list_en.md" in f["summary"]


def test_2_5_node_runs_and_the_plan_names_both_sources():
    _, data = run_json("check", "--bundle", fixture_path("gpu_ms25_node"))
    f = _by_id(data)
    assert f["gpu.cuda_runtime_for_mindspore"]["status"] == "pass"
    assert f["compat.nvidia_driver_cuda"]["status"] == "pass"
    _, planned = run_json("matrix", "check", "--mindspore", "2.5.0", "--cuda", "11.6", "--nvidia-driver", "550.40.07")
    p = _by_id(planned)
    assert p["compat.cuda_mindspore"]["status"] == "warn"
    assert "mindspore_gpu_install_pip_en.md" in p["compat.cuda_mindspore"]["summary"]
    assert "no GPU" not in p["compat.cuda_mindspore"]["summary"]


def test_cudnn_7_beside_a_cuda_116_build_warns():
    _, data = run_json("check", "--bundle", fixture_path("gpu_cudnn7_cuda116"))
    f = _by_id(data)["gpu.cudnn"]
    assert f["status"] == "warn" and "CUDA 11.6" in f["summary"] and "8.5.x" in f["summary"]
    # MindSpore sits in the system Python (no conda environment): a conda package would not reach it; NVIDIA's cuDNN
    # 8.5 for CUDA 11.6, first on the loader path (the stray CUDA 10.1 lib64 with cuDNN 7 comes first now)
    assert_msg(f["i18n"]["fix"][0], "install NVIDIA's cuDNN {cudnn}.x for CUDA {cuda} (as MindSpore's GPU install guide "
               "does) and put its lib directory first on LD_LIBRARY_PATH", cudnn="8.5", cuda="11.6")
    assert not any("conda install" in s for s in f["fix"])


def test_cudnn_fix_in_a_conda_environment_is_a_conda_package():
    from ascend_doctor.checks.gpu import _in_conda
    from ascend_doctor.facts import Facts

    facts = Facts()
    facts.python.executable = "/opt/conda/envs/ms/bin/python"
    assert _in_conda(facts)
    facts.python.executable, facts.mindspore.location = "/usr/bin/python3", "/usr/local/lib/python3.9/dist-packages"
    assert not _in_conda(facts)
    facts.python.chosen_by = "CONDA_PREFIX"
    assert _in_conda(facts)


def test_a_new_environment_gets_mindspore_installed_into_it():
    """gpu_cuda_mismatch: MindSpore sits in the system site-packages; the fix's new conda env gets it too."""
    _, data = run_json("check", "--bundle", fixture_path("gpu_cuda_mismatch"))
    fix = _by_id(data)["gpu.cuda_runtime_for_mindspore"]["fix"]
    create = next(i for i, s in enumerate(fix) if s.startswith("conda create"))
    assert any(s.startswith("pip install https://") and "cuda-11.1/mindspore_gpu-" in s for s in fix[create:])
    assert not any("CANN" in s for s in fix)


def test_no_runtime_and_a_driver_too_old_for_every_build_upgrades_the_driver_first(make_snapshot):
    """Driver 418.87 (nvidia-smi: CUDA 10.1) and MindSpore 2.7.1 (plugins for CUDA 11.1/11.6 only) with no CUDA
    runtime: never 'cudatoolkit=11.x' on the driver as it is; the driver upgrade comes first."""
    smi = "| NVIDIA-SMI 418.87.00    Driver Version: 418.87.00    CUDA Version: 10.1     |\n"
    files = {f"{SP}/mindspore-2.7.1.dist-info/METADATA": "Name: mindspore\nVersion: 2.7.1\n",
             f"{SP}/mindspore/_c_expression.cpython-39-x86_64-linux-gnu.so": "",
             f"{SP}/mindspore/lib/plugin/libmindspore_gpu.so.11.1": "",
             f"{SP}/mindspore/lib/plugin/libmindspore_gpu.so.11.6": "",
             "/proc/driver/nvidia/version": PROC.replace("470.82.01", "418.87.00")}
    f = _run(_gpu_host(make_snapshot, files, smi=smi, python_version="3.9.18"))["gpu.cuda_runtime_for_mindspore"]
    assert f.status == "fail"
    ways = [f.fix] + [a["steps"] for a in f.alternatives]
    # the way that keeps 2.7.1 upgrades the driver before its CUDA 11 toolkit
    upgrading = next(w for w in ways if any(s.startswith("upgrade the NVIDIA driver to ") for s in w))
    upgrade = next(i for i, s in enumerate(upgrading) if s.startswith("upgrade the NVIDIA driver to "))
    toolkit = next(i for i, s in enumerate(upgrading) if "cudatoolkit=11." in s)
    assert upgrade < toolkit and any("pip install mindspore==2.7.1" in s for s in upgrading)
    # the other way keeps 418.87: a release whose build is for CUDA 10.1, never a CUDA 11 runtime
    keeping = next(w for w in ways if w is not upgrading)
    assert any("cudatoolkit=10.1" in s for s in keeping) and not any("cudatoolkit=11" in s for s in keeping)
    assert not any(s.startswith("upgrade the NVIDIA driver") for s in keeping)


def test_gpu_case_fixtures_carry_the_plugin_files_of_a_read_wheel():
    """The 2.x GPU node fixtures install the lib/plugin files a read PyPI wheel carries (data/sources/wheel_plugins.json):
    a release PyPI does not carry gets the nearest earlier read wheel's layout, per-CUDA files for its guide's CUDAs."""
    import json
    import os
    import re

    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(repo, "data", "sources", "wheel_plugins.json"), encoding="utf-8") as fh:
        rows = {r["version"]: r for r in json.load(fh)["releases"]}
    layout = next(w for w in rows["2.0.0"]["wheels"] if w["platform"] == "linux-x86_64")["plugin_layout"]
    assert "not_on_pypi" in rows["2.5.0"]
    for name, cudas in (("gpu_ms25_node", ["10.1", "11.1", "11.6"]), ("gpu_ms22_cuda116", ["10.1", "11.1", "11.6"])):
        base = os.path.join(fixture_path(name), "root", "usr", "local", "lib", "python3.9", "dist-packages", "mindspore")
        have = {os.path.relpath(os.path.join(d, f), base) for d, _, fs in os.walk(os.path.join(base, "lib", "plugin"))
                for f in fs}
        want = set()
        for n in layout:
            m = re.match(r"^(lib/plugin/gpu|lib/plugin/libmindspore_gpu\.so\.)(\d+\.\d+)(/.*)?$", n)
            want |= {n} if m is None else {f"{m.group(1)}{c}{m.group(3) or ''}" for c in cudas}
        assert want <= have, (name, sorted(want - have))
        with open(os.path.join(fixture_path(name), "manifest.json"), encoding="utf-8") as fh:
            assert "wheel_plugins.json" in json.dumps(json.load(fh)["fixture_source"])


def test_a_checker_only_cuda_warning_says_how_to_confirm_it():
    """gpu_node: the cuda-11.1 build of 1.10.1 on a CUDA 11.6 runtime its checker accepts is a warning; it says what
    to do (MindSpore's own check), not nothing."""
    _, data = run_json("check", "--bundle", fixture_path("gpu_node"), "--only", "gpu")
    f = _by_id(data)["gpu.cuda_runtime_for_mindspore"]
    assert f["status"] == "warn" and f["fix"] and "mindspore.run_check()" in f["fix"][0]
