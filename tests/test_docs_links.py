"""No dead links: every relative link in README.md, README.zh-CN.md and docs/*.md names a file that exists,
and its #anchor a heading (GitHub's anchor rules) of that file."""

import glob
import os
import re

import pytest

from tests.helpers import REPO

PAGES = sorted(["README.md", "README.zh-CN.md"] + [os.path.relpath(p, REPO) for p in glob.glob(os.path.join(REPO, "docs", "*.md"))])
_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^(```|~~~).*?^\1", flags=re.M | re.S)


def anchors(text: str) -> set:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped (letters of any script,
    digits, '_' and '-' kept), spaces to '-', a repeated anchor numbered -1, -2, ..."""
    seen, out = {}, set()
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", _FENCE.sub("", text), flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(text: str):
    return _LINK.findall(_FENCE.sub("", text))


def test_the_anchor_rule_is_githubs():
    page = "# A `check` (the default)\n## Root cause across a cluster (`scripts/bench_rootcause.py`)\n## 退出码\n## A\n## A\n"
    assert anchors(page) == {"a-check-the-default", "root-cause-across-a-cluster-scriptsbench_rootcausepy", "退出码",
                             "a", "a-1"}
    assert links("[x](a.md#b) ![img](i.png) `[y](no.md)`\n```\n[z](fenced.md)\n```\n") == ["a.md#b", "no.md"]


@pytest.mark.parametrize("page", PAGES)
def test_every_relative_link_resolves(page):
    here = os.path.dirname(os.path.join(REPO, page))
    text = open(os.path.join(REPO, page), encoding="utf-8").read()
    dead = []
    for target in links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ... are not ours to check
            continue
        path, _, anchor = target.partition("#")
        file = os.path.normpath(os.path.join(here, path)) if path else os.path.join(REPO, page)
        if not os.path.exists(file):
            dead.append(f"{target}: no file {os.path.relpath(file, REPO)}")
        elif anchor and (not file.endswith(".md") or anchor not in anchors(open(file, encoding="utf-8").read())):
            dead.append(f"{target}: no heading #{anchor} in {os.path.relpath(file, REPO)}")
    assert not dead, f"{page}: dead links: {dead}"


def test_the_docs_are_reachable_from_the_index():
    index = open(os.path.join(REPO, "docs", "README.md"), encoding="utf-8").read()
    orphans = [p for p in PAGES if p.startswith("docs") and os.path.basename(p) != "README.md"
               and f"({os.path.basename(p)})" not in index]
    assert not orphans, f"docs/README.md does not link: {orphans}"
