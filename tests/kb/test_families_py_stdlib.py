"""data/kb/families_py_stdlib.json: the Python standard library's module exceptions as users' scripts and tools raise
them (round 15): sqlite3 with SQLite's result texts, configparser, argparse's parser definition, asyncio,
multiprocessing.connection, concurrent.futures, queue, threading, shutil, logging, csv, struct, base64 / hex, codecs,
datetime, decimal, ctypes, signal, venv, input(), urllib / http.client and zoneinfo, each in the wordings of Python 3.8
to 3.13 as provoked in /work/fi/py_stdlib. Each entry reads members its examples do not show, says the member in its
title, stays quiet on ordinary lines that share its words and on every clean excerpt of the corpus, and one line is
one problem of the family."""

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_py_stdlib")
# entries of other parts this part extended (argparse's other parse errors; lzma's and zlib's format errors)
EXTENDED = ["LAUNCH_ARGUMENTS_REJECTED", "ARCHIVE_FILE_NOT_OF_ITS_FORMAT", "COMPRESSED_STREAM_CUT_SHORT",
            "TOML_FILE_SYNTAX_ERROR", "JSON_OBJECT_NOT_SERIALIZABLE"]
WARNINGS = {"ASYNCIO_TASK_DESTROYED_PENDING", "PY_COROUTINE_NEVER_AWAITED", "PY_LOGGING_CALL_FAILED",
            "ASYNCIO_TASK_EXCEPTION_NEVER_RETRIEVED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) >= 45 and len(set(IDS)) == len(IDS)
    for sid in IDS:
        sig = kb.signature(sid)
        # struct's messages and queue's Empty are class entries: a library's own entry on an exception it became wins
        # (Pillow's `OSError: image file is truncated` raised from a struct.error, torch's `DataLoader worker (pid(s)
        # N) exited unexpectedly` from a `_queue.Empty`)
        assert sig.kind == "root" and not sig.ascend_fd, sid
        assert sig.fallback == (sid in ("PY_STRUCT_DATA_DOES_NOT_FIT", "PY_QUEUE_GET_FOUND_NOTHING")), sid
        assert sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # sqlite3: SQLAlchemy's wrapping, the other lock and corruption texts, other constraint kinds
    ("sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) database table is locked",
     "SQLITE_DATABASE_LOCKED", "`database table is locked`"),
    ("OperationalError: database is locked", "SQLITE_DATABASE_LOCKED", "Another connection holds a lock"),
    ("sqlite3.DatabaseError: file is encrypted or is not a database", "SQLITE_FILE_NOT_A_DATABASE_OR_DAMAGED",
     "`file is encrypted or is not a database`"),
    ("sqlite3.OperationalError: no such column: runs.status", "SQLITE_TABLE_OR_COLUMN_MISSING",
     "no column `runs.status`"),
    ("sqlite3.IntegrityError: CHECK constraint failed: lr_positive", "SQLITE_CONSTRAINT_FAILED",
     "CHECK constraint on `lr_positive`"),
    ("sqlite3.OperationalError: table runs has 3 columns but 2 values were supplied", "SQLITE_STATEMENT_DOES_NOT_FIT",
     "`table runs has 3 columns but 2 values were supplied`"),
    ("sqlite3.ProgrammingError: You can only execute one statement at a time.", "SQLITE_STATEMENT_DOES_NOT_FIT",
     "one statement at a time"),
    ("sqlite3.OperationalError: attempt to write a readonly database", "SQLITE_READONLY_DATABASE", "not writable"),
    # configparser: a file without the 'While reading' prefix, the depth error, the BOM case
    ("configparser.DuplicateSectionError: Section 'model' already exists", "CONFIGPARSER_DUPLICATE_ENTRY",
     "Section 'model' twice"),
    ("configparser.InterpolationDepthError: Recursion limit exceeded in value substitution: option 'a' in section "
     "'b' contains an interpolation key which cannot be substituted in 10 steps. Raw value: '%(a)s'",
     "CONFIGPARSER_PERCENT_IN_VALUE", "Recursion limit exceeded"),
    ("NoSectionError: No section: 'paths'", "CONFIGPARSER_SECTION_MISSING", "no section `'paths'`"),
    # argparse: the plural wording
    ("argparse.ArgumentError: argument --seed: conflicting option strings: -s, --seed",
     "ARGPARSE_OPTION_DEFINED_TWICE", "`-s, --seed` twice"),
    # asyncio: the 3.12+ loop-bound objects, an ERROR-logged pending task
    ("RuntimeError: <asyncio.queues.Queue at 0x7f00 maxsize=0> is bound to a different event loop",
     "ASYNCIO_OBJECT_OF_ANOTHER_LOOP", "`is bound to a different event loop`"),
    ("RuntimeError: Cannot run the event loop while another loop is running", "ASYNCIO_LOOP_ALREADY_RUNNING",
     "another loop is running"),
    ("<sys>:0: RuntimeWarning: coroutine 'inner' was never awaited", "PY_COROUTINE_NEVER_AWAITED", "'inner'"),
    ("RuntimeError: There is no current event loop in thread 'MainThread'.", "ASYNCIO_NO_EVENT_LOOP_IN_THREAD",
     "`'MainThread'`"),
    ("asyncio.TimeoutError", "PY_FUTURE_WAIT_TIMED_OUT", "`asyncio.TimeoutError`"),
    # multiprocessing, futures, queue
    ("multiprocessing.context.AuthenticationError: digest received was wrong", "PY_MP_CONNECTION_AUTH_FAILED",
     "different authkeys"),
    ("RuntimeError: cannot schedule new futures after interpreter shutdown", "PY_EXECUTOR_ALREADY_SHUT_DOWN",
     "after interpreter shutdown"),
    ("_queue.Empty", "PY_QUEUE_GET_FOUND_NOTHING", "`_queue.Empty`"),
    # shutil, logging, csv
    ("ValueError: unknown archive format 'tar.gz'", "SHUTIL_ARCHIVE_FORMAT_UNKNOWN", "`'tar.gz'`"),
    ("ValueError: Unknown level: 'warn'", "PY_LOGGING_LEVEL_UNKNOWN", "`'warn'`"),
    ("_csv.Error: new-line character seen in unquoted field - do you need to open the file with newline=''?",
     "CSV_NEWLINE_IN_UNQUOTED_FIELD", "newline=''"),
    ("ValueError: dict contains fields not in fieldnames: 'grad_norm', 'lr'", "CSV_DICTWRITER_ROW_HAS_EXTRA_FIELDS",
     "'grad_norm', 'lr'"),
    # struct, base64, hex, codecs
    ("struct.error: unpack requires a buffer of 8 bytes", "PY_STRUCT_DATA_DOES_NOT_FIT", "buffer of 8 bytes"),
    ("struct.error: ushort format requires 0 <= number <= (0x7fff * 2 + 1)", "PY_STRUCT_DATA_DOES_NOT_FIT",
     "ushort format requires"),
    ("struct.error: pack expected 3 items for packing (got 2)", "PY_STRUCT_DATA_DOES_NOT_FIT", "pack expected 3"),
    ("binascii.Error: Only base64 data is allowed", "BASE64_TEXT_NOT_VALID", "Only base64 data is allowed"),
    ("binascii.Error: Non-hexadecimal digit found", "HEX_TEXT_NOT_VALID", "Non-hexadecimal digit found"),
    ("LookupError: unknown encoding: utf8mb4", "PY_CODEC_NAME_UNKNOWN", "encoding `utf8mb4`"),
    ("LookupError: unknown error handler name 'ignor'", "PY_CODEC_NAME_UNKNOWN", "error handler `'ignor'`"),
    # datetime, decimal
    ("ValueError: unconverted data remains:  UTC", "DATETIME_TEXT_HAS_UNCONVERTED_DATA", "remains: UTC"),
    ("TypeError: can't compare offset-naive and offset-aware datetimes", "DATETIME_NAIVE_AND_AWARE_MIXED",
     "can't compare"),
    # ctypes (a CANN library without the function), signal in 3.8, venv, input, urllib, http.client, zoneinfo
    ("AttributeError: /usr/local/Ascend/ascend-toolkit/latest/lib64/libascendcl.so: undefined symbol: "
     "aclrtGetDeviceInfo", "CTYPES_FUNCTION_NOT_IN_LIBRARY", "`aclrtGetDeviceInfo` in the library it loaded "
     "(`libascendcl.so`)"),
    ("ValueError: signal only works in main thread", "PY_SIGNAL_HANDLER_NOT_IN_MAIN_THREAD", "outside the main thread"),
    ("Error: Command '['/opt/venvs/ms/bin/python3.9', '-m', 'ensurepip', '--upgrade', '--default-pip']' returned "
     "non-zero exit status 1.", "VENV_ENSUREPIP_NOT_AVAILABLE", "python3-venv"),
    ("urllib.error.URLError: <urlopen error unknown url type: https>", "URLLIB_URL_SCHEME_UNKNOWN",
     "of scheme `https`"),
    ("ValueError: unknown url type: 'hf-mirror.com/api/models'", "URLLIB_URL_SCHEME_UNKNOWN",
     "`'hf-mirror.com/api/models'`"),
    ("zoneinfo._common.ZoneInfoNotFoundError: 'No time zone found with key UTC'", "ZONEINFO_TIME_ZONE_NOT_FOUND",
     "`UTC`"),
    # round 3 and the rest: XML, mmap, environ, statistics, transactions, ipaddress
    ("xml.etree.ElementTree.ParseError: not well-formed (invalid token): line 3, column 12", "XML_FILE_NOT_WELL_FORMED",
     "`not well-formed (invalid token)` at line 3, column 12"),
    ("xml.etree.ElementTree.ParseError: syntax error: line 1, column 0", "XML_FILE_NOT_WELL_FORMED", "`syntax error`"),
    ("TypeError: str expected, not bool", "PY_ENVIRON_VALUE_NOT_STR", "not bool"),
    ("statistics.StatisticsError: stdev requires at least two data points", "PY_STATISTICS_WITHOUT_DATA",
     "stdev requires at least two data points"),
    ("sqlite3.OperationalError: cannot rollback - no transaction is active", "SQLITE_TRANSACTION_STATE_CONFLICT",
     "cannot rollback"),
    ("ValueError: '10.0.0.1:29500' does not appear to be an IPv4 or IPv6 address", "IP_ADDRESS_NOT_VALID",
     "`'10.0.0.1:29500'`"),
    ("ValueError: unsupported hash type ripemd160", "PY_HASH_ALGORITHM_UNAVAILABLE", "`ripemd160`"),
    ('  File "/usr/local/lib/python3.8/subprocess.py", line 1702, in _execute_child',
     "PY_SUBPROCESS_PROGRAM_NOT_STARTED", "not installed or not on PATH"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=IDS + EXTENDED)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("train.py: error: argument --devices: expected at least one argument", "LAUNCH_ARGUMENTS_REJECTED",
     "expected at least one argument"),
    ("train.py: error: argument --bf16: not allowed with argument --fp16", "LAUNCH_ARGUMENTS_REJECTED",
     "not allowed with argument"),
    ("train.py: error: one of the arguments --train --eval is required", "LAUNCH_ARGUMENTS_REJECTED",
     "one of the arguments --train --eval is required"),
    ("lzma.LZMAError: Corrupt input data", "ARCHIVE_FILE_NOT_OF_ITS_FORMAT", "not a valid lzma archive"),
    ("zlib.error: Error -3 while decompressing data: incorrect header check", "ARCHIVE_FILE_NOT_OF_ITS_FORMAT",
     "not a valid zlib archive"),
    ("zlib.error: Error -5 while decompressing data: incomplete or truncated stream", "COMPRESSED_STREAM_CUT_SHORT",
     "end-of-stream marker"),
    ("gzip.BadGzipFile: CRC check failed 0x1c2d3e4f != 0x5a6b7c8d", "ARCHIVE_FILE_NOT_OF_ITS_FORMAT",
     "`CRC check failed 0x1c2d3e4f != 0x5a6b7c8d`"),
    ("tomllib.TOMLDecodeError: Invalid value (at end of document)", "TOML_FILE_SYNTAX_ERROR", ": Invalid value"),
    ("tomli._parser.TOMLDecodeError: Cannot overwrite a value (at line 12, column 17)", "TOML_FILE_SYNTAX_ERROR",
     "Cannot overwrite a value (line 12)"),
    ("TypeError: keys must be str, int, float, bool or None, not tuple", "JSON_OBJECT_NOT_SERIALIZABLE",
     "type `tuple`"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "INFO: sqlite3 database /data/optuna.db opened in WAL mode",
    "[I 2025-01-01 10:00:00,000] A new study created in RDB with name: no-name-3f2a",
    "2025-01-01 10:00:00 INFO reading configuration from /etc/app/settings.ini",
    "usage: train.py [-h] [--lr LR] [--epochs EPOCHS]",
    "DEBUG:asyncio:Using selector: EpollSelector",
    "except queue.Empty:",
    "    raise TimeoutError",
    "TimeoutError: timed out",
    "INFO:root:--- training started ---",
    "Task was cancelled cleanly",
    "struct.calcsize('<I') == 4",
    "Unpacking archive /data/model.tar.gz (format gztar)",
    "  warnings.warn('resource_tracker: There appear to be %d '",
    '  File "/usr/lib/python3.10/subprocess.py", line 503, in run',
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS) == []
