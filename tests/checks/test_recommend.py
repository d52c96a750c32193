"""Every MindSpore or CANN release a fix recommends comes from a matrix row marked as a published pairing.

MindSpore's own version check accepts a list of CANN compiler versions; that list only decides whether it
prints a warning at import, so a release chosen from it alone is not advice. These tests read every fix line
of every report the doctor writes for the shipped snapshots (tests/fixtures, examples) and of `matrix check`
for every MindSpore x CANN combination in the matrix, pick out the releases they name, and hold each one to a
published pairing (Matrix.published_canns: release list, install guide, MindFormers / ascend-deployer tables).
"""

import argparse
import os
import re

import pytest

from ascend_doctor.matrix import load_bundled
from ascend_doctor.versions import release_matches
from tests.helpers import REPO
from tests.helpers.i18n_asserts import assert_is_msg, deferred
from tests.helpers.fixture_reports import fix_lines, report_of, snapshot_dirs

MATRIX = load_bundled()

# "pip install mindspore==2.4.1", "install MindSpore 2.4.1 from ...", "then MindSpore 2.9.0 (on PyPI)"
# ("MindSpore 2.4.0+" is a minimum a feature needs, not a release recommended for this CANN)
MS_NAMED = re.compile(r"mindspore==([0-9][0-9A-Za-z.\-]*)|\bMindSpore (\d+\.\d+\.\d+(?:[.\-]?(?:rc|post)\d+)?)\b(?! build)(?!\+)")
CANN_NAMED = re.compile(r"\binstall CANN (\d+\.\d+\.(?:RC\d+|\d+))")


def _published(ms_version):
    return [c["cann"] for c in MATRIX.published_canns(ms_version)]


def _problems(lines, installed_ms, canns_here):
    """Fix lines naming a release that no published pairing backs, with why."""
    problems = []
    for fid, line in lines:
        instruction = line.split("   #", 1)[0] + " " + line  # the comment says why; the release may sit in either
        ms_named = [a or b for a, b in MS_NAMED.findall(line)]
        cann_named = CANN_NAMED.findall(instruction)
        for ms in dict.fromkeys(ms_named):
            if installed_ms and ms == installed_ms:
                continue  # reinstalling what is there recommends nothing new
            row = MATRIX.mindspore_row(ms)
            if row is None:
                problems.append(f"{fid}: {line!r} names MindSpore {ms}, which the matrix does not know")
                continue
            published = _published(ms)
            backed = [c for c in published if any(release_matches(n, c) for n in cann_named + canns_here)]
            if not backed:
                problems.append(f"{fid}: {line!r} recommends MindSpore {ms}, published with {published or 'nothing'}, "
                                f"for CANN {cann_named + canns_here}")
        for cann in dict.fromkeys(cann_named):
            partners = [m for m in ms_named] + ([installed_ms] if installed_ms else [])
            if not any(release_matches(cann, c) for m in partners for c in _published(m)):
                problems.append(f"{fid}: {line!r} recommends CANN {cann}, which no published pairing gives "
                                f"MindSpore {partners}")
    return problems


# by name: the reports are made when the tests run (once a session), not at collection by every worker
@pytest.mark.parametrize("name", [os.path.relpath(p, REPO) for p in snapshot_dirs()])
def test_every_fixture_recommends_only_published_pairings(name):
    report = report_of(os.path.join(REPO, name))
    facts = report.facts
    installed = (facts.get("mindspore") or {}).get("version") if (facts.get("mindspore") or {}).get("installed") else None
    canns = [i.get("release") for i in (facts.get("cann") or {}).get("installs", []) if i.get("release")]
    assert _problems(fix_lines(report), installed, canns) == []


def _planned(ms, cann, python="3.9"):
    from ascend_doctor.checks import CheckContext, all_checks
    from ascend_doctor.commands.matrix import planned_facts

    args = argparse.Namespace(mindspore=ms, cann=cann, driver=None, firmware=None, python=python, cuda=None,
                              cudnn=None, arch="aarch64")
    facts = planned_facts(MATRIX, args)
    ctx = CheckContext(facts=facts, _matrix=MATRIX)
    out = []
    for spec in all_checks():
        if spec.id.startswith("compat.") or spec.id == "mindspore.installed":
            r = spec.func(ctx)
            out.extend(r if isinstance(r, list) else [r] if r else [])
    return out


FINALS = [r["version"] for r in MATRIX.mindspore_releases if r["release_kind"] in ("final", "post")][-16:]
CANNS = sorted({row["release"] for row in MATRIX["cann"]})[-14:]


@pytest.mark.parametrize("ms", FINALS)
def test_matrix_check_recommends_only_published_pairings(ms):
    problems = []
    for cann in CANNS:
        findings = _planned(ms, cann)
        lines = [(f.id, step) for f in findings for step in f.fix]
        problems += [f"--cann {cann}: {p}" for p in _problems(lines, ms, [cann])]
    assert problems == []


def test_the_rule_catches_a_checker_only_recommendation():
    # MindSpore 2.5.0's version check accepts CANN 8.0.RC3's compiler 7.5, but no source pairs them
    # (the release list and install guide give 8.0.RC3 to 2.4.x): the old advice, caught.
    bad = [("mindspore.installed", "install MindSpore 2.5.0 from https://www.mindspore.cn/versions   # newest release "
                                   "whose version check accepts the CANN and Python here; not on PyPI")]
    assert _problems(bad, None, ["8.0.RC3"])
    good = [("mindspore.installed", "install MindSpore 2.4.1 from https://www.mindspore.cn/versions")]
    assert _problems(good, None, ["8.0.RC3"]) == []


def test_the_cann_install_sentence_is_one_message_pair_in_one_place():
    """The compat checks' fixes, the upgrade alternative and the plan's stack install CANN with one sentence
    (_recommend.cann_install_step): the operator package named ops from CANN 8.5.0, kernels before."""
    from ascend_doctor import catalog
    from ascend_doctor.checks._recommend import cann_install_step

    ops = "install CANN {cann}{build} toolkit + ops{purpose}{driver}, then `source <install>/set_env.sh`"
    kernels = ops.replace("+ ops", "+ kernels")
    assert_is_msg(deferred(cann_install_step, "8.5.0"), ops, cann="8.5.0", build="", purpose="", driver="")
    assert_is_msg(deferred(cann_install_step, "8.0.RC3", " (build 1)", " for MindSpore 2.4.1", " with HDK 24.1.rc3"),
                  kernels, cann="8.0.RC3", build=" (build 1)", purpose=" for MindSpore 2.4.1", driver=" with HDK 24.1.rc3")
    sentences = [e.msgid for e in catalog.read_entries(os.path.join(REPO, "ascend_doctor", "locale", "zh_CN"))
                 if re.search(r"toolkit \+ (ops|kernels)", e.msgid)]
    assert sorted(sentences) == sorted(m.msgid for m in catalog.extract_messages(
        os.path.join(REPO, "ascend_doctor", "checks", "_recommend.py")) if re.search(r"toolkit \+ (ops|kernels)", m.msgid))
    assert len(sentences) == 2
    for rel in ("checks/compat.py", "plan/stack.py"):
        with open(os.path.join(REPO, "ascend_doctor", rel), encoding="utf-8") as fh:
            assert not re.search(r"toolkit \+ (ops|kernels)", fh.read()), rel
