"""What lets the suite run in pytest-xdist's workers (scripts/test runs two): a test marked `alone` runs while no
other test of the run does. tests/conftest.py holds every test in turn(); tests/test_suite_workers.py tests it."""

import contextlib
import fcntl
import os


@contextlib.contextmanager
def turn(lock_dir: str, alone: bool):
    """Hold the run lock of `lock_dir` (a directory every worker of one run shares) while the body runs: shared,
    or exclusive for an `alone` test. The gate lock, taken first and dropped once the run lock is held, keeps the
    other worker's next tests from overtaking an `alone` test that waits (flock does not queue waiters)."""
    mode = fcntl.LOCK_EX if alone else fcntl.LOCK_SH
    with open(os.path.join(lock_dir, "gate"), "a") as gate, open(os.path.join(lock_dir, "run"), "a") as run:
        fcntl.flock(gate, mode)
        fcntl.flock(run, mode)
        fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(run, fcntl.LOCK_UN)
