"""The installed MindSpore, read from files only: the doctor must work where `import mindspore` fails.

What is read (reference/compat_facts.md §3.6, §4.1, table 1):

* `<site-packages>/mindspore*.dist-info/`: METADATA (Name, Version, Requires-Python),
  WHEEL (Tag lines), top_level.txt (to tell the framework from mindspore_lite,
  mindspore_gs ...), direct_url.json (the URL pip installed from; MindSpore 1.x GPU
  wheels were downloaded from `.../gpu/x86_64/cuda-11.1/...`, the only place their
  CUDA version is written).
* `<site-packages>/mindspore/`: version.py, .commit_id, the compiled extension
  names (`_c_expression.cpython-311-x86_64-linux-gnu.so` says which Python the
  binaries load in), `lib/` and `lib/plugin/` (which device backends the install
  carries; `libmindspore_gpu.so.11.6` says the CUDA a GPU plugin was built for),
  `run_check/_check_version.py` (the CANN and CUDA lists MindSpore itself accepts)
  and `lib/plugin/ascend/*/version.info` (`custom_opp_compiler_version=`).

The x86_64 Linux `mindspore` wheel since 2.0 is one package for every device
(it carries cpu, gpu and ascend plugins): its flavour is "unified", and
`backends` lists what it can run on.
"""

from __future__ import annotations

import json
import posixpath
import re
from typing import Dict, List, Optional

from .. import phrases
from ..i18n_text import Text, error_text
from ..facts import MindSporeFacts
from ..host import Host
from ..lazyre import lazy_compile
from ..versions import version_key

_DIST_DIR = lazy_compile(r"^(mindspore[A-Za-z0-9_.\-]*?)-([^-]+)\.(dist-info|egg-info)$", re.I)
# Framework distributions when top_level.txt is missing (MindSpore's own names, compat_facts table 1 and the
# install guides: mindspore, mindspore-ascend, mindspore-gpu, mindspore-cuda10-dev, mindspore-cuda11-dev ...).
_FRAMEWORK_NAME = lazy_compile(r"^mindspore(?:[-_](?:ascend|gpu|cpu|cuda\d+|dev))*$", re.I)
_EXT_PYTHON = lazy_compile(r"^_c_expression\.cpython-(\d)(\d+)[^.]*\.so$")
_PY_VERSION_ASSIGN = lazy_compile(r"""^__version__\s*=\s*['"]([^'"]+)['"]""", re.M)
_PACKAGE_NAME_ASSIGN = lazy_compile(r"""^__package_name__\s*=\s*['"]([^'"]+)['"]""", re.M)
_COMMIT_ID = lazy_compile(r"(\[sha1\]:[^'\"\n]+)")
_LIST_ASSIGN = lazy_compile(r"self\.version\s*=\s*\[([^\]]*)\]")
_QUOTED = lazy_compile(r"""['"]([^'"]+)['"]""")
_URL_CUDA = lazy_compile(r"/cuda-(\d+(?:\.\d+)?)/")
_NAME_CUDA = lazy_compile(r"cuda(\d+)", re.I)
_LOCAL_CUDA = lazy_compile(r"\+.*?cu(?:da)?(\d+)\.?(\d+)?", re.I)
_GPU_PLUGIN_LIB = lazy_compile(r"^libmindspore_gpu\.so(?:\.(\d+\.\d+))?$")
_GPU_PLUGIN_DIR = lazy_compile(r"^gpu(\d+\.\d+)$")


def probe_mindspore(host: Host, options) -> MindSporeFacts:
    facts = MindSporeFacts()
    site_packages = list(host.python.site_packages)
    if not site_packages:
        facts.errors.append(Text(phrases.MS_NO_SITE_PACKAGES))
        return facts

    found = []
    for sp in site_packages:
        try:
            names = host.listdir(sp)
        except Exception as exc:  # HostError: unreadable directory
            facts.errors.append(Text(phrases.MS_CANNOT_LIST, path=sp, error=error_text(exc)))
            continue
        for name in names:
            m = _DIST_DIR.match(name)
            if not m:
                continue
            dist = _read_dist(host, sp, name, m.group(3).lower(), facts)
            if dist is not None:
                found.append(dist)
    facts.distributions = [{"name": d["name"], "version": d["version"] or "", "location": d["location"],
                            "dist_info": d["dist_info"]} for d in found]
    if not found:
        return facts

    by_location: Dict[str, list] = {}
    for d in found:
        by_location.setdefault(d["location"], []).append(d)
    for loc, dists in by_location.items():
        if len(dists) > 1:
            facts.errors.append(Text(phrases.MS_SIDE_BY_SIDE, path=loc, count=len(dists),
                                     dists=", ".join(d["name"] + " " + (d["version"] or "?") for d in dists)))

    # The first site-packages on sys.path that holds a mindspore/ package is the one `import mindspore` uses.
    primary = None
    for sp in site_packages:
        if sp in by_location and host.is_dir(posixpath.join(sp, "mindspore")):
            primary = _pick_dist(host, by_location[sp])
            break
    if primary is None:
        primary = found[0]
    _fill_from_dist(facts, primary)
    _fill_from_package(host, facts, posixpath.join(primary["location"], "mindspore"))
    _decide_flavour(facts, primary)
    return facts


def _read_dist(host: Host, sp: str, dirname: str, kind: str, facts: MindSporeFacts) -> Optional[dict]:
    d = posixpath.join(sp, dirname)
    meta_name = "METADATA" if kind == "dist-info" else "PKG-INFO"
    meta_path = posixpath.join(d, meta_name)
    text = host.read_text_or_none(meta_path)
    meta = parse_metadata(text or "")
    if text is None:
        facts.errors.append(Text(phrases.MS_NO_METADATA, path=meta_path))
    name = meta.get("Name") or _DIST_DIR.match(dirname).group(1)
    top_level = host.read_text_or_none(posixpath.join(d, "top_level.txt"))
    if top_level is not None:
        if "mindspore" not in [ln.strip() for ln in top_level.splitlines()]:
            return None  # mindspore_lite, mindspore_gs, mindspore_serving ...: not the framework
    elif not _FRAMEWORK_NAME.match(name.replace("_", "-")):
        return None
    if text is not None and not meta.get("Version"):
        facts.errors.append(Text(phrases.MS_NO_VERSION_FIELD, path=meta_path))
    wheel_text = host.read_text_or_none(posixpath.join(d, "WHEEL")) if kind == "dist-info" else None
    url = None
    du = host.read_text_or_none(posixpath.join(d, "direct_url.json"))
    if du is not None:
        try:
            url = (json.loads(du) or {}).get("url")
        except (ValueError, AttributeError):
            facts.errors.append(Text(phrases.MS_BAD_DIRECT_URL, path=posixpath.join(d, "direct_url.json")))
    return {
        "name": name,
        "version": meta.get("Version") or _DIST_DIR.match(dirname).group(2),
        "requires_python": meta.get("Requires-Python"),
        "wheel_tags": parse_wheel_tags(wheel_text or ""),
        "location": sp,
        "dist_info": d,
        "url": url,
    }


def parse_metadata(text: str) -> Dict[str, str]:
    """Header fields of a METADATA / PKG-INFO file (first occurrence wins; the body after a blank line is ignored)."""
    out: Dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            break
        if line[:1] in (" ", "\t") or ":" not in line:
            continue
        key, _, value = line.partition(":")
        out.setdefault(key.strip(), value.strip())
    return out


def parse_wheel_tags(text: str) -> List[str]:
    return [line.split(":", 1)[1].strip() for line in text.splitlines()
            if line.startswith("Tag:") and line.split(":", 1)[1].strip()]


def _pick_dist(host: Host, dists: list) -> dict:
    if len(dists) == 1:
        return dists[0]
    text = host.read_text_or_none(posixpath.join(dists[0]["location"], "mindspore", "version.py")) or ""
    m = _PY_VERSION_ASSIGN.search(text)
    if m:
        for d in dists:
            if _same_version(d["version"], m.group(1)):
                return d
    return dists[0]


def _same_version(a: Optional[str], b: str) -> bool:
    norm = lambda v: (v or "").lower().replace("-", "").replace("_", "")  # noqa: E731  2.0.0-rc1 == 2.0.0rc1
    return norm(a) == norm(b)


def _fill_from_dist(facts: MindSporeFacts, dist: dict) -> None:
    facts.installed = True
    facts.dist_name = dist["name"]
    facts.version = dist["version"]
    facts.location = dist["location"]
    facts.dist_info = dist["dist_info"]
    facts.requires_python = dist["requires_python"]
    facts.wheel_tags = dist["wheel_tags"]


def _fill_from_package(host: Host, facts: MindSporeFacts, pkg: str) -> None:
    if not host.is_dir(pkg):
        facts.errors.append(Text(phrases.MS_PACKAGE_MISSING, path=pkg, dist_info=facts.dist_info))
        return
    facts.package_dir = pkg
    names = _listdir(host, pkg)

    text = host.read_text_or_none(posixpath.join(pkg, "version.py"))
    if text is not None:
        m = _PY_VERSION_ASSIGN.search(text)
        if m and facts.version and not _same_version(facts.version, m.group(1)):
            facts.errors.append(Text(phrases.MS_VERSION_PY_DIFFERS, path=pkg, found=m.group(1),
                                     dist_info=facts.dist_info, version=facts.version))

    commit = host.read_text_or_none(posixpath.join(pkg, ".commit_id"))
    if commit is not None:
        m = _COMMIT_ID.search(commit)
        facts.commit_id = m.group(1).strip() if m else (commit.strip()[:200] or None)

    for n in names:
        m = _EXT_PYTHON.match(n)
        if m:
            v = f"{m.group(1)}.{m.group(2)}"
            if v not in facts.extension_pythons:
                facts.extension_pythons.append(v)

    checker_path = posixpath.join(pkg, "run_check", "_check_version.py")
    checker = host.read_text_or_none(checker_path)
    if checker is not None:
        facts.accepted_cann = parse_checker_list(checker, "AscendEnvChecker")
        facts.accepted_cuda = parse_checker_list(checker, "GPUEnvChecker")
        if "class AscendEnvChecker" in checker and not facts.accepted_cann:
            facts.errors.append(Text(phrases.MS_NO_CHECKER_LIST, path=checker_path))

    for vi in host.glob(posixpath.join(pkg, "lib", "plugin", "ascend", "*", "version.info")):
        text = host.read_text_or_none(vi)
        if text is None:
            facts.errors.append(Text(phrases.MS_NOT_READABLE, path=vi))
            continue
        m = re.search(r"^\s*custom_opp_compiler_version\s*=\s*(\S+)", text, re.M)
        if m:  # other version.info files there (shmem ...) carry other formats
            facts.custom_ops_cann[posixpath.basename(posixpath.dirname(vi))] = m.group(1)

    _scan_backends(host, facts, pkg)


def parse_checker_list(source: str, class_name: str) -> List[str]:
    """`self.version = [...]` inside `class <class_name>` of MindSpore's run_check/_check_version.py."""
    start = source.find(f"class {class_name}")
    if start < 0:
        return []
    nxt = source.find("\nclass ", start + 1)
    body = source[start: nxt if nxt > 0 else len(source)]
    m = _LIST_ASSIGN.search(body)
    return _QUOTED.findall(m.group(1)) if m else []


def _listdir(host: Host, path: str) -> List[str]:
    try:
        return host.listdir(path)
    except Exception:  # HostError: absent or unreadable
        return []


def _scan_backends(host: Host, facts: MindSporeFacts, pkg: str) -> None:
    lib = posixpath.join(pkg, "lib")
    plugin = posixpath.join(lib, "plugin")
    lib_names = _listdir(host, lib)
    plugin_names = _listdir(host, plugin)
    backends = set()
    cuda = []
    sources = []
    for n in plugin_names + lib_names:
        if n.startswith("libmindspore_ascend.so") or (n == "ascend" and host.is_dir(posixpath.join(plugin, n))):
            backends.add("ascend")
        if n.startswith(("libmindspore_cpu.so", "libmindspore_ops_cpu.so")) or n == "cpu":
            backends.add("cpu")
        m = _GPU_PLUGIN_LIB.match(n)
        if m:
            backends.add("gpu")
            if m.group(1) and m.group(1) not in cuda:
                cuda.append(m.group(1))
                sources.append(f"lib/plugin/{n}" if n in plugin_names else f"lib/{n}")
        m = _GPU_PLUGIN_DIR.match(n)
        if m and n in plugin_names:
            backends.add("gpu")
            if m.group(1) not in cuda:
                cuda.append(m.group(1))
                sources.append(f"lib/plugin/{n}/")
        if n == "gpu" and n in plugin_names:
            backends.add("gpu")
    facts.backends = sorted(backends)
    if cuda:
        facts.gpu_cuda_versions = sorted(cuda, key=version_key)
        facts.cuda_version_source = Text(phrases.MS_CUDA_FILE_NAMES, files=", ".join(sources))


def _decide_flavour(facts: MindSporeFacts, dist: dict) -> None:
    name = (facts.dist_name or "").lower().replace("_", "-")
    accel = [b for b in facts.backends if b != "cpu"]
    if len(accel) >= 2:
        facts.flavour = "unified"
        facts.flavour_source = Text(phrases.MS_LIB_PLUGINS, dir=facts.package_dir, backends=", ".join(facts.backends))
    elif accel:
        facts.flavour = accel[0]
        facts.flavour_source = Text(phrases.MS_LIB_PLUGIN, dir=facts.package_dir, backend=accel[0])
    elif "gpu" in name or "cuda" in name:
        facts.flavour, facts.flavour_source = "gpu", Text(phrases.MS_DIST_NAME, name=facts.dist_name)
    elif "ascend" in name:
        facts.flavour, facts.flavour_source = "ascend", Text(phrases.MS_DIST_NAME, name=facts.dist_name)
    elif "cpu" in facts.backends:
        facts.flavour = "cpu"
        facts.flavour_source = Text(phrases.MS_LIB_CPU_ONLY, dir=facts.package_dir)
    elif name == "mindspore" and (facts.version or "").startswith("1."):
        # In 1.x the plain `mindspore` distribution was the CPU build (GPU and Ascend had their own names).
        facts.flavour, facts.flavour_source = "cpu", Text(phrases.MS_DIST_NAME_1X, name=facts.dist_name,
                                                         version=facts.version)
    else:
        facts.flavour, facts.flavour_source = "unknown", phrases.MS_NOTHING_SAYS
    if facts.flavour in ("gpu", "ascend") and facts.flavour not in facts.backends:
        facts.backends = sorted(set(facts.backends) | {facts.flavour, "cpu"})

    if facts.flavour in ("gpu", "unified") or "gpu" in facts.backends:
        _gpu_cuda_from_names(facts, dist, name)
    if facts.gpu_cuda_versions:
        facts.cuda_version = facts.gpu_cuda_versions[-1] if len(facts.gpu_cuda_versions) == 1 else None


def _gpu_cuda_from_names(facts: MindSporeFacts, dist: dict, name: str) -> None:
    if facts.gpu_cuda_versions:
        return
    url = dist.get("url") or ""
    m = _URL_CUDA.search(url)
    if m:
        facts.gpu_cuda_versions = [m.group(1)]
        facts.cuda_version_source = Text(phrases.MS_DIRECT_URL, dist_info=dist["dist_info"], url=url)
        return
    m = _LOCAL_CUDA.search(facts.version or "")
    if m:
        facts.gpu_cuda_versions = [m.group(1) + ("." + m.group(2) if m.group(2) else "")]
        facts.cuda_version_source = Text(phrases.MS_LOCAL_VERSION, version=facts.version)
        return
    m = _NAME_CUDA.search(name)
    if m:
        facts.gpu_cuda_versions = [m.group(1)]
        facts.cuda_version_source = Text(phrases.MS_DIST_NAME_MAJOR, name=facts.dist_name)
