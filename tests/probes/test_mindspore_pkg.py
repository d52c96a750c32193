"""MindSpore probe: reads the installed package from files, never imports it."""

import os
import subprocess
import sys

import pytest
from tests.helpers import REPO, fixture_path

from ascend_doctor.host import LiveHost, SnapshotHost
from ascend_doctor.probes import ProbeOptions
from ascend_doctor.probes.mindspore_pkg import parse_checker_list, parse_metadata, parse_wheel_tags, probe_mindspore
from ascend_doctor import phrases
from tests.helpers.i18n_asserts import assert_is_msg, assert_msg

SP = "/usr/lib/python3/site-packages"


def _snap(make_snapshot, files, site_packages=(SP,), version="3.9.18"):
    return SnapshotHost(make_snapshot(files=files, python={"version": version, "executable": "/usr/bin/python3",
                                                           "site_packages": list(site_packages)}))


def _dist(name, version, tag="cp39-cp39-linux_x86_64", sp=SP, top_level="mindspore"):
    di = f"{sp}/{name.replace('-', '_')}-{version}.dist-info"
    files = {f"{di}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nRequires-Python: >=3.7\n\nbody\n",
             f"{di}/WHEEL": f"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: {tag}\n"}
    if top_level is not None:
        files[f"{di}/top_level.txt"] = top_level + "\n"
    return files


def test_live_mindspore_2_10_read_without_import():
    """The MindSpore 2.10.0 installed in this Python, probed in a child so sys.modules is clean."""
    code = ("import sys, json; from ascend_doctor.host import LiveHost; "
            "from ascend_doctor.probes.mindspore_pkg import probe_mindspore; "
            "f = probe_mindspore(LiveHost(), None); "
            "print(json.dumps({'version': f.version, 'flavour': f.flavour, 'backends': f.backends, "
            "'cuda': f.gpu_cuda_versions, 'cann': f.accepted_cann, 'cuda_ok': f.accepted_cuda, "
            "'custom': f.custom_ops_cann, 'py': f.extension_pythons, 'commit': f.commit_id, 'errors': f.errors, "
            "'imported': 'mindspore' in sys.modules}))")
    env = dict(os.environ, PYTHONPATH=REPO)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    import json

    got = json.loads(proc.stdout)
    if got["version"] is None:
        pytest.skip("MindSpore is not installed in this Python")
    assert got["imported"] is False
    assert got["version"] == "2.10.0"
    # The PyPI x86_64 2.10.0 wheel is one package for every device: cpu, gpu (CUDA 11.1, 11.6) and ascend plugins.
    assert got["flavour"] == "unified" and got["backends"] == ["ascend", "cpu", "gpu"]
    assert got["cuda"] == ["11.1", "11.6"]
    assert got["cann"] == ["8.2", "8.3", "8.5", "9.0", "9.1"]  # compat_facts table 1, 2.10.0
    assert got["cuda_ok"] == ["10.1", "11.1", "11.6"]
    assert got["custom"] == {"custom_ascendc_910b": "9.1.0"}
    assert got["py"] == ["%d.%d" % sys.version_info[:2]]
    assert got["commit"].startswith("[sha1]:2d550373")
    assert got["errors"] == []


def test_real_checker_source_lists():
    host = LiveHost()
    sp = [p for p in host.python.site_packages if os.path.isfile(os.path.join(p, "mindspore/run_check/_check_version.py"))]
    if not sp:
        pytest.skip("MindSpore is not installed in this Python")
    src = open(os.path.join(sp[0], "mindspore/run_check/_check_version.py"), encoding="utf-8").read()
    assert parse_checker_list(src, "AscendEnvChecker") == ["8.2", "8.3", "8.5", "9.0", "9.1"]
    assert parse_checker_list(src, "GPUEnvChecker") == ["10.1", "11.1", "11.6"]
    assert parse_checker_list(src, "NoSuchChecker") == []


def test_metadata_and_wheel_parsers_on_real_layout():
    meta = parse_metadata("Metadata-Version: 2.4\nName: mindspore\nVersion: 2.10.0\nClassifier: A\n"
                          "Requires-Python: >=3.9,<3.13\n\nName: not-a-header\n")
    assert meta["Name"] == "mindspore" and meta["Version"] == "2.10.0" and meta["Requires-Python"] == ">=3.9,<3.13"
    assert parse_wheel_tags("Wheel-Version: 1.0\nGenerator: setuptools (82.0.1)\nRoot-Is-Purelib: true\n"
                            "Tag: py3-none-any\n") == ["py3-none-any"]


def test_gpu_fixture_build_and_cuda_from_install_url():
    f = probe_mindspore(SnapshotHost(fixture_path("gpu_node")), ProbeOptions())
    assert (f.dist_name, f.version, f.flavour) == ("mindspore-gpu", "1.10.1", "gpu")
    assert f.gpu_cuda_versions == ["11.1"] and f.cuda_version == "11.1"
    assert "direct_url.json" in f.cuda_version_source and "cuda-11.1" in f.cuda_version_source
    assert f.accepted_cuda == ["10.1", "11.1", "11.6"] and f.accepted_cann == ["1.84"]
    assert f.extension_pythons == ["3.8"] and f.wheel_tags == ["cp38-cp38-linux_x86_64"]
    assert f.errors == []


def test_plugin_file_names_give_backends_and_cuda(make_snapshot):
    pkg = f"{SP}/mindspore"
    files = {**_dist("mindspore", "2.7.1"),
             f"{pkg}/version.py": "__version__ = '2.7.1'\n",
             f"{pkg}/lib/plugin/libmindspore_gpu.so.11.6": "",
             f"{pkg}/lib/plugin/libmindspore_ops_cpu.so": "",
             f"{pkg}/.commit_id": "[sha1]:71340184,[branch]:(HEAD,origin/r2.7.1,r2.7.1)\n",
             f"{pkg}/lib/plugin/ascend/custom_ascendc_910b/version.info": "custom_opp_compiler_version=8.3.T7.0.B052\n",
             f"{pkg}/lib/plugin/ascend/ms_kernels_symmetric_memory/shmem/version.info": "  SHMEM Version :  1.0.0\n"}
    f = probe_mindspore(_snap(make_snapshot, files), ProbeOptions())
    assert f.flavour == "unified" and f.backends == ["ascend", "cpu", "gpu"]
    assert f.gpu_cuda_versions == ["11.6"] and "libmindspore_gpu.so.11.6" in f.cuda_version_source
    assert f.custom_ops_cann == {"custom_ascendc_910b": "8.3.T7.0.B052"}  # the shmem version.info is ignored
    assert f.commit_id == "[sha1]:71340184,[branch]:(HEAD,origin/r2.7.1,r2.7.1)"


def test_two_distributions_in_one_site_packages(make_snapshot):
    files = {**_dist("mindspore", "2.2.14"), **_dist("mindspore-gpu", "1.10.1"),
             f"{SP}/mindspore/version.py": "__version__ = '1.10.1'\n"}
    f = probe_mindspore(_snap(make_snapshot, files), ProbeOptions())
    assert len(f.distributions) == 2
    assert (f.dist_name, f.version) == ("mindspore-gpu", "1.10.1")  # the one whose files are on disk
    assert_msg(f.errors, phrases.MS_SIDE_BY_SIDE, count=2)


def test_other_mindspore_products_are_not_the_framework(make_snapshot):
    files = {**_dist("mindspore-lite", "2.2.0", top_level="mindspore_lite"),
             **_dist("mindspore_gs", "0.4.0", top_level=None)}
    f = probe_mindspore(_snap(make_snapshot, files), ProbeOptions())
    assert not f.installed and f.distributions == [] and f.errors == []


def test_nightly_name_gives_cuda_major(make_snapshot):
    files = {**_dist("mindspore-cuda11-dev", "2.0.0.dev20230101"), f"{SP}/mindspore/version.py": ""}
    f = probe_mindspore(_snap(make_snapshot, files), ProbeOptions())
    assert f.flavour == "gpu" and f.gpu_cuda_versions == ["11"]
    assert_msg(f.cuda_version_source, "distribution name {name} (major version only)", name="mindspore-cuda11-dev")


def test_bad_input_is_recorded_not_raised(make_snapshot):
    di = f"{SP}/mindspore-2.3.0.dist-info"
    files = {f"{di}/WHEEL": "\x00\x01garbage", f"{di}/top_level.txt": "mindspore\n",
             f"{SP}/mindspore/run_check/_check_version.py": "class AscendEnvChecker:\n    self.version = broken(\n",
             f"{di}/direct_url.json": "[1, 2"}
    f = probe_mindspore(_snap(make_snapshot, files), ProbeOptions())
    assert f.installed and f.version == "2.3.0"  # from the dist-info directory name
    assert_msg(f.errors, phrases.MS_NO_METADATA, path=f"{di}/METADATA")
    assert_msg(f.errors, phrases.MS_NO_CHECKER_LIST, path=f"{SP}/mindspore/run_check/_check_version.py")
    assert_msg(f.errors, phrases.MS_BAD_DIRECT_URL, path=f"{di}/direct_url.json")
    assert f.wheel_tags == [] and f.accepted_cann == []


def test_dist_info_without_package_and_no_site_packages(make_snapshot):
    f = probe_mindspore(_snap(make_snapshot, _dist("mindspore", "2.5.0")), ProbeOptions())
    assert f.installed
    assert_msg(f.errors, phrases.MS_PACKAGE_MISSING, path=f"{SP}/mindspore")
    f = probe_mindspore(_snap(make_snapshot, {}, site_packages=()), ProbeOptions())
    assert not f.installed
    assert_is_msg(f.errors[0], phrases.MS_NO_SITE_PACKAGES)


def test_its_problems_are_messages_said_in_the_run_language(make_snapshot):
    """A package problem is a message (phrases.py): English in the facts, Chinese where a zh run shows it."""
    from ascend_doctor import i18n
    from ascend_doctor.i18n_text import worded

    f = probe_mindspore(_snap(make_snapshot, _dist("mindspore", "2.5.0")), ProbeOptions())
    [missing] = f.errors
    assert missing.startswith(f"{SP}/mindspore: missing; ")
    i18n.set_lang("zh")
    try:
        assert "mindspore 包不在该处" in worded(missing)
    finally:
        i18n.set_lang("en")
