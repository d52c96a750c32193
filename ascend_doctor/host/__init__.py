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

from ..process import MAX_COMMAND_OUTPUT  # noqa: F401
from .base import (DEFAULT_MAX_READ, KEEP_MARKER, NON_REGULAR_READ_TIMEOUT, SNAPSHOT_FORMAT,  # noqa: F401
                   CommandResult, FileMissing, FileTooLarge, FileUnreadable, Host, HostError, PythonInfo)
from .live import LiveHost, kill_running_commands, track_process, untrack_process  # noqa: F401
from .python import ask_python, choose_python, own_python  # noqa: F401
from .snapshot import SnapshotError, SnapshotHost  # noqa: F401
