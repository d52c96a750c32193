"""`ascend-doctor triage`: known problems named once, with where, cause and fix; robust to odd inputs."""

import gzip
import io
import json
import os

import pytest

from ascend_doctor.triage import parallel as parallel_mod, scan as triage_mod
from ascend_doctor.triage import Triage, rank_of, triage_paths

from tests.helpers import run_cli
from tests.helpers.i18n_asserts import assert_shows, shows

EI0006 = "EI0006: [PID: 31337] 2024-07-12-10:25:05.104.998 Getting socket times out. Reason: Remote Rank did not send the data in time."
OOM = "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 57.31 GiB already allocated)"
# the text report's headline when the earliest problem is a fail
LEADS_BECAME = ("{count} known problem(s). The leading {label}: {problem} at {place}; {earlier} at {earlier_place} came "
                "before it and was raised again as it.")
LEADS_WRAPPER = ("{count} known problem(s). The leading {label}: {problem} at {place}; {earlier} at {earlier_place} came "
                 "before it but says only that a call failed.")
EARLIEST = "{count} known problem(s). The earliest {label}: {problem} at {place}."
EARLIEST_FAIL = ("{count} known problem(s). The earliest {label}: {problem} at {place} — when ranks fail together, the "
                 "first failure is usually the cause; the others often follow from it.")
NOISE = "[INFO] ME(1234,7f3a,python):2024-07-12-10:20:00.000.000 [pipeline.cc:12] Compile] Start compile graph: kernel_graph_1"


def write(path, lines):
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_each_problem_once_with_count_first_last_and_fix(tmp_path):
    log = write(tmp_path / "train.log", [NOISE, EI0006, NOISE, EI0006, NOISE])
    proc = run_cli("triage", log, "--format", "json")
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)
    assert data["schema"] == "ascend-doctor.triage/1"
    [p] = data["problems"]  # the generic CANN error-code wrapper on the same line is not a second problem
    assert p["id"] == "HCCL_EI0006_SOCKET_TIMEOUT" and p["pitfall"] == "P13" and p["count"] == 2
    assert (p["first"]["line"], p["last"]["line"]) == (2, 4)
    assert "HCCL_CONNECT_TIMEOUT" in " ".join(p["fix"]) and p["cause"]
    assert p["line"].startswith("EI0006:")


def test_first_error_across_ranks_is_named(tmp_path):
    d = tmp_path / "msrun_log"
    d.mkdir()
    # rank 3 ran out of memory first; the other ranks then timed out waiting for it
    write(d / "worker_0.log", [NOISE, EI0006.replace("10:25:05", "10:35:05")])
    write(d / "worker_3.log", [NOISE, "[ERROR] ME(1,1,python):2024-07-12-10:25:01.000.000 [x.cc:1] " + OOM])
    write(d / "worker_1.log", [NOISE, EI0006.replace("10:25:05", "10:35:06")])
    res = triage_paths([str(d)])
    ids = [p.signature.id for p in res.problems]
    assert ids[0] == "TORCH_NPU_OOM"  # same severity: the earlier one first
    first = res.first_problem()
    assert first.signature.id == "TORCH_NPU_OOM" and first.first.rank == "rank 3"
    timeout = res.problems[1]
    assert set(timeout.ranks) == {"rank 0", "rank 1"} and timeout.first_rank() == "rank 0"
    text = run_cli("triage", str(d)).stdout
    assert_shows(text, EARLIEST_FAIL, label="FAIL", problem="TORCH_NPU_OOM")
    assert "(rank 3)" in text


@pytest.mark.parametrize("path,rank", [("log/worker_3.log", "rank 3"), ("out/rank_12/train.log", "rank 12"),
                                       ("slog/device-5/device-123_2024.log", "device 5"),
                                       ("debug/plog/plog-31337_20240712.log", "pid 31337"), ("train.log", None)])
def test_rank_from_path(path, rank):
    assert rank_of(path) == rank


def test_no_known_problem_says_so_and_shows_last_error_lines(tmp_path):
    log = write(tmp_path / "a.log", [NOISE, "[ERROR] APP(1,python):2024-07-12 something odd happened in my_module", NOISE])
    proc = run_cli("triage", log)
    assert proc.returncode == 0
    assert_shows(proc.stdout, "No known problem found in these logs; {count} error line(s) not recognised.", count=1)
    assert "something odd happened" in proc.stdout


def test_a_nul_alone_at_a_line_start_is_still_a_log(tmp_path):
    # torch's DataLoader worker prints its segfault message with the string's terminator before the traceback (run
    # here with torch 2.13.0, a worker killed with SIGSEGV): the output is a log; a NUL elsewhere is binary data
    out = tmp_path / "train_output.txt"
    out.write_bytes(b"ERROR: Unexpected segmentation fault encountered in worker.\n\x00Traceback (most recent call "
                    b"last):\nRuntimeError: DataLoader worker (pid 23712) is killed by signal: Segmentation fault. \n")
    data = triage_paths([str(tmp_path)])
    assert "PROCESS_SEGFAULT" in [p.signature.id for p in data.problems]
    assert data.inputs[0].scanned and data.inputs[0].note is None
    from ascend_doctor.triage.layout import binary_head
    assert binary_head(b"\x00\x00\x00 not text") and binary_head(b"\x7fELF\x00\x00\x01")
    assert binary_head(b"line\n\x00\x00more") and not binary_head(b"line\n\x00more\n")


_PIL_SAVE = """Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/PIL/JpegImagePlugin.py", line 681, in _save
    rawmode = RAWMODE[im.mode]
              ~~~~~~~^^^^^^^^^
KeyError: 'RGBA'

{chain}

Traceback (most recent call last):
  File "/work/fi/precision/pil/mk.py", line 5, in <module>
    Image.new("RGBA", (8, 8)).save("out.jpg")
  File "/venv/lib/python3.11/site-packages/PIL/JpegImagePlugin.py", line 684, in _save
    raise OSError(msg) from e
OSError: cannot write mode RGBA as JPEG
"""


@pytest.mark.parametrize("chain", ["The above exception was the direct cause of the following exception:",
                                   "During handling of the above exception, another exception occurred:"])
def test_a_class_entrys_exception_that_became_a_specific_ones_comes_after_it(tmp_path, chain):
    # Pillow 13 (run here) raises its own OSError from the KeyError of its mode table; older Pillow printed
    # `During handling ...`: the report leads with the image problem, the KeyError follows it
    (tmp_path / "out.txt").write_text(_PIL_SAVE.format(chain=chain))
    data = triage_paths([str(tmp_path)])
    assert [p.signature.id for p in data.problems] == ["PIL_CANNOT_WRITE_MODE_AS_FORMAT", "PY_DICT_KEY_NOT_FOUND"]
    assert data.first_problem().signature.id == "PIL_CANNOT_WRITE_MODE_AS_FORMAT"
    assert data.problems[1].became == "PIL_CANNOT_WRITE_MODE_AS_FORMAT" and data.problems[1].caused_by is None


def test_the_headline_says_earliest_only_when_it_is_and_names_what_came_before(tmp_path):
    # the image problem leads, but the KeyError came first: the headline must not call the image problem "the
    # earliest"; it names the KeyError, its place and why it does not lead, in the text, the JSON and the HTML
    (tmp_path / "out.txt").write_text(_PIL_SAVE.format(
        chain="The above exception was the direct cause of the following exception:"))
    text = run_cli("triage", str(tmp_path), "--no-color").stdout
    out = str(tmp_path / "out.txt")
    assert_shows(text, LEADS_BECAME, count=2, label="FAIL", problem="PIL_CANNOT_WRITE_MODE_AS_FORMAT",
                 place=out + ":14", earlier="PY_DICT_KEY_NOT_FOUND", earlier_place=out + ":5")
    assert not shows(text, EARLIEST_FAIL) and not shows(text, EARLIEST)
    data = json.loads(run_cli("triage", str(tmp_path), "--format", "json").stdout)
    assert data["first_problem"]["id"] == "PIL_CANNOT_WRITE_MODE_AS_FORMAT"
    assert data["first_problem"]["leads_over"]["id"] == "PY_DICT_KEY_NOT_FOUND"
    assert data["first_problem"]["leads_over"]["why"] == "became" and data["first_problem"]["leads_over"]["line"] == 5
    assert [p["became"] for p in data["problems"]] == [None, "PIL_CANNOT_WRITE_MODE_AS_FORMAT"]
    html = run_cli("triage", str(tmp_path), "--format", "html").stdout
    assert_shows(html, "The leading {label}: {problem}", label="FAIL", problem="PIL_CANNOT_WRITE_MODE_AS_FORMAT")
    assert shows(html, "{earlier} came before it, at {place}, and was raised again as it.",
                 earlier="PY_DICT_KEY_NOT_FOUND")
    # a single problem is still "the earliest", with no leads_over
    (tmp_path / "out.txt").write_text("KeyError: 'RGBA'\n")
    data = json.loads(run_cli("triage", str(tmp_path), "--format", "json").stdout)
    assert "leads_over" not in data["first_problem"]
    assert_shows(run_cli("triage", str(tmp_path), "--no-color").stdout, EARLIEST_FAIL, count=1, label="FAIL",
                 problem="PY_DICT_KEY_NOT_FOUND")


@pytest.mark.parametrize("chain", ["The above exception was the direct cause of the following exception:",
                                   "During handling of the above exception, another exception occurred:"])
def test_a_bare_keyerror_gives_way_to_the_class_entry_it_became(tmp_path, chain):
    # transformers 4.x (the round 26 audit, heldout19/h19g_25): its CONFIG_MAPPING lookup's KeyError, then its own
    # ValueError. Both are class entries; the bare KeyError only restates Python's message (last resort), so it gives
    # way to the model-type error, as it does on one line
    (tmp_path / "out.txt").write_text(
        "Traceback (most recent call last):\n  File \"configuration_auto.py\", line 1271, in from_pretrained\n"
        "    config_class = CONFIG_MAPPING[config_dict[\"model_type\"]]\nKeyError: 'pangu_ultra_moe'\n\n" + chain +
        "\n\nTraceback (most recent call last):\n  File \"configuration_auto.py\", line 1273, in from_pretrained\n"
        "    raise ValueError(\nValueError: The checkpoint you are trying to load has model type `pangu_ultra_moe` but "
        "Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or "
        "because your version of Transformers is out of date.\n")
    data = triage_paths([str(tmp_path)])
    assert [(p.signature.id, p.became) for p in data.problems] == [
        ("MODEL_ARCHITECTURE_NOT_SUPPORTED", None), ("PY_DICT_KEY_NOT_FOUND", "MODEL_ARCHITECTURE_NOT_SUPPORTED")]
    assert data.first_problem().signature.id == "MODEL_ARCHITECTURE_NOT_SUPPORTED"


def test_a_bare_keyerror_keeps_its_place_before_another_bare_exception(tmp_path):
    # two entries of last resort: neither reads more than Python's message, so the first stays first
    (tmp_path / "out.txt").write_text(
        "KeyError: 'batch_size'\n\nDuring handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n  File \"t.py\", line 3, in <module>\nKeyError: 'lr'\n")
    data = triage_paths([str(tmp_path)])
    assert all(p.became is None for p in data.problems)


def test_an_exception_line_without_a_colon_can_be_the_one_that_became_another(tmp_path):
    # torch 2.13.0 run here, a worker that ended with os._exit(0): the queue's Empty, then the DataLoader's summary
    (tmp_path / "out.txt").write_text(
        "Traceback (most recent call last):\n  File \"/usr/lib/python3.11/multiprocessing/queues.py\", line 114, in "
        "get\n    raise Empty\n_queue.Empty\n\nThe above exception was the direct cause of the following exception:\n\n"
        "Traceback (most recent call last):\n  File \"dl.py\", line 14, in <module>\n    for b in loader:\n"
        "RuntimeError: DataLoader worker (pid(s) 23724) exited unexpectedly\n")
    data = triage_paths([str(tmp_path)])
    assert [p.signature.id for p in data.problems] == ["DATALOADER_WORKER_DIED", "PY_QUEUE_GET_FOUND_NOTHING"]


def test_a_specific_entrys_exception_keeps_its_place_before_the_one_it_became(tmp_path):
    # torch's worker line says the exit code; the summary raised from it says less: the first stays first
    (tmp_path / "out.txt").write_text(
        "RuntimeError: DataLoader worker (pid 23654) exited unexpectedly with exit code 3. Details are lost due to "
        "multiprocessing. Rerunning with num_workers=0 may give better error trace.\n\nThe above exception was the "
        "direct cause of the following exception:\n\nTraceback (most recent call last):\n  File \"t.py\", line 14, "
        "in <module>\n    for b in loader:\nRuntimeError: DataLoader worker (pid(s) 23654) exited unexpectedly\n")
    data = triage_paths([str(tmp_path)])
    assert [p.signature.id for p in data.problems] == ["TORCH_DATALOADER_WORKER_EXITED_WITH_CODE",
                                                        "DATALOADER_WORKER_DIED"]
    assert all(p.became is None for p in data.problems)


def test_binary_garbage_invalid_utf8_and_unreadable(tmp_path):
    binf = tmp_path / "core.bin"
    binf.write_bytes(b"\x7fELF\x00\x00\x01" + os.urandom(4096))
    bad_utf8 = tmp_path / "latin.log"
    bad_utf8.write_bytes(b"caf\xe9 \xff\xfe broken bytes\n" + OOM.encode() + b" \xc3\x28\n")
    secret = tmp_path / "locked.log"
    secret.write_text(OOM + "\n")
    secret.chmod(0)
    proc = run_cli("triage", str(binf), str(bad_utf8), str(secret), "--format", "json")
    assert "Traceback" not in proc.stderr
    data = json.loads(proc.stdout)
    assert [p["id"] for p in data["problems"]] == ["TORCH_NPU_OOM"]
    notes = {os.path.basename(i["file"]): i["note"] for i in data["inputs"]}
    assert "binary" in notes["core.bin"]
    if os.geteuid() != 0:  # root reads mode-0 files anyway
        assert "permission denied" in notes["locked.log"]
        assert "permission denied" in proc.stderr


def test_corrupt_gzip_is_reported(tmp_path):
    gz = tmp_path / "cut.log.gz"
    full = gzip.compress((NOISE + "\n" + OOM + "\n").encode() * 2000)
    gz.write_bytes(full[: len(full) // 2])
    data = json.loads(run_cli("triage", str(gz), "--format", "json").stdout)
    [info] = data["inputs"]
    assert info["note"] and "scanned" in info["note"]


def test_long_line_without_newline_is_scanned_in_bounded_pieces(monkeypatch):
    # the same code path a 2 GB line takes, with small limits so the test stays small
    monkeypatch.setattr(triage_mod, "CHUNK_BYTES", 64 << 10)
    monkeypatch.setattr(triage_mod, "MAX_LINE_BYTES", 128 << 10)
    monkeypatch.setattr(triage_mod, "LONG_LINE_OVERLAP", 4 << 10)
    blob = b"x" * (1 << 20) + OOM.encode() + b"y" * (1 << 20)  # 2 MiB, one line, no newline at all
    t = Triage()
    t.add_stream(io.BytesIO(blob), "huge.log", None)
    res = t.result()
    assert [p.signature.id for p in res.problems] == ["TORCH_NPU_OOM"]
    assert res.problems[0].count == 1 and res.problems[0].first.line == 1
    assert "longer than" in res.inputs[0].note


def test_resolved_by_later_line_is_not_a_failure(tmp_path):
    topo = "[WARNING] DISTRIBUTED(1,1,python):2024-07-12-10:21:33.512.118 [cluster_context.cc:259] BuildCluster] Topology build timed out., retry(3/60)."
    ok = "[INFO] DISTRIBUTED(1,1,python):2024-07-12-10:22:33.512.118 [cluster_context.cc:270] BuildCluster] Cluster is successfully initialized."
    log = write(tmp_path / "sched.log", [topo, ok])
    proc = run_cli("triage", log, "--format", "json")
    assert proc.returncode == 0
    [p] = json.loads(proc.stdout)["problems"]
    assert p["severity"] == "info" and p["resolved_by"]["line"] == 2


@pytest.mark.slow
def test_two_gigabyte_line_without_newline_in_bounded_memory():
    import resource

    class Endless(io.RawIOBase):
        """2 GiB of one line, produced on the fly (nothing on disk)."""
        def __init__(self, size):
            self.left = size
            self.piece = b"z" * (1 << 20)

        def readable(self):
            return True

        def readinto(self, b):
            n = min(len(b), self.left, len(self.piece))
            b[:n] = self.piece[:n]
            self.left -= n
            return n

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = Triage()
    t.add_stream(io.BufferedReader(Endless(2 << 30)), "two-gig.log", None)
    res = t.result()
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert res.inputs[0].bytes == 2 << 30 and "longer than" in res.inputs[0].note
    assert grown_mb < 200


def serial_and_parallel(log, monkeypatch):
    """triage's JSON of `log` read as one stream, then in byte ranges over 3 cores."""
    monkeypatch.setattr(triage_mod, "PARALLEL_MIN_BYTES", 1 << 30)
    serial = triage_paths([log]).to_json()
    monkeypatch.setattr(triage_mod, "PARALLEL_MIN_BYTES", 1 << 16)
    monkeypatch.setattr(triage_mod.os, "cpu_count", lambda: 3)
    return serial, triage_paths([log]).to_json()


def test_parallel_ranges_give_the_same_answer_as_one_stream(tmp_path, monkeypatch):
    lines = []
    for i in range(30000):
        lines.append(NOISE)
        if i in (10, 12000, 29990):
            lines.append(EI0006)
        if i == 15000:
            lines.append(OOM)
    log = write(tmp_path / "worker_2.log", lines)
    serial, parallel = serial_and_parallel(log, monkeypatch)
    assert parallel["problems"] == serial["problems"]
    assert parallel["inputs"][0]["lines"] == serial["inputs"][0]["lines"] == 30004
    ei = next(p for p in parallel["problems"] if p["id"] == "HCCL_EI0006_SOCKET_TIMEOUT")
    assert (ei["count"], ei["first"]["line"], ei["last"]["line"]) == (3, 12, 29995)


def test_parallel_ranges_carry_which_exception_became_which(tmp_path, monkeypatch):
    # the Pillow chain inside the second of three ranges: a range's problems keep `became` through the merge, so the
    # order and the headline are the serial scan's
    chain = _PIL_SAVE.format(chain="The above exception was the direct cause of the following exception:")
    lines = [NOISE] * 15000 + chain.splitlines() + [NOISE] * 15000
    serial, parallel = serial_and_parallel(write(tmp_path / "worker_0.log", lines), monkeypatch)
    assert [p["id"] for p in parallel["problems"]] == ["PIL_CANNOT_WRITE_MODE_AS_FORMAT", "PY_DICT_KEY_NOT_FOUND"]
    assert parallel["problems"][1]["became"] == "PIL_CANNOT_WRITE_MODE_AS_FORMAT"
    assert parallel["problems"] == serial["problems"] and parallel["first_problem"] == serial["first_problem"]


def test_parallel_ranges_carry_any_file_name_and_line(tmp_path, monkeypatch):
    """A child's result crosses a pipe as JSON: a file name that is not UTF-8 (surrogate-escaped) and
    non-UTF-8 bytes in the lines come back exactly."""
    lines = []
    for i in range(30000):
        lines.append(NOISE)
        if i in (10, 29990):
            lines.append(EI0006 + " \udcff")
    raw_name = os.path.join(os.fsencode(tmp_path), b"worker_\xff.log")
    with open(raw_name, "wb") as fh:
        fh.write("\n".join(lines).encode("utf-8", "surrogateescape") + b"\n")
    log = os.fsdecode(raw_name)
    monkeypatch.setattr(triage_mod, "PARALLEL_MIN_BYTES", 1 << 30)
    serial = triage_paths([log]).to_json()
    parent, real = os.getpid(), parallel_mod._scan_range_worker

    def only_in_the_child(job):
        assert os.getpid() != parent, "the child's result did not come back: its range was scanned again here"
        return real(job)

    monkeypatch.setattr(parallel_mod, "_scan_range_worker", only_in_the_child)
    monkeypatch.setattr(triage_mod, "PARALLEL_MIN_BYTES", 1 << 16)
    monkeypatch.setattr(triage_mod.os, "cpu_count", lambda: 2)
    parallel = triage_paths([log]).to_json()
    assert parallel["problems"] == serial["problems"] and parallel["inputs"] == serial["inputs"]
    assert serial["problems"][0]["ranks"]  # the file's label is a key there


def test_a_failed_child_range_is_scanned_by_the_parent(tmp_path, monkeypatch):
    """A forked child that dies (killed, out of memory) loses nothing: its range is scanned in the parent."""
    lines = []
    for i in range(30000):
        lines.append(NOISE)
        if i in (10, 12000, 29990):
            lines.append(EI0006)
    log = write(tmp_path / "worker_2.log", lines)
    monkeypatch.setattr(triage_mod, "PARALLEL_MIN_BYTES", 1 << 30)
    serial = triage_paths([log]).to_json()
    parent, real = os.getpid(), parallel_mod._scan_range_worker

    def dies_in_a_child(job):
        if os.getpid() != parent:
            os._exit(3)
        return real(job)

    monkeypatch.setattr(parallel_mod, "_scan_range_worker", dies_in_a_child)
    monkeypatch.setattr(triage_mod, "PARALLEL_MIN_BYTES", 1 << 16)
    monkeypatch.setattr(triage_mod.os, "cpu_count", lambda: 3)
    parallel = triage_paths([log]).to_json()
    assert parallel["problems"] == serial["problems"] and parallel["inputs"] == serial["inputs"]


def test_unreadable_file_is_named_even_as_root(tmp_path, monkeypatch, capsys):
    # root reads mode-000 files, so make the open itself fail the way it does for a normal user
    locked = write(tmp_path / "locked.log", [OOM])
    readable = write(tmp_path / "ok.log", [EI0006])
    real_open = open

    def fake_open(path, *a, **kw):
        if str(path) == locked:
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, *a, **kw)

    monkeypatch.setattr(triage_mod, "open", fake_open, raising=False)
    from ascend_doctor.cli import main

    assert main(["triage", locked, readable, "--format", "json"]) == 1
    out, err = capsys.readouterr()
    assert "locked.log: cannot read: permission denied" in err
    data = json.loads(out)
    assert [p["id"] for p in data["problems"]] == ["HCCL_EI0006_SOCKET_TIMEOUT"]
    assert main(["triage", locked]) == 2


# -- issue 11: the report never misleads ------------------------------------------------------

WARN_LINE = ("[WARNING] ME(28133:281473194868752,MainProcess):2024-07-12-10:21:33.512.118 [mindspore/run_check/"
             "_check_version.py:357] MindSpore version 2.1.1 and Ascend AI software package (Ascend Data Center "
             "Solution)version 7.0 does not match, the version of software package expect one of ['7.1']")


def test_headline_names_the_earliest_failure_not_an_earlier_warning(tmp_path):
    log = write(tmp_path / "worker_0.log", [WARN_LINE, "[ERROR] ME(1,1,python):2024-07-12-10:25:01.000.000 " + OOM])
    res = triage_paths([log])
    assert res.problems[0].signature.id == "TORCH_NPU_OOM"
    assert res.first_problem().signature.id == "TORCH_NPU_OOM"
    data = json.loads(run_cli("triage", log, "--format", "json").stdout)
    assert data["first_problem"]["id"] == "TORCH_NPU_OOM"
    text = run_cli("triage", log).stdout
    assert_shows(text, EARLIEST_FAIL, label="FAIL", problem="TORCH_NPU_OOM")
    assert "MS_CANN" not in text.split("\n", 1)[0]


def test_headline_is_not_a_wrapper_when_the_line_that_says_why_was_found(tmp_path):
    # torch_npu's ERR envelope carries a time to the second, the aclnn line below it milliseconds: the envelope's
    # time sorts first within that second, yet it says only that a call failed
    lines = ["[ERROR] 2025-02-11-11:32:58 (PID:1, Device:0, RankID:-1) ERR01100 OPS call acl api failed",
             "EZ1001: [PID: 1] 2025-02-11-11:32:58.201.000 PromptFlashAttention LaunchAicore failed.",
             "RuntimeError: call aclnnPromptFlashAttentionV3 failed, detail:EZ1001: PromptFlashAttention LaunchAicore "
             "failed."]
    res = triage_paths([write(tmp_path / "worker_0.log", lines)])
    ids = {p.signature.id: p for p in res.problems}
    assert ids["TORCH_NPU_ERR_CODE_WRAPPER"].signature.kind == "wrapper"
    first = res.first_problem()
    assert first.signature.kind != "wrapper" and first.severity == "fail", [p.signature.id for p in res.problems]
    # the wrapper came first: the headline says which problem leads, not "the earliest", and why the wrapper does not
    over, why = res.passed_over()
    assert over.signature.id == "TORCH_NPU_ERR_CODE_WRAPPER" and why == "wrapper"
    assert_shows(run_cli("triage", str(tmp_path / "worker_0.log"), "--no-color").stdout, LEADS_WRAPPER, label="FAIL",
                 problem=first.signature.id, earlier="TORCH_NPU_ERR_CODE_WRAPPER")
    # a wrapper alone is still the headline
    res = triage_paths([write(tmp_path / "worker_1.log", lines[:1])])
    assert res.first_problem().signature.id == "TORCH_NPU_ERR_CODE_WRAPPER"


def test_a_line_without_a_time_sorts_before_the_timed_line_printed_after_it(tmp_path):
    # torch_npu appends a timed `[ERROR] ... ERR00006 PTA memory error` line to the exception that says why; the
    # exception line has no time of its own, yet it was printed first: it heads the report, not the code's class
    lines = ["Traceback (most recent call last):", '  File "train.py", line 10, in <module>', OOM,
             "[ERROR] 2024-06-11-10:42:37 (PID:2345, Device:0, RankID:-1) ERR00006 PTA memory error"]
    log = write(tmp_path / "train.log", lines)
    res = triage_paths([log])
    assert [p.signature.id for p in res.problems] == ["TORCH_NPU_OOM", "TORCH_NPU_ERROR_CODE"]
    assert res.first_problem().signature.id == "TORCH_NPU_OOM"
    assert res.first_problem().first.time is None  # the shown time stays the line's own: none
    data = json.loads(run_cli("triage", log, "--format", "json").stdout)
    assert data["first_problem"] == {**data["problems"][0]["first"], "id": "TORCH_NPU_OOM"}
    # an untimed line after the last timed one still sorts after every timed line: it may have come later than all
    other = write(tmp_path / "worker_1.log", ["[ERROR] 2024-06-11-10:42:40 (PID:2, Device:1, RankID:-1) ERR00006 "
                                              "PTA memory error"])
    res = triage_paths([write(tmp_path / "worker_0.log", lines[-1:] + [OOM]), other])
    assert res.first_problem().signature.id == "TORCH_NPU_ERROR_CODE"


def test_a_code_and_its_sentence_give_way_to_the_entry_that_reads_that_line(tmp_path):
    line = ("EZ9999: [PID: 775] 2025-02-16-12:18:25.258.321 Cannot find bin of op Range, integral key "
            "0/1/|int64/ND/int64/ND/int64/ND/int64/ND/.")
    ids = [p.signature.id for p in triage_paths([write(tmp_path / "worker_0.log", [line])]).problems]
    assert ids == ["OP_KERNEL_BINARY_NOT_FOUND"]
    # a code of the vendor's catalogue is read with the catalogue's words; one it does not list keeps the last resort
    listed = "EL0003: [PID: 4242] 2025-09-25-10:11:12.123.456 The argument is invalid."
    ids = [p.signature.id for p in triage_paths([write(tmp_path / "worker_1.log", [listed])]).problems]
    assert ids == ["CANN_CATALOGUED_ERROR_CODE"]
    alone = listed.replace("EL0003", "EC0010")
    ids = [p.signature.id for p in triage_paths([write(tmp_path / "worker_2.log", [alone])]).problems]
    assert ids == ["CANN_ERROR_CODE_MESSAGE"]


def test_a_log_whose_only_error_is_a_traceback_is_still_mentioned(tmp_path):
    d = tmp_path / "msrun_log"
    d.mkdir()
    write(d / "worker_0.log", [NOISE, OOM])
    write(d / "worker_1.log", [NOISE, "Traceback (most recent call last):", '  File "train.py", line 3, in <module>',
                               "ValueError: my own bug in the data loader"])
    data = json.loads(run_cli("triage", str(d), "--format", "json").stdout)
    assert [p["id"] for p in data["problems"]] == ["TORCH_NPU_OOM"]
    assert any("ValueError: my own bug" in e["text"] and e["file"].endswith("worker_1.log")
               for e in data["unexplained_errors"])
    assert "ValueError: my own bug" in run_cli("triage", str(d)).stdout


def test_documents_and_json_in_a_log_directory_are_not_scanned_as_logs(tmp_path):
    d = tmp_path / "logs"
    d.mkdir()
    write(d / "README.md", ["# How we ran it", OOM])
    write(d / "events.jsonl", ['{"msg": "%s"}' % OOM])
    write(d / "report.json", ['{"line": "%s"}' % OOM])
    write(d / "worker_0.log", [NOISE, EI0006])
    data = json.loads(run_cli("triage", str(d), "--format", "json").stdout)
    assert [p["id"] for p in data["problems"]] == ["HCCL_EI0006_SOCKET_TIMEOUT"]
    assert {p["first"]["file"].split("/")[-1] for p in data["problems"]} == {"worker_0.log"}
    skipped = {os.path.basename(i["file"]) for i in data["inputs"] if not i["scanned"]}
    assert skipped == {"README.md", "events.jsonl", "report.json"}


def test_problems_cite_sources_a_user_can_open(tmp_path):
    log = write(tmp_path / "a.log", [OOM, EI0006])
    data = json.loads(run_cli("triage", log, "--format", "json").stdout)
    for p in data["problems"]:
        assert "reference/error_signatures.md" not in p["source"] and p["source"]
        assert p["more"] == f"ascend-doctor kb show {p['id']}" and isinstance(p["ascend_fd"], list)
    assert "reference/error_signatures.md" not in run_cli("triage", log).stdout
    assert "reference/error_signatures.md" not in run_cli("triage", log, "--format", "markdown").stdout


def test_leads_to_puts_the_cause_first_and_says_caused_by(tmp_path, monkeypatch):
    from ascend_doctor.kb.load import load_knowledge_base

    kb = load_knowledge_base()
    oom, ei = kb.signature("TORCH_NPU_OOM"), kb.signature("HCCL_EI0006_SOCKET_TIMEOUT")
    monkeypatch.setattr(oom, "leads_to", ["fd-effect"], raising=False)
    monkeypatch.setattr(ei, "ascend_fd", ["fd-effect"], raising=False)
    # the effect is logged first and is a fail too: without the edge it would come first
    log = write(tmp_path / "a.log", [EI0006.replace("10:25:05", "10:20:00"),
                                     "[ERROR] ME(1,1,python):2024-07-12-10:25:01.000.000 " + OOM])
    res = triage_paths([log], kb)
    ids = [p.signature.id for p in res.problems]
    assert ids.index("TORCH_NPU_OOM") + 1 == ids.index("HCCL_EI0006_SOCKET_TIMEOUT")
    assert res.problems[ids.index("HCCL_EI0006_SOCKET_TIMEOUT")].caused_by == "TORCH_NPU_OOM"
    # the reference's fault_chains: on the cause, the chain and where both showed
    chains = {p["id"]: p["fault_chains"] for p in res.to_json()["problems"]}
    assert chains["TORCH_NPU_OOM"] == [{"worker": [log], "chains": "TORCH_NPU_OOM -> HCCL_EI0006_SOCKET_TIMEOUT"}]
    assert chains["HCCL_EI0006_SOCKET_TIMEOUT"] == []


@pytest.mark.parametrize("path,kind", [
    ("w0/process_log/debug/plog/plog-31337_20240712102133512.log", "plog"),
    ("w0/plog-parser-69404-1.log", "plog"),
    ("w0/process_log/debug/device-3/device-31337_20240712102133512.log", "device"),
    ("w0/var/log/messages", "os"), ("w0/dmesg.log", "os"), ("w0/sysmonitor.log", "os"), ("w0/syslog.1", "os"),
    ("w0/hisi_logs/device-0/slog.log", "npu_os"), ("w0/slog/dev-os-3/run.log", "npu_os"),
    ("w0/slog/host-0/host-0_2024.log", "npu_host"), ("w0/bbox/history.log", "npu_history"),
    ("w0/bmc_dump/app.log", "bmc"), ("w0/volcano-scheduler.log", "mindx"),
    ("w0/msrun_log/worker_3.log", "train"), ("w0/rank_2/train.log", "train")])
def test_log_kind_from_the_path(path, kind):
    from ascend_doctor.triage.layout import classify

    assert classify(path)[0] == kind


def test_cluster_directory_layout_names_nodes(tmp_path):
    for node in ("worker-0", "gpu-host-17"):
        d = tmp_path / "job" / node / "msrun_log"
        d.mkdir(parents=True)
        write(d / "worker_0.log", [NOISE, OOM])
    write(tmp_path / "job" / "README.md", ["# notes"])
    data = json.loads(run_cli("triage", str(tmp_path / "job"), "--format", "json").stdout)
    assert data["nodes"] == ["gpu-host-17", "worker-0"]
    assert set(data["problems"][0]["ranks"]) == {"rank 0"} or data["problems"][0]["count"] == 2
    lone = json.loads(run_cli("triage", str(tmp_path / "job" / "worker-0" / "msrun_log"), "--format", "json").stdout)
    assert lone["nodes"] == ["worker-0"]
    named = json.loads(run_cli("triage", str(tmp_path / "job"), "--node", "n1", "--format", "json").stdout)
    assert named["nodes"] == ["n1"]


# ---- nothing dropped: unexplained error lines (issue 21, item 4) ----

# error lines no signature explains (issue 21's own examples, 'halGetDeviceInfo failed, ret=107010' and
# 'aclnnMatmulGetWorkspaceSize call failed', are now named by the class entries: test_class_entries_name_...)
DRV = "[ERROR] DRV(2086,python3):2024-07-12-10:21:{s:02d}.520.037 dev_query: item 12 of device 0 is out of range"
ACLNN = "RuntimeError: the sampler queue of worker 3 was closed"


UNKNOWN_FATAL = "[FATAL] QZX(4242,python):2026-12-06-06:00:00.000.000 [qzx.cc:12] Frob] the frobnicator left its lane"


def test_every_unexplained_error_line_is_listed_once_with_file_and_line(tmp_path):
    d = tmp_path / "job"
    d.mkdir()
    write(d / "worker_0.log", [NOISE, DRV.format(s=1), NOISE, DRV.format(s=2), "Traceback (most recent call last):",
                               '  File "train.py", line 3, in <module>', ACLNN])
    write(d / "worker_1.log", [NOISE, "Segmentation fault (core dumped)", UNKNOWN_FATAL, NOISE, OOM])
    data = json.loads(run_cli("triage", str(d), "--format", "json").stdout)
    # the segfault is a known problem (PROCESS_SEGFAULT, data/kb/field_cases.json): explained, not listed again; the
    # FATAL line of a module nobody has written an entry for is listed
    assert sorted(p["id"] for p in data["problems"]) == ["PROCESS_SEGFAULT", "TORCH_NPU_OOM"]
    got = [(e["file"].rsplit("/", 1)[-1], e["line"], e["count"]) for e in data["unexplained_errors"]]
    assert got == [("worker_0.log", 2, 2), ("worker_0.log", 7, 1), ("worker_1.log", 3, 1)]
    assert data["unexplained_total"] == 3 and data["unexplained_lines"] == 4
    assert "dev_query: item 12" in data["unexplained_errors"][0]["text"]
    text = run_cli("triage", str(d)).stdout
    assert_shows(text, "Errors no known signature explains (read them too):")
    assert "worker_0.log:2 (×2): [ERROR] DRV" in text
    assert ACLNN in text and f"worker_1.log:3: {UNKNOWN_FATAL}" in text


def test_torch_c10_error_lines_are_error_lines_and_its_warnings_are_not(tmp_path):
    """torch_npu logs through c10 with a rank prefix and a glog-like level: `[rank1]:[E324 13:00:25.428 ...]`."""
    err = ("[rank1]:[E324 13:00:25.428107952 compiler_depend.ts:634] To avoid data inconsistency, we are taking the "
           "entire process down.")
    warn = "[rank1]:[W324 13:00:25.428107952 compiler_depend.ts:634] ERROR count of the last window was reset"
    data = triage_paths([write(tmp_path / "a.log", [NOISE, warn, err])]).to_json()
    assert [(e["line"], e["text"]) for e in data["unexplained_errors"]] == [(3, err)]


def test_no_known_problem_headline_counts_the_lines_not_recognised(tmp_path):
    log = write(tmp_path / "a.log", [NOISE, DRV.format(s=1), ACLNN, NOISE])
    proc = run_cli("triage", log)
    assert proc.returncode == 0
    assert_shows(proc.stdout, "No known problem found in these logs; {count} error line(s) not recognised.", count=2)
    assert run_cli("triage", log, "--fail-on", "unexplained").returncode == 1
    clean = write(tmp_path / "b.log", [NOISE, NOISE])
    assert run_cli("triage", clean, "--fail-on", "unexplained").returncode == 0
    assert_shows(run_cli("triage", clean).stdout, "No error-looking lines either.")


def test_unexplained_lines_are_capped_and_counted(tmp_path):
    lines = [f"[ERROR] APP(1,python):2024-07-12 odd thing {chr(65 + i % 26)}{chr(65 + i // 26)} happened"
             for i in range(80)]
    data = json.loads(run_cli("triage", write(tmp_path / "a.log", lines), "--format", "json").stdout)
    assert len(data["unexplained_errors"]) == triage_mod.UNEXPLAINED_KEEP and data["unexplained_total"] == 80
    text = run_cli("triage", str(tmp_path / "a.log")).stdout
    assert_shows(text, "… and {count} more (--format json lists the first {keep})", count=60, keep=50)


def test_an_explained_error_line_is_not_listed_again(tmp_path):
    log = write(tmp_path / "a.log", [NOISE, "[ERROR] ME(1,1,python):2024-07-12-10:25:01.000.000 [x.cc:1] " + OOM])
    data = json.loads(run_cli("triage", log, "--format", "json").stdout)
    assert data["unexplained_errors"] == [] and data["unexplained_total"] == 0


def test_parallel_ranges_list_the_same_unexplained_lines(tmp_path, monkeypatch):
    lines = []
    for i in range(30000):
        lines.append(NOISE)
        if i in (10, 12000, 29990):
            lines.append(DRV.format(s=i % 60))
        if i == 15000:
            lines.append(ACLNN)
    log = write(tmp_path / "worker_2.log", lines)
    serial, parallel = serial_and_parallel(log, monkeypatch)
    for key in ("unexplained_errors", "unexplained_total", "unexplained_lines", "last_error_lines"):
        assert parallel[key] == serial[key], key
    assert [(e["line"], e["count"]) for e in serial["unexplained_errors"]] == [(12, 3), (15004, 1)]


# a traceback printed through vLLM's logger (heldout9 h9_04, its exception line made one no entry explains)
VLLM = "(Worker_TP0 pid=74487) ERROR 03-01 20:55:34 [multiproc_executor.py:671] "
TRACEBACK = [VLLM + "Traceback (most recent call last):",
             VLLM + '  File "/root/venv/lib/python3.10/site-packages/vllm_ascend/worker/worker.py", line 108, in __init__',
             VLLM + "    _register_extensions()",
             VLLM + '  File "/root/venv/lib/python3.10/site-packages/torch/_ops.py", line 1444, in load_library',
             VLLM + '    raise OSError(f"Could not load this library: {path}") from e',
             VLLM + "             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
             VLLM + "SystemError: the sampler queue of worker 3 was closed"]


def test_a_traceback_through_a_logger_is_one_unexplained_error(tmp_path):
    log = write(tmp_path / "a.log", [NOISE] + TRACEBACK + [NOISE])
    proc = run_cli("triage", log, "--format", "json")
    data = json.loads(proc.stdout)
    assert data["problems"] == []
    [e] = data["unexplained_errors"]
    assert (e["line"], e["text"], e["count"]) == (8, TRACEBACK[-1], 1)
    assert e["traceback"] == {"first_line": 2, "frames": 2, "lines": 7, "exception": True}
    assert data["unexplained_total"] == 1 and data["unexplained_lines"] == 1
    assert [x["line"] for x in data["last_error_lines"]] == [8]
    text = run_cli("triage", log).stdout
    assert_shows(text, "No known problem found in these logs; {count} error line(s) not recognised.", count=1)
    assert_shows(text, "(a traceback from line {first}: {frames} frame(s) folded into its exception line)",
                 first=2, frames=2)
    assert "a.log:3" not in text and "a.log:8: " + TRACEBACK[-1] in text
    assert all(len(line) <= 80 for line in text.splitlines() if "a.log:" not in line)
    assert run_cli("triage", log, "--fail-on", "unexplained").returncode == 1


def test_a_traceback_the_log_stops_in_is_listed_by_its_last_frame(tmp_path):
    log = write(tmp_path / "a.log", [NOISE] + TRACEBACK[:5])
    [e] = triage_paths([log]).to_json()["unexplained_errors"]
    assert (e["line"], e["traceback"]) == (5, {"first_line": 2, "frames": 2, "lines": 5, "exception": False})
    assert_shows(run_cli("triage", log).stdout, "(a traceback from line {first}, {frames} frame(s) folded; its "
                 "exception line is not in the log)", first=2, frames=2)


def test_a_real_error_line_between_a_tracebacks_frames_is_listed(tmp_path):
    drv = DRV.format(s=3)
    other = "(EngineCore_DP0 pid=54) ERROR 12-30 06:28:17 [multiproc_executor.py:231] Worker proc VllmWorker-0 died"
    log = write(tmp_path / "a.log", TRACEBACK[:3] + [drv, other] + TRACEBACK[3:])
    got = [(e["line"], e["text"], e["traceback"] and e["traceback"]["frames"])
           for e in triage_paths([log]).to_json()["unexplained_errors"]]
    assert got == [(4, drv, None), (5, other, None), (9, TRACEBACK[-1], 2)]


def test_a_traceback_whose_exception_is_known_lists_none_of_its_lines(tmp_path):
    log = write(tmp_path / "a.log", TRACEBACK[:-1] + [VLLM + OOM])
    data = triage_paths([log]).to_json()
    assert [p["id"] for p in data["problems"]] == ["TORCH_NPU_OOM"] and data["unexplained_errors"] == []


def test_frames_no_longer_fill_the_list_and_cut_the_tails(tmp_path):
    """Before, each frame was an entry: 30 tracebacks of 3 frames filled the 50 the JSON keeps before the 20th tail.
    Now each is one entry, its exception line."""
    words = [chr(97 + i % 26) * (1 + i // 26) for i in range(30)]  # tails that differ in more than their numbers
    lines = []
    for w in words:
        lines += TRACEBACK[:3] + TRACEBACK[1:3] + TRACEBACK[1:3] + [VLLM + f"SystemError: queue {w} was closed"]
    data = triage_paths([write(tmp_path / "a.log", lines)]).to_json()
    got = [e["text"].rsplit("queue ", 1)[-1] for e in data["unexplained_errors"]]
    assert got == [f"{w} was closed" for w in words] and data["unexplained_total"] == 30
    assert {e["traceback"]["frames"] for e in data["unexplained_errors"]} == {3}


def test_parallel_ranges_fold_the_same_tracebacks(tmp_path, monkeypatch):
    lines = []
    for i in range(30000):
        lines.append(NOISE)
        if i in (10, 12000, 29990):
            lines += TRACEBACK
    log = write(tmp_path / "worker_2.log", lines)
    serial, parallel = serial_and_parallel(log, monkeypatch)
    for key in ("unexplained_errors", "unexplained_total", "unexplained_lines", "last_error_lines"):
        assert parallel[key] == serial[key], key
    [e] = serial["unexplained_errors"]
    assert (e["line"], e["count"], e["traceback"]["first_line"]) == (18, 3, 12)


def test_parallel_ranges_read_peer_ids_from_the_same_first_lines(tmp_path, monkeypatch):
    """A problem's ascend-fd ids come from its first PEER_LINES matched lines; a big file's ranges, scanned apart,
    fold to the same ids (a later range's id seen past those lines is not added)."""
    def cann(code):
        return f"[ERROR] RUNTIME(11,python):2024-07-12-10:21:33.000.000 [x.cc:1] {code}: odd thing"

    codes = {10: "EQ5501", 11: "EQ5501", 12: "EQ5501", 13: "EQ5501", 14: "EQ5501", 15: "EQ5501",
             20000: "EQ5502", 20001: "EQ5502", 20002: "EQ5509"}
    lines = []
    for i in range(30000):
        lines.append(NOISE)
        if i in codes:
            lines.append(cann(codes[i]))
    log = write(tmp_path / "worker_2.log", lines)
    serial, parallel = serial_and_parallel(log, monkeypatch)
    assert triage_mod.PEER_LINES == 8  # 6 lines of EQ5501, then 2 of EQ5502: EQ5509 is the 9th
    assert serial["problems"][0]["ascend_fd"] == ["AISW_CANN_ERRCODE_Custom_EQ5501", "AISW_CANN_ERRCODE_Custom_EQ5502"]
    assert parallel["problems"][0]["ascend_fd"] == serial["problems"][0]["ascend_fd"]


# ---- honest places (issue 21, item 5) ----

def test_first_and_last_are_by_time_across_files(tmp_path):
    d = tmp_path / "msrun_log"
    d.mkdir()
    # worker_0 is read first, but its line is the latest; worker_1's last line is not the latest of all
    write(d / "worker_0.log", [NOISE, EI0006.replace("10:25:05", "10:40:00")])
    write(d / "worker_1.log", [EI0006.replace("10:25:05", "10:20:00"), NOISE, EI0006.replace("10:25:05", "10:30:00")])
    [p] = [p for p in triage_paths([str(d)]).problems if p.signature.id == "HCCL_EI0006_SOCKET_TIMEOUT"]
    assert (p.first.file.endswith("worker_1.log"), p.first.line, p.first.time) == (True, 1, "2024-07-12 10:20:00.104")
    assert (p.last.file.endswith("worker_0.log"), p.last.line, p.last.time) == (True, 2, "2024-07-12 10:40:00.104")


def test_paths_are_shown_as_they_open_from_where_triage_ran(tmp_path):
    d = tmp_path / "job" / "msrun_log"
    d.mkdir(parents=True)
    write(d / "worker_3.log", [NOISE, OOM])
    for arg, cwd in ((str(tmp_path / "job"), None), ("job", str(tmp_path)), ("./job/", str(tmp_path)),
                     ("../job", str(tmp_path / "job"))):
        data = json.loads(run_cli("triage", arg, "--format", "json", cwd=cwd).stdout)
        shown = data["problems"][0]["first"]["file"]
        assert os.path.isfile(os.path.join(cwd or os.getcwd(), shown)), (arg, shown)
        assert data["problems"][0]["first"]["rank"] == "rank 3" and data["nodes"] == ["job"]


def test_a_missing_input_is_a_warning_and_names_no_node(tmp_path):
    (tmp_path / "node-a").mkdir()
    good = write(tmp_path / "node-a" / "train.log", [NOISE, OOM])
    proc = run_cli("triage", good, str(tmp_path / "gone" / "train.log"), "--format", "json")
    assert proc.returncode == 1 and "gone/train.log: no such file" in proc.stderr
    data = json.loads(proc.stdout)
    assert data["nodes"] == ["node-a"]
    assert run_cli("triage", str(tmp_path / "gone" / "train.log")).returncode == 2


def test_a_line_of_another_level_is_not_an_unexplained_error(tmp_path):
    log = write(tmp_path / "a.log", ["[INFO] HCCL(1,python):2024-07-12-10:21:33.512.118 [x.cc:1] getLastError: none",
                                     "W0712 10:21:33.512118 1 x.cpp:1] retrying after RuntimeError: busy", ACLNN])
    data = json.loads(run_cli("triage", log, "--format", "json").stdout)
    assert [e["line"] for e in data["unexplained_errors"]] == [3]


def test_a_value_said_in_the_words_is_redacted_as_the_quoted_line(tmp_path, monkeypatch):
    """Issue 21 round 3: a title/cause/fix placeholder takes its value from the matched line as the report shows it,
    so a secret in that line is masked in the words too; without the secret the value is said."""
    secret = "s3cr3tModuleName42"
    monkeypatch.setenv("MY_API_TOKEN", secret)
    triage_mod._forget_redactor()
    log = write(tmp_path / "a.log", [NOISE, f"ModuleNotFoundError: No module named '{secret}'",
                                      "ModuleNotFoundError: No module named 'dlinfer'"])
    p = {q["id"]: q for q in triage_paths([log]).to_json()["problems"]}["PY_MODULE_NOT_INSTALLED"]
    assert secret not in json.dumps(p) and secret not in p["line"]
    assert "`dlinfer`" not in p["title"]  # the first matched line is the one shown, and its words
    other = write(tmp_path / "b.log", [NOISE, "ModuleNotFoundError: No module named 'dlinfer'"])
    triage_mod._forget_redactor()
    q = {r["id"]: r for r in triage_paths([other]).to_json()["problems"]}["PY_MODULE_NOT_INSTALLED"]
    assert "(`dlinfer`)" in q["title"] and 'import dlinfer"' in q["fix"][0]


def test_repeated_lines_count_and_time_as_each_line_alone(tmp_path, monkeypatch):
    """A dense log repeats its matched lines: the line memos (the scanner's, the record plans) and the last
    occurrence made once per region give what reading one line at a time gives: the count, the first, the last by
    time (a line with an earlier time further down does not become the last), the unexplained lines."""
    def ei(sec):
        return EI0006.replace("10:25:05", f"10:25:{sec:02d}")

    odd = "[ERROR] RUNTIME(1,python):2024-07-12-10:20:00.000.000 [x.cc:1][1]something odd happened"
    lines, want_last = [], None
    for i in range(5000):
        lines.append(NOISE)
        if i % 50 == 0:
            lines.append(ei(10))
        if i == 2500:
            lines.append(ei(50))
            want_last = len(lines)
        if i % 70 == 0:
            lines.append(OOM)
            oom_last = len(lines)
        if i % 90 == 0:
            lines.append(odd)
    log = write(tmp_path / "worker_0.log", lines)
    monkeypatch.setattr(triage_mod, "CHUNK_BYTES", 16 << 10)  # many regions
    memo = triage_paths([log]).to_json()
    from ascend_doctor.triage.match import scanner as scanner_mod

    monkeypatch.setattr(scanner_mod, "_MEMO_LINE_MAX", -1)
    monkeypatch.setattr(triage_mod, "_PLAN_LINE_MAX", -1)
    alone = triage_paths([log]).to_json()
    assert memo == alone
    by_id = {p["id"]: p for p in memo["problems"]}
    ei_p = by_id["HCCL_EI0006_SOCKET_TIMEOUT"]
    assert (ei_p["count"], ei_p["first"]["line"], ei_p["last"]["line"]) == (101, 2, want_last)
    assert ei_p["last"]["time"].endswith("10:25:50.104")
    oom = next(p for p in memo["problems"] if p["count"] == 72 and p["last"]["line"] == oom_last)
    assert oom["first"]["line"] == 3
    [unexplained] = [u for u in memo["unexplained_errors"] if "something odd" in u["text"]]
    assert unexplained["count"] == 56


# ---- class entries (fallback): the fault named from the error line's own structure (issue 21, recall) ----

def test_class_entries_name_the_lines_issue_21_found_dropped(tmp_path):
    """An aclnn call, a runtime/driver call, a module-failure code and an HCCL result with no entry of their own are
    named by their class, with what the line says (the API, the code's documented meaning), not left unexplained."""
    lines = [NOISE,
             "RuntimeError: aclnnMatmulGetWorkspaceSize call failed",
             "[ERROR] DRV(2086,python3):2024-07-12-10:21:01.520.037 halGetDeviceInfo failed, ret=107010",
             "RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:218 OPS function error: "
             "GridSampler3D, error code is 500002",
             "RuntimeError: allreduce:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:100 HCCL function error: "
             "HcclAllReduce(inputDataPtr, outputDataPtr, numel, hcclType, op, comm, stream), error code is 9"]
    data = triage_paths([write(tmp_path / "a.log", lines)]).to_json()
    titles = {p["id"]: p["title"] for p in data["problems"]}
    assert set(titles) == {"ACLNN_OPERATOR_CALL_FAILED", "CANN_RUNTIME_CALL_FAILED", "CANN_MODULE_FAILURE_CODE",
                           "HCCL_FUNCTION_ERROR_RESULT"}, titles
    assert "`aclnnMatmul`" in titles["ACLNN_OPERATOR_CALL_FAILED"]
    # a driver call's ret is the driver's code: not read as an AscendCL one (107010 would be 'write file failed')
    assert "`halGetDeviceInfo`" in titles["CANN_RUNTIME_CALL_FAILED"] and "write file" not in titles[
        "CANN_RUNTIME_CALL_FAILED"]
    assert "ACL_ERROR_GE_FAILURE" in titles["CANN_MODULE_FAILURE_CODE"]
    assert "HCCL_E_TIMEOUT" in titles["HCCL_FUNCTION_ERROR_RESULT"] and "timeout" in titles[
        "HCCL_FUNCTION_ERROR_RESULT"]
    assert data["unexplained_errors"] == []


def test_a_class_entry_gives_way_to_a_specific_one_on_its_line(tmp_path):
    # 161002 has an entry of its own (ACLNN_PARAM_INVALID_161002), and 107002 (ACL_CONTEXT_NULL_107002); the class
    # entries reading the same lines (the aclnn call, the runtime call) are not reported beside them
    lines = ["RuntimeError: npu_quant_matmul:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:211 NPU function error: "
             "call aclnnQuantMatmulWeightNz failed, error code is 161002"]
    ids = [p["id"] for p in triage_paths([write(tmp_path / "a.log", lines)]).to_json()["problems"]]
    assert "ACLNN_PARAM_INVALID_161002" in ids and "ACLNN_OPERATOR_CALL_FAILED" not in ids
    # and a wrapper gives way to a class entry: torch_npu's 'error code is N' envelope is not reported beside it
    lines = ["RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:218 OPS function error: "
             "Conv3D, error code is 500002"]
    ids = [p["id"] for p in triage_paths([write(tmp_path / "b.log", lines)]).to_json()["problems"]]
    assert ids == ["CANN_MODULE_FAILURE_CODE"]


def test_class_entries_stay_silent_on_ordinary_lines(tmp_path):
    lines = ["[INFO] HCCL(500002,python):2024-07-12-10:20:00.000.000 [op_base.cc:1] Entry-HcclAllReduce: count[500003]",
             "epoch: 1 step: 500002, loss is 0.532",
             "[INFO] RUNTIME(1234,python):2024-07-12-10:20:00.000.000 [api_c.cc:1] aclrtSetDevice success, deviceId=0",
             "[INFO] OP(1234,python):2024-07-12-10:20:00.000.000 aclnnMatmulGetWorkspaceSize success, workspace 1024",
             "[WARNING] DRV(1234,python):2024-07-12-10:20:00.000.000 halGetAPIVersion failed, use default version"]
    data = triage_paths([write(tmp_path / "a.log", lines)]).to_json()
    assert data["problems"] == []


# A class entry of last resort (OS_ERRNO_REPORTED reads a bare `errno=N`) gives a FAIL only where the line's writer
# did not log it below the error level: an INFO line's retry is a warning, a later error line of the same entry the FAIL
ERRNO_INFO = ("[INFO] HCCL(507010,python):2024-07-12-10:20:00.000.000 [hccl_socket.cc:100][507010]socket connect "
              "errno=113 retry 3")
ERRNO_WARN = "[WARNING] HCCL(507010,python):2024-07-12-10:20:01.000.000 [hccl_socket.cc:120] send failed, errno=104"
ERRNO_FAIL = "2024-07-12 10:20:05,100 open failed, errno=116"


def _errno_problem(data):
    return next(p for p in data["problems"] if p["id"] == "OS_ERRNO_REPORTED")


def test_a_last_resort_entry_on_info_and_warning_lines_is_a_warning(tmp_path):
    data = triage_paths([write(tmp_path / "train.log", [NOISE, ERRNO_INFO, ERRNO_WARN])]).to_json()
    p = _errno_problem(data)
    assert (p["severity"], p["count"], p["line"]) == ("warn", 2, ERRNO_INFO)
    assert p["line_at"]["line"] == p["first"]["line"] == 2
    assert data["summary"]["fail"] == 0


def test_a_graded_entry_shows_its_first_fail_line_and_heads_the_report_from_there(tmp_path):
    """The INFO lines before it do not hide the error line: the problem is a FAIL, shows that line with its place,
    and the headline names the place of the FAIL; `first` stays the earliest hit."""
    log = write(tmp_path / "train.log", [NOISE, ERRNO_INFO, ERRNO_WARN, NOISE, ERRNO_FAIL, ERRNO_FAIL])
    result = triage_paths([log])
    data = result.to_json()
    p = _errno_problem(data)
    assert (p["severity"], p["count"], p["line"]) == ("fail", 4, ERRNO_FAIL)
    assert (p["first"]["line"], p["line_at"]["line"], p["last"]["line"]) == (2, 5, 6)
    assert (data["first_problem"]["id"], data["first_problem"]["line"]) == ("OS_ERRNO_REPORTED", 5)
    from ascend_doctor.render.triage_report import render_triage

    text = render_triage(result, "text")
    assert f"> {log}:5: {ERRNO_FAIL}" in text
    assert f"OS_ERRNO_REPORTED at {log}:5" in " ".join(text.split())


def test_a_graded_entry_reads_the_same_from_parallel_ranges(tmp_path, monkeypatch):
    lines = []
    for i in range(30000):
        lines.append(NOISE)
        if i in (10, 15000):
            lines.append(ERRNO_INFO)
        if i in (25000, 29000):
            lines.append(ERRNO_FAIL)
    log = write(tmp_path / "worker_2.log", lines)
    serial, parallel = serial_and_parallel(log, monkeypatch)
    assert parallel["problems"] == serial["problems"]
    p = _errno_problem(serial)
    assert (p["severity"], p["count"], p["first"]["line"], p["line_at"]["line"]) == ("fail", 4, 12, 25004)


def test_a_large_json_report_is_written_a_problem_at_a_time_with_the_same_text(tmp_path, monkeypatch):
    """Past COMPACT_JSON_ABOVE problems the JSON report is made a problem at a time (jsonstream): 2,000 problems'
    6 MB held as dicts, then as one json.dumps, were the peak of a steady run. The text is json.dumps's, and the
    CLI writes the same bytes to stdout and to --output."""
    from ascend_doctor.render import triage_report

    log = write(tmp_path / "train.log", [EI0006, NOISE, ERRNO_FAIL, "[ERROR] ME(1,1,python):2024-07-12-10:25:01.000.000 " + OOM])
    result = triage_paths([log])
    assert len(result.problems) >= 2
    monkeypatch.setattr(triage_report, "COMPACT_JSON_ABOVE", 1)
    pieces = triage_report.triage_pieces(result, "json")
    assert not isinstance(pieces, list)  # made as it is written
    text = "".join(pieces)
    assert text == json.dumps(result.to_json(), ensure_ascii=False) + "\n"
    assert "".join(triage_report.triage_pieces(result, "text")) == triage_report.render_triage(result, "text")
    out = tmp_path / "r.json"
    proc = run_cli("triage", log, "--format", "json", "-o", str(out))
    assert proc.returncode == 1, proc.stderr
    assert out.read_text(encoding="utf-8") == run_cli("triage", log, "--format", "json").stdout
