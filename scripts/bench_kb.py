#!/usr/bin/env python3
"""Benchmark `ascend-doctor triage` with the WHOLE knowledge base against ripgrep, in the same run.

    python scripts/bench_kb.py              # 200 MB log, the installed wheel (`pip install .`)
    python scripts/bench_kb.py --checkout   # this checkout's code with the current interpreter
    python scripts/bench_kb.py --mb 50 --all-matchers
    python scripts/bench_kb.py --levels --costly 10   # what runs over every byte (the two-level scan), no timing

ripgrep searches the reference's literal strings (`rg -c -F -f strings.txt`, strings = every
all_of literal of the 917 entries of shared/reference/ascend_fd_kb_facts.json); triage matches
every signature of data/knowledge_base.json + data/kb/*.json. When data/kb/ holds no part yet, a
synthetic part (one all_of signature per fact alternative group) stands in for it and the
output says so. The log is realistic noise (the lines of scripts/bench_triage.py) with every
signature's examples mixed in 4 times; both tools read it from the page cache (one untimed
warm-up read); their runs alternate, so both see the same load, and the best of --runs is kept.
Prints MB/s, the ratio triage/rg (target >= 0.5), triage's peak RSS (largest process, target
<= 128 MB) and whether triage found every signature mixed in.

Comparison lines (not the target): the same rg given only the reference's literals of 4+
characters, and given the most selective literal of each alternative (the reference's set holds
"[", "the", "of"... so rg's headline search matches nearly every line: a count, not a search);
triage without its scanner cache (the first run after an install or a knowledge-base change);
CPU seconds of both (on a machine shared with other jobs, wall time depends on the load).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
sys.path.insert(0, os.path.join(REPO, "scripts"))

from ascend_doctor.kb.load import load_knowledge_base, part_files  # noqa: E402
from ascend_doctor.triage.match.cache import CACHE_ENV_DIR  # noqa: E402
from ascend_doctor.triage.match.gates import ANCHOR_MIN_LEN  # noqa: E402
from ascend_doctor.triage.match.literals import literal_cost  # noqa: E402
from ascend_doctor.triage.scan import Triage  # noqa: E402
from bench_triage import make_log  # noqa: E402
from benchlib import install_wheel, measured, peak_file, peak_mb, scratch_dir  # noqa: E402

FACTS_CANDIDATES = [os.path.join(REPO, "..", "shared", "reference", "ascend_fd_kb_facts.json"),
                    os.path.join(REPO, "..", "..", "shared", "reference", "ascend_fd_kb_facts.json"),
                    "/work/shared/reference/ascend_fd_kb_facts.json"]


def facts_file() -> str:
    for path in FACTS_CANDIDATES:
        if os.path.isfile(path):
            return os.path.abspath(path)
    sys.exit("shared/reference/ascend_fd_kb_facts.json not found next to this checkout")


def alternatives(entry) -> list:
    a = entry.get("all_of") or []
    return [a] if a and isinstance(a[0], str) else [list(x) for x in a]


def reference_strings(facts) -> list:
    return sorted({s for e in facts for alt in alternatives(e) for s in alt})


def selective_strings(facts) -> list:
    """The most selective literal of each reference alternative (lowest literal_cost, then the longest):
    what a literal prefilter needs at least, one string per alternative."""
    return sorted({min(alt, key=lambda s: (literal_cost(s), -len(s))) for e in facts for alt in alternatives(e)})


def synthetic_part(facts) -> dict:
    """A stand-in for data/kb/*.json: one all_of signature per fact, examples built from its strings."""
    sigs = []
    for n, e in enumerate(facts):
        alts = alternatives(e)
        if not alts:
            continue
        sigs.append({
            "id": f"SYNTH_{n:04d}", "ascend_fd": [e["id"]], "title": e["label_en"], "title_zh": e["label_zh"],
            "all_of": alts, "component": "cann", "log_sources": ["plog"], "class": "root", "severity": "fail",
            "cause": "Synthetic benchmark signature built from the reference's telling strings.",
            "fix": ["Benchmark only."], "source": "ascend-fd kg-config.json (benchmark stand-in)",
            "examples": ["[ERROR] RUNTIME(4242,python):2024-05-11-10:02:33.123.456 " + " ".join(alt) for alt in alts],
            "near_misses": ["[INFO] nothing to see here, synthetic near miss"],
        })
    return {"schema": "ascend-doctor.kb-part/1", "part": "synthetic", "signatures": sigs}


def one_more_part() -> dict:
    """A knowledge-base part of one new signature (a new file, as an engineer adds one): what the first run after a
    knowledge-base change has to work out."""
    return {"schema": "ascend-doctor.kb-part/1", "part": "one_more_part", "signatures": [{
        "id": "BENCH_ONE_MORE_PART", "title": "Synthetic benchmark fault", "title_zh": "合成的基准测试故障",
        "pattern": r"benchmark widget frobnication failed: code \d+", "regex": True, "component": "cann",
        "log_sources": ["plog"], "class": "root", "severity": "fail",
        "cause": "A synthetic benchmark fault, for timing only.", "fix": ["Nothing to fix: benchmark only."],
        "source": "scripts/bench_kb.py synthetic benchmark entry",
        "examples": ["[ERROR] benchmark widget frobnication failed: code 12"],
        "near_misses": ["[INFO] nothing to see here, synthetic near miss"]}]}


def scan_levels(sigs) -> dict:
    """How the two-level scan (ascend_doctor/triage/match/gates.py) splits triage's expressions: {"plan": the
    scanner plan, "sigs": [signatures], "level1_sigs": ids of the signatures with an expression or literal that runs
    over every byte (not behind a gate word or long anchor), "level1_whole": the same for whole expressions}."""
    from ascend_doctor.triage.match.finders import _scan_plan

    plan = _scan_plan(sigs)
    l1 = plan["hs_levels"]["l1"]
    return {"plan": plan, "sigs": sigs,
            "level1_sigs": sorted({sigs[i].id for _, _, ids in l1 if ids for i in ids}),
            "level1_whole": sorted({sigs[i].id for _, kind, ids in l1 if ids and kind == 1 for i in ids})}


def print_levels(lv: dict) -> None:
    levels, sigs = lv["plan"]["hs_levels"], lv["sigs"]
    l1, l2 = levels["l1"], levels["l2"]
    marks = sum(1 for _, _, ids in l1 if ids is None)
    gated = sum(levels["gates"].values())
    kept = [x for x in l1 if x[2] is not None]
    n = len(l2) + len(kept)
    print(f"  two-level scan: level 1 (every byte) {len(l1)} expressions: {len(levels['gates'])} gate words, "
          f"{marks - len(levels['gates'])} anchors, {len(kept)} expressions/literals no gate covers "
          f"({levels['level1']} regexes whole); level 2 (marked lines) {len(l2)}")
    print(f"    of {n} expressions and literals (alternatives split): {gated} gated ({100 * gated / n:.0f}%), "
          f"{levels['anchored']} by their own anchors ({100 * levels['anchored'] / n:.0f}%), {len(kept)} at level 1; "
          f"signatures with something at level 1: {len(lv['level1_sigs'])} of {len(sigs)}, a whole regex there: "
          f"{len(lv['level1_whole'])}")
    print("    gate words (expressions each covers): " + ", ".join(f"{g} {c}" for g, c in levels["gates"].items()))


def costly_expressions(log: str, n: int, lv: dict, sample: int = 8 << 20) -> list:
    """The `n` expressions of triage's level-1 database (what runs over every byte: gate words, anchors, and what no
    gate covers) that cost most on the first `sample` bytes of `log` (noise with the examples mixed in): each
    compiled alone and timed (CPU, best of 3, less an empty database's time), then the costliest removed one at a time
    from the whole level 1 to see what each adds there (the sum is not additive: Hyperscan shares its literal
    matching among all). [(ms alone, ms it adds to level 1, signature ids, expression)]"""
    import hyperscan  # type: ignore[import]

    sigs = lv["sigs"]
    flags = {0: 0, 1: hyperscan.HS_FLAG_MULTILINE, 2: hyperscan.HS_FLAG_CASELESS}
    l1 = [(e.encode("latin-1"), flags[k], [sigs[i].id for i in ids] if ids else ["(mark)"])
          for e, k, ids in lv["plan"]["hs_levels"]["l1"]]
    with open(log, "rb") as fh:
        buf = fh.read(sample)
    buf = buf[:buf.rfind(b"\n") + 1]

    def cost(entries) -> float:
        db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        db.compile(expressions=[e for e, _, _ in entries], ids=list(range(len(entries))), elements=len(entries),
                   flags=[f for _, f, _ in entries])
        best = float("inf")
        for _ in range(3):
            t0 = time.process_time()
            db.scan(buf, match_event_handler=lambda *_a: None)
            best = min(best, time.process_time() - t0)
        return 1000 * best

    floor = cost([(b"\\x00\\x01\\x02\\x03", 0, [])])  # reading the bytes, whatever is looked for
    regexes = [x for x in l1 if x[1] == flags[1]]
    alone = sorted(((cost([x]) - floor, k) for k, x in enumerate(regexes)), reverse=True)[:n]
    whole = cost(l1)
    out = []
    for ms, k in alone:
        rest = [x for x in l1 if x is not regexes[k]]
        out.append((ms, whole - cost(rest), regexes[k][2], regexes[k][0]))
    return out


def readable(expr: bytes) -> str:
    """A Hyperscan expression as translate.py writes it (every byte \\xHH) with its printable bytes shown as such."""
    import re

    def one(m) -> str:
        c = chr(int(m.group(1), 16))
        return ("\\" + c if c in "\\^$.|?*+()[]{}-/" else c) if 0x20 <= ord(c) < 0x7f else m.group(0)

    return re.sub(r"\\x([0-9a-f]{2})", one, expr.decode("latin-1"))


def run(argv, env, out_path):
    """(wall seconds, peak RSS in MB of the largest process of the command's tree, exit code); `run.cpu` its CPU
    seconds. The peak is the launcher's (benchlib.measured): wait4's own is at least this benchmark's size."""
    peak_path = peak_file()
    with open(out_path, "wb") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(measured(argv, peak_path), stdout=out, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    run.cpu = usage.ru_utime + usage.ru_stime  # type: ignore[attr-defined]
    return wall, peak_mb(peak_path), proc.returncode, err


class _NoExamples:
    """A knowledge base without signatures, for make_log: noise lines only."""
    signatures: list = []


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=int, default=200, help="size of the generated log in MiB (default 200)")
    ap.add_argument("--checkout", action="store_true", help="run this checkout with this interpreter, not a wheel")
    ap.add_argument("--all-matchers", action="store_true",
                    help="also time each matcher (ASCEND_DOCTOR_MATCHER=re2, =python) and compare the answers")
    ap.add_argument("--runs", type=int, default=3, help="runs of each tool; the best is kept (default 3)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("--costly", type=int, default=8, metavar="N",
                    help="name the N Hyperscan expressions that cost most on the log (default 8; 0: skip)")
    ap.add_argument("--levels", action="store_true",
                    help="only print how the two-level scan splits the knowledge base (what runs over every byte), "
                         "and the --costly N level-1 regexes on a small log, then stop")
    args = ap.parse_args()
    if args.levels:
        kb = load_knowledge_base()
        lv = scan_levels(Triage(kb).sigs)
        print_levels(lv)
        print("    signatures with a whole regex at level 1: " + ", ".join(lv["level1_whole"]))
        if args.costly:
            with scratch_dir("bench-kb-", False) as tmp:
                log = os.path.join(tmp, "worker_0.log")
                make_log(log, 8 << 20, kb)
                for ms, adds, ids, expr in costly_expressions(log, args.costly, lv):
                    shown = readable(expr)
                    print(f"    {ms:6.2f} ms alone {adds:+6.2f} ms in level 1  {', '.join(ids[:3])}"
                          f"{' ...' if len(ids) > 3 else ''}  {shown[:90]}{'...' if len(shown) > 90 else ''}")
        return 0
    rg = shutil.which("rg")
    if not rg:
        sys.exit("ripgrep (rg) is not installed: apt-get install -y ripgrep")
    facts = json.load(open(facts_file(), encoding="utf-8"))["entries"]
    with scratch_dir("bench-kb-", args.keep) as tmp:
        extra = []
        if not part_files():
            synth = os.path.join(tmp, "synthetic.json")
            with open(synth, "w", encoding="utf-8") as fh:
                json.dump(synthetic_part(facts), fh, ensure_ascii=False)
            extra = [synth]
            print("data/kb/ holds no part yet: using a SYNTHETIC part built from the facts' strings")
        kb = load_knowledge_base(extra=extra)
        n_sigs = len(kb.signatures)
        log = os.path.join(tmp, "worker_0.log")
        t0 = time.perf_counter()
        injected, expected = make_log(log, args.mb << 20, kb)
        size = os.path.getsize(log)
        print(f"generated {size / 1e6:.0f} MB ({injected} signature lines) in {time.perf_counter() - t0:.0f} s; "
              f"{n_sigs} signatures (parts: {', '.join(os.path.basename(p) for p in part_files()) or 'synthetic'})")
        strings = os.path.join(tmp, "strings.txt")
        lits = reference_strings(facts)
        with open(strings, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lits) + "\n")
        with open(log, "rb") as fh:  # warm the page cache for both
            while fh.read(16 << 20):
                pass

        env = dict(os.environ, LC_ALL="C")
        env.pop("ASCEND_DOCTOR_MATCHER", None)
        env.pop("ASCEND_DOCTOR_NO_RE2", None)
        if args.checkout:
            doctor = [sys.executable, "-m", "ascend_doctor"]
            env["PYTHONPATH"] = REPO + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
            # an installed package runs from its compiled bytecode; without it every run compiles ~20 modules (~25 ms)
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        else:
            doctor = [install_wheel(tmp)]
            env.pop("PYTHONPATH", None)
        triage = doctor + ["triage", log, "--format", "json"] + [x for p in extra for x in ("--kb", p)]

        cpu = {}

        def best(argv, env, out):
            runs = []
            for _ in range(args.runs):
                runs.append(run(argv, env, out) + (run.cpu,))  # type: ignore[attr-defined]
            for _, _, rc, err, _ in runs:
                if rc not in (0, 1):
                    sys.exit(f"{' '.join(argv[:3])} ... failed with {rc}: {err[-600:]}")
            cpu[argv[0]] = min(r[4] for r in runs)
            return min(r[0] for r in runs), max(r[1] for r in runs)

        # rg and triage alternate run by run, so both see the same load on a shared machine
        run(triage, env, os.path.join(tmp, "triage.json"))  # untimed: fills the scanner cache (see "without")
        rg_argv = [rg, "-c", "-F", "-f", strings, log]
        rg_runs, t_runs = [], []
        for _ in range(args.runs):
            rg_runs.append(run(rg_argv, env, os.path.join(tmp, "rg.out")) + (run.cpu,))  # type: ignore[attr-defined]
            t_runs.append(run(triage, env, os.path.join(tmp, "triage.json")) + (run.cpu,))  # type: ignore[attr-defined]
        for argv, runs in ((rg_argv, rg_runs), (triage, t_runs)):
            for _, _, rc, err, _ in runs:
                if rc not in (0, 1):
                    sys.exit(f"{' '.join(argv[:3])} ... failed with {rc}: {err[-600:]}")
        rg_time, rg_cpu = min(r[0] for r in rg_runs), min(r[4] for r in rg_runs)
        t_time, t_rss, t_cpu = min(r[0] for r in t_runs), max(r[1] for r in t_runs), min(r[4] for r in t_runs)
        rg_lines = open(os.path.join(tmp, "rg.out")).read().strip()
        data = json.load(open(os.path.join(tmp, "triage.json"), encoding="utf-8"))
        found = {p["id"] for p in data["problems"]}
        missing = sorted(expected - found)
        mb = size / 1e6
        which = subprocess.run(doctor[:1] + (["-c", "from ascend_doctor.triage.match.scanner import Scanner;"
                                              "print(Scanner([]).matcher)"] if args.checkout else []),
                               capture_output=True, text=True, env=env).stdout.strip() if args.checkout else None
        if which is None:
            py = os.path.join(os.path.dirname(doctor[0]), "python")
            which = subprocess.run([py, "-c", "from ascend_doctor.triage.match.scanner import Scanner; print(Scanner([]).matcher)"],
                                   capture_output=True, text=True, env=env).stdout.strip()
        print(f"rg -c -F -f strings.txt ({len(lits)} literal strings): {rg_time:6.2f} s  {mb / rg_time:7.1f} MB/s"
              f"  ({rg_lines} matching lines)")
        print(f"ascend-doctor triage ({n_sigs} signatures, matcher {which}): {t_time:6.2f} s  {mb / t_time:7.1f} MB/s"
              f"  peak RSS {t_rss:.0f} MB  ({len(found)} signatures found)")
        ratio = rg_time / t_time
        print(f"ratio triage/rg: {ratio:.2f} (target >= 0.5: {'met' if ratio >= 0.5 else 'NOT met'}); "
              f"peak RSS {'<=' if t_rss <= 128 else '>'} 128 MB")
        # each pair of runs (rg, then triage) saw the same load: the spread of their ratios shows what the load did
        pairs = sorted(r[0] / t[0] for r, t in zip(rg_runs, t_runs))
        print(f"  runs: rg {' '.join(f'{r[0]:.2f}' for r in rg_runs)} s; triage {' '.join(f'{t[0]:.2f}' for t in t_runs)} s;"
              f" ratio run by run {pairs[0]:.2f}-{pairs[-1]:.2f} (median {pairs[len(pairs) // 2]:.2f})")
        # the same rg given saner literal sets (not the definition: for comparison only)
        for label, subset in (("only the literals of 4+ characters", [x for x in lits if len(x) >= 4]),
                              ("the most selective literal of each alternative", selective_strings(facts))):
            path = os.path.join(tmp, f"strings-{len(subset)}.txt")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write("\n".join(subset) + "\n")
            w, _ = best([rg, "-c", "-F", "-f", path, log], env, os.path.join(tmp, "rg2.out"))
            n = open(os.path.join(tmp, "rg2.out")).read().strip()
            print(f"  (comparison) rg -c -F -f with {label} ({len(subset)} strings): {w:6.2f} s "
                  f"{mb / w:7.1f} MB/s ({n} matching lines); ratio triage/rg {w / t_time:.2f}")
        # the same size of noise without the injected lines: what the scan of a log costs, apart from the
        # ~one-off cost of each distinct fault found (its regexes compiled, its title, its JSON), which this log
        # pays for every signature of the knowledge base at once and a real log for the few it holds
        noise = os.path.join(tmp, "noise.log")
        make_log(noise, size, _NoExamples())
        quiet_argv = [a if a != log else noise for a in triage]
        rg_noise = [a if a != log else noise for a in rg_argv]
        nw, _ = best(quiet_argv, env, os.path.join(tmp, "noise.json"))
        n_cpu = cpu[quiet_argv[0]]
        rw, _ = best(rg_noise, env, os.path.join(tmp, "rg3.out"))
        print(f"  (comparison) the same size of noise alone, no fault in it: triage {nw:6.2f} s ({n_cpu:.2f} s CPU), "
              f"rg {rw:6.2f} s; ratio triage/rg {rw / nw:.2f} (the {injected} injected lines of {len(found)} distinct "
              f"faults cost triage {t_time - nw:+.2f} s, {t_cpu - n_cpu:+.2f} s CPU)")
        # the first run after an install: an empty cache directory, so everything is built and then stored, as a
        # user's first run does (the stored databases' bytes are part of its peak)
        cold_dir = os.path.join(tmp, "empty-cache")
        os.makedirs(cold_dir)
        cold, cold_rss, _, _ = run(triage, dict(env, **{CACHE_ENV_DIR: cold_dir}), os.path.join(tmp, "cold.json"))
        cold_cpu = run.cpu  # type: ignore[attr-defined]
        print(f"  (comparison) triage with an empty cache (the first run after an install): "
              f"{cold:6.2f} s ({cold_cpu:.2f} s CPU)  ratio triage/rg {rg_time / cold:.2f}  peak RSS {cold_rss:.0f} MB")
        # a knowledge-base change: one more part file (--kb) makes a new scanner cache key; the plan's answers per
        # expression (planmemo.py) and the Hyperscan databases whose expressions did not change (the database store)
        # are kept from the runs above
        part = os.path.join(tmp, "one_more_part.json")
        with open(part, "w", encoding="utf-8") as fh:
            json.dump(one_more_part(), fh, ensure_ascii=False)
        changed = triage + ["--kb", part]
        kbw, kb_rss, rc, err = run(changed, env, os.path.join(tmp, "kb_change.json"))
        if rc not in (0, 1):
            sys.exit(f"triage --kb {part} failed with {rc}: {err[-600:]}")
        print(f"  (comparison) the first run after a knowledge-base change (one more part file): {kbw:6.2f} s "
              f"({run.cpu:.2f} s CPU)  ratio triage/rg {rg_time / kbw:.2f}  peak RSS {kb_rss:.0f} MB")
        print(f"  CPU seconds (user+sys, this process tree): triage {t_cpu:.2f}, rg {rg_cpu:.2f}; "
              f"ratio by CPU {rg_cpu / t_cpu:.2f} (the wall ratio above is the target; CPU shows the work "
              f"when other jobs share the machine)")
        status = 0
        if missing:
            print(f"MISSED {len(missing)} injected signatures: {', '.join(missing[:20])}")
            status = 1
        if args.all_matchers:
            for name in ("re2", "python"):
                e2 = dict(env, ASCEND_DOCTOR_MATCHER=name)
                py = [sys.executable] if args.checkout else [os.path.join(os.path.dirname(doctor[0]), "python")]
                got = subprocess.run(py + ["-c", "from ascend_doctor.triage.match.scanner import Scanner; "
                                           f"print(Scanner([], matchers=['{name}']).matcher)"],
                                     capture_output=True, text=True, env=env).stdout.strip()
                if got != name:
                    print(f"  ASCEND_DOCTOR_MATCHER={name:<7} not installed in this environment: skipped")
                    continue
                out = os.path.join(tmp, f"triage-{name}.json")
                w, r, rc, err = run(triage, e2, out)
                other = json.load(open(out, encoding="utf-8"))
                same = other["problems"] == data["problems"]
                print(f"  ASCEND_DOCTOR_MATCHER={name:<7} {w:6.2f} s  {mb / w:7.1f} MB/s  ratio {rg_time / w:.2f}"
                      f"  peak RSS {r:.0f} MB  same problems: {same}")
                if not same:
                    status = 1
        try:
            lv = scan_levels(Triage(kb).sigs)
        except ImportError:
            lv = None
        if lv is not None:
            print_levels(lv)
        if args.costly and lv is not None:
            # what the next author of a signature should look at first: an expression that no gate word covers runs
            # over every byte, and one that keeps Hyperscan busy on every line costs every user (a bounded gap after
            # a common start, no anchoring literal); a gated one (`failed`, `error` ... in every line it matches)
            # runs only over the lines that hold a gate word
            print(f"  the {args.costly} costliest level-1 regexes (no gate word, no anchor of "
                  f"{ANCHOR_MIN_LEN}+ bytes: they run over every byte) on 8 MB of this log (ms of CPU alone, less "
                  f"reading the bytes; ms each adds to level 1, which shares literal matching):")
            for ms, adds, ids, expr in costly_expressions(log, args.costly, lv):
                shown = readable(expr)
                print(f"    {ms:6.2f} ms alone {adds:+6.2f} ms in level 1  {', '.join(ids[:3])}"
                      f"{' ...' if len(ids) > 3 else ''}  {shown[:90]}{'...' if len(shown) > 90 else ''}")
        print(f"cores: {os.cpu_count()} (triage splits a big file at line boundaries over up to 8; rg uses one per file)")
        return status


if __name__ == "__main__":
    sys.exit(main())
