"""Probe phrases: English facts that remember their message, shown in the report's language (ascend_doctor/phrases.py)."""

import json
import os
import string

import pytest

from ascend_doctor import i18n, phrases
from ascend_doctor.host import CommandResult
from ascend_doctor.i18n_text import Text, localized
from conftest import REPO

TEMPLATES = sorted(v for k, v in vars(phrases).items() if k.isupper() and isinstance(v, str))


@pytest.fixture
def zh():
    i18n.set_lang("zh")
    yield
    i18n.set_lang("en")


def _text(template):
    fields = [f for _, f, _, _ in string.Formatter().parse(template) if f]
    return Text(template, **{f: f"/v{i}/{f}" for i, f in enumerate(dict.fromkeys(fields))})


@pytest.mark.parametrize("template", TEMPLATES)
def test_each_phrase_is_said_in_chinese_with_the_same_values(template, zh):
    text = _text(template)
    said = localized(text)
    assert said != str(text)
    assert all(str(v) in said for v in text.params.values())


def test_a_phrase_inside_a_phrase_is_translated_too(zh):
    text = Text(phrases.BINARY_FILE, path="/usr/local/Ascend/driver/version.info",
                expected=Text(phrases.DRIVER_VERSION_INFO))
    assert str(text) == ("/usr/local/Ascend/driver/version.info: binary or garbled content, expected the driver "
                         "version.info (Version=...)")
    assert localized(text) == "/usr/local/Ascend/driver/version.info：内容为二进制或乱码，应为：驱动的 version.info（Version=...）"


def test_command_results_stay_english_facts(zh):
    timeout = CommandResult(["npu-smi", "info"], None, error="timeout").describe()
    assert timeout == "`npu-smi info` did not finish within its timeout"
    assert localized(timeout) == "`npu-smi info` 在超时时间内没有结束"


def test_a_probe_problem_is_english_in_the_facts_and_chinese_where_shown(zh):
    from ascend_doctor.bundle import open_bundle
    from ascend_doctor.doctor import RunOptions, run_checks

    with open_bundle(os.path.join(REPO, "tests", "fixtures", "garbled_files")) as host:
        report = run_checks(host, RunOptions(timeout=5.0))
    fact = report.facts["driver"]["errors"][0]
    assert fact == ("/usr/local/Ascend/driver/version.info: binary or garbled content, expected the driver "
                    "version.info (Version=...)")
    assert json.loads(json.dumps(report.to_json()))["facts"]["driver"]["errors"] == [fact]
    shown = next(f for f in report.findings if f.id == "install.driver_present").evidence["problems"]
    assert shown == ["/usr/local/Ascend/driver/version.info：内容为二进制或乱码，应为：驱动的 version.info（Version=...）"]


def test_english_is_the_fact_itself():
    text = Text(phrases.EMPTY_FILE, path="/x", expected=Text(phrases.KEY_VALUE_LINES))
    assert localized(text) == text == "/x: empty, expected key=value lines"
