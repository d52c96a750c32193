"""Many writers at once, and full disks: reports are written whole or not at all.

64 `preflight` processes write their reports into one directory at the same moment (what a
64-node job does on a shared filesystem) while a reader keeps parsing every file it sees.
"""

import json
import os
import subprocess
import sys
import time

import pytest

from ascend_doctor.aggregate import aggregate_paths
from tests.helpers import REPO, fixture_path, run_cli

WRITERS = 64


@pytest.mark.slow
@pytest.mark.alone  # 64 processes at once: a test beside them would wait minutes for a core
def test_64_preflights_into_one_directory_no_torn_or_lost_report(tmp_path):
    out = tmp_path / "shared"
    env = dict(os.environ, PYTHONPATH=REPO)
    env.pop("NO_COLOR", None)
    procs = []
    for rank in range(WRITERS):
        e = dict(env, RANK_ID=str(rank), RANK_SIZE=str(WRITERS))
        procs.append(subprocess.Popen(
            # this machine (a bundle would name the node from its own recorded environment)
            [sys.executable, "-m", "ascend_doctor", "preflight", "--report-dir", str(out), "--also", "prom,junit", "--budget", "120", "--format", "json"],
            env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    reads = 0
    while any(p.poll() is None for p in procs):
        if out.exists():
            for name in os.listdir(out):
                if name.endswith(".json") and not name.startswith("."):
                    try:
                        text = open(out / name, encoding="utf-8").read()
                    except FileNotFoundError:
                        continue
                    json.loads(text)  # a torn file fails here
                    reads += 1
        time.sleep(0.005)
    errors = [p.stderr.read().decode() for p in procs if p.returncode not in (0, 1)]
    assert not errors, errors[:3]
    names = sorted(os.listdir(out))
    assert not [n for n in names if n.startswith(".")], "temporary files left behind"
    reports = [n for n in names if n.endswith(".json")]
    assert len(reports) == WRITERS, f"{WRITERS - len(reports)} reports lost"
    assert len([n for n in names if n.endswith(".prom")]) == WRITERS
    assert len([n for n in names if n.endswith(".xml")]) == WRITERS
    ranks = sorted(json.load(open(out / n))["facts"]["extra"]["launch"]["rank"] for n in reports)
    assert ranks == list(range(WRITERS))
    result = aggregate_paths([str(out)])
    assert result["nodes_total"] == WRITERS and result["coverage"]["missing_ranks"] == []
    assert reads > 0  # the reader really raced the writers


# -- full disks --------------------------------------------------------------------------------

@pytest.fixture
def tiny_tmpfs(tmp_path):
    mnt = tmp_path / "tiny"
    mnt.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=128k", "tmpfs", str(mnt)], capture_output=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({r.stderr.decode().strip()})")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def _fill(mnt, keep_free):
    """Fill the filesystem until only about `keep_free` bytes are left."""
    st = os.statvfs(mnt)
    free = st.f_bavail * st.f_frsize
    with open(mnt / "filler", "wb") as fh:
        try:
            fh.write(b"\0" * max(0, free - keep_free))
        except OSError:
            pass


def test_check_output_on_a_full_disk_keeps_the_old_report(tiny_tmpfs):
    target = tiny_tmpfs / "report.json"
    target.write_text('{"old": true}')
    _fill(tiny_tmpfs, 4096)
    proc = run_cli("check", "--bundle", fixture_path("a2_healthy"), "--format", "json", "--output", str(target))
    assert proc.returncode == 2 and "No space left on device" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert target.read_text() == '{"old": true}'
    assert sorted(os.listdir(tiny_tmpfs)) == ["filler", "report.json"]


def test_preflight_report_dir_on_a_full_disk_keeps_the_old_report(tiny_tmpfs):
    old = tiny_tmpfs / "node-rank3.json"
    env = {"RANK_ID": "3"}
    proc = run_cli("preflight", "--bundle", fixture_path("a2_healthy"), "--report-dir", str(tiny_tmpfs),
                   "--format", "json", env=env)
    written = [n for n in os.listdir(tiny_tmpfs) if n.endswith(".json")]
    assert proc.returncode in (0, 1) and len(written) == 1, proc.stderr
    old = tiny_tmpfs / written[0]
    before = old.read_bytes()
    _fill(tiny_tmpfs, 2048)
    proc = run_cli("preflight", "--bundle", fixture_path("a2_healthy"), "--report-dir", str(tiny_tmpfs),
                   "--format", "json", env=env)
    assert proc.returncode == 2 and "No space left on device" in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert old.read_bytes() == before
    assert not [n for n in os.listdir(tiny_tmpfs) if n.startswith(".")]
