"""What every host answers: files, the environment, command results; the errors a read gives."""

from __future__ import annotations

import fnmatch
import posixpath
from typing import List, Mapping, Optional, Sequence

from .. import phrases
from ..i18n_text import Text
from ..records import dataclass, field

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
    `i18n_text.error_text(exc)`, and a saved report is judged again later), so it is English, and a check shows
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


def decode(data: bytes) -> str:
    """Command output or file bytes as text: UTF-8 with bad bytes replaced, a BOM dropped."""
    text = data.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text
