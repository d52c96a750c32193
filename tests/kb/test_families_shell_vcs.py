"""data/kb/families_shell_vcs.json: the shell's and the everyday command-line tools' own messages (round 16): bash's and
dash's diagnostics (syntax errors, expansions, redirections, `[`/`test`, arithmetic, read-only variables, `source`,
`cd`), coreutils' cp and the user/group lookups, the archive tools, ssh's key-file checks, rsync's exit codes, curl's URL
errors, wget's TLS failure, git's own messages and Git LFS's quota. Each entry reads members its examples do not show,
says the member in its title, stays quiet on ordinary lines of the same tools (and on a clean run's whole output, kept
under tests/kb: the tools' successful runs here), and one line is one problem of the family. The entries of other parts
this part extended read their new members."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import clean_run_hits, english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_shell_vcs")
EXTENDED = ["SHELL_COMMAND_NOT_FOUND", "SHELL_EXEC_PERMISSION_DENIED", "SHELL_UNBOUND_VARIABLE",
            "NATIVE_BINARY_WRONG_ARCHITECTURE", "NETWORK_HOST_NAME_NOT_RESOLVED", "TLS_CERTIFICATE_NOT_TRUSTED",
            "GIT_LFS_DOWNLOAD_FAILED"]
FAMILY = IDS + EXTENDED + ["SHELL_BASH_SYNTAX_RUN_BY_SH", "SHELL_SCRIPT_WINDOWS_LINE_ENDINGS", "SCRIPT_INTERPRETER_NOT_FOUND",
                           "INSTALL_PACKAGE_ARCHIVE_CORRUPTED", "GIT_NOT_A_REPOSITORY", "GIT_TRANSFER_INTERRUPTED",
                           "GIT_REMOTE_REPOSITORY_NOT_FOUND", "GIT_HTTP_CREDENTIALS_NOT_ACCEPTED", "SSH_AUTHENTICATION_DENIED",
                           "SSH_CONNECTION_FAILED", "CANN_INSTALL_PATH_NOT_FOUND", "OS_FILE_NOT_FOUND"]
FALLBACKS = {"SHELL_PATH_NOT_FOUND", "TAR_STOPPED_ON_EARLIER_ERROR", "RSYNC_EXIT_ERROR", "GIT_PUSH_FAILED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) == 35 and "GIT_LFS_OVER_DATA_QUOTA" in IDS and "SHELL_SCRIPT_SYNTAX_ERROR" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_shell_vcs.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in FALLBACKS), sid
        assert sig.severity == ("warn" if sid in ("GIT_UNSHALLOW_ON_COMPLETE_REPOSITORY", "TAR_FILE_CHANGED_WHILE_READ") else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # bash's and dash's syntax errors in their other wordings
    ("bash: -c: line 1: syntax error near unexpected token `done'", "SHELL_SCRIPT_SYNTAX_ERROR", "unexpected `done`"),
    ("./run_distribute.sh: line 30: syntax error near unexpected token `$'\\r''", "SHELL_SCRIPT_WINDOWS_LINE_ENDINGS",
     "Windows line endings"),
    ("train.sh: line 88: syntax error: unexpected end of file", "SHELL_SCRIPT_SYNTAX_ERROR", "at line 88"),
    ("run.sh: 3: Syntax error: Unterminated quoted string", "SHELL_SCRIPT_SYNTAX_ERROR", "Unterminated quoted string"),
    ("run.sh: 9: Syntax error: \"done\" unexpected (expecting \"fi\")", "SHELL_SCRIPT_SYNTAX_ERROR", "`fi` expected"),
    ("run.sh: line 12: unexpected EOF while looking for matching `)'", "SHELL_SCRIPT_SYNTAX_ERROR",
     "the `)` opened before it is never closed"),
    # expansions, redirections, tests, arithmetic
    ("start.sh: line 4: ${DEVICE_ID,,}: bad substitution", "SHELL_BAD_SUBSTITUTION", "`${DEVICE_ID,,}`"),
    ("bash: ${LOG_DIR}/rank_${RANK_ID}.log: ambiguous redirect", "SHELL_AMBIGUOUS_REDIRECT",
     "`${LOG_DIR}/rank_${RANK_ID}.log`"),
    ("run.sh: line 8: [: 8.0.RC1: integer expression expected", "SHELL_TEST_OPERAND_INVALID", "`8.0.RC1` is not an integer"),
    ("run.sh: line 8: [: -gt: unary operator expected", "SHELL_TEST_OPERAND_INVALID", "unary operator expected"),
    ("run.sh: 8: test: Illegal number: 3.5", "SHELL_TEST_OPERAND_INVALID", "`3.5` is not an integer"),
    ("run.sh: line 5: 09: value too great for base (error token is \"09\")", "SHELL_ARITHMETIC_ERROR", "read as octal"),
    ("run.sh: line 5: 100/0: division by 0 (error token is \"0\")", "SHELL_ARITHMETIC_ERROR", "`100/0`"),
    ("run.sh: 4: arithmetic expression: expecting EOF: \"3.5 > 2\"", "SHELL_ARITHMETIC_ERROR", "`3.5 > 2`"),
    ("run.sh: line 2: EUID: readonly variable", "SHELL_READONLY_VARIABLE", "`EUID`"),
    # round 18: a variable name the shell cannot hold, in bash's, dash's and zsh's words
    ("setenv.sh: line 12: export: `HCCL-IF-IP=10.0.0.2': not a valid identifier", "SHELL_NOT_A_VALID_IDENTIFIER",
     "`HCCL-IF-IP=10.0.0.2` in `export`"),
    ("bash: declare: `2D_MESH=1': not a valid identifier", "SHELL_NOT_A_VALID_IDENTIFIER", "`2D_MESH=1` in `declare`"),
    ("train.sh: line 30: local: `rank-id': not a valid identifier", "SHELL_NOT_A_VALID_IDENTIFIER", "`rank-id` in `local`"),
    ("run.sh: line 3: export: `=/usr/local/Ascend/ascend-toolkit/latest': not a valid identifier",
     "SHELL_NOT_A_VALID_IDENTIFIER", "no space around `=`"),
    ("/tmp/env.sh: 7: readonly: DEVICE-ID: bad variable name", "SHELL_NOT_A_VALID_IDENTIFIER", "`DEVICE-ID` in `readonly`"),
    ("./run.zsh:typeset:4: not valid in this context: rank-id", "SHELL_NOT_A_VALID_IDENTIFIER", "`rank-id` in `typeset`"),
    # paths, redirections, source, cd
    ("-bash: /usr/local/Ascend/driver/tools/upgrade-tool: No such file or directory", "SHELL_PATH_NOT_FOUND",
     "`/usr/local/Ascend/driver/tools/upgrade-tool`"),
    ("run.sh: 3: cannot create /data/ro/out.log: Read-only file system", "SHELL_REDIRECT_TARGET_NOT_WRITABLE",
     "`/data/ro/out.log` for a redirection: Read-only file system"),
    ("bash: line 1: /mnt/ro/train.log: Read-only file system", "SHELL_REDIRECT_TARGET_NOT_WRITABLE",
     "`/mnt/ro/train.log`"),
    ("bash: source: activate: file not found", "SHELL_SOURCED_FILE_NOT_FOUND", "`activate`"),
    ("/bin/sh: 1: cd: can't cd to /home/ma-user/work/code", "SHELL_CD_FAILED", "`/home/ma-user/work/code`"),
    # coreutils, archives
    ("cp: omitting directory 'ckpt/step_500'", "CP_DIRECTORY_WITHOUT_RECURSIVE", "`ckpt/step_500`"),
    ("chown: invalid group: 'root:HwHiAiUser'", "OS_USER_OR_GROUP_NOT_FOUND", "`root`"),
    ("chown: invalid user: ‘HwHiAiUser:HwHiAiUser’", "OS_USER_OR_GROUP_NOT_FOUND", "`HwHiAiUser`"),
    ("useradd: group 'HwHiAiUser' does not exist", "OS_USER_OR_GROUP_NOT_FOUND", "`HwHiAiUser`"),
    ("gzip: Ascend-cann-kernels.tar.gz: unexpected end of file", "ARCHIVE_TOOL_FILE_DAMAGED",
     "`Ascend-cann-kernels.tar.gz`"),
    ("unzip:  cannot find zipfile directory in one of m.zip or", "ARCHIVE_TOOL_FILE_DAMAGED", "`m.zip`"),
    ("xz: model.tar.xz: Compressed data is corrupt", "ARCHIVE_TOOL_FILE_DAMAGED", "Compressed data is corrupt"),
    ("tar: Exiting with failure status due to previous errors", "TAR_STOPPED_ON_EARLIER_ERROR",
     "Exiting with failure status"),
    # ssh, rsync, curl, wget
    ("@         WARNING: UNPROTECTED PRIVATE KEY FILE!          @", "SSH_KEY_FILE_PERMISSIONS_TOO_OPEN", "too open"),
    ("Permissions 0777 for '/home/u/.ssh/id_ed25519' are too open.", "SSH_KEY_FILE_PERMISSIONS_TOO_OPEN", "(mode 777)"),
    ("rsync error: timeout in data send/receive (code 30) at io.c(197) [sender=3.1.3]", "RSYNC_CONNECTION_LOST",
     "(code 30)"),
    ("rsync error: some files vanished before they could be transferred (code 24) at main.c(1207) [sender=3.1.3]",
     "RSYNC_EXIT_ERROR", "(code 24): some files vanished"),
    ("curl: (3) URL rejected: Malformed input to a URL function", "CURL_URL_NOT_USABLE", "(curl error 3)"),
    ("curl: (1) Protocol \"htps\" not supported or disabled in libcurl", "CURL_URL_NOT_USABLE", "(curl error 1)"),
    # git
    ("error: Your local changes to the following files would be overwritten by checkout:",
     "GIT_LOCAL_CHANGES_WOULD_BE_OVERWRITTEN", "refused to checkout"),
    ("CONFLICT (modify/delete): config.yaml deleted in HEAD and modified in origin/master.", "GIT_MERGE_CONFLICT",
     "merge conflict"),
    ("error: could not apply 5d772f6... update the launcher", "GIT_MERGE_CONFLICT", "merge conflict"),
    (" ! [rejected]        main -> main (fetch first)", "GIT_BRANCHES_DIVERGED", "(`main -> main`)"),
    ("fatal: Not possible to fast-forward, aborting.", "GIT_BRANCHES_DIVERGED", "Not possible to fast-forward"),
    ("remote: error: GH001: Large files detected. You may want to try Git Large File Storage - https://git-lfs.github.com.",
     "GIT_PUSH_REJECTED_BY_REMOTE", "GH001: Large files detected"),
    ("fatal: remote error: upload-pack: not our ref 9b1e2f3a4c5d6e7f8091a2b3c4d5e6f708192a3b", "GIT_REF_NOT_FOUND",
     "`9b1e2f3a4c5d6e7f8091a2b3c4d5e6f708192a3b`"),
    ("fatal: Remote branch r2.3 not found in upstream origin", "GIT_REF_NOT_FOUND", "`r2.3`"),
    ("fatal: Unable to create '/home/u/MindSpeed/.git/shallow.lock': File exists.", "GIT_INDEX_LOCK_EXISTS",
     "`/home/u/MindSpeed/.git/shallow.lock`"),
    ("fatal: unable to auto-detect email address (got 'root@7f3a2b1c.(none)')", "GIT_IDENTITY_NOT_SET",
     "`root@7f3a2b1c.(none)`"),
    ("fatal: packed object 9b1e2f3a4c5d6e7f8091a2b3c4d5e6f708192a3b (stored in .git/objects/pack/pack-1.pack) is corrupt",
     "GIT_OBJECT_STORE_CORRUPTED", "`9b1e2f3a4c5d6e7f8091a2b3c4d5e6f708192a3b`"),
    ("fatal: No annotated tags can describe '9b1e2f3a4c5d6e7f8091a2b3c4d5e6f708192a3b'.", "GIT_DESCRIBE_NO_TAGS",
     "`9b1e2f3a4c5d6e7f8091a2b3c4d5e6f708192a3b`"),
    ("batch response: This repository exceeded its LFS budget. The account responsible for the budget should increase it "
     "to restore access.", "GIT_LFS_OVER_DATA_QUOTA", "quota"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "export HCCL_IF_IP=10.0.0.2",
    "declare -x RANK_ID=\"0\"",
    "+ export ASCEND_HOME_PATH=/usr/local/Ascend/ascend-toolkit/latest",
    "+ bash -n run.sh", "syntax ok", "# a syntax error near unexpected token is usually an extra fi",
    "echo \"${RANK_ID:-0}\" > \"$LOG_DIR/rank.log\"", "[ \"$N\" -gt 1 ] && echo many", "echo $((N*2))",
    "readonly MODE=1", "source /usr/local/Ascend/ascend-toolkit/set_env.sh", "+ cd /tmp", "cd /data/ckpt || exit 1",
    "'m' -> 'm2'", "removed directory 'm2'", "m/f:	 -1.6% -- created m/f.gz",
    "  adding: m/ (stored 0%)", "  inflating: out/m/f", "Archive:  m.zip", "tar: Removing leading `/' from member names",
    "debug1: Trying private key: /root/.ssh/id_ed25519", "chmod 600 ~/.ssh/id_rsa",
    "sent 1,234 bytes  received 56 bytes  2,580.00 bytes/sec", "total size is 1,234,567  speedup is 1.00",
    "*   Trying 127.0.0.1:30820...", "HTTP request sent, awaiting response... 200 OK",
    "Auto-merging a.txt", "Merge made by the 'ort' strategy.", "Fast-forward", " * [new branch]      dev -> dev",
    "   36d05cb..5d772f6  master -> master", "Your branch and 'origin/master' have diverged,",
    "Switched to a new branch 'dev'", "Cloning into 'c1'...", "Already up to date.", "v1-2-gee04d92",
    "Saved working directory and index state WIP on master: 36d05cb a", "Git LFS initialized.",
    "Author: fi <fi@x>", "Checking object directories: 100% (256/256), done.",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_clean_runs_of_the_same_tools_give_no_statement(kb):
    """The tools' successful runs (git clone/merge/push/describe, bash -x and sh -x, tar/gzip/xz/zip/unzip/cp/df,
    curl -v and wget against a local server) as they came out here: no line of them is explained by this part."""
    assert clean_run_hits(kb, "shell_vcs_clean_runs.txt", IDS + EXTENDED, at_least=100) == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


@pytest.mark.parametrize("line, sig_id, said", [
    ("/work/fi/shell_vcs/scripts/cnf.sh: 2: msrun_x: not found", "SHELL_COMMAND_NOT_FOUND", "`msrun_x`"),
    ("bash: 7z: command not found", "SHELL_COMMAND_NOT_FOUND", "`7z`"),
    ("bash: line 1: ro.log: Permission denied", "SHELL_EXEC_PERMISSION_DENIED", "could not run or open `ro.log`"),
    ("./start.sh: line 9: /var/log/train.log: Permission denied", "SHELL_EXEC_PERMISSION_DENIED",
     "`/var/log/train.log`"),
    ("run.sh: 8: RANK_SIZE: parameter not set", "SHELL_UNBOUND_VARIABLE", "(`RANK_SIZE`)"),
    ("bash: ./atc: cannot execute binary file", "NATIVE_BINARY_WRONG_ARCHITECTURE", "another CPU architecture"),
    ("Resolving repo.huaweicloud.com (repo.huaweicloud.com)... failed: Temporary failure in name resolution.",
     "NETWORK_HOST_NAME_NOT_RESOLVED", "`repo.huaweicloud.com`"),
    ("ERROR: cannot verify gitee.com's certificate, issued by 'CN=Corp Proxy CA':", "TLS_CERTIFICATE_NOT_TRUSTED",
     "cannot verify gitee.com's certificate"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


def test_the_quota_line_is_the_quota_entry_alone(kb):
    line = ("Smudge error: Error downloading model.safetensors (5d2a1c3e): batch response: This repository is over its "
            "data quota. Account responsible for LFS bandwidth should purchase more data packs to restore access.")
    assert [s.id for s in kb.explaining(line)] == ["GIT_LFS_OVER_DATA_QUOTA"]
