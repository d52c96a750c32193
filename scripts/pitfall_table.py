#!/usr/bin/env python3
"""Print the pitfall coverage table from the code (or --write it into docs/pitfalls.md, between its markers)."""

import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from tools.pitfall_coverage import coverage_markdown  # noqa: E402

BEGIN, END = "<!-- pitfall-table:begin -->", "<!-- pitfall-table:end -->"

if __name__ == "__main__":
    table = coverage_markdown()
    if "--write" in sys.argv:
        path = os.path.join(REPO, "docs", "pitfalls.md")
        text = open(path, encoding="utf-8").read()
        if BEGIN not in text or END not in text:
            sys.exit(f"{path}: no {BEGIN} ... {END} markers to write the table between")
        new = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), BEGIN + "\n" + table + END, text, flags=re.S)
        open(path, "w", encoding="utf-8").write(new)
    else:
        sys.stdout.write(table)
