"""data/kb/families_k8s_container.json: containers and orchestration as a cluster job's logs, `kubectl describe` /
`kubectl get` and docker / podman / crictl output show them. Pod statuses and their reasons (OOMKilled,
CrashLoopBackOff, InvalidImageName, ErrImageNeverPull, CreateContainerConfigError, runAsNonRoot, exit codes), the
scheduler's reasons that are not NPU requests, volumes, evictions over ephemeral-storage limits, deadlines, probes,
nodes, kubectl's not-found and not-started answers, Docker's daemon and build errors, podman's and the CRI's. Each
entry reads members its examples do not show, says the member in its title, stays quiet on ordinary lines (kubelet's
Normal events, Running pods, a clean `docker ps`) and on every clean excerpt of the corpus, and one line is one problem
of the family. The members added to other parts' entries (image pulls, NPU requests in Volcano's and kubelet's
words, podman's name and pull errors, the Ascend runtime's old docker wording, kubectl's Invalid) are said too."""

import io
import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_k8s_container")
# members of other parts' entries this part's sources extend
EXTENDED = ["K8S_IMAGE_PULL_FAILED", "K8S_NPU_RESOURCE_UNAVAILABLE", "CONTAINER_NAME_OR_PORT_IN_USE",
            "CONTAINER_IMAGE_NOT_FOUND", "ASCEND_DOCKER_RUNTIME_SETUP_FAILED", "K8S_API_REQUEST_REJECTED"]
FAMILY = IDS + EXTENDED + ["K8S_POD_NODE_CONSTRAINTS_UNMET", "K8S_POD_EVICTED_NODE_PRESSURE",
                           "K8S_JOB_BACKOFF_LIMIT_REACHED", "K8S_NAMESPACE_NOT_FOUND", "K8S_HOSTPATH_TYPE_CHECK_FAILED",
                           "CONTAINER_OCI_RUNTIME_CREATE_FAILED", "DOCKER_DAEMON_NOT_REACHABLE",
                           "CONTAINER_OR_IMAGE_NOT_PRESENT", "K8S_RESOURCE_QUOTA_EXCEEDED"]
CLASS_ENTRIES = {"K8S_SCHEDULING_INSUFFICIENT_RESOURCE", "K8S_VOLUME_MOUNT_FAILED", "DOCKER_BUILD_STEP_FAILED",
                 "K8S_DEVICE_PLUGIN_ALLOCATE_FAILED"}
# lines that say a container failed, not why: the line that says why is the headline when an entry reads it
WRAPPERS = {"K8S_CONTAINER_CRASH_LOOP_BACKOFF", "CONTAINER_EXITED_WITH_CODE", "K8S_CREATE_CONTAINER_CONFIG_ERROR"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_without_peer_ids(kb):
    assert len(IDS) == 35 and len(set(IDS)) == 35
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_k8s_container.json", sid
        assert sig.kind == ("wrapper" if sid in WRAPPERS else "root"), sid
        assert not sig.ascend_fd and sig.fallback == (sid in CLASS_ENTRIES), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # pod statuses in kubectl get's columns (with the namespace column of -A) and in kubectl get -o yaml
    ("default      train-worker-3   0/1     OOMKilled   1 (5s ago)   2m", "K8S_CONTAINER_OOMKILLED",
     "pod `train-worker-3`"),
    ("          reason: OOMKilled", "K8S_CONTAINER_OOMKILLED", "more memory than its limit"),
    ("mindx-dl   noded-7x2kq   0/1   CrashLoopBackOff   12 (3m ago)   40m", "K8S_CONTAINER_CRASH_LOOP_BACKOFF",
     "pod `noded-7x2kq`"),
    ("      message: back-off 40s restarting failed container=mindie pod=mindie-server-0_infer(8d0a)",
     "K8S_CONTAINER_CRASH_LOOP_BACKOFF", "(`mindie`) in pod `mindie-server-0_infer`"),
    ("Error parsing reference: \"swr.cn-south-1.myhuaweicloud.com/ascendhub/MindIE:2.0\" is not a valid repository/tag: "
     "invalid reference format", None, None),
    ("podman: invalid reference format", "CONTAINER_IMAGE_REFERENCE_INVALID", "not a valid image reference"),
    ("  Warning  ErrImageNeverPull  3s  kubelet  Container image \"noded:v6.0.0\" is not present with pull policy of "
     "Never", "K8S_IMAGE_NEVER_PULL_NOT_PRESENT", "`noded:v6.0.0` is not on this node"),
    # ConfigMaps, Secrets and their keys in the env and volume forms
    ("  Warning  Failed  4s  kubelet  Error: configmap \"rings-config-mindx-dls-test\" not found",
     "K8S_POD_CONFIG_REFERENCE_MISSING", "configmap \"rings-config-mindx-dls-test\""),
    ("  Warning  FailedMount  9s  kubelet  MountVolume.SetUp failed for volume \"ascend-910-config\" : configmap "
     "\"rings-config-default-test\" not found", "K8S_POD_CONFIG_REFERENCE_MISSING", "configmap \"rings-config-default-test\""),
    ("Error: couldn't find key HCCL_CONNECT_TIMEOUT in ConfigMap mindx-dl/hccl-env", "K8S_POD_CONFIG_REFERENCE_MISSING",
     "key HCCL_CONNECT_TIMEOUT in ConfigMap mindx-dl/hccl-env"),
    ("  Warning  Failed  1s  kubelet  Error: container has runAsNonRoot and image will run as root (pod: "
     "\"npu-exporter-x_kube-system(1f)\", container: npu-exporter)", "K8S_RUN_AS_NON_ROOT_IMAGE_RUNS_AS_ROOT",
     "container `npu-exporter` will run as root"),
    # the scheduler's reasons: the first resource named, Volcano's forms, kubelet's admission of another resource
    ("  Warning  FailedScheduling  8s  volcano  0/2 nodes are unavailable: 2 Insufficient ephemeral-storage.",
     "K8S_SCHEDULING_INSUFFICIENT_RESOURCE", "not enough free `ephemeral-storage`"),
    ("0/5 nodes are available: 2 Insufficient cpu, 3 Insufficient memory.", "K8S_SCHEDULING_INSUFFICIENT_RESOURCE",
     "(2 node(s)): not enough free `cpu`"),
    # (`Insufficient nvidia.com/gpu`: K8S_GPU_RESOURCE_UNAVAILABLE's since round 21, tests/kb/test_families_platform_r21.py)
    ("all nodes are unavailable: 1 node(s) pod number exceeded, 2 node(s) resource fit failed.",
     "K8S_SCHEDULING_INSUFFICIENT_RESOURCE", "maximum number of pods"),
    ("  Warning  OutOfcpu  2s  kubelet  Node didn't have enough resource: cpu, requested: 96000, used: 4000, capacity: "
     "96000", "K8S_SCHEDULING_INSUFFICIENT_RESOURCE", "`cpu`"),
    ("0/2 nodes are available: 2 persistentvolumeclaim \"ckpt\" is being deleted.", "K8S_PVC_NOT_BOUND",
     "`ckpt` cannot be used: is being deleted"),
    ("0/6 nodes are available: 2 node(s) had volume node affinity conflict, 4 Insufficient huawei.com/Ascend910.",
     None, None),
    ("0/8 nodes are available: 8 node(s) were unschedulable.", "K8S_NODES_CORDONED_UNSCHEDULABLE", "8 node(s)"),
    # volumes and evictions
    ("  Warning  FailedMount  2m  kubelet  MountVolume.SetUp failed for volume \"nfs-data\" : mount failed: exit status "
     "32 Mounting command: mount Mounting arguments: -t nfs 10.0.0.5:/data /var/lib/kubelet/pods/1f/volumes/"
     "kubernetes.io~nfs/nfs-data Output: mount: wrong fs type, bad option, bad superblock on 10.0.0.5:/data",
     "K8S_VOLUME_MOUNT_FAILED", "`nfs-data` (MountVolume.SetUp failed): mount failed: exit status 32"),
    ("  Warning  FailedMount  1m  kubelet  Unable to attach or mount volumes: unmounted volumes=[dshm], unattached "
     "volumes=[], failed to process volumes=[]: timed out waiting for the condition", "K8S_VOLUME_MOUNT_FAILED",
     "`dshm`: timed out waiting for the condition"),
    ("  Warning  FailedAttachVolume  3m  attachdetach-controller  Multi-Attach error for volume \"pvc-9c55\" Volume is "
     "already exclusively attached to one node and can't be attached to another", "K8S_VOLUME_MULTI_ATTACH",
     "`pvc-9c55` is still attached to another node"),
    ("    Message:  Container mindie exceeded its local ephemeral storage limit \"500Mi\". ",
     "K8S_EPHEMERAL_STORAGE_LIMIT_EXCEEDED", "Container mindie used more local disk than its ephemeral-storage limit "
     "allows (500Mi)"),
    ("  Warning  DeadlineExceeded  0s  job-controller  Job was active longer than specified deadline",
     "K8S_ACTIVE_DEADLINE_EXCEEDED", "stopped the Job"),
    ("  Warning  Unhealthy  5s  kubelet  Startup probe errored: rpc error: code = Unknown desc = failed to exec in "
     "container: container is in CONTAINER_EXITED state", "K8S_PROBE_FAILED", "Startup probe failed"),
    # exit codes in kubectl describe's and docker ps' forms
    ("      Exit Code:    143", "CONTAINER_EXITED_WITH_CODE", "exit code 143: 128+15, stopped with SIGTERM"),
    ("      Exit Code:    135", "CONTAINER_EXITED_WITH_CODE", "128+7, a bus error"),
    ("      Exit Code:    2", "CONTAINER_EXITED_WITH_CODE", "exit code 2"),
    ("9f2c1a7b3d4e   mindspore:2.3   \"python train.py\"   1 hour ago   Exited (127) 3 minutes ago   train",
     "CONTAINER_EXITED_WITH_CODE", "command not found"),
    ("worker-7   NotReady   <none>   12d   v1.23.17", "K8S_NODE_NOT_READY", "`worker-7` is NotReady"),
    ("Error from server (BadRequest): container \"mindie\" in pod \"mindie-0\" is waiting to start: PodInitializing",
     "K8S_LOGS_CONTAINER_NOT_STARTED", "(it waits: PodInitializing)"),
    ("Error from server (NotFound): vcjobs.batch.volcano.sh \"mindx-dls-test\" not found", "K8S_OBJECT_NOT_FOUND",
     "`vcjobs.batch.volcano.sh` named `mindx-dls-test`"),
    # Docker's daemon
    ("Error response from daemon: Container 8d0a4f1e9c55 is paused, unpause the container before exec",
     "CONTAINER_NOT_RUNNING", "(it is paused)"),
    ("docker: Error response from daemon: invalid mount config for type \"bind\": bind source path does not exist: "
     "/usr/local/Ascend/add-ons", "DOCKER_BIND_MOUNT_SOURCE_UNUSABLE", "`/usr/local/Ascend/add-ons`"),
    ("Error: unable to find user mindx: no matching entries in passwd file", "CONTAINER_USER_NOT_IN_IMAGE_PASSWD",
     "`mindx`"),
    ("docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime "
     "create failed: runc create failed: unable to start container process: error during container init: cgroups: "
     "cgroup mountpoint does not exist: unknown.", "CONTAINER_CGROUP_MOUNTPOINT_MISSING", "cgroup mountpoint"),
    ("ERROR: failed to solve: process \"/bin/bash -c bash /tmp/install_cann.sh\" did not complete successfully: exit "
     "code: 127", "DOCKER_BUILD_STEP_FAILED", "(exit code 127): `bash /tmp/install_cann.sh`"),
    ("WARNING: The requested image's platform (linux/arm64) does not match the detected host platform (linux/amd64) "
     "and no specific platform was requested", "CONTAINER_IMAGE_PLATFORM_MISMATCH",
     "built for linux/arm64 but the host is linux/amd64"),
    ("Error: cannot find UID/GID for user mindx: no subgid ranges found for user \"mindx\" in /etc/subgid",
     "PODMAN_ROOTLESS_NO_SUBUID", "`/etc/subgid`"),
    ("crictl: validate service connection: validate CRI v1 image API for endpoint \"unix:///run/containerd/"
     "containerd.sock\": rpc error: code = Unimplemented desc = unknown service runtime.v1.ImageService",
     "CRI_RUNTIME_ENDPOINT_UNUSABLE", "unknown service runtime.v1.ImageService"),
    ("  Warning  FailedCreatePodSandBox  2s  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = "
     "failed to get sandbox runtime: no runtime for \"ascend-runtime\" is configured", "K8S_RUNTIME_HANDLER_NOT_CONFIGURED",
     "`ascend-runtime`"),
    ("  Warning  UnexpectedAdmissionError  1s  kubelet  Allocate failed due to rpc error: code = Unavailable desc = "
     "error reading from server: EOF, which is unexpected", "K8S_DEVICE_PLUGIN_ALLOCATE_FAILED",
     ": rpc error: code = Unavailable desc = error reading from server: EOF"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    if sig_id is None:
        # lines whose other entry comes first: the docker CLI's reference-parse wording is not read here, and a
        # node-affinity conflict beside NPUs lacking on the other nodes is not one problem of the family
        assert [s.id for s in kb.explaining(line) if s.id in IDS] in ([], ["K8S_VOLUME_NODE_AFFINITY_CONFLICT"])
        return
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    # kubelet's Normal events and the ordinary columns of kubectl get / describe
    "  Normal   Scheduled  10s  default-scheduler  Successfully assigned default/train-0 to node-1",
    "  Normal   Pulling    8s    kubelet  Pulling image \"swr.cn-south-1.myhuaweicloud.com/ascendhub/mindie:2.0\"",
    "  Normal   Pulled     2s    kubelet  Successfully pulled image \"mindie:2.0\" in 6.1s (6.1s including waiting)",
    "  Normal   Created    2s    kubelet  Created container mindie",
    "  Normal   Started    2s    kubelet  Started container mindie",
    "  Normal   Killing    10s   kubelet  Stopping container mindie",
    "  Normal   Killing    10s   kubelet  Container mindie failed liveness probe, will be restarted",
    # (kubelet's `Normal BackOff ... Back-off pulling image` is its back-off after failed pulls: K8S_IMAGE_PULL_FAILED
    # reads it since round 20, tests/kb/test_families_platform_r20.py)
    "NAME             READY   STATUS      RESTARTS   AGE",
    "train-worker-0   1/1     Running     0          5m",
    "train-worker-1   0/1     Completed   0          5m",
    "train-worker-2   0/1     Pending     0          5m",
    "train-worker-3   0/1     ContainerCreating   0          5m",
    "      Reason:       Completed",
    "      Exit Code:    0",
    "    State:          Running",
    "    Liveness:       http-get http://:1025/health delay=300s timeout=5s period=10s #success=1 #failure=3",
    "    Readiness:      exec [cat /tmp/ready] delay=10s timeout=1s period=10s #success=1 #failure=3",
    "      huawei.com/Ascend910:  8",
    "node-1   Ready    control-plane   30d   v1.28.2",
    "node/node-1 uncordoned",
    "job.batch/train created",
    "Successfully assigned default/train-0 to node-1",
    # docker / podman / BuildKit ordinary output
    "3b1f6c9e8d0a   mindie:2.0   \"bash\"   5 minutes ago   Up 2 minutes   0.0.0.0:1025->1025/tcp   mindie",
    "3b1f6c9e8d0a   mindie:2.0   \"bash\"   5 minutes ago   Exited (0) 2 minutes ago   mindie",
    "            \"OOMKilled\": false,",
    "            \"ExitCode\": 0,",
    "#8 [4/6] RUN pip install -r requirements.txt",
    "#8 DONE 52.3s",
    " => [internal] load build context                                            0.1s",
    "Successfully tagged mindie:2.0",
    "Trying to pull swr.cn-south-1.myhuaweicloud.com/ascendhub/mindie:2.0...",
    "Resolved \"ubuntu\" as an alias (/etc/containers/registries.conf.d/000-shortnames.conf)",
    "RuntimeClass ascend created",
    "  -v /usr/local/Ascend/driver:/usr/local/Ascend/driver:ro \\",
    # container runtimes and the kubelet at INFO
    "I0601 10:00:00.000000    1234 kubelet.go:2312] \"SyncLoop (PLEG): event for pod\" pod=\"default/train-0\"",
    "time=\"2025-06-01T10:00:00Z\" level=info msg=\"loading plugin \\\"io.containerd.grpc.v1.cri\\\"...\"",
    "WARNING: container is not running as root",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_a_clean_describe_and_docker_session_is_quiet(kb):
    # a running pod's describe output and a docker session of a healthy container, line by line
    text = """Name:             train-worker-0
Namespace:        default
Status:           Running
Containers:
  train:
    Image:          swr.cn-south-1.myhuaweicloud.com/ascendhub/ascend-pytorch:24.0.RC1-A2-2.1.0-ubuntu20.04
    State:          Running
      Started:      Mon, 01 Jun 2025 10:00:00 +0800
    Last State:     Terminated
      Reason:       Completed
      Exit Code:    0
    Ready:          True
    Restart Count:  1
    Limits:
      huawei.com/Ascend910:  8
      memory:                512Gi
Events:
  Type    Reason     Age   From               Message
  ----    ------     ----  ----               -------
  Normal  Scheduled  2m    default-scheduler  Successfully assigned default/train-worker-0 to node-1
  Normal  Pulled     2m    kubelet            Container image "ascend-pytorch:24.0" already present on machine
  Normal  Created    2m    kubelet            Created container train
  Normal  Started    2m    kubelet            Started container train
$ docker ps -a
CONTAINER ID   IMAGE        COMMAND   CREATED         STATUS                     PORTS   NAMES
3b1f6c9e8d0a   mindie:2.0   "bash"    5 minutes ago   Up 5 minutes                       mindie
4c5d6e7f8a9b   mindie:2.0   "bash"    1 hour ago      Exited (0) 50 minutes ago          old"""
    assert [(s.id, line) for line in text.splitlines() for s in kb.explaining(line)] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # the overlaps this part takes part in (the other parts' own overlaps are their tests'); the extended entries'
    # examples that a specific entry of this part now names give way to it: kubectl's NotFound of an object
    # (K8S_API_REQUEST_REJECTED's class example)
    ours = [o for o in family_overlaps(kb, FAMILY) if o[0] in IDS or set(o[2]) & set(IDS)]
    assert [o for o in ours if not (kb.signature(o[0]).fallback and o[2] and set(o[2]) <= set(IDS))] == []


@pytest.mark.parametrize("line, sig_id, said", [
    ("train-0   0/1     Init:ImagePullBackOff   0          3m", "K8S_IMAGE_PULL_FAILED", "for pod `train-0`"),
    ("      Reason:       ErrImagePull", "K8S_IMAGE_PULL_FAILED", "could not pull the container image"),
    ("  Warning  FailedScheduling  1m  volcano  0/2 nodes are unavailable: 2 Insufficient huawei.com/Ascend910-2c.",
     "K8S_NPU_RESOURCE_UNAVAILABLE", "`huawei.com/Ascend910-2c`"),
    ("  Warning  OutOfhuawei.com/Ascend310P  1s  kubelet  Node didn't have enough resource: huawei.com/Ascend310P, "
     "requested: 1, used: 4, capacity: 4", "K8S_NPU_RESOURCE_UNAVAILABLE", "`huawei.com/Ascend310P`"),
    ("Error: creating container storage: the container name \"vllm\" is already in use by "
     "8d0a4f1e9c551a2b3c4d5e6f3b1f6c9e. You have to remove that container to be able to reuse that name: that name is "
     "already in use", "CONTAINER_NAME_OR_PORT_IN_USE", "the container name \"vllm\" is already in use"),
    ("Error: initializing source docker://ascendhub/vllm-ascend:v0.9: reading manifest v0.9 in "
     "quay.io/ascend/vllm-ascend: requested access to the resource is denied", "CONTAINER_IMAGE_NOT_FOUND",
     "`quay.io/ascend/vllm-ascend`"),
    ("docker: Error response from daemon: Unknown runtime specified ascend-runtime.",
     "ASCEND_DOCKER_RUNTIME_SETUP_FAILED", "Unknown runtime specified ascend-runtime"),
    ("The Pod \"train-0\" is invalid: spec.containers[0].resources.limits[huawei.com/Ascend910]: Invalid value: \"0.5\": "
     "must be an integer", "K8S_API_REQUEST_REJECTED", "(Pod): spec.containers[0].resources.limits"),
])
def test_members_added_to_other_parts_entries_are_said(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


def test_kubeadm_preflight_runtime_check_is_not_a_stopped_container(kb):
    # 'container runtime is not running' is kubeadm's check of the CRI, not a container of docker exec
    line = ("\t[ERROR CRI]: container runtime is not running: output: time=\"2024-01-01T00:00:00Z\" level=fatal "
            "msg=\"validate service connection: CRI v1 runtime API is not implemented for endpoint\"")
    assert "CONTAINER_NOT_RUNNING" not in [s.id for s in kb.explaining(line)]


def test_the_reason_in_a_describe_output_is_the_headline_not_the_restart_loop(tmp_path):
    # kubectl describe of a pod in CrashLoopBackOff whose last run was OOMKilled: the OOM kill is the fault
    from ascend_doctor.triage import Triage

    log = tmp_path / "describe.log"
    log.write_text("""    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
    Restart Count:  5
Events:
  Normal   Started    3m (x6 over 12m)    kubelet  Started container train
  Warning  BackOff    2m (x50 over 12m)   kubelet  Back-off restarting failed container train in pod train-0_default(3b1f)
""", encoding="utf-8")
    t = Triage()
    t.add_stream(io.BytesIO(log.read_bytes()), str(log), None)
    result = t.result()
    assert result.first_problem().signature.id == "K8S_CONTAINER_OOMKILLED"
    assert {p.signature.id for p in result.problems} == {"K8S_CONTAINER_OOMKILLED", "K8S_CONTAINER_CRASH_LOOP_BACKOFF",
                                                         "CONTAINER_EXITED_WITH_CODE"}
