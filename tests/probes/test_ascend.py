"""Ascend probes on the real samples of reference/ascend_formats.md and on broken input."""

import os

import pytest

from ascend_doctor.host import SnapshotHost
from ascend_doctor.probes import ProbeOptions
from ascend_doctor.probes.ascend_driver import probe_driver, probe_firmware
from ascend_doctor.probes.cann import probe_cann
from ascend_doctor.probes.kv import parse_version_cfg
from ascend_doctor.probes.npu_smi import parse_npu_smi_info, probe_npu

from tests.fixtures.build_ascend import ASCEND_INSTALL_INFO as INSTALL_INFO  # the samples the fixtures use
from tests.fixtures.build_ascend import NPU_SMI_310P as SMI_310P
from tests.helpers import fixture_path
from tests.helpers.i18n_asserts import assert_is_msg
from ascend_doctor import phrases

OPTS = ProbeOptions(timeout=5)

# ---------------------------------------------------------------------------
# npu-smi info samples (ascend_formats §2.x, verbatim)
# ---------------------------------------------------------------------------

# §2.2 vllm-project/vllm-ascend#1047, Atlas 800 (910A "910ProB"), npu-smi 24.1.0
SMI_910PROB = """+------------------------------------------------------------------------------------------------+
| npu-smi 24.1.0                   Version: 24.1.0                                               |
+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 0     910ProB             | OK            | 78.0        38                0    / 0             |
| 0                         | 0000:C1:00.0  | 0           2387 / 13553      18   / 32768         |
+===========================+===============+====================================================+
| 1     910ProB             | OK            | 75.8        38                0    / 0             |
| 0                         | 0000:81:00.0  | 0           1840 / 15665      8    / 32768         |
+===========================+===============+====================================================+
"""

# §2.2 1Panel-dev/1Panel#9472, 910B4, npu-smi 24.1.1 (header rows from the layout-A header)
SMI_910B4 = """| npu-smi 24.1.1                   Version: 24.1.1                                               |
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 0     910B4               | OK            | 88.2        30                0    / 0             |
| 0                         | 0000:C1:00.0  | 0           0    / 0          26838/ 32768         |
+===========================+===============+====================================================+
"""

# §2.3 vllm-project/vllm-ascend#2035, A3, npu-smi 24.1.rc3.7 (the source itself stops mid-row)
SMI_A3 = """+------------------------------------------------------------------------------------------------+
| npu-smi 24.1.rc3.7               Version: 24.1.rc3.7                                           |
+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip  Phy-ID              | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 0     Ascend910           | OK            | 178.8       36                0    / 0             |
| 0     0                   | 0000:9D:00.0  | 0           0    / 0          3397 / 65536         |
+------------------------------------------------------------------------------------------------+
| 0     Ascend910           | OK            | -           36                0    / 0             |
| 1     1                   | 0000:9F:00.0  | 0           0    / 0          3186 / 65536         |
+===========================+===============+====================================================+
| 1     Ascend910           | OK            | 185.4       36                0    / 0             |
| 0     2                   | 0000:99:00.0  | 0           0    / 0 ...
"""

# §2.4 vllm-project/vllm-ascend#12980, npu-smi 26.0.rc2 (wider columns)
SMI_26 = """+------------------------------------------------------------------------------------------------------------------+
| npu-smi 26.0.rc2                            Version: 26.0.rc2                                                    |
+---------------------------+---------------+----------------------------------------------------------------------+
| NPU   Name                | Health        | Power(W)             Temp(C)                 Hugepages-Usage(page)   |
| Chip  Phy-ID              | Bus-Id        | AICore(%)            Memory-Usage(MB)        HBM-Usage(MB)           |
+===========================+===============+======================================================================+
| 0     Ascend910           | OK            | 162.6                34                      0    / 0                |
| 0     0                   | 0000:9D:00.0  | 0                    0    / 0                3419 / 65536            |
"""

# §2.6 Ascend/mindxsdk-referenceapps StyleTransfer README, Ascend 310, npu-smi 21.0.3.1
SMI_310 = """+------------------------------------------------------------------------------+
| npu-smi 21.0.3.1                     Version: 21.0.3.1                       |
+-------------------+-----------------+----------------------------------------+
| NPU     Name      | Health          | Power(W)          Temp(C)              |
| Chip    Device    | Bus-Id          | AICore(%)         Memory-Usage(MB)     |
+===================+=================+========================================+
| 0       310       | OK              | 12.8              58                   |
| 0       0         | NA              | 0                 5324 / 8192          |
+===================+=================+========================================+
"""

# §2.7 MindCluster collecting-logs doc: process table
SMI_PROCESSES = """+---------------------------+---------------+----------------------------------------------------+
| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
+===========================+===============+====================================================+
| 0       0                 | 139667        | python                   | 30780                   |
+===========================+===============+====================================================+
| No running processes found in NPU 7                                                            |
"""


def test_layout_a_910prob_numbers():
    devices, banner, layout, procs, idle, errors = parse_npu_smi_info(SMI_910PROB)
    assert layout == "A" and errors == []
    assert banner == {"tool_version": "24.1.0", "driver_version": "24.1.0"}
    assert [(d.npu_id, d.chip_id, d.device_id, d.name, d.health) for d in devices] == [
        (0, 0, 0, "910ProB", "OK"), (1, 0, 1, "910ProB", "OK")]
    d0, d1 = devices
    assert (d0.power_w, d0.temp_c, d0.aicore_pct) == (78.0, 38.0, 0.0)
    assert (d0.memory_used_mb, d0.memory_total_mb, d0.hbm_used_mb, d0.hbm_total_mb) == (2387, 13553, 18, 32768)
    assert (d1.memory_used_mb, d1.memory_total_mb, d1.hbm_used_mb, d1.hbm_total_mb) == (1840, 15665, 8, 32768)
    assert (d0.bus_id, d1.bus_id) == ("0000:C1:00.0", "0000:81:00.0")


def test_layout_a_used_without_space_before_slash():
    devices, banner, layout, _, _, errors = parse_npu_smi_info(SMI_910B4)
    assert errors == [] and layout == "A" and banner["driver_version"] == "24.1.1"
    (d,) = devices
    assert (d.name, d.hbm_used_mb, d.hbm_total_mb, d.memory_total_mb, d.power_w) == ("910B4", 26838, 32768, 0, 88.2)


def test_layout_b_a3_two_dies_and_truncated_source():
    devices, banner, layout, _, _, errors = parse_npu_smi_info(SMI_A3)
    assert layout == "B" and banner["tool_version"] == "24.1.rc3.7"
    assert [(d.npu_id, d.chip_id, d.device_id) for d in devices] == [(0, 0, 0), (0, 1, 1)]
    assert devices[0].power_w == 178.8 and devices[1].power_w is None  # second die's power is "-"
    assert (devices[1].hbm_used_mb, devices[1].hbm_total_mb, devices[1].bus_id) == (3186, 65536, "0000:9F:00.0")
    # The source stops in the middle of NPU 1: reported, not guessed.
    assert any("truncated" in e for e in errors)


def test_layout_b_prime_26x_wide_columns():
    devices, banner, layout, _, _, errors = parse_npu_smi_info(SMI_26)
    assert layout == "B" and banner["driver_version"] == "26.0.rc2" and errors == []
    (d,) = devices
    assert (d.power_w, d.temp_c, d.hbm_used_mb, d.hbm_total_mb, d.device_id) == (162.6, 34.0, 3419, 65536, 0)


def test_layout_c_310p_card_ids_and_na_power():
    devices, banner, layout, _, _, errors = parse_npu_smi_info(SMI_310P)
    assert layout == "C" and errors == []
    assert [(d.npu_id, d.chip_id, d.device_id) for d in devices] == [(1, 0, 0), (1, 1, 1)]
    assert [d.power_w for d in devices] == [None, None]
    assert [(d.memory_used_mb, d.memory_total_mb) for d in devices] == [(1397, 44280), (1520, 43693)]
    assert all(d.hbm_total_mb is None and d.bus_id == "0000:01:00.0" for d in devices)


def test_layout_d_310_no_hugepages_no_hbm():
    devices, banner, layout, _, _, errors = parse_npu_smi_info(SMI_310)
    assert layout == "D" and errors == [] and banner["tool_version"] == "21.0.3.1"
    (d,) = devices
    assert (d.name, d.power_w, d.temp_c, d.memory_used_mb, d.memory_total_mb, d.bus_id) == (
        "310", 12.8, 58.0, 5324, 8192, None)


def test_process_table_and_idle_lines():
    devices, _, _, procs, idle, errors = parse_npu_smi_info(SMI_910PROB + SMI_PROCESSES)
    assert len(devices) == 2
    assert procs == [{"npu_id": 0, "chip_id": 0, "pid": 139667, "name": "python", "memory_mb": 30780}]
    assert idle == [7]


def test_banner_tool_and_driver_versions_can_differ():
    # §2.1 MindCluster fault-diagnosis guide
    _, banner, *_ = parse_npu_smi_info("| npu-smi 23.0.rc3          Version: 23.0.rc2.3 |\n")
    assert banner == {"tool_version": "23.0.rc3", "driver_version": "23.0.rc2.3"}


@pytest.mark.parametrize("text", [
    "",
    "dcmi module initialize failed. ret is -8005\n",
    "\x00\x01\x02\xff" * 5000,
    "|" * 100000,
    "| a | b | c |\n" * 3000,
    ("garbage line with no table at all " * 30 + "\n") * 1000,  # ~1 MB of junk
    "x" * (1 << 20),
])
def test_garbage_never_raises_and_yields_no_devices(text):
    devices, banner, layout, procs, idle, errors = parse_npu_smi_info(text)
    assert devices == [] and procs == [] and idle == []
    assert banner is None


def test_truncated_table_keeps_the_complete_rows():
    cut = SMI_910PROB[: SMI_910PROB.index("| 0                         | 0000:81")]
    devices, _, layout, _, _, errors = parse_npu_smi_info(cut)
    assert [d.npu_id for d in devices] == [0] and layout == "A"
    assert any("NPU row '1     910ProB' has no chip row" in e for e in errors)


def test_rows_without_any_header_still_give_hbm():
    rows = "\n".join(l for l in SMI_910B4.splitlines() if "Name" not in l and "Bus-Id" not in l)
    devices, _, layout, _, _, errors = parse_npu_smi_info(rows)
    assert layout is None and devices[0].hbm_used_mb == 26838
    assert any("layout unknown" in e for e in errors)


def test_rows_with_wrong_column_count_are_reported():
    text = SMI_910PROB.replace("| OK            | 75.8", "| OK            | 75.8 | extra")
    devices, _, _, _, _, errors = parse_npu_smi_info(text)
    assert [d.npu_id for d in devices] == [0]
    assert any("expected 3" in e for e in errors)


@pytest.mark.parametrize("sample, family", [
    (SMI_A3.split("| 1     Ascend910")[0], "910_93"), (SMI_910B4, "910B"), (SMI_910PROB, "910"),
    (SMI_310P, "310P"), (SMI_310, "310"),
])
def test_soc_family_from_layout_and_name(make_snapshot, sample, family):
    snap = make_snapshot(commands=[{"argv": ["npu-smi", "info"], "rc": 0, "stdout": sample}])
    assert probe_npu(SnapshotHost(snap), OPTS).soc_family == family


def test_single_die_ascend910_name_alone_is_not_a3(make_snapshot):
    # §2.9: the chip name cannot tell A2 from A3; only the two-die Phy-ID layout can.
    text = SMI_910B4.replace("910B4              ", "Ascend910          ")
    snap = make_snapshot(commands=[{"argv": ["npu-smi", "info"], "rc": 0, "stdout": text}])
    facts = probe_npu(SnapshotHost(snap), OPTS)
    assert facts.soc_family is None and any("does not identify" in e for e in facts.errors)


def test_probe_npu_timeout_records_the_command(make_snapshot):
    snap = make_snapshot(commands=[{"argv": ["npu-smi", "info"], "rc": None, "stdout": "", "error": "timeout"}],
                         files={"/dev/davinci0": "", "/dev/davinci1": "", "/dev/davinci_manager": ""})
    facts = probe_npu(SnapshotHost(snap), OPTS)
    assert facts.available and facts.devices == []
    assert_is_msg(facts.command_error, phrases.COMMAND_TIMEOUT, command="npu-smi info")
    assert facts.dev_nodes == ["/dev/davinci0", "/dev/davinci1"]  # davinci_manager is not a device


def test_probe_npu_failing_command_keeps_stderr(make_snapshot):
    snap = make_snapshot(commands=[{"argv": ["npu-smi", "info"], "rc": 255, "stdout": "",
                                    "stderr": "dcmi module initialize failed. ret is -8005"}])
    facts = probe_npu(SnapshotHost(snap), OPTS)
    assert_is_msg(facts.command_error, phrases.COMMAND_EXIT, command="npu-smi info", code=255)
    assert any("-8005" in e for e in facts.errors)


def test_probe_npu_not_recorded_is_not_available(make_snapshot):
    facts = probe_npu(SnapshotHost(make_snapshot()), OPTS)
    assert facts.available is False and facts.command_error is None


def test_probe_npu_falls_back_to_the_hdk_path(make_snapshot):
    snap = make_snapshot(files={"/usr/local/bin/npu-smi": "#!binary"},
                         commands=[{"argv": ["/usr/local/bin/npu-smi", "info"], "rc": 0, "stdout": SMI_310}])
    facts = probe_npu(SnapshotHost(snap), OPTS)
    assert facts.available and len(facts.devices) == 1 and facts.driver_version == "21.0.3.1"


def test_probe_npu_live_host_without_npu_smi():
    from ascend_doctor.host import LiveHost

    facts = probe_npu(LiveHost({"PATH": "/nonexistent"}), OPTS)
    assert facts.available is False or facts.devices  # a dev box has no npu-smi; an NPU host lists devices


# ---------------------------------------------------------------------------
# Driver and firmware version.info (ascend_formats §1.2-1.4); INSTALL_INFO is the fixtures' sample
# ---------------------------------------------------------------------------

# §1.3 MindCluster fixture (driver 23.0.7)
DRIVER_23_0_7 = """Version=23.0.7
ascendhal_version=7.35.19
aicpu_version=1.0
tdt_version=1.0
log_version=1.0
prof_version=2.0
dvppkernels_version=1.1
tsfw_version=1.0
Innerversion=V100R001C15SPC012B220
compatible_version=[V100R001C29],[V100R001C30],[V100R001C13],[V100R001C15]
compatible_version_fw=[7.0.0,7.1.99]
package_version=23.0.7
"""

# §1.3 MindCluster doc: 24.1.rc1 has no package_version line
DRIVER_24_1_RC1 = """Version=24.1.rc1
ascendhal_version=7.35.19
Innerversion=V100R001C15SPC006B220
compatible_version=[V100R001C30],[V100R001C13],[V100R001C15],[V100R001C17]
compatible_version_fw=[7.0.0,7.2.99]
"""

# §1.3 PyPTO FAQ as shown (indented)
DRIVER_25_3_RC1_INDENTED = """    Version=25.3.rc1
    ascendhal_version=7.35.23
    Innerversion=V100R001C23SPC002B212
    compatible_version=[V100R001C19],[V100R001C20],[V100R001C21],[V100R001C22],[V100R001C23]
    compatible_version_fw=[7.0.0,8.9.9]
    package_version=25.3.rc1
"""

# §1.3 very old 20.2.0 format
DRIVER_20_2_0 = "Version=20.2.0\nrequired_firmware_firmware_version=1.0\n"

# §1.4 MindCluster fixture firmware
FIRMWARE_7_1 = """Version=7.1.0.11.220
firmware_version=1.0
package_version=23.0.7
compatible_version_drv=[23.0.rc3,23.0.rc3.],[23.0.0,23.0.0.]
"""

DRV = "/usr/local/Ascend/driver/version.info"
FW = "/usr/local/Ascend/firmware/version.info"


def _driver(make_snapshot, text, install_info=INSTALL_INFO, **kw):
    files = {DRV: text} if text is not None else {}
    if install_info is not None:
        files["/etc/ascend_install.info"] = install_info
    return probe_driver(SnapshotHost(make_snapshot(files=files, **kw)), OPTS)


def test_driver_23_0_7_all_fields(make_snapshot):
    d = _driver(make_snapshot, DRIVER_23_0_7)
    assert d.installed and d.errors == []
    assert (d.version, d.innerversion, d.package_version) == ("23.0.7", "V100R001C15SPC012B220", "23.0.7")
    assert d.compatible_version == ["V100R001C29", "V100R001C30", "V100R001C13", "V100R001C15"]
    assert d.compatible_version_fw == [["7.0.0", "7.1.99"]]
    assert d.install_info["Driver_Install_Path_Param"] == "/usr/local/Ascend"


def test_driver_24_1_rc1_without_package_version(make_snapshot):
    d = _driver(make_snapshot, DRIVER_24_1_RC1)
    assert (d.version, d.package_version, d.compatible_version_fw) == ("24.1.rc1", None, [["7.0.0", "7.2.99"]])


def test_driver_indented_crlf_bom(make_snapshot):
    text = "\ufeff" + DRIVER_25_3_RC1_INDENTED.replace("\n", "\r\n")
    d = _driver(make_snapshot, text)
    assert d.errors == [] and d.version == "25.3.rc1" and d.innerversion == "V100R001C23SPC002B212"
    assert d.compatible_version[-1] == "V100R001C23" and d.compatible_version_fw == [["7.0.0", "8.9.9"]]


def test_driver_20_2_0_old_format(make_snapshot):
    d = _driver(make_snapshot, DRIVER_20_2_0)
    assert d.version == "20.2.0" and d.innerversion is None and d.compatible_version == [] and d.errors == []


def test_driver_path_from_install_info_case_insensitive(make_snapshot):
    info = "driver_install_path_param=/opt/Ascend\n"
    snap = make_snapshot(files={"/etc/ascend_install.info": info, "/opt/Ascend/driver/version.info": DRIVER_23_0_7})
    d = probe_driver(SnapshotHost(snap), OPTS)
    assert d.version_file == "/opt/Ascend/driver/version.info" and d.version == "23.0.7"


def test_driver_missing_everything(make_snapshot):
    d = _driver(make_snapshot, None, install_info=None)
    assert not d.installed and d.version is None and d.install_info_path is None and d.errors == []
    assert d.version_file == DRV  # the default prefix


@pytest.mark.parametrize("text, expect", [
    ("", "empty"),
    ("\x00\x01ELF\x00\x02" * 100, "binary"),
    ("ascendhal_version=7.35.19\n", "no Version= line"),
    ("Version=<html><body>404</body></html>\n", "not a version number"),
])
def test_driver_bad_contents_are_reported(make_snapshot, text, expect):
    d = _driver(make_snapshot, text)
    assert d.installed and d.version is None
    assert any(expect in e and DRV in e for e in d.errors), d.errors


def test_driver_unreadable(make_snapshot):
    d = _driver(make_snapshot, DRIVER_23_0_7, unreadable=[DRV])
    assert d.installed and d.version is None and any("permission denied" in e for e in d.errors)


def test_install_info_unreadable_falls_back_to_default(make_snapshot):
    d = _driver(make_snapshot, DRIVER_23_0_7, unreadable=["/etc/ascend_install.info"])
    assert d.version == "23.0.7" and any("/etc/ascend_install.info" in e for e in d.errors)


def test_firmware_sample(make_snapshot):
    snap = make_snapshot(files={"/etc/ascend_install.info": INSTALL_INFO, FW: FIRMWARE_7_1})
    fw = probe_firmware(SnapshotHost(snap), OPTS)
    assert fw.installed and fw.errors == []
    assert (fw.version, fw.package_version) == ("7.1.0.11.220", "23.0.7")
    assert fw.compatible_version_drv == [["23.0.rc3", "23.0.rc3."], ["23.0.0", "23.0.0."]]


def test_firmware_follows_its_own_install_path(make_snapshot):
    info = "Driver_Install_Path_Param=/usr/local/Ascend\nFirmware_Install_Path_Param=/opt/fw\n"
    snap = make_snapshot(files={"/etc/ascend_install.info": info, "/opt/fw/firmware/version.info": FIRMWARE_7_1})
    assert probe_firmware(SnapshotHost(snap), OPTS).version == "7.1.0.11.220"


def test_firmware_unreadable_and_garbled(make_snapshot):
    snap = make_snapshot(files={FW: FIRMWARE_7_1}, unreadable=[FW])
    fw = probe_firmware(SnapshotHost(snap), OPTS)
    assert fw.installed and fw.version is None and any("permission denied" in e for e in fw.errors)
    snap = make_snapshot(files={FW: "Version=abc\n"})
    fw = probe_firmware(SnapshotHost(snap), OPTS)
    assert fw.version == "abc" and any("five-part" in e for e in fw.errors)


# ---------------------------------------------------------------------------
# version.cfg (ascend_formats §1.6, compat_facts §3.5)
# ---------------------------------------------------------------------------

def test_version_cfg_6_0_1_sample():
    text = ("runtime_running_version=[1.84.15.1.310:6.0.1]\ncompiler_running_version=[1.84.15.1.310:6.0.1]\n"
            "runtime_upgrade_version=[1.84.15.1.310:6.0.1]\n")
    assert parse_version_cfg(text) == {"runtime": {"internal": "1.84.15.1.310", "release": "6.0.1"},
                                       "compiler": {"internal": "1.84.15.1.310", "release": "6.0.1"}}


def test_custom_op_version_info_format():
    # compat_facts §3.6: mindspore/lib/plugin/ascend/custom_ascendc_910b/version.info (MindSpore 2.7.1)
    from ascend_doctor.probes.kv import get_ci, parse_key_values

    values = parse_key_values("custom_opp_compiler_version=8.3.T7.0.B052\n")
    assert get_ci(values, "CUSTOM_OPP_COMPILER_VERSION") == "8.3.T7.0.B052"


def test_version_cfg_header_and_history():
    text = ("# version: 1.0\nopp_kernel_running_version=[7.6.0.1.220:8.0.0]\n"
            "runtime_running_version=[7.0.0.5.242:7.0.RC1][7.3.0.1.231:8.0.RC2]\nbroken_running_version=junk\n")
    cfg = parse_version_cfg(text)
    assert cfg["opp_kernel"]["release"] == "8.0.0" and cfg["runtime"]["release"] == "8.0.RC2"
    assert "broken" not in cfg


# ---------------------------------------------------------------------------
# CANN installs
# ---------------------------------------------------------------------------

TK = "/usr/local/Ascend/ascend-toolkit"
# §1.5 non-default path sample (vllm-project/vllm-ascend#834)
CUSTOM_INFO = """package_name=Ascend-cann-toolkit
version=8.1.RC1.alpha001
innerversion=V100R001C21B071
compatible_version=[V100R001C15],[V100R001C18],[V100R001C19],[V100R001C20],[V100R001C21]
arch=aarch64
os=linux
path=/data/8.1/ascend-toolkit/8.1.RC1.alpha001/aarch64-linux
"""


def _cann(make_snapshot, **kw):
    return probe_cann(SnapshotHost(make_snapshot(**kw)), OPTS)


def test_cann_fixture_a2_healthy():
    facts = probe_cann(SnapshotHost(fixture_path("a2_healthy")), OPTS)
    (inst,) = facts.installs
    assert (inst.root, inst.kind, inst.owner, inst.release) == (f"{TK}/latest", "toolkit", "root", "8.0.RC3")
    assert inst.resolved == f"{TK}/8.0.RC3"  # where latest's links lead
    assert (inst.compiler_version, inst.innerversion, inst.arch) == ("7.5.0.1.129", "V100R001C19SPC001B155", "aarch64")
    assert inst.components["opp_kernel"] == "7.5.0.1.129" and inst.version_cfg["compiler"] == "8.0.RC3"
    assert inst.has_opp and inst.has_opp_kernel and inst.has_te
    assert inst.set_env == f"{TK}/set_env.sh" and inst.active and facts.active_root == inst.root
    assert facts.env_roots["ASCEND_OPP_PATH"] == inst.root and facts.dangling_links == {}


def test_cann_new_layout_is_one_install_under_two_names():
    facts = probe_cann(SnapshotHost(fixture_path("cann_new_layout")), OPTS)
    (inst,) = facts.installs
    assert (inst.root, inst.kind, inst.resolved) == ("/usr/local/Ascend/cann", "cann", "/usr/local/Ascend/cann-8.5.0")
    assert (inst.release, inst.compiler_version, inst.innerversion) == ("8.5.0", "8.5.0.2.220", "V100R001C25SPC001B212")
    assert inst.version_dirs["opp"] == "8.5.0" and inst.active
    assert inst.set_env == "/usr/local/Ascend/cann/set_env.sh"


def test_cann_two_installs_and_env_mix():
    facts = probe_cann(SnapshotHost(fixture_path("two_cann_installs")), OPTS)
    got = {(i.kind, i.release, i.active) for i in facts.installs}
    assert got == {("toolkit", "8.0.0", True), ("nnae", "8.0.RC3", False)}
    nnae = [i for i in facts.installs if i.kind == "nnae"][0]
    assert nnae.innerversion == "V100R001C19SPC001B137" and nnae.set_env == "/usr/local/Ascend/nnae/set_env.sh"
    assert facts.env_roots == {"ASCEND_HOME_PATH": f"{TK}/latest", "ASCEND_TOOLKIT_HOME": f"{TK}/latest",
                               "ASCEND_OPP_PATH": "/usr/local/Ascend/nnae/latest",
                               "ASCEND_AICPU_PATH": f"{TK}/latest"}


def test_cann_home_install_is_user_owned():
    facts = probe_cann(SnapshotHost(fixture_path("nonroot_home_install")), OPTS)
    (inst,) = facts.installs
    assert inst.owner == "user" and inst.root == "/home/alice/Ascend/ascend-toolkit/latest" and not inst.active
    assert inst.set_env == "/home/alice/Ascend/ascend-toolkit/set_env.sh"


def test_cann_custom_root_from_env(make_snapshot):
    root = "/data/8.1/ascend-toolkit/8.1.RC1.alpha001"
    facts = _cann(make_snapshot, files={f"{root}/aarch64-linux/ascend_toolkit_install.info": CUSTOM_INFO,
                                        f"{root}/compiler/version.info": "Version=7.7.T20.0.B210\n"},
                  symlinks={"/data/8.1/ascend-toolkit/latest": "8.1.RC1.alpha001"},
                  env={"ASCEND_HOME_PATH": "/data/8.1/ascend-toolkit/latest"})
    (inst,) = facts.installs
    assert (inst.root, inst.owner, inst.release, inst.resolved) == (
        "/data/8.1/ascend-toolkit/latest", "custom", "8.1.RC1.alpha001", root)
    assert inst.active and inst.compiler_version == "7.7.T20.0.B210"


def test_cann_env_naming_the_versioned_dir_is_the_same_install(make_snapshot):
    # latest/ is a real directory of links (§1.1); ASCEND_HOME_PATH may name the release directory itself.
    facts = _cann(make_snapshot, files={f"{TK}/8.0.0/compiler/version.info": "Version=7.6.0.1.220\n",
                                        f"{TK}/8.0.0/opp/version.info": "Version=7.6.0.1.220\n"},
                  symlinks={f"{TK}/latest/compiler": "../8.0.0/compiler", f"{TK}/latest/opp": "../8.0.0/opp"},
                  env={"ASCEND_HOME_PATH": f"{TK}/8.0.0", "ASCEND_OPP_PATH": f"{TK}/latest/opp"})
    (inst,) = facts.installs
    assert (inst.root, inst.resolved, inst.release, inst.active) == (f"{TK}/8.0.0", f"{TK}/8.0.0", "8.0.0", True)
    assert facts.env_roots == {"ASCEND_HOME_PATH": f"{TK}/8.0.0", "ASCEND_OPP_PATH": f"{TK}/8.0.0"}


def test_cann_install_path_record(make_snapshot):
    facts = _cann(make_snapshot, files={"/etc/Ascend/ascend_cann_install.info": "Install_Path=/opt/Ascend\n",
                                        "/opt/Ascend/nnae/latest/compiler/version.info": "Version=7.6.0.1.220\n",
                                        "/opt/Ascend/nnae/latest/version.cfg": "compiler_running_version=[7.6.0.1.220:8.0.0]\n"})
    (inst,) = facts.installs
    assert (inst.root, inst.kind, inst.release) == ("/opt/Ascend/nnae/latest", "nnae", "8.0.0")


def test_cann_legacy_fwkacllib(make_snapshot):
    facts = _cann(make_snapshot, files={f"{TK}/latest/fwkacllib/version.info": "Version=1.77.22.6.220\n"})
    (inst,) = facts.installs
    assert inst.kind == "legacy" and inst.has_fwkacllib and inst.compiler_version == "1.77.22.6.220"


def test_cann_dangling_latest(make_snapshot):
    facts = _cann(make_snapshot, files={f"{TK}/8.0.0/compiler/version.info": "Version=7.6.0.1.220\n"},
                  symlinks={f"{TK}/latest": "8.0.RC2", f"/usr/local/Ascend/nnae/latest": "8.0.0"})
    assert facts.installs == []
    assert facts.dangling_links == {f"{TK}/latest": f"{TK}/8.0.RC2",
                                    "/usr/local/Ascend/nnae/latest": "/usr/local/Ascend/nnae/8.0.0"}


def test_cann_garbled_files_fixture():
    facts = probe_cann(SnapshotHost(fixture_path("garbled_files")), OPTS)
    (inst,) = facts.installs
    assert inst.release == "8.0.RC3"  # from where latest's links point, the other sources are damaged
    assert inst.compiler_version == "7.5.0.1.129"  # BOM + CRLF + indent still parse
    assert "runtime" not in inst.components and not inst.has_opp_kernel and not inst.has_te
    joined = "\n".join(inst.errors)
    assert "ascend_toolkit_install.info: empty" in joined and "runtime/version.info: empty" in joined
    assert "version.cfg: no <component>_running_version" in joined
    assert facts.dangling_links == {f"{TK}/latest/hccl": f"{TK}/8.0.RC3.bak/hccl"}


def test_cann_nothing_on_a_cpu_machine(make_snapshot):
    facts = _cann(make_snapshot, env={"HOME": "/home/bob", "ASCEND_HOME_PATH": "/does/not/exist"})
    assert facts.installs == [] and facts.active_root is None
    assert facts.env_roots == {"ASCEND_HOME_PATH": None}


def test_cann_te_from_python(make_snapshot):
    facts = _cann(make_snapshot, files={"/venv/site-packages/te/__init__.py": ""},
                  python={"version": "3.9.2", "executable": "/venv/bin/python", "site_packages": ["/venv/site-packages"]})
    assert facts.te_in_python == "/venv/site-packages/te"


def test_every_fixture_probes_without_crash():
    from ascend_doctor.probes import collect_facts

    for name in ("a2_healthy", "a2_env_not_sourced", "nonroot_home_install", "cann_new_layout",
                 "two_cann_installs", "infer_310p", "a3_node", "garbled_files"):
        facts = collect_facts(SnapshotHost(fixture_path(name)))
        assert facts.probe_crashes == {}, (name, facts.probe_crashes)
        manifest = SnapshotHost(fixture_path(name)).manifest
        assert manifest["fixture_source"] and manifest["python"]["site_packages"]
        assert os.path.isdir(os.path.join(fixture_path(name), "root") + manifest["python"]["site_packages"][0])


# ---------------------------------------------------------------------------
# Property: no input makes the parsers raise
# ---------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

ALL_SMI = [SMI_910PROB, SMI_910B4, SMI_A3, SMI_26, SMI_310P, SMI_310, SMI_910PROB + SMI_PROCESSES]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ALL_SMI), st.integers(0, 5000), st.integers(0, 5000), st.text(max_size=40))
def test_mutated_real_tables_never_raise(sample, cut_at, insert_at, junk):
    text = sample[:cut_at % (len(sample) + 1)]
    pos = insert_at % (len(text) + 1)
    devices, banner, layout, procs, idle, errors = parse_npu_smi_info(text[:pos] + junk + text[pos:])
    for d in devices:
        assert d.memory_used_mb is None or d.memory_used_mb >= 0
        assert d.hbm_total_mb is None or d.hbm_total_mb >= 0


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_key_value_readers_never_raise(text):
    from ascend_doctor.probes.kv import looks_binary, parse_bracket_list, parse_key_values

    parse_key_values(text, lower_keys=True)
    parse_version_cfg(text)
    parse_bracket_list(text)
    looks_binary(text)
