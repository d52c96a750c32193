"""What a step is and how a plan is said: the disruption levels, a step's level and targets, the plan's contract
(`PlanStep`, `Plan`), the wording of alternatives (`or_step`, `or_heading`) and a finding's options.

Part of ascend_doctor.plan (the package's docstring says how a plan is chosen).
"""

from __future__ import annotations

import re
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ..findings import Finding
from ..i18n import N_, _
from ..records import dataclass, field

LEVELS = ("shell", "config", "python", "cann", "driver", "hardware")
RANK = {level: i for i, level in enumerate(LEVELS)}
# The order steps are done in (a dependency order, not the disruption order): the hardware and the driver under
# everything, CANN on the driver, the shell that sources CANN, the Python packages built for it, then settings.
DO_ORDER = {"hardware": 0, "driver": 1, "cann": 2, "shell": 3, "python": 4, "config": 5}

# --- what a step is -------------------------------------------------------------------------------------------

_ALT = re.compile(r"^\s*[（(]?\s*(?:or\b|或者?)[,，:：]?\s*", re.I)
_LOOK = re.compile(r"^(?:cat|ls|grep|head|tail|dmesg|ps|npu-smi|hccn_tool\s+-i\s+\S+\s+-\w+\s+-g|nvidia-smi|lspci|"
                   r"lsmod|df|free|which|type|env|printenv|readlink|stat|find|ldd|nvcc|uname|id|getconf|"
                   r"python3?\s+-c|pip3?\s+(?:index|show|list|check|download)|ascend-doctor|open a new shell|"
                   r"measure|compare|run\b|check\b|look\b|read\b|see\b)\b|"
                   r"^(?:打开一?个?新的? ?shell|查看|检查|确认|比较|对比|测量|运行|读取)", re.I)
# The steps are read in the report's language: the Chinese words of the same steps sit beside the English ones
# (a JSON report's levels are the same in either language: tests/plan/test_planner.py).
_HARDWARE = re.compile(r"更换(?:板卡|硬件|模组|芯片|光模块|线缆|CPU ?板)|返厂|联系(?:华为)?(?:技术支持|工程师)|"
                       r"\breplace (?:the |this )?(?:npu|card|device|board|module|chip|optical|cable)|"
                       r"\bcontact (?:huawei |the vendor'?s? |vendor |your )?(?:technical )?support|\bRMA\b|\breseat\b|"
                       r"\bhardware (?:repair|replacement)", re.I)
_DRIVER = re.compile(r"(?:安装|升级|降级|重装|更新)[^#]*(?:驱动|固件)|重启(?:节点|服务器|机器)?|"
                     r"ascend hdk|npu-driver|npu-firmware|\bhdk\b.*\b(?:install|upgrade)|"
                     r"\b(?:install|upgrade|downgrade|reinstall|update)\b[^#]*\b(?:npu |nvidia |gpu )?(?:driver|firmware)\b|"
                     r"nvidia-driver|\bcuda_[\d.]+_[\d.]+_linux\.run|\breboot\b|\brmmod\b|\bmodprobe\b|\binsmod\b",
                     re.I)
_CANN = re.compile(r"(?:安装|重新安装|升级|降级)[^#]*CANN|安装[^#]*CUDA[^#]*工具包|ascend-cann-|\binstall\b[^#]*\bcuda\b[^#]*\btoolkit\b|\bcuda-toolkit\b|\b(?:install|reinstall|upgrade|downgrade)\b[^#]*\bcann\b|\bcann\b[^#]*\btoolkit\b"
                   r"[^#]*\binstall|\.run\b[^#]*--install\b", re.I)
_PYTHON = re.compile(r"^(?:sudo\s+)?(?:python3?\s+-m\s+)?(?:pip3?|conda|mamba|micromamba|uv)\s+(?:install|create|"
                     r"uninstall|remove|update|env)\b|\binstall mindspore\b|\bmindspore(?:-\w+)?==|"
                     r"\bwheel\b.*\binstall|\bconda activate\b", re.I)
_CONFIG = re.compile(r"只保留|删除[^#]*source|写入[^#]*(?:文件|bashrc)|训练脚本|>>\s*\S+|\bkeep only\b|\bremove (?:the )?(?:source|line)\b|\bedit\b|\bsed -i\b|\bsysctl\b|"
                     r"\bulimit\b|\brank.?table\b|\bhccn_tool\b.*\s-s\b|\bset_context\b|\bln -s|\bchmod\b|\bchown\b|"
                     r"\bin your training script\b|\bmindspore\.\w+\(|^from \w+ import|\bconfigure\b|\bswitch\b.*\bqos\b",
                     re.I)
_ROOT = re.compile(r"root 权限|以 root|（root）|^sudo\b|\bas root\b|--install-for-all|\.run\b.*--(?:full|upgrade|uninstall)|^(?:systemctl|apt(?:-get)?|"
                   r"yum|dnf|mount|umount|ldconfig)\b", re.I)
_NO_REBOOT = re.compile(r"\bwithout (?:a )?reboot|无需重启|不重启", re.I)


def split_comment(step: str, quotes: str = "'\"`") -> Tuple[str, Optional[str]]:
    """`cmd   # why` -> (`cmd   `, ` why`) as written; (step, None) without a comment. A `#` starts a comment at
    the line's start or after a space, never inside one of `quotes`."""
    quote = None
    for i, ch in enumerate(step):
        if quote:
            if ch == quote:
                quote = None
        elif ch in quotes:
            quote = ch
        elif ch == "#" and (i == 0 or step[i - 1].isspace()):
            return step[:i], step[i + 1:]
    return step, None


def command_part(step: str) -> str:
    """The step without its `   # why` comment (a `#` inside quotes or backticks is no comment)."""
    return split_comment(step)[0].strip()


def _same_command(step: str) -> str:
    """The command of a step as far as what it does: `conda create ... -y` and `conda create ...` are one step."""
    return re.sub(r"\s+-y\b", "", command_part(step))


def is_alternative(step: str) -> bool:
    """A step written as another way ("or keep this CANN: ...", "或 ..."), not a step to do after the others."""
    return getattr(step, "msgid", None) in (OR_STEP, OR_ONLY, OR_HEADING) or bool(_ALT.match(step))


def step_level(step: str, level: Optional[str] = None) -> Tuple[str, bool, bool]:
    """(level, needs_root, reboot) of one fix step: the level a check states wins, else read from the command.

    The one place a step's disruption is decided (the planner, `fix --script` and the class tests use it)."""
    cmd = command_part(step)
    text = cmd or step
    if level is None:
        if _HARDWARE.search(text):
            level = "hardware"
        elif _LOOK.match(text) and ">" not in re.sub(r"\s[12]?>\s*/dev/null|\s2>&1", "", text):
            level = "shell"  # a look at the machine changes nothing
        elif _DRIVER.search(text):
            level = "driver"
        elif _CANN.search(text):
            level = "cann"
        elif _PYTHON.search(text):
            level = "python"
        elif _CONFIG.search(text):
            level = "config"
        else:
            level = "shell"
    root = level in ("driver", "hardware") or bool(_ROOT.search(text))
    reboot = level == "driver" and (bool(re.search(r"\breboot\b|重启", text, re.I)) or (
        not _NO_REBOOT.search(step) and not re.search(r"\brmmod\b|\bmodprobe\b", text) and bool(
            re.search(r"ascend hdk|npu-driver|npu-firmware|\bfirmware\b|\b(?:install|upgrade|downgrade|reinstall)\b"
                      r"[^#]*\bdriver\b|固件|(?:安装|升级|降级|重装)[^#]*驱动", text, re.I))))
    return level, root, reboot


# What a step installs: (kind, version). A plan installs one version of each kind, and none that is installed.
_TARGETS = (
    ("hdk", re.compile(r"\bAscend HDK (\d[\w.]*)", re.I)),
    ("hdk", re.compile(r"\bupgrade the driver to HDK (\d[\w.]*)", re.I)),
    ("cann", re.compile(r"\binstall CANN (\d[\w.]*)", re.I)),
    ("mindspore", re.compile(r"\bmindspore(?:-ascend|-gpu)?==(\d[\w.]*)", re.I)),
    ("mindspore", re.compile(r"\binstall MindSpore (\d[\w.]*)", re.I)),
    ("mindspore", re.compile(r"/mindspore(?:[-_](?:ascend|gpu))?-(\d[\w.]*?)-cp\d+-", re.I)),  # a wheel's URL
)


def step_targets(step: str) -> List[Tuple[str, str]]:
    cmd = command_part(step)
    return [(kind, m.group(1).rstrip(".,")) for kind, rx in _TARGETS for m in rx.finditer(cmd)]


# --- the contract ----------------------------------------------------------------------------------------------

@dataclass
class PlanStep:
    do: str
    level: str
    needs_root: bool = False
    reboot: bool = False
    resolves: List[str] = field(default_factory=list)

    @classmethod
    def of(cls, step: str, resolves: Iterable[str] = (), level: Optional[str] = None) -> "PlanStep":
        lvl, root, reboot = step_level(step, level)
        return cls(step, lvl, root, reboot, list(dict.fromkeys(resolves)))

    def to_json(self) -> dict:
        from ..i18n_text import entry, worded

        return {"do": worded(self.do), "level": self.level, "needs_root": self.needs_root, "reboot": self.reboot,
                "resolves": list(self.resolves), "i18n": {"do": entry(self.do)}}

    def worded(self) -> "PlanStep":
        from ..i18n_text import worded

        return PlanStep(worded(self.do), self.level, self.needs_root, self.reboot, list(self.resolves))

    @classmethod
    def from_json(cls, data: dict) -> "PlanStep":
        from ..i18n_text import Stored, from_entry

        level = str(data.get("level") or "shell")
        i18n = data.get("i18n")
        if isinstance(i18n, dict) and "do" in i18n:  # report/2: the step's message, worded again exactly
            do = from_entry(i18n["do"], str(data.get("do") or ""))
        else:
            do = str(data.get("do") or "")
            do = Stored(do, report=True) if do else do
        return cls(do, level if level in RANK else "shell", bool(data.get("needs_root")),
                   bool(data.get("reboot")), [str(x) for x in data.get("resolves") or []])


@dataclass
class Plan:
    steps: List[PlanStep] = field(default_factory=list)
    alternatives: List[Dict[str, Any]] = field(default_factory=list)  # [{"why": str, "steps": [PlanStep]}]
    unresolved: List[str] = field(default_factory=list)

    @property
    def level(self) -> Optional[str]:
        """The most disruptive level the plan reaches (None: nothing to do)."""
        return max((s.level for s in self.steps), key=RANK.__getitem__, default=None)

    def to_json(self) -> dict:
        from ..i18n_text import entry, worded

        return {"steps": [s.to_json() for s in self.steps],
                "alternatives": [{"why": worded(a["why"]), "steps": [s.to_json() for s in a["steps"]],
                                  "i18n": {"why": entry(a["why"])}}
                                 for a in self.alternatives],
                "unresolved": list(self.unresolved)}

    def worded(self) -> "Plan":
        """A copy in the current language (what a renderer shows)."""
        from ..i18n_text import worded

        return Plan([s.worded() for s in self.steps],
                    [{"why": worded(a["why"]), "steps": [s.worded() for s in a["steps"]]} for a in self.alternatives],
                    list(self.unresolved))

    @classmethod
    def from_json(cls, data: Optional[dict]) -> "Plan":
        from ..i18n_text import Stored, from_entry

        def why(a: dict) -> Any:
            i18n = a.get("i18n")
            if isinstance(i18n, dict) and "why" in i18n:
                return from_entry(i18n["why"], str(a.get("why") or ""))
            return Stored(str(a["why"]), report=True) if a.get("why") else ""

        data = data or {}
        return cls([PlanStep.from_json(s) for s in data.get("steps") or []],
                   [{"why": why(a), "steps": [PlanStep.from_json(s) for s in a.get("steps") or []]}
                    for a in data.get("alternatives") or []],
                   [str(x) for x in data.get("unresolved") or []])


# --- a finding's options -----------------------------------------------------------------------------------------

# Another way in a flat fix list, said as such: its label (why) in words, its step as written (a command stays a
# command: the words are never glued to it), so split_alternatives takes it apart by its parts, in any language.
OR_STEP = N_("or {why}: {step}")
OR_ONLY = N_("or {step}")
OR_HEADING = N_("or {why}:")  # heads the steps that follow it: they are this alternative's


def or_step(step: Any, why: Any = "") -> str:
    """A fix line that offers `step` as another way, labelled `why` (words, a message) when given."""
    return _(OR_STEP).format(why=why, step=step) if why else _(OR_ONLY).format(step=step)


def or_heading(why: Any) -> str:
    """A fix line that says the lines after it are another way: `why` (words, a message)."""
    return _(OR_HEADING).format(why=why)


def _structured(step: Any) -> Optional[Tuple[Any, Optional[Any]]]:
    """(why, step) of an or_step line, (why, None) of an or_heading line (a Text, i18n_text); None otherwise."""
    msgid = getattr(step, "msgid", None)
    if msgid == OR_STEP:
        return step.params["why"], step.params["step"]
    if msgid == OR_ONLY:
        return "", step.params["step"]
    if msgid == OR_HEADING:
        return step.params["why"], None
    return None

def split_alternatives(fix: Sequence[str]) -> Tuple[List[str], List[Dict[str, Any]]]:
    """A flat fix list as steps and labelled alternatives: each "or ...: step" is a one-step alternative, whose
    `why` is what comes before its colon ("keep this CANN"), the steps around it stay steps."""
    steps, alternatives = [], []
    below = None  # an alternative that says the steps below are its own ("or use X (see the steps below)")
    for step in fix:
        parts = _structured(step)
        if parts is not None:
            why, body = parts
            alternatives.append({"why": why, "steps": [] if body is None else [body]})
            below = alternatives[-1] if body is None else None
            continue
        m = _ALT.match(step)
        if not m:
            (below["steps"] if below is not None else steps).append(step)
            continue
        below = None
        rest = step[m.end():]
        cmd = command_part(rest)
        why, body = "", rest
        head, sep, tail = cmd.partition(": ") if ": " in cmd else cmd.partition("：")
        if sep and len(head) < 90 and not re.search(r"[=/$`|]", head) and not re.search(r"\b(?:and|then)$|(?:然后|并且?|再)(?:执行)?$", head):
            why, body = head.strip(), rest[len(head) + len(sep):]
        if body.rstrip().endswith(")") and step.lstrip().startswith(("(", "（")) and body.count("(") < body.count(")"):
            body = body.rstrip()[:-1]
        if step.rstrip().endswith((":", "：")):
            # "or use a CUDA runtime no newer than 10.1:" heads the steps that follow it: they are this alternative's
            # steps (not the fix's), and the heading, words rather than a step, says why
            heading = rest.strip().rstrip(":：").strip()
            alternatives.append({"why": heading, "steps": []})
            below = alternatives[-1]
            continue
        alternatives.append({"why": why, "steps": [body.strip()]})
        if re.search(r"\bsteps below\b", step):
            below = alternatives[-1]
    return steps, alternatives


def as_ways(ways: Sequence[Any]) -> Tuple[List[str], List[Dict[str, Any]]]:
    """Ways to one end (install this CANN, or that one, or this MindSpore) as a finding's fix and labelled
    alternatives: the least disruptive way is the fix (the check's order among equals). A way is one step, or a
    list of steps that go together (a new Python environment and the MindSpore installed in it)."""
    if not ways:
        return [], []
    groups = [list(w) if isinstance(w, (list, tuple)) else [w] for w in ways]
    ordered = sorted(groups, key=lambda g: max(RANK[step_level(w)[0]] for w in g))
    return list(ordered[0]), [{"why": "", "steps": g} for g in ordered[1:]]


def normalize_fixes(findings: Iterable[Finding]) -> None:
    """Move every "or ..." step of a finding's fix into its labelled alternatives (a fix holds steps only)."""
    for f in findings:
        if any(is_alternative(s) for s in f.fix):
            steps, alts = split_alternatives(f.fix)
            f.fix = steps
            f.alternatives = list(f.alternatives) + alts


def _options(f: Finding) -> List[Tuple[str, List[str]]]:
    """(why, steps) of each way a finding offers: its fix first, then its alternatives."""
    steps = [s for s in f.fix if not s.startswith("(left out:")]  # a pointer to another finding's step
    out = [("", steps)] if steps else []
    out += [(a.get("why") or "", list(a.get("steps") or [])) for a in f.alternatives if a.get("steps")]
    return out


def _option_level(steps: Sequence[str]) -> int:
    return max((RANK[step_level(s)[0]] for s in steps), default=0)


def _is_look(step: str) -> bool:
    text = command_part(step) or step
    return bool(_LOOK.match(text)) and step_level(step)[0] == "shell"


def _option_key(option: Tuple[str, List[str]]) -> Tuple[bool, int]:
    """Options that change something before ones that only look (a look clears nothing), then the least
    disruptive; `min` keeps the first of equals (the check's own order)."""
    steps = option[1]
    return all(_is_look(s) for s in steps), _option_level(steps)


