"""Whether the launcher's identity variables could be read: what names this node in a job's reports."""

from __future__ import annotations

from ..findings import PASS, SKIP, WARN
from ..i18n import N_, _, sentences
from . import check
from ._phrases import launch_error

TITLE = N_("Rank and node identity readable from the launcher")


@check("env.launcher_identity", TITLE, pitfalls=["P14"],
       warn="Rank or node identity not readable from the launcher", skip="Launch facts not collected")
def check_launch_identity(ctx):
    launch = ctx.facts.extra.get("launch")
    if not isinstance(launch, dict):
        return ctx.finding(SKIP, summary=_("Launch facts were not collected."))
    evidence = {"node": launch.get("name"), "rank": launch.get("rank"), "world_size": launch.get("world_size"),
                "launchers": ", ".join(launch.get("launchers") or []) or _("none")}
    if (launch.get("identity_source") or {}).get("rank"):
        evidence["rank source"] = launch["identity_source"]["rank"]
    errors = list(launch.get("errors") or [])
    if errors:
        evidence["errors"] = errors
        return ctx.finding(WARN, evidence=evidence, pitfall="P14",
            summary=sentences(
                _("Some launch variables or the rank table they name could not be read: {errors}.").format(
                    errors=_("; ").join(launch_error(e) for e in errors)),
                _("Reports from this node may be misnamed, and the job may not start.")),
            fix=[_("export RANK_ID=<0..RANK_SIZE-1>   # integers only; msrun, srun and mpirun set theirs themselves"),
                 _("ls -l \"$RANK_TABLE_FILE\" && python -m json.tool \"$RANK_TABLE_FILE\" >/dev/null   "
                   "# the rank table must be readable JSON on every node")])
    if launch.get("rank") is None:
        summary = sentences(
            _("No launcher rank variable set; this node reports as {name}.").format(name=launch.get("name")),
            _("Under a launcher (msrun, srun, mpirun, an Indexed Job) the rank is picked up automatically."))
    else:
        if launch.get("launchers"):
            summary = _("rank {rank} of {size} via {launchers}; reports as {name}") if launch.get("world_size") else \
                _("rank {rank} via {launchers}; reports as {name}")
        else:
            summary = _("rank {rank} of {size} via none; reports as {name}") if launch.get("world_size") else \
                _("rank {rank} via none; reports as {name}")
        summary = summary.format(rank=launch["rank"], size=launch.get("world_size"), launchers=evidence["launchers"],
                                 name=launch.get("name"))
    return ctx.finding(PASS, summary=summary, evidence=evidence)
