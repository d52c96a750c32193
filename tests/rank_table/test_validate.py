"""One per-device validator for the formats that list devices per server (1.0/1.2 server_list, legacy group_list)."""

import json

import pytest

from ascend_doctor.rank_table import validate_rank_table_text


def _server_list(devices):
    return {"version": "1.0", "server_count": "2", "status": "completed", "server_list": [
        {"server_id": "10.0.0.1", "device": devices},
        {"server_id": "10.0.0.2", "device": [{"device_id": "0", "device_ip": "192.168.9.1", "rank_id": "2"}]}]}


def _group_list(devices):
    return {"group_count": "1", "group_list": [{"instance_count": "2", "device_count": str(len(devices) + 1),
                                                "instance_list": [
        {"pod_name": "p0", "server_id": "10.0.0.1", "devices": devices},
        {"pod_name": "p1", "server_id": "10.0.0.2", "devices": [{"device_id": "0", "device_ip": "192.168.9.1"}]}]}]}


def _problems(doc, prefix):
    table = validate_rank_table_text(json.dumps(doc))
    return {(p.path[len(prefix):], p.rule) for p in table.problems if p.path.startswith(prefix)}, table


# (device entries of the first server, the (path under that server's device list, rule) both formats must report)
FAULTS = [
    ([{"device_id": "16", "device_ip": "192.168.1.1", "rank_id": "0"}], {("[0].device_id", "R6")}),
    ([{"device_id": "0", "device_ip": "192.168.1.1", "rank_id": "0"},
      {"device_id": "0", "device_ip": "192.168.1.2", "rank_id": "1"}], {("[1].device_id", "R6")}),
    ([{"device_id": "0", "device_ip": "192.168.1.1", "rank_id": "0"},
      {"device_id": "1", "device_ip": "192.168.1.1", "rank_id": "1"}], {("[1].device_ip", "R9")}),
    ([{"device_id": "0", "device_ip": "192.168.1.256", "rank_id": "0"}], {("[0].device_ip", "R9")}),
    ([{"device_id": "0", "rank_id": "0"}], {("[0].device_ip", "R9")}),
    ([{"device_id": "x", "device_ip": "192.168.1.1", "rank_id": "0"}], {("[0].device_id", "R6")}),
]


@pytest.mark.parametrize("devices,expected", FAULTS)
def test_a_device_fault_is_found_the_same_way_in_both_formats(devices, expected):
    found_v1, _ = _problems(_server_list(devices), "server_list[0].device")
    group_devices = [{k: v for k, v in d.items() if k != "rank_id"} for d in devices]
    found_g, _ = _problems(_group_list(group_devices), "group_list[0].instance_list[0].devices")
    assert expected <= found_v1 and expected <= found_g


def test_a_device_that_is_not_an_object_is_named_by_each_format_and_not_counted():
    found_v1, t1 = _problems(_server_list([7, {"device_id": "0", "device_ip": "192.168.1.1", "rank_id": "0"}]),
                             "server_list[0].device")
    found_g, t2 = _problems(_group_list([7, {"device_id": "0", "device_ip": "192.168.1.1"}]),
                            "group_list[0].instance_list[0].devices")
    assert ("[0]", "R6") in found_v1 and ("[0]", "R14") in found_g
    assert t1.rank_count == t2.rank_count == 2


def test_only_server_list_devices_carry_ranks_and_ports():
    dev = {"device_id": "0", "device_ip": "192.168.1.1", "rank_id": "0", "device_port": "70000",
           "backup_device_port": "70000"}
    found_v1, t1 = _problems(_server_list([dev]), "server_list[0].device")
    assert {("[0].device_port", "R10"), ("[0].backup_device_port", "R10")} <= found_v1
    assert t1.servers[0].devices[0]["rank_id"] == 0
    found_g, t2 = _problems(_group_list([dev]), "group_list[0].instance_list[0].devices")
    assert not any(rule == "R10" for _, rule in found_g)  # group_list has no ports: HCCL ignores them there
    assert [d["rank_id"] for s in t2.servers for d in s.devices] == [0, 1]  # the file's order


def test_device_ip_may_be_left_out_of_a_one_server_table_only():
    one = {"version": "1.0", "server_count": "1", "status": "completed",
           "server_list": [{"server_id": "a", "device": [{"device_id": "0", "rank_id": "0"}]}]}
    assert not validate_rank_table_text(json.dumps(one)).problems
    found, _ = _problems(_server_list([{"device_id": "0", "rank_id": "0"},
                                       {"device_id": "1", "device_ip": "192.168.1.2", "rank_id": "1"}]),
                         "server_list[0].device")
    assert ("[0].device_ip", "R9") in found
