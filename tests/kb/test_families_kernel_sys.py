"""data/kb/families_kernel_sys.json: the Linux kernel and the host's system tools as their lines reach a ticket (round 17):
DKMS and a kernel without headers, modprobe/insmod and the kernel's module loader, mkinitcpio/dracut, the kernel's own
crashes, soft lockups, NFS, filesystems shut down, machine checks, systemd, apt/dpkg/rpm, sudo/su and mount/umount.
Every entry is vendor-neutral (it claims only what its line shows: DKMS's `Bad return status for module build` on an
NVIDIA log is not the NPU driver), reads members its examples do not show, says the member in its title, stays quiet on
ordinary lines of the same tools (and on their clean runs here, kept under tests/kb), and one line is one problem of the
family. The entries of other parts this part extended read their new members."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_kernel_sys")
EXTENDED = ["PKG_MANAGER_LOCKED", "SUDO_PRIVILEGE_ESCALATION_FAILED", "PKG_DEPENDENCIES_UNMET", "PKG_REPO_UNREACHABLE",
            "SYSTEMD_SERVICE_START_FAILED", "NFS_MOUNT_FAILED", "PROCESS_KILLED_SIGKILL",
            "DPKG_PACKAGE_PROCESSING_FAILED", "CUDA_DRIVER_LIBRARY_MISMATCH"]
FAMILY = IDS + EXTENDED + ["NPU_DRIVER_KERNEL_MODULE_MISMATCH", "OS_HOST_OOM_KILLER", "OS_CGROUP_OOM",
                           "OS_PROCESS_D_STATE_HUNG", "OS_HARD_LOCKUP", "OS_EXT4_FS_ERROR", "OS_DISK_IO_ERROR",
                           "OS_CPU_MEMORY_CE", "OS_CONTAINER_ENGINE_EXITED", "PKG_NOT_FOUND_IN_REPOS",
                           "PKG_REPO_SIGNATURE_KEY_MISSING", "OS_DEVICE_OR_RESOURCE_BUSY", "OS_ERRNO_REPORTED",
                           "OS_FATAL_MACHINE_CHECK_PANIC", "OS_MEMORY_UE_SCRUB_IDLE_PAGE"]
FALLBACKS = {"KERNEL_OOPS_OR_PANIC", "HW_MACHINE_CHECK_OR_MEMORY_UE", "SYSTEMD_SERVICE_MAIN_PROCESS_EXITED",
             "APT_REPOSITORY_NOT_USABLE"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) == 29 and "DKMS_MODULE_BUILD_FAILED" in IDS and "KERNEL_HEADERS_NOT_INSTALLED" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_kernel_sys.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in FALLBACKS) and sig.severity == "fail", sid


@pytest.mark.parametrize("line", [
    "Error! Bad return status for module build on kernel: 6.8.0-45-generic (x86_64)",
    "dkms autoinstall on 6.8.0-41-generic/x86_64 failed for nvidia(10)",
    "Error! Your kernel headers for kernel 6.8.0-45-generic cannot be found.",
    "make[1]: *** /lib/modules/6.8.0-45-generic/build: No such file or directory.  Stop.",
])
def test_dkms_lines_are_vendor_neutral_not_the_npu_driver(kb, line):
    """DKMS's and make's lines name no vendor: on an NVIDIA log they must not say `NPU driver`."""
    got = [s.id for s in kb.explaining(line)]
    assert "NPU_DRIVER_KERNEL_MODULE_MISMATCH" not in got and len(got) == 1, got
    assert "NPU" not in kb.explaining(line)[0].text("en", line=line)[0]


@pytest.mark.parametrize("line, sig_id, said", [
    # DKMS, headers
    ("Error! Bad return status for module build on kernel: 5.15.0-91-generic (x86_64)", "DKMS_MODULE_BUILD_FAILED",
     "for kernel `5.15.0-91-generic`"),
    ("dkms autoinstall on 6.8.0-45-generic/x86_64 failed for nvidia(10)", "DKMS_MODULE_BUILD_FAILED",
     "module `nvidia` for kernel `6.8.0-45-generic`"),
    ("Consult /var/lib/dkms/nvidia/535.104.05/build/make.log for more information.", "DKMS_MODULE_BUILD_FAILED",
     "module `nvidia`"),
    ("Error! Your kernel headers for kernel 5.14.0-362.el9.x86_64 cannot be found.", "KERNEL_HEADERS_NOT_INSTALLED",
     "headers of kernel `5.14.0-362.el9.x86_64` are not installed"),
    ("Error! DKMS tree already contains: nvidia-535.104.05", "DKMS_TREE_STATE_MISMATCH",
     "`nvidia-535.104.05` is already added"),
    # modules
    ("modprobe: FATAL: Module vfio_pci not found in directory /lib/modules/5.15.0-91-generic", "KERNEL_MODULE_NOT_FOUND",
     "`vfio_pci` is not installed for the running kernel `5.15.0-91-generic`"),
    ("==> ERROR: module not found: 'nvidia_drm'", "KERNEL_MODULE_NOT_FOUND", "`nvidia_drm`"),
    ("modprobe: ERROR: could not insert 'vboxdrv': Exec format error", "KERNEL_MODULE_BUILT_FOR_OTHER_KERNEL",
     "`vboxdrv` was built for another kernel"),
    ("[  123.4] nvidia: version magic '6.5.0-35-generic SMP preempt mod_unload ' should be '6.8.0-45-generic SMP preempt "
     "mod_unload '", "KERNEL_MODULE_BUILT_FOR_OTHER_KERNEL", "built for `6.5.0-35-generic`, the running kernel is `6.8.0-45-generic`"),
    ("insmod: ERROR: could not insert module ./hello.ko: Unknown symbol in module", "KERNEL_MODULE_UNKNOWN_SYMBOL",
     "`./hello.ko`"),
    ("[   12.000001] nvidia_uvm: Unknown symbol nvUvmInterfaceRegisterGpu (err -2)", "KERNEL_MODULE_UNKNOWN_SYMBOL",
     "(`nvUvmInterfaceRegisterGpu`)"),
    ("modprobe: ERROR: could not insert 'vboxdrv': Required key not available", "KERNEL_MODULE_SIGNATURE_REJECTED",
     "`vboxdrv`"),
    ("modprobe: ERROR: could not insert 'nvidia': No such device", "KERNEL_MODULE_NO_DEVICE", "found no device"),
    # kernel
    ("[ 100.000001] BUG: unable to handle kernel paging request at ffffc90001234000", "KERNEL_OOPS_OR_PANIC",
     "(unable to handle kernel paging request)"),
    ("[ 100.000002] kernel BUG at mm/slub.c:4380!", "KERNEL_OOPS_OR_PANIC", "(kernel BUG at mm/slub.c:4380!)"),
    ("[ 100.000003] Kernel panic - not syncing: hung_task: blocked tasks", "KERNEL_OOPS_OR_PANIC",
     "Kernel panic - not syncing: hung_task: blocked tasks"),
    ("[ 200.1] watchdog: BUG: soft lockup - CPU#17 stuck for 23s! [kworker/17:1:1234]", "KERNEL_SOFT_LOCKUP",
     "CPU #17 was stuck in the kernel for 23 s running `kworker/17:1:1234`"),
    ("[ 300.1] nfs: server nas-01.local not responding, still trying", "NFS_SERVER_NOT_RESPONDING",
     "`nas-01.local` is not responding (still trying)"),
    ("[ 400.1] EXT4-fs (nvme0n1p2): Remounting filesystem read-only", "KERNEL_FILESYSTEM_SHUT_DOWN", "`nvme0n1p2`"),
    ("[ 400.2] XFS (dm-2): log I/O error -5", "KERNEL_FILESYSTEM_SHUT_DOWN", "(log I/O error -5)"),
    ("[ 500.1] mce: [Hardware Error]: CPU 12: Machine Check: 0 Bank 5: bea0000000000108", "HW_MACHINE_CHECK_OR_MEMORY_UE",
     "CPU 12: Machine Check"),
    # systemd
    ("nvidia-persistenced.service: Main process exited, code=exited, status=1/FAILURE",
     "SYSTEMD_SERVICE_MAIN_PROCESS_EXITED", "`nvidia-persistenced.service` ended with code=exited, status 1/FAILURE"),
    ("kubelet.service: Start request repeated too quickly.", "SYSTEMD_START_LIMIT_HIT", "`kubelet.service`"),
    ("Failed to restart docker.service: Unit docker.service not found.", "SYSTEMD_UNIT_NOT_FOUND", "no unit `docker.service`"),
    ("kubelet.service: Failed at step EXEC spawning /usr/bin/kubelet: No such file or directory", "SYSTEMD_EXEC_FAILED",
     "`/usr/bin/kubelet` of `kubelet.service`: No such file or directory"),
    ("session-3.scope: A process of this unit has been killed by the OOM killer.", "SYSTEMD_UNIT_OOM_KILLED",
     "`session-3.scope`"),
    ("Failed to start nvidia-fabricmanager.service - NVIDIA fabric manager service.", "SYSTEMD_SERVICE_START_FAILED",
     "`nvidia-fabricmanager.service` failed to start"),
    # apt / dpkg / rpm
    ("E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), are you root?", "PKG_MANAGER_NOT_ROOT",
     "without root privileges"),
    ("E: The repository 'https://ppa.launchpadcontent.net/graphics-drivers/ppa/ubuntu noble Release' does not have a "
     "Release file.", "APT_REPOSITORY_NOT_USABLE", ": does not have a Release file"),
    ("E: Release file for http://mirrors.aliyun.com/ubuntu/dists/jammy/InRelease is expired (invalid since 3d 2h). "
     "Updates for this repository will not be applied.", "APT_REPOSITORY_NOT_USABLE", "is expired"),
    ("E: Version '12.2.0-1' for 'cuda-toolkit-12-2' was not found", "APT_PACKAGE_VERSION_NOT_FOUND",
     "no version `12.2.0-1` of the package `cuda-toolkit-12-2`"),
    ("dpkg: error processing archive /tmp/a.deb (--unpack):", "DPKG_PACKAGE_PROCESSING_FAILED", "`/tmp/a.deb`"),
    (" trying to overwrite '/usr/bin/nvidia-smi', which is also in package nvidia-utils-535 535.183.01-0ubuntu1",
     "PKG_FILE_CONFLICT", "`/usr/bin/nvidia-smi`, already owned by package `nvidia-utils-535`"),
    ("error: rpmdb: BDB0113 Thread/process 1/2 failed: DB_RUNRECOVERY: Fatal error, run database recovery",
     "RPMDB_DAMAGED", "DB_RUNRECOVERY"),
    ("  Couldn't create temporary file /var/tmp/apt.conf.a1b2c3 for passing config to apt-key", "APT_TEMP_DIR_NOT_WRITABLE",
     "`/var/tmp`"),
    ("E: dpkg was interrupted, you must manually run 'sudo dpkg --configure -a' to correct the problem.",
     "APT_DPKG_INTERRUPTED", "`sudo dpkg --configure -a`"),
    ("Existing lock /var/run/yum.pid: another copy is running as pid 3123.", "PKG_MANAGER_LOCKED", "`/var/run/yum.pid`"),
    (" libc6-dev : Depends: libc6 (= 2.35-0ubuntu3.8) but 2.35-0ubuntu3.9 is to be installed", "PKG_DEPENDENCIES_UNMET",
     "libc6-dev : Depends"),
    # sudo, su, mount
    ("[sudo] password for bob: bob is not in the sudoers file.  This incident will be reported.",
     "SUDO_PRIVILEGE_ESCALATION_FAILED", "for `bob`: is not in the sudoers file"),
    ("sudo: effective uid is not 0, is /usr/bin/sudo on a file system with the 'nosuid' option set or an NFS file system "
     "without root privileges?", "SUDO_CANNOT_BECOME_ROOT", "effective uid is not 0"),
    ("su: Authentication failure", "SU_AUTHENTICATION_FAILED", "Authentication failure"),
    ("mount: /data: wrong fs type, bad option, bad superblock on 10.0.0.5:/export, missing codepage or helper program, or "
     "other error.", "MOUNT_FAILED", "the filesystem on `10.0.0.5:/export` could not be mounted"),
    ("umount: /mnt/ckpt: device is busy.", "MOUNT_FAILED", "`/mnt/ckpt`: device is busy"),
    ("mount.nfs: mounting 10.0.0.5:/export failed, reason given by server: No such file or directory", "NFS_MOUNT_FAILED",
     "reason given by server"),
    # the shell's Killed after a progress bar; NVRM's first line
    ("Epoch 1:  37%|███▋      | 370/1000 [02:11<03:44,  2.81it/s]Killed", "PROCESS_KILLED_SIGKILL", "SIGKILL"),
    ("NVRM: API mismatch: the client has the version 550.54.15, but", "CUDA_DRIVER_LIBRARY_MISMATCH", "550.54.15"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "dkms autoinstall on 6.8.0-63-generic/x86_64 succeeded for dattobd", "Building module:", "Cleaning build area...",
    "Deleting module fimod-1.0 completely from the DKMS tree.", "modprobe nvidia", "insmod ./hello.ko",
    "[    2.1] nvidia: loading out-of-tree module taints kernel.", "[    2.2] nvidia: module license 'NVIDIA' taints kernel.",
    "[    2.3] nvidia-nvlink: Nvlink Core is being initialized, major device number 234",
    "[    0.0] Kernel command line: BOOT_IMAGE=/vmlinuz-6.8.0 root=UUID=1 ro panic=10",
    "[    3.1] EXT4-fs (sda2): re-mounted. Quota mode: none.", "[ 9042.1] nfs: server 10.0.0.5 OK",
    "[    1.1] mce: CPU supports 32 MCE banks", "[    1.2] EDAC MC: Ver: 3.0.0",
    "docker.service: Deactivated successfully.", "Started docker.service - Docker Application Container Engine.",
    "docker.service: Scheduled restart job, restart counter is at 1.", "systemctl daemon-reload",
    "Hit:1 http://archive.ubuntu.com/ubuntu jammy InRelease", "Reading package lists... Done",
    "0 upgraded, 0 newly installed, 0 to remove and 3 not upgraded.", "Setting up nvidia-dkms-535 (535.183.01-0ubuntu1) ...",
    "Unpacking libnvidia-compute-535:amd64 (535.183.01-0ubuntu1) ...", "Replacing files in old package libnvidia-compute-470",
    "Complete!", "Dependencies resolved.", "Nothing to do.", "We trust you have received the usual lecture from the local System",
    "/dev/sdb1 on /data type xfs (rw,relatime,attr2,inode64)", "umount /mnt/data", "mount -a",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_clean_runs_of_the_same_tools_give_no_statement(kb):
    """The tools' successful runs here (apt-get update/install/remove, apt-cache policy, dpkg -i, dkms add/status,
    mount/umount of a tmpfs, sudo -l, su, systemctl/modprobe --version): no line of them is explained by anything."""
    here = os.path.join(os.path.dirname(__file__), "kernel_sys_clean_runs.txt")
    with open(here, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    assert len(lines) > 50
    assert [(line, [s.id for s in kb.explaining(line)]) for line in lines if kb.explaining(line)] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
