"""The smoke train inside `check --smoke`: the same findings `ascend-doctor smoke` gives.

Runs only when asked (ctx.options["smoke"]) and only on the live machine: a
bundle is a record of another machine, there is nothing to train on. Without
--smoke nothing here imports MindSpore or starts a process.
"""

from __future__ import annotations

from ..findings import SKIP
from ..i18n import _
from . import check


@check("smoke.train", "Smoke train on this machine (ascend-doctor smoke)",
       pitfalls=["P01", "P02", "P03", "P08", "P09", "P13", "P15", "P16", "P18", "P19"],
       skip="Smoke train runs only on the live machine")
def check_smoke_train(ctx):
    if not ctx.options.get("smoke"):
        return None
    if not ctx.options.get("live"):  # facts of this machine, probed now (not a bundle, not a saved report)
        return ctx.finding(SKIP,
                           summary=_("The smoke train runs only on the live machine, not on a collected bundle."))
    from ..smoke.session import StageProgress, run_session

    progress = StageProgress()
    try:
        return run_session(ctx.facts, ctx.options, ctx.kb, progress)
    finally:
        progress.done()
