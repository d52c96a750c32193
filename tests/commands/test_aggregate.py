"""commands/aggregate.py: `ascend-doctor aggregate` over nodes' reports, bundles and logs."""

import json
import os
from ascend_doctor.aggregate import aggregate_paths
from tests.helpers.cluster_helpers import FULL_DISKS, node_report, write_report
from tests.helpers import run_cli
from tests.helpers.i18n_asserts import assert_msg
from tests.commands.test_preflight import CLUSTER, cluster_dir  # noqa: F401


def test_aggregate_names_the_odd_node_out(cluster_dir):
    proc = run_cli("aggregate", str(cluster_dir))
    assert proc.returncode == 1, proc.stderr
    assert "node-17" in proc.stdout
    proc = run_cli("aggregate", str(cluster_dir), "--format", "json")
    result = json.loads(proc.stdout)
    [skew] = result["skew"]
    assert skew["fact"] == "NPU driver" and skew["odd_nodes"] == ["node-17"] and skew["majority"] == "24.1.rc2"
    assert [(g["value"], g["count"]) for g in skew["groups"]] == [("24.1.rc2", 7), ("23.0.3", 1)]
    assert_msg(result, "{count} fact(s) differ across nodes", count=1)
    assert result["nodes_failing"] == [] and result["verdict"] == "problems"


def test_aggregate_all_equal_is_ok(tmp_path):
    d = tmp_path / "r"
    for i in range(3):
        write_report(d, node_report(tmp_path, f"n{i}", rank=i, world_size=3))
    proc = run_cli("aggregate", str(d))
    assert proc.returncode == 0, proc.stdout
    assert "OK" in proc.stdout.splitlines()[0]
    result = json.loads(run_cli("aggregate", str(d), "--format", "json").stdout)
    assert result["verdict"] == "ok" and result["nodes_total"] == 3 and result["problems"] == []


def test_aggregate_failing_node_fix_missing_rank_and_unset_variable(tmp_path):
    d = tmp_path / "r"
    write_report(d, node_report(tmp_path, "n0", rank=0, world_size=4))
    write_report(d, node_report(tmp_path, "n1", rank=1, world_size=4, disks=FULL_DISKS))
    write_report(d, node_report(tmp_path, "n3", rank=3, world_size=4, env={"HCCL_EXEC_TIMEOUT": "1800"}))
    proc = run_cli("aggregate", str(d), "--format", "json")
    assert proc.returncode == 1
    result = json.loads(proc.stdout)
    assert [n["name"] for n in result["nodes_failing"]] == ["n1-rank1"]
    assert result["coverage"]["expected"] == 4 and result["coverage"]["missing_ranks"] == [2]
    assert_msg(result, "some ranks sent no report")
    [disk] = [c for c in result["checks"] if c["id"] == "resources.disk_space"]
    assert disk["counts"]["fail"] == 1 and "n1-rank1" in str(disk["nodes"])
    assert_msg(result["i18n"], "du -sh {paths}   # find what fills the disk")
    [skew] = result["skew"]
    assert skew["fact"] == "HCCL_EXEC_TIMEOUT" and skew["odd_nodes"] == ["n3-rank3"]
    assert [(g["value"], g["count"]) for g in skew["groups"]] == [("(unset)", 2), ("1800", 1)]


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
    proc = run_cli("aggregate", str(d2), "--format", "json")
    assert proc.returncode == 1
    result = json.loads(proc.stdout)
    rt = result["rank_table"]
    assert_msg(result, "nodes see {count} different rank tables", count=2)
    assert rt["servers_missing"] == ["host-b"]
    assert rt["duplicate_device_ips"] == [{"device_ip": "192.168.1.8",
                                           "used_by": ["host-a/device 0", "host-b/device 1"]}]

    # abstract server ids (node_0, node_1): compared by count
    d3 = tmp_path / "abstract"
    write_report(d3, node_report(tmp_path, "x1", env={"RANK_TABLE_FILE": "/job/rt.json"},
                                 files={"/job/rt.json": json.dumps(table)}))
    rt = aggregate_paths([str(d3)])["rank_table"]
    assert not rt["ok"]
    assert_msg(rt["problems"][0], "the rank table lists {servers} servers but only {hosts} host(s) reported (server "
               "ids match no reported host name or address)", servers=2, hosts=1)


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
    assert len(logs_part["nodes"]) == 1 and logs_part["nodes"][0]  # named after the host the bundle came from
    text = run_cli("aggregate", str(bundle)).stdout
    assert "HCCL_EI0006_SOCKET_TIMEOUT" in " ".join(text.split())
    bad = tmp_path / "broken.tar.gz"
    bad.write_bytes(b"not an archive")
    proc = run_cli("aggregate", str(bad))
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
