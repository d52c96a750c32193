"""data/kb/families_cann_codes.json and data/cann_error_codes.json: CANN's own error-code catalogue as one mechanism
(issue 21). The table is the vendor's error_code.json (hicann/runtime src/dfx/error_manager) as
scripts/build_cann_error_codes.py writes it; CANN_CATALOGUED_ERROR_CODE reads a catalogued code in the printer's forms
and says the code, its errTitle in words, the message, and the catalogue's cause and solution (in Chinese from the
code's Chinese page where one was read, else the vendor's English text said as such). Codes the catalogue does not
list stay with the entries of last resort, inner errors with the inner-error entry, and an entry of its own for a code
keeps winning on its line."""

import json

import pytest

from ascend_doctor.data import load_data_file
from ascend_doctor.kb.lookup import cann_code, cann_text
from tests.helpers import run_cli, script_module
from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, family_overlaps, part_ids

IDS = part_ids("families_cann_codes")
RULE = "CANN_CATALOGUED_ERROR_CODE"
EE1013 = ("EE1013: [PID: 34900] 2025-09-17-06:54:37.308.527 Failed to allocate 4096 bytes of host memory via "
          "rtMallocHost to Runtime.")


def _script():
    return script_module("build_cann_error_codes")


@pytest.fixture(scope="module")
def kb():
    return english_kb()


@pytest.fixture(autouse=True)
def _english():
    from ascend_doctor.i18n import get_lang, set_lang

    was = get_lang()
    set_lang("en")
    yield
    set_lang(was)


def test_the_table_is_the_vendors_catalogue_with_its_commit():
    table = load_data_file("cann_error_codes.json")
    codes = table["codes"]
    assert len(codes) >= 400
    ee1013 = codes["EE1013"]
    assert ee1013["class"] == "RTS Errors" and ee1013["title"] == "Resource_Error_Insufficient_Host_Memory"
    assert ee1013["words"] == "resource error: insufficient host memory"
    assert ee1013["message"] == "Failed to allocate %s bytes of host memory via %s to Runtime."
    assert ee1013["cause"] == "Allocation failed due to insufficient host memory."
    # the runtime's catalogue, and GE's (the E1xxxx codes of ATC and the graph engine, a raw string in GE's source)
    files = {"https://github.com/hicann/runtime/blob/": "/src/dfx/error_manager/error_code.json",
             "https://github.com/hicann/ge/blob/": "/base/common/error_registry/error_registry.cc"}
    # and the operator libraries' (hicann/opbase: the EZ00xx operator checks, aclnn's EZ10xx)
    opbase = ("/src/op_common/log/log.cpp", "/src/nnopbase/composite_op/log/op_error_manager.cpp")
    for code, known in codes.items():
        assert any(known["file"].startswith(head) and known["file"].endswith(tail) for head, tail in files.items()) or (
            known["file"].startswith("https://github.com/hicann/opbase/blob/") and known["file"].endswith(opbase)), code
        assert known["message"].count("%s") <= max(len(known["args"]), 1) * 2, code
        assert ("words" in known) == ("title" in known), code
    # a Chinese cause and solution come from a Chinese page of the code's own repository, and say which
    zh = [c for c, k in codes.items() if "cause_zh" in k or "solution_zh" in k]
    assert zh and all(codes[c]["page_zh"].startswith(codes[c]["file"].split("/blob/")[0] + "/blob/") for c in zh)
    assert codes["EH0010"]["cause_zh"] == "Host 内存不足导致内存分配失败。"  # the page writes "Host内存"
    e10016 = codes["E10016"]
    assert e10016["class"] == "GE Errors" and e10016["words"] == "invalid argument: operator name"
    assert e10016["message"].startswith("Op name %s specified in --%s is not found in the model.")
    assert e10016["solution_zh"] == "指定 Graph 中已有节点的名称。"
    assert "/docs/zh/user_guides/error_codes/E10016-" in e10016["page_zh"]


def test_the_build_script_reads_a_catalogue_and_its_pages():
    mod = _script()
    listed = {"error_info_list": [
        {"errClass": "RTS Errors", "errTitle": "Execution_Error_Stream_Synchronize_Timeout", "ErrCode": "EE1002",
         "ErrMessage": "Stream synchronize timeout. %s", "Arglist": "reason",
         "suggestion": {"Possible Cause": "The timeout  interval is improper.", "Solution": "N/A"}},
        {"ErrCode": "E50058", "errTitle": "Invalid_Argument", "ErrMessage": "In op [%s], [%s]",
         "Arglist": "op_name,description"},
        {"ErrCode": "not a code", "ErrMessage": "x", "Arglist": ""}]}
    other = {"error_info_list": [{"ErrCode": "EE1002", "ErrMessage": "another file's text", "Arglist": ""},
                                 {"ErrCode": "EX0001", "errTitle": "Device_Absent/Abnormal", "ErrMessage": "Gone.",
                                  "Arglist": ""}]}
    files = [{"repo": "hicann/runtime", "path": "a/error_code.json", "commit": "1" * 40, "text": json.dumps(listed)},
             {"repo": "hicann/other", "path": "b/error_code.json", "commit": "2" * 40, "text": json.dumps(other)}]
    pages = {"docs/zh/error_code_ref/RTS-Errors/EE1002-Execution_Error_Stream_Synchronize_Timeout.md":
             "# EE1002\n\n## 错误信息\n\n```\nStream synchronize timeout. %s\n```\n\n## 可能原因\n\nStream同步的超时时间间隔设置不合理。\n\n"
             "## 解决方法\n\n1. 需调整超时时间。\n2. 检查网络是否正常，或执行`ping -c 3 <ip>`。\n",
             "docs/en/error_code_ref/RTS-Errors/EE1002-Execution_Error_Stream_Synchronize_Timeout.md":
             "# EE1002\n\n## Solution\n\n1. Check the\\_timeout.\n"}
    table = mod.build(files, pages, "hicann/runtime", "1" * 40)
    # GE keeps its catalogue as a raw string in a source file; its pages are listed as OWNER/REPO:PATH
    source = 'namespace {\nconst std::string ge_error_code = R"(' + json.dumps({"error_info_list": [
        {"errClass": "GE Errors", "errTitle": "Invalid_Argument", "ErrCode": "E10004",
         "ErrMessage": "Value for --%s is empty.", "Arglist": "parameter"}]}) + ')";\n}'
    ge = mod.build([{"repo": "hicann/ge", "path": "e.cc", "commit": "3" * 40, "text": source}],
                   {"hicann/ge:docs/zh/user_guides/error_codes/E10004-Invalid_Argument.md": "## 解决方法\n\n设置参数。\n"},
                   "hicann/runtime", "1" * 40, {"hicann/ge": "3" * 40})["codes"]["E10004"]
    assert ge["message"] == "Value for --%s is empty." and ge["solution_zh"] == "设置参数。"
    assert ge["page_zh"] == "https://github.com/hicann/ge/blob/" + "3" * 40 + "/docs/zh/user_guides/error_codes/E10004-Invalid_Argument.md"
    codes = table["codes"]
    assert sorted(codes) == ["E50058", "EE1002", "EX0001"]  # the first file naming a code wins; a non-code is skipped
    ee1002 = codes["EE1002"]
    assert ee1002["words"] == "execution error: stream synchronize timeout"
    assert ee1002["words_zh"] == "执行错误：Stream 同步超时"
    assert ee1002["cause"] == "The timeout interval is improper."  # spaces folded
    assert ee1002["solution"] == "1. Check the_timeout."  # N/A dropped, the English page fills it
    # a space between a Chinese character and a Latin word (the house style); a command in backticks kept as written
    assert ee1002["cause_zh"] == "Stream 同步的超时时间间隔设置不合理。"
    assert ee1002["solution_zh"] == "1. 需调整超时时间。 2. 检查网络是否正常，或执行`ping -c 3 <ip>`。"
    assert ee1002["page_zh"].startswith("https://github.com/hicann/runtime/blob/" + "1" * 40 + "/docs/zh/")
    assert codes["EX0001"]["file"] == "https://github.com/hicann/other/blob/" + "2" * 40 + "/b/error_code.json"
    assert codes["EX0001"]["words"] == "device absent or abnormal"
    assert "cause" not in codes["E50058"] and codes["E50058"]["args"] == ["op_name", "description"]
    # the entry reads errors only: not a warning, not an inner error
    assert mod.rule_codes({"codes": {"EE1002": {}, "EZ9999": {}, "W40010": {}, "EE8888": {}}}) == ["EE1002"]


def test_the_entrys_pattern_is_what_the_table_gives():
    assert _script().main(["--check"]) == 0


def test_every_errtitle_of_the_table_has_chinese_words():
    codes = load_data_file("cann_error_codes.json")["codes"]
    assert [c for c, k in codes.items() if "title" in k and "words_zh" not in k] == []


@pytest.mark.parametrize("line", [
    EE1013,
    # the one-line form (after a caller's prefix, inside an exception's message), the typed form, an inner error's
    # message line, an indented line of a TraceBack, `error code`, an ERROR-level line
    "CANN error: EE1013: [PID: 1] 2025-01-01-00:00:00.000.000 Failed to allocate 64 bytes of host memory via malloc to Runtime.",
    "RuntimeError: NPU function error: aclrtMallocHost(&ptr, size) failed. EE1013: Failed to allocate 64 bytes of host "
    "memory via malloc to Runtime.",
    "[PID: 1] 2025-01-01-00:00:00.000.000 Resource_Error_Insufficient_Host_Memory(EE1013): Failed to allocate 64 bytes",
    "        EE1013: [PID: 1] 2025-01-01-00:00:00.000.000 Failed to allocate 64 bytes of host memory via malloc to Runtime.",
    "ACL call failed, error code EE1013",
    "[ERROR] RUNTIME(1,python):2025-01-01-00:00:00.000.000 [api.cc:1]1 report error EE1013",
])
def test_a_catalogued_code_is_read_in_the_printers_forms(kb, line):
    assert RULE in [s.id for s in kb.explaining(line)], line
    title = kb.signature(RULE).text("en", line)[0]
    assert title.startswith("CANN error EE1013, resource error: insufficient host memory: "), title


def test_the_runtimes_errorcode_form_keeps_the_message_before_the_code(kb):
    # CANN 9's runtime prints `<message>. ErrorCode=<code>.` (its error-code guide's 打屏效果), also after a log prefix
    sig = kb.signature(RULE)
    line = ("[ERROR] RUNTIME(1,python):2026-01-01-00:00:00.000.000 [api_impl.cc:1904]1 Setting the stream error "
            "reporting mode failed. Reason: Changing stream 15 from stop mode to continue mode is not supported. "
            "ErrorCode=EE1016.")
    assert [s.id for s in kb.explaining(line)] == [RULE]
    assert sig.text("en", line)[0].startswith("CANN error EE1016, not supported: Setting the stream error reporting "
                                              "mode failed. Reason: Changing stream 15")
    line = "Failed to allocate 4096 bytes of host memory via new to Runtime. ErrorCode=EE1013."
    assert sig.text("en", line)[0] == ("CANN error EE1013, resource error: insufficient host memory: Failed to "
                                       "allocate 4096 bytes of host memory via new to Runtime")


@pytest.mark.parametrize("line, code, words", [
    # a catalogued sentence without its code (a TraceBack's line, a caller that prints only the message) names the
    # code whose template it is, when the template's fixed text is the vendor's own sentence
    ("        Compile operator failed, cause: Template constraint, detailed information: bf16 is not supported on "
     "Ascend910A.", "E90003", "inner error: compile fail"),
    ("Failed to bind stream (stream_id=15). Reason: The current stream has been bound to a model (model_id=1) and "
     "cannot be bound to the input model (model_id=2).", "EE1007", "resource error: bind stream"),
    ("The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify "
     "record from remote rank: [1]. base information: [x]. task information: [y]. group information: [z].", "EI0002",
     "communication error: timeout"),
    # templates whose text before the first value is short ("Failed to allocate"), read by their longest fixed piece
    ("Failed to allocate 2048 bytes of host memory via malloc to ACL.", "EH0010",
     "resource error: insufficient host memory"),
    ("Unsupported Python version: 3.6.8. Expected: 3.7.5 or later.", "E40002",
     "environment error: incorrect Python version"),
])
def test_a_catalogued_sentence_names_its_code(kb, line, code, words):
    sig = kb.signature(RULE)
    assert sig.search(line)
    assert sig.text("en", line)[0].startswith(f"CANN error {code}, {words}: "), sig.text("en", line)[0]


def test_a_sentence_several_codes_share_names_them_all_and_short_ones_name_none(kb):
    sig = kb.signature(RULE)
    line = "The current system or device does not support Aborting the model running instance."
    assert sig.text("en", line)[0].startswith("CANN error EE1005/EH0011/EK0004: The current system")
    for ordinary in ("The resources are insufficient.", "Device not found or invalid.",
                     "[INFO] Failed to bind stream (stream_id=15). Reason: retry later",
                     "Compile operator failed, cause: see above; retrying with another tiling"[:20]):
        assert not sig.search(ordinary), ordinary


def test_the_title_cause_and_fix_are_the_catalogues(kb):
    sig = kb.signature(RULE)
    title, cause, fix = sig.text("en", EE1013)
    assert title == ("CANN error EE1013, resource error: insufficient host memory: Failed to allocate 4096 bytes of "
                     "host memory via rtMallocHost to Runtime.")
    assert "lists under RTS Errors as resource error: insufficient host memory" in cause
    assert cause.endswith("The catalogue's possible cause: Allocation failed due to insufficient host memory.")
    assert fix[0] == ("The vendor's solution: Ensure that there is sufficient memory available. You can stop "
                      "unnecessary processes to free up memory.")
    assert "`ascend-doctor explain EE1013`" in fix[1]
    # no message on the line: the catalogue's template says what it would be
    title = sig.text("en", "ACL call failed, error code EE1013")[0]
    assert title.endswith(": Failed to allocate … bytes of host memory via … to Runtime.")


def test_the_chinese_texts_are_the_pages_or_the_vendors_english_said_as_such(kb):
    from ascend_doctor.i18n import set_lang

    sig = kb.signature(RULE)
    set_lang("zh")
    line = EE1013.replace("EE1013", "EH0010").replace("Runtime", "ACL")
    title, cause, fix = sig.text("zh", line)
    assert title.startswith("CANN 错误 EH0010（资源错误：Host 内存不足）：`Failed to allocate 4096 bytes")
    assert cause.endswith("该目录给出的可能原因：Host 内存不足导致内存分配失败。")
    assert fix[0] == "厂商给出的解决方法：确保有足够的可用内存。您可以停止不必要的进程以释放内存。"
    # EE1013 has no Chinese page read: its cause is the vendor's English text, said to be so
    title, cause, fix = sig.text("zh", EE1013)
    assert cause.endswith("该目录给出的可能原因：（厂商英文原文）`Allocation failed due to insufficient host memory.`")
    assert cann_text(cann_code("EE1013"), "words") == "资源错误：Host 内存不足"
    # the entry itself keeps both languages (a saved explain JSON is worded again in either)
    assert cann_code("EE1013")["words"] == "resource error: insufficient host memory"
    assert cann_code("EE1013")["words_zh"] == "资源错误：Host 内存不足"


def test_explain_answers_from_the_catalogue():
    out = run_cli("explain", "EE1013", "--lang", "en").stdout
    assert out.startswith("EE1013: resource error: insufficient host memory (RTS Errors in CANN's\n  error-code "
                          "catalogue)\n")
    assert "Possible cause: Allocation failed due to insufficient host memory." in out
    assert RULE in out and "hicann/runtime src/dfx/error_manager/error_code.json" in out
    data = json.loads(run_cli("explain", "EE1013", "--format", "json", "--lang", "en").stdout)
    assert data["code"]["cann"]["title"] == "Resource_Error_Insufficient_Host_Memory"
    assert [s["id"] for s in data["signatures"]] == [RULE]
    zh = run_cli("explain", "EH0010", "--lang", "zh").stdout
    assert "可能原因：Host 内存不足导致内存分配失败。" in zh and "资源错误：Host 内存不足" in zh
    # an inner error keeps its entry first
    inner = json.loads(run_cli("explain", "EZ9999", "--format", "json", "--lang", "en").stdout)
    assert inner["signatures"][0]["id"] == "CANN_INNER_ERROR_X9999"


@pytest.mark.parametrize("line, want", [
    # an entry of its own for the code or the message wins on its line
    ("[PID: 210907] 2026-04-09-21:56:40.384.694 Memory_Allocation_Failure(EL0004): Failed to allocate memory "
     "requested by GE module.", "CANN_EL0004_MEMORY_ALLOC"),
    # a code the catalogue does not list stays with the entry of last resort
    ("EC0010: [PID: 4242] 2025-09-25-10:11:12.123.456 The argument is invalid.", "CANN_ERROR_CODE_MESSAGE"),
    ("[PID: 1] 2026-01-01-00:00:00.000.000 Some_Error(E19010): something failed here", "CANN_TYPED_ERROR_CODE"),
])
def test_other_entries_keep_their_lines(kb, line, want):
    got = [s.id for s in kb.explaining(line)]
    assert want in got and RULE not in got, got


@pytest.mark.parametrize("line", [
    "EZ9999: Inner Error!",
    "EE9999: [PID: 1] 2025-01-01-00:00:00.000.000 rtStreamSynchronize execute failed",
    "[WARNING] W40010: Value 1 for environment variable ASCEND_X is invalid.",
    "[INFO] GE(1234,python):2024-07-12-10:00:00.000.000 E10001: is the code of an invalid parameter value",
    "[INFO] RUNTIME(1,python):2025-01-01-00:00:00.000.000 error code EE1013 registered",
    "epoch: 1 step: 100, EE1013 bytes",
    "Error codes: Memory_Allocation_Failure(EL0004) means the device memory is exhausted",
    "[rank0]:[W112 17:47:35.395380423 CopyKernelOpApi.cpp:57] Warning: EZ1001: [PID: 1096] 2026-01-12-17:47:35.819.675 "
    "The argument is invalid.",
    "see https://example.com/EE1013.html for the table",
])
def test_ordinary_lines_and_inner_errors_are_not_read(kb, line):
    assert not kb.signature(RULE).search(line), line


@pytest.mark.parametrize("line, said", [
    # GNU ld's undefined reference to a CANN symbol: the program's own call (hicann/runtime's FAQ: headers and library
    # of different CANN versions, or the library not linked), or a CANN library's reference to the driver's
    ("/usr/bin/ld: main.o: in function `main': main.cpp:(.text+0x1c): undefined reference to `aclInit'",
     "undefined reference to `aclInit`"),
    ("/usr/local/Ascend/acllib/lib64/libruntime.so: undefined reference to `drvStreamIdFree'",
     "undefined reference to `drvStreamIdFree` from libruntime.so: the NPU driver's or CANN's library it needs was not "
     "found at link time"),
    ("/opt/cann/lib64/libascendcl.so: undefined reference to `ProfMgrStop(void*)'",
     "undefined reference to `ProfMgrStop(void*)` from libascendcl.so: the NPU driver's or CANN's library it needs was "
     "not found at link time"),
])
def test_a_link_against_cann_with_an_undefined_reference_is_named(kb, line, said):
    assert [s.id for s in kb.explaining(line)] == ["CANN_LINK_UNDEFINED_REFERENCE"]
    assert kb.signature("CANN_LINK_UNDEFINED_REFERENCE").text("en", line)[0] == f"Linking against CANN failed: {said}"


@pytest.mark.parametrize("line", [
    "/usr/bin/ld: main.cpp:(.text+0x1c): undefined reference to `cudaMalloc'",
    "/usr/bin/ld: libfoo.so: undefined reference to `pthread_create'",
    "[INFO] checking for undefined reference to `aclInit' ... none",
])
def test_other_undefined_references_are_not_cann(kb, line):
    assert not kb.signature("CANN_LINK_UNDEFINED_REFERENCE").search(line)


def test_examples_are_one_problem_and_clean_excerpts_stay_clean(kb):
    assert IDS == [RULE, "CANN_LINK_UNDEFINED_REFERENCE"]
    sig = kb.signature(RULE)
    assert sig.fallback and not sig.last_resort and sig.kind == "root"
    assert kb.signature("CANN_TYPED_ERROR_CODE").last_resort and kb.signature("CANN_ERROR_CODE_MESSAGE").last_resort
    assert family_overlaps(kb, IDS) == []
    assert clean_excerpt_hits(kb, IDS) == []


def test_a_generic_templates_code_is_named_by_the_sentences_the_runtimes_calls_state(kb):
    # "%s failed. Reason: %s." (EE1019) names no code by itself; the runtime's call that reports EE1019 with literal
    # values does (task_submit.cc: "Allocating task info", "The number of pending tasks in the stream exceeds the limit")
    codes = load_data_file("cann_error_codes.json")["codes"]
    said = {s["text"]: s["file"] for s in codes["EE1019"]["said"]}
    line = "Allocating task info failed. Reason: The number of pending tasks in the stream exceeds the limit."
    assert said[line].startswith("https://github.com/hicann/runtime/blob/") and "/src/runtime/" in said[line]
    assert [s.id for s in kb.explaining(line)] == [RULE]
    assert kb.signature(RULE).text("en", line)[0] == (
        "CANN error EE1019, execution error: Allocating task info failed. Reason: The number of pending tasks in the "
        "stream exceeds the limit")
    # the same reason under a log prefix, before the log's [FUNC:] tail
    prefixed = ("[ERROR] RUNTIME(1,python):2026-01-01-00:00:00.000.000 [task_submit.cc:482]1 " + line +
                "[FUNC:AllocTaskInfo][FILE:task_submit.cc][LINE:482]")
    assert "EE1019" in kb.signature(RULE).text("en", prefixed)[0]
    # another reason in the same words is not that sentence; the template alone is anyone's
    for other in ("Allocating task info failed. Reason: The device is busy.",
                  "Loading the config failed. Reason: The file does not exist.",
                  "[INFO] RUNTIME(1,python):2026-01-01-00:00:00.000.000 Allocating task info succeeded."):
        assert RULE not in [s.id for s in kb.explaining(other)], other
    # each sentence is read as a template would be; a code whose template is read keeps its sentences too (they name
    # it alone where its template is another code's as well: EK0003's and EH0001's "Value %s for %s is invalid. ...")
    from ascend_doctor.kb.lookup import cann_template_read
    with_said = [c for c, k in codes.items() if k.get("said")]
    assert "EE1016" in with_said and "EK0003" in with_said
    assert all(cann_template_read(s["text"]) for c in with_said for s in codes[c]["said"])
    ek = "Value nullptr for acl json config is invalid. Reason: Acl json config can not be nullptr."
    assert ek in {s["text"] for s in codes["EK0003"]["said"]}
    assert kb.signature(RULE).text("en", "RuntimeError: " + ek)[0].startswith("CANN error EK0003, config error: ")


def test_the_build_script_reads_the_sentences_of_calls_with_literal_values():
    mod = _script()
    table = {"codes": {"EE1019": {"message": "%s failed. Reason: %s.", "args": ["func", "reason"]},
                       "EE1003": {"message": "%s failed because value %s for parameter %s is invalid.", "args": []}}}
    source = '''
        RT_LOG_OUTER_MSG_IMPL(ErrorCode::EE1019, "Allocating task info",
                              "The number of pending tasks in the stream "
                              "exceeds the limit");
        RT_LOG_OUTER_MSG_IMPL(ErrorCode::EE1019, "Adding task", reason.c_str());
        RT_LOG_OUTER_MSG_WITH_FUNC(ErrorCode::EE1003, "x", "y");
        RT_LOG_OUTER_MSG_IMPL(ErrorCode::EE1019, "Sending a task", "Stream %u is full");
        COND_RETURN_AND_MSG_OUTER(stm->IsCapturing(), RT_ERROR_STREAM_CAPTURED, ErrorCode::EE1019, "Querying a stream",
            RtFmtMsg("Stream (stream_id=%d) of size %" PRIu64 " is captured", stm->Id_(), n));
        RT_LOG_OUTER_MSG_IMPL(ErrorCode::EE1019, __func__, reason.c_str());
    '''
    # a value known only at run time stays a value (%s), a format call's text is kept with its conversions as values;
    # a call that gives nothing literal, or a literal with a printf conversion of its own, says nothing
    assert mod.call_sentences(source, table) == [
        ("EE1019", "Allocating task info failed. Reason: The number of pending tasks in the stream exceeds the limit."),
        ("EE1019", "Adding task failed. Reason: %s."),
        ("EE1019", "Querying a stream failed. Reason: Stream (stream_id=%s) of size %s is captured.")]
    # the ErrorManager's report of a code with its values (the profiling and dump modules)
    # (the values go by their names: GE's E10001 passes them as parameter, value, reason)
    table["codes"]["EK0001"] = {"message": "Value %s for parameter %s is invalid. Reason: %s.",
                                "args": ["value", "param", "reason"]}
    source = '''
        REPORT_INPUT_ERROR("EK0001", std::vector<std::string>({"param", "value", "reason"}),
                           std::vector<std::string>({"dataTypeConfig", "0", "dataTypeConfig can not be zero"}));
        REPORT_INPUT_ERROR("EK0001", std::vector<std::string>({"param", "reason"}),
                           std::vector<std::string>({"dataTypeConfig", "a name missing"}));
        REPORT_INPUT_ERROR("EK0001", std::vector<std::string>({"value", "param", "reason"}),
                           std::vector<std::string>({std::to_string(n), "dataTypeConfig", "too big"}));
    '''
    assert mod.call_sentences(source, table) == [
        ("EK0001", "Value 0 for parameter dataTypeConfig is invalid. Reason: dataTypeConfig can not be zero."),
        ("EK0001", "Value %s for parameter dataTypeConfig is invalid. Reason: too big.")]


def test_a_catalogued_sentence_on_its_own_is_a_warning_and_with_its_code_or_level_a_failure():
    # The catalogue entry also reads a vendor's sentence without its code (a docs page or a lower-level line can quote
    # it): a FAIL only where the line is marked as an error report (fail_needs_mark)
    from ascend_doctor.kb.load import load_knowledge_base

    sig = load_knowledge_base().signature("CANN_CATALOGUED_ERROR_CODE")
    assert sig.fail_needs_mark and sig.severity == "fail"
    bare = "Model tiling data has a size of 4294967298 bytes, which exceeds system limit of 4294967295 bytes."
    assert sig.search(bare)
    assert sig.severity_on(bare) == "warn"
    assert sig.severity_on("E13023: " + bare) == "fail"
    assert sig.severity_on("[ERROR] GE(1,atc):2024-01-01-00:00:00.000.000 No ONNX parser is registered for optype "
                           "CustomOp.") == "fail"
