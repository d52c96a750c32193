"""Static and dynamic guarantees: no shell, no evaluation of input, network calls verified and bounded,
no code from a bundle ever runs.

The static part walks the package's syntax trees (not its text), so a comment or a string that
mentions `eval` does not count and an aliased import does not hide a call.
"""

import ast
import json
import os
import sys

import pytest

from tests.helpers import REPO, run_cli

PKG = os.path.join(REPO, "ascend_doctor")
# Modules that may import others by computed name, and from where: only their own sub-packages,
# named by constants in the code (commands, checks, renderers), never by input.
IMPORT_MODULE_ALLOWED = {"cli.py", os.path.join("checks", "__init__.py"), os.path.join("render", "__init__.py")}
SUBPROCESS_CALLS = {"run", "Popen", "call", "check_call", "check_output", "getoutput", "getstatusoutput"}
REQUESTS_CALLS = {"get", "post", "put", "patch", "delete", "head", "request", "options"}


def _files():
    for dirpath, _, files in os.walk(PKG):
        for name in files:
            if name.endswith(".py"):
                yield os.path.relpath(os.path.join(dirpath, name), PKG)


def _sources():
    for rel in _files():
        path = os.path.join(PKG, rel)
        with open(path, encoding="utf-8") as fh:
            yield rel, ast.parse(fh.read(), path)


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _is_string(node):
    """A command given as one string (what a shell would parse), not an argv list."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _is_string(node.left) or _is_string(node.right)
    return False


def _violations():
    out = []
    for rel, tree in _sources():
        for node in ast.walk(tree):
            where = f"{rel}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
                for bad in ("pickle", "cPickle", "marshal", "shelve", "dill", "runpy"):
                    if any(n == bad or n.startswith(bad + ".") for n in names if n):
                        out.append(f"{where}: imports {bad}")
            if not isinstance(node, ast.Call):
                continue
            name = _dotted(node.func)
            kwargs = {k.arg: k.value for k in node.keywords if k.arg}
            if name in ("eval", "exec", "compile", "__import__", "builtins.eval", "builtins.exec"):
                out.append(f"{where}: {name}()")
            if name in ("os.system", "os.popen", "os.execl", "os.execlp", "os.execv", "os.execvp", "os.spawnl",
                        "os.spawnlp", "pty.spawn", "commands.getoutput"):
                out.append(f"{where}: {name}()")
            if name.split(".")[-1] in SUBPROCESS_CALLS and name.startswith("subprocess."):
                shell = kwargs.get("shell")
                if shell is not None and not (isinstance(shell, ast.Constant) and shell.value is False):
                    out.append(f"{where}: {name}(shell=...)")
                if node.args and _is_string(node.args[0]):
                    out.append(f"{where}: {name}() with a command string, not an argv list")
                if name.endswith(("getoutput", "getstatusoutput")):
                    out.append(f"{where}: {name}() runs a shell")
            if name.startswith("requests.") and name.split(".")[-1] in REQUESTS_CALLS:
                if "timeout" not in kwargs:
                    out.append(f"{where}: {name}() without timeout=")
            if "verify" in kwargs and not (isinstance(kwargs["verify"], ast.Constant) and kwargs["verify"].value is True):
                out.append(f"{where}: verify= other than True")
            if name.endswith("yaml.load"):
                loader = kwargs.get("Loader")
                if loader is None or "Safe" not in _dotted(loader):
                    out.append(f"{where}: yaml.load without SafeLoader")
            if name.split(".")[-1] in ("extractall", "extract"):
                out.append(f"{where}: {name}() (archive members must go through bundle._extract's checks)")
            if name in ("importlib.import_module", "import_module") and rel not in IMPORT_MODULE_ALLOWED:
                out.append(f"{where}: import_module outside the sub-package loaders")
            # (`ctypes.CDLL(None)` is the running program's own handle, dlopen(NULL): it loads no file; the heap's
            # malloc_trim is reached through it, triage/match/finders.release_heap)
            if name in ("ctypes.CDLL", "ctypes.cdll.LoadLibrary", "cdll.LoadLibrary") and not (
                    len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value is None):
                out.append(f"{where}: loads a native library")
    return out


def test_no_shell_no_eval_no_pickle_and_bounded_verified_requests():
    assert _violations() == []


def test_the_scanner_catches_what_it_looks_for(tmp_path, monkeypatch):
    """The scan above must be able to fail: feed it a module with every forbidden pattern."""
    bad = tmp_path / "ascend_doctor"
    bad.mkdir()
    (bad / "bad.py").write_text(
        "import pickle\nimport subprocess, os, requests, yaml, tarfile\n"
        "subprocess.run('npu-smi info', shell=True)\nsubprocess.Popen('ls')\nos.system('x')\nos.popen('x')\n"
        "eval('1')\nexec('1')\nrequests.get('https://x', verify=False)\nyaml.load('a')\n"
        "tarfile.open('x').extractall('/')\nimport ctypes\nctypes.CDLL('/tmp/libx.so')\nctypes.CDLL(None)\n")
    monkeypatch.setattr(sys.modules[__name__], "PKG", str(bad))
    found = "\n".join(_violations())
    for what in ("imports pickle", "shell=", "command string", "os.system", "os.popen", "eval()", "exec()",
                 "without timeout", "verify=", "yaml.load", "extractall", "bad.py:13: loads a native library"):
        assert what in found, what
    assert "bad.py:14" not in found  # the program's own handle loads no file


def test_verify_false_appears_nowhere_in_the_package():
    for rel in _files():  # the text, not the syntax tree
        with open(os.path.join(PKG, rel), encoding="utf-8") as fh:
            assert "verify=False" not in fh.read(), rel


def test_no_code_from_a_bundle_ever_runs(tmp_path, make_snapshot):
    """A bundle carrying a mindspore package, a set_env.sh, sitecustomize and .pth files that would each
    leave a marker if executed: the doctor reads them as text only."""
    marker = tmp_path / "EXECUTED"
    payload = f"open({str(marker)!r}, 'w').write('ran')\n"
    sp = "/usr/local/lib/python3.9/site-packages"
    snap = make_snapshot(
        files={
            sp + "/mindspore/__init__.py": payload,
            sp + "/mindspore/run_check.py": payload,
            sp + "/mindspore-2.6.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: mindspore\nVersion: 2.6.0\n",
            sp + "/mindspore-2.6.0.dist-info/RECORD": "",
            sp + "/sitecustomize.py": payload,
            sp + "/evil.pth": "import os; " + payload,
            "/usr/local/Ascend/ascend-toolkit/set_env.sh": f"touch {marker}\n",
            "/usr/local/Ascend/ascend-toolkit/latest/compiler/version.info": "Version=7.3.0.1.231\n",
        },
        env={"PATH": "/usr/bin", "RANK_TABLE_FILE": "/etc/hccl.json", "PYTHONSTARTUP": sp + "/sitecustomize.py"},
        python={"version": "3.9.2", "executable": "/usr/bin/python3", "site_packages": [sp]},
        commands=[{"argv": ["npu-smi", "info"], "rc": 0, "stdout": f"$(touch {marker})", "stderr": ""}],
    )
    proc = run_cli("check", "--bundle", snap, "--smoke", "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["facts"]["mindspore"]["version"] == "2.6.0"  # it was read ...
    assert not marker.exists()  # ... and never run
