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
