"""The runner: a crashing probe or check is reported, never fatal; the Python API prints nothing."""

import ascend_doctor
from ascend_doctor import probes
from ascend_doctor.checks import CheckSpec, _REGISTRY
from ascend_doctor.doctor import RunOptions, run_checks
from ascend_doctor.findings import ERROR, FAIL, Finding, Report
from ascend_doctor.host import SnapshotHost


def test_probe_crash_becomes_an_error_finding(make_snapshot, monkeypatch):
    real = probes._registry

    def boom(host, options):
        raise ValueError("garbled beyond belief")

    monkeypatch.setattr(probes, "_registry", lambda: real() + [("system", boom)])
    report = run_checks(SnapshotHost(make_snapshot()))
    f = report.find("doctor.probe_system")
    assert f.status == ERROR and "garbled beyond belief" in f.evidence["crash"]
    assert "bug in ascend-doctor" in f.summary and f.crashed


def test_check_crash_is_isolated(make_snapshot, monkeypatch):
    def broken(ctx):
        raise KeyError("nope")

    monkeypatch.setitem(_REGISTRY, "zz.broken", CheckSpec("zz.broken", broken, "Broken check", [], __name__))
    report = run_checks(SnapshotHost(make_snapshot()))
    f = report.find("zz.broken")
    assert f.status == ERROR and "KeyError" in f.summary
    assert any(x.id.startswith("resources.") for x in report.findings)  # the others still ran
    # a crash is told apart from "could not check" (status error from a check that ran without its data)
    assert f.crashed and f.evidence["crashed"] is True and f.title == "Check crashed: Broken check"
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
