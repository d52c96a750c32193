#!/usr/bin/env python3
"""Draw a seeded random sample of fail/warn findings for an audit of the advice against the vendors' pages.

    python scripts/audit_sample.py [--seed 20261205] [--fixtures 20] [--generated 25] [--out sample.json]

A research aid for issue 22's "Done when" (a fresh audit of random findings): it collects every fail/warn finding of

- every snapshot fixture under tests/fixtures/ (`check` on the bundle, all checks), and
- generated planned installs, drawn with the same seed: MindSpore x CANN x NPU driver x Python (`matrix check` on the
  Ascend side) and MindSpore x CUDA x NVIDIA driver x Python (the GPU side), from the releases the matrix lists,

then draws --fixtures findings from the first pool and --generated from the second (one per distinct check id, title
and advised step, so the sample is not twenty copies of one message), each with its verdict, evidence, own fix and the plan step
that resolves it. A person then rates each against the vendors' pages (docs/audits/<date>-plan-audit.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from ascend_doctor.bundle import open_bundle  # noqa: E402
from ascend_doctor.doctor import RunOptions, run_checks  # noqa: E402
from ascend_doctor.matrix import load_matrix  # noqa: E402

FIXTURES = os.path.join(REPO, "tests", "fixtures")


def _rows(report, origin: str) -> list:
    plan = report.node_plan()
    by_step: dict = {}
    for s in plan.steps:
        for fid in s.resolves:
            by_step.setdefault(fid, []).append(s.do)
    out = []
    for f in report.findings:
        if f.status not in ("fail", "warn"):
            continue
        out.append({"origin": origin, "id": f.id, "status": f.status, "title": f.title,
                    "evidence": {k: str(v) for k, v in (f.evidence or {}).items()},
                    "fix": list(f.fix), "alternatives": [a["steps"] for a in f.alternatives],
                    "plan_steps": by_step.get(f.id, []), "unresolved": f.id in plan.unresolved})
    return out


def fixture_pool() -> list:
    pool = []
    for name in sorted(os.listdir(FIXTURES)):
        if not os.path.isfile(os.path.join(FIXTURES, name, "manifest.json")):
            continue
        with open_bundle(os.path.join(FIXTURES, name)) as host:
            report = run_checks(host, RunOptions(timeout=5.0))
        pool += _rows(report, f"fixture {name}")
    return pool


def planned_report(matrix, **given):
    """The report `matrix check` prints for these versions (the same facts and the same evaluation)."""
    from ascend_doctor.commands.matrix import planned_facts
    from ascend_doctor.doctor import Selection, evaluate

    keys = ("mindspore", "cann", "driver", "firmware", "python", "cuda", "cudnn", "nvidia_driver", "arch")
    args = argparse.Namespace(**{k: given.get(k) for k in keys})
    return evaluate(planned_facts(matrix, args), Selection(only=["compat"]),
                    origin={"kind": "planned", "name": "planned install"}, matrix=matrix)


def generated_pool(rng: random.Random, n: int) -> list:
    matrix = load_matrix()
    finals = [r["version"] for r in matrix.mindspore_releases if r["release_kind"] in ("final", "post")]
    canns = [r["release"] for r in matrix.data["cann"] if "alpha" not in r["release"]]
    drivers = sorted({s["version"] for s in matrix.data["driver_samples"]} |
                     {p.lower().replace(".x", ".0") for r in matrix.data["cann_hdk"] for p in r["hdk"]})
    pythons = ["3.7", "3.8", "3.9", "3.10", "3.11", "3.12"]
    cudas = ["10.1", "11.1", "11.6", "12.2"]
    nvidia = ["418.87.00", "450.80.02", "470.82.01", "510.47.03", "535.104.05"]
    pool = []
    for i in range(n):
        if i % 3 == 2:
            args = {"mindspore": rng.choice(finals), "cuda": rng.choice(cudas), "nvidia_driver": rng.choice(nvidia),
                    "python": rng.choice(pythons), "arch": "x86_64"}
        else:
            args = {"mindspore": rng.choice(finals), "cann": rng.choice(canns), "driver": rng.choice(drivers),
                    "python": rng.choice(pythons), "arch": "aarch64"}
        report = planned_report(matrix, **args)
        pool += _rows(report, "matrix check " + " ".join(f"--{k.replace('_', '-')} {v}" for k, v in args.items()))
    return pool


def draw(pool: list, k: int, rng: random.Random) -> list:
    seen, out = set(), []
    for row in rng.sample(pool, len(pool)):
        key = (row["id"], row["title"], tuple(row["plan_steps"] or row["fix"][:1]))
        if key not in seen:
            seen.add(key)
            out.append(row)
        if len(out) == k:
            break
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=20261205)
    ap.add_argument("--fixtures", type=int, default=20)
    ap.add_argument("--generated", type=int, default=25)
    ap.add_argument("--combos", type=int, default=120)
    ap.add_argument("--out", default="-")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    fx = fixture_pool()
    gen = generated_pool(rng, args.combos)
    sample = draw(fx, args.fixtures, rng) + draw(gen, args.generated, rng)
    text = json.dumps({"seed": args.seed, "pool": {"fixtures": len(fx), "generated": len(gen)}, "sample": sample},
                      indent=1, ensure_ascii=False) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    print(f"pool: {len(fx)} fixture + {len(gen)} generated fail/warn findings; sample {len(sample)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
