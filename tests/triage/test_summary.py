"""Node summaries: each node's logs summarised on its own, one merge gives the report of all the raw logs.

The equivalence is checked on the peer's module-test log sets (`../shared/peer_cases/ascend_fd_rc/`) and on
generated multi-node trees (every root-cause family, problems of the knowledge base in training logs, nodes
without plogs), with the summaries merged alone, in directories, and mixed with raw node directories.
"""

import json
import os
import random

import pytest

from ascend_doctor.triage import Triage
from ascend_doctor.triage import summary as S

from tests.helpers import run_cli
from tests.triage.test_rootcause import PEER as _PEER, Tree, link_timeout, notify, root_info_timeout, ts

# beside the main checkout (CI); a worktree elsewhere names it in the environment
PEER = _PEER if os.path.isdir(_PEER) else os.environ.get("ASCEND_DOCTOR_TEST_PEER_CASES", _PEER)


def _summarise(node_dir, out, node=None):
    node = node or os.path.basename(node_dir)
    t = Triage(node=node)
    t.add_path(node_dir)
    with open(out, "w") as fh:
        fh.write(S.dumps(S.node_summary(t, node)))
    return out


def _report(paths):
    t = Triage()
    for p in paths:
        t.add_path(p)
    return t.result().to_json()


def _comparable(data, prefix=""):
    """The report without the list of merged summaries, file labels relative to the cluster directory."""
    text = json.dumps({k: v for k, v in data.items() if k != "summaries"}, sort_keys=True)
    return json.loads(text.replace(f'"{prefix}/', '"')) if prefix else json.loads(text)


def _raw(cluster):
    return _comparable(_report([cluster]), os.path.basename(cluster))


def _nodes(cluster):
    return sorted(n for n in os.listdir(cluster) if os.path.isdir(os.path.join(cluster, n)))


def _all_summaries(cluster, outdir):
    os.makedirs(outdir, exist_ok=True)
    return [_summarise(os.path.join(cluster, n), os.path.join(outdir, f"{n}.json")) for n in _nodes(cluster)]


@pytest.mark.skipif(not os.path.isdir(PEER), reason="../shared/peer_cases/ascend_fd_rc is not beside the repo")
@pytest.mark.parametrize("case", ["rc_118", "init_failed_with_timeout", "rc_122", "rc_123", "rc_remote_local",
                                  "rc_remote_cycle_indegree_greater_than_2", "rc_remote_cycle_indegree_only_1"])
def test_peer_cases_merged_from_summaries_give_the_raw_report(case, tmp_path):
    cluster = os.path.join(PEER, case)
    files = _all_summaries(cluster, str(tmp_path / "sums"))
    merged = _report(files)
    assert _comparable(merged) == _raw(cluster)
    want = json.load(open(os.path.join(PEER, "EXPECTED.json")))["cases"][case]
    assert merged["root_cause"]["ascend_fd_code"] == want["ascend_fd_code"]
    assert merged["summaries"][0]["warnings"] == []


# ---------------------------------------------------------------------------
# Generated trees: one scenario per family, plus knowledge-base problems in training logs
# ---------------------------------------------------------------------------

def _scenario(kind, rnd):
    nodes, per = rnd.choice([(2, 2), (3, 2), (4, 1)])
    t = Tree(nodes=nodes, per=per)
    n = t.size
    if kind == "notify":
        silent = rnd.randrange(n)
        for r in range(n):
            if r != silent:
                notify(t[r], 60 + rnd.random() * 5, silent, size=n)
    elif kind == "cycle":
        for r in range(n):
            notify(t[r], 60 + r, (r + 1) % n, size=n)
    elif kind == "socket":
        for r in range(n):
            link_timeout(t[r], 100 + r * rnd.choice([1, 200]), t[(r + 1) % n].ip, (r + 1) % n)
    elif kind == "root_info":
        for r in range(n):
            if r != 1 or rnd.random() < 0.5:
                root_info_timeout(t[r], 200 + r, size=n)
    elif kind == "first_error":
        bad = rnd.randrange(n)
        t[bad].hccl(50, "EL0004: Memory_Allocation_Failure(EL0004): Failed to allocate memory.", module="RUNTIME")
        for r in range(n):
            if r != bad:
                notify(t[r], 100 + r, bad, size=n)
    elif kind == "cqe":
        for r in range(n):
            if r != 1:
                t[r].hccl(50, f"[HeartBeat]cqe err status[12], qpn[10], remote ip:[{t[1].ip}]")
    return t


def _write_with_training_logs(tree, root, rnd):
    import pathlib

    path = tree.write(pathlib.Path(root))
    for node in _nodes(path):
        if rnd.random() < 0.7:
            lines = [f"[INFO] ME(1,1,python):{ts(k)} step {k} loss 1.0" for k in range(rnd.randrange(5, 40))]
            if rnd.random() < 0.6:
                lines.insert(rnd.randrange(len(lines)),
                             f"[ERROR] ME(1,1,python):{ts(30)} RuntimeError: Allocate memory failed, out of memory")
            if rnd.random() < 0.4:
                lines.append(f"[ERROR] ME(1,1,python):{ts(99)} something nobody has seen before failed")
            d = os.path.join(path, node, "msrun_log")
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "worker_0.log"), "w") as fh:
                fh.write("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("seed", range(12))
def test_generated_trees_merged_from_summaries_and_mixed_give_the_raw_report(seed, tmp_path):
    rnd = random.Random(seed)
    kind = ["notify", "cycle", "socket", "root_info", "first_error", "cqe"][seed % 6]
    cluster = _write_with_training_logs(_scenario(kind, rnd), str(tmp_path / "job"), rnd)
    want = _raw(cluster)
    assert want["root_cause"]["severity"] == "fail"
    sums = str(tmp_path / "sums")
    files = _all_summaries(cluster, sums)
    assert _comparable(_report(files)) == want
    assert _comparable(_report([sums])) == want  # a directory of summaries
    # some nodes summarised, the others raw, in node order
    mixed = [f if rnd.random() < 0.5 else os.path.join(cluster, n) for f, n in zip(files, _nodes(cluster))]
    got = _report(mixed)
    assert _comparable(got, "job") == want


def test_summary_is_recognised_by_its_schema_in_a_directory_with_other_files(tmp_path):
    t = Tree(nodes=2, per=1)
    notify(t[0], 60, 1, size=2)
    cluster = t.write(tmp_path / "job")
    sums = tmp_path / "sums"
    files = _all_summaries(cluster, str(sums))
    os.rename(files[1], str(sums / "worker-1.summary"))  # any name: the first bytes say what it is
    (sums / "notes.json").write_text('{"schema": "ascend-doctor.report/1"}')
    (sums / "README.md").write_text("# job 42\n")
    got = _report([str(sums)])
    assert got["root_cause"] == _raw(cluster)["root_cause"]
    # named as they open from the cwd (i21a): the directory given, joined with their place under it
    assert {i["file"] for i in got["inputs"] if not i["scanned"]} == {str(sums / "notes.json"), str(sums / "README.md")}


def test_torn_and_foreign_files_are_named_and_skipped_never_fatal(tmp_path):
    t = Tree(nodes=2, per=1)
    notify(t[0], 60, 1, size=2)
    cluster = t.write(tmp_path / "job")
    files = _all_summaries(cluster, str(tmp_path / "sums"))
    torn = tmp_path / "worker-9.json"
    torn.write_bytes(open(files[1], "rb").read()[:300])
    foreign = tmp_path / "report.json"
    foreign.write_text('{"schema": "ascend-doctor.report/1", "findings": []}')
    proc = run_cli("triage", files[0], str(torn), str(foreign), files[1], "--format", "json")
    assert proc.returncode == 1, proc.stderr  # the cluster's failure, not an input error
    data = json.loads(proc.stdout)
    assert data["root_cause"]["devices"] == _raw(cluster)["root_cause"]["devices"]
    assert f"{torn}: not a readable node summary (invalid JSON at byte " in proc.stderr
    assert f"{foreign}: a JSON file that is not a node summary (schema ascend-doctor.report/1): skipped" \
        in proc.stderr
    skipped = {i["file"]: i["note"] for i in data["inputs"] if not i["scanned"]}
    assert set(skipped) == {str(torn), str(foreign)}


def test_another_knowledge_base_merges_with_a_warning_and_keeps_unknown_problems(tmp_path):
    t = Tree(nodes=1, per=2)
    t[0].hccl(50, "EL0004: Memory_Allocation_Failure(EL0004): Failed to allocate memory.", module="RUNTIME")
    cluster = t.write(tmp_path / "job")
    [f] = _all_summaries(cluster, str(tmp_path / "sums"))
    data = json.load(open(f))
    data["kb"] = "0000000000000000"
    prob = data["state"]["problems"]["CANN_EL0004_MEMORY_ALLOC"]
    prob["signature"] = prob["signature_shown"]["id"] = "NEWER_KB_ONLY"
    data["state"]["problems"] = {"NEWER_KB_ONLY": prob}
    with open(f, "w") as fh:
        json.dump(data, fh)
    proc = run_cli("triage", f, "--format", "json")
    assert "written with another knowledge base (0000000000000000" in proc.stderr
    assert "signature NEWER_KB_ONLY is not in this knowledge base" in proc.stderr
    out = json.loads(proc.stdout)
    assert [p["id"] for p in out["problems"]] == ["NEWER_KB_ONLY"]
    assert out["problems"][0]["severity"] == "fail" and out["problems"][0]["first"]["device"] == "worker-0 device-0"
    assert out["summaries"][0]["warnings"]


def test_cli_node_summary_defaults_to_the_host_name_and_is_redacted(tmp_path, monkeypatch):
    import socket

    t = Tree(nodes=1, per=2)
    t[0].hccl(50, "connect failed, url https://admin:Sup3rSecretPw@10.0.0.9/x token=ghp_abcdefghijklmnopqrstuvwxyz0123456789")
    cluster = t.write(tmp_path / "job")
    out = tmp_path / "node.json"
    proc = run_cli("triage", "--node-summary", "-o", str(out), os.path.join(cluster, "worker-0"))
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert text.startswith('{"schema":"ascend-doctor.triage-node/1"')
    assert "Sup3rSecretPw" not in text and "ghp_abcdefghijklmnopqrstuvwxyz0123456789" not in text
    data = json.loads(text)
    assert data["node"] == socket.gethostname()
    assert {i["node"] for i in json.loads(run_cli("triage", str(out), "--format", "json").stdout)["inputs"]} == \
        {socket.gethostname()}


def test_codec_round_trips_the_scan_records():
    from ascend_doctor.triage.events import ProcessLog, Remote, TimeoutEvent

    p = ProcessLog("n", "1")
    p.transport_remote = ("10.0.0.2", "3")
    p.events.append(TimeoutEvent("socket", "t", remotes=[Remote(ip="1.2.3.4")], connected_ranks={"2", "1"}))
    p.feed("[INFO] HCCL(1,python):2024-07-12-10:00:00.000.000 [a.cc:1][1]Entry-HcclCommInitRootInfo:ranks[2], "
           "rank[1], identifier[g]", "f", 1)
    assert p._parse is not None  # the parsing state: not written (a summary's processes are finished first)
    codec = S._Codec([])
    data = json.loads(json.dumps(codec.encode(p)))
    back = S.decode(data, {}, [], S._Codec([], list(codec.table)))
    assert back._parse is None and isinstance(back.transport_remote, tuple)
    p._parse = None
    assert back == p
    with pytest.raises(S.SummaryError):
        S.decode({"~": "os.system"}, {}, [])


@pytest.mark.parametrize("change,reason", [
    (lambda d: d["state"].update(inputs=["x"]), "field 'state.inputs' is not a list of inputs"),
    (lambda d: d["state"].update(inputs="x"), "field 'state' lacks 'inputs' or 'processes'"),
    (lambda d: d["state"]["processes"][0].pop("node"), "field 'state.processes' is not what a node summary holds"),
    (lambda d: d["state"]["processes"][0].update(first_error={"~": "os.system"}), "unknown record 'os.system'"),
    (lambda d: d.update(strings=[1]), "field 'strings' is not a list of strings"),
    (lambda d: d.update(schema="ascend-doctor.triage-node/2"), "schema ascend-doctor.triage-node/2, expected"),
])
def test_a_summary_of_the_wrong_shape_is_named_with_its_field(tmp_path, change, reason):
    t = Tree(nodes=1, per=2)
    notify(t[0], 60, 1, size=2)
    [f] = _all_summaries(t.write(tmp_path / "job"), str(tmp_path / "sums"))
    data = json.load(open(f))
    change(data)
    with open(f, "w") as fh:
        fh.write(S.dumps(data))
    tr = Triage()
    tr.add_path(f)
    [info] = tr.inputs
    assert not info.scanned and reason in info.note


def _cann(code, second):
    return f"[ERROR] RUNTIME(11,python):2024-07-12-10:21:{second:02d}.000.000 [x.cc:1] {code}: odd thing"


def test_peer_ids_and_unexplained_lines_merge_as_the_raw_logs_give_them(tmp_path):
    """A problem's ascend-fd ids are read from its first PEER_LINES matched lines of all inputs in order, and the
    unexplained error lines are one entry per distinct line across nodes: merging summaries gives both exactly
    (a plain union would add EQ5509, seen on node b past the first PEER_LINES lines). The summary carries no raw
    text of an unexplained line: it is written as the node shows it, redacted."""
    from ascend_doctor.triage import scan

    secret = "https://alice:s3cr3t-pw@repo.example.com/x"
    first = scan.PEER_LINES - 2
    nodes = {
        "a": [_cann("EQ5501", s) for s in range(first)] + [
            "[ERROR] APP(7,python):2024-07-12-10:22:00.000.000 dataset shard 17 failed to open " + secret],
        "b": [_cann("EQ5502", 10), _cann("EQ5502", 11), _cann("EQ5503", 12), _cann("EQ5509", 13)] + [
            "[ERROR] APP(9,python):2024-07-12-10:22:01.000.000 dataset shard 18 failed to open " + secret],
    }
    cluster = tmp_path / "job"
    for node, lines in nodes.items():
        (cluster / node).mkdir(parents=True)
        (cluster / node / "train.log").write_text("\n".join(lines) + "\n")
    want = _raw(str(cluster))
    (problem,) = want["problems"]
    assert problem["ascend_fd"] == ["AISW_CANN_ERRCODE_Custom_EQ5501", "AISW_CANN_ERRCODE_Custom_EQ5502"]
    assert [(e["count"], e["file"][-11:]) for e in want["unexplained_errors"]] == [(2, "a/train.log")]
    assert "s3cr3t-pw" not in want["unexplained_errors"][0]["text"]
    files = _all_summaries(str(cluster), str(tmp_path / "sums"))
    assert not any("s3cr3t-pw" in open(f).read() for f in files)
    assert _comparable(_report(files)) == want
    assert _comparable(_report([files[0], str(cluster / "b")]), "job") == want  # mixed with raw logs


def test_a_range_worker_triage_sets_every_field_a_triage_has():
    """_fresh_like builds a Triage without __init__ (forked workers share the compiled scanner): every attribute
    __init__ sets must be set there too, or a field added on one branch is missing on the other."""
    from ascend_doctor.triage import parallel

    t = Triage()
    assert set(vars(parallel._fresh_like(t))) == set(vars(t))


def test_evidence_records_are_slotted_dataclasses():
    """A merge holds every process of the cluster (32,768 at 4,096 nodes): the records carry no instance dict,
    and stay records to the codec (fields, defaults, equality)."""
    from ascend_doctor import records
    from ascend_doctor.triage.events import FirstError, ProcessLog, Remote, TimeoutEvent

    for cls in (ProcessLog, TimeoutEvent, FirstError, Remote):
        assert records.is_dataclass(cls) and "__dict__" not in dir(cls)
        assert cls.__slots__ == tuple(f.name for f in records.fields(cls))
    p = ProcessLog("n", "1")
    assert not hasattr(p, "__dict__") and p.groups == {} and p.groups is not ProcessLog("n", "2").groups
    assert p == ProcessLog("n", "1") and p != ProcessLog("n", "2")
    with pytest.raises(AttributeError):
        p.not_a_field = 1


def test_an_inputs_note_and_the_merge_warnings_are_messages_worded_in_the_language_asked(tmp_path):
    """A node summary keeps the notes of its inputs as message ids with parameters, not the node's English: the merge
    words them (and its own warnings) in the language asked, as a triage of the raw logs in that language does, and
    the JSON keeps each warning's message for reworded()."""
    from ascend_doctor import i18n
    from ascend_doctor.render.triage_report import reworded
    from ascend_doctor.kb.load import load_knowledge_base

    node = tmp_path / "job" / "worker-0"
    node.mkdir(parents=True)
    (node / "train.log").write_text("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB\n")
    (node / "bad.log.gz").write_bytes(b"\x1f\x8b\x08\x00 not really gzip")  # a note with a parameter
    summary = _summarise(str(node), str(tmp_path / "worker-0.json"))
    raw = json.loads(open(summary, encoding="utf-8").read())
    notes = [i for i in raw["state"]["inputs"] if i.get("note")]
    assert notes and all(isinstance(i["note"], dict) and i["note"]["~"] == "t" for i in notes)
    assert notes[0]["note"]["v"]["id"] == "not a valid gzip file ({reason})"
    data = json.load(open(summary))
    data["kb"] = "0000000000000000"  # written with another knowledge base: a warning of the merge
    with open(summary, "w") as fh:
        json.dump(data, fh)

    def note_of(doc):
        return next(i["note"] for i in doc["inputs"] if i["file"].endswith("bad.log.gz"))

    merged = {lang: run_cli("triage", summary, "--format", "json", "--lang", lang) for lang in ("en", "zh")}
    raw_zh = json.loads(run_cli("triage", str(node), "--format", "json", "--lang", "zh").stdout)
    en, zh = (json.loads(merged[lang].stdout) for lang in ("en", "zh"))
    assert note_of(en).startswith("not a valid gzip file (") and note_of(zh) == note_of(raw_zh) != note_of(en)
    assert "written with another knowledge base" in merged["en"].stderr
    assert "written with another knowledge base" not in merged["zh"].stderr and "知识库" in merged["zh"].stderr
    [warning] = en["summaries"][0]["warnings"]
    assert en["summaries"][0]["i18n"]["warnings"][0]["id"] == S.OTHER_KB
    assert zh["summaries"][0]["warnings"] != [warning]
    kb = load_knowledge_base()
    i18n.set_lang("zh")
    try:
        assert reworded(en, kb)["summaries"] == zh["summaries"]
    finally:
        i18n.set_lang("en")
    assert reworded(zh, kb)["summaries"] == en["summaries"]


def test_a_traceback_merged_from_summaries_keeps_its_place_and_frames(tmp_path):
    """A traceback listed once (issue 21) is one entry across nodes, with where it starts and what it folds, whether
    read from the logs or from the nodes' summaries."""
    from tests.triage.test_triage import TRACEBACK

    cluster = tmp_path / "job"
    for node in ("a", "b"):
        (cluster / node).mkdir(parents=True)
        (cluster / node / "train.log").write_text("\n".join(["[INFO] start"] + TRACEBACK) + "\n")
    want = _raw(str(cluster))
    [e] = want["unexplained_errors"]
    assert (e["count"], e["line"], e["traceback"]) == (2, 8, {"first_line": 2, "frames": 2, "lines": 7,
                                                                "exception": True})
    files = _all_summaries(str(cluster), str(tmp_path / "sums"))
    assert _comparable(_report(files)) == want
