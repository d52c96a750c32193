"""write_atomic: old content or new, never half; and never a rename over a device or a link."""

import os
import stat

from ascend_doctor.atomic import replacing, write_atomic
from tests.helpers import run_cli


def test_replaces_a_regular_file(tmp_path):
    p = tmp_path / "r.json"
    p.write_text("old")
    write_atomic(str(p), "new")
    assert p.read_text() == "new" and os.listdir(tmp_path) == ["r.json"]


def test_a_link_is_followed_and_kept(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomic(str(link), "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_link_to_dev_null_leaves_the_device_alone(tmp_path):
    """`-o /dev/null` as root once renamed a regular file over /dev/null (the machine's). Through a link
    in tmp (so a regression cannot break this machine): the device stays a character device."""
    before = os.stat("/dev/null")
    assert stat.S_ISCHR(before.st_mode)
    link = tmp_path / "out"
    link.symlink_to("/dev/null")
    proc = run_cli("check", "--only", "resources", "--format", "json", "-o", str(link))
    assert proc.returncode in (0, 1), proc.stderr
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino and link.is_symlink()
    assert not [n for n in os.listdir("/dev") if n.startswith(".null.")]  # no temporary file left in /dev


def test_a_fifo_is_written_into(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    rfd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_atomic(str(fifo), "through the pipe")
        assert os.read(rfd, 100) == b"through the pipe"
    finally:
        os.close(rfd)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_collect_through_a_link_to_dev_null_leaves_the_device_alone(tmp_path):
    """collect writes its bundle through atomic.replacing(): the same rule as write_atomic (through a link in
    tmp, so a regression cannot break this machine)."""
    before = os.stat("/dev/null")
    link = tmp_path / "bundle.tar.gz"
    link.symlink_to("/dev/null")
    proc = run_cli("collect", "-o", str(link))
    assert proc.returncode in (0, 1), proc.stderr
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino and link.is_symlink()
    assert not [n for n in os.listdir("/dev") if n.startswith(".ascend-doctor-")]


def test_replacing_a_fifo_copies_what_the_body_wrote(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    rfd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with replacing(str(fifo)) as (fd, tmp):
            os.write(fd, b"bundle bytes")
            os.close(fd)
        assert os.read(rfd, 100) == b"bundle bytes" and not os.path.exists(tmp)
    finally:
        os.close(rfd)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and os.listdir(tmp_path) == ["pipe"]


def test_pieces_are_written_one_after_the_other(tmp_path):
    """A large report is written as pieces (text or bytes), never joined: the file gets them all, in order."""
    p = tmp_path / "r.json"
    p.write_text("old")
    write_atomic(str(p), (x for x in ["{", b'"a": ', "\u6545\u969c", "}"]))
    assert p.read_text(encoding="utf-8") == '{"a": \u6545\u969c}' and os.listdir(tmp_path) == ["r.json"]


def test_a_failing_piece_leaves_the_old_file(tmp_path):
    p = tmp_path / "r.json"
    p.write_text("old")

    def texts():
        yield "new"
        raise RuntimeError("the renderer failed")

    try:
        write_atomic(str(p), texts())
    except RuntimeError:
        pass
    assert p.read_text() == "old" and os.listdir(tmp_path) == ["r.json"]
