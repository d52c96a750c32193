"""checks/launch_identity.py: rank and node identity from the launcher."""

import json
from tests.helpers import run_cli


def test_identity_check_warns_on_unreadable_launch_variables(make_snapshot):
    bad = make_snapshot("b", env={"RANK_ID": "x1", "RANK_TABLE_FILE": "/missing/rt.json"})
    proc = run_cli("check", "--bundle", bad, "--only", "env.launcher_identity", "--format", "json")
    [f] = json.loads(proc.stdout)["findings"]
    assert f["id"] == "env.launcher_identity" and f["status"] == "warn"
    assert "RANK_ID='x1'" in f["summary"] and "/missing/rt.json" in f["summary"]
    good = make_snapshot("g", env={"OMPI_COMM_WORLD_RANK": "2", "OMPI_COMM_WORLD_SIZE": "4"})
    [f] = json.loads(run_cli("check", "--bundle", good, "--only", "env.launcher_identity", "--format", "json").stdout)["findings"]
    assert f["status"] == "pass" and f["summary"].startswith("rank 2 of 4 via openmpi; reports as g-rank2")
