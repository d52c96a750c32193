"""Round 18's precision mends: entries whose title or cause claimed more than their line shows, each on the line it was
found saying a false thing (provoked here where the tool runs: Pillow 13 and MindSpore 2.10.0 in /work/fi/venv_ms,
torch 2.13.0 in /work/fi/venv_torch), and the entry that now says what is so."""

import pytest

from tests.helpers.kb_parts import english_kb


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def _explained(kb, line):
    return [(s.id, s.text("en", line=line)[0]) for s in kb.explaining(line)]


@pytest.mark.parametrize("line, sig_id, said, unsaid", [
    # torch's summary follows a worker that exited with a code as well as one killed by a signal: it says neither
    ("RuntimeError: DataLoader worker (pid(s) 23654) exited unexpectedly", "DATALOADER_WORKER_DIED",
     "the line before this one says how", "OOM"),
    ("RuntimeError: DataLoader worker (pid 23680) is killed by signal: Killed. ", "DATALOADER_WORKER_DIED",
     "SIGKILL", "usually"),
    # MindSpore logs this line for any exception while it saves (here after a 7-byte enc_key)
    ("[CRITICAL] ME(28440:140236304427904,MainProcess):2026-12-06-16:15:47.150.00 [mindspore/train/serialization.py:475] "
     "Failed to save the checkpoint file /work/fi/precision/ms/enc2.ckpt. Maybe don't have the permission to write "
     "files, or the disk space is insufficient and so on.", "MS_CKPT_SAVE_FAILED", "the exception raised with this line",
     "could not write"),
    # torch_npu's op-plugin prints MindSpore's sentence in lower case: an inner error, not a missing kernel package
    ("RuntimeError: call aclnnMatmul failed, detail:EZ9999: Inner Error!", "MS_ACLNN_CALL_INNER_ERROR",
     "A call of the CANN operator API `aclnnMatmul` failed with a CANN inner error (EZ9999)", "MindSpore"),
    # vLLM's engine arguments are checked as a pydantic config
    ("  Value error, Invalid value for --max-num-seqs: must be positive [type=value_error, input_value=ArgsKwargs((), "
     "{}), input_type=ArgsKwargs]", "LAUNCH_OPTION_CHECK_FAILED", "The launched program's option checks",
     "training framework"),
    # the clean sweep: a vLLM-Ascend start without the CUDA extension, one overflow step of a dynamic loss scale
    ("WARNING 08-06 08:32:23 [_custom_ops.py:20] Failed to import from vllm._C with ModuleNotFoundError(\"No module "
     "named 'vllm._C'\")", "VLLM_C_CUDART_WARNING_BENIGN", "No module named 'vllm._C'", "libcudart"),
    ("2025-04-10 16:54:20,197 [WARNING] overflow, still update, loss scale adjust to 1024.0", "FP16_OVERFLOW_LOSS_NAN",
     "lowered the scale to 1024.0: now and then is normal", "keeps dropping"),
    # Pillow's short read of a header or block (a JPEG cut to 400 bytes, run here) was named by nothing
    ("OSError: Truncated File Read", "PIL_IMAGE_FILE_TRUNCATED", "the file is truncated", "bytes not processed"),
    # titles that claimed a cause ("usually", "because") their regex does not establish
    ("RuntimeError: Got device count[8] and device id[9], please check if device id is valid.",
     "MS_DEVICE_ID_OUT_OF_RANGE_HOSTNAME", "Device ID 9 but this process sees only 8 devices", "because"),
    ("RuntimeError: Unsupported device target Ascend. This process only supports one of the ['CPU']. Please check "
     "whether the Ascend environment is installed and configured correctly, and check whether current mindspore wheel "
     "package was built with \"-e Ascend\". For details, please refer to \"Device load error message\".",
     "MS_ASCEND_BACKEND_LOAD_FAILED", "its Ascend plugin (libmindspore_ascend.so) was not loaded", "fell back"),
    ("ZeroDivisionError: float division by zero", "MS_DATASET_USER_FUNC_ZERO_DIVISION", "the traceback's last frame",
     "typically"),
    ("E30008: AI CPU operator execution time out.", "AICPU_E30008_OP_TIMEOUT", "the plog names the operator",
     "usually"),
    ("Detected kernel version 4.19.90, which is below the recommended minimum of 5.5.0; this can cause the process to "
     "hang.", "KERNEL_VERSION_WARNING", "4.19.90", "harmless"),
])
def test_the_entry_says_what_its_line_shows(kb, line, sig_id, said, unsaid):
    got = dict(_explained(kb, line))
    assert sig_id in got, list(got)
    assert said in got[sig_id] and unsaid not in got[sig_id], got[sig_id]


def test_an_inner_error_is_not_a_missing_kernel_package(kb):
    for line in ("RuntimeError: call aclnnMatmul failed, detail:EZ9999: Inner Error!",
                 "[ERROR] 2024-07-12 aclnnAdd launch failed for Add, errno:561000"):
        assert "OPP_KERNELS_NOT_INSTALLED_NO_BINARY" not in [s.id for s in kb.explaining(line)], line
    assert [s.id for s in kb.explaining("EZ9999: Inner Error! Op MatMulV2 does not has any binary.")] == [
        "OPP_KERNELS_NOT_INSTALLED_NO_BINARY"]
    # quoted in a CANN TraceBack without an error mark, the sentence is a warning, not a FAIL of its own
    sig = kb.signature("OPP_KERNELS_NOT_INSTALLED_NO_BINARY")
    assert sig.severity_on("        Op Cast does not has any binary.") == "warn"
    assert sig.severity_on("EZ9999: Inner Error! Op MatMulV2 does not has any binary.") == "fail"
