"""Drift from a node the team trusts: `--baseline known-good.json` on check, preflight and aggregate.

The baseline is that node's JSON report (`ascend-doctor check --format json -o known-good.json`).
Drift is any comparable fact (versions, HCCL variables, device count; see node_facts) that
differs. When MindSpore moved, the releases in between and their breaking-change notes are
named (P17): an upgrade that changes behaviour silently is the costly kind.
"""

from __future__ import annotations

import argparse
from typing import Any, Dict, List

from .data import DataError, load_json_file
from .findings import REPORT_SCHEMA, REPORT_SCHEMAS
from .facts import FactsError
from .i18n import N_, _
from .node_facts import (MINDSPORE, UNKNOWN, UNSET, comparable, mindspore_version, node_name, read_node_facts,
                         report_shape_problem)
from .release_notes import releases_between


class BaselineError(Exception):
    pass


class Baseline:
    def __init__(self, facts: Dict[str, str], source: str, node: str = ""):
        self.facts = facts
        self.source = source
        self.node = node

    @classmethod
    def from_report(cls, data: Any, source: str) -> "Baseline":
        if not isinstance(data, dict) or data.get("schema") not in REPORT_SCHEMAS:
            got = data.get("schema") if isinstance(data, dict) else type(data).__name__
            raise BaselineError(_("{path}: field 'schema': expected {expected} (a JSON report from "
                                  "`ascend-doctor check --format json`), got {value}").format(
                                      path=source, expected=repr(REPORT_SCHEMA), value=repr(got)))
        problem = report_shape_problem(data)
        if problem:
            raise BaselineError(_("{path}: {problem} (a JSON report from `ascend-doctor check --format json`)")
                                .format(path=source, problem=problem))
        try:
            facts, present = read_node_facts(data)
        except FactsError as exc:
            raise BaselineError(_("{path}: {problem} (a JSON report from `ascend-doctor check --format json`)")
                                .format(path=source, problem=exc)) from None
        node = str(node_name(facts) or (data.get("host") or {}).get("name") or "")
        return cls(dict(comparable(facts, present)), source, node)

    @classmethod
    def load(cls, path: str) -> "Baseline":
        try:
            data = load_json_file(path, expected=N_("a JSON report"))
        except DataError as exc:
            raise BaselineError(str(exc)) from None
        return cls.from_report(data, path)

    def drift_from(self, facts: Dict[str, str]) -> List[Dict[str, Any]]:
        """Facts that differ from the baseline: [{"fact", "expected", "actual"}].

        A fact unknown on either side is not drift (the doctor cannot say); an HCCL
        variable set on one side only is (it changes how HCCL behaves).
        """
        out = []
        keys = list(self.facts) + [k for k in facts if k not in self.facts]
        for key in keys:
            expected = self.facts.get(key, UNSET if key.startswith("HCCL_") else None)
            actual = facts.get(key, UNSET if key.startswith("HCCL_") else None)
            if expected is None or actual is None or UNKNOWN in (expected, actual) or expected == actual:
                continue
            out.append({"fact": key, "expected": expected, "actual": actual})
        return out


def mindspore_move(expected: str, actual: str):
    """The releases between two MindSpore comparable values, or None when not two versions."""
    return releases_between(mindspore_version(expected), mindspore_version(actual))


def baseline_argument(path: str) -> Baseline:
    """argparse `type=` for --baseline: a bad file is a one-line usage error (exit 2)."""
    try:
        return Baseline.load(path)
    except BaselineError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def drift_is_mindspore(item: Dict[str, Any]) -> bool:
    return item["fact"] == MINDSPORE
