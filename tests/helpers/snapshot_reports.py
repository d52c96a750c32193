"""Every snapshot fixture (and shipped example) run through the doctor once, by name, for tests over all reports
(the titles, verdict, header and fix-agreement tests; fixture_reports.py serves the advice tests)."""

import functools
import os

from ascend_doctor.doctor import RunOptions, run_checks
from ascend_doctor.host import SnapshotHost

from tests.helpers import FIXTURES, REPO


def snapshot_dirs():
    """name -> directory of every snapshot under tests/fixtures and examples (a dir with manifest.json)."""
    out = {}
    for base, prefix in ((FIXTURES, ""), (os.path.join(REPO, "examples"), "examples/")):
        for name in sorted(os.listdir(base)):
            path = os.path.join(base, name)
            if os.path.isfile(os.path.join(path, "manifest.json")):
                out[prefix + name] = path
    return out


@functools.lru_cache(maxsize=None)
def report_for(path):
    return run_checks(SnapshotHost(path), RunOptions(skip=["smoke.*"]))


def all_reports():
    return {name: report_for(path) for name, path in snapshot_dirs().items()}
