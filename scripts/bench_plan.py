#!/usr/bin/env python3
"""What the node's plan (ascend_doctor/plan/) costs a `check` run, against the run without it.

    python scripts/bench_plan.py [--repeat N]

For nodes whose version stack fails (the planner judges candidate states again with the compat checks) and a
healthy one (nothing to search), the whole evaluate() with the plan vs evaluate() with an empty plan: cold (the
first report a process builds, as `ascend-doctor check` does) and warm (the matrix's answers cached, as in a
long-running caller). Printed as ratios; no target is asserted here.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import ascend_doctor.doctor as doctor  # noqa: E402
from ascend_doctor.facts import (  # noqa: E402
    JUDGED_ENV, CannChoice, CannInstall, DriverFacts, Facts, FirmwareFacts, MindSporeFacts, PythonFacts,
)
from ascend_doctor.matrix import load_bundled  # noqa: E402
from ascend_doctor.plan import Plan  # noqa: E402

NODES = [  # (MindSpore, CANN, driver, firmware): the audit's cases and a healthy node
    ("2.7.1", "8.5.0", "25.5.0", None),
    ("2.4.1", "8.0.0", "23.0.7", "7.5.0.1.129"),
    ("2.3.0", "8.0.RC3", "24.1.rc3", None),
    ("2.4.1", "8.0.RC3", "24.1.rc3", "7.5.0.1.129"),
]


def node(matrix, ms, cann, driver, firmware) -> Facts:
    f = Facts()
    f.system.arch = "aarch64"
    f.python = PythonFacts(version="3.10", executable="/usr/bin/python3")
    f.mindspore = MindSporeFacts(installed=True, dist_name="mindspore", version=ms, flavour="ascend", location="/sp")
    root = f"/usr/local/Ascend/cann-{cann}"
    f.cann.installs = [CannInstall(root=root, kind="toolkit", release=cann, compiler_version=matrix.compiler_for_cann(
        cann)[0], set_env=root + "/set_env.sh", active=True)]
    f.cann.active_root, f.cann.judged = root, CannChoice(root=root, reason=JUDGED_ENV)
    f.driver = DriverFacts(installed=True, version=driver, package_version=driver)
    if firmware:
        f.firmware = FirmwareFacts(installed=True, version=firmware)
    return f


def run(facts_list, matrix, plan: bool) -> float:
    original = doctor.build_plan
    if not plan:
        doctor.build_plan = lambda findings, facts=None, matrix=None: Plan()
    try:
        t0 = time.perf_counter()
        for facts in facts_list:
            doctor.evaluate(facts, None, origin={"kind": "snapshot", "name": "bench"}, matrix=matrix)
        return time.perf_counter() - t0
    finally:
        doctor.build_plan = original


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    warm_up = load_bundled()  # imports and the checks' registry, paid once by any run
    run([node(warm_up, *NODES[-1])], warm_up, False)
    for label, plan in (("without the plan", False), ("with the plan", True)):
        matrix = load_bundled()  # a fresh matrix: nothing cached
        facts_list = [node(matrix, *n) for n in NODES]
        cold = run(facts_list, matrix, plan)
        warm = min(run(facts_list, matrix, plan) for _ in range(args.repeat))
        print(f"{label:18} cold {cold / len(NODES) * 1000:7.1f} ms/report   warm {warm / len(NODES) * 1000:7.1f} "
              f"ms/report")
        if plan:
            print(f"plan/no plan: cold x{cold / base_cold:.2f}, warm x{warm / base_warm:.2f}")
        else:
            base_cold, base_warm = cold, warm
    return 0


if __name__ == "__main__":
    sys.exit(main())
