"""The Python interpreter the doctor runs in (and so the one MindSpore would run in)."""

from __future__ import annotations

from ..facts import PythonFacts
from ..host import Host


def probe_python(host: Host, options) -> PythonFacts:
    py = host.python
    facts = PythonFacts(version=py.version or None, executable=py.executable or None,
                        implementation=py.implementation, site_packages=list(py.site_packages))
    if not py.version:
        facts.errors.append("Python version not recorded")
    return facts
