"""`matrix check` on a planned install names the driver a CANN needs, and speaks of a plan, not an install."""

import json
import re

import pytest

from ascend_doctor.matrix import load_matrix

from tests.helpers import run_cli, run_json
from tests.helpers.i18n_asserts import assert_msg, assert_shows, has_msg, messages
from ascend_doctor.findings import Finding

WRONG_DRIVER = ("--mindspore", "2.7.1", "--cann", "8.3.RC1", "--driver", "24.1.rc3")
WRONG_PAIR = ("--mindspore", "2.7.1", "--cann", "8.0.RC3", "--driver", "24.1.rc3")


# a fix step that installs a CANN, and what it says of the NPU driver that CANN needs (their message ids)
INSTALL_CANN = {"install CANN {cann}{build} toolkit + kernels{purpose}{driver}, then `source <install>/set_env.sh`",
                "install CANN {cann}{build} toolkit + ops{purpose}{driver}, then `source <install>/set_env.sh`"}
PAIRED = (" with Ascend HDK {hdk} (NPU driver + firmware, the pairing sources give)",
          " with Ascend HDK {hdk} (NPU driver + firmware, the pairing sources give; this driver is {driver})")
NOT_IN_MATRIX = " (which NPU driver it needs is not in the matrix: see that CANN's release notes)"


def _by_id(data):
    return {f["id"]: f for f in data["findings"]}


def test_a_driver_the_sources_do_not_pair_gets_the_driver_it_needs_named():
    _, data = run_json("matrix", "check", *WRONG_DRIVER)
    f = _by_id(data)["compat.cann_driver"]
    assert f["status"] == "warn"
    assert_msg(f, "CANN {cann} needs the NPU driver of Ascend HDK {hdk}, the only Ascend HDK release sources pair with it; "
               "driver {driver} is not that release, so whether it works with CANN {cann} is unknown (no source states it).",
               cann="8.3.RC1", hdk="25.3.RC1", driver="24.1.rc3")
    assert f["fix"][0].startswith("install Ascend HDK 25.3.RC1 (NPU driver + firmware) for CANN 8.3.RC1")


def test_the_wrong_pair_fix_names_the_driver_each_cann_needs_from_the_matrix_only():
    _, data = run_json("matrix", "check", *WRONG_PAIR)
    found = Finding.from_json(_by_id(data)["compat.mindspore_cann"])
    fix = found.fix + [s for a in found.alternatives for s in a["steps"]]  # the CANN ways are alternatives
    matrix = load_matrix()
    steps = [t for t in messages(fix) if t.msgid in INSTALL_CANN]
    assert steps
    assert_msg(next(s for s in steps if s.params["cann"] == "8.3.RC1").params["driver"], PAIRED[1], hdk="25.3.RC1",
               driver="24.1.rc3")
    for step in steps:
        cann, driver = step.params["cann"], step.params["driver"]
        rows = matrix.hdk_for_cann(cann)
        if getattr(driver, "msgid", None) in PAIRED:  # never an invented pairing
            for hdk in driver.params["hdk"].split(" or "):
                assert any(hdk in r["hdk"] for r in rows if r["relation"] != "incompatible"), (cann, hdk)
        elif not any(re.fullmatch(p.lower().replace(".x", r"\.\d+").replace(".", r"\."), "24.1.rc3")
                     for r in rows if r["relation"] != "incompatible" for p in r["hdk"]):
            assert_msg(driver, NOT_IN_MATRIX)  # unknown is said, not guessed


@pytest.mark.parametrize("args", [WRONG_DRIVER, WRONG_PAIR,
                                  ("--mindspore", "2.2.14", "--cuda", "11.6", "--cudnn", "8.5.0", "--python", "3.9")])
def test_a_planned_install_is_never_called_installed(args):
    text = run_cli("matrix", "check", *args, "--no-color").stdout
    assert_shows(text.splitlines()[0], "ascend-doctor {version} — a planned install (versions from the command line)")
    assert "snapshot of" not in text
    assert "(planned) (active)" not in text and "at (planned)" not in text
    _, data = run_json("matrix", "check", *args)
    for f in data["findings"]:
        words = [f["title"], f["summary"], *f["fix"]] + [str(v) for k, v in f["evidence"].items()
                                                        if k not in ("matrix_notes", "matrix_row")]
        for w in words:
            assert "installed" not in w and "environment points at" not in w, (f["id"], w)
            assert "version.info" not in w, (f["id"], w)  # a plan has no files: its versions come from the command


@pytest.mark.parametrize("spelling", ["8.3rc1", "8.3RC1", "8.3.rc1", "8.3-rc1", "8.3 RC1"])
def test_matrix_show_cann_reads_any_spelling_of_a_release(spelling):
    assert run_cli("matrix", "show", "--cann", spelling).stdout == run_cli("matrix", "show", "--cann", "8.3.RC1").stdout
    mine = json.loads(run_cli("matrix", "show", "--cann", spelling, "--format", "json").stdout)
    ref = json.loads(run_cli("matrix", "show", "--cann", "8.3.RC1", "--format", "json").stdout)
    mine.pop("query"), ref.pop("query")
    assert mine == ref and mine["hdk"]


def test_matrix_check_reads_any_spelling_too():
    _, a = run_json("matrix", "check", "--mindspore", "2.7.1", "--cann", "8.3rc1", "--driver", "24.1.rc3")
    _, b = run_json("matrix", "check", *WRONG_DRIVER)
    assert [(f["id"], f["status"], f["summary"]) for f in a["findings"]] == \
           [(f["id"], f["status"], f["summary"]) for f in b["findings"]]


def test_nvidia_driver_is_judged_in_a_plan():
    """`--nvidia-driver` is the NVIDIA driver, not the NPU one: CUDA 11.6 on 418.87 fails on the driver."""
    _, data = run_json("matrix", "check", "--mindspore", "2.2.14", "--cuda", "11.6", "--nvidia-driver", "418.87")
    f = _by_id(data)
    assert f["compat.nvidia_driver_cuda"]["status"] == "fail"
    assert f["compat.cann_driver"]["status"] == "skip"
    assert not any("CANN" in s for s in f["compat.nvidia_driver_cuda"]["fix"])


def test_nvidia_driver_must_look_like_one():
    proc = run_cli("matrix", "check", "--mindspore", "2.2.14", "--nvidia-driver", "8.0.RC2")
    assert proc.returncode == 2 and "--nvidia-driver" in proc.stderr and "Traceback" not in proc.stderr


def test_a_mindspore_the_matrix_does_not_know_is_said_to_be_unknown_not_unreadable():
    _, data = run_json("matrix", "check", "--mindspore", "2.6.5", "--cann", "8.1.RC1")
    f = _by_id(data)["compat.mindspore_cann"]
    assert f["status"] == "warn"
    assert_msg(f, "MindSpore {version} is not a release in the compatibility matrix {matrix}, so its pairing with CANN "
               "compiler {compiler} is unknown; check the version number against https://www.mindspore.cn/versions.",
               version="2.6.5")
    assert not has_msg(f, "MindSpore {version} is not in the compatibility matrix {matrix} and its own accepted-CANN list "
                       "could not be read, so the pairing with CANN compiler {compiler} is unknown.")
    assert not any("import mindspore" in step for step in f["fix"])  # nothing is installed to ask
