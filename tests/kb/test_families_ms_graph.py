"""data/kb/families_ms_graph.json: MindSpore's graph compilation and execution modes (GRAPH_MODE, @jit, JitConfig,
JIT Fallback), written by fault injection on MindSpore 2.10.0 (CPU): a tensor of several elements as a condition,
Python code that JIT Fallback ran and that raised, an operator or Tensor method called with arguments none of its
signatures accepts, a context / jit option with a wrong value, a Cell without super().__init__() / without construct
/ without the attribute construct reads, range() over a tensor, a constant index out of range, set_inputs that does
not match the data, a Parameter created in construct, JIT Fallback code given variables, strict-mode attributes, a
missing dict key, grad positions that do not fit the function, a method a graph type does not have and a Tensor index
of a type MindSpore does not accept. Each entry reads members its examples do not show, says the member in its title, stays quiet on
ordinary lines that share its words, on the clean runs of the same scripts and on every clean excerpt of the corpus,
and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_ms_graph")
# the graph-mode entries of other parts beside which these must stay one problem per line
FAMILY = IDS + ["MS_GRAPH_UNSUPPORTED_SYNTAX", "MS_GRAPH_TYPE_JOIN_FAILED", "MS_GRAPH_CALL_DEPTH",
                "MS_CONSTRUCT_ARG_MISMATCH", "MS_GRAPH_NAME_NOT_DEFINED", "MS_FUNC_ARG_COUNT_MISMATCH",
                "MS_JIT_STRICT_ASNUMPY", "MS_JIT_SYNTAX_NOT_SUPPORTED", "MS_OP_ARGUMENT_CHECK_FAILED",
                "FRAMEWORK_SETTING_NOT_SUPPORTED", "LLM_STACK_CONFIG_VALUE_REJECTED", "MS_OP_CALL_INVALID_ARGS"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert set(IDS) == {"MS_GRAPH_TENSOR_CONDITION_NOT_SCALAR", "MS_JIT_FALLBACK_RUNTIME_ERROR",
                        "MS_CONTEXT_OR_JIT_OPTION_INVALID",
                        "MS_CELL_SUPER_INIT_NOT_CALLED", "MS_CELL_ATTRIBUTE_NOT_DEFINED",
                        "MS_CELL_CONSTRUCT_NOT_DEFINED", "MS_GRAPH_RANGE_ARGUMENT_NOT_CONSTANT",
                        "MS_GRAPH_SEQUENCE_INDEX_OUT_OF_RANGE", "MS_SET_INPUTS_MISMATCH",
                        "MS_GRAPH_INSTANCE_CREATED_IN_CONSTRUCT", "MS_JIT_FALLBACK_NEEDS_CONSTANT_INPUT",
                        "MS_JIT_STRICT_ATTRIBUTE_UNSUPPORTED", "MS_GRAPH_DICT_KEY_NOT_FOUND",
                        "MS_GRAD_POSITION_OR_WEIGHTS_INVALID", "MS_GRAPH_OBJECT_HAS_NO_METHOD",
                        "MS_TENSOR_INDEX_INVALID"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_ms_graph.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid == "MS_JIT_FALLBACK_RUNTIME_ERROR") and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # a condition tensor of another shape, in the ERROR line of the analyzer
    ("[ERROR] ANALYZER(7,7f0,python):2026-01-01-00:00:00.000.000 [mindspore/ccsrc/frontend/jit/ps/static_analysis/"
     "evaluator.cc:764] Run] Primitive: <StandardPrimEvaluator_IsTensorBoolCond> infer failed, failed info: Only "
     "tensor which shape is () or (1,) can be converted to bool, but got tensor shape is (8, 16)",
     "MS_GRAPH_TENSOR_CONDITION_NOT_SCALAR", "shape (8, 16)"),
    # JIT Fallback: another Python error caught by the runtime
    ("[WARNING] RUNTIME_FRAMEWORK(9,7f1,python):2026-01-01-00:00:00.000.000 [mindspore/ccsrc/backend/ms_backend/runtime/"
     "actors/dynamic_type/any_type_kernel_actor.cc:620] Run] Catch error:list index out of range",
     "MS_JIT_FALLBACK_RUNTIME_ERROR", "`list index out of range`"),
    # an API signature mismatch of a functional API with keywords
    ("TypeError: Failed calling concat with \"concat(tensors=Tensor, axis=int)\".", "MS_OP_CALL_INVALID_ARGS",
     "`concat` was called with arguments"),
    ("The valid calling should be: \"input=<Tensor>\".", "MS_OP_CALL_INVALID_ARGS",
     "an operator or Tensor method"),
    # other context options of the same type check, the jit decorator's other options
    ("TypeError: The parameter 'device_target' must be <class 'str'>, but got <class 'int'>",
     "MS_CONTEXT_OR_JIT_OPTION_INVALID", "`device_target` (got int)"),
    ("ValueError: For 'jit', the 'backend' must be str and must be in '['ms_backend', 'GE']', but got 'ge2'.",
     "MS_CONTEXT_OR_JIT_OPTION_INVALID", "`backend` (got ge2)"),
    # other internal attributes of a Cell without super().__init__(), and the buffer form
    ("AttributeError: The 'ResNet' object has no attribute '_cells'.", "MS_CELL_SUPER_INIT_NOT_CALLED",
     "(`ResNet`) did not call super().__init__() (its internal attribute `_cells`"),
    ("AttributeError: cannot assign buffer before Cell.__init__() call", "MS_CELL_SUPER_INIT_NOT_CALLED",
     "did not call super().__init__()"),
    # a graph-mode attribute of a Cell in a package module
    ("AttributeError: ClassMember: 'Namespace:mymodels.backbone..<Backbone::1400>' object has no attribute 'proj_out'",
     "MS_CELL_ATTRIBUTE_NOT_DEFINED", "`Backbone` has no attribute `proj_out`"),
    # range's other arguments
    ("TypeError: For 'make_range', the 1th input should be a int scalar but got AbstractScalar(Type: Float32)",
     "MS_GRAPH_RANGE_ARGUMENT_NOT_CONSTANT", "(AbstractScalar)"),
    # a list index, a negative one
    ("IndexError: ListGetItem evaluator index should be in range[-3, 3), but got -4.",
     "MS_GRAPH_SEQUENCE_INDEX_OUT_OF_RANGE", "index -4 of a tuple or list is out of range (valid: [-3, 3))"),
    # the dims and length members of set_inputs' check
    ("ValueError: For set_inputs and tuple(list) in set_inputs, the dims of 2th input must be the same as expected, "
     "but got expected: 4, and input: 3!", "MS_SET_INPUTS_MISMATCH", "the dims of input 2"),
    ("ValueError: For set_inputs, the length of input must be equal to expected one, but got expected: 2, and input: 3!",
     "MS_SET_INPUTS_MISMATCH", "the length of input"),
    # MultitypeFuncGraph created in construct
    ("ValueError: Failed to compile in GRAPH_MODE because creating class 'mindspore.ops.composite.base."
     "MultitypeFuncGraph' instances is not supported in 'construct' or @jit decorated function.",
     "MS_GRAPH_INSTANCE_CREATED_IN_CONSTRUCT", "`mindspore.ops.composite.base.MultitypeFuncGraph`"),
    # JIT Fallback's other wording
    ("ValueError: When using JIT Fallback to handle script 'np.array(x)', the inputs should be constant, but found "
     "variable 'x' to be nonconstant.", "MS_JIT_FALLBACK_NEEDS_CONSTANT_INPUT", "`np.array(x)` needs constant inputs"),
    # strict mode: a Tensor method
    ("AttributeError: In JIT strict mode, cannot get attributes tolist or the Tensor[Float32] object has no attribute: "
     "'tolist'. You can use os.environ['MS_DEV_JIT_SYNTAX_LEVEL'] = '2' to enable the JIT lax mode to support the "
     "current syntax.", "MS_JIT_STRICT_ATTRIBUTE_UNSUPPORTED", "`tolist` of a Tensor[Float32] object"),
    ("ValueError: The key 'labels' does not exist in the dict:ValueAny", "MS_GRAPH_DICT_KEY_NOT_FOUND",
     "key `'labels'`"),
    # autodiff's other checks of its positions; another graph type without the method
    ("ValueError: grad_position should not be empty when grad by position.", "MS_GRAD_POSITION_OR_WEIGHTS_INVALID",
     "grad_position / weights arguments do not fit"),
    ("IndexError: Position index 2 is exceed input size.", "MS_GRAD_POSITION_OR_WEIGHTS_INVALID",
     "(position 2 is past its inputs)"),
    ("AttributeError: 'Tensor[Float32]' object has no attribute 'to_numpy'", "MS_GRAPH_OBJECT_HAS_NO_METHOD",
     "a Tensor[Float32] object has no attribute or method `to_numpy`"),
    # Tensor indexing's other checks
    ("IndexError: Current Tensor indexing does not support mutable list/tuple or list containing tensors. Please use an "
     "immutable expression instead.", "MS_TENSOR_INDEX_INVALID", ": Current Tensor indexing does not support mutable"),
    ("IndexError: For getitem, there are too many indices.", "MS_TENSOR_INDEX_INVALID", "too many indices"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # lines of the clean runs of the same scripts, and ordinary lines sharing the entries' words
    "[WARNING] COMMON(29716,7f401c658b80,python):2026-12-05-22:37:13.189.259 [mindspore/ccsrc/utils/comm_manager.cc:82] "
    "GetInstance] CommManager instance for CPU not found, return default instance.",
    "[2. 2. 2.]",
    "- The Traceback of Net Construct Code:",
    "# 0 In file /work/fi/ms_graph/src/14_tensor_bool.py:7~8, 8~20",
    "        if x > 0:",
    "\"Tensor.sum(dim=<None, Tensor, int, list of int, tuple of int>, keepdim=<bool>, *, dtype=<None, mstype>)\"",
    "ms.set_context(mode=ms.GRAPH_MODE, jit_config={\"jit_level\": \"O0\"})",
    "net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))",
    "AttributeError: 'Tensor' object has no attribute 'numpy_like'",
    "AttributeError: 'tuple' object has no attribute 'append'",
    "  /work/fi/venv_ms/lib/python3.11/site-packages/mindspore/ops/composite/multitype_ops/_constexpr_utils.py(83): "
    "raise_index_error",
    "grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)",
    "AttributeError: The 'Net' object has no attribute '_my_private_cache'.",
    "    def construct(self, x):",
    "        for i in range(n):",
    "[INFO] RUNTIME_FRAMEWORK(31122,7fc50f29f6c0,python):2026-12-05-22:37:49.749.272 [mindspore/ccsrc/backend/"
    "ms_backend/runtime/actors/dynamic_type/any_type_kernel_actor.cc:300] Run] Any type kernel actor:kernel_graph_1 run.",
    "In JIT strict mode, cannot get attributes asnumpy or the Tensor[Float32] object has no attribute: 'asnumpy'.",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
