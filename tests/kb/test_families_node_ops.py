"""data/kb/families_node_ops.json: operating an Ascend node and its services (issue 21). torch_npu's online stress /
accuracy check with its results and error codes; the file-safety checks that Ascend's serving, model and cluster tools
apply to what they open (symbolic links; owners and permission bits), read in each tool's own wording; hccn_tool's
error messages (a port without an address, and the rest of its error table); the driver installer's check of the
package against the device. Each entry reads members its examples do not show, says the member in its title, stays
quiet on ordinary lines that share its words and on every clean excerpt of the corpus, and one line is one problem of
the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_node_ops")
# members of other parts' families this part's sources extend (the file-safety checks of the serving and cluster tools)
EXTENDED = ["ASCEND_TOOL_FILE_SECURITY_CHECK"]
FAMILY = IDS + ["NET_HEALTH_ABNORMAL", "NET_NPU_LINK_DOWN", "DCMI_RETURN_CODE", "NPU_DRIVER_KERNEL_MODULE_MISMATCH",
                "ASCEND_RUN_PACKAGE_INSTALLER_ERROR", "FILE_PERMISSION_DENIED",
                "ASCEND_TOOL_FILE_SECURITY_CHECK"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert set(IDS) == {"TORCH_NPU_STRESS_DETECT_FAILED", "HCCN_TOOL_PORT_ADDRESS_NOT_SET",
                        "HCCN_TOOL_COMMAND_FAILED", "NPU_DRIVER_PACKAGE_NOT_FOR_THIS_DEVICE",
                        "MINDIE_CONFIG_NOT_ACCEPTED", "TORCH_NPU_SILENT_CHECK_ABNORMAL",
                        "NPU_SMI_HEALTH_NOT_OK", "MINDIE_HTTP_ERROR_RESPONSE",
                        "NPU_DRIVER_PACKAGE_SIGNATURE_REJECTED", "NPU_DRIVER_INSTALL_SPACE_INSUFFICIENT"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_node_ops.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid == "MINDIE_HTTP_ERROR_RESPONSE") and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # stress_detect: each result of transfer_result, the allocation failure, TaskD's wording, the API page's sample
    ("RuntimeError: Stress detect error. Error code is 574007. Error message is Voltage recovery failed.\n"
     "[ERROR] 2025-10-11-09:12:01 (PID:77, Device:0, RankID:-1) ERR01100 OPS call acl api failed",
     "TORCH_NPU_STRESS_DETECT_FAILED", ": Voltage recovery failed (error code 574007)"),
    ("[WARNING] ASCEND(2231,python):2025-10-11-09:12:01.123.456 [Stress_detect.cpp:108] Stress detect failed due to "
     "hardware malfunction, device id is 5, error code is 574009.", "TORCH_NPU_STRESS_DETECT_FAILED",
     ": hardware malfunction (error code 574009) on device 5"),
    ("UserWarning: Stress detect failed, call AclrtMallocAlign32 failed, skip StressDetect, device id is 2, error is 207001",
     "TORCH_NPU_STRESS_DETECT_FAILED", ": call AclrtMallocAlign32 failed"),
    ("[W Stress_detect.cpp:81] Warning: Stress detect failed, type is 1, error: HCCL function error: HcclCommInitAll",
     "TORCH_NPU_STRESS_DETECT_FAILED", ": HCCL function error: HcclCommInitAll"),
    ("2025-10-11 09:12:01 [ERROR] stress detect init failed: No module named 'torch_npu', rank: 3",
     "TORCH_NPU_STRESS_DETECT_FAILED", ": stress detect init failed"),
    ("StressDetectionError: Stress detection failed with error code: 2", "TORCH_NPU_STRESS_DETECT_FAILED",
     "(error code 2)"),
    # symbolic links: MindIE-SD, msit, MindIE-Motor, MindSpeed-LLM, MindCluster
    ("ValueError: The path:models/flux/transformer is a symbolic link file.", "ASCEND_TOOL_FILE_SECURITY_CHECK",
     "`models/flux/transformer`"),
    ("2025-07-01 10:00:00 - msit_llm - ERROR - path : /data/dump is a soft link, not supported, please import "
     "file(or directory) directly", "ASCEND_TOOL_FILE_SECURITY_CHECK", "`/data/dump`"),
    ("[2025-07-01 10:00:00] [ERROR] [Util] File /etc/mindie/ms_coordinator.json a symbolic link, which is not allowed.",
     "ASCEND_TOOL_FILE_SECURITY_CHECK", "`/etc/mindie/ms_coordinator.json`"),
    ("ValueError: The ckpt_dir should not be a symbolic link file.", "ASCEND_TOOL_FILE_SECURITY_CHECK",
     "(`ckpt_dir`): should not be a symbolic link"),
    ("[ERROR] 2025/01/08 10:00:00.000000 1 utils/file.go:88 check symlinks failed \"/var/log/mindx-dl/npu-exporter\": "
     "not a regular path", "ASCEND_TOOL_FILE_SECURITY_CHECK", "`/var/log/mindx-dl/npu-exporter`"),
    # owner and mode: MindIE's C++ permission check, msit, MindSpeed-LLM, MindCluster's plain form
    ("Check path: config.json failed, by: Check Other group permission failed: /usr/local/Ascend/mindie/latest/"
     "mindie-service/conf/config.json current permission is 4, but required no greater than 0. Required permisssion "
     "is 640, but got permission is 644", "ASCEND_TOOL_FILE_SECURITY_CHECK",
     "(`config.json`): Check Other group permission failed"),
    ("2025-07-01 10:00:00 - msit - ERROR - The file owner is inconsistent with the current process user and is not "
     "allowed to write. /home/u/out/result.csv", "ASCEND_TOOL_FILE_SECURITY_CHECK",
     ": file owner is inconsistent with the current process user"),
    ("PermissionError: File '/data/ckpt/latest_checkpointed_iteration.txt' owner ID mismatch. Current process user "
     "ID: 1000, file owner ID: 0.", "ASCEND_TOOL_FILE_SECURITY_CHECK", ": owner ID mismatch"),
    ("ValueError: The path [/data/dump] is writable by group or others. Please check.",
     "ASCEND_TOOL_FILE_SECURITY_CHECK", "(`/data/dump`): writable by group or others"),
    ("time=\"2025-01-08T10:00:00Z\" level=error msg=\"check uid or mode failed : /etc/kubernetes/npu-exporter.conf\"",
     "ASCEND_TOOL_FILE_SECURITY_CHECK", "`/etc/kubernetes/npu-exporter.conf`"),
    # the limits of the same checks: a tokenizer file above MindIE's 10 MB, a directory with too many files
    ("ValueError: The size of file should not be greater than 10485760, but got 11422654. Please check the input "
     "path:/data/models/Qwen3-8B/tokenizer.json.", "ASCEND_TOOL_FILE_SECURITY_CHECK",
     "(`/data/models/Qwen3-8B/tokenizer.json`): size of file should not be greater than 10485760, but got 11422654"),
    ("ValueError: The file num in dir is 2048, which exceeds the limit 1024. Please check the input path.",
     "ASCEND_TOOL_FILE_SECURITY_CHECK", ": file num in dir is 2048, which exceeds the limit 1024"),
    # hccn_tool: the rest of its error table
    ("The hccn.conf can't access, cmd execute failed! pls check the conf file or cmd run permission.",
     "HCCN_TOOL_COMMAND_FAILED", ": The hccn.conf can't access"),
    ("[root@node1 ~]# hccn_tool -i 9 -ip -g\nThe device is not exist!", "HCCN_TOOL_COMMAND_FAILED",
     ": The device is not exist"),
    ("Failed to verify the certificate chain, make sure the certificate chain is correct!", "HCCN_TOOL_COMMAND_FAILED",
     "certificate chain"),
    ("The confuguraion does not exist! Please preset firstly!", "HCCN_TOOL_PORT_ADDRESS_NOT_SET",
     "no IP address or gateway configured"),
    ("Get gateway failed, because no gateway was preset there!", "HCCN_TOOL_PORT_ADDRESS_NOT_SET", "no gateway"),
    # torch_npu's silent check behind the logging module's prefix
    ("2025-09-01 10:00:00,000 - torch_npu.silent_check - WARNING - [Warning][2025-09-01 10:00:00] [Rank 31]: "
     "feature detection detects abnormal results!", "TORCH_NPU_SILENT_CHECK_ABNORMAL",
     "found abnormal results on rank 31: feature detection detects abnormal results"),
    # npu-smi's health: another table layout (310P, Warning), the health query's fault code
    ("| 2     310P3               | Warning       | 12.5        45                0    / 0             |",
     "NPU_SMI_HEALTH_NOT_OK", "health as Warning (NPU 2, 310P3)"),
    ("        Error Code                     : 80C98008", "NPU_SMI_HEALTH_NOT_OK", ": fault code 80C98008"),
    # the installer's signature checks: the CRL steps and the upgrade's version counter
    ("[Driver] [2025-01-01 10:00:00] [uid=0(root)] [ERROR]2.check new images crl failed, stop install",
     "NPU_DRIVER_PACKAGE_SIGNATURE_REJECTED", ": check new images crl failed"),
    ("[Driver] [2025-01-01 10:00:00] [uid=0(root)] [ERROR]device_images_nvcnt_check failed, stop upgrade",
     "NPU_DRIVER_PACKAGE_SIGNATURE_REJECTED", ": device_images_nvcnt_check failed"),
    ("[ERROR]The software signature verification failed because the signature mode used by the software is "
     "inconsistent with the current configuration. Currently configured is [pss], details in : /var/log/x.log",
     "NPU_DRIVER_PACKAGE_SIGNATURE_REJECTED", "(this node is configured for the `pss` signature mode)"),
    # the driver installer's free-space check in its echo form
    ("[Driver] [2025-01-01 10:00:00] [ERROR]free space only 300, cannot install driver package (greater than 800M), "
     "please make sure enough space under the installation path", "NPU_DRIVER_INSTALL_SPACE_INSUFFICIENT",
     ": 300 free, more than 800M needed"),
    # MindIE's configuration checks: the engine's range check, MindIE-Motor's forms, a path it cannot open
    ("The value of ScheduleConfig.maxPrefillTokens should be in [1, 4194304].", "MINDIE_CONFIG_NOT_ACCEPTED",
     ": The value of ScheduleConfig.maxPrefillTokens should be in"),
    ("[2025-06-01 10:00:00.000] [ERROR] [ParseInitConfig] The configuration file '/home/u/ms_coordinator.json' has an "
     "invalid JSON format. Please check it.", "MINDIE_CONFIG_NOT_ACCEPTED",
     ": The configuration file '/home/u/ms_coordinator.json'"),
    ("[2025-06-01 10:00:00.000] [ERROR] [Coordinator] Configure initialize failed.", "MINDIE_CONFIG_NOT_ACCEPTED",
     ": Configure initialize failed"),
    ("Error: Open json file failed, the file path is /opt/mindie/conf/config.json", "MINDIE_CONFIG_NOT_ACCEPTED",
     ": Open json file failed"),
    # MindIE's HTTP error bodies: MindIE-LLM's form behind curl's output, MindIE-Motor's form
    ("< HTTP/1.1 424 Failed Dependency\n{\"error\":\"Failed to enqueue inferRequest: remainBlocks is nullptr.\","
     "\"error_type\":\"Generation Error\"}", "MINDIE_HTTP_ERROR_RESPONSE",
     "(Generation Error): Failed to enqueue inferRequest: remainBlocks is nullptr."),
    ("{ \"type\": \"Bad Request\", \"error\": \"DMI request must have req-type, req-id, d-target headers.\" }",
     "MINDIE_HTTP_ERROR_RESPONSE", "(Bad Request): DMI request must have"),
    # hccn_tool's health probe as its current source prints it
    ("net health status: Socket fail", "NET_HEALTH_ABNORMAL", "NPU network health check failed"),
    ("net health status: Thread error", "NET_HEALTH_ABNORMAL", "NPU network health check failed"),
    # the driver installer: its plain echo form
    ("[Driver] [2025-03-01 10:00:00] [ERROR]Installation failed, the driver package version=24.1.rc2 is earlier than "
     "the device flash hardware version=25.0.rc1.", "NPU_DRIVER_PACKAGE_NOT_FOR_THIS_DEVICE",
     "package version 24.1.rc2 is older than the version the device's flash requires (25.0.rc1)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "[INFO] ASCEND(2231,python):2025-10-11-09:12:01.123.456 [Stress_detect.cpp:59] Stress detect with StressDetect "
    "start, device id is 0.",
    "2025-10-11 09:12:01 [INFO] 3 start aic exec stress test...",
    "Stress detect result: 0",
    "2025-07-01 10:00:00,000 - msmodelslim - WARNING - The path '/data/w' is a soft link. Using its real path: '/mnt/w'.",
    "Found symlink path: /data/w, using real path: /mnt/w",
    "The file README.md is a link to the upstream docs",
    "def check_path_is_link(path: str):",
    "    raise_if_symlink = True  # The path should be checked",
    "[INFO] check uid or mode success",
    "File: /home/w/config.json Check Other group permission passed",
    "export MINDIE_CHECK_INPUTFILES_PERMISSION=1",
    "Cmd execute successfully!",
    "link status: UP",
    "net health status: Success",
    "ipaddr:192.168.100.101",
    "[Info] Rank 6: feature detection detects abnormal results, checksum is on.",
    "[Event][2025-09-01 10:00:00] [Rank 6]: A grad-norm spike may happen, param name w, abnormal value 9.0, previous "
    "value 1.0, history avg 1.0, bp time 3, normal count 2.",
    "| 0     910B3               | OK            | 96.3        38                0    / 0             |",
    "| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |",
    "        Error Code                     : NA",
    "Error Code: 0x80E01801 cleared",
    "[ConfigManager::InitConfigManager] Successfully init config manager",
    "    \"maxSeqLen\" : 2560,",
    "[INFO] [ParseInitConfig] The configuration file '/home/u/ms_coordinator.json' is loaded.",
    "[Driver] [2025-03-01 10:00:00] [INFO]Start to install driver package, version=24.1.0",
    "[Driver] [2025-03-01 10:00:00] [INFO]Driver package installed successfully! The new version takes effect "
    "immediately.",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


@pytest.mark.parametrize("line, sig_id, said", [
    # MindIE's token-count check beside its character-count check
    ("[2025-01-01 10:00:00.000+08:00] [1] [2] [server] [ERROR] [single_req_infer_interface_base.cpp:177] : "
     "[MIE04E020407] [endpoint] text_input token length must be in (0, 1048576], but got 1200000",
     "MINDIE_REQUEST_INPUT_TOO_LONG", "its text_input is longer than the endpoint accepts (at most 1048576 tokens): "
     "1200000 given"),
    ("Messages len not in (0, 4194304, but the length of inputs is 4200000", "MINDIE_REQUEST_INPUT_TOO_LONG",
     "(at most 4194304 characters): 4200000 given"),
    # the driver installer's kernel-module steps; DKMS's own failure names no vendor, so the vendor-neutral entry
    # (families_kernel_sys.json) says it, not the NPU driver's
    ("[Driver] [2025-01-01 10:00:00] [uid=0(root)] [ERROR][LINENO=320]Failed to insmod [drv_pcie_host].",
     "NPU_DRIVER_KERNEL_MODULE_MISMATCH", "could not be built or loaded for the running kernel"),
    ("Error! Bad return status for module build on kernel: 5.15.0-91-generic (x86_64)",
     "DKMS_MODULE_BUILD_FAILED", "for kernel `5.15.0-91-generic`"),
    ("insmod: ERROR: could not insert module /lib/modules/5.10.0/updates/drv_seclib_host.ko: Invalid module format",
     "NPU_DRIVER_KERNEL_MODULE_MISMATCH", "could not be built or loaded"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "Messages token length must be in (0, 1048576], but got 0. This could be caused by invalid input format or empty "
    "content.",
    "insmod: ERROR: could not insert module nvidia.ko: Invalid module format",
    "[Driver] [2025-01-01 10:00:00] [INFO]insmod drv_pcie_host success",
])
def test_the_extended_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in ("MINDIE_REQUEST_INPUT_TOO_LONG",
                                                          "NPU_DRIVER_KERNEL_MODULE_MISMATCH")] == []
