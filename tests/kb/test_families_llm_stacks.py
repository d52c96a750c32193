"""data/kb/families_llm_stacks.json: the large-model stacks on Ascend, from their own message strings (vLLM-Ascend,
MindFormers, MindSpeed-LLM, dlinfer/lmdeploy). ModelSlim quantization asked for weights without its description
file, MindFormers' class registry, dlinfer's Triton-Ascend kernels, the HCCL limit on registered KV-cache regions,
colocated weight updates over NPU IPC, Megatron's .idx/.bin data prefix, and the stacks' value checks of a named
setting (a class entry). Each entry reads members its examples do not show, says the member in its title, stays quiet
on ordinary lines that share its words and on every clean excerpt of the corpus, and one line is one problem of the
family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_llm_stacks")
# members of other parts' families this part's sources extend (the stacks' checkpoint / weight / vocabulary paths)
EXTENDED = ["TRAINING_INPUT_PATH_NOT_FOUND", "FRAMEWORK_SETTING_NOT_SUPPORTED", "TORCH_NPU_STRESS_DETECT_FAILED",
            "NPU_SMI_HEALTH_NOT_OK"]
FAMILY = IDS + ["LAUNCH_OPTION_CHECK_FAILED", "FRAMEWORK_SETTING_NOT_SUPPORTED", "SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT",
                "FEATURE_NOT_SUPPORTED_ON_NPU", "TRAINING_INPUT_PATH_NOT_FOUND", "QUANTIZATION_METHOD_NOT_SUPPORTED",
                "KV_CACHE_TRANSFER_FAILED", "TRITON_ACTIVE_DRIVER_NOT_ONE", "LLM_FRAMEWORK_ERROR_LOGGED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert set(IDS) == {"VLLM_ASCEND_MODELSLIM_CONFIG_MISSING", "MF_REGISTRY_CLASS_NOT_FOUND",
                        "TRITON_ASCEND_NOT_INSTALLED_FOR_KERNELS", "VLLM_ASCEND_KV_REGISTER_REGIONS_OVER_HCCL_LIMIT",
                        "VLLM_ASCEND_WEIGHT_IPC_NOT_COLOCATED", "MEGATRON_INDEXED_DATASET_FILES_MISSING",
                        "LLM_STACK_CONFIG_VALUE_REJECTED", "MF_QKV_CONCAT_SETTING_MISMATCH",
                        "MF_CHECKPOINT_MODE_CONFIG_MISMATCH", "VLLM_ASCEND_MC2_HIERARCHY_NEEDS_DISPATCH_V2",
                        "VLLM_ASCEND_FA3_PACKAGE_MISSING", "MF_PACKED_DATASET_EMPTY", "MF_TOKENIZER_VOCAB_FILE_UNUSABLE",
                        "TOKEN_ID_OUT_OF_TOKENIZER_VOCAB", "VLLM_ASCEND_ACLGRAPH_WITH_LAUNCH_BLOCKING",
                        "VLLM_MEMORY_PROFILING_FREE_MEMORY_GREW", "VLLM_ASCEND_WAKE_UP_WITH_NZ_WEIGHTS",
                        "LLM_STACK_NPU_PACKAGE_REQUIRED", "MSLLM_HF_WEIGHTS_INDEX_MISSING",
                        "MEGATRON_CUDA_DEVICE_MAX_CONNECTIONS_CHECK", "VLLM_ASCEND_W4A8_PER_GROUP_UNSUPPORTED",
                        "MSLLM_HF_CHAT_TEMPLATE_UNAVAILABLE", "MF_SDC_MONITOR_PREREQUISITES_UNMET"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_llm_stacks.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in ("LLM_STACK_CONFIG_VALUE_REJECTED", "LLM_STACK_NPU_PACKAGE_REQUIRED")), sid
        assert sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # ModelSlim: the logger line of another model, in vLLM's process prefix
    ("(EngineCore_DP0 pid=812) ERROR 03-12 10:00:00 [modelslim_config.py:909] ModelSlim quantization config not found "
     "for model '/data/DeepSeek-V3-bf16'. Searched path: /data/DeepSeek-V3-bf16. Found JSON files: N/A.",
     "VLLM_ASCEND_MODELSLIM_CONFIG_MISSING", "`/data/DeepSeek-V3-bf16`"),
    # the registry: a dataset class, the bare 'Can't find class.' form
    ("ValueError: Can't find class type dataset class name CausalLanguageModelDatasetX in class registry when "
     "use_legacy=True", "MF_REGISTRY_CLASS_NOT_FOUND", "`CausalLanguageModelDatasetX` (type dataset), use_legacy=True"),
    ("ValueError: Can't find class. class type = None", "MF_REGISTRY_CLASS_NOT_FOUND", "`None`"),
    # dlinfer behind a rank prefix
    ("[rank3]: RuntimeError: Triton is not installed or Ascend triton_ops failed to load. Please install triton-ascend "
     "to use this feature.", "TRITON_ASCEND_NOT_INSTALLED_FOR_KERNELS", "(install triton-ascend)"),
    # the HCCL limit with other counts
    ("(Worker_TP1 pid=99) RuntimeError: Mooncake register_buffer region count 1024 exceeds HCCL per-process limit 256. "
     "KV cache registration would fail. registered_bytes=1. Please reduce KV cache allocation fragmentation or merge "
     "k/v/dsa/scale allocations further.", "VLLM_ASCEND_KV_REGISTER_REGIONS_OVER_HCCL_LIMIT", "1024 Mooncake"),
    # the packed-tensor form without the hint
    ("ValueError: IPC handle not found for NPU UUID 5. Available UUIDs: [0, 1, 2, 3]", "VLLM_ASCEND_WEIGHT_IPC_NOT_COLOCATED",
     "(UUID 5)"),
    # Megatron's data prefix given as the directory
    ("AssertionError: One or both of the .idx and .bin files cannot be found at the path prefix /data/finetune/",
     "MEGATRON_INDEXED_DATASET_FILES_MISSING", "`/data/finetune/`"),
    # the value checks: a dotted sub-config, a type, a range against another setting, a required value, backticks
    ("ValueError: profiling_chunk_config.smooth_factor must be in (0, 1], got 2.0", "LLM_STACK_CONFIG_VALUE_REJECTED",
     "`profiling_chunk_config.smooth_factor`"),
    ("TypeError: yaml_name_or_path should be a str, but got <class 'int'>", "LLM_STACK_CONFIG_VALUE_REJECTED",
     "`yaml_name_or_path`"),
    ("ValueError: max_position_embeddings (4096) must be greater than or equal to seq_length (8192).",
     "LLM_STACK_CONFIG_VALUE_REJECTED", "`max_position_embeddings`"),
    ("[rank0]: AssertionError: retro_cyclic_train_iters must be provided.", "LLM_STACK_CONFIG_VALUE_REJECTED",
     "`retro_cyclic_train_iters`"),
    ("ValueError: Passed `tokenizer_type` qwen does not exist. `tokenizer_type` should be one of ['llama', 'gpt2'].",
     "LLM_STACK_CONFIG_VALUE_REJECTED", "`tokenizer_type`"),
    ("ValueError: eplb_heat_collection_stage must be one of [\"all\", \"prefill\", \"decode\"]",
     "LLM_STACK_CONFIG_VALUE_REJECTED", "`eplb_heat_collection_stage`"),
    # the qkv check in its other direction, behind MindFormers' logger prefix
    ("2025-01-01 10:00:00,000 - mindformers[mindformers/utils/load_checkpoint_utils.py:497] - ERROR - The qkv concat "
     "check failed! The qkv in the model weights has been not concatenated, but qkv_concat is set to true.",
     "MF_QKV_CONCAT_SETTING_MISMATCH", "are not concatenated"),
    ("[rank2]: ValueError: when input checkpoint file is rank dir, Please set use_parallel: True to enable distributed "
     "ckpt load.", "MF_CHECKPOINT_MODE_CONFIG_MISMATCH", ": when input checkpoint file is rank dir"),
    ("(Worker_DP1_EP1 pid=3321) RuntimeError: PTA and CANN version is too old to support mc2 hierarchy comm, please "
     "upgrade your version.", "VLLM_ASCEND_MC2_HIERARCHY_NEEDS_DISPATCH_V2", "dispatch v2"),
    ("ValueError: flash_attn_npu_v3 is installed but does not provide flash_attn_with_kvcache.",
     "VLLM_ASCEND_FA3_PACKAGE_MISSING", "does not provide flash_attn_with_kvcache"),
    ("[rank0]: RuntimeError: dataset is empty after packing, maybe all inputs exceed max length or not packed data do "
     "not reach max length.", "MF_PACKED_DATASET_EMPTY", "packing left no samples"),
    ("OSError: Unable to load vocabulary from file. Please check that the provided vocabulary is accessible and not "
     "corrupted.", "MF_TOKENIZER_VOCAB_FILE_UNUSABLE", "accessible and not corrupted"),
    ("IndexError: The token id 130344 is out of the size of vocabulary, please check your tokenizer and corresponding "
     "vocabulary files.", "TOKEN_ID_OUT_OF_TOKENIZER_VOCAB", "(130344)"),
    ("(EngineCore_DP0 pid=1) ValueError: ACL graph is incompatible with ASCEND_LAUNCH_BLOCKING=1. Please unset "
     "ASCEND_LAUNCH_BLOCKING or set it to 0.", "VLLM_ASCEND_ACLGRAPH_WITH_LAUNCH_BLOCKING", "ASCEND_LAUNCH_BLOCKING=1"),
    ("[rank0]: AssertionError: Error in memory profiling. Initial free memory 29.87 GiB, current free memory 30.01 GiB. "
     "This happens when other processes sharing the same container release GPU memory while vLLM is profiling during "
     "initialization.", "VLLM_MEMORY_PROFILING_FREE_MEMORY_GREW", "(29.87 GiB at start, 30.01 GiB after profiling)"),
    ("(WorkerProc pid=7) ValueError: FRACTAL_NZ mode is enabled. This may cause model parameter precision issues in the "
     "RL scenarios.", "VLLM_ASCEND_WAKE_UP_WITH_NZ_WEIGHTS", "FRACTAL_NZ"),
    ("ValueError: Unknown short_request_first_config keys: {'thresold'}", "LLM_STACK_CONFIG_VALUE_REJECTED",
     "`short_request_first_config`"),
    # MindSpeed-LLM's Triton stubs
    ("[rank5]: ValueError: please install triton-ascend", "TRITON_ASCEND_NOT_INSTALLED_FOR_KERNELS",
     "(install triton-ascend)"),
    # packages a feature needs: the launch-option form, a torch_npu operator
    ("ImportError: cann_ops_transformer is required when --use-fused-mhc is enabled.", "LLM_STACK_NPU_PACKAGE_REQUIRED",
     "`cann_ops_transformer`, which is not installed (needed for --use-fused-mhc)"),
    ("RuntimeError: torch_npu.npu_lightning_indexer is required when use_lightning_indexer is enabled",
     "LLM_STACK_NPU_PACKAGE_REQUIRED", "`torch_npu.npu_lightning_indexer`"),
    ("FileNotFoundError: Expected a single .bin file in /data/baichuan2-13b, but found 3. For multiple weight files, an "
     "index.json file is required.", "MSLLM_HF_WEIGHTS_INDEX_MISSING", "found 3 weight files in `/data/baichuan2-13b`"),
    ("[rank0]: AssertionError: FSDP always requires CUDA_DEVICE_MAX_CONNECTIONS value large than one",
     "MEGATRON_CUDA_DEVICE_MAX_CONNECTIONS_CHECK", "CUDA_DEVICE_MAX_CONNECTIONS value large than one"),
    # the source's own non-breaking hyphen
    ("(Worker_TP0 pid=9) ValueError: The current weights use Per\u2011Group quantization, which is no longer supported. "
     "Please switch to Per\u2011Channel quantized weights.", "VLLM_ASCEND_W4A8_PER_GROUP_UNSUPPORTED", "per-group W4A8"),
    ("[rank0]: AssertionError: The tokenizer has no Huggingface chat template, Please use chat model.",
     "MSLLM_HF_CHAT_TEMPLATE_UNAVAILABLE", "--hf-chat-template"),
    ("  File \"/mf/callback.py\", line 2729, in __init__\nValueError: SDCMonitor needs mindspore >= 2.7.0, and only "
     "works when environment variable 'NPU_ASD_ENABLE' and 'MS_SDC_DETECT_ENABLE' are set to 1.",
     "MF_SDC_MONITOR_PREREQUISITES_UNMET", "MindSpore 2.7.0"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "INFO 03-12 10:00:00 [modelslim_config.py:890] Using ModelSlim quantization config quant_model_description.json",
    "    Remove '--quantization ascend' from your command if you want to",
    "2025-01-01 10:00:00,000 - mindformers[mindformers/tools/register/register.py:120] - INFO - class registry built",
    "pip install triton-ascend",
    "HCCL per-process limit 256 regions",
    "INFO 05-01 10:00:00 [npu_ipc_engine.py:150] IPC handle for NPU UUID 3 sent",
    " > building train, validation, and test datasets ... prefix /data/alpaca_text_document",
    "additional_config.dump_config_path: /tmp/dump.json",
    "# smooth_factor must be in (0, 1]",
    "WARNING 05-01 10:00:00 [config.py:10] max_num_seqs should be greater than 0, using the default",
    "AssertionError: logical_replica_count must be a 1D tensor.",
    "ValueError: For 'PipelineCellWithTwoOutput', the argument 'micro_size' must be large than 0, but got 0.",
    "AssertionError: recv_next_wait_handles should be cleared at the end of a step",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


@pytest.mark.parametrize("line, sig_id, said", [
    # the stacks' checkpoint, weight, tracker and vocabulary paths
    ("ValueError: /data/ckpt/llama3 is not existed, please check load_checkpoint in yaml and set a correct value.",
     "TRAINING_INPUT_PATH_NOT_FOUND", "(load_checkpoint): `/data/ckpt/llama3`"),
    ("ValueError: ./tokenizer.model is not existed, please check vocab_file in yaml and set a correct value.",
     "TRAINING_INPUT_PATH_NOT_FOUND", "(vocab_file): `./tokenizer.model`"),
    ("FileNotFoundError: config.load_checkpoint /data/qwen/ does not exist.", "TRAINING_INPUT_PATH_NOT_FOUND",
     "(load_checkpoint): `/data/qwen/`"),
    ("[rank0]: ValueError: Specified weight path does not exist: ./model_weights/llama-2-7b-mcore",
     "TRAINING_INPUT_PATH_NOT_FOUND", "(weight path): `./model_weights/llama-2-7b-mcore`"),
    ("FileNotFoundError: Tracker file not found: /ckpt/latest_checkpointed_iteration.txt",
     "TRAINING_INPUT_PATH_NOT_FOUND", "(Tracker file): `/ckpt/latest_checkpointed_iteration.txt`"),
    ("FileNotFoundError: Not found supported weight fileExpected safetensors or pytorch_model*.bin",
     "TRAINING_INPUT_PATH_NOT_FOUND", "(Not found supported weight file)"),
    ("FileNotFoundError: No supported weight files found in /data/hf/qwen. Expected safetensors or pytorch_model*.bin",
     "TRAINING_INPUT_PATH_NOT_FOUND", "(No supported weight files): `/data/hf/qwen`"),
    ("RuntimeError: no data loaded, you might give wrong data path.", "TRAINING_INPUT_PATH_NOT_FOUND",
     "(no data loaded)"),
    # the same refusal shapes in the stacks
    ("ValueError: Unsupported MoE routing type: group_limited_greedy_v2", "FRAMEWORK_SETTING_NOT_SUPPORTED",
     "Unsupported MoE routing type: group_limited_greedy_v2"),
    ("ValueError: Only support DP strategy, but got 'ZeRO3'", "FRAMEWORK_SETTING_NOT_SUPPORTED",
     "Only support DP strategy"),
    ("NotImplementedError: For ParallelTransformer, 'drop_path_rate' is not support for now.",
     "FRAMEWORK_SETTING_NOT_SUPPORTED", "'drop_path_rate' is not support for now."),
    # vLLM-Ascend's worker health check over npu-smi
    ("(EngineCore_DP0 pid=12) RuntimeError: NPU card health status is not OK", "NPU_SMI_HEALTH_NOT_OK",
     "health as not OK"),
    # MindFormers' stress-detect callback
    ("RuntimeError: Voltage recovery failed with error code: 574007", "TORCH_NPU_STRESS_DETECT_FAILED",
     ": Voltage recovery failed (error code 574007)"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "2025-01-01 10:00:00,000 - mindformers[mindformers/trainer/trainer.py:1050] - INFO - load_checkpoint is /data/ckpt",
    "Tracker file found: /ckpt/latest_checkpointed_iteration.txt",
    "Unsupported MoE routing types are listed in docs/moe.md",
    "# Only support DP strategy for now",
    "[INFO] Stress detection passed",
])
def test_the_extended_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in EXTENDED] == []
