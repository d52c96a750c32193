"""Checks see facts, never the host: the environment they judge is a typed fact (facts.env), read once."""

import os
import re

from ascend_doctor.checks import CheckContext
from ascend_doctor.facts import EnvFacts, Facts
from ascend_doctor.host import SnapshotHost
from ascend_doctor.probes import collect_facts
from ascend_doctor.probes.environment import env_facts
from ascend_doctor.records import fields
from ascend_doctor.redact import REDACTED
from tests.helpers import REPO


def test_env_facts_keep_configuration_and_launch_variables_only():
    env = env_facts({"HCCL_BUFFSIZE": "200", "hccl_buffsize": "100", "ASCEND_HOME_PATH": "/usr/local/Ascend/x",
                     "PATH": "/usr/bin", "RANK_ID": "3", "CM_CHIEF_IP": "10.0.0.1", "OMPI_COMM_WORLD_RANK": "0",
                     "MINDSPORE_HCCL_CONFIG_PATH": "/job/t.json", "WORLD_SIZE": "8",
                     "HCCL_TLS_PASSWORD": "hunter22", "EDITOR": "vi", "AWS_SECRET_ACCESS_KEY": "abcd1234"})
    assert env["HCCL_BUFFSIZE"] == "200" and env["hccl_buffsize"] == "100"  # a misspelling is judged too
    for name in ("ASCEND_HOME_PATH", "PATH", "RANK_ID", "CM_CHIEF_IP", "OMPI_COMM_WORLD_RANK",
                 "MINDSPORE_HCCL_CONFIG_PATH", "WORLD_SIZE"):
        assert name in env, name
    assert env["HCCL_TLS_PASSWORD"] == REDACTED  # the name stays (is it set?), the secret does not
    assert "EDITOR" not in env and "AWS_SECRET_ACCESS_KEY" not in env
    assert dict(env) == env.variables and env.get("NOPE") is None


def test_probe_reads_the_environment_once_into_the_facts(make_snapshot):
    facts = collect_facts(SnapshotHost(make_snapshot(env={"HCCL_CONNECT_TIMEOUT": "600", "DEVICE_ID": "1"})))
    assert isinstance(facts.env, EnvFacts)
    assert facts.env["HCCL_CONNECT_TIMEOUT"] == "600" and facts.env["DEVICE_ID"] == "1"
    assert facts.to_json()["env"]["variables"]["HCCL_CONNECT_TIMEOUT"] == "600"


def test_a_check_context_holds_no_host():
    assert [f.name for f in fields(CheckContext)] == ["facts", "options", "_matrix", "_kb", "spec"]
    assert CheckContext(facts=Facts()).facts.env == EnvFacts()


def test_no_check_reaches_past_the_facts():
    """ctx.env and ctx.host are gone; os.environ in a check would judge the doctor's shell, not the facts."""
    checks = os.path.join(REPO, "ascend_doctor", "checks")
    for name in sorted(os.listdir(checks)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(checks, name), encoding="utf-8") as f:
            text = f.read()
        for pattern in (r"\bctx\.env\b", r"\bctx\.host\b", r"\bos\.environ\b", r"\bos\.getenv\b"):
            assert not re.search(pattern, text), (name, pattern)
