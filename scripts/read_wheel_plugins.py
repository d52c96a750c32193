#!/usr/bin/env python3
"""Read which lib/plugin folders each MindSpore release's PyPI wheel carries, into data/sources/wheel_plugins.json.

    python scripts/read_wheel_plugins.py [--out data/sources/wheel_plugins.json] [--releases 2.0.0,2.7.0-rc1,...]

A research aid, run by hand on a machine that reaches pypi.org: for every MindSpore release of
data/sources/compat_facts.json from 2.0.0 on, it asks PyPI's JSON API (https://pypi.org/pypi/mindspore/json) for the
release's Linux wheels (manylinux1_x86_64 and the cpXY-none-any aarch64 build) and reads each wheel's zip central
directory only, with HTTP range requests (the end record, then the directory itself: a few MB of a 300-950 MB file;
nothing is kept on disk). From the file names it records the files right under lib/plugin and in its gpu*
folders, the `mindspore/lib/plugin/gpu<X.Y>` folders, the
`libmindspore_gpu.so.<X.Y>` libraries, and whether `lib/plugin/ascend` is there, with the wheel's URL, size and sha256.

A release PyPI does not carry is recorded as such ("not_on_pypi"), with the reason: its wheels are only on the
MindSpore download mirror (ms-release.obs.cn-north-4.myhuaweicloud.com), which this script does not read (on the
machine that made the committed file its host name did not resolve). It also records every release PyPI's `mindspore`
project carries (pypi_releases: what `pip install mindspore==X` can resolve). scripts/build_matrix.py reads the file.
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import os
import re
import sys
import urllib.request
import zipfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYPI_JSON = "https://pypi.org/pypi/mindspore/json"
FILES_HOST = "https://files.pythonhosted.org/"
PLUGIN_GPU = re.compile(r"^mindspore/lib/plugin/gpu(\d+\.\d+)/")
LIB_GPU = re.compile(r"^mindspore/lib/plugin/libmindspore_gpu\.so\.(\d+\.\d+)$")
PLUGIN_ASCEND = re.compile(r"^mindspore/lib/plugin/ascend/")


def pypi_version(v: str) -> str:
    """compat_facts spelling -> PyPI's: 2.7.0-rc1 -> 2.7.0rc1, 2.0.0-alpha -> 2.0.0a0 (PEP 440)."""
    v = v.replace("-rc", "rc").replace("-alpha", "a0").replace("-beta", "b0")
    return v


class RangeFile(io.RawIOBase):
    """A read-only, seekable view of a remote file, each read one HTTP range request."""

    def __init__(self, url: str, size: int):
        self.url, self.size, self.pos, self.fetched = url, size, 0, 0

    def seekable(self):
        return True

    def readable(self):
        return True

    def tell(self):
        return self.pos

    def seek(self, off, whence=0):
        self.pos = off if whence == 0 else self.pos + off if whence == 1 else self.size + off
        return self.pos

    def read(self, n=-1):
        if n is None or n < 0:
            n = self.size - self.pos
        n = min(n, self.size - self.pos)
        if n <= 0:
            return b""
        req = urllib.request.Request(self.url, headers={"Range": f"bytes={self.pos}-{self.pos + n - 1}"})
        with urllib.request.urlopen(req, timeout=120) as resp:
            if resp.status != 206:
                raise OSError(f"{self.url}: range request answered {resp.status}, not 206")
            data = resp.read()
        self.pos += len(data)
        self.fetched += len(data)
        return data


def read_wheel(f: dict) -> dict:
    url = f["url"]
    if not url.startswith("http"):  # a mirror's relative link: the same path on PyPI's file host
        url = FILES_HOST + url.split("packages/", 1)[1] if "packages/packages/" not in url else \
            FILES_HOST + "packages/" + url.split("packages/packages/", 1)[1]
    rf = RangeFile(url, f["size"])
    names = zipfile.ZipFile(rf).namelist()
    gpu_dirs = sorted({m.group(1) for n in names for m in [PLUGIN_GPU.match(n)] if m}, key=_vk)
    gpu_libs = sorted({m.group(1) for n in names for m in [LIB_GPU.match(n)] if m}, key=_vk)
    return {"file": f["filename"], "url": url, "size": f["size"], "sha256": f["digests"]["sha256"],
            "files_in_wheel": len(names), "bytes_read": rf.fetched,
            "plugin_gpu_dirs": gpu_dirs, "libmindspore_gpu_so": gpu_libs,
            "plugin_ascend": any(PLUGIN_ASCEND.match(n) for n in names),
            # the files right under lib/plugin and in its gpu* folders: the layout a node's install shows
            "plugin_layout": sorted(n[len("mindspore/"):] for n in names if n.startswith("mindspore/lib/plugin/")
                                    and not n.endswith("/") and (n.count("/") == 3 or n.split("/")[3].startswith("gpu"))),
            "plugin_dirs": sorted({n.split("/")[3] for n in names
                                   if n.startswith("mindspore/lib/plugin/") and n.count("/") >= 4})}


def _vk(v: str):
    return tuple(int(x) for x in v.split("."))


def pick(files: list) -> list:
    """One wheel per Linux platform: the newest Python's (the plugin set does not depend on the Python tag)."""
    out = []
    for plat, test in (("linux-x86_64", lambda n: n.endswith("manylinux1_x86_64.whl")),
                       ("linux-aarch64", lambda n: n.endswith("-none-any.whl") and re.search(r"-cp3\d+-none-any", n))):
        cands = [f for f in files if test(f["filename"])]
        if cands:
            best = max(cands, key=lambda f: int(re.search(r"-cp3(\d+)-", f["filename"]).group(1)))
            out.append((plat, best))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--facts", default=os.path.join(REPO, "data", "sources", "compat_facts.json"))
    ap.add_argument("--out", default=os.path.join(REPO, "data", "sources", "wheel_plugins.json"))
    ap.add_argument("--releases", default="", help="comma-separated subset (default: every release from 2.0.0-alpha)")
    args = ap.parse_args(argv)
    with open(args.facts, encoding="utf-8") as fh:
        releases = [r["version"] for r in json.load(fh)["mindspore_releases"]]
    releases = [v for v in releases if _vk(re.match(r"\d+\.\d+", v).group(0)) >= (2, 0)]
    if args.releases:
        releases = [v for v in releases if v in args.releases.split(",")]
    with urllib.request.urlopen(PYPI_JSON, timeout=60) as resp:
        pypi = json.load(resp)["releases"]
    rows = []
    for v in releases:
        files = pypi.get(pypi_version(v))
        if not files:
            rows.append({"version": v, "not_on_pypi": f"{PYPI_JSON} lists no files for {pypi_version(v)}; its wheels "
                                                      "are only on the MindSpore download mirror, not read here"})
            print(f"{v}: not on PyPI", file=sys.stderr)
            continue
        wheels = []
        for plat, f in pick(files):
            w = read_wheel(f)
            w["platform"] = plat
            wheels.append(w)
            print(f"{v} {plat}: gpu {w['plugin_gpu_dirs']} ascend {w['plugin_ascend']} "
                  f"({w['bytes_read']} of {w['size']} bytes read)", file=sys.stderr)
        rows.append({"version": v, "pypi": f"https://pypi.org/project/mindspore/{pypi_version(v)}/#files",
                     "wheels": wheels})
    out = {"generated_by": "scripts/read_wheel_plugins.py", "read_on": datetime.date.today().isoformat(),
           "how": "zip central directory of each wheel read with HTTP range requests from files.pythonhosted.org",
           # every release PyPI's `mindspore` project carries (with a file): which `pip install mindspore==X` resolves
           "pypi_releases": sorted((v for v, fs in pypi.items() if fs), key=lambda v: [int(x) if x.isdigit() else -1
                                                                                       for x in re.split(r"[.a-z]+", v)]),
           "releases": rows}
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}: {sum('wheels' in r for r in rows)} releases read, "
          f"{sum('not_on_pypi' in r for r in rows)} not on PyPI", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
