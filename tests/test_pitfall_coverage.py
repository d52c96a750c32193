"""The documented pitfall table (docs/pitfalls.md) is the code's own view, and every pitfall is addressed."""

import os
import re

from tools.pitfall_coverage import coverage_markdown, pitfall_coverage
from tests.helpers import REFERENCE, REPO


def test_every_reference_pitfall_is_in_the_knowledge_base():
    ref = os.path.join(REFERENCE, "pitfalls.md")
    if not os.path.exists(ref):  # shared/ is beside the checkout on dev machines and CI
        import pytest

        pytest.skip("shared/reference not present")
    ids = re.findall(r"^\| (P\d\d) \|", open(ref, encoding="utf-8").read(), flags=re.M)
    assert ids and set(ids) == set(pitfall_coverage())


def test_every_pitfall_is_addressed_somewhere():
    missing = [pid for pid, row in pitfall_coverage().items()
               if not (row["checks"] or row["advice"] or row["signatures"])]
    assert not missing, f"pitfalls with no check, advice or signature: {missing}"


def test_documented_table_matches_the_code():
    page = open(os.path.join(REPO, "docs", "pitfalls.md"), encoding="utf-8").read()
    m = re.search(r"<!-- pitfall-table:begin -->\n(.*?)<!-- pitfall-table:end -->", page, flags=re.S)
    assert m, "docs/pitfalls.md lacks the pitfall table markers"
    assert m.group(1) == coverage_markdown(), "docs/pitfalls.md pitfall table is stale: run scripts/pitfall_table.py --write"
