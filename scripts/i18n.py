#!/usr/bin/env python3
"""Translation work: what the code marks for translation and what a catalog still lacks.

  python scripts/i18n.py missing [PATH ...]   .po entries (empty msgstr) for the marked messages of PATH
                                              (files or directories; default: the package) that no
                                              zh_CN catalog translates yet: paste into your area's .po
  python scripts/i18n.py stats                how many messages each file marks, how many are translated
  python scripts/i18n.py compile [OUT]        compile the catalogs into OUT (default: in place, for a try)
  python scripts/i18n.py style                the Chinese texts (catalogs, the knowledge base's *_zh fields,
                                              README.zh-CN.md) in the house style, edited in place
                                              (ascend_doctor/zh_style.py: vendor words, punctuation)

Message ids are the English texts in the code (ascend_doctor/i18n.py says how to mark them).
"""

import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from ascend_doctor import catalog, zh_style  # noqa: E402
from tools import catalogs  # noqa: E402

PKG = os.path.join(REPO, "ascend_doctor")
ZH = os.path.join(PKG, "locale", "zh_CN")


def _selected(paths):
    found = catalogs.package_messages(PKG)
    if not paths:
        return found
    wanted = [os.path.relpath(os.path.abspath(p), REPO) for p in paths]
    return {rel: msgs for rel, msgs in found.items() if any(rel == w or rel.startswith(w.rstrip("/") + "/") for w in wanted)}


def main(argv):
    cmd = argv[0] if argv else "stats"
    table = catalog.merged(catalog.read_entries(ZH)) if os.path.isdir(ZH) else {}
    if cmd == "missing":
        seen = set()
        for rel, msgs in _selected(argv[1:]).items():
            for m in msgs:
                if m.msgid not in table and m.msgid not in seen:
                    seen.add(m.msgid)
                    print(catalogs.po_entry(m))
        print(f"# {len(seen)} message(s) to translate", file=sys.stderr)
    elif cmd == "stats":
        for rel, msgs in _selected(argv[1:]).items():
            ids = {m.msgid for m in msgs}
            print(f"{rel}: {len(ids)} messages, {len(ids & set(table))} translated")
    elif cmd == "compile":
        for path in catalogs.compile_locale_dir(os.path.join(PKG, "locale"), argv[1] if len(argv) > 1 else None):
            print(path)
    elif cmd == "style":
        kb = os.path.join(REPO, "data")
        for path in catalog.po_files(ZH):
            print(f"{os.path.relpath(path, REPO)}: {zh_style.style_po(path)} changed")
        for path in [os.path.join(kb, "knowledge_base.json")] + sorted(
                os.path.join(kb, "kb", f) for f in os.listdir(os.path.join(kb, "kb")) if f.endswith(".json")):
            print(f"{os.path.relpath(path, REPO)}: {zh_style.style_json(path)} changed")
        readme = os.path.join(REPO, "README.zh-CN.md")
        with open(readme, encoding="utf-8") as fh:
            text = fh.read()
        with open(readme, "w", encoding="utf-8") as fh:
            fh.write(zh_style.normalize(text))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
