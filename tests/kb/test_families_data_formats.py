"""data/kb/families_data_formats.json: the data and file-format layer a training job reads and writes outside the
frameworks (pandas, NumPy I/O, pyarrow/Parquet, json, PyYAML, pickle, safetensors' save checks, zip/gzip/tar, the csv
module, Pillow, h5py, scikit-learn's input checks), written by fault injection. Each entry reads members its examples
do not show and says the member in its title; ordinary lines, the clean runs' output and every clean excerpt of the
corpus stay quiet; one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_data_formats")
FAMILY = IDS + ["CSV_ROW_FIELD_COUNT_MISMATCH", "DATASETS_JSON_FILE_UNPARSABLE", "PY_FILE_NOT_UTF8_TEXT",
                "PY_LOCALE_CODEC_CANNOT_DECODE", "PY_PICKLE_FILE_EMPTY_OR_CUT", "CHECKPOINT_FILE_UNREADABLE",
                "DVPP_JPEG_DATA_INCOMPLETE", "HF_CONFIG_FILE_NOT_JSON", "PY_MODULE_NOT_INSTALLED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert {"JSON_SYNTAX_ERROR", "YAML_SYNTAX_ERROR", "NUMPY_SHAPES_NOT_BROADCASTABLE", "PARQUET_FILE_NOT_PARQUET",
            "PIL_CANNOT_IDENTIFY_IMAGE", "SKLEARN_INPUT_CONTAINS_NAN"} <= set(IDS)
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_data_formats.json" and not sig.ascend_fd, sid


@pytest.mark.parametrize("line, sig_id, said", [
    ("pandas.errors.ParserError: Error tokenizing data. C error: EOF following escape character",
     "CSV_QUOTED_FIELD_NOT_CLOSED", "`EOF following escape character`"),
    ("KeyError: \"None of [Index(['input', 'output'], dtype='object')] are in the [columns]\"",
     "TABLE_COLUMN_NOT_FOUND", "`['input', 'output']`"),
    ("ValueError: Integer column has NA values in column 3", "MISSING_VALUES_CAST_TO_INTEGER", "(column 3)"),
    ("ValueError: Unable to parse string \"12kg\" at position 40", "TEXT_VALUE_NOT_A_NUMBER", "(12kg)"),
    ("ValueError: could not convert string to float: ''", "TEXT_VALUE_NOT_A_NUMBER", "('')"),
    ("pyarrow.lib.ArrowInvalid: Could not open Parquet input source '<Buffer>': Parquet file size is 0 bytes",
     "PARQUET_FILE_NOT_PARQUET", "`Parquet file size is 0 bytes`"),
    ("ValueError: Table schema does not match schema used to create file: ", "ARROW_TABLE_SCHEMAS_DIFFER",
     "different schemas"),
    ("pyarrow.lib.ArrowTypeError: (\"Expected bytes, got a 'int' object\", 'Conversion failed for column label with "
     "type object')", "ARROW_VALUE_TYPE_CONVERSION_FAILED", "(column `label`)"),
    ("ValueError: Object arrays cannot be saved when allow_pickle=False", "NUMPY_OBJECT_ARRAY_NEEDS_ALLOW_PICKLE",
     "allow_pickle=True"),
    ("ValueError: EOF: reading array data, expected 262144 bytes got 0", "NUMPY_FILE_DATA_TRUNCATED",
     "holds 0 of the 262144"),
    ("zipfile.BadZipFile: Bad CRC-32 for file 'arr_0.npy'", "ARCHIVE_FILE_NOT_OF_ITS_FORMAT",
     "`Bad CRC-32 for file 'arr_0.npy'`"),
    ("OSError: Not a gzipped file (b'<!')", "ARCHIVE_FILE_NOT_OF_ITS_FORMAT", "valid gzip archive"),
    ("zlib.error: Error -3 while decompressing data: invalid stored block lengths", "COMPRESSED_STREAM_CUT_SHORT",
     "invalid stored block lengths"),
    ("KeyError: 'labels is not a file in the archive'", "NPZ_ARRAY_NAME_NOT_IN_ARCHIVE", "`labels`"),
    ("ValueError: setting an array element with a sequence. The requested array has an inhomogeneous shape after 2 "
     "dimensions. The detected shape was (16, 3) + inhomogeneous part.", "NUMPY_RAGGED_SEQUENCE_TO_ARRAY",
     "first 2 dimension"),
    ("ValueError: shape mismatch: value array of shape (3,) could not be broadcast to indexing result of shape (2,)",
     "NUMPY_SHAPES_NOT_BROADCASTABLE", "((3,) into (2,))"),
    ("ValueError: operands could not be broadcast together with remapped shapes [original->remapped]: (2,3)->(2,3) "
     "(4,)->(4,)", "NUMPY_SHAPES_NOT_BROADCASTABLE", "incompatible shapes"),
    ("ValueError: cannot reshape array of size 0 into shape (0,224,224,3)", "NUMPY_RESHAPE_SIZE_MISMATCH",
     "array of 0 elements"),
    ("TypeError: can't convert np.ndarray of type numpy.str_. The only supported types are: float64",
     "TORCH_FROM_NUMPY_OBJECT_ARRAY", "numpy.str_"),
    ("json.decoder.JSONDecodeError: Unterminated string starting at: line 40 column 14 (char 2201)",
     "JSON_SYNTAX_ERROR", "`Unterminated string starting at` at line 40 column 14"),
    ("json.decoder.JSONDecodeError: Extra data: line 1 column 5 (char 4)", "JSON_LINES_READ_AS_ONE_DOCUMENT",
     "line 1"),
    ("TypeError: Object of type ndarray is not JSON serializable", "JSON_OBJECT_NOT_SERIALIZABLE", "`ndarray`"),
    ("found character '@' that cannot start any token", "YAML_CHARACTER_CANNOT_START_TOKEN", "`@`"),
    ("yaml.scanner.ScannerError: while scanning a simple key", "YAML_SYNTAX_ERROR", "`while scanning a simple key`"),
    ("yaml.composer.ComposerError: found undefined alias 'base'", "YAML_SYNTAX_ERROR", "found undefined alias"),
    ("yaml.constructor.ConstructorError: could not determine a constructor for the tag '!include'",
     "YAML_TAG_HAS_NO_CONSTRUCTOR", "`!include`"),
    ("AttributeError: Can't get attribute 'TextDataset' on <module 'data.dataset' from '/work/data/dataset.py'>",
     "PICKLE_CLASS_NOT_FOUND_ON_LOAD", "`TextDataset` from module `data.dataset`"),
    ("_csv.Error: field larger than field limit (1000)", "CSV_FIELD_LARGER_THAN_LIMIT", "(1000 characters)"),
    ("ImportError: Missing optional dependency 'pyarrow'.  Use pip or conda to install pyarrow.",
     "PANDAS_OPTIONAL_DEPENDENCY_MISSING", "`pyarrow`"),
    ("OSError: cannot write mode P as JPEG", "PIL_CANNOT_WRITE_MODE_AS_FORMAT", "`P` as JPEG"),
    ("OSError: Unable to open file (unable to lock file, errno = 37, error message = 'No locks available')",
     "HDF5_FILE_LOCK_FAILED", "(errno 37)"),
    ("KeyError: \"Unable to open object (object 'labels' doesn't exist)\"", "HDF5_OBJECT_NOT_FOUND", "`labels`"),
    ("ValueError: Input y contains infinity or a value too large for dtype('float64').",
     "SKLEARN_INPUT_CONTAINS_NAN", "input y"),
    ("ValueError: Classification metrics can't handle a mix of multilabel-indicator and multiclass targets",
     "SKLEARN_METRIC_TARGET_TYPES_MIXED", "(multilabel-indicator and multiclass)"),
    ("ValueError: Expected 2D array, got scalar array instead:", "SKLEARN_EXPECTED_2D_ARRAY", "scalar"),
    ("ValueError: y contains previously unseen labels: 'neutral'", "SKLEARN_LABEL_NOT_SEEN_IN_FIT", "'neutral'"),
    # round two of the injected faults: the members these lines show that the examples do not
    ("ValueError: Trailing data", "JSON_LINES_READ_AS_ONE_DOCUMENT", "pd.read_json without lines=True"),
    ("ValueError: You are trying to merge on float64 and object columns for key 'user_id'. If you wish to proceed "
     "you should use pd.concat", "PANDAS_MERGE_KEY_DTYPES_DIFFER", "`user_id`"),
    ("ValueError: time data 'N/A' does not match format '%Y-%m-%d %H:%M:%S'", "DATETIME_TEXT_NOT_IN_FORMAT", "'N/A'"),
    ("ValueError: all the input arrays must have same number of dimensions, but the array at index 0 has 3 "
     "dimension(s) and the array at index 5 has 2 dimension(s)", "NUMPY_JOINED_ARRAYS_SHAPES_DIFFER", "size 3 vs 2"),
    ("numpy.exceptions.AxisError: axis -3 is out of bounds for array of dimension 2", "NUMPY_AXIS_OUT_OF_BOUNDS",
     "Axis -3"),
    ("IndexError: index 1000 is out of bounds for axis 1 with size 1000", "NUMPY_INDEX_OUT_OF_BOUNDS",
     "axis 1 of size 1000"),
    ("ValueError: unsupported pickle protocol: 4", "PICKLE_PROTOCOL_NEWER_THAN_PYTHON", "protocol 4"),
    ("TypeError: the JSON object must be str, bytes or bytearray, not NoneType", "JSON_LOADS_GIVEN_NON_TEXT",
     "NoneType"),
    ("pyarrow.lib.ArrowNotImplementedError: Unsupported cast from list<item: int64> to string using function "
     "cast_string", "ARROW_CAST_NOT_SUPPORTED", "from list<item: int64> to string"),
    ("ValueError: Unknown label type: (array([0.1, 0.5]),)", "SKLEARN_UNKNOWN_LABEL_TYPE", "(array([0.1, 0.5]),)"),
    ("ValueError: Found array with 0 feature(s) (shape=(120, 0)) while a minimum of 1 is required by "
     "SelectKBest.", "SKLEARN_EMPTY_INPUT_ARRAY", "0 feature(s)"),
    ("ValueError: conversion from RGB to RBG not supported", "PIL_MODE_CONVERSION_NOT_SUPPORTED", "to mode RBG"),
    ("/usr/lib/python3/site-packages/sklearn/metrics/_classification.py:1565: UndefinedMetricWarning: Recall is "
     "ill-defined and being set to 0.0 in labels with no true samples. Use `zero_division` parameter to control this "
     "behavior.", "SKLEARN_METRIC_UNDEFINED_FOR_DATA", "Recall is ill-defined"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # the clean runs' output (pandas, Parquet, NumPy, json, yaml, pickle, Pillow, h5py, scikit-learn)
    "dtypes: int64(1), str(1)",
    "memory usage: 153.0 bytes",
    "{\"loss\": 0.1, \"error_rate\": 0.0}",
    "errors: 0",
    "{'invalid_count': 0}",
    "<PIL.PngImagePlugin.PngImageFile image mode=RGB size=8x8 at 0x7FD5F6B20D90> RGB (8, 8)",
    "<HDF5 dataset \"x\": shape (3,), type \"<f8\">",
    "/work/fi/data_formats/venv/lib/python3.11/site-packages/sklearn/linear_model/_logistic.py:599: "
    "ConvergenceWarning: lbfgs failed to converge after 1 iteration(s) (status=1):",
    "Increase the number of iterations to improve the convergence (max_iter=1).",
    # the same words in ordinary lines
    "/usr/lib/python3/site-packages/PIL/Image.py:3593: DecompressionBombWarning: Image size (100000000 pixels) "
    "exceeds limit of 89478485 pixels, could be decompression bomb DOS attack.",
    "Removed shared tensor {'lm_head.weight'} while saving. This should be OK, but check by verifying that you don't "
    "receive any warning while reloading",
    "Input X contains 0 missing values",
    "reshaped array of size 150528 into shape (1,3,224,224)",
    "Loaded 2 records (extra data columns ignored)",
    "Generating train split: 1000 examples [00:00, 52631.58 examples/s]",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


def test_a_specific_json_entry_wins_over_the_syntax_class(kb):
    line = "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"
    assert [s.id for s in kb.explaining(line) if s.id in FAMILY] == ["JSON_DOCUMENT_EMPTY_OR_NOT_JSON"]
