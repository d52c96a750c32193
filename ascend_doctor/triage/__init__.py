"""`triage`: read logs and name the known problems in them, and the device a failed cluster waited on.

A pipeline, one module a step:

    paths ─layout─▶ nodes / files ─scan(KB)─▶ matched lines ─events─▶ per-process evidence
          ─identity─▶ devices and groups ─rules─▶ root cause  +  problems (cause before effect)

- `layout`: which files are logs, which node each belongs to, what kind of log it is;
- `scan`: the streaming reader (chunks, .gz, long lines, parallel ranges) over the knowledge base's scanner;
- `events`: HCCL init and error lines of CANN process logs, folded per process;
- `identity`: processes become devices (`<node> device-<id>`) with their ranks and groups;
- `rules`: the decision order, one small function per verdict;
- `result`: problems, occurrences, the root cause, and the JSON contract;
- `match/`: the matching engine every signature of the knowledge base is scanned with.

The names below are read from their modules on first use, so importing `ascend_doctor.triage.match` (the knowledge
base does, on its first match) does not bring in the whole pipeline.
"""

_FROM_RESULT = ("TRIAGE_SCHEMA", "InputInfo", "Occurrence", "Problem", "TriageResult")
_FROM_SCAN = ("Triage", "rank_of", "triage_paths")

__all__ = ["TRIAGE_SCHEMA", "InputInfo", "Occurrence", "Problem", "Triage", "TriageResult", "rank_of", "triage_paths"]


def __getattr__(name: str):
    if name in _FROM_RESULT:
        from . import result as module
    elif name in _FROM_SCAN:
        from . import scan as module  # type: ignore[no-redef]
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value
