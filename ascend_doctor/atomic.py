"""Write a file so that readers see the old content or the new, never half of it."""

from __future__ import annotations

import contextlib
import os
import stat
from typing import Iterable, Iterator, Optional, Tuple, Union


def current_umask() -> int:
    """This process's umask, read without changing it where Linux says it (/proc/self/status, 4.7+)."""
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # the only portable way to read it: set, then put it back at once
    os.umask(mask)
    return mask


def _special(path: str) -> bool:
    """True for a path that exists and is neither a regular file nor a directory: /dev/null, /dev/stdout, a FIFO.
    Renaming over one would replace it (as root, `-o /dev/null` once turned /dev/null into a regular file
    for the whole machine): it is written into instead."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _mkstemp(prefix: str, suffix: str, directory: Optional[str]) -> Tuple[int, str]:
    """tempfile.mkstemp's file (created exclusively, mode 0600, not inherited by children) without importing
    tempfile, which brings shutil, random and bz2 (~4 ms of every node summary's start-up)."""
    if directory is None:
        import tempfile

        directory = tempfile.gettempdir()
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) \
        | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        name = os.path.join(directory, f"{prefix}{os.urandom(6).hex()}{suffix}")
        try:
            return os.open(name, flags, 0o600), os.path.abspath(name)
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {directory}")


@contextlib.contextmanager
def replacing(path: str, prefix: Optional[str] = None, suffix: str = ".tmp") -> Iterator[Tuple[int, str]]:
    """(fd, name) of a new temporary file for the `with` body to fill (the body owns the fd); when the body
    succeeds it is renamed over `path`, and removed when it raises (`path` keeps its content).

    A symbolic link is followed (the link stays, its target gets the new content). A `path` that is a device
    or a FIFO is never renamed over: the body fills a temporary file in the system's temporary directory,
    whose bytes are then copied into `path`."""
    path = os.path.realpath(path)
    special = _special(path)
    fd, tmp = _mkstemp(prefix or f".{os.path.basename(path)}.", suffix, None if special else os.path.dirname(path))
    try:
        yield fd, tmp
        if special:
            _copy_into(tmp, path)
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _copy_into(src: str, dest: str) -> None:
    with open(src, "rb") as fin, open(dest, "wb") as fout:
        while True:
            block = fin.read(1 << 20)
            if not block:
                return
            fout.write(block)


def write_atomic(path: str, data: Union[str, bytes, Iterable[Union[str, bytes]]], mode: Optional[int] = None) -> None:
    """Write to a temporary file in the same directory, fsync, then rename over `path`. `data` is text (written as
    UTF-8), bytes, or an iterable of either written one after the other.

    A `path` that is a device or a FIFO (`-o /dev/null`, `-o /dev/stdout`) is written into, never
    renamed over; a symbolic link is followed, so the link stays and its target gets the new content.

    The file gets `mode`, or by default what `open()` would give it: 0666 less the umask (0644 under
    umask 022), so reports are readable by node_exporter and colleagues as any other file the user writes.
    (mkstemp alone would leave every report 0600.) Raises OSError (disk full, no permission, missing
    directory), its strerror in the run's language (the caller shows it); the temporary file is removed
    and `path` keeps its previous content.
    """
    try:
        _write_atomic(path, data, mode)
    except OSError as exc:
        worded = _worded(exc)
        if worded is exc:
            raise
        raise worded from None


def _worded(exc: OSError) -> OSError:
    """`exc` with its reason in the run's language (the same class, errno and file names), or `exc` itself."""
    from .reasons import os_reason  # only on a failure

    reason = os_reason(exc)
    if not exc.strerror or reason == exc.strerror:
        return exc
    return type(exc)(exc.errno, reason, exc.filename, None, exc.filename2)


def _write_atomic(path: str, data: Union[str, bytes, Iterable[Union[str, bytes]]], mode: Optional[int]) -> None:
    chunks = (d.encode("utf-8") if isinstance(d, str) else d
              for d in ([data] if isinstance(data, (str, bytes, bytearray, memoryview)) else data))
    path = os.path.realpath(path)  # `-o link`: write the file the link names, keep the link
    if _special(path):  # /dev/null, /dev/stdout, a FIFO: written into, with no temporary file at all
        with open(path, "wb") as fh:
            for chunk in chunks:
                fh.write(chunk)
        return
    with replacing(path) as (fd, _tmp):
        try:
            os.fchmod(fd, 0o666 & ~current_umask() if mode is None else mode)
        except BaseException:
            os.close(fd)
            raise
        with os.fdopen(fd, "wb") as fh:
            for chunk in chunks:
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
