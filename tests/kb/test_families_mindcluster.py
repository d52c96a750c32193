"""data/kb/families_mindcluster.json: MindCluster's Go components (github.com/Ascend/mind-cluster), read from their own
message strings and fault code table: NPU fault events by the handling level MindCluster gives them (the device plugin's
K8s event, its `receive devFaultInfo` log line with faultCode.json's default level, the device-info ConfigMap), hot
resets that fail, fault configuration that is not applied, the components' Kubernetes object calls and their DCMI
calls. Each entry reads members its examples do not show, says the member in its title, stays quiet on ordinary lines
that share its words and on every clean excerpt of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_mindcluster")
LEVELS = ["SEPARATE_NPU", "RESTART_NPU", "FREE_RESTART_NPU", "RESTART_BUSINESS", "RESTART_REQUEST", "PRE_SEPARATE_NPU",
          "SUB_HEALTH", "NOT_HANDLED"]
CLASSES = ["MINDCLUSTER_K8S_OBJECT_CALL_FAILED", "MINDCLUSTER_DCMI_QUERY_FAILED"]
FAMILY = IDS + ["MINDCLUSTER_COMPONENT_ERROR_LOGGED", "DCMI_RETURN_CODE", "NPU_DEVICE_PLUGIN_FAILED",
                "TASKD_CLUSTERD_UNREACHABLE", "NPU_HBM_MULTI_BIT_ECC"]
HW = "[2026-05-10 10:00:00.123456][ERROR]    12      "
HWW = "[2026-05-10 10:00:00.123456][WARN]     12      "
HWI = "[2026-05-10 10:00:00.123456][INFO]     12      "
OLD = "[ERROR]    2024/05/10 10:00:00.123456 7       "


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert set(IDS) == {"MINDCLUSTER_NPU_FAULT_" + lv for lv in LEVELS} | set(CLASSES) | {
        "MINDCLUSTER_NPU_HOT_RESET_FAILED", "MINDCLUSTER_FAULT_CONFIG_NOT_APPLIED", "ASCENDJOB_VALIDATION_FAILED",
        "MINDCLUSTER_DP_KUBELET_PODS_QUERY_FAILED", "CLUSTERD_PUBLIC_FAULT_REJECTED",
        "MINDCLUSTER_LOG_INIT_FAILED"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mindcluster.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in CLASSES), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # the device plugin's K8s event: the Ascend 950 form with a logic id, a Notice, the level said in the line
    ("kube-system  3s  Warning  Notice  pod/ascend-device-plugin-daemonset-x  device fault, nodeName:node7, "
     "assertion:Notice, logicID:7, faultCodes:80CB8002, faultLevelName:RestartRequest, alarmRaisedTime:2026-01-01 "
     "10:00:00", "MINDCLUSTER_NPU_FAULT_RESTART_REQUEST", "NPU fault 80CB8002 on logic ID 7 of node node7"),
    ("Warning  Occur  device fault, nodeName:n1, assertion:Occur, cardID:0, deviceID:1, faultCodes:80E24E00, "
     "faultLevelName:SeparateNPU, alarmRaisedTime:2026-01-01 10:00:00", "MINDCLUSTER_NPU_FAULT_SEPARATE_NPU",
     "handling level SeparateNPU"),
    # the plugin's own log line: the code's level from faultCode.json
    (HWI + "common/fault_code.go:1844    receive devFaultInfo: common.DevFaultInfo{EventID:2172616706, LogicID:5, "
     "ModuleType:0, ModuleID:0, SubModuleType:0, SubModuleID:0, Severity:3, Assertion:1, AlarmRaisedTime:0}, "
     "hex code: 817f8002", "MINDCLUSTER_NPU_FAULT_SEPARATE_NPU", "NPU fault 817f8002 on logic ID 5"),
    (HWI + "common/fault_code.go:1844    receive devFaultInfo: common.DevFaultInfo{EventID:2162048512, LogicID:0, "
     "ModuleType:0, ModuleID:0, SubModuleType:0, SubModuleID:0, Severity:2, Assertion:2, AlarmRaisedTime:0}, "
     "hex code: 80e24e00", "MINDCLUSTER_NPU_FAULT_RESTART_NPU", "handling level RestartNPU"),
    (HWI + "common/fault_code.go:1844    receive devFaultInfo: common.DevFaultInfo{EventID:2164778501, LogicID:2, "
     "ModuleType:0, ModuleID:0, SubModuleType:0, SubModuleID:0, Severity:1, Assertion:1, AlarmRaisedTime:0}, "
     "hex code: 81078605", "MINDCLUSTER_NPU_FAULT_SUB_HEALTH", "handling level SubHealthFault"),
    # the device-info ConfigMap, as its JSON string is escaped inside the ConfigMap
    ('"huawei.com/Ascend910-Fault":"[{\\"fault_type\\":\\"CardNetworkUnhealthy\\",\\"npu_name\\":\\"Ascend910-0\\",'
     '\\"large_model_fault_level\\":\\"PreSeparateNPU\\",\\"fault_level\\":\\"PreSeparateNPU\\",\\"fault_handling\\":'
     '\\"PreSeparateNPU\\",\\"fault_code\\":\\"81078603\\"}]"', "MINDCLUSTER_NPU_FAULT_PRE_SEPARATE_NPU",
     "NPU fault 81078603 on Ascend910-0"),
    # hot reset: out of band, the retry limits
    (HWW + "builtin/outband_reset_plugin.go:64    out band reset failed for logicID 4: bmc response timeout",
     "MINDCLUSTER_NPU_HOT_RESET_FAILED", "(logic ID 4)"),
    (HWW + "server/hot_reset_manager.go:120    Ascend910-3 exceeds MaxResetTimes, would not reset",
     "MINDCLUSTER_NPU_HOT_RESET_FAILED", "(Ascend910-3): exceeds MaxResetTimes"),
    (OLD + "server/hot_reset_manager.go:300    reset failed more than 3 times without success, hot reset will be "
     "disabled util device-plugin restarted", "MINDCLUSTER_NPU_HOT_RESET_FAILED", ": reset failed more than 3 times"),
    # fault configuration: a conflicting code, the customization file, a FaultFrequency limit
    (HW + "faultcontrol/fault.go:147    update separate fault code failed, code 80E18402 is conflict",
     "MINDCLUSTER_FAULT_CONFIG_NOT_APPLIED", "update separate fault code failed, code 80E18402 is conflict"),
    (HW + "common/fault_code.go:613    load fault customization json failed: invalid character '}' looking for "
     "beginning of object key string", "MINDCLUSTER_FAULT_CONFIG_NOT_APPLIED", "load fault customization json failed"),
    (HWW + "common/fault_code.go:1040    EventIDs: [80E01801], TimeWindow(10) in this FaultFrequency exceeds "
     "limit(60~864000). use default", "MINDCLUSTER_FAULT_CONFIG_NOT_APPLIED",
     "TimeWindow(10) in this FaultFrequency exceeds limit(60~864000)"),
    # Kubernetes objects: a pod not found, a ConfigMap of a super pod, a node label
    (HW + "kubeclient/kube_cache.go:91    failed to get pod default/job-0, err: pods \"job-0\" not found",
     "MINDCLUSTER_K8S_OBJECT_CALL_FAILED", "(pod) at kubeclient/kube_cache.go:91"),
    (OLD + "pingmesh/publisher.go:338    delete super pod device cm failed, err=context deadline exceeded, "
     "superPodID=1", "MINDCLUSTER_K8S_OBJECT_CALL_FAILED", "delete super pod device cm failed"),
    (HW + "server/manager.go:252    failed to patch new label to node, err: connection refused, retry count: 3",
     "MINDCLUSTER_K8S_OBJECT_CALL_FAILED", "(node)"),
    # DCMI calls: the device's IP, the health query, a virtual device
    (HW + "dcmi/dcmi.go:1751    get device IP address failed, cardID(0), deviceID(0), error code: -9005",
     "MINDCLUSTER_DCMI_QUERY_FAILED", "at dcmi/dcmi.go:1751: get device IP address failed"),
    (OLD + "dcmi/dcmi.go:1583    get device (cardID: 2, deviceID: 0) health state failed, ret code: -1, health code: 0",
     "MINDCLUSTER_DCMI_QUERY_FAILED", "health state failed"),
    (HW + "dcmi/dcManager.go:240    destroy error, ascend 950 not support virtual device",
     "MINDCLUSTER_DCMI_QUERY_FAILED", "not support virtual device"),
    # AscendJob validation: the condition's reason with a framework outside the list, a replica type, the old form
    ("    Message:  InvalidFramework: framework label<paddle> is not in [pytorch mindspore tensorflow]",
     "ASCENDJOB_VALIDATION_FAILED", "(InvalidFramework): framework label<paddle> is not in"),
    ("  Warning  InvalidReplicaType  5s  ascendjob-controller  replicaType is Chief but must be one of [Master Worker]",
     "ASCENDJOB_VALIDATION_FAILED", "replicaType is Chief but must be one of"),
    (OLD + "v1/ascendjob_controller.go:149    Job<ns1/mindspore-job> failed validation, err: replicaSpecs is not set, "
     "please modify your job", "ASCENDJOB_VALIDATION_FAILED", "AscendJob `ns1/mindspore-job`"),
    # the device plugin's kubelet query: a 401 behind the informer, a read error
    (HW + "kubeclient/kubelet_informer.go:176    kubelet pod informer poll failed: get kubelet http response failed, "
     "resp status code: 401 is not 200", "MINDCLUSTER_DP_KUBELET_PODS_QUERY_FAILED", "(HTTP 401)"),
    (OLD + "kubeclient/kube_connect.go:149    read kubelet http response failed: unexpected EOF",
     "MINDCLUSTER_DP_KUBELET_PODS_QUERY_FAILED", ": read kubelet http response failed: unexpected EOF"),
    # ClusterD's public faults: a timestamp, a fault without its location
    (HW + "publicfault/fault_collector.go:52    check public fault info failed, error: invalid timestamp, can not "
     "before 2025/01/01T00:00:00Z", "CLUSTERD_PUBLIC_FAULT_REJECTED", ": invalid timestamp, can not before"),
    (OLD + "publicfault/checker.go:109    fault(pf-7) is invalid and will be removed, err is invalid fault location "
     "length", "CLUSTERD_PUBLIC_FAULT_REJECTED", "(`pf-7`): invalid fault location length"),
    # the run log: ClusterD's own wording, an option out of range in the hwlog form
    ("JobEventLog init failed, error is change log dir mode failed", "MINDCLUSTER_LOG_INIT_FAILED",
     ": change log dir mode failed"),
    (OLD + "hwlog/logger.go:160    the log level range should be [-1, 3]", "MINDCLUSTER_LOG_INIT_FAILED",
     "the log level range should be [-1, 3]"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "kube-system  8s  Normal  Recovery  pod/ascend-device-plugin-daemonset-910-dlpmv  device fault, nodeName:n1, "
    "assertion:Recovery, cardID:2, deviceID:0, faultCodes:8C084E00, faultLevelName:RestartBusiness, "
    "alarmRaisedTime:2023-11-21 05:38:53",
    HWI + "common/fault_code.go:1844    receive devFaultInfo: common.DevFaultInfo{EventID:2172616706, LogicID:5, "
    "ModuleType:0, ModuleID:0, SubModuleType:0, SubModuleID:0, Severity:3, Assertion:0, AlarmRaisedTime:0}, "
    "hex code: 817f8002",
    HWI + "common/fault_code.go:1844    receive devFaultInfo: common.DevFaultInfo{EventID:0, LogicID:5, ModuleType:0, "
    "ModuleID:0, SubModuleType:0, SubModuleID:0, Severity:0, Assertion:1, AlarmRaisedTime:0}, hex code: 0",
    '{"FaultDeviceList":[],"NodeName":"node133","UnhealthyNPU":[]}',
    "    \"SeparateNPUCodes\":[",
    HWI + "device/ascend910.go:535    hot reset complete, logicId: 3",
    HWI + "server/hot_reset_manager.go:367    hot reset success, logicID: 5",
    HWI + "device/ascend910.go:1153    reset failed devices: [], reset success devices: [3]",
    HWI + "common/fault_code.go:600    load fault code json success",
    HWI + "kubeclient/kubeclient.go:150    patch node annotation success",
    HWI + "devmanager/devmanager.go:120    the dcmi version is 24.1.rc2",
    HW + "device/numa_utils.go:80    get numa node failed, err: open /sys/devices: no such file",
    HW + "server/manager.go:99    get node name failed: env NODE_NAME is empty",
    "kubectl patch node node1 -p '{\"metadata\":{\"labels\":{\"a\":\"b\"}}}'",
    "  Normal  SuccessfulCreatePod  3s  ascendjob-controller  Created pod: default-test-pytorch-master-0",
    "    Reason:  JobValidFailed",
    "framework: pytorch  # the framework label is not set here by default",
    HWI + "kubeclient/kube_connect.go:108    get kubelet pods url: https://192.168.0.10:10250/pods",
    HWI + "publicfault/fault_collector.go:60    check public fault info success, id: 1",
    "hwlog init success",
    "  -logLevel=0 -maxAge=7 -maxBackups=30 -logFile=/var/log/mindx-dl/devicePlugin/devicePlugin.log",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_a_documented_dcmi_code_is_named_by_dcmi_return_code(kb):
    line = (HW + "dcmi/dcmi.go:2465    cardID(0),deviceID(0):get high bandwidth memory info info failed,error code: "
            "-8255,error desc: Device ID/function is not supported")
    assert [s.id for s in kb.explaining(line) if s.id in FAMILY] == ["DCMI_RETURN_CODE"]


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
