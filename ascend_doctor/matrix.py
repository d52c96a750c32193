"""The compatibility matrix: load (bundled or a newer cached download), validate, query.

The data is `data/compat_matrix.json` (built from the research notes by
scripts/build_matrix.py; the committed JSON is the source of truth) and its
documented schema `data/compat_matrix.schema.json`. The schema is checked by
`schema.py` (the subset of JSON Schema our schema files use) so the
doctor needs no jsonschema dependency; `semantic_errors` adds what a schema cannot
say (every source id resolves, versions parse, no duplicate releases).

`matrix update` writes a downloaded matrix to the user's cache directory
(`$XDG_CACHE_HOME/ascend-doctor/` or `~/.cache/ascend-doctor/`); `load_matrix`
then uses whichever of bundled and cached has the newer `matrix_version`, and
says which (`Matrix.info()`). The cache is the doctor's own state, not the
machine under diagnosis, so it is read directly rather than through a Host.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Dict, List, Optional, Tuple

from .data import DataError, data_path, load_data_file, load_json_file
from .i18n import _
from .i18n_text import Bilingual, join
from .versions import compare_versions, major_minor, parse_version, python_major_minor, release_matches, version_key

MATRIX_FILE = "compat_matrix.json"
SCHEMA_FILE = "compat_matrix.schema.json"
ORIGIN_SUFFIX = ".origin.json"  # beside the cached matrix: where it came from and its sha256


# ---------------------------------------------------------------------------
# validation

def semantic_errors(data: dict) -> List[str]:
    """What the schema cannot express: versions parse, releases are unique. (That every source id resolves is
    the schema's own `x-ref`.)"""
    errors = []
    seen = set()
    for i, row in enumerate(data.get("mindspore") or []):
        v = parse_version(row.get("version"))
        if not v.valid:
            errors.append(f"$.mindspore[{i}].version: {row.get('version')!r} is not a version")
        if v in seen:
            errors.append(f"$.mindspore[{i}].version: {row.get('version')!r} appears twice")
        seen.add(v)
    for i, row in enumerate(data.get("compilers") or []):
        for c in row.get("cann") or []:
            if not parse_version(c.get("release")).valid:
                errors.append(f"$.compilers[{i}]: release {c.get('release')!r} is not a version")
    return errors[:50]


def validate_matrix(data: Any, schema: Optional[dict] = None) -> List[str]:
    if schema is None:
        schema = load_data_file(SCHEMA_FILE)
    from .schema import schema_errors  # the full walk: tests, `matrix update` and a cached download only

    errs = schema_errors(data, schema)
    if not errs and isinstance(data, dict):
        errs = semantic_errors(data)
    return errs


# ---------------------------------------------------------------------------
# the typed query API

# Roles of a MindSpore row's CANN entries that are published pairings, best first (scripts/build_matrix.py):
# "recommended" = the MindSpore release list / install guide names it; "paired" = MindFormers' version table,
# ascend-deployer's version_match.json, the hiascend quick-install guide or MindCluster release notes pair them.
# Not published: "built-with" (the wheel's custom-op build CANN) and "third-party" (an unattributed guide).
PUBLISHED_ROLES = ("recommended", "paired")
PYPI_SOURCE = "pypi_mindspore"


def _release_words(text: Any) -> List[str]:
    """'8.3rc1' -> ['8', '3', 'rc', '1']: a release name's numbers and words, whatever the separators and case."""
    return re.findall(r"[a-z]+|\d+", str(text or "").lower())


def _norm_ms(v: Any) -> str:
    return str(v or "").strip().split("+", 1)[0]



# The documents the matrix cites most, by the name a Chinese report gives them (their repository and path):
# describe_source says these names in Chinese instead of the file at a commit. The names are kept here, not in the
# catalog, so that a report made in English carries them too (report/2 is worded again in either language) and an
# English run reads no Chinese catalog.
SOURCE_NAMES = (
    (re.compile(r"^mindspore-lab/mindformers:README"), "MindFormers 版本配套表"),
    (re.compile(r"^mindspore-ai/docs:install/mindspore_gpu_install"), "MindSpore GPU 安装指南"),
    (re.compile(r"^mindspore-ai/docs:install/"), "MindSpore 安装指南"),
    (re.compile(r"^mindspore-ai/docs:resource/release/release_list"), "MindSpore 版本发布列表"),
    (re.compile(r"run_check/_check_version\.py$"), "MindSpore 版本自检（_check_version.py）"),
    (re.compile(r"^Ascend/docs:_static/package_info\.js"), "昇腾文档 package_info"),
)

class Matrix:
    def __init__(self, data: dict, source: str = "bundled", path: Optional[str] = None, note: Optional[str] = None,
                 origin: Optional[str] = None):
        self.data = data
        self.source = source  # "bundled" or the cache file path
        self.path = path
        self.note = note  # why the cache was not used, if it was ignored
        self.origin = origin  # for a cached matrix: the URL or file `matrix update` took it from

    def __getitem__(self, key):  # plain-dict access for callers that want the raw rows
        return self.data[key]

    @property
    def version(self) -> str:
        return self.data["matrix_version"]

    @property
    def date(self) -> str:
        return self.data["date"]

    def info(self) -> Dict[str, Any]:
        out = {"version": self.version, "date": self.date, "source": self.source}
        if self.origin:
            out["from"] = self.origin
        if self.note:
            out["note"] = self.note
        return out

    # -- sources
    def source_title(self, sid: str) -> str:
        """What a reader can open for one source id: repo:path@commit, or the URL (never a bare index id)."""
        s = self.data["sources"].get(sid, {})
        if s.get("repo"):
            where = s["repo"] + (f":{s['path']}" if s.get("path") else "")
            if s.get("commit"):
                where += f"@{s['commit'][:8]}"
            elif s.get("ref"):
                where += f"@{s['ref']}"
            return where
        if s.get("url"):
            return s["url"] + (f" ({s['file']})" if s.get("file") else "")
        if s.get("type") == "code_index_excerpt":  # the fs:... ids: the index did not resolve a repository or URL
            return "an excerpt of a stored code index (no repository or URL recorded)"
        return sid

    def sources_of(self, ids: List[str]) -> List[dict]:
        return [self.data["sources"][sid] for sid in ids or [] if sid in self.data["sources"]]

    def source_name(self, sid: str) -> Optional[str]:
        """The Chinese name of a source (SOURCE_NAMES), where the source is one of those documents."""
        s = self.data["sources"].get(sid, {})
        where = f"{s.get('repo', '')}:{s.get('path', '')}"
        return next((name for pattern, name in SOURCE_NAMES if pattern.search(where)), None)

    def describe_source(self, ids: List[str]) -> str:
        """The sources of a value: in English each as a reader opens it (source_title: repo:path@commit, the URL);
        in Chinese by the document's name (SOURCE_NAMES: MindFormers 版本配套表), else the repository file without
        its section and commit, or the URL (review 3: no English section titles and hashes in a Chinese report)."""
        ids = list(dict.fromkeys(ids or []))
        en = "; ".join(dict.fromkeys(self.source_title(sid) for sid in ids))
        zh = "、".join(dict.fromkeys(self.source_name(sid) or self._source_plain(sid) for sid in ids))
        return Bilingual(en, zh) if en else en

    def _source_plain(self, sid: str) -> str:
        s = self.data["sources"].get(sid, {})
        if s.get("repo") and s.get("path"):
            return f"{s['repo']}:{s['path'].split(' (', 1)[0]}"
        return self.source_title(sid)

    def source_short(self, ids: List[str]) -> str:
        """The sources as a sentence cites them in its brackets: a repository file without its section and commit
        ("mindspore-lab/mindformers:README.md"), else the full title (the evidence keeps describe_source)."""
        return "; ".join(dict.fromkeys(self._source_plain(sid) for sid in ids or []))

    # -- MindSpore
    @property
    def mindspore_releases(self) -> List[dict]:
        return self.data["mindspore"]

    def rows_for_mindspore(self, version: Any) -> List[dict]:
        """The row(s) for this MindSpore version (2.7.0rc1 and 2.7.0-rc1 are the same release)."""
        v = parse_version(_norm_ms(version))
        if not v.valid:
            return []
        return list(self._mindspore_index().get(v, []))

    def _mindspore_index(self) -> Dict[Any, List[dict]]:
        """Parsed version -> the MindSpore rows with that version or pip version, in matrix order (Versions
        that compare equal hash alike), built on first use: the advice asks for the row of each release, and
        parsing every row's versions for each question was 3,600 parses (~12 ms) per check of an Ascend node."""
        index = self.__dict__.get("_ms_index")
        if index is None:
            index = {}
            for r in self.mindspore_releases:
                for v in dict.fromkeys((parse_version(r["version"]), parse_version(r["pip_version"]))):
                    index.setdefault(v, []).append(r)
            self._ms_index = index
        return index

    def mindspore_row(self, version: Any) -> Optional[dict]:
        rows = self.rows_for_mindspore(version)
        return rows[0] if rows else None

    def accepted_compilers(self, mindspore: Any) -> Optional[List[str]]:
        row = self.mindspore_row(mindspore)
        return list(row["checker"]["accepted_compilers"]) if row else None

    def mindspore_for_compiler(self, compiler: Any, finals_only: bool = False) -> List[dict]:
        """MindSpore releases whose checker accepts this compiler value, newest first."""
        mm = compiler if re.fullmatch(r"\d+\.\d+", str(compiler or "")) else major_minor(compiler)
        rows = [r for r in self.mindspore_releases if mm in r["checker"]["accepted_compilers"]]
        if finals_only:
            finals = [r for r in rows if r["release_kind"] in ("final", "post")]
            rows = finals or rows
        return sorted(rows, key=lambda r: version_key(r["version"]), reverse=True)

    # -- published pairings (what a fix may recommend)
    def published_canns(self, mindspore: Any) -> List[dict]:
        """The CANN releases a vendor source publishes for this MindSpore release (its release list or install
        guide recommends it, or the MindFormers / ascend-deployer tables pair them), best first.

        Only these may appear in a fix: the checker's accepted list only decides whether MindSpore prints a
        warning, and a wheel's custom-op build CANN or a third-party guide is not a published pairing."""
        # asked for every release by published_mindspore_for_cann, and again for each state the planner judges:
        # answered once per release (a matrix is not changed after it is loaded; `matrix update` loads a new one)
        cache = self.__dict__.setdefault("_published_canns", {})
        key = str(mindspore)
        if key not in cache:
            cache[key] = self._published_canns_uncached(mindspore)
        return [dict(e, by=list(e["by"]), source=list(e["source"])) for e in cache[key]]

    def _published_canns_uncached(self, mindspore: Any) -> List[dict]:
        row = self.mindspore_row(mindspore)
        if not row:
            return []
        out: Dict[str, dict] = {}
        for c in row["cann"]:
            if c["role"] not in PUBLISHED_ROLES:
                continue
            entry = out.setdefault(c["cann"], {"cann": c["cann"], "by": [], "source": [],
                                               "rank": PUBLISHED_ROLES.index(c["role"])})
            if c["by"] not in entry["by"]:
                entry["by"].append(c["by"])
            entry["source"] += [s for s in c["source"] if s not in entry["source"]]
            entry["rank"] = min(entry["rank"], PUBLISHED_ROLES.index(c["role"]))
        return sorted(out.values(), key=lambda e: (e["rank"], [-x for x in parse_version(e["cann"]).numbers()]))

    def published_mindspore_for_cann(self, release: Any = None, compiler: Any = None, python: Any = None,
                                     platform: Optional[str] = None) -> List[dict]:
        """Final MindSpore releases published as a pairing with this CANN release, newest first; with `python`
        (and `platform`), only releases with a wheel for that Python.

        The CANN is named by its release (8.0.RC3) or, when the release is unknown, by its compiler version
        (7.5.0.1.129): then every release with that compiler value counts."""
        cache = self.__dict__.setdefault("_published_ms", {})  # asked again for each state the planner judges
        key = (str(release), str(compiler), str(python), str(platform))
        if key not in cache:
            cache[key] = self._published_mindspore_for_cann(release, compiler, python, platform)
        return list(cache[key])

    def _published_mindspore_for_cann(self, release: Any, compiler: Any, python: Any,
                                      platform: Optional[str]) -> List[dict]:
        names = [release] if release else [c["release"] for c in self.cann_for_compiler(compiler)] if compiler else []
        names = [n for n in names if n]
        if not names:
            return []
        rows = []
        for r in self.mindspore_releases:
            if r["release_kind"] not in ("final", "post"):
                continue
            if any(release_matches(n, c["cann"]) for c in self.published_canns(r["version"]) for n in names):
                rows.append(r)
        if python:
            fits = {r["version"] for r in self.mindspore_for_python(python, platform)}
            rows = [r for r in rows if r["version"] in fits]
        return sorted(rows, key=lambda r: version_key(r["version"]), reverse=True)

    def built_with_mindspore_for_cann(self, release: Any, python: Any = None,
                                      platform: Optional[str] = None) -> List[dict]:
        """Final MindSpore releases whose wheel's custom ops are built with this CANN release and whose own checker
        accepts its compiler (both read from the wheel), newest first; with `python`, only releases with a wheel for
        it. Such a release runs on that CANN as shipped: a pip-level fix that keeps the CANN in use."""
        if not release:
            return []
        rows = []
        for r in self.mindspore_releases:
            built = (r.get("custom_ops_built_with") or {}).get("compiler_version")
            if r["release_kind"] not in ("final", "post") or not built:
                continue
            if release_matches(release, built) and release_matches(built, release) and \
                    major_minor(release) in r["checker"]["accepted_compilers"]:
                rows.append(r)
        if python:
            fits = {r["version"] for r in self.mindspore_for_python(python, platform)}
            rows = [r for r in rows if r["version"] in fits]
        return sorted(rows, key=lambda r: version_key(r["version"]), reverse=True)

    def newest_published_pairing(self, python: Any = None, platform: Optional[str] = None) -> Optional[Tuple[dict, dict]]:
        """(MindSpore row, its best published CANN) for the newest final release that has one (the 'upgrade CANN'
        way out), or None."""
        cache = self.__dict__.setdefault("_newest_pairing", {})  # asked by every MindSpore advice
        key = (str(python), str(platform))
        if key not in cache:
            cache[key] = self._newest_published_pairing(python, platform)
        return cache[key]

    def _newest_published_pairing(self, python: Any, platform: Optional[str]) -> Optional[Tuple[dict, dict]]:
        fits = {r["version"] for r in self.mindspore_for_python(python, platform)} if python else None
        for r in sorted(self.mindspore_releases, key=lambda r: version_key(r["version"]), reverse=True):
            if r["release_kind"] not in ("final", "post") or (fits is not None and r["version"] not in fits):
                continue
            canns = self.published_canns(r["version"])
            if canns:
                return r, canns[0]
        return None

    def on_pypi(self, row: dict) -> bool:
        """Whether PyPI carries this MindSpore release (`pip install mindspore==X` resolves)."""
        return on_pypi(row)

    # -- CANN
    def cann_for_compiler(self, compiler: Any) -> List[dict]:
        """CANN release(s) whose compiler/version.info has this major.minor ([] = none known)."""
        mm = compiler if re.fullmatch(r"\d+\.\d+", str(compiler or "")) else major_minor(compiler)
        for row in self.data["compilers"]:
            if row["compiler"] == mm:
                return [dict(c, source=row["source"]) for c in row["cann"]]
        return []

    def cann_python(self, release: Any) -> Optional[dict]:
        """The Python range ({min, max, source, ...}) the CANN install guide states for this release, else the one
        stated for another release of its train (8.3.RC2 -> 8.3.RC1: the install guides of a train state one
        range); None when no source states one."""
        row = self.cann_row(release) if release else None
        if row and row.get("python"):
            return row["python"]
        mm = major_minor(release) if release else None
        train = [r for r in self.data["cann"] if r.get("python") and mm and major_minor(r["release"]) == mm]
        return train[0]["python"] if train else None

    def python_in_cann_range(self, python: Any, release: Any) -> bool:
        """Whether this Python major.minor is inside the CANN release's stated range (True when none is stated)."""
        rng = self.cann_python(release)
        if not rng or not python:
            return True
        v = version_key(python_major_minor(python))
        return version_key(rng["min"]) <= v <= version_key(rng["max"])

    def cann_row(self, release: Any) -> Optional[dict]:
        """The CANN release row this name belongs to (8.0.RC2.beta1 -> 8.0.RC2); the longest match wins.

        Any spelling of the release name the version parser reads the same way finds the row too:
        8.3rc1, 8.3RC1, 8.3-rc1 and 8.3.RC1 are one release (same fields, other separators and case)."""
        best = None
        for row in self.data["cann"]:
            if release_matches(release, row["release"]):
                if best is None or len(row["release"]) > len(best["release"]):
                    best = row
        if best is None:
            words = _release_words(release)
            for row in self.data["cann"]:
                mine = _release_words(row["release"])
                if mine and words[:len(mine)] == mine and (best is None or len(mine) > len(_release_words(best["release"]))):
                    best = row
        return best

    def canonical_cann(self, release: Any) -> Any:
        """The matrix's own spelling of a CANN release name (8.3rc1 -> 8.3.RC1), else the name as given."""
        row = self.cann_row(release)
        if row is None:
            return release
        given = _release_words(release)
        # a build of the release (8.0.RC2.beta1) keeps its own name: it is not the release itself
        return row["release"] if given == _release_words(row["release"]) else release

    def compiler_for_cann(self, release: Any) -> Tuple[Optional[str], str, str]:
        """(compiler major.minor, confidence, basis) for a CANN release name."""
        row = self.cann_row(release)
        if row and row.get("compiler"):
            c = row["compiler"][0]
            return c["value"], c["confidence"], c.get("note") or f"CANN {row['release']}"
        nums = parse_version(release).numbers()
        # From CANN 8.2 on, the release name and the compiler version line up (compat_facts.md §2).
        if len(nums) >= 2 and (nums[0], nums[1]) >= (8, 2):
            return f"{nums[0]}.{nums[1]}", "medium", "from CANN 8.2 on the compiler version equals the release number"
        return None, "unknown", "no compiler version known for this CANN release"

    def cann_candidates(self, mindspore: Any) -> List[dict]:
        """CANN releases to install for this MindSpore, best first, each with its compiler value and
        whether MindSpore's own checker accepts it. Sources that name a CANN the checker rejects are kept
        (accepted False) so the verdict can say they disagree."""
        row = self.mindspore_row(mindspore)
        if not row:
            return []
        accepted = row["checker"]["accepted_compilers"]
        out: Dict[str, dict] = {}
        rank = {"recommended": 0, "paired": 1, "built-with": 2, "third-party": 4}
        for c in row["cann"]:
            mm, _conf, _basis = self.compiler_for_cann(c["cann"])
            entry = out.setdefault(c["cann"], {"cann": c["cann"], "builds": [], "compiler": mm,
                                               "accepted": (mm in accepted) if mm else None, "named_by": [],
                                               "rank": rank[c["role"]], "confidence": c["confidence"]})
            if c.get("build") and c["build"] not in entry["builds"] and c["build"] != c["cann"]:
                entry["builds"].append(c["build"])
            entry["named_by"].append({"role": c["role"], "by": c["by"], "source": c["source"],
                                      "confidence": c["confidence"], "hdk": c.get("hdk")})
            entry["rank"] = min(entry["rank"], rank[c["role"]])
        for mm in accepted:  # the checker's own list, read through the compiler map
            for c in self.cann_for_compiler(mm):
                entry = out.setdefault(c["release"], {"cann": c["release"], "builds": [], "compiler": mm, "accepted": True,
                                                      "named_by": [], "rank": 3, "confidence": c["confidence"]})
                entry["named_by"].append({"role": "accepted-by-checker", "by": f"checker accepts compiler {mm}",
                                          "source": row["checker"]["source"] + c["source"], "confidence": c["confidence"]})
        return sorted(out.values(), key=lambda e: (e["accepted"] is False, e["rank"], [-x for x in
                                                   parse_version(e["cann"]).numbers()]))

    def hdk_for_cann(self, release: Any) -> List[dict]:
        cache = self.__dict__.setdefault("_hdk_cache", {})  # asked for each state the planner judges
        key = str(release)
        if key not in cache:
            cache[key] = self._hdk_for_cann(release)
        return list(cache[key])

    def _hdk_for_cann(self, release: Any) -> List[dict]:
        rows = [r for r in self.data["cann_hdk"] if release_matches(release, r["cann"])]
        # 8.5.0.alpha001 rows apply to that build only, not to 8.5.0 itself.
        return [r for r in rows if len(r["cann"].split(".")) <= len(str(release).split(".")) or r["cann"] == release]

    def driver_sample(self, version: Any) -> Optional[dict]:
        v = str(version or "").strip().lower()
        for s in self.data["driver_samples"]:
            if s["version"].lower() == v:
                return s
        return None

    def firmware_sample(self, version: Any) -> Optional[dict]:
        v = str(version or "").strip()
        for s in self.data["firmware_samples"]:
            if s["version"] == v:
                return s
        return None

    def firmware_for_hdk(self, hdk: Any) -> List[dict]:
        return [r for r in self.data["hdk_firmware"] if release_matches(r["hdk"], hdk) or release_matches(hdk, r["hdk"])]

    # -- Python / CUDA
    def python_for(self, mindspore: Any, platform: Optional[str], flavour: Optional[str]) -> Optional[dict]:
        """The most specific python row: same platform and flavour, then same platform, then any."""
        row = self.mindspore_row(mindspore)
        if not row or not row["python"]:
            return None
        rows = row["python"]
        for pred in (lambda r: r["platform"] == platform and r["flavour"] == flavour,
                     lambda r: r["platform"] == platform and r["flavour"] in ("any", "ascend"),
                     lambda r: r["platform"] == platform):
            hit = [r for r in rows if pred(r)]
            if hit:
                return hit[0]
        union = sorted({p for r in rows for p in r["python"]}, key=version_key)
        return {"platform": "any", "flavour": "any", "python": union, "source": rows[0]["source"],
                "confidence": rows[0]["confidence"], "note": f"no row for {platform}; union of all platforms"}

    def mindspore_for_python(self, python: Any, platform: Optional[str]) -> List[dict]:
        mm = python_major_minor(python)
        out = []
        for r in self.mindspore_releases:
            rows = [x for x in r["python"] if x["platform"] == platform] or r["python"]
            if any(mm in x["python"] for x in rows) and r["release_kind"] in ("final", "post"):
                out.append(r)
        return sorted(out, key=lambda r: version_key(r["version"]), reverse=True)

    def pythons_with_wheels(self, platform: Optional[str], minimum: Any = None) -> List[str]:
        """The Pythons (major.minor, oldest first) that some final MindSpore release, `minimum` or later, has a
        wheel for on `platform` (a release without rows for that platform counts with all of its rows)."""
        out = set()
        for r in self.mindspore_releases:
            if r["release_kind"] not in ("final", "post"):
                continue
            if minimum is not None and version_key(r["version"]) < version_key(minimum):
                continue
            rows = [x for x in r["python"] if x["platform"] == platform] or r["python"]
            out.update(p for x in rows for p in x["python"])
        return sorted(out, key=version_key)

    def cudnn_for_cuda(self, cuda: Any, mindspore: Any = None) -> Optional[dict]:
        """The cuDNN the install guide pairs with this CUDA: the guide of that MindSpore release when it has one,
        else the matrix's cuda_cudnn table."""
        mm = major_minor(cuda)
        row = self.mindspore_row(mindspore) if mindspore else None
        guide = ((row or {}).get("gpu") or {}).get("install_guide")
        if guide and mm in guide.get("cudnn", {}):
            return {"cuda": mm, "cudnn": guide["cudnn"][mm], "source": guide["source"], "confidence": guide["confidence"]}
        for r in self.data["cuda_cudnn"]:
            if r["cuda"] == mm:
                return r
        return None

    # -- MindSpore on CUDA
    def gpu_verdict(self, mindspore: Any, cuda: Any) -> Dict[str, Any]:
        """How MindSpore's sources judge this CUDA for this release (data/compat_matrix.json rules.mindspore_gpu_build):
        {"status": pass|warn|fail|unknown, "why": built|checker-only|disputed|not-accepted|outside|no-row
         (checker-only: the checker accepts it and a build of the same CUDA major loads with it),
         "built_for", "checker", "guide", "disputed" (the row's entry for this CUDA, if any), "source"}."""
        mm = major_minor(cuda)
        row = self.mindspore_row(mindspore)
        if not row:
            return {"status": "unknown", "why": "no-row", "built_for": [], "checker": [], "guide": [], "source": []}
        gpu = row["gpu"]
        built = gpu["built_for"]["value"]
        checker = (gpu.get("cuda_checker") or {}).get("value", [])
        guide = (gpu.get("install_guide") or {}).get("cuda", [])
        disputed = next((d for d in gpu.get("disputed", []) if d["cuda"] == mm), None)
        sources = list(dict.fromkeys(
            (gpu.get("cuda_checker") or {}).get("source", []) + (gpu.get("install_guide") or {}).get("source", [])
            + (gpu.get("cuda_plugins") or {}).get("source", []) + (gpu.get("cuda_wheels") or {}).get("source", [])))
        out = {"built_for": built, "checker": checker, "guide": guide, "disputed": disputed, "source": sources}
        if mm in built and (mm in checker or not checker):
            return dict(out, status="pass", why="built")
        if disputed:
            return dict(out, status="warn", why="disputed")
        if mm in built:
            return dict(out, status="warn", why="not-accepted")
        same_major = [c for c in built + [d["cuda"] for d in gpu.get("disputed", [])]
                      if c.split(".")[0] == mm.split(".")[0]]
        if mm in checker and same_major:
            return dict(out, status="warn", why="checker-only")
        # outside the checker and the builds, or accepted by the checker with no build of its major to load
        # (a CUDA 11 plugin needs libcudart.so.11.0, which a CUDA 10.1 runtime does not have)
        return dict(out, status="fail", why="outside")

    def gpu_cuda_options(self, mindspore: Any) -> List[str]:
        """The CUDA versions a GPU build of this release is (or is said to be) made for, best first: the guide's
        recommended CUDA, then newest first; builds every source agrees on before disputed ones."""
        row = self.mindspore_row(mindspore)
        if not row:
            return []
        gpu = row["gpu"]
        rec = (gpu.get("install_guide") or {}).get("recommended")
        agreed = sorted(gpu["built_for"]["value"], key=lambda c: (c != rec, [-x for x in parse_version(c).numbers()]))
        disputed = sorted((d["cuda"] for d in gpu.get("disputed", []) if d["cuda"] not in agreed),
                          key=lambda c: (c != rec, [-x for x in parse_version(c).numbers()]))
        return agreed + disputed

    def nvidia_driver_min(self, cuda: Any) -> Dict[str, Any]:
        """The NVIDIA driver a CUDA runtime needs (rules.nvidia_driver_cuda): {"cuda", "runs" (NVIDIA's least driver
        it runs on at all), "asked" (the most a source asks: MindSpore's guide or the toolkit's own driver), "by":
        [(driver, who, source ids)]} with who one of nvidia-minor-compat | nvidia-toolkit | mindspore-guide;
        runs None when no source names this CUDA."""
        mm = major_minor(cuda)
        if not mm:
            return {"cuda": cuda, "runs": None, "asked": None, "by": []}
        major = mm.split(".")[0]
        by = []
        runs = None
        for r in self.data.get("nvidia_driver", []):
            if r["cuda"] == major and r["kind"] == "minor-compat":
                runs = r["driver"]
                by.append((r["driver"], "nvidia-minor-compat", r["source"]))
            elif r["cuda"] == mm and r["kind"] == "toolkit":
                if runs is None and int(major) < 11:  # before CUDA 11 a runtime needs its own toolkit's driver
                    runs = r["driver"]
                by.append((r["driver"], "nvidia-toolkit", r["source"]))
        for row in self.mindspore_releases:
            guide = row["gpu"].get("install_guide") or {}
            d = guide.get("driver_min", {}).get(mm)
            if d and not any(x[0] == d and x[1] == "mindspore-guide" for x in by):
                by.append((d, "mindspore-guide", guide["source"]))
        asked = max((x[0] for x in by), key=lambda v: parse_version(v).numbers(), default=None)
        return {"cuda": mm, "runs": runs, "asked": asked, "by": by}

    def mindspore_gpu_for_cuda(self, cudas: List[str], python: Any = None, platform: Optional[str] = None) -> List[dict]:
        """Final MindSpore releases with a GPU build (every source agreeing) for one of these CUDA versions, newest
        first; with `python`, only those with a GPU wheel for it."""
        mms = {major_minor(c) for c in cudas}
        pm = python_major_minor(python) if python else None
        out = []
        for r in self.mindspore_releases:
            if r["release_kind"] not in ("final", "post") or not mms & set(r["gpu"]["built_for"]["value"]):
                continue
            if pm:
                rows = [x for x in r["python"] if x["platform"] == (platform or "linux-x86_64")
                        and x["flavour"] in ("gpu", "any")]
                if rows and not any(pm in x["python"] for x in rows):
                    continue
                if not rows:
                    continue
            out.append(r)
        return sorted(out, key=lambda r: version_key(r["version"]), reverse=True)


# ---------------------------------------------------------------------------
# loading: bundled vs cached

def cache_dir(environ: Optional[dict] = None) -> str:
    env = os.environ if environ is None else environ
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ascend-doctor")


def cache_path(environ: Optional[dict] = None) -> str:
    return os.path.join(cache_dir(environ), MATRIX_FILE)


def _quick_errors(data: Any) -> List[str]:
    """The top level against the schema (its type, required fields, the format id and each field's type): cheap
    enough for every run, where the full walk costs ~30x the JSON parse."""
    from .schema import schema_errors

    return schema_errors(data, load_data_file(SCHEMA_FILE), limit=1, max_depth=1)


def load_bundled(full_validation: bool = False) -> Matrix:
    """The matrix shipped with the package. Its full schema check runs in the test suite (and with
    full_validation); at run time only the shape is checked, since the file ships with the code."""
    path = data_path(MATRIX_FILE)
    data = load_json_file(path)
    errs = validate_matrix(data) if full_validation else _quick_errors(data)
    if errs:
        raise DataError(_("{path}: {error} (the installed matrix is broken; reinstall ascend-doctor)").format(
            path=path, error=errs[0]))
    return Matrix(data, "bundled", path)


def load_cached(environ: Optional[dict] = None, newer_than: Optional[str] = None
                ) -> Tuple[Optional[Matrix], Optional[str]]:
    """(matrix, None) or (None, why it was not usable); (None, None) when there is no cache or it is
    not newer than `newer_than` (then it would not be used, so it is not validated either)."""
    path = cache_path(environ)
    if not os.path.isfile(path):
        return None, None
    try:
        data = load_json_file(path)
    except DataError as exc:
        return None, _("cached matrix ignored: {reason}").format(reason=exc)
    if newer_than is not None and isinstance(data, dict) and isinstance(data.get("matrix_version"), str) \
            and compare_versions(data["matrix_version"], newer_than) <= 0:
        return None, None
    # A file on disk outside the package can be edited or damaged: the full schema check, every time.
    errs = validate_matrix(data)
    if errs:
        return None, _("cached matrix ignored: {reason}").format(reason=f"{path}: {errs[0]}")
    return Matrix(data, path, path, origin=_cached_origin(path)), None


def _cached_origin(path: str) -> Optional[str]:
    """Where `matrix update` took the cached file from, when its record still matches the file."""
    import hashlib  # only when a `matrix update` download is cached

    try:
        with open(path + ORIGIN_SUFFIX, "r", encoding="utf-8") as fh:
            record = json.load(fh)
        with open(path, "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("sha256") != digest:
        return None
    return str(record.get("from") or "") or None


_run_matrix: Optional[Tuple[tuple, Matrix]] = None


def matrix_for_checks() -> Matrix:
    """The matrix the checks judge with: `load_matrix()` once per process, and again only when the cached download
    it reads is another file than last time (a `matrix update` or another cache directory since, in a program that
    runs the doctor more than once)."""
    global _run_matrix
    path = cache_path()
    try:
        st = os.stat(path)
        key: tuple = (path, st.st_mtime_ns, st.st_size, st.st_ino)
    except OSError:
        key = (path,)
    if _run_matrix is None or _run_matrix[0] != key:
        _run_matrix = (key, load_matrix())
    return _run_matrix[1]


def load_matrix(environ: Optional[dict] = None) -> Matrix:
    """The newer of the bundled and the cached matrix (bundled wins a tie)."""
    bundled = load_bundled()
    cached, why = load_cached(environ, newer_than=bundled.version)
    if cached:
        return cached
    if why:
        bundled.note = why
    return bundled


def on_pypi(row: dict) -> bool:
    """Whether PyPI's `mindspore` project carries this release: the row's on_pypi (the release list PyPI gives,
    read by scripts/read_wheel_plugins.py), else whether its Python rows cite the PyPI listing."""
    if "on_pypi" in row:
        return bool(row["on_pypi"]["value"])
    return any(PYPI_SOURCE in p["source"] for p in row.get("python", []))


def cann_kernels_named_ops(release: Any) -> bool:
    """Whether this CANN release names its operator package `ops` (from CANN 8.5.0 on: "算子包命名kernels更改为ops",
    https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/850/releasenote/releasenote_0001.html), not
    `kernels`."""
    try:
        return parse_version(str(release)) >= parse_version("8.5.0")
    except Exception:  # a name the parser cannot read: the older name, as before
        return False


def mindspore_install_steps(rows: List[dict], why: str, limit: int = 3) -> List[str]:
    """How to install each MindSpore release row: pip where PyPI has it, else the download page."""
    steps = []
    for row in rows[:limit]:
        if on_pypi(row):
            # the command as is, its comment (`why`, a message) worded where shown
            steps.append(join("   # ", [f"pip install mindspore=={row['pip_version']}", why]))
        else:
            # the step is a sentence (its own message, worded whole), its comment the reason
            steps.append(join("   # ", [_("install MindSpore {version} from {url}").format(
                version=row["version"], url="https://www.mindspore.cn/versions"),
                _("{why}; not on PyPI").format(why=why)]))
    return steps
