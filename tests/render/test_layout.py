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


def test_a_chinese_table_header_is_never_cut():
    """`matrix show --lang zh` printed "接受 / 的编 / 译器" as three header lines (issue 27)."""
    from ascend_doctor.render.layout import fit_columns

    rows = fit_columns(["版本", "兼容编译器", "说明"], [["2.7.1", "7.8", "很长的说明文字" * 6]], 40)
    assert rows[0] == ["版本", "兼容编译器", "说明"]


def test_wrap_keeps_urls_options_and_backticked_commands_whole():
    from ascend_doctor.render.layout import wrap

    url = "https://www.mindspore.cn/docs/zh-CN/r2.5.0/api_python/runtime/mindspore.runtime.set_memory.html"
    for text in (f"见 {url} 的说明", f"运行 `msrun --worker_num=8 --local_worker_num=8 --node_rank=0` 启动",
                 "use `export HCCL_EXEC_TIMEOUT=1800` before the job starts, then --node_rank 1"):
        lines = wrap(text, 30)
        joined = "\n".join(lines)
        for token in (url, "`msrun --worker_num=8 --local_worker_num=8 --node_rank=0`",
                      "`export HCCL_EXEC_TIMEOUT=1800`", "--node_rank"):
            assert token not in text or token in joined, (token, lines)


def test_wrap_never_cuts_a_term_the_vendor_writes_fused():
    """"静态图模式（Graph模 / 式）" left "Graph模" on a line: a term written fused (Host侧, Graph模式) is one token."""
    from ascend_doctor.render.layout import wrap

    text = "用它做生产训练比静态图模式（Graph模式）慢约 40%，在 Host侧和 Device侧都一样。"
    for width in range(12, 48):
        joined = "\n".join(wrap(text, width))
        for term in ("Graph模式", "Host侧", "Device侧"):
            assert term in joined, (width, joined)
        assert "".join(joined.split()) == "".join(text.split())  # nothing lost but the spaces a line ends at


def test_sentences_in_a_list_are_not_glued_with_a_comma():
    """Notes that each end with a full stop read as sentences: never '。，' in Chinese or '., ' in English."""
    from ascend_doctor.render.layout import join_values

    assert join_values(["接受编译器 7.8，但尚无已知版本。", "缺少 opp_kernel 时会抛出异常。"]) == \
        "接受编译器 7.8，但尚无已知版本；缺少 opp_kernel 时会抛出异常。"
    assert join_values(["Accepts 7.8, none known.", "It raises (2.6.0)."]) == "Accepts 7.8, none known. It raises (2.6.0)."
    assert join_values(["2.4.1", "2.4.0"]) == "2.4.1, 2.4.0" and join_values(["未设置 A", "未设置 B"]) == "未设置 A，未设置 B"


def test_a_chinese_evidence_value_with_a_note_uses_full_width_brackets():
    from ascend_doctor import i18n
    from ascend_doctor.render.layout import scalar

    i18n.set_lang("zh")
    try:
        assert scalar("3.9.2 (/usr/local/python3.9.2/bin/python3)") == "3.9.2（/usr/local/python3.9.2/bin/python3）"
        assert scalar("8.5 (CANN 8.5.0)") == "8.5（CANN 8.5.0）"
        assert scalar("2.4.1, 2.4.0") == "2.4.1、2.4.0"
        assert scalar("f(x) (y)") == "f(x) (y)"  # code: as written
    finally:
        i18n.set_lang("en")
    assert scalar("3.9.2 (/usr/bin/python3)") == "3.9.2 (/usr/bin/python3)"


def test_a_chinese_placeholder_is_never_cut_at_a_line_end():
    """Review round 4: '中没有 <安装路径' / '>/opp/…' — a placeholder without spaces is one unit, like a fused term."""
    text = "PYTHONPATH 中没有任何路径指向它，应该包含的是 <安装路径>/opp/built-in/op_impl/ai_core/tbe 这一目录，MindSpore 会报错"
    for width in range(24, 70):
        lines = wrap(text, width)
        assert not any(line.rstrip().endswith(("<安装", "<安装路", "<安装路径")) for line in lines), (width, lines)
        assert "".join(l.strip() for l in lines).replace(" ", "") == text.replace(" ", "")
