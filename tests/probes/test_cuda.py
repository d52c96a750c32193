"""CUDA probe: real §6 samples parsed to the numbers they hold, bad input recorded, never raised."""

from tests.helpers import fixture_path

from ascend_doctor.host import SnapshotHost
from ascend_doctor.probes import ProbeOptions
from ascend_doctor.probes.cuda import (parse_cuda_version_json, parse_cudnn_header, parse_nvcc_release,
                                       parse_nvidia_smi_banner, parse_nvidia_smi_query, parse_proc_driver_version,
                                       probe_cuda)

# reference/ascend_formats.md §6.1
SMI_550 = """+-----------------------------------------------------------------------------------------+
| NVIDIA-SMI 550.40.07              Driver Version: 550.40.07      CUDA Version: 12.4     |
|-----------------------------------------+------------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |
"""
SMI_515 = """+-----------------------------------------------------------------------------+
| NVIDIA-SMI 515.57       Driver Version: 515.57       CUDA Version: 11.7     |
"""
SMI_381 = "| NVIDIA-SMI 381.22                 Driver Version: 381.22                    |\n"
# §6.2
PROC_PROPRIETARY = ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  384.98  Thu Oct 26 15:16:01 PDT 2017\n"
                    "GCC version:  gcc version 7.2.0 (Ubuntu 7.2.0-8ubuntu3) \n")
PROC_OPEN = ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  565.57.01  Release Build  "
             "(dvs-builder@U16-A24-9-2)  Thu Oct 10 12:15:00 UTC 2024\n"
             "GCC version:  gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04)\n")
PROC_JETSON = "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  35.3.1  Release Build  (...)\n"
# §6.3
NVCC_11 = """nvcc: NVIDIA (R) Cuda compiler driver
Copyright (c) 2005-2020 NVIDIA Corporation
Built on Thu_Jun_11_22:26:38_PDT_2020
Cuda compilation tools, release 11.0, V11.0.194
Build cuda_11.0_bu.TC445_37.28540450_0
"""
CUDNN_H = "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 0\n#define CUDNN_PATCHLEVEL 4\n"
VERSION_JSON = """{
   "cuda" : {
      "name" : "CUDA SDK",
      "version" : "11.6.20220110"
   },
   "cuda_cudart" : {
      "name" : "CUDA Runtime (cudart)",
      "version" : "11.6.55"
   }
}"""


def test_nvidia_smi_banner_both_layouts_and_old_driver():
    assert parse_nvidia_smi_banner(SMI_550) == ("550.40.07", "12.4")
    assert parse_nvidia_smi_banner(SMI_515) == ("515.57", "11.7")
    assert parse_nvidia_smi_banner(SMI_381) == ("381.22", None)  # no CUDA Version field before ~410


def test_garbled_banner_is_not_parsed():
    assert parse_nvidia_smi_banner("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver") is None
    assert parse_nvidia_smi_banner("\x00\x01\xff garbage") is None


def test_proc_driver_version_both_module_formats():
    assert parse_proc_driver_version(PROC_PROPRIETARY) == ("384.98", "proprietary")
    assert parse_proc_driver_version(PROC_OPEN) == ("565.57.01", "open")  # the old regex broke on "for x86_64"
    assert parse_proc_driver_version(PROC_JETSON) == ("35.3.1", "open")
    assert parse_proc_driver_version("GCC version: 7.2.0\n") is None


def test_nvcc_release_and_cudnn_header_and_version_json():
    assert parse_nvcc_release(NVCC_11) == "11.0"
    assert parse_nvcc_release("Cuda compilation tools, release 10.2, V10.2.89\n") == "10.2"  # no Build line in 10.x
    assert parse_nvcc_release("nvcc: command not found") is None
    assert parse_cudnn_header(CUDNN_H) == "8.0.4"
    assert parse_cudnn_header("\x7fELF\x00\x00 CUDNN_MAJOR garbage") is None
    assert parse_cuda_version_json(VERSION_JSON) == "11.6.20220110"
    assert parse_cuda_version_json("{not json") is None
    assert parse_cuda_version_json('{"cuda_cudart": {"version": "11.6.55"}}') is None


def test_query_gpu_rows_and_bad_row():
    gpus, errors = parse_nvidia_smi_query("0, NVIDIA A100-SXM4-80GB, 81920 MiB, 550.40.07, 00000000:07:00.0\n"
                                          "1, Tesla V100, [N/A], 550.40.07, 00000000:08:00.0\n"
                                          "garbled line\n")
    assert [g["memory_total_mb"] for g in gpus] == [81920, None]
    assert gpus[0]["name"] == "NVIDIA A100-SXM4-80GB" and gpus[0]["bus_id"] == "00000000:07:00.0"
    assert len(errors) == 2 and "line 3" in errors[1] and "memory.total" in errors[0]


def test_probe_gpu_node_fixture_numbers():
    facts = probe_cuda(SnapshotHost(fixture_path("gpu_node")), ProbeOptions())
    assert facts.driver_version == "550.40.07" and facts.driver_cuda_max == "12.4"
    assert facts.kernel_module_version == "550.40.07" and facts.kernel_module_flavour == "proprietary"
    cudart = {e["version"] for e in facts.runtime_libs}
    assert cudart == {"11.6.55"}
    assert any(e["loadable"] == "yes" and e["dir"] == "/usr/local/cuda-11.6/lib64" for e in facts.runtime_libs)
    assert facts.toolkit_version == "11.6.20220110" and facts.toolkit_root == "/usr/local/cuda-11.6"
    assert facts.nvcc_version == "11.6"
    assert facts.cudnn_version == "8.5.0" and facts.cudnn_source.endswith("cudnn_version.h")
    assert facts.gpus[0]["memory_total_mb"] == 81920
    assert facts.dev_nodes == ["/dev/nvidia0"]
    assert {e["version"] for e in facts.userspace_driver_libs} == {"550.40.07"}
    assert facts.errors == []


def test_probe_machine_without_nvidia_is_quiet(make_snapshot):
    facts = probe_cuda(SnapshotHost(make_snapshot(files={"/etc/os-release": "ID=debian\n"})), ProbeOptions())
    assert facts.driver_version is None and facts.runtime_libs == [] and facts.gpus == []
    assert "not available" in facts.nvidia_smi_error
    assert facts.errors == []  # no NVIDIA is a fact, not a fault


def test_nvml_mismatch_and_failing_smi_recorded(make_snapshot):
    snap = make_snapshot(commands=[{"argv": ["nvidia-smi"], "rc": 18,
                                    "stdout": "Failed to initialize NVML: Driver/library version mismatch\n"
                                              "NVML library version: 580.178\n"}],
                         files={"/proc/driver/nvidia/version": PROC_OPEN})
    facts = probe_cuda(SnapshotHost(snap), ProbeOptions())
    assert facts.nvml_mismatch and facts.nvml_library_version == "580.178"
    assert facts.nvidia_smi_failure.startswith("Failed to initialize NVML")
    assert facts.kernel_module_version == "565.57.01"


def test_timeout_and_garbled_output_do_not_raise(make_snapshot):
    snap = make_snapshot(commands=[{"argv": ["nvidia-smi"], "rc": None, "error": "timeout"},
                                   {"argv": ["nvcc", "--version"], "rc": 0, "stdout": "\x00\x01binary\xff"}],
                         files={"/proc/driver/nvidia/version": "\x00\x00ELF garbage",
                                "/usr/local/cuda-11.6/version.json": "{broken",
                                "/usr/local/cuda-11.6/include/cudnn_version.h": "\x7fELF\x00\x02\x01 not a header"})
    facts = probe_cuda(SnapshotHost(snap), ProbeOptions())
    assert "timeout" in facts.nvidia_smi_error
    joined = "\n".join(facts.errors)
    assert "/proc/driver/nvidia/version" in joined
    assert "/usr/local/cuda-11.6/version.json" in joined
    assert "cudnn_version.h" in joined and "CUDNN_MAJOR" in joined
    assert "nvcc --version" in joined
    assert facts.cudnn_version is None and facts.toolkit_version is None


def test_conda_runtime_off_the_loader_path_and_pip_soname_runtime(make_snapshot):
    sp = "/opt/conda/envs/ms/lib/python3.9/site-packages"
    snap = make_snapshot(
        files={"/opt/conda/envs/ms/lib/libcudart.so.11.3.109": "",
               f"{sp}/nvidia/cuda_runtime/lib/libcudart.so.12": "",
               f"{sp}/nvidia_cuda_runtime_cu12-12.1.105.dist-info/METADATA": "Name: nvidia-cuda-runtime-cu12\n"},
        env={"HOME": "/root"},
        python={"version": "3.9.18", "executable": "/opt/conda/envs/ms/bin/python", "site_packages": [sp]})
    facts = probe_cuda(SnapshotHost(snap), ProbeOptions())
    by_version = {e["version"]: e for e in facts.runtime_libs}
    assert by_version["11.3.109"]["kind"] == "conda" and by_version["11.3.109"]["loadable"] == "no"
    assert by_version["12.1.105"]["kind"] == "pip"  # exact version from the wheel's dist-info, not "12"


def test_ld_so_conf_include_makes_toolkit_loadable_and_debian_cudnn_header(make_snapshot):
    snap = make_snapshot(files={
        "/etc/ld.so.conf": "include /etc/ld.so.conf.d/*.conf\n",
        "/etc/ld.so.conf.d/cuda.conf": "/usr/local/cuda-11.8/targets/x86_64-linux/lib\n",
        "/usr/local/cuda-11.8/targets/x86_64-linux/lib/libcudart.so.11.8.89": "",
        "/usr/include/x86_64-linux-gnu/cudnn_version_v8.h": "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 6\n"
                                                            "#define CUDNN_PATCHLEVEL 0\n"})
    facts = probe_cuda(SnapshotHost(snap), ProbeOptions())
    assert [(e["version"], e["loadable"]) for e in facts.runtime_libs] == [("11.8.89", "yes")]
    assert facts.cudnn_version == "8.6.0" and facts.cudnn_source.endswith("cudnn_version_v8.h")


def test_cudnn_from_library_name_when_no_header(make_snapshot):
    snap = make_snapshot(files={"/usr/lib/x86_64-linux-gnu/libcudnn.so.7.6.5": ""})
    facts = probe_cuda(SnapshotHost(snap), ProbeOptions())
    assert facts.cudnn_version == "7.6.5" and facts.cudnn_source.endswith("libcudnn.so.7.6.5")
