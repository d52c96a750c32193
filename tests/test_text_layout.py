"""The text report: wrapped to the terminal width, never inside a path or a command, evidence as key: value."""

import json
import os
import re

import pytest

from ascend_doctor.render.layout import evidence_lines, terminal_width, wrap

from conftest import FIXTURES, run_cli

SNAPSHOTS = sorted(n for n in os.listdir(FIXTURES) if os.path.isfile(os.path.join(FIXTURES, n, "manifest.json")))
# Where a line may end: whitespace, and after the ':' of a path list (PATH=/a:/b).
BREAKS = re.compile(r"\s+|(?<=:)(?=/)")
FIX_STEP = re.compile(r"^ {10}\d+\. ")


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


def test_wrap_never_breaks_at_hyphen_or_slash():
    text = "see /usr/local/Ascend/ascend-toolkit/latest/opp/built-in/op_impl and run npu-smi info -t board -i 0"
    for width in range(20, 90, 7):
        lines = wrap(text, width)
        assert " ".join(l.strip() for l in lines) == text
        assert any("/usr/local/Ascend/ascend-toolkit/latest/opp/built-in/op_impl" in l for l in lines)


def test_path_lists_break_after_their_colons():
    lines = wrap("PATH: /usr/local/bin:/usr/bin:/bin", 21, "", "  ")
    assert lines == ["PATH: /usr/local/bin:", "  /usr/bin:/bin"]


def test_evidence_is_flattened_readably():
    got = evidence_lines({"version": "8.0.0", "ok": True, "missing": None, "paths": ["/a", "/b"],
                          "by variable": {"PATH": "/x", "nested": {"k": 1}},
                          "installs": [{"kind": "toolkit", "root": "/r"}, {"kind": "nnae", "root": "/n"}], "empty": []})
    assert got == [(0, "version: 8.0.0"), (0, "ok: yes"), (0, "missing: none"), (0, "paths: /a, /b"),
                   (0, "by variable:"), (1, "PATH: /x"), (1, "nested:"), (2, "k: 1"),
                   (0, "installs:"), (1, "- kind: toolkit"), (2, "root: /r"), (1, "- kind: nnae"), (2, "root: /n"),
                   (0, "empty: none")]


def test_terminal_width_follows_columns_else_80(monkeypatch):
    monkeypatch.setenv("COLUMNS", "132")
    assert terminal_width() == 132
    monkeypatch.setenv("COLUMNS", "nonsense")
    import io

    assert terminal_width(io.StringIO()) == 80  # not a terminal, no usable COLUMNS
    monkeypatch.delenv("COLUMNS")
    assert terminal_width(io.StringIO()) == 80


@pytest.mark.parametrize("columns", [80, 100])
def test_aggregate_and_triage_text_fit_the_width(tmp_path, columns):
    """aggregate and triage text follow the terminal width like check; commands to paste (aggregate's fix lines)
    and quoted log lines stay whole, and a wrapped line breaks only at a space."""
    reports = tmp_path / "r"
    for name in ("a2_env_not_sourced", "nonroot_home_install", "two_cann_installs"):
        run_cli("preflight", "--bundle", os.path.join(FIXTURES, name), "--report-dir", str(reports))
    env = {"COLUMNS": str(columns)}
    agg = run_cli("aggregate", str(reports), env=env).stdout
    assert "install.cann_env_sourced" in agg
    for line in agg.splitlines():
        assert len(line) <= columns or line.lstrip().startswith("fix: ") or " " not in line.strip(), line
    log = tmp_path / "train.log"
    log.write_text("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; "
                   "57.31 GiB already allocated)\n")
    tri = run_cli("triage", str(log), env=env).stdout
    assert "TORCH_NPU_OOM" in tri
    for line in tri.splitlines():
        quoted = re.match(r"^\s*(?:> |\S+:\d+: )", line)
        assert len(line) <= columns or quoted or " " not in line.strip(), line


def test_html_evidence_is_never_a_python_repr(tmp_path):
    reports = tmp_path / "r"
    run_cli("preflight", "--bundle", os.path.join(FIXTURES, "two_cann_installs"), "--report-dir", str(reports))
    out = tmp_path / "a.html"
    run_cli("aggregate", str(reports), "--format", "html", "-o", str(out))
    html = out.read_text()
    assert "other_cann_installs" in html
    assert "[&#x27;" not in html and "{&#x27;" not in html and "['" not in html  # no list or dict repr
