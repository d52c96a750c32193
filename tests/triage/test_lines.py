"""triage/lines.py: a traceback is one unexplained error, not one per frame (issue 21, item 4 "nothing dropped").

The tracebacks are real ones from the corpus (tests/fixtures/corpus: heldout h05, h06, h07, h39, heldout6 q09,
heldout9 h9_04, heldout12 h12c_09), as vLLM / vLLM-Ascend / Ray print them through their loggers; the lines put
between their frames (a driver's `[ERROR] DRV ...`, another process's message) are real lines of the issue's own
examples and must each stay listed.
"""

import pytest

from ascend_doctor.triage.lines import Fold, Unexplained, error_units, is_error_line, traceback_dict
from ascend_doctor.triage.result import InputInfo

W = "(Worker_DP0_TP7_EP7 pid=2112) ERROR 12-11 09:09:33 [multiproc_executor.py:822] "
H05 = [W + '  File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 3240, in profile_run',
       W + "    hidden_states = hidden_states[logit_indices]",
       W + "RuntimeError: ACL stream synchronize failed, error code:507014"]
R = "(RayWorkerWrapper pid=23379, ip=10.0.0.5) ERROR 04-29 08:20:50 [worker_base.py:620] "
H12C_09 = [R + '  File "/usr/local/python3.10/lib/python3.10/site-packages/torch_npu/npu/utils.py", line 83, in set_device',
           R + "    torch_npu._C._npu_setDevice(device_id)",
           R + "RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:146 NPU function error: "
               "c10_npu::SetDevice(device_id_), error code is 107001",
           R + "[ERROR] 2025-04-29-08:20:50 (PID:23379, Device:-1, RankID:-1) ERR00100 PTA call acl api failed",
           R + "[Error]: Invalid device ID.",
           R + "        Check whether the device ID is valid."]
V = "ERROR 06-16 02:47:10 [multiproc_executor.py:870] "
H9_04 = [V + '  File "/root/myAIvenv/lib/python3.10/site-packages/vllm_ascend/worker/worker.py", line 108, in __init__',
         V + "    _register_atb_extensions()",
         V + '  File "/root/myAIvenv/lib/python3.10/site-packages/torch_npu/op_plugin/atb/_atb_ops.py", line 86, in '
             "_register_atb_extensions",
         V + "    raise NNAL_EX from GLOBAL_E",
         V + "OSError: [Errno None] "]
DRV = "[ERROR] DRV(1234,python):2024-07-12-10:25:01.104.998 [ascend_hal.c:312] halGetDeviceInfo failed, ret=107010"


def units(lines, explained=()):
    return [(n, text.decode(), traceback_dict(tb), done)
            for n, text, tb, done in error_units([l.encode() for l in lines], set(explained).__contains__)]


def test_a_logger_prefixed_traceback_is_one_unit_its_exception_line():
    [(n, text, tb, done)] = units(H05)
    assert (n, text) == (3, H05[2]) and not done
    assert tb == {"first_line": 1, "frames": 1, "lines": 3, "exception": True}


def test_a_traceback_whose_exception_line_is_explained_lists_nothing():
    assert [u for u in units(H05, explained={3}) if not u[3]] == []


def test_a_frame_is_never_a_unit_of_its_own_and_the_lines_after_the_exception_are():
    got = units(H12C_09)
    # 'Check whether ...' (line 6) is the '[Error]:' message's next line, no traceback's: a unit of its own, as before
    assert [(n, tb["frames"] if tb else None) for n, _t, tb, _d in got] == [(3, 1), (4, None), (5, None), (6, None)]
    assert sorted(n for n, *_ in units(H12C_09[:3] + ["(Other pid=1) ERROR 04-29 08:20:50 [x.py:1]         more"])) == [3, 4]


def test_a_real_error_line_between_frames_is_listed():
    """Another writer's lines between a traceback's frames (a driver's `[ERROR]`, another process's message) are
    units of their own; the traceback goes on and is one unit too."""
    other = "(EngineCore_DP0 pid=54) ERROR 12-30 06:28:17 [multiproc_executor.py:231] Worker proc VllmWorker-0 died"
    lines = H9_04[:2] + [DRV, other] + H9_04[2:]
    got = units(lines)
    assert [(n, text) for n, text, _tb, _d in got] == [(3, DRV), (4, other), (7, H9_04[4])]
    assert got[2][2] == {"first_line": 1, "frames": 2, "lines": 5, "exception": True}


def test_an_error_line_of_its_own_after_the_exception_is_listed_and_an_indented_one_too():
    own = W + "        EZ9999: Inner Error!"  # indented, yet error-looking on its own: not the message's next line
    body = W + "        Check nnopExecutor != nullptr failed"
    got = sorted(units(H05 + [body, own]))  # the traceback stays open for its message's next lines: listed after
    assert [(n, tb and tb["lines"]) for n, _t, tb, _d in got] == [(3, 4), (5, None)]


def test_a_traceback_the_log_stops_in_is_its_last_frame_without_its_exception():
    [(n, text, tb, _d)] = units(H9_04[:4])
    assert (n, text) == (3, H9_04[2])
    assert tb == {"first_line": 1, "frames": 2, "lines": 4, "exception": False}


def test_a_log_that_starts_under_a_frame_folds_its_first_source_line():
    # h07: the excerpt starts with the source line of a frame cut off above it
    p = "(Worker pid=17096) (Worker_DP0_TP5_EP5 pid=17096) ERROR 03-25 06:14:02 [multiproc_executor.py:880] "
    lines = [p + "    torch.npu.current_stream().synchronize()",
             p + '  File "/usr/local/lib/python3.11/site-packages/torch_npu/npu/streams.py", line 85, in synchronize',
             p + "    super(Stream, self).synchronize()",
             p + "RuntimeError: synchronize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:361 NPU function error"]
    [(n, _t, tb, _d)] = units(lines)
    assert n == 4 and tb == {"first_line": 1, "frames": 1, "lines": 4, "exception": True}


def test_the_line_under_a_frame_is_its_source_whatever_its_indent():
    # h06: the paste took the indent away (`raise RuntimeError(`): still that frame's source line
    p = "(EngineCore_0 pid=702) ERROR 09-04 09:50:12 [core.py:702] "
    lines = [p + 'File "/vllm-workspace/vllm/vllm/v1/executor/multiproc_executor.py", line 230, in get_response',
             p + "raise RuntimeError(",
             p + "RuntimeError: Worker failed with error 'ACL stream synchronize failed, error code:507035'"]
    assert [(n, tb["frames"]) for n, _t, tb, _d in units(lines)] == [(3, 1)]


def test_a_header_and_carets_fold_and_a_chain_makes_two_tracebacks():
    p = "(VllmWorker rank=0 pid=48) ERROR 02-24 17:09:23 [multiproc_executor.py:546] "
    first = [p + "Traceback (most recent call last):",
             p + '  File "/usr/local/lib/python3.11/site-packages/vllm/v1/executor/multiproc_executor.py", line 541',
             p + "    output = func(*args, **kwargs)",
             p + "             ^^^^^^^^^^^^^^^^^^^^^",
             p + "RuntimeError: HCCL function error: HcclGetRootInfo(&hccl_id), error code is 5"]
    chain = [p, p + "The above exception was the direct cause of the following exception:", p]
    second = [p + "Traceback (most recent call last):",
              p + '  File "/usr/local/lib/python3.11/site-packages/vllm/worker.py", line 12, in init_device',
              p + "    self.init()",
              p + "ValueError: init failed"]
    got = units(first + chain + second)
    assert [(n, tb) for n, _t, tb, _d in got] == [
        (5, {"first_line": 1, "frames": 1, "lines": 5, "exception": True}),
        (12, {"first_line": 9, "frames": 1, "lines": 4, "exception": True})]


def test_tracebacks_of_two_processes_interleaved_are_each_one_unit():
    a = "(Worker_TP0 pid=1) ERROR 03-01 20:55:34 [multiproc_executor.py:671] "
    b = "(Worker_TP1 pid=2) ERROR 03-01 20:55:34 [multiproc_executor.py:671] "
    frame = '  File "/x/worker.py", line 10, in run'
    lines = [a + frame, b + frame, a + "    self.run()", b + "    self.run()",
             a + "RuntimeError: a failed", b + "RuntimeError: b failed"]
    assert [(n, tb["first_line"]) for n, _t, tb, _d in units(lines)] == [(5, 1), (6, 2)]


def test_lines_that_are_not_error_looking_are_not_fed():
    # a plain traceback's frames are not error lines: its exception line alone is a unit, as before
    lines = ["Traceback (most recent call last):", '  File "train.py", line 3, in <module>', "    main()",
             "RuntimeError: something nobody knows"]
    assert [l for l in lines if is_error_line(l.encode())] == [lines[3]]
    assert units(lines) == [(4, lines[3], None, False)]


def test_unexplained_keeps_a_traceback_once_with_its_place_and_count(tmp_path):
    info = InputInfo(str(tmp_path / "a.log"))
    u = Unexplained()
    for rep in range(2):  # the same traceback twice: one entry, ×2
        for n, line in enumerate(H05, 1 + 10 * rep):
            u.add(line.encode(), info, n)
    u.add(DRV.encode(), info, 30)
    u.end_input()
    listed = u.listed(str)
    assert [(e["line"], e["count"], e["traceback"]) for e in listed] == [
        (3, 2, {"first_line": 1, "frames": 1, "lines": 3, "exception": True}), (30, 1, None)]
    # the last units in the order of their lines (the second traceback stayed open for its message's next lines)
    assert u.lines == 3 and [e["line"] for e in u.last(str)] == [3, 13, 30]


def test_a_summary_and_a_workers_part_carry_the_traceback(tmp_path):
    info = InputInfo(str(tmp_path / "a.log"))
    info.order = 0
    u = Unexplained()
    for n, line in enumerate(H9_04[:4], 1):  # the range ends inside the traceback: listed as cut, nothing dropped
        u.add(line.encode(), info, n)
    part = u.to_part()
    assert part["seen"][0][3] == [1, 2, 4, False] or tuple(part["seen"][0][3]) == (1, 2, 4, False)
    merged = Unexplained()
    merged.merge(part, info, 100)
    [e] = merged.listed(str)
    assert (e["line"], e["traceback"]) == (103, {"first_line": 101, "frames": 2, "lines": 4, "exception": False})
    back = Unexplained.from_summary(merged.to_summary(str), [info])
    assert back.listed(str) == merged.listed(str)
    old = merged.to_summary(str)
    assert len(old["seen"][0]) == 6  # the rows keep the shape an older release reads
    del old["tracebacks"]  # a summary written before tracebacks were kept
    assert Unexplained.from_summary(old, [info]).listed(str)[0]["traceback"] is None
    bad = merged.to_summary(str)
    [key] = bad["tracebacks"]
    bad["tracebacks"][key] = ["1", 2, 4, False]
    with pytest.raises(TypeError):
        Unexplained.from_summary(bad, [info])


def test_fold_closes_the_tracebacks_a_log_ends_in_by_their_first_lines():
    f = Fold()
    for n, line in ((1, H9_04[0]), (2, "(Worker_TP1 pid=2) ERROR 03-01 20:55:34 [x.py:1]   File \"/y.py\", line 1, in f")):
        assert f.feed(n, line.encode()) == []
    assert [u[0] for u in f.close()] == [1, 2] and f.close() == []


def test_open_tracebacks_stay_bounded_and_none_is_dropped(monkeypatch):
    from ascend_doctor.triage import lines as lines_mod

    monkeypatch.setattr(lines_mod, "_OPEN_MAX", 3)
    f, got = Fold(), []
    for pid in range(5):  # five processes, each leaving a traceback open
        got += f.feed(pid + 1, f"(Worker pid={pid}) ERROR 03-01 20:55:34 [x.py:1]   File \"/y.py\", line 1, in f".encode())
        assert len(f.open) <= 3
    got += f.close()
    assert sorted(u[0] for u in got) == [1, 2, 3, 4, 5] and all(u[2][3] is False for u in got)


def test_an_exception_line_far_below_is_not_the_tail_of_a_traceback_above():
    """A source-shaped error line without a prefix opens a traceback; a `RuntimeError:` 500 lines further down is
    another error, not its tail: both are listed, each where it is."""
    src = '    raise RuntimeError("Error: the queue was closed")'
    assert [(n, tb and tb["exception"]) for n, _t, tb, _d in units([src] + ["x"] * 500 + [
        "RuntimeError: Error: the queue was closed"])] == [(1, False), (502, None)]
    assert [(n, tb["first_line"]) for n, _t, tb, _d in units([src, "RuntimeError: Error: the queue was closed"])] == \
        [(2, 1)]


@pytest.mark.parametrize("line, error", [
    # the Docker CLI's daemon errors (MEF's uninstall prints Docker's; an image pull behind a registry's CA)
    ("delete ascend-nginx-manager's docker image command exec failed: Error response from daemon: conflict: unable to "
     "remove repository reference \"ascend-nginx-manager:v1\" (must force) - container 3f2a1b is using its "
     "referenced image 9c8d7e", True),
    ("Error response from daemon: pull access denied for ascend-infer, repository does not exist or may require "
     "'docker login': denied: requested access to the resource is denied", True),
    # logrus levels of dockerd / containerd / the MindX components: error and fatal are, info and warning are not
    ("time=\"2024-05-01T10:00:00.000000000+08:00\" level=error msg=\"Handler for POST /v1.41/containers/create "
     "returned error: unknown runtime specified ascend\"", True),
    ("time=\"2024-05-01T10:00:00Z\" level=fatal msg=\"failed to start daemon: error initializing graphdriver\"", True),
    ("time=\"2024-05-01T10:00:00Z\" level=info msg=\"Loading containers: done.\"", False),
    ("time=\"2024-05-01T10:00:00Z\" level=warning msg=\"Your kernel does not support cgroup blkio weight\"", False),
    # an Ansible task that failed or did not reach its host (ascend-deployer); its ordinary task lines
    ("fatal: [worker-1]: FAILED! => {\"changed\": false, \"msg\": \"Missing sudo password\"}", True),
    ("fatal: [10.0.0.2]: UNREACHABLE! => {\"changed\": false, \"msg\": \"Failed to connect to the host via ssh\", "
     "\"unreachable\": true}", True),
    ("ok: [worker-1]", False),
    ("changed: [worker-1] => (item=npu-driver)", False),
    ("worker-1                   : ok=12   changed=3    unreachable=0    failed=0    skipped=2", False),
    ("TASK [npu : check the fatal flag] ***********************************************", False),
])
def test_the_deployment_tools_error_forms_are_error_lines_and_their_ordinary_lines_are_not(line, error):
    assert is_error_line(line.encode()) is error


@pytest.mark.parametrize("line, error", [
    # the tools around an NPU job that print no level: MPICH, the shell, GNU make (the HCCL Test FAQ's and the driver
    # build's lines) are error lines ...
    ("Fatal error in MPI_Init: Other MPI error, error stack:", True),
    ("Fatal error in PMPI_Comm_split: Other MPI error, error stack:", True),
    ("bash: orted: command not found", True),
    ("/usr/local/Ascend/driver/tools/npu-smi: line 3: lspci: command not found", True),
    ("./p12_launch.sh: line 6: DEVICE_IDS[$i]: unbound variable", True),
    ("make[2]: *** [Makefile:1234: drv_davinci.ko] Error 2", True),
    ("make: *** /lib/modules/6.8.0-45-generic/build: No such file or directory.  Stop.", True),
    # llama.cpp's model loader and hccn_tool print a failure with no level of their own
    ("llama_model_load: error loading model: tensor 'blk.0.attn_q.weight' has wrong shape", True),
    ("Cmd execute failed!", True),
    # ... their ordinary lines are not
    ("MPID_nem_tcp_init(379)..................:", False),
    ("the minbytes is 8192, maxbytes is 2147483648, iters is 20, warmup_iters is 5", False),
    ("make[1]: Entering directory '/usr/src/drv'", False),
    ("make -C /lib/modules/6.8.0-45-generic/build M=/usr/src/drv modules", False),
    ("echo \"unbound variable checks are on (set -u)\"", False),
    ("echo 'command not found handler installed'", False),
    ("[INFO] fatal error in MPI_Init is retried", False),
    ("llama_model_loader: loaded meta data with 29 key-value pairs and 291 tensors", False),
    ("print_info: error loading model vocabulary disabled", False),
    ("hccn_tool -i 0 -link -g  # prints 'Cmd execute failed!' when the port is down", False),
])
def test_the_tools_without_a_level_have_their_error_lines_read(line, error):
    assert is_error_line(line.encode()) is error


@pytest.mark.parametrize("line", [
    # Ansible's task reports (the default and the minimal/oneline callbacks)
    'fatal: [172.0.0.100]: FAILED! => {"msg": "Missing sudo password"}',
    'fatal: [worker-1]: UNREACHABLE! => {"changed": false, "msg": "Failed to connect to the host via ssh", '
    '"unreachable": true}',
    '10.0.0.2 | FAILED! => {"changed": false, "msg": "can not find npu card, please check"}',
    "10.0.0.2 | UNREACHABLE!: Failed to connect to the host via ssh: ssh: connect to host 10.0.0.2 port 22: "
    "Connection timed out",
    # klog behind journald's prefix
    'Dec 05 10:00:00 node1 kubelet[1234]: E1205 10:00:00.000000    1234 server.go:302] "Failed to run kubelet" '
    'err="failed to run Kubelet: running with swap on is not supported, please disable swap"',
    # logrus: text, JSON and the terminal form (dockerd, containerd, the Ascend Docker Runtime's tools)
    'time="2024-01-01T00:00:00.000000000+08:00" level=error msg="Handler for POST /v1.43/containers/create returned '
    'error: unknown or invalid runtime name: ascend"',
    '{"level":"fatal","msg":"failed to start daemon: error initializing graphdriver","time":"2024-01-01T00:00:00Z"}',
    "ERRO[0000] error waiting for container: context canceled",
    # the Docker client, kubectl, apt's error level, curl's coded errors
    'docker: Error response from daemon: manifest for ascendhub/mindie:latest not found: manifest unknown: manifest '
    'unknown.',
    'Error from server (Forbidden): pods is forbidden: User "system:anonymous" cannot list resource "pods"',
    "E: Unable to locate package libopenblas-dev",
    "curl: (6) Could not resolve host: repo.huaweicloud.com",
])
def test_the_error_forms_of_deployment_tools_are_error_lines(line):
    assert is_error_line(line.encode())


@pytest.mark.parametrize("line", [
    "ok: [172.0.0.100]",
    "changed: [worker-1] => (item=docker)",
    "skipping: [10.0.0.2]",
    "PLAY RECAP *********************************************************************",
    "10.0.0.2                   : ok=12   changed=3    unreachable=0    failed=0    skipped=1    rescued=0    ignored=0",
    "10.0.0.2 | SUCCESS => {\"changed\": false, \"ping\": \"pong\"}",
    'Dec 05 10:00:00 node1 kubelet[1234]: I1205 10:00:00.000000    1234 server.go:400] "Kubelet version" '
    'kubeletVersion="v1.28.2"',
    'time="2024-01-01T00:00:00.000000000+08:00" level=info msg="API listen on /var/run/docker.sock"',
    'time="2024-01-01T00:00:00.000000000+08:00" level=warning msg="failed to load plugin, skipping"',
    '{"level":"info","msg":"starting containerd","time":"2024-01-01T00:00:00Z"}',
    "INFO[0000] Starting up",
    "WARN[0000] Running in rootless mode",
    "W: Some index files failed to download. They have been ignored, or old ones used instead.",
    "Get:1 http://archive.ubuntu.com/ubuntu jammy InRelease [270 kB]",
    "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current",
    "curl: try 'curl --help' or 'curl --manual' for more information",
])
def test_the_ordinary_lines_of_deployment_tools_are_not_error_lines(line):
    assert not is_error_line(line.encode())


@pytest.mark.parametrize("line, error", [
    # compilers' and build tools' diagnostics: an Ascend C kernel built by bisheng/ccec against old PTO-ISA headers, a
    # custom operator's CMake configure and ninja build, a wheel whose build backend failed, git behind a proxy ...
    ("error: no member named 'FmodSAlgorithm' in namespace 'pto';", True),
    ("/home/op/add_custom.cpp:12:5: error: use of undeclared identifier 'AscendC'", True),
    ("op_kernel/add.cpp:40: error: 'TPipe' was not declared in this scope", True),
    ("fatal error: acl/acl.h: No such file or directory", True),
    ("CMake Error at cmake/config.cmake:12 (message):", True),
    ("FAILED: op_host/CMakeFiles/cust_optiling.dir/add_custom_tiling.cpp.o", True),
    ("error: subprocess-exited-with-error", True),
    ("fatal: unable to access 'https://gitee.com/ascend/op-plugin.git/': Could not resolve host: gitee.com", True),
    # ... a process that aborts without an error word: glibc's assert(), the C++ terminate handler, glibc's heap and
    # stack checks, the interpreter's fatal error, Go's panic, the shell's SIGABRT report
    ("python3: driver_queue.c:164: checkSqeSupported: Assertion `0' failed.", True),
    ("terminate called after throwing an instance of 'c10::Error'", True),
    ("double free or corruption (!prev)", True),
    ("free(): invalid pointer", True),
    ("*** stack smashing detected ***: terminated", True),
    ("Fatal Python error: Aborted", True),
    ("panic: runtime error: invalid memory address or nil pointer dereference", True),
    ("Aborted (core dumped)", True),
    # ... glog with the year (Vision SDK's MxBase) and ONNX Runtime's logger at the error level
    ("E20250310 11:02:03.123456 4321 ImageProcessorDptr.cpp:812] Failed to resize image.", True),
    ("2024-01-01 10:00:00.000 [E:onnxruntime:Default, cann_execution_provider.cc:1234 Compile] CANN EP failed", True),
    ("I20250310 11:02:03.123456 4321 MxsmStream.cpp:100] Stream created.", False),
    ("2024-01-01 10:00:00.000 [W:onnxruntime:Default, session_state.cc:1162 VerifyEachNodeIsAssignedToAnEp] Some nodes "
     "were not assigned to the preferred execution providers", False),
    # ... a non-zero error code said in words
    ("Stress detect error. Error code is 574007. Error message is Voltage recovery failed.", True),
    ("aclInit failed, errorCode = 100002", True),
    ("process exited with error code 1", True),
    # ... and the ordinary lines of the same tools are not
    ("error: 0.0123", False),
    ("eval mean abs error: 0.51", False),
    ("-- Configuring done (0.4s)", False),
    ("CMake Warning at CMakeLists.txt:3 (message):", False),
    ("[1/12] Building CXX object op_host/CMakeFiles/cust_optiling.dir/add_custom_tiling.cpp.o", False),
    ("All Assertion checks passed", False),
    ("Training aborted by user request, saving checkpoint", False),
    ("[INFO] panic: recovered in worker 3", False),
    ("note: This error originates from a subprocess, and is likely not a problem with pip.", False),
    ("stress detect done, error code is 0", False),
    ("errorCode = 0x0", False),
    ("[INFO] ASCENDCL(1,python):2024-01-01-00:00:00.000.000 aclInit returned, error code is 100002", False),
])
def test_compilers_build_tools_and_aborting_processes_have_their_error_lines_read(line, error):
    assert is_error_line(line.encode()) is error


@pytest.mark.parametrize("line, marked", [
    ("[ERROR] GE(1,atc):2024-01-01-00:00:00.000.000 No ONNX parser is registered for optype CustomOp.", True),
    ("E13023: Model tiling data has a size of 4294967298 bytes, which exceeds system limit of 4294967295 bytes.", True),
    ("ATC run failed, Please check the detail log, ErrorCode=E16002", True),
    ("Synchronize stream execution failed. (Calling Function = aclrtSynchronizeStream, Code = 507014, Message = ...)",
     True),
    ("aclrtMalloc failed, ret=207001", True),
    ("No ONNX parser is registered for optype CustomOp.", False),
    ("Model tiling data has a size of 4294967298 bytes, which exceeds system limit of 4294967295 bytes.", False),
    ("[INFO] RUNTIME(507014,python):2024-01-01-00:00:00.000.000 stream synchronized, ret=0", False),
])
def test_an_error_report_is_an_error_line_or_a_line_with_an_error_code(line, marked):
    from ascend_doctor.triage.lines import is_error_report

    assert is_error_report(line) is marked


def message_lines(raw, explained):
    """error_units' explained lines that continue an exception's message (Fold.follows)."""
    got = []
    error_units(raw, explained, got)
    return got


SD = ["Traceback (most recent call last):", '  File "t.py", line 11, in <module>', "    m2.load_state_dict(sd)",
      "RuntimeError: Error(s) in loading state_dict for Net:",
      '\tMissing key(s) in state_dict: "fc1.weight", "fc1.bias". ',
      '\tUnexpected key(s) in state_dict: "module.fc1.weight", "module.fc1.bias". ']


def test_an_explained_next_line_of_an_exceptions_message_explains_the_exception():
    """torch prints the cause of `Error(s) in loading state_dict` on the tab-indented lines under it, which have no
    error word: a signature that reads them explains the exception line, which is then not listed."""
    assert units(SD) == [(4, SD[3], None, False)]  # a plain traceback's frames are no error lines: its tail alone
    assert [u[3] for u in units(SD, explained={5, 6})] == [True]
    assert message_lines([l.encode() for l in SD], {5, 6}.__contains__) == [5, 6]
    # through a logger: the traceback is one unit, explained whole
    logged = [R + line for line in SD[1:]]
    assert units(logged, explained={4, 5}) == [
        (3, logged[2], {"first_line": 1, "frames": 1, "lines": 5, "exception": True}, True)]
    # pasted without its traceback: the exception line alone is explained the same way
    assert [u[3] for u in units(SD[3:], explained={2})] == [True]
    assert message_lines([l.encode() for l in SD[3:]], {2}.__contains__) == [2]


def test_a_line_that_is_not_right_under_the_exceptions_message_does_not_explain_it():
    # a line nobody names between them, a line that is not indented, another writer's indented line
    for lines, n in ((SD[:4] + ["\tsomething else", SD[5]], 6), (SD[:4] + ["Missing key(s) in state_dict: a"], 5),
                     (SD[3:4] + ["(Worker pid=3) INFO 03-01 20:55:34 [x.py:1]   Missing key(s) in state_dict"], 2)):
        raw = [l.encode() for l in lines]
        assert [u[3] for u in error_units(raw, {n}.__contains__)] == [False], lines
        assert message_lines(raw, {n}.__contains__) == []


def test_triage_lists_no_exception_its_messages_next_line_explains(tmp_path):
    from ascend_doctor.kb.load import load_knowledge_base as load_kb
    from ascend_doctor.triage.scan import triage_paths

    (tmp_path / "run.log").write_text("\n".join(SD) + "\n")
    got = triage_paths([str(tmp_path / "run.log")], load_kb()).to_json()
    assert "MODEL_PARAMETER_KEY_MISSING" in [p["id"] for p in got["problems"]]
    assert got["unexplained_errors"] == []
    # the same exception with a message no signature reads is listed, as before
    (tmp_path / "run.log").write_text("\n".join(SD[:4] + ["\tsomething nobody knows"]) + "\n")
    got = triage_paths([str(tmp_path / "run.log")], load_kb()).to_json()
    assert [e["line"] for e in got["unexplained_errors"]] == [4]


def test_an_entry_that_needs_an_error_mark_fails_on_an_exception_messages_next_line(tmp_path, monkeypatch):
    """A `fail_needs_mark` entry is a FAIL where its line continues an exception's message (Fold.follows), as on a line
    with an error word; the same line alone, or under an ordinary line, stays a warning. Read with worker processes
    too (parallel.py carries the mark)."""
    from ascend_doctor.kb.load import load_knowledge_base as load_kb
    from ascend_doctor.triage.scan import triage_paths

    kb = load_kb()
    prefix = ['\tMissing key(s) in state_dict: "fc1.weight". ', '\tUnexpected key(s) in state_dict: "module.fc1.weight". ']

    def severity(lines, **kw):
        (tmp_path / "run.log").write_text("\n".join(lines) + "\n")
        got = triage_paths([str(tmp_path / "run.log")], kb, **kw).to_json()
        return {p["id"]: p["severity"] for p in got["problems"]}.get("TORCH_STATE_DICT_KEYS_WRAPPER_PREFIX")

    assert kb.signature("TORCH_STATE_DICT_KEYS_WRAPPER_PREFIX").fail_needs_mark
    assert severity(SD[:4] + prefix) == "fail"
    assert severity(prefix[1:]) == "warn"
    assert severity(["epoch 1 done"] + prefix[1:]) == "warn"
    # the lines in the second byte range of a file read by a forked worker
    from ascend_doctor.triage import scan

    monkeypatch.setattr(scan, "PARALLEL_MIN_BYTES", 1 << 12)
    monkeypatch.setattr(scan.os, "cpu_count", lambda: 2)
    assert severity([f"epoch {i} done, loss 0.{i}" for i in range(400)] + SD[:4] + prefix) == "fail"


def test_the_line_under_an_exception_with_an_empty_message_is_its_message_whatever_its_indent():
    """`AssertionError: ` with nothing after the colon: the message starts on the next line, unindented (torch's
    `The NVIDIA driver on your system is too old ...`). A signature reading that line explains the exception; under an
    exception line that has a message of its own, an unindented line is not its message."""
    tb = ["Traceback (most recent call last):", '  File "torch/cuda/__init__.py", line 63, in _check_driver',
          "    of the CUDA driver.\"\"\".format(str(torch._C._cuda_getDriverVersion())))", "AssertionError: ",
          "The NVIDIA driver on your system is too old (found version 10010).",
          "Please update your GPU driver by downloading and installing a new"]
    raw = [l.encode() for l in tb]
    assert message_lines(raw, {5}.__contains__) == [5]
    assert [u[3] for u in error_units(raw, {5}.__contains__)] == [True]
    raw[3] = b"AssertionError: driver check"
    assert message_lines(raw, {5}.__contains__) == []
    alone = [b"AssertionError: ", b"The NVIDIA driver on your system is too old (found version 10010)."]
    assert message_lines(alone, {2}.__contains__) == [2]
    assert message_lines([alone[0], b"", alone[1]], {3}.__contains__) == []


@pytest.mark.parametrize("line, below", [
    ("[INFO] HCCL(507010,python):2024-07-12-10:20:00.000.000 [hccl_socket.cc:100] errno=113 retry 3", True),
    ("[WARNING] ME(1:2,python):2024-07-12-10:20:00.000.000 [x.cc:1] errno=104", True),
    ("[EVENT] PROFILING(1,python):2024-07-12-10:20:00.000.000 ret=507014", True),
    ("I0712 10:20:00.000 123 socket.cc:10] connect errno=111", True),
    ("[rank0]:[W712 10:20:00.000 socket.cpp:10] errno: 104", True),
    ("2024-07-12 10:20:00,123 - INFO - step 507008", True),
    ("2024-07-12 10:20:00,123 - mylogger - WARNING - errno 28", True),
    ("INFO:root:errno 28 handled", True),
    ("INFO 07-12 10:20:00 [engine.py:10] errno=11", True),
    ("time=2024-07-12T10:20:00Z level=info msg=\"errno=11\"", True),
    ("[ERROR] HCCL(1,python):2024-07-12-10:20:00.000.000 connect errno=113", False),
    ("E0712 10:20:00.000 123 socket.cc:10] connect errno=111", False),
    ("open failed, errno=116", False),
    ("OSError: [Errno 28] No space left on device", False),
    ("Information: errno 5", False),
    ("info: errno 5", False),
])
def test_a_line_logged_below_the_error_level_is_known_by_its_leading_level(line, below):
    from ascend_doctor.triage.lines import logged_below_error

    assert logged_below_error(line) is below


def test_a_long_line_is_shown_around_what_its_entry_read():
    # MindSpore 2.7.0 (run here): the pipeline's message is quoted past the cut of its [ERROR] MD line; the line shown
    # holds it, so the entry's title says the dataset and the folder
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.triage.lines import SHOW_LINE_CHARS, _text

    sig = load_knowledge_base().signature("MS_DATASET_FILES_MISSING")
    line = ("[ERROR] MD(21377,7f793fefd6c0,python):2026-12-06-22:21:32.373.255 [mindspore/ccsrc/minddata/dataset/util/"
            "task_manager.cc:256] InterruptMaster] MindSpore dataset is terminated with err msg: Exception thrown from "
            "dataset pipeline. Refer to 'Dataset Pipeline Error Message'. " + "x" * 200 + " [ERROR] Invalid data, "
            "ImageFolderDataset API can't read the data file (interface mismatch or no data found). Check image folder "
            "file path: ./data/train")
    shown = _text(line.encode(), sig)
    assert len(shown) <= SHOW_LINE_CHARS + 4 and shown.startswith("… ") and shown.endswith("./data/train")
    assert sig.values(shown)["path"] == ("./data/train", True)
    assert _text(line.encode()) == line[:SHOW_LINE_CHARS] + " …"  # without the entry: its start, as before
    short = "RuntimeError: x"
    assert _text(short.encode(), sig) == short
