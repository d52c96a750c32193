"""Probe phrases: English facts made from templates, said again in the report's language (ascend_doctor/phrases.py)."""

import string

import pytest

from ascend_doctor import i18n, phrases
from ascend_doctor.host import CommandResult


@pytest.fixture
def zh():
    i18n.set_lang("zh")
    yield
    i18n.set_lang("en")


def _fields(template):
    return [f for _, f, _, _ in string.Formatter().parse(template) if f]


def _sample(template):
    values = {f: f"/v{i}/{f}" for i, f in enumerate(dict.fromkeys(_fields(template)))}
    return template.format(**values), values


@pytest.mark.parametrize("template", phrases.TEMPLATES)
def test_each_template_is_recognised_with_its_values(template):
    text, values = _sample(template)
    assert phrases.match(text) == (template, values)


@pytest.mark.parametrize("template", phrases.TEMPLATES)
def test_each_template_is_said_in_chinese_with_the_same_values(template, zh):
    text, values = _sample(template)
    said = phrases.reword(text)
    assert said != text
    assert all(v in said for v in values.values())


def test_a_phrase_inside_a_phrase_is_translated_too(zh):
    text = phrases.BINARY_FILE.format(path="/usr/local/Ascend/driver/version.info",
                                      expected=phrases.DRIVER_VERSION_INFO)
    assert phrases.reword(text) == "/usr/local/Ascend/driver/version.info：内容为二进制或乱码，应为：驱动的 version.info（Version=...）"


def test_fixed_phrases_and_command_results(zh):
    assert phrases.reword(phrases.NPU_NO_BANNER) != phrases.NPU_NO_BANNER
    timeout = CommandResult(["npu-smi", "info"], None, error="timeout").describe()
    assert timeout == "`npu-smi info` did not finish within its timeout"  # the fact stays English
    assert phrases.reword(timeout) == "`npu-smi info` 在超时时间内没有结束"


def test_other_text_is_left_as_it_is(zh):
    assert phrases.reword("something a probe did not make from a template") == \
        "something a probe did not make from a template"
    assert phrases.reword(None) is None


def test_english_is_the_fact_itself():
    text = phrases.EMPTY_FILE.format(path="/x", expected=phrases.KEY_VALUE_LINES)
    assert phrases.reword(text) == text == "/x: empty, expected key=value lines"
