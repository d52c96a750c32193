"""A line that is the effect of another known failure says so, and the headline names the failure (issue 21).

The knowledge base's `leads_to` names the faults one causes: the reference tool's fault chains by ascend-fd id, and our
own by signature id, where a line is the usual effect of another entry's (a port "in use" after the NIC's RDMA init
failed, a null context after the device could not be set, a node "timed out" after msrun killed it). The round-24
precision audit (tests/fixtures/precision_audit_r24) judged such statements misleading when they stood alone.
"""

import html
import json
import os

import pytest

from ascend_doctor.kb.load import load_knowledge_base
from ascend_doctor.triage import triage_paths

from tests.helpers import run_cli
from tests.helpers.i18n_asserts import assert_shows, shows
from tests.triage.test_triage import LEADS_WRAPPER

# the headline when an effect was logged before its cause (message ids: the English of the catalogues)
LEADS_EFFECT = ("{count} known problem(s). The leading {label}: {problem} at {place}; {earlier} at {earlier_place} came "
                "before it but follows from {cause}.")
HTML_EFFECT = "{earlier} came before it, at {place}, but follows from {cause}."

KB = load_knowledge_base()
HERE = os.path.dirname(__file__)
CORPUS = os.path.join(HERE, "..", "fixtures", "corpus")


def _excerpt(name):
    for folder, _, files in os.walk(CORPUS):
        for f in files:
            if f.startswith(name):
                return os.path.join(folder, f)
    raise AssertionError(f"no corpus excerpt {name}")


def _own_example(sid):
    """An example of the entry that explains it as this entry (another may explain its first example better)."""
    for line in KB.signature(sid).examples[:12]:
        if sid in {s.id for s in KB.explaining(line)}:
            return line
    raise AssertionError(f"no example of {sid} is named as it")


def _own_edges():
    ids = {s.id for s in KB.signatures}
    return [(s.id, e) for s in KB.signatures for e in s.leads_to if e in ids]


def test_every_leads_to_names_one_of_ours_or_a_reference_fault():
    """Our id, an ascend-fd id of its rules table, or a generic code entry's id named with its code, as ascend-fd
    names it (AISW_CANN_ERRCODE_Custom_EE9999: kb.peers)."""
    from ascend_doctor.kb.peers import fd_names_code, fd_rules

    ids = {s.id for s in KB.signatures}
    fd_ids = set(fd_rules())
    coded = [fid for fid in fd_ids if fd_names_code(fid)]

    def known(name):
        return name in ids or name in fd_ids or any(name.startswith(c + "_") for c in coded)

    assert coded
    assert not [(s.id, e) for s in KB.signatures for e in s.leads_to if not known(e)]


def test_our_edges_have_no_loops():
    edges = _own_edges()
    assert len(edges) >= 10
    assert not [(a, b) for a, b in edges if a == b or (b, a) in edges]


@pytest.mark.parametrize("cause,effect", _own_edges())
def test_each_edge_links_its_examples_on_one_node(tmp_path, cause, effect):
    """The cause's first example and the effect's, effect first in the file: the effect is caused_by the cause, comes
    right after it, and does not lead the report."""
    log = tmp_path / "train.log"
    log.write_text(_own_example(effect) + "\n" + _own_example(cause) + "\n")
    res = triage_paths([str(log)], KB)
    found = {p.signature.id: p for p in res.problems}
    assert cause in found and effect in found, sorted(found)
    assert found[effect].caused_by in {cause} | {q for q in found if effect in KB.signature(q).leads_to}
    assert res.lead()[0].signature.id != effect or found[effect].caused_by not in found


def test_an_effect_on_another_node_is_not_linked(tmp_path):
    """A port in use on one node is not the effect of another node's NIC failure."""
    cause, effect = _own_example("HCCP_RA_RDEV_INIT_FAILED"), _own_example("HCCL_PORT_IN_USE")
    for node, line in (("node-a", cause), ("node-b", effect)):
        d = tmp_path / "job" / node / "msrun_log"
        d.mkdir(parents=True)
        (d / "worker_0.log").write_text(line + "\n")
    data = json.loads(run_cli("triage", str(tmp_path / "job"), "--format", "json").stdout)
    byid = {p["id"]: p for p in data["problems"]}
    assert byid["HCCL_PORT_IN_USE"]["caused_by"] is None
    (tmp_path / "job" / "node-a" / "msrun_log" / "worker_1.log").write_text(effect + "\n")
    data = json.loads(run_cli("triage", str(tmp_path / "job"), "--format", "json").stdout)
    byid = {p["id"]: p for p in data["problems"]}
    assert byid["HCCL_PORT_IN_USE"]["caused_by"] == "HCCP_RA_RDEV_INIT_FAILED"


# The audited real excerpts whose statement was misleading alone: (excerpt, effect, its cause, the headline's id)
AUDITED = [
    ("p22_vllm_ej0003_bind_port", "HCCL_FUNCTION_ERROR_RESULT", "HCCL_PORT_IN_USE", "HCCL_PORT_IN_USE"),
    ("k14_a5_set_device_hal_open", "CANN_RUNTIME_CALL_FAILED", "DEV_SETUP_507033", "DEV_SETUP_507033"),
    ("u23_vllm_ascend_torchair_ej0002", "HCCL_PORT_IN_USE", "HCCP_RA_RDEV_INIT_FAILED", None),
    ("h19g_21_msrun_worker_sigkill", "MS_CLUSTER_NODE_TIMED_OUT", "MS_MSRUN_WORKER_KILLED_BY_SIGNAL",
     "MS_MSRUN_WORKER_KILLED_BY_SIGNAL"),
    ("h19g_13_msrun_worker_num_not_spawned", "MS_CLUSTER_TOPOLOGY_TIMEOUT", "MS_MSRUN_WORKER_COUNT_MISMATCH",
     "MS_MSRUN_WORKER_COUNT_MISMATCH"),
    ("h35_driver_so_not_loaded", "MSPROF_DRIVER_CALL_FAILED", "NPU_DRIVER_SO_NOT_LOADABLE", "NPU_DRIVER_SO_NOT_LOADABLE"),
    # round 25's second audit (tests/fixtures/precision_audit_r25): the scheduler's port was bound, then MindSpore's
    # list of three reasons ("spawned worker process number is not as expected" first)
    ("h19g_12_msrun_port_in_use", "MS_MSRUN_WORKER_COUNT_MISMATCH", "MS_CLUSTER_SOCKET_BIND_FAILED",
     "MS_CLUSTER_SOCKET_BIND_FAILED"),
    # round 26 (the second and third audits): the runtime's TraceBack lines of an AI CPU timeout, GE's compiler and
    # torch_npu's GE start after the chip's platform description failed to load, pip's empty answer after its proxy
    # refused the connection (transformers' KeyError before its unknown-architecture error: a chain, test_triage)
    ("h10_15_getnext_aicpu_timeout_e30008", "CANN_E39999_AICPU_EXCEPTION", "AICPU_E30008_OP_TIMEOUT",
     "AICPU_E30008_OP_TIMEOUT"),
    ("h10_15_getnext_aicpu_timeout_e30008", "CANN_RUNTIME_CALL_FAILED", "AICPU_E30008_OP_TIMEOUT",
     "AICPU_E30008_OP_TIMEOUT"),
    ("s11_vllm_910_set_precision_mode_platform_info", "ACL_OP_COMPILER_INIT_FAILED", "GE_PLATFORM_INFO_INIT_FAILED",
     "GE_PLATFORM_INFO_INIT_FAILED"),
    ("h11_43_vllm_910b2_platform_info_init_failed_500001", "TORCH_NPU_INIT_GE_FAILED_500001",
     "GE_PLATFORM_INFO_INIT_FAILED", "GE_PLATFORM_INFO_INIT_FAILED"),
    ("h21i_12_pip_proxy_unreachable", "PIP_REQUIREMENT_NOT_AVAILABLE", "NETWORK_PROXY_CONNECT_FAILED",
     "NETWORK_PROXY_CONNECT_FAILED"),
    # the driver's completion queue read failed after the device stopped answering (the EL0001 lines after it)
    ("h34_lost_heartbeat_el0001", "CANN_RUNTIME_CALL_FAILED", "DEVICE_LOST_HEARTBEAT", "DEVICE_LOST_HEARTBEAT"),
    # round 27 (the fifth audit, tests/fixtures/precision_audit_r27): hccl_tools' KeyError after hccn_tool was not
    # found, msrun's list of reasons after the scheduler's address was refused
    ("g13_hccn_tool_not_found", "PY_DICT_KEY_NOT_FOUND", "RANKTABLE_GEN_HCCN_TOOL_MISSING",
     "RANKTABLE_GEN_HCCN_TOOL_MISSING"),
    ("h21i_09_msrun_master_port_out_of_range", "MS_MSRUN_WORKER_COUNT_MISMATCH", "MS_MSRUN_SCHED_ADDR_INVALID",
     "MS_MSRUN_SCHED_ADDR_INVALID"),
]


@pytest.mark.parametrize("name,effect,cause,lead", AUDITED)
def test_audited_effects_name_their_cause(name, effect, cause, lead):
    res = triage_paths([_excerpt(name)], KB)
    found = {p.signature.id: p for p in res.problems}
    assert found[effect].caused_by == cause
    ids = [p.signature.id for p in res.problems]
    assert ids.index(cause) < ids.index(effect)
    if lead:
        assert res.lead()[0].signature.id == lead


def test_the_headline_says_the_earlier_effect_follows_from_its_cause():
    """The topology timeout is logged 13 lines before msrun says too few workers were spawned: it does not lead."""
    from ascend_doctor import i18n

    log = _excerpt("h19g_13_msrun_worker_num_not_spawned")
    data = json.loads(run_cli("triage", log, "--format", "json").stdout)
    over = data["first_problem"]["leads_over"]
    assert data["first_problem"]["id"] == "MS_MSRUN_WORKER_COUNT_MISMATCH"
    assert over["id"] == "MS_CLUSTER_TOPOLOGY_TIMEOUT" and over["why"] == "effect"
    said = dict(label="FAIL", problem="MS_MSRUN_WORKER_COUNT_MISMATCH", earlier="MS_CLUSTER_TOPOLOGY_TIMEOUT",
                cause="MS_MSRUN_WORKER_COUNT_MISMATCH")
    assert_shows(run_cli("triage", log, "--no-color").stdout, LEADS_EFFECT, **said)
    assert not shows(run_cli("triage", log, "--no-color").stdout, LEADS_WRAPPER)
    assert_shows(html.unescape(run_cli("triage", log, "--format", "html").stdout), HTML_EFFECT,
                 earlier="MS_CLUSTER_TOPOLOGY_TIMEOUT", cause="MS_MSRUN_WORKER_COUNT_MISMATCH")
    zh = html.unescape(run_cli("triage", log, "--format", "html", "--lang", "zh").stdout)  # not wrapped at 80 columns
    i18n.set_lang("zh")
    try:
        assert_shows(zh, HTML_EFFECT, earlier="MS_CLUSTER_TOPOLOGY_TIMEOUT", cause="MS_MSRUN_WORKER_COUNT_MISMATCH")
    finally:
        i18n.set_lang("en")
