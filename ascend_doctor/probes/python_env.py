"""The Python interpreter that trains: the doctor's own, --python, or an activated venv/conda env."""

from __future__ import annotations

from ..facts import PythonFacts
from ..host import Host


def probe_python(host: Host, options) -> PythonFacts:
    py = host.python
    facts = PythonFacts(version=py.version or None, executable=py.executable or None,
                        implementation=py.implementation, site_packages=list(py.site_packages),
                        chosen_by=getattr(py, "chosen_by", "doctor") or "doctor")
    if getattr(py, "error", None):
        facts.errors.append(py.error)
    elif not py.version:
        facts.errors.append("Python version not recorded")
    return facts
