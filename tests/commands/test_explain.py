"""`ascend-doctor explain ID`: every check id and pitfall, signatures, ascend-fd ids and CANN error codes."""

import json

import pytest

from ascend_doctor.checks import all_checks
from ascend_doctor.kb.load import load_knowledge_base
from tests.helpers import run_cli, run_json

CHECK_IDS = [c.id for c in all_checks()]
PITFALLS = sorted(load_knowledge_base().pitfalls)


def test_every_check_id_is_explained():
    # one process for all (each run_cli starts Python): the command's function on every id
    from ascend_doctor.commands.explain import explain_check, resolve

    kb = load_knowledge_base()
    for cid in CHECK_IDS:
        kind, spec = resolve(cid, kb)
        e = explain_check(spec, kb)
        assert kind == "check" and e["passes_when"] and e["run"] == f"ascend-doctor check --only {cid}", cid
        assert e["source"].startswith("ascend_doctor/checks/"), e
        for p in e["pitfalls"]:
            assert p["advice"], (cid, p)


@pytest.mark.parametrize("pid", PITFALLS)
def test_every_pitfall_is_explained(pid):
    proc, data = run_json("explain", pid)
    assert proc.returncode == 0
    e = data["pitfall"]
    assert data["kind"] == "pitfall" and e["id"] == pid and e["title"] and e["advice"]
    assert e["checks"] or e["signatures"], f"{pid}: no check and no signature reports it"


def test_check_text_names_what_why_fix_and_source():
    proc = run_cli("explain", "install.cann_env_sourced")
    assert proc.returncode == 0
    out = proc.stdout
    for words in ("What it checks:", "P08", "ascend-doctor check --only install.cann_env_sourced",
                  "Where it comes from: ascend_doctor/checks/install.py"):
        assert words in out, words
    assert max(len(line) for line in out.splitlines()) <= 80


def test_signature_and_ascend_fd_id_and_error_code():
    _, sig = run_json("explain", "HCCL_EI0006_SOCKET_TIMEOUT")
    assert sig["kind"] == "signature" and sig["signatures"][0]["id"] == "HCCL_EI0006_SOCKET_TIMEOUT"
    fd = next(f for f in sig["signatures"][0]["ascend_fd"])
    _, by_fd = run_json("explain", fd)
    assert by_fd["kind"] == "ascend_fd" and "HCCL_EI0006_SOCKET_TIMEOUT" in [s["id"] for s in by_fd["signatures"]]
    _, code = run_json("explain", "ei0006")
    assert code["kind"] == "error_code" and code["signatures"][0]["id"] == "HCCL_EI0006_SOCKET_TIMEOUT"


def test_unknown_error_code_says_what_to_collect():
    proc = run_cli("explain", "EX1234")
    assert proc.returncode == 0 and "ascend-doctor collect --logs" in proc.stdout
    assert "AISW_CANN_ERRCODE_Custom_EX1234" in proc.stdout  # the generic entry, as the peer names it


def _explain(query):
    """`explain` in one process (no subprocess per query): (kind, json object)."""
    import argparse
    import io
    from contextlib import redirect_stdout

    from ascend_doctor.commands.explain import run

    out = io.StringIO()
    with redirect_stdout(out):
        assert run(argparse.Namespace(id=query, format="json", output=None, kb=None)) == 0
    data = json.loads(out.getvalue())
    return data["kind"], data


def test_what_users_paste_is_answered():
    kind, d = _explain("ERR99999")
    assert kind == "error_code" and d["signatures"][0]["id"] == "TORCH_NPU_ERR_CODE_WRAPPER"
    assert d["code"]["torch_npu"]["envelope"] and d["code"]["torch_npu"]["module"] == "UNKNOWN"
    kind, d = _explain("ERR01002")  # a code no entry names by id: the one that reads the line torch_npu prints for it
    assert d["code"]["torch_npu"]["meaning"] == "invalid type" and d["signatures"][0]["id"] == "TORCH_NPU_ERROR_CODE"
    kind, d = _explain("107010")
    assert kind == "error_code" and d["code"]["name"] == "ACL_ERROR_RT_FILE_WRITE" and d["code"]["meaning"]
    kind, d = _explain("100024")  # AscendCL's own range (acl_base.h), read by ACL_RETURN_CODE in an error phrase
    assert d["code"]["name"] == "ACL_ERROR_OP_NOT_FOUND" and "ACL_RETURN_CODE" in [s["id"] for s in d["signatures"]]
    kind, d = _explain("507014")
    assert d["code"]["name"] == "ACL_ERROR_RT_AICORE_TIMEOUT" and d["signatures"][0]["id"] == "CANN_AICORE_TIMEOUT_507014"
    assert "exception" not in d["signatures"][0]["title"].lower()  # a timeout, not an exception
    kind, d = _explain("EI0006")
    assert d["signatures"][0]["id"] == "HCCL_EI0006_SOCKET_TIMEOUT"
    kind, d = _explain("EE1002")
    assert kind == "error_code" and d["code"]["ascend_fd"] == "AISW_CANN_ERRCODE_Custom_EE1002"
    assert [s["id"] for s in d["signatures"]] and all("AISW_CANN_ERRCODE_Custom" in s["ascend_fd"] for s in d["signatures"])
    kind, d2 = _explain("AISW_CANN_ERRCODE_Custom_EE1002")  # the id the peer prints for it
    assert d2["signatures"] == d["signatures"]


def test_inner_errors_go_to_the_inner_error_entry_not_a_compile_spec_one():
    for code in ("E89999", "EZ9999", "EI9999", "EE8888"):
        kind, d = _explain(code)
        ids = [s["id"] for s in d["signatures"]]
        assert ids[0] == "CANN_INNER_ERROR_X9999" and "TBE_OP_COMPILE_SPEC_ERROR" not in ids, (code, ids)


def test_hccl_variable_gives_meaning_default_and_range():
    kind, d = _explain("HCCL_CONNECT_TIMEOUT")
    v = d["variable"]
    assert kind == "hccl_env" and v["default"] == "120" and v["range"] == [120, 7200] and v["unit"] == "s"
    assert "socket" in v["meaning"] and v["source"].startswith("hicann/hccl")
    proc = run_cli("explain", "hccl_exec_timeout")
    assert proc.returncode == 0 and "Default: 1836 s" in proc.stdout and "Range: 0-2147483647 s" in proc.stdout
    assert max(len(line) for line in proc.stdout.splitlines()) <= 80
    proc = run_cli("explain", "HCCL_CONNECT_TIMEOUT", "--lang", "zh")
    assert proc.returncode == 0 and "默认值：120 s" in proc.stdout and "建立 socket 链路" in proc.stdout


def test_every_id_triage_prints_is_explained():
    """Signature ids, the ascend-fd ids they carry (and the generic ones with a code appended), root-cause verdicts."""
    from ascend_doctor.commands.explain import resolve
    from ascend_doctor.kb.lookup import GENERIC_FD
    from ascend_doctor.triage.rootcause import FIX

    kb = load_knowledge_base()
    ids = [s.id for s in kb.signatures] + sorted({fd for s in kb.signatures for fd in s.ascend_fd})
    ids += [f"{GENERIC_FD['cann']}_EZ9999", f"{GENERIC_FD['torch_npu']}_ERR00100"] + sorted(FIX)
    for i in ids:
        kind, thing = resolve(i, kb)
        assert kind in ("signature", "ascend_fd", "error_code", "root_cause"), (i, kind)
    assert resolve("notify_deadlock", kb)[1].info["fix"]


def test_kb_show_answers_from_the_same_index():
    proc = run_cli("kb", "show", "507014")
    assert proc.returncode == 0 and "ACL_ERROR_RT_AICORE_TIMEOUT" in proc.stdout
    proc = run_cli("kb", "show", "HCCL_IF_BASE_PORT")
    assert proc.returncode == 0 and "60000-60031" in proc.stdout


def test_zh_shows_the_chinese_cause():
    proc = run_cli("explain", "AISW_CANN_DRV_BUFF_001", "--lang", "zh")
    assert proc.returncode == 0 and "原因" in proc.stdout and "驱动" in proc.stdout


def test_unknown_id_is_one_line_exit_2_with_the_closest():
    proc = run_cli("explain", "install.cann_env_sorced")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "did you mean install.cann_env_sourced" in proc.stderr


def test_json_is_valid_for_every_kind():
    for q in ("P13", "hccl.env_values", "EZ9999", "507014", "HCCL_BUFFSIZE", "notify_timeout"):
        proc = run_cli("explain", q, "--format", "json")
        assert proc.returncode == 0 and json.loads(proc.stdout)["query"] == q


def test_a_chinese_pitfall_fits_80_terminal_columns():
    import unicodedata

    proc = run_cli("explain", "P13", "--lang", "zh")
    assert proc.returncode == 0 and "处理建议" in proc.stdout
    cols = [sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line) for line in proc.stdout.splitlines()]
    assert max(cols) <= 80, max(cols)
