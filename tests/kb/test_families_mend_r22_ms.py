"""data/kb/families_mend_r22_ms.json: the round-22 mend for MindSpore and Python: MatMul given inputs that are not 2-D,
an MNIST idx file that is not raw (a .gz download, an HTML page, a cut file) and a relative path the working directory
does not hold. The entries of other parts this mend widened say the member their line shows: save_checkpoint's list and
dict checks (the item's type, and that the list's dicts need the key 'data', not 'value'), the rule a learning-rate
schedule's argument broke (max_lr greater than min_lr, with both values), and MatMul's inner dimensions in the older
releases' wording. Each entry reads members its examples do not show, says the member in its title, stays quiet on
ordinary lines and on every clean corpus excerpt; one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_mend_r22_ms")
EXTENDED = ["MS_SAVE_CHECKPOINT_ARGS_INVALID", "MS_LR_SCHEDULE_ARGUMENT_INVALID", "MS_MATMUL_INNER_DIM_MISMATCH"]
FAMILY = IDS + EXTENDED + ["FW_FILE_NOT_FOUND", "MS_DATASET_PIPELINE_EXCEPTION", "MS_DATASET_OP_INPUT_INVALID",
                           "MS_OP_ARGUMENT_CHECK_FAILED", "OS_ERRNO_REPORTED", "PY_SCRIPT_EXCEPTION",
                           "MS_IMAGES_LABELS_COUNT_MISMATCH"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert sorted(IDS) == ["MS_MATMUL_INPUTS_NOT_2D", "MS_MNIST_FILES_SIZE_OR_COUNT_MISMATCH", "MS_MNIST_FILE_NOT_RAW_IDX",
                          "PY_RELATIVE_PATH_NOT_FOUND_FROM_CWD"]
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mend_r22_ms.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback and sig.severity == "fail", sid


MEMBERS = [
    ("ValueError: MatMul inputs should have the same dimension size and equal to 2.", "MS_MATMUL_INPUTS_NOT_2D",
     "MindSpore `MatMul`: both inputs must be 2-D matrices"),
    ("RuntimeError: QuantBatchMatMulAllReduce inputs should have the same dimension size and equal to 2.",
     "MS_MATMUL_INPUTS_NOT_2D", "`QuantBatchMatMulAllReduce`: both inputs must be 2-D"),
    ("[ERROR] Invalid mnist file, the image number of /data/mnist/train-images-idx3-ubyte.gz should be 2051, but got "
     "529205256", "MS_MNIST_FILE_NOT_RAW_IDX",
     "the image file's magic number should be 2051, got 529205256: the gzip header (1f 8b 08), so the file is still "
     "gzip-compressed"),
    ("[ERROR] Invalid fashion mnist file, the number of labels in /d/fm/t10k-labels-idx1-ubyte should be 2049, but got "
     "1013478509.", "MS_MNIST_FILE_NOT_RAW_IDX", "the label file's magic number should be 2049, got 1013478509: the "
     "bytes '<!DO' or '<htm', so the file is an HTML page"),
    ("[ERROR] Invalid kmnist file, the image number of /d/k/train-images-idx3-ubyte should be 2051, but got 2049",
     "MS_MNIST_FILE_NOT_RAW_IDX", "MindSpore kmnist dataset: invalid MNIST file `/d/k/train-images-idx3-ubyte`, not a "
     "raw idx file: the image file's magic number should be 2051, got 2049"),
    ("[ERROR] Invalid mnist file, the first data length of /d/m/t10k-images-idx3-ubyte should be 16 bytes(contains "
     "type, number, row and column), but got 0.", "MS_MNIST_FILE_NOT_RAW_IDX", "the header should be 16 bytes, got 0 bytes"),
    ("[ERROR] Invalid mnist file, the data length of labels in /d/m/t10k-labels-idx1-ubyte should be 9000, but got 10000.",
     "MS_MNIST_FILES_SIZE_OR_COUNT_MISMATCH", "the file holds 9000 labels, but its header says 10000"),
    ("[ERROR] Invalid emnist file, shape of image in /d/e/emnist-letters-train-images-idx3-ubyte should be (28, 28), but "
     "got (32, 32).", "MS_MNIST_FILES_SIZE_OR_COUNT_MISMATCH", "its images are (32, 32), not (28, 28)"),
    ("[ERROR] Invalid mnist file, the images number of /d/m/train-images-idx3-ubyte should be equal to the labels number "
     "of /d/m/train-labels-idx1-ubyte, but got images number: 60000, labels number: 10000.",
     "MS_MNIST_FILES_SIZE_OR_COUNT_MISMATCH", "60000 images but 10000 labels: the image file and the label file are not a pair"),
    ("[ERROR] Invalid mnist file, num of images should be equal to num of labels, but got num of images: 1, num of "
     "labels: 2.", "MS_MNIST_FILES_SIZE_OR_COUNT_MISMATCH", "1 images against 2 labels"),
    ("FileNotFoundError: [Errno 2] No such file or directory: 'configs/eval.yaml'",
     "PY_RELATIVE_PATH_NOT_FOUND_FROM_CWD", "A relative path was not found: `configs/eval.yaml` is resolved from the "
     "process's current working directory"),
    ("FileNotFoundError: [Errno 2] No such file or directory: 'model.safetensors'",
     "PY_RELATIVE_PATH_NOT_FOUND_FROM_CWD", "`model.safetensors`"),
    ("TypeError: For save_checkpoint, when save_obj is a list of dict items, the data in dict should be parameter, but "
     "got <class 'float'>.", "MS_SAVE_CHECKPOINT_ARGS_INVALID",
     "save_checkpoint rejected its arguments: a `float` was given as a 'data' value in the save_obj list, not a Tensor "
     "or Parameter"),
    ("TypeError: For save_checkpoint, save_obj should be a list of dict items, and the dict should have key values "
     "'name' and 'value', but got <class 'dict'> and {'name': 'fc.weight', 'value': Tensor(shape=[4, 4]",
     "MS_SAVE_CHECKPOINT_ARGS_INVALID", "not a dict with the keys 'name' and 'data'"),
    ("TypeError: For save_checkpoint, when save_obj is a list of dict items, the name in dict should be string, but got "
     "<class 'int'>.", "MS_SAVE_CHECKPOINT_ARGS_INVALID", "a 'name' in the save_obj list has type `int`, not a str"),
    ("TypeError: For save_checkpoint, when save_obj is made up by list of Parameter,the param should be parameter, but "
     "got <class 'mindspore.common.tensor.Tensor'>", "MS_SAVE_CHECKPOINT_ARGS_INVALID",
     "an item of the save_obj list has type `mindspore.common.tensor.Tensor`, not a Parameter"),
    ("TypeError: For save_checkpoint, when save_obj is made up by dict, the key should be str andvalue should be "
     "Parameter, but got the type of key is <class 'tuple'> andthe type of value is <class 'abc.Parameter'>",
     "MS_SAVE_CHECKPOINT_ARGS_INVALID", "a key of the save_obj dict has type `tuple`, not a str"),
    ("ValueError: For 'CosineDecayLR', the 'max_lr' must be greater than the 'min_lr', but got 'max_lr' value: 0.0, "
     "'min_lr' value: 0.0.", "MS_LR_SCHEDULE_ARGUMENT_INVALID",
     "rejected its argument `max_lr`: it must be greater than the 'min_lr' (got 0.0, min_lr 0.0)"),
    ("ValueError: For 'PolynomialDecayLR', the 'decay_steps' must be int and must > 0, but got '-5' with type 'int'.",
     "MS_LR_SCHEDULE_ARGUMENT_INVALID", "`decay_steps`: it must be int and must > 0 (got -5)"),
    ("RuntimeError: MatMul shape error, got x_col: 128, y_row: 256. In MatMul x_col and y_row should be equal.",
     "MS_MATMUL_INNER_DIM_MISMATCH", "the inner dimensions of the two inputs differ (128 vs 256)"),
    ("ValueError: For BatchMatMul, the row of the input 'y' should be same as the col of the input 'x', with x shape "
     "[const vector]{4, 32, 64}(transpose_a=0), y shape [const vector]{4, 48, 10}(transpose_b=0)",
     "MS_MATMUL_INNER_DIM_MISMATCH", "MindSpore `BatchMatMul`: the inner dimensions of the two inputs differ (64 vs 48)"),
    ("ValueError: For BatchMatMul, the row of the input 'y' should be same as the col of the input 'x', with x shape "
     "[const vector]{4, 64, 32}(transpose_a=1), y shape [const vector]{4, 10, 48}(transpose_b=1)",
     "MS_MATMUL_INNER_DIM_MISMATCH", "MindSpore `BatchMatMul`: the inner dimensions of the two inputs differ, as when"),
]


@pytest.mark.parametrize("line, sig_id, said", MEMBERS)
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "FileNotFoundError: [Errno 2] No such file or directory: '/data/configs/eval.yaml'",
    "FileNotFoundError: [Errno 2] No such file or directory: 'configs/a.yaml' -> 'configs/b.yaml'",
    "FileNotFoundError: [Errno 2] No such file or directory: 'nvidia-smi'",
    "FileNotFoundError: [Errno 2] No such file or directory: 'bash run.sh -c configs/x.yaml'",
])
def test_an_absolute_path_a_rename_or_a_program_is_not_called_relative(kb, line):
    assert "PY_RELATIVE_PATH_NOT_FOUND_FROM_CWD" not in [s.id for s in kb.explaining(line)]


def test_a_save_checkpoint_type_member_does_not_claim_the_key_names(kb):
    line = next(m[0] for m in MEMBERS if "the data in dict should be parameter" in m[0])
    title = explained_title(kb, line, "MS_SAVE_CHECKPOINT_ARGS_INVALID", among=FAMILY)
    assert "'value'" not in title and "keys" not in title, title


QUIET = [
    "[INFO] MD(1,7f,python):2026-01-01-10:00:00.000.000 [mnist_op.cc:240] Mnist operator found image file at "
    "train-images-idx3-ubyte.",
    "Extracting train-images-idx3-ubyte.gz to ./mnist", "magic number 2051 marks an MNIST image file",
    "RuntimeError: MixUpBatch: num of images should be equal to num of labels, but got num of images: 32, num of labels: 31.",
    "out = ops.MatMul()(x, w)  # x: (n, k), w: (k, m)", "MatMul inputs must be 2-D; use BatchMatMul for batches",
    "[WARNING] ME(1:2,MainProcess):2026-01-01 No such file or directory: 'configs/train.yaml', using defaults",
    "open('configs/train.yaml') failed? check the working directory",
    "ms.save_checkpoint([{'name': n, 'data': ms.Tensor(a)} for n, a in w.items()], 'net.ckpt')",
    "lr = nn.CosineDecayLR(min_lr=0.01, max_lr=0.1, decay_steps=1000)",
    "epoch: 1 step: 10, loss is 2.3011", "MatMul shape error checks x_col and y_row",
]


@pytest.mark.parametrize("line", QUIET)
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS + EXTENDED) == []
    for sid in IDS:
        for line in kb.signature(sid).examples:
            assert [s.id for s in kb.explaining(line) if s.id in FAMILY] == [sid], (sid, line)
