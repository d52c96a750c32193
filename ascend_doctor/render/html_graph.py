"""The two drawings of the triage page, as inline SVG (no script, no font, text selectable and printable):

- the wait graph: one box per node holding its devices, an arrow from each device to the device it waited on
  (numbered in the order of the chain), the root drawn thick with a star and the word "root";
  above GRAPH_ALL_DEVICES_MAX devices only the devices of the chain and the roots are drawn, each node box
  saying how many of its devices are not, and the nodes with none of them are counted under the drawing;
- the timeline: each device's first error (a dot) and the last error the report holds for it (a square)
  on one time axis, the root's first error as a dashed line, and the devices the waits name whose log is not
  here as "no log" rows; above TIMELINE_ROWS_MAX devices the rows are the chain, the roots, the earliest and
  the latest, and one histogram row counts every device's first error.

Colour is never the only signal: every state is also a symbol and a word. Pure functions of plain data.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Dict, List, Optional, Sequence, Tuple

from ..i18n import _
from .html_page import esc

GRAPH_ALL_DEVICES_MAX = 64
CHAIN_DRAWN_MAX = 48  # a longer chain keeps its first and last devices, the middle is one "… N devices" box
ROOTS_DRAWN_MAX = 32
TIMELINE_ROWS_MAX = 40
HISTOGRAM_BINS = 60

# Wait graph geometry (SVG user units; the drawing scales down to the page's width). A node is one row box, its
# devices chips left to right (8 a line: an 8-NPU server reads as one line); arrows within a line arc above it.
WIDTH, MARGIN, LABEL_W = 1200, 12, 150
CHIP_W, CHIP_H, CHIP_GAP, ARC_H, TOP_PAD, BOX_GAP, ROW_GAP = 104, 34, 14, 40, 10, 16, 34
CHIPS_PER_LINE = (WIDTH - 2 * MARGIN - LABEL_W - 8) // (CHIP_W + CHIP_GAP)
ELIDED = "\0elided"

_DEVICE = re.compile(r"^(?P<node>.+) (?P<dev>(?:device|rank)-\S+)$")
EPOCH = datetime(1970, 1, 1)
_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})[ T-](\d{2}):(\d{2}):(\d{2})(?:[.,:](\d{1,6}))?")


def split_device(name: str) -> Tuple[Optional[str], str]:
    """('worker-1', 'device-3') for 'worker-1 device-3', (group, 'rank-5') for '<group> rank-5'; (None, name) for
    a name that is no device of a node (an IP a wait names, a rank, a file)."""
    m = _DEVICE.match(name)
    return (m.group("node"), m.group("dev")) if m else (None, name)


def parse_time(text: Optional[str]) -> Optional[float]:
    """Seconds since the epoch of a log time ('2024-05-01 10:00:30.000605'; the date and time as logged, no
    zone), or None when it has none."""
    m = _TIME.search(text or "")
    if not m:
        return None
    y, mo, d, h, mi, s, frac = m.groups()
    try:
        t = datetime(int(y), int(mo), int(d), int(h), int(mi), int(s))
    except ValueError:
        return None
    return (t - EPOCH).total_seconds() + (int(frac.ljust(6, "0")) / 1e6 if frac else 0.0)


def _unique(items) -> List[str]:
    return list(dict.fromkeys(i for i in items if i))


def _natural(name: str):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def _text(x: float, y: float, s: str, cls: str = "", anchor: str = "start") -> str:
    a = "" if anchor == "start" else f" text-anchor='{anchor}'"
    c = f" class='{cls}'" if cls else ""
    return f"<text x='{x:.0f}' y='{y:.0f}'{a}{c}>{esc(s)}</text>"


GRAPH_STYLE = ("<style>.n{fill:#fafafa;stroke:#999}.nt{font-size:13px;font-weight:600}.d{fill:#fff;stroke:#888}"
               ".d.err{fill:#fdecea;stroke:#b02a37}.d.root{fill:#f8d7da;stroke:#842029;stroke-width:3}"
               ".d.nolog{fill:#fff;stroke:#666;stroke-dasharray:4 3}.dt{font-size:12px}.ds{font-size:10px;fill:#444}"
               ".root-t{font-weight:700;fill:#842029}.e{fill:none;stroke:#333;stroke-width:1.6}.en{fill:#fff;stroke:#333}"
               ".ent{font-size:11px}.more{font-size:11px;fill:#555}</style>")


def wait_graph_svg(chain: Sequence[str], roots: Sequence[str], errors: Dict[str, bool],
                   total_devices: Optional[int] = None) -> Tuple[str, List[str]]:
    """(svg, notes): the wait graph, and lines saying what it leaves out. `errors` maps every device the
    report knows to whether it logged an error."""
    cycle = len(chain) > 2 and chain[0] == chain[-1]
    chain_devs = _unique(chain)
    elided = 0
    if len(chain_devs) > CHAIN_DRAWN_MAX:
        half = CHAIN_DRAWN_MAX // 2
        elided = len(chain_devs) - 2 * half
        chain_devs = chain_devs[:half] + chain_devs[-half:]
    roots = list(roots)
    known = _unique(list(chain) + roots + list(errors))
    collapsed = len(known) > GRAPH_ALL_DEVICES_MAX
    shown = _unique(chain_devs + roots[:ROOTS_DRAWN_MAX] + ([] if collapsed else sorted(errors, key=_natural)))
    notes: List[str] = []
    if cycle:
        notes.append(_("The arrows close a cycle: the devices wait on each other."))
    if len(roots) > ROOTS_DRAWN_MAX:
        notes.append(_("{count} more root devices are not drawn (all are listed above).").format(
            count=len(roots) - ROOTS_DRAWN_MAX))
    # one box per node, in the order the chain meets them; names that are no device of a node share one box
    boxes: Dict[Optional[str], List[str]] = {}
    for d in shown:
        boxes.setdefault(split_device(d)[0], []).append(d)
    hidden: Dict[Optional[str], List[str]] = {}
    for d in known:
        if d not in shown:
            hidden.setdefault(split_device(d)[0], []).append(d)
    if collapsed:
        others = [n for n in hidden if n not in boxes]
        if others:
            devs = sum(len(hidden[n]) for n in others)
            errs = sum(1 for n in others for d in hidden[n] if errors.get(d))
            notes.append(_("{nodes} other node(s) with {devices} device(s) ({errors} logged an error) are not on the "
                           "chain and not drawn.").format(nodes=len(others), devices=devs, errors=errs))
    if total_devices and total_devices > len(known):
        notes.append(_("Devices that logged no error, not drawn: {count}.").format(count=total_devices - len(known)))
    order: List[Optional[str]] = [n for n in boxes if n is not None]
    if elided:  # the gap sits where the chain's two drawn halves meet
        cut = next((i for i, n in enumerate(order) if n == split_device(chain_devs[CHAIN_DRAWN_MAX // 2])[0]),
                   len(order))
        order.insert(cut, ELIDED)
    if None in boxes:
        order.append(None)
    # room for arcs above a node's chips only where the chain steps from one of its devices to another
    arcs = {split_device(a)[0] for a, b in zip(chain, chain[1:]) if a != b and split_device(a)[0] == split_device(b)[0]}
    place: Dict[str, Tuple[float, float]] = {}
    box_of: Dict[str, object] = {}
    parts: List[str] = []
    # boxes flow left to right and wrap, as words do; rows keep ROW_GAP between them for the arrows under boxes
    x, y, row_h = float(MARGIN), float(MARGIN), 0.0

    def put(w: float, h: float) -> Tuple[float, float]:
        nonlocal x, y, row_h
        if x > MARGIN and x + w > WIDTH - MARGIN:
            x, y, row_h = float(MARGIN), y + row_h + ROW_GAP, 0.0
        at = (x, y)
        x += w + BOX_GAP
        row_h = max(row_h, h)
        return at

    for node in order:
        if node == ELIDED:
            w, h = LABEL_W + CHIP_W + 16, TOP_PAD + CHIP_H + 8
            bx, by = put(w, h)
            parts.append(f"<g class='elided'><rect class='n' x='{bx}' y='{by}' width='{w}' height='{h}' rx='6' "
                         "stroke-dasharray='4 3'/>" + _text(bx + 10, by + TOP_PAD + 15, "…", "nt")
                         + _text(bx + 10, by + TOP_PAD + 30, _("{count} more devices on the chain").format(
                             count=elided), "more") + "</g>")
            place[ELIDED] = (bx + LABEL_W, by + TOP_PAD)
            box_of[ELIDED] = ELIDED
            continue
        devs = sorted(boxes[node], key=_natural)
        more = len(hidden.get(node, [])) if collapsed else 0
        lines = max(1, -(-len(devs) // CHIPS_PER_LINE))
        top = ARC_H if node in arcs else TOP_PAD
        h = lines * (top + CHIP_H) + 8
        w = LABEL_W + min(len(devs), CHIPS_PER_LINE) * (CHIP_W + CHIP_GAP) + 2
        bx, by = put(w, h)
        title = node if node is not None else _("not in these logs")
        dash = "" if node is not None else " stroke-dasharray='4 3'"
        label = _text(bx + 10, by + top + (13 if more else 21), _clip(title, 20), "nt")
        if more:  # under the node's name: what of it is not drawn
            errs = sum(1 for d in hidden[node] if errors.get(d))
            label += (_text(bx + 10, by + top + 26, _("+ {count} more").format(count=more), "more")
                      + _text(bx + 10, by + top + 38, _("({errors} with errors)").format(errors=errs), "more"))
        parts.append(f"<g class='node' data-node='{esc(title)}'><rect class='n' x='{bx}' y='{by}' width='{w}' "
                     f"height='{h}' rx='6'{dash}/>{label}<title>{esc(title)}</title></g>")
        for i, d in enumerate(devs):
            line, k = divmod(i, CHIPS_PER_LINE)
            cx, cy = bx + LABEL_W + k * (CHIP_W + CHIP_GAP), by + line * (top + CHIP_H) + top
            place[d] = (cx, cy)
            box_of[d] = node
            parts.append(_chip(d, cx, cy, d in roots, errors.get(d), node is None))
    height = y + row_h + MARGIN + ROW_GAP / 2
    steps = _chain_steps(list(chain), set(chain_devs), elided)
    edges = [_edge(place[a], place[b], n, box_of[a] == box_of[b]) for n, (a, b) in enumerate(steps, 1)
             if a in place and b in place]
    what = " → ".join(chain) if chain else ", ".join(roots)
    head = (f"<svg xmlns='http://www.w3.org/2000/svg' id='wait-graph' viewBox='0 0 {WIDTH} {height:.0f}' "
            f"width='{WIDTH}' role='img' aria-labelledby='wg-title wg-desc'>"
            f"<title id='wg-title'>{esc(_('Who waited on whom'))}</title>"
            f"<desc id='wg-desc'>{esc(what)}</desc>{GRAPH_STYLE}"
            "<defs><marker id='wg-arrow' viewBox='0 0 10 10' refX='10' refY='5' markerWidth='8' markerHeight='8' "
            "orient='auto'><path d='M0,0 L10,5 L0,10 z' fill='#333'/></marker></defs>")
    return head + "".join(parts) + "".join(edges) + "</svg>", notes


def _clip(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def _chip(name: str, x: float, y: float, root: bool, error: Optional[bool], nolog: bool) -> str:
    """A device: its short name, and under it its state as a word (colour is not the only signal)."""
    short = split_device(name)[1]
    if root:
        cls, state = "d root", _("★ root")
    elif nolog or error is None:
        cls, state = "d nolog", _("no log")
    elif error:
        cls, state = "d err", _("✗ error")
    else:
        cls, state = "d", ""
    return (f"<g class='dev' data-device='{esc(name)}'><rect class='{cls}' x='{x}' y='{y}' width='{CHIP_W}' "
            f"height='{CHIP_H}' rx='4'/>" + _text(x + 6, y + 14, _clip(short, 16), "dt root-t" if root else "dt")
            + (_text(x + 6, y + 28, state, "ds root-t" if root else "ds") if state else "")
            + f"<title>{esc(name)}</title></g>")


def _chain_steps(chain: List[str], drawn: set, elided: int) -> List[Tuple[str, str]]:
    """The chain's consecutive pairs; with the middle elided, the last drawn device before the gap points at the
    elision box and the box at the first drawn device after it."""
    pairs = list(zip(chain, chain[1:]))
    if not elided:
        return [(a, b) for a, b in pairs if a != b]
    out: List[Tuple[str, str]] = []
    for a, b in pairs:
        a2 = a if a in drawn else ELIDED
        b2 = b if b in drawn else ELIDED
        if a2 != b2 and (a2, b2) not in out:
            out.append((a2, b2))
    return out


def _edge(a: Tuple[float, float], b: Tuple[float, float], n: int, same_box: bool) -> str:
    """An arrow from chip `a` to chip `b` (their top-left corners) labelled with its step `n`. On one line of
    one box it arcs above the chips, higher for a longer jump; between two boxes of one row it dips under them;
    between rows it leaves the bottom (or top) of `a` for the top (or bottom) of `b`. It leaves left of a chip's
    centre and arrives right of it, so the arrows in and out of one device never share a point."""
    (ax, ay), (bx, by) = a, b
    sx, ex = ax + CHIP_W * 0.38, bx + CHIP_W * 0.62
    if abs(ay - by) < 1 and same_box:
        lift = min(ARC_H - 4, 14 + 0.07 * abs(ex - sx))
        sy = ey = ay
        c1, c2 = (sx, sy - lift * 1.33), (ex, ey - lift * 1.33)
    elif abs(ay - by) < 1:
        sy = ey = ay + CHIP_H
        c1, c2 = (sx, sy + ROW_GAP), (ex, ey + ROW_GAP)
    elif by > ay:
        sy, ey = ay + CHIP_H, by
        mid = (sy + ey) / 2
        c1, c2 = (sx, mid), (ex, mid)
    else:
        sy, ey = ay, by + CHIP_H
        mid = (sy + ey) / 2
        c1, c2 = (sx, mid), (ex, mid)
    # the step's number sits on the curve: at its middle, or near the target for a jump to another row (whose
    # middle would fall among the numbers of the row's own steps)
    t = 0.5 if abs(ay - by) < 1 else 0.8
    mx = (1 - t) ** 3 * sx + 3 * (1 - t) ** 2 * t * c1[0] + 3 * (1 - t) * t ** 2 * c2[0] + t ** 3 * ex
    my = (1 - t) ** 3 * sy + 3 * (1 - t) ** 2 * t * c1[1] + 3 * (1 - t) * t ** 2 * c2[1] + t ** 3 * ey
    return (f"<g class='edge'><path class='e' d='M{sx:.0f},{sy:.0f} C{c1[0]:.0f},{c1[1]:.0f} {c2[0]:.0f},{c2[1]:.0f} "
            f"{ex:.0f},{ey:.0f}' marker-end='url(#wg-arrow)'/><circle class='en' cx='{mx:.0f}' cy='{my:.0f}' r='8'/>"
            + _text(mx, my + 4, str(n), "ent", "middle") + "</g>")


# ---------------------------------------------------------------------------------------------------------------
# The timeline
# ---------------------------------------------------------------------------------------------------------------

TL_W, TL_LABEL, TL_RIGHT, TL_ROW, TL_TOP = 1200, 300, 24, 20, 44

TIMELINE_STYLE = ("<style>.ax{stroke:#888}.tk{stroke:#ddd}.tl{font-size:11px;fill:#444}.rl{font-size:12px}"
                  ".rl.root{font-weight:700}.sp{stroke:#b02a37;stroke-width:2}.f{fill:#b02a37}.l{fill:#fff;stroke:#b02a37;"
                  "stroke-width:1.5}.rm{stroke:#842029;stroke-width:1.5;stroke-dasharray:5 4}.rmt{font-size:11px;"
                  "fill:#842029;font-weight:700}.ml{fill:url(#tl-hatch);stroke:#999}.mt{font-size:11px;fill:#444}"
                  ".h{fill:#6c757d}.zebra{fill:#f6f6f6}</style>")


def timeline_svg(rows: List[dict], root_time: Optional[str], root_label: str, histogram: Sequence[float] = ()) -> str:
    """One row per device: {"name", "first", "last" (log times or None), "root": bool, "missing": str or None
    (the words a row without a log shows)}; the root's first error as a dashed line; `histogram`: every device's
    first error (seconds), drawn as one row of counts when there are more devices than rows."""
    times = [t for r in rows for t in (parse_time(r.get("first")), parse_time(r.get("last"))) if t is not None]
    times += list(histogram)
    rt = parse_time(root_time)
    if rt is not None:
        times.append(rt)
    if not times:
        return ""
    t0, t1 = min(times), max(times)
    if t1 - t0 < 1e-3:
        t0, t1 = t0 - 0.5, t1 + 0.5
    pad = (t1 - t0) * 0.03
    t0, t1 = t0 - pad, t1 + pad
    x0, x1 = TL_LABEL, TL_W - TL_RIGHT

    def X(t: float) -> float:
        return x0 + (t - t0) / (t1 - t0) * (x1 - x0)

    hist_h = 2 * TL_ROW if histogram else 0
    height = TL_TOP + hist_h + len(rows) * TL_ROW + 34
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' id='timeline' viewBox='0 0 {TL_W} {height}' width='{TL_W}' "
           f"role='img' aria-labelledby='tl-title'><title id='tl-title'>{esc(_('First and last error of each device'))}"
           f"</title>{TIMELINE_STYLE}<defs><pattern id='tl-hatch' width='6' height='6' patternUnits='userSpaceOnUse' "
           "patternTransform='rotate(45)'><rect width='6' height='6' fill='#fff'/><line x1='0' y1='0' x2='0' y2='6' "
           "stroke='#bbb' stroke-width='2'/></pattern></defs>"]
    bottom = height - 30
    # the axis: ticks with the time of day (the date is said once, in the caption)
    span = t1 - t0
    fmt = "%H:%M:%S.%f" if span < 20 else "%H:%M:%S"
    for k in range(7):
        t = t0 + span * k / 6
        x = X(t)
        label = (EPOCH + timedelta(seconds=t)).strftime(fmt)
        label = label[:-3] if fmt.endswith("%f") else label
        anchor = "start" if k == 0 else ("end" if k == 6 else "middle")
        out.append(f"<line class='tk' x1='{x:.0f}' y1='{TL_TOP - 6}' x2='{x:.0f}' y2='{bottom}'/>"
                   + _text(x, bottom + 16, label, "tl", anchor))
    out.append(f"<line class='ax' x1='{x0}' y1='{bottom}' x2='{x1}' y2='{bottom}'/>")
    y = TL_TOP
    if histogram:
        bins = [0] * HISTOGRAM_BINS
        for t in histogram:
            bins[min(HISTOGRAM_BINS - 1, int((t - t0) / span * HISTOGRAM_BINS))] += 1
        top = max(bins)
        out.append(_text(8, y + hist_h - 8, _("all {count} devices: first errors").format(count=len(histogram)),
                         "rl"))
        bw = (x1 - x0) / HISTOGRAM_BINS
        for i, c in enumerate(bins):
            if c:
                bh = max(1.0, (hist_h - 4) * c / top)
                out.append(f"<rect class='h' x='{x0 + i * bw:.1f}' y='{y + hist_h - bh:.1f}' width='{max(1.0, bw - 1):.1f}' "
                           f"height='{bh:.1f}'><title>{esc(str(c))}</title></rect>")
        y += hist_h
    for i, r in enumerate(rows):
        cy = y + i * TL_ROW + TL_ROW / 2
        if i % 2:
            out.append(f"<rect class='zebra' x='0' y='{cy - TL_ROW / 2:.0f}' width='{TL_W}' height='{TL_ROW}'/>")
        name = r["name"]
        label = ("★ " + name) if r.get("root") else name
        out.append(f"<g class='row' data-device='{esc(name)}'>" + _text(8, cy + 4, _clip(label, 44),
                                                                      "rl root" if r.get("root") else "rl"))
        f, l = parse_time(r.get("first")), parse_time(r.get("last"))
        if r.get("missing") or f is None:
            out.append(f"<rect class='ml' x='{x0}' y='{cy - 6:.0f}' width='{x1 - x0}' height='12'/>"
                       + _text(x0 + 8, cy + 4, r.get("missing") or _("no time in its log"), "mt"))
        else:
            if l is not None and l - f > 0:
                out.append(f"<line class='sp' x1='{X(f):.1f}' y1='{cy:.0f}' x2='{X(l):.1f}' y2='{cy:.0f}'/>"
                           f"<rect class='l' x='{X(l) - 4:.1f}' y='{cy - 4:.0f}' width='8' height='8'>"
                           f"<title>{esc(r.get('last'))}</title></rect>")
            out.append(f"<circle class='f' cx='{X(f):.1f}' cy='{cy:.0f}' r='5'><title>{esc(r.get('first'))}</title>"
                       "</circle>")
        out.append(f"<title>{esc(name)}</title></g>")
    if rt is not None:
        x = X(rt)
        out.append(f"<line class='rm' x1='{x:.1f}' y1='{TL_TOP - 14}' x2='{x:.1f}' y2='{bottom}'/>")
        anchor = "end" if x > (x0 + x1) / 2 else "start"
        out.append(_text(x + (-4 if anchor == "end" else 4), TL_TOP - 18, root_label, "rmt", anchor))
    out.append("</svg>")
    return "".join(out)


def time_range_words(rows: List[dict]) -> Optional[Tuple[str, str]]:
    """The earliest and latest log time of the rows, as the logs wrote them."""
    found = [(parse_time(t), t) for r in rows for t in (r.get("first"), r.get("last")) if parse_time(t) is not None]
    if not found:
        return None
    return min(found)[1], max(found)[1]
