"""data/kb/families_pytorch_docs.json: the error cases the docs of the PyTorch training stacks on Ascend describe
(torch_npu's troubleshooting cases, TorchAir's FAQ and graph-failure cases, MindSpeed's and MindSpeed-LLM's FAQs,
accelerate's troubleshooting guide, verl's and ms-swift's FAQs), each written for its fault in the wordings of the
projects' own messages. Each entry reads members its examples do not show, says what the line says (the .proto file,
the sizes, the collective, the alias, the address and reason, the path), stays quiet on ordinary lines and on every clean
excerpt, and gives way where a specific entry knows the line."""

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_pytorch_docs")


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert set(IDS) == {"PROTOBUF_DESCRIPTOR_REGISTERED_TWICE", "TORCH_TENSORS_JOINED_UNEQUAL_SIZE",
                        "TORCH_NPU_CPU_FALLBACK_COPY_FAILED", "ACCELERATE_DEBUG_COLLECTIVE_REFUSED",
                        "NUMPY_REMOVED_ALIAS_USED", "TENSORDICT_MEMBERSHIP_CHECK_REFUSED",
                        "TORCH_DIST_STORE_LISTEN_FAILED", "GE_USER_OUTPUT_BUFFER_TOO_SMALL",
                        "TRAINING_INPUT_PATH_NOT_FOUND", "SWIFT_DATASET_SAMPLES_EXCEED_MAX_LENGTH",
                        "INDUCTOR_NPU_EXT_KERNEL_FAILED", "PY_TYPE_ANNOTATION_NEEDS_NEWER_PYTHON",
                        "CUDA_KERNEL_FAULT_REPORTED", "CUDA_NO_KERNEL_IMAGE_FOR_GPU", "TORCH_NO_ACCELERATOR_AVAILABLE",
                        "RAY_WORKER_REGISTER_FAILED", "TORCH_NPU_CPU_FALLBACK_DISABLED", "GLOO_CONNECT_FULL_MESH_FAILED",
                        "NPU_GRAPH_CAPTURE_CALLS_OUT_OF_ORDER",
                        "TORCH_NPU_WITH_OTHER_ACCELERATOR_TORCH", "NPU_FUSION_ATTENTION_ARGUMENT_REJECTED",
                        "TRAINING_FEATURES_NOT_COMBINABLE", "PIPELINE_LAYER_LIST_MISMATCH",
                        "NUMPY_OLDER_THAN_MODULE_BUILT_FOR", "COLLECTIVE_DESYNC_REPORT_LAGGING_RANKS"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert sig.origin.endswith("families_pytorch_docs.json") and sig.kind == "root" and not sig.ascend_fd
    # the general readings are classes: an entry with a cause of its own on the line is named instead
    for sid in ("TORCH_TENSORS_JOINED_UNEQUAL_SIZE", "TORCH_DIST_STORE_LISTEN_FAILED", "TRAINING_INPUT_PATH_NOT_FOUND",
                "TRAINING_FEATURES_NOT_COMBINABLE"):
        assert kb.signature(sid).fallback, sid


def test_each_example_is_one_problem_of_its_entry(kb):
    for sid in IDS:
        for line in kb.signature(sid).examples:
            assert sid in [s.id for s in kb.explaining(line)], (sid, line)
    assert family_overlaps(kb, IDS) == []


@pytest.mark.parametrize("line, sig_id, said", [
    # protobuf: the Python runtime's form without parentheses, another .proto file of the C++ form
    ("TypeError: Couldn't build proto file into descriptor pool: duplicate file name caffe/proto/caffe.proto",
     "PROTOBUF_DESCRIPTOR_REGISTERED_TWICE", "register `caffe/proto/caffe.proto` a second time"),
    ("[libprotobuf ERROR google/protobuf/descriptor_database.cc:641] File already exists in database: ge_ir.proto",
     "PROTOBUF_DESCRIPTOR_REGISTERED_TWICE", "`ge_ir.proto`"),
    # the joined sizes: stack of 2-D samples, cat's older form
    ("[rank3]: RuntimeError: stack expects each tensor to be equal size, but got [3, 224, 224] at entry 0 and "
     "[3, 256, 256] at entry 5", "TORCH_TENSORS_JOINED_UNEQUAL_SIZE", "(`stack`: 3, 224, 224 and 3, 256, 256)"),
    ("RuntimeError: Sizes of tensors must match except in dimension 0. Got 3 and 4 in dimension 1",
     "TORCH_TENSORS_JOINED_UNEQUAL_SIZE", "Tensors of different sizes were stacked or concatenated"),
    # torch_npu's copy-back check in its third wording
    ("RuntimeError: _copy_from_and_resize size mismatch after resize: self=[2, 3] dst=[3, 3]",
     "TORCH_NPU_CPU_FALLBACK_COPY_FAILED", "CPU fallback: `_copy_from_and_resize` size mismatch after resize"),
    # accelerate's device form names the collective
    ("accelerate.utils.operations.DistributedOperationException: One or more of the tensors passed to "
     "accelerate.utils.operations.reduce were not on the npu while the `Accelerator` is configured for cpu.",
     "ACCELERATE_DEBUG_COLLECTIVE_REFUSED", "(`accelerate.utils.operations.reduce`)"),
    # another removed alias
    ("[rank0]: AttributeError: module 'numpy' has no attribute 'int'.", "NUMPY_REMOVED_ALIAS_USED",
     "`numpy.int`, an alias NumPy 1.24 removed"),
    # the store's bind reason said in the title; the per-address form
    ("RuntimeError: The server socket has failed to listen on any local network address. The server socket has failed "
     "to bind to [::]:29400 (errno: 13 - Permission denied).", "TORCH_DIST_STORE_LISTEN_FAILED",
     "listen on `[::]:29400` (Permission denied)"),
    # GE's sizes from its check line
    ("Check output size failed, index 1, user size 4096, op size 8224.[FUNC:ConstructZeroCopyIoActiveBaseAddrs]",
     "GE_USER_OUTPUT_BUFFER_TOO_SMALL", "(E19025: user size 4096, op size 8224)"),
    # the frameworks' path checks, with what and where
    ("FileNotFoundError: Teacher checkpoint path not found: /ckpt/teacher", "TRAINING_INPUT_PATH_NOT_FOUND",
     "(Teacher checkpoint path): `/ckpt/teacher`"),
    ("ValueError: Path does not exist: /data/alpaca.", "TRAINING_INPUT_PATH_NOT_FOUND", "(Path): `/data/alpaca`"),  # (the sentence's period is not the path's)
    ("AssertionError: ./model_from_hf/llama2 not exists!", "TRAINING_INPUT_PATH_NOT_FOUND",
     "does not exist: `./model_from_hf/llama2`"),
    # inductor-npu-ext: the wrapper's build names its command; the execution hints name the kernel and the step
    ("RuntimeError: Failed to build wrapper, trigger bug by following command: 'g++ -shared -std=c++17 -fPIC -o "
     "/tmp/k/wrapper.so /tmp/k/inductor_wrapper.cpp'", "INDUCTOR_NPU_EXT_KERNEL_FAILED",
     "Failed to build wrapper; re-run `g++ -shared -std=c++17 -fPIC -o /tmp/k/wrapper.so"),
    ("autofused_mul_add_9f2c kernel malloc workspace failed", "INDUCTOR_NPU_EXT_KERNEL_FAILED",
     "(`autofused_mul_add_9f2c`): malloc workspace failed"),
    # PEP 604 unions of typing's generics on 3.9
    ("TypeError: unsupported operand type(s) for |: 'types.GenericAlias' and 'NoneType'",
     "PY_TYPE_ANNOTATION_NEEDS_NEWER_PYTHON", "`X | None` needs 3.10"),
    # the other CUDA faults
    ("torch.AcceleratorError: CUDA error: misaligned address", "CUDA_KERNEL_FAULT_REPORTED", "CUDA error: misaligned address"),
    ("[rank2]: RuntimeError: CUDA error: unspecified launch failure", "CUDA_KERNEL_FAULT_REPORTED",
     "unspecified launch failure"),
    # Ray's reason after the phrase
    ("core_worker.cc:514: Failed to register worker to Raylet: IOError: [RayletClient] Unable to register worker with "
     "raylet. Failed to read data from the socket: End of file worker_id=01000000ffff", "RAY_WORKER_REGISTER_FAILED",
     "(Unable to register worker with raylet: Failed to read data from the socket: End of file worker_id=01000000ffff)"),
    # the dispatcher's form of the refused fallback names the operator
    ("RuntimeError: The operator 'aten::nonzero' would execute its main computation on CPU through dispatcher backend "
     "fallback, but CPU fallback is disabled by TORCH_NPU_FALLBACK_CPU_DISABLE=1.", "TORCH_NPU_CPU_FALLBACK_DISABLED",
     "The operator `aten::nonzero` has no NPU implementation here"),
    # Gloo's reason, another pickled object
    ("[rank7]: RuntimeError: Gloo connectFullMesh failed with [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:446] "
     "Connection reset by peer", "GLOO_CONNECT_FULL_MESH_FAILED", "Connection reset by peer"),
    # one entry for an object pickle refuses, written by two branches (families_mindspore_docs.json keeps it)
    ("AttributeError: Can't pickle local object 'build_collator.<locals>.collate'", "PY_OBJECT_NOT_PICKLABLE",
     "(local object 'build_collator.<locals>.collate')"),
    # NPUGraph's other order checks; torch_npu's accelerator check with another accelerator
    ("RuntimeError: The current NPU stream is not currently capturing.", "NPU_GRAPH_CAPTURE_CALLS_OUT_OF_ORDER",
     "out of order: The current NPU stream is not currently capturing"),
    ("RuntimeError: This NPUGraph instance already owns a captured graph. To capture a new graph, create a new instance.",
     "NPU_GRAPH_CAPTURE_CALLS_OUT_OF_ORDER", "already owns a captured graph"),
    ("RuntimeError: Two accelerators cannot be used at the same time in PyTorch: npu and xpu. You can install the cpu "
     "version of PyTorch to use your npu device", "TORCH_NPU_WITH_OTHER_ACCELERATOR_TORCH", "another accelerator (xpu)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line, specific", [
    # the port-in-use entry has the cause; the store's class gives way to it
    ("RuntimeError: The server socket has failed to listen on any local network address. The server socket has failed "
     "to bind to [::]:29500 (errno: 98 - Address already in use).", "PT_MASTER_PORT_IN_USE"),
    # a missing file with its errno text is the file entry's
    ("FileNotFoundError: [Errno 2] No such file or directory: '/data/ckpt/latest_checkpointed_iteration.txt'",
     "FW_FILE_NOT_FOUND"),
])
def test_the_classes_give_way_to_a_specific_entry(kb, line, specific):
    got = [s.id for s in kb.explaining(line)]
    assert specific in got and not set(got) & set(IDS), got


@pytest.mark.parametrize("line", [
    "[I socket.cpp:787] [c10d] The server socket is listening on [::]:29500.",
    "[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).",
    "[INFO] tokenized_path not exists, it will save the tokenized datasets",
    "[WARNING] Checkpoint path not found, training from scratch",
    "Using ~/.cache/torch_extensions/py38_cpu as PyTorch extensions root...",
    "Operation: `accelerate.utils.operations.broadcast`",
    "  - Process 1: [1, 2, 5]",
    # (the AttributeError's second line, "`np.object` was a deprecated alias ...", is read since round 22: a log cut
    # after the first line still names the alias; families_libs_r22.json)
    "AttributeError: module 'numpy' has no attribute 'float8_e4m3fn'",
    "[libprotobuf INFO] loaded descriptor ge_ir.proto",
    "[W compiler_depend.ts:51] Warning: CAUTION: The operator 'aten::linalg_lstsq.out' is not currently supported on the "
    "NPU backend and will fall back to run on the CPU. This may have performance implications.",
    "[DEBUG] TORCHAIR(2250956,python):2025-02-06 15:44:44    input 0: <class 'torch.Tensor'>(torch.Size([896, 1152]), "
    "torch.int8, contiguous=False)",
    "iteration 427/ 5000 | consumed samples: 6832 | lm loss: 8.567080E+00 | grad norm: 35.518 | number of nan "
    "iterations: 0",
    "[INFO] max_length=8192, samples longer than max_length are dropped",
    "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
    "incorrect.",
    "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
    "[INFO] autofused_add_sum_31aba041 kernel launch done",
    "TypeError: 'NoneType' object is not subscriptable",
    "(raylet) worker_pool.cc:489: Started worker process with pid 123567, the token is 126",
    "[W compiler_depend.ts:51] Warning: CPU fallback is allowed because TORCH_NPU_FALLBACK_CPU_DISABLE=0. Since the NPU "
    "interface does not support operator 'aten::_sparse_csr_sum.dim_dtype', the operator will fall back to CPU.",
    "[INFO] Gloo connectFullMesh done in 1.2 s",
    "dataloader_num_workers: 0  # avoids Can't pickle local object on spawn",
    "[INFO] mc2 is not compatible with moe models, disabling mc2",
    "RuntimeError: torch_npu 2.1.0 is not compatible with torch version 2.3.0",
    "--num-layer-list 7,9,9,7 must sum to num_layers",
    # NumPy's ABI form (a module built for NumPy 1.x under NumPy 2) is not an older NumPy
    "RuntimeError: module compiled against ABI version 0x1000009 but this version of numpy is 0x2000000",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


@pytest.mark.parametrize("line, sig_id", [
    # the members that joined older family entries from these docs: PyTorch's isin dtype check (torch_npu's guide),
    # Megatron's CUDA-extension check (ms-swift's FAQ), accelerate's fp16 check as older versions print it
    ("RuntimeError: Unsupported input type encountered for isin(): BFloat16", "OP_DTYPE_NOT_SUPPORTED"),
    ("RuntimeError: RowParallelLinear was called with gradient_accumulation_fusion set to True but the custom CUDA "
     "extension fused_weight_gradient_mlp_cuda module is not found.", "LIBRARY_GPU_CHECK_FAILED"),
    ("ValueError: fp16 mixed precision requires a GPU", "LIBRARY_GPU_CHECK_FAILED"),
    # DeepSpeed's NPU op builder for an op without an NPU version, ms-swift's vLLM-Ascend check
    ("ValueError: This op had not been implemented on NPU backend.", "FEATURE_NOT_SUPPORTED_ON_NPU"),
    ("ValueError: vLLM-Ascend does not support LoRA on fused routed experts, but the training model targets experts",
     "FEATURE_NOT_SUPPORTED_ON_NPU"),
    # torch_npu's own form of a failed acl call (NPU_CHECK_ERROR) for a call without the rt prefix and its SetDevice
    ("RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:225 NPU function error: aclInit, error "
     "code is 500001", "CANN_RUNTIME_CALL_FAILED"),
    ("RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:147 NPU function error: "
     "c10_npu::SetDevice(device_id_), error code is 107001", "CANN_RUNTIME_CALL_FAILED"),
])
def test_documented_members_of_older_families_are_read_by_them(kb, line, sig_id):
    assert [s.id for s in kb.explaining(line)] == [sig_id]
