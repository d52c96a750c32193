"""Find English a Chinese report should not have.

A zh report may keep in English: commands (a fix step's command part, `backticked` text), quoted log
text ("..." as the software prints it), paths, URLs, versions, identifiers (check ids, variables,
options), what the machine itself said (any word of the snapshot's files: OS names, package names,
command output), and the product and technical names the glossary keeps (docs/glossary.md: CANN,
HCCL, MindSpore, npu-smi ...). Any other English word is a leftover: a message that was not marked for
translation or has no Chinese.
"""

import os
import re

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")
WORD = re.compile(r"[A-Za-z]+(?:['’][a-z]+)?")
# Spans that stay as written: `code`, "quoted log text", “quoted”, URLs, <placeholders>.
SPANS = re.compile(r"`[^`]*`|\"[^\"]*\"|“[^”]*”|'[^'\s][^']*'|https?://\S+|<[^<>\s]+>")
# A token that is a path, file, option, variable, version or id (it carries / . _ = $ @ - : or a digit inside).
TECH_TOKEN = re.compile(r"[^\s\u3400-\u9fff\uff00-\uffef\u3000-\u303f]*[/._=$@\d:-][^\s\u3400-\u9fff\uff00-\uffef\u3000-\u303f]*")

# Names Chinese Ascend documentation keeps in English (docs/glossary.md), and units.
KEEP = set("""
Ascend Atlas CANN HCCL HCCS HCCP HDK HBM NPU NPUs GPU GPUs CPU CPUs CUDA cuDNN NCCL NVIDIA MindSpore MindX MindIE
PyTorch torch TensorFlow Python CPython PyPI pip pip3 conda venv virtualenv docker Docker Kubernetes Slurm MPI OpenMPI
Open JSON HTML YAML JUnit Prometheus RoCE PCIe DDR ECC AI Core AICPU AICore OPP TBE TIK GE ACL ATC DVPP ACLNN
Linux Ubuntu Debian CentOS EulerOS openEuler Kylin OS glibc GCC gcc libc dmesg
GRAPH_MODE PYNATIVE_MODE PyNative KernelByKernel msrun mpirun torchrun srun sbatch ssh bash shell root
toolkit Toolkit Kernels Graph Host Device nnae nnrt opp opp_kernel latest rank ranktable rank_table server_id device_id
ascend doctor npu smi nvidia nvcc ccec atc te hccn hccn_tool BMC LCNE IP IPv IPv4 IPv6 TLS SSH NFS
MB GB GiB MiB KB KiB TB ms s min
""".split())


# Terms of more than one word the glossary keeps in English in Chinese text, and product names of more than one
# word (a product's name stays as it is: docs/glossary.md).
KEEP_PHRASES = re.compile(r"\brank table\b|\bAscend Transformer Boost\b|\bAscend Extension for PyTorch\b|"
                          r"\bMooncake(?: 的)? Transfer Engine\b|\bHugging Face\b")


def data_words(snapshot_dir):
    """Every word the machine's own files say (manifest, env, command output, files)."""
    words = set()
    for d, _, files in os.walk(snapshot_dir):
        for f in files:
            try:
                with open(os.path.join(d, f), encoding="utf-8", errors="replace") as fh:
                    words.update(WORD.findall(fh.read(2_000_000)))
            except OSError:
                pass
    return words


def command_part(step):
    """The command of a fix step: what comes before "  # " (the comment), the whole step when it has no
    Chinese (a bare command); empty for a sentence."""
    if "  # " in step:
        return step.split("  # ", 1)[0]
    return "" if CJK.search(step) else step


# A 'quoted' span the text renderer wrapped over two lines (its quote opens after a non-letter, closes before one).
WRAPPED_QUOTE = re.compile(r"(?<![A-Za-z])'[^'\s][^'\n]*\n(?P<indent>[ \t]*)[^'\n]*?'(?![A-Za-z])")


def leftovers(text, allowed=frozenset()):
    """English words of `text` that are not allowed (see the module doc)."""
    found = []
    text = WRAPPED_QUOTE.sub(" \n", text)
    for line in text.splitlines():
        line = SPANS.sub(" ", line)
        line = KEEP_PHRASES.sub(" ", line)
        line = TECH_TOKEN.sub(" ", line)
        for w in WORD.findall(line):
            if w in KEEP or w in allowed or w.upper() == w and len(w) > 1:
                continue
            found.append(w)
    return found


def source_words():
    """Words of the compatibility matrix's sources (document titles, notes, URLs): citations stay as published."""
    import json

    here = os.path.dirname(os.path.abspath(__file__))
    while not os.path.exists(os.path.join(here, "data", "compat_matrix.json")):
        here = os.path.dirname(here)
    with open(os.path.join(here, "data", "compat_matrix.json"), encoding="utf-8") as fh:
        sources = json.load(fh).get("sources", {})
    return set(WORD.findall(json.dumps(sources, ensure_ascii=False)))


def allowed_words(report, snapshot_dir=None):
    """Words a zh report may keep: the snapshot's data, the matrix's source citations and the command parts
    of its fixes, of their labelled alternatives (whose label is read from the command part: "or stay on
    Python 3.12: pip ...") and of the plan's steps."""
    words = set(data_words(snapshot_dir)) if snapshot_dir else set()
    words |= source_words()
    steps = [s for f in report.findings for s in f.fix]
    steps += [s for f in report.findings for a in f.alternatives for s in a.get("steps") or []]
    steps += [a.get("why") or "" for f in report.findings for a in f.alternatives
              if (a.get("why") or "").isascii()]
    steps += [s.do for s in report.node_plan().steps]
    for step in steps:
        if isinstance(step, str):
            words.update(WORD.findall(command_part(step)))
    return words


# ---- the offenders of a Chinese output (issue 27 item 6): English prose, half-width marks, split tokens ----

# A line (after its step number and plan tag) that is a shell command as a whole: pasted, not read.
COMMAND_LINE = re.compile(r"^\s*(?:\d+\.\s+)?(?:\[[^\]]*\]\s+)?(?:sudo\s+)?(?:pip3?|conda|export|source|unset|cat|ls|"
                          r"grep|npu-smi|hccn_tool|ascend-doctor|python3?|echo|ulimit|sysctl|ln|chmod|chown|mkdir|rm|"
                          r"cp|mv|systemctl|modprobe|rmmod|nvidia-smi|ip|ping|df|free|env|readlink|which|bash|sh|cd|tar|"
                          r"msrun|mpirun|dmesg|find|ldd|lspci|head|tail|mount|ldconfig|apt|yum|dnf|reboot)(?:-[\w-]+|[\d.]+)?(?:\s|$)|"
                          r"^\s*(?:\d+\.\s+)?(?:\[[^\]]*\]\s+)?(?:sudo\s+)?\.?/\S*(?:\s|$)|"
                          r"^\s*(?:\d+\.\s+)?(?:from [\w.]+ import |[A-Za-z_]\w* = )")  # Python code: a step too
# A “quoted” span the text renderer wrapped over two lines (what MindSpore prints, quoted in a sentence).
WRAPPED_CQUOTE = re.compile(r"“[^“”\n]*\n(?P<indent>[ \t]*)[^“”\n]*”")


def unwrap_quotes(text):
    """`text` with each quote the renderer wrapped over two lines replaced by an empty `` span, the second line
    keeping its indentation (a wrapped quote inside an indented block, a source or a match rule, stays inside that
    block). A "double quote" wraps where a line holds an odd number of them: its last one opens the quote that the
    next line's first one closes (so `"a" + "b` / `c"` pairs as written, not the closing quote of "a" with "b)."""
    def blank(m):
        return "``\n" + m.group("indent")
    lines = WRAPPED_CQUOTE.sub(blank, WRAPPED_QUOTE.sub(blank, text)).split("\n")
    for i in range(len(lines) - 1):
        line, nxt = lines[i], lines[i + 1]
        if line.count('"') % 2 and '"' in nxt:
            lines[i] = line[:line.rfind('"')] + "``"
            lines[i + 1] = nxt[:len(nxt) - len(nxt.lstrip())] + nxt[nxt.index('"') + 1:]
    return "\n".join(lines)


# What a Chinese output quotes as written: a log line (> ...), a match rule, an example line, a source (the vendor's
# document titles as published); each with the lines indented under it.
QUOTED_BLOCKS = (">", "匹配规则：", "示例：", "出处：")
# Two or more English words in a row (a blank or a comma between): words of a sentence, not a name.
PROSE_RUN = re.compile(r"\b[A-Za-z][a-z']*(?:(?:,? +|[ ·]*·[ ·]*)[A-Za-z][a-z']*)+\b")  # a kept name (·) between too


def prose_lines(text: str):
    """The lines of an output a reader reads as prose: quoted blocks (QUOTED_BLOCKS: a log line, a match rule, an
    example, a source's title, and the lines indented under them) left out, and the log's own text after an error
    line's place ("file.log:5：<the line>")."""
    quoted = None  # the indentation of a quoted block
    for line in unwrap_quotes(text).splitlines():
        indent = len(line) - len(line.lstrip())
        if quoted is not None and indent > quoted and line.strip():
            continue
        quoted = indent if line.strip().startswith(QUOTED_BLOCKS) else None
        if quoted is None:
            place = LOG_PLACE.match(line)  # an error line listed at its place: the log's own text after the place
            yield place.group(1) if place else line


# "file.log:5：<the log line as written>" (triage's unexplained error lines, in Chinese after a full-width colon)
LOG_PLACE = re.compile(r"^(\s*\S+?:\d+(?:（×\d+）)?：)")


def zh_offenders(text, allowed=frozenset()):
    """What in a Chinese output a support engineer would have to edit: ("prose", words) for English prose outside
    commands, paths, ids, `code`, "quoted" machine text and the glossary's English names (and `allowed`: the
    machine's own words); ("style", problem) for a half-width mark after Chinese, 你 or an off-glossary word
    (ascend_doctor.zh_style.problems). A command line is not read, only its comment ("cmd   # why"); a step that is
    a sentence ("install CANN 9.0.0 ...") is read whole."""
    from ascend_doctor import zh_style

    out = []
    for line in prose_lines(text):
        if COMMAND_LINE.match(line):
            if "   # " not in line:
                continue
            line = line.split("   # ", 1)[1]  # a command's comment is read; a sentence before a comment is read too
        out += [("style", p) for p in zh_style.problems(line, packages=False)]
        plain = KEEP_PHRASES.sub(" ", TECH_TOKEN.sub(" ", SPANS.sub(" ", line)))
        plain = re.sub(r"[A-Za-z][A-Za-z']*", lambda m: "·" if (m.group(0) in KEEP or m.group(0) in allowed or (
            m.group(0).isupper() and len(m.group(0)) > 1)) else m.group(0), plain)
        out += [("prose", m.group(0)) for m in PROSE_RUN.finditer(plain)]
    return out


# Word-for-word renderings a Chinese reviewer sent back (issue 27, review 2): each has the vendor's wording now.
CALQUES = ("最后一个报告者", "也请看一下", "列出设备", "列出的设备", "提到它的特征", "设备/rank/文件", "没有日志给出",
           "未知设备", "| 或 |", "# 查看：",
           "试试", "计划未能解决", "没有来源给出")  # review 3 (R5, R8)
# a full-width pair holding a half-width one: "（worker-1 device-6 (rank 6)）"
NESTED_BRACKETS = re.compile(r"（[^（）\n]* \([^()\n]*\)[^（）\n]*）")
# a Latin ", " joining the items of a list in a Chinese sentence ("之后是 worker-1 device-5, worker-1 device-4")
LATIN_LIST = re.compile(r"[\u4e00-\u9fff：][^()\u4e00-\u9fff]*?[\w.-], (?=[\w(])")
# an English placeholder of more than one word ("<smaller MB>", "<peer device ip>")
ENGLISH_PLACEHOLDER = re.compile(r"<[A-Za-z][^<>\"\n]*?[a-z]{2,} [a-z][^<>\"\n]*>")


# a device's hardware event ids labelled as ascend-fd's fault codes (the maintenance guide says 事件 ID; review 3 R9)
EVENT_ID_AS_FD = re.compile(r"ascend-fd 故障码：\s*0x[0-9A-Fa-f]+(?:、0x[0-9A-Fa-f]+)*\s*$")
# a matrix source as its record writes it, in a Chinese sentence: a repository file at a commit, an English section
# title ("mindspore-lab/mindformers:README.md (section "Version Matching"/…)@1a72d558"; review 3 R2)
RAW_SOURCE = re.compile(r"[\w.-]+/[\w.-]+:\S+?(?:@[0-9a-f]{8}\b| \(section \")")
# a placeholder for a word (not an id) left in English, in a command or a sentence: a Chinese report writes <版本>,
# <架构>, <芯片型号>, <安装路径>, <目录>, <秒> (review 3 R3; docs/i18n.md)
WORD_PLACEHOLDER = re.compile(r"(?<!:)<(?:release|version|ver|arch|soc|install|dir|s|seconds)>(?!\])")  # not in a format [<build>:<release>]
# a numbered step (a fix or plan step, after its tag): "2. 如果该文件已损坏，请重新安装驱动包：./Ascend-hdk-….run" glues a
# sentence before the command, which cannot be pasted (review 3 R1); the command comes first, the why in its comment
NUMBERED_STEP = re.compile(r"^\s*\d+\.\s+(?:\[[^\]]*\]\s+)?(.*)$")
# a label's value that has a label of its own before what to do: "计划未能解决：…仍然未知（…）：请按…" (review 3 R5)
DOUBLE_COLON = re.compile(r"[\u4e00-\u9fff）]：[^：`\"“”\n]*[\u4e00-\u9fff）]：请")
# half-width residue of a Chinese output (review 3 R7): " (×3): " after a quoted line's place, " (/usr/…)" after a version
HALF_COUNT = re.compile(r" \(×\d+\): ")
HALF_PATH = re.compile(r"(?<=[\w.]) \(/[^()\s]*\)")
# What a 出处 must not hold in either language (review 3, #16, N1): the project's research notes, a commit hash in a
# repository citation, the project's own reasoning instead of a citation.
INTERNAL_SOURCE = re.compile(r"(?:ascend_formats|error_signatures|compat_facts|pitfalls)\.md|[\w.-]+/[\w.-]+@[0-9a-f]{7,40}"
                             r"|judgement of ascend-doctor")
# four English words in a row in a Chinese 出处 (outside `code`, quotes, URLs and paths): a sentence left in English
SOURCE_PROSE = re.compile(r"\b[A-Za-z][a-z']+(?:,? [A-Za-z][a-z']+){3,}\b")


def source_blocks(text):
    """Each 出处/Source paragraph of an output (its first line and the lines indented under it), joined."""
    out, block, indent = [], None, 0
    for line in unwrap_quotes(text).splitlines():
        body = line.strip()
        if block is not None and line.strip() and len(line) - len(line.lstrip()) > indent:
            block.append(body)
            continue
        if block is not None:
            out.append(" ".join(block))
            block = None
        if body.startswith(("出处：", "Source:", "Where it comes from:")):
            block, indent = [body], len(line) - len(line.lstrip())
    if block is not None:
        out.append(" ".join(block))
    return out


def source_defects(text, chinese=True):
    """("internal source", what) for research notes, a commit hash or the project's own judgement in a 出处 (either
    language); in a Chinese output also ("english source", words) for a 出处 written as an English sentence."""
    out = []
    for block in source_blocks(text):
        out += [("internal source", m.group(0)) for m in INTERNAL_SOURCE.finditer(block)]
        if chinese:
            # an apostrophe (runtime's) opens no quote; a URL or a path ends at full-width punctuation (a path glued to the
            # "：“" before a quoted message would eat the quote's opening mark and leave its words as prose)
            plain = re.sub(r"`[^`]*`|\"[^\"]*\"|“[^”]*”|(?<![A-Za-z])'[^'\s][^']*'(?![A-Za-z])|https?://[^\s“”（）：，、；]+|"
                           r"[^\s“”（）：，、]*/[^\s“”（）：，、]*", " ", block)
            out += [("english source", m.group(0)) for m in SOURCE_PROSE.finditer(plain)]
    return out


def zh_review_defects(text, rule_names=()):
    """The kinds of defect the second Chinese review found in what the code (not the knowledge base) writes:
    ("calque", word) for a word-for-word rendering the reviewer rewrote (CALQUES); ("rule name", id) for one of
    the root-cause rules' English ids (`rule_names`) left in a Chinese line; ("nested brackets", text) for a
    half-width pair inside a full-width one; ("latin comma", text) for items of a Chinese list joined with ', ';
    ("placeholder", text) for an English placeholder of several words in a sentence; ("event id as fault code", line)
    for device event ids labelled as ascend-fd's codes; ("raw source", text) for a source record's repo:path@commit;
    ("english placeholder", text) for a placeholder of a word left in English, in a command too; ("prose before
    command", step) for a numbered step that is a Chinese sentence ending in a command (fix_script.command_tail);
    ("double colon", text) for "label：… ：请…"; ("half-width", text) for " (×3): " and " (/path)";
    the 出处 defects of source_defects. Log lines, match rules,
    examples and source titles (QUOTED_BLOCKS) are machine text and not read; `code`, "quotes" and URLs are not
    read for brackets, commas and placeholders."""
    from ascend_doctor import fix_script

    out = []
    for line in prose_lines(text):
        out += [("calque", c) for c in CALQUES if c in line]
        out += [("event id as fault code", m.group(0)) for m in EVENT_ID_AS_FD.finditer(line)]
        out += [("raw source", m.group(0)) for m in RAW_SOURCE.finditer(line)]
        out += [("english placeholder", m.group(0)) for m in WORD_PLACEHOLDER.finditer(line)]
        out += [("double colon", m.group(0)) for m in DOUBLE_COLON.finditer(line)]
        step = NUMBERED_STEP.match(line)
        tail = step and fix_script.command_tail(step.group(1).split("   # ", 1)[0])
        if tail and CJK.search(tail[0]):
            out.append(("prose before command", step.group(1)))
        out += [("rule name", r) for r in rule_names if re.search(rf"(?<![\w/]){re.escape(r)}(?![\w/])", line)]
        out += [("half-width", m.group(0)) for m in HALF_COUNT.finditer(line)]
        if not CJK.search(line):
            continue
        out += [("half-width", m.group(0)) for m in HALF_PATH.finditer(line)]
        body = re.sub(r"`[^`]*`|\"[^\"]*\"|“[^”]*”|'[^'\s][^']*'|https?://\S+", " ", line)
        body = re.sub(r"[\[(][\w.]+, [\w.]+[)\]]", " ", body)  # a range written as an interval: [7.0.0, 8.0)
        if COMMAND_LINE.match(line):
            body = body.split("   # ", 1)[1] if "   # " in body else ""
        out += [("nested brackets", m.group(0)) for m in NESTED_BRACKETS.finditer(body)]
        out += [("latin comma", m.group(0)) for m in LATIN_LIST.finditer(body)]
        out += [("placeholder", m.group(0)) for m in ENGLISH_PLACEHOLDER.finditer(body)]
    return out + source_defects(text)
