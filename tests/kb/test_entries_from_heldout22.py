"""The entries written (or extended) from heldout22's misses, after that set was measured (round 14): each reads the
lines those runs and threads printed and its family's other forms, says the value the line names, and stays quiet on
ordinary lines that share its words. heldout22 itself (tests/fixtures/corpus/heldout22) checks them on the whole
excerpts."""

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title

NEW = ["DDP_DEVICE_IDS_FOR_CPU_MODULE", "CUDA_DRIVER_TOO_OLD_FOR_TORCH", "PROTOBUF_GENERATED_CODE_TOO_OLD",
       "ORT_CANN_EP_PROVIDER_OPTIONS_INVALID"]
EXTENDED = ["SHELL_UNBOUND_VARIABLE"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


@pytest.mark.parametrize("line, sig_id, said", [
    ("[rank0]: ValueError: DistributedDataParallel device_ids and output_device arguments only work with "
     "single-device/multiple-device GPU modules or CPU modules, but got device_ids [0], output_device None, and module "
     "parameters {device(type='cpu')}.", "DDP_DEVICE_IDS_FOR_CPU_MODULE", "(`[0]`) for a model on the CPU"),
    ("The NVIDIA driver on your system is too old (found version 10010).", "CUDA_DRIVER_TOO_OLD_FOR_TORCH", "`10010`"),
    ("RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by "
     "downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx",
     "CUDA_DRIVER_TOO_OLD_FOR_TORCH", "`11040`"),
    ("TypeError: Descriptors cannot not be created directly.", "PROTOBUF_GENERATED_CODE_TOO_OLD", "3.20.x"),
    ("TypeError: Descriptors cannot be created directly.", "PROTOBUF_GENERATED_CODE_TOO_OLD", "protoc >= 3.19.0"),
    ("EP Error /root/onnxruntime/onnxruntime/core/providers/cann/cann_execution_provider_info.cc:40 static "
     "onnxruntime::CANNExecutionProviderInfo onnxruntime::CANNExecutionProviderInfo::FromProviderOptions(const "
     "onnxruntime::ProviderOptions&) [ONNXRuntimeError] : 1 ", "ORT_CANN_EP_PROVIDER_OPTIONS_INVALID", "provider options"),
    ("./p12_launch.sh: line 6: DEVICE_IDS[$i]: unbound variable", "SHELL_UNBOUND_VARIABLE", "(`DEVICE_IDS[$i]`)"),
    ("launch_unbound.sh: line 4: RANK_ID: unbound variable", "SHELL_UNBOUND_VARIABLE", "(`RANK_ID`)"),
])
def test_the_entries_read_their_lines_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "model = DDP(model, device_ids=[local_rank], output_device=local_rank)",
    "NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2",
    "Requirement already satisfied: protobuf<=3.20.3 in ./venv/lib/python3.9/site-packages",
    "providers = [('CANNExecutionProvider', {'device_id': 0, 'npu_mem_limit': 21474836480})]",
    "echo \"DEVICE_IDS[$i] is unbound until set\"",
])
def test_the_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in NEW + EXTENDED] == []


def test_vllms_bfloat16_sentence_alone_is_a_warning_and_its_exception_a_fail(kb):
    """The sentence vLLM raises as a ValueError, quoted alone (a pasted message, a docs page), is not an error report."""
    sig = kb.signature("VLLM_BF16_NEEDS_COMPUTE_CAPABILITY_8")
    line = ("Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla P100-PCIE-16GB GPU "
            "has compute capability 6.0.")
    assert sig.severity_on(line) == "warn" and sig.severity_on("ValueError: " + line) == "fail"


def test_the_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, NEW + EXTENDED) == []
