"""Launch environment: modes told apart, completeness, agreement, visible devices (rules L1-L7)."""

import pytest

from ascend_doctor.probes.environment import env_facts
from ascend_doctor.checks import CheckContext
from ascend_doctor.checks.launch_env import (check_dynamic_cluster, check_launch_mode, check_rank_table_env,
                                             check_visible_devices, detect_launch_modes, parse_visible_devices)
from tests.helpers.i18n_asserts import assert_msg, deferring

# run as doctor.evaluate runs them (words deferred): the asserts read message ids and parameters, not sentences
check_dynamic_cluster, check_launch_mode, check_rank_table_env, check_visible_devices, parse_visible_devices = map(
    deferring, (check_dynamic_cluster, check_launch_mode, check_rank_table_env, check_visible_devices,
                parse_visible_devices))
from ascend_doctor.facts import Facts, NpuDevice, RankTableFacts


def ctx(env, devices=None, rank_table=None):
    facts = Facts()
    for i in devices or []:
        facts.npu.devices.append(NpuDevice(npu_id=i, device_id=i))
    if rank_table:
        facts.rank_table = rank_table
    facts.env = env_facts(env)
    return CheckContext(facts=facts)


def table(ranks=8):
    return RankTableFacts(env_var="RANK_TABLE_FILE", path="/job/hccl.json", format="1.0", rank_count=ranks, server_count=1)


# -- env.launch_mode ---------------------------------------------------------------------------

def test_modes_are_told_apart():
    assert detect_launch_modes({"RANK_TABLE_FILE": "/x"}) == ["rank table"]
    assert detect_launch_modes({"MS_ROLE": "MS_WORKER"}) == ["dynamic cluster (msrun)"]
    assert detect_launch_modes({"OMPI_COMM_WORLD_RANK": "0"}) == ["OpenMPI"]
    assert detect_launch_modes({"SLURM_PROCID": "0"}) == ["Slurm"]
    assert detect_launch_modes({"WORLD_SIZE": "8", "RANK": "0"}) == ["torchrun"]
    assert detect_launch_modes({"CM_CHIEF_IP": "192.0.2.1"}) == ["HCCL env-var cluster (CM_*)"]
    assert check_launch_mode(ctx({})).status == "skip"


def test_cm_variables_with_rank_table_fail():
    f = check_launch_mode(ctx({"CM_CHIEF_IP": "192.0.2.1", "CM_WORKER_SIZE": "8", "RANK_TABLE_FILE": "/x", "RANK_ID": "0"}))
    assert f.status == "fail" and any("unset RANK_TABLE_FILE RANK_ID" in x for x in f.fix)
    assert_msg(f.summary, "CM_* cluster variables are set together with {variables}; HCCL's env-var cluster configuration "
               "requires those to be absent (the two methods cannot be mixed)", variables="RANK_TABLE_FILE, RANK_ID")
    assert check_launch_mode(ctx({"CM_CHIEF_IP": "192.0.2.1", "CM_WORKER_SIZE": "8"})).status == "pass"


def test_ms_role_with_openmpi_warns():
    f = check_launch_mode(ctx({"MS_ROLE": "MS_WORKER", "OMPI_COMM_WORLD_RANK": "0", "OMPI_COMM_WORLD_SIZE": "8",
                               "MS_WORKER_NUM": "8"}))
    assert f.status == "warn" and "prioritize" not in f.summary and "dynamic cluster" in f.summary


def test_launchers_disagreeing_on_size_or_rank_warn():
    f = check_launch_mode(ctx({"RANK_TABLE_FILE": "/x", "RANK_ID": "3", "RANK_SIZE": "8",
                               "OMPI_COMM_WORLD_RANK": "2", "OMPI_COMM_WORLD_SIZE": "8"}))
    assert f.status == "warn" and "rank" in f.summary
    f = check_launch_mode(ctx({"RANK_TABLE_FILE": "/x", "RANK_ID": "3", "RANK_SIZE": "8", "WORLD_SIZE": "16", "RANK": "3"}))
    assert f.status == "warn" and "world size" in f.summary
    f = check_launch_mode(ctx({"RANK_TABLE_FILE": "/x", "RANK_ID": "3", "RANK_SIZE": "8", "WORLD_SIZE": "8", "RANK": "3"}))
    assert f.status == "pass"


def test_rank_not_below_size_or_not_a_number_fails():
    assert check_launch_mode(ctx({"WORLD_SIZE": "4", "RANK": "4"})).status == "fail"
    assert check_launch_mode(ctx({"SLURM_PROCID": "x", "SLURM_NTASKS": "2"})).status == "fail"


# -- env.rank_table_env ---------------------------------------------------------------------------

def test_rank_table_env_skip_without_rank_table():
    assert check_rank_table_env(ctx({"RANK_ID": "0"})).status == "skip"


def test_rank_table_env_complete_passes():
    f = check_rank_table_env(ctx({"RANK_TABLE_FILE": "/job/hccl.json", "RANK_ID": "3", "RANK_SIZE": "8", "DEVICE_ID": "3"},
                                 rank_table=table()))
    assert f.status == "pass"
    assert_msg(f.summary, "rank {rank} of {size}", rank="3", size="8")


@pytest.mark.parametrize("env, words", [
    ({"RANK_SIZE": "8", "DEVICE_ID": "0"}, "RANK_ID is not set"),
    ({"RANK_ID": "one", "RANK_SIZE": "8", "DEVICE_ID": "0"}, "not a whole number"),
    ({"RANK_ID": "0", "RANK_SIZE": "16", "DEVICE_ID": "0"}, "describes 8 ranks"),
    ({"RANK_ID": "8", "RANK_SIZE": "8", "DEVICE_ID": "0"}, "ranks run 0..7"),
])
def test_rank_table_env_failures(env, words):
    env = dict(env, RANK_TABLE_FILE="/job/hccl.json")
    f = check_rank_table_env(ctx(env, rank_table=table()))
    assert f.status == "fail" and words in f.summary and f.fix


def test_rank_table_env_unreadable_file_and_missing_device_id():
    rt = RankTableFacts(env_var="RANK_TABLE_FILE", path="/job/nope.json", read_error="/job/nope.json: no such file")
    f = check_rank_table_env(ctx({"RANK_TABLE_FILE": "/job/nope.json", "RANK_ID": "0", "DEVICE_ID": "0"}, rank_table=rt))
    assert f.status == "fail" and f.pitfall == "P14"
    assert_msg(f.summary, "{variable} names a file that cannot be read: {error}", variable="RANK_TABLE_FILE",
               error=rt.read_error)
    f = check_rank_table_env(ctx({"RANK_TABLE_FILE": "/job/hccl.json", "RANK_ID": "0", "RANK_SIZE": "8"}, rank_table=table()))
    assert f.status == "warn" and "DEVICE_ID" in f.summary


# -- env.dynamic_cluster -------------------------------------------------------------------------

GOOD_MS = {"MS_ROLE": "MS_WORKER", "MS_SCHED_HOST": "192.0.2.1", "MS_SCHED_PORT": "8118", "MS_WORKER_NUM": "16",
           "MS_LOCAL_WORKER": "8", "MS_NODE_ID": "9"}


def test_dynamic_cluster_pass_and_skip():
    assert check_dynamic_cluster(ctx(GOOD_MS)).status == "pass"
    assert check_dynamic_cluster(ctx({})).status == "skip"


@pytest.mark.parametrize("change, words", [
    ({"MS_SCHED_PORT": None}, "MS_SCHED_PORT not set"),
    ({"MS_ROLE": "MS_MASTER"}, "is not one of"),
    ({"MS_SCHED_HOST": "scheduler-0"}, "not an IPv4/IPv6"),
    ({"MS_SCHED_PORT": "80"}, "1024-65535"),
    ({"MS_WORKER_NUM": "0"}, "> 0"),
    ({"MS_LOCAL_WORKER": "32"}, "more than MS_WORKER_NUM"),
    ({"MS_SCHED_HOST": "127.0.0.1"}, "loopback"),
])
def test_dynamic_cluster_failures(change, words):
    env = dict(GOOD_MS)
    for k, v in change.items():
        if v is None:
            env.pop(k)
        else:
            env[k] = v
    f = check_dynamic_cluster(ctx(env))
    assert f.status == "fail" and words in f.summary and f.fix


def test_dynamic_cluster_rank_size_mismatch_warns():
    f = check_dynamic_cluster(ctx(dict(GOOD_MS, RANK_SIZE="8")))
    assert f.status == "warn" and "MS_WORKER_NUM=16" in f.summary


# -- env.visible_devices ------------------------------------------------------------------------

def test_parse_visible_devices_like_cann():
    assert parse_visible_devices("0,1,3") == ([0, 1, 3], None)
    assert parse_visible_devices("0,x,3")[0] == [0]
    ids, why = parse_visible_devices("a,1")
    assert ids == []
    assert_msg(why, "entry {entry} is not a device id: CANN stops reading at the first bad entry, so no device is visible",
               entry="'a'")
    assert parse_visible_devices("2,1")[1] and parse_visible_devices("0, 1")[1]


def test_visible_devices_against_devices_present():
    assert check_visible_devices(ctx({"ASCEND_RT_VISIBLE_DEVICES": "0,1,3"}, devices=range(8))).status == "pass"
    f = check_visible_devices(ctx({"ASCEND_RT_VISIBLE_DEVICES": "4,9"}, devices=range(8)))
    assert f.status == "fail" and "[9]" in f.summary
    f = check_visible_devices(ctx({"ASCEND_RT_VISIBLE_DEVICES": "0,1", "ASCEND_DEVICE_ID": "2"}, devices=range(8)))
    assert f.status == "fail" and "only 2 device(s)" in f.summary
    f = check_visible_devices(ctx({"ASCEND_DEVICE_ID": "8"}, devices=range(8)))
    assert f.status == "fail"
    assert check_visible_devices(ctx({"ASCEND_DEVICE_ID": "7"}, devices=range(8))).status == "pass"
    assert check_visible_devices(ctx({})).status == "skip"


def test_visible_devices_unknown_device_count_is_could_not_check():
    f = check_visible_devices(ctx({"ASCEND_RT_VISIBLE_DEVICES": "0,1"}))
    assert f.status == "error" and "unknown" in f.summary
    f = check_visible_devices(ctx({"ASCEND_RT_VISIBLE_DEVICES": "1,0"}))  # syntax is checkable without devices
    assert f.status == "fail"


def test_visible_devices_from_dev_nodes_when_npu_smi_has_none():
    c = ctx({"ASCEND_RT_VISIBLE_DEVICES": "0,1"})
    c.facts.npu.dev_nodes = ["/dev/davinci0", "/dev/davinci1"]
    assert check_visible_devices(c).status == "pass"
