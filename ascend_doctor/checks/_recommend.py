"""Which MindSpore release a fix may recommend for the CANN (and Python) on a machine: one place for it.

A release is recommended only when a vendor source publishes it together with this CANN (the matrix rows
with role "recommended" or "paired", see Matrix.published_canns). MindSpore's own version check accepts a
list of CANN compiler versions, but that list only decides whether MindSpore prints a warning at import:
it is not a pairing anyone tested, so it never picks the release a fix names. The other way out, upgrading
CANN to the newest published pairing, is named next to it.
"""

from __future__ import annotations

from typing import List, Optional

from ..i18n import N_, _
from ..i18n import lookup
from ..i18n_text import join
from ..plan import or_step
from ..matrix import cann_kernels_named_ops, mindspore_install_steps
from ..records import dataclass, field
from ..versions import version_key

_ARCH_PLATFORM = {"x86_64": "linux-x86_64", "amd64": "linux-x86_64", "aarch64": "linux-aarch64",
                  "arm64": "linux-aarch64"}
DOWNLOAD_PAGE = "https://www.mindspore.cn/versions"


@dataclass
class MindSporeAdvice:
    rows: List[dict] = field(default_factory=list)  # published pairings for this CANN (and Python), newest first
    cann: Optional[str] = None  # the CANN release (or compiler value) they were chosen for
    fix: List[str] = field(default_factory=list)
    upgrade: Optional[str] = None  # the fix line (last in `fix`) that upgrades CANN instead, if any
    summary: str = ""  # one sentence: what to install and where it comes from (PyPI or the download page)
    evidence: dict = field(default_factory=dict)

    @property
    def release(self) -> Optional[dict]:
        return self.rows[0] if self.rows else None


def platform_of(facts) -> Optional[str]:
    return _ARCH_PLATFORM.get((facts.system.arch or "").lower())


# The matrix's names for its sources ("by"), said in the reader's language where they are words; other names
# (a file, a release's notes) are shown as the matrix writes them.
SOURCE_NAMES = (N_("MindSpore release list"), N_("MindSpore install guide"), N_("MindFormers version table"),
                N_("MindSpore release list (bundle only)"), N_("install guide wording"), N_("paired MindFormers release"))


def source_names(names) -> str:
    """Source names joined ("a; b"), each a message where it is one of SOURCE_NAMES."""
    return join(_("; "), [lookup(n) if n in SOURCE_NAMES else n for n in dict.fromkeys(names)])


def _by(matrix, row: dict, cann: str) -> str:
    from ..versions import release_matches

    named = [c for c in matrix.published_canns(row["version"]) if release_matches(cann, c["cann"])] \
        or matrix.published_canns(row["version"])
    return source_names(b for c in named for b in c["by"])


def where_to_get(matrix, row: dict) -> str:
    """Where the release comes from, in the run's language."""
    return _("on PyPI") if matrix.on_pypi(row) else _("not on PyPI (download it from {url})").format(url=DOWNLOAD_PAGE)


def cann_install_step(cann: str, build: str = "", purpose: str = "", driver: str = "") -> str:
    """The one sentence that installs a CANN release (the compat checks' fixes, the upgrade alternative, the plan's
    stack): its toolkit and operator package (named ops from CANN 8.5.0 on, kernels before:
    matrix.cann_kernels_named_ops), then `source` of its set_env.sh. `build` (" (build ...)"), `purpose`
    (" for MindSpore X") and `driver` (compat.driver_note) are said in it where given."""
    return (_("install CANN {cann}{build} toolkit + ops{purpose}{driver}, then `source <install>/set_env.sh`")
            if cann_kernels_named_ops(cann) else
            _("install CANN {cann}{build} toolkit + kernels{purpose}{driver}, then `source <install>/set_env.sh`")
            ).format(cann=cann, build=build, purpose=purpose, driver=driver)


def advise_mindspore(matrix, facts, cann_release: Optional[str], compiler: Optional[str],
                     why: str = N_("newest release published with {target}"), limit: int = 1,
                     why_values: Optional[dict] = None) -> MindSporeAdvice:
    """The MindSpore release(s) to install for this CANN (and the machine's Python), with fix lines. `why` is the
    message (marked with N_) that says why a release is named; its {target} is the CANN (and Python) it was
    chosen for, `why_values` any other placeholders it has."""
    python = facts.python.version
    platform = platform_of(facts)
    label = f"CANN {cann_release}" if cann_release else (
        _("CANN compiler {compiler}").format(compiler=compiler) if compiler else _("this CANN"))
    rows = matrix.published_mindspore_for_cann(cann_release, compiler, python, platform) \
        if (cann_release or compiler) else []
    advice = MindSporeAdvice(rows=rows, cann=cann_release or compiler)
    target = _("{cann} and Python {python}").format(cann=label, python=python) if python else label
    if rows:
        row = rows[0]
        advice.evidence[_("published with {target}").format(target=label)] = ", ".join(r["version"] for r in rows)
        reason = _(why).format(target=target, **(why_values or {}))
        advice.fix = mindspore_install_steps(rows, _("{reason} ({sources})").format(
            reason=reason, sources=_by(matrix, row, cann_release or "")), limit=limit)
        advice.summary = _("MindSpore {version} is the newest release published with {target}; it is {where}.").format(
            version=row["version"], target=target, where=where_to_get(matrix, row))
    else:
        advice.fix = [_("no MindSpore release in the matrix is published with {target}: see "
                        "https://www.mindspore.cn/install for the pairing, or upgrade CANN (below)").format(target=target)]
        advice.summary = _("The matrix has no MindSpore release published with {target}.").format(target=target)
    newest = matrix.newest_published_pairing(python, platform)
    if newest:
        ms_row, cann = newest
        if not rows or version_key(ms_row["version"]) > version_key(rows[0]["version"]):
            advice.upgrade = _(
                "{step}   # the newest published pairing ({sources}); its driver: ascend-doctor matrix show --cann "
                "{cann}").format(
                step=_("{step}, then MindSpore {version} ({where})").format(
                    step=cann_install_step(cann["cann"]), version=ms_row["version"], where=where_to_get(matrix, ms_row)),
                sources=source_names(cann["by"]), cann=cann["cann"])
            advice.upgrade = or_step(advice.upgrade, _("upgrade CANN"))
            advice.fix.append(advice.upgrade)
    return advice
