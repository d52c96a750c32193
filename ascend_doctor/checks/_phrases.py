"""Fixed phrases of the facts, worded in the report's language where a check shows them.

Facts stay English (a saved report is judged again later, in either language): the probes write a few
phrases with parameters into them — how a command failed (host.RunResult.describe), where the MindSpore
probe read the package's device and CUDA build (probes/mindspore_pkg.py), why a launch variable could not be
read (probes/launch.py), how this node was matched to a rank-table server (probes/rank_table.py). A check that shows one passes it through here: a phrase of a known form is worded
again from its parameters with a translated message, anything else is shown as written (English is never
lost, it is only left untranslated). In English every function returns its input unchanged.

The forms below are the probes' own f-strings; tests/test_i18n_checks_runtime.py keeps the two in step.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from ..i18n import N_, _, get_lang, lookup
from ..lazyre import LazyPattern, lazy_compile

# (pattern of the English fact, the message that words it; the pattern's named groups are its placeholders)
_RUN = [
    (lazy_compile(r"^`(?P<command>[^`]*)` did not finish within its timeout$"),
     N_("`{command}` did not finish within its timeout")),
    (lazy_compile(r"^`(?P<command>[^`]*)` is not available$"), N_("`{command}` is not available")),
    (lazy_compile(r"^`(?P<command>[^`]*)` could not run \((?P<error>.*)\)$"), N_("`{command}` could not run ({error})")),
    (lazy_compile(r"^`(?P<command>[^`]*)` exited with code (?P<code>-?\d+|None)$"),
     N_("`{command}` exited with code {code}")),
    (lazy_compile(r"^hccn_tool not found \((?P<path>\S+) or on PATH\)$"), N_("hccn_tool not found ({path} or on PATH)")),
]

_MS_SOURCE = [
    (lazy_compile(r"^file names in the package: (?P<files>.*)$"), N_("file names in the package: {files}")),
    (lazy_compile(r"^(?P<dir>.*)/lib: plugins for (?P<backends>.*)$"), N_("{dir}/lib: plugins for {backends}")),
    (lazy_compile(r"^(?P<dir>.*)/lib: only CPU libraries$"), N_("{dir}/lib: only CPU libraries")),
    (lazy_compile(r"^(?P<dir>.*)/lib: (?P<backend>\w+) plugin$"), N_("{dir}/lib: {backend} plugin")),
    (lazy_compile(r"^distribution name (?P<name>\S+) \(major version only\)$"),
     N_("distribution name {name} (major version only)")),
    (lazy_compile(r"^distribution name (?P<name>\S+) (?P<version>\S+) \(1\.x\)$"),
     N_("distribution name {name} {version} (1.x)")),
    (lazy_compile(r"^distribution name (?P<name>\S+)$"), N_("distribution name {name}")),
    (lazy_compile(r"^(?P<dist_info>\S+)/direct_url\.json: installed from (?P<url>.*)$"),
     N_("{dist_info}/direct_url.json: installed from {url}")),
    (lazy_compile(r"^local version tag of (?P<version>.*)$"), N_("local version tag of {version}")),
]

_LAUNCH = [
    (lazy_compile(r"^environment (?P<name>[^=\s]+)=(?P<value>.*): expected an integer$"),
     N_("environment {name}={value}: expected an integer")),
    (lazy_compile(r"^(?P<path>.*): rank table named by (?P<var>\S+) is not readable$"),
     N_("{path}: rank table named by {var} is not readable")),
]

# How the rank-table probe matched this node to a server (probes/rank_table.py find_local_server, local_identity)
_MATCHED = lazy_compile(r"^(?P<key>\S+) (?P<value>\S+) is (?P<what>.+)$")
MATCH_KINDS = (N_("hostname"), N_("a local IP (hostname -I)"), N_("a local IP (ip addr)"))

# Fixed phrases (no parameter) the probes write into facts that the checks here show.
FIXED = (
    N_("no plugin libraries and no device in the distribution name"),
    N_("`nvidia-smi` printed no 'NVIDIA-SMI <v> Driver Version: <v>' banner"),
)


def _reword(text, forms: List[Tuple[LazyPattern, str]]) -> str:
    if get_lang() == "en" or not isinstance(text, str) or not text:
        return text
    for pattern, message in forms:
        m = pattern.match(text)
        if m:
            return _(message).format(**m.groupdict())
    return lookup(text)


def run_result(text: Optional[str]) -> Optional[str]:
    """How a command failed (host.RunResult.describe()), or a fixed phrase of a probe."""
    return _reword(text, _RUN)


def mindspore_source(text: Optional[str]) -> Optional[str]:
    """Where the MindSpore probe read the build's devices or CUDA version (flavour_source, cuda_version_source)."""
    return _reword(text, _MS_SOURCE)


def launch_error(text: Optional[str]) -> Optional[str]:
    """A launch probe error (probes/launch.py); rank-table reader problems are shown as written."""
    return _reword(text, _LAUNCH)


def rank_table_match(text: Optional[str]) -> Optional[str]:
    """How this node was matched to a rank-table server: "<key> <value> is <what>"."""
    if get_lang() == "en" or not isinstance(text, str):
        return text
    m = _MATCHED.match(text)
    if not m:
        return lookup(text)
    return _("{key} {value} is {what}").format(key=m["key"], value=m["value"], what=lookup(m["what"]))
