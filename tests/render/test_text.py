"""The text report: wrapped to the terminal width, never inside a path or a command, evidence as key: value."""

import json
import os
import re

import pytest

from tests.helpers import FIXTURES, SNAPSHOTS, run_cli

# Where a line may end: whitespace, and after the ':' of a path list (PATH=/a:/b).
BREAKS = re.compile(r"\s+|(?<=:)(?=/)")
FIX_STEP = re.compile(r"^ {10}\d+\. |^ {2}(?: {2})?\d+\. \[")  # a fix step, or a plan step (its tag, then the command)


def _scalars(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _scalars(v)
    elif isinstance(value, list):
        for v in value:
            yield from _scalars(v)
    elif value is not None and not isinstance(value, bool):
        yield str(value)


def _words_with_path_or_dash(report):
    """Every word of a problem's summary or evidence that a bad wrap could split (has '/' or '-')."""
    words = set()
    for f in report["findings"]:
        if f["status"] not in ("fail", "warn", "error"):
            continue  # a pass shows its summary only when short
        for text in [f["summary"], *_scalars(f["evidence"])]:
            for word in BREAKS.split(text):
                word = word.strip(".,;()'\"")
                if ("/" in word or "-" in word) and len(word) > 1:
                    words.add(word)
    return words


@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("snapshot", SNAPSHOTS)
def test_text_report_layout(snapshot, columns):
    path = os.path.join(FIXTURES, snapshot)
    env = {"COLUMNS": str(columns)}
    text = run_cli("check", "--bundle", path, env=env).stdout
    report = json.loads(run_cli("check", "--bundle", path, "--format", "json", env=env).stdout)
    assert text.startswith("ascend-doctor"), text[:300]
    lines = text.splitlines()
    header_rows = set(lines[2:lines.index("", 2)])  # the facts table: one row per fact, kept whole for grep
    for line in lines:
        if len(line) <= columns or FIX_STEP.match(line):  # a command is never wrapped: it must paste whole
            continue
        if line in header_rows:
            continue
        longest = max(len(w) for w in BREAKS.split(line.strip()))
        indent = len(line) - len(line.lstrip())
        # over the width only when one word alone does not fit after the indent (and a short label)
        assert longest > columns - indent - 24, f"line of {len(line)} > {columns} that could wrap: {line!r}"
    for word in _words_with_path_or_dash(report):
        assert any(word in line for line in lines), f"{word!r} was split across lines"
    in_evidence = False
    for line in lines:
        if line.strip() == "evidence:":
            in_evidence = True
            continue
        if in_evidence and (line.strip() in ("fix:",) or not line.startswith(" " * 10)):
            in_evidence = False
        if in_evidence:
            for mark in ('{"', '["', "{'", "['", '": ', "None", "True", "False"):
                assert mark not in line, f"JSON or a Python repr in evidence: {line!r}"


def test_advice_that_applies_is_a_tip_to_try_not_ok_with_a_fix():
    text = run_cli("check", "--bundle", os.path.join(FIXTURES, "a2_healthy"), "--only", "advice",
                   env={"COLUMNS": "120"}).stdout
    lines = text.splitlines()
    tip = next(i for i, l in enumerate(lines) if "(advice.graph_kernel)" in l)
    assert lines[tip].startswith("[  tip]")
    assert "        to try:" in lines[tip:tip + 12] and "        fix:" not in lines[tip:tip + 12]
    # no MindSpore here: the advice is for the release the report recommends (2.4.1, 2.3+), not 1.x-2.2
    assert "MindSpore 1.x-2.2" not in text and '"jit_level": "O1"' in text
