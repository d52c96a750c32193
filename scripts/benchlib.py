"""Pieces the benchmark scripts share."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def install_wheel(tmp: str) -> str:
    """Build this checkout's wheel and install it (with its dependencies) in tmp/venv, as users install it
    (bytecode compiled by pip); returns the venv's ascend-doctor script."""
    print(f"building the wheel and installing it (with its dependencies) in {tmp}/venv ...", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp, REPO], check=True,
                   stdout=subprocess.DEVNULL)
    wheel = next(os.path.join(tmp, n) for n in os.listdir(tmp) if n.endswith(".whl"))
    subprocess.run([sys.executable, "-m", "venv", os.path.join(tmp, "venv")], check=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # a checkout on it makes pip skip the install
    subprocess.run([os.path.join(tmp, "venv", "bin", "python"), "-m", "pip", "install", "-q", wheel], check=True,
                   stdout=subprocess.DEVNULL, env=env)
    return os.path.join(tmp, "venv", "bin", "ascend-doctor")


@contextlib.contextmanager
def scratch_dir(prefix: str, keep: bool):
    """A temporary directory for one benchmark run: removed afterwards, or kept (and named) with --keep."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    try:
        yield tmp
    finally:
        if keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


# A child's peak RSS as the kernel keeps it (wait4's or getrusage's ru_maxrss) is not the child's own: at exec the
# kernel folds the memory the process had before exec into it, and a child that Python starts with vfork or
# posix_spawn had the benchmark's own address space then. So every child of a benchmark holding a knowledge base and a
# generated log "peaked" at the benchmark's size (`/bin/true` started from a 200 MB Python: 211 MB). A small launcher
# (a bare interpreter, ~9 MB) starts the command with fork + exec and writes the peak of what it waited for.
_LAUNCHER = """\
import os, sys
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as fh:
    fh.write("%d" % usage.ru_maxrss)
os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))
"""


def peak_file() -> str:
    """A new file for the launcher to write a command's peak into (outside any tree a benchmark gives triage)."""
    fd, path = tempfile.mkstemp(prefix="bench-peak-")
    os.close(fd)
    return path


def measured(argv, peak_path: str) -> list:
    """`argv` started through the launcher, which writes the peak RSS (KB) of the command's process tree to
    `peak_path` (from peak_file; read it with peak_mb once the command has ended)."""
    return [sys.executable, "-I", "-S", "-c", _LAUNCHER, peak_path] + list(argv)


def peak_mb(peak_path: str) -> float:
    """The peak RSS in MB that the launcher of `measured` wrote (the largest process of the command's tree); the
    file is removed."""
    try:
        with open(peak_path) as fh:
            return int(fh.read().strip() or 0) / 1024
    finally:
        os.unlink(peak_path)
