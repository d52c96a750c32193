"""Write a snapshot directory in the layout `SnapshotHost` reads.

Used by `collect` (a customer's machine), by the test fixtures and by the
examples, so all three share one layout.
"""

from __future__ import annotations

import datetime
import json
import os
from typing import Iterable, List, Mapping, Optional

from .host import KEEP_MARKER, SNAPSHOT_FORMAT, CommandResult


def write_snapshot(
    directory: str,
    *,
    hostname: str,
    files: Mapping[str, str] = None,
    env: Mapping[str, str] = None,
    commands: Iterable = (),
    python: Optional[dict] = None,
    machine: Optional[dict] = None,
    symlinks: Mapping[str, str] = None,
    dirs: Iterable[str] = (),
    unreadable: Iterable[str] = (),
    extra_manifest: Optional[dict] = None,
) -> str:
    """files: {"/abs/path": text}; symlinks: {"/abs/link": "target"}; commands: CommandResult or dicts."""
    os.makedirs(directory, exist_ok=True)
    root = os.path.join(directory, "root")
    os.makedirs(root, exist_ok=True)
    for d in dirs:
        os.makedirs(root + "/" + d.lstrip("/"), exist_ok=True)
    for path, text in (files or {}).items():
        local = root + "/" + path.lstrip("/")
        os.makedirs(os.path.dirname(local), exist_ok=True)
        with open(local, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
    for path in unreadable:
        local = root + "/" + path.lstrip("/")
        os.makedirs(os.path.dirname(local), exist_ok=True)
        if not os.path.exists(local):
            open(local, "w").close()
        open(local + ".unreadable", "w").close()
    for link, target in (symlinks or {}).items():
        local = root + "/" + link.lstrip("/")
        os.makedirs(os.path.dirname(local), exist_ok=True)
        if os.path.lexists(local):
            os.unlink(local)
        os.symlink(target, local)
    _mark_empty_dirs(root)
    records: List[dict] = []
    for c in commands:
        records.append(c.to_json() if isinstance(c, CommandResult) else dict(c))
    manifest = {
        "format": SNAPSHOT_FORMAT,
        "hostname": hostname,
        "created": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        "python": python or {"version": "3.9.18", "executable": "/usr/bin/python3", "site_packages": []},
        "machine": machine or {},
    }
    manifest.update(extra_manifest or {})
    _dump(os.path.join(directory, "manifest.json"), manifest)
    _dump(os.path.join(directory, "env.json"), dict(env or {}))
    _dump(os.path.join(directory, "commands.json"), records)
    return directory


def _dump(path: str, data) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, ensure_ascii=False, sort_keys=False)
        fh.write("\n")


def _mark_empty_dirs(root: str) -> None:
    for dirpath, dirnames, filenames in os.walk(root):
        if not dirnames and not filenames:
            open(os.path.join(dirpath, KEEP_MARKER), "w").close()
