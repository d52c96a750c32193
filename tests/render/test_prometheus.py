"""render/prometheus.py: node_exporter textfile metrics, one-hot status per check."""

from ascend_doctor.findings import FAIL, Finding, Report, STATUSES, WARN
from ascend_doctor.render import prometheus
from ascend_doctor.render.prometheus import escape_label_value


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
