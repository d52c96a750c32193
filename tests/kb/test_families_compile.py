"""data/kb/families_compile.json and the family members it joins elsewhere (TRITON_ASCEND_KERNEL_COMPILE_FAILED and
ASCEND_KERNEL_SOURCE_COMPILE_ERROR in field_cases.json): faults at compile time of kernels and graphs, written from the
compilers' and libraries' own message strings (triton-ascend, Triton, TileLang-Ascend, bisheng/ccec, CANN's fusion
engine and TBE workers, TorchAir). Each entry reads members its examples do not show (another chip, operator, stage,
compiler, node), says the member in its title, stays quiet on the ordinary lines that share its words and on every
clean excerpt, and gives way to an entry with a cause of its own on the same line. A traceback frame is evidence, not
an error line: the entries that read one warn and never FAIL."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, part_ids

IDS = part_ids("families_compile")
# the members of the same families kept in field_cases.json
JOINED = ["TRITON_ASCEND_KERNEL_COMPILE_FAILED", "ASCEND_KERNEL_SOURCE_COMPILE_ERROR"]
# entries that read a traceback frame, not an error line
FRAME_READERS = {"KERNEL_COMPILE_STEP_RAISED", "TBE_COMPILE_WORKER_TASK_LOOP_RAISED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert set(IDS) >= {"TRITON_ASCEND_UB_OVERFLOW", "TRITON_ASCEND_GRID_COREDIM_LIMIT", "TRITON_KERNEL_SOURCE_REJECTED",
                        "NPU_KERNEL_COMPILER_COMMAND_FAILED", "ASCENDC_AICORE_CODE_NOT_ALLOWED",
                        "FE_GRAPH_OP_COMPILE_FAILED", "TORCHAIR_GE_CONVERTER_UNAVAILABLE",
                        "NPU_GRAPH_CAPTURE_CALL_NOT_CAPTURABLE", "ACL_SINGLE_OP_MODEL_BUILD_FAILED",
                        "ASCENDC_CUSTOM_OP_OPBUILD_FAILED", "ACL_OP_COMPILER_INIT_FAILED",
                        "TORCH_CPP_EXTENSION_BUILD_FAILED", "TORCH_OPS_OPERATOR_NOT_REGISTERED",
                        "TILELANG_TVM_COMPILER_ERROR", "ACL_GRAPH_CAPTURE_STREAM_UNAVAILABLE"} | FRAME_READERS
    for sid in IDS:
        sig = kb.signature(sid)
        assert sig is not None and os.path.basename(sig.origin) == "families_compile.json"
        assert sig.kind == "root" and not sig.ascend_fd, sid
    for sid in FRAME_READERS:
        assert kb.signature(sid).severity == "warn", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # UB overflow on another chip's budget, and the retry note without a rank prefix
    ("loc(\"/tmp/tmp9/kernel.ttadapter.mlir\":7:5): error: ub overflow, requires 4333568 bits while 2031616 bits "
     "available! (possible reason", "TRITON_ASCEND_UB_OVERFLOW", "requires 4333568 bits, 2031616 available"),
    # the grid limit with another size
    ("E   RuntimeError: coreDim=70000 can't be greater than UINT16_MAX", "TRITON_ASCEND_GRID_COREDIM_LIMIT",
     "coreDim 70000 greater than UINT16_MAX"),
    # Triton's front end: another exception class and position
    ("triton.compiler.errors.UnsupportedLanguageConstruct: at 41:16:", "TRITON_KERNEL_SOURCE_REJECTED",
     "(`UnsupportedLanguageConstruct` at line:column 41:16)"),
    # the compiler subprocess: triton-adapter-opt, and TileLang's bisheng with the other arch option
    ("subprocess.CalledProcessError: Command '['/opt/triton/backends/ascend/triton-adapter-opt', "
     "'/tmp/x/kernel.ttir.mlir']' returned non-zero exit status 134.", "NPU_KERNEL_COMPILER_COMMAND_FAILED",
     "The NPU kernel compiler `triton-adapter-opt` failed: exit status 134"),
    ("RuntimeError: Compilation Failed! ['bisheng', '--npu-arch=dav-2201', '-O2', '-std=c++17', '-xasc', 'k.cpp']",
     "NPU_KERNEL_COMPILER_COMMAND_FAILED", "`bisheng` failed (target dav-2201)"),
    # a compile step's frame: the 910_95 stage, Triton's compile with a log prefix
    ("  File \"/usr/lib/python3.11/site-packages/triton/backends/ascend/compiler.py\", line 549, in "
     "linalg_to_bin_enable_npu_compile_910_95", "KERNEL_COMPILE_STEP_RAISED",
     "(`triton/backends/ascend/compiler.py` in `linalg_to_bin_enable_npu_compile_910_95`)"),
    ("(Worker pid=9)   File \"/env/lib/python3.10/site-packages/triton/compiler/compiler.py\", line 273, in compile",
     "KERNEL_COMPILE_STEP_RAISED", "in `compile`"),
    # an AI Core restriction of another construct
    ("/tmp/tmpk.cpp:88:21: error: cast between floating and unsigned integer variable is not allowed in aicore "
     "function", "ASCENDC_AICORE_CODE_NOT_ALLOWED", ": cast between floating and unsigned integer variable"),
    # FE: another op and node, another stage form
    ("        [SubGraphOpt][Compile][ProcFailedCompTask] Thread[1] recompile single op[MatMulV2_7] failed"
     "[FUNC:ProcessAllFailedCompileTasks][FILE:tbe_op_store_adapter.cc][LINE:1]", "FE_GRAPH_OP_COMPILE_FAILED",
     "([SubGraphOpt][Compile]) (op `MatMulV2_7`)"),
    ("        [SubGraphOpt][PreComp]Failed to pre-compile node Conv2D_3. thread id is [1], task is [2].",
     "FE_GRAPH_OP_COMPILE_FAILED", "([SubGraphOpt][PreComp]) (node `Conv2D_3`)"),
    # TorchAir: another operator's converter, an args mismatch, a dtype
    ("NotImplementedError: torch.ops.aten._adaptive_avg_pool3d.out ge_converter is not implemented!",
     "TORCHAIR_GE_CONVERTER_UNAVAILABLE", "`torch.ops.aten._adaptive_avg_pool3d.out` of the graph to the Graph "
     "Engine (GE): its ge_converter is not implemented"),
    ("RuntimeError: Failed to convert torch args to AscendIR args: The AscendIR MoeGatingTopK expected 5 args but got "
     "4", "TORCHAIR_GE_CONVERTER_UNAVAILABLE", ": The AscendIR MoeGatingTopK expected 5 args but got 4"),
    ("RuntimeError: Unsupported torch dtype value 11 by ge", "TORCHAIR_GE_CONVERTER_UNAVAILABLE",
     "torch dtype 11 has no GE type"),
    # the TBE worker loop on another CANN path
    ("  File \"/home/u/Ascend/cann-8.2/python/site-packages/tbe/common/repository_manager/route.py\", line 301, in "
     "task_distribute", "TBE_COMPILE_WORKER_TASK_LOOP_RAISED", "(`task_distribute` of tbe/common/repository_manager)"),
    # the Triton-Ascend pipeline family: another stage, op and autotune exception
    ("E [ConvertTritonIRToLinalgIR] encounters error:", "TRITON_ASCEND_KERNEL_COMPILE_FAILED",
     ": stage ConvertTritonIRToLinalgIR failed"),
    ("error: 'hfusion.cast' op expects element type bf16 to be supported on this target",
     "TRITON_ASCEND_KERNEL_COMPILE_FAILED", ": MLIR operation `hfusion.cast` expects element type bf16"),
    ("RuntimeError: No valid triton configs. OutOfResources: out of resource: ub", "TRITON_ASCEND_KERNEL_COMPILE_FAILED",
     "no autotune configuration compiled (OutOfResources)"),
    ("[ERROR] Failed to run BiShengHIR pipeline", "TRITON_ASCEND_KERNEL_COMPILE_FAILED",
     ": Failed to run BiShengHIR pipeline"),
    ("loc(\"/tmp/tmpq1/kernel.ttadapter.mlir\":9:3): error: failed to legalize operation 'tt.atomic_rmw'",
     "TRITON_ASCEND_KERNEL_COMPILE_FAILED", ": failed to legalize operation 'tt.atomic_rmw'"),
    # FE's prebuild and GE's optimizer of the AI Core engine
    ("        Failed to assemble op args with op[Conv2D_9].[FUNC:DoPrebuildOp][FILE:prebuild_manager.cc][LINE:1]",
     "FE_GRAPH_OP_COMPILE_FAILED", "(node `Conv2D_9`)"),
    ("        Call OptimizeFusedGraph failed, ret:4294967295, engine_name:VectorEngine, graph_name:partition0_sub_graph3"
     "[FUNC:OptimizeSubGraph][FILE:graph_optimize.cc][LINE:1]", "FE_GRAPH_OP_COMPILE_FAILED",
     "(graph partition0_sub_graph3)"),
    # torch_npu's capture checks: another aclop and a generator call
    ("RuntimeError: Cannot run aclop operators during NPU graph capture. Current working aclop is Cast. If you need "
     "this call to be captured, please try to set torch.npu.config.allow_internal_format = False.",
     "NPU_GRAPH_CAPTURE_CALL_NOT_CAPTURABLE", "(aclop operator `Cast`)"),
    ("RuntimeError: Cannot construct a new NPUGeneratorImpl during NPU graph capture. If you need this call to be "
     "captured, please file an issue.", "NPU_GRAPH_CAPTURE_CALL_NOT_CAPTURABLE",
     ": Cannot construct a new NPUGeneratorImpl"),
    # the aclop build's closing lines with another code
    ("        build op model failed, result = 500001[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]",
     "ACL_SINGLE_OP_MODEL_BUILD_FAILED", ": result 500001 (ACL_ERROR_FAILURE)"),
    # a custom operator project's opbuild with another reason
    ("    build ops lib error: /opt/ops/op_host/my_op.cpp:12:5: error: 'TilingData' was not declared in this scope",
     "ASCENDC_CUSTOM_OP_OPBUILD_FAILED", ": /opt/ops/op_host/my_op.cpp:12:5: error: 'TilingData' was not declared"),
    # GE's operator compiler that did not start, in a plog form
    ("[ERROR] ASCENDCL(7,python):2025-01-01-00:00:00.000.000 [log_inner.cpp:145] [Set][Options]OpCompileProcessor "
     "init failed!", "ACL_OP_COMPILER_INIT_FAILED", "(OpCompileProcessor init failed)"),
    # PyTorch's extension builder with another extension
    ("[rank0]: RuntimeError: Error building extension 'cpu_adam'", "TORCH_CPP_EXTENSION_BUILD_FAILED",
     "the C++ extension `cpu_adam`"),
    # an operator namespace of another library
    ("AttributeError: '_OpNamespace' 'sgl_kernel' object has no attribute 'rotary_embedding'",
     "TORCH_OPS_OPERATOR_NOT_REGISTERED", "operator `rotary_embedding` in namespace `torch.ops.sgl_kernel`"),
    # TorchAir's compile steps, and FE's parse of a compiled operator
    ("[rank3]:   File \"/env/site-packages/torch_npu/dynamo/torchair/npu_fx_compiler.py\", line 358, in "
     "_get_compiled_gm", "KERNEL_COMPILE_STEP_RAISED", "(`torchair/npu_fx_compiler.py` in `_get_compiled_gm`)"),
    ("        [SubGraphOpt][ParseJson][PkgTvmJsInfo] Parse taskRatio failed, the json file:/tmp/kernel_meta/x.json",
     "FE_GRAPH_OP_COMPILE_FAILED", "([SubGraphOpt][ParseJson]): Parse taskRatio failed"),
    # TVM's error of another check and kind
    ("tvm.error.InternalError: Check failed: (buffer->shape.size() == 2) is false: copy_gm_to_ub expects 2-D",
     "TILELANG_TVM_COMPILER_ERROR", "(`InternalError`): Check failed: (buffer->shape.size() == 2) is false"),
    ("tvm._ffi.base.TVMError: Unsupported scope: src = shared, dst = local", "TILELANG_TVM_COMPILER_ERROR",
     "(`TVMError`): Unsupported scope: src = shared"),
    # ACL graph capture: the runtime's line for another stream, in a plog form
    ("[ERROR] RUNTIME(9,python):2026-01-01-00:00:00.000.000 [capture_model_utils.cc:92]9 New capture stream failed, "
     "stream_id=2011, event_id=[-1->12].", "ACL_GRAPH_CAPTURE_STREAM_UNAVAILABLE",
     "(New capture stream failed) (stream 2011)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    sig = kb.signature(sig_id)
    assert sig.search(line), sig_id
    title = sig.text("en", line=line)[0]
    assert said in title, title
    assert said not in sig.text("en")[0]


@pytest.mark.parametrize("line", [
    "[INFO] UB size = 1572864 bits, kernel requires 786432 bits",
    "# keep BLOCK_SIZE small to avoid ub overflow on A2",
    "[INFO] launch triton kernel with coreDim=48",
    "from triton.compiler.errors import CompilationError, MLIRCompilationError",
    "subprocess.CalledProcessError: Command '['nvidia-smi']' returned non-zero exit status 9.",
    "[DEBUG] cmd_list: bisheng --cce-aicore-arch=dav-c220 -O2 /tmp/a.cpp -o /tmp/a.so",
    "  File \"/usr/lib/python3.11/site-packages/triton/compiler/compiler.py\", line 410, in __getattribute__",
    "  File \"/usr/lib/python3.11/site-packages/triton/backends/ascend/compiler.py\", line 778, in <lambda>",
    "  File \"/usr/lib/python3.11/site-packages/tilelang/jit/adapter/libgen.py\", line 105, in load_lib",
    "  File \"/usr/local/Ascend/latest/python/site-packages/tbe/common/repository_manager/route.py\", line 62, in wrapper",
    "kernel.cpp:12:3: warning: half precision operation is not allowed in aicore function",
    "[INFO] FE(1,python):2025-01-01-00:00:00.000.000 [op_compiler.cc:1] [SubGraphOpt][Compile] Compile op[Add_1] success",
    "[WARNING] TORCHAIR(1,python): Cannot use converter:torch.ops.aten.foo.default, reason:Failed to auto-generated "
    "converter for torch.ops.aten.foo.default to AscendIR: PyTorch built-in ops not support auto-generate converters",
    "[INFO] TORCHAIR(1,python): torch.ops.aten.add.Tensor ge_converter registered",
    "[INFO] ATC start working now, please wait for a moment.",
    "[INFO] GE(1,python): Call OptimizeFusedGraph success, engine_name:AIcoreEngine, graph_name:partition0",
    "INFO 01-01 00:00:00 [npu_model_runner.py:1] Capturing NPU graph: batch size 64 done",
    "[INFO] ASCENDCL(1,python): build op model success, result = 0",
    "-- Opbuild generating sources",
    "    message(FATAL_ERROR \"opbuild run failed!\")",
    "[INFO] GE(1,python): [Init][Compiler]Init compiler success",
    "Building extension module fused_adam...",
    "Loading extension module fused_adam...",
    "  File \"/env/site-packages/torch_npu/dynamo/torchair/npu_fx_compiler.py\", line 322, in __call__",
    "  File \"/env/site-packages/torch_npu/dynamo/torchair/core/_backend.py\", line 140, in run",
    "    raise tvm.error.InternalError(msg)",
    "2026-01-01 00:00:00  [TileLang:tilelang.jit.kernel:INFO]: TileLang begins to compile kernel `main`",
    "INFO 10-29 16:38:44 [model_runner_v1.py:3502] Starting to capture ACL graphs for cases: [2], mode: PIECEWISE",
    "Capturing ACL graphs (mixed prefill-decode, PIECEWISE):   0%|          | 0/1 [00:00<?, ?it/s]",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + JOINED] == []


def test_the_retry_note_of_a_ub_overflow_is_read_in_its_other_case(kb):
    line = "[NOTE] Due to UB overflow, automatically set enable-auto-multi-buffer to false; compilation still failed."
    assert "TRITON_ASCEND_UB_OVERFLOW" in [s.id for s in kb.match_line(line)]


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + JOINED) == []


@pytest.mark.parametrize("line, specific, family", [
    # bisheng's AI Core restriction in a source under ggml-cann: the restriction is named, not only "a compile error"
    ("/root/llama.cpp/ggml/src/ggml-cann/kernels/dup.cpp:40:9: error: half precision operation is not allowed in "
     "aicore function", "ASCENDC_AICORE_CODE_NOT_ALLOWED", "ASCEND_KERNEL_SOURCE_COMPILE_ERROR"),
])
def test_a_specific_entry_wins_over_its_family_on_the_same_line(tmp_path, kb, line, specific, family):
    from ascend_doctor.triage.scan import triage_paths

    assert {specific, family} <= {s.id for s in kb.match_line(line)}
    log = tmp_path / "x.log"
    log.write_text(line + "\n", encoding="utf-8")
    ids = [p["id"] for p in triage_paths([str(log)], kb).to_json()["problems"]]
    assert specific in ids and family not in ids


def test_a_cut_traceback_of_a_kernel_compile_is_named_but_does_not_fail(tmp_path, kb):
    """The frame of a compile step is the only trace left when an excerpt was cut before the compiler's lines: the
    step is named, as a warning (the exception line, when present, is what may fail the run)."""
    from ascend_doctor.triage.scan import triage_paths

    log = tmp_path / "x.log"
    log.write_text("Traceback (most recent call last):\n"
                   "  File \"/env/lib/python3.11/site-packages/triton/compiler/compiler.py\", line 289, in compile\n"
                   "    next_module = compile_ir(module, metadata)\n", encoding="utf-8")
    problems = triage_paths([str(log)], kb).to_json()["problems"]
    assert [(p["id"], p["severity"]) for p in problems] == [("KERNEL_COMPILE_STEP_RAISED", "warn")]
