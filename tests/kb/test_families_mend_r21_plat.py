"""data/kb/families_mend_r21_plat.json: round 21's mends for the platform and the GPU stack: OpenMP's duplicate runtime
(error #15) and threads it cannot create, PyTorch's MPS backend without float64, memory or an operator, jax and jaxlib
that are not a pair, wandb without an API key or a terminal, safetensors given values that are not tensors, pip's
refused constraint forms and unknown extras, TLS servers that require a client certificate, a deleted working directory
(bash, dash, git, pwd), tar members not in the archive and a tar decompression option that does not match the archive.
Each entry reads members its examples do not show, says the member in its title, stays quiet on ordinary lines and on
every clean corpus excerpt; `gzip: stdin: not in gzip format` moved from INSTALL_PACKAGE_ARCHIVE_CORRUPTED (whose title
said the package was damaged) to the decompressor entry, `tar: This does not look like a tar archive` to
ARCHIVE_TOOL_FILE_DAMAGED, and ARCHIVE_TOOL_FILE_DAMAGED leaves xz's `(stdin)` line to the decompressor entry."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_mend_r21_plat")
FAMILY = IDS + ["TAR_STOPPED_ON_EARLIER_ERROR", "ARCHIVE_TOOL_FILE_DAMAGED", "INSTALL_PACKAGE_ARCHIVE_CORRUPTED",
                "HTTP_REQUEST_AUTH_REJECTED", "TLS_CERTIFICATE_NOT_TRUSTED",
                "OS_ERRNO_REPORTED", "FW_FILE_NOT_FOUND", "PY_MODULE_NOT_INSTALLED",
                "TORCH_COMPILE_PYTHON_VERSION_UNSUPPORTED"]
WARNINGS = {"PIP_EXTRA_NOT_PROVIDED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) >= 10 and "OPENMP_RUNTIME_LOADED_TWICE" in IDS and "TAR_DECOMPRESSOR_INPUT_WRONG_FORMAT" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mend_r21_plat.json" and not sig.ascend_fd
        assert sig.kind == "root", sid
        assert not sig.fallback and sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    ("OMP: Error #15: Initializing libomp140.x86_64.dll, but found libiomp5md.dll already initialized.",
     "OPENMP_RUNTIME_LOADED_TWICE", "`libomp140.x86_64.dll` was being initialized while `libiomp5md.dll`"),
    ("OMP: Error #34: System unable to allocate necessary resources for the monitor thread:",
     "OPENMP_THREAD_RESOURCES_UNAVAILABLE", "(`System unable to allocate necessary resources for the monitor thread`)"),
    ("OMP: Error #37: Unable to set OMP thread stack size to 8388608 bytes:", "OPENMP_THREAD_RESOURCES_UNAVAILABLE",
     "`Unable to set OMP thread stack size to 8388608 bytes`"),
    ("=> Error inspecting tensor: #<RuntimeError: Cannot convert a MPS Tensor to float64 dtype as the MPS framework "
     "doesn't support float64. Please use float32 instead.>", "TORCH_MPS_DTYPE_UNSUPPORTED", "does not support float64 tensors"),
    ("RuntimeError: MPS backend out of memory (MPS allocated: 42.28 GiB, other allocations: 720.00 KiB). Tried to "
     "allocate 384.00 MiB on shared pool.", "TORCH_MPS_OUT_OF_MEMORY", "allocating 384.00 MiB with 42.28 GiB already"),
    ("RuntimeError: MPS backend out of memory (MPS allocated: 9.00 GiB, other allocations: 464.00 KiB, max allowed: 9.32 "
     "GiB). Tried to allocate 1024.00 MiB on private pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit "
     "for memory allocations (may cause system failure).", "TORCH_MPS_OUT_OF_MEMORY", "(max allowed: 9.32 GiB)"),
    ("NotImplementedError: The operator 'aten::upsample_bicubic2d.out' is not currently implemented for the MPS device. If "
     "you want this op to be considered for addition please comment on https://github.com/pytorch/pytorch/issues/141287",
     "TORCH_MPS_OP_NOT_IMPLEMENTED", "`aten::upsample_bicubic2d.out`"),
    ("RuntimeError: jaxlib is version 0.1.75, but this version of jax requires version >= 0.3.0.",
     "JAX_JAXLIB_VERSION_MISMATCH", "jaxlib `0.1.75` and jax are not a compatible pair (this jax needs jaxlib >= `0.3.0`)"),
    ("RuntimeError: jaxlib version 0.4.30 is newer than and incompatible with jax version 0.4.26. Please update your jax "
     "and/or jaxlib packages.", "JAX_JAXLIB_VERSION_MISMATCH", "`0.4.30` and jax `0.4.26` are not a compatible pair "
     "(jaxlib is newer than jax)"),
    ("wandb: ERROR api_key not configured (no-tty). call wandb login [your_api_key]",
     "WANDB_API_KEY_NOT_CONFIGURED_NO_TTY", "no terminal"),
    ("wandb.errors.error.UsageError: api_key not configured (no-tty).  Run wandb login",
     "WANDB_API_KEY_NOT_CONFIGURED_NO_TTY", "`api_key not configured (no-tty)`"),
    ("ValueError: Key `model.lm_head` is invalid, expected paddle.Tensor but received <class 'numpy.ndarray'>",
     "SAFETENSORS_SAVE_VALUE_NOT_TENSOR", "key `model.lm_head` holds `<class 'numpy.ndarray'>`, not a paddle.Tensor"),
    ("ValueError: Expected a dict of [str, torch.Tensor] but received <class 'list'>",
     "SAFETENSORS_SAVE_VALUE_NOT_TENSOR", "`<class 'list'>`"),
    ("ERROR: Editable requirements are not allowed as constraints", "PIP_CONSTRAINT_FORM_NOT_ALLOWED",
     "(`Editable requirements are not allowed as constraints`)"),
    ("pip._internal.exceptions.InstallationError: Constraints cannot have extras", "PIP_CONSTRAINT_FORM_NOT_ALLOWED",
     "(`Constraints cannot have extras`)"),
    ("WARNING: torch 2.3.0+cu121 does not provide the extra 'cuda'", "PIP_EXTRA_NOT_PROVIDED",
     "`torch 2.3.0+cu121` does not define the extra `[cuda]`"),
    ("curl: (56) OpenSSL SSL_read: OpenSSL/3.0.19: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 0",
     "TLS_CLIENT_CERTIFICATE_REQUIRED", "(tlsv13 alert certificate required)"),
    ("ssl.SSLError: [SSL: PEER_DID_NOT_RETURN_A_CERTIFICATE] peer did not return a certificate (_ssl.c:1000)",
     "TLS_CLIENT_CERTIFICATE_REQUIRED", "(peer did not return a certificate)"),
    ("2026/12/07 03:00:00 http: TLS handshake error from 10.0.0.3:51234: tls: client didn't provide a certificate",
     "TLS_CLIENT_CERTIFICATE_REQUIRED", "client certificate (mutual TLS)"),
    ("chdir: error retrieving current directory: getcwd: cannot access parent directories: No such file or directory",
     "CWD_DELETED_GETCWD_FAILED", "(getcwd failed: `No such file or directory`) in `chdir`"),
    ("shell-init: error retrieving current directory: getcwd: cannot access parent directories: Operation not permitted",
     "CWD_DELETED_GETCWD_FAILED", "`Operation not permitted`"),
    ("sh: 1: pwd: getcwd() failed: No such file or directory", "CWD_DELETED_GETCWD_FAILED", "in `sh`"),
    ("/bin/pwd: couldn't find directory entry in ‘..’ with matching i-node", "CWD_DELETED_GETCWD_FAILED",
     "(getcwd failed: `couldn't find directory entry"),
    ("fatal: Unable to read current working directory: No such file or directory", "CWD_DELETED_GETCWD_FAILED",
     "`No such file or directory`"),
    ("tar: ./run7/config.yaml: Not found in archive", "TAR_MEMBER_NOT_IN_ARCHIVE", "no member `./run7/config.yaml`"),
    ("tar: ckpt/a.bin: Required occurrence not found in archive", "TAR_MEMBER_NOT_IN_ARCHIVE",
     "`ckpt/a.bin` in the archive (Required occurrence)"),
    ("xz: (stdin): File format not recognized", "TAR_DECOMPRESSOR_INPUT_WRONG_FORMAT", "`xz` was given data"),
    ("bzip2: (stdin) is not a bzip2 file.", "TAR_DECOMPRESSOR_INPUT_WRONG_FORMAT", "(`(stdin) is not a bzip2 file`)"),
    ("gzip: stdin: not in gzip format", "TAR_DECOMPRESSOR_INPUT_WRONG_FORMAT", "(`stdin: not in gzip format`)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "OMP: Info #276: omp_set_nested routine deprecated, please use omp_set_max_active_levels instead.",
    "export KMP_DUPLICATE_LIB_OK=TRUE", "OMP_NUM_THREADS=8", "OMP: Hint: Try decreasing the value of OMP_NUM_THREADS.", "device(type='mps', index=0)", "dtype=torch.float64",
    "export PYTORCH_ENABLE_MPS_FALLBACK=1", "export PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0",
    "UserWarning: The operator 'aten::linalg_svd' is not currently supported on the MPS backend and will fall back to "
    "run on the CPU. This may have performance implications.",
    "jax version 0.4.30", "Successfully installed jax-0.4.30 jaxlib-0.4.30", "export WANDB_MODE=offline",
    "wandb: Currently logged in as: alice. Use `wandb login --relogin` to force relogin",
    "save_file(tensors, 'model.safetensors')", "metadata={'format': 'pt'}",
    "pip install -r requirements.txt -c constraints.txt", "Provides-Extra: yaml",
    "Requirement already satisfied: pyyaml in ./venv/lib/python3.11/site-packages (from trainutils[yaml])",
    "verify depth is 1, must return a certificate", "ssl.CERT_REQUIRED", "Verify return code: 0 (ok)",
    "cwd = os.getcwd()", "Current working directory: /tmp/run", "tar -tzf run7.tar.gz", "run7/checkpoints/epoch_10.ckpt",
    "tar: Removing leading `/' from member names", "ckpt_run7.tar.xz: XZ compressed data", "gzip: compressed 63.2%",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


def test_the_lines_other_entries_read_stay_theirs(kb):
    # a damaged .run package and a named archive keep their entries; Go's TLS alert stays the auth entry's
    explained_title(kb, "Error in SHA256 checksums: abc123 is different from def456", "INSTALL_PACKAGE_ARCHIVE_CORRUPTED",
                    among=FAMILY)
    explained_title(kb, "gzip: stdin: unexpected end of file", "INSTALL_PACKAGE_ARCHIVE_CORRUPTED", among=FAMILY)
    explained_title(kb, "xz: model.tar.xz: File format not recognized", "ARCHIVE_TOOL_FILE_DAMAGED", among=FAMILY)
    explained_title(kb, "gzip: fake.tar.gz: not in gzip format", "ARCHIVE_TOOL_FILE_DAMAGED", among=FAMILY)
    # tar's 'not a tar archive' says the file's format, not that an installation package is damaged
    explained_title(kb, "tar: This does not look like a tar archive", "ARCHIVE_TOOL_FILE_DAMAGED", among=FAMILY)
    explained_title(kb, "remote error: tls: certificate required", "HTTP_REQUEST_AUTH_REJECTED", among=FAMILY)
