"""data/kb/families_gpu_r19.json: the GPU stack's own messages (round 19): flash-attn's input checks, Triton's
shared-memory limit, NVRTC's builtins library, apex's CUDA version check, ROCm/HIP (no code object for the GPU's gfx
target, rocBLAS's Tensile files, the HSA runtime's memory faults, the amdgpu/KFD driver not reachable, no GPU visible
to HIP), PyTorch's NCCL heartbeat monitor and communicator teardown, SGLang's KV cache pool, the container toolkit's
runtime, nvidia-smi's GPU handle, bitsandbytes' CUDA setup, TensorRT's engine version, onnxruntime without the
execution provider asked for and TensorFlow without its GPU libraries (the last two warnings). Each entry reads members
its examples do not show, says the member in its title, stays quiet on ordinary lines of the same tools and on every
clean corpus excerpt, and one line is one problem of the family. The entries of other parts this part extended read
their new members (cuDNN's 'no algorithm' lines now say so instead of a made-up status name; the CUDA library not found
is named)."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_gpu_r19")
EXTENDED = ["CUDA_DEVICE_OOM", "NVCC_GPU_ARCH_UNSUPPORTED", "CUDNN_STATUS_FAILED", "CUDA_LIB_NOT_FOUND"]
FAMILY = IDS + EXTENDED + ["CUDA_NO_KERNEL_IMAGE_FOR_GPU", "CUDA_NO_GPU_VISIBLE", "LIBRARY_GPU_CHECK_FAILED",
                           "TORCH_EXTENSION_CUDA_VERSION_MISMATCH", "TORCH_NCCL_WATCHDOG_TIMEOUT",
                           "VLLM_NO_MEMORY_FOR_CACHE_BLOCKS", "NVIDIA_DRIVER_NOT_LOADED", "NVIDIA_GPU_LOST",
                           "NVIDIA_CONTAINER_CLI_FAILED", "DOCKER_GPU_DEVICE_DRIVER_MISSING", "LIBRARY_GPU_CHECK_FAILED",
                           "NCCL_CALL_FAILED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) == 20 and "ROCM_NO_CODE_OBJECT_FOR_GPU" in IDS and "FLASH_ATTN_INPUT_CHECK_FAILED" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_gpu_r19.json" and not sig.ascend_fd
        assert sig.kind == ("wrapper" if sid == "TORCH_NCCL_COMMUNICATOR_ABORTED" else "root"), sid
        warn = {"ORT_EXECUTION_PROVIDER_NOT_IN_BUILD", "TF_GPU_LIBRARIES_NOT_LOADED"}
        assert not sig.fallback and sig.severity == ("warn" if sid in warn else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # flash-attn: each of its input checks, forward and backward
    ("RuntimeError: FlashAttention backward only supports head dimension at most 256", "FLASH_ATTN_INPUT_CHECK_FAILED",
     "`FlashAttention backward only supports head dimension at most 256`"),
    ("RuntimeError: query, key, value, and out_ must have a head_size that is a multiple of 8",
     "FLASH_ATTN_INPUT_CHECK_FAILED", "multiple of 8"),
    ("RuntimeError: Number of heads in key/value must divide number of heads in query", "FLASH_ATTN_INPUT_CHECK_FAILED",
     "must divide number of heads"),
    ("RuntimeError: This flash attention build does not support softcap.", "FLASH_ATTN_INPUT_CHECK_FAILED",
     "does not support softcap`"),
    # Triton's shared-memory check, both exception paths and a vLLM-prefixed line
    ("triton.runtime.autotuner.OutOfResources: out of resource: shared memory, Required: 663808, Hardware limit: 101376. "
     "Reducing block sizes or `num_stages` may help.", "TRITON_SHARED_MEMORY_OUT_OF_RESOURCES",
     "required 663808, hardware limit 101376"),
    ("ERROR 03-01 10:00:00 [core.py:400] triton.runtime.errors.OutOfResources: out of resource: shared memory, "
     "Required: 81920, Hardware limit: 65536. Reducing block sizes or `num_stages` may help.",
     "TRITON_SHARED_MEMORY_OUT_OF_RESOURCES", "hardware limit 65536"),
    # NVRTC's builtins, each of its two lines and the status name
    ("RuntimeError: nvrtc: error: failed to open libnvrtc-builtins.so.11.7.", "NVRTC_BUILTINS_LIBRARY_NOT_FOUND",
     "`libnvrtc-builtins.so.11.7`"),
    ("  Make sure that libnvrtc-builtins.so.12.4 is installed correctly.", "NVRTC_BUILTINS_LIBRARY_NOT_FOUND",
     "`libnvrtc-builtins.so.12.4`"),
    ("cupy_backends.cuda.libs.nvrtc.NVRTCError: NVRTC_ERROR_BUILTIN_OPERATION_FAILURE (7)",
     "NVRTC_BUILTINS_LIBRARY_NOT_FOUND", "builtins library"),
    # apex
    ("RuntimeError: Cuda extensions are being compiled with a version of Cuda that does not match the version used to "
     "compile Pytorch binaries.  Pytorch binaries were compiled with Cuda 11.7.", "APEX_CUDA_EXTENSION_VERSION_MISMATCH",
     "(11.7)"),
    # ROCm / HIP
    ("    amdgcn-amd-amdhsa--gfx1151:xnack- - [Not Found]", "ROCM_NO_CODE_OBJECT_FOR_GPU",
     "(`amdgcn-amd-amdhsa--gfx1151:xnack-`)"),
    ("HIP error: hipErrorNoBinaryForGpu: Unable to find code object for all current devices!",
     "ROCM_NO_CODE_OBJECT_FOR_GPU", "other gfx architectures"),
    ("RuntimeError: HIP error: invalid device function", "ROCM_NO_CODE_OBJECT_FOR_GPU", "`invalid device function`"),
    ("rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory for GPU "
     "arch : gfx1031", "ROCBLAS_TENSILE_LIBRARY_MISSING_FOR_ARCH", "`gfx1031`"),
    ("rocBLAS error: Cannot read /opt/venv/lib/python3.12/site-packages/torch/lib/rocblas/library/TensileLibrary.dat: "
     "Illegal seek for GPU arch : gfx1013", "ROCBLAS_TENSILE_LIBRARY_MISSING_FOR_ARCH", "`Illegal seek`"),
    ("Memory access fault by GPU node-1 (Agent handle: 0x55d0c0e3c6b0) on address 0x7f1c2a000000(may not be exact "
     "address). Reason: Write access to a read-only page.", "ROCM_GPU_MEMORY_ACCESS_FAULT",
     "reason: Write access to a read-only page"),
    ("Memory access fault by GPU node-3 (Agent handle: 0x152e220) on address (nil). Reason: Page not present or "
     "supervisor privilege.", "ROCM_GPU_MEMORY_ACCESS_FAULT", "node-3"),
    ("Unable to open /dev/kfd read-write: No such file or directory", "ROCM_KERNEL_DRIVER_NOT_REACHABLE",
     "`Unable to open /dev/kfd read-write: No such file or directory`"),
    ("ERROR:root:Driver not initialized (amdgpu not found in modules)", "ROCM_KERNEL_DRIVER_NOT_REACHABLE",
     "amdgpu not found in modules"),
    ("  what():  hipGetDeviceCount failed with error: no ROCm-capable device is detected", "ROCM_NO_GPU_VISIBLE",
     "`no ROCm-capable device is detected`"),
    ("RuntimeError: HIP error: hipErrorNoDevice", "ROCM_NO_GPU_VISIBLE", "`hipErrorNoDevice`"),
    # PyTorch's NCCL heartbeat monitor, its two lines
    ("[rank7]:[E1206 10:11:12.123456 ProcessGroupNCCL.cpp:1423] [PG ID 0 PG GUID 0(default_pg) Rank 7] Heartbeat "
     "monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=3",
     "TORCH_NCCL_HEARTBEAT_MONITOR_TIMEOUT", "watchdog thread made no progress"),
    ("[rank7]:[F1206 10:11:12.123 ProcessGroupNCCL.cpp:1169] [PG 0 Rank 7] ProcessGroupNCCL's watchdog got stuck for "
     "1200 seconds without making progress in monitoring enqueued collectives.", "TORCH_NCCL_HEARTBEAT_MONITOR_TIMEOUT",
     "for 1200 seconds"),
    # SGLang
    ("RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. Current value: "
     "mem_fraction_static=0.45", "SGLANG_NO_MEMORY_FOR_KV_CACHE", "(mem_fraction_static=0.45)"),
    ("[2026-01-02 10:00:00 TP0] Scheduler hit an exception: RuntimeError: Not enough memory. Please try to increase "
     "--mem-fraction-static.", "SGLANG_NO_MEMORY_FOR_KV_CACHE", "KV cache pool"),
    # PyTorch's NCCL teardown: the reason said, the watchdog line left to the watchdog entry
    ("torch.distributed.DistBackendError: NCCL communicator was aborted on rank 5. Original reason for failure was: "
     "Work: WorkNCCL(OpType=BROADCAST, TensorShape=[8], Timeout(ms)=5000) timed out in call to wait().",
     "TORCH_NCCL_COMMUNICATOR_ABORTED", "on rank 5 after an earlier failure: Work: WorkNCCL(OpType=BROADCAST"),
    ("[rank2]:[E ProcessGroupNCCL.cpp:577] [Rank 2] Some NCCL operations have failed or timed out. Due to the "
     "asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
     "TORCH_NCCL_COMMUNICATOR_ABORTED", "the first NCCL/CUDA error or timeout"),
    # the container toolkit's runtime, nvidia-smi's handle, bitsandbytes' setup
    ("Error response from daemon: unknown or invalid runtime name: nvidia", "DOCKER_NVIDIA_RUNTIME_NOT_REGISTERED",
     "`unknown or invalid runtime name: nvidia`"),
    ("docker: Error response from daemon: Unknown runtime specified nvidia.", "DOCKER_NVIDIA_RUNTIME_NOT_REGISTERED",
     "`Unknown runtime specified nvidia`"),
    ("Unable to determine the device handle for GPU 0000:3B:00.0: Insufficient Permissions",
     "NVIDIA_SMI_GPU_HANDLE_UNAVAILABLE", "`0000:3B:00.0` (`Insufficient Permissions`)"),
    ("Unable to determine the device handle for GPU 0000:3B:00.0: GPU is lost", "NVIDIA_GPU_LOST", "dropped off the PCIe bus"),
    ("Unable to determine the device handle for GPU0000:17:00.0: Unknown Error", "NVIDIA_SMI_GPU_HANDLE_UNAVAILABLE",
     "`0000:17:00.0`"),
    ("CUDA SETUP: Required library version not found: libbitsandbytes_cuda124.so. Maybe you need to compile it from "
     "source?", "BITSANDBYTES_CUDA_SETUP_FAILED", "`Required library version not found: libbitsandbytes_cuda124.so`"),
    ("CUDA SETUP: CUDA detection failed! Possible reasons:", "BITSANDBYTES_CUDA_SETUP_FAILED", "CUDA detection failed"),
    ("CUDA SETUP: Problem: The main issue seems to be that the main CUDA runtime library was not detected.",
     "BITSANDBYTES_CUDA_SETUP_FAILED", "main CUDA runtime library was not detected"),
    ("/opt/conda/lib/python3.9/site-packages/bitsandbytes/libbitsandbytes_cpu.so: undefined symbol: cquantize_blockwise_fp16_nf4",
     "BITSANDBYTES_CUDA_SETUP_FAILED", "undefined symbol: cquantize_blockwise_fp16_nf4"),
    # TensorRT's engine version tag, both archive readers
    ("[E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReaderInitCommon::46] Error Code 1: Serialization (Serialization "
     "assertion stdVersionRead == serializationVersion failed.Version tag does not match. Note: Current Version: 236, "
     "Serialized Engine Version: 237)", "TENSORRT_ENGINE_VERSION_MISMATCH", "this TensorRT: 236, engine: 237"),
    ("E tensorflow/compiler/tf2tensorrt/utils/trt_logger.cc:42] DefaultLogger coreReadArchive.cpp (38) - Serialization "
     "Error in verifyHeader: 0 (Version tag does not match)", "TENSORRT_ENGINE_VERSION_MISMATCH",
     "built by another TensorRT version"),
    ("[TensorRT] ERROR: coreReadArchive.cpp (41) - Serialization Error in verifyHeader: 0 (Version tag does not match. "
     "Note: Current Version: 96, Serialized Engine Version: 97)", "TENSORRT_ENGINE_VERSION_MISMATCH", "engine: 97"),
    # onnxruntime without the provider asked for; TensorFlow without its GPU libraries
    ("/venv/lib/python3.12/site-packages/onnxruntime/capi/onnxruntime_inference_collection.py:123: UserWarning: "
     "Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: "
     "'CPUExecutionProvider'", "ORT_EXECUTION_PROVIDER_NOT_IN_BUILD",
     "no `CUDAExecutionProvider` (available: CPUExecutionProvider)"),
    ("UserWarning: Specified provider 'OpenVINOExecutionProvider' is not in available provider names.Available "
     "providers: 'AzureExecutionProvider, CPUExecutionProvider'", "ORT_EXECUTION_PROVIDER_NOT_IN_BUILD",
     "`OpenVINOExecutionProvider`"),
    ("2020-08-24 11:08:28.568905: W tensorflow/core/common_runtime/gpu/gpu_device.cc:1753] Cannot dlopen some GPU "
     "libraries. Please make sure the missing libraries mentioned above are installed properly if you would like to use "
     "GPU.", "TF_GPU_LIBRARIES_NOT_LOADED", "registers no GPU"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("torch.OutOfMemoryError: HIP out of memory. Tried to allocate 20.00 MiB. GPU 1 has a total capacity of 63.98 GiB "
     "of which 0 bytes is free.", "CUDA_DEVICE_OOM", "GPU device memory exhausted"),
    ("nvcc fatal   : Value 'sm_90a' is not defined for option 'gpu-architecture'", "NVCC_GPU_ARCH_UNSUPPORTED",
     "`sm_90a`"),
    ("nvcc fatal   : Value 'arch' is not defined for option 'gpu-architecture'", "NVCC_GPU_ARCH_UNSUPPORTED",
     "`arch`"),
    # cuDNN's 'no algorithm' lines say what happened, not a made-up status name
    ("RuntimeError: Unable to find a valid cuDNN algorithm to run convolution", "CUDNN_STATUS_FAILED",
     "cuDNN failed: no cuDNN algorithm (engine) could run this convolution"),
    ("RuntimeError: GET was unable to find an engine to execute this computation", "CUDNN_STATUS_FAILED",
     "(`GET was unable to find an engine to execute this computation`)"),
    ("RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED", "CUDNN_STATUS_FAILED",
     "cuDNN failed with `CUDNN_STATUS_NOT_SUPPORTED`"),
    # the CUDA library the loader could not find is named
    ("ImportError: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory",
     "CUDA_LIB_NOT_FOUND", "`libcudnn_ops_infer.so.8`"),
    ("OSError: libcublasLt.so.12: cannot open shared object file: No such file or directory", "CUDA_LIB_NOT_FOUND",
     "`libcublasLt.so.12`"),
    ("RuntimeError: CUDA driver error: out of memory", "CUDA_DEVICE_OOM", "GPU device memory exhausted"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "flash_attn 2.6.3", "Using flash_attention_2 as attention implementation",
    "    TORCH_CHECK(head_size <= 256, \"FlashAttention forward only supports head dimension at most 256\");",
    "autotuning: BLOCK_M=128, BLOCK_N=64, num_stages=3, num_warps=4",
    "max shared memory per block optin: 101376",
    "ls /usr/local/cuda/lib64/libnvrtc-builtins.so.12.4",
    "nvcc --list-gpu-arch", "-gencode arch=compute_80,code=sm_80",
    "Compiling cuda extensions with", "torch.__version__  = 2.1.0+cu121",
    "    amdgcn-amd-amdhsa--gfx1100 - [Found]", "export HSA_OVERRIDE_GFX_VERSION=11.0.0",
    "  Name:                    gfx1031", "List of available TensileLibrary Files :",
    "\"/opt/rocm/lib/rocblas/library/TensileLibrary_lazy_gfx1100.dat\"",
    "ROCk module is loaded", "ROCk module version 6.8.5 is loaded", "Able to open /dev/kfd read-write",
    "Number of HIP devices in the system: 2", "export HIP_VISIBLE_DEVICES=0,1",
    "[I ProcessGroupNCCL.cpp:912] [PG 0 Rank 0] ProcessGroupNCCL initialization options: TIMEOUT(ms): 600000",
    "export TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC=1800",
    "Memory pool end. avail mem=10.24 GB", "KV Cache is allocated. #tokens: 1048576, K size: 60.00 GB",
    "server_args=ServerArgs(mem_fraction_static=0.88, tp_size=8)",
    "a1:123:456 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: "
    "No such file or directory : when loading libnccl-net.so",
    "[I ProcessGroupNCCL.cpp:1097] [Rank 0] ProcessGroupNCCL destroyed communicator on CUDA device 0",
    " Runtimes: io.containerd.runc.v2 nvidia runc", "docker run --rm --runtime=nvidia --gpus all ubuntu nvidia-smi",
    "GPU 00000000:0B:00.0", "Bus Id                                : 00000000:3B:00.0",
    "CUDA SETUP: Loading binary /usr/local/lib/python3.10/dist-packages/bitsandbytes/libbitsandbytes_cuda118.so...",
    "CUDA SETUP: PyTorch settings found: CUDA_VERSION=118, Highest Compute Capability: 8.6.",
    "CUDA SETUP: Detected CUDA version 118",
    "[11/08/2024-08:46:50] [I] [TRT] Loaded engine size: 6 MiB", "&&&& PASSED TensorRT.trtexec [TensorRT v8601]",
    "Applied providers: ['CPUExecutionProvider'], with options: {'CPUExecutionProvider': {}}",
    "['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'AzureExecutionProvider', 'CPUExecutionProvider']",
    "Skipping registering GPU devices...",
    "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1886] Created device /job:localhost/replica:0/task:0/device:GPU:0 "
    "with 22286 MB memory:  -> device: 0, name: NVIDIA GeForce RTX 3090",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.explaining(line) if s.id in IDS + EXTENDED + ["PT_TORCH_LOAD_FILE_MISSING"]] == []


def test_a_reason_with_an_entry_of_its_own_is_named_by_it(kb):
    line = ("torch.distributed.DistBackendError: NCCL communicator was aborted on rank 5. Original reason for failure was: "
            "NCCL error: unhandled system error, NCCL version 2.18.1")
    assert [s.id for s in kb.explaining(line) if s.id in FAMILY] == ["NCCL_CALL_FAILED"]


def test_a_watchdog_reason_stays_with_the_watchdog_entry(kb):
    line = ("RuntimeError: NCCL communicator was aborted on rank 1.  Original reason for failure was: [Rank 1] Watchdog "
            "caught collective operation timeout: WorkNCCL(SeqNum=2511984, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for "
            "1809553 milliseconds before timing out.")
    assert [s.id for s in kb.explaining(line) if s.id in FAMILY] == ["TORCH_NCCL_WATCHDOG_TIMEOUT"]


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


def test_nccl_net_plugin_notice_is_not_a_checkpoint_load(kb):
    line = "NET/Plugin : Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory."
    assert "PT_TORCH_LOAD_FILE_MISSING" not in [s.id for s in kb.explaining(line)]
