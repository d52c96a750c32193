"""One policy for "is this a secret": collect, every renderer, hccl.env_names and the launch probe agree.

The values below must not appear in any file of a bundle nor in any report format, whatever
prefix the name carries (HCCL_/MS_ names are otherwise kept as configuration)."""

import os
import tarfile

import pytest

from ascend_doctor.redact import REDACTED, Redactor, is_secret, shown_env_value

from tests.helpers import run_cli

SECRETS = {
    "HCCL_TLS_PWD": "tlsPwdValue-4417",
    "HCCL_OBS_AK": "ObsAccessKey99ZZ",
    "MS_SESSION_ID": "sess-5d41402abc4b2a76",
    "FOO_PASSWD": "fooPasswdValue-88",
    "X_SK": "xSecretKeyValue-31",
    "MY_CREDENTIALS": "credsValue-Q7Q7",
    "API_TOKEN": "apiTokenValue-6060",
    "HCCL_TLS_PRIVATE_KEY": "privKeyValue-1212",
    # a URL with credentials under a kept name: the address may stay, the user:password may not
    "PIP_INDEX_URL": "https://pipuser:PipPassw0rd-99@mirror.example.com/simple",
    "MS_SCHED_URL": "tcp://schedUser:SchedPw-2323@10.0.0.1:8118",
}
LEAKS = [v for k, v in SECRETS.items() if "://" not in v] + ["PipPassw0rd-99", "pipuser:", "SchedPw-2323"]

SECRET_NAMES = ["HCCL_TLS_PWD", "HCCL_TLS_PASSWD", "DB_PASSWORD", "MYPASSWORD", "HCCL_OBS_AK", "OBS_SK", "X_SK",
                "MS_SESSION_ID", "SESSION", "XDG_SESSION_COOKIE", "MY_CREDENTIALS", "GOOGLE_APPLICATION_CREDENTIALS",
                "API_TOKEN", "HF_TOKEN", "ASCEND_API_KEY", "AWS_SECRET_ACCESS_KEY", "SSH_KEY", "KEY", "APIKEY",
                "TLS_KEY_FILE", "MS_AUTH_TOKEN", "HCCL_AUTH", "HCCL_TLS_PRIVATE_KEY", "apiKey", "sessionId", "dbPwd",
                "MY_PASS", "SECRET", "OBS_SECRET_ACCESS_KEY"]
PLAIN_NAMES = ["PATH", "PWD", "OLDPWD", "HOME", "HCCL_CONNECT_TIMEOUT", "HCCL_IF_IP", "MS_ROLE", "RANK_TABLE_FILE",
               "HCCL_OP_KEYWORD", "KEYBOARD_LAYOUT", "GIT_AUTHOR_NAME", "MS_CANN_CUSTOM_PACKAGE_SKIPPED",
               "HCCL_BYPASS_MODE", "TOKENIZERS_PARALLELISM", "MASK", "TASK_ID", "ASCEND_SLOG_PRINT_TO_STDOUT", "HCCL_TLS_CERT_PATH",
               "KeyError"]


@pytest.mark.parametrize("name", SECRET_NAMES)
def test_secret_names(name):
    assert is_secret(name), name
    assert shown_env_value(name, "some-value-1234") == REDACTED


@pytest.mark.parametrize("name", PLAIN_NAMES)
def test_plain_names(name):
    assert not is_secret(name), name
    assert shown_env_value(name, "/some/value") == "/some/value"


def test_values_that_are_secrets_whatever_the_name():
    assert is_secret("HCCL_WHATEVER", "ghp_16C7e42F292c6912E7710c838347Ae178B4a")
    assert is_secret("NOTE", "-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----")
    assert is_secret("MS_SCHED_URL", "tcp://u:pw12345@host:1")
    assert not is_secret("MS_SCHED_HOST", "10.0.0.1")
    shown = shown_env_value("MS_SCHED_URL", "tcp://u:pw12345@host:1")
    assert "pw12345" not in shown and "host:1" in shown


def test_launch_probe_and_redactor_share_the_policy():
    from ascend_doctor.probes.launch import launch_variables, shown_value

    env = dict(SECRETS, HCCL_CONNECT_TIMEOUT="600")
    kept = launch_variables(env)
    assert kept["HCCL_CONNECT_TIMEOUT"] == "600"
    for name in SECRETS:
        assert shown_value(name, SECRETS[name]) == shown_env_value(name, SECRETS[name])
    text = repr(kept)
    for leak in LEAKS:
        assert leak not in text, leak
    redacted_env = Redactor().env(env)
    for name in SECRET_NAMES:
        assert Redactor().env({name: "v" * 8})[name] == REDACTED, name
    assert "SchedPw-2323" not in redacted_env["MS_SCHED_URL"]


def test_text_assignments_follow_the_name_policy():
    r = Redactor()
    out = r.text("HCCL_TLS_PWD=abcd1234 HCCL_OBS_AK: zzzz9999 MS_SESSION_ID='s-77777' HCCL_CONNECT_TIMEOUT=600 "
                 "PWD=/home/u --tls-pwd hunter22 keyword: cluster")
    for leak in ("abcd1234", "zzzz9999", "s-77777", "hunter22"):
        assert leak not in out, out
    assert "HCCL_CONNECT_TIMEOUT=600" in out and "PWD=/home/u" in out and "keyword: cluster" in out
    # Python's KeyError names the missing dict key (a weight name a triage title shows), not a secret; a secret-named
    # assignment on the same line is still hidden
    out = r.text("KeyError: 'model.layers.0.self_attn.q_proj.weight' API_KEY=abcd1234")
    assert "KeyError: 'model.layers.0.self_attn.q_proj.weight'" in out and "abcd1234" not in out, out


def test_a_message_listing_keys_is_not_a_secret_assignment():
    """The bare word `keys` before a colon lists a store's or a dict's keys (torch's store timeout names the missing rank
    in them; transformers the outputs a model returned): shown; any other name with KEY in it still hides its value, and
    a token in the list is still hidden."""
    r = Redactor()
    for line in ("torch.distributed.DistStoreError: wait timeout after 10000ms, keys: /default_pg/0//cpu//0/2",
                 "ValueError: The model did not return a loss from the inputs, only the following keys: "
                 "last_hidden_state,past_key_values."):
        assert r.text(line) == line
    out = r.text("KEYS: abcd1234 api_keys: efgh5678 ssh_keys: ijkl9012 keys=mnop3456 key: qrst7890 "
                 "keys: hf_abcdefghijklmnopqrstuvwxyzABCDEFGH")
    for leak in ("abcd1234", "efgh5678", "ijkl9012", "mnop3456", "qrst7890", "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH"):
        assert leak not in out, out


def _assert_clean(text, where):
    for leak in LEAKS:
        assert leak not in text, f"{leak!r} leaked into {where}"


def test_collect_bundle_holds_no_secret_value(tmp_path):
    out = tmp_path / "node.tar.gz"
    proc = run_cli("collect", "--output", str(out), env=SECRETS, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    _assert_clean(proc.stdout + proc.stderr, "collect's own output")
    dest = tmp_path / "unpacked"
    with tarfile.open(out) as tf:
        tf.extractall(dest)
    files = 0
    for root, _, names in os.walk(dest):
        for name in names:
            path = os.path.join(root, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            with open(path, "rb") as fh:
                _assert_clean(fh.read().decode("utf-8", "replace"), os.path.relpath(path, dest))
            files += 1
    assert files > 5
    env_json = next(p for p in (os.path.join(r, n) for r, _, ns in os.walk(dest) for n in ns) if p.endswith("/env.json"))
    import json

    with open(env_json) as fh:
        env = json.load(fh)
    assert env["HCCL_TLS_PWD"] == REDACTED and env["MS_SESSION_ID"] == REDACTED
    assert env["PIP_INDEX_URL"].endswith("@mirror.example.com/simple")


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "junit", "prom"])
def test_check_formats_hold_no_secret_value(fmt):
    proc = run_cli("check", "--format", fmt, env=SECRETS)
    assert proc.stdout, proc.stderr
    _assert_clean(proc.stdout + proc.stderr, f"check --format {fmt}")


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "junit", "prom"])
def test_checking_a_bundle_that_holds_secrets_shows_none(fmt, make_snapshot):
    # a snapshot written by hand or by an older collector: its env.json still carries the values
    snap = make_snapshot(env=dict(SECRETS, HCCL_CONNECT_TIMEOUT="600"))
    proc = run_cli("check", "--bundle", snap, "--format", fmt)
    assert proc.stdout, proc.stderr
    _assert_clean(proc.stdout + proc.stderr, f"check --bundle --format {fmt}")


def test_preflight_and_aggregate_hold_no_secret_value(tmp_path):
    reports = tmp_path / "reports"
    proc = run_cli("preflight", "--report-dir", str(reports), "--also", "junit,prom,text,markdown",
                   "--format", "json", env=SECRETS)
    assert proc.stdout, proc.stderr
    _assert_clean(proc.stdout + proc.stderr, "preflight output")
    written = sorted(os.listdir(reports))
    assert len(written) == 5, written
    for name in written:
        _assert_clean((reports / name).read_text(), name)
    for fmt in ("text", "json", "html"):
        agg = run_cli("aggregate", str(reports), "--format", fmt, env=SECRETS)
        assert agg.stdout, agg.stderr
        _assert_clean(agg.stdout + agg.stderr, f"aggregate --format {fmt}")


def test_aggregate_of_reports_that_hold_secrets_shows_none(tmp_path):
    # reports written by an older doctor (or by hand) may still carry a secret launch variable
    import json

    proc = run_cli("check", "--format", "json", "--only", "hccl")
    report = json.loads(proc.stdout)
    launch = report["facts"].setdefault("extra", {}).setdefault("launch", {})
    for i in (1, 2):
        launch["name"] = f"node{i}"
        launch["variables"] = {"HCCL_OBS_AK": f"ObsAccessKey99Z{i}", "HCCL_TLS_PWD": f"tlsPwdValue-441{i}",
                               "HCCL_CONNECT_TIMEOUT": "600"}
        (tmp_path / f"node{i}.json").write_text(json.dumps(report))
    for fmt in ("text", "json", "html"):
        agg = run_cli("aggregate", str(tmp_path), "--format", fmt)
        assert agg.stdout, agg.stderr
        for leak in ("ObsAccessKey99Z", "tlsPwdValue-441"):
            assert leak not in agg.stdout, f"{leak} leaked into aggregate --format {fmt}"
