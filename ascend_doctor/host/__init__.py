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

from .base import (DEFAULT_MAX_READ, KEEP_MARKER, NON_REGULAR_READ_TIMEOUT, SNAPSHOT_FORMAT,  # noqa: F401
                   CommandResult, FileMissing, FileTooLarge, FileUnreadable, Host, HostError, PythonInfo)

# The hosts themselves are imported when first named (`from ascend_doctor.host import SnapshotHost`): a run
# on a bundle never loads the live host, and `--help` neither.
_LAZY = {"LiveHost": "live", "kill_running_commands": "live", "track_process": "live", "untrack_process": "live",
         "ask_python": "python", "choose_python": "python", "own_python": "python",
         "SnapshotError": "snapshot", "SnapshotHost": "snapshot", "MAX_COMMAND_OUTPUT": "live"}


def __getattr__(name):
    module = _LAZY.get(name)
    if module == "live":
        from . import live as found
    elif module == "python":
        from . import python as found
    elif module == "snapshot":
        from . import snapshot as found
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(found, name)
    globals()[name] = value
    return value


__all__ = ["DEFAULT_MAX_READ", "KEEP_MARKER", "NON_REGULAR_READ_TIMEOUT", "SNAPSHOT_FORMAT", "CommandResult",
           "FileMissing", "FileTooLarge", "FileUnreadable", "Host", "HostError", "PythonInfo", *_LAZY]
