"""The fixed phrases probes write into facts, and how a report shows them in its language.

Facts stay English: a saved report is judged again later, and its facts must read the same whatever language
the first run spoke. A probe that records a problem writes it from one of the templates below
(`EMPTY_FILE.format(path=..., expected=...)`); a check that shows it passes it through `reword(text)`, which
finds the template the text was made from and says it again in the run's language with the same values (each
value reworded the same way: `expected` is itself a phrase). Text made any other way is
shown as it is. One template per phrase, used by the probe that writes it and by `reword`: the two cannot
drift apart.
"""

from __future__ import annotations

import functools
import re
import string
from typing import List, Optional, Pattern, Tuple

from .i18n import N_, _, get_lang, lookup

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

# ---- host.py: how a command ended ----
COMMAND_TIMEOUT = N_("`{command}` did not finish within its timeout")
COMMAND_MISSING = N_("`{command}` is not available")
COMMAND_NOT_RUN = N_("`{command}` could not run ({error})")
COMMAND_EXIT = N_("`{command}` exited with code {code}")

# ---- probes/system.py, probes/python_env.py (fixed phrases) ----
OS_RELEASE_UNREADABLE = N_("/etc/os-release: not readable; OS unknown")
PYTHON_VERSION_MISSING = N_("Python version not recorded")

TEMPLATES: Tuple[str, ...] = tuple(v for k, v in sorted(globals().items()) if k.isupper() and isinstance(v, str)
                                   and "{" in v)


def _pattern(template: str) -> Pattern:
    """The regular expression that matches text made from `template` and captures its values by name."""
    out, seen = ["^"], set()
    for literal, field, _spec, _conv in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if field is not None:
            out.append(f"(?P={field})" if field in seen else f"(?P<{field}>.+?)")
            seen.add(field)
    out.append("$")
    return re.compile("".join(out), re.S)


@functools.lru_cache(maxsize=1)
def _patterns() -> List[Tuple[str, Pattern]]:
    # Longer literal text first: the most specific template wins when two could match.
    ranked = sorted(TEMPLATES, key=lambda t: -len(re.sub(r"\{[^}]*\}", "", t)))
    return [(t, _pattern(t)) for t in ranked]


def match(text: str) -> Optional[Tuple[str, dict]]:
    """(template, values) of a text made from one of the templates, else None."""
    for template, pattern in _patterns():
        m = pattern.match(text)
        if m:
            return template, m.groupdict()
    return None


def reword(text):
    """`text` (a probe's phrase) in the run's language; anything not made from a template as it is."""
    if get_lang() == "en" or not isinstance(text, str) or not text:
        return text
    fixed = lookup(text)
    if fixed != text:
        return fixed
    found = match(text)
    if found is None:
        return text
    template, values = found
    return _(template).format(**{k: reword(v) for k, v in values.items()})
