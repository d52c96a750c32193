"""Checks: pure functions of facts (+ the matrix + the knowledge base) returning findings.

One module per area (install, compat, env, hccl, rank_table, devices, resources,
advice ...). A check is registered with `@check("area.what_it_verifies")` and
returns a Finding, a list of Findings, or None (nothing to say). Find any check
by grepping its id.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional

from ..facts import Facts
from ..host import Host


@dataclass
class CheckContext:
    facts: Facts
    host: Host
    options: Dict[str, Any] = field(default_factory=dict)
    _matrix: Any = None
    _kb: Any = None

    @property
    def env(self):
        return self.host.env

    @property
    def matrix(self):
        """The compatibility matrix (loaded on first use)."""
        if self._matrix is None:
            from ..data import load_matrix

            self._matrix = load_matrix()
        return self._matrix

    @property
    def kb(self):
        """The knowledge base of pitfalls and log signatures (loaded on first use)."""
        if self._kb is None:
            from ..knowledge import load_knowledge_base

            self._kb = load_knowledge_base()
        return self._kb


@dataclass
class CheckSpec:
    id: str
    func: Callable[[CheckContext], Any]
    title: str
    pitfalls: List[str]
    module: str


_REGISTRY: Dict[str, CheckSpec] = {}


def check(check_id: str, title: str, pitfalls: Optional[List[str]] = None):
    """Register a check. `pitfalls` lists the P-ids it can report (for the coverage table)."""

    def deco(func):
        if check_id in _REGISTRY and _REGISTRY[check_id].func is not func:
            raise RuntimeError(f"check id {check_id} registered twice")
        _REGISTRY[check_id] = CheckSpec(check_id, func, title, list(pitfalls or []), func.__module__)
        return func

    return deco


def all_checks() -> List[CheckSpec]:
    for mod in pkgutil.iter_modules(__path__):
        if not mod.name.startswith("_"):
            importlib.import_module(f"{__name__}.{mod.name}")
    return sorted(_REGISTRY.values(), key=lambda c: c.id)
