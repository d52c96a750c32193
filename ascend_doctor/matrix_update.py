"""`matrix update`: download (or read) a newer matrix, check its sha256 and schema, install it atomically in the
user's cache with a record of where it came from; on any failure nothing is changed (MatrixUpdateError says why)."""

from __future__ import annotations

import json
import os
import re
from typing import Any, Dict, Optional, Tuple

from .i18n import _
from .matrix import ORIGIN_SUFFIX, Matrix, cache_path, load_matrix, validate_matrix
from .versions import compare_versions

MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024


class MatrixUpdateError(Exception):
    """Why a download was not installed; nothing was changed."""


def _shutdown_socket(resp) -> None:
    """Wake the worker blocked in a read by shutting its socket down.

    Not resp.close(): that takes the buffered reader's lock, which the blocked worker holds, and
    would hang this thread too. shutdown() needs no lock. Best effort: the worker is a daemon
    thread and is abandoned anyway."""
    import socket

    raw = getattr(resp, "raw", None)
    candidates = [getattr(getattr(raw, "_connection", None), "sock", None),
                  getattr(getattr(raw, "connection", None), "sock", None)]
    fp = getattr(raw, "_fp", None)
    candidates.append(getattr(getattr(getattr(fp, "fp", None), "raw", None), "_sock", None))
    for sock in candidates:
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
                return
            except OSError:
                continue


def _download(requests, url: str, timeout: float) -> bytes:
    """The body at `url`, within `timeout` seconds in total.

    requests' timeout bounds each socket read, so a server that trickles a byte a second
    would never time out; the download runs in a worker thread and the caller stops
    waiting at the deadline (closing the connection so the worker ends too).
    """
    box: Dict[str, Any] = {}

    def work():
        try:
            with requests.get(url, timeout=(min(10.0, timeout), timeout), verify=True, stream=True) as resp:
                box["resp"] = resp
                if resp.status_code != 200:
                    raise MatrixUpdateError(f"{url}: HTTP {resp.status_code}")
                chunks, size = [], 0
                for chunk in resp.iter_content(65536):
                    chunks.append(chunk)
                    size += len(chunk)
                    if size > MAX_DOWNLOAD_BYTES:
                        raise MatrixUpdateError(_("{where}: larger than {size} MB; not a matrix").format(
                            where=url, size=MAX_DOWNLOAD_BYTES // (1024 * 1024)))
                    if box.get("abandoned"):
                        return
                box["body"] = b"".join(chunks)
        except MatrixUpdateError as exc:
            box["error"] = exc
        except requests.exceptions.SSLError as exc:
            box["error"] = MatrixUpdateError(_("{url}: TLS certificate verification failed ({error})").format(
                url=url, error=exc.__class__.__name__))
        except requests.exceptions.Timeout:
            box["error"] = MatrixUpdateError(_("{url}: timed out after {seconds} s").format(url=url,
                                                                                            seconds=f"{timeout:g}"))
        except requests.exceptions.RequestException as exc:
            box["error"] = MatrixUpdateError(_("{url}: download failed ({error})").format(
                url=url, error=f"{exc.__class__.__name__}: {exc}"))
        except Exception as exc:  # anything else the HTTP stack raises is still a failed download
            box["error"] = MatrixUpdateError(_("{url}: download failed ({error})").format(
                url=url, error=f"{exc.__class__.__name__}: {exc}"))

    import threading  # only `matrix update` downloads

    worker = threading.Thread(target=work, name="ascend-doctor-matrix-download", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        box["abandoned"] = True
        _shutdown_socket(box.get("resp"))
        raise MatrixUpdateError(_("{url}: did not finish within {seconds} s (server too slow)").format(
            url=url, seconds=f"{timeout:g}"))
    if "error" in box:
        raise box["error"]
    return box["body"]




def _local_source(where: str) -> Optional[str]:
    """The local path of a `--file PATH` or a `file://` URL; None for a network URL."""
    if where.startswith("file://"):
        from urllib.parse import unquote, urlparse

        parsed = urlparse(where)
        if parsed.netloc not in ("", "localhost"):
            raise MatrixUpdateError(_("{url}: a file:// URL must name a local path (file:///path/to/file)").format(
                url=where))
        return unquote(parsed.path)
    if "://" in where:
        return None
    return where


def _read_local(path: str) -> bytes:
    """The bytes of a local matrix file, with the size limit a download has."""
    if not os.path.exists(path):
        raise MatrixUpdateError(_("{path}: no such file").format(path=path))
    if not os.path.isfile(path):  # a directory, a FIFO or a device
        raise MatrixUpdateError(_("{path}: not a regular file, expected a compat_matrix.json").format(path=path))
    try:
        if os.path.getsize(path) > MAX_DOWNLOAD_BYTES:
            raise MatrixUpdateError(_("{where}: larger than {size} MB; not a matrix").format(
                where=path, size=MAX_DOWNLOAD_BYTES // (1024 * 1024)))
        with open(path, "rb") as fh:
            return fh.read(MAX_DOWNLOAD_BYTES + 1)
    except OSError as exc:
        raise MatrixUpdateError(_("{path}: cannot read ({reason})").format(path=path, reason=exc.strerror or exc)) \
            from None


def _sha256_beside(path: str) -> Optional[str]:
    """The digest in `<path>.sha256` (sha256sum's `<hex>  <name>` or a bare hex), if that file exists."""
    side = path + ".sha256"
    if not os.path.isfile(side):
        return None
    try:
        with open(side, "r", encoding="utf-8", errors="replace") as fh:
            text = fh.read(4096)
    except OSError as exc:
        raise MatrixUpdateError(_("{path}: cannot read ({reason})").format(path=side, reason=exc.strerror or exc)) \
            from None
    token = (text.split() or [""])[0]
    if not re.fullmatch(r"[0-9a-fA-F]{64}", token):
        raise MatrixUpdateError(_("{path}: expected a sha256 (64 hex digits) as its first word, got {token}").format(
            path=side, token=repr(token[:20])))
    return token


def update_matrix(url: str, sha256: Optional[str] = None, timeout: float = 30.0,
                  environ: Optional[dict] = None) -> Tuple[str, Matrix]:
    """Fetch, verify and install a matrix into the cache. Returns (message, matrix in use).

    `url` is an https URL, a `file://` URL or a local path (air-gapped clusters copy the file in).
    A local file is checked like a download: the sha256 (given, or from `<file>.sha256` beside it),
    JSON, the schema, not older than the matrix in use. Raises MatrixUpdateError, and leaves the
    cache untouched, on any failure.
    """
    if sha256 is not None and not re.fullmatch(r"[0-9a-fA-F]{64}", sha256):
        raise MatrixUpdateError(_("--sha256: expected 64 hex digits, got {value}").format(value=repr(sha256)))
    local = _local_source(url)
    if local is not None:
        body = _read_local(local)
        origin = os.path.abspath(local)
        beside = _sha256_beside(local)
        if sha256 is None:
            sha256 = beside
        elif beside is not None and beside.lower() != sha256.lower():
            raise MatrixUpdateError(_("{path}.sha256 says {beside} but --sha256 says {given}; not installed").format(
                path=local, beside=beside.lower(), given=sha256.lower()))
        sha_from = "--sha256" if sha256 is not None and beside is None else f"{os.path.basename(local)}.sha256"
    else:
        try:
            import requests  # lazily: only `matrix update` needs the network
        except ImportError:
            raise MatrixUpdateError(_("the 'requests' package is needed for `matrix update --url` "
                                      "(pip install 'ascend-doctor[network]'), or copy the file here and use "
                                      "--file")) from None
        body = _download(requests, url, timeout)
        origin = url
        sha_from = "--sha256"
    import hashlib

    from .atomic import write_atomic

    digest = hashlib.sha256(body).hexdigest()
    if sha256 is not None and digest.lower() != sha256.lower():
        raise MatrixUpdateError(_("{url}: sha256 is {digest}, expected {expected} ({given_by}); not installed").format(
            url=url, digest=digest, expected=sha256.lower(), given_by=sha_from))
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise MatrixUpdateError(_("{url}: not valid JSON ({reason})").format(url=url, reason=exc)) from None
    except RecursionError:
        raise MatrixUpdateError(_("{url}: not valid JSON (nested too deeply)").format(url=url)) from None
    try:
        errs = validate_matrix(data)
    except RecursionError:
        errs = ["$: nested too deeply"]
    if errs:
        raise MatrixUpdateError(_("{url}: does not match the matrix schema: {error}").format(url=url, error=errs[0]))
    current = load_matrix(environ)
    cmp = compare_versions(data["matrix_version"], current.version)
    if cmp < 0:
        raise MatrixUpdateError(_("{url}: matrix_version {version} is older than the one in use ({current}, "
                                  "{source}); refusing to downgrade").format(
            url=url, version=data["matrix_version"], current=current.version, source=current.source))
    if cmp == 0:
        return _("matrix {version} is already in use ({source}); nothing changed").format(
            version=current.version, source=current.source), current
    target = cache_path(environ)
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
    except OSError as exc:  # e.g. the cache directory's place is taken by a file
        raise MatrixUpdateError(_("{path}: cannot write ({reason})").format(
            path=os.path.dirname(target), reason=exc.strerror or exc)) from None
    origin_record = json.dumps({"from": origin, "sha256": digest, "checked_against": sha256 is not None},
                               indent=1).encode()
    try:
        write_atomic(target, body)
    except OSError as exc:
        raise MatrixUpdateError(_("{path}: cannot write ({reason})").format(path=target, reason=exc.strerror or exc)) \
            from None
    installed = Matrix(data, target, target, origin=origin)
    values = {"version": installed.version, "date": installed.date, "origin": origin, "target": target,
              "previous": current.version, "source": current.source, "digest": digest}
    message = (_("installed matrix {version} ({date}) from {origin} to {target} (was {previous}, {source}); "
                 "sha256 {digest}") if sha256 is not None else
               _("installed matrix {version} ({date}) from {origin} to {target} (was {previous}, {source}); "
                 "sha256 {digest} (no checksum given: --sha256 or a .sha256 file beside it)")).format(**values)
    try:  # only a label: load_cached ignores a record whose sha256 is not the matrix's
        write_atomic(target + ORIGIN_SUFFIX, origin_record)
    except OSError as exc:
        message = _("{message}; where it came from was not recorded ({reason})").format(
            message=message, reason=exc.strerror or exc)
    return message, installed
