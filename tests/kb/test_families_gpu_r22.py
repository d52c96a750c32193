"""data/kb/families_gpu_r22.json: PyTorch, the Hugging Face libraries and the GPU stack (round 22): the exception a
DataLoader worker or a DataParallel replica raised, a convolution's input against its weights, torch.load's weights-only allowlist, TorchScript archives and legacy files, torch.compile's Triton GPU check, its
noexec cache directories and C++ compile errors, flash-attn's architecture check, a GPU missing from the PyTorch build,
and accelerate, Trainer, PEFT and datasets checks. Each entry reads members its examples do not show, says the member in
its title, stays quiet on ordinary lines of the same tools and on every clean corpus excerpt, and one line is one problem
of the family. The entries of other parts this round widened read their new members (DDP's list of parameters without a
gradient, transformers' --tf32 and accelerate's fp16/bf16 device checks, torch.load's unregistered device module,
torch.compile on a free-threaded Python, the data collators' pad and mask tokens, PEFT's target_parameters form)."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_gpu_r22")
EXTENDED = ["TORCH_DDP_PARAMETER_GRADIENT_MISMATCH", "LIBRARY_GPU_CHECK_FAILED", "TORCH_LOAD_DEVICE_NOT_AVAILABLE",
            "TORCH_COMPILE_PYTHON_VERSION_UNSUPPORTED", "TOKENIZER_SPECIAL_SETTING_MISSING",
            "PEFT_TARGET_MODULES_NOT_SPECIFIED", "ACCELERATE_DEEPSPEED_AUTO_VALUE_NOT_FILLED", "HF_REPO_OR_PATH_NOT_FOUND"]
FAMILY = IDS + EXTENDED + ["CHECKPOINT_FILE_UNREADABLE", "TORCH_COMPILE_GRAPH_CAPTURE_FAILED", "LAUNCH_OPTION_CHECK_FAILED",
                           "CUDA_NO_KERNEL_IMAGE_FOR_GPU", "TORCH_INDUCTOR_TRITON_NOT_FOUND", "MODEL_PARAMETER_KEY_MISSING",
                           "TORCH_STATE_DICT_KEYS_WRAPPER_PREFIX", "TORCH_CHECKPOINT_SHAPE_MISMATCH",
                           "PT_TENSORS_DIFFERENT_DEVICES", "TORCH_DTYPE_MISMATCH", "FLASH_ATTN_INPUT_CHECK_FAILED",
                           "ACCELERATE_STATE_NOT_INITIALIZED", "HF_REPO_OR_PATH_NOT_FOUND", "DATALOADER_WORKER_DIED",
                           "PY_ASSERTION_FAILED", "FRAMEWORK_SETTING_NOT_SUPPORTED", "LLM_STACK_CONFIG_VALUE_REJECTED",
                           "PY_SCRIPT_EXCEPTION"]
# class entries of other parts whose own examples overlap each other (not this round's): left out of the overlap check
CLASS_ENTRIES = {"TORCH_COMPILE_GRAPH_CAPTURE_FAILED", "LLM_STACK_CONFIG_VALUE_REJECTED", "PY_ASSERTION_FAILED",
                 "PY_SCRIPT_EXCEPTION"}
WARNINGS = {"TORCH_CUDA_GPU_ARCH_NOT_IN_BUILD"}
WRAPPERS = {"TORCH_DATALOADER_WORKER_RAISED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) >= 20 and "TORCH_DATALOADER_WORKER_RAISED" in IDS and "TRITON_GPU_TOO_OLD_FOR_TORCH_COMPILE" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_gpu_r22.json" and not sig.ascend_fd
        assert sig.kind == ("wrapper" if sid in WRAPPERS else "root") and not sig.fallback, sid
        assert sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # an exception of a DataLoader worker or a DataParallel replica
    ("ValueError: Caught ValueError in DataLoader worker process 7.", "TORCH_DATALOADER_WORKER_RAISED",
     "`ValueError` was raised in DataLoader worker process 7"),
    ("IndexError: Caught IndexError in replica 0 on device cuda:0.", "TORCH_DATALOADER_WORKER_RAISED",
     "raised in replica 0 on device cuda:0"),
    # a convolution's input against its weights; load_state_dict's summary
    ("RuntimeError: Input type (MPSFloatType) and weight type (torch.FloatTensor) should be the same",
     "TORCH_INPUT_WEIGHT_TYPE_MISMATCH", "(input `MPSFloatType`, layer `torch.FloatTensor`)"),
    ("RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same or "
     "input should be a MKLDNN tensor and weight is a dense tensor", "TORCH_INPUT_WEIGHT_TYPE_MISMATCH",
     "layer `torch.cuda.HalfTensor`"),
    # torch.compile on an old GPU, in a noexec cache, with a failing C++ compiler
    ("RuntimeError: Found Tesla P100-PCIE-16GB which is too old to be supported by the triton GPU compiler, which is used "
     "as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA capability 6.0",
     "TRITON_GPU_TOO_OLD_FOR_TORCH_COMPILE", "on `Tesla P100-PCIE-16GB` (CUDA capability 6.0)"),
    ("OSError: /dev/shm/inductor/xy/cxy.so: failed to map segment from shared object.  The most common reason this may "
     "occur is if the /dev/shm folder is mounted with noexec (e.g., by default Docker mounts tmp file systems as noexec).",
     "TORCH_COMPILE_CACHE_DIR_NOEXEC", "`/dev/shm` is on a filesystem mounted noexec"),
    ("ImportError: /scratch/triton/ab/cuda_utils.so: failed to map segment from shared object. This usually means "
     "Triton's cache directory (TRITON_CACHE_DIR=/scratch/triton) is on a filesystem mounted with noexec, so the dynamic "
     "loader cannot map generated shared objects.", "TORCH_COMPILE_CACHE_DIR_NOEXEC", "`/scratch/triton`"),
    ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised: CppCompileError: C++ compile error",
     "TORCH_INDUCTOR_CPP_COMPILE_FAILED", "could not compile the C++ code it generated"),
    # GPU architectures: flash-attn's check, PyTorch's build
    ("RuntimeError: Expected is_sm8x || is_sm90 to be true, but got false.", "FLASH_ATTN_GPU_ARCH_CHECK_FAILED",
     "(`is_sm8x || is_sm90`)"),
    ("GeForce RTX 3080 with CUDA capability sm_86 is not compatible with the current PyTorch installation.",
     "TORCH_CUDA_GPU_ARCH_NOT_IN_BUILD", "not built for `GeForce RTX 3080` (CUDA capability sm_86)"),
    ("/opt/venv/lib/python3.11/site-packages/torch/cuda/__init__.py:287: UserWarning: NVIDIA B200 with CUDA capability "
     "sm_100 is not compatible with the current PyTorch installation.", "TORCH_CUDA_GPU_ARCH_NOT_IN_BUILD",
     "not built for `NVIDIA B200` (CUDA capability sm_100)"),
    # torch.load
    ("\tWeightsUnpickler error: Unsupported global: GLOBAL transformers.training_args.TrainingArguments was not an allowed "
     "global by default.", "TORCH_LOAD_WEIGHTS_ONLY_GLOBAL_NOT_ALLOWED", "(`transformers.training_args.TrainingArguments`)"),
    ("RuntimeError: /models/best.torchscript is a zip archive (did you mean to use torch.jit.load()?)",
     "TORCH_LOAD_GOT_TORCHSCRIPT_ARCHIVE", "(`/models/best.torchscript`)"),
    ("RuntimeError: Invalid protocol version: 1001", "TORCH_LOAD_LEGACY_FILE_UNREADABLE", "(Invalid protocol version: 1001)"),
    # accelerate and the Trainer
    ("[rank1]: ValueError: The model and the optimizer parameters are not on the same device, which probably means you "
     "created an optimizer around your model **before** putting on the device.", "HF_OPTIMIZER_AND_MODEL_ON_DIFFERENT_DEVICES",
     "before the model was moved to its device"),
    ("[rank0]: AssertionError: You can't use same `Accelerator()` instance with multiple models when using DeepSpeed",
     "ACCELERATE_DEEPSPEED_PREPARE_REFUSED", "DeepSpeed integration refused the prepare() call: one Accelerator() instance"),
    ("ValueError: Can only automatically infer lengths for datasets whose items are dictionaries with an 'input_features' "
     "key.", "HF_TRAINER_GROUP_BY_LENGTH_CANNOT_READ_LENGTHS", "holding the key `input_features`"),
    ("[rank1]: NotImplementedError: Using RTX 4000 series doesn't support faster communication broadband via P2P or IB. "
     "Please set `NCCL_P2P_DISABLE=\"1\"`", "ACCELERATE_RTX40_P2P_IB_NOT_DISABLED", "driver older than 550.40.07"),
    ("ValueError: `--mixed_precision` arg cannot be set to `bf16` when `fp16` is set in the DeepSpeed config file.",
     "ACCELERATE_DEEPSPEED_CONFIG_CONFLICT", "--mixed_precision is `bf16` while the DeepSpeed config enables `fp16`"),
    ("[rank0]: ValueError: Your model contains `DTensor` parameters, which is incompatible with DDP.",
     "ACCELERATE_DTENSOR_MODEL_WITH_DDP", "holds DTensor parameters"),
    # PEFT and datasets
    ("ValueError: Trying to infer with non-existing adapter(s): sql", "PEFT_ADAPTER_NAMES_CALL_REFUSED",
     "the adapters `sql` are not loaded"),
    ("FileNotFoundError: No such file: '/ckpt/ds/state.json' found. Expected to load a `Dataset` object, but got a "
     "`DatasetDict`. Please use either `datasets.load_from_disk` or `DatasetDict.load_from_disk` instead.",
     "DATASETS_LOAD_FROM_DISK_NOT_A_DATASET", "(`/ckpt/ds/state.json` is missing): the directory holds a DatasetDict"),
    # generate()'s biased ids, an empty chat
    ("ValueError: The model vocabulary size is 151936, but the following tokens were being biased: [151937]",
     "HF_GENERATION_BIASED_TOKEN_OUTSIDE_VOCAB", "(`[151937]`): its vocabulary size is 151936"),
    ("[rank2]: ValueError: Cannot apply chat template to an empty conversation. Provide at least one message.",
     "HF_CHAT_TEMPLATE_EMPTY_CONVERSATION", "got an empty conversation"),
    # widened entries of other parts
    ("ValueError: Can't find `model.config` entry, therefore it's not possible to automatically fill out the following "
     "`auto` entries in the DeepSpeed config file: ['zero_optimization.stage3_param_persistence_threshold']. You can fix",
     "ACCELERATE_DEEPSPEED_AUTO_VALUE_NOT_FILLED", "(`['zero_optimization.stage3_param_persistence_threshold']`)"),
    ("huggingface_hub.errors.HFValidationError: Cannot have -- or .. in repo_id: '../../ckpt/llama-7b'.",
     "HF_REPO_OR_PATH_NOT_FOUND", "`../../ckpt/llama-7b` is neither an existing local directory nor a valid hub repo id"),
    ("IndexError: Caught IndexError in DataLoader worker process 2.", "TORCH_DATALOADER_WORKER_RAISED",
     "`IndexError` was raised in DataLoader worker process 2"),
    ("[rank3]: Parameters which did not receive grad for rank 3: model.layers.31.mlp.gate.weight",
     "TORCH_DDP_PARAMETER_GRADIENT_MISMATCH", "on rank 3 these parameters got no gradient (not used in producing the loss): "
     "`model.layers.31.mlp.gate.weight`"),
    ("ValueError: fp16 mixed precision is not supported on 'xla'.", "LIBRARY_GPU_CHECK_FAILED",
     "`fp16 mixed precision is not supported on 'xla'`"),
    ("[rank0]: ValueError: --tf32 requires Ampere or a newer GPU arch, cuda>=11 and torch>=1.7", "LIBRARY_GPU_CHECK_FAILED",
     "`--tf32 requires Ampere or a newer GPU arch"),
    ("RuntimeError: The XPU device module is not registered. If you are running on a CPU-only machine, please use "
     "torch.load with map_location=torch.device('cpu') to map your storages to the CPU.", "TORCH_LOAD_DEVICE_NOT_AVAILABLE",
     "saved on a XPU device"),
    ("RuntimeError: torch.compile is not supported on Python < 3.14.1 built with GIL disabled.",
     "TORCH_COMPILE_PYTHON_VERSION_UNSUPPORTED", "GIL-disabled build older than Python 3.14.1"),
    ("ValueError: You are attempting to pad samples but the tokenizer you are using (LlamaTokenizerFast) does not have a "
     "pad token.", "TOKENIZER_SPECIAL_SETTING_MISSING", "The tokenizer has no pad token"),
    ("ValueError: Please specify `target_modules` or `target_parameters` in `peft_config`", "PEFT_TARGET_MODULES_NOT_SPECIFIED",
     "set `target_modules`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


def test_the_specific_entries_take_the_lines_class_entries_read(kb):
    for line, sig_id in [("torch._inductor.exc.InductorError: CppCompileError: C++ compile error", "TORCH_INDUCTOR_CPP_COMPILE_FAILED"),
                         ("ValueError: --tf32 requires Ampere or a newer GPU arch, cuda>=11 and torch>=1.7", "LIBRARY_GPU_CHECK_FAILED"),
                         ("ValueError: `--mixed_precision` arg cannot be set to `fp16` when `bf16` is set in the DeepSpeed "
                          "config file.", "ACCELERATE_DEEPSPEED_CONFIG_CONFLICT")]:
        ids = [s.id for s in kb.explaining(line) if not s.fallback]
        assert ids == [sig_id], (line, ids)


@pytest.mark.parametrize("line", [
    "Original Traceback (most recent call last):", "DataLoader worker process 2 started with pid 4321",
    "    data = fetcher.fetch(index)  # type: ignore[possibly-undefined]",
    "  File \"/usr/local/lib/python3.10/dist-packages/torch/nn/modules/conv.py\", line 456, in _conv_forward",
    "model.load_state_dict(torch.load(output_dir, map_location=args.device))",
    "    raise RuntimeError('Error(s) in loading state_dict for {}:\\n\\t{}'.format(",
    "Missing key(s) in state_dict: none", "torch._dynamo hit config.recompile_limit (8)",
    "[2024-06-18 19:45:55,713] torch._dynamo.convert_frame: [WARNING] Triton only supports devices of CUDA Capability >= 7.0",
    "GPU 0: NVIDIA GeForce RTX 5090 (UUID: GPU-5c2e), CUDA capability sm_120",
    "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120.",
    "If you want to use the NVIDIA GeForce RTX 5090 GPU with PyTorch, please check the instructions at "
    "https://pytorch.org/get-started/locally/",
    "bool is_sm8x = dprops->major == 8 && dprops->minor >= 0;", "torch.serialization.add_safe_globals([argparse.Namespace])",
    "model = torch.jit.load('model_scripted.pt', map_location='cpu')",
    "export TORCHINDUCTOR_CACHE_DIR=/data/cache/inductor TRITON_CACHE_DIR=/data/cache/triton",
    "Command:", "g++ /tmp/torchinductor_user/td/ctdk.main.cpp -D TORCH_INDUCTOR_CPP_WRAPPER -O3 -DNDEBUG -o ctdk.so",
    "optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)", "accelerator.prepare(model, optimizer, train_dataloader)",
    "group_by_length: true", "length_column_name: length", "export NCCL_P2P_DISABLE=1 NCCL_IB_DISABLE=1",
    "deepspeed_config_file: /configs/ds_z3.json", "  \"zero_optimization\": {\"stage\": 3},", "mixed_precision: bf16",
    "adapter_names = [\"__base__\", \"sql\", \"sql\"]", "Saving the dataset (1/1 shards): 100%|██████████| 5000/5000",
    "model = AutoModelForCausalLM.from_pretrained(path, device_map='auto', torch_dtype=torch.bfloat16)",
    "[rank0]: Parameter indices which did receive grad: all", "ddp_find_unused_parameters: false",
    "tf32: true", "Using fp16 mixed precision on cuda:0", "map_location=torch.device('cpu') to map your storages to the CPU",
    "data_collator = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm=False)",
    "LoraConfig(r=16, target_modules=['q_proj', 'v_proj'], target_parameters=None)",
    "sequence_bias = {(151937,): -10.0}", "The model vocabulary size is 151936", "messages: []",
    "  \"reduce_bucket_size\": \"auto\",", "repo_id: Qwen/Qwen2.5-7B-Instruct",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.explaining(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, [sid for sid in FAMILY if sid not in CLASS_ENTRIES]) == []
