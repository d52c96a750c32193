"""checks/_gpu_fix.py: the MindSpore-on-CUDA fix steps, in dependency order, from the matrix only."""

import pytest

from ascend_doctor.checks._gpu_fix import (
    CONDA_FORGE_CUDNN, DT_RPATH_SOURCE, RUN_CHECK, conda_cudnn, driver_verdict, env_steps, gpu_run_check,
    mindspore_install, pick_python, plan,
)
from ascend_doctor.versions import dotted_numbers
from ascend_doctor.matrix import load_bundled


@pytest.fixture(scope="module")
def matrix():
    return load_bundled()


@pytest.mark.parametrize("driver,cuda,verdict", [
    ("418.87.00", "11.6", "too-old"), ("418.87.00", "10.1", "ok"), ("418.35", "10.1", "too-old"),
    ("470.82.01", "11.6", "below-asked"), ("450.80.02", "11.1", "below-asked"), ("455.32.00", "11.1", "ok"),
    ("510.39.01", "11.6", "ok"), ("535.247.01", "12.2", "ok"), (None, "11.6", None), ("418.87", "9.0", None),
])
def test_driver_verdict_follows_nvidia_and_the_guide(matrix, driver, cuda, verdict):
    assert driver_verdict(matrix, driver, cuda) == verdict


def test_driver_verdict_from_nvidia_smi_cuda_version_alone(matrix):
    assert driver_verdict(matrix, None, "11.6", cuda_max="10.1") == "too-old"
    assert driver_verdict(matrix, None, "11.6", cuda_max="11.4") == "below-asked"
    assert driver_verdict(matrix, None, "11.1", cuda_max="12.2") == "ok"


def test_mindspore_install_uses_each_releases_own_channel(matrix):
    assert mindspore_install(matrix, "2.10.0", "11.6", "3.11")[0].startswith("pip install mindspore==2.10.0")
    one = mindspore_install(matrix, "1.10.1", "10.1", "3.8")[0]
    assert one.startswith("pip install https://ms-release.obs.cn-north-4.myhuaweicloud.com/1.10.1/MindSpore/gpu/"
                          "x86_64/cuda-10.1/mindspore_gpu-1.10.1-cp38-cp38-linux_x86_64.whl")
    unified = mindspore_install(matrix, "2.0.0-rc1", "11.6", "3.7")[0]
    assert "/2.0.0rc1/MindSpore/unified/x86_64/mindspore-2.0.0rc1-cp37-cp37m-linux_x86_64.whl" in unified
    assert "1.5.0/MindSpore/gpu/x86_64/cuda-11.1/mindspore_gpu-1.5.0-cp37-cp37m" in \
        mindspore_install(matrix, "1.5.0", "11.1", "3.7")[0]


def test_pick_python_keeps_a_supported_one(matrix):
    assert pick_python(matrix, "2.2.14", "3.8.10") == "3.8"
    assert pick_python(matrix, "2.2.14", "3.11") == "3.9"


def test_plan_keeps_a_cuda_the_driver_runs_when_the_release_has_one(matrix):
    p = plan(matrix, "2.2.14", "3.9", "418.87.00", prefer=["11.6"])
    assert p["cuda"] == "10.1" and not p["driver_upgrade"]
    assert not any(s.startswith("upgrade the NVIDIA driver") for s in p["steps"])


def test_plan_upgrades_the_driver_before_a_runtime_it_cannot_run(matrix):
    p = plan(matrix, "2.10.0", "3.11", "418.87.00")
    assert p["driver_upgrade"] and p["steps"][0].startswith("upgrade the NVIDIA driver to 510.39.01")
    toolkit = next(i for i, s in enumerate(p["steps"]) if "cudatoolkit=" in s)
    reboot = next(i for i, s in enumerate(p["steps"]) if s.startswith("sudo reboot"))
    assert reboot < toolkit
    assert p["alternative"] and "cudatoolkit=10.1" in "\n".join(p["alternative"])


def test_plan_installs_mindspore_into_the_new_environment(matrix):
    steps = plan(matrix, "2.7.1.post1", "3.10", "550.40.07")["steps"]
    create = next(i for i, s in enumerate(steps) if s.startswith("conda create -n ms-gpu python=3.10"))
    pip = next(i for i, s in enumerate(steps) if s.startswith("pip install mindspore==2.7.1.post1"))
    assert create < pip and steps[-1].startswith(
        "python -c \"import mindspore; mindspore.set_device(device_target='GPU'); mindspore.run_check()\"   # ")
    # the guide pairs cuDNN 8.5 with CUDA 11.6, which conda-forge does not build: its nearest newer release
    assert "cudatoolkit=11.6 cudnn=8.8 -y" in "\n".join(steps)


@pytest.mark.parametrize("version, command", [
    ("1.10.1", RUN_CHECK), ("2.0.0", RUN_CHECK), ("2.0.0-rc1", RUN_CHECK), (None, RUN_CHECK), ("unknown", RUN_CHECK),
    ("2.1.0", "python -c \"import mindspore; mindspore.set_context(device_target='GPU'); mindspore.run_check()\""),
    ("2.4.10", "python -c \"import mindspore; mindspore.set_context(device_target='GPU'); mindspore.run_check()\""),
    ("2.5.0", "python -c \"import mindspore; mindspore.set_device(device_target='GPU'); mindspore.run_check()\""),
    ("2.10.0", "python -c \"import mindspore; mindspore.set_device(device_target='GPU'); mindspore.run_check()\""),
])
def test_mindspores_own_check_selects_the_gpu_as_the_releases_gpu_install_guide_does(version, command):
    """The GPU install guides' "Installation Verification": run_check() alone up to r2.0, set_context(device_target=
    'GPU') from r2.1 (and the r2.4.x branches), set_device(device_target='GPU') from 2.5.0 (mindspore-ai/docs)."""
    assert gpu_run_check(version) == command


def test_every_gpu_plan_ends_with_mindspores_own_check_on_the_gpu(matrix):
    seen = set()
    for row in matrix.mindspore_releases:
        for cuda in row["gpu"]["built_for"]["value"]:
            steps = env_steps(matrix, row["version"], cuda, pick_python(matrix, row["version"], None) or "3.9")
            assert steps[-1].startswith(gpu_run_check(row["version"])), (row["version"], steps[-1])
            if dotted_numbers(row["version"])[:2] >= (2, 1):
                assert "device_target='GPU'" in steps[-1] and "# on the GPU" in steps[-1], (row["version"], steps)
            seen.add(gpu_run_check(row["version"]))
    assert len(seen) == 3, seen  # each of the guides' three ways is planned for some release


def test_the_cudnn_a_gpu_plan_asks_conda_forge_for_is_one_it_builds_for_that_cuda(matrix):
    """conda-forge has no cuDNN 8.5 (the guide's for CUDA 11.6) and no 8.0 build for CUDA 11.1: the plan asks for the
    nearest newer release of the same major that conda-forge builds for the cudatoolkit it pins, never one below
    the guide's and never a spec that cannot resolve (conda-forge/cudnn-feedstock)."""
    asked = {}
    for row in matrix.mindspore_releases:
        for cuda in row["gpu"]["built_for"]["value"]:
            c = conda_cudnn(matrix, row["version"], cuda)
            if c["guide"] is None:
                continue
            got = c["nearest"] or c["guide"]
            assert dotted_numbers(got)[:1] == dotted_numbers(c["guide"])[:1]
            assert dotted_numbers(got) >= dotted_numbers(c["guide"])[:2]
            builds = [cudas for v, cudas, _commit in CONDA_FORGE_CUDNN if v == got]
            assert builds and (cuda in builds[0] or cuda.split(".")[0] in builds[0]), (cuda, got)
            assert c["source"].startswith("https://github.com/conda-forge/cudnn-feedstock/blob/")
            asked[cuda] = c["spec"]
    assert asked == {"10.1": "'cudnn>=7.6,<8'", "11.1": "cudnn=8.1", "11.6": "cudnn=8.8"}, asked


def test_the_conda_runtime_route_warns_that_dt_rpath_prefers_usr_local_cuda(matrix):
    steps = env_steps(matrix, "2.4.1", "11.6", "3.9")
    export = next(s for s in steps if s.startswith("export LD_LIBRARY_PATH=$CONDA_PREFIX/lib"))
    assert "/usr/local/cuda" in export and "DT_RPATH" in export and DT_RPATH_SOURCE in export
    assert DT_RPATH_SOURCE.startswith("https://github.com/mindspore-ai/docs/blob/") and "#L" in DT_RPATH_SOURCE


def test_a_driver_at_mindspores_own_minimum_keeps_the_release_and_its_cuda(matrix):
    """Audit walk (p22c): MindSpore 2.7.1.post1 (CUDA 11.1/11.6 builds) under Python 3.12 with driver 450.80.02, which
    runs CUDA 11.1 at the minimum MindSpore's GPU install guide states (NVIDIA's toolkit table asks 455.23): the plan
    is the same release in a Python it has wheels for, on CUDA 11.1, not another release on CUDA 10.1 nor a driver
    upgrade. The class: every release and CUDA whose guide minimum is below NVIDIA's toolkit ask."""
    from ascend_doctor.checks._gpu_fix import meets_mindspore_guide

    p = plan(matrix, "2.7.1.post1", "3.12", "450.80.02")
    assert p["cuda"] == "11.1" and not p["driver_upgrade"], p
    assert any(s.startswith("pip install mindspore==2.7.1.post1") for s in p["steps"])
    checked = 0
    for row in matrix.mindspore_releases:
        for cuda in row["gpu"]["built_for"]["value"]:
            need = matrix.nvidia_driver_min(cuda)
            guide = [d for d, who, _s in need["by"] if who == "mindspore-guide"]
            if not guide or not need["runs"]:
                continue
            driver = max(guide + [need["runs"]], key=dotted_numbers)
            if not meets_mindspore_guide(matrix, driver, cuda):
                continue
            checked += 1
            p = plan(matrix, row["version"], None, driver, prefer=[cuda])
            assert not p["driver_upgrade"], (row["version"], cuda, driver)
    assert checked
