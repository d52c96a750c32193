"""data/kb/families_frameworks.json: fault families of the framework and runtime side (issue 21), each written from
the frameworks' and vendors' own message strings. Each entry reads members of its family that its examples do not
show (another operator, code, call, node or framework), says the member in its title, stays quiet on the ordinary
lines that share its words and on every clean excerpt of the corpus, and gives way to an entry with a cause of its own
on the same line."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, part_ids

IDS = part_ids("families_frameworks")


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_fallback_roots_without_peer_ids(kb):
    assert len(IDS) >= 8
    for sid in IDS:
        sig = kb.signature(sid)
        assert sig is not None and os.path.basename(sig.origin) == "families_frameworks.json"
        assert sig.fallback and sig.kind == "root" and not sig.ascend_fd, sid


@pytest.mark.parametrize("line, sig_id, said", [
    # onnxruntime's CANN EP, another call and code; OpenCV's ACL check; Paddle's NPU plugin with an HCCL code
    ("2024-01-01 00:00:00.000 [E:onnxruntime:Default, cann_call.cc:139 CannCall] CANN failure 507899: "
     "ACL_ERROR_RT_INTERNAL_ERROR ; NPU=1 ; hostname=h ; expr=aclrtMemcpy(dst, size, src, size, kind);",
     "FRAMEWORK_CANN_CALL_FAILED", "The NPU backend of onnxruntime failed in a CANN call (`aclrtMemcpy`): code 507899"),
    ("[ERROR:0@1.000] global net_cann.cpp:120 initAcl CANN check failed, ret = 107001", "FRAMEWORK_CANN_CALL_FAILED",
     "code 107001"),
    ("RuntimeError: (External)  HCCL error, the error code is : 9.  (at /paddle/backends/npu/runtime/runtime.cc:1)",
     "FRAMEWORK_CANN_CALL_FAILED", "The NPU backend of paddle failed in a CANN call: HcclResult 9"),
    # MindSpore's infer checks of other operators
    ("ValueError: For 'Concat', the shape of all elements of 'input_x' should be the same except the concat axis, "
     "but got [2, 3] and [2, 4].", "MS_OP_ARGUMENT_CHECK_FAILED", "`Concat`"),
    ("TypeError: For 'Add', the type of 'x' should be Tensor, but got int.", "MS_OP_ARGUMENT_CHECK_FAILED",
     "rejected its inputs: the type of 'x' should be Tensor"),
    # TBE's parameter checks of other operators and codes
    ("RuntimeError: ({'errCode': 'E80014', 'op_name': 'avg_pool_grad_d', 'param_name': 'input_grad', "
     "'format': 'ND'}, 'In op[avg_pool_grad_d], the parameter[input_grad]'s format should be one of [NCHW, NHWC]')",
     "TBE_OP_PARAM_CHECK_FAILED", "(E80014) (`avg_pool_grad_d`)"),
    # GE shape inference of another node
    ("E19999: Inner Error! Call InferShapeAndType for node:Conv2D_3(Conv2D) failed[FUNC:Infer][FILE:infershape_pass.cc]",
     "GE_OP_INFERSHAPE_FAILED", "(`Conv2D`) (node Conv2D_3)"),
    ("E89999: [PID: 1] 2025-01-01-00:00:00.000.000 op[Concat_2], input shapes are not compatible[FUNC:"
     "ConcatInferShape][FILE:split_combination_ops.cc][LINE:1]", "GE_OP_INFERSHAPE_FAILED",
     "(node Concat_2): input shapes are not compatible"),
    # stream synchronisation in torch_npu's event form and an ACL application
    ("RuntimeError: synchronize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:1 NPU function error: "
     "c10_npu::acl::AclrtSynchronizeEvent(event_), error code is 507035", "STREAM_SYNC_FAILED",
     "(`AclrtSynchronizeEvent`): code 507035"),
    ("[ERROR]  aclrtSynchronizeStreamWithTimeout failed, errorCode = 107020", "STREAM_SYNC_FAILED",
     "(`aclrtSynchronizeStreamWithTimeout`)"),
    # Paddle's kernel key on the NPU plugin
    ("RuntimeError: (NotFound) The kernel with key (npu, Undefined(AnyLayout), int64) of kernel `argsort` is not "
     "registered.", "PADDLE_KERNEL_NOT_REGISTERED", "`argsort` registered for this device and data type (key npu, "),
    # MindSpore's launch of another operator
    ("RuntimeError: Launch kernel failed, name:Default/network-TrainOneStepCell/FlashAttentionScore-op42",
     "MS_LAUNCH_KERNEL_FAILED", "(`FlashAttentionScore`)"),
    # the CPU collective kernel's own launch line (round 18), of another collective
    ("[ERROR] KERNEL(7,7f00,python):2026-12-06-11:00:00.000.000 [mindspore/ops/kernel/cpu/native/"
     "broadcast_cpu_kernel.cc:70] Launch] BroadcastCPUKernelMod launch failed.", "MS_CPU_KERNEL_LAUNCH_FAILED",
     "CPU kernel `Broadcast` failed to run"),
    # GE's load of another graph
    ("[ERROR] GE(1,python):2025-01-01-00:00:00.000.000 [ge_api.cc:1] Load graph failed, error code:1343225860, "
     "session_id:0, graph_id:3.", "GE_GRAPH_LOAD_FAILED", "(graph 3): code 1343225860"),
    # MindSpore's HCCL adapter, another stage
    ("[EXCEPTION] HCCL_ADPT(9,ffff,python):2025-01-01-00:00:00.000.000 [hccl_adapter.cc:1] InitKernelInfoStore] Init "
     "info store failed.", "MS_HCCL_COMM_INIT_FAILED", "(Init info store failed)"),
    # GE's engine placement of another operator, and one store's reason (EZ3002's message without its code)
    ("        Failed to select engine for [Cast_12][Cast].[FUNC:operator()][FILE:engine_place.cc][LINE:150]",
     "GE_OP_ENGINE_SELECT_FAILED", "`Cast` (node Cast_12)"),
    ("        Optype [BatchMatMulV2] of Ops kernel [AIcoreEngine] is unsupported. Reason: bf16 is not supported.",
     "GE_OP_ENGINE_SELECT_FAILED", "by operator store AIcoreEngine (EZ3002 Unsupported_Operator, engine selection): bf16 is not supported."),
    # a training loop's NaN checks: MindSpore's LossMonitor in another model, MindFormers' global norm
    ("ValueError: epoch: 3 step: 1875. Invalid loss, terminating training.", "TRAIN_NAN_DETECTED_STOPPED",
     "(Invalid loss)"),
    ("- INFO - { Epoch:[  2/  5], step:[  300/ 2000], loss: 7.1, global_norm: [inf], lr: 1e-05",
     "TRAIN_NAN_DETECTED_STOPPED", "(global_norm inf)"),
    # MindSpore's device address check with another pair of devices
    ("RuntimeError: The device address type is wrong: type name in address:GPU, type name in context:CPU",
     "MS_DEVICE_ADDRESS_TYPE_MISMATCH", "MindSpore's CPU context was given a tensor whose memory belongs to GPU"),
    # ATB's rank check
    ("[2025-01-01 00:00:00.000000] [error] [7] [operation_util.h:160] rank [4] should be >=0 and smaller than "
     "rankSize [4]", "ATB_COMM_PARAM_INVALID", ": rank 4 is outside 0 to rankSize-1 (rankSize 4)"),
    # a collective the process group leaves out: torch_npu's own form with another op, PyTorch's base-class form
    ("[rank3]: RuntimeError: ProcessGroupHCCL does not support scatter", "DIST_BACKEND_OP_NOT_SUPPORTED",
     "`ProcessGroupHCCL` does not support scatter"),
    ("RuntimeError: Backend hccl does not support reduce_scatter_tensor_coalesced", "DIST_BACKEND_OP_NOT_SUPPORTED",
     "`hccl` does not support reduce_scatter_tensor_coalesced"),
    # torch_npu's format cast refused, the bool form
    ("RuntimeError: can not cast format to un-base format when output has bool dtype", "TORCH_NPU_FORMAT_CAST_REFUSED",
     "(`can not cast format to un-base format when output has bool dtype`)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    sig = kb.signature(sig_id)
    assert sig.search(line), sig_id
    title = sig.text("en", line=line)[0]
    assert said in title, title
    assert said not in sig.text("en")[0]


@pytest.mark.parametrize("line", [
    "2024-05-09 07:05:27 [I:onnxruntime:Default, cann_execution_provider.cc:1200 GetCapability] CANN EP: all nodes placed",
    "        CV_LOG_ERROR(NULL, \"CANN check failed, ret = \" << f); \\",
    "I0101 00:00:00.000000 1 init.cc:243] CustomDevice: npu, visible devices count: 8",
    "[WARNING] ME(1:1,MainProcess):2024-01-01-00:00:00.000.000 [primitive.py:1] For 'Cast', the type of 'x' is float64, "
    "cast to float32.",
    "    MS_EXCEPTION(ValueError) << \"For '\" << prim_name << \"', the input num should be equal to 9, but got \"",
    "Examples: For 'MatMul', the inputs are 2-D tensors.",
    "        error_info = {'errCode': 'E80000', 'op_name': 'yolo_boxes_encode'}",
    "[INFO] GE(1,python):2025-01-01-00:00:00.000.000 [infershape_pass.cc:1] Call InferShapeAndType for node:Add(Add) success",
    "[INFO] DEVICE(1,ffff,python):2025-01-01-00:00:00.000.000 [ascend_stream_manager.cc:1] SyncStream] Sync stream success.",
    "    torch.npu.synchronize()",
    "[INFO]  Synchronize stream success",
    "I0909 10:57:00.394555 137882 custom_kernel.cc:63] Successed in loading 325 custom kernel(s) from loaded lib(s)",
    "[INFO] KERNEL(1,ffff,python):2025-01-01-00:00:00.000.000 [kernel_actor.cc:1] Launch kernel success, name:Default/Add-op1",
    "[INFO] GE(1,python):2025-01-01-00:00:00.000.000 [ge_api.cc:1] Load graph success, session_id:0, graph_id:3.",
    "[2025-01-01 00:00:00.000000] [info] [7] [hccl_runner.cpp:1] rankSize [8], rank [0], rankRoot [0]",
    "[INFO] GE(1,python):2025-01-01-00:00:00.000.000 [engine_place.cc:1] Select engine for [Cast_12][Cast] success",
    "- INFO - { Epoch:[  2/  5], step:[  300/ 2000], loss: 7.1, global_norm: [0.85], lr: 1e-05",
    "Gradient overflow. Skipping step, loss scaler 0 reducing loss scale to 16384.0",
    "[INFO] DEVICE(1,ffff,python):2025-01-01-00:00:00.000.000 [ascend_collective_comm_lib.cc:1] Ascend collective "
    "communication initialization success.",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


@pytest.mark.parametrize("line, specific, family", [
    # a documented code of its own wins over the stream family and the framework family on the same line
    ("RuntimeError: For 'GetNext', get data timeout. Queue name: e008c6e6", "MS_GETNEXT_GET_DATA_TIMEOUT",
     "MS_OP_ARGUMENT_CHECK_FAILED"),
])
def test_a_specific_entry_wins_over_its_family_on_the_same_line(tmp_path, kb, line, specific, family):
    from ascend_doctor.triage.scan import triage_paths

    log = tmp_path / "x.log"
    log.write_text(line + "\n", encoding="utf-8")
    ids = [p["id"] for p in triage_paths([str(log)], kb).to_json()["problems"]]
    assert specific in ids and family not in ids


@pytest.mark.parametrize("line, family, wrapper", [
    ("RuntimeError: Sync stream error!", "STREAM_SYNC_FAILED", "MS_SYNC_STREAM_FAILED"),
    ("error msg: davinci_model : load task fail, return ret: 1343225860", "GE_GRAPH_LOAD_FAILED",
     "HCCL_DISTRIBUTE_TASK_FAILED_1343225860"),
])
def test_a_family_is_reported_instead_of_a_wrapper_on_the_same_line(tmp_path, kb, line, family, wrapper):
    from ascend_doctor.triage.scan import triage_paths

    assert {family, wrapper} <= {s.id for s in kb.match_line(line)}
    log = tmp_path / "x.log"
    log.write_text(line + "\n", encoding="utf-8")
    ids = [p["id"] for p in triage_paths([str(log)], kb).to_json()["problems"]]
    assert family in ids and wrapper not in ids
