"""data/kb/families_cann_docs.json: faults that the documentation of CANN itself, the NPU driver and HCCL describes
(issue 21, round 8): the driver's .run installer (its ERR_NO/ERR_DES form, root, the install user, kernel modules that
do not fit the running kernel, devices still in use), HCCL Test under MPI (host names, Open MPI's remote daemon, the
tool's own error lines), an offline model built for another installation, and the newer plog forms of hicann/hccl's
fault-diagnosis pages added to the HCCL entries that already name those faults. Each entry reads members its examples
do not show, says the member in its title, stays quiet on ordinary lines of the same tools and on every clean excerpt,
and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_cann_docs")
FAMILY = set(IDS)
# the class entry of the installer's error form: the specific entries win on their lines
# and the runtime's report of a failed device task (the lines after it name the fault)
CLASS = {"ASCEND_RUN_PACKAGE_INSTALLER_ERROR", "RT_DEVICE_TASK_RUN_FAILED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert set(IDS) == {"ASCEND_RUN_PACKAGE_INSTALLER_ERROR", "ASCEND_RUN_PACKAGE_NOT_ROOT",
                        "ASCEND_RUN_PACKAGE_INSTALL_USER_INVALID", "NPU_DRIVER_KERNEL_MODULE_MISMATCH",
                        "NPU_DRIVER_DEVICES_BUSY_DURING_INSTALL", "MPI_HOSTNAME_NOT_RESOLVED",
                        "OPENMPI_REMOTE_DAEMON_LAUNCH_FAILED", "HCCL_TEST_INTERFACE_ERROR",
                        "OM_MODEL_BUILT_FOR_ANOTHER_INSTALLATION", "RT_DEVICE_TASK_RUN_FAILED",
                        "RT_TSD_OPEN_FAILED", "RT_DRIVER_TSD_SYMBOL_MISSING",
                        "DEVICE_SDMA_ERROR_REPORTED"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_cann_docs.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in CLASS), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # the installer's form with another number and description: the class entry says both
    ("[Driver] [2025-06-01 10:00:00] [ERROR]ERR_NO:0x0080;ERR_DES:Driver package is not installed on this device, "
     "uninstall failed", "ASCEND_RUN_PACKAGE_INSTALLER_ERROR",
     "ERR_NO 0x0080: Driver package is not installed on this device"),
    # root, in the firmware package's prefix
    ("[Firmware] [2025-06-01 10:00:00] [ERROR]ERR_NO:0x0093;ERR_DES:do not have root permission, operation failed, "
     "please use root permission!", "ASCEND_RUN_PACKAGE_NOT_ROOT", "without root permission"),
    # a custom group that does not exist; the group relation the installer checks
    ("[ERROR]ERR_NO:0x0091;ERR_DES:aiuser group not exists! Please add aiuser group",
     "ASCEND_RUN_PACKAGE_INSTALL_USER_INVALID", "(`aiuser`)"),
    ("[ERROR]ERR_NO:0x0096;ERR_DES:HwHiAiUser not right! Please check the relatianship of aiuser and HwHiAiUser",
     "ASCEND_RUN_PACKAGE_INSTALL_USER_INVALID", "(`HwHiAiUser`)"),
    # a CANN package installed by a user outside the driver's group
    ("[Toolkit] [20250601-10:00:00] [ERROR] ERR_NO:0x0093;ERR_DES:User is not belong to the driver or firmware's "
     "installed usergroup! Please add the user (alice) to the group (HwHiAiUser).",
     "ASCEND_RUN_PACKAGE_INSTALL_USER_INVALID", "(`alice`), not in the driver's install group HwHiAiUser"),
    # the same check echoed without the installer's prefix, the group its title says
    ("User is not belong to the dirver or firmware's installed usergroup! Please add the user (sss) to the group "
     "(aiuser).", "ASCEND_RUN_PACKAGE_INSTALL_USER_INVALID", "not in the driver's install group aiuser"),
    # the kernel the modules were built for and the running one, in the installer's other form; a source build
    ("[ERROR]current kernel primary version(4.19.90) is different from the driver(5.10.0), need rebuild driver",
     "NPU_DRIVER_KERNEL_MODULE_MISMATCH", "running kernel `4.19.90` (the driver's modules are for `5.10.0`)"),
    ("make[1]: *** /lib/modules/6.8.0-45-generic/build: No such file or directory.  Stop.",
     "KERNEL_HEADERS_NOT_INSTALLED", "headers of kernel `6.8.0-45-generic` are not installed"),
    ("[Driver] [2025-06-01 10:00:00] [ERROR]dkms install failed", "NPU_DRIVER_KERNEL_MODULE_MISMATCH",
     "could not be built or loaded"),
    # uninstall in the same state
    ("[Driver] [2025-06-01 10:00:00] [ERROR]The davinci nodes are occupied by some processes, please stop processes "
     "and install or uninstall again, details in : /var/log/ascend_seclog/ascend_install.log",
     "NPU_DRIVER_DEVICES_BUSY_DURING_INSTALL", "processes still hold"),
    # another node's name in another MPICH function's line
    ("MPIDU_Sock_gethost_by_name(12)...: gethostbyname failed, worker-03 (errno 1)", "MPI_HOSTNAME_NOT_RESOLVED",
     "`worker-03`"),
    # Open MPI's daemon with another status
    ("A daemon (pid 4242) died unexpectedly with status 1 while attempting", "OPENMPI_REMOTE_DAEMON_LAUNCH_FAILED",
     "(exit status 1)"),
    # another HcclResult from the tool, said with its name
    ("hccl interface return err ./common/src/hccl_test_common.cc:412, retcode: 9 ", "HCCL_TEST_INTERFACE_ERROR",
     "(HcclResult 9 HCCL_E_TIMEOUT"),
    # another opp version; the platform check; the vendor-version check
    ("[ERROR] GE(1,atc.bin):2025-06-01-10:00:00.000.000 [model_helper.cc:1222]1 The opp version of the model does not "
     "match the current opp run package,Model is[8.0.RC2], opp run package is[8.1.RC1]",
     "OM_MODEL_BUILT_FOR_ANOTHER_INSTALLATION", "another opp version (model: 8.0.RC2, here: 8.1.RC1)"),
    ("E19999: Inner Error! The os/cpu type of the model does not match the current system,Model is[linux][x86_64], "
     "system is[linux][aarch64], please use the matching platform", "OM_MODEL_BUILT_FOR_ANOTHER_INSTALLATION",
     "another os/cpu type (model: linux/x86_64, here: linux/aarch64)"),
    # another of the runtime's TsdOpen reasons; a tdt error number inside a vLLM worker's traceback
    ("[ERROR] RUNTIME(7,python):2026-01-01-00:00:00.000.000 [runtime.cc:2097]7 TsdOpen failed:Device is disconnected.",
     "RT_TSD_OPEN_FAILED", "(TsdOpen failed): Device is disconnected"),
    ("(Worker pid=1) ERROR 09-15 13:02:43 [multiproc_executor.py:870]         TsdOpen failed. devId=3, tdt error=31"
     "[FUNC:PrintfTsdError][FILE:runtime.cc][LINE:2111]", "RT_TSD_OPEN_FAILED", "(tdt error 31, device 3)"),
    # another of the driver's functions the runtime looks up
    ("[ERROR] RUNTIME(5,python):2026-01-01-00:00:00.000.000 [runtime.cc:2001]5 No TsdClose symbol found in "
     "/usr/local/Ascend/driver/lib64/libtsdclient.so.", "RT_DRIVER_TSD_SYMBOL_MISSING",
     "did not find `TsdClose` in the driver's library /usr/local/Ascend/driver/lib64/libtsdclient.so"),
    # the DSA of newer chips, in a fused task
    ("The error from device(chipId:1, dieId:0), serial number is 9. there is a fftsplus dsa error, dsa channel is 4, "
     "error intr status=0x2, ", "DEVICE_SDMA_ERROR_REPORTED", "fftsplus dsa error (channel 4)"),
    # the runtime's other form (task_sn, task_type), a timeout on another engine
    ("[ERROR] RUNTIME(1,python):2026-01-01-00:00:00.000.000 [task_recycle_cqrpt_base.cc:78]1 Task run timeout, "
     "stream_id=5, pos=1, task_sn=9, task_type=7(notify wait), errType=0x4(task timeout), sqSwStatus=0x0.",
     "RT_DEVICE_TASK_RUN_FAILED", "notify wait task ended with task timeout (task run timeout)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id", [
    # hicann/hccl's fault-diagnosis pages: the newer plog forms now read by the HCCL entries that name those faults
    ("[ERROR] HCCL(1041081,all_reduce_test):2025-11-21-01:20:01.624.966 [topoinfo_exchange_server.cc:314] "
     "[1041362][InitGroupStage][RanktableDetect]topo exchange server get socket timeout! timeout[120 s]",
     "HCCL_FD_TOPO_SERVER_SOCKET_TIMEOUT"),
    ("[ERROR] HCCL(1041085,all_reduce_test):2025-11-21-01:20:01.630.122 [topoinfo_exchange_base.cc:145] "
     "[1041085][InitGroupStage][RanktableDetect] TopoDetect ERROR occur !!! fault_type[1], fault_info[\"Failed to "
     "connect agent[1,3,5,7,]\"]", "HCCL_FD_TOPO_SERVER_SOCKET_TIMEOUT"),
    ("(EngineCore pid=247) ERROR 06-08 14:11:34 [core.py:1136]        The error from device(0), serial number is 1, there "
     "is an error of aicore, core id is 0, error code = 0x800000, dump info: pc start: 0x12c0", "AICORE_ERROR_DEVICE_REPORT"),
    ("[ERROR] RUNTIME(1,python):2026-01-01-00:00:00.000.000 [stream.cc:1]1 Stream synchronize timeout, the current task "
     "is type_name=KERNEL_AICORE, device_id=0, stream_id=2, task_id=55, task_type=0.", "RT_STREAM_SYNC_TIMEOUT"),
    ("[ERROR] HCCL(1104629,test_one_side):2025-10-28-17:45:13.679.684 [param_check.cc:66] [1104629][InitGroupStage]"
     "[RanktableConfig]errNo[0x0000000005010001] path /ranktable.json is not a valid real path", "HCCL_RANKTABLE_INVALID"),
    ("[ERROR] HCCL(17528,python3):2026-03-18-10:33:52.113.403 [hccl_socket_manager.cc:797] [18744][Wait]"
     "[LinkEstablish]wait socket establish timeout, role[1] rank[1] timeout[120 s]", "HCCL_LINK_ESTABLISH_TIMEOUT"),
    ("[ERROR] HCCL(3743927,all_reduce_test):2025-10-25-16:11:16.831.666 [rank_consistentcy_checker.cc:439] "
     "[3743951][InitChannelStage][ParameterConflict]CMD information cmdType check fail. local[6], remote[2]",
     "HCCL_EI0005_ARGS_INCONSISTENT"),
    ("Transport init error. Reason: [Create] [DestLink]Create Dest error! createLink para:rank[5]-localUserrank[4]-"
     "localIpAddr[127.10.0.1], dst_rank[6]-remoteUserrank[7]-remote_ip_addr[127.10.0.1]", "HCCL_EI0009_TRANSPORT_INIT"),
    ("[ERROR]HCCL(3729526,python3.11):2025-10-23-17:30:40.098.973 [externalinput.cc:963] [3729526][Parse]"
     "[rdmaServerLevel]HCCL_RDMA_SL[1000] is invalid. except: [0, 7]", "HCCL_EI0001_ENV_CONFIG"),
    ("[ERROR] HCCL(925892,alltoall_test):2025-10-28-16:34:59.634.432 [sal.cc:501] [925892][InitGroupStage][EnvConfig]"
     "set ifname to [abc] by HCCL_SOCKET_IFNAME, but not found in the environment, ifnames in the environment is as "
     "follows", "HCCL_EI0001_ENV_CONFIG"),
    ("[ERROR] HCCL(1041081,all_reduce_test):2025-11-21-01:20:01.625.112 [topoinfo_exchange_server.cc:503] "
     "[1041362][InitGroupStage][DisplayConnectionedRank]need connect rankNum is [8]", "HCCL_FD_TOPO_SERVER_SOCKET_TIMEOUT"),
    ("[ERROR] HCCL(3626636,all_reduce_test):2025-11-21-13:18:47.639.874 [topoinfo_detect.cc:233] [3626636]"
     "[InitGroupStage][RanktableDetect]SetupServer failed, hostIP[192.168.1.100%enp53s0f2] and hostPort[60000] ret[7]",
     "HCCL_PORT_IN_USE"),
    ("[ERROR] HCCL(17528,python3):2026-03-18-10:33:52.113.646 [hccl_socket_manager.cc:623] [18744]   "
     "_________________________LINK_ERROR_INFO___________________________", "HCCL_LINK_ESTABLISH_TIMEOUT"),
    ("[ERROR] HCCL(925892,alltoall_test):2025-10-28-16:34:59.634.437 [sal.cc:504] [925892][InitGroupStage][EnvConfig]"
     "get host ip fail by socket Ifname. name[lo] ip[127.10.0.1%lo]", "HCCL_EI0001_ENV_CONFIG"),
])
def test_the_entries_this_part_extends_read_the_docs_plog_forms(kb, line, sig_id):
    assert [s.id for s in kb.explaining(line)] == [sig_id]


@pytest.mark.parametrize("line", [
    # the installer's own INFO and WARNING lines, the tools' ordinary output
    "[Driver] [2025-06-01 10:00:00] [INFO]set username and usergroup, HwHiAiUser:HwHiAiUser",
    "[Driver] [2025-06-01 10:00:00] [INFO]Driver package installed successfully! The new version takes effect "
    "immediately.",
    "[Driver] [2025-06-01 10:00:00] [WARNING]linux headers is currently not installed.",
    "[Driver] [2025-06-01 10:00:00] [INFO]dkms environment check success",
    "[Firmware] [2025-06-01 10:00:00] [INFO]upgradePercentage:100%",
    "  --install-username=<user>     set the user of the driver (default HwHiAiUser)",
    "DKMS: install completed.",
    "make -C /lib/modules/6.8.0-45-generic/build M=/usr/src/drv modules",
    "the minbytes is 8192, maxbytes is 2147483648, iters is 20, warmup_iters is 5",
    "      data_size(Bytes):     aveg_time(us):    alg_bandwidth(GB/s):    check_result:",
    "[INFO] HCCL(3079952,all_reduce_test):2025-11-20-11:56:36.704.523 [op_base.cc:858] [3079952]Entry-HcclGetRootInfo:"
    "rootInfo[0xaaaae85c79a0], deviceLogicId[0]",
    "[INFO] HCCL(1,python):2025-11-20-11:56:36.704.523 [sal.cc:480] [1]get host ip success by socket Ifname. name[enp]",
    "[DEBUG] GE(1,python):2025-01-01-00:00:00.000.000 [model_helper.cc:1232]1 Check opp version[8.1.RC1] success.",
    "mpirun -f hostfile -n 16 ./bin/all_reduce_test -b 8K -e 64M -f 2 -p 8",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in FAMILY] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, FAMILY) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


def test_the_installers_class_entry_gives_way_to_the_specific_entry_on_its_line(kb):
    line = "[ERROR]ERR_NO:0x0093;ERR_DES:do not have root permission, operation failed, please use root permission!"
    assert [s.id for s in kb.explaining(line)] == ["ASCEND_RUN_PACKAGE_NOT_ROOT"]
