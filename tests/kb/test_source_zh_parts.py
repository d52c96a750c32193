"""data/kb/*.json `source_zh`: each signature's citations in Chinese (issue 27: the 出处 of a Chinese report was
English prose). Read from the data directly: the same citations as `source` (every URL, repository path, 0x code,
document id and ascend-fd id kept as written), Chinese punctuation, and no internal notes in either language; the
Chinese texts of the same entries keep to the vendor's terms (no `kernel` in running prose, no English placeholder)."""

import json
import os
import re

import pytest

from ascend_doctor import zh_style
from ascend_doctor.data import data_path

# The part files whose sources are written in Chinese: every shipped part (a new part is written with its source_zh).
FILES = tuple(sorted(n for n in os.listdir(os.path.dirname(data_path(os.path.join("kb", "field_cases.json"))))
                     if n.endswith(".json")))

SIGS = [(name, s) for name in FILES for s in json.load(open(data_path(os.path.join("kb", name)), encoding="utf-8"))["signatures"]]
IDS = [f"{name[:-5]}:{s['id']}" for name, s in SIGS]

HAN = re.compile(f"[{zh_style.HAN}]")
URL = re.compile(r"https?://[^\s,;)'\"`（）]+")
PATH = re.compile(r"(?<![\w:/])[\w.@+-]*(?:/[\w.@*+-]+)+")
HEX = re.compile(r"\b0x[0-9A-Fa-f]+\b")
DOC_ID = re.compile(r"\b[a-z]+(?:_[0-9]+)+\b")            # npusmi_074, troubleshooting_0067, aclcppdevg_03_1345
FD_ID = re.compile(r"\b(?:AISW|Comp)_[A-Za-z0-9_]+\b")      # ascend-fd fault ids
# Notes of the project's own research that a user cannot open, and words about how an entry was made.
INTERNAL = re.compile(r"index ?id|stored code index|\bissue \d+|issue #\d+|\bround \d+|heldout\d*|shared/reference|"
                      r"(?<![\w/])reference/\w+\.md|(?<![\w/])data/\w+\.json|(?<![\w/])scripts/\w+\.py|ascend_doctor/|"
                      r"marked by ascend-doctor|added by ascend-doctor|one measurement")
HALF_AFTER_HAN = re.compile(f"[{zh_style.HAN}][:,()]")
TITLE = re.compile(r"“[^“”\n]{1,40}”")  # a vendor title quoted as published keeps its own spacing


def tokens(source):
    urls = [u.rstrip(".:") for u in URL.findall(source)]
    rest = URL.sub(" ", source)
    return sorted(set(urls + PATH.findall(rest) + HEX.findall(rest) + DOC_ID.findall(rest) + FD_ID.findall(rest)))


def test_the_token_reader_finds_what_a_citation_must_keep():
    src = ("ascend-fd kg-config.json AISW_CANN_HCCL_001 (telling strings); npu-smi 'npu-smi set -t reset' "
           "(hiascend.com npusmi_074); 0x80E18401 in mm/oom_kill.c, https://github.com/a/b/issues/3.")
    assert tokens(src) == ["0x80E18401", "AISW_CANN_HCCL_001", "https://github.com/a/b/issues/3", "mm/oom_kill.c",
                           "npusmi_074"]


@pytest.mark.parametrize("name, sig", SIGS, ids=IDS)
def test_every_source_has_its_chinese_twin_with_the_same_citations(name, sig):
    zh = sig.get("source_zh")
    assert isinstance(zh, str) and HAN.search(zh), f"{name} {sig['id']}: source_zh missing or not Chinese"
    missing = [t for t in tokens(sig["source"]) if t not in zh]
    assert not missing, f"{name} {sig['id']}: source_zh lacks {missing}"
    assert not HALF_AFTER_HAN.search(zh), f"{name} {sig['id']}: half-width mark after Chinese in {zh!r}"
    assert not zh_style.problems(TITLE.sub("“”", zh)), (sig["id"], zh_style.problems(TITLE.sub("“”", zh)))
    for text in (sig["source"], zh):
        assert not INTERNAL.search(text), f"{name} {sig['id']}: internal note {INTERNAL.search(text).group(0)!r}"
    assert "telling strings" not in zh


# `kernel` where it names a thing of the log or the code, not the vendor's 算子 / 算子任务 in prose.
KERNEL_KEPT = re.compile(r"kernel name|kernel_\w+|\w+_kernel\w*|KernelGraph|kernel\.[a-z_.]+|Kernel task happen error|"
                         r"Aicpu kernel execute failed|Launch kernel failed|（Kernels）|Kernels 包?|abstract、kernel")
SPANS = re.compile(r"`[^`]*`|“[^”]*”|\"[^\"]*\"")
EN_PLACEHOLDER = re.compile(r"<[A-Za-z]+(?: [A-Za-z0-9]+)+>|<[^<>]*\bdevice IP>")  # <log dir>, <peer device ip>


@pytest.mark.parametrize("name, sig", SIGS, ids=IDS)
def test_the_chinese_texts_use_the_vendors_terms(name, sig):
    texts = [sig.get("title_zh") or "", sig.get("cause_zh") or ""] + list(sig.get("fix_zh") or [])
    for text in texts:
        prose = KERNEL_KEPT.sub(" ", SPANS.sub(" ", text))
        assert not re.search(r"(?i)\bkernel\b", prose), f"{sig['id']}: `kernel` in prose (算子 / 算子任务): {text!r}"
        for word in ("挂住", "拿不到", "根本没"):
            assert word not in text, f"{sig['id']}: {word} in {text!r}"
        assert not EN_PLACEHOLDER.search(text), f"{sig['id']}: English placeholder in {text!r}"
        assert not re.search(r"设备/主机|主机/设备|主机与设备", text), f"{sig['id']}: 主机/设备 for Host/Device in {text!r}"
        assert "NPU 网卡" not in text, f"{sig['id']}: NPU 网卡 (glossary: NPU 网口) in {text!r}"
