"""data/kb/families_npu_runtime.json: the messages only an NPU prints, as applications show them (round 15). torch_npu's
device index, memory fraction, runtime setting and lazy initialisation checks, its operators called on the torch
namespace, the runtime's feature-not-supported warning, the HCCL process group's data type table, and vLLM-Ascend's
quantization, EPLB and prefill/decode KV transfer checks. Each entry reads members its examples do not show (among them
the lines a fault injection printed: torch_npu 2.13.0 over stub CANN libraries that return the injected codes), says
the member in its title, stays quiet on ordinary lines that share its words and on every clean excerpt of the corpus,
and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_npu_runtime")
# other parts' entries this part's sources extend
EXTENDED = ["TORCH_NPU_ACLNN_NOT_IN_OPAPI", "QUANTIZATION_METHOD_NOT_SUPPORTED", "VLLM_ASCEND_CPU_BINDING_FAILED",
            "ACL_INIT_CONFIG_FILE_REJECTED", "TORCH_NPU_ENV_VAR_VALUE_INVALID", "KV_CACHE_TRANSFER_FAILED",
            "HCCL_PG_COLLECTIVE_TENSORS_REJECTED"]
FAMILY = IDS + EXTENDED + ["TORCH_NPU_ERROR_CODE", "SETDEVICE_INVALID_ID_107001", "OP_DTYPE_NOT_SUPPORTED",
                           "PY_ASSERTION_FAILED", "CANN_RUNTIME_CALL_FAILED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert set(IDS) == {"TORCH_NPU_DEVICE_INDEX_OUT_OF_RANGE", "TORCH_NPU_MEMORY_FRACTION_INVALID",
                        "TORCH_NPU_TORCH_NAMESPACE_OP_REMOVED", "TORCH_NPU_RUNTIME_API_VALUE_REJECTED",
                        "TORCH_NPU_DEFERRED_INIT_CALL_FAILED", "NPU_RUNTIME_FEATURE_NOT_SUPPORTED_DRIVER_FIRMWARE",
                        "HCCL_PG_DTYPE_NOT_SUPPORTED", "VLLM_ASCEND_FUSED_LAYER_MIXED_QUANT_TYPES",
                        "VLLM_ASCEND_EXPERT_MAP_FILE_INVALID", "VLLM_ASCEND_PD_PARALLEL_SIZES_MISMATCH",
                        "VLLM_ASCEND_KV_REQUEST_EXPIRED"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_npu_runtime.json" and not sig.ascend_fd
        assert sig.kind == ("wrapper" if sid == "TORCH_NPU_DEFERRED_INIT_CALL_FAILED" else "root"), sid
        assert sig.fallback == (sid == "TORCH_NPU_RUNTIME_API_VALUE_REJECTED"), sid
        assert sig.severity == ("warn" if sid == "NPU_RUNTIME_FEATURE_NOT_SUPPORTED_DRIVER_FIRMWARE" else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # the device index: the C++ check with a readable index, the peer check, the non-negative check
    ("RuntimeError: Invalid device_index : 9, valid device_index range is [0, 8)",
     "TORCH_NPU_DEVICE_INDEX_OUT_OF_RANGE", "(`9`) (valid indexes are below 8)"),
    ("AssertionError: Invalid peer device id\n", "TORCH_NPU_DEVICE_INDEX_OUT_OF_RANGE", "outside the devices"),
    ("RuntimeError: device id must be positive!", "TORCH_NPU_DEVICE_INDEX_OUT_OF_RANGE", "outside the devices"),
    ("RuntimeError: Invalid device_index: 20, valid range is [0, 16)", "TORCH_NPU_DEVICE_INDEX_OUT_OF_RANGE",
     "(`20`) (valid indexes are below 16)"),
    ("RuntimeError: Invalid device argument 9: did you call init?", "TORCH_NPU_DEVICE_INDEX_OUT_OF_RANGE", "(`9`)"),
    # the memory fraction: C++'s other bracket, the type check
    ("RuntimeError: invalid fraction:2. Please set within (0, 1).", "TORCH_NPU_MEMORY_FRACTION_INVALID", "(`2`)"),
    ("TypeError: Invalid type for fraction argument, must be `float`", "TORCH_NPU_MEMORY_FRACTION_INVALID",
     "outside 0 to 1"),
    # another operator on the torch namespace
    ("RuntimeError: torch.npu_confusion_transpose is deprecated and will be removed in future version. Use "
     "torch_npu.npu_confusion_transpose instead.", "TORCH_NPU_TORCH_NAMESPACE_OP_REMOVED",
     "`torch.npu_confusion_transpose`"),
    # runtime settings
    ("RuntimeError: invalid value of train_state, expected one of `train`, `infer`",
     "TORCH_NPU_RUNTIME_API_VALUE_REJECTED", "(`train_state`): expected one of train, infer"),
    ("RuntimeError: 'torch_npu.npu.set_deterministic_level(3)' requires CANN runtime and operator packages that "
     "support batch consistency. Please upgrade CANN runtime and operator packages.",
     "TORCH_NPU_RUNTIME_API_VALUE_REJECTED", "requires CANN runtime and operator packages"),
    ("RuntimeError: level=3 requires newer CANN runtime and operator packages that support batch consistency.",
     "TORCH_NPU_RUNTIME_API_VALUE_REJECTED", "(`level=3`): requires newer CANN"),
    # the lazy initialisation with an error no other entry reads
    ("torch_npu.npu.DeferredNpuCallError: NPU call failed lazily at initialization with error: device id must be "
     "positive!", "TORCH_NPU_DEVICE_INDEX_OUT_OF_RANGE", "outside the devices"),
    ("torch_npu.npu.DeferredNpuCallError: NPU call failed lazily at initialization with error: aclrtGetDeviceCount",
     "TORCH_NPU_DEFERRED_INIT_CALL_FAILED", ": aclrtGetDeviceCount"),
    # the runtime's warning from another call site
    ("[WARN]aclrtMallocAlign32,torch_npu/csrc/core/npu/NPUCachingAllocator.cpp:1100:Feature is not supported and the "
     "possible cause is that driver and firmware packages do not match.",
     "NPU_RUNTIME_FEATURE_NOT_SUPPORTED_DRIVER_FIRMWARE", "driver and firmware"),
    # vLLM-Ascend: another fused layer, the data parallel twin, the hybrid connector's expiry
    ("ValueError: Not all shards of model.layers.7.mlp.gate_up_proj are quantized with same quant type. Shard up_proj "
     "uses W8A8_DYNAMIC, but another shard uses FLOAT. Please check quantization config.",
     "VLLM_ASCEND_FUSED_LAYER_MIXED_QUANT_TYPES", "`model.layers.7.mlp.gate_up_proj` (shard `up_proj` is W8A8_DYNAMIC"),
    ("ValueError: KV transfer 'prefill' config has a conflicting data parallel size. Expected 2, but got 4.",
     "VLLM_ASCEND_PD_PARALLEL_SIZES_MISMATCH", "(KV connector `prefill`: its data parallel size 4 differs from the "
     "instance's 2)"),
    ("ERROR 03-01 10:00:00 [mooncake_hybrid_connector.py:194] Force freed expired request: chatcmpl-9a1.2-0. Reason: "
     "Request exceeded timeout threshold (30 seconds).", "VLLM_ASCEND_KV_REQUEST_EXPIRED",
     "(`chatcmpl-9a1.2-0`, after 30 s)"),
    ("ValueError: The expert_map is not json.", "VLLM_ASCEND_EXPERT_MAP_FILE_INVALID", "`expert_map`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line.rstrip("\n"), sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "torch.npu.set_device(local_rank)",
    "[INFO] device_index: 3, device count: 8",
    "available: True 8",
    "memory fraction: 0.9",
    "torch_npu.npu.set_deterministic_level(1)",
    "[W1206 07:15:02.829589236 NPUQueue.cpp:872] Warning:  (function StartConsume)",
    "[W1206 07:12:32.366838700 NPUCachingAllocator.cpp:168] Warning: The current CANN and Soc versions require "
    "processing for 32 padding size, with memory allocation. (function operator())",
    "Warning: ASCEND_HOME_PATH environment variable is not set.",
    "(EngineCore_DP0 pid=1) INFO 03-01 10:00:00 [mooncake_connector.py:700] Delaying free of request cmpl-1 by 480 s",
    "model.layers.0.self_attn.qkv_proj quantized with W8A8",
    "additional_config: {\"expert_map_path\": \"/data/expert_map.json\"}",
    "dist.all_reduce(flag, op=dist.ReduceOp.BOR)",
    "TORCH_TRANSFER_TO_NPU=1",
    "[INFO] User acl json /home/u/acl.json loaded",
    "kv_connector_extra_config: {\"prefill\": {\"tp_size\": 8, \"dp_size\": 2}, \"decode\": {\"tp_size\": 4}}",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS) == []


@pytest.mark.parametrize("line, sig_id, said", [
    # op-plugin's lookup of a helper in the operator API libraries (a CANN older than torch_npu, or not sourced)
    ("RuntimeError: GetOpApiFuncAddr failed.", "TORCH_NPU_ACLNN_NOT_IN_OPAPI", "the installed CANN does not provide"),
    # torch_npu's reading of the acl.json named by TORCH_ACL_INIT_CONFIG_PATH
    ("RuntimeError: Failed to parse user acl json /home/u/acl.json. Please check that the file contains valid JSON "
     "syntax. Error: [json.exception.parse_error.101]", "ACL_INIT_CONFIG_FILE_REJECTED",
     "`/home/u/acl.json`: Failed to parse user acl json"),
    ("RuntimeError: User acl json /home/u/acl.json lacks 'defaultDevice' object, required for lazy set_device mode.",
     "ACL_INIT_CONFIG_FILE_REJECTED", ": lacks 'defaultDevice' object"),
    ("ValueError: Invalid value for TORCH_TRANSFER_TO_NPU: 2. Only '0' or '1' is supported.",
     "TORCH_NPU_ENV_VAR_VALUE_INVALID", "`TORCH_TRANSFER_TO_NPU`: Only '0' or '1' is supported"),
    # vLLM-Ascend's compressed-tensors schemes
    ("NotImplementedError: No compressed-tensors compatible scheme was found for quant_type=W4A4, layer_type=linear.",
     "QUANTIZATION_METHOD_NOT_SUPPORTED", "(`W4A4` for layer type `linear`)"),
    ("NotImplementedError: No compressed-tensors compatible quantization type was found.",
     "QUANTIZATION_METHOD_NOT_SUPPORTED", "cannot run this quantization"),
    # HCCL's reduce operations: PREMUL_SUM's data types beside the bitwise operations the class entry reads
    ("RuntimeError: PreMulSum Data type must be half, float, bfloat16 or double", "HCCL_PG_COLLECTIVE_TENSORS_REJECTED",
     "PreMulSum Data type must be half, float, bfloat16 or double"),
    # vLLM-Ascend's Mooncake connector: the peer's answer to a finished pull
    ("RuntimeError: Failed to receive ACK, resp: error", "KV_CACHE_TRANSFER_FAILED",
     ": Failed to receive ACK, status error"),
    # vLLM-Ascend's CPU binding: reading npu-smi's chip map and the allowed CPUs
    ("RuntimeError: Failed to get correct chip_logic_id from command 'npu-smi info -m'.",
     "VLLM_ASCEND_CPU_BINDING_FAILED", "Failed to get correct chip_logic_id"),
    ("RuntimeError: CPUs available in 'Cpus_allowed_list' conflict with NUMA affinity.",
     "VLLM_ASCEND_CPU_BINDING_FAILED", "conflict with NUMA affinity"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title
