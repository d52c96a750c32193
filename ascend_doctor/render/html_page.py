"""The frame every HTML report shares (aggregate, triage, check): one self-contained page, its style in one place.

No scripts, no fonts, no images, no links to fetch: inline CSS only, and a Content-Security-Policy that forbids
every fetch, so a page opens from a ticket attachment on an offline laptop and renders from itself alone.
Everything taken from a report or a log is escaped (`esc`).
"""

from __future__ import annotations

from html import escape
from typing import Any, List

from ..i18n import html_lang

# The style every page starts from (aggregate adds its grid, the triage and check pages their own parts).
BASE_CSS = """
body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;color:#1d1d1f;background:#fff}
h1{font-size:22px;margin:0 0 8px} h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
.verdict{display:inline-block;padding:4px 12px;border-radius:4px;font-weight:700;color:#fff}
.verdict.ok{background:#1e7e34} .verdict.problems{background:#b02a37}
table{border-collapse:collapse;margin:6px 0} th,td{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f3f3f3} code,pre{font:12px/1.35 ui-monospace,Menlo,Consolas,monospace;background:#f6f8fa}
pre{padding:6px 8px;margin:4px 0;white-space:pre-wrap}
"""

# What the report pages (triage, check) add: severity badges that carry their word (colour is never the only
# signal), a verdict box, wide tables that wrap, and print rules (colours kept, no row split across pages).
REPORT_CSS = """
body{max-width:1240px;overflow-wrap:break-word}
.verdict.fail{background:#b02a37} .verdict.warn{background:#8a5a00} .verdict.info,.verdict.error{background:#455a64}
.box{border:2px solid #b02a37;border-left-width:8px;padding:8px 14px;margin:10px 0;background:#fff8f8}
.box.ok,.box.info{border-color:#1e7e34;background:#f6fbf6} .box.warn{border-color:#8a5a00;background:#fffaf0}
.sev{display:inline-block;min-width:3.2em;text-align:center;padding:0 4px;border-radius:3px;font-weight:700;font-size:12px}
.sev.fail{background:#f8d7da;color:#842029;border:1px solid #842029}
.sev.warn{background:#fff3cd;color:#664d03;border:1px solid #664d03}
.sev.info,.sev.skip{background:#eceff1;color:#37474f;border:1px solid #78909c}
.sev.error{background:#e1d5f0;color:#4a2a7a;border:1px solid #4a2a7a}
.sev.pass,.sev.ok{background:#d1e7dd;color:#0f5132;border:1px solid #0f5132}
table.wide{width:100%} table.problems{table-layout:fixed} td{overflow-wrap:anywhere}
col.c-sev{width:78px} col.c-id{width:17%} col.c-n{width:62px} col.c-where{width:20%} col.c-cause{width:27%}
col.c-fix{width:27%} col.c-fd{width:11%} tr.quote td{border-top:none;padding-top:0} ol.fix{margin:0;padding-left:20px}
td.num{text-align:right} .muted{color:#666} .small{font-size:12px}
pre.line{white-space:pre-wrap;word-break:break-all}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0} dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
figure{margin:8px 0} figcaption{font-size:12px;color:#444;margin-top:4px}
svg{max-width:100%;height:auto;font-family:system-ui,-apple-system,'Segoe UI',sans-serif}
@media print{body{margin:0;max-width:none;font-size:12px}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
h2{break-after:avoid} tr,figure,.box{break-inside:avoid}}
"""


def esc(value: Any) -> str:
    return escape(str(value), quote=True)


def header_row(columns: str) -> str:
    """A table's header row from its column names, |-separated: one message per table, so each word is
    translated as that table means it."""
    return "<tr>" + "".join(f"<th>{esc(c)}</th>" for c in columns.split("|")) + "</tr>"


def page_head(title: str, css: str) -> List[str]:
    """The page up to and including <body>: language, charset, the CSP that forbids every fetch, title, style."""
    return ["<!DOCTYPE html>", f"<html lang='{html_lang()}'><head><meta charset='utf-8'>",
            # A CSP that forbids every fetch: the file must render from itself alone.
            "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'\">",
            f"<title>{esc(title)}</title>",
            f"<style>{css}</style></head><body>"]


def report_page(title: str, body: List[str]) -> str:
    """A triage or check page: the frame with the report style, then `body`, closed."""
    out = page_head(title, BASE_CSS + REPORT_CSS)
    out.extend(body)
    out.append("</body></html>")
    return "\n".join(out) + "\n"
