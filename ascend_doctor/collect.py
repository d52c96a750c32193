"""Collect a snapshot of this machine for someone else to diagnose (`ascend-doctor collect`).

Two sources fill the snapshot, both read through one `RecordingHost` (a LiveHost
that remembers every answer it gives):

1. the doctor itself: the checks run here, and every file, directory listing,
   link, command and disk figure the probes asked for is recorded. Replaying the
   bundle therefore asks exactly the questions the live run asked and gets the
   same answers, so `check --bundle` gives the verdicts the live run gave;
2. the list below (`COLLECT_FILES`, `collect_commands`): what support needs even if
   no probe reads it yet (ascend_formats.md §1 version files, §2 npu-smi, §3 hccn,
   §4 rank table, §6 CUDA).

Everything passes through `redact.Redactor` before it is written. The snapshot
is written with `snapshot.write_snapshot` into a temporary directory, the doctor's
JSON report is added as `report.json`, logs (--logs) are added tail-capped under
`root/<original path>` and listed in `manifest.json` "logs", and the directory is
tarred to a temporary file that is renamed into place (never half an archive).
"""

from __future__ import annotations

import datetime
import gzip
import json
import os
import posixpath
import re
import shutil
import tarfile
import tempfile
from .records import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

from . import __version__
from .atomic import replacing
from .host import CommandResult, FileTooLarge, FileUnreadable, LiveHost
from .i18n import N_, _
from .redact import Redactor
from .snapshot import write_snapshot
from .triage.layout import content_says_log, name_says_log

# ---------------------------------------------------------------------------
# What to collect: the one list (globs; {ascend} = every Ascend install root)
# ---------------------------------------------------------------------------

COLLECT_FILES = [
    # §1 install records and version files
    "/etc/ascend_install.info",
    "/etc/Ascend/ascend_cann_install.info",
    "{ascend}/driver/version.info",
    "{ascend}/firmware/version.info",
    "{ascend}/ascend-toolkit/*/*-linux/ascend_toolkit_install.info",
    "{ascend}/ascend-toolkit/*/version.cfg",
    "{ascend}/ascend-toolkit/*/*/version.info",
    "{ascend}/nnae/*/ascend_nnae_install.info",
    "{ascend}/nnae/*/*/version.info",
    "{ascend}/nnrt/*/*/ascend_nnrt_install.info",
    "{ascend}/tfplugin/*/ascend_tfplugin_install.info",
    "{ascend}/cann*/*-linux/ascend_toolkit_install.info",
    "{ascend}/cann*/*/version.info",
    "{ascend}/cann*/version.cfg",
    "{ascend}/nnal/atb/*/version.info",
    # §3 device NIC configuration
    "/etc/hccn.conf",
    # OS and container
    "/etc/os-release",
    "/proc/1/cgroup",
    # §6 CUDA
    "/proc/driver/nvidia/version",
    "/usr/local/cuda/version.json",
    "/usr/local/cuda/version.txt",
    "/usr/local/cuda-*/version.json",
    "/usr/local/cuda/include/cudnn_version.h",
    "/usr/include/cudnn_version.h",
    "/usr/include/*-linux-gnu/cudnn_v*.h",
    # MindSpore package metadata (no import needed)
    "{site}/mindspore-*.dist-info/METADATA",
    "{site}/mindspore-*.dist-info/WHEEL",
    "{site}/mindspore*.dist-info/METADATA",
    "{site}/mindspore/run_check/_check_version.py",
    "{site}/mindspore/lib/plugin/ascend/custom_*/version.info",
    "{site}/mindspore/.commit_id",
    "{site}/te-*.dist-info/METADATA",
    "{site}/hccl-*.dist-info/METADATA",
    "{site}/torch_npu-*.dist-info/METADATA",
]
# §4: the rank table is wherever these variables point
RANK_TABLE_ENV = ("RANK_TABLE_FILE", "MINDSPORE_HCCL_CONFIG_PATH")
HCCN_TOOL = "/usr/local/Ascend/driver/tools/hccn_tool"


def collect_commands(host, npu_ids: Sequence[int], hccn: Optional[str]) -> List[List[str]]:
    """§2 npu-smi (+ board per NPU), §3 hccn_tool per device (every port query of probes/hccn.py: the probe asked
    them already for the devices it found, these cover the ones npu-smi lists), §6 nvidia-smi / nvcc."""
    cmds = [["npu-smi", "info"], ["npu-smi", "info", "-m"], ["npu-smi", "info", "-l"]]
    cmds += [["npu-smi", "info", "-t", "board", "-i", str(i)] for i in npu_ids]
    if hccn:
        from .probes.hccn import QUERY_FLAGS  # the port queries the probe asks, one list

        for i in npu_ids:
            for what in QUERY_FLAGS:
                cmds.append([hccn, "-i", str(i), what, "-g"])
    cmds += [["nvidia-smi"], ["nvidia-smi", "--query-gpu=driver_version,name,memory.total", "--format=csv,noheader"],
             ["nvcc", "--version"]]
    return cmds


def ascend_roots(host) -> List[str]:
    roots = ["/usr/local/Ascend"]
    home = host.env.get("HOME")
    if home:
        roots.append(posixpath.join(home, "Ascend"))
    info = host.read_text_or_none("/etc/ascend_install.info") or ""
    for m in re.finditer(r"(?im)^\s*(?:Driver|Firmware)_Install_Path_Param\s*=\s*(\S+)", info):
        roots.append(m.group(1).rstrip("/"))
    for var in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"):
        val = host.env.get(var)
        if val and val.startswith("/"):
            # <root>/ascend-toolkit/latest -> <root>
            roots.append(posixpath.dirname(posixpath.dirname(val.rstrip("/"))))
    out: List[str] = []
    for r in roots:
        if r and r not in out:
            out.append(r)
    return out


# ---------------------------------------------------------------------------
# A LiveHost that records what it was asked
# ---------------------------------------------------------------------------

class RecordingHost(LiveHost):
    def __init__(self, environ=None, python=None):
        super().__init__(environ, python=python)
        self.files: Dict[str, str] = {}  # real path -> text
        self.placeholders: Set[str] = set()  # exist, not read (device nodes, directory entries, executables)
        self.unreadable: Set[str] = set()
        self.dirs: Set[str] = set()
        self.symlinks: Dict[str, str] = {}
        self.commands: Dict[Tuple[str, ...], CommandResult] = {}
        self.disks: Dict[str, dict] = {}

    def _real(self, path: str, depth: int = 0) -> str:
        """Record every symbolic link on the way to `path`, each link of a chain too (a venv's python ->
        python3 -> /opt/.../python3 -> python3.11: a replay must follow the same chain); return where it is."""
        if depth > 40:  # a loop: the live realpath says what the OS says
            return os.path.realpath(path)
        cur = "/"
        parts = [p for p in path.split("/") if p]
        for i, part in enumerate(parts):
            cand = posixpath.join(cur, part)
            if os.path.islink(cand):
                try:
                    target = os.readlink(cand)
                except OSError:
                    return os.path.realpath(path)
                self.symlinks[cand] = target
                if not target.startswith("/"):
                    target = posixpath.join(cur, target)
                rest = "/".join(parts[i + 1:])
                return self._real(posixpath.normpath(posixpath.join(target, rest) if rest else target), depth + 1)
            cur = cand
        return cur

    def _note(self, path: str) -> None:
        real = self._real(path)
        if os.path.isdir(real):
            self.dirs.add(real)
        elif os.path.lexists(real):
            self.placeholders.add(real)

    def read_text(self, path, max_bytes=1 << 20):
        real = self._real(path)
        try:
            text = super().read_text(path, max_bytes)
        except FileUnreadable:
            if os.path.isfile(real):
                self.unreadable.add(real)
            raise
        except FileTooLarge:
            self.placeholders.add(real)
            raise
        self.files[real] = text
        return text

    def exists(self, path):
        ok = super().exists(path)
        if ok:
            self._note(path)
        return ok

    def is_dir(self, path):
        ok = super().is_dir(path)
        if ok:
            self._note(path)
        return ok

    def is_file(self, path):
        ok = super().is_file(path)
        if ok:
            self._note(path)
        return ok

    def listdir(self, path):
        names = super().listdir(path)
        real = self._real(path)
        self.dirs.add(real)
        for n in names:
            child = posixpath.join(real, n)
            if os.path.islink(child):
                try:
                    self.symlinks[child] = os.readlink(child)
                except OSError:
                    pass
            elif os.path.isdir(child):
                self.dirs.add(child)
            else:
                self.placeholders.add(child)
        return names

    def realpath(self, path):
        self._real(path)
        return super().realpath(path)

    def which(self, name):
        found = super().which(name)
        if found:
            self._note(found)
        return found

    def disk_usage(self, path):
        usage = super().disk_usage(path)
        if usage:
            self.disks[path] = {"total_mb": usage["total_mb"], "free_mb": usage["free_mb"]}
        return usage

    def run(self, argv, timeout=10.0):
        result = super().run(argv, timeout)
        self.commands[tuple(str(a) for a in argv)] = result
        return result


# ---------------------------------------------------------------------------
# Logs: tail-capped, redacted
# ---------------------------------------------------------------------------

@dataclass
class LogOptions:
    directory: Optional[str] = None
    per_file_bytes: int = 20 << 20
    total_bytes: int = 100 << 20


def _tail(path: str, cap: int) -> Tuple[bytes, int, bool]:
    """(last `cap` bytes starting at a line boundary, original size, truncated?) of a plain or gzip file."""
    with open(path, "rb") as fh:
        magic = fh.read(2)
        fh.seek(0)
        if magic == b"\x1f\x8b":
            keep = bytearray()
            size = 0
            with gzip.GzipFile(fileobj=fh) as gz:
                while True:
                    chunk = gz.read(1 << 20)
                    if not chunk:
                        break
                    size += len(chunk)
                    keep += chunk
                    if len(keep) > 2 * cap:
                        del keep[: len(keep) - cap]
            data = bytes(keep[-cap:])
        else:
            size = os.fstat(fh.fileno()).st_size
            fh.seek(max(0, size - cap))
            data = fh.read(cap)
    truncated = size > len(data)
    if truncated:
        nl = data.find(b"\n")
        if 0 <= nl < len(data) - 1:
            data = data[nl + 1:]
    return data, size, truncated


def collect_logs(opts: LogOptions, redactor: Redactor) -> Tuple[Dict[str, str], List[dict], List[str]]:
    files: Dict[str, str] = {}
    entries: List[dict] = []
    notes: List[str] = []
    if not opts.directory:
        return files, entries, notes
    base = os.path.abspath(opts.directory)
    budget = opts.total_bytes
    for root, dirs, names in os.walk(base):
        dirs.sort()
        for name in sorted(names):
            src = os.path.join(root, name)
            if not os.path.isfile(src) or os.path.islink(src):
                continue
            says = name_says_log(name)  # logs only, by triage's own rule: no JSON reports, documents, code, data
            if not (says if says is not None else content_says_log(src)):
                notes.append(_("{path}: not a log file, not collected").format(path=src))
                continue
            if budget <= 0:
                notes.append(_("{path}: left out, the --logs-max-mb total is used up").format(path=src))
                continue
            try:
                data, size, truncated = _tail(src, min(opts.per_file_bytes, budget))
            except (OSError, EOFError) as exc:
                notes.append(_("{path}: not collected ({reason})").format(path=src, reason=exc))
                continue
            if b"\x00" in data[:8192]:
                notes.append(_("{path}: binary, not collected").format(path=src))
                continue
            stored = src[:-3] if src.endswith(".gz") else src
            files[stored] = redactor.text(data.decode("utf-8", errors="replace"))
            budget -= len(data)
            entries.append({"path": stored, "source": src, "bytes": len(data), "original_bytes": size,
                            "truncated": truncated})
    return files, entries, notes


# ---------------------------------------------------------------------------
# The collection
# ---------------------------------------------------------------------------

@dataclass
class Collection:
    hostname: str
    files: Dict[str, str]
    placeholders: Set[str]
    unreadable: Set[str]
    dirs: Set[str]
    symlinks: Dict[str, str]
    commands: List[dict]
    env: Dict[str, str]
    python: dict
    machine: dict
    report: dict
    logs: List[dict] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    redactions: int = 0
    redact_ips: bool = False

    def listing(self) -> List[Tuple[str, str, str]]:
        """(kind, what, detail) for `collect --show`."""
        rows = [("file", p, f"{len(t.encode('utf-8'))} B") for p, t in sorted(self.files.items())
                if p not in {e["path"] for e in self.logs}]
        rows += [("exists", p, N_("empty placeholder")) for p in sorted(self.placeholders - set(self.files))]
        rows += [("unreadable", p, N_("recorded as permission denied")) for p in sorted(self.unreadable)]
        rows += [("link", p, f"-> {t}") for p, t in sorted(self.symlinks.items())]
        for c in self.commands:
            detail = c.get("error") or f"rc {c.get('rc')}, {len(c.get('stdout') or '')} B"
            rows.append(("command", " ".join(c["argv"]), detail))
        rows += [("env", k, "kept" if v != "<redacted>" else N_("value redacted")) for k, v in sorted(self.env.items())]
        rows += [("log", e["path"], _("{size} B (tail of {original} B)").format(size=e["bytes"], original=e["original_bytes"])
                  if e["truncated"] else f"{e['bytes']} B") for e in self.logs]
        rows.append(("report", "report.json", _("{count} findings").format(count=len(self.report.get("findings") or []))))
        return rows


def collect(environ=None, timeout: float = 10.0, redact_ips: bool = False, logs: Optional[LogOptions] = None,
            progress=None, python: Optional[str] = None) -> Collection:
    from .doctor import RunOptions, run_checks

    host = RecordingHost(environ, python=python)
    redactor = Redactor(host.env, redact_ips=redact_ips)
    report = run_checks(host, RunOptions(timeout=timeout), progress)

    # what support needs beyond what the probes read
    site = list(host.python.site_packages)
    for pattern in COLLECT_FILES:
        bases = ascend_roots(host) if "{ascend}" in pattern else site if "{site}" in pattern else [""]
        for base in bases:
            glob = pattern.replace("{ascend}", base).replace("{site}", base)
            for path in host.glob(glob):
                if host.is_file(path):
                    host.read_text_or_none(path)
    for var in RANK_TABLE_ENV:
        path = host.env.get(var)
        if path and path.startswith("/"):
            host.read_text_or_none(path, 8 << 20)
    listing = host.run(["npu-smi", "info", "-l"], timeout)
    npu_ids = sorted({int(x) for x in re.findall(r"NPU ID\s*:\s*(\d+)", listing.stdout)})
    if not npu_ids:
        npu_ids = sorted(int(p.rsplit("davinci", 1)[1]) for p in host.glob("/dev/davinci[0-9]*")
                         if p.rsplit("davinci", 1)[1].isdigit())
    hccn = host.which("hccn_tool") or (HCCN_TOOL if host.is_file(HCCN_TOOL) else None)
    for argv in collect_commands(host, npu_ids, hccn):
        if tuple(argv) not in host.commands:
            host.run(argv, timeout)

    log_files, log_entries, notes = collect_logs(logs or LogOptions(), redactor)
    files = {p: redactor.text(t) for p, t in host.files.items()}
    files.update(log_files)
    commands = []
    for argv, res in host.commands.items():
        rec = res.to_json()
        rec["argv"] = redactor.argv(argv)
        rec["stdout"] = redactor.text(rec["stdout"])
        rec["stderr"] = redactor.text(rec["stderr"])
        commands.append(rec)
    machine = {k: v for k, v in host.machine().items() if v is not None}
    machine["disks"] = host.disks
    py = host.python
    python = {"version": py.version, "executable": py.executable, "implementation": py.implementation,
              "site_packages": list(py.site_packages), "chosen_by": py.chosen_by, "launchers_recorded": True}
    env = redactor.env(host.env)
    return Collection(
        hostname=redactor.text(host.label), files=files, placeholders=set(host.placeholders),
        unreadable=set(host.unreadable), dirs=set(host.dirs), symlinks=dict(host.symlinks), commands=commands,
        env=env, python=redactor.data(python), machine=redactor.data(machine),
        report=redactor.data(report.to_json()), logs=log_entries, notes=notes, redactions=redactor.count,
        redact_ips=redact_ips)


def write_bundle(col: Collection, output: str) -> str:
    """Write the collection as a .tar.gz at `output`, atomically (temp file + rename). Returns the path."""
    out_dir = os.path.dirname(os.path.abspath(output)) or "."
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    top = f"ascend-doctor-{re.sub(r'[^A-Za-z0-9._-]', '_', col.hostname)}-{stamp}"
    work = tempfile.mkdtemp(prefix="ascend-doctor-collect-")
    try:
        snap = os.path.join(work, top)
        files = dict(col.files)
        for p in col.placeholders:
            files.setdefault(p, "")
        # a placeholder can sit where a directory was recorded too (a path seen both ways): the directory wins
        files = {p: t for p, t in files.items() if p not in col.dirs}
        write_snapshot(
            snap, hostname=col.hostname, files=files, env=col.env, commands=col.commands, python=col.python,
            machine=col.machine, symlinks=col.symlinks, dirs=sorted(col.dirs), unreadable=sorted(col.unreadable),
            extra_manifest={"collected_by": f"ascend-doctor {__version__}", "logs": col.logs,
                            "redaction": {"env": "allowlist", "secrets": "scrubbed", "ips": col.redact_ips,
                                          "replacements": col.redactions},
                            "notes": col.notes})
        with open(os.path.join(snap, "report.json"), "w", encoding="utf-8") as fh:
            json.dump(col.report, fh, indent=1, ensure_ascii=False)
        with replacing(os.path.join(out_dir, os.path.basename(output)), prefix=".ascend-doctor-",
                       suffix=".tar.gz") as (fd, tmp):
            os.close(fd)
            with tarfile.open(tmp, "w:gz") as tf:
                tf.add(snap, arcname=top, filter=_anonymous_member)
            os.chmod(tmp, 0o600)  # it describes the machine: readable by its owner only
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return output


def _anonymous_member(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    if info.isfile():
        info.mode = 0o644
    elif info.isdir():
        info.mode = 0o755
    return info
