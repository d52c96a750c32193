"""Write a file so that readers see the old content or the new, never half of it."""

from __future__ import annotations

import os
import stat
import tempfile
from typing import Union


def write_atomic(path: str, data: Union[str, bytes]) -> None:
    """Write to a temporary file in the same directory, fsync, then rename over `path`.

    A `path` that is a device or a FIFO (`-o /dev/null`, `-o /dev/stdout`) is written into, never
    renamed over; a symbolic link is followed, so the link stays and its target gets the new content.

    Raises OSError (disk full, no permission, missing directory); the temporary
    file is removed and `path` keeps its previous content.
    """
    path = os.path.realpath(path)  # `-o link`: write the file the link names, keep the link
    try:
        mode_now = os.stat(path).st_mode
    except OSError:
        mode_now = None
    if mode_now is not None and not stat.S_ISREG(mode_now) and not stat.S_ISDIR(mode_now):
        # /dev/null, /dev/stdout, a FIFO: write into it; renaming over it would replace the device
        # (as root, `-o /dev/null` once turned /dev/null into a regular file for the whole machine)
        with open(path, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        return
    directory = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
