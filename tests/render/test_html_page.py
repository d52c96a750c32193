"""The frame every HTML report shares: one style in one place, a CSP that forbids every fetch, the run's language."""

from ascend_doctor import i18n
from ascend_doctor.render import html_aggregate
from ascend_doctor.render.html_page import BASE_CSS, esc, header_row, page_head, report_page


def test_the_frame_forbids_fetches_and_says_its_language():
    i18n.set_lang("zh")
    try:
        head = "\n".join(page_head("<t>", "p{}"))
    finally:
        i18n.set_lang("en")
    assert "<html lang='zh-CN'>" in head and "<title>&lt;t&gt;</title>" in head
    assert "content=\"default-src 'none'; style-src 'unsafe-inline'\"" in head
    assert head.endswith("<style>p{}</style></head><body>")


def test_a_report_page_is_closed_and_carries_the_shared_style():
    page = report_page("x", ["<p>body</p>"])
    assert page.startswith("<!DOCTYPE html>") and page.endswith("<p>body</p>\n</body></html>\n")
    assert BASE_CSS in page and "@media print" in page
    assert html_aggregate.CSS.startswith(BASE_CSS)  # aggregate draws from the same style


def test_escaping_and_table_headers():
    assert esc("a'b\"<c>&") == "a&#x27;b&quot;&lt;c&gt;&amp;"
    assert header_row("a|<b>") == "<tr><th>a</th><th>&lt;b&gt;</th></tr>"
