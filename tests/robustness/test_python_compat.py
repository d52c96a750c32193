"""The package runs on Python 3.8-3.12. Only one interpreter is installed here, so vermin (a test
extra) reads the code for anything newer than 3.8: syntax, stdlib modules, functions, arguments."""

import os
import shutil
import subprocess

import pytest

from tests.helpers import REPO

SCRIPT = os.path.join(REPO, "scripts", "check_python_compat.sh")
pytestmark = pytest.mark.skipif(shutil.which("vermin") is None,
                                 reason="vermin is not installed (pip install '.[test]')")


def test_package_needs_nothing_newer_than_python_3_8():
    proc = subprocess.run([SCRIPT], capture_output=True, text=True, cwd=REPO, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_check_fails_on_newer_code(tmp_path):
    """So the test above can fail: 3.9+ and 3.10+ code is reported."""
    (tmp_path / "new.py").write_text(
        "import zoneinfo\n\ndef f(s, x):\n    match x:\n        case 1:\n            return s\n")
    proc = subprocess.run(["vermin", "--no-config-file", "--target=3.8-", "--no-tips", "--violations",
                           str(tmp_path / "new.py")], capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "zoneinfo" in proc.stdout and "pattern matching" in proc.stdout
