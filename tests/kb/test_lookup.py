"""ascend_doctor/kb/lookup.py: the one index behind explain, kb show and the ids triage prints."""

import pytest

from ascend_doctor.kb import lookup
from ascend_doctor.kb.load import load_knowledge_base
from tests.helpers import run_cli


@pytest.fixture(scope="module")
def kb():
    return load_knowledge_base()


def test_code_families():
    assert lookup.code_family("EI0006") == "cann" and lookup.code_family("ee1002") == "cann"
    assert lookup.code_family("507014") == "acl" and lookup.code_family("ERR99999") == "torch_npu"
    assert lookup.code_family("5070140") is None and lookup.code_family("P13") is None
    assert lookup.is_inner_error("E89999") and lookup.is_inner_error("EE8888") and not lookup.is_inner_error("EI0006")


def test_a_signature_id_wins_over_a_code_it_contains(kb):
    e = lookup.find("CANN_AICORE_TIMEOUT_507014", kb)
    assert e.kind == "signature" and [s.id for s in e.signatures] == ["CANN_AICORE_TIMEOUT_507014"]


def test_a_numeric_code_gets_its_vendor_meaning_even_without_a_signature(kb):
    e = lookup.find("107010", kb)
    assert e.kind == "error_code" and e.info["name"] == "ACL_ERROR_RT_FILE_WRITE" and "unknown" not in e.info
    e = lookup.find("599999", kb)  # not a listed AscendCL code, named by no signature
    assert e.info.get("unknown") and e.signatures == []


def test_every_listed_acl_code_has_a_name_and_meaning():
    codes = lookup.acl_codes()["codes"]
    assert {"107010", "507014", "507018", "507034", "507048", "500002"} <= set(codes)
    assert codes["507014"]["name"] == "ACL_ERROR_RT_AICORE_TIMEOUT" and codes["507015"]["name"].endswith("EXCEPTION")


def test_ascendcls_own_codes_are_listed_as_acl_base_h_numbers_them():
    """AscendCL's own codes (acl_base.h: 100000-100045, 148046-148053, 200000-200007, 300000, 500000-500005) are
    all in the table with the header's constant names, not only the runtime's 107xxx/207xxx/507xxx."""
    codes = lookup.acl_codes()["codes"]
    own = [f"1000{n:02d}" for n in range(46)] + [f"1480{n}" for n in range(46, 54)] + \
        [f"20000{n}" for n in range(8)] + ["300000"] + [f"50000{n}" for n in range(6)]
    assert [c for c in own if c not in codes] == []
    assert codes["100000"]["name"] == "ACL_ERROR_INVALID_PARAM" and codes["100001"]["name"] == "ACL_ERROR_UNINITIALIZE"
    assert codes["100024"]["name"] == "ACL_ERROR_OP_NOT_FOUND" and codes["148053"]["name"] == "ACL_ERROR_INVALID_BUNDLE_MODEL_ID"
    assert codes["100024"]["meaning"] == "single operator not found" and codes["100024"]["meaning_zh"] == "单算子未找到"
    # a meaning no English source gives stays the constant's name (never invented)
    assert codes["148053"]["meaning"] == "ACL_ERROR_INVALID_BUNDLE_MODEL_ID"


def test_a_printed_sentence_gives_its_code_where_one_code_has_it():
    from ascend_doctor.kb.model import DERIVED_VALUES

    got = DERIVED_VALUES["acl_printed"]("Single operator not found.")
    assert got == {"acl_code": "100024", "acl_name": "ACL_ERROR_OP_NOT_FOUND", "acl_meaning": "single operator not found"}
    assert DERIVED_VALUES["acl_printed"]("Failed to apply for memory.") == {"acl_code": "200000/207001/207005"}
    assert DERIVED_VALUES["acl_printed"]("Not a sentence of the table.") == {}
    # a sentence cut by the report (…) is still read by its start
    long = lookup.acl_codes()["codes"]["100039"]["printed"]
    assert DERIVED_VALUES["acl_printed"](long[:100] + "…")["acl_code"] == "100039"


def test_every_acl_code_has_its_chinese_meaning_and_zh_shows_it(kb):
    """Each code has `meaning_zh` (the vendor's Chinese return-code pages) a Chinese reader can send as is; under
    --lang zh explain and a knowledge-base match print it, English keeps the header's comment (issue 27 #9: the
    507014 headline had read "aicore timeout" in a Chinese report)."""
    from ascend_doctor import i18n
    from ascend_doctor.kb.model import DERIVED_VALUES
    from tests.helpers.i18n_support import zh_offenders

    codes = lookup.acl_codes()["codes"]
    bad = [(k, v.get("meaning_zh")) for k, v in codes.items()
           if not v.get("meaning_zh") or not any("\u4e00" <= c <= "\u9fff" for c in v["meaning_zh"])
           or zh_offenders(v["meaning_zh"])]
    assert not bad, bad
    assert codes["507014"]["meaning_zh"] == "AI Core 执行超时"  # a timeout, not an exception (507015)
    assert lookup.in_run_language(codes["507014"]) == "aicore timeout"
    i18n.set_lang("zh")
    try:
        assert lookup.in_run_language(codes["507014"]) == "AI Core 执行超时"
        assert DERIVED_VALUES["acl_code"]("507015")["acl_meaning"] == "AI Core 执行异常"
    finally:
        i18n.set_lang("en")
    assert DERIVED_VALUES["acl_code"]("507015")["acl_meaning"] == "aicore exception"
    zh = run_cli("explain", "507014", "--lang", "zh").stdout
    assert zh.splitlines()[0] == "507014：ACL_ERROR_RT_AICORE_TIMEOUT（AscendCL 返回码）：AI Core 执行超时"


def test_variables_and_verdicts(kb):
    e = lookup.find("hccl_buffsize", kb)
    assert e.kind == "hccl_env" and e.key == "HCCL_BUFFSIZE" and e.info["variable"]["default"] == "200"
    assert lookup.find("HCCL_NOT_A_VARIABLE", kb) is None
    e = lookup.find("cluster_exception_location", kb)
    assert e.kind == "root_cause" and e.info["fix"]
    assert lookup.find("nothing_like_this", kb) is None


def test_an_acl_code_read_only_in_an_error_phrase_goes_to_the_entry_that_reads_it():
    """107027 is named by no entry's id or literal, but ACL_RETURN_CODE reads it ('runtime result = 107027'):
    explain names what triage would print for it; an envelope code stays with the entries that name it."""
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.kb.lookup import find

    kb = load_knowledge_base()
    entry = find("107027", kb)
    assert entry.kind == "error_code" and [s.id for s in entry.signatures] == ["ACL_RETURN_CODE"]
    assert entry.info["name"] == "ACL_ERROR_RT_STREAM_CAPTURED"
    assert "ACL_RETURN_CODE" not in [s.id for s in find("507011", kb).signatures]


def test_a_torch_npu_code_gets_its_sub_module_and_meaning_and_the_entry_that_reads_its_line(kb):
    """ERR01007 (data/torch_npu_error_codes.json): OPS, feature not supported, and what triage names for the line torch_npu
    prints (TORCH_NPU_ERROR_CODE); an envelope code keeps the envelope entry; an unlisted sub-module is not a code."""
    e = lookup.find("ERR01007", kb)
    assert e.kind == "error_code" and [s.id for s in e.signatures] == ["TORCH_NPU_ERROR_CODE"]
    assert e.info["torch_npu"] == {"module": "OPS", "covers": "operators", "name": "NOT_SUPPORT",
                                   "meaning": "feature not supported", "envelope": False}
    assert "NPUException.cpp" in e.info["source"] and "NPUException.cpp" in e.info["source_zh"]
    e = lookup.find("err02011", kb)
    assert e.info["torch_npu"]["module"] == "DIST" and e.info["torch_npu"]["meaning"] == "timeout error"
    e = lookup.find("ERR00100", kb)
    assert e.info["torch_npu"]["envelope"] and [s.id for s in e.signatures][:1] == ["TORCH_NPU_ERR_CODE_WRAPPER"]
    assert lookup.torch_npu_code("ERR07001") is None and lookup.torch_npu_code("01013") is None
    from ascend_doctor import i18n
    from ascend_doctor.kb.model import DERIVED_VALUES

    assert DERIVED_VALUES["tnpu_code"]("02011") == {"tnpu_module": "DIST", "tnpu_covers": "distributed: process "
                                                    "groups, HCCL", "tnpu_meaning": "timeout error"}
    i18n.set_lang("zh")
    try:
        assert DERIVED_VALUES["tnpu_code"]("01007")["tnpu_meaning"] == "功能不支持"
    finally:
        i18n.set_lang("en")
    out = " ".join(run_cli("explain", "ERR01007").stdout.split())
    assert out.startswith("ERR01007: feature not supported (NOT_SUPPORT) in torch_npu's OPS sub-module (operators)")
    zh = "".join(run_cli("explain", "ERR01007", "--lang", "zh").stdout.split())
    assert zh.startswith("ERR01007：torchnpuOPS子模块（算子）的功能不支持（NOT_SUPPORT）".replace("torchnpu", "torch_npu"))
