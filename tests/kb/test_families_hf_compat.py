"""data/kb/families_hf_compat.json: Hugging Face's libraries as NPU users meet them, read from a sweep of their own
message strings (transformers 4.45 and current, accelerate, PEFT, TRL, datasets): model code and transformers of
different versions (an attribute of a transformers class that is not there, RoPE settings, example scripts' version
checks), attention implementations, generation config validation, DeepSpeed config values against the training
arguments, accelerate's mixed precision and device-map checks, optional packages, PEFT's target module types,
transformers' lazy imports and datasets' data files. Each entry reads members its examples do not show, says the
member in its title, stays quiet on ordinary lines that share its words and on every clean excerpt of the corpus, and
one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_hf_compat")
# members of other parts' families this part's sweep extends (the older transformers' RoPE checks, transformers'
# wrapper of a torch.load failure, transformers 5's wordings of the remote-code checks)
EXTENDED = ["HF_ROPE_SCALING_CONFIG_NEWER_THAN_LIBRARY", "CHECKPOINT_FILE_UNREADABLE", "MODEL_REMOTE_CODE_NOT_TRUSTED",
            "MODEL_REMOTE_CODE_PACKAGES_MISSING"]
FAMILY = IDS + EXTENDED + ["PY_PACKAGE_VERSION_REQUIREMENT_UNMET", "HF_BACKEND_LIBRARY_MISSING",
                           "MODEL_REMOTE_CODE_PACKAGES_MISSING", "LIBRARY_GPU_CHECK_FAILED", "HF_REPO_OR_PATH_NOT_FOUND",
                           "FRAMEWORK_SETTING_NOT_SUPPORTED", "LLM_STACK_CONFIG_VALUE_REJECTED",
                           "NPU_PLUGIN_CLASS_ATTRIBUTE_MISSING",
                           "LAUNCH_OPTION_CHECK_FAILED", "PEFT_TARGET_MODULES_NOT_FOUND"]
WRAPPERS = {"HF_LAZY_MODULE_IMPORT_FAILED", "DATASETS_GENERATION_FAILED"}
CLASSES = {"HF_MODEL_CODE_ATTRIBUTE_MISSING", "HF_GENERATION_FLAG_UNUSED", "HF_OPTIONAL_PACKAGE_NOT_INSTALLED",
           "HF_CHECKPOINT_WEIGHTS_NOT_MATCHED"}
WARNINGS = {"HF_GENERATION_FLAG_UNUSED", "HF_CHECKPOINT_WEIGHTS_NOT_MATCHED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert len(IDS) == 28 and len(set(IDS)) == 28  # (+ round 15's mends: tests/kb/test_entries_from_heldout23.py)
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_hf_compat.json" and not sig.ascend_fd, sid
        assert sig.kind == ("wrapper" if sid in WRAPPERS else "root"), sid
        assert sig.fallback == (sid in CLASSES), sid
        assert sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # attention implementations: flex attention, the 5.x wording, the registry, a kernel not found
    ("ValueError: Qwen2VLForConditionalGeneration does not support an attention implementation through torch's "
     "flex_attention. Please request the support for this architecture: https://github.com/huggingface/transformers/"
     "issues/34809.", "HF_ATTN_IMPLEMENTATION_NOT_SUPPORTED",
     "`Qwen2VLForConditionalGeneration` cannot use the attention implementation `torch's flex_attention`"),
    ("ValueError: DeepseekV2ForCausalLM does not support Flash Attention 2 yet. Please request to add support where "
     "the model is hosted", "HF_ATTN_IMPLEMENTATION_NOT_SUPPORTED", "`Flash Attention 2`"),
    ("ValueError: Specified `attn_implementation=\"flash_attention_2\"` is not supported. The only possible arguments "
     "are `attn_implementation=\"eager\"` (manual attention implementation)", "HF_ATTN_IMPLEMENTATION_NOT_SUPPORTED",
     "`flash_attention_2`"),
    ("ValueError: Could not find the currently requested flash attention implementation at `kernels-community/flash-"
     "attn3`.Make sure that you request a valid kernel from the hub", "HF_ATTN_IMPLEMENTATION_NOT_SUPPORTED",
     "`kernels-community/flash-attn3`"),
    ("ValueError: You are attempting to use Flash Attention 2.0 with a model dispatched on CPU or disk. This is not "
     "supported.", "HF_FLASH_ATTENTION_MODEL_NOT_ON_DEVICE", "a model dispatched on CPU or disk"),
    # model code of another transformers: a cache, a decoder layer, a rotary embedding
    ("AttributeError: 'DynamicCache' object has no attribute 'seen_tokens'", "HF_MODEL_CODE_ATTRIBUTE_MISSING",
     "`seen_tokens` of `DynamicCache`"),
    ("AttributeError: 'Qwen2RotaryEmbedding' object has no attribute 'cos_cached'", "HF_MODEL_CODE_ATTRIBUTE_MISSING",
     "`cos_cached` of `Qwen2RotaryEmbedding`"),
    ("AttributeError: 'DeepseekV3DecoderLayer' object has no attribute 'self_attn'. Did you mean: 'attn'?",
     "HF_MODEL_CODE_ATTRIBUTE_MISSING", "`self_attn` of `DeepseekV3DecoderLayer`"),
    # example scripts: a release minimum
    ("ImportError: This example requires a minimum version of 4.50.0, but the version found is 4.45.2.",
     "HF_EXAMPLE_MIN_VERSION_UNMET", "needs 4.50.0 or newer of transformers, but 4.45.2 is installed"),
    # RoPE: llama3's keys, the older checks' other wordings
    ("KeyError: \"Missing required keys in `rope_scaling` for 'rope_type'='llama3': {'original_max_position_embeddings'"
     "}\"", "HF_ROPE_PARAMETERS_KEYS_MISSING", "(rope_type `llama3`)"),
    ("ValueError: `rope_scaling` must be a dictionary with three fields, `type`, `short_factor` and `long_factor`, "
     "got {'long_factor': [1.0], 'short_factor': [1.0], 'rope_type': 'longrope'}",
     "HF_ROPE_SCALING_CONFIG_NEWER_THAN_LIBRARY", "got `{'long_factor': [1.0], 'short_factor': [1.0]"),
    ("ValueError: Unknown RoPE scaling type llama3", "HF_ROPE_SCALING_CONFIG_NEWER_THAN_LIBRARY", "(got `llama3`)"),
    # generation config: 4.45's top_k, the beam form, the strict save
    ("UserWarning: `do_sample` is set to `False`. However, `top_k` is set to `20` -- this flag is only used in "
     "sample-based generation modes. You should set `do_sample=True` or unset `top_k`.",
     "HF_GENERATION_FLAG_UNUSED", "`top_k` = `20`"),
    ("UserWarning: `num_beams` is set to 1. However, `length_penalty` is set to `2.0` -- this flag is only used in "
     "beam-based generation modes.", "HF_GENERATION_FLAG_UNUSED", "only in beam-based generation"),
    ("ValueError: GenerationConfig is invalid: ", "HF_GENERATION_CONFIG_SAVE_REFUSED", "Saving refused"),
    ("ValueError: The following `model_kwargs` are not used by the model: ['images', 'image_sizes'] (note: typos in the "
     "generate arguments will also show up in this list)", "HF_GENERATE_MODEL_KWARGS_UNUSED",
     "['images', 'image_sizes']"),
    # DeepSpeed and accelerate
    ("ValueError: Please correct the following DeepSpeed config values that mismatch TrainingArguments values:",
     "HF_DEEPSPEED_CONFIG_MISMATCH", "the TrainingArguments"),
    ("ValueError: fp16 mixed precision requires a device in ('xpu', 'cuda', 'mlu', 'musa', 'hpu', 'npu') (not 'cpu').",
     "ACCELERATE_MIXED_PRECISION_NOT_AVAILABLE", "fp16 mixed precision on the device it resolved (`cpu`)"),
    ("ValueError: You can't train a model that has been loaded in 8-bit or 4-bit precision with CPU or disk offload.",
     "ACCELERATE_DISPATCHED_MODEL_TRAINING_REFUSED", "in 8-bit or 4-bit precision with CPU or disk offload"),
    # optional packages in three forms
    ("ImportError: Loading an AWQ quantized model requires gptqmodel. Please install it with `pip install gptqmodel`",
     "HF_OPTIONAL_PACKAGE_NOT_INSTALLED", "`pip install gptqmodel`"),
    ("ImportError: You need to install `lomo_optim` in order to use LOMO optimizers. Install it with `pip install "
     "lomo-optim`", "HF_OPTIONAL_PACKAGE_NOT_INSTALLED", "`LOMO optimizers` needs"),
    ("RuntimeError: SwanLabCallback requires swanlab to be installed. Run `pip install swanlab`.",
     "HF_OPTIONAL_PACKAGE_NOT_INSTALLED", "`pip install swanlab`"),
    # PEFT, transformers' lazy imports, datasets
    ("TypeError: Target module QuantLinear() is not supported. Currently, only the following modules are supported: "
     "`torch.nn.Linear`, `torch.nn.Embedding`.", "PEFT_TARGET_MODULE_TYPE_NOT_SUPPORTED", "`QuantLinear()`"),
    ("RuntimeError: Failed to import transformers.trainer because of the following error (look up to see its "
     "traceback):", "HF_LAZY_MODULE_IMPORT_FAILED", "`transformers.trainer`"),
    ("datasets.exceptions.DatasetGenerationCastError: An error occurred while generating the dataset",
     "DATASETS_GENERATION_FAILED", "An error occurred while generating the dataset"),
    ("All the data files must have the same columns, but at some point there are 1 new columns ({'messages'})",
     "DATASETS_DATA_FILES_COLUMNS_DIFFER", ": there are 1 new columns ({'messages'})"),
    ("FileNotFoundError: Unable to find 'data/*.jsonl' with any supported extension ['.json', '.jsonl']",
     "DATASETS_DATA_FILES_NOT_FOUND", "matching `data/*.jsonl` (with the supported extensions)"),
    # quantized models in the Trainer, precision flags, PEFT's defaults, transformers 5's strict configs
    ("ValueError: You cannot fine-tune quantized model with `torch.compile()` make sure to pass a non-compiled model "
     "when fine-tuning a quantized model with PEFT", "HF_QUANTIZED_MODEL_TRAINING_REFUSED",
     "quantized model with torch.compile()"),
    ("ValueError: At most one of fp16 and bf16 can be True for full eval, but not both",
     "HF_TRAINER_FP16_AND_BF16_BOTH_SET", "(for full eval)"),
    ("[rank0]: ValueError: Please specify `target_modules` in `peft_config`", "PEFT_TARGET_MODULES_NOT_SPECIFIED",
     "no default target_modules"),
    ("    TypeError: Field 'rope_theta' expected float, got str (value: '1e6')", "HF_CONFIG_STRICT_VALIDATION_FAILED",
     "`rope_theta` failed transformers' strict type validation: expected float, got str (value: '1e6')"),
    ("huggingface_hub.errors.StrictDataclassFieldValidationError: Validation error for field 'vocab_size':",
     "HF_CONFIG_STRICT_VALIDATION_FAILED", "field `vocab_size`"),
    ("ValueError: The loaded generation config instance is invalid -- `GenerationConfig.validate()` throws warnings "
     "and/or exceptions.", "HF_GENERATION_CONFIG_SAVE_REFUSED", "Saving refused"),
    # torch.load under CVE-2025-32434, the fast tokenizer, weights names against the checkpoint
    ("[rank3]: ValueError: Due to a serious vulnerability issue in `torch.load`, even with `weights_only=True`, we now "
     "require users to upgrade torch to at least v2.6 in order to use the function.", "HF_TORCH_LOAD_NEEDS_TORCH_2_6",
     "older than 2.6"),
    ("ValueError: Couldn't instantiate the backend tokenizer from one of: \n(1) a `tokenizers` library serialization "
     "file, \n", "HF_FAST_TOKENIZER_NOT_BUILDABLE", "could not build the fast tokenizer"),
    ("[WARNING|modeling_utils.py:4596] 2025-06-01 10:00:00,000 >> Some weights of Qwen2ForCausalLM were not initialized "
     "from the model checkpoint at /data/ckpt/qwen2 and are newly initialized because the shapes did not match:",
     "HF_CHECKPOINT_WEIGHTS_NOT_MATCHED", "at `/data/ckpt/qwen2` do not match: newly initialized because the shapes"),
    ("Some weights of the model checkpoint at /data/models/chatglm3 were not used when initializing "
     "ChatGLMForConditionalGeneration: ['transformer.rotary_pos_emb.inv_freq']", "HF_CHECKPOINT_WEIGHTS_NOT_MATCHED",
     "`ChatGLMForConditionalGeneration`'s weights"),
    ("OSError: Unable to load weights from pytorch checkpoint file for '/data/m/pytorch_model.bin' at "
     "'/data/m/pytorch_model.bin'. If you tried to load a PyTorch model from a TF 2.0 checkpoint, please set "
     "from_tf=True.", "CHECKPOINT_FILE_UNREADABLE", "A weights file cannot be read"),
    # generation settings kept in config.json; transformers 5's remote-code checks
    ("Non-default generation parameters: {'max_length': 4096, 'top_p': 0.8}", "HF_GENERATION_PARAMS_IN_MODEL_CONFIG",
     "{'max_length': 4096, 'top_p': 0.8}"),
    ("ValueError: Loading this model requires you to execute custom code contained in the model repository on your "
     "local machine.", "MODEL_REMOTE_CODE_NOT_TRUSTED", "refused without trust_remote_code"),
    ("ImportError: Missing requirements in your local environment for `deepseek-ai/DeepSeek-OCR`:",
     "MODEL_REMOTE_CODE_PACKAGES_MISSING", "packages that are not installed"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "INFO: Detect using FlashAttention2 on Ascend NPU.",
    "model = AutoModelForCausalLM.from_pretrained(path, attn_implementation=\"flash_attention_2\")",
    "You are attempting to use Flash Attention 2.0 with a model not initialized on GPU. Make sure to move the model to "
    "GPU after initializing it on CPU with `model.to('cuda')`.",
    "AttributeError: 'NoneType' object has no attribute 'shape'",
    "AttributeError: 'str' object has no attribute 'items'",
    "AttributeError: 'NPUWorker' object has no attribute 'model_runner'",
    "check_min_version(\"4.46.0.dev0\")",
    "Unrecognized keys in `rope_scaling` for 'rope_type'='yarn': {'attention_factor'}",
    "  \"rope_scaling\": {\"factor\": 4.0, \"rope_type\": \"yarn\"},",
    "Configuration saved in /output/checkpoint-500/generation_config.json",
    "generation_config: do_sample=True, temperature=0.7, top_p=0.8",
    "- ds train_micro_batch_size_per_gpu=auto",
    "Mixed precision type: bf16",
    "accelerate launch --mixed_precision fp16 --num_processes 8 train.py",
    "Loading model with device_map='auto'",
    "Successfully installed optimum-1.23.0 gptqmodel-1.4.0",
    "To use GaLore, run `pip install galore-torch` first.",
    "RUN pip install --no-cache-dir transformers==4.45.2 accelerate peft",
    "target_modules: ['q_proj', 'v_proj']",
    "from transformers.models.qwen2 import modeling_qwen2",
    "Generating train split: 100%|██████████| 52002/52002 [00:01<00:00, 40123.55 examples/s]",
    "Resolving data files: 100%|██████████| 2/2 [00:00<00:00, 1234.56it/s]",
    "from datasets.utils.info_utils import NonMatchingSplitsSizesError",
    "fp16=False, bf16=True, fp16_full_eval=False",
    "peft_config: LoraConfig(r=8, target_modules={'q_proj', 'v_proj'})",
    "Field 'max_position_embeddings' set to 32768",
    "Quantized model loaded; attaching LoRA adapters for fine-tuning",
    "All the weights of LlamaForCausalLM were initialized from the model checkpoint at /data/llama.",
    "loading weights file pytorch_model.bin from cache at /root/.cache/huggingface/hub/models--x/pytorch_model.bin",
    "loading configuration file generation_config.json",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    # vllm-ascend's API server printing transformers' own `The following generation flags are not valid and may be
    # ignored: ['top_p']` in a run that went fine: a true warning, the only one
    true = ("heldout27", "h27k_08_clean_vllm_ascend_dp_apiserver_startup.log", "HF_GENERATION_FLAG_UNUSED")
    assert [h for h in clean_excerpt_hits(kb, IDS + EXTENDED) if h != true] == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


@pytest.mark.parametrize("line, sig_id", [
    # a version requirement stays with the requirement's entry, not with the optional-package class
    ("ImportError: Using `compressed_tensors` quantized models requires compressed-tensors>=0.15.0: `pip install "
     "compressed-tensors>=0.15.0`", "PY_PACKAGE_VERSION_REQUIREMENT_UNMET"),
    ("ImportError: This modeling file requires the following packages that were not found in your environment: "
     "flash_attn. Run `pip install flash_attn`", "MODEL_REMOTE_CODE_PACKAGES_MISSING"),
    # an attention implementation refused is this part's, not the generic 'not supported' class
    ("ValueError: Specified `attn_implementation=\"sdpa\"` is not supported for text_config. The only possible "
     "arguments are \"eager\"", "HF_ATTN_IMPLEMENTATION_NOT_SUPPORTED"),
    # datasets' missing local path stays the loader's 'neither a directory nor a repository'
    ("FileNotFoundError: Couldn't find any data file at /workspace/data/sft.", "HF_REPO_OR_PATH_NOT_FOUND"),
])
def test_neighbouring_entries_keep_their_lines(kb, line, sig_id):
    assert [s.id for s in kb.explaining(line)] == [sig_id]
