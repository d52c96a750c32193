"""Shared pieces of the fault sweep: fake tools on PATH, a live host rooted in a directory,
and the bad-file kinds every reader must survive."""

import os
import shutil
import stat

import pytest

from ascend_doctor.host import LiveHost

# The hung tools sleep for 30.<digits of this test process>: a marker to find leftovers of this run
# only (another run on the same machine has another marker).
SLEEP_MARKER = "30." + str(os.getpid()).zfill(7)

# What a broken vendor tool does, as a /bin/sh body.
TOOL_BEHAVIOURS = {
    "sleep": f"sleep {SLEEP_MARKER}\n",
    # a tool that ignores SIGTERM and keeps its children: only killing the process group ends it
    "sleep-trap": f"trap '' TERM INT HUP\nsleep {SLEEP_MARKER} &\nsleep {SLEEP_MARKER}\n",
    "garbage": "head -c 200000 /dev/urandom\n",
    "table-like-lines": "yes '| a | b |' | head -n 2000000\n",
    "100MB": "head -c 100000000 /dev/zero | tr '\\000' x\n",
    "exit-nonzero": "echo 'dcmi module initialize failed. ret is -8005' >&2\nexit 3\n",
    "not-executable": "echo never runs\n",
    "stderr-flood": "head -c 20000000 /dev/zero | tr '\\000' e >&2\nexit 1\n",
}


def make_tools(directory, behaviour, names=("npu-smi", "nvidia-smi", "nvcc", "hccn_tool")):
    """Scripts called `names` in `directory` that all behave the same broken way. Returns the directory."""
    os.makedirs(directory, exist_ok=True)
    for name in names:
        path = os.path.join(str(directory), name)
        with open(path, "w") as fh:
            fh.write("#!/bin/sh\n" + TOOL_BEHAVIOURS[behaviour])
        os.chmod(path, 0o644 if behaviour == "not-executable" else 0o755)
    return str(directory)


class RootedLiveHost(LiveHost):
    """The live host's own file and command code, with absolute paths mapped under `root`.

    Lets the probes read a hostile /etc/hccn.conf or version.info through LiveHost.read_text
    (so FIFOs, links and permission handling are the real ones) without touching this machine.
    """

    def __init__(self, root, environ=None):
        super().__init__(environ if environ is not None else {"PATH": os.environ.get("PATH", "")})
        self.root = str(root)

    def _p(self, path):
        return self.root + "/" + path.lstrip("/")

    def read_text(self, path, max_bytes=1 << 20):
        try:
            return super().read_text(self._p(path), max_bytes)
        except Exception as exc:  # keep the message about the path the probe asked for
            exc.args = (str(exc).replace(self.root, ""),)
            raise

    def exists(self, path):
        return super().exists(self._p(path))

    def is_dir(self, path):
        return super().is_dir(self._p(path))

    def is_file(self, path):
        return super().is_file(self._p(path))

    def listdir(self, path):
        return super().listdir(self._p(path))

    def realpath(self, path):
        real = super().realpath(self._p(path))
        return real[len(self.root):] if real.startswith(self.root) else real

    def _manifest(self):
        import json

        with open(os.path.join(os.path.dirname(self.root), "manifest.json")) as fh:
            return json.load(fh)

    def machine(self):
        m = dict(self._manifest().get("machine") or {})
        m["hostname"] = self._manifest().get("hostname") or "rooted"
        return m

    @property
    def python(self):
        """The fixture's Python (its site-packages under root), not the interpreter running the test."""
        from ascend_doctor.host import PythonInfo

        py = self._manifest().get("python") or {}
        return PythonInfo(version=py.get("version", ""), executable=py.get("executable", ""),
                          site_packages=list(py.get("site_packages") or []))


# Bad file kinds. Each writer turns `local` (a path on this disk) into that kind of file;
# `good` is the healthy content it replaces.
def _unreadable_marker(local, good):  # SnapshotHost only: permission denied on the collected machine
    open(local + ".unreadable", "w").close()


def _directory(local, good):
    os.unlink(local)
    os.makedirs(os.path.join(local, "sub"))


def _symlink_loop(local, good):
    os.unlink(local)
    os.symlink(os.path.basename(local) + ".loop", local)
    os.symlink(os.path.basename(local), local + ".loop")


def _dangling(local, good):
    os.unlink(local)
    os.symlink(os.path.basename(local) + ".gone", local)


def _huge_sparse(local, good):
    with open(local, "wb") as fh:
        fh.write(good.encode())
    os.truncate(local, 1 << 30)  # 1 GiB, sparse: nothing is written


def _binary(local, good):
    with open(local, "wb") as fh:
        fh.write(bytes(range(256)) * 64)


def _invalid_utf8(local, good):
    with open(local, "wb") as fh:
        fh.write(good.encode().replace(b"=", b"=\xff\xfe", 1) + b"\n\xc3\x28 broken=\xa0\xa1\n")


def _crlf(local, good):
    with open(local, "wb") as fh:
        fh.write(good.replace("\r\n", "\n").replace("\n", "\r\n").encode())


def _bom(local, good):
    with open(local, "wb") as fh:
        fh.write(b"\xef\xbb\xbf" + good.encode())


def _empty(local, good):
    open(local, "w").close()


def _fifo(local, good):
    os.unlink(local)
    os.mkfifo(local)


BAD_KINDS = {
    "unreadable": _unreadable_marker,
    "directory": _directory,
    "symlink-loop": _symlink_loop,
    "dangling-link": _dangling,
    "1GB-sparse": _huge_sparse,
    "binary": _binary,
    "invalid-utf8": _invalid_utf8,
    "crlf": _crlf,
    "bom": _bom,
    "empty": _empty,
    "fifo": _fifo,
}
# Kinds after which the value is still readable (the parser must give the same answer as for the clean file).
READABLE_KINDS = ("crlf", "bom")


def copy_fixture(src, dst):
    shutil.copytree(src, dst, symlinks=True)
    return str(dst)


def writable(path):
    mode = os.stat(path).st_mode
    os.chmod(path, mode | stat.S_IWUSR)


def leftover_sleepers():
    import psutil

    out = []
    for p in psutil.process_iter(["pid", "cmdline"]):
        try:
            if SLEEP_MARKER in " ".join(p.info["cmdline"] or []):
                out.append((p.info["pid"], p.info["cmdline"]))
        except psutil.Error:
            pass
    return out


@pytest.fixture
def no_children_left():
    """Fails the test if it leaves a child process of this test process running."""
    import psutil

    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}
    yield
    import time

    deadline = time.monotonic() + 5
    while True:
        left = [p for p in me.children(recursive=True) if p.pid not in before and p.is_running()
                and p.status() != psutil.STATUS_ZOMBIE]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert not left, [(p.pid, p.cmdline()) for p in left]


def default_signals() -> None:
    """`preexec_fn` for a doctor a test signals: SIGINT, SIGHUP and SIGTERM at their defaults in the child, as a terminal
    or a job scheduler starts it. A test run started in the background (`cmd &` in a script: SIGINT ignored) or under
    `nohup` (SIGHUP ignored) passes those dispositions down, and the doctor keeps an ignored signal ignored, as it
    should (CPython installs its KeyboardInterrupt handler only where SIGINT is not ignored; cli._install_signal_handlers
    leaves an ignored SIGHUP alone): such a child never exits on the signal and the test hangs (round 23's local runs)."""
    import signal

    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
