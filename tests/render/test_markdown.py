"""render/markdown.py: the report as Markdown for a ticket."""

from tests.helpers.fixture_reports import report_of
from tests.helpers import SNAPSHOTS, fixture_path

from ascend_doctor.findings import FAIL, PASS, SKIP, WARN
from ascend_doctor.render.markdown import render
from ascend_doctor.fix_script import is_prose
import pytest


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
                if is_prose(step):  # words: a list item of their own, never inside a code block
                    assert any(l.startswith("    - by hand: " + step.split("   #")[0]) for l in lines), step
                    continue
                for part in step.splitlines():
                    assert "    " + part in lines  # inside the fenced block, verbatim
    assert md.count("```") % 2 == 0  # every code fence is closed


def _fenced(md):
    inside, out = False, []
    for line in md.splitlines():
        if line.strip() == "```":
            inside = not inside
        elif inside:
            out.append(line.strip())
    return out


@pytest.mark.parametrize("name", SNAPSHOTS)
def test_markdown_code_blocks_hold_only_commands_and_code(name):
    """Every line of a fenced block is a command or code a reader can paste; prose steps ('install MindSpore
    2.4.1 from https://...') are list items, in English and in Chinese alike."""
    from ascend_doctor import i18n

    for lang in ("en", "zh"):
        i18n.set_lang(lang)
        try:
            md = render(report_of(fixture_path(name)))
        finally:
            i18n.set_lang("en")
        for line in _fenced(md):
            assert not is_prose(line), (lang, line)
        assert '`["' not in md and "`{\"" not in md  # evidence never as JSON
        lines = md.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("## "):  # a heading always has something under it
                assert any(l.strip() for l in lines[i + 1:i + 3]), (lang, line)


def test_markdown_evidence_lists_are_nested_items_and_placeholders_are_words():
    md = render(report_of(fixture_path("a2_env_not_sourced")))
    assert '`["' not in md  # no JSON array
    assert "  - missing:" in md.splitlines()
    assert "    - ASCEND_HOME_PATH is not set" in md.splitlines()  # a sentence, not a literal in a code span
    assert any(l.startswith("    - PYTHONPATH has no \\<install>/opp") for l in md.splitlines())
    assert "ASCEND_HOME_PATH: (not set)" in md and "`(not set)`" not in md


def test_markdown_names_all_skipped_areas_once_instead_of_empty_sections():
    md = render(report_of(fixture_path("a2_env_not_sourced")))
    lines = md.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("## "):
            assert any(l.strip() for l in lines[i + 1:i + 3]), line  # a heading always has something under it
    assert "Not applicable here (every check skipped" in md


def test_markdown_table_cells_escape_pipes_and_newlines():
    from ascend_doctor.render.markdown import _cell

    assert _cell("a|b\nc") == "a\\|b c"


def test_a_prose_step_ending_in_a_command_shows_the_command_whole_in_a_code_span():
    from ascend_doctor.fix_script import command_tail

    assert command_tail("reinstall the CANN package if they are damaged: ./Ascend-cann-toolkit_8.0.RC3.run --install") \
        == ("reinstall the CANN package if they are damaged:", "./Ascend-cann-toolkit_8.0.RC3.run --install")
    assert command_tail("请重新安装驱动包：./Ascend-hdk-910b-npu-driver.run --full") == \
        ("请重新安装驱动包：", "./Ascend-hdk-910b-npu-driver.run --full")
    assert command_tail("install MindSpore 2.4.1 from https://www.mindspore.cn/versions") is None  # a URL's colon
    assert command_tail("measure step time with and without it: fusion helps most") is None
    # the checks write such a step as the command with its condition in the comment (review 3 R1): pasted whole
    md = render(report_of(fixture_path("garbled_files")))
    assert "    ./Ascend-cann-toolkit_8.0.RC3_linux-aarch64.run --install   # only if they are damaged: reinstalls " \
           "the CANN package" in md.splitlines()


@pytest.mark.parametrize("name", SNAPSHOTS)
def test_chinese_evidence_keeps_prose_and_chinese_marks_out_of_code_spans(name):
    """issue 27 #26/N6: in a Chinese report a code span holds a literal only (a path, a version, a command): no
    Chinese words, no half-width "(" or ", " joining values (the text report writes "3.9.2（/usr/bin/python3）",
    "2.4.1、2.4.0"); the English report keeps its code spans as they were."""
    import re
    from ascend_doctor import i18n

    report = report_of(fixture_path(name))
    en = render(report)
    i18n.set_lang("zh")
    try:
        zh = render(report)
    finally:
        i18n.set_lang("en")
    evidence = [ln for ln in zh.splitlines() if ln.startswith("  - ") and "：" in ln]
    bad = [(ln, span) for ln in evidence for span in re.findall(r"`([^`]+)`", ln)
           if re.search(r"[\u4e00-\u9fff]", span) or re.fullmatch(r"[^()]+ \([^()]+\)", span)
           or re.fullmatch(r"[\w.+-]+(, [\w.+-]+)+", span)]
    assert not bad, bad[:5]
    if name == "a2_env_not_sourced":
        assert "  - Python：`3.9.2`（`/usr/local/python3.9.2/bin/python3`）" in zh
        assert "：`2.4.1`、`2.4.0`" in zh
        assert "`3.9.2 (/usr/local/python3.9.2/bin/python3)`" in en and "`2.4.1, 2.4.0`" in en
