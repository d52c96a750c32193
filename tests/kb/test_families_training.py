"""data/kb/families_training.json: the training stacks' own messages on Ascend (torch_npu's ERR codes, torch.distributed's
store and torchrun's agent, DeepSpeed's and PyTorch's operator builders). Each entry reads members its examples do not
show, says what the line says (the code's sub-module and meaning, the rank, the library, the store's reason, the signal),
stays quiet on ordinary lines and on every clean excerpt, and gives way where a specific entry knows the line."""

import json
import os

import pytest

from ascend_doctor.data import data_path
from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, part_ids

PART = data_path(os.path.join("kb", "families_training.json"))
IDS = part_ids("families_training")


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert set(IDS) >= {"TORCH_NPU_ERROR_CODE", "TORCH_DIST_STORE_UNIQUE_ID_EXCHANGE_FAILED",
                        "TORCH_DIST_STORE_CONNECT_FAILED", "TORCH_ELASTIC_AGENT_GOT_SIGNAL",
                        "TORCH_ELASTIC_EXIT_BARRIER_FAILED", "TORCH_DIST_PROCESS_GROUP_NOT_INITIALIZED",
                        "OP_BUILDER_TOOLKIT_NOT_FOUND", "LIBRARY_GPU_CHECK_FAILED", "TORCH_CHECKPOINT_SHAPE_MISMATCH",
                        "TORCH_TENSOR_SHAPE_MISMATCH", "SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT",
                        "TORCH_NPU_OP_NEEDS_NEWER_CANN", "FEATURE_NOT_SUPPORTED_ON_NPU",
                        "TORCH_DDP_PARAMETER_GRADIENT_MISMATCH", "TORCH_BACKWARD_WITHOUT_GRAD",
                        "TORCH_AMP_UNSCALE_FP16_GRADIENTS", "TORCH_DTYPE_MISMATCH", "CHECKPOINT_FILE_UNREADABLE",
                        "TORCH_META_TENSOR_NO_DATA", "TORCH_STORE_BARRIER_TIMEOUT", "RAY_ACCELERATORS_INSUFFICIENT",
                        "TORCH_ELASTIC_RENDEZVOUS_CLOSED"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_training.json" and sig.kind == "root" and not sig.ascend_fd
    # the code entry is a class: a specific entry that knows the line is named instead of it
    assert kb.signature("TORCH_NPU_ERROR_CODE").fallback and kb.signature("SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT").fallback


@pytest.mark.parametrize("line, sig_id, said", [
    # torch_npu's codes its examples do not show: another sub-module, another kind; the title says both from the table
    ("[ERROR] 2025-01-02-03:04:05 (PID:77, Device:3, RankID:3) ERR02011 DIST timeout error", "TORCH_NPU_ERROR_CODE",
     "ERR02011: timeout error in its DIST sub-module"),
    ("RuntimeError: Open shared directory failed. Please check whether file is valid.\n[ERROR] 2025-01-02-03:04:05 "
     "(PID:77, Device:0, RankID:-1) ERR02009 DIST resource unavailable", "TORCH_NPU_ERROR_CODE",
     "ERR02009: resource unavailable in its DIST sub-module"),
    ("[ERROR] 2024-11-12-10:00:00 (PID:9, Device:1, RankID:-1) ERR04012 PROF permission error", "TORCH_NPU_ERROR_CODE",
     "permission error in its PROF sub-module (profiler)"),
    ("[ERROR] 2024-11-12-10:00:00 (PID:9, Device:1, RankID:-1) ERR00006 PTA memory error", "TORCH_NPU_ERROR_CODE",
     "ERR00006: memory error in its PTA sub-module"),
    # the store read of another library and another reason, and torch_npu's 'Unknown exception' form
    ("torch.distributed.DistBackendError: [5] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via "
     "c10d key-value store by key '0:1', but store->get('0:1') got error: Connection reset by peer",
     "TORCH_DIST_STORE_UNIQUE_ID_EXCHANGE_FAILED", "Rank 5 could not get the NCCL communicator's unique id from rank 0 "
     "through the c10d store (Connection reset by peer)"),
    ("RuntimeError: Unknown exception while [7] is setting up HCCL communicator and retrieving hcclUniqueId from [0] via "
     "c10d key-value store by key '3'. This may indicate a possible application crash on rank 0 or a network set up "
     "issue.", "TORCH_DIST_STORE_UNIQUE_ID_EXCHANGE_FAILED", "Rank 7 could not get the HCCL communicator's"),
    # the store's connection refused, with the reason the socket gives
    ("torch.distributed.DistNetworkError: The client socket has failed to connect to any network address of (10.1.2.3, "
     "29500). The client socket has failed to connect to 10.1.2.3:29500 (errno: 111 - Connection refused).",
     "TORCH_DIST_STORE_CONNECT_FAILED", "at `10.1.2.3, 29500` (Connection refused)"),
    # the agent's signal in the form of other Python versions and another signal
    ("torch.distributed.elastic.multiprocessing.api.SignalException: Process 812 got signal: Signals.SIGTERM",
     "TORCH_ELASTIC_AGENT_GOT_SIGNAL", "SIGTERM, a kill or the scheduler"),
    ("torch.distributed.elastic.multiprocessing.api.SignalException: Process 812 got signal: 10",
     "TORCH_ELASTIC_AGENT_GOT_SIGNAL", "stopped by a signal (10)"),
    ("[2025-02-01 10:00:00,000] torch.distributed.elastic.agent.server.api: [ERROR] Error waiting on exit barrier. "
     "Elapsed: 300.1 seconds", "TORCH_ELASTIC_EXIT_BARRIER_FAILED", "after 300.1 s"),
    ("torch.distributed.DistBackendError: Default process group has not been initialized, please make sure to call "
     "init_process_group.", "TORCH_DIST_PROCESS_GROUP_NOT_INITIALIZED", "before the default process group"),
    # the builders' other toolkit messages
    ("deepspeed.ops.op_builder.builder.MissingCUDAException: Unable to run /usr/local/cuda/bin/nvcc, unable to compile "
     "CUDA op(s): [Errno 2] No such file or directory", "OP_BUILDER_TOOLKIT_NOT_FOUND",
     "`Unable to run /usr/local/cuda/bin/nvcc, unable to compile CUDA op(s)`"),
    ("RuntimeError: Unable to JIT load the fused_adam op due to ninja not being installed.",
     "OP_BUILDER_TOOLKIT_NOT_FOUND", "ninja not being installed"),
    # the GPU checks: accelerate's for another device, flash-attn's own, torch's lazy CUDA init
    ("ValueError: fp16 mixed precision requires a GPU (not 'cpu').", "LIBRARY_GPU_CHECK_FAILED",
     "`fp16 mixed precision requires a GPU (not 'cpu')`"),
    ("RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "LIBRARY_GPU_CHECK_FAILED",
     "FlashAttention cannot give this job"),
    ("ValueError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: Flash "
     "Attention 2 is not available on CPU. Please make sure torch can access a CUDA device.",
     "LIBRARY_GPU_CHECK_FAILED", "`Flash Attention 2 is not available on CPU`"),
    # a checkpoint's shape printed without torch.Size (older versions), a Megatron shard of another TP split
    ("\tsize mismatch for decoder.layers.0.self_attention.linear_qkv.weight: copying a param with shape "
     "torch.Size([1536, 4096]) from checkpoint, the shape in current model is torch.Size([768, 4096]).",
     "TORCH_CHECKPOINT_SHAPE_MISMATCH", "(checkpoint [1536, 4096], model [768, 4096])"),
    # the other shape checks
    ("RuntimeError: The expanded size of the tensor (4096) must match the existing size (2048) at non-singleton "
     "dimension 1.  Target sizes: [1, 4096].  Tensor sizes: [2048]", "TORCH_TENSOR_SHAPE_MISMATCH",
     "(4096 against 2048, dimension 1)"),
    ("RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x3584 and 4096x4096)", "TORCH_TENSOR_SHAPE_MISMATCH",
     "(8x3584 against 4096x4096)"),
    # the divisibility checks of MindSpeed, MindFormers and DeepSpeed, said as printed
    ("AssertionError: Number of experts(60) is not divisible by ep size(8).", "SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT",
     "`Number of experts(60) is not divisible by ep size(8)`"),
    ("ValueError: worker_num (6) must be divisible by tensor_parallel (4)", "SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT",
     "`worker_num (6) must be divisible by tensor_parallel (4)`"),
    ("[rank0]: AssertionError: Number of heads (28) must be divisible by the sequence parallel size (8)!",
     "SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT", "`Number of heads (28) must be divisible by the sequence parallel size (8)`"),
    # op-plugin's other CANN checks: the operator named after the colon, another option, another quant mode
    ("RuntimeError: Current CANN version do not support this api: npu_swiglu_mx_quant_with_dual_axis. Please try to "
     "update the version of CANN.", "TORCH_NPU_OP_NEEDS_NEWER_CANN", "(`npu_swiglu_mx_quant_with_dual_axis`)"),
    ("RuntimeError: In this CANN Version, comm_mode is not supported, please upgrade CANN Version.",
     "TORCH_NPU_OP_NEEDS_NEWER_CANN", "`In this CANN Version, comm_mode is not supported, please upgrade CANN Version`"),
    ("RuntimeError: aclnnQuantMatmulV5 support A8W4, please upgrade CANN.", "TORCH_NPU_OP_NEEDS_NEWER_CANN",
     "(`aclnnQuantMatmulV5`)"),
    ("ValueError: Number of heads (4) cannot be evenly divided by TP (8).", "SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT",
     "`Number of heads (4) cannot be evenly divided by TP (8)`"),
    # features refused on the NPU or on a chip, by other frameworks and in other words
    ("ValueError: FP64 Gumbel sampling is not supported on NPU.", "FEATURE_NOT_SUPPORTED_ON_NPU",
     "`FP64 Gumbel sampling is not supported on NPU`"),
    ("NotImplementedError: MLA is not supported on 310P currently.", "FEATURE_NOT_SUPPORTED_ON_NPU",
     "`MLA is not supported on 310P currently`"),
    ("RuntimeError: Decode Context parallelism is not supported by Ascend NPU model runner v2.",
     "FEATURE_NOT_SUPPORTED_ON_NPU", "`Decode Context parallelism is not supported by Ascend NPU model runner v2`"),
    # PyTorch's training checks, in the forms other versions and launchers print them
    ("[rank3]: RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one.",
     "TORCH_DDP_PARAMETER_GRADIENT_MISMATCH", "some parameters got no gradient in the previous iteration"),
    ("RuntimeError: Expected to mark a variable ready only once. This error is caused by one of the following reasons:",
     "TORCH_DDP_PARAMETER_GRADIENT_MISMATCH", "marked ready twice in one iteration"),
    ("[rank0]: RuntimeError: element 2 of tensors does not require grad and does not have a grad_fn",
     "TORCH_BACKWARD_WITHOUT_GRAD", "(element 2 of the tensors has no grad_fn)"),
    ("  File \"/usr/lib/python3.10/site-packages/torch/amp/grad_scaler.py\", line 260, in _unscale_grads_\nValueError: "
     "Attempting to unscale FP16 gradients.", "TORCH_AMP_UNSCALE_FP16_GRADIENTS", "fp16 gradients to unscale"),
    ("RuntimeError: expected mat1 and mat2 to have the same dtype, but got: struct c10::Half != struct c10::BFloat16",
     "TORCH_DTYPE_MISMATCH", "(c10::Half and c10::BFloat16)"),
    ("RuntimeError: Input type (float) and bias type (c10::BFloat16) should be the same", "TORCH_DTYPE_MISMATCH",
     "(float and c10::BFloat16)"),
    ("RuntimeError: expected scalar type Float but found BFloat16", "TORCH_DTYPE_MISMATCH", "(Float and BFloat16)"),
    # weights files: safetensors' other header error, torch.load's weights_only refusal
    ("safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer",
     "CHECKPOINT_FILE_UNREADABLE", "do not cover the file's data"),
    ("_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options",
     "CHECKPOINT_FILE_UNREADABLE", "weights_only=True refused"),
    ("[rank1]: NotImplementedError: Cannot copy out of meta tensor; no data!", "TORCH_META_TENSOR_NO_DATA",
     "meta device"),
    ("RuntimeError: Timed out initializing process group in store based barrier on rank: 5, for key: "
     "store_based_barrier_key:1 (world_size=16, worker_count=8, timeout=0:30:00)", "TORCH_STORE_BARRIER_TIMEOUT",
     "on rank 5: 8 of 16 processes arrived"),
    # verl on an NPU cluster counting NPUs, vLLM's Ray executor in its NPU wording
    ("ray.exceptions.RayTaskError(ValueError): ValueError: Total available NPUs 4.0 is less than total desired NPUs 8",
     "RAY_ACCELERATORS_INSUFFICIENT", "(4.0 available, 8 wanted)"),
    ("ValueError: The number of required NPUs exceeds the total number of available NPUs in the placement group.",
     "RAY_ACCELERATORS_INSUFFICIENT", "Ray offers fewer accelerators"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    line = line.split("\n")[-1]
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # torch_npu: the envelope codes are the wrapper's, the prompt form prints no code, a warning is not a failure
    "[ERROR] 2025-08-05-08:05:26 (PID:504068, Device:0, RankID:-1) ERR00100 PTA call acl api failed",
    "[ERROR] 2024-05-17-01:30:26 (PID:41961, Device:0, RankID:-1) ERR01005 OPS internal error",
    "[ERROR] 2024-10-12-11:58:06 (PID:1727, Device:0, RankID:-1) ERR99999 UNKNOWN application exception",
    "[W compiler_depend.ts:1] Warning: ERR01002 OPS invalid type for op Cast, falling back",
    "ERR01099 OPS something new",
    # distributed: connecting, retrying, waiting and finishing normally
    "[I socket.cpp:480] [c10d] The client socket has connected to [node-1]:29500 on [node-2]:41234.",
    "[W socket.cpp:663] [c10d] The client socket has failed to connect to [node-1]:29500 (errno: 111 - Connection "
    "refused).",
    "W0616 01:23:35.697000 4086486 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 4086595 "
    "closing signal SIGTERM",
    "INFO:torch.distributed.elastic.agent.server.api:Done waiting for other agents. Elapsed: 0.0013 seconds",
    "    raise SignalException(f\"Process {os.getpid()} got signal: {sigval}\", sigval=sigval)",
    "[INFO] init_process_group done, default process group initialized with backend hccl",
    # the builders: their source lines and warnings
    "        raise MissingCUDAException(\"CUDA_HOME does not exist, unable to compile CUDA op(s)\")",
    "UserWarning: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.",
    "[INFO] [real_accelerator.py:203:get_accelerator] Setting ds_accelerator to npu (auto detect)",
    # GPU checks and shapes said in passing
    "Using FlashAttention2 because attn_implementation='flash_attention_2'",
    "[INFO] bf16 is supported on this device, using bf16 mixed precision",
    "Some weights of the checkpoint were not used when initializing Qwen2ForCausalLM",
    "loss: 0.53, grad_norm: 1.2, tensor a shape [4096] matches tensor b",
    "[INFO] hidden size 4096 is divisible by tensor parallel size 8",
    "    assert numerator % denominator == 0, '{} is not divisible by {}'.format(",
    "WARNING: vocab size 151936 is not divisible by 128, padding to 152064",
    "                \"Current CANN version do not support this api. Please try to update the version of CANN.\"",
    "[INFO] current CANN version 8.3.RC1 supports this api",
    "[rank0]:[W1110 02:29:51.501860208 compiler_depend.ts:51] Warning: CAUTION: The operator 'vllm::inplace_all_reduce' "
    "is not currently supported on the NPU backend and will fall back to run on the CPU.",
    "INFO 06-19 11:30:19 [platform.py:1] npugraph_ex is not supported on Ascend 310P. Disabling it.",
    "trainable params: 4,194,304 || all params: 6,742,609,920 || trainable%: 0.0622",
    "    raise ValueError(\"Attempting to unscale FP16 gradients.\")",
    "[INFO] expected scalar type: bfloat16 (from config.json)",
    "Loading checkpoint shards: 100%|██████████| 4/4 [00:20<00:00,  5.20s/it]",
    "[INFO] initializing model on the meta device to save memory",
    "INFO:torch.distributed.distributed_c10d:Rank 0: Completed store-based barrier for key:store_based_barrier_key:1 "
    "with 8 nodes.",
    "Resources: 0.0/8.0 NPU, 0.0/192.0 CPU",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_each_example_is_its_entrys_and_no_other_line_claims_the_torch_npu_code(kb):
    # every example is explained by its own entry; torch_npu's code line is not read as a driver mismatch or a missing
    # CANN library (DRIVER_CANN_FEATURE_MISMATCH read 'feature not supported', CANN_ENV_LIB_NOT_FOUND read ERR00008)
    for sid in IDS:
        for line in kb.signature(sid).examples:
            assert sid in [s.id for s in kb.explaining(line)], (sid, line)
    for line in kb.signature("TORCH_NPU_ERROR_CODE").examples:
        assert [s.id for s in kb.explaining(line)] == ["TORCH_NPU_ERROR_CODE"], line


def test_the_code_entrys_pattern_is_what_the_table_gives():
    from tests.helpers import script_module

    builder = script_module("build_acl_code_rule")
    table = json.load(open(data_path("torch_npu_error_codes.json"), encoding="utf-8"))
    part = json.load(open(PART, encoding="utf-8"))
    entry = next(s for s in part["signatures"] if s["id"] == "TORCH_NPU_ERROR_CODE")
    assert entry["pattern"] == builder.torch_npu_pattern(table), "run scripts/build_acl_code_rule.py"
    # every non-envelope code of every listed sub-module is read, no envelope code is
    from ascend_doctor.kb.load import load_knowledge_base

    sig = load_knowledge_base().signature("TORCH_NPU_ERROR_CODE")
    for sub, s in table["submodules"].items():
        for code, c in table["codes"].items():
            line = f"[ERROR] 2025-01-01-00:00:00 (PID:1, Device:0, RankID:-1) ERR{sub}{code} {s['name']} {c['meaning']}"
            want = not c.get("envelope") and code != "000" and s["name"] != "UNKNOWN"
            assert sig.search(line) == want, line


@pytest.mark.parametrize("line, said", [
    # torch_npu's out-of-memory forms (NPUCachingAllocator.cpp, NPUWorkspaceAllocator.cpp): the title says the device
    # and the sizes the line gives
    ("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.1 GiB already "
     "allocated; 58.1 GiB current active; 1.2 GiB free; 59.0 GiB reserved in total by PyTorch)",
     "torch_npu: NPU 0 out of memory: tried to allocate 2.00 GiB, 60.97 GiB total capacity, 1.2 GiB free"),
    ("RuntimeError: NPU out of memory. NPUWorkspaceAllocator tried to allocate 1.50 GiB(NPU 3; 60.96 GiB total "
     "capacity; 1.2 GiB free)", "torch_npu: NPU 3 out of memory: tried to allocate 1.50 GiB"),
    ("RuntimeError: NPU out of memory. device id: 5", "torch_npu: NPU 5 out of memory"),
    ("torch.OutOfMemoryError: NPU out of memory. Tried to allocate 20.00 MiB",
     "torch_npu: NPU out of memory: tried to allocate 20.00 MiB"),
])
def test_the_torch_npu_out_of_memory_entry_says_the_device_and_sizes(kb, line, said):
    assert [s.id for s in kb.explaining(line)] == ["TORCH_NPU_OOM"]
    assert kb.signature("TORCH_NPU_OOM").text("en", line=line)[0] == said


@pytest.mark.parametrize("line, said", [
    # PyTorch's device check, both its forms: the title says the two devices and the operator the line names
    ("[rank0]: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, npu:0 and "
     "cpu! (when checking argument for argument r1 in method wrapper__npu_rotary_mul)",
     "Operator inputs on different devices (npu:0 and cpu), in `wrapper__npu_rotary_mul`"),
    ("RuntimeError: Expected all tensors to be on the same device, but got index is on cpu, different from other "
     "tensors on npu:1 (when checking argument in method wrapper_NPU__index_select)",
     "Operator inputs on different devices (cpu and npu:1), in `wrapper_NPU__index_select`"),
])
def test_the_device_mismatch_entry_says_the_devices(kb, line, said):
    assert [s.id for s in kb.explaining(line)] == ["PT_TENSORS_DIFFERENT_DEVICES"]
    assert kb.signature("PT_TENSORS_DIFFERENT_DEVICES").text("en", line=line)[0] == said


@pytest.mark.parametrize("sid, line, said", [
    # torch_npu's watchdog line (ProcessGroupHCCL.cpp: WorkHCCL(SeqNum=..., OpType=..., ..., Timeout(ms)=...)) and a
    # missing torch_npu attribute: the titles say the collective, its number and timeout, and the missing name
    ("TORCH_NPU_HCCL_WATCHDOG_TIMEOUT",
     "[rank3]:[E1105 10:12:40.123456789 compiler_depend.ts:574] [Rank 3] Watchdog caught collective operation timeout: "
     "WorkHCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800123 milliseconds "
     "before timing out.",
     "torch_npu HCCL watchdog: a collective (ALLREDUCE, SeqNum 12) did not finish within the process-group timeout of "
     "1800000 ms"),
    ("TORCH_NPU_VERSION_MISMATCH", "AttributeError: module 'torch_npu' has no attribute 'npu_mla_prolog'",
     "torch / torch_npu / framework (vllm-ascend ...) version combination not supported: torch_npu has no "
     "`npu_mla_prolog`"),
])
def test_torch_npu_entries_say_what_their_line_gives(kb, sid, line, said):
    assert sid in [s.id for s in kb.explaining(line)]
    assert kb.signature(sid).text("en", line=line)[0] == said
