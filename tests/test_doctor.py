"""The runner: a crashing probe or check is reported, never fatal; the Python API prints nothing."""

import ascend_doctor
from ascend_doctor import probes
from ascend_doctor.checks import CheckSpec, _REGISTRY
from ascend_doctor.doctor import RunOptions, run_checks
from ascend_doctor.findings import ERROR, FAIL, Finding, Report
from ascend_doctor.host import SnapshotHost
from ascend_doctor.findings import CRASHED_TITLE_PREFIX
from tests.helpers.i18n_asserts import assert_msg


def test_probe_crash_becomes_an_error_finding(make_snapshot, monkeypatch):
    real = probes._registry

    def boom(host, options):
        raise ValueError("garbled beyond belief")

    monkeypatch.setattr(probes, "_registry", lambda: real() + [("system", boom)])
    report = run_checks(SnapshotHost(make_snapshot()))
    f = report.find("doctor.probe_system")
    assert f.status == ERROR and "garbled beyond belief" in f.evidence["crash"] and f.crashed
    assert_msg(f.title, "The {name} probe crashed", name="system")
    assert_msg(f.summary, "This is a bug in ascend-doctor, please report it with this line.")


def test_check_crash_is_isolated(make_snapshot, monkeypatch):
    def broken(ctx):
        raise KeyError("nope")

    monkeypatch.setitem(_REGISTRY, "zz.broken", CheckSpec("zz.broken", broken, "Broken check", [], __name__))
    report = run_checks(SnapshotHost(make_snapshot()))
    f = report.find("zz.broken")
    assert f.status == ERROR and "KeyError" in f.summary
    assert any(x.id.startswith("resources.") for x in report.findings)  # the others still ran
    # a crash is told apart from "could not check" (status error from a check that ran without its data)
    assert f.crashed and f.evidence["crashed"] is True and f.title.startswith(CRASHED_TITLE_PREFIX)
    assert_msg(f.title, "Check crashed: {title}", title="Broken check")
    assert_msg(f.summary, "The check itself crashed ({error}); this is a bug in ascend-doctor.")
    assert Report.from_json(report.to_json()).find("zz.broken").crashed


def test_could_not_check_is_not_a_crash(make_snapshot, monkeypatch):
    def broken(ctx):
        raise KeyError("nope")

    def without_data(ctx):
        return Finding("zz.unknown", ERROR, "Needs data", summary="the version file could not be read")

    monkeypatch.setitem(_REGISTRY, "zz.broken", CheckSpec("zz.broken", broken, "Broken check", [], __name__))
    monkeypatch.setitem(_REGISTRY, "zz.unknown", CheckSpec("zz.unknown", without_data, "Needs data", [], __name__))
    report = run_checks(SnapshotHost(make_snapshot()), RunOptions(only=["zz.*"]))
    crashed, unknown = report.find("zz.broken"), report.find("zz.unknown")
    assert crashed.status == unknown.status == ERROR
    assert crashed.crashed and not unknown.crashed and "crashed" not in unknown.evidence
    assert crashed.title.startswith("Check crashed: ") and unknown.title == "Needs data"


def test_python_api_returns_report_without_printing(make_snapshot, capsys):
    report = ascend_doctor.run(bundle=make_snapshot(), only=["resources"])
    assert isinstance(report, Report)
    assert all(f.id.startswith("resources.") for f in report.findings)
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""
    assert Report.from_json(report.to_json()).summary == report.summary


def test_fail_on_levels():
    r = Report({}, {}, {}, [Finding("a.b", "warn", "t")])
    assert not r.failed("fail") and r.failed("warn")
    r.findings.append(Finding("a.c", FAIL, "t"))
    assert r.failed("fail")


def test_only_accepts_area_names_and_globs(make_snapshot):
    host = SnapshotHost(make_snapshot(machine={"mem_total_mb": 1000, "mem_available_mb": 100}))
    ids = [f.id for f in run_checks(host, RunOptions(only=["resources.host_*"])).findings]
    assert ids == ["resources.host_memory"]


# --- one runner: check, preflight, matrix check and rank-table all judge facts through doctor.evaluate ---

def _broken_spec(check_id):
    def broken(ctx):
        raise KeyError("nope")

    return CheckSpec(check_id, broken, "Broken check", [], __name__)


def test_evaluate_judges_facts_alone_with_selection_and_crash_guard(make_snapshot, monkeypatch):
    from ascend_doctor.doctor import Selection, evaluate
    from ascend_doctor.probes import collect_facts

    monkeypatch.setitem(_REGISTRY, "resources.zz_broken", _broken_spec("resources.zz_broken"))
    facts = collect_facts(SnapshotHost(make_snapshot(machine={"mem_total_mb": 1000, "mem_available_mb": 100})))
    report = evaluate(facts, Selection(only=["resources"], skip=["resources.host_disk*"]),
                      origin={"kind": "snapshot", "name": "n1"})
    ids = [f.id for f in report.findings]
    assert "resources.host_memory" in ids and not any(i.startswith("resources.host_disk") for i in ids)
    assert all(i.startswith("resources.") for i in ids)
    assert report.find("resources.zz_broken").status == ERROR
    assert report.host["kind"] == "snapshot" and report.host["name"] == "n1" and "checked_as" in report.host
    assert report.tool["matrix"] and report.facts == facts.to_json()


def test_selection_names_what_matches_nothing():
    import pytest

    from ascend_doctor.doctor import Selection, SelectionError

    assert Selection(only=["install"]).includes("install.cann_present")
    assert not Selection(only=["install"], skip=["install.cann_*"]).includes("install.cann_present")
    with pytest.raises(SelectionError, match="instal"):
        Selection(only=["instal"]).validate()


def test_matrix_check_runs_its_checks_under_the_crash_guard(monkeypatch, capsys):
    """matrix check used a loop of its own without the guard: a broken compat check was a traceback."""
    import json

    from ascend_doctor.cli import main

    monkeypatch.setitem(_REGISTRY, "compat.zz_broken", _broken_spec("compat.zz_broken"))
    rc = main(["matrix", "check", "--mindspore", "2.6.0", "--cann", "8.2.RC1", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    [broken] = [f for f in data["findings"] if f["id"] == "compat.zz_broken"]
    assert broken["status"] == ERROR and "KeyError" in broken["summary"] and rc in (0, 1)
    assert any(f["id"].startswith("compat.") and f["status"] != ERROR for f in data["findings"])
    assert "checked_as" not in data["host"]  # a planned install is not a host


def test_rank_table_node_checks_run_under_the_crash_guard(make_snapshot, monkeypatch, capsys):
    import json
    import os

    from tests.helpers import FIXTURES
    from ascend_doctor.checks import all_checks
    from ascend_doctor.cli import main

    all_checks()
    spec = _REGISTRY["rank_table.device_ips"]
    monkeypatch.setitem(_REGISTRY, spec.id, _broken_spec(spec.id))
    table = os.path.join(FIXTURES, "rank_tables", "hccl_910_template1_v1.0.json")
    main(["rank-table", table, "--bundle", make_snapshot(), "--format", "json"])
    node = json.loads(capsys.readouterr().out)["node"]
    ids = [f["id"] for f in node["findings"]]
    assert ids == ["rank_table.this_node", "rank_table.device_ips", "rank_table.device_nics"]
    assert node["findings"][1]["status"] == ERROR and "KeyError" in node["findings"][1]["summary"]


def test_json_format_prints_report_to_json_and_renderers_change_nothing(make_snapshot, monkeypatch):
    """Redaction happens when the report is built (evaluate), not in a renderer."""
    import copy
    import json

    from ascend_doctor.render import FORMATS, render

    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    monkeypatch.setenv("MY_SERVICE_TOKEN", token)
    report = run_checks(SnapshotHost(make_snapshot(env={"HCCL_CONNECT_TIMEOUT": "600", "MS_DEV_NOTE": token})),
                        RunOptions(only=["hccl", "resources"]))
    assert token not in json.dumps(report.to_json())  # redacted at build
    before = copy.deepcopy(report.to_json())
    assert json.loads(render(report, "json")) == report.to_json()  # its i18n blocks on one line, the rest indented
    for fmt in FORMATS:
        render(report, fmt)
    assert report.to_json() == before


def test_the_engine_never_imports_the_cli():
    """Only the door (cli.py, __main__.py, commands/) may import cli.py: the engine (doctor, checks, probes, render
    ...) is also the Python API and must not depend on the argument parser or its exit-code handling."""
    import ast
    import os

    pkg = os.path.dirname(ascend_doctor.__file__)
    offenders = []
    for root, _dirs, files in os.walk(pkg):
        package = ["ascend_doctor"] + [p for p in os.path.relpath(root, pkg).split(os.sep) if p != "."]
        if package[1:2] == ["commands"]:
            continue
        for name in files:
            if not name.endswith(".py") or (len(package) == 1 and name in ("cli.py", "__main__.py")):
                continue
            path = os.path.join(root, name)
            for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
                if isinstance(node, ast.ImportFrom):
                    base = package[:len(package) - node.level + 1] if node.level else []
                    module = ".".join(base + ([node.module] if node.module else []))
                    targets = [module] + [f"{module}.{a.name}" for a in node.names]
                elif isinstance(node, ast.Import):
                    targets = [a.name for a in node.names]
                else:
                    continue
                if any(t == "ascend_doctor.cli" or t.startswith("ascend_doctor.cli.") for t in targets):
                    offenders.append(os.path.relpath(path, pkg))
    assert not offenders, f"the engine imports the CLI: {offenders}"


def test_a_selection_names_the_areas_it_can_reach():
    from ascend_doctor.doctor import Selection

    assert Selection().areas() is None and Selection(skip=["compat"]).areas() is None
    assert Selection(only=["compat", "rank_table.this_node", "env.*"]).areas() == ["compat", "env", "rank_table"]
    assert Selection(only=["compat", "*.cann"]).areas() is None  # a glob over the areas: every module
