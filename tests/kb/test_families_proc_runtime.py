"""data/kb/families_proc_runtime.json: the platform's process catalogues (round 14), written by fault injection: every
signal as bash, zsh, Python's subprocess and multiprocessing, torchrun, torch.multiprocessing, the DataLoader and mpirun
report a process's end (SIGBUS, SIGFPE, SIGTERM, SIGHUP, SIGTRAP, SIGXCPU, SIGSYS, SIGQUIT, the timer signals and the
signals a program installs no handler for), the shell's exit statuses 124, 126, 127 and 128+N, CPython's fatal errors,
faulthandler's timeout dump and the interpreter's start-up messages. Each entry names its member with its cause, reads
members its examples do not show, stays quiet on ordinary lines (the clean runs' own lines among them) and on every
clean excerpt of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_proc_runtime")
# entries of other parts this part extended (exit statuses 128+N, zsh, torchrun's SIGILL; /bin/sh's forms; the 3.6/3.7
# file-system codec line; a memory cgroup's oom-kill summary)
EXTENDED = ["PROCESS_SEGFAULT", "PROCESS_ABORTED_SIGABRT", "PROCESS_KILLED_SIGKILL", "PROCESS_ILLEGAL_INSTRUCTION_SIGILL",
            "PY_STDLIB_NOT_FOUND_AT_START", "SHELL_COMMAND_NOT_FOUND", "SHELL_EXEC_PERMISSION_DENIED", "OS_CGROUP_OOM"]
FAMILY = IDS + EXTENDED + ["PROCESS_DIED_ON_SIGNAL", "PY_SUBPROCESS_COMMAND_FAILED", "OS_FILE_NOT_FOUND",
                           "OS_FILE_SIZE_LIMIT_EXCEEDED", "PY_KEYBOARD_INTERRUPT",
                           "TORCHRUN_RANK_STOPPED_AFTER_FAILURE", "TORCHRUN_WORKER_EXIT_CODE"]
CLASSES = {"PROCESS_ENDED_BY_UNHANDLED_SIGNAL", "PY_FATAL_ERROR_REPORTED"}
WRAPPERS = set()
WARNINGS = {"FAULTHANDLER_TRACEBACK_TIMEOUT", "PY_STDLIB_PREFIX_NOT_FOUND"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert len(IDS) == 27  # (+ round 15's mends: tests/kb/test_entries_from_heldout23.py)
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_proc_runtime.json" and not sig.ascend_fd, sid
        assert sig.kind == ("wrapper" if sid in WRAPPERS else "root"), sid
        assert sig.fallback == (sid in CLASSES), sid
        assert sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # each signal in the printers its examples do not show
    ("zsh: bus error  python train.py", "PROCESS_BUS_ERROR_SIGBUS", "SIGBUS (Bus error)"),
    ("torch.multiprocessing.spawn.ProcessExitedException: process 3 terminated with signal SIGBUS",
     "PROCESS_BUS_ERROR_SIGBUS", "/dev/shm"),
    ("mpirun noticed that process rank 0 with PID 4821 on node node01 exited on signal 7 (Bus error).",
     "PROCESS_BUS_ERROR_SIGBUS", "memory-mapped file"),
    ("E1206 04:10:11.123000 4821 torch/distributed/elastic/multiprocessing/api.py:882] failed (exitcode: -7) "
     "local_rank: 0 (pid: 48213) of binary: /usr/bin/python3", "PROCESS_BUS_ERROR_SIGBUS", "SIGBUS"),
    ("Fatal Python error: Bus error", "PROCESS_BUS_ERROR_SIGBUS", "SIGBUS"),
    ("app-1 exited with code 136", "PROCESS_ARITHMETIC_ERROR_SIGFPE", "divided an integer by zero"),
    ("<Process name='Process-1' pid=48213 parent=48200 stopped exitcode=-SIGFPE>", "PROCESS_ARITHMETIC_ERROR_SIGFPE",
     "SIGFPE"),
    ("[1]+  Terminated              python train.py", "PROCESS_TERMINATED_SIGTERM", "scheduler's time limit"),
    ("Process finished with exit code 143 (interrupted by signal 15: SIGTERM)", "PROCESS_TERMINATED_SIGTERM", "SIGTERM"),
    ("nohup.out: ./run.sh: line 3: 991 Hangup                  python train.py", "PROCESS_HANGUP_SIGHUP",
     "nohup, tmux or screen"),
    ("make: *** [Makefile:12: train] Error 129", "PROCESS_HANGUP_SIGHUP", "SIGHUP"),
    ("subprocess.CalledProcessError: Command '['./kernel_test']' died with <Signals.SIGTRAP: 5>.", "PROCESS_TRAP_SIGTRAP",
     "breakpoint or trap instruction"),
    ("  traceback : Signal 24 (SIGXCPU) received by PID 771", "PROCESS_CPU_TIME_LIMIT_SIGXCPU", "`ulimit -t`"),
    ("DataLoader worker (pid 4512) is killed by signal: Alarm clock. ", "PROCESS_TIMER_SIGNAL_WITHOUT_HANDLER",
     "timer signal (`Alarm clock`)"),
    ("torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGPROF",
     "PROCESS_TIMER_SIGNAL_WITHOUT_HANDLER", "(`SIGPROF`)"),
    ("  traceback : Signal 31 (SIGSYS) received by PID 771", "PROCESS_BAD_SYSTEM_CALL_SIGSYS", "seccomp"),
    ("./serve.sh: line 4: 771 Quit                    (core dumped) python serve.py", "PROCESS_QUIT_SIGQUIT", "Ctrl-\\"),
    ("<Process name='Process-2' pid=771 parent=770 stopped exitcode=-SIGUSR2>", "PROCESS_ENDED_BY_UNHANDLED_SIGNAL",
     "by `SIGUSR2`"),
    ("./job.sh: line 9: 771 Real-time signal 3       python train.py", "PROCESS_ENDED_BY_UNHANDLED_SIGNAL",
     "`Real-time signal 3`"),
    # the shell's statuses
    ("Error: Process completed with exit code 124.", "COMMAND_TIMED_OUT_EXIT_124", "`timeout`"),
    ("command terminated with exit code 126", "COMMAND_NOT_EXECUTABLE_EXIT_126", "could not execute it"),
    ("make[2]: *** [CMakeFiles/gen.dir/build.make:70: gen] Error 127", "COMMAND_NOT_FOUND_EXIT_127",
     "did not find the command"),
    # the existing members' new forms
    ("subprocess.CalledProcessError: Command 'bash infer.sh' returned non-zero exit status 139.", "PROCESS_SEGFAULT",
     "segmentation fault"),
    ("Process finished with exit code 134 (interrupted by signal 6: SIGABRT)", "PROCESS_ABORTED_SIGABRT", "SIGABRT"),
    ("zsh: killed     python train.py", "PROCESS_KILLED_SIGKILL", "SIGKILL"),
    ("<Process name='Process-1' pid=48213 parent=48200 stopped exitcode=-SIGILL>", "PROCESS_ILLEGAL_INSTRUCTION_SIGILL",
     "illegal instruction"),
    ("/usr/bin/sh: 1: ninja: not found", "SHELL_COMMAND_NOT_FOUND", "`ninja`"),
    ("[39548.948592] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,"
     "oom_memcg=/proc_runtime_oom,task_memcg=/proc_runtime_oom,task=python3.11,pid=9976,uid=0", "OS_CGROUP_OOM", "cgroup"),
    # CPython's fatal errors and start-up
    ("Fatal Python error: Cannot recover from Python stack overflow.", "PY_FATAL_STACK_OVERFLOW", "RecursionError"),
    ("Fatal Python error: take_gil: NULL tstate", "PY_FATAL_GIL_NOT_HELD", "without holding the GIL"),
    ("Fatal Python error: _Py_NegativeRefcount: object has negative ref count", "PY_FATAL_C_EXTENSION_OBJECT_BUG",
     "(object has negative ref count)"),
    ("Fatal Python error: init_import_site: Failed to import the site module", "PY_FATAL_STARTUP_STDIO_OR_SITE",
     "Failed to import the site module"),
    ("Fatal Python error: _enter_buffered_busy: could not acquire lock for <_io.BufferedReader name='<stdin>'> at "
     "interpreter shutdown, possibly due to daemon threads", "PY_FATAL_DAEMON_THREADS_AT_SHUTDOWN", "daemon thread"),
    ("Fatal Python error: PyImport_GetModuleDict: no module dictionary", "PY_FATAL_ERROR_REPORTED",
     "`PyImport_GetModuleDict: no module dictionary`"),
    ("Timeout (1:30:00)!", "FAULTHANDLER_TRACEBACK_TIMEOUT", "`Timeout (1:30:00)!`"),
    ("python3.10: can't open file '/home/u/proj/tools/train.py': [Errno 2] No such file or directory",
     "PY_SCRIPT_PATH_NOT_OPENED", "(`/home/u/proj/tools/train.py`)"),
    ("/opt/conda/bin/python: No module named torch.distributed.launch", "PY_DASH_M_MODULE_NOT_FOUND",
     "`python -m torch.distributed.launch`"),
    ("Could not find platform dependent libraries <exec_prefix>", "PY_STDLIB_PREFIX_NOT_FOUND", "platform dependent libraries"),
    ("  SyntaxError: Missing parentheses in call to 'exec'. Did you mean exec(...)?", "PY2_CODE_ON_PY3", "exec"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY + ["PY2_CODE_ON_PY3"])
    assert said in title, title


@pytest.mark.parametrize("line", [
    # the clean runs' own lines (a Pool, a Process, subprocess, torchrun, nohup and timeout, a bash job, `kill -l`)
    "[0, 1, 4, 9, 16]",
    "<Process name='Process-1' pid=5123 parent=5100 stopped exitcode=0>",
    "CompletedProcess(args=['bash', '-c', 'echo child ok; exit 0'], returncode=0)",
    "exit code 0, signal handlers installed for SIGTERM and SIGHUP; timeout 600 s",
    "rank 1 done",
    "all jobs finished",
    " 6) SIGABRT\t 7) SIGBUS\t 8) SIGFPE\t 9) SIGKILL\t10) SIGUSR1",
    "cpu time                    (seconds, -t) unlimited",
    "pending signals                     (-i) 96367",
    "nohup: ignoring input and appending output to 'nohup.out'",
    # ordinary lines that share the entries' words
    "Terminated 4 idle workers after the epoch",
    "Hangup detection enabled",
    "Quit",
    "Bus error handling: retrying the PCIe transaction",
    "#SBATCH --signal=USR1@120",
    "Alarm clock synchronised with NTP",
    "timeout 600 python eval.py",
    "listening on 127.0.0.1:8000",
    "export PYTHONHASHSEED=0",
    "PYTHONIOENCODING=utf-8",
    "Python runtime state: initialized",
    "Timeout (s): 600",
    "python3 -m pip install deepspeed",
    "# -*- coding: utf-8 -*-",
    "RecursionError: maximum recursion depth exceeded while calling a Python object",
    "ZeroDivisionError: division by zero",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


@pytest.mark.parametrize("line, sig_id", [
    # the lines other entries keep: torchrun's stopped ranks, DataLoader's shared memory, a recursion limit
    ("  exitcode  : -15 (pid: 23615)  (SIGTERM)", "TORCHRUN_RANK_STOPPED_AFTER_FAILURE"),
    ("RuntimeError: DataLoader worker (pid 4123) is killed by signal: Bus error. It is possible that dataloader's "
     "workers are out of shared memory. Please try to raise your shared memory limit.", "DATALOADER_SHARED_MEMORY_EXHAUSTED"),
    ("Fatal Python error: init_fs_encoding: failed to get the Python codec of the filesystem encoding",
     "PY_STDLIB_NOT_FOUND_AT_START"),
    ("Fatal Python error: Segmentation fault", "PROCESS_SEGFAULT"),
    ("[81234.567800] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,"
     "task_memcg=/user.slice,task=python,pid=48213,uid=0", "OS_HOST_OOM_KILLER"),
])
def test_the_lines_other_entries_keep(kb, line, sig_id):
    assert [s.id for s in kb.explaining(line)] == [sig_id]


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS + EXTENDED) == []


def test_a_memory_cgroups_oom_summary_is_the_cgroups_not_the_hosts(kb):
    """The kernel's `oom-kill:constraint=CONSTRAINT_MEMCG` summary is a cgroup's limit (OS_CGROUP_OOM); the host's OOM
    killer (OS_HOST_OOM_KILLER, an all_of entry) excludes it, on every matcher, and keeps CONSTRAINT_NONE."""
    memcg = ("[1.2] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/job,"
             "task_memcg=/job,task=python,pid=1,uid=0")
    host = ("[812345.123400] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0-1,global_oom,"
            "task_memcg=/,task=python,pid=12345,uid=0")
    assert [s.id for s in kb.explaining(memcg)] == ["OS_CGROUP_OOM"]
    assert [s.id for s in kb.explaining(host)] == ["OS_HOST_OOM_KILLER"]
