"""Advice that is right (issue 17): every variable, option value and API a fix names is one the data backs.

The texts checked are everything a user is told to run: the knowledge base's fixes and causes, the pitfalls'
advice, and every fix line of the reports the doctor writes for the shipped snapshots (tests/fixtures and
examples). The facts they are held to are data with sources (data/advice_facts.json, data/hccl_env.json).
"""

import json
import re

import pytest

from ascend_doctor import advice_facts as af
from ascend_doctor.data import data_path
from ascend_doctor.kb.load import load_knowledge_base
from tests.helpers.fixture_reports import all_reports, fix_lines

KB_RAW = json.load(open(data_path("knowledge_base.json"), encoding="utf-8"))
KB = load_knowledge_base()
FACTS = af.load()


def _kb_texts():
    for s in KB_RAW["signatures"]:
        for step in s["fix"]:
            yield f"{s['id']}.fix", step
        yield f"{s['id']}.cause", s["cause"]
    for pid, p in KB_RAW["pitfalls"].items():
        yield f"{pid}.advice", p["advice"]


def _fixture_texts():
    for name, report in all_reports():
        for fid, step in fix_lines(report):
            yield f"{name}:{fid}", step


ALL_TEXTS = list(_kb_texts()) + list(_fixture_texts())


# -- the data itself ------------------------------------------------------------------------------

def test_every_fact_names_its_source():
    # A source for every entry, and every source id naming an entry of "sources", are the schema's rules
    # (required, minLength, x-ref in data/advice_facts.schema.json), checked by the one schema engine.
    from ascend_doctor.data import data_file_errors

    assert data_file_errors("advice_facts.json") == []
    assert "ASCEND_HOME" not in af.known_variables()  # set_env.sh exports ASCEND_HOME_PATH, never ASCEND_HOME


# -- variables ------------------------------------------------------------------------------------

def test_every_variable_a_fix_names_is_known():
    bad = [(where, af.unknown_variables(text), text[:120]) for where, text in ALL_TEXTS if af.unknown_variables(text)]
    assert bad == []


def test_the_variable_rule_catches_the_old_mistakes():
    assert af.unknown_variables("ls $ASCEND_HOME/ascend-toolkit/latest/lib64/libhccl.so") == ["ASCEND_HOME"]
    assert af.unknown_variables("export HCCL_CONECT_TIMEOUT=300") == ["HCCL_CONECT_TIMEOUT"]
    # shell-local loop variables and the standard ones are fine
    assert af.unknown_variables("for i in {0..7}; do hccn_tool -i $i -tls -g; done") == []
    assert af.unknown_variables("export LD_LIBRARY_PATH=$CONDA_PREFIX/lib:$LD_LIBRARY_PATH") == []


# -- option values --------------------------------------------------------------------------------

def test_every_option_value_a_fix_names_is_documented():
    bad = [(where, af.bad_option_values(text)) for where, text in ALL_TEXTS if af.bad_option_values(text)]
    assert bad == []


def test_every_hccl_value_a_fix_exports_is_valid():
    bad = [(where, af.bad_hccl_values(text)) for where, text in ALL_TEXTS if af.bad_hccl_values(text)]
    assert bad == []


def test_the_option_rule_catches_the_old_mistakes():
    assert af.bad_option_values('try memory_optimize_level="O1" or memory_optimize_level="O2"') == \
        ["memory_optimize_level=O2 (documented: O0, O1)"]
    assert af.bad_option_values('mindspore.set_context(jit_config={"jit_level": "O3"})')
    assert af.bad_option_values("mindspore.set_context(mode=mindspore.GRAPH_MODE, device_target='NPU')")
    assert af.bad_hccl_values("export HCCL_INTRA_ROCE_ENABLE=2")
    assert af.bad_hccl_values("export HCCL_BUFFSIZE=<MB>") == []


# -- API version ranges ----------------------------------------------------------------------------

def test_every_versioned_api_in_the_knowledge_base_says_the_version_it_needs():
    bad = [(where, af.unqualified_apis(text)) for where, text in _kb_texts() if af.unqualified_apis(text)]
    assert bad == []


@pytest.mark.parametrize("name,report", all_reports(), ids=lambda x: x if isinstance(x, str) else "")
def test_report_fixes_use_only_apis_of_the_installed_release_or_name_the_version(name, report):
    ms = report.facts.get("mindspore") or {}
    installed = {"mindspore": ms.get("version") if ms.get("installed") else None}
    for fid, step in fix_lines(report):
        if af.unqualified_apis(step):
            assert af.applicable_fixes([step], installed) == [step] and installed["mindspore"], (fid, step)


def test_fixes_for_an_older_release_drop_the_api_it_lacks():
    step = "raise the pool: MindSpore 2.5+: `mindspore.runtime.set_memory(max_size='<N>GB')`"
    assert af.applicable_fixes([step], {"mindspore": "2.4.1"}) == []
    assert af.applicable_fixes([step], {"mindspore": "2.5.0"}) == [step]
    assert af.applicable_fixes([step], {"mindspore": None}) == [step]  # unknown: the line names the version
    assert af.unqualified_apis("(2.3+: `mindspore.runtime.set_memory(max_size=...)`)")  # the old wording, caught


# -- examples, levels and sources -------------------------------------------------------------------

LEVELED = re.compile(r"^\[(DEBUG|INFO|WARNING|ERROR|CRITICAL|EXCEPTION)\] [A-Z_]+\(")


def _verified_level(line):
    for m in FACTS["log_messages"]:
        if m["fragment"] in line:
            return m["level"]
    return None


@pytest.mark.parametrize("sig", KB_RAW["signatures"], ids=lambda s: s["id"])
def test_examples_show_the_level_the_source_logs_and_say_where_they_come_from(sig):
    origin = sig.get("example_origin", "")
    assert len(origin) >= 10, f"{sig['id']}: no example_origin"
    assert re.search(r"https?://|\.(py|cc|cpp|md)\b|index id|composed from", origin), origin
    levels = []
    for line in sig["examples"]:
        m = LEVELED.match(line)
        want = _verified_level(line)
        if m and want:
            assert m.group(1) == want, f"{sig['id']}: '{line[:80]}' shows {m.group(1)}, the source logs {want}"
        elif m:
            assert "level not verified" in origin, f"{sig['id']}: unverified level in {line[:80]}"
        levels.append(want if m and want else None)
    # a signature whose every example is a line the source logs as a warning is not a failure
    if levels and all(lv in ("WARNING", "INFO", "DEBUG") for lv in levels):
        assert sig["severity"] != "fail", f"{sig['id']}: the source only warns"


def test_the_level_rule_catches_the_old_mistakes():
    old = ("[ERROR] ME(28133:281473194868752,MainProcess):2024-07-12-10:21:33.512.118 [mindspore/run_check/"
           "_check_version.py:370] Can not find ccec_compiler(need by mindspore-ascend), please check ...")
    assert LEVELED.match(old).group(1) != _verified_level(old)
    assert _verified_level("RuntimeError: The total number of nodes is 8, This node could be redundant and is not "
                           "successfully registered.") == "WARNING"


# -- the corrections of issue 17, one by one ----------------------------------------------------------

def test_npu_smi_unknown_compatibility_is_a_warning_not_incompatible():
    for value, sid, severity in (("NOK", "DRIVER_FIRMWARE_INCOMPATIBLE", "fail"),
                                 ("UNKNOWN", "DRIVER_FIRMWARE_COMPAT_UNKNOWN", "warn"),
                                 ("NOT SUPPORT", "DRIVER_FIRMWARE_COMPAT_UNKNOWN", "warn")):
        hits = KB.match_line(f"\tCompatibility                  : {value}")
        assert [s.id for s in hits] == [sid] and hits[0].severity == severity


def test_cann_error_code_second_character_names_the_module():
    cause = KB.signature("CANN_INNER_ERROR_X9999").cause
    assert "EH/E1 = GE" not in cause
    for part in ("1 = GE", "E = Runtime", "H = AscendCL", "I = HCCL", "Z = common operators"):
        assert part in cause


def test_ei0011_is_qp_memory_not_hccl_buffsize():
    sig = KB.signature("HCCL_DEVICE_MEMORY_INSUFFICIENT")
    assert not any("HCCL_BUFFSIZE" in step for step in sig.fix)
    assert "QP" in sig.cause and any("RoCE links" in step for step in sig.fix)
    assert any("Resource_Error_Insufficient_Device_Memory(EI0011)" in e for e in sig.examples)


def test_watchdog_timeout_is_derived_from_hccl_exec_timeout():
    sig = KB.signature("HCCL_WATCHDOG_TIMEOUT_WARNING")
    assert "HCCL_EXEC_TIMEOUT + 1800" in sig.cause and "default 1800" not in sig.cause


@pytest.mark.parametrize("version,shown", [("2.4.1", False), ("2.5.0", True)])
def test_smoke_failure_shows_only_the_fixes_the_installed_mindspore_has(version, shown):
    from ascend_doctor.smoke import runner
    from ascend_doctor.smoke.classify import smoke_findings

    stages = {s: runner.StageResult(s, runner.NOT_RUN) for s in runner.STAGES}
    stages["import"] = runner.StageResult("import", runner.PASSED, 5, {"version": version})
    stages["device"] = runner.StageResult("device", runner.PASSED, 5, {})
    stages["op_check"] = runner.StageResult("op_check", runner.FAILED, 7, {},
                                            "RuntimeError: Out of Memory!!! Request memory size: 3221225472B")
    run = runner.SmokeRun("ascend", stages, 3, "", 9000, "op_check")
    fix = [step for f in smoke_findings(run, KB) for step in f.fix]
    assert any("max_device_memory" in step for step in fix), fix
    assert any("runtime.set_memory" in step for step in fix) == shown
