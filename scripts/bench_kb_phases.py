#!/usr/bin/env python3
"""Where one `triage` of a big log spends its time, phase by phase (docs/performance.md, issue 13).

    python scripts/bench_kb_phases.py LOG [--runs N]

Runs the same calls `ascend-doctor triage LOG --format json` makes, in this interpreter (point it at an
installed wheel's python to time what users run), and prints milliseconds per phase for each run: imports,
loading the knowledge base, building the matcher (from its cache), the scan (parallel for a big file), the
result and the JSON. The interpreter's own start is not included: time `python -c pass` for it.
"""

import argparse
import sys
import time


def one_run(log: str) -> dict:
    t0 = time.perf_counter()
    from ascend_doctor.commands import common
    from ascend_doctor.render.triage_report import render_triage
    from ascend_doctor.triage.scan import Triage
    t1 = time.perf_counter()
    kb = common.load_kb([])
    t2 = time.perf_counter()
    triage = Triage(kb)
    t3 = time.perf_counter()
    triage.add_path(log)
    t4 = time.perf_counter()
    result = triage.result()
    t5 = time.perf_counter()
    render_triage(result, "json")
    t6 = time.perf_counter()
    marks = (t0, t1, t2, t3, t4, t5, t6)
    names = ("imports", "knowledge base", "matcher", "scan", "result", "json")
    return {n: 1000 * (b - a) for n, a, b in zip(names, marks, marks[1:])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--runs", type=int, default=1, help="runs, each in a fresh interpreter (default 1)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        phases = one_run(args.log)
        print("  ".join(f"{k} {v:.1f}" for k, v in phases.items()) + f"  total {sum(phases.values()):.1f} ms")
        return 0
    import subprocess

    for _ in range(args.runs):
        subprocess.run([sys.executable, __file__, args.log, "--child"], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
