#!/usr/bin/env python3
"""How many test asserts still compare English prose with what the doctor says (tests/helpers/prose_asserts.py
says what counts): the total, per file, and with -v each assert. Issue 23 item 1; tests/test_prose_asserts.py keeps
the figure from growing back."""

import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from tests.helpers.prose_asserts import count  # noqa: E402


def main(argv):
    found = count(REPO)
    for path, hits in sorted(found.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"{len(hits):4d}  {path}")
        if "-v" in argv:
            for line, literal in hits:
                print(f"        {line}: {literal[:80]!r}")
    print(f"{sum(len(h) for h in found.values())} asserts in {len(found)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
