"""The matrix data: schema, sources, coverage of every MindSpore release, and the per-release P07 verdicts.

The expected values below are transcribed from compat_facts.md table 1 (column 4 = what each release's
AscendEnvChecker accepts; column 2/3 = the CANN its docs or other Huawei sources name), independently
of data/compat_matrix.json, so a wrong row in the data fails here.
"""

import copy
import json
import os
import subprocess
import sys

import pytest

from ascend_doctor.checks import CheckContext
from ascend_doctor.checks.compat import check_mindspore_cann
from ascend_doctor.data import data_path
from ascend_doctor.facts import CannInstall, Facts, MindSporeFacts
from ascend_doctor.matrix import Matrix, load_bundled, semantic_errors, validate_matrix
from ascend_doctor.schema import schema_errors
from tests.helpers import REPO
from tests.helpers.i18n_asserts import assert_msg, deferring, has_msg

# run as doctor.evaluate runs it (words deferred): the asserts read message ids and parameters, not sentences
check_mindspore_cann = deferring(check_mindspore_cann)

# (MindSpore, accepted compiler major.minor, the CANN a user should be told to install)
RELEASES = [
    ("1.5.0-rc1", ["1.79"], "5.0.3"), ("1.5.0", ["1.79"], "5.0.3"), ("1.5.1", ["1.79"], "5.0.3"),
    ("1.5.2", ["1.79"], "5.0.3"), ("1.6.0", ["1.80"], "5.0.4"), ("1.6.1", ["1.80"], "5.0.4"),
    ("1.6.2", ["1.80"], "5.0.4"), ("1.7.0", ["1.81"], "5.1.RC1"), ("1.7.1", ["1.81"], "5.1.RC1"),
    ("1.8.0", ["1.82"], "5.1.RC2"), ("1.8.1", ["1.82"], "5.1.RC2"), ("1.9.0", ["1.83"], "6.0.RC1"),
    ("1.10.0", ["1.84"], "6.0.1"), ("1.10.1", ["1.84"], "6.0.1"), ("2.0.0-alpha", ["1.83"], "6.0.RC1"),
    ("2.0.0-rc1", ["6.11", "6.3"], "6.3.RC1"), ("2.0.0", ["6.11", "6.3"], "6.3.RC1"),
    ("2.1.0", ["6.4"], "6.3.RC2"), ("2.1.1", ["6.4"], "6.3.RC2"), ("2.2.0", ["7.0"], "7.0.RC1"),
    ("2.2.1", ["7.0"], "7.0.RC1"), ("2.2.10", ["7.1"], "7.0.0"), ("2.2.11", ["7.1"], "7.0.0"),
    ("2.2.12", ["7.1"], "7.0.0"), ("2.2.13", ["7.1"], "7.0.0"), ("2.2.14", ["7.1"], "7.0.0"),
    ("2.3.0-rc1", ["7.2"], "8.0.RC1"), ("2.3.0-rc2", ["7.2"], "8.0.RC1"), ("2.3.0-rc6", ["7.2"], "8.0.RC1"),
    ("2.3.0", ["7.2", "7.3"], "8.0.RC2"), ("2.3.1", ["7.2", "7.3"], "8.0.RC2"),
    ("2.4.0", ["7.3", "7.5"], "8.0.RC3"), ("2.4.1", ["7.3", "7.5"], "8.0.RC3"),
    ("2.4.10", ["7.5", "7.6"], "8.0.0"), ("2.5.0", ["7.5", "7.6"], "8.0.0"),
    ("2.6.0-rc1", ["7.6", "7.7"], "8.1.RC1"), ("2.6.0", ["7.6", "7.7"], "8.1.RC1"),
    ("2.7.0-rc1", ["7.7", "7.8", "8.2"], "8.2.RC1"), ("2.7.0", ["7.7", "7.8", "8.2"], "8.2.RC1"),
    ("2.7.1", ["7.8", "8.2", "8.3"], "8.3.RC1"), ("2.7.1.post1", ["7.8", "8.2", "8.3"], "8.3.RC1"),
    ("2.7.2", ["8.5"], "8.5.0"), ("2.8.0", ["8.2", "8.3", "8.5"], "8.5.0"),
    ("2.9.0", ["8.2", "8.3", "8.5", "9.0"], "9.0.0"), ("2.10.0", ["8.2", "8.3", "8.5", "9.0", "9.1"], "9.1.0"),
]

# compiler/version.info Version= of each CANN: real samples where the notes have one (version.cfg lines,
# version.info files); for the oldest releases only the major.minor is known, so the rest is a plain ".0.0".
COMPILER_OF = {
    "5.0.3": "1.79.0.0", "5.0.4": "1.80.0.0", "5.1.RC1": "1.81.0.0", "5.1.RC2": "1.82.0.0", "6.0.RC1": "1.83.0.0",
    "6.0.1": "1.84.15.1.310", "6.3.RC1": "6.3.0.0", "6.3.RC2": "6.4.0.0", "7.0.RC1": "7.0.0.5.242",
    "7.0.0": "7.1.0.3.220", "8.0.RC1": "7.2.T11.0.B218", "8.0.RC2": "7.3.0.1.231", "8.0.RC3": "7.5.0.1.129",
    "8.0.0": "7.6.0.1.220", "8.1.RC1": "7.7.0.1.238", "8.2.RC1": "8.2.0.0.201", "8.3.RC1": "8.3.0.1.200",
    "8.5.0": "8.5.0.2.220", "9.0.0": "9.0.0", "9.1.0": "9.1.0",
}
# A CANN whose compiler is outside a release's list: the first of these that the release does not accept.
WRONG_CANDIDATES = ["9.1.0", "7.3.0.1.231", "1.84.15.1.310"]


@pytest.fixture(scope="module")
def matrix():
    return load_bundled(full_validation=True)


def _ctx(matrix, ms_version, release, compiler, accepted=None, others=()):
    facts = Facts()
    facts.mindspore = MindSporeFacts(installed=True, version=ms_version, flavour="ascend", accepted_cann=list(accepted or []))
    inst = CannInstall(root="/usr/local/Ascend/ascend-toolkit/latest", kind="toolkit", release=release,
                       compiler_version=compiler, active=True)
    facts.cann.installs = [inst] + list(others)
    return CheckContext(facts=facts, _matrix=matrix)


def test_bundled_matrix_matches_its_schema(matrix):
    schema = json.load(open(data_path("compat_matrix.schema.json")))
    assert schema_errors(matrix.data, schema) == []
    assert semantic_errors(matrix.data) == []
    assert matrix.info()["source"] == "bundled"
    assert matrix.version.count(".") >= 1 and len(matrix.date) == 10


def test_schema_validator_rejects_broken_rows(matrix):
    schema = json.load(open(data_path("compat_matrix.schema.json")))
    bad = copy.deepcopy(matrix.data)
    del bad["mindspore"][3]["checker"]["accepted_compilers"]
    bad["cann_hdk"][0]["relation"] = "probably"
    bad["mindspore"][0]["checker"]["confidence"] = "sure"
    errs = schema_errors(bad, schema)
    assert any("mindspore[3].checker: missing field 'accepted_compilers'" in e for e in errs)
    assert any("cann_hdk[0].relation" in e and "probably" in e for e in errs)
    assert any("confidence" in e and "sure" in e for e in errs)
    bad = copy.deepcopy(matrix.data)
    bad["mindspore"][0]["checker"]["source"] = ["no_such_source"]
    assert validate_matrix(bad) == ["$.mindspore[0].checker.source[0]: 'no_such_source' is not a key of $.sources"]
    bad = copy.deepcopy(matrix.data)
    bad["mindspore"].append(copy.deepcopy(bad["mindspore"][1]))
    assert any("appears twice" in e for e in validate_matrix(bad))


def test_jsonschema_agrees_when_available(matrix):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.load(open(data_path("compat_matrix.schema.json")))
    jsonschema.validate(matrix.data, schema)


def test_every_row_names_a_resolvable_source_and_confidence(matrix):
    rows = (matrix["cann_hdk"] + matrix["hdk_firmware"] + matrix["driver_samples"] + matrix["firmware_samples"]
            + matrix["compilers"] + matrix["cuda_cudnn"])
    rows += [c for r in matrix["mindspore"] for c in r["cann"]] + [r["checker"] for r in matrix["mindspore"]]
    rows += [p for r in matrix["mindspore"] for p in r["python"]]
    for row in rows:
        assert row["source"] and all(s in matrix["sources"] for s in row["source"]), row
        assert row["confidence"]
    for sid, src in matrix["sources"].items():
        assert src.get("url") or src.get("repo") or sid.startswith("fs:") or src["type"] == "code_index_excerpt" \
            or src.get("note"), sid


def test_all_45_releases_and_their_checker_lists(matrix):
    assert [r["version"] for r in matrix.mindspore_releases] == [v for v, _, _ in RELEASES]
    for version, accepted, _ in RELEASES:
        assert matrix.accepted_compilers(version) == accepted, version


def test_checker_file_read_per_release(matrix):
    kinds = {v: matrix.mindspore_row(v)["checker"]["file_read_kind"] for v, _, _ in RELEASES}
    assert kinds["1.8.1"] == "fixed/fwkacllib" and kinds["1.9.0"] == "fixed/compiler"
    assert kinds["2.3.1"] == "fixed/compiler" and kinds["2.4.0"] == "opp_path" and kinds["2.7.1"] == "opp_path"
    assert kinds["2.7.2"] == "home_path" and kinds["2.10.0"] == "home_path"


def test_cann_name_to_compiler_map(matrix):
    assert matrix.compiler_for_cann("8.0.RC2")[0] == "7.3"
    assert matrix.compiler_for_cann("8.0.RC2.beta1")[0] == "7.3"
    assert matrix.compiler_for_cann("7.0.RC1.3.beta1")[0] == "7.0"
    assert matrix.compiler_for_cann("8.1.RC1")[0] == "7.7"
    assert matrix.compiler_for_cann("8.5.1")[:2] == ("8.5", "medium")  # from 8.2 on they line up
    assert matrix.compiler_for_cann("4.0.0")[0] is None  # unknown stays unknown
    assert [c["release"] for c in matrix.cann_for_compiler("7.6.0.1.220")] == ["8.0.0"]
    assert matrix.cann_for_compiler("7.8") == [] and matrix.cann_for_compiler("6.11") == []


def test_innerversion_codes(matrix):
    codes = {r["release"]: [c for iv in r["innerversions"] for c in iv["code"]] for r in matrix["cann"]}
    assert codes["8.0.RC3"] == ["V100R001C19"] and codes["8.2.RC1"] == ["V100R001C22"]
    assert codes["8.5.0"] == ["V100R001C25"] and codes["9.1.0"] == ["V100R001C11"]


def test_disagreements_are_kept(matrix):
    cands = {c["cann"]: c for c in matrix.cann_candidates("2.6.0")}
    assert cands["8.1.RC1"]["accepted"] is True and cands["8.2.RC1"]["accepted"] is False
    assert any("ascend-deployer" in n["by"] for n in cands["8.2.RC1"]["named_by"])
    cands = {c["cann"]: c for c in matrix.cann_candidates("2.3.0")}
    assert cands["8.0.RC2"]["accepted"] and cands["8.0.RC1"]["accepted"]
    assert any("MindCluster" in n["by"] for n in cands["8.0.RC1"]["named_by"])


@pytest.mark.parametrize("ms,accepted,recommended", RELEASES, ids=[r[0] for r in RELEASES])
def test_recommended_cann_passes(matrix, ms, accepted, recommended):
    f = check_mindspore_cann(_ctx(matrix, ms, recommended, COMPILER_OF[recommended]))
    assert f.status == "pass", f.summary
    assert f.evidence["matrix_row"].startswith(f"MindSpore {ms}:")


@pytest.mark.parametrize("ms,accepted,recommended", RELEASES, ids=[r[0] for r in RELEASES])
def test_cann_outside_the_list_fails_and_names_the_fix(matrix, ms, accepted, recommended):
    wrong = next(c for c in WRONG_CANDIDATES if c.split(".")[0] + "." + c.split(".")[1] not in accepted)
    f = check_mindspore_cann(_ctx(matrix, ms, None, wrong))
    assert f.status == "fail" and f.pitfall == "P07"
    # each line is one way to a pairing: the least disruptive is the fix, the others labelled alternatives
    ways = f.fix + [a["steps"][0] for a in f.alternatives]
    canns = [w for w in ways if w.startswith("install CANN ")]
    if matrix.published_canns(ms):
        assert canns and f"CANN {recommended}" in canns[0], ways
    else:  # only the checker's list or the wheel's build CANN name one: no CANN release is recommended
        # said once: as the way when nothing else is, else beside a published MindSpore as evidence
        assert has_msg(ways + [f.evidence.get("published_cann", "")], "the matrix names no CANN published with MindSpore "
                       "{version}; its version check accepts compiler {accepted}, which is not a tested pairing: see "
                       "https://www.mindspore.cn/install", version=ms), ways
        assert not any(w.startswith(f"install CANN {recommended} ") for w in ways), ways
    f.fix = ways  # the MindSpore ways below are read from all of them
    # ... and the other way round: the newest MindSpore *published* with the CANN that is there, never one whose
    # version check merely accepts it (that check only decides whether MindSpore prints a warning).
    published = [r["version"] for r in matrix.published_mindspore_for_cann(None, wrong)]
    if published:
        assert any(f"mindspore=={published[0]}" in step or f"MindSpore {published[0]} " in step for step in f.fix), f.fix
    else:  # no MindSpore for this CANN: the way is a CANN change (its install steps, or the note saying so)
        assert canns or has_msg(f.fix, "no MindSpore release in the matrix is published with CANN {cann}; change CANN") or has_msg(f.fix, "no MindSpore release in the matrix is published with "
                                                      "{target}: see https://www.mindspore.cn/install for the pairing, or "
                                                      "upgrade CANN (below)"), f.fix
    wrong_mm = ".".join(wrong.split(".")[:2])
    accept_only = {r["version"] for r in matrix.mindspore_for_compiler(wrong_mm, finals_only=True)} - set(published)
    assert not any(f"mindspore=={v} " in step or f"MindSpore {v} " in step for v in accept_only for step in f.fix)
    assert ", ".join(accepted) in f.summary and str(accepted) not in f.summary  # prose, not a Python list


def test_installed_accepted_list_wins_over_matrix(matrix):
    # A patched MindSpore whose own _check_version.py also accepts 8.2: MindSpore would not warn, so neither do we.
    f = check_mindspore_cann(_ctx(matrix, "2.6.0", "8.2.RC1", "8.2.0.0.201", accepted=["7.6", "7.7", "8.2"]))
    assert f.status == "pass" and "installed" in f.evidence["accepted_compilers"]
    assert_msg(f.evidence["note"], "the installed MindSpore's list differs from the matrix row; the installed list decides")


def test_sources_disagree_is_said_in_the_verdict(matrix):
    f = check_mindspore_cann(_ctx(matrix, "2.6.0", "8.2.RC1", "8.2.0.0.201"))
    assert f.status == "fail"
    assert any("ascend-deployer" in s for s in f.evidence["sources_disagree"])
    # the CANN published with 2.6.0 is one way (the first CANN named); a MindSpore for this CANN is the fix
    ways = f.fix + [a["steps"][0] for a in f.alternatives]
    assert "CANN 8.1.RC1" in next(w for w in ways if w.startswith("install CANN ")), ways


def test_unknown_mindspore_is_a_warning_not_a_pass(matrix):
    f = check_mindspore_cann(_ctx(matrix, "3.1.0", "9.1.0", "9.1.0"))
    assert f.status == "warn" and "unknown" in f.summary


def test_unreadable_compiler_version_is_a_warning(matrix):
    f = check_mindspore_cann(_ctx(matrix, "2.5.0", "8.0.0", None))
    assert f.status == "warn"
    assert_msg(f.summary, "The CANN compiler version of {root} could not be read (compiler/version.info), so whether "
               "MindSpore {version} accepts it is unknown; MindSpore itself skips its check then.", version="2.5.0")


def test_several_installs_judge_the_active_one_and_offer_the_other(matrix):
    other = CannInstall(root="/usr/local/Ascend/nnae/latest", kind="nnae", release="8.0.0",
                        compiler_version="7.6.0.1.220", set_env="/usr/local/Ascend/nnae/set_env.sh")
    f = check_mindspore_cann(_ctx(matrix, "2.5.0", "8.2.RC1", "8.2.0.0.201", others=[other]))
    assert f.status == "fail" and "8.2.RC1" in f.evidence["cann_judged"]
    assert any("nnae" in o for o in f.evidence["other_cann_installs"])
    assert f.fix[0].startswith("source /usr/local/Ascend/nnae/set_env.sh")


def test_committed_matrix_is_what_the_generator_builds():
    """On a clean clone: the sources are in the repository (data/sources), nothing outside it is read."""
    proc = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "build_matrix.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_bundled_sources_are_the_research_notes():
    notes = os.path.join(os.path.dirname(REPO), "shared", "reference", "compat_facts.json")
    if not os.path.isfile(notes):
        pytest.skip("research notes (shared/reference) not beside this checkout")
    with open(notes, "rb") as a, open(os.path.join(REPO, "data", "sources", "compat_facts.json"), "rb") as b:
        assert a.read() == b.read(), "shared/reference/compat_facts.json changed: copy it to data/sources and rebuild"


def test_matrix_object_from_other_data_reports_its_source(tmp_path, matrix):
    m = Matrix(matrix.data, str(tmp_path / "x.json"))
    assert m.info()["source"].endswith("x.json")


# --- MindSpore on CUDA -------------------------------------------------------------------------------------------

def _gpu_facts():
    with open(os.path.join(REPO, "data", "sources", "gpu_facts.json"), encoding="utf-8") as fh:
        return {r["version"]: r for r in json.load(fh)["releases"]}


def test_every_gpu_row_holds_the_checker_list_it_cites(matrix):
    """Each row's CUDA checker list is the GPUEnvChecker line of the tag it cites (read verbatim by
    scripts/extract_gpu_facts.py), or, for the PyPI-only releases, the list the notes read from the wheel it cites."""
    import re

    facts = _gpu_facts()
    with open(os.path.join(REPO, "data", "sources", "compat_facts.json"), encoding="utf-8") as fh:
        notes = {r["version"]: {f["source"]: f["value"] for f in r["facts"] if f["field"] == "gpu_cuda_checker"}
                 for r in json.load(fh)["mindspore_releases"]}
    sources = matrix["sources"]
    for row in matrix["mindspore"]:
        v = row["version"]
        checker = row["gpu"]["cuda_checker"]
        cited = 0
        for sid in checker["source"]:
            s = sources[sid]
            tag = (facts.get(v) or {}).get("checker")
            if tag and s.get("commit") == tag["source"]["commit"]:
                assert re.findall(r'"([^"]+)"', tag["line"]) == checker["value"], v
                assert checker["as_seen"] == tag["line"], v
                cited += 1
            elif sid in notes.get(v, {}):
                assert notes[v][sid] == checker["value"], (v, sid)
                cited += 1
        assert cited, f"{v}: no cited source holds the checker list"


def test_gpu_builds_come_only_from_the_sources(matrix):
    """No CUDA is invented and none a source names is dropped: built_for and disputed together are exactly what the
    wheel's plugins (when read) or the guide and the release list name."""
    for row in matrix["mindspore"]:
        gpu = row["gpu"]
        named = set((gpu.get("install_guide") or {}).get("cuda", [])) | set((gpu.get("cuda_wheels") or {}).get("value", []))
        plugins = set((gpu.get("cuda_plugins") or {}).get("value", []))
        built = set(gpu["built_for"]["value"])
        disputed = {d["cuda"] for d in gpu.get("disputed", [])}
        if plugins:
            assert built == plugins and not disputed, row["version"]
        else:
            assert built | disputed == named and not built & disputed, row["version"]
        for d in gpu.get("disputed", []):
            assert d["listed_by"] and d["not_listed_by"] and set(d["listed_by"]).isdisjoint(d["not_listed_by"])


# The audit of issue 28, transcribed from the install guides (mindspore-ai/docs install/mindspore_gpu_install_pip_en.md
# at each release), the release list and the 2.7.1.post1 wheel: (release, CUDA, verdict).
GPU_AUDIT = [
    ("2.0.0-rc1", "11.6", "warn"), ("2.1.0", "11.6", "warn"), ("2.1.1", "11.6", "warn"), ("2.2.0", "11.6", "warn"),
    ("2.2.1", "11.6", "warn"), ("2.2.10", "11.6", "warn"), ("2.2.10", "11.1", "pass"), ("2.2.14", "11.6", "pass"),
    ("2.4.0", "11.6", "warn"), ("2.4.1", "10.1", "warn"), ("2.4.10", "11.1", "warn"), ("2.5.0", "11.6", "warn"),
    ("2.6.0-rc1", "11.6", "warn"), ("2.6.0", "11.1", "warn"), ("2.6.0", "10.1", "fail"),
    ("2.7.1.post1", "11.6", "pass"), ("2.7.1.post1", "10.1", "fail"), ("2.10.0", "12.2", "fail"),
    ("1.10.1", "11.6", "warn"), ("1.10.1", "11.1", "pass"), ("1.8.1", "11.6", "fail"), ("2.0.0", "11.6", "pass"),
]


@pytest.mark.parametrize("release,cuda,status", GPU_AUDIT)
def test_gpu_verdicts_follow_guide_checker_and_wheel(matrix, release, cuda, status):
    assert matrix.gpu_verdict(release, cuda)["status"] == status


def test_disputed_gpu_rows_name_both_sources(matrix):
    row = matrix.mindspore_row("2.5.0")
    d = {x["cuda"]: x for x in row["gpu"]["disputed"]}
    assert set(d) == {"10.1", "11.1", "11.6"} and row["gpu"]["build"] == "disputed"
    assert "without any GPU build" in d["11.6"]["note"]
    assert "docs_release_list" in d["11.6"]["not_listed_by"]
    assert matrix.sources_of(d["11.6"]["listed_by"])[0]["path"] == "install/mindspore_gpu_install_pip_en.md"


def test_nvidia_driver_minimums(matrix):
    m = matrix.nvidia_driver_min("11.6")
    assert m["runs"] == "450.80.02" and m["asked"] == "510.39.01"
    assert matrix.nvidia_driver_min("10.1")["runs"] == "418.39"
    assert matrix.nvidia_driver_min("9.0")["runs"] is None


def _wheel_plugins():
    with open(os.path.join(REPO, "data", "sources", "wheel_plugins.json"), encoding="utf-8") as fh:
        return {r["version"]: r for r in json.load(fh)["releases"]}


def test_every_2x_row_holds_the_plugins_its_wheel_carries(matrix):
    """Each 2.x row's cuda_plugins are the lib/plugin/gpu<cuda> folders of the x86_64 PyPI wheel it cites (read from
    the wheel's zip directory by scripts/read_wheel_plugins.py), and decide built_for; a release PyPI does not carry
    says so (wheel_not_read) and has no plugin list."""
    wheels = _wheel_plugins()
    sources = matrix["sources"]
    rows = [r for r in matrix["mindspore"] if not r["version"].startswith("1.")]
    assert {r["version"] for r in rows} == set(wheels)
    for row in rows:
        v, gpu = row["version"], row["gpu"]
        x86 = [w for w in wheels[v].get("wheels", []) if w["platform"] == "linux-x86_64"]
        if not x86:
            assert "cuda_plugins" not in gpu and gpu["wheel_not_read"] == wheels[v]["not_on_pypi"], v
            continue
        w = x86[0]
        assert gpu["cuda_plugins"]["value"] == w["plugin_gpu_dirs"] == gpu["built_for"]["value"], v
        assert gpu["cuda_plugins"]["ascend_plugin"] is w["plugin_ascend"], v
        cited = [sources[s] for s in gpu["cuda_plugins"]["source"]]
        assert any(s.get("url") == w["url"] and s.get("sha256") == w["sha256"] for s in cited), v
        assert w["url"].startswith("https://files.pythonhosted.org/packages/") and w["url"].endswith(w["file"])
        # the folders were read from file names, and the libraries beside them agree
        assert w["libmindspore_gpu_so"] == w["plugin_gpu_dirs"], v
        assert all(f"lib/plugin/gpu{c}/" in " ".join(w["plugin_layout"]) for c in w["plugin_gpu_dirs"]), v


def test_2_2_1_reads_the_guide_published_with_it(matrix):
    """No GPU guide names 2.2.1: its row reads the r2.2 guide as it stood when the release list added 2.2.1, and says
    so (medium confidence), rather than borrowing 2.2.0's guide by name."""
    guide = matrix.mindspore_row("2.2.1")["gpu"]["install_guide"]
    assert "when the release list added 2.2.1" in guide["how"] and guide["confidence"] == "medium"
    assert guide["cuda"] == ["10.1", "11.1", "11.6"]


def test_no_row_is_more_certain_than_the_sources_a_user_can_open(matrix):
    """Issue 22: a source a user cannot open (a stored code-index excerpt whose public location was not found) never
    carries a row alone above 'low'; every compiler -> CANN pairing of 7.x/8.x cites at least one source with a URL or
    repository path."""
    unopenable = {sid for sid, s in matrix["sources"].items() if not (s.get("url") or s.get("repo"))}
    assert all(matrix["sources"][sid]["type"] in ("code_index_excerpt", "other", "web_page") for sid in unopenable)

    def walk(obj):
        if isinstance(obj, dict):
            srcs = obj.get("source")
            if isinstance(srcs, list) and srcs and set(srcs) <= unopenable and obj.get("confidence") in ("medium", "high"):
                raise AssertionError(f"{obj} rests only on {srcs}")
            for v in obj.values():
                walk(v)
        elif isinstance(obj, list):
            for v in obj:
                walk(v)

    walk({k: v for k, v in matrix.data.items() if k != "sources"})
    for row in matrix["compilers"]:
        if row["cann"]:
            assert any(matrix["sources"][s].get("url") or matrix["sources"][s].get("repo") for s in row["source"]), row


def test_on_pypi_is_what_pypi_lists(matrix):
    """A release is installed with pip exactly when PyPI's mindspore project lists it (wheel_plugins.json
    pypi_releases, read from PyPI's JSON API): 2.0.0 is there (pip works), 2.4.1 is not (the download page)."""
    from ascend_doctor.matrix import mindspore_install_steps

    with open(os.path.join(REPO, "data", "sources", "wheel_plugins.json"), encoding="utf-8") as fh:
        listed = set(json.load(fh)["pypi_releases"])
    for row in matrix["mindspore"]:
        assert row["on_pypi"]["value"] == (row["pip_version"] in listed) == matrix.on_pypi(row), row["version"]
    assert mindspore_install_steps([matrix.mindspore_row("2.0.0")], "x")[0].startswith("pip install mindspore==2.0.0")
    assert "mindspore.cn/versions" in mindspore_install_steps([matrix.mindspore_row("2.4.1")], "x")[0]


@pytest.mark.parametrize("release, ops", [("8.0.RC3", False), ("8.3.RC1", False), ("8.5.0", True), ("9.1.0", True),
                                          ("not a version", False)])
def test_cann_kernels_named_ops_from_8_5_0(release, ops):
    from ascend_doctor.matrix import cann_kernels_named_ops

    assert cann_kernels_named_ops(release) is ops


@pytest.mark.parametrize("release, python, inside", [("8.2.RC1", "3.12", False), ("8.2.RC1", "3.11", True),
                                                     ("8.3.RC2", "3.12", False), ("9.1.0", "3.12", True),
                                                     ("8.0.0", "3.12", True)])
def test_python_in_cann_range_reads_the_release_or_its_train(matrix, release, python, inside):
    assert matrix.python_in_cann_range(python, release) is inside


def test_a_source_is_cited_in_full_in_english_and_by_its_name_in_chinese():
    """review 3 R2: the evidence and fix comments of a Chinese report named a source by its record
    (repo:path (section "…")@commit); they name the document (MindFormers 版本配套表), English keeps the record."""
    from ascend_doctor import i18n
    from ascend_doctor.i18n_text import worded
    from ascend_doctor.matrix import load_matrix

    m = load_matrix()
    sid = next(k for k, s in m.data["sources"].items() if s.get("repo") == "mindspore-lab/mindformers")
    assert m.describe_source([sid]).startswith("mindspore-lab/mindformers:README.md")
    url = next(k for k, s in m.data["sources"].items() if s.get("url", "").startswith("https://docs.nvidia.com"))
    i18n.set_lang("zh")
    try:
        shown = m.describe_source([sid])
        assert str(shown).startswith("mindspore-lab/mindformers:README.md") and "@" in str(shown)  # its English
        assert worded(shown) == "MindFormers 版本配套表"
        assert m.describe_source([url]).zh == m.data["sources"][url]["url"]  # a page without a name: its URL
    finally:
        i18n.set_lang("en")
