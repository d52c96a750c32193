"""data/kb/families_llm.json and the members of its families elsewhere: the large-model training and serving stacks on
Ascend and the Python libraries under them, read in the forms their own sources print. A library's version check
(transformers' require_version, diffusers' 'Please install', Trainer's 'requires accelerate>=', pkg_resources) with
the package, the requirement and the version found; a class or attribute the installed transformers (or another
library of the stack) does not provide; an expired deprecation of diffusers; a DeepSpeed op never built or loaded; a
class of an NPU plugin without the method its framework calls; a vLLM-Ascend package built for another chip series; a
tensor-parallel size larger than the model's attention heads (MindSpeed-MM, MindSpeed, Megatron), MindFormers'
device-count checks in its own entry; a quantization vLLM / vLLM-Ascend cannot run; a remote-code model importing
packages that are not installed (flash_attn on Ascend); a tokenizer.json newer than the tokenizers installed; LoRA
target modules that are not this model's layers; Megatron / MindSpeed starting from random weights when no checkpoint
is found (a warning); vLLM-Ascend's skipped CPU binding (a warning); an extension built against another torch; Triton
without exactly one active backend (no triton-ascend); an option check of MindSpeed / Megatron naming the option; an
error MindFormers or lmdeploy logged (a class of last resort). Each entry reads members its examples do not show,
says what the line gives, gives way to a specific entry, stays quiet on ordinary lines and on every clean excerpt."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_llm")
FAMILY = IDS + ["SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT", "OP_BUILDER_TOOLKIT_NOT_FOUND", "FEATURE_NOT_SUPPORTED_ON_NPU",
                "FRAMEWORK_NAME_NOT_IMPORTABLE", "PIP_DEPENDENCY_CONFLICT",
                "MODEL_ARCHITECTURE_NOT_SUPPORTED", "PY_PACKAGE_METADATA_NOT_FOUND", "PY_MODULE_NOT_INSTALLED",
                "MF_PARALLEL_CONFIG_INVALID", "NPU_EXTENSION_UNDEFINED_SYMBOL", "TORCH_OPS_OPERATOR_NOT_REGISTERED",
                "TRAINING_FEATURES_NOT_COMBINABLE", "LAUNCH_ARGUMENTS_REJECTED"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_class_and_specific_entries_without_peer_ids(kb):
    assert set(IDS) == {"PY_PACKAGE_VERSION_REQUIREMENT_UNMET", "LIBRARY_NAME_NOT_IN_VERSION",
                        "LIBRARY_DEPRECATION_EXPIRED", "DEEPSPEED_OP_NOT_BUILT", "NPU_PLUGIN_CLASS_ATTRIBUTE_MISSING",
                        "VLLM_ASCEND_BUILT_FOR_OTHER_DEVICE", "PARALLEL_CONFIG_DOES_NOT_FIT",
                        "QUANTIZATION_METHOD_NOT_SUPPORTED", "MODEL_REMOTE_CODE_PACKAGES_MISSING",
                        "TOKENIZER_FILE_NEWER_THAN_LIBRARY", "PEFT_TARGET_MODULES_NOT_FOUND",
                        "MEGATRON_CHECKPOINT_NOT_FOUND_RANDOM_INIT", "VLLM_ASCEND_CPU_BINDING_FAILED",
                        "TORCH_EXTENSION_BUILT_FOR_OTHER_TORCH", "TRITON_ACTIVE_DRIVER_NOT_ONE",
                        "LAUNCH_OPTION_CHECK_FAILED", "LLM_FRAMEWORK_ERROR_LOGGED",
                        "FRAMEWORK_SETTING_NOT_SUPPORTED", "HCCL_BUFFSIZE_TOO_SMALL_FOR_MOE_OP"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_llm.json" and sig.kind == "root" and not sig.ascend_fd
    # the two classes worded for any package or parallel size give way to a specific entry on the same line
    assert {s for s in IDS if kb.signature(s).fallback} == {"PY_PACKAGE_VERSION_REQUIREMENT_UNMET",
                                                            "PARALLEL_CONFIG_DOES_NOT_FIT",
                                                            "LAUNCH_OPTION_CHECK_FAILED", "LLM_FRAMEWORK_ERROR_LOGGED",
                                                            "FRAMEWORK_SETTING_NOT_SUPPORTED"}
    # the logged-error class only restates the message: it gives way to any other class entry on its line
    assert {s for s in IDS if kb.signature(s).last_resort} == {"LLM_FRAMEWORK_ERROR_LOGGED"}
    # a fallback to random weights and a skipped CPU binding are printed as warnings and only warn
    assert {s for s in IDS if kb.signature(s).severity == "warn"} == {"MEGATRON_CHECKPOINT_NOT_FOUND_RANDOM_INIT",
                                                                      "VLLM_ASCEND_CPU_BINDING_FAILED"}


@pytest.mark.parametrize("line, sig_id, said", [
    # transformers' require_version as LlamaFactory calls it (a requirement of five parts), behind a rank prefix
    ("[rank0]: ImportError: transformers>=4.41.2,<=4.49.0,!=4.46.*,!=4.47.*,!=4.48.0 is required for a normal "
     "functioning of this module, but found transformers==4.50.0.", "PY_PACKAGE_VERSION_REQUIREMENT_UNMET",
     "`transformers>=4.41.2,<=4.49.0,!=4.46.*,!=4.47.*,!=4.48.0` required, `transformers==4.50.0` installed"),
    ("ImportError: peft>=0.17.0 is required for a normal functioning of this module, but found peft==0.11.1",
     "PY_PACKAGE_VERSION_REQUIREMENT_UNMET", "another version of `peft`"),
    ("ImportError: Please install transformers>=4.51.0 to use Qwen3 models.", "PY_PACKAGE_VERSION_REQUIREMENT_UNMET",
     "(`transformers>=4.51.0` required)"),
    ("RuntimeError: Qwen2-VL requires transformers>=4.45.0", "PY_PACKAGE_VERSION_REQUIREMENT_UNMET",
     "(`transformers>=4.45.0` required)"),
    ("pkg_resources.VersionConflict: (tokenizers 0.13.3 (/opt/py/site-packages), "
     "Requirement.parse('tokenizers>=0.14'))",
     "PY_PACKAGE_VERSION_REQUIREMENT_UNMET", "(`tokenizers>=0.14` required, `tokenizers 0.13.3` installed)"),
    # a class the installed transformers lacks: transformers 5's tokenizer backend, a model class of another library
    ("ValueError: Tokenizer class TokenizersBackend does not exist or is not currently imported",
     "LIBRARY_NAME_NOT_IN_VERSION", "transformers does not provide `TokenizersBackend`"),
    ("AttributeError: module 'diffusers' has no attribute 'WanPipeline'", "LIBRARY_NAME_NOT_IN_VERSION",
     "`diffusers` does not provide `WanPipeline`"),
    ("[rank0]: AttributeError: module 'torch' has no attribute 'float8_e4m3fn'", "LIBRARY_NAME_NOT_IN_VERSION",
     "`torch` does not provide `float8_e4m3fn`"),
    # an expired deprecation said with its item and versions
    ("ValueError: The deprecation tuple ('npu_processor', '0.34.0', 'Defaulting to FluxAttnProcessor2_0_NPU for NPU "
     "devices will be removed.') should be removed since diffusers' version 0.35.2 is >= 0.34.0",
     "LIBRARY_DEPRECATION_EXPIRED", "`diffusers` 0.35.2 has passed the removal version of a deprecated API "
     "(`npu_processor`, to be removed in 0.34.0)"),
    # DeepSpeed: another optimiser's handle, another op that is not compatible
    ("AttributeError: 'DeepSpeedCPULion' object has no attribute 'ds_opt_lion'", "DEEPSPEED_OP_NOT_BUILT",
     "`DeepSpeedCPULion` has no `ds_opt_lion`"),
    ("RuntimeError: Unable to JIT load the fused_adam op due to it not being compatible due to hardware/software "
     "issue. CANN not found", "DEEPSPEED_OP_NOT_BUILT", "(`fused_adam`)"),
    # an NPU plugin's class without the framework's new method
    ("  详情: AttributeError: type object 'AscendMLABackend' has no attribute 'get_required_kv_cache_layout'。",
     "NPU_PLUGIN_CLASS_ATTRIBUTE_MISSING", "`AscendMLABackend` has no `get_required_kv_cache_layout`"),
    ("AttributeError: 'NPUModelRunner' object has no attribute 'kv_cache_config'", "NPU_PLUGIN_CLASS_ATTRIBUTE_MISSING",
     "`NPUModelRunner` has no `kv_cache_config`"),
    # vLLM-Ascend's package for another series
    ("RuntimeError: Current device type: AscendDeviceType.A2 does not match the installed version's device type: "
     "AscendDeviceType.A3, please check your installation package.", "VLLM_ASCEND_BUILT_FOR_OTHER_DEVICE",
     "the device is `AscendDeviceType.A2`, the package is for `AscendDeviceType.A3`"),
    # the parallel layout: MindSpeed-MM's TP against the KV heads; MindFormers' device count
    ("RuntimeError: tp_size exceeds num_key_value_heads", "PARALLEL_CONFIG_DOES_NOT_FIT",
     "`tp_size exceeds num_key_value_heads`"),
    ("ValueError: tensor_model_parallel_size (16) must not exceed num_attention_heads (8).",
     "PARALLEL_CONFIG_DOES_NOT_FIT", "`tensor_model_parallel_size (16) must not exceed num_attention_heads (8)`"),
    ("AssertionError: number of kv heads (2) is less than tensor parallel size (4)", "PARALLEL_CONFIG_DOES_NOT_FIT",
     "`number of kv heads (2) is less than tensor parallel size (4)`"),
    # MindFormers' device-count checks stay with its own entry
    ("ValueError: The product of the data parallel: 4 and context parallel: 1 and model parallel: 4 should be less "
     "than device_num: 8.", "MF_PARALLEL_CONFIG_INVALID", "should be less than device_num: 8"),
    # divisibility stays with its own class
    ("AssertionError: num_attention_heads must be divisible by context_parallel_size * tensor_model_parallel_size",
     "SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT", "num_attention_heads must be divisible"),
    # quantization: vLLM's platform check for another method, vLLM-Ascend's scheme registry
    ("(APIServer pid=1) ValueError: bitsandbytes quantization is currently not supported in npu.",
     "QUANTIZATION_METHOD_NOT_SUPPORTED", "(`bitsandbytes`, on npu)"),
    ("NotImplementedError: Currently, vLLM Ascend doesn't support quant_type=W4A4_MXFP4 for layer_type=moe. Please "
     "use a supported quantization format or load the model with its original float weights.",
     "QUANTIZATION_METHOD_NOT_SUPPORTED", "(`W4A4_MXFP4` for layer type `moe`)"),
    # a remote-code model's imports: two packages, one CUDA-only
    ("ImportError: This modeling file requires the following packages that were not found in your environment: "
     "flash_attn, causal_conv1d. Run `pip install flash_attn causal_conv1d`", "MODEL_REMOTE_CODE_PACKAGES_MISSING",
     "`flash_attn, causal_conv1d`"),
    # a tokenizer.json of a newer tokenizers: another of its enums
    ("Exception: data did not match any variant of untagged enum NormalizerWrapper at line 12 column 1",
     "TOKENIZER_FILE_NEWER_THAN_LIBRARY", "`data did not match any variant of untagged enum NormalizerWrapper`"),
    # PEFT's targets of another architecture
    ("ValueError: Target modules {'query_key_value'} not found in the base model. Please check the target modules and "
     "try again.", "PEFT_TARGET_MODULES_NOT_FOUND", "{'query_key_value'}"),
    # Megatron's checkpoint tracker missing under another --load
    ("WARNING: could not find the metadata file /data/ckpt/llama3-8b-tp8/latest_checkpointed_iteration.txt",
     "MEGATRON_CHECKPOINT_NOT_FOUND_RANDOM_INIT", "(`/data/ckpt/llama3-8b-tp8/latest_checkpointed_iteration.txt`"),
    # vLLM-Ascend's skipped CPU binding with its reason
    ("(Worker_TP3 pid=9) WARNING 01-02 03:04:05 [worker.py:805] Bind cpus failed in rank3: The number of CPUs is "
     "insufficient. Each NPU requires at least 5 CPUs. Skip binding cpu.", "VLLM_ASCEND_CPU_BINDING_FAILED",
     "(rank 3): The number of CPUs is insufficient. Each NPU requires at least 5 CPUs."),
    # an extension built against another torch: an ATen symbol
    ("ImportError: /usr/local/lib/python3.10/site-packages/vllm_ascend/libvllm_ascend_kernels.so: undefined symbol: "
     "_ZN2at4_ops5zeros4callEN3c108ArrayRefINS2_6SymIntEEE", "TORCH_EXTENSION_BUILT_FOR_OTHER_TORCH",
     "`libvllm_ascend_kernels.so` does not match the installed PyTorch"),
    # Triton without its NPU backend, behind a rank prefix
    ("[rank3]: RuntimeError: 0 active drivers ([]). There should only be one.", "TRITON_ACTIVE_DRIVER_NOT_ONE",
     "Triton found 0 active backend drivers"),
    # an option check of MindSpeed-MM / Megatron: a renamed option in backticks; two features not allowed together
    # and a divisibility stay with their own entries
    ("[rank1]: ValueError: `--moe-alltoall-mc2` with `alltoall_seq` needs ETP=1.", "LAUNCH_OPTION_CHECK_FAILED",
     "`--moe-alltoall-mc2 with alltoall_seq needs ETP=1.`"),
    ("AssertionError: --recompute-norm is not compatible with --swap-attention", "TRAINING_FEATURES_NOT_COMBINABLE",
     "--recompute-norm is not compatible with --swap-attention"),
    ("AssertionError: --ulysses-degree-in-cp must be divisible by --context-parallel-size",
     "SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT", "must be divisible by --context-parallel-size"),
    # a logged error: MindFormers' stdout format with the file, lmdeploy's without a file; a specific entry keeps its line
    ("2025-01-02 03:04:05,678 - mindformers./output/log[mindformers/tools/utils.py:192] - ERROR - Parse the "
     "tensorboard path failed", "LLM_FRAMEWORK_ERROR_LOGGED",
     "mindformers logged an error at mindformers/tools/utils.py:192: Parse the tensorboard path failed"),
    ("2024-09-20 07:49:24,787 - lmdeploy - ERROR - Engine loop failed with error: worker died",
     "LLM_FRAMEWORK_ERROR_LOGGED", "lmdeploy logged an error: Engine loop failed"),
    ("2024-11-07 12:55:24,870 - lmdeploy - ERROR - __init__.py:17 - ModuleNotFoundError: No module named 'dlinfer'",
     "PY_MODULE_NOT_INSTALLED", "(`dlinfer`)"),
    # a setting this release does not implement with the rest: vLLM-Ascend's sequence parallelism; a refusal on the
    # NPU itself stays FEATURE_NOT_SUPPORTED_ON_NPU's
    ("(EngineCore_DP0 pid=9) AssertionError: Sequence parallelism is only supported when tp_size > 1.",
     "FRAMEWORK_SETTING_NOT_SUPPORTED", "`Sequence parallelism is only supported when tp_size > 1.`"),
    ("NotImplementedError: Batched rotary embedding is currently not supported on NPU.", "FEATURE_NOT_SUPPORTED_ON_NPU",
     "Batched rotary embedding"),
    # the MC2 operators' buffer check through a vLLM worker's prefix, with the sizes said
    ("(Worker_TP5 pid=88) ERROR 08-01 10:00:00 [model_runner.py:1] MoeDistributeCombineV2: HCCL_BUFFSIZE is too SMALL, "
     "maxBs = 128, h = 7168, epWorldSize = 32, localMoeExpertNum = 8, sharedExpertNum = 0, tokenNeedSizeDispatch = 7296,"
     " tokenNeedSizeCombine = 14336, k = 8, NEEDED_HCCL_BUFFSIZE(((maxBs * tokenNeedSizeDispatch * ep_worldsize * "
     "localMoeExpertNum) + (maxBs * tokenNeedSizeCombine * (k + sharedExpertNum))) * 2) = 487MB, HCCL_BUFFSIZE=200MB.",
     "HCCL_BUFFSIZE_TOO_SMALL_FOR_MOE_OP", "it needs 487 MB and the communication window is 200 MB"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "WARNING: Please install flash_attn>=2.5 for faster inference",
    "Requirement already satisfied: transformers>=4.36.0 in /usr/local/lib/python3.10/site-packages (4.45.2)",
    "Successfully installed accelerate-0.26.0 transformers-4.45.0",
    "INFO: Tokenizer class Qwen2TokenizerFast loaded from /models/qwen/tokenizer.json",
    "FutureWarning: `upcast_vae` is deprecated and will be removed in version 1.0.0.",
    "Loading extension module cpu_adam...",
    "Time to load cpu_adam op: 2.43 seconds",
    "INFO 10-24 12:07:28 [platform.py:1] Using AscendMLABackend backend.",
    "AttributeError: 'NoneType' object has no attribute 'shape'",
    "INFO 05-01 10:00:00 [platform.py:50] Current device type: AscendDeviceType.A3",
    "INFO: tp_size 8, num_key_value_heads 8, num_attention_heads 64",
    "WARNING: tensor parallel size is greater than the number of key value heads; KV heads will be replicated.",
    "  --tensor-model-parallel-size 8 \\",
    "[INFO] world_size (8) is equal to total_model_size(8)",
    "WARNING 05-01 10:00:00 [config.py:1] gptq quantization is not fully optimized yet. The speed can be slower than "
    "non-quantized models.",
    "INFO 05-01 10:00:00 [config.py:1] Using the quantization method ascend",
    "pip install flash_attn  # not available on Ascend",
    "INFO: tokenizer.json loaded (ModelWrapper BPE) in 0.3 s",
    "lora_target: q_proj,v_proj  # Target modules",
    "  successfully loaded checkpoint from ./ckpt [ t 0, p 0 ] at iteration 1000",
    "INFO 03-02 10:11:12 [cpu_binding.py:1] CPU binding skipped: non-ARM CPU detected.",
    "INFO: 1 active drivers found: NPUDriver",
    "2024-11-07 12:55:24,870 - lmdeploy - INFO - engine.py:90 - ERROR count is 0",
    "WARNING: graph mode is only supported in V1, falling back to eager",
    "export HCCL_BUFFSIZE=1024",
    "torchrun $DISTRIBUTED_ARGS pretrain_gpt.py --use-mcore-models --sequence-parallel",
    "WARNING: --sequence-parallel is set but tensor-model-parallel-size is 1; disabling it",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


@pytest.mark.parametrize("line", [
    # a symbol of the NPU stack (ATB, torch_npu's at_npu) is another library's, read by the NPU stack's entries
    "ImportError: /usr/local/python3.10.14/lib/python3.10/site-packages/torch_npu/lib/libtorch_npu.so: "
    "undefined symbol: _ZN3atb15CreateOperationINS_5infer14GroupTopkParamEEEiRKT_PPNS_9OperationE",
    "ImportError: /root/lmdeploy/lib/_turbomind_npu.cpython-310-aarch64-linux-gnu.so: undefined symbol: "
    "_ZN6at_npu6native19get_npu_format_sizeEl",
])
def test_a_torch_abi_mismatch_is_only_a_symbol_of_torch_itself(kb, line):
    assert "TORCH_EXTENSION_BUILT_FOR_OTHER_TORCH" not in [s.id for s in kb.match_line(line)]


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, FAMILY) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # every example of a family entry is explained by that entry alone among the family
    assert family_overlaps(kb, FAMILY) == []
