"""The NPU's own RoCE ports, every one, on every Ascend node where hccn_tool is installed (not only under a
rank table): the faults that make HCCL time out minutes later naming none of them (EI0006, link establish
timeout, RoCE retransmissions exceeded).

Read from `hccn_tool -i N -<query> -g` (probes/hccn.py). Each check says what the vendor's tools read in the
value (reference/hccn_tool.md, with its sources: the open-source hccn_tool of hicann/driver, MindCluster's
ascend-fd knowledge base `Comp_Network_Custom_*`, HCCL's fault-diagnosis pages) and gives one finding per
kind of fault, naming every device that has it.

network.link            link status DOWN (ascend-fd Comp_Network_Custom_01 / 0x81078603)
network.link_flaps      many link-down events, or recent long ones (`-link_stat -g`)
network.optical_module  optical module not present (Comp_Network_Custom_05)
network.optical_levels  Tx/Rx power, temperature or Vcc outside the module's own thresholds, LOS/LOL flags
                        (Comp_Network_Custom_08/09/10)
network.net_health      net health not Success (Comp_Network_Custom_03)
network.lldp            no LLDP neighbour (no switch seen on the port)
network.tls / .mtu / .speed / .fec   the setting differs across this node's devices (TLS: EI0016/EI0006);
                        FEC also when it is off (Comp_Network_Custom_02)
network.address         a port with no address, or two ports with one address (Comp_Network_Custom_07)
network.peer_reach      preflight --net: peer device addresses of the rank table that do not answer a ping
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Dict, List, Optional, Tuple

from ..findings import ERROR, FAIL, PASS, SKIP, WARN
from ..i18n import N_, _, sentences
from ..i18n_text import localized
from ..phrases import PORT_FEC, PORT_MTU, PORT_SPEED, TLS_SWITCH
from . import check

NO_TOOL = N_("hccn_tool is not installed: no NPU RoCE ports to check.")
NOT_ANSWERED = N_("hccn_tool gave no answer to `{query}` on any device (an older driver, a product without this "
                  "query, or a snapshot that did not record it).")
NETWORK_TEAM_LINK = N_("if it stays DOWN: contact the network team to check the fibre, the optical module and the "
                       "switch port (a 400GE switch port may need splitting)")

# `-net_health -g` states (hccn_tool.md §2: the strings are the driver's g_net_health_status table). Fault and Init
# are documented by vendor samples; the others are read from their names. Prefix-matched: older drivers print
# "Socket failed", the current source "Socket fail".
NET_HEALTH_MEANINGS = (
    ("Success", N_("the probe to the detect address answered")),
    ("Socket fail", N_("the probe socket could not be created")),
    ("Receive timeout", N_("the probe was sent and no reply came: the detect address is unreachable or drops it")),
    ("Unreachable", N_("no route or ARP answer for the detect address")),
    ("Time exceeded", N_("the probe's time was exceeded")),
    ("Fault", N_("the port is down or faulty")),
    ("Init", N_("no detect address set, or the probe has not run yet")),
    ("Thread error", N_("the probe thread failed")),
    ("Detect ip set", N_("the detect address is being set")),
    ("Unknown", N_("the driver does not know the state")),
)

# Flaps (hccn_tool.md §3). A port is brought up once at driver init: UP, DOWN, UP (1 down, up count 2) is normal.
BOOT_DOWNS = 1
EXTRA_DOWNS_WARN = 2  # down events beyond the boot one
LONG_DOWN_S = 30  # ascend-fd LinkInfoParse: a DOWN record lasting more than 30 s before the next UP
RECENT_S = 24 * 3600
DOWNS_IN_DAY_FAIL = 5  # ascend_fd_tk check_link_stat: more than 5 link-down alarms in 24 h is flapping


def net_health_meaning(value: str) -> Tuple[str, Optional[str]]:
    """(status, meaning) of a `-net_health -g` state: PASS for Success, WARN for Init (nothing is probed yet), FAIL
    for the rest; meaning None for a state the driver source does not list."""
    for name, meaning in NET_HEALTH_MEANINGS:
        if value.startswith(name):
            return (PASS if name == "Success" else WARN if name == "Init" else FAIL), meaning
    return WARN, None


def _ids(devices: List[int]) -> str:
    return ", ".join(str(i) for i in devices)


def _with_switch_port(text: str, dev) -> str:
    """`text`, and the switch port LLDP names on the other end of the device's port (what the network team needs)."""
    if dev.lldp is not None and dev.lldp.port:
        return _("{text}; switch port {port}").format(text=text, port=dev.lldp.port)
    return text


def _link_down(dev) -> bool:
    """The port has no link: what follows from that (net health Fault, no LLDP neighbour) is network.link's finding."""
    return dev.link is not None and dev.link != "UP"


def _answered(ctx, attr: str, query: str, say_no_tool: bool = False):
    """(devices that answered `attr`, None) or (None, the finding to return: SKIP with why; without hccn_tool only
    when `say_no_tool`, so that one check says it)."""
    h = ctx.facts.hccn
    if h.tool is None:
        return None, (ctx.finding(SKIP, summary=_(NO_TOOL)) if say_no_tool else None)
    devs = [d for d in h.devices if getattr(d, attr) is not None]
    if not devs:
        if h.tool_error:
            return None, ctx.finding(SKIP, summary=_("hccn_tool gave no answer: {reason}.").format(
                reason=localized(h.tool_error)))
        return None, ctx.finding(SKIP, summary=_(NOT_ANSWERED).format(query=query))
    return devs, None


@check("network.link", N_("NPU RoCE ports are UP"),
       fail="An NPU RoCE port is DOWN", error="Could not read the NPU RoCE ports",
       skip="NPU RoCE ports not checked")
def check_link(ctx):
    h = ctx.facts.hccn
    if h.tool is not None and h.tool_error and not any(d.link for d in h.devices):
        return ctx.finding(ERROR,
                           summary=sentences(_("The RoCE port state is unknown: {reason}.").format(
                               reason=localized(h.tool_error)),
                               _("A hung hccn_tool usually means the driver or a device is stuck.")),
                           evidence={"hccn_tool": h.tool},
                           fix=[f"{h.tool} -i {h.devices[0].device_id if h.devices else 0} -link -g",
                                _("npu-smi info   # if this hangs too, the driver or a device is stuck")])
    devs, skip = _answered(ctx, "link", "-link -g", say_no_tool=True)
    if devs is None:
        return skip
    evidence = {f"device {d.device_id}": d.link for d in devs}
    down = [d.device_id for d in devs if d.link != "UP"]
    if not down:
        return ctx.finding(PASS, summary=_("{count} port(s) UP").format(count=len(devs)), evidence=evidence)
    fix = []
    for i in down:
        fix += [_("hccn_tool -i {id} -link -g   # confirm: link status: DOWN").format(id=i),
                _("hccn_tool -i {id} -optical -g   # is the module present, is Rx power within its thresholds").format(
                    id=i)]
    fix += [_("hccn_tool -i {id} -cfg recovery   # as root: re-applies /etc/hccn.conf and brings the port back "
              "(ascend-fd KB 0x81078603)").format(id=i) for i in down]
    fix.append(_(NETWORK_TEAM_LINK))
    return ctx.finding(FAIL,
                       summary=sentences(_("RoCE link DOWN on device(s) {ids}.").format(ids=_ids(down)),
                                         _("HCCL cannot reach these ports: a multi-node job times out building its "
                                           "links (EI0006, `wait socket establish timeout`) without naming the port.")),
                       evidence=evidence, fix=fix, pitfall="P13")


def _down_events(stat) -> Tuple[List[int], List[int]]:
    """(ages in s of the DOWN records of the last 24 h, durations in s of those that lasted > LONG_DOWN_S before
    the next UP). Records are newest first; a DOWN with no UP after it is the current state (network.link)."""
    recent, long_ = [], []
    for n, r in enumerate(stat.records):
        if r.state != "DOWN" or r.seconds_before is None or r.seconds_before > RECENT_S:
            continue
        recent.append(r.seconds_before)
        later_up = next((x for x in reversed(stat.records[:n]) if x.state == "UP"), None)
        if later_up is not None and later_up.seconds_before is not None:
            lasted = r.seconds_before - later_up.seconds_before
            if lasted > LONG_DOWN_S:
                long_.append(lasted)
    return recent, long_


@check("network.link_flaps", N_("NPU RoCE links are stable"),
       fail="An NPU RoCE link flaps", warn="An NPU RoCE link went down more than at start-up",
       skip="NPU RoCE link history not checked")
def check_link_flaps(ctx):
    devs, skip = _answered(ctx, "link_stat", "-link_stat -g")
    if devs is None:
        return skip
    fails, warns, evidence = [], [], {}
    for d in devs:
        stat = d.link_stat
        downs = stat.down_count if stat.down_count is not None else (
            stat.up_count - 1 if stat.up_count is not None else None)
        recent, long_ = _down_events(stat)
        evidence[f"device {d.device_id}"] = _with_switch_port(
            _("up {up}, down {down}; {recent} down event(s) in the last 24 h").format(
                up=stat.up_count if stat.up_count is not None else "?",
                down=stat.down_count if stat.down_count is not None else "-", recent=len(recent)), d)
        if len(recent) >= DOWNS_IN_DAY_FAIL:
            fails.append(d.device_id)
        elif long_ or (downs is not None and downs - BOOT_DOWNS >= EXTRA_DOWNS_WARN):
            warns.append(d.device_id)
    if not fails and not warns:
        return ctx.finding(PASS, summary=_("{count} link(s) without down events beyond start-up").format(
            count=len(devs)), evidence=evidence)
    bad = fails + warns
    parts = []
    if fails:
        parts.append(_("device(s) {ids}: {count} or more link-down events in the last 24 h").format(
            ids=_ids(fails), count=DOWNS_IN_DAY_FAIL))
    if warns:
        parts.append(_("device(s) {ids}: link-down events beyond the one at start-up, or one that lasted more than "
                       "{seconds} s in the last 24 h").format(ids=_ids(warns), seconds=LONG_DOWN_S))
    fix = [_("hccn_tool -i {id} -link_stat -g   # the up/down counts and the last 10 changes, newest first").format(
        id=i) for i in bad]
    fix += [_("hccn_tool -i {id} -optical -g   # Rx/Tx power and LOS flags of the module").format(id=i) for i in bad]
    fix.append(_("contact the network team: a flapping link is the optical module, the fibre or the switch port; "
                 "send them the switch port (hccn_tool -i <id> -lldp -g) and the times of the LINK DOWN records"))
    fix += [_("hccn_tool -i {id} -link_stat -c   # after the repair: clear the counters so new events show").format(id=i)
            for i in bad]
    return ctx.finding(FAIL if fails else WARN,
                       summary=sentences(_("{problems}.").format(problems=_("; ").join(parts)),
                                         _("Every flap breaks the RDMA connections on the port: HCCL retries, then "
                                           "fails with RoCE retransmissions exceeded or a timeout.")),
                       evidence=evidence, fix=fix, pitfall="P13")


@check("network.optical_module", N_("Every NPU RoCE port has its optical module"),
       fail="An NPU RoCE port has no optical module", skip="NPU optical modules not checked")
def check_optical_module(ctx):
    devs, skip = _answered(ctx, "optical", "-optical -g")
    if devs is None:
        return skip
    evidence = {f"device {d.device_id}": (_("present") if d.optical.present else _("not present")
                                          if d.optical.present is False else "?") for d in devs}
    absent = [d.device_id for d in devs if d.optical.present is False]
    if not absent:
        return ctx.finding(PASS, summary=_("{count} module(s) present").format(
            count=sum(1 for d in devs if d.optical.present)), evidence=evidence)
    fix = [_("hccn_tool -i {id} -optical -g | grep present   # confirm: not present").format(id=i) for i in absent]
    fix.append(_("reseat the optical module (or cable) of the port; if it is still not present, contact the network "
                 "team to replace the module (ascend-fd KB Comp_Network_Custom_05)"))
    return ctx.finding(FAIL,
                       summary=sentences(_("No optical module present on device(s) {ids}.").format(ids=_ids(absent)),
                                         _("Without one the port has no link.")),
                       evidence=evidence, fix=fix, pitfall="P13")


def _outside(value: Optional[float], low: Optional[float], high: Optional[float]) -> Optional[str]:
    if value is None:
        return None
    if high is not None and value > high:
        return "high"
    if low is not None and value < low:
        return "low"
    return None


def _optical_problems(opt) -> List[str]:
    """What is outside the module's own thresholds, as printed by the same output (what ascend-fd compares)."""
    out = []
    for powers, low, high in ((opt.tx_power, opt.tx_low, opt.tx_high), (opt.rx_power, opt.rx_low, opt.rx_high)):
        for lane, mw in powers.items():
            side = _outside(mw, low, high)
            if side == "high":
                out.append(_("{lane} {value} mW above the module's high threshold {limit} mW").format(
                    lane=lane, value=f"{mw:.4f}", limit=f"{high:.4f}"))
            elif side == "low":
                out.append(_("{lane} {value} mW below the module's low threshold {limit} mW").format(
                    lane=lane, value=f"{mw:.4f}", limit=f"{low:.4f}"))
    side = _outside(opt.temperature, opt.temp_low, opt.temp_high)
    if side:
        out.append(_("temperature {value} C outside the module's range {low}..{high} C").format(
            value=f"{opt.temperature:g}", low=f"{opt.temp_low:g}" if opt.temp_low is not None else "?",
            high=f"{opt.temp_high:g}" if opt.temp_high is not None else "?"))
    side = _outside(opt.vcc, opt.vcc_low, opt.vcc_high)
    if side:
        out.append(_("Vcc {value} mV outside the module's range {low}..{high} mV").format(
            value=f"{opt.vcc:g}", low=f"{opt.vcc_low:g}" if opt.vcc_low is not None else "?",
            high=f"{opt.vcc_high:g}" if opt.vcc_high is not None else "?"))
    for flag, value in opt.flags.items():
        if value:
            out.append(_("{flag} {value} (loss of signal or lock on a lane)").format(flag=flag, value=hex(value)))
    return out


@check("network.optical_levels", N_("NPU optical modules are within their thresholds"),
       fail="An NPU optical module is outside its thresholds", skip="NPU optical module levels not checked")
def check_optical_levels(ctx):
    devs, skip = _answered(ctx, "optical", "-optical -g")
    if devs is None:
        return skip
    present = [d for d in devs if d.optical.present]
    if not present:
        return ctx.finding(SKIP, summary=_("No optical module present to read levels from."))
    problems: Dict[int, List[str]] = {}
    evidence = {}
    for d in present:
        found = _optical_problems(d.optical)
        if found:
            problems[d.device_id] = found
            evidence[f"device {d.device_id}"] = _with_switch_port(_("; ").join(found), d)
    if not problems:
        return ctx.finding(PASS, summary=_("{count} module(s) within their own thresholds").format(count=len(present)))
    bad = sorted(problems)
    low_rx = [i for i in bad if any(p.startswith("Rx Power") and "below" in p for p in problems[i])]
    fix = [_("hccn_tool -i {id} -optical -g   # Tx/Rx power per lane against the Thres lines of the same output").format(
        id=i) for i in bad]
    fix.append(_("clean the fibre end faces and reseat the module; swap it with a good port's module to see whether "
                 "the fault follows the module or stays with the port (ascend-fd KB Comp_Network_Custom_09/10)"))
    if low_rx:
        fix.append(_("low Rx power on device(s) {ids}: the light comes from the other end, so check the Tx power of "
                     "the switch port or peer NPU (hccn_tool -i <id> -lldp -g names the switch port)").format(
                         ids=_ids(low_rx)))
    fix.append(_("contact the network team with the device(s), the switch port and these readings: optics and "
                 "fibre are theirs to replace; for abnormal power the vendor says to contact support "
                 "(ascend-fd KB Comp_Network_Custom_08)"))
    return ctx.finding(FAIL,
                       summary=sentences(_("Optical module outside its own thresholds on device(s) {ids}.").format(
                           ids=_ids(bad)),
                           _("A weak or failing module drops packets: RDMA retransmits until HCCL gives up.")),
                       evidence=evidence, fix=fix, pitfall="P13")


@check("network.net_health", N_("NPU RoCE ports pass their health probe"),
       fail="An NPU RoCE port fails its health probe", warn="An NPU RoCE port's health probe is not set up",
       skip="NPU RoCE port health not checked")
def check_net_health(ctx):
    devs, skip = _answered(ctx, "net_health", "-net_health -g")
    if devs is None:
        return skip
    fails, warns, evidence, parts = [], [], {}, []
    for d in devs:
        status, meaning = net_health_meaning(d.net_health)
        evidence[f"device {d.device_id}"] = d.net_health
        if status == PASS or _link_down(d):  # a DOWN port probes nothing: network.link says it
            continue
        (fails if status == FAIL else warns).append(d)
        parts.append(_("device {id}: {state} ({meaning})").format(
            id=d.device_id, state=d.net_health, meaning=_(meaning) if meaning else _("a state the driver does not list")))
    if not parts:
        return ctx.finding(PASS, summary=_("{count} port(s) Success").format(count=len(devs)), evidence=evidence)
    fix = []
    for d in fails + warns:
        i = d.device_id
        target = d.netdetect or d.gateway or d.conf.get("netdetect") or d.conf.get("gateway")
        fix.append(_("hccn_tool -i {id} -netdetect -g   # the address the probe pings; empty: none set").format(id=i))
        if not d.netdetect:
            fix.append(f"hccn_tool -i {i} -netdetect -s address {d.gateway or d.conf.get('gateway') or '<gateway>'}")
        if d in fails:
            fix.append(f"hccn_tool -i {i} -link -g")
            fix.append(f"hccn_tool -i {i} -ping -g address {target or '<gateway>'}")
    if fails:
        fix.append(_("if the port is UP and the detect address answers nobody: contact the network team (switch "
                     "port, VLAN, routes); the vendor also says to collect the device logs with `msnpureport` and "
                     "contact support (ascend-fd KB Comp_Network_Custom_03)"))
    return ctx.finding(FAIL if fails else WARN,
                       summary=sentences(_("{problems}.").format(problems=_("; ").join(parts)),
                                         _("A port that fails its probe cannot carry HCCL traffic either.")
                                         if fails else ""),
                       evidence=evidence, fix=fix, pitfall="P13")


@check("network.lldp", N_("Every NPU RoCE port sees its switch (LLDP)"),
       warn="An NPU RoCE port sees no switch (LLDP)", skip="NPU LLDP neighbours not checked")
def check_lldp(ctx):
    devs, skip = _answered(ctx, "lldp", "-lldp -g")
    if devs is None:
        return skip
    evidence = {f"device {d.device_id}": d.lldp.port or d.lldp.system_name or _("neighbour present")
                if d.lldp.present else _("no neighbour") for d in devs}
    missing = [d.device_id for d in devs if not d.lldp.present and not _link_down(d)]  # no link: network.link
    if not missing:
        return ctx.finding(PASS, summary=_("{count} port(s) see a neighbour").format(count=len(devs)),
                           evidence=evidence)
    fix = [_("hccn_tool -i {id} -lldp -g   # empty: no LLDP neighbour").format(id=i) for i in missing]
    fix.append(_("contact the network team: enable LLDP on the switch port, check the port is split to the NPU "
                 "port's speed (400GE ports may need splitting) and that the link is up"))
    return ctx.finding(WARN,
                       summary=sentences(_("No LLDP neighbour on device(s) {ids}.").format(ids=_ids(missing)),
                                         _("Without it the switch port of the NPU is unknown, and often the port is "
                                           "not cabled or not split on the switch.")),
                       evidence=evidence, fix=fix, pitfall="P13")


def _differs(ctx, attr: str, query: str, label: str, status: str, set_fix: Callable[[List[int], str], List[str]],
             why: str, extra: Callable = None, ignore: Tuple[str, ...] = ()):
    """One setting that must be the same on every device of the node: the odd devices out, named. `ignore`:
    values that say nothing about the setting (a speed of Unknown: the port has no link, network.link says so)."""
    devs, skip = _answered(ctx, attr, query)
    if devs is None:
        return skip
    values = {d.device_id: getattr(d, attr) for d in devs if getattr(d, attr) not in ignore}
    if not values:
        return ctx.finding(SKIP, summary=_(NOT_ANSWERED).format(query=query))
    evidence = {f"device {i}": str(v) for i, v in values.items()}
    counts = Counter(values.values())
    problems, fix = [], []
    if len(counts) > 1:
        majority = sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))[0][0]
        groups = {}
        for i, v in values.items():
            groups.setdefault(v, []).append(i)
        problems.append(_("{label} differs across this node's devices: {groups}").format(
            label=_(label), groups=_("; ").join(_("{value} on device(s) {ids}").format(value=v, ids=_ids(ids))
                                               for v, ids in sorted(groups.items(), key=lambda kv: -len(kv[1])))))
        odd = sorted(i for i, v in values.items() if v != majority)
        fix.append(f"for i in {' '.join(str(i) for i in values)}; do hccn_tool -i $i {query}; done")
        fix += set_fix(odd, str(majority))
    if extra is not None:  # a value wrong on its own (at the check's `status`)
        more, more_fix = extra(values)
        problems += more
        fix += more_fix
    if not problems:
        return ctx.finding(PASS, summary=_("{value} on all {count} device(s)").format(
            value=next(iter(counts)), count=len(devs)), evidence=evidence)
    return ctx.finding(status, summary=sentences(_("{problems}.").format(problems=_("; ").join(problems)), _(why)),
                       evidence=evidence, fix=fix, pitfall="P13")


@check("network.tls", N_("The TLS switch is the same on every NPU RoCE port"),
       fail="The TLS switch differs across the NPU RoCE ports", skip="NPU TLS switch not checked")
def check_tls(ctx):
    def set_fix(odd, majority):
        return [_("hccn_tool -i {id} -tls -s enable {value}   # as root; the value your cluster uses everywhere "
                  "(HCCL's guide enables it for security, deployment guides set 0; what matters is one value on "
                  "every device of the job)").format(id=i, value=majority) for i in odd]

    return _differs(ctx, "tls", "-tls -g", TLS_SWITCH, FAIL, set_fix,
                    N_("HCCL needs one TLS setting on both ends of every link: with CANN/HDK that check it, "
                       "communicator init fails with EI0016, otherwise both ends time out building the link "
                       "(EI0006)."))


@check("network.mtu", N_("The MTU is the same on every NPU RoCE port"),
       warn="The MTU differs across the NPU RoCE ports", skip="NPU port MTU not checked")
def check_mtu(ctx):
    def set_fix(odd, majority):
        return [_("hccn_tool -i {id} -mtu -s size {value}   # as root; the MTU the switch ports and the rest of the "
                  "job use").format(id=i, value=majority) for i in odd]

    return _differs(ctx, "mtu", "-mtu -g", PORT_MTU, WARN, set_fix,
                    N_("Ports with a different MTU than their peers and switch drop the larger frames."))


@check("network.speed", N_("Every NPU RoCE port runs at the same speed"),
       warn="An NPU RoCE port runs at another speed", skip="NPU port speed not checked")
def check_speed(ctx):
    def set_fix(odd, majority):
        return [_("contact the network team: the switch port of device(s) {ids} must run at {value} like the "
                  "others (hccn_tool -i <id> -lldp -g names the switch port)").format(ids=_ids(odd), value=majority)]

    return _differs(ctx, "speed", "-speed -g", PORT_SPEED, WARN, set_fix,
                    N_("A slower port makes every collective through it slower."), ignore=("Unknown",))


@check("network.fec", N_("FEC is on, and the same on every NPU RoCE port"),
       warn="FEC is off or differs across the NPU RoCE ports", skip="NPU port FEC not checked")
def check_fec(ctx):
    def set_fix(odd, majority):
        return [_("hccn_tool -i {id} -fec -s encoding {value}   # as root; the mode the switch port uses").format(
            id=i, value=majority) for i in odd]

    def off(values):
        none = sorted(i for i, v in values.items() if v.lower() == "no")
        if not none:
            return [], []
        return ([_("FEC off (no FEC mode) on device(s) {ids}").format(ids=_ids(none))],
                [_("hccn_tool -i {id} -fec -s encoding rs   # as root (ascend-fd KB Comp_Network_Custom_02 flags "
                   "'no FEC mode'); the switch port must use the same mode").format(id=i) for i in none])

    return _differs(ctx, "fec", "-fec -g", PORT_FEC, WARN, set_fix,
                    N_("Both ends of a link must use the same FEC mode; without FEC bit errors become packet loss."),
                    extra=off)


@check("network.address", N_("Every NPU RoCE port has its own address"),
       fail="An NPU RoCE port has no address, or shares one", skip="NPU port addresses not checked")
def check_address(ctx):
    h = ctx.facts.hccn
    if h.tool is None:
        return None
    devs = [d for d in h.devices if d.ip_queried]
    if not devs:
        return ctx.finding(SKIP, summary=_(NOT_ANSWERED).format(query="-ip -g"))
    evidence = {f"device {d.device_id}": d.ip or _("no address") for d in devs}
    none = [d for d in devs if not d.ip]
    users: Dict[str, List[int]] = {}
    for d in devs:
        if d.ip:
            users.setdefault(d.ip, []).append(d.device_id)
    dups = {ip: ids for ip, ids in users.items() if len(ids) > 1}
    if not none and not dups:
        return ctx.finding(PASS, summary=_("{count} port(s), each with its own address").format(count=len(devs)),
                           evidence=evidence)
    parts, fix = [], []
    if none:
        parts.append(_("no address on device(s) {ids}").format(ids=_ids([d.device_id for d in none])))
        for d in none:
            fix.append(f"hccn_tool -i {d.device_id} -ip -g")
            fix.append(_("hccn_tool -i {id} -ip -s address {address} netmask {netmask}   # as root; writes "
                         "/etc/hccn.conf (ascend-fd KB Comp_Network_Custom_07)").format(
                             id=d.device_id, address=d.conf.get("address") or "<address>",
                             netmask=d.conf.get("netmask") or "<netmask>"))
    for ip, ids in sorted(dups.items()):
        parts.append(_("address {address} on devices {ids}").format(address=ip, ids=_ids(ids)))
        fix.append(f"for i in {' '.join(str(i) for i in ids)}; do hccn_tool -i $i -ip -g; done")
        fix.append(_("hccn_tool -i {id} -ip -s address <its own address> netmask <netmask>   # as root, for all but "
                     "one of them").format(id=ids[-1]))
    return ctx.finding(FAIL,
                       summary=sentences(_("{problems}.").format(problems=_("; ").join(parts)),
                                         _("HCCL connects to each device's address: a port without one, or two ports "
                                           "with one, cannot be reached.")),
                       evidence=evidence, fix=fix, pitfall="P13")


@check("network.peer_reach", N_("Peer NPU addresses of the rank table answer a ping"),
       fail="Peer NPU addresses of the rank table do not answer", warn="Pings to peer NPU addresses lose packets",
       skip="Peer NPU addresses not pinged")
def check_peer_reach(ctx):
    h = ctx.facts.hccn
    if not h.pings:  # not asked (preflight --net pings), or asked and nothing to ping: the note says why
        return ctx.finding(SKIP, summary=localized(h.ping_note)) if h.ping_note else None
    evidence, lost, partial = {}, [], []
    for p in h.pings:
        key = f"device {p.device_id} -> {p.address}"
        peer = _("{server} device {device}").format(server=p.server_id or "?",
                                                     device=p.peer_device if p.peer_device is not None else "?")
        if p.error or not p.received:
            lost.append((p, peer))
            evidence[key] = _("{peer}: no answer ({why})").format(
                peer=peer, why=localized(p.error) if p.error else _("{sent} sent, 0 received").format(sent=p.sent))
        elif p.sent and p.received < p.sent:
            partial.append((p, peer))
            evidence[key] = _("{peer}: {received} of {sent} answered").format(peer=peer, received=p.received,
                                                                             sent=p.sent)
        else:
            evidence[key] = _("{peer}: answered").format(peer=peer)
    if h.ping_note:
        evidence["sample"] = localized(h.ping_note)
    if not lost and not partial:
        return ctx.finding(PASS, summary=_("{count} peer address(es) answered").format(count=len(h.pings)),
                           evidence=evidence)
    bad = lost or partial
    pairs = _("; ").join(_("device {id} -> {address} ({peer})").format(id=p.device_id, address=p.address, peer=peer)
                         for p, peer in bad[:8])
    if len(bad) > 8:
        pairs = _("{problems}; and {count} more").format(problems=pairs, count=len(bad) - 8)
    fix = [f"hccn_tool -i {p.device_id} -ping -g address {p.address}" for p, _peer in bad[:4]]
    fix.append(_("on both ends: hccn_tool -i <id> -link -g, -net_health -g and -ip -g (the address must be the rank "
                 "table's device_ip)"))
    fix.append(_("if both ports are UP with the right addresses: contact the network team with the pairs above "
                 "(switch ports, VLANs, routes between the RoCE subnets)"))
    if lost:
        summary = _("No answer from {count} peer device address(es): {pairs}.").format(count=len(lost), pairs=pairs)
    else:
        summary = _("Packet loss to {count} peer device address(es): {pairs}.").format(count=len(partial), pairs=pairs)
    return ctx.finding(FAIL if lost else WARN,
                       summary=sentences(summary, _("HCCL builds its links between exactly these addresses.")),
                       evidence=evidence, fix=fix, pitfall="P13")
