"""data/kb/families_pkg_build.json: installing and building Python packages (round 14's catalogue of pip, setuptools,
the compilers under a build, PyTorch's cpp_extension, conda and uv). Each entry reads members its examples do not show
(other wordings of pip 23 to 26, other packages, paths and tools), says the member in its title, stays quiet on ordinary
lines of the same tools and on every clean excerpt of the corpus, and one line is one problem of the family; the
members added to other parts' entries (pip's legacy build forms, any compiler name, libmamba, Python 3.8's bare
PackageNotFoundError, BuildExtension's failure, pip 25's TLS and proxy references) are said by those entries."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_pkg_build")
EXTENDED = ["PY_KEYBOARD_INTERRUPT", "PIP_PACKAGE_BUILD_FAILED", "C_COMPILER_NOT_INSTALLED", "CONDA_ENVIRONMENT_NOT_SOLVABLE",
            "PY_PACKAGE_METADATA_NOT_FOUND", "TLS_CERTIFICATE_NOT_TRUSTED",
            "NETWORK_PROXY_CONNECT_FAILED"]
FAMILY = IDS + EXTENDED + ["PIP_RESOLUTION_IMPOSSIBLE", "PIP_HASHES_DO_NOT_MATCH", "PIP_REQUIREMENT_NOT_AVAILABLE",
                           "PIP_INVALID_REQUIREMENT", "PIP_INDEX_CONNECTION_RETRYING", "EXTENSION_BUILD_HEADER_NOT_FOUND",
                           "OP_BUILDER_TOOLKIT_NOT_FOUND", "PY_MODULE_NOT_INSTALLED", "FW_FILE_NOT_FOUND"]
FALLBACKS = {"BUILD_COMPILER_COMMAND_FAILED", "BUILD_COMPILER_SOURCE_ERROR", "BUILD_LINKER_FAILED", "NINJA_BUILD_STOPPED"}
WARNINGS = {"PIP_INSTALLED_DIST_LEFTOVER", "PIP_SCRIPT_DIR_NOT_ON_PATH", "TORCH_EXTENSION_COMPILER_CHECK_WARNING",
            "PIP_CACHE_DIR_NOT_WRITABLE"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert len(IDS) == 47  # (+ round 15's mends: tests/kb/test_entries_from_heldout23.py) and "PIP_WHEEL_FILE_INVALID" in IDS and "UV_REQUIREMENTS_UNSATISFIABLE" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_pkg_build.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in FALLBACKS), sid
        assert sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # pip's inputs: a constraints file, a project URL, a wheel without its dist-info
    ("ERROR: Could not open constraints file: [Errno 2] No such file or directory: 'constraints.txt'",
     "PIP_REQUIREMENTS_FILE_NOT_FOUND", "constraints file `constraints.txt`"),
    ("ERROR: Directory '/home/u/vllm-ascend/docs' is not installable. Neither 'setup.py' nor 'pyproject.toml' found.",
     "PIP_PROJECT_DIR_NOT_INSTALLABLE", "`/home/u/vllm-ascend/docs`"),
    ("ERROR: Wheel 'torch-npu' located at /data/whl/torch_npu-2.1.0.post3-cp310-cp310-manylinux_2_17_aarch64.whl is "
     "invalid.", "PIP_WHEEL_FILE_INVALID", "`torch-npu`: it is damaged or not a wheel"),
    ("ERROR: Invalid wheel filename (invalid version): 'torch_npu-2.1.0rc-cp310-none-any'", "PIP_WHEEL_FILE_INVALID",
     "Invalid wheel filename"),
    # hashes, uninstall, build environment
    ("ERROR: Can't verify hashes for these requirements because we don't have a way to hash version control "
     "repositories:", "PIP_REQUIRE_HASHES_INCOMPLETE", "Can't verify hashes"),
    ("ERROR: Cannot uninstall 'blinker'. It is a distutils installed project and thus we cannot accurately determine "
     "which files belong to it which would lead to only a partial uninstall.", "PIP_UNINSTALL_FILES_UNKNOWN",
     "`blinker`"),
    ("  The package's contents are unknown: no RECORD file was found for numpy.", "PIP_UNINSTALL_FILES_UNKNOWN",
     "`numpy`"),
    ("  × pip subprocess to install build dependencies did not run successfully.",
     "PIP_BUILD_DEPENDENCIES_NOT_INSTALLED", "build dependencies"),
    ("pip._vendor.pyproject_hooks._impl.BackendUnavailable: Cannot import 'scikit_build_core.build'",
     "PIP_BUILD_BACKEND_NOT_IMPORTABLE", "`scikit_build_core.build`"),
    ("ERROR: Can not execute `setup.py` since setuptools failed to import in the build environment with exception:",
     "PIP_BUILD_BACKEND_NOT_IMPORTABLE", "`setuptools`"),
    ("error: invalid command 'build_sphinx'", "SETUPTOOLS_COMMAND_NOT_AVAILABLE", "`build_sphinx`"),
    # warnings of an install that went through
    ("WARNING: Ignoring invalid distribution -orch (/opt/conda/lib/python3.9/site-packages)",
     "PIP_INSTALLED_DIST_LEFTOVER", "`-orch`"),
    ("  WARNING: The scripts accelerate, accelerate-config and accelerate-launch are installed in "
     "'/home/u/.local/bin' which is not on PATH.", "PIP_SCRIPT_DIR_NOT_ON_PATH", "`/home/u/.local/bin`"),
    # the network
    ("ERROR: Download failed after 3 attempts because not enough bytes were received (1.2 GB/2.3 GB)",
     "PIP_DOWNLOAD_INCOMPLETE", "1.2 GB/2.3 GB received"),
    ("ERROR: Failed to connect to mirrors.aliyun.com while fetching https://mirrors.aliyun.com/pypi/simple/torch/",
     "PIP_INDEX_CONNECTION_FAILED", "`mirrors.aliyun.com`"),
    ("Can't connect to HTTPS URL because the SSL module is not available.", "PIP_SSL_MODULE_UNAVAILABLE",
     "without its ssl module"),
    # compilers
    ("error: command '/usr/bin/aarch64-linux-gnu-g++' failed with exit code 1", "BUILD_COMPILER_COMMAND_FAILED",
     "`/usr/bin/aarch64-linux-gnu-g++`"),
    ("csrc/attention.cpp:120:5: error: ‘at::Tensor’ has no member named ‘data’", "BUILD_COMPILER_SOURCE_ERROR",
     "`csrc/attention.cpp` at line 120"),
    ("csrc/kernels.cu(88): error: identifier \"half2\" is undefined", "BUILD_COMPILER_SOURCE_ERROR",
     "`csrc/kernels.cu` at line 88"),
    ("collect2: error: ld returned 1 exit status", "BUILD_LINKER_FAILED", "(`ld`)"),
    ("ninja: build stopped: cannot make progress due to previous errors.", "NINJA_BUILD_STOPPED", "ninja build stopped"),
    ("FileNotFoundError: [Errno 2] No such file or directory: 'ninja'", "BUILD_TOOL_EXECUTABLE_NOT_FOUND", "`ninja`"),
    ("sh: 1: cmake: not found", "BUILD_TOOL_EXECUTABLE_NOT_FOUND", "`cmake`"),
    ("      error: can't find Rust compiler", "RUST_TOOLCHAIN_NOT_INSTALLED", "can't find Rust compiler"),
    ("RuntimeError: The detected CUDA version (11.5) mismatches the version that was used to compile PyTorch (12.1). "
     "Please make sure to use the same CUDA versions.", "TORCH_EXTENSION_CUDA_VERSION_MISMATCH", "(11.5)"),
    ("UserWarning: Your compiler (clang++) may be ABI-incompatible with PyTorch!", "TORCH_EXTENSION_COMPILER_CHECK_WARNING",
     "`clang++`"),
    # conda
    ("EnvironmentNameNotFound: Could not find conda environment: torch_npu_env", "CONDA_ENVIRONMENT_NOT_FOUND",
     "`torch_npu_env`"),
    ("CondaValueError: prefix already exists: /home/u/miniconda3/envs/ms", "CONDA_PREFIX_ALREADY_EXISTS",
     "`/home/u/miniconda3/envs/ms`"),
    # uv
    ("  ╰─▶ Because there is no version of torch-npu==9.9 and you require torch-npu==9.9, we can conclude that your "
     "requirements are unsatisfiable.", "UV_REQUIREMENTS_UNSATISFIABLE", "there is no version of torch-npu==9.9"),
    ("  × Failed to build `flash-attn==2.6.3`", "UV_PACKAGE_BUILD_OR_DOWNLOAD_FAILED", "build `flash-attn==2.6.3`"),
    # pyproject.toml, pip.conf, the cache, local files, the command line
    ("error: invalid-pyproject-build-system-requires", "PIP_PYPROJECT_BUILD_SYSTEM_INVALID", "no or a bad `requires` key"),
    ("tomli.TOMLDecodeError: Invalid value (at line 12, column 9)", "TOML_FILE_SYNTAX_ERROR", ": Invalid value (line 12)"),
    ("ERROR: Configuration file contains invalid utf-8 characters.", "PIP_CONFIG_FILE_UNREADABLE", "could not be loaded"),
    ("WARNING: The directory '/home/u/.cache/pip' or its parent directory is not owned or is not writable by the "
     "current user. The cache has been disabled.", "PIP_CACHE_DIR_NOT_WRITABLE", "`/home/u/.cache/pip`"),
    ("ERROR: Could not install packages due to an OSError: [Errno 2] No such file or directory: "
     "'/data/pkgs/mindspore-2.3.0-cp39-cp39-linux_aarch64.whl'", "PIP_LOCAL_ARCHIVE_NOT_FOUND",
     "`/data/pkgs/mindspore-2.3.0-cp39-cp39-linux_aarch64.whl`"),
    ("ERROR: unknown command \"lsit\" - maybe you meant \"list\"", "CLI_UNKNOWN_OPTION_OR_COMMAND",
     "command the program does not know: `lsit` (did you mean `list`?)"),
    ("ERROR: You must give at least one requirement to download (see \"pip help download\")",
     "PIP_NO_REQUIREMENT_GIVEN", "pip download was given no requirement"),
    ("ERROR: Cannot find command 'hg' - do you have 'hg' installed and in your PATH?", "BUILD_TOOL_EXECUTABLE_NOT_FOUND",
     "`hg`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("    Running setup.py install for apex ... error", "PIP_PACKAGE_BUILD_FAILED", "`apex`"),
    ("  × python setup.py egg_info did not run successfully.", "PIP_PACKAGE_BUILD_FAILED", "python setup.py egg_info"),
    ("ERROR: Failed to build 'flash-attn' when getting requirements to build wheel", "PIP_PACKAGE_BUILD_FAILED",
     "`flash-attn`"),
    ("error: command 'clang' failed: No such file or directory", "C_COMPILER_NOT_INSTALLED", "clang"),
    ("error    libmamba Could not solve for environment specs", "CONDA_ENVIRONMENT_NOT_SOLVABLE", "Could not solve"),
    ("importlib_metadata.PackageNotFoundError: mindspore", "PY_PACKAGE_METADATA_NOT_FOUND", "`mindspore`"),
    ("ERROR: Operation cancelled by user", "PY_KEYBOARD_INTERRUPT", "interrupted by SIGINT"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "Looking in links: /work/fi/pkg_build/wheels",
    "Processing ./wheels/libb-1.0-py3-none-any.whl",
    "Installing collected packages: libb",
    "Successfully installed libb-1.0",
    "  Building wheel for badc (pyproject.toml): finished with status 'done'",
    "  Created wheel for badc: filename=badc-1.0-cp311-cp311-linux_x86_64.whl size=1234 sha256=aa",
    "  Installing build dependencies: finished with status 'done'",
    "  Getting requirements to build wheel: finished with status 'done'",
    "Requirement already satisfied: setuptools>=40.8.0 in ./venv/lib/python3.11/site-packages (65.5.0)",
    "gcc -pthread -Wsign-compare -DNDEBUG -g -fwrapv -O3 -Wall -fPIC -c ext.c -o build/ext.o",
    "ext.c:2:5: warning: unused variable ‘x’ [-Wunused-variable]",
    "[1/2] c++ -MMD -MF bad.o.d -DTORCH_EXTENSION_NAME=badext -c /tmp/pkgb_ext/bad.cpp -o bad.o",
    "ninja: no work to do.",
    "Using /root/.cache/torch_extensions/py311_cpu as PyTorch extensions root...",
    "Collecting package metadata (repodata.json): done",
    "Solving environment: done",
    "# conda environments:",
    "Resolved 42 packages in 1.20s",
    "Installed 3 packages in 25ms",
    "FileNotFoundError: [Errno 2] No such file or directory: 'data/cmake_notes.txt'",
    "    error_handler = logging.getLogger('pip')",
    "WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the system "
    "package manager. It is recommended to use a virtual environment instead: https://pip.pypa.io/warnings/venv",
    "DEPRECATION: Legacy editable install of apex==0.1 from file:///apex (setup.py develop) is deprecated.",
    "ninja: build stopped: interrupted by user.",
    "  ext.c:2:34: warning: unused variable ‘x’ [-Wunused-variable]",
    "  warning: install_lib: byte-compiling is disabled, skipping.",
    "Usage:   pip install [options] <requirement specifier> [package-index-options] ...",
    "  × Building wheel for badc (pyproject.toml) did run successfully.",
])

def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS + EXTENDED) == []


def _clean_runs():
    here = os.path.join(os.path.dirname(__file__), "..", "fixtures", "pkg_build_clean")
    return sorted(os.path.join(here, n) for n in os.listdir(here)) if os.path.isdir(here) else []


@pytest.mark.parametrize("path", _clean_runs())
def test_clean_runs_of_pip_and_builds_stay_quiet(kb, path):
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            assert [s.id for s in kb.match_line(line.rstrip("\n")) if s.severity == "fail"] == [], line
