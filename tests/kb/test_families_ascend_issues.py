"""data/kb/families_ascend_issues.json: the lines Ascend users paste most often in public issue threads (train side of
the page split) that no entry named specifically, each read from its printer's own source: the CANN runtime refusing a
synchronous copy or stream synchronisation during ACL graph capture, vLLM-Ascend's device list for a KV connector's
local ranks and its ACL graph capture sizes, Mooncake's Ascend direct transport timing out; and the members this round
added to other parts' entries (torch_npu's ascend_hal device count, MindSpore's 'Run task for graph', the runtime's
rts* calls), and vLLM refusing bfloat16 on a device without it (Atlas 910 / 310P, pre-Ampere GPUs). Each entry reads members its examples do not show, says the member in its title, stays quiet on ordinary
lines that share its words and on every clean excerpt of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_ascend_issues")
# members of other parts' entries this part's threads extend
EXTENDED = ["NPU_DEVICE_COUNT_UNAVAILABLE", "MS_RUN_TASK_ERROR_507011", "CANN_RUNTIME_CALL_FAILED",
            "MS_LAUNCH_KERNEL_FAILED", "AICORE_ERROR_DEVICE_REPORT"]
FAMILY = IDS + ["ACL_RETURN_CODE", "KV_CACHE_TRANSFER_FAILED", "VISIBLE_DEVICES_FEWER_THAN_LOCAL_WORLD",
                "CANN_RUNTIME_CALL_FAILED", "CANN_DRV_ERROR_CODE_REPORTED", "SOC_VERSION_NOT_SUPPORTED",
                "FRAMEWORK_SETTING_NOT_SUPPORTED", "CANN_BUILD_TARGET_CHIP_UNDETECTED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert set(IDS) == {"ACL_GRAPH_CAPTURE_SYNC_REJECTED", "VLLM_ASCEND_NO_NPU_FOR_LOCAL_RANK",
                        "VLLM_ASCEND_MAX_CAPTURE_SIZE_MISMATCH", "MOONCAKE_ASCEND_DIRECT_TIMEOUT",
                        "VLLM_BF16_NEEDS_COMPUTE_CAPABILITY_8", "VLLM_ASCEND_CHIP_NOT_RECOGNISED",
                        "TSD_DEVICE_PROCESS_NOT_STARTED", "TORCH_NPU_ALLOCATOR_RETRY_NOT_A_FAULT"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_ascend_issues.json" and not sig.ascend_fd and not sig.fallback
        # torch_npu's allocator retry is the part's one benign line: it says itself that it can be ignored
        benign = sid == "TORCH_NPU_ALLOCATOR_RETRY_NOT_A_FAULT"
        assert (sig.kind, sig.severity) == (("benign", "info") if benign else ("root", "fail")), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # the capture refusal: another runtime call, the newer rts* name, the stream synchronisation without its id
    ("EH9999: [PID: 1201] 2026-05-01-10:00:00.000.001 rtMemcpyAsync execution failed, reason=[the current capture "
     "mode does not support this operation][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:61]",
     "ACL_GRAPH_CAPTURE_SYNC_REJECTED", "(`rtMemcpyAsync`)"),
    ("        rtsMemcpy execution failed, reason=the current capture mode does not support this operation",
     "ACL_GRAPH_CAPTURE_SYNC_REJECTED", "(`rtsMemcpy`)"),
    ("EE9999: Not allow to synchronize captured-stream", "ACL_GRAPH_CAPTURE_SYNC_REJECTED",
     "captured into an ACL graph"),
    # vLLM-Ascend's device list: another rank and list, behind a worker's log prefix
    ("(Worker_DP1_TP2 pid=7001) ERROR 01-06 06:43:02 [multiproc_executor.py:546] ValueError: local_rank 2 is out of "
     "bounds for the available NPU devices: [6, 7]", "VLLM_ASCEND_NO_NPU_FOR_LOCAL_RANK",
     "(local rank `2`) among the devices it may use (`[6, 7]`)"),
    # the capture sizes: other values
    ("ValueError: customized max_cudagraph_capture_size(=64) should be consistent with the max value of "
     "cudagraph_capture_sizes(=48)", "VLLM_ASCEND_MAX_CAPTURE_SIZE_MISMATCH", "(`64`)"),
    # Mooncake: the transfer timeout in its first wording, another peer
    ("E20251201 08:00:00.000001 1200 ascend_direct_transport.cpp:733] Transfer timeout to: 192.168.1.20:31000, you can "
     "increase the timeout duration to reduce the failure rate by configuring the ASCEND_TRANSFER_TIMEOUT environment "
     "variable.", "MOONCAKE_ASCEND_DIRECT_TIMEOUT", "(Transfer) to `192.168.1.20:31000`"),
    # vLLM's bfloat16 check: another GPU, the older wording without the hint, behind a worker prefix
    ("(VllmWorkerProcess pid=2782) ValueError: Bfloat16 is only supported on GPUs with compute capability of at least "
     "8.0. Your Tesla V100-SXM2-32GB GPU has compute capability 7.0.", "VLLM_BF16_NEEDS_COMPUTE_CAPABILITY_8",
     "(`Tesla V100-SXM2-32GB`) (compute capability 7.0)"),
    # vLLM-Ascend's chip table: the runtime SoC number, a build-time name behind a worker prefix
    ("(Worker pid=4410) RuntimeError: Cannot support runtime soc_version: 104.", "VLLM_ASCEND_CHIP_NOT_RECOGNISED",
     "(soc_version `104`)"),
    ("(EngineCore_DP0 pid=96) RuntimeError: Undefined soc_version: ascend910b9. Please file an issue to vllm-ascend.",
     "VLLM_ASCEND_CHIP_NOT_RECOGNISED", "(soc_version `ascend910b9`)"),
    # the TSD daemon's answer: the HDC form, a response code with another reason
    ("        tsd client wait response fail, hostpid:88121, receive device response data failed, check hdc service."
     "[FUNC:WaitRsp][FILE:process_mode_manager.cpp][LINE:332]", "TSD_DEVICE_PROCESS_NOT_STARTED",
     ": receive device response data failed"),
    ("[ERROR] RUNTIME(5653,python):2024-10-26-09:51:54.833.515 tsd client wait response fail, hostpid:5653, device "
     "response code[1]. load aicpu ops package failed, device[0], host pid[5653]", "TSD_DEVICE_PROCESS_NOT_STARTED",
     ": load aicpu ops package failed (device response code 1)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "INFO 11-06 03:33:03 [model_runner_v1.py:3450] Starting to capture ACL graphs for cases: [512, 472, 440, 400], "
    "mode: PIECEWISE, uniform_decode: False",
    "Capturing ACL graphs (mixed prefill-decode, PIECEWISE):   0%|          | 0/15 [00:00<?, ?it/s]",
    "[rank0]:[W1106 03:33:04.001711036 compiler_depend.ts:187] Warning: Waiting for pending NCCL work to finish before "
    "starting graph capture. (function operator())",
    "[INFO] RUNTIME(2933,python):2026-01-19-10:12:31.619.399 threadCaptureMode=0, exchangeCaptureMode=0",
    "export ASCEND_RT_VISIBLE_DEVICES=0,1,2,3",
    "INFO 01-06 06:43:02 [utils.py:560] local_rank 3 uses NPU 3 of the available NPU devices: [0, 1, 2, 3]",
    "--compilation-config '{\"cudagraph_capture_sizes\": [16, 32, 64, 128], \"max_cudagraph_capture_size\": 128}'",
    "I20260608 14:45:44.404228 342420 ascend_direct_transport.cpp:1119] Connected to segment: 10.2.0.11:20033, "
    "cost:10016885 us.",
    "export ASCEND_CONNECT_TIMEOUT=10000",
    "export ASCEND_TRANSFER_TIMEOUT=20000",
    "[EVENT] TDT(946748,main):2025-05-19-15:59:07.755.479 [process_mode_manager.cpp:371][InitTsdClient][tid:947062] "
    "[TsdClient] deviceId[0] begin to init hdc client",
    "INFO 05-19 10:00:00 [config.py:1234] Downcasting torch.float32 to torch.bfloat16.",
    "# Bfloat16 is only supported on GPUs with compute capability >= 8.0 (Ampere+)",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS) == []


@pytest.mark.parametrize("line, sig_id, said", [
    # torch_npu's device count through the driver library, as vLLM-Ascend users pasted it
    ("/usr/local/python3.11.13/lib/python3.11/site-packages/torch_npu/npu/__init__.py:450: UserWarning: Can't get "
     "ascend_hal device count", "NPU_DEVICE_COUNT_UNAVAILABLE", "(ascend_hal)"),
    # MindSpore's graph executor: another graph
    ("RuntimeError: Run task for graph:kernel_graph_1 error! The details refer to 'Ascend Error Message'.",
     "MS_RUN_TASK_ERROR_507011", "run task error"),
    # the runtime's rts* calls
    ("        rtsPointerGetAttributes execution failed, reason=driver error:invalid value[FUNC:FuncErrorReason]"
     "[FILE:error_message_manage.cc][LINE:61]", "CANN_RUNTIME_CALL_FAILED", "(`rtsPointerGetAttributes`)"),
    ("        rtsStreamSynchronize execute failed, reason=[task timeout][FUNC:FuncErrorReason]",
     "CANN_RUNTIME_CALL_FAILED", "(`rtsStreamSynchronize`): task timeout"),
    # MindSpore's ACL kernel mods in PyNative
    ("[ERROR] KERNEL(2210,ffff8a7e1010,python):2024-07-15-14:51:11.215.113 [mindspore/ccsrc/plugin/device/ascend/kernel/"
     "acl/acl_kernel/acl_kernel_mod.cc:245] Launch] Kernel launch failed, msg: Acl compile and execute failed, "
     "op_type :MatMul", "MS_LAUNCH_KERNEL_FAILED", "MindSpore failed to launch an operator"),
    # the device's errorStr line after an AI Core / vector core dump says the hardware reason
    ("[PID: 36134] The extend info: errcode:(0x800, 0, 0) errorStr: The UB address accessed by the VEC instruction is "
     "out of range. fixp_error0 info: 0x0, fixp_error1 info: 0x0, fsmId:1, tslot:0, thread:0, ctxid:0, blk:7, sublk:0",
     "AICORE_ERROR_DEVICE_REPORT", ": The UB address accessed by the VEC instruction is out of range"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "[INFO] RUNTIME(1,python):2025-01-01-00:00:00.000.000 [runtime.cc:1] GetDeviceCount: device count is 8",
    "torch_npu.npu.device_count() = 8; ascend_hal device count 8",
    "[INFO] ME(1:1,MainProcess):2023-03-09-20:18:49.009.973 Run task for graph:kernel_graph_37 finished.",
    "[INFO] RUNTIME(1,python):2025-01-01-00:00:00.000.000 rtsPointerGetAttributes success",
    "[INFO] KERNEL(2210,ffff8a7e1010,python):2024-07-15-14:51:11.215.113 [acl_kernel_mod.cc:200] Launch] Kernel launch "
    "success",
    "The extend info: no error",
])

def test_the_extended_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in EXTENDED] == []


def test_the_allocator_retry_line_is_benign_and_the_oom_after_it_is_not(kb):
    retry = ("[ERROR] APP(1201,python):2026-03-17-10:00:00.000.001 [NPUCachingAllocator.cpp:1278] Get a block from the "
             "existing pool failed. Try to free cached blocks and reallocate. This error log can be ignored.")
    assert [s.id for s in kb.explaining(retry)] == ["TORCH_NPU_ALLOCATOR_RETRY_NOT_A_FAULT"]
    oom = ("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.10 GiB "
           "already allocated; 58.10 GiB current active; 120.00 MiB free; 59.20 GiB reserved in total by PyTorch)")
    assert "TORCH_NPU_ALLOCATOR_RETRY_NOT_A_FAULT" not in [s.id for s in kb.explaining(oom)]
