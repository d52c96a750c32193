"""data/kb/families_generic_os.json: the operating-system, network and tool-chain failures every AI job meets, named
from the line's own words (round 10). errno messages in the forms Python, C (perror/strerror), Go, Node, coreutils and
bash print them; HTTP error statuses of downloads; git, Bazel and the JVM. Each entry reads members its examples do not
show, says the member in its title, stays quiet on ordinary lines that share its words and on every clean excerpt of
the corpus, and one line is one problem of the family. The members this part extends in other parts (the EACCES,
EROFS, EAGAIN, EMFILE, network-errno, DNS, TLS and apt entries) are checked on their new forms here too."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_generic_os")
EXTENDED = ["FILE_PERMISSION_DENIED", "READ_ONLY_FILE_SYSTEM", "NETWORK_CONNECTION_FAILED",
            "NETWORK_HOST_NAME_NOT_RESOLVED", "TLS_CERTIFICATE_NOT_TRUSTED", "PKG_DEPENDENCIES_UNMET",
            "NETWORK_PORT_ALREADY_IN_USE", "HOST_PROCESS_OR_THREAD_LIMIT", "HOST_TOO_MANY_OPEN_FILES",
            "TORCH_DIST_STORE_CONNECT_FAILED"]
# entries of other parts whose lines this part's classes must leave to them (checked in the tests below)
OTHERS = ["NPU_DEVICE_FILE_MISSING"]
FAMILY = IDS + EXTENDED
# entries of other parts that read lines near this family's: a line of the family must not be read by them as well
NEIGHBOURS = FAMILY + OTHERS + ["OS_DISK_FULL", "HOST_MEMORY_ALLOCATION_FAILED", "HF_HUB_HTTP_ERROR",
                           "HTTP_REQUEST_AUTH_REJECTED", "NETWORK_PROXY_CONNECT_FAILED", "CHECKPOINT_FILE_UNREADABLE",
                           "MEMORY_EXHAUSTED_REPORTED", "PY_HTTP_MAX_RETRIES_EXCEEDED"] + part_ids("families_net_hub")
FALLBACK = {"OS_OPERATION_NOT_PERMITTED", "OS_DEVICE_OR_RESOURCE_BUSY", "OS_FILE_EXISTS", "OS_IO_ERROR",
            "HTTP_DOWNLOAD_STATUS_ERROR", "OS_PATH_NOT_USABLE", "OS_FILE_NOT_FOUND"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert set(IDS) == {"THREAD_CREATE_BLOCKED_BY_SECCOMP", "OS_OPERATION_NOT_PERMITTED", "OS_DISK_QUOTA_EXCEEDED",
                        "HOST_SYSTEM_FILE_TABLE_FULL", "OS_DEVICE_OR_RESOURCE_BUSY", "OS_FILE_EXISTS", "OS_IO_ERROR",
                        "OS_CROSS_DEVICE_LINK", "OS_TEXT_FILE_BUSY", "HTTP_DOWNLOAD_STATUS_ERROR",
                        "GIT_NOT_A_REPOSITORY", "GIT_DUBIOUS_OWNERSHIP", "GIT_SUBMODULE_NOT_CHECKED_OUT",
                        "GIT_LFS_POINTER_INSTEAD_OF_FILE", "BAZEL_EXTERNAL_FETCH_FAILED", "JVM_CLASS_VERSION_TOO_NEW",
                        "JVM_OUT_OF_MEMORY", "DPKG_PACKAGE_PROCESSING_FAILED", "C_COMPILER_NOT_INSTALLED",
                        "GIT_TRANSFER_INTERRUPTED", "OS_PATH_NOT_USABLE", "OS_ARGUMENT_LIST_TOO_LONG",
                        "CONDA_ENVIRONMENT_NOT_SOLVABLE", "OS_FILE_NOT_FOUND", "GIT_LFS_DOWNLOAD_FAILED",
                        "PIP_PACKAGE_NAME_DEPRECATED"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_generic_os.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in FALLBACK), sid
        assert sig.severity == ("warn" if sid == "GIT_NOT_A_REPOSITORY" else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # EPERM on thread creation: OpenBLAS behind docker compose's prefix, pthread_create's own form, Go's runtime
    ("vector-serve_1  | OpenBLAS blas_thread_init: pthread_create failed for thread 3 of 4: Operation not permitted",
     "THREAD_CREATE_BLOCKED_BY_SECCOMP", "`OpenBLAS blas_thread_init` could not start a thread"),
    ("[ERROR] pthread_create failed: Operation not permitted", "THREAD_CREATE_BLOCKED_BY_SECCOMP", "`pthread_create`"),
    ("runtime: failed to create new OS thread (have 2 already; errno=1)", "THREAD_CREATE_BLOCKED_BY_SECCOMP",
     "`runtime` could not start a thread"),
    # EPERM in general: Python with no path, coreutils' chmod, Go's unshare, Node's
    ("PermissionError: [Errno 1] Operation not permitted", "OS_OPERATION_NOT_PERMITTED", "Operation not permitted (EPERM)"),
    ("chmod: changing permissions of '/dev/davinci0': Operation not permitted", "OS_OPERATION_NOT_PERMITTED",
     "`chmod` was refused on `/dev/davinci0`"),
    ("Error: unshare /proc/self/ns/net: operation not permitted", "OS_OPERATION_NOT_PERMITTED", "on `/proc/self/ns/net`"),
    ("Error: EPERM: operation not permitted, rename '/data/a.tmp'", "OS_OPERATION_NOT_PERMITTED", "`rename` was refused on `/data/a.tmp`"),
    # EDQUOT: Go's form, the bare form after a failure word
    ("write /home/u/.ollama/models/blobs/sha256-1a2b-partial: disk quota exceeded", "OS_DISK_QUOTA_EXCEEDED",
     "(writing `/home/u/.ollama/models/blobs/sha256-1a2b-partial`)"),
    ("RuntimeError: failed to save checkpoint: Disk quota exceeded", "OS_DISK_QUOTA_EXCEEDED", "disk quota is used up"),
    # ENFILE with a path, and its bare C form
    ("OSError: [Errno 23] Too many open files in system: '/data/x.bin'", "HOST_SYSTEM_FILE_TABLE_FULL",
     "opening `/data/x.bin`"),
    ("socket: Too many open files in system", "HOST_SYSTEM_FILE_TABLE_FULL", "fs.file-max"),
    # EBUSY: Go's unlinkat, mv, Node
    ("Error: unlinkat /var/lib/kubelet/pods/abc/volumes: device or resource busy", "OS_DEVICE_OR_RESOURCE_BUSY",
     "`/var/lib/kubelet/pods/abc/volumes` is in use"),
    ("mv: cannot move '/workspace/out' to '/workspace/out.old': Device or resource busy", "OS_DEVICE_OR_RESOURCE_BUSY",
     "Device or resource busy (EBUSY)"),
    # EEXIST: ln, Go
    ("ln: failed to create symbolic link '/usr/local/bin/python3': File exists", "OS_FILE_EXISTS",
     "`/usr/local/bin/python3` already exists"),
    ("Error: mkdir /tmp/ray/session_latest: file exists", "OS_FILE_EXISTS", "`/tmp/ray/session_latest`"),
    # EIO: Go, Python without a path
    ("read /mnt/obs/data/part-0001.parquet: input/output error", "OS_IO_ERROR", "`/mnt/obs/data/part-0001.parquet`"),
    ("OSError: [Errno 5] Input/output error", "OS_IO_ERROR", "Input/output error (EIO)"),
    # EIO: PyTorch's serialization (torch.save / torch.load on a file descriptor), GNU tar's read error, rsync's receiver
    ("RuntimeError: read(): fd 7 failed with Input/output error", "OS_IO_ERROR", "Input/output error (EIO)"),
    ("tar: ./ckpt/step_1000.bin: Read error at byte 1048576, while reading 10240 bytes: Input/output error",
     "OS_IO_ERROR", "`./ckpt/step_1000.bin`"),
    ('rsync: [receiver] write failed on "/mnt/nfs/ckpt/model.pt": Input/output error (5)', "OS_IO_ERROR",
     "`/mnt/nfs/ckpt/model.pt`"),
    # EXDEV: Go's rename, the bare form after an error word
    ("Error: rename /tmp/dl-123 /models/qwen.gguf: invalid cross-device link", "OS_CROSS_DEVICE_LINK",
     "(`/tmp/dl-123` -> `/models/qwen.gguf`)"),
    ("ERROR: Could not install packages due to an OSError: [Errno 18] Invalid cross-device link",
     "OS_CROSS_DEVICE_LINK", "Invalid cross-device link (EXDEV)"),
    # ETXTBSY: bash's bad interpreter, Go's fork/exec
    ("/bin/sh: /usr/local/bin/entry.sh: Text file busy", "OS_TEXT_FILE_BUSY", "`/usr/local/bin/entry.sh`"),
    ("Error: fork/exec /opt/tool/bin/run: text file busy", "OS_TEXT_FILE_BUSY", "`/opt/tool/bin/run`"),
    # HTTP statuses in other clients' words
    ("ERROR: HTTP error 404 while getting https://download.pytorch.org/whl/torch-2.1.0-cp310-linux_aarch64.whl",
     "HTTP_DOWNLOAD_STATUS_ERROR", "HTTP 404 for `https://download.pytorch.org/whl/"),
    ("CondaHTTPError: HTTP 404 NOT FOUND for url <https://mirrors.tuna.tsinghua.edu.cn/anaconda/pkgs/main/linux-aarch64/libuuid-1.41.5-h998d150_0.tar.bz2>",
     "HTTP_DOWNLOAD_STATUS_ERROR", "HTTP 404 (NOT FOUND)"),
    # (a 404 and a 5xx are named with their cause by families_net_hub.json's status entries, which win on them)
    ("urllib.error.HTTPError: HTTP Error 503: Service Unavailable", "HTTP_STATUS_5XX_SERVER_ERROR",
     "HTTP 503 (Service Unavailable)"),
    ("requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://example.com/v1/model.bin",
     "HTTP_STATUS_404_NOT_FOUND", "Nothing is at `https://example.com/v1/model.bin`"),
    ("requests.exceptions.HTTPError: 410 Client Error: Gone for url: https://example.com/v1/model.bin",
     "HTTP_DOWNLOAD_STATUS_ERROR", "HTTP 410 (Gone) for `https://example.com/v1/model.bin`"),
    # git
    ("fatal: not a git repository: '/workspace/op-plugin/.git'", "GIT_NOT_A_REPOSITORY", "`/workspace/op-plugin/.git`"),
    ("fatal: detected dubious ownership in repository at '/home/hw/vllm-ascend'", "GIT_DUBIOUS_OWNERSHIP",
     "at `/home/hw/vllm-ascend`"),
    ("  The source directory /home/hw/llama.cpp/ggml/src/ggml-cann/third_party/x does not contain a CMakeLists.txt file.",
     "GIT_SUBMODULE_NOT_CHECKED_OUT", "(`/home/hw/llama.cpp/ggml/src/ggml-cann/third_party/x`)"),
    ("Did you run 'git submodule update --init'?", "GIT_SUBMODULE_NOT_CHECKED_OUT", "submodule was not checked out"),
    ("OSError: Unable to load weights: file starts with 'version https://git-lfs.github.com/spec/v1'",
     "GIT_LFS_POINTER_INSTEAD_OF_FILE", "Git LFS pointer"),
    # Bazel and the JVM
    ("ERROR: An error occurred during the fetch of repository 'local_config_cuda':", "BAZEL_EXTERNAL_FETCH_FAILED",
     "external repository `local_config_cuda`"),
    ("ERROR: /root/tf/WORKSPACE:10:13: fetching http_archive rule //external:llvm-raw: Traceback (most recent call last):",
     "BAZEL_EXTERNAL_FETCH_FAILED", "`llvm-raw`"),
    ("Error: LinkageError occurred while loading main class Main\n\tjava.lang.UnsupportedClassVersionError: Main has "
     "been compiled by a more recent version of the Java Runtime (class file version 65.0), this version of the Java "
     "Runtime only recognizes class file versions up to 61.0", "JVM_CLASS_VERSION_TOO_NEW",
     "(`Main`: class file version 65.0, this runtime reads up to 61.0)"),
    ("Caused by: java.lang.OutOfMemoryError: Requested array size exceeds VM limit", "JVM_OUT_OF_MEMORY",
     "`Requested array size exceeds VM limit`"),
    # dpkg, the compilers, git's transfer
    ("dpkg: error processing archive /tmp/Ascend-docker-runtime_6.0.0_linux-aarch64.deb (--unpack):",
     "DPKG_PACKAGE_PROCESSING_FAILED", "`/tmp/Ascend-docker-runtime_6.0.0_linux-aarch64.deb` (--unpack)"),
    ("  new mindx-toolbox package pre-installation script subprocess returned error exit status 2",
     "DPKG_PACKAGE_PROCESSING_FAILED", "`mindx-toolbox`"),
    ("c++: fatal error: cannot execute 'cc1plus': execvp: No such file or directory", "C_COMPILER_NOT_INSTALLED",
     "(cc1plus)"),
    ("error: command '/usr/bin/aarch64-linux-gnu-gcc' failed: No such file or directory", "C_COMPILER_NOT_INSTALLED",
     "(/usr/bin/aarch64-linux-gnu-gcc)"),
    ("error: RPC failed; curl 18 transfer closed with outstanding read data remaining", "GIT_TRANSFER_INTERRUPTED",
     ": curl 18 transfer closed"),
    ("fatal: fetch-pack: invalid index-pack output", "GIT_TRANSFER_INTERRUPTED", "invalid index-pack output"),
    # a path of the wrong kind or name: Go's forms, coreutils' mv
    ("Error: open /data/models/llama: is a directory", "OS_PATH_NOT_USABLE",
     "`/data/models/llama` does not fit the operation: is a directory"),
    ("mv: cannot move '/tmp/run' to '/workspace/output/run': Directory not empty", "OS_PATH_NOT_USABLE",
     ": Directory not empty"),
    ("Error: mkdir /tmp/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: file name too long",
     "OS_PATH_NOT_USABLE", ": file name too long"),
    # E2BIG: Go's form, bash with a builtin's name
    ("Error: fork/exec /usr/bin/python3: argument list too long", "OS_ARGUMENT_LIST_TOO_LONG", "(`/usr/bin/python3`)"),
    ("-bash: /bin/rm: Argument list too long", "OS_ARGUMENT_LIST_TOO_LONG", "(`/bin/rm`)"),
    # conda's solver in its other wordings
    ("UnsatisfiableError: The following specifications were found to be incompatible with the existing python "
     "installation in your environment:", "CONDA_ENVIRONMENT_NOT_SOLVABLE", "incompatible with the existing python"),
    ("  ResolvePackageNotFound: ", "CONDA_ENVIRONMENT_NOT_SOLVABLE", ": ResolvePackageNotFound"),
    # ENOENT outside Python's FileNotFoundError, Git LFS's download
    ("Error: stat /models/qwen2/tokenizer.json: no such file or directory", "OS_FILE_NOT_FOUND",
     "`/models/qwen2/tokenizer.json`"),
    ("ls: cannot access '/usr/local/Ascend/driver/lib64/driver': No such file or directory", "OS_FILE_NOT_FOUND",
     "`/usr/local/Ascend/driver/lib64/driver`"),
    ("Smudge error: Error downloading weights/model.bin (9f8e7d6c): batch request: missing protocol: \"\"",
     "GIT_LFS_DOWNLOAD_FAILED", "(`weights/model.bin`): batch request: missing protocol"),
    # EPERM from bash's ulimit names the limit
    ("ulimit: max user processes: cannot modify limit: Operation not permitted", "OS_OPERATION_NOT_PERMITTED",
     "`ulimit` was refused on `max user processes`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    line = line.split("\n")[-1]
    title = explained_title(kb, line, sig_id, among=NEIGHBOURS)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    # the extended entries on their new forms
    ("rm: cannot remove '/var/log/ascend_seclog/operation.log': Permission denied", "FILE_PERMISSION_DENIED",
     "`/var/log/ascend_seclog/operation.log`"),
    ("Error: mkdir /root/.cache/helm: permission denied", "FILE_PERMISSION_DENIED", "`/root/.cache/helm`"),
    ("cp: cannot create regular file '/usr/lib/x.so': Read-only file system", "READ_ONLY_FILE_SYSTEM",
     "`/usr/lib/x.so`"),
    # (Python's own form of it is families_net_hub.json's NET_NO_ROUTE_TO_HOST, which wins on it)
    ("OSError: [Errno 113] No route to host", "NET_NO_ROUTE_TO_HOST", ": No route to host"),
    ("TimeoutError: [Errno 110] Connection timed out", "NETWORK_CONNECTION_FAILED", ": Connection timed out"),
    ("java.net.NoRouteToHostException: No route to host (Host unreachable)", "NETWORK_CONNECTION_FAILED",
     ": No route to host"),
    ("socket.gaierror: [Errno -3] Temporary failure in name resolution", "NETWORK_HOST_NAME_NOT_RESOLVED",
     ": Temporary failure in name resolution"),
    ("npm ERR! request to https://registry.npmjs.org/x failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org",
     "NETWORK_HOST_NAME_NOT_RESOLVED", "`registry.npmjs.org`"),
    ("sun.security.validator.ValidatorException: PKIX path building failed: "
     "sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested "
     "target", "TLS_CERTIFICATE_NOT_TRUSTED", ": unable to find valid certification path to requested target"),
    ("E: Unmet dependencies. Try 'apt-get --fix-broken install' with no packages (or specify a solution).",
     "PKG_DEPENDENCIES_UNMET", "cannot satisfy the packages' dependencies"),
    ("ERROR:    [Errno 48] error while attempting to bind on address ('127.0.0.1', 8080): address already in use",
     "NETWORK_PORT_ALREADY_IN_USE", "`'127.0.0.1', 8080`"),
    # the two readings the part took away: EPERM is not the thread limit, ENFILE is not the process's limit
    ("OpenBLAS blas_thread_init: pthread_create failed for thread 7 of 48: Operation not permitted",
     "THREAD_CREATE_BLOCKED_BY_SECCOMP", "seccomp"),
    ("OpenBLAS blas_thread_init: pthread_create failed for thread 7 of 48: Resource temporarily unavailable",
     "HOST_PROCESS_OR_THREAD_LIMIT", "(EAGAIN)"),
    ("accept: Too many open files in system", "HOST_SYSTEM_FILE_TABLE_FULL", "ENFILE"),
    ("accept: too many open files", "HOST_TOO_MANY_OPEN_FILES", "EMFILE"),
    # an NPU device file stays the NPU entry's, not the ENOENT class's
    ("ls: cannot access '/dev/davinci_manager': No such file or directory", "NPU_DEVICE_FILE_MISSING",
     "`/dev/davinci_manager`"),
    ("Exception in thread \"main\" java.lang.OutOfMemoryError: unable to create new native thread",
     "HOST_PROCESS_OR_THREAD_LIMIT", "could not start another thread"),
    ("CondaHTTPError: HTTP 000 CONNECTION FAILED for url <https://repo.anaconda.com/pkgs/main/linux-64/repodata.json>",
     "NETWORK_CONNECTION_FAILED", ": CONNECTION FAILED"),
    ("torch.distributed.DistNetworkError: The client socket has failed to connect to 10.0.0.1:29500 (errno: 110 - "
     "Connection timed out).", "TORCH_DIST_STORE_CONNECT_FAILED", "at `10.0.0.1:29500` (Connection timed out)"),
])
def test_extended_entries_read_their_new_forms(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=NEIGHBOURS)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "OpenBLAS blas_thread_init: RLIMIT_NPROC -1 current, -1 max",
    "export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1",
    "EPERM and EACCES differ: see errno(3)",
    "docker run --security-opt seccomp=unconfined --cap-add SYS_PTRACE image",
    "Disk quotas for user hw (uid 1000): none",
    "fs.file-max = 9223372036854775807",
    "Device status: busy (running job 12)",
    "Output directory /workspace/out exists, reusing it",
    "[INFO] input/output tensors: 2/1",
    "Moving /tmp/a to /data/b across devices",
    "HTTP request sent, awaiting response... 404 Not Found",
    "GET /v1/models HTTP/1.1\" 404 Not Found",
    "Cloning into 'vllm-ascend'...",
    "Submodule 'third_party/googletest' (https://github.com/google/googletest.git) registered for path 'third_party/googletest'",
    "git lfs install",
    "oid sha256:4d7a214614ab2935c943f9e0ff69f22eadbb8f32b1258daaa5e2ca24d17e2393",
    "INFO: Repository local_config_cuda instantiated at:",
    "Loading: 0 packages loaded",
    "openjdk version \"17.0.9\" 2023-10-17",
    "-Xmx8g -XX:MaxMetaspaceSize=512m",
    "Setting up ascend-docker-runtime (6.0.0) ...",
    "-- Check for working CXX compiler: /usr/bin/c++ - skipped",
    "Receiving objects: 100% (1520/1520), 2.10 MiB | 3.00 MiB/s, done.",
    "/data/models/llama is a directory; loading its shards",
    "Argument list: --tp 8 --pp 2",
    "Solving environment: done",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # a class example whose member a specific entry of families_net_hub.json names (a 404, a 5xx, a refusal, a reset,
    # a timeout) gives way to it
    net_hub = set(part_ids("families_net_hub"))
    assert [o for o in family_overlaps(kb, FAMILY)
            if not (o[2] == [] and kb.signature(o[0]).fallback and {s.id for s in kb.explaining(o[1])} <= net_hub)] == []
