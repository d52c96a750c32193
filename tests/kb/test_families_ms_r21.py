"""data/kb/families_ms_r21.json: MindSpore as users run it (round 21): the losses' label and logits checks (sparse
softmax cross-entropy's label rank, nn.loss's rank and class-dimension checks, binary cross-entropy's shapes),
Dataset.split's sizes and the datasets it cannot split, CSVDataset's parse errors, the removed c_transforms /
py_transforms modules and collectives on the CPU outside the CPU communication group. Each entry reads members its
examples do not show, says the member in its title, stays quiet on ordinary lines and on every clean corpus excerpt;
one line is one problem of the family. The entries of other parts this round widened read their new members."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_ms_r21")
EXTENDED = ["MS_DATASET_SAMPLING_ARGS_CONFLICT", "MS_API_REMOVED_OR_MOVED", "MS_COMM_SHAPE_NOT_DIVISIBLE_BY_WORLD_SIZE",
            "MS_COMM_GROUP_RANK_OUT_OF_RANGE", "MS_DUPLICATE_PARAMETER_NAME", "MS_DATASET_COLUMN_NOT_FOUND",
            "MS_DATASET_USER_DATA_TYPE_INVALID", "MS_SET_INPUTS_MISMATCH", "MS_CONSTRUCT_ARG_MISMATCH"]
FAMILY = IDS + EXTENDED + ["MS_OP_ARGUMENT_CHECK_FAILED", "MS_OP_INPUT_DTYPE_NOT_ACCEPTED", "MS_OP_INPUT_RANK_WRONG",
                           "MS_LOSS_LOGITS_LABELS_SHAPE_MISMATCH", "MS_DATASET_OP_INPUT_INVALID",
                           "MS_DATASET_PIPELINE_EXCEPTION", "FRAMEWORK_SETTING_NOT_SUPPORTED", "MS_PRIMITIVE_VALUE_CHECK",
                           "PY_MODULE_NOT_INSTALLED", "LLM_STACK_CONFIG_VALUE_REJECTED",
                           "MS_DATASET_USER_PYFUNC_FAILED", "MS_GRAPH_UNSUPPORTED_SYNTAX",
                           "PY_CALL_SIGNATURE_MISMATCH"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert "MS_SPARSE_CE_LABELS_RANK_MISMATCH" in IDS and "MS_DATASET_SPLIT_SIZES_INVALID" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_ms_r21.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback and sig.severity == ("info" if sid == "MS_KERNEL_SELECT_INPUT_DTYPES" else "fail"), sid


MEMBERS = [
    ("ValueError: Labels shape length must be equal to Logits shape length minus 1",
     "MS_SPARSE_CE_LABELS_RANK_MISMATCH", "Labels shape length must be equal to Logits shape length minus 1"),
    ("ValueError: Labels shape value must be equal to the Features except the last dimension of Features",
     "MS_SPARSE_CE_LABELS_RANK_MISMATCH", "except the last dimension of Features"),
    ("RuntimeError: For 'SparseSoftmaxCrossEntropyWithLogits', the dimension of logits and labels should satisfy this "
     "equation: len(labels.shape) = len(logits.shape) - 1, but got the dimension of labels: 3, the dimension of logits: 3",
     "MS_SPARSE_CE_LABELS_RANK_MISMATCH", "(labels have 3 dimension(s), logits 3)"),
    ("ValueError: For 'DiceLoss', the dimensions of 'logits' and 'labels' must be equal, but got dimension of 'logits' 4 "
     "and dimension of 'labels' 2.", "MS_LOSS_LOGITS_LABELS_RANK_INVALID",
     "`DiceLoss`: the logits and labels do not have the dimensions it takes: dimensions of 'logits' and 'labels' must be equal"),
    ("ValueError: For 'MultiClassDiceLoss', the 'labels' dimension must be greater than 1, but got 1.",
     "MS_LOSS_LOGITS_LABELS_RANK_INVALID", "'labels' dimension must be greater than 1, but got 1"),
    ("ValueError: For 'FocalLoss', the 'logits'.shape[1] cannot be one, but got 1.", "MS_LOSS_LOGITS_LABELS_RANK_INVALID",
     "`FocalLoss`"),
    ("ValueError: For primitive[BinaryCrossEntropy], the input_shape: [32,1,] must be equal to [32,]",
     "MS_LOSS_INPUT_TARGET_SHAPE_DIFFER", "`BinaryCrossEntropy`: the prediction and the target have different shapes "
     "([32,1,] vs [32,])"),
    ("ValueError: For 'BCEWithLogitsLoss', two inputs 'input' and 'target' shape are not equal, 'input' shape: "
     "[const vector]{8, 1}, 'target' shape: [const vector]{8}", "MS_LOSS_INPUT_TARGET_SHAPE_DIFFER",
     "`BCEWithLogitsLoss`: the prediction and the target have different shapes ([const vector]{8, 1} vs [const vector]{8})"),
    ("ValueError: sizes is a list of int, but there should be no negative or zero numbers.",
     "MS_DATASET_SPLIT_SIZES_INVALID", "no negative or zero numbers"),
    ("RuntimeError: Sum of split sizes 900 is not equal to dataset size 1000.", "MS_DATASET_SPLIT_SIZES_INVALID",
     "Sum of split sizes 900 is not equal to dataset size 1000"),
    ("RuntimeError: Split percentage 0.001 is too small.", "MS_DATASET_SPLIT_SIZES_INVALID", "0.001 is too small"),
    ("RuntimeError: dataset_size is unknown, unable to split.", "MS_DATASET_SPLIT_NOT_POSSIBLE",
     "(dataset_size is unknown, unable to split)"),
    ("RuntimeError: AllGather only support mccl_world_group on CPU, but got nccl_world_group",
     "MS_CPU_COLLECTIVE_GROUP_NOT_MCCL", "`AllGather` on the CPU runs only in the CPU communication group "
     "(mccl_world_group), but got `nccl_world_group`"),
    ("[ERROR] Invalid file, failed to parse csv file: /data/iris.csv at line 3. Error message: Invalid csv file, "
     "unexpected quote in unquote field from line 3", "MS_DATASET_CSV_PARSE_FAILED",
     "a row of `/data/iris.csv` (line 3)"),
    ("RuntimeError: Invalid csv file, reach the end of file in quote field, check csv file: /data/a.csv",
     "MS_DATASET_CSV_PARSE_FAILED", "reach the end of file in quote field"),
    ("ModuleNotFoundError: No module named 'mindspore.dataset.transforms.c_transforms'",
     "MS_DATASET_C_PY_TRANSFORMS_REMOVED", "`mindspore.dataset.transforms.c_transforms`"),
    ("ImportError: cannot import name 'py_transforms' from 'mindspore.dataset.vision' "
     "(/usr/lib/python3.9/site-packages/mindspore/dataset/vision/__init__.py)", "MS_DATASET_C_PY_TRANSFORMS_REMOVED",
     "(`py_transforms`)"),
    ("[ERROR] ANALYZER(5,7f,python):2026-01-01-10:00:00.000.000 [mindspore/ccsrc/pipeline/jit/ps/static_analysis/"
     "static_analysis.cc:1063] EvalCNode] Can not cast to a AbstractFunction from AbstractScalar(Type: Float32, Value: "
     "1.0)", "MS_GRAPH_OBJECT_NOT_CALLABLE", "(it is a `AbstractScalar` value)"),
    ("The supported data types are input[Float32 Float32], output[Float32]; input[Float64 Float64], output[Float64]; , "
     "but get input[Float16 Float16 ] and output[Float16 ]", "MS_KERNEL_SELECT_INPUT_DTYPES",
     "given inputs of Float16 Float16"),
    ("TypeError: Incoming Parameter dtype can not be converted to current dtype implicitly. Current dtype is Float32, and "
     "incoming is BFloat16. Use .set_dtype(xxx) to change the dtype.", "MS_PARAMETER_SET_DATA_DTYPE_DIFFERS",
     "(BFloat16 into a Float32 Parameter)"),
    ("ValueError: Auto mixed precision will not work because 'optimizer' is None.Please set amp_level='O0' to disable "
     "auto mixed precision or set 'optimizer' not be None to use auto mixed precision.", "MS_MODEL_AMP_WITHOUT_OPTIMIZER",
     "amp_level other than O0 but no optimizer"),
    ("[CRITICAL] ME(9:1,MainProcess):2026-01-01-10:00:00.000.000 [mindspore/train/dataset_helper.py:262] "
     "ValueError: The dataset has been connected to other network, please check the code.",
     "MS_DATASET_CONNECTED_TO_OTHER_NETWORK", "already connected to another network"),
    ("ValueError: For primitive[GRU], the h_shape[2] must be equal to 128, but got 64.",
     "MS_RNN_INPUT_OR_STATE_SHAPE_MISMATCH", "`GRU`: the input or initial state does not fit the layer (`h_shape[2]` is 64, "
     "expected 128)"),
    ("ValueError: For dynamic rnn, the h_shape[0] should equal to num_directions * num_layers.",
     "MS_RNN_INPUT_OR_STATE_SHAPE_MISMATCH", "(h_shape does not equal num_directions * num_layers)"),
    ("ValueError: For 'BiDense', bias init shape error. The ndim of 'bias_init' must be equal to 1, and the first dim "
     "must be equal to 'out_channels'. But got 'bias_init': [0. 0.], 'out_channels': 3.",
     "MS_LAYER_INIT_TENSOR_SHAPE_MISMATCH", "`BiDense` (its bias)"),
    ("ValueError: For 'initializer', the shape of the 'init' argument should be same as the argument 'shape', but got "
     "the 'init' shape [768, 1024] and the 'shape' [1024, 768].", "MS_LAYER_INIT_TENSOR_SHAPE_MISMATCH",
     "(the Tensor [768, 1024], the parameter [1024, 768])"),
]


@pytest.mark.parametrize("line, sig_id, said", MEMBERS)
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("ValueError: sampler is not supported if source does not have attribute '__getitem__'.",
     "MS_DATASET_SAMPLING_ARGS_CONFLICT", "sampler is not supported if source does not have attribute"),
    ("ValueError: batch_sampler is mutually exclusive with num_samples, shuffle, num_shards, shard_id and sampler.",
     "MS_DATASET_SAMPLING_ARGS_CONFLICT", "batch_sampler is mutually exclusive"),
    ("ValueError: collate_fn can be specified only when batch_sampler is set.", "MS_DATASET_SAMPLING_ARGS_CONFLICT",
     "collate_fn can be specified only when batch_sampler is set"),
    ("ModuleNotFoundError: No module named 'mindspore.compression'", "MS_API_REMOVED_OR_MOVED", "MindSpore versions"),
    ("ValueError: the first dimension for 'input_shape' must be divided by 'rank_size', but got input_shape[0]: 30, "
     "rank_size: 8", "MS_COMM_SHAPE_NOT_DIVISIBLE_BY_WORLD_SIZE", "not divisible by the group size (30 and 8)"),
    ("ValueError: For 'ReduceScatter', the first dimension of 'x_shape' must be divided by 'group_size', but got "
     "'x_shape[0]': 5, 'rank_size': 2.", "MS_COMM_SHAPE_NOT_DIVISIBLE_BY_WORLD_SIZE", "`ReduceScatter`"),
    ("[ERROR] DISTRIBUTED(1,7f,python):2026-01-01-10:00:00.000.000 [mindspore/ccsrc/distributed/collective/"
     "collective_manager.cc:315] GetLocalGroupRankAndSize] The rank 9is out of global rank size.",
     "MS_COMM_GROUP_RANK_OUT_OF_RANGE", "names rank `9`"),
    ("ValueError: The value Parameter (name=accum.fc.bias, shape=(10,), dtype=Float32, requires_grad=True) , its name "
     "'accum.fc.bias' already exists. Please set a unique name for the parameter.", "MS_DUPLICATE_PARAMETER_NAME",
     "share the name `accum.fc.bias`"),
    ("TypeError: The 2th input type of 'set_inputs' must be the same as network's input, but got 'set_inputs': Float32 "
     "and network's input: Int32.", "MS_SET_INPUTS_MISMATCH", "the type of input 2 differs"),
    ("ValueError: The 1th input shape of 'set_inputs' must be the same as network's input, but got 'set_inputs': 32 and "
     "network's input: 16.", "MS_SET_INPUTS_MISMATCH", "`set_inputs` declared: the shape of input"),
    ("TypeError: ResNet.construct() takes 2 positional arguments but 3 were given", "MS_CONSTRUCT_ARG_MISMATCH",
     "Cell.construct of `ResNet` called with the wrong number of arguments"),
    ("[ERROR] Invalid pad_info, column name: tokens does not exist.", "MS_DATASET_COLUMN_NOT_FOUND", ": tokens"),
    ("TypeError: Data type of 2th item of the input or its converted Numpy array is expected to be int or float or str, "
     "but got object.", "MS_DATASET_USER_DATA_TYPE_INVALID", "(object) in item 2 of a row"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


QUIET = [
    "[INFO] ME(123:456,MainProcess):2026-01-01-10:00:00.000.000 [mindspore/nn/loss/loss.py:869] "
    "SparseSoftmaxCrossEntropyWithLogits labels shape (32,)",
    "loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')",
    "epoch: 1 step: 100, loss is 2.302585", "train_ds, test_ds = dataset.split([0.8, 0.2], randomize=True)",
    "dataset size: 1000, split sizes: [800, 200]", "nn.BCEWithLogitsLoss(reduction='mean')",
    "rank 0: AllReduce in mccl_world_group done", "CSVDataset(['/data/train.csv'], column_defaults=[0.0, 0])",
    "[WARNING] ME(1:2,MainProcess):2026-01-01-10:00:00.000.000 [mindspore/dataset/core/validator_helpers.py:744] "
    "'Decode' from mindspore.dataset.vision.c_transforms is deprecated from version 1.8 and will be removed in a future "
    "version. Use 'Decode' from mindspore.dataset.vision instead.",
    "import mindspore.dataset.vision as vision",
    "ReduceScatter: input_shape[0] 32, rank_size 8", "Parameter name 'moment1.weight' created",
    "The object is callable", "padded_batch(32, pad_info={'tokens': ([128], 0)})",
    "nn.LSTM(input_size=4, hidden_size=8, num_layers=2, batch_first=True)", "weight_init='normal', bias_init='zeros'",
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
