"""The smoke parent: run the child, arm a deadline per stage, kill the whole group on expiry.

The child announces each stage with a "start" line before doing it. Each start
re-arms the deadline for that stage, so a hang is reported as "hung in
graph_compile after 300 s", not as a global timeout. On expiry the whole
process group is killed (MindSpore starts helper threads and processes; a
graph compile on Ascend forks op-compile workers).

This is the one place, with `distributed.py`, that starts processes outside
`Host.run`: the smoke needs a live process group and streamed output, which a
recorded bundle cannot replay. It only runs on the live machine.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from ..records import dataclass, field
from typing import Callable, Dict, List, Optional

from .. import process
from .__main__ import STAGES  # the child's stage list is the contract

DEFAULT_STAGE_TIMEOUT = 300.0  # a first graph compile on Ascend builds kernels and can take minutes
STDERR_KEEP = 256 * 1024  # bytes of the child's stderr read back (its tail holds the failure)

# Result statuses of a stage, as the parent sees it.
PASSED, FAILED, SKIPPED, HUNG, CRASHED, NOT_RUN = "pass", "fail", "skip", "hung", "crashed", "not_run"


@dataclass
class StageResult:
    stage: str
    status: str
    ms: int = 0
    data: Dict[str, object] = field(default_factory=dict)
    error: Optional[str] = None


@dataclass
class SmokeRun:
    device: str
    stages: Dict[str, StageResult]
    returncode: Optional[int]
    stderr: str  # the tail of the child's stderr
    wall_ms: int
    stopped_at: Optional[str] = None  # the stage that failed, hung or crashed
    timeout_s: Optional[float] = None  # the deadline that expired, for a hang
    signal_name: Optional[str] = None  # for a crash by signal
    python: str = "python"

    def to_json(self) -> dict:
        return {"device": self.device, "returncode": self.returncode, "wall_ms": self.wall_ms,
                "stopped_at": self.stopped_at,
                "stages": {k: {"status": v.status, "ms": v.ms, "error": v.error, **v.data}
                           for k, v in self.stages.items()}}


@dataclass
class SmokeConfig:
    device: str = "cpu"
    device_id: Optional[int] = None
    steps: int = 40
    pynative: bool = True
    stage_timeouts: Dict[str, float] = field(default_factory=dict)  # stage -> seconds (overrides)
    default_timeout: float = DEFAULT_STAGE_TIMEOUT
    atc: Optional[str] = None
    soc_version: Optional[str] = None
    python: str = sys.executable

    def timeout_for(self, stage: str) -> float:
        return float(self.stage_timeouts.get(stage, self.default_timeout))


def child_argv(config: SmokeConfig, workdir: str) -> List[str]:
    argv = [config.python, "-m", "ascend_doctor.smoke", "--device", config.device, "--steps", str(config.steps),
            "--workdir", workdir]
    if config.device_id is not None:
        argv += ["--device-id", str(config.device_id)]
    if not config.pynative:
        argv.append("--no-pynative")
    if config.atc:
        argv += ["--atc", config.atc, "--atc-timeout", str(min(config.timeout_for("atc") * 0.9, 120.0))]
    if config.soc_version:
        argv += ["--soc-version", config.soc_version]
    return argv


_SHIM_DIR: Optional[str] = None


def _package_shim() -> str:
    """A directory holding only a link to this ascend_doctor package. The child (maybe another interpreter,
    --python) must import this ascend_doctor and nothing else of the doctor's environment: putting the
    package's parent on its path would also put the doctor's site-packages there (numpy for another Python...)."""
    global _SHIM_DIR
    if _SHIM_DIR is None or not os.path.isdir(_SHIM_DIR):
        import atexit
        import shutil
        import tempfile

        package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        shim = tempfile.mkdtemp(prefix="ascend-doctor-pkg-")
        os.symlink(package, os.path.join(shim, "ascend_doctor"))
        atexit.register(shutil.rmtree, shim, True)
        _SHIM_DIR = shim
    return _SHIM_DIR


def child_env(python: Optional[str] = None) -> Dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = _package_shim() + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("PYTHONUNBUFFERED", "1")
    if python and os.path.dirname(python):
        # launchers (msrun) start workers with `python` from PATH: make that the interpreter judged here
        env["PATH"] = os.path.dirname(os.path.abspath(python)) + os.pathsep + env.get("PATH", "")
    return env


def _kill_and_reap(proc: subprocess.Popen) -> None:
    process.kill_group(proc, wait=10)


def _read_lines(stream, out: "queue.Queue"):
    for raw in iter(stream.readline, b""):
        out.put(raw.decode("utf-8", "replace"))
    out.put(None)


def parse_line(line: str) -> Optional[dict]:
    line = line.strip()
    if not line.startswith("{"):
        return None
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) and "event" in obj else None


def result_from_end(msg: dict) -> StageResult:
    """A StageResult from the child's "end" line."""
    data = {k: v for k, v in msg.items() if k not in ("event", "stage", "status", "ms", "error")}
    return StageResult(str(msg["stage"]), str(msg.get("status", FAILED)), int(msg.get("ms") or 0), data,
                       msg.get("error"))


def read_tail(path: str, limit: int = STDERR_KEEP) -> str:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - limit))
            return fh.read().decode("utf-8", "replace")
    except OSError:
        return ""


def run_smoke(config: SmokeConfig, progress: Optional[Callable[[str, str, dict], None]] = None) -> SmokeRun:
    """Run the child to the end (or to the first failure/hang) and collect what each stage said.

    progress(event, stage, info) is called on "start" and "end" for live display.
    """
    start = time.monotonic()
    stages: Dict[str, StageResult] = {}
    stopped_at = timeout_s = None
    finished = False
    with tempfile.TemporaryDirectory(prefix="ascend-doctor-smoke-") as workdir:
        err_path = os.path.join(workdir, "stderr.log")
        with open(err_path, "wb") as err:
            proc = process.start_session(child_argv(config, workdir), stdout=subprocess.PIPE, stderr=err, cwd=workdir,
                                         env=child_env(config.python))
        # If the caller stops waiting (preflight's budget) or the interpreter exits, the child goes too.
        process.track(proc, _kill_and_reap)
        lines: "queue.Queue" = queue.Queue()
        reader = threading.Thread(target=_read_lines, args=(proc.stdout, lines), daemon=True)
        reader.start()
        # The import stage runs from the moment the process starts.
        current, deadline = "import", time.monotonic() + config.timeout_for("import")
        if progress:
            progress("start", current, {})
        try:
            while True:
                try:
                    line = lines.get(timeout=max(0.0, min(0.5, deadline - time.monotonic())))
                except queue.Empty:
                    line = ""
                if line is None:  # stdout closed: the child ended
                    break
                msg = parse_line(line) if line else None
                if msg and msg.get("event") == "done":
                    finished = True
                elif msg and msg.get("event") == "start" and msg.get("stage"):
                    current = str(msg["stage"])
                    deadline = time.monotonic() + config.timeout_for(current)
                    if current != "import" and progress:
                        progress("start", current, {})
                elif msg and msg.get("event") == "end" and msg.get("stage"):
                    res = result_from_end(msg)
                    stages[res.stage] = res
                    if progress:
                        progress("end", res.stage, {"status": res.status, "ms": res.ms})
                    current, deadline = None, time.monotonic() + config.default_timeout  # between stages
                if time.monotonic() > deadline:
                    if current is None:  # between stages: charge the next one in order
                        done = [s for s in STAGES if s in stages]
                        current = next((s for s in STAGES if s not in stages), done[-1] if done else "import")
                    timeout_s = config.timeout_for(current)
                    stages[current] = StageResult(current, HUNG, int(timeout_s * 1000),
                                                  error=f"no progress for {timeout_s:g} s; killed")
                    stopped_at = current
                    process.kill_group(proc, wait=10)
                    if progress:
                        progress("end", current, {"status": HUNG, "ms": int(timeout_s * 1000)})
                    break
        except BaseException:  # Ctrl-C or a bug here must not leave a MindSpore process behind
            process.kill_group(proc, wait=10)
            raise
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill_group(proc, wait=10)
        # Helpers the child left behind in its session go too.
        process.kill_group(proc)
        stderr = read_tail(err_path)
    process.untrack(proc)
    rc = proc.returncode
    signal_name = None
    if stopped_at is None:
        failed = [s for s in stages.values() if s.status == FAILED]
        if failed:
            stopped_at = failed[0].stage
        elif not finished or rc != 0:
            # The child died after a "start" and before its "end": a crash in that stage.
            stopped_at = current or next((s for s in STAGES if s not in stages), STAGES[-1])
            if rc is not None and rc < 0:
                try:
                    signal_name = signal.Signals(-rc).name
                except ValueError:
                    signal_name = f"signal {-rc}"
            stages[stopped_at] = StageResult(stopped_at, CRASHED,
                                             error=f"the smoke process died ({signal_name or f'exit code {rc}'})")
    for name in STAGES:
        stages.setdefault(name, StageResult(name, NOT_RUN))
    ordered = {name: stages[name] for name in STAGES}
    return SmokeRun(config.device, ordered, rc, stderr, int((time.monotonic() - start) * 1000),
                    stopped_at, timeout_s, signal_name, config.python)
