"""A report's fixes as one reviewable bash script (`ascend-doctor fix --script`).

The doctor never runs it. Only steps that are safe to repeat and leave a lasting change become
commands: a line added to a shell start-up file (guarded, so a second run adds nothing) and a
`pip install` of an exact version. Every other step stays a comment for the reader to do by hand,
labelled with why: a step that only affects the shell it runs in (`source`, `export`), a look at
the machine, one that needs the root user or a reboot, one with a placeholder to fill in, or one
written as prose or Python. The classification lives in `classify_step`, one place.
"""

from __future__ import annotations

import re
import shlex
from .records import dataclass
from typing import Iterable, List, Tuple

from .findings import ERROR, FAIL, WARN, Report
from .i18n import N_, _, lookup
from .render.common import joined, status_label

# Start-up files a fix may add a line to; only these are written by a script.
RC_FILES = ("~/.bashrc", "~/.bash_profile", "~/.profile", "$HOME/.bashrc", "$HOME/.bash_profile", "$HOME/.profile")
_APPEND = re.compile(r"""^echo\s+(?P<q>['"])(?P<line>.+?)(?P=q)\s*>>\s*(?P<file>\S+)\s*$""")
# Commands that only look at the machine: shown as "check:" comments, never run by the script.
LOOK_COMMANDS = {"cat", "ls", "grep", "head", "tail", "dmesg", "ps", "npu-smi", "hccn_tool", "nvidia-smi", "lspci",
                 "lsmod", "df", "free", "ulimit", "which", "type", "echo", "env", "printenv", "python", "python3",
                 "readlink", "stat", "find", "ldd", "nvcc", "uname", "id", "getconf"}
# Commands whose effect ends with the script's own shell: the user runs them where it matters.
SHELL_STATE = {"source", ".", "export", "unset", "cd", "conda"}
# Programs that change the system (or a step that installs a .run package): run by hand as root.
ROOT_COMMANDS = {"sudo", "reboot", "rmmod", "modprobe", "insmod", "systemctl", "apt-get", "apt", "yum", "dnf",
                 "mount", "umount", "chown", "ldconfig"}
NEEDS_ROOT = re.compile(r"\.run\b.*--(install|full|upgrade|uninstall)|--install-for-all")
OTHER_COMMANDS = {"pip", "pip3", "atc", "msrun", "mpirun", "ln", "rm", "mkdir", "chmod", "mv", "cp", "docker",
                  "kubectl", "ip", "sysctl"}
# What a report judged when it was not this machine (its host block's kind), named in the script's header.
HOST_KINDS = (N_("snapshot"), N_("report"), N_("planned"), N_("facts"))
PLACEHOLDER = re.compile(r"<[^<>\s][^<>]*>")
_QUIET = re.compile(r"\s[12]?>\s*/dev/null|\s2>&1")
_PIP_EXACT = re.compile(r"^(python3? -m )?pip3? install( -U| --upgrade)? [A-Za-z0-9_.\-\[\]]+==[0-9][0-9A-Za-z.+\-]*$")


@dataclass
class Step:
    kind: str  # "append" (a guarded start-up-file line), "install" (exact pip install): active; "note": a comment
    text: str  # the script line(s) without the leading comment mark for notes
    needs_root: bool = False
    shell: bool = False  # a note for the user's own shell (source, export, conda activate): later steps follow it

    @property
    def active(self) -> bool:
        return self.kind != "note"


def _split_comment(step: str) -> Tuple[str, str]:
    """`cmd   # why` -> (cmd, why); a `#` inside single or double quotes is not a comment (the plan's one splitter,
    with only the shell's quotes: the script's lines are shell)."""
    from .plan import split_comment

    cmd, why = split_comment(step, quotes="'\"")
    return (step.strip(), "") if why is None else (cmd.rstrip(), why.strip())


def _first_word(cmd: str) -> str:
    try:
        words = shlex.split(cmd)
    except ValueError:
        return ""
    return words[0] if words else ""


def _guarded_append(line: str, rc_file: str) -> str:
    """Add `line` to `rc_file` unless an identical line is there already (idempotent)."""
    q_line = shlex.quote(line)
    path = rc_file.replace("$HOME/", "~/")
    return f"grep -qxF {q_line} {path} 2>/dev/null || echo {q_line} >> {path}"


def classify_step(step: str) -> Step:
    """Decide how one fix step appears in the script (see the module docstring)."""
    if "\n" in step.strip():  # a multi-line snippet (Python or prose): shown, not run
        return Step("note", _("by hand:") + "\n" + step.strip())
    cmd, why = _split_comment(step)
    suffix = f"   # {why}" if why else ""
    word = _first_word(cmd)
    if not _is_command(word):
        if "(" in cmd and ("mindspore" in cmd or cmd.startswith("from ")):
            return Step("note", _labelled(_("in your training script:"), cmd + suffix))
        # words with their reason: one comment, the reason after a dash (a second "#" inside a comment)
        words = _("{step} — {why}").format(step=cmd.strip(), why=why.strip()) if why else step.strip()
        return Step("note", _("by hand: {step}").format(step=words))
    root = word in ROOT_COMMANDS or bool(NEEDS_ROOT.search(cmd))
    if PLACEHOLDER.search(cmd):
        label = _("fill in the <...> parts, then run as root:") if root else _("fill in the <...> parts, then run:")
        return Step("note", _labelled(label, cmd + suffix), root)
    m = _APPEND.match(cmd)
    if m and m.group("file") in RC_FILES:
        return Step("append", _guarded_append(m.group("line"), m.group("file")) + suffix)
    if word in LOOK_COMMANDS and ">" not in _QUIET.sub("", cmd):  # a redirect into a file is not a look
        return Step("note", _labelled(_("check:"), cmd + suffix))
    if word in SHELL_STATE:
        return Step("note", _labelled(_("in your shell or job script (a script cannot change its caller):"),
                                      cmd + suffix), shell=True)
    if _PIP_EXACT.match(cmd) and not root:
        return Step("install", cmd + suffix)
    if root:
        return Step("note", _labelled(_("as root, by hand (changes the system):"), cmd + suffix), True)
    return Step("note", _labelled(_("by hand:"), cmd + suffix))


def _labelled(label: str, command: str) -> str:
    """A note's label on its own line and the command under it, indented: once uncommented (or copied from
    after the comment mark) the command line is the command alone, in any language."""
    return f"{label}\n  {command}"


def is_prose(step: str) -> bool:
    """Whether a fix step is written in words for a person ("install CANN 9.0.0 ..., then `source ...`"), not a
    shell command or code to paste: what a code block must not hold (the Markdown report asks here)."""
    text = step.strip()
    if "\n" in text:  # a snippet (Python)
        return False
    cmd, _why = _split_comment(text)
    return not (_is_command(_first_word(cmd)) or _is_python(cmd))


def command_tail(prose: str):
    """(words, command) of a prose step that ends in a command after a colon ("reinstall the CANN package if
    they are damaged: ./Ascend-cann-toolkit_...run --install", "请重新安装：./..."), else None."""
    for m in reversed(list(re.finditer(r":\s+|：\s*", prose))):  # never the colon of a URL
        tail = prose[m.end():].strip()
        if tail and "`" not in tail and _is_command(_first_word(tail)):
            return prose[:m.end()].rstrip(), tail
    return None


def _is_python(cmd: str) -> bool:
    """A line of Python for a training script (`from mindspore import amp`, `net = ...`, `ms.set_context(...)`):
    it parses as Python and is more than a bare word (a one-word sentence parses too)."""
    import ast

    try:
        ast.parse(cmd)
    except (SyntaxError, ValueError):
        return False
    return "(" in cmd or "=" in cmd or cmd.startswith(("from ", "import "))


def _is_command(word: str) -> bool:
    """Whether a step starts with a program (else it is prose: 'install the driver ...', 'keep only: ...')."""
    return bool(word) and (word in LOOK_COMMANDS or word in SHELL_STATE or word in ROOT_COMMANDS
                           or word in OTHER_COMMANDS or word.startswith(("./", "/", "~/")))


def _comment(text: str) -> List[str]:
    return ["# " + line if line else "#" for line in text.splitlines()]


def script_for(report: Report, when: str, statuses: Iterable[str] = (FAIL, ERROR, WARN)) -> str:
    """The whole script: the report's plan (ascend_doctor/plan/), its steps in the plan's order (dependencies first)."""
    report = report.worded()  # its texts in the current language (a step's command part is the same in any)
    counts = report.summary
    host = report.host or {}
    kind = host.get("kind") if host.get("kind") != "live" else None
    header = _("# ascend-doctor fix script for {host} ({kind}), {when}.") if kind else \
        _("# ascend-doctor fix script for {host}, {when}.")
    out = ["#!/usr/bin/env bash",
           header.format(host=host.get("name") or "?", kind=lookup(kind or ""), when=when),
           _("# Report verdict: {fail} fail, {warn} warn, {error} could not check.").format(
               fail=counts[FAIL], warn=counts[WARN], error=counts[ERROR]),
           # One message, its lines broken where each language reads well.
           *_("# Made from the report's fixes. Review every line before you run it (bash FILE); ascend-doctor\n"
              "# never runs it. Active lines only add a line to a shell start-up file (once, however often the\n"
              "# script runs) or install an exact package version; every other step is a comment to do by hand.\n"
              "# Lines marked 'needs root' change the system: run them yourself as root.").splitlines(),
           "set -euo pipefail", ""]
    wanted = set(statuses)
    status_of = {f.id: f.status for f in report.findings}
    plan = report.node_plan()
    steps = [s for s in plan.steps if any(status_of.get(i) in wanted for i in s.resolves)]
    if not steps:
        out.append(_("# Nothing to fix: the report has no problem with a fix."))
        return "\n".join(out) + "\n"
    out.append(_("# The plan: the least disruptive steps that clear the failures, in the order to do them."))
    shell_changed = False
    named = set()
    by_id = {}
    for f in report.findings:
        by_id.setdefault(f.id, f)
    for n, planned in enumerate(steps, 1):
        for fid in planned.resolves:  # each problem named once, where its first step is
            f = by_id.get(fid)
            if f is None or fid in named:
                continue
            named.add(fid)
            item = {"status": status_label(f.status), "id": f.id, "title": f.title, "pitfall": f.pitfall}
            out.extend(_comment((_("[{status}] {id}: {title} (pitfall {pitfall})") if f.pitfall else
                                 _("[{status}] {id}: {title}")).format(**item)))
        out.append(_("# step {n}: clears {ids}").format(n=n, ids=joined(planned.resolves)))
        step = classify_step(planned.do)
        if step.kind == "install" and shell_changed:
            # e.g. `conda activate ms` by hand, then `pip install`: meant for that environment, not this shell
            step = Step("note", _labelled(_("after the step above, in that environment:"), step.text))
        shell_changed = shell_changed or step.shell
        marks = ([_("needs root")] if planned.needs_root or step.needs_root else []) + \
            ([_("reboot after this step")] if planned.reboot else [])
        if step.active and not marks:
            out.append(step.text)
        else:
            lines = _comment(step.text) if not step.active else [step.text]
            if marks:
                lines[0] += "   # " + _(", ").join(marks)
            out.extend(lines)
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def active_lines(script: str) -> List[str]:
    """The lines a shell would execute (for tests and reviews)."""
    return [line for line in script.splitlines() if line.strip() and not line.lstrip().startswith("#")]
