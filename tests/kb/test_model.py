"""The knowledge base data: its schema rules, and every signature against its own examples and near misses."""

import json
import os
import re

import pytest

from ascend_doctor.data import DataError, data_path
from ascend_doctor.kb.load import load_knowledge_base, parse_knowledge_base
from ascend_doctor.schema import schema_errors

from tests.helpers import REFERENCE, REPO

RAW = json.load(open(data_path("knowledge_base.json"), encoding="utf-8"))
SCHEMA = json.load(open(data_path("knowledge_base.schema.json"), encoding="utf-8"))
KB = load_knowledge_base()
SIG_IDS = [s["id"] for s in RAW["signatures"]]


def _check_value(value, rule, where):
    """Every problem of `value` against a KB schema (the shared validator, ascend_doctor/schema.py)."""
    return schema_errors(value, rule, limit=10 ** 6, where=where)


def test_data_follows_the_schema():
    assert _check_value(RAW, SCHEMA, "knowledge_base") == []


def test_schema_checker_catches_a_broken_entry():
    broken = json.loads(json.dumps(RAW))
    del broken["signatures"][0]["fix"]
    broken["signatures"][1]["severity"] = "fatal"
    problems = _check_value(broken, SCHEMA, "kb")
    assert any("missing field 'fix'" in p for p in problems) and any("'fatal'" in p for p in problems)


def test_ids_unique_pitfalls_known_and_enough_signatures():
    assert len(SIG_IDS) == len(set(SIG_IDS))
    assert len(SIG_IDS) >= 60
    for s in RAW["signatures"]:
        assert s.get("pitfall") is None or s["pitfall"] in RAW["pitfalls"], s["id"]
    assert sorted(RAW["pitfalls"]) == [f"P{i:02d}" for i in range(1, 25)]


def _reference_file(name):
    # conftest's REFERENCE is right for a checkout next to shared/; worktrees live one level deeper
    for base in (REFERENCE, os.path.join(os.path.dirname(os.path.dirname(REFERENCE)), "..", "shared", "reference"),
                 "/work/shared/reference"):
        path = os.path.join(base, name)
        if os.path.isfile(path):
            return path
    pytest.skip(f"reference/{name} is not next to this checkout")


def test_reference_ids_are_kept():
    text = open(_reference_file("error_signatures.md"), encoding="utf-8").read()
    ref_ids = set(re.findall(r"^### ([A-Z0-9_]+)$", text, re.M))
    assert ref_ids, "reference file not found or changed shape"
    assert ref_ids <= set(SIG_IDS), sorted(ref_ids - set(SIG_IDS))


def test_required_coverage_areas():
    comps = {s["component"] for s in RAW["signatures"]}
    assert {"driver", "cann", "hccl", "mindspore", "atc", "cuda", "python"} <= comps
    ids = set(SIG_IDS)
    for needed in ("HCCL_EI0006_SOCKET_TIMEOUT", "CANN_ENV_LIB_NOT_FOUND", "CUDA_LIB_NOT_FOUND", "TORCH_NPU_OOM",
                   "MS_GRAPH_TYPE_JOIN_FAILED", "ATC_E19010_NO_PARSER", "FP16_OVERFLOW_LOSS_NAN",
                   "MS_CANN_VERSION_MISMATCH", "DEV_SETUP_507033", "SETDEVICE_INVALID_ID_107001"):
        assert needed in ids


@pytest.mark.parametrize("sid", SIG_IDS)
def test_signature_matches_its_examples_and_not_its_near_misses(sid):
    sig = KB.signature(sid)
    scanner = KB.scanner()
    index = KB.signatures.index(sig)
    for line in sig.examples:
        assert sig.search(line), f"{sid}: example does not match: {line}"
        assert index in scanner.match_line(line.encode("utf-8")), f"{sid}: the fast scanner misses: {line}"
        assert sig in KB.match_line(line)
    for line in sig.near_misses:
        assert not sig.search(line), f"{sid}: near miss matches: {line}"
        assert index not in scanner.match_line(line.encode("utf-8"))


def test_every_signature_of_ours_has_scanner_anchors():
    from ascend_doctor.triage.match.scanner import Scanner

    assert Scanner(load_knowledge_base(parts=[]).signatures).unanchored == []


MATCHERS = ["python", "re2", "hyperscan"]


def _scanner(matcher, sigs):
    from ascend_doctor.triage.match.scanner import Scanner

    scanner = Scanner(sigs, matchers=[matcher])
    if scanner.matcher != matcher:
        pytest.skip(f"the {matcher} accelerator is not installed here")
    return scanner


@pytest.mark.parametrize("matcher", MATCHERS)
def test_scanner_finds_examples_inside_a_block_of_noise(matcher, monkeypatch):
    from ascend_doctor.triage.match import finders

    monkeypatch.setattr(finders._Re2Finder, "BLOCK", 4096)  # many blocks, hits near their edges
    scanner = _scanner(matcher, KB.signatures)
    noise = b"[INFO] ME(1,1,python):2024-07-12 step 1 done, loss is 2.31\n" * 500
    near = "\n".join(nm for s in KB.signatures for nm in s.near_misses).encode("utf-8") + b"\n"
    lines = [ex for s in KB.signatures for ex in s.examples]
    buf = noise + near + noise + b"\n".join(x.encode("utf-8") for x in lines) + b"\n" + noise + near
    found = [(ls, KB.signatures[i].id) for ls, _, hits in scanner.scan(buf) for i in hits]
    assert {sid for _, sid in found} == {s.id for s in KB.signatures if not s.derived}
    # a matcher only narrows the lines to look at: every matcher gives the same hits on the same lines
    assert found == [(ls, KB.signatures[i].id) for ls, _, hits in _scanner("python", KB.signatures).scan(buf)
                     for i in hits]


def test_hyperscan_agrees_with_python_whatever_line_comes_before_an_example():
    """Every example after another neighbour than above (the examples reversed, each after a near miss): a Hyperscan
    database once lost a line for what the line before it held (tests/triage/match/test_scanner.py's anchors)."""
    scanner = _scanner("hyperscan", KB.signatures)
    nears = [nm for s in KB.signatures for nm in s.near_misses] or ["x"]
    lines = [ex for s in KB.signatures for ex in s.examples][::-1]
    both = [x for k, ex in enumerate(lines) for x in (nears[k % len(nears)], ex)]
    buf = "\n".join(both).encode("utf-8") + b"\n"
    found = [(ls, i) for ls, _, hits in scanner.scan(buf) for i in hits]
    assert found == [(ls, i) for ls, _, hits in _scanner("python", KB.signatures).scan(buf) for i in hits]


def test_bad_data_is_reported_with_the_field():
    bad = json.loads(json.dumps(RAW))
    bad["signatures"][0]["pattern"] = "(unclosed"
    with pytest.raises(DataError, match=r"signatures\[0\].*pattern"):
        parse_knowledge_base(bad, "kb.json")
    bad = json.loads(json.dumps(RAW))
    bad["signatures"][2]["pitfall"] = "P99"
    with pytest.raises(DataError, match="pitfall"):
        parse_knowledge_base(bad, "kb.json")


@pytest.mark.parametrize("matcher", MATCHERS)
def test_every_example_alone_in_noise_is_found(matcher):
    """Line anchors (^Killed$) and hits at a chunk's first or last byte still work inside a chunk."""
    scanner = _scanner(matcher, KB.signatures)
    noise = b"[INFO] ME(1,1,python):2024-07-12 step 1 done, loss is 2.31\n" * 40
    missed = []
    for i, sig in enumerate(KB.signatures):
        for ex in sig.examples:
            raw = ex.encode("utf-8")
            for buf in (noise + raw + b"\n" + noise, raw, raw + b"\n" + noise, noise + raw):
                if i not in {j for _, _, hs in scanner.scan(buf) for j in hs}:
                    missed.append(f"{sig.id}: {ex}")
    assert not missed, missed[:10]


# ---- the Chinese texts of data/knowledge_base.json (issue 13) ----

HAN = re.compile(r"[\u4e00-\u9fff]")
# What a translation must carry over unchanged: code in backticks, $VAR / ${VAR}, `export X=`, paths,
# URLs, UPPER_SNAKE names (variables, our signature ids) and version numbers.
_VERBATIM = [re.compile(r"`[^`]+`"), re.compile(r"\$\{?\w+\}?"), re.compile(r"\bexport \w+="),
             re.compile(r"(?<![\w.`])(?:~|\$\w+|<[\w-]+>)?/[\w.*<>{},@+-]*(?:/[\w.*<>{},@+-]*)+"),
             re.compile(r"https?://[^\s)`'\"，。；）]+"), re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b"),
             re.compile(r"(?<![\w.])\d+(?:\.\d+)+")]


def verbatim_tokens(text):
    return sorted({m.group(0).rstrip(".,;:") for rx in _VERBATIM for m in rx.finditer(text)})


def _carried(token, zh):
    """`token` is in `zh` as written; a placeholder in it (`<smaller MB>`) may be worded in Chinese
    (`<更小的值（MB）>`, issue 27), the command around it may not change."""
    parts = re.split(r"<[^<>]*>", token)
    if len(parts) == 1:
        return token in zh
    return re.search("<[^<>]+>".join(re.escape(p) for p in parts), zh) is not None


def missing_tokens(en, zh):
    return [t for t in verbatim_tokens(en) if not _carried(t, zh)]


def test_the_verbatim_check_catches_a_changed_command():
    en = "Run `npu-smi info -t board -i 0`, then `export HCCL_CONNECT_TIMEOUT=1200` (see /var/log/npu/slog, CANN 8.0)."
    assert missing_tokens(en, "执行 `npu-smi info -t board -i 0`，然后 `export HCCL_CONNECT_TIMEOUT=1200`"
                              "（见 /var/log/npu/slog，CANN 8.0）。") == []
    assert missing_tokens(en, "执行 `npu-smi info`，然后 `export HCCL_CONNECT_TIMEOUT=600`（见 /var/log/npu，CANN 7.0）。") == [
        "/var/log/npu/slog", "8.0", "`export HCCL_CONNECT_TIMEOUT=1200`", "`npu-smi info -t board -i 0`"]
    assert missing_tokens("Set $ASCEND_HOME_PATH and HCCL_EXEC_TIMEOUT.", "设置 ASCEND_HOME_PATH。") == [
        "$ASCEND_HOME_PATH", "HCCL_EXEC_TIMEOUT"]
    # a placeholder is worded in Chinese, the command around it stays
    en = "Or `export HCCL_BUFFSIZE=<smaller MB>`; ping `<peer device ip>` (`/usr/local/cuda-<ver>/lib64`)."
    assert missing_tokens(en, "或 `export HCCL_BUFFSIZE=<更小的值（MB）>`；ping `<对端 Device IP>`"
                              "（`/usr/local/cuda-<版本>/lib64`）。") == []
    assert missing_tokens(en, "或 `export HCCL_BUFSIZE=<更小的值（MB）>`；ping `对端 Device IP`"
                              "（`/usr/local/cuda-<版本>/lib`）。") == [
        "HCCL_BUFFSIZE", "`/usr/local/cuda-<ver>/lib64`", "`<peer device ip>`", "`export HCCL_BUFFSIZE=<smaller MB>`",
        "export HCCL_BUFFSIZE="]


@pytest.mark.parametrize("sid", SIG_IDS)
def test_signature_is_written_in_chinese_with_the_same_commands(sid):
    s = next(x for x in RAW["signatures"] if x["id"] == sid)
    assert all(HAN.search(s.get(k) or "") for k in ("title_zh", "cause_zh")), f"{sid}: title_zh/cause_zh in Chinese"
    zh = s.get("fix_zh") or []
    assert len(zh) == len(s["fix"]), f"{sid}: fix_zh has {len(zh)} steps, fix has {len(s['fix'])}"
    problems = [f"cause: {missing_tokens(s['cause'], s['cause_zh'])}"] if missing_tokens(s["cause"], s["cause_zh"]) else []
    for n, (en, cn) in enumerate(zip(s["fix"], zh), 1):
        if not HAN.search(cn) and verbatim_tokens(cn) != verbatim_tokens(en):
            problems.append(f"step {n}: neither Chinese nor the same command")
        if missing_tokens(en, cn):
            problems.append(f"step {n}: {missing_tokens(en, cn)} not in {cn!r}")
    assert not problems, f"{sid}: " + "; ".join(problems)


def test_pitfalls_are_written_in_chinese():
    for pid, p in RAW["pitfalls"].items():
        assert HAN.search(p.get("title_zh") or "") and HAN.search(p.get("advice_zh") or ""), pid
        assert missing_tokens(p["advice"], p["advice_zh"]) == [], pid
        assert KB.pitfall(pid).text("zh") == (p["title_zh"], p["advice_zh"])


def test_pitfall_zh_fields_of_the_wrong_type_are_one_line_errors():
    for key, value in (("title_zh", ["a list"]), ("advice_zh", 7)):
        bad = json.loads(json.dumps(RAW))
        bad["pitfalls"]["P08"][key] = value
        with pytest.raises(DataError, match=rf"^kb.json: pitfalls.P08.{key}: expected a string, got \w+$"):
            parse_knowledge_base(bad, "kb.json")
    bad = json.loads(json.dumps(RAW))
    del bad["pitfalls"]["P08"]["title_zh"]
    assert parse_knowledge_base(bad, "kb.json").pitfall("P08").text("zh")[0] == RAW["pitfalls"]["P08"]["title"]


def test_a_bad_part_fails_at_every_use_not_only_the_first(tmp_path):
    """The lazy loader must not be dropped by a failed load: the second use raised nothing and matched nothing."""
    import pytest

    from ascend_doctor.kb.load import KbError, load_knowledge_base

    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "ascend-doctor.kb-part/1", "signatures": [{"id": 5}]}')
    kb = load_knowledge_base(parts=[str(bad)])
    for _ in range(2):
        with pytest.raises(KbError):
            kb.signatures


@pytest.mark.parametrize("sig_id", ["HCCL_EI0006_SOCKET_TIMEOUT", "HCCL_LINK_ESTABLISH_TIMEOUT",
                                    "HCCL_EI0013_ROCE_CQE_ERROR", "HCCL_FD_ROCE_RETRANS_EXCEEDED"])
def test_the_hccl_link_errors_name_the_port_commands_that_show_a_bad_port(sig_id):
    """A bad RoCE port surfaces as these HCCL errors; their fix names the hccn_tool queries of the network.* checks,
    in both languages (the commands identical)."""
    sig = next(s for s in KB.signatures if s.id == sig_id)
    for fix in (sig.fix, sig.fix_zh):
        said = " ".join(fix)
        for query in ("-link_stat -g", "-optical -g", "-net_health -g"):
            assert f"hccn_tool -i <id> {query}" in said, (sig_id, query)
        assert "ascend-doctor check --only network" in said


def test_every_signature_has_a_step_of_its_own():
    """A fix made only of steps ten other signatures share (check the card, export the logs, ask support) says
    nothing about this fault: each signature has at least one step specific to it."""
    import collections
    import glob
    import json as _json

    sigs = [s for p in sorted(glob.glob(os.path.join(REPO, "data", "kb", "*.json")))
            for s in _json.load(open(p, encoding="utf-8"))["signatures"]]
    shared = collections.Counter(step for s in sigs for step in set(s["fix"]))
    generic = [s["id"] for s in sigs if s["fix"] and all(shared[step] > 10 for step in s["fix"])]
    assert not generic, generic


def test_lpm_events_are_handled_per_code_never_a_drain_for_all():
    from ascend_doctor.kb.load import load_knowledge_base

    sig = next(s for s in load_knowledge_base().signatures if s.id == "NPU_LPM_FAULT")
    text = "\n".join(sig.fix)
    assert "0x81A44E00 (IMU heartbeat): no action" in text
    assert "0x80E38009 (LPM bus access error): let the training job save a checkpoint" in text
    assert "0x80E3A201 (voltage adjustment): have the server's power supply checked" in text
    assert not any("drain" in step.lower() or "out of scheduling" in step.lower() for step in sig.fix)


# ---- values said in the words: {name|generic words} placeholders (issue 21) ----

def _named_sig(**kw):
    from ascend_doctor.kb.model import Signature

    base = dict(id="MY_MOD", pattern="(?:ModuleNotFoundError|ImportError): No module named '(?P<module>[\\w.]+)'",
                regex=True, component="python", severity="fail",
                cause="The module {module|named in the line|`%s`} is not importable.",
                fix=['Check `python -c "import {module|<module>|%s}"`.'],
                title="A Python module{module|| (`%s`)} is not installed", title_zh="Python 模块{module||（`%s`）}未安装",
                cause_zh="{module|该行中的模块|模块 `%s` }无法导入。", fix_zh=['检查 `python -c "import {module|<module>|%s}"`。'])
    base.update(kw)
    return Signature(**base)


def test_a_placeholder_says_the_captured_value_in_both_languages():
    s = _named_sig()
    line = "ModuleNotFoundError: No module named 'dlinfer'"
    assert s.text("en", line=line) == ("A Python module (`dlinfer`) is not installed",
                                        "The module `dlinfer` is not importable.",
                                        ['Check `python -c "import dlinfer"`.'])
    assert s.text("zh", line=line) == ("Python 模块（`dlinfer`）未安装", "模块 `dlinfer` 无法导入。",
                                        ['检查 `python -c "import dlinfer"`。'])


def test_without_a_value_the_generic_words_are_shown():
    s = _named_sig()
    generic = ("A Python module is not installed", "The module named in the line is not importable.",
               ['Check `python -c "import <module>"`.'])
    assert s.text("en") == generic
    assert s.text("en", line="a line the pattern does not match") == generic
    # the line is cut before the value: the pattern no longer matches, the words stay generic
    assert s.text("en", line="ModuleNotFoundError: No module named 'dlin") == generic


def test_the_engine_never_sees_a_named_group_and_matches_as_before():
    s = _named_sig(also=["No such file or directory: '(?P<module>[\\w.]+)'"])  # the same name in two patterns
    assert s.patterns() == ["(?:ModuleNotFoundError|ImportError): No module named '(?:[\\w.]+)'",
                            "No such file or directory: '(?:[\\w.]+)'"]
    assert s.search("ImportError: No module named 'x'") and not s.search("No module named x")
    assert s.values("No such file or directory: 'hccn_tool'") == {"module": ("hccn_tool", True)}


def test_a_value_is_cut_and_loses_backticks_and_control_characters():
    s = _named_sig(pattern="No module named '(?P<module>[^']+)'")
    title = s.text("en", line="No module named 'a`b\x1bc" + "x" * 100 + "'")[0]
    assert "`" + "abc" + "x" * 56 + "…`" in title and "\x1b" not in title


def test_a_name_loses_the_punctuation_of_the_sentence_around_it_and_a_sentence_keeps_its_own():
    """The precision audit of round 24: titles said `Identity.` and `trans_TransData_8,` (a `[\\w.]+` group ends where
    the line's sentence does)."""
    s = _named_sig(pattern=r"operator (?P<module>\S+) (?P<message>failed[^\n]*)")
    got = s.values("operator Identity. failed to run.")
    assert got["module"] == ("Identity", True) and got["message"] == ("failed to run.", True)
    for raw, shown in (("trans_TransData_8,", "trans_TransData_8"), ("E10001:", "E10001"), ("/data/x.", "/data/x"),
                       ("while...else...", "while...else..."), ("a.b.c", "a.b.c"), ("(x).", "(x)")):
        assert s.values(f"operator {raw} failed")["module"] == (shown, True), raw


def test_an_acl_code_value_brings_the_vendor_meaning():
    s = _named_sig(pattern="runtime result = (?P<acl_code>\\d{6})",
                   title="code {acl_code|N|%s}{acl_name|| (%s)}{acl_meaning|: an error|: %s}")
    assert s.text("en", line="runtime result = 507035")[0] == \
        "code 507035 (ACL_ERROR_RT_VECTOR_CORE_EXCEPTION): vector core exception"
    assert s.text("en", line="runtime result = 999999")[0] == "code 999999: an error"  # not in the table


# The parts whose every signature says its source in Chinese (`source_zh`, issue 27): every shipped part (a new part is
# written with its source_zh).
SOURCE_ZH_PARTS = sorted(n for n in os.listdir(os.path.join(REPO, "data", "kb")) if n.endswith(".json"))
# What a reader must be able to find again in the Chinese: URLs, repository paths, document ids, 0x codes, fault
# ids, file and function names (any word of the English with a digit, '_', '/' or '.' in it, or a backticked
# string). A quoted title may be the vendor's Chinese title (“进程级在线恢复” for 'process-level online recovery').
_URL = re.compile(r"https?://[^\s，。；）)`'\"<>]+")
_TOKEN = re.compile(r"`[^`]+`|[A-Za-z0-9][\w./:@%<>*=+-]*")
_HALF_AFTER_HAN = re.compile(r"[\u4e00-\u9fff][:,()]")
# The project's own bookkeeping, meaningless to a user: research notes, index ids, tickets.
_INTERNAL_ID = re.compile(r"(?i)\bindex ?id\b|stored code index|\bissue \d+|\(issue|reference/\w+\.md|\bround \d+\b")


def _tokens(source: str):
    out = {u.rstrip(".;,:") for u in _URL.findall(source)}  # a URL ends before its sentence's colon
    rest = _URL.sub(" ", source)
    for tok in _TOKEN.findall(rest):
        tok = tok if tok.startswith("`") else tok.rstrip(".:,;")
        if tok.startswith("`") or re.search(r"[\d_/.]", tok):
            out.add(tok)
    return out


def _part_signatures(name):
    return json.load(open(os.path.join(REPO, "data", "kb", name), encoding="utf-8"))["signatures"]


@pytest.mark.parametrize("name", SOURCE_ZH_PARTS)
def test_every_signature_says_its_source_in_chinese_with_the_same_citations(name):
    han = re.compile(r"[\u4e00-\u9fff]")
    problems = []
    for s in _part_signatures(name):
        zh, en = s.get("source_zh", ""), s["source"]
        if not han.search(zh):
            problems.append(f"{s['id']}: source_zh missing or not Chinese")
            continue
        missing = sorted(t for t in _tokens(en) if t not in zh)
        if missing:
            problems.append(f"{s['id']}: source_zh lacks {missing}")
        plain = re.sub(r"`[^`]*`|https?://\S+", " ", zh)
        if _HALF_AFTER_HAN.search(plain):
            problems.append(f"{s['id']}: half-width mark after Chinese: {_HALF_AFTER_HAN.search(plain).group()!r}")
        for text in (en, zh):
            if _INTERNAL_ID.search(text):
                problems.append(f"{s['id']}: internal id {_INTERNAL_ID.search(text).group()!r} in {text[:60]!r}")
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems[:30])


def test_the_citation_check_finds_a_lost_token_and_an_internal_id():
    en = "npu-smi reference 'npu-smi set -t reset' (hiascend.com npusmi_074); driver source verylucky01/driver " \
         "(`Time out. (dev_id=%u)`) 0x80E01801 https://www.hiascend.com/document/a_1.html; index id 5504409409"
    assert {"npusmi_074", "verylucky01/driver", "`Time out. (dev_id=%u)`",
            "0x80E01801", "https://www.hiascend.com/document/a_1.html", "hiascend.com"} <= _tokens(en)
    assert _INTERNAL_ID.search(en) and not _INTERNAL_ID.search("ascend-fd kg-config.json：0x80E01801")
    assert _HALF_AFTER_HAN.search("复位芯片(npusmi_074)") and not _HALF_AFTER_HAN.search("复位芯片（npusmi_074）")


def test_a_chinese_source_is_shown_in_chinese_and_the_english_elsewhere():
    from ascend_doctor import i18n
    from ascend_doctor.triage.result import shown_source

    sig = next(s for s in KB.signatures if s.source_zh and "kg-config.json" in s.source)
    try:
        i18n.set_lang("zh")
        zh = shown_source(sig)
        assert zh.startswith("ascend-fd 知识库（github.com/Ascend/mind-cluster，") and "（日志匹配字符串）" in zh
        assert "telling" not in zh and sig.public_source("zh") == sig.public_source()
        # an entry without source_zh keeps its English citations, the reference tool's knowledge base named in
        # Chinese and without the notes' words
        plain = type(sig)(id="X", pattern="x", regex=False, component="npu", severity="fail", cause="c", fix=["f"],
                          source="ascend-fd kg-config.json AISW_CANN_HCCL_006 (telling strings)")
        assert shown_source(plain) == "ascend-fd 知识库（github.com/Ascend/mind-cluster，component/ascend-faultdiag/" \
                                      "src/ascend_fd/configuration/kg-config.json）：AISW_CANN_HCCL_006"
        # the ids a report prints on their own line are not repeated after the knowledge base
        assert shown_source(plain, ["AISW_CANN_HCCL_006"]).endswith("kg-config.json）")
        assert shown_source(plain, ["AISW_CANN_HCCL_007"]).endswith("AISW_CANN_HCCL_006")
    finally:
        i18n.set_lang("en")
    en = shown_source(sig)
    assert en.startswith("ascend-fd knowledge base (github.com/Ascend/mind-cluster, ") and "知识库" not in en
    assert shown_source(plain).endswith(") AISW_CANN_HCCL_006 (telling strings)")
    assert shown_source(plain, ["AISW_CANN_HCCL_006"]).endswith("kg-config.json)")


# `kernel` where it names a thing of the log or the code (kept), not the vendor's 算子 / 算子任务 in running prose.
_KERNEL_KEPT = re.compile(r"kernel name|kernel_\w+|kernel\.\w+|\w+_kernel\w*|（Kernels）|Kernels 包?")
_QUOTED = re.compile(r"`[^`]*`|“[^”]*”|\"[^\"]*\"")
_EN_PLACEHOLDER = re.compile(r"<[A-Za-z]+(?: [A-Za-z0-9]+)+>|<[^<>]*\b(?i:peer|remote) device ip>")  # <smaller MB>, <peer device ip>


@pytest.mark.parametrize("name", SOURCE_ZH_PARTS)
def test_the_chinese_texts_of_the_translated_parts_use_the_vendors_terms(name):
    """Review s3 #5, #6, #9, #12, #18, N11: `kernel` in prose, 挂住, 拿不到, 主机/设备 beside Host侧/Device侧 and English
    placeholders, in the title, cause and fix of these parts."""
    problems = []
    for s in _part_signatures(name):
        for text in [s.get("title_zh") or "", s.get("cause_zh") or ""] + list(s.get("fix_zh") or []):
            prose = _KERNEL_KEPT.sub(" ", _QUOTED.sub(" ", text))
            found = [w for w in ("挂住", "拿不到", "根本没", "主机/设备", "设备/主机", "主机与设备", "NPU 网卡")
                     if w in text]
            found += ["kernel"] if re.search(r"(?i)\bkernel\b", prose) else []
            found += _EN_PLACEHOLDER.findall(text)
            if found:
                problems.append(f"{s['id']}: {found} in {text[:80]!r}")
    assert not problems, "\n".join(problems[:30])


def test_a_line_is_explained_by_its_specific_entry_before_a_class_entry_before_a_wrapper():
    from ascend_doctor.kb.model import yield_to_specific

    # indexes 1, 2 wrappers; 3 a class entry (fallback); 4 specific
    assert yield_to_specific([1, 3, 4], {1, 2}, {1, 2, 3}) == [4]
    assert yield_to_specific([1, 3], {1, 2}, {1, 2, 3}) == [3]
    assert yield_to_specific([1, 2], {1, 2}, {1, 2, 3}) == [1, 2]
    # 5 a class entry of last resort (it only restates a code): it gives way to another class entry, not to a wrapper
    assert yield_to_specific([1, 3, 5], {1, 2}, {1, 2, 3, 5}, {5}) == [3]
    assert yield_to_specific([1, 5], {1, 2}, {1, 2, 5}, {5}) == [5]
    assert yield_to_specific([3, 4, 5], {1, 2}, {1, 2, 3, 5}, {5}) == [4]
    line = "RuntimeError: copy:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:88 NPU function error: call " \
           "aclnnInplaceCopy failed, error code is 561103"
    every = [s.id for s in KB.match_line(line)]
    assert "ACLNN_OPERATOR_CALL_FAILED" in every  # the class reads the line ...
    shown = [s.id for s in KB.explaining(line)]
    assert "ACLNN_OPERATOR_CALL_FAILED" not in shown and shown  # ... and gives way to the 561xxx entry


def test_class_entries_are_roots_marked_fallback_and_say_their_values():
    fallbacks = [s for s in KB.signatures if s.fallback]
    assert {s.id for s in fallbacks} >= {"CANN_MODULE_FAILURE_CODE", "ACLNN_OPERATOR_CALL_FAILED",
                                         "CANN_RUNTIME_CALL_FAILED", "HCCL_FUNCTION_ERROR_RESULT"}
    assert all(s.kind == "root" for s in fallbacks)
    sig = KB.signature("HCCL_FUNCTION_ERROR_RESULT")
    values = sig.values("HCCL function error: HcclCommInitRootInfoConfig(n, &r, rank, c, &comm), error code is 15")
    assert values["hccl_name"][0] == "HCCL_E_RUNTIME" and values["hccl_meaning"][0] == "call runtime api fail"
    assert sig.values("HCCL function error: HcclSend(a, b), error code is 99").get("hccl_name") is None


def test_an_hccl_errno_is_read_as_its_hccl_result():
    sig = KB.signature("HCCL_ERRNO_RESULT")
    line = ("[ERROR] HCCL(60570,):2025-12-04-14:46:07.911.325 [hccl_comm.cc:115] [60570][HcclComm][Init]"
            "errNo[0x0000000005000007] hccl initialize failed")
    values = sig.values(line)
    assert values["hccl_code"][0] == "7" and values["hccl_name"][0] == "HCCL_E_UNAVAIL"
    # HCOM's sub-module (0x0501....) carries the same HcclResult in its low bits
    assert sig.values(line.replace("0x0000000005000007", "0x0000000005010009"))["hccl_name"][0] == "HCCL_E_TIMEOUT"
    assert not sig.search(line.replace("[ERROR]", "[INFO]"))


def test_the_code_and_its_sentence_give_way_to_an_entry_that_reads_the_fault_on_that_line():
    # CANN_ERROR_CODE_MESSAGE says that no entry reads a more specific fault on its line: where one does (here the
    # operator without a binary), it is not reported, in triage as in `kb match`
    line = ("EZ9999: [PID: 775] 2025-02-16-12:18:25.258.321 Cannot find bin of op Range, integral key "
            "0/1/|int64/ND/int64/ND/int64/ND/int64/ND/.")
    assert "CANN_ERROR_CODE_MESSAGE" in [s.id for s in KB.match_line(line)]
    assert [s.id for s in KB.explaining(line)] == ["OP_KERNEL_BINARY_NOT_FOUND"]
    # a code the vendor's catalogue lists is read with the catalogue's words (CANN_CATALOGUED_ERROR_CODE); one it does
    # not list (EC0010) keeps the entry of last resort
    listed = "EL0003: [PID: 4242] 2025-09-25-10:11:12.123.456 The argument is invalid."
    assert [s.id for s in KB.explaining(listed)] == ["CANN_CATALOGUED_ERROR_CODE"]
    alone = listed.replace("EL0003", "EC0010")
    assert [s.id for s in KB.explaining(alone)] == ["CANN_ERROR_CODE_MESSAGE"]
    assert KB.signature("CANN_ERROR_CODE_MESSAGE").last_resort


def test_a_long_signatures_patterns_compiled_one_by_one_behind_their_literals_answer_as_the_whole_alternation():
    """bytes_matcher's prefilter (the scanner plan's `pre` for signatures of long patterns): a pattern is compiled and
    tried only where the line holds one of its required literals; the answers are those of the one alternation."""
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.kb.model import _LazyPatterns
    from ascend_doctor.triage.match.finders import PREFILTER_MIN_CHARS
    from ascend_doctor.triage.match.literals import required_literals

    kb = load_knowledge_base()
    long = [s for s in kb.signatures if sum(len(p) for p in s.patterns()) >= PREFILTER_MIN_CHARS]
    assert long
    lines = [x for s in kb.signatures for x in s.examples + s.near_misses]
    for sig in long:
        pre = [required_literals(p) for p in sig.split_codes()[0]]
        lazy, whole = sig.bytes_matcher(pre), sig.bytes_matcher()
        for line in lines:
            raw = line.encode("utf-8")
            assert lazy(raw) == whole(raw), (sig.id, line)
    # a pattern whose literal the line lacks is never compiled
    got = _LazyPatterns(["alpha \\d+", "beta \\d+"], [["alpha "], ["beta "]])
    assert got.search(b"beta 12") is not None and got.compiled[0] is None and got.compiled[1] is not None
    assert got.search(b"gamma 1") is None


def test_a_fail_that_needs_a_mark_is_a_warning_on_an_unmarked_line_and_other_entries_keep_their_severity():
    from ascend_doctor.kb.model import Signature

    def sig(**kw):
        return Signature(id="X", pattern="exceeds system limit", regex=True, component="cann", cause="c", fix=["f"],
                         **kw)

    assert sig(severity="fail", fail_needs_mark=True).severity_on("size exceeds system limit") == "warn"
    assert sig(severity="fail", fail_needs_mark=True).severity_on("[ERROR] size exceeds system limit") == "fail"
    assert sig(severity="fail", fail_needs_mark=True).severity_on(None) == "fail"  # no line: the entry's own
    assert sig(severity="fail").severity_on("size exceeds system limit") == "fail"
    assert sig(severity="info", fail_needs_mark=True).severity_on("size exceeds system limit") == "info"


def test_a_last_resort_fail_is_a_warning_on_a_line_logged_below_the_error_level():
    from ascend_doctor.kb.model import Signature

    def sig(**kw):
        return Signature(id="X", pattern=r"errno[ =:]{1,3}\d+", regex=True, component="os", cause="c", fix=["f"], **kw)

    last = sig(severity="fail", fallback=True, last_resort=True)
    assert last.graded and not sig(severity="fail").graded and not sig(severity="warn", last_resort=True).graded
    for line in ("[INFO] HCCL(507010,python):2024-07-12-10:20:00.000.000 socket connect errno=113 retry 3",
                 "[WARNING] HCCL(1,python):2024-07-12-10:20:00.000.000 send failed, errno=104",
                 "I0712 10:20:00.000 123 socket.cc:10] connect errno=111, retrying",
                 "2024-07-12 10:20:00,123 - INFO - downloader: errno 104, retrying",
                 "INFO 07-12 10:20:00 [engine.py:10] errno=11 on read, retrying"):
        assert last.severity_on(line) == "warn", line
        assert last.severity_on(line, marked=True) == "fail"  # the next line of an exception's message
    for line in ("open failed, errno=116", "[ERROR] HCCL(1,python):2024-07-12-10:20:00.000.000 connect errno=113",
                 "E0712 10:20:00.000 123 socket.cc:10] connect errno=111"):
        assert last.severity_on(line) == "fail", line
    assert sig(severity="fail").severity_on("[INFO] x errno=5") == "fail"  # only graded entries
