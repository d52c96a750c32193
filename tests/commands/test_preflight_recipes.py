"""The launch recipes in scripts/recipes: msrun, Slurm (sbatch on a one-node cluster the test starts) and
Open MPI (mpirun) for real; multi-node skew through stand-in launchers that set the variables the real
ones set (one machine cannot be several nodes); the Kubernetes manifest parsed and its commands checked."""

import json
import os
import shlex
import shutil
import socket
import stat
import subprocess
import sys

import pytest

from ascend_doctor.aggregate import aggregate_paths
from tests.helpers import REPO
from tests.helpers.launchers import LauncherUnavailable, SlurmCluster, missing

RECIPES = os.path.join(REPO, "scripts", "recipes")


def _env(tmp_path, **extra):
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    env["ASCEND_DOCTOR"] = f"{sys.executable} -m ascend_doctor"
    env["PATH"] = str(tmp_path / "bin") + os.pathsep + env["PATH"]
    env.update(extra)
    return env


def _stand_in(tmp_path, name, body):
    """A fake launcher on PATH: runs the command once per task with the launcher's identity variables."""
    d = tmp_path / "bin"
    d.mkdir(exist_ok=True)
    path = d / name
    path.write_text("#!/bin/bash\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


FAKE_SRUN = r"""
# skip srun's own options, then start FAKE_NODES tasks like `srun --ntasks-per-node=1` on FAKE_NODES nodes
while [[ "$1" == -* ]]; do shift; done
rc=0; pids=()
for ((i=0; i<FAKE_NODES; i++)); do
  SLURM_PROCID=$i SLURM_NODEID=$i SLURM_NTASKS=$FAKE_NODES SLURM_LOCALID=0 SLURMD_NODENAME=gpu-node-$i \
  HCCL_CONNECT_TIMEOUT=$([ "$i" = "$ODD_NODE" ] && echo 120 || echo 600) "$@" & pids+=($!)
done
for p in "${pids[@]}"; do wait $p || rc=$?; done
exit $rc
"""

FAKE_MPIRUN = r"""
np=1; cmd=()
while [ $# -gt 0 ]; do
  case "$1" in
    -np|-n) np=$2; shift 2;;
    -x) export "$2"; shift 2;;
    --hostfile|--map-by) shift 2;;
    *) cmd=("$@"); break;;
  esac
done
rc=0
for ((i=0; i<np; i++)); do
  OMPI_COMM_WORLD_RANK=$i OMPI_COMM_WORLD_SIZE=$np OMPI_COMM_WORLD_LOCAL_RANK=0 NODE_NAME_FAKE=1 \
    "${cmd[@]}" || rc=$?
done
exit $rc
"""


@pytest.mark.slow
def test_slurm_recipe_blocks_training_on_skew_and_starts_it_when_sound(tmp_path):
    _stand_in(tmp_path, "srun", FAKE_SRUN)
    script = os.path.join(RECIPES, "slurm_preflight.sbatch")
    bad = subprocess.run(["bash", script, "echo", "TRAINING-STARTED"], capture_output=True, text=True, timeout=300,
                         env=_env(tmp_path, FAKE_NODES="3", ODD_NODE="1", SLURM_JOB_ID="501",
                                  PREFLIGHT_DIR=str(tmp_path / "bad")))
    assert bad.returncode == 1, bad.stderr
    assert "TRAINING-STARTED" not in bad.stdout
    [skew] = aggregate_paths([str(tmp_path / "bad")])["skew"]
    assert skew["fact"] == "HCCL_CONNECT_TIMEOUT" and skew["odd_nodes"] == ["gpu-node-1-rank1"]
    assert [(g["value"], g["count"]) for g in skew["groups"]] == [("600", 2), ("120", 1)]
    assert "job NOT started" in bad.stderr and os.path.exists(tmp_path / "bad.html")
    assert sorted(os.listdir(tmp_path / "bad"))[:3] == ["gpu-node-0-rank0.json", "gpu-node-0-rank0.prom",
                                                         "gpu-node-0-rank0.xml"]
    good = subprocess.run(["bash", script, "echo", "TRAINING-STARTED"], capture_output=True, text=True, timeout=300,
                          env=_env(tmp_path, FAKE_NODES="2", ODD_NODE="-1", SLURM_JOB_ID="502",
                                   PREFLIGHT_DIR=str(tmp_path / "good")))
    assert good.returncode == 0, good.stdout + good.stderr
    assert "TRAINING-STARTED" in good.stdout


def test_mpirun_recipe_aggregates_every_rank(tmp_path):
    _stand_in(tmp_path, "mpirun", FAKE_MPIRUN)
    proc = subprocess.run(["bash", os.path.join(RECIPES, "mpirun_preflight.sh"), str(tmp_path / "r"), "-np", "3",
                           "--map-by", "ppr:1:node"], capture_output=True, text=True, timeout=300,
                          env=_env(tmp_path, HCCL_CONNECT_TIMEOUT="900"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "OK" in proc.stdout.splitlines()[0] and _node_reports(tmp_path / "r") == 3
    data = json.load(open(next((tmp_path / "r").glob("*-rank2.json"))))
    launch = data["facts"]["extra"]["launch"]
    assert launch["launchers"] == ["openmpi"] and launch["world_size"] == 3
    assert launch["variables"]["HCCL_CONNECT_TIMEOUT"] == "900"  # forwarded with -x


def _node_reports(directory):
    """How many node reports the aggregate of `directory` read (what its "N node reports" line counts)."""
    return aggregate_paths([str(directory)])["nodes_total"]


def _free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("msrun") is None, reason="msrun (MindSpore) not installed")
def test_msrun_recipe_for_real_with_three_local_workers(tmp_path):
    reports = tmp_path / "reports"
    proc = subprocess.run(["bash", os.path.join(RECIPES, "msrun_preflight.sh"), str(reports), "--worker_num", "3",
                           "--local_worker_num", "3", "--master_port", str(_free_port())],
                          capture_output=True, text=True, timeout=600,
                          env=_env(tmp_path, PREFLIGHT_BUDGET="90"))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    names = sorted(n for n in os.listdir(reports) if n.endswith(".json"))
    assert len(names) == 3 and [n.rsplit("-", 1)[1] for n in names] == ["rank0.json", "rank1.json", "rank2.json"]
    for n in names:
        launch = json.load(open(reports / n))["facts"]["extra"]["launch"]
        assert launch["launchers"][0] == "msrun" and launch["role"] == "MS_WORKER" and launch["world_size"] == 3
    assert _node_reports(reports) == 3 and os.path.exists(str(reports) + ".html")
    # the scheduler process ran the same command and wrote nothing
    assert "msrun scheduler process" in open(str(reports) + ".msrun-logs/scheduler.log").read()


def test_k8s_manifest_parses_and_its_commands_are_valid_cli(tmp_path):
    yaml = pytest.importorskip("yaml")
    from ascend_doctor.cli import build_parser, _with_default_command

    docs = list(yaml.safe_load_all(open(os.path.join(RECIPES, "k8s-preflight-job.yaml"))))
    kinds = {d["kind"]: d for d in docs}
    assert set(kinds) == {"Job", "DaemonSet"}
    job = kinds["Job"]["spec"]
    assert job["completionMode"] == "Indexed" and job["completions"] == job["parallelism"]
    [container] = job["template"]["spec"]["containers"]
    env = {e["name"]: e for e in container["env"]}
    assert env["NODE_NAME"]["valueFrom"]["fieldRef"]["fieldPath"] == "spec.nodeName"
    parser = build_parser()
    args = parser.parse_args(container["command"][1:])
    assert args.command == "preflight" and args.report_dir.startswith(container["volumeMounts"][0]["mountPath"])
    [ds_container] = kinds["DaemonSet"]["spec"]["template"]["spec"]["containers"]
    loop = ds_container["command"][-1]
    doctor_cmd = loop.split("do ", 1)[1].split(";", 1)[0]
    ds_args = parser.parse_args(_with_default_command(shlex.split(doctor_cmd)[1:]))
    assert ds_args.format == "prom" and ds_args.output.startswith("/textfile/")


def test_recipes_are_valid_shell():
    for name in ("slurm_preflight.sbatch", "mpirun_preflight.sh", "msrun_preflight.sh"):
        proc = subprocess.run(["bash", "-n", os.path.join(RECIPES, name)], capture_output=True, text=True)
        assert proc.returncode == 0, (name, proc.stderr)


@pytest.fixture
def slurm(tmp_path_factory):
    """A real one-node Slurm on localhost for one test; skipped (saying why) where it cannot start."""
    try:
        with SlurmCluster(tmp_path_factory.mktemp("slurm")) as cluster:
            yield cluster
    except LauncherUnavailable as exc:
        pytest.skip(f"real Slurm unavailable: {exc}")


def _real_env(tmp_path, **extra):
    env = _env(tmp_path, **extra)
    env["PATH"] = env["PATH"].split(os.pathsep, 1)[1]  # no stand-in launchers in front
    return env


@pytest.mark.slow
def test_slurm_recipe_through_real_sbatch_on_a_one_node_two_task_allocation(slurm, tmp_path):
    script = os.path.join(RECIPES, "slurm_preflight.sbatch")
    good_dir, bad_dir = tmp_path / "good", tmp_path / "bad"
    alloc = ["--nodes=1", "--ntasks=2", "--ntasks-per-node=2", f"--chdir={tmp_path}"]

    job, state, code = slurm.sbatch([*alloc, f"--output={tmp_path}/good-%j.out", script, "echo", "TRAINING-STARTED"],
                                    env=_real_env(tmp_path, PREFLIGHT_DIR=str(good_dir), PREFLIGHT_BUDGET="90"))
    out = open(tmp_path / f"good-{job}.out").read()
    assert (state, code) == ("COMPLETED", "0:0"), out
    # both tasks of the allocation ran a preflight (Slurm's own SLURM_PROCID names them), aggregate judged them
    assert sorted(n for n in os.listdir(good_dir) if n.endswith(".json")) == ["localhost-rank0.json",
                                                                            "localhost-rank1.json"]
    assert "OK" in out and _node_reports(good_dir) == 2 and out.count("TRAINING-STARTED") == 2
    launch = json.load(open(good_dir / "localhost-rank1.json"))["facts"]["extra"]["launch"]
    assert launch["launchers"][0] == "slurm" and launch["world_size"] == 2
    assert os.path.exists(str(good_dir) + ".html")

    # a variable the checks fail on: the job must stop before training and say so
    job, state, code = slurm.sbatch([*alloc, f"--output={tmp_path}/bad-%j.out", script, "echo", "TRAINING-STARTED"],
                                    env=_real_env(tmp_path, PREFLIGHT_DIR=str(bad_dir), PREFLIGHT_BUDGET="90",
                                                  HCCL_CONNECT_TIMEOUT="abc"))
    out = open(tmp_path / f"bad-{job}.out").read()
    assert (state, code) == ("FAILED", "1:0"), out
    assert "TRAINING-STARTED" not in out and "job NOT started" in out
    assert "hccl.env_values" in out


@pytest.mark.slow
def test_mpirun_recipe_with_real_open_mpi_and_three_ranks(tmp_path):
    if missing(["mpirun"]):
        pytest.skip("Open MPI not installed (mpirun not on PATH; Debian: apt-get install -y openmpi-bin)")
    reports = tmp_path / "r"
    proc = subprocess.run(["bash", os.path.join(RECIPES, "mpirun_preflight.sh"), str(reports), "--allow-run-as-root",
                           "--oversubscribe", "-np", "3"], capture_output=True, text=True, timeout=300,
                          env=_real_env(tmp_path, HCCL_CONNECT_TIMEOUT="900", PREFLIGHT_BUDGET="90"))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "OK" in proc.stdout.splitlines()[0] and _node_reports(reports) == 3
    names = sorted(n for n in os.listdir(reports) if n.endswith(".json"))
    assert [n.rsplit("-", 1)[1] for n in names] == ["rank0.json", "rank1.json", "rank2.json"]
    for rank, name in enumerate(names):
        launch = json.load(open(reports / name))["facts"]["extra"]["launch"]
        assert launch["launchers"] == ["openmpi"] and launch["world_size"] == 3 and launch["rank"] == rank
        assert launch["variables"]["HCCL_CONNECT_TIMEOUT"] == "900"  # forwarded by the recipe's -x
