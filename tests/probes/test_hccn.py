"""probes/hccn.py: the hccn_tool port queries (reference/hccn_tool.md), both driver forms where two exist, and
bad input (empty, truncated, NA, other tools' text). The verbatim samples are the reference's; the node-level
outputs are those tests/fixtures/build_network.py writes into the network snapshots."""

import os
import sys

import pytest

from ascend_doctor.host import SnapshotHost
from ascend_doctor.probes import ProbeOptions
from ascend_doctor.probes.hccn import (QUERY_FLAGS, parse_fec, parse_gateway, parse_link_stat, parse_lldp, parse_mtu,
                                       parse_netdetect, parse_optical, parse_ping, parse_speed, parse_tls, probe_hccn)
from tests.helpers import FIXTURES
from tests.helpers.i18n_asserts import assert_msg
from ascend_doctor import phrases

sys.path.insert(0, FIXTURES)
import build_network  # noqa: E402

TOOL = "/usr/local/Ascend/driver/tools/hccn_tool"

# hccn_tool.md §3 [FIX FIXT], verbatim: the older driver (no link down count)
FIXT_LINK_STAT = """[devid 0]current time        : Wed Aug  2 03:09:26 2022
[devid 0]link up count       : 2
[devid 0]link change records :
[devid 0]    Tue Aug  1 14:43:40 2022    LINK UP
[devid 0]    Tue Aug  1 14:43:40 2022    LINK DOWN
[devid 0]    Tue Aug  1 14:43:26 2022    LINK UP
"""

# hccn_tool.md §4 [FIX FIXT], the lines the reference quotes (an edited fixture: "not present" with values)
FIXT_OPTICAL = """optical info:
present              : not present
temperature          : 47 C
high power enable reg: enabled
vendor name          : Hisense
vendor part number   : LMQ8611-PC+
Tx Power0            : 4.4035 mW
Rx Power0            : 1.0189 mW
Tx Power1            : 1.3968 mW
Rx Power1            : 0.0054 mW
Temp High Thres      : 70 C
Temp Low Thres       : 0 C
TxPower High Thres   : 3.5481 mW
TxPower Low Thres    : 0.2818 mW
RxPower High Thres   : 3.5481 mW
RxPower Low Thres    : 0.1445 mW
Tx Bias0             : 7.9360 mA
Tx Los Flag          : 0x0
Rx Los Flag          : 0xff
Tx LoL Flag          : 0x0
Rx LoL Flag          : 0xff
Host SNR Lane0       : not supported
Media SNR Lane0      : 23.1211 dB
"""

# hccn_tool.md §5 [REAL ARTH], as the author printed it (his `...` elisions kept)
ARTH_LLDP = """Chassis ID TLV
        MAC: ...
Port ID TLV
        Ifname: 400GE1/1/20:2
System Description TLV
        Versatile Routing Platform Software
VRP (R) software, Version 8.211 (DX511 V200R021C10SPC600)

Huarong DX511

System Capabilities TLV
        Enabled capabilities: Bridge, Router
Management Address TLV
        IPv4: 26.xx.xx.xx
...
Maximum Frame Size TLV
        9216
End of LLDPDU TLV
"""


def test_link_stat_older_driver_sample_verbatim():
    stat = parse_link_stat(FIXT_LINK_STAT)
    assert (stat.up_count, stat.down_count, [r.state for r in stat.records]) == (2, None, ["UP", "DOWN", "UP"])
    # asctime pads the day with a space; the record ages come from the output's own "current time"
    assert [r.seconds_before for r in stat.records] == [12 * 3600 + 25 * 60 + 46] * 2 + [12 * 3600 + 26 * 60]


def test_link_stat_device_prefix_and_down_count_and_na():
    text = ("[device 0]current time        : Wed Jun  7 10:08:28 2023\n[device 0]link up count       : 3\n"
            "[device 0]link down count     : 2\n[device 0]link change records : NA\n")
    stat = parse_link_stat(text)  # MCDOC's prefix, the current driver's down count, no records
    assert (stat.up_count, stat.down_count, stat.records, stat.current_time) == (3, 2, [], "Wed Jun 7 10:08:28 2023")


@pytest.mark.parametrize("bad", ["", "[devid 0]current time : Wed Aug  2 03:09:26 2022\n",  # truncated before counts
                                 "link status: UP", "\x00\xff garbage"])
def test_link_stat_bad_input(bad):
    assert parse_link_stat(bad) is None


def test_link_stat_bad_times_keep_records_without_age():
    stat = parse_link_stat("[devid 1]current time : NA\n[devid 1]link up count : 4\n"
                           "[devid 1]    Xyz Aug 41 14:43:40 2022    LINK DOWN\n")
    assert stat.up_count == 4 and stat.records[0].state == "DOWN" and stat.records[0].seconds_before is None


def test_optical_fixture_sample_reads_lanes_thresholds_and_flags():
    opt = parse_optical(FIXT_OPTICAL)
    assert opt.present is False and opt.temperature == 47 and opt.high_power is True
    assert opt.tx_power == {"Tx Power0": 4.4035, "Tx Power1": 1.3968}
    assert opt.rx_power == {"Rx Power0": 1.0189, "Rx Power1": 0.0054}
    assert (opt.tx_low, opt.tx_high, opt.rx_low, opt.rx_high) == (0.2818, 3.5481, 0.1445, 3.5481)
    assert opt.flags == {"Tx Los Flag": 0, "Rx Los Flag": 0xff, "Tx LoL Flag": 0, "Rx LoL Flag": 0xff}


def test_optical_not_present_prints_na_everywhere():
    opt = parse_optical(build_network.OPTICAL_ABSENT)  # the [SRC] invalid-info lines
    assert opt.present is False and opt.temperature is None and opt.tx_power == {} and opt.rx_power == {}
    assert opt.rx_low is None and opt.flags == {}


def test_optical_unsuffixed_lanes_of_the_doc_and_dr4_na_lanes():
    text = ("optical info:\npresent              : present\nTx Power             : 1.2 mW\nRx Power             : 0.9 mW\n"
            "Tx Power2            : NA\ntemperature          : not supported\n")
    opt = parse_optical(text)
    assert opt.tx_power == {"Tx Power": 1.2} and opt.rx_power == {"Rx Power": 0.9} and opt.temperature is None


@pytest.mark.parametrize("bad", ["", "optical info:\n", "Tx Power0 : 1.0 mW\n", "random text"])
def test_optical_without_present_line_is_not_understood(bad):
    assert parse_optical(bad) is None


def test_lldp_real_sample_empty_and_garbage():
    n = parse_lldp(ARTH_LLDP)
    assert n.present and n.port == "400GE1/1/20:2" and n.system_description == "Versatile Routing Platform Software"
    assert parse_lldp("\tIfname: 400GE1/1/5:1\n") is None  # a grep of it, not the output
    assert parse_lldp("").present is False and parse_lldp("\n  \n").present is False
    assert parse_lldp("garbage") is None


def test_tls_both_driver_forms():
    assert parse_tls("dev_id:1, tls switch[1](0:disable, 1:enable), tls preconfigured[1](0:non-preset, 1:preset), "
                     "tls alarm time threshold[60]days") == 1
    older = ("dev_id:0, tls switch[0](0:disable, 1:enable), tls alarm time threshold[60]days\n"
             "dev_id:0, [pub cert] info:\n         issuer[/C=CN/ST=GD/O=HUAWEI/OU=2012/CN=2_1thCA]\n")
    assert parse_tls(older) == 0
    assert parse_tls("") is None and parse_tls("tls switch[") is None


def test_mtu_speed_fec_gateway_netdetect_ping():
    assert parse_mtu("mtu:1500\n") == 1500 and parse_mtu("MTU: 9000") == 9000 and parse_mtu("") is None
    assert parse_speed("Speed: 100000 Mb/s") == "100000 Mb/s" and parse_speed("Speed: Unknown!") == "Unknown"
    assert parse_speed("Speed: 200 G") is None  # ascend_fd_tk's synthetic form is not hccn_tool's
    assert parse_fec("fec mode: rs FEC mode") == "rs" and parse_fec("fec mode: no FEC mode\n") == "no"
    assert parse_fec("") is None
    assert parse_gateway("default gateway:11.12.165.1, Iface:eth0") == "11.12.165.1"
    assert parse_netdetect("netdetect addr: 11.12.165.1") == "11.12.165.1"  # [SRC]
    assert parse_netdetect("netdetect address: 11.12.165.1") == "11.12.165.1"  # [REAL DSV3]
    assert parse_netdetect("") is None and parse_gateway("") is None
    ping = ("device 3 PING 29.1.137.205\nrecv seq=0,time=1.418000ms\nrecv seq=1,time=0.034000ms\n"
            "recv seq=2,time=0.040000ms\n3 packets transmitted, 3 received, 0.00% packet loss\n")
    assert parse_ping(ping) == (3, 3)
    assert parse_ping("3 packets transmitted, 0 received, 100.00% packets loss") == (3, 0)
    assert parse_ping("device 3 PING 29.1.137.205\n") is None


def test_probe_reads_every_query_of_the_healthy_snapshot():
    facts = probe_hccn(SnapshotHost(os.path.join(FIXTURES, "network", "healthy")), ProbeOptions())
    assert facts.tool == TOOL and len(facts.devices) == 8 and not facts.errors
    d = facts.device(5)
    assert (d.link, d.net_health, d.tls, d.mtu, d.speed, d.fec) == ("UP", "Success", 0, 1500, "200000 Mb/s", "rs")
    assert d.optical.present and d.lldp.port == "400GE1/3/5:2" and d.netdetect == d.gateway == "11.12.165.1"
    assert d.link_stat.down_count == 1 and not d.errors


def test_probe_reads_the_older_driver_forms():
    facts = probe_hccn(SnapshotHost(os.path.join(FIXTURES, "network", "healthy_older_driver")), ProbeOptions())
    d = facts.device(0)
    assert d.link_stat.down_count is None and d.link_stat.up_count == 2 and d.netdetect == "11.12.166.1"
    assert d.tls == 0 and not d.errors


def test_probe_records_an_answer_it_does_not_understand(make_snapshot):
    cmds = [{"argv": [TOOL, "-i", "0", flag, "-g"], "rc": 0, "stdout": "garbage\n"} for flag in QUERY_FLAGS]
    facts = probe_hccn(SnapshotHost(make_snapshot(files={"/dev/davinci0": "", TOOL: ""}, commands=cmds)),
                       ProbeOptions())
    d = facts.device(0)
    assert d.link is None and d.optical is None and d.mtu is None
    assert_msg(d.errors, phrases.HCCN_NO_LINE, command="hccn_tool -i 0 -optical -g", expected="present :",
               output="'garbage'")
    assert_msg(d.errors, phrases.HCCN_NO_LINE, command="hccn_tool -i 0 -mtu -g", expected="mtu:")
    from ascend_doctor import i18n
    from ascend_doctor.i18n_text import worded

    i18n.set_lang("zh")  # a message: Chinese where a zh run shows it
    try:
        assert "`hccn_tool -i 0 -mtu -g`：输出 'garbage' 中没有 'mtu:' 行" in worded(d.errors)
    finally:
        i18n.set_lang("en")


def test_probe_stops_at_its_share_of_the_budget(make_snapshot, monkeypatch):
    from ascend_doctor.probes import hccn

    clock = iter(range(0, 1000, 7))
    monkeypatch.setattr(hccn.time, "monotonic", lambda: next(clock))
    cmds = [{"argv": [TOOL, "-i", "0", flag, "-g"], "rc": 0, "stdout": "link status: UP\n"} for flag in QUERY_FLAGS]
    facts = probe_hccn(SnapshotHost(make_snapshot(files={"/dev/davinci0": "", TOOL: ""}, commands=cmds)),
                       ProbeOptions(timeout=10.0))
    assert facts.device(0).link == "UP" and facts.device(0).tls is None
    assert "stopped after 20 s" in facts.errors[-1] and "-tls" in facts.errors[-1]


def test_choose_peers_spreads_local_devices_over_the_other_servers():
    from ascend_doctor.rank_table import ServerEntry
    from ascend_doctor.probes.hccn import choose_peers

    servers = [ServerEntry(i, f"server_list[{i}]", f"s{i}", devices=[
        {"device_id": d, "device_ip": f"10.{i}.0.{d}"} for d in range(2)]) for i in range(6)]
    pairs = choose_peers(servers, 0, per_device=2)
    assert [(p[0], p[1], p[2]) for p in pairs] == [(0, "s1", 0), (0, "s2", 0), (1, "s3", 1), (1, "s4", 1)]
    assert choose_peers(servers[:1], 0) == []  # no other server
    servers[1].devices = [{"device_id": 5, "device_ip": None}]  # a peer without addresses is not pinged
    assert all(p[1] != "s1" for p in choose_peers(servers, 0))


def test_pings_read_from_a_node_of_a_rank_table():
    facts = probe_hccn(SnapshotHost(os.path.join(FIXTURES, "network", "peers_a")), ProbeOptions(ping_peers=True))
    assert len(facts.pings) == 16
    assert_msg(facts.ping_note, "pinged {count} peer device address(es) of {servers} other server(s): up to {per} peer "
               "server(s) per device, the same device id where the peer has it, within {seconds} s", count=16, servers=2)
    lost = sorted((p.device_id, p.server_id) for p in facts.pings if not p.received)
    assert lost == [(d, "192.0.2.22") for d in range(8)]
    assert probe_hccn(SnapshotHost(os.path.join(FIXTURES, "network", "peers_a")), ProbeOptions()).pings == []


@pytest.mark.parametrize("env, files, words", [
    ({}, {}, "no rank table"),
    ({"RANK_TABLE_FILE": "/job/t.json"}, {}, "could not be read"),
    ({"RANK_TABLE_FILE": "/job/t.json"}, {"/job/t.json": '{"version": "1.0", "server_count": "1", "status": '
                                          '"completed", "server_list": [{"server_id": "198.51.100.9", "device": '
                                          '[{"device_id": "0", "device_ip": "10.0.0.1", "rank_id": "0"}]}]}'},
     "not a server of the rank table"),
])
def test_pings_say_why_nothing_was_pinged(make_snapshot, env, files, words):
    cmds = [{"argv": [TOOL, "-i", "0", "-link", "-g"], "rc": 0, "stdout": "link status: UP\n"}]
    snap = make_snapshot(files={"/dev/davinci0": "", TOOL: "", **files}, env=env, commands=cmds)
    facts = probe_hccn(SnapshotHost(snap), ProbeOptions(ping_peers=True))
    assert facts.pings == [] and words in facts.ping_note
