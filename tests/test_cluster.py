"""preflight (per node), aggregate (per job), launch identity, JUnit/Prometheus output, baseline drift."""

import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

from ascend_doctor.aggregate import Aggregator, aggregate_paths
from ascend_doctor.baseline import Baseline
from ascend_doctor.findings import Finding, Report
from ascend_doctor.host import SnapshotHost
from ascend_doctor.probes.launch import parse_local_addresses, probe_launch
from ascend_doctor.rank_table import summarise_rank_table
from ascend_doctor.render import render
from ascend_doctor.snapshot import write_snapshot

from cluster_helpers import FULL_DISKS, node_report, write_report
from conftest import REPO, fixture_path, run_cli

CLUSTER = fixture_path("cluster")


def launch_of(tmp_path, env, files=None, name="box"):
    """The launch facts as a report's JSON carries them (facts.extra.launch)."""
    from ascend_doctor.facts import to_jsonable

    snap = write_snapshot(str(tmp_path / ("s-" + name)), hostname=name, env=env, files=files or {})
    return to_jsonable(probe_launch(SnapshotHost(snap), None))


# -- identity from each launcher ------------------------------------------------------------------

def test_msrun_worker_identity_and_filtered_variables(tmp_path):
    env = {"MS_ROLE": "MS_WORKER", "MS_WORKER_NUM": "8", "MS_NODE_ID": "3", "RANK_ID": "3", "RANK_SIZE": "8",
           "MS_SCHED_HOST": "10.0.0.1", "HCCL_CONNECT_TIMEOUT": "1200", "HCCL_AUTH_TOKEN": "s3cret",
           "MS_SERVER_PASSWORD": "hunter2", "AWS_SECRET_ACCESS_KEY": "x", "DEVICE_ID": "3"}
    launch = launch_of(tmp_path, env, name="npu-host-a")
    assert launch["launchers"] == ["msrun"]
    assert (launch["rank"], launch["world_size"], launch["name"]) == (3, 8, "npu-host-a-rank3")
    assert launch["identity_source"]["rank"] == "RANK_ID"
    assert launch["variables"]["HCCL_CONNECT_TIMEOUT"] == "1200"
    assert "HCCL_AUTH_TOKEN" not in launch["variables"] and "MS_SERVER_PASSWORD" not in launch["variables"]
    assert "s3cret" not in json.dumps(launch) and "hunter2" not in json.dumps(launch)


def test_slurm_openmpi_and_kubernetes_identity(tmp_path):
    slurm = launch_of(tmp_path, {"SLURM_JOB_ID": "77", "SLURM_PROCID": "16", "SLURM_NTASKS": "32",
                                 "SLURMD_NODENAME": "node-17", "SLURM_LOCALID": "0"}, name="ignored")
    assert (slurm["host"], slurm["rank"], slurm["world_size"], slurm["job_id"]) == ("node-17", 16, 32, "77")
    assert slurm["launchers"] == ["slurm"] and slurm["name"] == "node-17-rank16"
    mpi = launch_of(tmp_path, {"OMPI_COMM_WORLD_RANK": "5", "OMPI_COMM_WORLD_SIZE": "6",
                               "OMPI_COMM_WORLD_LOCAL_RANK": "1"}, name="mpi-host")
    assert (mpi["rank"], mpi["world_size"], mpi["local_rank"], mpi["launchers"]) == (5, 6, 1, ["openmpi"])
    k8s = launch_of(tmp_path, {"KUBERNETES_SERVICE_HOST": "10.96.0.1", "POD_NAME": "pre-2-xyz",
                               "NODE_NAME": "worker-9", "JOB_COMPLETION_INDEX": "2", "POD_IP": "10.244.1.7"},
                    name="pod")
    assert (k8s["host"], k8s["rank"], k8s["name"], k8s["launchers"]) == ("worker-9", 2, "worker-9-rank2", ["kubernetes"])
    assert "10.244.1.7" in k8s["addresses"]
    plain = launch_of(tmp_path, {}, name="lonely/box")
    assert plain["rank"] is None and plain["name"] == "lonely_box" and plain["launchers"] == []


def test_bad_launch_input_is_recorded_not_raised(tmp_path):
    launch = launch_of(tmp_path, {"RANK_ID": "three", "RANK_TABLE_FILE": "/etc/rt.json"},
                       files={"/etc/rt.json": "{not json"})
    assert launch["rank"] is None
    assert any("RANK_ID='three'" in e and "integer" in e for e in launch["errors"])
    assert any("/etc/rt.json" in e and "JSON" in e for e in launch["errors"])
    missing = launch_of(tmp_path, {"RANK_TABLE_FILE": "/nowhere.json"}, name="b")
    assert missing["rank_table"]["error"] == "not readable"
    assert any("/nowhere.json" in e for e in missing["errors"])
    nolist = summarise_rank_table('{"version": "1.0"}', "/t.json", [])
    assert nolist["error"] == "no server_list"


def test_local_addresses_from_real_fib_trie():
    text = open(os.path.join(CLUSTER, "proc_net_fib_trie")).read()
    assert parse_local_addresses(text) == ["192.0.2.2"]
    assert parse_local_addresses("garbage\n|-- x\n") == []


def test_rank_table_digest_ignores_formatting():
    text = open(os.path.join(CLUSTER, "rank_table_2servers.json")).read()
    a = summarise_rank_table(text, "a", [])
    b = summarise_rank_table(json.dumps(json.loads(text)), "b", [])
    assert a["digest"] == b["digest"] and [s["server_id"] for s in a["servers"]] == ["node_0", "node_1"]
    assert a["servers"][1]["devices"][0] == {"device_id": "0", "device_ip": "192.168.2.8", "rank_id": "2"}


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


def test_prometheus_output_parses_and_is_one_hot_per_check():
    text = render(sample_report(), "prom")
    line_re = re.compile(r'^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*|[a-zA-Z_:][a-zA-Z0-9_:]*'
                         r'(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*",?)*\})? -?[0-9.e+]+)$')
    for line in text.splitlines():
        assert line_re.match(line), line
    parser = pytest.importorskip("prometheus_client.parser")
    families = {f.name: f for f in parser.text_string_to_metric_families(text)}
    status = [(s.labels["check"], s.labels["status"], s.value) for s in families["ascend_doctor_check_status"].samples]
    current = {c: st for c, st, v in status if v == 1}
    assert current == {"devices.npu_health": "fail", "install.cann": "pass", "hccl.connect_timeout": "warn",
                       "gpu.cuda": "skip", 'odd.id"with\\quote': "error"}
    assert len(status) == 5 * 5
    assert families["ascend_doctor_healthy"].samples[0].value == 0
    assert families["ascend_doctor_last_run_timestamp_seconds"].samples[0].value == 1700000000.5
    assert {s.labels["status"]: s.value for s in families["ascend_doctor_findings"].samples}["fail"] == 1


def test_junit_output_maps_statuses_for_ci():
    root = ET.fromstring(render(sample_report(), "junit"))
    suite = root.find("testsuite")
    assert suite.get("name") == "ascend-doctor node-3-rank3"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("skipped")) == ("5", "1", "1", "1")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    failure = cases["devices.npu_health"].find("failure")
    assert 'NPU 3 is "Warning"' in failure.get("message") and "npu-smi info -t health -i 3" in failure.text
    assert cases['odd.id"with\\quote'].find("error") is not None
    assert cases["gpu.cuda"].find("skipped") is not None
    assert "WARN" in cases["hccl.connect_timeout"].find("system-out").text
    assert list(cases["install.cann"]) == []


def test_check_offers_junit_and_prom_formats():
    proc = run_cli("check", "--format", "prom")
    assert proc.returncode in (0, 1), proc.stderr
    assert "# TYPE ascend_doctor_check_status gauge" in proc.stdout


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
    assert "Too little free disk" in proc.stdout  # the human report still goes to stdout


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
    assert drift["status"] == "warn" and drift["evidence"]["HCCL_CONNECT_TIMEOUT"] == "baseline 600, here 120"


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

    def stuck(host, options, progress=None):
        time.sleep(5)  # like npu-smi hanging on a wedged device

    monkeypatch.setattr(preflight, "run_checks", stuck)
    monkeypatch.setenv("RANK_ID", "7")
    start = time.monotonic()
    rc = main(["preflight", "--budget", "1.5", "--report-dir", str(tmp_path), "--format", "json", "-o",
               str(tmp_path / "stdout.json")])
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

    def hangs(host, options):
        time.sleep(5)  # npu-smi on a wedged device

    monkeypatch.setattr(npu_smi, "probe_npu", hangs)
    out = tmp_path / "r.txt"
    start = time.monotonic()
    rc = main(["preflight", "--bundle", fixture_path("a2_healthy"), "--budget", "1.5", "-o", str(out)])
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


def test_aggregate_names_the_odd_node_out(cluster_dir):
    proc = run_cli("aggregate", str(cluster_dir))
    assert proc.returncode == 1, proc.stderr
    assert "NPU driver: 7 nodes on 24.1.rc2; 1 node on 23.0.3: node-17" in proc.stdout
    proc = run_cli("aggregate", str(cluster_dir), "--format", "json")
    result = json.loads(proc.stdout)
    [skew] = result["skew"]
    assert skew["fact"] == "NPU driver" and skew["odd_nodes"] == ["node-17"] and skew["majority"] == "24.1.rc2"
    assert result["nodes_failing"] == [] and result["verdict"] == "problems"


def test_aggregate_all_equal_is_ok(tmp_path):
    d = tmp_path / "r"
    for i in range(3):
        write_report(d, node_report(tmp_path, f"n{i}", rank=i, world_size=3))
    proc = run_cli("aggregate", str(d))
    assert proc.returncode == 0, proc.stdout
    assert "OK" in proc.stdout.splitlines()[0] and "3 node reports" in proc.stdout


def test_aggregate_failing_node_fix_missing_rank_and_unset_variable(tmp_path):
    d = tmp_path / "r"
    write_report(d, node_report(tmp_path, "n0", rank=0, world_size=4))
    write_report(d, node_report(tmp_path, "n1", rank=1, world_size=4, disks=FULL_DISKS))
    write_report(d, node_report(tmp_path, "n3", rank=3, world_size=4, env={"HCCL_EXEC_TIMEOUT": "1800"}))
    proc = run_cli("aggregate", str(d))
    assert proc.returncode == 1
    assert "Missing ranks (world size 4): 2" in proc.stdout
    assert "resources.disk_space: fail on 1 node (n1-rank1)" in proc.stdout
    assert "fix: du -sh" in proc.stdout
    assert "HCCL_EXEC_TIMEOUT: 2 nodes on (unset); 1 node on 1800: n3-rank3" in proc.stdout
    result = json.loads(run_cli("aggregate", str(d), "--format", "json").stdout)
    assert [n["name"] for n in result["nodes_failing"]] == ["n1-rank1"]


def test_aggregate_torn_and_foreign_files_are_named(tmp_path):
    d = tmp_path / "r"
    write_report(d, node_report(tmp_path, "n0"))
    (d / "n1.json").write_text('{"schema": "ascend-doctor.report/1", "findings": [')
    (d / "other.json").write_text('{"schema": "something/2"}')
    result = json.loads(run_cli("aggregate", str(d), "--format", "json").stdout)
    errors = sorted(u["error"] for u in result["unreadable"])
    assert len(errors) == 2 and "n1.json" in errors[0] and "other.json" in errors[1] and "schema" in errors[1]
    assert result["verdict"] == "problems" and result["nodes_total"] == 3


def test_aggregate_bad_input_exits_2(tmp_path):
    proc = run_cli("aggregate", str(tmp_path / "nope"))
    assert proc.returncode == 2 and "no such file or directory" in proc.stderr and "Traceback" not in proc.stderr
    (tmp_path / "empty").mkdir()
    proc = run_cli("aggregate", str(tmp_path / "empty"))
    assert proc.returncode == 2 and "no *.json node reports" in proc.stderr


def test_rank_table_views_missing_servers_and_duplicate_device_ips(tmp_path):
    table = json.load(open(os.path.join(CLUSTER, "rank_table_2servers.json")))
    by_name = json.loads(json.dumps(table))
    by_name["server_list"][0]["server_id"], by_name["server_list"][1]["server_id"] = "host-a", "host-b"
    d = tmp_path / "agree"
    for host in ("host-a", "host-b"):
        write_report(d, node_report(tmp_path, host, env={"RANK_TABLE_FILE": "/job/rt.json"},
                                    files={"/job/rt.json": json.dumps(by_name)}))
    rt = aggregate_paths([str(d)])["rank_table"]
    assert rt["ok"] and rt["servers_matched_by"] == "name" and rt["servers_in_table"] == 2

    # host-b sent nothing; host-c holds an edited table where two devices share an IP
    clash = json.loads(json.dumps(by_name))
    clash["server_list"][1]["device"][1]["device_ip"] = "192.168.1.8"
    d2 = tmp_path / "disagree"
    write_report(d2, node_report(tmp_path, "host-a", env={"RANK_TABLE_FILE": "/job/rt.json"},
                                 files={"/job/rt.json": json.dumps(by_name)}))
    write_report(d2, node_report(tmp_path, "host-a2", env={"RANK_TABLE_FILE": "/job/rt.json"},
                                 files={"/job/rt.json": json.dumps(by_name, indent=2)}))
    write_report(d2, node_report(tmp_path, "host-c", env={"RANK_TABLE_FILE": "/job/rt.json"},
                                 files={"/job/rt.json": json.dumps(clash)}))
    proc = run_cli("aggregate", str(d2))
    assert proc.returncode == 1
    assert "nodes see 2 different rank tables" in proc.stdout
    assert "servers that sent no report: host-b" in proc.stdout
    assert "device IP 192.168.1.8 used by host-a/device 0, host-b/device 1" in proc.stdout

    # abstract server ids (node_0, node_1): compared by count
    d3 = tmp_path / "abstract"
    write_report(d3, node_report(tmp_path, "x1", env={"RANK_TABLE_FILE": "/job/rt.json"},
                                 files={"/job/rt.json": json.dumps(table)}))
    rt = aggregate_paths([str(d3)])["rank_table"]
    assert not rt["ok"] and "lists 2 servers but only 1 host(s) reported" in rt["problems"][0]


# -- baseline ----------------------------------------------------------------------------------------

def test_aggregate_baseline_drift_names_nodes(tmp_path):
    base = tmp_path / "known-good.json"
    base.write_text(json.dumps(node_report(tmp_path, "trusted", mindspore="2.2.14")))
    d = tmp_path / "r"
    write_report(d, node_report(tmp_path, "a", mindspore="2.2.14"))
    write_report(d, node_report(tmp_path, "b", mindspore="2.3.1"))
    result = json.loads(run_cli("aggregate", str(d), "--baseline", str(base), "--format", "json").stdout)
    [drift] = result["baseline_drift"]
    assert drift["fact"] == "MindSpore" and drift["expected"] == "2.2.14 (ascend)"
    assert drift["groups"] == [{"value": "2.3.1 (ascend)", "count": 1, "nodes": ["b"]}]


def test_baseline_check_points_at_release_notes_between_versions(tmp_path):
    trusted = node_report(tmp_path, "trusted", mindspore="2.2.14")
    here = node_report(tmp_path, "here", mindspore="2.3.1")
    from ascend_doctor.checks.baseline import check_baseline_drift
    from ascend_doctor.checks import CheckContext
    from ascend_doctor.facts import Facts

    facts = Facts()
    facts.mindspore.version, facts.mindspore.flavour, facts.mindspore.installed = "2.3.1", "ascend", True
    facts.python.version = here["facts"]["python"]["version"]
    ctx = CheckContext(facts=facts, options={"baseline": Baseline.from_report(trusted, "known-good.json")})
    finding = check_baseline_drift(ctx)
    assert finding.status == "warn" and finding.pitfall == "P17"
    text = "\n".join(finding.fix)
    assert "MindSpore 2.3.0-rc1 breaking change: MindRecord: FileWriter.open_and_set_header removed" in text
    assert "see RELEASE.md of release 2.3.1: mindspore-ai/mindspore RELEASE.md, section 'MindSpore 2.3.1 Release Notes'" in text
    assert "likewise for 2.3.0-rc1, 2.3.0-rc2, 2.3.0-rc6, 2.3.0" in text
    assert "MindSpore" in finding.evidence and "baseline 2.2.14 (ascend), here 2.3.1 (ascend)" == finding.evidence["MindSpore"]


def test_baseline_rejects_non_report(tmp_path):
    bad = tmp_path / "agg.json"
    bad.write_text(json.dumps({"schema": "ascend-doctor.aggregate/1"}))
    proc = run_cli("aggregate", str(tmp_path), "--baseline", str(bad))
    assert proc.returncode == 2 and "expected 'ascend-doctor.report/1'" in proc.stderr


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
    serial = aggregate_paths([str(d)], jobs=1)
    parallel = aggregate_paths([str(d)], jobs=2)
    assert serial == parallel
    assert serial["skew"][0]["odd_nodes"] == ["n123-rank123"] and serial["coverage"]["missing_ranks"] == []


def test_short_budget_drops_the_smoke_train_and_says_so(tmp_path, make_snapshot):
    snap = make_snapshot("n", env={"RANK_ID": "0"})
    proc = run_cli("preflight", "--bundle", snap, "--smoke", "--budget", "30", "--format", "json")
    assert "--smoke skipped, --budget 30 s is under the 120 s" in proc.stderr
    assert not [f for f in json.loads(proc.stdout)["findings"] if f["id"].startswith("smoke.")]


def test_identity_check_warns_on_unreadable_launch_variables(make_snapshot):
    bad = make_snapshot("b", env={"RANK_ID": "x1", "RANK_TABLE_FILE": "/missing/rt.json"})
    proc = run_cli("check", "--bundle", bad, "--only", "env.launcher_identity", "--format", "json")
    [f] = json.loads(proc.stdout)["findings"]
    assert f["id"] == "env.launcher_identity" and f["status"] == "warn"
    assert "RANK_ID='x1'" in f["summary"] and "/missing/rt.json" in f["summary"]
    good = make_snapshot("g", env={"OMPI_COMM_WORLD_RANK": "2", "OMPI_COMM_WORLD_SIZE": "4"})
    [f] = json.loads(run_cli("check", "--bundle", good, "--only", "env.launcher_identity", "--format", "json").stdout)["findings"]
    assert f["status"] == "pass" and f["summary"].startswith("rank 2 of 4 via openmpi; reports as g-rank2")


def test_aggregate_reads_collect_bundles_their_report_and_their_logs(tmp_path):
    """A `collect --logs` bundle is one node for aggregate: its report.json joins the verdict, its logs go
    through the same root-cause engine as `triage` (issue 12)."""
    logs = tmp_path / "logs" / "plog"
    logs.mkdir(parents=True)
    (logs / "plog-4242_20240712102505.log").write_text(
        "[ERROR] HCCL(4242,python):2024-07-12-10:25:05.104.998 [topoinfo_exchange_agent.cc:75]\n"
        "EI0006: [PID: 4242] 2024-07-12-10:25:05.104.998 Getting socket times out. Reason: Remote Rank did not "
        "send the data in time.\n")
    bundle = tmp_path / "node.tar.gz"
    proc = run_cli("collect", "--logs", str(tmp_path / "logs"), "-o", str(bundle))
    assert proc.returncode == 0, proc.stderr
    proc = run_cli("aggregate", str(bundle), "--format", "json")
    assert proc.returncode == 1, proc.stderr  # the logs hold a fail-level problem
    data = json.loads(proc.stdout)
    assert data["nodes_total"] == 1
    logs_part = data["logs"]
    assert "HCCL_EI0006_SOCKET_TIMEOUT" in [p["id"] for p in logs_part["problems"]]
    assert logs_part["nodes"] and logs_part["nodes"][0]  # named after the host the bundle was collected on
    text = run_cli("aggregate", str(bundle)).stdout
    assert "Logs of 1 node" in text and "HCCL_EI0006_SOCKET_TIMEOUT" in " ".join(text.split())
    bad = tmp_path / "broken.tar.gz"
    bad.write_bytes(b"not an archive")
    proc = run_cli("aggregate", str(bad))
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr

