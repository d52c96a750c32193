"""data/kb/families_ops_docs.json: serving and cluster operations on Ascend, the cases their docs document (MindCluster's
FAQ and guides, MindIE-LLM's FAQ, vLLM-Ascend's graph-mode guide and versioning policy, dlinfer's Ray notes, Xinference's troubleshooting page, GPUStack's FAQ), each written
for the fault in the wordings its ecosystem prints: Ray placement groups that cannot be reserved, vLLM's per-prompt
multimodal limit and its failed model inspection, Intel MKL's threading-layer conflict, scripts with CRLF endings,
Kubernetes resources not served, RBAC refusals, hostPath checks, Volcano gangs that cannot start, gRPC keepalive
GOAWAYs, MindIO TTP repairs that fail, vLLM-Ascend's ACL graph capture failures, NPU-Exporter's container-runtime
connection, a start script waiting for an occupied NPU, MindIE's KV-cache blocks, socket binds, KV pulls between prefill
and decode nodes, request sizes, quantize field and tokenizer, Gloo's peer connections, TaskD's library and a vLLM whose
version vLLM-Ascend cannot read, torch_npu's memory-format check, OpenSSL symbols resolved in another libcrypto, MindIE's
prefill limit. Each entry reads members its examples do not show, says what
the line gives, gives way to ascend-fd's own entries on their lines, stays quiet on ordinary lines and on every clean
excerpt."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_ops_docs")
# members elsewhere that take their own lines first (ascend-fd's entries, the NPU plugin's placement reasons)
FAMILY = IDS + ["DCMI_RETURN_CODE", "K8S_NPU_RESOURCE_UNAVAILABLE", "ATB_OPERATION_FAILED", "MODEL_ARCHITECTURE_NOT_SUPPORTED", "MINDX_K8S_RBAC_FORBIDDEN", "MINDX_EXPORTER_CRI_CONNECT_FAILED", "VOLCANO_NPU_TASK_NOT_PLACEABLE",
                "RAY_ACCELERATORS_INSUFFICIENT"]


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids_and_its_class_entries_give_way(kb):
    assert set(IDS) == {
        "RAY_PLACEMENT_GROUP_NOT_READY", "VLLM_MM_ITEMS_OVER_LIMIT", "VLLM_MODEL_ARCH_INSPECT_FAILED",
        "MKL_THREADING_LAYER_CONFLICT", "SHELL_SCRIPT_WINDOWS_LINE_ENDINGS", "K8S_API_RESOURCE_NOT_SERVED",
        "K8S_RBAC_REQUEST_FORBIDDEN", "VOLCANO_GANG_UNSCHEDULABLE", "GRPC_KEEPALIVE_TOO_MANY_PINGS",
        "MINDIO_TTP_REPAIR_FAILED", "VLLM_ASCEND_ACL_GRAPH_CAPTURE_FAILED", "K8S_HOSTPATH_TYPE_CHECK_FAILED",
        "NPU_EXPORTER_CONTAINER_RUNTIME_UNREACHABLE", "NPU_OCCUPIED_BY_ANOTHER_CONTAINER",
        "MINDIE_KV_CACHE_BLOCKS_EXHAUSTED", "MINDIE_SOCKET_BIND_FAILED", "MINDIE_PD_PULL_KV_FAILED",
        "MINDIE_REQUEST_INPUT_TOO_LONG", "MINDIE_ATB_QUANTIZE_FIELD_MISMATCH", "MINDIE_TOKENIZER_VOCAB_SIZE_FAILED",
        "GLOO_PEER_CONNECT_FAILED", "TASKD_LIBRARY_NOT_LOADED", "VLLM_ASCEND_VLLM_VERSION_UNREADABLE",
        "TORCH_NPU_MEMORY_FORMAT_UNSUPPORTED", "OPENSSL_SYMBOL_FROM_OTHER_LIBCRYPTO", "MINDIE_INPUT_OVER_MAX_PREFILL_TOKENS",
        "MINDIE_COORDINATOR_NOT_READY", "MINDIE_COORDINATOR_REQUEST_TIMEOUT", "K8S_NAMESPACE_NOT_FOUND",
        "K8S_POD_NODE_CONSTRAINTS_UNMET", "K8S_RESOURCE_QUOTA_EXCEEDED", "K8S_IMAGE_PULL_FAILED",
        "HF_GATED_REPO_NO_ACCESS", "MINDIE_MM_INPUT_FIELD_UNSUPPORTED", "DEVICE_PLUGIN_DEVICE_IP_UNAVAILABLE"}
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_ops_docs.json" and sig.kind == "root" and not sig.ascend_fd
    # the entries whose lines other entries read more specifically are class entries
    fallback = {s for s in IDS if kb.signature(s).fallback}
    assert fallback == {"VLLM_MODEL_ARCH_INSPECT_FAILED", "K8S_RBAC_REQUEST_FORBIDDEN", "VOLCANO_GANG_UNSCHEDULABLE",
                        "NPU_EXPORTER_CONTAINER_RUNTIME_UNREACHABLE", "MINDIE_TOKENIZER_VOCAB_SIZE_FAILED",
                        "K8S_POD_NODE_CONSTRAINTS_UNMET", "DEVICE_PLUGIN_DEVICE_IP_UNAVAILABLE"}
    # a request refused, an event of a gang still waiting, a script still waiting: warnings, not failures
    assert {s for s in IDS if kb.signature(s).severity == "warn"} == {
        "VLLM_MM_ITEMS_OVER_LIMIT", "VOLCANO_GANG_UNSCHEDULABLE", "NPU_OCCUPIED_BY_ANOTHER_CONTAINER",
        "MINDIE_REQUEST_INPUT_TOO_LONG", "MINDIE_COORDINATOR_REQUEST_TIMEOUT", "K8S_POD_NODE_CONSTRAINTS_UNMET",
        "DEVICE_PLUGIN_DEVICE_IP_UNAVAILABLE"}


@pytest.mark.parametrize("line, sig_id, said", [
    # Ray: another resource and timeout, behind a worker prefix
    ("(pid=77) ValueError: Cannot provide a placement group of placement_group_specs=[{'NPU': 1.0}] within 30 seconds. "
     "See `ray status` to make sure the cluster has enough resources.", "RAY_PLACEMENT_GROUP_NOT_READY",
     "(bundles of `NPU`) within 30 seconds"),
    # vLLM's multimodal limit: a client's report of the newer wording, another modality and count
    ("Bad request (400): At most 0 image(s) may be provided in one prompt.", "VLLM_MM_ITEMS_OVER_LIMIT",
     "more image items than the vLLM server allows in one prompt (at most 0)"),
    ("ValueError: At most 3 audio(s) may be provided in one request.", "VLLM_MM_ITEMS_OVER_LIMIT", "(at most 3)"),
    # vLLM's model inspection: two architectures, pydantic's form
    ("pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig  Value error, Model "
     "architectures ['TransformersForCausalLM'] failed to be inspected. Please check the logs for more details.",
     "VLLM_MODEL_ARCH_INSPECT_FAILED", "model class of TransformersForCausalLM: importing it failed"),
    # Intel MKL behind a Ray worker's prefix
    ("(RayWorkerWrapper pid=3) Error: mkl-service + Intel(R) MKL: MKL_THREADING_LAYER=INTEL is incompatible with "
     "libgomp.so.1 library.", "MKL_THREADING_LAYER_CONFLICT", "INTEL threading layer is incompatible"),
    # CRLF: another script and line, bash's syntax error with a keyword before the carriage return
    ("/job/code/train_start.sh: line 5: $'\\r': command not found", "SHELL_SCRIPT_WINDOWS_LINE_ENDINGS",
     "`/job/code/train_start.sh` has Windows line endings (CRLF): the shell reads the carriage return as part of the "
     "command (line 5)"),
    ("./run.sh: line 7: syntax error near unexpected token `$'do\\r''", "SHELL_SCRIPT_WINDOWS_LINE_ENDINGS",
     "`./run.sh`"),
    # a resource not served: Ascend Operator's own job kind, kubectl's forms
    ("E0101 10:00:00.000000       1 reflector.go:138] pkg/mod/k8s.io/client-go@v0.25.0/tools/cache/reflector.go:169: "
     "Failed to watch *v1.AscendJob: failed to list *v1.AscendJob: the server could not find the requested resource "
     "(get ascendjobs.mindxdl.gitee.com)", "K8S_API_RESOURCE_NOT_SERVED",
     "does not serve `v1.AscendJob` (`ascendjobs.mindxdl.gitee.com`)"),
    ("error: unable to recognize \"queue.yaml\": no matches for kind \"Queue\" in version \"scheduling.volcano.sh/v1beta1\"",
     "K8S_API_RESOURCE_NOT_SERVED", "does not serve `Queue` (`scheduling.volcano.sh/v1beta1`)"),
    # RBAC: a default service account listing pods
    ("Error from server (Forbidden): pods is forbidden: User \"system:serviceaccount:vcjob:default\" cannot list "
     "resource \"pods\" in API group \"\" in the namespace \"vcjob\"", "K8S_RBAC_REQUEST_FORBIDDEN",
     "`system:serviceaccount:vcjob:default` may not list `pods` in namespace `vcjob`"),
    # Volcano's gang: a job's condition in YAML
    ("    message: '12/8 tasks in gang unschedulable: pod group is not ready, 20 minAvailable,",
     "VOLCANO_GANG_UNSCHEDULABLE", "tasks unschedulable (12/8, as Volcano counts them): pod group is not ready"),
    # gRPC: Rust's and another client's forms
    ("client received, frame: GoAway { error_code: ENHANCE_YOUR_CALM, last_stream_id: StreamId(1), debug_data: "
     "b\"too_many_pings\" }", "GRPC_KEEPALIVE_TOO_MANY_PINGS", "keepalive pings more often than the server allows"),
    ("[error] Got GOAWAY, ENHANCE_YOUR_CALM, Last Stream: 727, Rest: too_many_pings", "GRPC_KEEPALIVE_TOO_MANY_PINGS",
     "too_many_pings"),
    # MindIO TTP: the ARF repair that timed out, the upgrade path
    ("2026-03-24 15:21:00.000001 1424551 error [1424551][TTP controller.cpp:2237] controller do arf repair failed, "
     "wait timeout", "MINDIO_TTP_REPAIR_FAILED", "process-level recovery: do arf repair failed"),
    ("2026-03-24 15:21:00.000001 1424551 error [1424551][TTP controller.cpp:2184] Upgrading rebuild common group "
     "failed.", "MINDIO_TTP_REPAIR_FAILED", "Upgrading rebuild common group failed"),
    # hostPath: a driver directory on a node without the driver
    ("  Warning  FailedMount  3s (x6 over 20s)  kubelet  MountVolume.SetUp failed for volume \"driver\" : hostPath type "
     "check failed: /usr/local/Ascend/driver is not a directory", "K8S_HOSTPATH_TYPE_CHECK_FAILED",
     "host path `/usr/local/Ascend/driver` into the pod (volume `driver`): on this node it is not a directory"),
    # NPU-Exporter: another cause joined in the current form
    ("[ERROR]    2025/06/01 10:00:00.000000 1       npu-exporter/main.go:161    failed to init devices parser: "
     "rpc error: code = Unavailable desc = connection error->connecting to container runtime failed",
     "NPU_EXPORTER_CONTAINER_RUNTIME_UNREACHABLE", "cannot connect to the container runtime: rpc error"),
    # Volcano's Ascend plugin (families_platform.json), the reasons the documented cases add: a node's free NPUs that
    # do not form the group, a ToR check, the annotation that differs from the idle count (MindCluster's FAQ)
    ("E0101 00:00:00.000000       1 frame.go:185] checkNodeNPUByTask node top<[0 1]> not meet task req<4>",
     "VOLCANO_NPU_TASK_NOT_PLACEABLE", ": node top<[0 1]> not meet task req<4>"),
    ("E0101 00:00:00.000000       1 frame.go:108] node<worker-1> top<2> can not meet task<vcjob/job-0> req<4>",
     "VOLCANO_NPU_TASK_NOT_PLACEABLE", "can not meet task<vcjob/job-0> req<4>"),
    ("E0101 00:00:00.000000       1 tor.go:300] tor check failed not enough resource for fill job",
     "VOLCANO_NPU_TASK_NOT_PLACEABLE", ": tor check failed not enough resource for fill job"),
    ("  Warning  FailedScheduling  3s  volcano  all nodes are unavailable: 1 node annotations(3) not same node idle(4).",
     "VOLCANO_NPU_TASK_NOT_PLACEABLE", ": node annotations(3) not same node idle(4)"),
    # MindIE-LLM's FAQ: KV-cache blocks behind a data-parallel rank's prefix, the master socket without errno, a pull of
    # the KV cache with another CANN status, the Triton interface's field, the tokenizer's own exception
    ("[rank1]: ValueError: req: 7 out of memory, need block:2049 is more than free block 2048",
     "MINDIE_KV_CACHE_BLOCKS_EXHAUSTED", "(request 7): 2049 blocks needed, 2048 free"),
    ("[llm] [ERROR] [process_group.cpp:48] BindMasterSocket bind failed for IPv6, masterAddr=fe80::1, port=8000",
     "MINDIE_SOCKET_BIND_FAILED", "on `fe80::1` (port 8000)"),
    ("Pull kv from remote_cluster_id: 17 failed, CANN status_code is: -1.", "MINDIE_PD_PULL_KV_FAILED",
     "CANN status_code -1"),
    ("text_input must be necessary and data type must be string and length in (0, 4194304], but the length of inputs "
     "is 4194305", "MINDIE_REQUEST_INPUT_TOO_LONG", "its text_input is longer than the endpoint accepts"),
    ("RuntimeError: Failed to get vocab size from tokenizer wrapper with exception: trust_remote_code is False",
     "MINDIE_TOKENIZER_VOCAB_SIZE_FAILED", "vocabulary size: trust_remote_code is False"),
    # Gloo behind a torch log prefix; TaskD's manager and a worker's own call
    ("[E1101 10:00:00.000000 77 pair.cc:446] failed to connect, willRetry=1, retry=1, retryLimit=3, rank=0, size=4, "
     "local=[192.168.1.2]:40000, remote=[192.168.1.3]:40001, error=SO_ERROR: No route to host",
     "GLOO_PEER_CONNECT_FAILED", "rank 0 to its peer `[192.168.1.3]:40001`: SO_ERROR: No route to host"),
    ("2026-01-08 09:00:01 ERROR start_taskd_manager: func StartTaskdManager has not been loaded from libtaskd.so",
     "TASKD_LIBRARY_NOT_LOADED", "`StartTaskdManager` is missing from it"),
    # vLLM-Ascend with a vLLM built from source
    ("ValueError: Invalid vllm version 0.10.2.dev0 found. A dev version of vllm is installed probably. Set the "
     "environment variable VLLM_VERSION to control it by hand.", "VLLM_ASCEND_VLLM_VERSION_UNREADABLE",
     "`0.10.2.dev0`"),
    # torch_npu's memory-format check met while TorchDynamo traces interpolate: the check, not the compile failure
    ("torch._dynamo.exc.TorchRuntimeError: Failed running call_function <function interpolate at 0x7f>(*(FakeTensor(..., "
     "device='npu:0', size=(1, 1024, 24, 24)),), **{'size': (32, 32), 'mode': 'bicubic'}): NPU contiguous operator only "
     "supported contiguous memory format.", "TORCH_NPU_MEMORY_FORMAT_UNSUPPORTED", "only the contiguous memory format"),
    # another program whose OpenSSL symbol the first libcrypto lacks; MindIE's prefill limit in the generator's form
    ("ssh: symbol lookup error: /lib64/libcrypto.so.3: undefined symbol: OPENSSL_init_crypto_ex",
     "OPENSSL_SYMBOL_FROM_OTHER_LIBCRYPTO", "needs an OpenSSL symbol (`OPENSSL_init_crypto_ex`)"),
    ("ValueError: req 12's  input length is 130000, which is longer than max_prefill_tokens 131072 ",
     "MINDIE_INPUT_OVER_MAX_PREFILL_TOKENS", ": 130000 tokens (max_prefill_tokens 131072)"),
    # ATB's setup failure in the capitalised form MindIE's offline-inference guide quotes (families_serving.json)
    ("Exception: Setup fail, enable log: export ASDOPS_LOG_LEVEL=ERROR, export ASDOPS_LOG_TO_STDOUT=1 to find the first "
     "error.", "ATB_OPERATION_FAILED", "failed at Setup"),
    # MindIE Motor's Coordinator: the answer a client logs, another timeout
    ("requests.exceptions.HTTPError: 503 Server Error: Service Unavailable: MindIE-MS Coordinator is not ready",
     "MINDIE_COORDINATOR_NOT_READY", "too few usable inference instances"),
    ("ERROR client: Request tokenizer timeout", "MINDIE_COORDINATOR_REQUEST_TIMEOUT", "its tokenizer timeout expired"),
    # a namespace missing for another component, in client-go's error form
    ("E0101 10:00:00.000000       1 cm.go:88] create configmap mindx-dl-deviceinfo-worker-1 failed: namespaces "
     "\"mindx-dl\" not found", "K8S_NAMESPACE_NOT_FOUND", "namespace `mindx-dl` does not exist"),
    # Kubernetes: the older taint wording, a quota on NPUs in a controller's log, an image pull refused by a registry
    ("0/3 nodes are available: 3 node(s) had taints that the pod didn't tolerate.", "K8S_POD_NODE_CONSTRAINTS_UNMET",
     "on 3 node(s): they had taints that the pod didn't tolerate"),
    ("Failed to create pod: pods \"mindx-dls-npu-16p-0\" is forbidden: exceeded quota: ascend-quota, requested: "
     "huawei.com/Ascend910=16", "K8S_RESOURCE_QUOTA_EXCEEDED", "`ascend-quota` refuses the object"),
    ("Failed to pull image \"mindie:2.0.RC1-800I-A2-py311-openeuler24.03-lts\": rpc error: code = NotFound desc = "
     "failed to pull and unpack image: not found", "K8S_IMAGE_PULL_FAILED",
     "`mindie:2.0.RC1-800I-A2-py311-openeuler24.03-lts`: rpc error"),
    # a gated model behind the engine's traceback, another model
    ("(APIServer pid=1) huggingface_hub.errors.GatedRepoError: 403 Client Error. Cannot access gated repo for url "
     "https://huggingface.co/google/gemma-3-27b-it/resolve/main/config.json. Repo model google/gemma-3-27b-it is gated.",
     "HF_GATED_REPO_NO_ACCESS", "`google/gemma-3-27b-it` is gated"),
    # vLLM-Ascend's ACL graph capture behind a worker's log prefix
    ("(Worker_TP1 pid=9) ERROR 03-01 10:00:00 [multiproc_executor.py:654] RuntimeError: ACL graph capture failed with "
     "a known stream-resource exhaustion signature. Consider reducing cudagraph_capture_sizes",
     "VLLM_ASCEND_ACL_GRAPH_CAPTURE_FAILED", "(a known stream-resource exhaustion signature)"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id", [
    # ascend-fd's own entries keep their lines: RBAC in kube-system, NPU-Exporter's CRI client
    ('[ERROR]    2024/01/10 03:29:09.354927 1       kubeclient/client.go:210    configmaps "mindx-dl-deviceinfo-node1" '
     'is forbidden: User "system:serviceaccount:kube-system:ascend-device-plugin-sa" cannot update resource '
     '"configmaps" in API group "" in the namespace "kube-system"', "MINDX_K8S_RBAC_FORBIDDEN"),
    ("[ERROR]    2024/01/10 02:29:39.034681 60      container/runtime.go:88    init CRI client failed, connecting to CRI "
     "server failed: context deadline exceeded, connecting to container runtime failed",
     "MINDX_EXPORTER_CRI_CONNECT_FAILED"),
    # the tokenizer's failure that only passes on an unsupported model type is that model type's problem
    ("[2025-04-15 16:40:05.552024] [17310] [281473799454720] [llm] [ERROR] [model_deploy_config.cpp:159] Failed to get "
     "vocab size from tokenizer wrapper with exception: NotImplementedError: unsupported model type: falcon_mamba",
     "MODEL_ARCHITECTURE_NOT_SUPPORTED"),
    # a pod that lacks NPUs on some nodes and is refused by taints on the others: the NPU resource comes first
    ("0/8 nodes are available: 6 Insufficient huawei.com/Ascend910, 2 node(s) had untolerated taint "
     "{node.kubernetes.io/unreachable: }.", "K8S_NPU_RESOURCE_UNAVAILABLE"),
    # the device IP the DCMI call could not give, with its code: the code's entry reads it
    ("[WARN]     2024/01/10 03:29:09.354927 1       device/ascendcommon.go:841    get device ip failed, err: get device "
     "ip failed, errCode: -8005", "DCMI_RETURN_CODE"),
])
def test_class_entries_give_way_to_the_specific_entry_on_its_line(kb, line, sig_id):
    assert [s.id for s in kb.explaining(line)] == [sig_id]


@pytest.mark.parametrize("line", [
    "INFO 05-06 10:00:00 ray.py:60] Waiting for creating a placement group of specs for 40 seconds. "
    "specs=[{'NPU': 1.0}]. Check `ray status` to see if you have enough resources.",
    "INFO 03-01 10:00:00 [chat_utils.py:1] limit_mm_per_prompt: at most 4 images per prompt",
    "INFO 03-01 10:00:00 [registry.py:1] Inspecting model architectures ['Qwen2ForCausalLM']",
    "export MKL_THREADING_LAYER=GNU MKL_SERVICE_FORCE_INTEL=1",
    "train_start.sh: line 12: python3: command not found",
    "I0101 10:00:00.000000       1 reflector.go:351] Caches populated for *v1alpha1.Job from "
    "k8s.io/client-go/tools/cache/reflector.go:156",
    "serviceaccount/ascend-device-plugin-sa-910 created",
    "  Warning  Unschedulable  10s  volcano  pod group is not ready, 1 minAvailable",
    "I0101 10:00:00.000000       1 session.go:135] Open Session with <2> Job and <1> Queues; gang plugin enabled",
    "INFO: [transport] Client received GoAway with error code NO_ERROR and debug data equal to ASCII \"\".",
    "2026-03-24 15:19:59.937660 1424551 info [1424551][TTP controller.cpp:2250] rebuild HCCL comm group success",
    "INFO 03-01 10:00:00 [acl_graph.py:1] ACL graph capture finished for 35 sizes",
    "  Normal   Pulled       8s    kubelet  Container image \"ascend-k8sdeviceplugin:v6.0.0\" already present on machine",
    "[INFO]     2025/06/01 10:00:00.000000 1       npu-exporter/main.go:150    init devices parser success",
    "[20260101-10:00:00] [MindXDL Service Log]Training start at 2026-01-01-10:00:00",
    "[2026-01-08 09:00:01.100+08:00] [51] [60] [llm] [INFO] [block_manager.cpp:80] need blocks: 130, free blocks: 2048",
    "[2026-01-08 09:00:01.100+08:00] [51] [60] [server] [INFO] [http_server.cpp:250] Socket bind success",
    "[Pull kv]\t>>>global rank-0 pull kv batch_size is 4, pull kv info is [], size is 4, reqId is: 1f3c2a",
    "\"maxInputTokenLen\" : 4194304,",
    "quantize = config.get('quantize', None)",
    "[INFO] tokenizer wrapper created, vocab size 151936",
    "I1101 10:00:00.000000 77 ProcessGroupGloo.cpp:1] Gloo connected to all peers, rank=0, size=4",
    "[INFO] 2026-01-08 09:00:01,100 [cython_api.py:31] libtaskd.so loaded successfully",
    "INFO 03-01 10:00:00 [utils.py:1] vllm version 0.11.0 found, VLLM_VERSION not set",
    "    x = x.contiguous(memory_format=torch.channels_last)",
    "ImportError: /usr/local/lib/libfoo.so: undefined symbol: EVPx_init",
    "INFO req 3's input length is 9000, max_prefill_tokens 8192",
    "[INFO] Setup success, workspace size: 0",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, FAMILY) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # every example of a family entry is explained by that entry alone among the family
    assert family_overlaps(kb, FAMILY) == []


def test_a_mindie_socket_bind_is_not_read_as_hccls_port(kb):
    # HCCL_PORT_IN_USE reads any 'bind ... Address already in use'; MindIE's endpoint and master socket are not HCCL's
    line = ("[2026-01-08 09:00:01.100+08:00] [51] [60] [server] [ERROR] [http_server.cpp:237] : [MIE04E020404] "
            "[endpoint] Socket bind failed, bind_result is -1. Address already in use")
    got = [s.id for s in kb.explaining(line)]
    assert "MINDIE_SOCKET_BIND_FAILED" in got and "HCCL_PORT_IN_USE" not in got, got
    assert "HCCL_PORT_IN_USE" in [s.id for s in kb.explaining(
        "[ERROR] HCCL(8,python):2025-01-01-10:00:00.000.000 [socket.cc:1] bind failed: Address already in use")]
