"""Build-time work on the message catalogs: compile the .po sources to gettext's .mo (setup.py runs it when the
wheel is built), and list the messages the code marks as .po entries (scripts/i18n.py).

The sources are read by the runtime reader (ascend_doctor/catalog.py), so the wheel and a source checkout
read one format one way. setup.py loads this file by path: the ascend_doctor package (and its dependencies)
need not be importable there, so the reader is loaded by path too when it has not been imported.
The .mo layout is that of CPython's Tools/i18n/msgfmt.py (not installed with Python, and Babel is not a
dependency of the build: a wheel builds with setuptools alone, without a network).
"""

from __future__ import annotations

import importlib.util
import os
import struct
import sys
from typing import Dict, List, Optional, Tuple

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _reader():
    """ascend_doctor.catalog: the imported one, else loaded from this checkout by path."""
    module = sys.modules.get("ascend_doctor.catalog")
    if module is None:
        spec = importlib.util.spec_from_file_location("_ascend_doctor_catalog",
                                                      os.path.join(REPO, "ascend_doctor", "catalog.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return module


HEADER = ("Project-Id-Version: ascend-doctor\nLanguage: {locale}\nMIME-Version: 1.0\n"
          "Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n"
          "Plural-Forms: nplurals=1; plural=0;\n")


def mo_bytes(table: Dict[str, Tuple[Optional[str], Tuple[str, ...]]], locale: str) -> bytes:
    """The GNU .mo file of `table` (the layout of CPython's Tools/i18n/msgfmt.py, which gettext reads)."""
    items = {"": HEADER.format(locale=locale)}
    for msgid, (plural, strs) in table.items():
        key = msgid if plural is None else msgid + "\0" + plural
        items[key] = "\0".join(strs)
    keys = sorted(items)
    ids = strs = b""
    offsets = []
    for k in keys:
        kb, vb = k.encode("utf-8"), items[k].encode("utf-8")
        offsets.append((len(ids), len(kb), len(strs), len(vb)))
        ids += kb + b"\0"
        strs += vb + b"\0"
    keystart = 7 * 4 + 16 * len(keys)
    valuestart = keystart + len(ids)
    koffsets: List[int] = []
    voffsets: List[int] = []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + keystart]
        voffsets += [l2, o2 + valuestart]
    out = struct.pack("Iiiiiii", 0x950412de, 0, len(keys), 7 * 4, 7 * 4 + len(keys) * 8, 0, 0)
    out += struct.pack(f"{len(koffsets)}i", *koffsets) if koffsets else b""
    out += struct.pack(f"{len(voffsets)}i", *voffsets) if voffsets else b""
    return out + ids + strs


def compile_locale_dir(locale_root: str, out_root: Optional[str] = None) -> List[str]:
    """Compile every locale/<locale>/*.po under `locale_root` into <out_root>/<locale>/LC_MESSAGES/ascend_doctor.mo
    (out_root defaults to locale_root); returns the files written."""
    catalog = _reader()
    written = []
    for locale in sorted(os.listdir(locale_root)):
        src = os.path.join(locale_root, locale)
        if not os.path.isdir(src) or not catalog.po_files(src):
            continue
        data = mo_bytes(catalog.merged(catalog.read_entries(src)), locale)
        dest_dir = os.path.join(out_root or locale_root, locale, "LC_MESSAGES")
        os.makedirs(dest_dir, exist_ok=True)
        dest = os.path.join(dest_dir, "ascend_doctor.mo")
        with open(dest, "wb") as fh:
            fh.write(data)
        written.append(dest)
    return written


# ---- the messages the code marks, as .po entries (scripts/i18n.py missing) ----

def package_messages(package_dir: str) -> Dict[str, list]:
    """Relative path -> the messages of every .py file under the package that marks any."""
    found: Dict[str, list] = {}
    root = os.path.dirname(os.path.abspath(package_dir))
    for d, dirs, files in os.walk(package_dir):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(d, f)
                rel = os.path.relpath(path, root)
                msgs = _reader().extract_messages(path, rel)
                if msgs:
                    found[rel] = msgs
    return found


def po_escape(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def po_entry(msg, translation: str = "") -> str:
    lines = [f"#: {msg.where}", f"msgid {po_escape(msg.msgid)}"]
    if msg.plural:
        lines += [f"msgid_plural {po_escape(msg.plural)}", f"msgstr[0] {po_escape(translation)}"]
    else:
        lines.append(f"msgstr {po_escape(translation)}")
    return "\n".join(lines) + "\n"
