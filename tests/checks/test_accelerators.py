"""checks/_accelerators.py: the NVIDIA driver's state is judged here; render.common only words it."""

import pytest

from ascend_doctor import i18n
from ascend_doctor.checks._accelerators import nvidia_driver_state
from ascend_doctor.facts import CudaFacts
from ascend_doctor.render.common import nvidia_driver_text


@pytest.mark.parametrize("fields,state,text", [
    ({}, None, None),
    ({"driver_version": "550.54", "kernel_module_version": "550.54"}, ("version", {"version": "550.54"}), "550.54"),
    ({"driver_version": "550.54", "kernel_module_version": "535.1"}, "module_mismatch",
     "550.54 (kernel module 535.1: mismatch)"),
    ({"nvml_mismatch": True, "kernel_module_version": "580.1"}, "nvml_mismatch",
     "kernel module 580.1, user-space (NVML) unknown: mismatch, nvidia-smi fails"),
    ({"kernel_module_version": "580.1", "nvidia_smi_failure": "No devices were found"}, "module_smi_said",
     "kernel module 580.1 (nvidia-smi: No devices were found)"),
    ({"kernel_module_version": "580.1"}, "module", "kernel module 580.1"),
    ({"userspace_driver_libs": [{"version": "580.2"}, {"version": "575.1"}, {}]}, "userspace_only",
     "user-space libraries 575.1, 580.2, no kernel module loaded"),
    ({"nvidia_smi_unusable": "timed out"}, "smi_said", "unknown (nvidia-smi: timed out)"),
    ({"dev_nodes": ["/dev/nvidia0"]}, "no_answer", "unknown (/dev/nvidia* present, nvidia-smi did not answer)"),
])
def test_each_driver_state_is_judged_once_and_worded_by_the_renderer(fields, state, text):
    cuda = CudaFacts(**fields)
    got = nvidia_driver_state(cuda)
    assert (got if state is None or isinstance(state, tuple) else got[0]) == state
    assert nvidia_driver_text(cuda) == text


def test_the_wording_is_in_the_run_language():
    i18n.set_lang("zh")
    try:
        worded = nvidia_driver_text(CudaFacts(kernel_module_version="580.1"))
    finally:
        i18n.set_lang("en")
    assert "580.1" in worded and worded != "kernel module 580.1"
