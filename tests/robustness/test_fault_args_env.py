"""Hostile process state: undecodable bytes in the environment, odd locales, nonsense numbers."""

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import REPO, run_cli


def _run_bytes_env(args, extra, locale, cwd):
    env = {k.encode(): v.encode() for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "NO_COLOR")}
    env.update({b"PYTHONPATH": REPO.encode(), b"LANG": locale.encode(), b"LC_ALL": locale.encode()})
    env.update(extra)
    return subprocess.run([sys.executable, "-m", "ascend_doctor", *args], env=env, capture_output=True,
                          cwd=cwd, timeout=120)


BAD_ENV = {b"HCCL_BUFFSIZE": b"\xff\xfe", b"POD_NAME": b"node\xc3", b"MS_WORKER_NUM": b"\x80",
           b"RANK_ID": b"0", b"HCCL_IF_IP": b"10.0.0.\xff"}


@pytest.mark.parametrize("locale", ["C", "C.UTF-8"])
def test_undecodable_environment_bytes_never_crash_a_writer(tmp_path, locale):
    reports = tmp_path / "r"
    proc = _run_bytes_env(["preflight", "--report-dir", str(reports), "--also", "junit,prom,text,markdown",
                           "--format", "json"], BAD_ENV, locale, str(tmp_path))
    assert proc.returncode in (0, 1), proc.stderr.decode(errors="replace")[-2000:]
    json.loads(proc.stdout.decode("utf-8"))  # valid UTF-8 and valid JSON on stdout
    for name in os.listdir(reports):
        (reports / name).read_bytes().decode("utf-8")  # every file valid UTF-8
    proc = run_cli("aggregate", str(reports), "--format", "json")
    agg = json.loads(proc.stdout)
    assert agg["nodes_total"] == 1 and agg["unreadable"] == []
    for fmt in ("text", "markdown", "junit", "prom"):
        proc = _run_bytes_env(["check", "--format", fmt], dict(BAD_ENV, PYTHONIOENCODING=b"utf-8:strict"),
                              locale, str(tmp_path))
        assert proc.returncode in (0, 1) and b"Traceback" not in proc.stderr, proc.stderr[-2000:]


@pytest.mark.parametrize("args", [
    ["check", "--timeout", "nan"], ["check", "--timeout", "inf"], ["check", "--timeout", "-1"],
    ["preflight", "--budget", "nan"], ["preflight", "--budget", "0"],
    ["matrix", "update", "--url", "http://127.0.0.1:9/m.json", "--timeout", "nan"],
    ["rank-table", "/dev/null", "--timeout", "nan"],
])
def test_nonsense_numbers_are_refused_in_one_line(args):
    proc = run_cli(*args)
    assert proc.returncode == 2 and "must be a positive number" in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [["check", "--format", "json"], ["matrix", "show", "--format", "json"]])
def test_reader_that_left_is_not_a_traceback(args):
    """`ascend-doctor ... | head`: stdout's reader is gone before the report is written."""
    r, w = os.pipe()
    os.close(r)
    try:
        proc = subprocess.run([sys.executable, "-m", "ascend_doctor", *args], stdout=w, stderr=subprocess.PIPE,
                              env=dict(os.environ, PYTHONPATH=REPO), cwd=REPO, timeout=120)
    finally:
        os.close(w)
    assert proc.returncode == 141 and proc.stderr == b"", proc.stderr.decode()[-2000:]
