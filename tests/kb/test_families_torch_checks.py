"""data/kb/families_torch_checks.json: PyTorch's own argument checks (round 16) — the raise sites of torch/nn/modules
(RNN/LSTM/GRU hidden state, BatchNorm / LayerNorm / GroupNorm sizes, grouped convolutions, MultiheadAttention and
Transformer, dropout), nn.Module.load_state_dict, torch/utils/data (DataLoader options, samplers, random_split,
TensorDataset), torch/_tensor.py and torch/autograd, and the ATen TORCH_CHECK messages a user's call reaches, written by
fault injection with torch 2.13 CPU. Each entry reads members its examples do not show and says the member in its
title; ordinary lines and every clean excerpt of the corpus stay quiet; one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_torch_checks")
# the entry of another part this part extends (the RNN/LSTM/GRU input-rank check)
EXTENDED = ["TORCH_LAYER_INPUT_RANK_INVALID"]
# the generic class entries these lines were read by before: each line is now one specific problem
FAMILY = IDS + EXTENDED + ["SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT", "LLM_STACK_CONFIG_VALUE_REJECTED",
                           "PY_ASSERTION_FAILED", "PY_SCRIPT_EXCEPTION", "TORCH_TENSOR_SHAPE_MISMATCH",
                           "TORCH_RNN_INPUT_SIZE_MISMATCH", "TORCH_TENSORS_JOINED_UNEQUAL_SIZE",
                           "TORCH_INDEX_TENSOR_NOT_INTEGER", "FRAMEWORK_SETTING_NOT_SUPPORTED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) >= 25
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_torch_checks.json" and not sig.ascend_fd, sid
        assert sig.kind == "root" and not sig.fallback and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    ("RuntimeError: For batched 3-D input, hx and cx should also be 3-D but got (2-D, 2-D) tensors",
     "TORCH_RNN_HIDDEN_STATE_SHAPE_MISMATCH", "expected 3-D"),
    ("[rank0]: RuntimeError: Expected hidden[1] size (2, 8, 64), got [2, 4, 64]",
     "TORCH_RNN_HIDDEN_STATE_SHAPE_MISMATCH", "(`hidden[1]`): expected (2, 8, 64), got [2, 4, 64]"),
    ("ValueError: GRU: Expected input to be 2D or 3D, got 4D tensor instead", "TORCH_LAYER_INPUT_RANK_INVALID",
     "(`GRU`)"),
    ("RuntimeError: weight should contain 32 elements not 64", "TORCH_BATCHNORM_NUM_FEATURES_MISMATCH",
     "built for 64 features got an input with 32 channels (weight should"),
    ("RuntimeError: Given normalized_shape=[768], expected input with shape [*, 768], but got input of "
     "size[2, 128, 1024]", "TORCH_LAYERNORM_NORMALIZED_SHAPE_MISMATCH", "[768] does not match"),
    ("ValueError: out_channels must be divisible by groups", "TORCH_GROUPS_DO_NOT_DIVIDE_CHANNELS",
     "`out_channels must be divisible by groups`"),
    ("[rank0]: AssertionError: embed_dim must be divisible by num_heads",
     "TORCH_ATTENTION_EMBED_DIM_NOT_DIVISIBLE_BY_HEADS", "not divisible by num_heads"),
    ("RuntimeError: attn_mask's dimension 4 is not supported", "TORCH_ATTENTION_MASK_SHAPE_MISMATCH",
     "(attn_mask: 4)"),
    ("AssertionError: Expected key_padded_mask.shape[0] to be 8, but got 4", "TORCH_ATTENTION_MASK_SHAPE_MISMATCH",
     "key_padded_mask.shape[0]: 4, expected 8"),
    ("ValueError: dropout probability has to be between 0 and 1, but got 10", "TORCH_DROPOUT_PROBABILITY_OUT_OF_RANGE",
     "(got `10`)"),
    ("TypeError: Expected state_dict to be dict-like, got <class 'pathlib.PosixPath'>.",
     "TORCH_LOAD_STATE_DICT_NOT_A_MAPPING", "`<class 'pathlib.PosixPath'>`"),
    ("ValueError: persistent_workers option needs num_workers > 0", "TORCH_DATALOADER_OPTIONS_REJECTED",
     "`persistent_workers option needs num_workers > 0`"),
    ("ValueError: batch_size=None option disables auto-batching and is mutually exclusive with drop_last",
     "TORCH_DATALOADER_OPTIONS_REJECTED", "drop_last"),
    ("ValueError: timeout option should be non-negative", "TORCH_DATALOADER_OPTIONS_REJECTED", "timeout option"),
    ("ValueError: DataLoader with IterableDataset: expected unspecified sampler option, but got "
     "sampler=<torch.utils.data.sampler.RandomSampler object at 0x7f3a2c1b5d50>", "TORCH_DATALOADER_OPTIONS_REJECTED",
     "expected unspecified sampler option"),
    ("ValueError: Fraction at index 1 is not between 0 and 1", "TORCH_RANDOM_SPLIT_LENGTHS_INVALID",
     "`Fraction at index 1 is not between 0 and 1`"),
    ("[rank3]: ValueError: num_samples should be a positive integer value, but got num_samples=0",
     "TORCH_SAMPLER_NUM_SAMPLES_NOT_POSITIVE", "num_samples=0: the dataset it samples is empty"),
    ("RuntimeError: split_with_sizes expects split_sizes to sum exactly to 3072 (input tensor's size at dimension -1),"
     " but got split_sizes=[1024, 1024, 512]", "TORCH_SPLIT_SIZES_DO_NOT_SUM", "[1024, 1024, 512] that do not sum to"
     " the dimension's size 3072"),
    ("RuntimeError: Expected index [4, 3] to be no larger than self [4, 2] apart from dimension 1 and to be no larger "
     "size than src [4, 2]", "TORCH_GATHER_SCATTER_INDEX_SHAPE_INVALID", "`Expected index [4, 3]"),
    ("RuntimeError: 'lengths' argument should be a 1D CPU int64 tensor, but got 1D cuda:0 Long tensor",
     "TORCH_PACK_PADDED_LENGTHS_INVALID", "1D CPU int64 tensor"),
    ("RuntimeError: Padding length should be less than or equal to two times the input dimension but got padding "
     "length 6 and input of dimension 2", "TORCH_PAD_LENGTH_INVALID", "padding length 6"),
    ("TypeError: len() of a 0-d tensor", "TORCH_ZERO_DIM_TENSOR_ITERATED", "(`len() of a 0-d tensor`)"),
    ("RuntimeError: post accumulate grad hooks cannot be registered on non-leaf tensors",
     "TORCH_HOOK_ON_TENSOR_WITHOUT_GRAD", "gradient hook"),
    ("RuntimeError: weight tensor should be defined either for all 3 classes or no classes but got weight tensor of "
     "shape: [2, 3]", "TORCH_LOSS_CLASS_WEIGHT_SIZE_MISMATCH", "(shape [2, 3]) does not have one entry for each of the "
     "3 classes"),
    ("RuntimeError: output with shape [1, 224, 224] doesn't match the broadcast shape [3, 224, 224]",
     "TORCH_INPLACE_OUTPUT_SMALLER_THAN_BROADCAST", "shape [3, 224, 224] into a tensor of shape [1, 224, 224]"),
    ("RuntimeError: mat2 must be a matrix", "TORCH_MATMUL_OPERAND_RANK_INVALID", "`mat2 must be a matrix`"),
    ("RuntimeError: batch1 must be a 3D tensor", "TORCH_MATMUL_OPERAND_RANK_INVALID", "`batch1 must be a 3D tensor`"),
    ("RuntimeError: zero-dimensional tensor (at position 2) cannot be concatenated", "TORCH_CAT_ZERO_DIM_TENSOR",
     "at position 2"),
    ("RuntimeError: masked_select: expected BoolTensor for mask", "TORCH_MASK_NOT_BOOL", "`masked_select`"),
    ("RuntimeError: Mismatch in shape: grad_output[1] has a shape of torch.Size([8, 1]) and output[1] has a shape of "
     "torch.Size([8]).", "TORCH_BACKWARD_GRAD_SHAPE_MISMATCH", "(grad_output torch.Size([8, 1]) against output "
     "torch.Size([8]))"),
    ("RuntimeError: upper bound and larger bound inconsistent with step sign", "TORCH_ARANGE_STEP_SIGN_INCONSISTENT",
     "step whose sign"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # the clean runs' warnings (torch 2.13 CPU, /work/fi/torch_checks/25, 47, 48)
    "/work/fi/torch_checks/25_autocast_cuda_on_cpu.py:3: UserWarning: CUDA is not available or torch_xla is imported. "
    "Disabling autocast.",
    "/work/fi/venv_torch/lib/python3.11/site-packages/torch/nn/modules/rnn.py:1011: UserWarning: dropout option adds "
    "dropout after all but last recurrent layer, so non-zero dropout expects num_layers greater than 1, but got "
    "dropout=0.5 and num_layers=1",
    "/work/fi/torch_checks/48_softmax_implicit_dim.py:2: UserWarning: Implicit dimension choice for softmax has been "
    "deprecated. Change the call to include dim=X as an argument.",
    # ordinary lines that share the checks' words
    "LSTM(10, 20, num_layers=2, batch_first=True)",
    "h0 = torch.zeros(num_layers, batch, hidden_size)  # expected hidden size (2, 4, 20)",
    "BatchNorm2d(64, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)",
    "LayerNorm((768,), eps=1e-05, elementwise_affine=True)",
    "GroupNorm(32, 256, eps=1e-05, affine=True)",
    "MultiheadAttention(embed_dim=512, num_heads=8) with head_dim=64",
    "Dropout(p=0.1, inplace=False)",
    "DataLoader(dataset, batch_size=32, shuffle=False, sampler=DistributedSampler(dataset), num_workers=4)",
    "random_split(dataset, [0.9, 0.1]) -> 900 train / 100 val",
    "RandomSampler(num_samples=50000, replacement=False)",
    "q, k, v = qkv.split([1024, 1024, 1024], dim=-1)",
    "packed = pack_padded_sequence(x, lengths.cpu(), batch_first=True, enforce_sorted=False)",
    "x = F.pad(x, (1, 1, 1, 1), mode='reflect')",
    "scores = scores.masked_fill(mask == 0, float('-inf'))",
    "positions = torch.arange(0, seq_len, 1)",
    "[INFO] epoch 3 step 100 loss 0.6931",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS + EXTENDED) == []
