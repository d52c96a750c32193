"""What tests share (paths, running the CLI): a package, imported as `tests.helpers`."""

import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

FIXTURES = os.path.join(REPO, "tests", "fixtures")
REFERENCE = os.path.join(os.path.dirname(REPO), "shared", "reference")
# The snapshot fixtures by name (a directory of tests/fixtures with a manifest.json).
SNAPSHOTS = sorted(d for d in os.listdir(FIXTURES) if os.path.isfile(os.path.join(FIXTURES, d, "manifest.json")))


def fixture_path(name: str) -> str:
    return os.path.join(FIXTURES, name)


def run_cli(*args, env=None, input=None, timeout=120, cwd=None):
    """Run `python -m ascend_doctor ARGS` against this checkout; returns CompletedProcess (text)."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = REPO + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.pop("NO_COLOR", None)
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, "-m", "ascend_doctor", *args], capture_output=True, text=True,
                          env=full_env, input=input, timeout=timeout, cwd=cwd or REPO)


def run_json(*args, **kw):
    proc = run_cli(*args, "--format", "json", **kw)
    assert proc.stdout, proc.stderr
    return proc, json.loads(proc.stdout)
