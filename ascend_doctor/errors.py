"""Why the doctor stops, and the exit code each reason gives (the CLI alone turns them into a status).

0 nothing at or above --fail-on; 1 findings at or above it; 2 the doctor could not run (bad arguments,
a selection that matches no check, input that is not what it claims, a missing dependency), with a
one-line reason naming file, field and expectation; 130 interrupted (Ctrl-C, as a shell reports
SIGINT); 141 the reader of stdout went away (`| head`, as a shell reports SIGPIPE).
"""

import sys
from typing import Optional

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_CANNOT_RUN = 2
EXIT_INTERRUPTED = 130
EXIT_PIPE = 141


class CliError(Exception):
    """A one-line reason the doctor could not run (exit 2)."""


# Import name -> requirement, as setup.cfg's install_requires declares them (a test keeps the two equal).
RUNTIME_DEPENDENCIES = {"packaging": "packaging>=20", "psutil": "psutil>=5.6", "tabulate": "tabulate>=0.8"}


def missing_dependency(exc: ImportError) -> Optional[str]:
    """The one-line reason for an ImportError of a declared dependency, or None for any other import."""
    name = (getattr(exc, "name", None) or "").split(".", 1)[0]
    if name not in RUNTIME_DEPENDENCIES:
        return None
    from .i18n import _

    req = RUNTIME_DEPENDENCIES[name]
    return _("the Python package {package} that ascend-doctor needs is not importable in {python}; "
             "install it: {python} -m pip install '{requirement}'").format(package=repr(name), python=sys.executable,
                                                                         requirement=req)
