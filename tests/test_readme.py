"""The README is a front door and docs/ documents what the code has: every check id, subcommand and
report format, the exit codes and the file modes users meet."""

import os
import re

from ascend_doctor.checks import all_checks
from ascend_doctor.cli import COMMANDS
from ascend_doctor.render import FORMATS
from tests.helpers import REPO


def _read(*parts):
    return open(os.path.join(REPO, *parts), encoding="utf-8").read()


README = _read("README.md")
README_ZH = _read("README.zh-CN.md")
CHECKS_PAGE = _read("docs", "checks.md")
COMMANDS_PAGE = _read("docs", "commands.md")
REPORT_PAGE = _read("docs", "report.md")


def _section(text: str, heading: str) -> str:
    """The body of the `## heading` section (up to the next heading of level 2)."""
    body = text.split(f"\n## {heading}\n", 1)[1]
    return body.split("\n## ", 1)[0]


def test_readme_is_a_front_door():
    assert len(README.encode("utf-8")) <= 12 * 1024, "README.md is the front door: move details to docs/"
    for heading in ("Set up", "First run", "Exit codes", "Subcommands"):
        assert f"\n## {heading}\n" in README, heading


def test_every_check_id_is_documented():
    missing = [c.id for c in all_checks() if f"`{c.id}`" not in CHECKS_PAGE and not c.id.startswith("smoke.")]
    assert not missing, f"docs/checks.md lacks check ids: {missing}"


def test_every_subcommand_has_a_section_and_a_readme_line():
    missing = [name for name in COMMANDS if not re.search(rf"^## `{re.escape(name)}`$", COMMANDS_PAGE, flags=re.M)]
    assert not missing, f"docs/commands.md lacks sections for: {missing}"
    for readme in (README, README_ZH):  # one line per subcommand, linking to its section
        missing = [name for name in COMMANDS if f"[`{name}`](docs/commands.md#{name})" not in readme]
        assert not missing, f"a README lacks the line for: {missing}"


def test_every_report_format_is_named():
    section = _section(REPORT_PAGE, "Formats")
    assert all(f"`{fmt}`" in section for fmt in FORMATS), FORMATS


def test_the_two_setup_commands_are_the_ones_ci_runs():
    ci = _read(".ci", "run")
    assert "scripts/test" in ci
    for readme in (README, README_ZH):
        assert "scripts/test" in readme and "scripts/doctor-here" in readme


def test_exit_codes_are_in_both_readmes():
    for readme, heading in ((README, "Exit codes"), (README_ZH, "退出码")):
        rows = re.findall(r"^\| ([0-9]) \|", _section(readme, heading), flags=re.M)
        assert rows == ["0", "1", "2"], (heading, rows)


def test_exit_code_2_and_file_modes_are_stated_where_users_read_them():
    """Exit 2 for unusable input and selections, report modes vs bundle modes, the secret policy: what a user
    meets is in docs/report.md (not only in the code)."""
    exit_codes = _section(REPORT_PAGE, "Exit codes")
    for words in ("`--only`/`--skip` naming no check", "binary rank table", "not an archive", "`-o` naming a directory",
                  "missing dependency"):
        assert words in exit_codes, words
    where = _section(REPORT_PAGE, "Where the report goes")
    for words in ("umask", "0644", "0600", "`COLUMNS`"):
        assert words in where, words
    secrets = _section(REPORT_PAGE, "Secrets")
    assert "redact.is_secret" in secrets
    from ascend_doctor.redact import is_secret

    names = re.findall(r"`(\*?[A-Z_]+\*?)`", secrets.split("\n\n", 1)[0])
    assert len(names) >= 8
    for name in names:  # each pattern the page names, as a real variable name, gets the verdict it promises
        assert is_secret(name.replace("*", "X")) == ("KEYWORD" not in name), name
