#!/usr/bin/env python
"""Benchmark `ascend-doctor aggregate` on generated node reports (512 ... 4,096 nodes).

Each report is the size of a real full-check report (~40 findings with evidence and fixes, facts
of 8 NPUs, two CANN installs, launch variables, the node's rank-table entry); a few nodes are odd
(another driver, an HCCL variable, a failing check). For each size this prints wall seconds and
peak RSS of:
  aggregate   `python -m ascend_doctor aggregate DIR --format json` (streaming: one report at a time)
  naive       the same verdict computed after loading every report into memory first
  jq -s       `jq -s` slurping every report to group nodes by driver version (when jq is installed)
and the ratios against aggregate measured in the same run. Target: 4,096 reports <= 2 s here,
memory growing at most linearly.

    python scripts/bench_aggregate.py [--sizes 512,1024,2048,4096] [--keep DIR] [--against TREE [--repeat 3]]

--against TREE also times `aggregate --jobs 1` from another checkout (e.g. main before a change) on the same
reports, interleaved with this tree's runs (--repeat each, the least CPU kept): "vs TREE" is that tree's CPU
seconds / this tree's (above 1: this tree is cheaper).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from benchlib import measured, peak_file, peak_mb

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

AREAS = ["install", "compat", "env", "hccl", "rank_table", "devices", "resources", "mindspore"]

NAIVE = r"""
import glob, json, sys, resource, time
from collections import defaultdict
from ascend_doctor.node_facts import comparable_facts
t = time.monotonic()
reports = [json.load(open(p)) for p in sorted(glob.glob(sys.argv[1] + "/*.json"))]   # everything in memory
groups = defaultdict(lambda: defaultdict(list))
for r in reports:
    for k, v in comparable_facts(r).items():
        groups[k][v].append(r["facts"]["extra"]["launch"]["name"])
failing = [r["facts"]["extra"]["launch"]["name"] for r in reports if any(f["status"] == "fail" for f in r["findings"])]
skew = {k: {v: len(n) for v, n in g.items()} for k, g in groups.items() if len(g) > 1}
print(json.dumps({"skew": len(skew), "failing": len(failing)}))
"""


def template_report():
    """A report shaped like a full `check` on an 8-NPU training node."""
    findings = []
    for i in range(40):
        area = AREAS[i % len(AREAS)]
        findings.append({
            "id": f"{area}.check_{i:02d}", "status": "pass", "title": f"{area} verification number {i}",
            "summary": "The value found matches what the installed CANN and MindSpore expect on this node.",
            "evidence": {"file": f"/usr/local/Ascend/ascend-toolkit/latest/{area}/version.info",
                         "value": "Version=7.3.0.1.231", "expected": ["7.3", "7.5"]},
            "fix": [], "pitfall": None, "duration_ms": 3})
    devices = [{"npu_id": i, "chip_id": 0, "device_id": i, "name": "910B3", "health": "OK", "power_w": 93.1,
                "temp_c": 41.0, "aicore_pct": 0.0, "memory_used_mb": 0, "memory_total_mb": 0,
                "hbm_used_mb": 3378, "hbm_total_mb": 65536, "bus_id": f"0000:{0xc1 + i:02x}:00.0"} for i in range(8)]
    installs = [{"root": f"/usr/local/Ascend/{k}/latest", "kind": k, "owner": "root", "resolved": None,
                 "release": "8.0.RC2", "compiler_version": "7.3.0.1.231", "innerversion": "V100R001C18SPC001B231",
                 "install_info_path": None, "arch": "aarch64", "components": {"compiler": "7.3.0.1.231",
                 "runtime": "7.3.0.1.231", "opp": "7.3.0.1.231"}, "version_cfg": {}, "has_opp": True,
                 "has_opp_kernel": True, "has_te": True, "set_env": f"/usr/local/Ascend/{k}/set_env.sh",
                 "active": k == "ascend-toolkit", "errors": []} for k in ("ascend-toolkit", "nnae")]
    variables = {"HCCL_CONNECT_TIMEOUT": "600", "HCCL_EXEC_TIMEOUT": "1800", "HCCL_BUFFSIZE": "200",
                 "HCCL_IF_IP": "10.0.0.1", "MS_WORKER_NUM": "4096", "RANK_SIZE": "4096", "DEVICE_ID": "0",
                 "RANK_TABLE_FILE": "/shared/job/rank_table.json", "ASCEND_RT_VISIBLE_DEVICES": "0,1,2,3,4,5,6,7"}
    launch = {"name": "node", "host": "node", "rank": 0, "local_rank": 0, "world_size": 4096, "job_id": "4242",
              "role": None, "launchers": ["slurm"], "identity_source": {"rank": "SLURM_PROCID"},
              "addresses": ["10.0.0.1"], "variables": variables,
              "rank_table": {"path": "/shared/job/rank_table.json", "digest": "6b1f0c3e9a2d4f51", "server_count": "512",
                             "servers_listed": 512, "complete": False,
                             "servers": [{"server_id": "10.0.0.1", "host_ip": None, "devices": [
                                 {"device_id": str(d), "device_ip": f"192.168.{d}.1", "rank_id": str(d)}
                                 for d in range(8)]}]},
              "errors": []}
    facts = {
        "system": {"hostname": "node", "os_name": "EulerOS 2.0 (SP10)", "os_id": "euleros", "os_version": "2.0",
                   "kernel": "4.19.90-vhulk2211.3.0.h1543.eulerosv2r10.aarch64", "arch": "aarch64",
                   "libc": "glibc 2.28", "container": None, "cpu_count": 192, "mem_total_mb": 1547000,
                   "mem_available_mb": 1400000, "disks": {"home": {"path": "/root", "total_mb": 900000, "free_mb": 500000}},
                   "shm_total_mb": 773000, "shm_free_mb": 773000, "errors": []},
        "python": {"version": "3.9.18", "executable": "/usr/local/python3.9/bin/python3", "implementation": "CPython",
                   "site_packages": ["/usr/local/python3.9/lib/python3.9/site-packages"], "errors": []},
        "driver": {"installed": True, "install_info_path": "/etc/ascend_install.info", "install_info": {
            "Driver_Install_Path_Param": "/usr/local/Ascend"}, "version_file": "/usr/local/Ascend/driver/version.info",
            "version": "24.1.rc2", "innerversion": "V100R001C18SPC001B231", "compatible_version": ["V100R001C15"],
            "compatible_version_fw": [["7.0", "7.5"]], "package_version": "24.1.rc2", "errors": []},
        "firmware": {"installed": True, "version_file": "/usr/local/Ascend/firmware/version.info", "version": "7.3.0.1.231",
                     "package_version": "7.3.0.1.231", "compatible_version_drv": [["23.0", "24.1"]], "errors": []},
        "npu": {"available": True, "command_error": None, "tool_version": "24.1.rc2", "driver_version": "24.1.rc2",
                "layout": "A", "devices": devices, "processes": [], "idle_npus": list(range(8)),
                "dev_nodes": [f"/dev/davinci{i}" for i in range(8)], "soc_family": "910B", "errors": []},
        "cann": {"installs": installs, "active_root": installs[0]["root"], "env_points_to": installs[0]["root"], "errors": [],
                 "env_roots": {"ASCEND_HOME_PATH": installs[0]["root"]},
                 "judged": {"root": installs[0]["root"], "prefix": "/usr/local/Ascend", "reason": "environment",
                            "variable": "ASCEND_HOME_PATH"}},
        "cuda": {"driver_version": None, "driver_cuda_max": None, "kernel_module_version": None, "gpus": [],
                 "runtime_libs": [], "toolkit_version": None, "toolkit_root": None, "nvcc_version": None,
                 "cudnn_version": None, "cudnn_source": None, "nvidia_smi_error": None, "errors": []},
        "mindspore": {"installed": True, "dist_name": "mindspore", "version": "2.3.1", "location": "/usr/local/python3.9/lib/python3.9/site-packages",
                      "flavour": "ascend", "cuda_version": None, "wheel_tags": ["cp39-cp39-linux_aarch64"],
                      "requires_python": ">=3.7", "accepted_cann": ["7.3"], "custom_ops_cann": {}, "commit_id": "abc", "errors": []},
        "hccn": {"conf_path": "/etc/hccn.conf", "tool": "/usr/local/Ascend/driver/tools/hccn_tool", "tool_error": None,
                 "errors": [], "pings": [], "ping_note": None, "devices": [port(d) for d in range(8)]},
        "probe_ms": {"system": 12, "python": 30, "driver": 2, "npu": 900, "cann": 40, "mindspore": 25},
        "probe_crashes": {}, "extra": {"launch": launch}}
    return {"schema": "ascend-doctor.report/1", "tool": {"name": "ascend-doctor", "version": "0.1.0", "duration_ms": 2100,
            "finished_unix": 1764480000.0}, "host": {"kind": "live", "name": "node"}, "facts": facts,
            "findings": findings, "summary": {"pass": 40, "warn": 0, "fail": 0, "skip": 0, "error": 0}}


def port(d: int) -> dict:
    """One NPU RoCE port as the hccn probe records it (all 12 queries answered, as on an A2 node)."""
    return {"device_id": d, "conf": {"address": f"11.12.165.{80 + d}", "netmask": "255.255.255.0",
                                     "netdetect": "11.12.165.1", "gateway": "11.12.165.1"},
            "ip": f"11.12.165.{80 + d}", "netmask": "255.255.255.0", "ip_queried": True, "link": "UP",
            "net_health": "Success",
            "link_stat": {"current_time": "Wed Aug 2 03:09:26 2022", "up_count": 2, "down_count": 1, "records": [
                {"time": "Tue Aug  1 14:43:40 2022", "state": s, "seconds_before": 44746} for s in ("UP", "DOWN")]},
            "optical": {"present": True, "temperature": 46.0, "temp_high": 70.0, "temp_low": 0.0, "vcc": 3287.4,
                        "vcc_high": 3465.0, "vcc_low": 3135.0, "tx_high": 3.5481, "tx_low": 0.2818, "rx_high": 3.5481,
                        "rx_low": 0.1445, "tx_power": {f"Tx Power{i}": 1.4 for i in range(4)},
                        "rx_power": {f"Rx Power{i}": 1.0 for i in range(4)},
                        "flags": {"Tx Los Flag": 0, "Rx Los Flag": 0}, "high_power": True, "vendor": "Hisense",
                        "part_number": "LMQ8611-PC+"},
            "lldp": {"present": True, "port": f"400GE1/{1 + d // 2}/5:{1 + d % 2}", "system_name": None,
                     "system_description": "Versatile Routing Platform Software"},
            "tls": 0, "mtu": 1500, "speed": "200000 Mb/s", "fec": "rs", "gateway": "11.12.165.1",
            "netdetect": "11.12.165.1", "errors": []}


def generate(directory: str, count: int) -> int:
    base = template_report()
    text_size = 0
    for i in range(count):
        r = copy.deepcopy(base)
        name = f"node-{i:04d}-rank{i}"
        launch = r["facts"]["extra"]["launch"]
        launch.update({"name": name, "host": f"node-{i:04d}", "rank": i, "addresses": [f"10.{i // 250}.{i % 250}.1"]})
        r["host"]["name"] = f"node-{i:04d}"
        if i % 1000 == 17:        # the odd node out: another driver
            r["facts"]["driver"]["version"] = "23.0.3"
        if i % 1500 == 3:         # an HCCL timeout set differently
            launch["variables"]["HCCL_CONNECT_TIMEOUT"] = "120"
        if i % 900 == 11:         # one port with the TLS switch on where every other has it off
            r["facts"]["hccn"]["devices"][7]["tls"] = 1
        if i % 700 == 5:          # a failing device
            r["findings"][5].update({"status": "fail", "summary": "NPU 3 health is Alarm",
                                     "fix": ["npu-smi info -t health -i 3", "reset the device or drain the node"]})
        text = json.dumps(r)
        text_size += len(text)
        with open(os.path.join(directory, name + ".json"), "w") as fh:
            fh.write(text)
    return text_size // count


def measure(argv, env=None):
    """Wall seconds, CPU seconds and peak RSS (MB) of one command (its largest process: benchlib.measured; wait4's own
    peak is at least this benchmark's size)."""
    start = time.monotonic()
    # cwd: a neutral directory, so that `python -m ascend_doctor` imports the tree PYTHONPATH names, not the one
    # the benchmark was started from
    peak_path = peak_file()
    proc = subprocess.Popen(measured(argv, peak_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            cwd=tempfile.gettempdir())
    out = proc.stdout.read()
    proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.monotonic() - start
    rc = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8
    # CPU seconds (user+sys, worker processes included) stay meaningful on a machine shared with other jobs.
    return elapsed, usage.ru_utime + usage.ru_stime, peak_mb(peak_path), out, rc


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="512,1024,2048,4096")
    ap.add_argument("--keep", metavar="DIR", help="generate reports under DIR and keep them")
    ap.add_argument("--against", metavar="TREE", help="also time aggregate --jobs 1 from this checkout")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each tree with --against (default 3)")
    args = ap.parse_args()
    other_env = dict(os.environ, PYTHONPATH=os.path.abspath(args.against)) if args.against else None
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    jq = shutil.which("jq")
    root = args.keep or tempfile.mkdtemp(prefix="bench-aggregate-")
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; s = wall, cpu = user+sys seconds")
    print(f"{'nodes':>6} {'KB/rep':>6} | {'aggregate s/cpu/MB':>18} | {'--jobs 1 s/cpu/MB':>17} | "
          f"{'naive s/cpu/MB':>15} {'x cpu':>5} | {'jq -s s/cpu/MB':>15} {'x cpu':>5}"
          + (" | vs TREE: cpu this/TREE, x cpu" if args.against else ""))
    try:
        for n in [int(x) for x in args.sizes.split(",")]:
            d = os.path.join(root, str(n))
            os.makedirs(d, exist_ok=True)
            size = generate(d, n)
            # warm the page cache so every contender reads from memory
            measure([sys.executable, "-c", f"import glob; [open(p,'rb').read() for p in glob.glob({d!r}+'/*.json')]"])
            a_s, a_cpu, a_mb, out, rc = measure([sys.executable, "-m", "ascend_doctor", "aggregate", d,
                                                 "--format", "json"], env)
            result = json.loads(out)
            assert rc == 1 and result["nodes_total"] == n and result["skew"], "aggregate did not find the odd nodes"
            s_s, s_cpu, s_mb, _, _ = measure([sys.executable, "-m", "ascend_doctor", "aggregate", d, "--format", "json",
                                              "--jobs", "1"], env)
            n_s, n_cpu, n_mb, _, _ = measure([sys.executable, "-c", NAIVE, d], env)
            row = (f"{n:>6} {size / 1024:>6.1f} | {a_s:>5.2f} {a_cpu:>5.2f} {a_mb:>6.0f} | {s_s:>5.2f} {s_cpu:>5.2f} "
                   f"{s_mb:>5.0f} | {n_s:>5.2f} {n_cpu:>4.2f} {n_mb:>4.0f} {n_cpu / s_cpu:>5.2f}")
            if jq:
                files = sorted(os.path.join(d, f) for f in os.listdir(d))
                j_s, j_cpu, j_mb, _, _ = measure([jq, "-s", "group_by(.facts.driver.version) | "
                                                  "map({driver: .[0].facts.driver.version, nodes: length})"] + files)
                row += f" | {j_s:>5.2f} {j_cpu:>4.2f} {j_mb:>4.0f} {j_cpu / s_cpu:>5.2f}"
            if args.against:
                one = [sys.executable, "-m", "ascend_doctor", "aggregate", d, "--format", "json", "--jobs", "1"]
                mine, theirs = [], []
                for _ in range(args.repeat):  # interleaved: a busy machine slows both alike
                    mine.append(measure(one, env)[1])
                    theirs.append(measure(one, other_env)[1])
                row += f" | {min(mine):>5.2f} {min(theirs):>5.2f} {min(theirs) / min(mine):>5.2f}"
            print(row, flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print("x cpu = contender CPU seconds / aggregate --jobs 1 CPU seconds (higher: aggregate is cheaper). "
          "MB = peak RSS of the process (the largest of its worker processes with a pool).")


if __name__ == "__main__":
    main()
