"""data/kb/families_py_env_os.json: the Python environment and the OS under an AI stack, written by fault injection
(round 12): each fault was run on this machine and each entry reads the line the run printed, in the printer's own
wording (CPython, glibc, libstdc++, NumPy, PyTorch). Each entry reads members its examples do not show, says the
member in its title, stays quiet on ordinary lines that share its words and on every clean excerpt of the corpus, and
one line is one problem of the family. The members this round added to other parts' entries (NumPy's two-line banner,
torch's shared-memory allocator, Python's bare EADDRINUSE, env's permission error) are checked too, and so is what
they no longer claim (a MindSpore dataset entry on libstdc++'s bad_alloc, HCCL and torch's rendezvous on MindSpore's
cluster bind)."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_py_env_os")
EXTENDED = ["NUMPY2_INCOMPATIBLE", "DATALOADER_SHARED_MEMORY_EXHAUSTED", "NETWORK_PORT_ALREADY_IN_USE",
            "SHELL_EXEC_PERMISSION_DENIED"]
FAMILY = IDS + ["PT_SAVE_FILE_WRITE_FAILED", "READ_ONLY_FILE_SYSTEM", "FILE_PERMISSION_DENIED", "OS_DISK_FULL",
                "SHARED_LIBRARY_NOT_LOADABLE", "PROCESS_CXX_UNCAUGHT_EXCEPTION", "PROCESS_SEGFAULT",
                "PROCESS_KILLED_SIGKILL", "MS_HOST_MEMORY_DATASET_OOM", "NUMPY_C_API_UNAVAILABLE",
                "PT_MASTER_PORT_IN_USE", "HCCL_PORT_IN_USE"] + EXTENDED


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert set(IDS) == {"TORCH_CHECKPOINT_FILE_NOT_WRITTEN", "PY_LOCALE_CODEC_CANNOT_DECODE", "PY_FILE_NOT_UTF8_TEXT",
                        "PY_MODULE_SHADOWED_OR_CIRCULAR_IMPORT", "SHARED_OBJECT_UNDEFINED_SYMBOL",
                        "SHARED_OBJECT_NOT_AN_ELF_FILE", "NUMPY_HOST_ARRAY_ALLOCATION_FAILED",
                        "CXX_STD_BAD_ALLOC_HOST_MEMORY", "DATALOADER_WORKER_DIED", "PY_RECURSION_LIMIT_EXCEEDED",
                        "PIP_INDEX_CONNECTION_RETRYING", "PY_NO_USABLE_TEMP_DIR", "MAKE_CLOCK_SKEW_DETECTED",
                        # written from heldout21's misses (tests/kb/test_entries_from_heldout21.py)
                        "PIP_INVALID_REQUIREMENT", "PIP_USER_INSTALL_IN_VENV", "PY_STDLIB_NOT_FOUND_AT_START",
                        "NUMPY_C_EXTENSIONS_IMPORT_FAILED"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_py_env_os.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid == "SHARED_OBJECT_UNDEFINED_SYMBOL"), sid
        assert sig.severity == ("warn" if sid in ("PIP_INDEX_CONNECTION_RETRYING", "MAKE_CLOCK_SKEW_DETECTED")
                                else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # torch.save: the open failure's other reasons, the short write in another line number
    ("RuntimeError: [enforce fail at inline_container.cc:603] . open file failed with strerror: No such file or "
     "directory", "TORCH_CHECKPOINT_FILE_NOT_WRITTEN", "No such file or directory"),
    ("RuntimeError: [enforce fail at inline_container.cc:595] . unexpected pos 1601664 vs 1601552",
     "TORCH_CHECKPOINT_FILE_NOT_WRITTEN", "shorter than written"),
    # codecs: another locale codec, an encode error of one character
    ("UnicodeDecodeError: 'cp1252' codec can't decode byte 0x9d in position 3412: character maps to <undefined>",
     "PY_LOCALE_CODEC_CANNOT_DECODE", "`cp1252`"),
    ("UnicodeEncodeError: 'latin-1' codec can't encode character '\\u4e2d' in position 0: ordinal not in range(256)",
     "PY_LOCALE_CODEC_CANNOT_DECODE", "UnicodeEncodeError"),
    ("UnicodeDecodeError: 'utf-8' codec can't decode byte 0x8b in position 1: invalid start byte",
     "PY_FILE_NOT_UTF8_TEXT", "byte 0x8b at position 1"),
    ("UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe4 in position 4095: unexpected end of data",
     "PY_FILE_NOT_UTF8_TEXT", "0xe4"),
    # shadowing and circular imports, in the dotted and the from-import forms
    ("AttributeError: partially initialized module 'mindspore.nn' has no attribute 'Cell' (most likely due to a "
     "circular import)", "PY_MODULE_SHADOWED_OR_CIRCULAR_IMPORT", "`mindspore.nn`"),
    ("ImportError: cannot import name 'AutoModel' from partially initialized module 'transformers' (most likely due "
     "to a circular import) (/home/u/transformers.py)", "PY_MODULE_SHADOWED_OR_CIRCULAR_IMPORT", "`transformers`"),
    # glibc's loader: ImportError's form, a versioned library, the other ELF checks
    ("ImportError: /opt/app/_ext.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN5boost6system15system_"
     "categoryEv", "SHARED_OBJECT_UNDEFINED_SYMBOL", "`_ZN5boost6system15system_categoryEv`"),
    ("OSError: /usr/lib64/libfoo.so.1.2: undefined symbol: foo_init", "SHARED_OBJECT_UNDEFINED_SYMBOL",
     "`/usr/lib64/libfoo.so.1.2`"),
    ("ImportError: /data/venv/lib/python3.10/site-packages/cv2/cv2.abi3.so: invalid ELF header",
     "SHARED_OBJECT_NOT_AN_ELF_FILE", "`/data/venv/lib/python3.10/site-packages/cv2/cv2.abi3.so`"),
    ("OSError: /opt/lib/libcustom_ops.so: ELF load command address/offset not page-aligned",
     "SHARED_OBJECT_NOT_AN_ELF_FILE", "not page-aligned"),
    # NumPy: another size unit and dtype
    ("MemoryError: Unable to allocate 512. MiB for an array with shape (1024, 1024, 128) and data type float32",
     "NUMPY_HOST_ARRAY_ALLOCATION_FAILED", "512. MiB"),
    # the DataLoader: several pids, another pid
    ("RuntimeError: DataLoader worker (pid(s) 120, 121) exited unexpectedly", "DATALOADER_WORKER_DIED", "120, 121"),
    ("RuntimeError: DataLoader worker (pid 3110) is killed by signal: Killed. ", "DATALOADER_WORKER_DIED",
     "(pid 3110)"),
    ("RecursionError: maximum recursion depth exceeded in comparison", "PY_RECURSION_LIMIT_EXCEEDED", "in comparison"),
    # pip behind a proxy that refuses it; TMPDIR set to a directory that is not there; a sub-make's clock warning
    ("WARNING: Retrying (Retry(total=3, connect=None, read=None, redirect=None, status=None)) after connection broken "
     "by 'ProxyError('Cannot connect to proxy.', OSError('Tunnel connection failed: 407 Proxy Authentication "
     "Required'))': /simple/mindspore/", "PIP_INDEX_CONNECTION_RETRYING", "ProxyError"),
    ("FileNotFoundError: [Errno 2] No usable temporary directory found in ['/data/tmp', '/tmp', '/var/tmp', "
     "'/usr/tmp', '/workspace']", "PY_NO_USABLE_TEMP_DIR", "'/data/tmp'"),
    ("make[1]: warning:  Clock skew detected.  Your build may be incomplete.", "MAKE_CLOCK_SKEW_DETECTED",
     "dated in the future"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "saved checkpoint to /data/ckpt/model_step_100.pt",
    "open file /data/ckpt/model.pt for writing",
    "locale: LANG=C.UTF-8, preferred encoding utf-8",
    "print('utf-8 codec can decode this')",
    "import torch  # circular import avoided by lazy loading",
    "nm -D libfoo.so | grep ' U ' lists undefined symbols",
    "readelf -h libfoo.so: ELF Header: Magic 7f 45 4c 46",
    "Allocated 5.96 GiB for an array with shape (40000, 40000) and data type float32",
    "terminate called after throwing an instance of 'c10::Error'",
    "DataLoader worker (pid 17615) started",
    "RuntimeError: DataLoader worker (pid 3110) is killed by signal: Aborted. ",
    "RuntimeError: DataLoader worker (pid 4567) is killed by signal: Bus error. It is possible that dataloader's "
    "workers are out of shared memory. Please try to raise your shared memory limit.",
    "sys.setrecursionlimit(10000)  # maximum recursion depth raised",
    "Would install numpy-2.2.6 pandas-1.5.3 python-dateutil-4.0.0 pytz-2026.6 tzdata-2026.6",
    "Successfully installed numpy-1.26.4",
    "Looking in indexes: https://pypi.org/simple, https://mirrors.huaweicloud.com/repository/pypi/simple",
    "Retrying in 2s [Retry 1/5].",
    "Using temporary directory /tmp/pip-build-env-3x9k2",
    "make: Nothing to be done for 'all'.",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS) == []


@pytest.mark.parametrize("line, sig_id, said", [
    # NumPy's banner as it comes out: two lines, each read alone
    ("A module that was compiled using NumPy 1.x cannot be run in", "NUMPY2_INCOMPATIBLE", "built for NumPy 1.x"),
    ("NumPy 2.0.2 as it may crash. To support both 1.x and 2.x", "NUMPY2_INCOMPATIBLE", "built for NumPy 1.x"),
    # torch 2.x's shared-memory allocator
    ("RuntimeError: unable to allocate shared memory(shm) for file </torch_811_2837443204_2>: No space left on "
     "device (28)", "DATALOADER_SHARED_MEMORY_EXHAUSTED", "shared memory(shm)"),
    # Python's own bind error, any server
    ("OSError: [Errno 98] Address already in use", "NETWORK_PORT_ALREADY_IN_USE", "listen on its port"),
    ("env: ‘/opt/venv/bin/python’: Permission denied", "SHELL_EXEC_PERMISSION_DENIED", "`/opt/venv/bin/python`"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, not_ids", [
    # libstdc++'s lines are any program's, not MindData's
    ("terminate called after throwing an instance of 'std::bad_alloc'", ["MS_HOST_MEMORY_DATASET_OOM"]),
    ("  what():  std::bad_alloc", ["MS_HOST_MEMORY_DATASET_OOM"]),
    # MindSpore's cluster bind is neither HCCL's port nor torch's rendezvous
    ("[WARNING] DISTRIBUTED(3059,7fe4a57ebb80,python):2026-12-05-22:40:57.185.161 "
     "[mindspore/ccsrc/cluster/rpc/tcp/socket_operation.cc:454] Listen] Failed to call bind, url: 127.0.0.1:29521 "
     "Address already in use", ["HCCL_PORT_IN_USE", "PT_MASTER_PORT_IN_USE"]),
    ("OSError: [Errno 98] Address already in use", ["PT_MASTER_PORT_IN_USE"]),
])
def test_entries_no_longer_claim_lines_of_other_programs(kb, line, not_ids):
    got = [s.id for s in kb.match_line(line)]
    assert not set(got) & set(not_ids), got


@pytest.mark.parametrize("line", [
    # round 18: ENOSPC is also a file system out of inodes; OS_DISK_FULL's title says both, in every printer's form
    "OSError: [Errno 28] No space left on device: '/scratch/shards/part_000917.npy'",
    "tar: data/img_88121.jpg: Cannot open: No space left on device",
    "mkdir: cannot create directory '/scratch/run7': No space left on device",
])
def test_disk_full_title_says_space_or_inodes(kb, line):
    title = explained_title(kb, line, "OS_DISK_FULL", among=FAMILY)
    assert "inodes" in title, title
    sig = kb.signature("OS_DISK_FULL")
    assert "df -i" in " ".join(sig.text("en", line=line)[2]), sig.text("en", line=line)


@pytest.mark.parametrize("line", [
    # a shared-memory segment is /dev/shm's, not a disk's
    "node1:2001:2060 [0] include/shm.h:30 NCCL WARN Call to posix_fallocate failed : No space left on device",
    "Filesystem     Inodes IUsed IFree IUse% Mounted on",
])
def test_disk_full_leaves_shared_memory_and_df_headers(kb, line):
    assert "OS_DISK_FULL" not in [s.id for s in kb.explaining(line)]
