#!/usr/bin/env python3
"""Benchmark rank-table validation on generated tables of 1k, 8k and 32k ranks (8 devices per server).

Prints, per table: file size, the time of ascend-doctor's full validation (every rule, every
problem with its JSON path), the time per rank, the per-rank ratio against the smallest table
(1.00 = perfectly linear), and, as the alternative measured in the same run, a naive checker:
json.load + one Python loop per rank using int() and ipaddress.ip_address() for the basic
type/uniqueness checks only. Target: <= 1 s for 32k ranks. Not a test: run it by hand.

    python scripts/bench_rank_table.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ascend_doctor.rank_table import validate_rank_table_text  # noqa: E402

SIZES = [(128, 8), (1024, 8), (4096, 8)]  # servers x devices: 1k, 8k, 32k ranks


def generate(servers: int, per: int) -> str:
    server_list = []
    rank = 0
    for s in range(servers):
        devices = []
        for d in range(per):
            # 10.x device IPs, one /24 per server: unique, like a real cluster plan.
            devices.append({"device_id": str(d), "device_ip": f"10.{s // 256}.{s % 256}.{d + 1}", "rank_id": str(rank)})
            rank += 1
        server_list.append({"server_id": f"192.0.{s // 256}.{s % 256}", "device": devices, "host_nic_ip": "reserve"})
    return json.dumps({"version": "1.0", "server_count": str(servers), "server_list": server_list, "status": "completed"},
                      indent=1)


def naive_check(text: str) -> int:
    """The alternative: load, then per rank int() + ipaddress + sets. No paths, no other rules."""
    doc = json.loads(text)
    errors = 0
    ranks, ips = set(), set()
    for server in doc["server_list"]:
        for dev in server["device"]:
            try:
                r = int(dev["rank_id"])
                int(dev["device_id"])
                ip = ipaddress.ip_address(dev["device_ip"])
            except (KeyError, ValueError):
                errors += 1
                continue
            if r in ranks or ip in ips:
                errors += 1
            ranks.add(r)
            ips.add(ip)
    return errors


def best_of(fn, repeat: int, clock) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        fn()
        best = min(best, clock() - t0)
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    ap.add_argument("--wall", action="store_true",
                    help="wall-clock time instead of this process's CPU time (CPU time is steadier on a shared machine)")
    args = ap.parse_args(argv)
    clock = time.perf_counter if args.wall else time.process_time
    print(f"clock: {'wall' if args.wall else 'process CPU'} time, best of {args.repeat}")
    print(f"{'ranks':>6} {'servers':>7} {'MB':>5} {'doctor s':>9} {'us/rank':>8} {'vs 1k':>6} "
          f"{'naive s':>8} {'doctor/naive':>12}")
    base = None
    worst = 0.0
    for servers, per in SIZES:
        text = generate(servers, per)
        ranks = servers * per
        table = validate_rank_table_text(text, soc_family="910B")
        assert table.ok and table.rank_count == ranks, [p.describe() for p in table.problems[:3]]
        t = best_of(lambda: validate_rank_table_text(text, soc_family="910B"), args.repeat, clock)
        n = best_of(lambda: naive_check(text), args.repeat, clock)
        per_rank = t / ranks
        base = base or per_rank
        worst = max(worst, t) if ranks >= 32768 else worst
        print(f"{ranks:>6} {servers:>7} {len(text) / 1e6:>5.1f} {t:>9.3f} {per_rank * 1e6:>8.1f} {per_rank / base:>6.2f} "
              f"{n:>8.3f} {t / n:>12.2f}")
    print(f"32k ranks: {worst:.3f} s (target <= 1 s: {'met' if worst <= 1.0 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
