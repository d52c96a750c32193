"""The README documents what the code has: every check id, subcommand and report format."""

import os
import re

from ascend_doctor.checks import all_checks
from ascend_doctor.cli import COMMANDS
from ascend_doctor.render import FORMATS
from conftest import REPO

README = open(os.path.join(REPO, "README.md"), encoding="utf-8").read()


def test_every_check_id_is_documented():
    missing = [c.id for c in all_checks() if f"`{c.id}`" not in README and not c.id.startswith("smoke.")]
    assert not missing, f"README lacks check ids: {missing}"


def test_every_subcommand_has_a_section():
    missing = [name for name in COMMANDS if not re.search(rf"^### `{re.escape(name)}`", README, flags=re.M)]
    assert not missing, f"README lacks sections for: {missing}"


def test_every_report_format_is_named():
    assert all(fmt in README for fmt in FORMATS)


def test_the_two_setup_commands_are_the_ones_ci_runs():
    ci = open(os.path.join(REPO, ".ci", "run"), encoding="utf-8").read()
    assert "scripts/test" in ci and "scripts/test" in README and "scripts/doctor-here" in README
