"""A regex class holding a character outside ASCII (`[‘']`, `[-–]`) is a set of single bytes to the bytes matchers
(Hyperscan, and Python's bytes confirmation), which never match the character itself: such classes are refused in a
user's file (kb/load.py `non_ascii_class`), none is shipped, and the entries that had one find the character's lines
with every matcher."""

import json

import pytest

from ascend_doctor.kb.load import load_knowledge_base, non_ascii_class, parse_part

from .test_load import PART, PITFALLS, _entry

KB = load_knowledge_base()
REGEX_FIELDS = ("also", "exclude", "resolved_by", "exception_under")


@pytest.mark.parametrize("pattern,found", [
    ("omitting directory [‘'](?P<d>\\w+)", "[‘']"),
    ("ret ?[(\\[] ?(?P<ret>[-–]?\\d+)", "[-–]"),
    ("(?P<p>[^'’\\n]{1,300})", "[^'’\\n]"),
    ("[]’]", "[]’]"),  # a leading ] is a member, the class goes on
    ("[^]’]", "[^]’]"),  # ...in a negated class too
    ("(?:'|‘)(?P<p>[^'\\n]+)(?:'|’)", None),  # alternatives: Python's parse makes a class of them, the source does not
    ("\\[msprobe\\] 无效参数：", None),  # outside a class, any character
    ("\\[’", None),  # an escaped bracket opens no class
])
def test_the_class_is_read_from_the_source(pattern, found):
    assert non_ascii_class(pattern) == found


def test_no_shipped_regex_has_one():
    bad = []
    for sig in KB.signatures:
        pats = ([sig.pattern] if sig.regex and sig.pattern else []) + [p for f in REGEX_FIELDS for p in getattr(sig, f)]
        bad += [(sig.id, non_ascii_class(p)) for p in pats if non_ascii_class(p)]
    assert bad == []


@pytest.mark.parametrize("field", ["pattern", "also", "exclude", "exception_under"])
def test_a_users_file_with_one_is_refused_naming_the_field_and_the_class(field):
    entry = _entry(all_of=None, pattern="omitting directory (?:'|‘)(?P<d>\\w+)", regex=True,
                   examples=["cp: omitting directory ‘abc’"], near_misses=["cp: 'abc' -> 'x'"])
    entry[field] = "omitting directory [‘'](?P<d>\\w+)" if field == "pattern" else ["omitting [‘']x"]
    errors = parse_part({"schema": PART, "signatures": [entry]}, "mine.json", PITFALLS, check_examples=True)[2]
    assert len(errors) == 1
    assert errors[0].startswith(f"mine.json: signatures[0] (MY_SIG).{field}: ") and "[‘']" in errors[0]


MATCHERS = ["python", "re2", "hyperscan"]
LINES = [  # each the form the entry's class was written for, with the non-ASCII character
    ("HCCP_RA_RDEV_INIT_FAILED", "[init][ra_rdev]ra rdev init failed, ret(–67)", {"ret": "–67"}),
    ("CP_DIRECTORY_WITHOUT_RECURSIVE", "cp: omitting directory ‘/data/ckpt/step_100’", {"dir": "/data/ckpt/step_100"}),
    ("OS_USER_OR_GROUP_NOT_FOUND", "chown: invalid user: ‘HwHiAiUser:HwHiAiUser’", {"name": "HwHiAiUser"}),
    ("OS_USER_OR_GROUP_NOT_FOUND", "id: ‘hwuser’: no such user", {"name": "hwuser"}),
    ("CANN_LINK_UNDEFINED_REFERENCE", "libascendcl.so: undefined reference to ‘aclrtGetVersion’", {}),
    ("MS_OP_ARGUMENT_CHECK_FAILED", "ValueError: For primitive[Conv2D]，the x shape must be 4D, but got 3D",
     {"op": "Conv2D"}),
    ("HF_BACKEND_LIBRARY_MISSING", "ImportError: load_dataset requires the 🤗 Datasets library but it was not found "
     "in your environment.", {"lib": "🤗 Datasets"}),
    ("MSPROBE_ERROR_REPORTED", "msprobe.core.common.exceptions.MsprobeException: [msprobe] 无效参数：task is invalid",
     {}),
]


@pytest.mark.parametrize("matcher", MATCHERS)
def test_every_matcher_finds_the_lines_with_the_character(matcher):
    from ascend_doctor.triage.match.scanner import Scanner

    scanner = Scanner(KB.signatures, matchers=[matcher])
    if scanner.matcher != matcher:
        pytest.skip(f"the {matcher} accelerator is not installed here")
    noise = b"[INFO] ME(1,1,python):2024-07-12 step 1 done, loss is 2.31\n" * 20
    missed = []
    for sid, line, values in LINES:
        index = next(i for i, s in enumerate(KB.signatures) if s.id == sid)
        hits = {j for _, _, hs in scanner.scan(noise + line.encode("utf-8") + b"\n" + noise) for j in hs}
        got = KB.signatures[index].values(line)
        if index not in hits or any((got.get(k) or (None,))[0] != v for k, v in values.items()):
            missed.append((sid, line, json.dumps(got, ensure_ascii=False)))
    assert missed == []


def test_a_chinese_word_glued_to_a_line_is_read_alike_by_the_str_and_the_bytes_matchers():
    """Users paste `报错NameError: name 'FlashMHA' is not defined` (heldout31's h31c_16): triage's bytes patterns read
    `\\w`, `\\b`, `\\d`, `\\s` as ASCII, so the line matched there, while `kb match`, `explain` and the title's values
    read it with Unicode classes (错 a word character before `NameError`): the title said "Name (named in the line)".
    Both read ASCII now: for every example of every entry, with a Chinese word glued before it and after it, the
    two matchers agree, and the values are the same as for the bare example."""
    disagree, lost = [], []
    for sig in KB.signatures:
        if sig.derived:
            continue
        bm = sig.bytes_matcher()
        for ex in sig.examples[:2]:
            for line in ("报错" + ex, ex + "错误"):
                if sig.search(line) != bm(line.encode("utf-8")):
                    disagree.append((sig.id, line))
            if sig.search(ex) and sig.values(ex) and sig.search("报错" + ex) \
                    and set(sig.values("报错" + ex)) != set(sig.values(ex)):
                lost.append((sig.id, ex))
    assert disagree == [] and lost == []
    name = next(s for s in KB.signatures if s.id == "PY_NAME_NOT_DEFINED")
    assert name.values("报错NameError: name 'FlashMHA' is not defined")["name"][0] == "FlashMHA"
