"""preflight (per node), aggregate (per job), launch identity, JUnit/Prometheus output, baseline drift."""

import json
import os
import re
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET

import pytest

from ascend_doctor.aggregate import aggregate_paths
from ascend_doctor.findings import Finding, Report
from ascend_doctor.host import SnapshotHost
from ascend_doctor.probes.launch import probe_launch
from ascend_doctor.snapshot import write_snapshot

from tests.helpers.cluster_helpers import FULL_DISKS, node_report, write_report
from tests.helpers import REPO, fixture_path, run_cli
from tests.helpers.i18n_asserts import assert_is_msg, assert_msg
from ascend_doctor.findings import Finding

CLUSTER = fixture_path("cluster")


def launch_of(tmp_path, env, files=None, name="box"):
    """The launch facts as a report's JSON carries them (facts.extra.launch)."""
    from ascend_doctor.facts import to_jsonable

    snap = write_snapshot(str(tmp_path / ("s-" + name)), hostname=name, env=env, files=files or {})
    return to_jsonable(probe_launch(SnapshotHost(snap), None))


# -- identity from each launcher ------------------------------------------------------------------


# -- JUnit and Prometheus ---------------------------------------------------------------------------

def sample_report():
    findings = [
        Finding("devices.npu_health", "fail", "NPU health", summary='NPU 3 is "Warning"\nsee npu-smi',
                fix=["npu-smi info -t health -i 3"], pitfall="P13"),
        Finding("install.cann", "pass", "CANN installed"),
        Finding("hccl.connect_timeout", "warn", "HCCL timeout", summary="short"),
        Finding("gpu.cuda", "skip", "CUDA", summary="no GPU"),
        Finding('odd.id"with\\quote', "error", "Odd", summary="could not read \x01 file"),
    ]
    return Report(tool={"name": "ascend-doctor", "version": "0", "duration_ms": 1234, "finished_unix": 1700000000.5},
                  host={"kind": "live", "name": "node-3"}, facts={"extra": {"launch": {"name": "node-3-rank3"}}},
                  findings=findings)


# -- preflight ---------------------------------------------------------------------------------------

def test_preflight_writes_node_files_and_exits_by_verdict(tmp_path, make_snapshot):
    snap = make_snapshot("node-5", env={"SLURMD_NODENAME": "node-5", "SLURM_PROCID": "4", "SLURM_NTASKS": "8",
                                        "SLURM_JOB_ID": "99", "HCCL_CONNECT_TIMEOUT": "600"},
                         machine={"disks": FULL_DISKS})
    out = tmp_path / "reports"
    proc = run_cli("preflight", "--bundle", snap, "--report-dir", str(out), "--also", "junit,prom", "--budget", "30")
    assert proc.returncode == 1, proc.stderr  # the disk is full: resources.disk_space fails
    assert sorted(os.listdir(out)) == ["node-5-rank4.json", "node-5-rank4.prom", "node-5-rank4.xml"]
    data = json.load(open(out / "node-5-rank4.json"))
    assert data["facts"]["extra"]["launch"]["rank"] == 4
    assert {f["id"]: f["status"] for f in data["findings"]}["resources.disk_space"] == "fail"
    assert ET.parse(out / "node-5-rank4.xml").getroot().find("testsuite").get("failures") == "1"
    assert 'ascend_doctor_check_status{check="resources.disk_space",status="fail"} 1' in open(out / "node-5-rank4.prom").read()
    disk = next(f for f in data["findings"] if f["id"] == "resources.disk_space")
    assert disk["title"] in proc.stdout  # the human report still goes to stdout


def test_preflight_healthy_node_exits_0_and_warn_level_is_opt_in(tmp_path, make_snapshot):
    env = {"SLURMD_NODENAME": "node-1", "SLURM_PROCID": "0", "HCCL_CONNECT_TIMEOUT": "600"}
    good = make_snapshot("node-1", env=env, machine={"disks": {"/": {"total_mb": 9e5, "free_mb": 5e5}}})
    base = tmp_path / "base.json"
    assert run_cli("check", "--bundle", good, "--format", "json", "-o", str(base)).returncode == 0
    assert run_cli("preflight", "--bundle", good, "--report-dir", str(tmp_path / "r")).returncode == 0
    drifted = make_snapshot("node-2", env=dict(env, HCCL_CONNECT_TIMEOUT="120", SLURMD_NODENAME="node-2"),
                            machine={"disks": {"/": {"total_mb": 9e5, "free_mb": 5e5}}})
    proc = run_cli("preflight", "--bundle", drifted, "--baseline", str(base), "--fail-on", "warn", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    drift = [f for f in json.loads(proc.stdout)["findings"] if f["id"] == "baseline.drift"][0]
    assert drift["status"] == "warn"
    assert_is_msg(Finding.from_json(drift).evidence["HCCL_CONNECT_TIMEOUT"], "baseline {expected}, here {actual}",
                  expected="600", actual="120")


def test_preflight_bad_arguments_exit_2_with_one_line(tmp_path):
    for args, needle in ((["--also", "pdf", "--report-dir", str(tmp_path)], "--also: 'pdf'"),
                         (["--budget", "0"], "--budget must be"),
                         (["--also", "junit"], "--also needs --report-dir"),
                         (["--baseline", str(tmp_path / "none.json")], "none.json: cannot read")):
        proc = run_cli("preflight", *args)
        assert proc.returncode == 2 and needle in proc.stderr and "Traceback" not in proc.stderr, (args, proc.stderr)
        assert len(proc.stderr.strip().splitlines()) == 1
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".json")]


def test_msrun_scheduler_process_writes_nothing(tmp_path):
    proc = run_cli("preflight", "--report-dir", str(tmp_path / "r"), env={"MS_ROLE": "MS_SCHED"})
    assert proc.returncode == 0 and "scheduler" in proc.stderr
    assert not (tmp_path / "r").exists() or not os.listdir(tmp_path / "r")


def test_budget_overrun_is_a_failing_report_not_a_hang(tmp_path, monkeypatch):
    from ascend_doctor.cli import main
    from ascend_doctor.commands import preflight

    release = threading.Event()

    def stuck(host, options, progress=None):
        release.wait(30)  # like npu-smi hanging on a wedged device, until the command has given up on it

    monkeypatch.setattr(preflight, "run_checks", stuck)
    monkeypatch.setenv("RANK_ID", "7")
    start = time.monotonic()
    try:
        rc = main(["preflight", "--budget", "1.5", "--report-dir", str(tmp_path), "--format", "json", "-o",
                   str(tmp_path / "stdout.json")])
    finally:
        release.set()  # the abandoned worker thread ends now, not seconds into the next test's teardown
    assert time.monotonic() - start < 3.5
    assert rc == 1
    [name] = [f for f in os.listdir(tmp_path) if f.endswith("-rank7.json")]
    data = json.load(open(tmp_path / name))
    [finding] = data["findings"]
    assert finding["id"] == "preflight.time_budget" and finding["status"] == "fail"
    assert "--budget 1.5" in finding["summary"] and data["facts"]["extra"]["launch"]["rank"] == 7


def test_budget_covers_the_work_not_a_tenth_of_a_second(tmp_path, monkeypatch):
    """--budget 1 with checks that take 0.3 s: they finish inside the budget, no time_budget failure."""
    from ascend_doctor.cli import main
    from ascend_doctor.commands import preflight
    from ascend_doctor.findings import Report

    def slowish(host, options, progress=None):
        time.sleep(0.3)
        return Report(tool={"name": "ascend-doctor", "version": "x"}, host={"kind": "live", "name": "n"},
                      facts={}, findings=[])

    monkeypatch.setattr(preflight, "run_checks", slowish)
    out = tmp_path / "r.json"
    rc = main(["preflight", "--budget", "1", "--format", "json", "-o", str(out)])
    data = json.load(open(out))
    assert rc == 0 and not [f for f in data["findings"] if f["id"] == "preflight.time_budget"], data["findings"]


def test_budget_overrun_reports_the_real_time_and_the_facts_gathered(tmp_path, monkeypatch):
    """A probe hangs after system and python were probed: the report says how long it really ran, what was
    running, and its header shows the Python that was probed (never 'unknown' for it)."""
    from ascend_doctor.cli import main
    from ascend_doctor.probes import npu_smi

    release = threading.Event()

    def hangs(host, options):
        release.wait(30)  # npu-smi on a wedged device, until the command has given up on it

    monkeypatch.setattr(npu_smi, "probe_npu", hangs)
    out = tmp_path / "r.txt"
    start = time.monotonic()
    try:
        rc = main(["preflight", "--bundle", fixture_path("a2_healthy"), "--budget", "1.5", "-o", str(out)])
    finally:
        release.set()
    took = time.monotonic() - start
    assert rc == 1 and took < 4
    text = out.read_text()
    python = next(l for l in text.splitlines() if l.strip().startswith("Python"))
    assert "unknown" not in python and "3.9" in python, python
    m = re.search(r"stopped after ([\d.]+) s, while running probe npu", " ".join(text.split()))
    assert m, text
    assert 1.0 <= float(m.group(1)) <= took + 0.1


def test_concurrent_preflights_into_one_directory_never_tear_a_file(tmp_path):
    out = tmp_path / "shared"
    env = dict(os.environ, PYTHONPATH=REPO)
    procs = []
    for i in range(6):  # ranks 0..2 twice: two writers race on each file
        e = dict(env, RANK_ID=str(i % 3), RANK_SIZE="3")
        procs.append(subprocess.Popen([sys.executable, "-m", "ascend_doctor", "preflight", "--report-dir", str(out),
                                       "--also", "prom", "--budget", "30", "--format", "json"],
                                      env=e, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    seen_reads = 0
    while any(p.poll() is None for p in procs):
        if out.exists():
            for name in os.listdir(out):
                if name.endswith(".json"):
                    try:
                        text = open(out / name).read()
                    except FileNotFoundError:
                        continue
                    json.loads(text)  # a torn file would fail here
                    seen_reads += 1
        time.sleep(0.01)
    assert all(p.returncode in (0, 1) for p in procs), [p.stderr.read() for p in procs]
    names = sorted(n for n in os.listdir(out) if not n.startswith("."))
    assert len([n for n in names if n.endswith(".json")]) == 3 and len(names) == 6, names
    assert not [n for n in os.listdir(out) if n.startswith(".")]  # no temp files left behind
    result = aggregate_paths([str(out)])
    assert result["nodes_total"] == 3 and result["coverage"]["missing_ranks"] == []


# -- aggregate ---------------------------------------------------------------------------------------

@pytest.fixture
def cluster_dir(tmp_path):
    """8 nodes; node-17 has another driver."""
    d = tmp_path / "reports"
    for i in range(8):
        name = f"node-{10 + i}"
        rep = node_report(tmp_path, name, driver="23.0.3" if name == "node-17" else "24.1.rc2")
        write_report(d, rep)
    return d


# -- baseline ----------------------------------------------------------------------------------------


def _big_table(servers):
    return {"status": "completed", "version": "1.0", "server_count": str(servers), "server_list": [
        {"server_id": f"h{s}", "device": [{"device_id": str(d), "device_ip": f"10.{s // 250}.{s % 250}.{d + 1}",
                                           "rank_id": str(s * 8 + d)} for d in range(8)]} for s in range(servers)]}


def test_large_rank_table_is_kept_whole_only_by_rank_0(tmp_path):
    table = json.dumps(_big_table(100))
    files = {"/job/rt.json": table}
    d = tmp_path / "r"
    for s in (0, 1, 2):
        write_report(d, node_report(tmp_path, f"h{s}", rank=s * 8, world_size=800,
                                    env={"RANK_TABLE_FILE": "/job/rt.json"}, files=files))
    reports = {p.name: json.load(open(p)) for p in d.iterdir()}
    rt1 = reports["h1-rank8.json"]["facts"]["extra"]["launch"]["rank_table"]
    assert rt1["complete"] is False and [s["server_id"] for s in rt1["servers"]] == ["h1"]
    assert reports["h0-rank0.json"]["facts"]["extra"]["launch"]["rank_table"]["servers_listed"] == 100
    rt = aggregate_paths([str(d)])["rank_table"]
    assert rt["servers_in_table"] == 100 and len(rt["servers_missing"]) == 97 and "h3" in rt["servers_missing"]

    # rank 0 missing: the table is read from its shared path when that is readable here
    os.unlink(d / "h0-rank0.json")
    assert aggregate_paths([str(d)])["rank_table"]["notes"]
    shared = tmp_path / "rt.json"
    shared.write_text(table)
    for p in d.iterdir():
        data = json.load(open(p))
        data["facts"]["extra"]["launch"]["rank_table"]["path"] = str(shared)
        p.write_text(json.dumps(data))
    rt = aggregate_paths([str(d)])["rank_table"]
    assert rt["servers_in_table"] == 100 and "h0" in rt["servers_missing"]


def test_parallel_parsing_gives_the_same_verdict(tmp_path):
    d = tmp_path / "r"
    base = node_report(tmp_path, "seed", rank=0, world_size=300)
    for i in range(300):
        rep = json.loads(json.dumps(base))
        launch = rep["facts"]["extra"]["launch"]
        launch.update({"name": f"n{i}-rank{i}", "rank": i, "host": f"n{i}"})
        if i == 123:
            rep["facts"]["driver"]["version"] = "23.0.3"
        write_report(d, rep)
    # in fresh processes: this one may run another test's leftover thread, which makes jobs=2 read serially
    serial = json.loads(run_cli("aggregate", str(d), "--jobs", "1", "--format", "json").stdout)
    parallel = json.loads(run_cli("aggregate", str(d), "--jobs", "2", "--format", "json").stdout)
    assert serial == parallel
    assert serial["skew"][0]["odd_nodes"] == ["n123-rank123"] and serial["coverage"]["missing_ranks"] == []


def test_short_budget_drops_the_smoke_train_and_says_so(tmp_path, make_snapshot):
    snap = make_snapshot("n", env={"RANK_ID": "0"})
    proc = run_cli("preflight", "--bundle", snap, "--smoke", "--budget", "30", "--format", "json")
    assert "--smoke skipped, --budget 30 s is under the 120 s" in proc.stderr
    assert not [f for f in json.loads(proc.stdout)["findings"] if f["id"].startswith("smoke.")]


def test_preflight_net_pings_the_rank_tables_peers_and_aggregate_draws_who_cannot_reach_whom(tmp_path):
    """Two servers of a 3-server rank table (tests/fixtures/network/peers_a, peers_b): their devices ping the other
    servers' devices; server 192.0.2.22's answer none. Without --net nothing is pinged."""
    reports = tmp_path / "reports"
    for name in ("peers_a", "peers_b"):
        proc = run_cli("preflight", "--bundle", fixture_path(f"network/{name}"), "--net", "--report-dir",
                       str(reports), "--format", "json")
        assert proc.returncode == 1, proc.stderr
        (reach,) = [f for f in json.loads(proc.stdout)["findings"] if f["id"] == "network.peer_reach"]
        assert reach["status"] == "fail"
        assert_msg(reach, "No answer from {count} peer device address(es): {pairs}.", count=8)
        assert "(192.0.2.22 device 0)" in reach["summary"] and "sample" in reach["evidence"]
    result = aggregate_paths([str(reports)])
    assert result["ports"]["reachability"]["unreachable_pairs"] == [
        {"node": "net-a-rank0", "server": "192.0.2.22"}, {"node": "net-b-rank8", "server": "192.0.2.22"}]
    plain = run_cli("preflight", "--bundle", fixture_path("network/peers_a"), "--format", "json")
    assert "network.peer_reach" not in {f["id"] for f in json.loads(plain.stdout)["findings"]}
