"""render/collect_text.py: what `collect --show` and `--show-all` print before anything is written."""

from ascend_doctor.render.collect_text import LISTED_MAX, show_summary, show_text

ROWS = ([("file", f"/etc/f{i}", "read") for i in range(LISTED_MAX + 2)]
        + [("exists", "/dev/davinci0", "placeholder"), ("exists", "/dev/davinci1", "placeholder"),
           ("exists", "/sys/x", "placeholder"), ("env", "ASCEND_HOME_PATH", "kept"), ("env", "TOKEN", "redacted")])


def test_content_is_listed_the_rest_counted_per_top_directory():
    lines = show_summary(ROWS, 100)
    assert lines[0] == "What the bundle would hold:"
    assert f"{LISTED_MAX + 2} files read:" in lines and "  /etc/f0 (read)" in lines
    assert "  ... 2 more (--show-all lists every entry)" in lines
    assert any("2 under /dev" in line and "1 under /sys" in line for line in lines)
    assert "  1 kept: ASCEND_HOME_PATH" in lines and "  1 with the value redacted: TOKEN" in lines


def test_show_all_lists_every_entry_and_both_end_with_what_was_not_written():
    every = show_text(ROWS, ["a note"], 3, True, 100)
    assert len([line for line in every if line.startswith("file ")]) == LISTED_MAX + 2
    assert every[-3:] == ["note: a note", "", f"{len(ROWS)} entries, 3 value(s) redacted; nothing written (--show-all)."]
    assert show_text(ROWS, [], 0, False, 100)[-1].endswith("nothing written (--show).")
