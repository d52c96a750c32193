"""ACL_RETURN_CODE (data/kb/field_cases.json, pattern written by scripts/build_acl_code_rule.py): a documented
AscendCL return code in a wrapper's error phrase names the code's meaning; a pid, step or size never does, and a code
with an entry of its own or one that only says a call failed is left to those entries."""

import json
import re

import pytest

from ascend_doctor.data import data_path
from ascend_doctor.kb.load import load_knowledge_base
from tests.helpers import script_module

KB = load_knowledge_base()
SIG = KB.signature("ACL_RETURN_CODE")
TABLE = json.load(open(data_path("acl_return_codes.json"), encoding="utf-8"))["codes"]


def _builder():
    return script_module("build_acl_code_rule")


def test_the_pattern_is_what_the_table_and_the_entries_give():
    b = _builder()
    assert SIG.pattern == b.pattern(TABLE, KB.signatures), "run scripts/build_acl_code_rule.py"


def test_it_covers_documented_codes_only_and_leaves_envelopes_and_own_entries_out():
    listed = {c for c in (f"{n:06d}" for n in range(100000, 600000)) if SIG.search(f"runtime result = {c}")}
    assert listed and listed <= set(TABLE)
    assert not any(TABLE[c].get("envelope") for c in listed)
    # own entries: by id (507014, 107002), or a root entry reading the code (507015/507035 CANN_EZ9999_AICORE_EXCEPTION,
    # 561xxx ACLNN_INNER_ERROR_561XXX); envelopes: 507011, 500001
    for own in ("507014", "107002", "161002", "507015", "507035", "561103", "507011", "500001"):
        assert own not in listed
    assert {"107000", "107020", "207001", "207004", "507046", "161001"} <= listed


@pytest.mark.parametrize("line,code", [
    ("synchronize stream failed, runtime result = 507046[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]",
     "507046"),
    ("[ERROR] [Bisheng] Kernel binary register failure! ret 107000", "107000"),
    ("rtMalloc failed, ret:207001", "207001"),
    # PaddleCustomDevice's NPU op runner (PADDLE_ENFORCE_NPU_SUCCESS): 'the error code is : N'
    ("OSError: (External)  ACL error, the error code is : 207001.  (at /paddle/backends/npu/kernels/funcs/"
     "npu_op_runner.cc:443)", "207001"),
    ("RuntimeError: getDeviceCount:NPUFunctions.cpp NPU function error: aclrtGetDeviceCount(&device_count), error code "
     "is 207004", "207004"),
    ("[aclnn_add.cpp:80][NNOP][CheckNotNull][360969] errno[161001] OpName:[aclnnAdd_1] self is null", "161001"),
    ("rtMalloc failed, ErrCode=207001, desc=[memory allocation error]", "207001"),
])
def test_each_wrapper_form_names_the_code_and_its_meaning(line, code):
    assert SIG.search(line)
    title = SIG.text("en", line=line)[0]
    assert code in title and TABLE[code]["name"] in title and TABLE[code]["meaning"] in title


@pytest.mark.parametrize("line", [
    "[INFO] HCCL(507046,python):2024-07-12-10:00:00.000.000 [op_base.cc:100][507046]Entry-HcclCommInitRootInfo",
    "epoch: 3 step: 207000, loss is 0.41",
    "[INFO] RUNTIME(107000,python):2024-07-12 Malloc size=207001 bytes, ret=0",
    "runtime result = 1070001",
    "iteration 561103/600000 | consumed samples: 561103",
    "retCode=0x26, [aicore exception]",
    "[WARNING] GE(207000,python): ret 0 after 107000 ms",
    "[INFO] OP(107020,python):2024-07-12-10:00:00.000.000 [aclnn_add.cpp:80][NNOP][107020] errno[0] OpName:[aclnnAdd_1]",
    "[INFO] RUNTIME(507046,python):2024-07-12 rtMalloc ok, ErrCode=0, size=507046",
    "Load 507046 files failed: 0 (report id 107020)",
    "retcode: 0x507046",
])
def test_numbers_that_are_not_a_returned_code_name_nothing(line):
    assert not SIG.search(line)


def test_without_a_line_the_entry_reads_generically():
    title, cause, fix = SIG.text("en")
    assert "{" not in title + cause + "".join(fix) and "(the number in the line)" in title
    assert not re.search(r"\d{6}", title)


# ---- the more phrases (`also`): every code the vendor documents, in every phrase that puts it in an error context

@pytest.mark.parametrize("line,code", [
    # unified-cache-management's AclrtApi log: a code with an entry of its own that does not read this phrase
    ("[2025-09-02 16:47:06.238344 +08:00] [UCMNFSSTORE] [E] ACL ERROR: api=aclrtMallocHost, code=107002, "
     "caller=MakeBuffer,aclrt_device.cc:106. [380106,381690] [aclrt_device.cc:35,AclrtApi]", "107002"),
    ("RuntimeError: CANN failed with error 100024", "100024"),  # CTranslate2's CANN backend
    ("Initialize: NPU error, error code 100001", "100001"),
    ("aclmdlExecute failed, aclError=100017", "100017"),
    ("aclrtMemcpy failed, ret = 207001", "207001"),
    ("aclopCompile failed with aclError: 148049", "148049"),
])
def test_the_same_code_is_read_in_each_of_its_written_forms(line, code):
    assert SIG.search(line)
    title = SIG.text("en", line=line)[0]
    assert code in title and TABLE[code]["name"] in title and TABLE[code]["meaning"] in title


@pytest.mark.parametrize("line", [
    "[INFO] UCM(1234,python) api=aclrtMallocHost, size=107002, caller=MakeBuffer",
    "epoch 3, step 100024, error code 0",
    "loaded 100000 tokens, ret = 100000",  # `ret = N` counts only right after the call that returned it
    "CANN failed with error 5000011",
    "[INFO] HCCL(100024,python):2024-07-12-10:00:00.000.000 [op_base.cc:100][100024]Entry-HcclCommInitRootInfo",
    "aclError=0, 100024 bytes copied",
])
def test_ordinary_lines_with_the_same_numbers_name_nothing(line):
    assert not SIG.search(line)


def test_an_entry_of_its_own_keeps_the_phrases_it_reads():
    """A code whose specific entry reads a phrase is left out of that phrase here (one place for its cause)."""
    b = _builder()
    specific = [s for s in KB.signatures if s.id not in (b.RULE_ID, b.MESSAGE_ID) and s.kind == "root"
                and not s.fallback]
    for head, samples in b.MORE_FORMS:
        for code in ("507010", "507008"):  # DEVICE_LOST_HEARTBEAT, SOC_VERSION_UNSUPPORTED_507008 read every form
            line = samples[0].format(code)
            assert any(s.search(line) for s in specific)
            assert not any(re.search(p, line) for p in SIG.also), (head, code)


# ---- ACL_ERROR_MESSAGE: the vendor's sentence for a code, as torch_npu prints it after `[Error]: `

MSG = KB.signature("ACL_ERROR_MESSAGE")


def test_its_patterns_are_what_the_table_gives():
    b = _builder()
    assert [MSG.pattern] + list(MSG.also) == b.message_patterns(TABLE), "run scripts/build_acl_code_rule.py"


def test_every_printed_sentence_of_a_documented_fault_names_its_code():
    by_sentence = {}
    for code, v in TABLE.items():
        if v.get("printed") and not v.get("envelope"):
            by_sentence.setdefault(v["printed"], []).append(code)
    assert len(by_sentence) > 100
    for sentence, codes in by_sentence.items():
        line = f"(VllmWorker rank=3 pid=1) ERROR 07-17 08:06:53 [multiproc_executor.py:487] [Error]: {sentence}"
        assert MSG.search(line), sentence
        title = MSG.text("en", line=line)[0]
        if len(codes) == 1:  # one code: its number, constant and meaning
            assert codes[0] in title and TABLE[codes[0]]["name"] in title and TABLE[codes[0]]["meaning"] in title
        else:  # a sentence several codes share names them all, and no one constant
            assert "/".join(sorted(codes)) in title and not any(TABLE[c]["name"] in title for c in codes)


@pytest.mark.parametrize("line", [
    "[Error]: The internal ACL of the system is incorrect.",  # an envelope: says only that something failed
    "[Error]: An internal error occurs in the runtime module on the host. ",
    "NPU warning, error code is 0[Error]: .",
    "[INFO] The device is unavailable. Using CPU instead.",
    "[Error]: The device is unavailable for this user-defined reason",
    "Check whether the device is running properly.",
])
def test_lines_that_are_not_a_documented_fault_message_name_nothing(line):
    assert not MSG.search(line)


def test_the_printed_sentences_are_torch_npus_exactly():
    """Each `printed` sentence ends as torch_npu's table writes it (a full stop), and every code torch_npu's table
    lists in the AscendCL ranges has one."""
    printed = {c for c, v in TABLE.items() if v.get("printed")}
    assert {"100000", "100024", "107001", "207004", "507033", "507901"} <= printed
    assert all(TABLE[c]["printed"].endswith(".") for c in printed)


@pytest.mark.parametrize("line, code, said", [
    # hicann/runtime's rt_error_codes.h codes (ACL graph capture, snapshots, CCU) and AscendCL's own calls (`acl` + a
    # capital) in the `<call> failed, ret = N` form, as the runtime's FAQ pages show them
    ("[ERROR] RUNTIME: operation not permitted when a stream is capturing and the specified capture mode is not "
     "relaxed, ret=107041", "107041", "ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC"),
    ("aclInit failed, ret = 107000", "107000", "ACL_ERROR_RT_PARAM_INVALID"),
    ("aclmdlRICaptureEnd failed, error code is 507915", "507915", "ACL_ERROR_RT_CCU_TIMEOUT"),
])
def test_the_runtimes_newer_codes_and_acl_calls_are_read(line, code, said):
    assert [s.id for s in KB.explaining(line)] == ["ACL_RETURN_CODE"], line
    title = SIG.text("en", line)[0]
    assert code in title and said in title, title
    assert not SIG.search(line.replace(code, "0"))  # a success names nothing
