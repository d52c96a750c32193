#!/usr/bin/env python3
"""Measure how the knowledge base reads CANN's error-code catalogue: every coded message template, as a printed line.

    python scripts/measure_catalogue.py                      # data/cann_error_codes.json, all forms
    python scripts/measure_catalogue.py --table SAMPLE.json --json
    python scripts/measure_catalogue.py --misses bare        # list the templates the bare form misses

Each catalogued error code (E..., not the W... warnings, not the ...9999/...8888 inner errors) has a message template
(`ErrMessage`, its %s the values; scripts/build_cann_error_codes.py copies the vendors' catalogues into the table).
Each template is filled with plausible values chosen by its argument's name (a path for `file`, a sentence for
`reason`, an operator for `op_name`, ...) and printed in four forms:

- `coded`: the error printer's `<code>: [PID: N] <time> <message>`;
- `plog`: an ERROR line of a plog that carries the code, `[ERROR] GE(N,python):<time> [f.cc:N]N <code>: <message>`;
- `marked`: the message without its code on an error-marked line (`RuntimeError: <message>`);
- `bare`: the message alone (a quoted sentence: a warning at most, `fail_needs_mark`).

All lines go through `ascend-doctor kb match --format json` in one run. A line is `named` when a match says the code
(its cause names it, alone or among the codes that share the sentence: "E10001/EK0001"), `alone` when the code is the
only one named, `other` when only entries that do not say the code match it, `none` when nothing matches.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from typing import Dict, List, Optional

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(REPO, "data", "cann_error_codes.json")
FORMS = ("coded", "plog", "marked", "bare")
TIME = "2025-10-21-03:40:09.141.920"

# plausible values by the argument's name: the first rule whose pattern is in the name (lower case) gives the value
VALUES = (
    (r"ip", "192.168.1.10"), (r"path|file|dir", "/home/user/work/model/resnet50.json"),
    (r"reason|errmsg|cause|detail|message|tips|suggest|desc|extend_info|error|traceback|info|rule|result|situation|"
     r"condition|sence|scene", "The value must be greater than 0"),
    (r"version", "8.0.RC2"), (r"shape|dims?$|_dim", "[1,3,224,224]"), (r"dtype|data_type", "DT_FLOAT16"),
    (r"format", "NCHW"), (r"op_?type|optype|layertype|node_type", "Conv2D"),
    (r"op_?name|opname|node|kernel|layer|blob|pass", "conv1_Conv2D"),
    (r"func|api|interface|intf|alloc", "aclrtMalloc"), (r"env", "HCCL_EXEC_TIMEOUT"),
    (r"rank|device|server|id$|index|idx|num|size|count|length|value|dilation|pad|stride|of_|h$|w$|threshhold", "-1"),
    (r"", "input_shape"),
)


def value_for(arg: str) -> str:
    name = arg.lower()
    return next(v for pat, v in VALUES if re.search(pat, name))


def sentence(known: dict) -> str:
    """The code's template with its %s filled by value_for(its argument), one line."""
    args = list(known.get("args", []))
    text = known["message"]
    for i in range(text.count("%s")):
        text = text.replace("%s", value_for(args[i]) if i < len(args) else "input_shape", 1)
    return " ".join(text.split())


def line_for(form: str, code: str, msg: str) -> str:
    if form == "coded":
        return f"{code}: [PID: 1234] {TIME} {msg}"
    if form == "plog":
        return f"[ERROR] GE(1234,python):{TIME} [error_manager.cc:210]1234 {code}: {msg}"
    if form == "marked":
        return f"RuntimeError: {msg}"
    return msg


def read_codes(table: dict) -> List[str]:
    """The codes CANN_CATALOGUED_ERROR_CODE reads (scripts/build_cann_error_codes.py rule_codes)."""
    return sorted(c for c in table["codes"] if c.startswith("E") and c[2:] not in ("9999", "8888"))


def kb_match(lines: List[str]) -> List[list]:
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False, encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
        path = fh.name
    try:
        out = subprocess.run([sys.executable, "-m", "ascend_doctor", "kb", "match", "--format", "json",
                              "--lang", "en", path], capture_output=True, text=True, cwd=REPO,
                             env=dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", "")))
    finally:
        os.unlink(path)
    if out.returncode not in (0, 1):
        sys.exit(f"kb match failed ({out.returncode}): {out.stderr.strip()}")
    return [row["matches"] for row in json.loads(out.stdout)["lines"]]


def verdict(code: str, matches: list) -> str:
    """`alone`: a match says the code alone (its cause, or the id of an entry of the code's own); `named`: among the
    codes that share the sentence; `other`: only matches that do not say it; `none`: no match."""
    said = [m for m in matches if re.search(r"(?<![A-Z0-9])" + code + r"(?![0-9])", m["cause"] + " " + m["id"])]
    if not said:
        return "other" if matches else "none"
    alone = any(re.search(r"(?<![A-Z0-9/])" + code + r"(?![0-9/])", m["cause"] + " " + m["id"]) for m in said)
    return "alone" if alone else "named"


def measure(table: dict, forms=FORMS) -> dict:
    codes = read_codes(table)
    cases = [(code, form, line_for(form, code, sentence(table["codes"][code]))) for code in codes for form in forms]
    results = kb_match([c[2] for c in cases])
    per: Dict[str, Counter] = {f: Counter() for f in forms}
    rows = []
    for (code, form, line), matches in zip(cases, results):
        got = verdict(code, matches)
        per[form][got] += 1
        rows.append({"code": code, "form": form, "line": line, "verdict": got,
                     "ids": [m["id"] for m in matches], "severity": [m["severity"] for m in matches]})
    summary = {f: {"templates": len(codes), "named": per[f]["alone"] + per[f]["named"], "alone": per[f]["alone"],
                   "other": per[f]["other"], "none": per[f]["none"]} for f in forms}
    return {"codes": len(codes), "forms": summary, "rows": rows}


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--table", default=TABLE, help="a table in data/cann_error_codes.json's format")
    ap.add_argument("--json", action="store_true", help="the figures and every line's verdict as JSON")
    ap.add_argument("--misses", choices=FORMS, help="list the lines of this form that do not name their code")
    args = ap.parse_args(argv)
    with open(args.table, encoding="utf-8") as fh:
        table = json.load(fh)
    got = measure(table)
    if args.json:
        print(json.dumps(got, indent=1, ensure_ascii=False))
        return 0
    print(f"{got['codes']} catalogued error codes (templates)")
    for form, s in got["forms"].items():
        print(f"  {form:7s} named {s['named']:4d} ({100.0 * s['named'] / max(s['templates'], 1):5.1f}%), the code "
              f"alone {s['alone']:4d}; another entry only {s['other']:4d}; nothing {s['none']:4d}")
    if args.misses:
        for r in got["rows"]:
            if r["form"] == args.misses and r["verdict"] in ("other", "none"):
                print(f"{r['code']} {r['verdict']:5s} {','.join(r['ids']) or '-'}: {r['line']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
