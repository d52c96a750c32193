"""commands/triage.py: `ascend-doctor triage`: inputs (files, gzip, stdin) and exit codes."""

import gzip
import json
from tests.helpers import run_cli
from tests.triage.test_triage import EI0006, NOISE, OOM  # noqa: F401


def test_gzip_and_stdin(tmp_path):
    gz = tmp_path / "old.log.gz"
    with gzip.open(gz, "wt") as fh:
        fh.write(NOISE + "\n" + OOM + "\n")
    data = json.loads(run_cli("triage", str(gz), "--format", "json").stdout)
    assert [p["id"] for p in data["problems"]] == ["TORCH_NPU_OOM"]
    proc = run_cli("triage", "-", "--format", "json", input=NOISE + "\n" + EI0006 + "\n")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["problems"][0]["first"]["file"] == "<stdin>"


def test_nothing_readable_is_exit_2(tmp_path):
    proc = run_cli("triage", str(tmp_path / "missing.log"))
    assert proc.returncode == 2 and "missing.log" in proc.stderr and "Traceback" not in proc.stderr
    assert run_cli("triage").returncode == 2
