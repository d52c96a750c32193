"""data/kb/families_pt_tensor_ops.json: the tensor and operator errors PyTorch users paste every day, each written from
PyTorch's own message and checked on the line torch 2.13.0 printed under an injected fault (/work/fi/pt_tensor_ops):
shapes and ranks, dtypes of targets and indices, NumPy interop, autograd's in-place and backward checks, the
dispatcher's missing kernels, nn.functional's argument checks, random sampling, and the members this part added to
families_training.json's shape, dtype and meta-device entries. Each entry reads members its examples do not show, says
the member in its title, stays quiet on ordinary lines that share its words (the clean runs' warnings among them) and
on every clean excerpt of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_pt_tensor_ops")
# the entries of other parts this part extended (families_training.json)
EXTENDED = ["TORCH_TENSOR_SHAPE_MISMATCH", "TORCH_DTYPE_MISMATCH", "TORCH_META_TENSOR_NO_DATA"]
FAMILY = IDS + EXTENDED + ["TORCH_TENSORS_JOINED_UNEQUAL_SIZE", "TORCH_LOSS_TARGET_OUT_OF_RANGE",
                           "TORCH_LOSS_TARGET_SHAPE_INVALID", "PT_TENSORS_DIFFERENT_DEVICES", "PT_INPLACE_GRAD_MODIFIED",
                           "EMBEDDING_INDEX_OUT_OF_RANGE", "SAMPLING_PROBABILITIES_INVALID",
                           # families_pt_train_loop's entries for the same faults (one entry each, merged in round 13)
                           "TORCH_LOSS_TARGET_DTYPE_INVALID", "TORCH_RESULT_TYPE_CANNOT_CAST_TO_OUTPUT",
                           "TORCH_BCE_VALUES_NOT_IN_0_1", "TORCH_BACKWARD_ON_NON_SCALAR",
                           "TORCH_LEAF_TENSOR_INPLACE_WITH_GRAD", "TORCH_NUMPY_ON_TENSOR_REQUIRING_GRAD"]
# the class entries that named some of these lines before this part (each must give way to the specific entry)
RIVALS = FAMILY + ["OP_DTYPE_NOT_SUPPORTED", "TRAINING_FEATURES_NOT_COMBINABLE", "FRAMEWORK_SETTING_NOT_SUPPORTED",
                   "LLM_STACK_CONFIG_VALUE_REJECTED", "PY_SCRIPT_EXCEPTION", "TORCH_NPU_CPU_FALLBACK_DISABLED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) == 34 and len(set(IDS)) == 34  # (7 folded into other parts' entries for the same faults at the merge)
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_pt_tensor_ops.json" and sig.kind == "root"
        assert not sig.ascend_fd and not sig.fallback, sid
        assert sig.severity == ("warn" if sid == "TORCH_NUMPY_ARRAY_NOT_WRITABLE" else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # view on a non-contiguous tensor, in the short form of older releases
    ("RuntimeError: view size is not compatible with input tensor's size and stride (at least one dimension spans "
     "across two contiguous subspaces). Call .contiguous() before .view().", "TORCH_VIEW_ON_NON_CONTIGUOUS_TENSOR",
     "non-contiguous tensor"),
    # convolution channels: groups > 1 and RGBA images
    ("RuntimeError: Given groups=2, weight of size [64, 16, 3, 3], expected input[8, 64, 28, 28] to have 32 channels, "
     "but got 64 channels instead", "TORCH_CONV_INPUT_CHANNELS_MISMATCH", "64 channels where its weight expects 32"),
    # layer ranks: conv1d, batchnorm1d, LSTM, pooling with its shape
    ("RuntimeError: Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [8, 1, 3, 100]",
     "TORCH_LAYER_INPUT_RANK_INVALID", "(`conv1d`) got an input with the wrong number of dimensions (expected 2D"),
    ("ValueError: expected 2D or 3D input (got 4D input)", "TORCH_LAYER_INPUT_RANK_INVALID",
     "(expected 2D or 3D, got 4D)"),
    ("RuntimeError: input must have 3 dimensions, got 2", "TORCH_LAYER_INPUT_RANK_INVALID", "(expected 3, got 2)"),
    ("RuntimeError: non-empty 3D or 4D (batch mode) tensor expected for input, but got: [1, 0, 4]",
     "TORCH_LAYER_INPUT_RANK_INVALID", "got [1, 0, 4]"),
    # kernel larger than the input: 1-D pooling
    ("RuntimeError: Given input size: (64x1x2). Calculated output size: (64x0x1). Output size is too small",
     "TORCH_LAYER_INPUT_SMALLER_THAN_KERNEL", "(input 64x1x2, output would be 64x0x1)"),
    # loss targets: uint8 is allowed, Short and the CUDA kernel form are not
    ("RuntimeError: expected target dtype to be Long or Byte, but got Short", "TORCH_LOSS_TARGET_DTYPE_INVALID",
     "dtype (`Short`)"),
    ("RuntimeError: \"nll_loss_forward_reduce_cuda_kernel_2d_index\" not implemented for 'Float'",
     "TORCH_LOSS_TARGET_DTYPE_INVALID", "dtype (`Float`)"),
    # bool `-`: the one-bool-operand form
    ("RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a "
     "mask, use the `~` or `logical_not()` operator instead.", "TORCH_BOOL_TENSOR_MINUS_OPERATOR", "`Subtraction`"),
    ("RuntimeError: result type Double can't be cast to the desired output type Int",
     "TORCH_RESULT_TYPE_CANNOT_CAST_TO_OUTPUT", "Double result cannot be written into a Int tensor"),
    ("[rank3]: RuntimeError: index -1 is out of bounds for dimension 1 with size 32000",
     "TORCH_INDEX_OUT_OF_BOUNDS_FOR_DIMENSION", "Index -1 is out of bounds for dimension 1 of size 32000"),
    ("IndexError: The shape of the mask [16] at index 0 does not match the shape of the indexed tensor [15, 4] at "
     "index 0", "TORCH_BOOLEAN_MASK_SHAPE_MISMATCH", "of shape [16] does not fit the indexed tensor of shape [15, 4]"),
    ("IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)",
     "TORCH_DIM_ARGUMENT_OUT_OF_RANGE", "(1) is out of range for the tensor's number of dimensions (allowed [-1, 0])"),
    ("IndexError: dimension specified as 0 but tensor has no dimensions", "TORCH_DIM_ARGUMENT_OUT_OF_RANGE",
     "A dim argument (0)"),
    ("IndexError: too many indices for tensor of dimension 0", "TORCH_TOO_MANY_INDICES_FOR_TENSOR",
     "more indices than its 0 dimension(s)"),
    ("TypeError: can't convert xpu:1 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory "
     "first.", "TORCH_NUMPY_ON_DEVICE_TENSOR", "on `xpu:1`"),
    ("RuntimeError: Class values must be non-negative.", "TORCH_ONE_HOT_CLASS_OUT_OF_RANGE", "non-negative"),
    ("RuntimeError: Argument #6: Padding size should be less than the corresponding input dimension, but got: "
     "padding (2, 2) at dimension 3 of input [1, 3, 2, 2]", "TORCH_PAD_NOT_SMALLER_THAN_INPUT",
     "(2, 2) is not smaller than the input dimension it pads (dimension 3 of input [1, 3, 2, 2])"),
    ("ValueError: only one of size or scale_factor should be defined", "TORCH_INTERPOLATE_ARGUMENTS_REJECTED",
     ": only one of size or scale_factor should be defined"),
    ("NotImplementedError: Input Error: Only 3D, 4D and 5D input Tensors supported (got 2D) for the modes: nearest | "
     "linear | bilinear | bicubic | trilinear | area | nearest-exact (got nearest)",
     "TORCH_INTERPOLATE_ARGUMENTS_REJECTED", ": Input Error: Only 3D, 4D and 5D input Tensors supported (got 2D)"),
    ("RuntimeError: einsum(): more operands were provided than specified in the equation",
     "TORCH_EINSUM_EQUATION_DOES_NOT_FIT", ": more operands were provided"),
    ("RuntimeError: random_ expects 'from' to be less than 'to', but got from=0 >= to=0", "TORCH_RANDOM_RANGE_EMPTY",
     "low 0 is not less than high 0"),
    ("NotImplementedError: Could not run 'aten::add.out' with arguments from the 'QuantizedCPU' backend. This could "
     "be because the operator doesn't exist for this backend", "TORCH_OP_NO_KERNEL_FOR_BACKEND",
     "`aten::add.out` has no kernel for the `QuantizedCPU` backend"),
    ("RuntimeError: unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
     "single memory location. Please clone() the tensor before performing the operation.",
     "TORCH_INPLACE_WRITE_TO_OVERLAPPING_MEMORY", "share memory"),
    ("RuntimeError: Boolean value of Tensor with no values is ambiguous", "TORCH_MULTI_ELEMENT_TENSOR_AS_SCALAR",
     "where one value is needed"),
    ("RuntimeError: a Tensor with 0 elements cannot be converted to Scalar", "TORCH_MULTI_ELEMENT_TENSOR_AS_SCALAR",
     "with 0 element(s)"),
    ("RuntimeError: stack expects a non-empty TensorList", "TORCH_CAT_EMPTY_TENSOR_LIST", "`stack` got an empty list"),
    ("ValueError: Expected more than 1 value per channel when training, got input size torch.Size([1, 256, 1, 1])",
     "TORCH_BATCHNORM_SINGLE_VALUE_PER_CHANNEL", "(input size torch.Size([1, 256, 1, 1]))"),
    ("RuntimeError: Expected tensor for argument #1 'indices' to have scalar type Long; but got torch.cuda.FloatTensor "
     "instead (while checking arguments for embedding)", "TORCH_INDEX_TENSOR_NOT_INTEGER",
     "(torch.cuda.FloatTensor), in `embedding`"),
    ("RuntimeError: all elements of target should be between 0 and 1", "TORCH_BCE_VALUES_NOT_IN_0_1",
     "got target values outside [0, 1]"),
    ("RuntimeError: invalid multinomial distribution (encountering probability entry < 0)",
     "TORCH_MULTINOMIAL_ARGUMENTS_INVALID", ": invalid multinomial distribution (encountering probability entry < 0)"),
    ("RuntimeError: prob_dist must be 1 or 2 dim", "TORCH_MULTINOMIAL_ARGUMENTS_INVALID", ": prob_dist must be 1 or 2"),
    ("TypeError: default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found <class "
     "'NoneType'>", "TORCH_DEFAULT_COLLATE_TYPE_UNSUPPORTED", "`<class 'NoneType'>`"),
    ("RuntimeError: Output 1 of SplitBackward0 is a view and is being modified inplace. This view is the output of a "
     "function that returns multiple views. Such functions do not allow the output views to be modified inplace.",
     "TORCH_MULTI_OUTPUT_VIEW_MODIFIED_IN_PLACE", "returned by `SplitBackward0`"),
    ("TypeError: new(): invalid data type 'str'", "TORCH_TENSOR_FROM_NON_NUMERIC_DATA", ": new(): invalid data type"),
    ("RuntimeError: Could not infer dtype of dict", "TORCH_TENSOR_FROM_NON_NUMERIC_DATA", "Could not infer dtype of dict"),
    ("TypeError: only integer tensors of a single element can be converted to an index",
     "TORCH_INDEX_TENSOR_NOT_INTEGER", "not an integer tensor"),
    ("RuntimeError: number of dims don't match in permute", "TORCH_DIMS_ARGUMENT_DOES_NOT_MATCH_RANK", "`permute`"),
    ("RuntimeError: expand(torch.cuda.FloatTensor{[16, 1, 128]}, size=[16, 128]): the number of sizes provided (2) "
     "must be greater or equal to the number of dimensions in the tensor (3)", "TORCH_DIMS_ARGUMENT_DOES_NOT_MATCH_RANK",
     "(tensor 3, given 2)"),
    ("torch.linalg.LinAlgError: linalg.solve: The solver failed because the input matrix is singular.",
     "TORCH_LINALG_MATRIX_SINGULAR_OR_NOT_PD", "`linalg.solve` failed on its matrix"),
    ("RuntimeError: empty: Dimension size must be non-negative.", "TORCH_TENSOR_SIZE_NEGATIVE", "(`empty`)"),
    ("RuntimeError: std(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
     "Got: Int", "TORCH_REDUCTION_NEEDS_FLOATING_DTYPE", "`std` was called on an integer tensor (Int)"),
    # the members added to families_training.json's entries
    ("RuntimeError: inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but "
     "got 3 and 4 elements respectively", "TORCH_TENSOR_SHAPE_MISMATCH", "([3] against [4])"),
    # (an RNN's input_size has its own entry since round 15: TORCH_RNN_INPUT_SIZE_MISMATCH)
    ("RuntimeError: input.size(-1) must be equal to input_size. Expected 10, got 6", "TORCH_RNN_INPUT_SIZE_MISMATCH",
     "input_size `10` got inputs of `6` features"),
    ("ValueError: RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: "
     "input.to(torch.float32), or convert model: model.to(torch.float64)", "TORCH_DTYPE_MISMATCH",
     "(torch.float64 and torch.float32)"),
    ("TypeError: can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory "
     "first.", "TORCH_META_TENSOR_NO_DATA", "meta device"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=RIVALS)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # the clean runs' own lines and warnings (c01_clean_train.py, c02_clean_numpy.py, 70_/71_ warnings)
    "step 4 loss 1.2043 grad_norm 3.117",
    "shape check ok: input (16, 3, 8, 8) index out of range checks passed, dtype torch.float32",
    "/work/fi/pt_tensor_ops/c02_clean_numpy.py:12: UserWarning: Implicit dimension choice for softmax has been "
    "deprecated. Change the call to include dim=X as an argument.",
    "/work/fi/pt_tensor_ops/71_new_tensor_warn.py:3: UserWarning: To copy construct from a tensor, it is recommended "
    "to use sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
    "torch.tensor(sourceTensor).",
    "torch.Size([12]) float64",
    # ordinary lines that share the entries' words
    "    x = x.contiguous().view(-1)  # view size must be compatible with the stride",
    "Conv2d(3, 16, kernel_size=(3, 3), stride=(1, 1)) expects input with 3 channels",
    "Expected input shape: (N, C, H, W) or (C, H, W)",
    "IndexError: index 5 is out of bounds for axis 0 with size 3",
    "IndexError: too many indices for array: array is 1-dimensional, but 2 were indexed",
    "preds = logits.detach().cpu().numpy()  # can't call numpy() on a tensor in the graph",
    "NotImplementedError: Could not run 'aten::add' with arguments from the 'PrivateUse1' backend.",
    "# not `if mask:` -- Boolean value of Tensor with more than one value is ambiguous",
    "ZeroDivisionError: division by zero",
    "out = torch.einsum('bhqd,bhkd->bhqk', q, k)",
    "torch.randint(0, 10, (4,)) -> tensor([3, 7, 0, 9])",
    "padding_idx (int, optional): If specified, the entries at padding_idx do not contribute to the gradient",
    "sum of probabilities: 1.0",
    "BatchNorm1d(10, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)",
    "ema_model = copy.deepcopy(model)  # graph leaves support the deepcopy protocol",
    "labels = torch.tensor(label_ids)  # not strings: too many dimensions",
    "torch.linalg.cholesky(A)  # A must be positive-definite",
    "acc = (pred == y).float().mean()  # mean() needs a floating point dtype",
    "x.permute(0, 2, 3, 1)  # the desired ordering of dimensions",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
