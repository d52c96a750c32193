"""The Python interpreter that trains: the doctor's own, --python, or an activated venv/conda env; and the
`python` a launcher (msrun) would start instead."""

from __future__ import annotations

import posixpath
from typing import Optional

from .. import phrases
from ..facts import PythonFacts
from ..host import Host

# msrun starts each worker as `python <script>` unless the script is given with its interpreter
# (mindspore/parallel/cluster/process_entity/_utils.py, _generate_cmd_args_list, MindSpore 2.3-2.10).
LAUNCHED_NAMES = ("python", "python3")


def probe_python(host: Host, options) -> PythonFacts:
    py = host.python
    facts = PythonFacts(version=py.version or None, executable=py.executable or None,
                        implementation=py.implementation, site_packages=list(py.site_packages),
                        chosen_by=getattr(py, "chosen_by", "doctor") or "doctor")
    if getattr(py, "error", None):
        facts.errors.append(py.error)
    elif not py.version:
        facts.errors.append(phrases.PYTHON_VERSION_MISSING)
    if py.launchers_recorded:
        this = interpreter_identity(host, facts.executable) if facts.executable else None
        for name in LAUNCHED_NAMES:
            found = host.which(name)
            facts.on_path[name] = found
            facts.on_path_is_this[name] = (interpreter_identity(host, found) == this) if found and this else None
    return facts


def interpreter_identity(host: Host, path: str) -> Optional[str]:
    """Which Python environment an interpreter path runs: a venv is its directory (its bin/python is a link to
    the base interpreter, whose realpath would wrongly be 'the same'); anything else is its real file."""
    if not path:
        return None
    root = posixpath.dirname(posixpath.dirname(posixpath.normpath(path)))
    if host.is_file(posixpath.join(root, "pyvenv.cfg")):
        return "venv:" + root
    return "file:" + host.realpath(path)
