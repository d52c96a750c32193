"""The entries written (or extended) from heldout27's misses, after that set was measured (round 19): each reads the
lines those runs and threads printed and its family's other forms, says the value the line names, and stays quiet on
ordinary lines that share its words. heldout27 itself (tests/fixtures/corpus/heldout27) checks them on the whole
excerpts."""

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title

NEW = ["TAR_FILE_CHANGED_WHILE_READ", "HTTP_RESPONSE_NOT_JSON", "NVIDIA_INSTALLER_MODULE_LOAD_FAILED",
       "TORCH_INDUCTOR_TRITON_NOT_FOUND"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


@pytest.mark.parametrize("line, sig_id, said", [
    # GNU tar's three warnings of a file that changed while it was read (create.c), each said
    ("tar: ./work/run7/train.log: file changed as we read it", "TAR_FILE_CHANGED_WHILE_READ",
     "`./work/run7/train.log` while it was being changed: `file changed as we read it`"),
    ("tar: data/shard-00003.bin: File shrank by 524288 bytes; padding with zeros", "TAR_FILE_CHANGED_WHILE_READ",
     "`File shrank by 524288 bytes; padding with zeros`"),
    ("tar: /var/log/app/tmp.lock: File removed before we read it", "TAR_FILE_CHANGED_WHILE_READ",
     "`File removed before we read it`"),
    ("tar: .: file changed as we read it", "TAR_FILE_CHANGED_WHILE_READ", "`.`"),
    # requests' own JSONDecodeError is an HTTP response's body; the json module's alone stays the document entry
    ("requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)", "HTTP_RESPONSE_NOT_JSON",
     "`Expecting value: line 1 column 1 (char 0)`"),
    ("requests.exceptions.JSONDecodeError: Unterminated string starting at: line 1 column 9 (char 8)",
     "HTTP_RESPONSE_NOT_JSON", "Unterminated string"),
    ("json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)", "JSON_DOCUMENT_EMPTY_OR_NOT_JSON",
     "A JSON document is empty"),
    # nvidia-installer's refusal, for each module it builds
    ("ERROR: Unable to load the kernel module 'nvidia.ko'.  This happens most frequently when this kernel module was "
     "built against the wrong or improperly configured kernel sources", "NVIDIA_INSTALLER_MODULE_LOAD_FAILED",
     "`nvidia.ko`"),
    ("ERROR: Unable to load the kernel module 'nvidia-uvm.ko'.", "NVIDIA_INSTALLER_MODULE_LOAD_FAILED", "`nvidia-uvm.ko`"),
    # Inductor's Triton check, bare and as Dynamo wraps it
    ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised: RuntimeError: Cannot find a working triton "
     "installation. Either the package is not installed or it is too old.", "TORCH_INDUCTOR_TRITON_NOT_FOUND",
     "no working Triton"),
])
def test_the_entries_read_their_lines_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=NEW + ["JSON_DOCUMENT_EMPTY_OR_NOT_JSON"])
    assert said in title, title


@pytest.mark.parametrize("line", [
    "tar: Removing leading `/' from member names",
    "tar -czf logs.tgz --warning=no-file-changed ./logs",
    "except requests.exceptions.JSONDecodeError:",
    "Kernel module compilation complete.",
    "Building kernel modules",
    "Successfully installed triton-3.1.0",
    "[INFO] inductor: compiling with triton 3.1.0",
])
def test_the_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in NEW] == []


def test_the_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, NEW) == []


def test_a_changed_file_is_a_warning_the_others_fail(kb):
    assert kb.signature("TAR_FILE_CHANGED_WHILE_READ").severity == "warn"
    assert {kb.signature(s).severity for s in NEW[1:]} == {"fail"}
