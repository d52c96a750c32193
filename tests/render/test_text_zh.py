"""The report's frame in Chinese: layout by display width (a Chinese character takes two terminal columns),
wrapping between Chinese characters but never inside a path or a command, aligned columns, and the
language of the Python API, the CLI's errors and the fix script."""

import os
import re
import unicodedata

import pytest

from ascend_doctor import i18n
from ascend_doctor.render.layout import display_width, fit_columns, table, wrap
from tests.helpers import FIXTURES, run_cli
from tests.helpers.fixture_reports import snapshot_dirs
from ascend_doctor.plan import command_part

SNAPSHOTS = snapshot_dirs()
FIX_STEP = re.compile(r"^ {10}\d+\. |^ {2}(?: {2})?\d+\. \[")  # a fix step, or a plan step (its tag, then the command)
# Where a reader may end a line in mixed text (independent of layout.py): whitespace, and between two
# Chinese characters or where Chinese meets a Latin word.
WIDE = r"[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]"
TOKEN = re.compile(WIDE + r"|[^\s" + WIDE[1:-1] + r"]+")


def columns_of(ch):
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def cells(line):
    """The line as terminal cells: a wide character fills two (the second is None)."""
    out = []
    for ch in line:
        out.append(ch)
        if columns_of(ch) == 2:
            out.append(None)
    return out


@pytest.fixture
def zh():
    i18n.set_lang("zh")
    yield
    i18n.set_lang("en")


# ---- display width and wrapping ----

def test_display_width_counts_chinese_as_two_columns():
    assert display_width("NPU 驱动") == 8
    assert display_width("（全角）") == 8
    assert display_width("ascii — ×") == 9  # ambiguous-width punctuation: one column, as len() counted it
    assert display_width("") == 0


def test_wrap_breaks_chinese_between_characters_within_the_width():
    text = ("已安装 CANN 8.0.RC3，但当前 shell 没有设置它的环境变量：没有 source 过 "
            "/usr/local/Ascend/ascend-toolkit/set_env.sh，因此 MindSpore 找不到 CANN 的库、算子和编译器。")
    for width in range(24, 90, 5):
        lines = wrap(text, width, "  ", "    ")
        assert "".join(l.strip() for l in lines).replace(" ", "") == text.replace(" ", "")
        for line in lines:
            assert display_width(line) <= width or "/usr/local/Ascend/ascend-toolkit/set_env.sh" in line, (width, line)
        assert any("/usr/local/Ascend/ascend-toolkit/set_env.sh" in l for l in lines)  # never split a path
        assert all(not l.strip().startswith(("，", "。", "：", "、", "）")) for l in lines)
        assert not any(l.rstrip().endswith("（") for l in lines)


def test_wrap_keeps_latin_words_and_commands_whole_in_chinese_text():
    text = "请运行 npu-smi info 查看设备，然后运行 ascend-doctor check --only devices 再检查一次。"
    for width in range(12, 60):
        words = {w for l in wrap(text, width) for w in re.findall(r"[A-Za-z][A-Za-z-]*", l)}
        assert words <= {"npu-smi", "info", "ascend-doctor", "check", "only", "devices"}, (width, words)


def test_wrap_of_english_is_unchanged():
    text = "see /usr/local/Ascend/ascend-toolkit/latest/opp and run npu-smi info -t board -i 0 then reboot"
    assert wrap(text, 30, "  ", "    ") == ["  see", "    /usr/local/Ascend/ascend-toolkit/latest/opp",
                                             "    and run npu-smi info -t", "    board -i 0 then reboot"]


def test_kb_and_explain_use_the_one_display_width():
    from ascend_doctor.render import kb_text

    assert kb_text.width is display_width
    assert kb_text.wrap_lines("中" * 100, "  ") == ["  " + "中" * 39, "  " + "中" * 39, "  " + "中" * 22]


# ---- tables ----

def _column_starts(rule):
    return [m.start() for m in re.finditer(r"-+", rule)]


def _assert_aligned(text):
    lines = text.splitlines()
    rule = next(i for i, l in enumerate(lines) if re.fullmatch(r"[- ]+", l) and "-" in l)
    starts = _column_starts(lines[rule])
    for line in lines:
        grid = cells(line)
        for s in starts[1:]:
            if s < len(grid):
                # a column starts right after the gap: the cell before it is blank, never half a character
                assert grid[s] is not None and grid[s - 1] == " ", (line, s)


def test_table_aligns_chinese_cells_by_display_width():
    head, *body = fit_columns(["版本", "关系", "来源"],
                              [["8.0.RC3", "配套（官方）", "[1]"], ["24.1.rc3", "已验证可用", "[2] [3]"],
                               ["8.1.RC1", "paired", "[4]"]], 80)
    text = table(head, body)
    _assert_aligned(text)
    widths = {display_width(l) for l in text.splitlines()[1:2]}
    assert widths == {len(text.splitlines()[1])}


def test_table_equals_tabulate_for_english():
    from tabulate import tabulate

    rows = [["8.1.RC1", "7.7", "yes", "MindSpore release list (high); checker accepts 7.7", "[1] [2]"],
            ["8.0.0", "", "NO", "checker", "[3]"]]
    head, *body = fit_columns(["CANN", "compiler", "accepted", "named by", "source"], rows, 50)
    assert table(head, body) == tabulate(body, headers=head, tablefmt="simple", disable_numparse=True)


def test_matrix_show_in_chinese_lines_up(tmp_path):
    env = {"COLUMNS": "80", "XDG_CACHE_HOME": str(tmp_path)}
    out = run_cli("matrix", "show", "--mindspore", "2.6.0", "--lang", "zh", env=env).stdout
    assert "是否接受" in out and "来源：" in out
    for block in out.split("\n\n"):
        if re.search(r"^-+(  -+)+$", block, re.M):
            _assert_aligned(block)
    for line in out.splitlines():
        assert display_width(line) <= 80 or _unbreakable(line, 80), line


def _unbreakable(line, width):
    """Over the width only because one word (a path, a command, a URL) does not fit after the indent and a
    short label."""
    longest = max(display_width(t) for t in TOKEN.findall(line))
    indent = len(line) - len(line.lstrip())
    return longest > width - indent - 24


# ---- the zh text report at 80 columns ----

def _zh_text(path, columns=80):
    return run_cli("check", "--bundle", path, "--lang", "zh", env={"COLUMNS": str(columns)}).stdout


@pytest.mark.parametrize("path", SNAPSHOTS, ids=[os.path.basename(p) for p in SNAPSHOTS])
def test_zh_text_report_fits_80_columns_and_aligns(path):
    text = _zh_text(path)
    lines = text.splitlines()
    assert lines[0].startswith("ascend-doctor ") and "——" in lines[0]
    header = lines[2:lines.index("", 2)]
    # the header's values start in one column (measured in terminal cells, not characters)
    starts = {len(cells(re.match(r"  (.+?)  +", row).group(0))) for row in header}
    assert len(starts) == 1, header
    for line in lines:
        if line.startswith("["):
            # every status tag is 7 columns wide, the title starts at column 9
            assert cells(line)[6] == "]" and cells(line)[7] == " ", line
        if display_width(line) <= 80 or FIX_STEP.match(line) or line in header:
            continue  # a fix step is a command to paste whole; a header row is one fact, grepped whole
        assert _unbreakable(line, 80), f"line of {display_width(line)} columns that could wrap: {line!r}"


@pytest.mark.parametrize("path", SNAPSHOTS[:4], ids=[os.path.basename(p) for p in SNAPSHOTS[:4]])
def test_zh_and_en_reports_show_the_same_findings(path):
    en = run_cli("check", "--bundle", path, env={"COLUMNS": "80"}).stdout
    zh_text = _zh_text(path)
    shown = re.compile(r"[(（]([a-z_]+\.[a-z0-9_]+)[)）]")  # "title  (id)" / "标题（id）"
    assert shown.findall(en) == shown.findall(zh_text.replace("\n        ", ""))
    assert en.count("\n[") == zh_text.count("\n[")  # one status line per finding shown, in both languages


def test_zh_markdown_keeps_ids_and_commands():
    path = os.path.join(FIXTURES, "a2_env_not_sourced")
    md = run_cli("check", "--bundle", path, "--format", "markdown", "--lang", "zh").stdout
    assert md.startswith("# ascend-doctor 报告：") and "| 组件 | 检测结果 |" in md
    assert "(`install.cann_env_sourced`)" in md.replace("（", "(").replace("）", ")")
    assert "source /usr/local/Ascend/ascend-toolkit/set_env.sh" in md
    assert "**失败**" in md and "修复步骤：" in md


# ---- the language of other outputs ----

def test_junit_and_prometheus_help_in_chinese():
    path = os.path.join(FIXTURES, "a2_env_not_sourced")
    junit = run_cli("check", "--bundle", path, "--format", "junit", "--lang", "zh").stdout
    assert "修复步骤：" in junit and 'name="install.cann_env_sourced"' in junit
    prom = run_cli("check", "--bundle", path, "--format", "prom", "--lang", "zh").stdout
    helps = [l for l in prom.splitlines() if l.startswith("# HELP ")]
    assert helps and all(re.search(r"[\u4e00-\u9fff]", l) for l in helps)
    assert 'ascend_doctor_check_status{check="install.cann_env_sourced",status="fail"} 1' in prom


def test_python_api_takes_lang_and_restores_the_previous_one():
    import ascend_doctor

    path = os.path.join(FIXTURES, "a2_env_not_sourced")
    i18n.set_lang("en")
    report = ascend_doctor.run(bundle=path, lang="zh")
    assert report.lang == "zh" and i18n.get_lang() == "en"
    assert report.to_json()["lang"] == "zh"
    i18n.set_lang("zh")
    try:
        assert ascend_doctor.run(bundle=path, only=["install"]).lang == "en"  # default en, whatever was set
        assert i18n.get_lang() == "zh"
    finally:
        i18n.set_lang("en")


def test_cli_errors_in_chinese_are_one_line_exit_2():
    proc = run_cli("check", "--timeout", "0", "--lang", "zh")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert proc.stderr.startswith("ascend-doctor: 错误：--timeout 必须是正的秒数")
    proc = run_cli("check", "--format", "yaml", "--lang", "zh")  # argparse's own message
    assert proc.returncode == 2 and "无效的取值" in proc.stderr and "--format" in proc.stderr
    proc = run_cli("check", "--format", "yaml", env={"ASCEND_DOCTOR_LANG": "zh"})
    assert "无效的取值" in proc.stderr
    proc = run_cli("check", "--format", "yaml")
    assert "invalid choice" in proc.stderr and proc.stderr.startswith("ascend-doctor check: error: ")


def test_crash_is_told_by_evidence_not_by_title(zh, monkeypatch):
    from ascend_doctor import doctor
    from ascend_doctor.checks import _REGISTRY, CheckSpec
    from ascend_doctor.facts import Facts

    def broken(ctx):
        raise KeyError("nope")

    monkeypatch.setitem(_REGISTRY, "zz.broken", CheckSpec("zz.broken", broken, "Broken check", [], __name__))
    report = doctor.evaluate(Facts(), doctor.Selection(only=["zz.*"])).worded()  # as shown, in zh
    f = report.find("zz.broken")
    assert f.crashed and f.status == "error" and f.title == "检查自身崩溃：Broken check"
    assert "ascend-doctor 的缺陷" in f.summary and "KeyError" in f.summary


def test_fix_script_in_chinese_keeps_its_commands(zh):
    from ascend_doctor.bundle import open_bundle
    from ascend_doctor.doctor import RunOptions, run_checks
    from ascend_doctor.fix_script import active_lines, script_for

    with open_bundle(os.path.join(FIXTURES, "a2_env_not_sourced")) as host:
        report = run_checks(host, RunOptions(timeout=5.0))
    text = script_for(report, "2026-12-01 10:00 UTC")
    i18n.set_lang("en")
    english = script_for(report, "2026-12-01 10:00 UTC")
    assert [command_part(l) for l in active_lines(text)] == [command_part(l) for l in active_lines(english)]
    assert active_lines(text) != active_lines(english)  # the comments are worded in each language
    assert "# 报告结论：" in text and "set -euo pipefail" in text
    assert all(l.startswith("#") or l in active_lines(text) or not l.strip() for l in text.splitlines())
