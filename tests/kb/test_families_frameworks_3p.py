"""data/kb/families_frameworks_3p.json: third-party frameworks' NPU/CANN back ends. llama.cpp's ggml-cann backend (device
buffers aclrtMalloc could not allocate and the loader's lines after it, pinned host memory, the legacy buffer pool, an
operator without a kernel) and PaddleCustomDevice's NPU plugin (data types missing from its ACL and HCCL tables). Each
entry reads members its examples do not show, says the member in its title, stays quiet on ordinary lines that share
its words and on every clean excerpt of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_frameworks_3p")
FAMILY = IDS + ["GGML_CANN_BACKEND_ERROR", "GGML_CANN_INIT_FAILED", "GGML_ASSERT_FAILED", "FRAMEWORK_CANN_CALL_FAILED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert set(IDS) == {"GGML_CANN_DEVICE_MEMORY_ALLOC_FAILED", "GGML_CANN_BUFFER_POOL_FULL",
                        "GGML_CANN_PINNED_HOST_MEMORY_FAILED", "GGML_CANN_OP_NOT_SUPPORTED",
                        "PADDLE_NPU_DTYPE_NOT_SUPPORTED", "ORT_EP_DEVICE_ID_OUT_OF_RANGE",
                        "CANN_ENV_VARIABLE_KEYERROR", "GGML_CANN_VMM_POOL_EXHAUSTED"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_frameworks_3p.json" and sig.kind == "root"
        assert not sig.ascend_fd and not sig.fallback
        assert sig.severity == ("warn" if sid == "GGML_CANN_PINNED_HOST_MEMORY_FAILED" else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # ggml-cann's device allocation with no CANN code after it, and the loader's lines for another device
    ("ggml_backend_cann_buffer_type_alloc_buffer: allocating 61440.00 MiB on device 3: aclrtMalloc failed: ",
     "GGML_CANN_DEVICE_MEMORY_ALLOC_FAILED", "(61440.00 MiB) on NPU 3"),
    ("ggml_gallocr_reserve_n: failed to allocate CANN1 buffer of size 2147483648",
     "GGML_CANN_DEVICE_MEMORY_ALLOC_FAILED", "for buffer `CANN1`"),
    ("llama_model_load: error loading model: unable to allocate CANN2 buffer",
     "GGML_CANN_DEVICE_MEMORY_ALLOC_FAILED", "for buffer `CANN2`"),
    # the pinned host memory warning with nothing after it
    ("ggml_cann_host_malloc: failed to allocate 8.50 MiB of pinned memory: ",
     "GGML_CANN_PINNED_HOST_MEMORY_FAILED", "(8.50 MiB)"),
    # the legacy pool's abort under another path
    ("/opt/src/llama.cpp-b3600/ggml/src/ggml-cann.cpp:210: Cann buffer pool full, increase MAX_CANN_BUFFERS",
     "GGML_CANN_BUFFER_POOL_FULL", "MAX_CANN_BUFFERS"),
    # an operator the dispatcher has no kernel for, another op and node
    ("ggml_backend_cann_graph_compute: error: op not supported attn_norm-0 (RMS_NORM)",
     "GGML_CANN_OP_NOT_SUPPORTED", "operator RMS_NORM (node `attn_norm-0`)"),
    # PaddleCustomDevice: the NotFound form Paddle prints, and the HCCL table with a numeric type
    ("(NotFound) The data type complex64 can not convert to ACL data type.",
     "PADDLE_NPU_DTYPE_NOT_SUPPORTED", "data type `complex64` (ACL)"),
    ("E1105 10:00:00.123456 12345 runtime.cc:600] Datatype 11 in hccl is not supported.",
     "PADDLE_NPU_DTYPE_NOT_SUPPORTED", "data type `11` (hccl)"),
    # onnxruntime's device_id check in its log form; the KeyError for another of set_env.sh's variables
    ("2024-05-09 07:05:27.1 [E:onnxruntime:, inference_session.cc:1981 Initialize] Invalid device ID: 8, must be "
     "between 0 (inclusive) and 8 (exclusive).", "ORT_EP_DEVICE_ID_OUT_OF_RANGE",
     "device_id 8, but only 8 device(s) are visible"),
    # the virtual-memory pool's limit, printed without the file prefix
    ("GGML_ASSERT(pool_size + reserve_size <= max_size) failed", "GGML_CANN_VMM_POOL_EXHAUSTED", "memory pool"),
    ("KeyError: \"ASCEND_OPP_PATH\"", "CANN_ENV_VARIABLE_KEYERROR", "`ASCEND_OPP_PATH`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "load_tensors:        CANN0 model buffer size =  4403.49 MiB",
    "llama_kv_cache_unified:      CANN0 KV buffer size =   512.00 MiB",
    "llama_context:      CANN0 compute buffer size =   304.00 MiB",
    "load_tensors:    CANN_Host model buffer size =   333.84 MiB",
    "alloc_tensor_range: failed to allocate CUDA0 buffer of size 2147483648",
    "ggml_cuda_host_malloc: failed to allocate 1900,00 MiB of pinned memory: invalid argument",
    "        GGML_ABORT(\"Cann buffer pool full, increase MAX_CANN_BUFFERS\\n\");",
    "            GGML_LOG_ERROR(\"%s: error: op not supported %s (%s)\\n\", __func__,",
    "ggml_backend_cann_graph_compute: computing graph with 1234 nodes",
    "I1105 10:00:00.123456 12345 npu_op_runner.cc:180] NPU dtype:1 rank:2 dims: 8, 16 format:2",
    "W1105 10:00:00.123456 12345 gpu_resources.cc:119] Please NOTE: device: 0, dtype: float16",
    "Using device ID: 3 of 8 visible devices",
    "ASCEND_HOME_PATH=/usr/local/Ascend/ascend-toolkit/latest",
    "KeyError: 'ASCEND_RT_VISIBLE_DEVICES'",
    "            GGML_ASSERT(pool_size + reserve_size <= max_size);",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


@pytest.mark.parametrize("line, sig_id, said", [
    # OpenCV's cannops module: CV_ACL_SAFE_CALL raises cv::error with CANN's last message, here empty
    ("cv2.error: OpenCV(4.10.0) /home/u/opencv_contrib/modules/cannops/src/cann_call.cpp:326: error: "
     "(-2:Unspecified error)  in function 'initAcl'", "FRAMEWORK_CANN_CALL_FAILED",
     "The NPU backend of OpenCV failed in a CANN call (`initAcl`)"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


def test_the_extended_entry_stays_quiet_on_other_opencv_errors(kb):
    line = ("cv2.error: OpenCV(4.10.0) /home/u/opencv_contrib/modules/cannops/src/cann_call.cpp:254: error: "
            "(-5:Bad argument) Unknown/unsupported matrix format in function 'AscendTensor'")
    assert "FRAMEWORK_CANN_CALL_FAILED" not in [s.id for s in kb.match_line(line)]
