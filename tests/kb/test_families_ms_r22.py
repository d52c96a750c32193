"""data/kb/families_ms_r22.json: MindSpore as users run it (round 22): the commonest user-facing raise sites of
MindSpore's Python package that no entry named — Dataset.map's operations, column names, batch arguments, empty file
lists, zip/concat inputs, samplers and dataset.config, the metrics' input checks, Parameters and ParameterTuple,
CellDict keys, amp, initializers, optimizers' grouped and combined hyper-parameters, sens / scale_sense, no_grad,
load_checkpoint from memory, Tensors used as indices, multi-head attention masks, GroupNorm channels, Ascend options
outside ascend_config, dataset string options, MaxPool padding and vision (min, max) ranges. Each entry reads members
its examples do not show, says the member in its title, stays quiet on ordinary lines and on every clean corpus
excerpt; one line is one problem of the family. The entries of other parts this round widened read their new members."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_ms_r22")
EXTENDED = ["MS_GRAD_POSITION_OR_WEIGHTS_INVALID", "MS_API_ARGUMENT_VALUE_INVALID", "MS_TE_HCCL_WHL_CHECK_FAILED"]
FAMILY = IDS + EXTENDED + ["MS_OP_ARGUMENT_CHECK_FAILED", "MS_API_ARGUMENT_RULE_VIOLATED", "MS_API_ARGUMENT_VALUE_INVALID",
                           "MS_DATASET_OP_INPUT_INVALID", "MS_DATASET_PIPELINE_EXCEPTION", "MS_VALIDATOR_NUMBER_CHECK",
                           "LLM_STACK_CONFIG_VALUE_REJECTED", "FRAMEWORK_SETTING_NOT_SUPPORTED",
                           "MS_DATASET_ARGUMENT_TYPE_WRONG", "MS_DATASET_FILE_NOT_FOUND", "MS_CELL_CHILD_NOT_A_CELL",
                           "MS_METRIC_EVAL_WITHOUT_SAMPLES", "MS_CKPT_SAVE_LOAD_ARGUMENT_INVALID",
                           "MS_TENSOR_MULTI_ELEMENT_AS_SCALAR", "PY_CALL_SIGNATURE_MISMATCH", "MS_DATASET_ARG_OUT_OF_RANGE",
                           "PY_MODULE_NOT_INSTALLED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert "MS_DATASET_MAP_OPERATION_NOT_INSTANCE" in IDS and "MS_AMP_ARGUMENT_INVALID" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_ms_r22.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback and sig.severity == "fail", sid


MEMBERS = [
    ("ValueError: Parameter operations's element of method map should be a python function or class method which "
     "should be callable, but got: None. It doesn't need parentheses for python function or class method.",
     "MS_DATASET_MAP_OPERATION_NOT_INSTANCE", "not callable, where a python function or class method is needed"),
    ("ValueError: op_list[1] should be a dataset processing operation instance, but got: <class "
     "'mindspore.dataset.vision.transforms.Resize'>. It may be missing parentheses for instantiation.",
     "MS_DATASET_MAP_OPERATION_NOT_INSTANCE", "a class where a dataset processing operation instance is needed"),
    ("ValueError: Num of input column names is 3, but required is 1 as data is list.",
     "MS_DATASET_COLUMN_NAMES_COUNT_MISMATCH", "3 name(s) but the data has 1 column(s) (data given as a list"),
    ("ValueError: Every column name should not be same with others in column_names.",
     "MS_DATASET_COLUMN_NAMES_DUPLICATE", "names the same column twice"),
    ("ValueError: input_columns can be specified only when per_batch_map is set.", "MS_DATASET_BATCH_ARGUMENT_INVALID",
     "input_columns can be specified only when per_batch_map is set"),
    ("ValueError: callable batch_size should take one parameter (BatchInfo).", "MS_DATASET_BATCH_ARGUMENT_INVALID",
     "callable batch_size should take one parameter (BatchInfo)"),
    ("ValueError: Input dataset_files can not be empty, but got '[]'.", "MS_DATASET_FILES_LIST_EMPTY",
     "the list of data files is empty (got '[]')"),
    ("ValueError: The list of path names matching the patterns is empty.", "MS_DATASET_FILES_LIST_EMPTY",
     "the list of data files is empty"),
    ("TypeError: Invalid datasets, expected Dataset object or list of Dataset, but got <class 'list'>!",
     "MS_DATASET_ZIP_CONCAT_INPUT_INVALID", "expected Dataset object or list of Dataset, but got"),
    ("TypeError: Cannot pickle <class 'generator'> object, please verify pyfunc return with numpy array",
     "MS_DATASET_PYFUNC_RETURNS_GENERATOR", "returns a generator"),
    ("TypeError: SubsetSampler: Type of indices element must be int, but got list[2]: 3.0, type: <class 'float'>.",
     "MS_DATASET_SAMPLER_ARGUMENT_INVALID", "SubsetSampler: Type of indices element must be int"),
    ("TypeError: shuffle must be valid shuffle mode but was: yes.", "MS_DATASET_SAMPLER_ARGUMENT_INVALID",
     "shuffle must be valid shuffle mode but was: yes"),
    ("RuntimeError: When multiple samplers are used, ensure that the shuffle of the current sampler must be "
     "Shuffle.FALSE or Shuffle.GLOBAL, but got: Shuffle.PARTIAL.", "MS_DATASET_SAMPLER_CHILD_CONFLICT",
     "must be Shuffle.FALSE or Shuffle.GLOBAL"),
    ("TypeError: timeout isn't of type int.", "MS_DATASET_CONFIG_VALUE_INVALID", "timeout isn't of type int"),
    ("ValueError: option isn't within the required range of [0, 6].", "MS_DATASET_CONFIG_VALUE_INVALID",
     "option isn't within the required range of [0, 6]"),
    ("RuntimeError: In no_grad context, you can not calculate gradient", "MS_GRAD_IN_NO_GRAD_CONTEXT",
     "inside a no_grad block"),
    ("ValueError: For custom_mixed_precision, the white_list or black_list cannot be provided at the same time, please "
     "provide one or the other.", "MS_AMP_ARGUMENT_INVALID", "white_list or black_list cannot be provided at the same time"),
    ("TypeError: For amp_level 'O3', the network type should be Cell or function, bot got <class 'int'>.",
     "MS_AMP_ARGUMENT_INVALID", "For amp_level 'O3', the network type should be Cell or function"),
    ("ValueError: 'mode' fan_avg not supported, please use one of ['fan_in', 'fan_out']", "MS_INITIALIZER_ARGUMENT_INVALID",
     "'mode' fan_avg not supported"),
    ("ValueError: For Sparse initializer, the dimension of the initialized tensor should be 2, but got 1.",
     "MS_INITIALIZER_ARGUMENT_INVALID", "`Sparse`"),
    ("ValueError: Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got "
     "normalized_shape = []", "MS_LAYERNORM_NORMALIZED_SHAPE_EMPTY", "empty normalized_shape ([])"),
    ("ValueError: In binary case, the dimension of y_pred (predicted value) should equal to the dimension of y (true "
     "value), but got y_pred dimension: 2 and y dimension: 1.", "MS_METRIC_PRED_LABEL_SHAPE_MISMATCH", "(binary)"),
    ("ValueError: In classification case, y_pred (predicted value) shape and y (true value) shape can not match, y shape "
     "should be equal to y_pred shape that the value at index 1 is deleted.", "MS_METRIC_PRED_LABEL_SHAPE_MISMATCH",
     "shape can not match"),
    ("ValueError: In multilabel case, all elements in y_pred (predicted value) and y (true value) should be 0 or 1.",
     "MS_METRIC_MULTILABEL_VALUES_NOT_BINARY", "not all 0 or 1"),
    ("ValueError: For 'Optimizer',the length of order parameters must be the same as the length of group parameters, "
     "but got order parameters' length 161, group parameters' length 159.", "MS_OPTIMIZER_ORDER_PARAMS_MISMATCH",
     "(order_params has 161, the groups 159)"),
    ("ValueError: Cannot learning_rate is None and relative_step=False", "MS_OPTIMIZER_HYPERPARAMS_CONFLICT",
     "Cannot learning_rate is None and relative_step=False"),
    ("ValueError: For Rprop, etas must be a tuple with the size of 2, but got 3.", "MS_OPTIMIZER_HYPERPARAMS_CONFLICT",
     "Rprop"),
    ("TypeError: Parameter data must be [`Tensor`, `int`, `float`] or a kind of `Tensor` (like `Tensor`). But with type "
     "<class 'str'>.", "MS_PARAMETER_DATA_INVALID", "But with type <class 'str'>"),
    ("ValueError: All shape elements of the Parameter must be positive. But got None.", "MS_PARAMETER_DATA_INVALID",
     "must be positive"),
    ("TypeError: For ParameterTuple initialization, ParameterTuple input should be 'Parameter' collection, but got a "
     "<class 'generator'>.", "MS_PARAMETER_TUPLE_NOT_PARAMETERS", "(got <class 'generator'>)"),
    ("ValueError: For 'TrainOneStepWithLossScaleCell', the shape of 'scale_sense' must be (1,) or (), but got (8,).",
     "MS_TRAIN_SENS_OR_SCALE_SENSE_INVALID", "`TrainOneStepWithLossScaleCell`"),
    ("KeyError: \"For 'CellDict', the key can not be same with the attributes of Cell, but got key training.\"",
     "MS_CELLDICT_KEY_OR_CELL_INVALID", "the key can not be same with the attributes of Cell"),
    ("TypeError: For 'CellDict', the type of cell can not be CellDict, CellList or SequentialCell, but got SequentialCell.",
     "MS_CELLDICT_KEY_OR_CELL_INVALID", "can not be CellDict, CellList or SequentialCell"),
    ("TypeError: For 'load_checkpoint', the argument 'ckpt_file_name' must be string, but got <class '_io.BytesIO'>.",
     "MS_CKPT_FILE_OBJECT_NOT_SUPPORTED", "file object (BytesIO)"),
    ("ValueError: Only integer tensors of a single element can be converted to an index.",
     "MS_TENSOR_AS_INDEX_NOT_INTEGER_SCALAR", "not a single-element integer Tensor"),
    ("ValueError: The shape of `key_padding_mask` should be (8, 128), but got (128, 8).",
     "MS_MHA_INPUT_OR_MASK_SHAPE_INVALID", "key_padding_mask should be (8, 128), but got (128, 8)"),
    ("ValueError: For unbatched `query`, the `key` and `value` must be 2D tensor, but got `key` with 3D and `value` with "
     "3D.", "MS_MHA_INPUT_OR_MASK_SHAPE_INVALID", "must be 2D tensor"),
    ("ValueError: For 'GroupNorm', channel(the second dim of the input 'x') must be equal to num_channels, but got "
     "channel: 64, num_channels: 32.", "MS_GROUPNORM_CHANNELS_MISMATCH", "(input has 64 channels, the layer's weight 32)"),
    ("[CRITICAL] ME(7:8,MainProcess):2026-01-01-10:00:00.000.000 [mindspore/context.py:466] ValueError: Only jit_level set "
     "O0 can set infer_boost to on.", "MS_JIT_INFER_BOOST_NEEDS_O0", "infer_boost='on'"),
    ("    if len(loss) == 0: TypeError: Not support len of a 0-D tensor", "MS_TENSOR_LEN_OF_0D", "0-D (scalar)"),
    ("RuntimeError: For predict lite, device target should be in ['gpu', 'cpu', 'ascend'] but got davinci",
     "MS_MODEL_PREDICT_BACKEND_INVALID", "(davinci)"),
    ("ValueError: Please set 'jit_compile' through parameter ascend_config", "MS_ASCEND_OPTION_NEEDS_ASCEND_CONFIG",
     "`jit_compile` directly"),
    ("ValueError: Input interpolation is not within the valid set of ['Inter.LINEAR', 'Inter.NEAREST'].",
     "MS_DATASET_ARG_NOT_IN_VALID_SET", "`interpolation` is not one of the values"),
    ("ValueError: For MaxPool1d, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' can not be set to "
     "non-default value when pad_mode is not 'pad', but got pad_mode:same.", "MS_POOL_PADDING_WITH_NON_PAD_MODE",
     "`MaxPool1d`: padding, dilation, return_indices or ceil_mode is set but pad_mode is 'same'"),
    ("ValueError: ratio should be in (min,max) format. Got (max,min).", "MS_VISION_RANGE_NOT_MIN_MAX",
     "`ratio` is given as (max, min)"),
    ("ValueError: brightness value should be in (min,max) format. Got (1.5, 0.5).", "MS_VISION_RANGE_NOT_MIN_MAX",
     "`brightness`"),
]


@pytest.mark.parametrize("line, sig_id, said", MEMBERS)
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("ValueError: There are duplicate positions in `grad_position`, please check it",
     "MS_GRAD_POSITION_OR_WEIGHTS_INVALID", "lists the same position twice"),
    ("ValueError: The element in grad_position must belong to [0, args_num).", "MS_GRAD_POSITION_OR_WEIGHTS_INVALID",
     "outside [0, number of inputs)"),
    ("RuntimeError: \"hccl\" wheel was not installed correctly. For details, refer to the installation guidelines: "
     "https://www.mindspore.cn/install", "MS_TE_HCCL_WHL_CHECK_FAILED", "te or hccl"),
    ("[ERROR] ME(9:1,MainProcess):2026-01-01-10:00:00.000.000 [mindspore/communication/management.py:120] Check hccl "
     "failed: No module named 'hccl'", "MS_TE_HCCL_WHL_CHECK_FAILED", "te or hccl"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


QUIET = [
    "[INFO] ME(123:456,MainProcess):2026-01-01-10:00:00.000.000 [mindspore/dataset/engine/datasets.py:3980] "
    "map operations: [Decode, HWC2CHW], input_columns: ['image']",
    "dataset = dataset.map(operations=[vision.Decode(), vision.HWC2CHW()], input_columns='image')",
    "ds.NumpySlicesDataset((images, labels), column_names=['image', 'label'], shuffle=True)",
    "dataset = dataset.batch(32, drop_remainder=True)", "dataset_files: 8 files, num_shards: 8",
    "epoch: 1 step: 100, loss is 2.302585", "sampler = ds.DistributedSampler(num_shards=8, shard_id=0, shuffle=True)",
    "ds.config.set_seed(1234)", "grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)",
    "net = amp.auto_mixed_precision(net, 'O2', dtype=mstype.float16)", "weight_init=HeUniform(mode='fan_in')",
    "nn.LayerNorm((768,), epsilon=1e-5)", "acc = nn.Accuracy('classification'); acc.update(logits, labels)",
    "group_params = [{'params': decay, 'weight_decay': 0.01}, {'order_params': net.trainable_params()}]",
    "Parameter (name=fc.weight, shape=(10, 512), dtype=Float32, requires_grad=True)",
    "TrainOneStepWithLossScaleCell(net, opt, scale_sense=update_cell)", "nn.CellDict({'conv_1': conv1})",
    "param_dict = ms.load_checkpoint('/data/resnet50.ckpt')", "nn.Conv2d(3, 64, 3, pad_mode='pad', padding=1)",
    "attn_mask shape (128, 128), key_padding_mask shape (8, 128)", "nn.GroupNorm(32, 256)",
    "ms.set_context(jit_config={'jit_level': 'O0', 'infer_boost': 'on'})", "len of tensor: 32",
    "output = model.predict(x, backend='lite')", "ms.set_context(ascend_config={'precision_mode': 'must_keep_origin_dtype'})",
    "ds.MnistDataset(path, usage='train')", "nn.MaxPool2d(kernel_size=3, stride=2, pad_mode='pad', padding=1)",
    "vision.RandomResizedCrop(224, scale=(0.08, 1.0), ratio=(0.75, 1.333))",
    "[WARNING] ME(1:2,MainProcess):2026-01-01-10:00:00.000.000 [mindspore/communication/management.py:118] \"hccl\" wheel "
    "package version 8.0 is installed",
]


@pytest.mark.parametrize("line", QUIET)
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS + EXTENDED) == []
    for sid in IDS + EXTENDED:
        for line in kb.signature(sid).examples:
            assert [s.id for s in kb.explaining(line) if s.id in FAMILY] == [sid], (sid, line)
