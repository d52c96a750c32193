"""Checks: pure functions of facts (+ the matrix + the knowledge base) returning findings.

One module per area (install, compat, env, hccl, rank_table, devices, resources,
advice ...), each named in CHECK_MODULES. A check is registered with `@check("area.what_it_verifies", "title")` and
returns a Finding, a list of Findings, or None (nothing to say); it builds them with
`ctx.finding(status, summary=..., ...)`, which takes the id and title from the spec, so
both are written once. Find any check by grepping its id.

Titles and outcome lines are English message ids, translated where a finding is made (ascend_doctor/i18n.py).

The title states the passing condition ("NPU driver installed"). Every other
outcome has its own words (`fail=`, `warn=`, `error=`, `skip=` of `@check`): the
registered function gives each finding of its id the line for its status, so a
FAIL line says what is wrong ("No NPU driver found"), whoever calls the check.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any, Callable, Dict, Iterable, List, Optional

from ..facts import Facts
from ..findings import ERROR, FAIL, SKIP, WARN, Finding
from ..i18n import _
from ..records import dataclass, field


@dataclass
class CheckContext:
    """What a check sees: the facts (the environment included, `facts.env`), the options of the run, and the
    data (matrix, knowledge base). Never the host: a saved report's facts can be judged again."""

    facts: Facts
    options: Dict[str, Any] = field(default_factory=dict)
    _matrix: Any = None
    _kb: Any = None
    spec: Optional["CheckSpec"] = field(default=None, repr=False)  # the check being run (set by @check)

    def finding(self, status: str, summary: str = "", evidence: Optional[Dict[str, Any]] = None,
                fix: Optional[List[str]] = None, pitfall: Optional[str] = None, *,
                title: Optional[str] = None) -> Finding:
        """A finding of the running check: its id and title come from the check's spec (written once, in
        `@check`). `title` only for a line of its own ("<title>: HCCL_BUFFSIZE", one finding per variable)."""
        if self.spec is None:
            raise RuntimeError("ctx.finding() outside a check registered with @check")
        return Finding(self.spec.id, status, _(self.spec.title) if title is None else title, summary=summary,
                       evidence={} if evidence is None else evidence, fix=[] if fix is None else fix, pitfall=pitfall)

    @property
    def matrix(self):
        """The compatibility matrix (loaded on first use)."""
        if self._matrix is None:
            from ..matrix import matrix_for_checks

            self._matrix = matrix_for_checks()
        return self._matrix

    @property
    def kb(self):
        """The knowledge base of pitfalls and log signatures (loaded on first use)."""
        if self._kb is None:
            from ..kb.load import load_knowledge_base

            self._kb = load_knowledge_base()
        return self._kb


@dataclass
class CheckSpec:
    id: str
    func: Callable[[CheckContext], Any]
    title: str
    pitfalls: List[str]
    module: str
    titles: Dict[str, str] = field(default_factory=dict)  # fail/warn/error/skip -> the line for that outcome
    original: Any = None  # the undecorated function

    @property
    def area(self) -> str:
        return self.id.split(".", 1)[0]

    def retitle(self, finding: Finding) -> Finding:
        """The line for the finding's outcome, for a finding of this check (others are left alone)."""
        if finding.id == self.id:  # in the run's language: ctx.finding() gave it the translated title
            finding.with_outcome_title(_(self.title), {s: _(t) for s, t in self.titles.items()})
        return finding


_REGISTRY: Dict[str, CheckSpec] = {}


def check(check_id: str, title: str, pitfalls: Optional[List[str]] = None, *, fail: Optional[str] = None,
          warn: Optional[str] = None, error: Optional[str] = None, skip: Optional[str] = None):
    """Register a check. `title` states what passing means; `fail`/`warn`/`error`/`skip` say what the line
    reads for that outcome. `pitfalls` lists the P-ids it can report (for the coverage table)."""
    titles = {s: t for s, t in ((FAIL, fail), (WARN, warn), (ERROR, error), (SKIP, skip)) if t}

    def deco(func):
        if check_id in _REGISTRY and _REGISTRY[check_id].original is not func:
            raise RuntimeError(f"check id {check_id} registered twice")

        @functools.wraps(func)
        def titled(ctx):
            outer, ctx.spec = ctx.spec, spec  # ctx.finding() builds this check's findings
            try:
                result = func(ctx)
            finally:
                ctx.spec = outer
            for f in result if isinstance(result, list) else [result] if result is not None else []:
                spec.retitle(f)
            return result

        spec = CheckSpec(check_id, titled, title, list(pitfalls or []), func.__module__, titles, func)
        _REGISTRY[check_id] = spec
        return titled

    return deco


# Every check module and the area of its checks, named here as the probes are in probes._registry (a new module
# is added to this table; a test keeps it equal to the modules of this package whose name does not start with
# "_", and each module's checks in its area). They are imported when the checks are first asked for
# (all_checks), and only those of the areas asked for: --help, the commands that run no check and a run of one
# area (`matrix check`: compat; `rank-table --here`: rank_table) do not pay for the others.
CHECK_MODULES = {"advice": "advice", "baseline": "baseline", "compat": "compat", "compat_gpu": "compat",
                 "devices": "devices", "gpu": "gpu", "hccl": "hccl", "install": "install", "launch_env": "env", "launch_identity": "env",
                 "launcher_python": "mindspore", "mindspore": "mindspore", "network": "network",
                 "rank_table": "rank_table", "resources": "resources", "smoke": "smoke"}


def all_checks(areas: Optional[Iterable[str]] = None) -> List[CheckSpec]:
    """The registered checks, sorted by id: all of them, or those of `areas` (only their modules are imported)."""
    wanted = None if areas is None else set(areas)
    for name, area in CHECK_MODULES.items():
        if wanted is None or area in wanted:
            importlib.import_module(f"{__name__}.{name}")
    specs = sorted(_REGISTRY.values(), key=lambda c: c.id)
    return specs if wanted is None else [s for s in specs if s.area in wanted]
