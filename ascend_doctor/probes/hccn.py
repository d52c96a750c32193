"""Device NICs: /etc/hccn.conf and `hccn_tool -i N -<query> -g` for every RoCE port
(ascend_formats.md §3, hccn_tool.md §1-§9).

hccn_tool takes the *physical* device id (ASCEND_RT_VISIBLE_DEVICES does not apply
to it). The devices asked about are those hccn.conf names plus every /dev/davinciN,
so the probe does not depend on the npu-smi probe. Every query runs whenever hccn_tool
is there (not only under a rank table): one query on every device, then the next, so a
run cut short still knows the link of every port. A query that times out stops the
rest (a hung hccn_tool hangs every later call too), and all queries together stop
after PROBE_BUDGET_TIMEOUTS command timeouts.
"""

from __future__ import annotations

import datetime
import re
import time
from typing import Dict, List, Optional, Tuple

from .. import phrases
from ..i18n_text import Text, error_text
from ..facts import HccnDevice, HccnFacts, LinkRecord, LinkStat, LldpNeighbour, OpticalModule, PingResult
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
    errors: List[Text] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _CONF_LINE.match(line)
        if not m:
            errors.append(Text(phrases.HCCN_CONF_BAD_LINE, path=source, line=n, text=repr(line[:60])))
            continue
        key, dev, value = m.group(1), int(m.group(2)), m.group(3).strip()
        if dev > 1023:
            errors.append(Text(phrases.HCCN_CONF_BAD_DEVICE, path=source, line=n, device=dev))
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


# `[devid 0]` (current A2 driver) or `[device 0]` (MindCluster's doc) before each -link_stat line (§3).
_LINK_UP = lazy_compile(r"link up count\s*:\s*(\d+)")
_LINK_DOWN = lazy_compile(r"link down count\s*:\s*(\d+)")
_LINK_NOW = lazy_compile(r"current time\s*:\s*([^\r\n]+)")
_LINK_RECORD = lazy_compile(r"(\w{3}\s+\w{3}\s+\d{1,2}\s+\d\d:\d\d:\d\d\s+\d{4})\s+LINK\s+(UP|DOWN)\b")


def _asctime(text: str) -> Optional[datetime.datetime]:
    """`Wed Aug  2 03:09:26 2022` (asctime: the day padded with a space) -> datetime, None if not one."""
    try:
        return datetime.datetime.strptime(" ".join(text.split()), "%a %b %d %H:%M:%S %Y")
    except ValueError:
        return None


def parse_link_stat(text: str) -> Optional[LinkStat]:
    """`-link_stat -g` (hccn_tool.md §3): both line prefixes, with or without the `link down count` line
    (older drivers), records newest first or `: NA`. None when there is no `link up count` line."""
    up = _LINK_UP.search(text)
    if not up:
        return None
    down = _LINK_DOWN.search(text)
    now_m = _LINK_NOW.search(text)
    now = _asctime(now_m.group(1)) if now_m else None
    stat = LinkStat(current_time=" ".join(now_m.group(1).split()) if now_m else None, up_count=int(up.group(1)),
                    down_count=int(down.group(1)) if down else None)
    for m in _LINK_RECORD.finditer(text):
        when = _asctime(m.group(1))
        before = int((now - when).total_seconds()) if now is not None and when is not None else None
        stat.records.append(LinkRecord(time=m.group(1), state=m.group(2), seconds_before=before))
    return stat


_NUMBER = lazy_compile(r"^([+-]?\d*\.?\d+)")
_HEX = lazy_compile(r"^0x([0-9a-fA-F]+)$")
_POWER_LANE = lazy_compile(r"^([TR]x) Power\d*$")
OPTICAL_FLAGS = ("Tx Los Flag", "Rx Los Flag", "Tx LoL Flag", "Rx LoL Flag")
_OPTICAL_NUMBERS = {"temperature": "temperature", "Temp High Thres": "temp_high", "Temp Low Thres": "temp_low",
                    "Vcc": "vcc", "Vcc High Thres": "vcc_high", "Vcc Low Thres": "vcc_low",
                    "TxPower High Thres": "tx_high", "TxPower Low Thres": "tx_low",
                    "RxPower High Thres": "rx_high", "RxPower Low Thres": "rx_low"}


def _number(value: str) -> Optional[float]:
    """`47 C`, `1.0189 mW`, `3300.00 mV` -> the number; `NA`, `not supported`, `get failed` -> None."""
    m = _NUMBER.match(value)
    return float(m.group(1)) if m else None


def parse_optical(text: str) -> Optional[OpticalModule]:
    """`-optical -g` (hccn_tool.md §4): `key : value` lines; lanes with or without a number (the doc trims
    them), NA where no module or lane is present. None when there is no `present` line."""
    kv: Dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            kv.setdefault(key.strip(), value.strip())
    if "present" not in kv:
        return None
    present = kv["present"].lower()
    opt = OpticalModule(present=True if present == "present" else False if present == "not present" else None)
    for key, attr in _OPTICAL_NUMBERS.items():
        if key in kv:
            setattr(opt, attr, _number(kv[key]))
    for key, value in kv.items():
        m = _POWER_LANE.match(key)
        if m:
            mw = _number(value)
            if mw is not None:
                (opt.tx_power if m.group(1) == "Tx" else opt.rx_power)[key] = mw
        elif key in OPTICAL_FLAGS:
            h = _HEX.match(value)
            if h:
                opt.flags[key] = int(h.group(1), 16)
    hp = kv.get("high power enable reg", "").lower()
    opt.high_power = True if hp == "enabled" else False if hp == "not enabled" else None
    opt.vendor = kv.get("vendor name") or None
    opt.part_number = kv.get("vendor part number") or None
    return opt


def _tlv_value(lines: List[str], name: str) -> Optional[str]:
    """The first non-empty line after the `name` TLV header, without an `Ifname:`-style label."""
    for i, line in enumerate(lines):
        if line.strip() == name:
            for nxt in lines[i + 1:]:
                if nxt.strip():
                    if nxt.strip().endswith(" TLV"):
                        return None
                    value = nxt.strip()
                    label, sep, rest = value.partition(": ")
                    return rest.strip() if sep and label in ("Ifname", "Local", "MAC", "IPv4", "IPv6") else value
    return None


def parse_lldp(text: str) -> Optional[LldpNeighbour]:
    """`-lldp -g` (hccn_tool.md §5, lldptool style): empty output = no neighbour; None when the output is
    not TLVs at all."""
    if not text.strip():
        return LldpNeighbour(present=False)
    lines = text.splitlines()
    if not any(line.strip().endswith(" TLV") for line in lines):
        return None
    return LldpNeighbour(present=True, port=_tlv_value(lines, "Port ID TLV"),
                         system_name=_tlv_value(lines, "System Name TLV"),
                         system_description=_tlv_value(lines, "System Description TLV"))


_TLS = lazy_compile(r"tls switch\[(\d+)\]")
_MTU = lazy_compile(r"(?im)^\s*mtu\s*[:=]?\s*(\d+)")
_SPEED = lazy_compile(r"Speed:\s*(?:(\d+)\s*Mb/s|(Unknown))")
_FEC = lazy_compile(r"fec mode:\s*(.+?)\s*(?:FEC mode)?\s*$", re.I | re.M)
_GATEWAY = lazy_compile(r"default gateway:\s*([^,\s]+)")
_NETDETECT = lazy_compile(r"netdetect addr(?:ess)?:\s*(\S+)")
_PING = lazy_compile(r"(\d+) packets transmitted, (\d+) received")


def parse_tls(text: str) -> Optional[int]:
    """`dev_id:0, tls switch[0](0:disable, 1:enable), ...` (both driver forms, §6) -> 0 or 1."""
    m = _TLS.search(text)
    return int(m.group(1)) if m else None


def parse_mtu(text: str) -> Optional[int]:
    m = _MTU.search(text)
    return int(m.group(1)) if m else None


def parse_speed(text: str) -> Optional[str]:
    """`Speed: 200000 Mb/s` -> "200000 Mb/s"; `Speed: Unknown!` (no link) -> "Unknown"."""
    m = _SPEED.search(text)
    if not m:
        return None
    return f"{m.group(1)} Mb/s" if m.group(1) else "Unknown"


def parse_fec(text: str) -> Optional[str]:
    """`fec mode: rs FEC mode` -> "rs"; `no FEC mode` -> "no"."""
    m = _FEC.search(text)
    return m.group(1).strip() or None if m else None


def parse_gateway(text: str) -> Optional[str]:
    m = _GATEWAY.search(text)
    return m.group(1) if m else None


def parse_netdetect(text: str) -> Optional[str]:
    """`netdetect addr: X` (the source) or `netdetect address: X` (a deployment guide): both (§7)."""
    m = _NETDETECT.search(text)
    return m.group(1) if m else None


def parse_ping(text: str) -> Optional[Tuple[int, int]]:
    """`3 packets transmitted, 3 received, 0.00% packet loss` -> (3, 3) (§8; the hccs form too)."""
    m = _PING.search(text)
    return (int(m.group(1)), int(m.group(2))) if m else None


# The queries, in the order they run (one query on every device, then the next): (flag, field, parser, what the
# output should hold). -ip and -lldp print nothing when there is nothing (no address, no neighbour).
QUERIES = (
    ("-ip", "ip", None, "ipaddr:<address>"),
    ("-link", "link", parse_hccn_link, "link status:"),
    ("-net_health", "net_health", parse_hccn_net_health, "net health status:"),
    ("-link_stat", "link_stat", parse_link_stat, "link up count :"),
    ("-optical", "optical", parse_optical, "present :"),
    ("-tls", "tls", parse_tls, "tls switch[0|1]"),
    ("-mtu", "mtu", parse_mtu, "mtu:"),
    ("-speed", "speed", parse_speed, "Speed:"),
    ("-fec", "fec", parse_fec, "fec mode:"),
    ("-lldp", "lldp", parse_lldp, "... TLV"),
    ("-gateway", "gateway", parse_gateway, "default gateway:"),
    ("-netdetect", "netdetect", parse_netdetect, "netdetect addr:"),
)
QUERY_FLAGS = tuple(q[0] for q in QUERIES)
# All queries together stop after this many command timeouts (a tool that answers slowly but within each
# timeout must not eat a pre-flight's budget: preflight gives each command a third of it).
PROBE_BUDGET_TIMEOUTS = 2.0
MAX_PARALLEL_DEVICES = 16  # devices asked side by side (an A3 node has 16)


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
        facts.errors.append(Text(phrases.UNREADABLE_FILE, error=error_text(exc),
                                 expected=Text(phrases.HCCN_CONF_LINES)))
    if text is not None:
        facts.conf_path = HCCN_CONF
        if not text.strip():
            facts.errors.append(Text(phrases.EMPTY_FILE, path=HCCN_CONF, expected=Text(phrases.HCCN_CONF_LINES)))
        elif looks_binary(text):
            facts.errors.append(Text(phrases.BINARY_FILE, path=HCCN_CONF, expected=Text(phrases.HCCN_CONF_LINES)))
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
    _query_ports(host, facts, timeout)
    if getattr(options, "ping_peers", False) and facts.tool_error is None:
        ping_peers(host, facts, timeout)
    return facts


def _query_ports(host: Host, facts: HccnFacts, timeout: float) -> None:
    """Each query on every device, the devices side by side (separate ports: an 8- or 16-device node answers a
    query in about the time of one call), the next query when all have answered."""
    from concurrent.futures import ThreadPoolExecutor  # only where hccn_tool is

    deadline = time.monotonic() + PROBE_BUDGET_TIMEOUTS * timeout
    with ThreadPoolExecutor(max_workers=max(1, min(len(facts.devices), MAX_PARALLEL_DEVICES))) as pool:
        for n, (flag, attr, parse, expected) in enumerate(QUERIES):
            if time.monotonic() > deadline:
                facts.errors.append(Text(phrases.HCCN_PROBE_BUDGET, seconds=f"{PROBE_BUDGET_TIMEOUTS * timeout:g}",
                                         queries=" ".join(QUERY_FLAGS[n:])))
                return
            argv = [facts.tool, "-i", None, flag, "-g"]
            results = list(pool.map(lambda dev: host.run(argv[:2] + [str(dev.device_id)] + argv[3:], timeout=timeout),
                                    facts.devices))
            for dev, res in zip(facts.devices, results):
                _take_answer(dev, flag, attr, parse, expected, res)
            hung = next((res for res in results if res.error == "timeout"), None)
            if hung is not None:
                # A hung hccn_tool would hang every later call too; stop instead of waiting queries x timeouts.
                facts.tool_error = hung.describe()
                return


def _take_answer(dev: HccnDevice, flag: str, attr: str, parse, expected: str, res) -> None:
    if not res.ok:
        if res.available and res.error != "timeout":
            dev.errors.append(Text(phrases.HCCN_QUERY_FAILED, failure=res.describe(), stderr=res.stderr.strip()[:120])
                              if res.stderr.strip() else res.describe())
        return
    if flag == "-ip":
        ip = parse_hccn_ip(res.stdout)
        dev.ip_queried = True
        dev.ip, dev.netmask = ip.get("ipaddr"), ip.get("netmask")
        return
    value = parse(res.stdout)
    setattr(dev, attr, value)
    if value is None:
        dev.errors.append(Text(phrases.HCCN_NO_LINE, command=f"hccn_tool -i {dev.device_id} {flag} -g",
                               expected=expected, output=repr(res.stdout.strip()[:80])))


# preflight --net: pings from this node's devices to peer device addresses of the rank table (hccn_tool.md §8)
PEERS_PER_DEVICE = 4  # peer servers pinged from each local device
PING_TIMEOUT_S = 5.0  # one ping of 3 packets
PING_BUDGET_TIMEOUTS = 1.0  # all pings together stop after this many command timeouts


def choose_peers(servers, local_index: int, per_device: int = PEERS_PER_DEVICE):
    """[(local device id, peer server id, peer device id, peer address)]: for each device of the local server, up
    to `per_device` other servers, starting at a different one for each local device and each node (so the nodes
    of a big job together cover every server), the peer's device of the same id where it has one."""
    local = next((s for s in servers if s.index == local_index), None)
    others = [s for s in servers if s.index != local_index and any(d.get("device_ip") for d in s.devices)]
    if local is None or not others:
        return []
    out = []
    for k, dev in enumerate(d for d in local.devices if d.get("device_id") is not None):
        for j in range(min(per_device, len(others))):
            peer = others[(local_index + k * per_device + j) % len(others)]
            with_ip = [d for d in peer.devices if d.get("device_ip")]
            same = next((d for d in with_ip if d.get("device_id") == dev["device_id"]), with_ip[0])
            out.append((int(dev["device_id"]), str(peer.server_id), same.get("device_id"), str(same["device_ip"])))
    return out


def _ping(host: Host, tool: str, pair, timeout: float) -> PingResult:
    dev, server, peer_dev, address = pair
    v6 = ":" in address
    argv = [tool, "-i", str(dev), "-ping"] + (["-inet6", "-g", "ipv6_address", address] if v6 else
                                              ["-g", "address", address])
    res = host.run(argv, timeout=timeout)
    result = PingResult(device_id=dev, address=address, server_id=server,
                        peer_device=peer_dev if isinstance(peer_dev, int) else None)
    counts = parse_ping(res.stdout) if res.error is None else None
    if counts is not None:
        result.sent, result.received = counts
    else:
        result.error = res.describe() if not res.ok else Text(phrases.PING_NO_SUMMARY)
    return result


def ping_peers(host: Host, facts: HccnFacts, timeout: float) -> None:
    """Fill facts.pings and facts.ping_note (why nothing was pinged, or how the peers were chosen)."""
    from .rank_table import find_local_server, local_identity, rank_table_path

    if facts.tool is None:
        facts.ping_note = Text(phrases.PING_NO_TOOL)
        return
    named = rank_table_path(host.env)
    if named is None:
        facts.ping_note = Text(phrases.PING_NO_RANK_TABLE)
        return
    path = named[1]
    try:
        text = host.read_text(path, max_bytes=256 << 20)
    except HostError as exc:
        facts.ping_note = Text(phrases.PING_RANK_TABLE_UNREADABLE, path=path, error=str(exc))
        return
    from ..rank_table import validate_rank_table_text

    table = validate_rank_table_text(text, env={})
    local = find_local_server(table, local_identity(host, timeout))
    if local is None:
        facts.ping_note = Text(phrases.PING_NOT_IN_TABLE, path=path)
        return
    index = next(s.index for s in table.servers if s.path == local["path"])
    pairs = choose_peers(table.servers, index)
    if not pairs:
        facts.ping_note = Text(phrases.PING_NO_PEERS)
        return
    one = min(timeout, PING_TIMEOUT_S)
    deadline = time.monotonic() + max(one, PING_BUDGET_TIMEOUTS * timeout)
    rounds: List[list] = []  # round j: the j-th peer of every local device; a round's pings run side by side
    seen: Dict[int, int] = {}
    for pair in pairs:
        j = seen[pair[0]] = seen.get(pair[0], -1) + 1
        if j == len(rounds):
            rounds.append([])
        rounds[j].append(pair)
    sent = 0
    from concurrent.futures import ThreadPoolExecutor  # only with --net

    with ThreadPoolExecutor(max_workers=max(len(r) for r in rounds)) as pool:
        for batch in rounds:
            if time.monotonic() > deadline:
                break
            facts.pings.extend(pool.map(lambda pair: _ping(host, facts.tool, pair, one), batch))
            sent += len(batch)
    values = {"count": sent, "servers": len({p[1] for p in pairs}),
              "seconds": f"{max(one, PING_BUDGET_TIMEOUTS * timeout):g}"}
    note = Text(phrases.PING_SAMPLE, per=PEERS_PER_DEVICE, **values) if sent == len(pairs) else \
        Text(phrases.PING_STOPPED, left=len(pairs) - sent, **values)
    facts.ping_note = note
