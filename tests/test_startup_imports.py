"""Start-up guard (issue 14): a plain `check` imports only what it uses.

Structural, not a timing test: `ascend-doctor check --bundle <fixture> --format json` is run in a fresh
interpreter and the modules it imported are compared with a list of those it must not need. Each was a
measured cost at every start (scripts/bench.py, docs/performance.md "Start-up: the quick check"): shutil
(with bz2, lzma), platform, hashlib, tempfile, difflib, shlex, ipaddress, pkgutil and dataclasses (both
import inspect, and inspect imports ast, dis, tokenize), tarfile; and the package's own modules that only
some runs need (the baseline comparison, the rank-table validator, the knowledge base); and, since a bundle
runs no command, subprocess and threading.
"""

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import REPO, fixture_path

NEVER_ON_A_PLAIN_CHECK = {
    "shutil", "bz2", "lzma", "platform", "hashlib", "tempfile", "random", "difflib", "shlex", "ipaddress", "pkgutil",
    "dataclasses", "inspect", "ast", "dis", "tokenize", "tarfile",
    "subprocess", "threading", "selectors",  # a bundle replays its commands: nothing to start
    "ascend_doctor.baseline", "ascend_doctor.node_facts", "ascend_doctor.release_notes", "ascend_doctor.rank_table",
    "ascend_doctor.atomic", "ascend_doctor.kb", "ascend_doctor.kb.model", "ascend_doctor.kb.load",
    # the matching engine, even where the knowledge base's pitfalls are read: a check matches no log line
    "ascend_doctor.triage", "ascend_doctor.triage.match", "ascend_doctor.triage.match.codes",
    "ascend_doctor.triage.match.literals", "ascend_doctor.triage.match.scanner", "ascend_doctor.kb.peers",
    "ascend_doctor.host.live", "ascend_doctor.process",  # a bundle is read by host.snapshot: no live host, no processes
}

# Imported in a fresh interpreter: the modules the run added to those the interpreter started with (a
# venv's site hooks may import some of the names above before any code of ours runs: those say nothing).
_CHILD = r"""
import io, json, sys
before = set(sys.modules)
from ascend_doctor.cli import main
sys.stdout, real = io.StringIO(), sys.stdout
rc = main(sys.argv[1:])
report, sys.stdout = sys.stdout.getvalue(), real
print(json.dumps({"rc": rc, "report": json.loads(report), "imported": sorted(set(sys.modules) - before)}))
"""


def imported_by(*argv):
    # In English, whatever the test machine's locale (Chinese loads its message catalog: not a plain check's cost).
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""), ASCEND_DOCTOR_LANG="en")
    proc = subprocess.run([sys.executable, "-c", _CHILD, *argv], capture_output=True, text=True, env=env, cwd=REPO,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


# The advice checks take their tips from the knowledge base, so a node with an NPU or a GPU loads it; its
# records are still dataclasses (kb/model.py), which bring inspect and the rest. Shrink this set when that goes.
KNOWLEDGE_BASE_BRINGS = {"ascend_doctor.kb", "ascend_doctor.kb.model", "ascend_doctor.kb.load", "dataclasses", "inspect",
                         "ast", "dis", "tokenize"}


@pytest.mark.parametrize("fixture,allowed", [("cpu_only", set()), ("gpu_node", KNOWLEDGE_BASE_BRINGS),
                                             ("a2_healthy", KNOWLEDGE_BASE_BRINGS)])
def test_a_plain_check_imports_only_what_it_uses(fixture, allowed):
    out = imported_by("check", "--bundle", fixture_path(fixture), "--format", "json")
    assert out["report"]["findings"] and out["rc"] in (0, 1)  # a whole report was made
    assert "ascend_doctor.checks.install" in out["imported"]  # the check modules did load in this process
    assert sorted((NEVER_ON_A_PLAIN_CHECK - allowed) & set(out["imported"])) == []


# A node summary (`triage --node-summary`, issue 24) runs on every node of a job; its start-up is most of a small
# node's time (docs/performance.md "Node summaries"). It renders nothing, writes its file without tempfile (which
# brings shutil, random, bz2), asks the launcher's variables only when --node does not name the node, and reads
# ascend-fd's parse output (peer_parse: the evidence parser, dataclasses) only where a file could be one.
NEVER_IN_A_NODE_SUMMARY = {
    "tempfile", "shutil", "bz2", "lzma", "random", "hashlib", "platform",
    "ascend_doctor.render.triage_report", "ascend_doctor.render.common", "ascend_doctor.probes.launch",
    "ascend_doctor.triage.peer_parse", "ascend_doctor.triage.events", "dataclasses", "inspect",
}

_SUMMARY_CHILD = r"""
import json, sys
before = set(sys.modules)
from ascend_doctor.cli import main
rc = main(sys.argv[1:])
print(json.dumps({"rc": rc, "imported": sorted(set(sys.modules) - before)}))
"""


def test_a_node_summary_of_a_training_log_imports_only_what_it_uses(tmp_path):
    log = tmp_path / "worker_0.log"
    log.write_text("[ERROR] ME(1,python):2024-07-12-10:00:00.000.000 [x.cc:1] RuntimeError: NPU out of memory.\n")
    out_file = tmp_path / "node.json"
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""), ASCEND_DOCTOR_LANG="en")
    for _run in range(2):  # the second: the scanner's cache written by the first (writing it brings tempfile)
        proc = subprocess.run([sys.executable, "-c", _SUMMARY_CHILD, "triage", "--node-summary", "--node", "n0",
                               "-o", str(out_file), str(log)], capture_output=True, text=True, env=env, cwd=REPO,
                              timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.splitlines()[-1])
    assert out["rc"] == 0 and json.loads(out_file.read_text())["node"] == "n0"
    assert "ascend_doctor.triage.match.scanner" in out["imported"]  # the scan did run in this process
    assert sorted(NEVER_IN_A_NODE_SUMMARY & set(out["imported"])) == []
