"""data/kb/families_gpu_r20.json: the GPU stack's own messages (round 20): NCCL's bootstrap, socket, transport,
argument, algorithm and allocation checks, DeepSpeed's pre-built ops of another PyTorch/CUDA, its JIT builder without a
target architecture and its ops built without CUDA, flash-attn's and Transformer Engine's minimum CUDA toolkit, pynvml's
NVMLError_* exceptions, PyTorch's dump signal after a collective timeout, vLLM's parallel sizes that do not fit the
model and Megatron's world size that is not a multiple of the model-parallel size. Each entry reads members its
examples do not show, says the member in its title, stays quiet on ordinary lines of the same tools and on every clean
corpus excerpt, and one line is one problem of the family. The entries of other parts this round widened read their
new members (NCCL's newer same-GPU check, the socket connect forms with the peer and the reason said and no longer a
MindSpore-only title, NCCL_OOB_NET_IFNAME's interface check, NCCL's shared-memory error as the framework prints NCCL's
last error, pynvml's exceptions that have an entry of their own, ProcessGroupNCCL's 'Tensors must be CUDA and
dense')."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_gpu_r20")
EXTENDED = ["NCCL_DUPLICATE_GPU", "NCCL_NETWORK_UNREACHABLE", "NCCL_SHM_SEGMENT_FAILED", "PT_COLLECTIVE_CPU_TENSOR",
            "CUDA_DRIVER_LIBRARY_MISMATCH", "NVIDIA_GPU_LOST", "NVIDIA_DRIVER_NOT_LOADED", "TORCH_CUDA_CALLED_ON_NPU_HOST",
            "NCCL_SOCKET_INTERFACE_NOT_FOUND"]
FAMILY = IDS + EXTENDED + ["NCCL_CALL_FAILED", "NCCL_PEER_CLOSED_CONNECTION",
                           "NCCL_VERSION_MISMATCH", "CUDA_DEVICE_OOM", "NVML_CONTAINER_LOST_GPU_ACCESS",
                           "DEEPSPEED_OP_BUILDER_CUDA_VERSION_MISMATCH", "OP_BUILDER_TOOLKIT_NOT_FOUND",
                           "DEEPSPEED_OP_NOT_BUILT", "TORCH_EXTENSION_CUDA_VERSION_MISMATCH",
                           "APEX_CUDA_EXTENSION_VERSION_MISMATCH", "CUDA_DRIVER_LIBRARY_NOT_FOUND",
                           "VLLM_WORLD_SIZE_EXCEEDS_NODE_DEVICES", "NVIDIA_SMI_GPU_HANDLE_UNAVAILABLE",
                           "CUDA_NO_GPU_VISIBLE", "TORCH_NCCL_WATCHDOG_TIMEOUT", "TORCH_NCCL_HEARTBEAT_MONITOR_TIMEOUT",
                           "TORCH_NCCL_COMMUNICATOR_ABORTED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) == 17 and "NCCL_MESSAGE_TRUNCATED" in IDS and "NVML_PYTHON_CALL_FAILED" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_gpu_r20.json" and not sig.ascend_fd
        assert sig.kind == "root" and not sig.fallback, sid
        assert sig.severity == ("warn" if sid == "DEEPSPEED_OP_BUILT_WITHOUT_CUDA" else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # NCCL's bootstrap root: the newer form and a rank that checks in twice
    ("gpu7:311:311 [0] bootstrap.cc:371 NCCL WARN Bootstrap Root : mismatch in info from procs, nranks 16 vs 8, nroots 1 "
     "vs 1, iroot 0 vs 0, offset 0 vs 0", "NCCL_BOOTSTRAP_RANK_INFO_MISMATCH", "`mismatch in info from procs, nranks 16 vs 8"),
    ("gpu7:311:311 [0] bootstrap.cc:131 NCCL WARN Bootstrap Root : rank 3 of 8 ranks has already checked in",
     "NCCL_BOOTSTRAP_RANK_INFO_MISMATCH", "`rank 3 of 8 ranks has already checked in`"),
    # the two-part receive of a truncated message
    ("gpu7:311:402 [5] bootstrap.cc:249 NCCL WARN Message truncated : received 16,0 bytes instead of 8,0",
     "NCCL_MESSAGE_TRUNCATED", "(16,0 bytes instead of 8,0)"),
    ("gpu2:98:120 [1] transport.cc:61 NCCL WARN No transport found for rank 3[41000] -> rank 12[41000]",
     "NCCL_NO_TRANSPORT_BETWEEN_RANKS", "rank 3 to rank 12"),
    ("gpu2:98:98 [0] init.cc:1355 NCCL WARN Detected mixed local CollNet device counts across ranks (min 0, max 1). Set "
     "NCCL_IGNORE_NET_MISMATCH=1 to continue.", "NCCL_NET_DEVICE_COUNT_MISMATCH", "(min 0, max 1)"),
    ("gpu2:98:98 [0] misc/socket.cc:283 NCCL WARN Net : No valid <IPv4_or_hostname>:<port> pair found",
     "NCCL_COMM_ID_ADDRESS_UNUSABLE", "`Net : No valid <IPv4_or_hostname>:<port> pair found`"),
    ("gpu2:98:98 [0] misc/socket.cc:294 NCCL WARN Net : error encountered when getting address info : Name or service "
     "not known", "NCCL_COMM_ID_ADDRESS_UNUSABLE", "Name or service not known"),
    ("gpu2:98:98 [0] init.cc:1612 NCCL WARN Invalid rank requested : -1/4", "NCCL_INVALID_RANK_REQUESTED",
     "rank -1 of a communicator of 4 ranks"),
    # NCCL's argument checks: each kind of argument
    ("gpu2:98:130 [2] misc/argcheck.cc:39 NCCL WARN Recv : invalid root 5 (root should be in the 0..3 range)",
     "NCCL_COLLECTIVE_ARGUMENT_INVALID", "`Recv`: `invalid root 5"),
    ("gpu2:98:130 [2] misc/argcheck.cc:52 NCCL WARN AllReduce : invalid type 9", "NCCL_COLLECTIVE_ARGUMENT_INVALID",
     "`invalid type 9`"),
    ("gpu2:98:130 [2] misc/argcheck.cc:18 NCCL WARN ReduceScatter : recvbuff argument is NULL",
     "NCCL_COLLECTIVE_ARGUMENT_INVALID", "`ReduceScatter`: `recvbuff argument is NULL`"),
    ("gpu2:98:130 [1] enqueue.cc:1590 NCCL WARN Error : no algorithm/protocol available",
     "NCCL_NO_ALGORITHM_PROTOCOL_AVAILABLE", "NCCL_ALGO / NCCL_PROTO"),
    ("gpu2:98:130 [1] include/alloc.h:99 NCCL WARN Failed to CUDA host alloc 33554432 bytes",
     "NCCL_MEMORY_ALLOCATION_FAILED", "(`CUDA host alloc` of 33554432 bytes failed)"),
    ("gpu2:98:130 [1] misc/utils.cc:318 NCCL WARN Unrecoverable error detected: malloc(size=1073741824) returned null.",
     "NCCL_MEMORY_ALLOCATION_FAILED", "(`malloc` of 1073741824 bytes failed)"),
    # DeepSpeed
    ("RuntimeError: CUDA version mismatch! DeepSpeed ops were compiled and installed with a different version than what "
     "is being used at runtime. Please re-install DeepSpeed or switch torch versions. Install CUDA version=11.8, Runtime "
     "CUDA version=12.1", "DEEPSPEED_OPS_BUILT_FOR_OTHER_VERSIONS", "another CUDA version than this run uses (built with 11.8, running 12.1)"),
    ("RuntimeError: HIP version mismatch! DeepSpeed ops were compiled and installed with a different version than what is "
     "being used at runtime.", "DEEPSPEED_OPS_BUILT_FOR_OTHER_VERSIONS", "another HIP version"),
    ("RuntimeError: DeepSpeed JIT builder for 'transformer_inference' cannot probe CUDA device capabilities in a forked "
     "subprocess where CUDA has already been initialized. Set TORCH_CUDA_ARCH_LIST to specify target architectures "
     "explicitly.", "DEEPSPEED_JIT_NO_TARGET_ARCH", "`transformer_inference` op for (cannot probe CUDA device"),
    ("  [WARNING]  fused_adam cuda is missing or is incompatible with installed torch, only cpu ops can be compiled!",
     "DEEPSPEED_OP_BUILT_WITHOUT_CUDA", "`fused_adam` op for the CPU only"),
    # the minimum CUDA toolkit of a CUDA extension's build
    ("      RuntimeError: FlashAttention-3 is only supported on CUDA 12.3 and above", "CUDA_EXTENSION_BUILD_NEEDS_NEWER_TOOLKIT",
     "FlashAttention-3 cannot be built with this CUDA toolkit: it needs CUDA 12.3 or newer"),
    ("RuntimeError: FlashAttention is only supported on CUDA 11.7 and above.  Note: make sure nvcc has a supported version "
     "by running nvcc -V.", "CUDA_EXTENSION_BUILD_NEEDS_NEWER_TOOLKIT", "needs CUDA 11.7 or newer"),
    # pynvml
    ("pynvml.nvml.NVMLError_NotSupported: Not Supported", "NVML_PYTHON_CALL_FAILED", "`NVMLError_NotSupported` (Not Supported)"),
    ("NVMLError_FunctionNotFound: Function Not Found", "NVML_PYTHON_CALL_FAILED",
     "`NVMLError_FunctionNotFound`"),
    # PyTorch's dump signal after a collective timeout, on the rank that timed out and on the others
    ("[rank0]:[E1206 10:11:12.482119928 ProcessGroupNCCL.cpp:1746] [PG ID 0 PG GUID 0(default_pg) Rank 0] Received a dump "
     "signal due to a collective timeout from this local rank and we will try our best to dump the debug info. Last "
     "enqueued NCCL work: 20589, last completed NCCL work: 20584.This is most likely caused by incorrect usages of "
     "collectives", "TORCH_NCCL_COLLECTIVE_TIMEOUT_DUMP_SIGNAL",
     "timed out on this local rank: PyTorch's watchdog signalled every rank to dump its debug info (last enqueued work 20589, last completed 20584)"),
    ("[rank3]:[E1206 10:11:12.178057290 ProcessGroupNCCL.cpp:1922] [PG ID 0 PG GUID 0(default_pg) Rank 3] Observed flight "
     "recorder dump signal from another rank via TCPStore.", "TORCH_NCCL_COLLECTIVE_TIMEOUT_DUMP_SIGNAL",
     "timed out on another rank"),
    # vLLM and Megatron's parallel sizes
    ("ValueError: Total number of hidden layers (30) must be divisible by pipeline parallel size (4).",
     "VLLM_PARALLEL_SIZE_DOES_NOT_FIT_MODEL", "`Total number of hidden layers (30) must be divisible by pipeline parallel size (4)`"),
    ("AssertionError: world size (6) is not divisible by total_model_size (total_model_size=4)",
     "MEGATRON_WORLD_SIZE_NOT_MULTIPLE_OF_MODEL_PARALLEL", "world size (6) is not a multiple of the model-parallel size (tensor × pipeline × context parallel, 4)"),
    ("RuntimeError: world_size (24) is not divisible by expert_tensor_model_pipeline_parallel size (16)",
     "MEGATRON_WORLD_SIZE_NOT_MULTIPLE_OF_MODEL_PARALLEL", "(24)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("gpu7:311:311 [0] init.cc:1057 NCCL WARN Multiple Ranks are using the same GPU/Partition. Set "
     "NCCL_MULTI_RANK_GPU_ENABLE=1 to enable this configuration.", "NCCL_DUPLICATE_GPU",
     "(`Multiple Ranks are using the same GPU/Partition`)"),
    ("gpu7:311:311 [0] misc/socket.cc:524 NCCL WARN socketPollConnect: exceeded timeouts (3)", "NCCL_NETWORK_UNREACHABLE",
     "(`socketPollConnect: exceeded timeouts (3)`)"),
    ("gpu7:311:311 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.2.0.7<41233> failed : No route to host",
     "NCCL_NETWORK_UNREACHABLE", "at 10.2.0.7<41233> (`No route to host`)"),
    ("gpu7:311:311 [0] bootstrap.cc:580 NCCL WARN no device found after excluding exactly mlx5_0, verify NCCL_OOB_NET_IFNAME",
     "NCCL_SOCKET_INTERFACE_NOT_FOUND", "NCCL_OOB_NET_IFNAME for a bootstrap over the network plugin"),
    ("Error while creating shared memory segment /dev/shm/nccl-CsYXMW (size 9637888)", "NCCL_SHM_SEGMENT_FAILED",
     "`/dev/shm/nccl-CsYXMW`"),
    ("RuntimeError: Tensors must be CUDA and dense", "PT_COLLECTIVE_CPU_TENSOR", "no CPU backend"),
    ("pynvml.nvml.NVMLError_LibRmVersionMismatch: RM has detected an NVML/RM version mismatch.",
     "CUDA_DRIVER_LIBRARY_MISMATCH", "not the version of the loaded NVIDIA kernel module"),
    ("pynvml.nvml.NVMLError_GpuIsLost: GPU is lost", "NVIDIA_GPU_LOST", "(`GPU is lost`)"),
    ("pynvml.NVMLError_DriverNotLoaded: Driver Not Loaded", "NVIDIA_DRIVER_NOT_LOADED", "its module is not loaded"),
    ("RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
     "driver from http://www.nvidia.com/Download/index.aspx", "TORCH_CUDA_CALLED_ON_NPU_HOST", "where PyTorch finds no NVIDIA driver"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


def test_a_socket_connect_failure_no_longer_names_mindspore(kb):
    line = "gpu7:311:311 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.2.0.7<41233> failed : Connection refused"
    title = explained_title(kb, line, "NCCL_NETWORK_UNREACHABLE")
    assert "MindSpore" not in title and "10.2.0.7<41233>" in title


@pytest.mark.parametrize("line", [
    "gpu7:311:311 [0] NCCL INFO Bootstrap : Using ib0:10.2.0.5<0>",
    "gpu7:311:311 [0] NCCL INFO comm 0x5601 rank 3 nranks 8 cudaDev 3 nvmlDev 3 busId 41000 commId 0x1 - Init COMPLETE",
    "gpu7:311:311 [0] NCCL INFO Channel 00/0 : 3[41000] -> 12[41000] [send] via NET/IB/0/GDRDMA",
    "gpu7:311:311 [0] NCCL INFO Detected mixed local Net device counts across ranks (min 1, max 2). Ignoring due to "
    "NCCL_IGNORE_NET_MISMATCH.",
    "gpu7:311:311 [0] NCCL INFO NCCL_COMM_ID set by environment to 10.2.0.5:29500",
    "gpu7:311:311 [0] NCCL INFO AllReduce: opCount 3 sendbuff 0x7f00 recvbuff 0x7f00 count 4096 datatype 7 op 0 root 0 "
    "comm 0x5601 [nranks=8] stream 0x0",
    "gpu7:311:311 [0] NCCL INFO NCCL_ALGO set by environment to Ring,Tree",
    "gpu7:311:311 [0] NCCL INFO NCCL_BUFFSIZE set by environment to 2097152.",
    "gpu7:311:311 [0] NCCL INFO Bootstrap: Using mlx5_0:1",
    "gpu7:311:311 [0] NCCL INFO MNNVL busId 0x41000 fabric UUID 0.0 cliqueId 0x0 state 3 healthMask 0x0",
    "torch version .................... 2.3.0", "torch cuda version ............... 12.1",
    "fused_adam ............. [NO] ....... [OKAY]", "Using /root/.cache/torch_extensions/py310_cu121 as PyTorch extensions root...",
    "export TORCH_CUDA_ARCH_LIST=\"8.0;9.0\"",
    "torch.__version__  = 2.4.0+cu121", "building 'flash_attn_2_cuda' extension",
    "    except pynvml.NVMLError_NotSupported:", "from pynvml import NVMLError_NotSupported, nvmlInit",
    "Requirement already satisfied: nvidia-ml-py>=12.560.30 in /usr/local/lib/python3.10/dist-packages",
    "INFO 03-01 10:00:00 [config.py:1000] Defaulting to use mp for distributed inference",
    "tensor_parallel_size=8, pipeline_parallel_size=1, data_parallel_size=1",
    "using world size: 16, data-parallel size: 2, context-parallel size: 1, tensor-model-parallel size: 4, "
    "pipeline-model-parallel size: 2",
    "> initializing tensor model parallel with size 4",
    "[rank0]:[E1206 10:11:12.482326987 ProcessGroupNCCL.cpp:1536] [PG ID 0 PG GUID 0(default_pg) Rank 0] ProcessGroupNCCL "
    "preparing to dump debug info. Include stack trace: 1",
    "[rank0]:[I1206 10:11:12.1 ProcessGroupNCCL.cpp:900] [PG ID 0 PG GUID 0(default_pg) Rank 0] ProcessGroupNCCL environments: "
    "TORCH_NCCL_DUMP_ON_TIMEOUT: 1, TORCH_NCCL_TRACE_BUFFER_SIZE: 2000",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.explaining(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
