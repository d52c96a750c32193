"""data/kb/families_ms_train_api.json: MindSpore's training APIs, written by fault injection (round 13): typical user
faults of learning-rate schedules, loss scaling on the CPU, Cell containers, argument types, Model's sink_size /
metrics / callbacks, the checkpoint, EarlyStopping / ReduceLROnPlateau and SummaryCollector callbacks, metrics, the
profiler, the GLOG_* variables and export, run with mindspore 2.10.0 on the CPU. Each entry reads members its examples
do not show, says the member in its title, stays quiet on ordinary lines of the same runs and on every clean excerpt of
the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_ms_train_api")
EXTENDED = ["MS_OPTIMIZER_ARGUMENT_INVALID", "PY_CALL_SIGNATURE_MISMATCH"]
WARNINGS = {"MS_CALLBACK_MONITOR_KEY_NOT_AVAILABLE", "MS_PROFILER_PARAMETER_RESET"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert len(IDS) == 19  # (+ round 15's mends: tests/kb/test_entries_from_heldout23.py) and "MS_LR_SCHEDULE_ARGUMENT_INVALID" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_ms_train_api.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.severity == ("warn" if sid in WARNINGS else "fail"), sid
        assert sig.fallback == (sid == "MS_API_ARGUMENT_TYPE_WRONG"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # siblings in MindSpore's source that the runs did not print
    ("ValueError: For 'PolynomialDecayLR', the 'power' must be float and must > 0, but got '0.0' with type 'float'.",
     "MS_LR_SCHEDULE_ARGUMENT_INVALID",
     "`PolynomialDecayLR` rejected its argument `power`: it must be float and must > 0 (got 0.0)"),
    ("ValueError: For 'piecewise_constant_lr', the size of 'milestone' must be same with the size of 'learning_rates', "
     "but got 'milestone' size: 3, 'learning_rates' size: 2.", "MS_LR_SCHEDULE_ARGUMENT_INVALID",
     "`piecewise_constant_lr` rejected its argument `milestone`"),
    ("ValueError: The 'total_step' must be int and must > 0, but got '0' with type 'int'.",
     "MS_LR_SCHEDULE_ARGUMENT_INVALID", "its argument `total_step`: it must be int and must > 0 (got 0)"),
    ("TypeError: For 'SequentialCell', each cell must be subclass of Cell, but got builtin_function_or_method.",
     "MS_CELL_CHILD_NOT_A_CELL", "(`builtin_function_or_method`) was given as a sub-cell of `SequentialCell`"),
    ("KeyError: \"For 'insert_param_to_cell', the argument 'param_name' should not contain'.' \"",
     "MS_CELL_CHILD_NAME_INVALID", "`insert_param_to_cell`"),
    ("KeyError: \"For 'insert_child_to_cell', the fc child cell already exists in the network.\"",
     "MS_CELL_CHILD_NAME_INVALID", "`insert_child_to_cell`"),
    ("TypeError: The type of 'update_decay_epoch' should be 'bool', but got type 'int'.",
     "MS_LR_SCHEDULE_ARGUMENT_INVALID", "`update_decay_epoch`: it should be 'bool' (got int)"),
    ("TypeError: The type of 'drop_overflow_update' should be 'bool', but got type 'str'.",
     "MS_API_ARGUMENT_TYPE_WRONG", "`drop_overflow_update` was given a value of the wrong type (got `str`)"),
    ("ValueError: For 'Model.fit', The parameter 'sink_size' must be -1 or positive, but got -2.",
     "MS_MODEL_SINK_SIZE_INVALID", "`Model.fit`: sink_size must be -1 or positive (got -2)"),
    ("ValueError: The 'sink_size' must be -1 or positive, but got sink_size 0.", "MS_MODEL_SINK_SIZE_INVALID", "(got 0)"),
    ("TypeError: The 'callbacks' is not a Callback or a list of Callback.", "MS_TRAIN_CALLBACKS_NOT_CALLBACK",
     "callbacks must be Callback objects"),
    ("TypeError: For 'CheckpointConfig', the type of 'append_info' must be list,but got <class 'str'>.",
     "MS_CHECKPOINT_CALLBACK_CONFIG_INVALID", "`CheckpointConfig` rejected its checkpoint settings: the type of "
     "'append_info'"),
    ("RuntimeError: The 'MAE' can not be calculated, because the number of samples is 0, please check whether your "
     "inputs(predicted value, true value) are empty, or has called update method before calling eval method.",
     "MS_METRIC_EVAL_WITHOUT_SAMPLES", "metric `MAE` evaluated with no samples"),
    ("ValueError: For 'Loss.update', it needs 1 input (loss), but got 2", "MS_METRIC_UPDATE_INPUT_COUNT",
     "`Loss.update` got 2 inputs: it needs 1 input (loss)"),
    ("[WARNING] ME(1:1,MainProcess):2026-12-06-01:17:28.356.000 [mindspore/profiler/schedule.py:213] Parameter "
     "'active' should be of type int, but got int. reset to int 1.", "MS_PROFILER_PARAMETER_RESET",
     "`active` and used its default (`1`)"),
    ("ValueError: Incorrect value, the value of logger_maxBytes must be positive integer. But got logger_maxBytes:abc.",
     "MS_LOG_ENV_VALUE_INVALID", "`logger_maxBytes` has a value it does not accept (got `abc`)"),
    ("ValueError: Export ONNX format model only support nn.Cell object, but got <class 'function'>.",
     "MS_EXPORT_ARGUMENT_INVALID", "Export ONNX format model only support nn.Cell object"),
    ("ValueError: For \"SummaryCollector\", the value of `max_file_size` should be greater than 0, but got `-1`.",
     "MS_SUMMARY_COLLECTOR_ARGUMENT_INVALID", "`max_file_size` must be greater than 0 (got `-1`)"),
    ("ValueError: mode should be 'auto', 'min' or 'max', but got Max.", "MS_CALLBACK_MODE_INVALID", "(got `Max`)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("ValueError: For 'Optimizer', if 'learning_rate' is Tensor type, then the dimension of it should be 0 or 1, "
     "but got 2.", "MS_OPTIMIZER_ARGUMENT_INVALID", "`Optimizer` rejected its `learning_rate` (got 2)"),
    ("KeyError: \"For 'Optimizer', the key in group params must be one of in ['params', 'lr', 'weight_decay', "
     "'order_params', 'grad_centralization'], but got ['learning_rate'].\"", "MS_OPTIMIZER_ARGUMENT_INVALID",
     "`key in group params` (got ['learning_rate'])"),
    ("ValueError: For 'Adam', the 'beta2' must be in range of (0.0, 1.0), but got 1.0 with type 'float'.",
     "MS_OPTIMIZER_ARGUMENT_INVALID", "`Adam` rejected its `beta2` (got 1.0)"),
    ("ValueError: For 'Momentum', the argument 'momentum' must be at least 0.0, but got -0.9",
     "MS_OPTIMIZER_ARGUMENT_INVALID", "`Momentum` rejected its `momentum` (got -0.9)"),
    ("TypeError: For 'Momentum', the type of 'momentum' should be 'float', but got type 'int'.",
     "MS_OPTIMIZER_ARGUMENT_INVALID", "`Momentum` rejected its `momentum` (got int)"),
    ("TypeError: missing a required argument: 'learning_rate'", "PY_CALL_SIGNATURE_MISMATCH",
     "missing a required argument: 'learning_rate'"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # ordinary lines of the clean runs (Model.train with callbacks, amp O2 with a fixed loss scale, value_and_grad)
    "[WARNING] ME(15071:140333076052864,MainProcess):2026-12-06-01:15:36.650.00 [mindspore/context.py:1343] For "
    "'context.set_context', the parameter 'device_target' will be deprecated and removed in a future version. Please "
    "use the api mindspore.set_device() instead.",
    "[WARNING] ME(17859:140420713843584,MainProcess):2026-12-06-01:16:52.690.000 [mindspore/common/_decorator.py:69] "
    "'FusedSparseAdam' is deprecated from version 2.8.0 and will be removed in a future version.",
    "[WARNING] ME(14217:140541528902528,MainProcess):2026-12-06-01:14:56.812.000 [mindspore/train/serialization.py:2218]"
    " mindspore.export(file_format='ONNX') will be deleted, please use mindspore.onnx.export()",
    "[WARNING] ME(14822:140717662014336,MainProcess):2026-12-06-01:15:17.353.000 [mindspore/profiler/schedule.py:225] "
    "Profiler won't be using warmup, this can skew profiler results",
    "epoch: 2 step: 4, loss is 0.9371498227119446",
    "Train epoch time: 238.017 ms, per step time: 59.504 ms",
    "{'acc': 0.4375}",
    "    raise ValueError(\"mode should be 'auto', 'min' or 'max', but got %s.\" % self.mode)",
    "    validator.check_positive_int(decay_steps, 'decay_steps', cls_name)",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS) == []
