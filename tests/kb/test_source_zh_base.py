"""data/knowledge_base.json `source_zh` (issue 27: the 出处 of a Chinese report was English prose, and the English
`source` cited the project's research notes, "see ascend_formats.md section 3", "index id 5504409409", which no user
can open). Read from the data directly: every signature says its citations in Chinese, keeping each URL, repository
path, 0x code and document id of `source` as written, with Chinese punctuation, and neither language carries an
internal note; the Chinese texts of the same signatures keep to the vendor's terms (review s3 #5, #6, #9, #12, #18,
N11: `kernel` in prose, 挂住, 拿不到, 主机/设备 for Host/Device, English placeholders)."""

import json
import re

import pytest

from ascend_doctor import zh_style
from ascend_doctor.data import data_path

SIGS = json.load(open(data_path("knowledge_base.json"), encoding="utf-8"))["signatures"]

HAN = re.compile(f"[{zh_style.HAN}]")
URL = re.compile(r"https?://[^\s,;)'\"`（）]+")
PATH = re.compile(r"(?<![\w:/])[\w.@+-]*(?:/[\w.@*+-]+)+")
HEX = re.compile(r"\b0x[0-9A-Fa-f]+\b")
DOC_ID = re.compile(r"\b[a-z]+(?:_[0-9]+)+\b")            # npusmi_074, atlaserrorcode_15_0143, aclcppdevg_03_1345
CODE = re.compile(r"\b(?:E[A-Z0-9]\d{4}|[1-5]\d{5}|1343225860)\b")  # CANN error codes, ACL return codes
# The project's own notes and bookkeeping, which a user cannot open.
INTERNAL = re.compile(r"index ?id|stored code index|\bissue \d+|issue #\d+|\bround \d+|heldout\d*|shared/reference|"
                      r"(?<![\w/])reference/\w+\.md|ascend_formats|error_signatures|pitfalls\.md|seed articles?|"
                      r"(?<![\w/])data/\w+\.json|(?<![\w/])scripts/\w+\.py|ascend_doctor/|"
                      r"marked by ascend-doctor|added by ascend-doctor|verified in")
HALF_AFTER_HAN = re.compile(f"[{zh_style.HAN}][:,()]")
TITLE = re.compile(r"“[^“”\n]{1,60}”")   # a vendor's title quoted as published keeps its own spacing
QUOTED = re.compile(r"`[^`]*`")            # a log line or a code string, as the machine prints it


def tokens(source):
    """What a reader must find again in the Chinese: URLs, paths, 0x codes, document ids, error codes."""
    urls = [u.rstrip(".:") for u in URL.findall(source)]
    rest = URL.sub(" ", source)
    return sorted(set(urls + PATH.findall(rest) + HEX.findall(rest) + DOC_ID.findall(rest) + CODE.findall(rest)))


def chinese_edition(path):
    """The same MindSpore document in Chinese, which the Chinese citation may name instead (mindspore-ai/docs keeps
    it under source_zh_cn, an install guide without the _en suffix)."""
    return path.replace("source_en", "source_zh_cn").replace("_en.md", ".md")


def test_the_token_reader_finds_what_a_citation_must_keep():
    src = ("CANN error code EI0006 (hiascend.com maintenref troubleshooting atlaserrorcode_15_0246); hicann/hccl "
           "`docs/zh/user_guide/hccl_env` 0x80E18401, 507033 and https://github.com/a/b/issues/3.")
    assert tokens(src) == ["0x80E18401", "507033", "EI0006", "atlaserrorcode_15_0246",
                           "docs/zh/user_guide/hccl_env", "hicann/hccl", "https://github.com/a/b/issues/3"]
    assert chinese_edition("docs/mindspore/source_en/faq/installation.md") == \
        "docs/mindspore/source_zh_cn/faq/installation.md"
    assert chinese_edition("install/mindspore_gpu_install_pip_en.md") == "install/mindspore_gpu_install_pip.md"
    assert INTERNAL.search("see ascend_formats.md section 3") and INTERNAL.search("(2.0-era version, index id 264)")
    assert INTERNAL.search("reference/error_signatures.md X: y") and not INTERNAL.search("docs/zh/user_guide/x.md")
    assert HALF_AFTER_HAN.search("复位芯片(npusmi_074)") and not HALF_AFTER_HAN.search("复位芯片（npusmi_074）")


@pytest.mark.parametrize("sig", SIGS, ids=[s["id"] for s in SIGS])
def test_every_source_has_its_chinese_twin_with_the_same_citations(sig):
    zh = sig.get("source_zh")
    assert isinstance(zh, str) and HAN.search(zh), f"{sig['id']}: source_zh missing or not Chinese"
    missing = [t for t in tokens(sig["source"]) if t not in zh and chinese_edition(t) not in zh]
    assert not missing, f"{sig['id']}: source_zh lacks {missing}"
    plain = QUOTED.sub(" ", zh)
    assert not HALF_AFTER_HAN.search(plain), f"{sig['id']}: half-width mark after Chinese in {zh!r}"
    assert not zh_style.problems(TITLE.sub("“”", plain)), (sig["id"], zh_style.problems(TITLE.sub("“”", plain)))
    for text in (sig["source"], zh):
        assert not INTERNAL.search(text), f"{sig['id']}: internal note {INTERNAL.search(text).group(0)!r}"


# `kernel` where it names a thing of the log, the code or a package (kept), not the vendor's 算子 / 算子任务 in prose.
KERNEL_KEPT = re.compile(r"kernel name|kernel_\w+|\w+_kernel\w*|KernelGraph|（Kernels）|Kernels）|\bKernels 包?|"
                         r"kernel 配置|check_os_kernel|Detected kernel version")
SPANS = re.compile(r"`[^`]*`|“[^”]*”|\"[^\"]*\"|'[^']*'")
# <smaller MB>, <peer device ip>, <peer ip>; a Chinese one may keep a vendor's word (<对端 Device IP>)
EN_PLACEHOLDER = re.compile(r"<[A-Za-z]+(?: [A-Za-z0-9']+)+>|<[^<>]*\bpeer\b[^<>]*>|<[^<>]*\bdevice (?:ip|IP)>")
WORDS = ("挂住", "拿不到", "根本没", "主机/设备", "设备/主机", "主机与设备", "主机或设备", "NPU 网卡", "显存")


def _zh_texts(sig):
    return [sig.get("title_zh") or "", sig.get("cause_zh") or ""] + list(sig.get("fix_zh") or [])


@pytest.mark.parametrize("sig", SIGS, ids=[s["id"] for s in SIGS])
def test_the_chinese_texts_use_the_vendors_terms(sig):
    for text in _zh_texts(sig):
        prose = KERNEL_KEPT.sub(" ", SPANS.sub(" ", text))
        assert not re.search(r"(?i)\bkernel\b", prose), f"{sig['id']}: `kernel` in prose (算子 / 算子任务): {text!r}"
        gpu = "GPU" in text or "CUDA" in text  # 显存 stays for a GPU's memory (docs/glossary.md)
        found = [w for w in WORDS if w in text and not (w == "显存" and gpu)]
        assert not found, f"{sig['id']}: {found} in {text!r}"
        assert not EN_PLACEHOLDER.search(text), f"{sig['id']}: English placeholder in {text!r}"
        assert not re.search(r"ascend_formats|error_signatures|reference/", text), f"{sig['id']}: internal note {text!r}"


def test_the_terms_check_finds_what_the_review_found():
    bad = {"title_zh": "EI0006：对端 kernel 卡住", "cause_zh": "AI Core 上的 kernel 仍然挂住，缓存分配器拿不到内存块",
           "fix_zh": ["export HCCL_BUFFSIZE=<smaller MB>", "ping <peer device ip>", "ping <peer ip>", "二者之间的主机/设备网络"]}
    for text in _zh_texts(bad):
        prose = KERNEL_KEPT.sub(" ", SPANS.sub(" ", text))
        assert (re.search(r"(?i)\bkernel\b", prose) or any(w in text for w in WORDS)
                or EN_PLACEHOLDER.search(text)), text
    kept = "`fault kernel_name` 给出了算子名；安装二进制算子包（Kernels）"
    assert not re.search(r"(?i)\bkernel\b", KERNEL_KEPT.sub(" ", SPANS.sub(" ", kept)))
    assert not EN_PLACEHOLDER.search("hccn_tool -i <id> -ping -g address <对端 Device IP>")
