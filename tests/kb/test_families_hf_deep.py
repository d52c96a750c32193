"""data/kb/families_hf_deep.json: a second fault-injection pass over the Hugging Face stack (transformers 4.57's
Trainer and TrainingArguments, generate() and the GenerationConfig, the Auto classes and pipelines, tokenizers' chat
templates and collators, accelerate's state, Accelerator arguments and launch config, PEFT configs and adapters,
datasets' casts, splits, streaming, saved datasets and indexing, safetensors' save check, pyarrow's conversions and
Parquet reader), each fault run with torch 2.13 CPU. Each entry reads members its examples do not show and says the
member in its title; ordinary lines, the clean runs' output and every clean excerpt of the corpus stay quiet; one line
is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_hf_deep")
# members of other parts' families this part's runs extended
EXTENDED = ["TOKENIZER_SPECIAL_SETTING_MISSING", "PEFT_TARGET_MODULES_NOT_FOUND", "HF_BATCH_SEQUENCES_NOT_PADDED"]
FAMILY = IDS + EXTENDED + ["LAUNCH_OPTION_CHECK_FAILED", "LLM_STACK_CONFIG_VALUE_REJECTED",
                           "MODEL_ARCHITECTURE_NOT_SUPPORTED", "PY_OPTION_NOT_A_VALID_ENUM_VALUE",
                           "FRAMEWORK_SETTING_NOT_SUPPORTED", "HF_OPTIONAL_PACKAGE_NOT_INSTALLED",
                           "DATASETS_COLUMN_NOT_FOUND", "HF_GENERATION_VALUE_OUT_OF_RANGE",
                           "HF_TRAINER_EVAL_DATASET_MISSING", "HF_REQUIRED_FILE_MISSING",
                           # families_data_formats' entries for faults this part's runs hit too (one entry per fault)
                           "SAFETENSORS_SHARED_TENSORS_ON_SAVE", "ARROW_VALUE_TYPE_CONVERSION_FAILED",
                           "PARQUET_FILE_NOT_PARQUET"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert {"HF_TRAINER_NO_COLUMN_MATCHES_MODEL_INPUTS", "HF_TRAINER_BEST_MODEL_SAVE_EVAL_MISMATCH",
            "ACCELERATE_STATE_ALREADY_INITIALIZED", "DATASETS_ITERABLE_NO_RANDOM_ACCESS",
            "HF_CHECKPOINT_SHARD_FILE_MISSING", "HF_COLLATOR_GOT_RAW_TEXT_COLUMN"} <= set(IDS)
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_hf_deep.json" and not sig.ascend_fd, sid
        assert sig.kind == "root" and not sig.fallback, sid
        assert sig.severity == ("warn" if sid == "HF_GENERATE_RIGHT_PADDING_DECODER_ONLY" else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    ("ValueError: No columns in the dataset match the model's forward method signature: (input_ids, attention_mask, "
     "labels). The following columns have been ignored: [prompt, response]. Please check the dataset and model.",
     "HF_TRAINER_NO_COLUMN_MATCHES_MODEL_INPUTS", "(columns dropped: `prompt, response`)"),
    ("ValueError: --load_best_model_at_end requires the saving steps to be a multiple of the evaluation steps, but "
     "found 0.25, which is not a multiple of 0.1.", "HF_TRAINER_BEST_MODEL_SAVE_EVAL_MISMATCH",
     "save_steps 0.25 is not a multiple of eval_steps 0.1"),
    ("KeyError: \"The `metric_for_best_model` training argument is set to 'eval_f1', which is not found in the "
     "evaluation metrics. The available evaluation metrics are: ['eval_loss']. Consider changing the "
     "`metric_for_best_model` via the TrainingArguments.\"", "HF_TRAINER_BEST_METRIC_NOT_IN_EVAL_METRICS", "`eval_f1`"),
    ("ValueError: args.max_steps must be set to a positive value if dataloader does not have a length, was -1",
     "HF_TRAINER_MAX_STEPS_NEEDED_FOR_UNSIZED_DATASET", "max_steps must be set"),
    ("ValueError: wandbb is not supported, only azure_ml, comet_ml, mlflow, neptune, tensorboard, wandb are supported.",
     "HF_TRAINER_REPORT_TO_UNKNOWN", "`wandbb`"),
    ("ValueError: No valid checkpoint found in output directory (./saves/qwen2-sft)",
     "HF_TRAINER_RESUME_CHECKPOINT_NOT_FOUND", "output directory `./saves/qwen2-sft`"),
    ("ValueError: evaluation strategy IntervalStrategy.STEPS requires either non-zero --eval_steps or "
     "--logging_steps", "HF_TRAINING_ARGUMENT_VALUE_REJECTED", "requires either non-zero --eval_steps"),
    ("ValueError: --save_steps must be an integer if bigger than 1: 2.5", "HF_TRAINING_ARGUMENT_VALUE_REJECTED",
     "--save_steps must be an integer"),
    ("RuntimeError: `Trainer` requires either a `model` or `model_init` argument", "HF_TRAINER_CREATED_WITHOUT_MODEL",
     "without a model"),
    ("RuntimeError: Some tensors share memory, this will lead to duplicate memory on disk and potential differences "
     "when loading them again: [{'model.embed_tokens.weight', 'lm_head.weight'}].",
     "SAFETENSORS_SHARED_TENSORS_ON_SAVE", "'lm_head.weight'"),  # (families_data_formats' entry, one per fault)
    ("ValueError: Input length of decoder_input_ids is 64, but `max_length` is set to 20. This can lead to "
     "unexpected behavior.", "HF_GENERATE_INPUT_LONGER_THAN_MAX_LENGTH", "64 tokens, not shorter than max_length 20"),
    ("2025-01-01 10:00:00 - WARNING - transformers.generation.utils - A decoder-only architecture is being used, but "
     "right-padding was detected! For correct generation results, please set `padding_side='left'` when "
     "initializing the tokenizer.", "HF_GENERATE_RIGHT_PADDING_DECODER_ONLY", "padding_side='left'"),
    ("ValueError: Unrecognized processing class in /data/models/qwen2-vl. Can't instantiate a processor, a tokenizer, "
     "an image processor or a feature extractor for this model. Make sure the repository contains the files of at "
     "least one of those processing classes.", None, None),
    ("ValueError: Unrecognized model in ./output/checkpoint-500. Should have a `model_type` key in its config.json, or "
     "contain one of the following strings in its name: albert, bert", "HF_CONFIG_MODEL_TYPE_MISSING",
     "`./output/checkpoint-500`"),
    ("AssertionError: Cannot handle batch sizes > 1 if no padding token is defined.",
     "HF_SEQ_CLASSIFICATION_NO_PAD_TOKEN_ID", "no pad_token_id"),
    ("ValueError: AcceleratorState has already been initialized and cannot be changed, restart your runtime "
     "completely and pass `cpu=True` to `Accelerator()`.", "ACCELERATE_STATE_ALREADY_INITIALIZED", "(`cpu=True`)"),
    ("ValueError: Unknown mixed_precision mode: float16. Choose between ['no', 'fp8', 'fp16', 'bf16'].",
     "ACCELERATE_MIXED_PRECISION_UNKNOWN", "`float16`"),
    ("ValueError: Invalid task type: 'CASUAL_LM'. Must be one of the following task types: SEQ_CLS, CAUSAL_LM.",
     "PEFT_TASK_TYPE_INVALID", "`CASUAL_LM`"),
    ("ValueError: Adapter with name 'sql' already exists.", "PEFT_ADAPTER_NAME_EXISTS", "`sql`"),
    ("ValueError: The columns in features (['text', 'label']) must be identical as the columns in the dataset: "
     "['sentence', 'label']", "DATASETS_CAST_COLUMNS_DIFFER", "['sentence', 'label']"),
    ("pyarrow.lib.ArrowTypeError: Expected bytes, got a 'int' object", "ARROW_VALUE_TYPE_CONVERSION_FAILED", "int"),
    ("pyarrow.lib.ArrowInvalid: Could not convert '3.5' with type str: tried to convert to double",
     "ARROW_VALUE_TYPE_CONVERSION_FAILED", "double"),
    ("ValueError: Invalid integer class label 7", "DATASETS_CLASS_LABEL_UNKNOWN", "`7`"),
    ("TypeError: 'IterableDataset' object is not subscriptable", "DATASETS_ITERABLE_NO_RANDOM_ACCESS",
     "is not subscriptable"),
    ("AttributeError: 'IterableDataset' object has no attribute 'train_test_split'",
     "DATASETS_ITERABLE_NO_RANDOM_ACCESS", "train_test_split"),
    ("ValueError: train_size=2000 should be either positive and smaller than the number of samples 1500 or a float "
     "in the (0, 1) range", "DATASETS_SPLIT_SIZE_INVALID", "train size 2000"),
    ("FileNotFoundError: Directory ./data/alpaca is neither a `Dataset` directory nor a `DatasetDict` directory.",
     "DATASETS_NOT_A_SAVED_DATASET_DIR", "`./data/alpaca`"),
    ("IndexError: Index 10000 out of range for dataset of size 9500.", "DATASETS_INDEX_OUT_OF_RANGE", "9500 rows"),
    ("TypeError: Provided `function` which is applied to all elements of table returns a variable of type <class "
     "'list'>. Make sure provided `function` returns a variable of type `dict` (or a pyarrow table) to update the "
     "dataset or `None` if you are only interested in side effects.", "DATASETS_MAP_FUNCTION_RETURN_TYPE",
     "<class 'list'>"),
    ("FileNotFoundError: [Errno 2] No such file or directory: '/models/Qwen2-7B/model-00003-of-00004.safetensors'",
     "HF_CHECKPOINT_SHARD_FILE_MISSING", "`model-00003-of-00004.safetensors`"),
    ("ValueError: Contrastive Search requires `trust_remote_code=True` in your `generate` call, since it loads "
     "https://hf.co/transformers-community/contrastive-search.", "HF_GENERATE_METHOD_MOVED_TO_HUB",
     "`Contrastive Search`"),
    ("ValueError: Greedy methods without beam search do not support `num_return_sequences` different than 1 (got 4).",
     "HF_GENERATE_MORE_SEQUENCES_THAN_BEAMS", "(4)"),
    ("ValueError: Unable to create tensor, you should probably activate truncation and/or padding with "
     "'padding=True' 'truncation=True' to have batched tensors with the same length. Perhaps your features "
     "(`instruction` in this case) have excessive nesting (inputs type `list` where type `int` is expected).",
     "HF_COLLATOR_GOT_RAW_TEXT_COLUMN", "`instruction`"),
    ("ValueError: Unrecognized configuration class <class 'transformers.models.qwen2_vl.configuration_qwen2_vl."
     "Qwen2VLConfig'> for this kind of AutoModel: AutoModelForCausalLM.", "HF_AUTO_CLASS_DOES_NOT_FIT_MODEL",
     "`AutoModelForCausalLM` has no model class for `Qwen2VLConfig`"),
    ("jinja2.exceptions.TemplateSyntaxError: Encountered unknown tag 'generation'.", "JINJA_TEMPLATE_SYNTAX_ERROR",
     "Encountered unknown tag"),
    ("Failed to read schema from '/data/train-00000.parquet' with error ArrowInvalid: Parquet magic bytes not found "
     "in footer. Either the file is corrupted or this is not a parquet file.", "PARQUET_FILE_NOT_PARQUET",
     "/data/train-00000.parquet"),
    ("KeyError: \"Unknown task text2text, available tasks are ['text-generation', 'text2text-generation']\"",
     "HF_PIPELINE_TASK_UNKNOWN", "`text2text`"),
    ("ValueError: Unrecognized instruction format: train[:10 %]", "DATASETS_SPLIT_SPEC_INVALID", "`train[:10`"),
    ("FileNotFoundError: The passed configuration file `configs/fsdp.yaml` does not exist. Please pass an existing "
     "file to `accelerate launch`.", "ACCELERATE_CONFIG_FILE_NOT_FOUND", "`configs/fsdp.yaml`"),
    ("ValueError: batch_size should be a positive integer value, but got batch_size=-1",
     "TORCH_DATALOADER_BATCH_SIZE_NOT_POSITIVE", "batch_size=-1"),
    # the members extended in other parts
    ("ValueError: This tokenizer does not have a mask token which is necessary for masked language modeling. You "
     "should pass `mlm=False` to train on causal language modeling instead.", "TOKENIZER_SPECIAL_SETTING_MISSING",
     "mask token"),
    ("ValueError: Target modules (q|k|v)_proj not found in the base model. Please check the target modules and try "
     "again.", "PEFT_TARGET_MODULES_NOT_FOUND", "(q|k|v)_proj"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    if sig_id is None:
        # another Auto factory's wording without the `..._type` key phrase: not this part's (no false claim)
        assert "HF_CONFIG_MODEL_TYPE_MISSING" not in [s.id for s in kb.match_line(line)]
        return
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "The following columns in the training set don't have a corresponding argument in `GPT2LMHeadModel.forward` and "
    "have been ignored: text. If text are not expected by `GPT2LMHeadModel.forward`,  you can safely ignore this message.",
    "Both `max_new_tokens` (=3) and `max_length`(=40) seem to have been set. `max_new_tokens` will take precedence.",
    "Setting `pad_token_id` to `eos_token_id`:50256 for open-end generation.",
    "Group Beam Search was moved to a `custom_generate` repo: https://hf.co/transformers-community/group-beam-search.",
    "`Trainer` requires either a `model` or `model_init` argument, but not both. `model_init` will overwrite your "
    "model when calling the `train` method.",
    "Loading checkpoint shards: 100%|██████████| 5/5 [00:00<00:00, 120.00it/s]",
    "Removed shared tensor {'lm_head.weight'} while saving. This should be OK, but check by verifying that you don't "
    "receive any warning while reloading",
    "{'eval_loss': 4.12, 'eval_accuracy': 0.51, 'eval_runtime': 0.1, 'epoch': 1.0}",
    "  Total optimization steps = 2",
    "Mixed precision type: bf16",
    "trainable params: 2,048 || all params: 12,345 || trainable%: 16.59",
    "Map: 100%|██████████| 8/8 [00:00<00:00, 641.69 examples/s]",
    "Generating train split: 2 examples [00:00, 400.00 examples/s]",
    "Device set to use cpu",
    "{'train_runtime': 0.5, 'train_samples_per_second': 16.0, 'train_steps_per_second': 4.0, 'train_loss': 4.1, "
    "'epoch': 0.5}",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


def test_a_token_id_column_stays_with_the_padding_entry(kb):
    # the collator's message names input_ids: unequal lengths, padding missing (not a raw text column)
    line = ("ValueError: Unable to create tensor, you should probably activate truncation and/or padding with "
            "'padding=True' 'truncation=True' to have batched tensors with the same length. Perhaps your features "
            "(`input_ids` in this case) have excessive nesting (inputs type `list` where type `int` is expected).")
    assert [s.id for s in kb.explaining(line) if s.id in FAMILY] == ["HF_BATCH_SEQUENCES_NOT_PADDED"]
