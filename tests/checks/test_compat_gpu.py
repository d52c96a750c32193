"""compat.* checks of MindSpore on CUDA (checks/compat_gpu.py): the GPU build against the CUDA runtime and cuDNN, the
NVIDIA driver against the CUDA runtime, through CheckContext on facts built directly."""

import re

import pytest

from ascend_doctor.checks.compat_gpu import check_cuda_mindspore, check_nvidia_driver_cuda
from ascend_doctor.facts import CudaFacts
from ascend_doctor.matrix import load_bundled
from tests.checks.test_compat import _facts, _ms, ctx_for
from tests.helpers.i18n_asserts import assert_msg, deferring, has_msg

# run as doctor.evaluate runs them (words deferred): the asserts read message ids and parameters, not sentences
check_cuda_mindspore, check_nvidia_driver_cuda = map(deferring, (check_cuda_mindspore, check_nvidia_driver_cuda))
KEEP_DRIVER = "keep driver {driver}: MindSpore {version} has a build for CUDA {cuda}, which it runs"


@pytest.fixture(scope="module")
def matrix():
    return load_bundled(full_validation=True)


# --- CUDA ---

def test_gpu_build_for_other_cuda_fails_p01(matrix):
    cuda = CudaFacts(runtime_libs=[{"path": "/usr/local/cuda-10.1/lib64/libcudart.so.10.1.243", "version": "10.1.243"}],
                     driver_cuda_max="12.2", cudnn_version="7.6.5")
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("1.8.1", flavour="gpu", cuda_version="11.1"), cuda=cuda)))
    assert f.status == "fail" and f.pitfall == "P01"
    steps = "\n".join(f.fix)
    # a new environment: the CUDA the build needs, then MindSpore itself (the 1.8.1 cuda-11.1 wheel of its guide)
    assert steps.index("conda create") < steps.index("cudatoolkit=11.1") < steps.index("cuda-11.1/mindspore_gpu-")
    # the other way out keeps CUDA 10.1 as steps (a label, then the install), never a bare list of releases
    i = next(i for i, s in enumerate(f.fix) if s.startswith("or keep CUDA 10.1: MindSpore "))
    assert f.fix[i + 1].startswith(("pip install", "conda create", "install MindSpore"))


def test_no_alternative_keeps_a_cuda_the_nvidia_driver_cannot_run(matrix):
    """A 418.87 driver runs CUDA <= 10.1: MindSpore 1.6.2 with a CUDA 11.6 runtime gets the 10.1 build, and no way out
    that keeps CUDA 11.6 (it would not run)."""
    cuda = CudaFacts(runtime_libs=[{"path": "/usr/local/cuda-11.6/lib64/libcudart.so.11.6.55", "version": "11.6.55"}],
                     driver_version="418.87.00")
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("1.6.2", flavour="gpu"), cuda=cuda)))
    assert f.status == "fail"
    assert any("cudatoolkit=10.1" in s for s in f.fix)
    assert not any("cudatoolkit=11" in s for s in f.fix), f.fix
    assert not has_msg(f.fix, "keep CUDA {cuda}: MindSpore {version} has a GPU build for it", cuda="11.6"), f.fix


def test_no_libcudart_fails(matrix):
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.2.14", flavour="gpu", cuda_version="11.6"),
                                                    cuda=CudaFacts())))
    assert f.status == "fail" and "libcudart" in f.summary


def test_matching_cuda_and_cudnn_pass(matrix):
    cuda = CudaFacts(runtime_libs=[{"path": "/usr/local/cuda/lib64/libcudart.so.11.6.55", "version": "11.6.55"}],
                     driver_cuda_max="12.0", cudnn_version="8.5.0")
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.2.14", flavour="gpu", cuda_version="11.6"), cuda=cuda)))
    assert f.status == "pass"
    assert f.evidence["cudnn_per_install_guide"] == ["CUDA 11.6 + cuDNN 8.5.x"]


def test_old_cudnn_with_cuda_11_warns_like_mindspore(matrix):
    cuda = CudaFacts(runtime_libs=[{"path": "/x/libcudart.so.11.1.74", "version": "11.1.74"}], cudnn_version="7.6.5")
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.1.1", flavour="gpu", cuda_version="11.1"), cuda=cuda)))
    assert f.status == "warn" and "cuDNN 7.6.5" in f.summary and "cuDNN 8.0" in f.fix[-1]


def test_driver_too_old_for_the_cuda(matrix):
    cuda = CudaFacts(runtime_libs=[{"path": "/x/libcudart.so.11.6.55", "version": "11.6.55"}], driver_cuda_max="11.0")
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.2.14", flavour="gpu", cuda_version="11.6"), cuda=cuda)))
    assert f.status == "fail"
    assert_msg(f.summary, "The NVIDIA driver supports CUDA up to {max}, older than the CUDA {cuda} MindSpore needs",
               max="11.0", cuda="11.6")


def test_ascend_build_skips_cuda(matrix):
    assert check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.6.0", flavour="ascend")))).status == "skip"


def test_release_the_sources_disagree_on_warns_naming_both(matrix):
    """2.5.0: its GPU install guide lists CUDA 10.1/11.1/11.6, its release list labels the wheels Ascend/CPU."""
    cuda = CudaFacts(runtime_libs=[{"path": "/x/libcudart.so.11.6.55", "version": "11.6.55"}])
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.5.0", flavour="gpu"), cuda=cuda)))
    assert f.status == "warn" and "disagree" in f.summary
    assert "mindspore_gpu_install_pip_en.md" in f.summary and "release_list_en.md" in f.summary


def test_release_no_source_publishes_a_gpu_build_for_warns(matrix):
    cuda = CudaFacts(runtime_libs=[{"path": "/x/libcudart.so.11.6.55", "version": "11.6.55"}])
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.3.1", flavour="gpu"), cuda=cuda)))
    assert f.status == "warn"
    assert_msg(f.summary, "No source publishes a GPU (CUDA) build of MindSpore {version}: neither its release list nor a "
               "GPU install guide names one, though its checker lists CUDA {accepted}", version="2.3.1")
    # the way out is steps: the newest release with a build for the CUDA 11.6 found
    assert any(s.startswith("pip install mindspore==2.10.0") for s in f.fix), f.fix


def test_cuda_the_checker_accepts_without_a_build_warns(matrix):
    """1.10.1's checker accepts 10.1/11.1/11.6; its guide lists 10.1/11.1: 11.6 is at most a warning."""
    cuda = CudaFacts(runtime_libs=[{"path": "/x/libcudart.so.11.6.55", "version": "11.6.55"}], cudnn_version="8.5.0")
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("1.10.1", flavour="gpu"), cuda=cuda)))
    assert f.status == "warn"
    assert_msg(f.summary, "MindSpore {version}'s checker accepts CUDA {cuda}, but its GPU builds are for CUDA {built} only "
               "[{source}]: a CUDA {major} runtime loads them, MindSpore does not publish a build for {cuda}",
               version="1.10.1", cuda="11.6")


def test_cuda_116_on_2_2_warns_instead_of_failing(matrix):
    cuda = CudaFacts(runtime_libs=[{"path": "/x/libcudart.so.11.6.55", "version": "11.6.55"}], cudnn_version="8.5.0")
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.2.0", flavour="gpu"), cuda=cuda)))
    assert f.status == "warn" and "disagree" in f.summary and not any("11.1" in s and "downgrade" in s for s in f.fix)


def test_cudnn_judged_against_the_cuda_of_the_build(matrix):
    cuda = CudaFacts(runtime_libs=[{"path": "/x/libcudart.so.11.6.55", "version": "11.6.55"}], cudnn_version="7.6.5")
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.2.14", flavour="gpu"), cuda=cuda)))
    assert f.status == "warn" and "cuDNN 8.5.x" in f.summary


# --- the NVIDIA driver against the CUDA runtime ---

def _driver_facts(driver, runtime=None, ms="2.2.14", python="3.9"):
    cuda = CudaFacts(driver_version=driver,
                     runtime_libs=[{"path": "/x/libcudart.so", "version": runtime}] if runtime else [])
    return _facts(ms=_ms(ms, flavour="gpu"), cuda=cuda, python=python)


def test_driver_below_nvidia_minimum_fails_and_the_fix_never_installs_a_cuda_it_cannot_run(matrix):
    f = check_nvidia_driver_cuda(ctx_for(matrix, _driver_facts("418.87", "11.6.55")))
    assert f.status == "fail" and "450.80.02" in f.summary
    steps = "\n".join(f.fix)
    assert "cudatoolkit=11.6" not in steps.split("sudo reboot")[0]  # the driver upgrade comes first
    assert_msg(f.fix[0], "upgrade the NVIDIA driver to {asked} or newer for CUDA {cuda} ({by})", asked="510.39.01",
               cuda="11.6")
    # or keep 418.87: 2.2.14's unified wheel has a CUDA 10.1 plugin, which 418.87 runs (>= 418.39)
    keep = "\n".join(f.fix[next(i for i, s in enumerate(f.fix) if has_msg(s, KEEP_DRIVER, driver="418.87")) + 1:])
    assert "cudatoolkit=10.1" in keep and "cudatoolkit=11" not in keep and "/2.2.14/MindSpore/unified/x86_64/mindspore-2.2.14-cp39-cp39-linux_x86_64.whl" in keep


def test_driver_between_nvidia_and_the_guide_warns_naming_both(matrix):
    f = check_nvidia_driver_cuda(ctx_for(matrix, _driver_facts("470.82.01", "11.6.55")))
    assert f.status == "warn" and "450.80.02" in f.summary and "510.39.01" in f.summary
    assert_msg(f.summary, "MindSpore's GPU install guide")


def test_driver_new_enough_passes(matrix):
    assert check_nvidia_driver_cuda(ctx_for(matrix, _driver_facts("535.247.01", "11.6.55"))).status == "pass"


def test_driver_without_runtime_judges_the_builds_of_the_release(matrix):
    """A planned 2.10.0 on 418.87: both its builds (11.1, 11.6) need 450.80.02+; the fix upgrades first, and names
    a release with a build 418.87 runs."""
    f = check_nvidia_driver_cuda(ctx_for(matrix, _driver_facts("418.87", None, ms="2.10.0", python="3.11")))
    assert f.status == "fail"
    assert f.fix[0].startswith("upgrade the NVIDIA driver")
    assert any(has_msg(s, "or {why}:") and has_msg(s, "keep driver {driver}: MindSpore {version} has a GPU build for CUDA "
                                                "{cuda}, which this driver runs", driver="418.87") for s in f.fix)


def test_no_driver_skips(matrix):
    assert check_nvidia_driver_cuda(ctx_for(matrix, _driver_facts(None, "11.6.55"))).status == "skip"
def test_a_disputed_gpu_build_warning_says_how_to_settle_it(matrix):
    """MindSpore 2.5.0 on CUDA 11.6: its GPU guide lists 11.6, its release list labels the wheels Ascend/CPU. The
    warning's fix is MindSpore's own check on the installed build (the wheel settles it), not nothing."""
    cuda = CudaFacts(runtime_libs=[{"path": "(planned)", "version": "11.6"}], driver_version="550.40.07")
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.5.0", flavour="gpu"), cuda=cuda)))
    assert f.status == "warn" and f.fix and "mindspore.run_check()" in f.fix[0]


def test_a_release_without_a_gpu_build_points_to_one_with_a_wheel_for_this_python(matrix):
    """MindSpore 2.3.0 has no GPU build any source names; with Python 3.9 the release named first must have a GPU
    wheel for 3.9 (2.10.0 has none: PyPI lists cp310-cp312 only)."""
    cuda = CudaFacts(runtime_libs=[{"path": "(planned)", "version": "11.1"}], driver_version="470.82.01")
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.3.0", flavour="gpu"), cuda=cuda, python="3.9.18")))
    assert f.status == "warn"
    named = re.search(r"MindSpore (\d+\.\d+\.\d+) has a GPU build", " ".join(f.fix)).group(1)
    assert named != "2.10.0" and "3.9" in matrix.python_for(named, "linux-x86_64", "gpu")["python"]
    assert any(s.startswith(f"pip install mindspore=={named}") for s in f.fix)
    # with no runtime and no driver known, the releases are named, those with a wheel for this Python first
    cuda = CudaFacts()
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.3.0", flavour="gpu"), cuda=cuda, python="3.9.18")))
    named = re.search(r"e\.g\. (\d+\.\d+\.\d+)", " ".join(f.fix)).group(1)
    assert named != "2.10.0" and "3.9" in matrix.python_for(named, "linux-x86_64", "gpu")["python"]


def test_a_driver_too_old_for_a_cuda_no_mindspore_uses_keeps_the_driver(matrix):
    """Driver 418.87 with a CUDA 12.2 runtime, MindSpore 2.3.1 (no GPU build): no MindSpore has a CUDA 12.2 build,
    so upgrading the driver for it serves nothing; the fix is a release with a build for a CUDA 418.87 runs (10.1),
    the upgrade an alternative."""
    cuda = CudaFacts(runtime_libs=[{"path": "(planned)", "version": "12.2"}], driver_version="418.87.00")
    f = check_nvidia_driver_cuda(ctx_for(matrix, _facts(ms=_ms("2.3.1", flavour="gpu"), cuda=cuda, python="3.11")))
    assert f.status == "fail"
    first_upgrade = next(i for i, s in enumerate(f.fix) if "upgrade the NVIDIA driver" in s)
    assert any("cudatoolkit=10.1" in s for s in f.fix[:first_upgrade])
    assert f.fix[first_upgrade].startswith("or upgrade the NVIDIA driver for CUDA 12.2")


def test_a_gpu_wheel_is_planned_for_a_python_its_release_publishes(matrix):
    """1.5.1's GPU guide names no Python; its release publishes 3.7/3.9 wheels on x86_64: a new environment gets 3.9,
    never a cp312 wheel URL that does not exist."""
    from ascend_doctor.checks._gpu_fix import plan

    p = plan(matrix, "1.5.1", "3.12", "510.47.03")
    assert p["steps"][0].startswith("conda create -n ms-gpu python=3.9")
    assert not any("cp312" in s for s in p["steps"])


def test_the_builds_a_failure_names_are_the_ones_its_evidence_lists(matrix):
    """Audit I nit: MindSpore 2.1.1 on CUDA 12.2: the summary named 11.6 among its builds while the matrix row in the
    evidence lists 10.1 and 11.1; 11.6 is one the sources disagree on, and the summary says so."""
    cuda = CudaFacts(runtime_libs=[{"path": "(planned)", "version": "12.2"}], driver_version="535.104.05")
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.1.1", flavour="gpu"), cuda=cuda, python="3.8")))
    assert f.status == "fail"
    built = assert_msg(f.summary, "MindSpore {version} has GPU builds for CUDA {built} and its checker accepts "
                       "{accepted}, but the runtime found is {found}").params["built"]
    assert_msg(built, "{built} (the sources disagree on {disputed})", built="10.1, 11.1", disputed="11.6")
    assert_msg(f.evidence["matrix_row"], "MindSpore {version}: GPU builds for CUDA {builds}; checker accepts "
               "{accepted} [{source}]")


def test_a_disputed_cuda_with_a_driver_below_the_guide_plans_an_agreed_cuda_as_commands(matrix):
    """Audit I #21: MindSpore 2.2.0 on CUDA 11.6 with driver 450.80.02: the warning that the sources disagree on 11.6
    gives the route every source names (an environment with a CUDA the driver runs, the same wheel, the GPU check) as
    commands, the check of the build as it is a labelled alternative; the driver warning gives the same route, the
    driver upgrade a labelled alternative."""
    cuda = CudaFacts(runtime_libs=[{"path": "(planned)", "version": "11.6"}], driver_version="450.80.02")
    facts = _facts(ms=_ms("2.2.0", flavour="gpu"), cuda=cuda, python="3.9")
    f = check_cuda_mindspore(ctx_for(matrix, facts))
    d = check_nvidia_driver_cuda(ctx_for(matrix, facts))
    assert f.status == d.status == "warn"
    for x in (f, d):
        assert str(x.fix[0]).startswith("conda create -n ms-gpu python=3.9"), x.fix
        assert not any(str(s).startswith("plan CUDA") for s in x.fix)
    route = [str(s) for s in d.fix[:5]]
    assert [str(s) for s in f.fix[:5]] == route
    assert "mindspore-2.2.0-cp39-cp39" in route[2] and "device_target='GPU'" in route[4]
    assert_msg(f.fix, "or {why}:")
    why = assert_msg(d.fix, "or {why}:").params["why"]
    assert_msg(why, "keep CUDA {cuda}: upgrade the NVIDIA driver (root, a reboot)", cuda="11.6")


def test_a_driver_the_guide_accepts_is_checked_before_it_is_upgraded():
    """Audit I, second pass (b): MindSpore 1.9.0 / CUDA 11.1 / driver 450.80.02 — MindSpore's guide accepts the driver,
    NVIDIA's CUDA 11.1 toolkit table asks 455.23. The warning's fix was an unlabelled driver upgrade (root, a reboot)
    beside a plan that needs none: its fix is MindSpore's own check on the GPU, the upgrade a labelled other way."""
    from tests.helpers import run_json

    seen = 0
    for ms in ("1.9.0", "2.2.14", "2.4.10"):
        for cuda, nv in (("11.1", "450.80.02"), ("11.6", "450.80.02"), ("11.1", "455.23.05")):
            _, data = run_json("matrix", "check", "--mindspore", ms, "--cuda", cuda, "--nvidia-driver", nv,
                               "--python", "3.9")
            f = next(x for x in data["findings"] if x["id"] == "compat.nvidia_driver_cuda")
            if f["status"] != "warn":
                continue
            seen += 1
            assert not any("sudo" in s for s in f["fix"]), (ms, cuda, nv, f["fix"])  # no root in the fix
            assert any("mindspore.run_check()" in s for s in f["fix"]), (ms, cuda, nv, f["fix"])
            assert any("reboot" in s for a in f["alternatives"] for s in a["steps"]), (ms, cuda, nv)
            assert all(a["why"] for a in f["alternatives"])
    assert seen
