"""compat.* checks other than MindSpore<->CANN, through CheckContext on facts built directly.

Driver / firmware values are the real version.info samples of compat_facts.md §3.1-3.2 and
ascend_formats.md §1.3-1.4 (HDK 23.0.7, 24.1.rc1, 24.1.rc3, 25.0.rc1.1, 25.3.rc1).
"""

import re

import pytest

from ascend_doctor.checks import CheckContext
from ascend_doctor.checks.compat import (
    check_cann_driver, check_cuda_mindspore, check_custom_ops_cann, check_driver_firmware, check_firmware_min,
    check_nvidia_driver_cuda, check_python_mindspore,
)
from ascend_doctor.facts import CannInstall, CudaFacts, DriverFacts, Facts, FirmwareFacts, MindSporeFacts, PythonFacts
from ascend_doctor.matrix import load_bundled


@pytest.fixture(scope="module")
def matrix():
    return load_bundled(full_validation=True)


def ctx_for(matrix, facts):
    return CheckContext(facts=facts, _matrix=matrix)


def _facts(driver=None, firmware=None, cann=None, ms=None, python=None, arch="x86_64", cuda=None):
    f = Facts()
    f.system.arch = arch
    if driver:
        f.driver = driver
    if firmware:
        f.firmware = firmware
    if cann:
        f.cann.installs = cann if isinstance(cann, list) else [cann]
    if ms:
        f.mindspore = ms
    if python:
        f.python = PythonFacts(version=python)
    if cuda:
        f.cuda = cuda
    return f


DRV_24_1_RC3 = dict(version="24.1.rc3", package_version="24.1.rc3", innerversion="V100R001C19SPC001B124",
                    compatible_version=["V100R001C13", "V100R001C15", "V100R001C17", "V100R001C18", "V100R001C19"],
                    compatible_version_fw=[["7.0.0", "7.5.99"]])
FW_24_1_RC3 = dict(version="7.5.0.1.129", package_version="24.1.rc3",
                   compatible_version_drv=[["23.0.0", "23.0.0."], ["24.0", "24.0."], ["24.1", "24.1."]])
FW_25_0_RC1_1 = dict(version="7.7.0.1.231", package_version="25.0.rc1.1",
                     compatible_version_drv=[["23.0.0", "23.0.0."], ["24.0", "24.0."], ["24.1", "24.1."], ["25.0", "25.0."]])
DRV_24_1_RC1 = dict(version="24.1.rc1", innerversion="V100R001C15SPC006B220",
                    compatible_version=["V100R001C30", "V100R001C13", "V100R001C15", "V100R001C17"],
                    compatible_version_fw=[["7.0.0", "7.2.99"]])
FW_23_0_7 = dict(version="7.1.0.11.220", package_version="23.0.7",
                 compatible_version_drv=[["23.0.rc3", "23.0.rc3."], ["23.0.0", "23.0.0."]])


def test_driver_and_firmware_of_one_hdk_pass(matrix):
    f = check_driver_firmware(ctx_for(matrix, _facts(DriverFacts(installed=True, **DRV_24_1_RC3),
                                                     FirmwareFacts(installed=True, **FW_24_1_RC3))))
    assert f.status == "pass" and "[7.0.0, 7.5.99]" in f.summary


def test_newer_firmware_accepted_through_its_own_driver_list(matrix):
    # 24.1.rc3 driver allows firmware up to 7.5.99; the 25.0.rc1.1 firmware lists [24.1,24.1.] = any 24.1.*.
    f = check_driver_firmware(ctx_for(matrix, _facts(DriverFacts(installed=True, **DRV_24_1_RC3),
                                                     FirmwareFacts(installed=True, **FW_25_0_RC1_1))))
    assert f.status == "pass" and "any 24.1.*" in f.summary


def test_driver_and_firmware_that_refuse_each_other_fail_with_upgrade_of_the_older(matrix):
    # 24.1.rc1 driver (fw 7.0.0-7.2.99) with the 23.0.7 firmware package's list (23.0.rc3 / 23.0.0 only)
    drv = DriverFacts(installed=True, **dict(DRV_24_1_RC1, compatible_version_fw=[["7.2.0", "7.2.99"]]))
    fw = FirmwareFacts(installed=True, **FW_23_0_7)
    f = check_driver_firmware(ctx_for(matrix, _facts(drv, fw)))
    assert f.status == "fail" and f.pitfall == "P24"
    assert "firmware is the older" in f.fix[0] and "HDK 24.1.rc1" in f.fix[0]
    assert "7.1.0.6.220" in f.fix[0]  # the firmware that ships with HDK 24.1.rc1 (matrix hdk_firmware)
    assert f.evidence["driver"] == "24.1.rc1" and f.evidence["firmware"] == "7.1.0.11.220"


def test_planned_driver_uses_the_matrix_sample_ranges(matrix):
    # No version.info lists (a planned install): the 24.1.rc3 driver sample's [7.0.0,7.5.99] decides.
    ok = check_driver_firmware(ctx_for(matrix, _facts(DriverFacts(installed=True, version="24.1.rc3"),
                                                      FirmwareFacts(installed=True, version="7.5.0.1.129"))))
    via_fw = check_driver_firmware(ctx_for(matrix, _facts(DriverFacts(installed=True, version="24.1.rc1"),
                                                          FirmwareFacts(installed=True, version="7.7.0.1.231"))))
    assert ok.status == "pass" and "matrix sample" in ok.evidence["compatible_version_fw"]
    # 7.7 firmware is outside 24.1.rc1's [7.0.0,7.2.99], but the 25.0.rc1.1 firmware lists [24.1,24.1.].
    assert via_fw.status == "pass" and "firmware 7.7.0.1.231's range [24.1, 24.1.]" in via_fw.summary


def test_unknown_lists_are_a_warning(matrix):
    f = check_driver_firmware(ctx_for(matrix, _facts(DriverFacts(installed=True, version="26.9.9"),
                                                     FirmwareFacts(installed=True, version="9.9.9.1.100"))))
    assert f.status == "warn" and "unknown" in f.summary.lower()


def test_string_rule_quirk_is_pointed_out(matrix):
    drv = DriverFacts(installed=True, version="25.3.rc1", compatible_version_fw=[["7.0.0", "8.9.9"]])
    fw = FirmwareFacts(installed=True, version="8.10.0.1.100")
    f = check_driver_firmware(ctx_for(matrix, _facts(drv, fw)))
    assert f.status == "pass" and "numerically" in f.evidence["note"]


@pytest.mark.parametrize("version,status", [("6.3.0.1.241", "fail"), ("6.4.12.1.241", "pass"), ("7.7.0.1.231", "pass")])
def test_firmware_minimum(matrix, version, status):
    f = check_firmware_min(ctx_for(matrix, _facts(firmware=FirmwareFacts(installed=True, version=version))))
    assert f.status == status
    if status == "fail":
        assert f.pitfall == "P24" and "6.4" in f.fix[0]


def test_firmware_too_old_also_fails_the_pairing(matrix):
    f = check_driver_firmware(ctx_for(matrix, _facts(DriverFacts(installed=True, **DRV_24_1_RC3),
                                                     FirmwareFacts(installed=True, version="6.3.0.1.241"))))
    assert f.status == "fail" and "older than 6.4" in f.summary


# --- CANN <-> driver ---

def _cann(release, compiler=None, innerversion=None):
    return CannInstall(root="/usr/local/Ascend/ascend-toolkit/latest", kind="toolkit", release=release,
                       compiler_version=compiler, innerversion=innerversion, active=True)


def test_cann_with_its_paired_hdk_passes(matrix):
    f = check_cann_driver(ctx_for(matrix, _facts(DriverFacts(installed=True, **DRV_24_1_RC3),
                                                 cann=_cann("8.0.RC3", "7.5.0.1.129", "V100R001C19SPC001B155"))))
    assert f.status == "pass" and "24.1.RC3" in f.summary
    assert "is in the driver's compatible_version" in f.evidence["innerversion_hint"]


def test_cann_stated_incompatible_with_hdk_fails(matrix):
    f = check_cann_driver(ctx_for(matrix, _facts(DriverFacts(installed=True, version="25.0.rc1.1"),
                                                 cann=_cann("9.1.0", "9.1.0"))))
    assert f.status == "fail" and f.pitfall == "P07" and "NOT" in f.summary
    assert any("26.0.RC1" in step or "26.1.0" in step for step in f.fix)


def test_driver_older_than_the_release_notes_list_fails(matrix):
    f = check_cann_driver(ctx_for(matrix, _facts(DriverFacts(installed=True, version="24.1.0"),
                                                 cann=_cann("8.5.0", "8.5.0.2.220"))))
    assert f.status == "fail" and "older than all" in f.summary


def test_driver_not_named_by_any_source_is_unknown(matrix):
    f = check_cann_driver(ctx_for(matrix, _facts(DriverFacts(installed=True, version="23.0.7"),
                                                 cann=_cann("8.0.RC2", "7.3.0.1.231"))))
    assert f.status == "warn" and "unknown" in f.summary
    assert any("24.1.RC2" in step for step in f.fix)


def test_a_known_working_report_is_never_offered_as_a_driver_to_install(matrix):
    # CANN 7.0.RC1 has only a "known-working" row (23.0.rc3), which no vendor table gives: the fix says where
    # the pairing is published instead of installing it (a downgrade from a report is a second, wrong answer)
    f = check_cann_driver(ctx_for(matrix, _facts(DriverFacts(installed=True, version="23.0.7"),
                                                 cann=_cann("7.0.RC1", "7.0.0.5.242"))))
    assert f.status == "warn" and not any("23.0.rc3" in step for step in f.fix)
    assert "release notes" in f.fix[0]


def test_cann_without_pairing_data_is_unknown(matrix):
    f = check_cann_driver(ctx_for(matrix, _facts(DriverFacts(installed=True, version="23.0.7"),
                                                 cann=_cann("6.0.1", "1.84.15.1.310"))))
    assert f.status == "warn" and "No source" in f.summary


# --- Python ---

def _ms(version, **kw):
    return MindSporeFacts(installed=True, version=version, **kw)


def test_python_outside_wheel_list_fails_with_both_ways_out(matrix):
    f = check_python_mindspore(ctx_for(matrix, _facts(ms=_ms("2.3.1", flavour="ascend"), python="3.11.4", arch="aarch64")))
    assert f.status == "fail" and f.pitfall == "P21"
    assert "python=3.10" in f.fix[0]
    # keeping Python 3.11: the newest release with cp311 wheels that has a published CANN pairing (2.10.0 has
    # wheels but only a custom-op build CANN, which is not a pairing), named with that CANN
    assert any("CANN 9.0.0" in step and "MindSpore 2.9.0" in step for step in f.fix), f.fix
    assert not any("2.10.0" in step for step in f.fix)


def test_python_inside_list_passes(matrix):
    f = check_python_mindspore(ctx_for(matrix, _facts(ms=_ms("2.10.0", flavour="ascend"), python="3.12.1")))
    assert f.status == "pass"


def test_python_2_10_has_no_3_9_wheel(matrix):
    f = check_python_mindspore(ctx_for(matrix, _facts(ms=_ms("2.10.0"), python="3.9.18")))
    assert f.status == "fail" and "3.10, 3.11, 3.12" in f.summary


def test_python_defers_to_the_wheel_tags_when_present(matrix):
    f = check_python_mindspore(ctx_for(matrix, _facts(ms=_ms("2.6.0", wheel_tags=["cp39-cp39-linux_x86_64"]),
                                                      python="3.9.1")))
    assert f.status == "skip" and "matrix_row" in f.evidence


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
    assert not any("keep CUDA 11.6" in s or "cudatoolkit=11" in s for s in f.fix), f.fix


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
    assert f.status == "fail" and "supports CUDA up to 11.0" in f.summary


def test_ascend_build_skips_cuda(matrix):
    assert check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.6.0", flavour="ascend")))).status == "skip"


# --- bundled custom ops (P22) ---

def test_custom_ops_built_for_another_cann_warn(matrix):
    ms = _ms("2.7.1", flavour="ascend", custom_ops_cann={"custom_ascendc_910b": "8.3.T7.0.B052"})
    f = check_custom_ops_cann(ctx_for(matrix, _facts(ms=ms, cann=_cann("8.2.RC1", "8.2.0.0.201"))))
    assert f.status == "warn" and f.pitfall == "P22"
    # two ways: the MindSpore built with this CANN (a pip install, the fix: 2.7.0 was built with an 8.2 CANN) or
    # the CANN these operators were built with (a labelled alternative)
    assert f.fix[0].startswith("pip install mindspore==2.7.0")
    assert any("CANN 8.3.RC1" in a["steps"][0] for a in f.alternatives)


def test_custom_ops_same_cann_pass(matrix):
    ms = _ms("2.10.0", custom_ops_cann={"custom_ascendc_910b": "9.1.0"})
    f = check_custom_ops_cann(ctx_for(matrix, _facts(ms=ms, cann=_cann("9.1.0", "9.1.0"))))
    assert f.status == "pass"


def test_custom_ops_fall_back_to_the_matrix(matrix):
    f = check_custom_ops_cann(ctx_for(matrix, _facts(ms=_ms("2.10.0"), cann=_cann("8.5.0", "8.5.0.2.220"))))
    assert f.status == "warn" and "(from the matrix [" in f.evidence["custom_ops_built_with"]  # named once, by its source


def test_custom_ops_not_checked_before_2_4(matrix):
    f = check_custom_ops_cann(ctx_for(matrix, _facts(ms=_ms("2.2.14"), cann=_cann("7.0.0", "7.1.0.3.220"))))
    assert f.status == "skip"


# --- robustness: any versions in, a finding out ---

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ascend_doctor.checks.compat import check_mindspore_cann  # noqa: E402

_ver = st.one_of(st.none(), st.text(max_size=15), st.sampled_from(
    ["2.6.0", "8.2.RC1", "7.3.0.1.231", "24.1.rc3", "6.3.0.1.241", "3.9.1", "11.6", "", "x.y", "9" * 30]))
ALL_CHECKS = [check_mindspore_cann, check_cann_driver, check_driver_firmware, check_firmware_min,
              check_python_mindspore, check_cuda_mindspore, check_custom_ops_cann]


@settings(max_examples=150, deadline=None)
@given(ms=_ver, release=_ver, compiler=_ver, drv=_ver, fw=_ver, py=_ver, cuda=_ver, ranges=st.text(max_size=30),
       flavour=st.sampled_from(["ascend", "gpu", "cpu", "unknown", None]))
def test_property_checks_never_raise(matrix, ms, release, compiler, drv, fw, py, cuda, ranges, flavour):
    f = Facts()
    f.mindspore = MindSporeFacts(installed=ms is not None, version=ms, flavour=flavour, cuda_version=cuda,
                                 custom_ops_cann={"d": compiler} if compiler else {})
    f.cann.installs = [CannInstall(root="/r", kind="toolkit", release=release, compiler_version=compiler, active=True)]
    f.driver = DriverFacts(installed=True, version=drv, compatible_version_fw=[[ranges, ranges + "."]])
    f.firmware = FirmwareFacts(installed=True, version=fw, compatible_version_drv=[[ranges, ranges]])
    f.python = PythonFacts(version=py)
    f.cuda = CudaFacts(runtime_libs=[{"path": "/x", "version": cuda}], cudnn_version=cuda, driver_cuda_max=cuda)
    ctx = ctx_for(matrix, f)
    for chk in ALL_CHECKS:
        assert chk(ctx).status in ("pass", "warn", "fail", "skip", "error")


def test_release_the_sources_disagree_on_warns_naming_both(matrix):
    """2.5.0: its GPU install guide lists CUDA 10.1/11.1/11.6, its release list labels the wheels Ascend/CPU."""
    cuda = CudaFacts(runtime_libs=[{"path": "/x/libcudart.so.11.6.55", "version": "11.6.55"}])
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.5.0", flavour="gpu"), cuda=cuda)))
    assert f.status == "warn" and "disagree" in f.summary
    assert "mindspore_gpu_install_pip_en.md" in f.summary and "release_list_en.md" in f.summary


def test_release_no_source_publishes_a_gpu_build_for_warns(matrix):
    cuda = CudaFacts(runtime_libs=[{"path": "/x/libcudart.so.11.6.55", "version": "11.6.55"}])
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("2.3.1", flavour="gpu"), cuda=cuda)))
    assert f.status == "warn" and "No source publishes a GPU (CUDA) build of MindSpore 2.3.1" in f.summary
    # the way out is steps: the newest release with a build for the CUDA 11.6 found
    assert any(s.startswith("pip install mindspore==2.10.0") for s in f.fix), f.fix


def test_cuda_the_checker_accepts_without_a_build_warns(matrix):
    """1.10.1's checker accepts 10.1/11.1/11.6; its guide lists 10.1/11.1: 11.6 is at most a warning."""
    cuda = CudaFacts(runtime_libs=[{"path": "/x/libcudart.so.11.6.55", "version": "11.6.55"}], cudnn_version="8.5.0")
    f = check_cuda_mindspore(ctx_for(matrix, _facts(ms=_ms("1.10.1", flavour="gpu"), cuda=cuda)))
    assert f.status == "warn" and "checker accepts CUDA 11.6" in f.summary


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
    assert "upgrade the NVIDIA driver to 510.39.01" in f.fix[0]
    # or keep 418.87: 2.2.14's unified wheel has a CUDA 10.1 plugin, which 418.87 runs (>= 418.39)
    keep = steps.split("or keep driver 418.87")[1]
    assert "cudatoolkit=10.1" in keep and "cudatoolkit=11" not in keep and "/2.2.14/MindSpore/unified/x86_64/mindspore-2.2.14-cp39-cp39-linux_x86_64.whl" in keep


def test_driver_between_nvidia_and_the_guide_warns_naming_both(matrix):
    f = check_nvidia_driver_cuda(ctx_for(matrix, _driver_facts("470.82.01", "11.6.55")))
    assert f.status == "warn" and "450.80.02" in f.summary and "510.39.01" in f.summary
    assert "MindSpore's GPU install guide" in f.summary


def test_driver_new_enough_passes(matrix):
    assert check_nvidia_driver_cuda(ctx_for(matrix, _driver_facts("535.247.01", "11.6.55"))).status == "pass"


def test_driver_without_runtime_judges_the_builds_of_the_release(matrix):
    """A planned 2.10.0 on 418.87: both its builds (11.1, 11.6) need 450.80.02+; the fix upgrades first, and names
    a release with a build 418.87 runs."""
    f = check_nvidia_driver_cuda(ctx_for(matrix, _driver_facts("418.87", None, ms="2.10.0", python="3.11")))
    assert f.status == "fail"
    assert f.fix[0].startswith("upgrade the NVIDIA driver")
    assert any("or keep driver 418.87" in s for s in f.fix)


def test_no_driver_skips(matrix):
    assert check_nvidia_driver_cuda(ctx_for(matrix, _driver_facts(None, "11.6.55"))).status == "skip"


def test_gpu_plan_with_an_unsupported_python_gets_gpu_releases_not_cann(matrix):
    cuda = CudaFacts(runtime_libs=[{"path": "(planned)", "version": "11.6"}])
    f = check_python_mindspore(ctx_for(matrix, _facts(ms=_ms("2.2.14", flavour="gpu"), cuda=cuda,
                                                      python="3.11")))
    assert f.status == "fail"
    assert not any("CANN" in s for s in f.fix)
    steps = "\n".join(f.fix)
    assert "conda create -n ms-gpu python=3.9" in steps and "cudatoolkit=11.6" in steps
    assert "or keep Python 3.11: MindSpore 2.10.0 has a GPU build for it" in steps
    assert "pip install mindspore==2.10.0" in steps


def test_version_lists_are_prose_not_python_lists():
    """"expects a CANN compiler version in ['7.6', '7.7']": a Python repr printed into a sentence."""
    import json
    import re

    from tests.helpers import run_cli
    from tests.helpers.snapshot_reports import all_reports

    proc = run_cli("matrix", "check", "--mindspore", "2.6.0", "--cann", "8.2.RC1")
    assert "expects a CANN compiler version in 7.6, 7.7, but" in " ".join(proc.stdout.split())
    assert "accepted_compilers: 7.6, 7.7 (from the matrix)" in proc.stdout
    repr_of_a_list = re.compile(r"\[\[?'|\{'")
    texts = [proc.stdout]
    for report in all_reports().values():
        texts.append(json.dumps(report.to_json()["findings"], ensure_ascii=False).replace('\\"', '"'))
    assert not [m.group(0) for t in texts for m in [repr_of_a_list.search(t)] if m], "a Python repr in a report"
    fw = [f.evidence["compatible_version_fw"] for r in all_reports().values() for f in r.findings
          if isinstance(f.evidence.get("compatible_version_fw"), str) and "from" in f.evidence["compatible_version_fw"]]
    assert fw and all(re.match(r"\[[\w.]+,[\w.]+\]", v) for v in fw), fw


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
    from ascend_doctor.checks.compat import check_nvidia_driver_cuda

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
