"""data/kb/families_py_builtins.json: CPython's own exception messages as users' scripts and the libraries they call
raise them (round 14's platform catalogue). Each entry reads the members of its family in the wordings of Python 3.8
to 3.13 (provoked on 3.8.18 and 3.13.0: /work/fi/py_builtins), says the cause with the value the line names, reads
members its examples do not show, takes over from PY_SCRIPT_EXCEPTION (which now excludes those forms) and, its
class entries being of last resort, gives way to any entry that reads a member more specifically; it stays quiet on ordinary lines (a warning that quotes an exception, a
traceback's source line) and on every clean excerpt of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_py_builtins")
# other parts' entries this part extends (Python 3.8's forms, the signature errors' other wordings)
EXTENDED = ["PY_CALL_SIGNATURE_MISMATCH", "PY_PACKAGE_METADATA_NOT_FOUND"]
# the entries of other parts that read members of the same catalogue
# (PY_SCRIPT_EXCEPTION is not among them: it is the last resort these entries are reported instead of)
FAMILY = IDS + EXTENDED + ["LAUNCH_ARGUMENTS_REJECTED", "FRAMEWORK_NAME_NOT_IMPORTABLE",
                           "PY_ASCEND_PACKAGE_NAME_MISSING", "PY_MODULE_NOT_INSTALLED",
                           "TEXT_VALUE_NOT_A_NUMBER", "PY_RECURSION_LIMIT_EXCEEDED", "PY_TYPE_ANNOTATION_NEEDS_NEWER_PYTHON",
                           "PY_MODULE_SHADOWED_OR_CIRCULAR_IMPORT", "HF_MODEL_CODE_ATTRIBUTE_MISSING",
                           "CANN_ENV_VARIABLE_KEYERROR", "PY_STDLIB_NAME_REMOVED", "NUMPY_REMOVED_ALIAS_USED"]
FALLBACK = {"PY_VALUE_IS_NONE", "PY_OBJECT_WRONG_TYPE_FOR_OPERATION", "PY_DICT_KEY_NOT_FOUND", "PY_SEQUENCE_INDEX_OUT_OF_RANGE",
            "PY_NAME_NOT_DEFINED", "PY_MODULE_ATTRIBUTE_MISSING", "PY_IMPORT_NAME_NOT_IN_MODULE",
            "PY_SOURCE_SYNTAX_ERROR", "PY_NUMBER_OUT_OF_RANGE", "PY_ASSERTION_FAILED", "PY_DIVISION_BY_ZERO",
            "PY_OBJECT_ATTRIBUTE_MISSING"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert len(IDS) == 49 and len(set(IDS)) == 49
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_py_builtins.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == sig.last_resort == (sid in FALLBACK) and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # None where an object is needed: its other operations
    ("TypeError: 'NoneType' object is not callable", "PY_VALUE_IS_NONE", "'NoneType' object is not callable"),
    ("TypeError: '<' not supported between instances of 'NoneType' and 'int'", "PY_VALUE_IS_NONE",
     "not supported between instances of 'NoneType' and 'int'"),
    ("[rank0]: TypeError: object of type 'NoneType' has no len()", "PY_VALUE_IS_NONE", "has no len()"),
    ("TypeError: float() argument must be a string or a real number, not 'NoneType'", "PY_VALUE_IS_NONE", "float()"),
    ("TypeError: listdir: path should be string, bytes, os.PathLike, integer or None, not float",
     "PY_PATH_ARGUMENT_NOT_A_PATH", "a `float`, not a path (in `listdir()`)"),
    ("TypeError: 'list' object is not callable", "PY_BUILTIN_NAME_SHADOWED", "A `list` value is called"),
    ("TypeError: 'bool' object is not subscriptable", "PY_OBJECT_WRONG_TYPE_FOR_OPERATION",
     "A `bool` value is used where the code needs another kind of object (it is not subscriptable)"),
    ("TypeError: argument of type 'int' is not iterable", "PY_OBJECT_WRONG_TYPE_FOR_OPERATION", "A `int` value"),
    ("TypeError: 'dict_values' object is not subscriptable", "PY_LAZY_ITERATOR_SUBSCRIPTED", "`dict_values` object"),
    ("TypeError: 'builtin_function_or_method' object is not iterable", "PY_FUNCTION_USED_WITHOUT_CALL",
     "`builtin_function_or_method` object is not iterable"),
    ("TypeError: 'str' object does not support item deletion", "PY_IMMUTABLE_OBJECT_ITEM_ASSIGNED", "immutable `str`"),
    ("TypeError: unhashable type: 'slice'", "PY_UNHASHABLE_KEY", "A mutable `slice`"),
    ("TypeError: '>' not supported between instances of 'str' and 'float'", "PY_OPERAND_TYPES_DO_NOT_COMBINE",
     "(`>`: `str` and `float`)"),
    ("TypeError: slice indices must be integers or None or have an __index__ method", "PY_FLOAT_WHERE_INT_NEEDED",
     "slice indices must be integers"),
    ("TypeError: tuple indices must be integers or slices, not str", "PY_INDEX_OF_WRONG_TYPE", "A `str` was used"),
    ("TypeError: %i format: a real number is required, not list", "PY_STRING_FORMAT_MISMATCH", "%i format"),
    ("ValueError: not enough values to unpack (expected 2, got 0)", "PY_UNPACK_COUNT_MISMATCH",
     "not enough values for the 2 names on the left (0 given)"),
    ("TypeError: Can't instantiate abstract class NPUWorker with abstract methods execute_model, init_device",
     "PY_ABSTRACT_CLASS_INSTANTIATED", "Class `NPUWorker` cannot be created"),
    ("KeyError: 'label'", "PY_DICT_KEY_NOT_FOUND", "no key 'label'"),
    ("KeyError: 'pop from an empty set'", "PY_COLLECTION_EMPTY", "(pop from an empty set)"),
    ("IndexError: Cannot choose from an empty sequence", "PY_COLLECTION_EMPTY", "Cannot choose from an empty sequence"),
    ("IndexError: range object index out of range", "PY_SEQUENCE_INDEX_OUT_OF_RANGE", "past the end of a range object"),
    ("NameError: name 'np' is not defined", "PY_NAME_NOT_DEFINED", "Name `np` is not defined"),
    ("NameError: name 'unicode' is not defined", "PY2_CODE_ON_PY3", "(`unicode`)"),
    ("UnboundLocalError: cannot access local variable 'loss' where it is not associated with a value",
     "PY_LOCAL_READ_BEFORE_ASSIGNMENT", "Variable `loss`"),
    ("AttributeError: module 'yaml' has no attribute 'FullLoader'", "PY_MODULE_ATTRIBUTE_MISSING",
     "Module `yaml` has no attribute `FullLoader`"),
    ("ImportError: cannot import name 'loadz' from 'json' (/opt/conda/lib/python3.10/json/"
     "__init__.py)", "PY_IMPORT_NAME_NOT_IN_MODULE", "`loadz` cannot be imported from `json`"),
    ("AttributeError: can't set attribute 'pad_token'", "PY_READ_ONLY_PROPERTY_ASSIGNED", "assigns to `pad_token`"),
    ("IndentationError: unexpected unindent", "PY_SOURCE_INDENTATION_INCONSISTENT", "(unexpected unindent)"),
    ("SyntaxError: invalid non-printable character U+200B", "PY_SOURCE_INVALID_CHARACTER", "(U+200B)"),
    ("SyntaxError: f-string: expecting '}'", "PY_SOURCE_SYNTAX_ERROR", "(f-string: expecting '}')"),
    ("OverflowError: Python int too large to convert to C ssize_t", "PY_NUMBER_OUT_OF_RANGE", "C ssize_t"),
    ("ValueError: readline of closed file", "PY_FILE_USED_AFTER_CLOSE", "after it was closed"),
    ("ValueError: 'eos' is not in list", "PY_VALUE_NOT_IN_SEQUENCE", "('eos')"),
    ("ValueError: mutable default <class 'transformers.training_args.TrainingArguments'> for field args is not "
     "allowed: use default_factory", "PY_DATACLASS_FIELD_REJECTED", "at field `args`"),
    ("sre_constants.error: unbalanced parenthesis at position 7", "PY_REGEX_PATTERN_INVALID",
     "(unbalanced parenthesis at position 7)"),
    ("ValueError: source code string cannot contain null bytes", "PY_TEXT_HAS_NUL_BYTE", "source code string"),
    ("TypeError: cannot use a string pattern on a bytes-like object", "PY_BYTES_AND_STR_MIXED",
     "cannot use a string pattern on a bytes-like object"),
    ("TypeError: sequence item 1: expected str instance, float found", "PY_STR_JOIN_NON_STRING",
     "a `float` at item 1"),
    ("RuntimeError: deque mutated during iteration", "PY_COLLECTION_CHANGED_DURING_ITERATION", "A deque was changed"),
    ("StopAsyncIteration", "PY_ITERATOR_EXHAUSTED", "(StopAsyncIteration)"),
    ("ZeroDivisionError: float divmod()", "PY_DIVISION_BY_ZERO", "(float divmod())"),
    ("AttributeError: 'DataParallel' object has no attribute 'config'", "PY_OBJECT_ATTRIBUTE_MISSING",
     "class `DataParallel` has no attribute `config`"),
    ("ValueError: zip() argument 2 is longer than argument 1", "PY_ZIP_STRICT_LENGTHS_DIFFER", "argument 2 is longer"),
    ("TypeError: write() argument must be str, not list", "PY_TEXT_WRITE_GOT_NON_STRING", "given a `list`"),
    ("ValueError: dictionary update sequence element #2 has length 3; 2 is required", "PY_DICT_BUILT_FROM_NON_PAIRS",
     "element #2 has length 3"),
    ("shutil.SameFileError: 'out/a.bin' and 'out/a.bin' are the same file", "PY_FILE_COPIED_ONTO_ITSELF", "'out/a.bin'"),
    ("ValueError: 'ckpt/x' is not in the subpath of '/data'", "PY_PATH_NOT_UNDER_BASE", "'ckpt/x' is not under '/data'"),
    ("[rank2]: KeyError: 'WORLD_SIZE'", "PY_LAUNCHER_ENV_VARIABLE_NOT_SET", "variable `WORLD_SIZE`"),
    ("AssertionError: expected 8 devices, found 4", "PY_ASSERTION_FAILED", ": expected 8 devices, found 4"),
    ("SyntaxError: Non-UTF-8 code starting with '\\xb5' in file train.py on line 3, but no encoding declared; see "
     "https://peps.python.org/pep-0263/ for details", "PY_SOURCE_NOT_UTF8", "`train.py`"),
    ("TypeError: int() argument must be a string, a bytes-like object or a number, not 'NoneType'",
     "PY_VALUE_IS_NONE", "or a number, not 'NoneType'"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("TypeError: zip() takes no keyword arguments", "PY_CALL_SIGNATURE_MISMATCH", "`zip()` takes no keyword arguments"),
    ("TypeError: Qwen2Model() takes no arguments", "PY_CALL_SIGNATURE_MISMATCH", "takes no arguments"),
    ("TypeError: load() takes from 1 to 2 positional arguments but 3 were given", "PY_CALL_SIGNATURE_MISMATCH",
     "takes from 1 to 2 positional arguments but 3 were given"),
    ("TypeError: f() got some positional-only arguments passed as keyword arguments: 'x'",
     "PY_CALL_SIGNATURE_MISMATCH", "positional-only"),
    ("importlib.metadata.PackageNotFoundError: mindformers", "PY_PACKAGE_METADATA_NOT_FOUND", "`mindformers`"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line, other", [
    # a member another entry reads more specifically keeps that entry
    ("AttributeError: 'NoneType' object has no attribute 'shape'", "MS_NONETYPE_HAS_NO_SHAPE"),
    ("TypeError: unsupported operand type(s) for |: 'type' and 'NoneType'", "PY_TYPE_ANNOTATION_NEEDS_NEWER_PYTHON"),
    ("KeyError: 'ASCEND_HOME_PATH'", "CANN_ENV_VARIABLE_KEYERROR"),
    ("AttributeError: module 'numpy' has no attribute 'float'", "NUMPY_REMOVED_ALIAS_USED"),
    ("ImportError: cannot import name 'Mapping' from 'collections' (/usr/lib/python3.11/collections/__init__.py)",
     "PY_STDLIB_NAME_REMOVED"),
    ("NameError: name 'torch_npu' is not defined", "PY_ASCEND_PACKAGE_NAME_MISSING"),
    ("AttributeError: module 'mindspore' has no attribute 'mint'", "MS_API_REMOVED_OR_MOVED"),
    ("ImportError: cannot import name 'LlamaTokenizer' from 'transformers' (/usr/lib/python3/site-packages/"
     "transformers/__init__.py)", "FRAMEWORK_NAME_NOT_IMPORTABLE"),
    ("AttributeError: module 'random' has no attribute 'randint' (consider renaming '/work/fi/py_builtins/s/14_shadow/"
     "random.py' since it has the same name as the standard library module named 'random' and prevents importing that "
     "standard library module)", "PY_MODULE_SHADOWED_OR_CIRCULAR_IMPORT"),
    ("ValueError: could not convert string to float: '1,5'", "TEXT_VALUE_NOT_A_NUMBER"),
])
def test_a_more_specific_entry_keeps_its_member(kb, line, other):
    # and PY_SCRIPT_EXCEPTION, the last resort, gives way to this part's entries on its own examples
    assert [s.id for s in kb.explaining(line)] == [other]


@pytest.mark.parametrize("line", [
    "    bs = cfg['batch_size']",
    "    assert hidden % heads == 0, 'hidden must be divisible'",
    "Traceback (most recent call last):",
    "During handling of the above exception, another exception occurred:",
    "2026-12-06 04:31:02,684 - data - WARNING - skipping row 1: KeyError: 'text'",
    "2026-12-06 04:31:02,684 - data - INFO - kept 2 of 3 rows; retrying on StopIteration and IndexError is not needed",
    "assert checks passed: 3/3, AssertionError count 0",
    "[INFO] caught TypeError: 'NoneType' object is not subscriptable in optional plugin, continuing",
    "UserWarning: TypeError: unhashable type: 'list' while hashing the config; caching disabled",
    "test_key (__main__.T.test_key) ... ok",
    "step 4 loss 0.9321",
    "StopIteration handled: epoch 3 finished",
    "except (KeyError, IndexError, StopIteration):",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    # a warning or info line that quotes an exception is not the failure; a traceback's source line is not an event
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


@pytest.mark.parametrize("line, sig_id", [
    ("KeyError: 'batch_size'", "PY_DICT_KEY_NOT_FOUND"),
    ("IndexError: list index out of range", "PY_SEQUENCE_INDEX_OUT_OF_RANGE"),
    ("[rank1]: NameError: name 'args' is not defined", "PY_NAME_NOT_DEFINED"),
    ("ZeroDivisionError: integer division or modulo by zero", "PY_DIVISION_BY_ZERO"),
    ("AttributeError: type object 'Model' has no attribute 'build'", "PY_OBJECT_ATTRIBUTE_MISSING"),
    ("UnboundLocalError: local variable 'x' referenced before assignment", "PY_LOCAL_READ_BEFORE_ASSIGNMENT"),
    ("AssertionError", "PY_ASSERTION_FAILED"),
])
def test_the_script_exception_leaves_the_members_named_by_cause(kb, line, sig_id):
    # both are of last resort: PY_SCRIPT_EXCEPTION excludes the forms this part reads, or both would be reported
    assert [s.id for s in kb.explaining(line)] == [sig_id]
    assert "PY_SCRIPT_EXCEPTION" not in [s.id for s in kb.match_line(line)]
