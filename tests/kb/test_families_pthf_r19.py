"""data/kb/families_pthf_r19.json: PyTorch and the Hugging Face libraries as Python (round 19) — the faults of the
users' most reported kind that no earlier torch or Hugging Face entry named: a device string PyTorch does not know
(`npu` without torch_npu, `auto`, `gpu`, a malformed index), a backward node returning gradients that do not fit its
inputs, SDPA's attention-mask dtype, nn.MultiheadAttention's shape checks, tokenizer.pad() given untokenized samples,
torch.compile on a Python its PyTorch does not support, Triton without a C compiler and accelerate's split_batches
batch size. The entries of other parts this round widened read their new members (transformers 5's wordings and load
report, datasets' column and index checks, accelerate's meta-device check). Each entry reads members its examples do
not show, says the member in its title, stays quiet on ordinary lines, on a clean training run's whole output and on
every clean corpus excerpt, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import clean_run_hits, english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_pthf_r19")
EXTENDED = ["CHECKPOINT_FILE_UNREADABLE", "TORCH_DTYPE_MISMATCH", "TORCH_META_TENSOR_NO_DATA", "TORCH_CHECKPOINT_SHAPE_MISMATCH",
            "HF_REQUIRED_FILE_MISSING", "HF_GENERATE_MORE_SEQUENCES_THAN_BEAMS", "DATASETS_INDEX_OUT_OF_RANGE",
            "HF_TRAINER_MAX_STEPS_NEEDED_FOR_UNSIZED_DATASET", "DATASETS_COLUMN_NOT_FOUND", "TOKENIZERS_INPUT_NOT_TEXT",
            "HF_CHECKPOINT_WEIGHTS_NOT_MATCHED"]
FAMILY = IDS + EXTENDED + ["TORCH_ATTENTION_MASK_SHAPE_MISMATCH", "TORCH_ATTENTION_EMBED_DIM_NOT_DIVISIBLE_BY_HEADS",
                           "HF_COLLATOR_GOT_RAW_TEXT_COLUMN",
                           "TORCH_CUDA_CALLED_ON_NPU_HOST", "PT_TENSORS_DIFFERENT_DEVICES",
                           "TORCH_ONE_HOT_CLASS_OUT_OF_RANGE", "TORCH_INDEX_TENSOR_NOT_INTEGER",
                           "TORCH_NPU_DEVICE_NOT_REGISTERED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) == 13 and "TORCH_DEVICE_STRING_INVALID" in IDS and "TRITON_C_COMPILER_NOT_FOUND" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_pthf_r19.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback, sid
        assert sig.severity == ("warn" if sid == "TORCH_COMPILE_RECOMPILE_LIMIT_HIT" else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # device strings: older type lists, other names, a malformed index
    ("RuntimeError: Expected one of cpu, cuda, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, lazy, "
     "vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: gpu:0",
     "TORCH_DEVICE_STRING_INVALID", "`gpu:0`"),
    # `npu` without `import torch_npu` stays TORCH_NPU_DEVICE_NOT_REGISTERED's (families_python.json), which says so
    ("RuntimeError: Expected one of cpu, cuda, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, lazy, "
     "vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: npu:0",
     "TORCH_NPU_DEVICE_NOT_REGISTERED", "npu"),
    ("  File \"app.py\", line 9 ... RuntimeError: Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, "
     "hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device "
     "string: auto", "TORCH_DEVICE_STRING_INVALID", "`auto`"),
    ("RuntimeError: Invalid device string: 'cuda:cuda'", "TORCH_DEVICE_STRING_INVALID", "`cuda:cuda`"),
    # a backward node's gradients
    ("RuntimeError: Function MmBackward0 returned an invalid gradient at index 1 - expected device meta but got cpu",
     "TORCH_AUTOGRAD_INVALID_GRADIENT_RETURNED", "`MmBackward0`"),
    ("RuntimeError: Function ConvolutionBackward0 returned an invalid gradient at index 1 - got [128, 255, 3, 3] but "
     "expected shape compatible with [128, 256, 3, 3]", "TORCH_AUTOGRAD_INVALID_GRADIENT_RETURNED",
     "(input 1: got [128, 255, 3, 3]"),
    ("RuntimeError: function RoPEFuncBackward returned an incorrect number of gradients (expected 4, got 2)",
     "TORCH_AUTOGRAD_INVALID_GRADIENT_RETURNED", "(4 expected, 2 returned)"),
    # SDPA and MultiheadAttention
    ("RuntimeError: Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: "
     "long int and  query.dtype: c10::BFloat16 instead.", "TORCH_SDPA_ATTN_MASK_DTYPE_INVALID",
     "`long int` for a query of dtype `c10::BFloat16`"),
    ("AssertionError: was expecting embedding dimension of 512, but got 768", "TORCH_MULTIHEAD_ATTENTION_INPUT_SHAPES_INVALID",
     "`was expecting embedding dimension of 512, but got 768`"),
    ("AssertionError: For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D but found 2-D "
     "tensor instead", "TORCH_MULTIHEAD_ATTENTION_INPUT_SHAPES_INVALID", "key_padding_mask"),
    ("AssertionError: Expected `attn_mask` shape to be (2, 3, 4) but got torch.Size([3, 4, 4])",
     "TORCH_MULTIHEAD_ATTENTION_INPUT_SHAPES_INVALID", "(2, 3, 4)"),
    # tokenizer.pad, torch.compile, Triton, accelerate
    ("ValueError: You should supply an encoding or a list of encodings to this method that includes input_ids, but you "
     "provided ['instruction', 'output']", "HF_TOKENIZER_PAD_GOT_UNTOKENIZED_SAMPLES", "['instruction', 'output']"),
    ("RuntimeError: Dynamo is not supported on Python 3.12+", "TORCH_COMPILE_PYTHON_VERSION_UNSUPPORTED", "Python 3.12"),
    ("RuntimeError: Windows not yet supported for torch.compile", "TORCH_COMPILE_PYTHON_VERSION_UNSUPPORTED", "(Windows)"),
    ("[rank0]: RuntimeError: Failed to find C compiler. Please specify via CC environment variable.",
     "TRITON_C_COMPILER_NOT_FOUND", "no C compiler"),
    ("ValueError: To use `IterableDatasetShard` in `split_batches` mode, the batch size (3) needs to be a round multiple "
     "of the number of processes (2).", "ACCELERATE_SPLIT_BATCHES_SIZE_NOT_MULTIPLE", "batch size 3 is not a multiple of the 2"),
    # a Trainer subclass, datasets' split check, Dynamo's recompile limit, bitsandbytes
    ("TypeError: DPOTrainer.compute_loss() got an unexpected keyword argument 'num_items_in_batch'",
     "HF_TRAINER_COMPUTE_LOSS_OVERRIDE_OUTDATED", "(`DPOTrainer`)"),
    ("datasets.exceptions.ExpectedMoreSplitsError: {'test', 'validation'}", "DATASETS_SPLITS_DIFFER_FROM_RECORDED_INFO",
     "{'test', 'validation'} recorded but not prepared"),
    ("W1206 10:00:00.000000 77 torch/_dynamo/convert_frame.py:1995] [3/256] torch._dynamo hit "
     "config.accumulated_recompile_limit (256)", "TORCH_COMPILE_RECOMPILE_LIMIT_HIT",
     "config.accumulated_recompile_limit = 256"),
    ("ImportError: Using `bitsandbytes` 8-bit quantization requires bitsandbytes: `pip install -U bitsandbytes>=0.43.0`",
     "HF_BITSANDBYTES_QUANTIZATION_PACKAGE_MISSING", "8-bit quantization needs the bitsandbytes package (`bitsandbytes>=0.43.0`)"),
    ("  File \"loss.py\", line 12 ... RuntimeError: one_hot is only applicable to index tensor.",
     "TORCH_ONE_HOT_INDEX_NOT_INT64", "not an int64 (Long) tensor"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "Using device: cuda:0", "device = torch.device('npu:0')", "model.to(device)  # cuda:0",
    "torch.compile: compiling model with backend=inductor", "Python 3.12.4 (main, Jun  6 2024)",
    "export CC=/usr/bin/gcc", "-- The C compiler identification is GNU 11.4.0",
    "{'loss': 2.31, 'grad_norm': 1.2, 'learning_rate': 5e-05, 'epoch': 0.1}", "***** Running training *****",
    "  Total optimization steps = 500", "Map: 100%|██████████| 1000/1000 [00:00<00:00, 5000.00 examples/s]",
    "Distributed environment: MULTI_GPU  Backend: nccl Num processes: 4", "split_batches=False",
    "attn_mask dtype: torch.bool", "MultiheadAttention(embed_dim=512, num_heads=8)",
    "All the weights of LlamaForCausalLM were initialized from the model checkpoint at /data/llama.",
    "Key                    | Status   |", "GPT2LMHeadModel LOAD REPORT from: /data/gpt2", "Column 'text' exists in the dataset", "Invalid key handling: none",
    "data_collator = DataCollatorWithPadding(tokenizer=tokenizer)",
    "All the splits matched successfully.", "torch._dynamo.config.recompile_limit = 64",
    "def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):",
    "load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16",
    "targets = F.one_hot(labels.long(), num_classes=10).float()",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_a_clean_training_run_gives_no_statement(kb):
    """A Trainer run of a tiny GPT-2 on the CPU (transformers 5.25 at info verbosity, a datasets map, checkpoint saves,
    generate, an nn.MultiheadAttention and an SDPA call with a bool mask), as it came out here: no line is explained by
    this part or the entries it widened."""
    assert clean_run_hits(kb, "pthf_r19_clean_runs.txt", IDS + EXTENDED, at_least=40) == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


@pytest.mark.parametrize("line, sig_id, said", [
    ("  File \"eval.py\", line 3 ... RuntimeError: Expected hasRecord(\"version\") to be true, but got false.",
     "CHECKPOINT_FILE_UNREADABLE", "not a PyTorch checkpoint"),
    ("RuntimeError: expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float", "TORCH_DTYPE_MISMATCH",
     "c10::BFloat16"),
    ("ValueError: lm_head.weight is on the meta device, we need a `value` to put in on cpu.", "TORCH_META_TENSOR_NO_DATA",
     "meta device"),
    ("score.weight | MISMATCH | Reinit due to size mismatch - ckpt: torch.Size([2, 896]) vs model:torch.Size([5, 896])",
     "TORCH_CHECKPOINT_SHAPE_MISMATCH", "`score.weight` has another shape than the model's (checkpoint [2, 896]"),
    ("OSError: Error no file named model.safetensors, or pytorch_model.bin, found in directory ./Qwen2.5-7B.",
     "HF_REQUIRED_FILE_MISSING", "`./Qwen2.5-7B`"),
    ("ValueError: Greedy methods (do_sample != True) without beam search do not support `num_return_sequences` "
     "different than 1 (got 4).", "HF_GENERATE_MORE_SEQUENCES_THAN_BEAMS", "(4)"),
    ("IndexError: Invalid key: 1000 is out of bounds for size 800", "DATASETS_INDEX_OUT_OF_RANGE", "800 rows"),
    ("[rank1]: ValueError: The train_dataset does not implement __len__, so the number of training steps cannot be "
     "inferred; max_steps has to be specified.", "HF_TRAINER_MAX_STEPS_NEEDED_FOR_UNSIZED_DATASET", "max_steps"),
    ("ValueError: Column 'label' doesn't exist.", "DATASETS_COLUMN_NOT_FOUND", "`label`"),
    ("ValueError: text input must be of type `str` (single example), `List[str]` (batch or single pretokenized "
     "example) or `List[List[str]]` (batch of pretokenized examples).", "TOKENIZERS_INPUT_NOT_TEXT",
     "text input must be of type"),
    ("- \x1b[33mUNEXPECTED:\x1b[0m\t\x1b[3mcan be ignored when loading from different task/architecture; not ok if "
     "you expect identical arch.\x1b[0m", "HF_CHECKPOINT_WEIGHTS_NOT_MATCHED", "can be ignored when loading"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title
