"""triage/match/codes.py: a bare code counts only in an error context (issue 21, item 1).

The INFO lines are the logs' own forms (CANN plog, HCCL, MindSpore, torch_npu glog, msrun/mindformers progress) with
the process id, thread id, step, size or id set to a number that is also an ACL/runtime code (PIDs go to 4 million,
so 507010 is an ordinary pid). None of them may name a fault, in `kb match` (KnowledgeBase.match_line) nor in
`triage` (the scanner, every matcher). The error lines are the same codes reported as errors: they still match.
"""

import pytest

from ascend_doctor.kb.load import load_knowledge_base
from ascend_doctor.triage.match.codes import code_in_context, split_codes
from ascend_doctor.triage.match.scanner import Scanner
from ascend_doctor.triage import Triage

KB = load_knowledge_base()

ORDINARY = [
    # HCCL plog: pid in MODULE(pid,proc), thread id in [tid] (the line the issue quotes)
    "[INFO] HCCL(507010,python):2024-07-12-10:21:33.512.118 [op_base.cc:1540][507010][Entry-HcclCommInitRootInfo]"
    "rootInfo[10.0.0.1%eth0_60000_0_1720750893512118], rank[0], rankSize[8]",
    "[INFO] HCCL(507033,python):2024-07-12-10:21:33.512.118 [op_base.cc:1200][507034]HcclCommInitRootInfo success, "
    "take time [507008]us, rankNum[8], rank[0]",
    # CANN runtime / GE / ACL plog: pid, then the thread id right after the [file:line]
    "[INFO] RUNTIME(507010,python):2024-07-12-10:21:33.512.118 [stream.cc:321]507011 Setup: stream_id=5, device_id=0",
    "[INFO] GE(107001,python):2024-07-12-10:21:33.512.118 [graph_manager.cc:88]207001 PreRun: Start to pre-run graph "
    "507008, session id 507015",
    "[EVENT] ASCENDCL(507033,python):2024-07-12-10:21:33.512.118 [acl.cpp:100]507033 aclInit: start to execute aclInit",
    # a failure word on an INFO line, the pid still a pid
    "[INFO] HCCL(507010,python):2024-07-12-10:21:33.512.118 [topoinfo_exchange_agent.cc:83][507010]connect failed, "
    "retry after 1s",
    # MindSpore: pid:tid in ME(...), sizes and counts
    "[INFO] ME(507010:281473,MainProcess):2024-07-12-10:21:33.512.118 [mindspore/ccsrc/pipeline/jit/ps/pipeline.cc:507] "
    "CompileInner] Start compile graph: kernel_graph_507008, phase: train.507008",
    "[WARNING] DEVICE(507010,7f3a2b1c0740,python):2024-07-12-10:21:33.512.118 [ascend_memory_adapter.cc:117] "
    "Initialize] Reserved memory size for other components(507008) is less than recommend size(4073869312)",
    "[INFO] MD(507033,7f3a,python):2024-07-12-10:21:33.512.118 [data_queue_op.cc:88] SendDataToAscend] Send 507010 "
    "batch(es) to device, queue size 2",
    # training progress (msrun / MindSpore / mindformers)
    "epoch: 1 step: 507008, loss is 0.532",
    "2024-07-12 10:21:33,512 - mindformers[mindformers/core/callback/callback.py:318] - INFO - { Epoch:[  1/ 10], "
    "step:[ 507010/ 1000000], loss: 2.1, per_step_time: 512ms",
    # torch_npu: glog INFO (thread id after the time), torch_npu's own INFO form
    "I0712 10:21:33.512118 507010 ProcessGroupHCCL.cpp:623] [Rank 0] ProcessGroupHCCL initialization options: size: 8",
    "[I 2024-07-12 10:21:33.512] (PID:507010, Device:0, RankID:0) init npu device",
]

# error lines whose numbers are ids and sizes, not codes: no fault is named from those numbers
IDS_IN_ERRORS = [
    "[ERROR] HCCL(507010,python):2024-07-12-10:21:33.512.118 [op_base.cc:1540][507010][Init][CommRootInfoConfig]"
    "HcclCommInitRootInfo failed.",
    "[ERROR] RUNTIME(1234,python):2024-07-12-10:21:33.512.118 [stream.cc:900]507010 Synchronize: stream sync failed",
    "[ERROR] DRV(1234,python):2024-07-12-10:21:33.512.118 [devmm.c:12] malloc of 507008 bytes failed",
]

AS_ERRORS = [
    ("RuntimeError: ACL stream synchronize failed, error code:507008", "SOC_VERSION_UNSUPPORTED_507008"),
    ("[ERROR] DRV(1234,python):2024-07-12-10:21:33.512.118 halGetDeviceInfo failed, ret=507010", "DEVICE_LOST_HEARTBEAT"),
    ("RuntimeError: npuSynchronizeDevice: NPU function error: AclrtSynchronizeDevice, error code is 507010",
     "DEVICE_LOST_HEARTBEAT"),
    ("EI0006: [PID: 507010] 2024-07-12-10:21:33.512.118 Getting socket times out. Reason: Remote Rank did not send "
     "the data in time", "HCCL_EI0006_SOCKET_TIMEOUT"),
    ("[PID: 2103452] 2025-11-03-20:18:46.447.213 Resource_Error_Insufficient_Device_Memory(EI0011): Failed to allocate",
     "HCCL_DEVICE_MEMORY_INSUFFICIENT"),
]


@pytest.mark.parametrize("line", ORDINARY)
def test_an_ordinary_line_names_no_fault_in_kb_match(line):
    assert [s.id for s in KB.match_line(line) if s.severity != "info"] == []


@pytest.mark.parametrize("line", IDS_IN_ERRORS)
def test_ids_and_sizes_on_an_error_line_are_not_codes(line):
    assert [s.id for s in KB.match_line(line) if s.has_bare_codes()] == []


@pytest.mark.parametrize("line,sid", AS_ERRORS)
def test_a_code_reported_as_an_error_still_matches(line, sid):
    assert sid in [s.id for s in KB.match_line(line)]


@pytest.mark.parametrize("matcher", ["hyperscan", "re2", "python"])
def test_triage_agrees_with_kb_match_on_every_matcher(matcher, tmp_path):
    log = tmp_path / "plog-507010_20240712102133512.log"
    log.write_text("\n".join(ORDINARY + [line for line, _sid in AS_ERRORS]) + "\n")
    scanner = Scanner(KB.signatures, [matcher])
    data = log.read_bytes()
    found = {KB.signatures[i].id for _s, _e, hits in scanner.scan(data) for i in hits}
    want = {sid for _line, sid in AS_ERRORS}
    assert want <= found
    for line in ORDINARY + IDS_IN_ERRORS:
        assert not [KB.signatures[i].id for i in scanner.match_line(line.encode())
                    if KB.signatures[i].has_bare_codes() or line in ORDINARY], line


def test_triage_of_ordinary_lines_finds_nothing_and_exits_clean(tmp_path):
    log = tmp_path / "worker_0.log"
    log.write_text("\n".join(ORDINARY) + "\n")
    t = Triage(KB, root_cause=False)
    t.add_path(str(log))
    result = t.result()
    assert [p.signature.id for p in result.problems if p.severity != "info"] == []
    assert not result.failed("fail")


def test_only_a_bare_code_branch_is_split_off():
    phrases, codes, alts, code_alts = split_codes(
        [r"lost heartbeat|\b507010\b", r"(error code is ?|ret\[)507033", r"\bE[A-Z0-9][0-9]{4}[):]", r"\bEI0006\b"],
        [["507008"], ["Inner Error", "E19999"]])
    assert codes == [r"\b507010\b", r"\bEI0006\b"]
    assert phrases == ["lost heartbeat", r"(error code is ?|ret\[)507033", r"\bE[A-Z0-9][0-9]{4}[):]"]
    assert alts == [["Inner Error", "E19999"]] and code_alts == [["507008"]]


def test_code_context_reads_the_words_around_the_code():
    def ok(line, code="507010"):
        at = line.index(code)
        return code_in_context(line, at, at + len(code)) and code_in_context(line.encode(), at, at + len(code))

    assert ok("aclrtSetDevice failed, ret[507010]")
    assert ok("x retCode=507010")
    assert ok("[WARNING] rtGetDevMsg failed, errno 507010")
    assert not ok("[WARNING] step 507010 done")
    assert not ok("[ERROR] HCCL(507010,python): x failed")
    assert not ok("[ERROR] took 507010 ms")
    assert ok("EL0001: Device_Absent/Abnormal", "EL0001")
    assert not ok("[INFO] tag EL0001 seen", "EL0001")
    # torch's c10 header is an error level too: `[rank1]:[E324 13:00:25.428 file.cpp:1]` (W/I are not)
    assert ok("[rank1]:[E324 13:00:25.428092542 ProcessGroupHCCL.cpp:1] aclrtSynchronizeStream gave 507010")
    assert not ok("[rank1]:[W324 13:00:25.428092542 ProcessGroupHCCL.cpp:1] aclrtSynchronizeStream gave 507010")


def test_hyperscan_sends_no_info_line_of_a_code_like_pid_to_python():
    """The lines of a process whose pid is 507010 are not even candidates (no Python runs on them)."""
    pytest.importorskip("hyperscan")
    scanner = Scanner(KB.signatures, ["hyperscan"])
    heartbeat = KB.signatures.index(KB.signature("DEVICE_LOST_HEARTBEAT"))
    for line in (ORDINARY[0], ORDINARY[2], ORDINARY[11]):
        assert heartbeat not in scanner.candidates(line.encode()), line
    assert heartbeat in scanner.candidates(AS_ERRORS[1][0].encode())
