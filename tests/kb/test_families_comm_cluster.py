"""data/kb/families_comm_cluster.json: the communication libraries and cluster tools on Ascend (issue 21). SHMEM for
Ascend's init checks, bootstrap and symmetric allocations (and its error log form as a class entry), HCCP's device NIC
initialisation, HCCL's and HCCP's plog errors (a class entry), HCCL's call-trace lines (a wrapper naming the
HcclResult) and its SDMA error EI0012, MindIO TTP's processors without a controller (and TTP's error log form), MindIO
ACP's ockiod service and dump-checkpoint alert, MindCluster's components without ClusterD (and hwlog's error form),
ascend-fd's own input checks, Mooncake's metadata storage and peer segments. Each entry reads members its examples do
not show, says the member in its title, stays quiet on ordinary lines that share its words and on every clean excerpt
of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_comm_cluster")
CLASS_ENTRIES = {"SHMEM_ERROR_LOGGED", "MINDIO_TTP_ERROR_LOGGED", "MINDCLUSTER_COMPONENT_ERROR_LOGGED",
                 "HCCL_PLOG_ERROR_LOGGED"}
# the neighbours these entries must not double-read
FAMILY = IDS + ["HCCL_ERRNO_RESULT", "HCCL_FUNCTION_ERROR_RESULT", "HCCL_FD_NIC_DOWN_BEFORE_TASK", "HCCP_CHECK_IP_FAILED",
                "MINDIO_TTP_REPAIR_FAILED", "MINDX_MINDIO_TTP_BROKEN_LINK", "KV_CACHE_TRANSFER_FAILED",
                "CANN_CATALOGUED_ERROR_CODE"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_class_entries_and_one_wrapper_without_peer_ids(kb):
    assert set(IDS) == {"SHMEM_INIT_ATTR_INVALID", "SHMEM_BOOTSTRAP_FAILED", "SHMEM_ASYMMETRIC_ALLOC",
                        "SHMEM_ERROR_LOGGED", "HCCP_RA_RDEV_INIT_FAILED", "HCCL_CALL_TRACE_RESULT",
                        "HCCL_EI0012_SDMA_ERROR", "MINDIO_TTP_CONTROLLER_UNREACHABLE", "MINDIO_TTP_ERROR_LOGGED",
                        "MINDIO_ACP_SERVICE_NOT_AVAILABLE", "MINDIO_ACP_DUMP_CHECKPOINT_FAILED",
                        "TASKD_CLUSTERD_UNREACHABLE", "MINDCLUSTER_COMPONENT_ERROR_LOGGED",
                        "MOONCAKE_METADATA_PUBLISH_FAILED", "MOONCAKE_SEGMENT_OPEN_FAILED", "ASCEND_FD_COMMAND_FAILED",
                        "HCCL_PLOG_ERROR_LOGGED", "HCCL_SAMPLE_ACL_CALL_FAILED", "SHMEM_PYTHON_LIBRARY_NOT_LOADED"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_comm_cluster.json" and not sig.ascend_fd, sid
        assert sig.kind == ("wrapper" if sid == "HCCL_CALL_TRACE_RESULT" else "root"), sid
        assert sig.fallback == (sid in CLASS_ENTRIES) and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # SHMEM's init checks: other attributes, the port range, the unique-id methods
    ("2026-01-10 10:00:00.123456 error 77 pid[77] [SHM_SHMEM shmem_init.cpp:174] local_mem_size less than or equal to 0",
     "SHMEM_INIT_ATTR_INVALID", ": local_mem_size less than or equal to 0"),
    ("2026-01-10 10:00:00.123456 error 77 pid[77] [SHM_SHMEM shmem_init.cpp:291] Invalid start_port value: 70000, "
     "must be in range [0, 65535]", "SHMEM_INIT_ATTR_INVALID", ": Invalid start_port value: 70000"),
    ("2026-01-10 10:00:00.123456 error 77 pid[77] [SHM_SHMEM shmem_init.cpp:345] input_port must be 0 in default mode, "
     "but input_port is 8000", "SHMEM_INIT_ATTR_INVALID", "input_port is 8000"),
    ("2026-01-10 10:00:00.123456 error 77 pid[77] [SHM_SHMEM shmemi_bootstrap_config_store.cpp:60] Using method "
     "get_unique_id_static_magic requires setting SHMEM_UID_SESSION_ID.", "SHMEM_INIT_ATTR_INVALID",
     ": Using method get_unique_id_static_magic requires setting SHMEM_UID_SESSION_ID"),
    # SHMEM's bootstrap: a poll timeout, a socket error, the ring barrier
    ("2026-01-10 10:00:00.123456 error 77 pid[77] [SHM_SHMEM uid_socket.cpp:210] poll timeout (120000ms) - fd: 31",
     "SHMEM_BOOTSTRAP_FAILED", ": poll timeout (120000ms) - fd: 31"),
    ("2026-01-10 10:00:00.123456 error 77 pid[77] [SHM_SHMEM uid_socket.cpp:250] Socket operation failed (fd: 31, "
     "op: 1) - error: Connection reset by peer (errno: 104)", "SHMEM_BOOTSTRAP_FAILED",
     ": Socket operation failed (fd: 31, op: 1) - error: Connection reset by peer"),
    ("2026-01-10 10:00:00.123456 error 77 pid[77] [SHM_SHMEM shmemi_bootstrap_uid.cpp:880]  pe 2: barrier recv failed "
     "return shmem error: -6", "SHMEM_BOOTSTRAP_FAILED", ": pe 2: barrier recv failed"),
    ("2026-01-10 10:00:00.123456 error 77 pid[77] [SHM_SHMEM shmemi_bootstrap_uid.cpp:700]  rank: 4 . version mismatch "
     "with root return shmem error: -3", "SHMEM_BOOTSTRAP_FAILED", "version mismatch with root"),
    # SHMEM's Python package: the startup guard's warning form, an undefined symbol in its library
    ("WARNING:root:[SHMEM startup guard] libshmem.so resolved to an unexpected path.", "SHMEM_PYTHON_LIBRARY_NOT_LOADED",
     ": libshmem.so resolved to an unexpected path"),
    ("RuntimeError: Failed to load shared library /opt/shmem/backends/910/libshmem.so: /opt/shmem/backends/910/libshmem.so: "
     "undefined symbol: aclrtGetSocName", "SHMEM_PYTHON_LIBRARY_NOT_LOADED",
     ": Failed to load shared library /opt/shmem/backends/910/libshmem.so"),
    # SHMEM's other errors: the class entry with its file
    ("2026-01-10 10:00:00.123456 error 77 pid[77] [SHM_SHMEM shmem_team.cpp:120] team split failed, invalid stride",
     "SHMEM_ERROR_LOGGED", "at shmem_team.cpp:120: team split failed"),
    # HCCP: the bracket form the FAQ quotes
    ("HCCP: ra rdev init failed, ret [-17]", "HCCP_RA_RDEV_INIT_FAILED", "ret -17"),
    # HCCL's call trace with another code
    ("[ERROR] HCCL(1,python):2025-01-01-00:00:00.000.000 [op_base.cc:1] [1][HcclCommInitRootInfoInner]call trace: "
     "hcclRet -> 7", "HCCL_CALL_TRACE_RESULT", "HcclResult 7 (HCCL_E_UNAVAIL"),
    # HCCL's and HCCP's other plog errors: the class entry with the file and the message
    ("[ERROR] HCCL(12345,python):2025-10-21-07:56:47.198.454 [coll_alg_factory.cc:88] [12345][CollAlgFactory] Fail to "
     "find executor for algName[AllReduceMeshExecutor]", "HCCL_PLOG_ERROR_LOGGED",
     "HCCL logged an error at coll_alg_factory.cc:88: [CollAlgFactory] Fail to find executor"),
    ("[ERROR] HCCP(2040034,alltoall_test):2025-09-15-08:38:12.776.650 [ra_host.c:900]tid:3541138,ra_qp_create(900) : "
     "[create][ra_qp]qp create failed, ret(-12)", "HCCL_PLOG_ERROR_LOGGED",
     "HCCP logged an error at ra_host.c:900: ra_qp_create(900)"),
    # an HCCL test or sample's AscendCL check: the code's name and meaning
    ("acl interface return err ./common/src/hccl_test_common.cc:402, retcode: 107002 ", "HCCL_SAMPLE_ACL_CALL_FAILED",
     "returned 107002 (ACL_ERROR_RT_CONTEXT_NULL)"),
    # EI0012 in the bare code form
    ("EI0012: SDMA memory copy task exception occurred. Remote rank: [7].", "HCCL_EI0012_SDMA_ERROR", "remote rank 7"),
    # MindIO TTP: the report and backup-controller forms, on stdout
    ("2026-03-24 15:19:59.937660 error 1424551 [TTP processor.cpp:480] rank:12 report dp group to controller: "
     "10.0.0.1:8000 failed, after 5 times", "MINDIO_TTP_CONTROLLER_UNREACHABLE",
     ": rank:12 report dp group to controller: 10.0.0.1:8000 failed"),
    ("2026-03-24 15:19:59.937660 1424551 error [1424551][TTP processor.cpp:700] rank:12 out of ip, connect2backup "
     "controller failed", "MINDIO_TTP_CONTROLLER_UNREACHABLE", "out of ip, connect2backup controller failed"),
    ("2026-03-24 15:19:59.937660 1424551 error [1424551][TTP controller.cpp:900] controller start server failed, master "
     "ip: 10.0.0.1 port: 8000", "MINDIO_TTP_ERROR_LOGGED", "at controller.cpp:900: controller start server failed"),
    # MindIO ACP: a writer's RuntimeError inside a traceback's last line
    ("RuntimeError: [Errno -1] [mindio_acp] ockiod service not available.", "MINDIO_ACP_SERVICE_NOT_AVAILABLE",
     "ockiod service"),
    ("MindIO dump checkpoint failure.", "MINDIO_ACP_DUMP_CHECKPOINT_FAILED", "0x1001001"),
    # TaskD's reports to ClusterD; NodeD's log in the new writer form
    ("[2026-02-01 10:00:00.123456][ERROR]    8       manager/manager.go:682    report process fault to clusterd failed, "
     "error: rpc error: code = Unavailable", "TASKD_CLUSTERD_UNREACHABLE",
     ": report process fault to clusterd failed, error: rpc error"),
    ("[ERROR]    2025/08/01 10:00:00.123456 1       manager/manager.go:168    init clusterd connect meet max retry time",
     "TASKD_CLUSTERD_UNREACHABLE", ": init clusterd connect meet max retry time"),
    ("[2026-02-01 10:00:00.123456][ERROR]    22      ascendjob/controller.go:301    update cache info fail, jobId=j1 "
     "err=not found", "MINDCLUSTER_COMPONENT_ERROR_LOGGED", "at ascendjob/controller.go:301: update cache info fail"),
    # MindIO TTP's Python API
    ("Exception: init processor failed to set repair callback, error num:-1", "MINDIO_TTP_ERROR_LOGGED",
     ": init processor failed to set repair callback, error num:-1"),
    # ascend-fd: the CLI's form with another kind, and a bare raise
    ("Execute cmd [ascend-fd diag] failed. The error is: [Exception: InfoIncorrectError(504): The list of workers to be "
     "checked is empty. Please check the root cluster diag result.].", "ASCEND_FD_COMMAND_FAILED",
     "`ascend-fd diag`: Exception: InfoIncorrectError(504): The list of workers"),
    ("ascend_fd.utils.status.PathError: PathError(501): The path should not be a symbolic link file.",
     "ASCEND_FD_COMMAND_FAILED", ": PathError(501): The path should not be a symbolic link file."),
    # Mooncake: the ascend direct transport's unprefixed form; the newer segment wording
    ("E1210 03:24:54.778028 2548307 ascend_direct_transport.cpp:103] cannot publish segments, check the availability "
     "of metadata storage, ret: -1", "MOONCAKE_METADATA_PUBLISH_FAILED", "to the metadata server"),
    ("E0609 06:23:22.044711  4115 client.cpp:552] Failed to open segment endpoint='10.1.1.2:15000' replica_idx=0",
     "MOONCAKE_SEGMENT_OPEN_FAILED", "`10.1.1.2:15000`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "2026-01-10 10:00:00.123456 info 77 pid[77] [SHM_SHMEM shmem_init.cpp:560] aclshmem init success, my_pe:0 n_pes:8",
    "2026-01-10 10:00:00.123456 warn 77 pid[77] [SHM_SHMEM uid_socket.cpp:390] connect refused, retry 3",
    "export SHMEM_UID_SOCK_IFNAME=eth0",
    "WARNING:root:[SHMEM startup guard] Auto SoC detection failed, fallback to default 910 backend (degraded mode).",
    "acl interface return err ./main.cc:55, retcode: 0 ",
    "[INFO] HCCP(1,python):2025-01-01-00:00:00.000.000 [ra_host.c:1]tid:1,ra_rdev_init(1) : ra rdev init success",
    "[WARNING] HCCL(1,python):2025-01-01-00:00:00.000.000 [op_base.cc:1] [1][Alloc]call trace: hcclRet -> 20",
    "[INFO] HCCL(1,python):2025-01-01-00:00:00.000.000 [op_base.cc:1] [1]Entry-HcclCommDestroy: comm[0x1]",
    "[ERROR] HCCL(17528,python3):2026-03-18-10:34:43.141.970 [detect_connect_anomalies.cc:135] [18744]1. If the link "
    "setup timeout is reported on both ends, check the network",
    "[ERROR] HCCL(17528,python3):2026-03-18-10:33:52.113.655 [hccl_socket_manager.cc:628] [18744]   |--------------|",
    "2026-03-24 15:19:59.937660 1424551 info [1424551][TTP processor.cpp:455] rank:5 register to controller: "
    "10.0.0.1:8000 success",
    "2026-03-24 15:19:59.937660 1424551 warn [1424551][TTP controller.cpp:1500] detected abnormal heartbeat, rank:3",
    "[2026-02-01 10:00:00,123][41532][INFO][launch_server:88][mindio_acp] server started",
    "[2026-02-01 10:00:00.123456][INFO]     1       manager/manager.go:177    get clusterd addr 10.96.0.12:8899",
    "[2026-02-01 10:00:00.123456][WARN]     1       clusterd/main.go:140    configmap not found, create it",
    "W0609 06:23:22.044703  4115 transfer_metadata.cpp:894] Failed to retrieve segment descriptor, name 10.0.0.1:12352",
    "I0609 06:23:22.044711  4115 transfer_engine.cpp:300] Open segment 10.0.0.1:12352 successfully",
    "2025-01-01 10:00:00 [INFO] Execute cmd [ascend-fd parse] successfully.",
    "    raise PathError(\"The path should not be a symbolic link file.\")",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_specific_entries_win_over_the_class_entries_on_their_lines(kb):
    line = ("2026-03-24 15:19:59.937660 1424551 error [1424551][TTP controller.cpp:1243] do repair failed, ret: 1")
    assert [s.id for s in kb.explaining(line)] == ["MINDIO_TTP_REPAIR_FAILED"]
    line = "2026-01-10 10:00:00.123456 error 77 pid[77] [SHM_SHMEM uid_socket.cpp:402] exceeded timeout retries"
    assert [s.id for s in kb.explaining(line)] == ["SHMEM_BOOTSTRAP_FAILED"]


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS) == []
    # the neighbours' own lines stay theirs
    assert [(sid, line) for sid in FAMILY if sid not in IDS for line in kb.signature(sid).examples
            if any(s.id in IDS for s in kb.explaining(line))] == []


@pytest.mark.parametrize("line, said", [
    # ATB's HcclRunner (MindIE) and HCCL's own plog form now say the HcclResult; torch_npu's form as before
    ("[2025-05-13 02:25:58.64217] [error] [36815] [hccl_runner.cpp:132] AllGatherHcclRunner:0 HcclCommInitRootInfo "
     "fail, error:2, rank:1, rankSize:4", ", HcclResult 2 (HCCL_E_PTR): empty pointer"),
    ("[ERROR] HCCL(1,all_reduce_test):2025-11-21-13:18:47.639.882 [op_base.cc:1071] [1][InitGroupStage][RanktableDetect]"
     "HcclCommInitRootInfo failed, ret[9]", ", HcclResult 9 (HCCL_E_TIMEOUT): timeout"),
    ("RuntimeError: [ERROR] 2024-07-12-10:25:01 (PID:31337, Device:3, RankID:3) ERR02200 DIST call hccl api failed. "
     "HcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &comm) failed, error code is 7",
     ", HcclResult 7 (HCCL_E_UNAVAIL)"),
])
def test_the_root_info_init_entry_says_the_hccl_result(kb, line, said):
    title = explained_title(kb, line, "HCCL_COMM_INIT_ROOTINFO_FAILED")
    assert said in title, title
