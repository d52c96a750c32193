"""Terminal layout for the human-readable renderers: the width, wrapping that never breaks a path or a
command, tables, and evidence as `key: value` lines.

Lengths are display widths (`display_width`): an East Asian wide or fullwidth character (Chinese) takes two
terminal columns, any other character one. This module is the one place that measures and wraps text for a
terminal (the report, kb, explain, matrix tables).

Wrapping breaks at whitespace, inside a colon-separated path list (PATH, LD_LIBRARY_PATH) after a ':' that
is followed by '/', and in Chinese text between two wide characters or where Chinese meets a Latin word
(not before closing punctuation such as "，。）" nor after an opening one such as "（"): never at '-', inside a
path, a command or a Latin word, so what the report shows can be copied back into a shell. A word longer
than the line keeps its own (longer) line.
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from typing import Any, Iterator, List, Optional, Tuple

from ..i18n import _, get_lang, lookup
from ..zh_style import FUSED

DEFAULT_WIDTH = 80
MIN_WIDTH = 40  # a narrower terminal still gets readable (longer) lines rather than one word per line
_WORD = re.compile(r"\S+")
_PATH_LIST_BREAK = re.compile(r"(?<=:)(?=/(?!/))")  # /a:/b breaks after its ':'; https:// does not


def terminal_width(stream=None) -> int:
    """COLUMNS when it is a positive number, else the terminal's width (stdout, then stderr), else 80."""
    value = os.environ.get("COLUMNS", "").strip()
    if value.isdigit() and int(value) > 0:
        return max(MIN_WIDTH, int(value))
    for s in ((stream,) if stream is not None else (sys.stdout, sys.stderr)):
        try:
            cols = os.get_terminal_size(s.fileno()).columns
        except (AttributeError, OSError, ValueError):
            continue
        if cols > 0:
            return max(MIN_WIDTH, cols)
    return DEFAULT_WIDTH


def char_width(ch: str) -> int:
    """Terminal columns of one character: 2 for East Asian wide (W) and fullwidth (F), else 1."""
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    """Terminal columns `text` takes (a Chinese character two, see `char_width`); len() for ASCII."""
    if text.isascii():
        return len(text)
    return sum(char_width(ch) for ch in text)


def clip(text: str, columns: int) -> str:
    """`text` cut to at most `columns` terminal columns (a Chinese character takes two)."""
    if display_width(text) <= columns:
        return text
    out, used = [], 0
    for ch in text:
        used += char_width(ch)
        if used > columns:
            break
        out.append(ch)
    return "".join(out)


def has_wide(text: str) -> bool:
    """Whether `text` holds a character two columns wide (Chinese)."""
    return not text.isascii() and any(char_width(ch) == 2 for ch in text)


def pad(text: str, width: int, align: str = "<") -> str:
    """`text` padded with spaces to `width` display columns (align '<' left, '>' right)."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if align == ">" else text + fill


# Chinese has no spaces between words: a line may break between two wide characters, or where wide meets
# narrow, but never before closing punctuation nor after opening punctuation (the Chinese line-breaking rule).
NO_LINE_START = frozenset("，。；：、）》」』】！？”’,.;:)]}…%")
NO_LINE_END = frozenset("（《「『【“‘([{")


# A backticked span is a command or a name to copy whole: its spaces are held (a private-use character, one
# column wide) while a text is cut into lines, and given back in the lines.
_HOLD = "\ue0a0"
_BACKTICKED = re.compile(r"`[^`\n]*`")
_PLACEHOLDER = re.compile(r"<[^<>\s]{1,40}>")


def hold_spans(text: str) -> str:
    """`text` with the spaces inside its backticked spans held, so no line ends inside one."""
    return _BACKTICKED.sub(lambda m: m.group(0).replace(" ", _HOLD), text) if "`" in text else text


def release_spans(text: str) -> str:
    return text.replace(_HOLD, " ")


def _cjk_units(word: str) -> List[str]:
    """A whitespace-free word cut where a line may end inside it: at the edges of its wide characters (but see
    NO_LINE_START/NO_LINE_END); a run of narrow characters (a path, a command, a Latin word) and a backticked
    span stay whole, and so does a term the vendor writes fused (Host侧, Graph模式: zh_style.FUSED) and a placeholder
    without spaces (<安装路径>)."""
    units: List[str] = []
    inside = False
    fused = set()
    for term in FUSED:
        at = word.find(term)
        while at >= 0:
            fused.update(range(at + 1, at + len(term)))
            at = word.find(term, at + 1)
    for m in _PLACEHOLDER.finditer(word):  # a placeholder (<安装路径>, <$ASCEND_OPP_PATH 的上一级目录>) stays whole
        fused.update(range(m.start() + 1, m.end()))
    for i, ch in enumerate(word):
        if units and (inside or i in fused or ch in NO_LINE_START or units[-1][-1] in NO_LINE_END
                      or (char_width(ch) == 1 and char_width(units[-1][-1]) == 1)):
            units[-1] += ch
        else:
            units.append(ch)
        if ch == "`":
            inside = not inside
    return units


def _pieces(text: str) -> Iterator[Tuple[str, str]]:
    """(joiner, piece): the places a line may end. joiner is ' ' between words, '' inside a path list or
    inside Chinese text."""
    for m in _WORD.finditer(text):
        word = m.group(0)
        for i, part in enumerate([word] if "`" in word else _PATH_LIST_BREAK.split(word)):
            if has_wide(part):
                for j, unit in enumerate(_cjk_units(part)):
                    yield ("" if i or j else " "), unit
            else:
                yield ("" if i else " "), part


def wrap(text: str, width: int, indent: str = "", subsequent: Optional[str] = None,
         break_long_words: bool = False) -> List[str]:
    """Greedy fill of `text` into lines of at most `width` display columns (each line's paragraphs kept
    apart); see the module doc for where a line may end. A piece wider than a whole line keeps its own longer
    line, or with `break_long_words` is cut where the line is full (kb's signature texts)."""
    subsequent = indent if subsequent is None else subsequent
    out: List[str] = []
    for paragraph in hold_spans(str(text)).splitlines() or [""]:
        line, empty = indent, True
        used = display_width(line)
        room = width - display_width(subsequent)
        for joiner, piece in _pieces(paragraph):
            cut = break_long_words and display_width(piece) > room
            for k, part in enumerate(piece if cut else [piece]):
                glue = joiner if k == 0 else ""
                size = display_width(part)
                if empty:
                    line, empty, used = line + part, False, used + size
                elif used + len(glue) + size <= width:
                    line += glue + part
                    used += len(glue) + size
                else:
                    out.append(line)
                    line = subsequent + part
                    used = display_width(subsequent) + size
        out.append(line if not empty else indent.rstrip())
        indent = subsequent
    return [release_spans(line) for line in out]


_TOKEN_NOTE = re.compile(r"([^()（）]*[^\s()（）]) \(([^()（）]+)\)")  # "3.9.2 (/usr/bin/python3)", "mindspore-gpu 1.10.1 (gpu)"


def scalar(value: Any) -> str:
    """A value as a reader writes it, in the current language: yes/no, none, numbers and text as they are
    (never a Python repr); a fixed phrase the catalog knows ("not found") is translated."""
    if value is None:
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str):
        from ..i18n_text import token_list

        worded = lookup(value)
        if get_lang() != "zh":
            return worded
        m = _TOKEN_NOTE.fullmatch(worded)  # "3.9.2 (/usr/bin/python3)": a value and its note, as the header has them
        return f"{m.group(1)}（{m.group(2)}）" if m else token_list(worded)
    return str(value)


def label(key: Any) -> str:
    """An evidence key shown to a reader: translated (i18n.lookup; the key stays English in the JSON)."""
    return lookup(str(key))


def keyed(key: Any, value: Optional[str] = None) -> str:
    """`key: value` in the run's language ("键：值" in Chinese, a full-width colon and no space); with no value,
    the key and its colon alone."""
    if value is None:
        return _("{label}: {value}").format(label=key, value="").rstrip()
    return _("{label}: {value}").format(label=key, value=value)


def join_values(items) -> str:
    """Values joined for one line: ', ' between English ones, '，' where one is Chinese, '、' between tokens in a
    Chinese report; sentences (a value that ends with its full stop) one after the other in English, joined with
    '；' in Chinese (never '。，' or '., ')."""
    items = [str(i) for i in items]
    if any(has_wide(i) for i in items):
        if any(i.endswith("。") for i in items):
            return "；".join(i[:-1] if i.endswith("。") else i for i in items[:-1]) + \
                ("；" if len(items) > 1 else "") + items[-1]
        return "，".join(items)
    if get_lang() == "zh":  # tokens in a Chinese line: the enumeration comma, as the vendor's Chinese lists them
        return "、".join(items)
    if any(i.endswith(".") and not i.endswith("..") for i in items[:-1]):
        return " ".join(i if i.endswith(".") else i + "." for i in items[:-1]) + (" " if len(items) > 1 else "") + \
            items[-1]
    return ", ".join(items)


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list, tuple))


def evidence_value(value: Any) -> str:
    """One evidence value as text for a table cell: a scalar as `scalar`, a list of scalars joined with ', ',
    anything nested as its `evidence_lines` (one per line). Never JSON, never a repr."""
    if _is_scalar(value):
        return scalar(value)
    if not value:
        return _("none")
    if not isinstance(value, dict) and all(_is_scalar(v) for v in value):
        return join_values(scalar(v) for v in value)
    if isinstance(value, dict):
        return "\n".join("  " * d + text for d, text in evidence_lines(value))
    return "\n".join("  " * (d - 1) + text for d, text in evidence_lines({"": value})[1:])


def evidence_lines(evidence: Any, depth: int = 0) -> List[Tuple[int, str]]:
    """Evidence as (depth, "key: value") lines: nested dicts indent, lists of plain values join with ', ',
    lists of dicts become '- key: value' items. Never JSON, never a repr."""
    out: List[Tuple[int, str]] = []
    items = evidence.items() if isinstance(evidence, dict) else enumerate(evidence or [])
    for key, value in items:
        key = label(key) if isinstance(evidence, dict) else key
        if _is_scalar(value):
            out.append((depth, keyed(key, scalar(value))))
        elif not value:
            out.append((depth, keyed(key, _("none"))))
        elif isinstance(value, dict):
            out.append((depth, keyed(key)))
            out.extend(evidence_lines(value, depth + 1))
        elif all(_is_scalar(v) for v in value):
            out.append((depth, keyed(key, join_values(scalar(v) for v in value))))
        else:
            out.append((depth, keyed(key)))
            for item in value:
                if _is_scalar(item):
                    out.append((depth + 1, f"- {scalar(item)}"))
                    continue
                inner = evidence_lines(item, depth + 2) or [(depth + 2, _("none"))]
                first_depth, first = inner[0]
                out.append((depth + 1, "- " + first))
                out.extend(inner[1:])
    return out


def _longest_word(text: str) -> int:
    return max((display_width(p) for _, p in _pieces(text)), default=0)


def fit_columns(headers: List[str], rows: List[List[str]], width: int, gap: int = 2,
                header_pad: int = 2) -> List[List[str]]:
    """Rows (header first) whose cells are wrapped ('\\n' between lines) so the table fits `width` columns with
    `gap` spaces between columns (tabulate's "simple" format: 2, and each column at least its header + 2).
    Columns shrink widest-first, never below their longest word: a table of words longer than the width
    stays wider rather than split a path, a version or a URL."""
    table = [[str(c) for c in headers]] + [["" if c is None else str(c) for c in row] for row in rows]
    n = len(headers)

    def need(i: int, cell_width, header_width) -> int:
        return max([cell_width(r[i]) for r in table[1:]] + [header_width(table[0][i]) + header_pad])

    natural = [need(i, lambda c: max((display_width(x) for x in c.splitlines()), default=0),
                    lambda h: max((display_width(x) for x in h.splitlines()), default=0)) for i in range(n)]
    # A Chinese header is one word (its characters would each be a line: "接受 / 的编 / 译器"): never cut.
    floor = [need(i, _longest_word, lambda h: display_width(h) if has_wide(h) else _longest_word(h))
             for i in range(n)]
    widths = list(natural)
    room = width - gap * (n - 1)
    while sum(widths) > room:
        i = max(range(n), key=lambda k: widths[k] - floor[k])
        if widths[i] <= floor[i]:
            break
        widths[i] -= 1

    def fit(cell: str, w: int) -> str:
        return "\n".join(wrap(cell, w)) if any(display_width(x) > w for x in cell.splitlines()) else cell

    return [[fit(c, widths[i] - header_pad) for i, c in enumerate(table[0])]] + \
        [[fit(c, widths[i]) for i, c in enumerate(r)] for r in table[1:]]


def table(headers: List[str], rows: List[List[str]], gap: int = 2, header_pad: int = 2) -> str:
    """A plain-text table aligned by display width, in tabulate's "simple" layout (each column left-aligned,
    at least its header + `header_pad` wide, a dashed rule under the header, `gap` spaces between columns);
    a cell may hold several lines ('\n'). Give it the rows `fit_columns` made to fit a width."""
    grid = [[str(c).strip() for c in headers]] + [["" if c is None else str(c).strip() for c in row] for row in rows]
    n = len(headers)
    widths = [max([display_width(x) for r in grid[1:] for x in r[i].splitlines()]
                  + [display_width(x) + header_pad for x in grid[0][i].splitlines()] + [header_pad])
              for i in range(n)]
    sep = " " * gap
    multiline = any("\n" in c for r in grid for c in r)  # tabulate's rule: then an all-empty row has no line

    def lines_of(row: List[str]) -> List[str]:
        cells = [c.splitlines() if multiline else [c] for c in row]
        height = max(len(c) for c in cells)
        return [sep.join(pad(c[k] if k < len(c) else "", widths[i]) for i, c in enumerate(cells)).rstrip()
                for k in range(height)]

    out = lines_of(grid[0]) + [sep.join("-" * w for w in widths)]
    for row in grid[1:]:
        out.extend(lines_of(row))
    return "\n".join(out)


_STEP = re.compile(r"\s*(?:\d+\.|-|fix:)\s")


def fit_lines(lines: List[str], width: int, keep=None) -> List[str]:
    """Each line to `width` by `wrap` (spaces only), its continuation indented under its text (under a list
    marker's text for `1. `, `- `, `fix: `); a line for which keep(line) is true stays whole (a quoted log
    line, a command to paste), and so does one carrying terminal colour codes."""
    out: List[str] = []
    for line in lines:
        if display_width(line) <= width or "\033[" in line or (keep is not None and keep(line)):
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip())]
        step = _STEP.match(line)
        more = " " * (step.end() if step else len(lead) + 2)
        out.extend(wrap(line.strip(), width, indent=lead, subsequent=more))
    return out
