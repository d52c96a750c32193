"""`triage --format html`: one self-contained page with the verdict first, the wait graph, the timeline and every
problem; rendered in real headless Chromium (no console message, the DOM read back, a screenshot with ink)."""

import json
import os
import re
from html.parser import HTMLParser

import pytest

from ascend_doctor import i18n
from ascend_doctor.render.html_triage import device_errors, render_triage_html
from tests.helpers import REPO, run_cli
from tests.helpers.browser import ink, load, needs_chromium, print_pdf, screenshot
from tests.triage.test_rootcause import PEER, Tree, link_timeout
from tests.triage.test_triage import OOM, write

ARTIFACTS = os.path.join(REPO, "test-artifacts")
PEER_CASES = ["rc_118", "init_failed_with_timeout", "rc_122", "rc_123", "rc_remote_local",
              "rc_remote_cycle_indegree_greater_than_2", "rc_remote_cycle_indegree_only_1"]
needs_peer = pytest.mark.skipif(not os.path.isdir(PEER), reason="../shared/peer_cases is not beside the repo")


class _Tags(HTMLParser):
    """Every start tag with its attributes, and whether the document is well nested."""

    VOID = {"meta", "br", "col", "line", "rect", "circle", "path", "input", "img", "hr", "link"}

    def __init__(self):
        super().__init__()
        self.tags, self.stack, self.bad = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.bad.append(tag)
        else:
            self.stack.pop()


def _parsed(html):
    p = _Tags()
    p.feed(html)
    assert not p.bad and p.stack == [], (p.bad, p.stack)
    return p.tags


def _triage_json(*args):
    proc = run_cli("triage", *args, "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def _assert_self_contained(html):
    assert "<script" not in html and "@import" not in html and "url(" not in html.replace("url(#", "")
    assert not re.search(r"""(src|href)\s*=\s*['"]?(https?:)?//""", html)
    assert "default-src 'none'" in html


@needs_peer
@pytest.mark.parametrize("case", PEER_CASES)
def test_peer_cases_give_a_page_with_the_verdict_chain_and_every_problem(case, tmp_path):
    out = tmp_path / "t.html"
    proc = run_cli("triage", os.path.join(PEER, case), "--format", "html", "-o", str(out))
    assert proc.returncode == 1, proc.stderr
    html = out.read_text()
    _assert_self_contained(html)
    tags = _parsed(html)
    data = _triage_json(os.path.join(PEER, case))
    rc = data["root_cause"]
    assert html.index("id='verdict'") < html.index("id='problems'")  # the verdict first
    drawn = {a["data-device"] for t, a in tags if t == "g" and a.get("class") == "dev"}
    assert set(rc["chain"]) | set(rc["devices"]) <= drawn
    assert {p["id"] for p in data["problems"]} <= {a["data-problem"] for _t, a in tags if "data-problem" in a}
    assert "id='timeline'" in html
    assert len(html.encode()) < 60_000


@needs_peer
@needs_chromium
@pytest.mark.parametrize("case", ["rc_remote_local", "rc_remote_cycle_indegree_only_1"])
def test_peer_cases_read_back_from_chromium(case, tmp_path):
    out = tmp_path / "t.html"
    run_cli("triage", os.path.join(PEER, case), "--format", "html", "-o", str(out))
    dom, console = load(out)
    assert console == []
    data = _triage_json(os.path.join(PEER, case))
    rc = data["root_cause"]
    assert re.search(r'id="verdict">.*Root cause: .*</section>', dom, re.S)
    graph = re.search(r'<svg[^>]*id="wait-graph".*?</svg>', dom, re.S).group(0)
    assert set(re.findall(r'<g class="dev" data-device="([^"]*)"', graph)) == set(rc["chain"]) | set(rc["devices"])
    assert graph.count('class="edge"') == len(rc["chain"]) - 1
    for p in data["problems"]:
        assert f'data-problem="{p["id"]}"' in dom


def _chain_tree(tmp_path):
    """A socket wait chain across two nodes ending at a device known only by its IP, and a third node that
    gave no CANN process log (only a training log)."""
    t = Tree()
    link_timeout(t[0], 100, t[3].ip, 3)  # worker-0 device-0 waits on worker-1 device-1
    link_timeout(t[3], 101, "192.168.9.9", 9)  # which waits on a device with no log here
    t[1].hccl(102, "Wait timeout for sockets recv, data[0x1], size[4], recvSize[0]")
    t[2].hccl(102, "Wait timeout for sockets recv, data[0x1], size[4], recvSize[0]")
    root = t.write(tmp_path / "job")
    (tmp_path / "job" / "worker-2").mkdir()
    write(tmp_path / "job" / "worker-2" / "train.log", [OOM])
    return root


def test_cross_node_chain_missing_device_and_node_without_plog(tmp_path):
    root = _chain_tree(tmp_path)
    data = _triage_json(root)
    rc = data["root_cause"]
    assert rc["chain"] == ["worker-0 device-0", "worker-1 device-1", "192.168.9.9"]
    html = render_triage_html(data)
    tags = _parsed(html)
    rows = {a["data-device"] for t, a in tags if t == "g" and a.get("class") == "row"}
    assert {"worker-0 device-0", "worker-1 device-1", "192.168.9.9", "worker-2"} <= rows
    ip_row = re.search(r"<g class='row' data-device='192.168.9.9'>(.*?)</g>", html).group(1)
    assert "no log of this device here" in ip_row
    node_row = re.search(r"<g class='row' data-device='worker-2'>(.*?)</g>", html).group(1)
    assert "no CANN process log (plog) from this node" in node_row
    assert "▼ root&#x27;s first error" in html or "▼ root's first error" in html
    errors = device_errors(data["problems"])
    assert errors["worker-0 device-0"]["first"]["time"] <= errors["worker-1 device-1"]["first"]["time"]


@needs_chromium
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_in_headless_chromium(lang, tmp_path):
    root = _chain_tree(tmp_path)
    out = tmp_path / f"triage_{lang}.html"
    proc = run_cli("triage", root, "--format", "html", "-o", str(out), "--lang", lang)
    assert proc.returncode == 1, proc.stderr
    data = _triage_json(root)
    dom, console = load(out)
    assert console == []  # nothing blocked, nothing failed to parse
    verdict = re.search(r'<section class="box fail" id="verdict">(.*?)</section>', dom, re.S).group(1)
    assert "worker-1 device-1" in verdict and ("Root cause" if lang == "en" else "根因") in verdict
    graph = re.search(r'<svg[^>]*id="wait-graph".*?</svg>', dom, re.S).group(0)
    for d in data["root_cause"]["chain"]:
        assert f'data-device="{d}"' in graph
    for p in data["problems"]:
        assert f'data-problem="{p["id"]}"' in dom
    assert re.search(r'<svg[^>]*id="timeline"', dom)
    assert f'<html lang="{"zh-CN" if lang == "zh" else "en"}">' in dom
    if lang == "zh":
        assert "谁在等谁" in dom and "Who waited on whom" not in dom
    os.makedirs(ARTIFACTS, exist_ok=True)
    png = screenshot(out, os.path.join(ARTIFACTS, f"triage_report_{lang}.png"))
    share, colours = ink(png)
    assert share > 0.03 and colours > 20, (share, colours)
    if lang == "en":  # it prints: a PDF of more than one page, its text kept as text (fonts embedded)
        pdf = print_pdf(out, tmp_path / "triage.pdf")
        assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page[^s]", pdf)) >= 2
        assert b"/FontFile" in pdf


@needs_chromium
def test_a_failing_detector_is_not_a_silent_one(tmp_path):
    """The console check above can fail: a page whose script the CSP blocks logs a console message."""
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html><head><meta http-equiv='Content-Security-Policy' "
                   "content=\"default-src 'none'\"></head><body><script>1</script></body></html>")
    assert load(bad)[1]


def test_no_root_cause_the_earliest_problem_is_the_verdict(tmp_path):
    data = _triage_json(write(tmp_path / "a.log", [OOM]))
    assert data["root_cause"] is None
    html = render_triage_html(data)
    verdict = html[html.index("id='verdict'"):html.index("</section>")]
    assert "The earliest FAIL: TORCH_NPU_OOM" in verdict and "PYTORCH_NPU_ALLOC_CONF" in verdict
    assert "id='wait-graph'" not in html


def test_nothing_found_says_ok_and_shows_the_last_error_lines(tmp_path):
    data = _triage_json(write(tmp_path / "a.log", ["2024-05-01 10:00:00 ERROR something odd <b>here</b>"]))
    html = render_triage_html(data)
    assert "<span class='verdict ok'>OK</span>" in html and "No known problem found in these logs." in html
    assert "&lt;b&gt;here&lt;/b&gt;" in html and "<b>here" not in html


def test_fields_of_newer_triage_results_are_shown_when_present(tmp_path):
    """unexplained errors with file:line, the peer's first/last error device and fault chains: shown when a
    result carries them, nothing when it does not."""
    data = _triage_json(_chain_tree(tmp_path))
    data["unexplained_errors"] = []
    plain = render_triage_html(data)
    assert "id='unexplained'" not in plain and "Fault chains" not in plain
    data["unexplained_errors"] = [{"file": "job/worker-0/x.log", "line": 7, "text": "ERROR <weird> thing",
                                   "count": 3, "device": "worker-0 device-0", "time": "2024-05-01 10:00:01"}]
    data["root_cause"]["first_error_device"] = {"device": "worker-0 device-0", "time": "2024-05-01 10:01:40"}
    data["root_cause"]["last_error_device"] = "worker-1 device-0"
    data["root_cause"]["fault_chains"] = [["worker-0 device-0", "worker-1 device-1"]]
    data["root_cause"]["devices"] = ["Unknown Device"]
    html = render_triage_html(data)
    assert "data-device='Unknown Device'" not in html and "<b>Unknown Device</b>" in html
    assert "<code>job/worker-0/x.log:7</code> ×3" in html and "ERROR &lt;weird&gt; thing" in html
    assert "worker-0 device-0 at 2024-05-01 10:01:40" in html and "worker-0 device-0 → worker-1 device-1" in html
    # an entry standing for a traceback says what it folds; a field not of that shape says nothing
    data["unexplained_errors"][0]["traceback"] = {"first_line": 2, "frames": 5, "lines": 12, "exception": True}
    assert ("<div class='small'>(a traceback from line 2: 5 frame(s) folded into its exception line)</div>"
            in render_triage_html(data))
    data["unexplained_errors"][0]["traceback"] = {"first_line": None}
    assert "a traceback from" not in render_triage_html(data)


def _synthetic_cluster(nodes=1024, per=8):
    """A 1,024-node triage result as large as the page can meet: every device in the problems, a chain of 60
    devices across nodes, notes on 2,000 inputs, 500 unexplained lines, 300 problems."""
    devs = [f"node-{n:04d} device-{d}" for n in range(nodes) for d in range(per)]

    def occ(i, sec):
        return {"file": f"job/node-{i // per:04d}/process_log/debug/plog/plog-{10000 + i}_1.log", "line": 25,
                "rank": f"rank {i}", "time": f"2024-05-01 10:{sec // 60:02d}:{sec % 60:02d}.{i % 1000:03d}",
                "node": f"node-{i // per:04d}", "device": devs[i], "group": "g"}

    problems = []
    for k in range(300):
        ranks = {devs[i]: occ(i, 60 + (i * 7 + k) % 300) for i in range(0, len(devs), 1 if k < 2 else 97)}
        first, last = min(ranks.values(), key=lambda o: o["time"]), max(ranks.values(), key=lambda o: o["time"])
        problems.append({"id": f"SIG_{k:03d}", "title": "t" * 60, "severity": "fail" if k < 200 else "warn",
                         "count": len(ranks), "first": first, "last": last, "line": "x" * 300, "cause": "c" * 300,
                         "fix": ["f" * 120] * 3, "source": "s" * 80, "ascend_fd": ["AISW_X"], "caused_by": None,
                         "ranks": ranks, "pitfall": None, "resolved_by": None})
    chain = [devs[i * 131] for i in range(60)]
    rc = {"kind": "socket_wait_chain", "ascend_fd_code": 108, "severity": "fail", "devices": [chain[-1]],
          "chain": chain, "first_error": {"device": chain[-1], "time": "2024-05-01 10:00:30.000", "file": "f",
                                          "line_no": 3, "line": "y" * 400},
          "problem": "SIG_000", "summary": "s", "evidence": {"nodes": nodes, "devices": len(devs)},
          "fix": ["do this"], "missing": [f"no CANN process log (plog) from node-{n}: collect it" for n in range(20)]}
    inputs = [{"file": f"job/node-{i // per:04d}/plog-{i}.log", "rank": None, "bytes": 1000, "lines": 10,
               "scanned": i % 4 != 0, "note": "cut" if i % 4 == 0 else None, "node": f"node-{i // per:04d}",
               "kind": "plog"} for i in range(len(devs))]
    return {"schema": "ascend-doctor.triage/1", "lang": "en", "root_cause": rc, "problems": problems,
            "first_problem": {"id": "SIG_000"}, "summary": {"fail": 200, "warn": 100, "info": 0},
            "nodes": [f"node-{n:04d}" for n in range(nodes)], "inputs": inputs, "last_error_lines": [],
            "unexplained_errors": [{"file": f"u{i}.log", "line": i, "text": "e" * 200} for i in range(500)]}


def test_a_1024_node_page_stays_under_300_kb():
    data = _synthetic_cluster()
    html = render_triage_html(data)
    size = len(html.encode())
    assert size <= 300_000, size
    tags = _parsed(html)
    drawn = {a["data-device"] for t, a in tags if t == "g" and a.get("class") == "dev"}
    assert set(data["root_cause"]["chain"][:24]) <= drawn and set(data["root_cause"]["chain"][-24:]) <= drawn
    assert "12 more devices on the chain" in html
    assert "all 8192 devices: first errors" in html
    assert len([1 for t, a in tags if t == "g" and a.get("class") == "row"]) <= 40
    assert {p["id"] for p in data["problems"]} <= {a["data-problem"] for _t, a in tags if "data-problem" in a}
    assert "and 450 more (see --format json)" in html and "and 1948 more (see --format json)" in html


def test_the_page_is_in_the_run_language(tmp_path):
    data = _triage_json(_chain_tree(tmp_path))
    i18n.set_lang("zh")
    try:
        html = render_triage_html(data)
    finally:
        i18n.set_lang("en")
    assert "<html lang='zh-CN'>" in html
    for zh in ("谁在等谁", "最先发生了什么", "已读取和跳过的输入", "请检查", "等待链"):
        assert zh in html
    for en in ("Who waited on whom", "What happened first", "Inputs read and skipped", "Look at"):
        assert en not in html
