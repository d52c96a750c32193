"""Secrets in the environment never reach a report, in any output format, from any subcommand.

The environment of a training node often carries credentials (object-store keys, TLS passwords,
tokens for model hubs). The report only needs to know a variable is set: values of secret-looking
names must not appear in text, JSON, Markdown, JUnit, Prometheus or the aggregate's HTML.
"""

import json
import os

import pytest

from conftest import fixture_path, run_cli

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
