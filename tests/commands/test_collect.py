"""`collect` and the replay round trip: the bundle replays the live verdicts and carries no secret."""

import gzip
import io
import json
import os
import tarfile

import pytest

from ascend_doctor.redact import REDACTED, Redactor, env_name_is_safe

from tests.helpers import run_cli

# A customer environment full of fake secrets (none of these values may appear anywhere in a bundle).
SECRETS = {
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "AWS_ACCESS_KEY_ID": "AKIAIOSFODNN7EXAMPLE",
    "OBS_AK": "HPUABCDEFGHIJ1234567",
    "OBS_SK": "Zx9sk0OBSsecretValue1234567890abcdefghijk",
    "GITHUB_TOKEN": "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "HCCL_TLS_PASSWORD": "hccl-tls-pass-7781",
    "MS_AUTH_TOKEN": "ms-auth-token-55aa",
    "DATABASE_URL": "postgres://admin:S3cr3tPassw0rd@db.internal:5432/prod",
    "HTTPS_PROXY": "http://proxyuser:Pr0xyPa55@10.1.2.3:3128",
    "MY_RANDOM_SETTING": "internal-project-codename-zebra",
}
SECRET_VALUES = [v for v in SECRETS.values()] + ["S3cr3tPassw0rd", "Pr0xyPa55", "proxyuser:Pr0xyPa55"]
# Checks whose verdict cannot be replayed: none today. A check that reads something the
# recording host does not see (e.g. a live measurement taken inside the check) goes here with a reason.
NOT_REPLAYABLE = {}


def _archive_bytes(path):
    """Every byte of the archive after gunzip: names, headers and contents (what `zgrep -a` would see)."""
    with gzip.open(path, "rb") as fh:
        return fh.read()


def _findings(proc):
    assert proc.stdout, proc.stderr
    return {f["id"]: f["status"] for f in json.loads(proc.stdout)["findings"]}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    d = tmp_path_factory.mktemp("collect")
    logs = d / "job_logs"
    (logs / "msrun_log").mkdir(parents=True)
    (logs / "msrun_log" / "worker_1.log").write_text(
        "[INFO] start\n"
        f"[INFO] env dump: GITHUB_TOKEN={SECRETS['GITHUB_TOKEN']} OBS_SK={SECRETS['OBS_SK']}\n"
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 1; 60.97 GiB total capacity)\n"
        "[INFO] connecting to https://bob:hunter2pass@git.example.com/repo.git from 192.168.7.21\n")
    with gzip.open(logs / "old.log.gz", "wt") as fh:
        fh.write("EI0006: [PID: 1] 2024-07-12-10:25:01.104.998 Getting socket times out. Reason: x\n")
    (logs / "report.json").write_text('{"schema": "ascend-doctor.report/1", "findings": []}\n')  # not a log
    (logs / "README.md").write_text("# how this job was run\n")
    out = d / "node.tar.gz"
    env = dict(SECRETS)
    proc = run_cli("collect", "--output", str(out), "--logs", str(logs), env=env)
    assert proc.returncode == 0, proc.stderr
    return {"path": str(out), "env": env, "dir": d, "logs": logs}


def test_bundle_replays_the_live_verdicts(bundle):
    live = _findings(run_cli("check", "--format", "json", env=bundle["env"]))
    replay = _findings(run_cli("check", "--format", "json", "--bundle", bundle["path"]))
    assert live, "the live run produced no findings"
    for fid in NOT_REPLAYABLE:
        live.pop(fid, None)
        replay.pop(fid, None)
    assert replay == live
    # and the report collected inside the bundle says the same
    with tarfile.open(bundle["path"]) as tf:
        member = next(m for m in tf.getmembers() if m.name.endswith("/report.json"))
        inside = json.load(tf.extractfile(member))
    assert {f["id"]: f["status"] for f in inside["findings"] if f["id"] not in NOT_REPLAYABLE} == live


def test_no_secret_anywhere_in_the_archive(bundle):
    raw = _archive_bytes(bundle["path"])
    for value in SECRET_VALUES + ["hunter2pass"]:
        assert value.encode() not in raw, f"secret leaked: {value}"
    assert b"bob:hunter2pass" not in raw


def test_env_is_kept_by_allowlist(bundle):
    with tarfile.open(bundle["path"]) as tf:
        member = next(m for m in tf.getmembers() if m.name.endswith("/env.json"))
        env = json.load(tf.extractfile(member))
    assert env["AWS_SECRET_ACCESS_KEY"] == REDACTED and env["MY_RANDOM_SETTING"] == REDACTED
    assert env["HCCL_TLS_PASSWORD"] == REDACTED  # allowed prefix, secret-looking name
    assert env["PATH"] and env["PATH"] != REDACTED
    assert env["HTTPS_PROXY"] == f"http://{REDACTED}@10.1.2.3:3128"


def test_triage_replays_the_collected_logs(bundle):
    proc = run_cli("triage", "--bundle", bundle["path"], "--format", "json")
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)
    ids = [p["id"] for p in data["problems"]]
    assert "TORCH_NPU_OOM" in ids and "HCCL_EI0006_SOCKET_TIMEOUT" in ids
    oom = next(p for p in data["problems"] if p["id"] == "TORCH_NPU_OOM")
    assert oom["first"]["file"].endswith("msrun_log/worker_1.log") and oom["first"]["rank"] == "rank 1"


def test_show_lists_and_writes_nothing(tmp_path):
    proc = run_cli("collect", "--show", "--output", str(tmp_path / "x.tar.gz"), env=SECRETS, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "report.json" in proc.stdout and "AWS_SECRET_ACCESS_KEY" in proc.stdout and "nothing written" in proc.stdout
    for value in SECRET_VALUES:
        assert value not in proc.stdout
    assert list(tmp_path.iterdir()) == []


def test_redact_ips_is_consistent(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.log").write_text("rank0 at 10.20.30.40, rank1 at 10.20.30.41, again 10.20.30.40, mask 255.255.255.0\n")
    out = tmp_path / "b.tar.gz"
    proc = run_cli("collect", "--redact-ips", "--logs", str(logs), "--output", str(out))
    assert proc.returncode == 0, proc.stderr
    raw = _archive_bytes(str(out))
    assert b"10.20.30.40" not in raw and b"10.20.30.41" not in raw
    with tarfile.open(out) as tf:
        member = next(m for m in tf.getmembers() if m.name.endswith("/a.log"))
        text = tf.extractfile(member).read().decode()
    ips = text.split()
    first, second, again = ips[2].rstrip(","), ips[5].rstrip(","), ips[7].rstrip(",")
    assert first == again != second and first.startswith("198.1") and "255.255.255.0" in text


def test_bad_arguments_exit_2(tmp_path):
    assert run_cli("collect", "--logs", str(tmp_path / "nope")).returncode == 2
    proc = run_cli("collect", "--output", str(tmp_path / "missing" / "b.tar.gz"))
    assert proc.returncode == 2 and "does not exist" in proc.stderr


def test_redactor_text_rules():
    r = Redactor({"OBS_SK": "abcdSECRETvalue99", "PATH": "/usr/bin"})
    out = r.text("sk=abcdSECRETvalue99 password: hunter2 --token abc123def https://u:p4ss@host/x "
                 "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijk "
                 "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY----- tokenizer: bert")
    for leaked in ("abcdSECRETvalue99", "hunter2", "abc123def", "p4ss", "MIIEow", "eyJzdWIiOiIxMjM0In0"):
        assert leaked not in out
    assert "tokenizer: bert" in out  # words that merely contain 'token' are left alone
    assert env_name_is_safe("ASCEND_HOME_PATH") and not env_name_is_safe("HCCL_TLS_PASSWORD")
    assert not env_name_is_safe("OBS_AK") and not env_name_is_safe("SOME_VENDOR_VAR")


def test_show_summarises_instead_of_listing_every_entry(tmp_path, make_snapshot):
    """A node has hundreds of /dev, /sys and library entries: --show counts them per kind and per top
    directory and lists only what carries content (files, commands, logs); --show-all lists everything."""
    import re

    proc = run_cli("collect", "--show", env=SECRETS, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    full = run_cli("collect", "--show-all", env=SECRETS, cwd=str(tmp_path))
    total = int(re.search(r"^([\d,]+) entries", proc.stdout, re.M).group(1).replace(",", ""))
    listed = [l for l in full.stdout.splitlines() if re.match(r"^(file|exists|unreadable|link|command|env|log|report) ", l)]
    assert len(listed) == total  # --show-all: one line per entry
    lines = proc.stdout.splitlines()
    assert len(lines) < 120 < total or total < 120, (len(lines), total)
    counted = [int(m.group(1).replace(",", "")) for m in re.finditer(r"^([\d,]+) [a-z]", proc.stdout, re.M)]
    assert sum(counted[:-1]) == total == counted[-1]  # every kind counted; the last line is the total
    assert re.search(r"^[\d,]+ empty entries", proc.stdout, re.M) and re.search(r"[\d,]+ under /", proc.stdout)
    assert "AWS_SECRET_ACCESS_KEY" in proc.stdout and "report.json" in proc.stdout
    for value in SECRET_VALUES:
        assert value not in proc.stdout and value not in full.stdout
    assert list(tmp_path.iterdir()) == []


def _fake_hccn_tool(directory, snapshot):
    """An `hccn_tool` (/bin/sh) that answers `-i N -<query> -g` with what the snapshot recorded for it."""
    with open(os.path.join(snapshot, "commands.json")) as fh:
        records = [r for r in json.load(fh) if r["argv"][0].endswith("hccn_tool")]
    lines = ["#!/bin/sh", 'case "$2 $3" in']
    for r in records:
        argv = r["argv"]
        lines += [f'"{argv[2]} {argv[3]}") cat <<\'EOF\'', r["stdout"].rstrip("\n"), "EOF", ";;"]
    lines += ["esac", ""]
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "hccn_tool")
    with open(path, "w") as fh:
        fh.write("\n".join(lines))
    os.chmod(path, 0o755)
    return str(directory)


def test_collect_records_every_port_query_and_check_bundle_replays_them(tmp_path, monkeypatch):
    """A node with 8 RoCE ports (the hccn_tool answers of the network/link_down snapshot, from a fake tool): the
    bundle holds every query's output, and `check --bundle` names the same DOWN port the live run named."""
    from ascend_doctor import collect as collect_mod
    from ascend_doctor.bundle import open_bundle
    from ascend_doctor.doctor import RunOptions, run_checks
    from ascend_doctor.probes.hccn import QUERY_FLAGS
    from tests.helpers import FIXTURES

    tools = _fake_hccn_tool(tmp_path / "bin", os.path.join(FIXTURES, "network", "link_down"))

    class EightPorts(collect_mod.RecordingHost):  # this machine has no /dev/davinciN: show the node's eight
        def listdir(self, path):
            if path != "/dev":
                return super().listdir(path)
            names = [f"davinci{i}" for i in range(8)]
            self.dirs.add("/dev")
            self.placeholders.update(f"/dev/{n}" for n in names)
            return names

    monkeypatch.setattr(collect_mod, "RecordingHost", EightPorts)
    col = collect_mod.collect(environ={"PATH": f"{tools}:/usr/bin:/bin"}, timeout=5.0)
    asked = {tuple(c["argv"][2:]) for c in col.commands if c["argv"][0].endswith("hccn_tool")}
    assert {(str(i), flag, "-g") for i in range(8) for flag in QUERY_FLAGS} <= asked
    live = {f["id"]: (f["status"], f["summary"]) for f in col.report["findings"] if f["id"].startswith("network.")}
    assert live["network.link"][0] == "fail" and "device(s) 5" in live["network.link"][1]
    path = collect_mod.write_bundle(col, str(tmp_path / "node.tar.gz"))
    with open_bundle(path) as host:
        replay = run_checks(host, RunOptions(timeout=5.0))
    assert {f.id: (f.status, f.summary) for f in replay.findings if f.id.startswith("network.")} == live


def test_logs_are_packed_not_json_reports_or_documents(bundle):
    with tarfile.open(bundle["path"]) as tf:
        names = [m.name for m in tf.getmembers()]
        manifest = json.load(tf.extractfile(next(m for m in tf.getmembers() if m.name.endswith("/manifest.json"))))
    assert any(n.endswith("job_logs/msrun_log/worker_1.log") for n in names)
    assert not any(n.endswith("job_logs/report.json") or n.endswith("job_logs/README.md") for n in names)
    assert sorted(os.path.basename(e["path"]) for e in manifest["logs"]) == ["old.log", "worker_1.log"]


def test_triage_of_the_bundle_is_triage_of_the_directory(bundle):
    """The same logs give the same answer: problems, their places and lines, the unexplained errors, the nodes."""
    packed = json.loads(run_cli("triage", "--bundle", bundle["path"], "--format", "json").stdout)
    direct = json.loads(run_cli("triage", str(bundle["logs"]), "--format", "json").stdout)
    for key in ("problems", "first_problem", "summary", "nodes", "unexplained_errors", "root_cause"):
        assert packed[key] == direct[key], key
    def same(i):  # the packed copy's secrets are redacted: its bytes differ, not its lines
        return {k: v for k, v in i.items() if k != "bytes"}

    assert [same(i) for i in packed["inputs"]] == [same(i) for i in direct["inputs"] if i["scanned"]]


def test_a_bundle_without_logs_is_exit_2_like_an_empty_directory(tmp_path):
    out = tmp_path / "nolog.tar.gz"
    assert run_cli("collect", "--output", str(out)).returncode == 0
    proc = run_cli("triage", "--bundle", str(out))
    assert proc.returncode == 2 and "the bundle holds no logs" in proc.stderr and "Traceback" not in proc.stderr
    (tmp_path / "empty").mkdir()
    empty = run_cli("triage", str(tmp_path / "empty"))
    assert empty.returncode == 2 and "empty directory" in empty.stderr
