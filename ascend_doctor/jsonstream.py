"""JSON text made a value at a time: the same text as `json.dumps`, without holding all of it at once.

json.dumps of a large value first makes a list of every token, then joins it (and a writer then encodes the join):
about four times the text in memory at once. A triage report of 2,000 problems is 6 MB of JSON, 12 MB as a Python
string once one character is outside Latin-1; the scanner's plan and plan memo are 5-8 MB. `pieces` encodes each
value below the top `depth` levels of dicts and lists alone (with the C encoder) and gives the text in pieces of
about PIECE characters; a `Rows` value is a list whose items are made only when their turn to be written comes.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Iterator, Sized, Tuple

PIECE = 1 << 18  # characters of JSON text a piece holds (at least; a single value may make a longer one)


class Rows:
    """A list for `pieces` whose items are `make(item)` of each of `items`, made as the text reaches them (and
    dropped once written), so a report's problems never exist as a list of dicts all at once."""

    def __init__(self, items: Sized, make: Callable[[Any], Any]) -> None:
        self.items, self.make = items, make

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Any]:
        for item in self.items:  # type: ignore[attr-defined]
            yield self.make(item)


def _rows_as_list(o: Any) -> list:
    """json's `default` for a value below the walked levels: `Rows` are the list they stand for."""
    if isinstance(o, Rows):
        return list(o)
    raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")


def pieces(obj: Any, ensure_ascii: bool = True, separators: Tuple[str, str] = (", ", ": "),
           depth: int = 2) -> Iterator[str]:
    """`obj` as JSON text in pieces: "".join(pieces(obj, a, s)) == json.dumps(obj, ensure_ascii=a, separators=s)
    (json.dumps's default separators are these; `indent` is not supported). `obj`'s dicts and lists (and `Rows`)
    down to `depth` levels are written by walking them; each value below is encoded whole."""
    enc = json.JSONEncoder(separators=separators, ensure_ascii=ensure_ascii, default=_rows_as_list).encode
    item_sep, key_sep = separators
    pending: list = []
    size = 0

    def walk(o: Any, level: int) -> Iterator[str]:
        if level >= depth or not isinstance(o, (dict, list, Rows)) or not len(o):
            yield enc(o)
        elif isinstance(o, dict):
            yield "{"
            for n, (k, v) in enumerate(o.items()):
                # json's own text of a key that is an int, a float, a bool or None
                key = enc(k) if isinstance(k, str) else enc({k: 0})[1:-len(key_sep) - 2]
                yield (item_sep if n else "") + key + key_sep
                yield from walk(v, level + 1)
            yield "}"
        else:
            yield "["
            for n, v in enumerate(o):
                if n:
                    yield item_sep
                yield from walk(v, level + 1)
            yield "]"

    for text in walk(obj, 0):
        pending.append(text)
        size += len(text)
        if size >= PIECE:
            yield "".join(pending)
            pending.clear()
            size = 0
    if pending:
        yield "".join(pending)


def encoded(texts: Iterable[str], errors: str = "strict") -> list:
    """UTF-8 bytes of each of `texts` (json's pieces), for a writer that takes a list of byte strings."""
    return [t.encode("utf-8", errors) for t in texts]
