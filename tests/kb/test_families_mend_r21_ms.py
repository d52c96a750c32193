"""data/kb/families_mend_r21_ms.json: the round-21 mend for MindSpore and torch: graph mode given a plain Python
object where only @jit_class instances are allowed, and a MindRecord shard read without its .db index file. The
entries of other parts this mend widened say the member their line shows: the cifar folder's missing .bin files,
value_and_grad with neither grad_position nor weights, the MindRecord field's data type, torch.tensor() on a list of
tensors, and the argument counts of a graph function's call. Each entry reads members its examples do not show, says the member in its title, stays quiet on ordinary
lines and on every clean corpus excerpt; one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_mend_r21_ms")
EXTENDED = ["MS_DATASET_FILES_MISSING", "MS_GRAD_POSITION_OR_WEIGHTS_INVALID", "MS_MINDRECORD_DATA_SCHEMA_MISMATCH",
            "TORCH_MULTI_ELEMENT_TENSOR_AS_SCALAR", "MS_FUNC_ARG_COUNT_MISMATCH"]
FAMILY = IDS + EXTENDED + ["MS_GRAPH_UNSUPPORTED_SYNTAX", "MS_JIT_SYNTAX_NOT_SUPPORTED", "MS_DATASET_PIPELINE_EXCEPTION",
                           "MS_DATASET_FILE_NOT_FOUND"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert sorted(IDS) == ["MS_GRAPH_OBJECT_NOT_JIT_CLASS_INSTANCE", "MS_MINDRECORD_DB_INDEX_FILE_MISSING",
                          "MS_MINDRECORD_FILE_MISSING_OR_TOO_SMALL"]
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mend_r21_ms.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback and sig.severity == "fail", sid


MEMBERS = [
    ("TypeError: Only support jit_class instance, but got PythonObject(type: <class '_io.BufferedReader'>, value: "
     "<_io.BufferedReader name='w.bin'>)", "MS_GRAPH_OBJECT_NOT_JIT_CLASS_INSTANCE",
     "only @jit_class instances are supported here, but the compiled code got a plain Python object of type "
     "`_io.BufferedReader`"),
    ("TypeError: Only support jit_class instance, but got PythonObject(type: <class 'contextlib.nullcontext'>, value: "
     "<contextlib.nullcontext object at 0x7f00>)", "MS_GRAPH_OBJECT_NOT_JIT_CLASS_INSTANCE", "`contextlib.nullcontext`"),
    ("RuntimeError: The input: /data/mr/part/train.mindrecord3.db is not exists.", "MS_MINDRECORD_DB_INDEX_FILE_MISSING",
     "the shard's .db index file is missing (`/data/mr/part/train.mindrecord3.db`)"),
    ("RuntimeError: The input: /data/mr/train.mindrecord2 is not exists.", "MS_MINDRECORD_FILE_MISSING_OR_TOO_SMALL",
     "(`/data/mr/train.mindrecord2` does not exist)"),
    ("RuntimeError: The input: /data/mr/shard0 should be a regular file.", "MS_MINDRECORD_FILE_MISSING_OR_TOO_SMALL",
     "(`/data/mr/shard0` is not a regular file)"),
    ("RuntimeError: Invalid file, the size of mindrecord file: 5 is smaller than the lower limit: 8.",
     "MS_MINDRECORD_FILE_MISSING_OR_TOO_SMALL", "(the file is 5 bytes, below the minimum of 8)"),
    (" Please check file path: /data/mr/train.mindrecord.db and use 'FileWriter' to generate valid mindrecord files.",
     "MS_MINDRECORD_FILE_MISSING_OR_TOO_SMALL", "(`/data/mr/train.mindrecord.db` is below the minimum size)"),
    ("[ERROR] MD(7,7f,python):2026-01-01-10:00:00.000.000 [mindspore/ccsrc/minddata/dataset/engine/datasetops/source/"
     "cifar_op.cc:223] GetCifarFiles] Invalid cifar folder, cifar(.bin) files are missing under /home/u/cifar-10-python.",
     "MS_DATASET_FILES_MISSING", "the cifar folder `/home/u/cifar-10-python` lacks the cifar(.bin) files it reads"),
    ("ValueError: `grad_position` and `weights` can not be None at the same time.", "MS_GRAD_POSITION_OR_WEIGHTS_INVALID",
     "(grad_position and weights are both None: nothing to differentiate)"),
    ("IndexError: Position index 2 is exceed input size.", "MS_GRAD_POSITION_OR_WEIGHTS_INVALID",
     "(position 2 is past its inputs)"),
    ("[WARNING] ME(1:2,MainProcess):2026-01-01-10:00:00.000.000 [mindspore/mindrecord/filewriter.py:638] for schema, 3 th "
     "data is wrong, data type: 'float32' for field: 'image' is not matched.", "MS_MINDRECORD_DATA_SCHEMA_MISMATCH",
     "dropped rows that do not match the schema (field image) (data type float32 not matched)"),
    ("[WARNING] ME(1:2,MainProcess):2026-01-01-10:00:00.000.000 [mindspore/mindrecord/filewriter.py:638] for schema, 0 th "
     "data is wrong, data shape: '(3, 4)' for field: 'data' is not matched.", "MS_MINDRECORD_DATA_SCHEMA_MISMATCH",
     "do not match the schema (field data)"),
    ("TypeError: The parameters number of the function is 2, but the number of provided arguments is 3.",
     "MS_FUNC_ARG_COUNT_MISMATCH", "called with the wrong number of arguments (it takes 2, the call gave 3)"),
    ("ValueError: only one element tensors can be converted to Python scalars", "TORCH_MULTI_ELEMENT_TENSOR_AS_SCALAR",
     "or torch.tensor() on a list of tensors"),
]


@pytest.mark.parametrize("line, sig_id, said", MEMBERS)
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


def test_a_shape_member_does_not_claim_a_data_type(kb):
    line = next(m[0] for m in MEMBERS if "data shape:" in m[0])
    title = explained_title(kb, line, "MS_MINDRECORD_DATA_SCHEMA_MISMATCH", among=FAMILY)
    assert "data type" not in title, title


QUIET = [
    "@jit_class", "class Counter:  # decorated with jit_class for graph mode",
    "Only jit_class instances are supported inside construct; see the jit_class docs.",
    "[INFO] MD: index file /data/train.mindrecord.db loaded", 
    "writer.commit()  # writes train.mindrecord and train.mindrecord.db",
    "raise RuntimeError(\"The input: {} is not exists.\".format(filename))",
    "grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)",
    "Cifar10Dataset(dataset_dir='data/cifar-10-batches-bin', usage='train')",
    "emb = torch.stack(batch_embeddings)", "Please check file path and permission.",
    "[INFO] MD: mindrecord file size 1048576 bytes", "The parameters number of the function is 2.",
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
