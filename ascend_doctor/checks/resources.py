"""Host resources graph compilation and data loading need: disk for compile caches, /dev/shm, memory."""

from __future__ import annotations

from ..findings import FAIL, PASS, SKIP, WARN
from ..i18n import _
from ..plan import or_step
from . import check

# Graph compilation of a large model writes several GB of kernel_meta/ and
# compile caches; below this the compile dies half-way with "No space left".
DISK_FAIL_MB = 2 * 1024
DISK_WARN_MB = 10 * 1024
# MindSpore's dataset workers and msrun share batches through /dev/shm; Docker's
# default 64 MB is far too small for multi-process loading.
SHM_WARN_MB = 1024
MEM_WARN_MB = 4 * 1024


@check("resources.disk_space", "Free disk space for compile caches and logs",
       fail="Too little free disk for compile caches and logs", warn="Low free disk for compile caches and logs",
       skip="Disk space not collected")
def check_disk_space(ctx):
    disks = ctx.facts.system.disks
    if not disks:
        return ctx.finding(SKIP,
                           summary=_("Disk usage was not collected."))
    low = {k: v for k, v in disks.items() if v.get("free_mb") is not None and v["free_mb"] < DISK_WARN_MB}
    evidence = {k: _("{path}: {free} MB free of {total} MB").format(path=v["path"], free=v["free_mb"], total=v["total_mb"])
                for k, v in disks.items()}
    if not low:
        return ctx.finding(PASS,
                           summary=_("at least {free} GB free").format(free=min(v["free_mb"] for v in disks.values()) // 1024),
                           evidence=evidence)
    worst = min(v["free_mb"] for v in low.values())
    status = FAIL if worst < DISK_FAIL_MB else WARN
    paths = sorted({v["path"] for v in low.values()})
    return ctx.finding(status,
        summary=_("Only {free} MB free where graph compilation writes its kernel caches and logs; "
                  "compiling a real model needs several GB (warn below {warn} GB, fail below {fail} GB).").format(
                      free=worst, warn=DISK_WARN_MB // 1024, fail=DISK_FAIL_MB // 1024),
        evidence=evidence,
        fix=[_("du -sh {paths}   # find what fills the disk").format(paths=" ".join(paths)),
             _("rm -rf ./kernel_meta ./rank_*/ ~/ascend/log/*   # old compile caches and CANN logs, if yours"),
             or_step(_("run training from a directory on a larger filesystem"))])


@check("resources.shm_size", "/dev/shm size for data loading and multi-process training", pitfalls=["P05"],
       warn="/dev/shm too small for data loading and multi-process training", skip="/dev/shm not collected")
def check_shm(ctx):
    s = ctx.facts.system
    if s.shm_total_mb is None:
        return ctx.finding(SKIP,
                           summary=_("/dev/shm is not mounted or was not collected."))
    ev = {"/dev/shm": _("{free} MB free of {total} MB").format(free=s.shm_free_mb, total=s.shm_total_mb)}
    if s.shm_total_mb < SHM_WARN_MB:
        fix = [_("docker run --shm-size=16g ...   # when in a container (Kubernetes: an emptyDir with medium: Memory)"),
               _("mount -o remount,size=16G /dev/shm   # on the host, as root")]
        return ctx.finding(WARN,
                           summary=_("/dev/shm is only {total} MB; multi-process data loading and multi-card launch "
                                     "share memory through it and fail with bus errors when it fills.").format(
                               total=s.shm_total_mb),
                           evidence=ev, fix=fix, pitfall="P05")
    return ctx.finding(PASS,
                       summary=f"{s.shm_total_mb} MB", evidence=ev)


@check("resources.host_memory", "Host memory available",
       warn="Little host memory available", skip="Host memory not collected")
def check_memory(ctx):
    s = ctx.facts.system
    if s.mem_available_mb is None:
        return ctx.finding(SKIP, summary=_("Memory was not collected."))
    ev = {"available": _("{available} MB of {total} MB").format(available=s.mem_available_mb, total=s.mem_total_mb)}
    if s.mem_available_mb < MEM_WARN_MB:
        return ctx.finding(WARN,
                           summary=_("Only {available} MB of host memory is free; graph compilation and the data "
                                     "pipeline need several GB and the OOM killer ends the job without a Python error.")
                           .format(available=s.mem_available_mb),
                           evidence=ev, fix=[_("ps aux --sort=-rss | head   # what holds the memory"),
                                             _("stop other jobs on this node, or lower num_parallel_workers / "
                                               "prefetch_size")])
    return ctx.finding(PASS,
                       summary=_("{free} GB free").format(free=s.mem_available_mb // 1024), evidence=ev)
