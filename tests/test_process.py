"""process.py's fork rule: workers are forked only while this process runs a single thread."""

import os
import subprocess
import sys
import threading

from ascend_doctor import aggregate as aggregate_mod
from tests.helpers import REPO


def test_a_second_thread_makes_forking_unsafe():
    """In a fresh interpreter (this one may still run another test's thread): one thread, safe; two, not."""
    code = ("import threading; from ascend_doctor.process import fork_is_safe\n"
            "first = fork_is_safe(); e = threading.Event(); t = threading.Thread(target=e.wait); t.start()\n"
            "second = fork_is_safe(); e.set(); t.join()\n"
            "print(first, second, fork_is_safe())")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=REPO))
    assert proc.stdout.split() == ["True", "False", "True"], proc.stderr


def test_aggregate_reads_serially_while_another_thread_runs(tmp_path, monkeypatch):
    """With a thread alive, jobs=2 forks no pool (it could hang on a lock that thread holds) and reads every
    report all the same."""
    paths = []
    for i in range(aggregate_mod.PARALLEL_MIN_REPORTS):
        p = tmp_path / f"n{i}.json"
        p.write_text("{}")
        paths.append(str(p))

    def no_pool(*a, **k):
        raise AssertionError("a process pool was started while another thread ran")

    monkeypatch.setattr(aggregate_mod.multiprocessing, "get_context", no_pool)
    release = threading.Event()
    t = threading.Thread(target=release.wait)
    t.start()
    try:
        agg = aggregate_mod.Aggregator()
        agg.add_files(paths, jobs=2)
    finally:
        release.set()
        t.join()
    assert len(agg.unreadable) + len(agg.nodes) == len(paths)
