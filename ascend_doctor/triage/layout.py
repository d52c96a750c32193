"""Input layout: which files are logs, which node each belongs to, and what kind of log it is.

A node is a directory of logs. `triage DIR` treats DIR as a cluster when it holds no log file of its own
and has sub-directories that are not part of a log layout (`worker-0/`, `w_1/`, a hostname): each such
sub-directory is one node named after it. Otherwise DIR alone is one node named after its base name.
The layout's own directories (`process_log/`, `run/`, `debug/`, `plog/`, `device-3/`, `rank_0/`,
`msrun_log/`, ...) never name a node.

Log files are recognised by name first (CANN `plog-<pid>_<ts>.log` and `device-<pid>_<ts>.log`,
ascend-fd's `plog-parser-<pid>-<n>.log`, msrun `worker_<n>.log`, host OS `messages`/`dmesg`/`syslog`/
`sysmonitor.log`, device-OS `slog` and `hisi_logs`, `history.log`, BMC dumps, `*.log`, `*.log.N`, `*.gz`);
documents and data (`README.md`, `*.json`, `*.jsonl`, `*.py`, images, archives, ...) are not logs; a
file whose name says nothing is a log when its first 8 KiB look like one (timestamps or log levels).
"""

from __future__ import annotations

import os
import re
from ..lazyre import lazy_compile
from ..records import dataclass
from typing import Iterator, List, Optional, Tuple

# Directories that are part of a log layout, never a node's name.
_STRUCTURAL = lazy_compile(
    r"(?:process_log|run|debug|plog|device-\d+|device_\d+|dev-os-\d+|rank[_-]?\d+|msrun_log|msrun|logs?|slog|"
    r"ascend|ascend_log|ascend-log|host|device|npu|hisi_logs|bbox|mntn|history|mindx|dl|ascend-fd|atrace|"
    r"environment_check|train_log|training_log|train|output|outputs|bmc|os|var|security|operation|profiling|"
    r"kernel|modelarts|ascend_work_path|log_dir|extra-info|tmp)$", re.I)

# Names that are never logs (documents, data, code, binaries, archives).
_NOT_LOG_EXT = frozenset("""
.md .rst .json .jsonl .ndjson .yaml .yml .toml .ini .cfg .conf .py .pyc .pyi .sh .bash .csv .tsv .html .htm .xml
.png .jpg .jpeg .gif .svg .pdf .tar .tgz .zip .whl .egg .so .o .a .bin .pb .ckpt .mindir .om .onnx .npy .npz .pt
.pth .safetensors .prom .sqlite .db .lock .pid .c .cc .cpp .h .hpp .js .css .ipynb .pkl .pickle .xz .bz2 .zst .7z
""".split())
_LOG_NAME = lazy_compile(
    r"(?:\.log(?:\.\d+)?|\.out|\.err|\.gz|\.trace)$|^(?:plog|device|messages|dmesg|syslog|kern|sysmonitor|"
    r"vmcore-dmesg|history|slog|npu_|hisi)", re.I)
# What the first 8 KiB of a log look like: a timestamp, a log level, a traceback.
_LOG_CONTENT = lazy_compile(
    rb"\d{4}-\d\d-\d\d[- T]\d\d:\d\d:\d\d|\[(?:ERROR|WARNING|INFO|DEBUG|TRACE|EVENT)\]|Traceback \(most recent|"
    rb"^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d|^\[\s*\d+\.\d+\]", re.M)

# What kind of log a file is (the knowledge base's log sources): by name and by the directories around it.
_PLOG = lazy_compile(r"(?:^|/)plog-(?:parser-)?(\d+)[_-][^/]*$")
_DEVICE_LOG = lazy_compile(r"(?:^|/)device-(\d+)_\d+\.log$")
_KINDS: List[Tuple[str, re.Pattern]] = [
    ("os", lazy_compile(r"(?:^|/)(?:messages|dmesg|syslog|kern\.log|sysmonitor|vmcore-dmesg)[^/]*$", re.I)),
    ("npu_history", lazy_compile(r"(?:^|/)history[^/]*\.log$|(?:^|/)(?:bbox|mntn)/", re.I)),
    ("npu_os", lazy_compile(r"(?:^|/)(?:hisi_logs|dev-os-\d+|device-os)/|(?:^|/)slog/(?!host)", re.I)),
    ("npu_host", lazy_compile(r"(?:^|/)(?:slog/host[^/]*|npu/host|var/log/npu)/", re.I)),
    ("bmc", lazy_compile(r"(?:^|/)bmc[^/]*/|(?:^|/)(?:ipmi|fruinfo|sel)[^/]*$|dump_info", re.I)),
    ("mindx", lazy_compile(r"(?:device-plugin|devicePlugin|volcano|npu-exporter|ascend-docker-runtime|noded)", re.I)),
]


@dataclass
class LogFile:
    path: str  # where to read it
    label: str  # how the report names it
    node: str
    kind: str  # plog | device | train | os | npu_os | npu_host | npu_history | bmc | mindx
    pid: Optional[str]  # the process a CANN log belongs to (from its file name)


def classify(label: str) -> Tuple[str, Optional[str]]:
    """(kind, pid) of a log from its path."""
    path = label.replace(os.sep, "/")
    m = _PLOG.search(path)
    if m:
        return "plog", m.group(1)
    m = _DEVICE_LOG.search(path)
    if m:
        return "device", m.group(1)
    for kind, rx in _KINDS:
        if rx.search(path):
            return kind, None
    return "train", None


def is_structural(name: str) -> bool:
    return bool(_STRUCTURAL.match(name))


def name_says_log(name: str) -> Optional[bool]:
    """True: a log by its name; False: never a log; None: the content decides."""
    lower = name.lower()
    ext = os.path.splitext(lower[:-3] if lower.endswith(".gz") else lower)[1]
    if ext in _NOT_LOG_EXT:
        return False
    if _LOG_NAME.search(name):
        return True
    return None


def binary_head(head: bytes) -> bool:
    """Whether the first bytes of a file are binary data: a NUL byte anywhere but alone at a line's start. A C program
    that prints a string with its terminator leaves one there (torch's DataLoader worker writes `ERROR: Unexpected
    segmentation fault encountered in worker.` and a NUL before the traceback that follows): the output is still a
    log."""
    return b"\x00" in head and b"\x00" in head.replace(b"\n\x00", b"\n")


def content_says_log(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            head = fh.read(8192)
    except OSError:
        return True  # let the reader report why it cannot be read
    if head.startswith(b"\x1f\x8b"):
        return True
    if binary_head(head):
        return False
    if _LOG_CONTENT.search(head) is not None:
        return True
    # a console output saved as text (no timestamps, no levels): a log where a line is error-looking as triage's scan
    # decides it (`msrun: error: argument ...`, `ERROR: Could not find a version ...`, `Segmentation fault`)
    from .lines import is_error_line

    return any(is_error_line(line) for line in head.splitlines())


def node_of_file(path: str) -> str:
    """A file given alone belongs to the node its first non-layout directory names."""
    parent = os.path.dirname(os.path.abspath(path))
    while parent and parent != os.path.dirname(parent):
        base = os.path.basename(parent)
        if not is_structural(base):
            return base
        parent = os.path.dirname(parent)
    return "localhost"


def _sorted_walk(top: str):
    for root, dirs, files in os.walk(top):
        dirs.sort()
        yield root, sorted(files)


def node_dirs(top: str) -> Optional[List[str]]:
    """The node sub-directories of `top` when it is a cluster layout, else None."""
    try:
        entries = sorted(os.scandir(top), key=lambda e: e.name)
    except OSError:
        return None
    for e in entries:
        if e.is_file() and name_says_log(e.name) is not False:
            return None  # logs of its own: top is a node
    nodes = [e.name for e in entries if e.is_dir() and not is_structural(e.name)]
    return nodes or None


def walk(top: str, node: Optional[str] = None) -> Iterator[Tuple[str, str, str, bool]]:
    """(path, label, node, is_log) for every file under the directory `top`, in a stable order."""
    top = top.rstrip("/") or "/"
    base = os.path.dirname(os.path.abspath(top)) or "/"
    top_name = os.path.basename(os.path.abspath(top)) or "localhost"
    if is_structural(top_name):  # `triage worker-3/msrun_log`: the node is worker-3
        top_name = node_of_file(os.path.join(top, "-"))
    nodes = None if node else node_dirs(top)
    for root, files in _sorted_walk(top):
        rel = os.path.relpath(root, top)
        first = rel.split(os.sep)[0] if rel != "." else ""
        owner = node or (first if nodes and first in nodes else top_name)
        for name in files:
            full = os.path.join(root, name)
            says = name_says_log(name)
            is_log = says if says is not None else content_says_log(full)
            yield full, os.path.relpath(full, base), owner, is_log
