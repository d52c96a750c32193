#!/usr/bin/env python3
"""What the compatibility matrix costs a `check` run, against the alternatives measured in the same run.

    python scripts/bench_matrix.py [--repeat N]

1. Loading: json.load of the file alone vs load_bundled as `check` does it (shape check only) vs the full
   schema + source validation that a cached/downloaded matrix gets.
2. Verdicts: the seven compat.* checks on one set of facts vs the matrix load they need.
3. Versions: ascend_doctor.versions.parse_version vs packaging.version.Version on the forms packaging
   accepts (packaging rejects 24.1.rc2.2-style driver versions and 7.0.RC1.3.beta1, which we must read).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ascend_doctor.checks import CheckContext, all_checks  # noqa: E402
from ascend_doctor.data import data_path  # noqa: E402
from ascend_doctor.facts import CannInstall, DriverFacts, Facts, FirmwareFacts, MindSporeFacts, PythonFacts  # noqa: E402
from ascend_doctor.matrix import load_bundled  # noqa: E402
from ascend_doctor.versions import parse_version  # noqa: E402

FORMS = ["8.0.RC2", "7.3.0.1.231", "1.84.15.1.310", "2.7.1.post1", "2.3.0-rc2", "8.2.RC1.alpha003", "25.3.rc1",
         "24.1.rc2.2", "7.0.RC1.3.beta1", "8.2.T11.0.B070", "2.10.0", "9.1.0"]


def timed(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    path = data_path("compat_matrix.json")

    def plain():
        with open(path, encoding="utf-8") as fh:
            json.load(fh)

    t_plain = timed(plain, args.repeat)
    t_load = timed(load_bundled, args.repeat)
    t_full = timed(lambda: load_bundled(full_validation=True), args.repeat)
    print(f"matrix load: json.load {t_plain * 1000:.1f} ms; bundled as check loads it x{t_load / t_plain:.2f} "
          f"({t_load * 1000:.1f} ms); with the full schema validation (cache / update) x{t_full / t_plain:.1f} "
          f"({t_full * 1000:.1f} ms)")

    matrix = load_bundled()
    facts = Facts()
    facts.mindspore = MindSporeFacts(installed=True, version="2.6.0", flavour="ascend")
    facts.cann.installs = [CannInstall(root="/x", kind="toolkit", release="8.2.RC1", compiler_version="8.2.0.0.201",
                                       active=True)]
    facts.driver = DriverFacts(installed=True, version="24.1.rc3", compatible_version_fw=[["7.0.0", "7.5.99"]])
    facts.firmware = FirmwareFacts(installed=True, version="7.5.0.1.129", compatible_version_drv=[["24.1", "24.1."]])
    facts.python = PythonFacts(version="3.12.1")
    facts.system.arch = "x86_64"
    checks = [c for c in all_checks() if c.id.startswith("compat.")]

    def verdicts():
        ctx = CheckContext(facts=facts, _matrix=matrix)
        for c in checks:
            c.func(ctx)

    t_checks = timed(verdicts, args.repeat)
    print(f"{len(checks)} compat checks: {t_checks * 1000:.2f} ms per run = x{t_checks / t_load:.2f} of the matrix load")

    try:
        from packaging.version import InvalidVersion, Version
    except ImportError:
        print("packaging not installed; version comparison skipped")
        return 0
    ok = []
    for f in FORMS:
        try:
            Version(f)
            ok.append(f)
        except InvalidVersion:
            pass
    n = 2000
    t_ours = timed(lambda: [parse_version(f) for _ in range(n) for f in ok], 3)
    t_pkg = timed(lambda: [Version(f) for _ in range(n) for f in ok], 3)
    print(f"parse {len(ok) * n} versions packaging accepts ({len(ok)}/{len(FORMS)} forms): ours {t_ours * 1000:.0f} ms, "
          f"packaging {t_pkg * 1000:.0f} ms -> x{t_ours / t_pkg:.2f}; forms packaging rejects: "
          f"{', '.join(sorted(set(FORMS) - set(ok)))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
