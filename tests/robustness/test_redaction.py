"""Secrets in the environment never reach a report, in any output format, from any subcommand.

The environment of a training node often carries credentials (object-store keys, TLS passwords,
tokens for model hubs). The report only needs to know a variable is set: values of secret-looking
names must not appear in text, JSON, Markdown, JUnit, Prometheus or the aggregate's HTML.
"""

import json
import os

import pytest

from tests.helpers import fixture_path, run_cli

SECRETS = {
    "HCCL_TLS_PASSWORD": "hunter2-hccl-9b7c",  # unknown HCCL_* name: used to be echoed in hccl.env_names
    "MS_AUTH_TOKEN": "tok-ms-5e1f77aa",
    "ASCEND_API_KEY": "ak-ascend-0c3d91",
    "OBS_SECRET_ACCESS_KEY": "obs-sk-77f0e2d1",
    "HF_TOKEN": "hf_abcdefghijklmnopqrstuvwxyz0123",
    "MINDSPORE_PASSWD": "pw-mindspore-4411",
}
FORMATS = ["text", "json", "markdown", "junit", "prom"]


def assert_no_secret(text, where):
    leaked = [name for name, value in SECRETS.items() if value in text]
    assert not leaked, f"{where}: values of {leaked} leaked"


@pytest.mark.parametrize("fmt", FORMATS)
def test_check_on_this_machine(fmt):
    proc = run_cli("check", "--format", fmt, env=SECRETS)
    assert proc.returncode in (0, 1), proc.stderr
    assert_no_secret(proc.stdout + proc.stderr, f"check --format {fmt}")


@pytest.mark.parametrize("fmt", FORMATS)
def test_check_on_a_bundle_whose_env_holds_secrets(tmp_path, fmt):
    import shutil

    snap = tmp_path / "snap"
    shutil.copytree(fixture_path("distributed_910b_node"), snap)
    env = json.loads((snap / "env.json").read_text())
    env.update(SECRETS)
    (snap / "env.json").write_text(json.dumps(env))
    proc = run_cli("check", "--bundle", str(snap), "--format", fmt)
    assert proc.returncode in (0, 1), proc.stderr
    assert_no_secret(proc.stdout + proc.stderr, f"check --bundle --format {fmt}")


def test_preflight_files_and_the_aggregate(tmp_path):
    reports = tmp_path / "reports"
    env = dict(SECRETS, RANK_ID="0", RANK_SIZE="1")
    proc = run_cli("preflight", "--report-dir", str(reports), "--also", "junit,prom,text,markdown",
                   "--format", "json", env=env)
    assert proc.returncode in (0, 1), proc.stderr
    assert_no_secret(proc.stdout + proc.stderr, "preflight stdout")
    for name in os.listdir(reports):
        assert_no_secret((reports / name).read_text(), f"preflight {name}")
    for fmt in ("text", "json", "html"):
        out = tmp_path / f"agg.{fmt}"
        proc = run_cli("aggregate", str(reports), "--format", fmt, "--output", str(out))
        assert proc.returncode in (0, 1), proc.stderr
        assert_no_secret(out.read_text(), f"aggregate --format {fmt}")


# -- outputs that quote what they read: triage log lines, the smoke child's stderr ----------------

LOG_WITH_SECRETS = (
    f"[INFO] connecting to obs://bucket with token={SECRETS['HF_TOKEN']}\n"
    "ImportError: libascendcl.so: cannot open shared object file: No such file or directory "
    f"password={SECRETS['HCCL_TLS_PASSWORD']}\n"
    "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.70 GiB total capacity) "
    f"https://user:{SECRETS['OBS_SECRET_ACCESS_KEY']}@obs.example.com/ckpt\n"
    f"[ERROR] auth failed for key {SECRETS['ASCEND_API_KEY']}\n"  # only known as ASCEND_API_KEY's value
)


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_triage_quotes_log_lines_without_their_secrets(tmp_path, fmt):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "worker_0.log").write_text(LOG_WITH_SECRETS)
    proc = run_cli("triage", str(logs), "--format", fmt, "--output", str(tmp_path / "out"), env=SECRETS)
    assert proc.returncode in (0, 1), proc.stderr
    out = (tmp_path / "out").read_text()
    assert "libascendcl.so" in out  # the known problem is still reported, with its line
    assert_no_secret(out + proc.stderr, f"triage --format {fmt}")


def test_a_later_triage_in_the_same_process_redacts_its_own_secrets(tmp_path):
    """The redactor reads the environment of the triage that uses it: a triage run in-process after another one
    (the Python API, a test session) without these secrets still scrubs them."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "worker_0.log").write_text(LOG_WITH_SECRETS)
    first = run_cli("triage", str(logs), "--format", "json")  # no secret in its environment
    assert first.returncode in (0, 1), first.stderr
    proc = run_cli("triage", str(logs), "--format", "json", env=SECRETS)
    assert proc.returncode in (0, 1), proc.stderr
    assert_no_secret(proc.stdout + proc.stderr, "a second triage in the same process")


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "junit"])
def test_smoke_quotes_the_childs_stderr_without_its_secrets(tmp_path, fmt):
    fake = tmp_path / "fake" / "mindspore"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text(
        "import sys\n"
        f"sys.stderr.write({LOG_WITH_SECRETS!r})\n"
        f"raise ImportError('libascendcl.so: cannot open shared object file: password={SECRETS['MS_AUTH_TOKEN']}')\n")
    from tests.helpers import REPO

    env = dict(SECRETS, PYTHONPATH=str(tmp_path / "fake") + os.pathsep + REPO)
    proc = run_cli("smoke", "--device", "cpu", "--format", fmt, env=env)
    assert proc.returncode == 1, proc.stderr
    assert "libascendcl.so" in proc.stdout
    assert_no_secret(proc.stdout + proc.stderr, f"smoke --format {fmt}")


def test_collect_show_lists_no_secret():
    proc = run_cli("collect", "--show", "--timeout", "2", env=SECRETS)
    assert proc.returncode == 0, proc.stderr
    assert_no_secret(proc.stdout + proc.stderr, "collect --show")
