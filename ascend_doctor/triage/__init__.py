"""`triage`: read logs and name the known problems in them, and the device a failed cluster waited on.

A pipeline, one module a step:

    paths ─layout─▶ nodes / files ─scan(KB)─▶ matched lines ─events─▶ per-process evidence
          ─identity─▶ devices and groups ─rules─▶ root cause  +  problems (cause before effect)

- `layout`: which files are logs, which node each belongs to, what kind of log it is;
- `scan`: the streaming reader (chunks, .gz, long lines, parallel ranges) over the knowledge base's scanner;
- `events`: HCCL init and error lines of CANN process logs, folded per process;
- `identity`: processes become devices (`<node> device-<id>`) with their ranks and groups;
- `rules`: the decision order, one small function per verdict;
- `result`: problems, occurrences, the root cause, and the JSON contract.
"""

from .result import TRIAGE_SCHEMA, InputInfo, Occurrence, Problem, TriageResult
from .scan import Triage, rank_of, triage_paths

__all__ = ["TRIAGE_SCHEMA", "InputInfo", "Occurrence", "Problem", "Triage", "TriageResult", "rank_of", "triage_paths"]
