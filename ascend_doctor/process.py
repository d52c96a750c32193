"""Child processes: each in its own session, its output read with a cap, killed with its whole group,
and registered while it runs so nothing the doctor started outlives it.

Used by LiveHost.run (vendor tools with a timeout), the smoke runner (the MindSpore child) and the
distributed smoke (msrun and its workers). A caller that stops waiting for the doctor (preflight's
budget) or an exiting interpreter kills every registered child (`kill_running`).
"""

from __future__ import annotations

import _thread
import atexit
import os
import signal
import sys
import time
from typing import TYPE_CHECKING, Callable, Dict, List, Optional, Sequence

from .records import dataclass

if TYPE_CHECKING:  # subprocess and threading are imported when a command is run (a bundle runs none)
    import subprocess

# What one command may print before the rest is dropped (a tool gone mad must not fill memory).
MAX_COMMAND_OUTPUT = 4 << 20


def start_session(argv: Sequence[str], **popen_kwargs) -> subprocess.Popen:
    """Popen in a new session (the child leads its process group, so one kill takes its helpers too),
    stdin closed. Raises what Popen raises (FileNotFoundError, PermissionError, OSError)."""
    import subprocess

    popen_kwargs.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.Popen(list(argv), start_new_session=True, **popen_kwargs)


def fork_is_safe() -> bool:
    """Whether this process may os.fork() workers that run Python code. A fork copies only the calling thread:
    a lock another thread holds at that moment (the import lock, a logging handler's, a cache's) stays held in
    the child for ever, and the child hangs on it. Safe only while this process runs one thread (the command
    line tool does; a test or a program calling the doctor in-process may not)."""
    if not hasattr(os, "fork"):
        return False
    threading = sys.modules.get("threading")  # not imported: no thread was started through it
    return threading is None or threading.active_count() == 1


# -- killing ---------------------------------------------------------------------------------------

def kill_group(proc: subprocess.Popen, wait: Optional[float] = None) -> None:
    """SIGKILL the child's whole session (it was started as a group leader), then, when `wait` is given,
    reap it for up to that many seconds."""
    import subprocess

    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass
    if wait is not None:
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            pass


def kill_tree(proc: subprocess.Popen, wait: Optional[float] = 10) -> None:
    """Kill a launcher (msrun), its own group, and every session its descendants started."""
    pids: List[int] = []
    try:
        import psutil

        pids = [c.pid for c in psutil.Process(proc.pid).children(recursive=True)]
    except Exception:  # psutil missing or the launcher already gone: the group kill below still runs
        pass
    for pid in pids:
        try:
            os.killpg(os.getpgid(pid), signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    kill_group(proc, wait)


# -- the registry of running children ----------------------------------------------------------------

_RUNNING: Dict[subprocess.Popen, Callable[[subprocess.Popen], None]] = {}
_RUNNING_LOCK = _thread.allocate_lock()  # threading.Lock, without importing threading


def track(proc: subprocess.Popen, kill: Optional[Callable[[subprocess.Popen], None]] = None) -> None:
    """Kill `proc` (with `kill`, default: its process group) if the doctor stops waiting or exits first."""
    with _RUNNING_LOCK:
        _RUNNING[proc] = kill or kill_group


def untrack(proc: subprocess.Popen) -> None:
    with _RUNNING_LOCK:
        _RUNNING.pop(proc, None)


def kill_running() -> int:
    """Kill every tracked process that has not been reaped yet. Returns how many were tracked."""
    with _RUNNING_LOCK:
        procs = list(_RUNNING.items())
    for proc, kill in procs:
        if proc.poll() is None:
            try:
                kill(proc)
            except Exception:  # one that cannot be killed must not keep the others alive
                pass
    return len(procs)


atexit.register(kill_running)


# -- reading ---------------------------------------------------------------------------------------

class CappedReader:
    """Read a pipe to EOF in a thread, keeping only the first `limit` bytes."""

    def __init__(self, pipe, limit: int = MAX_COMMAND_OUTPUT):
        self._pipe = pipe
        self._limit = limit
        self._chunks: List[bytes] = []
        self._size = 0
        self.truncated = False
        import threading

        self._thread = threading.Thread(target=self._pump, daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        try:
            while True:
                chunk = self._pipe.read1(65536) if hasattr(self._pipe, "read1") else self._pipe.read(65536)
                if not chunk:
                    break
                room = self._limit - self._size
                if room > 0:
                    self._chunks.append(chunk[:room])
                    self._size += min(room, len(chunk))
                if len(chunk) > room:
                    self.truncated = True
        except (OSError, ValueError):
            pass

    def join(self, timeout: float) -> None:
        # If the pipe is still open (a grandchild holds it), the daemon thread is
        # abandoned: closing a buffered pipe another thread reads would block too.
        self._thread.join(timeout)

    def data(self) -> bytes:
        return b"".join(list(self._chunks))


@dataclass
class Captured:
    """What a command run by `run_captured` left: exit code (None when killed at the timeout) and output."""

    returncode: Optional[int]
    stdout: bytes
    stderr: bytes
    ms: int
    timed_out: bool
    truncated: bool


def run_captured(argv: Sequence[str], timeout: float, env: Optional[Dict[str, str]] = None,
                 limit: int = MAX_COMMAND_OUTPUT, stdin: Optional[bytes] = None) -> Captured:
    """Run a command to its end or its timeout, whichever comes first; its group is killed at the timeout,
    and on Ctrl-C / SIGTERM while waiting (then the exception goes on). Raises what Popen raises. `stdin`: a few
    bytes (less than a pipe holds) for its standard input, else it has none."""
    import subprocess

    start = time.monotonic()
    proc = start_session(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                         stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE)
    track(proc)
    if stdin is not None:
        try:  # within the pipe's buffer: written at once, whether the command reads it or not
            proc.stdin.write(stdin)
            proc.stdin.close()
        except OSError:  # it exited already (BrokenPipeError)
            pass
    out, err = CappedReader(proc.stdout, limit), CappedReader(proc.stderr, limit)
    timed_out = False
    try:
        proc.wait(timeout=max(0.0, start + timeout - time.monotonic()))
    except subprocess.TimeoutExpired:
        timed_out = True
        kill_group(proc)
        proc.wait()
    except BaseException:  # Ctrl-C or SIGTERM while waiting: the tool goes with us
        kill_group(proc)
        raise
    finally:
        untrack(proc)
    # A grandchild that escaped the group may keep the pipes open: bounded wait.
    out.join(1.0)
    err.join(1.0)
    return Captured(None if timed_out else proc.returncode, out.data(), err.data(),
                    int((time.monotonic() - start) * 1000), timed_out, out.truncated or err.truncated)
