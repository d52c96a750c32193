"""data/kb/families_platform.json and data/dcmi_return_codes.json: the layer under the frameworks (issue 21). DCMI's
return codes read as a mechanism in every form their callers print them (npu-smi, the device plugins, NPU-Exporter, the
Ascend Docker Runtime) and said with the code's constant and meaning; the device plugins and the kubelet's view of them;
container runtimes setting up NPU containers and the NPU device files; builds that look for CANN; and host resources
under training (DataLoader shared memory, open-file limits). Each entry reads members its examples do not show, says
the member in its title, stays quiet on ordinary lines that share its words (code-like numbers in INFO lines, step
counts, pids) and on every clean excerpt of the corpus, and one line is one problem of the family."""

import json
import os

import pytest

from tests.helpers import run_cli
from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, family_overlaps, part_ids

IDS = part_ids("families_platform")
# entries with a cause of their own (not class entries): they win over a class entry on the same line
SPECIFIC = {"DATALOADER_SHARED_MEMORY_EXHAUSTED", "HOST_TOO_MANY_OPEN_FILES", "HOST_MEMORY_ALLOCATION_FAILED",
            "HOST_PROCESS_OR_THREAD_LIMIT"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert set(IDS) >= {"DCMI_RETURN_CODE", "NPU_DEVICE_PLUGIN_FAILED", "ASCEND_DOCKER_RUNTIME_SETUP_FAILED",
                        "CONTAINER_OCI_RUNTIME_CREATE_FAILED", "NPU_DEVICE_FILE_MISSING", "CANN_BUILD_TOOLKIT_NOT_FOUND",
                        "DATALOADER_SHARED_MEMORY_EXHAUSTED", "HOST_TOO_MANY_OPEN_FILES", "K8S_NPU_RESOURCE_UNAVAILABLE",
                        "VOLCANO_NPU_TASK_NOT_PLACEABLE", "CANN_BUILD_TARGET_CHIP_UNDETECTED"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_platform.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid not in SPECIFIC), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # DCMI codes in the other forms of mind-cluster's wrappers, DCMI's own log and npu-smi, each said with its constant
    ("[ERROR]    2024/01/10 03:29:09.354927 1       devmanager/devmanager.go:1 get device count on the card failed, "
     "error code: -8008", "DCMI_RETURN_CODE", "(`get device count on the card`) failed with DCMI return code -8008 "
                                              "(DCMI_ERR_CODE_DEVICE_NOT_EXIST): The device does not exist"),
    ("call dcmi_get_device_info failed. err is -8002.", "DCMI_RETURN_CODE",
     "(`dcmi_get_device_info`) failed with DCMI return code -8002 (DCMI_ERR_CODE_OPER_NOT_PERMITTED)"),
    ("cardID(1),deviceID(0):get npu multi utilization info info failed,error code: -8013,error desc: This API is not "
     "supported in containers", "DCMI_RETURN_CODE",
     "(`npu multi utilization info`) failed with DCMI return code -8013 (DCMI_ERR_CODE_NOT_SUPPORT_IN_CONTAINER)"),
    ("dcmi model initialized failed, because the device is used. ret is -8020", "DCMI_RETURN_CODE",
     "-8020 (DCMI_ERR_CODE_RESOURCE_OCCUPIED): Device resources are occupied"),
    ("W0101 00:00:00.000000 1 vnpu.go:1] get partition info failed, retCode: -8022", "DCMI_RETURN_CODE",
     "-8022: Partition consistency check"),
    # the plugins: HAMi's start-up with its reason, MindCluster's product check, the kubelet's stream of another chip
    ("E0101 00:00:00.000000       1 main.go:84] Failed to start plugin server: enable node device-share: exit status 1",
     "NPU_DEVICE_PLUGIN_FAILED", ": enable node device-share: exit status 1"),
    ("[ERROR]    2024/01/10 03:29:09.354927 1       server/manager.go:112    check supported product type failed, "
     "err: unsupported", "NPU_DEVICE_PLUGIN_FAILED", ": check supported product type failed"),
    ("E0101 00:00:00.000000 1 client.go:90] \"ListAndWatch ended unexpectedly for device plugin\" err=\"rpc error: "
     "code = Unavailable desc = error reading from server: EOF\" resource=\"huawei.com/Ascend310P\"",
     "NPU_DEVICE_PLUGIN_FAILED", "`huawei.com/Ascend310P`: rpc error"),
    # the Ascend Docker Runtime's chip check; another runtime reason of runc
    ("[ERROR]    2024/05/11 10:02:33.123456 1   runtime/main.go:356    chip type not match really: Ascend910",
     "ASCEND_DOCKER_RUNTIME_SETUP_FAILED", ": chip type not match really"),
    ("docker: Error response from daemon: failed to create shim task: OCI runtime start failed: exec: \"python3\": "
     "executable file not found in $PATH: unknown.", "CONTAINER_OCI_RUNTIME_CREATE_FAILED",
     "could not start the container (OCI runtime start failed): exec: \"python3\""),
    # another device file in another caller's form
    ("stat /dev/davinci7: no such file or directory", "NPU_DEVICE_FILE_MISSING", "(`/dev/davinci7`)"),
    ("open device /dev/hisi_hdc failed, errno=2 (No such file or directory)", "NPU_DEVICE_FILE_MISSING",
     "(`/dev/hisi_hdc`)"),
    # another CANN header and library
    ("/src/ops/add.cpp:3:10: fatal error: aclnn/aclnn_base.h: No such file or directory", "CANN_BUILD_TOOLKIT_NOT_FOUND",
     ": `aclnn/aclnn_base.h: No such file or directory`"),
    ("/usr/bin/ld.bfd: cannot find -lhccl: No such file or directory", "CANN_BUILD_TOOLKIT_NOT_FOUND",
     ": `cannot find -lhccl`"),
    ("  Missing libge_compiler.so in /usr/local/Ascend/ascend-toolkit/latest/atc/lib64",
     "CANN_BUILD_TOOLKIT_NOT_FOUND", ": `Missing libge_compiler.so in`"),
    # host memory and task limits in other callers' forms
    ("Traceback ... OSError: [Errno 12] Cannot allocate memory: 'clone'", "HOST_MEMORY_ALLOCATION_FAILED",
     "(ENOMEM, `Cannot allocate memory`)"),
    ("sh: clone: Cannot allocate memory", "HOST_MEMORY_ALLOCATION_FAILED", "in `clone`"),
    ("libgomp: Thread creation failed: Resource temporarily unavailable", "HOST_PROCESS_OR_THREAD_LIMIT", "(`libgomp`)"),
    ("terminate called after throwing: pthread_create failed with EAGAIN", "HOST_PROCESS_OR_THREAD_LIMIT",
     "(`pthread_create`)"),
    # vLLM-Ascend's chip table without this chip
    ("ValueError: Unable to recognize chip name: Ascend950PR, please manually set env SOC_VERSION",
     "CANN_BUILD_TARGET_CHIP_UNDETECTED", "(SOC_VERSION): `Unable to recognize chip name: Ascend950PR`"),
    # torch's shared memory allocator in its mmap form; a shell's view of a full /dev/shm
    ("RuntimeError: unable to mmap 1048576 bytes from file </torch_3_1_0>: Cannot allocate memory (12)",
     "DATALOADER_SHARED_MEMORY_EXHAUSTED", ": unable to mmap 1048576 bytes from file </torch_3_1_0>"),
    ("cp: error writing '/dev/shm/batch_0007.npy': No space left on device", "DATALOADER_SHARED_MEMORY_EXHAUSTED",
     ": No space left on device"),
    # the open-file limit in Go's socket form
    ("2024/01/01 00:00:00 dial tcp 10.0.0.2:8080: socket: too many open files", "HOST_TOO_MANY_OPEN_FILES",
     "limit of open files (EMFILE"),
    # the scheduler's and the kubelet's view of an NPU resource, other chips and plugins
    ("  Warning  FailedScheduling  3s  default-scheduler  0/4 nodes are available: 4 Insufficient huawei.com/Ascend310P.",
     "K8S_NPU_RESOURCE_UNAVAILABLE", "(`huawei.com/Ascend310P`): 0/4 nodes are available"),
    ("Allocate failed due to requested number of devices unavailable for huawei.com/Ascend910B4-1. Requested: 1, "
     "Available: 0, which is unexpected", "K8S_NPU_RESOURCE_UNAVAILABLE", "Requested: 1, Available: 0"),
    # Volcano's Ascend plugin: another request check, another chip's frame
    ("E0101 00:00:00.000000       1 task.go:49] illegal request npu number: 5", "VOLCANO_NPU_TASK_NOT_PLACEABLE",
     ": illegal request npu number: 5"),
    ("W0101 00:00:00.000000       1 frame.go:112] task<default/infer-0> req npu num<3> is invalid",
     "VOLCANO_NPU_TASK_NOT_PLACEABLE", ": req npu num<3> is invalid"),
    # docker without the runtime registered
    ("docker: Error response from daemon: unknown or invalid runtime name: ascend.", "ASCEND_DOCKER_RUNTIME_SETUP_FAILED",
     "through the Ascend Docker Runtime failed: unknown or invalid runtime name: ascend"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    sig = kb.signature(sig_id)
    assert sig.search(line), (sig_id, line)
    assert said in sig.text("en", line=line)[0], sig.text("en", line=line)[0]


@pytest.mark.parametrize("line, sig_id, said", [
    # the extended neighbours: a driver tool's exit status in Go's exec form; the NNAdapter versions said
    ("hccn_tool -i 3 -link -g: exit status 255", "NPU_DRIVER_TOOL_EXIT_NONZERO", "(`hccn_tool`): exit status 255"),
    ("[W  5/ 9 20:23:15.461 .../src/driver/huawei_ascend_npu/utility.cc:57 InitializeAscendCL] CANN version mismatch. "
     "The build version is 5.1.0, but the current environment version is 5.1.2.", "NNADAPTER_CANN_VERSION_MISMATCH",
     "CANN version mismatch: built against CANN 5.1.0, but the environment has CANN 5.1.2"),
])
def test_the_neighbours_this_part_extends_say_what_the_line_says(kb, line, sig_id, said):
    assert [s.id for s in kb.explaining(line)] == [sig_id]
    assert said in kb.signature(sig_id).text("en", line=line)[0]


@pytest.mark.parametrize("line", [
    # code-like numbers in ordinary lines: pids, steps, sizes, a code 0
    "[INFO] HCCL(8005,python):2024-07-12-10:25:01.104.998 [op_base.cc:120] Entry-HcclCommInitRootInfo",
    "epoch: 1 step: 8255, loss is 0.532",
    "[INFO] DCMI version: 24.1.rc2, card count: 8",
    "get device health: ret code: 0, health code: 0",
    "error code: 0",
    "[INFO] dcmi init success, ret = 0",
    "I0101 00:00:00.000000 1 client.go:60] \"Starting ListAndWatch\" resource=\"huawei.com/Ascend910B4-1\"",
    "docker run --shm-size=16g --device /dev/davinci0 --device /dev/davinci_manager -it image bash",
    "crw-rw---- 1 HwHiAiUser HwHiAiUser 236, 0 Jan  1 00:00 /dev/davinci0",
    "-- CANN: SOC_VERSION =  ascend910b3",
    "-- Found CANN: /usr/local/Ascend/ascend-toolkit/latest (found version \"8.0.0\")",
    "#include \"acl/acl.h\"",
    "Filesystem      Size  Used Avail Use% Mounted on\nshm              64M     0   64M   0% /dev/shm",
    "open files                      (-n) 65535",
    "INFO: DataLoader use_shared_memory=True, num_workers=8",
    "  huawei.com/Ascend910:  8",
    "0/3 nodes are available: 3 Insufficient cpu.",
    "I0101 00:00:00.000000       1 frame.go:122] ValidNPUJob err: job<a>-task<b> req npu num<3> is invalid",
    "BlockingIOError: [Errno 11] Resource temporarily unavailable",
    "Mem:  503Gi  12Gi  480Gi  0.1Gi  10Gi  489Gi",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # every example of an entry is explained by that entry alone among the part's entries
    assert family_overlaps(kb, IDS) == []


def test_the_dcmi_init_lines_are_the_code_family_s_and_a_specific_entry_still_wins(kb):
    """npu-smi's 'dcmi module initialize failed. ret is N' was read by NPU_DRIVER_NOT_ACCESSIBLE; it is folded into
    the code family, which names the code; the specific -8005/-8020 entries still win on their lines."""
    assert [s.id for s in kb.explaining("dcmi module initialize failed. ret is -8013")] == ["DCMI_RETURN_CODE"]
    assert [s.id for s in kb.explaining("dcmi module initialize failed. ret is -8005")] == ["DCMI_INIT_FAILED_8005"]
    assert [s.id for s in kb.explaining("dcmi model initialized failed, because the device is used. ret is -8020")] \
        == ["DCMI_INIT_FAILED_DEVICE_USED_8020"]
    assert [s.id for s in kb.explaining("DrvMngGetConsoleLogLevel failed. (ret=4)")] == ["NPU_DRIVER_NOT_ACCESSIBLE"]


def test_the_dcmi_table_holds_every_code_mind_cluster_prints():
    from ascend_doctor.kb import lookup

    codes = lookup.dcmi_codes()["codes"]
    # mind-cluster's dcmiErrMap (component/ascend-common/devmanager/dcmi/common.go)
    assert sorted(codes, key=int, reverse=True) == [f"-{n}" for n in list(range(8001, 8018)) + [8020, 8022, 8023, 8255,
                                                                                                  99997, 99998, 99999]]
    assert codes["-8255"]["name"] == "DCMI_ERR_CODE_NOT_SUPPORT" and all(v["printed"] and v["meaning"] for v in
                                                                          codes.values())
    assert codes["-8005"]["name"] == "DCMI_ERR_CODE_INNER_ERR" and codes["-8020"]["name"] == \
        "DCMI_ERR_CODE_RESOURCE_OCCUPIED"
    assert "name" not in codes["-8022"] and all(codes[c].get("caller") for c in ("-99997", "-99998", "-99999"))


def test_a_dcmi_code_gives_its_constant_and_meaning_in_the_run_s_language():
    from ascend_doctor import i18n
    from ascend_doctor.kb.model import DERIVED_VALUES

    assert DERIVED_VALUES["dcmi_code"]("-8255") == {"dcmi_name": "DCMI_ERR_CODE_NOT_SUPPORT",
                                                   "dcmi_meaning": "The device ID or function is not supported"}
    assert DERIVED_VALUES["dcmi_code"]("-8999") == {}
    i18n.set_lang("zh")
    try:
        assert DERIVED_VALUES["dcmi_code"]("-8020")["dcmi_meaning"] == "设备资源被占用"
    finally:
        i18n.set_lang("en")


def test_explain_answers_a_dcmi_code():
    out = run_cli("explain", "-8255", "--lang", "en").stdout
    assert out.startswith("-8255: DCMI_ERR_CODE_NOT_SUPPORT (DCMI return code): The device ID or function")
    assert "DCMI_RETURN_CODE" in out and "dcmi/common.go" in out
    zh = run_cli("explain", "-8022", "--lang", "zh").stdout
    assert zh.splitlines()[0] == "-8022：DCMI 返回码：分区一致性检查发现了不一致的分区"
    js = json.loads(run_cli("explain", "-8005", "--format", "json").stdout)
    assert js["kind"] == "error_code" and js["code"]["family"] == "dcmi" and js["code"]["name"] == \
        "DCMI_ERR_CODE_INNER_ERR"
