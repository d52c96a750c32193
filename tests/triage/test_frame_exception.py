"""A traceback frame whose exception decides what the exception means (Signature.exception_under, triage/scan.py
_frame_step): subprocess's `_execute_child` frame, where `FileNotFoundError: ... 'nvidia-smi'` is a program that
could not be started, not an input file that is missing. Lines are Python 3.8 / 3.11 / 3.13's, run here."""
import json

import pytest

from ascend_doctor.kb.load import load_knowledge_base
from ascend_doctor.triage import triage_paths

from tests.helpers import run_cli

# python3.13 /tmp/sp/gpu.py: subprocess.run(["nvidia-smi", "-L"]) on a machine without the NVIDIA tools
PROGRAM_MISSING = """Traceback (most recent call last):
  File "/tmp/sp/gpu.py", line 5, in <module>
    print(gpu_count())
          ~~~~~~~~~^^
  File "/tmp/sp/gpu.py", line 3, in gpu_count
    out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
  File "/root/.pyenv/versions/3.13.0/lib/python3.13/subprocess.py", line 554, in run
    with Popen(*popenargs, **kwargs) as process:
         ~~~~~^^^^^^^^^^^^^^^^^^^^^^
  File "/root/.pyenv/versions/3.13.0/lib/python3.13/subprocess.py", line 1966, in _execute_child
    raise child_exception_type(errno_num, err_msg, err_filename)
FileNotFoundError: [Errno 2] No such file or directory: 'nvidia-smi'
"""
# python3.8: subprocess.check_call(["ls"], cwd="/data/run_0001") where the directory does not exist
CWD_MISSING = """Traceback (most recent call last):
  File "cwd.py", line 2, in <module>
    subprocess.check_call(["ls"], cwd="/data/run_0001")
  File "/root/.pyenv/versions/3.8.18/lib/python3.8/subprocess.py", line 858, in __init__
    self._execute_child(args, executable, preexec_fn, close_fds,
  File "/root/.pyenv/versions/3.8.18/lib/python3.8/subprocess.py", line 1720, in _execute_child
    raise child_exception_type(errno_num, err_msg, err_filename)
FileNotFoundError: [Errno 2] No such file or directory: '/data/run_0001'
"""
# python3.11: open() of a dataset that is not there: a file, read as one
OPEN_MISSING = """Traceback (most recent call last):
  File "/tmp/sp/opn.py", line 1, in <module>
    open("/data/train.csv")
FileNotFoundError: [Errno 2] No such file or directory: '/data/train.csv'
"""
SUBPROCESS = "PY_SUBPROCESS_PROGRAM_NOT_STARTED"


def ids(data):
    return [p.signature.id for p in data.problems]


def test_the_exception_under_the_frame_is_the_frames_and_names_the_program(tmp_path):
    (tmp_path / "job.log").write_text(PROGRAM_MISSING)
    data = triage_paths([str(tmp_path / "job.log")])
    assert ids(data) == [SUBPROCESS]  # not also "an input file was not found"
    p = data.problems[0]
    assert p.text == PROGRAM_MISSING.splitlines()[-1]  # the exception line, where the problem was read
    assert (p.first.line, p.since.line) == (10, 12)
    assert p.signature.values(p.text) == {"reason": ("No such file or directory", True), "name": ("nvidia-smi", True)}
    for lang in ("en", "zh"):  # the title says the program in both languages
        assert "`nvidia-smi`" in p.signature.text(lang, p.text)[0]
    assert data.unexplained == []  # the exception line is explained, by the frame's entry


def test_the_report_and_json_show_the_exception_line(tmp_path):
    (tmp_path / "job.log").write_text(PROGRAM_MISSING)
    out = json.loads(run_cli("triage", str(tmp_path / "job.log"), "--format", "json").stdout)
    assert [p["id"] for p in out["problems"]] == [SUBPROCESS]
    assert "nvidia-smi" in out["problems"][0]["title"]
    assert out["unexplained_errors"] == []


def test_a_directory_given_as_cwd_is_said_as_the_line_says_it(tmp_path):
    (tmp_path / "job.log").write_text(CWD_MISSING)
    data = triage_paths([str(tmp_path / "job.log")])
    assert ids(data) == [SUBPROCESS]
    p = data.problems[0]
    assert p.signature.values(p.text)["name"] == ("/data/run_0001", True)
    assert "`/data/run_0001`" in p.signature.text("en", p.text)[0]


def test_a_file_not_found_outside_the_frame_is_still_a_file(tmp_path):
    (tmp_path / "job.log").write_text(OPEN_MISSING)
    data = triage_paths([str(tmp_path / "job.log")])
    assert SUBPROCESS not in ids(data) and ids(data)  # the file entry reads it as before


def test_an_exception_the_frame_does_not_read_keeps_its_own_entries(tmp_path):
    # fork refused for memory: no file name, so not the frame's reading; the errno's own entry says it
    lines = PROGRAM_MISSING.replace("FileNotFoundError: [Errno 2] No such file or directory: 'nvidia-smi'",
                                    "OSError: [Errno 12] Cannot allocate memory")
    (tmp_path / "job.log").write_text(lines)
    data = triage_paths([str(tmp_path / "job.log")])
    assert ids(data)[0] == SUBPROCESS and len(ids(data)) > 1
    assert data.problems[0].text.lstrip().startswith("File ")  # it keeps its frame line, generic words


@pytest.mark.parametrize("between", [5, 40])
def test_a_later_exception_is_not_the_frames(tmp_path, between):
    # the frame's traceback ended without its exception (a cut log); a FileNotFoundError further on is a file's
    head = PROGRAM_MISSING.splitlines()[:11]
    text = "\n".join(head + ["epoch 1 step %d loss 0.5" % i for i in range(between)] + OPEN_MISSING.splitlines())
    (tmp_path / "job.log").write_text(text + "\n")
    data = triage_paths([str(tmp_path / "job.log")])
    assert SUBPROCESS in ids(data) and len(ids(data)) == 2


def test_the_same_lines_in_two_files_are_read_apart(tmp_path):
    # a frame at the end of one file does not claim the first exception of the next
    (tmp_path / "a.log").write_text("\n".join(PROGRAM_MISSING.splitlines()[:11]) + "\n")
    (tmp_path / "b.log").write_text(OPEN_MISSING.splitlines()[-1] + "\n")
    data = triage_paths([str(tmp_path / "a.log"), str(tmp_path / "b.log")])
    assert len(ids(data)) == 2


def test_the_frames_entry_reads_the_values_of_its_exceptions():
    sig = next(s for s in load_knowledge_base().signatures if s.id == SUBPROCESS)
    assert sig.values("PermissionError: [Errno 13] Permission denied: './run.sh'") == {
        "reason": ("Permission denied", True), "name": ("./run.sh", True)}
    assert sig.values("FileNotFoundError: [WinError 2] The system cannot find the file specified") == {
        "reason": ("The system cannot find the file specified", True)}


def test_parallel_ranges_read_the_frame_with_its_exception(tmp_path, monkeypatch):
    from tests.triage.test_triage import NOISE, serial_and_parallel, write

    lines = [NOISE] * 15000 + PROGRAM_MISSING.splitlines() + [NOISE] * 15000
    serial, parallel = serial_and_parallel(write(tmp_path / "worker_0.log", lines), monkeypatch)
    assert [p["id"] for p in parallel["problems"]] == [SUBPROCESS]
    assert parallel["problems"] == serial["problems"]
