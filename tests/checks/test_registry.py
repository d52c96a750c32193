"""checks/__init__.py: the check modules are named explicitly (CHECK_MODULES), as the probes are."""

import json
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


def test_each_registered_module_holds_checks_of_its_area_and_all_checks_sees_them_all():
    specs = checks.all_checks()
    by_module = {}
    for spec in specs:
        by_module.setdefault(spec.module.split(".")[2], set()).add(spec.area)
    assert by_module == {module: {area} for module, area in checks.CHECK_MODULES.items()}
    assert [s.id for s in specs] == sorted(s.id for s in specs) and len({s.id for s in specs}) == len(specs)
    assert checks.all_checks(["env"]) == [s for s in specs if s.area == "env"]


def test_a_run_of_one_area_imports_only_its_modules():
    code = ("import json, sys; import ascend_doctor.checks as c; c.all_checks(['compat']); "
            "print(json.dumps(sorted(m.split('.')[2] for m in sys.modules if m.startswith('ascend_doctor.checks.'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         env=dict(os.environ, PYTHONPATH=REPO), timeout=60)
    imported = set(json.loads(out.stdout))
    assert "compat" in imported and not imported & {"advice", "network", "smoke", "rank_table", "gpu"}


def test_the_check_modules_are_imported_only_when_the_checks_are_asked_for():
    code = ("import sys; import ascend_doctor.checks as c; "
            "before = [m for m in sys.modules if m.startswith('ascend_doctor.checks.')]; c.all_checks(); "
            "after = [m for m in sys.modules if m.startswith('ascend_doctor.checks.')]; print(len(before), len(after))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         env=dict(os.environ, PYTHONPATH=REPO), timeout=60)
    before, after = map(int, out.stdout.split())
    assert before == 0 and after >= len(checks.CHECK_MODULES)
