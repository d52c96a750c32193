"""Rank-table validation: every rule has a failing and a passing case; real samples validate clean;
mutated tables never raise; the `rank-table` subcommand's output and exit codes."""

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import FIXTURES, run_cli
from tests.helpers.i18n_asserts import assert_shows, has_msg
from ascend_doctor.rank_table import (FAIL, WARN, RankTable, topology_problems,
                                      validate_rank_table_text)

RT_DIR = os.path.join(FIXTURES, "rank_tables")
CLEAN = ["hccl_910_template1_v1.0.json", "mindspore_rank_table_8pcs_v1.0.json", "hccl_a3_superpod_v1.2.json",
         "mindie_a3_16die_v1.2.json", "hccl_a5_v2.0.json"]


def load(name):
    with open(os.path.join(RT_DIR, name)) as fh:
        return json.load(fh)


def validate(doc, **kw) -> RankTable:
    return validate_rank_table_text(json.dumps(doc), **kw)


def rules(table, severity=None):
    return {p.rule for p in table.problems if severity is None or p.severity == severity}


def paths(table, rule):
    return [p.path for p in table.problems if p.rule == rule]


def v10(servers=2, per=2, **top):
    doc = {"status": "completed", "version": "1.0", "server_count": str(servers), "server_list": []}
    r = 0
    for s in range(servers):
        devs = []
        for d in range(per):
            devs.append({"device_id": str(d), "device_ip": f"192.168.{s + 1}.{8 + d}", "rank_id": str(r)})
            r += 1
        doc["server_list"].append({"server_id": f"node_{s}", "device": devs})
    doc.update(top)
    return doc


# -- real samples ------------------------------------------------------------------------

@pytest.mark.parametrize("name", CLEAN)
def test_reference_samples_validate_clean(name):
    table = validate(load(name))
    assert table.problems == [], [p.describe() for p in table.problems]
    assert table.format in ("1.0", "1.2", "2.0")


def test_a3_16_die_sample_is_recognised_as_a3_super_pod():
    table = validate(load("mindie_a3_16die_v1.2.json"))
    assert (table.format, table.rank_count, len(table.servers)) == ("1.2", 16, 1)


def test_legacy_group_list_is_read_but_warned():
    table = validate(load("hccl_group_list_template2.json"))
    assert table.format == "group_list" and table.rank_count == 2
    assert [(p.rule, p.severity) for p in table.problems] == [("R3", WARN)]


# -- R1 syntax -------------------------------------------------------------------------------

def test_doc_comments_are_reported_with_line_and_column_and_rest_still_validated():
    with open(os.path.join(RT_DIR, "bad_with_doc_comments_v1.0.json")) as fh:
        text = fh.read()
    text = text.replace('"rank_id":"3"', '"rank_id":"5"')
    table = validate_rank_table_text(text)
    comments = [p for p in table.problems if p.rule == "R1"]
    assert [(p.line, p.column) for p in comments] == [(2, 32), (3, 32), (4, 32)]
    assert "R7" in rules(table)  # the rank_id error after the comments is found in the same run


def test_syntax_error_names_line_and_column():
    table = validate_rank_table_text('{\n  "version": "1.0",\n  "server_list": [\n    {"server_id": "a",}\n  ]\n}')
    (p,) = table.problems
    assert (p.rule, p.severity, p.line) == ("R1", FAIL, 4)
    assert p.column and "trailing comma" in p.message


def test_nan_and_duplicate_keys_are_not_json_we_accept():
    text = json.dumps(v10()).replace('"status": "completed"', '"status": "completed", "status": "initializing"')
    table = validate_rank_table_text(text)
    assert any(p.rule == "R1" and "twice" in p.message for p in table.problems)
    table = validate_rank_table_text(json.dumps(v10()).replace('"rank_id": "0"', '"rank_id": NaN'))
    assert "R1" in rules(table, FAIL) and "server_list[0].device[0].rank_id" in paths(table, "R7")


def test_empty_and_non_object_files():
    assert rules(validate_rank_table_text("")) == {"R1"}
    assert rules(validate_rank_table_text("[1, 2]")) == {"R3"}


# -- R2, R3, R4 --------------------------------------------------------------------------

def test_status_must_be_completed():
    assert "R2" in rules(validate(v10(status="initializing")))
    doc = v10()
    del doc["status"]
    assert paths(validate(doc), "R2") == ["status"]
    assert "R2" not in rules(validate(v10()))


def test_version_known_or_group_list():
    assert paths(validate(v10(version="1.1")), "R3") == ["version"]
    doc = v10()
    del doc["version"]
    assert paths(validate(doc), "R3") == ["version"]
    assert "R3" not in rules(validate(v10(version="1.0")))


def test_server_count_matches_servers():
    assert paths(validate(v10(server_count="3")), "R4") == ["server_count"]
    doc = v10()
    del doc["server_count"]
    assert paths(validate(doc), "R4") == ["server_count"]  # required in 1.0
    doc["version"] = "1.2"
    assert "R4" not in rules(validate(doc))  # optional in 1.2
    assert "R4" not in rules(validate(v10(server_count=2)))  # an int is accepted (msprechecker does)


# -- R5 server_id ------------------------------------------------------------------------

def test_server_id_unique_and_short():
    doc = v10()
    doc["server_list"][1]["server_id"] = "node_0"
    assert paths(validate(doc), "R5") == ["server_list[1].server_id"]
    doc["server_list"][1]["server_id"] = "n" * 65
    assert paths(validate(doc), "R5") == ["server_list[1].server_id"]
    doc["server_list"][1]["server_id"] = "n" * 64
    assert "R5" not in rules(validate(doc))
    doc["server_list"][1]["server_id"] = 7
    assert "expected a string" in validate(doc).problems[0].message


# -- R6 device_id ------------------------------------------------------------------------

def test_device_id_range_unique_and_type():
    doc = v10()
    doc["server_list"][0]["device"][1]["device_id"] = "0"
    assert paths(validate(doc), "R6") == ["server_list[0].device[1].device_id"]
    doc["server_list"][0]["device"][1]["device_id"] = "16"
    assert paths(validate(doc), "R6") == ["server_list[0].device[1].device_id"]
    doc["server_list"][0]["device"][1]["device_id"] = "one"
    assert paths(validate(doc), "R6") == ["server_list[0].device[1].device_id"]
    doc["server_list"][0]["device"][1]["device_id"] = 1
    assert "R6" not in rules(validate(doc))


def test_device_id_beyond_the_family_limit():
    doc = v10(servers=1, per=1)
    doc["server_list"][0]["device"][0]["device_id"] = "9"
    assert "R6" in rules(validate(doc, soc_family="910"))
    assert "R6" not in rules(validate(doc, soc_family="910B"))


# -- R7 / R8 ranks -----------------------------------------------------------------------

def test_rank_ids_unique_and_zero_based():
    doc = v10()
    doc["server_list"][1]["device"][1]["rank_id"] = "2"
    t = validate(doc)
    assert "server_list[1].device[1].rank_id" in paths(t, "R7")
    assert any("rank_id 3" in p.message for p in t.problems)  # the missing one is named
    doc["server_list"][1]["device"][1]["rank_id"] = "4"
    assert "server_list[1].device[1].rank_id" in paths(validate(doc), "R7")


def test_rank_ids_must_not_interleave_across_servers():
    doc = v10(servers=2, per=4)
    ranks = [[0, 1, 2, 7], [3, 4, 5, 6]]  # the HCCL doc's own "wrong" example
    for s, rs in enumerate(ranks):
        for d, r in enumerate(rs):
            doc["server_list"][s]["device"][d]["rank_id"] = str(r)
    assert paths(validate(doc), "R7") == ["server_list[0].device", "server_list[1].device"]
    assert "R7" not in rules(validate(v10(servers=2, per=4)))


def test_one_bad_rank_is_reported_once_not_as_interleaving_too():
    doc = v10(servers=3, per=4)
    doc["server_list"][1]["device"][2]["rank_id"] = "99999"
    t = validate(doc)
    assert paths(t, "R7") == ["server_list[1].device[2].rank_id", ""]  # out of range, and rank 6 missing


def test_rank_blocks_follow_server_id_order():
    doc = v10()
    doc["server_list"][0]["server_id"], doc["server_list"][1]["server_id"] = "node_b", "node_a"
    t = validate(doc)
    assert paths(t, "R8") == ["server_list[1].server_id"] and rules(t, FAIL) == set()
    assert "R8" not in rules(validate(v10()))


# -- R9 device_ip ------------------------------------------------------------------------

@pytest.mark.parametrize("ip, word", [("127.0.0.1", "loopback"), ("255.255.255.255", "broadcast"),
                                      ("192.168.1.300", "not a valid"), ("192.1.*.6", "masked"),
                                      ("0.0.0.0", "unspecified"), ("224.0.0.1", "multicast"), ("::1", "loopback")])
def test_device_ip_must_be_a_usable_address(ip, word):
    doc = v10()
    doc["server_list"][0]["device"][0]["device_ip"] = ip
    t = validate(doc)
    assert paths(t, "R9") == ["server_list[0].device[0].device_ip"] and word in t.problems[0].message


def test_device_ip_unique_and_required_with_several_servers():
    doc = v10()
    doc["server_list"][1]["device"][0]["device_ip"] = "192.168.1.8"
    assert paths(validate(doc), "R9") == ["server_list[1].device[0].device_ip"]
    del doc["server_list"][1]["device"][0]["device_ip"]
    assert paths(validate(doc), "R9") == ["server_list[1].device[0].device_ip"]
    single = v10(servers=1)
    del single["server_list"][0]["device"][0]["device_ip"]
    assert "R9" not in rules(validate(single))  # optional on one server (A2)
    doc = v10()
    doc["server_list"][0]["device"][0]["device_ip"] = "fd00::8"
    assert "R9" not in rules(validate(doc))


def test_a3_device_ip_required_only_across_super_pods_or_without_hccs():
    doc = load("hccl_a3_superpod_v1.2.json")
    del doc["server_list"][0]["device"][0]["device_ip"]
    del doc["server_list"][0]["device"][1]["backup_device_ip"]
    assert "R9" in rules(validate(doc))  # two super-pods
    doc["super_pod_list"] = [{"super_pod_id": "0", "server_list": [{"server_id": f"node_{i}"} for i in range(4)]}]
    assert "R9" not in rules(validate(doc))
    assert "R9" in rules(validate(doc, env={"HCCL_INTER_HCCS_DISABLE": "TRUE"}))


# -- R10 ports ---------------------------------------------------------------------------

def test_ports_range_system_ports_and_uniqueness():
    doc = load("hccl_a3_superpod_v1.2.json")
    dev = doc["server_list"][0]["device"]
    dev[0]["device_port"] = "70000"
    dev[1]["host_port"] = "16665"
    dev[1]["backup_device_port"] = "80"
    t = validate(doc)
    got = {(p.path, p.severity) for p in t.problems if p.rule == "R10"}
    assert got == {("server_list[0].device[0].device_port", FAIL), ("server_list[0].device[1].host_port", FAIL),
                   ("server_list[0].device[1].backup_device_port", WARN)}
    dev[0]["device_port"] = dev[0]["backup_device_port"]
    assert "equals device_port" in " ".join(p.message for p in validate(doc).problems)


# -- R11, R12 super-pods and backups -------------------------------------------------------

def test_super_pod_membership():
    doc = load("hccl_a3_superpod_v1.2.json")
    doc["super_pod_list"][1]["server_list"].append({"server_id": "node_9"})
    doc["super_pod_list"][1]["super_pod_id"] = "0"
    doc["super_pod_list"][1]["server_list"][0]["server_id"] = "node_0"
    msgs = [(p.path, p.message) for p in validate(doc).problems if p.rule == "R11"]
    assert any(p == "super_pod_list[1].super_pod_id" for p, _ in msgs)
    assert any("node_9" in m for _, m in msgs)
    assert any(has_msg(m, "{value} is already a member of {other}; a server belongs to one super-pod", value='"node_0"')
               for _, m in msgs)


def test_super_pod_servers_must_be_contiguous():
    doc = load("hccl_a3_superpod_v1.2.json")
    doc["super_pod_list"] = [{"super_pod_id": "0", "server_list": [{"server_id": "node_0"}, {"server_id": "node_2"}]},
                             {"super_pod_id": "1", "server_list": [{"server_id": "node_1"}, {"server_id": "node_3"}]}]
    assert "not contiguous" in " ".join(p.message for p in validate(doc).problems if p.rule == "R11")


def test_backup_ip_is_the_other_die():
    doc = load("hccl_a3_superpod_v1.2.json")
    doc["server_list"][0]["device"][0]["backup_device_ip"] = "192.168.4.99"
    assert paths(validate(doc), "R12") == ["server_list[0].device[0].backup_device_ip"]


# -- R13 topology ------------------------------------------------------------------------

def test_910a_hccs_groups():
    assert topology_problems({"0,1,2,3": [0]}, "910") == []
    assert topology_problems({"0,1,2,3,4,5,6,7": [0]}, "910") == []
    (p,) = topology_problems({"2,3,4,5": [0, 1]}, "910", ["server_list[0]", "server_list[1]"])
    assert p.rule == "R13" and "HCCS" in p.message and p.path == "server_list[0].device" and "1 more" in p.message
    assert topology_problems({"0,1,2": [0]}, "910")[0].rule == "R13"
    assert topology_problems({"2,3,4,5": [0]}, "910B") == []  # no ring constraint on A2


def test_a3_whole_die_pairs():
    assert topology_problems({"0,1,2,3": [0]}, "910_93") == []
    assert topology_problems({"1,2": [0]}, "910_93")[0].rule == "R13"
    assert topology_problems({"0,1,2": [0]}, "910_93")[0].rule == "R13"
    doc = load("mindie_a3_16die_v1.2.json")
    doc["server_list"][0]["device"] = doc["server_list"][0]["device"][1:3]
    for i, d in enumerate(doc["server_list"][0]["device"]):
        d["rank_id"] = str(i)
    assert "R13" in rules(validate(doc))  # 1.2 implies A3 when no family is given


# -- R14 group_list, R15 v2.0, L2 RANK_SIZE ------------------------------------------------

def test_group_list_counts_and_pod_names():
    doc = load("hccl_group_list_template2.json")
    g = doc["group_list"][0]
    g["instance_count"], g["device_count"] = "3", "5"
    g["instance_list"][1]["pod_name"] = "tf-bae41"
    assert set(paths(validate(doc), "R14")) == {"group_list[0].instance_count", "group_list[0].device_count",
                                                "group_list[0].instance_list[1].pod_name"}


def test_v2_rank_count_types_and_ranks():
    doc = load("hccl_a5_v2.0.json")
    doc["rank_count"] = 5
    doc["rank_list"][1]["rank_id"] = "1"  # 2.0 uses numbers
    doc["rank_list"][2]["level_list"][0]["net_layer"] = 9
    got = set(paths(validate(doc), "R15"))
    assert {"rank_count", "rank_list[1].rank_id", "rank_list[2].level_list[0].net_layer"} <= got


def test_rank_size_must_equal_ranks_in_table():
    assert paths(validate(v10(), env={"RANK_SIZE": "8"}), "L2") == [""]
    assert "L2" not in rules(validate(v10(), env={"RANK_SIZE": "4"}))


def test_every_problem_reported_in_one_run():
    doc = v10(servers=3, per=2)
    for s in doc["server_list"]:
        for d in s["device"]:
            d["device_ip"] = "127.0.0.1"
    assert len(paths(validate(doc), "R9")) == 6


# -- robustness: mutated tables never raise -------------------------------------------------

BASES = [json.dumps(load(n)) for n in CLEAN + ["hccl_group_list_template2.json"]]
weird = st.one_of(st.none(), st.booleans(), st.integers(min_value=-10**30, max_value=10**30),
                  st.floats(allow_nan=False), st.text(max_size=12), st.lists(st.integers(), max_size=3),
                  st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))


def _mutate(doc, data):
    """Walk to a random node; drop a key, change a value's type, or nest it deep."""
    node = doc
    for _ in range(data.draw(st.integers(0, 5))):
        if isinstance(node, dict) and node:
            k = data.draw(st.sampled_from(sorted(node)))
            if not isinstance(node[k], (dict, list)):
                break
            node = node[k]
        elif isinstance(node, list) and node:
            nxt = node[data.draw(st.integers(0, len(node) - 1))]
            if not isinstance(nxt, (dict, list)):
                break
            node = nxt
    if isinstance(node, dict) and node:
        k = data.draw(st.sampled_from(sorted(node)))
        action = data.draw(st.sampled_from(["drop", "replace", "deep"]))
        if action == "drop":
            del node[k]
        elif action == "replace":
            node[k] = data.draw(weird)
        else:
            node[k] = json.loads("[" * 50 + "1" + "]" * 50)
    elif isinstance(node, list) and node:
        node[data.draw(st.integers(0, len(node) - 1))] = data.draw(weird)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_tables_never_raise_and_always_give_a_verdict(data):
    doc = json.loads(data.draw(st.sampled_from(BASES)))
    for _ in range(data.draw(st.integers(1, 3))):
        _mutate(doc, data)
    table = validate_rank_table_text(json.dumps(doc))
    assert isinstance(table, RankTable)
    for p in table.problems:
        assert p.severity in ("fail", "warn", "info") and p.rule and p.message
        p.describe().encode("utf-8")  # printable


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(BASES), st.data())
def test_truncated_and_garbled_text_never_raises(text, data):
    cut = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.text(max_size=20))
    for variant in (text[:cut], text[:cut] + junk + text[cut:]):
        table = validate_rank_table_text(variant)
        assert table.problems or table.format  # an error, or a verdict on a readable table


def test_pathological_inputs_give_errors_not_exceptions():
    huge = '{"version":"1.0","server_count":"' + "9" * 5000 + '","server_list":[],"status":"completed"}'
    assert "R4" in rules(validate_rank_table_text(huge))
    huge_number = '{"version":"1.0","server_count":' + "9" * 5000 + ',"server_list":[],"status":"completed"}'
    assert "R4" in rules(validate_rank_table_text(huge_number))
    deep = "[" * 100000 + "]" * 100000
    assert rules(validate_rank_table_text(deep)) <= {"R1", "R3"} and validate_rank_table_text(deep).problems
    surrogate = json.dumps(v10()).replace("node_0", "\\ud800\\u4e2d")
    t = validate_rank_table_text(surrogate)
    for p in t.problems:
        p.describe().encode("utf-8")


# -- the subcommand ------------------------------------------------------------------------


def test_a_2_0_table_is_not_said_to_have_0_servers():
    path = os.path.join(RT_DIR, "hccl_a5_v2.0.json")
    proc = run_cli("rank-table", path)
    assert proc.returncode == 0, proc.stderr
    assert "0 server" not in proc.stdout
    assert_shows(proc.stdout, "format {format}: {ranks} ranks (a 2.0 table lists ranks, not servers), status {status}",
                 ranks=4)
    doc = json.loads(run_cli("rank-table", path, "--format", "json").stdout)
    assert doc["servers"] is None and doc["ranks"] == 4
    check = json.loads(run_cli("check", "--only", "rank_table.valid", "--format", "json",
                               env={"RANK_TABLE_FILE": path}).stdout)
    [valid] = check["findings"]
    assert "0 server" not in valid["summary"] and "4 ranks" in valid["summary"]


def test_a_report_saved_with_the_old_error_warning_words_is_judged_the_same():
    from ascend_doctor.checks import CheckContext
    from ascend_doctor.checks.rank_table import check_rank_table_valid
    from ascend_doctor.facts import Facts
    from ascend_doctor.rank_table import problem_severity

    assert (problem_severity("error"), problem_severity("warning"), problem_severity("info")) == ("fail", "warn", "info")
    verdicts = []
    for fail, warn in (("fail", "warn"), ("error", "warning")):
        facts = Facts()
        rt = facts.rank_table
        rt.env_var, rt.path, rt.format, rt.status, rt.server_count, rt.rank_count = \
            "RANK_TABLE_FILE", "/job/rt.json", "1.0", "completed", 1, 8
        rt.problems = [{"path": "server_list[0].device[1].device_ip", "severity": fail, "rule": "R9", "message": "is bad"},
                       {"path": "server_list[0].host_port", "severity": warn, "rule": "R10", "message": "is low"}]
        rt.problem_counts = {fail: 1, warn: 1, "info": 0}
        f = check_rank_table_valid(CheckContext(facts=facts, options={}))
        verdicts.append((f.status, f.summary))
    assert verdicts[0] == verdicts[1] and verdicts[0][0] == "fail" and "1 error(s), 1 warning(s)" in verdicts[0][1]


def test_one_order_of_the_rank_table_variables(make_snapshot):
    """MindSpore reads MINDSPORE_HCCL_CONFIG_PATH before RANK_TABLE_FILE (ascend_formats.md §4.7): the launch
    facts aggregate compares and the rank-table facts the checks judge must name the same file."""
    from ascend_doctor.host import SnapshotHost
    from ascend_doctor.probes import collect_facts
    from ascend_doctor.probes.rank_table import RANK_TABLE_VARS

    assert RANK_TABLE_VARS == ("MINDSPORE_HCCL_CONFIG_PATH", "RANK_TABLE_FILE")
    with open(os.path.join(RT_DIR, "hccl_910_template1_v1.0.json")) as f:
        first = f.read()
    second = json.dumps(v10(servers=3, per=1))
    snap = make_snapshot(files={"/job/ms.json": first, "/job/rt.json": second},
                         env={"MINDSPORE_HCCL_CONFIG_PATH": "/job/ms.json", "RANK_TABLE_FILE": "/job/rt.json"})
    facts = collect_facts(SnapshotHost(snap))
    assert (facts.rank_table.env_var, facts.rank_table.path) == ("MINDSPORE_HCCL_CONFIG_PATH", "/job/ms.json")
    launch_table = facts.launch.rank_table
    assert launch_table.path == "/job/ms.json"
    assert [s["server_id"] for s in launch_table.servers] == ["node_0", "node_1"]
