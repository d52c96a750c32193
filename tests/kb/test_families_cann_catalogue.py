"""data/kb/families_cann_catalogue.json and the catalogue's templates read without their code (round 10).

CANN_CATALOGUED_OS_ERROR: a catalogued message whose reason is the system's errno for a path (GE's FormatErrnoReason,
the profiler's `[Error N]`), named with the path and the error in every template GE and the profiler fill with it.
The templates of the vendor's shape (`Value %s for %s is invalid. Reason: %s.`, `Failed to write file %s. Reason:
%s.`, `%s failed. Value %s for %s is invalid. Reason: %s.`) now name their code without it; scripts/measure_catalogue.py
measures every template in its printed forms (here on a committed sample)."""

import json
import os
import subprocess
import sys

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, family_overlaps, part_ids

IDS = part_ids("families_cann_catalogue")
RULE = "CANN_CATALOGUED_ERROR_CODE"
FAMILY = IDS + [RULE, "FILE_PERMISSION_DENIED", "OS_DISK_FULL", "HOST_TOO_MANY_OPEN_FILES"]
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(REPO, "tests", "fixtures", "cann_catalogue_sample.json")


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_a_class_root_without_peer_ids(kb):
    assert IDS == ["CANN_CATALOGUED_OS_ERROR"]
    sig = kb.signature("CANN_CATALOGUED_OS_ERROR")
    assert os.path.basename(sig.origin) == "families_cann_catalogue.json" and sig.kind == "root"
    assert sig.fallback and sig.fail_needs_mark and sig.severity == "fail" and not sig.ascend_fd


@pytest.mark.parametrize("line, said", [
    # GE's FormatErrnoReason in E13000 / E13001 / E13004 / E10001, the profiler's [Error N] in EK0001
    ("E13000: [PID: 9] 2025-06-10-11:02:33.512.871 Path /data/models/net.om is empty. Reason: [Errno 2] No such file "
     "or directory.", "CANN error E13000, file operation error: invalid path: the system refused a file operation on "
     "`/data/models/net.om`: No such file or directory (errno 2)"),
    ("[ERROR] GE(9,atc):2025-06-10-11:02:33.512.871 [error_manager.cc:210]9 E13004: Failed to write file "
     "/out/model.om. Reason: [Errno 30] Read-only file system.",
     "CANN error E13004, file operation error: write: the system refused a file operation on `/out/model.om`: "
     "Read-only file system (errno 30)"),
    ("RuntimeError: Value /home/u/prof for parameter path of profiling output is invalid. Reason: The operation create "
     "dir on directory /home/u/prof is abnormal. [Error 1] Operation not permitted.",
     "CANN: the system refused a file operation on `/home/u/prof`: Operation not permitted (errno 1)"),
    ("E10001: Value /dump for parameter ge.exec.dumpPath is invalid. Reason: [Errno 20] Not a directory",
     "CANN error E10001, invalid argument: the system refused a file operation on `/dump`: Not a directory (errno 20)"),
])
def test_the_path_and_the_systems_error_are_said(kb, line, said):
    assert [s.id for s in kb.explaining(line)] == ["CANN_CATALOGUED_OS_ERROR"]
    assert kb.signature("CANN_CATALOGUED_OS_ERROR").text("en", line)[0] == said


def test_a_full_disk_and_too_many_files_keep_their_own_entries(kb):
    for line, want in (("E13004: Failed to write file /out/a.om. Reason: [Errno 28] No space left on device.",
                        "OS_DISK_FULL"),
                       ("E13001: Failed to open file /x/m.om. Reason: [Errno 24] Too many open files.",
                        "HOST_TOO_MANY_OPEN_FILES")):
        assert [s.id for s in kb.explaining(line)] == [want], line


@pytest.mark.parametrize("line", [
    "EE1020: [PID: 77] 2025-06-10-11:02:33.512.871 Read binary file failed. Reason: Standard function memcpy_s "
    "failed. [Errno 22] Invalid argument. size=64.",
    "[INFO] GE(4312,atc):2025-06-10-11:02:33.512.871 [file_saver.cc:70]4312 File /out/dump.bin does not exist, it "
    "will be created.",
    "PermissionError: [Errno 13] Permission denied: '/usr/local/Ascend/driver/version.info'",
    "[WARNING] GE(1,atc):2025-06-10-11:02:33.512.871 Failed to open file /x. Reason: [Errno 2] No such file or "
    "directory.",
])
def test_other_lines_are_not_the_os_error_entrys(kb, line):
    assert "CANN_CATALOGUED_OS_ERROR" not in [s.id for s in kb.explaining(line)]


@pytest.mark.parametrize("line, code", [
    # the two templates earlier sets found unread, bare and under a log prefix
    ("Value -1 for aclDumpConfig dump_step is invalid. Reason: The dump step must be a positive integer.",
     "EH0001/EK0003"),
    ("RuntimeError: Failed to write file /home/u/out.json. Reason: check the file path and permissions.", "E13004"),
    ("[ERROR] RUNTIME(1,python):2026-01-01-00:00:00.000.000 [binary_loader.cc:226]1 Read binary file failed. Value "
     "/opt/k.o for binPath is invalid. Reason: The file does not exist.", "EE1012"),
    ("Failed to parse file /home/u/fusion.json. Reason: Unexpected token at line 3.", "E21002/EP0004"),
    ("The argument is invalid. Reason: The device ID must be less than 8", "EE1001"),
])
def test_a_template_of_the_vendors_shape_names_its_code_without_it(kb, line, code):
    assert [s.id for s in kb.explaining(line)] == [RULE]
    assert kb.signature(RULE).text("en", line)[0].startswith(f"CANN error {code}")


def test_the_most_specific_template_names_the_code(kb):
    # E10001, E20101, EK0001 and aclnn's EZ1010 say "Value %s for parameter %s is invalid. Reason: %s"; EK0003 and
    # EH0001 the shorter "Value %s for %s is invalid. Reason: %s." that the same sentence also fills
    line = "Value 0 for parameter x is invalid. Reason: It must be positive."
    title = kb.signature(RULE).text("en", line)[0]
    assert title.startswith("CANN error E10001/E20101/EK0001/EZ1010:") and "EK0003" not in title


@pytest.mark.parametrize("line", [
    "Loading the config failed. Reason: The file does not exist.",  # "%s failed. Reason: %s." is anyone's
    "Failed to open file /etc/hosts.",
    "Device not found or invalid.",
    "[INFO] Value 3 for batch is invalid. Reason: retrying with 4.",
])
def test_generic_sentences_stay_unread(kb, line):
    assert RULE not in [s.id for s in kb.explaining(line)]


def test_a_bare_sentence_is_a_warning_and_a_marked_one_a_failure(kb):
    sig = kb.signature(RULE)
    bare = "Failed to write file /home/u/out.json. Reason: check the file path and permissions."
    assert sig.severity_on(bare) == "warn" and sig.severity_on("RuntimeError: " + bare) == "fail"


def test_family_lines_are_one_problem_and_clean_excerpts_stay_clean(kb):
    assert family_overlaps(kb, IDS) == []
    assert clean_excerpt_hits(kb, IDS) == []


def test_the_measure_script_runs_on_the_committed_sample():
    out = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "measure_catalogue.py"), "--table", SAMPLE,
                          "--json"], capture_output=True, text=True, check=True, cwd=REPO)
    got = json.loads(out.stdout)
    with open(SAMPLE, encoding="utf-8") as fh:
        codes = json.load(fh)["codes"]
    assert got["codes"] == len(codes)
    verdicts = {(r["code"], r["form"]): r["verdict"] for r in got["rows"]}
    for code in codes:  # a coded line names its code in the printer's and the plog's forms
        assert verdicts[(code, "coded")] == verdicts[(code, "plog")] == "alone", code
    # the vendor's shapes without their code; a template too general stays unnamed
    assert verdicts[("EK0003", "bare")] in ("alone", "named") and verdicts[("E13004", "marked")] == "alone"
    assert verdicts[("EE1016", "bare")] != "alone"
    assert set(got["forms"]) == {"coded", "plog", "marked", "bare"}
