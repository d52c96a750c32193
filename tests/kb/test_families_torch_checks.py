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
# the entries of other parts this part extends (the RNN/LSTM/GRU input-rank check, torch.load's 'not a ZIP archive',
# repeat's dims, torch 2.13's form of the store's listen failure)
EXTENDED = ["TORCH_LAYER_INPUT_RANK_INVALID", "CHECKPOINT_FILE_UNREADABLE", "TORCH_DIMS_ARGUMENT_DOES_NOT_MATCH_RANK",
            "TORCH_DIST_STORE_LISTEN_FAILED"]
# the generic class entries these lines were read by before: each line is now one specific problem
FAMILY = IDS + EXTENDED + ["SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT", "LLM_STACK_CONFIG_VALUE_REJECTED",
                           "PY_ASSERTION_FAILED", "PY_SCRIPT_EXCEPTION", "TORCH_TENSOR_SHAPE_MISMATCH",
                           "TORCH_RNN_INPUT_SIZE_MISMATCH", "TORCH_TENSORS_JOINED_UNEQUAL_SIZE",
                           "TORCH_INDEX_TENSOR_NOT_INTEGER", "FRAMEWORK_SETTING_NOT_SUPPORTED"]


# warnings: the run goes on, without what the configuration asked for
WARNINGS = {"TORCH_AMP_DISABLED_CUDA_NOT_AVAILABLE", "TORCH_RNN_DROPOUT_SINGLE_LAYER"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) >= 25
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_torch_checks.json" and not sig.ascend_fd, sid
        assert sig.kind == "root" and not sig.fallback, sid
        assert sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


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
    # the second batch: inference tensors, AMP without CUDA, the argument parser, distributions, topk, empty
    # reductions, stft, reduction names, DistributedSampler, pooling padding, negative powers, DDP, RNN dropout, timeouts
    ("RuntimeError: Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get "
     "a normal tensor before doing inplace update.", "TORCH_INFERENCE_TENSOR_USED_IN_AUTOGRAD",
     ": Inplace update to inference tensor"),
    ("UserWarning: User provided device_type of 'cuda', but CUDA is not available. Disabling",
     "TORCH_AMP_DISABLED_CUDA_NOT_AVAILABLE", "Mixed precision was turned off"),
    ("TypeError: empty() received an invalid combination of arguments - got (tuple, dtype=NoneType, device=NoneType), "
     "but expected one of:", "TORCH_FUNCTION_ARGUMENT_TYPES_INVALID",
     "`empty()` was called with arguments of types it does not take: got (tuple, dtype=NoneType, device=NoneType)"),
    ("TypeError: cross_entropy_loss(): argument 'input' (position 1) must be Tensor, not list",
     "TORCH_FUNCTION_ARGUMENT_TYPES_INVALID", "(argument `input`: expects Tensor, got list)"),
    ("ValueError: Expected parameter loc (Tensor of shape (64, 2)) of distribution Normal(loc: torch.Size([64, 2]), "
     "scale: torch.Size([64, 2])) to satisfy the constraint Real(), but found invalid values:",
     "TORCH_DISTRIBUTION_PARAMETER_CONSTRAINT_VIOLATED", "torch.distributions.Normal got a `loc` outside its "
     "constraint (Real())"),
    ("RuntimeError: cannot perform reduction function argmax on a tensor with no elements because the operation does "
     "not have an identity", "TORCH_REDUCTION_ON_EMPTY_TENSOR", "`argmax` was applied"),
    ("RuntimeError: min(): Expected reduction dim 1 to have non-zero size.", "TORCH_REDUCTION_ON_EMPTY_TENSOR",
     "`min` was applied"),
    ("ValueError: elementwise_mean is not a valid value for reduction", "TORCH_LOSS_REDUCTION_INVALID",
     "reduction=`elementwise_mean`"),
    ("ValueError: Invalid rank 8, rank should be in the interval [0, 7]", "TORCH_DISTRIBUTED_SAMPLER_RANK_INVALID",
     "rank 8 outside [0, num_replicas - 1] (allowed up to 7)"),
    ("RuntimeError: pad should be smaller than or equal to half of kernel size, but got padW = 2, padH = 2, kW = 3, "
     "kH = 3 at /pytorch/aten/src/THNN/generic/SpatialMaxPooling.c:35", "TORCH_POOL_PADDING_TOO_LARGE",
     "(pad=2, kernel_size=3)"),
    ("[rank1]: RuntimeError: Modules with uninitialized parameters can't be used with `DistributedDataParallel`. Run a "
     "dummy forward pass to correctly initialize the modules", "TORCH_DDP_MODULE_NOT_TRAINABLE",
     "Modules with uninitialized parameters"),
    ("UserWarning: dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
     "num_layers greater than 1, but got dropout=0.2 and num_layers=1", "TORCH_RNN_DROPOUT_SINGLE_LAYER",
     "dropout=0.2 but num_layers=1"),
    ("RuntimeError: DataLoader timed out after 600 seconds", "TORCH_DATALOADER_TIMED_OUT", "timeout (600 s)"),
    # members extended in other parts: a file that is no zip, repeat with fewer dims, torch 2.13's listen failure
    ("RuntimeError: PytorchStreamReader failed reading zip archive: not a ZIP archive", "CHECKPOINT_FILE_UNREADABLE",
     "found no zip central directory"),
    ("RuntimeError: Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor",
     "TORCH_DIMS_ARGUMENT_DOES_NOT_MATCH_RANK", "`repeat`"),
    ("torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. port: "
     "29500, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use",
     "TORCH_DIST_STORE_LISTEN_FAILED", "(port 29500) (address already in use)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # the clean runs' warnings (torch 2.13 CPU, /work/fi/torch_checks/25, 47, 48)
    # (its runs 25 and 47 warn of a real misconfiguration and are named as warnings: see the examples)
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
    "with torch.inference_mode(): preds = model(x)",
    "scaler = torch.amp.GradScaler('npu', enabled=True)",
    "dist = Categorical(logits=logits)  # probs satisfy the constraint Simplex()",
    "top-5 accuracy: 91.2% (k=5)",
    "spec = torch.stft(x, n_fft=512, return_complex=True)",
    "DistributedSampler(num_replicas=8, rank=3)",
    "DataLoader(dataset, num_workers=8, timeout=120)",
    "LSTM(10, 20, num_layers=2, dropout=0.5)",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS + EXTENDED) == []
