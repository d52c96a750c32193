"""data/kb/families_gpu_r21.json: PyTorch's Hugging Face libraries and the GPU stack around them (round 21):
transformers' config checks (hidden size against heads, key/value heads, RoPE values and an odd rotary dimension,
special token ids outside the vocabulary, per-layer types), safetensors' metadata and open arguments, accelerate's
device_map, size and checkpoint-path checks, bitsandbytes' 4-bit and 8-bit flags set together, the input_ids /
inputs_embeds check, a TensorRT-LLM engine run with another number of MPI processes, xFormers' extensions that do not
load and NCCL's NVLink SHARP multicast setup. Each entry reads members its examples do not show, says the member in its
title, stays quiet on ordinary lines of the same tools and on every clean corpus excerpt, and one line is one problem of
the family. The entries of other parts this round widened read their new members (safetensors' header checks in
CHECKPOINT_FILE_UNREADABLE, pyarrow's list/non-list mix in ARROW_VALUE_TYPE_CONVERSION_FAILED)."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_gpu_r21")
EXTENDED = ["CHECKPOINT_FILE_UNREADABLE", "ARROW_VALUE_TYPE_CONVERSION_FAILED", "TORCH_ATTENTION_EMBED_DIM_NOT_DIVISIBLE_BY_HEADS",
            "TENSORRT_ENGINE_VERSION_MISMATCH"]
FAMILY = IDS + EXTENDED + ["HF_CONFIG_STRICT_VALIDATION_FAILED", "HF_ROPE_PARAMETERS_KEYS_MISSING",
                           "HF_ROPE_SCALING_CONFIG_NEWER_THAN_LIBRARY", "SAFETENSORS_SHARED_TENSORS_ON_SAVE",
                           "SAFETENSORS_NON_CONTIGUOUS_ON_SAVE", "NCCL_CALL_FAILED",
                           "ACCELERATE_MIXED_PRECISION_UNKNOWN", "BITSANDBYTES_CUDA_SETUP_FAILED",
                           "FLASH_ATTN_INPUT_CHECK_FAILED", "TORCH_EXTENSION_CUDA_VERSION_MISMATCH",
                           "HF_TRAINER_RESUME_CHECKPOINT_NOT_FOUND", "PY_ASSERTION_FAILED",
                           "HF_TRAINER_CREATED_WITHOUT_MODEL", "LAUNCH_OPTION_CHECK_FAILED"]
WARNINGS = {"HF_ROPE_PARAMETER_VALUE_INVALID", "HF_CONFIG_TOKEN_ID_OUTSIDE_VOCAB", "XFORMERS_EXTENSIONS_NOT_LOADED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) >= 16 and "TRTLLM_ENGINE_WORLD_SIZE_MISMATCH" in IDS and "NCCL_NVLS_MULTICAST_SETUP_FAILED" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_gpu_r21.json" and not sig.ascend_fd
        assert sig.kind == "root" and not sig.fallback, sid
        assert sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # transformers' hidden-size checks in their other printers
    ("ValueError: The hidden size (4000) is not a multiple of the number of attention heads (24).",
     "HF_HIDDEN_SIZE_NOT_MULTIPLE_OF_HEADS", "hidden size (`4000`) that is not a multiple of its number of attention heads (`24`)"),
    ("ValueError: The hidden size 500 is not a multiple of the number of attention heads 16",
     "HF_HIDDEN_SIZE_NOT_MULTIPLE_OF_HEADS", "(`500`)"),
    ("ValueError: embed_dim must be divisible by num_heads (got `embed_dim`: 1000 and `num_heads`: 12).",
     "HF_HIDDEN_SIZE_NOT_MULTIPLE_OF_HEADS", "(`1000`)"),
    ("ValueError: embed_dim (d_model) must be divisible by num_heads, but got 250 and 8",
     "HF_HIDDEN_SIZE_NOT_MULTIPLE_OF_HEADS", "attention heads (`8`)"),
    ("ValueError: hidden_size must be divisible by num_attention_heads", "HF_HIDDEN_SIZE_NOT_MULTIPLE_OF_HEADS",
     "not a multiple of its number of attention heads"),
    ("ValueError: num_attention_heads must be divisible by num_key_value_heads: 28 % 8 != 0",
     "HF_ATTENTION_HEADS_NOT_DIVISIBLE_BY_KV_HEADS", "(`28`) that does not divide by its number of key/value heads (`8`)"),
    # RoPE values, warnings of current releases and older ValueErrors
    ("[transformers] `rope_parameters`'s beta_fast field must be a float or int, got None", "HF_ROPE_PARAMETER_VALUE_INVALID",
     "`beta_fast` in its config has a value transformers does not accept (got `None`)"),
    ("ValueError: `rope_scaling`'s factor field must be a float >= 1, got 0.25", "HF_ROPE_PARAMETER_VALUE_INVALID",
     "it must be a float >= 1"),
    ("`rope_parameters`'s short_factor field must be a list of numbers, got [1, 'a']", "HF_ROPE_PARAMETER_VALUE_INVALID",
     "`short_factor`"),
    ("`rope_parameters`'s high_freq_factor field must be greater than low_freq_factor, got high_freq_factor=1.0 and "
     "low_freq_factor=4.0", "HF_ROPE_PARAMETER_VALUE_INVALID", "`high_freq_factor`"),
    ("[transformers] Missing validation function in 'RotaryEmbeddingConfigMixin' for 'rope_type'='yarn2'",
     "HF_ROPE_PARAMETER_VALUE_INVALID", "`rope_type` in its config has a value transformers does not accept (got `yarn2`)"),
    ("ValueError: RoPE requires an even rotary dimension, but got `head_dim`=65 with `partial_rotary_factor`=1.0 for "
     "`sliding_attention`.", "HF_ROPE_ODD_ROTARY_DIMENSION", "(`head_dim`=65)"),
    ("Model config: eos_token_id must be `None` or an integer within the vocabulary (between 0 and 151935), got 151936. "
     "This may result in unexpected behavior.", "HF_CONFIG_TOKEN_ID_OUTSIDE_VOCAB", "`eos_token_id` = 151936, outside the vocabulary (0 to 151935)"),
    ("ValueError: `num_hidden_layers` (12) must be equal to the number of `mlp_layer_types` (24)",
     "HF_CONFIG_LAYER_TYPES_INVALID", "(`mlp_layer_types`): num_hidden_layers is 12 but the list has 24 entries"),
    # safetensors
    ("TypeError: argument 'metadata': 'dict' object is not an instance of 'str'", "SAFETENSORS_METADATA_NOT_STRING",
     "a value is a `dict` object"),
    ("safetensors_rust.SafetensorError: framework pytorch is invalid", "SAFETENSORS_OPEN_ARGUMENT_INVALID",
     "framework `pytorch`"),
    ("safetensors._safetensors_rust.SafetensorError: Device cuda:1 is not supported for framework numpy",
     "SAFETENSORS_OPEN_ARGUMENT_INVALID", "`cuda:1` for framework `numpy`"),
    # TensorRT-LLM
    ("AssertionError: Engine world size (4) != Runtime world size (8)", "TRTLLM_ENGINE_WORLD_SIZE_MISMATCH",
     "world size (4) is not the number of MPI processes it runs with (8)"),
    ("RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: MPI size 2 != TP size 4 * PP size 2",
     "TRTLLM_ENGINE_WORLD_SIZE_MISMATCH", "(TP size 4 × PP size 2)"),
    # xFormers
    ("    PyTorch 2.3.0+cu121 with CUDA 1201 (you have 2.4.1+cu124)", "XFORMERS_EXTENSIONS_NOT_LOADED",
     "(built for PyTorch 2.3.0+cu121 with CUDA 1201; this environment has PyTorch 2.4.1+cu124)"),
    # NCCL NVLS
    ("[2026-01-02 10:00:00] h100-7:1200:1300 [3] transport/nvls.cc:379 (nvlsAllocateMem) NCCL WARN Failed to bind NVLink "
     "SHARP (NVLS) Multicast memory of size 4194304 : CUDA error 800 'operation not permitted'.",
     "NCCL_NVLS_MULTICAST_SETUP_FAILED", "(CUDA error 800 `operation not permitted`)"),
    ("h100-7:1200:1300 [3] transport/nvls.cc:120 NCCL WARN Cuda failure 2 'out of memory'", "NCCL_NVLS_MULTICAST_SETUP_FAILED",
     "(CUDA error 2 `out of memory`)"),
    # accelerate
    ("ValueError: The device_map provided does not give any device for the following parameters: lm_head.weight",
     "ACCELERATE_DEVICE_MAP_MISSES_PARAMETERS", "(`lm_head.weight` ...)"),
    ("ValueError: `size` 70% is not in a valid format. Use an integer for bytes, or a string with an unit (like '5.0GB').",
     "ACCELERATE_MEMORY_SIZE_FORMAT_INVALID", "(`70%`)"),
    ("ValueError: Tried to find output/checkpoint-500 but folder does not exist", "ACCELERATE_CHECKPOINT_PATH_NOT_FOUND",
     "`output/checkpoint-500`"),
    ("ValueError: You have to specify either input_ids or inputs_embeds", "HF_MODEL_INPUT_IDS_XOR_INPUTS_EMBEDS",
     "neither or both of input_ids and inputs_embeds"),
    # TensorRT-LLM engines of another TensorRT-LLM release
    ("[TensorRT-LLM][ERROR] Assertion failed: d == a + length (/app/tensorrt_llm/cpp/tensorrt_llm/plugins/gemmPlugin/gemmPlugin.cpp:171)",
     "TRTLLM_ENGINE_FROM_OTHER_TRTLLM_VERSION", "(the `gemmPlugin` plugin's saved data"),
    ("RuntimeError: Tensor names in engine are not the same as expected.", "TRTLLM_ENGINE_FROM_OTHER_TRTLLM_VERSION",
     "built with another TensorRT-LLM version"),
    # TensorRT 9's engine plan version check; pyarrow's struct mixed with scalars
    ("[TensorRT-LLM][ERROR] 6: The engine plan file is not compatible with this version of TensorRT, expecting "
     "library version 10.0.1.6 got 10.3.0.26, please rebuild.", "TENSORRT_ENGINE_VERSION_MISMATCH",
     "(the engine plan expects TensorRT 10.0.1.6, the process loaded 10.3.0.26)"),
    ("pyarrow.lib.ArrowInvalid: ('cannot mix struct and non-struct, non-null values', 'Conversion failed for column meta "
     "with type object')", "ARROW_VALUE_TYPE_CONVERSION_FAILED", "(column `meta`)"),
    # accelerate's saving, DeepSpeed batch size and disk offload; the tokenizer's truncation against padding
    ("[rank0]: ValueError: Cannot get 16bit model weights because `stage3_gather_16bit_weights_on_model_save` in DeepSpeed "
     "config is False. To save the model weights in 16bit, set", "ACCELERATE_ZERO3_16BIT_WEIGHTS_NOT_GATHERED",
     "stage3_gather_16bit_weights_on_model_save is False"),
    ("[rank1]: RuntimeError: You can't save the model since some parameters are on the meta device.",
     "ACCELERATE_SAVE_MODEL_META_PARAMETERS", "on the meta device"),
    ("ValueError: When using DeepSpeed, `accelerate.prepare()` requires you to pass at least one of training or evaluation "
     "dataloaders with `batch_size` attribute returning an integer value", "ACCELERATE_DEEPSPEED_MICRO_BATCH_UNKNOWN",
     "train_micro_batch_size_per_gpu is not set"),
    ("ValueError: At least one of the model submodule will be offloaded to disk, please pass along an `offload_folder`.",
     "ACCELERATE_OFFLOAD_FOLDER_MISSING", "no offload_folder was given"),
    ("ValueError: Truncation and padding are both activated but truncation length (1000) is not a multiple of "
     "pad_to_multiple_of (64).", "HF_TOKENIZER_TRUNCATION_NOT_MULTIPLE_OF_PAD", "truncate to 1000 tokens and pad to a multiple of 64"),
    ("ValueError: Cannot merge LORA layers when base model layers are replicated", "PEFT_LORA_MERGE_NOT_SUPPORTED_FOR_MODEL",
     "(base model layers are replicated)"),
    # Trainer and its DeepSpeed integration
    ("ValueError: `auto_find_batch_size` isn't supported yet with DeepSpeed Zero-3. Please consider using Zero-2, Zero-1, "
     "or FSDP", "HF_TRAINER_OPTIONS_INCOMPATIBLE", "(auto_find_batch_size with DeepSpeed Zero-3)"),
    ("RuntimeError: Passing a `model_init` is incompatible with providing the `optimizers` argument. You should subclass "
     "`Trainer` and override the `create_optimizer_and_scheduler` method.", "HF_TRAINER_OPTIONS_INCOMPATIBLE",
     "(model_init with optimizers)"),
    ("ValueError: `Trainer` requires either a `model` or `model_init` argument, but not both.",
     "HF_TRAINER_OPTIONS_INCOMPATIBLE", "(model with model_init)"),
    ("  File \"/usr/lib/python3/dist-packages/transformers/trainer.py\", line 478, in __init__ ValueError: Using fsdp only "
     "works in distributed training.", "HF_TRAINER_FSDP_WITHOUT_DISTRIBUTED_LAUNCH", "not started for distributed training"),
    ("ValueError: You cannot specify a scheduler in the config file and in the code at the same time. Please remove the "
     "scheduler from the config file or create `accelerate.utils.DummyScheduler` in the code.",
     "ACCELERATE_DEEPSPEED_OPTIMIZER_IN_CONFIG_AND_CODE", "both define the scheduler"),
    ("ValueError: `optimizer.params.lr` not found in kwargs. Please specify `optimizer.params.lr` without `auto` (set to "
     "correct value) in the DeepSpeed config file or pass it in kwargs.", "ACCELERATE_DEEPSPEED_AUTO_VALUE_NOT_FILLED",
     "(`optimizer.params.lr`)"),
    ("Exception: Could not find a transformer layer class called 'Qwen2MoeSparseMoeBlock' to wrap in the model.",
     "FSDP_TRANSFORMER_LAYER_CLASS_NOT_FOUND", "(`Qwen2MoeSparseMoeBlock`)"),
    ("ValueError: Could not find the transformer layer class GPTNeoXLayer in the model.",
     "FSDP_TRANSFORMER_LAYER_CLASS_NOT_FOUND", "(`GPTNeoXLayer`)"),
    ("ValueError: The least populated class in intent column has only 1 member, which is too few. The minimum number of "
     "groups for any class cannot be less than 2.", "DATASETS_STRATIFIED_SPLIT_CLASS_TOO_SMALL", "in column `intent`"),
    ("ValueError: [deepspeed] failed to resume from checkpoint /ckpt/run7/checkpoint-12000", "HF_DEEPSPEED_CHECKPOINT_RESUME_FAILED",
     "`/ckpt/run7/checkpoint-12000`"),
    ("[rank3]: ValueError: ZeRO inference only makes sense with ZeRO Stage 3 - please adjust your config",
     "HF_DEEPSPEED_ZERO_INFERENCE_NEEDS_STAGE3", "stage other than 3"),
    ("[rank0]: ValueError: Setting `strategy` as 'steps' requires a positive value for `steps`.",
     "HF_TRAINING_ARGS_STEPS_STRATEGY_WITHOUT_STEPS", "with 0 steps"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, said", [
    ("safetensors_rust.SafetensorError: Error while deserializing header: incomplete metadata, file not fully covered",
     "do not cover the file's data"),
    ("safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer", "do not cover the file's data"),
    ("safetensors._safetensors_rust.SafetensorError: Error while deserializing header: invalid offset for tensor "
     "`model.norm.weight`", "(tensor `model.norm.weight`)"),
    ("safetensors_rust.SafetensorError: Error while deserializing header: TensorInvalidInfo", "shape, dtype and offsets"),
    ("safetensors_rust.SafetensorError: Error while deserializing header: invalid JSON in header: unknown variant "
     "`F8_E8M0`, expected one of `BOOL`, `U8`, `I8`, `F16`, `BF16`, `F32` at line 1 column 60",
     "the dtype `F8_E8M0`, which this safetensors release does not know"),
    ("safetensors_rust.SafetensorError: Error while deserializing header: header too large", "impossible header size"),
])
def test_safetensors_header_checks_are_told_apart(kb, line, said):
    title = explained_title(kb, line, "CHECKPOINT_FILE_UNREADABLE")
    assert said in title, title


def test_transformers_own_attention_check_is_not_torch_multihead_attention(kb):
    line = "ValueError: embed_dim must be divisible by num_heads (got `embed_dim`: 1000 and `num_heads`: 12)."
    ids = [s.id for s in kb.explaining(line)]
    assert "HF_HIDDEN_SIZE_NOT_MULTIPLE_OF_HEADS" in ids and "TORCH_ATTENTION_EMBED_DIM_NOT_DIVISIBLE_BY_HEADS" not in ids
    assert explained_title(kb, "AssertionError: embed_dim must be divisible by num_heads",
                           "TORCH_ATTENTION_EMBED_DIM_NOT_DIVISIBLE_BY_HEADS", among=FAMILY)


@pytest.mark.parametrize("line", [
    "  \"hidden_size\": 4096,", "  \"num_attention_heads\": 32,", "  \"num_key_value_heads\": 8,",
    "  \"rope_scaling\": {\"factor\": 8.0, \"high_freq_factor\": 4.0, \"low_freq_factor\": 1.0, \"rope_type\": \"llama3\"},",
    "[transformers] loading configuration file /models/llama/config.json",
    "[transformers] Model config LlamaConfig {",
    "  \"pad_token_id\": null,", "  \"layer_types\": [", "    \"sliding_attention\",",
    "model.safetensors: 100%|██████████| 4.97G/4.97G [00:41<00:00, 120MB/s]",
    "Loading checkpoint shards: 100%|██████████| 4/4 [00:03<00:00,  1.10it/s]",
    "with safe_open(\"model.safetensors\", framework=\"pt\", device=\"cpu\") as f:",
    "[TensorRT-LLM] TensorRT-LLM version: 0.12.0", "[TensorRT-LLM][INFO] MPI size: 2, rank: 0",
    "[06/18/2024-19:33:47] [TRT-LLM] [I] Load engine takes: 3.1 sec",
    "xFormers 0.0.28.post1", "memory_efficient_attention.cutlassF-pt:            available",
    "pytorch.version:                                   2.4.1+cu124", "build.cuda_version:                                1201",
    "gpu1:11:11 [0] NCCL INFO NVLS multicast support is available on dev 0 (NVLS_NCHANNELS 16)",
    "gpu1:11:11 [0] NCCL INFO NVLS comm 0x5601 headRank 0 nHeads 8 buffSize 4194304 memSize 2097152 nvlsPerRankSize 201326592 nvlsTotalSize 1610612736",
    "node2:242431:242475 [1] NCCL INFO transport/nvls.cc:330 -> 1",
    "max_memory={0: '20GiB', 'cpu': '64GiB'}", "device_map='auto'",
    "Loading states from output/checkpoint-500", "All model checkpoint weights were used when initializing LlamaForCausalLM.",
    "BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type='nf4')", "inputs_embeds = self.embed_tokens(input_ids)",
    "[TensorRT-LLM][INFO] Loaded engine size: 15448 MiB", "[TensorRT-LLM][INFO] Engine version 0.12.0 found in the config file",
    "Attempting to resume from output/checkpoint-2000", "[INFO|trainer.py:2128] ***** Running training *****",
    "fsdp: ['full_shard', 'auto_wrap']", "  \"zero_optimization\": {\"stage\": 3,", "eval_strategy=steps, eval_steps=500,",
    "  \"optimizer\": {\"type\": \"AdamW\", \"params\": {\"lr\": \"auto\", \"weight_decay\": \"auto\"}},",
    "fsdp_transformer_layer_cls_to_wrap: Qwen2DecoderLayer", "  \"stage3_gather_16bit_weights_on_model_save\": true",
    "model = AutoModelForCausalLM.from_pretrained(path, device_map='auto', offload_folder='offload')",
    "tokenizer(texts, truncation=True, max_length=512, padding=True, pad_to_multiple_of=8)", "Map: 100%|██████████| 5000/5000 [00:01<00:00, 4100.22 examples/s]",
    "DatasetDict({'train': Dataset({features: ['text', 'label'], num_rows: 4500}), 'test': Dataset({num_rows: 500})})",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.explaining(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
