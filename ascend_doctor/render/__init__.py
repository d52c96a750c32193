"""Renderers: pure functions from a Report to text. The CLI decides where it goes."""

from __future__ import annotations

from typing import Callable, Dict

from ..findings import Report


def _formats() -> Dict[str, Callable[..., str]]:
    from . import json_report, junit, markdown, prometheus, text

    return {"text": text.render, "json": json_report.render, "markdown": markdown.render,
            "junit": junit.render, "prom": prometheus.render}


FORMATS = ("text", "json", "markdown", "junit", "prom")


def render(report: Report, fmt: str, color: bool = False) -> str:
    return _formats()[fmt](report, color=color)
