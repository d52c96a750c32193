"""One plan per node: the least disruptive coherent set of steps that clears every failure.

The checks say what is wrong and what would fix it (a finding's `fix` steps, and its `alternatives`); this
module reads all of them once, with the facts and the compatibility matrix, and picks one plan:

* **Disruption** of a step, lowest first (`LEVELS`): shell (export/source in this shell) < config (a variable or
  file that persists) < python (pip/conda in the training environment) < cann (toolkit/kernels install) <
  driver (NPU driver/firmware, NVIDIA driver: root, usually a reboot) < hardware (replace, support).
  `step_level` is the one place a step's level is decided: from the level a check gives, else from the command.
* **The version stack** (MindSpore x CANN in use x NPU driver/firmware) is planned as a whole: candidate target
  states are built from the matrix's published pairings only (and the CANN installs already on the node), each
  is judged again by the compat checks themselves on the changed facts, and the state that clears the most
  failures at the least disruption wins (a Python step before a CANN install before a driver change; sourcing an
  install that is there before installing; never installing what is installed; one driver target).
* **Every other finding** contributes its least disruptive option (its fix, or one of its alternatives) that
  does not contradict the stack's targets; warnings only where they do not raise the plan's disruption above
  what its failures already need (or above `python`).
* Steps are ordered by dependency (hardware, then driver, then CANN, then the shell that sources it, the Python
  packages, the persistent configuration), duplicates merged. A failure no option clears is `unresolved`, with
  why in its evidence ("not cleared by the plan").

The plan is the report's `plan` block (`Plan.to_json`, the contract in docs/plan.md). The finding a plan step
resolves gets that step as its own fix, its other options kept as labelled alternatives, so no report gives two
answers to one question.
"""

from __future__ import annotations

import copy
import re
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from .findings import ERROR, FAIL, PASS, SKIP, WARN, Finding
from .i18n import N_, _
from .records import dataclass, field
from .versions import python_major_minor, version_key

LEVELS = ("shell", "config", "python", "cann", "driver", "hardware")
RANK = {level: i for i, level in enumerate(LEVELS)}
# The order steps are done in (a dependency order, not the disruption order): the hardware and the driver under
# everything, CANN on the driver, the shell that sources CANN, the Python packages built for it, then settings.
DO_ORDER = {"hardware": 0, "driver": 1, "cann": 2, "shell": 3, "python": 4, "config": 5}

# The compat checks judge the version stack; the planner runs them again on candidate target states.
STACK_CHECKS = ("compat.mindspore_cann", "compat.cann_driver", "compat.driver_firmware", "compat.firmware_min",
                "compat.python_mindspore", "compat.custom_ops_cann")

UNRESOLVED_KEY = "not cleared by the plan"
AFTER_PLAN_KEY = "after the plan"  # what the check says on the state the plan leads to (a finding it does not clear)

# --- what a step is -------------------------------------------------------------------------------------------

_ALT = re.compile(r"^\s*[（(]?\s*(?:or\b|或者?)[,，:：]?\s*", re.I)
_LOOK = re.compile(r"^(?:cat|ls|grep|head|tail|dmesg|ps|npu-smi|hccn_tool\s+-i\s+\S+\s+-\w+\s+-g|nvidia-smi|lspci|"
                   r"lsmod|df|free|which|type|env|printenv|readlink|stat|find|ldd|nvcc|uname|id|getconf|"
                   r"python3?\s+-c|pip3?\s+(?:index|show|list|check|download)|ascend-doctor|open a new shell|"
                   r"measure|compare|run\b|check\b|look\b|read\b|see\b)\b|"
                   r"^(?:打开一?个?新的? ?shell|查看|检查|确认|比较|对比|测量|运行|读取)", re.I)
# The steps are read in the report's language: the Chinese words of the same steps sit beside the English ones
# (a JSON report's levels are the same in either language: tests/test_plan.py).
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
        from .i18n_text import entry, worded

        return {"do": worded(self.do), "level": self.level, "needs_root": self.needs_root, "reboot": self.reboot,
                "resolves": list(self.resolves), "i18n": {"do": entry(self.do)}}

    def worded(self) -> "PlanStep":
        from .i18n_text import worded

        return PlanStep(worded(self.do), self.level, self.needs_root, self.reboot, list(self.resolves))

    @classmethod
    def from_json(cls, data: dict) -> "PlanStep":
        from .i18n_text import Stored, from_entry

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
        from .i18n_text import entry, worded

        return {"steps": [s.to_json() for s in self.steps],
                "alternatives": [{"why": worded(a["why"]), "steps": [s.to_json() for s in a["steps"]],
                                  "i18n": {"why": entry(a["why"])}}
                                 for a in self.alternatives],
                "unresolved": list(self.unresolved)}

    def worded(self) -> "Plan":
        """A copy in the current language (what a renderer shows)."""
        from .i18n_text import worded

        return Plan([s.worded() for s in self.steps],
                    [{"why": worded(a["why"]), "steps": [s.worded() for s in a["steps"]]} for a in self.alternatives],
                    list(self.unresolved))

    @classmethod
    def from_json(cls, data: Optional[dict]) -> "Plan":
        from .i18n_text import Stored, from_entry

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


def as_ways(ways: Sequence[str]) -> Tuple[List[str], List[Dict[str, Any]]]:
    """Single-step ways to one end (install this CANN, or that one, or this MindSpore) as a finding's fix and
    labelled alternatives: the least disruptive way is the fix (the check's order among equals)."""
    if not ways:
        return [], []
    ordered = sorted(ways, key=lambda w: RANK[step_level(w)[0]])
    return [ordered[0]], [{"why": "", "steps": [w]} for w in ordered[1:]]


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


# --- the version stack ---------------------------------------------------------------------------------------------

@dataclass
class StackState:
    """A target state of the version stack: what changes (None: stays), and the steps that get there."""

    mindspore: Optional[dict] = None  # matrix row
    python: Optional[str] = None  # a new Python environment of this version (MindSpore installed in it)
    cann_installed: Any = None  # a CannInstall already on the node, to source
    cann_new: Optional[str] = None  # a CANN release to install
    hdk: Optional[str] = None  # an Ascend HDK release: driver (+ firmware of that release)
    driver_only: bool = False  # the driver changes to `hdk`, the firmware stays
    paired: bool = False  # the CANN comes with the MindSpore published with it: the two are one change
    steps: List[Tuple[str, str]] = field(default_factory=list)  # (step, level)
    statuses: Dict[str, str] = field(default_factory=dict)  # check id -> status in this state
    parts: Dict[str, Any] = field(default_factory=dict)  # "cann" | "mindspore" | "hdk" -> (option, its steps)

    @property
    def level(self) -> int:
        return max((RANK[lvl] for _s, lvl in self.steps), default=-1)


def _judge(facts, matrix, only: Sequence[str]) -> Dict[str, str]:
    from .checks import CheckContext, all_checks

    ctx = CheckContext(facts=facts, options={"live": False}, _matrix=matrix)
    out: Dict[str, str] = {}
    for spec in all_checks():
        if spec.id not in only:
            continue
        try:
            result = spec.func(ctx)
        except Exception:  # a check crashing on a hypothetical state: that state proves nothing
            out[spec.id] = ERROR
            continue
        for f in result if isinstance(result, list) else [result] if result is not None else []:
            if SEVERITY_ORDER.get(f.status, 0) >= SEVERITY_ORDER.get(out.get(f.id, PASS), 0):
                out[f.id] = f.status
    return out


SEVERITY_ORDER = {PASS: 0, SKIP: 0, WARN: 1, ERROR: 1, FAIL: 2}


def _driver_spelling(hdk: str) -> str:
    return re.sub(r"(?i)\.rc", ".rc", hdk)  # the driver's version.info writes 24.1.rc2 for HDK 24.1.RC2


def _apply(facts, matrix, state: StackState):
    """The facts as they would be after the state's steps (a copy; the matrix's rows stand for new packages)."""
    from .facts import JUDGED_ENV, CannChoice, CannInstall

    new = copy.copy(facts)  # only the parts a state changes are copied (the rest is read, never written)
    for part in ("mindspore", "cann", "driver", "firmware", "python", "npu"):
        setattr(new, part, copy.deepcopy(getattr(facts, part)))
    if state.python:
        new.python.version = state.python
    if state.mindspore is not None:
        ms = new.mindspore
        ms.installed, ms.version = True, state.mindspore["version"]
        ms.accepted_cann, ms.custom_ops_cann, ms.wheel_tags = [], {}, []
        ms.flavour = ms.flavour if ms.flavour in ("ascend", "gpu", "cpu") else "ascend"
    inst = None
    if state.cann_installed is not None:
        inst = next(i for i in new.cann.installs if i.root == state.cann_installed.root)
    elif state.cann_new:
        mm = matrix.compiler_for_cann(state.cann_new)[0]
        inst = CannInstall(root=f"(planned {state.cann_new})", kind="toolkit", release=state.cann_new,
                           compiler_version=mm, active=True)
        new.cann.installs = list(new.cann.installs) + [inst]
    if inst is not None:
        for i in new.cann.installs:
            i.active = i is inst
        new.cann.active_root = inst.root
        new.cann.judged = CannChoice(root=inst.root, reason=JUDGED_ENV)
    if state.hdk:
        drv = new.driver
        drv.installed, drv.version = True, _driver_spelling(state.hdk)
        drv.package_version, drv.compatible_version, drv.compatible_version_fw = state.hdk, [], []
        new.npu.driver_version = None
        if not state.driver_only:
            fws = [r["firmware"] for r in matrix.firmware_for_hdk(state.hdk)]
            fw = new.firmware
            # An HDK's own driver and firmware are released together; with no firmware row the pair is not judged
            fw.version, fw.package_version, fw.compatible_version_drv = (fws[0] if fws else None), state.hdk, []
    return new


def _same_release(a: str, b: str) -> bool:
    from .versions import release_matches

    return release_matches(a, b) and release_matches(b, a)


def _installed_release(facts, release: str):
    from .versions import release_matches

    return next((i for i in facts.cann.installs if i.release and release_matches(i.release, release)
                 and release_matches(release, i.release)), None)


def _hdk_choices(matrix, cann: Optional[str]) -> List[str]:
    """The HDK releases a source pairs with (else lists as compatible with) this CANN; never a known-working
    report, which no vendor table gives."""
    from .checks.compat import needed_hdk

    return needed_hdk(matrix, cann)[:2] if cann else []


def _driver_canns(matrix, driver: Optional[str], python, platform, limit: int = 2) -> List[Tuple[str, str]]:
    """(CANN release, the newest MindSpore published with it for this Python) for the CANN releases a source pairs
    with the installed driver or lists as compatible with it, newest CANN first: the candidates that keep the
    driver."""
    from .versions import release_matches

    if not driver:
        return []
    found: Dict[str, str] = {}
    for row in matrix.data["cann_hdk"]:
        if row["relation"] not in ("paired", "compatible") or row["cann"] in found:
            continue
        if not any(release_matches(driver, p) for p in row["hdk"]):
            continue
        published = matrix.published_mindspore_for_cann(row["cann"], None, python, platform)
        if published:
            found[row["cann"]] = published[0]["version"]
    return sorted(found.items(), key=lambda kv: version_key(kv[0]), reverse=True)[:limit]


def _dimensions(facts, matrix):
    """The ways each part of the stack may change, from the matrix's published pairings and the installs here:
    [(cann change, [MindSpore changes], [driver changes])], a change being (what, steps) and None "stays"."""
    from .checks._recommend import _by, platform_of
    from .matrix import mindspore_install_steps

    ms = facts.mindspore if facts.mindspore.installed and facts.mindspore.version else None
    judged = facts.cann.judged_install
    python, platform = facts.python.version, platform_of(facts)

    def source_step(inst):
        path = inst.set_env or inst.root.rstrip("/") + "/set_env.sh"
        return (_("source {path}   # CANN {release} is installed there; use it instead of installing one").format(
            path=path, release=inst.release or inst.compiler_version), "shell")

    def cann_step(release, version):
        return (_("{step}   # published with MindSpore {version}").format(
            step=_("install CANN {release} toolkit + kernels, then `source <install>/set_env.sh`").format(
                release=release), version=version),
            "cann")

    def hdk_step(hdk, cann):
        if facts.driver.version and _same_release(facts.driver.version, hdk):  # the driver is that release already
            return (_("{step}   # needs root and a reboot; the driver already is that release").format(
                step=_("install the NPU firmware of HDK {hdk} (the driver's release), then reboot").format(hdk=hdk)),
                "driver")
        # The HDK install guide's order (CANN install guide "Installing the NPU Driver and Firmware",
        # https://www.hiascend.com/document/detail/en/CANNCommunityEdition/900/softwareinst/instg/instg_0005.html):
        # a first install (no driver, or driver and firmware uninstalled) is driver > firmware; an overwrite install
        # or upgrade over an installed driver and firmware is firmware > driver.
        if facts.driver.installed or facts.driver.version:
            step = _("install Ascend HDK {hdk} (the NPU firmware, then the driver, as the HDK install guide orders it), "
                     "then reboot").format(hdk=hdk)
        else:
            step = _("install Ascend HDK {hdk} (the NPU driver, then the firmware, as the HDK install guide orders it), "
                     "then reboot").format(hdk=hdk)
        return (_("{step}   # needs root and a reboot; paired with CANN {cann} by the matrix's sources").format(
            step=step, cann=cann), "driver")

    # the CANN in use: stays, another install here (sourced), or a release published with this MindSpore (or the
    # newest published pairing's) that is not here; an installed release is sourced, never installed again
    cann_opts: List[Tuple[Any, Optional[str], List[Tuple[str, str]]]] = [(None, None, [])]
    for other in facts.cann.installs:
        if other is not judged and (other.release or other.compiler_version):
            cann_opts.append((other, None, [source_step(other)]))
    wanted = {c["cann"]: ms.version for c in matrix.published_canns(ms.version)[:3]} if ms else {}
    newest = matrix.newest_published_pairing(python, platform) if ms else None
    if newest:
        wanted.setdefault(newest[1]["cann"], newest[0]["version"])
    # a CANN release the installed driver is paired or listed compatible with, in a pair with a MindSpore release
    # published with it: a CANN install (and a pip install) where the other ways change the driver
    pair_only = set()
    if ms:
        for release, version in _driver_canns(matrix, facts.driver.package_version or facts.driver.version,
                                              python, platform):
            if not any(_same_release(release, w) for w in wanted):
                wanted[release] = version
                pair_only.add(release)
    for release, version in wanted.items():
        there = _installed_release(facts, release)
        if there is None:
            cann_opts.append((None, release, [cann_step(release, version)]))
        elif there is not judged and all(o[0] is not there for o in cann_opts):
            cann_opts.append((there, None, [source_step(there)]))
    out = []
    for inst, release, steps in cann_opts:
        cann = release or (inst.release if inst is not None else judged.release if judged is not None else None)
        compiler = None if release else (inst or judged).compiler_version if (inst or judged) is not None else None
        label = f"CANN {cann or compiler}"
        ms_opts: List[Tuple[Optional[dict], Optional[str], List[Tuple[str, str]]]] = [(None, None, [])]
        if release in pair_only and not any(_same_release(release, c["cann"]) for c in matrix.published_canns(
                ms.version)):
            ms_opts = []  # that CANN comes with a MindSpore published with it: this one is not
        if ms and (cann or compiler):
            def install(row, why_cann=True):
                why = _("published with {cann} ({sources})").format(cann=label, sources=_by(matrix, row, cann or "")) \
                    if why_cann else _("the same MindSpore, in a Python it has wheels for")
                return [(x, "python") for x in mindspore_install_steps([row], why, limit=1)]

            for row in matrix.published_mindspore_for_cann(cann, compiler, python, platform)[:2]:
                if row["version"] != ms.version:
                    ms_opts.append((row, None, install(row)))
            # a Python the release has wheels for, in a new environment (this MindSpore, or one published with CANN)
            here = matrix.mindspore_row(ms.version)
            rows = ([here] if here else []) + [r for r in matrix.published_mindspore_for_cann(cann, compiler, None,
                                                                                             platform)[:2]
                                               if not here or r["version"] != here["version"]]
            for row in rows:
                fits = matrix.python_for(row["version"], platform, "ascend")
                pythons = sorted((fits or {}).get("python") or [], key=version_key)
                if not pythons or (python and python_major_minor(python) in pythons):
                    continue
                env = (_("{step}   # a Python MindSpore {version} has wheels for").format(
                    step=f"conda create -n mindspore python={pythons[-1]} -y && conda activate mindspore",
                    version=row["version"]), "python")
                ms_opts.append((row, pythons[-1], [env] + install(row, row is not here)))
        hdk_opts: List[Tuple[Optional[str], bool, List[Tuple[str, str]]]] = [(None, False, [])]
        for hdk in (_hdk_choices(matrix, cann) if cann else []):
            hdk_opts.append((hdk, False, [hdk_step(hdk, cann)]))
        fw = facts.firmware
        own = facts.driver.package_version or facts.driver.version
        if own and fw.version and not any(_same_release(own, h) for h, _d, _s in hdk_opts if h):
            hdk_opts.append((own, False, [hdk_step(own, cann)]))  # the firmware of the driver's own release
        if fw.package_version and facts.driver.version and not _same_release(facts.driver.version, fw.package_version):
            hdk_opts.append((fw.package_version, True, [(_(
                "{step}   # needs root and a reboot; the firmware already is that release").format(
                step=f"upgrade the NPU driver to Ascend HDK {fw.package_version} (the firmware's release), then "
                     f"reboot"), "driver")]))
        out.append(((inst, release, steps), ms_opts, hdk_opts, release in pair_only))
    return out


def _state(cann, ms_opt, hdk_opt) -> StackState:
    inst, release, cann_steps = cann
    row, python, ms_steps = ms_opt
    hdk, driver_only, hdk_steps = hdk_opt
    # the order to do them in: the driver under CANN, CANN (or the shell that sources it), then MindSpore
    parts = {name: (opt, steps) for name, opt, steps in (("hdk", hdk_opt, hdk_steps), ("cann", cann, cann_steps),
                                                          ("mindspore", ms_opt, ms_steps)) if steps}
    return StackState(mindspore=row, python=python, cann_installed=inst, cann_new=release, hdk=hdk,
                      driver_only=driver_only, steps=hdk_steps + cann_steps + ms_steps, parts=parts)


def _cleared(before: str, after: str) -> bool:
    """A failure is cleared when it no longer fails (an unknown pairing may stay a warning); a warning when it
    passes or no longer applies."""
    return (before == FAIL and after != FAIL) or (before in (WARN, ERROR) and after in (PASS, SKIP))


_STAYS = {"hdk": (None, False, []), "cann": (None, None, []), "mindspore": (None, None, [])}


def _attribute(facts, matrix, best: StackState, resolved: List[str], now: Dict[str, str]) -> Dict[str, List[str]]:
    """Which of the findings the state clears each part of it clears: those that come back without that part
    (a finding no single part clears alone is credited to every part)."""
    if len(best.parts) < 2:
        return {name: list(resolved) for name in best.parts}
    out: Dict[str, List[str]] = {}
    for name in best.parts:
        rest = {n: (best.parts[n][0] if n in best.parts else _STAYS[n]) for n in _STAYS}
        rest[name] = _STAYS[name]
        without = _state(rest["cann"], rest["mindspore"], rest["hdk"])
        statuses = _judge(_apply(facts, matrix, without), matrix, tuple(best.statuses))
        out[name] = [fid for fid in resolved if not _cleared(now[fid], statuses.get(fid, PASS))]
    credited = {fid for ids in out.values() for fid in ids}
    for name in out:
        out[name] += [fid for fid in resolved if fid not in credited]
    if best.paired and "cann" in out and "mindspore" in out:
        # a CANN installed with the MindSpore published with it: what either clears, the pair clears (a finding
        # never gets the CANN without the MindSpore that makes it a published pairing)
        both = list(dict.fromkeys(out["cann"] + out["mindspore"]))
        out["cann"], out["mindspore"] = both, list(both)
    return out


def _candidates(facts, matrix, combined: bool) -> List[StackState]:
    """Target states: one part changed at a time, or (`combined`) every combination of the parts' changes."""
    dims = _dimensions(facts, matrix)
    states: List[StackState] = []
    for cann, ms_opts, hdk_opts, paired in dims:
        for ms_opt in ms_opts:
            for hdk_opt in hdk_opts:
                # a CANN that comes with its MindSpore is one change (the pair)
                changed = (cann[0] is not None or cann[1] is not None) + (ms_opt[2] != [] and not paired) + \
                    (hdk_opt[0] is not None)
                if (changed <= 1) != combined:
                    states.append(_state(cann, ms_opt, hdk_opt))
                    states[-1].paired = paired
    return states


def _key(state: StackState, index: int) -> tuple:
    fails = sum(1 for s in state.statuses.values() if s == FAIL)
    warns = sum(1 for s in state.statuses.values() if s in (WARN, ERROR))
    levels = [RANK[lvl] for _s, lvl in state.steps]
    # fewest failures left; then the warnings a change of MindSpore alone (a pip install) clears; then the least
    # disruptive (its worst step, then all its steps: MindSpore before CANN before the driver); then the fewest
    # warnings; then the matrix's order (best published pairing first). Sourcing another CANN to silence a
    # warning would contradict the checks that decide which install a shell sources: it is never done for one.
    return fails, state.level, sum(levels), warns, len(state.steps), index


def _warning_key(state: StackState, index: int) -> tuple:
    """With no failure to clear, a warning is cleared only by changing MindSpore (a pip install): the fewest
    warnings left, then the least change. Sourcing another CANN or changing the driver for a warning would
    contradict the checks that decide which install a shell sources, or take a node down for an unknown."""
    fails, level, total, warns, steps, index = _key(state, index)
    return fails, warns, level, total, steps, index


def _python_only(state: StackState) -> bool:
    return state.level <= RANK["python"] and "cann" not in state.parts and "hdk" not in state.parts


def plan_stack(facts, matrix, findings: Sequence[Finding]) -> Tuple[Optional[StackState], List[StackState]]:
    """The best target state of the version stack for the failures and warnings its checks report now, and the
    next best of other levels (alternatives). (None, []) when the stack has nothing to change."""
    now = {f.id: f.status for f in findings if f.id in STACK_CHECKS}
    if not any(s in (FAIL, WARN) for s in now.values()):
        return None, []
    only = tuple(now)
    failing = any(s == FAIL for s in now.values())
    key = _key if failing else _warning_key
    judged: List[Tuple[tuple, StackState]] = []
    for combined in (False, True):
        if combined and judged and judged[0][0][0] == 0:
            break  # a single change clears every failure: combining changes only adds disruption
        for state in _candidates(facts, matrix, combined):
            if not failing and not _python_only(state):
                continue
            state.statuses = now if not state.steps else _judge(_apply(facts, matrix, state), matrix, only)
            judged.append((key(state, len(judged)), state))
        judged.sort(key=lambda x: x[0])
    best_key, best = judged[0]
    if not best.steps:
        return None, []
    others, seen = [], {best.level}
    cleared = [i for i in now if _cleared(now[i], best.statuses.get(i, PASS))]
    for key, state in judged[1:]:
        if not all(_cleared(now[i], state.statuses.get(i, PASS)) for i in cleared):
            continue  # another way is one that clears what the plan clears
        if key[0] <= best_key[0] and state.steps and state.level not in seen and state.level > best.level:
            seen.add(state.level)
            others.append(state)
    return best, others[:2]


# --- the plan -------------------------------------------------------------------------------------------------------

_NEW_ENV = re.compile(r"\bconda create\b|\b(?:python3?\s+-m\s+)?venv\b|\bvirtualenv\b|\buv venv\b")


def _option_conflicts(steps: Sequence[str], targets: Dict[str, str], installed: Dict[str, List[str]]) -> bool:
    """An option contradicts the plan's targets or installs what is installed (a package in a new Python
    environment is no reinstall)."""
    if any(_NEW_ENV.search(command_part(s)) for s in steps):
        installed = {k: v for k, v in installed.items() if k != "mindspore"}
    return any(_conflicts(s, targets, installed) for s in steps)


def _conflicts(step: str, targets: Dict[str, str], installed: Dict[str, List[str]]) -> bool:
    from .versions import release_matches

    for kind, version in step_targets(step):
        if kind in targets and not (release_matches(version, targets[kind]) or release_matches(targets[kind], version)):
            return True  # a second answer to a question the plan answers
        if any(release_matches(version, v) and release_matches(v, version) for v in installed.get(kind, [])):
            return True  # installs what is installed
    return False


def _installed(facts) -> Dict[str, List[str]]:
    if facts is None:
        return {}
    out: Dict[str, List[str]] = {"cann": [i.release for i in facts.cann.installs if i.release]}
    if facts.mindspore.installed and facts.mindspore.version:
        out["mindspore"] = [facts.mindspore.version]
    if facts.driver.package_version or facts.driver.version:
        out["hdk"] = [facts.driver.package_version or facts.driver.version]
    return out


def build_plan(findings: Sequence[Finding], facts=None, matrix=None) -> Plan:
    """The node's plan (see the module docstring). Without facts and matrix (a saved report read back), the
    version stack is not searched: each finding's own options are planned as they are."""
    normalize_fixes(findings)
    plan = Plan()
    chosen: List[Tuple[PlanStep, int]] = []  # (step, its group: the steps of one finding's option, or the stack's)
    targets: Dict[str, str] = {}
    installed = _installed(facts)
    stack_ids: List[str] = []
    best, others = (None, [])
    # MindSpore on CUDA (a GPU build, no CANN here or planned) has no CANN or NPU driver to change: its findings'
    # own fixes (checks/_gpu_fix.py: driver, runtime, MindSpore in that order) are planned as they are
    cuda_stack = facts is not None and facts.mindspore.installed and facts.mindspore.flavour == "gpu" \
        and facts.cann.judged_install is None
    stacked = facts is not None and matrix is not None and not cuda_stack
    if stacked:
        try:
            best, others = plan_stack(facts, matrix, findings)
        except Exception:  # planning must never hide the report; the findings' own fixes are planned instead
            best, others = None, []
    if best is not None:
        resolved = [f.id for f in findings if f.id in best.statuses and _cleared(f.status, best.statuses[f.id])]
        stack_ids = resolved
        credit = _attribute(facts, matrix, best, resolved, {f.id: f.status for f in findings})
        for name in ("hdk", "cann", "mindspore"):  # the order to do them in
            for step, level in best.parts.get(name, (None, []))[1]:
                chosen.append((PlanStep.of(step, credit.get(name) or resolved, level), best.level))
                for kind, version in step_targets(step):
                    targets[kind] = version
        for state in others:
            plan.alternatives.append({"why": _why_state(state), "steps": [PlanStep.of(s, [], lvl) for s, lvl in
                                                                          state.steps]})
    failing_levels = []
    # failures first (they decide how far the plan must go), then warnings that fit under it
    order = sorted(range(len(findings)), key=lambda i: {FAIL: 0, ERROR: 2, WARN: 1}.get(findings[i].status, 3))
    for i in order:
        f = findings[i]
        if f.status not in (FAIL, WARN, ERROR) or f.id in stack_ids or (stacked and f.id in STACK_CHECKS):
            continue  # the version stack is planned as a whole (above) when the facts and the matrix are here
        options = [(why, steps) for why, steps in _options(f) if not _option_conflicts(steps, targets, installed)]
        if not options:
            if f.status == FAIL:
                plan.unresolved.append(f.id)
                why = (_("every fix it offers contradicts the plan's targets or installs what is installed")
                       if _options(f) else _("no fix is known: collect the facts (ascend-doctor collect) and ask "
                                             "support"))
                f.evidence[UNRESOLVED_KEY] = why
            continue
        why, steps = min(options, key=_option_key)  # the first of the least disruptive
        level = _option_level(steps)
        if f.status == FAIL:
            failing_levels.append(level)
        else:
            ceiling = max(failing_levels + [RANK["python"]] + [RANK[s.level] for s, _g in chosen])
            if level > ceiling:
                continue
        for s in steps:
            for kind, version in step_targets(s):
                targets.setdefault(kind, version)
            chosen.append((PlanStep.of(s, [f.id]), level))
        if why or steps != f.fix:  # an alternative was chosen: it becomes the finding's fix, the fix an alternative
            _promote(f, steps)
    # stack findings not cleared by the state (or no state): their own fixes, else unresolved
    for f in findings:
        if f.id in STACK_CHECKS and f.status == FAIL and f.id not in stack_ids:
            if stacked or not f.fix:
                plan.unresolved.append(f.id)
                f.evidence[UNRESOLVED_KEY] = _(
                    "no published pairing in the matrix clears it together with the other findings") if f.fix else \
                    _("no fix is known: collect the facts (ascend-doctor collect) and ask support")
            else:
                options = [(w, s) for w, s in _options(f) if not _option_conflicts(s, targets, installed)]
                if options:
                    why, steps = min(options, key=_option_key)
                    chosen.extend((PlanStep.of(s, [f.id]), _option_level(steps)) for s in steps)
                else:
                    plan.unresolved.append(f.id)
                    f.evidence[UNRESOLVED_KEY] = _("every fix it offers contradicts the plan's targets or "
                                                   "installs what is installed")
    plan.steps = _merged(chosen)
    if best is not None:
        _agree(findings, best, plan, installed)
        _rejudge(findings, facts, matrix, best, plan, installed)
    return plan


def _check_on(facts, matrix, check_id: str) -> Optional[Finding]:
    """The finding one check gives on these facts (the worst, if it gives several); None when it crashes."""
    from .checks import CheckContext, all_checks

    ctx = CheckContext(facts=facts, options={"live": False}, _matrix=matrix)
    spec = next((c for c in all_checks() if c.id == check_id), None)
    if spec is None:
        return None
    try:
        result = spec.func(ctx)
    except Exception:  # a check crashing on a hypothetical state says nothing about it
        return None
    mine = [f for f in (result if isinstance(result, list) else [result] if result is not None else [])
            if f.id == check_id]
    return max(mine, key=lambda f: SEVERITY_ORDER.get(f.status, 0), default=None)


def _rejudge(findings: Sequence[Finding], facts, matrix, best: StackState, plan: Plan,
             installed: Dict[str, List[str]]) -> None:
    """The findings the plan's stack change does not clear, whose advice was written for the stack as it is
    (a stack check, or advice naming another CANN, driver or MindSpore than the plan), judged again on the state
    the plan leads to: cleared there, the plan's steps are their fix; still open, the advice the check gives for
    that state (what contradicts the plan left out); so no step a report gives contradicts another."""
    targets: Dict[str, str] = {}
    for step, _lvl in best.steps:
        for kind, version in step_targets(step):
            targets[kind] = version
    changes_cann = best.cann_installed is not None or bool(best.cann_new)
    stack_steps = [s for s in plan.steps if any(_same_command(s.do) == _same_command(b) for b, _l in best.steps)]
    planned = None
    for f in findings:
        if f.status not in (FAIL, WARN, ERROR) or any(f.id in s.resolves for s in plan.steps):
            continue
        options = _options(f)
        stale = f.id in STACK_CHECKS or any(_option_conflicts(steps, targets, installed) for _w, steps in options) \
            or (changes_cann and any(step_level(x)[0] in ("cann", "driver") for _w, steps in options for x in steps))
        if not stale:
            continue
        if planned is None:
            planned = _apply(facts, matrix, best)
        again = _check_on(planned, matrix, f.id)
        if again is not None and again.status in (PASS, SKIP):
            for s in stack_steps:  # the plan's stack change clears it too
                s.resolves.append(f.id)
            f.fix, f.alternatives = [s.do for s in stack_steps], []
            if f.id in plan.unresolved:
                plan.unresolved.remove(f.id)
                f.evidence.pop(UNRESOLVED_KEY, None)
            continue
        if again is not None:
            normalize_fixes([again])
            options = _options(again)
        done = {_same_command(s.do) for s in plan.steps}
        kept = [(w, [x for x in steps if _same_command(x) not in done]) for w, steps in options
                if not _option_conflicts(steps, targets, installed)
                and not (changes_cann and any(step_level(x)[0] in ("cann", "driver") for x in steps))]
        kept = [(w, steps) for w, steps in kept if steps]
        if not kept:  # a look at the node contradicts nothing: the finding's own way to settle it stays
            kept = [(w, steps) for w, steps in _options(f) if all(_is_look(x) for x in steps)]
        f.fix = list(kept[0][1]) if kept else []
        f.alternatives = [{"why": w, "steps": list(steps)} for w, steps in kept[1:]]
        if again is None:
            f.evidence[AFTER_PLAN_KEY] = _("not judged again: its advice for the stack as it is was left out (it "
                                           "contradicts the plan)")
        elif again.summary != f.summary:
            f.evidence[AFTER_PLAN_KEY] = again.summary


def _why_state(state: StackState) -> str:
    level = LEVELS[state.level] if state.level >= 0 else "shell"
    return {"shell": _("use a CANN install that is already here"),
            "python": _("change MindSpore only: a pip install, no root"),
            "cann": _("keep MindSpore: install a CANN published with it"),
            "driver": _("change the NPU driver and firmware too: root, a reboot, a node outage"),
            "hardware": _("replace hardware")}.get(level, _("another way"))


def _merged(chosen: List[Tuple[PlanStep, int]]) -> List[PlanStep]:
    """One step per command (their resolves merged), in dependency order: the steps of one option stay together
    in the order its check wrote them (a conda activate before the export that uses it), and options go by the
    level of the first thing they do (DO_ORDER: the driver before CANN before the shell that sources it before
    Python packages before settings; a look first goes with the action after it)."""
    groups: List[List[PlanStep]] = []
    for n, (s, _level) in enumerate(chosen):
        if not n or chosen[n - 1][0].resolves != s.resolves or chosen[n - 1][1] != _level:
            groups.append([])
        groups[-1].append(s)

    def first_action(steps: List[PlanStep]) -> int:
        acts = [DO_ORDER[s.level] for s in steps if not _is_look(s.do)]
        if not acts and any("mindspore.run_check()" in s.do for s in steps):
            return DO_ORDER["python"]  # MindSpore's own check verifies the Python packages: it goes after them
        return acts[0] if acts else DO_ORDER["shell"]

    order = sorted(range(len(groups)), key=lambda g: (first_action(groups[g]), g))
    out: Dict[str, PlanStep] = {}
    for g in order:
        for s in groups[g]:
            key = command_part(s.do) or s.do
            if key in out:
                out[key].resolves = list(dict.fromkeys(out[key].resolves + s.resolves))
            else:
                out[key] = PlanStep(s.do, s.level, s.needs_root, s.reboot, list(s.resolves))
    return list(out.values())


def _promote(f: Finding, steps: List[str]) -> None:
    rest = [{"why": "", "steps": list(f.fix)}] if f.fix and f.fix != steps else []
    alts = [a for a in f.alternatives if list(a.get("steps") or []) != steps]
    f.fix, f.alternatives = list(steps), rest + alts


def _agree(findings: Sequence[Finding], best: StackState, plan: Plan, installed: Dict[str, List[str]]) -> None:
    """The stack findings the plan clears take the plan's steps as their fix; their own ways stay as labelled
    alternatives, except one naming another driver, CANN or MindSpore target than the plan (a second answer)."""
    targets: Dict[str, str] = {}
    for step, _lvl in best.steps:
        for kind, version in step_targets(step):
            targets[kind] = version
    for f in findings:
        mine = [s.do for s in plan.steps if f.id in s.resolves and f.id in STACK_CHECKS]
        if not mine:
            continue
        done = {_same_command(m) for m in mine}
        fix, keep = list(mine), []
        for n, (why, steps) in enumerate(_options(f)):
            for step in steps:  # the stack checks' ways are each one step, another way to the same pairing
                same = bool(step_targets(step)) and all(k in targets and not _conflicts(step, targets, {})
                                                        for k, _v in step_targets(step))
                # a driver for the CANN the plan leaves behind answers a question the plan no longer asks
                # (and another CANN than the plan's answers it twice)
                stale = (best.cann_installed is not None or best.cann_new) and (
                    any(k == "hdk" for k, _v in step_targets(step)) or step_level(step)[0] == "cann")
                if _same_command(step) in done or same or stale or _option_conflicts([step], targets, installed):
                    continue  # the plan's own step (or the same target again), or a second answer
                if _NEW_ENV.search(command_part(step)):
                    continue  # a new environment alone installs nothing: not a way; the plan's own has its steps
                done.add(_same_command(step))
                if n == 0 and not step_targets(step) and _is_look(step):
                    fix.append(step)  # the check's own look that confirms the result
                else:
                    keep.append({"why": why, "steps": [step]})
        f.fix, f.alternatives = fix, keep
