"""data/kb/families_pthf_r20.json: PyTorch and the Hugging Face libraries as Python (round 20) — the faults users
report that no earlier entry named: an operator's same-dtype check (a Long target for a Float loss), a flipped NumPy
array given to torch, detach_() on a view (DDP's bucket-view gradients), a
TCPStore asking for libuv in a build without it, datasets' casts (values that do not fit a feature type; CastError's first line now
read by DATASETS_DATA_FILES_COLUMNS_DIFFER), features that cannot be aligned, row counts that differ, a column name already taken, a ClassLabel out
of range, save_to_disk over its own files, a feature dtype name pyarrow does not know, a Trainer scheduler that needs
evaluation and a quantization_config the checkpoint overrides. Each entry reads members its examples do not show, says
the member in its title, stays quiet on ordinary lines and on every clean corpus excerpt, and one line is one problem
of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_pthf_r20")
EXTENDED = ["DATASETS_COLUMN_NOT_FOUND", "DATASETS_DATA_FILES_COLUMNS_DIFFER"]
FAMILY = IDS + EXTENDED


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) == 13 and "TORCH_OPERANDS_DTYPE_DIFFERS" in IDS and "DATASETS_CAST_ARRAY_TYPE_FAILED" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_pthf_r20.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback, sid
        assert sig.severity == ("warn" if sid == "HF_QUANTIZATION_CONFIG_FROM_MODEL_WINS" else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    ("[rank0]: RuntimeError: Found dtype Double but expected Float", "TORCH_OPERANDS_DTYPE_DIFFERS", "`Double`"),
    ("RuntimeError: Found dtype Float but expected Half", "TORCH_OPERANDS_DTYPE_DIFFERS", "expected `Half`"),
    ("ValueError: At least one stride in the given numpy array is negative, and tensors with negative strides are not "
     "currently supported. (You can probably work around this by making a copy of your array  with array.copy().) ",
     "TORCH_FROM_NUMPY_NEGATIVE_STRIDES", "negative stride"),
    ("[rank3]: RuntimeError: Can't detach views in-place. Use detach() instead.", "TORCH_DETACH_VIEW_IN_PLACE",
     "gradient_as_bucket_view"),
    ("RuntimeError: use_libuv was requested but PyTorch was build without libuv support", "TORCH_TCPSTORE_LIBUV_NOT_BUILT",
     "USE_LIBUV=0"),
    ("All the data files must have the same columns, but at some point there are 2 new columns ({'id', 'meta'})",
     "DATASETS_DATA_FILES_COLUMNS_DIFFER", "there are 2 new columns ({'id', 'meta'})"),
    ("All the data files must have the same columns, but at some point there are 1 missing columns ({'label'})",
     "DATASETS_DATA_FILES_COLUMNS_DIFFER", "1 missing columns"),
    ("datasets.table.CastError: Couldn't cast", "DATASETS_DATA_FILES_COLUMNS_DIFFER", "same columns"),
    ("TypeError: Couldn't cast array of type struct<a: int64> to string", "DATASETS_CAST_ARRAY_TYPE_FAILED",
     "of type `struct<a: int64>` to `string`"),
    ("TypeError: Couldn't cast array of type", "DATASETS_CAST_ARRAY_TYPE_FAILED", "could not cast"),
    ("ValueError: The features can't be aligned because the key label of features {'text': Value(dtype='string', "
     "id=None), 'label': Value(dtype='float64', id=None)} has unexpected type - Value(dtype='float64', id=None) "
     "(expected either Value(dtype='int64', id=None) or Value(\"null\").", "DATASETS_FEATURES_NOT_ALIGNED", "`label`"),
    ("ValueError: The examples iterables can't have duplicated columns but columns ['text'] are duplicated.",
     "DATASETS_COLUMN_NAME_ALREADY_USED", "`['text']`"),
    ("ValueError: New column name labels already in the dataset. Please choose a column name which is not already in "
     "the dataset. Current columns in the dataset: ['text', 'labels']", "DATASETS_COLUMN_NAME_ALREADY_USED", "`labels`"),
    ("ValueError: Class label 10 greater than configured num_classes 10", "DATASETS_CLASS_LABEL_INVALID",
     "below num_classes (10)"),
    ("ValueError: Invalid string class label Positive", "DATASETS_CLASS_LABEL_INVALID", "`Positive`"),
    ("PermissionError: Tried to overwrite /home/u/data/tokenized but a dataset can't overwrite itself.",
     "DATASETS_SAVE_TO_DISK_OVER_ITSELF", "`/home/u/data/tokenized`"),
    ("ValueError: Neither str nor str_ seems to be a pyarrow data type. Please make sure to use a correct data type",
     "DATASETS_FEATURE_DTYPE_UNKNOWN", "`str`"),
    ("ValueError: lr_scheduler_type greedy requires an eval strategy", "HF_TRAINER_SCHEDULER_NEEDS_EVAL_STRATEGY",
     "`greedy`"),
    ("[transformers] You passed `quantization_config` or equivalent parameters to `from_pretrained` but the model "
     "you're loading already has a `quantization_config` attribute. The `quantization_config` from the model will be "
     "used.", "HF_QUANTIZATION_CONFIG_FROM_MODEL_WINS", "checkpoint's quantization settings"),
    ("ValueError: Column 'score' not found in the dataset. Please provide a column selected in: ['text', 'label']",
     "DATASETS_COLUMN_NOT_FOUND", "`score`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "dtype: torch.float32", "Found 1000 examples of dtype int64", "labels = labels.float()",
    "img = np.ascontiguousarray(img[:, :, ::-1])", "x = x.detach()", "gradient_as_bucket_view=True",
    "Distributed environment: MULTI_GPU  Backend: nccl", "export USE_LIBUV=0",
    "Casting the dataset: 100%|██████████| 500/500 [00:00<00:00, 9000.00 examples/s]",
    "Generating train split: 1000 examples [00:00, 20000.00 examples/s]",
    "concatenate_datasets([train, extra])", "Number of rows: 1000", "ds = ds.add_column('idx', list(range(len(ds))))",
    "ClassLabel(names=['neg', 'pos'])", "Saving the dataset (1/1 shards): 100%|██████████| 1000/1000",
    "features = Features({'text': Value('string'), 'label': Value('int64')})",
    "lr_scheduler_type: cosine", "quantization_config: BitsAndBytesConfig(load_in_4bit=True)",
    "{'loss': 2.31, 'grad_norm': 1.2, 'learning_rate': 5e-05, 'epoch': 0.1}",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in FAMILY] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, FAMILY) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
