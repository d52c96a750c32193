"""data/kb/families_hf_checks.json: the Hugging Face libraries' own argument checks as a user's call trips them
(round 16). Each entry reads the line a fault-injection run printed here (transformers 4.57, datasets 5.0, peft 0.21,
tiny local models, no network) and the sibling messages of its raising source, says the member and the value in its
title, stays quiet on ordinary lines and on a clean run's lines, and one line is one problem of the family. The two
entries of other parts this round extended (the pipeline's batching without a pad token; from_dict's columns of
unequal length) are checked with them."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_hf_checks")
EXTENDED = ["TOKENIZER_SPECIAL_SETTING_MISSING", "DATASETS_MAP_OUTPUT_LENGTH_MISMATCH", "DATASETS_DATA_FILES_NOT_FOUND",
            "HF_TRAINER_NO_COLUMN_MATCHES_MODEL_INPUTS", "HF_TRAINER_MODEL_RETURNED_NO_LOSS"]
FAMILY = IDS + EXTENDED + ["HF_BATCH_SEQUENCES_NOT_PADDED", "HF_REPO_OR_PATH_NOT_FOUND", "HF_REQUIRED_FILE_MISSING",
                           "DATASETS_COLUMN_NOT_FOUND", "EMBEDDING_INDEX_OUT_OF_RANGE", "PY_CALL_SIGNATURE_MISMATCH",
                           "FRAMEWORK_SETTING_NOT_SUPPORTED", "CHECKPOINT_FILE_UNREADABLE",
                           "HF_OPTIONAL_PACKAGE_NOT_INSTALLED", "HF_TRAINER_EVAL_DATASET_MISSING",
                           "HF_TRAINER_MODEL_RETURNED_NO_LOSS"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) == 26 and len(set(IDS)) == 26
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_hf_checks.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback, sid
        warns = ("HF_INPUT_LONGER_THAN_MODEL_MAX_LENGTH", "PEFT_ADAPTER_CONFIG_FROM_NEWER_PEFT")
        assert sig.severity == ("warn" if sid in warns else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # the lines the fault-injection runs printed (out/NN_*.txt under /work/fi/hf_checks)
    ("ValueError: You need to specify either `text` or `text_target`.", "HF_TOKENIZER_TEXT_INPUT_INVALID",
     "no text (None)"),
    ("ValueError: text input must be of type `str` (single example), `list[str]` (batch or single pretokenized "
     "example) or `list[list[str]]` (batch of pretokenized examples).", "HF_TOKENIZER_TEXT_INPUT_INVALID",
     "not str, list[str] or list[list[str]]"),
    ("TypeError: TrainingArguments.__init__() got an unexpected keyword argument 'evaluation_strategy'",
     "HF_LIBRARY_ARGUMENT_NOT_IN_INSTALLED_VERSION", "`TrainingArguments` has no argument `evaluation_strategy`"),
    ("ValueError: When passing device_map as a string, the value needs to be a device name (e.g. cpu, cuda:0) or "
     "'auto', 'balanced', 'balanced_low_0', 'sequential' but found gpu.", "HF_DEVICE_MAP_VALUE_INVALID",
     "device_map `gpu` is not a device name"),
    ("ValueError: Unknown split \"validation\". Should be one of ['train'].", "DATASETS_SPLIT_NOT_FOUND",
     "no split `validation` (its splits: ['train'])"),
    ("ValueError: Feature type 'LargeListX' not found. Available feature types: ['Value', 'ClassLabel', "
     "'Translation', 'TranslationVariableLanguages', 'LargeList', 'List', 'Array2D']", "DATASETS_FEATURE_TYPE_UNKNOWN",
     "type `LargeListX`"),
    ("Token indices sequence length is longer than the specified maximum sequence length for this model (32 > 16). "
     "Running this sequence through the model will result in indexing errors", "HF_INPUT_LONGER_THAN_MODEL_MAX_LENGTH",
     "(32 tokens) is longer than the model's maximum length (16)"),
    ("pyarrow.lib.ArrowInvalid: Column 1 named label expected length 3 but got length 2",
     "DATASETS_MAP_OUTPUT_LENGTH_MISMATCH", "column `label` has 2 rows where 3 were expected"),
    # members the examples do not show, in their sources' wordings
    ("ValueError: Input [None, 'a cat'] is not valid. Should be a string, a list/tuple of strings or a list/tuple of "
     "integers.", "HF_TOKENIZER_TEXT_INPUT_INVALID", "(input `[None, 'a cat']`)"),
    ("ValueError: offsets() is not available when using non-fast tokenizers (e.g. instance of a `XxxTokenizerFast` "
     "class).", "HF_TOKENIZER_FEATURE_NEEDS_FAST_TOKENIZER", "`offsets` needs a fast tokenizer"),
    ("ValueError: word_to_tokens() is not available when using Python based tokenizers",
     "HF_TOKENIZER_FEATURE_NEEDS_FAST_TOKENIZER", "`word_to_tokens`"),
    ("TypeError: Seq2SeqTrainingArguments.__init__() got an unexpected keyword argument 'no_cuda'",
     "HF_LIBRARY_ARGUMENT_NOT_IN_INSTALLED_VERSION", "`Seq2SeqTrainingArguments` has no argument `no_cuda`"),
    ("TypeError: SFTConfig.__init__() got an unexpected keyword argument 'max_seq_length'",
     "HF_LIBRARY_ARGUMENT_NOT_IN_INSTALLED_VERSION", "`SFTConfig` has no argument `max_seq_length`"),
    ("ValueError: If passing a string for `device_map`, please choose 'auto', 'balanced', 'balanced_low_0' or "
     "'sequential'.", "HF_DEVICE_MAP_VALUE_INVALID", "device_map is not a value the loader takes"),
    ("ValueError: Calling `cuda()` is not supported for `4-bit` quantized models with the installed version of "
     "bitsandbytes. The current device is `cuda:0`. If you intended to move the model, please install bitsandbytes "
     ">= 0.43.2.", "HF_QUANTIZED_MODEL_MOVE_OR_CAST_REFUSED", "quantized model was moved or cast"),
    ("ValueError: You cannot cast a GPTQ model in a new `dtype`. Make sure to load the model using `from_pretrained` "
     "using the desired `dtype` by passing the correct `dtype` argument.", "HF_QUANTIZED_MODEL_MOVE_OR_CAST_REFUSED",
     "GPTQ"),
    ("[ERROR|modeling_utils.py:3879] 2025-08-01 10:00:00,000 >> Provided path (output/pytorch_model.bin) should be a "
     "directory, not a file", "HF_SAVE_PATH_IS_A_FILE", "`output/pytorch_model.bin`"),
    ("ValueError: Bad split: dev. Available splits: ['train', 'test']", "DATASETS_SPLIT_NOT_FOUND", "`dev`"),
    ("ValueError: Feature type 'Json' not found. Available feature types: ['Value', 'ClassLabel']",
     "DATASETS_FEATURE_TYPE_UNKNOWN", "`Json`"),
    ("ValueError: BuilderConfig 'zh' not found. Available: ['default']", "DATASETS_CONFIG_NAME_NOT_FOUND",
     "config `zh` does not exist (available configs: ['default'])"),
    ("ValueError: Config name is missing.", "DATASETS_CONFIG_NAME_NOT_FOUND", "was not named"),
    ("This is a friendly reminder - the current text generation call has exceeded the model's predefined maximum "
     "length (4096). Depending on the model, you may observe exceptions, performance degradation, or nothing at all.",
     "HF_INPUT_LONGER_THAN_MODEL_MAX_LENGTH", "maximum length (4096)"),
    ("ValueError: InternLM2ForCausalLM does not support gradient checkpointing.",
     "HF_MODEL_GRADIENT_CHECKPOINTING_NOT_SUPPORTED", "`InternLM2ForCausalLM`"),
    ("[ERROR|base.py:1314] 2025-08-01 10:00:00,000 >> The model 'Qwen2Model' is not supported for text-generation. "
     "Supported models are ['Qwen2ForCausalLM'].", "HF_PIPELINE_MODEL_NOT_FOR_TASK",
     "`Qwen2Model` is not one for the task `text-generation`"),
    ("ValueError: invalid truncation strategy: middle, use 'left' or 'right'.", "HF_TOKENIZER_SIDE_VALUE_INVALID",
     "`middle`"),
    ("Exception: Impossible to guess which image processor to use. Please provide a PreTrainedImageProcessor class "
     "or a path/identifier to a pretrained image processor.", "HF_PIPELINE_TOKENIZER_NOT_GUESSABLE",
     "no image processor"),
    ("ValueError: Pipeline with tokenizer without pad_token cannot do batching. You can try to set it with "
     "`pipe.tokenizer.pad_token_id = model.config.eos_token_id`.", "TOKENIZER_SPECIAL_SETTING_MISSING",
     "has no pad_token"),
    # the second batch of runs
    ("ValueError: `return_dict=True` is incompatible with `tokenize=False`, because there is no dict of tokenizer "
     "outputs to return.", "HF_CHAT_TEMPLATE_ARGUMENTS_CONFLICT", "return_dict=True is incompatible with"),
    ("ValueError: Trainer failed to import FusedAdamW from torch_npu.", "HF_TRAINER_OPTIMIZER_PACKAGE_MISSING",
     "needs torch_npu"),
    ("ValueError: Trainer tried to instantiate bnb optimizer but `bitsandbytes` is not installed!",
     "HF_TRAINER_OPTIMIZER_PACKAGE_MISSING", "needs bitsandbytes"),
    ("ValueError: The AdEMAMix optimizer is not supported by your current version of `bitsandbytes`. Please install "
     "`bitsandbytes` >= 0.44.0.", "HF_TRAINER_OPTIMIZER_PACKAGE_MISSING", "needs bitsandbytes"),
    ("ValueError: You are trying to load a dataset that was saved using `save_to_disk`. Please use `load_from_disk` "
     "instead.", "DATASETS_SAVED_DATASET_NEEDS_LOAD_FROM_DISK", "load_from_disk"),
    ("ValueError: Trainer: training requires a train_dataset.", "HF_TRAINER_DATASET_NOT_PASSED",
     "training was run, but no train_dataset"),
    ("ValueError: Trainer: evaluation requires an eval_dataset.", "HF_TRAINER_DATASET_NOT_PASSED", "eval_dataset"),
    ("ValueError: The model you have picked (LlamaModel) cannot be used as is for training: it only computes hidden "
     "states and does not accept any labels.", "HF_TRAINER_MODEL_WITHOUT_TASK_HEAD", "(`LlamaModel`)"),
    ("ValueError: Adapter sft not found.", "PEFT_ADAPTER_NAME_NOT_FOUND", "`sft`"),
    ("ValueError: The model did not return a loss from the inputs, only the following keys: last_hidden_state,"
     "past_key_values. For reference, the inputs it received are input_ids.", "HF_TRAINER_MODEL_WITHOUT_TASK_HEAD",
     "base model without a task head"),
    ("ValueError: Can't instantiate LlamaForCausalLM model under dtype=torch.int8 since it is not a floating point "
     "dtype", "HF_MODEL_DTYPE_NOT_FLOATING", "dtype torch.int8"),
    ("ValueError: `r` should be a positive integer value but the value passed is 0", "PEFT_LORA_RANK_NOT_POSITIVE",
     "is 0"),
    ("UserWarning: Unexpected keyword arguments ['use_qalora'] for class LoraConfig, these are ignored. This probably "
     "means that you're loading a configuration file that was saved using a higher version of the library and "
     "additional parameters have been introduced since.", "PEFT_ADAPTER_CONFIG_FROM_NEWER_PEFT", "['use_qalora']"),
    ("ValueError: The model did not return a loss from the inputs, only the following keys: logits,past_key_values. "
     "For reference, the inputs it received are input_ids.", "HF_TRAINER_MODEL_RETURNED_NO_LOSS", "input_ids"),
    ("ValueError: Adapter reward does not exist", "PEFT_ADAPTER_NAME_NOT_FOUND", "`reward`"),
    ("OSError: Not enough disk space. Needed: 12.50 GiB (download: 4.10 GiB, generated: 8.40 GiB, post-processed: "
     "Unknown size)", "DATASETS_CACHE_DISK_SPACE_INSUFFICIENT", "(needed: 12.50 GiB)"),
    ("datasets.data_files.EmptyDatasetError: The directory at /work/fi/hf_checks/work/nodata doesn't contain any "
     "data files", "DATASETS_DATA_FILES_NOT_FOUND", "`/work/fi/hf_checks/work/nodata`"),
    ("ValueError: The batch received was empty, your model won't be able to train on it. Double-check that your "
     "training dataset contains keys expected by the model: input_ids,attention_mask,labels.",
     "HF_TRAINER_NO_COLUMN_MATCHES_MODEL_INPUTS", "no column of the dataset is an input"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # a clean run's lines (clean.py: Trainer, LoRA, generate and a pipeline on tiny local models, INFO verbosity)
    "loading file tokenizer.json",
    "Configuration saved in /work/fi/hf_checks/work/clean_out/checkpoint-3/config.json",
    "tokenizer config file saved in /work/fi/hf_checks/work/clean_final/tokenizer_config.json",
    "Generating train split: 16 examples [00:00, 2000.00 examples/s]",
    "Device set to use cpu",
    # ordinary lines that share the entries' words
    "TrainingArguments(eval_strategy='steps', eval_steps=50) evaluates every 50 steps",
    "FutureWarning: `evaluation_strategy` is deprecated and will be removed in version 4.46 of Transformers. Use "
    "`eval_strategy` instead",
    "Loading checkpoint shards with device_map='auto' placed 24 layers on npu:0",
    "Model weights saved in /data/out/model.safetensors",
    "word_ids() returns a list mapping each token to the word it came from (fast tokenizers only)",
    "Using custom data configuration default-8a2f1c",
    "max_length=512 truncation=True: sequences longer than the maximum are truncated",
    "Updated git hooks. Git LFS initialized.",
    "`use_cache=True` is incompatible with gradient checkpointing. Setting `use_cache=False`.",
    "tokenizer.padding_side = 'left' set for batched generation",
    "Using optimizer adamw_torch_npu_fused with lr 2e-05",
    "Adapter sft loaded from /data/lora/checkpoint-100",
    "[INFO] Adapter default not found in the cache, loading it",
    "Downloading and preparing dataset json/default to /data/hf_cache/datasets/json/default (download: 1.2 MiB)",
    "Trainer: training on 16 samples, evaluating on 4",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
