"""The plan's answers per expression, kept between knowledge bases: what working out the scanner's plan asks of one
pattern or expression alone (its Hyperscan translation, its gate word, its own anchors, its required literals)
depends on that text and this code only, not on the rest of the knowledge base. Parsing them is ~75% of the plan's
~2.2 s; a knowledge-base change (a new entry, a new part file) keeps every other entry's texts, so the first run after
it asks only the new ones (the scanner cache, keyed by the whole knowledge base, is worked out again; the Hyperscan
databases whose expressions did not change come from the database store, cache.hs_db_read).

One file per version of the matching code (cache._code_digest, which covers this module) and Python version, beside the
scanner cache, read and written only while a plan is worked out (`active()`); digest-checked as the scanner cache is;
a damaged or foreign file is ignored (the answers are worked out again). ASCEND_DOCTOR_NO_CACHE=1 turns it off.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import Dict, Iterator, Optional

from .cache import _blake2b, _code_digest, cache_dir, json_pieces, read_sealed, write_sealed

_MAGIC = b"ascend-doctor plan memo 1\n"
_KEEP = 4  # files kept (the newest): a few versions of the matching code
_tables: Optional[Dict[str, dict]] = None  # while a plan is worked out: {function: {key: answer as JSON}}
_added = [0]


def table(name: str) -> Optional[dict]:
    """The memo of one function while a plan is worked out (None: not now, answer without it)."""
    if _tables is None:
        return None
    got = _tables.get(name)
    if got is None:
        got = _tables[name] = {}
    return got


def note(memo: dict, key: str, value) -> None:
    memo[key] = value
    _added[0] += 1


def _path() -> Optional[str]:
    d = cache_dir()
    if d is None:
        return None
    tag = _blake2b(_code_digest() + f" {sys.version}".encode(), digest_size=12).hexdigest()
    return os.path.join(d, f"planmemo-{tag}.json")


def _read(path: str) -> Dict[str, dict]:
    rest = read_sealed(path, _MAGIC)
    if rest is None:
        return {}
    try:
        doc = json.loads(str(rest, "utf-8"))
    except (ValueError, UnicodeDecodeError):
        return {}
    return {k: v for k, v in doc.items() if isinstance(v, dict)} if isinstance(doc, dict) else {}


def _write(path: str, tables: Dict[str, dict]) -> None:
    body = [_MAGIC, *json_pieces(tables, ensure_ascii=False, errors="surrogatepass")]  # (not joined: its peak)
    write_sealed(path, body, "planmemo-", _KEEP)  # not written: worked out each time


@contextlib.contextmanager
def active() -> Iterator[None]:
    """While a plan is worked out: the kept answers read first, the new ones written after."""
    global _tables
    if _tables is not None:  # nested (a plan worked out again inside one): the outer one keeps them
        yield
        return
    path = _path()
    _tables = _read(path) if path else {}
    _added[0] = 0
    try:
        yield
        if path and _added[0]:
            _write(path, _tables)
    finally:
        _tables = None
