"""data/kb/families_mstools.json: the MindStudio / CANN tool chain users run around a model, read in the forms their
own sources and documented cases print. msModelSlim's coded errors, AMCT inside ATC (its error lines, ARQ weight
scales, NCX model loading), transformers' quantization configs and safetensors metadata, operators without aclnn on
aclnn-only devices, the accuracy tools (bf16 tensors to NumPy, compare options against dumps), MindStudio Insight's
imports and the LLVM JIT of its web view, and operator development (the device compiler's stack limit, headers of
another version, the camodel simulator, PyPTO's documented cases and error codes, AI CPU functions of an older CANN).
Each entry reads members its examples do not show, says what the line gives, gives way to a specific entry, stays
quiet on ordinary lines and on every clean excerpt."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_mstools")
# the members of neighbouring families a line of this area could also reach
FAMILY = IDS + part_ids("families_media_sim") + part_ids("families_hf_ecosystem") + ["ASCEND_TOOL_FILE_SECURITY_CHECK", "OM_MODEL_INPUT_SIZE_MISMATCH", "OM_MODEL_EXECUTE_FAILED",
                "AICPU_DEVICE_ERROR_LOGGED"]
CLASS_ENTRIES = {"MSMODELSLIM_ERROR_REPORTED", "AMCT_ERROR_LOGGED",
                 "MSPROF_PROFILING_ERROR_LOGGED", "MSPROBE_ERROR_REPORTED"}
# a line of these says the fault without an error word (a viewer's message, a configure step's requirement, a loader's
# 'Unknown quantization type'): named as a warning, so that no FAIL rests on a line that looks ordinary
WARN_ENTRIES = {"MSINSIGHT_PROFILING_IMPORT_NOTHING_PARSABLE", "CMAKE_VERSION_TOO_OLD"}
# the accuracy tools' designed stop after the configured steps: said, as no fault
INFO_ENTRIES = {"ACCURACY_TOOL_DESIGNED_EXIT"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_class_and_specific_entries_without_peer_ids(kb):
    assert len(IDS) == len(set(IDS)) == 20
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mstools.json" and not sig.ascend_fd
        assert sig.kind == "root", sid
        assert bool(sig.fallback) == (sid in CLASS_ENTRIES), sid
        assert sig.severity == ("warn" if sid in WARN_ENTRIES else "info" if sid in INFO_ENTRIES else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # msModelSlim: another class and code, in the logger's repr form
    ("2025-06-01 10:00:00,000 - msmodelslim - ERROR - [InvalidDatasetError] Code: 202, Message: calib_data.jsonl is "
     "empty, TIP: Please check the dataset path.", "MSMODELSLIM_ERROR_REPORTED",
     "InvalidDatasetError (code 202): calib_data.jsonl is empty"),
    ("msmodelslim.utils.exception.EnvVarError: Code: 102, Message: Invalid log level: TRACE", "MSMODELSLIM_ERROR_REPORTED",
     "EnvVarError (code 102)"),
    # AMCT: another step of another tool; a weight layer in the other wording; the NCX load with another code
    ("[ERROR] AMCT(9001,amct_onnx):2024-10-10-10:10:10[save_model.cpp:52]Save quantized model failed.",
     "AMCT_ERROR_LOGGED", "(amct_onnx) reported an error in `save_model.cpp`: Save quantized model failed."),
    ("[ERROR] AMCT(14815,atc.bin):2023-04-14-12:23:19[weight_calibration_pass.cpp:185]layer fc1000/MatMul run "
     "WeightFakeQuantArq failed", "AMCT_WEIGHT_QUANT_SCALE_INVALID", "for layer `fc1000/MatMul`"),
    ("[ERROR][ArqQuantRealKernel][250] ArqQuantRealCPU scale is illegal.", "AMCT_WEIGHT_QUANT_SCALE_INVALID",
     "no valid quantization scale"),
    ("[ERROR][ncx_interface.cpp:208] nca load model from file failed, ret = 7. please check detail info from device log.",
     "AMCT_NCX_MODEL_LOAD_FAILED", "ret = 7"),
    # numpy has no bfloat16: a tool's log line with another dtype
    ("RuntimeError: Got unsupported ScalarType ComplexHalf", "TORCH_TENSOR_DTYPE_HAS_NO_NUMPY_TYPE",
     "A ComplexHalf tensor was converted to NumPy"),
    # transformers: another method
    ("ValueError: Unknown quantization type, got compressed-tensors - supported types are: ['awq', 'gptq']",
     "HF_QUANTIZATION_TYPE_UNKNOWN", "Unknown quantization type `compressed-tensors`"),
    ("OSError: The safetensors archive passed at /w/model.safetensors does not contain the valid metadata. Make sure you "
     "save your model with the `save_pretrained` method.", "SAFETENSORS_METADATA_FORMAT_MISSING", "metadata is "
     "missing"),
    # another legacy operator on an aclnn-only device
    ("RuntimeError: Current device only support aclnn operator, but current operator npu_conv2d do not have aclnn "
     "implementation", "TORCH_NPU_OP_WITHOUT_ACLNN_ON_ACLNN_ONLY_DEVICE", "`npu_conv2d` has no aclnn implementation"),
    # MindStudio Insight, the LLVM JIT
    ("ERROR: No parsable files found", "MSINSIGHT_PROFILING_IMPORT_NOTHING_PARSABLE", ": No parsable files found"),
    ("JIT session error: Unsupported target machine", "LLVM_JIT_SESSION_ERROR", ": Unsupported target machine"),
    # the device compiler: the stack limit of another kernel, a missing Ascend C name
    ("kernel.cpp:10:1: error: stack frame size (65536) exceeds limit (32768) in function 'my_kernel_do'",
     "NPU_KERNEL_STACK_FRAME_OVER_LIMIT", "(65536 bytes) exceeds the AI Core's limit (32768) in `my_kernel_do`"),
    ("error: no member named 'RemSAlgorithm' in namespace 'pto'", "NPU_KERNEL_HEADERS_LACK_API", "`RemSAlgorithm`"),
    # the simulator: another task kind
    ("[DRVSTUB_WARN] driver_queue.c:163 checkSqeSupported:RTSQ_0 sqe_payload[0]: 0x5, unsupported task type: "
     "AICPU, camodel only supports AIC/AIV/PLACE_HOLDER/NOTIFY_REC/NOTIFY_WAIT", "CAMODEL_TASK_TYPE_UNSUPPORTED",
     "cannot run a AICPU task"),
    # PyPTO: the 8-element alignment, the error-code form, the other KFC function
    ("Cast op: the tileShape of last axis need to 8 align!, func Cast, file cast.cpp, line 90", "PYPTO_TILE_SHAPE_INVALID",
     "tileShape of last axis need to 8 align"),
    ("2026-01-05 09:00:00.000 E | ErrCode: F91005! Enum: SimError::INVALID_PATH config path not exist",
     "PYPTO_ERROR_CODE", "F91005 (`SimError::INVALID_PATH`): config path not exist"),
    ("[ERROR] CCECPU(77,aicpu_scheduler):2026-01-01-00:00:00.000.000 [ae_kernel_lib_aicpu_kfc.cpp:105][CallKernelApi]"
     "[tid:78][AICPU_PROCESSER] Get KFC DynTileFwkKernelServerExit api success, but func is nullptr: (null)",
     "PYPTO_AICPU_KFC_API_NULL", "`DynTileFwkKernelServerExit`"),
    # the custom-operator build: another chip; CANN not where a tool looks; an old cmake; Megatron's fusion check
    ("opbuild ops error: Invalid socVersion Ascend910B4 of GroupedMatmul", "ASCENDC_OPBUILD_SOC_VERSION_INVALID",
     "invalid socVersion `Ascend910B4`"),
    ("/bin/sh: 1: /opt/Ascend/cann-8.5.0/set_env.sh: No such file or directory", "CANN_INSTALL_PATH_NOT_FOUND",
     "(`/opt/Ascend/cann-8.5.0/set_env.sh`)"),
    ("  CMake 3.18 or higher is required.  You are running version 3.16.3", "CMAKE_VERSION_TOO_OLD",
     "(CMake 3.18 or higher; this is 3.16.3)"),
    ("[rank3]: ValueError: Only support fusion of gelu and swiglu", "MEGATRON_FUSED_ACTIVATION_CHECK_FAILED",
     "(Only support fusion of gelu and swiglu)"),
    # the profiler: its plog module, its analysis console
    ("[ERROR] PROFILING(811,msprof):2025-03-01-08:00:00.000.100 [prof_manager.cpp:300] >>> (tid:811) Output dir "
     "/data/prof is not writable", "MSPROF_PROFILING_ERROR_LOGGED", "in `prof_manager.cpp`: Output dir /data/prof is "
     "not writable"),
    ("Tue 02 Jan 2024 10:00:00 [ERROR] [MSVP] [77] msprof_entrance.py: The path is empty. Please enter a valid path.",
     "MSPROF_PROFILING_ERROR_LOGGED", "The path is empty"),
    # msProbe: another of its checks
    ("2025-01-01 10:00:00 (1234) [rank 0] [ERROR] RepairException: [msprobe] Invalid repair_type: cast_to_fp64",
     "MSPROBE_ERROR_REPORTED", "Invalid repair_type: cast_to_fp64"),
    # npu check of an Ascend C kernel: another code, in the statistics form
    ("3, ErrorFree, 内存重复释放", "ASCENDC_NPU_CHECK_KERNEL_ERROR", "(ErrorFree)"),
    # the accuracy tools' designed stop; ptdbg's hooks out of order
    ("[rank1]: Exception: msprobe: exit after iteration [10]", "ACCURACY_TOOL_DESIGNED_EXIT", "msprobe ended the program"),
    ("IsADirectoryError: [Errno 21] Is a directory: '/home/u/dump/rank3/api_stack_dump'",
     "PTDBG_HOOKS_CALLED_OUT_OF_ORDER", "/home/u/dump/rank3/api_stack_dump"),
    # the path checks of the tools, extended in families_edge.json
    ("[ERROR]The file path /data/dump++/rank0 contains special characters.", "ASCEND_TOOL_FILE_SECURITY_CHECK",
     "(`/data/dump++/rank0`): contains special characters"),
    ("FileOpenError: weights.csv should not be a symbolic link file.", "ASCEND_TOOL_FILE_SECURITY_CHECK",
     "(`weights.csv`): should not be a symbolic link"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


def test_a_class_entry_gives_way_to_a_specific_one_on_its_line(kb):
    # AMCT's own line of a failed NCX load is the NCX entry's, not the class of AMCT errors
    line = "[ERROR] AMCT(1372344,acl_test_tool):2025-09-12-08:26:47[sample_process.cpp:378]NCX load model failed."
    assert [s.id for s in kb.explaining(line)] == ["AMCT_NCX_MODEL_LOAD_FAILED"]
    # AMCT's calibration data of another size is the offline-model input entry's
    line = ("[ERROR] AMCT(21177,atc.bin):2023-04-14-14:43:17[utils_acl.cpp:133]input image size[1579014] is not equal "
            "to model input size[3158028]")
    assert [s.id for s in kb.explaining(line)] == ["OM_MODEL_INPUT_SIZE_MISMATCH"]
    # the AI CPU's missing KFC function is its entry's, not the class of AI CPU errors
    line = ("[ERROR] CCECPU(5670,aicpu_scheduler):2025-12-22-19:40:01.899.541 [ae_kernel_lib_aicpu_kfc.cpp:105]"
            "[CallKernelApi][tid:5680][AICPU_PROCESSER] Get KFC DynTileFwkKernelServerInit api success, but func is "
            "nullptr: (null)")
    assert [s.id for s in kb.explaining(line)] == ["PYPTO_AICPU_KFC_API_NULL"]
    # PyPTO's coded line of an unset device is the device-id entry's
    line = ("2026-01-05 09:00:00.000 E | ErrCode: F71001! Enum: RtErr::RT_DEVICE_FAILED fail get device id, check if "
            "set device id")
    assert [s.id for s in kb.explaining(line)] == ["PYPTO_DEVICE_ID_NOT_SET"]


@pytest.mark.parametrize("line", [
    "2025-06-01 10:00:00,000 - msmodelslim - INFO - Using plan 'w8a8_default'.",
    "[INFO] AMCT(21177,atc.bin):2023-04-14-14:43:17[quantize_api.cpp:300]Do Calibration success.",
    "[WARNING] AMCT(21177,atc.bin):2023-04-14-14:43:17[quantize_api.cpp:310]skip layer conv1",
    "[INFO][ncx_interface.cpp:35] ncx lib has been init",
    "tensor.float().numpy()",
    "quantization_config = {'quant_method': 'fp8'}",
    "metadata = {'format': 'pt'}",
    "[INFO] operator npu_layer_norm_eval dispatched to aclnnLayerNorm",
    "[INFO] Import 8 parsable db files",
    "[INFO] JIT session created for module main",
    "warning: stack frame size (4096) exceeds limit (2048) in function 'main' [-Wframe-larger-than]",
    "error: no member named 'foo' in namespace 'std'",
    "[DRVSTUB_INFO] driver_queue.c:150 task type AIC ok, camodel running",
    "pypto.set_vec_tile_shapes(16, 16)",
    "2026-01-05 09:00:00.000 I | set device id 0",
    "2026-01-05 09:00:00.000 I | Enum: FeError::INVALID_VAL registered",
    "[INFO] compare finished, stack_mode=True",
    "[INFO] The file path /home/user/dump is valid.",
    "-- ASCEND_COMPUTE_UNIT: ascend910_93",
    "echo 'source /usr/local/Ascend/ascend-toolkit/set_env.sh' >> ~/.bashrc",
    "cmake_minimum_required(VERSION 3.16.0)",
    "args.activation_func = F.gelu",
    "Tue 02 Jan 2024 10:00:00 [INFO] [MSVP] [77] msprof_entrance.py: export finished",
    "2025-01-01 10:00:00 (1234) [INFO] [msprobe] Invalid scope entries are ignored",
    "---------------------- ERROR STATISTICS ----------------------",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + ["ASCEND_TOOL_FILE_SECURITY_CHECK"]] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, FAMILY) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # every example of a family entry is explained by that entry alone among the family
    assert family_overlaps(kb, FAMILY) == []
