"""End to end: a snapshot with a real-looking Ascend install -> probes -> compat checks -> report.

File contents follow real samples: driver/firmware version.info of HDK 24.1.rc3 (compat_facts.md §3.1/§3.2,
ascend_formats.md §1.3/§1.4), toolkit install.info (ascend_formats.md §1.5, CANN 8.2.RC1 values from
compat_facts.md §2.1), MindSpore 2.6.0's AscendEnvChecker list (mindspore_test@v2.6.0, compat_facts.md table 1).
The probes come from other branches, hence the importorskip guards.
"""

import pytest

from tests.helpers import run_json

pytest.importorskip("ascend_doctor.probes.cann")
pytest.importorskip("ascend_doctor.probes.mindspore_pkg")

SP = "/usr/local/lib/python3.9/site-packages"
TOOLKIT = "/usr/local/Ascend/ascend-toolkit/latest"

CHECK_VERSION_PY = '''\
class EnvChecker:
    pass


class GPUEnvChecker(EnvChecker):
    def __init__(self, library_path):
        self.version = ["10.1", "11.1", "11.6"]


class AscendEnvChecker(EnvChecker):
    """ascend environment check"""

    def __init__(self, library_path):
        self.library_path = library_path
        self.version = ["7.6", "7.7"]
'''

FILES = {
    "/etc/ascend_install.info": "Driver_Install_Type=full\nUserName=HwHiAiUser\nUserGroup=HwHiAiUser\n"
                                "Driver_Install_Path_Param=/usr/local/Ascend\nFirmware_Install_Type=full\n"
                                "Firmware_Install_Path_Param=/usr/local/Ascend\n",
    "/usr/local/Ascend/driver/version.info": (
        "Version=24.1.rc3\nascendhal_version=7.35.23\naicpu_version=1.0\ntdt_version=1.0\nlog_version=1.0\n"
        "prof_version=2.0\ndvppkernels_version=1.1\ntsfw_version=1.0\nInnerversion=V100R001C19SPC001B124\n"
        "compatible_version=[V100R001C13],[V100R001C15],[V100R001C17],[V100R001C18],[V100R001C19]\n"
        "compatible_version_fw=[7.0.0,7.5.99]\npackage_version=24.1.rc3\n"),
    "/usr/local/Ascend/firmware/version.info": (
        "Version=7.5.0.1.129\nfirmware_version=1.0\npackage_version=24.1.rc3\n"
        "compatible_version_drv=[23.0.0,23.0.0.],[24.0,24.0.],[24.1,24.1.]\n"),
    f"{TOOLKIT}/aarch64-linux/ascend_toolkit_install.info": (
        "package_name=Ascend-cann-toolkit\nversion=8.2.RC1\ninnerversion=V100R001C22SPC001B231\n"
        "compatible_version=[V100R001C15],[V100R001C18],[V100R001C19],[V100R001C20],[V100R001C21],[V100R001C23]\n"
        "arch=aarch64\nos=linux\npath=/usr/local/Ascend/ascend-toolkit/8.2.RC1/aarch64-linux\n"),
    f"{TOOLKIT}/compiler/version.info": "Version=8.2.0.0.201\nversion_dir=8.2.RC1\ntimestamp=20250724_194044950\n",
    f"{TOOLKIT}/opp/version.info": "Version=8.2.0.0.201\nversion_dir=8.2.RC1\n",
    f"{TOOLKIT}/opp_kernel/version.info": "Version=8.2.0.0.201\nversion_dir=8.2.RC1\n",
    f"{TOOLKIT}/runtime/version.info": "Version=8.2.0.0.201\nversion_dir=8.2.RC1\n",
    f"{TOOLKIT}/set_env.sh": "export ASCEND_HOME_PATH=/usr/local/Ascend/ascend-toolkit/latest\n",
    f"{SP}/mindspore-2.6.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: mindspore\nVersion: 2.6.0\n"
                                                "Requires-Python: >=3.7\n",
    f"{SP}/mindspore-2.6.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: bdist_wheel (0.37.1)\nRoot-Is-Purelib: false\n"
                                             "Tag: cp39-cp39-linux_aarch64\n",
    f"{SP}/mindspore-2.6.0.dist-info/top_level.txt": "mindspore\n",
    f"{SP}/mindspore/__init__.py": "",
    f"{SP}/mindspore/version.py": "__version__ = '2.6.0'\n",
    f"{SP}/mindspore/run_check/_check_version.py": CHECK_VERSION_PY,
}
ENV = {"ASCEND_HOME_PATH": TOOLKIT, "ASCEND_TOOLKIT_HOME": TOOLKIT, "ASCEND_OPP_PATH": f"{TOOLKIT}/opp",
       "LD_LIBRARY_PATH": f"{TOOLKIT}/lib64", "PATH": "/usr/bin"}


def test_snapshot_mindspore_2_6_with_cann_8_2_fails_p07(make_snapshot, tmp_path):
    snap = make_snapshot("ms26-cann82", files=FILES, env=ENV,
                         python={"version": "3.9.18", "executable": "/usr/bin/python3", "site_packages": [SP]},
                         machine={"arch": "aarch64", "hostname": "ms26-cann82"},
                         extra_manifest={"fixture_source": ["compat_facts.md §3.1/§3.2 (HDK 24.1.rc3 version.info)",
                                                            "ascend_formats.md §1.5 (toolkit install.info)",
                                                            "mindspore_test@v2.6.0 _check_version.py list"]})
    proc, data = run_json("check", "--bundle", snap, "--only", "compat",
                          env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert proc.returncode == 1, proc.stderr
    found = {f["id"]: f for f in data["findings"]}
    ms = found["compat.mindspore_cann"]
    assert ms["status"] == "fail" and ms["pitfall"] == "P07"
    assert "installed mindspore/run_check/_check_version.py" in ms["evidence"]["accepted_compilers"]
    assert "8.2.0.0.201" in ms["summary"]
    # the least disruptive way is a MindSpore published with the CANN that is here; a CANN published with this
    # MindSpore is a labelled alternative, and the plan agrees with the finding
    assert ms["fix"][0].startswith("pip install mindspore==2.7.0")
    assert any("CANN 8.1.RC1" in step for alt in ms["alternatives"] for step in alt["steps"])
    assert [s["do"] for s in data["plan"]["steps"]] == ms["fix"][:1]
    assert any("ascend-deployer" in s for s in ms["evidence"]["sources_disagree"])
    assert found["compat.driver_firmware"]["status"] == "pass"
    assert found["compat.firmware_min"]["status"] == "pass"
    assert found["compat.cann_driver"]["status"] == "pass"
    assert data["tool"]["matrix"]["source"] == "bundled"
