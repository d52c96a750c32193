"""Round 27's precision mends: the statements the fifth audit of what triage says beside the fault
(tests/fixtures/precision_audit_r27) judged false or misleading, each on the real line the audit read. An entry no
longer says a cause its line does not show; where another entry reads the line truly, that one explains it; an effect
of a failure logged beside it is linked to it (tests/triage/test_effects.py AUDITED holds those excerpts)."""

import pytest

from tests.helpers.kb_parts import assert_moved, assert_says, english_kb


@pytest.fixture(scope="module")
def kb():
    return english_kb()


# (the audited line, the entry that must no longer speak of it, the entry that reads it truly or None)
MOVED = [
    # a FileNotFoundError that names no file: getcwd on a deleted working directory (6b-25)
    ("FileNotFoundError: [Errno 2] No such file or directory", "FW_FILE_NOT_FOUND", "OS_ERRNO_REPORTED"),
    # ImageFolderDataset found no files: no DVPP operation ran (6b-49)
    ("[ERROR] MD(21377,7f793fefd6c0,python):2026-12-06-22:21:32.373.255 [mindspore/ccsrc/minddata/dataset/util/"
     "task_manager.cc:256] InterruptMaster] MindSpore dataset is terminated with err msg: Exception thrown from dataset "
     "pipeline. Refer to 'Dataset Pipeline Error Message'. Invalid data, ImageFolderDataset API can't read the data file "
     "(interface mismatch or no data found). Check image folder file path: ./data/train", "MS_DVPP_INVALID_DATA",
     "MS_DATASET_FILES_MISSING"),
    # numpy scalars not recognised: torch's NumPy bridge did not load, the data is numeric (6a-6)
    ("RuntimeError: Could not infer dtype of numpy.float32", "TORCH_TENSOR_FROM_NON_NUMERIC_DATA", "NUMPY2_INCOMPATIBLE"),
    # a name NumPy 2.0 removed, not a missing module (6c-40)
    ("EC0010: 2025-04-16-13:15:44.018.468 Failed to import Python module [AttributeError: `np.float_` was removed in "
     "the NumPy 2.0 release. Use `np.float64` instead..].", "CANN_PY_DEPS_MISSING_INIT_ENV", "NUMPY2_REMOVED_NAME_USED"),
    # pyACL comes with the CANN toolkit, not from pip (6a-9)
    ("ModuleNotFoundError: No module named 'acl'", "PY_MODULE_NOT_INSTALLED", "CANN_PYACL_NOT_IMPORTABLE"),
    # fault-diag's propagation chain: the notify wait timeout is the last effect of a link down (6a-2)
    ("|              |            | Fault code 1 (Link Down: NPU intermittent disconnection error) -> Fault code 2 "
     "(excessive RDMA retransmissions) -> Fault code 3 (notify wait timeout)     |", "HCCL_EI0002_NOTIFY_WAIT_TIMEOUT",
     None),
]


@pytest.mark.parametrize("line, gone, reader", MOVED)
def test_a_line_is_no_longer_read_by_an_entry_that_misread_it(kb, line, gone, reader):
    assert_moved(kb, line, gone, reader)


# (the audited line, the entry, which part of its statement: 0 title, 1 cause, 2 fix steps, the phrase it says, a
# phrase it no longer says or None)
MENDED = [
    # the STARS report alone is a failed task, not a stuck error handling (6a-44)
    ("11:05:31.652  PrintTaskErrorMsg: Task run failed, stream_id=59, sqe_type=5(aicpu_d), errType=0x1(task exception)",
     "RT_STARS_TASK_ERROR_POLL_TIMEOUT", 0, "A task failed on the device", "interrupt post-processing stuck"),
    # a CastError says why after the line; nothing is chained above it (6c-5)
    ("datasets.exceptions.DatasetGenerationCastError: An error occurred while generating the dataset",
     "DATASETS_GENERATION_FAILED", 0, "or the lines after it", None),
    # the hub answered 429 (6c-32)
    ("huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on the Hub and "
     "we cannot find the requested files in the local cache. Please check your connection and try again or make sure "
     "your Internet connection is on.", "MODEL_HUB_UNREACHABLE", 0, "or the hub refused the request", None),
    ("huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on the Hub and "
     "we cannot find the requested files in the local cache. Please check your connection and try again or make sure "
     "your Internet connection is on.", "MODEL_HUB_UNREACHABLE", 1, "HTTP 429", None),
    # the legacy `setup.py install` step, not a build (6c-38)
    ("  error: subprocess-exited-with-error", "PIP_PACKAGE_BUILD_FAILED", 0, "or install what it built", None),
    # ERR99999 over a plain Python exception (6c-45)
    ("[ERROR] 2024-10-12-11:58:06 (PID:1727, Device:0, RankID:-1) ERR99999 UNKNOWN application exception",
     "TORCH_NPU_ERR_CODE_WRAPPER", 1, "often a plain Python exception", None),
    # the map operation's reason is its Error description, not the data file's name (6c-12, 6c-15)
    ("E    map operation: [PyFunc] failed. The corresponding data file is: ../ut/data/dataset/testImageNetData2/train/"
     "class1/1_1.jpg. Error description:", "MS_DATASET_MAP_OP_FAILED", 0, "the map operation `PyFunc` failed",
     "The corresponding data file"),
    ("E    map operation: [PyFunc] failed. The corresponding data file is: ../ut/data/dataset/testImageNetData2/train/"
     "class1/1_1.jpg. Error description:", "MS_DATASET_MAP_OP_FAILED", 1, "device or runtime error", None),
    # EAGAIN on a lock another job holds (6b-35)
    ("BlockingIOError: [Errno 11] Resource temporarily unavailable", "OS_ERRNO_REPORTED", 0, "LOCK_NB", None),
]


@pytest.mark.parametrize("line, sig_id, part, phrase, unsaid", MENDED)
def test_a_mended_statement_says_what_is_true_of_its_line(kb, line, sig_id, part, phrase, unsaid):
    assert_says(kb, line, sig_id, part, phrase, unsaid)
