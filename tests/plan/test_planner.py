"""The node's plan (ascend_doctor/plan/): one coherent, least disruptive set of steps per report.

The class test runs every snapshot fixture and generated MindSpore x CANN x driver x firmware x Python
combinations through the real checks and asserts what must hold for any node: every failure is cleared by a step
or said to be unresolved, one driver target, nothing installed twice or again, every pairing the plan lands on
published in the matrix, and no step above `python` where a Python step alone clears the same failures.
"""

import json
import random
import re

import pytest

from ascend_doctor.doctor import Selection, evaluate
from ascend_doctor.facts import (
    JUDGED_ENV, CannChoice, CannInstall, DriverFacts, Facts, FirmwareFacts, MindSporeFacts, PythonFacts,
)
from ascend_doctor.findings import FAIL, PASS, SKIP, WARN, Finding, Report
from ascend_doctor.matrix import matrix_for_checks
from ascend_doctor.plan import (
    LEVELS, RANK, STACK_CHECKS, StackState, build_plan, command_part, is_alternative, plan_stack,
    split_alternatives, step_level, step_targets,
)
from ascend_doctor.plan.stack import _apply, _judge
from ascend_doctor.versions import parse_version, release_matches
from tests.helpers import SNAPSHOTS, fixture_path, run_cli, run_json
from tests.helpers.i18n_asserts import assert_msg, assert_shows, msg_ids
from ascend_doctor.plan.planner import AFTER_PLAN_KEY, UNRESOLVED_KEY

# the fix steps that say no MindSpore release is published with a CANN (their message ids)
NO_RELEASE_FOR_CANN = {"no MindSpore release in the matrix is published with CANN {cann}; change CANN",
                       "no MindSpore release in the matrix is published with {target}: see https://www.mindspore.cn/install "
                       "for the pairing, or upgrade CANN (below)"}

MATRIX = matrix_for_checks()


def node(ms=None, canns=(), judged=0, driver=None, firmware=None, python="3.10", arch="aarch64") -> Facts:
    """Facts of a node as the probes would report them (the environment points at install `judged`)."""
    f = Facts()
    f.system.arch, f.system.hostname = arch, "gen"
    f.python = PythonFacts(version=python, executable="/usr/bin/python3")
    if ms:
        f.mindspore = MindSporeFacts(installed=True, dist_name="mindspore", version=ms, flavour="ascend",
                                     location="/usr/lib/python3/site-packages")
    for i, release in enumerate(canns):
        root = f"/usr/local/Ascend/cann-{release}"
        f.cann.installs.append(CannInstall(root=root, kind="toolkit", release=release,
                                           compiler_version=MATRIX.compiler_for_cann(release)[0],
                                           set_env=root + "/set_env.sh", active=i == judged, has_opp=True,
                                           has_opp_kernel=True, has_te=True))
    if f.cann.installs:
        f.cann.active_root = f.cann.installs[judged].root
        f.cann.judged = CannChoice(root=f.cann.installs[judged].root, reason=JUDGED_ENV)
    if driver:
        f.driver = DriverFacts(installed=True, version=driver, package_version=driver)
    if firmware:
        hdk = [r["hdk"] for r in MATRIX.data["hdk_firmware"] if r["firmware"] == firmware]
        f.firmware = FirmwareFacts(installed=True, version=firmware, package_version=hdk[0] if hdk else None)
    return f


def judge(facts) -> Report:
    return evaluate(facts, Selection(only=["compat"]), origin={"kind": "snapshot", "name": "gen"}, matrix=MATRIX)


def _same(a, b):
    return release_matches(a, b) and release_matches(b, a)


# ---- what must hold for every plan --------------------------------------------------------------------------------

def assert_coherent(report: Report, facts=None):
    plan = report.node_plan()
    data = report.to_json()["plan"]
    assert set(data) == {"steps", "alternatives", "unresolved"}
    for step in data["steps"] + [s for a in data["alternatives"] for s in a["steps"]]:
        assert set(step) == {"do", "level", "needs_root", "reboot", "resolves", "i18n"} and step["level"] in LEVELS
        do = step["i18n"]["do"]  # the step's message, or None: a command nobody words (the "do" says it)
        assert set(step["i18n"]) == {"do"} and (do is None or "id" in do or "join" in do or "text" in do)
        assert isinstance(step["needs_root"], bool) and isinstance(step["reboot"], bool)
    for alt in data["alternatives"]:
        assert alt["why"] and alt["steps"]
    ids = {f.id for f in report.findings}
    cleared = {i for s in plan.steps for i in s.resolves}
    assert cleared <= ids and set(plan.unresolved) <= ids
    for f in report.findings:
        if f.status == FAIL:  # every failure is cleared by a step or said to be unresolved
            assert f.id in cleared or f.id in plan.unresolved, (f.id, data)
        assert not any(is_alternative(s) for s in f.fix), (f.id, f.fix)  # a fix holds steps only
    # one command once; one target per kind (one driver target); nothing installed again
    commands = [s.do for s in plan.steps]
    assert len(commands) == len(set(commands)), commands
    targets = {}
    for s in plan.steps:
        for kind, version in step_targets(s.do):
            assert all(_same(version, v) for v in targets.get(kind, [])), (kind, version, targets)
            targets.setdefault(kind, []).append(version)
    if facts is not None:
        installed = {"cann": [i.release for i in facts.cann.installs if i.release],
                     "hdk": [facts.driver.version] if facts.driver.version else [],
                     "mindspore": [facts.mindspore.version] if facts.mindspore.installed else []}
        if any(s.do.startswith("conda create") for s in plan.steps):
            installed["mindspore"] = []  # the same MindSpore in a new Python environment is no reinstall
        for kind, versions in targets.items():
            for v in versions:
                assert not any(_same(v, x) for x in installed.get(kind, []) if x), (kind, v, "is installed")
    # the disruption a step claims is the one place's reading of it (driver steps need root)
    for s in plan.steps:
        assert (s.level, s.needs_root or s.level not in ("driver", "hardware")) == (step_level(s.do, s.level)[0], True)
    return plan, targets


def assert_published(plan, targets, facts):
    """The pairing the plan lands on is one the matrix publishes (MindSpore x CANN; CANN x HDK)."""
    judged = facts.cann.judged_install
    sourced = [re.search(r"source (\S+)/set_env\.sh", s.do) for s in plan.steps if s.level == "shell"]
    sourced = [m.group(1) for m in sourced if m]
    cann = targets.get("cann", [None])[0]
    if cann is None:
        here = [i for i in facts.cann.installs if i.root in sourced]
        cann = here[0].release if here else judged.release if judged else None
    installed = facts.mindspore.version if facts.mindspore.installed else None
    ms = targets.get("mindspore", [installed])[0]
    # the same MindSpore again (in a new Python environment) is the pairing the node has, not one the plan makes
    changes_ms = "mindspore" in targets and not (installed and _same(ms, installed))
    if (changes_ms or "cann" in targets or sourced) and ms and cann:
        published = [c["cann"] for c in MATRIX.published_canns(ms)]
        # or the MindSpore's wheel is built with that CANN and its checker accepts it: the CANN in use kept, or a
        # CANN installed that a source pairs with the driver the plan keeps (read from the matrix's rows)
        runs = facts.driver.version and "hdk" not in targets and any(
            r["relation"] != "incompatible" and _same(r["cann"], cann) and
            any(release_matches(facts.driver.version, p) for p in r["hdk"]) for r in MATRIX.data["cann_hdk"])
        shipped = ("cann" not in targets and not sourced or runs) and \
            ms in [r["version"] for r in MATRIX.built_with_mindspore_for_cann(cann)]
        assert shipped or any(release_matches(cann, c) for c in published), (ms, cann, published)
    for hdk in targets.get("hdk", []):
        rows = MATRIX.hdk_for_cann(cann) if cann else []
        paired = [p for r in rows if r["relation"] in ("paired", "compatible") for p in r["hdk"]]
        firmware_own = facts.firmware.package_version and _same(hdk, facts.firmware.package_version)
        assert firmware_own or any(release_matches(hdk, p) or release_matches(p.replace(".X", ""), hdk)
                                   for p in paired), (hdk, cann, paired)


def assert_python_first(report: Report, facts):
    """No step above `python` where changing only MindSpore (to any release published with the CANN in use)
    clears the same failures."""
    plan = report.node_plan()
    failing = {f.id for f in report.findings if f.status == FAIL and f.id in STACK_CHECKS}
    high = [s for s in plan.steps if RANK[s.level] > RANK["python"] and failing & set(s.resolves)]
    if not high or not facts.mindspore.installed:
        return
    judged = facts.cann.judged_install
    if judged is None:
        return
    rows = MATRIX.published_mindspore_for_cann(judged.release, judged.compiler_version, facts.python.version,
                                               "linux-aarch64")
    for row in rows:
        statuses = _judge(_apply(facts, MATRIX, StackState(mindspore=row, steps=[("x", "python")])), MATRIX,
                          STACK_CHECKS)
        if not any(statuses.get(i) == FAIL for i in statuses):
            pytest.fail(f"MindSpore {row['version']} alone clears {sorted(failing)}, yet the plan goes to "
                        f"{[s.level for s in high]}")


@pytest.mark.parametrize("name", SNAPSHOTS)
def test_every_snapshot_fixture_gets_a_coherent_plan(name):
    from ascend_doctor.bundle import open_bundle
    from ascend_doctor.doctor import RunOptions, run_checks

    with open_bundle(fixture_path(name)) as host:
        report = run_checks(host, RunOptions(timeout=5.0))
    assert_coherent(report)
    assert_one_answer(report)
    # a saved report reads its plan back as it was written
    again = Report.from_json(json.loads(json.dumps(report.to_json())))
    assert again.to_json()["plan"] == report.to_json()["plan"]


def _combinations(n, seed):
    rng = random.Random(seed)
    finals = [r["version"] for r in MATRIX.mindspore_releases if r["release_kind"] in ("final", "post")
              and r["version"] >= "2"]
    canns = [r["release"] for r in MATRIX.data["cann"] if "alpha" not in r["release"] and r["release"] >= "7"]
    drivers = sorted({p.lower().replace(".x", ".0") for r in MATRIX.data["cann_hdk"] for p in r["hdk"]} |
                     {s["version"] for s in MATRIX.data["driver_samples"]})
    firmwares = sorted({r["firmware"] for r in MATRIX.data["hdk_firmware"]}) + [None]
    pythons = ["3.7", "3.8", "3.9", "3.10", "3.11"]
    for _ in range(n):
        installs = rng.sample(canns, rng.choice([1, 1, 2]))
        yield dict(ms=rng.choice(finals), canns=installs, judged=rng.randrange(len(installs)),
                   driver=rng.choice(drivers), firmware=rng.choice(firmwares), python=rng.choice(pythons))


@pytest.mark.parametrize("seed", range(6))
def test_generated_nodes_get_coherent_published_python_first_plans(seed):
    for combo in _combinations(12, seed):
        facts = node(**combo)
        report = judge(facts)
        plan, targets = assert_coherent(report, facts)
        assert_published(plan, targets, facts)
        assert_python_first(report, facts)
        assert_one_answer(report)


# ---- the cases the audit found wrong ------------------------------------------------------------------------------

def test_a_pip_install_comes_before_root_and_a_reboot():
    report = judge(node(ms="2.7.1", canns=["8.5.0"], driver="25.5.0"))
    plan = report.node_plan()
    assert [s.level for s in plan.steps] == ["python"]
    assert plan.steps[0].do.startswith("pip install mindspore==2.7.2")
    assert {"compat.mindspore_cann", "compat.custom_ops_cann"} <= set(plan.steps[0].resolves)
    ms = report.find("compat.mindspore_cann")
    assert ms.fix[0] == plan.steps[0].do  # the finding says what the plan says
    assert all(a["steps"] for a in ms.alternatives)  # the CANN way is a labelled alternative


def test_mindspore_2_3_on_cann_8_0_rc3_changes_mindspore_from_the_download_page():
    report = judge(node(ms="2.3.0", canns=["8.0.RC3"], driver="24.1.rc3", python="3.9"))
    plan = report.node_plan()
    assert [s.level for s in plan.steps] == ["python"]
    assert plan.steps[0].do.startswith("install MindSpore 2.4.1 from https://www.mindspore.cn/versions")


def test_an_installed_cann_is_sourced_never_installed_again():
    facts = node(ms="2.7.1", canns=["8.0.RC2", "8.3.RC1"], judged=0, driver="25.3.rc1")
    report = judge(facts)
    plan, targets = assert_coherent(report, facts)
    assert [s.level for s in plan.steps] == ["shell"]
    assert plan.steps[0].do.startswith("source /usr/local/Ascend/cann-8.3.RC1/set_env.sh")
    texts = [s for f in report.findings for s in f.fix + [x for a in f.alternatives for x in a["steps"]]]
    assert not any(re.search(r"install CANN 8\.3\.RC1\b|Ascend HDK 24\.1\.RC2", s) for s in texts), texts


def test_driver_and_firmware_out_of_step_get_one_driver_target_from_a_published_source():
    facts = node(ms="2.2.14", canns=["7.0.0"], driver="23.0.7", firmware="7.5.0.1.129", python="3.9")
    report = judge(facts)
    plan, targets = assert_coherent(report, facts)
    assert len(targets.get("hdk", [])) == 1
    texts = [s for f in report.findings for s in f.fix + [x for a in f.alternatives for x in a["steps"]]]
    # 23.0.3 / 23.0.1 are "known-working" reports for CANN 7.0.0, not a pairing any vendor table gives
    assert not any(re.search(r"\b23\.0\.[13]\b", s) for s in texts), texts
    assert [s for s in plan.steps if s.level == "driver"][0].reboot


def test_mindspore_change_beats_a_cann_change_when_the_driver_must_change_anyway():
    facts = node(ms="2.4.1", canns=["8.0.0"], driver="23.0.7", firmware="7.5.0.1.129")
    plan, targets = assert_coherent(judge(facts), facts)
    assert "cann" not in targets and [s.level for s in plan.steps] == ["driver", "python"]
    assert plan.steps[0].resolves == ["compat.cann_driver", "compat.driver_firmware"]
    assert plan.steps[1].resolves == ["compat.mindspore_cann"]


def test_an_hdk_change_over_an_installed_driver_is_firmware_first_as_the_hdk_guide_orders():
    """The CANN install guide's "Installing the NPU Driver and Firmware" (hiascend, instg_0005): an overwrite install
    over an installed driver and firmware is firmware > driver; a first install is driver > firmware."""
    facts = node(ms="2.4.1", canns=["8.0.0"], driver="23.0.7", firmware="7.5.0.1.129")
    plan, _ = assert_coherent(judge(facts), facts)
    step = [s for s in plan.steps if s.level == "driver"][0]
    assert_msg(step.do, "install Ascend HDK {hdk} (the NPU firmware, then the driver, as the HDK install guide orders it), "
               "then reboot")
    assert step.needs_root and step.reboot


def test_a_gpu_plan_with_an_unsupported_python_never_installs_cann():
    """MindSpore on CUDA has no CANN or NPU driver in its stack (issue 28): MindSpore 2.4.10's GPU build with Python
    3.7 gets a Python it has wheels for, CUDA and MindSpore in that environment, not 'install CANN 7.0.0'."""
    proc, data = run_json("matrix", "check", "--mindspore", "2.4.10", "--cuda", "11.1", "--nvidia-driver", "470.82.01",
                          "--python", "3.7", "--arch", "x86_64")
    plan = data["plan"]
    steps = [s["do"] for s in plan["steps"]] + [s["do"] for a in plan["alternatives"] for s in a["steps"]]
    assert steps and not any(re.search(r"\bCANN\b|Ascend HDK|set_env\.sh", s) for s in steps), steps
    assert "compat.python_mindspore" not in plan["unresolved"]
    assert any("compat.python_mindspore" in s["resolves"] for s in plan["steps"])
    assert plan["steps"][0]["do"].startswith("conda create -n ms-gpu python=3.")


@pytest.mark.parametrize("given", [
    ("2.9.0", "8.1.RC1", "3.8"),   # the plan: MindSpore 2.6.0 in a Python 3.11 environment
    ("2.3.0", "8.3.RC1", "3.12"),  # the plan: MindSpore 2.7.1 in a Python 3.11 environment
    ("2.10.0", "6.3.RC1", "3.11"),  # the plan: MindSpore 2.0.0 in a Python 3.9 environment
])
def test_a_finding_the_plan_clears_gives_one_answer(given):
    """Audit (issue 22): a finding whose fix is the plan's steps carries no second environment for another MindSpore
    after them, and no note or other way as a further step (other ways are labelled alternatives)."""
    ms, cann, py = given
    _, data = run_json("matrix", "check", "--mindspore", ms, "--cann", cann, "--python", py, "--arch", "aarch64")
    steps = {s["do"] for s in data["plan"]["steps"]}
    for f in data["findings"]:
        if f["status"] not in ("fail", "warn") or not set(f["fix"]) & steps:
            continue
        extra = [s for s in f["fix"] if s not in steps]
        assert not any("conda create" in s for s in extra), (f["id"], f["fix"])
        assert all(re.match(r"(python -c|npu-smi|cat |ls )", s) for s in extra), (f["id"], extra)
    assert not any(msg_ids(f["i18n"]["fix"]) & NO_RELEASE_FOR_CANN for f in data["findings"]), \
        "a release is published with that CANN"


# ---- steps: their level, their order ------------------------------------------------------------------------------

@pytest.mark.parametrize("step, level, root, reboot", [
    ("source /usr/local/Ascend/ascend-toolkit/set_env.sh", "shell", False, False),
    ("export HCCL_CONNECT_TIMEOUT=600", "shell", False, False),
    ("npu-smi info -t board -i 0   # read the Compatibility line", "shell", False, False),
    ("echo 'source /opt/x/set_env.sh' >> ~/.bashrc   # every new shell", "config", False, False),
    ("pip install mindspore==2.7.2   # published with CANN 8.5.0", "python", False, False),
    ("conda install -c conda-forge cudatoolkit=11.6", "python", False, False),
    ("install MindSpore 2.4.1 from https://www.mindspore.cn/versions   # not on PyPI", "python", False, False),
    ("./Ascend-cann-toolkit_8.0.RC3_linux-aarch64.run --install", "cann", False, False),
    ("install Ascend HDK 24.1.0 (NPU driver + firmware), then reboot", "driver", True, True),
    ("sudo apt-get install -y nvidia-driver-535   # CUDA 12.2", "driver", True, True),
    ("sudo rmmod nvidia_uvm nvidia && sudo modprobe nvidia", "driver", True, False),
    ("sudo reboot   # loads the module (the usual cause: an upgrade without a reboot)", "driver", True, True),
    ("contact Huawei technical support with the device log", "hardware", True, False),
    # the same steps as a Chinese report words them
    ("只保留：`source /usr/local/Ascend/ascend-toolkit/set_env.sh`（并删除 `source /usr/local/Ascend/nnae/set_env.sh`）",
     "config", False, False),
    ("若驱动卡死，重启节点（root）", "driver", True, True),
    ("在现有 CUDA 旁再安装 NVIDIA CUDA 11.1 工具包，然后执行：`export CUDA_HOME=/usr/local/cuda-11.1`", "cann", False,
     False),
    ("查看芯片状态：`npu-smi info -t health -i <id>`", "shell", False, False),
])
def test_step_level(step, level, root, reboot):
    assert step_level(step) == (level, root, reboot)


def test_an_nvidia_driver_step_comes_before_the_cuda_runtime_that_needs_it():
    runtime = Finding("gpu.cuda_runtime_for_mindspore", FAIL, "t",
                      fix=["conda install -c conda-forge cudatoolkit=11.6   # the CUDA MindSpore needs"])
    driver = Finding("gpu.driver_cuda", FAIL, "t",
                     fix=["sudo apt-get install -y nvidia-driver-535   # supports CUDA 11.6", "sudo reboot"])
    plan = build_plan([runtime, driver])
    assert [s.level for s in plan.steps] == ["driver", "driver", "python"]
    assert plan.steps[-1].resolves == ["gpu.cuda_runtime_for_mindspore"]


def test_the_least_disruptive_option_of_a_finding_becomes_its_fix():
    f = Finding("x.y", FAIL, "t", fix=["install Ascend HDK 24.1.0 (NPU driver + firmware)",
                                       "or keep the driver: pip install mindspore==2.5.0"])
    plan = build_plan([f])
    assert [s.do for s in plan.steps] == ["pip install mindspore==2.5.0"]
    assert f.fix == ["pip install mindspore==2.5.0"]
    # the fix as it was stays, labelled (an alternative always says what it is)
    assert f.alternatives == [{"why": "the fix the check gives first",
                               "steps": ["install Ascend HDK 24.1.0 (NPU driver + firmware)"]}]


def test_a_failure_without_a_fix_is_unresolved_with_why():
    f = Finding("x.y", FAIL, "t")
    plan = build_plan([f, Finding("x.z", WARN, "t", fix=["install Ascend HDK 24.1.0 (NPU driver + firmware)"])])
    assert plan.unresolved == ["x.y"] and UNRESOLVED_KEY in f.evidence
    assert plan.steps == []  # a warning does not take the node down when no failure needs it


def test_split_alternatives_labels_them():
    steps, alts = split_alternatives(["a", "or keep this CANN: pip install mindspore==2.5.0   # why", "b",
                                      "or: export X=1", "或者在 GPU 上没有进程时执行：`sudo reboot`"])
    assert steps == ["a", "b"]
    assert alts == [{"why": "keep this CANN", "steps": ["pip install mindspore==2.5.0   # why"]},
                    {"why": "", "steps": ["export X=1"]},
                    {"why": "在 GPU 上没有进程时执行", "steps": ["`sudo reboot`"]}]


# ---- the plan in each output ----------------------------------------------------------------------------------------

def test_text_markdown_and_the_script_show_the_plan_in_its_order():
    path = fixture_path("a2_env_not_sourced")
    text = run_cli("check", "--bundle", path, "--no-color").stdout.splitlines()
    head = next(i for i, l in enumerate(text) if l.startswith("== Plan"))
    summary = next(i for i, l in enumerate(text) if l.startswith("Summary:"))
    assert head < summary and text[head + 1].startswith("  1. [this shell] source /usr/local/Ascend/")
    _, data = run_json("check", "--bundle", path)
    assert data["schema"] == "ascend-doctor.report/2"
    md = run_cli("check", "--bundle", path, "--format", "markdown").stdout
    assert "## Plan" in md and "1. [this shell] source /usr/local/Ascend/ascend-toolkit/set_env.sh" in md
    script = run_cli("fix", "--script", "--bundle", path).stdout
    order = [data["plan"]["steps"][i]["do"].split("   #")[0] for i in range(len(data["plan"]["steps"]))]
    at = [script.find(step.split(" ", 1)[1][:30]) for step in order]
    assert all(a >= 0 for a in at) and at == sorted(at), (order, at)


def test_driver_steps_are_marked_in_the_script():
    from ascend_doctor.fix_script import script_for

    f = Finding("compat.driver_firmware", FAIL, "t", fix=["install Ascend HDK 24.1.0 (NPU driver + firmware), "
                                                          "then reboot"])
    text = script_for(Report(tool={}, host={"name": "n"}, facts={}, findings=[f]), "now")
    line = next(l for l in text.splitlines() if "Ascend HDK 24.1.0" in l)
    assert line.startswith("# ") and "needs root" in line
    assert_shows(line, "reboot after this step")


@pytest.mark.parametrize("name", SNAPSHOTS)
def test_a_chinese_report_plans_the_same_levels_in_the_same_order(name):
    """The levels are read from the steps as written in the report's language: a zh report's plan is the English
    one's, step for step (a tool reads either the same way)."""
    from ascend_doctor.bundle import open_bundle
    from ascend_doctor.doctor import RunOptions, run_checks
    from ascend_doctor.i18n import get_lang, set_lang

    plans = {}
    before = get_lang()
    try:
        for lang in ("en", "zh"):
            set_lang(lang)
            with open_bundle(fixture_path(name)) as host:
                plan = run_checks(host, RunOptions(timeout=5.0)).node_plan()
            plans[lang] = [(s.level, s.needs_root, s.reboot, s.resolves) for s in plan.steps]
    finally:
        set_lang(before)
    assert plans["zh"] == plans["en"]


def test_a_warning_alone_is_cleared_by_a_pip_install_never_by_root():
    """Custom operators built for another CANN (a warning): the MindSpore built with this CANN clears it; no CANN
    install, no driver change and no other set_env.sh is planned for a warning."""
    facts = node(ms="2.7.1", canns=["8.2.RC1"], driver="25.2.0")
    plan, targets = assert_coherent(judge(facts), facts)
    assert [s.level for s in plan.steps] == ["python"] and plan.steps[0].do.startswith("pip install mindspore==2.7.0")
    assert plan.steps[0].resolves == ["compat.custom_ops_cann"] and not plan.alternatives


# ---- a CANN the installed driver runs, before a driver change (the class of audit finding E31) -----------------------

def _driver_canns(driver):
    """From the matrix's rows directly (not the planner's own search): the CANN releases a source pairs with this
    driver or lists as compatible with it."""
    return [r["cann"] for r in MATRIX.data["cann_hdk"] if r["relation"] in ("paired", "compatible")
            and any(release_matches(driver, p) for p in r["hdk"])]


def assert_driver_kept_where_a_published_pair_does(report, facts):
    """No driver step clears a failure where a published (MindSpore x CANN) pair whose CANN the installed driver
    runs clears every failure without one."""
    plan = report.node_plan()
    failing = {f.id for f in report.findings if f.status == FAIL and f.id in STACK_CHECKS}
    if not any(s.level == "driver" and failing & set(s.resolves) for s in plan.steps) or not facts.driver.version:
        return
    for cann in _driver_canns(facts.driver.version):
        for row in MATRIX.published_mindspore_for_cann(cann, None, facts.python.version, "linux-aarch64"):
            state = StackState(mindspore=row, cann_new=cann, steps=[("x", "cann")])
            statuses = _judge(_apply(facts, MATRIX, state), MATRIX, STACK_CHECKS)
            if not any(statuses.get(i) == FAIL for i in statuses):
                pytest.fail(f"CANN {cann} with MindSpore {row['version']} keeps driver {facts.driver.version} and "
                            f"clears {sorted(failing)}, yet the plan changes the driver")


def assert_one_answer(report):
    """No finding's fix names another CANN, driver or MindSpore than the plan; when the plan changes the CANN in
    use, no finding's fix or alternative installs another CANN, or a driver for another CANN, beside the plan's
    own steps."""
    plan = report.node_plan()
    targets = {k: v for s in plan.steps for k, v in step_targets(s.do)}
    changes_cann = "cann" in targets or any("use it instead of installing one" in s.do for s in plan.steps)
    mine = {s.do for s in plan.steps}
    for f in report.findings:
        if f.status not in (FAIL, WARN):
            continue
        for step in f.fix:
            for kind, version in step_targets(step):
                assert kind not in targets or release_matches(version, targets[kind]) or \
                    release_matches(targets[kind], version), (f.id, step, targets)
        if changes_cann:
            for step in f.fix + [x for a in f.alternatives for x in a["steps"]]:
                if step in mine:
                    continue
                assert step_level(step)[0] != "cann", (f.id, step, sorted(mine))
                assert all(kind != "hdk" or version == targets.get("hdk") for kind, version in step_targets(step)), \
                    (f.id, step, sorted(mine))


def _driver_bound_combinations(n, seed):
    """Nodes whose CANN the driver does not run, and whose driver runs some other published CANN: the class where a
    CANN change competes with a driver change."""
    rng = random.Random(seed)
    drivers = sorted({p.lower() for r in MATRIX.data["cann_hdk"] if r["relation"] in ("paired", "compatible")
                      for p in r["hdk"] if ".x" not in p.lower()})
    finals = [r["version"] for r in MATRIX.mindspore_releases if r["release_kind"] in ("final", "post")
              and r["version"] >= "2"]
    canns = [r["release"] for r in MATRIX.data["cann"] if "alpha" not in r["release"] and r["release"] >= "7"]
    made = 0
    while made < n:
        driver = rng.choice(drivers)
        runs = _driver_canns(driver)
        cann = rng.choice(canns)
        if not runs or any(release_matches(cann, c) for c in runs):
            continue
        made += 1
        yield dict(ms=rng.choice(finals), canns=[cann], driver=driver, python=rng.choice(["3.9", "3.10", "3.11"]))


@pytest.mark.parametrize("seed", range(5))
def test_a_cann_the_driver_runs_comes_before_a_driver_change_and_the_report_gives_one_answer(seed):
    for combo in _driver_bound_combinations(12, seed):
        facts = node(**combo)
        report = judge(facts)
        plan, targets = assert_coherent(report, facts)
        assert_published(plan, targets, facts)
        assert_python_first(report, facts)
        assert_driver_kept_where_a_published_pair_does(report, facts)
        assert_one_answer(report)


def test_mindspore_2_7_1_post1_on_cann_9_0_0_with_hdk_24_1_0_changes_cann_not_the_driver():
    facts = node(ms="2.7.1.post1", canns=["9.0.0"], driver="24.1.0", python="3.9")
    report = judge(facts)
    plan, targets = assert_coherent(report, facts)
    assert [s.level for s in plan.steps] == ["cann", "python"], [s.do for s in plan.steps]
    assert plan.steps[0].do.startswith("install CANN 8.2.RC1") and plan.steps[1].do.startswith("pip install mindspore==2.7.0")
    assert "hdk" not in targets  # no root, no reboot: HDK 24.1.0 is listed compatible with CANN 8.2.RC1
    for f in report.findings:
        if f.status in (FAIL, WARN):
            assert f.fix == [s.do for s in plan.steps], (f.id, f.fix)  # one answer: the pair, together


def test_a_cann_change_lands_on_a_cann_the_driver_is_published_with_and_clears_its_warning():
    """MindSpore 2.6.0 on CANN 5.0.2, driver 23.0.rc1 (no source pairs CANN 5.0.2 with a driver; the vendor's package
    list reports CANN 6.3.RC1 working with 23.0.rc1): the plan's CANN is one the driver is published with, never
    CANN 8.1.RC1 (published with 2.6.0, but with no source for driver 23.0.rc1), so the unknown pairing is cleared
    by the plan, and no look at CANN 5.0.2's release notes is left in its fix."""
    facts = node(ms="2.6.0", canns=["5.0.2"], driver="23.0.rc1", python="3.11")
    report = judge(facts)
    plan, targets = assert_coherent(report, facts)
    assert_lands_published(report, facts)
    assert targets["cann"] == ["6.3.RC1"] and "hdk" not in targets, targets
    warn = report.find("compat.cann_driver")
    assert warn.status == WARN and any(warn.id in s.resolves for s in plan.steps)
    assert warn.fix == [s.do for s in plan.steps] and not plan.unresolved


def test_a_node_whose_firmware_must_change_lands_on_published_pairings_only():
    """MindSpore 2.2.11 on CANN 8.3.RC1, driver 25.5.2 with firmware 7.7.0.1.231 (which refuse each other): a driver
    change is needed anyway; the plan is the HDK paired with the CANN installed here and a MindSpore published with
    that CANN (in a Python it has wheels for), not a CANN no source pairs with driver 25.5.2 (audit F25/F29/F38)."""
    facts = node(ms="2.2.11", canns=["8.3.RC1"], driver="25.5.2", firmware="7.7.0.1.231", python="3.8")
    report = judge(facts)
    plan, targets = assert_coherent(report, facts)
    assert_published(plan, targets, facts)
    assert "cann" not in targets and targets["hdk"] == ["25.3.RC1"], targets
    best, _others = plan_stack(facts, MATRIX, report.findings)
    assert all(status in (PASS, SKIP) for status in best.statuses.values()), best.statuses


# ---- no pairing left unknown where a published one runs (audit F25, F29, F38) ---------------------------------------

PAIRINGS = ("compat.mindspore_cann", "compat.cann_driver", "compat.driver_firmware")


def _any_combinations(n, seed):
    """Any release the matrix lists (older MindSpore and CANN too), any Python 3.7-3.12, one CANN install."""
    rng = random.Random(seed)
    finals = [r["version"] for r in MATRIX.mindspore_releases if r["release_kind"] in ("final", "post")]
    canns = [r["release"] for r in MATRIX.data["cann"] if "alpha" not in r["release"]]
    drivers = sorted({p.lower().replace(".x", ".0") for r in MATRIX.data["cann_hdk"] for p in r["hdk"]} |
                     {s["version"] for s in MATRIX.data["driver_samples"]})
    for _ in range(n):
        yield dict(ms=rng.choice(finals), canns=[rng.choice(canns)], driver=rng.choice(drivers),
                   python=rng.choice(["3.7", "3.8", "3.9", "3.10", "3.11", "3.12"]))


def assert_no_unknown_pairing_where_a_published_pair_runs(report, facts):
    """A plan that changes CANN but not the driver leaves no pairing no source gives, where a CANN the driver runs
    (a source pairs them) with a MindSpore published with it (a wheel for this Python, or one in a new environment)
    clears every failure and leaves no such pairing; and a failure the plan turns into such a warning says so
    (`after the plan`)."""
    plan = report.node_plan()
    failing = {f.id for f in report.findings if f.status == FAIL and f.id in STACK_CHECKS}
    if not failing:
        return
    best, _others = plan_stack(facts, MATRIX, report.findings)
    if best is None:
        return
    for f in report.findings:
        if f.id in failing and best.statuses.get(f.id) == WARN and any(f.id in s.resolves for s in plan.steps):
            assert AFTER_PLAN_KEY in f.evidence, (f.id, f.evidence)
    unknown = [i for i in PAIRINGS if best.statuses.get(i) == WARN]
    if not unknown or "hdk" in best.parts or "cann" not in best.parts:
        return
    for cann in _driver_canns(facts.driver.version):
        for row in MATRIX.published_mindspore_for_cann(cann, None, None, "linux-aarch64"):
            fits = (MATRIX.python_for(row["version"], "linux-aarch64", "ascend") or {}).get("python") or []
            python = facts.python.version if facts.python.version in fits else (fits[-1] if fits else None)
            state = StackState(mindspore=row, cann_new=cann, python=python, steps=[("x", "cann")])
            statuses = _judge(_apply(facts, MATRIX, state), MATRIX, STACK_CHECKS)
            if not any(s == FAIL for s in statuses.values()) and not any(statuses.get(i) == WARN for i in PAIRINGS):
                pytest.fail(f"CANN {cann} with MindSpore {row['version']} (driver {facts.driver.version} paired) "
                            f"leaves no unknown pairing, yet the plan {[s.do for s in plan.steps]} leaves {unknown}")


def _unpaired_cann_combinations(n, seed):
    """The class of F25/F29/F38: a driver some CANN's source pairs it with, a CANN installed that no source pairs with
    it, any MindSpore, any Python 3.7-3.12."""
    rng = random.Random(seed)
    finals = [r["version"] for r in MATRIX.mindspore_releases if r["release_kind"] in ("final", "post")]
    canns = [r["release"] for r in MATRIX.data["cann"] if "alpha" not in r["release"]]
    drivers = sorted({p.lower() for r in MATRIX.data["cann_hdk"] if r["relation"] in ("paired", "compatible")
                      for p in r["hdk"] if ".x" not in p.lower()})
    made = 0
    while made < n:
        driver, cann = rng.choice(drivers), rng.choice(canns)
        if any(release_matches(cann, c) for c in _driver_canns(driver)):
            continue
        made += 1
        yield dict(ms=rng.choice(finals), canns=[cann], driver=driver,
                   python=rng.choice(["3.7", "3.8", "3.9", "3.10", "3.11", "3.12"]))


@pytest.mark.parametrize("seed", range(4))
def test_a_published_pair_the_driver_runs_beats_a_cann_no_source_pairs_with_the_driver(seed):
    for combo in _unpaired_cann_combinations(20, 100 + seed):
        facts = node(**combo)
        report = judge(facts)
        plan, targets = assert_coherent(report, facts)
        assert_no_unknown_pairing_where_a_published_pair_runs(report, facts)
        assert_one_answer(report)


@pytest.mark.parametrize("given,cann,mindspore", [
    (dict(ms="2.1.1", canns=["8.3.RC2"], driver="25.3.0", python="3.9"), "8.5.0", "2.7.2"),  # F25
    (dict(ms="2.2.12", canns=["9.0.0"], driver="25.5.0", python="3.9"), "8.5.0", "2.7.2"),  # F29
])
def test_the_audits_unknown_pairing_cases_get_a_published_pair_the_driver_runs(given, cann, mindspore):
    facts = node(**given)
    report = judge(facts)
    plan, targets = assert_coherent(report, facts)
    assert targets == {"cann": [cann], "mindspore": [mindspore]}, targets
    assert [s.level for s in plan.steps] == ["cann", "python"]


def test_the_audits_cann_that_no_source_pairs_with_the_driver_is_never_planned():
    """Audit H #43: MindSpore 2.3.1 on CANN 8.5.0, driver 23.0.rc3, Python 3.8. The plan had moved to CANN 8.0.RC2,
    which no source pairs with driver 23.0.rc3. A CANN the driver is published with (7.0.RC1, the vendor's package
    list) and the MindSpore published with that CANN (2.2.1, cp38) keeps the driver and clears both failures."""
    facts = node(ms="2.3.1", canns=["8.5.0"], driver="23.0.rc3", python="3.8")
    report = judge(facts)
    plan, targets = assert_coherent(report, facts)
    assert_lands_published(report, facts)
    assert targets == {"cann": ["7.0.RC1"], "mindspore": ["2.2.1"]}, targets
    assert not plan.unresolved and [s.level for s in plan.steps] == ["cann", "python"]


# ---- every state a plan ends in is published (audit H #43, the class) ------------------------------------------------

_SOURCED = re.compile(r"^source (\S+)/set_env\.sh\b")
_FIRMWARE_OF = re.compile(r"\bNPU firmware of HDK (\S+)")


def _planned_facts(report, facts):
    """The node as it is after the plan, read from the plan's steps alone (not from the planner's own state): the
    CANN it installs or sources, the driver and firmware of the HDK it installs, the Python of the environment it
    makes, the MindSpore it installs. Returns (facts after, the parts the plan changes)."""
    import copy

    steps = [s.do for s in report.node_plan().steps]
    targets = {k: v for s in steps for k, v in step_targets(s)}
    after = copy.deepcopy(facts)
    changed, use = set(), None

    def firmware_of(hdk):
        return ([r["firmware"] for r in MATRIX.data["hdk_firmware"] if _same(r["hdk"], hdk)] or [None])[0]

    for s in steps:
        new = _NEW_PYTHON.search(s)
        if new:
            after.python.version = new.group(1)
            changed.add("python")
        here = _SOURCED.match(command_part(s))
        if here and any(i.root == here.group(1) for i in after.cann.installs):
            use = next(i for i in after.cann.installs if i.root == here.group(1))
            changed.add("cann")
        fw = _FIRMWARE_OF.search(command_part(s))
        if fw:
            after.firmware.version, after.firmware.compatible_version_drv = firmware_of(fw.group(1)), []
            changed.add("firmware")
    if "cann" in targets:
        release = targets["cann"]
        use = CannInstall(root=f"/usr/local/Ascend/cann-{release}", kind="toolkit", release=release,
                          compiler_version=MATRIX.compiler_for_cann(release)[0], set_env="x", has_opp=True,
                          has_opp_kernel=True, has_te=True)
        after.cann.installs = list(after.cann.installs) + [use]
        changed.add("cann")
    if use is not None:
        for i in after.cann.installs:
            i.active = i is use
        after.cann.active_root, after.cann.judged = use.root, CannChoice(root=use.root, reason=JUDGED_ENV)
    if "hdk" in targets:
        hdk = targets["hdk"]
        if not (after.driver.version and _same(after.driver.version, hdk)):
            after.driver.version = re.sub(r"(?i)\.rc", ".rc", hdk)
            after.driver.package_version, after.driver.compatible_version_fw = hdk, []
            after.npu.driver_version = None
            changed.add("driver")
        if not any("firmware's release" in s for s in steps):
            after.firmware.version, after.firmware.compatible_version_drv = firmware_of(hdk), []
            changed.add("firmware")
    ms = after.mindspore
    if "mindspore" in targets and not (ms.installed and ms.version and _same(ms.version, targets["mindspore"])):
        ms.installed, ms.version = True, targets["mindspore"]
        ms.accepted_cann, ms.custom_ops_cann, ms.wheel_tags = [], {}, []
        changed.add("mindspore")  # the same MindSpore in a new environment changes its Python, not its CANN pairing
    if "python" in changed:
        ms.wheel_tags = []  # a wheel installed into the new environment: its tags are that Python's
    return after, changed


def assert_lands_published(report, facts):
    """Every pairing the plan changes a side of is one the matrix publishes on the state the plan leads to: its
    check passes there (MindSpore x CANN, CANN x driver, driver x firmware, MindSpore x Python), and the Python is
    inside the range the CANN's install guide states. A failure no such state clears is unresolved, with why."""
    after, changed = _planned_facts(report, facts)
    if not changed:
        return
    touched = {"compat.mindspore_cann": {"mindspore", "cann"}, "compat.cann_driver": {"cann", "driver"},
               "compat.driver_firmware": {"driver", "firmware"}, "compat.python_mindspore": {"mindspore", "python"}}
    statuses = {f.id: f.status for f in judge(after).findings}
    for check, parts in touched.items():
        if parts & changed:
            assert statuses.get(check, SKIP) in (PASS, SKIP), (check, statuses.get(check),
                                                               [s.do for s in report.node_plan().steps])
    if changed & {"cann", "python"} and after.cann.judged_install is not None:
        assert MATRIX.python_in_cann_range(after.python.version, after.cann.judged_install.release), \
            (after.python.version, after.cann.judged_install.release)


def _driver_x_cann_combinations(per_driver, seed):
    """Every driver the matrix knows (a CANN pairing, a firmware row, a driver sample) with CANN releases no source
    pairs it with, older and newer than the ones it is paired with, any MindSpore, any Python 3.7-3.12."""
    from ascend_doctor.versions import parse_version

    rng = random.Random(seed)
    drivers = sorted({p.lower().replace(".x", ".0") for r in MATRIX.data["cann_hdk"] for p in r["hdk"]} |
                     {s["version"] for s in MATRIX.data["driver_samples"]} |
                     {r["hdk"].lower() for r in MATRIX.data["hdk_firmware"]})
    canns = [r["release"] for r in MATRIX.data["cann"] if "alpha" not in r["release"]]
    finals = [r["version"] for r in MATRIX.mindspore_releases if r["release_kind"] in ("final", "post")]
    for driver in drivers:
        runs = [r["cann"] for r in MATRIX.data["cann_hdk"] if r["relation"] != "incompatible"
                and any(release_matches(driver, p) for p in r["hdk"])]
        lo = min((parse_version(c) for c in runs), default=parse_version(driver))
        hi = max((parse_version(c) for c in runs), default=parse_version(driver))
        unpaired = [c for c in canns if not any(_same(c, r) for r in runs)]
        older = [c for c in unpaired if parse_version(c) < lo]
        newer = [c for c in unpaired if parse_version(c) > hi]
        for side in (older, newer):
            for cann in rng.sample(side, min(per_driver, len(side))):
                yield dict(ms=rng.choice(finals), canns=[cann], driver=driver,
                           python=rng.choice(["3.7", "3.8", "3.9", "3.10", "3.11", "3.12"]))


@pytest.mark.parametrize("seed", range(3))
def test_every_state_a_plan_ends_in_is_published(seed):
    seen = 0
    for combo in _driver_x_cann_combinations(2, 400 + seed):
        facts = node(**combo)
        report = judge(facts)
        plan, targets = assert_coherent(report, facts)
        assert_lands_published(report, facts)
        assert_published(plan, targets, facts)
        assert_one_answer(report)
        seen += 1
    assert seen > 80, seen


def test_every_generated_plan_ends_in_a_published_state():
    """The same on the other generators' nodes (two CANN installs, firmware, older releases)."""
    combos = list(_combinations(30, 500)) + list(_any_combinations(30, 501)) + list(_driver_bound_combinations(15, 502))
    for combo in combos:
        facts = node(**combo)
        report = judge(facts)
        assert_coherent(report, facts)
        assert_lands_published(report, facts)


@pytest.mark.parametrize("name", SNAPSHOTS)
def test_every_snapshot_fixtures_plan_ends_in_a_published_state(name):
    from ascend_doctor.bundle import open_bundle
    from ascend_doctor.doctor import RunOptions, run_checks

    with open_bundle(fixture_path(name)) as host:
        report = run_checks(host, RunOptions(timeout=5.0))
    facts = Facts.from_json(report.facts)
    if facts.mindspore.flavour == "gpu" and facts.cann.judged_install is None:
        # MindSpore on CUDA: no CANN or NPU driver pairing to land in, and the plan must not bring one in
        steps = [s.do for s in report.node_plan().steps]
        assert not any(re.search(r"install CANN|Ascend HDK|set_env\.sh", str(d)) for d in steps), steps
        return
    assert_lands_published(report, facts)


# ---- an alternative is said by what it changes, and installs what this Python has a wheel for ------------------------

_MS_INSTALL = re.compile(r"pip install mindspore(?:-ascend|-gpu)?==([\w.]+)|install MindSpore ([\w.]+) from")
_NEW_PYTHON = re.compile(r"conda create -n \S+ python=(\S+)")


def assert_wheels_for_the_python(report, facts, platform="linux-aarch64", flavour="ascend"):
    """Every MindSpore a fix, an alternative, the plan or a plan alternative installs has a wheel for the Python it
    goes into: the node's, or that of the new environment made before it in the same steps (audit F47)."""
    plan = report.node_plan()
    lists = [("plan", [s.do for s in plan.steps])] + [("plan alternative", [s.do for s in a["steps"]])
                                                       for a in plan.alternatives]
    for f in report.findings:
        lists += [(f.id, list(f.fix))] + [(f.id + " alternative", list(a["steps"])) for a in f.alternatives]
    for where, steps in lists:
        python = facts.python.version
        for step in steps:
            new = _NEW_PYTHON.search(step)
            python = new.group(1) if new else python
            m = _MS_INSTALL.search(command_part(step))
            if not m:
                continue
            wheels = (MATRIX.python_for(m.group(1) or m.group(2), platform, flavour) or {}).get("python") or []
            assert not wheels or python in wheels, (where, step, python, wheels)


def assert_alternatives_say_what_they_change(report):
    for alt in report.node_plan().alternatives:
        kinds = {k for s in alt["steps"] for k, _v in step_targets(s.do)}
        if "mindspore" in kinds:
            assert not alt["why"].startswith("keep MindSpore"), alt
        if kinds & {"cann", "hdk"}:
            assert not alt["why"].startswith("change MindSpore only"), alt


def _no_wheel_combinations(n, seed):
    """The class of F47: a CANN installed whose published MindSpore releases have no wheel for this Python."""
    rng = random.Random(seed)
    finals = [r["version"] for r in MATRIX.mindspore_releases if r["release_kind"] in ("final", "post")]
    canns = [r["release"] for r in MATRIX.data["cann"] if "alpha" not in r["release"]]
    drivers = sorted({p.lower().replace(".x", ".0") for r in MATRIX.data["cann_hdk"] for p in r["hdk"]} |
                     {s["version"] for s in MATRIX.data["driver_samples"]})
    made = 0
    while made < n:
        cann, python = rng.choice(canns), rng.choice(["3.7", "3.8", "3.9", "3.12"])
        rows = MATRIX.published_mindspore_for_cann(cann, None, None, "linux-aarch64")
        if not rows or MATRIX.published_mindspore_for_cann(cann, None, python, "linux-aarch64"):
            continue
        made += 1
        yield dict(ms=rng.choice(finals), canns=[cann], driver=rng.choice(drivers), python=python)


@pytest.mark.parametrize("seed", range(4))
def test_alternatives_install_a_mindspore_this_python_has_a_wheel_for_and_say_what_they_change(seed):
    combos = list(_any_combinations(10, 200 + seed)) + list(_no_wheel_combinations(15, 300 + seed))
    for combo in combos:
        facts = node(**combo)
        report = judge(facts)
        assert_coherent(report, facts)
        assert_wheels_for_the_python(report, facts)
        assert_alternatives_say_what_they_change(report)


def test_a_mindspore_for_the_cann_here_on_a_python_it_has_no_wheel_for_comes_with_its_environment():
    """Audit F47: MindSpore 2.1.0 on CANN 8.5.0 with Python 3.7: 'pip install mindspore==2.7.2' (published with 8.5.0,
    cp39-cp312) is offered only with the new environment it installs into."""
    facts = node(ms="2.1.0", canns=["8.5.0"], driver="25.5.0", python="3.7")
    report = judge(facts)
    assert_wheels_for_the_python(report, facts)
    f = report.find("compat.mindspore_cann")
    ways = [w for w in [f.fix] + [a["steps"] for a in f.alternatives] if any("mindspore==2.7.2" in s for s in w)]
    assert ways and all(w[0].startswith("conda create -n mindspore python=3.") for w in ways), f.alternatives


def test_a_cann_with_its_mindspore_is_labelled_as_changing_both():
    """A plan alternative that installs a CANN and the MindSpore published with it does not say 'keep MindSpore'."""
    facts = node(ms="1.5.0", canns=["8.0.RC2"], driver="25.5.2", python="3.10")
    report = judge(facts)
    pairs = [a for a in report.node_plan().alternatives
             if {"cann", "mindspore"} <= {k for s in a["steps"] for k, _v in step_targets(s.do)}]
    assert pairs, report.node_plan().alternatives
    assert all(a["why"].startswith("change CANN and MindSpore together") for a in pairs), pairs
    assert_alternatives_say_what_they_change(report)


# ---- audit H: a Python-level state that clears the failures wins; a new environment's Python fits the CANN --------

def _shipped_states(facts):
    """Python-level target states built from the matrix alone (not the planner): a MindSpore published with the CANN
    in use, or whose wheel is built with it, in this Python or in a new environment of a Python it has wheels for."""
    judged = facts.cann.judged_install
    if judged is None or not judged.release:
        return
    rows = MATRIX.published_mindspore_for_cann(judged.release, None, None, "linux-aarch64") + \
        MATRIX.built_with_mindspore_for_cann(judged.release, None, "linux-aarch64")
    for row in rows:
        pythons = (MATRIX.python_for(row["version"], "linux-aarch64", "ascend") or {}).get("python") or []
        for py in [facts.python.version] + [p for p in pythons if p != facts.python.version]:
            yield StackState(mindspore=row, python=None if py == facts.python.version else py, steps=[("pip", "python")])


def _pythonic_combinations(n, seed):
    rng = random.Random(seed)
    finals = [r["version"] for r in MATRIX.mindspore_releases if r["release_kind"] in ("final", "post")
              and r["version"] >= "2"]
    canns = [r["release"] for r in MATRIX.data["cann"] if "alpha" not in r["release"] and r["release"] >= "8.2"]
    for _ in range(n):
        cann = rng.choice(canns)
        # a driver some source pairs with this CANN: only MindSpore and Python are in question
        hdks = [h for r in MATRIX.data["cann_hdk"] if r["relation"] in ("paired", "compatible")
                and _same(r["cann"], cann) for h in r["hdk"] if not h.upper().endswith(".X")]
        if not hdks:
            continue
        yield dict(ms=rng.choice(finals), canns=[cann], driver=rng.choice(hdks).lower(),
                   python=rng.choice(["3.7", "3.8", "3.9", "3.10", "3.11", "3.12"]))


@pytest.mark.parametrize("seed", range(4))
def test_a_python_level_state_that_clears_the_failures_wins_over_a_cann_or_driver_change(seed):
    checked = 0
    for combo in _pythonic_combinations(15, seed):
        facts = node(**combo)
        report = judge(facts)
        failing = {f.id for f in report.findings if f.id in STACK_CHECKS and f.status == FAIL}
        if not failing:
            continue
        clears = any(all(_judge(_apply(facts, MATRIX, s), MATRIX, STACK_CHECKS).get(i, PASS) != FAIL for i in failing)
                     for s in _shipped_states(facts))
        plan = report.node_plan()
        if clears:
            checked += 1
            assert all(s.level in ("shell", "python") for s in plan.steps), (combo, [s.do for s in plan.steps])
        # a new environment's Python is one the CANN the plan keeps (or installs) supports, where a source says
        targets = {k: v for s in plan.steps for k, v in step_targets(s.do)}
        cann = targets.get("cann") or combo["canns"][0]
        for s in plan.steps:
            new = re.match(r"conda create -n \S+ python=(\d+\.\d+)", s.do)
            if new:
                assert MATRIX.python_in_cann_range(new.group(1), cann), (combo, s.do)
    assert checked, "no generated node had a Python-level way out"


@pytest.mark.parametrize("given, python, mindspore", [
    (dict(ms="1.9.0", canns=["9.1.0"], driver="26.0.rc1", python="3.10"), None, "2.10.0"),  # audit H #47
    (dict(ms="2.8.0", canns=["9.1.0"], driver="26.2.rc1", python="3.11"), None, "2.10.0"),  # #20
    (dict(ms="2.7.1.post1", canns=["9.1.0"], driver="26.1.0", python="3.7"), "3.12", "2.10.0"),  # #33, #41
    (dict(ms="2.9.0", canns=["8.3.RC2"], driver="25.0.0", python="3.8"), "3.11", "2.9.0"),  # #25
])
def test_the_audits_cann_changes_become_a_pip_install_in_a_python_the_cann_supports(given, python, mindspore):
    report = judge(node(**given))
    plan = report.node_plan()
    assert [s.level for s in plan.steps] == ["python"] * len(plan.steps)
    assert any(s.do.startswith(f"pip install mindspore=={mindspore} ") for s in plan.steps)
    envs = [s.do.split("   #")[0] for s in plan.steps if s.do.startswith("conda create")]
    assert envs == ([f"conda create -n mindspore python={python} -y && conda activate mindspore"] if python else [])


def test_cann_9_1_with_hdk_26_2_rc1_is_a_published_pairing():
    report = judge(node(ms="2.10.0", canns=["9.1.0"], driver="26.2.rc1", python="3.11"))
    assert next(f for f in report.findings if f.id == "compat.cann_driver").status == PASS


@pytest.mark.parametrize("seed", range(4))
def test_an_unknown_pairing_the_plan_leaves_is_unresolved_and_never_fixed_by_a_driver_downgrade(seed):
    """Generated nodes: a pairing check that still warns on the state the plan leads to (or now, when the plan does
    not change the stack) is in plan.unresolved; an unknown CANN x driver pairing's own fix never installs an HDK
    older than the installed driver (audit H #32, #39, #40, #43)."""
    from ascend_doctor.plan.stack import PAIRING_CHECKS
    from ascend_doctor.versions import parse_version

    seen = 0
    for combo in _combinations(12, 100 + seed):
        facts = node(**combo)
        report = judge(facts)
        plan, _targets = assert_coherent(report, facts)
        best, _others = plan_stack(facts, MATRIX, report.findings)
        for f in report.findings:
            if f.id in PAIRING_CHECKS and f.status in (FAIL, WARN):
                after = best.statuses.get(f.id, f.status) if best is not None else f.status
                if after == WARN:
                    seen += 1
                    assert f.id in plan.unresolved, (combo, f.id)
            proven = any(g.status == FAIL for g in report.findings
                         if g.id in ("compat.driver_firmware", "compat.firmware_min"))  # the driver changes anyway
            if f.id == "compat.cann_driver" and f.status == WARN and not proven:
                for step in f.fix:
                    for kind, version in step_targets(step):
                        if kind == "hdk":
                            assert parse_version(version) >= parse_version(facts.driver.version), (combo, step)
    assert seen


def test_a_planned_cann_install_names_the_operator_package_of_its_release():
    """From CANN 8.5.0 on the operator package is `ops`, before it `kernels` (audit H S13)."""
    from ascend_doctor.versions import parse_version

    names = set()
    for combo in _combinations(40, 7):
        facts = node(**combo)
        for s in judge(facts).node_plan().steps:
            m = re.match(r"install CANN (\S+) toolkit \+ (\w+)", s.do)
            if m:
                assert m.group(2) == ("ops" if parse_version(m.group(1)) >= parse_version("8.5.0") else "kernels")
                names.add(m.group(2))
    assert names == {"ops", "kernels"}, names


def test_a_failure_only_a_driver_downgrade_would_clear_is_unresolved_and_says_so():
    """MindSpore 2.4.10 on CANN 5.0.2 with driver 26.0.rc3 (no source pairs them, so the driver is not proven wrong):
    every published CANN + MindSpore pair that clears the failure needs an older driver, which the plan never
    installs for an unknown; the failure is unresolved, and its why names the HDK and what to check."""
    facts = node(ms="2.4.10", canns=["5.0.2"], driver="26.0.rc3", python="3.9")
    report = judge(facts)
    plan, targets = assert_coherent(report, facts)
    assert "hdk" not in targets and "compat.mindspore_cann" in plan.unresolved
    why = report.find("compat.mindspore_cann").evidence["not cleared by the plan"]
    assert_msg(why, "the published pairings that clear it need an older NPU driver (Ascend HDK {hdk}) than the "
               "installed {driver}, which no check proves wrong: check the release notes of Ascend HDK {driver} "
               "for the CANN releases it supports, or ask support before a downgrade", hdk="24.1.0", driver="26.0.rc3")


@pytest.mark.parametrize("seed", range(2))
def test_no_fix_or_alternative_installs_an_hdk_older_than_a_driver_no_check_proves_wrong(seed):
    """A CANN whose sources pair it only with older HDK releases than the installed driver is offered with what to
    check (that driver's release notes), never 'with Ascend HDK <older>' (a downgrade for an unknown pairing)."""
    from ascend_doctor.versions import parse_version

    install = re.compile(r"with Ascend HDK ([\w.]+)(?: or ([\w.]+))? \(NPU driver \+ firmware")
    seen = 0
    # the first: MindSpore 2.4.10 on CANN 5.0.2 with driver 26.0.rc3 (its CANNs' HDK 24.1.0 is older)
    for combo in [dict(ms="2.4.10", canns=["5.0.2"], driver="26.0.rc3", python="3.9")] + \
            list(_any_combinations(40, 600 + seed)) + list(_combinations(20, 610 + seed)):
        facts = node(**combo)
        report = judge(facts)
        proven = any(f.status == FAIL for f in report.findings
                     if f.id in ("compat.cann_driver", "compat.driver_firmware", "compat.firmware_min"))
        for f in report.findings:
            for step in list(f.fix) + [x for a in f.alternatives for x in a["steps"]]:
                m = install.search(step)
                if m and not proven:
                    hdks = [h for h in m.groups() if h]
                    assert any(parse_version(h) >= parse_version(facts.driver.version) for h in hdks), (combo, step)
                seen += "older than this driver" in step
    assert seen


def test_a_cann_the_driver_runs_with_the_mindspore_built_with_it_beats_an_unresolved_failure():
    """MindSpore 2.4.1 on CANN 8.3.RC2, driver 26.1.0 (no source pairs CANN 8.3.RC2; 8.0.RC3, published with 2.4.1,
    needs an older driver): CANN 9.1.0, which its release notes and MindCluster 26.1.0 pair with driver 26.1.0, and
    MindSpore 2.10.0, whose wheel is built with CANN 9.1.0 and whose own check accepts it, keep the driver and clear
    the failure; the CANN step says why that CANN (the driver's source) and what pairs the MindSpore with it."""
    facts = node(ms="2.4.1", canns=["8.3.RC2"], driver="26.1.0", python="3.9")
    report = judge(facts)
    plan, targets = assert_coherent(report, facts)
    assert_lands_published(report, facts)
    assert targets == {"cann": ["9.1.0"], "mindspore": ["2.10.0"]} and not plan.unresolved, targets
    assert_msg(plan.steps[0].do, "{step}   # MindSpore {version}'s wheel is built with it and its own check accepts "
               "it; the installed driver {driver} runs it ({source})", version="2.10.0", driver="26.1.0")


def test_a_failure_no_pairing_for_this_python_clears_takes_the_newest_published_pairing_before_unresolved():
    """MindSpore 2.2.10 on CANN 8.3.RC2, driver 23.0.7, Python 3.7: the CANN releases published with 2.2.x have no
    source for driver 23.0.7 (and no HDK a vendor table pairs with them), and no published MindSpore with a cp37 wheel
    runs on a CANN the driver is published with; the newest published pairing (CANN 9.0.0 + MindSpore 2.9.0, in a
    new environment) with its HDK clears it, every pairing published, instead of leaving it unresolved."""
    facts = node(ms="2.2.10", canns=["8.3.RC2"], driver="23.0.7", python="3.7")
    report = judge(facts)
    plan, targets = assert_coherent(report, facts)
    assert_lands_published(report, facts)
    assert not plan.unresolved and targets["cann"] == ["9.0.0"] and targets["hdk"] == ["26.0.RC1"], targets


# ---- MindSpore on CUDA: one route, as commands, the driver upgrade a labelled alternative (audit I #21, #39) --------

from ascend_doctor.checks._gpu_fix import driver_verdict, meets_mindspore_guide, pick_python  # noqa: E402

_GPU_DRIVERS = ("418.87", "450.80.02", "470.82.01", "510.47.03", "535.104.05")
_GPU_CUDAS = ("10.1", "11.1", "11.6", "12.2")
_CUDATOOLKIT = re.compile(r"\bcudatoolkit=(\d+\.\d+)")


def _gpu_releases():
    return [r["version"] for r in MATRIX.mindspore_releases if MATRIX.gpu_cuda_options(r["version"])]


def _gpu_combinations(n, seed):
    rnd = random.Random(seed)
    return [(rnd.choice(_gpu_releases()), rnd.choice(_GPU_CUDAS), rnd.choice(_GPU_DRIVERS),
             rnd.choice(("3.7", "3.8", "3.9", "3.10", "3.11"))) for _ in range(n)]


def _gpu_report(ms, cuda, driver, python):
    from types import SimpleNamespace

    from ascend_doctor.commands.matrix import planned_facts

    args = SimpleNamespace(mindspore=ms, cann=None, driver=None, firmware=None, python=python, cuda=cuda, cudnn=None,
                           nvidia_driver=driver, arch="x86_64")
    facts = planned_facts(MATRIX, args)
    return evaluate(facts, Selection(only=["compat"]), origin={"kind": "planned", "name": "gen"}, matrix=MATRIX)


def assert_one_gpu_route(report, cuda):
    """One environment, one CUDA, one MindSpore in the plan; every plan step a command (no 'plan CUDA ...' prose);
    the node's CUDA never installed again; every alternative labelled."""
    plan = report.node_plan()
    steps = [str(s.do) for s in plan.steps]
    assert sum("conda create" in s for s in steps) <= 1, steps
    assert len({m.group(1) for s in steps for m in _CUDATOOLKIT.finditer(command_part(s))}) <= 1, steps
    assert len({v for s in steps for k, v in step_targets(s) if k == "mindspore"}) <= 1, steps
    assert not any(re.match(r"(?:plan|use) CUDA\b", s) for s in steps), steps
    for f in report.findings:
        for step in list(f.fix) + [x for a in f.alternatives for x in a["steps"]]:
            assert cuda not in {m.group(1) for m in _CUDATOOLKIT.finditer(command_part(str(step)))}, (f.id, step)
        if f.status in (FAIL, WARN):
            assert all(str(a.get("why") or "").strip() for a in f.alternatives), (f.id, f.alternatives)
    assert all(str(a["why"]).strip() for a in plan.alternatives), plan.alternatives


@pytest.mark.parametrize("seed", range(3))
def test_generated_gpu_nodes_get_one_route_as_commands(seed):
    for combo in _gpu_combinations(40, seed):
        report = _gpu_report(*combo)
        try:
            assert_one_gpu_route(report, combo[1])
        except AssertionError as e:
            raise AssertionError(f"{combo}: {e}") from None


def _below_the_guide_with_another_cuda(ms, cuda, driver):
    """The driver is below what MindSpore's guide asks for `cuda`, but runs another CUDA this release has a build for
    at least as the guide asks (audit I #21's class)."""
    if driver_verdict(MATRIX, driver, cuda) != "below-asked" or meets_mindspore_guide(MATRIX, driver, cuda):
        return False
    return any(c != cuda and (driver_verdict(MATRIX, driver, c) == "ok" or meets_mindspore_guide(MATRIX, driver, c))
               for c in MATRIX.gpu_cuda_options(ms))


def test_a_driver_below_the_guide_for_the_nodes_cuda_gets_the_python_route_and_the_upgrade_as_an_alternative():
    """Audit I #21 as a class: every MindSpore x CUDA x driver where the driver is below the guide's floor for the
    node's CUDA but meets another CUDA's of the same release: the plan creates an environment with the same
    MindSpore and runs its check on the GPU, changes no driver; the driver finding's fix is that route, the upgrade
    (root, reboot) its labelled alternative."""
    seen = 0
    for ms in _gpu_releases():
        for cuda in _GPU_CUDAS:
            for driver in _GPU_DRIVERS:
                if not _below_the_guide_with_another_cuda(ms, cuda, driver):
                    continue
                python = pick_python(MATRIX, ms, None) or "3.9"
                report = _gpu_report(ms, cuda, driver, python)
                plan = report.node_plan()
                steps = [str(s.do) for s in plan.steps]
                where = (ms, cuda, driver, python, steps)
                assert not any(s.level == "driver" for s in plan.steps), where
                assert any(s.startswith("conda create") for s in steps), where
                # the same release (a wheel URL writes 2.0.0-alpha as 2.0.0alpha, as its guide does)
                assert all(_same(v.replace("-", ""), ms.replace("-", "")) for s in steps
                           for k, v in step_targets(s) if k == "mindspore"), where
                assert "run_check()" in steps[-1], where
                nv = next(f for f in report.findings if f.id == "compat.nvidia_driver_cuda")
                assert nv.status == WARN, where
                assert not any(step_level(str(s))[0] == "driver" for s in nv.fix), (where, nv.fix)
                ups = [a for a in nv.alternatives if any(step_level(str(s))[0] == "driver" for s in a["steps"])]
                assert ups and all(str(a["why"]).strip() for a in ups), (where, nv.alternatives)
                assert_one_gpu_route(report, cuda)
                seen += 1
    assert seen >= 5, seen  # the class is not empty (2.2.0 / CUDA 11.6 / 450.80.02 is one)


def test_the_audits_2_2_0_on_cuda_11_6_with_driver_450_is_a_conda_route_not_prose():
    report = _gpu_report("2.2.0", "11.6", "450.80.02", "3.9")
    steps = [str(s.do) for s in report.node_plan().steps]
    assert steps[0] == "conda create -n ms-gpu python=3.9 -y && conda activate ms-gpu", steps
    assert any("mindspore-2.2.0-cp39-cp39" in s for s in steps), steps
    assert "set_context(device_target='GPU')" in steps[-1], steps


def test_the_nodes_cuda_is_used_not_installed_again():
    """Audit I #39: MindSpore 2.4.10 on the node's CUDA 11.1 with Python 3.7: a Python 3.11 environment, the cuDNN
    alone (--no-deps: no second cudatoolkit), the node's CUDA 11.1 used."""
    report = _gpu_report("2.4.10", "11.1", "470.82.01", "3.7")
    steps = [str(s.do) for s in report.node_plan().steps]
    assert not any("cudatoolkit=" in s for s in steps), steps
    assert any(re.match(r"conda install -c conda-forge \S+ --no-deps -y", s) for s in steps), steps


# ---- a CANN move made to leave an unknown CANN / driver pairing: the pip-only way is shown (audit I #17, #47) -------

KEEP_CANN = ("keep CANN {cann}: change MindSpore only, a pip install, no root; the pairing of CANN {cann} with the "
             "NPU driver stays unknown (no source gives it)")


@pytest.mark.parametrize("seed", range(2))
def test_a_cann_move_that_leaves_an_unknown_pairing_behind_shows_the_way_that_keeps_the_cann(seed):
    """Generated nodes: where the plan moves CANN while the CANN / driver pairing is unknown now, and a MindSpore the
    CANN in use clears exists (its own check accepts it, a wheel for a Python in the CANN's range), the plan offers
    it as a labelled alternative; judged on the node it leaves no failure and no pairing unknown that was not."""
    from ascend_doctor.plan.planner import _why_state
    from ascend_doctor.plan.stack import _apply, _judge

    offered = 0
    for spec in _driver_x_cann_combinations(2, seed):
        facts = node(**spec)
        report = judge(facts)
        now = {f.id: f.status for f in report.findings}
        best, others = plan_stack(facts, MATRIX, report.findings)
        keep = [s for s in others if s.keeps_cann]
        if best is None or not (best.cann_new or best.cann_installed is not None) or now.get(
                "compat.cann_driver") not in (WARN, "error"):
            assert not keep, spec
            continue
        for state in keep:
            offered += 1
            assert state.cann_new is None and state.cann_installed is None and not state.hdk, spec
            assert all(lvl == "python" for _s, lvl in state.steps), (spec, state.steps)
            assert str(_why_state(state)) == KEEP_CANN.format(cann=spec["canns"][0]), spec
            after = _judge(_apply(facts, MATRIX, state), MATRIX, tuple(PAIRINGS) + ("compat.python_mindspore",))
            assert FAIL not in after.values(), (spec, after)
            assert all(after.get(c) not in (WARN, "error") or now.get(c) in (WARN, "error") for c in PAIRINGS), \
                (spec, after)
            plan = report.node_plan()
            assert any(str(a["why"]).startswith("keep CANN ") for a in plan.alternatives), spec
    assert offered, "the class is not empty"


@pytest.mark.parametrize("given, python, mindspore", [
    (("1.6.2", "8.3.RC2", "25.5.2", "3.7"), "3.11", "2.7.1"),     # audit I #17
    (("2.2.10", "8.2.RC2", "6.0.rc1.2", "3.8"), "3.11", "2.7.0"),  # audit I #47
])
def test_the_audits_cann_moves_offer_the_pip_route_that_keeps_the_cann(given, python, mindspore):
    ms, cann, driver, py = given
    _, data = run_json("matrix", "check", "--mindspore", ms, "--cann", cann, "--driver", driver, "--python", py,
                       "--arch", "aarch64", "--lang", "en")
    alt = next(a for a in data["plan"]["alternatives"] if a["why"].startswith(f"keep CANN {cann}:"))
    steps = [s["do"] for s in alt["steps"]]
    assert steps[0].startswith(f"conda create -n mindspore python={python} ") and \
        steps[1].startswith(f"pip install mindspore=={mindspore} "), steps


_PLANNED_MS = re.compile(r"mindspore(?:[-_]gpu)?[-=]=?(\d+\.\d+\.\d+)")


def test_a_gpu_plan_checks_mindspore_once_with_a_call_the_installed_release_has():
    """Audit I, second pass: MindSpore 2.6.0 / CUDA 11.6 / driver 418.87 planned 2.2.14 on CUDA 10.1 and then ran the
    warning's own check, `mindspore.set_device(...)`, which 2.2.14 lacks (it first exists in 2.5.0): the pasted plan
    failed at its last step. A plan checks MindSpore once, after its installs, with the call of the release it ends on."""
    seen = 0
    for ms in ("2.2.14", "2.4.10", "2.6.0", "2.7.1"):
        for cuda in ("10.1", "11.1", "11.6"):
            for nv in ("418.87", "450.80.02", "510.47.03"):
                _, data = run_json("matrix", "check", "--mindspore", ms, "--cuda", cuda, "--nvidia-driver", nv,
                                   "--python", "3.10")
                steps = [s["do"] for s in data["plan"]["steps"]]
                checks = [s for s in steps if "mindspore.run_check()" in s]
                assert len(checks) <= 1, (ms, cuda, nv, checks)
                installed = [m.group(1) for s in steps for m in _PLANNED_MS.finditer(s)]
                final = installed[-1] if installed else ms
                if checks and parse_version(final) < parse_version("2.5.0"):
                    seen += 1
                    assert "set_device" not in checks[0], (ms, cuda, nv, final, checks)
    assert seen  # the grid reaches plans that end on a release before 2.5.0
