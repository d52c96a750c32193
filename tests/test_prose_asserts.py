"""Tests assert message ids and parameters, not English sentences (issue 23 item 1): the count of asserts that compare
prose with what the doctor says (tests/helpers/prose_asserts.py; `python scripts/prose_asserts.py -v` lists them)
must not grow back.

A new assert on a finding, a fix step, a plan step or a fact reads its message: `tests/helpers/i18n_asserts.py`
(`assert_msg(f.summary, "{var} is not set", var="ASCEND_AICPU_PATH")`, `msg_ids(finding)`). Prose stays where the
wording is the thing under test, the golden renderings: the files of GOLDEN. The other files that still hold some are
listed in LEFT with how many; lower a figure when you convert one, never raise it.
"""

import fnmatch

from tests.helpers import REPO
from tests.helpers.prose_asserts import count, is_prose, prose_asserts

# Where the English words are what is tested: the renderers' layouts and golden outputs, the language tests
# (a text in each language, the re-wording of another run's English), the fix script, and smoke's progress line
# (tests/commands/test_smoke.py: the `\r` redrawing of one line is the layout under test).
GOLDEN = ("tests/render/*", "tests/test_i18n*.py", "tests/commands/test_fix.py", "tests/commands/test_smoke.py")

# What is left is not the doctor's catalog words, so it has no message id to assert: at most this many each. A
# rendering of a catalog message is read with `assert_shows(output, msgid, **params)` (tests/helpers/i18n_asserts.py).
LEFT = {
    # a log line, a scheduler's or a launch recipe's output, quoted as written (triage's unexplained lines, smoke's
    # stderr excerpts, msrun's scheduler log, the Slurm recipe's "job NOT started")
    "tests/triage/test_triage.py": 3, "tests/smoke/test_smoke.py": 4, "tests/commands/test_preflight_recipes.py": 2,
    # the knowledge base's own English data fields (its entries' title/cause/fix templates, a code table's meaning,
    # an origin note) and the test's own signatures; validation errors of a bad part (exit-2 lines)
    "tests/kb/test_model.py": 8, "tests/kb/test_acl_code_rule.py": 1, "tests/commands/test_kb.py": 4,
    "tests/kb/test_lookup.py": 1, "tests/kb/test_load.py": 1,
    # the vendor's CANN error-code catalogue (data/cann_error_codes.json): its English words, templates, causes and
    # solutions as CANN_CATALOGUED_ERROR_CODE's title/cause/fix and explain give them (GE's catalogue and the
    # fixed sentences the vendors' own calls print, round 8, are the same vendor words)
    "tests/kb/test_families_cann_codes.py": 15,
    "tests/test_advice_facts.py": 1,
    # the compatibility matrix's own notes (data/compat_matrix.json), and a sweep that no word of a plan says
    # "environment points at" (whatever message would say it)
    "tests/test_matrix.py": 2, "tests/commands/test_matrix_check.py": 1,
    # what the OS, Python or the test itself wrote: an exception the test raises, Python's ModuleNotFoundError, a
    # file the test wrote, a finding title / spec / fix line the test made, an exit-2 error line
    "tests/test_doctor.py": 1, "tests/test_host_python.py": 1, "tests/robustness/test_fault_matrix_update.py": 1,
    "tests/checks/test_titles.py": 3, "tests/commands/test_check_from_report.py": 1, "tests/test_input_hygiene.py": 1,
    # a phrase's English re-worded, a Chinese rendering compared with the English one (language tests)
    "tests/test_phrases.py": 2, "tests/checks/test_accelerators.py": 1,
    # the developer scripts' own English: the set-up script's last line, scripts/measure_corpus.py's report
    "tests/test_setup_scripts.py": 1, "tests/triage/test_corpus.py": 1,
}


def _golden(path):
    return any(fnmatch.fnmatch(path, pattern) for pattern in GOLDEN)


def test_no_file_compares_more_english_sentences_than_it_did():
    grown = {path: [f"{line}: {literal[:60]!r}" for line, literal in hits]
             for path, hits in count(REPO).items() if not _golden(path) and len(hits) > LEFT.get(path, 0)}
    assert not grown, ("assert the message id and its parameters (tests/helpers/i18n_asserts.py), not the English "
                       f"sentence: {grown}")


def test_the_counter_tells_prose_from_ids_commands_and_errors():
    source = '''
def t(f, proc, e):
    assert "ASCEND_AICPU_PATH is not set" in f.summary
    assert any("upgrade the NVIDIA driver" in s for s in f.fix)
    assert f.title.msgid == "The environment mixes CANN installs"
    assert data["title"]["id"] == "No NPU driver found"
    assert "pip install mindspore==2.7.2" in f.fix
    assert "must be a positive number" in proc.stderr
    assert "[7.0.0, 7.5.99]" in f.summary and "24.1.rc3" in f.summary
    assert "{var} is not set" in msg_ids(f.summary)
    assert "no such file" in f.summary or "cannot read it" in f.summary
'''
    assert [line for line, _ in prose_asserts(source)] == [3, 4, 11]  # one per assert
    assert is_prose("install CANN 8.3.RC1") and not is_prose("export LD_LIBRARY_PATH=/x:$LD_LIBRARY_PATH")
    assert not is_prose("smoke.import") and not is_prose("CUDA 11.1 (11.1.74)")


def test_the_message_asserts_read_ids_parameters_and_nested_messages():
    import pytest

    from ascend_doctor.findings import Finding
    from ascend_doctor.i18n import _, sentences
    from tests.helpers.i18n_asserts import assert_is_msg, assert_msg, deferred, has_msg, msg_ids

    def make():
        inner = _("upgrade the firmware to the one from HDK {hdk} (the driver's release)").format(hdk="24.1.rc1")
        return Finding("x.y", "fail", _("No NPU driver found"), summary=sentences(_("{var} is not set").format(
            var="ASCEND_OPP_PATH"), _("A PYNATIVE step takes {ratio}x a GRAPH step here: train in GRAPH_MODE, keep "
                                      "PYNATIVE for debugging.").format(ratio=3)),
            fix=[_("{step}   # the firmware is the older of the two").format(step=inner)])

    f = deferred(make)
    assert_msg(f.summary, "{var} is not set", var="ASCEND_OPP_PATH")
    assert_msg(f, "upgrade the firmware to the one from HDK {hdk} (the driver's release)", hdk="24.1.rc1")  # nested
    assert_msg(f.to_json(), "{var} is not set", var="ASCEND_OPP_PATH")  # a finding of a JSON report
    assert_is_msg(f.title, "No NPU driver found")
    assert "No NPU driver found" in msg_ids(f) and "{var} is not set" in msg_ids(f.to_json())
    assert not has_msg(f, "{var} is not set", var="ASCEND_AICPU_PATH")
    with pytest.raises(AssertionError):
        assert_msg(f.summary, "{var} is not set", var="ASCEND_HOME_PATH")  # another value
    with pytest.raises(AssertionError):
        assert_is_msg(f.fix[0], "{step}   # the firmware is the older of the two")  # exactly: its step is a parameter
    with pytest.raises(AssertionError, match="no message id"):
        assert_msg(make().summary, "{var} is not set")  # worded where it was made: nothing to read


def test_a_rendering_is_read_by_its_message_in_any_language():
    """`shows`/`assert_shows`: a rendered output says a catalog message with these values (the others anything),
    wrapped or not, in the current language; an unknown message id is an error, not a miss."""
    import pytest

    from ascend_doctor import i18n
    from tests.helpers.i18n_asserts import assert_shows, shows

    msg = "No known problem found in these logs; {count} error line(s) not recognised."
    assert shows("x\nNo known problem found in these\n   logs; 2 error line(s) not recognised.\n", msg, count=2)
    assert not shows("No known problem found in these logs; 3 error line(s) not recognised.", msg, count=2)
    assert shows("… and 60 more (--format json lists the first 50)",
                 "… and {count} more (--format json lists the first {keep})", count=60)  # {keep}: any value
    with pytest.raises(AssertionError, match="not a message"):
        shows("No known problem found", "No known problem found")
    i18n.set_lang("zh")
    try:
        zh = i18n._(msg).format(count=2)
        assert zh != msg.format(count=2) and shows(zh, msg, count=2)
        with pytest.raises(AssertionError, match="does not say"):
            assert_shows(msg.format(count=2), msg, count=2)  # the English sentence is not what a zh run says
    finally:
        i18n.set_lang("en")
