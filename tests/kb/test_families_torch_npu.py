"""data/kb/families_torch_npu.json: torch_npu's own checks (github.com/Ascend/pytorch) and its operator plugin's
(github.com/Ascend/op-plugin), written from their message strings: the NPU re-initialised in a forked subprocess, CANN
functions torch_npu looks up at run time and does not find, environment variables and allocator configuration it
rejects, ProcessGroupHCCL's tensor and option checks, the npu_* operators' argument checks, the task queue that had
already stopped, torch_npu builds that differ between ranks, and the profiler's failures. Each entry reads members its
examples do not show, says the member in its title, stays quiet on ordinary lines that share its words and on every
clean excerpt of the corpus, and one line is one problem of the family. The steps of a source build (setup.py) and
torch_npu's own errors in the CANN log ([PTA]:, a class entry of last resort) are read too. The members added to other parts' entries
(PT_CANN_ENV_NOT_SET, HCCL_WATCHDOG_TIMEOUT_WARNING, NPU_DEVICE_COUNT_UNAVAILABLE,
PT_TENSORS_DIFFERENT_DEVICES, TORCH_NPU_MEMORY_FORMAT_UNSUPPORTED, TORCH_NPU_ACLNN_NOT_IN_OPAPI) are checked on their new lines."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_torch_npu")
EXTENDED = ["PT_CANN_ENV_NOT_SET", "HCCL_WATCHDOG_TIMEOUT_WARNING", "NPU_DEVICE_COUNT_UNAVAILABLE",
            "PT_TENSORS_DIFFERENT_DEVICES", "TORCH_NPU_MEMORY_FORMAT_UNSUPPORTED", "TORCH_NPU_ACLNN_NOT_IN_OPAPI"]
FAMILY = IDS + ["TORCH_NPU_ERROR_CODE", "TORCH_NPU_OP_NEEDS_NEWER_CANN", "NPU_FUSION_ATTENTION_ARGUMENT_REJECTED",
                "DIST_BACKEND_OP_NOT_SUPPORTED", "PT_COLLECTIVE_NON_CONTIGUOUS", "PT_SCATTER_GATHER_LIST_SIZE",
                "PT_COLLECTIVE_DTYPE_MISMATCH", "TORCH_NPU_ACLNN_NOT_IN_OPAPI", "PT_CANN_ENV_NOT_SET",
                "NPU_DEVICE_COUNT_UNAVAILABLE"]
CLASS_ENTRIES = {"TORCH_NPU_ENV_VAR_VALUE_INVALID", "TORCH_NPU_ALLOCATOR_CONFIG_INVALID",
                 "HCCL_PG_COLLECTIVE_TENSORS_REJECTED", "TORCH_NPU_CUSTOM_OP_ARGUMENT_REJECTED",
                 "TORCH_NPU_PROFILER_FAILED", "TORCH_NPU_SOURCE_BUILD_STEP_FAILED", "TORCH_NPU_PLOG_ERROR_LOGGED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert set(IDS) == {"TORCH_NPU_FORKED_SUBPROCESS_REINIT", "TORCH_NPU_CANN_FUNCTION_NOT_FOUND",
                        "TORCH_NPU_ENV_VAR_VALUE_INVALID", "TORCH_NPU_ALLOCATOR_CONFIG_INVALID",
                        "HCCL_PG_COLLECTIVE_TENSORS_REJECTED", "HCCL_PG_OPTIONS_INVALID",
                        "TORCH_NPU_CUSTOM_OP_ARGUMENT_REJECTED", "TORCH_NPU_TASK_QUEUE_ALREADY_EXITED",
                        "TORCH_NPU_RANKS_BUILD_MISMATCH", "TORCH_NPU_PROFILER_FAILED",
                        "TORCH_NPU_SOURCE_BUILD_STEP_FAILED", "TORCH_NPU_PLOG_ERROR_LOGGED",
                        "TORCH_NPU_AS_STRIDED_ON_INTERNAL_FORMAT", "LCCL_PROCESS_GROUP_CALL_FAILED"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_torch_npu.json" and not sig.ascend_fd, sid
        assert sig.fallback == (sid in CLASS_ENTRIES), sid
        assert sig.kind == ("wrapper" if sid == "TORCH_NPU_TASK_QUEUE_ALREADY_EXITED" else "root"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # the forked subprocess, behind a plain traceback and behind LlamaFactory's vLLM worker prefix
    ("RuntimeError: Cannot re-initialize NPU in forked subprocess. To use NPU with multiprocessing, you must use the "
     "'spawn' start method", "TORCH_NPU_FORKED_SUBPROCESS_REINIT", "forked subprocess"),
    # CANN functions looked up at run time: HCCL, the profiler, the op compiler (two spaces), the ACL runtime
    ("[rank0]: RuntimeError: Failed to find function HcclCreateSubCommConfig", "TORCH_NPU_CANN_FUNCTION_NOT_FOUND",
     "`HcclCreateSubCommConfig`"),
    ("RuntimeError: Failed to find function aclprofWarmup\n[ERROR] 2025-03-01-10:00:00 (PID:1, Device:0, RankID:-1) "
     "ERR04008 PROF resource not found", "TORCH_NPU_CANN_FUNCTION_NOT_FOUND", "`aclprofWarmup`"),
    ("RuntimeError: Failed to find function  aclDestroyAclOpExecutor", "TORCH_NPU_CANN_FUNCTION_NOT_FOUND",
     "`aclDestroyAclOpExecutor`"),
    ("RuntimeError: Failed to find function aclrtCreateEventWithFlag", "TORCH_NPU_CANN_FUNCTION_NOT_FOUND",
     "`aclrtCreateEventWithFlag`"),
    # the driver's DCMI (its own hint about the HDK), LCCL, and the form without a space
    ("RuntimeError: Failed to find function dcmi_get_card_num_list,  maybe your hdk version is too low, please upgrade it.",
     "TORCH_NPU_CANN_FUNCTION_NOT_FOUND", "`dcmi_get_card_num_list`"),
    ("RuntimeError: Failed to find function lcclAllReduce", "TORCH_NPU_CANN_FUNCTION_NOT_FOUND", "`lcclAllReduce`"),
    ("RuntimeError: Failed to find functionaclrtSynchronizeStreamWithTimeout and aclrtSynchronizeStream",
     "TORCH_NPU_CANN_FUNCTION_NOT_FOUND", "`aclrtSynchronizeStreamWithTimeout`"),
    # environment variables: the 0/1 switches, sizes, paths, ASD's config, ACL_OP_INIT_MODE's JIT form
    ("RuntimeError: ASCEND_LAUNCH_BLOCKING should be 0 or 1.", "TORCH_NPU_ENV_VAR_VALUE_INVALID",
     "`ASCEND_LAUNCH_BLOCKING`: should be 0 or 1"),
    ("RuntimeError: HCCL_BUFFSIZE should be positive.", "TORCH_NPU_ENV_VAR_VALUE_INVALID",
     "`HCCL_BUFFSIZE`: should be positive"),
    ("RuntimeError: ACL_DEVICE_SYNC_TIMEOUT must be positive.", "TORCH_NPU_ENV_VAR_VALUE_INVALID",
     "`ACL_DEVICE_SYNC_TIMEOUT`: must be positive"),
    ("RuntimeError: P2P_HCCL_BUFFSIZE cannot be negative.", "TORCH_NPU_ENV_VAR_VALUE_INVALID",
     "`P2P_HCCL_BUFFSIZE`: cannot be negative"),
    ("RuntimeError: `OOM_SNAPSHOT_PATH` is invalid.", "TORCH_NPU_ENV_VAR_VALUE_INVALID", "`OOM_SNAPSHOT_PATH`: is invalid"),
    ("RuntimeError: PERF_DUMP_PATH is empty or invalid.", "TORCH_NPU_ENV_VAR_VALUE_INVALID", "`PERF_DUMP_PATH`"),
    ("ValueError: NPU_ASD_ENABLE should be 0, 1, 2 or 3. For details, 0 as `ASD closed`", "TORCH_NPU_ENV_VAR_VALUE_INVALID",
     "`NPU_ASD_ENABLE`: should be 0, 1, 2 or 3"),
    ("ValueError: NPU_ASD_CONFIG-with_checksum should be true or false. For details, 0 as `with checksum closed`",
     "TORCH_NPU_ENV_VAR_VALUE_INVALID", "`NPU_ASD_CONFIG-with_checksum`"),
    ("RuntimeError: Jit compile set is disabled! If you want to set, please change the environment variable "
     "ACL_OP_INIT_MODE to 0 or 1.", "TORCH_NPU_ENV_VAR_VALUE_INVALID", "`ACL_OP_INIT_MODE`: Jit compile set is disabled"),
    ("RuntimeError: Invalid TORCH_NPU_LEGACY_IMPL_LIST value: \"foo\". Unsupported key(s): foo. Supported key(s): bar.",
     "TORCH_NPU_ENV_VAR_VALUE_INVALID", "`TORCH_NPU_LEGACY_IMPL_LIST`: Unsupported key(s): foo"),
    ("RuntimeError: Do not support TASK_QUEUE_ENABLE = 2 during NPU graph capture, please export TASK_QUEUE_ENABLE=1/0.",
     "TORCH_NPU_ENV_VAR_VALUE_INVALID", "`TASK_QUEUE_ENABLE`: during NPU graph capture"),
    ("RuntimeError: TORCH_ACL_INIT_CONFIG_PATH /home/u/acl.json is invalid. Please set the environment variable "
     "'TORCH_ACL_INIT_CONFIG_PATH' to a valid JSON file path.", "TORCH_NPU_ENV_VAR_VALUE_INVALID",
     "`TORCH_ACL_INIT_CONFIG_PATH`: is invalid"),
    # as_strided on an internal format
    ("[rank2]: RuntimeError: Current tensor is running as_strided__symint while internal format is not allowed. You can "
     "try torch.npu.config.allow_internal_format = False to avoid the problem.", "TORCH_NPU_AS_STRIDED_ON_INTERNAL_FORMAT",
     "internal NPU format"),
    # allocator configuration: an unknown key (current and older wording), ranges, booleans, exclusions
    ("RuntimeError: Unrecognized key 'expandable_segment' in NPU allocator config, ", "TORCH_NPU_ALLOCATOR_CONFIG_INVALID",
     "option `expandable_segment`"),
    ("RuntimeError: Unrecognized CachingAllocator option: expandable_segments", "TORCH_NPU_ALLOCATOR_CONFIG_INVALID",
     "option `expandable_segments`"),
    ("RuntimeError: CachingAllocator option base_addr_aligned_kb error, must be [0~16], dtype is int",
     "TORCH_NPU_ALLOCATOR_CONFIG_INVALID", "option `base_addr_aligned_kb` (must be [0~16]"),
    ("RuntimeError: Expected a single True/False argument for release_lock_on_npumalloc",
     "TORCH_NPU_ALLOCATOR_CONFIG_INVALID", "option `release_lock_on_npumalloc`"),
    ("RuntimeError: per_process_memory_fraction is invalid, set it in [0.0, 1.0]", "TORCH_NPU_ALLOCATOR_CONFIG_INVALID",
     "option `per_process_memory_fraction` ([0.0, 1.0])"),
    ("RuntimeError: Unsupported page_size value: 2m", "TORCH_NPU_ALLOCATOR_CONFIG_INVALID", "option `page_size`"),
    ("RuntimeError: `max_split_size_mb` or `garbage_collection_threshold`, cannot be enabled with `expandable_segments`, "
     "please set `expandable_segments` to `False`.", "TORCH_NPU_ALLOCATOR_CONFIG_INVALID", "option `expandable_segments`"),
    ("RuntimeError: Both PYTORCH_NPU_ALLOC_CONF and PYTORCH_ALLOC_CONF have been set, please set only one of them.",
     "TORCH_NPU_ALLOCATOR_CONFIG_INVALID", "PYTORCH_NPU_ALLOC_CONF and PYTORCH_ALLOC_CONF"),
    # ProcessGroupHCCL's tensor checks: uneven splits, sizes, internal formats, ReduceOps, LCCL, the Python helper
    ("[rank1]: RuntimeError: Number of tensor splits not equal to group size", "HCCL_PG_COLLECTIVE_TENSORS_REJECTED",
     ": Number of tensor splits not equal to group size"),
    ("RuntimeError: Tensor's dim 0 does not divide equally across group size", "HCCL_PG_COLLECTIVE_TENSORS_REJECTED",
     "dim 0 does not divide equally"),
    ("RuntimeError: output tensor must have the same numel as input tensor", "HCCL_PG_COLLECTIVE_TENSORS_REJECTED",
     "same numel as input tensor"),
    ("RuntimeError: input tensor must be the same size as output size times world size",
     "HCCL_PG_COLLECTIVE_TENSORS_REJECTED", "output size times world size"),
    ("RuntimeError: For a tensor of internal format, it's storage_offset must be 0", "HCCL_PG_COLLECTIVE_TENSORS_REJECTED",
     "internal format"),
    ("RuntimeError: Cannot use ReduceOp.PREMUL_SUM with HCCL", "HCCL_PG_COLLECTIVE_TENSORS_REJECTED",
     "ReduceOp.PREMUL_SUM"),
    ("RuntimeError: Tensors must have identical strides", "HCCL_PG_COLLECTIVE_TENSORS_REJECTED", "identical strides"),
    ("RuntimeError: Corresponding input/output tensors to scatter/gather must all reside on the same device",
     "HCCL_PG_COLLECTIVE_TENSORS_REJECTED", "must all reside on the same device"),
    ("RuntimeError: Tensor with dimensions: torch.Size([7, 4]) does not have first dimension divisible by world_size: 8",
     "HCCL_PG_COLLECTIVE_TENSORS_REJECTED", "world_size: 8"),
    # the LCCL process group
    ("RuntimeError: init lccl comm failed, error code:-1", "LCCL_PROCESS_GROUP_CALL_FAILED",
     ": init lccl comm, error code -1"),
    ("[rank0]: RuntimeError: LCCL function error:ALLGATHER, error code is5 ", "LCCL_PROCESS_GROUP_CALL_FAILED",
     ": ALLGATHER, error code 5"),
    # ProcessGroupHCCL's options
    ("RuntimeError: Value type of group_name should be string.", "HCCL_PG_OPTIONS_INVALID", "`group_name` should be string"),
    ("RuntimeError: Value type of hccl_exec_timeout exceeds INT32_MAX(2147483647).", "HCCL_PG_OPTIONS_INVALID",
     "`hccl_exec_timeout`"),
    ("RuntimeError: The current ProcessGroup has already set the name and cannot be duplicated, Invalid hcclCommName:"
     "tp_group, current hcclCommName:dp_group", "HCCL_PG_OPTIONS_INVALID", "`hcclCommName`: group name `tp_group`"),
    # the npu_* operators' argument checks of op-plugin
    ("RuntimeError: npu_sim_exponential_ expects lambd > 0.0, but found lambd=-1", "TORCH_NPU_CUSTOM_OP_ARGUMENT_REJECTED",
     "operator `npu_sim_exponential_`"),
    ("RuntimeError: [npu_grouped_dynamic_block_quant]: row_block_size cannot be zero.",
     "TORCH_NPU_CUSTOM_OP_ARGUMENT_REJECTED", "`npu_grouped_dynamic_block_quant`"),
    ("RuntimeError: Expected npu_swiglu dim value 3 to be in range [-2, 1] but check failed.",
     "TORCH_NPU_CUSTOM_OP_ARGUMENT_REJECTED", "`npu_swiglu`"),
    ("RuntimeError: npu_ciou_backward is not supported on Ascend950 and above", "TORCH_NPU_CUSTOM_OP_ARGUMENT_REJECTED",
     "`npu_ciou_backward`"),
    # the task queue and the build check across ranks
    ("[ERROR] APP(9,python):2025-10-11-09:12:01.123.456 [log_inner.cpp:77]9 build/CMakeFiles/torch_npu.dir/"
     "compiler_depend.ts:Enqueue:625: \"[PTA]:\"Task queue thread is exit, can't call Enqueue() for executing and op name "
     "is=MatMul.\"\"", "TORCH_NPU_TASK_QUEUE_ALREADY_EXITED", "operator `MatMul`"),
    ("[W compiler_depend.ts:2370] Warning: PTA version mismatch (function operator())", "TORCH_NPU_RANKS_BUILD_MISMATCH",
     "different torch_npu builds"),
    # the profiler: its own error printer, the CANN data check, the C++ side in the plog
    ("[2025-03-01 10:00:00] [ERROR] [4242] profiler.py: Failed to parse CANN Profiling data. Error msg: timeout",
     "TORCH_NPU_PROFILER_FAILED", ": Failed to parse CANN Profiling data"),
    ("[ERROR] APP(9,python):2025-10-11-09:12:01.123.456 [log_inner.cpp:77]9 npu_profiler.cpp:initNpuProfiler:150: "
     "\"[PTA]:\"Path /data/prof not exist and create failed.\"\"", "TORCH_NPU_PROFILER_FAILED",
     ": Path /data/prof not exist and create failed"),
    # torch_npu's own plog errors ([PTA]:), with and without an AscendCL code
    ("[ERROR] APP(9,python):2025-10-11-09:12:01.123.456 [log_inner.cpp:77]9 build/CMakeFiles/torch_npu.dir/"
     "compiler_depend.ts:f:134: \"[PTA]:\"npuSynchronizeDevice failed err=:507035\"\"", "TORCH_NPU_PLOG_ERROR_LOGGED",
     "code 507035 (ACL_ERROR_RT_VECTOR_CORE_EXCEPTION)"),
    ("[ERROR] APP(9,python):2025-10-11-09:12:01.123.456 [log_inner.cpp:77]9 build/CMakeFiles/torch_npu.dir/"
     "compiler_depend.ts:f:79: \"[PTA]:\"Device 0 has reached P2P connection limit 8. Current connections: [1, 2, ]. "
     "Cannot enable P2P between devices (0 and 9). \"\"", "TORCH_NPU_PLOG_ERROR_LOGGED", ": Device 0 has reached P2P"),
    # setup.py's steps of a source build
    ("Failed to build stub: ['sh', '/home/u/pytorch/third_party/acl/libs/build_stub.sh']",
     "TORCH_NPU_SOURCE_BUILD_STEP_FAILED", ": Failed to build stub"),
    ("RuntimeError: no cmake or cmake3 with version >= 3.18.0 found", "TORCH_NPU_SOURCE_BUILD_STEP_FAILED",
     ": no cmake or cmake3 with version >= 3.18.0 found"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "export TASK_QUEUE_ENABLE=2",
    "export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True,segment_size_mb:64",
    "TASK_QUEUE_ENABLE should be 0, 1 or 2; 2 is the default on Atlas A2",
    "[INFO] HCCL_BUFFSIZE should be positive; using 200",
    "    TORCH_CHECK(func, \"Failed to find function \", \"HcclGetRootInfo\", DIST_ERROR(ErrCode::NOT_FOUND));",
    "Failed to find function main in module",
    "    dist.all_to_all_single(output, input, output_split_sizes=out_splits, input_split_sizes=in_splits)",
    "Tensors must be NPU and dense before the collective, so the wrapper calls .npu()",
    "options.hccl_config = {\"hccl_buffer_size\": 200, \"group_name\": \"tp\"}",
    "    out = torch_npu.npu_rotary_mul(q, cos, sin, rotary_mode='half')",
    "INFO: using npu_fusion_attention with input_layout=BSND",
    "[2025-03-01 10:00:00] [INFO] [4242] profiler.py: Start parsing profiling data: /data/prof/PROF_000001",
    "[2025-03-01 10:00:00] [WARNING] [4242] profiler.py: Invalid profiling path.",
    "torch_npu version 2.5.1 (PTA) on all ranks",
    "torch.npu.config.allow_internal_format = False  # avoid as_strided on internal formats",
    " --- Trying to initialize submodules",
    "[ERROR] APP(9,python):2025-10-11-09:12:01.123.456 [log_inner.cpp:77]9 \"[PTA]:\"\"",
    " --- Submodule initialization took 12.31 sec",
    "Failed to build stubborn cache entry",
    "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the "
    "'spawn' start method",
    "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, npu:0 and cpu!",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


@pytest.mark.parametrize("line, sig_id, said", [
    # torch_npu's import-time CANN check when the variable names a directory that is not there
    ("Exception: ASCEND_HOME_PATH : /usr/local/Ascend/ascend-toolkit/latest does not exist. Please run 'source "
     "set_env.sh' in the CANN installation path.", "PT_CANN_ENV_NOT_SET", "CANN environment not set"),
    ("Exception: ASCEND_OPP_PATH : /usr/local/Ascend/ascend-toolkit/latest/opp does not exist. Please check whether the "
     "opp package has been installed.", "PT_CANN_ENV_NOT_SET", "CANN environment not set"),
    # the watchdog warning in its newer wording
    ("[W compiler_depend.ts:1253] Warning: The watchdog timeout 1800000ms(which is set by init_process_group) is less "
     "than or equal to HCCL execution timeout 1836000ms! The plog may not be recorded. (function operator())",
     "HCCL_WATCHDOG_TIMEOUT_WARNING", "watchdog timeout"),
    # torch_npu's own check of an input left on the CPU
    ("RuntimeError: Expected NPU tensor, please check whether the input tensor device is correct.",
     "PT_TENSORS_DIFFERENT_DEVICES", "different devices"),
    # the memory-format checks of resize_ and empty, an aclnn-only device without the aclnn operator
    ("RuntimeError: NPU only support format is contiguous_format or preserve_format.",
     "TORCH_NPU_MEMORY_FORMAT_UNSUPPORTED", "contiguous memory format"),
    ("RuntimeError: Only c10::MemoryFormat::Contiguous is supported for creating a npu tensor",
     "TORCH_NPU_MEMORY_FORMAT_UNSUPPORTED", "contiguous memory format"),
    ("RuntimeError: aclnnNpuFormatCast does not exist, Current soc version only support aclnn operators.",
     "TORCH_NPU_ACLNN_NOT_IN_OPAPI", "(`aclnnNpuFormatCast`)"),
    # device_count_ensure_non_zero
    ("RuntimeError: No NPUs are available\n[ERROR] 2025-03-01-10:00:00 (PID:1, Device:-1, RankID:-1) ERR00009 PTA "
     "resource unavailable", "NPU_DEVICE_COUNT_UNAVAILABLE", "(No NPUs are available)"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, ignore={"TORCH_NPU_ERROR_CODE"})
    assert said in title, title


@pytest.mark.parametrize("line", [
    "export ASCEND_HOME_PATH=/usr/local/Ascend/ascend-toolkit/latest",
    "[INFO] The watchdog timeout is 1800000ms",
    "NPUs are available: 8",
    "Expected NPU tensor inputs; moving the batch to npu:0",
    "aclnnNpuFormatCast does exist on this soc version",
])
def test_the_extended_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in EXTENDED] == []
