"""Unusable input is exit 2 with ONE line naming the file, the field and what was expected: no traceback,
no "invalid" verdict for something that was never a rank table or a report."""

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import REPO, run_cli

# NULs and bytes that are not UTF-8, as an image or a core dump would start
BINARY = bytes(range(256)) * 8


def _one_line_exit_2(proc, *must_name):
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-500:], proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for word in must_name:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def test_binary_rank_table(tmp_path):
    path = tmp_path / "rank_table.json"
    path.write_bytes(BINARY)
    line = _one_line_exit_2(run_cli("rank-table", str(path)), str(path), "JSON rank table")
    assert "trailing comma" not in line


@pytest.mark.parametrize("content", [b"", b"   \n", b'{"a": 1}', b"[1, 2]", BINARY, b"hello"])
def test_aggregate_of_one_file_that_is_no_report(tmp_path, content):
    path = tmp_path / "node.json"
    path.write_bytes(content)
    _one_line_exit_2(run_cli("aggregate", str(path)), str(path), "ascend-doctor.report/2")


def test_aggregate_still_counts_a_torn_report_next_to_good_ones(tmp_path):
    good = run_cli("check", "--format", "json", "--only", "resources")
    (tmp_path / "n0.json").write_text(good.stdout)
    (tmp_path / "n1.json").write_text("")
    proc = run_cli("aggregate", str(tmp_path), "--format", "json")
    assert proc.returncode == 1, proc.stderr
    assert len(json.loads(proc.stdout)["unreadable"]) == 1


@pytest.mark.parametrize("name, content", [("bad.tar.gz", BINARY), ("bad.tar.gz", b"\x1f\x8b\x08\x00" + BINARY),
                                           ("notes.txt", b"just some text\n"), ("empty.tgz", b"")])
def test_bundle_that_is_no_archive(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    line = _one_line_exit_2(run_cli("check", "--bundle", str(path)), str(path), "expected")
    assert "method gz" not in line and "ReadError" not in line


def test_output_to_a_directory(tmp_path):
    for args in (["check"], ["rank-table", os.path.join(REPO, "tests", "fixtures", "rank_tables",
                                                       "hccl_910_template1_v1.0.json")]):
        line = _one_line_exit_2(run_cli(*args, "-o", str(tmp_path)), str(tmp_path), "is a directory")
        assert "cannot write in" not in line or str(tmp_path.parent) not in line


def _without(package, *argv):
    """Run the CLI in a Python where `package` cannot be imported."""
    code = (f"import sys; sys.modules[{package!r}] = None\n"
            "from ascend_doctor.cli import main\n"
            f"sys.exit(main({list(argv)!r}))")
    env = dict(os.environ, PYTHONPATH=REPO)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO, timeout=120)


@pytest.mark.parametrize("package, argv", [("tabulate", ["matrix", "show"])])
def test_missing_dependency_is_one_line(package, argv):
    line = _one_line_exit_2(_without(package, *argv), package, "pip install")
    assert sys.executable in line


def test_missing_dependency_names_match_setup_cfg():
    from ascend_doctor.errors import RUNTIME_DEPENDENCIES

    import configparser

    cfg = configparser.ConfigParser()
    cfg.read(os.path.join(REPO, "setup.cfg"))
    lines = [line.strip() for line in cfg["options"]["install_requires"].splitlines()]
    # the unconditional ones: those with an environment marker are optional accelerators with a fallback
    declared = [line for line in lines if line and not line.startswith("#") and ";" not in line]
    assert sorted(RUNTIME_DEPENDENCIES.values()) == sorted(declared)


def test_missing_dependency_inside_a_check_is_not_reported_as_a_check_bug(monkeypatch, make_snapshot):
    from ascend_doctor import checks
    from ascend_doctor.doctor import RunOptions, run_checks
    from ascend_doctor.host import SnapshotHost

    spec = next(s for s in checks.all_checks() if s.id.startswith("resources."))

    def needs_packaging(ctx):
        raise ModuleNotFoundError("No module named 'packaging'", name="packaging")

    monkeypatch.setattr(spec, "func", needs_packaging)
    with pytest.raises(ModuleNotFoundError):
        run_checks(SnapshotHost(make_snapshot()), RunOptions(only=[spec.id]))
