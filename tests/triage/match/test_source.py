"""triage/match/source.py: a Python traceback's source line is not an event (issue 21, precision).

The source lines are real ones from the corpus (tests/fixtures/corpus: heldout12 h12a_01 and h12c_09, k12, vLLM's
prefixed form, pytest's `E` form); the event lines are the exception and CANN report lines around them, which must
still be judged by the signatures.
"""

import pytest

from ascend_doctor.kb.load import load_knowledge_base
from ascend_doctor.triage import Triage
from ascend_doctor.triage.match.source import is_source_line

KB = load_knowledge_base()

SOURCE = [
    "    torch_npu._C._npu_setDevice(device_id)",
    "(EngineCore_1 pid=113803) (VllmWorker rank=0 pid=114020) ERROR 07-01 08:38:50 [multiproc_executor.py:492]     "
    "torch_npu._C._npu_setDevice(device_id)",
    "(EngineCore_DP0 pid=931761) ERROR 09-19 07:42:16 [core.py:720]     raise RuntimeError(",
    "E               work = default_pg.gather(output_tensors, input_tensors, opts)",
    "[rank0]:     self.device = self._init_device()",
    "    return func(*args, **kwargs)",
    "\tmindspore.set_context(mode=mindspore.PYNATIVE_MODE, device_target=\"Ascend\")",
    "        ret = acl.rt.set_device(self.device_id)",
]

EVENTS = [
    "RuntimeError: SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:155 NPU function error: "
    "at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001",
    "E           RuntimeError: ProcessGroupHCCL does not support gather",
    "        rtStreamSynchronize execute failed, reason=[the model stream execute failed]",
    "        GELib::InnerInitialize failed.[FUNC:Initialize][FILE:gelib.cc][LINE:177]",
    "        TraceBack (most recent call last):",
    "run_om.sh: line 7: 257060 Segmentation fault      (core dumped) python3 ./cli_chat.py --om_model_path=a.om",
    "    aclnnMatmulGetWorkspaceSize(x, y) failed",
    "  File \"/usr/lib/python3.10/site-packages/torch_npu/npu/utils.py\", line 64, in set_device",
    "Thread 1 \"llama-server\" received signal SIGSEGV, Segmentation fault.",
]


@pytest.mark.parametrize("line", SOURCE)
def test_a_traceback_source_line_is_recognised(line):
    assert is_source_line(line)
    assert is_source_line(line.encode("utf-8") + b"\n")


@pytest.mark.parametrize("line", EVENTS)
def test_an_event_line_is_not_a_source_line(line):
    assert not is_source_line(line)
    assert not is_source_line(line.encode("utf-8"))


def test_no_signature_names_a_fault_from_a_source_line_in_kb_match():
    # PT_SET_DEVICE_FAILED (ascend-fd's rule `_npu_setDevice`) matches the call's name; on the code line it is
    # not an event (the FAIL heldout12's h12a_01 raised)
    assert KB.signature("PT_SET_DEVICE_FAILED").search("    torch_npu._C._npu_setDevice(device_id)")
    assert KB.explaining("    torch_npu._C._npu_setDevice(device_id)") == []


def test_an_entry_that_reads_code_still_matches_its_code_line():
    line = "    mindspore.set_context(mode=mindspore.PYNATIVE_MODE, device_target=\"Ascend\")"
    assert [s.id for s in KB.explaining(line)] == ["MS_PYNATIVE_MODE_IN_PRODUCTION"]


def test_triage_reports_the_exception_not_the_source_line(tmp_path):
    log = tmp_path / "train.log"
    log.write_text(
        "Traceback (most recent call last):\n"
        "  File \"/x/site-packages/torch_npu/npu/utils.py\", line 64, in set_device\n"
        "    torch_npu._C._npu_setDevice(device_id)\n"
        "RuntimeError: SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:155 NPU function error: "
        "at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001\n",
        encoding="utf-8")
    t = Triage(KB)
    t.add_path(str(log))
    problems = {p.signature.id: p for p in t.result().problems}
    assert "PT_SET_DEVICE_FAILED" not in problems
    assert problems, "the exception line below the code is still an event"
    assert all(p.first.line == 4 for p in problems.values())


def test_the_shape_has_no_unbounded_repetition():
    """A pathological line (300 KB of indents and commas) was quadratic while the shape repeated without bound (minutes,
    not milliseconds): every repetition of the code's shape is bounded, and the line's end is looked at first."""
    import re

    from ascend_doctor.triage.match import source

    outside_classes = re.sub(r"\[(?:\\.|[^\]\\])*\]", "", source._CODE)
    unbounded = re.findall(r"(?<!\\)[*+]|\{\d+,\}", outside_classes)
    assert unbounded == [], unbounded
    assert not is_source_line("    a(x) " * 20000 + " failed")  # the end decides before any search
    assert is_source_line("    a(x) " * 2000 + ")")
    # an indent is tried once, at the start of its run of blanks: a long run is not tried at each of its blanks
    assert source._SOURCE.startswith("(?<![ \\t])")
