#!/usr/bin/env python3
"""Run every parser property of tests/robustness/test_fuzz_parsers.py with a larger budget.

    python scripts/fuzz.py --examples 2000      # per property; prints a table

For each parser: examples tried and crashes found (a property that failed: hypothesis shrinks it
and the falsifying example is printed below the table). Exit code 1 if any crash.
CI runs the same properties with the bounded "ci" profile (python -m pytest tests/robustness).
"""

import argparse
import os
import sys
import time
import traceback

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=2000, help="examples per property (default 2000)")
    ap.add_argument("--only", default="", help="run only properties whose name contains this")
    args = ap.parse_args()
    # The profile must be chosen before the property module is imported (its settings bind then).
    os.environ["HYPOTHESIS_PROFILE"] = "fuzz"
    os.environ["ASCEND_DOCTOR_FUZZ_EXAMPLES"] = str(args.examples)
    sys.path[:0] = [REPO, os.path.join(REPO, "tests"), os.path.join(REPO, "tests", "robustness")]
    import conftest  # noqa: F401  registers and loads the profile
    import test_fuzz_parsers as props

    rows, failures = [], []
    for func in props.ALL_PROPERTIES:
        if args.only and args.only not in func.__name__:
            continue
        before = sum(props.EXAMPLES.values())
        start = time.monotonic()
        crashed = 0
        try:
            func()
        except Exception:  # a falsified property: hypothesis re-raises the shrunk failure
            crashed = 1
            failures.append((func.__name__, traceback.format_exc()))
        tried = sum(props.EXAMPLES.values()) - before
        label = _label(props, func)
        rows.append((label, tried, crashed, time.monotonic() - start))
    width = max(len(r[0]) for r in rows)
    print(f"{'parser'.ljust(width)}  {'examples':>8}  {'crashes':>7}  {'seconds':>7}")
    for label, tried, crashed, secs in rows:
        print(f"{label.ljust(width)}  {tried:>8}  {crashed:>7}  {secs:>7.1f}")
    print(f"{'total'.ljust(width)}  {sum(r[1] for r in rows):>8}  {sum(r[2] for r in rows):>7}  "
          f"{sum(r[3] for r in rows):>7.1f}")
    for name, tb in failures:
        print(f"\n--- {name} ---\n{tb}")
    return 1 if failures else 0


def _label(props, func) -> str:
    # Each property counts under one label: find the one this function incremented.
    import inspect

    src = inspect.getsource(func)
    for label in props.EXAMPLES:
        if f'EXAMPLES["{label}"]' in src:
            return label
    return func.__name__


if __name__ == "__main__":
    sys.exit(main())
