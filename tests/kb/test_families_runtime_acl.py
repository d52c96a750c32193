"""data/kb/families_runtime_acl.json: the CANN runtime, AscendCL (ACL) and the driver's user-space library, read from
their messages without an error code (hicann/runtime src/acl and src/runtime, hicann/driver src/ascend_hal, the
runtime's FAQ pages): aclInit's JSON configuration, the order of AscendCL's calls, the arguments its checks reject, an
API the installed CANN or device does not offer, the tensor data channel's extension library and its operations, the
CANN version files AscendCL reads, and the device manager node the driver library opens. Each entry reads members its
examples do not show, says the member in its title, stays quiet on ordinary lines that share its words and on every
clean excerpt of the corpus, and one line is one problem of the family. The members extended in other parts (the
runtime's and AscendCL's device-open lines, the Ascend samples' build variables) are checked here too."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_runtime_acl")
FALLBACKS = {"ACL_API_ARGUMENT_REJECTED", "ACL_TDT_CHANNEL_OPERATION_FAILED"}
# members of other parts' families this part's sources extend
EXTENDED = ["RT_SET_DEVICE_FAILED", "ACL_OPEN_DEVICE_FAILED", "CANN_BUILD_TOOLKIT_NOT_FOUND"]
FAMILY = IDS + EXTENDED + ["ACL_RETURN_CODE", "CANN_RUNTIME_CALL_FAILED", "NPU_DEVICE_FILE_MISSING",
                           "ACL_APP_OPEN_DEVICE_FAILED", "TF_ADAPTER_DATA_CHANNEL_FAILED"]
PLOG = "[ERROR] {mod}(4321,main):2025-11-05-10:12:01.123.456 [{file}]4321 {func}: "


def acl(file, func, msg):
    return PLOG.format(mod="ASCENDCL", file=file, func=func) + msg


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert set(IDS) == {"ACL_INIT_CONFIG_FILE_REJECTED", "ACL_API_CALLED_OUT_OF_ORDER", "ACL_API_ARGUMENT_REJECTED",
                        "ACL_API_NOT_SUPPORTED_IN_THIS_VERSION", "ACL_EXTENSION_LIBRARY_NOT_FOUND",
                        "ACL_CANN_VERSION_FILE_UNREADABLE", "DRV_DEVICE_MANAGER_OPEN_FAILED",
                        "ACL_TDT_CHANNEL_OPERATION_FAILED", "TSD_DEVICE_PACKAGE_LOAD_FAILED",
                        "TSD_COMPONENT_LIBRARY_NOT_LOADED", "ADUMP_DUMP_CONFIG_REJECTED", "ADUMP_DUMP_DISK_FULL",
                        "ACL_SAMPLE_INPUT_FILE_UNREADABLE"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_runtime_acl.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in FALLBACKS) and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # aclInit's configuration: the other checks of the JSON parser, the value checks, the dump configuration
    (acl("json_parser.cpp:100", "GetConfigStrFromFile", "[Config][ConfigFile]config file is not a regular file, "
         "which path is /home/u/conf, mode is 16877"), "ACL_INIT_CONFIG_FILE_REJECTED",
     "`/home/u/conf`: config file is not a regular file"),
    (acl("json_parser.cpp:213", "ParseJsonFromFile", "[Check][MaxArrayDepth]invalid json file, the object's depth[12] "
         "is larger than 10, or the array's depth[1] is larger than 10."), "ACL_INIT_CONFIG_FILE_REJECTED",
     "the object's depth[12] is larger than 10"),
    (acl("json_parser.cpp:337", "GetDefaultDeviceIdFromFile", "default_device -1 in acl.json is neither 0 nor positive "
         "integer."), "ACL_INIT_CONFIG_FILE_REJECTED", "default_device -1 in acl.json"),
    (acl("dump.cpp:91", "aclmdlSetDumpImpl", "[Convert][DumpConfig]parse json for config failed, exception:"
         "[json.exception.type_error.302] type must be string, but is number"), "ACL_INIT_CONFIG_FILE_REJECTED",
     "parse json for config failed"),
    (acl("json_parser.cpp:76", "GetConfigStrFromFile", "[Trans][RealPath]the file path ./acl.json is not like a real "
         "path, mmRealPath return -1, errMessage is No such file or directory"), "ACL_INIT_CONFIG_FILE_REJECTED",
     "`./acl.json`: is not like a real path"),
    # call order
    (acl("dump.cpp:156", "aclmdlSetDumpImpl", "[Check][aclmdlInitDumpFlag]aclmdlInitDump must be executed before "
         "aclmdlSetDump is called"), "ACL_API_CALLED_OUT_OF_ORDER", "`aclmdlSetDump` before `aclmdlInitDump`"),
    (acl("acl.cpp:668", "aclFinalizeReferenceImpl", "[Finalize][Acl]aclFinalizeReference called repeatedly or called "
         "without proper aclInit"), "ACL_API_CALLED_OUT_OF_ORDER", "aclFinalizeReference called repeatedly"),
    # argument checks: positive, range, the PARAM form, memcpy kinds
    (acl("memory.cpp:70", "aclrtMallocImpl", "[Check][size]param must be positive."), "ACL_API_ARGUMENT_REJECTED",
     "(`size`): param must be positive"),
    (acl("memory.cpp:1088", "aclrtMallocPhysicalImpl", "[Check][PARAM]prop->location.type is invalid, location type "
         "does not support 3. value=3"), "ACL_API_ARGUMENT_REJECTED",
     "(`prop->location.type`): is invalid, location type does not support 3"),
    (acl("memory.cpp:257", "aclrtMemcpyAsyncImpl", "[Check][Kind]invalid kind of memcpy, kind = 7"),
     "ACL_API_ARGUMENT_REJECTED", "invalid kind of memcpy, kind = 7"),
    # not supported here
    (acl("queue_process.cpp:82", "acltdtGrantQueueImpl", "[Unsupport][Feature]acltdtGrantQueue is not supported in this "
         "version. Please check."), "ACL_API_NOT_SUPPORTED_IN_THIS_VERSION", "`acltdtGrantQueue`"),
    (PLOG.format(mod="RUNTIME", file="model.cc:88", func="AbortModel") + "feature not supported. Ts model cannot be "
     "abort in current device", "ACL_API_NOT_SUPPORTED_IN_THIS_VERSION", "Ts model cannot be abort in current device"),
    # the tensor data channel's library and operations
    (acl("tensor_data_transfer.cpp:58", "GetHandler", "Get libacl_tdt_channel.so path failed."),
     "ACL_EXTENSION_LIBRARY_NOT_FOUND", "`libacl_tdt_channel.so`"),
    (acl("tensor_data_transfer.cpp:1230", "acltdtReceiveTensor", "[Pop][Data]Failed to receive, tdt result = 5, device "
         "is 1, name is outfeed_0."), "ACL_TDT_CHANNEL_OPERATION_FAILED",
     "`outfeed_0` failed: Failed to receive (tdt result 5)"),
    (acl("tensor_data_transfer.cpp:1217", "acltdtReceiveTensor", "[Check][Recvname]it is not a receive channel, failed "
         "to receive, device is 0, name is infeed"), "ACL_TDT_CHANNEL_OPERATION_FAILED",
     "`infeed` failed: it is not a receive channel"),
    # CANN version files
    (acl("acl.cpp:799", "aclsysGetCANNVersionImpl", "[Check]Failed to parse versionInfo, the versionInfoPath is "
         "[/usr/local/Ascend/cann/version.info]."), "ACL_CANN_VERSION_FILE_UNREADABLE",
     "`/usr/local/Ascend/cann/version.info`"),
    # the device manager node: errno 13, the fd forms
    ("[ERROR] DRV(800,python3):2025-11-05-10:12:01.123.456 [ascend][curpid: 800, 812][drv][dms][devdrv_open_device_"
     "manager 149]Failed to Open device manager. (name=/dev/davinci_manager; ret_fd=-1; old_fd=-1; err=13)",
     "DRV_DEVICE_MANAGER_OPEN_FAILED", "(`/dev/davinci_manager`) (errno 13)"),
    ("[ERROR] DRV(800,python3):2025-11-05-10:12:01.123.456 [ascend][curpid: 800, 812][drv][dms][drv_common_ioctl 228]"
     "open device manager failed, fd = -1.", "DRV_DEVICE_MANAGER_OPEN_FAILED", "could not open the NPU device manager"),
    # extended elsewhere: the runtime's and AscendCL's C runtime's device open
    (PLOG.format(mod="RUNTIME", file="raw_device.cc:325", func="Open") + "Failed to open device, ret=0x7020014, "
     "deviceId=3.", "RT_SET_DEVICE_FAILED", "Runtime could not enumerate or open the NPU"),
    (acl("device.c:43", "aclrtSetDevice", "open device 1 failed, rt ret = 107001."), "ACL_OPEN_DEVICE_FAILED",
     "ACL could not open the device"),
    # TSD's device packages: the signature check, a package missing on the host, the legacy aicpu path
    (PLOG.format(mod="TDT", file="package_verify.cpp:210", func="VerifyPackage") + "[CMSCBB_VERIFY] file length "
     "invalid. path[/usr/local/Ascend/ascend-toolkit/latest/opp/Ascend-aicpu_syskernels.tar.gz], len[0]",
     "TSD_DEVICE_PACKAGE_LOAD_FAILED", ": file length invalid"),
    (PLOG.format(mod="TDT", file="package_loader.cpp:310", func="SendPackage") + "[TsdClient] path[/usr/local/Ascend/"
     "ascend-toolkit/latest/opp/aicpu] does not exist, deviceId[1]", "TSD_DEVICE_PACKAGE_LOAD_FAILED",
     "(`/usr/local/Ascend/ascend-toolkit/latest/opp/aicpu`)"),
    (PLOG.format(mod="TDT", file="thread_mode_manager.cpp:70", func="Open") + "[ThreadModeManager] check aicpu "
     "opkernel failed", "TSD_DEVICE_PACKAGE_LOAD_FAILED", ": check aicpu opkernel failed"),
    (PLOG.format(mod="TDT", file="thread_mode_manager.cpp:210", func="OpenQs") + "[ThreadModeManager] failed open "
     "libqueue_schedule.so, deviceId[3], reason[libqueue_schedule.so: cannot open shared object file]",
     "TSD_COMPONENT_LIBRARY_NOT_LOADED", "(`libqueue_schedule.so`)"),
    # the dump module's configuration checks and its disk check
    (PLOG.format(mod="ADUMP", file="dump_setting.cpp:47", func="DumpOperatorInit") + "Dump status(enable) is not "
     "valid.", "ADUMP_DUMP_CONFIG_REJECTED", ": status `enable` is not valid"),
    (PLOG.format(mod="ADUMP", file="dump_setting.cpp:70", func="DumpOperatorInit") + "Dump stats config check failed.",
     "ADUMP_DUMP_CONFIG_REJECTED", ": Dump stats config is not valid"),
    (PLOG.format(mod="ADUMP", file="kernel_dfx_dumper.cpp:106", func="DumpDfx") + "Don't have enough free disk for "
     "4096 bytes", "ADUMP_DUMP_DISK_FULL", "for 4096 bytes"),
    # the samples' input files: open and read failures in their print form
    ("[ERROR]  open file ../model/resnet50.om failed", "ACL_SAMPLE_INPUT_FILE_UNREADABLE",
     "`../model/resnet50.om`: open file"),
    ("[ERROR]  Open file failed. path = ../data/test.jpg", "ACL_SAMPLE_INPUT_FILE_UNREADABLE", "`../data/test.jpg`"),
    # a driver call's code named from drvError_t (data/drv_error_codes.json), in the runtime's and the driver's forms
    (PLOG.format(mod="RUNTIME", file="npu_driver.cc:173", func="GetDeviceCount") + "Call driver api drvGetDevNum "
     "failed, drvRetCode=87.", "CANN_RUNTIME_CALL_FAILED",
     "(`drvGetDevNum`), driver code 87 (DRV_ERROR_RESOURCE_OCCUPIED): resource occupied"),
    ("[ERROR] DRV(800,python3):2025-11-05-10:12:01.123.456 [ascend][curpid: 800, 812][drv][dms][halGetDeviceInfoByBuff "
     "186]halGetDeviceInfoByBuff unsuccessful. (dev_id=0; ret=6; moduleType=0; infoType=3).", "CANN_RUNTIME_CALL_FAILED",
     "driver code 6 (DRV_ERROR_OUT_OF_MEMORY): out of memory"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


def test_a_runtime_error_in_hex_is_not_read_as_a_driver_code(kb):
    line = (PLOG.format(mod="RUNTIME", file="raw_device.cc:1015", func="Init") + "Calling drv api "
            "halGetDeviceInfoByBuff failed, bufSize is 1, expect bufSize is 3, error=0x7020014.")
    title = explained_title(kb, line, "CANN_RUNTIME_CALL_FAILED", among=FAMILY)
    assert "driver code" not in title, title


def test_the_samples_build_variables_are_in_the_toolkit_entry(kb):
    sig = kb.signature("CANN_BUILD_TOOLKIT_NOT_FOUND")
    assert "DDK_PATH" in sig.cause and "NPU_HOST_LIB" in sig.cause
    assert any("NPU_HOST_LIB=$DDK_PATH/runtime/lib64/stub" in step for step in sig.fix)
    line = "/home/u/samples/cplusplus/level2_simple_inference/src/main.cpp:19:10: fatal error: acl/acl.h: No such file or directory"
    assert "CANN_BUILD_TOOLKIT_NOT_FOUND" in [s.id for s in kb.explaining(line)]


@pytest.mark.parametrize("line", [
    "[INFO] ASCENDCL(4321,main):2025-11-05-10:12:01.123.456 [json_parser.cpp:244]4321 ParseJsonFromFile: parse json "
    "from file[acl.json] successfully.",
    "[DEBUG] ASCENDCL(4321,main):2025-11-05-10:12:01.123.456 [json_parser.cpp:184]4321 ParseJsonFromFile: filename is "
    "nullptr, no need to parse json",
    "    aclError ret = aclInit(\"../src/acl.json\");",
    "// aclmdlInitDump must be called after aclInit",
    "[INFO] ASCENDCL(4321,main):2025-11-05-10:12:01.123.456 [device.cpp:45]4321 aclrtSetDeviceImpl: set device 0 "
    "successfully.",
    "acltdtEnqueue: enqueue 1 item to queue 3",
    "[INFO] ASCENDCL(4321,main):2025-11-05-10:12:01.123.456 [tensor_data_transfer.cpp:1180]4321 acltdtSendTensor: "
    "start to send tensor, device is 0, name is train_queue.",
    "[INFO] DRV(800,python3):2025-11-05-10:12:01.123.456 [ascend][curpid: 800, 812][drv][dms][devdrv_open_device_manager "
    "170]open device manager success. (fd=5)",
    "crw-rw---- 1 HwHiAiUser HwHiAiUser 237, 0 Nov  5 10:00 /dev/davinci_manager",
    "export DDK_PATH=$HOME/Ascend/ascend-toolkit/latest",
    "-- env INC_PATH: /home/u/Ascend/ascend-toolkit/latest",
    "Version file found at [/usr/local/Ascend/ascend-toolkit/latest/runtime/version.info].",
    "[INFO] TDT(40211,python):2025-11-05-10:12:01.123.456 [package_loader.cpp:270]40211 LoadPackageToDevice: Load "
    "package success, package:Ascend-runtime_device-minios.tar.gz",
    "[INFO] ADUMP(7788,python):2025-11-05-10:12:01.123.456 [dump_setting.cpp:80]7788 DumpOperatorInit: "
    "DumpOperatorInit finished.",
    "\"dump_mode\": \"all\",",
    "[INFO]  open file ../model/resnet50.om success",
    "if (CheckPathIsFile(fileName) == FAILED) {",
    "[WARNING] RUNTIME(4321,main):2025-11-05-10:12:01.123.456 [stream.cc:2210]4321 Clear: This feature is not supported "
    "because the tsch version is too low.",
    "[INFO] ASCENDCL(4321,main):2025-11-05-10:12:01.123.456 [memory.cpp:142]4321 aclrtMemcpyImpl: [Check][dst]param "
    "must not be null.",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS) == []
