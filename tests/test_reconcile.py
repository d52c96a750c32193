"""One problem, one fix: no two fixes of one report set a variable, or a file's source line, differently."""

import json
import shutil

import pytest

from ascend_doctor.findings import FAIL, WARN, Finding
from ascend_doctor.reconcile import Action, actions, conflicts, reconcile

from tests.helpers import fixture_path, run_json
from tests.helpers.snapshot_reports import all_reports, snapshot_dirs


@pytest.mark.parametrize("name", sorted(snapshot_dirs()))
def test_no_two_fixes_of_a_fixture_report_disagree(name):
    report = all_reports()[name]
    assert [c.describe() for c in conflicts(report.findings)] == []
    # ... and the checks agreed by themselves: the last-line reconciliation had nothing to do.
    assert [f.id for f in report.findings if "fix reconciled" in f.evidence] == []


def _with_env(tmp_path, fixture, **env):
    snap = tmp_path / fixture
    shutil.copytree(fixture_path(fixture), snap, symlinks=True)
    data = json.loads((snap / "env.json").read_text())
    data.update(env)
    (snap / "env.json").write_text(json.dumps(data))
    return str(snap)


def _fixes(data):
    return {f["id"]: f for f in data["findings"]}


def test_a_misspelled_hccl_name_beside_the_right_one_gives_one_value(tmp_path):
    snap = _with_env(tmp_path, "a2_healthy", HCCL_CONECT_TIMEOUT="300", HCCL_CONNECT_TIMEOUT="60")
    _, data = run_json("check", "--bundle", snap)
    by = _fixes(data)
    assert by["hccl.env_values"]["fix"][0].startswith("export HCCL_CONNECT_TIMEOUT=120")
    assert not any("HCCL_CONNECT_TIMEOUT=" in step for step in by["hccl.env_names"]["fix"])
    assert by["hccl.env_names"]["fix"][0].startswith("unset HCCL_CONECT_TIMEOUT")
    exported = {s.split()[1] for f in data["findings"] for s in f["fix"] if s.startswith("export HCCL_CONNECT")}
    assert exported == {"HCCL_CONNECT_TIMEOUT=120"}


def test_a_misspelled_name_alone_moves_a_valid_value_only(tmp_path):
    snap = _with_env(tmp_path, "a2_healthy", HCCL_CONECT_TIMEOUT="60")
    _, data = run_json("check", "--bundle", snap)
    fix = _fixes(data)["hccl.env_names"]["fix"]
    assert fix[0] == "unset HCCL_CONECT_TIMEOUT" and fix[1].startswith("export HCCL_CONNECT_TIMEOUT=120")
    snap = _with_env(tmp_path / "b", "a2_healthy", HCCL_CONECT_TIMEOUT="600")
    _, data = run_json("check", "--bundle", snap)
    assert _fixes(data)["hccl.env_names"]["fix"] == ["unset HCCL_CONECT_TIMEOUT", "export HCCL_CONNECT_TIMEOUT=600"]


def test_two_cann_installs_get_one_fix_not_a_bashrc_append_and_a_keep_only():
    _, data = run_json("check", "--bundle", fixture_path("two_cann_installs"))
    by = _fixes(data)
    assert by["install.cann_multiple"]["status"] == WARN and by["install.cann_env_sourced"]["status"] in (WARN, FAIL)
    assert by["install.cann_env_sourced"]["fix"] == by["install.cann_multiple"]["fix"]
    assert not any(">> ~/.bashrc" in s for f in data["findings"] for s in f["fix"])


# -- the reader of fix steps --------------------------------------------------------------------

def test_actions_read_what_a_step_does():
    assert actions("export A=1 B=/x   # why") == [Action("set", "env:A", "1"), Action("set", "env:B", "/x")]
    assert actions("export LD_LIBRARY_PATH=/x:$LD_LIBRARY_PATH") == []  # adds to it: disagrees with nothing
    assert actions("export RANK_ID=<0..7>") == []  # a placeholder
    assert actions("or: export A=2") == []  # an alternative
    assert actions("echo 'source /a/set_env.sh' >> ~/.bashrc   # new shells") == [
        Action("append", "set_env.sh", "/a/set_env.sh", "~/.bashrc")]
    assert actions("echo 'export CUDA_HOME=/c' >> ~/.bashrc") == [Action("set", "env:CUDA_HOME", "/c")]
    assert actions("keep only: source /a/set_env.sh   (and remove source /b/set_env.sh, source /c/set_env.sh)") == [
        Action("keep_only", "set_env.sh", "/a/set_env.sh"), Action("remove", "set_env.sh", "/b/set_env.sh"),
        Action("remove", "set_env.sh", "/c/set_env.sh")]
    assert actions("source /usr/local/Ascend/ascend-toolkit/set_env.sh") == [
        Action("source", "set_env.sh", "/usr/local/Ascend/ascend-toolkit/set_env.sh")]


@pytest.mark.parametrize("a, b", [
    ("export HCCL_CONNECT_TIMEOUT=300", "export HCCL_CONNECT_TIMEOUT=120"),
    ("source /a/set_env.sh", "source /b/set_env.sh"),
    ("echo 'source /a/set_env.sh' >> ~/.bashrc", "keep only: source /a/set_env.sh   (and remove source /b/set_env.sh)"),
    ("source /b/set_env.sh", "keep only: source /a/set_env.sh   (and remove source /b/set_env.sh)"),
])
def test_disagreeing_steps_of_two_findings_are_found(a, b):
    f1, f2 = Finding("x.one", FAIL, "t", fix=[a]), Finding("x.two", WARN, "t", fix=[b])
    assert conflicts([f1, f2])
    assert conflicts([Finding("x.one", FAIL, "t", fix=[a, b])]) == []  # steps of one finding are its own business


def test_agreeing_steps_are_not_conflicts():
    f1 = Finding("x.one", FAIL, "t", fix=["source /a/set_env.sh", "export A=1"])
    f2 = Finding("x.two", WARN, "t", fix=["source /a/set_env.sh   # same", "export A=1", "or: export A=2"])
    assert conflicts([f1, f2]) == []


def test_reconcile_keeps_the_owner_and_points_the_other_at_it():
    other = Finding("hccl.env_names", FAIL, "t", fix=["unset HCCL_CONECT_TIMEOUT", "export HCCL_CONNECT_TIMEOUT=300"])
    owner = Finding("hccl.env_values", WARN, "t", fix=["export HCCL_CONNECT_TIMEOUT=120"])
    changed = reconcile([other, owner])
    assert len(changed) == 1 and owner.fix == ["export HCCL_CONNECT_TIMEOUT=120"]
    assert other.fix[0] == "unset HCCL_CONECT_TIMEOUT"
    assert other.fix[1].startswith("(left out: export HCCL_CONNECT_TIMEOUT=300)") and "hccl.env_values" in other.fix[1]
    assert conflicts([other, owner]) == [] and other.evidence["fix reconciled"]
    # without a declared owner the more severe finding decides
    a, b = Finding("a.x", WARN, "t", fix=["export Z=1"]), Finding("b.x", FAIL, "t", fix=["export Z=2"])
    reconcile([a, b])
    assert b.fix == ["export Z=2"] and a.fix[0].startswith("(left out")
