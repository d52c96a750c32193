import json
import os
import subprocess
import sys

import pytest

try:  # hypothesis profiles: "ci" (bounded, the default) and "fuzz" (scripts/fuzz.py sets the budget)
    from hypothesis import HealthCheck, settings

    settings.register_profile("ci", max_examples=100, deadline=None)
    settings.register_profile("fuzz", max_examples=int(os.environ.get("ASCEND_DOCTOR_FUZZ_EXAMPLES", "2000")),
                              deadline=None, suppress_health_check=list(HealthCheck))
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
except ImportError:  # hypothesis is a test extra; tests that need it import it themselves
    pass

from tests.helpers import FIXTURES, REFERENCE, REPO, fixture_path, run_cli, run_json  # noqa: F401,E402

# The scanner's cache (triage/match/cache.py) goes to one directory per test session, not the user's ~/.cache:
# tests build many small knowledge bases, and a test must not depend on what an earlier run left there.
if not os.environ.get("ASCEND_DOCTOR_CACHE_DIR"):
    import atexit
    import shutil
    import tempfile

    _CACHE = tempfile.mkdtemp(prefix="ascend-doctor-test-cache-")
    os.environ["ASCEND_DOCTOR_CACHE_DIR"] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, True)
# The locks that let a test marked `alone` run while no other worker of this run runs one (see
# pytest_runtest_protocol): one directory per run, made by the first process (the pytest-xdist controller) and
# inherited by its workers.
if not os.environ.get("ASCEND_DOCTOR_TEST_LOCKS"):
    import atexit
    import shutil
    import tempfile

    os.environ["ASCEND_DOCTOR_TEST_LOCKS"] = tempfile.mkdtemp(prefix="ascend-doctor-test-locks-")
    atexit.register(shutil.rmtree, os.environ["ASCEND_DOCTOR_TEST_LOCKS"], True)
# Tests read the English texts unless they ask for Chinese: a developer's zh_CN locale must not change them.
os.environ["ASCEND_DOCTOR_LANG"] = "en"



@pytest.fixture
def make_snapshot(tmp_path):
    """Build a snapshot directory: make_snapshot(files={...}, env={...}, commands=[...]) -> path."""
    from ascend_doctor.snapshot import write_snapshot

    counter = {"n": 0}

    def _make(name=None, **kw):
        counter["n"] += 1
        d = tmp_path / (name or f"snap{counter['n']}")
        kw.setdefault("hostname", name or "node")
        return write_snapshot(str(d), **kw)

    return _make


# -- isolation between tests ---------------------------------------------------------------------------

_SESSION_PID = os.getpid()


def pytest_runtest_setup(item):
    """A forked child of this process (a worker that did not reach os._exit) must never go on running tests
    beside the session that forked it: it would race it for the same files and never let it join."""
    if os.getpid() != _SESSION_PID:
        sys.stderr.write(f"tests: a forked child (pid {os.getpid()}) reached the test runner at {item.nodeid}; "
                         "it exits\n")
        os._exit(70)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """With pytest-xdist's workers, a test marked `alone` runs by itself: every test holds a shared lock while it
    runs (set-up to teardown), an `alone` one the exclusive lock (tests/helpers/workers.py). Without workers there
    is nothing to wait for."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    from tests.helpers.workers import turn

    with turn(os.environ["ASCEND_DOCTOR_TEST_LOCKS"], alone=item.get_closest_marker("alone") is not None):
        yield


@pytest.fixture(autouse=True)
def _no_doctor_thread_outlives_its_test():
    """A command run in-process may leave a worker thread behind on purpose (preflight's --budget stops waiting
    for a hung probe, the thread finishes later). It must finish before the next test: a thread left running
    would make the next test's forks unsafe and could see that test's monkeypatches."""
    yield
    import threading

    for thread in threading.enumerate():
        if thread is not threading.current_thread() and thread.name.startswith("ascend-doctor-"):
            thread.join(60)


def pytest_runtest_teardown(item, nextitem):
    """Stop the whole run, naming the test, if the checkout, this interpreter or /dev/null is gone after it: every
    later test would fail for that one cause (or wait on its timeouts) and bury the test that did it."""
    import stat

    lost = [p for p in (os.path.join(REPO, "setup.cfg"), os.path.join(REPO, "ascend_doctor", "cli.py"), sys.executable)
            if not os.path.exists(p)]
    try:
        if not stat.S_ISCHR(os.stat(os.devnull).st_mode):
            lost.append(f"{os.devnull} (no longer a character device)")
    except OSError:
        lost.append(os.devnull)
    if lost:
        pytest.exit(f"after {item.nodeid}: {', '.join(lost)} gone; the run stops here", returncode=3)
