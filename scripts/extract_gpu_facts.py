#!/usr/bin/env python3
"""Extract the MindSpore GPU (CUDA) facts, release by release, into data/sources/gpu_facts.json.

    python scripts/extract_gpu_facts.py --docs <mindspore-ai/docs git dir> --src <mindspore-ai/mindspore_test git dir>

A research aid, run by hand where the two repositories are cloned (`git clone --mirror` is enough):
it reads, for every MindSpore release of data/sources/compat_facts.json,

- the GPU pip install guide *at that release*: install/mindspore_gpu_install_pip_en.md in mindspore-ai/docs, at the
  newest commit (any branch) whose guide installs that release (`export MS_VERSION=<release>`); for the 1.x guides that
  name no version, the tip of the release's docs branch (r1.5 ... r1.9); for a patch release no guide names (2.2.1),
  the guide on its docs branch at the commit that added it to the release list. From the guide: the CUDA and cuDNN of its
  dependency table (or its "Ensure that CUDA ... with cuDNN ..." line), the Python range, the minimum NVIDIA driver it
  states for each CUDA, the CUDA it recommends, and the pip URLs of its wheels (architecture, per-CUDA or unified);
- the checker at the release tag: GPUEnvChecker's `self.version` in run_check/_check_version.py of
  mindspore-ai/mindspore_test (a full mirror of the MindSpore source with the release tags), verbatim.

The wheel plugin folders (`lib/plugin/gpu<cuda>`) of the PyPI wheels are read by scripts/read_wheel_plugins.py
(data/sources/wheel_plugins.json); NVIDIA's driver table is transcribed in scripts/build_matrix.py (NVIDIA_DRIVER_MIN).
The committed data/sources/gpu_facts.json is what scripts/build_matrix.py reads; this script documents how it was made.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUIDE = "install/mindspore_gpu_install_pip_en.md"
RELEASE_LIST = "resource/release/release_list_en.md"
CHECKER_PATHS = ("mindspore/python/mindspore/run_check/_check_version.py", "mindspore/run_check/_check_version.py")


def git(gitdir, *args):
    return subprocess.run(["git", "-C", gitdir, *args], capture_output=True, text=True, check=False).stdout


def norm(v: str) -> str:
    """2.0.0-rc1 / 2.0.0rc1 -> 2.0.0rc1; 2.0.0-alpha / 2.0.0a0 -> 2.0.0a0 (the guides write PEP 440 versions)."""
    return re.sub(r"alpha$", "a0", v.replace("-", "").lower())


def guide_facts(text: str) -> dict:
    out = {}
    row = re.search(r"^\|\[CUDA\]\([^)]*\)\|([^|]+)\|", text, re.M)
    if row:
        out["cuda"] = re.findall(r"\d+\.\d+", row.group(1))
        out["cuda_line"] = row.group(0)
    else:
        line = re.search(r"^- Ensure that \[CUDA [^\n]*", text, re.M)
        if line:
            out["cuda"] = re.findall(r"\[CUDA (\d+\.\d+)\]", line.group(0))
            out["cuda_line"] = line.group(0)[:300]
    crow = re.search(r"^\|\[cuDNN\]\([^)]*\)\|([^|]+)\|", text, re.M)
    if crow:
        out["cudnn"] = re.findall(r"\d+\.\d+", crow.group(1))
    elif "cuda_line" in out:
        out["cudnn"] = re.findall(r"\[cuDNN (\d+\.\d+)", out["cuda_line"])
    # the pairs the cuDNN section states: "If CUDA 11.6 was previously installed, download cuDNN v8.5.x for CUDA 11.6"
    pairs = re.findall(r"CUDA (\d+\.\d+) was previously installed, download cuDNN v(\d+\.\d+)", text)
    if not pairs and "cuda_line" in out:
        pairs = re.findall(r"\[CUDA (\d+\.\d+)\][^\[]*\[cuDNN (\d+\.\d+)", out["cuda_line"])
    if pairs:
        out["cudnn_for_cuda"] = dict(pairs)
    prow = re.search(r"^\|\[Python\]\([^)]*\)\|([^|]+)\|", text, re.M)
    if prow:
        out["python"] = prow.group(1).strip()
    drv = dict(re.findall(r"minimum required GPU driver version of CUDA (\d+\.\d+) is (\d+(?:\.\d+)+)", text))
    if drv:
        out["driver_min"] = drv
    rec = re.search(r"install CUDA (\d+\.\d+) \(recommended\)", text)
    if rec:
        out["recommended"] = rec.group(1)
    urls = sorted(set(re.findall(r"https://ms-release\.obs\.cn-north-4\.myhuaweicloud\.com/\S+?\.whl", text)))
    wheels = []
    for u in urls:
        m = re.search(r"/MindSpore/(gpu|unified)/(x86_64|aarch64)/(?:cuda-(\d+\.\d+)/)?", u)
        if not m:
            continue
        py = re.search(r"-(cp\d+)-", u)
        wheels.append({"kind": m.group(1), "arch": m.group(2), "cuda": m.group(3), "python_tag": py.group(1) if py else None,
                       "url": u})
    if wheels:
        out["wheels"] = wheels
    return out


def find_guides(docs: str) -> dict:
    """release (normalised) -> (commit, date, text): the newest guide commit that installs that release, preferring
    one on the release's own docs branch (r<major.minor>) over a copy carried on another branch."""
    found = {}
    log = git(docs, "log", "--all", "--format=%H %ct", "--", GUIDE).split("\n")
    for line in log:
        if not line.strip():
            continue
        commit, ts = line.split()
        text = git(docs, "show", f"{commit}:{GUIDE}")
        m = re.search(r"export MS_VERSION=(\S+)", text)
        if m:
            found.setdefault(norm(m.group(1)), []).append((commit, int(ts), text))
    out = {}
    for key, hits in found.items():
        branch = "r" + ".".join(re.findall(r"\d+", key)[:2])
        own = [h for h in hits if subprocess.run(["git", "-C", docs, "merge-base", "--is-ancestor", h[0], branch],
                                                 capture_output=True).returncode == 0]
        out[key] = max(own or hits, key=lambda h: h[1])
    return out


def release_added(docs: str, branch: str, v: str):
    """(commit, date) of the oldest commit on the docs branch whose release list has a section for release v."""
    out = git(docs, "log", branch, "--reverse", "--format=%H %cs", f"-S### {v}\n", "--", RELEASE_LIST).split("\n")
    hits = [line.split() for line in out if line.strip()]
    return tuple(hits[0]) if hits else None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--facts", default=os.path.join(REPO, "data", "sources", "compat_facts.json"))
    ap.add_argument("--out", default=os.path.join(REPO, "data", "sources", "gpu_facts.json"))
    args = ap.parse_args(argv)
    with open(args.facts, encoding="utf-8") as fh:
        releases = [r["version"] for r in json.load(fh)["mindspore_releases"]]
    guides = find_guides(args.docs)
    rows = []
    for v in releases:
        row = {"version": v}
        hit = guides.get(norm(v))
        branch = None
        if hit is None:
            mm = ".".join(v.split(".")[:2])
            branch = f"r{mm}"
            commit = git(args.docs, "rev-parse", "--verify", "-q", branch).strip()
            text = git(args.docs, "show", f"{commit}:{GUIDE}") if commit else ""
            # a branch guide counts only when it names no release of its own (the 1.x guides use {version})
            if text and not re.search(r"export MS_VERSION=", text):
                hit = (commit, 0, text)
            else:
                # a patch release no guide names (2.2.1): the guide on the release's docs branch at the commit that
                # added the release to the release list (its release page) is the one published with it
                added = release_added(args.docs, branch, v)
                guide_then = git(args.docs, "show", f"{added[0]}:{GUIDE}") if added else ""
                if guide_then:
                    last = git(args.docs, "log", "-1", "--format=%H", added[0], "--", GUIDE).strip()
                    hit = (last, 0, guide_then)
                    branch = (f"guide of {branch} when the release list added {v} (docs commit {added[0][:10]}, "
                              f"{added[1]}; the guide last changed in {last[:10]} and names no {v})")
        if hit:
            facts = guide_facts(hit[2])
            facts["source"] = {"repo": "mindspore-ai/docs", "path": GUIDE, "commit": hit[0],
                               "how": ((branch if branch.startswith("guide of") else f"tip of docs branch {branch}") if branch else
                                       f"newest commit whose guide says export MS_VERSION={norm(v)}")}
            row["install_guide"] = facts
        tag = "v" + v
        tag_commit = git(args.src, "rev-parse", "--verify", "-q", tag + "^{commit}").strip()
        if tag_commit:
            for path in CHECKER_PATHS:
                text = git(args.src, "show", f"{tag}:{path}")
                if text:
                    i = text.find("class GPUEnvChecker")
                    m = re.search(r"self\.version *= *\[[^\]]*\]", text[i:]) if i >= 0 else None
                    if m:
                        row["checker"] = {"line": m.group(0), "cuda": re.findall(r'"([^"]+)"', m.group(0)),
                                          "source": {"repo": "mindspore-ai/mindspore_test", "path": path, "ref": tag,
                                                     "commit": tag_commit}}
                    break
        rows.append(row)
    out = {"generated_by": "scripts/extract_gpu_facts.py", "docs_commit": git(args.docs, "rev-parse", "master").strip(),
           "releases": rows}
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}: {sum('install_guide' in r for r in rows)} guides, {sum('checker' in r for r in rows)} checkers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
