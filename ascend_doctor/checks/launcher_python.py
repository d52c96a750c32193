"""The `python` a launcher starts is the interpreter that has MindSpore (msrun, and scripts that call `python`).

msrun starts every worker as `python <script>` from PATH (mindspore/parallel/cluster/process_entity/_utils.py,
_generate_cmd_args_list). On a node with conda and system Pythons, or from a venv that was not activated,
that is another interpreter than the one MindSpore is installed in, and every worker dies with
"ModuleNotFoundError: No module named 'mindspore'" while `python -c 'import mindspore'` works in the shell.
"""

from __future__ import annotations

import posixpath

from ..findings import PASS, SKIP, WARN
from ..i18n import N_, _, sentences
from . import check

TITLE = N_("Launchers (msrun) start workers with the `python` that has MindSpore")


@check("mindspore.launcher_python", TITLE,
       warn="Launchers (msrun) would start workers with a `python` without MindSpore",
       skip="Which `python` launchers start: not checked")
def check_launcher_python(ctx):
    py, ms = ctx.facts.python, ctx.facts.mindspore
    if not ms.installed:
        return ctx.finding(SKIP, summary=_("MindSpore is not installed in this Python."))
    if not py.on_path or not py.executable:
        return ctx.finding(SKIP,
                           summary=_("Which `python` is first on PATH was not recorded (a snapshot from an older "
                                     "collect)."))
    bindir = posixpath.dirname(py.executable)
    evidence = {"MindSpore is in": _("{python} (MindSpore {version} in {location})").format(
                    python=py.executable, version=ms.version, location=ms.location),
                "PATH": ctx.facts.env.get("PATH", _("(not set)"))}
    evidence.update({f"`{name}` on PATH": found or _("none") for name, found in py.on_path.items()})
    fix = [_("export PATH={bindir}:$PATH   # or activate this environment first (source {bindir}/activate, "
             "conda activate <env>)").format(bindir=bindir),
           _("command -v python   # must print {python}").format(python=posixpath.join(bindir, "python"))]
    launched = py.on_path.get("python")
    if launched is None:
        return ctx.finding(WARN, evidence=evidence, fix=fix,
                           summary=_("There is no `python` on PATH: msrun starts its workers as `python <script>`, so "
                                     "they cannot start; MindSpore is in {python}.").format(python=py.executable))
    if py.on_path_is_this.get("python") is False:
        return ctx.finding(WARN, evidence=evidence, fix=fix,
                           summary=sentences(
                               _("The first `python` on PATH is {launched}, not {python}, the interpreter that has "
                                 "MindSpore.").format(launched=launched, python=py.executable),
                               _("msrun starts its workers as `python <script>`, so each worker fails with "
                                 "\"ModuleNotFoundError: No module named 'mindspore'\" although MindSpore imports in "
                                 "this interpreter.")))
    if py.on_path_is_this.get("python") is None:
        return ctx.finding(SKIP, evidence=evidence,
                           summary=_("Could not tell whether {launched} is this interpreter.").format(launched=launched))
    return ctx.finding(PASS, evidence=evidence,
                       summary=_("`python` on PATH is this interpreter ({launched})").format(launched=launched))
