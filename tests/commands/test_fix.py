"""`ascend-doctor fix --script`: every fixture's fixes as a bash script that parses, changes the machine only
in ways that are safe to repeat, and is idempotent when run twice in a sandboxed HOME."""

import json
import os
import stat
import subprocess

import pytest

from ascend_doctor.fix_script import active_lines, classify_step, script_for
from ascend_doctor.findings import Finding, Report
from tests.helpers import FIXTURES, SNAPSHOTS, run_cli


def _script(name, tmp_path, *extra):
    proc = run_cli("fix", "--script", "--bundle", os.path.join(FIXTURES, name), "-o", str(tmp_path / "fix.sh"), *extra)
    assert proc.returncode == 0, proc.stderr
    return (tmp_path / "fix.sh").read_text()


def _sandbox(tmp_path):
    """A HOME of its own and stand-ins for every program an active line may call (none reaches the network)."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("# the user's own line\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    for prog in ("pip", "pip3", "python", "python3"):
        p = bin_dir / prog
        p.write_text(f"#!/bin/bash\necho \"{prog} $*\" >> {log}\n")
        p.chmod(p.stat().st_mode | stat.S_IEXEC)
    env = {"HOME": str(home), "PATH": f"{bin_dir}:/usr/bin:/bin", "LANG": "C.UTF-8"}
    return home, env, log


def test_every_fixture_has_snapshots_to_check():
    assert len(SNAPSHOTS) >= 10


@pytest.mark.parametrize("name", SNAPSHOTS)
def test_fixture_script_parses_and_is_idempotent(name, tmp_path):
    text = _script(name, tmp_path)
    assert text.startswith("#!/usr/bin/env bash\n") and "set -euo pipefail" in text
    assert subprocess.run(["bash", "-n", str(tmp_path / "fix.sh")]).returncode == 0
    for line in active_lines(text):  # nothing but the two kinds of change the module allows
        assert line.startswith("grep -qxF ") or line.startswith("pip install ") or line == "set -euo pipefail", line
    home, env, log = _sandbox(tmp_path)
    for _ in range(2):
        run = subprocess.run(["bash", str(tmp_path / "fix.sh")], env=env, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        after_first = (home / ".bashrc").read_text() if _ == 0 else after_first
    assert (home / ".bashrc").read_text() == after_first  # the second run changed nothing
    lines = after_first.splitlines()
    assert lines[0] == "# the user's own line" and len(lines) == len(set(lines))


def test_the_env_not_sourced_fixture_adds_its_source_line_once(tmp_path):
    text = _script("a2_env_not_sourced", tmp_path)
    home, env, _ = _sandbox(tmp_path)
    for _ in range(3):
        subprocess.run(["bash", str(tmp_path / "fix.sh")], env=env, check=True, timeout=60)
    assert (home / ".bashrc").read_text().count("source /usr/local/Ascend/ascend-toolkit/set_env.sh") == 1
    # every problem of the report is in the script, with its id and title
    assert "# [FAIL] install.cann_env_sourced:" in text and "pitfall P08" in text


def test_header_names_host_date_and_verdict(tmp_path):
    text = _script("two_cann_installs", tmp_path)
    head = text.splitlines()[:4]
    assert "two-cann-installs" in head[1] and "Report verdict: 1 fail" in head[2]


@pytest.mark.parametrize("step, kind, words", [
    ("echo 'source /opt/x/set_env.sh' >> ~/.bashrc   # why", "append", "grep -qxF 'source /opt/x/set_env.sh' ~/.bashrc"),
    ("source /usr/local/Ascend/ascend-toolkit/set_env.sh", "note", "in your shell"),
    ("export HCCL_CONNECT_TIMEOUT=600", "note", "in your shell"),
    ("pip install mindspore==2.5.0   # why", "install", "pip install mindspore==2.5.0"),
    ("pip install mindspore", "note", "by hand"),  # no exact version: not repeatable to the same result
    ("sudo reboot", "note", "as root"),
    ("./Ascend-hdk-910b-npu-driver_24.1.0_linux-aarch64.run --full --install-for-all", "note", "as root"),
    ("./Ascend-cann-kernels-<soc>_<release>_linux.run --install", "note", "fill in the <...> parts, then run as root"),
    ("npu-smi info -t board -i 0", "note", "check:"),
    ("grep -n set_env.sh ~/.bashrc /etc/profile.d/* 2>/dev/null", "note", "check:"),
    ("echo 'x' > /etc/motd", "note", "by hand"),
    ("install the driver (as root), then reboot", "note", "by hand"),
    ("mindspore.set_context(enable_graph_kernel=True)", "note", "in your training script"),
    ("from mindspore import amp\nnet = amp.build_train_network(net, opt, level='O2')", "note", "by hand:\nfrom"),
])
def test_classify_step(step, kind, words):
    s = classify_step(step)
    assert s.kind == kind and words in s.text, s


def test_pip_after_an_environment_switch_is_left_to_the_user():
    f = Finding("mindspore.python_supported", "fail", "t", fix=["conda create -n ms python=3.9 -y && conda activate ms",
                                                                 "pip install mindspore==1.10.1"])
    text = script_for(Report(tool={}, host={"name": "n"}, facts={}, findings=[f]), "now")
    assert active_lines(text) == ["set -euo pipefail"]
    assert "# after the step above, in that environment:\n#   pip install mindspore==1.10.1" in text


def test_a_line_shared_by_two_findings_is_written_once():
    step = "echo 'source /opt/a/set_env.sh' >> ~/.bashrc"
    fs = [Finding("a.one", "fail", "one", fix=[step]), Finding("a.two", "warn", "two", fix=[step])]
    text = script_for(Report(tool={}, host={"name": "n"}, facts={}, findings=fs), "now")
    assert sum(1 for line in active_lines(text) if line.startswith("grep -qxF")) == 1


def test_from_report_and_its_bad_inputs(tmp_path):
    proc = run_cli("check", "--bundle", os.path.join(FIXTURES, "a2_env_not_sourced"), "--format", "json")
    (tmp_path / "r.json").write_text(proc.stdout)
    out = run_cli("fix", "--script", "--from-report", str(tmp_path / "r.json"))
    assert out.returncode == 0 and "install.cann_env_sourced" in out.stdout
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "list.json").write_text("[]")
    (tmp_path / "other.json").write_text(json.dumps({"schema": "something-else"}))
    for name in ("bad.json", "list.json", "other.json", "missing.json"):
        bad = run_cli("fix", "--script", "--from-report", str(tmp_path / name))
        assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, (name, bad.stderr)
        assert name in bad.stderr and "Traceback" not in bad.stderr
    assert run_cli("fix", "--bundle", os.path.join(FIXTURES, "a2_env_not_sourced")).returncode == 2  # --script


def test_a_report_without_problems_gets_a_script_that_says_so():
    ok = Finding("install.driver_present", "pass", "driver", fix=[])
    text = script_for(Report(tool={}, host={"name": "n"}, facts={}, findings=[ok]), "now")
    assert active_lines(text) == ["set -euo pipefail"] and "Nothing to fix" in text


@pytest.mark.parametrize("step", ["npu-smi info -t board -i 0   # why", "source /opt/x/set_env.sh",
                                  "sudo reboot", "./Ascend-cann-kernels-<soc>_<release>_linux.run --install",
                                  "mindspore.set_context(enable_graph_kernel=True)"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_command_note_puts_the_command_alone_on_its_line(step, lang):
    """The label of a note is its own comment line; the command under it, once the comment mark and indent are
    removed, is exactly the step's command (never 'check: npu-smi ...', which does not paste)."""
    from ascend_doctor import i18n
    from ascend_doctor.plan import split_comment

    i18n.set_lang(lang)
    try:
        label, command = classify_step(step).text.split("\n")
    finally:
        i18n.set_lang("en")
    assert label.endswith((":", "：")) and command.startswith("  ")
    assert command.strip() == step.strip()
    assert split_comment(step, quotes="'\"")[0].rstrip() not in label


def test_zh_script_names_statuses_in_chinese(tmp_path):
    text = _script("two_cann_installs", tmp_path, "--lang", "zh")
    assert "# [失败] " in text and "[FAIL]" not in text and "[WARN]" not in text


@pytest.mark.parametrize("name", ["two_cann_installs", "a2_env_not_sourced"])
def test_zh_script_comments_read_as_chinese_sentences(name, tmp_path):
    """issue 27 #37: a look is labelled 验证 (the vendor's word for checking a result), a step done by hand is one
    sentence: no second '#' inside its comment, no 'label：`code`' pair after its own label, no Markdown code span."""
    text = _script(name, tmp_path, "--lang", "zh")
    notes = [ln for ln in text.splitlines() if ln.startswith("# 手动操作：")]
    assert "# 验证：" in text and "# 查看：" not in text
    assert notes and not [ln for ln in notes if " # " in ln[2:] or "`" in ln or ln.count("：") > 1 + ln.count("：//")]
    assert "——" in text  # the reason of a by-hand step, after a dash
