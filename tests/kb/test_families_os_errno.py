"""data/kb/families_os_errno.json: the operating system's error numbers (errno), a finite catalogue every script walks
into. Each of Linux's errno members is named by what it means (data/errno_causes.json, through the derived group
errno_text / errno_num) in each printer's form: Python's OSError `[Errno N] <text>: '<path>'`, a C program's or
coreutils' `<what>: <text>`, `errno=N`, c10d's `errno: N - <text>`; a member another entry names stays with it (the
class entry is of last resort). A Python socket timeout and a TLS connection closed in its handshake have entries of their own, and NETWORK_CONNECTION_FAILED
(families_deploy) says what its errno text means. Ordinary lines and every clean corpus excerpt stay quiet."""

import os

import pytest

from ascend_doctor.data import load_data_file
from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_os_errno")
EXTENDED = ["NETWORK_CONNECTION_FAILED"]
CODES = load_data_file("errno_causes.json")["codes"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert set(IDS) == {"OS_ERRNO_REPORTED", "PY_SOCKET_TIMED_OUT"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_os_errno.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == sig.last_resort == (sid == "OS_ERRNO_REPORTED") and sig.severity == "fail", sid


def test_the_table_holds_every_linux_errno_with_its_text():
    import errno

    assert set(CODES) >= {str(n) for n in errno.errorcode}
    for num, known in CODES.items():
        assert os.strerror(int(num)) == known["text"], num
        assert known["cause"] and known["cause_zh"], num


def test_the_derived_group_names_a_member_by_its_text_or_number():
    from ascend_doctor.i18n import set_lang
    from ascend_doctor.kb.model import DERIVED_VALUES

    got = DERIVED_VALUES["errno_text"]("Stale file handle")
    assert got["errno_name"] == "ESTALE" and got["errno_num"] == "116" and "NFS server" in got["errno_cause"]
    assert DERIVED_VALUES["errno_text"]("connection refused")["errno_name"] == "ECONNREFUSED"  # Go's lower case
    assert DERIVED_VALUES["errno_num"]("11")["errno_text"] == os.strerror(11)
    assert DERIVED_VALUES["errno_num"]("999") == {} and DERIVED_VALUES["errno_text"]("All good") == {}
    set_lang("zh")
    try:
        assert "NFS 服务端" in DERIVED_VALUES["errno_num"]("116")["errno_cause"]
    finally:
        set_lang("en")


@pytest.mark.parametrize("num", sorted(CODES, key=int))
def test_every_member_is_named_with_what_it_means(kb, num):
    known = CODES[num]
    line = f"OSError: [Errno {num}] {known['text']}: '/data/run/ckpt/model.bin'"
    hits = kb.explaining(line)
    assert hits, line
    if [s.id for s in hits] == ["OS_ERRNO_REPORTED"]:
        title = hits[0].text("en", line=line)[0]
        assert f"`{known['text']}` ({known['name']})" in title and known["cause"] in title, title


@pytest.mark.parametrize("line, said", [
    # fault injection here: the lines the runs printed (paths as printed)
    ("ProcessLookupError: [Errno 3] No such process", "(ESRCH): no process with that pid"),
    ("ChildProcessError: [Errno 10] No child processes", "(ECHILD): the process has no child to wait for"),
    ("OSError: [Errno 99] Cannot assign requested address", "is not an address of this host"),
    ("BlockingIOError: [Errno 11] Resource temporarily unavailable", "on a non-blocking socket or pipe the call would "
     "block (no data yet, or its buffer is full); on fork or thread creation a limit on processes (`ulimit -u`"),
    ("OSError: [Errno 22] Invalid argument", "O_DIRECT alignment"),
    ("OSError: [Errno 107] Transport endpoint is not connected", "a FUSE mount's daemon is gone"),
    ("OSError: [Errno 9] Bad file descriptor", "(EBADF): the file descriptor used is not open"),
    ("OSError: [Errno 29] Illegal seek", "(ESPIPE)"),
    ("OSError: [Errno 19] No such device", "(ENODEV)"),
    ("OSError: [Errno 6] No such device or address: '/work/fi/os_errno/w/fifo'", "on `/work/fi/os_errno/w/fifo`"),
    ("cp: cannot create regular file '/work/fi/os_errno/w/mysleep': Text file busy", "(ETXTBSY)"),
    ("mkdir: cannot create directory ‘/etc/hostname’: Not a directory", "(ENOTDIR)"),
    ("mkdir: cannot create directory ‘/root/newdir’: Permission denied", "(EACCES)"),
    # the other printers' forms: coreutils without a failure word, errno=N, strerror in a C program's message
    ("tail: /mnt/nfs/train.log: Stale file handle", "(ESTALE) on `/mnt/nfs/train.log`: the file was changed or "
     "removed on the NFS server"),
    ("open failed, errno=116", "`Stale file handle` (ESTALE)"),
    ("send() ERROR errno=105, strerror=No buffer space available", "(ENOBUFS)"),
    ("ls: cannot access '/mnt/obs': Transport endpoint is not connected", "(ENOTCONN)"),
    ("OSError: [Errno 52] Invalid exchange", "obsolete error of the old STREAMS/XENIX/RFS interfaces"),
    ("OSError: [Errno 133] Memory page has hardware error", "(EHWPOISON)"),
])
def test_the_class_entry_says_the_members_cause(kb, line, said):
    title = explained_title(kb, line, "OS_ERRNO_REPORTED")
    assert said in title, title


@pytest.mark.parametrize("line, said", [
    ("TimeoutError: timed out", "within the timeout the program set"),
    ("socket.timeout: timed out", "A network call timed out"),
    ("ssl.SSLError: TimeoutError: The handshake operation timed out", "(handshake)"),
    ("urllib.error.URLError: <urlopen error _ssl.c:990: The handshake operation timed out>", "(handshake)"),
])
def test_a_python_socket_timeout_is_named(kb, line, said):
    title = explained_title(kb, line, "PY_SOCKET_TIMED_OUT")
    assert said in title, title


@pytest.mark.parametrize("line", [
    "ssl.SSLEOFError: [SSL: UNEXPECTED_EOF_WHILE_READING] EOF occurred in violation of protocol (_ssl.c:1006)",
    "SSLEOFError(8, '[SSL: UNEXPECTED_EOF_WHILE_READING] EOF occurred in violation of protocol (_ssl.c:1006)')",
    "ssl.SSLError: EOF occurred in violation of protocol (_ssl.c:1129)",
])
def test_a_tls_connection_closed_in_the_handshake_is_named(kb, line):
    # (one entry for the fault: families_net_hub's, which reads these forms and requests' wrapper line too)
    assert [s.id for s in kb.explaining(line)] == ["TLS_CONNECTION_CUT_OFF"]


@pytest.mark.parametrize("line, sid, said", [
    # (families_net_hub's specific entries name the bare refused and unreachable lines; the class entry the others)
    ("ConnectionRefusedError: [Errno 111] Connection refused", "NET_CONNECTION_REFUSED", "nothing listens there"),
    ("urllib3.exceptions.NewConnectionError: HTTPConnection(host='127.0.0.1', port=30111): Failed to establish a new "
     "connection: [Errno 111] Connection refused", "NETWORK_CONNECTION_FAILED", "nothing listens on that address and port"),
    ("ConnectionResetError: [Errno 104] Connection reset by peer", "NETWORK_CONNECTION_FAILED",
     "the peer closed the connection abruptly"),
    ("Get \"http://10.0.0.3:8080/healthz\": dial tcp 10.0.0.3:8080: connect: connection refused",
     "NETWORK_CONNECTION_FAILED", "to `10.0.0.3:8080` failed: connection refused — nothing listens"),
    ("OSError: [Errno 113] No route to host", "NET_NO_ROUTE_TO_HOST", "no network path to that address"),
])
def test_a_network_errno_is_named_with_what_it_means(kb, line, sid, said):
    title = explained_title(kb, line, sid)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # a clean run's lines (the errno listing, a training loop, coreutils and the network tools)
    "EPERM 1 Operation not permitted",
    "ESTALE 116 Stale file handle",
    "errno.ENOENT = 2 No such file or directory",
    "listening on 127.0.0.1:30120 (errno 0)",
    "step 4 loss 0.0312",
    "saved /tmp/os_errno_clean.pt",
    "-r--r--r--  1 root root  34 Jan  1 00:00 mtab -> ../proc/self/mounts",
    "tmpfs on /dev/shm type tmpfs (rw,nosuid,nodev,inode64)",
    "LISTEN 0      128        127.0.0.1:30120      0.0.0.0:*",
    "except ConnectionRefusedError:",
    "    if err.errno == errno.EAGAIN:",
    "save_errno = 11;",
    "[ERROR] aclnnAdd failed, errno[161002]",
    "timeout: 30s",
    "No data available yet for this metric, skipping the plot",
    "EOF occurred while reading the dataset index; using 1200 samples",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # (a class example that families_net_hub's specific entry for its errno now names is that entry's line)
    net_hub = set(part_ids("families_net_hub"))
    assert [(sid, line, got) for sid, line, got in family_overlaps(kb, IDS + EXTENDED)
            if got or not net_hub & {s.id for s in kb.explaining(line)}] == []
