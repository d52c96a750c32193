"""data/kb/families_media_sim.json: Ascend's application SDKs, simulators and kernel-programming stacks, read in the
forms their own sources print. Vision SDK's MxBase reporting a failed AscendCL or media call with its code, GStreamer
failing to load a plugin, PyPTO's error codes (ErrCode: Fxxxxx), its failing graph passes, a device not set, an AI CPU
kernel library older than PyPTO; the NPU kernel compilers' stack-frame limit and headers (PTO-ISA, Ascend C, CATLASS)
that lack an API; Triton-Ascend's toolchain lookup; CANN opbuild's chip check; ninja without build files. Each entry
reads members its examples do not show, says what the line gives, stays quiet on ordinary lines and on every clean
excerpt."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_media_sim")
# the members of neighbouring families a line of this area could also reach
FAMILY = IDS + ["ASCEND_TOOL_FILE_SECURITY_CHECK", "MXVISION_PLUGIN_NOT_FOUND", "MXBASE_APP_ERROR_LOGGED", "CANN_AICORE_TIMEOUT_507014",
                "NPU_KERNEL_COMPILER_COMMAND_FAILED",
                "ASCENDC_CUSTOM_OP_OPBUILD_FAILED", "ASCENDC_CMAKE_SOC_OR_TOOLKIT_MISSING",
                "TRITON_ASCEND_TARGET_UNKNOWN", "TRAINING_INPUT_PATH_NOT_FOUND", "LIBRARY_NAME_NOT_IN_VERSION"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


# class entries: they name the fault from the line's own structure (a code and its meaning) and give way to an entry of
# the code itself (the AI Core timeout's on MxBase's `Code = 507014`)
CLASS_ENTRIES = {"MULTIMODAL_SDK_ERROR_LOGGED", "PYPTO_ERROR_CODE", "MXBASE_CALLED_FUNCTION_FAILED", "PYPTO_PASS_RUN_FAILED"}


def test_the_part_is_loaded_as_root_entries_four_classes_without_peer_ids(kb):
    assert len(IDS) == len(set(IDS)) == 19
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_media_sim.json" and not sig.ascend_fd
        assert sig.kind == "root" and sig.severity == "fail", sid
        assert bool(sig.fallback) == (sid in CLASS_ENTRIES), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # MxBase: another call and another AscendCL code, the code's name from CANN's table
    ("E20250601 09:00:00.000000 100 ModelInferenceProcessor.cpp:210] Execute model failed. (Calling Function = "
     "aclmdlExecute, Code = 507011, Message = \"ACL error, please refer to the document of CANN.\")",
     "MXBASE_CALLED_FUNCTION_FAILED", "`aclmdlExecute` returned 507011 (ACL_ERROR_RT_MODEL_EXECUTE)"),
    ("Create stream failed. (Calling Function = aclrtCreateStream, Code = 107002, Message = \"ACL error\")",
     "MXBASE_CALLED_FUNCTION_FAILED", "returned 107002"),
    # ... and gives way to the entry of a code that has one
    ("WarpPerspective failed. (Calling Function = aclrtSynchronizeStream, Code = 507034, Message = \"ACL error\")",
     "CANN_VECTOR_CORE_TIMEOUT_507034", "(507034)"),
    # GStreamer: another plugin, another reason
    ("(python3:42): GStreamer-WARNING **: 12:00:00.000: Failed to load plugin '/opt/mxVision/lib/plugins/"
     "libmxpi_imagedecoder.so': /opt/mxVision/lib/libmxbase.so: undefined symbol: acldvppCreatePicDesc",
     "GSTREAMER_PLUGIN_LOAD_FAILED", "undefined symbol: acldvppCreatePicDesc"),
    # Vision SDK's element factory lookup, in its other wording (the family of MXVISION_PLUGIN_NOT_FOUND)
    ("E20250601 09:00:00.000000 100 MxsmElement.cpp:497] Feature is NULL, can not find the element factory: "
     "mxpi_rotation (Code = 6009, Message = \"Invalid element\")", "MXVISION_PLUGIN_NOT_FOUND", "(`mxpi_rotation`)"),
    # PyPTO: a pass code, a codegen code, the simulator's configuration
    ("ASSERT FAILED: ErrCode: F43000! Enum: GraphErr::GRAPH_LOOP_DETECTION", "PYPTO_ERROR_CODE",
     "F43000 (`GraphErr::GRAPH_LOOP_DETECTION`)"),
    ("[ERROR] PYPTO(9,python3):2026-01-01-00:00:00.000.000 ErrCode: F91001! Enum: SimErr::INVALID_CONFIG "
     "config Model.deviceArch= does not match key=value", "PYPTO_ERROR_CODE", "F91001"),
    ("RuntimeError: ErrCode: F00005, NotImplementedError: reshape of a dynamic axis", "PYPTO_ERROR_CODE",
     "F00005: NotImplementedError"),
    ("2026-01-01 00:00:00.000 E | Run pass <InferMemoryConflict> failed", "PYPTO_PASS_RUN_FAILED",
     "`InferMemoryConflict`"),
    ("[ERROR] CCECPU(1,aicpu_scheduler):2026-01-01-00:00:00.000.000 [ae_kernel_lib_aicpu_kfc.cpp:105][CallKernelApi]"
     "[tid:2][AICPU_PROCESSER] Get KFC DynTileFwkKernelServerNew api success, but func is nullptr: (null)",
     "PYPTO_AICPU_KFC_API_NULL", "`DynTileFwkKernelServerNew`"),
    # the compilers: another kernel's stack frame, another namespace's missing API
    ("error: stack frame size (65544) exceeds limit (32768) in function 'flash_attn_kernel'",
     "NPU_KERNEL_STACK_FRAME_OVER_LIMIT", "(65544 bytes) exceeds the AI Core's limit (32768) in `flash_attn_kernel`"),
    ("kernel.cpp:7:11: error: no member named 'TROWSUM' in namespace 'pto'", "NPU_KERNEL_HEADERS_LACK_API",
     "uses `TROWSUM` that the installed `pto` headers"),
    # Triton-Ascend: the other tool, the other variable
    ("OSError: Couldn't find executable bishengir-opt or TRITON_NPU_COMPILER_PATH", "TRITON_ASCEND_TOOLCHAIN_NOT_FOUND",
     "`bishengir-opt`"),
    ("OSError: MLIR_ROOT is not set.", None, None),
    # the backend's own chip check is the unknown-target entry's (field_cases.json)
    ("NotImplementedError: NPU subtarget Ascend910_9391 not supported yet", "TRITON_ASCEND_TARGET_UNKNOWN",
     "(`Ascend910_9391`)"),
    # opbuild: another chip, another operator
    ("Invalid socVersion ascend310p of op MultiScaleDeformableAttn, please check whether AddConfig are correctly "
     "configured in Opdef.", "ASCENDC_OPBUILD_SOC_VERSION_INVALID", "`ascend310p` of operator `MultiScaleDeformableAttn`"),
    # the CA-model simulator: another task type; its library missing for another chip
    ("[DRVSTUB_WARN] driver_queue.c:163 checkSqeSupported:RTSQ_1 sqe_payload[0]: 0x5, unsupported task type: EVENT_RECORD, "
     "camodel only supports AIC/AIV/PLACE_HOLDER/NOTIFY_REC/NOTIFY_WAIT", "CAMODEL_TASK_TYPE_UNSUPPORTED",
     "cannot run a EVENT_RECORD task"),
    ("can not load library: /opt/cann/toolkit/tools/simulator/dav_3510/camodel/libpem_davinci.so",
     "CAMODEL_SIMULATOR_NOT_LOADABLE", "could not be loaded: `/opt/cann/toolkit/tools/simulator/dav_3510"),
    # graph mode and custom operators: another in-place operator, a Meta function on the NPU
    ("RuntimeError: Found a custom (non-ATen) operator that either mutates or its inputs: mx_driving::scatter_max_. "
     "Getting these operators to work with functionalization requires some extra work.",
     "TORCH_CUSTOM_OP_INPLACE_NOT_FUNCTIONALIZED", "`mx_driving::scatter_max_`"),
    ("RuntimeError: tensor's device must be 'meta', got npu instead", "TORCH_CUSTOM_OP_META_IMPL_INVALID",
     "on `npu` instead of `meta`"),
    # DrivingSDK's model FAQs: a stdlib alias a newer Python removed, a pickle cut short, mmcv's missing checkpoint
    ("ImportError: cannot import name 'MutableMapping' from 'collections' (/usr/lib/python3.11/collections/__init__.py)",
     "PY_STDLIB_NAME_REMOVED", "`MutableMapping` from the standard library's `collections`"),
    ("_pickle.UnpicklingError: pickle data was truncated", "PY_PICKLE_FILE_EMPTY_OR_CUT", "pickle data was truncated"),
    ("FileNotFoundError: work_dirs/bevfusion/epoch_6.pth can not be found.", "TRAINING_INPUT_PATH_NOT_FOUND",
     "`work_dirs/bevfusion/epoch_6.pth`"),
    # MindIE's file checks (in families_edge's entry of the Ascend tools' file checks): a link to a weight file, a size
    # over the limit
    ("mindiesd.utils.exception.ParametersInvalid: The path:ckpt/vae/diffusion_pytorch_model.safetensors is a symbolic "
     "link file.", "ASCEND_TOOL_FILE_SECURITY_CHECK", "(`ckpt/vae/diffusion_pytorch_model.safetensors`): is a symbolic link"),
    ("ParametersInvalid: The size of file:prompts.txt is 104857700, which exceeds the limit 104857600.",
     "ASCEND_TOOL_FILE_SECURITY_CHECK", "(`prompts.txt`): size"),
    # a media pipeline: GStreamer's run-time form, Vision SDK's start-up form
    ("gst_base_src_loop (): /GstPipeline:pipeline0/GstAppSrc:appsrc0: streaming stopped, reason not-linked (-1)",
     "MEDIA_PIPELINE_LINK_FAILED", "(not-linked)"),
    ("Links srcElement and destElement failed.Please check the compatibility between the port types of these two "
     "plugins. (Code = 2006, Message = \"...\")", "MEDIA_PIPELINE_LINK_FAILED", "could not connect two elements"),
    # Multimodal SDK's scheme: another function, another code
    ("[ERROR] 2025-11-03-10:21:07.123.456 [ImageDecoder.cpp:88] Decode: Read jpeg file failed. (Code = 0x10300003, "
     "Message = \"LibJpeg read file failed\") ", "MULTIMODAL_SDK_ERROR_LOGGED",
     "0x10300003 (LibJpeg read file failed) in `Decode`: Read jpeg file failed."),
    ("ninja: fatal: chdir to '/home/u/triton-ascend/build' - No such file or directory", "NINJA_BUILD_FILE_MISSING",
     "(`/home/u/triton-ascend/build`)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    if sig_id is None:
        # only the EnvironmentError form is the toolchain's: a bare 'X is not set' is no member of the family
        assert [s.id for s in kb.explaining(line) if s.id in IDS] == []
        return
    title = explained_title(kb, line, sig_id)
    assert said in title, title


def test_the_sdk_entry_names_the_call_where_the_class_of_mxbase_errors_would_not(kb):
    # MxBase's own (Code = ..., Message = ...) form without a called function stays the class entry's
    line = ("E20250601 09:00:00.000000 100 ImageProcessor.cpp:98] Failed to read image. (Code = 2001, Message = "
            "\"Common: invalid parameter\")")
    assert [s.id for s in kb.explaining(line)] == ["MXBASE_APP_ERROR_LOGGED"]


@pytest.mark.parametrize("line", [
    "I20250601 09:00:00.000000 100 ModelInferenceProcessor.cpp:80] Calling Function = aclmdlExecute",
    "(gst-plugin-scanner:1): GStreamer-INFO: plugin loaded",
    "Plugin Details: Filename /opt/mxVision/lib/plugins/libmxpi_tensorinfer.so",
    "ErrCode: 0",
    "[INFO] PYPTO(9,python3):2026-01-01-00:00:00.000.000 Run pass [ExpandFunction] success.",
    "2026-01-01 00:00:00.000 I | Run pass [ExpandFunction] cost 2 ms",
    "warning: stack frame size (4096) exceeds limit (2048) in 'main' [-Wframe-larger-than]",
    "error: no member named 'foo' in namespace 'std'",
    "using namespace pto;",
    "export TRITON_NPU_COMPILER_PATH=/usr/local/Ascend/ascend-toolkit/latest/bin",
    "[INFO] opbuild: socVersion ascend910b of op AddCustom",
    "ninja: no work to do.",
    "streaming stopped, reason eos (-3)",
    "[INFO] get device id 0",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, FAMILY) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # every example of a family entry is explained by that entry alone among the family
    assert family_overlaps(kb, FAMILY) == []
