"""LiveHost: this machine (/ + os.environ + subprocess with timeouts)."""

from __future__ import annotations

import os
import stat
import time
from typing import List, Mapping, Optional, Sequence, Tuple

from .. import phrases
from ..i18n_text import Text
from ..process import MAX_COMMAND_OUTPUT, kill_running, run_captured, track, untrack  # noqa: F401 (re-exported)
from ..reasons import os_text
from .base import (DEFAULT_MAX_READ, NON_REGULAR_READ_TIMEOUT, CommandResult, FileMissing, FileTooLarge,
                   FileUnreadable, Host, PythonInfo)
from .base import decode as _decode
from .python import ask_python, choose_python, own_python


def _libc() -> Optional[str]:
    try:  # what platform.libc_ver() answers first, without importing platform
        name, ver = os.confstr("CS_GNU_LIBC_VERSION").split(maxsplit=1)
    except (AttributeError, ValueError, OSError):
        import platform

        name, ver = platform.libc_ver()
    return f"{name} {ver}" if name else None


def _uname() -> Tuple[str, str, str, str]:
    """(node, system, release, machine) as platform.uname() gives them, without importing platform (os.uname
    is what platform reads on POSIX)."""
    if hasattr(os, "uname"):
        u = os.uname()
        return u.nodename, u.sysname, u.release, u.machine
    import platform

    return platform.node(), platform.system(), platform.release(), platform.machine()


def _disk_usage(path: str) -> Tuple[int, int]:
    """(total, free) bytes as shutil.disk_usage gives them; shutil (which imports bz2 and lzma) only off POSIX."""
    if hasattr(os, "statvfs"):
        st = os.statvfs(path)
        return st.f_blocks * st.f_frsize, st.f_bavail * st.f_frsize
    import shutil

    du = shutil.disk_usage(path)
    return du.total, du.free


def _which(name: str, path: str) -> Optional[str]:
    """shutil.which(name, path=path): on POSIX its loop (no PATHEXT), without importing shutil at every start."""
    if os.name != "posix":
        import shutil

        return shutil.which(name, path=path)

    def runnable(fn: str) -> bool:
        return os.path.exists(fn) and os.access(fn, os.F_OK | os.X_OK) and not os.path.isdir(fn)

    if os.path.dirname(name):
        return name if runnable(name) else None
    if not path:  # PATH='' finds nothing; PATH=':' looks in the current directory
        return None
    seen = set()
    for d in path.split(os.pathsep):
        if d not in seen:
            seen.add(d)
            candidate = os.path.join(d, name)
            if runnable(candidate):
                return candidate
    return None


class LiveHost(Host):
    """This machine: `/`, `os.environ`, subprocesses with argv lists and timeouts."""

    kind = "live"

    def __init__(self, environ: Optional[Mapping[str, str]] = None, python: Optional[str] = None):
        self._env = dict(os.environ if environ is None else environ)
        self.label = _uname()[0] or "localhost"
        self._python_request = python  # --python PATH, or None for the default choice
        self._python: Optional[PythonInfo] = None

    def read_text(self, path: str, max_bytes: int = DEFAULT_MAX_READ) -> str:
        try:
            if os.path.isdir(path):
                raise FileUnreadable(Text(phrases.FILE_IS_DIRECTORY, path=path))
            # O_NONBLOCK: opening a FIFO nobody writes to would otherwise block the doctor for ever.
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
            # Buffered: its read(n) loops until n bytes or EOF (a /proc file gives a page per read call).
            with os.fdopen(fd, "rb") as fh:
                mode = os.fstat(fd).st_mode
                if stat.S_ISREG(mode):
                    data = fh.read(max_bytes + 1)
                else:  # a pipe (`rank-table /dev/stdin`), a FIFO, a device: read, but never wait for ever
                    data = _read_with_deadline(fd, max_bytes + 1, NON_REGULAR_READ_TIMEOUT, path, mode)
        except FileNotFoundError:
            raise FileMissing(Text(phrases.FILE_DANGLING if os.path.islink(path) else phrases.FILE_MISSING,
                                   path=path)) from None
        except PermissionError:
            raise FileUnreadable(Text(phrases.FILE_DENIED, path=path)) from None
        except OSError as exc:
            raise FileUnreadable(Text(phrases.FILE_OS_ERROR, path=path, reason=os_text(exc))) from None
        if len(data) > max_bytes:
            raise FileTooLarge(Text(phrases.FILE_TOO_LARGE, path=path, limit=max_bytes))
        return _decode(data)

    def exists(self, path: str) -> bool:
        return os.path.exists(path)

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(path)

    def is_file(self, path: str) -> bool:
        return os.path.isfile(path)

    def listdir(self, path: str) -> List[str]:
        try:
            return sorted(os.listdir(path))
        except FileNotFoundError:
            raise FileMissing(Text(phrases.DIR_MISSING, path=path)) from None
        except OSError as exc:
            raise FileUnreadable(Text(phrases.FILE_OS_ERROR, path=path, reason=os_text(exc))) from None

    def realpath(self, path: str) -> str:
        return os.path.realpath(path)

    @property
    def env(self) -> Mapping[str, str]:
        return self._env

    @property
    def python(self) -> PythonInfo:
        """The interpreter that trains: --python, else an activated venv/conda env that is not the doctor's
        own, else the doctor's. Another interpreter is asked once, with a timeout; MindSpore is not imported."""
        if self._python is None:
            exe, why = choose_python(self._python_request, self._env)
            self._python = own_python() if why == "doctor" else ask_python(exe, why)
        return self._python

    def machine(self) -> dict:
        node, system, release, machine = _uname()
        info = {
            "hostname": node,
            "system": system,
            "kernel": release,
            "arch": machine,
            "libc": _libc(),
            "cpu_count": os.cpu_count(),
        }
        info.update(self._memory())
        try:
            info["cpu_count"] = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            pass
        return info

    def _memory(self) -> dict:
        # /proc/meminfo is one small read; importing psutil costs more than the
        # whole check run, so it is only the fallback for systems without /proc.
        text = self.read_text_or_none("/proc/meminfo")
        if text:
            kv = {}
            for line in text.splitlines():
                key, _sep, rest = line.partition(":")
                parts = rest.split()
                if parts and parts[0].isdigit():
                    kv[key] = int(parts[0]) // 1024
            if "MemTotal" in kv:
                out = {"mem_total_mb": kv["MemTotal"]}
                if "MemAvailable" in kv:
                    out["mem_available_mb"] = kv["MemAvailable"]
                return out
        try:
            import psutil

            vm = psutil.virtual_memory()
            return {"mem_total_mb": vm.total // (1 << 20), "mem_available_mb": vm.available // (1 << 20)}
        except Exception:  # psutil missing or unusable: memory stays unknown
            return {}

    def disk_usage(self, path: str) -> Optional[dict]:
        probe = path
        while probe and not os.path.exists(probe):
            parent = os.path.dirname(probe)
            if parent == probe:
                break
            probe = parent
        try:
            total, free = _disk_usage(probe or "/")
        except OSError:
            return None
        return {"total_mb": total // (1 << 20), "free_mb": free // (1 << 20), "mount_probe": probe}

    def which(self, name: str) -> Optional[str]:
        return _which(name, self._env.get("PATH", os.defpath))

    def _non_executable(self, name: str) -> Optional[str]:
        """A file called `name` on PATH that `which` skipped because it cannot be executed."""
        for d in self._env.get("PATH", os.defpath).split(os.pathsep):
            cand = os.path.join(d or ".", name)
            if os.path.isfile(cand) and not os.access(cand, os.X_OK):
                return cand
        return None

    def run(self, argv: Sequence[str], timeout: float = 10.0) -> CommandResult:
        argv = [str(a) for a in argv]
        exe = argv[0] if "/" in argv[0] else self.which(argv[0])
        if exe is None:
            # Installed but not executable (a half-finished install, a noexec mount): that is a
            # fault to report, not an absent tool.
            bad = self._non_executable(argv[0]) if "/" not in argv[0] else None
            if bad:
                return CommandResult(argv, None, stderr=f"{bad}: not executable", error="not-executable")
            return CommandResult(argv, None, error="not-found")
        try:
            done = run_captured([exe] + argv[1:], timeout, env=dict(self._env))
        except FileNotFoundError:
            return CommandResult(argv, None, error="not-found")
        except PermissionError:
            return CommandResult(argv, None, error="not-executable")
        except OSError as exc:
            return CommandResult(argv, None, stderr=str(exc), error="failed-to-start")
        result = CommandResult(argv, done.returncode, _decode(done.stdout), _decode(done.stderr), done.ms,
                               error="timeout" if done.timed_out else None)
        if done.truncated:
            result.stderr += f"\n[ascend-doctor: output cut at {MAX_COMMAND_OUTPUT >> 20} MiB]"
        return result


# The registry of running children lives in process.py; these names are kept for older imports.
track_process, untrack_process, kill_running_commands = track, untrack, kill_running


def _read_with_deadline(fd: int, limit: int, timeout: float, path: str, mode: int) -> bytes:
    import select

    chunks: List[bytes] = []
    size = 0
    deadline = time.monotonic() + timeout
    while size < limit:
        try:
            # A FIFO nobody has opened for writing reads as empty at once; one with a silent writer
            # says "try again", and then we wait for data, but only until the deadline.
            chunk = os.read(fd, min(65536, limit - size))
        except BlockingIOError:
            left = deadline - time.monotonic()
            if left <= 0:
                raise FileUnreadable(Text(phrases.FILE_NO_END, path=path, kind=_file_kind(mode),
                                                           seconds=f"{timeout:g}")) from None
            select.select([fd], [], [], min(left, 0.5))
            continue
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _file_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return Text(phrases.FILE_KIND_FIFO)
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return Text(phrases.FILE_KIND_DEVICE)
    if stat.S_ISSOCK(mode):
        return Text(phrases.FILE_KIND_SOCKET)
    return Text(phrases.FILE_KIND_OTHER)
