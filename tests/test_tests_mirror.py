"""The tests mirror the package: a test directory per sub-package, and each renderer and command its own file."""

import os

from tests.helpers import REPO

PKG = os.path.join(REPO, "ascend_doctor")
TESTS = os.path.join(REPO, "tests")
NOT_PACKAGES = {"fixtures", "helpers", "robustness", "__pycache__"}  # data, shared helpers, cross-cutting fault tests


def _modules(sub):
    return sorted(f[:-3] for f in os.listdir(os.path.join(PKG, sub)) if f.endswith(".py") and f != "__init__.py")


def test_each_test_directory_is_a_package_of_the_doctor():
    dirs = [d for d in os.listdir(TESTS) if os.path.isdir(os.path.join(TESTS, d)) and d not in NOT_PACKAGES]
    assert dirs, "tests/ has no sub-package directories"
    stray = [d for d in dirs if not os.path.exists(os.path.join(PKG, d, "__init__.py"))]
    assert not stray, f"tests/{stray} mirror no ascend_doctor sub-package"


def test_every_renderer_and_command_has_its_own_test_file():
    missing = [f"tests/{sub}/test_{m}.py" for sub in ("render", "commands") for m in _modules(sub)
               if not os.path.exists(os.path.join(TESTS, sub, f"test_{m}.py"))]
    assert not missing, f"no test file for: {missing}"

