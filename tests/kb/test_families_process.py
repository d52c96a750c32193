"""data/kb/families_process.json and its family members elsewhere (PROCESS_SEGFAULT, PROCESS_KILLED_SIGKILL in
field_cases.json, PROCESS_ILLEGAL_INSTRUCTION_SIGILL in families_python.json): a process that ended on a signal or an
abort, in the ways the shell, glibc, libstdc++, Python's faulthandler, gdb, the kernel, PyTorch's launchers, Ray/glog
and OpenMPI print it, and CANN's TBE compile workers left without their parent. Each entry reads members its examples
do not show, says the signal (and the library or message where the line names it), stays quiet on ordinary lines and
on every clean excerpt, and one line is one problem: the entries of one signal do not both report it."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_process")
FAMILY = IDS + ["PROCESS_SEGFAULT", "PROCESS_KILLED_SIGKILL", "PROCESS_ILLEGAL_INSTRUCTION_SIGILL"] + part_ids("families_proc_runtime")


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert set(IDS) >= {"PROCESS_DIED_ON_SIGNAL", "PROCESS_ABORTED_SIGABRT", "PROCESS_HEAP_CORRUPTION_GLIBC", "PROCESS_CXX_UNCAUGHT_EXCEPTION",
                        "TBE_COMPILE_WORKER_PARENT_GONE"}
    for sid in IDS:
        sig = kb.signature(sid)
        # std::terminate with no exception in flight says where the process ended, not why: an envelope
        kind = "wrapper" if sid == "PROCESS_CXX_TERMINATE_WITHOUT_EXCEPTION" else "root"
        assert os.path.basename(sig.origin) == "families_process.json" and sig.kind == kind and not sig.ascend_fd


@pytest.mark.parametrize("line, sig_id, said", [
    # SIGSEGV: the kernel's line names the library; gdb's core form; glog's failure handler; the aarch64 kernel form
    ("[3921.224] python3[4242]: segfault at 8 ip 0000ffff9c2a1b10 sp 0000ffffd3c0 error 4 in libascendcl.so[ffff9c0+4000]",
     "PROCESS_SEGFAULT", "(SIGSEGV) in `libascendcl.so`"),
    ("Program terminated with signal SIGSEGV, Segmentation fault.", "PROCESS_SEGFAULT", "segmentation fault (SIGSEGV)"),
    ("*** SIGSEGV (@0x0) received by PID 3031 (TID 0xffff7e) from PID 0; stack trace: ***", "PROCESS_SEGFAULT",
     "(SIGSEGV)"),
    ("[ 812.3] python3[77]: unhandled level 2 translation fault (11) at 0x00000008, esr 0x92000006, in "
     "libhccl.so[ffff8a000000+2b0000]", "PROCESS_SEGFAULT", "in `libhccl.so`"),
    ("/root/run.sh: line 9: 1234 Segmentation fault      python -m vllm.entrypoints.api_server", "PROCESS_SEGFAULT",
     "(SIGSEGV)"),
    ("torchrun: exitcode  : -11 (pid: 3915)  traceback : Signal 11 (SIGSEGV) received by PID 3915", "PROCESS_SEGFAULT",
     "(SIGSEGV)"),
    # SIGABRT: bash with the command, torch.multiprocessing, Ray's failure handler, OpenMPI
    ("/opt/run.sh: line 4: 998 Aborted                 (core dumped) ./llama-cli -m model.gguf -ngl 99",
     "PROCESS_ABORTED_SIGABRT", "aborted (SIGABRT)"),
    ("torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGABRT",
     "PROCESS_ABORTED_SIGABRT", "(SIGABRT)"),
    ("(RayWorker pid=7) *** SIGABRT received at time=1720000000 on cpu 3 ***", "PROCESS_ABORTED_SIGABRT", "(SIGABRT)"),
    ("[node1:1234] Signal: Aborted (6)", "PROCESS_ABORTED_SIGABRT", "(SIGABRT)"),
    # glibc's other heap checks, the message said
    ("malloc(): corrupted top size", "PROCESS_HEAP_CORRUPTION_GLIBC", "(`malloc(): corrupted top size`)"),
    ("*** Error in `python': free(): invalid next size (fast): 0x0000000001e0f010 ***",
     "PROCESS_HEAP_CORRUPTION_GLIBC", "(`free(): invalid next size (fast)`)"),
    # another library's exception type
    ("terminate called after throwing an instance of 'std::system_error'", "PROCESS_CXX_UNCAUGHT_EXCEPTION",
     "(`std::system_error`)"),
    ("terminate called without an active exception", "PROCESS_CXX_TERMINATE_WITHOUT_EXCEPTION",
     "with no C++ exception in flight"),
    # the TBE workers of another launcher, another task name
    ("(IntegratedWorker pid=61540) [ERROR] TBE Subprocess[task_distribute] raise error[], main process disappeared! "
     "[repeated 120x across cluster]", "TBE_COMPILE_WORKER_PARENT_GONE", "`main process disappeared` (`task_distribute`)"),
    # any other signal: gdb's SIGFPE; the shell's Hangup and a DataLoader worker's SIGTERM have their signal's entry
    # (families_proc_runtime.json), which says the cause
    ("Thread 7 \"python3\" received signal SIGFPE, Arithmetic exception.", "PROCESS_DIED_ON_SIGNAL", "(`SIGFPE`)"),
    ("/opt/job.sh: line 3: 812 Hangup                  nohup python serve.py", "PROCESS_HANGUP_SIGHUP",
     "terminal or SSH session"),
    ("RuntimeError: DataLoader worker (pid 31) is killed by signal: Terminated. ", "PROCESS_TERMINATED_SIGTERM",
     "SIGTERM"),
    # torchrun's agent: a negative exit code is the signal's number
    ("torch.distributed.elastic.multiprocessing.api:[ERROR] failed (exitcode: -11) local_rank: 5 (pid: 77) of binary: "
     "/usr/local/bin/python3.10", "PROCESS_SEGFAULT", "(SIGSEGV)"),
    # SIGKILL from the shell with the command, and from torchrun
    ("./train.sh: line 5: 3821 Killed                  python train.py", "PROCESS_KILLED_SIGKILL", "SIGKILL"),
    ("  traceback : Signal 9 (SIGKILL) received by PID 48213", "PROCESS_KILLED_SIGKILL", "SIGKILL"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "export PYTHONFAULTHANDLER=1 to print a traceback on a Segmentation fault",
    "[INFO] segmentation fault handler installed",
    "Aborted!",
    "INFO 03-01 10:00:00 [engine.py:1] Aborted request cmpl-42.",
    "[INFO] request 12 aborted by the client",
    "Killed process group cleanly after training finished",
    "[INFO] TBE Subprocess[task_distribute] started, 16 workers",
    "[W compiler_depend.ts:1] Warning: SIGSEGV handler registered by torch_npu",
    "free(): released 12 blocks",
    "2025-01-01 00:00:00 INFO worker 3 exited normally (exitcode 0)",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in FAMILY] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, FAMILY) == []


def test_one_signal_line_is_one_problem_of_the_family(kb):
    # every example of a family entry is explained by that entry alone (no second entry of the family on its line)
    assert family_overlaps(kb, FAMILY) == []
