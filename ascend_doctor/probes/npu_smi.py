"""`npu-smi info` and the /dev/davinci nodes: which NPUs the driver shows, and their state.

The main table comes in several layouts (reference ascend_formats §2.2-2.7):
A  910A/910B: one chip per NPU, `Chip | Bus-Id | AICore Memory HBM`;
B  Atlas A3: two dies per NPU, second header `Chip  Phy-ID` (B' = npu-smi 26.x, wider columns);
C  300I Pro/Duo (310P): `Chip    Device`, no HBM column;
D  old 310 (npu-smi 21.x): like C without hugepages.
Column widths change between releases and `26838/ 32768` has no space before the
slash, so rows are split on `|` and then on whitespace, never by offsets.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple

from .. import phrases
from ..i18n_text import Text
from ..facts import NpuDevice, NpuSmiFacts
from ..host import Host
from ..lazyre import lazy_compile

NPU_SMI_ARGV = ["npu-smi", "info"]
# Where the HDK installs npu-smi; used when it is not on PATH (e.g. sudo's secure_path).
NPU_SMI_PATHS = ("/usr/local/bin/npu-smi", "/usr/local/sbin/npu-smi")

_BANNER = lazy_compile(r"npu-smi\s+(\S+)\s+Version:\s*(\S+)")
_PAIR = lazy_compile(r"(\d+)\s*/\s*(\d+)")
_INT = lazy_compile(r"^\d+$")
_IDLE = lazy_compile(r"No running processes found in NPU\s+(\d+)", re.I)
# A table has at most a few dozen NPUs; bounding the work keeps 1 MB of junk cheap.
MAX_LINE = 1000
# 64 chips with processes is a few hundred lines; beyond this the output is not a table.
MAX_LINES = 5000


def _cells(line: str) -> List[str]:
    parts = line.split("|")
    if len(parts) < 3:  # not a table row
        return []
    return [p.strip() for p in parts[1:-1]]


def _number(token: Optional[str]) -> Optional[float]:
    if token is None:
        return None
    try:
        return float(token)
    except ValueError:  # NA, -, N/A: not reported for this chip
        return None


def _pairs(text: str) -> Tuple[List[Tuple[int, int]], List[str]]:
    """`used / total` pairs in a cell, and the other whitespace tokens in front of them."""
    pairs = [(int(a), int(b)) for a, b in _PAIR.findall(text)]
    rest = _PAIR.sub(" ", text).split()
    return pairs, rest


def parse_npu_smi_info(text: str):
    """Parse `npu-smi info` output.

    Returns (devices, banner, layout, processes, idle, errors):
    devices: [NpuDevice] (one per chip: 16 on an A3 node with 8 NPUs);
    banner: {"tool_version", "driver_version"} or None; layout: "A" | "B" | "C" | "D" | None;
    processes: [{"npu_id", "chip_id", "pid", "name", "memory_mb"}]; idle: [npu ids with no process];
    errors: what could not be parsed, with the line.
    """
    devices: List[NpuDevice] = []
    processes: List[Dict] = []
    idle: List[int] = []
    errors: List[str] = []
    banner = None
    layout = None
    has_hugepages = True
    has_hbm = None  # unknown until the `Chip | Bus-Id | ...` header says
    in_process_table = False
    pending = None  # cells of an NPU's first row, waiting for its chip row

    def flush_pending():
        nonlocal pending
        if pending is not None:
            errors.append(Text(phrases.NPU_ROW_WITHOUT_CHIP, row=repr(pending[0])))
            pending = None

    for lineno, raw in enumerate(text.splitlines(), 1):
        if lineno > MAX_LINES:
            errors.append(Text(phrases.NPU_TOO_LONG, count=MAX_LINES))
            break
        line = raw.rstrip()
        if len(line) > MAX_LINE:
            errors.append(Text(phrases.NPU_LONG_LINE, line=lineno, length=len(line)))
            continue
        stripped = line.strip()
        if not stripped:
            continue
        if banner is None:
            m = _BANNER.search(stripped)
            if m:
                banner = {"tool_version": m.group(1), "driver_version": m.group(2).rstrip("|").strip()}
                continue
        idle_m = _IDLE.search(stripped)
        if idle_m:
            idle.append(int(idle_m.group(1)))
            continue
        if stripped.startswith("+"):  # +----+ and +====+ rulers end a row pair
            flush_pending()
            continue
        cells = _cells(stripped)
        if not cells:
            continue
        head = cells[0]
        # Header rows.
        if head.startswith("NPU") and len(cells) >= 2 and "Name" in head:
            in_process_table = False
            has_hugepages = len(cells) >= 3 and "Hugepages" in cells[2]
            continue
        if head.startswith("NPU") and len(cells) >= 2 and "Process" in cells[1]:
            in_process_table = True
            continue
        if head.startswith("Chip") and len(cells) >= 3 and "Bus-Id" in cells[1]:
            has_hbm = "HBM" in cells[2]
            if "Phy-ID" in head:
                layout = "B"
            elif "Device" in head:
                layout = "C" if has_hugepages else "D"
            else:
                layout = "A"
            continue
        if in_process_table:
            proc = _parse_process_row(cells, lineno, errors)
            if proc:
                processes.append(proc)
            continue
        if len(cells) != 3:
            errors.append(Text(phrases.NPU_COLUMNS, line=lineno, count=len(cells), text=repr(stripped[:120])))
            continue
        if pending is None:
            pending = cells
            continue
        first, pending = pending, None
        dev = _parse_device(first, cells, layout, has_hbm, lineno, errors)
        if dev is not None:
            devices.append(dev)
    flush_pending()
    if banner is None and (devices or text.strip()):
        errors.append(phrases.NPU_NO_BANNER)
    if devices and layout is None:
        errors.append(phrases.NPU_NO_HEADER)
    return devices, banner, layout, processes, idle, errors


def _parse_device(row1, row2, layout, has_hbm, lineno, errors) -> Optional[NpuDevice]:
    top = row1[0].split()
    if not top or not _INT.match(top[0]):
        errors.append(Text(phrases.NPU_ID_NOT_NUMBER, line=lineno - 1, value=repr(row1[0])))
        return None
    chip = row2[0].split()
    if not chip or not all(_INT.match(t) for t in chip):
        errors.append(Text(phrases.NPU_CHIP_CELL, line=lineno, value=repr(row2[0])))
        return None
    dev = NpuDevice(npu_id=int(top[0]), chip_id=int(chip[0]))
    dev.name = " ".join(top[1:]) or None
    dev.health = row1[1] or None
    if len(chip) > 1:
        dev.device_id = int(chip[1])  # Phy-ID (A3) or logical Device (310/310P)
    elif layout == "A":
        # One chip per NPU: its logical id is the NPU id (`npu-smi info -m`, ascend_formats §2.9).
        dev.device_id = dev.npu_id
    pairs, rest = _pairs(row1[2])
    dev.power_w = _number(rest[0]) if rest else None
    dev.temp_c = _number(rest[1]) if len(rest) > 1 else None
    bus = row2[1]
    dev.bus_id = bus if bus and bus.upper() != "NA" else None
    pairs, rest = _pairs(row2[2])
    dev.aicore_pct = _number(rest[0]) if rest else None
    if pairs:
        dev.memory_used_mb, dev.memory_total_mb = pairs[0]
    if len(pairs) > 1 and has_hbm is not False:  # no header seen: a second pair can only be HBM
        dev.hbm_used_mb, dev.hbm_total_mb = pairs[1]
    elif has_hbm:
        errors.append(Text(phrases.NPU_NO_HBM, line=lineno, npu=dev.npu_id, chip=dev.chip_id))
    return dev


def _parse_process_row(cells, lineno, errors) -> Optional[dict]:
    if len(cells) < 4:
        return None
    ids = cells[0].split()
    if not ids or not all(_INT.match(t) for t in ids) or not _INT.match(cells[1]):
        errors.append(Text(phrases.NPU_PROCESS_ROW, line=lineno, text=repr(" | ".join(cells)[:120])))
        return None
    mem = cells[3].split()
    return {
        "npu_id": int(ids[0]),
        "chip_id": int(ids[1]) if len(ids) > 1 else 0,
        "pid": int(cells[1]),
        "name": cells[2],
        "memory_mb": int(mem[0]) if mem and _INT.match(mem[0]) else None,
    }


def soc_family_from(devices: List[NpuDevice], layout: Optional[str]) -> Tuple[Optional[str], Optional[str]]:
    """(family, reason it is unknown). Chip names alone cannot tell A2 from A3 (§2.9):
    A3 is recognised by its two-die `Phy-ID` layout, not by a name."""
    names = {d.name for d in devices if d.name}
    if not names:
        return None, None
    if len(names) > 1:
        return None, Text(phrases.SOC_MIXED, names=sorted(names))
    name = names.pop()
    upper = name.upper()
    chips_per_npu: Dict[int, int] = {}
    for d in devices:
        chips_per_npu[d.npu_id] = chips_per_npu.get(d.npu_id, 0) + 1
    if layout == "B" and max(chips_per_npu.values()) == 2 and upper.startswith("ASCEND910"):
        return "910_93", None
    if upper.startswith("310P"):
        return "310P", None
    if upper == "310":
        return "310", None
    if upper.startswith("910B") and layout == "A":
        return "910B", None
    if upper.startswith("910") and layout == "A":  # 910ProB, 910A, 910PremiumA: the first-generation 910
        return "910", None
    return None, Text(phrases.SOC_UNIDENTIFIED, name=repr(name), layout=layout)


def probe_npu(host: Host, options) -> NpuSmiFacts:
    facts = NpuSmiFacts()
    nodes = [p for p in host.glob("/dev/davinci[0-9]*") if p[len("/dev/davinci"):].isdigit()]
    facts.dev_nodes = sorted(nodes, key=lambda p: int(p[len("/dev/davinci"):]))
    result = host.run(NPU_SMI_ARGV, timeout=options.timeout)
    if not result.available:
        for path in NPU_SMI_PATHS:
            if host.is_file(path):
                result = host.run([path, "info"], timeout=options.timeout)
                break
    facts.available = result.available
    if not result.available:
        return facts
    if not result.ok:
        facts.command_error = result.describe()
        err = result.stderr.strip()
        if err:
            facts.errors.append(Text(phrases.NPU_STDERR, command=" ".join(result.argv),
                                     text=err.splitlines()[-1][:300]))
        if result.error:  # timed out or could not start: whatever it printed is incomplete
            return facts
    devices, banner, layout, processes, idle, errors = parse_npu_smi_info(result.stdout)
    facts.devices = devices
    facts.layout = layout
    facts.processes = processes
    facts.idle_npus = idle
    facts.errors.extend(errors)
    if banner:
        facts.tool_version = banner["tool_version"]
        facts.driver_version = banner["driver_version"]
    family, why = soc_family_from(devices, layout)
    facts.soc_family = family
    if why:
        facts.errors.append(Text(phrases.SOC_UNKNOWN, why=why))
    return facts
