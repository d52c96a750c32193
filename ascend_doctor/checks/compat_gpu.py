"""Version compatibility of MindSpore on CUDA (pitfall P01): the MindSpore GPU build <-> the CUDA runtime and cuDNN,
the NVIDIA driver <-> the CUDA runtime MindSpore uses. Area `compat`, as the Ascend stack's checks (compat.py).

Every verdict compares versions the probes found with a row of the compatibility matrix (data/compat_matrix.json)
and shows both, with the row's source; the fix steps come from checks/_gpu_fix.py, in dependency order.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..findings import FAIL, PASS, SKIP, WARN
from ..i18n import N_, _
from ..plan import or_heading, or_step
from ..versions import major_minor, parse_version, version_key
from . import check
from ._gpu_fix import run_check_step
from .compat import _installed_mindspore, _listed, _matrix_info, is_planned

CUDA_MS = "compat.cuda_mindspore"
NV_DRIVER = "compat.nvidia_driver_cuda"

TITLES = {
    CUDA_MS: N_("MindSpore GPU build matches the CUDA runtime and cuDNN"),
    NV_DRIVER: N_("The NVIDIA driver can run the CUDA runtime MindSpore uses"),
}

def _cuda_mms(ctx) -> List[Tuple[str, str]]:
    out = []
    for lib in ctx.facts.cuda.runtime_libs:
        mm = major_minor(lib.get("version"))
        if mm:
            out.append((mm, lib.get("path") or "?"))
    return out


def _gpu_sources(matrix, ids) -> str:
    return matrix.describe_source(ids) or _("no source")


def _built_text(built: List[str], disputed: List[str]) -> str:
    """The CUDA versions of a release's GPU builds as its matrix row (the evidence) lists them, with those the
    sources disagree on said so: '10.1, 11.1 (the sources disagree on 11.6)'."""
    text = ", ".join(built) or _("none")
    extra = [c for c in disputed if c not in built]
    return _("{built} (the sources disagree on {disputed})").format(built=text, disputed=", ".join(extra)) \
        if extra else text


def _cudnn_problem(matrix, ms_version, cuda_mm: Optional[str], cudnn: Optional[str]) -> Optional[str]:
    """Why this cuDNN does not fit the CUDA of the build in use (the install guide's pair for that CUDA, and
    MindSpore's GPUEnvChecker rule: below 7.6, or below 8.0 with CUDA 11+), or None."""
    if not cudnn or not parse_version(cudnn).valid:
        return None
    v = parse_version(cudnn)
    pair = matrix.cudnn_for_cuda(cuda_mm, ms_version) if cuda_mm else None
    cu_major = int(cuda_mm.split(".")[0]) if cuda_mm and cuda_mm.split(".")[0].isdigit() else 0  # garbled: unknown
    if pair and parse_version(major_minor(cudnn)) < parse_version(pair["cudnn"]):
        return _("cuDNN {version} is older than the cuDNN {pair}.x MindSpore's install guide pairs with CUDA {cuda} "
                 "[{source}]").format(version=cudnn, pair=pair["cudnn"], cuda=cuda_mm,
                                      source=_gpu_sources(matrix, pair["source"]))
    if v < parse_version("7.6") or (cu_major > 10 and v < parse_version("8.0")):
        return _("cuDNN {version} is too old (MindSpore warns below 7.6, or below 8.0 with CUDA 11)").format(
            version=cudnn)
    return None


@check(CUDA_MS, TITLES[CUDA_MS], pitfalls=["P01"],
       fail=N_("MindSpore GPU build does not match the CUDA runtime or cuDNN"),
       warn=N_("MindSpore GPU build and CUDA/cuDNN: a mismatch MindSpore warns about"),
       skip=N_("No MindSpore GPU build to match with CUDA"))
def check_cuda_mindspore(ctx):
    from ._gpu_fix import keep_cuda_steps, keep_driver_steps, plan

    ms = _installed_mindspore(ctx)
    if not ms or not (ms.flavour == "gpu" or ms.cuda_version):
        return ctx.finding(SKIP, _("No MindSpore GPU build is planned.") if is_planned(ctx.facts) else
                           _("No MindSpore GPU build is installed."))
    if ms.gpu_cuda_versions or ms.accepted_cuda:
        # The installed package says which CUDA it needs; gpu.cuda_runtime_for_mindspore and gpu.cudnn judge
        # that on the machine (loader path, driver limit). This check is the matrix's view for a planned
        # install (`matrix check --cuda`) or a package that does not say.
        return ctx.finding(SKIP, _("Judged from the installed package by gpu.cuda_runtime_for_mindspore "
                                   "and gpu.cudnn."))
    matrix = ctx.matrix
    row = matrix.mindspore_row(ms.version)
    cuda = ctx.facts.cuda
    found = _cuda_mms(ctx)
    evidence: Dict[str, object] = {"mindspore": ms.version, "built_for_cuda": ms.cuda_version or _("unknown"),
                                   "libcudart_found": [f"{p} ({mm})" for mm, p in found] or _("none"),
                                   "matrix": _matrix_info(ctx)}
    if not row:
        return ctx.finding(WARN, _("MindSpore {version} has no row in the matrix; which CUDA its GPU build needs is "
                                   "unknown.").format(version=ms.version), evidence, [], "P01")
    gpu = row["gpu"]
    built = gpu["built_for"]["value"]
    checker = (gpu.get("cuda_checker") or {}).get("value", [])
    disputed = [d["cuda"] for d in gpu.get("disputed", [])]
    evidence["matrix_row"] = _("MindSpore {version}: GPU builds for CUDA {builds}; checker accepts {accepted} "
                               "[{source}]").format(version=row["version"], builds=_listed(built) or _("none listed"),
                                                    accepted=_listed(checker), source=matrix.describe_source(
                                                        (gpu.get("cuda_checker") or {}).get("source", [])))
    if disputed:
        evidence["sources_disagree"] = [
            _("CUDA {cuda}: listed by {yes}; not by {no}").format(cuda=d["cuda"], yes=_gpu_sources(matrix, d["listed_by"]),
                                                                no=_gpu_sources(matrix, d["not_listed_by"]))
            for d in gpu["disputed"]]
    if gpu.get("install_guide"):
        evidence["install_guide"] = _("CUDA {cuda}; cuDNN {cudnn}; Python {python} [{source}]").format(
            cuda=", ".join(gpu["install_guide"]["cuda"]),
            cudnn=", ".join(f"{k}: {v}" for k, v in gpu["install_guide"]["cudnn"].items()) or _("unknown"),
            python=", ".join(gpu["install_guide"]["python"]) or _("unknown"),
            source=_gpu_sources(matrix, gpu["install_guide"]["source"]))
    have = [mm for mm, _path in found]
    python = ctx.facts.python.version
    driver = cuda.driver_version
    problems, fix, status = [], [], PASS
    verdicts = {mm: matrix.gpu_verdict(ms.version, mm) for mm in have}
    if gpu["build"] == "none":
        status = WARN
        every_cuda = sorted({c for r in matrix.mindspore_releases for c in r["gpu"]["built_for"]["value"]})
        # releases with a GPU wheel for this Python first (2.10.0 has none for 3.9), then any
        with_gpu = matrix.mindspore_gpu_for_cuda(every_cuda, python=python) or matrix.mindspore_gpu_for_cuda(every_cuda)
        problems.append(_("No source publishes a GPU (CUDA) build of MindSpore {version}: neither its release list nor "
                          "a GPU install guide names one, though its checker lists CUDA {accepted}").format(
                              version=ms.version, accepted=", ".join(checker) or _("none")))
        # a release with a GPU build for the CUDA found when the driver runs it, else for a CUDA the driver runs
        steps = (keep_cuda_steps(matrix, have[0], python, driver, cuda.driver_cuda_max) if have else []) or \
            keep_driver_steps(matrix, driver, python, cuda.driver_cuda_max, have)
        if steps:
            fix += steps
        elif with_gpu:
            fix.append(_("install a MindSpore release that ships a GPU build, e.g. {releases}").format(
                releases=", ".join(f"{r['version']} (CUDA {', '.join(r['gpu']['built_for']['value'])})"
                                   for r in with_gpu[:2])))
    elif not found and is_planned(ctx.facts):
        # `matrix check` without --cuda: the plan's CUDA is open; say which the sources give (the driver check
        # judges them against --nvidia-driver)
        if not built:
            status = WARN
            d = gpu["disputed"][0]
            problems.append(_("The sources disagree on a GPU build of MindSpore {version}: {yes} lists CUDA {cuda}, "
                              "{no} does not").format(version=ms.version, cuda=", ".join(disputed),
                                                      yes=_gpu_sources(matrix, d["listed_by"]),
                                                      no=_gpu_sources(matrix, d["not_listed_by"])))
        else:
            return ctx.finding(PASS, _("MindSpore {version} has GPU builds for CUDA {cuda}; plan one of them "
                                       "(--cuda checks it).").format(version=ms.version, cuda=", ".join(built)),
                               evidence)
    elif not found:
        status = FAIL
        options = matrix.gpu_cuda_options(ms.version)
        problems.append(_("No libcudart was found; MindSpore GPU {version} needs the CUDA {cuda} runtime "
                          "(ImportError: libcudart.so.X: cannot open shared object file)").format(
                              version=ms.version, cuda=_(" or ").join(options)))
        p = plan(matrix, ms.version, python, driver, prefer=[major_minor(ms.cuda_version)] if ms.cuda_version else None,
                 cuda_max=cuda.driver_cuda_max, node_cuda=have)
        fix += p["steps"] + p["alternative"]
    elif major_minor(ms.cuda_version) and not any(mm.split(".")[0] == major_minor(ms.cuda_version).split(".")[0]
                                                  for mm in have):
        # the build names its CUDA (a mindspore-gpu cuda-11.1 wheel): another major's libcudart does not load it
        status = FAIL
        need = major_minor(ms.cuda_version)
        problems.append(_("MindSpore {version} was built for CUDA {cuda} but the runtime found is {found}").format(
            version=ms.version, cuda=need, found=", ".join(have)))
        p = plan(matrix, ms.version, python, driver, prefer=[need], cuda_max=cuda.driver_cuda_max, node_cuda=have)
        fix += p["steps"] + p["alternative"]
        fix += keep_cuda_steps(matrix, have[0], python, driver, cuda.driver_cuda_max)
    else:
        best = min(verdicts.values(), key=lambda x: {"pass": 0, "warn": 1, "unknown": 2, "fail": 3}[x["status"]])
        mm = next(m for m, x in verdicts.items() if x is best)
        if best["why"] == "disputed":
            d = best["disputed"]
            status = WARN
            problems.append(_("The sources disagree on a CUDA {cuda} build of MindSpore {version}: {yes} lists it, {no} "
                              "does not").format(cuda=mm, version=ms.version, yes=_gpu_sources(matrix, d["listed_by"]),
                                                 no=_gpu_sources(matrix, d["not_listed_by"])))
            # the wheel settles what the sources do not: MindSpore's own check on the installed build
            check = run_check_step(ms.version, _("python -c \"import mindspore; mindspore.run_check()\"   # MindSpore's "
                                                 "own check: it runs on this CUDA, or says why not"),
                                   _("{command}   # MindSpore's own check on the GPU: it runs on this CUDA, or says "
                                     "why not"))
            # the way every source agrees on: a CUDA of `built` (one the driver runs) in a new environment, as
            # commands; the check of the build as it is, the other way (a look changes nothing)
            p = plan(matrix, ms.version, python, driver, cuda_max=cuda.driver_cuda_max, node_cuda=have) \
                if built else None
            if p and p["cuda"] in built and not p["driver_upgrade"]:
                fix += p["steps"]
                fix += [or_heading(_("keep CUDA {cuda}: MindSpore's own check on the build settles what the sources "
                                     "do not").format(cuda=mm)), check]
            else:
                fix.append(check)
        elif best["why"] == "checker-only":
            status = WARN
            problems.append(_("MindSpore {version}'s checker accepts CUDA {cuda}, but its GPU builds are for CUDA {built} "
                              "only [{source}]: a CUDA {major} runtime loads them, MindSpore does not publish a build "
                              "for {cuda}").format(version=ms.version, cuda=mm, built=", ".join(built),
                                                   source=_gpu_sources(matrix, best["source"]),
                                                   major=mm.split(".")[0]))
        elif best["why"] == "not-accepted":
            status = WARN
            problems.append(_("MindSpore {version} has a CUDA {cuda} build, but its checker accepts only CUDA "
                              "{accepted} and warns at start-up").format(version=ms.version, cuda=mm,
                                                                        accepted=", ".join(checker)))
        elif best["why"] == "outside":
            status = FAIL
            problems.append(_("MindSpore {version} has GPU builds for CUDA {built} and its checker accepts {accepted}, "
                              "but the runtime found is {found}").format(
                                  version=ms.version, built=_built_text(built, disputed),
                                  accepted=", ".join(checker), found=", ".join(have)))
            p = plan(matrix, ms.version, python, driver, cuda_max=cuda.driver_cuda_max, node_cuda=have)
            fix += p["steps"] + p["alternative"]
            fix += keep_cuda_steps(matrix, have[0], python, driver, cuda.driver_cuda_max)
    need_mm = major_minor(ms.cuda_version)
    if cuda.driver_cuda_max and need_mm and not driver:
        evidence["driver_cuda_max"] = cuda.driver_cuda_max
        if parse_version(cuda.driver_cuda_max) < parse_version(need_mm):
            status = FAIL
            problems.append(_("The NVIDIA driver supports CUDA up to {max}, older than the CUDA {cuda} MindSpore "
                              "needs").format(max=cuda.driver_cuda_max, cuda=need_mm))
            fix[:0] = [_("upgrade the NVIDIA driver to one that supports CUDA {cuda} (nvidia-smi shows the maximum)")
                       .format(cuda=need_mm)]
    if cuda.cudnn_version:
        evidence["cudnn"] = cuda.cudnn_version
        cu = [mm for mm in have if verdicts[mm]["status"] != "fail"] or have or matrix.gpu_cuda_options(ms.version)[:1]
        pair = matrix.cudnn_for_cuda(cu[0], ms.version) if cu else None
        if pair:
            evidence["cudnn_per_install_guide"] = [f"CUDA {pair['cuda']} + cuDNN {pair['cudnn']}.x"]
        why = _cudnn_problem(matrix, ms.version, cu[0] if cu else None, cuda.cudnn_version)
        if why:
            status = FAIL if status == FAIL else WARN
            problems.append(why)
            fix.append(_("install cuDNN {cudnn} for CUDA {cuda}").format(
                cudnn=pair["cudnn"] if pair else "8.x", cuda=cu[0] if cu else "").strip())
    if status == PASS:
        return ctx.finding(PASS, _("MindSpore {version} GPU finds CUDA {found}, which it supports.").format(
            version=ms.version, found=", ".join(sorted(set(have)))), evidence)
    return ctx.finding(status, _("{problems}.").format(problems=_("; ").join(problems)), evidence, fix, "P01")


@check(NV_DRIVER, TITLES[NV_DRIVER], pitfalls=["P01"],
       fail=N_("The NVIDIA driver is too old for the CUDA runtime"),
       warn=N_("The NVIDIA driver runs the CUDA runtime, below what a source asks"),
       skip=N_("No NVIDIA driver and CUDA runtime to compare"))
def check_nvidia_driver_cuda(ctx):
    from ._gpu_fix import (driver_upgrade_steps, driver_verdict, keep_driver_steps, meets_mindspore_guide, needs_text,
                           plan, verify_step)

    cuda = ctx.facts.cuda
    driver = cuda.driver_version
    ms = _installed_mindspore(ctx)
    gpu_ms = ms if ms and (ms.flavour in ("gpu", "unified") or ms.cuda_version or ms.gpu_cuda_versions) else None
    if not driver:
        return ctx.finding(SKIP, _("The NVIDIA driver version is unknown (no nvidia-smi, no --nvidia-driver)."))
    matrix = ctx.matrix
    runtimes = sorted({mm for mm, _path in _cuda_mms(ctx)}, key=version_key, reverse=True)
    evidence: Dict[str, object] = {"nvidia_driver": driver, "matrix": _matrix_info(ctx)}
    if cuda.driver_cuda_max:
        evidence["driver_supports_cuda_up_to"] = cuda.driver_cuda_max
    if runtimes:
        cudas = runtimes
        evidence["cuda_runtime"] = ", ".join(runtimes)
    elif gpu_ms:
        cudas = matrix.gpu_cuda_options(gpu_ms.version)
        evidence["cuda_of_mindspore_builds"] = ", ".join(cudas) or _("none")
    else:
        return ctx.finding(SKIP, _("No CUDA runtime and no MindSpore GPU build to judge the driver against."), evidence)
    judged = []
    needed = []
    for c in cudas:
        need = matrix.nvidia_driver_min(c)
        judged.append((c, driver_verdict(matrix, driver, c), need))
        needed.append(_("CUDA {cuda}: {needs}").format(cuda=c, needs=needs_text(matrix, c, with_sources=True)
                                                       or _("unknown")))
    evidence["driver_needed"] = needed
    order = {"ok": 0, "below-asked": 1, None: 2, "too-old": 3}
    if not runtimes:  # a planned MindSpore without --cuda: is there a build this driver runs?
        judged.sort(key=lambda j: order[j[1]])
    c, verdict, need = judged[0] if not runtimes else max(judged, key=lambda j: order[j[1]])
    version = gpu_ms.version if gpu_ms else None
    python = ctx.facts.python.version
    if verdict == "ok":
        return ctx.finding(PASS, _("NVIDIA driver {driver} runs CUDA {cuda} (it needs {asked} or newer).").format(
            driver=driver, cuda=c, asked=need["asked"]), evidence)
    if verdict is None:
        return ctx.finding(WARN, _("No source in the matrix names the NVIDIA driver CUDA {cuda} needs; whether driver "
                                   "{driver} runs it is unknown.").format(cuda=c, driver=driver), evidence, [], "P01")
    if verdict == "below-asked":
        fix = driver_upgrade_steps(matrix, driver, c)
        p = plan(matrix, version, python, driver, cuda_max=cuda.driver_cuda_max, node_cuda=runtimes) \
            if version else None
        if p and p["cuda"] and p["cuda"] != c and not p["driver_upgrade"] and \
                not meets_mindspore_guide(matrix, driver, c, cuda.driver_cuda_max):
            # below the driver MindSpore's guide asks for CUDA c, at least what it asks for another CUDA this release
            # has a build for (plan: one every source says it runs first): that CUDA in a new environment (no root),
            # the driver upgrade that keeps CUDA c the other way
            fix = p["steps"] + [or_heading(_("keep CUDA {cuda}: upgrade the NVIDIA driver (root, a reboot)").format(
                cuda=c))] + fix
        elif version and meets_mindspore_guide(matrix, driver, c, cuda.driver_cuda_max):
            # MindSpore's guide accepts this driver for CUDA c, NVIDIA's toolkit table asks for more: its own check on
            # the GPU settles it (no root); the driver upgrade, the other way
            fix = [verify_step(version), or_heading(_("if that check fails: upgrade the NVIDIA driver (root, a "
                                                      "reboot)"))] + fix
        return ctx.finding(WARN, _("NVIDIA driver {driver} runs CUDA {cuda} only through CUDA minor version "
                                   "compatibility ({runs_by}), with limited features (no PTX JIT of newer code); "
                                   "{asked_by} ask for more.").format(
                                       driver=driver, cuda=c, runs_by=needs_text(matrix, c, only=need["runs"]),
                                       asked_by=needs_text(matrix, c, only=need["asked"])),
                           evidence, fix, "P01")
    # too old: upgrade first, or keep the driver and give MindSpore a CUDA it runs
    fix = driver_upgrade_steps(matrix, driver, c)
    keep: List[str] = []
    if version:
        p = plan(matrix, version, python, driver)
        if not p["driver_upgrade"] and p["cuda"]:
            keep = [or_heading(_("keep driver {driver}: MindSpore {version} has a build for CUDA {cuda}, which it "
                                 "runs").format(driver=driver, version=version, cuda=p["cuda"]))] + p["steps"]
        else:
            keep = p["alternative"] or keep_driver_steps(matrix, driver, python)
    built_any = {x for r in matrix.mindspore_releases for x in r["gpu"]["built_for"]["value"]}
    if keep and c not in built_any:
        # no MindSpore release has a build for CUDA c: a driver upgrade for it serves no MindSpore; the CUDA this
        # driver runs is the answer, the upgrade the other way
        fix = keep + [or_heading(_("upgrade the NVIDIA driver for CUDA {cuda} (no MindSpore release has a GPU build "
                                   "for it)").format(cuda=c))] + fix
    else:
        fix += keep
    return ctx.finding(FAIL, _("NVIDIA driver {driver} is older than {runs}, the least driver CUDA {cuda} runs on "
                               "({by}): CUDA calls fail with 'CUDA driver version is insufficient for CUDA runtime "
                               "version'.").format(driver=driver, runs=need["runs"], cuda=c,
                                                   by=needs_text(matrix, c, only=need["runs"])),
                       evidence, fix, "P01")
