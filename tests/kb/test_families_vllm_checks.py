"""data/kb/families_vllm_checks.json: vLLM's own checks and runtime messages as a user's `vllm serve` / `LLM(...)` trips
them (chat templates, request length and model name on the OpenAI server, LoRA rank, world size, quantization against
dtype and GPU capability, gpu_memory_utilization, float16-unsafe model types, unknown argument values, pydantic's
validation lines of the engine config, the engine core's death, worker RPC timeouts, a tokenizer class not loadable).
Each entry reads members its examples do not show, says the member in its title, stays quiet on ordinary lines that
share its words and on every clean excerpt of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_vllm_checks")
# members of other parts' families this part's sources extend (vLLM's form of the remote-code refusal)
EXTENDED = ["MODEL_REMOTE_CODE_NOT_TRUSTED"]
FAMILY = IDS + EXTENDED + ["VLLM_MAX_MODEL_LEN_SETTING_REJECTED", "VLLM_MAX_MODEL_LEN_EXCEEDS_KV_CACHE",
                           "QUANTIZATION_METHOD_NOT_SUPPORTED", "LAUNCHER_WORKER_EXITED_WITH_ERROR",
                           "VLLM_MODEL_ARCH_INSPECT_FAILED", "LLM_STACK_CONFIG_VALUE_REJECTED"]
CLASS = {"PYDANTIC_FIELD_VALUE_REJECTED", "VLLM_ARG_VALUE_UNKNOWN"}
WRAPPERS = {"VLLM_CONFIG_VALIDATION_FAILED", "VLLM_ENGINE_CORE_DEAD"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert set(IDS) == {"VLLM_CHAT_TEMPLATE_MISSING", "VLLM_CHAT_TEMPLATE_PATH_NOT_FOUND",
                        "VLLM_REQUEST_EXCEEDS_CONTEXT_LENGTH", "VLLM_SERVED_MODEL_NAME_NOT_FOUND",
                        "VLLM_LORA_RANK_ABOVE_MAX", "VLLM_WORLD_SIZE_EXCEEDS_NODE_DEVICES",
                        "VLLM_QUANTIZATION_DTYPE_UNSUPPORTED", "VLLM_QUANTIZATION_NEEDS_NEWER_GPU",
                        "VLLM_GPU_MEMORY_UTILIZATION_OUT_OF_RANGE", "PYDANTIC_FIELD_VALUE_REJECTED",
                        "VLLM_CONFIG_VALIDATION_FAILED", "VLLM_ENGINE_CORE_DEAD", "VLLM_WORKER_RPC_TIMEOUT",
                        "VLLM_MODEL_FLOAT16_NOT_SUPPORTED", "VLLM_ARG_VALUE_UNKNOWN",
                        "VLLM_TOKENIZER_CLASS_NOT_LOADABLE"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_vllm_checks.json" and not sig.ascend_fd
        assert sig.kind == ("wrapper" if sid in WRAPPERS else "root"), sid
        assert sig.fallback == (sid in CLASS) and sig.severity == "fail", sid
    assert kb.signature("PYDANTIC_FIELD_VALUE_REJECTED").last_resort


@pytest.mark.parametrize("line, sig_id, said", [
    # the chat template missing, in the engine core's log form; a request's template path
    ("(APIServer pid=1) ERROR 12-06 13:20:11 [serving_chat.py:230] vllm.entrypoints.chat_utils."
     "ChatTemplateResolutionError: As of transformers v4.44, default chat template is no longer allowed, so you must "
     "provide a chat template if the tokenizer does not define one.", "VLLM_CHAT_TEMPLATE_MISSING",
     "the tokenizer defines none"),
    ("FileNotFoundError: the supplied chat template path doesn't exist", "VLLM_CHAT_TEMPLATE_PATH_NOT_FOUND",
     "the path does not exist"),
    # request length: the completion form, the character bound, the encoder prompt
    ("ERROR 07-22 08:51:06 [serving_completion.py:131] ValueError: This model's maximum context length is 2048 tokens. "
     "However, you requested 2100 tokens (100 in the messages, 2000 in the completion).",
     "VLLM_REQUEST_EXCEEDS_CONTEXT_LENGTH", "context length of 2048 tokens (max_model_len): you requested 2100 tokens"),
    ("vllm.exceptions.VLLMValidationError: This model's maximum context length is 8192 tokens. However, your prompt "
     "contains 90000 characters (more than 65536 characters, which is the upper bound for 8192 input tokens).",
     "VLLM_REQUEST_EXCEEDS_CONTEXT_LENGTH", "your prompt contains 90000 characters"),
    ("ValueError: The encoder prompt (length 1600) is longer than the maximum model length of 1500.",
     "VLLM_REQUEST_EXCEEDS_CONTEXT_LENGTH", "of 1500 tokens (max_model_len): the prompt has 1600 tokens"),
    ("openai.NotFoundError: Error code: 404 - {'error': {'message': 'The model `qwen` does not exist. Valid aliases: "
     "Qwen3-8B, qwen3.', 'type': 'NotFoundError', 'param': 'model', 'code': 404}}", "VLLM_SERVED_MODEL_NAME_NOT_FOUND",
     "`qwen`, which this vLLM server does not serve: it serves `Qwen3-8B, qwen3`"),
    ("(EngineCore_DP0 pid=86) ERROR 06-01 13:18:12 [core.py:1341] ValueError: LoRA rank 128 is greater than "
     "max_lora_rank 64.", "VLLM_LORA_RANK_ABOVE_MAX", "rank (128) is above vLLM's max_lora_rank (64)"),
    ("ValueError: World size (8) is larger than the number of available GPUs (4) in this node.",
     "VLLM_WORLD_SIZE_EXCEEDS_NODE_DEVICES", "needs 8 devices (tensor × pipeline parallel size) but this node has 4"),
    ("ValueError: torch.float32 is not supported for quantization method gptq. Supported dtypes: [torch.float16, "
     "torch.bfloat16]", "VLLM_QUANTIZATION_DTYPE_UNSUPPORTED",
     "`gptq` quantization does not run in dtype `torch.float32` (supported: [torch.float16, torch.bfloat16])"),
    ("ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 80. Current "
     "capability: 75.", "VLLM_QUANTIZATION_NEEDS_NEWER_GPU", "`fp8` quantization needs GPU compute capability 80"),
    ("ValueError: GPU memory utilization must be less than 1.0. Got 1.2.", "VLLM_GPU_MEMORY_UTILIZATION_OUT_OF_RANGE",
     "`1.2` is out of range"),
    # pydantic's lines for the engine config: a bound, a missing field, the header of another config
    ("  Input should be greater than 0 [type=greater_than, input_value=0, input_type=int]",
     "PYDANTIC_FIELD_VALUE_REJECTED", "Input should be greater than 0 (got `0`)"),
    ("pydantic_core._pydantic_core.ValidationError: 1 validation error for ParallelConfig",
     "VLLM_CONFIG_VALIDATION_FAILED", "`ParallelConfig` rejected 1 setting(s)"),
    ("(APIServer pid=1) ERROR 12-06 13:20:11 [async_llm.py:480] vllm.v1.engine.exceptions.EngineDeadError: EngineCore "
     "encountered an issue. See stack trace (above) for the root cause.", "VLLM_ENGINE_CORE_DEAD", "(EngineDeadError)"),
    ("(EngineCore_DP0 pid=2716) ERROR 12-06 13:20:11 [core.py:850] TimeoutError: RPC call to "
     "initialize_from_config timed out.", "VLLM_WORKER_RPC_TIMEOUT", "`initialize_from_config`"),
    ("ValueError: The model type 'gemma3_text' does not support float16. Reason: Numerical instability. Please use "
     "bfloat16 or float32 instead.", "VLLM_MODEL_FLOAT16_NOT_SUPPORTED", "model type `gemma3_text`"),
    ("ValueError: Unknown dtype: torch.float8_e4m3fn", "VLLM_ARG_VALUE_UNKNOWN", "dtype value `torch.float8_e4m3fn`"),
    ("ValueError: Unknown tokenizer mode: mistrall. Must be one of ['auto', 'slow', 'mistral', 'custom'].",
     "VLLM_ARG_VALUE_UNKNOWN", "tokenizer mode value `mistrall`"),
    ("(EngineCore_DP0 pid=9) RuntimeError: Failed to load the tokenizer. If the tokenizer is a custom tokenizer not "
     "yet available in the HuggingFace transformers library, consider setting `trust_remote_code=True` in LLM",
     "VLLM_TOKENIZER_CLASS_NOT_LOADABLE", "newer than the installed transformers"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("ValueError: Failed to load the model config. If the model is a custom model not yet available in the "
     "HuggingFace transformers library, consider setting `trust_remote_code=True` in LLM or using the "
     "`--trust-remote-code` flag in the CLI.", "MODEL_REMOTE_CODE_NOT_TRUSTED", "without trust_remote_code"),
    # vLLM >= 0.10 raises its config checks inside pydantic: the entries read the `Value error,` form too (the heads
    # check is round 20's specific entry's; the class entry gives way to it)
    ("  Value error, Total number of attention heads (28) must be divisible by tensor parallel size (8). "
     "[type=value_error, input_value=ArgsKwargs((), {'model': '/models/Qwen2.5-7B'}), input_type=ArgsKwargs]",
     "VLLM_PARALLEL_SIZE_DOES_NOT_FIT_MODEL", "Total number of attention heads (28) must be divisible by tensor"),
    ("  Value error, Prefix caching is not supported with sliding window. Run with --disable-sliding-window to use "
     "prefix caching. [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]",
     "TRAINING_FEATURES_NOT_COMBINABLE", "Prefix caching is not supported with sliding window"),
    ("(EngineCore_DP0 pid=77) RuntimeError: WorkerProc initialization failed due to an exception in a background "
     "process. See stack trace for root cause.", "LAUNCHER_WORKER_EXITED_WITH_ERROR", "one of its processes failed"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


def test_a_specific_vllm_check_wins_over_pydantics_own_line(kb):
    line = ("  Value error, max_num_batched_tokens (2048) is smaller than max_model_len (32768). This effectively "
            "limits the maximum sequence length to max_num_batched_tokens and makes vLLM reject longer sequences. "
            "[type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]")
    assert [s.id for s in kb.explaining(line)] == ["VLLM_MAX_MODEL_LEN_SETTING_REJECTED"]


@pytest.mark.parametrize("line", [
    "INFO 12-06 13:20:11 [serving_chat.py:85] Using default chat template:",
    "INFO 12-06 13:20:11 [api_server.py:1340] Using supplied chat template: {% for message in messages %}",
    "INFO 12-06 13:20:11 [model.py:1510] Using max model len 32768",
    "INFO:     127.0.0.1:40124 - \"POST /v1/chat/completions HTTP/1.1\" 200 OK",
    "INFO:     127.0.0.1:40124 - \"GET /v1/models HTTP/1.1\" 200 OK",
    "INFO 12-06 13:20:11 [lora_model_runner_mixin.py:40] LoRA is enabled with max_lora_rank 64 and max_loras 4.",
    "INFO 12-06 13:20:11 [parallel.py:1060] Defaulting to use mp for distributed inference",
    "INFO 12-06 13:20:11 [gpu_worker.py:300] GPU memory utilization 0.90 leaves 55.15 GiB for the model.",
    "    For further information visit https://errors.pydantic.dev/2.11/v/less_than_equal",
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for DeepSpeedZeroConfig",
    "INFO 12-06 13:20:11 [core.py:90] Initializing a V1 LLM engine (v0.11.0) with config: model='Qwen/Qwen3-8B'",
    "WARNING 12-06 13:20:11 [model.py:2400] Casting torch.bfloat16 to torch.float16.",
    "INFO 12-06 13:20:11 [default_loader.py:267] Loading weights took 3.02 seconds",
    "INFO 12-06 13:20:11 [kv_cache_utils.py:1087] Maximum concurrency for 32,768 tokens per request: 12.34x",
    "    --max-lora-rank {1,8,16,32,64,128,256,320,512}  Max LoRA rank.",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
