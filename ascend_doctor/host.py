"""The one door to the machine being diagnosed.

Every probe reads files, the environment and command output through a Host.
`LiveHost` reads this machine; `SnapshotHost` reads a collected snapshot (a
customer's bundle or a test fixture) laid out as::

    <snapshot>/manifest.json   {"format": "ascend-doctor-snapshot/1", "hostname", "created",
                                "python": {"version", "executable", "site_packages": [...]},
                                "machine": {...}}
    <snapshot>/env.json        the environment, as a JSON object
    <snapshot>/root/...        files at their absolute paths
    <snapshot>/commands.json   [{"argv": [...], "rc": 0, "stdout": "...", "stderr": "", "duration_ms": 812}]

Because both hosts answer the same questions, the same probe code diagnoses
this machine, a bundle, and a fixture.
"""

from __future__ import annotations

import fnmatch
import json
import os
import posixpath
import stat
import sys
import time
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from . import phrases
from .i18n import N_, _
from .i18n_text import Text
from .process import MAX_COMMAND_OUTPUT, kill_running, run_captured, track, untrack  # noqa: F401 (re-exported)
from .reasons import json_reason, os_reason, os_text
from .records import dataclass, field

SNAPSHOT_FORMAT = "ascend-doctor-snapshot/1"
# Marks a directory that was empty on the collected machine, so that git (which
# drops empty directories) keeps fixture snapshots whole. Never listed.
KEEP_MARKER = ".snapshot-keep"

# A version file is a few hundred bytes; anything beyond this is not one.
DEFAULT_MAX_READ = 1 << 20
# Pipes, FIFOs and devices have no size: reading one stops at this deadline.
NON_REGULAR_READ_TIMEOUT = 10.0


class HostError(Exception):
    """A question the host could not answer (the message says which path and why).

    Raised with an i18n_text.Text made from a phrase of phrases.py: the message is a fact (probes keep it,
    `phrases.error_text(exc)`, and a saved report is judged again later), so it is English, and a check shows
    it in the run's language with `i18n_text.localized()`.
    """


class FileMissing(HostError):
    pass


class FileUnreadable(HostError):
    pass


class FileTooLarge(HostError):
    pass


@dataclass
class CommandResult:
    """What running a command gave. `error` is None when the command ran to completion.

    error values: "not-found" (no such program), "not-recorded" (a snapshot has no
    record of it), "timeout", "not-executable", "failed-to-start".
    """

    argv: List[str]
    rc: Optional[int]
    stdout: str = ""
    stderr: str = ""
    duration_ms: int = 0
    error: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.rc == 0

    @property
    def available(self) -> bool:
        """The program exists (on the live machine, or in the snapshot's record)."""
        return self.error not in ("not-found", "not-recorded")

    def describe(self) -> str:
        cmd = " ".join(self.argv)
        if self.error == "timeout":
            return Text(phrases.COMMAND_TIMEOUT, command=cmd)
        if self.error in ("not-found", "not-recorded"):
            return Text(phrases.COMMAND_MISSING, command=cmd)
        if self.error:
            return Text(phrases.COMMAND_NOT_RUN, command=cmd, error=self.error)
        return Text(phrases.COMMAND_EXIT, command=cmd, code=self.rc)

    def to_json(self) -> dict:
        return {
            "argv": list(self.argv),
            "rc": self.rc,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "duration_ms": self.duration_ms,
            **({"error": self.error} if self.error else {}),
        }


@dataclass
class PythonInfo:
    version: str
    executable: str
    implementation: str = "CPython"
    site_packages: List[str] = field(default_factory=list)
    # Why this interpreter is the one judged: "doctor" (the one running the doctor), "--python",
    # "VIRTUAL_ENV" or "CONDA_PREFIX" (an activated environment that is not the doctor's own).
    chosen_by: str = "doctor"
    error: Optional[str] = None  # the interpreter could not be asked (then version is "")
    # Whether which("python") answers about the machine: always live; in a snapshot only when `collect`
    # looked (older snapshots and hand-built ones did not, and their PATH holds no interpreter files).
    launchers_recorded: bool = True


class Host:
    """Interface shared by the live machine and snapshots. Paths are absolute POSIX paths."""

    kind = "abstract"
    label = ""

    # -- files ---------------------------------------------------------------
    def read_text(self, path: str, max_bytes: int = DEFAULT_MAX_READ) -> str:
        raise NotImplementedError

    def exists(self, path: str) -> bool:
        raise NotImplementedError

    def is_dir(self, path: str) -> bool:
        raise NotImplementedError

    def is_file(self, path: str) -> bool:
        raise NotImplementedError

    def listdir(self, path: str) -> List[str]:
        raise NotImplementedError

    def realpath(self, path: str) -> str:
        raise NotImplementedError

    def glob(self, pattern: str) -> List[str]:
        """Expand a glob with `*`, `?` and `[...]` in any component (no `**`). Sorted."""
        parts = [p for p in pattern.split("/") if p]
        found = ["/"]
        for part in parts:
            nxt = []
            magic = any(c in part for c in "*?[")
            for base in found:
                if magic:
                    try:
                        names = self.listdir(base)
                    except HostError:
                        continue
                    nxt.extend(posixpath.join(base, n) for n in names if fnmatch.fnmatchcase(n, part))
                else:
                    cand = posixpath.join(base, part)
                    if self.exists(cand):
                        nxt.append(cand)
            found = nxt
            if not found:
                break
        return sorted(found)

    def read_text_or_none(self, path: str, max_bytes: int = DEFAULT_MAX_READ) -> Optional[str]:
        try:
            return self.read_text(path, max_bytes)
        except HostError:
            return None

    # -- environment and machine --------------------------------------------
    @property
    def env(self) -> Mapping[str, str]:
        raise NotImplementedError

    @property
    def python(self) -> PythonInfo:
        raise NotImplementedError

    def machine(self) -> dict:
        """Facts only the OS can give: hostname, kernel, arch, CPUs, memory, disks.

        Keys: hostname, system, kernel, arch, libc (e.g. "glibc 2.36"), cpu_count,
        mem_total_mb, mem_available_mb, disks ({path: {"total_mb", "free_mb"}}).
        Missing keys mean unknown.
        """
        raise NotImplementedError

    def disk_usage(self, path: str) -> Optional[dict]:
        """{"total_mb", "free_mb"} of the filesystem holding `path`, or None."""
        raise NotImplementedError

    # -- commands -----------------------------------------------------------
    def which(self, name: str) -> Optional[str]:
        raise NotImplementedError

    def run(self, argv: Sequence[str], timeout: float = 10.0) -> CommandResult:
        raise NotImplementedError


# ---------------------------------------------------------------------------
# Live host
# ---------------------------------------------------------------------------

def _python_site_packages() -> List[str]:
    import site

    seen: List[str] = []
    candidates: List[str] = []
    try:
        candidates.extend(site.getsitepackages())
    except AttributeError:  # virtualenv's old site.py
        pass
    try:
        candidates.append(site.getusersitepackages())
    except AttributeError:
        pass
    candidates.extend(p for p in sys.path if p.endswith(("site-packages", "dist-packages")))
    for c in candidates:
        if c and os.path.isdir(c) and c not in seen:
            seen.append(c)
    return seen


# sys.implementation.name -> what platform.python_implementation() calls it.
_IMPLEMENTATIONS = {"cpython": "CPython", "pypy": "PyPy", "ironpython": "IronPython", "jython": "Jython"}


def _python_version() -> str:
    """platform.python_version() without importing platform: "3.11.7" (a two-part version gets ".0")."""
    version = sys.version.split()[0]
    return version + ".0" if version.count(".") == 1 else version


def own_python() -> PythonInfo:
    implementation = _IMPLEMENTATIONS.get(sys.implementation.name)
    if implementation is None:  # an interpreter the table does not know: ask platform
        import platform

        implementation = platform.python_implementation()
    return PythonInfo(version=_python_version(), executable=sys.executable,
                      implementation=implementation, site_packages=_python_site_packages())


def _same_prefix(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def choose_python(requested: Optional[str], environ: Mapping[str, str]) -> Tuple[str, str]:
    """(interpreter path, why) - see LiveHost.python."""
    if requested:
        return requested, "--python"
    for var in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        prefix = environ.get(var)
        if not prefix or _same_prefix(prefix, sys.prefix):
            continue
        exe = os.path.join(prefix, "bin", "python")
        if os.path.isfile(exe) and os.access(exe, os.X_OK):
            return exe, var
    return sys.executable, "doctor"


# Run by the judged interpreter: stdlib only, no `site` tricks, works on Python 3.6+ (and says so if older).
_ASK_PYTHON = r"""
import json, os, platform, site, sys
sp = []
for getter in (getattr(site, "getsitepackages", None), getattr(site, "getusersitepackages", None)):
    try:
        got = getter() if getter else []
    except Exception:
        got = []
    sp.extend([got] if isinstance(got, str) else got)
sp.extend(p for p in sys.path if p.endswith(("site-packages", "dist-packages")))
seen = []
for p in sp:
    if p and os.path.isdir(p) and p not in seen:
        seen.append(p)
print(json.dumps({"version": platform.python_version(), "implementation": platform.python_implementation(),
                  "executable": sys.executable, "site_packages": seen}))
"""


def ask_python(exe: str, why: str, timeout: float = 20.0) -> PythonInfo:
    """Facts of another interpreter, from a tiny stdlib script run with it (never an import of MindSpore).
    It runs like every other command (process.run_captured: its group killed at the timeout or on Ctrl-C)."""

    def failed(phrase: str, **values) -> PythonInfo:
        return PythonInfo(version="", executable=exe, chosen_by=why, error=Text(phrase, path=exe, **values))

    if os.path.isdir(exe):
        return failed(phrases.PYTHON_IS_DIRECTORY)
    if not os.path.exists(exe):
        return failed(phrases.FILE_MISSING)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    try:
        # the script on stdin ("-"), not on the command line: a program that is no Python but echoes its arguments
        # (/bin/ls: "cannot access '-'") must not print the script into the one-line error
        proc = run_captured([exe, "-"], timeout, env=env, stdin=_ASK_PYTHON.encode())
    except OSError as exc:
        return failed(phrases.PYTHON_CANNOT_RUN, reason=os_text(exc))
    if proc.timed_out:
        return failed(phrases.PYTHON_NO_ANSWER, seconds=f"{timeout:g}")
    try:
        data = json.loads(proc.stdout.decode("utf-8", "replace").strip().splitlines()[-1])
        if not isinstance(data, dict):
            raise ValueError
    except (ValueError, IndexError):
        lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        return failed(phrases.PYTHON_NOT_WORKING, code=proc.returncode,
                      output=lines[-1][:200] if lines else Text(phrases.PYTHON_NO_OUTPUT))
    return PythonInfo(version=str(data.get("version") or ""), executable=str(data.get("executable") or exe),
                      implementation=str(data.get("implementation") or "CPython"),
                      site_packages=[str(p) for p in data.get("site_packages") or []], chosen_by=why)


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


def _decode(data: bytes) -> str:
    text = data.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


# ---------------------------------------------------------------------------
# Snapshot host
# ---------------------------------------------------------------------------

class SnapshotError(Exception):
    """The snapshot itself is unusable (message names the file and what was expected)."""


class SnapshotHost(Host):
    """A collected snapshot directory (already unpacked; see `bundle.open_bundle`)."""

    kind = "snapshot"

    def __init__(self, directory: str):
        self.directory = os.path.abspath(directory)
        self._root = os.path.join(self.directory, "root")
        # These are read with the OS's own path resolution: as links they could point anywhere on
        # the support engineer's disk (a customer bundle is untrusted), so they must be real entries.
        for name in ("manifest.json", "env.json", "commands.json", "root"):
            if os.path.islink(os.path.join(self.directory, name)):
                raise SnapshotError(_("{path}: is a symbolic link, expected a file or directory inside the snapshot; "
                                      "refused").format(path=os.path.join(self.directory, name)))
        manifest_path = os.path.join(self.directory, "manifest.json")
        self.manifest = _load_json(manifest_path, dict)
        fmt = self.manifest.get("format")
        if fmt != SNAPSHOT_FORMAT:
            raise SnapshotError(_("{path}: field 'format' is {value}, expected {expected}").format(
                path=manifest_path, value=repr(fmt), expected=repr(SNAPSHOT_FORMAT)))
        _check_manifest_shape(self.manifest, manifest_path)
        env_path = os.path.join(self.directory, "env.json")
        env = _load_json(env_path, dict) if os.path.exists(env_path) else {}
        bad = [k for k, v in env.items() if not isinstance(v, str)]
        if bad:
            raise SnapshotError(_("{path}: value of {name} is not a string, expected every value to be a string").format(
                path=env_path, name=repr(bad[0])))
        self._env = env
        cmd_path = os.path.join(self.directory, "commands.json")
        records = _load_json(cmd_path, list) if os.path.exists(cmd_path) else []
        self._commands: Dict[tuple, dict] = {}
        for i, rec in enumerate(records):
            argv = rec.get("argv") if isinstance(rec, dict) else None
            if not (isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv)):
                raise SnapshotError(_("{path}: [{index}].argv is missing or not a list of strings").format(
                    path=cmd_path, index=i))
            self._commands[tuple(argv)] = rec
        self.label = str(self.manifest.get("hostname") or os.path.basename(self.directory))

    # Paths inside the snapshot. Links are resolved *within* the snapshot root:
    # an absolute link target means the same path on the collected machine.
    def _resolve(self, path: str, depth: int = 0) -> str:
        if depth > 40:
            raise FileUnreadable(Text(phrases.FILE_LINK_LOOP, path=path))
        path = posixpath.normpath("/" + path.lstrip("/"))
        parts = [p for p in path.split("/") if p]
        cur = "/"
        for i, part in enumerate(parts):
            if part == "..":
                cur = posixpath.dirname(cur)
                continue
            cand = posixpath.join(cur, part)
            local = self._root + cand
            if os.path.islink(local):
                target = os.readlink(local)
                if not target.startswith("/"):
                    target = posixpath.join(cur, target)
                rest = "/".join(parts[i + 1:])
                return self._resolve(posixpath.join(target, rest) if rest else target, depth + 1)
            cur = cand
        return cur

    def _local(self, path: str) -> str:
        return self._root + self._resolve(path)

    def local_path(self, path: str) -> Optional[str]:
        """Where a file of the snapshot lies on this disk (for streaming big logs), or None."""
        try:
            local = self._local(path)
        except HostError:
            return None
        return local if os.path.isfile(local) and not os.path.exists(local + ".unreadable") else None

    def read_text(self, path: str, max_bytes: int = DEFAULT_MAX_READ) -> str:
        local = self._local(path)
        if os.path.isdir(local):
            raise FileUnreadable(Text(phrases.FILE_IS_DIRECTORY, path=path))
        if not os.path.isfile(local):
            raise FileMissing(Text(phrases.FILE_MISSING_IN_SNAPSHOT, path=path))
        marker = local + ".unreadable"
        if os.path.exists(marker):  # collected as "permission denied" on the source machine
            raise FileUnreadable(Text(phrases.FILE_DENIED_COLLECTED, path=path))
        with open(local, "rb") as fh:
            data = fh.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise FileTooLarge(Text(phrases.FILE_TOO_LARGE, path=path, limit=max_bytes))
        return _decode(data)

    def exists(self, path: str) -> bool:
        try:
            return os.path.lexists(self._local(path))
        except HostError:
            return False

    def is_dir(self, path: str) -> bool:
        try:
            return os.path.isdir(self._local(path))
        except HostError:
            return False

    def is_file(self, path: str) -> bool:
        try:
            return os.path.isfile(self._local(path))
        except HostError:
            return False

    def listdir(self, path: str) -> List[str]:
        local = self._local(path)
        if not os.path.isdir(local):
            raise FileMissing(Text(phrases.DIR_MISSING_IN_SNAPSHOT, path=path))
        return sorted(n for n in os.listdir(local) if not n.endswith(".unreadable") and n != KEEP_MARKER)

    def realpath(self, path: str) -> str:
        try:
            return self._resolve(path)
        except HostError:
            return path

    @property
    def env(self) -> Mapping[str, str]:
        return self._env

    @property
    def python(self) -> PythonInfo:
        py = self.manifest.get("python") or {}
        return PythonInfo(
            version=str(py.get("version") or ""),
            executable=str(py.get("executable") or ""),
            implementation=str(py.get("implementation") or "CPython"),
            site_packages=[str(p) for p in py.get("site_packages") or []],
            chosen_by=str(py.get("chosen_by") or "doctor"),
            launchers_recorded=py.get("launchers_recorded") is True,
        )

    def machine(self) -> dict:
        m = dict(self.manifest.get("machine") or {})
        m.setdefault("hostname", self.manifest.get("hostname"))
        return m

    def disk_usage(self, path: str) -> Optional[dict]:
        disks = (self.manifest.get("machine") or {}).get("disks") or {}
        best = None
        for mount, usage in disks.items():
            if (path == mount or path.startswith(mount.rstrip("/") + "/")) and (best is None or len(mount) > len(best)):
                best = mount
        if best is None:
            return None
        out = dict(disks[best])
        out["mount_probe"] = best
        return out

    def which(self, name: str) -> Optional[str]:
        for d in self._env.get("PATH", "").split(":"):
            if d and self.is_file(posixpath.join(d, name)):
                return posixpath.join(d, name)
        for argv in self._commands:
            if argv[0] == name or posixpath.basename(argv[0]) == name:
                return argv[0]
        return None

    def run(self, argv: Sequence[str], timeout: float = 10.0) -> CommandResult:
        argv = [str(a) for a in argv]
        rec = self._commands.get(tuple(argv))
        if rec is None:
            return CommandResult(argv, None, error="not-recorded")
        return CommandResult(
            argv,
            rec.get("rc"),
            str(rec.get("stdout") or ""),
            str(rec.get("stderr") or ""),
            int(rec.get("duration_ms") or 0),
            error=rec.get("error"),
        )


def _check_manifest_shape(manifest: dict, path: str) -> None:
    """The manifest fields SnapshotHost reads must have the types it reads them as."""
    def bad(field: str, message: str):
        raise SnapshotError(_(message).format(path=path, field=repr(field), type=type(value).__name__))

    for key in ("python", "machine"):
        value = manifest.get(key)
        if value is not None and not isinstance(value, dict):
            bad(key, N_("{path}: field {field} is {type}, expected an object"))
    value = (manifest.get("python") or {}).get("site_packages")
    if value is not None and not (isinstance(value, list) and all(isinstance(p, str) for p in value)):
        bad("python.site_packages", N_("{path}: field {field} is {type}, expected a list of paths"))
    value = (manifest.get("machine") or {}).get("disks")
    if value is not None and not (isinstance(value, dict) and all(isinstance(d, dict) for d in value.values())):
        bad("machine.disks", N_("{path}: field {field} is {type}, expected an object of {{mount: {{total_mb, free_mb}}}}"))


def _load_json(path: str, expected_type: type):
    try:
        with open(path, "rb") as fh:
            raw = fh.read(64 << 20)
    except FileNotFoundError:
        raise SnapshotError(_("{path}: missing, expected a snapshot file").format(path=path)) from None
    except OSError as exc:
        raise SnapshotError(_("{path}: cannot read ({reason})").format(path=path, reason=os_reason(exc))) from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise SnapshotError(_("{path}: not UTF-8 text, expected JSON").format(path=path)) from None
    except json.JSONDecodeError as exc:
        raise SnapshotError(_("{path}: line {line} column {column}: {error}, expected valid JSON").format(
            path=path, line=exc.lineno, column=exc.colno, error=json_reason(exc))) from None
    if not isinstance(data, expected_type):
        raise SnapshotError(_("{path}: top level is {type}, expected {expected}").format(
            path=path, type=type(data).__name__, expected=expected_type.__name__))
    return data
