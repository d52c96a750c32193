"""devices.* checks: npu-smi, health, node count, memory, banner vs driver version."""

import json

from ascend_doctor.doctor import RunOptions, run_checks
from ascend_doctor.host import SnapshotHost

from tests.helpers import fixture_path, run_json
from tests.helpers.i18n_asserts import assert_msg

DRIVER_FILE = "/usr/local/Ascend/driver/version.info"


def check_dir(path):
    report = run_checks(SnapshotHost(path), RunOptions(only=["devices"]))
    return {f.id: f for f in report.findings}


def a2_stdout():
    with open(fixture_path("a2_healthy") + "/commands.json") as fh:
        return json.load(fh)[0]["stdout"]


def smi(stdout, rc=0, **kw):
    return [dict({"argv": ["npu-smi", "info"], "rc": rc, "stdout": stdout, "stderr": ""}, **kw)]


def nodes(n):
    return {f"/dev/davinci{i}": "" for i in range(n)}


def a2_snapshot(make_snapshot, stdout=None, node_count=8, driver="Version=24.1.rc3\n", **kw):
    files = dict(nodes(node_count))
    if driver is not None:
        files[DRIVER_FILE] = driver
    files.update(kw.pop("files", {}))
    return make_snapshot(files=files, commands=smi(stdout if stdout is not None else a2_stdout()), **kw)


# ---------------------------------------------------------------------------
# Fixtures through the CLI
# ---------------------------------------------------------------------------

def test_a3_node_sixteen_dies_all_pass():
    proc, data = run_json("check", "--bundle", fixture_path("a3_node"), "--only", "devices")
    assert proc.returncode == 0
    got = {f["id"]: f for f in data["findings"]}
    assert {k: f["status"] for k, f in got.items()} == {
        "devices.npu_smi": "pass", "devices.npu_health": "pass", "devices.npu_count": "pass",
        "devices.npu_memory": "pass", "devices.driver_matches_npu_smi": "pass"}
    assert_msg(got["devices.npu_smi"], "{count} device(s) ({names}, SoC family {family})", count=16, names="Ascend910",
               family="910_93")
    npu = data["facts"]["npu"]
    assert npu["layout"] == "B" and [d["device_id"] for d in npu["devices"]] == list(range(16))
    assert npu["processes"][0]["pid"] == 139667


def test_infer_310p_banner_differs_from_version_info():
    proc, data = run_json("check", "--bundle", fixture_path("infer_310p"), "--only", "devices")
    assert proc.returncode == 0  # a warning does not fail the default --fail-on fail
    got = {f["id"]: f for f in data["findings"]}
    f = got["devices.driver_matches_npu_smi"]
    assert f["status"] == "warn"
    assert_msg(f, "The loaded driver reports {loaded} but {path} says {version}: the driver was upgraded or reinstalled "
               "without a reboot, or a container mounts another driver directory than the host runs.", loaded="24.1.rc2",
               path="/usr/local/Ascend/driver/version.info", version="24.1.rc2.2")
    assert got["devices.npu_count"]["status"] == "pass" and data["facts"]["npu"]["soc_family"] == "310P"
    proc, _ = run_json("check", "--bundle", fixture_path("infer_310p"), "--only", "devices", "--fail-on", "warn")
    assert proc.returncode == 1


def test_garbled_fixture_npu_smi_timeout_is_could_not_check():
    proc, data = run_json("check", "--bundle", fixture_path("garbled_files"), "--only", "devices")
    got = {f["id"]: f for f in data["findings"]}
    f = got["devices.npu_smi"]
    assert f["status"] == "error"
    error = assert_msg(f, "Could not read the NPUs: {error}.").params["error"]
    assert_msg(error, "`{command}` did not finish within its timeout", command="npu-smi info")
    assert f["fix"][0].startswith("npu-smi info")
    assert got["devices.npu_count"]["status"] == "skip"
    assert proc.returncode == 0  # could-not-check is not a proven failure at --fail-on fail


# ---------------------------------------------------------------------------
# In-process, on small snapshots
# ---------------------------------------------------------------------------

def test_cpu_machine_skips_devices(make_snapshot):
    got = check_dir(make_snapshot())
    assert {f.status for f in got.values()} == {"skip"}


def test_driver_but_no_npu_smi_warns(make_snapshot):
    snap = make_snapshot(files={DRIVER_FILE: "Version=24.1.rc3\n", "/.dockerenv": ""})
    f = check_dir(snap)["devices.npu_smi"]
    assert f.status == "warn" and any("-v /usr/local/bin/npu-smi:/usr/local/bin/npu-smi:ro" in x for x in f.fix)


def test_npu_smi_lists_nothing_fails(make_snapshot):
    snap = a2_snapshot(make_snapshot, stdout="| npu-smi 24.1.rc3   Version: 24.1.rc3 |\n")
    f = check_dir(snap)["devices.npu_smi"]
    assert f.status == "fail"
    assert_msg(f.summary, "npu-smi ran but listed no NPU: the driver sees no device.")


def test_unhealthy_npu_fails_with_health_query(make_snapshot):
    text = a2_stdout()
    lines = text.splitlines()
    idx = [i for i, l in enumerate(lines) if l.startswith("| 3     910B2C")][0]
    lines[idx] = lines[idx].replace("| OK            |", "| Warning       |")
    f = check_dir(a2_snapshot(make_snapshot, stdout="\n".join(lines)))["devices.npu_health"]
    assert f.status == "fail" and "NPU 3 Warning" in f.summary
    assert f.fix[0].startswith("npu-smi info -t health -i 3")


def test_missing_node_fails(make_snapshot):
    f = check_dir(a2_snapshot(make_snapshot, node_count=7))["devices.npu_count"]
    assert f.status == "fail"
    assert_msg(f.summary, "{nodes} /dev/davinci node(s) but npu-smi lists {count} device(s) (no node for device {missing}).",
               nodes=7, count=8, missing="7")


def test_no_nodes_in_container_says_pass_devices(make_snapshot):
    snap = a2_snapshot(make_snapshot, node_count=0, files={"/.dockerenv": ""})
    f = check_dir(snap)["devices.npu_count"]
    assert f.status == "fail" and any("--device /dev/davinci0" in x for x in f.fix)


def _with_hbm(text, npu, used):
    """Set NPU `npu`'s HBM used value in a layout-A table."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"| {npu:<6}910B2C"):
            chip = lines[i + 1]
            old = chip.split("|")[3].split()[-3]  # "<used> / 65536" -> <used>
            lines[i + 1] = chip.replace(f"{old} / 65536", f"{used} / 65536")
    return "\n".join(lines) + "\n"


def _busy(text, npu, pid, mem):
    lines = [f"| {npu:<8}{0:<18}| {pid:<14}| {'python':<25}| {mem:<24}|"
             if line.startswith(f"| No running processes found in NPU {npu} ") else line
             for line in text.splitlines()]
    return "\n".join(lines) + "\n"


def test_memory_full_without_a_process_warns_d4(make_snapshot):
    text = _with_hbm(a2_stdout(), 5, 63000)
    snap = a2_snapshot(make_snapshot, stdout=text)
    f = check_dir(snap)["devices.npu_memory"]
    assert f.status == "warn" and "no process" in f.summary and "NPU 5 HBM 63000/65536 MB" in f.summary
    assert f.pitfall is None


def test_memory_full_with_a_process_warns_p15(make_snapshot):
    text = _busy(_with_hbm(a2_stdout(), 0, 64000), 0, 139667, 60000)
    f = check_dir(a2_snapshot(make_snapshot, stdout=text))["devices.npu_memory"]
    assert f.status == "warn" and f.pitfall == "P15" and "NPU 0 HBM 64000/65536 MB" in f.summary


def test_driver_version_match_ignores_case(make_snapshot):
    f = check_dir(a2_snapshot(make_snapshot, driver="Version=24.1.RC3\n"))["devices.driver_matches_npu_smi"]
    assert f.status == "pass"


def test_driver_version_mismatch_warns(make_snapshot):
    f = check_dir(a2_snapshot(make_snapshot, driver="Version=25.0.rc1.1\n"))["devices.driver_matches_npu_smi"]
    assert f.status == "warn" and f.evidence["npu-smi banner Version"] == "24.1.rc3"
