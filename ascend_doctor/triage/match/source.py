"""A Python traceback's source line is not an event (issue 21).

A traceback shows, under each `File "...", line N, in f`, the code of that line, indented four spaces:

    File ".../torch_npu/npu/utils.py", line 64, in set_device
      torch_npu._C._npu_setDevice(device_id)
    RuntimeError: SetPrecisionMode:... error code is 500001

The code names the call that was running (`_npu_setDevice`), not what happened: the event is the exception line
below it. A signature written for the call's own failure message would name a fault from the code alone, in
every traceback that passes through that call (whatever the exception was). So a line whose text, after any log
prefix (vLLM's `(Worker pid=1) ERROR 09-19 07:42:16 [core.py:720] `, pytest's `E   `, torchrun's `[rank0]: `),
is indented code ending as a Python statement ends is matched by no signature. The shape is judged on the line
alone (a matched line's plan is kept per line, `triage/scan.py`): an indent of four spaces or more, optional
statement words or an assignment, then a dotted name called with `(`, and the line ending in `)`, `(`, `,`,
`[`, `{` or `\\`: CANN's indented report lines (`        rtStreamSynchronize execute failed, reason=[...]`,
`        GELib::InnerInitialize failed.[FUNC:...]`) do not end so, or call nothing.
"""

from __future__ import annotations

import re
from typing import Tuple, Union

from ...lazyre import lazy_compile

# the code of a Python statement that calls something: `x = a.b(`, `return f(...)`, `raise E(`, `y, z = g(...)`,
# `self.device = self._init_device()`; `await`/`yield`/`assert` and `not` before it
# (every repetition bounded: a pathological line costs linear time, not quadratic)
_CODE = (r"(?:(?:return|raise|await|yield|assert|not|lambda[^:\n]{0,80}:)[ \t]{1,8}|"
         r"[A-Za-z_][\w.]{0,200}(?:\[[^\]\n]{0,80}\])?(?:[ \t]{0,8},[ \t]{0,8}[A-Za-z_][\w.]{0,200}){0,8}[ \t]{0,8}"
         r"(?:[-+*/%|&^@]|//|<<|>>)?=[ \t]{0,8}){0,4}"
         r"[A-Za-z_][\w.]{0,200}(?:\[[^\]\n]{0,80}\])?\(")
# after the start of the line or after any log prefix, four spaces or more (a traceback's indent), the run of
# blanks taken whole
_SOURCE = r"(?<![ \t])(?: {4,}|\t+)" + _CODE  # a run of blanks tried once, at its start: linear

_STR = lazy_compile(_SOURCE)  # compiled where a line first needs it: a log with no traceback never does
_BYTES = lazy_compile(_SOURCE.encode("ascii"))
# how a statement's line ends: a call closed or left open over the next lines
_ENDS = frozenset(")(,[{\\")
_ENDS_BYTES = frozenset(c.encode("ascii") for c in _ENDS)


def is_source_line(line: Union[str, bytes]) -> bool:
    """Whether `line` (str or bytes, with or without its newline) is a traceback's source line: indented Python
    code that calls something (see the module's text)."""
    if isinstance(line, (bytes, bytearray)):
        rx, text, ends = _BYTES, line.rstrip(), _ENDS_BYTES
    else:
        rx, text, ends = _STR, line.rstrip(), _ENDS
    # the line's end first (one look, most lines stop here), so the regex never scans to the end from each indent
    return bool(text) and text[-1:] in ends and rx.search(text) is not None


# ---- what a line IS once a logger's prefix is taken off (issue 21: a traceback is one error, not one per frame) ----
#
# A traceback printed through a logger carries the logger's prefix on each of its lines, and with it the prefix's
# level: vLLM/vLLM-Ascend's `(Worker_DP0_TP7_EP7 pid=2112) ERROR 12-11 09:09:33 [multiproc_executor.py:822] ` (one or
# more `(name pid=N)` groups, `[Stage-0] ` before them, `file.py:N] ` without its `[` in older releases), Ray's
# `(pid=N) ` / `(RayWorkerWrapper pid=N, ip=...) `, torchrun's `[rank0]: `. Taken off, the rest is what Python printed:
# a header, a frame, its source line, a caret marker, the exception line, or the exception message's next lines.
_PREFIX = lazy_compile(
    rb"(?P<who>(?:\[[A-Za-z][\w-]{0,30}\] )?(?:\([^()\n]{0,80}\bpid=\d+[^()\n]{0,80}\) ){0,4})"
    rb"(?:(?:ERROR|CRITICAL|FATAL|WARNING|WARN|INFO|DEBUG) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? "
    rb"\[?(?P<loc>[\w./-]{1,120}:\d+)\](?: |$))?")
_RANK_PREFIX = re.compile(rb"(\[rank\d+\]):[ \t]?")

HEADER, CHAIN, FRAME, CARET, SOURCE, EXCEPTION, BODY, MESSAGE, BLANK = (
    "header", "chain", "frame", "caret", "source", "exception", "body", "message", "blank")
# the lines of a traceback that are never an event, whatever they name (a frame's function, a call's code)
STRUCTURE = frozenset((HEADER, CHAIN, FRAME, CARET, SOURCE))

_HEADER = re.compile(rb"\s*Traceback \(most recent call last\):")  # CANN's own `TraceBack (...)` is message text
_CHAIN = re.compile(rb"\s*(?:During handling of the above exception, another exception occurred:|"
                    rb"The above exception was the direct cause of the following exception:)")
_FRAME = re.compile(rb"\s*File \"[^\"\n]{1,1000}\", line \d+")
# Python 3.11+'s markers under a source line (`^^^^^`, `~~~~^^^^`), 3.13's `...<3 lines>...`, a recursion's
# `[Previous line repeated 996 more times]`
_CARET = re.compile(rb"\s*(?:[~^]+|\.\.\.<\d+ lines>\.\.\.|\[Previous line repeated \d+ more times?\])\s*$")
# an exception line as Python prints it: its (dotted) class, maybe `[...]`, a colon, the message (or the class alone)
_EXCEPTION = lazy_compile(
    rb"(?:[A-Za-z_]\w{0,100}\.){0,10}[A-Za-z_]\w{0,100}(?:\[[^\]\n]{0,80}\])?:(?:\s|$)|"
    rb"(?:[A-Za-z_]\w{0,100}\.){0,10}[A-Z]\w{0,100}(?:Error|Exception|Interrupt|Exit|Iteration)\s*$")


def split_prefix(line: bytes) -> Tuple[bytes, bytes]:
    """(who wrote the line, the rest): a known logger prefix taken off `line` (bytes, without its newline).
    Who: the prefix's process groups and source place (`(Worker pid=1)|core.py:720`), the same on every line one
    record printed and different for another process; b"" for a line without a prefix (the rest is the line)."""
    m = _RANK_PREFIX.match(line)
    if m is not None:
        return m.group(1), line[m.end():]
    m = _PREFIX.match(line)
    if m is None or (m.group("loc") is None and b"pid=" not in m.group("who")):  # `[ERROR] ` alone is no prefix
        return b"", line
    return m.group("who") + b"|" + (m.group("loc") or b""), line[m.end():]


def line_shape(line: bytes) -> Tuple[bytes, str]:
    """(who wrote it, what it is) for one log line (bytes, without its newline), from its bytes alone: a logger's
    prefix taken off (split_prefix), the rest a traceback's header, chain line (`The above exception was ...`),
    frame (`File "...", line N`), caret marker, source line (is_source_line's shape), an exception-shaped line
    (`RuntimeError: ...`, which is a traceback's tail only where a traceback is open: lines.Fold decides), an
    indented body line (the next lines of a multi-line message), a message, or blank. Where a line sits (right
    under a frame: that frame's source line, whatever its shape) is lines.Fold's to decide."""
    who, rest = split_prefix(line.rstrip(b"\r\n"))
    if not rest.strip():
        return who, BLANK
    if _FRAME.match(rest):
        return who, FRAME
    if _CARET.match(rest):
        return who, CARET
    if _HEADER.match(rest):
        return who, HEADER
    if _CHAIN.match(rest):
        return who, CHAIN
    if is_source_line(rest):
        return who, SOURCE
    if rest[:1] in (b" ", b"\t"):
        return who, BODY
    if _EXCEPTION.match(rest):
        return who, EXCEPTION
    return who, MESSAGE


def looks_like_code(rest: bytes) -> bool:
    """Whether the rest of a line (its prefix taken off) reads as a call's code once indented: the line right
    under a frame whose indent a paste or a logger took away (`raise RuntimeError(`)."""
    return is_source_line(b"    " + rest.lstrip())
