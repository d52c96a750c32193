"""kb/peers.py: an ascend-fd id only where the peer's own rule holds (issue 21, item 2).

data/ascend_fd_rules.json holds each ascend-fd id's line rule (its all_of strings or regex, from the peer's
kg-config.json, or from its source for the hccn_tool parsers); scripts/build_fd_rules.py writes it.
"""

import json
import os

import pytest

from ascend_doctor.kb.load import load_knowledge_base
from ascend_doctor.kb.peers import fd_rule_holds, fd_rules, peer_ids
from ascend_doctor.triage import Triage
from tests.helpers import REPO, script_module

KB = load_knowledge_base()
NAMING = [s for s in KB.signatures if s.ascend_fd]


def _witnesses(sig, fid):
    """The lines an id is checked on: the signature's examples, then the lines the peer's rule itself describes
    (each all_of alternative as one line) where the signature matches them too."""
    rule = json.load(open(os.path.join(REPO, "data", "ascend_fd_rules.json"), encoding="utf-8"))["rules"][fid]
    own = [" ".join(alt) for alt in rule.get("all_of", [])]
    return list(sig.examples) + [line for line in own if sig.search(line)]


@pytest.mark.parametrize("sig", NAMING, ids=[s.id for s in NAMING])
def test_every_peer_id_of_a_signature_holds_on_its_own_lines(sig):
    unknown = [f for f in sig.ascend_fd if f not in fd_rules()]
    assert not unknown, f"{sig.id}: ids ascend-fd does not have: {unknown}"
    for fid in sig.ascend_fd:
        derived = fd_rules()[fid][4]
        if derived:  # no line rule at the peer: only a signature that matches no line either may carry it
            assert sig.derived, f"{sig.id} matches lines but {fid} has no line rule in ascend-fd"
            continue
        lines = _witnesses(sig, fid)
        assert any(fd_rule_holds(fid, line) for line in lines), \
            f"{sig.id}: the rule of {fid} holds on none of its lines: {lines}"


def test_a_close_topic_is_not_enough():
    inner = KB.signature("CANN_INNER_ERROR_X9999")
    assert "AISW_MindSpore_Frontend_07" in inner.ascend_fd
    assert peer_ids(inner, ["EZ9999: Inner Error!"]) == []  # that entry needs E19999 + Inner Error
    assert peer_ids(inner, ["E19999: Inner Error!"]) == ["AISW_MindSpore_Frontend_07"]
    sync = KB.signature("PT_NPU_SYNCHRONIZE_FAILED")
    line = ("RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:467 NPU function "
            "error: AclrtSynchronizeDevice, error code is 507018")
    assert peer_ids(sync, [line]) == ["AISW_PyTorch_Train_23"]  # not Train_25 (synchronize_and_free_events)


def test_generic_code_entries_carry_the_code():
    generic = KB.signature("CANN_DRV_ERROR_CODE_REPORTED")
    assert peer_ids(generic, ["EE1002: The argument is invalid"]) == ["AISW_CANN_ERRCODE_Custom_EE1002"]
    torch = KB.signature("TORCH_NPU_ERR_CODE_WRAPPER")
    assert peer_ids(torch, ["[ERROR] 2024-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR02200 DIST call hccl "
                            "api failed."]) == ["AISW_PyTorch_ERRCODE_Common_ERR02200"]


def test_triage_attaches_only_the_ids_the_lines_support(tmp_path):
    log = tmp_path / "worker_0.log"
    log.write_text("EZ9999: Inner Error!\nEE1002: The argument is invalid\nEC0010: The argument is invalid\n")
    t = Triage(KB, root_cause=False)
    t.add_path(str(log))
    got = {p.signature.id: p.to_json()["ascend_fd"] for p in t.result().problems}
    assert got["CANN_INNER_ERROR_X9999"] == []
    # the EE1002 line is explained by the class entry that reads the vendor's catalogue, the EC0010 line (a code the
    # catalogue does not list) by the one that reads its message; each carries the code's id in turn
    assert got["CANN_DRV_ERROR_CODE_REPORTED"] == ["AISW_CANN_ERRCODE_Custom_EZ9999"]
    assert got["CANN_CATALOGUED_ERROR_CODE"] == ["AISW_CANN_ERRCODE_Custom_EE1002"]
    assert got["CANN_ERROR_CODE_MESSAGE"] == ["AISW_CANN_ERRCODE_Custom_EC0010"]


def test_the_rules_file_is_what_the_build_script_writes():
    facts = os.path.join(os.path.dirname(REPO), "shared", "reference", "ascend_fd_kb_facts.json")
    if not os.path.exists(facts):
        pytest.skip("../shared/reference is not beside the repo")
    mod = script_module("build_fd_rules")
    with open(facts, encoding="utf-8") as fh:
        built = mod.build(json.load(fh))
    with open(os.path.join(REPO, "data", "ascend_fd_rules.json"), encoding="utf-8") as fh:
        assert json.load(fh) == built
