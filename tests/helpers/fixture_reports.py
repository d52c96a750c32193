"""Run the doctor over every snapshot fixture and example (in-process, once per test session).

Used by the tests that hold every fix line of every report to a rule (published pairings, known variables,
documented option values): they must see what a user sees, so they read real reports, not hand-built ones.
"""

import functools
import glob
import os

from tests.helpers import FIXTURES, REPO


def snapshot_dirs():
    found = glob.glob(os.path.join(FIXTURES, "*", "manifest.json")) + \
        glob.glob(os.path.join(REPO, "examples", "*", "manifest.json"))
    return sorted(os.path.dirname(p) for p in found)


@functools.lru_cache(maxsize=None)
def report_of(path):
    from ascend_doctor.bundle import open_bundle
    from ascend_doctor.doctor import RunOptions, run_checks

    with open_bundle(path) as host:
        return run_checks(host, RunOptions(timeout=5.0))


def all_reports():
    return [(os.path.relpath(p, REPO), report_of(p)) for p in snapshot_dirs()]


def fix_lines(report):
    return [(f.id, step) for f in report.findings for step in f.fix if isinstance(step, str)]
