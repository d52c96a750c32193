"""render/prometheus.py: node_exporter textfile metrics, one-hot status per check."""

from ascend_doctor.findings import FAIL, Finding, Report, STATUSES, WARN
from ascend_doctor.render import prometheus
from ascend_doctor.render.prometheus import escape_label_value
import re
import pytest
from ascend_doctor.findings import Finding, Report
from ascend_doctor.render import render
from tests.commands.test_preflight import sample_report  # noqa: F401


def _report(*findings):
    return Report(tool={"duration_ms": 250, "finished_unix": 1700000000}, host={"name": "n"}, facts={},
                  findings=list(findings))


def test_a_check_reported_twice_keeps_its_worst_status_one_hot():
    text = prometheus.render(_report(Finding("hccl.values", WARN, "t"), Finding("hccl.values", FAIL, "t")))
    series = [l for l in text.splitlines() if l.startswith('ascend_doctor_check_status{check="hccl.values"')]
    assert len(series) == len(STATUSES)
    assert [l for l in series if l.endswith(" 1")] == ['ascend_doctor_check_status{check="hccl.values",status="fail"} 1']
    assert "ascend_doctor_healthy 0" in text


def test_every_metric_has_help_and_type_and_times_are_seconds():
    text = prometheus.render(_report())
    names = {l.split()[2] for l in text.splitlines() if l.startswith("# HELP")}
    assert names == {l.split()[2] for l in text.splitlines() if l.startswith("# TYPE")}
    assert "ascend_doctor_run_duration_seconds 0.250" in text
    assert "ascend_doctor_last_run_timestamp_seconds 1700000000.000" in text
    assert "ascend_doctor_healthy 1" in text


def test_label_values_are_escaped():
    assert escape_label_value('a"b\\c\nd') == 'a\\"b\\\\c\\nd'


def test_prometheus_output_parses_and_is_one_hot_per_check():
    text = render(sample_report(), "prom")
    line_re = re.compile(r'^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*|[a-zA-Z_:][a-zA-Z0-9_:]*'
                         r'(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*",?)*\})? -?[0-9.e+]+)$')
    for line in text.splitlines():
        assert line_re.match(line), line
    parser = pytest.importorskip("prometheus_client.parser")
    families = {f.name: f for f in parser.text_string_to_metric_families(text)}
    status = [(s.labels["check"], s.labels["status"], s.value) for s in families["ascend_doctor_check_status"].samples]
    current = {c: st for c, st, v in status if v == 1}
    assert current == {"devices.npu_health": "fail", "install.cann": "pass", "hccl.connect_timeout": "warn",
                       "gpu.cuda": "skip", 'odd.id"with\\quote': "error"}
    assert len(status) == 5 * 5
    assert families["ascend_doctor_healthy"].samples[0].value == 0
    assert families["ascend_doctor_last_run_timestamp_seconds"].samples[0].value == 1700000000.5
    assert {s.labels["status"]: s.value for s in families["ascend_doctor_findings"].samples}["fail"] == 1
