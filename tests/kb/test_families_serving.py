"""data/kb/families_serving.json and the members of its families elsewhere: the serving stacks on Ascend, read in the
forms their own sources print. MindIE's errors with their codes said by what the parts mean (logger_def.h's scheme,
mindie_llm's ErrorCode), its HTTP endpoint's listen failure with the address, ATB operations failing in torch_npu's
op-plugin, MindIE's ATB models, the ATB library and lmdeploy's dlinfer with the operation, the stage and
atb::ErrorType's meaning, a framework's parallel group or config used before its initialisation, vLLM's KV cache too
small for max_model_len, length settings vLLM rejects, an extension with an undefined symbol of the NPU stack, an
HCCL call of vLLM-Ascend's pyhccl. Each entry reads members its examples do not show, says what the line gives, gives way to a specific
entry and leaves the wrapper's lines to the wrapper, stays quiet on ordinary lines and on every clean excerpt."""

import os

import pytest

from ascend_doctor.data import load_data_file
from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_serving")
FAMILY = IDS + ["MINDIE_ENGINE_INIT_FAILED", "NNAL_ATB_NOT_FOUND", "MODEL_ARCHITECTURE_NOT_SUPPORTED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_class_and_specific_entries_without_peer_ids(kb):
    assert set(IDS) == {"MINDIE_ERROR_LOGGED", "MINDIE_HTTP_LISTEN_FAILED", "ATB_OPERATION_FAILED",
                        "FRAMEWORK_STATE_NOT_INITIALIZED", "VLLM_MAX_MODEL_LEN_EXCEEDS_KV_CACHE",
                        "NPU_EXTENSION_UNDEFINED_SYMBOL",
                        "VLLM_MAX_MODEL_LEN_SETTING_REJECTED", "PYHCCL_CALL_FAILED", "TRACEBACK_ASSERT_CHECK"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_serving.json" and sig.kind == "root" and not sig.ascend_fd
    assert not kb.signature("MINDIE_HTTP_LISTEN_FAILED").fallback
    assert not kb.signature("VLLM_MAX_MODEL_LEN_EXCEEDS_KV_CACHE").fallback
    assert all(kb.signature(s).fallback for s in ("MINDIE_ERROR_LOGGED", "ATB_OPERATION_FAILED",
                                                  "FRAMEWORK_STATE_NOT_INITIALIZED", "NPU_EXTENSION_UNDEFINED_SYMBOL",
                                                  "VLLM_MAX_MODEL_LEN_SETTING_REJECTED", "PYHCCL_CALL_FAILED",
                                                  "TRACEBACK_ASSERT_CHECK"))
    # a traceback's assert line is code: the entry that reads it is a code-line reader and only warns
    assert kb.signature("TRACEBACK_ASSERT_CHECK").code_line and kb.signature("TRACEBACK_ASSERT_CHECK").severity == "warn"


def test_the_code_tables_are_the_sources_enums():
    table = load_data_file("serving_error_codes.json")
    # atb::ErrorType counts from NO_ERROR = 0 (not listed: success says nothing) to ERROR_OUT_OF_HOST_MEMORY = 27
    atb = table["atb_status"]
    assert sorted(map(int, atb)) == list(range(1, 28))
    assert (atb["1"]["name"], atb["12"]["name"], atb["26"]["name"]) == (
        "ERROR_INVALID_PARAM", "ERROR_CANN_ERROR", "ERROR_OUT_OF_DEVICE_MEMORY")
    # logger_def.h: sub-module 02 is the endpoint, feature 04 single inference, type 1C init error
    assert table["mindie_server_modules"]["02"] == "endpoint"
    assert table["mindie_server_features"]["04"] == "single_inference"
    assert table["mindie_server_error_types"]["1C"]["name"] == "INIT_ERROR"
    assert table["mindie_llm_codes"]["MIE05E020001"] == "BACKEND_INIT_FAILED"


@pytest.mark.parametrize("code, meaning", [
    ("MIE04E02041C", "endpoint/single_inference: initialisation error"),
    ("MIE04E01011B", "daemon/init: configuration check error"),
    ("MIE05E000005", "ATB_MODELS_OUT_OF_MEMORY"),
    ("MIE04E99041C", None),  # a sub-module logger_def.h does not define: the code alone
    ("MIE05E040001", None),  # used by infer_instances.cpp, in no enum
])
def test_a_mindie_code_says_its_parts(code, meaning):
    from ascend_doctor.kb.model import DERIVED_VALUES

    assert DERIVED_VALUES["mindie_code"](code).get("mindie_meaning") == meaning


def test_an_atb_status_is_said_in_the_runs_language():
    from ascend_doctor.i18n import set_lang
    from ascend_doctor.kb.model import DERIVED_VALUES

    try:
        set_lang("zh")
        zh = DERIVED_VALUES["atb_status"]("12")
    finally:
        set_lang("en")
    known = load_data_file("serving_error_codes.json")["atb_status"]["12"]
    assert zh == {"atb_name": "ERROR_CANN_ERROR", "atb_meaning": known["meaning_zh"]}
    assert DERIVED_VALUES["atb_status"]("12") == {"atb_name": "ERROR_CANN_ERROR", "atb_meaning": known["meaning"]}
    assert DERIVED_VALUES["atb_status"]("0") == {} and DERIVED_VALUES["atb_status"]("99") == {}


@pytest.mark.parametrize("line, sig_id, said", [
    # MindIE: another sub-module and type, the simple log format, the LLM engine's ErrorCodeException
    ("[2026-02-01 08:00:00.000+08:00] [9] [12] [server] [ERROR] [tokenizer.cpp:88] : [MIE04E040604] [tokenizer] "
     "Failed to parse request: invalid json", "MINDIE_ERROR_LOGGED",
     "(MIE04E040604: tokenizer/tokenizer: request parameter parse error): Failed to parse request: invalid json"),
    ("[2026-02-01 08:00:00.000+08:00] : [CRITICAL] [MIE05E01000A] Out of memory while generating",
     "MINDIE_ERROR_LOGGED", "(MIE05E01000A: TEXT_GENERATOR_OUT_OF_MEMORY)"),
    ("[2026-05-01 10:00:00.000000] [12] [13] [llm] [ERROR] [config_manager.cpp:210] modelDeployParam is empty, "
     "please provide model deployment config", "MINDIE_ERROR_LOGGED",
     "at config_manager.cpp:210: modelDeployParam is empty"),
    ("[2026-01-01 10:00:00,123] [77] [140000] [llm] [ERROR] [generator_backend.py-210] : [] Failed to load model "
     "weights: shape mismatch", "MINDIE_ERROR_LOGGED", "at generator_backend.py-210: Failed to load model weights"),
    ("RuntimeError: BACKEND_INIT_FAILED fault happened, error code: MIE05E020001.", "MINDIE_ERROR_LOGGED",
     "(MIE05E020001: BACKEND_INIT_FAILED)"),
    # the listen failure of the management plane, and a port-only form
    ("[2026-01-08 09:00:01.100+08:00] [51] [60] [server] [ERROR] [http_server.cpp:271] : [MIE04E02041C] [endpoint] "
     "Failed to listen 10.0.0.8:1026, please check if management ip and port are legal.", "MINDIE_HTTP_LISTEN_FAILED",
     "`10.0.0.8:1026`"),
    ("[server] [ERROR] [http_server.cpp:259] : [MIE04E02041C] [endpoint] Init business http server failed! "
     "Port is 8080",
     "MINDIE_HTTP_LISTEN_FAILED", "(port `8080`)"),
    # the wrapper keeps its lines: MindIE's own code on them does not make them a cause
    ("[2026-01-08 09:00:01.200+08:00] [51] [60] [server] [ERROR] [endpoint.cpp:106] : [MIE04E02011C] [endpoint] "
     "Init process tokenizer pool failed.", "MINDIE_ENGINE_INIT_FAILED", "(MIE04E02011C)"),
    # an unsupported model in MindIE's ATB models
    ("ValueError: unsupported model type: deepseek_vl2.", "MODEL_ARCHITECTURE_NOT_SUPPORTED", "(`deepseek_vl2`)"),
    # ATB: another operation through torch_npu, MindIE's ATB models, dlinfer's graph runtime
    ("[rank3]: RuntimeError: SelfAttentionOperation setup failed!", "ATB_OPERATION_FAILED",
     "`SelfAttentionOperation` failed at setup"),
    ("RuntimeError: LinearOperation setup fail, not call execute, error code: 6", "ATB_OPERATION_FAILED",
     "`LinearOperation` failed at setup, status 6 (ERROR_INVALID_TENSOR_DTYPE: wrong tensor data type)"),
    ("[2026-03-01 10:00:00.000] [1] [2] [llmmodels] [ERROR] [operation.cpp:206] : [MIE05E000002] "
     "PagedAttention_layer_3 atb operation execute fail, error:26", "ATB_OPERATION_FAILED",
     "status 26 (ERROR_OUT_OF_DEVICE_MEMORY: out of device memory)"),
    ("[2025-05-06 10:00:00.001] [dicp] [error] [model.cpp:480] atb CreateOperation graph failed, st: 1",
     "ATB_OPERATION_FAILED", "failed at CreateOperation, status 1 (ERROR_INVALID_PARAM: invalid parameter)"),
    # the framework's state: SGLang's expert group, Megatron's capitalised form
    ("AssertionError: expert model parallel group is not initialized", "FRAMEWORK_STATE_NOT_INITIALIZED",
     "`expert model parallel group` was used before it was initialised"),
    ("RuntimeError: Tensor model parallel group is not initialized", "FRAMEWORK_STATE_NOT_INITIALIZED",
     "`Tensor model parallel group`"),
    # vLLM's KV cache check: the old form without the count, the v1 form behind a Ray actor's prefix
    ("ValueError: The model's max seq len (163840) is larger than the maximum number of tokens that can be stored in "
     "KV cache", "VLLM_MAX_MODEL_LEN_EXCEEDS_KV_CACHE", "maximum length (163840 tokens)"),
    ("(LLMRayActor pid=20770) ValueError: To serve at least one request with the models's max seq len (131072), "
     "(16.00 GiB KV cache is needed, which is larger than the available KV cache memory (4.12 GiB).",
     "VLLM_MAX_MODEL_LEN_EXCEEDS_KV_CACHE", "(131072 tokens): 16.00 GiB needed, 4.12 GiB available"),
    # an extension built against another torch_npu / ATB, a C function of HCCL
    ("ImportError: /root/lmdeploy/lmdeploy/lib/_turbomind_npu.cpython-310-aarch64-linux-gnu.so: undefined symbol: "
     "_ZN6at_npu6native19get_npu_format_sizeEl", "NPU_EXTENSION_UNDEFINED_SYMBOL",
     "`_turbomind_npu.cpython-310-aarch64-linux-gnu.so` has an undefined symbol of the NPU stack"),
    ("OSError: ./libcustom_comm.so: undefined symbol: HcclCommInitClusterInfoConfig", "NPU_EXTENSION_UNDEFINED_SYMBOL",
     "(namespace `Hccl`)"),
    # length settings vLLM rejects: pydantic's 'Value error,' form behind the API server's prefix
    ("(APIServer pid=9) Value error, User-specified max_model_len (262144) is greater than the derived max_model_len "
     "(max_position_embeddings=40960 or model_max_length=None in model's config.json).",
     "VLLM_MAX_MODEL_LEN_SETTING_REJECTED", "max_model_len 262144 is above what the model's config allows"),
    ("pydantic_core._pydantic_core.ValidationError: 1 validation error for SchedulerConfig  Value error, "
     "max_num_batched_tokens (4096) is smaller than max_model_len (1010000).", "VLLM_MAX_MODEL_LEN_SETTING_REJECTED",
     "max_model_len 1010000 is above max_num_batched_tokens 4096"),
    # vLLM-Ascend's pyhccl: another result behind the worker prefix; a library that does not load for another reason
    ("(Worker_TP0 pid=77) ERROR 01-02 03:04:05 [multiproc_executor.py:654] RuntimeError: HCCL error: HCCL_E_TIMEOUT",
     "PYHCCL_CALL_FAILED", "HCCL error `HCCL_E_TIMEOUT`"),
    ("ERROR 01-02 03:04:05 [pyhccl_wrapper.py:186] Failed to load HCCL library. so_file=/opt/hccl/libhccl.so, "
     "error=invalid ELF header.", "PYHCCL_CALL_FAILED", "the HCCL library `/opt/hccl/libhccl.so` could not be loaded"),
    # an assert in a traceback: vLLM-Ascend's block-size check behind a worker prefix, a membership check
    ("(Worker_DP0_TP1 pid=9) ERROR 03-01 10:00:00 [multiproc_executor.py:654]     assert remote_block_size % "
     "kernel_size == 0, (", "TRACEBACK_ASSERT_CHECK", "`assert remote_block_size % kernel_size == 0, (`"),
    ("    assert quant_type in SUPPORTED_TYPES", "TRACEBACK_ASSERT_CHECK", "`assert quant_type in SUPPORTED_TYPES`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "[2025-11-25 17:59:09.908+08:00] [240] [245] [server] [WARN] [llm_daemon.cpp:204] : [MIE04W01011A] [daemon] "
    "Received exit signal[6], pid[240].",
    "[2025-06-12 08:08:20.100+00:00] [12646] [12648] [server] [INFO] [endpoint.cpp:30] : [endpoint] "
    "Start to init engine",
    "[2025-12-15 15:19:22.682+08:00] [38] [ubuntu] [system] [server] [Start mindie server] [success]",
    "[2025-04-15 16:40:01.126397] [17310] [281473799454720] [llm] [INFO] [llm_manager_impl.cpp:68] "
    "LLMRuntime init success!",
    "[INFO] ZerosOperation setup success, workspace size: 0",
    "Environment setup failed! Please rerun install.sh",
    "rtKernelLaunch execute failed, reason=[module new memory error]",
    "INFO 10-24 12:07:28 [parallel_state.py:1] tensor model parallel group is not initialized yet, creating it",
    "(EngineCore_DP0 pid=1) INFO 10-24 12:07:28 [ascend_config.py:1] Ascend config is not initialized. Please call "
    "init_ascend_config first.",
    "    if \"tensor model parallel group is not initialized\" in str(exc):",
    "[INFO] test case 'unsupported model type' skipped",
    "INFO 10-09 21:14:07 [kv_cache_utils.py:1] Maximum concurrency for 32768 tokens per request: 1.56x",
    "ImportError: /usr/lib/libfoo.so: undefined symbol: bar",
    "ImportError: /usr/local/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
    "ncclCommRegister",
    "        assert x == 1",
    "    assert_close(a, b)",
    "    assert callback(x)",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, FAMILY) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # every example of a family entry is explained by that entry alone among the family
    assert family_overlaps(kb, FAMILY) == []
