"""render/json_report.py: `--format json` is report.to_json(), whole, readable back."""

import json

from tests.helpers.fixture_reports import report_of
from tests.helpers import fixture_path

from ascend_doctor.findings import Report
from ascend_doctor.render.json_report import render


def test_json_is_the_report_and_reads_back_the_same():
    report = report_of(fixture_path("two_cann_installs"))
    data = json.loads(render(report))
    assert data == json.loads(json.dumps(report.to_json()))
    again = Report.from_json(data)
    assert [f.to_json() for f in again.findings] == [f.to_json() for f in report.findings]
    assert again.lang == data["lang"] == "en"
