"""data/kb/families_edge.json: deployment and edge inference on Ascend, read in the forms their own sources and
troubleshooting pages print. AscendCL applications and their tools (msame, ais_bench, the Ascend samples, MindX SDK's
MxBase error scheme) loading and running offline models and feeding them data of the wrong size, MindSpore Lite's
converter (its result codes, unsupported operators, the Ascend ACL pass), runtime (model files, versions, dynamic
shapes) and benchmark, Paddle-Lite's NNAdapter and FastDeploy, the AI CPU kernel libraries, the link of an AscendCL
application, llama.cpp's CANN backend tests, a CANN tool's path-ownership check. Each entry reads members its
examples do not show, says what the line gives, gives way to a specific entry, stays quiet on ordinary lines and on
every clean excerpt."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_edge")
FAMILY = IDS + ["NNADAPTER_CANN_VERSION_MISMATCH", "GGML_CANN_BACKEND_ERROR"]
CLASS_ENTRIES = {"ACL_APP_CALL_FAILED_ACLRET", "MSLITE_MODEL_BUILD_FAILED", "GGML_CANN_INIT_FAILED", "ACL_APP_OPEN_DEVICE_FAILED", "PYACL_CALL_FAILED", "OM_MODEL_LOAD_FAILED", "OM_MODEL_EXECUTE_FAILED", "MXBASE_APP_ERROR_LOGGED", "MSLITE_CONVERT_FAILED",
                 "MSLITE_ACL_OM_BUILD_FAILED"}
WRAPPERS = {"FASTDEPLOY_BACKEND_INIT_FAILED", "MSLITE_CONVERTER_STAGE_FAILED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_class_and_specific_entries_without_peer_ids(kb):
    assert len(IDS) == len(set(IDS)) == 32
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_edge.json" and not sig.ascend_fd
        assert sig.kind == ("wrapper" if sid in WRAPPERS else "root"), sid
        assert bool(sig.fallback) == (sid in CLASS_ENTRIES), sid
    # test-backend-ops' 'not supported' is a finding of a test run, not a failure of the program
    assert kb.signature("GGML_BACKEND_OP_NOT_SUPPORTED").severity == "warn"
    # ONNX Runtime falls back to the CPU and runs: a warning
    assert kb.signature("ORT_CANN_PROVIDER_NOT_AVAILABLE").severity == "warn"


@pytest.mark.parametrize("line, sig_id, said", [
    # the samples' 'aclRet' phrase on a DVPP call and on a memory step
    ("[ERROR]  acldvppJpegDecodeAsync failed, aclRet = 100000", "ACL_APP_CALL_FAILED_ACLRET",
     "(`acldvppJpegDecodeAsync`) with code 100000 (ACL_ERROR_INVALID_PARAM)"),
    ("[ERROR] malloc device data buffer failed, aclRet is 207001", "ACL_APP_CALL_FAILED_ACLRET",
     "(`malloc device data buffer`) with code 207001 (ACL_ERROR_RT_MEMORY_ALLOCATION)"),
    # the device does not open: another id, another code
    ("[ERROR] acl open device 7 failed", "ACL_APP_OPEN_DEVICE_FAILED", "could not open an NPU device (device 7)"),
    ("SetDevice failed.ret=507899", "ACL_APP_OPEN_DEVICE_FAILED", "(set device returned 507899: ACL_ERROR_RT_DRV_INTERNAL_ERROR)"),
    # an offline model that does not load: the samples' form with its code, the ACLLite form
    ("[ERROR]  load model from file failed, model file is /home/HwHiAiUser/model/face.om, errorCode = 145002.",
     "OM_MODEL_LOAD_FAILED", "`/home/HwHiAiUser/model/face.om` could not be loaded: load model from file failed, code 145002"),
    ("[ERROR] Load model from : 0xffff8000 failed, return 507899", "OM_MODEL_LOAD_FAILED", "code 507899"),
    # its execution: msame's form, the Python samples' form with the runtime code's meaning
    ("[ERROR] execute model failed, modelId is 1", "OM_MODEL_EXECUTE_FAILED", "model execute/infer returned an error"),
    ("[ERROR] Execute model failed for acl.mdl.execute error, ret = 507015", "OM_MODEL_EXECUTE_FAILED",
     "507015 (ACL_ERROR_RT_AICORE_EXCEPTION)"),
    ("[ERROR] Execute model(resnet50) error:507011", "OM_MODEL_EXECUTE_FAILED", "507011 (ACL_ERROR_RT_MODEL_EXECUTE)"),
    # MindSpore Lite's Ascend backend: its execute report, its input checks
    ("[ERROR] ME(1234,ffff,python):2024-05-01-10:00:00.000.000 [mindspore/lite/src/extendrt/kernel/ascend/model/"
     "model_process.cc:1340] PredictFromHost] Execute Model Failed, ret = 507011, detail:", "OM_MODEL_EXECUTE_FAILED",
     "507011"),
    ("[ERROR] ME(1,ffff,python):2024-05-01-10:00:00.000.000 [mindspore/lite/src/extendrt/kernel/ascend/model/"
     "model_process.cc:1395] CheckInputTensors] Buffer size: 196608!=input size :602112, current only support data "
     "type fp16!", "OM_MODEL_INPUT_SIZE_MISMATCH", "602112 given, 196608 needed"),
    ("[ERROR] ME(1,ffff,python):2024-05-01-10:00:00.000.000 [mindspore/lite/src/extendrt/kernel/ascend/model/"
     "model_process.cc:1011] CheckAndInitInput] Expect input size to be 2, but got 1", "OM_MODEL_INPUT_SIZE_MISMATCH",
     "1 given, 2 needed"),
    # input data of another size: ais_bench's per-input check, the sample's file check
    ("[ERROR] Check i:1 name:im_info in size:12 needsize:24 not match", "OM_MODEL_INPUT_SIZE_MISMATCH",
     "input `im_info`: 12 given, 24 needed"),
    ("fread ./data/input.bin failed. file size not match input size 150528.", "OM_MODEL_INPUT_SIZE_MISMATCH",
     "150528 needed"),
    # MxBase's scheme: a module's name before the code
    ("E20250101 08:00:00.000000  77 ModelInferenceProcessor.cpp:391] [ModelInfer][3][ACL: runtime failure] "
     "Execute Infer failed", "MXBASE_APP_ERROR_LOGGED", "ModelInfer reported error 3 (ACL: runtime failure)"),
    # MindSpore Lite's converter: another code, an operator of TensorFlow, the Ascend pass
    ("CONVERT RESULT FAILED:-600 Invalid input param by user.", "MSLITE_CONVERT_FAILED",
     "CONVERT RESULT FAILED:-600 (Invalid input param by user)"),
    ("[mindspore/lite/tools/converter/converter_context.h:60] PrintOps] FMKTYPE: TF, OP TYPE: NonMaxSuppressionV5",
     "MSLITE_CONVERTER_UNSUPPORTED_OP", "(`NonMaxSuppressionV5` of TF)"),
    ("[ERROR] LITE(1,ffff,converter_lite):2025-01-01-00:00:00.000.000 [mindspore/lite/tools/converter/adapter/acl/"
     "src/acl_memory_offload_pass_impl.cc:95] Run] Convert graph to om failed.", "MSLITE_ACL_OM_BUILD_FAILED",
     "convert the graph to an Ascend OM model"),
    # the Python API: a build with another status, a model path that does not exist, the converter's summary
    ("RuntimeError: build_from_file failed! Error is Failed to check input tensor.", "MSLITE_MODEL_BUILD_FAILED",
     "(build_from_file failed: Failed to check input tensor)"),
    ("RuntimeError: build_from_file failed, model_path does not exist!", "MSLITE_MODEL_FILE_INVALID",
     ": model_path does not exist"),
    ("RuntimeError: Converter model failed! model_file is ./yolo.onnx, error is Failed to find operator.",
     "MSLITE_CONVERT_FAILED", "(Failed to find operator.)"),
    # the runtime: another framework's file, another pair of versions, a model from before 1.1.0
    ("[ERROR] LITE(2,7f,converter_lite):2024-05-01-00:00:00.000.000 [mindspore/lite/tools/converter/parser/tf/"
     "tf_model_parser.cc:500] Parse] Read tf model file failed, model path: /data/frozen.pb", "MSLITE_MODEL_FILE_INVALID",
     "`/data/frozen.pb`"),
    ("WARNING [mindspore/lite/src/litert/lite_model.cc:400] ConstructModel] model version is MindSpore Lite 2.1.0, "
     "inference version is MindSpore Lite 2.3.1 not equal", "MSLITE_MODEL_VERSION_MISMATCH",
     "(model: MindSpore Lite 2.1.0, runtime: MindSpore Lite 2.3.1)"),
    ("ERROR [mindspore/lite/src/lite_model.cc:99] ConstructModel] Maybe this is a model transferred out using the "
     "conversion tool before 1.1.0.", "MSLITE_MODEL_VERSION_MISMATCH", "(model: 1.1.0)"),
    ("OSError: /opt/py/site-packages/mindspore_lite/lib/libmindspore-lite.so.0: undefined symbol: _ZN9mindspore6kernel",
     "MSLITE_PACKAGE_UNDEFINED_SYMBOL", "`libmindspore-lite.so.0`"),
    ("ERROR [mindspore/lite/src/delegate/tensorrt/tensorrt_runtime.h:31] log] input_0: input_0 size cannot have "
     "negative dimension, size = [-1, 3, 224, 224]", "MSLITE_INPUT_SHAPE_NOT_SET", "dynamic input shape"),
    ("Mean bias of all nodes/tensors is too big: 37.5%", "MSLITE_BENCHMARK_ACCURACY_MISMATCH", "mean bias 37.5%"),
    # Paddle-Lite's NNAdapter: today's wording, a compilation of a cached model, FastDeploy on another device
    ("[F  5/ 1 10:00:00.000 ...le-Lite/lite/kernels/nnadapter/engine.cc:294 Engine] Check failed: "
     "(device_names.size() > 0): 0!>0 No device specified.", "NNADAPTER_NO_USABLE_DEVICE", "No device specified"),
    ("[F  5/ 1 10:00:00.000 ...le-Lite/lite/kernels/nnadapter/engine.cc:181 Build] Failed to create a compilation by "
     "compiling the source model (6) !", "NNADAPTER_MODEL_BUILD_OR_RUN_FAILED", "NNAdapter result 6"),
    ("[ERROR] fastdeploy/fastdeploy_model.cc(362)::CreateKunlunXinBackend	There's no valid KunlunXin backends for "
     "model: ResNet50", "FASTDEPLOY_NO_VALID_BACKEND", "no valid KunlunXin backend for the model `ResNet50`"),
    # the Ascend driver's AscendCL check on another call, its ATC check on another GE call
    ("[F  3/ 1 10:00:00.000 ...nnadapter/src/driver/huawei_ascend_npu/model_client.cc:37 InitAclResource] Check "
     "failed: (reinterpret_cast<aclError>(aclrtGetDeviceCount(&device_count)) == ACL_ERROR_NONE): 507899!==0 507899 "
     "Unknown ACL error code(507899)", "NNADAPTER_ASCEND_ACL_CALL_FAILED", "`aclrtGetDeviceCount` returned 507899"),
    ("[F  3/ 1 10:00:00.000 ...pter/driver/huawei_ascend_npu/utility.cc:128 InitializeGraphBuilder] Check failed: "
     "(reinterpret_cast<ge::graphStatus>(ge::aclgrphBuildInitialize(global_options)) == ge::GRAPH_SUCCESS): "
     "4294967295!==0 4294967295 GRAPH_FAILED", "NNADAPTER_MODEL_BUILD_OR_RUN_FAILED",
     "aclgrphBuildInitialize failed with ATC/GE code 4294967295"),
    # pyACL through the samples' acllite: a code no other entry reads; its input-count check
    ("Exception: acl.mdl.execute failed ret=507011", "PYACL_CALL_FAILED", "`acl.mdl.execute` returned 507011"),
    ("[ERROR] Current input data num 1 unequal to model input num 2", "OM_MODEL_INPUT_SIZE_MISMATCH",
     "1 given, 2 needed"),
    # pyACL through mmdeploy: a model load; a dynamic gear the model lacks, in mmdeploy's C++ and msame's forms
    ("mmdeploy.backend.ascend.wrapper.Error: ('acl.mdl.load_from_file', 100003)", "PYACL_CALL_FAILED",
     "`acl.mdl.load_from_file` returned 100003 (ACL_ERROR_INVALID_FILE"),
    ("[2024-01-01 10:00:00.000] [mmdeploy] [error] [acl_net.cpp:523] Unsupported batch size: 16",
     "OM_DYNAMIC_SHAPE_GEAR_MISMATCH", "Unsupported batch size (16): it has no matching dynamic gear"),
    ("[ERROR] the dynamic_image_size parameter is not specified for model conversion", "OM_DYNAMIC_SHAPE_GEAR_MISMATCH",
     "dynamic_image_size: it has no matching dynamic gear"),
    # Paddle-Lite's own operator support: a kernel of a tiny_publish library, the message of a full library
    ("Error: Please use Paddle-Lite lib with all ops, which is marked with `with_extra`. Current lib is of "
     "tiny_publish, in which only basic kernels are included and we can not create kernel for 'matrix_nms'.",
     "PADDLE_LITE_OP_NOT_SUPPORTED", "(`matrix_nms`)"),
    ("Error: This model is not supported, because operator 'deformable_conv' is not supported by Paddle-Lite.",
     "PADDLE_LITE_OP_NOT_SUPPORTED", "(`deformable_conv`)"),
    # FastDeploy's runtime choosing a backend: an ONNX model on Ascend, a backend the package was built without
    ("[ERROR] fastdeploy/runtime/runtime.cc(90)::AutoSelectBackend	Cannot found availabel inference backends by model "
     "format: ModelFormat::ONNX with device: Device::ASCEND", "FASTDEPLOY_NO_VALID_BACKEND",
     "no valid Device::ASCEND backend for the model (model format ModelFormat::ONNX)"),
    ("[ERROR] fastdeploy/runtime/runtime.cc(172)::Init	The compiled FastDeploy only supports [ Backend::ORT ], "
     "Backend::LITE is not supported now.", "FASTDEPLOY_NO_VALID_BACKEND", "(`Backend::LITE` is not compiled in)"),
    # ONNX Runtime without its CANN provider: another Python, a provider list with CANN second
    ("/opt/conda/lib/python3.10/site-packages/onnxruntime/capi/onnxruntime_inference_collection.py:123: UserWarning: "
     "Specified provider 'CANNExecutionProvider' is not in available provider names.Available providers: "
     "'CPUExecutionProvider'", "ORT_CANN_PROVIDER_NOT_AVAILABLE", "could not use the CANN execution provider"),
    ("EP Error Failed to create CANN provider when using ['TensorrtExecutionProvider', 'CANNExecutionProvider']",
     "ORT_CANN_PROVIDER_NOT_AVAILABLE", ": Failed to create CANN provider: the session runs on the CPU"),
    # the AI CPU kernels, the link on another CANN layout, the test of the CANN backend on another chip
    ("[ERROR] CCECPU(9,aicpu_scheduler):2024-01-01-00:00:00.000.000 [ae_so_manager.cc:571][CreateSingleSoMgr]"
     "[tid:10][AICPU_PROCESSER] Single so manager init failed, soFile is /usr/lib64/aicpu_kernels/0/"
     "aicpu_kernels_device/libtf_kernels.so", "AICPU_KERNEL_SO_LOAD_FAILED", "libtf_kernels.so"),
    ("/usr/bin/ld: warning: libc_sec.so, needed by /usr/local/Ascend/ascend-toolkit/latest/runtime/lib64/libascendcl.so,"
     " not found (try using -rpath or -rpath-link)", "CANN_LIBRARY_LINK_UNRESOLVED", "needs `libc_sec.so`"),
    ("  GET_ROWS(type=q4_K,n=256,m=5,r=4,b=1,v=0): not supported [CANN1]", "GGML_BACKEND_OP_NOT_SUPPORTED",
     "`CANN1`: ggml op is not supported (`GET_ROWS`"),
    ("0.00.012.345 E ggml_cann_init: failed to initialize CANN: ", "GGML_CANN_INIT_FAILED",
     "could not initialise CANN: no NPU could be counted from this process"),
    ("2025-01-01 10:00:00 [ERROR] The input path may be insecure because it does not belong to you.",
     "ASCEND_TOOL_FILE_SECURITY_CHECK", "insecure because it does not belong to you"),
    ("2024-05-01 10:00:00,000 - msit_logger - ERROR - File owner and current user are inconsistent: '/tmp/out/a.csv'",
     "ASCEND_TOOL_FILE_SECURITY_CHECK", "(`/tmp/out/a.csv`): File owner and current user are inconsistent"),
    ("ValueError: The value of the path cannot be soft link: /home/u/model.om.", "ASCEND_TOOL_FILE_SECURITY_CHECK",
     "(`/home/u/model.om`): cannot be soft link"),
    ("[ERROR] save out files error array shape:(4, 1000) filesinfo:[['a.bin']] files_count_perbatch:4 ndata.shape0:4",
     "AIS_BENCH_OUTPUT_SPLIT_FAILED", "output shape (4, 1000)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("[ERROR] fastdeploy/vision/classification/contrib/resnet.cc(52)::Initialize	Failed to initialize fastdeploy "
     "backend.", "FASTDEPLOY_BACKEND_INIT_FAILED", "its fastdeploy backend"),
    ("[ERROR] LITE(1,f,converter_lite):2024-01-01-00:00:00.000.000 [mindspore/lite/tools/converter/anf_transform.cc:816]"
     " Transform] optimizer failed.", "MSLITE_CONVERTER_STAGE_FAILED", "(optimizer failed)"),
])
def test_the_wrappers_name_the_stage_that_passes_a_failure_on(kb, line, sig_id, said):
    # a wrapper explains its line without being the cause: it is matched, and said, but not a problem of its own
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == [sig_id]
    assert said in kb.signature(sig_id).text("en", line=line)[0]


def test_a_class_entry_gives_way_to_a_specific_one_on_its_line(kb):
    # the runtime's own line of a device that does not open is read by its entries (507033's and the plog's), not
    # by the application's report
    plog = "open device 0 failed,runtime result = 507033.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:162]"
    got = [s.id for s in kb.explaining(plog)]
    assert "DEV_SETUP_507033" in got and "ACL_APP_OPEN_DEVICE_FAILED" not in got
    # -300 is the converter's summary and the unsupported operator at once: the operator entry names it
    line = "[mindspore/lite/tools/converter/converter.cc:209] RunConverter] CONVERT RESULT FAILED:-300 Failed to find operator."
    assert [s.id for s in kb.explaining(line)] == ["MSLITE_CONVERTER_UNSUPPORTED_OP"]
    # MindX SDK's model-execute report carries MxBase's [code][meaning]: the execute entry reads it, not the scheme's
    line = ("E20231116 09:50:41.157967  2326 MxOmModelDesc.cpp:855] [507011][Error code unknown] Failed to model infer "
            "execute, details seen in CANN document.")
    assert [s.id for s in kb.explaining(line)] == ["OM_MODEL_EXECUTE_FAILED"]
    # CANN's own coded message after ggml-cann's init failure is read by the entries of CANN's codes
    line = ("ggml_cann_init: failed to initialize CANN: EE1001: [PID: 1] 2025-01-01-00:00:00.000.000 The argument is "
            "invalid.Reason: rtGetDeviceCount execute failed, reason=[driver error:no valid device]")
    assert "GGML_CANN_INIT_FAILED" not in [s.id for s in kb.explaining(line)]
    # a runtime call named in the samples' phrase is the runtime entry's
    assert [s.id for s in kb.explaining("[ERROR]  crop and paste aclrtSynchronizeStream failed, aclRet = 507011")] == [
        "CANN_RUNTIME_CALL_FAILED"]
    # pyACL's report with a code the AscendCL code entry reads is that entry's
    assert [s.id for s in kb.explaining("Exception: acl.rt.malloc failed ret=207001")] == ["ACL_RETURN_CODE"]
    # an AscendCL call's own report of a failed model call is the runtime entry's, not a second problem here
    assert [s.id for s in kb.explaining("aclmdlExecute failed, ret[507011]")] == ["CANN_RUNTIME_CALL_FAILED"]


@pytest.mark.parametrize("line", [
    "[INFO]  load model ../model/yolov3.om success",
    "[INFO] unload model success, modelId is 1",
    "[INFO]  model execute success",
    "[INFO] Execute model inference success",
    "[INFO] arg0 tensorsize: 196608 filesize: 196608",
    "[INFO] input size 602112, inputBufferSize 602112",
    "I20231116 09:50:40.316954  2326 FileUtils.cpp:472] Check Other group permission: Current permission is 4, but "
    "required no greater than 0.",
    "I20250101 08:00:00.000000  77 ModelInferenceProcessor.cpp:80] [ModelInfer] load model success",
    "CONVERT RESULT SUCCESS:0",
    "[INFO]  Copy data to device success, aclRet is 0",
    # a CANN plog line's [tid][function][step] is not MxBase's [code][meaning]
    "[ERROR] HCCL(60570,):2025-12-04-14:46:07.911.312 [hccl_socket.cc:106] [60570][HcclSocket][Listen] socket listen "
    "failed",
    "[ERROR] HCCL(80812,):2026-06-17-02:21:43.853.666 [transport_manager.cc:470] [80880][Alloc]call trace: hcclRet -> 9",
    "Mean bias of all nodes/tensors: 0.0123%",
    "[INFO] model version is MindSpore Lite 2.3.0",
    "[I  9/29  1:47:17.739 ...r/src/driver/huawei_ascend_npu/driver.cc:70 CreateProgram] Create program for "
    "huawei_ascend_npu.",
    "[W  1/ 2  3:04:05.678 ...nnadapter/src/driver/huawei_ascend_npu/driver.cc:60 CreateContext] Only supports "
    "specifying one device, so the first one is selected and others will be ignored.",
    "[INFO] fastdeploy/runtime/runtime.cc(300)::CreateLiteBackend	Runtime initialized with Backend::PDLITE in "
    "Device::ASCEND.",
    "/usr/bin/ld: warning: libfoo.so, needed by /opt/app/lib/libbar.so, not found (try using -rpath or -rpath-link)",
    "-- Found ascendcl: /usr/local/Ascend/ascend-toolkit/latest/lib64/libascendcl.so",
    "  TANH(type=f32,ne_a=[128,10,10,10],v=0): OK",
    "  ABS(type=f32,ne_a=[128,10,10,10],v=0): not supported [CUDA0] ",
    "[INFO] save out files ./result/2024_01_01-10_00_00/a_0.bin",
    "ImportError: /usr/lib/libfoo.so: undefined symbol: bar",
    "UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: "
    "'CPUExecutionProvider'",
    "Applied providers: ['CANNExecutionProvider', 'CPUExecutionProvider']",
    "Paddle-Lite supports this model!",
    "[INFO] dynamic batch size set to 4",
    "[INFO] acl.mdl.execute done, ret 0",
    "[I  3/ 1 10:00:00.000 ...Paddle-Lite/lite/core/program.cc:640 LoadProgram] create op conv2d",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, FAMILY) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # every example of a family entry is explained by that entry alone among the family
    assert family_overlaps(kb, FAMILY) == []
