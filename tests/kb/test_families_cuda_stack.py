"""data/kb/families_cuda_stack.json: the CUDA stack's error catalogues as PyTorch, MindSpore's GPU backend and the
tools print them (round 15). The cudaError_t texts by cause, in every printer's form (PyTorch's 'CUDA error: <text>'
and 'Error <n>: <text>', MindSpore's 'ret[<n>], <text>' / '| Error Number: <n> <text>' / 'the error number is <n>,
which means <text>', NCCL's 'Cuda failure <n> '<text>'', the driver API's CUDA_ERROR_<NAME>: <text>); the cuDNN,
cuBLAS, cuSOLVER, cuSPARSE, cuRAND and cuFFT statuses with each status's cause in the title; NCCL's results and WARN
lines; PyTorch's NCCL watchdog; NVML / nvidia-smi, the kernel driver's Xid lines and the NVIDIA Container Toolkit.
Each entry reads members its examples do not show, says the member in its title, stays quiet on the tools' ordinary
lines (NCCL INFO, nvidia-smi's tables, the clean runs of torch's CPU build) and on every clean excerpt of the corpus,
and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_cuda_stack")
# members of other parts this part's sources extend
EXTENDED = ["CUDA_DRIVER_TOO_OLD", "CUDA_DEVICE_OOM", "CUDA_KERNEL_FAULT_REPORTED", "CUDA_NO_KERNEL_IMAGE_FOR_GPU",
            "NCCL_NETWORK_UNREACHABLE", "TORCH_CUDA_CALLED_ON_NPU_HOST", "CUDA_LIB_NOT_FOUND"]
FAMILY = IDS + EXTENDED + ["MS_GPU_CUBLAS_FAILED", "MS_GPU_HOST_PINNED_OOM", "CUDA_DRIVER_TOO_OLD_FOR_TORCH",
                           "LIBRARY_GPU_CHECK_FAILED", "DATALOADER_SHARED_MEMORY_EXHAUSTED",
                           "TORCH_DIST_NCCL_BACKEND_UNAVAILABLE"]
CLASS_ENTRIES = {"CUDA_API_CALL_REJECTED", "NVIDIA_XID_REPORTED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert len(IDS) == 41  # (+ round 15's mends: tests/kb/test_entries_from_heldout23.py) and len(set(IDS)) == len(IDS)
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_cuda_stack.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in CLASS_ENTRIES) and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # one cudaError text in each printer's form: MindSpore's SetDevice, the driver API, torch's device-count check
    ("RuntimeError: Cuda error: SetDevice for id:3 failed, ret[101], invalid device ordinal. Please make sure that "
     "the 'device_id' set in context is in the range:[0, total number of GPU).", "CUDA_INVALID_DEVICE_ORDINAL",
     "device id 3"),
    ("torch.AcceleratorError: CUDA error: invalid device ordinal", "CUDA_INVALID_DEVICE_ORDINAL",
     "past the GPUs this process sees"),
    ("nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown",
     "CUDA_DRIVER_LIBRARY_MISMATCH", "not the version of the loaded NVIDIA kernel module"),
    ("NVRM: API mismatch: the client has the version 550.54.15, but NVRM: this kernel module has the version "
     "550.54.14.", "CUDA_DRIVER_LIBRARY_MISMATCH", "libraries 550.54.15, kernel module 550.54.14"),
    ("RuntimeError: CUDA error: forward compatibility was attempted on non supported HW", "CUDA_FORWARD_COMPAT_NOT_SUPPORTED",
     "cannot use CUDA forward compatibility"),
    ("node1:1234:1300 [0] include/alloc.h:103 NCCL WARN Cuda failure 46 'all CUDA-capable devices are busy or "
     "unavailable'", "CUDA_DEVICES_BUSY_OR_UNAVAILABLE", "`all CUDA-capable devices are busy or unavailable`"),
    ("RuntimeError: CUDA error: exclusive-thread device already in use by a different thread",
     "CUDA_DEVICES_BUSY_OR_UNAVAILABLE", "compute mode is exclusive"),
    ("RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
     "NumCudaDevices() that might have already set an error? Error 100: no CUDA-capable device is detected",
     "CUDA_NO_GPU_VISIBLE", "sees no GPU"),
    ("RuntimeError: CUDA error: startup failure in cuda runtime", "CUDA_INIT_FAILED", "`startup failure in cuda runtime`"),
    ("E0101 10:00:00.000000 1234 cuda_driver.cc:266] failed call to cuInit: CUDA_ERROR_SYSTEM_NOT_READY: system not "
     "yet initialized", "CUDA_SYSTEM_NOT_READY", "Fabric Manager"),
    ("node1:1234:1300 [0] include/alloc.h:103 NCCL WARN Cuda failure 999 'unknown error'", "CUDA_UNKNOWN_ERROR",
     "`unknown error` (999)"),
    ("RuntimeError: CUDA error: capturing stream has unjoined work", "CUDA_STREAM_CAPTURE_VIOLATION",
     "`capturing stream has unjoined work`"),
    ("RuntimeError: Cuda error: The cudaGetDeviceCount failed, ret[702], the launch timed out and was terminated",
     "CUDA_LAUNCH_TIMEOUT", "display watchdog"),
    ("RuntimeError: For `Conv2D`, the cuda Kernel fails to run, the error number is 701, which means too many "
     "resources requested for launch.", "CUDA_LAUNCH_OUT_OF_RESOURCES", "`too many resources requested for launch`"),
    ("E0101 10:00:00.000000 1234 cuda_driver.cc:266] failed call to cuInit: CUDA_ERROR_STUB_LIBRARY: CUDA driver is a "
     "stub library", "CUDA_STUB_DRIVER_LOADED", "stub libcuda.so"),
    ("RuntimeError: CUDA error: MPS server is not ready to accept new MPS client requests", "CUDA_MPS_FAILED",
     "`MPS server is not ready to accept new MPS client requests`"),
    ("RuntimeError: CUDA error: peer access is already enabled", "CUDA_PEER_ACCESS_FAILED",
     "`peer access is already enabled`"),
    ("RuntimeError: CUDA error: PTX JIT compilation was disabled", "CUDA_PTX_JIT_FAILED",
     "`PTX JIT compilation was disabled`"),
    ("RuntimeError: CUDA error: uncorrectable NVLink error detected during the execution", "CUDA_GPU_HARDWARE_ERROR",
     "`uncorrectable NVLink error detected during the execution`"),
    ("RuntimeError: CUDA error: invalid resource handle", "CUDA_API_CALL_REJECTED",
     "(`invalid resource handle`): a value, handle or pointer"),
    ("RuntimeError: CUDA error: context is destroyed", "CUDA_API_CALL_REJECTED", "being torn down"),
    # the other printers' forms of members extended elsewhere
    ("RuntimeError: Cuda error: The cudaGetDeviceCount failed, ret[36], API call is not supported in the installed "
     "CUDA driver", "CUDA_DRIVER_TOO_OLD", "NVIDIA driver older than the CUDA runtime"),
    ("node1:2001:2060 [0] include/alloc.h:103 NCCL WARN Cuda failure 2 'out of memory'", "CUDA_DEVICE_OOM",
     "GPU device memory exhausted"),
    ("RuntimeError: Unexpected error from cudaGetDeviceCount(). Error 700: an illegal memory access was encountered",
     "CUDA_KERNEL_FAULT_REPORTED", "an illegal memory access was encountered"),
    ("RuntimeError: Cuda error: The cudaGetDeviceCount failed, ret[98], invalid device function",
     "CUDA_NO_KERNEL_IMAGE_FOR_GPU", "(CUDA error: invalid device function)"),
    # the libraries' statuses: the cause said for each
    ("RuntimeError: cuDNN error: CUDNN_STATUS_ARCH_MISMATCH", "CUDNN_STATUS_FAILED", "lacks a feature"),
    ("RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM_NULL_POINTER", "CUDNN_STATUS_FAILED",
     "descriptor passed to cuDNN is not valid"),
    ("RuntimeError: cuDNN error: CUDNN_STATUS_VERSION_MISMATCH", "CUDNN_STATUS_FAILED", "different versions"),
    ("RuntimeError: GET was unable to find an engine to execute this computation", "CUDNN_STATUS_FAILED",
     "cuDNN failed"),
    ("RuntimeError: CUDA error: CUBLAS_STATUS_ARCH_MISMATCH when calling `cublasCreate(handle)`", "CUBLAS_STATUS_FAILED",
     "lacks a feature the cuBLAS function needs"),
    ("RuntimeError: CUDA error: CUBLAS_STATUS_INTERNAL_ERROR when calling `cublasLtMatmul( ltHandle, computeDesc.descriptor(), &alpha_val, mat1_ptr, Adesc.descriptor(), mat2_ptr, Bdesc.descriptor(), &beta_val, result_ptr, Cdesc.descriptor(), result_ptr, Cdesc.descriptor(), &heuristicResult.algo, workspace.mutable_data_ptr(), workspaceSize, at::cuda::getCurrentCUDAStream())`",
     "CUBLAS_STATUS_FAILED", "internal cuBLAS operation failed"),
    ("RuntimeError: cusolver error: CUSOLVER_STATUS_EXECUTION_FAILED, when calling `cusolverDnSgetrf( handle, m, n, "
     "dA, ldda, static_cast<float*>(dataPtr.get()), ipiv, info)`", "CUDA_MATH_LIBRARY_STATUS_FAILED",
     "CUSOLVER failed with `CUSOLVER_STATUS_EXECUTION_FAILED`: a kernel of the library failed"),
    ("RuntimeError: cuFFT error: CUFFT_INVALID_SIZE", "CUDA_MATH_LIBRARY_STATUS_FAILED", "cuFFT failed with `CUFFT_INVALID_SIZE`"),
    ("[ERROR] DEVICE(1,7f,python):2024-01-01-10:00:00.000.000 [gpu_device_manager.cc:59] InitDevice] cusparse Error: "
     "Failed to create sparse handle. | Error Code: 1", "CUDA_MATH_LIBRARY_STATUS_FAILED", "cusparse failed"),
    # NCCL's results and WARN lines
    ("RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, remote process exited or there "
     "was a network error, NCCL version 2.19.3", "NCCL_CALL_FAILED", "a peer rank exited"),
    ("ncclInvalidUsage: This usually reflects invalid usage of NCCL library.", "NCCL_CALL_FAILED",
     "the program used NCCL wrongly"),
    ("RuntimeError: ncclCommInitRank failed: unhandled system error", "NCCL_CALL_FAILED",
     "a system call or external library under NCCL failed"),
    ("node1:2001:2060 [0] NCCL WARN NET/Socket : No usable listening interface found", "NCCL_SOCKET_INTERFACE_NOT_FOUND",
     "`NET/Socket : No usable listening interface found`"),
    ("node1:2001:2060 [0] NCCL WARN Error: failed to create shared memory file /dev/shm/nccl-abc, error No space left "
     "on device (28)", "NCCL_SHM_SEGMENT_FAILED", "`/dev/shm/nccl-abc`: No space left on device"),
    # round 18: the title says the system's error text NCCL prints, not always "too small or full"
    ("node2:311:402 [1] include/shm.h:27 NCCL WARN Call to shm_open failed : Operation not permitted",
     "NCCL_SHM_SEGMENT_FAILED", "segment in /dev/shm: Operation not permitted"),
    ("node2:311:402 [1] include/shm.h:30 NCCL WARN Call to posix_fallocate failed : No space left on device",
     "NCCL_SHM_SEGMENT_FAILED", "in /dev/shm: No space left on device"),
    ("node2:311:402 [1] misc/shmutils.cc:87 NCCL WARN Error while attaching to shared memory segment "
     "/dev/shm/nccl-Q1wErt (size 4194304), error: Permission denied (13)", "NCCL_SHM_SEGMENT_FAILED",
     "`/dev/shm/nccl-Q1wErt`: Permission denied"),
    ("node2:311:402 [1] NCCL WARN Error: failed to extend /dev/shm/nccl-Q1wErt to 4194304 bytes, error: No space left "
     "on device (28)", "NCCL_SHM_SEGMENT_FAILED", "`/dev/shm/nccl-Q1wErt`: No space left on device"),
    ("node2:311:402 [1] NCCL WARN shm_open failed to open /nccl-shm-send-5d1e : Permission denied",
     "NCCL_SHM_SEGMENT_FAILED", "`/nccl-shm-send-5d1e`: Permission denied"),
    ("node2:311:402 [1] include/shm.h:48 NCCL WARN Error while creating shared memory segment nccl-shm-send-5d1e-1-0-0 "
     "(size 4194304)", "NCCL_SHM_SEGMENT_FAILED", "error text is on NCCL's WARN line before it"),
    ("node1:2001:2060 [0] NCCL WARN Duplicate GPU detected : rank 3 and rank 2 both on CUDA device 3b000",
     "NCCL_DUPLICATE_GPU", "rank 3 and rank 2 both on CUDA device 3b000"),
    ("node1:2001:2060 [0] NCCL WARN NCCL library is too old. This application was compiled with NCCL version 2.21.5, "
     "but is running with NCCL 2.18.1", "NCCL_VERSION_MISMATCH", "NCCL library is too old"),
    ("node1:2001:2060 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.3<42311> with error 5, opcode 32541, "
     "len 0, vendor err 249 (Recv)", "NCCL_IB_COMPLETION_ERROR", "flushed after an earlier error"),
    # round 18: the older form without the peer, NCCL's GIN and resiliency forms, status 13
    ("-worker-3:41:77 [1] transport/net_ib.cc:839 NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 32, "
     "vendor err 129", "NCCL_IB_COMPLETION_ERROR", "(status 12): the transport retry count was exceeded"),
    ("node1:2001:2060 [0] NCCL WARN NET/IB/GIN: Got completion from peer 10.0.0.2<50611> with status=12 opcode=0 len=0 "
     "vendor err 129 (Send) hca mlx5_0", "NCCL_IB_COMPLETION_ERROR", "(status 12): the transport retry count"),
    ("node1:2001:2060 [0] NCCL WARN NET/IB: mlx5_0: Got completion with error (devIndex=0, wc->status="
     "(IBV_WC_RETRY_EXC_ERR)12, wc->opcode=(IBV_WC_SEND)0, wc->wr_id=5", "NCCL_IB_COMPLETION_ERROR", "(status 12)"),
    ("node1:2001:2060 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<50611> with error 13, opcode 0, len 0, "
     "vendor err 135 (Send)", "NCCL_IB_COMPLETION_ERROR", "receiver-not-ready retry count was exceeded"),
    ("node1:2001:2060 [0] NCCL WARN Net : Connection closed by remote peer 10.0.0.3<42311>",
     "NCCL_PEER_CLOSED_CONNECTION", "10.0.0.3<42311>"),
    ("node1:2001:2060 [0] NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory", "NCCL_IB_MEMLOCK_LIMIT",
     "`ibv_reg_mr` failed"),
    ("node1:2001:2060 [0] NCCL WARN Net : Connect to 10.0.0.3<42311> failed : No route to host",
     "NCCL_NETWORK_UNREACHABLE", "at 10.0.0.3<42311> (`No route to host`)"),
    ("[rank3]:[E1206 07:12:56.885000 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout: "
     "WorkNCCL(SeqNum=1201, OpType=BROADCAST, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800101 "
     "milliseconds before timing out.", "TORCH_NCCL_WATCHDOG_TIMEOUT", "(BROADCAST, SeqNum 1201)"),
    # NVML, the kernel driver, the container toolkit, the driver's libraries
    ("NVRM: GPU at PCI:0000:3b:00: GPU-5f0c has fallen off the bus.", "NVIDIA_GPU_LOST", "(`has fallen off the bus`)"),
    # round 18: the kernel module loaded but did not take the GPU (another driver first, a release without this GPU)
    ("[   29.611438] NVRM: The NVIDIA probe routine was not called for 1 device(s).", "NVIDIA_DRIVER_NOT_LOADED",
     "another driver (nouveau, nvidiafb, rivafb) took the device first"),
    ("[    5.3] NVRM: request_mem_region failed for 16M @ 0xf4000000. This can occur when a driver such as rivatv is "
     "loaded and claims ownership of the device's registers.", "NVIDIA_DRIVER_NOT_LOADED", "another driver"),
    ("[   12.3] NVRM: The NVIDIA GPU 0000:3b:00.0 (PCI ID: 10de:20b0) installed in this system is not supported by the "
     "470.82.01 NVIDIA driver release.", "NVIDIA_DRIVER_NOT_LOADED", "the 470.82.01 driver release does not support"),
    ("NVRM: No NVIDIA graphics adapter found!", "NVIDIA_DRIVER_NOT_LOADED", "is not driving the GPU"),
    ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA "
     "driver is installed and running.", "NVIDIA_DRIVER_NOT_LOADED", "its module is not loaded"),
    ("[ 88.1] NVRM: Xid (PCI:0000:b3:00): 63, pid=2201, name=python3, Row Remapper: New row marked for remapping, "
     "reset gpu to activate.", "NVIDIA_XID_REPORTED", "Xid 63 on GPU PCI:0000:b3:00: `Row Remapper"),
    ("docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime "
     "create failed: runc create failed: unable to start container process: error during container init: error "
     "running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy' "
     "nvidia-container-cli: device error: GPU-deadbeef: unknown device: unknown.", "NVIDIA_CONTAINER_CLI_FAILED",
     "does not exist on this host"),
    ("OSError: libnvidia-ml.so.1: cannot open shared object file: No such file or directory",
     "CUDA_DRIVER_LIBRARY_NOT_FOUND", "`libnvidia-ml.so.1`"),
    # PyTorch's device-side assertions, an older NCCL error form, MindSpore's version checks
    ("/opt/conda/pytorch/aten/src/ATen/native/cuda/Indexing.cu:699: indexSelectSmallIndex: block: [3,0,0], thread: "
     "[31,0,0] Assertion `srcIndex < srcSelectDimSize` failed.", "CUDA_KERNEL_DEVICE_ASSERT",
     "`indexSelectSmallIndex` (`srcIndex < srcSelectDimSize`): an index tensor holds a value outside"),
    ("RuntimeError: NCCL Error 2: unhandled system error", "NCCL_CALL_FAILED", "`unhandled system error`"),
    # torch's CPU build, as it came out here
    ("AttributeError: module 'torch._C' has no attribute '_cuda_setDevice'", "TORCH_CUDA_CALLED_ON_NPU_HOST",
     "PyTorch has no CUDA"),
    ("AttributeError: module 'torch._C' has no attribute '_nccl_version'", "TORCH_CUDA_CALLED_ON_NPU_HOST",
     "PyTorch has no CUDA"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # NCCL's INFO lines and nvidia-smi's ordinary output
    "node1:2001:2001 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>",
    "node1:2001:2001 [0] NCCL INFO NET/Plugin : dlerror=libnccl-net.so: cannot open shared object file: No such file "
    "or directory No plugin found (libnccl-net.so), using internal implementation",
    "node1:2001:2001 [0] NCCL INFO cudaDriverVersion 12040",
    "node1:2001:2060 [0] NCCL INFO Call to connect returned Connection refused, retrying",
    "node1:2001:2060 [0] NCCL INFO Allocated 4194304 bytes of shared memory in /dev/shm/nccl-Q1wErt",
    "[    4.2] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.183.01  Sun May 12 19:39:15 UTC 2024",
    "[   29.611441] NVRM: This can occur when a driver such as nouveau, rivafb,",
    "node1:2001:2060 [0] NCCL INFO fallocate: Failed to extend /dev/shm/nccl-Q1wErt to 4194304 bytes, error: "
    "Interrupted system call (4) - retrying",
    "node1:2001:2060 [0] NCCL INFO NET/IB : No device found.",
    "node1:2001:2060 [0] NCCL INFO Channel 00/02 :    0   1",
    "node1:2001:2060 [0] NCCL INFO Connected all rings",
    "node1:2001:2060 [0] NCCL INFO comm 0x55 rank 0 nranks 2 cudaDev 0 busId 1a000 commId 0x1 - Init COMPLETE",
    "| NVIDIA-SMI 535.183.01             Driver Version: 535.183.01   CUDA Version: 12.2     |",
    "|   0  NVIDIA A100-SXM4-80GB          On  | 00000000:07:00.0 Off |                    0 |",
    "NVML library version: 535.183",
    "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.183.01  Sun May 12 19:39:15 UTC 2024",
    "nvidia-container-cli: info: initializing",
    # the clean runs of torch's CPU build here
    "/work/fi/venv_torch/lib/python3.11/site-packages/torch/cuda/amp/grad_scaler.py:31: UserWarning: "
    "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
    "/work/fi/cuda_stack/autocast.py:2: UserWarning: CUDA is not available or torch_xla is imported. Disabling autocast.",
    "False 0",
    # ordinary lines that share the entries' words
    "torch.backends.cudnn.benchmark = True",
    "status = CUDNN_STATUS_SUCCESS",
    "CUBLAS_STATUS_SUCCESS",
    "export CUDA_VISIBLE_DEVICES=0,1,2,3",
    "ValueError: invalid argument 'lr'",
    "if 'out of memory' in str(e): torch.cuda.empty_cache()",
    "[INFO] CUDA error: initialization error is retried",
    "/opt/conda/x/aten/src/ATen/native/cuda/TensorCompare.cu:110: _assert_async_cuda_kernel: block: [0,0,0], thread: "
    "[0,0,0] Assertion `probability tensor contains either `inf`, `nan` or element < 0` failed.",
    "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


@pytest.mark.parametrize("line", [
    # a clean NCCL_DEBUG=INFO start-up: no entry of the whole knowledge base reads these lines
    "node1:2001:2001 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object "
    "file: No such file or directory : when loading libnccl-net.so",
    "node1:2001:2060 [0] NCCL INFO Failed to open libibverbs.so[.1]",
    "node1:2001:2060 [0] NCCL INFO NET/IB : No device found.",
    "node1:2001:2060 [0] NCCL INFO TUNER/Plugin: Failed to find ncclTunerPlugin_v2, using internal tuner instead.",
    "node1:2001:2077 [0] NCCL INFO [Service thread] Connection closed by localRank 0",
    "node1:2001:2001 [0] NCCL INFO comm 0x55d0 rank 0 nranks 2 cudaDev 0 busId 1a000 - Destroy COMPLETE",
    "[rank0]:[I ProcessGroupNCCL.cpp:800] [Rank 0] ProcessGroupNCCL initialization options: NCCL version: 2.21.5, "
    "TORCH_NCCL_ASYNC_ERROR_HANDLING: 1, TORCH_NCCL_DUMP_ON_TIMEOUT: 0, TIMEOUT(ms): 600000",
    "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |",
])
def test_nccl_info_lines_of_a_clean_start_are_quiet_in_the_whole_knowledge_base(kb, line):
    assert [s.id for s in kb.match_line(line)] == []
