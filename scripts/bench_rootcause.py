#!/usr/bin/env python3
"""Benchmark `ascend-doctor triage`'s cross-rank root cause on a generated cluster's logs.

    python scripts/bench_rootcause.py                  # 1,024 nodes x 8 devices = 8,192 plogs (the README figure)
    python scripts/bench_rootcause.py --nodes 64       # quicker

The tree is written to a temporary directory (one directory per node, CANN's
`process_log/debug/plog/plog-<pid>_<ts>.log` layout) and deleted afterwards. Every plog holds
HCCL init lines (Entry-HcclCommInitRootInfo, SetupAgent, success), some ordinary INFO lines and,
after the failure, the notify-wait timeout of a rank waiting in the collective. One device, chosen at
random, fails first with a device-memory error and never reaches the collective. The run must name
that device as the root cause. Prints the wall time and the peak RSS of the triage process (targets:
<= 30 s and <= 512 MB for 8,192 plogs on the 2-core build machine), and exits 1 when a target or the
verdict is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from benchlib import measured, peak_file, peak_mb, scratch_dir

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GROUP = "10.0.0.1%enp189s0f0_60000_0_1714557600000000"


def ts(sec: float) -> str:
    m, s = divmod(sec, 60)
    return f"2024-05-01-10:{int(m):02d}:{int(s):02d}.{int(s * 1000) % 1000:03d}.{int(s * 1e6) % 1000:03d}"


def make_tree(root: str, nodes: int, per: int, seed: int = 7):
    rnd = random.Random(seed)
    size = nodes * per
    bad = rnd.randrange(size)
    for n in range(nodes):
        node = f"node-{n:04d}"
        d = os.path.join(root, node, "process_log", "debug", "plog")
        os.makedirs(d)
        for dev in range(per):
            rank = n * per + dev
            pid = 10000 + rank
            server = f"10.{n // 250}.{n % 250}.1"
            ip = f"192.{n // 250}.{n % 250}.{10 + dev}"

            def line(level, sec, text, module="HCCL"):
                return f"[{level}] {module}({pid},python):{ts(sec)} [x.cc:1][{pid}]{text}"

            out = [
                line("INFO", 0.1, f"Entry-HcclCommInitRootInfo:ranks[{size}], rank[{rank}], rootinfo: host ip[10.0.0.1] "
                                  f"port[60000] nicDeploy[1] identifier[{GROUP}], deviceLogicId[{dev}]"),
                line("INFO", 0.2, f"[HCCL_TRACE]SetupAgent rankNum[{size}], rank[{rank}], rootInfo identifier[{GROUP}], "
                                  f"server[{server}%enp189s0f0], logicDevId[{dev}], phydevId[{dev}], deviceIp[{ip}]"),
                line("INFO", 0.3, "HCCL_EXEC_TIMEOUT set by default to [1800]"),
            ]
            for k in range(20):
                out.append(line("INFO", 1 + k, f"[graph_manager.cc:{k}] PreRun: Start to pre-run graph {k}, session id 1",
                                module="GE"))
            out.append(line("INFO", 2.5, f"[HCCL_TRACE]HcclCommInitRootInfo success,take time [2042701]us, rankNum[{size}], "
                                         f"rank[{rank}],rootInfo identifier[{GROUP}], server[{server}%enp189s0f0], "
                                         f"logicDevId[{dev}]"))
            if rank == bad:
                out.append(line("ERROR", 30, "EL0004: Memory_Allocation_Failure(EL0004): Failed to allocate memory.",
                                module="RUNTIME"))
            else:
                t = 60 + rnd.random() * 5
                out += [
                    line("ERROR", t, "[TaskExceptionHandler][Callback]Task run failed, base information is streamID:[3], "
                                     f"taskID[7], taskType[Notify Wait], tag[AllReduce_{GROUP}], index[9]."),
                    line("ERROR", t, "[TaskExceptionHandler][Callback]Task run failed, para information is notify "
                                     f"id:[0x50], stage:[ffffffff], remote rank:[{(rank + 1) % size}]."),
                    line("ERROR", t, "[TaskExceptionHandler][Callback]Task run failed, groupRank information is "
                                     f"group:[{GROUP}], rankSize[{size}], rankId[{rank}]."),
                ]
            with open(os.path.join(d, f"plog-{pid}_20240501100000000.log"), "w") as fh:
                fh.write("\n".join(out) + "\n")
    return f"node-{bad // per:04d} device-{bad % per}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=1024)
    ap.add_argument("--per-node", type=int, default=8)
    ap.add_argument("--max-seconds", type=float, default=30.0)
    ap.add_argument("--max-mb", type=float, default=512.0)
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = ap.parse_args()
    with scratch_dir("bench-rootcause-", args.keep) as tmp:
        t0 = time.perf_counter()
        root_device = make_tree(tmp, args.nodes, args.per_node)
        files = args.nodes * args.per_node
        size = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(tmp) for f in fs)
        print(f"generated {args.nodes} nodes x {args.per_node} devices = {files} plogs, {size / 1e6:.0f} MB, "
              f"in {time.perf_counter() - t0:.0f} s; the failing device: {root_device}")
        env = dict(os.environ, PYTHONPATH=REPO)
        t0 = time.perf_counter()
        peak_path = peak_file()
        proc = subprocess.run(measured([sys.executable, "-m", "ascend_doctor", "triage", tmp, "--format", "json"],
                                       peak_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        wall = time.perf_counter() - t0
        peak = peak_mb(peak_path)  # the launcher's: getrusage's own is at least this benchmark's size
        if proc.returncode not in (0, 1):
            print(proc.stderr.decode(errors="replace")[-2000:])
            return 1
        rc = json.loads(proc.stdout)["root_cause"]
        print(f"triage: {wall:.1f} s, peak RSS {peak:.0f} MB  (targets: <= {args.max_seconds:.0f} s, "
              f"<= {args.max_mb:.0f} MB)")
        print(f"root cause: {rc['devices']} [{rc['kind']}, ascend-fd {rc['ascend_fd_code']}], "
              f"known problem {rc['problem']}")
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "ascend_doctor", "triage", tmp, "--format", "json"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(env, ASCEND_DOCTOR_NO_ROOT_CAUSE="1"))
        off = time.perf_counter() - t0
        print(f"the same run without root-cause analysis (ASCEND_DOCTOR_NO_ROOT_CAUSE=1): {off:.1f} s -> "
              f"added cost {100 * (wall / off - 1):+.0f}%")
        ok = rc["devices"] == [root_device] and wall <= args.max_seconds and peak <= args.max_mb
        if not ok:
            print("MISSED: " + ("wrong root cause " if rc["devices"] != [root_device] else "")
                  + ("too slow " if wall > args.max_seconds else "") + ("too much memory" if peak > args.max_mb else ""))
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
