"""commands/smoke.py and check --smoke: when the smoke train runs, its arguments and progress."""

import pytest
from ascend_doctor.smoke import classify
from tests.helpers import run_cli, run_json
from tests.smoke.test_smoke import FAULT  # noqa: F401


def test_check_without_smoke_never_runs_it():
    proc, report = run_json("check", env={FAULT: "crash:import"})
    assert not [f for f in report["findings"] if f["id"].startswith("smoke.")]


def test_check_smoke_adds_the_smoke_findings(tmp_path):
    proc, report = run_json("check", "--smoke", "--only", "smoke", env={FAULT: "missing_mindspore"})
    assert proc.returncode == 1
    assert {f["id"] for f in report["findings"]} == {fid for fid, _, _ in classify.FINDINGS}


def test_check_smoke_on_a_bundle_is_skipped(make_snapshot):
    snap = make_snapshot(files={"/etc/os-release": 'PRETTY_NAME="Debian"\n'})
    proc, report = run_json("check", "--smoke", "--bundle", str(snap), "--only", "smoke")
    assert [(f["id"], f["status"]) for f in report["findings"]] == [("smoke.train", "skip")]


@pytest.mark.parametrize("args, message", [
    (["--steps", "3"], "--steps 3: at least 10 steps"),
    (["--stage-timeout", "compile=5"], "--stage-timeout compile=5: stage must be one of"),
    (["--stage-timeout", "graph_compile=-1"], "expected a positive number of seconds"),
    (["--ranks", "0"], "--ranks 0: expected at least 1 worker"),
    (["--ranks", "2", "--master-port", "80"], "--master-port 80: expected a port in 1024..65535"),
    (["--ranks", "2", "--nnodes", "2"], "--node-rank: required with --nnodes > 1"),
    (["--device", "npu"], "invalid choice: 'npu'"),
])
def test_bad_arguments_exit_2_with_one_line(args, message):
    proc = run_cli("smoke", *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_tty_progress_is_one_live_line():
    import io

    class Tty(io.StringIO):
        def isatty(self):
            return True

    out = Tty()
    from ascend_doctor.smoke.session import StageProgress

    p = StageProgress(out)
    p("start", "graph_compile", {})
    p("end", "graph_compile", {"status": "pass", "ms": 1200})
    p.done()
    text = out.getvalue()
    assert text.startswith("\rsmoke: [4/10] graph_compile ... 0 s")
    assert "\rsmoke: [4/10] graph_compile pass (1.2 s)" in text and text.count("\n") == 1
