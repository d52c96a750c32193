"""The distributed smoke: N ranks through MindSpore's own launcher (msrun), collectives checked.

`msrun` starts a scheduler and the workers; each worker (collective_worker.py)
drops marker files as it arrives, joins and finishes. The parent watches them
with a deadline per phase (launch: every local rank started; init: every rank
joined the cluster; collectives: results written and msrun exited), so a rank
that never joins is named, with the scheduler's and workers' last log lines.

msrun starts every worker in its own session (os.setsid), so killing msrun's
process group is not enough: on expiry every descendant is found and killed.
"""

from __future__ import annotations

import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from ..records import dataclass, field
from typing import Callable, Dict, List, Optional

from .. import process
from .runner import DEFAULT_STAGE_TIMEOUT, child_env, read_tail

WORKER_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "collective_worker.py")
PHASES = ("launch", "init", "collectives")
# AllReduce size for the bandwidth estimate: big enough to be bandwidth-bound on an
# accelerator link, small enough for a CPU run to stay quick.
BANDWIDTH_BYTES = {"cpu": 4 << 20, "gpu": 64 << 20, "ascend": 64 << 20}


@dataclass
class DistributedConfig:
    ranks: int  # workers on this node
    device: str = "cpu"
    master_port: int = 8118
    master_addr: str = "127.0.0.1"
    nnodes: int = 1
    node_rank: Optional[int] = None
    phase_timeouts: Dict[str, float] = field(default_factory=dict)
    default_timeout: float = DEFAULT_STAGE_TIMEOUT
    python: str = sys.executable

    @property
    def world_size(self) -> int:
        return self.ranks * self.nnodes

    def local_node_ids(self) -> List[int]:
        base = (self.node_rank or 0) * self.ranks
        return list(range(base, base + self.ranks))

    def timeout_for(self, phase: str) -> float:
        return float(self.phase_timeouts.get(phase, self.default_timeout))


@dataclass
class DistributedRun:
    status: str  # pass | fail | hung | crashed
    phase: str  # the phase reached (or that failed)
    argv: List[str]
    expected: List[int]
    arrived: List[int]
    joined: List[int]
    results: Dict[int, dict]
    returncode: Optional[int]
    wall_ms: int
    phase_ms: Dict[str, int]
    log_tails: Dict[str, List[str]]  # log file name -> its last lines
    timeout_s: Optional[float] = None
    registered: List[int] = field(default_factory=list)  # ranks the scheduler logged as registered


def msrun_argv(config: DistributedConfig, logdir: str, outdir: str) -> List[str]:
    # msrun is `mindspore.parallel.cluster.run:main`; running it with this Python
    # guarantees the launcher and the workers use the MindSpore being tested.
    argv = [config.python, "-m", "mindspore.parallel.cluster.run",
            "--worker_num", str(config.world_size), "--local_worker_num", str(config.ranks),
            "--master_addr", config.master_addr, "--master_port", str(config.master_port),
            "--log_dir", logdir, "--join", "True",
            # msrun's own cluster timeout is set past ours, so the parent's deadline (which names the
            # ranks that arrived) fires first.
            "--cluster_time_out", str(int(config.timeout_for("init") + 30))]
    if config.node_rank is not None:
        argv += ["--node_rank", str(config.node_rank)]
    return argv + [WORKER_SCRIPT, outdir, config.device, str(BANDWIDTH_BYTES.get(config.device, 4 << 20))]


def _ids(outdir: str, prefix: str) -> List[int]:
    found = []
    for path in glob.glob(os.path.join(outdir, f"{prefix}_*.json")):
        tail = os.path.basename(path)[len(prefix) + 1:-5]
        if tail.isdigit():
            found.append(int(tail))
    return sorted(found)


# scheduler.log, MindSpore 2.x meta_server_node.cc ProcessRegister:
# "The new node: 0(role: MS_WORKER), rank id: 0, device id: 0, hostname: vm, ip: 127.0.0.1 is registered ..."
_REGISTERED = re.compile(r"The new node: \S+\(role: MS_WORKER\), rank id: (\d+)")


def registered_ranks(scheduler_log: str) -> List[int]:
    return sorted({int(m.group(1)) for m in _REGISTERED.finditer(scheduler_log)})


def _log_tails(logdir: str, lines: int = 200) -> Dict[str, List[str]]:
    tails = {}
    for path in sorted(glob.glob(os.path.join(logdir, "*.log"))):
        text = read_tail(path, 64 * 1024)
        tails[os.path.basename(path)] = text.splitlines()[-lines:]
    return tails


def run_distributed(config: DistributedConfig,
                    progress: Optional[Callable[[str, str, dict], None]] = None) -> DistributedRun:
    start = time.monotonic()
    expected = config.local_node_ids()
    with tempfile.TemporaryDirectory(prefix="ascend-doctor-msrun-") as work:
        logdir, outdir = os.path.join(work, "logs"), os.path.join(work, "out")
        os.makedirs(outdir)
        argv = msrun_argv(config, logdir, outdir)
        with open(os.path.join(work, "msrun.out"), "wb") as out:
            proc = process.start_session(argv, stdout=out, stderr=subprocess.STDOUT, cwd=work,
                                         env=child_env(config.python))
        process.track(proc, process.kill_tree)  # killed with its workers if the doctor stops waiting or exits
        phase_ms: Dict[str, int] = {}
        status, phase, timeout_s = "pass", "launch", None
        phase_start = time.monotonic()
        if progress:
            progress("start", "launch", {})
        try:
            while True:
                arrived, joined = _ids(outdir, "arrived"), _ids(outdir, "joined")
                results = _ids(outdir, "result")
                reached = {"launch": all(i in arrived for i in expected),
                           "init": len(joined) >= len(expected),
                           "collectives": len(results) >= len(expected) and proc.poll() is not None}
                while phase and reached[phase]:
                    phase_ms[phase] = int((time.monotonic() - phase_start) * 1000)
                    if progress:
                        progress("end", phase, {"status": "pass", "ms": phase_ms[phase]})
                    nxt = PHASES.index(phase) + 1
                    phase = PHASES[nxt] if nxt < len(PHASES) else None
                    phase_start = time.monotonic()
                    if phase and progress:
                        progress("start", phase, {})
                if phase is None:
                    break
                if proc.poll() is not None and not reached[phase]:
                    # msrun ended before this phase completed: a worker or the scheduler died.
                    status = "crashed"
                    break
                if time.monotonic() - phase_start > config.timeout_for(phase):
                    status, timeout_s = "hung", config.timeout_for(phase)
                    process.kill_tree(proc)
                    if progress:
                        progress("end", phase, {"status": "hung", "ms": int(timeout_s * 1000)})
                    break
                time.sleep(0.2)
        except BaseException:
            process.kill_tree(proc)
            raise
        if proc.poll() is None:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill_tree(proc)
        process.kill_tree(proc)  # workers left in their own sessions
        process.untrack(proc)
        arrived, joined = _ids(outdir, "arrived"), _ids(outdir, "joined")
        results = {}
        for rank in _ids(outdir, "result"):
            try:
                with open(os.path.join(outdir, f"result_{rank}.json")) as fh:
                    results[rank] = json.load(fh)
            except (OSError, ValueError):
                pass
        tails = _log_tails(logdir)
        registered = registered_ranks(read_tail(os.path.join(logdir, "scheduler.log"), 8 << 20))
        msrun_lines = read_tail(os.path.join(work, "msrun.out"), 16 * 1024).splitlines()[-20:]
        if msrun_lines:
            tails["msrun"] = msrun_lines
    if status == "pass":
        bad = [r for r, res in results.items() if not all(c.get("ok") for c in res.get("checks", {}).values())]
        if bad or proc.returncode not in (0, None):
            status, phase = "fail", "collectives"
    if status in ("crashed",) and progress:
        progress("end", phase, {"status": status, "ms": int((time.monotonic() - phase_start) * 1000)})
    return DistributedRun(status, phase or "collectives", argv, expected, arrived, joined, results, proc.returncode,
                          int((time.monotonic() - start) * 1000), phase_ms, tails, timeout_s, registered)
