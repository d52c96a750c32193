"""`matrix update` against a hostile or broken server, and a full disk: the previous matrix stays
intact on disk and stays the one in use; one line says why; no temporary file is left.

Complements tests/commands/test_matrix.py (sha mismatch, truncated JSON, schema, older, 404, unreachable).
The server runs on 127.0.0.1 in this process; nothing goes to the internet.
"""

import errno
import hashlib
import http.server
import json
import os
import subprocess
import threading
import time

import pytest

from ascend_doctor.data import data_path
from tests.helpers import run_cli
from tests.helpers.i18n_asserts import assert_shows

OLD_VERSION = "2098.1.1"


def bundled():
    with open(data_path("compat_matrix.json"), encoding="utf-8") as fh:
        return json.load(fh)


def matrix_bytes(version, pad=0):
    data = bundled()
    data["matrix_version"] = version
    if pad:
        data.setdefault("notes", [])
        data["notes"] = list(data["notes"]) + ["x" * pad] if isinstance(data["notes"], list) else data["notes"]
    return json.dumps(data).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    routes = {}

    def log_message(self, *args):
        pass

    def do_GET(self):
        action = self.routes.get(self.path)
        if action is None:
            self.send_error(404)
            return
        try:
            action(self)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up: what a trickle test wants


def _send(body, status=200, ctype="application/json"):
    def act(h):
        h.send_response(status)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)
    return act


def _trickle(h):
    h.send_response(200)
    h.send_header("Content-Length", str(10 << 20))
    h.end_headers()
    for _ in range(600):  # a byte every 0.2 s: each read is quick, the whole would take 24 days
        h.wfile.write(b" ")
        h.wfile.flush()
        time.sleep(0.2)


def _redirect_loop(h):
    h.send_response(302)
    h.send_header("Location", h.path)
    h.send_header("Content-Length", "0")
    h.end_headers()


def _cut_mid_body(h):
    body = matrix_bytes("2099.1.1")
    h.send_response(200)
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body[: len(body) // 3])
    h.wfile.flush()
    h.connection.shutdown(2)


def _huge(h):
    h.send_response(200)
    h.send_header("Content-Length", str(30 << 20))
    h.end_headers()
    chunk = b" " * (1 << 20)
    for _ in range(30):
        h.wfile.write(chunk)


@pytest.fixture(scope="module")
def server():
    newer = matrix_bytes("2099.1.1")
    wrong_schema = bundled()
    wrong_schema["matrix_version"] = "2099.1.1"
    wrong_schema["mindspore"] = [{"version": "2.6.0"}]
    Handler.routes = {
        "/500": _send(b"internal error", 500, "text/plain"),
        "/503": _send(b"", 503, "text/plain"),
        "/trickle": _trickle,
        "/loop": _redirect_loop,
        "/html": _send(b"<html><body>Login required</body></html>", 200, "text/html"),
        "/empty": _send(b""),
        "/not-utf8": _send(b"\xff\xfe{\x00}"),
        "/deep": _send(b"[" * 100000 + b"]" * 100000),
        "/a-list": _send(b"[1, 2, 3]"),
        "/other-json": _send(b'{"schema": "something-else/1", "rows": []}'),
        "/wrong-schema": _send(json.dumps(wrong_schema).encode()),
        "/older": _send(matrix_bytes("2000.1.1")),
        "/newer": _send(newer),
        "/cut": _cut_mid_body,
        "/huge": _huge,
    }
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}", hashlib.sha256(newer).hexdigest()
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.fixture
def cache(tmp_path):
    """A cache holding the previous (newer than bundled) matrix, OLD_VERSION."""
    path = tmp_path / "cache" / "ascend-doctor" / "compat_matrix.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(matrix_bytes(OLD_VERSION))
    return {"env": {"XDG_CACHE_HOME": str(tmp_path / "cache")}, "path": path, "before": path.read_bytes()}


def assert_previous_matrix_kept(cache, proc, words):
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    line = proc.stderr.strip()
    assert len(line.splitlines()) == 1 and "Traceback" not in line, proc.stderr
    assert "nothing changed" in line and any(w in line for w in words), line
    assert cache["path"].read_bytes() == cache["before"]
    assert sorted(os.listdir(cache["path"].parent)) == ["compat_matrix.json"]  # no temp file left
    shown = run_cli("matrix", "show", "--mindspore", "2.6.0", "--format", "json", env=cache["env"])
    assert json.loads(shown.stdout)["matrix"]["version"] == OLD_VERSION  # and it is the one in use


CASES = {
    "500": ["HTTP 500"],
    "503": ["HTTP 503"],
    "loop": ["TooManyRedirects", "redirect"],
    "html": ["not valid JSON"],
    "empty": ["not valid JSON"],
    "not-utf8": ["not valid JSON"],
    "deep": ["nested too deeply", "not valid JSON"],
    "a-list": ["does not match the matrix schema"],
    "other-json": ["does not match the matrix schema"],
    "wrong-schema": ["does not match the matrix schema"],
    "older": ["older than the one in use", "refusing to downgrade"],
    "cut": ["download failed"],
    "huge": ["larger than 20 MB"],
    "missing": ["HTTP 404"],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_server_answer_keeps_the_previous_matrix(server, cache, case):
    base, _ = server
    proc = run_cli("matrix", "update", "--url", f"{base}/{case}", "--timeout", "10", env=cache["env"])
    assert_previous_matrix_kept(cache, proc, CASES[case])


def test_checksum_mismatch_keeps_the_previous_matrix(server, cache):
    base, digest = server
    wrong = ("0" if digest[0] != "0" else "1") + digest[1:]
    proc = run_cli("matrix", "update", "--url", f"{base}/newer", "--sha256", wrong, env=cache["env"])
    assert_previous_matrix_kept(cache, proc, ["sha256 is"])


def test_slow_trickle_is_cut_at_the_total_timeout(server, cache):
    """requests' timeout is per read; a byte every 0.2 s never trips it. The update has a total deadline."""
    base, _ = server
    start = time.monotonic()
    proc = run_cli("matrix", "update", "--url", f"{base}/trickle", "--timeout", "2", env=cache["env"], timeout=30)
    assert time.monotonic() - start < 2 + 6
    assert_previous_matrix_kept(cache, proc, ["did not finish within 2 s"])


def test_good_update_still_installs(server, cache):
    base, digest = server
    proc = run_cli("matrix", "update", "--url", f"{base}/newer", "--sha256", digest, env=cache["env"])
    assert proc.returncode == 0
    assert_shows(proc.stdout, "installed matrix {version} ({date}) from {origin} to {target} (was {previous}, {source}); "
                 "sha256 {digest}", version="2099.1.1")
    assert json.loads(cache["path"].read_text())["matrix_version"] == "2099.1.1"


def test_cache_directory_that_is_a_file(server, tmp_path):
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "ascend-doctor").write_text("not a directory")
    base, _ = server
    proc = run_cli("matrix", "update", "--url", f"{base}/newer", env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert proc.returncode == 2 and "cannot write" in proc.stderr and "Traceback" not in proc.stderr
    assert (tmp_path / "cache" / "ascend-doctor").read_text() == "not a directory"


# -- disk full -------------------------------------------------------------------------------

def test_disk_full_while_writing_keeps_the_previous_matrix(server, cache, monkeypatch):
    """ENOSPC from the write itself (in-process, works anywhere)."""
    from ascend_doctor import matrix_update as matrix

    real_fdopen = os.fdopen

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            self.fh.write(data[:4096])
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(matrix.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    base, digest = server
    with pytest.raises(matrix.MatrixUpdateError, match="No space left on device"):
        matrix.update_matrix(f"{base}/newer", digest, timeout=10, environ=cache["env"])
    assert cache["path"].read_bytes() == cache["before"]
    assert sorted(os.listdir(cache["path"].parent)) == ["compat_matrix.json"]


@pytest.fixture
def small_tmpfs(tmp_path):
    """A tmpfs with room for one matrix but not two (None where mount is not allowed)."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    size = len(matrix_bytes(OLD_VERSION)) + (64 << 10)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mnt)], capture_output=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({r.stderr.decode().strip()}); the ENOSPC test above covers it")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def test_really_full_disk_keeps_the_previous_matrix(server, small_tmpfs):
    path = small_tmpfs / "ascend-doctor" / "compat_matrix.json"
    path.parent.mkdir()
    path.write_bytes(matrix_bytes(OLD_VERSION))
    before = path.read_bytes()
    cache = {"env": {"XDG_CACHE_HOME": str(small_tmpfs)}, "path": path, "before": before}
    base, digest = server
    proc = run_cli("matrix", "update", "--url", f"{base}/newer", "--sha256", digest, env=cache["env"])
    assert_previous_matrix_kept(cache, proc, ["No space left on device"])
