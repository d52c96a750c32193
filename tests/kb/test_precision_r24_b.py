"""Round 24's precision mends, part b: statements triage made beside the labelled fault that were false or misleading
(the audit's items in field_cases, families_process, families_ascend_issues, families_py_builtins, families_llm_stacks
and families_cuda_stack). Each mend on the audited line (a corpus line: a precision regression test) and on another real
line of its kind, with the entry's old members still named."""

import pytest

from tests.helpers.kb_parts import english_kb, statements as _said

NEW_IDS = ["PROCESS_LOGGED_ITS_OWN_EXCEPTION"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


@pytest.mark.parametrize("line, sig_id, said, unsaid", [
    # p2#20, p2#79: a process logging its own exception is not a launcher seeing a worker exit
    ("(Worker_TP3 pid=3550) ERROR 09-26 15:11:03 [multiproc_executor.py:654] WorkerProc hit an exception.",
     "PROCESS_LOGGED_ITS_OWN_EXCEPTION", "(`WorkerProc hit an exception`): the traceback printed with this line",
     "launcher"),
    ("(VllmWorker TP5 pid=411) ERROR 08-29 02:12:59 [multiproc_executor.py:596] WorkerProc hit an exception.",
     "PROCESS_LOGGED_ITS_OWN_EXCEPTION", "vLLM worker or SGLang scheduler process logged an exception", "launcher"),
    ("[2026-06-11 12:50:44] Scheduler hit an exception: Traceback (most recent call last):",
     "PROCESS_LOGGED_ITS_OWN_EXCEPTION", "(`Scheduler hit an exception`)", "launcher"),
    ("[2025-03-29 18:56:25 TP0] Scheduler hit an exception: Traceback (most recent call last):",
     "PROCESS_LOGGED_ITS_OWN_EXCEPTION", "(`Scheduler hit an exception`)", "launcher"),
    # p2#45: no what() line follows a type that is not a std::exception
    ("terminate called after throwing an instance of 'MSDEBUG_ERROR_CODE'", "PROCESS_CXX_UNCAUGHT_EXCEPTION",
     "printed for std::exception types only", "the `what():` line below it gives"),
    ("terminate called after throwing an instance of 'c10::Error'", "PROCESS_CXX_UNCAUGHT_EXCEPTION",
     "the lines before it give the reason where there is none", "the `what():` line below it gives"),
    # p2#14: a program that kills its own processes after an error ends the same way
    ("Killed", "PROCESS_KILLED_SIGKILL", "its own program stopping its processes after an error", "usually"),
    ("./train.sh: line 5: 3821 Killed                  python train.py --device npu", "PROCESS_KILLED_SIGKILL",
     "the kernel's OOM killer", "usually"),
    # p1#1: None can be a file the library looked up and did not find
    ("TypeError: expected str, bytes or os.PathLike object, not NoneType", "PY_PATH_ARGUMENT_NOT_A_PATH",
     "a file the library looked up and did not find", "an option, environment variable or config key not given"),
    ("TypeError: join() argument must be str, bytes, or os.PathLike object, not 'NoneType'",
     "PY_PATH_ARGUMENT_NOT_A_PATH", "(in `join()`)", "an option, environment variable or config key not given"),
    # p2#74: float16 only on a device vLLM supports
    ("Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla P100-PCIE-16GB GPU has "
     "compute capability 6.0.", "VLLM_BF16_NEEDS_COMPUTE_CAPABILITY_8", "on a device vLLM supports", "<nothing>"),
    ("ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has "
     "compute capability 7.5. You can use float16 instead by explicitly setting the`dtype` flag in CLI, for example: "
     "--dtype=half.", "VLLM_BF16_NEEDS_COMPUTE_CAPABILITY_8", "(compute capability 7.5)", "<nothing>"),
    # p1#17: old transformers' rope_scaling check, in the quote form too
    ("ValueError: 'rope_scaling' must be a dictionary with two fields, 'type' and 'factor', got {'factor': 8.0, "
     "'low_freq_factor': 1.0, 'high_freq_factor': 4.0, 'original_max_position_embeddings': 8192, 'rope_type': "
     "'llama3'}", "HF_ROPE_SCALING_CONFIG_NEWER_THAN_LIBRARY", "newer form than this transformers checks", "<nothing>"),
    ("ValueError: `rope_scaling` must be a dictionary with two fields, `type` and `factor`, got {'factor': 32.0, "
     "'original_max_position_embeddings': 4096, 'type': 'yarn'}", "HF_ROPE_SCALING_CONFIG_NEWER_THAN_LIBRARY",
     "(got `{'factor': 32.0", "<nothing>"),
    # p1#104: one verdict for vLLM's warning, which it goes on past
    ("WARNING 10-10 10:22:58 _custom_ops.py:18] Failed to import from vllm._C with ImportError('libcuda.so.1: cannot "
     "open shared object file: No such file or directory')", "VLLM_C_CUDART_WARNING_BENIGN",
     "a warning vLLM goes on past", "harmless"),
    ("WARNING 07-12 10:21:33 _custom_ops.py:14] Failed to import from vllm._C with ImportError('libcudart.so.12: "
     "cannot open shared object file: No such file or directory')", "VLLM_C_CUDART_WARNING_BENIGN",
     "on an NVIDIA GPU host the library it names is missing", "harmless"),
    # the async operator's name without the sentence's full stop
    ("RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current "
     "working operator name is Conv3D.", "TORCH_NPU_ASYNC_OPERATOR_INNER_ERROR", "(`Conv3D`)", "`Conv3D.`"),
])
def test_the_entry_says_what_its_line_shows(kb, line, sig_id, said, unsaid):
    got = _said(kb, line)
    assert sig_id in got, list(got)
    title = got[sig_id][0]
    assert said in title and unsaid not in title, title


@pytest.mark.parametrize("line, sig_id, in_cause, in_fix", [
    # p2#33: a compiled module that failed to load, beside a shared-library error
    ("ModuleNotFoundError: No module named '_conf'", "PY_MODULE_NOT_INSTALLED", "may be there and fail to load",
     "the module may be installed but unable to load"),
    ("ModuleNotFoundError: No module named 'vllm_ascend'", "PY_MODULE_NOT_INSTALLED", "SWIG 3.x", "`ldd`"),
    # p1#49: MindSpore's device-load message
    ("Load dynamic library: libmindspore_ops_ascend.so failed. libmindspore_ascend_res_manager.so: cannot open shared "
     "object file: No such file or directory", "SHARED_LIBRARY_NOT_LOADABLE", "Device load error message",
     "device_target=\"CPU\""),
    ("ImportError: libopencv_core.so.406: cannot open shared object file: No such file or directory",
     "SHARED_LIBRARY_NOT_LOADABLE",
     "Unsupported device target", "paired with that CANN"),
    # p1#106: CANN's error-text query on a null context follows a failed device set-up
    ("[ERROR] RecentErrMsg: [PID: 265771] 2026-07-21-05:48:21.854.442 Invalid_Argument(EE1001): The argument is "
     "invalid.Reason: rtGetDevMsg execution failed, the context is a null pointer.", "CANN_RUNTIME_CALL_FAILED",
     "or it failed earlier", "a device set-up that failed (aclrtSetDevice, halDeviceOpen, code 507033)"),
    ("The argument is invalid.Reason: rtGetDevMsg execution failed, the context is a null pointer.",
     "CANN_RUNTIME_CALL_FAILED", "rtGetDevMsg", "fix that; otherwise"),
    # p1#114: HcclResult 11 from a listen failure
    ("[rank0]: RuntimeError: createHCCLComm:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:1479 HCCL function "
     "error: HcclGetRootInfo(&hcclID), error code is 11", "HCCL_FUNCTION_ERROR_RESULT", "cannot listen on its own port",
     "the port is in use"),
    ("RuntimeError: allreduce:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:100 HCCL function error: "
     "HcclAllReduce(inputDataPtr, outputDataPtr, numel, hcclType, hcclReduceOp, comm, stream.stream(false)), error code "
     "is 11",
     "HCCL_FUNCTION_ERROR_RESULT", "EJ0003", "HCCL_PORT_IN_USE"),
    # p2#14: the error before 'Killed'
    ("Killed", "PROCESS_KILLED_SIGKILL", "kill_process_tree", "read it first"),
    # the CANN block can come after the wrapper line
    ("RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current "
     "working operator name is SelfAttentionOperation.", "TORCH_NPU_ASYNC_OPERATOR_INNER_ERROR",
     "can come before or after this line", "before or after it"),
    ("RuntimeError: aclrtMemcpy call failed, error code is 500003", "CANN_MODULE_FAILURE_CODE",
     "(before or after it", "before and after it"),
    # p2#74: below 7.0, float16 does not help
    ("ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla P40 GPU has "
     "compute capability 6.1. You can use float16 instead by explicitly setting the`dtype` flag in CLI, for example: "
     "--dtype=half.", "VLLM_BF16_NEEDS_COMPUTE_CAPABILITY_8", "bfloat16", "float16 does not help"),
    # p1#1: a library's own lookup
    ("TypeError: expected str, bytes or os.PathLike object, not NoneType", "PY_PATH_ARGUMENT_NOT_A_PATH",
     "vocab_file", "list that directory"),
])
def test_the_cause_and_fix_say_the_other_origin(kb, line, sig_id, in_cause, in_fix):
    got = _said(kb, line)
    assert sig_id in got, list(got)
    _, cause, fix = got[sig_id]
    assert in_cause in cause, cause
    assert in_fix in fix, fix


@pytest.mark.parametrize("line, sig_id", [
    # the launcher's own lines stay the launcher entry's
    ("[ERROR] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:38.720.000 "
     "[mindspore/parallel/cluster/process_entity/_api.py:331] Scheduler process 162146 exit with exception.",
     "LAUNCHER_WORKER_EXITED_WITH_ERROR"),
    ("ERROR 06-16 02:47:10 [multiproc_executor.py:870] WorkerProc failed to start.", "LAUNCHER_WORKER_EXITED_WITH_ERROR"),
    ("(EngineCore_DP0 pid=54) ERROR 12-30 06:28:17 [multiproc_executor.py:231] Worker proc VllmWorker-0 died "
     "unexpectedly, shutting down executor.", "LAUNCHER_WORKER_EXITED_WITH_ERROR"),
    # the driver library missing outside vLLM's warning stays the CUDA driver entry's
    ("OSError: libcuda.so.1: cannot open shared object file: No such file or directory", "CUDA_DRIVER_LIBRARY_NOT_FOUND"),
    ("ImportError: libnvidia-ml.so.1: cannot open shared object file: No such file or directory",
     "CUDA_DRIVER_LIBRARY_NOT_FOUND"),
    # the configuration class keeps its members
    ("ValueError: additional_config.dump_config_path must be a string, got 123.", "LLM_STACK_CONFIG_VALUE_REJECTED"),
    ("AssertionError: moe_router_group_topk (8) should be smaller than moe_router_num_groups (4).",
     "LLM_STACK_CONFIG_VALUE_REJECTED"),
])
def test_the_old_members_are_still_named(kb, line, sig_id):
    assert sig_id in _said(kb, line)


@pytest.mark.parametrize("line, sig_id", [
    ("(Worker_TP3 pid=3550) ERROR 09-26 15:11:03 [multiproc_executor.py:654] WorkerProc hit an exception.",
     "LAUNCHER_WORKER_EXITED_WITH_ERROR"),
    ("[2026-06-11 12:50:44] Scheduler hit an exception: Traceback (most recent call last):",
     "LAUNCHER_WORKER_EXITED_WITH_ERROR"),
    ("WARNING 10-10 10:22:58 _custom_ops.py:18] Failed to import from vllm._C with ImportError('libcuda.so.1: cannot "
     "open shared object file: No such file or directory')", "CUDA_DRIVER_LIBRARY_NOT_FOUND"),
    ("ValueError: 'rope_scaling' must be a dictionary with two fields, 'type' and 'factor', got {'factor': 8.0, "
     "'rope_type': 'llama3'}", "LLM_STACK_CONFIG_VALUE_REJECTED"),
])
def test_the_entry_that_said_a_false_thing_is_quiet(kb, line, sig_id):
    assert sig_id not in _said(kb, line)


def test_the_new_entry_is_quiet_on_ordinary_lines(kb):
    for line in ("(VllmWorker TP0 pid=838) INFO 09-04 09:50:12 [multiproc_executor.py:520] Parent process exited, "
                 "terminating worker",
                 "if grep -q \"Scheduler hit an exception\" \"$LOG_FILE\"; then echo FAIL; fi",
                 "[2026-04-22 09:32:20 TP2] Scheduler started, max_total_num_tokens=65536"):
        assert "PROCESS_LOGGED_ITS_OWN_EXCEPTION" not in _said(kb, line), line
    assert kb.signature("PROCESS_LOGGED_ITS_OWN_EXCEPTION").kind == "wrapper"
