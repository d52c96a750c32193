"""data/kb/families_mindie.json: MindIE, Huawei's inference serving stack (MindIE-LLM with MindIE Server and the ATB
models, MindIE Motor's controller and coordinator), written from the projects' own message strings: TLS files and their
validity, shared memory, Motor's links to the instances, the rank table, parallel sizes, environment variables, the
ATB models' aclnn operations, the endpoint's tokenizer processes, LoRA adapters. Each entry reads members its examples
do not show and says the member in its title, wins over MINDIE_ERROR_LOGGED (the class entry that only restates a
MindIE error line), stays quiet on ordinary lines that share its words and on every clean excerpt of the corpus."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_mindie")
# entries of other parts this part's sources extend with MindIE's own wordings
EXTENDED = ["ASCEND_TOOL_FILE_SECURITY_CHECK", "MINDIE_ATB_QUANTIZE_FIELD_MISMATCH",
            "MINDIE_COORDINATOR_REQUEST_TIMEOUT", "MINDIE_MM_INPUT_FIELD_UNSUPPORTED", "PROCESS_SEGFAULT",
            "PROCESS_ABORTED_SIGABRT", "MINDIE_PD_PULL_KV_FAILED"]
FAMILY = IDS + EXTENDED + ["MINDIE_ERROR_LOGGED", "MINDIE_ENGINE_INIT_FAILED", "MINDIE_CONFIG_NOT_ACCEPTED",
                           "MINDIE_HTTP_LISTEN_FAILED", "ATB_OPERATION_FAILED", "ACLNN_OPERATOR_CALL_FAILED",
                           "MS_HOST_MEMORY_DATASET_OOM", "HCCL_RANKTABLE_INVALID",
                           "SIZE_NOT_DIVISIBLE_BY_PARALLEL_SPLIT", "LLM_STACK_CONFIG_VALUE_REJECTED",
                           "PROCESS_KILLED_SIGKILL", "HCCL_FUNCTION_ERROR_RESULT", "PY_PARAM_NAME_NOT_IN_WEIGHTS"]

S = "[2025-07-02 10:11:12.345+08:00] [3381] [3390] [server] [ERROR] "
M = "[2025-07-02 10:11:12.345+08:00] [5120] [5188] [ms] [ERROR] "
L = "[2025-07-02 10:11:12.345678] [3381] [3402] [llm] [ERROR] "
A = "[2025-07-02 10:11:12.345678] [3381] [3402] [llmmodels] [ERROR] "


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_roots_without_peer_ids(kb):
    assert len(IDS) >= 14
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_mindie.json" and sig.kind == "root" and not sig.ascend_fd
        assert not sig.fallback and sig.severity == "fail", sid


@pytest.mark.parametrize("line, sig_id, said", [
    # TLS files: the server's HTTPS loader, the gRPC CRL, Motor's HTTP server and KMC, the Python side
    (S + "[http_ssl.cpp:236] : [MIE04E020500] [endpoint] Failed to get private key path",
     "MINDIE_TLS_FILES_NOT_LOADED", ": Failed to get private key path"),
    (S + "[grpc_tls_function_expansion.cpp:166] : [MIE04E020500] [endpoint] CRL file is empty or invalid, path: "
     "/opt/mindie/security/crl/ca.crl", "MINDIE_TLS_FILES_NOT_LOADED",
     ": CRL file is empty or invalid (`/opt/mindie/security/crl/ca.crl`)"),
    (M + "[HttpServer.cpp:402] : [MIE03E300A01] [HttpServer] HTTP server failed on use private key file, reason is "
     "bad decrypt.", "MINDIE_TLS_FILES_NOT_LOADED", ": HTTP server failed on use private key file"),
    (M + "[KmcDecryptor.cpp:210] : [MIE03E400A01] [KmcDecryptor]Private key decryption failed: bad password read",
     "MINDIE_TLS_FILES_NOT_LOADED", ": Private key decryption failed"),
    ("RuntimeError: CRL validation failed for /opt/mindie/security/crl/server.crl", "MINDIE_TLS_FILES_NOT_LOADED",
     "(`/opt/mindie/security/crl/server.crl`)"),
    # validity: a not-yet-valid certificate, Motor's gRPC check
    (S + "[http_ssl.cpp:305] : [MIE04E020500] [endpoint] Certificate has expired! current time before cert time.",
     "MINDIE_TLS_CERT_NOT_VALID_NOW", "the current time is before its validity"),
    (M + "[GrpcTlsFunctionExpansion.cpp:90] : Crl has expired! current time after next update time.",
     "MINDIE_TLS_CERT_NOT_VALID_NOW", "(Crl: the current time is after its validity)"),
    # shared memory: the tokenizer's check, a mapping that failed
    (S + "[infer_tokenizer.cpp:133] : [MIE04E020400] [endpoint] Available shared memory size is not enough.",
     "MINDIE_SHARED_MEMORY_TOO_SMALL", "too little shared memory"),
    (L + "[shared_memory.cpp:260] Failed to ftruncate the shared memory with size 268435456",
     "MINDIE_SHARED_MEMORY_TOO_SMALL", "too little shared memory"),
    (L + "[shared_memory.cpp:120] Shared memory available is not enough on the filesystem with available size "
     "60817408 and pending allocation size 268435456", "MINDIE_SHARED_MEMORY_TOO_SMALL", ": 268435456 bytes needed"),
    # shared memory of another user: the semaphore form, Motor's form
    (L + "[ipc_communicator.cpp:190] Semaphore /sem_consume_0 owned by uid 0, but current uid is 1000",
     "MINDIE_SHARED_MEMORY_OWNED_BY_OTHER_USER", "`/sem_consume_0` belongs to another user (uid 0, this process runs "
     "as uid 1000)"),
    (M + "[SharedMemoryUtils.cpp:66] : [MIE03E400A01] [SharedMemoryUtils] Semaphore owner mismatch: /ms_sem_ccae",
     "MINDIE_SHARED_MEMORY_OWNED_BY_OTHER_USER", "`/ms_sem_ccae`"),
    # Motor's links: the coordinator, the role switcher, decode handling
    (M + "[CoordinatorRequestHandler.cpp:141] : [MIE03E400A01] [CoordinatorRequestHandler] Sending node status, send "
     "request failed, IP 192.168.1.20, port 1026, ret code -1, request ret -1.", "MINDIE_MOTOR_INSTANCE_UNREACHABLE",
     "at `192.168.1.20`, port 1026: Sending node status"),
    (M + "[RoleSwitcher.cpp:311] : [MIE03E400A01] [RoleSwitcher] Post instance offline failed, node IP 192.168.1.21, "
     "port 1026, ret code -1, send request ret -1.", "MINDIE_MOTOR_INSTANCE_UNREACHABLE",
     "at `192.168.1.21`, port 1026"),
    (M + "[DRequestRepeater.cpp:90] : [MIE03E300A01] [RequestRepeater] Failed to apply connection to decode node at "
     "IP: 192.168.1.22 and port: 1025.", "MINDIE_MOTOR_INSTANCE_UNREACHABLE", "at `192.168.1.22`, port 1025"),
    # the rank table: a duplicate node, a bad port
    (M + "[RankTableLoader.cpp:402] : [MIE03E400A01] [RankTableLoader] Non-unique node ID detected for IP "
     "192.168.1.20", "MINDIE_RANK_TABLE_REJECTED", ": Non-unique node ID detected for IP 192.168.1.20"),
    (M + "[RankTableLoader.cpp:611] : [MIE03E400A01] [RankTableLoader] Invalid port value for key 'mgmt_port' on "
     "server IP 192.168.1.20, 80 is out of range [1024, 65535]", "MINDIE_RANK_TABLE_REJECTED",
     ": Invalid port value for key"),
    ("ValueError: ERROR: Rank id is not in the rankTableFile, the input rank is 15.", "MINDIE_RANK_TABLE_REJECTED",
     "(rank 15 is not in it)"),
    # parallel sizes: DP with CP, the environment's ranks, the tp mapping
    (M + "[ControllerConfig.cpp:233] : [MIE03E400A01] [ControllerConfig] ValidateMultiNodeConfig: DP and CP cannot be "
     "enabled simultaneously. Prefill DP size: 2, CP size: 2; Decode DP size: 4, CP size: 1",
     "MINDIE_PARALLEL_SIZES_DO_NOT_FIT", ": DP and CP cannot be enabled simultaneously"),
    ("ValueError: LOCAL_RANK should be in the range of 0 to WORLD_SIZE, WORLD_SIZE is not inclusive.",
     "MINDIE_PARALLEL_SIZES_DO_NOT_FIT", ": LOCAL_RANK should be in the range of 0 to WORLD_SIZE"),
    ("ValueError: Invalid tp mapping: tp_p (8) must be divisible by tp_d (3) or tp_d (3) must be divisible by tp_p (8)",
     "MINDIE_PARALLEL_SIZES_DO_NOT_FIT", ": Invalid tp mapping"),
    # environment variables
    ("KeyError: 'Please Check Environment Variable Configuration of RANK_TABLE_FILE'", "MINDIE_ENV_VARIABLE_NOT_SET",
     "`RANK_TABLE_FILE`"),
    ("RuntimeError: Environment variable $MODEL_ID is not correct.", "MINDIE_ENV_VARIABLE_NOT_SET", "`MODEL_ID`"),
    ("ValueError: Invalid MINDIE_LOG_ROTATE, file size should be in range [1, 500]MB. Please check environment value",
     "MINDIE_ENV_VARIABLE_NOT_SET", "`MINDIE_LOG_ROTATE`"),
    # ATB models' aclnn operations: other steps of the wrapper
    (A + "[acl_nn_operation.cpp:732] MoeInitRoutingOperation call SetAclNNWorkspaceExecutor fail, error:561002",
     "MINDIE_ATB_ACLNN_OP_CALL_FAILED", "(`MoeInitRoutingOperation`) failed in SetAclNNWorkspaceExecutor, "
     "status 561002"),
    (A + "[acl_nn_operation.cpp:257] IndexSelectOperation AclNNTensor CreateAclNNInTensorVariantPack fail",
     "MINDIE_ATB_ACLNN_OP_CALL_FAILED", "(`IndexSelectOperation`) failed in CreateAclNNInTensorVariantPack"),
    # tokenizer processes
    (S + "[infer_tokenizer.cpp:288] : [MIE04E020A04] [endpoint] Cannot find available tokenizer.",
     "MINDIE_TOKENIZER_WORKERS_FAILED", ": Cannot find available tokenizer"),
    (S + "[infer_tokenizer.cpp:250] : [MIE04E020A04] [endpoint] Failed to create tokenizer sub process.",
     "MINDIE_TOKENIZER_WORKERS_FAILED", ": Failed to create tokenizer sub process"),
    # LoRA
    ("ValueError: [DUPLICATED LORA ID], This adapter_id 3 is already added before.", "MINDIE_LORA_ADAPTER_REJECTED",
     "(DUPLICATED LORA ID): This adapter_id 3 is already added before."),
    (L + "[model_deploy_config.cpp:512] Lora base model not found. Please check. Lora name is sql-lora",
     "MINDIE_LORA_ADAPTER_REJECTED", ": Lora base model not found"),
    # weights: a tensor the loader cannot find, a size that does not fit
    ("AssertionError: weight lm_head.weight does not exist", "MINDIE_ATB_WEIGHTS_NOT_FOUND",
     ": weight lm_head.weight does not exist (`lm_head.weight`)"),
    ("ValueError: Tried to load weights of size 151936 to a parameter of size 75968", "MINDIE_ATB_WEIGHTS_NOT_FOUND",
     ": Tried to load weights of size 151936"),
    # HCCL calls of the ATB models: the destroy form with its HcclResult
    (A + "[external_comm_manager.cpp:26] External Comm Manager: Call `HcclCommDestroy` API from CANN to destroy hccl "
     "communication group failed. Error code: 4. Check the default log path at $HOME/ascend/log for more details. ",
     "MINDIE_ATB_HCCL_CALL_FAILED", "(`HcclCommDestroy`) failed: HcclResult 4"),
    # the daemon's child ended on a signal other than SIGSEGV / SIGABRT
    (S + "[llm_daemon.cpp:244] : [MIE04E01010F] [daemon] Process 2210 was stopped by signal 19 (Stopped (signal))",
     "MINDIE_DAEMON_CHILD_ENDED_BY_SIGNAL", "(pid 2210) ended on signal 19 (Stopped (signal))"),
    (S + "[llm_daemon.cpp:250] : [MIE04E01010F] [daemon] Process 2210 terminated with unknown status 139",
     "MINDIE_DAEMON_CHILD_ENDED_BY_SIGNAL", "(pid 2210) ended on signal 139"),
    # environment variables: the runtime's MASTER_IP / MASTER_PORT checks
    ("ValueError: Master port is not set, use export MASTER_PORT=xxxx to solve", "MINDIE_ENV_VARIABLE_NOT_SET",
     "`MASTER_PORT`"),
    ("ValueError: MASTER_IP '10.0.0.300' is invalid", "MINDIE_ENV_VARIABLE_NOT_SET", "`MASTER_IP`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line, sig_id, said", [
    # the file checks of MindIE-LLM and MindIE Motor in ASCEND_TOOL_FILE_SECURITY_CHECK
    ("PermissionError: The file should not be writable by group users. Please check the input path:/data/Qwen3-8B/"
     "config.json, and change mode to 640.", "ASCEND_TOOL_FILE_SECURITY_CHECK",
     "(`/data/Qwen3-8B/config.json`): writable by group users"),
    ("RuntimeError: Check the path owner and group failed: /home/mindie/conf/config.json",
     "ASCEND_TOOL_FILE_SECURITY_CHECK", "(`/home/mindie/conf/config.json`): Check the path owner and group failed"),
    (M + "[Util.cpp:402] : [MIE03E400A01] [Util] Check Other group permission for file /home/mindie/conf/"
     "ms_coordinator.json failed. Current permission is 4, but required no greater than 0.",
     "ASCEND_TOOL_FILE_SECURITY_CHECK", "Current permission is 4, but required no greater than 0"),
    (S + "[infer_tokenizer.cpp:109] : [MIE04E020400] [endpoint] Shared memory path is symlink.",
     "ASCEND_TOOL_FILE_SECURITY_CHECK", ": Shared memory path is symlink"),
    # the quantize field in the linear loader and the weights reader
    ("AssertionError: The passed weight is not `w8a8 dynamic` compatible, loader needs to be updated.",
     "MINDIE_ATB_QUANTIZE_FIELD_MISMATCH", "`quantize` field"),
    ("[2025-07-02 10:11:12,345] [3381] [3402] [llmmodels] [ERROR] [weights.py-188] : Cannot load `gptq` weight, "
     "make sure the model is already quantized", "MINDIE_ATB_QUANTIZE_FIELD_MISMATCH", "`quantize` field"),
    # the Coordinator's own timeout lines
    (M + "[ReqTimeOutExceptionHandler.cpp:40] : [MIE03E300A05] [RequestRepeater] Scheduling timeout occurred for the "
     "request. Request ID: 77a1.", "MINDIE_COORDINATOR_REQUEST_TIMEOUT", "its Scheduling timeout expired"),
    (M + "[ReqTimeOutExceptionHandler.cpp:64] : [MIE03E300A05] [RequestRepeater] Tokenizer processing exceeded the "
     "allowed time for the request. Request ID:is 77a1.", "MINDIE_COORDINATOR_REQUEST_TIMEOUT",
     "its Tokenizer timeout expired"),
    # the daemon's SIGSEGV / SIGABRT children in the process family
    (S + "[llm_daemon.cpp:237] : [MIE04E01010F] [daemon] Process 2210 was terminated by signal 11 (Segmentation fault)",
     "PROCESS_SEGFAULT", "segmentation fault"),
    (S + "[llm_daemon.cpp:237] : [MIE04E01010F] [daemon] Process 2210 was terminated by signal 6 (Aborted)",
     "PROCESS_ABORTED_SIGABRT", "aborted (SIGABRT)"),
    # the decode side's per-rank line of a failed KV pull
    ("[2025-07-02 10:11:12,345] [3381] [3402] [llm] [ERROR] [router_impl.py-358] : global rank-5 cluster-1 pull kv "
     "cache failed! pull_kv_items: [(1, 2)], request_ids: ['a1']", "MINDIE_PD_PULL_KV_FAILED",
     "could not pull a request's KV cache"),
    # the multimodal models' other input checks
    ("KeyError: 'Unsupported media type, it should be a video or image, please check your input.'",
     "MINDIE_MM_INPUT_FIELD_UNSUPPORTED", "multimodal model received an input item"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    S.replace("[ERROR]", "[INFO]") + "[http_ssl.cpp:120] : [endpoint] Load init ssl success",
    "    \"httpsEnabled\" : false,",
    "    \"tlsCaFile\" : [\"ca.pem\"],",
    "[INFO] Certificate expires at 2027-01-01, current time before cert time is normal",
    "docker run -it -d --net=host --shm-size=1g mindie:2.1.RC1",
    "shm                        1.0G   12M 1012M   2% /dev/shm",
    M.replace("[ERROR]", "[INFO]") + "[ServerRequestHandler.cpp:380] : [ServerRequestHandler] Getting node status, "
    "node ID 1, IP 192.168.1.20, port 1026, success",
    M.replace("[ERROR]", "[INFO]") + "[RankTableLoader.cpp:210] : [RankTableLoader] Load rank table success.",
    "export RANK_TABLE_FILE=/user/serverid/devindex/config/hccl.json",
    "            \"tp\": 8, \"dp\": 2, \"cp\": 1, \"sp\": 1,",
    "export MIES_INSTALL_PATH=/usr/local/Ascend/mindie/latest/mindie-service",
    A.replace("[ERROR]", "[INFO]") + "[acl_nn_operation.cpp:560] IndexSelectOperation call ExecuteAclNNOp success",
    S.replace("[ERROR]", "[INFO]") + "[infer_tokenizer.cpp:380] : [endpoint] Init tokenizer processes success.",
    "INFO: LoRA adapter sql-lora loaded, max_loras=4, max_lora_rank=64",
    "    \"modelWeightPath\" : \"/data/models/Qwen3-32B\",",
    "INFO: loaded weight model.embed_tokens.weight from model-00001-of-00017.safetensors",
    S.replace("[ERROR]", "[INFO]") + "[llm_daemon.cpp:228] : [daemon] Process 2210 exited normally with status 0",
    "export MASTER_ADDR=10.0.0.1 MASTER_PORT=29500",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, IDS + EXTENDED) == []
