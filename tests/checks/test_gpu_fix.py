"""checks/_gpu_fix.py: the MindSpore-on-CUDA fix steps, in dependency order, from the matrix only."""

import pytest

from ascend_doctor.checks._gpu_fix import driver_verdict, mindspore_install, pick_python, plan
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
    assert create < pip and steps[-1] == 'python -c "import mindspore; mindspore.run_check()"'
    assert "'cudnn>=8.5,<9'" in "\n".join(steps)  # the guide's pair for 11.6, the CUDA it recommends
