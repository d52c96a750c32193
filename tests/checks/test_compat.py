"""compat.* checks of the Ascend stack other than MindSpore<->CANN (checks/compat.py; the CUDA ones:
test_compat_gpu.py), through CheckContext on facts built directly.

Driver / firmware values are the real version.info samples of compat_facts.md §3.1-3.2 and
ascend_formats.md §1.3-1.4 (HDK 23.0.7, 24.1.rc1, 24.1.rc3, 25.0.rc1.1, 25.3.rc1).
"""

import re

import pytest

from ascend_doctor.checks import CheckContext
from ascend_doctor.checks.compat import (
    check_cann_driver, check_custom_ops_cann, check_driver_firmware, check_firmware_min, check_python_mindspore,
)
from ascend_doctor.checks.compat_gpu import check_cuda_mindspore
from ascend_doctor.facts import CannInstall, CudaFacts, DriverFacts, Facts, FirmwareFacts, MindSporeFacts, PythonFacts
from ascend_doctor.matrix import load_bundled
from tests.helpers.i18n_asserts import assert_msg, deferring, find_msg

# run as doctor.evaluate runs them (words deferred): the asserts read message ids and parameters, not sentences
check_cann_driver, check_custom_ops_cann, check_driver_firmware, check_firmware_min, check_python_mindspore = map(
    deferring, (check_cann_driver, check_custom_ops_cann, check_driver_firmware, check_firmware_min,
                check_python_mindspore))


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
    step = assert_msg(f.fix[0], "{step}   # the firmware is the older of the two").params["step"]
    # the firmware that ships with HDK 24.1.rc1 (matrix hdk_firmware)
    assert_msg(step, "upgrade the firmware to the one from HDK {hdk} (the driver's release): firmware {firmware}",
               hdk="24.1.rc1", firmware="7.1.0.6.220")
    assert f.evidence["driver"] == "24.1.rc1" and f.evidence["firmware"] == "7.1.0.11.220"


def test_planned_driver_uses_the_matrix_sample_ranges(matrix):
    # No version.info lists (a planned install): the 24.1.rc3 driver sample's [7.0.0,7.5.99] decides.
    ok = check_driver_firmware(ctx_for(matrix, _facts(DriverFacts(installed=True, version="24.1.rc3"),
                                                      FirmwareFacts(installed=True, version="7.5.0.1.129"))))
    via_fw = check_driver_firmware(ctx_for(matrix, _facts(DriverFacts(installed=True, version="24.1.rc1"),
                                                          FirmwareFacts(installed=True, version="7.7.0.1.231"))))
    assert ok.status == "pass" and "matrix sample" in ok.evidence["compatible_version_fw"]
    # 7.7 firmware is outside 24.1.rc1's [7.0.0,7.2.99], but the 25.0.rc1.1 firmware lists [24.1,24.1.].
    assert via_fw.status == "pass"
    assert_msg(via_fw.summary, "Driver {driver} is inside firmware {firmware}'s range [{low}, {high}] (any {low}.*).",
               driver="24.1.rc1", firmware="7.7.0.1.231", low="24.1", high="24.1.")


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
    assert f.status == "fail"
    assert_msg(f.summary, "Firmware {firmware} is older than 6.4, which no current driver accepts (Huawei's first "
               "rule; see {check}).", firmware="6.3.0.1.241")


# --- CANN <-> driver ---

def _cann(release, compiler=None, innerversion=None):
    return CannInstall(root="/usr/local/Ascend/ascend-toolkit/latest", kind="toolkit", release=release,
                       compiler_version=compiler, innerversion=innerversion, active=True)


def test_cann_with_its_paired_hdk_passes(matrix):
    f = check_cann_driver(ctx_for(matrix, _facts(DriverFacts(installed=True, **DRV_24_1_RC3),
                                                 cann=_cann("8.0.RC3", "7.5.0.1.129", "V100R001C19SPC001B155"))))
    assert f.status == "pass" and "24.1.RC3" in f.summary
    assert_msg(f.evidence["innerversion_hint"], "CANN innerversion {code} is in the driver's compatible_version list (a "
               "heuristic; Huawei does not document the rule)", code="V100R001C19")


def test_cann_stated_incompatible_with_hdk_fails(matrix):
    f = check_cann_driver(ctx_for(matrix, _facts(DriverFacts(installed=True, version="25.0.rc1.1"),
                                                 cann=_cann("9.1.0", "9.1.0"))))
    assert f.status == "fail" and f.pitfall == "P07" and "NOT" in f.summary
    assert any("26.0.RC1" in step or "26.1.0" in step for step in f.fix)


def test_driver_older_than_the_release_notes_list_fails(matrix):
    f = check_cann_driver(ctx_for(matrix, _facts(DriverFacts(installed=True, version="24.1.0"),
                                                 cann=_cann("8.5.0", "8.5.0.2.220"))))
    assert f.status == "fail"
    assert_msg(f.summary, "CANN {cann}'s release notes list HDK {hdk}; driver {driver} is older than all of them.",
               cann="8.5.0", driver="24.1.0")


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


# --- bundled custom ops (P22) ---

def test_custom_ops_built_for_another_cann_warn(matrix):
    ms = _ms("2.7.1", flavour="ascend", custom_ops_cann={"custom_ascendc_910b": "8.3.T7.0.B052"})
    f = check_custom_ops_cann(ctx_for(matrix, _facts(ms=ms, cann=_cann("8.2.RC1", "8.2.0.0.201"))))
    assert f.status == "warn" and f.pitfall == "P22"
    # two ways: the MindSpore built with this CANN (a pip install, the fix: 2.7.0 was built with an 8.2 CANN) or
    # the CANN these operators were built with (a labelled alternative)
    assert f.fix[0].startswith("pip install mindspore==2.7.0")
    assert any("CANN 8.3.RC1" in a["steps"][0] for a in f.alternatives)


@pytest.mark.parametrize("driver,named", [("24.1.rc3", True), ("25.3.rc1", False), (None, True)])
def test_a_custom_ops_cann_install_names_the_hdk_that_cann_needs(matrix, driver, named):
    """Audit F24: 'install CANN 8.3.RC1' on driver 24.1.rc3 (no source pairs them) says which HDK 8.3.RC1 needs;
    on a driver a source pairs with it, the CANN alone."""
    ms = _ms("2.7.1", flavour="ascend", custom_ops_cann={"custom_ascendc_910b": "8.3.T7.0.B052"})
    drv = DriverFacts(installed=True, version=driver, package_version=driver) if driver else None
    f = check_custom_ops_cann(ctx_for(matrix, _facts(ms=ms, cann=_cann("8.2.RC2", "8.2.0.0.201"), driver=drv)))
    cann = [s for s in f.fix + [x for a in f.alternatives for x in a["steps"]] if s.startswith("install CANN")]
    need = [p for r in matrix.hdk_for_cann("8.3.RC1") if r["relation"] == "paired" for p in r["hdk"]]
    assert cann and need
    for step in cann:
        assert ("with Ascend HDK " + need[0] in step) == named, step


def test_custom_ops_same_cann_pass(matrix):
    ms = _ms("2.10.0", custom_ops_cann={"custom_ascendc_910b": "9.1.0"})
    f = check_custom_ops_cann(ctx_for(matrix, _facts(ms=ms, cann=_cann("9.1.0", "9.1.0"))))
    assert f.status == "pass"


def test_custom_ops_fall_back_to_the_matrix(matrix):
    f = check_custom_ops_cann(ctx_for(matrix, _facts(ms=_ms("2.10.0"), cann=_cann("8.5.0", "8.5.0.2.220"))))
    assert f.status == "warn"
    built = assert_msg(f.evidence["custom_ops_built_with"], "{values} (from {source})",
                       values="custom_ascendc_910b 9.1.0")
    assert_msg(built.params["source"], "the matrix [{source}]")  # named once, by its source


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




def test_gpu_plan_with_an_unsupported_python_gets_gpu_releases_not_cann(matrix):
    cuda = CudaFacts(runtime_libs=[{"path": "(planned)", "version": "11.6"}])
    f = check_python_mindspore(ctx_for(matrix, _facts(ms=_ms("2.2.14", flavour="gpu"), cuda=cuda,
                                                      python="3.11")))
    assert f.status == "fail"
    assert not any("CANN" in s for s in f.fix)
    steps = "\n".join(f.fix)
    # the node's CUDA 11.6 is used: the cuDNN alone, no second cudatoolkit=11.6 (audit I #39)
    assert "conda create -n ms-gpu python=3.9" in steps and "cudatoolkit=11.6" not in steps
    assert_msg(f.fix, "conda install -c conda-forge {cudnn} --no-deps -y   # cuDNN only: this node's CUDA {cuda} "
               "runtime is used, not installed again", cuda="11.6")
    why = assert_msg(f.fix, "or {why}:").params["why"]
    assert_msg(why, "keep Python {python}: MindSpore {version} has a GPU build for it (CUDA {cuda})", python="3.11",
               version="2.10.0")
    assert "pip install mindspore==2.10.0" in steps


def test_version_lists_are_prose_not_python_lists():
    """"expects a CANN compiler version in ['7.6', '7.7']": a Python repr printed into a sentence."""
    import json
    import re

    from tests.helpers import run_cli, run_json
    from tests.helpers.snapshot_reports import all_reports

    _, data = run_json("matrix", "check", "--mindspore", "2.6.0", "--cann", "8.2.RC1")
    [f] = [f for f in data["findings"] if f["id"] == "compat.mindspore_cann"]
    assert_msg(f, "MindSpore {version} expects a CANN compiler version in {accepted}, but {cann} has compiler {compiler}.",
               accepted="7.6, 7.7", compiler="8.2")
    assert_msg(f, "{values} (from {source})", values="7.6, 7.7", source="the matrix")
    repr_of_a_list = re.compile(r"\[\[?'|\{'")
    texts = [run_cli("matrix", "check", "--mindspore", "2.6.0", "--cann", "8.2.RC1").stdout]
    for report in all_reports().values():
        texts.append(json.dumps(report.to_json()["findings"], ensure_ascii=False).replace('\\"', '"'))
    assert not [m.group(0) for t in texts for m in [repr_of_a_list.search(t)] if m], "a Python repr in a report"
    fw = [f.evidence["compatible_version_fw"] for r in all_reports().values() for f in r.findings
          if isinstance(f.evidence.get("compatible_version_fw"), str) and "from" in f.evidence["compatible_version_fw"]]
    assert fw and all(re.match(r"\[[\w.]+,[\w.]+\]", v) for v in fw), fw


def test_driver_note_joins_the_hdk_releases_in_the_run_language(matrix):
    """The HDK releases a CANN pairs with are alternatives joined by the catalog's " or ": Chinese said "或" around
    every other word of the note but "or" between the releases (issue 23 item 1)."""
    from ascend_doctor import i18n
    from ascend_doctor.checks.compat import driver_note, needed_hdk
    from ascend_doctor.i18n_text import worded

    cann = next(c for c in sorted({r["cann"] for r in matrix.data["cann_hdk"]}) if len(needed_hdk(matrix, c)) > 1)
    need = needed_hdk(matrix, cann)
    for driver in ("1.0.0", None):
        note = deferring(driver_note)(matrix, cann, driver)
        hdk = note.params["hdk"]
        assert worded(hdk) == " or ".join(need) and str(note) == driver_note(matrix, cann, driver)
        i18n.set_lang("zh")
        try:
            assert " 或 ".join(need) in worded(note) and " or " not in worded(note)
        finally:
            i18n.set_lang("en")
