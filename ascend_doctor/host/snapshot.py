"""SnapshotHost: a collected snapshot (a customer's bundle, a test fixture, an example), read as the machine."""

from __future__ import annotations

import json
import os
import posixpath
from typing import Dict, List, Mapping, Optional, Sequence

from .. import phrases
from ..i18n import N_, _
from ..i18n_text import Text
from ..reasons import json_reason, os_reason
from ..records import field
from .base import (DEFAULT_MAX_READ, KEEP_MARKER, SNAPSHOT_FORMAT, CommandResult, FileMissing, FileTooLarge,
                   FileUnreadable, Host, HostError, PythonInfo)
from .base import decode as _decode


class SnapshotError(Exception):
    """The snapshot itself is unusable (message names the file and what was expected)."""


class SnapshotHost(Host):
    """A collected snapshot directory (already unpacked; see `bundle.open_bundle`)."""

    kind = "snapshot"

    def __init__(self, directory: str):
        self.directory = os.path.abspath(directory)
        self._root = os.path.join(self.directory, "root")
        # These are read with the OS's own path resolution: as links they could point anywhere on
        # the support engineer's disk (a customer bundle is untrusted), so they must be real entries.
        for name in ("manifest.json", "env.json", "commands.json", "root"):
            if os.path.islink(os.path.join(self.directory, name)):
                raise SnapshotError(_("{path}: is a symbolic link, expected a file or directory inside the snapshot; "
                                      "refused").format(path=os.path.join(self.directory, name)))
        manifest_path = os.path.join(self.directory, "manifest.json")
        self.manifest = _load_json(manifest_path, dict)
        fmt = self.manifest.get("format")
        if fmt != SNAPSHOT_FORMAT:
            raise SnapshotError(_("{path}: field 'format' is {value}, expected {expected}").format(
                path=manifest_path, value=repr(fmt), expected=repr(SNAPSHOT_FORMAT)))
        _check_manifest_shape(self.manifest, manifest_path)
        env_path = os.path.join(self.directory, "env.json")
        env = _load_json(env_path, dict) if os.path.exists(env_path) else {}
        bad = [k for k, v in env.items() if not isinstance(v, str)]
        if bad:
            raise SnapshotError(_("{path}: value of {name} is not a string, expected every value to be a string").format(
                path=env_path, name=repr(bad[0])))
        self._env = env
        cmd_path = os.path.join(self.directory, "commands.json")
        records = _load_json(cmd_path, list) if os.path.exists(cmd_path) else []
        self._commands: Dict[tuple, dict] = {}
        for i, rec in enumerate(records):
            argv = rec.get("argv") if isinstance(rec, dict) else None
            if not (isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv)):
                raise SnapshotError(_("{path}: [{index}].argv is missing or not a list of strings").format(
                    path=cmd_path, index=i))
            self._commands[tuple(argv)] = rec
        self.label = str(self.manifest.get("hostname") or os.path.basename(self.directory))

    # Paths inside the snapshot. Links are resolved *within* the snapshot root:
    # an absolute link target means the same path on the collected machine.
    def _resolve(self, path: str, depth: int = 0) -> str:
        if depth > 40:
            raise FileUnreadable(Text(phrases.FILE_LINK_LOOP, path=path))
        path = posixpath.normpath("/" + path.lstrip("/"))
        parts = [p for p in path.split("/") if p]
        cur = "/"
        for i, part in enumerate(parts):
            if part == "..":
                cur = posixpath.dirname(cur)
                continue
            cand = posixpath.join(cur, part)
            local = self._root + cand
            if os.path.islink(local):
                target = os.readlink(local)
                if not target.startswith("/"):
                    target = posixpath.join(cur, target)
                rest = "/".join(parts[i + 1:])
                return self._resolve(posixpath.join(target, rest) if rest else target, depth + 1)
            cur = cand
        return cur

    def _local(self, path: str) -> str:
        return self._root + self._resolve(path)

    def local_path(self, path: str) -> Optional[str]:
        """Where a file of the snapshot lies on this disk (for streaming big logs), or None."""
        try:
            local = self._local(path)
        except HostError:
            return None
        return local if os.path.isfile(local) and not os.path.exists(local + ".unreadable") else None

    def read_text(self, path: str, max_bytes: int = DEFAULT_MAX_READ) -> str:
        local = self._local(path)
        if os.path.isdir(local):
            raise FileUnreadable(Text(phrases.FILE_IS_DIRECTORY, path=path))
        if not os.path.isfile(local):
            raise FileMissing(Text(phrases.FILE_MISSING_IN_SNAPSHOT, path=path))
        marker = local + ".unreadable"
        if os.path.exists(marker):  # collected as "permission denied" on the source machine
            raise FileUnreadable(Text(phrases.FILE_DENIED_COLLECTED, path=path))
        with open(local, "rb") as fh:
            data = fh.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise FileTooLarge(Text(phrases.FILE_TOO_LARGE, path=path, limit=max_bytes))
        return _decode(data)

    def exists(self, path: str) -> bool:
        try:
            return os.path.lexists(self._local(path))
        except HostError:
            return False

    def is_dir(self, path: str) -> bool:
        try:
            return os.path.isdir(self._local(path))
        except HostError:
            return False

    def is_file(self, path: str) -> bool:
        try:
            return os.path.isfile(self._local(path))
        except HostError:
            return False

    def listdir(self, path: str) -> List[str]:
        local = self._local(path)
        if not os.path.isdir(local):
            raise FileMissing(Text(phrases.DIR_MISSING_IN_SNAPSHOT, path=path))
        return sorted(n for n in os.listdir(local) if not n.endswith(".unreadable") and n != KEEP_MARKER)

    def realpath(self, path: str) -> str:
        try:
            return self._resolve(path)
        except HostError:
            return path

    @property
    def env(self) -> Mapping[str, str]:
        return self._env

    @property
    def python(self) -> PythonInfo:
        py = self.manifest.get("python") or {}
        return PythonInfo(
            version=str(py.get("version") or ""),
            executable=str(py.get("executable") or ""),
            implementation=str(py.get("implementation") or "CPython"),
            site_packages=[str(p) for p in py.get("site_packages") or []],
            chosen_by=str(py.get("chosen_by") or "doctor"),
            launchers_recorded=py.get("launchers_recorded") is True,
        )

    def machine(self) -> dict:
        m = dict(self.manifest.get("machine") or {})
        m.setdefault("hostname", self.manifest.get("hostname"))
        return m

    def disk_usage(self, path: str) -> Optional[dict]:
        disks = (self.manifest.get("machine") or {}).get("disks") or {}
        best = None
        for mount, usage in disks.items():
            if (path == mount or path.startswith(mount.rstrip("/") + "/")) and (best is None or len(mount) > len(best)):
                best = mount
        if best is None:
            return None
        out = dict(disks[best])
        out["mount_probe"] = best
        return out

    def which(self, name: str) -> Optional[str]:
        for d in self._env.get("PATH", "").split(":"):
            if d and self.is_file(posixpath.join(d, name)):
                return posixpath.join(d, name)
        for argv in self._commands:
            if argv[0] == name or posixpath.basename(argv[0]) == name:
                return argv[0]
        return None

    def run(self, argv: Sequence[str], timeout: float = 10.0) -> CommandResult:
        argv = [str(a) for a in argv]
        rec = self._commands.get(tuple(argv))
        if rec is None:
            return CommandResult(argv, None, error="not-recorded")
        return CommandResult(
            argv,
            rec.get("rc"),
            str(rec.get("stdout") or ""),
            str(rec.get("stderr") or ""),
            int(rec.get("duration_ms") or 0),
            error=rec.get("error"),
        )


def _check_manifest_shape(manifest: dict, path: str) -> None:
    """The manifest fields SnapshotHost reads must have the types it reads them as."""
    def bad(field: str, message: str):
        raise SnapshotError(_(message).format(path=path, field=repr(field), type=type(value).__name__))

    for key in ("python", "machine"):
        value = manifest.get(key)
        if value is not None and not isinstance(value, dict):
            bad(key, N_("{path}: field {field} is {type}, expected an object"))
    value = (manifest.get("python") or {}).get("site_packages")
    if value is not None and not (isinstance(value, list) and all(isinstance(p, str) for p in value)):
        bad("python.site_packages", N_("{path}: field {field} is {type}, expected a list of paths"))
    value = (manifest.get("machine") or {}).get("disks")
    if value is not None and not (isinstance(value, dict) and all(isinstance(d, dict) for d in value.values())):
        bad("machine.disks", N_("{path}: field {field} is {type}, expected an object of {{mount: {{total_mb, free_mb}}}}"))


def _load_json(path: str, expected_type: type):
    try:
        with open(path, "rb") as fh:
            raw = fh.read(64 << 20)
    except FileNotFoundError:
        raise SnapshotError(_("{path}: missing, expected a snapshot file").format(path=path)) from None
    except OSError as exc:
        raise SnapshotError(_("{path}: cannot read ({reason})").format(path=path, reason=os_reason(exc))) from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise SnapshotError(_("{path}: not UTF-8 text, expected JSON").format(path=path)) from None
    except json.JSONDecodeError as exc:
        raise SnapshotError(_("{path}: line {line} column {column}: {error}, expected valid JSON").format(
            path=path, line=exc.lineno, column=exc.colno, error=json_reason(exc))) from None
    if not isinstance(data, expected_type):
        raise SnapshotError(_("{path}: top level is {type}, expected {expected}").format(
            path=path, type=type(data).__name__, expected=expected_type.__name__))
    return data
