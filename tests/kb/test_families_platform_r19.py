"""data/kb/families_platform_r19.json: the platform under training jobs (round 19): Python's json encoder and decoder
(NaN/Infinity under allow_nan=False, circular references, a UTF-8 BOM), modules Python removed from its standard
library and the C extension modules a source-built Python lacks, an exception that ended a thread, asyncio without a
running loop, select's FD_SETSIZE, OpenSSH's algorithm negotiation and a session cut off, SELinux's AVC denials and
Open MPI's MPI_Abort notice. Each entry reads members its examples do not show, says the member in its title, stays
quiet on ordinary lines and on every clean corpus excerpt; the entries of other parts this part extended read their
new members, and the class entries they share lines with give way."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_platform_r19")
EXTENDED = ["PY_STDLIB_NAME_REMOVED", "SHELL_SCRIPT_WINDOWS_LINE_ENDINGS", "UV_REQUIREMENTS_UNSATISFIABLE"]
FAMILY = IDS + EXTENDED + ["PY_MODULE_NOT_INSTALLED", "PY_MODULE_ATTRIBUTE_MISSING", "PY_IMPORT_NAME_NOT_IN_MODULE",
                           "SSH_CONNECTION_FAILED", "SSH_HOST_KEY_VERIFICATION_FAILED", "OS_ERRNO_REPORTED",
                           "FILE_PERMISSION_DENIED", "PY_SCRIPT_EXCEPTION", "JSON_SYNTAX_ERROR",
                           "ASYNCIO_NO_EVENT_LOOP_IN_THREAD", "PROCESS_KILLED_SIGKILL",
                           "PY_OBJECT_ATTRIBUTE_MISSING", "PY_NAME_NOT_DEFINED", "PY_SOURCE_SYNTAX_ERROR",
                           "TLS_CERTIFICATE_NOT_TRUSTED", "TLS_WRONG_VERSION_NUMBER_PROXY", "OS_ERRNO_REPORTED",
                           "SLURM_ALLOCATION_REJECTED", "SHELL_SCRIPT_SYNTAX_ERROR",
                           "PIP_INSTALLED_PACKAGE_METADATA_INVALID", "PY_STRUCT_DATA_DOES_NOT_FIT",
                           "UV_PACKAGE_BUILD_OR_DOWNLOAD_FAILED", "UV_NO_VIRTUAL_ENVIRONMENT", "SSH_AUTHENTICATION_DENIED"]
WRAPPERS = {"MPI_ABORT_INVOKED", "PY_THREAD_UNCAUGHT_EXCEPTION"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) >= 29 and "SSH_NO_MATCHING_ALGORITHM" in IDS and "PY_STDLIB_MODULE_REMOVED" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_platform_r19.json" and not sig.ascend_fd
        assert sig.kind == ("wrapper" if sid in WRAPPERS else "root"), sid
        assert not sig.fallback and sig.severity == ("warn" if sid == "SSH_IDENTITY_FILE_MISSING" else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # json: the value 3.12+ add, inside requests' wrapper; a cycle; a BOM read through json.load
    ("ValueError: Out of range float values are not JSON compliant: nan", "JSON_FLOAT_OUT_OF_RANGE", "(`nan`)"),
    ("ValueError: Out of range float values are not JSON compliant: -inf", "JSON_FLOAT_OUT_OF_RANGE", "(`-inf`)"),
    ("  File \"app.py\", line 9 ... ValueError: Circular reference detected", "JSON_CIRCULAR_REFERENCE",
     "contains itself"),
    ("json.decoder.JSONDecodeError: Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)",
     "JSON_TEXT_STARTS_WITH_BOM", "byte order mark"),
    # removed modules, by release
    ("ModuleNotFoundError: No module named 'asynchat'", "PY_STDLIB_MODULE_REMOVED", "`asynchat`, a module Python 3.12"),
    ("ModuleNotFoundError: No module named 'distutils.util'", "PY_STDLIB_MODULE_REMOVED", "`distutils`"),
    ("ModuleNotFoundError: No module named 'imghdr'", "PY_STDLIB_MODULE_REMOVED", "`imghdr`, a module Python 3.13"),
    ("ImportError: No module named 'pipes'", "PY_STDLIB_MODULE_REMOVED", "`pipes`"),
    # C extension modules of a source-built Python, and python-build's checks
    ("ModuleNotFoundError: No module named '_bz2'", "PY_STDLIB_EXTENSION_NOT_BUILT", "`_bz2` extension module"),
    ("ImportError: No module named '_tkinter'", "PY_STDLIB_EXTENSION_NOT_BUILT", "`_tkinter`"),
    ("WARNING: The Python bz2 extension was not compiled. Missing the bzip2 lib?", "PY_STDLIB_EXTENSION_NOT_BUILT",
     "missing the bzip2 lib"),
    ("ERROR: The Python ctypes extension was not compiled. Missing the libffi lib?", "PY_STDLIB_EXTENSION_NOT_BUILT",
     "`ctypes`"),
    # OpenSSH
    ("Unable to negotiate with 192.168.1.20 port 2222: no matching MAC found. Their offer: hmac-sha1,hmac-md5",
     "SSH_NO_MATCHING_ALGORITHM", "no MAC in common"),
    ("Unable to negotiate with 10.1.2.3 port 22: no matching host key type found. Their offer: ssh-rsa,ssh-dss",
     "SSH_NO_MATCHING_ALGORITHM", "`ssh-rsa,ssh-dss`"),
    ("client_loop: send disconnect: Connection reset by peer", "SSH_SESSION_CONNECTION_LOST", "Connection reset by peer"),
    ("ssh_dispatch_run_fatal: Connection to 10.1.2.3 port 22: Connection timed out", "SSH_SESSION_CONNECTION_LOST",
     "`10.1.2.3`"),
    ("Connection to node-07 closed by remote host.", "SSH_SESSION_CONNECTION_LOST", "`node-07`"),
    # SELinux, MPI, threads, asyncio, select
    ("audit: type=1400 audit(1712000000.5:12): avc:  denied  { open } for  pid=77 comm=\"python3\" "
     "path=\"/data/imagenet/train\" dev=\"nvme0n1\" ino=5 scontext=system_u:system_r:container_t:s0 "
     "tcontext=unconfined_u:object_r:user_home_t:s0 tclass=dir permissive=0", "SELINUX_ACCESS_DENIED",
     "`python3` the `open` permission on `/data/imagenet/train` (class `dir`)"),
    ("MPI_ABORT was invoked on rank 5 in communicator MPI_COMM_WORLD", "MPI_ABORT_INVOKED", "Rank 5 called MPI_Abort"),
    ("Exception in thread Thread-2 (_pin_memory_loop):", "PY_THREAD_UNCAUGHT_EXCEPTION", "`Thread-2`"),
    ("Exception in thread prefetcher:", "PY_THREAD_UNCAUGHT_EXCEPTION", "`prefetcher`"),
    ("RuntimeError: no running event loop", "ASYNCIO_NO_RUNNING_LOOP", "no running event loop"),
    ("ValueError: filedescriptor out of range in select()", "PY_SELECT_FD_ABOVE_LIMIT", "FD_SETSIZE"),
    # the standard-library names Python 3.8-3.13 removed
    ("AttributeError: module 'platform' has no attribute 'dist'", "PY_STDLIB_NAME_REMOVED", "`dist`"),
    ("ImportError: cannot import name 'getargspec' from 'inspect' (/usr/lib/python3.11/inspect.py)",
     "PY_STDLIB_NAME_REMOVED", "`getargspec` from the standard library's `inspect`"),
    ("AttributeError: module 'ssl' has no attribute 'match_hostname'", "PY_STDLIB_NAME_REMOVED", "`match_hostname`"),
    ("AttributeError: module 'pkgutil' has no attribute 'ImpLoader'", "PY_STDLIB_NAME_REMOVED", "`ImpLoader`"),
    ("ImportError: cannot import name 'decodestring' from 'base64' (/usr/lib/python3.9/base64.py)",
     "PY_STDLIB_NAME_REMOVED", "`base64`"),
    ("AttributeError: module 'unittest' has no attribute 'findTestCases'", "PY_STDLIB_NAME_REMOVED", "`unittest`"),
    # names newer than the Python that runs the code
    ("ImportError: cannot import name 'TypedDict' from 'typing' (/usr/lib/python3.7/typing.py)",
     "PY_STDLIB_NAME_NEEDS_NEWER_PYTHON", "`TypedDict`, which the standard library has only since Python 3.8"),
    ("AttributeError: module 'typing' has no attribute 'NotRequired'", "PY_STDLIB_NAME_NEEDS_NEWER_PYTHON", "Python 3.11"),
    ("ImportError: cannot import name 'cached_property' from 'functools' (/usr/lib/python3.7/functools.py)",
     "PY_STDLIB_NAME_NEEDS_NEWER_PYTHON", "from `functools`"),
    ("ModuleNotFoundError: No module named 'graphlib'", "PY_STDLIB_NAME_NEEDS_NEWER_PYTHON", "Python 3.9"),
    ("AttributeError: 'str' object has no attribute 'removesuffix'", "PY_STDLIB_NAME_NEEDS_NEWER_PYTHON", "`removesuffix`"),
    ("NameError: name 'ExceptionGroup' is not defined", "PY_STDLIB_NAME_NEEDS_NEWER_PYTHON", "Python 3.11"),
    ("SyntaxError: future feature annotations is not defined", "PY_STDLIB_NAME_NEEDS_NEWER_PYTHON", "Python 3.7"),
    ("ImportError: cannot import name 'deprecated' from 'warnings' (/usr/lib/python3.12/warnings.py)",
     "PY_STDLIB_NAME_NEEDS_NEWER_PYTHON", "Python 3.13"),
    # PEP 440, TLS, pickle
    ("setuptools.extern.packaging.version.InvalidVersion: Invalid version: '1.0.0-custom'",
     "PY_PACKAGING_VERSION_NOT_PEP440", "`1.0.0-custom`"),
    ("pip._vendor.packaging.specifiers.InvalidSpecifier: Invalid specifier: '>=3.8.*'",
     "PY_PACKAGING_VERSION_NOT_PEP440", "specifier `>=3.8.*`"),
    ("requests.exceptions.SSLError: HTTPSConnectionPool(host='x', port=443): Max retries exceeded with url: / (Caused by "
     "SSLError(SSLError(1, '[SSL: DH_KEY_TOO_SMALL] dh key too small (_ssl.c:1006)')))", "TLS_REFUSED_BY_SECURITY_LEVEL",
     "`dh key too small`"),
    ("curl: (35) OpenSSL/3.0.2: error:0A00018A:SSL routines::dh key too small", "TLS_REFUSED_BY_SECURITY_LEVEL",
     "`dh key too small`"),
    ("ssl.SSLError: [SSL: CA_MD_TOO_WEAK] ca md too weak (_ssl.c:3900)", "TLS_REFUSED_BY_SECURITY_LEVEL", "`ca md too weak`"),
    ("urllib3.exceptions.SSLError: [SSL: TLSV1_ALERT_PROTOCOL_VERSION] tlsv1 alert protocol version (_ssl.c:997)",
     "TLS_HANDSHAKE_ALERT_FROM_PEER", "`tlsv1 alert protocol version`"),
    ("OverflowError: cannot serialize a string larger than 4GiB", "PICKLE_OBJECT_OVER_4GIB", "`string`"),
    # sed, awk
    ("sed: -e expression #2, char 14: unterminated address regex", "SED_SCRIPT_INVALID", "expression #2, char 14"),
    ("sed: -e expression #1, char 19: unknown option to 's'", "SED_SCRIPT_INVALID", "unknown option to"),
    ("sed: file fix.sed line 3: unknown command: `x'", "SED_SCRIPT_INVALID", "`fix.sed`, line 3"),
    ("awk: line 1: runaway string constant \"{print $1 ...", "AWK_PROGRAM_SYNTAX_ERROR", "runaway string constant"),
    # Slurm, Open MPI, conda
    ("srun: error: Unable to create step for job 88213: Memory required by task is not available",
     "SLURM_STEP_CREATION_FAILED", "job 88213: Memory required by task is not available"),
    ("slurmstepd: error: execve(): /home/u/run_npu.sh: Permission denied", "SLURM_TASK_PROGRAM_NOT_EXECUTABLE",
     "`/home/u/run_npu.sh`: Permission denied"),
    ("slurmstepd: error: execve(): bad interpreter(/usr/bin/python3.9): No such file or directory",
     "SLURM_TASK_PROGRAM_NOT_EXECUTABLE", "`/usr/bin/python3.9`"),
    ("sbatch: error: Batch script contains DOS line breaks (\\r\\n)", "SHELL_SCRIPT_WINDOWS_LINE_ENDINGS", "CRLF"),
    ("At least one pair of MPI processes are unable to reach each other for MPI communications.",
     "MPI_PROCESSES_UNREACHABLE", "no BTL"),
    ("CondaError: Downloaded bytes did not match Content-Length", "CONDA_DOWNLOAD_INCOMPLETE", "Content-Length"),
    ("Conda detected a mismatch between the expected content and downloaded content", "CONDA_DOWNLOAD_INCOMPLETE",
     "expected content"),
    # uv, ssh, kubectl, pathlib
    ("  Caused by: Call to `hatchling.build.build_wheel` failed (exit status: 2)", "UV_BUILD_BACKEND_FAILED",
     "`hatchling.build.build_wheel`, exit status 2"),
    ("error: No interpreter found for Python >=3.12 in managed installations or search path", "UV_PYTHON_NOT_FOUND",
     "`>=3.12`"),
    ("  cause: Because nosuchpkg was not found in the package registry and you require nosuchpkg, we can conclude that your "
     "requirements are unsatisfiable.", "UV_REQUIREMENTS_UNSATISFIABLE", "nosuchpkg was not found in the package registry"),
    ("hint: You require CPython 3.12 (`cp312`), but we only found wheels for `mindspore` (v2.3.1) with the following "
     "Python ABI tags: `cp39`, `cp310`", "UV_REQUIREMENTS_UNSATISFIABLE", "CPython 3.12 (cp312)"),
    ("no such identity: /home/ma-user/.ssh/id_rsa: Permission denied", "SSH_IDENTITY_FILE_MISSING",
     "`/home/ma-user/.ssh/id_rsa`"),
    ("channel 1: open failed: administratively prohibited: open failed", "SSH_CHANNEL_OPEN_PROHIBITED",
     "administratively prohibited"),
    ("error: error parsing deploy/mindie.yaml: error converting YAML to JSON: yaml: line 23: did not find expected key",
     "K8S_MANIFEST_YAML_INVALID", "`deploy/mindie.yaml` as YAML (line 23): did not find expected key"),
    ("ValueError: Invalid suffix 'onnx'", "PY_PATHLIB_SUFFIX_INVALID", "`'onnx'`"),
    ("ValueError: PosixPath('.') has an empty name", "PY_PATHLIB_SUFFIX_INVALID", "has no file name"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "json.dumps(metrics, allow_nan=False)", "{\"loss\": NaN, \"step\": 10}", "loss: nan, grad_norm: inf",
    "import importlib", "ModuleNotFoundError: No module named 'impala'", "ModuleNotFoundError: No module named 'cgi_utils'",
    "ModuleNotFoundError: No module named 'ctypes_ext'", "WARNING: No module named '_lzma', compression disabled",
    "Installed Python-3.11.7 to /root/.pyenv/versions/3.11.7", "checking for libffi... yes",
    "debug1: kex: host key algorithm: ssh-ed25519", "HostKeyAlgorithms +ssh-rsa", "Connection to 10.0.0.2 closed.",
    "debug1: client_input_channel_req: channel 0 rtype exit-status reply 0", "ServerAliveInterval 60",
    "type=AVC msg=audit(1.1:2): avc:  denied  { read } for  pid=1 comm=\"x\" name=\"y\" scontext=a tcontext=b "
    "tclass=file permissive=1", "SELinux:  Initializing.", "getenforce", "Enforcing",
    "NOTE: invoking MPI_ABORT causes Open MPI to kill all MPI processes.", "comm.Abort(1)",
    "Thread-1 (f) started", "DEBUG:asyncio:Using selector: EpollSelector", "ulimit -n 65535",
    "AttributeError: module 'locale' has no attribute 'format_string'", "from collections.abc import Mapping",
    "[INFO] dumped 3 records to out.json", "Saved config.json",
    "from typing_extensions import Literal", "ImportError: cannot import name 'Literal' from 'typing_extensions'",
    "import tomli as tomllib", "Successfully installed packaging-24.2", "from packaging.version import InvalidVersion",
    "Secure Renegotiation IS supported", "ctx.set_ciphers('DEFAULT@SECLEVEL=1')", "openssl s_client -connect host:443",
    "pickle.dump(obj, f, protocol=4)", "sed: can't read /nonexist.txt: No such file or directory", "sed -e 's/a/b/g' f",
    "awk '{print $1}' file", "srun: job 1234 has been allocated resources", "srun: Step created for job 1234",
    "--mca btl self,tcp", "Downloading and Extracting Packages", "Preparing transaction: done",
    "Built flash-attn==2.5.0", "Using CPython 3.11.7 interpreter at: /usr/bin/python3.11", "IdentityFile ~/.ssh/id_ed25519",
    "channel 2: open failed: connect failed: Connection refused", "pod/train-0 created (dry run)",
    "p.with_suffix('.txt')",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_the_removed_modules_and_extensions_are_no_longer_called_not_installed(kb):
    for line in ("ModuleNotFoundError: No module named 'distutils'", "ModuleNotFoundError: No module named '_ctypes'",
                 "ModuleNotFoundError: No module named 'telnetlib'", "ModuleNotFoundError: No module named '_sqlite3'",
                 "ModuleNotFoundError: No module named 'tomllib'", "ModuleNotFoundError: No module named 'importlib.metadata'"):
        assert "PY_MODULE_NOT_INSTALLED" not in [s.id for s in kb.explaining(line)], line
    assert [s.id for s in kb.explaining("ModuleNotFoundError: No module named 'dlinfer'")] == ["PY_MODULE_NOT_INSTALLED"]


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
