"""The two-level scan (issue 21, "Keep: speed"): which expressions a gate word or their own anchors send to level 2 is
decided by proof from the parsed expression, and the two-level finder names the same lines, with the same
signatures, as one database of everything."""

import random

import pytest

from ascend_doctor.kb.load import load_knowledge_base
from ascend_doctor.kb.model import Signature
from ascend_doctor.triage.match import finders
from ascend_doctor.triage.match.gates import (ANCHOR_MIN_LEN, REGEX, gate_of, literal_gate, own_anchors,
                                              shape_expression, split_alternatives, two_levels)
from ascend_doctor.triage.match.scanner import Scanner
from ascend_doctor.triage.match.translate import hs_expression

hyperscan = pytest.importorskip("hyperscan")


def _expr(pattern: str) -> str:
    got = hs_expression(pattern)
    assert got is not None, pattern
    return got[0].decode("latin-1")


@pytest.mark.parametrize("pattern, gate", [
    (r"Failed to bind socket", "fail"),  # a case-sensitive `Failed` holds the caseless gate
    (r"(?i)CONNECTION TIMED OUT", "timed out"),
    (r"[Ee]rror while loading", "error"),
    (r"(?:F|f)ailure detected", "fail"),  # a gate word across an alternation
    (r"time(?:d out|out) after \d+ s", "timeout|timed out"),  # each way through holds one: both marks
    (r"(?:connect|bind) failed", "fail"),
    (r"HCCL init (?:failed|error)", "error|fail"),  # the ways hold different gates: gated by both marks
    (r"\bdevice \d+ (?:is )?invalid\b", "invalid"),
    # shapes no word spells (SHAPE_GATES): a CANN error code before `:` or `)`, glog's level and time
    (r"\bE[0-9A-Z]\d{4}:", "<code:>"),
    (r"[A-Za-z_]+\(E[A-Z]\d{4}\):", "<code:>"),
    (r"\bE(?:8\d{4}|B0000): ", "<code:>"),  # each way through holds it
    (r"^\s*[EF](?:\d{4}|\d{8}) \d\d:\d\d:\d\d", "<glog>"),  # either form of the date
    (r"\]: [EF]\d{4} \d\d:\d\d:\d\d", "<glog>"),
    # a non-zero return code: each code of the alternation starts with a digit 1-9 (the way through ` failed` holds
    # `fail` as well)
    (r"\b(?:call )?(?:aclnn|aclrt|rt)[A-Z]\w*(?:\([^()\n]*\))?(?: failed)?,? ret ?= ?(?:100000|107001|5070\d\d)",
     "fail|<ret=N>"),
    # the optional parts before `ret` are past the expansion budget: the part after the unbounded `\w*` is proved alone
    (r"\b(?:call )?(?:aclnn|acl|rt)[A-Z]\w*(?:\([^()\n]*\))?(?:,)?(?:;)?(?:\.)?(?:!)?(?: )?"
     r" ret ?= ?(?:100000|5070\d\d)", "<ret=N>"),
    (r"\bop\[[\w.-]+\],? .{8,}\[FUNC:\w*InferShape\w*\]", "[func:"),
])
def test_an_expression_whose_every_match_holds_a_gate_word_is_gated(pattern, gate):
    assert gate_of(_expr(pattern)) == gate


@pytest.mark.parametrize("pattern", [
    r"HcclCommInitRootInfo success",
    r"(?:connect failed|link down)",  # one way holds no gate word
    r"fa(?:i)?l",  # `fal` holds no gate
    r"f.il",  # any byte in the middle: `fxil` holds none
    r"\bE[0-9A-Z]\d{4}\b",  # an error code without its `:` or `)` holds no word and no shape
    r"(?i)E[0-9A-Z]\d{4}:",  # `e1234:` is not the shape (it is case-sensitive)
    r"\[[EF]\d{3,4} \d\d:",  # three digits: not glog's date
    r"ret=(?:0|100000)",  # `ret=0` is a success
    r"err(?:or)?\b",  # `err` alone holds none
])
def test_an_expression_a_line_can_match_without_a_gate_word_is_not_gated(pattern):
    assert gate_of(_expr(pattern)) is None


def test_a_literal_is_gated_by_the_gate_word_it_holds_in_any_case():
    assert literal_gate("HCCL_INIT FAILED") == "fail"
    assert literal_gate("Segmentation Fault") == "segmentation"
    assert literal_gate("aclrtSetDevice") is None
    assert literal_gate("EZ9999: inner") == "<code:>"  # a shape, case-sensitive
    assert literal_gate("ez9999: inner") is None


def test_own_anchors_are_long_required_literals_or_none():
    got = own_anchors(_expr(r"The +AI +CPU +scheduler +process +initialization +is +abnormal"))
    assert got == [" initialization "]  # with a space of each ` +` around it
    assert all(len(a) >= ANCHOR_MIN_LEN for a in got)
    assert own_anchors(_expr(r"\.cc:\d+\] \[\d+\]")) is None  # only short literals: kept whole at level 1
    assert own_anchors(_expr(r"(?:HcclCommInitRootInfo|HcclCommInitClusterInfo) done")) == [
        "HcclCommInitClusterInfo done", "HcclCommInitRootInfo done"]  # one per way through, with what follows
    # a lettered code counts from 6 bytes, a literal holding a gate word is covered by the gate's mark
    assert own_anchors(_expr(r"(?:\bEL0007\b|Permission denied)[^\n]*davinci")) == ["EL0007", "Permission denied"]
    assert own_anchors(_expr(r"\b507008\b")) is None  # a bare number is a pid or a size as often as a code
    # the literal before a group joins each alternative's own first literal (`/` + `libruntime` ...), alternatives that
    # go on with a class or an optional part included; one that starts without a literal leaves the join out
    assert own_anchors(_expr(r"\S*/(?P<lib>libruntime(?:_\w+)?|libascendcl|libhccl(?:_\w+)?)\.so")) == [
        "/libascendcl", "/libhccl", "/libruntime"]
    assert own_anchors(_expr(r"\S*/(?:libhccl|\w+_hal)\.so")) is None
    # a repeat of at least one copy (` +`) has a copy on each side: a template's words with their spaces
    assert own_anchors(_expr(r"The +number +of +output +buffers +is")) == [" buffers "]
    levels = two_levels([], [[_expr(r"(?:\bEL0007\b|Permission denied)[^\n]*davinci"), [0]]])
    assert [e for e, _, ids in levels["l1"] if ids is None] == [_expr("denied"), _expr("EL0007")]


def test_a_top_level_alternation_is_decided_branch_by_branch():
    expr = _expr(r"(?:connect failed|\bE[0-9A-Z]\d{4}\b|rank table parse error)")
    parts = split_alternatives(expr)
    assert len(parts) == 3
    assert [gate_of(p) for p in parts] == ["fail", None, "error"]
    assert split_alternatives(_expr(r"ab(?:c|d)")) == [_expr(r"ab(?:c|d)")]


def test_an_alternation_gated_by_different_words_is_marked_by_each():
    """A line goes to level 2 only by the mark of a word gate_of names: an alternation whose branches hold different
    gate words needs each word's mark (npu-smi's `Message : Failed to ...|File type error` was marked by `error`
    alone, so a knowledge base where no other expression used `fail` never looked at its `Failed to ...` lines)."""
    assert gate_of(_expr(r"^\s*Message\s{1,40}: (?:Failed to upgrade device|File type error)")) == "error|fail"
    assert gate_of(_expr(r"Message: (?:upload failed|download failed)")) == "fail"
    assert gate_of(_expr(r"Message: (?:upload (?:failed|timeout)|download failed)")) == "fail|timeout"
    assert gate_of(_expr(r"Message: (?:upload failed|download done)")) is None
    sigs = [Signature(id="MSG", pattern=r"^\s*Message\s{1,40}: (?:Failed to upgrade device|File type error)",
                      regex=True, component="os", severity="fail", cause="c", fix=["f"], title="t")]
    sigs += [Signature(id=f"OTHER{i}", pattern=f"zzz{i} error qq", regex=True, component="os", severity="fail",
                       cause="c", fix=["f"], title="t") for i in range(60)]  # `error` marked, `fail` used by none
    scanner = Scanner(sigs, ["hyperscan"])
    if scanner.matcher != "hyperscan":
        pytest.skip("Hyperscan is not installed")
    buf = b"[ERROR] upgrade failed\n\tMessage      : Failed to upgrade device\n  Message : File type error\n"
    assert [hits for _, _, hits in scanner.scan(buf)] == [[0], [0]]


def test_the_levels_put_a_gated_signature_at_level_2_and_an_ungated_one_at_level_1():
    gated = _expr(r"Failed to bind socket")
    anchored = _expr(r"HcclCommInitRootInfo done in \d+ ms")
    whole = _expr(r"\bE[0-9A-Z]\d{4}\b")
    levels = two_levels([["Permission denied", [3]], ["aclrtSetDevice", [4]]],
                        [[gated, [0]], [anchored, [1]], [whole, [2]]])
    l1 = {e: ids for e, _, ids in levels["l1"]}
    l2 = {e: ids for e, _, ids in levels["l2"]}
    assert gated in l2 and anchored in l2 and whole in l1
    assert any(ids == [3] for ids in l2.values()) and any(ids == [4] for ids in l1.values())
    marks = [e for e, _, ids in levels["l1"] if ids is None]  # the gate words used and the anchor, as marks
    assert len(marks) == 3  # `fail`, `denied`, the anchor `HcclCommInitRootInfo done in `
    assert levels["gates"] == {"fail": 1, "denied": 1} and levels["anchored"] == 1 and levels["level1"] == 1


def test_a_shape_sends_its_expressions_to_level_2_behind_one_regex_mark():
    """An error code before its `:` and glog's level and time are found by one mark each (SHAPE_GATES), not by every
    expression of that form at level 1."""
    code, glog = _expr(r"\bE[0-9A-Z]\d{4}:(?: \[PID: \d+\])?"), _expr(r"^\s*[EF]\d{4} \d\d:\d\d:\d\d")
    levels = two_levels([["(EI0006):", [2]]], [[code, [0]], [glog, [1]]])
    l2 = {e: ids for e, _, ids in levels["l2"]}
    assert l2[code] == [0] and l2[glog] == [1] and any(ids == [2] for ids in l2.values())
    marks = [(e, kind) for e, kind, ids in levels["l1"] if ids is None]
    assert marks == [(shape_expression("<code:>"), REGEX), (shape_expression("<glog>"), REGEX)]
    assert levels["gates"] == {"<code:>": 2, "<glog>": 1} and levels["level1"] == 0


def _sig(i: int, pattern: str) -> Signature:
    return Signature(id=f"X{i}", pattern=pattern, regex=True, component="cann", severity="fail", cause="c",
                     fix=["f"])


def test_gated_lines_in_any_case_and_ungated_matches_are_found_as_python_finds_them():
    sigs = [_sig(0, r"(?i:connect failed)"), _sig(1, r"Segmentation fault"), _sig(2, r"\bE[0-9A-Z]\d{4}:"),
            _sig(3, r"HcclCommInitRootInfo done in \d+ ms"), _sig(4, r"^\s*[EF]\d{4} \d\d:\d\d:\d\d"),
            _sig(5, r"\bE[0-9A-Z]\d{4}\b")]
    scanner = Scanner(sigs, matchers=["hyperscan"])
    if scanner.matcher != "hyperscan":
        pytest.skip("Hyperscan is not installed")
    assert scanner.finder.level2
    lines = [b"[INFO] all good", b"CONNECT FAILED to 10.0.0.1", b"x Connect Failed", b"SEGMENTATION FAULT (not this one)",
             b"Segmentation fault (core dumped)", b"EZ9999: inner", b"HcclCommInitRootInfo done in 12 ms",
             b"HcclCommInitRootInfo done in 12 ms; connect failed", b"EI0006: connect failed", b"noise",
             b"  E1204 10:21:33.512118 4242 graph.cc:12] boom", b"E1204 10:21 not glog", b"e1204 10:21:33 lower case",
             b"[INFO] code EZ9999 said without its colon", b"(EI0006): x", b"EZ999: one digit short"]
    buf = b"\n".join(lines) + b"\n"
    got = [(buf[ls:le], hits) for ls, le, hits in scanner.scan(buf)]
    want = [(line, [i for i, s in enumerate(sigs) if s.search(line.decode())]) for line in lines]
    assert got == [(line, hits) for line, hits in want if hits]
    # the code line (no gate word, no anchor) is marked by its shape; the upper-case gate word still marks its line
    assert (b"EZ9999: inner", [2, 5]) in got and (b"CONNECT FAILED to 10.0.0.1", [0]) in got
    assert (b"  E1204 10:21:33.512118 4242 graph.cc:12] boom", [4]) in got
    assert (b"[INFO] code EZ9999 said without its colon", [5]) in got  # at level 1, whole


def _one_level(plan):
    regexes = [(e.encode("latin-1"), set(ids)) for e, ids in plan["hs_re"]]
    return finders._HyperscanFinder(finders._untable(plan["hs_lit"]), regexes, sure=set(plan["hs_sure"]))


def test_two_levels_name_the_same_lines_as_one_database_on_every_example_line():
    """Every example and near miss of the knowledge base, mixed with ordinary lines in chunks: each line's candidates
    and sure hits with the two levels are those of one database of every expression, and where the two levels find
    more, the signature's own pattern holds on the line."""
    kb = load_knowledge_base()
    plan = finders._scan_plan(kb.signatures)
    regexes = [(e.encode("latin-1"), set(ids)) for e, ids in plan["hs_re"]]
    two = finders._HyperscanFinder(finders._untable(plan["hs_lit"]), regexes, sure=set(plan["hs_sure"]),
                                   levels=plan["hs_levels"])
    one = _one_level(plan)
    noise = [b"[INFO] RUNTIME(1234,python):2024-07-12-10:21:33.512.118 [stream.cc:42]1234 Setup: stream_id=3",
             b"epoch: 1 step: 507008, loss is 0.532", b""]
    lines = [x.encode("utf-8") for s in kb.signatures for x in s.examples + s.near_misses] + noise * 200
    random.Random(21).shuffle(lines)
    buf = b"\n".join(lines)
    for start, end in ((0, len(buf)), (len(buf) // 3, len(buf))):
        start = buf.find(b"\n", start) + 1 if start else 0
        got, want = ({}, {}), ({}, {})
        two.add_lines(buf, start, end, *got)
        one.add_lines(buf, start, end, *want)
        for k in (0, 1):
            for ls in set(got[k]) | set(want[k]):
                a, b = got[k].get(ls, set()), want[k].get(ls, set())
                assert b <= a, (k, buf[ls:buf.find(b"\n", ls)], b - a)  # nothing one database finds is lost
                le = buf.find(b"\n", ls)
                line = buf[ls:le if le >= 0 else len(buf)].decode("utf-8", "surrogateescape")
                # more than one database: only where the signature's own pattern does hold on the line (a big
                # database of every expression has missed an anchored regex's hit that the expression alone finds:
                # `^ {4}assert ...` after a line of C++ text, python-hyperscan 0.9.1)
                assert all(kb.signatures[i].search(line) for i in a - b), (k, line, a - b)
    assert two.level2 and len(plan["hs_levels"]["l2"]) > len(plan["hs_levels"]["l1"]) // 2


def test_a_cached_plan_keeps_no_expression_texts_and_is_worked_out_again_where_its_database_cannot_be_loaded(
        tmp_path, monkeypatch):
    """The cache keeps the two databases and, per expression, only what a hit means (its kind and signatures); where
    the databases cannot be loaded (another Hyperscan), the plan is worked out again and the answers are the same."""
    from ascend_doctor.triage.match import cache

    monkeypatch.setenv(cache.CACHE_ENV_DIR, str(tmp_path))
    monkeypatch.delenv(cache.CACHE_ENV_OFF, raising=False)
    sigs = load_knowledge_base().signatures
    buf = b"\n".join(x.encode("utf-8") for s in sigs for x in s.examples + s.near_misses) + b"\n"
    first = Scanner(sigs, matchers=["hyperscan"])
    want = [(ls, le, sorted(h)) for ls, le, h in first.scan(buf)]
    [path] = [p for p in tmp_path.iterdir() if p.name.startswith("scanner-")]
    plan, db = cache._cache_read(str(path))
    assert db and "hs_re" not in plan and all(e is None for e, _, _ in plan["hs_levels"]["l1"])
    again = Scanner(sigs, matchers=["hyperscan"])  # from the file
    assert [(ls, le, sorted(h)) for ls, le, h in again.scan(buf)] == want

    def refuse(*_a, **_k):
        raise hyperscan.error("serialized database for another platform")

    monkeypatch.setattr(hyperscan, "loadb", refuse)
    rebuilt = Scanner(sigs, matchers=["hyperscan"])
    assert rebuilt.matcher == "hyperscan"
    assert [(ls, le, sorted(h)) for ls, le, h in rebuilt.scan(buf)] == want


def test_a_cached_level_two_is_loaded_at_the_first_marked_line_and_worked_out_again_where_it_cannot_be(
        tmp_path, monkeypatch):
    """From the cache, level 2's databases are loaded only when level 1 first marks a line (a log without an error
    line never pays for them); the answers are those of the scanner that compiled them. Where a part is refused after
    level 1 was loaded, level 2 is compiled again from the plan worked out again, with the same answers."""
    from ascend_doctor.triage.match import cache

    monkeypatch.setenv(cache.CACHE_ENV_DIR, str(tmp_path))
    monkeypatch.delenv(cache.CACHE_ENV_OFF, raising=False)
    sigs = load_knowledge_base().signatures
    faults = b"\n".join(x.encode("utf-8") for s in sigs for x in s.examples[:1]) + b"\n"
    quiet = b"[INFO] RUNTIME(1234,python):2024-07-12-10:00:00.000.456 [stream.cc:12] Setup: stream_id=3\n" * 50
    first = Scanner(sigs, matchers=["hyperscan"])  # (built in a child, stored, then read as any later run)
    want = [(ls, le, sorted(h)) for ls, le, h in first.scan(faults)]
    assert want

    again = Scanner(sigs, matchers=["hyperscan"])  # from the file
    assert again.finder._l2 is None
    assert list(again.scan(quiet)) == [] and again.finder._l2 is None  # nothing marked: nothing loaded
    assert [(ls, le, sorted(h)) for ls, le, h in again.scan(faults)] == want
    assert again.finder._l2 is not None and again.finder._l2_pending is None

    real = hyperscan.loadb
    loaded = []

    def level_one_only(data, *a, **k):  # the first database (level 1) loads, the parts after it are refused
        loaded.append(len(data))
        if len(loaded) > 1:
            raise hyperscan.error("serialized database for another platform")
        return real(data, *a, **k)

    monkeypatch.setattr(hyperscan, "loadb", level_one_only)
    refused = Scanner(sigs, matchers=["hyperscan"])
    assert refused.finder._l2 is None and len(loaded) == 1
    assert [(ls, le, sorted(h)) for ls, le, h in refused.scan(faults)] == want


def test_level_two_is_compiled_in_parts_that_answer_as_one_database(monkeypatch):
    """Level 2 is split into databases of at most L2_PART expressions (the compiler's memory grows faster than the
    database), grouped by knowledge-base file; the parts, their cached bytes read back, and one database find the
    same lines."""
    from ascend_doctor.triage.match import finders

    kb = load_knowledge_base()
    sigs = kb.signatures
    lines = [e if isinstance(e, str) else e["line"] for s in sigs for e in s.examples][:400]
    buf = ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")

    def hits(finder):
        got = {}
        finder.add_lines(buf, 0, len(buf), got)
        return got

    levels = finders._scan_plan(sigs)["hs_levels"]
    sizes = levels["l2_parts"]
    assert sum(sizes) == len(levels["l2"]) and max(sizes) <= finders.L2_PART and len(sizes) > 1
    parts = finders._HyperscanFinder({}, (), levels=levels)
    assert len(parts.level2) == len(sizes)
    monkeypatch.setattr(finders, "L2_PART", 10 ** 6)
    whole = finders._HyperscanFinder({}, (), levels={k: v for k, v in levels.items() if k != "l2_parts"})
    assert len(whole.level2) == 1
    monkeypatch.setattr(finders, "L2_PART", 200)
    small = finders._scan_plan(sigs)["hs_levels"]
    assert max(small["l2_parts"]) <= 200 and sorted(map(str, small["l2"])) == sorted(map(str, levels["l2"]))
    smaller = finders._HyperscanFinder({}, (), levels=small)
    again = finders._HyperscanFinder({}, (), db=parts.dump(), levels=levels)
    assert hits(whole) == hits(parts) == hits(smaller) == hits(again) != {}
    with pytest.raises(ValueError):  # a cache of another partition is not read as this one
        finders._HyperscanFinder({}, (), db=whole.dump(), levels=levels)


def _databases(levels):
    """Level 2's databases as what each is compiled from: (expression, kind) in order."""
    out, at = [], 0
    for n in levels["l2_parts"]:
        out.append(tuple((e, k) for e, k, _ in levels["l2"][at:at + n]))
        at += n
    return out


def test_a_new_knowledge_base_file_changes_only_its_own_group_of_level_two():
    """A new part file's signatures go into one group of level 2 (by the file's name): the other groups' databases
    are compiled from the same expressions as before, so the first run after the change reads them from the
    database store instead of compiling them."""
    from ascend_doctor.kb.model import Signature
    from ascend_doctor.triage.match import finders

    sigs = list(load_knowledge_base().signatures)
    before = _databases(finders._scan_plan(sigs)["hs_levels"])
    new = Signature(id="NEW_PART_FAULT", pattern=r"widget (?:frobnication|spindle) failed: code \d+", regex=True,
                    component="cann", severity="fail", cause="c", fix=["f"], origin="/somewhere/families_new.json")
    after = _databases(finders._scan_plan(sigs + [new])["hs_levels"])
    changed, gone = [d for d in after if d not in before], [d for d in before if d not in after]
    assert 1 <= len(changed) <= 2 and len(gone) <= 2  # its group's (cut in two where it passes L2_PART)
    assert len(before) - len(gone) >= len(before) - 2 >= 3


def test_the_database_store_gives_back_what_was_compiled_and_refuses_a_damaged_file(monkeypatch, tmp_path):
    import hyperscan

    from ascend_doctor.triage.match import cache
    from ascend_doctor.triage.match.gates import LITERAL, REGEX

    monkeypatch.setenv(cache.CACHE_ENV_DIR, str(tmp_path))
    monkeypatch.delenv(cache.CACHE_ENV_OFF, raising=False)
    entries = [(b"alpha[0-9]+ failed", REGEX, {0}), (b"beta", LITERAL, {1})]
    entries += [(b"filler%03d[a-z]+ widget" % k, REGEX, {2}) for k in range(cache._CACHE_MIN_SIGNATURES)]
    small = finders._HsLevel(entries[:2], None, set())  # a small database is compiled each time, not stored
    assert not list(tmp_path.iterdir()) and small.db is not None
    first = finders._HsLevel(entries, None, set())
    [path] = [p for p in tmp_path.iterdir() if p.name.startswith("hsdb-")]
    compiled = []
    real = hyperscan.Database

    def counting(*a, **k):  # a database made to be compiled (a loaded one comes from hyperscan.loadb)
        compiled.append(1)
        return real(*a, **k)

    monkeypatch.setattr(hyperscan, "Database", counting)
    line = b"x alpha42 failed beta\n"
    again = finders._HsLevel(entries, None, set())
    assert not compiled and again.scan(line, 0, len(line)) == first.scan(line, 0, len(line)) != []
    raw = path.read_bytes()
    path.write_bytes(raw[:100] + bytes([raw[100] ^ 1]) + raw[101:])
    third = finders._HsLevel(entries, None, set())
    assert compiled and third.scan(line, 0, len(line)) == first.scan(line, 0, len(line))
    assert finders._HsLevel([(b"gamma", LITERAL, {0})], None, set()).scan(line, 0, len(line)) == []


def test_a_bracket_right_after_a_negated_class_opens_is_a_member_not_its_end():
    """literals._regex_chars, the one walk of a regex's text behind regex_structure and regex_classes: `[^])|]` is
    one class (Python reads it so), so its `)` and `|` are no group end and no top-level alternative."""
    from ascend_doctor.triage.match.literals import regex_classes, split_top_level

    assert split_top_level("[^])|]a|b") == ["[^])|]a", "b"]
    assert split_top_level("[a[]|b") == ["[a[]", "b"]
    assert regex_classes(r"a[\]b][^]c]d[]]") == [r"[\]b]", "[^]c]", "[]]"]
