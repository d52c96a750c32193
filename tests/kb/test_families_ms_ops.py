"""data/kb/families_ms_ops.json: MindSpore's operators and tensor API, written by fault injection (round 12): typical
user faults run with mindspore 2.10.0 on the CPU in PyNative and graph mode (a float32 x int32 matmul, a Dense or Conv2d
built for another input, an axis or an embedding id out of range, concat/stack/reshape shapes, Tensor from bad data,
optimizer and grad arguments, a lambda graph mode cannot parse). Each entry reads members its examples do not show,
says the member in its title, wins over the class entry MS_OP_ARGUMENT_CHECK_FAILED on its lines, stays quiet on
ordinary lines of the same runs and on every clean excerpt of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_ms_ops")
EXTENDED = ["TRAIN_NAN_DETECTED_STOPPED", "MS_OP_CALL_INVALID_ARGS", "MS_PRIMITIVE_VALUE_CHECK"]
FAMILY = IDS + ["MS_OP_ARGUMENT_CHECK_FAILED", "MS_PRIMITIVE_VALUE_CHECK", "MS_PRIMITIVE_INPUTS_NOT_SAME_TENSOR_TYPE",
                "MS_KERNEL_SELECT_FAILED", "MS_OP_UNSUPPORTED_DTYPE"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) == 15 and "MS_OP_INPUT_DTYPES_DIFFER" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_ms_ops.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback and sig.severity == "fail", sid
    assert kb.signature("MS_PRIMITIVE_VALUE_CHECK").fallback


@pytest.mark.parametrize("line, sig_id, said", [
    # the earlier miss: a float32 x int32 matmul is a dtype mismatch, not only an argument check
    ("TypeError: For 'BatchMatMulExt', the type of 'x2' should be same as 'x1', but got 'x1' with type "
     "Tensor[Float16] and 'x2' with type Tensor[Float32].", "MS_OP_INPUT_DTYPES_DIFFER",
     "`BatchMatMulExt`: the type of 'x2' should be same as 'x1'"),
    ("TypeError: For primitive[Dense], the input type must be same.", "MS_OP_INPUT_DTYPES_DIFFER", "`Dense`"),
    ("TypeError: For primitive[Log], the input argument[x] must be a type of {Tensor[Float16], Tensor[Float32]}, "
     "but got Tensor[Int64].", "MS_OP_INPUT_DTYPE_NOT_ACCEPTED", "`Log` does not take the data type given for input `x`"),
    ("TypeError: For 'NLLLoss', the 'target' should be one of [mindspore.int32, mindspore.int64], but got "
     "'mindspore.float32'.", "MS_OP_INPUT_DTYPE_NOT_ACCEPTED", "(mindspore.float32)"),
    ("ValueError: For 'BatchMatMul', the input dimensions must be equal, but got 'x1_col': 64 and 'x2_row': 128.",
     "MS_MATMUL_INNER_DIM_MISMATCH", "(64 vs 128)"),
    ("ValueError: For 'Softmax', the axis must be in range [-2, 2), but got 2.", "MS_OP_AXIS_OUT_OF_RANGE",
     "`Softmax` was given an axis outside the input's dimensions (axis 2"),
    ("IndexError: index -5 is out of bounds for dimension with size 4", "MS_INDEX_OUT_OF_RANGE", "(index -5, size 4)"),
    ("RuntimeError: For 'Gather', the 'input_indices' should be in the range [0, 32000), but got 32001, "
     "error_code[58]", "MS_INDEX_OUT_OF_RANGE", "(index 32001, size 32000)"),
    ("ValueError: For 'Concat', shapes of tensors must match except in given concat axis 1, but got mismatch in 0",
     "MS_CONCAT_STACK_SHAPE_MISMATCH", "`Concat`"),
    ("ValueError: proposed_shape '[const vector]{-1, 7}' is invalid for input of size 30", "MS_RESHAPE_SIZE_MISMATCH",
     "the input has 30 elements"),
    ("RuntimeError: For 'Conv2D', 'C_in' of input 'x' shape divide by parameter 'group' must be equal to 'C_in' of "
     "input 'weight' shape: 64, but got 'C_in' of input 'x' shape: 32, and 'group': 1.", "MS_LAYER_CHANNEL_MISMATCH",
     "(layer built for 64, input has 32)"),
    ("ValueError: For primitive[MaxPool], the x shape size must be equal to 4, but got 2.", "MS_OP_INPUT_RANK_WRONG",
     "(needs 4, got 2)"),
    ("ValueError: For 'AvgPool', the each element of the output shape must be larger than 0, but got output shape: "
     "[const vector]{1, 3, 0, 0}.", "MS_POOL_CONV_WINDOW_LARGER_THAN_INPUT", "`AvgPool`"),
    ("ValueError: For 'Adam', the 'learning_rate' must be float and must >= 0, but got '-1' with type 'int'.",
     "MS_OPTIMIZER_ARGUMENT_INVALID", "`Adam` rejected its `learning_rate` (got -1)"),
    ("RuntimeError: When has_aux is True, origin fn requires more than one outputs.", "MS_GRAD_API_MISUSE",
     "has_aux is True"),
    ("RuntimeError: Parse Lambda Function Fail. Node type must be Lambda, but got Tuple.",
     "MS_GRAPH_LAMBDA_NOT_ON_OWN_LINE", "lambda"),
    ("ValueError: For 'Adam', the 'beta1' must be float and must in range (0.0, 1.0), but got '1.2'.",
     "MS_OPTIMIZER_ARGUMENT_INVALID", "`Adam` rejected its `beta1` (got 1.2)"),
    # a layer's momentum is not an optimizer's: the Validator's class of API arguments
    ("ValueError: For 'BatchNorm2d', the 'momentum' must be float and must in range [0, 1], but got '1.5'.",
     "MS_API_ARGUMENT_VALUE_INVALID", "`BatchNorm2d` was given a value it does not take for its argument `momentum`"),
    ("TypeError: For 'Conv2d', the 'kernel_size' must be int, but got 'float'", "MS_API_ARGUMENT_VALUE_INVALID",
     "(got float)"),
    # a class label not below the number of classes, through CrossEntropyLoss's GatherD
    ("RuntimeError: For 'GatherD', the value of 'index' must be in [-10, 10), but got: 12", "MS_INDEX_OUT_OF_RANGE",
     "(index 12, size 10)"),
    ("TypeError: For 'Dense', the 'has_bias' must be a bool, but got str.", "MS_API_ARGUMENT_VALUE_INVALID",
     "its argument `has_bias` (got str)"),
    ("ValueError: The amp level O4 is not supported", "MS_API_ARGUMENT_VALUE_INVALID", "`amp level` (got O4)"),
    ("ValueError: The argument 'loss_scale' must be >= 1, but got 0", "MS_OPTIMIZER_ARGUMENT_INVALID",
     "`loss_scale` (got 0)"),
    ("TypeError: For Tensor, the input_data is [1, None] that contain unsupported element.",
     "MS_TENSOR_INIT_DATA_INVALID", ": [1, None]"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("ValueError: In epoch: 1 step: 2, loss is NAN or INF, training process cannot continue, terminating training.",
     "TRAIN_NAN_DETECTED_STOPPED", "(loss is NAN or INF)"),
    ("TypeError: Failed calling OnesLike with \"OnesLike()(x=<class 'numpy.ndarray'>)\".", "MS_OP_CALL_INVALID_ARGS",
     "`OnesLike` was called with arguments"),
    # the validator's form without "For '...'" (amp.build_train_network's level), mended after heldout20 was measured
    ("ValueError: The 'level' should be in : ['O0', 'O1', 'O2', 'O3', 'auto'], but got O4.",
     "MS_API_ARGUMENT_VALUE_INVALID", "its argument `level` (got O4)"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # ordinary lines of the same runs (PyNative and graph mode on the CPU)
    "[WARNING] COMMON(302,7fd0f0cb5b80,python):2026-12-05-22:38:49.823.357 [mindspore/ccsrc/utils/comm_manager.cc:82] "
    "GetInstance] CommManager instance for CPU not found, return default instance.",
    "[WARNING] COMMON(1749,7f3718a0ab80,python):2026-12-05-22:40:04.905.122 [mindspore/ccsrc/pybind_api/pynative/"
    "tensor/tensor_py_reg.cc:2146] TensorPy_pydealloc] The tensor has not complete initialization and no need to "
    "execute destructor.",
    "epoch: 1 step: 1, loss is 3.507802512517025e+19",
    "mindspore/ops/infer/ops_func_impl//matmul_ext.cc:192 InferType",
    "- C++ Call Stack: (For framework developers)",
    " (See file '/work/fi/ms_ops/s/rank_0/om/analyze_fail.ir' for more details. Get instructions about "
    "`analyze_fail.ir` at https://www.mindspore.cn/search?inputValue=analyze_fail.ir)",
    "fn = lambda a: a.reshape(4, 4)",
    "    raise ValueError(\"When has_aux is True, origin fn requires more than one outputs.\")",
    "TypeError: Failed calling Add.",
    "RuntimeError: For 'init', the argument 'backend_name' should be 'nccl' to init 'GPU', but got 'hccl'.",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS) == []
