"""The house style of the Chinese texts (catalogs, the knowledge base's `*_zh` fields, README.zh-CN.md, every
`--lang zh` output): the vendor's words (docs/glossary.md) and Chinese punctuation.

One place for both the rules and their repair: `problems(text)` names what breaks them (the tests read the
catalogs, the knowledge base and the Chinese outputs of every fixture with it), `normalize(text)` repairs the
mechanical part (`scripts/i18n.py style` runs it over the catalogs and the knowledge base).

Never touched: placeholders (`{name}`), backticked spans, URLs, ASCII-only quoted text ("...": a log line as
the machine printed it) and the command part of a fix line (before its `  # `): they stay byte-identical. A short
title in “…” keeps its spacing as the vendor writes it (“HBM比特ECC故障”, `_TITLE`).
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Tuple

from .lazyre import lazy_compile

# Chinese characters (CJK unified ideographs and their extension A) and full-width punctuation.
HAN = "\u3400-\u4dbf\u4e00-\u9fff"
_HAN = lazy_compile(f"[{HAN}]")
FULL_PUNCT = "，。：；、！？（）《》「」【】“”‘’"

# Words a literal translation produces -> the vendor's word (docs/glossary.md has each with its source).
# A wrong word is matched as written; `ALLOWED_AROUND` lists the longer forms that contain one legitimately.
OFF_GLOSSARY: Dict[str, str] = {
    "运算符": "算子", "设备网卡": "NPU 网口", "设备网口": "NPU 网口", "驱动程序": "驱动", "集体通信": "集合通信",
    "聚合通信": "集合通信", "升腾": "昇腾", "排名表": "rank table", "环境参数": "环境变量",
    "显存": "设备内存", "主机侧": "Host侧", "设备侧": "Device侧", "主机网卡": "Host 网卡", "通信组": "通信域",
    "图模式": "静态图模式（Graph模式）", "算子二进制包": "二进制算子包（Kernels）", "你": "您",
    "device 侧": "Device侧", "host 侧": "Host侧", "NPU 网络端口": "NPU 网口", "或者，改为": "另一种方案",
}
# Longer words that contain an off-glossary one and are the vendor's own (静态图模式 holds 图模式).
ALLOWED_AROUND: Tuple[str, ...] = ("静态图模式", "动态图模式")
# GPU memory keeps its name: 显存 is right for a CUDA card (the MindSpore-on-CUDA checks).
GPU_MEMORY = lazy_compile(r"(GPU|CUDA|显卡)[^。；\n]{0,12}显存|显存[^。；\n]{0,6}(GPU|CUDA)")

# Latin words the vendor writes fused to a Chinese word, no space between (Host侧, Graph模式).
FUSED = ("Host侧", "Device侧", "Graph模式", "PyNative模式")

_PLACEHOLDER = r"\{[A-Za-z_][\w.]*(?:![rsa])?(?::[^{}]*)?\}"
_PROTECTED = lazy_compile("|".join([
    r"```.*?```",                 # a fenced code block (README)
    r"`[^`\n]*`",                 # a backticked command or name
    r"\]\([^)\s]*\)",             # a Markdown link target
    r"https?://[^\s，。；）)`\"'<>]+",  # a URL
    r"\"[\x20-\x7e]*?\"",         # ASCII text in double quotes: quoted machine output
    r"“[\x20-\x7e]+?”",           # ASCII text in Chinese quotes: a quoted English message or title, as written
    _PLACEHOLDER,
]), re.S)


def has_han(text: str) -> bool:
    return bool(_HAN.search(text))


def _shielded(text: str, fix: Callable[[str], str]) -> str:
    """`fix` applied to `text` with every protected span replaced by a private-use character (restored after),
    so a rule never reaches inside a placeholder, a command, a URL or quoted output."""
    kept: List[str] = []

    def hide(m: "re.Match[str]") -> str:
        kept.append(m.group(0))
        return chr(0xE000 + len(kept) - 1)

    out = fix(_PROTECTED.sub(hide, text))
    return re.sub("[\uE000-\uF8FF]", lambda m: kept[ord(m.group(0)) - 0xE000], out)


_H = f"[{HAN}]"
_HP = f"[{HAN}{FULL_PUNCT}]"


def _paren_pairs(text: str) -> List[Tuple[int, int]]:
    stack, pairs = [], []
    for i, ch in enumerate(text):
        if ch == "(":
            stack.append(i)
        elif ch == ")" and stack:
            pairs.append((stack.pop(), i))
    return pairs


def _punct(text: str) -> str:
    # ( ... ) -> （...） when the text before it or inside it is Chinese
    chars = list(text)
    for a, b in _paren_pairs(text):
        before = text[:a].rstrip(" ")
        prose = a > 0 and (text[a - 1] == " " or re.match(_HP, text[a - 1]))
        if has_han(text[a + 1:b]) or (before and re.match(_HP, before[-1])) or \
                (prose and re.match(_HP, text[b + 1:b + 2] or "x")):
            chars[a], chars[b] = "（", "）"
    text = "".join(chars)
    text = re.sub(rf"(?<={_HP}) *: *", "：", text)                  # 原因: x -> 原因：x
    text = re.sub(rf"(?<={_HP}) *, *", "，", text)                  # 驱动, 固件 -> 驱动，固件
    text = re.sub(rf" *, *(?={_H})", "，", text)                     # 8.0, 驱动 -> 8.0，驱动
    text = re.sub(rf"(?<={_HP}) *; *", "；", text)
    text = re.sub(r"(?<![\w.])([1-9]\d*) ?x ?(?=[A-Z_{\uE000-\uF8FF])", r"\1×", text)   # 2xBUFFSIZE -> 2×BUFFSIZE
    # no space beside full-width punctuation
    text = re.sub(r"(?<=\S) +(?=[，。：；、（）》」】！？])", "", text)
    text = re.sub(r"(?<=[，。：；、（）《「【！？]) +(?=[^\s#|])", "", text)  # a Markdown cell keeps its " |"
    return text


_LATIN_WORD = r"[A-Za-z][A-Za-z0-9_.+\-]*|\d[A-Za-z0-9_.+\-]*[A-Za-z][A-Za-z0-9_.+\-]*"


# A document title quoted as the vendor writes it: its spacing is the vendor's (“HBM比特ECC故障”, a CANN
# troubleshooting page), the other rules still read it.
_TITLE = lazy_compile(r"(“[^“”\n]{1,40}”)")


def _spaces(text: str) -> str:
    """A space between a Chinese character and a Latin word on either side (CANN 是), except the vendor's fused
    terms (Host侧) and a quoted title (_TITLE)."""
    if "“" in text:
        return "".join(p if i % 2 else _spaces_between(p) for i, p in enumerate(_TITLE.split(text)))
    return _spaces_between(text)


def _spaces_between(text: str) -> str:
    text = re.sub(rf"({_LATIN_WORD})({_H}+)", lambda m: _fuse_or_space(m.group(1), m.group(2)), text)
    text = re.sub(rf"({_H})(?=[A-Za-z]|\d[A-Za-z0-9_.+\-]*[A-Za-z])", r"\1 ", text)
    return re.sub(rf"(?<={_H}) +(?={_H})", "", text)  # none between two Chinese characters


def _fuse_or_space(word: str, han: str) -> str:
    for fused in FUSED:
        latin, tail = fused.rstrip("侧模式"), fused[len(fused.rstrip("侧模式")):]
        if word.endswith(latin) and han.startswith(tail):
            return word + han
    return word + " " + han


def normalize(text: str, command: str = "") -> str:
    """`text` in the house style. `command` is the English command part of a fix line (`cmd  # comment`):
    the text's own command part is then kept as it is and only its comment is styled."""
    if not has_han(text):
        return text
    if command and "  # " in text:
        head, comment = text.split("  # ", 1)
        return head + "  # " + normalize(comment)
    return _shielded(text, lambda t: _spaces(_punct(vendor_words(t))))


# The mechanical part of OFF_GLOSSARY: a word replaced by the vendor's wherever it stands.
_REPLACE = [("你们", "您"), ("你", "您"), ("宿主机侧", "宿主机上"), ("主机侧", "Host侧"), ("设备侧", "Device侧"), ("主机网卡", "Host 网卡"),
            ("设备网卡", "NPU 网口"), ("设备网口", "NPU 网口"), ("通信组", "通信域"), ("算子二进制包", "二进制算子包"),
            ("PyNative 模式", "PyNative模式"), ("Graph 模式", "Graph模式")]


def vendor_words(text: str) -> str:
    """The off-glossary words of `text` replaced by the vendor's (显存 only where the text is not about a GPU;
    a bare 图模式 becomes 静态图模式)."""
    for wrong, right in _REPLACE:
        text = text.replace(wrong, right)
    text = re.sub(r"(?i)\bdevice ?侧", "Device侧", text)
    text = re.sub(r"(?i)\bhost ?侧", "Host侧", text)
    if not GPU_MEMORY.search(text):
        text = text.replace("NPU 显存", "NPU 设备内存").replace("设备显存", "设备内存").replace("显存", "设备内存")
    text = re.sub("(?<!静态)(?<!动态)图模式", "静态图模式", text)
    return _packages(text)


# CANN's packages by the install guide's names: 开发套件包（Toolkit）, 二进制算子包（Kernels）; the full name the first
# time a text names one, its short name after that. A path or a file name (ascend-toolkit, Ascend-cann-kernels-…)
# is not a package name and stays.
_PACKAGE = lazy_compile(r"(?<![A-Za-z0-9_/.\-<])(?<!CUDA )(toolkit|kernels)(?: ?包)?(?![A-Za-z0-9_/.\-])")
PACKAGE_NAMES = {"toolkit": ("开发套件包（Toolkit）", "Toolkit"), "kernels": ("二进制算子包（Kernels）", "Kernels")}


def _packages(text: str) -> str:
    if not has_han(text) or re.search(r"CUDA|cuDNN|cudart|NVIDIA", text):  # CUDA's toolkit is another thing
        return text
    seen = {key for key, (full, _short) in PACKAGE_NAMES.items() if full in text}

    def name(m: "re.Match[str]") -> str:
        key = m.group(1).lower()
        full, short = PACKAGE_NAMES[key]
        if key in seen or text[max(0, m.start() - 8):m.start()].endswith(("开发套件包（", "二进制算子包（")):
            seen.add(key)
            return short if m.group(0).lower().startswith(key) and not m.group(0).endswith("包") else short + " 包"
        seen.add(key)
        return full
    return _PACKAGE.sub(name, text)


def _po_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def style_po(path: str) -> int:
    """Each one-line msgstr of the .po file at `path` in the house style, edited in place (the entries keep
    their order and their msgid lines); returns how many changed."""
    import ast
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    msgid, changed = "", 0
    for i, line in enumerate(lines):
        if line.startswith('msgid "'):
            msgid = ast.literal_eval(line[6:])
        m = re.match(r'(msgstr(?:\[\d+\])?) (".*")$', line)
        if m and msgid:
            old = ast.literal_eval(m.group(2))
            new = normalize(old, command="x" if "  # " in msgid else "")
            if new != old:
                lines[i] = f"{m.group(1)} {_po_quote(new)}"
                changed += 1
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines))
    return changed


ZH_FIELDS = ("title_zh", "cause_zh", "fix_zh", "advice_zh", "source_zh")


def style_json(path: str) -> int:
    """The `*_zh` strings of a knowledge-base file in the house style, replaced in its text (its layout and
    every other field untouched); returns how many changed."""
    import json
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    found: List[str] = []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ZH_FIELDS:
                    found.extend([value] if isinstance(value, str) else [v for v in value if isinstance(v, str)])
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
    walk(json.loads(text))
    changed = 0
    for old in dict.fromkeys(found):
        new = normalize(old)
        if new != old:
            text = text.replace(json.dumps(old, ensure_ascii=False), json.dumps(new, ensure_ascii=False))
            changed += 1
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return changed


_TIMES = lazy_compile(r"(?<![\w.])[1-9]\d* ?x ?[A-Z_]")
_NO_SPACE = lazy_compile(rf"[A-Za-z]{_H}|{_H}[A-Za-z]")
_HALF_AFTER_HAN = lazy_compile(rf"{_H}[:,;(]|[(,;:]{_H}")


def problems(text: str, packages: bool = True) -> List[str]:
    """What in `text` breaks the house style: a half-width mark beside a Chinese character, an off-glossary
    word, 你, a Latin word fused to a Chinese one (CANN是), a CANN package by its bare English name (`packages`:
    off where the text shows an install kind as data, "toolkit 8.0.RC3"). Protected spans (commands,
    placeholders, URLs, quoted output) are not read."""
    out: List[str] = []
    plain = _PROTECTED.sub(" ", text)
    for m in _HALF_AFTER_HAN.finditer(plain):
        out.append(f"half-width mark beside Chinese: {plain[max(0, m.start() - 12):m.end() + 12]!r}")
    unfused = plain
    for fused in FUSED:
        unfused = unfused.replace(fused, " ")
    for m in _NO_SPACE.finditer(_TITLE.sub("“”", unfused)):
        out.append(f"no space between Chinese and a Latin word: {unfused[max(0, m.start() - 12):m.end() + 12]!r}")
    if has_han(plain) and packages:
        for m in re.finditer(r"(?<![A-Za-z0-9_/.\-<])(toolkit|kernels)(?![A-Za-z0-9_/.\-])",
                             "" if re.search(r"CUDA|cuDNN|cudart|NVIDIA", plain) else plain):
            out.append(f"{m.group(1)} -> {PACKAGE_NAMES[m.group(1)][0]}")
    if has_han(plain):
        for m in _TIMES.finditer(plain):
            out.append(f"x for ×: {m.group(0)!r}")
    for word in off_glossary(plain):
        out.append(f"{word} -> {OFF_GLOSSARY[word]}")
    return out


def off_glossary(text: str) -> List[str]:
    """The off-glossary words in `text` (each once)."""
    cleaned = re.sub(r"(?i)\b(device|host) ?侧", lambda m: m.group(1).lower() + " 侧"
                     if m.group(0) not in ("Device侧", "Host侧") else " ", GPU_MEMORY.sub("", text))
    for ok in ALLOWED_AROUND:
        cleaned = cleaned.replace(ok, " ")
    return [w for w in OFF_GLOSSARY if w in cleaned]
