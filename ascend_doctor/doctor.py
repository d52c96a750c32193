"""Run the doctor: probe a host, run the checks, build the report.

This is also the in-process API for training scripts (see `ascend_doctor.run`):
no printing, no exit, the same data as the JSON report.
"""

from __future__ import annotations

import fnmatch
import os
import time
from typing import Any, Dict, List, Mapping, Optional, Sequence

from . import __version__
from .checks import CheckContext, all_checks
from .checks._accelerators import checked_as
from .facts import Facts
from .findings import ERROR, Finding, Report
from .i18n import _, deferred, sentences
from .host import Host
from .probes import ProbeOptions, collect_facts
from .plan import build_plan, normalize_fixes
from .reconcile import reconcile
from .records import dataclass, field


@dataclass
class RunOptions:
    only: Sequence[str] = ()  # check id patterns (fnmatch; a bare area name selects the area)
    skip: Sequence[str] = ()
    timeout: float = 10.0  # per external command
    extra: Dict[str, Any] = field(default_factory=dict)  # options for checks (smoke, baseline ...)
    # When set, run_checks keeps here what it has so far ("facts": Facts, "findings": list, "now": what runs):
    # a caller that stops waiting (preflight's --budget) still reports what was gathered.
    partial: Optional[Dict[str, Any]] = None


def _selected(check_id: str, patterns: Sequence[str]) -> bool:
    for p in patterns:
        if fnmatch.fnmatchcase(check_id, p) or check_id == p or check_id.startswith(p.rstrip(".*") + "."):
            return True
    return False


@dataclass
class Selection:
    """Which checks run: --only / --skip patterns (check ids, areas like 'install', globs like 'devices.*')."""

    only: Sequence[str] = ()
    skip: Sequence[str] = ()

    def includes(self, check_id: str) -> bool:
        if self.only and not _selected(check_id, self.only):
            return False
        return not (self.skip and _selected(check_id, self.skip))

    def areas(self) -> Optional[List[str]]:
        """The areas --only can reach (None: any area): evaluate imports only their checks."""
        if not self.only:
            return None
        found = set()
        for pattern in self.only:
            area = pattern.split(".", 1)[0]
            if not area or any(c in area for c in "*?["):
                return None
            found.add(area)
        return sorted(found)

    def validate(self) -> "Selection":
        """Raise SelectionError when a pattern selects no check (see check_selection); returns self."""
        check_selection(self.only, self.skip)
        return self


class SelectionError(ValueError):
    """--only/--skip names something that matches no check (a typo would otherwise check nothing)."""


def check_selection(only: Sequence[str] = (), skip: Sequence[str] = ()) -> None:
    """Raise SelectionError naming the first id, area or glob that selects no check, with the closest real one."""
    ids = [spec.id for spec in all_checks()]
    areas = sorted({i.split(".", 1)[0] for i in ids})
    for option, patterns in (("--only", only), ("--skip", skip)):
        for p in patterns:
            if any(_selected(i, [p]) for i in ids):
                continue
            import difflib  # only for the error

            bare = p.strip("*?[]").rstrip(".") or p
            close = difflib.get_close_matches(bare, ids + areas, n=1, cutoff=0.0)
            values = {"option": option, "pattern": p, "closest": close[0] if close else "", "areas": ", ".join(areas)}
            raise SelectionError((_("{option} {pattern}: matches no check id, area or glob; closest: {closest} "
                                    "(areas: {areas})") if close else
                                  _("{option} {pattern}: matches no check id, area or glob (areas: {areas})"))
                                 .format(**values))


def run_checks(host: Host, options: Optional[RunOptions] = None, progress=None) -> Report:
    """Probe `host`, then judge its facts (`evaluate`)."""
    options = options or RunOptions()
    start = time.monotonic()
    partial = options.partial if options.partial is not None else {}
    partial["facts"], partial["findings"] = Facts(), []
    probe_options = ProbeOptions(timeout=options.timeout, ping_peers=bool(options.extra.get("ping_peers")))
    facts = collect_facts(host, probe_options, into=partial["facts"], running=partial)
    origin = {"kind": host.kind, "name": host.label}
    if host.kind == "snapshot":
        origin["created"] = getattr(host, "manifest", {}).get("created")
    return evaluate(facts, None, options, origin=origin, progress=progress, started=start,
                    environ=host.env, also=[os.environ] if host.env is not os.environ else [])


def _crashed(spec, exc: BaseException) -> Finding:
    """The finding of a check that raised: a bug in the doctor, shown as such (the other checks still run)."""
    from .errors import missing_dependency

    if isinstance(exc, ImportError) and missing_dependency(exc):
        raise exc  # not a bug: a dependency is missing; the CLI says which in one line (exit 2)
    import traceback  # only when a check crashed

    tb = traceback.extract_tb(exc.__traceback__)[-1]
    # Status error as "could not check", but told apart from it: evidence crashed: true (code tests that, never
    # the title, which is in the reader's language) and a distinct title.
    return Finding(
        id=spec.id, status=ERROR, title=_("Check crashed: {title}").format(title=_(spec.title)),
        summary=_("The check itself crashed ({error}); this is a bug in ascend-doctor.").format(
            error=f"{type(exc).__name__}: {exc}"),
        evidence={"crashed": True, "where": f"{tb.filename.rsplit('/', 1)[-1]}:{tb.lineno}"})


def evaluate(facts: Facts, selection: Optional[Selection] = None, options: Optional[RunOptions] = None, *,
             origin: Optional[Dict[str, Any]] = None, matrix: Any = None,
             progress=None, started: Optional[float] = None, environ: Optional[Mapping[str, str]] = None,
             also: Sequence[Mapping[str, str]] = ()) -> Report:
    """`_evaluate` with the wording deferred: every text of the findings and of the plan is an English message
    with its parameters (i18n_text.Text), worded by the renderer in the language asked."""
    with deferred():
        return _evaluate(facts, selection, options, origin=origin, matrix=matrix, progress=progress,
                         started=started, environ=environ, also=also)


def _evaluate(facts: Facts, selection: Optional[Selection] = None, options: Optional[RunOptions] = None, *,
              origin: Optional[Dict[str, Any]] = None, matrix: Any = None,
              progress=None, started: Optional[float] = None, environ: Optional[Mapping[str, str]] = None,
              also: Sequence[Mapping[str, str]] = ()) -> Report:
    """The one check runner: judge `facts` with the selected checks and build the report.

    Every check runs under the crash guard (a check that raises becomes an `error` finding, the others still
    run); a probe that crashed while gathering `facts` is reported the same way; the fixes are reconciled (one
    problem, one fix) and the report is redacted before anyone sees it. `selection` defaults to the --only /
    --skip of `options`; `origin` is the report's "host" block (what was judged: kind live | snapshot | planned
    | report ..., name); `matrix` overrides the
    compatibility matrix the checks load; `environ`/`also`: environments whose secret values are scrubbed
    (default: this process's).
    """
    options = options or RunOptions()
    selection = selection or Selection(options.only, options.skip)
    start = time.monotonic() if started is None else started
    partial = options.partial if options.partial is not None else {}
    findings: List[Finding] = partial.setdefault("findings", [])
    origin = dict(origin or {"kind": "facts", "name": facts.system.hostname or "unknown"})
    # "live": the facts are this machine's, probed now (the smoke train may run); not a bundle or a saved report
    ctx = CheckContext(facts=facts, options=dict(options.extra, timeout=options.timeout, live=origin["kind"] == "live"),
                       _matrix=matrix)
    for name, crash in facts.probe_crashes.items():
        findings.append(Finding(
            id=f"doctor.probe_{name}", status=ERROR, title=_("The {name} probe crashed").format(name=name),
            summary=sentences(_("ascend-doctor could not read the {name} facts; checks that need them say "
                                "'unknown'.").format(name=name),
                              _("This is a bug in ascend-doctor, please report it with this line.")),
            evidence={"crashed": True, "crash": crash}))
    for spec in all_checks(selection.areas()):
        if not selection.includes(spec.id):
            continue
        if progress:
            progress(spec.id)
        partial["now"] = f"check {spec.id}"
        t0 = time.monotonic()
        try:
            result = spec.func(ctx)
        except Exception as exc:  # a check bug must not hide the other checks
            result = _crashed(spec, exc)
        elapsed = int((time.monotonic() - t0) * 1000)
        items = result if isinstance(result, list) else [result] if result is not None else []
        for f in items:
            if not f.duration_ms:
                f.duration_ms = elapsed
            findings.append(f)
    normalize_fixes(findings)  # a fix holds steps; its "or ..." ways become labelled alternatives
    reconcile(findings)  # one problem, one fix: no two fixes of the report may contradict each other
    host_info = {"kind": origin.pop("kind", None), "name": origin.pop("name", None)}
    origin.pop("checked_as", None)  # judged again from the facts
    if not facts.planned:  # a planned install (matrix check) is no host to call Ascend or CPU
        host_info["checked_as"] = checked_as(facts)
    host_info.update(origin)
    tool = {"name": "ascend-doctor", "version": __version__,
            "duration_ms": int((time.monotonic() - start) * 1000),
            # Wall-clock end of the run: metrics and cluster reports need "when", not only "how long".
            "finished_unix": round(time.time(), 3)}
    # Which compatibility matrix the verdicts use: the bundled one or a newer `matrix update` download.
    try:
        tool["matrix"] = ctx.matrix.info()
    except Exception as exc:  # a broken data file must not hide the report; the compat checks say so too
        tool["matrix"] = {"error": str(exc)}
    report = Report(tool=tool, host=host_info, facts=facts.to_json(), findings=findings)
    # Secrets out before anything else sees the report (renderers, collect, the in-process API): the
    # values of the checked host's secret variables (a bundle's env.json may hold some) and this process's.
    from .redact import redact_report

    report = redact_report(report, environ=environ, also=also)
    # One plan for the node, from the redacted findings, the facts and the matrix (one answer to each question)
    try:
        plan_matrix = ctx.matrix
    except Exception:  # no matrix: the findings' own fixes are planned, the version stack is not searched
        plan_matrix = None
    report.plan = build_plan(report.findings, facts, plan_matrix)
    return report
