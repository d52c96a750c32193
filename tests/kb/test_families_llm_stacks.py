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
from tests.helpers.kb_parts import english_kb, family_overlaps, part_ids

IDS = part_ids("families_llm_stacks")
# members of other parts' families this part's sources extend (the stacks' checkpoint / weight / vocabulary paths)
EXTENDED = ["TRAINING_INPUT_PATH_NOT_FOUND", "FRAMEWORK_SETTING_NOT_SUPPORTED"]
FAMILY = IDS + ["LAUNCH_OPTION_CHECK_FAILED", "FRAMEWORK_SETTING_NOT_SUPPORTED", "SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT",
                "FEATURE_NOT_SUPPORTED_ON_NPU", "TRAINING_INPUT_PATH_NOT_FOUND", "QUANTIZATION_METHOD_NOT_SUPPORTED",
                "KV_CACHE_TRANSFER_FAILED", "TRITON_ACTIVE_DRIVER_NOT_ONE", "LLM_FRAMEWORK_ERROR_LOGGED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert set(IDS) == {"VLLM_ASCEND_MODELSLIM_CONFIG_MISSING", "MF_REGISTRY_CLASS_NOT_FOUND",
                        "DLINFER_TRITON_ASCEND_OPS_UNAVAILABLE", "VLLM_ASCEND_KV_REGISTER_REGIONS_OVER_HCCL_LIMIT",
                        "VLLM_ASCEND_WEIGHT_IPC_NOT_COLOCATED", "MEGATRON_INDEXED_DATASET_FILES_MISSING",
                        "LLM_STACK_CONFIG_VALUE_REJECTED"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_llm_stacks.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid == "LLM_STACK_CONFIG_VALUE_REJECTED") and sig.severity == "fail", sid


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
     "to use this feature.", "DLINFER_TRITON_ASCEND_OPS_UNAVAILABLE", "(install triton-ascend)"),
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
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    hits = [s for s in kb.explaining(line) if s.id in FAMILY]
    assert [s.id for s in hits] == [sig_id], [s.id for s in kb.explaining(line)]
    assert said in hits[0].text("en", line=line)[0], hits[0].text("en", line=line)[0]


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
