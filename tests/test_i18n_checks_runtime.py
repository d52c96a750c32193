"""Chinese of the GPU, MindSpore, HCCL, launch, rank-table and smoke checks (zh_CN/checks_runtime.po).

The probes keep writing English facts; these tests hold the places where a report words them again in the
reader's language to the probes' own output, and the data file's texts to the catalog, so neither can drift
into English in a zh report unnoticed.
"""

import json
import re

import pytest

from ascend_doctor import i18n, phrases
from ascend_doctor.i18n_text import Text, localized
from ascend_doctor.facts import MindSporeFacts
from ascend_doctor.host import CommandResult

CJK = re.compile(r"[\u4e00-\u9fff]")
WORDS = re.compile(r"[A-Za-z]{2,}[ ,;:]+[a-z]{2,}")  # a text with English prose in it


@pytest.fixture
def zh():
    i18n.set_lang("zh")
    yield
    i18n.set_lang("en")


def _data_texts():
    """Every text of data/hccl_env.json that hccl_env shows in a finding (notes, product lists)."""
    from ascend_doctor.hccl_env import load_hccl_env_table

    out = []
    for spec in load_hccl_env_table()["variables"]:
        out.append(spec.get("note"))
        for cases in (spec.get("when") or {}).values():
            out.extend(case.get("note") for case in cases.values())
        scope = spec.get("applies_to") or {}
        out.append(scope.get("note"))
        out.extend((scope.get("families") or {}).values())
    return sorted({t for t in out if t and WORDS.search(t)})


@pytest.mark.parametrize("text", _data_texts())
def test_every_hccl_env_text_a_report_shows_has_chinese(text, zh):
    from ascend_doctor.hccl_env import data_text

    assert CJK.search(data_text(text)), f"data/hccl_env.json text without a zh_CN entry (checks_runtime.po): {text!r}"


def _both(fact):
    """A probe's phrase as a live run holds it (a Text) and as a saved report gives it back (a plain str)."""
    return fact, str(fact)


def test_english_phrases_pass_through_unchanged():
    from ascend_doctor.phrases import LAUNCH_NOT_INTEGER, MATCH_HOSTNAME, MATCHED_BY, MS_DIST_NAME

    for fact in (CommandResult(["nvidia-smi"], None, error="timeout").describe(),
                 Text(MS_DIST_NAME, name="mindspore-gpu"), Text(LAUNCH_NOT_INTEGER, name="RANK_ID", value="'x'"),
                 Text(MATCHED_BY, key="host_ip", value="10.0.0.1", what=Text(MATCH_HOSTNAME))):
        for text in _both(fact):
            assert localized(text) == text


@pytest.mark.parametrize("result", [
    CommandResult(["nvidia-smi"], None, error="timeout"),
    CommandResult(["nvidia-smi"], None, error="not-found"),
    CommandResult(["hccn_tool", "-i", "0", "-ip", "-g"], None, error="not-executable"),
    CommandResult(["nvidia-smi"], 18),
])
def test_how_a_command_failed_is_worded_in_chinese(result, zh):
    for text in _both(result.describe()):
        shown = localized(text)
        assert CJK.search(shown) and f"`{' '.join(result.argv)}`" in shown


def test_the_hccn_and_nvidia_phrases_are_worded_in_chinese(zh, make_snapshot):
    from ascend_doctor.host import SnapshotHost
    from ascend_doctor.probes import ProbeOptions, cuda, hccn
    from ascend_doctor.probes.hccn import probe_hccn

    facts = probe_hccn(SnapshotHost(make_snapshot()), ProbeOptions())  # no hccn_tool, no hccn.conf, no device
    assert facts.tool_error == f"hccn_tool not found ({hccn.HCCN_TOOL} or on PATH)"
    for text in _both(facts.tool_error):
        assert CJK.search(localized(text)) and hccn.HCCN_TOOL in localized(text)
    assert CJK.search(localized(cuda.phrases.NVIDIA_SMI_NO_BANNER))


def _decided(dist_name, version, backends=(), url=""):
    from ascend_doctor.probes.mindspore_pkg import _decide_flavour

    facts = MindSporeFacts(installed=True, dist_name=dist_name, version=version, package_dir="/sp/mindspore",
                           backends=list(backends))
    _decide_flavour(facts, {"dist_info": "/sp/x.dist-info", "url": url})
    return facts


@pytest.mark.parametrize("facts", [
    _decided("mindspore", "2.5.0", ["cpu", "gpu", "ascend"]),
    _decided("mindspore", "2.5.0", ["cpu", "ascend"]),
    _decided("mindspore", "2.5.0", ["cpu"]),
    _decided("mindspore-gpu", "1.10.1", url="https://x/1.10.1/MindSpore/gpu/x86_64/cuda-11.1/m.whl"),
    _decided("mindspore-ascend", "1.10.1"),
    _decided("mindspore", "1.10.1"),
    _decided("mindspore_gpu_cuda11", "1.8.0"),
    _decided("mindspore-gpu", "1.9.0+cu11.1"),
    _decided("mystery", "0.1"),
], ids=lambda f: f"{f.dist_name}-{f.version}-{f.flavour}")
def test_where_the_mindspore_probe_read_the_build_is_worded_in_chinese(facts, zh):
    assert facts.flavour_source
    for source in (facts.flavour_source, facts.cuda_version_source):
        for text in _both(source) if source else ():
            shown = localized(text)
            assert CJK.search(shown), text
            # the values stay as the probe wrote them: a distribution name is data, not a word to translate
            assert facts.dist_name in shown or "/sp/" in shown or facts.version in shown or "mystery" == facts.dist_name


def test_launch_and_rank_table_match_phrases_are_worded_in_chinese(zh):
    from ascend_doctor.probes.launch import _int_or_none
    from ascend_doctor.probes.rank_table import find_local_server
    from ascend_doctor.rank_table import validate_rank_table_text

    errors = []
    assert _int_or_none("x1", "RANK_ID", errors) is None
    for text in _both(errors[0]):
        assert CJK.search(localized(text)) and "RANK_ID='x1'" in localized(text)
    table = validate_rank_table_text(json.dumps({"version": "1.0", "server_count": "1", "status": "completed",
                                                 "server_list": [{"server_id": "10.0.0.1", "device": [
                                                     {"device_id": "0", "device_ip": "192.0.2.1", "rank_id": "0"}]}]}))
    for what in (phrases.MATCH_HOSTNAME, phrases.MATCH_HOSTNAME_I, phrases.MATCH_IP_ADDR):
        matched = find_local_server(table, {"10.0.0.1": what})["matched_by"]
        assert matched == f"server_id 10.0.0.1 is {what}"
        for text in _both(matched):
            shown = localized(text)
            assert shown.startswith("server_id 10.0.0.1 ") and CJK.search(shown), shown
    # a variable's name is no phrase: the live Text says it in Chinese; read back, so little literal text is
    # not trusted to be this phrase (it would match many an English sentence) and it is shown as written
    matched = find_local_server(table, {"10.0.0.1": "XDL_IP"})["matched_by"]
    assert localized(matched) == "server_id 10.0.0.1 即 XDL_IP" and localized(str(matched)) == str(matched)


def test_a_variable_title_keeps_the_shape_the_outcome_line_replaces(zh):
    """hccl.* findings are titled "<title>: VAR"; in zh the outcome line (fail=/warn=) still takes the title's place."""
    from ascend_doctor.checks import CheckContext
    from ascend_doctor.checks.hccl import check_hccl_env_values
    from ascend_doctor.facts import Facts
    from ascend_doctor.probes.environment import env_facts

    facts = Facts()
    facts.env = env_facts({"HCCL_BUFFSIZE": "0"})
    with i18n.deferred():
        [f] = check_hccl_env_values(CheckContext(facts=facts))
    assert f.title.params["name"] == "HCCL_BUFFSIZE"  # the line is a message, its variable a parameter
    f = f.worded()
    assert f.status == "fail" and f.title == "HCCL 环境变量超出文档规定的范围：HCCL_BUFFSIZE"
    assert CJK.search(f.title) and CJK.search(f.summary)


def test_a_reconciled_step_keeps_its_command_and_says_why_in_chinese(zh):
    from ascend_doctor.findings import Finding
    from ascend_doctor.reconcile import reconcile

    owner = Finding("hccl.env_values", "fail", "t", fix=["export HCCL_BUFFSIZE=200"])
    other = Finding("x.other", "warn", "t", fix=["export HCCL_BUFFSIZE=100   # something"])
    reconcile([owner, other])
    assert other.fix[0].startswith("(left out: export HCCL_BUFFSIZE=100)   # ")
    assert CJK.search(other.fix[0]) and "hccl.env_values" in other.fix[0]


def test_smoke_titles_and_outcome_lines_are_chinese(zh):
    from ascend_doctor.smoke import classify, runner

    stages = {s: runner.StageResult(s, runner.NOT_RUN) for s in runner.STAGES}
    stages["import"] = runner.StageResult("import", runner.FAILED, 5, {}, "ImportError: boom")
    run = runner.SmokeRun("cpu", stages, 1, "", 100, "import")
    findings = classify.smoke_findings(run)
    assert all(CJK.search(f.title) and CJK.search(f.summary) for f in findings)
    assert findings[0].title == i18n._("MindSpore does not import")
    assert findings[1].title == i18n._("Not run: {title}").format(title=i18n._("MindSpore selects the device"))
