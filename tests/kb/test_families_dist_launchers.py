"""data/kb/families_dist_launchers.json: the distributed launchers and their configuration checks (round 15).
DeepSpeed's launcher (a rank's return code, the hostfile and host selection, ssh and the multi-node backends, device
detection) and its config checks, torchrun's device keyword for --nproc-per-node, Megatron-LM / MindSpeed's argument
checks and checkpoint tracker file, Open MPI mpirun's hostfile, lost-daemon and option messages, Ray's dead workers,
unreachable cluster and full object store, accelerate's FSDP check on the CPU. Each entry reads members its examples do
not show, says the member in its title, stays quiet on the launchers' ordinary INFO/WARNING lines and on every clean
excerpt of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_dist_launchers")
# neighbours in other parts that read lines of the same launchers
FAMILY = IDS + ["DEEPSPEED_BATCH_SIZE_INCONSISTENT", "DEEPSPEED_CONFIG_NOT_READABLE", "DEEPSPEED_ZERO_UNTESTED_OPTIMIZER",
                "DEEPSPEED_OP_NOT_BUILT", "TORCHRUN_WORKER_EXIT_CODE", "MEGATRON_CHECKPOINT_NOT_FOUND_RANDOM_INIT",
                "MPIRUN_NOT_ENOUGH_SLOTS", "MPIRUN_DAEMONS_NOT_STARTED", "MPIRUN_EXECUTABLE_NOT_FOUND",
                "MPIRUN_RUN_AS_ROOT_REFUSED", "MPIRUN_PROCESS_EXITED_NONZERO", "OPENMPI_REMOTE_DAEMON_LAUNCH_FAILED",
                "SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT", "TORCH_ELASTIC_RENDEZVOUS_CLOSED",
                "RAY_PLACEMENT_GROUP_NOT_READY", "RAY_WORKER_REGISTER_FAILED", "FRAMEWORK_SETTING_NOT_SUPPORTED", "LAUNCHER_WORKER_EXITED_WITH_ERROR"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) == len(set(IDS)) == 29  # (+ round 15's mends: tests/kb/test_entries_from_heldout23.py)
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_dist_launchers.json" and sig.kind == "root", sid
        assert not sig.ascend_fd and not sig.fallback and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # DeepSpeed's launcher: the summary line of another rank, a signal, the older launch.py main form
    ("[2024-05-10 03:12:44,120] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', 'pretrain.py', "
     "'--local_rank=5', '--deepspeed_config', 'ds.json'] exits with return code = -11",
     "DEEPSPEED_LAUNCHER_RANK_EXIT_CODE", "local rank 5 exited with return code `-11`"),
    ("[2023-01-02 10:00:00,000] [ERROR] [launch.py:324:sigkill_handler] ['/opt/conda/bin/python', '-u', 'main.py'] "
     "exits with return code = 2", "DEEPSPEED_LAUNCHER_RANK_EXIT_CODE", "a local rank exited with return code `2`"),
    # the hostfile and the host filters
    ("ValueError: Hostfile is empty or not formatted correctly, unable to proceed with launching.",
     "DEEPSPEED_HOSTFILE_MALFORMED", ": is empty or not formatted correctly"),
    ("ValueError: Hostfile contains multiple entries for node-3, unable to proceed with launching",
     "DEEPSPEED_HOSTFILE_MALFORMED", "multiple entries for node-3"),
    ("ValueError: No slot '9' specified on host 'node-2'", "DEEPSPEED_HOST_SELECTION_INVALID",
     "No slot '9' specified on host 'node-2'"),
    ("ValueError: Cannot specify num_nodes/gpus with include/exclude", "DEEPSPEED_HOST_SELECTION_INVALID",
     "Cannot specify num_nodes/gpus"),
    ("ValueError: include_str and exclude_str are mutually exclusive.", "DEEPSPEED_HOST_SELECTION_INVALID",
     "mutually exclusive"),
    # ssh, the backends, the devices
    ("[2024-05-10 03:12:44,120] [ERROR] [runner.py:487:main] Unable to detect suitable master address via "
     "`hostname -I`, please manually specify one via --master_addr", "DEEPSPEED_NODE_NOT_REACHABLE_BY_SSH",
     "could not reach a node by passwordless ssh"),
    ("pdsh@gpu-0: gpu-7: ssh exited with exit code 255", "DEEPSPEED_NODE_NOT_REACHABLE_BY_SSH", "`gpu-7`"),
    ("RuntimeError: launcher 'openmpi' not installed.", "DEEPSPEED_LAUNCHER_BACKEND_NOT_INSTALLED", "`openmpi`"),
    ("RuntimeError: Unable to proceed, no GPU resources available", "DEEPSPEED_NO_ACCELERATOR_DEVICES",
     "found no accelerator devices"),
    # the config checks
    ("AssertionError: Micro batch size per gpu: 0 has to be greater than 0", "DEEPSPEED_BATCH_SIZE_MISSING_OR_ZERO",
     "Micro batch size per gpu: 0"),
    ("AssertionError: Train batch size: 0 has to be greater than 0", "DEEPSPEED_BATCH_SIZE_MISSING_OR_ZERO",
     "Train batch size: 0"),
    ("pydantic_core._pydantic_core.ValidationError: 2 validation errors for DeepSpeedZeroOffloadOptimizerConfig",
     "DEEPSPEED_CONFIG_FIELD_REJECTED", "`DeepSpeedZeroOffloadOptimizerConfig`"),
    ("deepspeed.runtime.config.DeepSpeedConfigError: DeepSpeedConfig: checkpoint parallel write pipeline_stage is "
     "not supported", "DEEPSPEED_CONFIG_FIELD_REJECTED", "DeepSpeed rejected a field of its config"),
    ("ValueError: Type bf16 is not supported on your device.", "DEEPSPEED_DTYPE_NOT_SUPPORTED_ON_DEVICE", "bf16 mode"),
    ("AssertionError: must provide optimizer during init in order to use step", "DEEPSPEED_OPTIMIZER_NOT_PROVIDED",
     "to run `step`"),
    ("deepspeed.runtime.zero.utils.ZeRORuntimeException: You are using ZeRO-Offload with a client provided optimizer "
     "(<class 'torch.optim.adam.Adam'>) which in most cases will yield poor performance. Please either use "
     "deepspeed.ops.adam.DeepSpeedCPUAdam", "DEEPSPEED_ZERO_OFFLOAD_CLIENT_OPTIMIZER", "torch.optim.adam.Adam"),
    ("Exception: >- DeepSpeed Op Builder: Installed CUDA version 11.7 does not match the version torch was compiled "
     "with 12.1, unable to compile cuda/cpp extensions without a matching cuda version.",
     "DEEPSPEED_OP_BUILDER_CUDA_VERSION_MISMATCH", "installed CUDA 11.7 does not match the CUDA 12.1"),
    # torchrun's device keyword
    ("ValueError: Xpu is not available.", "TORCHRUN_NPROC_PER_NODE_DEVICE_UNAVAILABLE", "found no Xpu device"),
    # Megatron / MindSpeed
    ("AssertionError: max_position_embeddings (4096) must be greater than or equal to decoder_seq_length (8192).",
     "MEGATRON_SEQ_LENGTH_EXCEEDS_MAX_POSITION_EMBEDDINGS", "seq_length `8192` is larger than "
     "max_position_embeddings `4096`"),
    ("AssertionError: number of layers per pipeline stage must be divisible number of layers per virtual pipeline "
     "stage", "MEGATRON_NUM_LAYERS_NOT_DIVISIBLE_BY_PIPELINE", "does not divide evenly"),
    ("AssertionError: error parsing metadata file /data/ckpt/latest_checkpointed_iteration.txt",
     "MEGATRON_CHECKPOINT_TRACKER_FILE_INVALID", "`/data/ckpt/latest_checkpointed_iteration.txt` (error parsing"),
    # Open MPI
    ("Open RTE detected a parse error in the rankfile (rankfile.txt)", "MPIRUN_HOSTFILE_NOT_USABLE", "rankfile"),
    ("A process or daemon was unable to complete a TCP connection", "MPIRUN_DAEMON_LOST", "unable to complete a TCP"),
    ("mpirun: Error: unknown option \"-ppn\"", "MPIRUN_UNKNOWN_OPTION", "`-ppn`"),
    # torch.distributed's launch settings: an address that is the text None, an unknown rendezvous backend, a Gloo
    # interface, a DeepSpeed config path read as base64
    ("torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying to connect to "
     "(None, 29500).", "TORCH_DIST_MASTER_ADDR_IS_NONE", "host `None`"),
    ("ValueError: The rendezvous backend 'etcd3' is not registered. Did you forget to call `register`?",
     "TORCH_ELASTIC_RDZV_BACKEND_NOT_REGISTERED", "`etcd3` does not exist"),
    ("[rank3]: RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:84] ifa != nullptr. "
     "Unable to find address for: bond0", "GLOO_SOCKET_IFNAME_NOT_FOUND", "`bond0`"),
    ("binascii.Error: Incorrect padding", "DEEPSPEED_CONFIG_PATH_READ_AS_BASE64", "(Incorrect padding)"),
    # Ray
    ("ray.exceptions.RayActorError: The actor died because its node has died.", "RAY_WORKER_OR_ACTOR_DIED",
     "(died because its node has died), `RayActorError`"),
    ("(raylet) [2026-03-01 22:48:01,851 E 6578 6578] gcs_rpc_client.h:151: Failed to connect to GCS at address "
     "10.15.3.158:6379 within 5 seconds.", "RAY_CLUSTER_NOT_REACHABLE", "`10.15.3.158:6379`"),
    ("Timed out while waiting for GCS to become available.", "RAY_CLUSTER_NOT_REACHABLE", "running cluster"),
    ("ray.exceptions.ObjectStoreFullError: Failed to put object 00ffffffffffffffffffffffffffffffffffffff0100000002000000 "
     "in object store because it is full. Object size is 100000000 bytes.", "RAY_OBJECT_STORE_FULL",
     "100000000 bytes"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


QUIET = [
    # DeepSpeed's ordinary INFO / WARNING lines, as the clean runs here printed them
    "[2026-12-06 07:11:47,108] [WARNING] [real_accelerator.py:209:get_accelerator] Setting accelerator to CPU. If you "
    "have GPU or other accelerator, we were unable to detect it.",
    "[2026-12-06 07:11:58,042] [WARNING] [runner.py:232:fetch_hostfile] Unable to find hostfile, will proceed with "
    "training with local resources only.",
    "[2026-12-06 07:12:14,931] [INFO] [launch.py:180:main] dist_world_size=2",
    "[2026-12-06 07:19:16,003] [INFO] [launch.py:367:main] Process 16871 exits successfully.",
    "[2026-12-06 07:22:24,687] [INFO] [launch.py:335:sigkill_handler] Killing subprocess 26536",
    "[2026-12-06 07:13:42,838] [INFO] [launch.py:344:sigkill_handler] Main process received SIGTERM, exiting",
    "[2024-05-10 03:12:44,120] [INFO] [config.py:1003:print]   train_batch_size ............. 4",
    "[2024-05-10 03:12:44,120] [INFO] [config.py:1003:print]   bfloat16_enabled ............. False",
    "pdsh@node0: worker-1: ssh exited with exit code 1",
    "    \"zero_optimization\": {\"stage\": 2, \"offload_optimizer\": {\"device\": \"cpu\"}},",
    # torchrun, Megatron, Open MPI, Ray
    "W1206 07:07:33.559000 28393 torch/distributed/run.py:874] Setting OMP_NUM_THREADS environment variable for each "
    "process to be 1 in default",
    "  max_position_embeddings ......................... 4096",
    "  successfully saved checkpoint from iteration    1000 to /ckpt/llama",
    "localhost slots=2",
    "Type 'mpirun --help' for usage.",
    "2026-03-01 22:48:01,851 INFO worker.py:1841 -- Connecting to existing Ray cluster at address: 10.0.0.1:6379...",
    "(raylet) Spilled 2048 MiB, 16 objects, write throughput 900 MiB/s.",
    "fsdp_sync_module_states: true",
    "[W1206 07:08:51.788468001 socket.cpp:764] [c10d] The IPv6 network addresses of (node-1, 29500) cannot be "
    "retrieved (gai error: -2 - Name or service not known).",
    "  rdzv_backend     : c10d",
    "export GLOO_SOCKET_IFNAME=eth0",
]


@pytest.mark.parametrize("line", QUIET)
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
