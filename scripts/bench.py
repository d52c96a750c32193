#!/usr/bin/env python3
"""Time `ascend-doctor check --format json` (no smoke) against `mindspore.run_check()`, in one run.

Prints the median wall time of each over N runs and their ratio. The doctor is
run as a user would run it: a fresh process each time.

    python scripts/bench.py [--runs 15] [--baseline-runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _time(argv, runs, env):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        times.append(time.perf_counter() - t0)
        if proc.returncode not in (0, 1):
            sys.exit(f"{' '.join(argv)} failed with {proc.returncode}: {proc.stderr.decode()[-400:]}")
    return times, proc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--baseline-runs", type=int, default=5)
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=REPO)

    doctor_argv = [sys.executable, "-m", "ascend_doctor", "check", "--format", "json"]
    _time(doctor_argv, 1, env)  # warm the page cache
    doctor, proc = _time(doctor_argv, args.runs, env)
    json.loads(proc.stdout)  # the output is a valid report

    rc_argv = [sys.executable, "-c", "import mindspore; mindspore.run_check()"]
    probe = subprocess.run([sys.executable, "-c", "import mindspore"], capture_output=True)
    rows = [("ascend-doctor check --format json", statistics.median(doctor), args.runs)]
    if probe.returncode == 0:
        run_check, _ = _time(rc_argv, args.baseline_runs, env)
        rows.append(("mindspore.run_check()", statistics.median(run_check), args.baseline_runs))
    for name, med, n in rows:
        print(f"{name:<36} median {med * 1000:8.1f} ms  (n={n})")
    if len(rows) == 2:
        print(f"ratio: run_check / doctor = {rows[1][1] / rows[0][1]:.1f}x (target >= 15x); "
              f"doctor median {'meets' if rows[0][1] <= 0.150 else 'MISSES'} the 150 ms target")
    else:
        print("mindspore is not importable here: no run_check baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
