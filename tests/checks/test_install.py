"""install.* checks: on the Ascend fixtures through the CLI, and on small snapshots in-process."""

import pytest

from ascend_doctor.doctor import RunOptions, run_checks
from ascend_doctor.host import SnapshotHost

from tests.helpers import fixture_path, run_json
from tests.helpers.i18n_asserts import assert_msg, msg_ids

TK = "/usr/local/Ascend/ascend-toolkit"


def findings(report_json):
    return {f["id"]: f for f in report_json["findings"]}


def check_dir(path, only=("install",)):
    report = run_checks(SnapshotHost(path), RunOptions(only=list(only)))
    return {f.id: f for f in report.findings}


# ---------------------------------------------------------------------------
# Fixture level, through the CLI
# ---------------------------------------------------------------------------

def test_a2_env_not_sourced_fails_with_the_source_line():
    proc, data = run_json("check", "--bundle", fixture_path("a2_env_not_sourced"))
    assert proc.returncode == 1, proc.stderr
    f = findings(data)["install.cann_env_sourced"]
    assert f["status"] == "fail" and f["pitfall"] == "P08"
    assert f["fix"][0] == f"source {TK}/set_env.sh"
    assert f["fix"][1].startswith(f"echo 'source {TK}/set_env.sh' >> ~/.bashrc")
    assert "not sourced" in f["summary"] and f["evidence"]["ASCEND_HOME_PATH"] == "(not set)"


def test_example_copy_behaves_like_the_fixture():
    import os

    from tests.helpers import REPO

    proc, data = run_json("check", "--bundle", os.path.join(REPO, "examples", "a2_env_not_sourced"),
                          "--only", "install")
    assert proc.returncode == 1
    assert findings(data)["install.cann_env_sourced"]["status"] == "fail"


def test_a2_healthy_install_area_all_pass():
    proc, data = run_json("check", "--bundle", fixture_path("a2_healthy"), "--only", "install")
    assert proc.returncode == 0, data["findings"]
    statuses = {f["id"]: f["status"] for f in data["findings"]}
    assert statuses == {
        "install.driver_present": "pass", "install.firmware_present": "pass", "install.cann_present": "pass",
        "install.cann_env_sourced": "pass", "install.cann_multiple": "pass", "install.cann_pieces": "pass",
        "install.latest_links": "pass", "install.legacy_layout": "pass"}
    assert "24.1.rc3" in findings(data)["install.driver_present"]["summary"]


def test_nonroot_home_install_points_at_the_users_set_env():
    proc, data = run_json("check", "--bundle", fixture_path("nonroot_home_install"), "--only", "install")
    assert proc.returncode == 1
    f = findings(data)["install.cann_env_sourced"]
    assert f["status"] == "fail"
    assert f["fix"][0] == "source /home/alice/Ascend/ascend-toolkit/set_env.sh"


def test_two_cann_installs_warns_about_the_mix_and_the_opp_path():
    proc, data = run_json("check", "--bundle", fixture_path("two_cann_installs"), "--only", "install")
    assert proc.returncode == 1
    got = findings(data)
    multi = got["install.cann_multiple"]
    assert multi["status"] == "warn"
    mix = assert_msg(multi, "The environment mixes CANN installs: it points at {install}, but {stray}.")
    assert "toolkit 8.0.0" in mix.params["install"] and "nnae 8.0.RC3" in mix.params["stray"]
    assert "ASCEND_OPP_PATH" in multi["summary"]
    assert any(f"keep only: source {TK}/set_env.sh" in x and "/usr/local/Ascend/nnae/set_env.sh" in x
               for x in multi["fix"])
    env = got["install.cann_env_sourced"]
    assert env["status"] == "fail" and "ASCEND_OPP_PATH=/usr/local/Ascend/nnae/latest/opp" in env["summary"]


def test_cann_new_layout_passes_and_names_cann_set_env():
    proc, data = run_json("check", "--bundle", fixture_path("cann_new_layout"), "--only", "install")
    assert proc.returncode == 0, [f for f in data["findings"] if f["status"] != "pass"]
    cann = data["facts"]["cann"]
    assert [(i["root"], i["release"], i["active"]) for i in cann["installs"]] == [
        ("/usr/local/Ascend/cann", "8.5.0", True)]


def test_garbled_files_reports_could_not_check_and_broken_pieces():
    proc, data = run_json("check", "--bundle", fixture_path("garbled_files"), "--only", "install")
    assert proc.returncode == 1
    got = findings(data)
    assert got["install.driver_present"]["status"] == "error"
    assert_msg(got["install.driver_present"], "{path}: binary or garbled content, expected {expected}")
    assert got["install.firmware_present"]["status"] == "error"
    assert got["install.cann_present"]["status"] == "warn"
    assert "./Ascend-cann-toolkit_8.0.RC3_linux-aarch64.run --install" in got["install.cann_present"]["fix"][-1]
    pieces = got["install.cann_pieces"]
    assert pieces["status"] == "fail" and pieces["pitfall"] == "P23"
    assert any(x.startswith("./Ascend-cann-kernels-") and "_8.0.RC3_linux-aarch64.run --install" in x for x in pieces["fix"])
    links = got["install.latest_links"]
    assert links["status"] == "fail" and f"{TK}/latest/hccl" in links["evidence"]


# ---------------------------------------------------------------------------
# Small snapshots, in-process
# ---------------------------------------------------------------------------

DRIVER = "Version=24.1.rc3\nInnerversion=V100R001C19SPC001B124\n"


def test_plain_cpu_machine_skips_every_install_check(make_snapshot):
    got = check_dir(make_snapshot(env={"HOME": "/home/dev", "PATH": "/usr/bin"}))
    assert {f.status for f in got.values()} == {"skip"}, {k: f.status for k, f in got.items()}


def test_devices_without_driver_fail_with_install_steps(make_snapshot):
    snap = make_snapshot(files={"/dev/davinci0": "", "/dev/davinci1": ""})
    f = check_dir(snap)["install.driver_present"]
    assert f.status == "fail" and "2 /dev/davinci device node(s)" in f.summary
    assert any("npu-driver" in x and "--full --install-for-all" in x for x in f.fix)


def test_install_record_left_behind_without_driver_fails(make_snapshot):
    snap = make_snapshot(files={"/etc/ascend_install.info": "Driver_Install_Path_Param=/usr/local/Ascend\n"})
    got = check_dir(snap)
    assert got["install.driver_present"].status == "fail"
    assert "/etc/ascend_install.info exists" in got["install.driver_present"].summary


def test_container_without_driver_mount_says_how_to_mount(make_snapshot):
    snap = make_snapshot(files={"/dev/davinci0": "", "/.dockerenv": ""})
    f = check_dir(snap)["install.driver_present"]
    assert any("-v /usr/local/Ascend/driver:/usr/local/Ascend/driver:ro" in x for x in f.fix)


def test_driver_without_firmware_warns(make_snapshot):
    snap = make_snapshot(files={"/usr/local/Ascend/driver/version.info": DRIVER})
    got = check_dir(snap)
    assert got["install.driver_present"].status == "pass"
    assert got["install.firmware_present"].status == "warn" and got["install.firmware_present"].pitfall == "P24"


def test_driver_without_cann_warns_or_fails_when_mindspore_needs_it(make_snapshot):
    snap = make_snapshot(files={"/usr/local/Ascend/driver/version.info": DRIVER})
    f = check_dir(snap)["install.cann_present"]
    assert f.status == "warn" and any("Ascend-cann-toolkit_" in x for x in f.fix)


def _toolkit(files, root=f"{TK}/8.0.0", kernels=True, te=True):
    files[f"{root}/compiler/version.info"] = "Version=7.6.0.1.220\n"
    files[f"{root}/opp/version.info"] = "Version=7.6.0.1.220\n"
    files[f"{root}/version.cfg"] = "compiler_running_version=[7.6.0.1.220:8.0.0]\n"
    if kernels:
        files[f"{root}/opp_kernel/version.info"] = "Version=7.6.0.1.220\n"
    if te:
        files[f"{root}/python/site-packages/te/__init__.py"] = ""
    files[f"{TK}/set_env.sh"] = "# set_env\n"
    return files


def _env(root=f"{TK}/latest"):
    return {"ASCEND_HOME_PATH": root, "ASCEND_TOOLKIT_HOME": root, "ASCEND_OPP_PATH": f"{root}/opp",
            "ASCEND_AICPU_PATH": root, "LD_LIBRARY_PATH": f"{root}/lib64:/usr/local/Ascend/driver/lib64",
            "PYTHONPATH": f"{root}/python/site-packages:{root}/opp/built-in/op_impl/ai_core/tbe",
            "PATH": f"{root}/bin:/usr/bin"}


def test_partial_environment_warns_and_names_what_is_missing(make_snapshot):
    env = _env()
    del env["ASCEND_AICPU_PATH"]
    snap = make_snapshot(files=_toolkit({}), symlinks={f"{TK}/latest": "8.0.0"}, env=env)
    f = check_dir(snap)["install.cann_env_sourced"]
    assert f.status == "warn"
    assert_msg(f.summary, "{var} is not set", var="ASCEND_AICPU_PATH")
    assert f.fix[0] == f"source {TK}/set_env.sh"


def test_env_mixing_latest_and_release_names_is_one_install(make_snapshot):
    env = _env()
    env["ASCEND_HOME_PATH"] = env["ASCEND_TOOLKIT_HOME"] = f"{TK}/8.0.0"
    snap = make_snapshot(files=_toolkit({}), env=env,
                         symlinks={f"{TK}/latest/{c}": f"../8.0.0/{c}" for c in ("compiler", "opp", "opp_kernel")})
    got = check_dir(snap)
    assert got["install.cann_env_sourced"].status == "pass", got["install.cann_env_sourced"].summary
    assert got["install.cann_multiple"].status == "pass"


def test_stale_home_path_fails(make_snapshot):
    env = _env()
    env["ASCEND_HOME_PATH"] = "/usr/local/Ascend/ascend-toolkit/7.0.RC1"
    snap = make_snapshot(files=_toolkit({}), symlinks={f"{TK}/latest": "8.0.0"}, env=env)
    f = check_dir(snap)["install.cann_env_sourced"]
    assert f.status == "fail"
    assert_msg(f.summary, "{var}={value} is not an installed CANN directory", var="ASCEND_HOME_PATH",
               value="/usr/local/Ascend/ascend-toolkit/7.0.RC1")


def test_missing_kernels_and_te_fail_with_kernel_package_for_the_chip(make_snapshot):
    smi = open(fixture_path("a2_healthy") + "/commands.json").read()
    import json

    snap = make_snapshot(files=_toolkit({}, kernels=False, te=False), symlinks={f"{TK}/latest": "8.0.0"},
                         env=_env(), commands=json.loads(smi))
    f = check_dir(snap)["install.cann_pieces"]
    assert f.status == "fail" and "opp_kernel" in f.summary
    assert_msg(f.summary, "the te package is missing ({root}/python/site-packages/te); MindSpore stops with "
               "'MindSpore relies on whl package \"te\"'")
    # from CANN 8.0.RC3 the kernels package's file name carries the architecture (audit I #1)
    assert_msg(f.fix, "./Ascend-cann-kernels-{soc}_{release}_linux-{arch}.run --install   # same release as the "
               "toolkit", soc="910b", release="8.0.0")


@pytest.mark.parametrize("release, name", [
    ("8.0.RC2", "Ascend-cann-kernels-910b_8.0.RC2_linux.run"),
    ("8.0.RC3", "Ascend-cann-kernels-910b_8.0.RC3_linux-aarch64.run"),
    ("8.0.0", "Ascend-cann-kernels-910b_8.0.0_linux-aarch64.run"),
    ("7.0.0", "Ascend-cann-kernels-910b_7.0.0_linux.run"),
])
def test_the_kernels_file_name_is_the_one_its_release_publishes(release, name):
    from ascend_doctor.checks.install import kernels_step
    from ascend_doctor.facts import CannInstall

    inst = CannInstall(root="/usr/local/Ascend/ascend-toolkit/latest", kind="toolkit", release=release)
    assert str(kernels_step(inst, "910b", release, "aarch64")).startswith("./" + name + " --install")


def test_te_installed_with_pip_counts(make_snapshot):
    files = _toolkit({"/venv/lib/site-packages/te/__init__.py": ""}, te=False)
    snap = make_snapshot(files=files, symlinks={f"{TK}/latest": "8.0.0"}, env=_env(),
                         python={"version": "3.9.2", "executable": "/venv/bin/python",
                                 "site_packages": ["/venv/lib/site-packages"]})
    assert check_dir(snap)["install.cann_pieces"].status == "pass"


def test_two_installs_same_release_pass(make_snapshot):
    files = _toolkit({})
    files["/usr/local/Ascend/nnae/8.0.0/compiler/version.info"] = "Version=7.6.0.1.220\n"
    files["/usr/local/Ascend/nnae/8.0.0/version.cfg"] = "compiler_running_version=[7.6.0.1.220:8.0.0]\n"
    snap = make_snapshot(files=files, env=_env(),
                         symlinks={f"{TK}/latest": "8.0.0", "/usr/local/Ascend/nnae/latest": "8.0.0"})
    f = check_dir(snap)["install.cann_multiple"]
    assert f.status == "pass"
    assert_msg(f.summary, "{count} installs of the same release {release}.", count=2, release="8.0.0")


def test_two_installs_different_release_not_sourced_warns(make_snapshot):
    files = _toolkit({})
    files["/usr/local/Ascend/nnae/8.0.RC3/compiler/version.info"] = "Version=7.5.0.1.129\n"
    files["/usr/local/Ascend/nnae/8.0.RC3/version.cfg"] = "compiler_running_version=[7.5.0.1.129:8.0.RC3]\n"
    snap = make_snapshot(files=files, env={},
                         symlinks={f"{TK}/latest": "8.0.0", "/usr/local/Ascend/nnae/latest": "8.0.RC3"})
    f = check_dir(snap)["install.cann_multiple"]
    assert f.status == "warn" and "8.0.0, 8.0.RC3" in f.summary and "not sourced" in f.summary
    assert any("Ascend-cann-nnae_8.0.RC3_linux-<arch>.run --uninstall" in x for x in f.fix)


def test_dangling_latest_root_fails(make_snapshot):
    snap = make_snapshot(symlinks={f"{TK}/latest": "8.0.RC2"}, files={"/dev/davinci0": ""})
    f = check_dir(snap)["install.latest_links"]
    assert f.status == "fail" and f.evidence == {f"{TK}/latest": f"-> {TK}/8.0.RC2 (missing)"}


def test_legacy_fwkacllib_layout_warns(make_snapshot):
    snap = make_snapshot(files={f"{TK}/latest/fwkacllib/version.info": "Version=1.77.22.6.220\n"})
    f = check_dir(snap)["install.legacy_layout"]
    assert f.status == "warn" and "fwkacllib" in f.summary
    assert f.evidence[f"{TK}/latest"]["fwkacllib version"] == "1.77.22.6.220"


@pytest.mark.parametrize("name", ["a2_healthy", "cann_new_layout", "a3_node", "infer_310p"])
def test_healthy_fixtures_have_no_install_problem(name):
    got = check_dir(fixture_path(name))
    assert {k: f.status for k, f in got.items() if f.status != "pass"} == {}


# ---------------------------------------------------------------------------
# The driver is decided from all the evidence, once (issue 17)
# ---------------------------------------------------------------------------

def _a2_without_version_info(tmp_path, container=True):
    """a2_healthy as a container sees it when the driver's version.info is not mounted: npu-smi, /dev/davinci*
    and the driver libraries work, driver/version.info is not there."""
    import shutil

    snap = tmp_path / "a2_container"
    shutil.copytree(fixture_path("a2_healthy"), snap)
    (snap / "root/usr/local/Ascend/driver/version.info").unlink()
    if container:
        (snap / "root/.dockerenv").write_text("")
    return str(snap)


def test_answering_driver_without_version_info_is_not_no_driver(tmp_path):
    got = check_dir(_a2_without_version_info(tmp_path), only=("install", "compat"))
    f = got["install.driver_present"]
    assert f.status == "warn", f.summary
    assert "npu-smi lists 8 NPU(s)" in f.summary and not msg_ids(f.summary) & NO_DRIVER
    assert any(step.startswith("docker run -v /usr/local/Ascend/driver/version.info:/usr/local/Ascend/driver/"
                               "version.info:ro") for step in f.fix), f.fix
    assert not any("reboot" in step for step in f.fix)  # nothing to install: the driver runs
    # judged with what can be read: npu-smi's driver version pairs CANN with the driver
    cd = got["compat.cann_driver"]
    assert cd.status != "skip" and "npu-smi" in cd.evidence["driver"]


# the words of the two findings about the driver (the ids of their messages)
DRIVER_HERE = ("The NPU driver is here ({seen}) but no CANN toolkit/nnae was found; MindSpore on Ascend needs CANN to "
               "compile and run anything on the NPU.")
NO_DRIVER = {"This machine has Ascend parts ({signs}) but no working NPU driver: {path} does not exist and neither "
             "npu-smi nor hccn_tool answers.", "npu-smi is not installed and no NPU driver was found."}


def test_two_findings_never_disagree_about_the_driver(tmp_path, make_snapshot):
    # Ascend parts with no working driver (device nodes only): cann_present must not say "the driver is here".
    got = check_dir(make_snapshot(files={"/dev/davinci0": ""}))
    assert got["install.driver_present"].status == "fail"
    assert DRIVER_HERE not in msg_ids(got["install.cann_present"].summary)
    # A working driver without version.info: neither finding says "no driver".
    snap = _a2_without_version_info(tmp_path)
    import shutil

    shutil.rmtree(f"{snap}/root/usr/local/Ascend/ascend-toolkit")
    got = check_dir(snap)
    assert got["install.driver_present"].status == "warn"
    assert_msg(got["install.cann_present"].summary, DRIVER_HERE)
    assert not any(msg_ids(f.summary) & NO_DRIVER for f in got.values())


# -- nnae at the default path wins for MindSpore releases that read fixed paths (issue 17) ----------------

def _two_installs_ctx(ms_version):
    from ascend_doctor.checks import CheckContext
    from ascend_doctor.facts import CannInstall, Facts, MindSporeFacts
    from ascend_doctor.matrix import load_bundled

    facts = Facts()
    toolkit = CannInstall(root=f"{TK}/latest", kind="toolkit", release="8.0.RC2", compiler_version="7.3.0.1.231",
                          active=True)
    nnae = CannInstall(root="/usr/local/Ascend/nnae/latest", kind="nnae", release="7.0.0", compiler_version="7.1.0.5.242")
    facts.cann.installs = [toolkit, nnae]
    facts.cann.active_root = toolkit.root
    facts.mindspore = MindSporeFacts(installed=True, dist_name="mindspore", version=ms_version, flavour="ascend")
    return CheckContext(facts=facts, _matrix=load_bundled())


@pytest.mark.parametrize("ms_version,nnae_first", [("2.3.1", True), ("2.2.14", True), ("2.4.1", False)])
def test_default_nnae_wins_for_fixed_path_mindspore_and_the_fix_says_so(ms_version, nnae_first):
    from ascend_doctor.checks.compat import check_mindspore_cann
    from ascend_doctor.checks.install import check_cann_multiple

    ctx = _two_installs_ctx(ms_version)
    multi = check_cann_multiple(ctx)
    said = [step for step in multi.fix if "whatever set_env.sh or LD_LIBRARY_PATH say" in step]
    assert bool(said) == nnae_first, multi.fix
    if nnae_first:
        assert "MindSpore 2.4.0+" in said[0] and "Ascend-cann-nnae_7.0.0" in said[0]
    judged = check_mindspore_cann(ctx).evidence["cann_judged"]
    assert judged.startswith("/usr/local/Ascend/nnae/latest" if nnae_first else f"{TK}/latest"), judged


def test_none_sourced_every_check_judges_the_same_install():
    """Two installs, neither pointed at: install.* (what to source) and compat.* (what is judged) name the same one,
    the first in the default order (facts.cann.judged), not nnae because MindSpore <= 2.3 would read it first."""
    from ascend_doctor.checks.compat import check_mindspore_cann
    from ascend_doctor.checks.install import check_cann_env_sourced

    ctx = _two_installs_ctx("2.4.1")  # a MindSpore that reads ASCEND_HOME_PATH, not fixed paths
    for inst in ctx.facts.cann.installs:
        inst.active = False
    ctx.facts.cann.active_root = None
    judged = check_mindspore_cann(ctx).evidence
    assert judged["cann_judged"].startswith(f"{TK}/latest") and "default order" in judged["why_this_cann"]
    assert check_cann_env_sourced(ctx).evidence["install"].startswith(f"toolkit 8.0.RC2 at {TK}/latest")


def test_an_environment_set_in_part_is_not_titled_not_set(make_snapshot):
    """ASCEND_HOME_PATH is set, the tbe path is missing: a failure whose line says 'set only in part', as its
    summary does ('incomplete'), never 'not set'."""
    env = _env()
    env["PYTHONPATH"] = f"{TK}/latest/python/site-packages"
    snap = make_snapshot(files=_toolkit({}), symlinks={f"{TK}/latest": "8.0.0"}, env=env)
    f = check_dir(snap)["install.cann_env_sourced"]
    assert f.status == "fail" and "incomplete" in f.summary
    assert f.title.startswith("CANN environment (set_env.sh) set only in part") and "not set" not in f.title
