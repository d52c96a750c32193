"""aggregate: nodes that failed one check with different fixes each get their own fix and evidence."""

import json

from ascend_doctor.aggregate import aggregate_paths
from ascend_doctor.render.aggregate_text import render_aggregate_text
from ascend_doctor.render.html_aggregate import render_aggregate_html

from tests.helpers import fixture_path, run_cli
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
    assert "Evidence from node-home" in html
