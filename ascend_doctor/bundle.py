"""Open a collected snapshot: a directory, or a `.tar.gz` of one, unpacked safely.

Safety rules for archives (customer bundles are untrusted input):
- only regular files, directories and symbolic links are unpacked; device files,
  FIFOs and hard links are refused;
- no member may land outside the temporary directory (`..`, absolute names);
- symbolic links are kept as links but are only ever resolved *inside* the
  snapshot root by `SnapshotHost`, so a link cannot read the support engineer's disk;
- total unpacked size and member count are capped (decompression bombs);
- the temporary directory is removed when the caller is done, whatever happens.
"""

from __future__ import annotations

import contextlib
import errno
import os
from typing import Iterator

from .host import SnapshotError, SnapshotHost
from .i18n import N_, _
from .reasons import os_reason

MAX_UNPACKED_BYTES = 512 << 20


def _corrupt_errors() -> tuple:
    """What a damaged archive raises while being read: tarfile's own errors, a short read, and the
    decompressors' errors (zlib.error and lzma.LZMAError are not OSError)."""
    import tarfile
    import zlib

    errors = [tarfile.TarError, EOFError, OSError, zlib.error]
    try:
        import lzma

        errors.append(lzma.LZMAError)
    except ImportError:  # Python built without lzma: no .xz bundles either
        pass
    return tuple(errors)

MAX_MEMBERS = 50_000


class BundleError(SnapshotError):
    pass


@contextlib.contextmanager
def open_bundle(path: str) -> Iterator[SnapshotHost]:
    """Yield a SnapshotHost for a snapshot directory or a .tar.gz / .tgz / .tar of one."""
    if os.path.isdir(path):
        yield SnapshotHost(path)
        return
    if not os.path.exists(path):
        raise BundleError(_("{path}: no such file or directory, expected a snapshot directory or .tar.gz").format(path=path))
    if not os.path.isfile(path):  # a FIFO or a device would block the reader or never end
        raise BundleError(_("{path}: not a regular file, expected a snapshot directory or .tar.gz").format(path=path))
    import shutil
    import tempfile

    tmp = tempfile.mkdtemp(prefix="ascend-doctor-bundle-")
    try:
        top = _extract(path, tmp)
        yield SnapshotHost(top)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _extract(archive: str, dest: str) -> str:
    import tarfile  # only bundles need it; keeps `check` on the live machine quick to start

    try:
        tf = tarfile.open(archive, "r:*")
    except _corrupt_errors():
        raise BundleError(_why_not_an_archive(archive)) from None
    total = 0
    count = 0
    dest_real = os.path.realpath(dest)
    try:
        with tf:
            for member in _members(tf, archive):
                count += 1
                if count > MAX_MEMBERS:
                    raise BundleError(_("{archive}: more than {count} members, refused").format(archive=archive, count=MAX_MEMBERS))
                name = member.name
                if name.startswith("/") or os.path.isabs(name):
                    raise BundleError(_("{archive}: member {name} has an absolute path, refused").format(archive=archive,
                                                                                         name=repr(name)))
                target = os.path.realpath(os.path.join(dest, name))
                if target != dest_real and not target.startswith(dest_real + os.sep):
                    raise BundleError(_("{archive}: member {name} would be written outside the bundle, refused")
                                     .format(archive=archive, name=repr(name)))
                if member.islnk():
                    raise BundleError(_("{archive}: member {name} is a hard link, refused").format(archive=archive,
                                                                                      name=repr(name)))
                if not (member.isfile() or member.isdir() or member.issym()):
                    raise BundleError(_("{archive}: member {name} is a device or special file, refused")
                                     .format(archive=archive, name=repr(name)))
                if member.isdir():
                    os.makedirs(target, exist_ok=True)
                    continue
                os.makedirs(os.path.dirname(target), exist_ok=True)
                if member.issym():
                    # kept as a link; SnapshotHost resolves it inside the snapshot root only
                    os.symlink(member.linkname, target)
                    continue
                total += member.size
                if total > MAX_UNPACKED_BYTES:
                    raise BundleError(_("{archive}: unpacks to more than {size} MiB, refused")
                                     .format(archive=archive, size=MAX_UNPACKED_BYTES >> 20))
                src = tf.extractfile(member)
                if src is None:
                    raise BundleError(_("{archive}: member {name} cannot be read").format(archive=archive, name=repr(name)))
                written = 0
                with src, open(target, "wb") as out:
                    while True:
                        chunk = src.read(1 << 20)
                        if not chunk:
                            break
                        written += len(chunk)
                        if written > member.size or total - member.size + written > MAX_UNPACKED_BYTES:
                            raise BundleError(_("{archive}: member {name} is larger than its header says, refused")
                                                 .format(archive=archive, name=repr(name)))
                        out.write(chunk)
            _drain_to_end(tf, archive)
    except _corrupt_errors() as exc:
        if isinstance(exc, BundleError):
            raise
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS):
            # The archive is fine; the disk holding the temporary directory is not.
            raise BundleError(_("{archive}: cannot unpack into {directory} ({reason}); free space there or set "
                                "TMPDIR to a directory on a larger disk").format(archive=archive, directory=dest,
                                                                                 reason=os_reason(exc))) from None
        raise BundleError(_("{archive}: archive is truncated or corrupt ({reason})")
                          .format(archive=archive, reason=_one_line(exc))) from None
    return _snapshot_top(dest, archive)


# A tar ends with two zero blocks padded to its record size (10 KiB by default); more than
# this after the end marker is not a tar's padding.
MAX_TRAILING_BYTES = 1 << 20


def _drain_to_end(tf, archive: str) -> None:
    """Read the compressed stream past the archive's end marker, so gzip/xz/bz2 check their CRC
    and length: without this, corrupt or truncated member data passes unnoticed."""
    stream = tf.fileobj
    left = MAX_TRAILING_BYTES
    while left > 0:
        chunk = stream.read(min(65536, left))
        if not chunk:
            return
        left -= len(chunk)
    raise BundleError(_("{archive}: more than {size} MiB of data after the end of the archive, refused")
                      .format(archive=archive, size=MAX_TRAILING_BYTES >> 20))


EXPECTED_BUNDLE = N_("expected a .tar.gz from `ascend-doctor collect` or a snapshot directory")
# Magic numbers of what `tarfile.open(..., "r:*")` accepts: (offset, bytes, name, tarfile mode).
_MAGIC = ((0, b"\x1f\x8b", "gzip", "r:gz"), (0, b"BZh", "bzip2", "r:bz2"), (0, b"\xfd7zXZ\x00", "xz", "r:xz"),
          (257, b"ustar", "tar", "r:"))


def _why_not_an_archive(archive: str) -> str:
    """One line for a file tarfile cannot open: empty, not an archive at all, or an archive that is damaged
    (with the one reason that matters, not tarfile's try-every-method chain)."""
    import tarfile

    try:
        with open(archive, "rb") as fh:
            head = fh.read(512)
    except OSError as exc:
        return _("{archive}: cannot read ({reason}); {expected}").format(archive=archive, reason=os_reason(exc),
                                                                        expected=_(EXPECTED_BUNDLE))
    if not head:
        return _("{archive}: empty file, not a readable tar archive; {expected}").format(archive=archive,
                                                                                        expected=_(EXPECTED_BUNDLE))
    for offset, magic, name, mode in _MAGIC:
        if head[offset:offset + len(magic)] == magic:
            if name != "tar" and _unpacks_to_no_tar(archive, name):
                return _("{archive}: {kind} data that holds no tar archive (it unpacks to something else); "
                         "{expected}").format(archive=archive, kind=name, expected=_(EXPECTED_BUNDLE))
            try:
                tarfile.open(archive, mode).close()
                reason = _("unreadable")
            except _corrupt_errors() as exc:
                reason = _one_line(exc)
            return _("{archive}: {kind} data that is truncated or corrupt ({reason}); {expected}").format(
                archive=archive, kind=name, reason=reason, expected=_(EXPECTED_BUNDLE))
    return _("{archive}: not a readable tar archive (neither gzip, bzip2, xz nor tar data); {expected}").format(
        archive=archive, expected=_(EXPECTED_BUNDLE))


def _unpacks_to_no_tar(archive: str, kind: str) -> bool:
    """Whether the compressed file is sound as far as its first 512 unpacked bytes go, and those are no tar header:
    a whole .gz of a text file is that, a cut or damaged one is not (its reading fails first)."""
    import tarfile

    try:
        if kind == "gzip":
            import gzip as module
        elif kind == "bzip2":
            import bz2 as module
        else:
            import lzma as module
        with module.open(archive, "rb") as fh:
            block = fh.read(tarfile.BLOCKSIZE)
    except (ImportError, *_corrupt_errors()):
        return False
    if len(block) < tarfile.BLOCKSIZE:
        return True  # the whole stream unpacked (a cut one raises EOFError) to less than one tar block
    try:
        tarfile.TarInfo.frombuf(block, tarfile.ENCODING, "surrogateescape")
    except tarfile.EOFHeaderError:  # a tar archive ends in zero blocks: an empty one is still a tar archive
        return False
    except tarfile.HeaderError:
        return True
    return False


def _one_line(exc: BaseException) -> str:
    """tarfile's messages can span lines (one per compression tried); the CLI promises one line."""
    return " ".join(str(exc).split())[:300] or type(exc).__name__


def _members(tf, archive: str):
    while True:
        try:
            member = tf.next()
        except _corrupt_errors() as exc:
            raise BundleError(_("{archive}: archive is truncated or corrupt ({reason})")
                              .format(archive=archive, reason=_one_line(exc))) from None
        if member is None:
            return
        yield member


def _snapshot_top(dest: str, archive: str) -> str:
    """The directory holding manifest.json: the archive root or its single top folder."""
    if os.path.isfile(os.path.join(dest, "manifest.json")):
        return dest
    entries = [e for e in os.listdir(dest) if not e.startswith(".")]
    if len(entries) == 1:
        inner = os.path.join(dest, entries[0])
        if os.path.isdir(inner) and not os.path.islink(inner) and os.path.isfile(os.path.join(inner, "manifest.json")):
            return inner
    raise BundleError(_("{archive}: no manifest.json at the top of the archive, expected an ascend-doctor snapshot")
                      .format(archive=archive))
