"""One parser and comparator for every version spelling in the Ascend / MindSpore stack.

Forms met in the field (compat_facts.md §2, ascend_formats.md §1.3-1.7):
CANN release names `8.0.RC2`, `7.0.RC1.3.beta1`, `8.2.RC1.alpha003`, `5.1.RC2.alpha008`;
component builds `7.3.0.1.231`, `1.84.15.1.310`, `8.2.T11.0.B070`; drivers `24.1.rc2`,
`25.0.rc1.1`, `23.0.7`; firmware `7.5.0.1.129`; MindSpore `2.7.1.post1`, `2.3.0-rc2`,
`2.7.0rc1`, `2.0.0-alpha`; CUDA `11.6`.

Ordering is RC-aware: a pre-release sorts before the release it precedes
(`25.3.rc1 < 25.3.0`, `8.2.RC1.alpha003 < 8.2.RC1 < 8.2.0`), a `post` after
(`2.7.1 < 2.7.1.post1 < 2.7.2`). Missing trailing fields count as 0, so
`25.3 == 25.3.0`. Internal T-builds sort before RC builds of the same train,
as torch_npu's `CannVersionToNum` orders them (compat_facts.md §4.4); we do not
copy its quirk of ranking `RCn.alphaK` above `RCn`.

`parse_version` never raises: any text (even empty) gives a Version, with
`valid` False when no digit was found.

Huawei's driver/firmware rule is *not* this ordering: DCMI compares strings
byte-wise after truncation (`vendor_in_range`, compat_facts.md §4.2).
"""

from __future__ import annotations

import functools
import re
from typing import Any, List, Optional, Tuple

from .lazyre import lazy_compile

# Pre-release markers, lowest first. "t" is Huawei's internal test build (8.2.T11.0.B070).
_PRE_RANK = {"dev": 0, "a": 1, "alpha": 1, "b": 2, "beta": 2, "t": 3, "c": 4, "rc": 4, "pre": 4, "preview": 4}
_POST = {"post", "p", "spc", "hotfix"}
# "B070" in a T-build is a build number, not beta: an upper-case single B with digits.
_BUILD_WORDS = {"build"}

_KIND_PRE, _KIND_NUM, _KIND_POST = 0, 1, 2
_PAD = (_KIND_NUM, 0, 0, "")
_TOKEN = lazy_compile(r"[A-Za-z]+|\d+")


def _element(word: str, number: Optional[int]) -> Tuple[int, int, int, str]:
    n = number if number is not None else 0
    if not word:
        return (_KIND_NUM, 0, n, "")
    low = word.lower()
    if word == "B" and number is not None or low in _BUILD_WORDS:
        return (_KIND_NUM, 0, n, "")
    if low in _PRE_RANK:
        return (_KIND_PRE, _PRE_RANK[low], n, "")
    if low in _POST:
        return (_KIND_POST, 0, n, "")
    # Unknown words (e.g. a vendor tag) sort as pre-releases above rc, by name: consistent, never raises.
    return (_KIND_PRE, 9, n, low)


def _is_number(text: str) -> bool:
    """ASCII digits only: str.isdigit() is also true for '¹' or '٣', which int() refuses or reads as another digit."""
    return text.isascii() and text.isdigit()


def _int(digits: str) -> int:
    # Python refuses to convert more than ~4300 digits; no real version is that long,
    # but parse_version must never raise, so very long numbers are cut (still ordered).
    return int(digits.lstrip("0")[:4000] or "0")


def _elements(text: str) -> List[Tuple[int, int, int, str]]:
    out: List[Tuple[int, int, int, str]] = []
    tokens = _TOKEN.findall(text)
    i = 0
    # A leading "v" (v2.6.0) is a tag prefix, not a marker.
    if tokens and tokens[0].lower() == "v" and len(tokens) > 1 and _is_number(tokens[1]):
        i = 1
    while i < len(tokens):
        tok = tokens[i]
        if _is_number(tok):
            out.append(_element("", _int(tok)))
            i += 1
            continue
        number = None
        if i + 1 < len(tokens) and _is_number(tokens[i + 1]):
            # The number belongs to the word only when written together (rc1, T11, post1, alpha003).
            number = _int(tokens[i + 1])
            i += 1
        out.append(_element(tok, number))
        i += 1
    return out


@functools.total_ordering
class Version:
    """A parsed version; compare with <, ==, sort with it. `raw` keeps the original text."""

    __slots__ = ("raw", "elements", "valid")

    def __init__(self, raw: str, elements: List[Tuple[int, int, int, str]], valid: bool):
        self.raw = raw
        self.elements = elements
        self.valid = valid

    def _canonical(self) -> Tuple[Tuple[int, int, int, str], ...]:
        els = list(self.elements)
        while els and els[-1] == _PAD:
            els.pop()
        return tuple(els)

    def _cmp(self, other: "Version") -> int:
        a, b = self._canonical(), other._canonical()
        for i in range(max(len(a), len(b))):
            x = a[i] if i < len(a) else _PAD
            y = b[i] if i < len(b) else _PAD
            if x != y:
                return -1 if x < y else 1
        return 0

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._cmp(other) == 0

    def __lt__(self, other: "Version") -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._cmp(other) < 0

    def __hash__(self) -> int:
        return hash(self._canonical())

    def __repr__(self) -> str:
        return f"Version({self.raw!r})"

    def __str__(self) -> str:
        return self.raw

    @property
    def is_prerelease(self) -> bool:
        return any(e[0] == _KIND_PRE for e in self.elements)

    def numbers(self) -> List[int]:
        """The leading purely numeric fields: 8.0.RC2 -> [8, 0]; 7.3.0.1.231 -> [7, 3, 0, 1, 231]."""
        out = []
        for e in self.elements:
            if e[0] != _KIND_NUM or e[3]:
                break
            out.append(e[2])
        return out


def parse_version(text: Any) -> Version:
    """Parse any version text; never raises."""
    raw = "" if text is None else str(text)
    raw = raw.strip()
    try:
        els = _elements(raw)
    except Exception:  # pragma: no cover - the tokenizer takes any str; belt and braces for the contract
        els = []
    return Version(raw, els, valid=any(e[0] == _KIND_NUM for e in els) and bool(re.search(r"\d", raw)))


def compare_versions(a: Any, b: Any) -> int:
    """-1, 0 or 1 as a sorts before, equal to, or after b."""
    return parse_version(a)._cmp(parse_version(b))


def version_key(text: Any) -> Version:
    """For sorted(..., key=version_key)."""
    return parse_version(text)


def major_minor(text: Any) -> Optional[str]:
    """What MindSpore's AscendEnvChecker keeps: the first two dot fields ("7.3.0.1.231" -> "7.3").

    It splits on "." literally, so "8.2.T11.0.B070" gives "8.2" and "9.1.0" gives "9.1".
    None when the text has fewer than two fields.
    """
    if text is None:
        return None
    parts = str(text).strip().split(".")
    if len(parts) < 2 or not parts[0] or not parts[1]:
        return None
    return f"{parts[0]}.{parts[1]}"


_LEADING_MM = lazy_compile(r"(\d+)\.(\d+)")


def python_major_minor(text: Any) -> Optional[str]:
    """"3.9.18" -> "3.9"; "cp311" -> "3.11"."""
    if text is None:
        return None
    s = str(text).strip()
    m = re.fullmatch(r"(?:cp|py)(\d)(\d+)", s)
    if m:
        return f"{m.group(1)}.{m.group(2)}"
    m = _LEADING_MM.match(s)
    return f"{m.group(1)}.{m.group(2)}" if m else None


def major_minor_numbers(text: Any) -> Optional[Tuple[int, int]]:
    """The leading "X.Y" as numbers, for "is this release at least 2.3": "2.3.0rc1" -> (2, 3); "v2.3" -> None."""
    m = _LEADING_MM.match(str(text or "").strip())
    return (int(m.group(1)), int(m.group(2))) if m else None


def dotted_numbers(text: Any) -> Tuple[int, ...]:
    """The leading dot fields that are all digits, strictly: "12.4.127" -> (12, 4, 127); "8.0.RC2" -> (8, 0);
    "12.4a" -> (12,); "" -> ()."""
    out = []
    for part in str(text or "").split("."):
        if not _is_number(part):
            break
        out.append(int(part))
    return tuple(out)


def dotted_major_minor(text: Any) -> Optional[str]:
    """"12.4.127" -> "12.4"; "12" -> "12" (a CUDA soname major alone); None when no leading digits.

    Unlike `major_minor` (MindSpore's literal split) a lone major is kept and non-digit fields stop it.
    """
    t = dotted_numbers(text)
    if len(t) >= 2:
        return f"{t[0]}.{t[1]}"
    return str(t[0]) if t else None


# ---------------------------------------------------------------------------
# PEP 440: MindSpore release numbers and Requires-Python specifiers.
# `packaging` is imported only when asked: the quick check must not pay for it at start-up.

def pep440_version(text: Any):
    """A `packaging.version.Version`, or None when the text is not a PEP 440 version."""
    from packaging.version import InvalidVersion, Version as _Pep440

    try:
        return _Pep440(text)
    except (InvalidVersion, TypeError):
        return None


_PYTHON_RELEASE = lazy_compile(r"\d+(?:\.\d+){0,2}")


def python_spec_allows(spec: Any, version: Any) -> Optional[bool]:
    """Whether a Python `version` satisfies a Requires-Python `spec` like ">=3.9,<3.13".

    None when the spec is unreadable or the version has no number. The version is judged by its release
    numbers only ("3.12.0rc1" and "3.10.12+" count as 3.12.0 and 3.10.12), as pip does for the running Python.
    """
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    m = _PYTHON_RELEASE.search(str(version or ""))
    if not m:
        return None
    try:
        spec_set = SpecifierSet(str(spec or ""))
    except InvalidSpecifier:
        return None
    return spec_set.contains(m.group(0), prereleases=True)


# ---------------------------------------------------------------------------
# Huawei's driver <-> firmware rule (hicann/driver dcmi_permission_judge.c, compat_facts.md §4.2)

FIRMWARE_MIN_PREFIX = "6.4."  # COMPAT_VERSION_START_FW: firmware before 6.4 is not supported


def parse_range_list(text: Any) -> List[List[str]]:
    """`[7.0.0,7.5.99],[24.1,24.1.]` -> [["7.0.0","7.5.99"], ["24.1","24.1."]].

    Mirrors `strtok(list, "],[")`: every run of the characters ']', ',', '[' separates
    tokens, which are then taken in (start, end) pairs; an odd last token is dropped,
    as the C loop does. Also accepts an already-parsed list of pairs.
    """
    if text is None:
        return []
    if isinstance(text, (list, tuple)):
        out = []
        for item in text:
            if isinstance(item, (list, tuple)) and len(item) == 2:
                out.append([str(item[0]), str(item[1])])
        return out
    tokens = [t.strip() for t in re.split(r"[\],\[]+", str(text)) if t.strip()]
    return [[tokens[i], tokens[i + 1]] for i in range(0, len(tokens) - 1, 2)]


def vendor_in_range(candidate: str, start: str, end: str) -> bool:
    """DCMI's `dcmi_verison_compat_cmp`: cut the candidate to max(len(start), len(end)) characters,
    then accept when start <= cut <= end by plain byte-wise comparison.

    So `[24.1,24.1.]` accepts any 24.1.* ("24.1.rc3" is cut to "24.1."), and `[7.0.0,8.9.9]`
    covers 7.x and 8.x strings but not "10.0.0".
    """
    cand = str(candidate).encode("utf-8", "replace")
    lo = str(start).encode("utf-8", "replace")
    hi = str(end).encode("utf-8", "replace")
    cut = cand[: max(len(lo), len(hi))]
    return lo <= cut <= hi


def vendor_in_any_range(candidate: str, ranges: Any) -> Optional[List[str]]:
    """The first [start, end] pair that accepts the candidate, or None."""
    for lo, hi in parse_range_list(ranges):
        if vendor_in_range(candidate, lo, hi):
            return [lo, hi]
    return None


def vendor_firmware_too_old(firmware: str) -> bool:
    """`strcmp(fw, "6.4.") < 0` -> not supported (byte-wise, like the driver does)."""
    return str(firmware).encode("utf-8", "replace") < FIRMWARE_MIN_PREFIX.encode()


# ---------------------------------------------------------------------------
# CANN innerversion codes: V100R001C22SPC001B231

_INNER = lazy_compile(r"^(V\d+R\d+C\d+)(?:SPC(\d+))?(?:B(\d+))?", re.IGNORECASE)


def innerversion_code(text: Any) -> Optional[str]:
    """"V100R001C22SPC001B231" -> "V100R001C22" (the part driver/toolkit compatible_version lists use)."""
    if not text:
        return None
    m = _INNER.match(str(text).strip())
    return m.group(1).upper() if m else None


def parse_innerversion_list(text: Any) -> List[List[str]]:
    """`[V100R001C15,V100R001C18],[V100R001C30]` -> [["V100R001C15","V100R001C18"], ["V100R001C30","V100R001C30"]].

    Items are single codes or ranges (8.0.RC1's toolkit list starts with a range).
    """
    if text is None:
        return []
    items = text if isinstance(text, (list, tuple)) else re.findall(r"\[([^\]]*)\]", str(text))
    out = []
    for item in items:
        parts = [p.strip() for p in (item if isinstance(item, (list, tuple)) else str(item).split(",")) if str(p).strip()]
        if len(parts) == 1:
            out.append([parts[0], parts[0]])
        elif len(parts) >= 2:
            out.append([parts[0], parts[1]])
    return out


def innerversion_listed(code: str, listing: Any) -> bool:
    """Is the code (V100R001Cnn) inside one of the list's items (single codes or ranges)?"""
    c = innerversion_code(code)
    if not c:
        return False
    for lo, hi in parse_innerversion_list(listing):
        lo_c, hi_c = innerversion_code(lo), innerversion_code(hi)
        if not lo_c or not hi_c:
            continue
        if c in (lo_c, hi_c):
            return True
        a, b, x = _CODE.match(lo_c), _CODE.match(hi_c), _CODE.match(c)
        # A range only spans C numbers within one V...R... train.
        if a.group(1) == b.group(1) == x.group(1) and int(a.group(2)) <= int(x.group(2)) <= int(b.group(2)):
            return True
    return False


_CODE = lazy_compile(r"^(V\d+R\d+)C(\d+)$")


# ---------------------------------------------------------------------------
# Family matching for release names ("8.0.RC2.beta1" is a build of 8.0.RC2; HDK "25.5.X")

def release_matches(version: Any, pattern: Any) -> bool:
    """Does `version` belong to the release `pattern`? Case-insensitive; `X` is a wildcard field.

    "24.1.rc3" matches "24.1.RC3"; "25.0.rc1.1" matches "25.0.RC1" (a patch of it);
    "25.5.1" matches "25.5.X"; "8.0.RC2.beta1" matches "8.0.RC2".
    """
    if version is None or pattern is None:
        return False
    v = [p for p in re.split(r"[.\-]", str(version).strip().lower()) if p]
    pat = [p for p in re.split(r"[.\-]", str(pattern).strip().lower()) if p]
    if not v or not pat or len(v) < len(pat):
        return False
    for a, b in zip(v, pat):
        if b == "x":
            continue
        if a != b:
            return False
    return True
