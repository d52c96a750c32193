"""The suite in two workers (scripts/test: pytest-xdist): a test marked `alone` runs by itself, and one real Slurm
at a time. Threads stand for the workers: flock locks belong to each open file, so they exclude threads too."""

import fcntl
import os
import threading
import time

from tests.helpers import launchers
from tests.helpers.workers import turn

WAIT_S = 30


def _wait(cond, what):
    deadline = time.monotonic() + WAIT_S
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting: {what}"
        time.sleep(0.01)


def _held(path, mode):
    """Whether another open file holds a lock on `path` that `mode` conflicts with."""
    with open(path, "a") as fh:
        try:
            fcntl.flock(fh, mode | fcntl.LOCK_NB)
        except OSError:
            return True
        fcntl.flock(fh, fcntl.LOCK_UN)
        return False


class _Test(threading.Thread):
    """A test holding its turn until released; `log` gets "<name> in" and "<name> out"."""

    def __init__(self, locks, name, alone, log):
        super().__init__(daemon=True)
        self.locks, self.name_, self.alone, self.log = locks, name, alone, log
        self.release = threading.Event()

    def run(self):
        with turn(self.locks, self.alone):
            self.log.append(f"{self.name_} in")
            self.release.wait(WAIT_S)
            self.log.append(f"{self.name_} out")


def test_tests_that_are_not_alone_run_side_by_side(tmp_path):
    log = []
    a, b = _Test(str(tmp_path), "a", False, log), _Test(str(tmp_path), "b", False, log)
    a.start()
    b.start()
    _wait(lambda: len(log) == 2, "both tests in")
    a.release.set()
    b.release.set()
    a.join(WAIT_S)
    b.join(WAIT_S)
    assert sorted(log[:2]) == ["a in", "b in"]


def test_an_alone_test_waits_for_the_running_one_and_is_not_overtaken(tmp_path):
    locks, log = str(tmp_path), []
    running = _Test(locks, "running", False, log)
    running.start()
    _wait(lambda: log == ["running in"], "the first test in")
    alone = _Test(locks, "alone", True, log)
    alone.start()
    _wait(lambda: _held(os.path.join(locks, "gate"), fcntl.LOCK_SH), "the alone test at the gate")
    later = _Test(locks, "later", False, log)  # the other worker's next test
    later.start()
    time.sleep(0.2)
    assert log == ["running in"]  # neither the alone test nor the later one started beside it
    running.release.set()
    _wait(lambda: "alone in" in log, "the alone test in")
    time.sleep(0.2)
    assert "later in" not in log  # the alone test runs by itself
    alone.release.set()
    _wait(lambda: "later in" in log, "the later test in")
    later.release.set()
    for t in (running, alone, later):
        t.join(WAIT_S)
    assert log == ["running in", "running out", "alone in", "alone out", "later in", "later out"]


def test_a_second_slurm_waits_for_the_first_to_stop(tmp_path, monkeypatch):
    """The ports are fixed: a second cluster started meanwhile would find them busy and skip its test."""
    monkeypatch.setattr(launchers, "SLURM_LOCK", str(tmp_path / "slurm.lock"))
    first, second = launchers.SlurmCluster(tmp_path / "a"), launchers.SlurmCluster(tmp_path / "b")
    first._take_turn()
    got = threading.Event()
    waiter = threading.Thread(target=lambda: (second._take_turn(), got.set()), daemon=True)
    waiter.start()
    assert not got.wait(0.3)
    first._release()
    assert got.wait(WAIT_S)
    second._release()
    waiter.join(WAIT_S)
