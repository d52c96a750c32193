"""NVIDIA GPU checks for MindSpore on CUDA (reference/ascend_formats.md §6, §7.7 G1-G4; pitfall P01).

Every check here skips on a machine with no NVIDIA driver, GPU or device node.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from ..findings import ERROR, FAIL, PASS, SKIP, WARN, Finding
from . import check
from ._accelerators import gpu_present
from ..versions import dotted_major_minor, dotted_numbers

NO_NVIDIA = "No NVIDIA GPU, driver or /dev/nvidia* device on this machine."


# -- G1: kernel module vs userspace driver -----------------------------------------------

@check("gpu.driver_module_match", "NVIDIA kernel module matches the user-space driver (NVML)",
       fail="NVIDIA kernel module and user-space driver (NVML) do not match, or do not load",
       error="Could not check the NVIDIA driver", skip="No NVIDIA driver to check")
def check_driver_module_match(ctx):
    c = ctx.facts.cuda
    if c.nvidia_smi_unusable and not c.driver_version:
        # A hung or unrunnable nvidia-smi is not "no GPU": say the driver could not be checked.
        return ctx.finding(ERROR,
                           summary=f"Could not check the NVIDIA driver: {c.nvidia_smi_unusable}. A hanging nvidia-smi "
                                   "usually means the driver or a GPU is stuck."
                                   if "did not finish" in c.nvidia_smi_unusable else
                                   f"Could not check the NVIDIA driver: {c.nvidia_smi_unusable}.",
                           evidence={"command": "nvidia-smi", "result": c.nvidia_smi_unusable,
                                     "kernel module (/proc/driver/nvidia/version)":
                                         c.kernel_module_version or "not loaded / not read"},
                           fix=["nvidia-smi   # run it by hand and see whether it returns",
                                "ls -l $(command -v nvidia-smi)   # present and executable?",
                                "sudo dmesg | grep -i -e nvrm -e xid | tail -20   # driver errors (Xid) on a stuck GPU",
                                "if the driver is stuck, reboot the node"])
    if not (gpu_present(ctx.facts) or c.nvidia_smi_failure):
        return ctx.finding(SKIP, summary=NO_NVIDIA)
    evidence = {"kernel module (/proc/driver/nvidia/version)": c.kernel_module_version or "not loaded / not read",
                "nvidia-smi driver": c.driver_version or (c.nvidia_smi_error or "unknown")}
    if c.nvidia_smi_failure:
        evidence["nvidia-smi said"] = c.nvidia_smi_failure
    libs = {e["path"]: e["version"] for e in c.userspace_driver_libs}
    evidence.update(libs)
    reload_fix = [
        "cat /proc/driver/nvidia/version; ls /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.* /usr/lib64/libnvidia-ml.so.*"
        "   # the two versions side by side",
        "sudo reboot   # loads the kernel module of the driver now installed (the usual cause: a driver upgrade "
        "without a reboot)",
        "or, with no process on the GPUs: sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia",
        "in a container: the host's driver decides; fix it on the host, the container only mounts its libraries",
    ]
    if c.nvml_mismatch:
        if c.nvml_library_version:
            evidence["NVML library version"] = c.nvml_library_version
        return ctx.finding(FAIL,
                           summary="nvidia-smi fails with 'Driver/library version mismatch': the loaded kernel module "
                                   f"({c.kernel_module_version or 'unknown'}) is not the version of the user-space "
                                   f"driver libraries ({c.nvml_library_version or 'unknown'}). No CUDA program, "
                                   "MindSpore included, can use the GPUs until they match.",
                           evidence=evidence, fix=reload_fix)
    if c.nvidia_smi_failure and not c.driver_version:
        return ctx.finding(FAIL,
                           summary=f"nvidia-smi cannot talk to the driver ({c.nvidia_smi_failure}); CUDA programs will "
                                   "not see the GPUs either.",
                           evidence=evidence,
                           fix=["lsmod | grep nvidia   # is the kernel module loaded?",
                                "sudo dmesg | grep -i nvidia   # why it did not load (kernel upgraded, Secure Boot ...)",
                                "sudo modprobe nvidia, or reinstall the driver for the running kernel (DKMS) and reboot"])
    module = c.kernel_module_version
    userspace = c.driver_version
    source = "nvidia-smi"
    if userspace is None and libs:
        userspace, source = sorted(set(libs.values()))[-1], "user-space library file names"
        odd = sorted(set(libs.values()))
        if len(odd) > 1:
            return ctx.finding(FAIL,
                               summary=f"Several user-space driver versions are installed side by side ({', '.join(odd)}); "
                                       "CUDA programs may load one that does not match the kernel module.",
                               evidence=evidence, fix=["remove the stale driver packages, reinstall one driver, reboot"])
    if module and userspace:
        if module == userspace:
            return ctx.finding(PASS, summary=f"driver {module} (kernel module and {source} agree)",
                               evidence=evidence)
        return ctx.finding(FAIL,
                           summary=f"The loaded kernel module is {module} but the user-space driver ({source}) is "
                                   f"{userspace}: CUDA fails to initialise ('Driver/library version mismatch').",
                           evidence=evidence, fix=reload_fix)
    missing = "the kernel module version (/proc/driver/nvidia/version)" if not module else \
        "the user-space driver version (nvidia-smi did not run and no libnvidia-ml.so.<version> was found)"
    return ctx.finding(ERROR, summary=f"Could not compare: {missing} is unknown.", evidence=evidence,
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
    return ", ".join(f"{e['version']} ({e['dir']}{'' if e['loadable'] == 'yes' else ', not on the loader path'})"
                     for e in runtimes) or "none"


def _ms_gpu_applies(ctx) -> Optional[Finding]:
    facts = ctx.facts
    ms = facts.mindspore
    if not gpu_present(facts):
        return ctx.finding(SKIP, summary=NO_NVIDIA)
    if not ms.installed:
        return ctx.finding(SKIP, summary="MindSpore is not installed; nothing needs a CUDA runtime yet.")
    if "gpu" not in ms.backends:
        return ctx.finding(SKIP,
                       summary=f"The installed MindSpore ({ms.dist_name} {ms.version}, {ms.flavour} build) has no "
                               "GPU backend; see mindspore.flavour_matches_device.")
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
        needed, basis = list(ms.accepted_cuda), "MindSpore's own run_check/_check_version.py (GPUEnvChecker)"
    evidence = {
        "MindSpore": f"{ms.dist_name} {ms.version} ({ms.flavour})",
        "built for CUDA": ", ".join(needed) or "unknown",
        "where that came from": basis or "nothing in the package says",
        "libcudart found": _describe_runtimes(runtimes),
        "driver supports CUDA up to (nvidia-smi)": c.driver_cuda_max or "unknown",
    }
    if ms.accepted_cuda:
        evidence["MindSpore's checker accepts"] = ", ".join(ms.accepted_cuda)
    if not needed:
        return ctx.finding(ERROR,
                           summary="Could not tell which CUDA this MindSpore GPU build needs (no libmindspore_gpu.so.<cuda>, "
                                   "no install URL, no checker list).", evidence=evidence,
                           fix=["python -c \"import mindspore; mindspore.run_check()\"   # MindSpore's own check names it"])
    majors = {v.split(".")[0] for v in needed}
    fix_cuda = _pick_cuda_for_fix(needed, ms.accepted_cuda, c.driver_cuda_max)
    py = (ms.extension_pythons or [dotted_major_minor(ctx.facts.python.version) or "3.9"])[0]
    env_fix = [
        f"conda create -n ms-gpu python={py} && conda activate ms-gpu",
        f"conda install -c conda-forge cudatoolkit={fix_cuda} 'cudnn>=8,<9'   # the CUDA the build was made for, "
        "isolated from the system one",
        "export LD_LIBRARY_PATH=$CONDA_PREFIX/lib:$LD_LIBRARY_PATH   # so MindSpore loads that runtime first",
        f"or install NVIDIA's CUDA {fix_cuda} toolkit next to the current one and: "
        f"export CUDA_HOME=/usr/local/cuda-{fix_cuda} LD_LIBRARY_PATH=/usr/local/cuda-{fix_cuda}/lib64:$LD_LIBRARY_PATH",
    ]
    matching = [e for e in runtimes if e["version"].split(".")[0] in majors]
    if not matching:
        others = sorted({dotted_major_minor(e["version"]) for e in runtimes})
        also = (f" MindSpore publishes GPU builds for CUDA {', '.join(ms.accepted_cuda)} only, so a MindSpore build "
                f"for the installed CUDA {', '.join(others)} does not exist: give it the CUDA it needs instead.") \
            if ms.accepted_cuda and others and not any(o in ms.accepted_cuda for o in others) else ""
        return ctx.finding(FAIL,
                           summary=f"MindSpore's GPU build needs the CUDA {'/'.join(sorted(majors))}.x runtime, but "
                                   f"{'only CUDA ' + ', '.join(others) + ' is' if others else 'no CUDA runtime is'} "
                                   f"installed: loading the GPU backend fails with '{_cudart_soname(sorted(majors)[0])}: cannot open "
                                   f"shared object file' and MindSpore cannot use the GPU.{also}",
                           evidence=evidence, fix=env_fix, pitfall="P01")
    loadable = [e for e in matching if e["loadable"] == "yes"]
    if not loadable:
        d = matching[0]["dir"]
        return ctx.finding(FAIL,
                           summary=f"The CUDA {matching[0]['version']} runtime MindSpore needs is in {d}, but the dynamic "
                                   "loader does not search that directory (not in LD_LIBRARY_PATH or ld.so.conf): "
                                   "loading the GPU backend fails with 'libcudart.so...: cannot open shared object file'.",
                           evidence=evidence, pitfall="P01",
                           fix=[f"export LD_LIBRARY_PATH={d}:$LD_LIBRARY_PATH",
                                f"echo 'export LD_LIBRARY_PATH={d}:$LD_LIBRARY_PATH' >> ~/.bashrc   # for new shells"]
                           + ([f"export CUDA_HOME={d.rsplit('/', 1)[0]}"] if d.endswith("/lib64") else []))
    chosen = loadable[0]
    rt_mm = dotted_major_minor(chosen["version"])
    evidence["runtime MindSpore will load"] = f"{chosen['version']} ({chosen['path']})"
    if c.driver_cuda_max and dotted_numbers(rt_mm) > dotted_numbers(c.driver_cuda_max):
        newer_major = dotted_numbers(rt_mm)[:1] > dotted_numbers(c.driver_cuda_max)[:1]
        driver_fix = [f"upgrade the NVIDIA driver to one whose nvidia-smi shows 'CUDA Version: {rt_mm}' or newer",
                      f"or use a CUDA runtime no newer than {c.driver_cuda_max} (see the steps below)"] + env_fix
        if newer_major:
            return ctx.finding(FAIL,
                               summary=f"The CUDA runtime {chosen['version']} is newer than the driver {c.driver_version} "
                                       f"supports (up to CUDA {c.driver_cuda_max}): CUDA calls fail with "
                                       "'CUDA driver version is insufficient for CUDA runtime version'.",
                               evidence=evidence, fix=driver_fix, pitfall="P01")
        return ctx.finding(WARN,
                           summary=f"The CUDA runtime {chosen['version']} is newer than the driver's CUDA {c.driver_cuda_max}. "
                                   "Within one major version CUDA's minor-version compatibility usually lets it run, but "
                                   "kernels that need JIT compilation (PTX) fail on the older driver.",
                           evidence=evidence, fix=driver_fix, pitfall="P01")
    if ms.accepted_cuda and rt_mm not in ms.accepted_cuda:
        return ctx.finding(WARN,
                           summary=f"CUDA runtime {chosen['version']} can load MindSpore's CUDA {'/'.join(sorted(majors))} "
                                   f"build, but MindSpore supports only CUDA {', '.join(ms.accepted_cuda)} and logs "
                                   "'MindSpore version ... and cuda version ... does not match' at start-up.",
                           evidence=evidence, fix=env_fix, pitfall="P01")
    if len([v for v in ms.gpu_cuda_versions if "." in v]) > 1 and not c.cuda_home:
        # Seen in the 2.10.0 wheel's libmindspore_hardware_abstract.so: "Please set env CUDA_HOME to path of cuda,
        # if you want to enable gpu backend." — the unified wheel picks its GPU plugin from the CUDA at CUDA_HOME.
        root = chosen["dir"].rsplit("/", 1)[0] if chosen["dir"].endswith(("/lib64", "/lib")) else "/usr/local/cuda"
        return ctx.finding(WARN,
                           summary=f"CUDA runtime {chosen['version']} fits, but CUDA_HOME is not set: this MindSpore carries "
                                   f"GPU plugins for CUDA {', '.join(ms.gpu_cuda_versions)} and picks one from the CUDA at "
                                   "CUDA_HOME ('Please set env CUDA_HOME to path of cuda, if you want to enable gpu backend').",
                           evidence=evidence, pitfall="P01",
                           fix=[f"export CUDA_HOME={root}",
                                f"echo 'export CUDA_HOME={root}' >> ~/.bashrc   # for new shells"])
    return ctx.finding(PASS,
                       summary=f"CUDA {'/'.join(needed)} build loads libcudart {chosen['version']}"
                               + (f"; driver allows up to {c.driver_cuda_max}" if c.driver_cuda_max else ""),
                       evidence=evidence)


# -- G4: cuDNN ------------------------------------------------------------------------------

@check("gpu.cudnn", "cuDNN is installed and new enough for MindSpore's GPU backend",
       warn="cuDNN missing or too old for MindSpore's GPU backend", skip="No MindSpore GPU build needing cuDNN")
def check_cudnn(ctx):
    skipped = _ms_gpu_applies(ctx)
    if skipped:
        return skipped
    c = ctx.facts.cuda
    runtimes = [e for e in _runtimes(c) if e["loadable"] == "yes"] or _runtimes(c)
    cuda_major = dotted_numbers(runtimes[0]["version"])[:1] if runtimes else ()
    evidence = {"cuDNN": c.cudnn_version or "not found", "read from": c.cudnn_source or "-",
                "CUDA runtime": runtimes[0]["version"] if runtimes else "not found"}
    if not c.cudnn_version:
        return ctx.finding(WARN,
                           summary="No cuDNN found (no cudnn_version.h / cudnn.h and no libcudnn.so.X.Y.Z in the CUDA, "
                                   "system or conda library directories). MindSpore's GPU backend links libcudnn and "
                                   "fails to load without it ('libcudnn.so.8: cannot open shared object file').",
                           evidence=evidence,
                           fix=["conda install -c conda-forge 'cudnn>=8,<9'   # inside the MindSpore environment",
                                "or install NVIDIA's cuDNN 8 for your CUDA and add its lib directory to LD_LIBRARY_PATH"])
    v = dotted_numbers(c.cudnn_version)
    # MindSpore's GPUEnvChecker: warn below 7.6, and below 8.0 when CUDA is newer than 10 (compat_facts §4.1).
    if v < (7, 6):
        return ctx.finding(WARN,
                           summary=f"cuDNN {c.cudnn_version} is older than 7.6, the oldest MindSpore supports "
                                   "(CUDA 10.1 with cuDNN 7.6.x, CUDA 11.1 with 8.0.x, CUDA 11.6 with 8.5.x).",
                           evidence=evidence, fix=["conda install -c conda-forge 'cudnn>=8,<9'"])
    if v < (8, 0) and cuda_major and cuda_major[0] > 10:
        return ctx.finding(WARN,
                           summary=f"cuDNN {c.cudnn_version} with CUDA {runtimes[0]['version']}: MindSpore needs cuDNN 8 "
                                   "with CUDA 11 (CUDA 11.1 with 8.0.x, CUDA 11.6 with 8.5.x).",
                           evidence=evidence, fix=["conda install -c conda-forge 'cudnn>=8,<9'"])
    return ctx.finding(PASS, summary=f"cuDNN {c.cudnn_version} ({c.cudnn_source})", evidence=evidence)


# -- G3: nvcc vs runtime ---------------------------------------------------------------------------

@check("gpu.nvcc_matches_runtime", "nvcc is the same CUDA release as the runtime",
       warn="nvcc is another CUDA release than the runtime", skip="No nvcc and CUDA runtime to compare")
def check_nvcc_matches_runtime(ctx):
    c = ctx.facts.cuda
    if not gpu_present(ctx.facts):
        return ctx.finding(SKIP, summary=NO_NVIDIA)
    if not c.nvcc_version:
        return ctx.finding(SKIP, summary="nvcc is not installed (only needed to build custom CUDA operators).")
    runtimes = [e for e in _runtimes(c) if e["loadable"] == "yes"]
    if not runtimes:
        return ctx.finding(SKIP, summary="No CUDA runtime on the loader path to compare nvcc with "
                                                      "(see gpu.cuda_runtime_for_mindspore).")
    rt = runtimes[0]
    rt_mm = dotted_major_minor(rt["version"])
    evidence = {"nvcc release": c.nvcc_version, "runtime": f"{rt['version']} ({rt['path']})"}
    same = rt_mm == c.nvcc_version if "." in (rt_mm or "") else c.nvcc_version.split(".")[0] == rt_mm
    if same:
        return ctx.finding(PASS, summary=f"nvcc {c.nvcc_version} and libcudart {rt['version']}", evidence=evidence)
    return ctx.finding(WARN,
                       summary=f"nvcc on PATH is CUDA {c.nvcc_version} but the runtime on the loader path is {rt['version']}: "
                               "custom CUDA operators (ops.Custom, AKG) get compiled for one CUDA and loaded with another, "
                               "and MindSpore warns that the nvcc version does not match.",
                       evidence=evidence,
                       fix=[f"export PATH=<the CUDA {rt_mm} toolkit>/bin:$PATH   # the nvcc of the runtime you use",
                            "which -a nvcc; ls -d /usr/local/cuda*   # see which toolkits are installed"])
