"""Which Python is judged: the doctor's own, or another one asked (--python, VIRTUAL_ENV, CONDA_PREFIX)."""

from __future__ import annotations

import json
import os
import sys
from typing import List, Mapping, Optional, Tuple

from .. import phrases
from ..i18n_text import Text
from ..process import run_captured
from ..reasons import os_text
from .base import PythonInfo


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
