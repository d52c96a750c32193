"""data/kb/families_drv_install.json: installing and upgrading the Ascend stack (round 11). The NPU driver's and the
CANN packages' .run installers read from their scripts in the open driver source (hicann/driver, scripts/package):
their log form as a class of last resort, the tool and DKMS prerequisite checks, the installation directory's owner and
mode, install path characters, concurrent installs, the CANN packages' version check, the driver's check of the
installed firmware and of the host, files of the package missing, the reboot a module removal or a failed hot reset
leaves; npu-smi's firmware component upgrade; the Ascend Docker Runtime's installer; and system tools broken by library
paths (yum, the loader's symbol lookup error). Each entry reads members its examples do not show, says the member in its
title, stays quiet on ordinary lines that share its words and on every clean excerpt of the corpus, and one line is one
problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_drv_install")
CLASSES = {"ASCEND_INSTALLER_ERROR_LOGGED", "SYSTEM_LIBRARY_SYMBOL_FROM_OTHER_COPY",
           "ASCEND_DOCKER_RUNTIME_INSTALLER_FAILED", "NPU_SMI_FIRMWARE_UPGRADE_FAILED"}
WARNINGS = {"NPU_DRIVER_DKMS_PREREQUISITE_MISSING", "NPU_DRIVER_REBOOT_NEEDED",
            "NPU_DRIVER_FIRMWARE_VERSION_MISMATCH_AT_INSTALL"}
# entries of other parts this part's sources extend (the driver's kernel modules, its signature and CRL checks)
EXTENDED = ["NPU_DRIVER_KERNEL_MODULE_MISMATCH", "NPU_DRIVER_PACKAGE_SIGNATURE_REJECTED"]
FAMILY = IDS + EXTENDED + ["ASCEND_RUN_PACKAGE_INSTALLER_ERROR", "ASCEND_RUN_PACKAGE_NOT_ROOT",
                           "ASCEND_RUN_PACKAGE_INSTALL_USER_INVALID", "NPU_DRIVER_DEVICES_BUSY_DURING_INSTALL",
                           "NPU_DRIVER_PACKAGE_NOT_FOR_THIS_DEVICE", "NPU_DRIVER_INSTALL_SPACE_INSUFFICIENT",
                           "ASCEND_COMPONENT_INSTALLER_CHECK_FAILED", "OPENSSL_SYMBOL_FROM_OTHER_LIBCRYPTO",
                           "CANN_UNDEFINED_SYMBOL_MIXED_VERSIONS",
                           # DKMS's line without headers names no vendor: the vendor-neutral entry (families_kernel_sys.json)
                           "KERNEL_HEADERS_NOT_INSTALLED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert len(IDS) == 16
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_drv_install.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in CLASSES), sid
        assert sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # the installers' log form: the firmware's, a CANN package's in the older date form, the driver's echo form
    ("[Firmware] [2025-03-01 10:00:00] [uid=0(root)] [ERROR]upgrade tool not exit", "ASCEND_INSTALLER_ERROR_LOGGED",
     "Ascend Firmware installer logged an error: upgrade tool not exit"),
    ("[Kernels] [20240301-10:00:00] [ERROR]: failed to set runtime bash env.", "ASCEND_INSTALLER_ERROR_LOGGED",
     "Kernels installer logged an error: failed to set runtime bash env."),
    ("[Driver] [2025-03-01 10:00:00] [ERROR]\x1b[31mDrv_file_copy failed, details in : "
     "/var/log/ascend_seclog/ascend_install.log \x1b[0m", "ASCEND_INSTALLER_ERROR_LOGGED", ": Drv_file_copy failed"),
    # the tool check: one tool, and a pair of which neither was found
    ("[Driver] [2025-03-01 10:00:00] [ERROR]The list of missing tools: update-rc.d,chkconfig,",
     "NPU_DRIVER_INSTALL_TOOLS_MISSING", "(update-rc.d,chkconfig)"),
    # DKMS prerequisites: gcc, the kernel-devel package
    ("[Driver] [2025-03-01 10:00:00] [uid=0(root)] [WARNING]The program 'gcc' is currently not installed.",
     "NPU_DRIVER_DKMS_PREREQUISITE_MISSING", "`gcc` is not installed"),
    ("[Driver] [2025-03-01 10:00:00] [uid=0(root)] [WARNING]kernel devel is currently not installed.",
     "NPU_DRIVER_DKMS_PREREQUISITE_MISSING", "`kernel devel` is not installed"),
    # the installation directory: too small a mode, the other wordings
    ("[Driver] [2025-03-01 10:00:00] [ERROR]The given directory, or its parents, permission is too small, details in "
     ": /var/log/ascend_seclog/ascend_install.log", "NPU_DRIVER_INSTALL_DIR_PERMISSION_INVALID", "permission is too small"),
    ("[Driver] [2025-03-01 10:00:00] [uid=0(root)] [ERROR][/opt/npu] permission is too small.",
     "NPU_DRIVER_INSTALL_DIR_PERMISSION_INVALID", "directory `/opt/npu`: permission is too small"),
    ("[Driver] [2025-03-01 10:00:00] [uid=0(root)] [ERROR]the given dir, or its parents, permission is invalid.",
     "NPU_DRIVER_INSTALL_DIR_PERMISSION_INVALID", ": permission is invalid"),
    # install path characters: the Driver-compat installer's wording
    ("[Driver-compat] [2025-03-01 10:00:00] [ERROR]: The Driver-compat install path /opt/a.b is invalid, only characters "
     "in [a-z,A-Z,0-9,-,_] are supported!", "ASCEND_INSTALL_PATH_INVALID_CHARACTERS", "`/opt/a.b`"),
    # another install running: NNAL's lock
    ("[NNAL] [2025-03-01 10:00:00] [ERROR]: Get /usr/local/Ascend/nnal lockfile failed! There may be another process "
     "also installing in the directory.", "ASCEND_INSTALL_ANOTHER_PROCESS_RUNNING", "in `/usr/local/Ascend/nnal`"),
    # the version check: the toolkit against an older driver
    ("[Toolkit] [2025-03-01 10:00:00] [ERROR]: driver is installed, current version: 23.0.3, required version is "
     ">=24.1, version check failed.", "CANN_PACKAGE_VERSION_CHECK_FAILED",
     ": `driver` is at 23.0.3, this package requires >=24.1"),
    ("[Nnal] [2025-03-01 10:00:00] [ERROR]: version check failed, please uninstall incompatible packages or install "
     "compatible packages. [toolkit]", "CANN_PACKAGE_VERSION_CHECK_FAILED", "incompatible toolkit"),
    # reboot needed: uninstall, a device not rescanned, a module still in use
    (" Driver package uninstall success! Reboot needed for uninstallation to take effect! ",
     "NPU_DRIVER_REBOOT_NEEDED", ": Reboot needed"),
    ("[Driver] [2025-03-01 10:00:00] [uid=0(root)] [WARNING]hot reset failed, all device num:8, rescan device num:7",
     "NPU_DRIVER_REBOOT_NEEDED", ": hot reset failed"),
    ("[Driver] [2025-03-01 10:00:00] [uid=0(root)] [ERROR]rmmod tc_pcidev failed", "NPU_DRIVER_REBOOT_NEEDED",
     ": rmmod tc_pcidev failed"),
    ("[Driver] [2025-03-01 10:00:00] [WARNING]Device startup timeout", "NPU_DRIVER_REBOOT_NEEDED",
     ": Device startup timeout"),
    # the firmware the driver requires, in the log form
    ("[Driver] [2025-03-01 10:00:00] [uid=0(root)] [WARNING]driver and firmware version relationship check fail",
     "NPU_DRIVER_FIRMWARE_VERSION_MISMATCH_AT_INSTALL", ": driver and firmware version relationship check fail"),
    # the host: the older installer's arch code
    ("ERR_NO:0x0092;ERR_DES:arch(x86_64) not support", "NPU_DRIVER_PACKAGE_NOT_FOR_THIS_OS", ": arch(x86_64) not support"),
    # files of the package
    ("[Driver] [2025-03-01 10:00:00] [uid=0(root)] [ERROR]load_file_check /usr/local/Ascend/driver/device failed",
     "NPU_DRIVER_PACKAGE_FILES_MISSING", ": /usr/local/Ascend/driver/device"),
    ("[Driver] [2025-03-01 10:00:00] [uid=0(root)] [ERROR]/usr/local/Ascend/driver/script/host_sys_init.sh does not "
     "exist or md5sums do not match", "NPU_DRIVER_PACKAGE_FILES_MISSING", "host_sys_init.sh"),
    # the Docker Runtime's installer: a repeated option, the uninstall script, its log file's form
    ("[ERROR] failed, '--install-path' Repeat parameter!", "ASCEND_DOCKER_RUNTIME_INSTALLER_FAILED",
     "'--install-path' Repeat parameter"),
    ("[ERROR] uninstall failed, '/usr/local/Ascend/Ascend-Docker-Runtime/script/uninstall.sh  docker ' return non-zero",
     "ASCEND_DOCKER_RUNTIME_INSTALLER_FAILED", "uninstall.sh  docker ' return non-zero"),
    ("[ERROR] [2025/03/01 10:00:00] [uid: 0] [10.0.0.8] [ascend-docker-runtime] install failed, "
     "/etc/ascend-docker-runtime.d/base.list is invalid", "ASCEND_DOCKER_RUNTIME_INSTALLER_FAILED", "base.list is invalid"),
    # npu-smi's upgrade: the transfer, the VRD retries, the activation
    ("\tMessage                        : Failed to transfile file", "NPU_SMI_FIRMWARE_UPGRADE_FAILED",
     ": Failed to transfile file"),
    ("vrd upgrade failed, retry 3 times.", "NPU_SMI_FIRMWARE_UPGRADE_FAILED", ": vrd upgrade failed, retry 3 times"),
    ("Failed to activate the mcu upgrade.", "NPU_SMI_FIRMWARE_UPGRADE_FAILED", ": Failed to activate the mcu upgrade"),
    # yum and the loader
    ("There was a problem importing one of the Python modules required to run yum. The error leading to this problem "
     "was:", "YUM_PYTHON_MODULE_IMPORT_FAILED", "yum cannot start"),
    ("rpm: symbol lookup error: /usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_0/lib/libsqlite3.so.0: undefined symbol: "
     "sqlite3_stmt_isexplain", None, None),
    ("dnf: symbol lookup error: /lib64/libcurl.so.4: undefined symbol: nghttp2_option_set_no_rfc9113_leading_and_"
     "trailing_ws_validation", "SYSTEM_LIBRARY_SYMBOL_FROM_OTHER_COPY", "`dnf` could not resolve"),
    ("ImportError: /usr/local/python3.9/lib/python3.9/lib-dynload/_ssl.cpython-39-aarch64-linux-gnu.so: undefined "
     "symbol: X509_STORE_up_ref", "OPENSSL_SYMBOL_FROM_OTHER_LIBCRYPTO", "X509_STORE_up_ref"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    if sig_id is None:  # a CANN path: the mixed-versions entry of the main file reads it, and is the one reported
        assert [s.id for s in kb.explaining(line) if s.id in FAMILY] == ["CANN_UNDEFINED_SYMBOL_MIXED_VERSIONS"]
        return
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    # the driver's kernel modules: DKMS without headers (DKMS's own line names no vendor: the vendor-neutral entry),
    # modprobe on a module built for another kernel
    ("Error! Your kernel headers for kernel 5.10.0-136.12.0.86.oe2203sp1.aarch64 cannot be found at "
     "/lib/modules/5.10.0-136.12.0.86.oe2203sp1.aarch64/build or /lib/modules/5.10.0-136.12.0.86.oe2203sp1.aarch64/source.",
     "KERNEL_HEADERS_NOT_INSTALLED", "headers of kernel `5.10.0-136.12.0.86.oe2203sp1.aarch64` are not installed"),
    ("modprobe: ERROR: could not insert 'drv_pcie_host': Exec format error", "NPU_DRIVER_KERNEL_MODULE_MISMATCH",
     "could not be built or loaded"),
    ("modprobe: FATAL: Module drv_davinci_intf not found in directory /lib/modules/5.15.0-91-generic",
     "NPU_DRIVER_KERNEL_MODULE_MISMATCH", "`5.15.0-91-generic`"),
    ("[Driver] [2025-03-01 10:00:00] [uid=0(root)] [ERROR]driver_auto_insmod failed", "NPU_DRIVER_KERNEL_MODULE_MISMATCH",
     "could not be built or loaded"),
    # the signature checks' CRL and version counter steps
    ("[Driver] [2025-03-01 10:00:00] [uid=0(root)] [ERROR]hw_crl_check failed.", "NPU_DRIVER_PACKAGE_SIGNATURE_REJECTED",
     ": hw_crl_check failed"),
    ("[Driver] [2025-03-01 10:00:00] [uid=0(root)] [ERROR]get nvcnt failed,ret =-1 ,stop upgrade",
     "NPU_DRIVER_PACKAGE_SIGNATURE_REJECTED", ": get nvcnt failed"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "[Driver] [2025-03-01 10:00:00] [uid=0(root)] [INFO]Start to install driver package, version=24.1.0",
    "[Toolkit] [2025-03-01 10:00:00] [INFO]: toolkit install success",
    "[Driver] [2025-03-01 10:00:00] [uid=0(root)] [INFO]rmmod drv_davinci_intf",
    "[Driver] [2025-03-01 10:00:00] [uid=0(root)] [WARNING]rmmod drv_seclib_host failed",
    " Driver package install success! The new version takes effect immediately. ",
    "[Driver] [2025-03-01 10:00:00] [WARNING]os(ubuntu) not match scene.info(centos),do you want to continue installing?",
    "[Kernels] [2025-03-01 10:00:00] [INFO]: toolkit is installed, current version: 8.0.0, version check successfully.",
    "\tMessage                        : Start device upgrade successfully",
    "\tupgrade                        : Success",
    "Start upgrade [100].",
    "[INFO] [2025/03/01 10:00:00] [uid: 0] [localhost] [ascend-docker-runtime] install success",
    "[ERROR] failed, see above",
    "Loaded plugins: fastestmirror",
    "ldd /usr/bin/python3",
    "export LD_LIBRARY_PATH=/usr/local/Ascend/driver/lib64:$LD_LIBRARY_PATH",
    "dkms status",
    "modprobe drv_pcie_host",
    "insmod: ERROR: could not insert module nvidia.ko: Invalid module format",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED and s.severity == "fail"] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS) == []
