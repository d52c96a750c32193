"""render/markdown.py: the report as Markdown for a ticket."""

from tests.helpers.fixture_reports import report_of
from tests.helpers import fixture_path

from ascend_doctor.findings import FAIL, PASS, SKIP, WARN
from ascend_doctor.render.markdown import render


def test_markdown_has_the_components_table_counts_and_every_problem_with_its_fix():
    report = report_of(fixture_path("a2_env_not_sourced"))
    md = render(report)
    lines = md.splitlines()
    assert lines[0].startswith("# ascend-doctor report: ")
    assert "| component | found |" in lines
    s = report.summary
    assert f"**{s[FAIL]} fail, {s[WARN]} warn" in md
    for f in report.findings:
        if f.status == SKIP:
            assert f"(`{f.id}`)" not in md  # skipped checks are not listed
            continue
        assert f"(`{f.id}`)" in md
        if f.status != PASS:
            for step in f.fix:
                for part in step.splitlines():
                    assert "    " + part in lines  # inside the fenced block, verbatim
    assert md.count("```") % 2 == 0  # every code fence is closed


def test_markdown_table_cells_escape_pipes_and_newlines():
    from ascend_doctor.render.markdown import _cell

    assert _cell("a|b\nc") == "a\\|b c"
