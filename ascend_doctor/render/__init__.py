"""Renderers: pure functions from a Report to text. The CLI decides where it goes."""

from __future__ import annotations

import importlib

from ..findings import Report


# format -> module in this package with `render(report, color=False) -> str`. Imported on use only:
# junit pulls in xml.etree, and a pre-flight printing JSON should not pay for it.
_MODULES = {"text": "text", "json": "json_report", "markdown": "markdown", "junit": "junit", "prom": "prometheus",
            "html": "html_check"}
FORMATS = tuple(_MODULES)
# `triage --format`'s choices (render/triage_report.py renders them): here, so that the CLI's parser names them
# without importing the renderer (a node summary renders nothing)
TRIAGE_FORMATS = ("text", "json", "markdown", "html")


def render(report: Report, fmt: str, color: bool = False) -> str:
    """`report` in format `fmt`, unchanged: secrets left it when it was built (doctor.evaluate and the
    pre-flight's budget report redact before anyone sees them), so `--format json` prints report.to_json()."""
    module = importlib.import_module(f".{_MODULES[fmt]}", __name__)
    return module.render(report, color=color)
