"""probes/launch.py: who this process is under msrun, Slurm, Open MPI, Kubernetes; the node's addresses."""

import json
import os
from ascend_doctor.probes.launch import parse_local_addresses
from ascend_doctor.rank_table import summarise_rank_table
from tests.commands.test_preflight import CLUSTER, launch_of  # noqa: F401


def test_msrun_worker_identity_and_filtered_variables(tmp_path):
    env = {"MS_ROLE": "MS_WORKER", "MS_WORKER_NUM": "8", "MS_NODE_ID": "3", "RANK_ID": "3", "RANK_SIZE": "8",
           "MS_SCHED_HOST": "10.0.0.1", "HCCL_CONNECT_TIMEOUT": "1200", "HCCL_AUTH_TOKEN": "s3cret",
           "MS_SERVER_PASSWORD": "hunter2", "AWS_SECRET_ACCESS_KEY": "x", "DEVICE_ID": "3"}
    launch = launch_of(tmp_path, env, name="npu-host-a")
    assert launch["launchers"] == ["msrun"]
    assert (launch["rank"], launch["world_size"], launch["name"]) == (3, 8, "npu-host-a-rank3")
    assert launch["identity_source"]["rank"] == "RANK_ID"
    assert launch["variables"]["HCCL_CONNECT_TIMEOUT"] == "1200"
    assert "HCCL_AUTH_TOKEN" not in launch["variables"] and "MS_SERVER_PASSWORD" not in launch["variables"]
    assert "s3cret" not in json.dumps(launch) and "hunter2" not in json.dumps(launch)


def test_slurm_openmpi_and_kubernetes_identity(tmp_path):
    slurm = launch_of(tmp_path, {"SLURM_JOB_ID": "77", "SLURM_PROCID": "16", "SLURM_NTASKS": "32",
                                 "SLURMD_NODENAME": "node-17", "SLURM_LOCALID": "0"}, name="ignored")
    assert (slurm["host"], slurm["rank"], slurm["world_size"], slurm["job_id"]) == ("node-17", 16, 32, "77")
    assert slurm["launchers"] == ["slurm"] and slurm["name"] == "node-17-rank16"
    mpi = launch_of(tmp_path, {"OMPI_COMM_WORLD_RANK": "5", "OMPI_COMM_WORLD_SIZE": "6",
                               "OMPI_COMM_WORLD_LOCAL_RANK": "1"}, name="mpi-host")
    assert (mpi["rank"], mpi["world_size"], mpi["local_rank"], mpi["launchers"]) == (5, 6, 1, ["openmpi"])
    k8s = launch_of(tmp_path, {"KUBERNETES_SERVICE_HOST": "10.96.0.1", "POD_NAME": "pre-2-xyz",
                               "NODE_NAME": "worker-9", "JOB_COMPLETION_INDEX": "2", "POD_IP": "10.244.1.7"},
                    name="pod")
    assert (k8s["host"], k8s["rank"], k8s["name"], k8s["launchers"]) == ("worker-9", 2, "worker-9-rank2", ["kubernetes"])
    assert "10.244.1.7" in k8s["addresses"]
    plain = launch_of(tmp_path, {}, name="lonely/box")
    assert plain["rank"] is None and plain["name"] == "lonely_box" and plain["launchers"] == []


def test_bad_launch_input_is_recorded_not_raised(tmp_path):
    launch = launch_of(tmp_path, {"RANK_ID": "three", "RANK_TABLE_FILE": "/etc/rt.json"},
                       files={"/etc/rt.json": "{not json"})
    assert launch["rank"] is None
    assert any("RANK_ID='three'" in e and "integer" in e for e in launch["errors"])
    assert any("/etc/rt.json" in e and "JSON" in e for e in launch["errors"])
    missing = launch_of(tmp_path, {"RANK_TABLE_FILE": "/nowhere.json"}, name="b")
    assert missing["rank_table"]["error"] == "not readable"
    assert any("/nowhere.json" in e for e in missing["errors"])
    nolist = summarise_rank_table('{"version": "1.0"}', "/t.json", [])
    assert nolist["error"] == "no server_list"


def test_local_addresses_from_real_fib_trie():
    text = open(os.path.join(CLUSTER, "proc_net_fib_trie")).read()
    assert parse_local_addresses(text) == ["192.0.2.2"]
    assert parse_local_addresses("garbage\n|-- x\n") == []


def test_rank_table_digest_ignores_formatting():
    text = open(os.path.join(CLUSTER, "rank_table_2servers.json")).read()
    a = summarise_rank_table(text, "a", [])
    b = summarise_rank_table(json.dumps(json.loads(text)), "b", [])
    assert a["digest"] == b["digest"] and [s["server_id"] for s in a["servers"]] == ["node_0", "node_1"]
    assert a["servers"][1]["devices"][0] == {"device_id": "0", "device_ip": "192.168.2.8", "rank_id": "2"}
