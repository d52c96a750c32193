"""HCCL variables: every documented rule fails on a bad value and passes on a good one; typos are named."""

import re
import pytest

from ascend_doctor.probes.environment import env_facts
from ascend_doctor.checks import CheckContext
from ascend_doctor.checks.hccl import check_hccl_env_names, check_hccl_env_values
from ascend_doctor.facts import Facts
from tests.helpers.i18n_asserts import assert_msg, deferred
from ascend_doctor.hccl_env import (load_hccl_env_table, name_issues, parse_port_ranges, suggest_name,
                                    validate_hccl_env)


def issues(env, family=None):
    return validate_hccl_env(env, family)[0]


def statuses(env, family=None):
    return {(i.name, i.status) for i in issues(env, family)}


# (variable, bad value, good value, family) — one row per documented rule in ascend_formats.md §5.1 / §7.6
CASES = [
    ("HCCL_CONNECT_TIMEOUT", "60", "1800", None),          # H1 [120, 7200]
    ("HCCL_CONNECT_TIMEOUT", "7201", "7200", None),
    ("HCCL_CONNECT_TIMEOUT", "2m", "120", None),
    ("HCCL_EXEC_TIMEOUT", "17341", "17340", "910"),        # H2 910A (0, 17340]
    ("HCCL_EXEC_TIMEOUT", "0", "68", "310P"),
    ("HCCL_EXEC_TIMEOUT", "-1", "0", "910B"),              # A2: 0 = never
    ("HCCL_WHITELIST_DISABLE", "2", "1", None),            # H3
    ("HCCL_IF_IP", "127.0.0.1", "192.0.2.10", None),       # H4
    ("HCCL_IF_IP", "10.0.0.1,10.0.0.2", "2001:db8::1", None),
    ("HCCL_SOCKET_IFNAME", "eth0, eth1", "^=docker0,eth", None),
    ("HCCL_SOCKET_FAMILY", "AF_INET4", "AF_INET6", None),
    ("HCCL_BUFFSIZE", "0", "200", None),                   # H6 >= 1
    ("HCCL_ALGO", "level0:ring;level1:ring", "level0:NA;level1:ring", None),  # H7 level0 must be NA
    ("HCCL_ALGO", "level0:NA;level1:fastest", "allreduce=level0:NA;level1:ring/allgather=level0:NA;level1:H-D_R", None),
    ("HCCL_ALGO", "allsum=level0:NA;level1:ring", "level0:NA;level1:NHR;level2:ring", None),
    ("HCCL_RDMA_TC", "130", "132", None),                  # H8 multiple of 4
    ("HCCL_RDMA_TC", "256", "0", None),
    ("HCCL_RDMA_SL", "8", "4", None),
    ("HCCL_RDMA_TIMEOUT", "22", "20", "910B"),             # A2 [5,20]
    ("HCCL_RDMA_TIMEOUT", "25", "24", "910"),              # 910A [5,24]
    ("HCCL_RDMA_RETRY_CNT", "0", "7", None),
    ("HCCL_IF_BASE_PORT", "1000", "60000", None),          # H9 [1024, 65520]
    ("HCCL_IF_BASE_PORT", "65521", "1024", None),
    ("HCCL_HOST_SOCKET_PORT_RANGE", "60000-60100,60050-60200", "60000-60100,61000", None),  # H10 no overlap
    ("HCCL_NPU_SOCKET_PORT_RANGE", "70000", "auto", None),
    ("HCCL_NPU_SOCKET_PORT_RANGE", "60100-60000", "16666", None),
    ("HCCL_OP_EXPANSION_MODE", "AIV_FAST", "AIV", "910B"),  # H11
    ("HCCL_OP_EXPANSION_MODE", "HOST", "AI_CPU", "910_93"),
    ("HCCL_OP_EXPANSION_MODE", "HOST", "CCU_MS", "950"),
    ("HCCL_DETERMINISTIC", "yes", "strict", None),          # H12
    ("HCCL_ENTRY_LOG_ENABLE", "true", "1", None),
    ("HCCL_INTER_HCCS_DISABLE", "1", "TRUE", None),
    ("HCCL_LOGIC_SUPERPOD_ID", "x" * 128, "x" * 127, None),
    ("HCCL_OP_RETRY_ENABLE", "L1:2,L2:0", "L1:1,L2:1", None),
    ("HCCL_OP_RETRY_PARAMS", "MaxCnt:11,HoldTime:5000", "MaxCnt:3,HoldTime:5000,IntervalTime:1000", None),
    ("HCCL_DFS_CONFIG", "connection_fault_detection_time:10", "connection_fault_detection_time:0", None),
    ("HCCL_ASYNC_ERROR_HANDLING", "3", "2", None),
]


@pytest.mark.parametrize("name, bad, good, family", CASES)
def test_each_variable_rule_fails_and_passes(name, bad, good, family):
    bad_issues = [i for i in issues({name: bad}, family) if i.name == name]
    assert bad_issues, f"{name}={bad} should be reported"
    assert bad_issues[0].fix, "a finding must say how to fix it"
    assert not [i for i in issues({name: good}, family) if i.name == name], f"{name}={good} is valid"


def test_exec_timeout_rounding_on_910a_is_explained():
    (i,) = issues({"HCCL_EXEC_TIMEOUT": "600"}, "910")
    assert i.status == "warn" and "544" in i.message
    assert issues({"HCCL_EXEC_TIMEOUT": "600"}, "910B") == []
    assert issues({"HCCL_EXEC_TIMEOUT": "544"}, "910") == []


def test_exec_timeout_in_aiv_mode():
    (i,) = issues({"HCCL_EXEC_TIMEOUT": "1800", "HCCL_OP_EXPANSION_MODE": "AIV"}, "910B")
    assert "1091" in i.message
    assert issues({"HCCL_EXEC_TIMEOUT": "1000", "HCCL_OP_EXPANSION_MODE": "AIV"}, "910B") == []


def test_exec_timeout_above_910a_limit_warns_when_family_unknown():
    assert statuses({"HCCL_EXEC_TIMEOUT": "20000"}) == {("HCCL_EXEC_TIMEOUT", "warn")}
    assert statuses({"HCCL_EXEC_TIMEOUT": "20000"}, "910_93") == set()


@pytest.mark.parametrize("pcie, roce, ok", [("1", "1", False), ("0", None, False), (None, "0", False),
                                            ("1", None, True), ("1", "0", True), ("0", "0", True),
                                            ("0", "1", True), (None, "1", True), (None, None, True)])
def test_intra_pcie_roce_combinations(pcie, roce, ok):
    env = {k: v for k, v in (("HCCL_INTRA_PCIE_ENABLE", pcie), ("HCCL_INTRA_ROCE_ENABLE", roce)) if v is not None}
    found = [i for i in issues(env) if i.rule == "H5" and i.status == "fail"]  # ROCE=1 also warns where it applies
    assert (not found) == ok


def test_whitelist_on_needs_a_file():
    assert [i.rule for i in issues({"HCCL_WHITELIST_DISABLE": "0"})] == ["H3"]
    assert issues({"HCCL_WHITELIST_DISABLE": "0", "HCCL_WHITELIST_FILE": "/etc/hccl_whitelist.json"}) == []


def test_op_expansion_mode_falls_back_silently_is_a_warning_and_950_alias():
    (i,) = issues({"HCCL_OP_EXPANSION_MODE": "HOST"}, "910_93")
    assert i.status == "warn" and "AI_CPU" in i.message
    (i,) = issues({"HCCL_OP_EXPANSION_MODE": "HOST"}, "950")
    assert i.status == "fail"
    (i,) = issues({"HCCL_OP_EXPANSION_MODE": "AI_CPU"}, "950")
    assert "deprecated" in i.message and "AICPU_TS" in i.fix[0]


def test_retry_needs_ai_cpu_and_strict_determinism_needs_three_ranks():
    assert statuses({"HCCL_OP_RETRY_ENABLE": "L1:1,L2:0", "HCCL_OP_EXPANSION_MODE": "HOST"}) == {("HCCL_OP_RETRY_ENABLE", "warn")}
    assert statuses({"HCCL_DETERMINISTIC": "strict", "RANK_SIZE": "2"}) == {("HCCL_DETERMINISTIC", "warn")}
    assert statuses({"HCCL_DETERMINISTIC": "strict", "RANK_SIZE": "8"}) == set()


def test_algo_phasing_out_warns():
    assert statuses({"HCCL_ALGO": "level0:NA;level1:NHR_V1"}) == {("HCCL_ALGO", "warn")}


def test_port_ranges_parse():
    assert parse_port_ranges("60000-60010,61000") == ([(60000, 60010), (61000, 61000)], None)
    assert parse_port_ranges("auto") == ([], None)
    assert parse_port_ranges("1-2,2-3")[1]
    assert [i.status for i in issues({"HCCL_HOST_SOCKET_PORT_RANGE": "80-90"})] == ["warn"]


def test_every_type_the_schema_allows_has_its_rule_and_no_other():
    """The rows follow data/hccl_env.schema.json (tests/test_data.py: a source each, a type from its enum); the
    enum is the one list of types: each has its rule in hccl_env._CHECKERS, or is read and not judged."""
    from ascend_doctor import hccl_env
    from ascend_doctor.data import load_data_file

    enum = load_data_file("hccl_env.schema.json")["definitions"]["variable"]["properties"]["type"]["enum"]
    assert set(enum) == set(hccl_env._CHECKERS) | {"any", "launch"}
    for v in load_hccl_env_table()["variables"]:
        if v["type"] == "int":  # the one rule the schema's subset cannot say (a range for an int)
            assert len(v["range"]) == 2, v["name"]


# -- names -------------------------------------------------------------------------------------

@pytest.mark.parametrize("typo, real", [("HCCL_CONECT_TIMEOUT", "HCCL_CONNECT_TIMEOUT"),
                                        ("HCCL_BUFFER_SIZE", "HCCL_BUFFSIZE"),
                                        ("hccl_exec_timeout", "HCCL_EXEC_TIMEOUT"),
                                        ("ASCEND_RT_VISIBLE_DEVICE", "ASCEND_RT_VISIBLE_DEVICES"),
                                        ("MS_SCHED_PROT", "MS_SCHED_PORT"),
                                        ("RANK_TABLE_FLIE", "RANK_TABLE_FILE")])
def test_misspelled_names_suggest_the_real_one(typo, real):
    assert suggest_name(typo) == real
    (i,) = name_issues({typo: "1"})
    assert real in i.message and any(s.startswith(f"export {real}=") for s in i.fix)
    # the value moves to the right name only as a value that name accepts (HCCL_CONNECT_TIMEOUT: 120-7200)
    moved = next(s for s in i.fix if s.startswith(f"export {real}="))
    assert not validate_hccl_env({real: moved.split("=", 1)[1].split()[0]})[0]


def test_real_and_unrelated_names_are_not_flagged():
    assert name_issues({"HCCL_CONNECT_TIMEOUT": "1200", "MS_WORKER_NUM": "8", "PATH": "/bin", "MS_DEV_RUNTIME_CONF": "x",
                        "ASCEND_CUSTOM_OPP_PATH": "/x"}) == []


def test_unknown_hccl_name_and_legacy_name_warn():
    (i,) = deferred(name_issues, {"HCCL_MAGIC_SPEEDUP": "1"})
    assert_msg(i.message, "{name} is not in the documented HCCL variable list (CANN 9.x docs); if it is meant for HCCL, "
               "check the spelling: unknown names are ignored", name="HCCL_MAGIC_SPEEDUP")
    (i,) = name_issues({"HCCL_HOST_RDMA_ENABLE": "1"})
    assert "CANN 6.0" in i.message


# -- the checks --------------------------------------------------------------------------------

def ctx(env, family=None):
    facts = Facts()
    facts.npu.soc_family = family
    facts.env = env_facts(env)
    return CheckContext(facts=facts)


def test_check_values_one_finding_per_problem_variable():
    found = check_hccl_env_values(ctx({"HCCL_CONNECT_TIMEOUT": "60", "HCCL_RDMA_SL": "9", "HCCL_BUFFSIZE": "200"}))
    assert sorted((f.status, f.title.split(": ")[1]) for f in found) == [("fail", "HCCL_CONNECT_TIMEOUT"), ("fail", "HCCL_RDMA_SL")]
    assert all(f.pitfall == "P13" and f.fix for f in found)


def test_check_values_pass_skip_and_effective_timeout():
    (f,) = check_hccl_env_values(ctx({"HCCL_CONNECT_TIMEOUT": "1200"}))
    assert f.status == "pass" and "1220 s" in f.evidence["HCCL_CONNECT_TIMEOUT"]
    (f,) = check_hccl_env_values(ctx({"PATH": "/bin"}))
    assert f.status == "skip"


def test_check_values_uses_the_node_family():
    (f,) = check_hccl_env_values(ctx({"HCCL_RDMA_TIMEOUT": "22"}, "910"))
    assert f.status == "pass"
    (f,) = check_hccl_env_values(ctx({"HCCL_RDMA_TIMEOUT": "22"}, "910B"))
    assert f.status == "fail" and "Atlas A2" in f.evidence["device family"]


def test_check_names():
    (f,) = check_hccl_env_names(ctx({"HCCL_CONECT_TIMEOUT": "600"}))
    assert f.status == "warn" and "HCCL_CONNECT_TIMEOUT" in f.summary
    (f,) = check_hccl_env_names(ctx({"HCCL_CONNECT_TIMEOUT": "600"}))
    assert f.status == "pass"


def test_if_ip_must_be_an_address_of_this_host():
    c = ctx({"HCCL_IF_IP": "192.0.2.99"})
    c.facts.rank_table.local_names = ["192.0.2.10", "node-a"]
    (f,) = deferred(check_hccl_env_values, c)
    assert f.status == "fail" and "192.0.2.10" in f.fix[1]
    assert_msg(f.summary, "HCCL_IF_IP={value} is not an address of this host ({addresses}); HCCL cannot bind to it",
               value="192.0.2.99")
    c.facts.rank_table.local_names = ["192.0.2.99", "node-a"]
    assert check_hccl_env_values(c)[0].status == "pass"
    c.facts.rank_table.local_names = ["node-a"]  # no address known: cannot tell, do not guess
    assert check_hccl_env_values(c)[0].status == "pass"


def test_probe_collects_local_addresses_for_hccl_if_ip(make_snapshot):
    from ascend_doctor.host import SnapshotHost
    from ascend_doctor.probes import ProbeOptions
    from ascend_doctor.probes.rank_table import probe_rank_table

    snap = make_snapshot(env={"HCCL_IF_IP": "192.0.2.99"},
                         commands=[{"argv": ["hostname", "-I"], "rc": 0, "stdout": "192.0.2.10 2001:db8::10\n"}])
    rt = probe_rank_table(SnapshotHost(snap), ProbeOptions())
    assert rt.env_var is None and {"192.0.2.10", "2001:db8::10"} <= set(rt.local_names)


# -- HCCL_INTRA_ROCE_ENABLE=1 applies on a few products only (issue 17) -----------------------------------

@pytest.mark.parametrize("family,expected", [
    ("910B", "only the Atlas 200T A2 Box16"), ("910", "only the Atlas 300T Pro"), ("910_93", "LLM-DataDist"),
    ("310P", "not supported"), ("950", "not supported"), (None, "family here is unknown")])
def test_intra_roce_enable_says_where_it_applies(family, expected):
    from ascend_doctor.hccl_env import validate_hccl_env

    issues, checked = validate_hccl_env({"HCCL_INTRA_PCIE_ENABLE": "0", "HCCL_INTRA_ROCE_ENABLE": "1"}, family)
    roce = [i for i in issues if i.name == "HCCL_INTRA_ROCE_ENABLE"]
    assert roce and roce[0].status == "warn" and expected in roce[0].message, issues
    assert "HCCL_INTRA_ROCE_ENABLE" not in checked  # not reported as plainly valid
    assert not validate_hccl_env({"HCCL_INTRA_ROCE_ENABLE": "0", "HCCL_INTRA_PCIE_ENABLE": "1"}, family)[0]


@pytest.mark.parametrize("value", ["130", "300"])
def test_rdma_tc_is_fixed_by_the_default_or_the_switch_dscp_never_a_rounded_value(value):
    """HCCL_RDMA_TC is DSCP x 4 and must match the switch's QoS: unset it (132, DSCP 33) or set the switch's DSCP
    x 4; rounding 130 down to 128 would pick a traffic class the switch was never set for."""
    found = [i for i in issues({"HCCL_RDMA_TC": value}, None) if i.name == "HCCL_RDMA_TC"]
    assert found and found[0].fix[0].startswith("unset HCCL_RDMA_TC   # HCCL then uses 132, DSCP 33")
    assert "export HCCL_RDMA_TC=<that DSCP x 4>" in found[0].fix[1]
    assert not any(re.search(r"HCCL_RDMA_TC=\d", step) for step in found[0].fix)
