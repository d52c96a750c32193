"""Is the Ascend software installed, complete, and set up in this shell?

Driver and firmware (HDK), the CANN installs, and the environment `set_env.sh`
exports (reference ascend_formats §7.1 V1, V2, V7, V9, V13; §5.4; pitfalls P08, P23).
Version *pairings* between them are checked by the compat area, not here.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from ..findings import ERROR, FAIL, PASS, SKIP, WARN
from ..i18n import N_, _, sentences
from ..i18n_text import join, localized
from ..versions import parse_version
from . import check
from ._ascend import (FIXED_PATH_SOURCE, KERNELS_SOC, ascend_signs, describe_install, driver_evidence, install_of,
                      nnae_wins, points_into, run_file_name, set_env_path, source_fix, target_install)

NO_ASCEND = N_("No Ascend hardware or software on this machine (no /dev/davinci*, npu-smi, driver or CANN).")


def _container_mount_hint(ctx, what: str) -> List[str]:
    if ctx.facts.system.container:
        return [_("in a container, mount it from the host: docker run -v {path}:{path}:ro ...").format(path=what)]
    return []


@check("install.driver_present", "NPU driver installed",
       fail="No NPU driver found", warn="NPU driver answers, but its version.info is not visible", error="NPU driver version unreadable",
       skip="No NPU driver to check (no Ascend parts here)")
def check_driver_present(ctx):
    d = ctx.facts.driver
    # Not installed here means the driver itself is no sign; /etc/ascend_install.info left behind is one.
    signs = ascend_signs(ctx.facts)
    ev: Dict[str, object] = {"version.info": d.version_file, "install info": d.install_info_path or _("not found")}
    if d.errors:
        ev["problems"] = [localized(e) for e in d.errors]
    if d.installed and d.version:
        ev["version"] = d.version
        if d.innerversion:
            ev["innerversion"] = d.innerversion
        return ctx.finding(PASS, summary=_("driver {version} ({path})").format(version=d.version, path=d.version_file),
                           evidence=ev)
    if d.installed:
        return ctx.finding(ERROR,
                           summary=_("{path} exists but its version could not be read, so the driver "
                                     "version is unknown and version checks cannot run.").format(path=d.version_file),
                           evidence=ev,
                           fix=[_("cat {path}   # should start with a line like Version=24.1.rc3").format(path=d.version_file),
                                _("./Ascend-hdk-<chip>-npu-driver_<version>_linux-<arch>.run --full --install-for-all   "
                                  "# only if the file is damaged: reinstalls the driver package")])
    if not signs:
        return ctx.finding(SKIP, summary=_(NO_ASCEND), evidence=ev)
    ev["Ascend signs"] = signs
    prefix = d.version_file.rsplit("/driver/", 1)[0] if d.version_file else "/usr/local/Ascend"
    state, seen = driver_evidence(ctx.facts)
    if state == "running":
        # The driver answers; only its version file is not visible (a container that does not mount it).
        ev["driver answers"] = seen
        version = ctx.facts.npu.driver_version
        vfile = d.version_file or f"{prefix}/driver/version.info"
        seen_text = _("; ").join(seen)
        if ctx.facts.system.container:
            first = (_("The NPU driver is present and answering ({seen}), but {path} is not visible into the container, "
                       "so the driver's accepted firmware and CANN lists cannot be read; version checks use npu-smi's "
                       "driver version {version} instead.") if version else
                     _("The NPU driver is present and answering ({seen}), but {path} is not visible into the container, "
                       "so the driver's accepted firmware and CANN lists cannot be read; the driver version is unknown."))
        else:
            first = (_("The NPU driver is present and answering ({seen}), but {path} is not visible here, so the "
                       "driver's accepted firmware and CANN lists cannot be read; version checks use npu-smi's driver "
                       "version {version} instead.") if version else
                     _("The NPU driver is present and answering ({seen}), but {path} is not visible here, so the "
                       "driver's accepted firmware and CANN lists cannot be read; the driver version is unknown."))
        return ctx.finding(WARN,
            summary=sentences(first.format(seen=seen_text, path=vfile, version=version),
                              _("Usual in a container that does not mount that file.")),
            evidence=ev,
            fix=[_("docker run -v {path}:{path}:ro ...   # mount {path} into the container (read-only), as the "
                   "Ascend container runtime does").format(path=vfile) if ctx.facts.system.container else
                 _("ls -l {path}   # the driver package installs it; reinstall the driver package if it is missing")
                 .format(path=vfile),
                 _("npu-smi info   # the driver version the NPUs run")])
    return ctx.finding(FAIL,
        summary=sentences(_("This machine has Ascend parts ({signs}) but no working NPU driver: {path} does not "
                            "exist and neither npu-smi nor hccn_tool answers.").format(signs=_("; ").join(signs),
                                                                                      path=d.version_file),
                          _("Nothing can run on the NPU without the driver.")),
        evidence=ev,
        fix=[_("cat /etc/ascend_install.info   # Driver_Install_Path_Param= says where the driver was installed"),
             f"ls {prefix}/driver",
             *_container_mount_hint(ctx, f"{prefix}/driver"),
             _("./Ascend-hdk-<chip>-npu-driver_<version>_linux-<arch>.run --full --install-for-all   "
               "# installs the driver (as root); reboot afterwards")])


@check("install.firmware_present", "NPU firmware installed", pitfalls=["P24"],
       warn="NPU firmware version unknown (no firmware version.info)", error="NPU firmware version unreadable",
       skip="No NPU firmware to check (no Ascend parts here)")
def check_firmware_present(ctx):
    fw = ctx.facts.firmware
    ev: Dict[str, object] = {"version.info": fw.version_file}
    if fw.errors:
        ev["problems"] = [localized(e) for e in fw.errors]
    if fw.installed and fw.version:
        ev["version"] = fw.version
        return ctx.finding(PASS, summary=_("firmware {version} ({path})").format(version=fw.version, path=fw.version_file),
                           evidence=ev)
    if fw.installed:
        return ctx.finding(ERROR,
                           summary=_("{path} exists but its version could not be read, so driver/firmware "
                                     "compatibility cannot be checked.").format(path=fw.version_file),
                           evidence=ev,
                           fix=[_("ls -l {path}; cat {path}   # expected Version=<5-part number>").format(path=fw.version_file),
                                _("npu-smi info -t board -i 0   # shows the firmware the NPU is running")])
    if not ascend_signs(ctx.facts):
        return ctx.finding(SKIP, summary=_(NO_ASCEND), evidence=ev)
    in_container = bool(ctx.facts.system.container)
    return ctx.finding(WARN,
        summary=(_("No firmware version.info at {path} (normal in a container that mounts only the driver).")
                 if in_container else
                 _("No firmware version.info at {path}; without it the doctor cannot tell whether the firmware matches "
                   "the driver.")).format(path=fw.version_file),
        evidence=ev,
        fix=[_("npu-smi info -t board -i 0 | grep -i -e firmware -e compat   # the running firmware and npu-smi's verdict"),
             _("./Ascend-hdk-<chip>-npu-firmware_<version>.run --full   # the firmware of the driver's HDK release, "
               "as root, then reboot")],
        pitfall="P24")


@check("install.cann_present", "CANN installed",
       fail="No CANN installed", warn="No CANN installed",
       skip="No CANN to check (no Ascend parts here)")
def check_cann_present(ctx):
    cann = ctx.facts.cann
    if cann.installs:
        ev = {i.root: describe_install(i) for i in cann.installs}
        problems = list(cann.errors) + [e for i in cann.installs for e in i.errors]
        damaged = [i for i in cann.installs if i.errors] or cann.installs
        names = _("; ").join(describe_install(i) for i in cann.installs)
        if not problems:
            return ctx.finding(PASS, summary=names, evidence=ev)
        ev["problems"] = [localized(p) for p in problems]
        return ctx.finding(WARN, title=_("CANN found, but its version files are damaged"),
            summary=_("Found {installs}, but {count} of its version files are empty, garbled or unreadable, so its "
                      "release and version checks may be wrong.").format(installs=names, count=len(problems)),
            evidence=ev,
            fix=[_("ls -l {paths}   # the files named above").format(
                     paths=" ".join(sorted({p.split(":", 1)[0] for p in problems}))),
                 _("./{package} --install   # only if they are damaged: reinstalls the CANN package").format(
                     package=run_file_name(damaged[0]))])
    signs = ascend_signs(ctx.facts)
    if not signs:
        return ctx.finding(SKIP, summary=_(NO_ASCEND))
    ev = {"Ascend signs": signs, "searched": ["/usr/local/Ascend/{ascend-toolkit,nnae,nnrt}/latest",
                                               "/usr/local/Ascend/cann", "$HOME/Ascend/...", "$ASCEND_HOME_PATH"]}
    if cann.errors:
        ev["problems"] = [localized(e) for e in cann.errors]
    needs_it = ctx.facts.mindspore.installed
    state, seen = driver_evidence(ctx.facts)
    if state != "absent":
        summary = _("The NPU driver is here ({seen}) but no CANN toolkit/nnae was found; MindSpore on Ascend needs "
                    "CANN to compile and run anything on the NPU.").format(seen=_("; ").join(seen))
    else:
        summary = _("This machine has Ascend parts ({signs}), though no working driver (see install.driver_present), "
                    "but no CANN toolkit/nnae was found; MindSpore on Ascend needs CANN to compile and run anything on "
                    "the NPU.").format(signs=_("; ").join(signs))
    return ctx.finding(FAIL if needs_it else WARN,
        summary=summary if needs_it else sentences(summary,
                                                   _("(Fine if this host only runs containers that bring CANN.)")),
        evidence=ev,
        fix=[_("./Ascend-cann-toolkit_<release>_linux-<arch>.run --install   # the CANN toolkit of the release your "
               "MindSpore version needs (as root, or as a user into $HOME/Ascend)"),
             _("./Ascend-cann-kernels-<soc>_<release>_linux.run --install   # the operator kernels for your chip"),
             "source /usr/local/Ascend/ascend-toolkit/set_env.sh"])


# The kernels package's file name: `_linux.run` up to CANN 8.0.RC2, `_linux-<arch>.run` from 8.0.RC3 on (CANN's
# download server: https://ascend-repo.obs.cn-east-2.myhuaweicloud.com/CANN/CANN%208.0.RC2/Ascend-cann-kernels-910b_8.0.RC2_linux.run,
# .../CANN%208.0.RC3/Ascend-cann-kernels-910b_8.0.RC3_linux-aarch64.run, .../CANN%208.0.0/Ascend-cann-kernels-910b_8.0.0_linux-aarch64.run).
KERNELS_WITH_ARCH_FROM = "8.0.RC3"


def kernels_step(inst, soc: str, release: str, machine: Optional[str] = None) -> str:
    """The command that installs the kernels package of this release for the chip, its file name as the release
    names it (an unknown release: the name without the architecture, as before 8.0.RC3)."""
    if inst.release and parse_version(inst.release) >= parse_version(KERNELS_WITH_ARCH_FROM):
        arch = inst.arch or machine or _("<arch>")
        if not soc:  # the chip is not known here: the placeholder, and what it may be in the comment
            return _("./Ascend-cann-kernels-<soc>_{release}_linux-{arch}.run --install   # same release as the "
                     "toolkit; <soc> is 910b, 910_93, 910 or 310p").format(release=release, arch=arch)
        return _("./Ascend-cann-kernels-{soc}_{release}_linux-{arch}.run --install   # same release as the "
                 "toolkit").format(soc=soc, release=release, arch=arch)
    if not soc:
        return _("./Ascend-cann-kernels-<soc>_{release}_linux.run --install   # same release as the toolkit; <soc> is "
                 "910b, 910_93, 910 or 310p").format(release=release)
    return _("./Ascend-cann-kernels-{soc}_{release}_linux.run --install   # same release as the toolkit").format(
        soc=soc, release=release)


def _matrix_or_none(ctx):
    try:
        return ctx.matrix
    except Exception:  # the matrix is advice here; compat.* reports a broken matrix on its own
        return None


def _path_entries(env, var: str) -> List[str]:
    return [p for p in (env.get(var) or "").split(":") if p]


@check("install.cann_env_sourced", "CANN environment (set_env.sh) set in this shell", pitfalls=["P08"],
       fail="CANN environment (set_env.sh) not set in this shell",
       warn="CANN environment (set_env.sh) incomplete in this shell",
       skip="No CANN install: no environment to check")
def check_cann_env_sourced(ctx):
    cann = ctx.facts.cann
    inst = target_install(cann)
    if inst is None:
        return ctx.finding(SKIP, summary=_("No CANN install found."))
    env = ctx.facts.env
    ev: Dict[str, object] = {"install": describe_install(inst), "set_env.sh": set_env_path(inst)}
    missing: List[str] = []  # breaks MindSpore / CANN at start
    weak: List[str] = []  # works for most jobs, but not what set_env.sh leaves behind

    home_var = "ASCEND_HOME_PATH" if env.get("ASCEND_HOME_PATH") else "ASCEND_TOOLKIT_HOME"
    for var in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_OPP_PATH", "ASCEND_AICPU_PATH"):
        ev[var] = env.get(var, _("(not set)"))
    home = env.get(home_var)
    if not home:
        missing.append(_("{var} is not set").format(var="ASCEND_HOME_PATH"))
    elif not points_into(home, inst) and cann.env_roots.get(home_var) != inst.root:
        other = install_of(ctx.facts, home)
        missing.append(_("{var}={value} points at another install ({install})").format(
                           var=home_var, value=home, install=describe_install(other)) if other else
                       _("{var}={value} is not an installed CANN directory").format(var=home_var, value=home))
    opp = env.get("ASCEND_OPP_PATH")
    if not opp:
        missing.append(_("{var} is not set").format(var="ASCEND_OPP_PATH"))
    elif "/opp" not in opp or not (points_into(opp, inst) or cann.env_roots.get("ASCEND_OPP_PATH") == inst.root):
        missing.append(_("ASCEND_OPP_PATH={value} is not {root}/opp").format(value=opp, root=inst.root))
    if not env.get("ASCEND_AICPU_PATH"):
        weak.append(_("{var} is not set").format(var="ASCEND_AICPU_PATH"))

    ld = _path_entries(env, "LD_LIBRARY_PATH")
    ev["LD_LIBRARY_PATH"] = env.get("LD_LIBRARY_PATH", _("(not set)"))
    if not any(points_into(p, inst) and "lib64" in p for p in ld):
        missing.append(_("LD_LIBRARY_PATH has no {root}/lib64").format(root=inst.root))
    drv = ctx.facts.driver
    if drv.installed and drv.version_file:
        drv_lib = drv.version_file.rsplit("/version.info", 1)[0] + "/lib64"
        if not any(p.startswith(drv_lib) for p in ld):
            weak.append(_("LD_LIBRARY_PATH has no {path} (driver libraries)").format(path=drv_lib))
    if inst.kind in ("toolkit", "cann", "nnae", "legacy"):
        py = _path_entries(env, "PYTHONPATH")
        ev["PYTHONPATH"] = env.get("PYTHONPATH", _("(not set)"))
        if not any(points_into(p, inst) and p.rstrip("/").endswith("opp/built-in/op_impl/ai_core/tbe") for p in py):
            missing.append(_("PYTHONPATH has no <install>/opp/built-in/op_impl/ai_core/tbe (MindSpore: \"Cannot find "
                             "the tbe operator implementation\")"))
        paths = _path_entries(env, "PATH")
        ev["PATH"] = env.get("PATH", _("(not set)"))
        if not any(points_into(p, inst) for p in paths):
            weak.append(_("PATH has no {root}/bin or ccec_compiler (atc, ccec not found)").format(root=inst.root))

    _used, keep, others = _installs_in_use(ctx)
    # Mixed installs are one problem with one fix, install.cann_multiple's: appending another source line to
    # ~/.bashrc would contradict its "keep only one".
    fix = _one_install_fix(keep, others) if others else source_fix(inst)
    if not missing and not weak:
        return ctx.finding(PASS,
                           summary=_("the environment points at {install}").format(install=describe_install(inst)),
                           evidence=ev)
    ev["missing"] = missing + weak
    nothing_set = not any(env.get(v) for v in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_OPP_PATH"))
    if nothing_set:
        summary = sentences(_("CANN is installed ({install}) but its environment is not set in this shell: set_env.sh "
                              "was not sourced, so MindSpore cannot find CANN's libraries, operators and compiler.")
                            .format(install=describe_install(inst)),
                            _("Each new shell needs it."))
    else:
        summary = _("The CANN environment is incomplete for {install}: {problems}.").format(
            install=describe_install(inst), problems=_("; ").join(missing + weak))
    # Set, but in part, and what is missing breaks MindSpore: a failure whose line says "in part", not "not set"
    title = _("CANN environment (set_env.sh) set only in part in this shell: MindSpore cannot find all of CANN") \
        if missing and not nothing_set else None
    return ctx.finding(FAIL if missing else WARN, summary=summary, evidence=ev,
                       fix=fix, pitfall="P08", title=title)


def _installs_in_use(ctx):
    """Which installs the environment reaches, variable by variable; the one to keep and the others reached."""
    used: Dict[str, List[str]] = {}
    for var in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_OPP_PATH", "ASCEND_AICPU_PATH",
                "LD_LIBRARY_PATH", "PYTHONPATH", "PATH"):
        for entry in _path_entries(ctx.facts.env, var):
            inst = install_of(ctx.facts, entry)
            if inst is not None and inst.root not in used.setdefault(var, []):
                used[var].append(inst.root)
    used = {k: v for k, v in used.items() if v}
    reached = sorted({r for roots in used.values() for r in roots})
    if len(reached) < 2:
        return used, None, []
    by_root = {i.root: i for i in ctx.facts.cann.installs}
    keep = ctx.facts.cann.active or by_root[reached[0]]
    return used, keep, [by_root[r] for r in reached if r != keep.root]


def _one_install_fix(keep, others) -> List[str]:
    """The fix for an environment that mixes installs; install.cann_multiple owns it, cann_env_sourced repeats it."""
    return [_("grep -n set_env.sh ~/.bashrc ~/.profile /etc/profile.d/* 2>/dev/null   # find every source line"),
            _("keep only: source {keep}   (and remove {others})").format(
                keep=set_env_path(keep), others=", ".join(f"source {set_env_path(o)}" for o in others)),
            _("open a new shell and run ascend-doctor again")]


@check("install.cann_multiple", "One CANN install in use (no mix of versions)",
       warn="Several CANN installs with different releases", skip="No CANN install found")
def check_cann_multiple(ctx):
    cann = ctx.facts.cann
    installs = cann.installs
    if not installs:
        return ctx.finding(SKIP, summary=_("No CANN install found."))
    ev: Dict[str, object] = {i.root: describe_install(i) for i in installs}
    used, keep, others = _installs_in_use(ctx)
    if used:
        ev["environment uses"] = {k: ", ".join(v) for k, v in used.items()}
    active = cann.active
    fixed = nnae_wins(ctx.facts, _matrix_or_none(ctx))
    nnae_fix = []
    if fixed:
        nnae, ms_version, reads_env = fixed
        ev["MindSpore reads"] = _("{root} first, whatever the environment says ({source})").format(
            root=nnae.root, source=_(FIXED_PATH_SOURCE))
        nnae_fix = [_("MindSpore {version} reads CANN from the fixed default paths, {root} first, whatever "
                      "set_env.sh or LD_LIBRARY_PATH say: to use another install, uninstall that nnae "
                      "(./{package} --uninstall) or move to MindSpore {newer}+, which reads the CANN "
                      "the environment points at").format(version=ms_version, root=nnae.root,
                                                          package=run_file_name(nnae), newer=reads_env)]
    if others:
        stray = _("; ").join(
            _("{variables} also reach {install}").format(
                variables=", ".join(v for v, roots in used.items() if o.root in roots), install=describe_install(o))
            for o in others)
        return ctx.finding(WARN, title=_("The environment mixes CANN installs"),
            summary=sentences(_("The environment mixes CANN installs: it points at {install}, but {stray}.").format(
                                  install=describe_install(keep), stray=stray),
                              _("Libraries, operators and compiler then come from different releases; usually two "
                                "set_env.sh files were sourced.")),
            evidence=ev, fix=_one_install_fix(keep, others) + nnae_fix)
    if len(installs) == 1:
        return ctx.finding(PASS, summary=_("one install: {install}").format(install=describe_install(installs[0])),
                           evidence=ev)
    releases = sorted({i.release or "unknown" for i in installs})
    if active is not None:
        where = _("The environment points at {install}.").format(install=describe_install(active))
    else:
        where = _("The environment points at none of them (set_env.sh not sourced).")
    if len(releases) == 1 and releases != ["unknown"]:
        return ctx.finding(PASS,
                           summary=sentences(_("{count} installs of the same release {release}.").format(
                               count=len(installs), release=releases[0]), where), evidence=ev)
    keep = active or target_install(cann)
    others = [i for i in installs if i is not keep]
    # the words ("use one install") and the command (pasted as is) are each a message; the line reads as before
    fix = [_("{label}: {step}").format(label=_("use one install"), step=_(
        "source {path}   # and no other set_env.sh in ~/.bashrc").format(path=set_env_path(keep)))]
    for o in others:
        fix.append(_("./{package} --uninstall   # only if you do not need {install}").format(
            install=describe_install(o), package=run_file_name(o)))
    fix += nnae_fix
    shown = [r if r != "unknown" else _("unknown") for r in releases]
    return ctx.finding(WARN,
        summary=sentences(_("{count} CANN installs with different releases ({releases}): {installs}.").format(
                              count=len(installs), releases=", ".join(shown),
                              installs=_("; ").join(describe_install(i) for i in installs)),
                          where,
                          _("Scripts that source another set_env.sh, or hard-code another path, get a different CANN "
                            "than the one checked here.")),
        evidence=ev, fix=fix)


@check("install.cann_pieces", "CANN operators, kernels and te present", pitfalls=["P23"],
       fail="CANN incomplete: operators, kernels or te missing", skip="CANN pieces not checked")
def check_cann_pieces(ctx):
    cann = ctx.facts.cann
    inst = target_install(cann)
    if inst is None:
        return ctx.finding(SKIP, summary=_("No CANN install found."))
    if inst.kind in ("nnrt", "legacy"):
        return ctx.finding(SKIP,
                           summary=_("{install}: this check covers toolkit, cann and nnae installs.").format(
                               install=describe_install(inst)))
    ev = {"install": describe_install(inst), "opp": inst.has_opp, "opp_kernel": inst.has_opp_kernel,
          "te": inst.has_te or bool(cann.te_in_python)}
    if cann.te_in_python:
        ev["te in the interpreter"] = cann.te_in_python
    problems, fix = [], []
    # inside a command: a placeholder is for the reader, so it is said in the reader's language; what it may be
    # is said in the comment
    soc = KERNELS_SOC.get(ctx.facts.npu.soc_family or "")
    release = inst.release or _("<release>")
    if not inst.has_opp:
        problems.append(_("{root}/opp is missing (the operator package)").format(root=inst.root))
        fix.append(_("./{package} --install   # reinstalls the toolkit").format(package=run_file_name(inst)))
    if not inst.has_opp_kernel:
        problems.append(_("no operator kernels ({root}/opp_kernel or opp/built-in/op_impl/ai_core/tbe/kernel): "
                          "the Ascend-cann-kernels package is not installed, so operators fail with 'find kernel' "
                          "errors (561003)").format(root=inst.root))
        fix.append(kernels_step(inst, soc, release, ctx.facts.system.arch))
    if not (inst.has_te or cann.te_in_python):
        problems.append(_("the te package is missing ({root}/python/site-packages/te); MindSpore stops with "
                          "'MindSpore relies on whl package \"te\"'").format(root=inst.root))
        fix.append(_("ls {root}/python/site-packages   # te and tbe should be here; if not, reinstall: "
                     "./{package} --install").format(root=inst.root, package=run_file_name(inst)))
    if not problems:
        return ctx.finding(PASS,
                           summary=_("opp, operator kernels and te are present in {root}").format(root=inst.root),
                           evidence=ev)
    fix.append(f"source {set_env_path(inst)}")
    return ctx.finding(FAIL,
                       summary=_("{install} is incomplete: {problems}.").format(
                           install=describe_install(inst), problems=_("; ").join(problems)),
                       evidence=ev, fix=fix, pitfall="P23")


@check("install.latest_links", "CANN `latest` links resolve",
       fail="CANN `latest` links point at missing directories", skip="No CANN install found")
def check_latest_links(ctx):
    cann = ctx.facts.cann
    if not cann.installs and not cann.dangling_links:
        return ctx.finding(SKIP, summary=_("No CANN install found."))
    if not cann.dangling_links:
        return ctx.finding(PASS,
                           summary=_("every link under the CANN install roots points at an existing directory"))
    links = cann.dangling_links
    roots = sorted({link.rsplit("/", 1)[0] for link in links})
    return ctx.finding(FAIL,
        summary=sentences(_("{count} link(s) point at directories that no longer exist, e.g. {link} -> {target}.").format(
                              count=len(links), link=next(iter(links)), target=links[next(iter(links))]),
                          _("A removed or half-upgraded CANN version left them; anything that goes through them "
                            "(set_env.sh, MindSpore) finds nothing.")),
        evidence={link: _("-> {target} (missing)").format(target=target) for link, target in links.items()},
        fix=[_("ls -l {paths}   # see what the links expect").format(paths=" ".join(roots)),
             _("./Ascend-cann-toolkit_<release>_linux-<arch>.run --install   # reinstall the CANN version they point "
               "at (the package installer recreates the links), or, as the owner, repoint latest at an installed "
               "version")])


@check("install.legacy_layout", "No pre-CANN-6 (fwkacllib) layout in use",
       warn="A pre-CANN-6 (fwkacllib) layout is installed", skip="No CANN install found")
def check_legacy_layout(ctx):
    cann = ctx.facts.cann
    if not cann.installs:
        return ctx.finding(SKIP, summary=_("No CANN install found."))
    legacy = [i for i in cann.installs if i.kind == "legacy"]
    if not legacy:
        return ctx.finding(PASS, summary=_("every CANN install has the compiler/ layout"))
    return ctx.finding(WARN,
        summary=sentences(_("Very old CANN (fwkacllib/ layout, CANN 5.x or older) at {installs}.").format(
                              installs=join(", ", (describe_install(i) for i in legacy))),
                          _("Current MindSpore releases read compiler/version.info and do not support it.")),
        evidence={i.root: {"fwkacllib version": i.components.get("fwkacllib"), "compiler/": False} for i in legacy},
        fix=[_("./Ascend-cann-toolkit_<release>_linux-<arch>.run --install   # a current CANN toolkit matching your "
               "MindSpore version"),
             _("remove old source lines (grep -n -e fwkacllib -e set_env ~/.bashrc) and source the new set_env.sh")])
