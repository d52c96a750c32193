"""The fixed phrases probes write into facts, each one message (N_), used through i18n_text.Text.

Facts stay English: a saved report is judged again later, and its facts must read the same whatever language
the first run spoke. A probe records a problem as `Text(EMPTY_FILE, path=..., expected=Text(KEY_VALUE_LINES))`:
that *is* the English string (facts, JSON and comparisons see a plain str) and remembers its message, so a check
that shows it writes `i18n_text.localized(problem)` and the reader gets it in the run's language, a Text inside
a Text translated too. The phrases live here, in one place, so the probes that write them and the catalog
(locale/zh_CN/checks_install.po) agree. Facts read back from a saved report's JSON are plain strings: they are
shown in English (a fixed phrase is still looked up).
"""

from __future__ import annotations

from typing import Any

from .i18n import N_
from .i18n_text import Text

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

def error_text(exc: BaseException) -> Any:
    """The message of a host error: its Text when it was raised with one (so it can be shown translated), else
    the exception's English string."""
    first = exc.args[0] if exc.args else None
    return first if isinstance(first, Text) else str(exc)
