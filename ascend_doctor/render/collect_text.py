"""`collect --show` / `--show-all` as text: what the bundle would hold, per kind, before anything is written."""

from __future__ import annotations

from typing import List

from ..i18n import N_, _, lookup
from .layout import wrap

# `--show` lists these kinds one by one (each entry is content that leaves the machine, and they are few);
# the others (empty placeholders, links, directories) are counted per top directory.
LISTED_KINDS = ("file", "unreadable", "command", "log", "report")
LISTED_MAX = 25
# Details of a --show row that are fixed words (Collection.listing marks the others): shown through lookup.
DETAIL_WORDS = (N_("kept"),)
KIND_WORDS = {"file": N_("{count} files read:"),
              "unreadable": N_("{count} unreadable files (recorded as permission denied):"),
              "command": N_("{count} command outputs:"), "log": N_("{count} logs:"), "report": N_("{count} report:"),
              "exists": N_("{count} empty entries (exist, content not read: device nodes, directory entries, tools):"),
              "link": N_("{count} symbolic links:"), "env": N_("{count} environment variables:")}


def _top(path: str) -> str:
    parts = [p for p in path.split("/") if p]
    return "/" + parts[0] if parts else path


def show_summary(rows, width: int):
    """`collect --show`: per kind, the count; the entries that are content, listed; the rest counted per top
    directory ("1,112 empty entries under /dev"); environment names split into kept and redacted."""
    by_kind = {}
    for kind, what, detail in rows:
        by_kind.setdefault(kind, []).append((what, detail))
    out = [_("What the bundle would hold:")]
    for kind, items in by_kind.items():
        out.append("")
        count = f"{len(items):,}"
        out.append(_(KIND_WORDS[kind]).format(count=count) if kind in KIND_WORDS else f"{count} {kind}:")
        if kind in LISTED_KINDS:
            for what, detail in items[:LISTED_MAX]:
                out.extend(wrap(f"{what}  ({lookup(detail)})", width, "  ", "      "))
            if len(items) > LISTED_MAX:
                out.append(_("  ... {count} more (--show-all lists every entry)").format(
                    count=f"{len(items) - LISTED_MAX:,}"))
        elif kind == "env":
            kept = [w for w, d in items if d == "kept"]
            hidden = [w for w, d in items if d != "kept"]
            out.extend(wrap(_("{count} kept: {names}").format(count=f"{len(kept):,}",
                                                              names=", ".join(kept) or _("none")), width, "  ", "    "))
            out.extend(wrap(_("{count} with the value redacted: {names}").format(
                count=f"{len(hidden):,}", names=", ".join(hidden) or _("none")), width, "  ", "    "))
        else:
            counts = {}
            for what, _detail in items:
                counts[_top(what)] = counts.get(_top(what), 0) + 1
            groups = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
            from .common import joined

            out.extend(wrap(joined(_("{count} under {top}").format(count=f"{n:,}", top=top) for top, n in groups),
                            width, "  ", "  "))
    return out


def show_text(rows, notes: List[str], redactions: int, show_all: bool, width: int) -> List[str]:
    """The lines `collect --show` (the summary) or `--show-all` (every entry) prints."""
    if show_all:
        kind_width = max(len(k) for k, _, _ in rows)
        lines = [f"{kind:<{kind_width}}  {what}  ({lookup(detail)})" for kind, what, detail in rows]
    else:
        lines = show_summary(rows, width)
    lines += [_("note: {note}").format(note=note) for note in notes]
    flag = "--show-all" if show_all else "--show"
    lines += ["", _("{entries} entries, {redacted} value(s) redacted; nothing written ({flag}).").format(
        entries=f"{len(rows):,}", redacted=f"{redactions:,}", flag=flag)]
    return lines
