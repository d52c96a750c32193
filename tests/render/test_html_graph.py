"""The wait graph and the timeline of the triage page: what they draw, what they leave out and say so."""

import re

from ascend_doctor.render import html_graph
from ascend_doctor.render.html_graph import parse_time, split_device, timeline_svg, wait_graph_svg


def _drawn(svg):
    return re.findall(r"<g class='dev' data-device='([^']*)'", svg)


def test_device_names_split_into_node_and_device():
    assert split_device("worker-1 device-3") == ("worker-1", "device-3")
    assert split_device("10.0.0.1%eth0_60000_0 rank-5") == ("10.0.0.1%eth0_60000_0", "rank-5")
    assert split_device("192.168.9.9") == (None, "192.168.9.9")


def test_log_times_parse_with_and_without_fractions():
    a = parse_time("2024-05-01 10:00:30.000605")
    assert a is not None and abs(parse_time("2024-05-01 10:00:31") - a - 0.999395) < 1e-6
    assert parse_time("2024-05-01-10:00:30.5") - parse_time("2024-05-01 10:00:30") == 0.5
    assert parse_time(None) is None and parse_time("yesterday") is None and parse_time("2024-13-40 99:00:00") is None


def test_chain_across_nodes_root_highlighted_and_steps_numbered():
    chain = ["worker-0 device-0", "worker-1 device-1", "192.168.9.9"]
    svg, notes = wait_graph_svg(chain, ["worker-1 device-1"], {"worker-0 device-0": True, "worker-1 device-1": True,
                                                              "worker-1 device-0": True})
    assert set(_drawn(svg)) == {"worker-0 device-0", "worker-1 device-1", "worker-1 device-0", "192.168.9.9"}
    root = re.search(r"data-device='worker-1 device-1'>(.*?)</g>", svg).group(1)
    assert "class='d root'" in root and "★ root" in root  # a word and a symbol, not only a colour
    ip = re.search(r"data-device='192.168.9.9'>(.*?)</g>", svg).group(1)
    assert "nolog" in ip and "no log" in ip
    assert re.findall(r"data-node='([^']*)'", svg) == ["worker-0", "worker-1", "not in these logs"]
    assert svg.count("class='edge'") == 2 and ">1</text>" in svg and ">2</text>" in svg
    assert "<desc id='wg-desc'>worker-0 device-0 → worker-1 device-1 → 192.168.9.9</desc>" in svg
    assert notes == []


def test_a_cycle_says_so():
    chain = ["w device-2", "w device-0", "w device-1", "w device-2"]
    svg, notes = wait_graph_svg(chain, [], {d: True for d in chain})
    assert svg.count("class='edge'") == 3
    assert notes[0] == "The arrows close a cycle: the devices wait on each other."


def test_a_large_cluster_collapses_to_the_chain_plus_counts():
    errors = {f"node-{n:04d} device-{d}": True for n in range(1024) for d in range(8)}
    chain = ["node-0003 device-1", "node-0500 device-7", "node-0500 device-2", "node-0999 device-0"]
    svg, notes = wait_graph_svg(chain, ["node-0999 device-0"], errors, total_devices=8200)
    assert _drawn(svg) == sorted(chain[:1]) + sorted(chain[1:3]) + chain[3:]
    assert "+ 7 more" in svg and "+ 6 more" in svg and "(7 with errors)" in svg
    assert any("1021 other node(s) with 8168 device(s) (8168 logged an error)" in n for n in notes)
    assert "Devices that logged no error, not drawn: 8." in notes
    assert len(svg) < 20000


def test_a_long_chain_keeps_both_ends_and_counts_the_middle():
    chain = [f"node-{n:03d} device-0" for n in range(100)]
    svg, _notes = wait_graph_svg(chain, [chain[-1]], {d: True for d in chain})
    drawn = _drawn(svg)
    half = html_graph.CHAIN_DRAWN_MAX // 2
    assert drawn[:half] == chain[:half] and drawn[-half:] == chain[-half:]
    assert f"{100 - 2 * half} more devices on the chain" in svg
    assert svg.count("class='edge'") == 2 * half - 2 + 2  # both halves' own steps, into and out of the gap


def test_timeline_marks_first_last_root_and_missing_rows():
    rows = [{"name": "a device-0", "first": "2024-05-01 10:00:30.000", "last": "2024-05-01 10:01:00.000", "root": True},
            {"name": "a device-1", "first": "2024-05-01 10:01:00.500", "last": "2024-05-01 10:01:00.500"},
            {"name": "192.168.9.9", "first": None, "last": None, "missing": "no log of this device here"}]
    svg = timeline_svg(rows, "2024-05-01 10:00:30.000", "root's first error", [])
    assert re.findall(r"<g class='row' data-device='([^']*)'", svg) == ["a device-0", "a device-1", "192.168.9.9"]
    assert svg.count("<circle class='f'") == 2 and svg.count("<rect class='l'") == 1  # no span when first == last
    assert "★ a device-0" in svg and "no log of this device here" in svg and "class='rm'" in svg
    assert ">10:00:30<" in svg or ">10:00:2" in svg  # ticks in time of day


def test_timeline_histogram_counts_every_device():
    base = parse_time("2024-05-01 10:00:00")
    svg = timeline_svg([{"name": "x device-0", "first": "2024-05-01 10:00:00", "last": None}], None, "",
                       [base + i for i in range(100)])
    assert "all 100 devices: first errors" in svg
    assert sum(int(c) for c in re.findall(r"<rect class='h'[^>]*><title>(\d+)</title>", svg)) == 100


def test_timeline_without_any_time_is_not_drawn():
    assert timeline_svg([{"name": "x", "first": None, "last": None, "missing": "no log"}], None, "") == ""
