"""ascend_doctor/zh_style.py: the vendor's words and Chinese punctuation, and that the shipped Chinese texts
(catalogs, the knowledge base's *_zh fields, README.zh-CN.md) keep to them."""

import json
import os

import pytest

from ascend_doctor import catalog, zh_style

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ZH_DIR = os.path.join(REPO, "ascend_doctor", "locale", "zh_CN")


@pytest.mark.parametrize("text, styled", [
    ("版本配套表备注: 见下文, 然后重试", "版本配套表备注：见下文，然后重试"),
    ("驱动(固件)版本", "驱动（固件）版本"),
    ("CANN是异构计算架构", "CANN 是异构计算架构"),
    ("每个通信域约需 2xHCCL_BUFFSIZE", "每个通信域约需 2×HCCL_BUFFSIZE"),
    ("在主机侧和设备侧各看一次", "在 Host侧和 Device侧各看一次"),
    ("按你的版本安装", "按您的版本安装"),
    ("NPU 显存不足", "NPU 设备内存不足"),
    ("用图模式训练，PyNative 模式调试", "用静态图模式训练，PyNative模式调试"),
    ("主机网卡和设备网口", "Host 网卡和 NPU 网口"),
])
def test_normalize_follows_the_vendor(text, styled):
    assert zh_style.normalize(text) == styled
    assert not zh_style.problems(styled)
    assert zh_style.problems(text)


@pytest.mark.parametrize("text", [
    "运行 `a: b, c(d)` 后{name}：检查", "见 https://x.cn/a:b,c", '日志行 "ERROR: a,b(c)" 出现', "0xA0xx8002 错误",
    "GPU 显存不足",  # a CUDA card's memory is 显存
])
def test_protected_spans_stay_byte_identical(text):
    styled = zh_style.normalize(text)
    for span in ("`a: b, c(d)`", "{name}", "https://x.cn/a:b,c", '"ERROR: a,b(c)"', "0xA0xx8002", "显存"):
        assert (span in text) <= (span in styled)


def test_a_fix_line_keeps_its_command():
    line = "export A=1,B=2   # 你的环境: 每次都要"
    assert zh_style.normalize(line, command="export A=1,B=2") == "export A=1,B=2   # 您的环境：每次都要"


def _shipped_texts():
    for entry in catalog.read_entries(ZH_DIR):
        if entry.msgid:
            for text in entry.strs:
                yield f"{os.path.basename(entry.where)} {entry.msgid[:40]!r}", text.split("  # ", 1)[-1] \
                    if "  # " in entry.msgid else text
    kb_files = [os.path.join(REPO, "data", "knowledge_base.json")] + [
        os.path.join(REPO, "data", "kb", f) for f in sorted(os.listdir(os.path.join(REPO, "data", "kb")))]
    for path in kb_files:
        data = json.load(open(path, encoding="utf-8"))
        items = list(data.get("signatures", [])) + list((data.get("pitfalls") or {}).values())
        for item in items:
            for key in zh_style.ZH_FIELDS:
                value = item.get(key) or []
                for text in [value] if isinstance(value, str) else value:
                    yield f"{os.path.basename(path)} {item.get('id', '')}.{key}", text
    yield "README.zh-CN.md", open(os.path.join(REPO, "README.zh-CN.md"), encoding="utf-8").read()


def test_the_shipped_chinese_keeps_the_house_style():
    bad = [f"{where}: {p}" for where, text in _shipped_texts() for p in zh_style.problems(text)]
    assert not bad, f"{len(bad)} place(s) off the house style (scripts/i18n.py style repairs the mechanical " \
                    "ones):\n" + "\n".join(bad[:40])


def test_cann_packages_by_the_install_guides_names():
    assert zh_style.normalize("没有找到 CANN toolkit，请安装 toolkit 与 kernels 包。") == \
        "没有找到 CANN 开发套件包（Toolkit），请安装 Toolkit 与二进制算子包（Kernels）。"
    for kept in ("路径 /usr/local/Ascend/ascend-toolkit/latest 存在", "安装与 CUDA 配套的 toolkit"):
        assert zh_style.normalize(kept) == kept


def test_a_quoted_vendor_title_keeps_its_spacing():
    """A document title quoted as the vendor writes it (“HBM比特ECC故障”, CANN troubleshooting_0009) is not spaced
    apart, the text around it is; its words are still held to the glossary."""
    text = "CANN 维护指南 troubleshooting_0009“HBM比特ECC故障”"
    assert zh_style.normalize(text) == text and not zh_style.problems(text)
    assert zh_style.normalize("见CANN文档“HBM比特ECC故障”") == "见 CANN 文档“HBM比特ECC故障”"
    assert zh_style.problems("“NPU 显存不足”") == ["显存 -> 设备内存"]


def test_an_unclosed_quote_is_styled_like_any_other_text():
    """A “ that opens no title of ≤40 characters (unclosed, or a long quote) once sent `_spaces` into itself
    for ever (RecursionError in `scripts/i18n.py style`)."""
    assert zh_style.normalize("见“未闭合的引号和CANN是") == "见“未闭合的引号和 CANN 是"
    assert zh_style.normalize("见“HBM比特ECC故障”和CANN是") == "见“HBM比特ECC故障”和 CANN 是"


def test_an_english_message_in_chinese_quotes_is_kept_as_written():
    """A quoted log message or English title keeps its own half-width brackets and spacing ('connect to (host,
    port)' once became 'connect to（host, port）' in the knowledge base's sources)."""
    text = "TCPStore 的报错“The client socket has timed out after Ns while trying to connect to (host, port)”（见源码）"
    assert zh_style.normalize(text) == text
    assert zh_style.normalize("见“未闭合的引号和CANN是") == "见“未闭合的引号和 CANN 是"
