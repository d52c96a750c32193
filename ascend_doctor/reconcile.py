"""One problem, one fix: the fixes of one report must not contradict each other.

Checks own their decisions (hccl.env_values owns HCCL values, install.cann_multiple owns
which set_env.sh a shell sources when there are several CANN installs) and the others
defer to them. This module is the one place that reads what the fix steps of a report
*do*, finds steps of two findings that disagree, and, as a last line for cases no
check foresaw, keeps the owner's step and points the other finding at it.

What a step does, read from its command text (comments after `#` and alternatives
starting with "or" are left out):

* ``export A=1 B=2`` sets variables (a value with ``<...>`` is a placeholder; one that
  names the variable itself, ``X=/y:$X``, adds to it and disagrees with nothing);
* ``echo 'LINE' >> FILE`` appends LINE to FILE (and does what LINE does);
* ``source PATH/set_env.sh`` uses that CANN install; ``keep only: source P`` keeps one
  such line; ``remove source P`` removes one.

Two findings disagree when they set one variable to different values, source two
different set_env.sh files, one sources or appends what the other removes, or one
appends a set_env.sh line to a file while another says to keep only one.
"""

from __future__ import annotations

import fnmatch
import re
from typing import List, Optional, Sequence, Tuple

from .findings import SEVERITY, Finding
from .i18n import _
from .lazyre import lazy_compile
from .plan.steps import command_part, is_alternative  # one reading of a step's command and of 'or ...' for both
from .records import dataclass

# Who decides, when two findings disagree about a key (first match wins); otherwise the more severe finding,
# then the one reported first. Keys: "env:<VAR>" and "set_env.sh".
OWNERS: List[Tuple[str, str]] = [
    ("env:HCCL_*", "hccl.env_values"),
    ("env:ASCEND_RT_VISIBLE_DEVICES", "env.visible_devices"),
    ("env:RANK_*", "env.rank_table_env"),
    ("env:MS_*", "env.dynamic_cluster"),
    ("set_env.sh", "install.cann_multiple"),
]

_ASSIGN = lazy_compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_ECHO_APPEND = lazy_compile(r"""^echo\s+(['"])(.*?)\1\s*>>\s*(\S+)""")
_SOURCE = lazy_compile(r"(?:^|[;&|]\s*|\s)(?:source|\.)\s+(\S*set_env\.sh)\b")
_KEEP_ONLY = lazy_compile(r"\bkeep only:?\s+source\s+(\S+set_env\.sh)")
_REMOVE = lazy_compile(r"\bremove\s+(?:the\s+)?source\s+(\S+set_env\.sh)")
_REMOVE_MORE = lazy_compile(r",\s*source\s+(\S+set_env\.sh)")


@dataclass(frozen=True)
class Action:
    """One thing a fix step does: op is set | source | append | keep_only | remove."""

    op: str
    key: str  # "env:VAR" or "set_env.sh"
    value: str  # the variable's value, or the set_env.sh path
    file: Optional[str] = None  # for append: the file the line goes to


def _exports(text: str) -> List[Action]:
    out: List[Action] = []
    for part in re.split(r"\s*(?:&&|;)\s*", text):
        # shlex only drops quotes and backslashes: without "export" once they are gone, no word is `export`
        if "export" not in part.replace("'", "").replace('"', "").replace("\\", ""):
            continue
        import shlex

        try:
            words = shlex.split(part)
        except ValueError:
            words = part.split()
        if not words or words[0] != "export":
            continue
        for word in words[1:]:
            m = _ASSIGN.match(word)
            if not m:
                continue
            name, value = m.groups()
            if "<" in value or re.search(rf"\$\{{?{name}\b", value):
                continue  # a placeholder, or an addition to the variable's current value
            out.append(Action("set", f"env:{name}", value))
    return out


def actions(step: str) -> List[Action]:
    """What a fix step does (empty for an alternative, a comment, or a command that changes nothing here)."""
    if is_alternative(step) or step.startswith("(left out:"):
        return []
    text = command_part(step)
    out: List[Action] = []
    m = _ECHO_APPEND.match(text)
    if m:
        line, target = m.group(2), m.group(3)
        for a in actions(line):
            out.append(Action("append", a.key, a.value, target) if a.op == "source" else a)
        return out
    keep = _KEEP_ONLY.search(step)
    if keep:
        out.append(Action("keep_only", "set_env.sh", keep.group(1)))
    removed = _REMOVE.search(step)
    if removed:
        out.append(Action("remove", "set_env.sh", removed.group(1)))
        tail = step[removed.end():].split(")", 1)[0]
        out.extend(Action("remove", "set_env.sh", p) for p in _REMOVE_MORE.findall(tail))
    if not keep:
        out.extend(Action("source", "set_env.sh", p) for p in _SOURCE.findall(" " + text) if "<" not in p)
    out.extend(_exports(text))
    return out


@dataclass
class Conflict:
    key: str
    first: Tuple[Finding, int, Action]  # (finding, step index, action)
    second: Tuple[Finding, int, Action]

    def describe(self) -> str:
        (f1, a1), (f2, a2) = self.first[::2], self.second[::2]
        return f"{f1.id} {a1.op}s {a1.key}={a1.value}, {f2.id} {a2.op}s {a2.key}={a2.value}"


def _disagree(a: Action, b: Action) -> bool:
    if a.key != b.key:
        return False
    if a.key.startswith("env:"):
        return a.value != b.value
    ops = {a.op, b.op}
    if ops == {"remove"}:
        return False
    if "remove" in ops:  # one removes what the other uses
        return a.value == b.value
    if "append" in ops and "keep_only" in ops:  # adds a source line where the other keeps only one
        return True
    return a.value != b.value  # two different set_env.sh files used


def conflicts(findings: Sequence[Finding]) -> List[Conflict]:
    """Every pair of steps, in two different findings, that disagree."""
    done: List[Tuple[Finding, int, Action]] = []
    out: List[Conflict] = []
    for f in findings:
        mine = [(f, i, a) for i, step in enumerate(f.fix) for a in actions(step)]
        for entry in mine:
            for other in done:
                if other[0] is not f and _disagree(other[2], entry[2]):
                    out.append(Conflict(entry[2].key, other, entry))
        done.extend(mine)
    return out


def owner_of(key: str, a: Finding, b: Finding) -> Finding:
    for pattern, owner in OWNERS:
        if fnmatch.fnmatchcase(key, pattern) and owner in (a.id, b.id):
            return a if a.id == owner else b
    return b if SEVERITY[b.status] > SEVERITY[a.status] else a


def reconcile(findings: Sequence[Finding]) -> List[str]:
    """Resolve what the checks did not: the owner's step stays, the other's becomes a pointer to it.

    Returns what was changed (also recorded in each changed finding's evidence as "fix reconciled"). The note is
    in the report's language; the "(left out: <command>)" part of the step stays as written, a command.
    """
    changed: List[str] = []
    for __ in range(len(findings) + 1):  # each pass settles at least one conflict
        found = conflicts(findings)
        if not found:
            break
        c = found[0]
        owner = owner_of(c.key, c.first[0], c.second[0])
        loser, index, action = c.second if owner is c.first[0] else c.first
        kept = (c.first if owner is c.first[0] else c.second)[2]
        what = kept.key[4:] if kept.key.startswith("env:") else _("the CANN set_env.sh")
        note = _("see the fix of {finding}: it decides {what} ({op} {value})").format(
            finding=owner.id, what=what, op=kept.op, value=kept.value)
        loser.fix[index] = f"(left out: {command_part(loser.fix[index])})   # {note}"
        loser.evidence.setdefault("fix reconciled", []).append(note)
        changed.append(f"{loser.id}: {c.describe()}; kept {owner.id}")
    return changed
