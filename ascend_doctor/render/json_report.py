from __future__ import annotations

import json

from ..findings import Report


def render(report: Report, color: bool = False) -> str:
    return json.dumps(report.to_json(), indent=2, ensure_ascii=False, sort_keys=False) + "\n"
