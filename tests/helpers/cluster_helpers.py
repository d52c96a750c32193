"""Building node reports for the preflight/aggregate tests: real checks on snapshots, then the facts
fields the report contract defines (driver/firmware/cann/mindspore/npu) set per node."""

import json
import os

from ascend_doctor.doctor import RunOptions, run_checks
from ascend_doctor.host import SnapshotHost
from ascend_doctor.snapshot import write_snapshot

HEALTHY_DISKS = {"/": {"total_mb": 500000, "free_mb": 200000}, "/dev/shm": {"total_mb": 65536, "free_mb": 65000}}
FULL_DISKS = {"/": {"total_mb": 500000, "free_mb": 300}, "/dev/shm": {"total_mb": 65536, "free_mb": 65000}}


def node_report(tmp_dir, name, rank=None, world_size=None, env=None, disks=None, driver="24.1.rc2",
                firmware="7.5.0.2.220", cann="8.0.RC2", mindspore="2.3.1", npus=8, files=None):
    """A report dict as `preflight` writes it, for node `name`."""
    full_env = {"SLURMD_NODENAME": name, "SLURM_JOB_ID": "4242", "HCCL_CONNECT_TIMEOUT": "600",
                "HOME": "/root", "PATH": "/usr/bin"}
    if rank is not None:
        full_env["SLURM_PROCID"] = str(rank)
    if world_size is not None:
        full_env["SLURM_NTASKS"] = str(world_size)
    full_env.update(env or {})
    snap = write_snapshot(os.path.join(str(tmp_dir), "snap-" + name), hostname=name, env=full_env,
                          files=files or {}, machine={"disks": disks or HEALTHY_DISKS, "mem_total_mb": 512000,
                                                      "mem_available_mb": 400000})
    report = run_checks(SnapshotHost(snap), RunOptions(skip=["smoke.*"])).to_json()
    facts = report["facts"]
    facts["driver"].update({"installed": True, "version": driver})
    facts["firmware"].update({"installed": True, "version": firmware})
    facts["cann"]["installs"] = [{"root": "/usr/local/Ascend/ascend-toolkit/latest", "kind": "toolkit",
                                  "release": cann, "compiler_version": None, "active": True}]
    facts["mindspore"].update({"installed": True, "version": mindspore, "flavour": "ascend"})
    facts["npu"].update({"available": True, "devices": [{"npu_id": i, "chip_id": 0, "name": "910B3"} for i in range(npus)]})
    return report


def write_report(directory, report, file_name=None):
    os.makedirs(directory, exist_ok=True)
    name = file_name or report["facts"]["extra"]["launch"]["name"]
    path = os.path.join(str(directory), name + ".json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(report, fh)
    return path
