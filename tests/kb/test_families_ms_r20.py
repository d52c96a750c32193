"""data/kb/families_ms_r20.json: MindSpore as users run it (round 20): the dataset engine's column checks (map and
per_batch_map returning another number of columns, zip's duplicate column, concat's columns), crop sizes, OneHot labels
and tokenizer inputs, MindRecord schemas, CrossEntropyLoss shapes, pad, split, reshape's -1, operator argument ranges,
dtype arguments, MultiheadAttention's embed_dim, kernels not registered on the device, graph-mode dict keys, safetensors
files and device target names. Each entry reads members its examples do not show, says the member in its title, stays
quiet on ordinary lines and on every clean corpus excerpt; one line is one problem of the family. The entries of other
parts this round widened read their new members and say the values."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_ms_r20")
EXTENDED = ["MS_PRIMITIVE_BROADCAST_SHAPE", "MS_CKPT_PARAM_MISMATCH", "MS_DATASET_DIR_INVALID",
            "MS_DATASET_FILES_MISSING", "MS_DATASET_MAP_OP_FAILED", "MS_OP_INPUT_RANK_WRONG", "MS_OP_AXIS_OUT_OF_RANGE",
            "MS_OP_INPUT_DTYPE_NOT_ACCEPTED", "MS_OP_INPUT_DTYPES_DIFFER", "MS_POOL_CONV_WINDOW_LARGER_THAN_INPUT",
            "MS_DATASET_COLUMN_NOT_FOUND", "MS_DATASET_ARG_OUT_OF_RANGE", "MS_DATASET_SAMPLING_ARGS_CONFLICT",
            "MS_CONCAT_STACK_SHAPE_MISMATCH"]
FAMILY = IDS + EXTENDED + ["MS_OP_ARGUMENT_CHECK_FAILED", "MS_DATASET_OP_INPUT_INVALID", "MS_RESHAPE_SIZE_MISMATCH",
                           "MS_KERNEL_SELECT_FAILED", "MS_CKPT_READ_FAILED", "MS_CONTEXT_CONFIG_INVALID",
                           "MS_DATASET_VISION_OP_INPUT_INVALID", "MS_MINDRECORD_SCHEMA_EMPTY"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) == 19 and "MS_DATASET_MAP_OUTPUT_COLUMN_COUNT" in IDS and "MS_DEVICE_TARGET_NAME_INVALID" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_ms_r20.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    ("[ERROR] Invalid columns, the number of columns returned in 'map' operations should match the number of "
     "'output_columns', but got the number of columns returned in 'map' operations: 3, the number of 'output_columns': 2.",
     "MS_DATASET_MAP_OUTPUT_COLUMN_COUNT", "`map` function returned 3 column(s) where 2 are declared"),
    ("RuntimeError: Invalid per_batch_map, the number of columns returned in 'per_batch_map' function should be 3 , "
     "but got: 2", "MS_DATASET_MAP_OUTPUT_COLUMN_COUNT", "`per_batch_map` function returned 2 column(s) where 3"),
    ("[ERROR] Invalid data, duplicate column label already exists when zipping datasets.",
     "MS_DATASET_ZIP_DUPLICATE_COLUMN", "`label`"),
    ("RuntimeError: Invalid columns, 'column name' or 'column order' of concat datasets should be the same.",
     "MS_DATASET_CONCAT_COLUMNS_DIFFER", "column names or column order differ"),
    ("[ERROR] map operation: [RandomCrop] failed. RandomCrop: invalid crop size, crop size is bigger than the image "
     "dimensions, got crop height: 224, crop width: 224", "MS_DATASET_CROP_LARGER_THAN_IMAGE", "of 224 x 224"),
    ("[ERROR] map operation: [OneHot] failed. OneHot: index values should not bigger than num classes: 10, but got: 12",
     "MS_DATASET_ONEHOT_INDEX_NOT_BELOW_CLASSES", "label 12, not below num_classes 10"),
    ("[ERROR] map operation: [SentencePieceTokenizer] failed. SentencePieceTokenizer: the input shape should be scalar "
     "and the input datatype should be string.", "MS_DATASET_TEXT_OP_INPUT_NOT_STRING", "`SentencePieceTokenizer`"),
    ("MRMInvalidSchemaError: [MRMInvalidSchemaError]: Schema format is error. Detail: Field 'label' contain illegal "
     "attribute 'int8'.", "MS_MINDRECORD_SCHEMA_INVALID", "Field 'label' contain illegal attribute 'int8'"),
    ("RuntimeError: Invalid data, schema is not found in header, please use 'add_schema' to add a schema for new "
     "mindrecord files.", "MS_MINDRECORD_SCHEMA_NOT_ADDED", "before add_schema()"),
    ("ValueError: For 'CrossEntropyLoss', the shape of 'logits' should be (N, C, d_0, d_1, ...), and the shape of "
     "'labels' should be (N, C, d_0, d_1, ...), but get 'logits' shape: (32, 10) and 'labels' shape: (32, 1).",
     "MS_LOSS_LOGITS_LABELS_SHAPE_MISMATCH", "shape (32, 1) does not fit the logits' shape (32, 10)"),
    ("ValueError: For 'pad', the size of padding must be divisible by 2, but got 5", "MS_PAD_PADDING_LENGTH_ODD",
     "has 5 entries"),
    ("ValueError: The sum of 'split_size_or_sections' should be equal to 768, but got 512.",
     "MS_SPLIT_SECTIONS_SUM_MISMATCH", "add up to 512, not to the size 768"),
    ("ValueError: At most one component of input shape can be -1, but got [const vector]{-1, 16, -1}",
     "MS_RESHAPE_MULTIPLE_INFERRED_DIMS", "{-1, 16, -1}"),
    ("RuntimeError: The kernel FlashAttentionScore unregistered, use custom op plugin", "MS_KERNEL_NOT_REGISTERED",
     "`FlashAttentionScore`"),
    ("ValueError: For primitive[Multinomial], the num_samples must be in [1,100], but got 0.",
     "MS_OP_ARGUMENT_OUT_OF_RANGE", "`num_samples` = 0, outside its range [1,100]"),
    ("TypeError: For 'Zeros', the input 'dtype' should be mindspore dtype, but got <class 'str'>.",
     "MS_DTYPE_ARGUMENT_NOT_MINDSPORE_TYPE", "`<class 'str'>`"),
    ("ValueError: The `embed_dim` should be 512, but got 768.", "MS_MHA_EMBED_DIM_MISMATCH",
     "last dimension is 768, but the layer was built with embed_dim 512"),
    ("RuntimeError: make_dict evaluator key only supports string, number, type, none, constant tensor and tuple, but "
     "got AbstractTensor", "MS_GRAPH_DICT_KEY_TYPE_UNSUPPORTED", "(AbstractTensor)"),
    ("ValueError: Fail to parse the input safetensors: '/data/qwen/model-00002-of-00004.safetensors'. Please check the "
     "correctness of the file.", "MS_SAFETENSORS_PARSE_FAILED", "`/data/qwen/model-00002-of-00004.safetensors`"),
    ("ValueError: For 'context.set_context', the argument 'device_target' must be one of ['CPU', 'GPU', 'Ascend'], but "
     "got 'npu'.", "MS_DEVICE_TARGET_NAME_INVALID", "`npu`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("ValueError: For 'Sub', x.shape and y.shape need to broadcast. The value of x.shape[-1] or y.shape[-1] must be 1 "
     "or -1 when they are not the same, but got x.shape = [8, 128] and y.shape = [8, 64]", "MS_PRIMITIVE_BROADCAST_SHAPE",
     "`Sub`: the input shapes cannot be broadcast ([8, 128] and [8, 64])"),
    ("ValueError: For 'BroadcastTo', in order to broadcast, each dimension pair must be equal or input dimension is 1 "
     "or target dimension is -1. But got x_shape: (3, 4), target shape: (2, 5).", "MS_PRIMITIVE_BROADCAST_SHAPE",
     "((3, 4) and (2, 5))"),
    ("ValueError: For BatchMatMul, inputs shape cannot be broadcast on CPU/GPU, with x shape [const vector]{4, 8, 16}, "
     "y shape [const vector]{2, 16, 8}", "MS_PRIMITIVE_BROADCAST_SHAPE", "`BatchMatMul`"),
    ("RuntimeError: For 'load_param_into_net', fc1.weight in the argument 'net' should have the same shape as "
     "fc1.weight in the argument 'parameter_dict'. But got its shape (120, 400) in the argument 'net' and shape "
     "(120, 256) in the argument 'parameter_dict'.May you need to check whether the checkpoint you loaded is correct or "
     "the batch size and so on in the 'net' and 'parameter_dict' are same.", "MS_CKPT_PARAM_MISMATCH",
     "parameter `fc1.weight` has another shape (network (120, 400), checkpoint (120, 256))"),
    ("ValueError: The folder /data/coco/train2017 does not exist or is not a directory or permission denied!",
     "MS_DATASET_DIR_INVALID", "`/data/coco/train2017`"),
    ("[ERROR] Invalid data, ImageFolderDataset API can't read the data file (interface mismatch or no data found). "
     "Check image folder file path: /data/flowers/train", "MS_DATASET_FILES_MISSING",
     "the ImageFolderDataset folder `/data/flowers/train`"),
    ("[ERROR] Invalid mnist folder, mnist file is missing or files are missing under /data/MNIST/train.",
     "MS_DATASET_FILES_MISSING", "the mnist folder `/data/MNIST/train`"),
    ("[ERROR] map operation: [Resize] failed. Resize: the dimension of input image should be 2 or 3, got 4",
     "MS_DATASET_MAP_OP_FAILED", "`Resize` failed: Resize: the dimension"),
    ("ValueError: For primitive[AvgPool], the length of input must be equal to 4 , but got 3.", "MS_OP_INPUT_RANK_WRONG",
     "`AvgPool` got an input with another number of dimensions than it takes (needs 4, got 3)"),
    ("ValueError: For 'BatchNorm1d', the must have 2 dims or 3 dims, but got 5.", "MS_OP_INPUT_RANK_WRONG", "got 5"),
    ("ValueError: For 'interpolate', bilinear only support '[4]'D, but got 3D", "MS_OP_INPUT_RANK_WRONG", "(needs [4], got 3)"),
    ("ValueError: For primitive[Gather], the axis must be in [-3,3], but got -4.", "MS_OP_AXIS_OUT_OF_RANGE",
     "`Gather` was given an axis outside the input's dimensions (axis -4)"),
    ("TypeError: For 'NLLLoss', the 'target' should be Int32, Int64, but got 'mindspore.float32'.",
     "MS_OP_INPUT_DTYPE_NOT_ACCEPTED", "`NLLLoss` does not take the data type given for input `target` (mindspore.float32)"),
    ("TypeError: For primitive[Stack], the input[tensors] elements should have same type, but got: Float16, Float32.",
     "MS_OP_INPUT_DTYPES_DIFFER", "`Stack`: the input[tensors] elements should have same type"),
    ("RuntimeError: For 'MaxPool' op, H_out/W_out must be positive, but H_out/W_out is 0, please check input and "
     "parameters of op", "MS_POOL_CONV_WINDOW_LARGER_THAN_INPUT", "`MaxPool`"),
    ("[ERROR] Invalid column, column name: image does not exist.", "MS_DATASET_COLUMN_NOT_FOUND", ": image"),
    ("ValueError: Input size at dim 1 is not within the required interval of [1, 16777216].", "MS_DATASET_ARG_OUT_OF_RANGE",
     "`size at dim 1`"),
    ("ValueError: num_shards is not supported if source does not have attribute '__getitem__'.",
     "MS_DATASET_SAMPLING_ARGS_CONFLICT", "num_shards is not supported if source does not have attribute"),
    ("ValueError: For primitive[Concat], element rank must be same(shapes are [const vector]{[const vector]{4, 8}, "
     "[const vector]{4}})!", "MS_CONCAT_STACK_SHAPE_MISMATCH", "`Concat`"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "[INFO] MD(1234,7f00,python):2026-01-01-10:00:00.000.000 [mindspore/ccsrc/minddata/dataset/engine/"
    "datasetops/map_op/map_op.cc:120] map operation: output_columns=['x']",
    "epoch: 1 step: 10, loss is 0.6931", "dataset.batch(32, per_batch_map=f, input_columns=['x', 'y'])",
    "ds.zip((a, b)) -> columns ['x', 'y', 'x2', 'y2']", "vision.RandomCrop(224, padding=4)",
    "transforms.OneHot(num_classes=10)", "writer.add_schema(schema, 'desc')",
    "logits shape: (32, 10), labels shape: (32,)", "ops.pad(x, (1, 1, 2, 2))", "ops.split(x, [2, 3])",
    "x.reshape(-1, 16)", "[WARNING] The kernel FlashAttentionScore unregistered.", "ms.set_device('Ascend')",
    "The `embed_dim` is 512", "Loaded safetensors file /data/model.safetensors",
    "For primitive[TopK], k=5", "load_param_into_net: 0 parameters not loaded",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
