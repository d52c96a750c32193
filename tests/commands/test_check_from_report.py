"""`check --from-report REPORT.json`: a saved report's facts, judged again, give the live run's verdicts."""

import json
import os

import pytest

from ascend_doctor.cli import main
from tests.helpers import FIXTURES, run_cli
from tests.helpers.snapshot_reports import snapshot_dirs

SNAPSHOTS = snapshot_dirs()


def _verdicts(report: dict):
    return [(f["id"], f["status"], f["title"], f["fix"], f["summary"], f["evidence"], f["pitfall"])
            for f in report["findings"]]


@pytest.mark.parametrize("name", sorted(SNAPSHOTS))
def test_a_saved_report_judged_again_gives_the_same_verdicts(name, tmp_path, capsys):
    saved, again = tmp_path / "saved.json", tmp_path / "again.json"
    rc = main(["check", "--bundle", SNAPSHOTS[name], "--format", "json", "--output", str(saved)])
    rc_again = main(["check", "--from-report", str(saved), "--format", "json", "--output", str(again)])
    first, second = json.loads(saved.read_text()), json.loads(again.read_text())
    assert first["findings"], name
    assert _verdicts(second) == _verdicts(first)
    assert rc_again == rc and second["summary"] == first["summary"]
    assert second["host"]["kind"] == "report" and second["host"]["judged_before"]["kind"] == "snapshot"
    assert second["facts"] == first["facts"]


def test_the_text_report_says_it_judged_a_saved_report(tmp_path, capsys):
    saved = tmp_path / "r.json"
    main(["check", "--bundle", os.path.join(FIXTURES, "a2_healthy"), "--format", "json", "--output", str(saved)])
    capsys.readouterr()
    main(["check", "--from-report", str(saved), "--no-color"])
    first = capsys.readouterr().out.splitlines()[0]
    assert f"saved report {saved}, judged again" in first


def test_a_bad_report_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "list.json").write_text("[]")
    (tmp_path / "other.json").write_text(json.dumps({"schema": "something-else"}))
    (tmp_path / "shape.json").write_text(json.dumps({"schema": "ascend-doctor.report/1",
                                                     "facts": {"npu": {"devices": [{"npu_id": "x"}]}}}))
    for name in ("bad.json", "list.json", "other.json", "missing.json", "shape.json"):
        proc = run_cli("check", "--from-report", str(tmp_path / name))
        assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, (name, proc.stderr)
        assert name in proc.stderr and "Traceback" not in proc.stderr
    assert "facts.npu.devices[0].npu_id" in run_cli("check", "--from-report", str(tmp_path / "shape.json")).stderr
    both = run_cli("check", "--from-report", str(tmp_path / "bad.json"), "--bundle", os.path.join(FIXTURES, "a2_healthy"))
    assert both.returncode == 2 and "--bundle" in both.stderr


def test_fix_script_from_a_report_uses_todays_verdicts(tmp_path, capsys):
    """fix --script --from-report judges the facts again: a finding the saved report holds but today's checks
    do not give is not in the script."""
    saved = tmp_path / "r.json"
    main(["check", "--bundle", os.path.join(FIXTURES, "a2_env_not_sourced"), "--format", "json",
          "--output", str(saved)])
    data = json.loads(saved.read_text())
    data["findings"].append({"id": "zz.stale", "status": "fail", "title": "Stale verdict",
                             "fix": ["echo a fix from last month"]})
    saved.write_text(json.dumps(data))
    capsys.readouterr()
    main(["fix", "--script", "--from-report", str(saved)])
    script = capsys.readouterr().out
    assert "install.cann_env_sourced" in script and "a fix from last month" not in script


def test_a_missing_report_is_said_to_be_missing(tmp_path):
    """`--from-report missing.json` said "cannot read (not a regular file)"."""
    proc = run_cli("check", "--from-report", str(tmp_path / "missing.json"))
    assert (proc.returncode, proc.stderr) == (
        2, f"ascend-doctor: error: {tmp_path / 'missing.json'}: cannot read (No such file or directory)\n")
    proc = run_cli("check", "--from-report", str(tmp_path))
    assert proc.returncode == 2 and "cannot read (not a regular file)" in proc.stderr


@pytest.mark.parametrize("name", sorted(SNAPSHOTS))
def test_a_report2_is_worded_again_in_chinese_from_its_ids_alone(name, tmp_path, capsys, monkeypatch):
    """A report/2 keeps its facts' phrases as message ids (i18n.facts): judged again in Chinese, it reads as the
    Chinese run of the snapshot, without the regular-expression reader of report/1 files (phrases.reword)."""
    from ascend_doctor import phrases

    saved, live, again = tmp_path / "saved.json", tmp_path / "live.json", tmp_path / "again.json"
    main(["check", "--bundle", SNAPSHOTS[name], "--format", "json", "--output", str(saved)])
    run_cli("check", "--bundle", SNAPSHOTS[name], "--format", "json", "--lang", "zh", "--output", str(live))

    def no_reword(text):
        raise AssertionError(f"phrases.reword asked to word {text!r}")

    monkeypatch.setattr(phrases, "reword", no_reword)
    monkeypatch.setattr(phrases, "reword_stored", no_reword)
    run_cli("check", "--from-report", str(saved), "--format", "json", "--lang", "zh", "--output", str(again))
    first, second = json.loads(live.read_text()), json.loads(again.read_text())
    assert _verdicts(second) == _verdicts(first)
    timing = ("probe_ms",)  # the live run's own timings
    assert {k: v for k, v in second["facts"].items() if k not in timing} == \
        {k: v for k, v in first["facts"].items() if k not in timing}
    assert second.get("i18n") == first.get("i18n")
