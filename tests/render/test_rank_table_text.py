"""render/rank_table_text.py: `rank-table` as text."""

import json
from types import SimpleNamespace

from ascend_doctor.rank_table import problem_counts, validate_rank_table_text
from ascend_doctor.render.rank_table_text import render_rank_table


def _table():
    devices = [{"device_id": "0", "device_ip": "192.168.1.1", "rank_id": "0"},
               {"device_id": "0", "device_ip": "192.168.1.2", "rank_id": "1"},
               {"device_id": "0", "device_ip": "192.168.1.3", "rank_id": "2"}]
    return validate_rank_table_text(json.dumps({"version": "1.0", "server_count": "1", "status": "completed",
                                                "server_list": [{"server_id": "a", "device": devices}]}))


def test_problems_per_rule_are_capped_and_the_rest_counted():
    table = _table()
    counts = problem_counts(table.problems)
    text = render_rank_table(SimpleNamespace(file="t.json", max_per_rule=1), table, counts, "invalid", [], None)
    lines = text.splitlines()
    assert lines[0] == "rank table: t.json"
    assert lines[1] == "format 1.0: 1 server(s), 3 ranks, status completed"
    r6 = [line for line in lines if " R6 " in line and "not shown" not in line]
    assert len(r6) == 1 and r6[0].lstrip().startswith("FAIL")
    assert any("1 more R6 problem(s) not shown" in line for line in lines)
    assert lines[-1] == "Result: invalid"
    full = render_rank_table(SimpleNamespace(file="t.json", max_per_rule=0), table, counts, "invalid", [], None)
    assert sum(" R6 " in line for line in full.splitlines()) == 2 and "not shown" not in full


def test_a_file_that_is_no_rank_table_says_so():
    table = validate_rank_table_text("{}")
    text = render_rank_table(SimpleNamespace(file="x", max_per_rule=0), table, problem_counts(table.problems),
                             "invalid", [], None)
    assert "format: not recognised as a rank table" in text
