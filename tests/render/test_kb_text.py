"""render/kb_text.py: a signature as text and as JSON, and the wrapping kb and explain share."""

import json

import pytest

from ascend_doctor.kb.load import load_knowledge_base
from ascend_doctor.render.kb_text import WIDTH, causes_of, effects_of, sig_json, sig_tag, sig_text, width, wrap_lines
from tests.helpers.i18n_asserts import assert_rewords_both_ways

KB = load_knowledge_base()


def test_a_signature_as_text_names_its_parts_in_order_within_the_width():
    sig = next(s for s in KB.signatures if s.ascend_fd and s.examples and len(s.fix) >= 2)
    lines = sig_text(KB, sig)
    assert lines[0].startswith(sig.id) and sig_tag(sig) in lines[0]
    labels = [i for i, line in enumerate(lines) if line.strip() in ("Cause:", "Fix:", "Matches:")]
    assert [lines[i].strip() for i in labels] == ["Cause:", "Fix:", "Matches:"]
    assert any(line.startswith("    1. ") for line in lines) and any(line.startswith("    2. ") for line in lines)
    long_tokens = [line for line in lines if width(line) > WIDTH and " " not in line.strip()]
    assert all(width(line) <= WIDTH for line in lines if line not in long_tokens)


def test_causes_and_effects_are_the_two_ends_of_leads_to():
    sig = next(s for s in KB.signatures if s.leads_to and effects_of(KB, s))
    for effect_id in effects_of(KB, sig):
        effect = next(s for s in KB.signatures if s.id == effect_id)
        assert sig.id in causes_of(KB, effect)


def test_the_json_form_keeps_every_field_a_reader_needs():
    sig = KB.signatures[0]
    obj = sig_json(sig)
    assert obj["id"] == sig.id and obj["patterns"] == sig.patterns() and obj["fix"] == list(sig.text()[2])
    assert set(obj) >= {"ascend_fd", "severity", "class", "component", "cause", "source", "derived", "all_of"}


def test_a_path_longer_than_the_line_is_never_cut():
    path = "/usr/local/Ascend/" + "x" * 90 + "/libhccl.so"
    lines = wrap_lines(f"check {path} then retry", "  ")
    assert path in [line.strip() for line in lines]
    assert wrap_lines("", "  ") == [""]


def test_search_lists_each_signature_then_the_count():
    from ascend_doctor.render.kb_text import search_text

    sig = next(s for s in KB.signatures if len(s.ascend_fd) > 2 and len(s.id) < 40)
    lines = search_text([sig])
    assert lines[0].startswith(f"{sig.id}  [{sig.severity}]  ") and ", …)" in " ".join(lines)
    assert lines[-1] == "1 signature(s)" and search_text([]) == ["0 signature(s)"]


def test_match_shows_each_line_clipped_with_its_signatures_and_says_when_nothing_matched():
    from ascend_doctor.render.kb_text import SHOW_LINE_CHARS, match_text

    sig = next(s for s in KB.signatures if s.fix)
    long_line = "x" * (SHOW_LINE_CHARS + 50)
    lines = match_text([(3, long_line, [(sig, ["fd1"])]), (9, "short", [(sig, [])])])
    text = "\n".join(lines)
    assert lines[0].startswith("line 3: x") and "x" * (SHOW_LINE_CHARS + 1) not in text and " …" in text
    assert f"  -> {sig.id} [{sig.severity}] ascend-fd fd1: " in text and f"  -> {sig.id} [{sig.severity}]: " in text
    assert "     1. " in text and lines[-1] != ""
    assert match_text([]) == ["no line matches a known signature"]


def test_search_and_match_say_the_severity_and_bracket_the_ids_in_chinese():
    """`kb search 超时 --lang zh` printed "[fail]" and "标题 (AISW_...)" (issue 27: tags in Chinese, full-width
    marks after Chinese); English is unchanged (the test above)."""
    from ascend_doctor import i18n
    from ascend_doctor.render.kb_text import match_text, search_text

    sig = next(s for s in KB.signatures if s.ascend_fd and s.severity == "fail" and len(s.id) < 40)
    i18n.set_lang("zh")
    try:
        found = "\n".join(search_text([sig]))
        matched = "\n".join(match_text([(1, "x", [(sig, [])])]))
    finally:
        i18n.set_lang("en")
    assert found.startswith(f"{sig.id}  [失败]  ") and f"（{sig.ascend_fd[0]}" in found and " (" not in found
    assert f"  -> {sig.id} [失败]：" in matched


def test_the_source_is_shown_in_the_readers_language_in_text_and_json():
    """Issue 27: `kb show --lang zh` printed every source in English; an entry with `source_zh` shows it (the
    text and the JSON), English shows `source` as before."""
    from ascend_doctor import i18n
    from ascend_doctor.kb.model import public_source

    sig = next(s for s in KB.signatures if s.source_zh and "verylucky01/driver" in s.source)
    i18n.set_lang("zh")
    try:
        text = "".join(line.strip() for line in sig_text(KB, sig))
        data = sig_json(sig)
    finally:
        i18n.set_lang("en")
    assert "出处：" in text and "驱动源码 verylucky01/driver" in text and "driver source" not in text
    # the ascend-fd ids are said on their own line, not again after the knowledge base the source cites
    assert f"ascend-fd 故障码：{sig.ascend_fd[0]}" in text and "kg-config.json）；" in text[text.index("出处："):]
    assert data["source"].startswith("ascend-fd 知识库（") and "驱动源码" in data["source"]
    assert sig_json(sig)["source"] == public_source(sig.source, sig.id)
    assert "driver source verylucky01/driver" in sig_json(sig)["source"]


# ---- message refs: a saved kb or explain JSON worded again ----

LOG_LINES = ("OSError: libascend_hal.so: cannot open shared object file: No such file or directory\n"
             "ModuleNotFoundError: No module named 'dlinfer'\n"
             "EI0006: Getting socket times out.\n"
             "an unremarkable line\n")
QUERIES = (("kb", "show", "HCCL_EI0006_SOCKET_TIMEOUT"), ("kb", "show", "P13"), ("kb", "show", "EI0006"),
           ("kb", "search", "timeout"), ("kb", "match", "{log}"), ("explain", "install.driver_present"),
           ("explain", "P13"), ("explain", "HCCL_CONNECT_TIMEOUT"), ("explain", "EI0006"), ("explain", "lagging_devices"),
           ("kb", "show", "lagging_devices"), ("explain", "HCCL_EI0006_SOCKET_TIMEOUT"))


@pytest.mark.parametrize("query", QUERIES, ids=" ".join)
def test_a_saved_kb_or_explain_json_is_worded_again_in_either_language(query, tmp_path):
    """kb show/search/match and explain JSON name where each text comes from (a signature or pitfall and its field,
    with the matched line where its words take values from it; a catalog message; the variable table's two
    languages), so render/kb_text.reworded words a saved document exactly as a run in the other language."""
    from ascend_doctor.render.kb_text import reworded
    from tests.helpers import run_cli

    log = tmp_path / "lines.log"
    log.write_text(LOG_LINES)
    args = [a.format(log=log) for a in query]
    en, zh = (json.loads(run_cli(*args, "--format", "json", "--lang", lang).stdout) for lang in ("en", "zh"))
    assert en != zh  # there are words in it
    assert "i18n" in json.dumps(en)
    kb = load_knowledge_base()
    assert_rewords_both_ways(reworded, en, zh, kb)


def test_a_match_names_the_line_only_where_the_signatures_words_take_values_from_it(tmp_path):
    from ascend_doctor.kb.model import PLACEHOLDER
    from tests.helpers import run_cli

    log = tmp_path / "lines.log"
    log.write_text(LOG_LINES)
    doc = json.loads(run_cli("kb", "match", str(log), "--format", "json").stdout)
    refs = {m["id"]: m["i18n"]["cause"] for row in doc["lines"] for m in row["matches"]}
    assert refs["PY_MODULE_NOT_INSTALLED"]["line"] == "ModuleNotFoundError: No module named 'dlinfer'"
    assert "dlinfer" in next(m["cause"] for row in doc["lines"] for m in row["matches"]
                             if m["id"] == "PY_MODULE_NOT_INSTALLED")
    for sid, ref in refs.items():
        sig = KB.signature(sid)
        takes = any(PLACEHOLDER.search(t) for t in [sig.title, sig.cause, *sig.fix, sig.title_zh, sig.cause_zh,
                                                      *sig.fix_zh])  # not a shell's `{0..7}`
        assert ("line" in ref) == takes, sid
    assert not all("line" in ref for ref in refs.values())
