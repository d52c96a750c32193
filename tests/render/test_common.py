"""The version table at the top and the findings below come from the same facts, each fact once."""

import re

import pytest

from ascend_doctor.render.common import facts_summary

from tests.helpers import fixture_path, run_cli, run_json
from tests.helpers.snapshot_reports import all_reports, snapshot_dirs


def _toolkit_only(make_snapshot):
    """This machine's layout: a CUDA 13.0 toolkit from NVIDIA's wheels, reachable through four links; no driver."""
    return make_snapshot(
        files={"/usr/local/cuda-13.0/lib/libcudart.so.13": "",
               "/usr/local/cuda-13.0/dist-info/nvidia_cuda_runtime-13.0.96.dist-info/METADATA": "Version: 13.0.96\n"},
        symlinks={"/usr/local/cuda": "cuda-13.0", "/usr/local/cuda-13.0/lib64": "lib",
                  "/usr/local/cuda-13.0/targets/x86_64-linux/lib": "../../lib"})


def test_a_toolkit_without_a_driver_is_shown_as_unused_and_listed_once(make_snapshot):
    snap = _toolkit_only(make_snapshot)
    text = run_cli("check", "--bundle", snap, "--no-color").stdout
    assert re.search(r"\n  CUDA toolkit +13\.0 \(no NVIDIA driver: unused\)\n", text), text
    assert "CUDA runtime" not in text and "NVIDIA driver  not found" not in text
    _, data = run_json("check", "--bundle", snap)
    libs = data["facts"]["cuda"]["runtime_libs"]
    assert len(libs) == 1 and libs[0]["version"] == "13.0.96", libs
    assert len(libs[0]["aliases"]) == 3 and libs[0]["loadable"] == "no"
    assert len(data["facts"]["cuda"]["toolkits"]) == 1


def test_the_driver_row_says_what_the_driver_finding_says():
    _, data = run_json("check", "--bundle", fixture_path("gpu_driver_mismatch"))
    f = {f["id"]: f for f in data["findings"]}["gpu.driver_module_match"]
    row = dict(facts_summary(data["facts"]))["NVIDIA driver"]
    assert f["status"] == "fail" and "not found" not in row
    assert f["evidence"]["kernel module (/proc/driver/nvidia/version)"] in row
    assert f["evidence"]["NVML library version"] in row and "mismatch" in row


@pytest.mark.parametrize("name", sorted(snapshot_dirs()))
def test_each_library_once_and_the_header_never_denies_a_driver_the_facts_show(name):
    facts = all_reports()[name].to_json()["facts"]
    cuda = facts["cuda"]
    for key in ("runtime_libs", "cudnn_libs"):
        paths = [e["path"] for e in cuda[key]] + [a for e in cuda[key] for a in e.get("aliases", [])]
        assert len(paths) == len(set(paths)), (key, paths)
    reals = [e["realpath"] for e in cuda["runtime_libs"]]
    assert len(reals) == len(set(reals))
    rows = dict(facts_summary(facts))
    shown = rows.get("NVIDIA driver", "")
    for v in (cuda["driver_version"], cuda["kernel_module_version"], cuda["nvml_library_version"]):
        if v:
            assert v in shown, (name, v, rows)
    assert "not found" not in shown


def test_the_header_reads_typed_facts_from_a_report_of_any_age():
    """facts_summary reads the typed Facts: a report's JSON and the Facts give the same rows; a report from
    before facts.planned (extra.planned) still shows a planned install; facts of the wrong shape show as
    unknown instead of stopping the renderer."""
    from ascend_doctor.facts import Facts

    for name, report in sorted(all_reports().items()):
        data = report.to_json()["facts"]
        assert facts_summary(data) == facts_summary(Facts.from_json(data)), name
    old = {"extra": {"planned": True}, "mindspore": {"version": "2.6.0"}, "system": {"arch": "aarch64"}}
    assert dict(facts_summary(old)) == {"Target": "aarch64 (planned)", "MindSpore": "2.6.0 (planned)"}
    assert dict(facts_summary({"npu": {"devices": "garbled"}}))["MindSpore"] == "not installed in this Python"


def test_a_plan_step_in_words_is_tagged_as_done_by_hand_at_its_level():
    """issue 27 (review 2): "[Python packages] install MindSpore 2.4.1 from https://..." is no command to paste;
    it says so ("by hand") and keeps its level; a command keeps its level alone; a sentence for this shell is
    by hand only."""
    from types import SimpleNamespace

    from ascend_doctor.render.common import plan_step_tag

    def step(do, level):
        return SimpleNamespace(do=do, level=level, needs_root=False, reboot=False)

    assert plan_step_tag(step("install MindSpore 2.4.1 from https://www.mindspore.cn/versions", "python")) == \
        "[by hand, Python packages]"
    assert plan_step_tag(step("pip install mindspore==2.7.2", "python")) == "[Python packages]"
    assert plan_step_tag(step("open a new shell and run ascend-doctor again", "shell")) == "[by hand]"
