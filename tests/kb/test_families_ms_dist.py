"""data/kb/families_ms_dist.json: distributed MindSpore (msrun, dynamic networking, mindspore.communication, the
parallel context), written by fault injection with MindSpore 2.10 on the CPU: each entry reads the line a failing run
printed first (msrun's console, scheduler.log, worker_<n>.log). Each entry reads members its examples do not show,
says the value in its title, stays quiet on the ordinary lines of a clean msrun run (its WARNING lines about
reconnecting and topology retries included) and on every clean excerpt of the corpus, and one line is one problem."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_ms_dist")
FAMILY = IDS + ["LAUNCHER_WORKER_EXITED_WITH_ERROR", "MS_CLUSTER_NODE_TIMED_OUT", "MS_MSRUN_WORKER_COUNT_MISMATCH",
                "MS_META_SERVER_UNREACHABLE", "MS_CLUSTER_SOCKET_BIND_FAILED", "MS_COMM_NOT_INITED",
                "MS_RANK_ENV_NOT_SET", "MS_CLUSTER_TOPOLOGY_TIMEOUT", "FRAMEWORK_SETTING_NOT_SUPPORTED"]
FALLBACK = {"PY_SCRIPT_EXCEPTION"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_roots_without_peer_ids(kb):
    assert {"MS_COMM_INIT_WITHOUT_LAUNCHER", "MS_MSRUN_WORKER_NUM_REJECTED", "MS_MSRUN_WORKER_KILLED_BY_SIGNAL",
            "PY_SCRIPT_EXCEPTION", "MS_CLUSTER_PORT_NOT_MINDSPORE", "MS_COMM_GROUP_RANK_OUT_OF_RANGE",
            "MS_AUTO_PARALLEL_BACKEND_UNSUPPORTED", "PY_HOST_MEMORY_ERROR", "MS_MSRUN_BIND_OPTION_REJECTED",
            "MS_PARALLEL_CONFIG_KEY_UNKNOWN", "MS_CREATE_GROUP_RANK_LIST_CONFLICT", "MS_DRYRUN_ON_CPU",
            "MS_FULL_BATCH_WITHOUT_AUTO_PARALLEL", "MS_CPU_COLLECTIVE_PEER_NO_DATA"} <= set(IDS)
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_ms_dist.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in FALLBACK) and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # init() without a launcher, behind MindSpore's own log prefix
    ("[ERROR] ME(77,7f00,python):2026-01-01-10:00:00.000.000 [mindspore/ccsrc/runtime/hardware_abstract/collective/"
     "collective_manager.cc:166] Initialize] Maybe you are trying to call 'mindspore.communication.init()' without "
     "using 'mpirun', which will make MindSpore load several environment variables",
     "MS_COMM_INIT_WITHOUT_LAUNCHER", "no launcher started"),
    # msrun's other count check
    ("ValueError: worker_num must be greater than 0, but got 0.", "MS_MSRUN_WORKER_NUM_REJECTED",
     "(--worker_num 0): worker_num must be greater than 0"),
    ("ValueError: Total worker number is 8, but got exceeded local worker number: 16.",
     "MS_MSRUN_WORKER_NUM_REJECTED", "(--worker_num 8, --local_worker_num 16)"),
    # another signal, the scheduler's process
    ("[ERROR] ME(9:1,MainProcess):2026-01-01-10:00:00.000.000 [mindspore/parallel/cluster/process_entity/_api.py:365] "
     "Worker process 4242 exit with exception. Error code: -11.", "MS_MSRUN_WORKER_KILLED_BY_SIGNAL",
     "Worker process 4242 was ended by signal 11"),
    ("[ERROR] ME(9:1,MainProcess):2026-01-01-10:00:00.000.000 [mindspore/parallel/cluster/process_entity/_api.py:385] "
     "Scheduler process 4241 exit with exception. Error code: -15.", "MS_MSRUN_WORKER_KILLED_BY_SIGNAL",
     "Scheduler process 4241 was ended by signal 15"),
    # other exceptions of a worker's own code, a dotted name
    # (IndexError's 'index out of range', UnboundLocalError, AssertionError ... are named by cause in
    # families_py_builtins.json; this entry keeps the forms that part does not read)
    ("IndexError: cannot fit 'int' into an index-sized integer", "PY_SCRIPT_EXCEPTION", "IndexError"),
    ("[rank1]: AttributeError: __exit__", "PY_SCRIPT_EXCEPTION", "AttributeError"),
    # (an empty document's `Expecting value` is JSON_DOCUMENT_EMPTY_OR_NOT_JSON's and a BOM JSON_TEXT_STARTS_WITH_BOM's:
    # families_data_formats.json, families_platform_r19.json)
    ("[rank0]: json.decoder.JSONDecodeError: Unexpected UTF-16 BOM", "PY_SCRIPT_EXCEPTION", "JSONDecodeError"),
    # another program answering on the master port
    ("[ERROR] DISTRIBUTED(15,7f,python):2026-01-01-10:00:00.000.000 [mindspore/ccsrc/cluster/rpc/tcp/connection.cc:553] "
     "ParseMessage] Failed to check magicid, RPC_MAGICID: RPC0, recv magic_id: HTTP", "MS_CLUSTER_PORT_NOT_MINDSPORE",
     "(`HTTP`)"),
    # create_group: another group and rank
    ("RuntimeError: Failed to create communication group for dp_group_1 with rank ids [8, 9, 10, 11]. If NCCL is "
     "used, 'export NCCL_DEBUG=INFO' is suggested before launching jobs.", "MS_COMM_GROUP_RANK_OUT_OF_RANGE",
     "(group `dp_group_1`)"),
    ("The rank 16 is out of global rank size.", "MS_COMM_GROUP_RANK_OUT_OF_RANGE", "rank `16`"),
    # a host allocation refused: NumPy 2's module path, a bare MemoryError
    ("numpy._core._exceptions._ArrayMemoryError: Unable to allocate 1.50 TiB for an array with shape (1024, 1024, 393216) "
     "and data type float32", "PY_HOST_MEMORY_ERROR", "(1.50 TiB for an array of shape (1024, 1024, 393216))"),
    ("MemoryError", "PY_HOST_MEMORY_ERROR", "MemoryError"),
    # msrun's own parsing of --bind_numa, the other config dictionaries, create_group's duplicate ranks
    ("msrun: error: argument --bind_numa: bind_numa json file 'numa.json' does not exist.",
     "MS_MSRUN_BIND_OPTION_REJECTED", "--bind_numa: bind_numa json file 'numa.json' does not exist."),
    ("msrun: error: argument --bind_core: Failed to parse JSON into a dictionary", "MS_MSRUN_BIND_OPTION_REJECTED",
     "--bind_core: Failed to parse JSON"),
    ("ValueError: Unknown config: ['pipeline_schedule', 'interleave']", "MS_PARALLEL_CONFIG_KEY_UNKNOWN",
     "['pipeline_schedule', 'interleave']"),
    ("ValueError: List rank_ids in Group tp_group_3 has duplicate data!", "MS_CREATE_GROUP_RANK_LIST_CONFLICT",
     "group `tp_group_3`: it has duplicate data"),
    # a dry run on the CPU package, full_batch outside the auto-parallel modes (behind MindSpore's log prefix)
    ("[ERROR] ME(15495:1,MainProcess):2026-12-05-22:56:17.000.000 [mindspore/communication/management.py:177] "
     "Dryrun is not supported on CPU device for a distributed job.", "MS_DRYRUN_ON_CPU", "A dry run"),
    ("RuntimeError: full_batch could only be used under semi_auto_parallel or auto_parallel.",
     "MS_FULL_BATCH_WITHOUT_AUTO_PARALLEL", "full_batch was set"),
    # the CPU backend's ring collectives waiting on a dead peer
    ("[ERROR] DISTRIBUTED(77,7f,python):2026-01-01-10:00:00.000.000 [mindspore/ccsrc/cluster/rpc/core/"
     "collective_ops_impl.cc:240] RunRingAllGather] Ring AllGather wait receiving [3,2] failed.",
     "MS_CPU_COLLECTIVE_PEER_NO_DATA", "(Ring AllGather wait receiving failed)"),
    # the parallel modes on another backend
    ("RuntimeError: Invalid communication backend: CPU for semi_auto_parallel/auto_parallel mode, currently only "
     "support Ascend/GPU backend.", "MS_AUTO_PARALLEL_BACKEND_UNSUPPORTED", "`CPU`"),
    # a peer's chunk of another size (round 18): Broadcast's receive of ReduceBroadcastAllReduce and the older
    # memcpy_s form, with sizes the examples do not show
    ("[ERROR] DISTRIBUTED(301,7f01,python):2026-12-06-11:00:00.000.000 [mindspore/ccsrc/cluster/rpc/core/"
     "collective_ops_impl.cc:301] ReduceBroadcastAllReduce] Memcpy error, errorno(162), dest size is 4096, src size is "
     "6144", "MS_CPU_COLLECTIVE_SIZE_DIFFERS_BY_RANK", "(`ReduceBroadcastAllReduce`) received a chunk of another size "
     "from its peer rank (6144 bytes for a buffer of 4096)"),
    ("[ERROR] DISTRIBUTED(302,7f02,python):2026-12-06-11:00:00.000.000 [mindspore/ccsrc/cluster/rpc/core/"
     "collective_ops_impl.cc:88] Broadcast] memcpy_s error, errorno(162), dest size is 16, src size is 32",
     "MS_CPU_COLLECTIVE_SIZE_DIFFERS_BY_RANK", "the ranks passed tensors of different sizes"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


# ordinary lines of a clean 2-worker msrun run on this machine (MindSpore 2.10, CPU) and of msrun's help
CLEAN_RUN = [
    "Start worker process with rank id:0, log file:/work/fi/ms_dist/logs/clean_ok/worker_0.log. Environment variable "
    "[RANK_ID=0] is exported. Execute command: python s/clean.py",
    "[WARNING] ME(27206:140247382047616,MainProcess):2026-12-05-22:35:49.313.000 [mindspore/parallel/cluster/"
    "process_entity/_api.py:275] Distributed job is spawned. Waiting all processes to exit...",
    "[WARNING] DISTRIBUTED(27214,7f2230ea4b80,python):2026-12-05-22:35:51.349.094 [mindspore/ccsrc/cluster/topology/"
    "compute_graph_node.cc:392] ReconnectWithTimeoutWindow] Failed to register and try to reconnect to the meta server.",
    "[WARNING] DISTRIBUTED(27211,7f05fa1a06c0,python):2026-12-05-22:35:51.335.163 [mindspore/ccsrc/cluster/rpc/tcp/"
    "connection.cc:79] SocketEventHandler] Event value fd: 8, events: 1, state: 4, errcode: 0, errno: 0 Success, "
    "remote peer: 127.0.0.1:46746, type:1, remote: 1, count: 1, this peer: 127.0.0.1:8201, please check remote peer "
    "address: 127.0.0.1:46746 in worker log to find out which worker disconnected.",
    "[WARNING] DISTRIBUTED(4263,7f753b7a06c0,python):2026-12-05-22:42:39.877.225 [mindspore/ccsrc/cluster/topology/"
    "meta_server_node.cc:323] ProcessUnregister] Node 1 has unregistered.",
    "[WARNING] ME(27214,7f2230ea4b80,python):2026-12-05-22:35:55.474.842 [mindspore/ccsrc/runtime/hardware_abstract/"
    "collective/collective_manager.cc:368] CreateCommunicationGroup] Create collective communication group: "
    "mccl_world_group [const vector]{0, 1}, async: 0",
    "[WARNING] DEVICE(27214,7f2230ea4b80,python):2026-12-05-22:35:55.474.870 [mindspore/ccsrc/plugin/cpu/res_manager/"
    "collective/ms_collective_comm_lib.cc:152] CreateCommunicationGroup] The group mccl_world_group has already existed.",
    "[WARNING] ME(28208:140652390476672,MainProcess):2026-12-05-22:37:07.689.000 [mindspore/parallel/cluster/"
    "process_entity/_api.py:370] There's worker exits with exception, kill all other workers.",
    "[ERROR] ME(28208:140652390476672,MainProcess):2026-12-05-22:37:07.689.000 [mindspore/parallel/cluster/"
    "process_entity/_api.py:365] Worker process 28267 exit with exception. Error code: 1.",
    "    bs = cfg[\"batch_size\"]",
    "        except KeyError: pass",
    "KeyError: comm fusion type must be openstate,allreduce, allgather or reducescatter, but got size",
    "             [--bind_numa BIND_NUMA] [--sim_level {0,1,2,3}]",
    "During handling of the above exception, another exception occurred:",
    "[ERROR] KERNEL(1,7f00,python):2026-01-01-10:00:00.000.000 [mindspore/ccsrc/plugin/device/cpu/kernel/"
    "memcpy_cpu_kernel.cc:50] Launch] Memcpy error, errorno(162), dest size is 8, src size is 12",
    "  --local_worker_num LOCAL_WORKER_NUM the number of nodes participating in local training, an integer variable, "
    "with a default value of 8.",
]


@pytest.mark.parametrize("line", CLEAN_RUN)
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_a_clean_msrun_start_is_not_a_warning(kb):
    # a worker that reconnects before the scheduler is up is cleared once the cluster is built
    built = ("[WARNING] DISTRIBUTED(27212,7f4a79dceb80,python):2026-12-05-22:35:54.765.631 [mindspore/ccsrc/cluster/"
             "topology/cluster_context.cc:319] BuildCluster] Cluster is successfully initialized.")
    sig = kb.signature("MS_META_SERVER_UNREACHABLE")
    assert any(words in built for words in sig.resolved_by)


def test_mindspore_cluster_bind_line_is_its_own_entry_only(kb):
    line = ("[WARNING] DISTRIBUTED(1524,7f5da57f1b80,python):2026-12-05-22:39:55.669.274 [mindspore/ccsrc/cluster/rpc/"
            "tcp/socket_operation.cc:454] Listen] Failed to call bind, url: 127.0.0.1:8206 Address already in use")
    assert [s.id for s in kb.explaining(line)] == ["MS_CLUSTER_SOCKET_BIND_FAILED"]


def test_an_invalid_role_is_the_role_entry_not_the_launcher_one(kb):
    line = ("RuntimeError: Role name 'MS_WORKERS' is invalid. Maybe you are trying to call "
            "'mindspore.communication.init()' without using 'mpirun', which will make MindSpore load several "
            "environment variables and check their validation.")
    assert [s.id for s in kb.explaining(line)] == ["MS_CLUSTER_ROLE_INVALID"]


def test_the_scheduler_s_abnormal_node_count_is_the_timeout_family(kb):
    line = ("[ERROR] DISTRIBUTED(5752,7fe72d4a2b80,python):2026-12-05-22:43:47.461.053 [mindspore/ccsrc/cluster/topology/"
            "meta_server_node.cc:95] Finalize] There are 2 abnormal compute graph nodes.")
    assert [s.id for s in kb.explaining(line)] == ["MS_CLUSTER_NODE_TIMED_OUT"]


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
