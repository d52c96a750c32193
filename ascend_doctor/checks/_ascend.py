"""Shared reading of the Ascend facts for the install and devices checks (not a check module)."""

from __future__ import annotations

import posixpath
from typing import List, Optional, Tuple

from ..facts import CannFacts, CannInstall, Facts
from ..i18n import N_, _
from ..probes.cann import set_env_candidates

# soc family -> the <soc> part of the Ascend-cann-kernels-<soc> package name.
KERNELS_SOC = {"910B": "910b", "910_93": "910_93", "910": "910", "310P": "310p"}


def ascend_signs(facts: Facts, include_driver: bool = True) -> List[str]:
    """What on this host says it is meant to run Ascend (empty on a plain CPU/GPU machine)."""
    signs = []
    if facts.npu.dev_nodes:
        signs.append(_("{count} /dev/davinci device node(s)").format(count=len(facts.npu.dev_nodes)))
    if facts.npu.available:
        signs.append(_("npu-smi is installed"))
    if facts.cann.installs:
        signs.append(_("CANN at {roots}").format(roots=", ".join(i.root for i in facts.cann.installs)))
    if include_driver:
        if facts.driver.installed:
            signs.append(_("driver at {path}").format(path=facts.driver.version_file))
        elif facts.driver.install_info_path:
            signs.append(_("{path} exists").format(path=facts.driver.install_info_path))
    return signs


def driver_evidence(facts: Facts) -> Tuple[str, List[str]]:
    """Whether the NPU driver is here, decided from everything that shows it, and what showed it.

    "installed": its version.info is readable. "running": no version.info here, but the driver answers (npu-smi
    lists NPUs through the driver's management library, or hccn_tool answers for a device NIC): the usual
    container that mounts /dev/davinci*, npu-smi and the driver libraries but not version.info. "absent":
    nothing answers; device nodes or an install record alone do not show a usable driver.
    One place decides it, so two findings of a report never disagree about the driver.
    """
    d, npu, hccn = facts.driver, facts.npu, facts.hccn
    seen: List[str] = []
    if d.installed:
        seen.append(f"{d.version_file} (Version={d.version})" if d.version else
                    _("{path} (version unreadable)").format(path=d.version_file))
    if npu.available and npu.devices:
        seen.append(_("npu-smi lists {count} NPU(s) and reports driver {version}").format(
                    count=len(npu.devices), version=npu.driver_version) if npu.driver_version else
                    _("npu-smi lists {count} NPU(s)").format(count=len(npu.devices)))
    answered = [dev.device_id for dev in hccn.devices if dev.ip_queried or dev.link or dev.net_health]
    if answered:
        seen.append(_("hccn_tool answers for {count} device NIC(s)").format(count=len(answered)))
    if npu.dev_nodes:
        seen.append(_("{count} /dev/davinci device node(s)").format(count=len(npu.dev_nodes)))
    if d.installed:
        return "installed", seen
    if (npu.available and npu.devices) or answered:
        return "running", seen
    return "absent", seen


def target_install(cann: CannFacts) -> Optional[CannInstall]:
    """The install the environment uses, else the one a user should source: the judged install (one rule,
    CannFacts.choose, decided by probes.cann)."""
    return cann.judged_install


def set_env_path(inst: CannInstall) -> str:
    return inst.set_env or set_env_candidates(inst.root, inst.kind)[0]


def source_fix(inst: CannInstall) -> List[str]:
    path = set_env_path(inst)
    fix = [f"source {path}",
           _("echo 'source {path}' >> ~/.bashrc   # so every new shell, ssh session and launched worker has it")
           .format(path=path)]
    if inst.set_env is None:
        fix.append(_("({path} was not found: reinstall the CANN package if the file is missing)").format(path=path))
    return fix


def points_into(path: str, inst: CannInstall) -> bool:
    path = posixpath.normpath(path) if path else ""
    for base in filter(None, [inst.root, inst.resolved] + list(inst.aliases)):
        if path == base or path.startswith(base.rstrip("/") + "/"):
            return True
    return False


def install_of(facts: Facts, path: str) -> Optional[CannInstall]:
    for inst in facts.cann.installs:
        if points_into(path, inst):
            return inst
    return None


# An install named in prose by its kind: one message per kind, so Chinese says the install guide's package name
# (CANN 开发套件包（Toolkit）) where English says the kind as before ("toolkit 8.0.RC3 at ...").
_INSTALL_AT = {
    "toolkit": (N_("toolkit {release} at {root}"), N_("toolkit {release} at {root} (-> {resolved})")),
    "nnae": (N_("nnae {release} at {root}"), N_("nnae {release} at {root} (-> {resolved})")),
    "nnrt": (N_("nnrt {release} at {root}"), N_("nnrt {release} at {root} (-> {resolved})")),
}
_ANY_INSTALL_AT = (N_("{kind} {release} at {root}"), N_("{kind} {release} at {root} (-> {resolved})"))


def describe_install(inst: CannInstall) -> str:
    release = inst.release or _("release unknown")
    plain, resolved = _INSTALL_AT.get(inst.kind, _ANY_INSTALL_AT)
    if inst.resolved and inst.resolved != inst.root:
        return _(resolved).format(kind=inst.kind, release=release, root=inst.root, resolved=inst.resolved)
    return _(plain).format(kind=inst.kind, release=release, root=inst.root)


def run_file_name(inst: CannInstall) -> str:
    """The .run package name of an install (Ascend-cann-<kind>_<release>_linux-<arch>.run)."""
    kind = "toolkit" if inst.kind in ("toolkit", "cann", "legacy") else inst.kind
    return f"Ascend-cann-{kind}_{inst.release or '<release>'}_linux-{inst.arch or '<arch>'}.run"


NNAE_DEFAULT = "/usr/local/Ascend/nnae/latest"
# What a fixed-path MindSpore does when nnae sits at the default path: the version check reads
# /usr/local/Ascend/{nnae,ascend-toolkit,}/latest/compiler/version.info in that order (matrix checker.file_read,
# compat_facts.md table 1), and MindSpore 2.0's _check_version.py (AscendEnvChecker.set_env, index id 264564265)
# also points ASCEND_OPP_PATH, ASCEND_AICPU_PATH and the front of PATH and PYTHONPATH at that nnae on import.
FIXED_PATH_SOURCE = N_("mindspore/run_check/_check_version.py AscendEnvChecker: fixed default paths, nnae first "
                     "(matrix checker.file_read; MindSpore 2.0's set_env also sets ASCEND_OPP_PATH/ASCEND_AICPU_PATH "
                     "to that install)")


def nnae_wins(facts, matrix) -> Optional[Tuple[CannInstall, str, str]]:
    """(the nnae install, the installed MindSpore version, the first release that reads the environment instead)
    when the installed MindSpore reads CANN from fixed default paths and an nnae is at the default path; else None."""
    ms = facts.mindspore
    if not (ms.installed and ms.version) or matrix is None:
        return None
    row = matrix.mindspore_row(ms.version)
    if not row or not row["checker"]["file_read_kind"].startswith("fixed/"):
        return None
    nnae = next((i for i in facts.cann.installs if i.root.rstrip("/") == NNAE_DEFAULT), None)
    if nnae is None or len(facts.cann.installs) < 2:
        return None
    from ..versions import version_key

    later = sorted((r for r in matrix.mindspore_releases if not r["checker"]["file_read_kind"].startswith("fixed/")
                    and r["release_kind"] == "final"), key=lambda r: version_key(r["version"]))
    return nnae, ms.version, later[0]["version"] if later else _("a newer release")
