"""Whether the launcher's identity variables could be read: what names this node in a job's reports."""

from __future__ import annotations

from ..findings import PASS, SKIP, WARN
from ..i18n import N_, _, sentences
from ..i18n_text import localized
from . import check

TITLE = N_("Rank and node identity readable from the launcher")


@check("env.launcher_identity", TITLE, pitfalls=["P14"],
       warn="Rank or node identity not readable from the launcher", skip="Launch facts not collected")
def check_launch_identity(ctx):
    launch = ctx.facts.launch
    if launch is None:
        return ctx.finding(SKIP, summary=_("Launch facts were not collected."))
    evidence = {"node": launch.name, "rank": launch.rank, "world_size": launch.world_size,
                "launchers": ", ".join(launch.launchers) or _("none")}
    if launch.identity_source.get("rank"):
        evidence["rank source"] = launch.identity_source["rank"]
    errors = list(launch.errors)
    if errors:
        evidence["errors"] = errors
        return ctx.finding(WARN, evidence=evidence, pitfall="P14",
            summary=sentences(
                _("Some launch variables or the rank table they name could not be read: {errors}.").format(
                    errors=_("; ").join(localized(e) for e in errors)),
                _("Reports from this node may be misnamed, and the job may not start.")),
            fix=[_("export RANK_ID=<0..RANK_SIZE-1>   # integers only; msrun, srun and mpirun set theirs themselves"),
                 _("ls -l \"$RANK_TABLE_FILE\" && python -m json.tool \"$RANK_TABLE_FILE\" >/dev/null   "
                   "# the rank table must be readable JSON on every node")])
    if launch.rank is None:
        summary = sentences(
            _("No launcher rank variable set; this node reports as {name}.").format(name=launch.name),
            _("Under a launcher (msrun, srun, mpirun, an Indexed Job) the rank is picked up automatically."))
    else:
        if launch.launchers:
            summary = _("rank {rank} of {size} via {launchers}; reports as {name}") if launch.world_size else \
                _("rank {rank} via {launchers}; reports as {name}")
        else:
            summary = _("rank {rank} of {size} via none; reports as {name}") if launch.world_size else \
                _("rank {rank} via none; reports as {name}")
        summary = summary.format(rank=launch.rank, size=launch.world_size, launchers=evidence["launchers"],
                                 name=launch.name)
    return ctx.finding(PASS, summary=summary, evidence=evidence)
