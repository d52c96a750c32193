"""checks/network.py on node snapshots built from real hccn_tool outputs (tests/fixtures/network, build_network.py):
the healthy node raises nothing, and each snapshot with one fault on one device is named with that device and kind."""

import json
import os
import sys

import pytest

from ascend_doctor.checks import CheckContext
from ascend_doctor.checks.network import (check_link_flaps, check_optical_levels, check_peer_reach,
                                          net_health_meaning)
from tests.helpers.i18n_asserts import assert_msg, deferring
from ascend_doctor.facts import (Facts, HccnDevice, LinkRecord, LinkStat, OpticalModule, PingResult)
from tests.helpers import FIXTURES
from tests.helpers.fixture_reports import report_of

sys.path.insert(0, FIXTURES)
import build_network  # noqa: E402

NET = os.path.join(FIXTURES, "network")
PROBLEMS = ("fail", "warn", "error")


def _network_problems(name):
    report = report_of(os.path.join(NET, name))
    return {f.id: f for f in report.findings if f.id.startswith("network.") and f.status in PROBLEMS}


@pytest.mark.parametrize("name", ["healthy", "healthy_older_driver"])
def test_a_healthy_node_raises_nothing(name):
    report = report_of(os.path.join(NET, name))
    net = {f.id: f.status for f in report.findings if f.id.startswith("network.")}
    assert all(s == "pass" for s in net.values()), net
    assert len(net) == 11  # every port check ran (peer_reach only with preflight --net)
    assert [f.id for f in report.findings if f.status in PROBLEMS] == ["mindspore.installed"]  # the a2_healthy node


# snapshot -> (the check that names the fault, its status, the checks its consequences may also raise)
EXPECTED = {
    "link_down": ("network.link", "fail", set()),  # its net health Fault and missing LLDP neighbour follow from it
    "link_flaps": ("network.link_flaps", "fail", set()),
    "optical_absent": ("network.optical_module", "fail", {"network.link"}),
    "optical_rx_low": ("network.optical_levels", "fail", set()),
    "net_health_timeout": ("network.net_health", "fail", set()),
    "no_lldp": ("network.lldp", "warn", set()),
    "tls_mixed": ("network.tls", "fail", set()),
    "mtu_differs": ("network.mtu", "warn", set()),
    "speed_differs": ("network.speed", "warn", set()),
    "fec_off": ("network.fec", "warn", set()),
    "no_address": ("network.address", "fail", set()),
    "duplicate_address": ("network.address", "fail", set()),
}


def test_every_fault_snapshot_is_tested():
    assert set(EXPECTED) == set(build_network.FAULTS)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_fault_is_named_with_its_device_and_kind(name):
    check_id, status, consequences = EXPECTED[name]
    device = build_network.FAULTS[name][0]
    problems = _network_problems(name)
    assert check_id in problems and problems[check_id].status == status, {k: v.status for k, v in problems.items()}
    assert set(problems) <= {check_id} | consequences
    finding = problems[check_id]
    assert f"device(s) {device}" in finding.summary or f"device {device}" in finding.summary \
        or f"devices {device - 1}, {device}" in finding.summary, finding.summary
    others = [i for i in build_network.DEVICES if i != device and f"device {i}" not in finding.summary]
    for i in others:  # no healthy device is blamed (the odd one out is named against the majority)
        assert f"-i {i} " not in " ".join(finding.fix) or name in ("mtu_differs", "speed_differs", "fec_off",
                                                                   "tls_mixed"), (i, finding.fix)
    assert any("hccn_tool" in step for step in finding.fix)


def test_the_switch_port_is_named_for_the_network_team():
    finding = _network_problems("optical_rx_low")["network.optical_levels"]
    assert finding.evidence == {"device 6": "Rx Power2 0.1031 mW below the module's low threshold 0.1445 mW; "
                                            "switch port 400GE1/4/5:1"}


def test_fixes_name_the_network_team_where_hardware_is_at_fault():
    for name in ("link_down", "link_flaps", "optical_rx_low", "no_lldp"):
        check_id = EXPECTED[name][0]
        assert any("network team" in step for step in _network_problems(name)[check_id].fix), name


def test_net_health_meanings_cover_both_socket_spellings():
    assert net_health_meaning("Socket fail")[0] == "fail" and net_health_meaning("Socket failed")[0] == "fail"
    assert net_health_meaning("Init")[0] == "warn" and net_health_meaning("Success")[0] == "pass"
    assert net_health_meaning("Healthy") == ("warn", None)  # not a driver state: said, not guessed


def _ctx(devices, pings=(), note=None):
    facts = Facts()
    facts.hccn.tool = "/usr/local/Ascend/driver/tools/hccn_tool"
    facts.hccn.devices = devices
    facts.hccn.pings = list(pings)
    facts.hccn.ping_note = note
    return CheckContext(facts=facts)


def test_flaps_counters_only_warn_and_a_long_recent_down_warns():
    many = HccnDevice(device_id=0, link_stat=LinkStat(up_count=6, down_count=5))
    assert check_link_flaps(_ctx([many])).status == "warn"
    long_down = HccnDevice(device_id=1, link_stat=LinkStat(up_count=3, down_count=2, records=[
        LinkRecord("t", "UP", 100), LinkRecord("t", "DOWN", 200), LinkRecord("t", "UP", 5000)]))
    assert check_link_flaps(_ctx([long_down])).status == "warn"
    short = HccnDevice(device_id=2, link_stat=LinkStat(up_count=3, down_count=2, records=[
        LinkRecord("t", "UP", 100), LinkRecord("t", "DOWN", 105)]))
    assert check_link_flaps(_ctx([short])).status == "pass"
    old = HccnDevice(device_id=3, link_stat=LinkStat(up_count=2, down_count=1, records=[
        LinkRecord("t", "UP", 90000), LinkRecord("t", "DOWN", 99000)]))
    assert check_link_flaps(_ctx([old])).status == "pass"


def test_optical_levels_temperature_vcc_flags_and_missing_thresholds():
    hot = OpticalModule(present=True, temperature=75, temp_low=0, temp_high=70, vcc=3000, vcc_low=3135,
                        vcc_high=3465, flags={"Rx LoL Flag": 2})
    f = check_optical_levels(_ctx([HccnDevice(device_id=4, optical=hot)]))
    assert f.status == "fail" and "temperature 75 C" in f.evidence["device 4"] and "Vcc 3000 mV" in f.evidence["device 4"]
    assert "Rx LoL Flag 0x2" in f.evidence["device 4"]
    na = OpticalModule(present=True, rx_power={"Rx Power0": 0.01})  # no thresholds printed: nothing to compare
    assert check_optical_levels(_ctx([HccnDevice(device_id=4, optical=na)])).status == "pass"


def test_peer_reach_names_the_pairs():
    pings = [PingResult(device_id=0, address="29.1.112.213", server_id="192.0.2.11", peer_device=0, sent=3, received=0),
             PingResult(device_id=7, address="10.10.0.10", server_id="192.0.2.11", peer_device=7, sent=3, received=3)]
    f = deferring(check_peer_reach)(_ctx([HccnDevice(device_id=0)], pings, note="1 peer per device"))
    assert f.status == "fail"
    assert_msg(f.summary, "device {id} -> {address} ({peer})", id=0, address="29.1.112.213", peer="192.0.2.11 device 0")
    assert "10.10.0.10" not in f.summary
    assert check_peer_reach(_ctx([], [], note=None)) is None  # not asked: nothing said
    assert check_peer_reach(_ctx([], [], note="no rank table")).status == "skip"


@pytest.mark.parametrize("name", ["link_down", "link_flaps", "optical_absent", "optical_rx_low", "net_health_timeout",
                                  "tls_mixed", "fec_off", "duplicate_address", "peers_a"])
def test_the_port_findings_read_in_chinese(name):
    from ascend_doctor import i18n
    from ascend_doctor.bundle import open_bundle
    from ascend_doctor.doctor import RunOptions, run_checks
    from ascend_doctor.render import render
    from tests.helpers.i18n_support import allowed_words, command_part, leftovers

    path = os.path.join(NET, name)
    i18n.set_lang("zh")
    try:
        with open_bundle(path) as host:
            report = run_checks(host, RunOptions(timeout=5.0, extra={"ping_peers": True})).worded()
        allowed = allowed_words(report, path)
        left = leftovers(render(report, "text"), allowed)
        for f in report.findings:
            if f.id.startswith("network."):
                texts = [f.title, f.summary] + [command_part(s) and s.replace(command_part(s), "", 1) or s
                                                for s in f.fix]
                left += leftovers("\n".join(texts), allowed)
    finally:
        i18n.set_lang("en")
    assert not left, sorted(set(left))


@pytest.mark.parametrize("name", ["optical_rx_low", "link_flaps", "tls_mixed"])
def test_a_saved_report_is_judged_again_the_same(name):
    """The port facts round-trip through the report's JSON: `check --from-report` gives the same network verdicts."""
    from ascend_doctor.doctor import RunOptions, evaluate
    from ascend_doctor.facts import Facts

    report = report_of(os.path.join(NET, name))
    facts = Facts.from_json(json.loads(json.dumps(report.to_json()))["facts"])
    again = evaluate(facts, None, RunOptions())
    assert {f.id: (f.status, f.summary) for f in again.findings if f.id.startswith("network.")} == \
        {f.id: (f.status, f.summary) for f in report.findings if f.id.startswith("network.")}
