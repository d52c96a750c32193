#!/usr/bin/env python3
"""Build data/compat_matrix.json from the research notes' machine-readable twin (data/sources/compat_facts.json).

    python scripts/build_matrix.py [--facts PATH] [--out data/compat_matrix.json] [--check]

The committed data/compat_matrix.json is the source of truth; this script documents how
it was derived and re-derives it when the notes change (--check: exit 1 if the
committed file differs from what the notes give). Every row carries the source ids of
the facts it came from; ids resolve in the matrix's "sources" object. Nothing is
filled in that the notes do not say: a missing pairing stays missing ("unknown").

The few free-text tables of the notes (CANN <-> HDK pairings, compiler major.minor
<-> CANN release) are transcribed below as literal rows that keep the notes' source
ids and confidence, because their prose ("compatible with 25.2.X ... NOT with 25.0.X")
is not worth a parser.
"""

from __future__ import annotations

from typing import Optional

import argparse
import json
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from ascend_doctor.versions import major_minor, parse_innerversion_list, parse_range_list, version_key  # noqa: E402

# The research notes' machine-readable twin, kept in the repository (data/sources/README.md says where it
# comes from), so a clean clone can regenerate and check the matrix.
DEFAULT_FACTS = os.path.join(REPO, "data", "sources", "compat_facts.json")
DEFAULT_OUT = os.path.join(REPO, "data", "compat_matrix.json")
# The GPU facts read from MindSpore's GPU install guides (at each release) and its checker (at each tag) by
# scripts/extract_gpu_facts.py; kept in the repository like compat_facts.json.
DEFAULT_GPU_FACTS = os.path.join(REPO, "data", "sources", "gpu_facts.json")
# The lib/plugin folders of each 2.x release's PyPI wheels, read from the wheels' zip directories by
# scripts/read_wheel_plugins.py (releases PyPI does not carry are listed with why they were not read).
DEFAULT_WHEEL_PLUGINS = os.path.join(REPO, "data", "sources", "wheel_plugins.json")

MATRIX_VERSION = "2026.12.4.1"
MATRIX_DATE = "2026-12-04"
SCHEMA_ID = "ascend-doctor.compat-matrix/1"

# --- transcribed tables (compat_facts.md §2.2, §2.3) -------------------------------------------

# compiler/version.info major.minor -> CANN release(s). (release, confidence, note)
COMPILER_TO_CANN = {
    "1.79": [("5.0.3", "low", "inferred: MindSpore 1.5.x accepts only 1.79; its docs name Ascend Data Center Solution 21.0.3")],
    "1.80": [("5.0.4", "low", "inferred: MindSpore 1.6.x accepts only 1.80; Data Center Solution 21.0.4")],
    "1.81": [("5.1.RC1", "medium", "inferred: MindSpore 1.7.x accepts only 1.81; docs CANN 5.1.RC1.alpha005")],
    "1.82": [("5.1.RC2", "medium", "inferred: MindSpore 1.8.x accepts only 1.82; docs CANN 5.1.RC2.alpha008")],
    "1.83": [("6.0.RC1", "medium", "inferred: MindSpore 1.9.0/2.0.0-alpha accept only 1.83; docs CANN 6.0.RC1.alpha005")],
    "1.84": [("6.0.1", "high", "version.cfg [1.84.15.1.310:6.0.1]")],
    "6.3": [("6.3.RC1", "medium", "inferred: MindSpore 2.0.0 accepts 6.11/6.3; docs CANN 6.3.RC1.alpha003")],
    "6.11": [],
    "6.4": [("6.3.RC2", "medium", "inferred: MindSpore 2.1.x accepts only 6.4; docs CANN 6.3.RC2.alpha005")],
    "7.0": [("7.0.RC1", "high", "version.cfg [7.0.0.5.242:7.0.RC1]")],
    "7.1": [("7.0.0", "high", "version.cfg [7.1.0.3.220:7.0.0]")],
    "7.2": [("8.0.RC1", "medium", "inferred: MindSpore 2.3.0-rc1/rc2 accept only 7.2 with docs 8.0.RC1.beta1; "
                                  "8.0.RC2.alpha001 is 7.2.T11.0.B218")],
    "7.3": [("8.0.RC2", "high", "version.cfg [7.3.0.1.231:8.0.RC2]")],
    "7.5": [("8.0.RC3", "high", "version.cfg [7.5.0.1.129:8.0.RC3]")],
    "7.6": [("8.0.0", "high", "version.cfg [7.6.0.1.220:8.0.0]")],
    "7.7": [("8.1.RC1", "high", "version.cfg [7.7.0.1.238:8.1.RC1] and [7.7.T20.0.B210:8.1.RC1]")],
    "7.8": [],
    "8.2": [("8.2.RC1", "high", "toolkit/opp_kernel Version=8.2.0.0.201"), ("8.2.RC2", "high", "version.cfg [8.2.0.2.220:8.2.RC2]")],
    "8.3": [("8.3.RC1", "high", "version.cfg [8.3.0.1.200:8.3.RC1]"),
            ("8.3.RC2", "low", "same C23 train as 8.3.RC1 (innerversion V100R001C23SPC002); compiler value not seen")],
    "8.5": [("8.5.0", "high", "opp/version.info Version=8.5.0.2.220")],
    "9.0": [("9.0.0", "high", "MindSpore 2.9.0 custom_opp_compiler_version=9.0.0")],
    "9.1": [("9.1.0", "high", "compiler/version.info Version=9.1.0")],
}

# CANN <-> Ascend HDK (driver/firmware package). relation: paired = the HDK a source names as the
# CANN's partner; compatible = listed as working with it; incompatible = stated not to work.
CANN_HDK = [
    ("8.0.RC1", ["24.1.RC1"], "paired", "hiascend_mindcluster_6.0.RC1", "medium", "MindCluster 6.0.RC1 bundle"),
    ("8.0.RC2", ["24.1.RC2"], "paired", "mindformers_readme", "high", None),
    ("8.0.RC3", ["24.1.RC3"], "paired", "mindformers_readme", "high", None),
    ("8.0.0", ["24.1.0"], "paired", "mindformers_readme", "high", None),
    ("8.1.RC1", ["25.0.RC1"], "paired", "mindformers_readme", "high", None),
    ("8.2.RC1", ["25.2.0"], "paired", "mindformers_readme ascend_deployer_cann_json", "high", "ascend-deployer fork CANN_8.2.RC1.json"),
    ("8.2.RC1", ["25.2.0", "25.0.RC1", "24.1.0", "24.1.RC3", "24.1.RC2"], "compatible", "hiascend_mindie21rc1", "medium",
     "MindIE 2.1.RC1 compatibility list"),
    ("8.3.RC1", ["25.3.RC1"], "paired", "mindformers_readme ascend_deployer_cann_json", "high", "ascend-deployer fork CANN_8.3.RC1.json"),
    ("8.5.0", ["25.5.X", "25.3.X", "25.2.X", "25.0.X"], "compatible", "hiascend_cann850_rn", "high", "CANN 8.5.0 release notes"),
    ("8.5.0", ["25.5.1"], "paired", "hicann_release_mgmt", "high", "release-management 8.5.0 version line"),
    ("8.5.0", ["25.5.0"], "paired", "mindformers_readme", "high", "MindFormers 1.8.0 row"),
    ("8.5.0.alpha001", ["25.2.X"], "compatible", "hiascend_cann850a1_rn", "high", None),
    ("8.5.2", ["26.0.RC1", "25.5.2", "25.5.1"], "compatible", "hicann_release_mgmt", "high", "9.0.0/release-notes.md"),
    ("9.0.0", ["26.0.RC1"], "paired", "hicann_release_mgmt ascend_deployer_cann_json", "high", "ascend-deployer required_soft NPU 26.0.RC1"),
    ("9.0.0", ["26.0.RC1", "25.5.2", "25.5.1"], "compatible", "hicann_release_mgmt", "high", "9.0.0/release-notes.md"),
    ("9.0.0-beta.1", ["25.5.1"], "compatible", "hicann_release_mgmt", "high", None),
    ("9.0.1", ["26.0.RC3", "26.0.RC1", "25.5.2", "25.5.1"], "compatible", "gitcode_cann_rm_901", "high", None),
    ("9.1.0", ["26.0.RC1"], "paired", "hiascend_cann910_rn", "high", "mapping table"),
    ("9.1.0", ["25.2.X", "25.3.X", "25.5.X", "26.0.RC1", "25.7.RC1", "26.1.0"], "compatible", "hiascend_cann910_rn", "high",
     "compatibility grid"),
    ("9.1.0", ["25.0.X"], "incompatible", "hiascend_cann910_rn", "high", "release notes: not compatible with HDK 25.0.X"),
    ("9.1.0", ["26.1.0"], "paired", "hiascend_mindcluster2610", "high",
     "MindCluster 26.1.0 bundle, 'other products' (Atlas 350: 25.7.RC1, Atlas 950 SuperPoD: 25.1.RC1, Atlas 850E/650E: 25.6.RC1)"),
    ("9.1.1", ["26.1.1"], "paired", "hiascend_cann911_rn", "high", None),
    ("9.2.0", ["26.2.RC1"], "paired", "hiascend_cann920_rn", "high", None),
    ("9.2.0", ["25.3.X", "25.5.X", "26.0.RC1", "25.7.RC1", "26.1.1", "26.2.RC1"], "compatible", "hiascend_cann920_rn", "high",
     "compatibility grid"),
    ("9.2.0", ["25.0.X", "25.2.X"], "incompatible", "hiascend_cann920_rn", "high", "release notes: not compatible with HDK 25.0.X/25.2.X"),
    # the CANN 9.2.0 release notes' grid has rows for the older trains too (audit H, S5): 9.1.X and 9.0.X are Y for
    # HDK 26.1.1 and 26.2.RC1
    ("9.1.0", ["26.1.1", "26.2.RC1"], "compatible", "hiascend_cann920_rn", "high", "CANN 9.2.0 compatibility grid, 9.1.X row"),
    ("9.0.0", ["26.1.1", "26.2.RC1"], "compatible", "hiascend_cann920_rn", "high", "CANN 9.2.0 compatibility grid, 9.0.X row"),
    ("9.0.1", ["26.1.1", "26.2.RC1"], "compatible", "hiascend_cann920_rn", "high", "CANN 9.2.0 compatibility grid, 9.0.X row"),
]

# Commercial bundle named by the MindSpore docs -> CANN and (where a source pairs them) HDK (compat_facts.md §2.3).
BUNDLE_HDK = {
    "24.0.RC2": "24.1.RC2", "24.0.RC3": "24.1.RC3", "24.0.0": "24.1.0", "25.0.RC1": "25.0.RC1",
}

# Sources read after the research notes were written (audit H, /work/notes/s3/audit_H.md S12), not in data/sources.
AUDIT_SOURCES = {
    "hiascend_cann82rc1_instg": {
        "type": "doc_url",
        "url": "https://www.hiascend.com/document/detail/zh/canncommercial/82RC1/softwareinst/instg/instg_0001.html",
        "note": "CANN 8.2.RC1 install guide: Python 3.7.x to 3.11.4",
    },
}

CANN_PYTHON = [
    ("8.2.RC1", "3.7", "3.11", "hiascend_cann82rc1_instg", "high", "Python 3.7.x to 3.11.4"),
    ("8.3.RC1", "3.7", "3.11", "hiascend_cann83a_quick", "medium", "stated for 8.3.RC1.alpha001-003: Python 3.7.x to 3.11.4"),
    ("8.5.0", "3.7", "3.13", "hiascend_cann850_pip", "high", None),
    ("9.0.0", "3.7", "3.13", "hiascend_cann900_pip", "high", None),
    ("9.1.0", "3.7", "3.14", "hiascend_cann910_pip", "high", None),
]

# MindSpore GPUEnvChecker's cuDNN rule (compat_facts.md §4.1) and the install guides' pairs.
CUDA_CUDNN = [
    ("10.1", "7.6", "docs_install_r1.5", "medium", "install guides r1.5-r2.2: CUDA 10.1 with cuDNN 7.6.x"),
    ("11.1", "8.0", "docs_install_r1.5", "medium", "install guides r1.5-r2.2: CUDA 11.1 with cuDNN 8.0.x"),
    ("11.6", "8.5", "docs_install_r2.0", "medium", "install guides r2.0-r2.2: CUDA 11.6 with cuDNN 8.5.x"),
]

# Issue 22: the notes cite some compiler <-> CANN facts only by excerpt ids of a stored code index (fs:<n>: pasted
# version.cfg / version.info files whose repository or page could not be found, so a user cannot open them). Where a
# public source supports the pairing, the row cites it instead; it only supports an inference (the MindSpore release
# that first accepts the compiler value, and the CANN its install guide or MindFormers' table names), so the row is
# 'medium', like the 1.8x/6.x/7.2 rows. (public source ids, what they say)
COMPILER_PUBLIC = {
    "7.0": ("ms_tag_2.2.0 docs_release_list mindformers_v1.0.0",
            "MindSpore 2.2.0 accepts only \"7.0\"; its release list and MindFormers 1.0.0 name CANN 7.0.RC1.beta1"),
    "7.1": ("ms_tag_2.2.10 docs_install_r2.2 docs_release_list",
            "MindSpore 2.2.10 accepts only \"7.1\"; its release list and install guide name CANN 7.0.0.beta1"),
    "7.3": ("ms_tag_2.3.0 docs_install_r2.3.0", "MindSpore 2.3.0 adds \"7.3\"; its install guide names CANN 8.0.RC2"),
    "7.5": ("ms_tag_2.4.0 docs_install_r2.4.0", "MindSpore 2.4.0 adds \"7.5\"; its install guide names CANN 8.0.RC3"),
    "7.6": ("ms_tag_2.4.10 docs_install_r2.4.10", "MindSpore 2.4.10 adds \"7.6\"; its install guide names CANN 8.0.0"),
    "7.7": ("ms_tag_2.6.0-rc1 docs_install_r2.6.0rc1",
            "MindSpore 2.6.0-rc1 adds \"7.7\"; its install guide names CANN 8.1.RC1"),
    "8.2": ("wheel_2.7.0 mindformers_readme", "MindSpore 2.7.0 adds \"8.2\"; MindFormers pairs 2.7.0 with CANN 8.2.RC1"),
    "8.3": ("wheel_2.7.1 mindformers_readme vllm_ascend_issue_4621",
            "MindSpore 2.7.1 adds \"8.3\"; MindFormers pairs 2.7.1 with CANN 8.3.RC1"),
}
# Public locations found for facts the notes cite by excerpt id: fs id -> (source id, source entry).
FS_PUBLIC = {
    # HDK 24.1.rc3 ships firmware 7.5.0.1.129: a MindSpeed-LLM install guide installs exactly that pair
    "hdk_firmware:24.1.rc3": ("mindspeed_llm_install_guide", {
        "type": "repo_file", "repo": "moguizhizi/MindSpeed-LLM", "path": "docs/mindspore/features/install_guide.md",
        "commit": "4b412ca6d476c8cb90ffb4f6b526988933b4a3e1",
        "note": "a public fork of Ascend MindSpeed-LLM; its install guide runs Ascend-hdk-910b-npu-firmware_7.5.0.1.129.run "
                "and Ascend-hdk-910b-npu-driver_24.1.rc3_linux-aarch64.run"}),
}
UNLOCATED_NOTE = ("text seen only as an excerpt of a stored public code/doc index (a pasted version file); the repository "
                  "or page it was pasted in could not be found, so a user cannot open it. A row resting on such "
                  "excerpts alone is 'low' confidence")
CONFIDENCE_RANK = {"low": 0, "medium": 1, "high": 2}


def cap_unlocated(obj, unlocated: set) -> None:
    """Every object of the matrix whose cited sources are all unlocated excerpts is at most 'low' confidence."""
    if isinstance(obj, dict):
        srcs = obj.get("source")
        if isinstance(srcs, list) and srcs and all(s in unlocated for s in srcs) and obj.get("confidence") in CONFIDENCE_RANK:
            obj["confidence"] = "low"
        for v in obj.values():
            cap_unlocated(v, unlocated)
    elif isinstance(obj, list):
        for v in obj:
            cap_unlocated(v, unlocated)


# NVIDIA's minimum Linux x86_64 driver per CUDA runtime. kind "minor-compat": the least driver a runtime of that
# major family runs on (CUDA minor version compatibility, limited features: no PTX JIT of newer code); "toolkit":
# the driver the toolkit release itself requires (release notes, "CUDA Toolkit and Corresponding Driver Versions").
NVIDIA_DRIVER_MIN = [
    ("10.1", "418.39", "toolkit", "nvidia_cuda_compat",
     "Table 2 'CUDA Toolkit 10.x Minimum Required Driver Versions': CUDA 10.1 >= 418.39; before CUDA 11 every minor "
     "release needs its own driver"),
    ("11", "450.80.02", "minor-compat", "nvidia_cuda_compat nvidia_cuda_rn",
     "CUDA 11.x minor version compatibility: >= 450.80.02 (Linux)"),
    ("11.1", "455.23", "toolkit", "nvidia_cuda_rn", "CUDA 11.1 GA >= 455.23"),
    ("11.6", "510.39.01", "toolkit", "nvidia_cuda_rn", "CUDA 11.6 GA >= 510.39.01"),
    ("12", "525.60.13", "minor-compat", "nvidia_cuda_compat nvidia_cuda_rn",
     "CUDA 12.x minor version compatibility: >= 525.60.13 (Linux)"),
]
NVIDIA_SOURCES = {
    "nvidia_cuda_compat": {"type": "web_page", "url": "https://docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html",
                           "note": "NVIDIA CUDA Compatibility, 'Minor Version Compatibility': minimum driver per CUDA major "
                                   "family (11.x, 12.x) and, for 10.x, per minor release"},
    "nvidia_cuda_rn": {"type": "web_page", "url": "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html",
                       "note": "NVIDIA CUDA Toolkit Release Notes: 'CUDA Toolkit and Minimum Required Driver Version for CUDA "
                               "Minor Version Compatibility' and 'CUDA Toolkit and Corresponding Driver Versions' tables"},
}

PLATFORM_OF_ARCH = {"linux-aarch64": "linux-aarch64", "linux-x86_64": "linux-x86_64", "windows-x64": "windows-x86_64",
                    "macos-arm64": "macos-arm64", "macos-x64": "macos-x86_64"}

FILE_READ_KIND = [
    ("fwkacllib", "fixed/fwkacllib"),
    ("ASCEND_OPP_PATH", "opp_path"),
    ("ASCEND_HOME_PATH", "home_path"),
    ("compiler", "fixed/compiler"),
]


# --- helpers -----------------------------------------------------------------------------------

class Sources:
    """Resolve the notes' free-text source mentions to ids, adding fs:<n> index-excerpt ids."""

    def __init__(self, notes_sources: dict):
        self.table = {}
        for sid, s in notes_sources.items():
            if sid == "fs_ids":
                continue
            entry = {k: v for k, v in s.items() if v not in (None, "")}
            entry.setdefault("type", "other")
            self.table[sid] = entry
        self.used = set()

    def ids(self, text: str) -> list:
        out = []
        for m in re.finditer(r"fs_ids:(\d+)|fs:(\d+)|([A-Za-z][\w.\-]*)", text or ""):
            if m.group(1) or m.group(2):
                sid = "fs:" + (m.group(1) or m.group(2))
                self.table.setdefault(sid, {"type": "code_index_excerpt", "note": UNLOCATED_NOTE})
                out.append(sid)
            elif m.group(3) in self.table:
                out.append(m.group(3))
        out = list(dict.fromkeys(out))
        if not out:
            raise SystemExit(f"build_matrix: no known source id in {text!r}")
        self.used.update(out)
        return out


def release_family(name: str) -> str:
    """"7.0.RC1.3.beta1" -> "7.0.RC1"; "8.0.0.beta1" -> "8.0.0"; "9.0.0-beta.1" stays."""
    parts = name.split(".")
    return ".".join(parts[:3]) if len(parts) >= 3 else name


def clean_release(text: str) -> str:
    """"8.0.RC2 (8.0.RC2.beta1 in older tables)" -> "8.0.RC2"; 7.0.RC.beta1 typo is noted by the caller."""
    return text.split(" (")[0].strip()


def fact_map(release: dict) -> dict:
    out = {}
    for f in release["facts"]:
        out.setdefault(f["field"], []).append(f)
    return out


def file_read_kind(text: str) -> str:
    for needle, kind in FILE_READ_KIND:
        if needle in text:
            return kind
    return "other"


def release_kind(v: str) -> str:
    low = v.lower()
    if "post" in low:
        return "post"
    if "rc" in low:
        return "rc"
    if "alpha" in low or "beta" in low:
        return "pre"
    return "final"


# --- builders ----------------------------------------------------------------------------------

def build_mindspore_row(rel: dict, src: Sources, facts_compilers: list, gpu_rel: Optional[dict] = None,
                        wheel_rel: Optional[dict] = None, pypi_releases: Optional[set] = None) -> dict:
    v = rel["version"]
    fm = fact_map(rel)
    row = {"version": v, "pip_version": rel.get("pip_version") or v.replace("-rc", "rc"), "release_kind": release_kind(v)}

    # What the release's own AscendEnvChecker accepts; the tag and the wheel agree where both were read.
    acc = fm["ascend_compiler_version_accepted"]
    values = {tuple(f["value"]) for f in acc}
    if len(values) != 1:
        raise SystemExit(f"build_matrix: {v}: tag and wheel disagree on the accepted list: {values}")
    file_read = fm["ascend_version_file_read"][0]
    row["checker"] = {
        "accepted_compilers": list(acc[0]["value"]),
        "compare": "major.minor of the first Version= line",
        "on_mismatch": "warning",
        "file_read": file_read["value"],
        "file_read_kind": file_read_kind(file_read["value"]),
        "source": src.ids(" ".join(f["source"] for f in acc) + " " + file_read["source"]),
        "confidence": "high",
    }
    if "custom_op_build_cann_compiler_version" in fm:
        f = fm["custom_op_build_cann_compiler_version"][0]
        row["custom_ops_built_with"] = {"compiler_version": f["value"], "source": src.ids(f["source"]),
                                        "confidence": f["confidence"]}

    cann = []

    def add_cann(build, role, by, fact, note=None, hdk=None):
        entry = {"cann": release_family(build), "build": build, "role": role, "by": by,
                 "source": src.ids(fact["source"]), "confidence": fact["confidence"]}
        if hdk:
            entry["hdk"] = hdk
        if note or fact.get("note"):
            entry["note"] = note or fact.get("note")
        cann.append(entry)

    solution = (fm.get("ascend_commercial_solution") or fm.get("ascend_commercial_solution_installdoc") or [None])[0]
    for f in fm.get("cann_community_recommended", []):
        hdk = None
        if solution:
            bundle = solution["value"].rsplit(" ", 1)[-1]
            hdk = BUNDLE_HDK.get(bundle)
        add_cann(f["value"], "recommended", "MindSpore release list", f,
                 note=f"commercial bundle: {solution['value']}" if solution else None, hdk=hdk)
        if hdk:
            cann[-1]["hdk_confidence"] = "medium"
            cann[-1]["note"] += f"; bundle {bundle} is HDK {hdk} (same MindSpore release in the MindSpore docs and MindFormers)"
    if solution and not fm.get("cann_community_recommended"):
        # 1.5/1.6 name only the commercial bundle; the CANN release comes from the compiler value (an inference).
        for mm in fm["ascend_compiler_version_accepted"][0]["value"]:
            for rel, conf, note in COMPILER_TO_CANN.get(mm, []):
                cann.append({"cann": rel, "build": None, "role": "recommended", "by": "MindSpore release list (bundle only)",
                             "source": src.ids(solution["source"] + " " + " ".join(
                                 r["source"] for r in facts_compilers if r["mm"] == mm)),
                             "confidence": "low",
                             "note": f"the docs name only '{solution['value']}'; CANN {rel} is {note}"})
    for f in fm.get("cann_community_recommended_installdoc", []):
        add_cann(f["value"], "recommended", "MindSpore install guide", f)
    for f in fm.get("cann_paired_by_mindformers", []):
        note = "MindFormers wrote \"7.0.RC.beta1\"" if "7.0.RC.beta1" in f["value"] else None
        hdk_f = (fm.get("hdk_driver_firmware_paired_by_mindformers") or [None])[0]
        add_cann(clean_release(f["value"]), "paired", "MindFormers version table", f, note=note,
                 hdk=hdk_f["value"] if hdk_f else None)
    for f in fm.get("cann_per_ascend_deployer", []):
        add_cann(f["value"], "paired", "ascend-deployer version_match.json", f)
    for f in fm.get("cann_per_hiascend_doc", []):
        add_cann(f["value"], "paired", "hiascend quick-install guide", f)
    for f in fm.get("cann_per_mindcluster_6.0.RC1", []):
        add_cann("8.0.RC1", "paired", "MindCluster 6.0.RC1 release notes", f, hdk="24.1.RC1",
                 note="conflicts with MindSpore docs and MindFormers (8.0.RC2 with HDK 24.1.RC2); the checker accepts both")
    for f in fm.get("driver_firmware_third_party_table", []):
        val = f["value"]
        entry = {"cann": release_family(val["cann"]), "build": val["cann"], "role": "third-party",
                 "by": "unattributed install guide", "driver": val["driver"], "firmware": val["firmware"],
                 "source": src.ids(f["source"]), "confidence": f["confidence"]}
        cann.append(entry)
    if "custom_ops_built_with" in row and not any(c["role"] in ("recommended", "paired") for c in cann):
        built = row["custom_ops_built_with"]["compiler_version"]
        mm = major_minor(built)
        rels = [r for r, conf, _ in COMPILER_TO_CANN.get(mm, []) if conf == "high"]
        if rels:
            f = fm["custom_op_build_cann_compiler_version"][0]
            is_internal = ".T" in built
            add_cann(rels[-1], "built-with", "the wheel's custom-op build CANN", f,
                     note=(f"built with internal CANN build {built} of the {mm} train; {rels[-1]} is the release of that train"
                           if is_internal else f"built with CANN compiler {built}"))
            cann[-1]["confidence"] = "medium" if is_internal else "high"
    row["cann"] = cann

    python_rows = []
    for f in fm.get("wheels_published", []):
        by_key = {}
        for w in f["value"]:
            label = w["hardware_label"]
            flavours = [fl for fl, needle in (("ascend", "Ascend"), ("gpu", "GPU"), ("cpu", "CPU")) if needle in label]
            for fl in flavours:
                key = (PLATFORM_OF_ARCH.get(w["os_arch"], w["os_arch"]), fl)
                by_key.setdefault(key, set()).update(w["python"])
        for (platform, fl), pys in sorted(by_key.items()):
            python_rows.append({"platform": platform, "flavour": fl, "python": sorted(pys, key=version_key),
                                "source": src.ids(f["source"]), "confidence": f["confidence"]})
    for f in fm.get("python_versions_pypi", []):
        gaps = " ".join(g["value"] for g in fm.get("pypi_wheel_gaps", []))
        for platform in ("linux-x86_64", "linux-aarch64"):
            if any(r["platform"] == platform for r in python_rows):
                continue
            python_rows.append({"platform": platform, "flavour": "any", "python": list(f["value"]),
                                "source": src.ids(f["source"]), "confidence": f["confidence"],
                                "note": "PyPI files; the linux-aarch64 builds are the cpXY-none-any files"
                                        + (f"; gaps: {gaps}" if gaps else "")})
    row["python"] = python_rows

    hardware = []
    for field, by in (("hardware_installdoc", "install guide wording"), ("hardware_per_mindformers", "paired MindFormers release"),
                      ("prebuilt_custom_kernel_socs", "SoC kernels shipped in the wheel")):
        for f in fm.get(field, []):
            val = f["value"] if isinstance(f["value"], list) else [s.strip() for s in f["value"].split(",")]
            hardware.append({"value": val, "by": by, "source": src.ids(f["source"]), "confidence": f["confidence"]})
    row["hardware"] = hardware

    row["gpu"] = build_gpu(v, fm, gpu_rel or {}, src, wheel_rel)
    if pypi_releases is not None:
        row["on_pypi"] = {"value": row["pip_version"] in pypi_releases, "source": src.ids("pypi_mindspore")}
    guide = row["gpu"].get("install_guide")
    if guide and guide.get("python") and not any(p["flavour"] == "gpu" for p in python_rows):
        for arch in guide["arch"]:
            python_rows.append({"platform": PLATFORM_OF_ARCH.get(f"linux-{arch}", f"linux-{arch}"), "flavour": "gpu",
                                "python": guide["python"], "source": guide["source"], "confidence": guide["confidence"],
                                "note": "the Python range of the GPU install guide at this release"})

    notes = []
    if v == "2.6.0":
        notes.append("Sources disagree: MindSpore's docs recommend CANN 8.1.RC1.beta1 and its checker accepts 7.6/7.7; "
                     "ascend-deployer's version_match.json maps 2.6.0 to CANN 8.2.RC1, with which 2.6.0 prints the "
                     "version-mismatch warning.")
    if v == "2.3.0":
        notes.append("Sources disagree: MindSpore docs and MindFormers give CANN 8.0.RC2 with HDK 24.1.RC2; the MindCluster "
                     "6.0.RC1 bundle lists CANN 8.0.RC1 with HDK 24.1.RC1. The checker accepts both (7.2, 7.3).")
    if "7.8" in row["checker"]["accepted_compilers"]:
        notes.append("Accepts compiler 7.8, but no CANN release with a 7.8.x compiler is known.")
    if "6.11" in row["checker"]["accepted_compilers"]:
        notes.append("Accepts compiler 6.11, but no CANN release with a 6.11.x compiler is known.")
    if v == "2.3.0-rc6":
        notes.append("Exists only as a source tag; the release list has no 2.3.0-rc6 release.")
    if v in ("2.6.0", "2.7.0", "2.7.1"):
        notes.append("check_opp_kernel() raises 'Ascend opp_kernel is not installed' when opp_kernel is missing "
                     "(2.6.0, 2.7.0 and 2.7.1 per the notes).")
    if notes:
        row["notes"] = notes
    return row


def _python_range(text: str) -> list:
    """'3.7-3.9' -> ['3.7', '3.8', '3.9']; '3.7.5 or 3.9.0' -> ['3.7', '3.9']."""
    m = re.fullmatch(r"\s*3\.(\d+)\s*-\s*3\.(\d+)\s*", text or "")
    if m:
        return [f"3.{i}" for i in range(int(m.group(1)), int(m.group(2)) + 1)]
    return sorted({major_minor(x) for x in re.findall(r"3\.\d+(?:\.\d+)?", text or "")}, key=version_key)


def _repo_source(src: Sources, prefix: str, where: dict, note: str) -> str:
    sid = f"{prefix}{where['commit'][:10]}"
    entry = {"type": "repo_file", "repo": where["repo"], "path": where["path"], "commit": where["commit"], "note": note}
    if where.get("ref"):
        entry["ref"] = where["ref"]
    src.table.setdefault(sid, entry)
    return sid


def _apply_wheel(v: str, gpu: dict, wheel_rel: dict, src: Sources) -> bool:
    """The x86_64 PyPI wheel's lib/plugin/gpu<cuda> folders (data/sources/wheel_plugins.json) become cuda_plugins; the
    notes' transcription of the same wheel must agree. Returns whether a wheel was read; a release PyPI does not carry
    gets wheel_not_read (why), so the row says its CUDA list rests on the guide and the release list alone."""
    wheel = next((w for w in wheel_rel.get("wheels", []) if w["platform"] == "linux-x86_64"), None)
    if wheel is None:
        if wheel_rel.get("not_on_pypi"):
            gpu["wheel_not_read"] = wheel_rel["not_on_pypi"]
        return False
    sid = f"pypi_wheel_{v}"
    src.table.setdefault(sid, {"type": "package_file", "url": wheel["url"], "file": wheel["file"],
                               "sha256": wheel["sha256"],
                               "note": f"zip central directory read with HTTP range requests "
                                       f"(scripts/read_wheel_plugins.py); {wheel['files_in_wheel']} files"})
    values = list(wheel["plugin_gpu_dirs"])
    noted = gpu.get("cuda_plugins")
    if noted and noted["value"] != values:
        raise SystemExit(f"build_matrix: {v}: the notes' wheel plugins {noted['value']} are not the wheel's {values}")
    ascend = "with" if wheel["plugin_ascend"] else "without"
    gpu["cuda_plugins"] = {
        "value": values, "source": list(dict.fromkeys((noted or {}).get("source", []) + src.ids(sid))),
        "confidence": "high", "ascend_plugin": wheel["plugin_ascend"],
        "note": (", ".join(f"lib/plugin/gpu{c}" for c in values) or "no lib/plugin/gpu<cuda> folder")
                + f" ({ascend} lib/plugin/ascend) in {wheel['file']}"}
    return True


def build_gpu(v: str, fm: dict, gpu_rel: dict, src: Sources, wheel_rel: Optional[dict] = None) -> dict:
    """The GPU (CUDA) part of a MindSpore row: what each source says, and where they disagree.

    Sources, best first: the wheel's own lib/plugin/gpu<cuda> folders (what was built); the GPU install guide at this
    release and the release list's hardware labels (what was published); the checker at the tag (what MindSpore
    accepts at run time, cuda_checker). Without the wheel, a CUDA the guide and the release list do not both name is
    'disputed': the row keeps who names it and who does not, and the verdict is a warning naming both."""
    gpu: dict = {}
    for field, key in (("gpu_cuda_wheels", "cuda_wheels"), ("gpu_plugins_in_x86_wheel", "cuda_plugins"),
                       ("gpu_cuda_checker", "cuda_checker")):
        fs = fm.get(field, [])
        if fs:
            values = sorted({x for f in fs for x in f["value"]}, key=version_key)
            gpu[key] = {"value": values, "source": src.ids(" ".join(f["source"] for f in fs)),
                        "confidence": fs[0]["confidence"]}
    wheel_read = _apply_wheel(v, gpu, wheel_rel or {}, src)
    tag = gpu_rel.get("checker")
    if tag:
        sid = f"ms_tag_{v}"
        if src.table.get(sid, {}).get("commit") != tag["source"]["commit"]:
            sid = _repo_source(src, "ms_gpu_checker_", tag["source"], f"GPUEnvChecker at tag {tag['source']['ref']}")
        if "cuda_checker" in gpu and gpu["cuda_checker"]["value"] != tag["cuda"]:
            raise SystemExit(f"build_matrix: {v}: the notes' checker list {gpu['cuda_checker']['value']} is not the "
                             f"tag's {tag['cuda']}")
        gpu["cuda_checker"] = {"value": tag["cuda"], "as_seen": tag["line"],
                               "source": list(dict.fromkeys((gpu.get("cuda_checker") or {}).get("source", []) + src.ids(sid))),
                               "confidence": "high"}
    g = gpu_rel.get("install_guide")
    if g and g.get("cuda"):
        sid = _repo_source(src, "docs_gpu_guide_", g["source"],
                           f"MindSpore GPU pip install guide as published for {v} ({g['source']['how']})")
        guide = {"cuda": g["cuda"], "cudnn": g.get("cudnn_for_cuda", {}),
                 "python": _python_range(g.get("python", "")),
                 "arch": sorted({w["arch"] for w in g.get("wheels", [])}) or ["x86_64"],
                 "driver_min": g.get("driver_min", {}),
                 # one URL per wheel kind/arch/CUDA, its cpXY-cpXY tag written {python_tag} (the guide lists one per Python)
                 "wheels": sorted({(w["kind"], w["arch"], w["cuda"] or "",
                                    re.sub(r"cp3\d+-cp3\d+m?", "{python_tag}", w["url"])) for w in g.get("wheels", [])}),
                 "how": g["source"]["how"], "source": src.ids(sid),
                 "confidence": "medium" if g["source"]["how"].startswith("guide of") else "high"}
        guide["wheels"] = [{"kind": k, "arch": a, "cuda": c or None, "url": u} for k, a, c, u in guide["wheels"]]
        if g.get("recommended"):
            guide["recommended"] = g["recommended"]
        gpu["install_guide"] = guide
    plugins = gpu.get("cuda_plugins", {}).get("value", [])
    listed = gpu.get("cuda_wheels", {}).get("value", [])
    release_list_known = bool(fm.get("wheels_published"))
    guide_cuda = gpu.get("install_guide", {}).get("cuda", [])
    disputed = []
    if plugins or wheel_read:
        built = list(plugins)
        basis = "the wheel's lib/plugin/gpu<cuda> folders"
        for c in sorted(set(guide_cuda) - set(plugins), key=version_key) if not plugins else []:
            disputed.append({"cuda": c, "listed_by": gpu["install_guide"]["source"], "not_listed_by": gpu["cuda_plugins"]["source"],
                             "note": f"the GPU install guide at {v} lists CUDA {c}; the {v} x86_64 wheel on PyPI has no "
                                     "lib/plugin/gpu folder"})
    elif guide_cuda and release_list_known:
        built = [c for c in guide_cuda if c in listed]
        basis = "named by both the GPU install guide and the release list"
        rl_src = src.ids("docs_release_list")
        for c in sorted(set(guide_cuda) ^ set(listed), key=version_key):
            yes, no = (gpu["install_guide"]["source"], rl_src) if c in guide_cuda else (rl_src, gpu["install_guide"]["source"])
            disputed.append({"cuda": c, "listed_by": yes, "not_listed_by": no,
                             "note": (f"the GPU install guide at {v} lists CUDA {c}; the release list labels the "
                                      f"{v} wheels " + (f"for CUDA {'/'.join(listed)} only" if listed else
                                                        "without any GPU build"))
                                     if c in guide_cuda else
                                     f"the release list labels a CUDA {c} wheel; the GPU install guide at {v} does not list it"})
    elif guide_cuda:
        built, basis = list(guide_cuda), "the GPU install guide (the release list has no entry)"
    else:
        built, basis = list(listed), "the release list"
    gpu["built_for"] = {"value": sorted(built, key=version_key), "basis": basis}
    if disputed:
        gpu["disputed"] = disputed
    gpu["build"] = "published" if built else "disputed" if disputed else "none"
    return gpu


def build_compilers(src: Sources, facts: dict) -> list:
    by_mm = {r["mm"]: r for r in facts["mindspore_compiler_major_minor_to_cann"]}
    rows = []
    for mm, rels in COMPILER_TO_CANN.items():
        noted = by_mm[mm]
        row = {
            "compiler": mm,
            "cann": [{"release": r, "confidence": c, "note": n} for r, c, n in rels],
            "basis": noted["basis"],
            "source": src.ids(noted["source"]),
            "confidence": noted["confidence"] if noted["confidence"] != "n/a" else "unknown",
        }
        if mm in COMPILER_PUBLIC:
            ids, said = COMPILER_PUBLIC[mm]
            row["source"] = src.ids(ids)
            row["basis"] = f"{said} (inferred); the version files that pair them directly ({noted['basis']}) were seen " \
                           "only as excerpts of a stored code index whose public location was not found"
            row["confidence"] = "medium"
            for c in row["cann"]:
                if CONFIDENCE_RANK.get(c["confidence"], 0) > CONFIDENCE_RANK["medium"]:
                    c["confidence"] = "medium"
        rows.append(row)
    missing = set(by_mm) - set(COMPILER_TO_CANN)
    if missing:
        raise SystemExit(f"build_matrix: compiler values in the notes not transcribed: {sorted(missing)}")
    return rows


def build_cann_releases(src: Sources, facts: dict) -> list:
    rows = {}
    for c in facts["cann_versions"]:
        row = {"release": c["cann"], "internal_versions": [], "innerversions": []}
        for ex in c.get("internal_examples", []):
            value = ex["value"]
            m = re.match(r"\[([^:\]]+):[^\]]+\]", value)
            internal = m.group(1) if m else value.split(" ")[0]
            row["internal_versions"].append({"value": internal, "file": ex["file"], "as_seen": value,
                                             "source": src.ids(ex["source"]), "confidence": ex["confidence"]})
        for iv in c.get("innerversion", []):
            codes = re.findall(r"V\d+R\d+C\d+(?:SPC\d+)?(?:B\d+)?", iv["innerversion"])
            entry = {"innerversion": codes, "code": sorted({re.match(r"V\d+R\d+C\d+", x).group(0) for x in codes}),
                     "source": src.ids(iv["source"]), "confidence": iv["confidence"]}
            if iv.get("toolkit_compatible_version"):
                entry["toolkit_compatible_version"] = parse_innerversion_list(iv["toolkit_compatible_version"])
            if "(" in iv["innerversion"]:
                entry["note"] = iv["innerversion"].split("(", 1)[1].rstrip(")")
            row["innerversions"].append(entry)
        rows[c["cann"]] = row
    # The compiler value of each release, from the transcribed §2.2 table.
    for mm, rels in COMPILER_TO_CANN.items():
        for rel, conf, note in rels:
            row = rows.setdefault(rel, {"release": rel, "internal_versions": [], "innerversions": []})
            row.setdefault("compiler", []).append({"value": mm, "confidence": conf, "note": note})
    for rel, lo, hi, sid, conf, note in CANN_PYTHON:
        row = rows.setdefault(rel, {"release": rel, "internal_versions": [], "innerversions": []})
        row["python"] = {"min": lo, "max": hi, "source": src.ids(sid), "confidence": conf}
        if note:
            row["python"]["note"] = note
    for row in rows.values():
        row.setdefault("compiler", [])
        if not row["compiler"]:
            internal = [major_minor(x["value"]) for x in row["internal_versions"]]
            internal = [x for x in internal if x]
            if internal:
                # e.g. 8.0.RC2.alpha001 -> 7.2 from its version.cfg line: a pre-release of another train, kept as seen.
                row["compiler"].append({"value": internal[0], "confidence": row["internal_versions"][0]["confidence"],
                                        "note": "major.minor of the internal version seen for this build"})
    return sorted(rows.values(), key=lambda r: version_key(r["release"]))


def build_cann_hdk(src: Sources, facts: dict) -> list:
    rows = []
    for cann, hdks, relation, sid, conf, note in CANN_HDK:
        row = {"cann": cann, "hdk": hdks, "relation": relation, "source": src.ids(sid), "confidence": conf}
        if note:
            row["note"] = note
        rows.append(row)
    for p in facts["ascend_docs_quickinstall_pairs"]:
        socs = [s for s in ("910b", "310p") if p.get(f"driver_{s}")]
        # One row when both SoCs get the same driver and firmware.
        if len(socs) == 2 and p["driver_910b"].replace("(.1)", "") == p["driver_310p"] and \
                p["firmware_910b"] == p["firmware_310p"]:
            socs = [("910b, 310p", "910b")]
        else:
            socs = [(s, s) for s in socs]
        for soc_label, soc in socs:
            drv, fw = p.get(f"driver_{soc}"), p.get(f"firmware_{soc}")
            drv_clean = drv.replace("(.1)", "")
            rows.append({"cann": p["cann"], "hdk": [drv_clean], "relation": "known-working", "soc": soc_label,
                         "driver": drv, "firmware": fw, "source": src.ids(p["source"]), "confidence": p["confidence"],
                         "note": "what the Ascend PyTorch docs' quick-install helper installs with this CANN "
                                 "(a known-working, often older driver), not an official pairing"})
    return rows


def build_hdk_firmware(src: Sources, facts: dict) -> list:
    rows = []
    for h in facts["hdk_firmware_versions"]:
        for part in re.split(r",\s*(?=\d)", h["firmware"]):
            m = re.match(r"([0-9][0-9A-Za-z.]*)\s*(?:\((910b|310p)?)?", part)
            row = {"hdk": h["hdk"], "firmware": m.group(1), "source": src.ids(h["source"]), "confidence": h["confidence"]}
            if m.group(2):
                row["soc"] = m.group(2)
            rows.append(row)
    return rows


def _split_variants(text: str):
    main, _, rest = (text or "").partition("  (")
    variants = re.findall(r"(\[[^()]*\])", rest) if rest else []
    return main.strip(), variants


def build_samples(src: Sources, facts: dict):
    drivers, firmwares = [], []
    for d in facts["driver_version_info_samples"]:
        if not d.get("Version"):
            continue  # the source template has no version to look up by
        main, variants = _split_variants(d["compatible_version_fw"])
        drivers.append({
            "version": d["Version"], "innerversion": d["Innerversion"],
            "compatible_version": parse_innerversion_list(d["compatible_version"]),
            "compatible_version_fw": parse_range_list(main),
            "compatible_version_fw_variants": [parse_range_list(v) for v in variants],
            "source": src.ids(d["source"]), "confidence": d["confidence"]})
    for f in facts["firmware_version_info_samples"]:
        main, variants = _split_variants(f["compatible_version_drv"])
        firmwares.append({
            "version": f["Version"], "package_version": f["package_version"],
            "compatible_version_drv": parse_range_list(main),
            "compatible_version_drv_variants": [parse_range_list(v) for v in variants],
            "source": src.ids(f["source"]), "confidence": f["confidence"]})
    return drivers, firmwares


def build(facts: dict, gpu_facts: Optional[dict] = None, wheel_plugins: Optional[dict] = None) -> dict:
    src = Sources({**facts["sources"], **NVIDIA_SOURCES, **AUDIT_SOURCES})
    gpu_by_version = {r["version"]: r for r in (gpu_facts or {}).get("releases", [])}
    wheel_by_version = {r["version"]: r for r in (wheel_plugins or {}).get("releases", [])}
    pypi = set((wheel_plugins or {}).get("pypi_releases") or []) or None
    mindspore = [build_mindspore_row(r, src, facts["mindspore_compiler_major_minor_to_cann"], gpu_by_version.get(r["version"]),
                                     wheel_by_version.get(r["version"]), pypi)
                 for r in facts["mindspore_releases"]]
    compilers = build_compilers(src, facts)
    cann = build_cann_releases(src, facts)
    cann_hdk = build_cann_hdk(src, facts)
    hdk_fw = build_hdk_firmware(src, facts)
    drivers, firmwares = build_samples(src, facts)
    cuda_cudnn = [{"cuda": c, "cudnn": d, "source": src.ids(s), "confidence": conf, "note": n}
                  for c, d, s, conf, n in CUDA_CUDNN]
    nvidia_driver = [{"cuda": c, "driver": d, "kind": k, "source": src.ids(s), "confidence": "high", "note": n}
                     for c, d, k, s, n in NVIDIA_DRIVER_MIN]
    rules = {
        "driver_firmware": {
            "firmware_min_prefix": "6.4.",
            "compare": "byte-wise string comparison; the candidate is cut to max(len(start), len(end)) characters "
                       "and accepted when start <= cut <= end",
            "steps": [
                "firmware running version < '6.4.' (strcmp) -> not compatible",
                "firmware version inside a driver compatible_version_fw range -> compatible",
                "else driver version inside a firmware compatible_version_drv range -> compatible, else not",
                "flash list unreadable -> unknown",
            ],
            "source": src.ids("hicann_driver"), "confidence": "high",
        },
        "cann_driver_innerversion": {
            "rule": "CANN innerversion code (V100R001Cnn) listed in the driver's compatible_version, or the driver's "
                    "Innerversion code listed in the toolkit's compatible_version",
            "status": "inferred from samples; the code that applies it was not found",
            "source": src.ids("hicann_driver fs_ids:48687078190 fs_ids:55624210583"), "confidence": "low",
        },
        "mindspore_cann": {
            "rule": "major.minor of the first Version= line of the CANN compiler version.info must be in "
                    "AscendEnvChecker.version; otherwise MindSpore logs a WARNING and carries on",
            "source": src.ids("mindspore_test_tags"), "confidence": "high",
        },
        "mindspore_custom_ops": {
            "rule": "2.4+: installed compiler major.minor must equal the major.minor of the bundled custom-op "
                    "version.info (custom_opp_compiler_version); a difference is a warning",
            "source": src.ids("mindspore_test_tags ms_cmake_gen_version_info"), "confidence": "high",
        },
        "mindspore_cuda": {
            "rule": "libcudart major.minor (and nvcc release) in GPUEnvChecker.version; warn when cuDNN < 7.6, "
                    "or cuDNN < 8.0 with CUDA > 10",
            "source": src.ids("mindspore_test_tags"), "confidence": "high",
        },
        "mindspore_gpu_build": {
            "rule": "a CUDA with a build (the wheel's plugin folders, else named by both the install guide and the release "
                    "list) that the checker accepts passes; one the checker accepts without a build, or a build the "
                    "checker does not accept, or one only some sources name, is a warning naming them; a CUDA outside "
                    "all of them fails",
            "source": src.ids("mindspore_test_tags docs_release_list"), "confidence": "high",
        },
        "nvidia_driver_cuda": {
            "rule": "the NVIDIA driver must be at least NVIDIA's minimum for the CUDA runtime (minor-version "
                    "compatibility from CUDA 11, the toolkit's own driver before); below the driver MindSpore's install "
                    "guide or the toolkit asks for that CUDA (510.39.01 for 11.6) it is a warning naming both",
            "source": src.ids("nvidia_cuda_compat nvidia_cuda_rn"), "confidence": "high",
        },
    }
    matrix = {
        "$schema": "compat_matrix.schema.json",
        "schema": SCHEMA_ID,
        "matrix_version": MATRIX_VERSION,
        "date": MATRIX_DATE,
        "generated_from": "data/sources/compat_facts.json via scripts/build_matrix.py",
        "mindspore": mindspore,
        "compilers": compilers,
        "cann": cann,
        "cann_hdk": cann_hdk,
        "hdk_firmware": hdk_fw,
        "driver_samples": drivers,
        "firmware_samples": firmwares,
        "cuda_cudnn": cuda_cudnn,
        "nvidia_driver": nvidia_driver,
        "rules": rules,
    }
    for row in hdk_fw:
        found = FS_PUBLIC.get(f"hdk_firmware:{row.get('hdk')}")
        if found:
            src.table.setdefault(found[0], found[1])
            row["source"] = [s for s in row["source"] if not s.startswith("fs:")] + src.ids(found[0])
    used = {s for s in json.dumps({k: v for k, v in matrix.items()}).split('"') if s in src.table}
    cap_unlocated(matrix, {s for s in used if src.table[s]["type"] == "code_index_excerpt"})
    matrix["sources"] = {k: v for k, v in sorted(src.table.items()) if k in used}
    return matrix


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--facts", default=DEFAULT_FACTS)
    ap.add_argument("--gpu-facts", default=DEFAULT_GPU_FACTS)
    ap.add_argument("--wheel-plugins", default=DEFAULT_WHEEL_PLUGINS)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="exit 1 if --out differs from what the facts give")
    args = ap.parse_args(argv)
    with open(args.facts, encoding="utf-8") as fh:
        facts = json.load(fh)
    with open(args.gpu_facts, encoding="utf-8") as fh:
        gpu_facts = json.load(fh)
    with open(args.wheel_plugins, encoding="utf-8") as fh:
        wheel_plugins = json.load(fh)
    text = json.dumps(build(facts, gpu_facts, wheel_plugins), indent=1, ensure_ascii=False) + "\n"
    if args.check:
        with open(args.out, encoding="utf-8") as fh:
            same = fh.read() == text
        print("up to date" if same else f"{args.out} differs from {args.facts}")
        return 0 if same else 1
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
