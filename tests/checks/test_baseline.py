"""checks/baseline.py: drift from a saved baseline report."""

import json
from ascend_doctor.baseline import Baseline
from tests.helpers.cluster_helpers import node_report
from tests.helpers import run_cli


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
    from tests.helpers.i18n_asserts import assert_is_msg, assert_msg, deferred

    finding = deferred(check_baseline_drift, ctx)
    assert finding.status == "warn" and finding.pitfall == "P17"
    change = assert_msg(finding.fix, "MindSpore {version} breaking change: {change}", version="2.3.0-rc1").params["change"]
    assert change.startswith("MindRecord: FileWriter.open_and_set_header removed")  # the release notes' words (data)
    between = assert_msg(finding.fix, "read the breaking changes of every release in between before trusting results: "
                         "{where}; likewise for {others}", others="2.3.0-rc1, 2.3.0-rc2, 2.3.0-rc6, 2.3.0")
    assert_msg(between.params["where"], "see RELEASE.md of release {version}: {repo} {path}, section '{section}' "
               "({headings})", version="2.3.1", repo="mindspore-ai/mindspore", path="RELEASE.md",
               section="MindSpore 2.3.1 Release Notes")
    assert_is_msg(finding.evidence["MindSpore"], "baseline {expected}, here {actual}", expected="2.2.14 (ascend)",
                  actual="2.3.1 (ascend)")


def test_baseline_rejects_non_report(tmp_path):
    bad = tmp_path / "agg.json"
    bad.write_text(json.dumps({"schema": "ascend-doctor.aggregate/1"}))
    proc = run_cli("aggregate", str(tmp_path), "--baseline", str(bad))
    assert proc.returncode == 2 and "expected 'ascend-doctor.report/2'" in proc.stderr
