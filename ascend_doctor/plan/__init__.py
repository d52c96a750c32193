"""One plan per node: the least disruptive coherent set of steps that clears every failure.

The checks say what is wrong and what would fix it (a finding's `fix` steps, and its `alternatives`); this
package reads all of them once, with the facts and the compatibility matrix, and picks one plan:

* **Disruption** of a step, lowest first (`LEVELS`): shell (export/source in this shell) < config (a variable or
  file that persists) < python (pip/conda in the training environment) < cann (toolkit/kernels install) <
  driver (NPU driver/firmware, NVIDIA driver: root, usually a reboot) < hardware (replace, support).
  `step_level` is the one place a step's level is decided: from the level a check gives, else from the command.
* **The version stack** (MindSpore x CANN in use x NPU driver/firmware) is planned as a whole: candidate target
  states are built from the matrix's published pairings only (and the CANN installs already on the node, and a
  MindSpore whose wheel is built with the CANN in use and whose checker accepts it: a pip install that keeps
  that CANN; a new Python environment picks a Python inside the CANN's stated range), each
  is judged again by the compat checks themselves on the changed facts, and the state that clears the most
  failures at the least disruption wins (a Python step before a CANN install before a driver change; sourcing an
  install that is there before installing; never installing what is installed; one driver target).
* **Every other finding** contributes its least disruptive option (its fix, or one of its alternatives) that
  does not contradict the stack's targets; warnings only where they do not raise the plan's disruption above
  what its failures already need (or above `python`).
* Steps are ordered by dependency (hardware, then driver, then CANN, then the shell that sources it, the Python
  packages, the persistent configuration), duplicates merged. A failure no option clears is `unresolved`, with
  why in its evidence ("not cleared by the plan").

The plan is the report's `plan` block (`Plan.to_json`, the contract in docs/report.md). The finding a plan step
resolves gets that step as its own fix, its other options kept as labelled alternatives, so no report gives two
answers to one question.

The package: `steps` (what a step is, its level, the plan's contract, alternatives' wording), `stack` (the
version stack's candidate states and their ranking), `planner` (the plan itself).
"""

from .planner import AFTER_PLAN_KEY, UNRESOLVED_KEY, build_plan
from .stack import SEVERITY_ORDER, STACK_CHECKS, StackState, plan_stack
from .steps import (
    DO_ORDER, LEVELS, OR_HEADING, OR_ONLY, OR_STEP, RANK, Plan, PlanStep, as_ways, command_part, is_alternative,
    normalize_fixes, or_heading, or_step, split_alternatives, split_comment, step_level, step_targets,
)

__all__ = [
    "AFTER_PLAN_KEY", "DO_ORDER", "LEVELS", "OR_HEADING", "OR_ONLY", "OR_STEP", "RANK", "SEVERITY_ORDER",
    "STACK_CHECKS", "UNRESOLVED_KEY", "Plan", "PlanStep", "StackState", "as_ways", "build_plan", "command_part",
    "is_alternative", "normalize_fixes", "or_heading", "or_step", "plan_stack", "split_alternatives",
    "split_comment", "step_level", "step_targets",
]
