"""data/kb/families_build_toolchain.json: the build toolchain's messages as a failed build prints them (round 16): GNU
make, CMake, gcc/g++ and their drivers, GNU ld, pkg-config, ninja, autoconf's configure, meson and
torch.utils.cpp_extension's host-compiler check. Each entry reads members its examples do not show (other targets,
paths, packages, symbols, tools and wordings), says the member in its title, stays quiet on ordinary lines of the same
tools, on the clean builds run here (tests/fixtures/build_toolchain_clean) and on every clean excerpt of the corpus,
and one line is one problem of the family; the members added to other parts' entries (configure's, meson's and
setuptools' compiler-missing forms; FindOpenSSL's wording) are said by those entries."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_build_toolchain")
EXTENDED = ["C_COMPILER_NOT_INSTALLED", "CMAKE_REQUIRED_PACKAGE_NOT_FOUND"]
FAMILY = IDS + EXTENDED + ["BUILD_COMPILER_SOURCE_ERROR", "BUILD_COMPILER_COMMAND_FAILED", "BUILD_LINKER_FAILED",
                           "NINJA_BUILD_STOPPED", "LINKER_LIBRARY_NOT_RESOLVED", "CANN_LINK_UNDEFINED_REFERENCE",
                           "EXTENSION_BUILD_HEADER_NOT_FOUND", "CMAKE_VERSION_TOO_OLD", "NINJA_BUILD_FILE_MISSING",
                           "COMMAND_NOT_FOUND_EXIT_127", "OS_ERRNO_REPORTED"]
FALLBACKS = {"LINKER_UNDEFINED_REFERENCE", "AUTOCONF_CONFIGURE_ERROR", "MESON_SETUP_ERROR"}
WRAPPERS = {"MAKE_RECIPE_COMMAND_FAILED", "CMAKE_LANGUAGE_NOT_ENABLED", "CMAKE_CONFIGURE_STOPPED_AT"}
NEEDS_MARK = {"CMAKE_PACKAGE_CONFIG_NOT_FOUND"}  # optional packages print the same text under a CMake Warning


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert len(IDS) == 36 and "MAKE_NO_RULE_TO_MAKE_TARGET" in IDS and "LINKER_RECOMPILE_WITH_FPIC" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_build_toolchain.json" and not sig.ascend_fd
        assert sig.kind == ("wrapper" if sid in WRAPPERS else "root"), sid
        assert sig.fallback == (sid in FALLBACKS), sid
        assert sig.severity == "fail" and sig.fail_needs_mark == (sid in NEEDS_MARK), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # make: other targets, sub-makes, the old `quote form
    ("make[3]: *** No rule to make target '/usr/local/Ascend/ascend-toolkit/latest/lib64/libascendcl.so', needed by "
     "'libcust_op.so'.  Stop.", "MAKE_NO_RULE_TO_MAKE_TARGET",
     "`/usr/local/Ascend/ascend-toolkit/latest/lib64/libascendcl.so` (needed by `libcust_op.so`)"),
    ("make: *** No rule to make target `distclean'.  Stop.", "MAKE_NO_RULE_TO_MAKE_TARGET", "`distclean`"),
    ("ninja: error: '../csrc/kernels/attn.cu', needed by 'CMakeFiles/ops.dir/csrc/kernels/attn.cu.o', missing and no "
     "known rule to make it", "MAKE_NO_RULE_TO_MAKE_TARGET", "`../csrc/kernels/attn.cu`"),
    ("ninja: error: unknown target 'test'", "MAKE_NO_RULE_TO_MAKE_TARGET", "`test`"),
    ("src/build.mk:41: *** missing separator (did you mean TAB instead of 8 spaces?).  Stop.",
     "MAKEFILE_RECIPE_NOT_TAB_INDENTED", "`src/build.mk` has a line make cannot parse (line 41)"),
    ("GNUmakefile:7: *** recipe commences before first target.  Stop.", "MAKEFILE_RECIPE_BEFORE_FIRST_TARGET",
     "`GNUmakefile` has a TAB-indented line before any rule (line 7)"),
    ("make[1]: *** No targets specified and no makefile found.  Stop.", "MAKE_NO_MAKEFILE_FOUND", "found no Makefile in"),
    ("make[2]: *** [op_kernel/CMakeFiles/ascendc_kernels.dir/build.make:90: op_kernel/add_custom.o] Error 1",
     "MAKE_RECIPE_COMMAND_FAILED", "`op_kernel/add_custom.o` (op_kernel/CMakeFiles/ascendc_kernels.dir/build.make:90) "
     "failed with exit status 1"),
    ("make: *** [install] Error 2", "MAKE_RECIPE_COMMAND_FAILED", "`install` failed with exit status 2"),
    # CMake
    ("CMake Error: The source directory \"/home/ma-user/work/llama.cpp/build\" does not appear to contain "
     "CMakeLists.txt.", "CMAKE_SOURCE_DIR_WITHOUT_CMAKELISTS", "`/home/ma-user/work/llama.cpp/build`"),
    ("CMake Error: CMake was unable to find a build program corresponding to \"Unix Makefiles\".  CMAKE_MAKE_PROGRAM "
     "is not set.  You probably need to select a different build tool.", "CMAKE_BUILD_PROGRAM_NOT_FOUND",
     "generator `Unix Makefiles`"),
    ("CMake Error: The current CMakeCache.txt directory /data/vllm/build/CMakeCache.txt is different than the "
     "directory /root/vllm/build where CMakeCache.txt was created. This may result in binaries being created in the "
     "wrong place.", "CMAKE_CACHE_FROM_OTHER_DIRECTORY", "another directory (`/root/vllm/build`)"),
    ("CMake Error at CMakeLists.txt:42 (ascendc_library):\n  Unknown CMake command \"ascendc_library\".",
     "CMAKE_UNKNOWN_COMMAND", "`ascendc_library`"),
    ("  add_subdirectory given source \"3rdparty/cutlass\" which is not an", "CMAKE_SUBDIRECTORY_NOT_FOUND",
     "`3rdparty/cutlass`"),
    ("CMake Error: CMAKE_CUDA_COMPILER not set, after EnableLanguage", "CMAKE_LANGUAGE_NOT_ENABLED",
     "could not enable CMAKE_CUDA_COMPILER"),
    ("  Could not find compiler set in environment variable CC:", "CMAKE_COMPILER_FROM_ENV_NOT_FOUND", "`CC`"),
    ("Does not match the generator used previously: Ninja", "CMAKE_GENERATOR_MISMATCH", "(`Ninja`)"),
    ("  No CMAKE_CUDA_COMPILER could be found.", "CMAKE_CUDA_COMPILER_NOT_USABLE",
     "(`No CMAKE_CUDA_COMPILER could be found`)"),
    ("  Could not find a package configuration file provided by \"Torch_npu\" with any of",
     "CMAKE_PACKAGE_CONFIG_NOT_FOUND", "`Torch_npu`"),
    ("  By not providing \"Findascendc.cmake\" in CMAKE_MODULE_PATH this project has",
     "CMAKE_PACKAGE_CONFIG_NOT_FOUND", "`ascendc`"),
    # compiler drivers
    ("aarch64-linux-gnu-g++: error: unrecognized command-line option '-mavx2'", "COMPILER_OPTION_NOT_RECOGNIZED",
     "`aarch64-linux-gnu-g++` (compiler or linker) does not know the option `-mavx2`"),
    ("nvcc fatal   : Unknown option '-fopenmp'", "COMPILER_OPTION_NOT_RECOGNIZED", "the option `-fopenmp`"),
    ("cc1plus: error: bad value 'znver4' for '-mtune=' switch", "COMPILER_MARCH_VALUE_NOT_SUPPORTED",
     "`-mtune=znver4`"),
    ("clang: error: unknown target CPU 'armv9-a'", "COMPILER_MARCH_VALUE_NOT_SUPPORTED", "`-march=armv9-a`"),
    ("g++: error: csrc/npu/ops.cpp: No such file or directory", "COMPILER_INPUT_FILE_NOT_FOUND",
     "`csrc/npu/ops.cpp`, which does not exist"),
    ("csrc/ops.cpp:88:12: error: 'void* p' declared but not used [-Werror=unused-but-set-variable]",
     "COMPILER_WARNING_AS_ERROR", "(`-Wunused-but-set-variable`)"),
    ("/usr/include/c++/4.8.2/bits/c++0x_warning.h:32:2: error: #error This file requires compiler and library "
     "support for the ISO C++ 2011 standard.", "CXX_STANDARD_TOO_OLD", "C++ 2011"),
    ("src/ops.cpp:5:6: note: 'std::string_view' is only available from C++17 onwards", "CXX_STANDARD_TOO_OLD",
     "C++17 or later"),
    ("x86_64-linux-gnu-gcc: fatal error: Killed signal terminated program cc1", "COMPILER_KILLED_OUT_OF_MEMORY",
     "`cc1` ran out of memory"),
    ("cc1plus: out of memory allocating 65536 bytes after a total of 3221225472 bytes",
     "COMPILER_KILLED_OUT_OF_MEMORY", "`cc1plus` ran out of memory"),
    # linker
    ("op_api.cpp:(.text+0x1f4): undefined reference to `at::_ops::add_Tensor::call(at::Tensor const&, at::Tensor "
     "const&, c10::Scalar const&)'", "LINKER_UNDEFINED_REFERENCE", "`at::_ops::add_Tensor::call("),
    ("/usr/bin/ld: /root/src/main.cpp:31: undefined reference to `dlopen'", "LINKER_UNDEFINED_REFERENCE", "`dlopen`"),
    ("/usr/bin/ld: /opt/deps/lib/libprotobuf.a(arena.o): relocation R_AARCH64_ADR_PREL_PG_HI21 against symbol "
     "`_ZN6google8protobuf8internal' which may bind externally can not be used when making a shared object; "
     "recompile with -fPIC", "LINKER_RECOMPILE_WITH_FPIC", "`/opt/deps/lib/libprotobuf.a(arena.o)`"),
    ("/usr/bin/ld: obj/b.o:(.bss+0x0): multiple definition of `g_device_id'; obj/a.o:(.bss+0x0): first defined here",
     "LINKER_MULTIPLE_DEFINITION", "`g_device_id` is defined in more than one object file (first in `obj/a.o`)"),
    ("/usr/bin/ld: /lib/aarch64-linux-gnu/libpthread.so.0: error adding symbols: DSO missing from command line",
     "LINKER_DSO_MISSING_FROM_COMMAND_LINE", "`/lib/aarch64-linux-gnu/libpthread.so.0`"),
    ("/usr/bin/ld: ../3rd/libfoo.so: error adding symbols: file in wrong format", "LINKER_LIBRARY_WRONG_FORMAT",
     "`../3rd/libfoo.so`"),
    # pkg-config, configure, meson, cpp_extension
    ("No package 'gstreamer-1.0' found", "BUILD_LIBRARY_PACKAGE_NOT_FOUND", "`gstreamer-1.0`"),
    ("../meson.build:30:10: ERROR: Dependency \"openblas\" not found, tried pkgconfig and cmake",
     "BUILD_LIBRARY_PACKAGE_NOT_FOUND", "`openblas`"),
    ("configure: error: OpenSSL library not found; please install openssl-devel", "AUTOCONF_CONFIGURE_ERROR",
     "`OpenSSL library not found; please install openssl-devel`"),
    ("configure: error: C++ compiler cannot create executables", "CONFIGURE_C_COMPILER_UNUSABLE",
     "`C++ compiler cannot create executables`"),
    ("numpy/meson.build:4:0: ERROR: Unknown options: \"blas-order\"", "MESON_SETUP_ERROR",
     "`numpy/meson.build` line 4: Unknown options"),
    ("RuntimeError: The current installed version of clang++ (11.0.1) is less than the minimum required version by "
     "CUDA 12.4 (7.0). Please make sure to use an adequate version of clang++ (>=7.0, <18.0).",
     "CUDA_HOST_COMPILER_VERSION_UNSUPPORTED", "`clang++` 11.0.1 is not a version this CUDA toolkit (12.4) supports"),
    ("/usr/local/cuda-11.8/bin/../targets/x86_64-linux/include/crt/host_config.h:132:2: error: #error -- unsupported GNU "
     "version! gcc versions later than 11 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used",
     "CUDA_HOST_COMPILER_VERSION_UNSUPPORTED", "gcc versions later than 11 are not supported"),
    # the C runtime files, the assembler, Cython, CMake's error header, the C99 loop, ld's options
    ("/usr/bin/ld: cannot find crti.o: No such file or directory", "LINKER_C_RUNTIME_FILES_MISSING", "`crti.o`"),
    ("/opt/conda/bin/../lib/gcc/x86_64-conda-linux-gnu/11.2.0/../../../../x86_64-conda-linux-gnu/bin/ld: cannot find "
     "-lgcc_s: No such file or directory", "LINKER_C_RUNTIME_FILES_MISSING", "`-lgcc_s`"),
    ("/tmp/ccX1.s:2048: Error: no such instruction: `vcvtph2psx 32(%rax),%zmm0'", "ASSEMBLER_INSTRUCTION_NOT_SUPPORTED",
     "(`no such instruction`: `vcvtph2psx 32(%rax),%zmm0`)"),
    ("Cython.Compiler.Errors.CompileError: pycocotools/_mask.pyx", "CYTHON_COMPILE_ERROR", "`pycocotools/_mask.pyx`"),
    ("CMake Error at cmake/ascend.cmake:17 (message):", "CMAKE_CONFIGURE_STOPPED_AT",
     "`cmake/ascend.cmake:17` in `message`"),
    ("src/crc.c:12:5: error: ‘for’ loop initial declarations are only allowed in C99 or C11 mode",
     "CXX_STANDARD_TOO_OLD", "C99 or later"),
    ("/usr/bin/ld.gold: unrecognized option '--push-state'", "COMPILER_OPTION_NOT_RECOGNIZED",
     "`ld.gold` (compiler or linker) does not know the option `--push-state`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line.splitlines()[-1], sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    ("configure: error: no acceptable C compiler found in $PATH", "C_COMPILER_NOT_INSTALLED", "compiler that is not installed"),
    ("meson.build:1:0: ERROR: Unknown compiler(s): [['clang-17']]", "C_COMPILER_NOT_INSTALLED", "(clang-17)"),
    ("error: [Errno 2] No such file or directory: '/opt/rh/devtoolset-9/root/usr/bin/gcc'", "C_COMPILER_NOT_INSTALLED",
     "(/opt/rh/devtoolset-9/root/usr/bin/gcc)"),
    ("  Could NOT find OpenSSL, try to set the path to OpenSSL root folder in the system variable OPENSSL_ROOT_DIR "
     "(missing: OPENSSL_CRYPTO_LIBRARY) (found version \"1.1.1k\")", "CMAKE_REQUIRED_PACKAGE_NOT_FOUND", "(`OpenSSL`)"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "make[1]: Entering directory '/work/src/build'",
    "make: Nothing to be done for 'all'.",
    "make: *** [Makefile:12: check] Error 1 (ignored)",
    "make: warning: jobserver unavailable: using -j1.  Add '+' to parent make rule.",
    "Makefile:4: warning: overriding recipe for target 'clean'",
    "-- Could NOT find Protobuf (missing: Protobuf_LIBRARIES Protobuf_INCLUDE_DIR)",
    "-- Found OpenSSL: /usr/lib/x86_64-linux-gnu/libcrypto.so (found version \"3.0.19\")",
    "-- Configuring done",
    "    TorchConfig.cmake",
    "src/main.c:3:17: warning: unused variable ‘unused’ [-Wunused-variable]",
    "gcc: warning: command-line option ‘-std=c++17’ is valid for C++/ObjC++ but not for C",
    "cc1: note: valid arguments to ‘-march=’ switch are: nocona core2 nehalem",
    "/usr/bin/ld: warning: libfoo.so, needed by libbar.so, not found (try using -rpath or -rpath-link)",
    "/usr/bin/ld: skipping incompatible /usr/lib/libfoo.so when searching for -lfoo",
    "/usr/bin/ld: x.o:(.data+0x0): warning: multiple definition of `counter'",
    "checking for deflate in -lz... yes",
    "configure: WARNING: unrecognized options: --disable-foo",
    "Run-time dependency libnosuch_opt found: NO (tried pkgconfig and cmake)",
    "Program cython-nosuch found: NO",
    "ninja: no work to do.",
    "[2/3] Building C object CMakeFiles/app.dir/src/main.c.o",
    "CMake Warning at CMakeLists.txt:3 (find_package):",
    "main.c: Assembler messages:",
    "[1/1] Cythonizing fast.pyx",
    "warning: fast.pyx:3:5: Unused entry 'x'",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS and s.severity_on(line) == "fail"] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS + EXTENDED) == []


def _clean_runs():
    here = os.path.join(os.path.dirname(__file__), "..", "fixtures", "build_toolchain_clean")
    return sorted(os.path.join(here, n) for n in os.listdir(here)) if os.path.isdir(here) else []


@pytest.mark.parametrize("path", _clean_runs())
def test_clean_builds_stay_quiet(kb, path):
    """Successful make / CMake (Makefiles and Ninja) / configure / meson / setuptools / pkg-config runs, with their
    warnings and optional packages not found: no FAIL (an optional config-mode package's text, under a CMake Warning
    header, is at most a warning)."""
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            assert [s.id for s in kb.match_line(line) if s.severity_on(line) == "fail"] == [], line


def test_a_config_mode_package_is_a_failure_only_under_cmakes_error_header(kb):
    sig = kb.signature("CMAKE_PACKAGE_CONFIG_NOT_FOUND")
    assert sig.severity_on("CMake Error at CMakeLists.txt:3 (find_package):") == "fail"
    assert sig.severity_on("  Could not find a package configuration file provided by \"Torch\" with any of") == "warn"
    assert [s.id for s in kb.match_line("CMake Warning at CMakeLists.txt:3 (find_package):")] == []
