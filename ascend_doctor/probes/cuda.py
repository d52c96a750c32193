"""NVIDIA driver, CUDA runtime/toolkit and cuDNN, read without importing any framework.

Formats follow reference/ascend_formats.md §6. Two facts are easy to get wrong
and decide most GPU verdicts, so they are kept apart here:

* nvidia-smi's "CUDA Version" is the newest CUDA the *driver* supports
  (`driver_cuda_max`), never the installed runtime;
* the runtime MindSpore loads is a libcudart.so.X.Y.Z file on the loader path,
  so every one found is recorded with where it lives and whether the loader
  would find it (`loadable`).
"""

from __future__ import annotations

import json
import posixpath
import re
from typing import Dict, List, Optional, Tuple

from .. import phrases
from ..facts import CudaFacts
from ..host import Host
from ..lazyre import lazy_compile
from ..versions import version_key

# §6.1: very old drivers print no "CUDA Version" field.
_SMI_BANNER = lazy_compile(r"NVIDIA-SMI\s+(\S+)\s+Driver Version:\s+(\S+)(?:\s+CUDA Version:\s+([0-9][0-9.]*))?")
# §6.2: the open module inserts "for <arch>" before the version; the old regex breaks on it.
_KERNEL_MODULE = lazy_compile(r"NVRM version:.*?(Open )?Kernel Module(?: for \S+)?\s+([0-9][0-9.]*)\s")
_NVML_MISMATCH = lazy_compile(r"Driver/library version mismatch", re.I)
_NVML_LIB_VERSION = lazy_compile(r"NVML library version:\s*([0-9][0-9.]*)")
_NVCC_RELEASE = lazy_compile(r"release (\d+\.\d+), V([\d.]+)")
_VERSION_TXT = lazy_compile(r"^CUDA Version\s+([0-9][0-9.]*)", re.M)
_CUDNN_DEFINE = lazy_compile(r"^\s*#\s*define\s+CUDNN_(MAJOR|MINOR|PATCHLEVEL)\s+(\d+)\s*$", re.M)
_SONAME_VERSION = lazy_compile(r"\.so\.(\d+(?:\.\d+)*)$")

GPU_QUERY_FIELDS = "index,name,memory.total,driver_version,pci.bus_id"
# One line per GPU; a few thousand lines are not a GPU list (and must not become as many errors).
MAX_QUERY_LINES = 1024

# Directories the dynamic loader searches without being told (glibc defaults + Debian multiarch).
DEFAULT_LOADER_DIRS = ["/lib", "/usr/lib", "/lib64", "/usr/lib64", "/lib/x86_64-linux-gnu",
                       "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu"]
SYSTEM_LIB_DIRS = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]


class _ListedOnce:
    """The host, with each directory listed once for the probe: the system library directory (thousands of
    names) is searched for the runtime, the driver libraries and cuDNN, and listing it was most of the probe."""

    def __init__(self, host: Host):
        self._host = host
        self._names: Dict[str, List[str]] = {}

    def listdir(self, path: str) -> List[str]:
        if path not in self._names:
            self._names[path] = self._host.listdir(path)  # what it raises is not kept: asked again, raised again
        return list(self._names[path])

    def __getattr__(self, name: str):
        return getattr(self._host, name)


def probe_cuda(host: Host, options) -> CudaFacts:
    host = _ListedOnce(host)  # type: ignore[assignment]
    facts = CudaFacts()
    timeout = getattr(options, "timeout", 10.0)
    env = host.env
    facts.cuda_home = env.get("CUDA_HOME") or env.get("CUDA_PATH") or None
    facts.dev_nodes = [p for p in host.glob("/dev/nvidia*") if re.fullmatch(r"/dev/nvidia\d+", p)]

    _probe_nvidia_smi(host, facts, timeout)
    _probe_kernel_module(host, facts)
    facts.loader_dirs = loader_search_dirs(host)
    facts.userspace_driver_libs = _find_versioned_libs(host, SYSTEM_LIB_DIRS, ("libcuda.so.", "libnvidia-ml.so."))
    lib_dirs = _runtime_lib_dirs(host)
    facts.runtime_libs = _runtime_libs(host, lib_dirs, facts.loader_dirs)
    _probe_toolkits(host, facts)
    _probe_nvcc(host, facts, timeout)
    _probe_cudnn(host, facts, lib_dirs)
    return facts


# -- nvidia-smi ------------------------------------------------------------------

def _probe_nvidia_smi(host: Host, facts: CudaFacts, timeout: float) -> None:
    res = host.run(["nvidia-smi"], timeout=timeout)
    if not res.available:
        facts.nvidia_smi_error = res.describe()
        return
    text = (res.stdout or "") + "\n" + (res.stderr or "")
    if _NVML_MISMATCH.search(text):
        facts.nvml_mismatch = True
        m = _NVML_LIB_VERSION.search(text)
        facts.nvml_library_version = m.group(1) if m else None
    parsed = parse_nvidia_smi_banner(res.stdout or "")
    if parsed:
        facts.driver_version, facts.driver_cuda_max = parsed
    if not res.ok:
        facts.nvidia_smi_error = res.describe()
        if res.error:  # timeout, not executable, failed to start: it said nothing about the GPUs
            facts.nvidia_smi_unusable = res.describe()
        first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
        facts.nvidia_smi_failure = first[:300] or None
        return
    if not parsed:
        facts.errors.append("nvidia-smi: no 'NVIDIA-SMI <v> Driver Version: <v>' banner line in its output")
        # Every nvidia-smi prints the banner; without it this is not nvidia-smi's output (a wrapper, garbage).
        facts.nvidia_smi_unusable = phrases.NVIDIA_SMI_NO_BANNER
    q = host.run(["nvidia-smi", f"--query-gpu={GPU_QUERY_FIELDS}", "--format=csv,noheader"], timeout=timeout)
    if q.ok:
        gpus, errors = parse_nvidia_smi_query(q.stdout)
        facts.gpus = gpus
        facts.errors.extend(errors)
        if facts.driver_version is None and gpus and gpus[0].get("driver_version"):
            facts.driver_version = gpus[0]["driver_version"]
    elif q.available:
        facts.errors.append(f"nvidia-smi --query-gpu: {q.describe()}")


def parse_nvidia_smi_banner(text: str) -> Optional[Tuple[str, Optional[str]]]:
    """(driver version, newest CUDA the driver supports or None) from the banner, or None."""
    m = _SMI_BANNER.search(text or "")
    if not m:
        return None
    return m.group(2), m.group(3)


def parse_nvidia_smi_query(text: str) -> Tuple[List[Dict], List[str]]:
    """Rows of `--query-gpu=index,name,memory.total,driver_version,pci.bus_id --format=csv,noheader`."""
    gpus, errors = [], []
    names = GPU_QUERY_FIELDS.split(",")
    for n, line in enumerate((text or "").splitlines(), 1):
        if n > MAX_QUERY_LINES:
            errors.append(f"nvidia-smi --query-gpu: more than {MAX_QUERY_LINES} lines, not one line per GPU; "
                          "the rest was ignored")
            break
        if not line.strip():
            continue
        cells = [c.strip() for c in line.split(",")]
        if len(cells) != len(names):
            errors.append(f"nvidia-smi --query-gpu line {n}: {len(cells)} fields, expected {len(names)} ({GPU_QUERY_FIELDS})")
            continue
        row = dict(zip(names, cells))
        if not row["index"].isdigit():
            errors.append(f"nvidia-smi --query-gpu line {n}: index {row['index'][:20]!r} is not a number")
            continue
        gpu: Dict = {"index": row["index"], "name": row["name"], "driver_version": row["driver_version"],
                     "bus_id": row["pci.bus_id"]}
        mem = re.match(r"(\d+)\s*MiB", row["memory.total"])
        gpu["memory_total_mb"] = int(mem.group(1)) if mem else None
        if not mem:
            errors.append(f"nvidia-smi --query-gpu line {n}: memory.total {row['memory.total']!r}, expected '<n> MiB'")
        gpus.append(gpu)
    return gpus, errors


# -- kernel module -------------------------------------------------------------------

def _probe_kernel_module(host: Host, facts: CudaFacts) -> None:
    path = "/proc/driver/nvidia/version"
    text = host.read_text_or_none(path)
    if text is None:
        return  # no module loaded (or not collected): not an error on a machine without NVIDIA
    parsed = parse_proc_driver_version(text)
    if parsed is None:
        facts.errors.append(f"{path}: no 'NVRM version: ... Kernel Module <version>' line")
        return
    facts.kernel_module_version, facts.kernel_module_flavour = parsed


def parse_proc_driver_version(text: str) -> Optional[Tuple[str, str]]:
    """(version, "open" | "proprietary") from /proc/driver/nvidia/version, or None."""
    m = _KERNEL_MODULE.search(text or "")
    if not m:
        return None
    return m.group(2), "open" if m.group(1) else "proprietary"


# -- libraries -------------------------------------------------------------------------

def loader_search_dirs(host: Host) -> List[str]:
    """LD_LIBRARY_PATH, then /etc/ld.so.conf (with its includes), then the built-in defaults."""
    dirs: List[str] = []
    for d in (host.env.get("LD_LIBRARY_PATH") or "").split(":"):
        if d.strip():
            dirs.append(posixpath.normpath(d.strip()))
    _read_ld_so_conf(host, "/etc/ld.so.conf", dirs, depth=0)
    dirs.extend(DEFAULT_LOADER_DIRS)
    out: List[str] = []
    for d in dirs:
        if d not in out:
            out.append(d)
    return out


def _read_ld_so_conf(host: Host, path: str, dirs: List[str], depth: int) -> None:
    if depth > 4:
        return
    text = host.read_text_or_none(path)
    if text is None:
        return
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("include"):
            pattern = line[len("include"):].strip()
            if not pattern.startswith("/"):
                pattern = posixpath.join(posixpath.dirname(path), pattern)
            for inc in host.glob(pattern):
                _read_ld_so_conf(host, inc, dirs, depth + 1)
        elif line.startswith("/"):
            dirs.append(posixpath.normpath(line))


def _conda_roots(host: Host) -> List[str]:
    env = host.env
    roots = []
    for var in ("CONDA_PREFIX", "CONDA_PREFIX_1"):
        if env.get(var):
            roots.append(env[var])
    home = env.get("HOME") or "/root"
    for base in (home, "/opt", "/usr/local", "/root"):
        for name in ("miniconda3", "anaconda3", "miniforge3", "mambaforge", "conda"):
            roots.append(posixpath.join(base, name))
    out = []
    for r in roots:
        for cand in [r] + host.glob(posixpath.join(r, "envs", "*")):
            if cand not in out and host.is_dir(cand):
                out.append(cand)
    return out


def _runtime_lib_dirs(host: Host) -> List[Tuple[str, str]]:
    """[(dir, kind)] where a CUDA runtime can live; kind says what put it there."""
    found: List[Tuple[str, str]] = []

    def add(d: str, kind: str):
        d = posixpath.normpath(d)
        if all(d != x for x, _ in found) and host.is_dir(d):
            found.append((d, kind))

    cuda_home = host.env.get("CUDA_HOME") or host.env.get("CUDA_PATH")
    roots = ([cuda_home] if cuda_home else []) + host.glob("/usr/local/cuda*")
    for root in roots:
        add(posixpath.join(root, "lib64"), "toolkit")
        for t in host.glob(posixpath.join(root, "targets", "*", "lib")):
            add(t, "toolkit")
    for d in (host.env.get("LD_LIBRARY_PATH") or "").split(":"):
        if d.strip():
            add(d.strip(), "LD_LIBRARY_PATH")
    for d in SYSTEM_LIB_DIRS:
        add(d, "system")
    for root in _conda_roots(host):
        add(posixpath.join(root, "lib"), "conda")
    # pip's nvidia-cuda-runtime-cuXX wheels
    for sp in host.python.site_packages:
        add(posixpath.join(sp, "nvidia", "cuda_runtime", "lib"), "pip")
        add(posixpath.join(sp, "nvidia", "cudnn", "lib"), "pip")
    return found


def _list_names(host: Host, d: str) -> List[str]:
    try:
        return host.listdir(d)
    except Exception:  # unreadable dir: nothing there as far as we can tell
        return []


def _runtime_libs(host: Host, lib_dirs, loader_dirs: List[str]) -> List[Dict[str, str]]:
    loader_real = {host.realpath(d) for d in loader_dirs}
    libs: List[Dict[str, str]] = []
    for d, kind in lib_dirs:
        loadable = d in loader_dirs or host.realpath(d) in loader_real
        for name in _list_names(host, d):
            if not name.startswith("libcudart.so."):
                continue
            path = posixpath.join(d, name)
            real = host.realpath(path)
            same = next((e for e in libs if e["realpath"] == real), None)
            if same is not None:
                # One file reached through /usr/local/cuda, cuda-X.Y, lib64 -> lib, targets/<arch>/lib links is one
                # library: listed once, at a path the loader finds if there is one, the other paths as aliases.
                if path != same["path"] and path not in same["aliases"]:
                    same["aliases"].append(path)
                if loadable and same["loadable"] != "yes":
                    same["aliases"][same["aliases"].index(path)] = same["path"]
                    same.update(path=path, dir=d, kind=kind, loadable="yes")
                continue
            # libcudart.so.11.0 is usually the SONAME link to libcudart.so.11.6.55: the real name holds the
            # version. Wheels (pip nvidia-cuda-runtime, pip-assembled toolkits) ship only the SONAME file, so
            # "11.0" there means "CUDA 11", and the exact version is in the wheel's dist-info.
            version = _version_from_name(posixpath.basename(real)) or _version_from_name(name)
            if version is None:
                continue
            entry = {"path": path, "version": version, "dir": d, "kind": kind, "realpath": real,
                     "loadable": "yes" if loadable else "no", "exact": "yes", "aliases": []}
            if version.count(".") < 2:
                exact = _runtime_wheel_version(host, posixpath.dirname(real), version.split(".")[0])
                entry["version"] = exact or version.split(".")[0]
                entry["exact"] = "yes" if exact else "no"
            libs.append(entry)
    return libs


_RUNTIME_WHEEL = lazy_compile(r"^nvidia_cuda_runtime(?:_cu\d+)?-(\d+\.\d+\.\d+)[^-]*\.dist-info$")


def _runtime_wheel_version(host: Host, lib_dir: str, major: str) -> Optional[str]:
    """X.Y.Z of the nvidia-cuda-runtime wheel that put a SONAME-only libcudart in lib_dir."""
    # <toolkit>/lib with <toolkit>/dist-info/, or <site-packages>/nvidia/cuda_runtime/lib
    candidates = [posixpath.join(posixpath.dirname(lib_dir), "dist-info"),
                  posixpath.dirname(posixpath.dirname(posixpath.dirname(lib_dir)))]
    for c in candidates:
        for name in _list_names(host, c):
            m = _RUNTIME_WHEEL.match(name)
            if m and m.group(1).split(".")[0] == major:
                return m.group(1)
    return None


def _version_from_name(name: str) -> Optional[str]:
    m = _SONAME_VERSION.search(name)
    return m.group(1) if m else None


def _find_versioned_libs(host: Host, dirs: List[str], prefixes) -> List[Dict[str, str]]:
    out = []
    prefixes = tuple(prefixes)
    for d in dirs:
        for name in _list_names(host, d):
            if not name.startswith(prefixes):  # most of a system library directory
                continue
            for prefix in prefixes:
                if name.startswith(prefix):
                    v = _version_from_name(name)
                    # libcuda.so.1 is the SONAME link; only full driver versions (535.129.03) say something.
                    if v and v.count(".") >= 1:
                        out.append({"path": posixpath.join(d, name), "lib": prefix.rstrip(".").rsplit(".so", 1)[0],
                                    "version": v})
    return out


# -- toolkit, nvcc, cuDNN -------------------------------------------------------------

def _toolkit_roots(host: Host) -> List[str]:
    roots = []
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if host.env.get(var):
            roots.append(posixpath.normpath(host.env[var]))
    roots.extend(host.glob("/usr/local/cuda*"))
    out = []
    for r in roots:
        if r not in out and host.is_dir(r):
            out.append(r)
    return out


def _probe_toolkits(host: Host, facts: CudaFacts) -> None:
    for root in _toolkit_roots(host):
        entry = {"root": root, "resolved": host.realpath(root)}
        same = next((t for t in facts.toolkits if t["resolved"] == entry["resolved"]), None)
        if same is not None:  # /usr/local/cuda -> cuda-13.0: one toolkit, named twice
            same.setdefault("aliases", []).append(root)
            continue
        vj = posixpath.join(root, "version.json")
        vt = posixpath.join(root, "version.txt")
        text = host.read_text_or_none(vj)
        if text is not None:
            version = parse_cuda_version_json(text)
            if version:
                entry.update(version=version, source=vj)
            else:
                facts.errors.append(f"{vj}: no \"cuda\": {{\"version\": ...}} entry, expected CUDA's version.json")
        if "version" not in entry:
            text = host.read_text_or_none(vt)
            if text is not None:
                m = _VERSION_TXT.search(text)
                if m:
                    entry.update(version=m.group(1), source=vt)
                else:
                    facts.errors.append(f"{vt}: no 'CUDA Version x.y.z' line")
        if "version" not in entry:  # a toolkit assembled from NVIDIA's pip wheels keeps their dist-info
            dist = posixpath.join(root, "dist-info")
            for name in _list_names(host, dist):
                m = _RUNTIME_WHEEL.match(name)
                if m:
                    entry.update(version=m.group(1), source=posixpath.join(dist, name))
                    break
        facts.toolkits.append(entry)
    preferred = [t for t in facts.toolkits if t.get("version")]
    if preferred:
        # CUDA_HOME first (it is what MindSpore's GPU plugin loader reads), then /usr/local/cuda.
        facts.toolkit_version = preferred[0]["version"]
        facts.toolkit_root = preferred[0]["root"]


def parse_cuda_version_json(text: str) -> Optional[str]:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    cuda = data.get("cuda") if isinstance(data, dict) else None
    version = cuda.get("version") if isinstance(cuda, dict) else None
    return str(version) if version else None


def _probe_nvcc(host: Host, facts: CudaFacts, timeout: float) -> None:
    res = host.run(["nvcc", "--version"], timeout=timeout)
    if not res.available:
        for t in facts.toolkits:
            nvcc = posixpath.join(t["root"], "bin", "nvcc")
            if host.is_file(nvcc):
                res = host.run([nvcc, "--version"], timeout=timeout)
                break
    if not res.available:
        return
    if not res.ok:
        facts.errors.append(f"nvcc: {res.describe()}")
        return
    release = parse_nvcc_release(res.stdout)
    if release is None:
        facts.errors.append("nvcc --version: no 'release X.Y, VX.Y.Z' in its output")
    facts.nvcc_version = release


def parse_nvcc_release(text: str) -> Optional[str]:
    m = _NVCC_RELEASE.search(text or "")
    return m.group(1) if m else None


def parse_cudnn_header(text: str) -> Optional[str]:
    """"8.5.0" from the CUDNN_MAJOR/MINOR/PATCHLEVEL defines, or None."""
    found = {k: v for k, v in _CUDNN_DEFINE.findall(text or "")}
    if "MAJOR" not in found:
        return None
    return ".".join([found["MAJOR"], found.get("MINOR", "0"), found.get("PATCHLEVEL", "0")])


def _cudnn_header_candidates(host: Host, facts: CudaFacts) -> List[str]:
    inc_dirs = [posixpath.join(t["root"], "include") for t in facts.toolkits]
    inc_dirs += ["/usr/include", "/usr/include/x86_64-linux-gnu", "/usr/include/aarch64-linux-gnu",
                 "/usr/local/include"]
    for root in _conda_roots(host):
        inc_dirs.append(posixpath.join(root, "include"))
    out = []
    for d in inc_dirs:
        names = [n for n in _list_names(host, d) if n.startswith("cudnn")]  # /usr/include holds hundreds
        # cudnn_version.h since cuDNN 8; cudnn.h before; Debian packages version the names.
        ordered = [n for n in ("cudnn_version.h", "cudnn.h") if n in names]
        ordered += sorted(n for n in names if re.fullmatch(r"cudnn_version_v\d+\.h", n))
        ordered += sorted(n for n in names if re.fullmatch(r"cudnn_v\d+\.h", n))
        out.extend(posixpath.join(d, n) for n in ordered)
    return out


def _probe_cudnn(host: Host, facts: CudaFacts, lib_dirs) -> None:
    for d, _kind in lib_dirs:
        for name in _list_names(host, d):
            if name.startswith("libcudnn.so."):
                v = _version_from_name(name)
                path = posixpath.join(d, name)
                real = host.realpath(path)
                same = next((e for e in facts.cudnn_libs if host.realpath(e["path"]) == real), None)
                if same is not None:  # the same file through another link: once
                    same.setdefault("aliases", []).append(path)
                elif v and v.count(".") >= 1:
                    facts.cudnn_libs.append({"path": path, "version": v})
    for path in _cudnn_header_candidates(host, facts):
        text = host.read_text_or_none(path)
        if text is None:
            facts.errors.append(f"{path}: not readable")
            continue
        version = parse_cudnn_header(text)
        if version:
            facts.cudnn_version, facts.cudnn_source = version, path
            return
        if path.endswith(("cudnn_version.h",)) or re.search(r"cudnn_version_v\d+\.h$", path):
            facts.errors.append(f"{path}: no '#define CUDNN_MAJOR <n>' line, expected cuDNN's version header")
    if facts.cudnn_libs:
        best = max(facts.cudnn_libs, key=lambda e: version_key(e["version"]))
        facts.cudnn_version, facts.cudnn_source = best["version"], best["path"]
