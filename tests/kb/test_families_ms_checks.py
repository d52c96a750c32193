"""data/kb/families_ms_checks.json: MindSpore's Python-side argument checks as a user's call trips them (round 16).
The _checkparam templates (ranges, allowed values, types, tuple lengths, divisibility) said with the API, the argument,
the rule and the value; mindspore.dataset's type and sampling checks; the Tensor constructor and methods; a Tensor of
several elements used as one value; Xavier/He on a 1-D parameter; save_checkpoint and load_param_into_net with the
[CRITICAL] line logged before the exception; Model.predict given NumPy; an activation name MindSpore does not know.
Each entry reads the lines the fault-injection runs printed and members its examples do not show, says the member in
its title, stays quiet on ordinary lines that share its words and on every clean excerpt of the corpus, and one line is
one problem of the family. The members added to other parts' entries are said by those entries."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_ms_checks")
# other parts' entries this part extends (their new members are tested below)
EXTENDED = ["MS_DATASET_ARG_OUT_OF_RANGE", "MS_DATASET_FILE_NOT_FOUND", "MS_CONTEXT_CONFIG_INVALID",
            "MS_TENSOR_INIT_DATA_INVALID", "MS_OP_AXIS_OUT_OF_RANGE", "MS_CKPT_PARAM_MISMATCH", "MS_MINDIR_LOAD_FAILED"]
FAMILY = IDS + EXTENDED + ["MS_API_ARGUMENT_VALUE_INVALID", "MS_OPTIMIZER_ARGUMENT_INVALID", "MS_API_ARGUMENT_TYPE_WRONG",
                           "MS_LOAD_PARAM_INTO_NET_NOT_A_DICT",
                           "MS_VALIDATOR_NUMBER_CHECK", "MS_DATASET_NUM_WORKERS_OUT_OF_RANGE",
                           "MS_LR_SCHEDULE_ARGUMENT_INVALID"]
GENERIC = ["MS_OP_ARGUMENT_CHECK_FAILED", "LLM_STACK_CONFIG_VALUE_REJECTED", "SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT",
           "PY_SCRIPT_EXCEPTION"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert set(IDS) == {"MS_API_ARGUMENT_RULE_VIOLATED", "MS_DATASET_ARGUMENT_TYPE_WRONG", "MS_ACTIVATION_NAME_UNKNOWN",
                        "MS_TENSOR_MULTI_ELEMENT_AS_SCALAR", "MS_TENSOR_SHAPE_WITH_INPUT_DATA",
                        "MS_TENSOR_METHOD_ARGUMENT_INVALID", "MS_INITIALIZER_FAN_NEEDS_2D",
                        "MS_DATASET_SAMPLING_ARGS_CONFLICT", "MS_GENERATOR_SOURCE_INVALID",
                        "MS_NETWORK_INPUT_TYPE_INVALID", "MS_SAVE_CHECKPOINT_ARGS_INVALID",
                        "MS_LOAD_PARAM_INTO_NET_ARGS_INVALID", "MS_LOAD_PARAM_INTO_NET_REFUSED_LOGGED",
                        "MS_DATASET_NORMALIZE_MEAN_STD_MISMATCH"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_ms_checks.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback, sid
        assert sig.severity == ("warn" if sid == "MS_LOAD_PARAM_INTO_NET_REFUSED_LOGGED" else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # _checkparam's templates, as the nn layers, losses, context and communication print them
    ("ValueError: For 'LSTM', the 'dropout' must be a number in range [0, 1) representing the probability of an "
     "element being zeroed, but got 1.5.", "MS_API_ARGUMENT_RULE_VIOLATED", "`LSTM` rejected `dropout`: must be a number in range [0, 1)"),
    ("ValueError: For 'LSTM', the 'num_directions' must be in range of [1, 4], but got 5 with type 'int'.",
     "MS_API_ARGUMENT_RULE_VIOLATED", "must be in range of [1, 4], but got `5`"),
    ("ValueError: For 'MaxPool2d', the 'kernel_size' must be an positive int number or a tuple, but got 0",
     "MS_API_ARGUMENT_RULE_VIOLATED", "`MaxPool2d` rejected `kernel_size`"),
    ("ValueError: For 'BatchNorm2d', the 'num_features' must be at least 1, but got 0.",
     "MS_API_ARGUMENT_RULE_VIOLATED", "must be at least 1, but got `0`"),
    ("ValueError: For 'Conv2d', the 'x_shape[1]' should be = in_channels: 4, but got 3.",
     "MS_API_ARGUMENT_RULE_VIOLATED", "`x_shape[1]`: should be = in_channels: 4, but got `3`"),
    ("ValueError: For 'context.set_context', the argument 'device_id' must be in range [0, 4095], but got 9000.",
     "MS_API_ARGUMENT_RULE_VIOLATED", "`device_id`: must be in range [0, 4095], but got `9000`"),
    ("ValueError: For 'set_auto_parallel_context', the argument 'pipeline_stages' should be greater or equal 1, but "
     "got the value of stages : 0.", "MS_API_ARGUMENT_RULE_VIOLATED", "`pipeline_stages`: should be greater or equal 1"),
    ("ValueError: For 'TopKCategoricalAccuracy', the argument 'k' must be at least 1, but got 'k' value: 0.",
     "MS_API_ARGUMENT_RULE_VIOLATED", "but got `0`"),
    ("TypeError: For 'Softmax', the type of 'axis' should be one of '[int, tuple of int]', but got <class 'float'>.",
     "MS_API_ARGUMENT_RULE_VIOLATED", "`axis`: should be one of '[int, tuple of int]', but got `float`"),
    ("TypeError: For 'Adam', the type of 'learning_rate' must be 'float', but got 'str'.",
     "MS_API_ARGUMENT_RULE_VIOLATED", "`learning_rate`: must be 'float', but got `str`"),
    ("ValueError: The parameter 'net' must be isinstance of (<class 'mindspore.nn.cell.Cell'>,), but got 3.",
     "MS_API_ARGUMENT_RULE_VIOLATED", "`net`: must be isinstance of"),
    ("ValueError: The input value must be in range of (0.0, 1.0), but got 2.0 with type 'float'.",
     "MS_API_ARGUMENT_RULE_VIOLATED", "must be in range of (0.0, 1.0), but got `2.0`"),
    ("ValueError: The argument 'group' should be divisible by 'in_channels' and 'out_channels', but got group:2, "
     "in_channels:3, out_channels:8.", "MS_API_ARGUMENT_RULE_VIOLATED", "`group`: should be divisible by"),
    ("ValueError: The init argument 'embed_dim' must be divisible by 'num_heads'.", "MS_API_ARGUMENT_RULE_VIOLATED",
     "`embed_dim`: must be divisible by 'num_heads'"),
    ("ValueError: For 'Conv2d', padding must be zero when pad_mode is 'same', but got 1.",
     "MS_API_ARGUMENT_RULE_VIOLATED", "padding must be zero when pad_mode is 'same', but got `1`"),
    ("ValueError: For 'initializer', the argument 'shape' is invalid, the value of 'shape' must be positive integer, "
     "but got (0, 8)", "MS_API_ARGUMENT_RULE_VIOLATED", "`shape`: must be positive integer, but got `(0, 8)`"),
    ("RuntimeError: For 'init', the argument 'backend_name' must be one of 'hccl', 'nccl' and 'mccl', but got "
     "'backend_name' : ncclx", "MS_API_ARGUMENT_RULE_VIOLATED", "but got `ncclx`"),
    # the dataset validators' type check and its dict checks
    ("TypeError: Argument datasets with value 3 is not of type [<class 'list'>, <class "
     "'mindspore.dataset.engine.datasets.Dataset'>], but got <class 'int'>.", "MS_DATASET_ARGUMENT_TYPE_WRONG",
     "argument `datasets` must be of type"),
    ("TypeError: Argument datasets with value <mindspore.dataset.engine.datasets_user_defined.NumpySlicesDataset "
     "object at 0x7f35007c0450> is not of type [<class 'tuple'>], but got <class "
     "'mindspore.dataset.engine.datasets_user_defined.NumpySlicesDataset'>.", "MS_DATASET_ARGUMENT_TYPE_WRONG",
     "must be of type [<class 'tuple'>]"),
    ("TypeError: pad_info should be dict type, but got: <class 'list'>", "MS_DATASET_ARGUMENT_TYPE_WRONG",
     "`pad_info` must be of type dict, but got `list`"),
    # the Tensor
    ("ValueError: Only one element tensors can be converted to Python scalars", "MS_TENSOR_MULTI_ELEMENT_AS_SCALAR",
     "where one value is needed"),
    ("ValueError: If setting dynamic shape, dtype must not be None, init must be None",
     "MS_TENSOR_SHAPE_WITH_INPUT_DATA", "a dynamic shape with `init` or without `dtype`"),
    ("ValueError: For Tensor.squeeze, the shape of parameter 'axis' (0,) must be 1, but got 2.",
     "MS_TENSOR_METHOD_ARGUMENT_INVALID", "Tensor.squeeze rejected its arguments"),
    ("ValueError: 'fan_in' and 'fan_out' can not be computed for tensor with fewer than 2 dimensions, but got "
     "dimensions 1.", "MS_INITIALIZER_FAN_NEEDS_2D", "Tensor of 1 dimension(s)"),
    # sampling, sources, inputs
    ("RuntimeError: sampler and sharding cannot be specified at the same time.", "MS_DATASET_SAMPLING_ARGS_CONFLICT",
     ": sampler and sharding cannot be specified at the same time"),
    ("ValueError: num_shards and shard_id need to be passed in together.", "MS_DATASET_SAMPLING_ARGS_CONFLICT",
     "num_shards and shard_id need to be passed in together"),
    # save_checkpoint and load_param_into_net
    ("TypeError: For 'save_checkpoint', the parameter 3 for checkpoint file name is invalid,'ckpt_file_name' must be "
     "string, but got <class 'int'>.", "MS_SAVE_CHECKPOINT_ARGS_INVALID", "the file name is a `int`"),
    ("ValueError: For 'save_checkpoint', the format must be 'safetensors' or 'ckpt', but got pt.",
     "MS_SAVE_CHECKPOINT_ARGS_INVALID", "format `pt`"),
    ("TypeError: For save_checkpoint, save_obj should be a list of dict items, and the dict should have key values "
     "'name' and 'value', but got <class 'dict'> and {'name': 'w'}.", "MS_SAVE_CHECKPOINT_ARGS_INVALID",
     "not a dict with the keys 'name' and 'data'"),
    ("[CRITICAL] ME(1:140019169979264,MainProcess):2026-12-06-10:19:14.130.000 [mindspore/train/serialization.py:1754] "
     "Load parameters into net failed.", "MS_LOAD_PARAM_INTO_NET_REFUSED_LOGGED", "(`Load parameters into net failed`)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, ignore=GENERIC)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "[WARNING] ME(1:2,MainProcess):2026-12-06-10:00:00.000.000 [mindspore/nn/layer/basic.py:1] For 'Dropout', the 'p' "
    "must be in range of [0.0, 1.0), but got 1.5 with type 'float'.",
    "    momentum (float): A floating hyperparameter of the momentum, must be a number in range [0, 1].",
    "        raise TypeError(\"Argument {0} with value {1} is not of type {2}, but got {3}.\".format(arg_name, value,",
    "            raise ValueError(\"shard_id should be less than num_shards.\")",
    "        logger.critical(\"Failed to combine the net and the parameters.\")",
    "[INFO] ME(1:2,MainProcess):2026-12-06-10:00:00.000.000 [mindspore/train/serialization.py:1] Execute the process "
    "of saving checkpoint files.",
    "epoch: 1 step: 4, loss is 0.6931471824645996",
    "Train epoch time: 1234.567 ms, per step time: 308.642 ms",
    "{'acc': 0.5}",
    "not loaded ([], [])",
    "    activation (Union[str, Cell, Primitive, None]): activate function applied to the output, e.g. 'relu'.",
    "    If the tensor should have only one element, call .item() to get the Python scalar.",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


@pytest.mark.parametrize("line, sig_id, said", [
    ("ValueError: Input std[0] is not within the required interval of (0, 255].", "MS_DATASET_ARG_OUT_OF_RANGE",
     "`std[0]`"),
    ("ValueError: Input is not within the required interval of [1, 16777216].", "MS_DATASET_ARG_OUT_OF_RANGE",
     "([1, 16777216])"),
    ("ValueError: num_samples exceeds the boundary between 0 and 9223372036854775807(INT64_MAX)!",
     "MS_DATASET_ARG_OUT_OF_RANGE", "`num_samples`"),
    ("ValueError: count should be either -1 or within the required interval of (0, 2147483647], got 0.",
     "MS_DATASET_ARG_OUT_OF_RANGE", "`count`"),
    ("ValueError: Input must be greater than 0.", "MS_DATASET_ARG_OUT_OF_RANGE", "(must be greater than 0)"),
    ("ValueError: The following patterns did not match any files: ['/data/train.tfrecord'].",
     "MS_DATASET_FILE_NOT_FOUND", "'/data/train.tfrecord'"),
    ("ValueError: For 'context.get_context', the argument nosuch is not recognized! For detailed usage of "
     "'get_context', please refer to the Mindspore official website.", "MS_CONTEXT_CONFIG_INVALID", "(`nosuch`)"),
    ("ValueError: The num of thread must bigger than or equal to 0.", "MS_CONTEXT_CONFIG_INVALID",
     "(`num of thread`)"),
    ("ValueError: value for save_graphs should be 0-3 but got '5'", "MS_CONTEXT_CONFIG_INVALID", "(`save_graphs`)"),
    ("TypeError: For 'Tensor', the 'dtype' should be one of [mindspore.int8, mindspore.float32, mindspore.bool_], but "
     "got ''float32''.", "MS_TENSOR_INIT_DATA_INVALID", "`dtype` must be a MindSpore type"),
    ("ValueError: The 'axis' must be in the range of [-2, 2), but got 3.", "MS_OP_AXIS_OUT_OF_RANGE", "axis 3"),
    ("[CRITICAL] ME(25402:139932026727296,MainProcess):2026-12-06-10:19:34.880.000 "
     "[mindspore/train/serialization.py:281] Failed to combine the net and the parameters for param fc.weight.",
     "MS_CKPT_PARAM_MISMATCH", "Checkpoint does not fit the network"),
    ("RuntimeError: Load MindIR failed.", "MS_MINDIR_LOAD_FAILED", "MindIR file cannot be loaded"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, ignore=GENERIC)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id", [
    # the optimizers' own checks stay with MS_OPTIMIZER_ARGUMENT_INVALID, set_context's options with
    # MS_CONTEXT_OR_JIT_OPTION_INVALID, "must be a number" without a range with MS_API_ARGUMENT_VALUE_INVALID
    ("ValueError: For 'Adam', the 'beta1' must be in range of (0.0, 1.0), but got 1.5 with type 'float'.",
     "MS_OPTIMIZER_ARGUMENT_INVALID"),
    ("ValueError: For 'context.set_context', the argument 'device_target' must be one of ['CPU', 'GPU', 'Ascend', "
     "'Davinci'], but got NPU.", "MS_CONTEXT_OR_JIT_OPTION_INVALID"),
    ("ValueError: For 'Conv2d', the 'out_channels' must be int and must > 0, but got '0' with type 'int'.",
     "MS_API_ARGUMENT_VALUE_INVALID"),
])
def test_neighbours_keep_their_members(kb, line, sig_id):
    assert [s.id for s in kb.explaining(line)] == [sig_id]
