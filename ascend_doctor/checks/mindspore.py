"""The installed MindSpore package: present, one copy, built for this Python and this device (P21).

Everything comes from files (probes/mindspore_pkg.py): these checks give a
verdict even when `import mindspore` itself crashes.
"""

from __future__ import annotations

import re
from typing import List

from ..findings import ERROR, FAIL, PASS, SKIP, WARN
from ..i18n import _, sentences
from ..plan import or_step
from ..i18n_text import localized
from . import check
from ._accelerators import device_phrase, gpu_present, npu_present
from ..versions import python_major_minor, python_spec_allows, version_key


def _describe(ms) -> str:
    backends = ", ".join(ms.backends) if ms.backends else _("unknown backends")
    if ms.gpu_cuda_versions:
        return _("{dist} {version} ({flavour} build: {backends}; GPU plugins for CUDA {cuda})").format(
            dist=ms.dist_name, version=ms.version, flavour=ms.flavour, backends=backends,
            cuda=", ".join(ms.gpu_cuda_versions))
    return _("{dist} {version} ({flavour} build: {backends})").format(dist=ms.dist_name, version=ms.version,
                                                                      flavour=ms.flavour, backends=backends)


# -- installed ---------------------------------------------------------------------

def _newest_on_pypi(matrix):
    rows = [r for r in matrix.mindspore_releases if r["release_kind"] in ("final", "post") and matrix.on_pypi(r)]
    return max(rows, key=lambda r: version_key(r["version"]))["version"] if rows else None


def _newest_on_pypi_runtime(matrix) -> str:
    """CUDA 11.6 in conda for the release `pip install mindspore` installs, with a cuDNN conda-forge builds for it."""
    from ._gpu_fix import conda_cudnn

    c = conda_cudnn(matrix, _newest_on_pypi(matrix), "11.6")
    if not c["nearest"]:
        return _("conda install -c conda-forge cudatoolkit=11.6 'cudnn>=8,<9'   # when the system CUDA is not 11.x; "
                 "then export LD_LIBRARY_PATH=$CONDA_PREFIX/lib:$LD_LIBRARY_PATH")
    return _("conda install -c conda-forge cudatoolkit=11.6 {cudnn}   # when the system CUDA is not 11.x; then export "
             "LD_LIBRARY_PATH=$CONDA_PREFIX/lib:$LD_LIBRARY_PATH (conda-forge has no cuDNN {guide}, the one MindSpore's "
             "install guide pairs with CUDA 11.6; {nearest} is the nearest newer one [{source}])").format(
        cudnn=c["spec"], guide=c["guide"], nearest=c["nearest"], source=c["source"])


def _newest_on_pypi_check(matrix) -> str:
    """MindSpore's own check on the GPU for the release `pip install mindspore` installs (the newest on PyPI)."""
    from ._gpu_fix import RUN_CHECK, gpu_run_check, verify_step

    newest = _newest_on_pypi(matrix)
    if gpu_run_check(newest) != RUN_CHECK:
        return verify_step(newest)
    return _("python -c \"import mindspore; mindspore.run_check()\"   # reports the device it ran on")


@check("mindspore.installed", "MindSpore is installed in this Python",
       warn="MindSpore is not installed in this Python", fail="MindSpore is not installed in this Python",
       error="Could not tell whether MindSpore is installed",
       skip="MindSpore not installed (nothing here to run it on but the CPU)")
def check_installed(ctx):
    facts = ctx.facts
    ms = facts.mindspore
    if ms.installed:
        return ctx.finding(PASS, summary=_("{dist} {version}, {flavour} build").format(
                               dist=ms.dist_name, version=ms.version, flavour=ms.flavour),
                           evidence={"build": _describe(ms), "dist-info": ms.dist_info,
                                     "package": ms.package_dir or _("missing"),
                                     "decided by": localized(ms.flavour_source) or "-"})
    py = facts.python
    evidence = {"python": f"{py.version or '?'} ({py.executable or '?'})",
                "searched": ", ".join(py.site_packages) or _("no site-packages recorded"),
                "devices": device_phrase(facts)}
    if not py.site_packages:
        return ctx.finding(ERROR, summary=_("Could not look for MindSpore: the Python's site-packages directories "
                                            "are unknown (not recorded in this snapshot)."),
                           evidence=evidence)
    if npu_present(facts):
        advice = _advice_for_installed_cann(ctx)
        evidence.update(advice.evidence)
        return ctx.finding(WARN,
                           summary=sentences(
                               _("MindSpore is not installed in this Python, and this machine has Ascend NPUs."),
                               _("Since 2.0 one `mindspore` package carries the Ascend backend (there is no separate "
                                 "mindspore-ascend any more)."), advice.summary),
                           evidence=evidence,
                           fix=advice.fix + [
                               _("python -c \"import mindspore; mindspore.run_check()\"   # reports the device it ran on")])
    if gpu_present(facts):
        return ctx.finding(WARN,
                           summary=sentences(
                               _("MindSpore is not installed in this Python, and this machine has NVIDIA GPUs."),
                               _("The Linux x86_64 `mindspore` wheel carries GPU plugins for CUDA 11.1 and 11.6 "
                                 "(libmindspore_gpu.so.11.1/.11.6; none for CUDA 12), so it needs one of those CUDA "
                                 "runtimes with cuDNN 8.")),
                           evidence=evidence,
                           fix=["pip install mindspore",
                                _newest_on_pypi_runtime(ctx.matrix),
                                # the newest release on PyPI is what `pip install mindspore` installs: its guide's check
                                _newest_on_pypi_check(ctx.matrix)])
    return ctx.finding(SKIP,
                       summary=sentences(
                           _("MindSpore is not installed, and this machine has no NPU and no NVIDIA GPU: nothing to run "
                             "it on but the CPU."),
                           _("Install it here only to try MindSpore on the CPU.")),
                       evidence=evidence, fix=[_("pip install mindspore   # CPU is enough to learn the API")])


def _advice_for_installed_cann(ctx):
    """The MindSpore release published with the CANN MindSpore would use here (see checks/_recommend.py)."""
    from ._recommend import advise_mindspore
    from .compat import judged_cann

    cann, _judged, why = judged_cann(ctx.facts)
    try:
        matrix = ctx.matrix
    except Exception:  # the matrix is advice here; compat.* reports a broken matrix on its own
        matrix = None
    if cann is None or matrix is None:
        from ._recommend import MindSporeAdvice

        return MindSporeAdvice(fix=[_("install CANN first (see install.cann_present), then the MindSpore release "
                                      "published with it: https://www.mindspore.cn/install")],
                               summary=_("No CANN install was found, so no MindSpore release can be chosen for it."))
    advice = advise_mindspore(matrix, ctx.facts, cann.release, cann.compiler_version)
    advice.evidence["CANN judged"] = _("{root} ({release}; {why})").format(
        root=cann.root, release=cann.release or _("release unknown"), why=why)
    return advice


# -- Python version (P21) ------------------------------------------------------------------

def _wheel_pythons(tags: List[str]) -> List[str]:
    out = []
    for tag in tags:
        m = re.match(r"cp(\d)(\d+)-", tag)
        if m:
            v = f"{m.group(1)}.{m.group(2)}"
            if v not in out:
                out.append(v)
    return out


def _reinstall_step(matrix, ms, requirement: str) -> str:
    """The same MindSpore again, from where it is published: pip only where PyPI carries the release (1.10.1 and
    most releases before 2.7 are on the download page only, and `pip install mindspore==X` cannot resolve there)."""
    from ..matrix import mindspore_install_steps

    row = matrix.mindspore_row(ms.version)
    if row is not None and not matrix.on_pypi(row):
        return mindspore_install_steps([row], _("the same MindSpore, in a Python it supports"), limit=1)[0]
    if row is None:
        return _("pip install {requirement}   # the same MindSpore, in a Python it supports; if PyPI does not "
                 "carry it: https://www.mindspore.cn/versions").format(requirement=requirement)
    return _("pip install {requirement}   # the same MindSpore, in a Python it supports").format(requirement=requirement)


@check("mindspore.python_supported", "This Python is one the installed MindSpore was built for", pitfalls=["P21"],
       fail="This Python cannot load the installed MindSpore",
       warn="Could not confirm MindSpore was built for this Python", error="This Python's version is unknown",
       skip="MindSpore is not installed: no Python to match")
def check_python_supported(ctx):
    ms, py = ctx.facts.mindspore, ctx.facts.python
    if not ms.installed:
        return ctx.finding(SKIP, summary=_("MindSpore is not installed."))
    running = python_major_minor(py.version)
    if not running:
        return ctx.finding(ERROR, summary=_("The running Python's version is unknown (not recorded)."))
    if ms.extension_pythons:
        built, basis = ms.extension_pythons, _("compiled modules in the package (_c_expression.cpython-XY-*.so)")
    else:
        built, basis = _wheel_pythons(ms.wheel_tags), _("WHEEL Tag lines")
    evidence = {"running Python": f"{py.version} ({py.executable or '?'})",
                "MindSpore built for": ", ".join(built) or _("not stated"),
                "read from": basis if built else "-",
                "Requires-Python": ms.requires_python or _("not stated"), "wheel tags": ", ".join(ms.wheel_tags) or "-"}
    pick = sorted(built, key=version_key)[-1] if built else None
    reinstall = f"{ms.dist_name}=={ms.version}"
    if built and running not in built:
        return ctx.finding(FAIL,
                           summary=_("MindSpore {version} was built for Python {built} but runs under Python "
                                     "{running}: its compiled core cannot load, so `import mindspore` fails (No module "
                                     "named 'mindspore._c_expression').").format(version=ms.version, built=", ".join(built),
                                                                                 running=py.version),
                           evidence=evidence, pitfall="P21",
                           fix=[f"conda create -n ms python={pick} -y && conda activate ms",
                                _reinstall_step(ctx.matrix, ms, reinstall),
                                or_step(_("pip index versions mindspore   # run with this Python; lists releases that "
                                          "publish wheels for it"), _("stay on Python {version}").format(version=running))])
    if ms.requires_python:
        allowed = python_spec_allows(ms.requires_python, py.version)
        if allowed is False:
            return ctx.finding(FAIL,
                               summary=_("MindSpore {version} requires Python {spec}; this is Python {running} "
                                         "(installed against pip's check, e.g. with --ignore-requires-python or by "
                                         "copying files).").format(version=ms.version, spec=ms.requires_python,
                                                                   running=py.version),
                               evidence=evidence, pitfall="P21",
                               fix=[f"conda create -n ms python={pick or _newest_allowed(ms.requires_python)} -y "
                                    "&& conda activate ms", f"pip install {reinstall}"])
    if not built and not ms.requires_python:
        return ctx.finding(WARN, summary=_("Neither the package nor its metadata says which Python it was built for; "
                                           "could not confirm."), evidence=evidence)
    return ctx.finding(PASS, summary=_("Python {running}; MindSpore built for {built}").format(
                           running=py.version, built=", ".join(built) or ms.requires_python),
                       evidence=evidence)


# -- one distribution ------------------------------------------------------------------------

@check("mindspore.single_distribution", "Only one MindSpore distribution is installed",
       fail="Several MindSpore distributions share one directory", warn="MindSpore is installed more than once",
       skip="MindSpore is not installed")
def check_single_distribution(ctx):
    ms = ctx.facts.mindspore
    dists = ms.distributions
    if not dists:
        return ctx.finding(SKIP, summary=_("MindSpore is not installed."))
    evidence = {d["dist_info"]: f"{d['name']} {d['version']}" for d in dists}
    if len(dists) == 1:
        return ctx.finding(PASS, summary=f"{dists[0]['name']} {dists[0]['version']}", evidence=evidence)
    names = sorted({d["name"] for d in dists})
    locations = {}
    for d in dists:
        locations.setdefault(d["location"], []).append(d)
    keep = f"{ms.dist_name}=={ms.version}" if ms.dist_name else "mindspore"
    fix = [_("pip uninstall -y {names}   # repeat until pip says none is installed").format(names=" ".join(names)),
           _("pip install --no-cache-dir {requirement}   # exactly one, the build for this machine's device").format(
               requirement=keep)]
    shared = [loc for loc, ds in locations.items() if len(ds) > 1]
    if shared:
        loc = shared[0]
        return ctx.finding(FAIL,
                           summary=sentences(
                               _("{count} MindSpore distributions are installed into {location} ({names}).").format(
                                   count=len(locations[loc]), location=loc,
                                   names=", ".join(d["name"] + " " + d["version"] for d in locations[loc])),
                               _("They all write the same mindspore/ directory: its files are a mix of whichever was "
                                 "installed last, and uninstalling one deletes files the other needs.")),
                           evidence=evidence, fix=fix)
    order = [d["location"] for d in dists]
    return ctx.finding(WARN,
                       summary=_("MindSpore is installed in {count} places ({locations}); the first on sys.path "
                                 "shadows the others, so upgrades to the other copy seem to have no effect.").format(
                                     count=len(locations), locations=", ".join(order)),
                       evidence=evidence, fix=fix)


# -- build vs device ---------------------------------------------------------------------------

@check("mindspore.flavour_matches_device", "The MindSpore build can use the accelerators on this machine",
       fail="The MindSpore build cannot use the accelerators on this machine",
       warn="The MindSpore build is for an accelerator this machine does not have",
       error="Could not tell which devices the MindSpore build supports", skip="MindSpore is not installed")
def check_flavour_matches_device(ctx):
    facts = ctx.facts
    ms = facts.mindspore
    if not ms.installed:
        return ctx.finding(SKIP, summary=_("MindSpore is not installed."))
    has_npu, has_gpu = npu_present(facts), gpu_present(facts)
    evidence = {"MindSpore": _describe(ms), "decided by": localized(ms.flavour_source) or "-",
                "devices": device_phrase(facts)}
    if ms.flavour in (None, "unknown"):
        return ctx.finding(ERROR, summary=_("Could not tell which devices this MindSpore build supports (no plugin "
                                            "libraries found, no device in its name)."), evidence=evidence)
    replace = [f"pip uninstall -y {ms.dist_name}"]
    if has_npu and "ascend" not in ms.backends:
        return ctx.finding(FAIL,
                           summary=_("This machine has Ascend NPUs but the installed MindSpore is a {flavour} build "
                                     "without the Ascend backend: training runs on the CPU or GPU, or "
                                     "device_target='Ascend' fails.").format(flavour=ms.flavour),
                           evidence=evidence,
                           fix=replace + [_("pip install mindspore==<release>   # the 2.x package includes the Ascend "
                                            "backend; pick the release that supports your CANN (see the compat findings)")])
    if has_gpu and not has_npu and "gpu" not in ms.backends:
        summary = _("This machine has NVIDIA GPUs but the installed MindSpore is a {flavour} build without the GPU "
                    "backend (the Linux aarch64 wheels carry no GPU plugin): it runs on the CPU only.") \
            if (facts.system.arch or "") == "aarch64" else \
            _("This machine has NVIDIA GPUs but the installed MindSpore is a {flavour} build without the GPU backend: "
              "it runs on the CPU only.")
        return ctx.finding(FAIL,
                           summary=summary.format(flavour=ms.flavour),
                           evidence=evidence,
                           fix=replace + [_("pip install mindspore   # the Linux x86_64 wheel carries GPU plugins for "
                                            "CUDA 11.1 and 11.6")])
    if not has_npu and not has_gpu and ms.flavour in ("gpu", "ascend"):
        device = "NVIDIA GPU" if ms.flavour == "gpu" else "Ascend NPU"
        return ctx.finding(WARN,
                           summary=_("The installed MindSpore is a {flavour} build but no {device} was found here: it "
                                     "cannot run its device code, and the build may not even import without the "
                                     "{stack} libraries.").format(flavour=ms.flavour, device=device,
                                                                  stack="CUDA" if ms.flavour == "gpu" else "CANN"),
                           evidence=evidence,
                           fix=[_("run on the machine with the accelerator"),
                                or_step(_("pip uninstall -y {dist} && pip install mindspore   # CPU works everywhere")
                                        .format(dist=ms.dist_name))])
    used = [b for b, here in (("ascend", has_npu), ("gpu", has_gpu)) if here and b in ms.backends]
    names = [u.upper() if u == "gpu" else "Ascend" for u in used]
    return ctx.finding(PASS,
                       summary=(_("{flavour} build; it can use the {devices} found here").format(
                                    flavour=ms.flavour, devices=_("{first} and {second}").format(
                                        first=names[0], second=names[1]) if len(names) > 1 else names[0])
                                if used else _("{flavour} build; no accelerator here, it runs on the CPU").format(
                                    flavour=ms.flavour)),
                       evidence=evidence)


def _newest_allowed(spec: str) -> str:
    """The newest CPython minor (3.8-3.13, the ones MindSpore has shipped for) that `spec` admits; else `<X.Y>`
    for the user to fill in from the spec, never a version the spec excludes."""
    for minor in range(13, 7, -1):
        if python_spec_allows(spec, f"3.{minor}.0"):
            return f"3.{minor}"
    return "<X.Y>"
