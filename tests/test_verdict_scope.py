"""The verdict line says what was checked: "healthy" on a host without an Ascend stack says so."""

import re

import pytest

from ascend_doctor.render import render

from tests.helpers import fixture_path, run_cli, run_json
from tests.helpers.snapshot_reports import all_reports, snapshot_dirs

CPU = "no Ascend NPU stack found — checked as a CPU host"
GPU = "no Ascend NPU stack found — checked as a GPU host"
ASCEND = "checked as an Ascend NPU host"


def _summary(text):
    return " ".join(text[text.index("Summary:"):].split())


@pytest.mark.parametrize("name, scope", [("cpu_only", CPU), ("python_unsupported", CPU), ("gpu_node", GPU),
                                         ("gpu_driver_mismatch", GPU), ("a2_healthy", ASCEND), ("infer_310p", ASCEND),
                                         ("distributed_910b_node", ASCEND)])
def test_the_verdict_line_names_the_kind_of_host(name, scope):
    proc = run_cli("check", "--bundle", fixture_path(name), "--no-color")
    assert _summary(proc.stdout).endswith(f"({scope}).")
    assert scope in render(all_reports()[name], "markdown")


@pytest.mark.parametrize("name", sorted(snapshot_dirs()))
def test_no_report_ends_healthy_without_saying_what_it_checked(name):
    report = all_reports()[name]
    line = _summary(render(report, "text"))
    assert re.search(r"— (healthy|warnings|problems found) \((no Ascend NPU stack found — checked as a (CPU|GPU) "
                     r"host|checked as an Ascend NPU( and NVIDIA GPU)? host)\)\.$", line), line
    assert report.to_json()["host"]["checked_as"] in line


def test_a_cuda_toolkit_without_a_driver_is_a_cpu_host(make_snapshot):
    """A toolkit under /usr/local/cuda is no GPU: the report must not claim it checked a GPU host."""
    snap = make_snapshot(files={"/usr/local/cuda-13.0/version.json": '{"cuda": {"version": "13.0.96"}}',
                                "/usr/local/cuda-13.0/lib64/libcudart.so.13.0.96": ""},
                         symlinks={"/usr/local/cuda": "/usr/local/cuda-13.0"})
    proc, data = run_json("check", "--bundle", snap)
    assert data["host"]["checked_as"] == CPU
