"""`ascend-doctor explain ID`: every check id and pitfall, signatures, ascend-fd ids and CANN error codes."""

import json

import pytest

from ascend_doctor.checks import all_checks
from ascend_doctor.knowledge import load_knowledge_base
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
    proc = run_cli("explain", "E99999")
    assert proc.returncode == 0 and "ascend-doctor collect --logs" in proc.stdout


def test_zh_shows_the_chinese_cause():
    proc = run_cli("explain", "AISW_CANN_DRV_BUFF_001", "--lang", "zh")
    assert proc.returncode == 0 and "原因" in proc.stdout and "驱动" in proc.stdout


def test_unknown_id_is_one_line_exit_2_with_the_closest():
    proc = run_cli("explain", "install.cann_env_sorced")
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "did you mean install.cann_env_sourced" in proc.stderr


def test_json_is_valid_for_every_kind():
    for q in ("P13", "hccl.env_values", "EZ9999"):
        proc = run_cli("explain", q, "--format", "json")
        assert proc.returncode == 0 and json.loads(proc.stdout)["query"] == q


def test_a_chinese_pitfall_fits_80_terminal_columns():
    import unicodedata

    proc = run_cli("explain", "P13", "--lang", "zh")
    assert proc.returncode == 0 and "处理建议" in proc.stdout
    cols = [sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line) for line in proc.stdout.splitlines()]
    assert max(cols) <= 80, max(cols)
