"""The English texts a reader sees (a signature's `title`, `cause` and `fix`, a pitfall's `title` and `advice`) hold
no Chinese of their own: an English run showed `ssh {host|<节点>|%s}`, `ls -ld <目录>`, `git clone -b <分支>` to
readers who cannot read the placeholder. Chinese may stand only where the reader sees it as written — in a `code span`
(a command or a log line as printed) or in quotes (a log message, a document's chapter title), with the English meaning
beside it — and never as the words of a placeholder (`<node>`, `{host|<node>|%s}`), even inside a command."""

import json
import os
import re

import pytest

from ascend_doctor import zh_style
from ascend_doctor.data import data_path

HAN = re.compile(f"[{zh_style.HAN}]")
CODE = re.compile(r"`[^`\n]*`")
QUOTED = re.compile(r"“[^”\n]*”|\"[^\"\n]*\"|‘[^’\n]*’|(?<!\w)'[^'\n]*'(?!\w)|「[^」\n]*」")
PLACEHOLDER = re.compile(r"<[^<>\n]*>|\{[a-z][a-z0-9_]*\|[^{}]*\}")  # <dir>, {host|<node>|%s}


def chinese_problems(text):
    """What in an English text is Chinese a reader cannot be expected to read: a placeholder's words anywhere, or
    Chinese outside code spans and quotes."""
    problems = [m.group(0) for m in PLACEHOLDER.finditer(text) if HAN.search(m.group(0))]
    prose = QUOTED.sub(" ", CODE.sub(" ", text))
    problems += re.findall(rf"\w*[{zh_style.HAN}][\w{zh_style.HAN}]*", prose)
    return problems


@pytest.mark.parametrize("text, found", [
    ("Run `ssh {host|<节点>|%s} hostname`.", ["{host|<节点>|%s}"]),
    ("Run `ssh {host|<node>|%s} hostname`.", []),
    ("Check `ls -ld <目录>` and `df -h <dir>`.", ["<目录>"]),
    ("It reports 'Dump Failure' (MindIO持久化检查点数据异常).", ["MindIO持久化检查点数据异常"]),
    ("It reports 'Dump Failure' (its ChName \"MindIO持久化检查点数据异常\": the same in Chinese).", []),
    ("Restore it as the “综合检查” (general checks) chapter says.", []),
    ("grep the line `[ERROR] 训练失败` in the node's log, then the host's.", []),
    ("The node's log and the host's 日志.", ["日志"]),
])
def test_the_check_finds_chinese_placeholders_and_unquoted_chinese(text, found):
    assert chinese_problems(text) == found


def _kb_files():
    kb_dir = os.path.dirname(data_path(os.path.join("kb", "field_cases.json")))
    return [os.path.join(kb_dir, n) for n in sorted(os.listdir(kb_dir)) if n.endswith(".json")] + \
        [data_path("knowledge_base.json")]


def _english_texts():
    for path in _kb_files():
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        name = os.path.basename(path)
        for sig in data.get("signatures", []):
            for key in ("title", "cause"):
                yield f"{name} {sig['id']}.{key}", sig.get(key) or ""
            for n, step in enumerate(sig.get("fix") or []):
                yield f"{name} {sig['id']}.fix[{n}]", step
        pitfalls = data.get("pitfalls") or {}
        for pid, pit in pitfalls.items():
            for key in ("title", "advice"):
                yield f"{name} {pid}.{key}", pit.get(key) or ""


def test_no_english_title_cause_or_fix_holds_chinese_a_reader_cannot_read():
    texts = list(_english_texts())
    assert len(texts) > 5000  # every part read
    bad = [f"{where}: {problems}" for where, text in texts for problems in [chinese_problems(text)] if problems]
    assert not bad, f"{len(bad)} English text(s) with Chinese (word placeholders in English, quote a Chinese line " \
                    f"the reader sees and say what it means):\n" + "\n".join(bad)
