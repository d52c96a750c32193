"""Node reports written in English (nodes usually run with LANG=C), shown by `aggregate --lang zh`: their summaries,
fix lines and evidence values are worded again in Chinese where they are recognised as the doctor's own messages
(phrases.reword_stored), and shown as the node wrote them otherwise - never half translated."""

import json
import os
import re

import pytest

from ascend_doctor import i18n, run
from ascend_doctor.phrases import _prose_left, reword_stored
from tests.helpers import FIXTURES, SNAPSHOTS, run_cli

CJK = re.compile(r"[\u4e00-\u9fff]")
CHINESE = re.compile(r"[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]")  # characters or full-width punctuation


@pytest.fixture(scope="module")
def pairs():
    """(English text of a finding, the same text from a Chinese run) for every fixture's summaries and fix lines."""
    out = []
    for name in SNAPSHOTS:
        en = run(os.path.join(FIXTURES, name), lang="en")
        zh = {f.id: f for f in run(os.path.join(FIXTURES, name), lang="zh").findings}
        for f in en.findings:
            z = zh[f.id]
            out.append((f.summary, z.summary))
            if len(f.fix) == len(z.fix):
                out += list(zip(f.fix, z.fix))
    return [(e, z) for e, z in out if e]


@pytest.fixture
def zh():
    i18n.set_lang("zh")
    yield
    i18n.set_lang("en")


def test_english_node_texts_are_worded_in_chinese_or_left_whole(pairs, zh):
    worded = same = 0
    for en, zh_text in pairs:
        got = reword_stored(en)
        if got != en:
            worded += 1
            assert CHINESE.search(got) and not _prose_left(got), (en, got)  # never a mix of the two languages
        same += got == zh_text
    # measured 2026-12-01: 702 of 794 worded, 751 the same as the Chinese run's own words
    assert worded >= 0.85 * len(pairs) and same >= 0.9 * len(pairs), (worded, same, len(pairs))


def test_an_unrecognised_text_is_shown_as_written(zh):
    for text in ("The quick brown fox is missing from the rack", "something else entirely: not a message",
                 "reinstall the driver package if it is missing", "it is missing", "the driver is /opt/x"):
        assert reword_stored(text) == text


def test_an_install_phrase_of_data_alone_is_worded(zh):
    """A short template ("{kind} {release} at {root} (-> {resolved})": 6 literal characters) is taken only when
    every value it captures is data (one token, a path or a version among them)."""
    assert reword_stored("one install: toolkit 8.5.0 at /usr/local/Ascend/ascend-toolkit/latest "
                         "(-> /usr/local/Ascend/ascend-toolkit/8.5.0)") == \
        "只有一个安装：CANN 开发套件包（Toolkit）8.5.0（/usr/local/Ascend/ascend-toolkit/latest -> " \
        "/usr/local/Ascend/ascend-toolkit/8.5.0）"  # the install guide's package name, not 'toolkit'


def test_english_is_never_touched(pairs):
    assert i18n.get_lang() == "en"
    assert all(reword_stored(en) == en for en, _z in pairs[:50])


def test_aggregate_in_chinese_over_english_node_reports(tmp_path):
    d = tmp_path / "r"
    d.mkdir()
    for i, name in enumerate(("a2_healthy", "a2_env_not_sourced", "two_cann_installs")):
        proc = run_cli("check", "--bundle", os.path.join(FIXTURES, name), "--format", "json", "-o", str(d / f"n{i}.json"),
                       "--lang", "en")
        assert proc.returncode in (0, 1), proc.stderr
        assert json.load(open(d / f"n{i}.json"))["lang"] == "en"
    text = run_cli("aggregate", str(d), "--lang", "zh").stdout
    flat = "".join(text.split())  # wrapped at 80 columns: compared without the breaks
    assert "MindSpore找不到CANN的库、算子和编译器" in flat and "set_env.shwasnotsourced" not in flat
    assert "# 让每个新 shell、ssh 会话和拉起的训练进程都生效" in text  # a fix line's comment; its command as written
    assert "echo 'source /usr/local/Ascend/ascend-toolkit/set_env.sh' >> ~/.bashrc" in text
    html = run_cli("aggregate", str(d), "--lang", "zh", "--format", "html").stdout
    assert "MindSpore 找不到 CANN 的库" in html and "set_env.sh was not sourced" not in html
    english = run_cli("aggregate", str(d), "--lang", "en").stdout
    assert "set_env.sh was not sourced" in english and not CJK.search(english)
