"""`ascend-doctor matrix show|check|update` through the real CLI. Downloads come from a local
HTTP server on 127.0.0.1 (never the internet); the cache goes to a temporary XDG_CACHE_HOME."""

import functools
import hashlib
import http.server
import json
import os
import threading

import pytest

from ascend_doctor.data import data_path
from tests.helpers import FIXTURES, run_cli, run_json
from tests.helpers.i18n_asserts import assert_shows


@pytest.fixture
def cache_env(tmp_path):
    return {"XDG_CACHE_HOME": str(tmp_path / "cache")}


@pytest.fixture
def http_dir(tmp_path):
    """Serve tmp_path/www over HTTP on 127.0.0.1; yields (directory, base_url)."""
    www = tmp_path / "www"
    www.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(www)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield www, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def bundled():
    with open(data_path("compat_matrix.json"), encoding="utf-8") as fh:
        return json.load(fh)


def publish(www, name, data):
    body = (json.dumps(data) if not isinstance(data, (bytes, str)) else data)
    body = body.encode() if isinstance(body, str) else body
    (www / name).write_bytes(body)
    return hashlib.sha256(body).hexdigest()


# --- show ---

def test_show_all_releases_as_a_table():
    proc = run_cli("matrix", "show")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert any(l.startswith("2.6.0 ") and "7.6, 7.7" in l and "8.1.RC1" in l for l in lines)
    assert_shows(proc.stdout, "{count} MindSpore releases; `matrix show --mindspore V` for sources and notes.", count=45)


def test_show_mindspore_names_sources_and_the_disagreement():
    proc = run_cli("matrix", "show", "--mindspore", "2.6.0")
    assert proc.returncode == 0
    assert "mindspore-ai/mindspore_test" in proc.stdout and "ascend-deployer" in proc.stdout
    assert "NO" in proc.stdout and "Sources disagree" in proc.stdout


def test_show_cann_by_release_or_compiler_version_json():
    _, data = run_json("matrix", "show", "--cann", "7.3.0.1.231")
    assert data["cann"] == "8.0.RC2" and data["compiler"] == "7.3"
    assert {s["mindspore"] for s in data["mindspore"]} == {"2.3.0", "2.3.1", "2.4.0", "2.4.1"}
    assert data["matrix"]["source"] == "bundled"
    proc, data = run_json("matrix", "show", "--cann", "8.0.RC3")
    assert data["compiler"] == "7.5" and any("24.1.RC3" in r["hdk"] for r in data["hdk"])


def test_show_driver():
    _, data = run_json("matrix", "show", "--driver", "24.1.rc3")
    assert data["driver_sample"]["compatible_version_fw"] == [["7.0.0", "7.5.99"]]
    assert {r["cann"] for r in data["rows"]} >= {"8.0.RC3", "8.2.RC1"}


def test_show_unknown_release_says_unknown_and_exits_1():
    proc = run_cli("matrix", "show", "--mindspore", "3.9.9")
    assert proc.returncode == 1 and "unknown" in proc.stdout


def test_show_rejects_a_non_version():
    proc = run_cli("matrix", "show", "--cann", "latest")
    assert proc.returncode == 2 and "--cann" in proc.stderr and "Traceback" not in proc.stderr


# --- check (planned install) ---

def test_check_planned_mismatch_fails_with_both_fixes():
    proc, data = run_json("matrix", "check", "--mindspore", "2.6.0", "--cann", "8.2.RC1", "--driver", "25.2.0",
                          "--python", "3.10")
    assert proc.returncode == 1
    f = {x["id"]: x for x in data["findings"]}
    ms = f["compat.mindspore_cann"]
    assert ms["status"] == "fail" and ms["pitfall"] == "P07"
    # keeping CANN 8.2.RC1: the newest MindSpore published with it (MindFormers' table pairs 2.7.0 with it), not
    # 2.10.0, whose version check merely accepts compiler 8.2
    # The plan takes the pip install (no root, no CANN change) as the fix; the CANN published with 2.6.0 is a
    # labelled alternative
    assert ms["fix"][0].startswith("pip install mindspore==2.7.0 "), ms["fix"]
    assert any("CANN 8.1.RC1" in s for a in ms["alternatives"] for s in a["steps"]), ms["alternatives"]
    assert not any("2.10.0" in s for s in ms["fix"] + [x for a in ms["alternatives"] for x in a["steps"]])
    assert data["plan"]["steps"][0]["do"] == ms["fix"][0] and data["plan"]["steps"][0]["level"] == "python"
    assert f["compat.cann_driver"]["status"] == "pass"
    assert f["compat.python_mindspore"]["status"] == "pass"
    assert data["tool"]["matrix"]["source"] == "bundled"


def test_check_planned_good_combination_exits_0():
    proc = run_cli("matrix", "check", "--mindspore", "2.4.10", "--cann", "8.0.0", "--driver", "24.1.0",
                   "--firmware", "7.5.0.1.129", "--python", "3.10")
    assert proc.returncode == 0, proc.stdout
    assert "[ FAIL]" not in proc.stdout and "Version compatibility" in proc.stdout


def test_check_fail_on_warn_counts_unknown_pairings():
    args = ("matrix", "check", "--mindspore", "2.3.1", "--cann", "8.0.RC2", "--driver", "23.0.7")
    assert run_cli(*args).returncode == 0
    assert run_cli(*args, "--fail-on", "warn").returncode == 1  # 23.0.7 vs CANN 8.0.RC2 is unknown -> warn


def test_check_gpu_build():
    proc, data = run_json("matrix", "check", "--mindspore", "2.2.14", "--cuda", "10.1", "--cudnn", "7.6.5")
    cu = {x["id"]: x for x in data["findings"]}["compat.cuda_mindspore"]
    assert cu["status"] == "pass" and proc.returncode == 0


def test_check_requires_mindspore_and_valid_versions():
    assert run_cli("matrix", "check", "--cann", "8.0.RC2").returncode == 2
    proc = run_cli("matrix", "check", "--mindspore", "2.6.0", "--python", "snake")
    assert proc.returncode == 2 and "--python" in proc.stderr


# --- update ---

def test_update_installs_a_newer_matrix_and_check_uses_it(http_dir, cache_env, tmp_path):
    www, base = http_dir
    newer = bundled()
    newer["matrix_version"] = "2099.1.1"
    row = next(r for r in newer["mindspore"] if r["version"] == "2.6.0")
    row["checker"]["accepted_compilers"].append("8.2")  # a (hypothetical) corrected row, to prove it is used
    digest = publish(www, "m.json", newer)
    proc = run_cli("matrix", "update", "--url", f"{base}/m.json", "--sha256", digest, env=cache_env)
    assert proc.returncode == 0, proc.stderr
    cached = tmp_path / "cache" / "ascend-doctor" / "compat_matrix.json"
    assert cached.is_file() and "2099.1.1" in proc.stdout
    proc, data = run_json("matrix", "check", "--mindspore", "2.6.0", "--cann", "8.2.RC1", env=cache_env)
    assert data["tool"]["matrix"] == {"version": "2099.1.1", "date": newer["date"], "source": str(cached),
                                      "from": f"{base}/m.json"}
    assert {x["id"]: x for x in data["findings"]}["compat.mindspore_cann"]["status"] == "pass"
    # the same version again changes nothing
    proc = run_cli("matrix", "update", "--url", f"{base}/m.json", env=cache_env)
    assert proc.returncode == 0 and "nothing changed" in proc.stdout


@pytest.mark.parametrize("case", ["sha", "corrupt", "schema", "older", "missing"])
def test_failed_update_changes_nothing_and_says_why(http_dir, cache_env, tmp_path, case):
    www, base = http_dir
    cached = tmp_path / "cache" / "ascend-doctor" / "compat_matrix.json"
    good = bundled()
    good["matrix_version"] = "2098.1.1"
    digest = publish(www, "good.json", good)
    assert run_cli("matrix", "update", "--url", f"{base}/good.json", "--sha256", digest, env=cache_env).returncode == 0
    before = cached.read_bytes()
    data = bundled()
    data["matrix_version"] = "2099.1.1"
    extra = []
    if case == "sha":
        publish(www, "m.json", data)
        extra = ["--sha256", "0" * 64]
        expect = "sha256"
    elif case == "corrupt":
        publish(www, "m.json", json.dumps(data)[:5000])
        expect = "not valid JSON"
    elif case == "schema":
        del data["mindspore"][0]["checker"]
        publish(www, "m.json", data)
        expect = "schema"
    elif case == "older":
        data["matrix_version"] = "2026.1.1"
        publish(www, "m.json", data)
        expect = "older"
    else:
        expect = "HTTP 404"
    proc = run_cli("matrix", "update", "--url", f"{base}/m.json", *extra, env=cache_env)
    assert proc.returncode == 2
    assert expect in proc.stderr and "nothing changed" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert cached.read_bytes() == before
    # no temp files left: only the matrix and the record of where it came from
    assert sorted(p.name for p in cached.parent.iterdir()) == ["compat_matrix.json", "compat_matrix.json.origin.json"]


def test_update_unreachable_host_fails_cleanly(cache_env):
    proc = run_cli("matrix", "update", "--url", "http://127.0.0.1:9/m.json", "--timeout", "2", env=cache_env)
    assert proc.returncode == 2 and "download failed" in proc.stderr


def test_bad_sha_argument(cache_env):
    proc = run_cli("matrix", "update", "--url", "http://127.0.0.1:9/m.json", "--sha256", "xyz", env=cache_env)
    assert proc.returncode == 2 and "64 hex" in proc.stderr


def test_corrupt_cache_falls_back_to_bundled_and_says_so(cache_env, tmp_path):
    cached = tmp_path / "cache" / "ascend-doctor" / "compat_matrix.json"
    cached.parent.mkdir(parents=True)
    cached.write_text("{not json")
    proc, data = run_json("matrix", "check", "--mindspore", "2.6.0", "--cann", "8.1.RC1", env=cache_env)
    assert data["tool"]["matrix"]["source"] == "bundled"
    assert_shows(data["tool"]["matrix"]["note"], "cached matrix ignored: {reason}")


def test_older_cache_is_not_used(cache_env, tmp_path):
    cached = tmp_path / "cache" / "ascend-doctor" / "compat_matrix.json"
    cached.parent.mkdir(parents=True)
    old = bundled()
    old["matrix_version"] = "2000.1.1"
    cached.write_text(json.dumps(old))
    _, data = run_json("matrix", "check", "--mindspore", "2.6.0", env=cache_env)
    assert data["tool"]["matrix"]["source"] == "bundled"


def test_check_report_names_the_matrix(cache_env):
    _, data = run_json("check", "--only", "compat", env=cache_env)
    assert data["tool"]["matrix"]["version"] == bundled()["matrix_version"]
    assert all(f["id"].startswith("compat.") for f in data["findings"])


def test_show_keeps_version_columns_as_text():
    proc = run_cli("matrix", "show", "--mindspore", "2.10.0")
    row = next(l for l in proc.stdout.splitlines() if l.startswith("9.0.0 "))
    assert " 9.0 " in row  # not the number 9


# --- update from a local file (air-gapped clusters) ---

def _sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _write_matrix(path, version):
    data = bundled()
    data["matrix_version"] = version
    path.write_text(json.dumps(data))
    return path


def test_update_from_a_local_file_with_a_sha256_beside_it(cache_env, tmp_path):
    f = _write_matrix(tmp_path / "compat_matrix.json", "2099.2.1")
    (tmp_path / "compat_matrix.json.sha256").write_text(f"{_sha(f)}  compat_matrix.json\n")  # sha256sum's format
    proc = run_cli("matrix", "update", "--file", str(f), env=cache_env)
    assert proc.returncode == 0, proc.stderr
    assert "2099.2.1" in proc.stdout and str(f) in proc.stdout and "no checksum" not in proc.stdout
    cached = tmp_path / "cache" / "ascend-doctor" / "compat_matrix.json"
    assert cached.read_bytes() == f.read_bytes()
    # every report, and matrix show, say which matrix was used and where it came from
    _, data = run_json("matrix", "check", "--mindspore", "2.6.0", env=cache_env)
    assert data["tool"]["matrix"]["version"] == "2099.2.1" and data["tool"]["matrix"]["from"] == str(f)
    show = run_cli("matrix", "show", env=cache_env)
    assert f"2099.2.1" in show.stdout.splitlines()[0] and str(f) in show.stdout.splitlines()[0]
    text = run_cli("check", "--only", "compat", "--no-color", env=cache_env)
    assert any(line.strip().startswith("Compat matrix") and "2099.2.1" in line and str(f) in line
               for line in text.stdout.splitlines()), text.stdout[:1500]


def test_update_from_a_file_url_with_sha256_argument(cache_env, tmp_path):
    f = _write_matrix(tmp_path / "m.json", "2099.3.1")
    proc = run_cli("matrix", "update", "--url", f"file://{f}", "--sha256", _sha(f), env=cache_env)
    assert proc.returncode == 0, proc.stderr
    _, data = run_json("matrix", "check", "--mindspore", "2.6.0", env=cache_env)
    assert data["tool"]["matrix"]["version"] == "2099.3.1"


@pytest.mark.parametrize("case", ["bad-sha-arg", "bad-sha-file", "truncated", "older", "missing", "directory",
                                  "disagreeing-shas", "remote-file-url"])
def test_failed_local_update_keeps_the_previous_matrix(cache_env, tmp_path, case):
    good = _write_matrix(tmp_path / "good.json", "2098.5.1")
    assert run_cli("matrix", "update", "--file", str(good), "--sha256", _sha(good), env=cache_env).returncode == 0
    cached = tmp_path / "cache" / "ascend-doctor" / "compat_matrix.json"
    before = cached.read_bytes()
    f = _write_matrix(tmp_path / "new.json", "2099.4.1")
    args = ["--file", str(f)]
    if case == "bad-sha-arg":
        args += ["--sha256", "0" * 64]
        expect = "sha256 is"
    elif case == "bad-sha-file":
        (tmp_path / "new.json.sha256").write_text("1" * 64 + "  new.json\n")
        expect = "new.json.sha256"
    elif case == "truncated":  # a copy that stopped half-way: the checksum made for the whole file catches it
        digest = _sha(f)
        f.write_bytes(f.read_bytes()[:4000])
        args += ["--sha256", digest]
        expect = "sha256 is"
    elif case == "older":
        f = _write_matrix(tmp_path / "old.json", "2026.1.1")
        args = ["--file", str(f)]
        expect = "older"
    elif case == "missing":
        args = ["--file", str(tmp_path / "nope.json")]
        expect = "no such file"
    elif case == "directory":
        args = ["--file", str(tmp_path)]
        expect = "not a regular file"
    elif case == "disagreeing-shas":
        (tmp_path / "new.json.sha256").write_text(_sha(f) + "\n")
        args += ["--sha256", "2" * 64]
        expect = "--sha256 says"
    else:
        args = ["--url", f"file://otherhost{f}"]
        expect = "local path"
    proc = run_cli("matrix", "update", *args, env=cache_env)
    assert proc.returncode == 2, proc.stdout
    assert expect in proc.stderr and "nothing changed" in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert cached.read_bytes() == before


def test_truncated_file_without_checksum_is_refused_as_json(cache_env, tmp_path):
    f = _write_matrix(tmp_path / "new.json", "2099.4.1")
    f.write_bytes(f.read_bytes()[:4000])
    proc = run_cli("matrix", "update", "--file", str(f), env=cache_env)
    assert proc.returncode == 2 and "not valid JSON" in proc.stderr
    assert not (tmp_path / "cache" / "ascend-doctor" / "compat_matrix.json").exists()


def test_update_needs_exactly_one_source(cache_env, tmp_path):
    assert run_cli("matrix", "update", env=cache_env).returncode == 2
    proc = run_cli("matrix", "update", "--url", "https://example.invalid/m.json", "--file", str(tmp_path / "m.json"),
                   env=cache_env)
    assert proc.returncode == 2 and "not allowed with" in proc.stderr


@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("query", [[], ["--mindspore", "2.6.0"], ["--mindspore", "2.10.0"], ["--mindspore", "1.5.0"],
                                   ["--cann", "8.0.RC3"], ["--cann", "7.3.0.1.231"], ["--driver", "24.1.rc3"]])
def test_show_fits_the_terminal_and_cites_sources_by_title(query, columns):
    import re

    proc = run_cli("matrix", "show", *query, env={"COLUMNS": str(columns)})
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    for line in lines[1:]:  # the first names the matrix (and the file it came from) whole
        if len(line) > columns:
            # only a source title longer than the terminal (a URL, a repository path) may stand out, alone
            assert re.fullmatch(r" +\[\d+\] \S+", line) or re.fullmatch(r" +\S+", line), line
    assert not re.search(r"\bfs:\d+", proc.stdout), "a source shown as its index id"
    if "--mindspore" in query or "--driver" in query:
        assert "Sources:" in proc.stdout
        cited = set(re.findall(r"\[(\d+)\]", proc.stdout.split("Sources:")[0]))
        listed = set(re.findall(r"^  \[(\d+)\] ", proc.stdout.split("Sources:")[1], re.M))
        assert cited == listed and cited


def test_the_matrix_notes_are_said_in_chinese():
    """`matrix show --lang zh` printed the notes of a row ("Sources disagree: ...") in English: each note of the
    bundled matrix has its zh_CN entry (checks_install.po), and a note no catalog knows shows as written."""
    import re

    from ascend_doctor import i18n

    notes = sorted({n for r in bundled()["mindspore"] for n in r.get("notes") or []})
    assert notes
    i18n.set_lang("zh")
    try:
        missing = [n for n in notes if not re.search(r"[\u4e00-\u9fff]", i18n.lookup(n))]
    finally:
        i18n.set_lang("en")
    assert not missing, f"data/compat_matrix.json notes without a zh_CN entry: {missing}"
    zh = run_cli("matrix", "show", "--mindspore", "2.6.0", "--lang", "zh").stdout
    assert "来源不一致" in zh and "Sources disagree" not in zh
    _, data = run_json("check", "--bundle", os.path.join(FIXTURES, "a2_healthy"), "--only", "compat", "--lang", "zh")
    shown = [n for f in data["findings"] for n in f["evidence"].get("matrix_notes") or []]
    assert all(re.search(r"[\u4e00-\u9fff]", n) for n in shown), shown
