"""data/kb/families_torch_dist.json: torch.distributed as a user's call trips it. The Gloo process group's C++ argument
checks as they reach Python (root rank, tensor list length, tensor size and type, device and layout, reduce ops),
distributed_c10d.py's Python checks (point-to-point peers, gather/scatter lists, new_group ranks, registered groups,
init_process_group's arguments), the store's wait for a rank that never joined, torchrun's and the elastic
rendezvous's option checks, DistributedDataParallel's constructor, DeviceMesh and DTensor placements, FSDP,
torch.distributed.checkpoint and RPC worker names. Each entry reads members its examples do not show, says the member
in its title, stays quiet on ordinary lines that share its words (the lines clean torchrun/gloo runs printed here among
them) and on every clean excerpt of the corpus, and one line is one problem of the family; the entries of other parts
this part extended read the forms torch 2.13 prints."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_torch_dist")
# entries of other parts this part extended to torch 2.13's forms
EXTENDED = ["PT_INIT_PROCESS_GROUP_ARGS", "PT_COLLECTIVE_ARG_TYPE", "PT_COLLECTIVE_DTYPE_MISMATCH",
            "TORCH_STORE_BARRIER_TIMEOUT", "DDP_MODEL_DIFFERS_ACROSS_RANKS", "TORCH_DDP_PARAMETER_GRADIENT_MISMATCH"]
FAMILY = IDS + EXTENDED + ["GLOO_PEER_CONNECTION_LOST", "GLOO_COLLECTIVE_TIMED_OUT", "GLOO_COLLECTIVE_SIZE_MISMATCH",
                           "TORCH_DIST_INIT_PROCESS_GROUP_TWICE", "TORCH_DIST_PROCESS_GROUP_NOT_INITIALIZED",
                           "TORCH_DIST_BACKEND_NOT_REGISTERED", "DDP_DEVICE_IDS_FOR_CPU_MODULE",
                           "TORCH_DDP_MODULE_NOT_TRAINABLE", "ACCELERATE_FSDP_SYNC_MODULE_STATES_ON_CPU"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) == 24 and "GLOO_COLLECTIVE_ROOT_RANK_INVALID" in IDS and "TORCH_DCP_CHECKPOINT_EXCEPTION" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_torch_dist.json" and not sig.ascend_fd, sid
        assert not sig.fallback and sig.severity == "fail", sid
        assert sig.kind == ("wrapper" if sid == "TORCH_DCP_CHECKPOINT_EXCEPTION" else "root"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # Gloo's C++ checks: other collectives, other list forms, other values
    ("RuntimeError: ProcessGroupGloo::scatter: invalid root rank: -1", "GLOO_COLLECTIVE_ROOT_RANK_INVALID",
     "`scatter` was given root rank `-1`"),
    ("RuntimeError: ProcessGroupGloo::gather: Incorrect output list size 3. Output list size should be 2, same as size "
     "of the process group.", "GLOO_COLLECTIVE_TENSOR_LIST_LENGTH_WRONG",
     "`gather` was given a list of 3 tensors where its process group has 2 ranks"),
    ("RuntimeError: ProcessGroupGloo::alltoall: input tensor list size 1 does not match world size 4",
     "GLOO_COLLECTIVE_TENSOR_LIST_LENGTH_WRONG", "a list of 1 tensors where its process group has 4 ranks"),
    ("RuntimeError: ProcessGroupGloo::gather: invalid tensor size at index 1 (expected (4, 2), got (2, 2))",
     "GLOO_COLLECTIVE_TENSOR_SHAPE_OR_DTYPE_DIFFERS", "another size than the first one (expected (4, 2), got (2, 2))"),
    ("RuntimeError: ProcessGroupGloo::broadcast: unsupported device type xpu", "GLOO_TENSOR_KIND_NOT_SUPPORTED",
     "`broadcast` for this tensor (unsupported device type `xpu`)"),
    ("RuntimeError: Cannot use ReduceOp.PREMUL_SUM with Gloo", "TORCH_DIST_REDUCE_OP_NOT_SUPPORTED",
     "The reduce op `PREMUL_SUM` cannot be used here"),
    # distributed_c10d.py's Python checks
    ("ValueError: Invalid source rank: source rank should not be the same as the rank of the current process.",
     "TORCH_DIST_P2P_PEER_IS_SELF", "own rank as its source"),
    ("ValueError: Argument ``scatter_list`` must NOT be specified on non-source ranks.",
     "TORCH_DIST_ROOT_ONLY_LIST_ON_WRONG_RANK", "`scatter_list` was given on the wrong rank"),
    ("ValueError: source rank must provide non-None scatter_object_input_list",
     "TORCH_DIST_ROOT_ONLY_LIST_ON_WRONG_RANK", "`scatter_object_input_list`"),
    ("ValueError: Rank 4 is out of range. Valid ranks are 0 to 3 (world_size=4)", "TORCH_DIST_GROUP_RANKS_INVALID",
     "(Rank 4 is out of range. Valid ranks are 0 to 3 (world_size=4))"),
    ("ValueError: ranks list must not contain duplicate entries, got [0, 0, 1]", "TORCH_DIST_GROUP_RANKS_INVALID",
     "ranks list must not contain duplicate entries"),
    ("[rank3]: ValueError: Invalid process group specified", "TORCH_DIST_GROUP_NOT_REGISTERED",
     "not (or no longer) registered: Invalid process group specified"),
    ("ValueError: device_id cuda:4 is out of range. Please use a device index less than the number of accelerators "
     "available: 2.", "TORCH_DIST_INIT_ARGUMENT_REJECTED", "device_id cuda:4 is out of range"),
    ("ValueError: Duplicate device type 'cuda' in backend string 'cuda:nccl,cuda:gloo'",
     "TORCH_DIST_INIT_ARGUMENT_REJECTED", "Duplicate device type 'cuda'"),
    ("torch.distributed.DistStoreError: wait timeout after 1800000ms, keys: /default_pg/0//cpu//0/7",
     "TORCH_DIST_GLOO_RANK_NEVER_JOINED", "after 1800000 ms waiting for rank 7"),
    # torchrun and the rendezvous
    ("ValueError: The rendezvous configuration option 'join_timeout' does not represent a valid integer value.",
     "TORCHRUN_LAUNCH_OPTION_REJECTED", "'join_timeout' does not represent a valid integer value"),
    ("RuntimeError: nnodes=2:1:3 is not in \"MIN:MAX\" format", "TORCHRUN_LAUNCH_OPTION_REJECTED",
     "nnodes=2:1:3 is not in"),
    ("ValueError: The port number of the rendezvous endpoint 'node1:port' must be an integer between 0 and 65536.",
     "TORCHRUN_LAUNCH_OPTION_REJECTED", "rendezvous endpoint 'node1:port'"),
    # DDP, DeviceMesh, DTensor
    ("ValueError: DistributedDataParallel's input module must be on the same type of devices, but input module "
     "parameters locate in {'cpu', 'cuda'}.", "TORCH_DDP_CONSTRUCTOR_ARGUMENT_REJECTED", "same type of devices"),
    ("RuntimeError: Cannot slice a DeviceMesh without mesh_dim_names!", "TORCH_DEVICE_MESH_DOES_NOT_FIT",
     ": Cannot slice a DeviceMesh without mesh_dim_names"),
    ("RuntimeError: DeviceMesh only support homogeneous hardware, but found 6 ranks and 4 cuda devices!",
     "TORCH_DEVICE_MESH_DOES_NOT_FIT", "6 ranks and 4 cuda devices"),
    ("RuntimeError: `distribute_tensor` should be used to distribute leaf tensors! but found non-leaf tensor!",
     "TORCH_DTENSOR_PLACEMENTS_INVALID", "leaf tensors"),
    ("RuntimeError: aten.mm.default: got mixed torch.Tensor and DTensor, need to convert all torch.Tensor to DTensor "
     "before calling distributed operators!", "TORCH_DTENSOR_MIXED_WITH_PLAIN_TENSOR", "`aten.mm.default`"),
    # FSDP
    ("ValueError: Must flatten tensors on the same device but got both cpu and cuda:0",
     "TORCH_FSDP_FLAT_PARAM_NOT_UNIFORM", "differ in device (but got both cpu and cuda:0)"),
    ("RuntimeError: `no_sync()` on inner FSDP instances is not supported. Please call `no_sync()` on root FSDP module.",
     "TORCH_FSDP_USAGE_REJECTED", "no_sync() on inner FSDP instances is not supported"),
    ("ValueError: Manual wrapping with ShardingStrategy.HYBRID_SHARD requires explicit specification of process group "
     "or device_mesh.", "TORCH_FSDP_USAGE_REJECTED", "ShardingStrategy.HYBRID_SHARD"),
    # DCP, RPC
    ("RuntimeError: Missing key in checkpoint state_dict: model.layers.0.self_attn.q_proj.weight.",
     "TORCH_DCP_KEY_MISSING_IN_CHECKPOINT", "`model.layers.0.self_attn.q_proj.weight`"),
    ("ValueError: Size mismatch between saved torch.Size([32000, 4096]) and current: torch.Size([32001, 4096]) for "
     "model.embed_tokens.weight", "TORCH_DCP_SAVED_SIZE_DIFFERS",
     "`model.embed_tokens.weight` with another shape than the model being loaded (saved torch.Size([32000, 4096]), "
     "now torch.Size([32001, 4096]))"),
    ("RuntimeError: name:trainer0,rank:0 could not find destination name ps1", "TORCH_RPC_WORKER_NAME_INVALID",
     "could not find destination name ps1"),
    # the entries of other parts, in torch 2.13's forms
    ("ValueError: Error initializing torch.distributed using file:// rendezvous: world size parameter missing",
     "PT_INIT_PROCESS_GROUP_ARGS", "lacks its world size parameter"),
    ("TypeError: Invalid function argument. Expected parameter `tensor_list` of type List[torch.Tensor]",
     "PT_COLLECTIVE_ARG_TYPE", "wrong type"),
    ("torch.distributed.DistStoreError: Timed out initializing process group in store based barrier on rank 3, for "
     "key: store_based_barrier_key:1 (world_size=8, num_workers_joined=7, timeout=0:30:00 error=Wait timeout)",
     "TORCH_STORE_BARRIER_TIMEOUT", "on rank 3: 7 of 8 processes arrived"),
    ("RuntimeError: [3]: params[12] in this process with sizes [4096, 1024] appears not to match sizes of the same "
     "param in process 0.", "DDP_MODEL_DIFFERS_ACROSS_RANKS", "params[12] in this process with sizes [4096, 1024]"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    # every entry that explains the line: the member's own entry alone (the class entries that only restated these
    # lines before, FRAMEWORK_SETTING_NOT_SUPPORTED, PY_ASSERTION_FAILED, LLM_STACK_CONFIG_VALUE_REJECTED ..., give way)
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # lines the clean torchrun/gloo runs here printed (a DDP run with find_unused_parameters, RPC, DCP, DTensor)
    "W1206 13:23:41.756000 20359 torch/distributed/run.py:874] Setting OMP_NUM_THREADS environment variable for each "
    "process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal "
    "performance in your application as needed. ",
    "[rank0]:[W1206 13:29:23.042507934 reducer.cpp:1529] Warning: find_unused_parameters=True was specified in DDP "
    "constructor, but did not find any unused parameters in the forward pass.",
    "/work/fi/venv_torch/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py:3500: UserWarning: You are "
    "using a Backend <class 'torch.distributed.distributed_c10d.ProcessGroupGloo'> as a ProcessGroup. This usage is "
    "deprecated since PyTorch 2.0. Please use a public API of PyTorch Distributed instead.",
    "rank 0 ok [1.0, 1.0]",
    # code and ordinary text that shares the entries' words
    "[rank0]:     dist.broadcast(t, src=5)",
    "gather_list (list[Tensor], optional): List of appropriately-sized tensors to use for gathered data",
    "mesh = init_device_mesh(\"cuda\", (2, 4), mesh_dim_names=(\"dp\", \"tp\"))",
    "model = FSDP(model, use_orig_params=True, device_id=torch.cuda.current_device())",
    "Saved checkpoint metadata to /ckpt/step_100/.metadata",
    "rpc.init_rpc(\"worker0\", rank=0, world_size=2)",
    "torchrun --nnodes 1:4 --nproc-per-node 8 --rdzv-endpoint node-1:29400 train.py",
    "[INFO] ProcessGroupGloo::broadcast: invalid root rank: 5 (retried with src=0)",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
