"""data/kb/families_mend_r22_plat.json: shells, everyday tools and packaging, mended after heldout30 (round 22): bash's
here-document that is never closed, tar with no files to archive (GNU tar and bsdtar), GNU sed's files that it cannot
open (a `w` file, a `-f` script, the tail of a replacement path), a wildcard that reached a command unexpanded,
pyproject.toml without a required field, and OpenSSH's unknown configuration keywords (ssh and sshd). Each entry reads
members its examples do not show, says the member in its title, stays quiet on ordinary lines and on every clean
corpus excerpt; the entries of other parts this part extended (the shell's syntax error, setuptools' schema check)
read their new members and leave the new entries their lines."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_mend_r22_plat")
EXTENDED = ["SHELL_SCRIPT_SYNTAX_ERROR", "SETUPTOOLS_PYPROJECT_CONFIG_INVALID", "OS_FILE_NOT_FOUND"]
FAMILY = IDS + EXTENDED + ["OS_ERRNO_REPORTED", "SHELL_PATH_NOT_FOUND", "TAR_STOPPED_ON_EARLIER_ERROR", "SED_SCRIPT_INVALID",
                           "PY_SCRIPT_PATH_NOT_OPENED", "PIP_LOCAL_ARCHIVE_NOT_FOUND", "ENV_PROGRAM_NOT_FOUND",
                           "SHELL_COMMAND_NOT_FOUND", "SSH_CONNECTION_FAILED",
                           "SSH_AUTHENTICATION_DENIED"]
WARNINGS = {"SHELL_HEREDOC_NOT_TERMINATED", "TAR_REFUSED_EMPTY_ARCHIVE", "SSH_CONFIG_OPTION_UNSUPPORTED",
            "CHECKSUM_FILES_DID_NOT_MATCH"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) >= 6 and "SHELL_GLOB_NOT_EXPANDED" in IDS and "SSH_CONFIG_BAD_OPTION" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mend_r22_plat.json" and not sig.ascend_fd
        assert sig.kind == "root" and not sig.fallback, sid
        assert sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # bash's here-document warning, from a script, from `bash -c` and with another delimiter
    ("/opt/run/start_train.sh: line 88: warning: here-document at line 70 delimited by end-of-file (wanted `END_CFG')",
     "SHELL_HEREDOC_NOT_TERMINATED", "in `/opt/run/start_train.sh` is never closed"),
    ("bash: line 3: warning: here-document at line 1 delimited by end-of-file (wanted `EOF')",
     "SHELL_HEREDOC_NOT_TERMINATED", "exactly `EOF`, opened at line 1"),
    ("bash: warning: here-document at line 2 delimited by end-of-file (wanted `MARK')",
     "SHELL_HEREDOC_NOT_TERMINATED", "A here-document is never closed"),
    # GNU tar and bsdtar with nothing to archive
    ("/bin/tar: Cowardly refusing to create an empty archive", "TAR_REFUSED_EMPTY_ARCHIVE", "named no files"),
    ("bsdtar: no files or directories specified", "TAR_REFUSED_EMPTY_ARCHIVE", "named no files"),
    ("tar: no files or directories specified", "TAR_REFUSED_EMPTY_ARCHIVE", "tar created no archive"),
    # GNU sed's files: the tail of a replacement path, a -f script, a w file it may not write
    ("sed: couldn't open file ata/sets/coco/: No such file or directory", "SED_SCRIPT_FILE_NOT_OPENED",
     "`ata/sets/coco/` (No such file or directory)"),
    ("sed: couldn't open file fix_paths.sed: No such file or directory", "SED_SCRIPT_FILE_NOT_OPENED", "`fix_paths.sed`"),
    ("/usr/bin/sed: couldn't open file /var/log/out/matched.txt: Permission denied", "SED_SCRIPT_FILE_NOT_OPENED",
     "(Permission denied)"),
    # wildcards that reached the command: coreutils' wordings, cat's quoted name, GNU tar's, bash's own
    ("ls: cannot access '/data/output/*.log': No such file or directory", "SHELL_GLOB_NOT_EXPANDED", "`/data/output/*.log`"),
    ("mv: cannot stat 'ck/*.pt': No such file or directory", "SHELL_GLOB_NOT_EXPANDED", "`ck/*.pt` reached the command"),
    ("rm: cannot remove 'tmp/*.lock': No such file or directory", "SHELL_GLOB_NOT_EXPANDED", "`tmp/*.lock`"),
    ("head: cannot open 'logs/rank_?.log' for reading: No such file or directory", "SHELL_GLOB_NOT_EXPANDED",
     "`logs/rank_?.log`"),
    ("cat: 'out/*.txt': No such file or directory", "SHELL_GLOB_NOT_EXPANDED", "`out/*.txt`"),
    ("tar: ckpts/*.ckpt: Cannot stat: No such file or directory", "SHELL_GLOB_NOT_EXPANDED", "`ckpts/*.ckpt`"),
    ("run.sh: line 5: /opt/scripts/*.sh: No such file or directory", "SHELL_GLOB_NOT_EXPANDED", "`/opt/scripts/*.sh`"),
    # coreutils in a UTF-8 locale before 8.25 (and EulerOS/CentOS 7) quote with ‘ ’; rsync's and scp's own wordings
    ("cp: cannot stat ‘ckpts/*.ckpt’: No such file or directory", "SHELL_GLOB_NOT_EXPANDED", "`ckpts/*.ckpt`"),
    ("ls: cannot access ‘/data/out/*.log’: No such file or directory", "SHELL_GLOB_NOT_EXPANDED", "`/data/out/*.log`"),
    ("rsync: [sender] link_stat \"/data/ckpt/*.pt\" failed: No such file or directory (2)", "SHELL_GLOB_NOT_EXPANDED",
     "`/data/ckpt/*.pt`"),
    ("rsync: link_stat \"/home/u/out/rank_?.log\" failed: No such file or directory (2)", "SHELL_GLOB_NOT_EXPANDED",
     "`/home/u/out/rank_?.log`"),
    ("scp: /data/ckpt/*.pt: No such file or directory", "SHELL_GLOB_NOT_EXPANDED", "`/data/ckpt/*.pt`"),
    # zip with nothing to add
    ("zip error: Nothing to do! (/data/ckpt_20261207.zip)", "ZIP_NOTHING_TO_DO", "`/data/ckpt_20261207.zip`"),
    # pyproject.toml without a required field, in each table's words
    ("configuration error: `project` must contain ['name'] properties", "SETUPTOOLS_PYPROJECT_REQUIRED_FIELD_MISSING",
     "`project` table must contain `'name'`"),
    ("      configuration error: `build-system` must contain ['requires'] properties",
     "SETUPTOOLS_PYPROJECT_REQUIRED_FIELD_MISSING", "`build-system` table must contain `'requires'`"),
    # OpenSSH: sshd keeps the keyword's case, ssh lowers it; -o options are `command-line` line 0
    ("/etc/ssh/sshd_config: line 14: Bad configuration option: PermitRootLogn", "SSH_CONFIG_BAD_OPTION",
     "`PermitRootLogn` at line 14"),
    ("/root/.ssh/config: line 3: Bad configuration option: usekeychain", "SSH_CONFIG_BAD_OPTION",
     "`/root/.ssh/config`: unknown configuration option `usekeychain`"),
    ("command-line: line 0: Bad configuration option: strcthostkeychecking", "SSH_CONFIG_BAD_OPTION",
     "`strcthostkeychecking`"),
    ("/etc/ssh/sshd_config: terminating, 2 bad configuration options", "SSH_CONFIG_BAD_OPTION", "`/etc/ssh/sshd_config`"),
    ("/root/.ssh/config line 7: Unsupported option \"gssapiauthentication\"", "SSH_CONFIG_OPTION_UNSUPPORTED",
     "`gssapiauthentication` in `/root/.ssh/config` (line 7)"),
    ("/etc/ssh/ssh_config line 2: Unsupported option \"rhostsrsaauthentication\"", "SSH_CONFIG_OPTION_UNSUPPORTED",
     "no longer supports it"),
    # setuptools' build and setup() checks
    ("error: package directory 'mmdet/ops' does not exist", "SETUPTOOLS_PACKAGE_DIR_NOT_FOUND", "`mmdet/ops` does not exist"),
    ("error: supposed package directory 'tinyproj' exists, but is not a directory", "SETUPTOOLS_PACKAGE_DIR_NOT_FOUND",
     "`tinyproj` exists, but is not a directory"),
    ("error in setup command: 'python_requires' must be a string containing valid version specifiers; Invalid specifier: "
     "'>=3.8,'", "SETUPTOOLS_SETUP_ARGUMENT_INVALID", "'python_requires' must be a string"),
    ("error in mmcv setup command: 'install_requires' must be a string or iterable of strings containing valid "
     "project/version requirement specifiers; Expected end or semicolon", "SETUPTOOLS_SETUP_ARGUMENT_INVALID", "of `mmcv`"),
    ("  setuptools.errors.InvalidConfigError: License classifiers have been superseded by license expressions (see "
     "https://peps.python.org/pep-0639/). Please remove:", "SETUPTOOLS_LICENSE_CLASSIFIERS_SUPERSEDED", "PEP 639"),
    # the extended entries: bash's syntax error says a here-document may be the unclosed thing, setuptools 61's
    # ValueError has no full stop
    ("gen_cfg.sh: line 30: syntax error: unexpected end of file", "SHELL_SCRIPT_SYNTAX_ERROR", "a here-document"),
    ("ValueError: invalid pyproject.toml config: `project`", "SETUPTOOLS_PYPROJECT_CONFIG_INVALID", "`project`"),
    # checksum lists, jq's input and filter errors, unzip's missing archive
    ("sha256sum: WARNING: 3 computed checksums did NOT match", "CHECKSUM_FILES_DID_NOT_MATCH", "`sha256sum` found 3 file(s)"),
    ("jq: parse error: Expected another key-value pair at line 1, column 8", "JQ_INPUT_NOT_JSON",
     "Expected another key-value pair at line 1, column 8"),
    ("parse error: Unfinished JSON term at EOF at line 3, column 0", "JQ_INPUT_NOT_JSON", "Unfinished JSON term at EOF"),
    ("jq: error (at /data/cfg.json:0): Cannot iterate over null (null)", "JQ_FILTER_FAILED_ON_INPUT",
     "(at `/data/cfg.json:0`): Cannot iterate over null"),
    ("jq: error (at <stdin>:0): string (\"a\") and number (1) cannot be added", "JQ_FILTER_FAILED_ON_INPUT",
     "cannot be added"),
    ("unzip:  cannot find or open /data/coco/train2017.zip, /data/coco/train2017.zip.zip or /data/coco/train2017.zip.ZIP.",
     "UNZIP_ARCHIVE_NOT_FOUND", "`/data/coco/train2017.zip`"),
    # launchers that could not find the program they run: coreutils', util-linux's, findutils' wordings
    ("nohup: failed to run command 'python': No such file or directory", "LAUNCHER_COMMAND_NOT_FOUND",
     "`nohup` could not start `python`"),
    ("timeout: failed to run command ‘torchrun’: No such file or directory", "LAUNCHER_COMMAND_NOT_FOUND",
     "`timeout` could not start `torchrun`"),
    ("taskset: failed to execute python3: No such file or directory", "LAUNCHER_COMMAND_NOT_FOUND", "`taskset`"),
    ("flock: failed to execute /opt/run.sh: No such file or directory", "LAUNCHER_COMMAND_NOT_FOUND", "`#!` interpreter"),
    ("xargs: md5sumx: No such file or directory", "LAUNCHER_COMMAND_NOT_FOUND", "`xargs` could not start `md5sumx`"),
    # the ENOENT entry reads coreutils' and find's ‘ ’ quotes
    ("tar (child): /data/ckpt_0.tar.gz: Cannot open: No such file or directory", "OS_FILE_NOT_FOUND", "`/data/ckpt_0.tar.gz`"),
    ("head: cannot open ‘/data/x.txt’ for reading: No such file or directory", "OS_FILE_NOT_FOUND", "`/data/x.txt`"),
    ("find: ‘/data/missing’: No such file or directory", "OS_FILE_NOT_FOUND", "`/data/missing`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "cat > run.sh <<'EOF'", "cat <<-EOF > config.yaml", "EOF", "# the here-document at line 4 ends with EOF",
    "tar -czf backup.tgz ckpts/", "Try 'tar --help' or 'tar --usage' for more information.", "backup done",
    "tar: Removing leading `/' from member names", "creating an empty archive directory",
    "sed -i 's|__DATA_DIR__|/data|' cfg.yaml", "sed: can't read cfg.yaml: No such file or directory",
    "sed: couldn't open temporary file ./sedAb12Cd: Permission denied", "couldn't open file in editor",
    "cp ckpts/*.ckpt /backup/", "copying checkpoints from ckpt17/*.ckpt", "ls -l ckpts/*.ckpt | wc -l",
    "version = \"0.1.0\"", "dynamic = [\"version\"]", "  Getting requirements to build wheel: finished with status 'error'",
    "debug1: Reading configuration data /etc/ssh/ssh_config", "debug1: sshcfg/config line 1: Applying options for trainbox",
    "  IdentityFile ~/.ssh/id_ed25519", "Host trainbox", "OpenSSH_9.2p1 Debian-2+deb12u10, OpenSSL 3.0.19 27 Jan 2026",
    "zip -r out.zip ckpts/", "  adding: ckpts/model.pt (deflated 7%)", "  RSAAuthentication no",
    "debug1: /etc/ssh/ssh_config line 19: Deprecated option \"useroaming\"", "package_dir={'': 'src'}",
    "copying src/tinyproj/__init__.py -> build/lib/tinyproj", "install_requires=['torch>=2.1']",
    "License :: OSI Approved :: MIT License", "model-00001-of-00004.safetensors: OK", "sha256sum -c SHA256SUMS",
    "jq -r '.model.path' config.json", "{\"lr\": 0.001, \"epochs\": 10}", "Archive:  data.zip", "  inflating: data/train.json",
    "jq: error (at <stdin>:5): my custom failure",
    "nohup: ignoring input and appending output to 'nohup.out'", "timeout 600 python train.py",
    "taskset -c 0-23 python train.py", "find /data -name '*.pt'", "rsync -av /data/ckpt/ backup:/data/ckpt/",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


def test_the_lines_other_entries_read_stay_theirs(kb):
    # a missing file without a wildcard stays the ENOENT class entry's; Python's launcher keeps its own entry
    explained_title(kb, "cp: cannot stat 'ckpts/model.ckpt': No such file or directory", "OS_FILE_NOT_FOUND", among=FAMILY)
    line = "/usr/bin/python3: can't open file '/work/ck/*.py': [Errno 2] No such file or directory"
    explained_title(kb, line, "PY_SCRIPT_PATH_NOT_OPENED", among=FAMILY)
    # sed's script errors stay the script entry's; setuptools' other schema rules stay the schema entry's
    explained_title(kb, "sed: -e expression #1, char 17: unknown option to `s'", "SED_SCRIPT_INVALID", among=FAMILY)
    line = "configuration error: `project.license` must be valid exactly by one definition (2 matches found):"
    explained_title(kb, line, "SETUPTOOLS_PYPROJECT_CONFIG_INVALID", among=FAMILY)
    # pip's missing local wheel keeps its entry, whose title names the path
    line = "WARNING: Requirement './dist/x-0.1.0-py3-none-any.whl' looks like a filename, but the file does not exist"
    assert "`./dist/x-0.1.0-py3-none-any.whl`" in explained_title(kb, line, "PIP_LOCAL_ARCHIVE_NOT_FOUND", among=FAMILY)
