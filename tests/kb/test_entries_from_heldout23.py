"""The entries written (or extended) from heldout23's misses, after that set was measured (round 15): each reads the
lines those runs and threads printed and its family's other forms, says the value the line names, and stays quiet on
ordinary lines that share its words. heldout23 itself (tests/fixtures/corpus/heldout23) checks them on the whole
excerpts."""

import pytest

from tests.helpers.kb_parts import english_kb, explained_title

NEW = ["MS_LOAD_PARAM_INTO_NET_NOT_A_DICT", "MS_NUMPY_SLICES_COLUMN_LENGTHS_DIFFER", "TORCH_RNN_INPUT_SIZE_MISMATCH",
       "TORCH_DIST_BACKEND_NOT_BUILT", "HF_TOKENIZER_ERROR_HIDDEN_BY_PROTOBUF_CHECK", "PIP_INSTALL_TARGET_NOT_WRITABLE",
       "SHELL_BASH_SYNTAX_RUN_BY_SH", "NCCL_DTYPE_NOT_SUPPORTED", "RAY_NODE_LOW_ON_MEMORY", "MS_BUILD_CUDNN_NOT_FOUND",
       "NVCC_GPU_ARCH_UNSUPPORTED"]
EXTENDED = ["MS_TENSOR_INIT_DATA_INVALID"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


@pytest.mark.parametrize("line, sig_id, said", [
    ("TypeError: For 'load_param_into_net', the argument 'parameter_dict' should be a dict, but got <class 'str'>.",
     "MS_LOAD_PARAM_INTO_NET_NOT_A_DICT", "given `str`, not a parameter dict"),
    ("ValueError: Data length in each column is not equal.", "MS_NUMPY_SLICES_COLUMN_LENGTHS_DIFFER", "different lengths"),
    ("RuntimeError: input.size(-1) must be equal to input_size. Expected 64, got 128", "TORCH_RNN_INPUT_SIZE_MISMATCH",
     "input_size `64` got inputs of `128` features"),
    ("RuntimeError: Distributed package doesn't have MPI built in. MPI is only included if you build PyTorch from "
     "source on a host that has MPI installed.", "TORCH_DIST_BACKEND_NOT_BUILT", "no MPI backend (PyPI's wheels never"),
    ("RuntimeError: Distributed package doesn't have UCC built in", "TORCH_DIST_BACKEND_NOT_BUILT", "no `UCC` backend"),
    (" requires the protobuf library but it was not found in your environment. Check out the instructions on the",
     "HF_TOKENIZER_ERROR_HIDDEN_BY_PROTOBUF_CHECK", "vocabulary file missing"),
    ("      error: could not create '/opt/venv/lib/python3.11/site-packages/tinyutil': Permission denied",
     "PIP_INSTALL_TARGET_NOT_WRITABLE", "`/opt/venv/lib/python3.11/site-packages/tinyutil`"),
    ("p15_prepare.sh: 3: Bad substitution", "SHELL_BASH_SYNTAX_RUN_BY_SH", "`Bad substitution`"),
    ('run.sh: 5: Syntax error: "(" unexpected', "SHELL_BASH_SYNTAX_RUN_BY_SH", 'Syntax error: "(" unexpected'),
    ("train.sh: 12: [[: not found", "SHELL_BASH_SYNTAX_RUN_BY_SH", "`[[: not found`"),
    ("RuntimeError: Input tensor data type is not supported for NCCL process group: BFloat16",
     "NCCL_DTYPE_NOT_SUPPORTED", "`BFloat16` tensors"),
    ("ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.",
     "RAY_NODE_LOW_ON_MEMORY", "node ran low on host memory (RAM)"),
    ("  Failed to find cudnn library file, please set environment variable", "MS_BUILD_CUDNN_NOT_FOUND", "CUDNN_HOME"),
    ("nvcc fatal   : Unsupported gpu architecture 'compute_89'", "NVCC_GPU_ARCH_UNSUPPORTED", "`compute_89`"),
    ("TypeError: initializing tensor by numpy array failed, numpy array: [list([1, 2, 3]) list([4, 5]) list([6])], "
     "data type: object.", "MS_TENSOR_INIT_DATA_INVALID", "dtype `object`, whose rows have different lengths"),
    ("TypeError: initializing tensor by numpy array failed, numpy array: ['a' 'b'], data type: str_.",
     "MS_TENSOR_INIT_DATA_INVALID", "dtype `str_`, which Tensor does not take"),
])
def test_the_entries_read_their_lines_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    'param_dict = ms.load_checkpoint("net.ckpt"); ms.load_param_into_net(net, param_dict)',
    "self.lstm = nn.LSTM(input_size=64, hidden_size=128, batch_first=True)",
    "print(torch.distributed.is_mpi_available())",
    "LlamaTokenizer requires the protobuf library but it was not found in your environment. Check out the instructions",
    "creating /work/venv/lib/python3.11/site-packages/tinyutil",
    "./run.sh: line 3: ${x//-/_}: bad substitution",
    "dist.all_reduce(t.to(torch.bfloat16))",
    "Ray memory monitor is enabled with threshold 0.95",
    "export CUDNN_HOME=/usr/local/cudnn",
    "-gencode arch=compute_89,code=sm_89",
])
def test_the_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in NEW] == []


@pytest.mark.parametrize("line, error", [
    (b"p15_prepare.sh: 3: Bad substitution", True),
    (b'run.sh: 5: Syntax error: "(" unexpected', True),
    (b"train.sh: 12: [[: not found", True),
    (b"file.py: 3: something to say", False),
])
def test_dashs_error_form_is_an_error_line(line, error):
    """dash reports `<script>: <line>: <message>`: an unexplained one is listed like bash's."""
    from ascend_doctor.triage.lines import is_error_line

    assert is_error_line(line) is error
