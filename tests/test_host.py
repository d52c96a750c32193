"""The Host contract: live and snapshot hosts answer the same questions the same way."""

import io
import json
import os
import tarfile

import pytest

from ascend_doctor import phrases
from ascend_doctor.bundle import BundleError, open_bundle
from ascend_doctor.host import FileMissing, FileTooLarge, FileUnreadable, LiveHost, SnapshotError, SnapshotHost
from tests.helpers.i18n_asserts import assert_msg


def test_snapshot_reads_files_env_and_recorded_commands(make_snapshot):
    d = make_snapshot(files={"/usr/local/Ascend/driver/version.info": "Version=23.0.7\n"},
                      env={"PATH": "/usr/bin"},
                      commands=[{"argv": ["npu-smi", "info"], "rc": 0, "stdout": "table", "stderr": "", "duration_ms": 5}])
    h = SnapshotHost(d)
    assert h.read_text("/usr/local/Ascend/driver/version.info") == "Version=23.0.7\n"
    assert h.env["PATH"] == "/usr/bin"
    r = h.run(["npu-smi", "info"])
    assert r.ok and r.stdout == "table"
    missing = h.run(["hccn_tool", "-i", "0", "-ip", "-g"])
    assert missing.error == "not-recorded" and not missing.available
    with pytest.raises(FileMissing):
        h.read_text("/etc/nothing")


def test_snapshot_links_resolve_inside_the_snapshot_only(make_snapshot, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("do not read")
    d = make_snapshot(files={"/usr/local/Ascend/ascend-toolkit/8.0.RC2/compiler/version.info": "Version=7.3.0.1.231\n"},
                      symlinks={"/usr/local/Ascend/ascend-toolkit/latest": "8.0.RC2",
                                "/escape": str(secret),
                                "/up": "../../../../../../" + str(secret)})
    h = SnapshotHost(d)
    assert h.read_text("/usr/local/Ascend/ascend-toolkit/latest/compiler/version.info").startswith("Version=7.3")
    assert h.realpath("/usr/local/Ascend/ascend-toolkit/latest") == "/usr/local/Ascend/ascend-toolkit/8.0.RC2"
    for link in ("/escape", "/up"):
        with pytest.raises(FileMissing):
            h.read_text(link)


def test_snapshot_symlink_loop_is_an_error_not_a_hang(make_snapshot):
    d = make_snapshot(symlinks={"/a": "/b", "/b": "/a"})
    with pytest.raises(FileUnreadable):
        SnapshotHost(d).read_text("/a")


def test_unreadable_marker_and_size_cap(make_snapshot):
    d = make_snapshot(files={"/big": "x" * 5000}, unreadable=["/etc/ascend_install.info"])
    h = SnapshotHost(d)
    with pytest.raises(FileUnreadable, match="permission denied"):
        h.read_text("/etc/ascend_install.info")
    with pytest.raises(FileTooLarge):
        h.read_text("/big", max_bytes=100)


def test_glob_across_components(make_snapshot):
    d = make_snapshot(files={"/usr/local/Ascend/nnae/8.0.RC3/x86_64-linux/a.info": "",
                             "/usr/local/Ascend/nnae/latest/b.info": ""})
    h = SnapshotHost(d)
    assert h.glob("/usr/local/Ascend/nnae/*/*/a.info") == ["/usr/local/Ascend/nnae/8.0.RC3/x86_64-linux/a.info"]


@pytest.mark.parametrize("manifest, message", [
    ("{", "line 1 column 2"),
    ('{"format": "other/9"}', "expected 'ascend-doctor-snapshot/1'"),
    ("[]", "top level is list"),
])
def test_bad_manifest_is_one_clear_line(tmp_path, manifest, message):
    (tmp_path / "manifest.json").write_text(manifest)
    with pytest.raises(SnapshotError) as exc:
        SnapshotHost(str(tmp_path))
    assert message in str(exc.value) and "manifest.json" in str(exc.value)


def _tar(tmp_path, members):
    path = tmp_path / "b.tar.gz"
    with tarfile.open(path, "w:gz") as tf:
        for name, kind, payload in members:
            info = tarfile.TarInfo(name)
            if kind == "file":
                data = payload.encode()
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
            elif kind == "sym":
                info.type = tarfile.SYMTYPE
                info.linkname = payload
                tf.addfile(info)
            elif kind == "hard":
                info.type = tarfile.LNKTYPE
                info.linkname = payload
                tf.addfile(info)
            elif kind == "dev":
                info.type = tarfile.CHRTYPE
                tf.addfile(info)
    return str(path)


MANIFEST = json.dumps({"format": "ascend-doctor-snapshot/1", "hostname": "n1"})


def test_tarball_round_trip_and_cleanup(tmp_path):
    path = _tar(tmp_path, [("snap/manifest.json", "file", MANIFEST), ("snap/root/etc/os-release", "file", "ID=euleros\n")])
    with open_bundle(path) as h:
        assert h.read_text("/etc/os-release") == "ID=euleros\n"
        unpacked = h.directory
    assert not os.path.exists(unpacked)


@pytest.mark.parametrize("members, message", [
    ([("../evil", "file", "x")], "outside the bundle"),
    ([("/abs", "file", "x")], "absolute path"),
    ([("manifest.json", "file", MANIFEST), ("root/x", "hard", "/etc/passwd")], "hard link"),
    ([("manifest.json", "file", MANIFEST), ("root/dev/sda", "dev", "")], "device"),
    ([("root/x", "file", "x")], "no manifest.json"),
])
def test_hostile_tarballs_are_refused(tmp_path, members, message):
    path = _tar(tmp_path, members)
    with pytest.raises(BundleError, match=message):
        with open_bundle(path):
            pass
    assert not (tmp_path.parent / "evil").exists()


def test_truncated_tarball(tmp_path):
    path = _tar(tmp_path, [("manifest.json", "file", MANIFEST), ("root/big", "file", "y" * 100000)])
    data = open(path, "rb").read()
    with open(path, "wb") as fh:
        fh.write(data[: len(data) // 2])
    with pytest.raises(BundleError, match="truncated or corrupt|not a readable"):
        with open_bundle(path):
            pass


def test_live_host_command_timeout_kills_and_reports():
    h = LiveHost()
    r = h.run(["sleep", "30"], timeout=0.3)
    assert r.error == "timeout" and r.duration_ms < 5000
    assert h.run(["definitely-not-a-program-xyz"]).error == "not-found"
    ok = h.run(["echo", "hi"])
    assert ok.ok and ok.stdout.strip() == "hi"


def test_live_host_reads_and_refuses_directories(tmp_path):
    f = tmp_path / "v.info"
    f.write_bytes(b"\xef\xbb\xbfVersion=1\r\n\xff")
    h = LiveHost()
    assert h.read_text(str(f)).startswith("Version=1")
    with pytest.raises(FileUnreadable, match="is a directory"):
        h.read_text(str(tmp_path))


def test_live_host_caps_runaway_output_and_survives_escaped_grandchild(tmp_path):
    from ascend_doctor.host import MAX_COMMAND_OUTPUT

    h = LiveHost()
    big = h.run(["python3", "-c", "import sys; sys.stdout.write('x' * (20 << 20))"], timeout=30)
    assert big.ok and len(big.stdout) == MAX_COMMAND_OUTPUT and "output cut" in big.stderr
    # a daemonised grandchild keeps stdout open after its parent exits: we must not wait for it
    script = tmp_path / "escape.sh"
    script.write_text("#!/bin/sh\n(setsid sleep 30 &)\necho started\n")
    script.chmod(0o755)
    import time

    t0 = time.monotonic()
    r = h.run([str(script)], timeout=5)
    assert time.monotonic() - t0 < 4 and r.rc == 0 and "started" in r.stdout


def test_live_host_non_executable_program(tmp_path):
    script = tmp_path / "npu-smi"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o644)
    r = LiveHost().run([str(script), "info"])
    assert r.error == "not-executable"
    assert_msg(r.describe(), phrases.COMMAND_NOT_RUN, command=f"{script} info")
