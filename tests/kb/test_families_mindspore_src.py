"""data/kb/families_mindspore_src.json: MindSpore's faults read from its own source (round 11). Every user-visible
message string of the mindspore wheel (Python raises and logger.error calls, the C++ message strings of its cluster
networking, collective, device, memory, data engine, graph compiler and parallel libraries) was rendered as the line
MindSpore prints and run through `kb match`; these entries name the faults no entry named: the dynamic cluster's TCP
receive timeout and a worker that lost its scheduler, RANK_TABLE_FILE under dynamic cluster, device ids out of range,
the rank table path variable, the data sink channel, the data pipeline's wrapper, strategy checkpoints. Each entry
reads members its examples do not show, says the member in its title, stays quiet on ordinary lines that share its
words and on every clean excerpt of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_mindspore_src")
# members of other parts' entries this part's source sweep extended
EXTENDED = ["CHECKPOINT_FILE_UNREADABLE", "MS_DATASET_BATCH_SHAPES_INCONSISTENT", "MS_MSRUN_WORKER_COUNT_MISMATCH", "MS_CLUSTER_NODE_TIMED_OUT", "MS_RANK_ENV_NOT_SET", "MS_ASCEND_DEVICE_OOM",
            "MS_TE_HCCL_WHL_CHECK_FAILED", "MS_GRAPH_UNSUPPORTED_SYNTAX", "MS_PARALLEL_STRATEGY_INVALID"]
FAMILY = IDS + EXTENDED + ["MS_META_SERVER_UNREACHABLE", "MS_CLUSTER_TOPOLOGY_TIMEOUT", "HCCL_RANKTABLE_INVALID",
                           "SETDEVICE_INVALID_ID_107001", "MS_DATASET_USER_PYFUNC_FAILED", "MS_DEVICE_MEMORY_ALLOC_FAILED",
                           "MS_MEMPOOL_NOT_ENOUGH", "LAUNCHER_WORKER_EXITED_WITH_ERROR", "HOST_TOO_MANY_OPEN_FILES",
                           "MS_DATASET_DIR_INVALID", "MS_DATASET_FILES_MISSING"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert set(IDS) == {"MS_CLUSTER_MSG_RECEIVE_TIMEOUT", "MS_SCHEDULER_CONNECTION_LOST",
                        "MS_RANK_TABLE_WITH_DYNAMIC_CLUSTER", "MS_DEVICE_ID_INVALID", "MS_RANK_TABLE_PATH_ENV_INVALID",
                        "MS_DATA_CHANNEL_CREATE_FAILED", "MS_DATASET_PIPELINE_EXCEPTION", "MS_STRATEGY_CKPT_LOAD_FAILED",
                        "MS_GENERATOR_WORKER_FAILED", "MS_DATASET_PYFUNC_RETURNED_NONE", "MS_DATASET_OP_INPUT_INVALID",
                        "MS_DIST_CKPT_RANK_FILE_MISSING"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mindspore_src.json" and not sig.ascend_fd
        assert sig.kind == ("wrapper" if sid == "MS_DATASET_PIPELINE_EXCEPTION" else "root"), sid
        assert sig.severity == "fail" and sig.fallback == (sid == "MS_DATASET_OP_INPUT_INVALID"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # the receive timeout as the RuntimeError it becomes, with another timeout
    ("RuntimeError: Message receive timeout, Suggest configuring timeout time through MS_RECEIVE_MSG_TIMEOUT or "
     "TCPStore Configuration timeout. currently timeout is 1800", "MS_CLUSTER_MSG_RECEIVE_TIMEOUT",
     "(receive timeout 1800 s)"),
    # a worker losing its scheduler: the unregistration retry at exit
    ("[ERROR] DISTRIBUTED(7,ffff,python):2025-05-20-16:02:11.102.334 [mindspore/ccsrc/cluster/topology/"
     "compute_graph_node.cc:240] Finalize] Failed to unregister and try to reconnect to the meta server.",
     "MS_SCHEDULER_CONNECTION_LOST", ": Failed to unregister and try to reconnect to the meta server"),
    # the same check's misspelt and corrected wording
    ("RuntimeError: Launching distributed job using dynamic cluster or OpenMPI, but the device id is not imported "
     "when set env 'RANK_TABLE_FILE'.", "MS_RANK_TABLE_WITH_DYNAMIC_CLUSTER", "RANK_TABLE_FILE is set"),
    # device ids: hal's negative check, the ids said
    ("ValueError: The argument 'device_id' should not be negative, but got -1.", "MS_DEVICE_ID_INVALID",
     "(device_id -1)"),
    ("ValueError: The argument 'device_id' must be less than device count: 2, but got 7.", "MS_DEVICE_ID_INVALID",
     "(device_id 7, 2 devices)"),
    # the rank table path: the path said, its length form
    ("RuntimeError: Invalid environment variable 'MINDSPORE_HCCL_CONFIG_PATH' or 'RANK_TABLE_FILE', the path is: "
     "/root/hccl_2p.json", "MS_RANK_TABLE_PATH_ENV_INVALID", "(`/root/hccl_2p.json`)"),
    ("RuntimeError: Invalid environment variable 'MINDSPORE_HCCL_CONFIG_PATH' or 'RANK_TABLE_FILE', the path length "
     "exceeds the limit.", "MS_RANK_TABLE_PATH_ENV_INVALID", "is not usable"),
    # the data channel behind MindSpore's exception header
    ("RuntimeError: Create channel for sending data failed.\n", "MS_DATA_CHANNEL_CREATE_FAILED", "data channel"),
    # the dataset wrapper without its trailing space
    ("RuntimeError: Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'.",
     "MS_DATASET_PIPELINE_EXCEPTION", "Dataset Pipeline Error Message"),
    # the wrapper says the message that follows it on MindData's 'terminated' line
    ("[ERROR] MD(2435,7f5f,python):2026-12-05-20:20:40.605.710 [mindspore/ccsrc/minddata/dataset/util/"
     "task_manager.cc:257] InterruptMaster] MindSpore dataset is terminated with err msg: Exception thrown from dataset "
     "pipeline. Refer to 'Dataset Pipeline Error Message'. Unexpected error. Invalid schema file.",
     "MS_DATASET_PIPELINE_EXCEPTION", ": Unexpected error. Invalid schema file."),
    # GeneratorDataset's workers: the launch failure (not its 'Too many open files' form)
    ("RuntimeError: Failed to launch multiprocessing of GeneratorDataset.", "MS_GENERATOR_WORKER_FAILED",
     "(Failed to launch multiprocessing of GeneratorDataset)"),
    ("RuntimeError: Got None from Python Function which is defined by per_batch_map", "MS_DATASET_PYFUNC_RETURNED_NONE",
     "(`per_batch_map`)"),
    # the data engine's statuses: a parameter, a file path, the 'terminated' form with a file status
    ("[ERROR] Invalid parameter, samples_per_tensor(num_samples) must be greater than 0, but got 0",
     "MS_DATASET_OP_INPUT_INVALID", ": Invalid parameter, samples_per_tensor(num_samples) must be greater than 0"),
    ("[ERROR] Invalid file path, Cityscapes Dataset dir: /data/cityscapes does not exist or is not a directory.",
     "MS_DATASET_OP_INPUT_INVALID", ": Invalid file path, Cityscapes Dataset dir: /data/cityscapes"),
    ("[ERROR] MD(9,7f,python):2026-01-01-00:00:00.000.000 [mindspore/ccsrc/minddata/dataset/util/task_manager.cc:257] "
     "InterruptMaster] MindSpore dataset is terminated with err msg: Exception thrown from dataset pipeline. Refer to "
     "'Dataset Pipeline Error Message'. Invalid file, LFW annotation file is empty. Check file path: /data/lfw/pairs.txt",
     "MS_DATASET_OP_INPUT_INVALID", ": Invalid file, LFW annotation file is empty"),
    ("RuntimeError: Load strategies failed, please check whether your config is changed.",
     "MS_STRATEGY_CKPT_LOAD_FAILED", "strategy checkpoint"),
    ("ValueError: Checkpoint file /data/ckpt/rank_3/net.ckpt in rank 3 not exits: ",
     "MS_DIST_CKPT_RANK_FILE_MISSING", "(rank 3)"),
    ("ValueError: The checkpoint file of rank7 is needed for converting rank1's checkpoint, but it is missing.",
     "MS_DIST_CKPT_RANK_FILE_MISSING", "(rank 7, needed for rank 1)"),
    ("[ERROR] PARALLEL(5,7f,python):2025-01-01-00:00:00.000.000 [mindspore/ccsrc/frontend/parallel/"
     "step_auto_parallel.cc:99] StepAutoParallel] Load strategy checkpoint failed. Please check if the file exists "
     "and the file permission.", "MS_STRATEGY_CKPT_LOAD_FAILED", "strategy checkpoint"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id", [
    # msrun's cluster-formation failure: the header and its numbered reasons (tests/fixtures/smoke/
    # msrun_nojoin_scheduler.log), the collective form of the header
    ("RuntimeError: Failed to initialize distributed job cluster because some processes in the cluster are not "
     "successfully spawned. You can run command: 'grep -rn -E 'ERROR|CRITICAL' -C 10' in your log directory to filter "
     "out error info. It may be one of the following reasons:", "MS_MSRUN_WORKER_COUNT_MISMATCH"),
    ("RuntimeError: Failed to initialize collective communication because some processes in the cluster are not "
     "successfully spawned. You can run command: 'grep -rn -E 'ERROR|CRITICAL' -C 10' in your log directory to filter "
     "out error info.", "MS_MSRUN_WORKER_COUNT_MISMATCH"),
    ("2.Configured scheduler port MS_SCHED_PORT is occupied by other processes.", "MS_MSRUN_WORKER_COUNT_MISMATCH"),
    ("3.Scheduler and worker's configured MS_SCHED_HOST or MS_SCHED_PORT is not consistent with each other.",
     "MS_MSRUN_WORKER_COUNT_MISMATCH"),
    ("[ERROR] DISTRIBUTED(1,7f,python):2025-01-01-00:00:00.000.000 [mindspore/ccsrc/cluster/topology/"
     "meta_server_node.cc:515] UpdateTopoState] The node: 3 is the first one timed out, please check its log.",
     "MS_CLUSTER_NODE_TIMED_OUT"),
    ("RuntimeError: Invalid environment variable 'RANK_ID', it should not be empty.", "MS_RANK_ENV_NOT_SET"),
    # device memory in the memory pool's, the kernel launch's and the GE executor's words
    ("RuntimeError: Memory isn't enough and alloc failed, kernel name: Default/network-WithLossCell/Conv2D-op1, "
     "alloc size: 1073741824B.", "MS_ASCEND_DEVICE_OOM"),
    ("RuntimeError: Memory not enough: alloc size[1073741824] is bigger than total mem size[32212254720]",
     "MS_ASCEND_DEVICE_OOM"),
    ("RuntimeError: Memory pool not enough, graph: kernel_graph_1, total memory: 3221225472, need memory: 4294967296",
     "MS_ASCEND_DEVICE_OOM"),
    ("[CRITICAL] ME(3412:281473440182304,MainProcess):2025-03-01-10:00:00.123.456 [mindspore/run_check/"
     "_check_version.py:351] MindSpore relies on whl package \"te\" in Ascend AI software package (Ascend Data Center "
     "Solution). Please check whether they are installed correctly or not", "MS_TE_HCCL_WHL_CHECK_FAILED"),
    ("RuntimeError: List comprehension, dict comprehension, set comprehension or generator-expression is unsupported",
     "MS_GRAPH_UNSUPPORTED_SYNTAX"),
    ("RuntimeError: Generator, coroutine or async-generator is unsupported", "MS_GRAPH_UNSUPPORTED_SYNTAX"),
    ("[ERROR] Cannot batch tensors with different shapes in column 1. First element had shape <3> and this element "
     "had shape <4>", "MS_DATASET_BATCH_SHAPES_INCONSISTENT"),
    ("ValueError: SafeTensorError::HeaderTooSmall", "CHECKPOINT_FILE_UNREADABLE"),
    ("RuntimeError: Invalid strategy: The batch must be shard at the same time, but got [[2, 1], [4, 1]]",
     "MS_PARALLEL_STRATEGY_INVALID"),
])
def test_members_added_to_other_parts_entries_are_read(kb, line, sig_id):
    explained_title(kb, line, sig_id, among=FAMILY)


@pytest.mark.parametrize("line", [
    "[INFO] DISTRIBUTED(1,7f,python):2025-01-01-00:00:00.000.000 [mindspore/ccsrc/cluster/rpc/tcp/tcp_client.cc:80] "
    "Initialize] Tcp client receiving message timeout is 60",
    "export MS_RECEIVE_MSG_TIMEOUT=600",
    "Start reconnecting heartbeat client.",
    "[INFO] DISTRIBUTED(1,7f,python):2025-01-01-00:00:00.000.000 The heartbeat thread is started. Retry timeout after "
    "heartbeat failure is 120",
    "msrun --rank_table_file=/home/work/rank_table_8pcs.json --worker_num=8 train.py",
    "export RANK_TABLE_FILE=/home/work/rank_table_8pcs.json",
    "ms.set_device(device_target='Ascend', device_id=0)",
    "device_id: 0, device count: 8",
    "Create channel for sending data success, channel name: 3b6f",
    "- Dataset Pipeline Error Message: ",
    "ms.set_auto_parallel_context(strategy_ckpt_load_file='./strategy.ckpt')",
    "The cluster topology has been constructed successfully.",
    "[WARNING] MD(1,7f,python):2025-01-01 Generator receives a termination signal, stop waiting for data from "
    "subprocess.",
    "[ERROR] Execute user Python code failed, check 'Python Call Stack' above.",
    "[WARNING] MD(1,7f,python):2025-01-01 Invalid data, skip the sample and continue.",
    "    if py_func_output is None:",
    "[INFO] ME(1:1,MainProcess):2025-01-01 The checkpoint of rank 5 is transformed.",
    "SafeTensorError",
    "[WARNING] ME(1:1,MainProcess):2025-01-01 The shared memory is on, multiprocessing performance will be improved.",
    # a healthy msrun start: the workers retry until the scheduler listens (a warning each), then the cluster builds
    "[WARNING] DISTRIBUTED(11551,7f7603068b80,python):2026-12-05-20:44:29.179.508 [mindspore/ccsrc/cluster/topology/"
    "compute_graph_node.cc:392] ReconnectWithTimeoutWindow] Failed to register and try to reconnect to the meta server.",
    # the memory allocator's warning before it asks for another block (the failure, if any, follows as an error)
    "[WARNING] PRE_ACT(3396,7fa684d986c0,python):2026-12-05-20:38:26.654.537 [mindspore/ccsrc/runtime/memory/mem_pool/"
    "mem_dynamic_allocator.cc:521] AddMemBlockAndMemBuf] Memory not enough: alloc size[0] is smaller than required "
    "size[512].",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS) == []
