"""The entries written (or extended) from heldout21's misses, after that set was measured (round 13): each reads the
lines those runs printed and its family's other forms, says the value the line names, and stays quiet on ordinary
lines that share its words. heldout21 itself (tests/fixtures/corpus/heldout21) checks them on the whole excerpts."""

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title

NEW = ["PIP_INVALID_REQUIREMENT", "PIP_USER_INSTALL_IN_VENV", "PY_STDLIB_NOT_FOUND_AT_START",
       "NUMPY_C_EXTENSIONS_IMPORT_FAILED", "SCRIPT_INTERPRETER_NOT_FOUND", "OS_FILE_SIZE_LIMIT_EXCEEDED",
       "PY_KEYBOARD_INTERRUPT", "PY_BROKEN_PIPE", "DDP_MODEL_DIFFERS_ACROSS_RANKS", "TOKENIZER_JSON_FORMAT_UNREADABLE"]
EXTENDED = ["NETWORK_PROXY_CONNECT_FAILED", "PY_MODULE_SHADOWED_OR_CIRCULAR_IMPORT"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


@pytest.mark.parametrize("line, sig_id, said", [
    ("ERROR: Invalid requirement: 'mindspore=2.3.1' (from line 2 of requirements.txt)", "PIP_INVALID_REQUIREMENT",
     "`mindspore=2.3.1`"),
    ("pip._vendor.packaging.requirements.InvalidRequirement: Expected end or semicolon (after name and no valid "
     "version specifier)", "PIP_INVALID_REQUIREMENT", "in the list"),
    ("ERROR: Can not perform a '--user' install. User site-packages are not visible in this virtualenv.",
     "PIP_USER_INSTALL_IN_VENV", "`--user`"),
    ("Fatal Python error: init_fs_encoding: failed to get the Python codec of the filesystem encoding",
     "PY_STDLIB_NOT_FOUND_AT_START", "PYTHONHOME"),
    ("ModuleNotFoundError: No module named 'encodings'", "PY_STDLIB_NOT_FOUND_AT_START", "standard library"),
    ("ModuleNotFoundError: No module named 'numpy._core._multiarray_umath'", "NUMPY_C_EXTENSIONS_IMPORT_FAILED",
     "(`numpy._core._multiarray_umath`)"),
    ("Importing the numpy C-extensions failed. This error can happen for", "NUMPY_C_EXTENSIONS_IMPORT_FAILED",
     "another Python version"),
    ("bash: line 1: .venv/bin/pip: cannot execute: required file not found", "SCRIPT_INTERPRETER_NOT_FOUND", "`#!`"),
    ("bash: ./run.sh: /opt/old_venv/bin/python3: bad interpreter: No such file or directory",
     "SCRIPT_INTERPRETER_NOT_FOUND", "venv moved"),
    ("bash: line 1: 13360 File size limit exceededcp a.ckpt b.ckpt", "OS_FILE_SIZE_LIMIT_EXCEEDED", "ulimit -f"),
    ("File size limit exceeded (core dumped)", "OS_FILE_SIZE_LIMIT_EXCEEDED", "File too large"),
    ("safetensors._safetensors_rust.SafetensorError: Error while serializing: I/O error: File too large (os error 27)",
     "OS_FILE_SIZE_LIMIT_EXCEEDED", "RLIMIT_FSIZE"),
    ("OSError: [Errno 27] File too large: '/mnt/usb/model.ckpt'", "OS_FILE_SIZE_LIMIT_EXCEEDED", "File too large"),
    ("KeyboardInterrupt", "PY_KEYBOARD_INTERRUPT", "SIGINT"),
    ("BrokenPipeError: [Errno 32] Broken pipe", "PY_BROKEN_PIPE", "EPIPE"),
    ("[rank1]: RuntimeError: DDP expects same model across all ranks, but Rank 1 has 4 params, while rank 0 has "
     "inconsistent 6 params.", "DDP_MODEL_DIFFERS_ACROSS_RANKS", "Rank 1 has 4 params, while rank 0 has inconsistent 6"),
    ("Exception: invalid type: sequence, expected a map at line 246 column 1", "TOKENIZER_JSON_FORMAT_UNREADABLE",
     "expected a map"),
    ("requests.exceptions.ProxyError: (MaxRetryError('HTTPSConnectionPool(host=\\'huggingface.co\\', port=443): Max "
     "retries exceeded with url: /x (Caused by ProxyError(\\'Unable to connect to proxy\\', NewConnectionError(",
     "NETWORK_PROXY_CONNECT_FAILED", "proxy"),
    ("ImportError: cannot import name 'load_dataset' from 'datasets' (/home/u/proj/datasets.py)",
     "PY_MODULE_SHADOWED_OR_CIRCULAR_IMPORT", "`datasets`"),
])
def test_the_entries_read_their_lines_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "Requirement already satisfied: mindspore==2.3.1 in ./venv/lib/python3.11/site-packages",
    "#!/usr/bin/env python3",
    "ulimit -f unlimited",
    "except KeyboardInterrupt:",
    "    raise KeyboardInterrupt  # re-raised for the caller",
    "except BrokenPipeError:",
    "DDP: same model across all ranks verified (6 params)",
    "ImportError: cannot import name 'load_dataset' from 'datasets' (/usr/lib/python3/dist-packages/datasets/__init__.py)",
    "ImportError: cannot import name 'helper' from 'utils' (/home/u/proj/utils.py)",
    "ModuleNotFoundError: No module named 'encodings.idna_ext'",
    "Exception: invalid type: sequence, expected a map",
    # Windows line endings have their own entry
    "-bash: ./train.sh: /bin/bash^M: bad interpreter: No such file or directory",
])
def test_the_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in NEW + EXTENDED[1:]] == []


def test_the_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, NEW + EXTENDED) == []
