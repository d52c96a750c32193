"""render/aggregate_text.py: the cluster verdict as text."""

import os
import re
import pytest
from tests.helpers import FIXTURES, run_cli
from tests.helpers import run_cli
from tests.test_aggregate import HOME_FIX, ROOT_FIX, _reports, _section  # noqa: F401


@pytest.mark.parametrize("columns", [80, 100])
def test_aggregate_and_triage_text_fit_the_width(tmp_path, columns):
    """aggregate and triage text follow the terminal width like check; commands to paste (aggregate's fix lines)
    and quoted log lines stay whole, and a wrapped line breaks only at a space."""
    reports = tmp_path / "r"
    for name in ("a2_env_not_sourced", "nonroot_home_install", "two_cann_installs"):
        run_cli("preflight", "--bundle", os.path.join(FIXTURES, name), "--report-dir", str(reports))
    env = {"COLUMNS": str(columns)}
    agg = run_cli("aggregate", str(reports), env=env).stdout
    assert "install.cann_env_sourced" in agg
    for line in agg.splitlines():
        assert len(line) <= columns or line.lstrip().startswith("fix: ") or " " not in line.strip(), line
    log = tmp_path / "train.log"
    log.write_text("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; "
                   "57.31 GiB already allocated)\n")
    tri = run_cli("triage", str(log), env=env).stdout
    assert "TORCH_NPU_OOM" in tri
    for line in tri.splitlines():
        quoted = re.match(r"^\s*(?:> |\S+:\d+: )", line)
        assert len(line) <= columns or quoted or " " not in line.strip(), line


def test_text_shows_each_nodes_fix_beside_its_name(tmp_path):
    text = run_cli("aggregate", _reports(tmp_path)).stdout
    home = _section(text, "fail on 1 node (node-home)", "fix:")
    assert "/home/alice/Ascend" in home  # the node's own evidence and summary
    lines = text.splitlines()
    at = {i for i, l in enumerate(lines) if "(node-home)" in l and "fail on 1 node" in l}
    (i,) = at
    group = "\n".join(lines[i:i + 40]).split("fail on 1 node (node-root)")[0]
    assert f"fix: {HOME_FIX}" in group and ROOT_FIX not in group
    assert f"fix: {ROOT_FIX}" in text


def test_the_head_counts_only_the_reports_it_could_read(tmp_path):
    """Four good reports and five torn ones: "9 node reports" counted the torn files as reports."""
    from ascend_doctor.render.aggregate_text import render_aggregate_text

    good = [{"name": f"node-{i}"} for i in range(4)]
    torn = [{"source": f"/r/torn-{i}.json", "error": "not JSON"} for i in range(5)]
    result = {"nodes_total": 9, "unreadable": torn, "verdict": "problems", "problems": ["5 report(s) unreadable"],
              "coverage": {}, "skew": [], "rank_table": None, "nodes": good, "nodes_failing": [], "checks": []}
    head = render_aggregate_text(result).splitlines()[0]
    assert head == "ascend-doctor aggregate: PROBLEMS — 4 node reports read, 5 unreadable"
    result.update(nodes_total=4, unreadable=[], problems=[], verdict="ok")
    assert render_aggregate_text(result).splitlines()[0] == "ascend-doctor aggregate: OK — 4 node reports"
