"""Do the NPUs show up, healthy, with free memory, on the driver that is installed?

From `npu-smi info` and the /dev/davinci nodes (reference ascend_formats §7.2 D1, D2, D4; §7.1 V5).
"""

from __future__ import annotations

from typing import Dict, List

from ..findings import ERROR, FAIL, PASS, SKIP, WARN
from ..i18n import N_, _, sentences
from . import check
from ._ascend import ascend_signs
from ..i18n_text import Text, join, localized
from ..phrases import NPU_CHIP_LABEL

NO_ASCEND = N_("No Ascend hardware or software on this machine (no /dev/davinci*, npu-smi, driver or CANN).")
# D4: memory this full with no process on the NPU is leaked or held by an invisible process.
IDLE_FULL_PCT = 90
BUSY_FULL_PCT = 95
# npu-smi's Health words with their meaning in the vendor's Chinese (npu-smi reference: OK 正常, Warning 一般告警,
# Alarm 重要告警, Critical 紧急告警); the word itself stays as npu-smi printed it, the meaning is added.
HEALTH_MEANING = {"OK": N_("npu health|OK"), "WARNING": N_("npu health|Warning"), "ALARM": N_("npu health|Alarm"),
                  "CRITICAL": N_("npu health|Critical")}


def health_shown(health: str) -> str:
    """npu-smi's Health word in a sentence: "Alarm" in English, "Alarm（重要告警）" in Chinese."""
    msgid = HEALTH_MEANING.get((health or "").upper())
    shown = _(msgid) if msgid else health
    return health if shown == msgid else f"{health}（{shown}）"


def _label(dev) -> str:
    """The device's name, English (an evidence key: JSON keys stay English); a Text, so `localized()` gives it in
    the run's language inside a sentence."""
    if dev.device_id is not None and (dev.chip_id or dev.device_id != dev.npu_id):
        return Text(NPU_CHIP_LABEL, npu=dev.npu_id, chip=dev.chip_id, device=dev.device_id)
    return f"NPU {dev.npu_id}"


@check("devices.npu_smi", "npu-smi lists the NPUs",
       fail="npu-smi lists no NPU", warn="npu-smi not available (the NPU driver is installed)",
       error="Could not read the NPUs with npu-smi",
       skip="No npu-smi to run (no Ascend parts here)")
def check_npu_smi(ctx):
    npu = ctx.facts.npu
    if npu.command_error and not npu.devices:
        ev = {"command": "npu-smi info", "result": localized(npu.command_error)}
        if npu.errors:
            ev["problems"] = [localized(e) for e in npu.errors]
        return ctx.finding(ERROR,
            summary=sentences(_("Could not read the NPUs: {error}.").format(error=localized(npu.command_error)),
                              _("A hanging npu-smi usually means the driver or a device is stuck.")
                              if "did not finish" in npu.command_error else ""),
            evidence=ev,
            fix=[_("npu-smi info   # run it by hand and see whether it returns"),
                 _("dmesg | grep -i -e davinci -e npu | tail -20   # driver errors"),
                 _("ps -ef | grep -e npu-smi -e dmp_daemon   # a stuck npu-smi or device manager"),
                 _("if the driver is stuck, reboot the node (as root)")])
    if not npu.available:
        if not ctx.facts.driver.installed:
            return ctx.finding(SKIP,
                               summary=_(NO_ASCEND) if not ascend_signs(ctx.facts) else
                               _("npu-smi is not installed and no NPU driver was found."))
        fix = [_("ls -l /usr/local/bin/npu-smi /usr/local/sbin/npu-smi   # where the driver package installs it")]
        if ctx.facts.system.container:
            fix.append(_("in a container, mount it from the host: docker run -v /usr/local/bin/npu-smi:"
                         "/usr/local/bin/npu-smi:ro -v /usr/local/Ascend/driver:/usr/local/Ascend/driver:ro ..."))
        else:
            fix.append(_("./Ascend-hdk-<chip>-npu-driver_<version>_linux-<arch>.run --full --install-for-all   "
                         "# only if it is missing: reinstalls the driver"))
        return ctx.finding(WARN,
                           summary=_("The NPU driver is installed but npu-smi is not available, so device health, "
                                     "memory and count cannot be checked."),
                           evidence={"driver": ctx.facts.driver.version_file}, fix=fix)
    ev = {"devices": len(npu.devices), "layout": npu.layout, "npu-smi": npu.tool_version,
          "driver (banner)": npu.driver_version}
    if npu.errors:
        ev["problems"] = [localized(e) for e in npu.errors]
    if npu.command_error:
        ev["result"] = localized(npu.command_error)
    if not npu.devices and npu.tool_version is None and npu.errors:
        # Neither a banner nor a device row: this is not npu-smi's table (a wrapper, a broken
        # install, garbage), so nothing can be concluded about the devices.
        return ctx.finding(ERROR,
                           summary=_("npu-smi ran but its output is not the `npu-smi info` table (no version banner, "
                                     "no device row), so the NPUs could not be checked."),
                           evidence=ev,
                           fix=[_("npu-smi info | head -20   # what it prints instead of the table"),
                                _("command -v npu-smi; ls -l $(command -v npu-smi)   # is it the driver's npu-smi?"),
                                _("reinstall the driver package if npu-smi is damaged")])
    if not npu.devices:
        return ctx.finding(FAIL,
                           summary=_("npu-smi ran but listed no NPU: the driver sees no device."),
                           evidence=ev,
                           fix=["npu-smi info", _("lspci | grep -i -e accelerator -e huawei   # is the card on the PCI bus?"),
                                "ls -l /dev/davinci*", "dmesg | grep -i davinci | tail -20"])
    names = sorted({d.name for d in npu.devices if d.name})
    summary = _("{count} device(s) ({names}, SoC family {family})") if npu.soc_family else _("{count} device(s) ({names})")
    return ctx.finding(PASS,
                       summary=summary.format(count=len(npu.devices), names=", ".join(names), family=npu.soc_family),
                       evidence=ev)


@check("devices.npu_health", "Every NPU reports Health OK",
       fail="An NPU reports a Health other than OK", skip="No NPU health to read")
def check_npu_health(ctx):
    devices = ctx.facts.npu.devices
    if not devices:
        return ctx.finding(SKIP, summary=_("npu-smi listed no device."))
    bad = [d for d in devices if (d.health or "").upper() != "OK"]
    ev = {_label(d): d.health or _("(empty)") for d in devices}
    if not bad:
        return ctx.finding(PASS, summary=_("all {count} OK").format(count=len(devices)))
    first = bad[0]
    return ctx.finding(FAIL,
        summary=sentences(_("{count} device(s) not OK: {devices}.").format(
                              count=len(bad), devices=join(", ", (_("{device} {health}").format(device=localized(_label(d)), health=health_shown(d.health) or _("(empty)")) for d in bad))),
                          _("Jobs on them fail or hang.")),
        evidence=ev,
        fix=[_("npu-smi info -t health -i {npu}   # Health Status, Error Code, Error Information").format(npu=first.npu_id),
             _("look the error code up in the Atlas alarm handling guide; a reset or reboot clears many: "
               "npu-smi set -t reset -i {npu} -c {chip}   (as root, no job running on it)").format(
                 npu=first.npu_id, chip=first.chip_id),
             _("avoid the card until then: export ASCEND_RT_VISIBLE_DEVICES=<healthy device ids>")])


@check("devices.npu_count", "/dev/davinci nodes match the NPUs npu-smi lists",
       fail="/dev/davinci nodes and the NPUs npu-smi lists differ", skip="No NPU devices to count")
def check_npu_count(ctx):
    npu = ctx.facts.npu
    nodes = npu.dev_nodes
    if not npu.devices:
        if nodes:
            return ctx.finding(SKIP,
                               summary=_("{count} /dev/davinci node(s); npu-smi gave no device list to compare with.")
                               .format(count=len(nodes)),
                               evidence={"nodes": nodes})
        return ctx.finding(SKIP, summary=_("No NPU devices or nodes to compare."))
    ids = sorted({d.device_id for d in npu.devices if d.device_id is not None})
    node_ids = sorted(int(n[len("/dev/davinci"):]) for n in nodes)
    ev = {"/dev/davinci nodes": len(nodes), "npu-smi devices": len(npu.devices), "node ids": node_ids}
    if len(nodes) == len(npu.devices):
        return ctx.finding(PASS,
                           summary=_("{count} devices, each with its /dev/davinci node").format(count=len(nodes)),
                           evidence=ev)
    if not nodes:
        summary = _("npu-smi lists {count} device(s) but there is no /dev/davinci node, so no process "
                    "here can open an NPU.").format(count=len(npu.devices))
        fix = ["ls -l /dev/davinci* /dev/davinci_manager /dev/devmm_svm /dev/hisi_hdc"]
        if ctx.facts.system.container:
            fix.append(_("pass the devices into the container: docker run --device /dev/davinci0 ... "
                         "--device /dev/davinci_manager --device /dev/devmm_svm --device /dev/hisi_hdc ..."))
        else:
            fix.append(_("reload the driver or reboot the node (as root)"))
        return ctx.finding(FAIL, summary=summary, evidence=ev, fix=fix)
    missing = [i for i in ids if i not in node_ids]
    first = (_("{nodes} /dev/davinci node(s) but npu-smi lists {count} device(s) (no node for device {missing}).")
             if missing else _("{nodes} /dev/davinci node(s) but npu-smi lists {count} device(s).")).format(
        nodes=len(nodes), count=len(npu.devices), missing=", ".join(map(str, missing)))
    summary = sentences(first, _("A device without a node cannot be opened; a node without a device is a chip the "
                                 "driver lost."))
    fix = ["npu-smi info; ls -l /dev/davinci*",
           _("dmesg | grep -i davinci | tail -20   # a device that dropped off"),
           _("in a container only the devices passed with --device appear: that is expected if you chose a subset")]
    return ctx.finding(FAIL, summary=summary, evidence=ev, fix=fix)


def _memory(dev):
    """(used, total, kind) of the memory jobs use: HBM where the chip has it, else its DDR."""
    if dev.hbm_total_mb:
        return dev.hbm_used_mb, dev.hbm_total_mb, "HBM"
    if dev.memory_total_mb:
        return dev.memory_used_mb, dev.memory_total_mb, _("memory")
    return None, None, None


@check("devices.npu_memory", "NPU memory is free, or held by a visible process", pitfalls=["P15"],
       warn="NPU memory is held, by no visible process or nearly full", skip="No NPU memory to read")
def check_npu_memory(ctx):
    npu = ctx.facts.npu
    if not npu.devices:
        return ctx.finding(SKIP, summary=_("npu-smi listed no device."))
    busy = {(p["npu_id"], p.get("chip_id", 0)) for p in npu.processes}
    busy_npus = {p["npu_id"] for p in npu.processes}
    ev: Dict[str, str] = {}
    orphaned: List[str] = []
    full: List[str] = []
    for d in npu.devices:
        used, total, kind = _memory(d)
        if not total:
            continue
        pct = 100.0 * used / total
        ev[_label(d)] = f"{kind} {used} / {total} MB ({pct:.0f}%)"
        has_process = (d.npu_id, d.chip_id) in busy or (npu.layout != "B" and d.npu_id in busy_npus)
        if pct >= IDLE_FULL_PCT and not has_process and d.npu_id in npu.idle_npus:
            orphaned.append(_("{device} {kind} {used}/{total} MB").format(device=localized(_label(d)), kind=kind,
                                                                           used=used, total=total))
        elif pct >= BUSY_FULL_PCT:
            full.append(_("{device} {kind} {used}/{total} MB").format(device=localized(_label(d)), kind=kind,
                                                                       used=used, total=total))
    if not ev:
        return ctx.finding(SKIP, summary=_("npu-smi reported no memory totals."))
    if npu.processes:
        ev["processes"] = join(", ", (_("pid {pid} {name} on NPU {npu}").format(pid=p["pid"], name=p["name"], npu=p["npu_id"])
                                    for p in npu.processes))
    if orphaned:
        return ctx.finding(WARN,
            summary=sentences(_("Device memory is nearly full but npu-smi shows no process using it: {devices}.").format(
                                  devices=_("; ").join(orphaned)),
                              _("Memory left by a killed job, or a process in another container; a new job there will "
                                "run out of memory.")),
            evidence=ev,
            fix=[_("npu-smi info   # check again: the process table under the device table"),
                 _("ps -ef | grep -e python -e msrun   # leftover workers of an earlier job (kill them)"),
                 _("on a shared node, look in the other containers (docker ps) for a job on this NPU"),
                 _("npu-smi set -t reset -i <npu> -c <chip>   # only if nothing holds it: resets the chip (as root, NPU idle)")])
    if full:
        return ctx.finding(WARN,
            summary=sentences(_("Device memory is nearly full: {devices}.").format(devices=_("; ").join(full)),
                              _("A new job on these devices will fail with out-of-memory.")),
            evidence=ev,
            fix=[_("npu-smi info   # which process holds it (process table)"),
                 _("pick a free device (DEVICE_ID / ASCEND_RT_VISIBLE_DEVICES) or stop the job that holds it")],
            pitfall="P15")
    return ctx.finding(PASS,
                       summary=_("no device above {percent}% memory without a process").format(percent=IDLE_FULL_PCT),
                       evidence=ev)


@check("devices.driver_matches_npu_smi", "npu-smi reports the installed driver version", pitfalls=["P07"],
       warn="npu-smi reports another driver version than the one installed",
       skip="No driver version to compare with npu-smi")
def check_driver_matches_npu_smi(ctx):
    npu, drv = ctx.facts.npu, ctx.facts.driver
    if not npu.driver_version or not drv.version:
        return ctx.finding(SKIP,
                           summary=_("Needs both the npu-smi banner and driver version.info; "
                                     "npu-smi: {banner}, version.info: {version}.").format(
                               banner=npu.driver_version or _("unknown"), version=drv.version or _("unknown")))
    ev = {"npu-smi banner Version": npu.driver_version, drv.version_file: drv.version,
          "npu-smi tool version": npu.tool_version}
    if npu.driver_version.lower() == drv.version.lower():
        summary = _("driver {version}") if npu.tool_version == npu.driver_version else \
            _("driver {version} (npu-smi tool itself is {tool})")
        return ctx.finding(PASS,
                           summary=summary.format(version=drv.version, tool=npu.tool_version), evidence=ev)
    return ctx.finding(WARN,
        summary=_("The loaded driver reports {loaded} but {path} says {version}: the driver was upgraded or reinstalled "
                  "without a reboot, or a container mounts another driver directory than the host runs.").format(
                      loaded=npu.driver_version, path=drv.version_file, version=drv.version),
        evidence=ev,
        fix=[f"cat {drv.version_file}; npu-smi info | head -3",
             _("reboot the node after a driver upgrade (as root) so the new driver is loaded"),
             _("in a container, mount the host's own /usr/local/Ascend/driver")],
        pitfall="P07")
