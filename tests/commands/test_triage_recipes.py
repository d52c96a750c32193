"""The triage launch recipes in scripts/recipes: every node summarises its own logs, one merge names the root cause.

Under the real launchers where they are installed (Slurm through sbatch on a one-node cluster the test starts,
Open MPI's mpirun, MindSpore's msrun), as the preflight recipes are tested; several nodes through a stand-in
`srun` that runs one task per node directory (one machine cannot be several nodes); the Kubernetes manifest parsed
and its commands checked against the CLI parser."""

import json
import os
import pathlib
import shutil
import subprocess

import pytest

from tests.commands.test_preflight_recipes import RECIPES, _env, _free_port, _real_env, _stand_in, slurm  # noqa: F401
from tests.helpers.i18n_asserts import assert_msg, assert_shows
from tests.helpers.launchers import missing
from tests.triage.test_rootcause import Tree, notify

# like `srun --ntasks-per-node=1` on FAKE_NODES nodes: task i is node worker-i and reads its own logs (the log
# directory argument, $FAKE_LOGS, stands for that node's worker-i/ under it)
FAKE_SRUN = r"""
while [[ "$1" == -* ]]; do shift; done
rc=0; pids=()
for ((i=0; i<FAKE_NODES; i++)); do
  SLURM_PROCID=$i SLURM_NODEID=$i SLURM_NTASKS=$FAKE_NODES SLURM_LOCALID=0 SLURMD_NODENAME=worker-$i \
    "${@//$FAKE_LOGS/$FAKE_LOGS/worker-$i}" & pids+=($!)
done
for p in "${pids[@]}"; do wait $p || rc=$?; done
exit $rc
"""


def _cluster_logs(root, nodes=2, per=2):
    """A failed job's logs, one directory per node: every rank waits on rank 1 (worker-0 device-1), which never
    reached the collective."""
    t = Tree(nodes=nodes, per=per)
    for r in range(nodes * per):
        if r != 1:
            notify(t[r], 60 + r, 1, size=nodes * per)
    return t.write(pathlib.Path(root))


def _one_node_logs(root):
    t = Tree(nodes=1, per=2)
    notify(t[0], 60, 1, size=2)
    notify(t[1], 61, "local", size=2)
    path = t.write(pathlib.Path(root))
    return os.path.join(path, "worker-0")


def _raw_root_cause(path):
    from ascend_doctor.triage import triage_paths

    return triage_paths([path]).root_cause


def test_slurm_recipe_on_several_nodes_gives_the_raw_logs_verdict(tmp_path):
    _stand_in(tmp_path, "srun", FAKE_SRUN)
    logs = _cluster_logs(tmp_path / "logs", nodes=3)
    out = tmp_path / "sums"
    proc = subprocess.run(["bash", os.path.join(RECIPES, "slurm_triage.sbatch"), logs], capture_output=True,
                          text=True, timeout=300, env=_env(tmp_path, FAKE_NODES="3", FAKE_LOGS=logs,
                                                           TRIAGE_DIR=str(out), SLURM_JOB_ID="601"))
    assert proc.returncode == 1, proc.stdout + proc.stderr  # the job failed: problems found
    assert sorted(os.listdir(out)) == ["worker-0.json", "worker-1.json", "worker-2.json"]
    merged = json.load(open(str(out) + ".json"))["root_cause"]
    raw = _raw_root_cause(logs)
    assert (merged["ascend_fd_code"], merged["devices"], merged["chain"]) == \
        (raw["ascend_fd_code"], raw["devices"], raw["chain"])
    assert merged["devices"] == ["worker-0 device-1"]
    assert_msg(merged["i18n"]["headline"], "Root cause: {devices}", devices="worker-0 device-1")
    assert merged["headline"] in proc.stdout  # the merge's text report starts with it


def test_recipes_are_valid_shell():
    for name in ("slurm_triage.sbatch", "mpirun_triage.sh", "msrun_triage.sh"):
        proc = subprocess.run(["bash", "-n", os.path.join(RECIPES, name)], capture_output=True, text=True)
        assert proc.returncode == 0, (name, proc.stderr)


def test_k8s_manifest_parses_and_its_commands_are_valid_cli():
    yaml = pytest.importorskip("yaml")
    from ascend_doctor.cli import build_parser

    docs = {d["metadata"]["name"]: d for d in yaml.safe_load_all(open(os.path.join(RECIPES, "k8s-triage-job.yaml")))}
    assert set(docs) == {"ascend-triage-nodes", "ascend-triage-merge"}
    nodes = docs["ascend-triage-nodes"]["spec"]
    assert nodes["completionMode"] == "Indexed" and nodes["completions"] == nodes["parallelism"]
    [c] = nodes["template"]["spec"]["containers"]
    assert {e["name"]: e for e in c["env"]}["NODE_NAME"]["valueFrom"]["fieldRef"]["fieldPath"] == "spec.nodeName"
    parser = build_parser()
    args = parser.parse_args(c["command"][1:])
    mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
    assert args.node_summary and args.summary_dir.startswith(mounts["summaries"]) and args.paths == [mounts["logs"]]
    [m] = docs["ascend-triage-merge"]["spec"]["template"]["spec"]["containers"]
    merge = parser.parse_args(m["command"][1:])
    assert merge.paths == [args.summary_dir] and merge.format == "json"


@pytest.mark.slow
def test_slurm_recipe_through_real_sbatch_summarises_each_node_once(slurm, tmp_path):  # noqa: F811
    logs = _one_node_logs(tmp_path / "logs")
    out = tmp_path / "sums"
    script = os.path.join(RECIPES, "slurm_triage.sbatch")
    alloc = ["--nodes=1", "--ntasks=2", "--ntasks-per-node=2", f"--chdir={tmp_path}"]
    job, state, code = slurm.sbatch([*alloc, f"--output={tmp_path}/t-%j.out", script, logs],
                                    env=_real_env(tmp_path, TRIAGE_DIR=str(out)))
    text = open(tmp_path / f"t-{job}.out").read()
    assert (state, code) == ("FAILED", "1:0"), text  # problems found: triage's exit 1
    # two tasks on the node, one summary: the second task (SLURM_LOCALID=1) leaves it to the first
    assert os.listdir(out) == ["localhost.json"]
    assert_shows(text, "{node}: not the node's first task ({var}={value}): that one writes the node's summary",
                 var="SLURM_LOCALID", value=1)
    rc = json.load(open(str(out) + ".json"))["root_cause"]
    assert rc["devices"] == ["localhost device-1"] and rc["ascend_fd_code"] == 125


@pytest.mark.slow
def test_mpirun_recipe_with_real_open_mpi(tmp_path):
    if missing(["mpirun"]):
        pytest.skip("Open MPI not installed (mpirun not on PATH; Debian: apt-get install -y openmpi-bin)")
    logs = _one_node_logs(tmp_path / "logs")
    out = tmp_path / "sums"
    proc = subprocess.run(["bash", os.path.join(RECIPES, "mpirun_triage.sh"), str(out), "--allow-run-as-root",
                           "--oversubscribe", "-np", "3"], capture_output=True, text=True, timeout=300,
                          env=_real_env(tmp_path, TRIAGE_LOGS=logs))
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    [name] = os.listdir(out)  # three ranks on one host: the first local rank writes the node's summary
    assert proc.stderr.count("not the node's first task (OMPI_COMM_WORLD_LOCAL_RANK=") == 2
    rc = json.load(open(str(out) + ".json"))["root_cause"]
    assert rc["devices"] == [name[:-len(".json")] + " device-1"]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("msrun") is None, reason="msrun (MindSpore) not installed")
def test_msrun_recipe_for_real_one_worker_per_node(tmp_path):
    logs = _one_node_logs(tmp_path / "logs")
    out = tmp_path / "sums"
    proc = subprocess.run(["bash", os.path.join(RECIPES, "msrun_triage.sh"), str(out), "--worker_num", "1",
                           "--master_port", str(_free_port())], capture_output=True, text=True, timeout=600,
                          env=_env(tmp_path, TRIAGE_LOGS=logs, TRIAGE_WAIT="5"))
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert len(os.listdir(out)) == 1
    assert json.load(open(str(out) + ".json"))["root_cause"]["ascend_fd_code"] == 125
