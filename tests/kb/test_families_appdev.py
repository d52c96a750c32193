"""data/kb/families_appdev.json: application development and deployment of inference on Ascend, read in the forms
their own sources and documented cases print. DVPP's JPEG decoder (JPEG kinds it does not decode, incomplete data)
and the size limits Vision SDK checks before DVPP, the device-side task scheduler (TSCH) and AI CPU error lines, an
offline model built for another chip, MEF's cloud-edge token, TLS certificate and proxy failures of edge and
installation tools, container images still in use, scripts that cannot be executed, .run packages that cannot unpack.
Each entry reads members its examples do not show, says what the line gives, gives way to a specific entry, stays
quiet on ordinary lines and on every clean excerpt."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_appdev")
# the members of neighbouring families a line of this area could also reach
FAMILY = IDS + ["TLS_CERTIFICATE_NOT_TRUSTED", "SHELL_EXEC_PERMISSION_DENIED", "INSTALL_PACKAGE_ARCHIVE_CORRUPTED",
                "CONTAINER_IMAGE_IN_USE", "K8S_POD_EVICTED_NODE_PRESSURE", "OM_MODEL_LOAD_FAILED", "MXBASE_APP_ERROR_LOGGED", "AICPU_KERNEL_SO_LOAD_FAILED",
                "SHELL_SCRIPT_WINDOWS_LINE_ENDINGS"]
CLASS_ENTRIES = {"TSCH_DEVICE_ERROR_LOGGED", "AICPU_DEVICE_ERROR_LOGGED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_class_and_specific_entries_without_peer_ids(kb):
    assert len(IDS) == len(set(IDS)) == 18
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_appdev.json" and not sig.ascend_fd
        assert sig.kind == "root", sid
        assert bool(sig.fallback) == (sid in CLASS_ENTRIES), sid
        assert sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # DVPP's JPEG decoder: the kind it names, Vision SDK's report of the same
    ("[ERROR] DVPP(1,app):2024-01-01-00:00:00.000.000 [jpegd.c:120] do not support arithmetic code, support huffman "
     "code only", "DVPP_JPEGD_UNSUPPORTED_JPEG", ": arithmetic code is not supported"),
    ("Unsupported subsample format, just support jpeg with YUV 444 440 422 420 400", "DVPP_JPEGD_UNSUPPORTED_JPEG",
     ": Unsupported subsample format is not supported"),
    # the data cut short: the driver's line, OpenCV's libjpeg warning in a Python log (Pillow's is PIL_IMAGE_FILE_TRUNCATED's)
    ("[ERROR] DVPP: EOI segment of the stream is invalid, it should be FFD9. Try software decoding",
     "DVPP_JPEG_DATA_INCOMPLETE", "damaged: , it should be FFD9"),
    ("[ WARN:0@1.234] global loadsave.cpp:248 findDecoder Premature end of JPEG file", "DVPP_JPEG_DATA_INCOMPLETE",
     "Premature end of JPEG file"),
    # the size limits, in Vision SDK's other forms
    ("E20250101 08:00:00.000000  77 Image.cpp:300] Aligned height should be in [32, 4096] and aligned with 2. "
     "(Code = 1001, Message = \"General Failed\")", "DVPP_IMAGE_SIZE_OUT_OF_RANGE", "Aligned height is outside"),
    ("Vdec resize width(5000) is out of range[32, 4096]", "DVPP_IMAGE_SIZE_OUT_OF_RANGE",
     "Vdec resize width (5000) is outside what the media processing (DVPP) accepts ([32, 4096])"),
    ("Get invalid width(16), which should be in the range of [32, 8192].", "DVPP_IMAGE_SIZE_OUT_OF_RANGE",
     "width (16)"),
    # the device side: another TSCH step, another AI CPU process, the unbind in its own words
    ("[ERROR] TSCH(-1,null):2022-06-01-10:00:00.000.000 991 (cpuid:1) tsch_stream.c:88 proc_stream_destroy: stream 5 "
     "has 3 tasks not finished", "TSCH_DEVICE_ERROR_LOGGED", "`proc_stream_destroy`: stream 5 has 3 tasks"),
    ("[ERROR] TSCH(-1,null):2022-06-01-10:00:00.000.000 991 (cpuid:1) task_scheduler_engine.c:707 "
     "proc_model_stream_unbind: unbind model stream failed, stream is running. stream->model_id=7, model_id=7",
     "TSCH_MODEL_STREAM_UNBIND_RUNNING", "(unbind model stream failed): the stream is running (model 7)"),
    ("[ERROR] AICPU(4410,aicpu_scheduler):2024-07-01-12:00:00.000.000 [aicpusd_model_execute.cc:310]"
     "[ExecuteModel][tid:4420] model 3 execute failed, ret=21", "AICPU_DEVICE_ERROR_LOGGED",
     "(aicpu_scheduler) reported an error in `ExecuteModel`: model 3 execute failed"),
    # an offline model of another chip, in the plog's E10001 wording
    ("E10001: Value [Ascend310] for parameter [soc_version] is invalid. Reason: Model soc version is not support in "
     "this device.", "OM_MODEL_SOC_VERSION_MISMATCH", "soc version `Ascend310` is not supported"),
    # TLS: Go's other reasons, Python's reason
    ("Error: failed to get edge certificate from the cloudcore, error: Get \"https://10.0.0.1:10002/edge.crt\": "
     "x509: cannot validate certificate for 10.0.0.1 because it doesn't contain any IP SANs", "TLS_CERTIFICATE_NAME_MISMATCH",
     "(`10.0.0.1`)"),
    ("urllib3.exceptions.SSLError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: certificate has "
     "expired (_ssl.c:1131)", "TLS_CERTIFICATE_EXPIRED", "(`certificate has expired`)"),
    ("pip._vendor.urllib3.exceptions.SSLError: [SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1129)",
     "TLS_WRONG_VERSION_NUMBER_PROXY", "a proxy or port speaks plain HTTP"),
    # MEF's token: the lock after repeated failures
    ("[ERROR] 2024/05/01 10:00:00.000000 9 config_mef.go:399 auth failed by center: ip is lock",
     "MEF_EDGE_AUTH_TOKEN_REJECTED", "token: ip is lock"),
    # an image of a stopped container; a script under sh; a package unpacked in /tmp; a damaged package
    ("Error response from daemon: conflict: unable to delete 0a1b2c3d4e5f (must be forced) - image is being used by "
     "stopped container 9f8e7d6c5b4a", "CONTAINER_IMAGE_IN_USE", "image is being used by stopped container 9f8e7d6c5b4a"),
    ("sh: 1: ./Ascend-hdk-910b-npu-driver_24.1.0_linux-aarch64.run: Permission denied",
     "SHELL_EXEC_PERMISSION_DENIED", "`./Ascend-hdk-910b-npu-driver_24.1.0_linux-aarch64.run`"),
    ("Not enough space left in /tmp (1024 KB) to decompress ./Ascend-cann-kernels-910b_8.0.0_linux.run (900000 KB)",
     "RUN_PACKAGE_NO_SPACE_TO_EXTRACT", "`/tmp` (1024 KB free, 900000 KB needed)"),
    ("Error in SHA256 checksums: abc123 is different from def456", "INSTALL_PACKAGE_ARCHIVE_CORRUPTED",
     "Error in SHA256 checksums"),
    # Vision SDK: the plugin path not set, a plugin GStreamer does not know
    ("E20250101 10:00:00.000000  77 MxStreamManagerDptr.cpp:522] Handle environment: GST_PLUGIN_PATH failed. "
     "(Code = 1001, Message = \"General Failed\")", "MXVISION_SDK_ENV_NOT_SET", "(`GST_PLUGIN_PATH`)"),
    ("WARNING: erroneous pipeline: no element \"mxpi_modelinfer\"", "MXVISION_PLUGIN_NOT_FOUND", "(`mxpi_modelinfer`)"),
    # ATC's AIPP: dynamic dims with AIPP, an fp16 input that AIPP feeds
    ("E10001: Value [--dynamic_dims] for parameter [--insert_op_conf] is invalid. Reason: The dynamic dims function "
     "does not support AIPP.", "AIPP_CONFIG_INVALID", ": dynamic dims function does not support AIPP"),
    ("[ERROR] GE(1,atc.bin):2024-01-01-10:00:00.000.000 [insert_aipp_op_util.cc:300]1 [Get][Attr] This input op "
     "[data] is linked to aipp, cannot be set to fp16, please check your atc parameter --insert_op_conf, "
     "--input_fp16_nodes.", "AIPP_CONFIG_INVALID", "is linked to aipp, cannot be set to fp16"),
    ("The parameter var_reci_chn_2 cannot be configured repeatedly", "AIPP_CONFIG_INVALID",
     "var_reci_chn_2 cannot be configured repeatedly"),
    # the samples' video input: an H.264 profile DVPP does not decode, a camera that gives nothing, an RTSP source
    ("[ERROR] Unsurpport h264 profile 244 , decode as main level", "DVPP_VDEC_UNSUPPORTED_STREAM",
     "(h264, profile 244)"),
    ("[ERROR] Read camera 2 failed", "VIDEO_SOURCE_OPEN_FAILED", "(camera 2)"),
    ("[ERROR] rtsp://10.1.1.5/live has no video stream", "VIDEO_SOURCE_OPEN_FAILED", "(rtsp://10.1.1.5/live)"),
    # MEF's documented cases: a base image BuildKit looks up online, a node-pressure eviction in the older form
    ("#5 ERROR: failed to resolve source metadata for swr.example.com/mef/ubuntu:22.04: unexpected status code 401",
     "DOCKER_BUILD_BASE_IMAGE_UNRESOLVED", "`swr.example.com/mef/ubuntu:22.04`"),
    ("Message: The node was low on resource: [DiskPressure].", "K8S_POD_EVICTED_NODE_PRESSURE",
     "the node ran low on DiskPressure"),
    # ATC's pre-check of another operator type (a TensorFlow op)
    ("[ERROR] GE(1,atc.bin):2023-05-01-10:00:00.000.000 [pre_checker.cc:273]1 CheckType: Check op[nms/NonMaxSuppressionV5]"
     "'s type[NonMaxSuppressionV5] failed, it is not supported.", "ATC_OP_TYPE_UNSUPPORTED",
     "operator `nms/NonMaxSuppressionV5` of type `NonMaxSuppressionV5` is not supported"),
    # DVPP's channels: the decoder's in Vision SDK's words
    ("E20250101 10:00:00.000000  77 DvppWrapper.cpp:900] Failed to create vdec channel, vdec channelId is out of "
     "range, vdec channelId:256", "DVPP_CHANNEL_UNAVAILABLE", "No DVPP vdec channel could be created"),
    # ACLLite's 'failed, error: <code>' phrase is the application-step entry's (families_edge.json)
    ("[ERROR] Video decoder set context failed, error: 107002", "ACL_APP_CALL_FAILED_ACLRET",
     "(`Video decoder set context`) with code 107002 (ACL_ERROR_RT_CONTEXT_NULL)"),
    ("[ERROR] Malloc dvpp memory failed, error:207001", "ACL_APP_CALL_FAILED_ACLRET",
     "with code 207001 (ACL_ERROR_RT_MEMORY_ALLOCATION)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


def test_a_class_entry_gives_way_to_a_specific_one_on_its_line(kb):
    # the unbind failure is the task scheduler's line: its own entry names it, not the class of TSCH errors
    line = ("[ERROR] TSCH(-1,null):2020-09-04-21:51:13.452.762 63696 (cpuid:0) task_scheduler_engine.c:707 "
            "proc_model_stream_unbind: unbind model stream failed, stream is running. stream->model_id=512")
    assert [s.id for s in kb.explaining(line)] == ["TSCH_MODEL_STREAM_UNBIND_RUNNING"]
    # the AI CPU kernel library that does not load is its entry's, not the class of AI CPU errors
    line = ("[ERROR] CCECPU(9,aicpu_scheduler):2024-01-01-00:00:00.000.000 [ae_so_manager.cc:571][CreateSingleSoMgr]"
            "[tid:10][AICPU_PROCESSER] Single so manager init failed, soFile is /usr/lib64/aicpu_kernels/0/"
            "aicpu_kernels_device/libtf_kernels.so")
    assert [s.id for s in kb.explaining(line)] == ["AICPU_KERNEL_SO_LOAD_FAILED"]
    # Vision SDK's size check carries MxBase's (Code = ..., Message = ...): the size entry names it, not the scheme's
    line = ("E20240101 08:00:00.000000  77 Image.cpp:100] Height should be in [32, 8192], the actual height is 9000. "
            "(Code = 1001, Message = \"General Failed\")")
    assert [s.id for s in kb.explaining(line)] == ["DVPP_IMAGE_SIZE_OUT_OF_RANGE"]
    # ACLLite's device-memory report is the memory entry's, not a second problem of the application-step entry
    assert [s.id for s in kb.explaining("[ERROR] Malloc device memory failed, error: 207001")] == [
        "MEMORY_EXHAUSTED_REPORTED"]


@pytest.mark.parametrize("line", [
    "[INFO] JpegD decode image success, width 1920, height 1080",
    "[INFO] DVPP: jpeg decode 100 pictures, progressive mode off",
    "Corrupt JPEG data: 2 extraneous bytes before marker 0xd9",
    "IndexError: list index out of range",
    "ValueError: height out of range",
    "[INFO] resize width 640 height 640",
    "[INFO] TSCH(-1,null):2020-09-04-21:51:13.452.762 63696 (cpuid:0) task_scheduler_engine.c:700 "
    "proc_model_stream_bind: bind model stream success",
    "[EVENT] TSCH(-1,null):2020-09-04-21:51:13.452.762 63696 (cpuid:0) tsch_init.c:10 tsch_init: version 1.0",
    "[INFO] AICPU(26559,aicpu_scheduler):2025-02-25-18:46:51.678.981 [aicpusd_worker.cc:80][Run][tid:26572] start",
    "[DEBUG] AICPU(26559,aicpu_scheduler):2025-02-25-18:46:51.678.981 [aicpusd_worker.cc:80][Run][tid:26572] ret=0",
    "[INFO] GE(3021,app):2025-01-01-10:00:00.000.000 [om_file_helper.cc:278]3021 The soc version [Ascend310P3]. "
    "Check compatibility is 1.",
    "[INFO] 2024/05/01 10:00:00.000000 1234 init_client.go:91 mef edgehub cert exists and valid",
    "certificate verify ok",
    "subject=CN = edge.local; x509 version 3",
    "SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384",
    "[INFO] token is valid for 7 days",
    "Untagged: ascend-nginx-manager:v1",
    "Error response from daemon: No such image: ascend-infer:v1",
    "ls: cannot access '/root/x': Permission denied",
    "chmod u+x install.sh",
    "Verifying archive integrity...  100%   SHA256 checksums are OK. All good.",
    "Uncompressing ASCEND DRIVER RUN PACKAGE  100%",
    "aipp_mode : dynamic",
    "[INFO] GE(1,atc.bin):2024-01-01-10:00:00.000.000 [aipp_op.cc:700]1 parse aipp params:input_format:RGB888_U8, "
    "csc_switch:0.",
    "I20250101 10:00:00.000000  77 MxStreamManager.cpp:120] Create pipeline with MX_SDK_HOME=/opt/mxVision",
    "Factory Details: Long-name mxpi_tensorinfer",
    "[INFO] Open camera 0 success",
    "#2 [internal] load metadata for docker.io/library/ubuntu:22.04",
    "DiskPressure     False   KubeletHasNoDiskPressure     kubelet has no disk pressure",
    "[INFO] Get video.mp4 infomation: width 1920, height 1080, profile 100, codec h264",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, FAMILY) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # every example of a family entry is explained by that entry alone among the family
    assert family_overlaps(kb, FAMILY) == []
