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


def test_exit_code_2_and_file_modes_are_stated_where_users_read_them():
    """Exit 2 for unusable input and selections, report modes vs bundle modes, the secret policy: what a user
    meets is in the README's 'Exit codes' section (not only in the code)."""
    section = README.split("### Exit codes", 1)[1].split("\n### ", 1)[0]
    for words in ("`--only`/`--skip` naming no check", "binary rank table", "not an archive", "`-o` naming a directory",
                  "missing dependency", "umask", "0644", "0600", "`COLUMNS`", "redact.is_secret"):
        assert words in section, words
    from ascend_doctor.redact import is_secret

    names = re.findall(r"`(\*?[A-Z_]+\*?)`", section.split("Secrets:", 1)[1].split("\n\n", 1)[0])
    assert len(names) >= 8
    for name in names:  # each pattern the README names, as a real variable name, gets the verdict it promises
        assert is_secret(name.replace("*", "X")) == ("KEYWORD" not in name), name
