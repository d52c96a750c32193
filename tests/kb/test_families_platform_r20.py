"""data/kb/families_platform_r20.json: the platform under training jobs (round 20): Python source forms (a string
literal's backslash escapes, Python 2's octal literals and except clauses, class bases whose MRO or metaclasses
conflict), logging.config, OpenSSH's changed host keys and unreadable private keys, git's missing upstream,
non-fast-forward pushes, submodule URLs and ref locks, Slurm's task launch, working directory, stale allocations and
aborted steps, Open MPI's fatal error handler, Docker's platform manifests, setuptools' flat-layout discovery and
pyproject validation, uv's platform wheels and Python requirement, and pip's editable hook. Each entry reads members its
examples do not show, says the member in its title, stays quiet on ordinary lines and on every clean corpus excerpt;
the entries of other parts this part extended read their new members."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_platform_r20")
EXTENDED = ["PY_SOURCE_SYNTAX_ERROR", "PY_PACKAGE_METADATA_NOT_FOUND", "GIT_REF_NOT_FOUND", "SSH_CONNECTION_FAILED",
            "K8S_IMAGE_PULL_FAILED", "UV_PACKAGE_BUILD_OR_DOWNLOAD_FAILED", "PY_CALL_SIGNATURE_MISMATCH",
            "SHELL_BASH_SYNTAX_RUN_BY_SH", "GIT_TRANSFER_INTERRUPTED"]
FAMILY = IDS + EXTENDED + ["SSH_HOST_KEY_VERIFICATION_FAILED", "SSH_KEY_FILE_PERMISSIONS_TOO_OPEN", "GIT_PUSH_FAILED",
                           "GIT_PUSH_REJECTED_BY_REMOTE", "GIT_SUBMODULE_NOT_CHECKED_OUT", "SLURM_ALLOCATION_REJECTED",
                           "SLURM_TASK_EXITED_NONZERO", "MPI_ABORT_INVOKED", "CONTAINER_IMAGE_PLATFORM_MISMATCH",
                           "PIP_PACKAGE_BUILD_FAILED", "UV_BUILD_BACKEND_FAILED",
                           "UV_PYTHON_NOT_FOUND", "PY_FILE_NOT_UTF8_TEXT", "PY2_CODE_ON_PY3", "OS_ERRNO_REPORTED",
                           "FRAMEWORK_SETTING_NOT_SUPPORTED", "PY_DICT_KEY_NOT_FOUND",
                           "SCRIPT_INTERPRETER_NOT_FOUND", "SHELL_SCRIPT_WINDOWS_LINE_ENDINGS", "OS_FILE_NOT_FOUND",
                           "FILE_PERMISSION_DENIED", "GIT_OBJECT_STORE_CORRUPTED"]
WRAPPERS = {"SLURM_STEP_ABORTED_WAITING"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) >= 26 and "SSH_HOST_KEY_CHANGED" in IDS and "PY_STRING_UNICODE_ESCAPE_INVALID" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_platform_r20.json" and not sig.ascend_fd
        assert sig.kind == ("wrapper" if sid in WRAPPERS else "root"), sid
        assert not sig.fallback and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # Python source forms
    ("SyntaxError: (unicode error) 'unicodeescape' codec can't decode bytes in position 8-9: truncated \\xXX escape",
     "PY_STRING_UNICODE_ESCAPE_INVALID", "`truncated \\xXX escape`, bytes 8-9"),
    ("  SyntaxError: (unicode error) 'unicodeescape' codec can't decode bytes in position 0-11: unknown Unicode character "
     "name", "PY_STRING_UNICODE_ESCAPE_INVALID", "unknown Unicode character name"),
    ("SyntaxError: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
     "PY_SOURCE_PY2_LITERAL_OR_EXCEPT_FORM", "`0o755`"),
    ("    SyntaxError: multiple exception types must be parenthesized", "PY_SOURCE_PY2_LITERAL_OR_EXCEPT_FORM",
     "`except A as B:`"),
    ("TypeError: Cannot create a consistent method resolution order (MRO) for bases Module, Mixin",
     "PY_CLASS_BASES_CONFLICT", "for bases Module, Mixin"),
    ("TypeError: Cannot create a consistent method resolution", "PY_CLASS_BASES_CONFLICT", "(MRO) exists for them"),
    ("TypeError: metaclass conflict: the metaclass of a derived class must be a (non-strict) subclass of the metaclasses "
     "of all its bases", "PY_CLASS_BASES_CONFLICT", "metaclasses conflict"),
    ("ValueError: Unable to configure handler 'rotating_file'", "LOGGING_CONFIG_INVALID",
     "Unable to configure handler (`rotating_file`)"),
    ("ValueError: Unable to configure root logger", "LOGGING_CONFIG_INVALID", "Unable to configure root logger"),
    ("ValueError: Unable to configure filter 'rank'", "LOGGING_CONFIG_INVALID", "filter (`rank`)"),
    # OpenSSH
    ("Offending RSA key in /home/ma-user/.ssh/known_hosts:17", "SSH_HOST_KEY_CHANGED",
     "`/home/ma-user/.ssh/known_hosts`, line 17"),
    ("Offending key for IP in /root/.ssh/known_hosts:5", "SSH_HOST_KEY_CHANGED", "line 5"),
    ("Host key for node-03 has changed and you have requested strict checking.", "SSH_HOST_KEY_CHANGED",
     "different host key"),
    ('Load key "/root/.ssh/id_ed25519": incorrect passphrase supplied to decrypt private key',
     "SSH_PRIVATE_KEY_UNREADABLE", "`/root/.ssh/id_ed25519`: incorrect passphrase"),
    ('Load key "/tmp/deploy_key": invalid format', "SSH_PRIVATE_KEY_UNREADABLE", "invalid format"),
    ("ssh_exchange_identification: Connection closed by remote host", "SSH_CONNECTION_FAILED",
     "Connection closed by remote host"),
    # git
    ("fatal: The current branch dev-npu has no upstream branch.", "GIT_NO_UPSTREAM_CONFIGURED", "dev-npu has no upstream"),
    ("There is no tracking information for the current branch.", "GIT_NO_UPSTREAM_CONFIGURED", "no tracking information"),
    ("hint: Updates were rejected because a pushed branch tip is behind its remote", "GIT_PUSH_REJECTED_NOT_FAST_FORWARD",
     "a pushed branch tip is behind"),
    ("hint: Updates were rejected because the tip of the remote-tracking branch has", "GIT_PUSH_REJECTED_NOT_FAST_FORWARD",
     "remote-tracking branch"),
    ("fatal: No url found for submodule path 'third_party/googletest' in .gitmodules", "GIT_SUBMODULE_URL_MISSING",
     "`third_party/googletest`"),
    ("error: cannot lock ref 'refs/remotes/origin/release': 'refs/remotes/origin/release/v1' exists; cannot create "
     "'refs/remotes/origin/release'", "GIT_REF_LOCK_FAILED", "`refs/remotes/origin/release`"),
    ("error: cannot lock ref 'refs/heads/main': is at 0123456789abcdef0123456789abcdef01234567 but expected "
     "89abcdef0123456789abcdef0123456789abcdef", "GIT_REF_LOCK_FAILED", "is at 0123456789"),
    ("merge: origin/release-2.1 - not something we can merge", "GIT_REF_NOT_FOUND", "`origin/release-2.1`"),
    # Slurm, Open MPI
    ("srun: error: Task launch for StepId=88213.2 failed on node cn-017: Socket timed out on send/recv operation",
     "SLURM_TASK_LAUNCH_FAILED", "`88213.2` on node `cn-017`: Socket timed out"),
    ("slurmstepd: error: couldn't chdir to `/scratch/u/run': Permission denied: going to /tmp instead",
     "SLURM_WORKDIR_NOT_FOUND", "`/scratch/u/run` on the node (Permission denied) and runs the task in /tmp"),
    ("slurmstepd: error: couldn't chdir to `/scratch/u/run': No such file or directory", "SLURM_WORKDIR_NOT_FOUND",
     "(No such file or directory)"),
    ("srun: error: Unable to confirm allocation for job 4471: Invalid job id specified", "SLURM_ALLOCATION_NOT_CONFIRMED",
     "allocation 4471 (Invalid job id specified)"),
    ("srun: Job step aborted: Waiting up to 62 seconds for job step to finish.", "SLURM_STEP_ABORTED_WAITING",
     "waiting up to 62 seconds"),
    ("[cn-017:40213] *** An error occurred in MPI_Comm_split", "MPI_CALL_ERROR_HANDLER_ABORT", "`MPI_Comm_split`"),
    # containers
    ("docker: no matching manifest for linux/arm64 in the manifest list entries.", "DOCKER_IMAGE_NO_MANIFEST_FOR_PLATFORM",
     "(`linux/arm64`)"),
    ("  Normal   BackOff    2m (x8 over 4m)   kubelet  Back-off pulling image \"swr.cn-south-1.myhuaweicloud.com/x/y:1\"",
     "K8S_IMAGE_PULL_FAILED", "`swr.cn-south-1.myhuaweicloud.com/x/y:1`"),
    # packaging
    ("      error: Multiple top-level modules discovered in a flat-layout: ['train', 'eval'].",
     "SETUPTOOLS_FLAT_LAYOUT_MULTIPLE_PACKAGES", "top-level modules"),
    ("      configuration error: `project.name` must be pep508-identifier", "SETUPTOOLS_PYPROJECT_CONFIG_INVALID",
     "`project.name` must be pep508-identifier"),
    ("error: Package `torch-npu` can't be installed because it doesn't have a source distribution or wheel for the current "
     "platform", "UV_NO_WHEEL_FOR_PLATFORM", "`torch-npu`"),
    ("error: The Python request from `.python-version` resolved to Python 3.8.18, which is incompatible with the project's "
     "Python requirement: `>=3.10`", "UV_PYTHON_INCOMPATIBLE_WITH_PROJECT", "(3.8.18)"),
    ("ERROR: Project file:///work/mindspeed uses a build backend that is missing the 'build_editable' hook, so it cannot "
     "be installed in editable mode.", "PIP_EDITABLE_BACKEND_NO_HOOK", "`file:///work/mindspeed`"),
    ("  × Failed to download and build `apex==0.1`", "UV_PACKAGE_BUILD_OR_DOWNLOAD_FAILED", "`apex==0.1`"),
    ("error: Failed to download and build `apex==0.1`", "UV_PACKAGE_BUILD_OR_DOWNLOAD_FAILED", "download and build"),
    ("pkg_resources.DistributionNotFound: The 'tqdm' distribution was not found and is required by datasets",
     "PY_PACKAGE_METADATA_NOT_FOUND", "`tqdm`"),
    ("SyntaxError: parameter without a default follows parameter with a default", "PY_SOURCE_SYNTAX_ERROR",
     "parameter without a default"),
    ("TypeError: 'strict' is an invalid keyword argument for zip()", "PY_CALL_SIGNATURE_MISMATCH", "`zip()`"),
    # env, curl's HTTP/2, git's detached HEAD and write permissions, scp, dash, fetch-pack
    ("/usr/bin/env: ‘python2’: No such file or directory", "ENV_PROGRAM_NOT_FOUND", "no program `python2` on PATH"),
    ("/usr/bin/env: 'bash\\r': No such file or directory", "ENV_PROGRAM_NOT_FOUND", "carriage return"),
    ("env: ‘torchrun’: No such file or directory", "ENV_PROGRAM_NOT_FOUND", "`torchrun`"),
    ("curl: (92) HTTP/2 stream 3 was not closed cleanly: INTERNAL_ERROR (err 2)", "CURL_HTTP2_STREAM_ERROR",
     "(`INTERNAL_ERROR`)"),
    ("curl: (92) HTTP/2 stream 1 reset by server (error 0x8 CANCEL)", "CURL_HTTP2_STREAM_ERROR", "(`CANCEL`)"),
    ("fatal: unable to access 'https://gitee.com/x/y.git/': Error in the HTTP2 framing layer", "CURL_HTTP2_STREAM_ERROR",
     "HTTP2 framing layer"),
    ("You are not currently on a branch.", "GIT_NOT_ON_A_BRANCH", "detached HEAD"),
    ("error: insufficient permission for adding an object to repository database /shared/repo/.git/objects",
     "GIT_REPOSITORY_NOT_WRITABLE", "`/shared/repo/.git/objects`"),
    ("fatal: could not create leading directories of '/opt/src/mindspeed': Permission denied",
     "GIT_REPOSITORY_NOT_WRITABLE", "`/opt/src/mindspeed`"),
    ("scp: /home/u/output: not a regular file", "SCP_SOURCE_NOT_REGULAR_FILE", "`/home/u/output`"),
    ("run_train.sh: 3: set: Illegal option -o pipefail", "SHELL_BASH_SYNTAX_RUN_BY_SH", "pipefail"),
    ("fatal: protocol error: bad pack header", "GIT_TRANSFER_INTERRUPTED", "bad pack header"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "path = r\"C:\\Users\\name\\data\"", "print('\\N{BULLET} done')", "os.chmod(path, 0o755)",
    "except (ValueError, TypeError) as e:", "class Net(nn.Module, Mixin):", "print(Net.__mro__)",
    "logging.config.dictConfig(LOGGING)", "ValueError: Unsupported version: 2",
    "Warning: Permanently added 'node-03' (ED25519) to the list of known hosts.",
    "debug1: Host 'node-03' is known and matches the ED25519 host key.", "Identity added: /root/.ssh/id_rsa (root@node)",
    "debug1: Will attempt key: /root/.ssh/id_rsa RSA SHA256:abc explicit",
    "branch 'main' set up to track 'origin/main'.", "Your branch is up to date with 'origin/main'.",
    "   1a2b3c4..5d6e7f8  main -> main", "hint: Updates were rejected because the tag already exists in the remote.",
    "Submodule path 'third_party/googletest': checked out 'abc123'", " * [new branch]      release -> origin/release",
    "srun: Step created for StepId=88213.2", "srun: job 4471 has been allocated resources", "#SBATCH --chdir=/scratch/u/run",
    "MPI_Init completed on rank 0", "*** Process received signal ***", "linux/arm64: Pulling from ascendhub/mindie",
    "WARNING: The requested image's platform (linux/amd64) does not match the detected host platform (linux/arm64/v8) "
    "and no specific platform was requested", "  Normal   Pulled     3s    kubelet  Successfully pulled image \"x/y:1\"",
    "packages = find_packages(include=['mypkg*'])", "license = {text = \"MIT\"}", "Resolved 42 packages in 1.2s",
    "Using CPython 3.11.7 interpreter at: /usr/bin/python3.11", "Building editable for mypkg (pyproject.toml) ... done",
    "Prepared 3 packages in 1.1s", "srun: Job step aborted", "merge: fast-forward",
    "#!/usr/bin/env python3", "env: 'bash': Permission denied", "* Using HTTP2, server supports multiplexing",
    "< HTTP/2 200", "HEAD detached at v1.0", "On branch main", "Cloning into 'mindspeed'...",
    "scp -r /data/ckpt node02:/data/", "set -o pipefail", "Receiving objects: 100% (120/120), done.",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


def test_a_distribution_not_found_with_a_version_range_is_the_requirements_entrys(kb):
    # pkg_resources' DistributionNotFound names a requirement: with a range it is the requirement's entry (a class
    # entry of families_llm.json), with a bare name the missing metadata's
    line = "pkg_resources.DistributionNotFound: The 'tqdm>=4.62' distribution was not found and is required by datasets"
    assert "`tqdm>=4.62`" in explained_title(kb, line, "PY_PACKAGE_VERSION_REQUIREMENT_UNMET")
