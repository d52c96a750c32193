"""data/kb/families_tf_ge.json: TensorFlow on Ascend through TF Adapter (hicann/tensorflow) and the Graph Engine's
session API (hicann/ge). The NPU options of the session configuration, iterations_per_loop with what it cannot be
combined with, a distributed job's environment, the host-to-device data channel, resources of the preprocessing not
initialized where they run, the partition pass, the profiler, npu_device.open, and a GE call before GEInitialize. Each
entry reads members its examples do not show, says the member in its title, stays quiet on ordinary lines that share
its words and on every clean excerpt of the corpus, and one line is one problem of the family."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_tf_ge")
# the GeOp / GePlugin entry of another part this part's sources extend
EXTENDED = ["TF_ADAPTER_GEOP_FAILED", "FRAMEWORK_CANN_CALL_FAILED", "CANN_UNDEFINED_SYMBOL_MIXED_VERSIONS"]
FAMILY = IDS + EXTENDED + ["GE_ERRORNO_REPORTED", "TORCH_NPU_INIT_GE_FAILED_500001"]
CLASSES = {"TF_ADAPTER_NPU_OPTION_INVALID", "TF_ADAPTER_DATA_CHANNEL_FAILED", "TF_ADAPTER_PROFILER_FAILED",
           "TF_ADAPTER_AOE_TUNING_FAILED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert set(IDS) == {"TF_ADAPTER_NPU_OPTION_INVALID", "TF_ADAPTER_ITERATIONS_PER_LOOP_CONFLICT",
                        "TF_ADAPTER_DISTRIBUTED_ENV_INVALID", "TF_ADAPTER_DATA_CHANNEL_FAILED",
                        "TF_NPU_PREPROCESS_RESOURCE_NOT_INITIALIZED", "TF_ADAPTER_GRAPH_PARTITION_UNSUPPORTED",
                        "TF_ADAPTER_PROFILER_FAILED", "TF_ADAPTER_NPU_DEVICE_OPEN_FAILED",
                        "GE_CALLED_BEFORE_GEINITIALIZE", "TF_ADAPTER_AOE_TUNING_FAILED", "GE_OPS_PROTO_LIB_LOAD_FAILED",
                        "GE_HCCL_ENGINE_LIBRARY_NOT_LOADED", "GE_HCOM_SEND_RECV_RANK_ID_FAILED",
                        "TF_NPU_OP_NOT_REGISTERED"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_tf_ge.json" and sig.kind == "root" and not sig.ascend_fd
        assert sig.fallback == (sid in CLASSES) and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # option checks: npu_attrs.cc's other members, geop_npu.cc's, npu_config.py's
    ("2023-05-10 10:00:00.000000: E tf_adapter/util/npu_attrs.cc:2299] enable_exception_dump should be one of 0, 1 and "
     "2, which be: 3", "TF_ADAPTER_NPU_OPTION_INVALID", ": `enable_exception_dump` should be one of 0, 1 and 2"),
    ("tensorflow.python.framework.errors_impl.InternalError: dynamic_graph_execute_mode should be lazy_recompile or "
     "dynamic_execute.", "TF_ADAPTER_NPU_OPTION_INVALID", ": `dynamic_graph_execute_mode` should be lazy_recompile"),
    ("2023-05-10 10:00:00.000000: F tf_adapter/util/npu_attrs.cc:2310] when use optypelist_for_implmode, "
     "op_select_implmode must be set.", "TF_ADAPTER_NPU_OPTION_INVALID", ": `op_select_implmode` must be set"),
    ("tensorflow.python.framework.errors_impl.InternalError: accelerate_train_mode second part is invalid: epoch, you can "
     "choose one of `step, loss`", "TF_ADAPTER_NPU_OPTION_INVALID", ": `accelerate_train_mode` second part is invalid"),
    ("tensorflow.python.framework.errors_impl.InvalidArgumentError: The option 'profiling_mode' or env variables "
     "'PROFILING_MODE' cannot be set to true when using 'profiler.Profiler'.", "TF_ADAPTER_NPU_OPTION_INVALID",
     ": `profiling_mode` cannot be set to true"),
    ("tensorflow.python.framework.errors_impl.InternalError: Option compile_dynamic_mode cannot set when set input_shape, "
     "dynamic_dims and dynamic_node_type.", "TF_ADAPTER_NPU_OPTION_INVALID", ": `compile_dynamic_mode` cannot set when"),
    ("2023-05-10 10:00:00.000000: F tf_adapter/util/npu_attrs.cc:2433] dynamic dims func can not support graph with 2 "
     "IteratorGetNext node.", "TF_ADAPTER_NPU_OPTION_INVALID", ": `dynamic dims` can not support graph with 2"),
    ("ValueError: \"graph_run_mode\" value must be 0 or 1", "TF_ADAPTER_NPU_OPTION_INVALID",
     ": `graph_run_mode` value must be 0 or 1"),
    ("tensorflow.python.framework.errors_impl.InvalidArgumentError: the path /home/dump is not directory.",
     "TF_ADAPTER_NPU_OPTION_INVALID", ": `/home/dump` is not directory"),
    ("tensorflow.python.framework.errors_impl.InvalidArgumentError: dump_step string style is error, correct "
     "example:'0|5|10|50-100'", "TF_ADAPTER_NPU_OPTION_INVALID", ": `dump_step` string style is error"),
    ("ValueError: model_dir are set both in NPUEstimator and NPURunConfig, but with different values. In constructor: "
     "'a', in NPURunConfig: 'b'.", "TF_ADAPTER_NPU_OPTION_INVALID", ": `model_dir` are set both in NPUEstimator"),
    ("ValueError: 'allow_mix_precision_fp16' not in optional list ['force_fp32', 'must_keep_origin_dtype']",
     "TF_ADAPTER_NPU_OPTION_INVALID", ": `allow_mix_precision_fp16` not in optional list"),
    ("ValueError: NpuConfig has no option precision_mod, all options ['graph_run_mode', 'precision_mode']",
     "TF_ADAPTER_NPU_OPTION_INVALID", " NpuConfig has no option precision_mod"),
    ("ValueError: The number of gradients is less than rank_size, so weight_update_sharding cannot be executed",
     "TF_ADAPTER_NPU_OPTION_INVALID", ": `weight_update_sharding` cannot be executed"),
    # iterations_per_loop: the lazy_recompile form with its value
    ("tensorflow.python.framework.errors_impl.InvalidArgumentError: iterations_per_loop only support 1 in lazy_recompile "
     "mode. Current is:100", "TF_ADAPTER_ITERATIONS_PER_LOOP_CONFLICT", "with lazy_recompile (iterations_per_loop is 100)"),
    # the distributed environment: TF2's cluster-manager forms, the device id
    ("RuntimeError: You must specify cm chief ip by set env CM_CHIEF_IP in distribution mode",
     "TF_ADAPTER_DISTRIBUTED_ENV_INVALID", "variable `CM_CHIEF_IP` is not set"),
    ("RuntimeError: CM_CHIEF_IP and RANK_TABLE_FILE are all not be configured.", "TF_ADAPTER_DISTRIBUTED_ENV_INVALID",
     "`CM_CHIEF_IP and RANK_TABLE_FILE`"),
    ("tensorflow.python.framework.errors_impl.InvalidArgumentError: DEVICE_ID should be >= 0.",
     "TF_ADAPTER_DISTRIBUTED_ENV_INVALID", "`DEVICE_ID` is not set or not valid (should be >= 0)"),
    # the data channel: the receive side, the memory queue
    ("tensorflow.python.framework.errors_impl.InternalError: Failed receive data from acl channel, acl status:507899",
     "TF_ADAPTER_DATA_CHANNEL_FAILED", ": Failed receive data from acl channel (ACL status 507899"),
    ("tensorflow.python.framework.errors_impl.InternalError: call rtMemQueueCreate device[0] failed, ret=507899",
     "TF_ADAPTER_DATA_CHANNEL_FAILED", "call rtMemQueueCreate device[0] failed (ret 507899)"),
    # TF2's HDC channel
    ("tensorflow.python.framework.errors_impl.InternalError: Failed create hdc channel Queue_0 on device 0",
     "TF_ADAPTER_DATA_CHANNEL_FAILED", ": Failed create hdc channel Queue_0 on device 0"),
    # partition: ref tensors as args
    ("tensorflow.python.framework.errors_impl.InvalidArgumentError: Ref Tensors (e.g., Variables) are not supported as "
     "args: tensor conv1/weights:0, dst is GeOp1_0", "TF_ADAPTER_GRAPH_PARTITION_UNSUPPORTED", "(`conv1/weights:0`)"),
    # profiler: another call, nesting
    ("tensorflow.python.framework.errors_impl.InternalError: Call aclprofStop failed", "TF_ADAPTER_PROFILER_FAILED",
     ": Call aclprofStop failed"),
    ("tensorflow.python.framework.errors_impl.InternalError: Not support nested call 'profiler.Profiler'.",
     "TF_ADAPTER_PROFILER_FAILED", ": Not support nested call"),
    # npu_device: a second device in one process
    ("RuntimeError: Failed create npu instance on device 1 as existed instance on [0]",
     "TF_ADAPTER_NPU_DEVICE_OPEN_FAILED", "device 1: [0]"),
    # GE: the feed / fetch forms of a flow graph, V2
    ("[ERROR] GE(77,python3):2024-01-01-10:00:00.000.000 [ge_api.cc:900]77 FeedDataFlowGraph: ErrorNo: 1343225857("
     "GE_CLI_GE_NOT_INITIALIZED) [Feed][Data]Failed because GEInitialize was not called before.",
     "GE_CALLED_BEFORE_GEINITIALIZE", "([Feed][Data])"),
    ("[ERROR] GE(77,python3):2024-01-01-10:00:00.000.000 [ge_api.cc:130]77 GeSession: [Construct][GeSession]Failed "
     "because GEInitializeV2 was not called before.", "GE_CALLED_BEFORE_GEINITIALIZE", "GEInitializeV2 was not called"),
    # AOE: another step, a missing symbol of libaoe_tuning.so, the mode check
    ("2023-05-10 10:00:00.000000: E tf_adapter/kernels/geop_npu.cc:2141] exec aoe create session func failed[2].",
     "TF_ADAPTER_AOE_TUNING_FAILED", ": exec aoe create session func failed (ret 2)"),
    ("tensorflow.python.framework.errors_impl.InvalidArgumentError: dlsym Aoe tuning graph API failed, undefined symbol: "
     "AoeTuningGraph", "TF_ADAPTER_AOE_TUNING_FAILED", ": dlsym Aoe tuning graph API failed"),
    ("2023-05-10 10:00:00.000000: E tf_adapter/util/npu_attrs.cc:2157] aoe_mode should be one of the list:['1','2','4']",
     "TF_ADAPTER_AOE_TUNING_FAILED", ": aoe_mode should be one of the list"),
    # GE's OpsProto load with an empty path (ASCEND_OPP_PATH not set)
    ("[ERROR] GE(9,python3):2024-01-01-10:00:00.000.000 [ge_api_v2.cc:289]9 GEInitializeV2: ErrorNo: 1343229953(GE init "
     "failed.) [COMP][DEFAULT][Init][OpsProtoPath]Loading OpsProto lib plugin failed, OpsProtoPath: invalid.",
     "GE_OPS_PROTO_LIB_LOAD_FAILED", "operator prototype libraries (OpsProto) of the operator package"),
    # the HCCL engine of GE: the other library, the callers' form; Receive's rank query
    ("[ERROR] HCCL(7,python3):2024-01-01-10:00:00.000.000 [dlhccl_function.cc:39][7]load fail: libhcomm.so no found",
     "GE_HCCL_ENGINE_LIBRARY_NOT_LOADED", "(`libhcomm.so`)"),
    ("[ERROR] HCCL(7,python3):2024-01-01-10:00:00.000.000 [hcom_ops_kernel_info_store.cc:88][7]"
     "DlHcclFunction::get_instance().init() fail ", "GE_HCCL_ENGINE_LIBRARY_NOT_LOADED", "could not load the HCCL library"),
    ("[ERROR] HCCL(7,python3):2024-01-01-10:00:00.000.000 [hcom_ops_kernel_info_store.cc:160][7][Generate][OpTag]"
     "op[HcomReceive]: get rank id failed. ret[4]", "GE_HCOM_SEND_RECV_RANK_ID_FAILED",
     "operator `HcomReceive` (HcclResult 4"),
    # an NPU operator of a restored graph without npu_bridge: a collective, npu_ops' dropout
    ("tensorflow.python.framework.errors_impl.NotFoundError: Op type not registered 'HcomAllReduce' in binary running "
     "on host-1. Make sure the Op and Kernel are registered in the binary running in this process.",
     "TF_NPU_OP_NOT_REGISTERED", "NPU operator `HcomAllReduce`"),
    ("tensorflow.python.framework.errors_impl.NotFoundError: Op type not registered 'DropOutGenMask' in binary running "
     "on localhost.", "TF_NPU_OP_NOT_REGISTERED", "NPU operator `DropOutGenMask`"),
    # the lookup table of the preprocessing
    ("tensorflow.python.framework.errors_impl.FailedPreconditionError: Failed precondition: Table not initialized.",
     "TF_NPU_PREPROCESS_RESOURCE_NOT_INITIALIZED", "read a Table that was not initialized"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, said", [
    ("tensorflow.python.framework.errors_impl.InternalError: graph parse failed. ret : 1343266818",
     "`graph parse failed` (ret 1343266818)"),
    ("tensorflow.python.framework.errors_impl.InternalError: [GEOP] call ge session RunGraphAsync Failed, "
     "kernel:GeOp13_0, tf session: 0x1, graph id: 11", "`call ge session RunGraphAsync Failed`"),
    ("2023-05-10 10:00:00.000000: E tf_adapter/util/session_manager.cc:52] tf session 0x55d create ge session failed.",
     "`create ge session failed`"),
    ("2023-05-10 10:00:00.000000: E tf_adapter/kernels/geop_npu.cc:1812] [GEOP] InferShape failed, Invalid argument: x",
     "`InferShape failed`"),
    ("2023-05-10 10:00:00.000000: E tf_adapter_2.x/npu_device/core/npu_device.cpp:920] Internal: NPU Schedule graph to "
     "graph engine:", "`NPU Schedule graph to graph engine`"),
    ("tensorflow.python.framework.errors_impl.InternalError: Graph engine process graph failed:",
     "`Graph engine process graph failed`"),
])
def test_the_geop_entry_reads_the_current_wordings(kb, line, said):
    title = explained_title(kb, line, "TF_ADAPTER_GEOP_FAILED")
    assert said in title, title


def test_npu_device_acl_checks_are_read_as_a_cann_call(kb):
    line = "tensorflow.python.framework.errors_impl.InternalError: Acl create stream failed:<unknown error> code:507899"
    hits = kb.explaining(line)
    assert [s.id for s in hits] == ["FRAMEWORK_CANN_CALL_FAILED"], [s.id for s in hits]
    values = hits[0].values(line)  # what the title says: the call and the AscendCL code with its name
    call = values["call"][0]  # the line's own words between the exception's colon and the code
    assert line.split("InternalError: ", 1)[1].startswith(call + ":") and values["acl_code"][0] == "507899"
    assert values["acl_name"][0] == "ACL_ERROR_RT_DRV_INTERNAL_ERROR"


def test_tf_adapter_library_with_an_undefined_symbol_is_a_version_mix(kb):
    line = ("tensorflow.python.framework.errors_impl.NotFoundError: /usr/local/python3.7.5/lib/python3.7/site-packages/"
            "npu_bridge/_tf_adapter.so: undefined symbol: _ZN2ge5Graph10AddGraphEv")
    hits = kb.explaining(line)
    assert [s.id for s in hits] == ["CANN_UNDEFINED_SYMBOL_MIXED_VERSIONS"], [s.id for s in hits]
    assert "npu_bridge/_tf_adapter.so" in hits[0].text("en", line=line)[0]


def test_npu_device_open_is_not_read_as_torch_npu(kb):
    line = "RuntimeError: Failed open npu device 0 : GEInitialize failed"
    assert [s.id for s in kb.explaining(line)] == ["TF_ADAPTER_NPU_DEVICE_OPEN_FAILED"]


@pytest.mark.parametrize("line", [
    "2023-05-10 10:00:00.000000: I tf_adapter/util/npu_attrs.cc:2100] dump_path: /home/test/dump, dump_mode: output",
    "custom_op.parameter_map[\"dynamic_graph_execute_mode\"].s = tf.compat.as_bytes(\"lazy_recompile\")",
    "custom_op.parameter_map[\"iterations_per_loop\"].i = 10",
    "run_config = NPURunConfig(iterations_per_loop=10, mix_compile_mode=False)",
    "export RANK_ID=0 RANK_SIZE=8 RANK_TABLE_FILE=/home/hccl_8p.json",
    "[GePlugin] env RANK_ID:3",
    "2023-05-10 10:00:00.000000: I tf_adapter/kernels/aicpu/host_queue_dataset_op.cc:1030] End training as tdt host "
    "push data finished: 0",
    "2023-05-10 10:00:00.000000: I tf_adapter/optimizers/om_partition_subgraphs_pass.cc:1300] OMPartition subgraph_0 "
    "begin.",
    "with profiler.Profiler(level=\"L1\", aic_metrics=\"PipeUtilization\", output_path=\"/home/prof\"):",
    "npu_device.open().as_default()",
    "[INFO] GE(1234,python3):2024-01-01-10:00:00.000.000 [ge_api.cc:230]1234 GEInitialize: GEInitialize finished.",
    "INFO:tensorflow:Running local_init_op.",
    "npu_config.precision_mode = 'allow_fp32_to_fp16'  # not in optional list before CANN 6",
    "dump_step: 0|5|10",
    "tensorflow.python.framework.errors_impl.NotFoundError: Op type not registered 'SentencepieceOp' in binary running "
    "on localhost.",
    "[DEBUG] HCCL(7,python3):2024-01-01-10:00:00.000.000 [hcom_ops_kernel_info_store.cc:162][7][Generate][OpTag][Recv]: "
    "group[hccl_world_group], srTag[0], srcRank[0], dstRank[1]",
    "2023-05-10 10:00:00.000000: I tf_adapter/kernels/geop_npu.cc:1479] GeOp1_0 RunTuning finish.",
    "[INFO] GE(3312,python3):2024-01-01-10:00:00.000.000 [plugin_manager.cc:623]3312 GetOpsProtoPath: Opp plugin path "
    "structure is new version! opsproto_path:/usr/local/Ascend/opp/built-in/op_proto/",
    "2023-05-10 10:00:00.000000: I tf_adapter_2.x/npu_device/core/npu_device.cpp:930] NPU Schedule graph 3 to graph "
    "engine succeed",
    "2023-05-10 10:00:00.000000: I tf_adapter/kernels/geop_npu.cc:1190] The model has been compiled on the Ascend AI "
    "processor, current graph id is: 1",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []
