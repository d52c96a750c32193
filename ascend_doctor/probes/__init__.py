"""Probes: turn what a Host shows into typed facts, without importing MindSpore.

Each probe is `probe(host, options) -> <fact>`; it records bad input in the
fact's `errors` and never raises for it. If a probe does raise, that is a bug in
the doctor: `collect_facts` keeps the default (unknown) fact, records the crash,
and the report shows it as an `error` finding instead of dying.
"""

from __future__ import annotations

import time
from typing import Any, Callable, List, Tuple

from .. import records
from ..facts import Facts
from ..host import Host
from ..records import dataclass


# A tool that prints a million broken lines must not make a million-line report:
# each `errors` list keeps its first entries and says how many more there were.
MAX_ERRORS_PER_LIST = 50


def cap_errors(errors: List[str], limit: int = MAX_ERRORS_PER_LIST) -> List[str]:
    if len(errors) <= limit:
        return errors
    return errors[:limit] + [f"... and {len(errors) - limit} more problems like these (not listed)"]


def _cap_all_errors(node: Any, depth: int = 0) -> None:
    """Cap every `errors` list in a fact (nested installs and devices included), in place."""
    if depth > 4:
        return
    if records.is_dataclass(node) and not isinstance(node, type):
        for f in records.fields(node):
            value = getattr(node, f.name)
            if f.name == "errors" and isinstance(value, list):
                setattr(node, f.name, cap_errors(value))
            else:
                _cap_all_errors(value, depth + 1)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key == "errors" and isinstance(value, list):
                node[key] = cap_errors(value)
            else:
                _cap_all_errors(value, depth + 1)
    elif isinstance(node, list):
        for item in node[:1000]:
            _cap_all_errors(item, depth + 1)


@dataclass
class ProbeOptions:
    timeout: float = 10.0  # per external command
    ping_peers: bool = False  # preflight --net: ping the rank table's peer device addresses (probes/hccn.py)


def _registry() -> List[Tuple[str, Callable]]:
    # Order matters only for readability of timings; probes do not depend on each other.
    from . import (ascend_driver, cann, cuda, environment, hccn, launch, mindspore_pkg, npu_smi, python_env,
                   rank_table, system)

    return [
        ("system", system.probe_system),
        ("env", environment.probe_env),
        ("python", python_env.probe_python),
        ("cuda", cuda.probe_cuda),
        ("mindspore", mindspore_pkg.probe_mindspore),
        ("driver", ascend_driver.probe_driver),
        ("firmware", ascend_driver.probe_firmware),
        ("npu", npu_smi.probe_npu),
        ("cann", cann.probe_cann),
        ("hccn", hccn.probe_hccn),
        ("rank_table", rank_table.probe_rank_table),
        ("launch", launch.probe_launch),
    ]


def collect_facts(host: Host, options: ProbeOptions = None, into: Facts = None, running: dict = None) -> Facts:
    """Run every probe. `into`: fill this Facts (a caller watching the clock sees each fact as it lands);
    `running`: a dict whose "now" is set to the probe under way (what a time budget stopped)."""
    options = options or ProbeOptions()
    facts = Facts() if into is None else into
    for name, probe in _registry():
        if running is not None:
            running["now"] = f"probe {name}"
        start = time.monotonic()
        try:
            result = probe(host, options)
            _cap_all_errors(result)
            setattr(facts, name, result)  # each probe fills the Facts field named after it
        except Exception as exc:  # a doctor bug, not a machine fault: report, don't die
            facts.probe_crashes[name] = f"{type(exc).__name__}: {exc} ({_where(exc)})"
        facts.probe_ms[name] = int((time.monotonic() - start) * 1000)
    return facts


def _where(exc: BaseException) -> str:
    import traceback  # only when a probe crashed

    tb = traceback.extract_tb(exc.__traceback__)
    if not tb:
        return "?"
    last = tb[-1]
    return f"{last.filename.rsplit('/', 1)[-1]}:{last.lineno}"
