"""A log line as triage keeps and shows it (its time; its text cut and redacted) and the error-looking lines no
signature explains (`Unexplained`: each distinct one once, at its first place, with its count)."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

from .result import InputInfo

SHOW_LINE_CHARS = 400  # the "most telling line" is cut to this in reports
# Timestamps in CANN / MindSpore (2024-07-12-10:21:33.512.118) and ISO-like forms.
_TS = re.compile(rb"(\d{4})-(\d\d)-(\d\d)[- T](\d\d):(\d\d):(\d\d)(?:[.,](\d{1,6}))?")
# An error-looking line (issue 21: none is dropped): an ERROR/FATAL/CRITICAL level (`[ERROR]`, `- ERROR -`, glog
# `E0712 10:21:33`, torch's c10 header `[rank1]:[E324 13:00:25.428 ...]`), a Python `...Error:`/`...Exception:` (a
# traceback's tail), a CANN error report (`EZ9999: ...`), a crash (`Segmentation fault`, `core dumped`, `Killed`).
# Scanned with the signatures (one pass): a line it holds that no signature explains is listed in
# `unexplained_errors`.
ERROR_LINE = (r"\[(?:ERROR|FATAL|CRITICAL|E)\]|\b(?:ERROR|FATAL|CRITICAL)\b|^\s*[EF]\d{4} \d\d:\d\d:\d\d|"
              r"\[[EF]\d{3,4} \d\d:\d\d:\d\d|"
              r"(?:Error|Exception)(?::|$)|^\s*E[A-Z0-9]\d{4}: |Segmentation fault|core dumped|\bKilled\b")
# ...unless the line says it is of another level (an INFO line that mentions `lastError:`)
_OTHER_LEVEL = re.compile(rb"\s*(?:\[(?:INFO|DEBUG|TRACE|EVENT|WARNING|WARN)\]|[IWD]\d{4} \d\d:|"
                          rb"(?:\[rank\d+\]:)?\[[IWD]\d{3,4} \d\d:)")
UNEXPLAINED_KEEP = 50  # distinct unexplained error lines listed (JSON; the text shows the first 20)
_UNEXPLAINED_DISTINCT = 5000  # distinct lines remembered at most (the count goes on)
_VARYING = re.compile(rb"[0-9A-Fa-fx]*[0-9][0-9A-Fa-fx]*")  # numbers, hex ids and addresses: left out of the dedup key


def _timestamp(line: bytes) -> Optional[str]:
    m = _TS.search(line)
    if not m:
        return None
    y, mo, d, h, mi, s, frac = m.groups()
    return (b"%s-%s-%s %s:%s:%s.%s" % (y, mo, d, h, mi, s, (frac or b"0")[:3].ljust(3, b"0"))).decode()


def _text(line: bytes) -> str:
    text = line.decode("utf-8", errors="replace").rstrip("\r")
    return text if len(text) <= SHOW_LINE_CHARS else text[:SHOW_LINE_CHARS] + " …"


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


def _shown_text(text, show) -> str:
    """A kept line as reports show it: read here (bytes), cut and redacted; from a node summary (str), as it is."""
    return show(_text(text)) if isinstance(text, bytes) else text


class Unexplained:
    """The error-looking lines no signature explains: each distinct line (numbers and hex aside: pids, thread ids,
    times, addresses) once, at its first occurrence, with how often it came; the last few lines for the "no known
    problem" case.

    A line's text is kept as read (bytes, shown with the redaction when the result is made) or, from a node
    summary, as that node showed it (str, already redacted); a line is known by a digest of its text without
    numbers and hex, so a summary carries no raw text and its lines still fold into the same entries."""

    __slots__ = ("seen", "overflow", "lines", "recent")

    def __init__(self):
        self.seen: Dict[bytes, list] = {}  # key -> [input, line number, text (bytes, or str shown), count, time]
        self.overflow = 0  # lines of new kinds past _UNEXPLAINED_DISTINCT (counted, not kept: the total is at least)
        self.lines = 0
        self.recent: List[tuple] = []  # (input, line number, text), the last 5

    def add(self, line: bytes, info: InputInfo, line_no: int, count: int = 1, merged: bool = False) -> None:
        """One unexplained line (`merged`: a distinct line of a worker's part, `count` its repeats there)."""
        self._fold(error_key(line), [info, line_no, line[:2 * SHOW_LINE_CHARS], count, _timestamp(line)])
        if merged:
            return
        self.lines += 1
        self.recent.append((info, line_no, line[:2 * SHOW_LINE_CHARS]))
        if len(self.recent) > 10:
            del self.recent[:5]

    def _fold(self, key: bytes, entry: list) -> None:
        got = self.seen.get(key)
        if got is not None:
            got[3] += entry[3]
        elif len(self.seen) < _UNEXPLAINED_DISTINCT:
            self.seen[key] = entry
        else:
            self.overflow += entry[3]  # each of its lines, as when read one by one

    def to_part(self) -> dict:
        """For a forked worker's pipe (JSON): latin-1 text, byte for byte."""
        return {"seen": [[v[1], v[2].decode("latin-1"), v[3]] for v in self.seen.values()], "overflow": self.overflow,
                "lines": self.lines, "recent": [[n, t.decode("latin-1")] for _i, n, t in self.recent[-5:]]}

    def merge(self, part: dict, info: InputInfo, lines_before: int) -> None:
        """A later range's part (its line numbers shifted by the lines before it)."""
        for n, text, count in part["seen"]:
            self.add(text.encode("latin-1"), info, n + lines_before, count, merged=True)
        self.lines += part["lines"]
        self.overflow += part["overflow"]
        self.recent = (self.recent + [(info, n + lines_before, t.encode("latin-1")) for n, t in part["recent"]])[-5:]

    def absorb(self, other: "Unexplained") -> None:
        """Another scan's lines (a node summary's), read after these: the same entries, counts and totals as if its
        lines had been read here."""
        for key, entry in other.seen.items():
            self._fold(key, entry)
        self.overflow += other.overflow
        self.lines += other.lines
        self.recent = (self.recent + other.recent)[-5:]

    def to_summary(self, show) -> dict:
        """For a node summary: inputs by their place in the scan's list, texts shown (redacted), keys as digests."""
        return {"seen": [[v[0].order, v[1], _shown_text(v[2], show), v[3], v[4], k.hex()] for k, v in self.seen.items()],
                "overflow": self.overflow, "lines": self.lines,
                "recent": [[i.order, n, _shown_text(t, show)] for i, n, t in self.recent[-5:]]}

    @classmethod
    def from_summary(cls, data: Any, inputs: List[InputInfo]) -> "Unexplained":
        """`to_summary`'s dict back, its inputs those of the summary (ValueError, TypeError, IndexError when it is
        not that shape)."""
        out = cls()
        if data is None:
            return out

        def line(k, n, text) -> tuple:
            if not (isinstance(k, int) and 0 <= k < len(inputs) and isinstance(n, int) and isinstance(text, str)):
                raise TypeError("not an unexplained line")
            return inputs[k], n, text

        for k, n, text, count, time, key in data["seen"]:
            if not isinstance(count, int) or not (time is None or isinstance(time, str)):
                raise TypeError("not an unexplained line")
            out.seen[bytes.fromhex(key)] = [*line(k, n, text), count, time]
        out.overflow, out.lines = int(data["overflow"]), int(data["lines"])
        out.recent = [line(k, n, text) for k, n, text in data["recent"]]
        return out

    @staticmethod
    def _entry(info: InputInfo, line_no: int, text, show) -> dict:
        return {"file": info.label, "line": line_no, "text": _shown_text(text, show)}

    def listed(self, show) -> List[dict]:
        """The first UNEXPLAINED_KEEP distinct lines, in the order of the inputs and their lines."""
        order = sorted(self.seen.values(), key=lambda v: (v[0].order, v[1]))[:UNEXPLAINED_KEEP]
        return [dict(self._entry(v[0], v[1], v[2], show), count=v[3], time=v[4]) for v in order]

    def last(self, show) -> List[dict]:
        return [self._entry(i, n, t, show) for i, n, t in self.recent[-5:]]
