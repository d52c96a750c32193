"""How much reading MindSpore from files saves over importing it, measured in the same run.

    python scripts/bench_mindspore_probe.py [--repeat N]

Prints the median wall time of probe_mindspore() and probe_cuda() on this machine,
and of `python -c "import mindspore"` minus a bare `python -c pass` (interpreter start),
then the ratio. Numbers vary with the disk cache; run it twice and take the second.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ascend_doctor.host import LiveHost  # noqa: E402
from ascend_doctor.probes import ProbeOptions  # noqa: E402
from ascend_doctor.probes.cuda import probe_cuda  # noqa: E402
from ascend_doctor.probes.mindspore_pkg import probe_mindspore  # noqa: E402


def _median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def _child(code: str) -> None:
    subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, timeout=600)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    host = LiveHost()
    facts = probe_mindspore(host, ProbeOptions())
    probe_ms = _median_ms(lambda: probe_mindspore(host, ProbeOptions()), args.repeat * 4)
    cuda_ms = _median_ms(lambda: probe_cuda(host, ProbeOptions()), args.repeat)
    print(f"probe_mindspore: {probe_ms:8.1f} ms  (found {facts.dist_name} {facts.version}, {facts.flavour})")
    print(f"probe_cuda:      {cuda_ms:8.1f} ms")
    if not facts.installed:
        print("MindSpore is not installed here: no import to compare with")
        return 0
    bare = _median_ms(lambda: _child("pass"), args.repeat)
    imp = _median_ms(lambda: _child("import mindspore"), args.repeat)
    cost = max(imp - bare, 0.001)
    print(f"import mindspore: {cost:8.1f} ms  (child process {imp:.0f} ms minus interpreter start {bare:.0f} ms)")
    print(f"ratio import / probe_mindspore: {cost / probe_ms:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
