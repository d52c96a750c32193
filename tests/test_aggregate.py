"""aggregate: nodes that failed one check with different fixes each get their own fix and evidence."""

import json
import os

from ascend_doctor.aggregate import Aggregator, aggregate_paths, summarise_report
from ascend_doctor.render.aggregate_text import render_aggregate_text
from ascend_doctor.render.html_aggregate import render_aggregate_html

from tests.helpers import FIXTURES, fixture_path, run_cli
from tests.helpers.i18n_asserts import assert_msg, assert_shows
from tests.helpers.snapshot_reports import report_for

ROOT_FIX = "source /usr/local/Ascend/ascend-toolkit/set_env.sh"
HOME_FIX = "source /home/alice/Ascend/ascend-toolkit/set_env.sh"


def _reports(tmp_path):
    """Two nodes failing install.cann_env_sourced: CANN under /usr/local/Ascend, and under /home/alice/Ascend."""
    for name, fixture in (("node-root", "a2_env_not_sourced"), ("node-home", "nonroot_home_install")):
        data = report_for(fixture_path(fixture)).to_json()
        data["host"]["name"] = name
        data["facts"]["extra"]["launch"]["name"] = name
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
    return str(tmp_path)


def test_each_group_of_nodes_gets_its_own_fix_in_json(tmp_path):
    result = aggregate_paths([_reports(tmp_path)])
    (check,) = [c for c in result["checks"] if c["id"] == "install.cann_env_sourced"]
    by_nodes = {tuple(v["nodes"]): v for v in check["variants"]}
    assert set(by_nodes) == {("node-root",), ("node-home",)}
    assert by_nodes[("node-root",)]["fix"][0] == ROOT_FIX
    assert by_nodes[("node-home",)]["fix"][0] == HOME_FIX
    assert "/home/alice/Ascend" in json.dumps(by_nodes[("node-home",)]["evidence"])
    assert by_nodes[("node-home",)]["evidence_from"] == "node-home"
    assert "fix" not in check  # no single fix stands for every node


def _section(text, start, end):
    return text[text.index(start):text.index(end, text.index(start))]


def test_html_shows_each_nodes_fix(tmp_path):
    html = render_aggregate_html(aggregate_paths([_reports(tmp_path)]))
    home = html.index("node-home</h4>") if "node-home</h4>" in html else html.index("node-home —")
    root = html.index("node-root —")
    first, second = sorted([home, root])
    block_of = {home: HOME_FIX, root: ROOT_FIX}
    assert block_of[first] in html[first:second] and block_of[second] not in html[first:second]
    assert block_of[second] in html[second:]
    assert_shows(html, "Evidence from {node}:", node="node-home")


def _net_report(name, net=False):
    from ascend_doctor.bundle import open_bundle
    from ascend_doctor.doctor import RunOptions, run_checks

    with open_bundle(os.path.join(FIXTURES, "network", name)) as host:
        report = run_checks(host, RunOptions(timeout=5.0, extra={"ping_peers": net}))
    return json.loads(json.dumps(report.to_json()))


def test_the_cluster_view_names_the_odd_port_out_the_ports_down_and_who_cannot_reach_whom():
    """Node snapshots built from real hccn_tool outputs (tests/fixtures/network): one node's device 7 has TLS on where
    every other port of the job has it off, another node's device 5 is DOWN, and servers a and b of the rank table
    cannot reach server 192.0.2.22 (preflight --net)."""
    agg = Aggregator()
    for name, net in (("healthy", False), ("tls_mixed", False), ("link_down", False), ("speed_differs", False),
                      ("peers_a", True), ("peers_b", True)):
        agg.add(summarise_report(_net_report(name, net), name))
    result = agg.result()
    ports = result["ports"]
    by_setting = {s["setting"]: s for s in ports["settings"]}
    assert set(by_setting) == {"TLS switch", "Port speed"}
    assert by_setting["TLS switch"]["odd_devices"] == ["net-tls-mixed device 7"]
    assert by_setting["TLS switch"]["majority"] == "0" and by_setting["Port speed"]["majority"] == "200000 Mb/s"
    assert by_setting["Port speed"]["odd_devices"] == ["net-speed-differs device 2"]
    assert ports["down"] == ["net-link-down device 5"]  # its Unknown speed is not a speed that differs
    reach = ports["reachability"]
    assert reach["matrix"]["net-a-rank0"] == {"192.0.2.21": {"answered": 8, "pinged": 8},
                                        "192.0.2.22": {"answered": 0, "pinged": 8}}
    assert reach["unreachable_pairs"] == [{"node": "net-a-rank0", "server": "192.0.2.22"},
                                          {"node": "net-b-rank8", "server": "192.0.2.22"}]
    assert {(u["node"], u["device"], u["address"]) for u in reach["unreachable"]} >= {("net-b-rank8", 3, "11.12.167.83")}
    assert result["verdict"] == "problems"
    assert_msg(result["problems"], "{count} NPU port(s) differ from the cluster's {setting}", count=1,
               setting="TLS switch")
    assert_msg(result["problems"], "{count} NPU port(s) down", count=1)
    assert_msg(result["problems"], "{count} node/server pair(s) with unreachable NPU addresses", count=2)
    tls = by_setting["TLS switch"]
    assert [(g["value"], g["count"]) for g in tls["groups"]] == [("0", 47), ("1", 1)]
    text = render_aggregate_text(result)
    assert "net-tls-mixed device 7" in text and "net-link-down device 5" in text
    assert "net-a-rank0: 192.0.2.21 8/8, 192.0.2.22 0/8" in text
    html = render_aggregate_html(result)
    assert "id='ports'" in html and "net-tls-mixed device 7" in html and "net-link-down device 5" in html


def test_a_cluster_of_healthy_ports_adds_no_problem():
    agg = Aggregator()
    for name in ("healthy", "healthy_older_driver"):
        agg.add(summarise_report(_net_report(name), name))
    result = agg.result()
    assert result["ports"] == {"settings": [], "down": [], "reachability": None}
    assert not [p for p in result["problems"] if "NPU" in p]
