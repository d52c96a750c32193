"""Each outcome has its own words: a FAIL/WARN line says what is wrong, never the passing condition."""

import inspect
import re

import pytest

from ascend_doctor.checks import all_checks
from ascend_doctor.findings import ERROR, FAIL, PASS, SKIP, WARN, Finding, outcome_title
from ascend_doctor.render.text import render
from ascend_doctor.smoke.classify import FINDINGS as SMOKE_FINDINGS, OUTCOME_TITLES as SMOKE_TITLES

from tests.helpers.snapshot_reports import all_reports, snapshot_dirs

PASS_TITLES = {s.id: s.title for s in all_checks()}
PASS_TITLES.update({fid: title for fid, title, _ in SMOKE_FINDINGS})

# Lines seen in reports before outcome titles: each claims the opposite of what the check found.
KNOWN_FALSE = [
    "[ FAIL] CANN environment (set_env.sh) set in this shell",
    "[ WARN] MindSpore is installed in this Python",
    "[ERROR] MindSpore is installed in this Python",
    "[ FAIL] NPU driver installed",
    "[ WARN] NPU driver installed",
    "[ERROR] NPU driver installed",
    "[ WARN] CANN installed",
    "[ WARN] NPU firmware installed",
    "[ WARN] One CANN install in use",
    "[ FAIL] CANN operators, kernels and te present",
    "[ FAIL] CANN `latest` links resolve",
    "[ FAIL] This Python is one the installed MindSpore was built for",
    "[ FAIL] NVIDIA kernel module matches the user-space driver",
    "[ FAIL] The CUDA runtime MindSpore's GPU build needs is installed and loadable",
    "[ WARN] npu-smi reports the installed driver version",
    "[ WARN] CANN and the NPU driver belong together",
    "[ERROR] npu-smi lists the NPUs",
]


@pytest.mark.parametrize("name", sorted(snapshot_dirs()))
def test_no_problem_line_states_the_passing_condition(name):
    report = all_reports()[name]
    for f in report.findings:
        if f.status in (FAIL, WARN, ERROR) and f.id in PASS_TITLES:
            neutral = PASS_TITLES[f.id]
            assert f.title != neutral and not f.title.startswith(neutral + ":"), (name, f.id, f.status, f.title)
    text = render(report)
    for phrase in KNOWN_FALSE:
        assert phrase not in text, (name, phrase)


def test_the_fixtures_cover_the_lines_that_used_to_lie():
    """The loop above is only worth something if the fixtures reach these outcomes."""
    seen = {(f.id, f.status) for r in all_reports().values() for f in r.findings}
    for wanted in [("install.cann_env_sourced", FAIL), ("mindspore.installed", WARN), ("install.driver_present", WARN),
                   ("gpu.driver_module_match", FAIL), ("mindspore.python_supported", FAIL)]:
        assert wanted in seen


def _emitted(func):
    """Statuses a check's source (and the module's helpers it calls, transitively) can return."""
    module = inspect.getmodule(func)
    seen, todo, text = set(), [func], ""
    while todo:
        fn = todo.pop()
        if fn in seen:
            continue
        seen.add(fn)
        text += inspect.getsource(fn)
        for name in fn.__code__.co_names:
            obj = getattr(module, name, None)
            if inspect.isfunction(obj) and obj.__module__ == module.__name__:
                todo.append(obj)
    return {s for s, word in ((FAIL, "FAIL"), (WARN, "WARN"), (ERROR, "ERROR")) if re.search(rf"\b{word}\b", text)}


@pytest.mark.parametrize("spec", all_checks(), ids=lambda s: s.id)
def test_every_check_words_each_problem_outcome_it_can_give(spec):
    missing = [s for s in _emitted(spec.original) if s in (FAIL, WARN) and s not in spec.titles]
    assert not missing, f"{spec.id}: add {', '.join(missing)}= words to its @check"
    for status, words in spec.titles.items():
        assert words != spec.title and words.strip(), (spec.id, status)


def test_a_check_called_directly_gets_its_outcome_line(make_snapshot):
    """The words come with the check function itself, so rank-table and matrix check show them too."""
    from ascend_doctor.checks import CheckContext
    from ascend_doctor.checks.install import check_driver_present
    from ascend_doctor.host import SnapshotHost
    from ascend_doctor.probes import ProbeOptions, collect_facts

    host = SnapshotHost(make_snapshot(files={"/dev/davinci0": "", "/etc/ascend_install.info":
                                             "Driver_Install_Path_Param=/usr/local/Ascend\n"}))
    from tests.helpers.i18n_asserts import deferred

    f = deferred(check_driver_present, CheckContext(facts=collect_facts(host, ProbeOptions())))
    assert f.status == FAIL and (f.title.msgid, f.title.params) == ("No NPU driver found", {})


def test_per_variable_lines_keep_the_variable_and_custom_lines_are_kept():
    f = Finding("hccl.env_values", FAIL, "HCCL variables within their documented ranges: HCCL_BUFFSIZE")
    f.with_outcome_title("HCCL variables within their documented ranges", {FAIL: "HCCL variable outside its range"})
    assert f.title == "HCCL variable outside its range: HCCL_BUFFSIZE"
    g = Finding("x.y", WARN, "The environment mixes CANN installs").with_outcome_title("One CANN", {WARN: "other"})
    assert g.title == "The environment mixes CANN installs"
    from tests.helpers.i18n_asserts import assert_msg, deferred

    assert_msg(deferred(outcome_title, "T", ERROR, {}), "Could not check: {title}", title="T")
    assert outcome_title("T", PASS, {FAIL: "x"}) == "T"
    assert_msg(deferred(outcome_title, "T", SKIP, {}), "Not applicable: {title}", title="T")


def test_smoke_outcomes_have_words():
    for fid, title, _ in SMOKE_FINDINGS:
        assert SMOKE_TITLES[fid][FAIL] != title


def test_ids_and_titles_are_written_once_in_check():
    """`@check` holds a check's id and title; its findings take them from the spec (ctx.finding), so the body never
    repeats them (a copy that drifts would file a finding under the wrong check or the wrong words)."""
    import os

    from tests.helpers import REPO

    sources = {}
    for spec in all_checks():
        path = os.path.join(REPO, *spec.module.split(".")) + ".py"
        text = sources.setdefault(path, open(path, encoding="utf-8").read())
        assert len(re.findall(re.escape(f'"{spec.id}"'), text)) <= 1, spec.id
        assert text.count(f'"{spec.title}"') <= 1, (spec.id, spec.title)
    assert not any(re.search(r"\bFinding\(", t) for p, t in sources.items() if not p.endswith("__init__.py"))


def test_ctx_finding_takes_id_and_title_from_the_running_check():
    from ascend_doctor.checks import CheckContext, CheckSpec, check
    from ascend_doctor.facts import Facts

    @check("zz.spec_test", "Spec test passes", fail="Spec test fails")
    def spec_test(ctx):
        return [ctx.finding("fail", summary="s", fix=["x"]), ctx.finding("warn", title="Spec test passes: A")]

    try:
        ctx = CheckContext(facts=Facts())
        first, second = spec_test(ctx)
        assert (first.id, first.title, first.summary, first.fix) == ("zz.spec_test", "Spec test fails", "s", ["x"])
        assert second.id == "zz.spec_test" and second.title == "Problem: Spec test passes: A"
        assert ctx.spec is None  # set only while the check runs
        with pytest.raises(RuntimeError):
            ctx.finding("pass")
    finally:
        from ascend_doctor.checks import _REGISTRY

        _REGISTRY.pop("zz.spec_test", None)
    assert CheckSpec("a.b", None, "t", [], "m").area == "a"
