"""Regular expressions compiled on first use.

Compiling a pattern costs 20-250 µs (case-insensitive ones the most); a module that compiles its
patterns at import makes every start pay for them, including the runs that never match anything
against them (no CUDA here, no rank table, nothing to redact). `lazy_compile` is the one helper
for that: module-level patterns read exactly as before (`_X = lazy_compile(r"...")`, then
`_X.search(text)`), and the first use compiles.
"""

from __future__ import annotations

import re

# What callers use of a compiled pattern; after the first use each is the compiled pattern's own
# (bound in the instance), so later calls cost what they cost on a re.Pattern.
_FORWARDED = ("search", "match", "fullmatch", "sub", "subn", "findall", "finditer", "split", "scanner",
              "pattern", "flags", "groups", "groupindex")


class LazyPattern:
    """Stands for re.compile(pattern, flags) until an attribute of it is first used."""

    def __init__(self, pattern: str, flags: int = 0):
        self._source = (pattern, flags)

    def __getattr__(self, name: str):  # only called for what the instance does not hold yet
        if name.startswith("__") or name == "_source":
            raise AttributeError(name)
        compiled = self.compiled()
        return getattr(compiled, name)

    def compiled(self) -> "re.Pattern[str]":
        """The compiled pattern (compiled now if it was not yet)."""
        compiled = re.compile(*self._source)
        for attr in _FORWARDED:
            setattr(self, attr, getattr(compiled, attr))
        self.compiled = lambda: compiled
        return compiled

    def __repr__(self) -> str:
        return f"lazy_compile({self._source[0]!r}{', ' + str(self._source[1]) if self._source[1] else ''})"


def lazy_compile(pattern: str, flags: int = 0) -> LazyPattern:
    """re.compile(pattern, flags), deferred to the pattern's first use."""
    return LazyPattern(pattern, flags)
