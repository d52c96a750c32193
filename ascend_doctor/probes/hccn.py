"""Device NICs: /etc/hccn.conf and `hccn_tool -i N -ip/-link/-net_health -g` (ascend_formats.md §3).

hccn_tool takes the *physical* device id (ASCEND_RT_VISIBLE_DEVICES does not apply
to it). The devices asked about are those hccn.conf names plus every /dev/davinciN,
so the probe does not depend on the npu-smi probe.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional

from .. import phrases
from ..i18n_text import Text
from ..facts import HccnDevice, HccnFacts
from ..host import FileMissing, Host, HostError
from ..lazyre import lazy_compile
from .kv import looks_binary

HCCN_CONF = "/etc/hccn.conf"
# msprechecker hard-codes this path; the driver does not put it on PATH.
HCCN_TOOL = "/usr/local/Ascend/driver/tools/hccn_tool"

_CONF_LINE = lazy_compile(r"^(\w+?)_(\d+)\s*=\s*(.*)$")
_DAVINCI = lazy_compile(r"^davinci(\d+)$")


def parse_hccn_conf(text: str, source: str = HCCN_CONF):
    """`key_<id>=value` lines -> ({id: {key: value}}, errors). Comments and blank lines are skipped."""
    conf: Dict[int, Dict[str, str]] = {}
    errors: List[str] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _CONF_LINE.match(line)
        if not m:
            errors.append(f"{source}: line {n}: {line[:60]!r} is not key_<device id>=value")
            continue
        key, dev, value = m.group(1), int(m.group(2)), m.group(3).strip()
        if dev > 1023:
            errors.append(f"{source}: line {n}: device id {dev} is not a device id")
            continue
        conf.setdefault(dev, {})[key] = value
    return conf, errors


def parse_hccn_ip(text: str) -> Dict[str, str]:
    """`ipaddr:10.10.0.10` / `netmask:255.255.255.0`; an unconfigured device prints nothing."""
    out: Dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() in ("ipaddr", "netmask"):
            out[key.strip()] = value.strip()
    return out


def parse_hccn_link(text: str) -> Optional[str]:
    m = re.search(r"link status:\s*(\S+)", text)
    return m.group(1).upper() if m else None


def parse_hccn_net_health(text: str) -> Optional[str]:
    m = re.search(r"net health status:\s*([^\r\n]+)", text)
    return m.group(1).strip() if m else None


def _find_tool(host: Host) -> Optional[str]:
    if host.is_file(HCCN_TOOL):
        return HCCN_TOOL
    return host.which("hccn_tool")


def probe_hccn(host: Host, options) -> HccnFacts:
    facts = HccnFacts()
    conf: Dict[int, Dict[str, str]] = {}
    try:
        text = host.read_text(HCCN_CONF)
    except FileMissing:
        text = None
    except HostError as exc:  # a directory, a link loop, too large, unreadable: say so
        text = None
        facts.errors.append(f"{exc}; expected address_<id>=<ip> lines")
    if text is not None:
        facts.conf_path = HCCN_CONF
        if not text.strip():
            facts.errors.append(f"{HCCN_CONF}: empty, expected address_<id>=<ip> lines")
        elif looks_binary(text):
            facts.errors.append(f"{HCCN_CONF}: binary or garbled content, expected address_<id>=<ip> lines")
            text = ""
        conf, errors = parse_hccn_conf(text)
        facts.errors.extend(errors)

    ids = set(conf)
    try:
        for name in host.listdir("/dev"):
            m = _DAVINCI.match(name)
            if m:
                ids.add(int(m.group(1)))
    except Exception:  # no /dev in a snapshot: the hccn.conf ids are all we know
        pass
    facts.devices = [HccnDevice(device_id=i, conf=conf.get(i, {})) for i in sorted(ids)]

    facts.tool = _find_tool(host)
    if facts.tool is None:
        facts.tool_error = Text(phrases.HCCN_TOOL_NOT_FOUND, path=HCCN_TOOL)
        if facts.devices:
            # `which` skips a file that cannot be executed; running it says whether one is there.
            res = host.run(["hccn_tool", "-i", str(facts.devices[0].device_id), "-ip", "-g"], timeout=1.0)
            if res.available:
                facts.tool_error = res.describe()
        return facts
    timeout = getattr(options, "timeout", 10.0)
    for dev in facts.devices:
        for what in ("-ip", "-link", "-net_health"):
            res = host.run([facts.tool, "-i", str(dev.device_id), what, "-g"], timeout=timeout)
            if res.error == "timeout":
                # A hung hccn_tool would hang every later call too; stop instead of waiting N x 3 timeouts.
                facts.tool_error = res.describe()
                return facts
            if not res.ok:
                if res.available:
                    dev.errors.append(res.describe() + (f": {res.stderr.strip()[:120]}" if res.stderr.strip() else ""))
                continue
            if what == "-ip":
                ip = parse_hccn_ip(res.stdout)
                dev.ip_queried = True
                dev.ip, dev.netmask = ip.get("ipaddr"), ip.get("netmask")
            elif what == "-link":
                dev.link = parse_hccn_link(res.stdout)
                if dev.link is None:
                    dev.errors.append(f"`hccn_tool -i {dev.device_id} -link -g`: no 'link status:' line in {res.stdout.strip()[:80]!r}")
            else:
                dev.net_health = parse_hccn_net_health(res.stdout)
                if dev.net_health is None:
                    dev.errors.append(f"`hccn_tool -i {dev.device_id} -net_health -g`: no 'net health status:' line in {res.stdout.strip()[:80]!r}")
    return facts
