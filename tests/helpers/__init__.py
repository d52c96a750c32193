"""What tests share (paths, running the CLI): a package, imported as `tests.helpers`."""

import io
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

FIXTURES = os.path.join(REPO, "tests", "fixtures")
REFERENCE = os.path.join(os.path.dirname(REPO), "shared", "reference")
# The snapshot fixtures by name (a directory of tests/fixtures with a manifest.json).
SNAPSHOTS = sorted(d for d in os.listdir(FIXTURES) if os.path.isfile(os.path.join(FIXTURES, d, "manifest.json")))

# ASCEND_DOCTOR_TEST_PROCESS=1 runs every run_cli in a real process, as the suite did before it ran them in-process
# (a way to tell a difference between the two apart from the code under test).
ALWAYS_PROCESS = os.environ.get("ASCEND_DOCTOR_TEST_PROCESS", "") not in ("", "0")


def script_module(name: str):
    """scripts/<name>.py (a script, not a package module) loaded as a module, for tests of its functions."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, os.path.join(REPO, "scripts", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def fixture_path(name: str) -> str:
    return os.path.join(FIXTURES, name)


def run_cli(*args, env=None, input=None, timeout=120, cwd=None, process=False):
    """Run `ascend-doctor ARGS` against this checkout; returns a CompletedProcess (text).

    By default the CLI's main() runs in this process (a new interpreter per call costs the suite minutes), with
    what a process would have had of its own: the environment (os.environ plus `env`, without NO_COLOR), the
    working directory (`cwd`, default the checkout), stdin (`input`, else empty), stdout and stderr captured, the
    run's language, and the exit code (main's return, SystemExit's code, 1 and the traceback for an exception).
    `process=True` runs `python -m ascend_doctor` in a real child: for a test where the process is the point
    (signals, what the interpreter does at exit, fork, a hang that a timeout must end)."""
    if process or ALWAYS_PROCESS:
        return run_process(*args, env=env, input=input, timeout=timeout, cwd=cwd)
    return _run_in_process(list(args), env, input, cwd)


def run_process(*args, env=None, input=None, timeout=120, cwd=None):
    """`python -m ascend_doctor ARGS` in a child process, against this checkout."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = REPO + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.pop("NO_COLOR", None)
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, "-m", "ascend_doctor", *args], capture_output=True, text=True,
                          env=full_env, input=input, timeout=timeout, cwd=cwd or REPO)


class _Stream(io.TextIOWrapper):
    """A captured standard stream: text over bytes (the CLI writes through .buffer too), never a terminal."""

    def __init__(self, data: bytes = b""):
        super().__init__(io.BytesIO(data), encoding="utf-8", errors="surrogateescape", newline="\n",
                         write_through=True)

    def text(self) -> str:
        """What subprocess.run(text=True) would have read: decoded, with universal newlines."""
        self.flush()
        return self.buffer.getvalue().decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")


def _exit_code(code, stderr) -> int:
    """What the interpreter makes of SystemExit(code): None 0, an int itself, anything else printed and 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=stderr)
    return 1


def _run_in_process(args, env, input, cwd):
    import traceback

    from ascend_doctor import cli, i18n

    saved_environ = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_streams = (sys.stdin, sys.stdout, sys.stderr)
    saved_lang = i18n.get_lang()
    saved_fd0 = None
    saved_tempdir = tempfile.tempdir  # found once per process from TMPDIR: a new process would look again
    stdout, stderr = _Stream(), _Stream()
    data = (input or "").encode("utf-8", "surrogateescape")
    try:
        if input is not None:  # file descriptor 0 too: the CLI may be given /dev/stdin as a path
            with tempfile.TemporaryFile() as fh:
                fh.write(data)
                fh.flush()
                saved_fd0 = os.dup(0)
                os.dup2(fh.fileno(), 0)
                os.lseek(0, 0, os.SEEK_SET)
        os.environ.pop("NO_COLOR", None)
        if env:
            os.environ.update(env)
        os.chdir(cwd or REPO)
        tempfile.tempdir = None
        sys.stdin = _Stream(data)
        sys.stdout, sys.stderr = stdout, stderr
        try:
            code = cli.main(list(args))
        except SystemExit as exc:
            code = _exit_code(exc.code, stderr)
        except Exception:  # what the interpreter prints for an uncaught exception, and its exit code
            traceback.print_exc(file=stderr)
            code = 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        if saved_fd0 is not None:
            os.dup2(saved_fd0, 0)
            os.close(saved_fd0)
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_environ)
        tempfile.tempdir = saved_tempdir
        i18n.set_lang(saved_lang)
    return subprocess.CompletedProcess([sys.executable, "-m", "ascend_doctor", *args], int(code),
                                       stdout.text(), stderr.text())


def run_json(*args, **kw):
    proc = run_cli(*args, "--format", "json", **kw)
    assert proc.stdout, proc.stderr
    return proc, json.loads(proc.stdout)
