"""Prometheus text exposition format, for node_exporter's textfile collector.

Write it to `<collector dir>/ascend_doctor.prom` (atomically: node_exporter may read
at any moment) and every node's check statuses become metrics an alert can watch.
Each check is an enum-style gauge: one series per possible status, 1 for the current.
"""

from __future__ import annotations

import time

from ..findings import STATUSES, Report
from ..i18n import _


_WORST_FIRST = ("fail", "error", "warn", "pass", "skip")


def escape_label_value(value) -> str:
    # The exposition format escapes exactly these three in label values.
    return str(value).replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _escape_help(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def _labels(**labels) -> str:
    return "{" + ",".join(f'{k}="{escape_label_value(v)}"' for k, v in labels.items()) + "}"


def render(report: Report, color: bool = False) -> str:
    report = report.worded()  # the door: message ids become words in the current language
    out = []

    def metric(name, help_text, samples):
        out.append(f"# HELP {name} {_escape_help(help_text)}")
        out.append(f"# TYPE {name} gauge")
        for labels, value in samples:
            out.append(f"{name}{_labels(**labels) if labels else ''} {value}")

    # One series per (check, status); a check reported twice (several findings) keeps its worst status.
    worst = {}
    for f in report.findings:
        prev = worst.get(f.id)
        if prev is None or _WORST_FIRST.index(f.status) < _WORST_FIRST.index(prev):
            worst[f.id] = f.status
    metric("ascend_doctor_check_status",
           _("Status of each ascend-doctor check: 1 for the status it has now, 0 for the others."),
           [({"check": cid, "status": s}, 1 if status == s else 0) for cid, status in sorted(worst.items())
            for s in STATUSES])
    counts = report.summary
    metric("ascend_doctor_findings", _("Number of findings per status in the last run."),
           [({"status": s}, counts[s]) for s in STATUSES])
    metric("ascend_doctor_healthy", _("1 when the last run found nothing at fail level, else 0."),
           [({}, 0 if counts["fail"] else 1)])
    metric("ascend_doctor_run_duration_seconds", _("Wall time of the last ascend-doctor run."),
           [({}, f"{(report.tool.get('duration_ms') or 0) / 1000.0:.3f}")])
    finished = report.tool.get("finished_unix") or time.time()
    metric("ascend_doctor_last_run_timestamp_seconds", _("Unix time the last ascend-doctor run finished."),
           [({}, f"{float(finished):.3f}")])
    return "\n".join(out) + "\n"
