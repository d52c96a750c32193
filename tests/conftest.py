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

# The scanner's cache (knowledge.py) goes to one directory per test session, not the user's ~/.cache:
# tests build many small knowledge bases, and a test must not depend on what an earlier run left there.
if not os.environ.get("ASCEND_DOCTOR_CACHE_DIR"):
    import atexit
    import shutil
    import tempfile

    _CACHE = tempfile.mkdtemp(prefix="ascend-doctor-test-cache-")
    os.environ["ASCEND_DOCTOR_CACHE_DIR"] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, True)
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
