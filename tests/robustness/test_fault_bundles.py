"""Hostile bundles (customer snapshots are untrusted): every one is refused with one clear line,
nothing is written outside a temporary directory, and that directory is removed.

Complements tests/test_host.py (../, absolute names, hard link, device file, no manifest, one
truncation) with links that point outside, links used as a path to write through, top-level
snapshot files that are links, FIFOs, decompression bombs, member-count bombs, truncation at
many points, corrupt streams and wrong manifest versions, each through the real CLI.
"""

import bz2
import gzip
import io
import json
import lzma
import os
import tarfile

import pytest

from ascend_doctor import bundle
from ascend_doctor.bundle import BundleError, open_bundle
from tests.helpers import run_cli

MANIFEST = json.dumps({"format": "ascend-doctor-snapshot/1", "hostname": "n1"}).encode()
SECRET = "engineer-secret-4242"


def _info(name, kind="file", data=b"", link=""):
    info = tarfile.TarInfo(name)
    if kind == "file":
        info.size = len(data)
    elif kind == "sym":
        info.type, info.linkname = tarfile.SYMTYPE, link
    elif kind == "hard":
        info.type, info.linkname = tarfile.LNKTYPE, link
    elif kind == "fifo":
        info.type = tarfile.FIFOTYPE
    elif kind == "chr":
        info.type = tarfile.CHRTYPE
    elif kind == "blk":
        info.type = tarfile.BLKTYPE
    return info


def write_tar(path, members, mode="w:gz"):
    with tarfile.open(path, mode) as tf:
        for m in members:
            name, kind = m[0], m[1]
            payload = m[2] if len(m) > 2 else b""
            if kind == "file":
                data = payload if isinstance(payload, bytes) else payload.encode()
                tf.addfile(_info(name, "file", data), io.BytesIO(data))
            else:
                tf.addfile(_info(name, kind, link=payload))
    return str(path)


@pytest.fixture
def sandbox(tmp_path):
    """A private TMPDIR for the doctor and an 'outside' directory holding a secret, checked after each run."""
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.json").write_text(json.dumps({"PASSWORD": SECRET}))
    return {"tmp": tmpdir, "outside": outside, "env": {"TMPDIR": str(tmpdir)}}


def assert_refused(proc, sandbox, words):
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-500:], proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ascend-doctor: error:"), proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert any(w in lines[0] for w in words), lines[0]
    assert SECRET not in proc.stderr
    assert os.listdir(sandbox["tmp"]) == [], "the temporary directory was not removed"
    assert sorted(os.listdir(sandbox["outside"])) == ["secret.json"], "something was written outside"


def hostile_bundles(outside):
    o = str(outside)
    up = "../" * 12 + o.lstrip("/")
    return {
        "dotdot": ([("../../../../" + o.lstrip("/") + "/evil", "file", "x")], ["outside the bundle"]),
        "dotdot-inside-name": ([("manifest.json", "file", MANIFEST), ("root/a/../../../evil", "file", "x")],
                               ["outside the bundle"]),
        "absolute": ([(o + "/evil", "file", "x")], ["absolute path", "outside the bundle"]),
        "symlink-then-write-through": ([("manifest.json", "file", MANIFEST), ("root/out", "sym", o),
                                        ("root/out/evil", "file", "x")], ["outside the bundle"]),
        "relative-symlink-then-write-through": ([("manifest.json", "file", MANIFEST), ("root/out", "sym", up),
                                                 ("root/out/evil", "file", "x")], ["outside the bundle"]),
        "symlink-overwritten-by-file": ([("manifest.json", "file", MANIFEST), ("root/f", "sym", o + "/evil"),
                                         ("root/f", "file", "x")], ["outside the bundle"]),
        "hardlink-outside": ([("manifest.json", "file", MANIFEST), ("root/h", "hard", o + "/secret.json")],
                             ["hard link"]),
        "hardlink-inside": ([("manifest.json", "file", MANIFEST), ("root/a", "file", "x"), ("root/h", "hard", "root/a")],
                            ["hard link"]),
        "char-device": ([("manifest.json", "file", MANIFEST), ("root/dev/mem", "chr")], ["device or special"]),
        "block-device": ([("manifest.json", "file", MANIFEST), ("root/dev/sda", "blk")], ["device or special"]),
        "fifo": ([("manifest.json", "file", MANIFEST), ("root/etc/hccn.conf", "fifo")], ["device or special"]),
        "manifest-is-a-link": ([("manifest.json", "sym", o + "/secret.json")], ["symbolic link", "no manifest"]),
        "env-is-a-link": ([("manifest.json", "file", MANIFEST), ("env.json", "sym", o + "/secret.json")],
                          ["symbolic link"]),
        "commands-is-a-link": ([("manifest.json", "file", MANIFEST), ("commands.json", "sym", o + "/secret.json")],
                               ["symbolic link"]),
        "root-is-a-link": ([("manifest.json", "file", MANIFEST), ("root", "sym", "/")], ["symbolic link"]),
        "top-folder-is-a-link": ([("snap", "sym", o)], ["no manifest"]),
        "wrong-manifest-version": ([("manifest.json", "file", json.dumps(
            {"format": "ascend-doctor-snapshot/2", "hostname": "n1"}))], ["expected 'ascend-doctor-snapshot/1'"]),
        "manifest-not-json": ([("manifest.json", "file", "{\"format\": ")], ["expected valid JSON"]),
        "manifest-binary": ([("manifest.json", "file", b"\xff\xfe\x00garbage")], ["not UTF-8", "expected valid JSON"]),
        "manifest-a-list": ([("manifest.json", "file", "[1, 2]")], ["top level is list"]),
        "env-values-not-strings": ([("manifest.json", "file", MANIFEST), ("env.json", "file", '{"PATH": 5}')],
                                   ["not a string"]),
        "commands-bad-argv": ([("manifest.json", "file", MANIFEST), ("commands.json", "file", '[{"argv": "npu-smi"}]')],
                              ["argv"]),
        "no-manifest": ([("root/etc/os-release", "file", "ID=x")], ["no manifest.json"]),
        "two-top-folders": ([("a/manifest.json", "file", MANIFEST), ("b/manifest.json", "file", MANIFEST)],
                            ["no manifest.json"]),
    }


CASES = sorted(hostile_bundles("/x"))


@pytest.mark.parametrize("case", CASES)
def test_hostile_bundle_is_refused_and_leaves_nothing(tmp_path, sandbox, case):
    members, words = hostile_bundles(sandbox["outside"])[case]
    path = write_tar(tmp_path / f"{case}.tar.gz", members)
    proc = run_cli("check", "--bundle", path, "--format", "json", env=sandbox["env"])
    assert_refused(proc, sandbox, words)


def test_link_to_the_engineers_disk_is_never_followed(tmp_path, sandbox):
    """A link inside root/ is kept, but resolves inside the snapshot: the secret never reaches the report."""
    o = str(sandbox["outside"])
    path = write_tar(tmp_path / "b.tar.gz", [
        ("manifest.json", "file", MANIFEST),
        ("root/etc/ascend_install.info", "sym", o + "/secret.json"),
        ("root/usr/local/Ascend/driver/version.info", "sym", "../../../../../../../../" + o.lstrip("/") + "/secret.json"),
        ("root/etc/hccn.conf", "sym", "/etc/passwd"),
    ])
    proc = run_cli("check", "--bundle", path, "--format", "json", env=sandbox["env"])
    assert proc.returncode in (0, 1), proc.stderr
    assert SECRET not in proc.stdout and "root:x:0:0" not in proc.stdout
    assert os.listdir(sandbox["tmp"]) == []


# -1 cuts only the gzip trailer (its CRC): still refused, since the CRC is what proves the data intact.
@pytest.mark.parametrize("cut", [10, 100, 512, 1000, 3000, 20000, 50000, -300, -20, -1])
def test_truncated_bundle_at_any_point_is_refused(tmp_path, sandbox, cut):
    big = os.urandom(40000).hex()  # incompressible, so cuts land inside member data too
    path = write_tar(tmp_path / "b.tar.gz", [("manifest.json", "file", MANIFEST), ("root/a", "file", big),
                                             ("root/b", "file", big)])
    data = open(path, "rb").read()
    with open(path, "wb") as fh:
        fh.write(data[:cut])
    proc = run_cli("check", "--bundle", path, env=sandbox["env"])
    assert_refused(proc, sandbox, ["truncated or corrupt", "not a readable tar", "no manifest"])


@pytest.mark.parametrize("content", [b"", b"\x00" * 10, b"PK\x03\x04 not a tar", os.urandom(5000),
                                     gzip.compress(b"plain text, not a tar archive" * 100, mtime=0)],
                         ids=["empty", "zeros", "zip", "random", "gzip-of-text"])  # ids alike in every worker
def test_not_a_tar_at_all(tmp_path, sandbox, content):
    path = tmp_path / "b.tar.gz"
    path.write_bytes(content)
    proc = run_cli("check", "--bundle", str(path), env=sandbox["env"])
    assert_refused(proc, sandbox, ["not a readable tar", "truncated or corrupt", "holds no tar archive", "no manifest"])


@pytest.mark.parametrize("pack, kind", [(gzip.compress, "gzip"), (bz2.compress, "bzip2"), (lzma.compress, "xz")])
@pytest.mark.parametrize("content", [b"plain text, not a tar archive\n" * 100, b"hello\n"])
def test_a_sound_compressed_file_that_holds_no_tar_is_not_called_truncated(tmp_path, sandbox, pack, kind, content):
    path = tmp_path / "b.tar.gz"
    path.write_bytes(pack(content))
    proc = run_cli("check", "--bundle", str(path), env=sandbox["env"])
    assert_refused(proc, sandbox, [f"{kind} data that holds no tar archive"])
    assert "truncated" not in proc.stderr and "corrupt" not in proc.stderr


@pytest.mark.parametrize("where", [0.2, 0.35, 0.5, 0.65, 0.8, 0.95])
def test_corrupt_gzip_stream(tmp_path, sandbox, where):
    """Flipped bytes inside the compressed data: zlib errors, CRC mismatches and bad headers all refuse."""
    import random

    rnd = random.Random(int(where * 100))
    path = write_tar(tmp_path / "b.tar.gz", [("manifest.json", "file", MANIFEST),
                                             ("root/a", "file", bytes(rnd.getrandbits(8) for _ in range(30000)).hex())])
    data = bytearray(open(path, "rb").read())
    start = int(len(data) * where)
    for i in range(start, min(len(data), start + 64)):
        data[i] ^= 0xFF
    open(path, "wb").write(bytes(data))
    proc = run_cli("check", "--bundle", path, env=sandbox["env"])
    assert_refused(proc, sandbox, ["truncated or corrupt", "not a readable tar", "no manifest"])


# -- bombs: in-process with the caps lowered, so the test writes megabytes, not the real 512 MiB

def _zeros_tar(path, size, members=1):
    with tarfile.open(path, "w:gz") as tf:
        tf.addfile(_info("manifest.json", "file", MANIFEST), io.BytesIO(MANIFEST))
        for i in range(members):
            info = _info(f"root/zeros{i}", "file", b"")
            info.size = size
            tf.addfile(info, io.BytesIO(b"\0" * size))
    return str(path)


def test_decompression_bomb_is_refused_before_it_fills_the_disk(tmp_path, monkeypatch):
    monkeypatch.setattr(bundle, "MAX_UNPACKED_BYTES", 4 << 20)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "t"))
    (tmp_path / "t").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    path = _zeros_tar(tmp_path / "bomb.tar.gz", 2 << 20, members=5)  # 10 MiB of zeros in ~10 KiB
    assert os.path.getsize(path) < 100_000
    with pytest.raises(BundleError, match="unpacks to more than 4 MiB"):
        with open_bundle(path):
            pass
    assert os.listdir(tmp_path / "t") == []


def test_single_member_bomb_refused_from_its_header(tmp_path, monkeypatch):
    monkeypatch.setattr(bundle, "MAX_UNPACKED_BYTES", 1 << 20)
    path = _zeros_tar(tmp_path / "bomb.tar.gz", 8 << 20)
    with pytest.raises(BundleError, match="unpacks to more than 1 MiB"):
        with open_bundle(path):
            pass


def test_member_count_bomb(tmp_path, monkeypatch):
    monkeypatch.setattr(bundle, "MAX_MEMBERS", 50)
    path = write_tar(tmp_path / "many.tar.gz", [("manifest.json", "file", MANIFEST)] +
                     [(f"root/d/{i}", "file", "") for i in range(200)])
    with pytest.raises(BundleError, match="more than 50 members"):
        with open_bundle(path):
            pass


def test_real_size_bomb_through_the_cli(tmp_path, sandbox):
    """A header that claims 600 MiB: refused from the header, before a byte of it is written."""
    path = tmp_path / "claims.tar.gz"
    info = _info("root/huge", "file", b"")
    info.size = 600 << 20
    raw = io.BytesIO()
    raw.write(_info("manifest.json", "file", MANIFEST).tobuf(format=tarfile.GNU_FORMAT) + MANIFEST.ljust(512, b"\0"))
    raw.write(info.tobuf(format=tarfile.GNU_FORMAT) + b"\0" * 4096)
    path.write_bytes(gzip.compress(raw.getvalue()))
    proc = run_cli("check", "--bundle", str(path), env=sandbox["env"])
    assert_refused(proc, sandbox, ["unpacks to more than 512 MiB"])


def test_megabytes_hidden_after_the_end_marker_are_refused(tmp_path):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tf:
        tf.addfile(_info("manifest.json", "file", MANIFEST), io.BytesIO(MANIFEST))
    path = tmp_path / "tail.tar.gz"
    path.write_bytes(gzip.compress(raw.getvalue() + b"\0" * (3 << 20)))
    with pytest.raises(BundleError, match="after the end of the archive"):
        with open_bundle(str(path)):
            pass


def test_a_normal_bundle_still_opens(tmp_path):
    path = write_tar(tmp_path / "ok.tar.gz", [("snap/manifest.json", "file", MANIFEST),
                                              ("snap/root/etc/os-release", "file", "ID=euleros\n")])
    with open_bundle(path) as host:
        assert host.read_text("/etc/os-release") == "ID=euleros\n"


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_bundle_path_that_is_not_a_regular_file(tmp_path, sandbox, kind):
    """A FIFO nobody writes to would block tarfile.open for ever; /dev/zero would never end."""
    if kind == "fifo":
        path = str(tmp_path / "bundle.tar.gz")
        os.mkfifo(path)
    else:
        path = "/dev/zero"
    proc = run_cli("check", "--bundle", path, env=sandbox["env"], timeout=60)
    assert_refused(proc, sandbox, ["not a regular file"])


def test_full_temporary_disk_is_named_as_such_and_cleaned(tmp_path):
    import subprocess

    tiny = tmp_path / "tiny"
    tiny.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(tiny)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        path = write_tar(tmp_path / "b.tar.gz", [("manifest.json", "file", MANIFEST),
                                                 ("root/big", "file", os.urandom(200_000))])
        proc = run_cli("check", "--bundle", path, env={"TMPDIR": str(tiny)})
        assert proc.returncode == 2 and "No space left on device" in proc.stderr and "TMPDIR" in proc.stderr
        assert "corrupt" not in proc.stderr
        assert os.listdir(tiny) == []  # the half-unpacked directory is gone
    finally:
        subprocess.run(["umount", str(tiny)], capture_output=True)
