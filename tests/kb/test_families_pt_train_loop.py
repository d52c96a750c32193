"""data/kb/families_pt_train_loop.json: the PyTorch training loop (optimizers, lr schedulers, autocast and GradScaler,
autograd, gradient clipping, nn.Module's API and load_state_dict, the losses' input checks, activation checkpointing,
torch.compile's backend, torch.save/torch.load), written by fault injection with torch 2.13 CPU. Each entry reads
members its examples do not show and says the member in its title; ordinary lines, the clean runs' output and every
clean excerpt of the corpus stay quiet; one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_pt_train_loop")
EXTENDED = ["TRAIN_METRIC_NAN_INF", "TORCH_DIST_BACKEND_NOT_REGISTERED"]
FAMILY = IDS + EXTENDED + ["PT_OPTIMIZER_STATE_MISMATCH", "PT_INPLACE_GRAD_MODIFIED", "TORCH_BACKWARD_WITHOUT_GRAD",
                           "TORCH_AMP_UNSCALE_FP16_GRADIENTS", "TORCH_AUTOGRAD_NAN_IN_BACKWARD",
                           "TORCH_ONECYCLELR_TOTAL_STEPS_EXCEEDED", "TORCH_LOSS_TARGET_SHAPE_INVALID",
                           "TORCH_LOSS_TARGET_OUT_OF_RANGE", "TORCH_CHECKPOINT_SHAPE_MISMATCH",
                           "CHECKPOINT_FILE_UNREADABLE", "PY_SCRIPT_EXCEPTION",
                           "PY_CALL_SIGNATURE_MISMATCH"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert len(IDS) >= 30
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_pt_train_loop.json" and not sig.ascend_fd, sid


@pytest.mark.parametrize("line, sig_id, said", [
    ("ValueError: Invalid weight_decay value: -0.01", "TORCH_OPTIMIZER_HYPERPARAMETER_INVALID", "weight_decay value `-0.01`"),
    ("ValueError: Invalid epsilon value: 0.0.1", "TORCH_OPTIMIZER_HYPERPARAMETER_INVALID", "epsilon value"),
    ("TypeError: optimizer can only optimize Tensors, but one of the params is torch.nn.modules.linear.Linear",
     "TORCH_OPTIMIZER_PARAMS_NOT_LEAF_TENSORS", "only optimize Tensors"),
    ("TypeError: params argument given to the optimizer should be an iterable of Tensors or dicts, but got "
     "torch.FloatTensor", "TORCH_OPTIMIZER_PARAMS_NOT_LEAF_TENSORS", "params argument given to the optimizer"),
    ("[rank1]: KeyError: 'param_groups'", "TORCH_OPTIMIZER_STATE_DICT_WITHOUT_PARAM_GROUPS", "'param_groups'"),
    ("TypeError: ReduceLROnPlateau.step() missing 1 required positional argument: 'metrics'",
     "TORCH_OPTIM_STEP_ARGUMENT_MISSING", "`metrics`"),
    ("TypeError: DistributedDataParallel is not an Optimizer", "TORCH_LR_SCHEDULER_GIVEN_NOT_AN_OPTIMIZER",
     "`DistributedDataParallel`"),
    ("ValueError: Expected positive integer total_steps, but got 0", "TORCH_LR_SCHEDULER_ARGUMENT_INVALID",
     "total_steps, but got 0"),
    ("ValueError: threshold mode relative is unknown!", "TORCH_LR_SCHEDULER_ARGUMENT_INVALID", "threshold mode"),
    ("ValueError: SequentialLR does not support `ReduceLROnPlateau` scheduler as it requires additional kwargs to be "
     "specified when calling `step`, but got one at index 1 in the given schedulers sequence.",
     "TORCH_LR_SCHEDULER_ARGUMENT_INVALID", "does not support ReduceLROnPlateau"),
    ("ValueError: Starting multiplicative factor expected to be greater than 0 and less or equal to 1.",
     "TORCH_LR_SCHEDULER_ARGUMENT_INVALID", "Starting multiplicative factor"),
    ("KeyError: \"param 'initial_lr' is not specified in param_groups[1] when resuming an optimizer\"",
     "TORCH_LR_SCHEDULER_RESUMED_WITHOUT_INITIAL_LR", "param_groups[1]"),
    ("/usr/lib/python3.10/site-packages/torch/optim/lr_scheduler.py:149: UserWarning: Seems like `optimizer.step()` "
     "has been overridden after learning rate scheduler initialization. Please, make sure to call `optimizer.step()` "
     "before `lr_scheduler.step()`.", "TORCH_LR_SCHEDULER_STEP_BEFORE_OPTIMIZER", "before optimizer.step()"),
    ("RuntimeError: step() has already been called since the last update().", "TORCH_GRADSCALER_CALLED_TWICE_PER_STEP",
     "step() has already been called"),
    ("AssertionError: No inf checks were recorded prior to update.", "TORCH_GRADSCALER_STEP_WITHOUT_SCALED_BACKWARD",
     "prior to update"),
    ("UserWarning: In CUDA autocast, but the target dtype is not supported. Disabling autocast.",
     "TORCH_AUTOCAST_DTYPE_NOT_SUPPORTED_DISABLED", "one CUDA autocast"),
    ("RuntimeError: grad can be implicitly created only for real scalar outputs", "TORCH_BACKWARD_ON_NON_SCALAR",
     "more than one element"),
    ("RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.",
     "TORCH_LEAF_TENSOR_INPLACE_WITH_GRAD", "a view of a leaf Variable"),
    ("RuntimeError: The total norm of order inf for gradients from `parameters` is non-finite, so it cannot be "
     "clipped.", "TORCH_CLIP_GRAD_NORM_NON_FINITE", "(order inf)"),
    ("RuntimeError: hook 'grad_hook' has changed the type of value (was torch.FloatTensor got torch.HalfTensor)",
     "TORCH_BACKWARD_HOOK_CHANGED_GRAD", "`grad_hook`"),
    ("AttributeError: cannot assign parameters before Module.__init__() call", "TORCH_MODULE_INIT_NOT_CALLED",
     "parameters"),
    ("KeyError: \"attribute 'running_mean' already exists\"", "TORCH_MODULE_ATTRIBUTE_REGISTRATION_REJECTED",
     "running_mean"),
    ("TypeError: cannot assign 'torch.FloatTensor' as child module 'head' (torch.nn.Module or None expected)",
     "TORCH_MODULE_ATTRIBUTE_REGISTRATION_REJECTED", "child module"),
    ("NotImplementedError: Module [ModuleList] is missing the required \"forward\" function",
     "TORCH_MODULE_FORWARD_NOT_DEFINED", "`ModuleList`"),
    ("\tMissing key(s) in state_dict: \"module.encoder.weight\", \"module.encoder.bias\". ",
     "TORCH_STATE_DICT_KEYS_WRAPPER_PREFIX", "`module.`"),
    ("\tUnexpected key(s) in state_dict: \"model\", \"optimizer\", \"lr_scheduler\", \"epoch\", \"args\". ",
     "TORCH_STATE_DICT_IS_WHOLE_CHECKPOINT", "\"model\", \"optimizer\""),
    ("RuntimeError: Expected floating point type for target with class probabilities, got Long",
     "TORCH_LOSS_TARGET_DTYPE_INVALID", "(`Long`)"),
    ("RuntimeError: result type Float can't be cast to the desired output type Int", "TORCH_RESULT_TYPE_CANNOT_CAST_TO_OUTPUT",
     "Float result cannot be written into a Int"),
    ("RuntimeError: all elements of target should be between 0 and 1", "TORCH_BCE_VALUES_NOT_IN_0_1", "target values"),
    ("UserWarning: Using a target size (torch.Size([8, 1])) that is different to the input size (torch.Size([8])). "
     "This will likely lead to incorrect results due to broadcasting.", "TORCH_LOSS_TARGET_SIZE_BROADCAST",
     "torch.Size([8, 1]) differs"),
    ("RuntimeError: Expected target_lengths to have value at least 0, but got value -1 (while checking arguments for "
     "ctc_loss_allocate_outputs)", "TORCH_CTC_LOSS_LENGTHS_INVALID", "target_lengths"),
    ("torch._dynamo.exc.InvalidBackend: Invalid backend: 'npugraph_ex', see `torch._dynamo.list_backends()` for "
     "available backends.", "TORCH_COMPILE_BACKEND_UNKNOWN", "`npugraph_ex`"),
    ("RuntimeError: Parent directory output/ckpt-500 does not exist.", "TORCH_SAVE_PARENT_DIRECTORY_MISSING",
     "`output/ckpt-500`"),
    ("RuntimeError: don't know how to restore data location of torch.storage.UntypedStorage (tagged with xla:0)",
     "TORCH_LOAD_LOCATION_TAG_UNKNOWN", "`xla:0`"),
    ("epoch 3 step 120 loss nan grad_norm nan", "TRAIN_METRIC_NAN_INF", "NaN"),
    ("ValueError: Invalid backend: 'hccl'", "TORCH_DIST_BACKEND_NOT_REGISTERED", "backend `hccl`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # the clean runs' output (faults/c1_clean_train_sched_amp.py, faults/c2_clean_plateau_ckpt_compile.py)
    "epoch 0 step 4 loss 1.3715 grad_norm 0.3275 lr 0.001883",
    "resumed from checkpoint, missing keys: 0, unexpected keys: 0",
    "Epoch 2: train_loss=1.3412 val_loss=1.3412 best=inf lr=0.1",
    "<All keys matched successfully>",
    "_IncompatibleKeys(missing_keys=[], unexpected_keys=[])",
    "/work/fi/venv_torch/lib/python3.11/site-packages/torch/autograd/graph.py:869: UserWarning: Anomaly Detection has "
    "been enabled. This mode will increase the runtime and should only be enabled for debugging.",
    "compiled out torch.Size([32, 4])",
    # ordinary lines that share words
    "Epoch 00003: reducing learning rate of group 0 to 1.0000e-03.",
    "step 10 loss 0.6931 lr 0.00010 scale 65536.0",
    "Adjusting learning rate of group 0 to 1.0000e-02.",
    "torch.utils.checkpoint: use_reentrant=False",
    "Saving model checkpoint to output/checkpoint-500",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


def test_the_compile_backend_line_is_not_a_distributed_backend(kb):
    line = ("torch._dynamo.exc.InvalidBackend: Invalid backend: 'npu', see `torch._dynamo.list_backends()` for "
            "available backends.")
    assert [s.id for s in kb.explaining(line)] == ["TORCH_COMPILE_BACKEND_UNKNOWN"]
