"""data/kb/families_mend_r25_b.json: round 25's mends for the GPU stack (heldout32, second half): PyTorch's store-based
barrier wait, NCCL's CUDA-graph capture check, the CUTLASS memory-efficient attention's `no kernel found to launch`,
Triton's `ptxas --version` run (with Windows' NTSTATUS exit codes said), PyCUDA deviceQuery's cores table and the
CUDA samples' SM tables, and CuTe
DSL's predicate check of cute.copy; and, for any program, Windows' NTSTATUS exit statuses said in words. Widened elsewhere: TORCH_EXTENSION_CUDA_VERSION_MISMATCH reads the message's
older two-line form and the torch 2.13 tuple form (and is a FAIL only on an error report), PY_DICT_KEY_NOT_FOUND reads
a float key, TORCH_CUDA_CALLED_ON_NPU_HOST's title is true on a GPU or CPU-only host too, and
TORCH_DATALOADER_WORKER_RAISED says a replica's forward for the DataParallel form. Each entry reads members its
examples do not show, says the member in its title, stays quiet on ordinary lines and on every clean corpus
excerpt."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_mend_r25_b")
EXTENDED = ["TORCH_EXTENSION_CUDA_VERSION_MISMATCH", "PY_DICT_KEY_NOT_FOUND", "TORCH_CUDA_CALLED_ON_NPU_HOST",
            "TORCH_DATALOADER_WORKER_RAISED"]
FAMILY = IDS + EXTENDED + ["TORCH_STORE_BARRIER_TIMEOUT", "XFORMERS_NO_OPERATOR_FOR_INPUTS", "TRITON_PTXAS_CALL_FAILED",
                           "PTXAS_GPU_ARCH_UNKNOWN", "PY_SUBPROCESS_COMMAND_FAILED",
                           "BUILD_COMPILER_COMMAND_FAILED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) == 8 and "NCCL_CUDA_GRAPH_CAPTURE_UNSUPPORTED" in IDS and "TORCH_MEM_EFF_ATTENTION_NO_KERNEL" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mend_r25_b.json" and not sig.ascend_fd
        assert sig.kind == "root", sid
        assert not sig.fallback, sid


@pytest.mark.parametrize("line, sig_id, said", [
    ("INFO:torch.distributed.distributed_c10d:Waiting in store based barrier to initialize process group for rank: 5, "
     "key: store_based_barrier_key:1 (world_size=16, worker_count=9, timeout=0:30:00)", "TORCH_STORE_BARRIER_WAITING",
     "Rank 5 is waiting in the store-based barrier of process-group initialization: 9 of 16 processes"),
    ("[W] Waiting in store based barrier to initialize process group for 30.02 secondsrank: 2, key: "
     "store_based_barrier_key:3 (world_size=4, num_workers_joined=3, timeout=0:10:00 error=Wait timeout)",
     "TORCH_STORE_BARRIER_WAITING", "Rank 2 is waiting"),
    ("h100-7:3120:3120 [3] NCCL WARN NCCL cannot be captured in a graph if either it wasn't built with CUDA runtime "
     ">= 11.3 or if the installed CUDA driver < R465.", "NCCL_CUDA_GRAPH_CAPTURE_UNSUPPORTED",
     "built with a CUDA runtime older than 11.3, or the CUDA driver is older than R465"),
    ("a100:55:55 [0] enqueue.cc:1089 NCCL WARN The installed CUDA driver is older than the minimum version (R465) "
     "required for NCCL's CUDA Graphs support", "NCCL_CUDA_GRAPH_CAPTURE_UNSUPPORTED",
     "NCCL was called inside a CUDA graph capture and cannot take part in it here: the installed CUDA driver is older"),
    ("RuntimeError: cutlassF: no kernel found to launch!", "TORCH_MEM_EFF_ATTENTION_NO_KERNEL", "(CUTLASS, `cutlassF`)"),
    ("[rank1]: RuntimeError: cutlassB: no kernel found to launch!", "TORCH_MEM_EFF_ATTENTION_NO_KERNEL",
     "`cutlassB`) has no kernel for these inputs on this GPU"),
    ("subprocess.CalledProcessError: Command '['D:\\\\ComfyUI\\\\python_embeded\\\\Lib\\\\site-packages\\\\triton\\\\backends"
     "\\\\nvidia\\\\bin\\\\ptxas.exe', '--version']' returned non-zero exit status 3221225794.",
     "TRITON_PTXAS_VERSION_RUN_FAILED", "returned exit status 3221225794, Windows' 0xC0000142"),
    ("subprocess.CalledProcessError: Command '['C:\\\\py\\\\triton\\\\backends\\\\nvidia\\\\bin\\\\ptxas.exe', '--version']' "
     "returned non-zero exit status 3221225477.", "TRITON_PTXAS_VERSION_RUN_FAILED", "0xC0000005 (an access violation"),
    ("subprocess.CalledProcessError: Command '['/opt/conda/lib/python3.11/site-packages/triton/backends/nvidia/bin/"
     "ptxas-blackwell', '--version']' returned non-zero exit status 127.", "TRITON_PTXAS_VERSION_RUN_FAILED",
     "`ptxas --version` returned exit status 127"),
    ("    cuda_cores_per_mp = { 5.0 : 128, 5.1 : 128, 5.2 : 128, 6.0 : 64, 6.1 : 128, 6.2 : 128, 7.0 : 64, 7.5 : 64}"
     "[compute_capability]", "PYCUDA_DEVICEQUERY_CORES_TABLE_LACKS_CC", "`cuda_cores_per_mp` (CUDA cores per multiprocessor)"),
    ("MapSMtoCores for SM 10.0 is undefined.  Default to use 128 Cores/SM", "CUDA_SAMPLES_SM_VERSION_NOT_IN_TABLE",
     "no entry for SM 10.0: it goes on with its newest entry's value (128 cores per multiprocessor)"),
    ("MapSMtoArchName for SM 8.9 is undefined.  Default to use Ampere", "CUDA_SAMPLES_SM_VERSION_NOT_IN_TABLE",
     "(architecture name `Ampere`)"),
    ("error: 'cute.copy' op expects pred to have compatible shape with: ((8,1),(2)) but got actual predShape: (8,(2))",
     "CUTE_DSL_COPY_PREDICATE_REJECTED", "(`((8,1),(2))` expected, predShape `(8,(2))` given)"),
    ("error: unknown: 'cute.copy' op expects pred to be CuteMemRefType", "CUTE_DSL_COPY_PREDICATE_REJECTED",
     "rejected the predicate (pred) of `cute.copy` while compiling the kernel: expects pred to be CuteMemRefType"),
    # the message's other printings: the torch 2.13.0 wheel's tuple, as it came out here; older releases' line break
    ("RuntimeError: ('The detected CUDA version (%s) mismatches the version that was used to compilePyTorch (%s). "
     "Please make sure to use the same CUDA versions.', '12.3', '11.8')", "TORCH_EXTENSION_CUDA_VERSION_MISMATCH",
     "The CUDA toolkit found (12.3) differs from the CUDA version torch was built with (11.8)"),
    ("      RuntimeError: The detected CUDA version (10.2) mismatches the version that was used to compile",
     "TORCH_EXTENSION_CUDA_VERSION_MISMATCH", "(10.2) differs from the CUDA version torch was built with (named on"),
    ("KeyError: 8.9", "PY_DICT_KEY_NOT_FOUND", "has no key 8.9"),
    # Windows' NTSTATUS exit statuses, unsigned (Python's subprocess) and signed (an IDE's run window)
    ("subprocess.CalledProcessError: Command '['D:\\\\sd\\\\venv\\\\Scripts\\\\python.exe', 'launch.py']' returned "
     "non-zero exit status 3221225477.", "WINDOWS_PROCESS_ENDED_WITH_NTSTATUS",
     "exit status 3221225477, 0xC0000005 STATUS_ACCESS_VIOLATION"),
    ("Process finished with exit code -1073741515 (0xC0000135)", "WINDOWS_PROCESS_ENDED_WITH_NTSTATUS",
     "0xC0000135 STATUS_DLL_NOT_FOUND: a DLL it needs was not found"),
    ("Process finished with exit code -1073740791 (0xC0000409)", "WINDOWS_PROCESS_ENDED_WITH_NTSTATUS",
     "0xC0000409 STATUS_STACK_BUFFER_OVERRUN"),
    ("subprocess.CalledProcessError: Command '['node.exe', 'build.js']' returned non-zero exit status 3221225794.",
     "WINDOWS_PROCESS_ENDED_WITH_NTSTATUS", "0xC0000142 STATUS_DLL_INIT_FAILED"),
    ("AttributeError: module 'torch._C' has no attribute '_cuda_getDevice'", "TORCH_CUDA_CALLED_ON_NPU_HOST",
     "PyTorch has no CUDA (a torch build without CUDA, such as the CPU-only wheel): a GPU machine needs a CUDA build"),
    ("AssertionError: Torch not compiled with CUDA enabled", "TORCH_CUDA_CALLED_ON_NPU_HOST",
     "on an Ascend host that code path needs the NPU"),
    ("KeyError: Caught KeyError in replica 0 on device 0.", "TORCH_DATALOADER_WORKER_RAISED",
     "raised in replica 0 on device 0 and raised again in the main process: the module's forward"),
    ("RuntimeError: Caught RuntimeError in replica 1 on device 1.", "TORCH_DATALOADER_WORKER_RAISED",
     "the module's forward (the model and whatever its forward calls, such as a loss) run on that device failed"),
    ("KeyError: Caught KeyError in DataLoader worker process 0.", "TORCH_DATALOADER_WORKER_RAISED",
     "the code it ran there (the Dataset's __getitem__, a transform or the collate_fn) failed"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


def test_a_replica_is_not_said_to_run_a_dataset(kb):
    for line in ("KeyError: Caught KeyError in replica 0 on device 0.",
                 "IndexError: Caught IndexError in replica 3 on device cuda:3."):
        assert "Dataset" not in explained_title(kb, line, "TORCH_DATALOADER_WORKER_RAISED", among=FAMILY)


def test_the_cuda_mismatch_quoted_in_prose_is_a_warning_and_the_raise_a_fail(kb):
    sig = kb.signature("TORCH_EXTENSION_CUDA_VERSION_MISMATCH")
    assert sig.severity_on("RuntimeError: The detected CUDA version (12.1) mismatches the version that was used to "
                           "compile PyTorch (11.8). Please make sure to use the same CUDA versions.") == "fail"
    assert sig.severity_on("if you see The detected CUDA version (12.3) mismatches the version that was used to "
                           "compile") == "warn"


@pytest.mark.parametrize("line", [
    "INFO:torch.distributed.distributed_c10d:Rank 0: Completed store-based barrier for key:store_based_barrier_key:1 "
    "with 8 nodes.", "INFO:torch.distributed.distributed_c10d:Added key: store_based_barrier_key:1 to store for rank: 0",
    "NCCL version 2.18.6+cuda11.8", "NCCL INFO NCCL_GRAPH_REGISTER set by environment to 1",
    "INFO 04-01 10:00:00 model_runner.py:1000] Capturing cudagraphs for decoding.",
    "torch.backends.cuda.enable_mem_efficient_sdp(False)", "fmha_cutlassF_f16_aligned_64x64_rf_sm75",
    "ptxas --version", "Cuda compilation tools, release 12.4, V12.4.131",
    "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.",
    "    cuda_cores_per_mp = table.get(compute_capability)", "\t Compute Capability: 7.5",
    "cute.copy(tiled_copy_A, tAgA, tAsA, pred=pA)", "pA = cute.make_fragment_like(tAgA, cutlass.Boolean)",
    "[INFO] error: 'cute.copy' op expects pred to have static shape",
    "  CUDA Capability Major/Minor version number:    8.9",
    "  (128) Multiprocessors, (128) CUDA Cores/MP:    16384 CUDA Cores",
    "Process finished with exit code 0", "allocated 3221225477 bytes of pinned memory",
    "subprocess.CalledProcessError: Command '['git', 'describe']' returned non-zero exit status 128.",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_the_ptxas_line_is_the_triton_entry_s_alone(kb):
    line = ("subprocess.CalledProcessError: Command '['C:\\\\t\\\\ptxas.exe', '--version']' returned non-zero exit status "
            "3221225794.")
    assert "WINDOWS_PROCESS_ENDED_WITH_NTSTATUS" not in [s.id for s in kb.explaining(line)]


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, [s for s in FAMILY if s != "PY_SUBPROCESS_COMMAND_FAILED"]) == []
