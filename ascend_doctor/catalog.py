"""Message catalogs at run time: read gettext .po sources, and the messages a source file marks.

The sources are ascend_doctor/locale/<locale>/*.po, one file per area; they are one gettext domain
(`ascend_doctor`). The same message id in two files must have the same translation (else CatalogError
names both places). Compiling them to .mo is build-time work (tools/catalogs.py, run by setup.py).

Used by i18n in a source checkout (no .mo there), by phrases (the N_() messages of a few modules, read from
their source to word a report/1 file again) and by the build tools and tests.
The .po reader follows GNU gettext's format: `msgid`, `msgid_plural`, `msgstr`, `msgstr[N]`, strings
continued on following lines, `#` comments, and the `fuzzy` flag (a fuzzy entry is not a translation).
"""

from __future__ import annotations

import ast
import os
from typing import Dict, Iterable, List, NamedTuple, Optional, Tuple


class CatalogError(ValueError):
    """A .po file that cannot be read, or two files translating one message differently."""


class Entry(NamedTuple):
    msgid: str
    plural: Optional[str]
    strs: Tuple[str, ...]  # msgstr, or msgstr[0..n]
    where: str  # file:line of the msgid
    fuzzy: bool
    references: Tuple[str, ...]  # "#:" lines


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if not (len(text) >= 2 and text[0] == '"' and text[-1] == '"'):
        raise CatalogError(f"{where}: expected a quoted string, got {text[:40]!r}")
    inner = text[1:-1]
    if "\\" not in inner and '"' not in inner:  # nothing escaped (most lines): the literal is its inside
        return inner
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError) as exc:
        raise CatalogError(f"{where}: bad string {text[:40]!r} ({exc})") from None


def parse_po(text: str, name: str = "<po>") -> List[Entry]:
    """The entries of one .po file, the header (msgid "") included."""
    entries: List[Entry] = []
    cur: Dict[str, object] = {}
    key: Optional[str] = None
    flags: List[str] = []
    refs: List[str] = []

    def flush():
        nonlocal cur, key, flags, refs
        if "msgid" in cur:
            strs = cur.get("msgstr")
            if strs is None:
                raise CatalogError(f"{cur['where']}: msgid without msgstr")
            entries.append(Entry(cur["msgid"], cur.get("msgid_plural"), tuple(strs), cur["where"],
                                 "fuzzy" in flags, tuple(refs)))
        cur, key, flags, refs = {}, None, [], []

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{name}:{n}"
        if not line:
            flush()
            continue
        if line.startswith("#"):
            if "msgid" in cur and key is not None and cur.get("msgstr") is not None:
                flush()
            if line.startswith("#,"):
                flags.extend(f.strip() for f in line[2:].split(","))
            elif line.startswith("#:"):
                refs.extend(line[2:].split())
            continue
        if line.startswith('"'):
            if key is None:
                raise CatalogError(f"{where}: a continued string with nothing before it")
            value = _unquote(line, where)
            if key == "msgstr":
                strs = cur["msgstr"]
                strs[-1] += value
            elif key.startswith("msgstr["):
                cur["msgstr"][-1] += value
            else:
                cur[key] += value
            continue
        word, _, rest = line.partition(" ")
        if word == "msgid":
            if "msgid" in cur:
                flush()
            cur["msgid"], cur["where"], key = _unquote(rest, where), where, "msgid"
        elif word == "msgid_plural":
            cur["msgid_plural"], key = _unquote(rest, where), "msgid_plural"
        elif word == "msgstr":
            cur["msgstr"], key = [_unquote(rest, where)], "msgstr"
        elif word.startswith("msgstr[") and word.endswith("]"):
            cur.setdefault("msgstr", []).append(_unquote(rest, where))
            key = word
        elif word == "msgctxt":
            raise CatalogError(f"{where}: msgctxt is not used by this project")
        else:
            raise CatalogError(f"{where}: expected msgid, msgid_plural, msgstr or a comment, got {word!r}")
    flush()
    return entries


def po_files(directory: str) -> List[str]:
    return sorted(os.path.join(directory, f) for f in os.listdir(directory) if f.endswith(".po"))


def read_entries(directory: str) -> List[Entry]:
    out: List[Entry] = []
    for path in po_files(directory):
        with open(path, encoding="utf-8") as fh:
            out.extend(parse_po(fh.read(), os.path.relpath(path, os.path.dirname(directory))))
    return out


def merged(entries: Iterable[Entry]) -> Dict[str, Tuple[Optional[str], Tuple[str, ...]]]:
    """msgid -> (plural, translations): translated, non-fuzzy entries only; one id translated two ways is an error."""
    table: Dict[str, Tuple[Optional[str], Tuple[str, ...], str]] = {}
    for e in entries:
        if not e.msgid or e.fuzzy or not any(e.strs):
            continue
        seen = table.get(e.msgid)
        if seen is not None and (seen[0], seen[1]) != (e.plural, e.strs):
            raise CatalogError(f"{e.where}: {e.msgid[:60]!r} is translated differently in {seen[2]}")
        table[e.msgid] = (e.plural, e.strs, e.where)
    return {k: (v[0], v[1]) for k, v in table.items()}


class PoCatalog:
    """What gettext.GNUTranslations answers, from .po sources."""

    def __init__(self, table: Dict[str, Tuple[Optional[str], Tuple[str, ...]]]):
        self._table = table

    def gettext(self, msgid: str) -> str:
        hit = self._table.get(msgid)
        return hit[1][0] if hit else msgid

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        hit = self._table.get(singular)
        if not hit:
            return singular if n == 1 else plural
        return hit[1][0]  # zh_CN: nplurals=1

    def __contains__(self, msgid: str) -> bool:
        return msgid in self._table

    def __len__(self) -> int:
        return len(self._table)


def read_po_dir(directory: str) -> PoCatalog:
    return PoCatalog(merged(read_entries(directory)))


# ---- the messages the code marks (what the catalogs must translate) ----

MARKERS = {"_": 1, "N_": 1, "ngettext": 2}  # function -> how many leading literal arguments are message ids
CHECK_TITLE_KEYWORDS = ("fail", "warn", "error", "skip")


class Message(NamedTuple):
    msgid: str
    plural: Optional[str]
    where: str  # path:line


def extract_messages(path: str, rel: Optional[str] = None, markers: Optional[Dict[str, int]] = None) -> List[Message]:
    """The messages one Python file marks: literal first arguments of _(), N_(), ngettext() (or only of the
    `markers` given), and the title and outcome lines of @check(id, title, fail=, warn=, error=, skip=)."""
    markers = MARKERS if markers is None else markers
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), path)
    rel = rel or path
    out: List[Message] = []

    def literal(node) -> Optional[str]:
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else \
            node.func.attr if isinstance(node.func, ast.Attribute) else None
        where = f"{rel}:{node.lineno}"
        if name in markers and node.args:
            first = literal(node.args[0])
            if first:
                plural = literal(node.args[1]) if markers[name] == 2 and len(node.args) > 1 else None
                out.append(Message(first, plural, where))
        elif name == "check" and len(node.args) >= 2 and literal(node.args[0]) and "." in literal(node.args[0]):
            title = literal(node.args[1])
            if title:
                out.append(Message(title, None, where))
            for kw in node.keywords:
                if kw.arg in CHECK_TITLE_KEYWORDS and literal(kw.value):
                    out.append(Message(literal(kw.value), None, where))
    return out
