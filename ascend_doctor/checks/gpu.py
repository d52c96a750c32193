"""NVIDIA GPU checks for MindSpore on CUDA (reference/ascend_formats.md §6, §7.7 G1-G4; pitfall P01).

Every check here skips on a machine with no NVIDIA driver, GPU or device node.
"""

from __future__ import annotations

import re

from typing import Dict, List, Optional

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Finding
from ..i18n import N_, _, sentences
from ..plan import or_heading, or_step
from ..i18n_text import join, localized
from . import check
from ._accelerators import gpu_present
from ._gpu_fix import conda_cudnn, driver_upgrade_steps, plan, run_check_step
from ..versions import dotted_major_minor, dotted_numbers

NO_NVIDIA = N_("No NVIDIA GPU, driver or /dev/nvidia* device on this machine.")


# -- G1: kernel module vs userspace driver -----------------------------------------------

@check("gpu.driver_module_match", "NVIDIA kernel module matches the user-space driver (NVML)",
       fail="NVIDIA kernel module and user-space driver (NVML) do not match, or do not load",
       error="Could not check the NVIDIA driver", skip="No NVIDIA driver to check")
def check_driver_module_match(ctx):
    c = ctx.facts.cuda
    if c.nvidia_smi_unusable and not c.driver_version:
        # A hung or unrunnable nvidia-smi is not "no GPU": say the driver could not be checked.
        return ctx.finding(ERROR,
                           summary=_("Could not check the NVIDIA driver: {reason}. A hanging nvidia-smi usually means "
                                     "the driver or a GPU is stuck.").format(reason=localized(c.nvidia_smi_unusable))
                                   if "did not finish" in c.nvidia_smi_unusable else
                                   _("Could not check the NVIDIA driver: {reason}.").format(
                                       reason=localized(c.nvidia_smi_unusable)),
                           evidence={"command": "nvidia-smi", "result": localized(c.nvidia_smi_unusable),
                                     "kernel module (/proc/driver/nvidia/version)":
                                         c.kernel_module_version or _("not loaded / not read")},
                           fix=[_("nvidia-smi   # run it by hand and see whether it returns"),
                                _("ls -l $(command -v nvidia-smi)   # present and executable?"),
                                _("sudo dmesg | grep -i -e nvrm -e xid | tail -20   # driver errors (Xid) on a stuck GPU"),
                                _("if the driver is stuck, reboot the node")])
    if not (gpu_present(ctx.facts) or c.nvidia_smi_failure):
        return ctx.finding(SKIP, summary=_(NO_NVIDIA))
    evidence = {"kernel module (/proc/driver/nvidia/version)": c.kernel_module_version or _("not loaded / not read"),
                "nvidia-smi driver": c.driver_version or (localized(c.nvidia_smi_error) or _("unknown"))}
    if c.nvidia_smi_failure:
        evidence["nvidia-smi said"] = c.nvidia_smi_failure
    libs = {e["path"]: e["version"] for e in c.userspace_driver_libs}
    evidence.update(libs)
    reload_fix = [
        _("cat /proc/driver/nvidia/version; ls /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.* /usr/lib64/libnvidia-ml.so.*"
          "   # the two versions side by side"),
        _("sudo reboot   # loads the kernel module of the driver now installed (the usual cause: a driver upgrade "
          "without a reboot)"),
        or_step("sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia",
                _("with no process on the GPUs")),
        _("in a container: the host's driver decides; fix it on the host, the container only mounts its libraries"),
    ]
    if c.nvml_mismatch:
        if c.nvml_library_version:
            evidence["NVML library version"] = c.nvml_library_version
        return ctx.finding(FAIL,
                           summary=_("nvidia-smi fails with 'Driver/library version mismatch': the loaded kernel module "
                                     "({module}) is not the version of the user-space driver libraries ({library}). No "
                                     "CUDA program, MindSpore included, can use the GPUs until they match.").format(
                                         module=c.kernel_module_version or _("unknown"),
                                         library=c.nvml_library_version or _("unknown")),
                           evidence=evidence, fix=reload_fix)
    if c.nvidia_smi_failure and not c.driver_version:
        return ctx.finding(FAIL,
                           summary=_("nvidia-smi cannot talk to the driver ({failure}); CUDA programs will not see the "
                                     "GPUs either.").format(failure=c.nvidia_smi_failure),
                           evidence=evidence,
                           fix=[_("lsmod | grep nvidia   # is the kernel module loaded?"),
                                _("sudo dmesg | grep -i nvidia   # why it did not load (kernel upgraded, Secure Boot ...)"),
                                _("sudo modprobe nvidia, or reinstall the driver for the running kernel (DKMS) and reboot")])
    module = c.kernel_module_version
    userspace = c.driver_version
    source = "nvidia-smi"
    if userspace is None and libs:
        userspace, source = sorted(set(libs.values()))[-1], _("user-space library file names")
        odd = sorted(set(libs.values()))
        if len(odd) > 1:
            return ctx.finding(FAIL,
                               summary=_("Several user-space driver versions are installed side by side ({versions}); "
                                         "CUDA programs may load one that does not match the kernel module.").format(
                                             versions=", ".join(odd)),
                               evidence=evidence, fix=[_("remove the stale driver packages, reinstall one driver, reboot")])
    if module and userspace:
        if module == userspace:
            return ctx.finding(PASS, summary=_("driver {version} (kernel module and {source} agree)").format(
                version=module, source=source),
                               evidence=evidence)
        return ctx.finding(FAIL,
                           summary=_("The loaded kernel module is {module} but the user-space driver ({source}) is "
                                     "{userspace}: CUDA fails to initialise ('Driver/library version mismatch').").format(
                                         module=module, source=source, userspace=userspace),
                           evidence=evidence, fix=reload_fix)
    summary = _("Could not compare: the kernel module version (/proc/driver/nvidia/version) is unknown.") if not module \
        else _("Could not compare: the user-space driver version (nvidia-smi did not run and no "
               "libnvidia-ml.so.<version> was found) is unknown.")
    return ctx.finding(ERROR, summary=summary, evidence=evidence,
                       fix=["cat /proc/driver/nvidia/version", "nvidia-smi"])


# -- G2 / P01: the CUDA runtime MindSpore's GPU backend needs ---------------------------------

def _runtimes(c) -> List[Dict[str, str]]:
    """One entry per real libcudart file, preferring an entry the loader finds."""
    best: Dict[str, Dict[str, str]] = {}
    for e in c.runtime_libs:
        cur = best.get(e["realpath"])
        if cur is None or (cur["loadable"] != "yes" and e["loadable"] == "yes"):
            best[e["realpath"]] = e
    return sorted(best.values(), key=lambda e: dotted_numbers(e["version"]), reverse=True)


def _describe_runtimes(runtimes) -> str:
    return join(", ", ((_("{version} ({dir})") if e["loadable"] == "yes" else
                      _("{version} ({dir}, not on the loader path)")).format(version=e["version"], dir=e["dir"])
                           for e in runtimes)) or _("none")


def _ms_gpu_applies(ctx) -> Optional[Finding]:
    facts = ctx.facts
    ms = facts.mindspore
    if not gpu_present(facts):
        return ctx.finding(SKIP, summary=_(NO_NVIDIA))
    if not ms.installed:
        return ctx.finding(SKIP, summary=_("MindSpore is not installed; nothing needs a CUDA runtime yet."))
    if "gpu" not in ms.backends:
        return ctx.finding(SKIP,
                       summary=_("The installed MindSpore ({dist} {version}, {flavour} build) has no GPU backend; see "
                                 "mindspore.flavour_matches_device.").format(dist=ms.dist_name, version=ms.version,
                                                                             flavour=ms.flavour))
    return None


def _cudart_soname(major: str) -> str:
    # CUDA 11.x keeps the SONAME libcudart.so.11.0 for every minor; 10.x used libcudart.so.10.<minor>.
    return {"11": "libcudart.so.11.0", "10": "libcudart.so.10.x"}.get(major, f"libcudart.so.{major}")


def _pick_cuda_for_fix(needed: List[str], accepted: List[str], driver_max: Optional[str]) -> str:
    cands = [v for v in needed if "." in v] or [v for v in accepted
                                                 if not needed or v.split(".")[0] in {n.split(".")[0] for n in needed}]
    if driver_max:
        fitting = [v for v in cands if dotted_numbers(v) <= dotted_numbers(driver_max)]
        cands = fitting or cands
    if cands:
        return sorted(cands, key=dotted_numbers)[-1]
    return (needed[0] + ".x") if needed else "11.6"


@check("gpu.cuda_runtime_for_mindspore", "The CUDA runtime MindSpore's GPU build needs is installed and loadable",
       pitfalls=["P01"],
       fail="The CUDA runtime MindSpore's GPU build needs is missing or not loadable",
       warn="The CUDA runtime loads, but not as MindSpore's GPU build expects",
       error="Could not tell which CUDA runtime MindSpore's GPU build needs",
       skip="No MindSpore GPU build needing a CUDA runtime")
def check_cuda_runtime_for_mindspore(ctx):
    skipped = _ms_gpu_applies(ctx)
    if skipped:
        return skipped
    ms, c = ctx.facts.mindspore, ctx.facts.cuda
    runtimes = _runtimes(c)
    needed = list(ms.gpu_cuda_versions)
    basis = ms.cuda_version_source
    if not needed and ms.accepted_cuda:
        needed, basis = list(ms.accepted_cuda), _("MindSpore's own run_check/_check_version.py (GPUEnvChecker)")
    evidence = {
        "MindSpore": f"{ms.dist_name} {ms.version} ({ms.flavour})",
        "built for CUDA": ", ".join(needed) or _("unknown"),
        "where that came from": localized(basis) if basis else _("nothing in the package says"),
        "libcudart found": _describe_runtimes(runtimes),
        "driver supports CUDA up to (nvidia-smi)": c.driver_cuda_max or _("unknown"),
    }
    if ms.accepted_cuda:
        evidence["MindSpore's checker accepts"] = ", ".join(ms.accepted_cuda)
    if not needed:
        return ctx.finding(ERROR,
                           summary=_("Could not tell which CUDA this MindSpore GPU build needs (no "
                                     "libmindspore_gpu.so.<cuda>, no install URL, no checker list)."), evidence=evidence,
                           fix=[run_check_step(ms.version, _("python -c \"import mindspore; mindspore.run_check()\"   "
                                                             "# MindSpore's own check names it"),
                                               _("{command}   # MindSpore's own check on the GPU names it"))])
    majors = {v.split(".")[0] for v in needed}
    py = (ms.extension_pythons or [dotted_major_minor(ctx.facts.python.version) or ""])[0] or None
    # A new environment with the CUDA the build needs (one the driver runs, or the driver upgrade first) and
    # MindSpore's own GPU build installed into it (checks/_gpu_fix.py).
    gpu_plan = plan(ctx.matrix, ms.version, py, c.driver_version, prefer=[v for v in needed if "." in v],
                    cuda_max=c.driver_cuda_max, node_cuda=[e["version"] for e in runtimes if e["loadable"] == "yes"])
    env_fix = gpu_plan["steps"] + gpu_plan["alternative"]
    if not env_fix:
        fix_cuda = _pick_cuda_for_fix(needed, ms.accepted_cuda, c.driver_cuda_max)
        env_fix = [_("install NVIDIA's CUDA {cuda} toolkit and: export CUDA_HOME=/usr/local/cuda-{cuda} "
                     "LD_LIBRARY_PATH=/usr/local/cuda-{cuda}/lib64:$LD_LIBRARY_PATH").format(cuda=fix_cuda)]
    matching = [e for e in runtimes if e["version"].split(".")[0] in majors]
    if not matching:
        others = sorted({dotted_major_minor(e["version"]) for e in runtimes})
        also = _("MindSpore publishes GPU builds for CUDA {accepted} only, so a MindSpore build for the installed CUDA "
                 "{installed} does not exist: give it the CUDA it needs instead.").format(
                     accepted=", ".join(ms.accepted_cuda), installed=", ".join(others)) \
            if ms.accepted_cuda and others and not any(o in ms.accepted_cuda for o in others) else ""
        args = dict(majors="/".join(sorted(majors)), installed=", ".join(others),
                    soname=_cudart_soname(sorted(majors)[0]))
        first = (_("MindSpore's GPU build needs the CUDA {majors}.x runtime, but only CUDA {installed} is installed: "
                   "loading the GPU backend fails with '{soname}: cannot open shared object file' and MindSpore cannot "
                   "use the GPU.") if others else
                 _("MindSpore's GPU build needs the CUDA {majors}.x runtime, but no CUDA runtime is installed: loading "
                   "the GPU backend fails with '{soname}: cannot open shared object file' and MindSpore cannot use the "
                   "GPU.")).format(**args)
        return ctx.finding(FAIL,
                           summary=sentences(first, also),
                           evidence=evidence, fix=env_fix, pitfall="P01")
    loadable = [e for e in matching if e["loadable"] == "yes"]
    if not loadable:
        d = matching[0]["dir"]
        return ctx.finding(FAIL,
                           summary=_("The CUDA {version} runtime MindSpore needs is in {dir}, but the dynamic loader does "
                                     "not search that directory (not in LD_LIBRARY_PATH or ld.so.conf): loading the GPU "
                                     "backend fails with 'libcudart.so...: cannot open shared object file'.").format(
                                         version=matching[0]["version"], dir=d),
                           evidence=evidence, pitfall="P01",
                           fix=[f"export LD_LIBRARY_PATH={d}:$LD_LIBRARY_PATH",
                                _("echo 'export LD_LIBRARY_PATH={dir}:$LD_LIBRARY_PATH' >> ~/.bashrc   # for new shells")
                                .format(dir=d)]
                           + ([f"export CUDA_HOME={d.rsplit('/', 1)[0]}"] if d.endswith("/lib64") else []))
    chosen = loadable[0]
    rt_mm = dotted_major_minor(chosen["version"])
    evidence["runtime MindSpore will load"] = f"{chosen['version']} ({chosen['path']})"
    if c.driver_cuda_max and dotted_numbers(rt_mm) > dotted_numbers(c.driver_cuda_max):
        newer_major = dotted_numbers(rt_mm)[:1] > dotted_numbers(c.driver_cuda_max)[:1]
        driver_fix = driver_upgrade_steps(ctx.matrix, c.driver_version, rt_mm) + \
            ([or_heading(_("use a CUDA runtime no newer than {version}").format(version=c.driver_cuda_max))] + env_fix
             if gpu_plan["cuda"] and not gpu_plan["driver_upgrade"] else [])
        if newer_major:
            return ctx.finding(FAIL,
                               summary=_("The CUDA runtime {runtime} is newer than the driver {driver} supports (up to "
                                         "CUDA {driver_cuda}): CUDA calls fail with 'CUDA driver version is insufficient "
                                         "for CUDA runtime version'.").format(runtime=chosen["version"],
                                                                              driver=c.driver_version,
                                                                              driver_cuda=c.driver_cuda_max),
                               evidence=evidence, fix=driver_fix, pitfall="P01")
        return ctx.finding(WARN,
                           summary=sentences(
                               _("The CUDA runtime {runtime} is newer than the driver's CUDA {driver_cuda}.").format(
                                   runtime=chosen["version"], driver_cuda=c.driver_cuda_max),
                               _("Within one major version CUDA's minor-version compatibility usually lets it run, but "
                                 "kernels that need JIT compilation (PTX) fail on the older driver.")),
                           evidence=evidence, fix=driver_fix, pitfall="P01")
    verdict = ctx.matrix.gpu_verdict(ms.version, rt_mm)
    if verdict["why"] in ("checker-only", "disputed") and (not ms.accepted_cuda or rt_mm in ms.accepted_cuda) \
            and rt_mm not in ms.gpu_cuda_versions:
        # the same answer `matrix check --mindspore V --cuda X` gives (compat.cuda_mindspore); a wheel whose own
        # plugin files name this CUDA settles it, as the wheel's plugin folders do in the matrix
        d = verdict["disputed"]
        evidence["matrix"] = ctx.matrix.describe_source(verdict["source"])
        return ctx.finding(WARN,
                           summary=(_("CUDA runtime {runtime} loads MindSpore {version}, but the sources disagree on a "
                                      "CUDA {cuda} build: {yes} lists it, {no} does not.").format(
                                          runtime=chosen["version"], version=ms.version, cuda=rt_mm,
                                          yes=ctx.matrix.describe_source(d["listed_by"]),
                                          no=ctx.matrix.describe_source(d["not_listed_by"])) if d else
                                    _("CUDA runtime {runtime} loads MindSpore {version} and its checker accepts CUDA "
                                      "{cuda}, but its GPU builds are for CUDA {built} only.").format(
                                        runtime=chosen["version"], version=ms.version, cuda=rt_mm,
                                        built=", ".join(verdict["built_for"]))),
                           evidence=evidence, pitfall="P01",
                           # MindSpore's own check says whether it runs here (a new environment with the CUDA of
                           # its build is what gpu.cuda_runtime_for_mindspore advises when it does not load)
                           fix=[run_check_step(ms.version, _("python -c \"import mindspore; mindspore.run_check()\"   "
                                                             "# MindSpore's own check: it runs on this CUDA, or says why "
                                                             "not"),
                                               _("{command}   # MindSpore's own check on the GPU: it runs on this CUDA, "
                                                 "or says why not"))])
    if ms.accepted_cuda and rt_mm not in ms.accepted_cuda:
        return ctx.finding(WARN,
                           summary=_("CUDA runtime {runtime} can load MindSpore's CUDA {majors} build, but MindSpore "
                                     "supports only CUDA {accepted} and logs 'MindSpore version ... and cuda version ... "
                                     "does not match' at start-up.").format(runtime=chosen["version"],
                                                                            majors="/".join(sorted(majors)),
                                                                            accepted=", ".join(ms.accepted_cuda)),
                           evidence=evidence, fix=env_fix, pitfall="P01")
    if len([v for v in ms.gpu_cuda_versions if "." in v]) > 1 and not c.cuda_home:
        # Seen in the 2.10.0 wheel's libmindspore_hardware_abstract.so: "Please set env CUDA_HOME to path of cuda,
        # if you want to enable gpu backend." — the unified wheel picks its GPU plugin from the CUDA at CUDA_HOME.
        root = chosen["dir"].rsplit("/", 1)[0] if chosen["dir"].endswith(("/lib64", "/lib")) else "/usr/local/cuda"
        return ctx.finding(WARN,
                           summary=_("CUDA runtime {runtime} fits, but CUDA_HOME is not set: this MindSpore carries GPU "
                                     "plugins for CUDA {plugins} and picks one from the CUDA at CUDA_HOME ('Please set env "
                                     "CUDA_HOME to path of cuda, if you want to enable gpu backend').").format(
                                         runtime=chosen["version"], plugins=", ".join(ms.gpu_cuda_versions)),
                           evidence=evidence, pitfall="P01",
                           fix=[f"export CUDA_HOME={root}",
                                _("echo 'export CUDA_HOME={root}' >> ~/.bashrc   # for new shells").format(root=root)])
    return ctx.finding(PASS,
                       summary=(_("CUDA {needed} build loads libcudart {runtime}; driver allows up to {driver_cuda}")
                                if c.driver_cuda_max else _("CUDA {needed} build loads libcudart {runtime}")).format(
                                    needed="/".join(needed), runtime=chosen["version"], driver_cuda=c.driver_cuda_max),
                       evidence=evidence)


# -- G4: cuDNN ------------------------------------------------------------------------------

def _in_conda(facts) -> bool:
    """Whether the Python MindSpore runs in is a conda environment (CONDA_PREFIX chose it, or it lives in one)."""
    py = facts.python
    where = " ".join(x for x in (py.executable, facts.mindspore.location) if x)
    return py.chosen_by == "CONDA_PREFIX" or bool(re.search(r"/(?:ana|mini)conda\d*/|/miniforge\d*/|/mambaforge/|"
                                                          r"/envs/[^/]+/", where))

@check("gpu.cudnn", "cuDNN is installed and new enough for MindSpore's GPU backend",
       warn="cuDNN missing or too old for MindSpore's GPU backend", skip="No MindSpore GPU build needing cuDNN")
def check_cudnn(ctx):
    skipped = _ms_gpu_applies(ctx)
    if skipped:
        return skipped
    c, ms = ctx.facts.cuda, ctx.facts.mindspore
    runtimes = [e for e in _runtimes(c) if e["loadable"] == "yes"] or _runtimes(c)
    # the CUDA of the build in use: the runtime of the build's CUDA major (a CUDA 11.6 build beside a stray 10.1)
    needed = list(ms.gpu_cuda_versions) or list(ms.accepted_cuda)
    majors = {v.split(".")[0] for v in needed}
    in_use = [e for e in runtimes if e["version"].split(".")[0] in majors] or runtimes
    cuda_mm = dotted_major_minor(in_use[0]["version"]) if in_use else None
    if in_use and majors and in_use[0]["version"].split(".")[0] not in majors:
        cuda_mm = None
    if not cuda_mm:
        dotted = sorted((v for v in needed if "." in v), key=dotted_numbers)
        cuda_mm = dotted[-1] if dotted else None
    cuda_major = dotted_numbers(cuda_mm)[:1] if cuda_mm else ()
    pair = ctx.matrix.cudnn_for_cuda(cuda_mm, ms.version) if cuda_mm else None
    spec = conda_cudnn(ctx.matrix, ms.version, cuda_mm)["spec"] if pair else "'cudnn>=8,<9'"  # one that resolves
    evidence = {"cuDNN": c.cudnn_version or _("not found"), "read from": c.cudnn_source or "-",
                "CUDA runtime": in_use[0]["version"] if in_use else _("not found"),
                "CUDA of the build in use": cuda_mm or _("unknown")}
    if pair:
        evidence["cuDNN MindSpore's install guide pairs with it"] = \
            _("CUDA {cuda} + cuDNN {cudnn}.x [{source}]").format(cuda=pair["cuda"], cudnn=pair["cudnn"],
                                                                 source=ctx.matrix.describe_source(pair["source"]))
    if not c.cudnn_version:
        return ctx.finding(WARN,
                           summary=sentences(
                               _("No cuDNN found (no cudnn_version.h / cudnn.h and no libcudnn.so.X.Y.Z in the CUDA, "
                                 "system or conda library directories)."),
                               _("MindSpore's GPU backend links libcudnn and fails to load without it ('libcudnn.so.8: "
                                 "cannot open shared object file').")),
                           evidence=evidence,
                           fix=[_("conda install -c conda-forge {spec}   # inside the MindSpore environment").format(
                                    spec=spec),
                                or_step(_("install NVIDIA's cuDNN for CUDA {cuda} and add its lib directory to "
                                          "LD_LIBRARY_PATH").format(cuda=cuda_mm or "11.x"))])
    v = dotted_numbers(c.cudnn_version)
    fix = [_("conda install -c conda-forge {spec}   # inside the MindSpore environment").format(spec=spec)]
    if not _in_conda(ctx.facts):
        # MindSpore in a system or venv Python: a conda package would not reach it; NVIDIA's cuDNN for the CUDA of
        # the build, first on the loader path, as MindSpore's GPU install guide installs it
        fix = [_("install NVIDIA's cuDNN {cudnn}.x for CUDA {cuda} (as MindSpore's GPU install guide does) and put its "
                 "lib directory first on LD_LIBRARY_PATH").format(cudnn=pair["cudnn"] if pair else "8",
                                                                  cuda=cuda_mm or "11.x")]
    # MindSpore's GPUEnvChecker: warn below 7.6, and below 8.0 when CUDA is newer than 10 (compat_facts §4.1).
    if v < (7, 6):
        return ctx.finding(WARN,
                           summary=_("cuDNN {version} is older than 7.6, the oldest MindSpore supports (CUDA 10.1 with "
                                     "cuDNN 7.6.x, CUDA 11.1 with 8.0.x, CUDA 11.6 with 8.5.x).").format(
                                         version=c.cudnn_version),
                           evidence=evidence, fix=fix)
    if pair and v[:2] < dotted_numbers(pair["cudnn"])[:2]:
        return ctx.finding(WARN,
                           summary=(_("cuDNN {version} with MindSpore's CUDA {cuda} build: MindSpore's install guide "
                                      "pairs CUDA {cuda} with cuDNN {pair}.x, and its checker warns below 8.0 with CUDA "
                                      "11.") if v < (8, 0) and cuda_major and cuda_major[0] > 10 else
                                    _("cuDNN {version} with MindSpore's CUDA {cuda} build: MindSpore's install guide "
                                      "pairs CUDA {cuda} with cuDNN {pair}.x.")).format(
                                         version=c.cudnn_version, cuda=cuda_mm, pair=pair["cudnn"]),
                           evidence=evidence, fix=fix)
    if v < (8, 0) and cuda_major and cuda_major[0] > 10:
        return ctx.finding(WARN,
                           summary=_("cuDNN {version} with CUDA {runtime}: MindSpore needs cuDNN 8 with CUDA 11 (CUDA "
                                     "11.1 with 8.0.x, CUDA 11.6 with 8.5.x).").format(version=c.cudnn_version,
                                                                                       runtime=cuda_mm),
                           evidence=evidence, fix=fix)
    return ctx.finding(PASS, summary=_("cuDNN {version} ({path})").format(version=c.cudnn_version, path=c.cudnn_source),
                       evidence=evidence)


# -- G3: nvcc vs runtime ---------------------------------------------------------------------------

@check("gpu.nvcc_matches_runtime", "nvcc is the same CUDA release as the runtime",
       warn="nvcc is another CUDA release than the runtime", skip="No nvcc and CUDA runtime to compare")
def check_nvcc_matches_runtime(ctx):
    c = ctx.facts.cuda
    if not gpu_present(ctx.facts):
        return ctx.finding(SKIP, summary=_(NO_NVIDIA))
    if not c.nvcc_version:
        return ctx.finding(SKIP, summary=_("nvcc is not installed (only needed to build custom CUDA operators)."))
    runtimes = [e for e in _runtimes(c) if e["loadable"] == "yes"]
    if not runtimes:
        return ctx.finding(SKIP, summary=_("No CUDA runtime on the loader path to compare nvcc with "
                                           "(see gpu.cuda_runtime_for_mindspore)."))
    rt = runtimes[0]
    rt_mm = dotted_major_minor(rt["version"])
    evidence = {"nvcc release": c.nvcc_version, "runtime": f"{rt['version']} ({rt['path']})"}
    same = rt_mm == c.nvcc_version if "." in (rt_mm or "") else c.nvcc_version.split(".")[0] == rt_mm
    if same:
        return ctx.finding(PASS, summary=_("nvcc {nvcc} and libcudart {runtime}").format(
            nvcc=c.nvcc_version, runtime=rt["version"]), evidence=evidence)
    return ctx.finding(WARN,
                       summary=_("nvcc on PATH is CUDA {nvcc} but the runtime on the loader path is {runtime}: custom "
                                 "CUDA operators (ops.Custom, AKG) get compiled for one CUDA and loaded with another, and "
                                 "MindSpore warns that the nvcc version does not match.").format(
                                     nvcc=c.nvcc_version, runtime=rt["version"]),
                       evidence=evidence,
                       fix=[_("export PATH=<the CUDA {version} toolkit>/bin:$PATH   # the nvcc of the runtime you use")
                            .format(version=rt_mm),
                            _("which -a nvcc; ls -d /usr/local/cuda*   # see which toolkits are installed")])
