"""Chinese as well as English: the language choice, the catalogs, and reports with no English left in zh."""

import gettext
import io
import json
import os
import re
import string

import pytest

from ascend_doctor import catalog, i18n, zh_style
from tools import catalogs
from tests.helpers import REPO
from tests.helpers.fixture_reports import snapshot_dirs
from tests.helpers.i18n_support import allowed_words, command_part, leftovers

ZH_DIR = os.path.join(REPO, "ascend_doctor", "locale", "zh_CN")
MESSAGES = catalogs.package_messages(os.path.join(REPO, "ascend_doctor"))


@pytest.fixture
def zh():
    i18n.set_lang("zh")
    yield
    i18n.set_lang("en")


@pytest.fixture(scope="module")
def table():
    return catalog.merged(catalog.read_entries(ZH_DIR))


# ---- choosing the language ----

@pytest.mark.parametrize("env, expected", [
    ({}, "en"),
    ({"LANG": "zh_CN.UTF-8"}, "zh"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_TW.UTF-8"}, "zh"),
    ({"LC_MESSAGES": "en_US", "LC_ALL": "zh_CN.GB18030"}, "zh"),
    ({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, "en"),
    ({"LC_ALL": "", "LANG": "zh_CN.UTF-8"}, "zh"),  # empty means unset
    ({"LANG": "zh_CN.UTF-8", "ASCEND_DOCTOR_LANG": "en"}, "en"),
    ({"LANG": "C.UTF-8", "ASCEND_DOCTOR_LANG": "zh_CN"}, "zh"),
])
def test_language_from_environment(env, expected):
    assert i18n.choose(None, env) == expected


def test_flag_beats_environment():
    assert i18n.choose("en", {"ASCEND_DOCTOR_LANG": "zh", "LANG": "zh_CN.UTF-8"}) == "en"
    assert i18n.choose("zh", {"LANG": "en_US.UTF-8"}) == "zh"


def test_a_bad_language_names_where_it_came_from():
    with pytest.raises(i18n.LanguageError, match="ASCEND_DOCTOR_LANG is 'fr', expected zh or en"):
        i18n.choose(None, {"ASCEND_DOCTOR_LANG": "fr"})


def test_cli_bad_language_is_one_line_exit_2(capsys, monkeypatch):
    from ascend_doctor.cli import main

    monkeypatch.setenv("ASCEND_DOCTOR_LANG", "klingon")
    assert main(["matrix", "show", "--cann", "8.0.RC3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ASCEND_DOCTOR_LANG is 'klingon', expected zh or en" in err
    i18n.set_lang("en")


def test_every_subcommand_takes_lang():
    from ascend_doctor.cli import COMMANDS, build_parser

    for name in COMMANDS:
        parser = build_parser(name)
        sub = next(a for a in parser._actions if a.dest == "command").choices[name]
        leaves = [sub]
        while any(a.dest and a.__class__.__name__ == "_SubParsersAction" for a in leaves[0]._actions):
            action = next(a for a in leaves[0]._actions if a.__class__.__name__ == "_SubParsersAction")
            leaves = list(action.choices.values())
        for leaf in leaves:
            assert "--lang" in leaf._option_string_actions, f"{leaf.prog} has no --lang"


# ---- the catalogs ----

def test_po_compiles_to_a_mo_gettext_reads(tmp_path):
    po = ('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
          '#: x.py:1\nmsgid "NPU driver installed"\nmsgstr "已安装 NPU 驱动"\n\n'
          'msgid "{count} NPU"\nmsgid_plural "{count} NPUs"\nmsgstr[0] "{count} 个 NPU"\n\n'
          '#, fuzzy\nmsgid "a guess"\nmsgstr "猜的"\n\n'
          'msgid "a long "\n"message"\nmsgstr "长"\n"消息"\n')
    src = tmp_path / "zh_CN"
    src.mkdir()
    (src / "area.po").write_text(po, encoding="utf-8")
    (mo,) = catalogs.compile_locale_dir(str(tmp_path))
    with open(mo, "rb") as fh:
        gnu = gettext.GNUTranslations(fh)
    po_cat = catalog.read_po_dir(str(src))
    for cat in (gnu, po_cat):
        assert cat.gettext("NPU driver installed") == "已安装 NPU 驱动"
        assert cat.ngettext("{count} NPU", "{count} NPUs", 3) == "{count} 个 NPU"
        assert cat.gettext("a guess") == "a guess"  # fuzzy is not a translation
        assert cat.gettext("a long message") == "长消息"
        assert cat.gettext("unknown") == "unknown"


def test_po_strings_unquote_like_c_literals_escaped_or_not():
    po = ('msgid "plain {x} 中文"\nmsgstr "一 \\"引\\" \\\\ 二\\n"\n"\\t三"\n')
    (entry,) = catalog.parse_po(po, "area.po")
    assert entry.msgid == "plain {x} 中文" and entry.strs == ('一 "引" \\ 二\n\t三',)
    with pytest.raises(catalog.CatalogError, match="bad string"):  # an unescaped quote inside
        catalog.parse_po('msgid "a"b"\nmsgstr "c"\n', "area.po")


def test_the_catalog_is_read_once_per_process(monkeypatch):
    """The CLI sets the language twice a run and in-process callers (run(), the tests) many times: one read."""
    reads = []
    real = i18n.load_catalog
    monkeypatch.setattr(i18n, "load_catalog", lambda lang: reads.append(lang) or real(lang))
    monkeypatch.setattr(i18n, "_loaded", {})
    try:
        i18n.set_lang("zh")
        first = i18n._catalog
        i18n.set_lang("en")
        i18n.set_lang("zh")
        assert i18n._catalog is first and reads == ["zh"] and i18n.msgids()
    finally:
        i18n.set_lang("en")


def test_one_message_translated_two_ways_is_an_error(tmp_path):
    for name, text in (("a.po", "我"), ("b.po", "咱")):
        (tmp_path / name).write_text(f'msgid "I"\nmsgstr "{text}"\n', encoding="utf-8")
    with pytest.raises(catalog.CatalogError, match="translated differently"):
        catalog.merged(catalog.read_entries(str(tmp_path)))


# A message in two catalogs for a real reason (none today): msgid -> why. Anything else lives in one catalog, the
# area that marks it, or core.po when several areas share it (the same word in two files drifts apart when one is
# edited, and a union merge of the .po files brings both back).
IN_TWO_CATALOGS = {}


def test_each_message_lives_in_one_catalog():
    homes = {}
    for entry in catalog.read_entries(ZH_DIR):
        if entry.msgid:
            homes.setdefault(entry.msgid, []).append(entry.where)
    twice = {msgid: where for msgid, where in homes.items() if len(where) > 1 and msgid not in IN_TWO_CATALOGS}
    assert not twice, f"{len(twice)} messages in two catalogs (keep one): {sorted(twice.items())[:10]}"


def test_no_message_is_translated_two_ways_across_the_catalogs():
    """Beside the one-catalog rule: where a message is in two (IN_TWO_CATALOGS), both say it the same way."""
    said = {}
    for entry in catalog.read_entries(ZH_DIR):
        if entry.msgid:
            said.setdefault(entry.msgid, set()).add(entry.strs)
    assert not {m for m, ways in said.items() if len(ways) > 1}


def test_the_catalogs_parse_with_no_fuzzy_or_empty_entry():
    entries = catalog.read_entries(ZH_DIR)
    bad = [e.where for e in entries if e.msgid and (e.fuzzy or not all(e.strs))]
    assert not bad, f"fuzzy or untranslated entries: {bad[:10]}"


@pytest.mark.parametrize("rel", sorted(MESSAGES))
def test_every_marked_message_has_chinese(rel, table):
    missing = sorted({m.msgid for m in MESSAGES[rel] if m.msgid not in table})
    assert not missing, (f"{rel}: {len(missing)} message(s) without a zh_CN translation "
                         f"(python scripts/i18n.py missing {rel}):\n" + "\n".join(missing[:20]))


def _fields(text):
    try:
        return sorted(f for _, f, _, _ in string.Formatter().parse(text) if f is not None)
    except ValueError as exc:
        return [f"<unparsable: {exc}>"]


def test_placeholders_match(table):
    bad = [(msgid, strs[0]) for msgid, (plural, strs) in table.items() if _fields(msgid) != _fields(strs[0])]
    assert not bad, "placeholders differ:\n" + "\n".join(f"{a!r}\n  -> {b!r}" for a, b in bad[:20])


def _same_command(en, zh):
    """`zh` is the command `en` with its <placeholders> worded in Chinese (<release> -> <版本>), nothing else changed
    (review 3 R3: one placeholder convention in a Chinese report, as the knowledge base's fix steps have)."""
    parts = re.split(r"<[^<>]*>", en)
    return re.fullmatch("<[^<>]+>".join(re.escape(p) for p in parts), zh) is not None


def test_commands_stay_commands(table):
    """A fix line's command (before '  # ') and `backticked` text are the same in both languages, but for the
    words of a placeholder."""
    assert _same_command("./Ascend-cann-toolkit_<release>_linux-<arch>.run", "./Ascend-cann-toolkit_<版本>_linux-<架构>.run")
    assert not _same_command("./Ascend-cann-toolkit_<release>.run --install", "./Ascend-cann-toolkit_<版本>.run")
    bad = []
    for msgid, (_, strs) in table.items():
        zh_text = strs[0]
        if "  # " in msgid and not _same_command(command_part(msgid).strip(), zh_text.split("  # ", 1)[0].strip()):
            bad.append((msgid, zh_text))
        for code in re.findall(r"`[^`]+`", msgid):
            if not re.search(r"`[^`]+`", zh_text) or not any(_same_command(code, c)
                                                             for c in re.findall(r"`[^`]+`", zh_text)):
                bad.append((msgid, zh_text))
    assert not bad, "commands changed in translation:\n" + "\n".join(f"{a!r}\n  -> {b!r}" for a, b in bad[:20])


def test_translations_are_chinese(table):
    """A msgstr with no Chinese character is an English text copied over (ids and commands aside)."""
    copied = [msgid for msgid, (_, strs) in table.items()
              if msgid == strs[0] and re.search(r"[a-z]{3,} [a-z]{2,} [a-z]{2,}", msgid)]
    assert not copied, f"translated as itself: {copied[:10]}"


# ---- reports in Chinese ----

def _zh_report(path):
    from ascend_doctor.bundle import open_bundle
    from ascend_doctor.doctor import RunOptions, run_checks

    with open_bundle(path) as host:
        return run_checks(host, RunOptions(timeout=5.0)).worded()  # in the language of the run, as shown


SNAPSHOTS = snapshot_dirs()


@pytest.mark.parametrize("path", SNAPSHOTS, ids=[os.path.basename(p) for p in SNAPSHOTS])
def test_no_english_left_in_a_zh_report(path, zh):
    from ascend_doctor.render import render

    report = _zh_report(path)
    allowed = allowed_words(report, path)
    problems = {}
    for fmt in ("text", "markdown"):
        words = leftovers(render(report, fmt), allowed)
        if words:
            problems[fmt] = sorted(set(words))
    for f in report.findings:
        texts = [f.title, f.summary] + [command_part(s) and s.replace(command_part(s), "", 1) or s
                                        for s in f.fix if isinstance(s, str)]
        words = leftovers("\n".join(texts), allowed)
        if words:
            problems[f.id] = sorted(set(words))
    assert not problems, f"English left in the zh report of {os.path.basename(path)}: {problems}"


@pytest.mark.parametrize("path", SNAPSHOTS[:6], ids=[os.path.basename(p) for p in SNAPSHOTS[:6]])
def test_the_same_findings_in_both_languages(path):
    en = _zh_report(path)
    i18n.set_lang("zh")
    try:
        zh_report = _zh_report(path)
    finally:
        i18n.set_lang("en")
    assert [(f.id, f.status, f.pitfall) for f in en.findings] == \
        [(f.id, f.status, f.pitfall) for f in zh_report.findings]
    assert en.lang == "en" and zh_report.lang == "zh"


def test_json_keeps_english_keys_and_says_its_language(capsys):
    from ascend_doctor.cli import main

    path = os.path.join(REPO, "tests", "fixtures", "a2_env_not_sourced")
    main(["check", "--bundle", path, "--format", "json", "--lang", "zh"])
    zh_json = json.loads(capsys.readouterr().out)
    main(["check", "--bundle", path, "--format", "json", "--lang", "en"])
    en_json = json.loads(capsys.readouterr().out)
    assert zh_json["lang"] == "zh" and en_json["lang"] == "en"
    assert sorted(zh_json) == sorted(en_json)
    assert [(f["id"], f["status"], sorted(f)) for f in zh_json["findings"]] == \
        [(f["id"], f["status"], sorted(f)) for f in en_json["findings"]]
    assert i18n.get_lang() == "en"


def test_chinese_texts_use_the_glossary_words():
    """The words a literal translation produces where the glossary (docs/glossary.md) has the vendor's: one list,
    ascend_doctor/zh_style.OFF_GLOSSARY (tests/test_zh_style.py reads the same texts for punctuation)."""
    texts = {os.path.relpath(p, REPO): open(p, encoding="utf-8").read()
             for p in catalog.po_files(ZH_DIR) + [os.path.join(REPO, "README.zh-CN.md"),
                                                  os.path.join(REPO, "data", "knowledge_base.json")]
             + [os.path.join(REPO, "data", "kb", f) for f in os.listdir(os.path.join(REPO, "data", "kb"))]}
    bad = [(name, wrong, zh_style.OFF_GLOSSARY[wrong]) for name, text in texts.items()
           for wrong in zh_style.off_glossary(text)]
    assert not bad, "use the glossary's word: " + "; ".join(f"{n}: {w} -> {r}" for n, w, r in bad)


@pytest.mark.parametrize("text, where, what", [
    ('msgid "a"\nmsgstr b\n', "area.po:2", "expected a quoted string"),
    ('msgid "a"\n', "area.po:1", "msgid without msgstr"),
    ('"dangling"\n', "area.po:1", "a continued string with nothing before it"),
    ('msgid "a"\nmsgtxt "b"\n', "area.po:2", "expected msgid, msgid_plural, msgstr or a comment"),
    ('msgctxt "x"\nmsgid "a"\nmsgstr "b"\n', "area.po:1", "msgctxt is not used"),
    ('msgid "a\\"\nmsgstr "b"\n', "area.po:1", "bad string"),  # the closing quote escaped
])
def test_a_broken_po_file_names_file_line_and_what_was_expected(text, where, what):
    with pytest.raises(catalog.CatalogError) as err:
        catalog.parse_po(text, "area.po")
    assert str(err.value).startswith(where + ": ") and what in str(err.value)


# ---- the house style of the Chinese outputs (issue 27) ----

# A token a reader copies back whole: a URL, an option, an absolute path (a path list may break after its ':').
TOKEN = re.compile(r"(?:https?://|--|/)[A-Za-z0-9_./%#?=&+-]{6,}")


def _tokens(finding):
    """The tokens of what a text report shows of a finding in full: its summary and fix lines."""
    texts = [finding.summary] + [s for s in finding.fix if isinstance(s, str)]
    return {t for text in texts for t in TOKEN.findall(str(text)) if ":/" not in t}


@pytest.mark.parametrize("path", SNAPSHOTS, ids=[os.path.basename(p) for p in SNAPSHOTS])
def test_a_zh_report_keeps_the_house_style_and_every_token_whole(path, zh):
    """Full-width marks after Chinese, the glossary's words, 您, and no URL, option or path cut by wrapping."""
    from ascend_doctor.render import render

    report = _zh_report(path)
    text = render(report, "text")
    # packages=False: a report shows an install kind as the data it is ("toolkit 8.0.RC3 at ...")
    bad = [f"{line.strip()[:70]!r}: {p}" for fmt in ("text", "markdown") for line in render(report, fmt).splitlines()
           for p in zh_style.problems(line, packages=False)]
    assert not bad, f"{os.path.basename(path)}: " + "\n".join(bad[:20])
    split = sorted(t for f in report.findings if f.status in ("fail", "warn", "error") for t in _tokens(f)
                   if t not in text)
    assert not split, f"{os.path.basename(path)}: tokens cut by wrapping: {split[:10]}"


def test_kb_show_in_chinese_keeps_the_house_style_and_every_token_whole():
    """Every signature as `kb show --lang zh` prints it: tags and log sources in Chinese, no half-width mark after
    Chinese, no URL or option cut (issue 27 saw 'https: / //mindspore.cn/...', '--node_ra / nk')."""
    import contextlib
    import io

    from ascend_doctor.cli import main
    from ascend_doctor.render.kb_text import sig_tag
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.triage.result import shown_source

    kb = load_knowledge_base()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        for s in kb.signatures:
            main(["kb", "show", s.id, "--lang", "zh"])
    out = buf.getvalue()
    i18n.set_lang("zh")
    try:
        tags = {sig_tag(s) for s in kb.signatures}
        texts = [t for s in kb.signatures for t in [*s.text("zh")[2], s.text("zh")[1], shown_source(s)]]
    finally:
        i18n.set_lang("en")
    assert not [t for t in tags if re.search(r"\b(fail|warn|root|wrapper|benign)\b", t)], tags
    assert "telling strings" not in out and "index id" not in out
    split = sorted({t for text in texts for t in TOKEN.findall(text) if ":/" not in t and t not in out})
    assert not split, f"tokens cut by wrapping: {split[:10]}"
    # The doctor's own words only: the match rule, the example log line and the source (which quotes the vendor's
    # document titles as they are written) are quoted text.
    ours, quoted = [], False
    for line in out.splitlines():
        if line.startswith("  ") and not line.startswith("    "):
            quoted = line.strip().startswith(("匹配规则：", "示例：", "出处："))
        if not quoted:
            ours.append(line)
    # packages=False: a line cut from its text loses the context that tells CUDA's toolkit from CANN's (the
    # whole texts are read with it in tests/test_zh_style.py)
    bad = [p for line in ours for p in zh_style.problems(line, packages=False)]
    assert not bad, "\n".join(bad[:20])
