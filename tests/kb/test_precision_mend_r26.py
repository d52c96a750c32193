"""Round 26's precision mends: the statements the second and third audits of what triage says beside the fault
(tests/fixtures/precision_audit_r25, tests/fixtures/precision_audit_r26) judged false or misleading, each on the real
line the audit read. An entry no longer says a code, a component or a reason its line does not show; where another
entry reads the line truly, that one explains it; an effect of a failure logged beside it is linked to it
(tests/triage/test_effects.py AUDITED holds the excerpts)."""

import pytest

from tests.helpers.kb_parts import assert_moved, assert_says, english_kb, explained_title, statements


@pytest.fixture(scope="module")
def kb():
    return english_kb()


# (the audited line, the entry that must no longer speak of it)
SILENCED = [
    # the AI CPU module's bare header of a TsdOpen failure: no operator ran (r26 4b-38)
    ("(Worker pid=3600530) ERROR 09-15 13:02:43 [multiproc_executor.py:870] E39999: Inner Error!",
     "CANN_E39999_AICPU_EXCEPTION"),
    # the chip was identified: GE could not load its description (r25 3a-23)
    ("ERROR 05-27 09:53:02 [engine.py:448] EH9999: [PID: 854] 2025-05-27-09:53:02.440.058 [Init][PlatformInfo]init runtime "
     "platform info failed, SocVersion = Ascend910B2[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]",
     "SOC_VERSION_UNSUPPORTED_507008"),
    # the runtime's own notify objects of a test program: no HCCL (r25 3b-95)
    ("[ERROR] RUNTIME(9521,rtstest_host):2026-07-16-19:24:34.804.850 [api_impl.cc:4634]9521 NotifyCreate:Notify create "
     "failed, setup failed, drv devId=0, retCode=0x702001b", "HCCL_FD_NOTIFY_CREATE_FAILED"),  # (listed as unexplained)
    # no context to read the device's message from after set-device failed: not an argument the user passed (r25 3a-56)
    ("[ERROR] RecentErrMsg: [PID: 265771] 2026-07-21-05:48:21.854.442 Invalid_Argument(EE1001): The argument is invalid."
     "Reason: rtGetDevMsg execution failed, the context is a null pointer.", "CANN_CATALOGUED_ERROR_CODE"),
    # torch_npu's import, not MindSpore (r26 4b-32)
    ("ImportError: libhccl.so: cannot open shared object file: No such file or directory", "MS_HCCL_LIBRARY_LOAD_FAILED"),
]


@pytest.mark.parametrize("line, sig_id", SILENCED)
def test_an_entry_no_longer_speaks_of_a_line_it_misread(kb, line, sig_id, tmp_path):
    assert sig_id not in statements(kb, line)
    if not statements(kb, line):  # nothing reads it truly: triage lists it as an error line it does not know
        from ascend_doctor.triage import triage_paths

        log = tmp_path / "run.log"
        log.write_text(line + "\n")
        res = triage_paths([str(log)], kb)
        assert not res.problems and [u["text"] for u in res.unexplained] == [line]


@pytest.mark.parametrize("line, sig_id, said, unsaid", [
    # the timeout's TraceBack line names no E39999 and no exception (r25 3a-17)
    ("Aicpu kernel execute failed, device_id=0, stream_id=2, task_id=2, fault op_name=aicpu_getnext_IteratorGetNext"
     "[FUNC:GetError][FILE:stream.cc][LINE:1133]", "CANN_E39999_AICPU_EXCEPTION",
     "An AI CPU operator `aicpu_getnext_IteratorGetNext` failed while it ran on the device", "E39999"),
    ("E39999: [PID: 31337] 2024-07-12 Aicpu kernel execute failed, device_id=0, stream_id=3, task_id=12, fault "
     "op_name=GatherV2", "CANN_E39999_AICPU_EXCEPTION", "An AI CPU operator `GatherV2` failed", None),
    ("EH9999: [PID: 854] 2025-05-27-09:53:02.440.058 [Init][PlatformInfo]init runtime platform info failed, SocVersion = "
     "Ascend910B2[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]", "GE_PLATFORM_INFO_INIT_FAILED",
     "platform description of the chip `Ascend910B2`", "507008"),
    ("RuntimeError: ACL stream synchronize failed, error code:507008", "SOC_VERSION_UNSUPPORTED_507008",
     "SoC version (ACL error 507008)", "platform info"),
])
def test_a_title_says_only_what_its_line_shows(kb, line, sig_id, said, unsaid):
    title = explained_title(kb, line, sig_id, among={sig_id, "SOC_VERSION_UNSUPPORTED_507008",
                                                     "GE_PLATFORM_INFO_INIT_FAILED", "CANN_E39999_AICPU_EXCEPTION"})
    assert said in title, title
    assert unsaid is None or unsaid not in title, title


def test_hccl_still_owns_its_own_notify_line(kb):
    line = ("[ERROR] HCCL(31337,python):2024-07-12-10:25:01.104.998 [notify_pool.cc:133][31337][Create][Notify]Notify "
            "create failed, devicePhyId[0], ret[207005]")
    assert "HCCL_FD_NOTIFY_CREATE_FAILED" in statements(kb, line)


# (the audited line, the entry, which part of its statement: 0 title, 1 cause, 2 fix steps, the phrase it says)
FIRST_HALF = [
    # NCCL prints its WARN line only with NCCL_DEBUG; an earlier error of the process comes first (r25 3a-24)
    ("  what():  NCCL error in: /opt/conda/conda-bld/pytorch/work/torch/lib/c10d/../c10d/NCCLUtils.hpp:84, unhandled "
     "cuda error", "NCCL_CALL_FAILED", 0, "with NCCL_DEBUG=WARN an `NCCL WARN Cuda failure` line"),
    ("  what():  NCCL error in: /opt/conda/conda-bld/pytorch/work/torch/lib/c10d/../c10d/NCCLUtils.hpp:84, unhandled "
     "cuda error", "NCCL_CALL_FAILED", 2, "If the process printed another error before this line"),
    # a file being written: its folder is what is missing (r26 4a-60)
    ("FileNotFoundError: [Errno 2] No such file or directory: '/work/h26i_work/no_such_dir/sub/epoch1.tmp'",
     "FW_FILE_NOT_FOUND", 0, "the folder of a file being written was never created"),
    ("FileNotFoundError: [Errno 2] No such file or directory: '/work/h26i_work/no_such_dir/sub/epoch1.tmp'",
     "FW_FILE_NOT_FOUND", 2, "mkdir -p"),
    # pip prints a build's reason under the line (r26 4a-44)
    ("  error: subprocess-exited-with-error", "PIP_PACKAGE_BUILD_FAILED", 0, "own output next to these lines"),
    ("  error: subprocess-exited-with-error", "PIP_PACKAGE_BUILD_FAILED", 2, "ModuleNotFoundError"),
    # a crash after a failed call: that call first (r26 4b-29)
    ("./run.sh: line 5:  6097 Segmentation fault      ./build/acl_demo_app -c $1", "PROCESS_SEGFAULT", 2,
     "Read the error lines just before the crash"),
    # a pinned version that is not among the listed ones (r26 4a-7)
    ("ERROR: Could not find a version that satisfies the requirement torch-npu==2.3.1 (from versions: 2.1.0.post8, "
     "2.3.1.post2, 2.3.1.post4, 2.4.0)", "PIP_NO_MATCHING_DISTRIBUTION", 2, "If the line lists versions, pin one of them"),
    # pip that never reached its index (r26 4a-21)
    ("ERROR: No matching distribution found for pyyaml", "PIP_REQUIREMENT_NOT_AVAILABLE", 0,
     "or the index could not be reached"),
    # a Python index past the dimension before embeddings (r26 4a-3)
    ("IndexError: For 'StridedSlice', the 'strides[0]' cannot be negative number and 'begin[0]' must be in [-4, 4) when "
     "'shrink_axis_mask' is greater than 0, but got 'strides[0]': 1, 'begin[0]': 4.", "MS_INDEX_OUT_OF_RANGE", 0,
     "`StridedSlice` got an index outside the tensor (index 4, size 4): an index past the dimension (a Python index"),
    # a retry line of the topology wait: the cluster is not built yet, and a process that exited first is the cause
    ("[WARNING] DISTRIBUTED(3645,7f21ffc31b80,python):2026-12-05-20:39:17.027.942 [mindspore/ccsrc/cluster/topology/"
     "cluster_context.cc:316] BuildCluster] Topology build timed out., retry(19/1200).", "MS_CLUSTER_TOPOLOGY_TIMEOUT", 0,
     "the cluster is not built in this log"),
    ("[WARNING] DISTRIBUTED(3645,7f21ffc31b80,python):2026-12-05-20:39:17.027.942 [mindspore/ccsrc/cluster/topology/"
     "cluster_context.cc:316] BuildCluster] Topology build timed out., retry(19/1200).", "MS_CLUSTER_TOPOLOGY_TIMEOUT", 2,
     "If a process exited or was killed first"),
]


# the audit's second half (parts 5a and 5b)
@pytest.mark.parametrize("line, sig_id, gone", [
    # msrun lists the nodes that timed out after a worker failed: not a start-up timeout (5a-54)
    ("[ERROR] ME(23398:139972552883072,MainProcess):2026-12-06-22:23:26.994.000 [mindspore/parallel/cluster/"
     "process_entity/_api.py:603] Time out nodes are ['0']", "MS_CLUSTER_NODE_TIMED_OUT", "DIST_JOB_RENDEZVOUS_TIMEOUT"),
    # no exception in flight: not an uncaught one (5b-45)
    ("terminate called without an active exception", "PROCESS_CXX_TERMINATE_WITHOUT_EXCEPTION",
     "PROCESS_CXX_UNCAUGHT_EXCEPTION"),
])
def test_a_line_goes_to_the_entry_that_reads_it_truly(kb, line, sig_id, gone):
    assert_moved(kb, line, gone, sig_id)


SECOND_HALF = [
    # msrun's scheduler exits after a worker (5a-12)
    ("[ERROR] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:38.720.000 [mindspore/parallel/cluster/"
     "process_entity/_api.py:331] Scheduler process 162146 exit with exception.", "LAUNCHER_WORKER_EXITED_WITH_ERROR", 0,
     "the cause is the first error of the process that failed first"),
    # the warning also when CANN is not installed at all (5b-48)
    ("[WARNING] ME(31686:139702252710784,MainProcess):2026-12-05-20:34:26.939.000 [mindspore/run_check/"
     "_check_version.py:317] Using custom Ascend AI software package (Ascend Data Center Solution) path, package version "
     "checking is skipped. Please make sure Ascend AI software package (Ascend Data Center Solution) version is "
     "supported.", "MS_CANN_CUSTOM_PACKAGE_SKIPPED", 0, "installed elsewhere, or not installed"),
    # a property's inner AttributeError under nn.Module's __getattr__ (5b-37)
    ("AttributeError: 'A' object has no attribute 'a'", "PY_OBJECT_ATTRIBUTE_MISSING", 1, "@property's getter"),
    # ImageFolderDataset's tree (5b-58)
    ("RuntimeError: Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'. Invalid data, "
     "ImageFolderDataset API can't read the data file (interface mismatch or no data found). Check image folder file "
     "path: ./data/train", "MS_DATASET_FILES_MISSING", 2, "one sub-folder per class"),
    # numpy 2 beside CANN 8.2.1 (5a-59)
    ("RuntimeError: SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:155 NPU function error: "
     "at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001",
     "TORCH_NPU_INIT_GE_FAILED_500001", 2, 'pip install "numpy<2"'),
    # msrun's list of timed-out nodes (5a-54)
    ("[ERROR] ME(7:1,MainProcess):2025-01-01-00:00:00.000.000 [mindspore/parallel/cluster/process_entity/_api.py:431] "
     "Time out nodes are ['0', '5']", "MS_CLUSTER_NODE_TIMED_OUT", 0, "heartbeat timed out"),
    # yum under another Python: run it with a clean environment (5b-5)
    ("ModuleNotFoundError: No module named 'dnf'", "OS_PACKAGE_MANAGER_WRONG_PYTHON", 2,
     "env -u LD_LIBRARY_PATH -u PYTHONPATH yum"),
]


@pytest.mark.parametrize("line, sig_id, part, phrase", FIRST_HALF + SECOND_HALF)
def test_a_mended_statement_says_what_is_true_of_its_line(kb, line, sig_id, part, phrase):
    assert_says(kb, line, sig_id, part, phrase)


def test_yums_own_module_missing_is_the_wrong_python_not_a_package_to_install(kb):
    # the Mind SDK FAQ's case (5b-5): /usr/bin/yum under a Python whose paths a custom install left in LD_LIBRARY_PATH
    said = statements(kb, "ModuleNotFoundError: No module named 'dnf'")
    assert sorted(said) == ["OS_PACKAGE_MANAGER_WRONG_PYTHON"]
    assert "PY_MODULE_NOT_INSTALLED" in statements(kb, "ModuleNotFoundError: No module named 'dnfile'")
