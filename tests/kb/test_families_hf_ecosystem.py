"""data/kb/families_hf_ecosystem.json and the members of its families elsewhere: the Python model ecosystem users run
on NPUs, read in the forms its own sources print. A quantization method transformers / diffusers has no quantizer for;
a safetensors file without the `format` metadata; a model or dataset name that is neither a local directory nor a hub
repository; a directory or repository without the file a loader needs; the hub's HTTP errors (401/403/429/5xx); an
optional back end of transformers that is not installed; a model that device_map placed on the CPU or disk; a dataset
loading script the installed datasets no longer runs; xformers without an operator for the inputs (an 'npu' device);
TF Adapter's GeOp failing in Graph Engine; a config or tokenizer file that is not JSON; ONNX Runtime without
a kernel for a node. A newer rope_scaling form than transformers checks; a tokenizer without a pad token or chat template; sampling
probabilities with inf/NaN; an embedding index beyond the table; a header a Python extension build cannot find; a PaddlePaddle not built for the device asked for. Also: a PEFT adapter directory without adapter_config.json; safetensors without a tensor asked for. Extended members: safetensors' header errors in both wordings, accelerate's
shape check, bitsandbytes without GPU support and apex without its CUDA extensions, DeepSpeed's NPU
accelerator without torch_npu, the ninja step of a torch extension build,
the hub's offline and cache messages, transformers' gated-repo message and its Auto classes. Each entry reads members
its examples do not show, says what the line gives, stays quiet on ordinary lines and on every clean excerpt."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_hf_ecosystem")
EXTENDED = ["LIBRARY_NAME_NOT_IN_VERSION", "MODEL_PARAMETER_KEY_MISSING", "TORCH_NPU_DEVICE_NOT_REGISTERED", "CHECKPOINT_FILE_UNREADABLE", "TORCH_CHECKPOINT_SHAPE_MISMATCH", "LIBRARY_GPU_CHECK_FAILED",
            "TORCH_EXTENSION_BUILT_FOR_OTHER_TORCH", "TORCH_CPP_EXTENSION_BUILD_FAILED", "MODEL_HUB_UNREACHABLE",
            "HF_GATED_REPO_NO_ACCESS", "MODEL_ARCHITECTURE_NOT_SUPPORTED"]
FAMILY = IDS + EXTENDED + ["CANN_BUILD_TOOLKIT_NOT_FOUND", "MODEL_REMOTE_CODE_NOT_TRUSTED", "PY_MODULE_NOT_INSTALLED", "PEFT_TARGET_MODULES_NOT_FOUND",
                           "QUANTIZATION_METHOD_NOT_SUPPORTED", "PY_PACKAGE_VERSION_REQUIREMENT_UNMET",
                           "GE_GRAPH_LOAD_FAILED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_root_entries_without_peer_ids(kb):
    assert set(IDS) == {"HF_QUANTIZATION_TYPE_UNKNOWN", "SAFETENSORS_METADATA_FORMAT_MISSING",
                        "HF_REPO_OR_PATH_NOT_FOUND", "HF_REQUIRED_FILE_MISSING", "HF_HUB_HTTP_ERROR",
                        "HF_BACKEND_LIBRARY_MISSING", "MODEL_OFFLOADED_TO_CPU_OR_DISK_REFUSED",
                        "DATASET_LOADING_SCRIPT_NOT_SUPPORTED", "XFORMERS_NO_OPERATOR_FOR_INPUTS",
                        "TF_ADAPTER_GEOP_FAILED", "HF_CONFIG_FILE_NOT_JSON", "ORT_NO_KERNEL_FOR_NODE",
                        "HF_ROPE_SCALING_CONFIG_NEWER_THAN_LIBRARY", "TOKENIZER_SPECIAL_SETTING_MISSING",
                        "SAMPLING_PROBABILITIES_INVALID", "EMBEDDING_INDEX_OUT_OF_RANGE",
                        "EXTENSION_BUILD_HEADER_NOT_FOUND", "PADDLE_NOT_BUILT_FOR_DEVICE"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_hf_ecosystem.json" and sig.kind == "root" and not sig.ascend_fd
    # classes: GE's own error line before a GeOp failure names the fault; a header of a CANN build is CANN's entry's
    assert {s for s in IDS if kb.signature(s).fallback} == {"TF_ADAPTER_GEOP_FAILED", "EXTENSION_BUILD_HEADER_NOT_FOUND"}


@pytest.mark.parametrize("line, sig_id, said", [
    # another method, through a rank prefix; the sentence as a Chinese page copies it (full-width comma)
    ("[rank0]: ValueError: Unknown quantization type, got compressed-tensors - supported types are: ['awq', 'gptq']",
     "HF_QUANTIZATION_TYPE_UNKNOWN", "Unknown quantization type `compressed-tensors`"),
    ("Unknown quantization type， got fp8 - supported types", "HF_QUANTIZATION_TYPE_UNKNOWN", "`fp8`"),
    # the file is said
    ("OSError: The safetensors archive passed at /w/model-00001-of-00004.safetensors does not contain the valid "
     "metadata. Make sure you save your model with the `save_pretrained` method.",
     "SAFETENSORS_METADATA_FORMAT_MISSING", "(`/w/model-00001-of-00004.safetensors`)"),
    # a container path, a repo id through HFValidationError's other rule, a dataset
    ("OSError: /models/Qwen3-8B is not a local folder and is not a valid model identifier listed on "
     "'https://huggingface.co/models'", "HF_REPO_OR_PATH_NOT_FOUND",
     "`/models/Qwen3-8B` is neither an existing local directory nor a repository the hub could find with these"),
    ("huggingface_hub.errors.HFValidationError: Repo id must use alphanumeric chars, '-', '_' or '.'. The name cannot "
     "start or end with '-' or '.' and the maximum length is 96: '../ckpt/llama'.", "HF_REPO_OR_PATH_NOT_FOUND",
     "`../ckpt/llama` is neither an existing local directory nor a valid hub repo id"),
    # round 18: a name the hub's validation rejects was never asked for, so no credentials are blamed (generated here:
    # a relative tokenizer directory that does not exist)
    ("huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': "
     "'./checkpoints/run3/tokenizer'. Use `repo_type` argument if needed.", "HF_REPO_OR_PATH_NOT_FOUND",
     "`./checkpoints/run3/tokenizer` is neither an existing local directory nor a valid hub repo id"),
    ("datasets.exceptions.DatasetNotFoundError: Dataset 'openai/gsm8kk' doesn't exist on the Hub or cannot be "
     "accessed.", "HF_REPO_OR_PATH_NOT_FOUND", "`openai/gsm8kk`"),
    # another file of a checkpoint directory; a tokenizer
    ("OSError: /output/checkpoint-500 does not appear to have a file named tokenizer_config.json. Checkout "
     "'https://huggingface.co//output/checkpoint-500/tree/None' for available files.", "HF_REQUIRED_FILE_MISSING",
     "`/output/checkpoint-500` lacks a file the loader needs: `tokenizer_config.json`"),
    ("OSError: Can't load the configuration of '/data/m'. If you were trying to load it from "
     "'https://huggingface.co/models', make sure you don't have a local directory with the same name.",
     "HF_REQUIRED_FILE_MISSING", "`/data/m`"),
    # the hub's statuses: a 403 through requests; a 500 through HfHubHTTPError is a server-side failure, said by
    # families_net_hub.json's status entry
    ("requests.exceptions.HTTPError: 403 Client Error: Forbidden for url: https://hf-mirror.com/api/models/x/y",
     "HF_HUB_HTTP_ERROR", "HTTP 403"),
    ("huggingface_hub.errors.HfHubHTTPError: 500 Server Error: Internal Server Error for url: "
     "https://huggingface.co/api/models/Qwen/Qwen3-8B", "HTTP_STATUS_5XX_SERVER_ERROR", "HTTP 500"),
    # another optional back end
    ("ImportError: DetrConvEncoder requires the timm library but it was not found in your environment.",
     "HF_BACKEND_LIBRARY_MISSING", "`DetrConvEncoder` needs the timm library"),
    # offload refusals
    ("ValueError: The current `device_map` had weights offloaded to the disk. Please provide an `offload_folder` for "
     "them.", "MODEL_OFFLOADED_TO_CPU_OR_DISK_REFUSED", "`The current device_map had weights offloaded to the disk`"),
    ("[rank1]: RuntimeError: Dataset scripts are no longer supported, but found gsm8k.py",
     "DATASET_LOADING_SCRIPT_NOT_SUPPORTED", "(`gsm8k.py`)"),
    ("NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:",
     "XFORMERS_NO_OPERATOR_FOR_INPUTS", "(`memory_efficient_attention_forward`)"),
    ("tensorflow.python.framework.errors_impl.UnavailableError: [GEOP] GE session add graph failed, domi_ret : "
     "1343225857", "TF_ADAPTER_GEOP_FAILED", "failed Graph Engine step: `GE session add graph failed` (ret 1343225857)"),
    ("OSError: It looks like the config file at 'models/chatglm3-6b/config.json' is not a valid JSON file.",
     "HF_CONFIG_FILE_NOT_JSON", "(`models/chatglm3-6b/config.json`) is not valid JSON"),
    ("[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not find an implementation for GridSample(16) node with name "
     "'/GridSample'", "ORT_NO_KERNEL_FOR_NODE", "operator `GridSample` (opset 16) for node `/GridSample`"),
    ("ValueError: Can't find 'adapter_config.json' at 'output/qwen-lora'", "HF_REQUIRED_FILE_MISSING",
     "`output/qwen-lora` lacks a file the loader needs: `adapter_config.json`"),
    ("ValueError: `rope_scaling` must be a dictionary with two fields, `type` and `factor`, got {'type': 'yarn', "
     "'factor': 4.0, 'original_max_position_embeddings': 32768}", "HF_ROPE_SCALING_CONFIG_NEWER_THAN_LIBRARY",
     "(got `{'type': 'yarn', 'factor': 4.0,"),
    ("[rank3]: ValueError: Asking to pad but the tokenizer does not have a padding token. Please select a token",
     "TOKENIZER_SPECIAL_SETTING_MISSING", "The tokenizer has no padding token"),
    ("(EngineCore pid=7) RuntimeError: probability tensor contains either `inf`, `nan` or element < 0",
     "SAMPLING_PROBABILITIES_INVALID", "logits overflowed"),
    ("  File \"x.py\", line 3, in f\nIndexError: index out of range in self".split("\n")[1],
     "EMBEDDING_INDEX_OUT_OF_RANGE", "index out of range in self"),
    ("csrc/ops.cpp:1:10: fatal error: cublas_v2.h: No such file or directory", "EXTENSION_BUILD_HEADER_NOT_FOUND",
     "the header `cublas_v2.h`"),
    ("fatal error: aclnn/opdev/op_log.h: No such file or directory", "CANN_BUILD_TOOLKIT_NOT_FOUND", "CANN"),
    ("ValueError: The device should not be 'npu', since PaddlePaddle is not compiled with NPU",
     "PADDLE_NOT_BUILT_FOR_DEVICE", "(`npu`): it is not compiled with NPU"),
    # the extended members
    ("ModuleNotFoundError: No module named 'torch._six'", "LIBRARY_NAME_NOT_IN_VERSION",
     "`torch` does not provide `_six`"),
    ("AttributeError: 'NoneType' object has no attribute 'cquantize_blockwise_fp16_nf4'", "LIBRARY_GPU_CHECK_FAILED",
     "cquantize_blockwise_fp16_nf4"),
    ("_pickle.UnpicklingError: invalid load key, '<'.", "CHECKPOINT_FILE_UNREADABLE", "invalid load key"),
    ("safetensors_rust.SafetensorError: File does not contain tensor lm_head.weight", "MODEL_PARAMETER_KEY_MISSING",
     "`lm_head.weight`"),
    ("RuntimeError: apex.optimizers.FusedLAMB requires cuda extensions", "LIBRARY_GPU_CHECK_FAILED",
     "apex.optimizers.FusedLAMB cannot give this job"),
    ("ValueError: NPU_Accelerator requires torch_npu, which is not installed on this system.",
     "TORCH_NPU_DEVICE_NOT_REGISTERED", "(NPU_Accelerator requires torch_npu)"),
    ("ValueError: Connection error, and we cannot find the requested files in the cached path. Please try again or "
     "make sure your Internet connection is on.", "MODEL_HUB_UNREACHABLE", "not reachable"),
    ("safetensors_rust.SafetensorError: Error while deserializing header: invalid JSON in header: EOF while parsing",
     "CHECKPOINT_FILE_UNREADABLE", "safetensors could not parse the file's header"),
    ("safetensors_rust.SafetensorError: Error while deserializing header: header too large",
     "CHECKPOINT_FILE_UNREADABLE", "impossible header size"),
    ("ValueError: Trying to set a tensor of shape torch.Size([0]) in \"weight\" (which has shape "
     "torch.Size([4096, 4096])), this looks incorrect.", "TORCH_CHECKPOINT_SHAPE_MISMATCH",
     "`weight` has another shape than the model's (checkpoint [0], model [4096, 4096])"),
    ("subprocess.CalledProcessError: Command '['ninja', '-v', '-j', '8']' returned non-zero exit status 2.",
     "TORCH_CPP_EXTENSION_BUILD_FAILED", "its ninja build failed"),
    ("huggingface_hub.errors.OfflineModeIsEnabled: Cannot reach https://huggingface.co/api/models/Qwen/Qwen3-8B: "
     "offline mode is enabled. To disable it, please unset the `HF_HUB_OFFLINE` environment variable.",
     "MODEL_HUB_UNREACHABLE", "(`https://huggingface.co`)"),
    ("OSError: You are trying to access a gated repo.", "HF_GATED_REPO_NO_ACCESS", "is gated"),
    ("ValueError: Unrecognized configuration class <class 'transformers.models.qwen2_vl.configuration_qwen2_vl."
     "Qwen2VLConfig'> for this kind of AutoModel: AutoModelForCausalLM.", "HF_AUTO_CLASS_DOES_NOT_FIT_MODEL",
     "`Qwen2VLConfig`"),
    ("The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers and GPU quantization "
     "are unavailable.", "LIBRARY_GPU_CHECK_FAILED", "bitsandbytes cannot give this job"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "WARNING: Unknown quantization type, got llvq - we will skip the quantization",
    "INFO: quantization_config: {'quant_method': 'fp8', 'weight_block_size': [128, 128]}",
    "INFO: safetensors metadata: {'format': 'pt'}",
    "    metadata = f.metadata()",
    "INFO: loading model from local folder /data/models/Qwen2.5-7B-Instruct",
    "loading file tokenizer.json from cache at /root/.cache/huggingface/hub/models--Qwen/tokenizer.json",
    "INFO: HTTP Request: GET https://huggingface.co/api/models/Qwen/Qwen2.5-7B \"HTTP/1.1 200 OK\"",
    "Successfully installed sentencepiece-0.2.0",
    "INFO: device_map: {'': 'npu:0'}",
    "Generating train split: 87599 examples",
    "WARNING: xformers not found, falling back to sdpa attention",
    "[GEOP] Begin GeOp initialize.",
    "2023-01-01 12:00:00.000000: I tf_adapter/kernels/geop_npu.cc:700] [GEOP] GE session run graph, graph id: 1",
    "Loading checkpoint shards: 100%|██████████| 4/4 [00:05<00:00,  1.31s/it]",
    "ninja: no work to do.",
    "[1/3] c++ -MMD -MF cpu_adam.o.d -DTORCH_EXTENSION_NAME=cpu_adam -c cpu_adam.cpp -o cpu_adam.o",
    "export HF_HUB_OFFLINE=1",
    "safetensors header length: 123456 bytes",
    "IndexError: list index out of range",
    "INFO: rope_scaling: {'type': 'linear', 'factor': 2.0}",
    "tokenizer.pad_token = tokenizer.eos_token",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in FAMILY] == []


def test_a_missing_submodule_of_an_installed_library_is_a_version_fault_but_torch_c_is_not(kb):
    assert [s.id for s in kb.explaining("ModuleNotFoundError: No module named 'transformers.models.qwen3'")] == [
        "LIBRARY_NAME_NOT_IN_VERSION"]
    assert [s.id for s in kb.explaining("ModuleNotFoundError: No module named 'torch._C'")] == ["PY_MODULE_NOT_INSTALLED"]
    assert [s.id for s in kb.explaining("ModuleNotFoundError: No module named 'flash_attn'")] == ["PY_MODULE_NOT_INSTALLED"]


def test_a_bare_unknown_quantization_sentence_is_a_warning_and_with_its_exception_a_failure(kb):
    # transformers' sentence as a page quotes it carries no error word: named, but no FAIL rests on it (fail_needs_mark)
    sig = kb.signature("HF_QUANTIZATION_TYPE_UNKNOWN")
    bare = "Unknown quantization type, got fp8 - supported types are: ['awq', 'gptq']"
    assert sig.search(bare) and sig.severity_on(bare) == "warn"
    assert sig.severity_on("ValueError: " + bare) == "fail"


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, FAMILY) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # a class example whose member a specific entry of families_net_hub.json names (no route to the host) gives way to it
    net_hub = set(part_ids("families_net_hub"))
    assert [o for o in family_overlaps(kb, FAMILY)
            if not (o[2] == [] and kb.signature(o[0]).fallback and {s.id for s in kb.explaining(o[1])} <= net_hub)] == []
