"""data/kb/families_ms_data_io.json: MindSpore's data, checkpoint and Model layer, written by fault injection (each
fault run with MindSpore 2.10.0 on the CPU, the entry written for the lines the run printed). Checkpoints and MindIR
(parameters not loaded, a file not there, a format that is not the file's, a save that failed, an output directory
that is a file or not writable, a prefix filter that left nothing, a loaded graph called with other inputs),
mindspore.dataset (image operations on data that is not an image of their layout, a column not there, an iterator
past its epochs, a worker process killed, argument ranges, a data file not there, rows of different dtypes,
MindRecord rows that do not fit the schema) and Model / callbacks / set_device. Each entry reads members its
examples do not show and says the member in its title, stays quiet on ordinary lines that share its words (the clean
runs' WARNING lines among them) and on every clean excerpt of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_ms_data_io")
# members of other parts' entries this part's runs extended: the map operation's class entry now gives way to the
# specific ones of its line, and Model's dataset check reads a dataset that is not a mindspore.dataset
EXTENDED = ["MS_MODEL_DATASET_INVALID"]
FAMILY = IDS + ["MS_DATASET_MAP_OP_FAILED", "MS_DATASET_IMAGE_DECODE_FAILED", "MS_OP_ARGUMENT_CHECK_FAILED",
                "MS_CKPT_PARAM_MISMATCH", "MS_CKPT_READ_FAILED", "MS_DATASET_OP_INPUT_INVALID",
                "MS_DATASET_BATCH_SHAPES_INCONSISTENT", "MS_MODEL_DATASET_INVALID", "LLM_STACK_CONFIG_VALUE_REJECTED",
                "MS_DATASET_DIR_INVALID", "MS_MINDIR_LOAD_FAILED"]
CLASSES = {"MS_DATASET_ARG_OUT_OF_RANGE", "MS_VALIDATOR_NUMBER_CHECK"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert len(IDS) == 20  # (+ round 15's mends: tests/kb/test_entries_from_heldout23.py) and "MS_CKPT_PARAMS_NOT_LOADED" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_ms_data_io.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in CLASSES), sid
        assert sig.severity == ("warn" if sid == "MS_CKPT_PARAMS_NOT_LOADED" else "fail"), sid
    assert kb.signature("MS_DATASET_MAP_OP_FAILED").fallback


@pytest.mark.parametrize("line, sig_id, said", [
    # load_param_into_net's warning in the wording of earlier releases (no advice after it), and a long name list
    ("[WARNING] ME(12345:281473445891232,MainProcess):2024-05-11-10:02:33.123.456 [mindspore/train/serialization.py:1532]"
     " For 'load_param_into_net', 161 parameters in the 'net' are not loaded, because they are not in the "
     "'parameter_dict'.", "MS_CKPT_PARAMS_NOT_LOADED", "left 161 parameters"),
    ("[WARNING] ME(12345:281473445891232,MainProcess):2024-05-11-10:02:33.123.456 [mindspore/train/serialization.py:1536]"
     " ['backbone.head.weight', 'backbone.head.bias'] are not loaded.", "MS_CKPT_PARAMS_NOT_LOADED",
     "['backbone.head.weight', 'backbone.head.bias']"),
    # the MindIR splitter's path check; a Hugging Face shard given to the ckpt reader
    ("ValueError: For 'Split MindIR', the argument 'file_name'(MindIR file) does not exist, please check whether the "
     "'file_name' is correct.", "MS_CKPT_FILE_NOT_FOUND", "Split MindIR"),
    ("ValueError: For 'load_checkpoint', the checkpoint file: rank_3/llama-2_500.ckpt does not exist, please check "
     "whether the 'ckpt_file_name' is correct.", "MS_CKPT_FILE_NOT_FOUND", "rank_3/llama-2_500.ckpt"),
    ("ValueError: For 'load_checkpoint', the checkpoint file format must same with 'format', but got "
     "file_name:'model-00001-of-00004.safetensors', format:'ckpt'", "MS_CKPT_FORMAT_MISMATCH",
     "model-00001-of-00004.safetensors, format='ckpt'"),
    ("[CRITICAL] ME(77:281473445891232,MainProcess):2025-03-01-10:00:00.000.000 [mindspore/train/serialization.py:470]"
     " Failed to save the checkpoint file /cache/ckpt/rank_3/net-2_100.ckpt. Maybe don't have the permission to write "
     "files, or the disk space is insufficient and so on.", "MS_CKPT_SAVE_FAILED", "/cache/ckpt/rank_3/net-2_100.ckpt"),
    # _make_dir's permission form, for a directory of another user
    ("[CRITICAL] ME(1:1,MainProcess):2026-12-05-23:08:39.158.000 [mindspore/parallel/_parallel_serialization.py:540] "
     "No write permission on the directory('/mnt/shared/ckpt'), error = PermissionError(13, 'Permission denied')",
     "MS_CKPT_DIRECTORY_UNUSABLE", "/mnt/shared/ckpt (No write permission)"),
    # a convolution of a loaded graph, in the form without the PrimFunc_ prefix
    ("RuntimeError: Catch primitive:Conv2D InferPrimitiveShape exception:For 'Conv2D', 'C_in' of input 'x' shape "
     "divide by parameter 'group' must be equal to 'C_in' of input 'weight' shape: 3, but got 'C_in' of input 'x' "
     "shape: 1, and 'group': 1.", "MS_MINDIR_GRAPH_INPUT_MISMATCH", "operator Conv2D"),
    # image operations of image_utils.cc the runs did not hit
    ("[ERROR] map operation: [HWC2CHW] failed. HWC2CHW: input tensor is not in shape of <H,W> or <H,W,C>, but got "
     "rank: 1", "MS_DATASET_VISION_OP_INPUT_INVALID", "the image operation HWC2CHW"),
    ("[ERROR] map operation: [RandomCrop] failed. Invalid data, input image hasn't been decoded, you may need to "
     "perform Decode first.", "MS_DATASET_VISION_OP_INPUT_INVALID", "the image operation RandomCrop"),
    ("[ERROR] map operation: [RgbToGray] failed. RgbToGray: image shape is not <H,W,C> or channel is not 3, got rank: 2",
     "MS_DATASET_VISION_OP_INPUT_INVALID", "the image operation RgbToGray"),
    # the worker's exit code and the DataLoader form of the signal handler
    ("[ERROR] MD(7188,7f77c026fb80,python):2026-12-05-22:43:54.677.233 [mindspore/ccsrc/minddata/dataset/util/"
     "sig_handler.cc:540] SIGCHLDHandler] Dataset worker process 3141 exited unexpectedly with exit code 1. Main "
     "process will be terminated.", "MS_DATASET_WORKER_KILLED", "exited unexpectedly with exit code (1)"),
    ("[ERROR] MD(7188,7f77c026fb80,python):2026-12-05-22:43:54.677.233 [mindspore/ccsrc/minddata/dataset/util/"
     "sig_handler.cc:600] DataLoader worker (pid: 3141) was killed by signal: Segmentation fault.",
     "MS_DATASET_WORKER_KILLED", "(Segmentation fault)"),
    # the other intervals of the dataset validators; the Validator with an argument name and as a TypeError
    ("ValueError: Input num_parallel_workers is not within the required interval of [1, 8].",
     "MS_DATASET_ARG_OUT_OF_RANGE", "`num_parallel_workers`"),
    ("ValueError: Input batch_size is not within the required interval of [1, 2147483647].",
     "MS_DATASET_ARG_OUT_OF_RANGE", "([1, 2147483647])"),
    ("TypeError: The input value must be int and must > 0, but got '2.0' with type 'float'.",
     "MS_VALIDATOR_NUMBER_CHECK", "but got `2.0`"),
    ("ValueError: The 'epoch' must be int and must > 0, but got '0' with type 'int'.", "MS_VALIDATOR_NUMBER_CHECK",
     "int and > 0"),
    ("KeyError: \"For 'get_metric_fn', unsupported metric top1, please refer to official website for more details "
     "about supported metrics.\"", "MS_METRIC_UNSUPPORTED", "`top1`"),
    ("RuntimeError: If define `valid_dataset`, metric fn can not be None or empty, you should set the argument "
     "'metrics' for model.", "MS_MODEL_EVAL_NOT_CONFIGURED", "metric fn can not be None or empty"),
    ("RuntimeError: The runtime has been initialized, please set it before the kernel is executed, or before calling "
     "'mindspore.communication.init()'. Suggest setting it as early as possible.", "MS_SET_DEVICE_LOCKED",
     "The runtime has been initialized"),
    ("[WARNING] ME(1:1,MainProcess):2026-12-05-22:36:34.304.000 [mindspore/mindrecord/filewriter.py:603] for schema, "
     "3 th data is wrong, there is not field: 'label' in the raw data.", "MS_MINDRECORD_DATA_SCHEMA_MISMATCH",
     "(field label)"),
    ("[WARNING] ME(1:1,MainProcess):2026-12-05-22:36:34.304.000 [mindspore/mindrecord/filewriter.py:630] for schema, "
     "0 th data is wrong, data shape: '(3, 224, 224)' for field: 'image' is not matched.",
     "MS_MINDRECORD_DATA_SCHEMA_MISMATCH", "(field image)"),
    ("ValueError: The file /data/coco/annotations/instances_train2017.json does not exist or permission denied!",
     "MS_DATASET_FILE_NOT_FOUND", "/data/coco/annotations/instances_train2017.json"),
    ("[ERROR] Cannot batch tensors with different types in column 1. First element had type int32 and this element "
     "had type float64", "MS_DATASET_BATCH_TYPES_INCONSISTENT", "in column 1 (int32 and float64)"),
    ("[ERROR] Invalid parameter, input column name: label doesn't exist in the dataset columns.",
     "MS_DATASET_COLUMN_NOT_FOUND", ": label"),
    # Model given something that is not a mindspore.dataset
    ("AttributeError: 'DataLoader' object has no attribute 'get_dataset_size'", "MS_MODEL_DATASET_INVALID",
     "'DataLoader' object has no attribute 'get_dataset_size'"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


# ordinary lines of the same tools, most of them from the clean runs here (training with LossMonitor, ModelCheckpoint
# and eval; set_context's deprecation warnings; multiprocessing maps; ONNX export's notice)
@pytest.mark.parametrize("line", [
    "[WARNING] ME(27507:139647174912896,MainProcess):2026-12-05-22:36:35.600.0 [mindspore/dataset/engine/validators.py:"
    "1534] 'max_rowsize' is deprecated from version 2.8.0 and will be removed in a future version.",
    "[WARNING] ME(30772:140031088335744,MainProcess):2026-12-05-22:38:04.946.000 [mindspore/train/serialization.py:2218]"
    " mindspore.export(file_format='ONNX') will be deleted, please use mindspore.onnx.export()",
    "[WARNING] ME(7977:139945320642240,MainProcess):2026-12-05-22:44:09.836.000 [mindspore/dataset/engine/"
    "datasets_user_defined.py:737] idx_queue is not empty.",
    "[WARNING] ME(9350:140002747460480,MainProcess):2026-12-05-22:44:33.834.000 [mindspore/context.py:1343] For "
    "'context.set_context', the parameter 'device_id' will be deprecated and removed in a future version. Please use "
    "the api mindspore.set_device() instead.",
    "[WARNING] ME(11349:140005550668672,MainProcess):2026-12-05-22:45:09.903.000 [mindspore/train/serialization.py:1249]"
    " For load_checkpoint, this parameter `specity_prefix` will be deprecated, please use `choice_func` instead.",
    "epoch: 2 step: 4, loss is 0.6751328706741333",
    "Train epoch time: 11246.919 ms, per step time: 2811.730 ms",
    "{'acc': 0.625}",
    "Dataset worker process was terminated by parent process, exits with successful status.",
    "(['dense1.weight', 'dense1.bias'], ['fc1.weight', 'fc1.bias'])",
    "    not_loaded = ms.load_param_into_net(net, pd)",
    "    raise ValueError(\"For 'load_checkpoint', the checkpoint file: {} does not exist, please check \"",
    "[ERROR] map operation: [PyFunc] failed. Error description:",
    "Some weights of the model checkpoint were not used when initializing BertModel",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
