"""OS, kernel, CPU, memory, disk and /dev/shm: what graph compilation needs from the host."""

from __future__ import annotations

from .. import phrases
from ..facts import SystemFacts
from ..host import Host
from .kv import parse_key_values

# Graph compilation writes kernel_meta/ and rank_*/ under the working directory,
# logs under ~/ascend/log, and temporary files under $TMPDIR: check all three.
def _cache_dirs(host: Host):
    home = host.env.get("HOME") or "/root"
    dirs = {"home": home, "tmp": host.env.get("TMPDIR") or "/tmp"}
    pwd = host.env.get("PWD")
    if pwd:
        dirs["cwd"] = pwd
    return dirs


def probe_system(host: Host, options) -> SystemFacts:
    facts = SystemFacts()
    machine = host.machine()
    facts.hostname = machine.get("hostname")
    facts.kernel = machine.get("kernel")
    facts.arch = machine.get("arch")
    facts.libc = machine.get("libc")
    facts.cpu_count = machine.get("cpu_count")
    facts.mem_total_mb = machine.get("mem_total_mb")
    facts.mem_available_mb = machine.get("mem_available_mb")

    text = host.read_text_or_none("/etc/os-release")
    if text is None:
        facts.errors.append(phrases.OS_RELEASE_UNREADABLE)
    else:
        osr = parse_key_values(text)
        facts.os_name = osr.get("PRETTY_NAME") or osr.get("NAME")
        facts.os_id = osr.get("ID")
        facts.os_version = osr.get("VERSION_ID")

    facts.container = _container_hint(host)

    for purpose, path in _cache_dirs(host).items():
        usage = host.disk_usage(path)
        if usage:
            facts.disks[purpose] = {"path": path, "total_mb": usage["total_mb"], "free_mb": usage["free_mb"]}
    shm = host.disk_usage("/dev/shm")
    if shm and shm.get("mount_probe") == "/dev/shm":
        facts.shm_total_mb = shm["total_mb"]
        facts.shm_free_mb = shm["free_mb"]
    return facts


def _container_hint(host: Host):
    if host.exists("/.dockerenv"):
        return "docker"
    if host.exists("/run/.containerenv"):
        return "podman"
    if host.env.get("KUBERNETES_SERVICE_HOST"):
        return "kubernetes"
    cgroup = host.read_text_or_none("/proc/1/cgroup") or ""
    for word in ("kubepods", "docker", "containerd", "lxc"):
        if word in cgroup:
            return "kubernetes" if word == "kubepods" else word
    return None
