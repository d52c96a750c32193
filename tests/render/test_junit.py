"""render/junit.py: one <testcase> per finding, statuses mapped as CI systems expect."""

import xml.etree.ElementTree as ET

from tests.helpers.fixture_reports import report_of
from tests.helpers import fixture_path

from ascend_doctor.findings import ERROR, FAIL, Finding, Report, SKIP, WARN
from ascend_doctor.render import junit
from ascend_doctor.findings import Finding, Report
from ascend_doctor.render import render
from tests.helpers import fixture_path
from tests.commands.test_preflight import sample_report  # noqa: F401


def test_each_status_maps_to_its_junit_element():
    report = Report(tool={"duration_ms": 1500}, host={"name": "n1"}, facts={}, findings=[
        Finding("a.fail", FAIL, "broken", summary="it broke", fix=["do x"]),
        Finding("a.error", ERROR, "unknown", summary="could not read"),
        Finding("a.skip", SKIP, "n/a", summary=""),
        Finding("a.warn", WARN, "hmm", summary="careful", evidence={"k": "v"}),
        Finding("a.pass", "pass", "fine"),
    ])
    root = ET.fromstring(junit.render(report).split("\n", 1)[1])
    suite = root.find("testsuite")
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("5", "1", "1", "1")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert cases["a.fail"].find("failure").get("message") == "broken: it broke"
    assert "do x" in cases["a.fail"].find("failure").text
    assert cases["a.error"].find("error") is not None
    assert cases["a.skip"].find("skipped") is not None
    assert "evidence k: v" in cases["a.warn"].find("system-out").text
    assert list(cases["a.pass"]) == []
    assert suite.get("time") == "1.500"


def test_control_characters_from_command_output_do_not_break_the_xml():
    report = Report(tool={}, host={"name": "n"}, facts={}, findings=[
        Finding("a.fail", FAIL, "t", summary="bad \x1b[31mcolour\x00")])
    ET.fromstring(junit.render(report).split("\n", 1)[1])  # parses


def test_a_fixture_report_is_valid_junit():
    root = ET.fromstring(junit.render(report_of(fixture_path("a2_healthy"))).split("\n", 1)[1])
    assert int(root.get("tests")) == len(root.find("testsuite").findall("testcase")) > 0


def test_junit_output_maps_statuses_for_ci():
    root = ET.fromstring(render(sample_report(), "junit"))
    suite = root.find("testsuite")
    assert suite.get("name") == "ascend-doctor node-3-rank3"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("skipped")) == ("5", "1", "1", "1")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    failure = cases["devices.npu_health"].find("failure")
    assert 'NPU 3 is "Warning"' in failure.get("message") and "npu-smi info -t health -i 3" in failure.text
    assert cases['odd.id"with\\quote'].find("error") is not None
    assert cases["gpu.cuda"].find("skipped") is not None
    assert "WARN" in cases["hccl.connect_timeout"].find("system-out").text
    assert list(cases["install.cann"]) == []
