"""The phrases probes write into facts, each one message (N_), and how a check shows them in the report's language.

Facts stay English: a saved report is judged again later, and its facts must read the same whatever language
the first run spoke. A probe records a problem as `Text(EMPTY_FILE, path=..., expected=Text(KEY_VALUE_LINES))`:
that *is* the English string (facts, JSON and comparisons see a plain str) and remembers its message, so a check
that shows it writes `i18n_text.localized(problem)` and the reader gets it in the run's language, a Text inside
a Text translated too. The phrases live here, in one place, so the probes that write them and the catalogs agree.

Facts read back from a saved report's JSON are plain strings. localized() looks one up as a message, else
matches it against the templates (this module's, and the messages of TEMPLATE_MODULES: a rank table's problems)
with a regular expression derived from each template (template_regex: the literal text escaped, a named group
per placeholder), the most literal template first, and formats the translated template with the captured
values, each worded again the same way (a phrase inside a phrase). A string no template matches is shown as
written. English never gets here: it shows the fact as it is.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from .i18n import N_, _, get_lang, lookup

if TYPE_CHECKING:
    from .lazyre import LazyPattern

# ---- probes/kv.py: a key=value file that cannot be used ("expected" says what it should hold) ----
UNREADABLE_FILE = N_("{error}; expected {expected}")
EMPTY_FILE = N_("{path}: empty, expected {expected}")
BINARY_FILE = N_("{path}: binary or garbled content, expected {expected}")
NO_KEY_VALUES = N_("{path}: no key=value lines, expected {expected}")
KEY_VALUE_LINES = N_("key=value lines")

# ---- probes/ascend_driver.py ----
INSTALL_INFO_EXPECTED = N_("a key=value file naming Driver_Install_Path_Param")
INSTALL_INFO_NO_KEY = N_("{path}: no {key}= line, assuming {prefix}")
INSTALL_INFO_RELATIVE = N_("{path}: {key}={value} is not an absolute path, assuming {prefix}")
NO_VERSION_LINE = N_("{path}: no Version= line, expected e.g. {example}")
VERSION_NOT_A_NUMBER = N_("{path}: Version={value} is not a version number, expected e.g. {example}")
FIRMWARE_UNUSUAL = N_("{path}: Version={version} is not the usual five-part firmware number (e.g. 7.1.0.11.220); "
                      "kept as is")
DRIVER_VERSION_INFO = N_("the driver version.info (Version=...)")
FIRMWARE_VERSION_INFO = N_("the firmware version.info (Version=...)")

# ---- probes/cann.py ----
CANN_ASCEND_INFO = N_("package_name=, version=, innerversion=, arch= lines")
CANN_CFG_LINES = N_("<component>_running_version=[<build>:<release>] lines")
CANN_CFG_NO_LINE = N_("{path}: no <component>_running_version=[<build>:<release>] line")
CANN_COMPONENT_DIRS = N_("the CANN component directories")
CANN_COMPONENT_VERSION = N_("Version= of the {name} component")
CANN_RELEASES_DIFFER = N_("{path}: components report different releases {releases} (a partial upgrade?)")

# ---- probes/npu_smi.py ----
NPU_ROW_WITHOUT_CHIP = N_("npu-smi info: NPU row {row} has no chip row after it (table truncated?)")
NPU_TOO_LONG = N_("npu-smi info: more than {count} lines, not a device table; the rest was ignored")
NPU_LONG_LINE = N_("npu-smi info line {line}: {length} characters long, not a table row; skipped")
NPU_COLUMNS = N_("npu-smi info line {line}: {count} columns, expected 3: {text}")
NPU_NO_BANNER = N_("npu-smi info: no `npu-smi <ver>  Version: <driver>` banner line")
NPU_NO_HEADER = N_("npu-smi info: no `Chip | Bus-Id | ...` header line; layout unknown")
NPU_ID_NOT_NUMBER = N_("npu-smi info line {line}: NPU id {value} is not a number")
NPU_CHIP_CELL = N_("npu-smi info line {line}: chip cell {value} is not `<chip> [<device>]`")
NPU_NO_HBM = N_("npu-smi info line {line}: NPU {npu} chip {chip}: no HBM used / total")
NPU_PROCESS_ROW = N_("npu-smi info line {line}: process row {text} not understood")
NPU_STDERR = N_("{command}: stderr: {text}")
SOC_UNKNOWN = N_("SoC family unknown: {why}")
SOC_MIXED = N_("mixed chip names {names}")
SOC_UNIDENTIFIED = N_("chip name {name} with layout {layout} does not identify the SoC")
NPU_CHIP_LABEL = N_("NPU {npu} chip {chip} (device {device})")  # one chip of an NPU (checks/devices.py)

# ---- host.py: a file that could not be read ----
FILE_IS_DIRECTORY = N_("{path}: is a directory, expected a file")
FILE_DENIED = N_("{path}: permission denied")
FILE_DENIED_COLLECTED = N_("{path}: permission denied (on the collected machine)")
FILE_TOO_LARGE = N_("{path}: larger than {limit} bytes, not read")
FILE_LINK_LOOP = N_("{path}: too many levels of symbolic links")
FILE_MISSING = N_("{path}: no such file")
FILE_DANGLING = N_("{path}: a dangling symbolic link")
FILE_MISSING_IN_SNAPSHOT = N_("{path}: no such file in the snapshot")
DIR_MISSING = N_("{path}: no such directory")
DIR_MISSING_IN_SNAPSHOT = N_("{path}: no such directory in the snapshot")
FILE_OS_ERROR = N_("{path}: {reason}")  # reason: the OS's strerror, reasons.os_text(exc)
FILE_NO_END = N_("{path}: {kind} that gave no end of data within {seconds} s, expected a regular file")
FILE_KIND_FIFO = N_("a FIFO (named pipe)")
FILE_KIND_DEVICE = N_("a device file")
FILE_KIND_SOCKET = N_("a socket")
FILE_KIND_OTHER = N_("not a regular file")

# ---- host.py: an interpreter that could not be asked (PythonInfo.error; also FILE_MISSING) ----
PYTHON_IS_DIRECTORY = N_("{path}: is a directory, expected a Python interpreter (e.g. {path}/bin/python)")
PYTHON_CANNOT_RUN = N_("{path}: cannot run ({reason}), expected a Python interpreter")
PYTHON_NO_ANSWER = N_("{path}: did not answer in {seconds} s")
PYTHON_NOT_WORKING = N_("{path}: not a working Python interpreter (exit {code}: {output})")
PYTHON_NO_OUTPUT = N_("no output")

# ---- host.py: how a command ended ----
COMMAND_TIMEOUT = N_("`{command}` did not finish within its timeout")
COMMAND_MISSING = N_("`{command}` is not available")
COMMAND_NOT_RUN = N_("`{command}` could not run ({error})")
COMMAND_EXIT = N_("`{command}` exited with code {code}")

# ---- probes/system.py, probes/python_env.py (fixed phrases) ----
OS_RELEASE_UNREADABLE = N_("/etc/os-release: not readable; OS unknown")
PYTHON_VERSION_MISSING = N_("Python version not recorded")

# ---- probes/hccn.py, probes/cuda.py: a tool that gave no answer ----
HCCN_TOOL_NOT_FOUND = N_("hccn_tool not found ({path} or on PATH)")
# ---- checks/network.py, node_facts.py: the NPU port settings that must be equal on every port of a job ----
TLS_SWITCH, PORT_MTU, PORT_SPEED, PORT_FEC = N_("TLS switch"), N_("MTU"), N_("Port speed"), N_("FEC mode")
PING_NO_RANK_TABLE = N_("no rank table (RANK_TABLE_FILE) names the peer device addresses to ping")
PING_RANK_TABLE_UNREADABLE = N_("the rank table {path} could not be read: {error}")
PING_NOT_IN_TABLE = N_("this node is not a server of the rank table {path}: no device of its to ping from")
PING_NO_PEERS = N_("the rank table has no other server with device addresses to ping")
PING_NO_TOOL = N_("hccn_tool not found: no ping from the device ports")
PING_SAMPLE = N_("pinged {count} peer device address(es) of {servers} other server(s): up to {per} peer server(s) "
                 "per device, the same device id where the peer has it, within {seconds} s")
PING_STOPPED = N_("pinged {count} peer device address(es) of {servers} other server(s), then stopped at the {seconds} s "
                  "cap: {left} not sent")
PING_NO_SUMMARY = N_("no 'packets transmitted' line in the output")
HCCN_CONF_LINES = N_("address_<id>=<ip> lines")
HCCN_CONF_BAD_LINE = N_("{path}: line {line}: {text} is not key_<device id>=value")
HCCN_CONF_BAD_DEVICE = N_("{path}: line {line}: device id {device} is not a device id")
HCCN_QUERY_FAILED = N_("{failure}: {stderr}")
HCCN_NO_LINE = N_("`{command}`: no '{expected}' line in {output}")
HCCN_PROBE_BUDGET = N_("hccn_tool queries stopped after {seconds} s (their share of the time budget); not asked: {queries}")
NVIDIA_SMI_NO_BANNER = N_("`nvidia-smi` printed no 'NVIDIA-SMI <v> Driver Version: <v>' banner")

# ---- probes/mindspore_pkg.py: where the package's devices (flavour_source) and CUDA build were read ----
MS_CUDA_FILE_NAMES = N_("file names in the package: {files}")
MS_LIB_PLUGINS = N_("{dir}/lib: plugins for {backends}")
MS_LIB_PLUGIN = N_("{dir}/lib: {backend} plugin")
MS_LIB_CPU_ONLY = N_("{dir}/lib: only CPU libraries")
MS_DIST_NAME = N_("distribution name {name}")
MS_DIST_NAME_1X = N_("distribution name {name} {version} (1.x)")
MS_DIST_NAME_MAJOR = N_("distribution name {name} (major version only)")
MS_DIRECT_URL = N_("{dist_info}/direct_url.json: installed from {url}")
MS_LOCAL_VERSION = N_("local version tag of {version}")
MS_NOTHING_SAYS = N_("no plugin libraries and no device in the distribution name")
# ---- probes/mindspore_pkg.py: a package that cannot be read as one install ----
MS_NO_SITE_PACKAGES = N_("python: no site-packages directory recorded, so MindSpore could not be looked for")
MS_CANNOT_LIST = N_("{path}: cannot list ({error})")
MS_SIDE_BY_SIDE = N_("{path}: {count} MindSpore distributions installed side by side ({dists}); they share the "
                     "mindspore/ directory, so its files come from whichever was installed last")
MS_NO_METADATA = N_("{path}: missing or unreadable, expected the distribution's metadata")
MS_NO_VERSION_FIELD = N_("{path}: no 'Version:' field")
MS_BAD_DIRECT_URL = N_("{path}: not a JSON object with a 'url'")
MS_PACKAGE_MISSING = N_("{path}: missing; {dist_info} is installed but the mindspore package is not there (a broken "
                        "or half-removed install)")
MS_VERSION_PY_DIFFERS = N_("{path}/version.py says {found} but {dist_info} says {version}: the package files come "
                           "from another install")
MS_NO_CHECKER_LIST = N_("{path}: AscendEnvChecker has no 'self.version = [...]' list")
MS_NOT_READABLE = N_("{path}: not readable")

# ---- probes/launch.py ----
LAUNCH_NOT_INTEGER = N_("environment {name}={value}: expected an integer")
LAUNCH_RANK_TABLE_UNREADABLE = N_("{path}: rank table named by {var} is not readable")

# ---- probes/rank_table.py: how this node was matched to a rank-table server ("what": a kind below or a variable) ----
MATCHED_BY = N_("{key} {value} is {what}")
MATCH_HOSTNAME = N_("hostname")
MATCH_HOSTNAME_I = N_("a local IP (hostname -I)")
MATCH_IP_ADDR = N_("a local IP (ip addr)")


# ---- plain strings (facts read back from a saved report's JSON) worded again from the templates ----

# Other modules whose N_() messages are phrases kept in facts: a rank table's problems (Problem.to_json keeps the
# English string), the address and value wordings they are made of, and the reasons the OS and the json module
# give (reasons.py: "{path}: {reason}" says one of them). Their messages stay where they are
# written; they are read from the source (catalog.extract_messages) the first time a plain string must be
# matched, which only a run in another language than English does.
TEMPLATE_MODULES = ("rank_table/model.py", "rank_table/parse.py", "rank_table/validate.py", "netrules.py",
                    "json_values.py", "reasons.py")

# A template with less literal text than this ("{key} {value} is {what}") would match many an English sentence:
# it is taken only when one of the values it captures is itself a phrase.
WEAK_LITERAL = 4

_registry: Optional[Tuple[List[Tuple["LazyPattern", str, List[Tuple[str, Optional[str]]]]], Dict[str, str]]] = None
_reworded: Dict[Tuple[str, str, str], Tuple[str, int]] = {}


@functools.lru_cache(maxsize=1)
def messages() -> Tuple[str, ...]:
    """Every registered phrase: this module's constants, then the N_() messages of TEMPLATE_MODULES (read from
    their source once: both tiers of templates start from them)."""
    import os

    from .catalog import extract_messages

    found = [v for k, v in globals().items() if k.isupper() and isinstance(v, str)]
    here = os.path.dirname(os.path.abspath(__file__))
    for name in TEMPLATE_MODULES:
        try:
            found += [m.msgid for m in extract_messages(os.path.join(here, name), markers={"N_": 1})]
        except (OSError, SyntaxError, ValueError):  # no source installed: its phrases are shown as written
            continue
    return tuple(dict.fromkeys(found))


def templates() -> List[str]:
    """The registered phrases with placeholders the matcher can invert."""
    return [t for t in messages() if _fields(t)]


def _fields(template: str) -> List[Tuple[str, Optional[str]]]:
    """[(literal text, placeholder name or None)] of a str.format template; [] when it has no placeholder, no
    literal text, or a placeholder the matcher cannot invert (a conversion, a format spec, an index or attribute)."""
    import string

    parts, named, literal_text = [], False, False
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return []
    for literal, name, spec, conversion in parsed:
        if name is not None and (conversion or spec or not name.isidentifier()):
            return []
        parts.append((literal, name))
        named = named or name is not None
        literal_text = literal_text or bool(literal.strip())
    return parts if named and literal_text else []


def _literal_weight(parts) -> int:
    return sum(len("".join(lit.split())) for lit, _n in parts)


def template_regex(template: str) -> str:
    """The regular expression that matches what `template` formats to: its literal parts escaped, a named group
    per placeholder (a repeated one must repeat the same text). A placeholder is lazy, except one followed by
    another with only blanks between ("{kind} {value}": greedy, so a phrase of several words stays whole). Two
    placeholders with nothing between ("{reason}{hint}") are one group named "first__second", split by reword()."""
    parts = _fields(template)
    out, seen = [], set()
    i = 0
    while i < len(parts):
        literal, name = parts[i]
        out.append(re.escape(literal))
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        if name is None:
            pass
        elif name in seen:
            out.append(f"(?P={name})")
        elif nxt is not None and nxt[1] is not None and nxt[0] == "" and nxt[1] not in seen and nxt[1] != name:
            seen.update((name, nxt[1]))
            out.append(f"(?P<{name}__{nxt[1]}>.*?)")
            i += 1  # the next part has no literal text: both placeholders are this group
        else:
            seen.add(name)
            greedy = nxt is not None and nxt[1] is not None and not nxt[0].strip()
            out.append(f"(?P<{name}>.*)" if greedy else f"(?P<{name}>.*?)")
        i += 1
    return "".join(out)


def _formatted(message: str) -> str:
    try:
        return message.format()
    except (ValueError, IndexError, KeyError):  # not written to be formatted
        return message


def _compiled(every: Sequence[str]):
    """(patterns, fixed) of these messages: a regex per template with placeholders, the most literal first, each
    with the longest run of its literal text (a string without it cannot match: tested before the regex); and
    the English text of each message without placeholders."""
    from .lazyre import lazy_compile

    parsed = [(m, _fields(m)) for m in every]
    fixed = {}  # English text -> its message (Text formats every message: "{{...}}" is said "{...}")
    for m, f in parsed:
        if not f:
            fixed.setdefault(_formatted(m), m)
    with_fields = [(t, f) for t, f in parsed if f]
    # the most literal text first: "distribution name {name} (major version only)" before "distribution name {name}"
    with_fields.sort(key=lambda tf: (-_literal_weight(tf[1]), sum(1 for _l, n in tf[1] if n)))
    return ([(lazy_compile(template_regex(t), re.DOTALL), t, f, max((lit for lit, _n in f), key=len))
             for t, f in with_fields], fixed)


def _load():
    global _registry
    if _registry is None:
        _registry = _compiled(messages())
    return _registry


# Tier "catalog": every message of the current language's catalog, for text another run wrote in English (a
# node's saved report that `aggregate` shows): its summaries and fix lines are messages of the checks.
_catalog_registry: Dict[str, Any] = {}


def _load_tier(tier: str):
    if tier == "phrases":
        return _load()
    lang = get_lang()
    if lang not in _catalog_registry:
        from .i18n import msgids

        _catalog_registry[lang] = _compiled(tuple(dict.fromkeys(messages() + tuple(msgids()))))
    return _catalog_registry[lang]


def _value(text: str, tier: str = "phrases") -> Tuple[str, int]:
    """A captured value in the current language, and how many of its characters are phrase text (all of a
    registered message; the literal text of the template it matches, and of its own values); data (paths,
    numbers, names: 0) is shown as written."""
    if not text:
        return text, 0
    fixed = _load_tier(tier)[1]
    if text in fixed:
        return _formatted(_(fixed[text])), len(text)
    return _match(text, tier)


def _split(joined: str, first: str, second: str, tier: str = "phrases") -> Dict[str, Tuple[str, int]]:
    """The values of two adjacent placeholders: the split that leaves the most phrase text (": Expecting ','
    delimiter" + " (a missing comma between two entries?)"), else all in the first."""
    best: Dict[str, Tuple[str, int]] = {first: (joined, 0), second: ("", 0)}
    best_score = -1
    for cut in range(len(joined), 0, -1):  # the whole text in the first placeholder first: it wins a tie
        a, b = _value(joined[:cut], tier), _value(joined[cut:], tier)
        if a[1] + b[1] > best_score:
            best, best_score = {first: a, second: b}, a[1] + b[1]
    return best


def _match(text: str, tier: str = "phrases") -> Tuple[str, int]:
    """`text` worded again from the template that explains the most of it as phrase text (its literal text and
    the phrases among its values), the more literal template on a tie; (text, 0) when none matches."""
    key = (get_lang(), tier, text)
    if key in _reworded:
        return _reworded[key]
    _reworded[key] = (text, 0)  # a value is shorter than its text: no loop, this is only a guard
    best, best_score = None, -1
    for pattern, template, parts, longest in _load_tier(tier)[0]:
        if longest not in text:
            continue
        m = pattern.fullmatch(text)
        if not m:
            continue
        values: Dict[str, Tuple[str, int]] = {}
        for group, captured in m.groupdict().items():
            if "__" in group:
                values.update(_split(captured, *group.split("__", 1), tier))
            else:
                values[group] = _value(captured, tier)
        from_values = sum(n for _v, n in values.values())
        if _literal_weight(parts) < WEAK_LITERAL and not from_values:
            continue
        if tier == "catalog" and _literal_weight(parts) < CATALOG_LITERAL and not _only_data(m.groupdict().values()):
            continue  # "{a} is {b}", "{a}, {b}" would take apart any sentence; "{kind} {release} at {root} (-> {to})" not
        score = sum(len(lit) for lit, _n in parts) + from_values
        if score > best_score:  # ties: the more literal template (the order tried)
            best, best_score = (template, values), score
    if best is not None:
        template, values = best
        _reworded[key] = (_(template).format(**{k: v for k, (v, _n) in values.items()}), best_score)
    return _reworded[key]


def reword(text: str) -> str:
    """A plain English string in the current language: its translation when it is a message, else worded again
    from the template it matches (the captured values worded the same way where they are phrases: a phrase
    inside a phrase), else unchanged. Several templates can match one string ("is {kind}, expected {what}" and
    "is {kind} {value}, expected {what}"): the one that explains the most of it as phrase text is taken (_match)."""
    if get_lang() == "en" or not text:
        return text
    shown = lookup(text)
    if shown != text:
        return shown
    return _value(text)[0]


# In the catalog tier, a template needs this much literal text (its non-blank characters): the checks' short
# joiners ("{a} is {b}", "{a} and {b}", "{a}, {b}") would otherwise take apart any English sentence.
CATALOG_LITERAL = 8

def _only_data(values) -> bool:
    """Captured values that are all data, no words: each one token (no blank), one at least a path or a version."""
    values = list(values)
    return (all(v and not any(c.isspace() for c in v) for v in values)
            and any("/" in v or any(c.isdigit() for c in v) for v in values))


# English prose left in a worded text (three lowercase words in a row), outside `commands` and a fix line's
# command part: a text worded only in part is not shown; the English as written is.
_PROSE = re.compile(r"\b[a-z]{2,}(?: [a-z]{2,}){2,}\b")
_BACKTICKED = re.compile(r"`[^`]*`")


# English function words: one of them left between Chinese words ("the 驱动 即 /opt/x") means a sentence was
# taken apart, not worded.
_FUNCTION_WORD = re.compile(r"(?<![\w/.-])(?:the|a|an|is|are|was|were|be|been|of|to|and|or|but|if|it|its|this|that|"
                            r"these|those|for|with|without|not|no|has|have|had|in|on|by|from|than|then|so|as|which|"
                            r"who|when|where|there|here|can|cannot|could|should|would|will|does|do|did)(?![\w/.-])")


def _prose_left(worded: str) -> bool:
    comment = worded.split("   # ", 1)[1] if "   # " in worded else worded  # a fix line: only its comment
    plain = _BACKTICKED.sub(" ", comment)
    return bool(_PROSE.search(plain) or _FUNCTION_WORD.search(plain))


# Where a text of several sentences may be cut: after a full stop, before the next sentence's capital letter.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(])")


def reword_stored(text: str) -> str:
    """A text another run of the doctor wrote in English (a finding's summary, a fix line, an evidence value of
    a node's saved report) in the current language: as `reword`, then matched against every message of the
    catalog (the checks' own templates), then, for several sentences joined (i18n.sentences), sentence by
    sentence — used only when every sentence is recognised, so the reader never gets half a translation.
    Unchanged in English, and whenever it is not recognised (it is then shown as the node wrote it)."""
    if get_lang() == "en" or not text or not isinstance(text, str):
        return text
    shown = reword(text)
    if shown != text and not _prose_left(shown):
        return shown
    whole, found = _value(text, "catalog")
    if found and not _prose_left(whole):
        return whole
    pieces = _SENTENCE_END.split(text)
    if len(pieces) < 2:
        return text
    said = []
    for piece in pieces:
        one = reword(piece)
        if one == piece or _prose_left(one):
            one, found = _value(piece, "catalog")
            if not found or _prose_left(one):
                return text
        said.append(one)
    from .i18n import sentences

    return sentences(*said)

