"""data/kb/families_mend_r23_gpu.json: round 23's mends for the GPU stack: PyTorch's select()/index_select() index
checks, pybind11's `Unregistered type`, `Unable to convert function return value` and `incompatible function
arguments` TypeErrors, unittest's comparison and assertAlmostEqual failures, torch.testing's and numpy.testing's
tolerance checks, and pip's `(from versions: none)`. Widened elsewhere: TORCH_DIMS_ARGUMENT_DOES_NOT_MATCH_RANK reads
expand's TH (PyTorch 0.2/0.3) and functorch wordings, TORCH_TENSOR_SHAPE_MISMATCH view's TH wording, and
PIP_REQUIREMENT_NOT_AVAILABLE pip's `final version` wording and says the versions pip found. Each entry reads members
its examples do not show, says the member in its title, stays quiet on ordinary lines and on every clean corpus
excerpt."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_mend_r23_gpu")
EXTENDED = ["TORCH_DIMS_ARGUMENT_DOES_NOT_MATCH_RANK", "TORCH_TENSOR_SHAPE_MISMATCH", "PIP_REQUIREMENT_NOT_AVAILABLE",
            "PT_TENSORS_DIFFERENT_DEVICES", "TORCH_LOSS_TARGET_OUT_OF_RANGE"]
FAMILY = IDS + EXTENDED + ["TORCH_INDEX_OUT_OF_BOUNDS_FOR_DIMENSION", "TORCH_DIM_ARGUMENT_OUT_OF_RANGE",
                           "PY_ASSERTION_FAILED", "PIP_NO_MATCHING_DISTRIBUTION", "PIP_REQUIRES_DIFFERENT_PYTHON",
                           "EMBEDDING_INDEX_OUT_OF_RANGE", "TORCH_ZERO_DIM_TENSOR_ITERATED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) >= 8 and "TORCH_SELECT_INDEX_OUT_OF_RANGE" in IDS and "PYBIND11_UNREGISTERED_TYPE" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mend_r23_gpu.json" and not sig.ascend_fd
        assert sig.kind == "root", sid
        assert not sig.fallback and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    ("IndexError: select(): index 3 out of range for tensor of size [3] at dimension 0", "TORCH_SELECT_INDEX_OUT_OF_RANGE",
     "`select()`: index 3 is out of range for dimension 0 of a tensor of size [3]"),
    ("[rank5]: IndexError: select(): index -9 out of range for tensor of size [2, 8, 128] at dimension 1",
     "TORCH_SELECT_INDEX_OUT_OF_RANGE", "index -9 is out of range for dimension 1 of a tensor of size [2, 8, 128]"),
    ("IndexError: index_select(): index contains 40 that is out of range for tensor of size [32, 4] at dimension 0",
     "TORCH_SELECT_INDEX_OUT_OF_RANGE", "`index_select()`: index 40"),
    ("IndexError: select(): index 2 out of range for tensor of size [2, 5] at dimension N",
     "TORCH_SELECT_INDEX_OUT_OF_RANGE", "for dimension N of a tensor of size [2, 5]"),
    ("RuntimeError: invalid argument 1: the number of sizes provided must be greater or equal to the number of "
     "dimensions in the tensor at /pytorch/torch/lib/TH/generic/THTensor.c:309", "TORCH_DIMS_ARGUMENT_DOES_NOT_MATCH_RANK",
     "the number of sizes provided must be at least the number of dimensions in the tensor"),
    ("RuntimeError: expand(torch.cuda.HalfTensor{[4, 1, 64]}, size=[4, 64]): the number of sizes provided (2) must be "
     "greater or equal to the number of dimensions in the tensor (3)", "TORCH_DIMS_ARGUMENT_DOES_NOT_MATCH_RANK",
     "`expand` was given another number of dimensions than the tensor has (tensor 3, given 2): the number of sizes"),
    ("RuntimeError: expand: the number of sizes provided (2) must be greater or equal to the number of dimensions in "
     "the tensor (4)", "TORCH_DIMS_ARGUMENT_DOES_NOT_MATCH_RANK", "(tensor 4, given 2)"),
    ("RuntimeError: invalid argument 2: size '[64 x -1 x 28]' is invalid for input with 1000 elements at "
     "/pytorch/aten/src/TH/THStorage.cpp:84", "TORCH_TENSOR_SHAPE_MISMATCH", "([64 x -1 x 28] against 1000)"),
    ("IndexError: invalid index of a 0-dim tensor. Use tensor.item() to convert a 0-dim tensor to a Python number",
     "TORCH_INDEX_INTO_0DIM_TENSOR", "invalid index of a 0-dim (scalar) tensor"),
    ("*** IndexError: invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to "
     "convert a 0-dim tensor to a number", "TORCH_INDEX_INTO_0DIM_TENSOR", "read it with `.item()`"),
    ("RuntimeError: narrow() cannot be applied to a 0-dim tensor.", "TORCH_INDEX_INTO_0DIM_TENSOR",
     "narrow() cannot be applied to a 0-dim (scalar) tensor"),
    ("RuntimeError: Unable to cast Python instance of type <class 'numpy.ndarray'> to C++ type 'Eigen::Matrix<double, 3, 1, 0, 3, 1>'",
     "PYBIND11_PYTHON_TO_CPP_CAST_FAILED",
     "of type <class 'numpy.ndarray'> to the C++ type it needs (`Eigen::Matrix<double, 3, 1, 0, 3, 1>`)"),
    ("ValueError: Unable to cast Python instance to C++ type (compile in debug mode for details)",
     "PYBIND11_PYTHON_TO_CPP_CAST_FAILED", "could not convert a Python object to the C++ type it needs"),
    ("RuntimeError: Unable to cast Python instance of type <class 'float'> to C++ type '?' (#define "
     "PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug mode for details)", "PYBIND11_PYTHON_TO_CPP_CAST_FAILED",
     "of type <class 'float'> to the C++ type it needs (pybind11's"),
    ("RuntimeError: size mismatch, m1: [8 x 2048], m2: [512 x 10] at /pytorch/aten/src/THC/generic/THCTensorMathBlas.cu:249",
     "TORCH_TENSOR_SHAPE_MISMATCH", "([8 x 2048] against [512 x 10])"),
    ("RuntimeError: Expected object of backend CPU but got backend CUDA for argument #3 'index'",
     "PT_TENSORS_DIFFERENT_DEVICES", "Operator inputs on different devices (CPU and CUDA)"),
    ("RuntimeError: Assertion `cur_target >= 0 && cur_target < n_classes' failed.  at /pytorch/aten/src/THNN/generic/"
     "SpatialClassNLLCriterion.c:110", "TORCH_LOSS_TARGET_OUT_OF_RANGE", "A class label (the target) is outside the classes"),
    ("TypeError: Unregistered type : std::optional<at::Tensor>", "PYBIND11_UNREGISTERED_TYPE",
     "C++ type `std::optional<at::Tensor>`"),
    ("  TypeError: Unregistered type : mylib::Detector::Result", "PYBIND11_UNREGISTERED_TYPE",
     "`mylib::Detector::Result`"),
    ("TypeError: Unable to convert function return value to a Python type! The signature was",
     "PYBIND11_RETURN_VALUE_NOT_CONVERTIBLE", "return value could not be converted to a Python type"),
    ("TypeError: run(): incompatible function arguments. The following argument types are supported:",
     "PYBIND11_INCOMPATIBLE_FUNCTION_ARGUMENTS", "`run()` was called with arguments its C++ binding does not accept"),
    ("TypeError: Session.__init__(): incompatible constructor arguments. The following argument types are supported:",
     "PYBIND11_INCOMPATIBLE_FUNCTION_ARGUMENTS", "`Session.__init__()`"),
    ("AssertionError: 0.0031 not less than 0.001", "UNITTEST_ASSERT_COMPARISON_FAILED",
     "`0.0031` not less than `0.001`"),
    ("AssertionError: 12 not greater than or equal to 16 : too few devices", "UNITTEST_ASSERT_COMPARISON_FAILED",
     "`12` not greater than or equal to `16`"),
    ("AssertionError: tensor(0.0420) not less than or equal to 0.01", "UNITTEST_ASSERT_COMPARISON_FAILED",
     "`tensor(0.0420)` not less than or equal to `0.01`"),
    ("AssertionError: 0.73 != 0.75 within 2 places (0.020000000000000018 difference)",
     "UNITTEST_ASSERT_ALMOST_EQUAL_FAILED", "`0.73` and `0.75` differ by `0.020000000000000018`, more than the 2 places"),
    ("AssertionError: 10.0 != 9.0 within 0.5 delta (1.0 difference)", "UNITTEST_ASSERT_ALMOST_EQUAL_FAILED",
     "0.5 delta"),
    ("Greatest absolute difference: 0.0078125 at index (3, 17) (up to 0.001 allowed)", "TORCH_TESTING_NOT_CLOSE",
     "greatest absolute difference 0.0078125 at index (3, 17), up to 0.001 allowed"),
    ("[rank0]: AssertionError: Tensor-likes are not equal!", "TORCH_TESTING_NOT_CLOSE", "not equal within its tolerance"),
    ("Not equal to tolerance rtol=1e-07, atol=0", "NUMPY_TESTING_NOT_CLOSE", "within tolerance rtol=1e-07, atol=0"),
    ("Arrays are not almost equal to 3 decimals", "NUMPY_TESTING_NOT_CLOSE", "not almost equal to 3 decimals"),
    ("Max absolute difference: 2.5", "NUMPY_TESTING_NOT_CLOSE", "max absolute difference 2.5"),
    ("ERROR: Could not find a version that satisfies the requirement torch==2.0.1 (from versions: none)",
     "PIP_REQUIREMENT_NO_RELEASE_FOR_THIS_PLATFORM",
     "`torch==2.0.1` that it can install here (from versions: none): the index it used has no distribution of it for "
     "this Python version or platform"),
    ("ERROR: Could not find a final version that satisfies the requirement xformers==0.0.23 (from versions: none)",
     "PIP_REQUIREMENT_NO_RELEASE_FOR_THIS_PLATFORM", "`xformers==0.0.23`"),
    ("ERROR: Could not find a version that satisfies the requirement torch==1.4.0 (from versions: 1.11.0, 1.12.0, "
     "1.12.1)", "PIP_REQUIREMENT_NOT_AVAILABLE", "(the versions it found for this Python and platform: 1.11.0"),
    ("ERROR: Could not find a final version that satisfies the requirement numpy==3.0 (from versions: 1.26.4, 2.0.0)",
     "PIP_REQUIREMENT_NOT_AVAILABLE", "(`numpy==3.0`)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "x = torch.select(x, 1, idx)", "out = x.index_select(0, idx)  # index out of range is checked",
    "IndexError: index 3 is out of bounds for dimension 0 with size 3",
    "y = x.expand(4, 3, 8)", "the number of sizes provided matches the tensor",
    "py::class_<Detector>(m, \"Detector\")", "    1. (self: Session, arg0: str) -> None",
    "Invoked with: <Session object at 0x7f3a2c>, 3.5", "Registered type : mylib::Detector",
    "self.assertLess(err, 1e-3)", "the learning rate is not less than 1e-5 by default",
    "self.assertAlmostEqual(loss.item(), 0.25, places=3)", "torch.testing.assert_close(out, ref, atol=1e-3, rtol=1e-3)",
    "Mismatched elements: 3 / 1024 (0.3%)", "np.testing.assert_allclose(a, b, rtol=1e-5)",
    "Looking in indexes: https://pypi.org/simple", "Collecting torch==2.0.1",
    "Requirement already satisfied: numpy in /usr/lib/python3/dist-packages (1.26.4)",
    "[INFO] select(): index 3 out of range for tensor of size [3] at dimension 0",
    "loss_value = loss.item()  # not loss.data[0] on a 0-dim tensor", "x = obj.cast<int>();",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # PIP_REQUIREMENT_NOT_AVAILABLE's own examples are torch-npu pins, which the bundled PIP_NO_MATCHING_DISTRIBUTION
    # explains instead (the fallback gives way to it, as before this part)
    assert family_overlaps(kb, [sid for sid in FAMILY if sid != "PIP_REQUIREMENT_NOT_AVAILABLE"]) == []


def test_the_lines_other_entries_read_stay_theirs(kb):
    # a plain subscript stays the bounds entry's; torch_npu's and MindSpore's pins stay the entry naming their mirrors
    explained_title(kb, "IndexError: index 14 is out of bounds for dimension 0 with size 14",
                    "TORCH_INDEX_OUT_OF_BOUNDS_FOR_DIMENSION", among=FAMILY)
    explained_title(kb, "ERROR: Could not find a version that satisfies the requirement torch-npu==2.1.0rc1 "
                    "(from versions: none)", "PIP_NO_MATCHING_DISTRIBUTION",
                    among=FAMILY, ignore=("PIP_REQUIREMENT_NOT_AVAILABLE",))
    explained_title(kb, "AssertionError: x must be positive", "PY_ASSERTION_FAILED", among=FAMILY)
    explained_title(kb, "TypeError: iteration over a 0-d tensor", "TORCH_ZERO_DIM_TENSOR_ITERATED", among=FAMILY)


def test_an_indented_or_pytest_assertion_line_is_named(kb):
    # the generic assert entry read only a line that starts with AssertionError (or a rank/logger prefix): a pasted
    # traceback's indented line, an exception group's '| ' and pytest's 'E' prefix now read too
    for line in (" AssertionError: the cache is stale", "E       AssertionError: assert 3 == 4",
                 "  | AssertionError: worker 2 failed"):
        said = line.split("AssertionError: ", 1)[1]
        assert said in explained_title(kb, line, "PY_ASSERTION_FAILED", among=FAMILY)
