"""The fix steps for MindSpore on CUDA, one place for every GPU check (compat.cuda_mindspore, compat.nvidia_driver_cuda,
gpu.cuda_runtime_for_mindspore, gpu.cudnn, compat.python_mindspore on a GPU plan).

The steps are plain commands in dependency order (docs/matrix.md "MindSpore on CUDA"):

1. the NVIDIA driver, when no CUDA this MindSpore has a build for runs on it (driver level, before the runtime);
2. a new conda environment with the Python the GPU wheel exists for;
3. the CUDA runtime and the cuDNN its install guide pairs with it, into that environment;
4. MindSpore itself, the same release with the build for that CUDA (pip from PyPI, else the wheel URL of the
   release's GPU install guide): a new environment is empty, so MindSpore must be installed into it;
5. the loader path and MindSpore's own check.

A CUDA the driver cannot run is never installed: the plan keeps a CUDA the driver runs when the release has a build
for one, else it upgrades the driver first; the other way out (a MindSpore release with a build for a CUDA this driver
runs) is offered as an alternative.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from ..i18n import _
from ..i18n_text import join
from ..plan import or_heading
from ..versions import dotted_numbers, major_minor, python_major_minor, version_key

ENV_NAME = "ms-gpu"

# MindSpore's own check, as the GPU install guides run it ("Installation Verification", mindspore-ai/docs
# install/mindspore_gpu_install_pip_en.md). Releases before 2.1 (the guides of r1.5-r2.0, e.g. @4365012b line 261):
# `run_check()` alone, their GPU package runs on the GPU. From 2.1 the one `mindspore` wheel carries every backend
# and the guide selects the GPU first, or the check may pass on the CPU: `set_context(device_target='GPU')` (r2.1
# @f55d64cc line 261 to r2.3; the r2.4.x branches' own install guides still use set_context), and from 2.5.0, whose
# API reference first has mindspore.set_device (https://www.mindspore.cn/docs/en/r2.5.0/api_python/mindspore/
# mindspore.set_device.html), `set_device(device_target='GPU')` (guide @5a801d32 for 2.5.0, @cffd40f6 for 2.6.0).
RUN_CHECK = "python -c \"import mindspore; mindspore.run_check()\""
_SET_CONTEXT = "python -c \"import mindspore; mindspore.set_context(device_target='GPU'); mindspore.run_check()\""
_SET_DEVICE = "python -c \"import mindspore; mindspore.set_device(device_target='GPU'); mindspore.run_check()\""


def gpu_run_check(mindspore: Any) -> str:
    """The command that runs MindSpore's own check on the GPU, as the GPU install guide of that release writes it
    (RUN_CHECK when the release is unknown: no API is named that it may not have)."""
    nums = dotted_numbers(mindspore)[:2]
    if len(nums) < 2:
        return RUN_CHECK
    return _SET_DEVICE if nums >= (2, 5) else _SET_CONTEXT if nums >= (2, 1) else RUN_CHECK


def run_check_step(mindspore: Any, plain: str, worded: str) -> str:
    """A fix step that runs MindSpore's own check on the GPU: `plain` (the step as written for a release whose guide
    runs run_check() alone) or `worded` ('{command}   # why') with the release's command."""
    command = gpu_run_check(mindspore)
    return plain if command == RUN_CHECK else worded.format(command=command)


def verify_step(mindspore: Any) -> str:
    """The last step of a GPU plan: MindSpore's own check, on the GPU where the release's guide selects it."""
    return run_check_step(mindspore, RUN_CHECK, _("{command}   # on the GPU, as MindSpore's GPU install guide runs it "
                                                  "(without it the check may pass on the CPU)"))


def who_label(who: str, cuda: str) -> str:
    """The words for one driver minimum's source (Matrix.nvidia_driver_min 'by' entries)."""
    return {"nvidia-minor-compat": _("NVIDIA (CUDA minor version compatibility)"),
            "nvidia-toolkit": _("NVIDIA (CUDA {cuda} toolkit)").format(cuda=cuda),
            "mindspore-guide": _("MindSpore's GPU install guide")}.get(who, who)


def needs_text(matrix, cuda: str, only: Optional[str] = None, with_sources: bool = False) -> str:
    """'NVIDIA (...) >= 450.80.02; MindSpore's GPU install guide >= 510.39.01' for one CUDA; `only`: that driver."""
    need = matrix.nvidia_driver_min(cuda)
    parts = []
    for d, who, src in need["by"]:
        if only and d != only:
            continue
        text = _("{who} >= {driver}").format(who=who_label(who, need["cuda"]), driver=d)
        parts.append(_("{text} [{source}]").format(text=text, source=matrix.describe_source(src)) if with_sources
                     else text)
    return join(_("; "), dict.fromkeys(parts))


def driver_verdict(matrix, driver: Optional[str], cuda: Optional[str], cuda_max: Optional[str] = None) -> Optional[str]:
    """'ok' | 'below-asked' (runs, but below what MindSpore's guide or the toolkit asks) | 'too-old' | None (unknown).
    Without the driver's version, nvidia-smi's 'CUDA Version' (the newest CUDA it supports) decides: newer within
    the same major runs through minor version compatibility."""
    if (not driver or not dotted_numbers(driver)) and cuda_max and cuda and major_minor(cuda):
        have, want = dotted_numbers(cuda_max)[:2], dotted_numbers(major_minor(cuda))[:2]
        return "ok" if want <= have else "below-asked" if want[:1] == have[:1] and want[0] >= 11 else "too-old"
    if not driver or not cuda or not dotted_numbers(driver):
        return None
    need = matrix.nvidia_driver_min(cuda)
    if not need["runs"]:
        return None
    have = dotted_numbers(driver)
    if have < dotted_numbers(need["runs"]):
        return "too-old"
    if need["asked"] and have < dotted_numbers(need["asked"]):
        return "below-asked"
    return "ok"


def meets_mindspore_guide(matrix, driver: Optional[str], cuda: str, cuda_max: Optional[str] = None) -> bool:
    """The driver runs this CUDA and is at least the NVIDIA driver every MindSpore GPU install guide that names this
    CUDA asks for it (below what NVIDIA's toolkit table asks at most); False when that is not known."""
    if not driver or not dotted_numbers(driver) or driver_verdict(matrix, driver, cuda, cuda_max) != "below-asked":
        return False
    guide = [d for d, who, _src in matrix.nvidia_driver_min(cuda)["by"] if who == "mindspore-guide"]
    return bool(guide) and all(dotted_numbers(driver) >= dotted_numbers(d) for d in guide)


# conda-forge's cuDNN releases (major.minor) and the CUDA of the cudatoolkit each one's builds install with ("11":
# any 11.x, the build depends on `cudatoolkit 11.*`), read from conda-forge/cudnn-feedstock's recipe/meta.yaml and
# .ci_support at the commit named. 8.0.5.39 has no CUDA 11.1 build, and there is no 8.5 (nor 8.6 / 8.7) at all.
CUDNN_FEEDSTOCK = "https://github.com/conda-forge/cudnn-feedstock/blob/{commit}/recipe/meta.yaml"
CONDA_FORGE_CUDNN = (
    ("7.6", ("9.2", "10.0", "10.1", "10.2"),
     "a7f01825b8bb15daa2d3bedb43a210f14ea2335d"),  # 7.6.5.32, one build per CUDA
    ("8.0", ("10.1", "10.2", "11.0"),
     "5ede3d4d3bf72590272398b239dce93907070a3f"),  # 8.0.5.39, one build per CUDA
    ("8.1", ("10.2", "11"),
     "a4585e4d3d25db4d2baba8d2cafffd65db260d90"),  # 8.1.0.77: the CUDA 11.2 build runs with cudatoolkit 11.*
    ("8.2", ("10.2", "11"),
     "c01c06a2aa8598a97a57c4625847e3fca7319117"),  # 8.2.1.32
    ("8.4", ("11",),
     "04c4c5af90b23105ce774918c8ed12da526089cc"),  # 8.4.1.50: cudatoolkit 11.*
    ("8.8", ("11", "12"),
     "c5ab94dedbfea91989b43fbf0e908582395ba34c"),  # 8.8.0.121: cuda-version 11.* and cudatoolkit 11.* for CUDA 11
    ("8.9", ("11", "12"),
     "625ec7bbaeb46d1e480fb45b5d9cc2d926c2e894"),  # 8.9.7.29
)


def conda_cudnn(matrix, mindspore: Any, cuda: Optional[str]) -> Dict[str, Any]:
    """The cuDNN to ask conda-forge for beside cudatoolkit=`cuda`: {"spec", "guide" (the cuDNN MindSpore's install
    guide pairs with that CUDA, or None), "nearest" (the conda-forge release asked for instead when it has no build of
    the guide's for that CUDA, else None), "source" (that release's feedstock recipe)}. A spec conda cannot resolve
    is never written: the guide's release where conda-forge builds it for that CUDA, else the nearest newer one of
    the same major (the same libcudnn.so.<major>)."""
    pair = matrix.cudnn_for_cuda(cuda, mindspore) if cuda else None
    if not pair:
        return {"spec": "cudnn", "guide": None, "nearest": None, "source": None}
    want = dotted_numbers(pair["cudnn"])[:2]
    mm = major_minor(cuda) or ""
    builds = [(v, commit) for v, cudas, commit in CONDA_FORGE_CUDNN
              if dotted_numbers(v)[:1] == want[:1] and dotted_numbers(v) >= want
              and (mm in cudas or mm.split(".")[0] in cudas)]
    major = want[0]
    if not builds or dotted_numbers(builds[0][0]) == want:
        source = CUDNN_FEEDSTOCK.format(commit=builds[0][1]) if builds else None
        return {"spec": f"'cudnn>={pair['cudnn']},<{major + 1}'", "guide": pair["cudnn"], "nearest": None,
                "source": source}
    nearest, commit = builds[0]
    return {"spec": f"cudnn={nearest}", "guide": pair["cudnn"], "nearest": nearest,
            "source": CUDNN_FEEDSTOCK.format(commit=commit)}


def conda_runtime_step(matrix, mindspore: Any, cuda: str, node_cuda: Sequence[str] = ()) -> str:
    """`conda install -c conda-forge cudatoolkit=<cuda> <cudnn>`: the CUDA runtime of the plan and the cuDNN that
    resolves beside it (conda_cudnn), said so where it is not the guide's. When the node's CUDA (`node_cuda`, the
    runtimes found) is already that CUDA, it is used: the cuDNN alone, `--no-deps` so conda adds no second
    cudatoolkit (conda-forge's cudnn builds depend on `cudatoolkit 11.*`; `--no-deps`: "Do not install, update,
    remove, or change dependencies", https://docs.conda.io/projects/conda/en/stable/commands/install.html)."""
    c = conda_cudnn(matrix, mindspore, cuda)
    if major_minor(cuda) and major_minor(cuda) in {major_minor(x) for x in node_cuda}:
        return _("conda install -c conda-forge {cudnn} --no-deps -y   # cuDNN only: this node's CUDA {cuda} runtime "
                 "is used, not installed again").format(cudnn=c["spec"], cuda=cuda)
    if c["nearest"]:
        return _("conda install -c conda-forge cudatoolkit={cuda} {cudnn} -y   # CUDA {cuda} and cuDNN {nearest}: "
                 "conda-forge has no cuDNN {guide} build for it (the one MindSpore's install guide pairs with CUDA "
                 "{cuda}); {nearest} is the nearest newer one, the same libcudnn.so.{major} [{source}]").format(
            cuda=cuda, cudnn=c["spec"], nearest=c["nearest"], guide=c["guide"], major=c["nearest"].split(".")[0],
            source=c["source"])
    return _("conda install -c conda-forge cudatoolkit={cuda} {cudnn} -y   # CUDA {cuda} and the cuDNN MindSpore's "
             "install guide pairs with it").format(cuda=cuda, cudnn=c["spec"])


# MindSpore's GPU install guides: "When the default path /usr/local/cuda has an installation package, the
# LD_LIBRARY_PATH environment variable does not work ... MindSpore uses DT_RPATH ... DT_RPATH has a higher priority
# than the LD_LIBRARY_PATH environment variable" (from the 1.7.1 guide on; the conda guide on master, line 73).
DT_RPATH_SOURCE = ("https://github.com/mindspore-ai/docs/blob/9e844dc65dc5ef4381574e8b6ec2f93f9681f720/install/"
                   "mindspore_gpu_install_conda_en.md#L73")


def _python_tag(py: str) -> str:
    xy = py.replace(".", "")
    return f"cp{xy}-cp{xy}" + ("m" if int(xy) < 38 else "")


def gpu_pythons(matrix, mindspore: Any, platform: str = "linux-x86_64") -> List[str]:
    row = matrix.mindspore_row(mindspore)
    if not row:
        return []
    rows = [r for r in row["python"] if r["platform"] == platform and r["flavour"] in ("gpu", "any")] or \
        [r for r in row["python"] if r["platform"] == platform]  # the release's wheels for that platform (1.5.x)
    return sorted({p for r in rows for p in r["python"]}, key=version_key)


def pick_python(matrix, mindspore: Any, python: Optional[str]) -> Optional[str]:
    """The user's Python when the release has a GPU wheel for it, else the newest it has one for."""
    pys = gpu_pythons(matrix, mindspore)
    pm = python_major_minor(python) if python else None
    if pm and (pm in pys or not pys):
        return pm
    return pys[-1] if pys else pm


def mindspore_install(matrix, mindspore: Any, cuda: str, python: str) -> List[str]:
    """The commands that install this release's GPU build for this CUDA into the active environment."""
    row = matrix.mindspore_row(mindspore)
    if not row:
        return [_("install MindSpore {version} with its GPU build for CUDA {cuda}: see "
                  "https://www.mindspore.cn/versions").format(version=mindspore, cuda=cuda)]
    if matrix.on_pypi(row):
        return [_("pip install mindspore=={version}   # the one wheel holds the GPU plugins for CUDA {plugins}").format(
            version=row["pip_version"], plugins="/".join(row["gpu"]["built_for"]["value"]) or cuda)]
    guide = row["gpu"].get("install_guide") or {}
    tag = _python_tag(python)
    mm = major_minor(cuda)
    for kind in ("gpu", "unified"):
        for w in guide.get("wheels", []):
            if w["kind"] != kind or (kind == "gpu" and w["cuda"] != mm):
                continue
            url = w["url"].replace("{python_tag}", tag)
            if "{python_version}" in url:  # the 1.5 guide's own placeholders
                url = url.replace("{python_version}", tag).replace("{version}", row["version"])
            if python not in guide.get("python", []) and guide.get("python"):
                continue
            # the guide's `export MS_VERSION=<release>` (no '-': 2.0.0rc1) written into its URL
            ms_version = row["version"].replace("-", "")
            url = url.replace("${MS_VERSION/-/}", ms_version).replace("${MS_VERSION}", ms_version)
            return [_("pip install {url}   # MindSpore {version}'s GPU install guide").format(
                url=url, version=row["version"])]
    return [_("install MindSpore {version} with its GPU build for CUDA {cuda} for Python {python}: see "
              "https://www.mindspore.cn/versions").format(version=row["version"], cuda=cuda, python=python)]


def driver_upgrade_steps(matrix, driver: Optional[str], cuda: str) -> List[str]:
    need = matrix.nvidia_driver_min(cuda)
    by = needs_text(matrix, cuda)
    return [_("upgrade the NVIDIA driver to {asked} or newer for CUDA {cuda} ({by})").format(
                  asked=need["asked"] or need["runs"], cuda=cuda, by=by),
            _("sudo apt-get install ubuntu-drivers-common && sudo ubuntu-drivers autoinstall   # on Ubuntu, as "
              "MindSpore's install guide shows"),
            _("sudo reboot   # then nvidia-smi shows 'Driver Version' {asked} or newer").format(
                asked=need["asked"] or need["runs"])]


def env_steps(matrix, mindspore: Any, cuda: str, python: str, node_cuda: Sequence[str] = ()) -> List[str]:
    return ([f"conda create -n {ENV_NAME} python={python} -y && conda activate {ENV_NAME}",
             conda_runtime_step(matrix, mindspore, cuda, node_cuda)]
            + mindspore_install(matrix, mindspore, cuda, python)
            + [_("export LD_LIBRARY_PATH=$CONDA_PREFIX/lib:$LD_LIBRARY_PATH   # so MindSpore loads that runtime first, "
                 "unless /usr/local/cuda holds a CUDA toolkit: MindSpore's DT_RPATH looks there before "
                 "LD_LIBRARY_PATH (its GPU install guide, {source})").format(
                   source=DT_RPATH_SOURCE),
               verify_step(mindspore)])


def keep_cuda_steps(matrix, cuda: str, python: Optional[str], driver: Optional[str],
                    cuda_max: Optional[str] = None) -> List[str]:
    """The other way out when the runtime found is one MindSpore's build does not take: keep that CUDA and install the
    newest release with a GPU build for it, as steps (a Python it has wheels for, MindSpore, its check). [] when the
    driver cannot run that CUDA (a fix never leaves a runtime the driver cannot run) or no release has a build."""
    if driver_verdict(matrix, driver, cuda, cuda_max) not in ("ok", "below-asked", None):
        return []
    py = python_major_minor(python) if python else None
    rows = matrix.mindspore_gpu_for_cuda([cuda], python=py) or matrix.mindspore_gpu_for_cuda([cuda])
    if not rows:
        return []
    row = rows[0]
    use = pick_python(matrix, row["version"], py) or py or "3.9"
    steps = [or_heading(_("keep CUDA {cuda}: MindSpore {version} has a GPU build for it").format(
        cuda=cuda, version=row["version"]))]
    if use != py:
        steps.append(f"conda create -n {ENV_NAME} python={use} -y && conda activate {ENV_NAME}")
    return steps + mindspore_install(matrix, row["version"], cuda, use) + [verify_step(row["version"])]


def plan(matrix, mindspore: Any, python: Optional[str], driver: Optional[str],
         prefer: Optional[List[str]] = None, cuda_max: Optional[str] = None,
         node_cuda: Sequence[str] = ()) -> Dict[str, Any]:
    """The CUDA to give this MindSpore release and the steps, in order. `prefer`: CUDA versions to try first (the
    one the installed build was made for); `node_cuda`: the CUDA runtimes on the node (one the plan uses is not
    installed again). Returns {"cuda", "driver_upgrade": bool, "steps", "alternative"}."""
    options = [c for c in (prefer or []) if c in matrix.gpu_cuda_options(mindspore)] + \
        [c for c in matrix.gpu_cuda_options(mindspore) if c not in (prefer or [])]
    if not options:
        options = [major_minor(c) for c in prefer or [] if major_minor(c)]
    py = pick_python(matrix, mindspore, python) or "3.9"
    # a CUDA the driver runs as every source asks; else one it runs (NVIDIA's minor version compatibility) at the
    # driver MindSpore's own GPU install guide asks, only NVIDIA's toolkit table asking more: that is no reason to
    # change the driver, nor MindSpore (the warning compat.nvidia_driver_cuda gives stays, with its own fix)
    runnable = [c for c in options if driver_verdict(matrix, driver, c, cuda_max) in ("ok", None)] or \
        [c for c in options if meets_mindspore_guide(matrix, driver, c, cuda_max)]
    out: Dict[str, Any] = {"cuda": None, "driver_upgrade": False, "steps": [], "alternative": []}
    if runnable or not options:
        cuda = (runnable or options or [None])[0]
        out["cuda"] = cuda
        if cuda:
            out["steps"] = env_steps(matrix, mindspore, cuda, py, node_cuda)
        return out
    cuda = options[0]
    out.update(cuda=cuda, driver_upgrade=True,
               steps=driver_upgrade_steps(matrix, driver, cuda) + env_steps(matrix, mindspore, cuda, py, node_cuda))
    # the other way out: keep the driver, take a MindSpore release with a build for a CUDA this driver runs
    out["alternative"] = keep_driver_steps(matrix, driver, py, cuda_max, node_cuda)
    return out


def keep_driver_steps(matrix, driver: Optional[str], python: Optional[str], cuda_max: Optional[str] = None,
                      node_cuda: Sequence[str] = ()) -> List[str]:
    """'or keep driver X: MindSpore V has a GPU build for CUDA C, which this driver runs:' and the steps that install
    it (the newest CUDA the driver runs that a release has a build for); [] when there is none."""
    py = python_major_minor(python) if python else None
    runs = sorted({c for r in matrix.mindspore_releases for c in r["gpu"]["built_for"]["value"]
                   if driver_verdict(matrix, driver, c, cuda_max) == "ok"}, key=version_key, reverse=True)
    for c in runs:
        alt = matrix.mindspore_gpu_for_cuda([c], python=py) or matrix.mindspore_gpu_for_cuda([c])
        if alt:
            alt_py = pick_python(matrix, alt[0]["version"], py) or py or "3.9"
            return [or_heading(_("keep driver {driver}: MindSpore {version} has a GPU build for CUDA {cuda}, which this "
                                 "driver runs").format(driver=driver or _("as it is"), version=alt[0]["version"],
                                                       cuda=c))] + \
                env_steps(matrix, alt[0]["version"], c, alt_py, node_cuda)
    return []
