"""--help in Chinese: the command's and every subcommand's (and kb's / matrix's actions') help in zh, argparse's own
words included; English help exactly as argparse writes it."""

import argparse
import os
import re

import pytest

from ascend_doctor import catalog, i18n
from tools import catalogs
from ascend_doctor.cli import ARGPARSE_WORDS, build_parser, main
from ascend_doctor.render.layout import display_width, has_wide
from tests.helpers import REPO
from tests.helpers.i18n_support import WORD, leftovers

CLI_PO = os.path.join(REPO, "ascend_doctor", "locale", "zh_CN", "cli.po")
WIDTH = 80  # COLUMNS: argparse lays help out in COLUMNS - 2
# Names docs/glossary.md keeps in Chinese text that the shared detector does not list: MindSpore's model format
# and CANN's process log (进程日志（plog）).
NAMES = {"MindIR", "plog"}
OPTION = re.compile(r"(?<![\w/.-])--?[A-Za-z][\w-]*")


def _subparsers(parser):
    return [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]


def _paths(parser, prefix=()):
    """The argv prefix of every parser under `parser`: (), ("check",), ("kb", "show") ..."""
    out = [(prefix, parser)]
    for action in _subparsers(parser):
        for name, child in action.choices.items():
            out += _paths(child, prefix + (name,))
    return out


PATHS = [p for p, _ in _paths(build_parser())]
COMMAND_WORDS = {w for path in PATHS for name in path for w in WORD.findall(name)}  # check, rank-table, kb show ...


@pytest.fixture
def help_of(monkeypatch, capsys):
    """--help of one command path as main() prints it at 80 columns, in `lang` (--lang, or the environment)."""
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    for name in ("ASCEND_DOCTOR_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)

    def run(path, lang=None, env=None):
        for k, v in (env or {}).items():
            monkeypatch.setenv(k, v)
        flag = ["--lang", lang] if lang else []
        # --help first: argparse answers before it reaches --lang, which the top level and a command with actions
        # (kb, matrix) do not take themselves
        argv = list(path) + ["--help"] + flag
        try:
            with pytest.raises(SystemExit) as done:
                main(argv)
        finally:
            i18n.set_lang("en")
        assert done.value.code == 0
        out = capsys.readouterr().out
        assert out
        return out

    return run


def _parser_words(path):
    """Words a zh help keeps: what the command line is made of (option strings, metavars, choices, the
    command and action names, the program's name)."""
    parser = dict(_paths(build_parser()))[path]
    words = set(WORD.findall(parser.prog)) | COMMAND_WORDS
    for action in parser._actions:
        parts = list(action.option_strings)
        metavar = action.metavar
        parts += list(metavar) if isinstance(metavar, tuple) else [metavar or ""]
        if action.choices is not None and not isinstance(action.choices, range):
            parts += [str(c) for c in action.choices]
        for part in parts:
            words.update(WORD.findall(part))
    return words


def _options(text):
    """The option strings a help text names (usage, option lines and the prose), hyphen line breaks undone."""
    return set(OPTION.findall(re.sub(r"-\n\s+", "-", text)))


def _headings(text):
    """Section titles: a line at the margin after an empty line, ending in a colon."""
    lines = text.splitlines()
    return [line for before, line in zip(lines, lines[1:]) if not before and line and not line[0].isspace()
            and line.endswith((":", "："))]


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(p) or "ascend-doctor" for p in PATHS])
def test_help_in_chinese(path, help_of):
    en, zh = help_of(path, "en"), help_of(path, "zh")
    prog = " ".join(("ascend-doctor",) + path)
    assert en.startswith("usage: " + prog) and zh.startswith("用法：" + prog)
    words = leftovers(zh, _parser_words(path) | NAMES)
    assert not words, f"English left in `{prog} --help` in zh: {sorted(set(words))}\n{zh}"
    # the same sections, titled in Chinese with a full-width colon
    assert len(_headings(zh)) == len(_headings(en)) > 0
    assert all(has_wide(h) and h.endswith("：") for h in _headings(zh)), _headings(zh)
    if "\npositional arguments:\n" in en:
        assert "\n位置参数：\n" in zh
    assert ("\noptions:\n" in en) == ("\n选项：\n" in zh)
    # every option, metavar-free, is named in both (prose included: a translation keeps the options it mentions)
    assert _options(zh) == _options(en)


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(p) or "ascend-doctor" for p in PATHS])
def test_chinese_help_wraps_by_display_width(path, help_of):
    """A Chinese character takes two columns: wrapped to fit (argparse alone counts characters), and a wrapped
    usage's continuation lines line up under the first option."""
    zh = help_of(path, "zh")
    lines = zh.splitlines()
    wide = [line for line in lines if has_wide(line) and display_width(line) > WIDTH - 2]
    assert not wide, "\n".join(wide)
    usage = lines[:lines.index("")]
    lead = display_width("用法：" + " ".join(("ascend-doctor",) + path) + " ")
    for line in usage[1:]:
        assert len(line) - len(line.lstrip(" ")) == lead, usage


def test_language_from_the_environment(help_of):
    by_flag = help_of(("check",), "zh")
    assert help_of(("check",), env={"ASCEND_DOCTOR_LANG": "zh"}) == by_flag
    assert help_of(("check",), env={"LANG": "zh_CN.UTF-8"}) == by_flag
    assert help_of((), env={"LC_ALL": "zh_CN.UTF-8"}).startswith("用法：ascend-doctor [-h]")
    assert help_of(("check",), env={"LANG": "zh_CN.UTF-8", "ASCEND_DOCTOR_LANG": "en"}) == help_of(("check",), "en")


# Lines of the English help main() printed at 80 columns before the help was translated: argparse's own words and
# layout, and texts now marked for translation, are byte for byte what they were.
EN_LINES = {
    (): ["usage: ascend-doctor [-h] [--version] COMMAND ...",
         "positional arguments:",
         "    check     diagnose this machine or a bundle (the default command)",
         "    triage    name the known problems in logs, with cause and fix",
         "options:",
         "  -h, --help  show this help message and exit",
         "  --version   show program's version number and exit",
         "Exit codes: 0 healthy (nothing at or above --fail-on), 1 problems found, 2"],
    ("check",): ["usage: ascend-doctor check [-h]",  # the usage wraps once more since html joined the formats
                 "                           [--format {text,json,markdown,junit,prom,html}]",
                 "                           [--output FILE] [--only ID [ID ...]]",
                 "Probe versions and devices, run every check, print a fix-it report.",
                 "  -h, --help            show this help message and exit",
                 "  --skip ID [ID ...]    skip these checks (same forms as --only)",
                 "smoke train:",
                 "  --lang {zh,en}        language of the output: zh or en (default:",
                 "                        ASCEND_DOCTOR_LANG, else the locale: LC_ALL,"],
    ("smoke",): ["distributed (msrun):",
                 "  --master-addr ADDR    scheduler address (default: 127.0.0.1)"],
    ("kb", "search"): ["usage: ascend-doctor kb search [-h] [--format {text,json}] [--output FILE]",
                       "  --format {text,json}  output format (default: text)"],
}


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(p) or "ascend-doctor" for p in PATHS])
def test_english_help_is_unchanged(path, help_of):
    en = help_of(path, "en")
    assert not has_wide(en)
    assert help_of(path) == en  # no language asked: the locale's (none here): English
    lines = en.splitlines()
    for line in EN_LINES.get(path, []):
        assert line in lines, f"{line!r} not in:\n{en}"
    if not path:
        # argparse's own words this Python writes are the ones translated
        for word in ("positional arguments", "show this help message and exit"):
            assert word in en and word in ARGPARSE_WORDS


def test_every_cli_po_message_is_used():
    marked = {m.msgid for msgs in catalogs.package_messages(os.path.join(REPO, "ascend_doctor")).values() for m in msgs}
    with open(CLI_PO, encoding="utf-8") as fh:
        ids = [e.msgid for e in catalog.parse_po(fh.read(), "cli.po") if e.msgid]
    unused = [m for m in ids if m not in marked]
    assert ids and not unused, f"cli.po translates messages no code marks: {unused}"
    assert len(ids) == len(set(ids))


def test_help_percent_formats_stay_argparse_formats():
    """argparse %-formats every help string: a translation must keep the same % directives (a stray % breaks
    --help with a ValueError)."""
    with open(CLI_PO, encoding="utf-8") as fh:
        entries = [e for e in catalog.parse_po(fh.read(), "cli.po") if e.msgid]
    directive = re.compile(r"%(?:\([^)]*\))?[a-z%]")
    bad = [(e.msgid, e.strs[0]) for e in entries if directive.findall(e.msgid) != directive.findall(e.strs[0])
           or e.strs[0].count("%") != e.msgid.count("%")]
    assert not bad, bad
