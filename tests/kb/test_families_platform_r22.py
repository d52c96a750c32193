"""data/kb/families_platform_r22.json: the platform under training jobs (round 22): uv's lockfile checks, asyncio objects
awaited from another event loop, conda's TLS and environment-removal errors, Git LFS files stored without pointers, the
kernel's OOM report header, MPICH / Intel MPI fatal errors and Hydra's bad-termination block, Open MPI's OpenFabrics
warning, pickle's redefined names and undecodable bytes in file names. Each entry reads members its examples do not
show, says the member in its title, stays quiet on ordinary lines and on every clean corpus excerpt; the entries of
other parts this part extended read their new members (pip's bare BackendUnavailable and wheel summary lines, uv's
externally managed interpreter and its prepare/download errors, GitHub's refusal of passwords, coreutils' EBUSY forms,
util-linux's `permission denied.`, bash's syntax error without a line, Docker's classic COPY error and containerd's
missing platform)."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_platform_r22")
EXTENDED = ["PIP_BUILD_BACKEND_NOT_IMPORTABLE", "PIP_PACKAGE_BUILD_FAILED", "PIP_EXTERNALLY_MANAGED_ENVIRONMENT",
            "UV_PACKAGE_BUILD_OR_DOWNLOAD_FAILED", "GIT_HTTP_CREDENTIALS_NOT_ACCEPTED", "OS_DEVICE_OR_RESOURCE_BUSY",
            "MOUNT_FAILED", "SHELL_SCRIPT_SYNTAX_ERROR", "PY_RELATIVE_IMPORT_OUTSIDE_PACKAGE",
            "DOCKER_BUILD_COPY_SOURCE_MISSING", "DOCKER_IMAGE_NO_MANIFEST_FOR_PLATFORM", "PY_OBJECT_NOT_PICKLABLE",
            "CONDA_ENVIRONMENT_NOT_SOLVABLE", "YAML_SYNTAX_ERROR"]
FAMILY = IDS + EXTENDED + ["CONDA_SSL_UNAVAILABLE", "OS_HOST_OOM_KILLER", "OS_CGROUP_OOM", "MPI_CALL_ERROR_HANDLER_ABORT",
                           "MPIRUN_PROCESS_EXITED_NONZERO", "PROCESS_KILLED_SIGKILL", "TLS_WRONG_VERSION_NUMBER_PROXY",
                           "K8S_IMAGE_PULL_FAILED", "OS_FILE_NOT_FOUND", "GIT_BRANCHES_DIVERGED", "GIT_PUSH_FAILED",
                           "PY_LOCALE_CODEC_CANNOT_DECODE", "ASYNCIO_LOOP_ALREADY_RUNNING", "UV_REQUIREMENTS_UNSATISFIABLE",
                           "SLURM_STEP_OOM_KILLED", "GIT_LFS_OVER_DATA_QUOTA", "SHELL_LOCALE_NOT_INSTALLED",
                           "OS_DISK_FULL", "HOST_TOO_MANY_OPEN_FILES", "SLURM_ALLOCATION_REJECTED",
                           "NETWORK_PROXY_CONNECT_FAILED", "PIP_SOCKS_PROXY_SUPPORT_MISSING",
                           "K8S_MANIFEST_YAML_INVALID", "SHELL_COMMAND_NOT_FOUND"]
WRAPPERS = {"MPICH_PROCESS_TERMINATED_BADLY"}
WARNINGS = {"GIT_LFS_FILES_NOT_STORED_AS_POINTERS", "MPI_OPENFABRICS_DEVICE_INIT_FAILED", "SLURM_STEP_MEMORY_LIMIT_REACHED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) >= 10 and "UV_LOCKFILE_NOT_CURRENT" in IDS and "MPICH_CALL_FATAL_ERROR" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_platform_r22.json" and not sig.ascend_fd
        assert sig.kind == ("wrapper" if sid in WRAPPERS else "root"), sid
        assert not sig.fallback and sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # uv's lockfile: out of date or missing under --locked / --frozen / --check, or not parseable
    ("#14 7.381 The lockfile at `uv.lock` needs to be updated, but `--check` was provided. To update the lockfile, run "
     "`uv lock`.", "UV_LOCKFILE_NOT_CURRENT", "needs to be updated: it no longer matches the project's requirements, "
     "and `--check` forbids"),
    ("error: Unable to find lockfile at `uv.lock`, but `--frozen` was provided. To create a lockfile, run `uv lock` or "
     "`uv sync` without the flag.", "UV_LOCKFILE_NOT_CURRENT", "is missing (Unable to find lockfile), and `--frozen`"),
    ("error: Unable to find lockfile at uv.lock, but --locked was provided", "UV_LOCKFILE_NOT_CURRENT", "`--locked`"),
    ("error: Failed to parse `apps/api/uv.lock`", "UV_LOCKFILE_UNPARSABLE", "`apps/api/uv.lock`"),
    # asyncio objects of another loop
    ("RuntimeError: Task <Task pending name='Task-3' coro=<Worker.run() running at /srv/app/worker.py:40> "
     "cb=[gather.<locals>._done_callback() at /usr/lib/python3.10/asyncio/tasks.py:720]> got Future <Future pending> "
     "attached to a different loop", "ASYNCIO_OBJECT_BOUND_TO_OTHER_LOOP", "(in `Worker.run`)"),
    ("RuntimeError: <asyncio.locks.Event object at 0x7f3a2c1d5e50 [unset]> is bound to a different event loop",
     "ASYNCIO_OBJECT_BOUND_TO_OTHER_LOOP", "`<asyncio.locks.Event object at 0x7f3a2c1d5e50 [unset]>`"),
    ("RuntimeError: <asyncio.locks.Semaphore object at 0x7f0000001234 [unlocked, value:4]> is bound to a different "
     "event loop", "ASYNCIO_OBJECT_BOUND_TO_OTHER_LOOP", "Semaphore"),
    # conda
    ("CondaSSLError: Encountered an SSL error. Most likely a certificate verification issue.", "CONDA_CHANNEL_TLS_ERROR",
     "`Exception:` line"),
    ("CondaEnvironmentError: Cannot remove current environment. Deactivate and run conda remove again",
     "CONDA_REMOVE_ACTIVE_ENVIRONMENT", "active in this shell"),
    # Git LFS, in the singular, the plural and the old '(s)' form
    ("Encountered 1 file that should have been a pointer, but wasn't:", "GIT_LFS_FILES_NOT_STORED_AS_POINTERS",
     "1 file(s)"),
    ("Encountered 12 files that should have been pointers, but weren't:", "GIT_LFS_FILES_NOT_STORED_AS_POINTERS",
     "12 file(s)"),
    ("Encountered 2 file(s) that should have been pointers, but weren't:", "GIT_LFS_FILES_NOT_STORED_AS_POINTERS",
     "2 file(s)"),
    # the kernel's OOM report, from dmesg and syslog
    ("[Mon Dec  7 01:02:03 2026] python3 invoked oom-killer: gfp_mask=0x140dca(GFP_HIGHUSER_MOVABLE|__GFP_COMP|"
     "__GFP_ZERO), order=0, oom_score_adj=0", "KERNEL_OOM_KILLER_INVOKED", "of `python3`"),
    ("Dec  7 02:00:00 gpu-07 kernel: [ 8812.0001] dataloader_0 invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, "
     "oom_score_adj=1000", "KERNEL_OOM_KILLER_INVOKED", "of `dataloader_0`"),
    # MPICH / Intel MPI
    ("Abort(1091215) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init: Other MPI error, error stack:",
     "MPICH_CALL_FATAL_ERROR", "`PMPI_Init` failed under MPICH or Intel MPI with `Other MPI error`"),
    ("[Thu Apr 25 08:19:11 2019] [unknown] Fatal error in MPI_Init: Other MPI error, error stack:",
     "MPICH_CALL_FATAL_ERROR", "`MPI_Init`"),
    ("Fatal error in PMPI_Allreduce: Unknown error class, error stack:", "MPICH_CALL_FATAL_ERROR",
     "`PMPI_Allreduce` failed under MPICH or Intel MPI with `Unknown error class`"),
    ("=   PID 9665 RUNNING AT NeuroRTX6000", "MPICH_PROCESS_TERMINATED_BADLY", "(PID 9665 on NeuroRTX6000)"),
    ("=   RANK 6 PID 2447372 RUNNING AT node0009", "MPICH_PROCESS_TERMINATED_BADLY", "(PID 2447372 on node0009)"),
    ("=   KILLED BY SIGNAL: 9 (Killed)", "MPICH_PROCESS_TERMINATED_BADLY", "(killed by signal 9 (Killed))"),
    ("=   EXIT CODE: 139", "MPICH_PROCESS_TERMINATED_BADLY", "(EXIT CODE: 139)"),
    ("YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Terminated (signal 15)", "MPICH_PROCESS_TERMINATED_BADLY",
     "(Terminated (signal 15))"),
    # Open MPI's openib
    ("WARNING: There was an error initializing an OpenFabrics device.", "MPI_OPENFABRICS_DEVICE_INIT_FAILED",
     "`Local device:`"),
    # pickle's redefined names, surrogates
    ("pickle.PicklingError: Can't pickle <class 'model.Net'>: it's not the same object as model.Net",
     "PICKLE_NAME_RESOLVES_TO_ANOTHER_OBJECT", "(`model.Net`)"),
    ("_pickle.PicklingError: Can't pickle <function collate at 0x7f0a1b2c3d40>: it's not the same object as "
     "data.collate", "PICKLE_NAME_RESOLVES_TO_ANOTHER_OBJECT", "(`data.collate`)"),
    ("UnicodeEncodeError: 'utf-8' codec can't encode characters in position 10-11: surrogates not allowed",
     "PY_TEXT_HAS_SURROGATE_ESCAPES", "as utf-8"),
    ("UnicodeEncodeError: 'utf-8' codec can't encode character '\\udcb5' in position 0: surrogates not allowed",
     "PY_TEXT_HAS_SURROGATE_ESCAPES", "`\\udcb5`"),
    # Click's ASCII locale, inotify limits, Dockerfile syntax, Slurm memory
    ("RuntimeError: Click will abort further execution because Python 3 was configured to use ASCII as encoding for the "
     "environment. Consult https://click.palletsprojects.com/python3/ for mitigation steps.", "CLICK_ASCII_LOCALE_REFUSED",
     "needs a UTF-8 locale"),
    ("OSError: [Errno 24] inotify instance limit reached", "INOTIFY_LIMIT_REACHED", "inotify instance"),
    ("Error: ENOSPC: System limit for number of file watchers reached, watch '/data/ckpt'", "INOTIFY_LIMIT_REACHED",
     "inotify watch"),
    ("ERROR: failed to solve: dockerfile parse error on line 4: unknown instruction: services:", "DOCKERFILE_PARSE_ERROR",
     "at line 4: unknown instruction: services:"),
    ("Error response from daemon: Dockerfile parse error line 7: unknown instruction: PIP", "DOCKERFILE_PARSE_ERROR",
     "at line 7"),
    ("srun: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.", "SLURM_MEMORY_OPTIONS_CONFLICT",
     "(the options --mem, --mem-per-cpu, and --mem-per-gpu)"),
    ("salloc: fatal: SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and SLURM_MEM_PER_NODE are mutually exclusive.",
     "SLURM_MEMORY_OPTIONS_CONFLICT", "(the environment variables SLURM_MEM_PER_CPU"),
    ("slurmstepd: error: StepId=1234.0 Exceeded step memory limit at some point.", "SLURM_STEP_MEMORY_LIMIT_REACHED",
     "the step reached its memory limit"),
    ("slurmstepd: error: Exceeded job memory limit", "SLURM_STEP_MEMORY_LIMIT_REACHED", "the job reached"),
    ("critical libmamba Could not solve for environment specs", "CONDA_ENVIRONMENT_NOT_SOLVABLE",
     "Could not solve for environment specs"),
    # urllib3's proxy URL without a usable scheme, in its old and new wordings
    ("urllib3.exceptions.ProxySchemeUnknown: Proxy URL had unsupported scheme socks5, should use http:// or https://",
     "NET_PROXY_URL_SCHEME_INVALID", "has the scheme `socks5`"),
    ("pip._vendor.urllib3.exceptions.ProxySchemeUnknown: Not supported proxy scheme None", "NET_PROXY_URL_SCHEME_INVALID",
     "has no scheme"),
    ("requests.exceptions.InvalidURL: ... ProxySchemeUnknown: Proxy URL had no scheme, should start with http:// or https://",
     "NET_PROXY_URL_SCHEME_INVALID", "`http://host:port`"),
    ("docker: 'buildx' is not a docker command.", "DOCKER_CLI_COMMAND_NOT_FOUND", "no command `buildx`"),
    ("yaml: line 5: mapping values are not allowed in this context", "YAML_SYNTAX_ERROR",
     "(`mapping values are not allowed in this context`)"),
    ("validating /srv/app/docker-compose.yml: yaml: line 12: did not find expected key", "YAML_SYNTAX_ERROR",
     "(`did not find expected key`)"),
    # extended entries of other parts
    ("pip._vendor.pep517.wrappers.BackendUnavailable", "PIP_BUILD_BACKEND_NOT_IMPORTABLE", "failing to import"),
    ("ERROR: Failed to build 'file:///tmp/pkg' when getting requirements to build wheel", "PIP_PACKAGE_BUILD_FAILED",
     "(getting requirements to build wheel)"),
    ("ERROR: Failed to build 'file:///tmp/pkg' when calling build backend hook prepare_metadata_for_build_wheel",
     "PIP_PACKAGE_BUILD_FAILED", "(calling build backend hook prepare_metadata_for_build_wheel)"),
    ("ERROR: Failed to build one or more wheels", "PIP_PACKAGE_BUILD_FAILED", "could not build the package from source"),
    ("    ERROR: Command errored out with exit status 1:", "PIP_PACKAGE_BUILD_FAILED", "from source"),
    ("error: The interpreter at /usr is externally managed, and indicates the following:",
     "PIP_EXTERNALLY_MANAGED_ENVIRONMENT", "uv refused to install into this Python (`/usr`)"),
    ("error: Failed to prepare distributions", "UV_PACKAGE_BUILD_OR_DOWNLOAD_FAILED", "uv could not prepare a package"),
    ("  Caused by: Failed to download `flash-attn==2.6.3`", "UV_PACKAGE_BUILD_OR_DOWNLOAD_FAILED",
     "download `flash-attn==2.6.3`"),
    ("remote: Support for password authentication was removed on August 13, 2021.", "GIT_HTTP_CREDENTIALS_NOT_ACCEPTED",
     "personal access token"),
    ("mv: cannot move 'ckpt.tmp' to '/data/ckpt': Device or resource busy", "OS_DEVICE_OR_RESOURCE_BUSY", "(`mv`)"),
    ("rm: cannot remove '/etc/hosts': Device or resource busy", "OS_DEVICE_OR_RESOURCE_BUSY", "`/etc/hosts` is in use"),
    ("mount: /mnt/nfs: permission denied.", "MOUNT_FAILED", "`/mnt/nfs`: permission denied (mounting needs root"),
    ("bash: syntax error near unexpected token `('", "SHELL_SCRIPT_SYNTAX_ERROR", "unexpected `(`"),
    ("ValueError: attempted relative import beyond top-level package", "PY_RELATIVE_IMPORT_OUTSIDE_PACKAGE",
     "beyond top-level package"),
    ("COPY failed: stat /var/lib/docker/tmp/docker-builder918577595/requirements.txt: no such file or directory",
     "DOCKER_BUILD_COPY_SOURCE_MISSING", "`requirements.txt`"),
    ("ADD failed: stat /var/lib/docker/tmp/docker-builder1/dist/app.tar.gz: no such file or directory",
     "DOCKER_BUILD_COPY_SOURCE_MISSING", "`dist/app.tar.gz`"),
    ("no match for platform in manifest: not found", "DOCKER_IMAGE_NO_MANIFEST_FOR_PLATFORM", "no build for this machine"),
    ("ctr: no match for platform in manifest sha256:" + "ab" * 32 + ": not found", "DOCKER_IMAGE_NO_MANIFEST_FOR_PLATFORM",
     "no build for this machine"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "RUN uv sync --locked --no-dev", "Resolved 7 packages in 147ms", "uv lock --check", "Parsed `uv.lock` in 3ms",
    "Creating virtual environment at: .venv", "loop = asyncio.new_event_loop()", "lock = asyncio.Lock()",
    "ssl_verify: True", "conda config --set ssl_verify /etc/pki/ca.pem", "conda remove -n old --all",
    "Remove all packages in environment /opt/conda/envs/old:", "git lfs fsck --pointers",
    "*.safetensors filter=lfs diff=lfs merge=lfs -text", "vm.oom_kill_allocating_task = 0", "oom_score_adj: 0",
    "MPIR_Init_thread(176)........:", "MPI_Init_thread(MPI_THREAD_MULTIPLE) done", "=   CLEANING UP REMAINING PROCESSES",
    "=   YOU CAN IGNORE THE BELOW CLEANUP MESSAGES", "EXIT CODE: 0", "  Local device: mlx5_0",
    "mpirun --mca btl ^openib -np 8 ./a.out", "pickle.dumps(obj, protocol=4)", "errors='surrogateescape'",
    "os.fsencode(name)", "Getting requirements to build wheel ... done", "Successfully built flash-attn",
    "Prepared 12 packages in 3.1s", "remote: Enumerating objects: 10, done.", "mv ckpt.tmp /data/ckpt",
    "mount -t nfs 10.0.0.1:/data /mnt/nfs", "Step 4/8 : COPY requirements.txt /app/", "docker pull --platform linux/arm64 x",
    "from ..utils import helper", "export LC_ALL=C.UTF-8", "fs.inotify.max_user_watches = 524288",
    "Using inotify observer", "Dockerfile:3",
    "#1 [internal] load build definition from Dockerfile", "#SBATCH --mem-per-cpu=4G",
    "SLURM_MEM_PER_NODE=81920", "MaxRSS  ReqMem", "info     libmamba Parsing MatchSpec python=3.11",
    "export https_proxy=http://10.0.0.1:3128", "no_proxy=localhost,127.0.0.1",
    "docker compose up -d", "See 'docker --help'", "yamllint config.yaml",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


def test_the_lines_other_entries_read_stay_theirs(kb):
    # conda's OpenSSL-missing form keeps its entry; a pickling failure of another kind stays the not-picklable entry's
    explained_title(kb, "CondaSSLError: OpenSSL appears to be unavailable on this machine. OpenSSL is required to",
                    "CONDA_SSL_UNAVAILABLE", among=FAMILY)
    line = "_pickle.PicklingError: Can't pickle <function <lambda> at 0x7f0a1b2c3d40>: attribute lookup <lambda> on __main__ failed"
    explained_title(kb, line, "PY_OBJECT_NOT_PICKLABLE", among=FAMILY)
    # git's rejected ref keeps the diverged-branches entry; the kernel's kill line keeps the host OOM entry
    explained_title(kb, " ! [rejected]        main -> main (fetch first)", "GIT_BRANCHES_DIVERGED", among=FAMILY)
    # the generic EBUSY alternative no longer takes a preposition for the call
    title = explained_title(kb, "mv: cannot move 'a' to 'b': Device or resource busy", "OS_DEVICE_OR_RESOURCE_BUSY",
                            among=FAMILY)
    assert "(`to`)" not in title
    # kubectl's YAML-to-JSON form stays the manifest entry's
    line = "error: error parsing job.yaml: error converting YAML to JSON: yaml: line 10: did not find expected key"
    explained_title(kb, line, "K8S_MANIFEST_YAML_INVALID", among=FAMILY)
