"""data/kb/families_ascend_r19.json: MindSpore's own messages of round 19: graph mode's variable defined in one branch,
super()'s arguments and code typed at the terminal, @jit argument counts, the collective APIs' argument checks and
dim 0 not divisible by the group size, mindspore.Model's arguments, sink mode and build epochs, export's size limit and
Parameters outside any Cell, nn.Cell attribute kinds, memory size settings and runtime options set twice, the parallel
optimizer, micro batches, dataset_strategy and ranks beyond device_num. Each entry reads
members its examples do not show, says the member in its title, stays quiet on ordinary lines (and on a clean
MindSpore 2.7.0 run's whole output: a GRAPH_MODE Model.train/eval with checkpoints, export and set_memory, and msrun
with two workers, kept under tests/kb) and on every clean corpus excerpt; one line is one problem of the family. The
entries of other parts this round extended read their new members."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import clean_run_hits, english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_ascend_r19")
EXTENDED = ["MS_TENSOR_MULTI_ELEMENT_AS_SCALAR", "NUMPY_AXIS_OUT_OF_BOUNDS", "MS_INITIALIZER_FAN_NEEDS_2D",
            "VLLM_ASCEND_CPU_BINDING_FAILED", "MS_RESHAPE_SIZE_MISMATCH",
            "MS_OPTIMIZER_ARGUMENT_INVALID"]
FAMILY = IDS + EXTENDED + ["MS_GRAPH_TENSOR_CONDITION_NOT_SCALAR", "MS_GRAPH_UNSUPPORTED_SYNTAX", "MS_MODEL_DATASET_INVALID",
                           "MS_CONTEXT_CONFIG_INVALID", "MS_CONTEXT_OR_JIT_OPTION_INVALID", "MS_OP_ARGUMENT_CHECK_FAILED",
                           "MS_CELL_CHILD_NAME_INVALID", "MS_CONSTRUCT_ARG_MISMATCH", "MS_COMM_GROUP_RANK_OUT_OF_RANGE",
                           "MS_CREATE_GROUP_RANK_LIST_CONFLICT", "MS_GRAPH_NAME_NOT_DEFINED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) == 18 and "MS_GRAPH_VARIABLE_DEFINED_IN_ONE_BRANCH" in IDS and "MS_RUNTIME_OPTION_SET_TWICE" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_ascend_r19.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # graph mode
    ("UnboundLocalError: The local variable 'hidden' is not defined in true branch, but defined in false branch.",
     "MS_GRAPH_VARIABLE_DEFINED_IN_ONE_BRANCH", "`hidden` is assigned in only one branch"),
    ("  UnboundLocalError: The local variable 'self.cache' is not defined in false branch, but defined in true branch.",
     "MS_GRAPH_VARIABLE_DEFINED_IN_ONE_BRANCH", "the false branch leaves it undefined"),
    ("ValueError: The first argument of 'super()' must be a class type, but got 3.", "MS_GRAPH_SUPER_ARGUMENTS_INVALID",
     "first argument of 'super()' must be a class type"),
    ("[ERROR] OSError: Mindspore can not compile temporary source code in terminal. Please write source code to a python "
     "file and run the file.", "MS_GRAPH_COMPILE_NEEDS_SOURCE_FILE", "interactive terminal"),
    ("TypeError: Function train_step needs 3 positional argument, but got 2.", "MS_JIT_FUNCTION_ARGUMENT_COUNT",
     "`train_step` was called with 2 positional arguments; it takes 3"),
    # collectives
    ("TypeError: For reduce_scatter_tensor, the input op value must be one of sum, prod, min, max",
     "MS_COMM_API_ARGUMENT_INVALID", "`reduce_scatter_tensor`"),
    ("TypeError: For gather_into_tensor, the dst must be int", "MS_COMM_API_ARGUMENT_INVALID", "dst must be int"),
    ("TypeError: For all_gather_into_tensor, the output dtype should be Float32, but got Float16.",
     "MS_COMM_API_ARGUMENT_INVALID", "output dtype should be Float32, but got Float16"),
    ("TypeError: p2p_op_list can not be empty list.", "MS_COMM_API_ARGUMENT_INVALID", "p2p_op_list can not be empty"),
    ("ValueError: input shape at dim 0 must be divided by world_size, but got 7 and 8.",
     "MS_COMM_SHAPE_NOT_DIVISIBLE_BY_WORLD_SIZE", "(7 and 8)"),
    # Model
    ("ValueError: The argument in 'kwargs' should be 'loss_scale_manager' or 'keep_batchnorm_fp32' or "
     "'boost_config_dict' or 'acc_level', but got 'amp_level_O2'.", "MS_MODEL_ARGUMENT_INVALID", "`amp_level_O2`"),
    ("ValueError: The argument 'eval_indexes' must be a list or None. If 'eval_indexes' is a list, length of it must be "
     "three. But got 'eval_indexes' [0, 1]", "MS_MODEL_ARGUMENT_INVALID", "'eval_indexes' must be a list or None"),
    ("ValueError: Only dataset sink mode is supported for now.", "MS_MODEL_SINK_MODE_NOT_SUPPORTED",
     "Only dataset sink mode"),
    ("ValueError: when use Model.build to initialize model, the value of parameter 'epoch' in Model.build should be equal "
     "to value in Model.train, but got the value of epoch in build 10 and the value of epoch in train 1",
     "MS_MODEL_BUILD_EPOCH_MISMATCH", "Model.build (10) differs from the epoch given to Model.train / fit (1)"),
    # export, Cell
    ("RuntimeError: Export onnx model failed. Network size is: 2.3G, it exceeded the protobuf: 2G limit, now parameters "
     "in network are: 1234", "MS_EXPORT_SIZE_LIMIT_EXCEEDED", "(2.3 GB) (limit 2 GB)"),
    ("ValueError: The map_parameter 'emb.table' is not belongs to any cell,the data of parameter cannot be exported.",
     "MS_EXPORT_PARAMETER_NOT_IN_CELL", "`emb.table`"),
    ("TypeError: Buffer 'running_mean' already exists in network, can not assign this type: 'Parameter' as a buffer.",
     "MS_CELL_ATTRIBUTE_KIND_CONFLICT", "Buffer `running_mean`"),
    # runtime settings
    ("ValueError: The memory value should be in correct format!It must be a string ending with 'GB', in addition to that, "
     "it must contain only numbers or decimal points, such as \"5GB\" or \"3.5GB\", but got 30000MB.",
     "MS_MEMORY_SIZE_SETTING_INVALID", "(got `30000MB`)"),
    ("ValueError: The '16g' is illegal, it must be match regular'[1-9][0-9]*(\\.)?[0-9]*GB|0\\.[0-9]*GB' by flags"
     "'re.ASCII.'", "MS_MEMORY_SIZE_SETTING_INVALID", "(got `16g`)"),
    ("RuntimeError: The 'op_compile' can not be set repeatedly.", "MS_RUNTIME_OPTION_SET_TWICE", "`op_compile`"),
    ("RuntimeError: The 'mindspore.set_deterministic' can not be set repeatedly.", "MS_RUNTIME_OPTION_SET_TWICE",
     "`mindspore.set_deterministic`"),
    # parallel
    ("RuntimeError: Parallel optimizer can not be applied when the number of parameters 2 is less than the number of "
     "devices 16", "MS_PARALLEL_OPTIMIZER_TOO_FEW_PARAMETERS", "has 2 parameters, fewer than the 16 devices"),
    ("RuntimeError: For 'Optimizer', parallel optimizer only support optimizer 'Lamb' and 'AdamWeightDecay' and "
     "'AdaFactor', but got Adam.", "MS_PARALLEL_OPTIMIZER_TOO_FEW_PARAMETERS", "the optimizer `Adam` is not one of"),
    ("ValueError: For micro batch initialization, the 0th dimension shape of input(30) must be divided by micro size(4)",
     "MS_PIPELINE_MICRO_BATCH_NOT_DIVISIBLE", "(30) is not divisible by the micro size 4"),
    ("ValueError: The dataset shapes size of 2 is not equal to dynamic shapes size of 3",
     "MS_PARALLEL_DATASET_STRATEGY_MISMATCH", "dataset shapes size of 2"),
    ("ValueError: The global rank must be smaller than device number, the global rank is 9, the device num is 8",
     "MS_PARALLEL_RANK_NOT_BELOW_DEVICE_NUM", "rank 9 is not below the device number 8"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("ValueError: 'Can not convert Tensor with more than one element to Scalar, while the data's shape is : (4, 2)'",
     "MS_TENSOR_MULTI_ELEMENT_AS_SCALAR", "(shape (4, 2))"),
    ("ValueError: Can not convert Tensor with more than one element to Scalar, while the data's shape is: (8)",
     "MS_TENSOR_MULTI_ELEMENT_AS_SCALAR", "(shape (8))"),
    ("ValueError: dim 4 is out of bounds for array of dimension 3", "NUMPY_AXIS_OUT_OF_BOUNDS",
     "Axis 4 does not exist in an array of 3 dimension(s)"),
    ("ValueError: If initialize data with xavier uniform, the dimension of data must be greater than 1, but got 0.",
     "MS_INITIALIZER_FAN_NEEDS_2D", "a Tensor of 0 dimension(s)"),
    ("RuntimeError: Failed to bind 4411 to CPU 24,25,26,27,28.", "VLLM_ASCEND_CPU_BINDING_FAILED",
     "Failed to bind 4411 to CPU 24,25,26,27,28"),
    ("RuntimeError: Invalid NPU id 9, total_npus=8.", "VLLM_ASCEND_CPU_BINDING_FAILED", "Invalid NPU id 9"),
    ("ValueError: The accumulate of x_shape must be equal to out_shape, but got x_shape: [const vector]{32, 128, 768}, "
     "and out_shape: [const vector]{32, 128, 12, 32}", "MS_RESHAPE_SIZE_MISMATCH", "{32, 128, 12, 32}"),
    ("ValueError: The argument 'init_loss_scale' must be > 1, but got 0.5", "MS_OPTIMIZER_ARGUMENT_INVALID",
     "`init_loss_scale` (got 0.5)"),
    ("ValueError: The argument 'scale_factor' must be > 0, but got 0", "MS_OPTIMIZER_ARGUMENT_INVALID",
     "`scale_factor` (got 0)"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "[INFO] ME(1234:139812606294912,MainProcess):2026-12-06-19:28:43.682.000 [mindspore/train/model.py:1200] "
    "dataset_sink_mode=True, sink_size=-1",
    "epoch: 1 step: 4, loss is 0.5123", "Train epoch time: 1234.567 ms, per step time: 308.642 ms",
    "The local variable 'y' is defined before the if", "ms.runtime.set_memory(max_size=\"30GB\")",
    "The group dp has been created", "For all_reduce, op=sum, group=hccl_world_group",
    "input shape at dim 0 is 8, world_size is 4", "[INFO] Parallel optimizer is enabled with 8 devices",
    "For micro batch initialization, micro size is 4", "x_shape: [2, 3], out_shape: [3, 2]",
    "export file_format=MINDIR, file_name=net", "Function f needs 2 positional argument",
    "Model.build(train_dataset, epoch=2)", "mindspore.set_deterministic(True)",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_clean_runs_give_no_statement(kb):
    """A clean MindSpore 2.7.0 run here (GRAPH_MODE Model.train/eval with LossMonitor and ModelCheckpoint,
    load_checkpoint, export, set_memory, reshape; msrun with two workers): no line of it is explained by this part."""
    assert clean_run_hits(kb, "ascend_r19_clean_runs.txt", IDS + EXTENDED, at_least=30) == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
