"""Every CANN install on the host, what release each is, and which one the environment uses.

CANN is installed as a toolkit (`ascend-toolkit/latest`), as nnae or nnrt (`nnae/latest`,
`nnrt/latest`), since 8.5 as `/usr/local/Ascend/cann` (-> `cann-<ver>`), by non-root users
under `$HOME/Ascend`, or anywhere `ASCEND_HOME_PATH` says (reference ascend_formats §1.1,
§1.5-1.7, §5.4). A machine often has several; `set_env.sh` decides which one a job uses,
so each is reported with its release and the one the environment points at is marked active.
Two names for one directory (`cann` and `ascend-toolkit/latest` -> `cann-8.5.0`) are one install.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from typing import Dict, List, Optional, Tuple

from .. import phrases
from ..i18n_text import Text, error_text
from ..facts import CannFacts, CannInstall
from ..host import FileMissing, Host, HostError
from .kv import get_ci, parse_version_cfg, read_key_value_file

ROOT_PREFIX = "/usr/local/Ascend"
CANN_INSTALL_INFO = "/etc/Ascend/ascend_cann_install.info"
# The variables set_env.sh exports that name an install root (or a directory inside one).
ROOT_VARS = ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_OPP_PATH", "ASCEND_AICPU_PATH")
# Which install-info file describes which kind of package.
_INFO_NAME = {"toolkit": "ascend_toolkit_install.info", "cann": "ascend_toolkit_install.info",
              "nnae": "ascend_nnae_install.info", "nnrt": "ascend_nnrt_install.info"}
_RELEASE_DIR = re.compile(r"^(?:cann-)?(\d+\.\d+\.[0-9A-Za-z.]+)$")
# Search order: the new layout first, so `cann` names an install that `ascend-toolkit/latest` also links to.
_LAYOUT = (("cann", "cann"), ("ascend-toolkit/latest", "toolkit"), ("nnae/latest", "nnae"),
           ("nnrt/latest", "nnrt"), ("latest", "toolkit"))


def _owner(path: str, home_base: Optional[str]) -> str:
    if path == ROOT_PREFIX or path.startswith(ROOT_PREFIX + "/"):
        return "root"
    if home_base and (path == home_base or path.startswith(home_base + "/")):
        return "user"
    return "custom"


def _kind_from_path(path: str) -> str:
    parts = path.split("/")
    if "nnae" in parts:
        return "nnae"
    if "nnrt" in parts:
        return "nnrt"
    if any(p == "cann" or p.startswith("cann-") for p in parts):
        return "cann"
    return "toolkit"


def _install_bases(host: Host, facts: CannFacts, home_base: Optional[str]) -> List[str]:
    bases = [ROOT_PREFIX]
    if home_base:
        bases.append(home_base)
    # The CANN package record names the prefix a custom --install-path used.
    records = [CANN_INSTALL_INFO] + ([posixpath.join(home_base, "ascend_cann_install.info")] if home_base else [])
    for record in records:
        values = read_key_value_file(host, record, "Install_Path=<prefix>", facts.errors)
        prefix = get_ci(values or {}, "Install_Path")
        if prefix and prefix.startswith("/"):
            prefix = posixpath.normpath(prefix)
            if prefix not in bases:
                bases.append(prefix)
    return bases


def _candidates(host: Host, bases: List[str]) -> List[Tuple[str, str]]:
    found: List[Tuple[str, str]] = []
    for base in bases:
        for sub, kind in _LAYOUT:
            found.append((posixpath.join(base, sub), kind))
            if sub == "cann":
                found.extend((p, "cann") for p in host.glob(posixpath.join(base, "cann-*")))
        # CANN <= 5.x could install fwkacllib straight into the prefix.
        if host.is_dir(posixpath.join(base, "fwkacllib")):
            found.append((base, "legacy"))
    for var in ROOT_VARS:
        value = host.env.get(var, "").strip().rstrip("/")
        if not value.startswith("/"):
            continue
        if var == "ASCEND_OPP_PATH" and value.endswith("/opp"):
            value = value[: -len("/opp")]
        found.append((posixpath.normpath(value), _kind_from_path(value)))
    return found


def _pick_install_info(host: Host, root: str, kind: str) -> Optional[str]:
    want = _INFO_NAME.get(kind)
    paths = host.glob(posixpath.join(root, "*-linux", "ascend_*_install.info")) + \
        host.glob(posixpath.join(root, "ascend_*_install.info"))
    for p in paths:
        if want and posixpath.basename(p) == want:
            return p
    return paths[0] if paths else None


def _inspect(host: Host, root: str, kind: str, owner: str, resolved: str, facts: CannFacts) -> CannInstall:
    inst = CannInstall(root=root, kind=kind, owner=owner, resolved=resolved)
    inst.has_fwkacllib = host.is_dir(posixpath.join(root, "fwkacllib"))
    if inst.has_fwkacllib and not host.is_dir(posixpath.join(root, "compiler")):
        inst.kind = "legacy"

    info_path = _pick_install_info(host, root, kind)
    if info_path:
        inst.install_info_path = info_path
        info = read_key_value_file(host, info_path, Text(phrases.CANN_ASCEND_INFO), inst.errors) or {}
        inst.release = get_ci(info, "version") or None
        inst.innerversion = get_ci(info, "innerversion") or None
        inst.arch = get_ci(info, "arch") or None

    cfg_path = posixpath.join(root, "version.cfg")
    try:
        cfg_text = host.read_text(cfg_path)
    except FileMissing:
        cfg_text = None
    except HostError as exc:  # a directory, a link loop, too large: a problem to report, not an absence
        inst.errors.append(Text(phrases.UNREADABLE_FILE, error=error_text(exc),
                                expected=Text(phrases.CANN_CFG_LINES)))
        cfg_text = ""
    if cfg_text is not None:
        cfg = parse_version_cfg(cfg_text)
        inst.version_cfg = {comp: v["release"] for comp, v in cfg.items()}
        if not cfg:
            inst.errors.append(Text(phrases.CANN_CFG_NO_LINE, path=cfg_path))

    try:
        entries = host.listdir(root)
    except HostError as exc:
        inst.errors.append(Text(phrases.UNREADABLE_FILE, error=error_text(exc),
                                expected=Text(phrases.CANN_COMPONENT_DIRS)))
        entries = []
    for name in entries:
        if name in ("driver", "firmware"):  # a legacy root is the HDK prefix itself: not CANN parts
            continue
        vpath = posixpath.join(root, name, "version.info")
        if not host.is_dir(posixpath.join(root, name)):
            continue
        values = read_key_value_file(host, vpath, Text(phrases.CANN_COMPONENT_VERSION, name=name), inst.errors)
        if not values:
            continue
        version = get_ci(values, "Version")
        if version:
            inst.components[name] = version
        else:
            inst.errors.append(Text(phrases.NO_VERSION_LINE, path=vpath, example="Version=7.6.0.1.220"))
        if get_ci(values, "version_dir"):
            inst.version_dirs[name] = get_ci(values, "version_dir")
    # What MindSpore reads: compiler/version.info (fwkacllib/version.info before MindSpore 1.9).
    inst.compiler_version = inst.components.get("compiler") or (
        inst.components.get("fwkacllib") if inst.kind == "legacy" else None)

    if not inst.release:
        inst.release = _release_from_other_files(inst, resolved)
    if not inst.arch:
        arch_dirs = [posixpath.basename(p)[: -len("-linux")] for p in host.glob(posixpath.join(root, "*-linux"))]
        inst.arch = arch_dirs[0] if len(arch_dirs) == 1 else None
    running = set(inst.version_cfg.values())
    if len(running) > 1:
        inst.errors.append(Text(phrases.CANN_RELEASES_DIFFER, path=cfg_path, releases=sorted(running)))

    inst.has_opp = host.is_dir(posixpath.join(root, "opp"))
    # The kernels package installs opp_kernel/ (8.x) or prebuilt kernels under the tbe tree (older).
    inst.has_opp_kernel = host.is_dir(posixpath.join(root, "opp_kernel")) or host.is_dir(
        posixpath.join(root, "opp", "built-in", "op_impl", "ai_core", "tbe", "kernel"))
    site = posixpath.join(root, "python", "site-packages")
    inst.has_te = host.is_dir(posixpath.join(site, "te")) or bool(host.glob(posixpath.join(site, "te-*.dist-info")))
    inst.set_env = _set_env_for(host, root, inst.kind)
    _find_dangling(host, root, entries, facts)
    return inst


def _release_from_other_files(inst: CannInstall, resolved: str) -> Optional[str]:
    if inst.version_cfg:
        return Counter(inst.version_cfg.values()).most_common(1)[0][0]
    for comp in ("compiler", "runtime", "opp", "toolkit"):
        vd = inst.version_dirs.get(comp)
        if vd and vd != "cann":  # the new layout writes version_dir=cann: not a release
            return vd
    m = _RELEASE_DIR.match(posixpath.basename(resolved or ""))
    return m.group(1) if m else None


def content_dir(host: Host, root: str) -> str:
    """The directory an install's files really live in.

    `ascend-toolkit/latest` is a real directory whose entries link into `../<release>/`
    (§1.1), so its own realpath is itself; following `latest/compiler` finds `<release>/`.
    This is what makes `latest` and `$ASCEND_HOME_PATH=.../<release>` one install.
    """
    for marker in ("compiler", "runtime", "opp", "fwkacllib"):
        path = posixpath.join(root, marker)
        if host.is_dir(path):
            target = host.realpath(path)
            if posixpath.basename(target) == marker:
                return posixpath.dirname(target)
    return host.realpath(root)


def set_env_candidates(root: str, kind: str) -> List[str]:
    """Where the set_env.sh for this install lives, most likely first (§5.4)."""
    parent = posixpath.dirname(root)
    if root.endswith("/latest"):
        return [posixpath.join(parent, "set_env.sh"), posixpath.join(root, "set_env.sh")]
    return [posixpath.join(root, "set_env.sh"), posixpath.join(parent, "set_env.sh")]


def _set_env_for(host: Host, root: str, kind: str) -> Optional[str]:
    for path in set_env_candidates(root, kind):
        if host.is_file(path):
            return path
    return None


def dangling_target(host: Host, path: str) -> Optional[str]:
    """The missing target when `path` itself is a symbolic link to nothing, else None."""
    if host.exists(path):
        return None
    target = host.realpath(path)
    parent = host.realpath(posixpath.dirname(path))
    if target == posixpath.join(parent, posixpath.basename(path)):
        return None  # simply absent, not a link
    return None if host.exists(target) else target


def _find_dangling(host: Host, root: str, entries: List[str], facts: CannFacts) -> None:
    # `latest/` is a directory of links into the versioned directory (§1.1); an uninstall
    # or a half-finished upgrade leaves links whose target is gone.
    for name in entries:
        path = posixpath.join(root, name)
        target = dangling_target(host, path)
        if target:
            facts.dangling_links[path] = target


def probe_cann(host: Host, options) -> CannFacts:
    facts = CannFacts()
    home = (host.env.get("HOME") or "").rstrip("/")
    home_base = posixpath.join(home, "Ascend") if home.startswith("/") else None
    bases = _install_bases(host, facts, home_base)

    groups: Dict[str, List[Tuple[str, str]]] = {}
    order: List[str] = []
    for root, kind in _candidates(host, bases):
        if not host.is_dir(root):
            target = dangling_target(host, root)
            if target:
                facts.dangling_links[root] = target
            continue
        resolved = content_dir(host, root)
        if resolved not in groups:
            groups[resolved] = []
            order.append(resolved)
        if (root, kind) not in groups[resolved]:
            groups[resolved].append((root, kind))

    env_literal = {host.env.get(v, "").rstrip("/") for v in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME")}
    for resolved in order:
        names = groups[resolved]
        # Name the install as the environment names it, else by the first layout that found it.
        root, kind = next(((r, k) for r, k in names if r in env_literal), names[0])
        if any(k == "cann" for _, k in names):
            kind = "cann"
        inst = _inspect(host, root, kind, _owner(root, home_base), resolved, facts)
        inst.aliases = sorted({r for r, _ in names if r not in (root, resolved)})
        facts.installs.append(inst)

    _mark_active(host, facts)
    facts.judged = facts.choose()  # derived once here; every check and node_facts read it
    for sp in host.python.site_packages:
        if host.is_dir(posixpath.join(sp, "te")):
            facts.te_in_python = posixpath.join(sp, "te")
            break
    return facts


def install_for_path(host: Host, facts: CannFacts, value: str) -> Optional[CannInstall]:
    """The install a path (an env value) points into, by name or after resolving links."""
    value = posixpath.normpath(value.strip()) if value.strip() else ""
    if not value.startswith("/"):
        return None
    real = host.realpath(value)
    for inst in facts.installs:
        for base in filter(None, [inst.root, inst.resolved] + inst.aliases):
            for candidate in (value, real):
                if candidate == base or candidate.startswith(base + "/"):
                    return inst
    return None


def _mark_active(host: Host, facts: CannFacts) -> None:
    facts.env_points_to = host.env.get("ASCEND_HOME_PATH") or host.env.get("ASCEND_TOOLKIT_HOME") or None
    chosen = None
    for var in ROOT_VARS:
        value = host.env.get(var)
        if value is None:
            continue
        inst = install_for_path(host, facts, value)
        facts.env_roots[var] = inst.root if inst else None
        if chosen is None and inst is not None:
            chosen = inst
    if chosen is not None:
        chosen.active = True
        facts.active_root = chosen.root
