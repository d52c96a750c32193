"""Round 19's precision sweep of verbose clean runs: output of runs that went fine, made here with every log level
turned up (MindSpore 2.10.0 and 2.7.0 pip CPU builds at GLOG_v=0 and GLOG_v=1 in GRAPH_MODE and PyNative, with
checkpoints, a dataset pipeline in debug mode with autotune, the profiler, and `msrun` with 2 workers: its console,
scheduler and worker logs; torch 2.13.0 CPU: `torchrun` with TORCH_DISTRIBUTED_DEBUG=DETAIL, TORCH_CPP_LOG_LEVEL=INFO
and LOGLEVEL=DEBUG over gloo, torch.compile with TORCH_LOGS=+dynamo, the HF Trainer and `accelerate launch` with
`--log_level debug`; `pip install -v` and `pip check`, `uv pip install -v` and `uv pip check`, `python -X dev -W default`, git with GIT_TRACE=1, `curl -v`
against a local server, `strace -f` of a script, dmesg, an `env` dump with HCCL_*/ASCEND_* variables, `bash -x` of a
script laid out as CANN's set_env.sh; and `npu-smi info` lines quoted in
https://github.com/vllm-project/vllm-ascend/issues/2534). Each run is kept, trimmed to at most 400 lines (its head and
tail and the lines holding words such as error, fail, timeout, invalid, leak, retry), under tests/kb/clean_runs_r19/.

Every line an entry called a fault in them is here with the entry that now stays quiet on it, and the entry still
reads the lines that are its members."""

import os

import pytest

from tests.helpers.kb_parts import english_kb

HERE = os.path.join(os.path.dirname(__file__), "clean_runs_r19")

# MindSpore logs these at INFO while it probes for its Ascend plugin on every import of a CPU (or GPU) build; where
# Ascend is asked for and the plugin is missing, the run fails with "Unsupported device target Ascend", whose
# "Device load error message" list repeats the sentence without the INFO header (still read below)
MS_PROBE_ASCEND = (
    "[INFO] ME(19104,7f94126b7b80,python):2026-12-06-19:56:48.014.526 [mindspore/ccsrc/runtime/hardware_abstract/"
    "device_context/device_context_manager.cc:201] LoadDynamicLib] Load dynamic library: libmindspore_ascend.so.2 "
    "failed. libge_runner.so: cannot open shared object file: No such file or directory")
MS_PROBE_OPS = (
    "[INFO] ME(20125,7f107a1deb80,python):2026-12-06-19:57:18.859.997 [mindspore/ccsrc/runtime/hardware_abstract/"
    "device_context/device_context_manager.cc:201] LoadDynamicLib] Load dynamic library: libmindspore_ops_ascend.so "
    "failed. libmindspore_ascend_res_manager.so: cannot open shared object file: No such file or directory")
# msrun's workers retry the scheduler's port until it listens; each refused attempt is an INFO line
MS_RPC_RETRY = (
    "[INFO] DISTRIBUTED(21095,7fbe10e9e6c0,python):2026-12-06-19:57:49.941.305 [mindspore/ccsrc/cluster/rpc/tcp/"
    "tcp_comm.cc:35] DoDisconnect] Failed to call connect, fd: 11 from :  to: , events: 8216, errno: 111 Connection "
    "refused")
# uv's DEBUG note (uv pip install -v) where the file system cannot reflink: it copies instead and the install succeeds
UV_REFLINK_DEBUG = (
    "DEBUG Failed to reflink `/root/.cache/uv/archive-v0/kTqcmtudrj96s3Gu/six-1.17.0.dist-info/RECORD` to "
    "`/tmp/r19p/uvtest/lib/python3.11/site-packages/six-1.17.0.dist-info/RECORD`: Operation not supported (os error "
    "95), falling back")
# MindSpore 2.7's DeviceAddress destructor at DEBUG (GLOG_v=0), 284 times in a clean 2-epoch PyNative run
MS_DEVICE_ADDRESS_DEBUG = (
    "[DEBUG] ME(30147,7f91aeffd6c0,python):2026-12-06-20:07:32.425.821 [mindspore/ops/kernel/common/device_address.cc:87]"
    " ~DeviceAddress] Maybe memory leak detect in device address:0x7f91a400b6b0 device type:0 host shape:[const vector]"
    "{8, 16} device shape:[const vector]{} address common:0x7f91a400b0f0  size:512 tensor storage info:0 size:512")


@pytest.fixture(scope="module")
def kb():
    return english_kb()


@pytest.mark.parametrize("line, quiet", [
    (MS_PROBE_ASCEND, ["CANN_ENV_LIB_NOT_FOUND", "MS_CANN_OPP_OR_PLUGIN_LOAD_FAILED", "MS_ASCEND_BACKEND_LOAD_FAILED",
                       "OS_ERRNO_REPORTED"]),
    (MS_PROBE_ASCEND.replace("[INFO]", "[DEBUG]"), ["CANN_ENV_LIB_NOT_FOUND", "MS_CANN_OPP_OR_PLUGIN_LOAD_FAILED"]),
    (MS_PROBE_OPS, ["OS_ERRNO_REPORTED", "MS_CANN_OPP_OR_PLUGIN_LOAD_FAILED"]),
    (MS_RPC_RETRY, ["OS_ERRNO_REPORTED"]),
    (UV_REFLINK_DEBUG, ["OS_ERRNO_REPORTED"]),
    (MS_DEVICE_ADDRESS_DEBUG, ["HOST_MEMORY_LEAK_GROWTH"]),
])
def test_a_clean_runs_line_is_no_longer_called_a_fault(kb, line, quiet):
    got = [s.id for s in kb.explaining(line)]
    assert not set(got) & set(quiet), got


@pytest.mark.parametrize("line, sig_id", [
    # the sentence in the RuntimeError's "Device load error message" list, and at WARNING, stays the entries'
    ("Load dynamic library: libmindspore_ascend.so.2 failed. libge_runner.so: cannot open shared object file: No such "
     "file or directory", "CANN_ENV_LIB_NOT_FOUND"),
    ("Load dynamic library: libmindspore_ascend.so.2 failed. libge_runner.so: cannot open shared object file: No such "
     "file or directory", "MS_CANN_OPP_OR_PLUGIN_LOAD_FAILED"),
    ("[WARNING] ME(12345:281473445891232,MainProcess):2024-05-11-10:02:33.123.456 Load dynamic library: "
     "libmindspore_ascend.so.2 failed. libge_runner.so: cannot open shared object file: No such file or directory",
     "MS_CANN_OPP_OR_PLUGIN_LOAD_FAILED"),
    ("ImportError: libhccl.so: cannot open shared object file: No such file or directory", "CANN_ENV_LIB_NOT_FOUND"),
    ("ConnectionRefusedError: [Errno 111] Connection refused", "OS_ERRNO_REPORTED"),
    ("OSError: [Errno 2] No such file or directory: '/data/train.json'", "OS_ERRNO_REPORTED"),
    ("训练过程中主机内存持续增长，最终被 OOM killer 杀掉", "HOST_MEMORY_LEAK_GROWTH"),
])
def test_the_mended_entries_still_read_their_members(kb, line, sig_id):
    assert sig_id in [s.id for s in kb.match_line(line)]


@pytest.mark.parametrize("sig_id", ["CANN_ENV_LIB_NOT_FOUND", "MS_CANN_OPP_OR_PLUGIN_LOAD_FAILED",
                                    "MS_ASCEND_BACKEND_LOAD_FAILED", "OS_ERRNO_REPORTED", "HOST_MEMORY_LEAK_GROWTH"])
def test_the_mended_entries_keep_their_examples_and_near_misses(kb, sig_id):
    sig = kb.signature(sig_id)
    assert sig.examples
    for ex in sig.examples:
        assert sig_id in [s.id for s in kb.match_line(ex)], ex
    for nm in sig.near_misses:
        assert sig_id not in [s.id for s in kb.match_line(nm)], nm


# what triage says on a clean run and is true: the line states it (judged one by one)
JUSTIFIED = {
    # MindSpore 2.10.0's PyNative import of numpy.core under NumPy 2.4.6 prints NumPy's own message (and then
    # "[WARNING] ... Numpy init failed."): a module built for NumPy 1.x is loaded under NumPy 2.x; the run went on
    "ms_pynative_glog0.log": {"NUMPY2_INCOMPATIBLE"},
}


def _runs():
    return sorted(f for f in os.listdir(HERE) if f.endswith(".log"))


def test_the_kept_runs_are_short_and_many():
    runs = _runs()
    assert len(runs) >= 25
    for name in runs:
        with open(os.path.join(HERE, name), encoding="utf-8") as fh:
            assert 0 < len(fh.read().splitlines()) <= 400, name


@pytest.mark.parametrize("name", _runs())
def test_triage_says_nothing_wrong_on_a_clean_verbose_run(name):
    from ascend_doctor.i18n import set_lang
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.triage.scan import triage_paths

    set_lang("en")
    problems = triage_paths([os.path.join(HERE, name)], load_knowledge_base()).to_json()["problems"]
    said = {(p["id"], p["severity"]) for p in problems if p["severity"] in ("warn", "fail")}
    assert {i for i, _ in said} <= JUSTIFIED.get(name, set()), (name, said)
