"""Device NICs (hccn.conf, hccn_tool) and a node checked against its rank table (N1-N4, R6, R9, L3)."""

import json
import os

from tests.helpers import fixture_path, run_cli, run_json
from ascend_doctor.probes.environment import env_facts
from ascend_doctor.checks import CheckContext
from ascend_doctor.checks.rank_table import (check_rank_table_device_ips, check_rank_table_device_nics,
                                             check_rank_table_this_node, check_rank_table_valid)
from tests.helpers.i18n_asserts import assert_is_msg, assert_msg, deferring

# run as doctor.evaluate runs them (words deferred): the asserts read message ids and parameters, not sentences
check_rank_table_device_ips, check_rank_table_device_nics, check_rank_table_this_node = map(
    deferring, (check_rank_table_device_ips, check_rank_table_device_nics, check_rank_table_this_node))
from ascend_doctor.facts import Facts, HccnDevice, NpuDevice, RankTableFacts
from ascend_doctor.host import SnapshotHost
from ascend_doctor.probes import ProbeOptions
from ascend_doctor.probes.hccn import (parse_hccn_conf, parse_hccn_ip, parse_hccn_link, parse_hccn_net_health,
                                       probe_hccn)
from ascend_doctor.probes.rank_table import probe_rank_table
from ascend_doctor import phrases

NODE = fixture_path("distributed_910b_node")
TOOL = "/usr/local/Ascend/driver/tools/hccn_tool"


# -- parsers (samples from ascend_formats.md §3) ------------------------------------------------

def test_parse_hccn_conf_blog_sample_and_bad_lines():
    with open(os.path.join(NODE, "root/etc/hccn.conf")) as fh:
        conf, errors = parse_hccn_conf(fh.read())
    assert conf[0]["address"] == "29.1.137.205" and conf[7]["netdetect"] == "29.1.0.1" and errors == []
    conf, errors = parse_hccn_conf("# comment\naddress_0=10.0.0.1\ngarbage line\narp_1=-i eth1 -s 10.0.0.2 aa:bb\n")
    assert conf == {0: {"address": "10.0.0.1"}, 1: {"arp": "-i eth1 -s 10.0.0.2 aa:bb"}}
    assert len(errors) == 1
    assert_is_msg(errors[0], phrases.HCCN_CONF_BAD_LINE, path="/etc/hccn.conf", line=3, text="'garbage line'")


def test_parse_hccn_tool_outputs():
    assert parse_hccn_ip("ipaddr:10.10.0.10\nnetmask:255.255.255.0\n") == {"ipaddr": "10.10.0.10", "netmask": "255.255.255.0"}
    assert parse_hccn_ip("") == {}  # an unconfigured device prints nothing
    assert parse_hccn_link("link status: UP") == "UP"
    assert parse_hccn_link("link status: DOWN\n") == "DOWN"
    assert parse_hccn_link("garbage") is None
    assert parse_hccn_net_health("net health status: Socket failed\n") == "Socket failed"
    assert parse_hccn_net_health("") is None


def test_probe_hccn_reads_conf_and_commands_from_a_snapshot():
    facts = probe_hccn(SnapshotHost(NODE), ProbeOptions())
    assert facts.conf_path == "/etc/hccn.conf" and facts.tool == TOOL and facts.tool_error is None
    d7 = facts.device(7)
    assert (d7.ip, d7.link, d7.net_health, d7.ip_queried) == ("29.1.170.143", "UP", "Success", True)


def test_probe_hccn_without_tool_or_conf(make_snapshot):
    facts = probe_hccn(SnapshotHost(make_snapshot(files={"/dev/davinci0": ""})), ProbeOptions())
    assert facts.tool is None and "not found" in facts.tool_error and [d.device_id for d in facts.devices] == [0]


def test_probe_hccn_stops_after_a_timeout(make_snapshot):
    cmds = [{"argv": [TOOL, "-i", "0", "-ip", "-g"], "rc": None, "error": "timeout"}]
    snap = make_snapshot(files={"/etc/hccn.conf": "address_0=10.0.0.1\naddress_1=10.0.0.2\n"}, commands=cmds)
    facts = probe_hccn(SnapshotHost(snap), ProbeOptions())
    assert "timeout" in facts.tool_error and facts.devices[1].link is None


def test_probe_rank_table_finds_this_node():
    rt = probe_rank_table(SnapshotHost(NODE), ProbeOptions())
    assert (rt.env_var, rt.format, rt.rank_count, rt.problems) == ("RANK_TABLE_FILE", "1.0", 4, [])
    assert rt.local_server["server_id"] == "192.0.2.10" and "hostname -I" in rt.local_server["matched_by"]


# -- node checks with facts built directly ------------------------------------------------------

def make_ctx(env=None, devices=(0, 7), local=True, hccn=None, problems=None):
    facts = Facts()
    for i in devices:
        facts.npu.devices.append(NpuDevice(npu_id=i, device_id=i))
    server = {"path": "server_list[0]", "server_id": "192.0.2.10", "matched_by": "server_id 192.0.2.10 is a local IP",
              "also_matched": [], "devices": [
                  {"device_id": 0, "device_ip": "29.1.137.205", "rank_id": 0, "path": "server_list[0].device[0]"},
                  {"device_id": 7, "device_ip": "29.1.170.143", "rank_id": 1, "path": "server_list[0].device[1]"}]}
    facts.rank_table = RankTableFacts(env_var="RANK_TABLE_FILE", path="/job/hccl.json", format="1.0", status="completed",
                                      server_count=2, rank_count=4, local_names=["192.0.2.10"],
                                      local_server=server if local else None, problems=problems or [],
                                      device_sets={"0,7": [0, 1]}, server_paths=["server_list[0]", "server_list[1]"])
    facts.hccn.conf_path = "/etc/hccn.conf"
    facts.hccn.tool = TOOL
    facts.hccn.devices = hccn if hccn is not None else [
        HccnDevice(0, conf={"address": "29.1.137.205", "netmask": "255.255.0.0"}, ip="29.1.137.205", ip_queried=True,
                   link="UP", net_health="Success"),
        HccnDevice(7, conf={"address": "29.1.170.143", "netmask": "255.255.0.0"}, ip="29.1.170.143", ip_queried=True,
                   link="UP", net_health="Success")]
    base = {"RANK_TABLE_FILE": "/job/hccl.json", "RANK_ID": "1", "DEVICE_ID": "7", "RANK_SIZE": "4"}
    base.update(env or {})
    facts.env = env_facts({k: v for k, v in base.items() if v is not None})
    return CheckContext(facts=facts)


def test_all_node_checks_pass_on_a_consistent_node():
    c = make_ctx()
    assert [f(c).status for f in (check_rank_table_this_node, check_rank_table_device_ips,
                                  check_rank_table_device_nics)] == ["pass", "pass", "pass"]


def test_node_checks_skip_without_rank_table():
    c = make_ctx(env={"RANK_TABLE_FILE": None})
    c.facts.rank_table = RankTableFacts()
    assert {f(c).status for f in (check_rank_table_valid, check_rank_table_this_node, check_rank_table_device_ips,
                                  check_rank_table_device_nics)} == {"skip"}


def test_this_node_missing_from_table_fails_once():
    c = make_ctx(local=False)
    f = check_rank_table_this_node(c)
    assert f.status == "fail" and "192.0.2.10" in f.evidence["this node"] and f.pitfall == "P14"
    assert check_rank_table_device_ips(c).status == "skip"
    assert check_rank_table_device_nics(c).status == "skip"


def test_table_devices_absent_on_this_node_fail():
    f = check_rank_table_this_node(make_ctx(devices=(0, 1, 2, 3)))
    assert f.status == "fail" and "[7]" in f.summary


def test_device_count_unknown_is_could_not_check():
    f = check_rank_table_this_node(make_ctx(devices=()))
    assert f.status == "error" and "unknown" in f.summary


def test_device_id_and_rank_id_must_belong_to_this_server():
    f = check_rank_table_this_node(make_ctx(env={"DEVICE_ID": "3"}))
    assert f.status == "fail" and "DEVICE_ID=3" in f.summary
    f = check_rank_table_this_node(make_ctx(env={"RANK_ID": "0"}))
    assert f.status == "fail" and "export RANK_ID=1" in " ".join(f.fix)
    f = check_rank_table_this_node(make_ctx(env={"RANK_ID": "3", "DEVICE_ID": None}))
    assert f.status == "fail"
    assert_msg(f.summary, "RANK_ID={rank} is not a rank of this server (its ranks: {first}..{last})", rank="3")


def test_device_ip_mismatch_with_hccn_conf_and_live_nic():
    hccn = [HccnDevice(0, conf={"address": "29.1.137.205", "netmask": "255.255.0.0"}, ip="29.1.137.205", ip_queried=True),
            HccnDevice(7, conf={"address": "29.1.170.144", "netmask": "255.255.0.0"}, ip=None, ip_queried=True)]
    f = check_rank_table_device_ips(make_ctx(hccn=hccn))
    assert f.status == "fail"
    assert "/etc/hccn.conf says 29.1.170.144" in f.summary
    assert_msg(f.summary, "device {id}: `hccn_tool -i {id} -ip -g` shows no IP configured", id=7)
    assert any("server_list[0].device[1].device_ip" in x for x in f.fix)


def test_hccn_conf_missing_address_and_duplicates():
    hccn = [HccnDevice(0, conf={"address": "29.1.137.205", "netmask": "255.255.0.0"}),
            HccnDevice(7, conf={}), HccnDevice(3, conf={"address": "29.1.137.205"})]
    f = check_rank_table_device_ips(make_ctx(hccn=hccn))
    assert f.status == "fail" and "no address_7" in f.summary
    assert_msg(f.summary, "/etc/hccn.conf gives address {address} to both device {first} and device {second}",
               address="29.1.137.205", first=0, second=3)


def test_device_ips_unknown_without_hccn_info():
    c = make_ctx(hccn=[])
    c.facts.hccn.conf_path = None
    c.facts.hccn.tool, c.facts.hccn.tool_error = None, "hccn_tool not found"
    assert check_rank_table_device_ips(c).status == "error"
    assert check_rank_table_device_nics(c).status == "error"


def test_nic_link_down_and_health_states():
    hccn = [HccnDevice(0, link="DOWN", net_health="Success"), HccnDevice(7, link="UP", net_health="Socket failed")]
    f = check_rank_table_device_nics(make_ctx(hccn=hccn))
    assert f.status == "fail" and "Socket failed" in f.summary
    assert_msg(f.summary, "device {id} link is {link}", id=0, link="DOWN")
    f = check_rank_table_device_nics(make_ctx(hccn=[HccnDevice(0, link="UP", net_health="Init"),
                                                    HccnDevice(7, link="UP", net_health="Success")]))
    assert f.status == "warn" and "netdetect" in " ".join(f.fix)


def test_topology_uses_node_family_in_check():
    c = make_ctx()
    c.facts.npu.soc_family = "910"
    f = check_rank_table_valid(c)
    assert f.status == "warn" and "HCCS" in f.summary  # devices 0 and 7 sit in different 910A rings
    c.facts.npu.soc_family = "910B"
    assert check_rank_table_valid(c).status == "pass"


# -- end to end on the snapshot fixture ---------------------------------------------------------

def test_check_on_the_node_bundle():
    proc, data = run_json("check", "--bundle", NODE, "--only", "rank_table", "env", "hccl")
    by_id = {}
    for f in data["findings"]:
        by_id.setdefault(f["id"], f["status"])
    assert by_id["rank_table.valid"] == "pass" and by_id["rank_table.device_ips"] == "pass"
    assert by_id["rank_table.device_nics"] == "pass" and by_id["env.rank_table_env"] == "pass"
    assert by_id["hccl.env_values"] == "pass"
    assert by_id["rank_table.this_node"] in ("pass", "error")  # "error" until an npu probe reports the devices
    assert data["facts"]["hccn"]["tool"] == TOOL


def test_rank_table_subcommand_against_a_bundle(tmp_path):
    with open(os.path.join(NODE, "root/user/config/hccl.json")) as fh:
        doc = json.load(fh)
    doc["server_list"][0]["device"][1]["device_ip"] = "29.1.170.150"
    f = tmp_path / "edited.json"
    f.write_text(json.dumps(doc))
    proc = run_cli("rank-table", str(f), "--bundle", NODE)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    data = json.loads(run_cli("rank-table", str(f), "--bundle", NODE, "--format", "json").stdout)
    assert data["verdict"] == "valid" and data["node"]["name"] == "node-a"
    [ips] = [x for x in data["node"]["findings"] if x["id"] == "rank_table.device_ips"]
    assert ips["status"] == "fail"
    assert_msg(ips, "device {id}: the table says {table}, /etc/hccn.conf says {conf} ({path}.device_ip)", id=7,
               table="29.1.170.150", conf="29.1.170.143", path="server_list[0].device[1]")


def test_rank_table_here_runs_on_this_machine_and_bad_bundle_is_exit_2(tmp_path):
    table = os.path.join(NODE, "root/user/config/hccl.json")
    proc = run_cli("rank-table", table, "--here", "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    data = json.loads(proc.stdout)
    assert data["node"]["kind"] == "live" and data["verdict"] == "valid"
    assert {f["id"] for f in data["node"]["findings"]} == {"rank_table.this_node", "rank_table.device_ips",
                                                           "rank_table.device_nics"}
    proc = run_cli("rank-table", table, "--bundle", str(tmp_path / "missing.tar.gz"))
    assert proc.returncode == 2 and "missing.tar.gz" in proc.stderr and "Traceback" not in proc.stderr


def test_a_node_missing_from_the_table_is_told_a_command_that_lists_its_servers(tmp_path):
    """The fix's command prints the table's server_ids (rank-table FILE validates, it does not list them)."""
    import subprocess

    c = make_ctx(local=False)
    f = check_rank_table_this_node(c)
    step = next(s for s in f.fix if "the servers the table lists" in s)
    table = tmp_path / "t.json"
    table.write_text('{"server_list": [{"server_id": "10.0.0.1", "device": []}, {"server_id": "10.0.0.2"}]}')
    cmd = step.split("   #")[0].replace(c.facts.rank_table.path, str(table))
    out = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=30).stdout
    assert '"server_id": "10.0.0.1"' in out and '"server_id": "10.0.0.2"' in out
