"""commands/triage.py: `ascend-doctor triage`: inputs (files, gzip, stdin) and exit codes."""

import gzip
import json
from tests.helpers import run_cli
from tests.triage.test_triage import EI0006, NOISE, OOM  # noqa: F401


def test_gzip_and_stdin(tmp_path):
    gz = tmp_path / "old.log.gz"
    with gzip.open(gz, "wt") as fh:
        fh.write(NOISE + "\n" + OOM + "\n")
    data = json.loads(run_cli("triage", str(gz), "--format", "json").stdout)
    assert [p["id"] for p in data["problems"]] == ["TORCH_NPU_OOM"]
    proc = run_cli("triage", "-", "--format", "json", input=NOISE + "\n" + EI0006 + "\n")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["problems"][0]["first"]["file"] == "<stdin>"


def test_nothing_readable_is_exit_2(tmp_path):
    proc = run_cli("triage", str(tmp_path / "missing.log"))
    assert proc.returncode == 2 and "missing.log" in proc.stderr and "Traceback" not in proc.stderr
    assert run_cli("triage").returncode == 2


def test_a_console_capture_saved_as_text_is_read_and_a_folder_of_no_logs_names_its_files(tmp_path):
    # a launcher's console output saved as .txt: no timestamp, no level, only argparse's refusal — a log all the same
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "console.txt").write_text(
        "usage: msrun [-h] [--worker_num WORKER_NUM] [--bind_core BIND_CORE]\n             task_script ...\n"
        "msrun: error: argument --bind_core: Key x must be in format 'scheduler' or 'deviceX'.\n")
    data = json.loads(run_cli("triage", str(tmp_path / "run"), "--format", "json", "--lang", "en").stdout)
    assert data["problems"] or data["unexplained_errors"], data
    # a folder whose files are none of them logs: the error's "lines above" are there, one per file skipped
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "readme.txt").write_text("how to run the job\nstep one: install\n")
    (tmp_path / "notes" / "conf.yaml").write_text("a: 1\n")
    proc = run_cli("triage", str(tmp_path / "notes"), "--lang", "en")
    assert proc.returncode == 2 and "none of the inputs could be read" in proc.stderr
    assert "readme.txt: not a log file" in proc.stderr and "conf.yaml: not a log file" in proc.stderr


def test_progress_past_two_seconds_counts_files_and_bytes(tmp_path, monkeypatch, capsys):
    """Files read / total and MB/s on stderr once reading passes PROGRESS_AFTER_S: asked for with --progress
    when stderr is not a terminal (none otherwise)."""
    import argparse

    from ascend_doctor.commands import triage as cmd
    from ascend_doctor.triage import Triage

    for k in range(3):
        (tmp_path / f"worker_{k}.log").write_text("[ERROR] ME(1,1,python):2024-07-12-10:21:33.512.118 x\n" * 100)
    monkeypatch.setattr(cmd, "PROGRESS_AFTER_S", 0.0)
    t = Triage()
    cmd._progress(t, argparse.Namespace(progress=False))
    assert t.progress is None  # not a terminal, not asked
    seen = []
    t.progress = lambda *a: seen.append(a)
    t.add_path(str(tmp_path))
    assert [a[:2] for a in seen] == [(1, 3), (2, 3), (3, 3)] and seen[-1][2] == 3 * 53 * 100
    t = Triage()
    cmd._progress(t, argparse.Namespace(progress=True))
    t.add_path(str(tmp_path))
    assert "reading logs: 1/3 files, 0 MB" in capsys.readouterr().err


def test_the_collector_is_paused_for_the_run_and_resumed_as_it_was(tmp_path, monkeypatch):
    """triage builds millions of acyclic records on a big merge: the cyclic collector is off while it runs and
    back as the caller had it afterwards (on, or off), also when the run fails."""
    import gc

    from ascend_doctor.commands import triage as cmd

    log = tmp_path / "a.log"
    log.write_text(OOM + "\n")
    during = []
    real = cmd._triage
    monkeypatch.setattr(cmd, "_triage", lambda args: during.append(gc.isenabled()) or real(args))
    was = gc.isenabled()
    try:
        gc.enable()
        assert run_cli("triage", str(log)).returncode == 1 and gc.isenabled()
        gc.disable()
        assert run_cli("triage", str(tmp_path / "missing.log")).returncode == 2 and not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert during == [False, False]


def test_the_collector_stays_paused_when_the_process_ends_after_the_command(tmp_path, monkeypatch):
    """`ascend-doctor triage` as a command (console_main): the process ends when the triage does, so the collector is
    not resumed for one last walk over every object the run made; an in-process caller's is (the test above)."""
    import gc

    from ascend_doctor import cli

    log = tmp_path / "a.log"
    log.write_text(OOM + "\n")
    monkeypatch.setattr(cli, "ENDS_AFTER_MAIN", [True])
    was = gc.isenabled()
    try:
        gc.enable()
        assert run_cli("triage", str(log)).returncode == 1 and not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()



def test_the_first_run_says_it_builds_the_matcher_where_progress_is_shown(tmp_path, monkeypatch, capsys):
    """The first run after an install or an update compiles the knowledge base's matcher (tens of seconds): said on
    stderr once, before the build, where the progress line would be (--progress, or a terminal); never on a later run
    (the cache is there), nothing where progress is not shown, and not left set for an in-process caller."""
    import argparse
    import os

    from ascend_doctor.commands import triage as cmd
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.triage.match import cache, scanner

    monkeypatch.setenv(cache.CACHE_ENV_DIR, str(tmp_path / "cache"))
    built = []
    monkeypatch.setattr(scanner, "_build_apart", lambda s, order, path: built.append(path))

    def fake_build(self, order, path):  # the cache file written, nothing compiled
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "wb").close()
        return False

    monkeypatch.setattr(scanner.Scanner, "_build", fake_build)
    sigs = load_knowledge_base().signatures
    seen = []

    class Stop(Exception):
        pass

    def fake_triage(kb, node=None):  # what the command's Triage does first: make the scanner
        seen.append(scanner.BUILD_NOTICE[0])
        scanner.Scanner(sigs, ["hyperscan"])
        raise Stop

    monkeypatch.setattr(cmd, "Triage", fake_triage)
    monkeypatch.setattr(cmd, "load_kb", lambda extra: None)

    def run(progress):
        try:
            cmd._triage(argparse.Namespace(progress=progress, kb=[], node=None))
        except Stop:
            pass
        assert scanner.BUILD_NOTICE[0] is None

    run(False)  # not a terminal, not asked: nothing said (the build happens as ever)
    assert seen[-1] is None and len(built) == 1 and capsys.readouterr().err == ""
    for f in (tmp_path / "cache").iterdir():
        f.unlink()
    run(True)
    err = capsys.readouterr().err
    assert err.count("preparing the knowledge base's matcher") == 1 and str(tmp_path / "cache") in err
    run(True)  # the cache is there now: no build, nothing said
    assert len(built) == 2 and capsys.readouterr().err == ""


def test_a_long_run_without_hyperscan_says_once_what_installs_it(monkeypatch, capsys):
    """Python 3.8/3.9 do not depend on Hyperscan (pip would pick a source release it cannot build there), so such a
    run matches with RE2 or Python, 10-25 times slower: a run long enough to show progress says how to install a
    wheel (pip's --only-binary: a machine without one gets pip's 'no matching distribution', nothing built)."""
    import argparse
    import shlex
    import sys
    import types

    from ascend_doctor.commands import triage as cmd
    from ascend_doctor.triage.match.finders import MATCHER_ENV

    monkeypatch.delenv(MATCHER_ENV, raising=False)
    clock = [100.0]
    monkeypatch.setattr("time.monotonic", lambda: clock[0])

    def progress_of(matcher):
        t = types.SimpleNamespace(scanner=types.SimpleNamespace(matcher=matcher), progress=None)
        cmd._progress(t, argparse.Namespace(progress=True))
        for step in range(4):  # past PROGRESS_AFTER_S, a few reports
            clock[0] += cmd.PROGRESS_AFTER_S + 0.5
            t.progress(step, 4, step << 20)
        return capsys.readouterr().err

    err = progress_of("re2")
    assert err.count("without Hyperscan (re2)") == 1
    assert f"`{shlex.quote(sys.executable)} -m pip install --only-binary=:all: hyperscan`" in err
    assert "without Hyperscan" not in progress_of("hyperscan")
    monkeypatch.setenv(MATCHER_ENV, "python")  # a matcher asked for: nothing to advise
    assert "without Hyperscan" not in progress_of("python")
