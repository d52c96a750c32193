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
from typing import Union

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

_STR = re.compile(_SOURCE)
_BYTES = re.compile(_SOURCE.encode("ascii"))
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
