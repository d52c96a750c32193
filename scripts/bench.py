#!/usr/bin/env python3
"""Time `ascend-doctor check --format json` (no smoke) against a bare `python -c pass` and `mindspore.run_check()`.

All three in one run. Prints the median wall time of each over N runs and the ratios against the
start-up targets (issue 14): the doctor <= 2.5x a bare interpreter start, >= 20x less than run_check().
The doctor is run as a user would run it: a fresh process each time, the interpreter of its venv.

    python scripts/bench.py [--runs 15] [--baseline-runs 5] [--stages]

--stages also times fresh processes of the same interpreter that stop after each stage of a check (the
imports of the console script, of the stdlib the CLI needs, of the CLI, of every module a check imports, the
run, the exit): where the start-up goes, in CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _time(argv, runs, env):
    """Wall times and CPU times (user+sys of the child) of `runs` fresh processes."""
    walls, cpus = [], []
    for _ in range(runs):
        c0, t0 = _cpu(), time.perf_counter()
        proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        walls.append(time.perf_counter() - t0)
        cpus.append(_cpu() - c0)
        if proc.returncode not in (0, 1):
            sys.exit(f"{' '.join(argv)} failed with {proc.returncode}: {proc.stderr.decode()[-400:]}")
    return (walls, cpus), proc


TARGET_VS_BARE = 2.5  # the doctor's median wall <= 2.5x `python -c pass` with the same interpreter
TARGET_VS_RUN_CHECK = 20.0  # mindspore.run_check() median wall >= 20x the doctor's


def _install_wheel() -> str:
    import tempfile

    from benchlib import install_wheel

    return install_wheel(tempfile.mkdtemp(prefix="ascend-doctor-bench-"))


# Each stage is a fresh process of the doctor's interpreter that does what the check does up to that point.
_CHECK_MODULES = ("from ascend_doctor.cli import build_parser; build_parser('check'); import subprocess; "
                  "import ascend_doctor.probes as p, ascend_doctor.checks as c; p._registry(); c.all_checks(); "
                  "import ascend_doctor.redact, ascend_doctor.render.json_report")
_RUN = "import sys; from ascend_doctor.cli import console_main; sys.argv[1:] = ['check', '--format', 'json']; "
STAGES = [
    ("python -c pass", "pass"),
    ("+ import re (the console script's own import)", "import re"),
    ("+ argparse, json, typing", "import re, argparse, json, typing"),
    ("+ the CLI and the check command's modules", "import re; from ascend_doctor.cli import build_parser; "
                                                   "build_parser('check')"),
    ("+ every module a check imports (probes, checks, subprocess)", "import re; " + _CHECK_MODULES),
    ("+ the check run (exits without the interpreter's shutdown)", "import re, os; " + _RUN +
     "code = console_main(); sys.stdout.flush(); os._exit(code)"),
    ("the whole check (console_main, normal exit)", "import re; " + _RUN + "sys.exit(console_main())"),
]


def time_stages(python: str, runs: int, env) -> None:
    """Median CPU of each stage (alternated, so load hits all alike) and what each adds to the one before."""
    cpus = {name: [] for name, _ in STAGES}
    for _ in range(runs):
        for name, code in STAGES:
            (_, c), _ = _time([python, "-c", code], 1, env)
            cpus[name].extend(c)
    print("stages (median CPU of a fresh process that stops after the stage; difference to the previous one):")
    before = 0.0
    for name, _ in STAGES:
        m = statistics.median(cpus[name]) * 1000
        print(f"  {name:<62} {m:6.1f} ms  {m - before:+6.1f} ms")
        before = m


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--baseline-runs", type=int, default=5)
    ap.add_argument("--stages", action="store_true", help="also time the stages of a check (see above)")
    ap.add_argument("--checkout", action="store_true",
                    help="time `python -m ascend_doctor` from this checkout instead of an installed wheel")
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=REPO)
    # An installed wheel has its bytecode compiled at install time; measure that, not recompiling every run.
    env.pop("PYTHONDONTWRITEBYTECODE", None)

    if args.checkout:
        doctor_argv = [sys.executable, "-m", "ascend_doctor", "check", "--format", "json"]
        bare_argv = [sys.executable, "-c", "pass"]
    else:
        # What a user runs: the console script of a wheel installed in a fresh venv (bytecode compiled at install).
        script = _install_wheel()
        doctor_argv = [script, "check", "--format", "json"]
        bare_argv = [os.path.join(os.path.dirname(script), "python"), "-c", "pass"]
        env.pop("PYTHONPATH")
    _time(doctor_argv, 1, env)  # warm the page cache
    _time(bare_argv, 1, env)
    # Alternate the two, so a burst of load on the shared machine hits both alike.
    bare, doctor = ([], []), ([], [])
    for _ in range(args.runs):
        for acc, argv in ((bare, bare_argv), (doctor, doctor_argv)):
            (w, c), proc = _time(argv, 1, env)
            acc[0].extend(w)
            acc[1].extend(c)
    json.loads(proc.stdout)  # the output is a valid report

    rc_argv = [sys.executable, "-c", "import mindspore; mindspore.run_check()"]
    probe = subprocess.run([sys.executable, "-c", "import mindspore"], capture_output=True)
    rows = [("ascend-doctor check --format json", doctor, args.runs), ("python -c pass", bare, args.runs)]
    if probe.returncode == 0:
        run_check, _ = _time(rc_argv, args.baseline_runs, env)
        rows.append(("mindspore.run_check()", run_check, args.baseline_runs))
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.1f} (wall times inflate under load; CPU times less)")
    for name, (walls, cpus), n in rows:
        print(f"{name:<36} median wall {statistics.median(walls) * 1000:8.1f} ms   "
              f"median CPU {statistics.median(cpus) * 1000:8.1f} ms  (n={n})")
    dw, dc = statistics.median(doctor[0]), statistics.median(doctor[1])
    bw, bc = statistics.median(bare[0]), statistics.median(bare[1])
    print(f"ratio doctor / bare python: wall {dw / bw:.2f}x, CPU {dc / bc:.2f}x "
          f"(target <= {TARGET_VS_BARE}x: {'met' if dw / bw <= TARGET_VS_BARE else 'NOT met'})")
    if len(rows) == 3:
        rw, rc = statistics.median(rows[2][1][0]), statistics.median(rows[2][1][1])
        print(f"ratio run_check / doctor: wall {rw / dw:.1f}x, CPU {rc / dc:.1f}x "
              f"(target >= {TARGET_VS_RUN_CHECK:.0f}x: {'met' if rw / dw >= TARGET_VS_RUN_CHECK else 'NOT met'})")
    else:
        print("mindspore is not importable here: no run_check baseline")
    if args.stages:
        time_stages(bare_argv[0], args.runs, env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
