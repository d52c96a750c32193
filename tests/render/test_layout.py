"""render/layout.py: wrapping, widths, evidence lines."""

from ascend_doctor.render.layout import evidence_lines, terminal_width, wrap


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
