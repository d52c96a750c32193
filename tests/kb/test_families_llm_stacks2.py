"""data/kb/families_llm_stacks2.json: the MindSpore / RL side of Ascend's LLM stacks. vLLM-MindSpore's start-up checks
(a rank without a device in ASCEND_RT_VISIBLE_DEVICES, its environment variables, model architectures per backend,
310P limits) and MindSpeed-RL's launch and config validation (local rank, train/inference resharding sizes, sequence
length, dtype, dispatch sizes), each read in the wordings of the projects' own raise strings. Each entry reads members
its examples do not show, says the member in its title, stays quiet on ordinary lines that share its words and on
every clean excerpt of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_llm_stacks2")
FAMILY = IDS + ["VLLM_RAY_NODE_HAS_NO_DEVICE", "RAY_ACCELERATORS_INSUFFICIENT"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert set(IDS) == {"VLLM_MS_RANK_BEYOND_VISIBLE_DEVICES", "VLLM_MS_ENV_SETTING_REJECTED",
                        "VLLM_MS_MODEL_ARCH_NOT_SUPPORTED", "VLLM_MS_310P_SETTING_UNSUPPORTED",
                        "MEGATRON_LOCAL_RANK_NOT_RANK_MOD_DEVICES", "MSRL_TRAIN_INFER_PARALLEL_INCOMPATIBLE",
                        "MSRL_SEQ_LENGTH_EXCEEDS_MAX_MODEL_LEN", "MSRL_TRAIN_INFER_DTYPE_NOT_BF16",
                        "MSRL_DISPATCH_SIZE_EXCEEDS_SAMPLES_PER_DP", "MSMM_IMAGE_TOKENS_TRUNCATED",
                        "MSMM_CONVERT_SOURCE_FILES_MISSING", "MSMM_RESPLIT_PP_LAYERS_MISMATCH",
                        "MSMM_BRIDGE_ARCH_NOT_IN_TRANSFORMERS", "VLLM_MS_DP_MASTER_UNREACHABLE"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_llm_stacks2.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    ("IndexError: Process rank is greater than the number of available devices. Please check the value of "
     "`ASCEND_RT_VISIBLE_DEVICES`.", "VLLM_MS_RANK_BEYOND_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES"),
    ("ValueError: Illegal value of VLLM_MS_MODEL_BACKEND 'mf', allowed_values: ['mindformers', 'native']",
     "VLLM_MS_ENV_SETTING_REJECTED", "VLLM_MS_MODEL_BACKEND"),
    ("ValueError: MINDFORMERS_MODEL_CONFIG is not supported, please unset MINDFORMERS_MODEL_CONFIG.",
     "VLLM_MS_ENV_SETTING_REJECTED", "MINDFORMERS_MODEL_CONFIG"),
    ("ValueError: Cannot find model module. 'Qwen2AudioForConditionalGeneration' is not a registered model in the "
     "MindONE Transformers library.", "VLLM_MS_MODEL_ARCH_NOT_SUPPORTED", "Qwen2AudioForConditionalGeneration"),
    ("ValueError: \"Llama4ForCausalLM\" is not supported in MindFormers Backend. Supported architectures: "
     "['DeepseekV3ForCausalLM']", "VLLM_MS_MODEL_ARCH_NOT_SUPPORTED", "Llama4ForCausalLM"),
    ("ERROR 06-01 10:00:00 [gpu_model_runner.py:512] For 310p, mla kv cache not supported",
     "VLLM_MS_310P_SETTING_UNSUPPORTED", "mla kv cache"),
    ("[rank3]: ValueError: expected local-rank to be the same as rank % device-count.",
     "MEGATRON_LOCAL_RANK_NOT_RANK_MOD_DEVICES", "local rank"),
    ("ValueError: The training pipeline parallel size should be an integer multiple of the inference pipeline "
     "parallel size.", "MSRL_TRAIN_INFER_PARALLEL_INCOMPATIBLE",
     "`pipeline parallel size` of training"),
    ("ValueError: The training expert size should be divisibled by the inference expert size.",
     "MSRL_TRAIN_INFER_PARALLEL_INCOMPATIBLE", "`expert size` of training"),
    ("NotImplementedError: Not implemented for infer_pp > train_pp", "MSRL_TRAIN_INFER_PARALLEL_INCOMPATIBLE",
     "the `pp` of training"),
    ("ValueError: Sequence length exceeds vLLM max_model_len! Actor.seq_length=16384 vs "
     "GenerateConfig.max_model_len=8192", "MSRL_SEQ_LENGTH_EXCEEDS_MAX_MODEL_LEN", "Actor.seq_length=16384"),
    ("ValueError: megatron_config.bf16 should be true and generate_config.dtype should be bfloat16.",
     "MSRL_TRAIN_INFER_DTYPE_NOT_BF16", "bfloat16"),
    ("ValueError: dynamic_sampling_dispatch_size 128 cannot be greater than the number of samples generated on each "
     "data parallel worker, which is global_batch_size * n_samples_per_prompt = 64",
     "MSRL_DISPATCH_SIZE_EXCEEDS_SAMPLES_PER_DP", "dynamic_sampling_dispatch_size"),
    ("ValueError: Can't gather train tp size 2 to infer tp size 4", "MSRL_TRAIN_INFER_PARALLEL_INCOMPATIBLE",
     "the `tp` of training"),
    ("ConnectionError: Worker 3 could not connect to master at 192.168.1.10:29550 after 100 retries.",
     "VLLM_MS_DP_MASTER_UNREACHABLE", "worker 3 could not connect to the DP master at `192.168.1.10:29550`"),
    ("ValueError: image tokens are truncated, this dataset is /data/coco/llava.json", "MSMM_IMAGE_TOKENS_TRUNCATED",
     "/data/coco/llava.json"),
    ("FileNotFoundError: No config.json in /home/ckpt/Qwen2.5-VL-7B", "MSMM_CONVERT_SOURCE_FILES_MISSING",
     "no `config.json` in `/home/ckpt/Qwen2.5-VL-7B`"),
    ("FileNotFoundError: Could not find safetensors index file in directory /data/InternVL3-8B",
     "MSMM_CONVERT_SOURCE_FILES_MISSING", "`/data/InternVL3-8B`"),
    ("FileNotFoundError: No .safetensors files found in directory: /data/Wan2.1-T2V-14B-Diffusers/transformer",
     "MSMM_CONVERT_SOURCE_FILES_MISSING", "`.safetensors files`"),
    ("ValueError: vit pp layers not equal!", "MSMM_RESPLIT_PP_LAYERS_MISMATCH", "`vit`"),
    ("ValueError: \n✗ Architecture class 'Qwen3VLForConditionalGeneration' not found in transformers",
     "MSMM_BRIDGE_ARCH_NOT_IN_TRANSFORMERS", "Qwen3VLForConditionalGeneration"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "INFO 06-01 10:00:00 [utils.py:357] Run with Mindformers backend!",
    "INFO 06-01 10:00:00 [utils.py:160] \"Qwen3ForCausalLM\" run as \"MindFormersForCausalLM\" with MindFormers "
    "backend.",
    "export MINDFORMERS_MODEL_CONFIG=/data/predict_qwen2_5_7b_instruct.yaml",
    "export VLLM_MS_MODEL_BACKEND=MindFormers",
    "export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3",
    "> initializing torch distributed ...",
    "torch distributed is already initialized, skipping initialization...",
    "generate_config: max_model_len: 4096 max_num_batched_tokens: 8192",
    "rl_config: actor_logprob_dispatch_size: 32 kl_dispatch_size: 32",
    "infer_tensor_parallel_size: 2 infer_pipeline_parallel_size: 1 infer_expert_parallel_size: 1",
    "megatron_training: bf16: true",
    "Loading 4 safetensors files from ckpt/hf_path/Qwen2.5-VL-7B-Instruct",
    "Saved model.safetensors.index.json in ckpt/mm_to_hf/Qwen2.5-VL-7B-Instruct",
    "llm_pp_layers: [1, 10, 10, 7] vit_pp_layers: [32, 0, 0, 0]",
    "Loading Qwen3VLMoeForConditionalGeneration from transformers 4.57.1",
    "image tokens per image: 256",
    "WARNING 06-01 10:00:00 [config.py:242] Worker 1 failed to connect to master. Retrying in 2 seconds... (3/100)",
    "INFO 06-01 10:00:00 [config.py:237] Worker 1 connected to master at 10.0.0.1:61000",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
