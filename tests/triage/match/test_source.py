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


# ---- what a line is once a logger's prefix is taken off (issue 21: a traceback is one error) ----

from ascend_doctor.triage.match.source import (BLANK, BODY, CARET, CHAIN, EXCEPTION, FRAME, HEADER,  # noqa: E402
                                               MESSAGE, SOURCE, line_shape, looks_like_code, split_prefix)

# real prefixes of the corpus: vLLM (h05), two process groups (h07), Ray with an ip (h12c_09), vLLM-Omni's stage
# (q03), vLLM before 0.7 without the `[` (n12), torchrun (h13a_13)
PREFIXES = [
    ("(Worker_DP0_TP7_EP7 pid=2112) ERROR 12-11 09:09:33 [multiproc_executor.py:822] ",
     b"(Worker_DP0_TP7_EP7 pid=2112) |multiproc_executor.py:822"),
    ("(Worker pid=17096) (Worker_DP0_TP5_EP5 pid=17096) ERROR 03-25 06:14:02 [multiproc_executor.py:880] ",
     b"(Worker pid=17096) (Worker_DP0_TP5_EP5 pid=17096) |multiproc_executor.py:880"),
    ("(RayWorkerWrapper pid=23379, ip=10.0.0.5) ERROR 04-29 08:20:50 [worker_base.py:620] ",
     b"(RayWorkerWrapper pid=23379, ip=10.0.0.5) |worker_base.py:620"),
    ("[Stage-0] ERROR 01-21 17:28:55 [gpu_worker.py:226] ", b"[Stage-0] |gpu_worker.py:226"),
    ("ERROR 03-05 07:15:39 engine.py:387] ", b"|engine.py:387"),
    ("(pid=4242) ", b"(pid=4242) |"),
    ("[rank0]: ", b"[rank0]"),
]


@pytest.mark.parametrize("prefix,who", PREFIXES)
def test_a_known_logger_prefix_is_taken_off_and_names_its_writer(prefix, who):
    rest = b'  File "/x/worker.py", line 3, in run'
    assert split_prefix(prefix.encode() + rest) == (who, rest)
    assert line_shape(prefix.encode() + rest) == (who, FRAME)


@pytest.mark.parametrize("line", [
    "[ERROR] DRV(1234,python):2024-07-12-10:25:01.104.998 [ascend_hal.c:312] halGetDeviceInfo failed, ret=107010",
    "2025-01-22 03:15:30,756 ERROR tune_controller.py:1331 -- Trial task failed for trial TorchTrainer_10b4a_00000",
    "[rank1]:[E324 13:00:25.428092542 compiler_depend.ts:628] Some HCCL operations have failed or timed out.",
])
def test_a_line_without_a_known_prefix_is_its_own_rest(line):
    who, rest = split_prefix(line.encode())
    assert rest == line.encode() or who == b"[rank1]"
    assert line_shape(line.encode())[1] in (MESSAGE, EXCEPTION)


@pytest.mark.parametrize("rest,kind", [
    ("Traceback (most recent call last):", HEADER),
    ("Traceback (most recent call last): [repeated 6x across cluster]", HEADER),
    ("The above exception was the direct cause of the following exception:", CHAIN),
    ("During handling of the above exception, another exception occurred:", CHAIN),
    ('  File "/usr/local/python3.10/lib/python3.10/site-packages/torch/_ops.py", line 1116, in __call__', FRAME),
    ('File "/vllm-workspace/vllm/vllm/v1/executor/multiproc_executor.py", line 230, in get_response', FRAME),
    ("           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^", CARET),
    ("             ~~~~~~~~~~~~~~~^^^^^^^^^^^^^^^^^", CARET),
    ("    return self._op(*args, **(kwargs or {}))", SOURCE),
    ("    hidden_states = hidden_states[logit_indices]", BODY),  # no call: under a frame, lines.Fold makes it source
    ("RuntimeError: ACL stream synchronize failed, error code:507014", EXCEPTION),
    ("torch.OutOfMemoryError: NPU out of memory.", EXCEPTION),
    ("AssertionError", EXCEPTION),
    ("        TraceBack (most recent call last):", BODY),  # CANN's own inner trace: message text, not Python's
    ("        Check nnopExecutor != nullptr failed", BODY),
    ("[ERROR] 2025-04-29-08:20:50 (PID:23379, Device:-1, RankID:-1) ERR00100 PTA call acl api failed", MESSAGE),
    ("EngineCore failed to start.", MESSAGE),
    ("", BLANK),
    ("   ", BLANK),
])
def test_the_rest_of_a_prefixed_line_is_one_thing(rest, kind):
    prefix = b"(EngineCore_DP0 pid=54) ERROR 12-30 06:28:17 [core.py:720] "
    assert line_shape(prefix + rest.encode())[1] == kind
    assert line_shape(prefix + rest.encode() + b"\r")[1] == kind


def test_code_that_lost_its_indent_reads_as_code():
    assert looks_like_code(b"raise RuntimeError(") and looks_like_code(b"    self.gen.throw(value)")
    assert not looks_like_code(b"EngineCore failed to start.") and not looks_like_code(b"Note: see the log")
