"""checks/__init__.py: the check modules are named explicitly (CHECK_MODULES), as the probes are."""

import os
import subprocess
import sys

from ascend_doctor import checks
from tests.helpers import REPO


def test_every_check_module_is_registered_and_nothing_else():
    here = os.path.dirname(checks.__file__)
    on_disk = sorted(f[:-3] for f in os.listdir(here) if f.endswith(".py") and not f.startswith("_"))
    on_disk += sorted(d for d in os.listdir(here)
                      if not d.startswith("_") and os.path.exists(os.path.join(here, d, "__init__.py")))
    assert sorted(checks.CHECK_MODULES) == sorted(on_disk)


def test_each_registered_module_holds_checks_and_all_checks_sees_them_all():
    specs = checks.all_checks()
    modules = {s.module.rsplit(".", 1)[-1] if s.module.count(".") == 2 else s.module.split(".")[2] for s in specs}
    assert modules == set(checks.CHECK_MODULES)
    assert [s.id for s in specs] == sorted(s.id for s in specs) and len({s.id for s in specs}) == len(specs)


def test_the_check_modules_are_imported_only_when_the_checks_are_asked_for():
    code = ("import sys; import ascend_doctor.checks as c; "
            "before = [m for m in sys.modules if m.startswith('ascend_doctor.checks.')]; c.all_checks(); "
            "after = [m for m in sys.modules if m.startswith('ascend_doctor.checks.')]; print(len(before), len(after))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         env=dict(os.environ, PYTHONPATH=REPO), timeout=60)
    before, after = map(int, out.stdout.split())
    assert before == 0 and after >= len(checks.CHECK_MODULES)
