"""render/triage_report.py: triage's text and Markdown."""

from tests.helpers import run_cli
from tests.triage.test_triage import OOM, write  # noqa: F401


def test_markdown_and_text_formats(tmp_path):
    log = write(tmp_path / "a.log", [OOM])
    md = run_cli("triage", log, "--format", "markdown").stdout
    assert "| 1 | fail | `TORCH_NPU_OOM`" in md and "**Fix.**" in md
    txt = run_cli("triage", log).stdout
    assert "FAIL TORCH_NPU_OOM" in txt and "Fix:" in txt and "PYTORCH_NPU_ALLOC_CONF" in txt


def test_root_cause_headline_says_unknown_device_where_the_peer_does():
    """No device named, and ascend-fd's form of the list is "Unknown Device": the headline says so (with the wait
    cycle when there is one); a named device and a list the peer gives otherwise ("ALL Device") keep their
    headlines."""
    from ascend_doctor.render.triage_report import root_cause_headline

    rc = {"kind": "wait_cycle", "ascend_fd_code": 124, "devices": [], "chain": ["a device-0", "b device-1"],
          "peer_devices": ["Unknown Device"]}
    assert root_cause_headline(rc).startswith(
        "Root cause: Unknown Device (no single device; they wait on each other: a device-0 → b device-1)")
    assert root_cause_headline(dict(rc, chain=[])).startswith(
        "Root cause: Unknown Device (not determined from these logs)")
    assert root_cause_headline(dict(rc, chain=[], peer_devices=["ALL Device"])).startswith(
        "Root cause: not determined from these logs")
    assert root_cause_headline(dict(rc, devices=["a device-0"], chain=[], peer_devices=["a device-0"])).startswith(
        "Root cause: a device-0  [")


def test_a_problem_names_its_source_in_the_readers_language_and_its_ascend_fd_ids_once(tmp_path):
    """Issue 27 (review N3, #15): the Chinese source line was English, and the ascend-fd id it ended with was
    printed again on the next line as "ascend-fd: …". The source is the entry's `source_zh` in Chinese; the ids
    the log shows are one line of their own, in both languages."""
    import json
    import re

    from ascend_doctor.data import data_path

    part = json.load(open(data_path("kb/cann_drv.json"), encoding="utf-8"))
    sig = next(s for s in part["signatures"] if s["id"] == "DRV_BUFF_GRP_ATTACH_ACCEPT")
    log = write(tmp_path / "plog.log", [sig["examples"][0]])
    zh = run_cli("triage", log, "--lang", "zh").stdout
    block = re.sub(r"\n {5}", "", zh[zh.index("出处："):])  # the wrapped source line joined again
    assert "ascend-fd 知识库（github.com/Ascend/mind-cluster，" in block and "驱动源码 verylucky01/driver" in block
    assert "telling" not in block and "driver source" not in block
    assert block.count("AISW_CANN_DRV_BUFF_002") == 1 and "ascend-fd 故障码：AISW_CANN_DRV_BUFF_002" in block
    en = run_cli("triage", log).stdout
    block = re.sub(r"\n {5}", " ", en[en.index("Source:"):])
    assert block.count("AISW_CANN_DRV_BUFF_002") == 1 and "\n   ascend-fd: AISW_CANN_DRV_BUFF_002" in block
    assert "driver source verylucky01/driver" in block


def test_the_root_cause_headline_is_one_message_kept_in_the_json():
    """Issue 23: the headline was English pieces joined by `+` (its kind and ascend-fd's class appended): it is one
    message with its parameters, the triage JSON keeps it under the root cause's "i18n", and a Chinese run says
    ascend-fd's class inside the headline's own brackets and leaves the rule's English kind out."""
    from ascend_doctor import i18n
    from ascend_doctor.i18n_text import Joined, worded
    from ascend_doctor.render.triage_report import root_cause_headline
    from ascend_doctor.triage.result import root_cause_json
    from tests.helpers.i18n_asserts import assert_is_msg, assert_msg

    rc = {"kind": "init_timeout_root_rank", "ascend_fd_code": 114, "devices": ["w-1 device-1"],
          "chain": ["w-0 device-0", "w-1 device-1"], "peer_devices": ["w-1 device-1"], "summary": "s"}
    with i18n.deferred():
        text = root_cause_headline(rc)
        two = root_cause_headline(dict(rc, devices=["a device-0", "b device-1"], chain=[], ascend_fd_code=None))
    assert_is_msg(text, "Root cause: {devices} (the others waited on it: {chain})  [{kind}, ascend-fd {code}]",
                  devices="w-1 device-1", chain="w-0 device-0 → w-1 device-1", kind="init_timeout_root_rank",
                  code=114)
    assert_msg(two, "{headline}  [{kind}]", kind="init_timeout_root_rank")
    assert_msg(two, "Root cause: {devices}")
    assert isinstance(two.params["headline"].params["devices"], Joined)  # the list said in the reader's language
    doc = root_cause_json(rc)
    assert doc["headline"] == root_cause_headline(rc) == worded(text)
    assert doc["i18n"]["headline"] == {"i18n": text.to_i18n()}
    i18n.set_lang("zh")
    try:
        assert worded(text) == root_cause_headline(rc) == ("根因：w-1 device-1（其他设备都在等它：w-0 device-0 → w-1 "
                                                           "device-1；ascend-fd 故障类 114）")
        assert worded(two) == "根因：a device-0、b device-1"
    finally:
        i18n.set_lang("en")


def test_a_traceback_entry_says_what_it_folds_in_text_and_markdown(tmp_path):
    """An unexplained entry standing for a traceback (its `traceback` field) says where it starts and how many
    frames it folds, under its line; a line of its own says nothing more; a field not of that shape is ignored."""
    from ascend_doctor.i18n import set_lang
    from ascend_doctor.render.triage_report import traceback_note
    from tests.triage.test_triage import TRACEBACK

    set_lang("en")
    assert traceback_note({"first_line": 3, "frames": 4, "lines": 9, "exception": True}) == \
        "(a traceback from line 3: 4 frame(s) folded into its exception line)"
    assert traceback_note({"first_line": 3, "frames": 4, "lines": 9, "exception": False}) == \
        "(a traceback from line 3, 4 frame(s) folded; its exception line is not in the log)"
    assert traceback_note(None) == traceback_note({"first_line": "3"}) == traceback_note([1, 2]) == ""
    log = write(tmp_path / "a.log", TRACEBACK)
    md = run_cli("triage", log, "--format", "markdown").stdout
    assert "a.log:7: " + TRACEBACK[-1] + "\n  (a traceback from line 1: 2 frame(s) folded into its exception line)" in md
    zh = run_cli("triage", log, "--lang", "zh").stdout
    assert "（自第 1 行起的一段回溯：2 个栈帧已并入其异常行）" in zh
