"""Cross-area behaviour of the whole report on the shipped fixtures (what a user reads)."""

from tests.helpers import fixture_path, run_json
from tests.helpers.i18n_asserts import assert_is_msg, assert_msg


def _by_id(report):
    return {f["id"]: f for f in report["findings"]}


def test_missing_mindspore_on_npu_node_names_a_release_for_the_installed_cann():
    proc, report = run_json("check", "--bundle", fixture_path("a2_healthy"))
    f = _by_id(report)["mindspore.installed"]
    assert f["status"] == "warn"
    # CANN 8.0.RC3: MindSpore's release list and install guide publish 2.4.0/2.4.1 with it (2.5.0's version check
    # also accepts its compiler 7.5, but that is no pairing). PyPI has no 2.4.1 (the matrix lists PyPI wheels
    # from 2.7.0 on), so the fix points to the download page, and the summary says the same.
    assert f["fix"][0].startswith("install MindSpore 2.4.1 from https://www.mindspore.cn/versions"), f["fix"]
    newest = assert_msg(f, "MindSpore {version} is the newest release published with {target}; it is {where}.",
                        version="2.4.1")
    assert_is_msg(newest.params["where"], "not on PyPI (download it from {url})", url="https://www.mindspore.cn/versions")
    # the other way is a labelled alternative, not a further step
    assert not any(step.startswith("or ") for step in f["fix"])
    assert any(a["why"] == "upgrade CANN" and a["steps"][0].startswith("install CANN ") for a in f["alternatives"])
    assert proc.returncode == 0  # a warning alone does not fail the default --fail-on


def test_fail_on_warn_turns_that_warning_into_exit_1():
    proc, _ = run_json("check", "--bundle", fixture_path("a2_healthy"), "--fail-on", "warn")
    assert proc.returncode == 1


def test_every_finding_names_a_known_area_and_problems_carry_fixes():
    from ascend_doctor.render.common import AREA_TITLES

    for name in ("a2_env_not_sourced", "two_cann_installs", "gpu_cuda_mismatch", "garbled_files", "infer_310p"):
        _, report = run_json("check", "--bundle", fixture_path(name))
        for f in report["findings"]:
            assert f["id"].split(".")[0] in AREA_TITLES, f["id"]
            if f["status"] == "fail":
                assert f["fix"], f"{name}: {f['id']} fails without a fix"


def test_preflight_accepts_the_smoke_options_and_skips_smoke_on_a_bundle():
    proc, report = run_json("preflight", "--bundle", fixture_path("a2_healthy"), "--smoke", "--budget", "300",
                            "--steps", "12")
    assert proc.returncode in (0, 1), proc.stderr
    smoke = [f for f in report["findings"] if f["id"].startswith("smoke.")]
    assert smoke and all(f["status"] == "skip" for f in smoke)
