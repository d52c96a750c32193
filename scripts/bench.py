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


def _install_wheel() -> str:
    import tempfile

    tmp = tempfile.mkdtemp(prefix="ascend-doctor-bench-")
    print(f"building the wheel and installing it in {tmp}/venv ...", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp, REPO], check=True,
                   stdout=subprocess.DEVNULL)
    wheel = next(os.path.join(tmp, n) for n in os.listdir(tmp) if n.endswith(".whl"))
    subprocess.run([sys.executable, "-m", "venv", os.path.join(tmp, "venv")], check=True)
    subprocess.run([os.path.join(tmp, "venv", "bin", "python"), "-m", "pip", "install", "-q", wheel], check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(tmp, "venv", "bin", "ascend-doctor")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--baseline-runs", type=int, default=5)
    ap.add_argument("--checkout", action="store_true",
                    help="time `python -m ascend_doctor` from this checkout instead of an installed wheel")
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=REPO)
    # An installed wheel has its bytecode compiled at install time; measure that, not recompiling every run.
    env.pop("PYTHONDONTWRITEBYTECODE", None)

    if args.checkout:
        doctor_argv = [sys.executable, "-m", "ascend_doctor", "check", "--format", "json"]
    else:
        # What a user runs: the console script of a wheel installed in a fresh venv (bytecode compiled at install).
        doctor_argv = [_install_wheel(), "check", "--format", "json"]
        env.pop("PYTHONPATH")
    _time(doctor_argv, 1, env)  # warm the page cache
    doctor, proc = _time(doctor_argv, args.runs, env)
    json.loads(proc.stdout)  # the output is a valid report

    rc_argv = [sys.executable, "-c", "import mindspore; mindspore.run_check()"]
    probe = subprocess.run([sys.executable, "-c", "import mindspore"], capture_output=True)
    rows = [("ascend-doctor check --format json", doctor, args.runs)]
    if probe.returncode == 0:
        run_check, _ = _time(rc_argv, args.baseline_runs, env)
        rows.append(("mindspore.run_check()", run_check, args.baseline_runs))
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.1f} (wall times inflate under load; CPU times less)")
    for name, (walls, cpus), n in rows:
        print(f"{name:<36} median wall {statistics.median(walls) * 1000:8.1f} ms   "
              f"median CPU {statistics.median(cpus) * 1000:8.1f} ms  (n={n})")
    if len(rows) == 2:
        dw, dc = statistics.median(rows[0][1][0]), statistics.median(rows[0][1][1])
        rw, rc = statistics.median(rows[1][1][0]), statistics.median(rows[1][1][1])
        print(f"ratio run_check / doctor: wall {rw / dw:.1f}x, CPU {rc / dc:.1f}x (target >= 15x)")
        print(f"doctor median wall {dw * 1000:.0f} ms: {'meets' if dw <= 0.150 else 'misses'} the 150 ms target")
    else:
        print("mindspore is not importable here: no run_check baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
