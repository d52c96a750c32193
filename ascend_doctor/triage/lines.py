"""A log line as triage keeps and shows it (its time; its text cut and redacted) and the error-looking lines no
signature explains (`Unexplained`: each distinct one once, at its first place, with its count).

A traceback is one error, not one per line (`Fold`): printed through a logger (vLLM's `(Worker pid=1) ERROR ...
[core.py:720] `), each of its lines carries the logger's ERROR level, yet only its exception line says what happened;
its header, frames, source lines and caret markers, and the exception message's next lines, fold into that one entry
(the place of the traceback's first line and how many frames it folded beside it). `error_units` is the same
decision over a whole text, for scripts/measure_corpus.py."""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from ..lazyre import lazy_compile
from .match.source import (BLANK, BODY, CARET, CHAIN, EXCEPTION, FRAME, HEADER, MESSAGE, SOURCE, line_shape,
                           looks_like_code, split_prefix)
from .result import InputInfo

SHOW_LINE_CHARS = 400  # the "most telling line" is cut to this in reports
# Timestamps in CANN / MindSpore (2024-07-12-10:21:33.512.118) and ISO-like forms.
_TS = re.compile(rb"(\d{4})-(\d\d)-(\d\d)[- T](\d\d):(\d\d):(\d\d)(?:[.,](\d{1,6}))?")
# An error-looking line (issue 21: none is dropped): an ERROR/FATAL/CRITICAL level (`[ERROR]`, `- ERROR -`, glog
# `E0712 10:21:33` and with its year `E20250310 11:02:03` (Vision SDK's MxBase), ONNX Runtime's `[E:onnxruntime:`, torch's c10 header `[rank1]:[E324 13:00:25.428 ...]`), a Python `...Error:`/`...Exception:` (a
# traceback's tail), a CANN error report (`EZ9999: ...`), a crash (`Segmentation fault`, `core dumped`, `Killed`).
# The tools a node is deployed and run with print their errors in forms of their own: Ansible's task report
# (`fatal: [host]: FAILED! => {...}`, `host | UNREACHABLE! => ...`; ascend-deployer, MEF's installers), klog behind a
# journald prefix (`... kubelet[12]: E1205 10:00:00.000000 ...`), logrus (`level=error msg=...`, `"level":"fatal"`,
# `ERRO[0000] ...`; dockerd, containerd, the MindX components), the Docker client (`Error response from daemon: ...`),
# kubectl (`Error from server (Forbidden): ...`), apt's error level (`E: Unable to locate package ...`) and curl's
# coded errors (`curl: (6) Could not resolve host: ...`); and the tools around an NPU job that print no level:
# MPI's `Fatal error in MPI_Init: ...` (MPICH), llama.cpp's `llama_model_load: error loading model: ...`, hccn_tool's
# `Cmd execute failed!`, a shell's `<cmd>: command not found`, GNU make's
# `make: *** [...] Error 2`; compilers' and build tools' diagnostics (`file.cpp:12:5: error: ...`, `error: no member
# named ...`, `CMake Error at ...`, ninja's `FAILED: target`, git's `fatal: ...`), and a process that aborts without an
# error word of its own (`prog: file.c:164: func: Assertion `0' failed.`, `terminate called after throwing ...`,
# `double free or corruption (!prev)`, `*** stack smashing detected ***`, `Fatal Python error: Aborted`,
# Go's `panic: ...`, a shell's `Aborted (core dumped)`), and a non-zero error code said in words (`error code is 574007`).
# Scanned with the signatures (one pass): a line it holds that no signature explains is listed in
# `unexplained_errors`.
ERROR_LINE = (r"\[(?:ERROR|FATAL|CRITICAL|E)\]|\b(?:ERROR|FATAL|CRITICAL)\b|^\s*[EF](?:\d{4}|\d{8}) \d\d:\d\d:\d\d|"
              r"\[[EF]:onnxruntime:|"
              r"\[[EF]\d{3,4} \d\d:\d\d:\d\d|"
              r"(?:Error|Exception)(?::|$)|^\s*E[A-Z0-9]\d{4}: |Segmentation fault|core dumped|\bKilled\b|"
              r"^\s*fatal: \[|\]: (?:FAILED|UNREACHABLE)! =>| \| (?:FAILED|UNREACHABLE)!|\]: [EF]\d{4} \d\d:\d\d:\d\d|"
              r"\blevel=(?:error|fatal|panic)\b|\"level\":\"(?:error|fatal|panic)\"|^(?:ERRO|FATA|PANI)\[\d{4}|"
              r"Error response from daemon: |^Error from server\b|^E: \S|^curl: \(\d{1,3}\) |"
              r"\bFatal error in [A-Za-z_]\w*: |: command not found\s*$|: unbound variable\s*$|"
              # dash (Debian's /bin/sh) reports as `<script>: <line>: <message>` (bash: `line N:`)
              r"^[^\s:]+: \d+: (?:Syntax error: |Bad substitution\s*$|[^\s:]+: not found\s*$)|"
              # tools that print a failure with no level: llama.cpp's model loader, hccn_tool
              r"\berror loading model: |^\s*Cmd execute failed!|"
              r"\bmake(?:\[\d+\])?: \*\*\* |"
              # compilers and build tools (gcc/clang/bisheng/ccec, Go's runtime, rustc; CMake; ninja), git
              r"^(?:[^\s:]+:\d+:(?:\d+:)? )?(?:fatal )?error(?:\[E\d{4}\])?: [A-Za-z'\"`(]|^\s*CMake Error\b|"
              r"^FAILED: \S|^fatal: [A-Za-z']|"
              # a command line refused by Python's argparse (`msrun: error: argument --bind_core: ...`, torchrun's)
              r"^[\w.-]{1,40}: error: [A-Za-z'\"`(]|"
              # a process that aborts: glibc's assert(), the C++ runtime's terminate, glibc's heap and stack checks,
              # the interpreter's fatal error, Go's panic, a shell's report of SIGABRT
              r": Assertion [`'][^\n]{0,400}' failed\.|^terminate called (?:after throwing|without an active|recursively)|"
              r"^(?:double free or corruption|free\(\): invalid|malloc\(\): |munmap_chunk\(\): invalid|"
              r"corrupted size vs\. prev_size)|\*\*\* (?:stack smashing|buffer overflow) detected \*\*\*|"
              r"Fatal Python error: |^panic: |^\s*Aborted(?: \(core dumped\))?\s*$|"
              # a non-zero error code said in words, with no level (`Stress detect error. Error code is 574007.`)
              r"\b[Ee]rror[ _]?[Cc]ode(?: is)?\s*[=:]?\s*(?:-?[1-9]|0x0*[1-9A-Fa-f])")
# ...unless the line says it is of another level (an INFO line that mentions `lastError:`)
_OTHER_LEVEL = re.compile(rb"\s*(?:\[(?:INFO|DEBUG|TRACE|EVENT|WARNING|WARN)\]|[IWD]\d{4} \d\d:|"
                          rb"(?:\[rank\d+\]:)?\[[IWD]\d{3,4} \d\d:)")
_ERROR_RX = lazy_compile(ERROR_LINE.encode("ascii"))  # compiled where a line first needs it (~4 ms)
_EMPTY_MESSAGE = re.compile(rb"[\w.]+:\s*$")  # an exception's name and nothing after (Fold._under_empty_message)
UNEXPLAINED_KEEP = 50  # distinct unexplained error lines listed (JSON; the text shows the first 20)
_UNEXPLAINED_DISTINCT = 5000  # distinct lines remembered at most (the count goes on)
_VARYING = re.compile(rb"[0-9A-Fa-fx]*[0-9][0-9A-Fa-fx]*")  # numbers, hex ids and addresses: left out of the dedup key


def _timestamp(line: bytes) -> Optional[str]:
    m = _TS.search(line)
    if not m:
        return None
    y, mo, d, h, mi, s, frac = m.groups()
    return (b"%s-%s-%s %s:%s:%s.%s" % (y, mo, d, h, mi, s, (frac or b"0")[:3].ljust(3, b"0"))).decode()


def _text(line: bytes, sig=None) -> str:
    """A line as reports keep it: decoded and cut to SHOW_LINE_CHARS. With `sig` (the entry that matched it), a long
    line whose match lies past the cut is cut around the match instead (a MindSpore `[ERROR] MD(...)` line that quotes
    the pipeline's message 300 characters in), so the line shown holds what the entry read and the values its title
    says (Signature.values reads the line as shown)."""
    text = line.decode("utf-8", errors="replace").rstrip("\r")
    if len(text) <= SHOW_LINE_CHARS:
        return text
    span = sig.span(text) if sig is not None else None
    if span is None or span[1] <= SHOW_LINE_CHARS:
        return text[:SHOW_LINE_CHARS] + " …"
    start = max(0, min(span[0] - SHOW_LINE_CHARS // 8, len(text) - SHOW_LINE_CHARS))
    gap = text.find(" ", start, span[0] + 1)  # start at a word (a `key=value` secret is not cut in two: redact)
    start = gap + 1 if gap >= 0 else start
    end = start + SHOW_LINE_CHARS
    return ("… " if start else "") + text[start:end] + (" …" if end < len(text) else "")


_redactor = None


def _forget_redactor() -> None:
    """A new triage redacts with the environment it runs in (an in-process caller may run several, each with its
    own secrets): the redactor is made again on its first use."""
    global _redactor
    _redactor = None


def _shown(text: str) -> str:
    """A log line as the result shows it: secrets scrubbed (logs carry tokens, passwords, URL
    credentials, and the values of this process's secret variables). Called only for the lines
    kept for display, not for every match: the redactor runs a dozen patterns."""
    global _redactor
    if _redactor is None:
        import os

        from ..redact import Redactor

        _redactor = Redactor(env=os.environ)
    return _redactor.text(text)


def error_key(line: bytes) -> bytes:
    """What makes two unexplained lines the same (numbers, hex ids and addresses aside), as a digest."""
    return blake2b(_VARYING.sub(b"", line[:300]), digest_size=12).digest()


def blake2b(data: bytes, digest_size: int):
    """hashlib.blake2b without importing hashlib, which loads OpenSSL (~6 ms of every triage's and node summary's
    start-up, a twentieth of a 25 MB node's whole run)."""
    try:
        from _blake2 import blake2b as made  # type: ignore[import]
    except ImportError:  # pragma: no cover - an interpreter built without it
        from hashlib import blake2b as made
    return made(data, digest_size=digest_size)


def is_error_line(line: bytes) -> bool:
    """Whether a line (bytes) is error-looking as triage's scan decides it (ERROR_LINE, not another level's line):
    the lines `Fold` is fed."""
    return _ERROR_RX.search(line) is not None and _OTHER_LEVEL.match(line) is None


# A line its writer logged below the error level: the level leads the line, after a timestamp, a rank prefix or a
# logger's name at most. CANN and MindSpore's `[INFO]`/`[WARNING]` headers, glog's `I1206 10:21:33` / `W1206 ...`,
# Python logging's `INFO:root:` and `... - INFO - ...`, vLLM's `INFO 12-06 10:21:33`, structured `level=info`.
_BELOW_ERROR_LEVEL = lazy_compile(
    r"^\s*(?:\[?\d{4}-\d\d-\d\d[ T][\d:.,]+\]?\s*(?:-\s*)?)?(?:\[rank\d+\]:)?(?:[\w.]{1,60}\s+-\s+)?"
    r"(?:\[(?i:INFO|DEBUG|TRACE|EVENT|NOTICE|WARNING|WARN)\]|\[[IDW]\]|(?:INFO|DEBUG|TRACE|WARNING|WARN)(?:[: ]| - )|"
    r"(?:Info|Debug|Warning):|\[?[IWD]\d{3,4} \d\d:\d\d)|\blevel=(?i:info|debug|trace|warn(?:ing)?)\b|"
    r"\"level\":\s*\"(?i:info|debug|trace|warn(?:ing)?)\"")


def logged_below_error(line: str) -> bool:
    """Whether a line (str) says it was logged at a level below error (INFO, DEBUG, TRACE, WARNING): its writer did
    not report a failure there, whatever numbers the line holds (`[INFO] HCCL(507010,python)... errno=113 retry 3`)."""
    return _BELOW_ERROR_LEVEL.search(line) is not None


def is_error_report(line: str) -> bool:
    """Whether a line (str) is marked as an error report: an error-looking line (is_error_line), or one holding an
    error code. A vendor's sentence quoted on its own (a docs page, a lower-level line) is not."""
    from .match.codes import ERROR_CODE_MARK  # (codes.py decides what an error code is; imported where first needed)

    return is_error_line(line.encode("utf-8", "surrogateescape")) or ERROR_CODE_MARK.search(line) is not None


# A unit of the report: (line number, text, traceback, explained). `traceback`: None for a line that stands alone,
# else (its first line's number, frames, lines it stands for, whether it ends with its exception line).
Unit = Tuple[int, bytes, Optional[Tuple[int, int, int, bool]], bool]


class _Held:
    """An exception line outside a traceback, kept back one step so an explained line of its message under it
    (Fold.follows) can explain it: who wrote it, where, its text, whether it is explained, the line its message
    reached."""

    __slots__ = ("who", "line_no", "text", "explained", "reached")

    def __init__(self, who: bytes, line_no: int, text: bytes):
        self.who, self.line_no, self.text = who, line_no, text
        self.explained, self.reached = False, line_no


class _Traceback:
    __slots__ = ("first", "frames", "lines", "frame", "last", "phase", "tail", "explained", "seen")

    def __init__(self, line_no: int, line: bytes, phase: str):
        self.first, self.frames, self.lines, self.seen = line_no, 0, 1, line_no
        self.frame: Optional[Tuple[int, bytes]] = None  # the last frame line
        self.last = (line_no, line)  # the last line of its frames
        self.phase = phase  # "head" (its header), "frame" (right under a frame), "source", "tail" (its exception)
        self.tail: Optional[Tuple[int, bytes]] = None
        self.explained = False

    def unit(self) -> Unit:
        if self.tail is not None:
            return self.tail[0], self.tail[1], (self.first, self.frames, self.lines, True), self.explained
        n, text = self.frame or self.last
        return n, text, (self.first, self.frames, self.lines, False), False


_OPEN_MAX = 256  # writers with a traceback open at once (a log of many processes: the oldest closes first)
# lines between two lines of one traceback at most (other writers' lines between them, a plain traceback's frames
# that are no error lines): a line further down starts afresh, the traceback above is closed (listed, not dropped)
_GAP = 200


class Fold:
    """What each error-looking line of one input is to the report (issue 21): a unit of its own (a message, an
    exception line outside a traceback) or a line of a traceback, which is one unit: its exception line (its tail),
    or, where the log stops before the tail (or a new traceback starts), its last frame, marked as a traceback
    without its exception.

    A line is told by its shape once a logger's prefix is taken off (match.source.line_shape) and by its place among
    the lines the same writer (the prefix's process and source place) printed: a header or a frame opens a traceback;
    a source line or caret marker under a frame (or, at a log's first lines, before any) belongs to it; the line
    right under a frame is that frame's source line whatever its indent; an exception-shaped line ends it; the
    indented lines after the exception line are the exception's message (unless one is error-looking on its own: then
    it is a unit); a blank line, a chain line (`The above exception ...`) or any other line of that writer after the
    exception closes it. Lines of other writers in between (another process's `[ERROR]` line) are units of their own
    and leave the traceback open, up to _GAP lines. A line that is neither in a traceback is a unit, as it was
    before."""

    __slots__ = ("open", "held")

    def __init__(self):
        self.open: Dict[bytes, _Traceback] = {}
        self.held: Optional[_Held] = None

    def pending(self) -> bool:
        """Whether a traceback or an exception line is open, so a next line could continue its message (follows)."""
        return bool(self.open) or self.held is not None

    def follows(self, line_no: int, line: bytes, shape: Optional[Tuple[bytes, str]] = None) -> bool:
        """A line a signature explains that is not error-looking: whether it is the next line of an exception's
        message (indented, by the same writer, right under the exception line or under a line already found its
        message's: torch's `RuntimeError: Error(s) in loading state_dict for Net:` and its tab-indented `Missing
        key(s) in state_dict: ...`). Then what the signature says explains that exception: its unit is explained,
        and the line is part of an error report, not an ordinary line. Lines between that no signature names are
        not seen here, so a line further down is not taken for the message's."""
        if not self.pending():
            return False
        who, kind = shape or line_shape(line)
        if kind != BODY and not (kind == MESSAGE and self._under_empty_message(who, line_no)):
            return False
        tb = self.open.get(who)
        if tb is not None and tb.phase == "tail" and line_no == tb.seen + 1:
            tb.seen, tb.explained = line_no, True
            tb.lines += 1
            return True
        held = self.held
        if held is not None and held.who == who and line_no == held.reached + 1:
            held.explained, held.reached = True, line_no
            return True
        return False

    def _under_empty_message(self, who: bytes, line_no: int) -> bool:
        """Whether the line above is `who`'s exception line with nothing after its colon. Python prints a message that
        starts with a newline (torch's driver check raises one) as `AssertionError: ` with the message's lines
        unindented under it, so the next line is the message's first whatever its indent."""
        tb = self.open.get(who)
        if tb is not None and tb.phase == "tail" and tb.tail is not None:
            n, text = tb.tail
        elif self.held is not None and self.held.who == who and self.held.reached == self.held.line_no:
            n, text = self.held.line_no, self.held.text
        else:
            return False
        return n == line_no - 1 and _EMPTY_MESSAGE.fullmatch(split_prefix(text)[1].strip()) is not None

    def _flush(self) -> List[Unit]:
        if self.held is None:
            return []
        held, self.held = self.held, None
        return [(held.line_no, held.text, None, held.explained)]

    def feed(self, line_no: int, line: bytes, shape: Optional[Tuple[bytes, str]] = None,
             explained: bool = False) -> List[Unit]:
        """One error-looking line (`explained`: a signature explains it): the units it completes, in order."""
        who, kind = shape or line_shape(line)
        tb = self.open.get(who)
        out: List[Unit] = self._flush()
        if tb is not None:
            if line_no - tb.seen > _GAP:  # a line far below is not that traceback's (above all, a line without prefix)
                out.append(self._close(who))
                tb = None
            else:
                tb.seen = line_no
        if kind == BLANK or kind == CHAIN or kind == HEADER:
            if tb is not None and (kind != BLANK or tb.phase == "tail"):
                out.append(self._close(who))
            if kind == HEADER:
                self._open(who, _Traceback(line_no, line, "head"), out)
            return out
        if kind == FRAME:
            if tb is not None and tb.phase == "tail":
                out.append(self._close(who))
                tb = None
            if tb is None:
                tb = self._open(who, _Traceback(line_no, line, "frame"), out)
            else:
                tb.lines += 1
            tb.frames += 1
            tb.frame = tb.last = (line_no, line)
            tb.phase = "frame"
            return out
        if kind in (SOURCE, CARET) or (tb is not None and tb.phase == "frame" and (
                kind == BODY or (kind == MESSAGE and looks_like_code(split_prefix(line)[1])))):
            if tb is None:  # the log starts under a frame
                self._open(who, _Traceback(line_no, line, "source"), out)
            else:
                tb.lines += 1
                if tb.phase != "tail":  # after the exception: a line of its message that reads as code
                    tb.last, tb.phase = (line_no, line), "source"
            return out
        if tb is not None and tb.phase != "tail" and kind == EXCEPTION:
            tb.lines += 1
            tb.tail, tb.explained, tb.phase = (line_no, line), explained, "tail"
            return out
        if tb is not None and tb.phase == "tail":
            if kind == BODY and _ERROR_RX.search(split_prefix(line)[1]) is None:
                tb.lines += 1  # the exception message's next line: what explains it explains the exception (follows)
                tb.explained = tb.explained or explained
                return out
            if kind != BODY:
                out.append(self._close(who))
        if kind == EXCEPTION and not explained:
            self.held = _Held(who, line_no, line)
        else:
            out.append((line_no, line, None, explained))
        return out

    def _open(self, who: bytes, tb: _Traceback, out: List[Unit]) -> _Traceback:
        """A new traceback of `who`; past _OPEN_MAX writers with one open, the one open longest is closed (its
        unit in `out`: memory stays bounded whatever the number of processes, and nothing is dropped)."""
        if len(self.open) >= _OPEN_MAX:
            oldest = min(self.open, key=lambda k: self.open[k].first)
            out.append(self._close(oldest))
        self.open[who] = tb
        return tb

    def _close(self, who: bytes) -> Unit:
        return self.open.pop(who).unit()

    def close(self) -> List[Unit]:
        """The end of the input: its open tracebacks' units, in the order of their first lines."""
        out = self._flush() + [tb.unit() for tb in sorted(self.open.values(), key=lambda tb: tb.first)]
        self.open.clear()
        return out


def error_units(lines: Iterable[bytes], explained: Callable[[int], bool] = lambda n: False,
                message: Optional[List[int]] = None) -> List[Unit]:
    """Triage's decision over a whole text (lines numbered from 1; `explained(n)`: a signature explains line n): its
    error-looking lines (is_error_line) as the units `unexplained_errors` lists when they are not explained; into
    `message`, the explained lines that are not error-looking but the next lines of an exception's message
    (Fold.follows: part of an error report). What scripts/measure_corpus.py reads for what an error line is."""
    fold, out = Fold(), []
    for n, line in enumerate(lines, 1):
        if is_error_line(line):
            out += fold.feed(n, line, None, explained(n))
        elif explained(n) and fold.follows(n, line) and message is not None:
            message.append(n)
    return out + fold.close()


def traceback_dict(tb) -> Optional[dict]:
    """An entry's `traceback` field (JSON): where the traceback starts, the frames and lines it folds, whether its
    exception line is the entry's (false: the log stops before it; the entry is its last frame)."""
    if tb is None:
        return None
    return {"first_line": tb[0], "frames": tb[1], "lines": tb[2], "exception": bool(tb[3])}


def _shown_text(text, show) -> str:
    """A kept line as reports show it: read here (bytes), cut and redacted; from a node summary (str), as it is."""
    return show(_text(text)) if isinstance(text, bytes) else text


class Unexplained:
    """The error-looking lines no signature explains: each distinct unit (a line, or a traceback as its exception
    line: `Fold`; numbers and hex aside: pids, thread ids, times, addresses) once, at its first occurrence, with how
    often it came; the last few units for the "no known problem" case.

    A unit's text is kept as read (bytes, shown with the redaction when the result is made) or, from a node
    summary, as that node showed it (str, already redacted); a unit is known by a digest of its text without
    numbers and hex, so a summary carries no raw text and its lines still fold into the same entries."""

    __slots__ = ("seen", "overflow", "lines", "recent", "fold", "info")

    def __init__(self):
        # key -> [input, line number, text (bytes, or str shown), count, time, traceback (see Unit) or None]
        self.seen: Dict[bytes, list] = {}
        self.overflow = 0  # units of new kinds past _UNEXPLAINED_DISTINCT (counted, not kept: the total is at least)
        self.lines = 0
        self.recent: List[tuple] = []  # (input, line number, text), the last 5
        self.fold = Fold()  # the input being read
        self.info: Optional[InputInfo] = None

    def add(self, line: bytes, info: InputInfo, line_no: int, explained: bool = False,
            shape: Optional[Tuple[bytes, str]] = None) -> None:
        """One error-looking line as read (`explained`: a signature explains it; `shape`: line_shape's, when known)."""
        if info is not self.info:
            self.end_input()
            self.info = info
        for n, text, tb, done in self.fold.feed(line_no, line, shape, explained):
            if not done:
                self._unit(text, info, n, tb)

    def follows(self, line: bytes, info: InputInfo, line_no: int) -> bool:
        """A line a signature explains that is not error-looking: whether it continues the message of the exception
        just read (Fold.follows), which it then explains."""
        return info is self.info and self.fold.follows(line_no, line)

    def end_input(self) -> None:
        """The input read so far ended: its open tracebacks become units."""
        if self.info is not None:
            for n, text, tb, done in self.fold.close():
                if not done:
                    self._unit(text, self.info, n, tb)
        self.info = None

    def _unit(self, text: bytes, info: InputInfo, line_no: int, tb, count: int = 1, merged: bool = False) -> None:
        """One unexplained unit (`merged`: a distinct unit of a worker's part, `count` its repeats there)."""
        self._fold(error_key(text), [info, line_no, text[:2 * SHOW_LINE_CHARS], count, _timestamp(text),
                                     tuple(tb) if tb is not None else None])
        if merged:
            return
        self.lines += 1
        self.recent.append((info, line_no, text[:2 * SHOW_LINE_CHARS]))
        if len(self.recent) > 10:
            del self.recent[:5]

    def _fold(self, key: bytes, entry: list) -> None:
        got = self.seen.get(key)
        if got is not None:
            got[3] += entry[3]
        elif len(self.seen) < _UNEXPLAINED_DISTINCT:
            self.seen[key] = entry
        else:
            self.overflow += entry[3]  # each of its units, as when read one by one

    def to_part(self) -> dict:
        """For a forked worker's pipe (JSON): latin-1 text, byte for byte. A traceback open at the range's end is
        a unit of the range (a traceback cut by a range boundary is listed as its two parts: none is dropped)."""
        self.end_input()
        return {"seen": [[v[1], v[2].decode("latin-1"), v[3], v[5]] for v in self.seen.values()],
                "overflow": self.overflow, "lines": self.lines,
                "recent": [[n, t.decode("latin-1")] for _i, n, t in self.recent[-5:]]}

    def merge(self, part: dict, info: InputInfo, lines_before: int) -> None:
        """A later range's part (its line numbers shifted by the lines before it)."""
        self.end_input()
        for n, text, count, tb in part["seen"]:
            if tb is not None:
                tb = (tb[0] + lines_before, *tb[1:])
            self._unit(text.encode("latin-1"), info, n + lines_before, tb, count, merged=True)
        self.lines += part["lines"]
        self.overflow += part["overflow"]
        self.recent = (self.recent + [(info, n + lines_before, t.encode("latin-1")) for n, t in part["recent"]])[-5:]

    def absorb(self, other: "Unexplained") -> None:
        """Another scan's units (a node summary's), read after these: the same entries, counts and totals as if its
        lines had been read here."""
        self.end_input()
        other.end_input()
        for key, entry in other.seen.items():
            self._fold(key, entry)
        self.overflow += other.overflow
        self.lines += other.lines
        self.recent = (self.recent + other.recent)[-5:]

    def to_summary(self, show) -> dict:
        """For a node summary: inputs by their place in the scan's list, texts shown (redacted), keys as digests."""
        self.end_input()
        return {"seen": [[v[0].order, v[1], _shown_text(v[2], show), v[3], v[4], k.hex()] for k, v in self.seen.items()],
                "overflow": self.overflow, "lines": self.lines,
                "recent": [[i.order, n, _shown_text(t, show)] for i, n, t in self.recent[-5:]],
                # beside "seen" (a summary an older release reads keeps its shape): the entries that are tracebacks
                "tracebacks": {k.hex(): list(v[5]) for k, v in self.seen.items() if v[5] is not None}}

    @classmethod
    def from_summary(cls, data: Any, inputs: List[InputInfo]) -> "Unexplained":
        """`to_summary`'s dict back, its inputs those of the summary (ValueError, TypeError, IndexError when it is
        not that shape). "tracebacks" is absent from a summary written before they were kept."""
        out = cls()
        if data is None:
            return out

        def line(k, n, text) -> tuple:
            if not (isinstance(k, int) and 0 <= k < len(inputs) and isinstance(n, int) and isinstance(text, str)):
                raise TypeError("not an unexplained line")
            return inputs[k], n, text

        tracebacks = data.get("tracebacks") or {}
        for k, n, text, count, time, key in data["seen"]:
            if not isinstance(count, int) or not (time is None or isinstance(time, str)):
                raise TypeError("not an unexplained line")
            tb = tracebacks.get(key)
            if tb is not None:
                first, frames, lines, exception = tb
                if not all(isinstance(x, int) for x in (first, frames, lines)) or not isinstance(exception, bool):
                    raise TypeError("not an unexplained traceback")
                tb = (first, frames, lines, exception)
            out.seen[bytes.fromhex(key)] = [*line(k, n, text), count, time, tb]
        out.overflow, out.lines = int(data["overflow"]), int(data["lines"])
        out.recent = [line(k, n, text) for k, n, text in data["recent"]]
        return out

    @staticmethod
    def _entry(info: InputInfo, line_no: int, text, show) -> dict:
        return {"file": info.label, "line": line_no, "text": _shown_text(text, show)}

    def listed(self, show) -> List[dict]:
        """The first UNEXPLAINED_KEEP distinct units, in the order of the inputs and their lines; a traceback's
        entry says where it starts and what it folds (`traceback`, None for a line of its own)."""
        self.end_input()
        order = sorted(self.seen.values(), key=lambda v: (v[0].order, v[1]))[:UNEXPLAINED_KEEP]
        return [dict(self._entry(v[0], v[1], v[2], show), count=v[3], time=v[4], traceback=traceback_dict(v[5]))
                for v in order]

    def last(self, show) -> List[dict]:
        """The last 5 units, in the order of the inputs and their lines (a traceback is a unit when it closes)."""
        self.end_input()
        return [self._entry(i, n, t, show) for i, n, t in sorted(self.recent[-5:], key=lambda r: (r[0].order, r[1]))]
