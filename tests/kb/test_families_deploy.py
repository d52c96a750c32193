"""data/kb/families_deploy.json: the infrastructure an Ascend node is deployed and run with, read in the forms the
tools' own sources print: container engines and registries (TLS trust, plain-HTTP registries, proxies, DNS, images
not found, logins, images in use, layers that do not unpack, names and ports taken, `--gpus` on an Ascend host),
remote execution (ssh connections, host keys, logins; sudo under Ansible), pip (hashes, PEP 668, source builds,
resolver conflicts, urllib3's retries), apt and yum/dnf (signatures, repositories, packages, dependencies, locks),
Kubernetes node preconditions (swap, cgroup drivers, kubelet, kubeadm's preflight, the API server, the pod network)
and ascend-deployer's node checks. Each entry reads members its examples do not show, says what the line gives,
gives way to a specific entry, stays quiet on ordinary lines and on every clean excerpt."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, family_overlaps, part_ids

IDS = part_ids("families_deploy")
CLASS_ENTRIES = {"NETWORK_CONNECTION_FAILED", "PIP_PACKAGE_BUILD_FAILED", "PY_HTTP_MAX_RETRIES_EXCEEDED", "SHELL_COMMAND_NOT_FOUND",
                 "SYSTEMD_SERVICE_START_FAILED", "HELM_RELEASE_FAILED", "HTTP_REQUEST_AUTH_REJECTED",
                 "NETWORK_PORT_ALREADY_IN_USE", "LINKER_LIBRARY_NOT_RESOLVED", "K8S_JOB_BACKOFF_LIMIT_REACHED",
                 "K8S_API_REQUEST_REJECTED", "FILE_PERMISSION_DENIED", "READ_ONLY_FILE_SYSTEM",
                 "KUBELET_FAILED_TO_RUN", "KUBEADM_PREFLIGHT_CHECK_FAILED"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_class_and_specific_entries_without_peer_ids(kb):
    assert len(IDS) == len(set(IDS)) == 59
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_deploy.json" and not sig.ascend_fd
        assert sig.kind == "root", sid
        assert bool(sig.fallback) == (sid in CLASS_ENTRIES), sid
    # a node whose pod network is still coming up is a condition to look at, not a failure of its own
    assert kb.signature("K8S_POD_NETWORK_NOT_READY").severity == "warn"
    # an evicted pod is rescheduled by its controller: the node's pressure is what to look at
    assert kb.signature("K8S_POD_EVICTED_NODE_PRESSURE").severity == "warn"
    # the loader ignores a preload it cannot load and the program runs on without it
    assert kb.signature("LD_PRELOAD_OBJECT_NOT_LOADED").severity == "warn"


@pytest.mark.parametrize("line, sig_id, said", [
    # TLS trust: Go's other x509 reasons, Python's own form under pip
    # (Go's `cannot validate certificate for 10.0.0.5 because it doesn't contain any IP SANs`: a certificate for
    # another name, TLS_CERTIFICATE_NAME_MISMATCH's since round 21, tests/kb/test_families_appdev.py)
    ("Could not fetch URL https://pypi.org/simple/torch-npu/: There was a problem confirming the ssl certificate: "
     "HTTPSConnectionPool(host='pypi.org', port=443): Max retries exceeded with url: /simple/torch-npu/ (Caused by "
     "SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get "
     "local issuer certificate (_ssl.c:1007)')))", "TLS_CERTIFICATE_NOT_TRUSTED", "unable to get local issuer"),
    # a registry in plain HTTP, through containerd
    ("failed to do request: Head \"https://192.168.1.10:5000/v2/ascend/mindie/manifests/1.0\": http: server gave HTTP "
     "response to HTTPS client", "CONTAINER_REGISTRY_PLAIN_HTTP", "plain HTTP"),
    # a proxy: Go's form on another registry, curl's unresolvable proxy
    ("Error response from daemon: Get \"https://swr.cn-south-1.myhuaweicloud.com/v2/\": proxyconnect tcp: dial tcp: "
     "lookup proxy.example.com: no such host", "NETWORK_PROXY_CONNECT_FAILED", "lookup proxy.example.com"),
    ("curl: (5) Could not resolve proxy: proxy.example.com", "NETWORK_PROXY_CONNECT_FAILED", "proxy.example.com"),
    # DNS: Go's resolver on another host, urllib3's new-connection failure
    ("dial tcp: lookup ascendhub.huawei.com on 10.0.0.2:53: no such host", "NETWORK_HOST_NAME_NOT_RESOLVED",
     "`ascendhub.huawei.com` could not be resolved (DNS): no such host"),
    ("WARNING: Retrying (Retry(total=4)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3."
     "connection.HTTPSConnection object at 0xffff>: Failed to establish a new connection: [Errno -3] Temporary failure "
     "in name resolution')': /simple/torch-npu/", "NETWORK_HOST_NAME_NOT_RESOLVED", "Temporary failure in name resolution"),
    # the Docker daemon: an unreachable TCP endpoint
    ("Cannot connect to the Docker daemon at tcp://10.0.0.3:2375. Is the docker daemon running?",
     "DOCKER_DAEMON_NOT_REACHABLE", "`tcp://10.0.0.3:2375`"),
    # images: Podman's manifest form, the old Docker Hub form
    ("Error: initializing source docker://ascendhub/mindspore:2.3: reading manifest 2.3 in "
     "docker.io/ascendhub/mindspore: manifest unknown", "CONTAINER_IMAGE_NOT_FOUND", "`docker.io/ascendhub/mindspore`"),
    ("Error: image library/mindie:latest not found: repository library/mindie not found: does not exist or no pull access",
     "CONTAINER_IMAGE_NOT_FOUND", "`library/mindie`"),
    ("Error response from daemon: Get \"https://harbor.local/v2/ascend/app/manifests/1.0\": unauthorized: incorrect "
     "username or password", "CONTAINER_REGISTRY_AUTH_FAILED", "incorrect username or password"),
    ("Error response from daemon: conflict: unable to remove repository reference \"mindx-dl/volcano:v1.7.0\" (must "
     "force) - container 3f2e1d0c9b8a is using its referenced image 1a2b3c4d5e6f", "CONTAINER_IMAGE_IN_USE",
     "`mindx-dl/volcano:v1.7.0` cannot be removed"),
    ("failed to register layer: Error processing tar file(exit status 1): unexpected EOF",
     "CONTAINER_IMAGE_LAYER_NOT_EXTRACTED", "unexpected EOF"),
    ("docker: Error response from daemon: driver failed programming external connectivity on endpoint mindie (abc): "
     "Error starting userland proxy: listen tcp4 0.0.0.0:1025: bind: address already in use.",
     "CONTAINER_NAME_OR_PORT_IN_USE", "listen tcp4 0.0.0.0:1025: bind: address already in use"),
    ("docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu utility]].",
     "DOCKER_GPU_DEVICE_DRIVER_MISSING", "(`gpu utility`)"),
    # ssh: another reason, Ansible's other form; a login refused for another user
    ("ssh: connect to host node-3 port 2222: No route to host", "SSH_CONNECTION_FAILED",
     "`node-3` (port 2222) failed: No route to host"),
    ("fatal: [10.0.0.7]: UNREACHABLE! => {\"changed\": false, \"msg\": \"Data could not be sent to remote host "
     "\\\"10.0.0.7\\\". Make sure this host can be reached over ssh: \", \"unreachable\": true}",
     "SSH_CONNECTION_FAILED", "`10.0.0.7`"),
    ("hwuser@10.0.0.8: Permission denied (publickey).", "SSH_AUTHENTICATION_DENIED",
     "as `hwuser` on `10.0.0.8`: permission denied (methods offered: publickey)"),
    ("Sorry, user hwuser may not run sudo on node1.", "SUDO_PRIVILEGE_ESCALATION_FAILED", "for `hwuser`"),
    ("sudo: 3 incorrect password attempts", "SUDO_PRIVILEGE_ESCALATION_FAILED", "3 incorrect password attempts"),
    # pip: the newer build summary, a resolver conflict of other packages
    ("ERROR: Failed to build installable wheels for some pyproject.toml based projects (flash-attn)",
     "PIP_PACKAGE_BUILD_FAILED", "`flash-attn`"),
    ("ERROR: Cannot install vllm==0.6.3 and vllm-ascend==0.7.3 because these package versions have conflicting "
     "dependencies.", "PIP_RESOLUTION_IMPOSSIBLE", "(vllm==0.6.3 and vllm-ascend==0.7.3)"),
    ("requests.exceptions.ProxyError: HTTPSConnectionPool(host='modelscope.cn', port=443): Max retries exceeded with "
     "url: /api/v1/models (Caused by ProxyError('Unable to connect to proxy', OSError('Tunnel connection failed: 502 "
     "Bad Gateway')))", "NETWORK_PROXY_CONNECT_FAILED", "502 Bad Gateway"),
    # apt/dnf: an expired key, yum's baseurl, an unmet dpkg dependency, the frontend lock
    ("W: GPG error: https://packages.cloud.google.com/apt kubernetes-xenial InRelease: The following signatures were "
     "invalid: EXPKEYSIG B53DC80D13EDEF05 Rapture Automatic Signing Key", "PKG_REPO_SIGNATURE_KEY_MISSING",
     "key B53DC80D13EDEF05 has expired"),
    ("Cannot find a valid baseurl for repo: base/7/aarch64", "PKG_REPO_UNREACHABLE", "`base/7/aarch64`"),
    ("No match for argument: kubeadm-1.28.2", "PKG_NOT_FOUND_IN_REPOS", "`kubeadm-1.28.2`"),
    ("dpkg: dependency problems prevent configuration of docker-ce:", "PKG_DEPENDENCIES_UNMET",
     "dependency problems prevent configuration of docker-ce:"),
    ("E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4321 (apt-get)", "PKG_MANAGER_LOCKED",
     "held by `apt-get`"),
    # Kubernetes: the swap check in kubelet's own klog form, containerd's cgroup form, the API group list,
    # another CNI
    ("Dec 05 10:00:00 node1 kubelet[1234]: E1205 10:00:00.000000 1234 run.go:74] \"command failed\" err=\"failed to "
     "run Kubelet: running with swap on is not supported, please disable swap! or set --fail-swap-on flag to false\"",
     "KUBELET_SWAP_ENABLED", "swap is on"),
    ("Unable to connect to the server: net/http: TLS handshake timeout", "K8S_API_SERVER_UNREACHABLE",
     "net/http: TLS handshake timeout"),
    ("E1205 10:00:00.000000 1234 kubelet.go:2855] \"Container runtime network not ready\" networkReady=\"NetworkReady=false "
     "reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized\"",
     "K8S_POD_NETWORK_NOT_READY", "cni config uninitialized"),
    ("\t[ERROR DirAvailable--var-lib-etcd]: /var/lib/etcd is not empty", "KUBEADM_PREFLIGHT_CHECK_FAILED",
     "`DirAvailable--var-lib-etcd` failed: /var/lib/etcd is not empty"),
    # the shell: another missing tool, another file that is not executable; a .run package whose MD5 differs
    ("./deploy.sh: line 40: docker: command not found", "SHELL_COMMAND_NOT_FOUND", "`docker`"),
    ("sh: 12: ansible-playbook: not found", "SHELL_COMMAND_NOT_FOUND", "`ansible-playbook`"),
    ("-bash: ./Ascend-cann-toolkit_8.0.RC1_linux-aarch64.run: Permission denied", "SHELL_EXEC_PERMISSION_DENIED",
     "`./Ascend-cann-toolkit_8.0.RC1_linux-aarch64.run`"),
    ("Error in MD5 checksums: 0a1b2c3d is different from 4e5f6a7b", "INSTALL_PACKAGE_ARCHIVE_CORRUPTED",
     "Error in MD5 checksums"),
    # services: another unit, dockerd's pid file, helm's pending release, containerd's missing image
    ("Job for containerd.service failed because a timeout was exceeded.", "SYSTEMD_SERVICE_START_FAILED",
     "`containerd.service` failed to start: a timeout was exceeded"),
    ("failed to start daemon, ensure docker is not running or delete /var/run/docker.pid: process with PID 123 is still "
     "running", "DOCKER_DAEMON_START_FAILED", "process with PID 123 is still running"),
    ("Error: UPGRADE FAILED: \"mindcluster\" has no deployed releases", "HELM_RELEASE_FAILED", "(UPGRADE FAILED)"),
    ("Error: No such object: mindie-server", "CONTAINER_OR_IMAGE_NOT_PRESENT", "no object `mindie-server`"),
    ("error: You must be logged in to the server (Unauthorized)", "K8S_CLIENT_UNAUTHORIZED", "(Unauthorized)"),
    # the Ascend Docker Runtime's installer: containerd's file, a product's OS check, a package of another platform
    ("[2024-01-01 10:00:00] [ERROR] upgrade failed, /etc/containerd/config.toml is invalid",
     "ASCEND_COMPONENT_INSTALLER_CHECK_FAILED", "/etc/containerd/config.toml is invalid"),
    ("[ERROR] install failed, a500a2 not support this os", "ASCEND_COMPONENT_INSTALLER_CHECK_FAILED",
     "a500a2 not support this os"),
    ("[ERROR] platform(x86_64) mismatch for ./Ascend-docker-runtime_6.0.0_linux-aarch64.run, please check it",
     "ASCEND_COMPONENT_INSTALLER_CHECK_FAILED", "platform(x86_64) mismatch"),
    # Ansible before any task, kubeadm join with a CA hash of another cluster, NFS without its export
    ("[WARNING]: Could not match supplied host pattern, ignoring: worker", "ANSIBLE_RUN_CONFIGURATION_ERROR",
     "ignoring: worker"),
    ("ERROR! No inventory was parsed, please check your configuration and options.", "ANSIBLE_RUN_CONFIGURATION_ERROR",
     "No inventory was parsed"),
    ("error execution phase preflight: couldn't validate the identity of the API Server: cluster CA found in "
     "cluster-info ConfigMap is invalid: none of the public keys \"sha256:0123\" are pinned",
     "KUBEADM_JOIN_TOKEN_REJECTED", "none of the public keys \"sha256:0123\" are pinned"),
    ("mount.nfs: requested NFS version or transport protocol is not supported", "NFS_MOUNT_FAILED",
     "requested NFS version or transport protocol is not supported"),
    # a server refusing credentials in requests' form and in a mutual-TLS handshake; a port taken by an old apiserver;
    # an eviction for memory
    ("requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://ascendhub.huawei.com/api/v1/x",
     "HTTP_REQUEST_AUTH_REJECTED", "(HTTP 401) (Unauthorized)"),
    ("level=error msg=\"register edge node failed\" error=\"remote error: tls: expired certificate\"",
     "HTTP_REQUEST_AUTH_REJECTED", "(expired certificate)"),
    ("F1205 10:00:00.000000 1 server.go:200] failed to create listener: failed to listen on 0.0.0.0:10250: listen tcp "
     "0.0.0.0:10250: bind: address already in use", "NETWORK_PORT_ALREADY_IN_USE", "`0.0.0.0:10250`"),
    # a port below 1024 refused to a user without the privilege (round 18): Go's, asyncio's (uvicorn), Node's and
    # nginx's forms, on ports and addresses the examples do not show
    ("F1206 10:00:00.000000 1 server.go:61] listen tcp 0.0.0.0:443: bind: permission denied",
     "NETWORK_PORT_BIND_PERMISSION_DENIED", "`0.0.0.0:443`: permission denied (a port below 1024 needs root"),
    ("ERROR:    [Errno 13] error while attempting to bind on address ('::', 80, 0, 0): permission denied",
     "NETWORK_PORT_BIND_PERMISSION_DENIED", "`'::', 80, 0, 0`"),
    ("Error: listen EACCES: permission denied :::8443", "NETWORK_PORT_BIND_PERMISSION_DENIED", "`:::8443`"),
    ("nginx: [emerg] bind() to [::]:80 failed (13: Permission denied)", "NETWORK_PORT_BIND_PERMISSION_DENIED",
     "`[::]:80`"),
    ("Status: Failed Reason: Evicted Message: The node was low on resource: memory.", "K8S_POD_EVICTED_NODE_PRESSURE",
     "ran low on memory"),
    # the linker: a library of another name needed by another, an -l library missing, a symbol in curly quotes
    ("/usr/bin/ld: warning: libopenblas.so.0, needed by /opt/libtorch/lib/libtorch_cpu.so, not found (try using -rpath "
     "or -rpath-link)", "LINKER_LIBRARY_NOT_RESOLVED", "`libopenblas.so.0` needed by `/opt/libtorch/lib/libtorch_cpu.so`"),
    ("/usr/bin/ld: cannot find -lopenblas: No such file or directory", "LINKER_LIBRARY_NOT_RESOLVED", "`openblas`"),
    ("/usr/bin/ld: /usr/lib64/libfoo.so: undefined reference to \u2018gfortran_etime\u2019", "LINKER_LIBRARY_NOT_RESOLVED",
     "(undefined reference to `gfortran_etime`)"),
    # kubelet given a flag removed with dockershim; sudo on a node whose own host name does not resolve
    ("Jan 01 10:00:00 node1 kubelet[1234]: Error: failed to parse kubelet flag: unknown flag: --cni-bin-dir",
     "KUBELET_FLAG_REMOVED", "(`--cni-bin-dir`)"),
    ("sudo: unable to resolve host node1: Name or service not known", "NETWORK_HOST_NAME_NOT_RESOLVED",
     "`node1` could not be resolved (DNS): Name or service not known"),
    # a group name an installer wants, taken
    ("groupadd: group 'hwMindX' already exists", "LINUX_USER_OR_GROUP_ID_TAKEN", "group 'hwMindX' already exists"),
    # the API server refusing a manifest of another cluster's API version
    ("Error from server (BadRequest): error when creating \"vcjob.yaml\": Job in version \"v1alpha1\" cannot be handled "
     "as a Job: strict decoding error: unknown field \"spec.maxRetry\"", "K8S_API_REQUEST_REJECTED", "(BadRequest)"),
    # another registry's rate limit; pip on a Python older than a package needs
    ("Error: initializing source docker://quay.io/x/y:1: reading manifest 1 in quay.io/x/y: toomanyrequests: Too Many "
     "Requests", "CONTAINER_REGISTRY_RATE_LIMITED", "Too Many Requests"),
    ("ERROR: Package 'torch-npu' requires a different Python: 3.7.5 not in '>=3.8'", "PIP_REQUIRES_DIFFERENT_PYTHON",
     "`torch-npu` into this Python (3.7.5): the package requires another Python version (>=3.8)"),
    # a device of the driver refused to a user outside its group, a log directory on a read-only mount, a preload of
    # a path that is not in the container
    ("PermissionError: [Errno 13] Permission denied: '/data/shared/ckpt/rank_0/net.ckpt'", "FILE_PERMISSION_DENIED",
     "`/data/shared/ckpt/rank_0/net.ckpt`"),
    ("level=fatal msg=\"create /var/log/npu/slog/host-0: read-only file system\"", "READ_ONLY_FILE_SYSTEM",
     "`/var/log/npu/slog/host-0`"),
    ("ERROR: ld.so: object '/usr/local/lib/libjemalloc.so' from LD_PRELOAD cannot be preloaded (cannot open shared "
     "object file): ignored.", "LD_PRELOAD_OBJECT_NOT_LOADED", "(`/usr/local/lib/libjemalloc.so`)"),
    # an AscendJob that ran out of retries
    ("message: \"Job mindx/pretrain-llama has failed because it has reached the specified backoff limit\"",
     "K8S_JOB_BACKOFF_LIMIT_REACHED", "`mindx/pretrain-llama` failed: it has reached the specified backoff limit"),
    # ascend-deployer: another check's message in the minimal callback's form
    ("10.0.0.9 | FAILED! => {\"changed\": false, \"msg\": \"Unsupported OS, OS is Ubuntu_22.04_aarch64\"}",
     "ASCEND_DEPLOYER_NODE_CHECK_FAILED", "Unsupported OS, OS is Ubuntu_22.04_aarch64"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    hits = [s.id for s in kb.explaining(line) if s.id in IDS]
    assert sig_id in hits, hits
    assert said in kb.signature(sig_id).text("en", line=line)[0], kb.signature(sig_id).text("en", line=line)[0]


def test_a_class_entry_gives_way_to_a_specific_one_on_its_line(kb):
    # kubelet's start failure for swap is the swap entry's; kubeadm's swap check too
    line = "failed to run Kubelet: running with swap on is not supported, please disable swap"
    assert [s.id for s in kb.explaining(line) if s.id in IDS] == ["KUBELET_SWAP_ENABLED"]
    assert [s.id for s in kb.explaining("\t[ERROR Swap]: running with swap on is not supported. Please disable swap")
            if s.id in IDS] == ["KUBELET_SWAP_ENABLED"]
    # a Go connection failure through a proxy is the proxy's; one to the API server is the API server's
    line = "Error response from daemon: Get \"https://harbor.local/v2/\": proxyconnect tcp: dial tcp 10.0.0.1:3128: i/o timeout"
    assert [s.id for s in kb.explaining(line) if s.id in IDS] == ["NETWORK_PROXY_CONNECT_FAILED"]
    line = "The connection to the server 10.0.0.1:6443 was refused - did you specify the right host or port?"
    assert [s.id for s in kb.explaining(line) if s.id in IDS] == ["K8S_API_SERVER_UNREACHABLE"]
    # a device node of the driver refused is the device entry's
    line = "RuntimeError: [Errno 13] Permission denied: '/dev/davinci_manager'"
    assert "FILE_PERMISSION_DENIED" not in [s.id for s in kb.explaining(line)]
    # kubectl's report of an RBAC refusal is read by the RBAC entry alone
    line = ("Error from server (Forbidden): pods is forbidden: User \"system:serviceaccount:default:x\" cannot list "
            "resource \"pods\" in API group \"\" in the namespace \"default\"")
    assert "K8S_API_REQUEST_REJECTED" not in [s.id for s in kb.explaining(line)]
    # urllib3's retries that end in a certificate failure are the certificate's
    line = ("HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /api (Caused by "
            "SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self "
            "signed certificate in certificate chain (_ssl.c:1007)')))")
    assert [s.id for s in kb.explaining(line) if s.id in IDS] == ["TLS_CERTIFICATE_NOT_TRUSTED"]


def test_a_refused_bind_is_not_a_port_in_use_nor_a_files_permission(kb):
    # the two bind failures stay apart, and Python's form without a path (socket.bind) is the errno class's, whose
    # EACCES cause now names the port as well as a file's permission bits (round 18: it said only the file's)
    assert [s.id for s in kb.explaining("listen tcp :80: bind: permission denied") if s.id in IDS] == [
        "NETWORK_PORT_BIND_PERMISSION_DENIED"]
    assert [s.id for s in kb.explaining("listen tcp :80: bind: address already in use") if s.id in IDS] == [
        "NETWORK_PORT_ALREADY_IN_USE"]
    line = "PermissionError: [Errno 13] Permission denied"
    assert [s.id for s in kb.explaining(line)] == ["OS_ERRNO_REPORTED"]
    from ascend_doctor.kb.lookup import errno_code

    cause = errno_code("13")["cause"]
    assert cause in kb.signature("OS_ERRNO_REPORTED").text("en", line=line)[0]
    assert "1024" in cause and "CAP_NET_BIND_SERVICE" in cause, cause


@pytest.mark.parametrize("line", [
    "Login Succeeded",
    "latest: Pulling from ascendhub/mindie",
    "a1b2c3d4e5f6: Pull complete",
    "Status: Image is up to date for swr.cn-south-1.myhuaweicloud.com/ascendhub/mindie:latest",
    "Untagged: ascend-nginx-manager:v1",
    "Shared connection to 10.0.0.2 closed.",
    "Connection to 10.0.0.2 closed.",
    "Warning: Permanently added '10.0.0.2' (ECDSA) to the list of known hosts.",
    "debug1: Authentications that can continue: publickey,password",
    "[sudo] password for hwuser:",
    "ok: [172.0.0.100] => {\"msg\": \"current os is Ubuntu_18.04_aarch64\"}",
    "TASK [mindx.basic : check node k8s status] ****************************************",
    "Successfully installed torch-2.1.0 torch-npu-2.1.0",
    "  Building wheel for te (setup.py) ... done",
    "Collecting torch-npu==2.1.0",
    "Hit:1 http://archive.ubuntu.com/ubuntu jammy InRelease",
    "Reading package lists... Done",
    "Waiting for cache lock: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1234 (apt)... 5s",
    "Dependencies resolved.",
    "[preflight] Running pre-flight checks",
    "\t[WARNING Service-Kubelet]: kubelet service is not enabled, please run 'systemctl enable kubelet.service'",
    "[kubelet-check] Waiting for a healthy kubelet. This can take up to 4m0s",
    "Kubernetes control plane is running at https://10.0.0.1:6443",
    "calico-node-abcde   1/1     Running   0          5m",
    "I1205 10:00:00.000000 1234 kubelet_node_status.go:70] \"Attempting to register node\" node=\"node1\"",
    "INFO: loading x509 certificate from /etc/docker/certs.d/harbor.local/ca.crt",
    "NO_PROXY=localhost,127.0.0.1,harbor.local",
    "Resolving repo.huaweicloud.com (repo.huaweicloud.com)... 1.2.3.4",
    "docker run --runtime=ascend -e ASCEND_VISIBLE_DEVICES=0 -p 8000:8000 --name mindie mindie:latest",
    "POD_NETWORK_CIDR=\"192.168.0.0/16\"",
    "ldd /usr/bin/npu-smi | grep 'not found'",
    "Verifying archive integrity...  100%   SHA256 checksums are OK. All good.",
    "Dec 05 10:00:00 node1 systemd[1]: Started Docker Application Container Engine.",
    "Release \"mindcluster\" has been upgraded. Happy Helming!",
    "chmod +x ./Ascend-hdk-910b-npu-driver_23.0.3_linux-aarch64.run",
    "  libascend_hal.so => not found",
    "[INFO] ascend-docker-runtime install success",
    "PLAY [worker] ******************************************************************",
    "which npu-smi",
    "response status code: 200",
    "I1205 10:00:00.000000 1 server.go:100] listening on :10250",
    "[preflight] Reading configuration from the cluster...",
    "10.0.0.10:/data on /mnt/data type nfs4 (rw,relatime,vers=4.1)",
    "[WARNING] uninstall skipping, the specified install path does not exist",
    # lines MindCluster's installation guide shows in the logs of components that run normally
    "[WARN]     2023/12/08 07:39:01.686205 98      container/runtime_ops.go:150    failed to get OCI connection: context "
    "deadline exceeded",
    "[ERROR] 2025/05/25 15:24:19.994588 1 pingmesh/controller.go:68 new device manager failed, err: dcmi get hccs ping "
    "mesh state failed cardID(0) deviceID(0) error code: -99998",
    "Mar 14 04:59:39 localhost.localdomain exportfs[1681536]: exportfs: Failed to stat /data/atlas_dls: No such file or "
    "directory",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS] == []


def test_a_class_of_the_network_gives_way_to_the_containers_own_entry(kb):
    line = ("docker: Error response from daemon: driver failed programming external connectivity on endpoint vllm (0a): "
            "Error starting userland proxy: listen tcp4 0.0.0.0:8000: bind: address already in use.")
    assert [s.id for s in kb.explaining(line) if s.id in IDS] == ["CONTAINER_NAME_OR_PORT_IN_USE"]
    # bash never prints a command with its arguments before 'command not found': nothing is named from such a line
    assert [s.id for s in kb.match_line("npu-smi info: command not found") if s.id == "SHELL_COMMAND_NOT_FOUND"] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS) == []


def test_one_line_is_one_problem_of_the_family(kb):
    # every example of a family entry is explained by that entry alone among the family, except where a class example
    # is a member that a specific entry of families_net_hub.json names (a refusal, a reset, a timeout) or of
    # families_k8s_container.json (kubelet stopped by a CRI endpoint without the v1 API, kubectl's NotFound object): it
    # gives way
    specific = set(part_ids("families_net_hub")) | set(part_ids("families_k8s_container"))
    assert [o for o in family_overlaps(kb, IDS)
            if not (o[2] == [] and kb.signature(o[0]).fallback and {s.id for s in kb.explaining(o[1])} <= specific)] == []


@pytest.mark.parametrize("line", [
    # an amd64 image on an aarch64 Ascend server, in runc's and the container's own words; Python's errno form
    "standard_init_linux.go:228: exec user process caused: exec format error",
    "exec /usr/local/bin/python: exec format error",
    "OSError: [Errno 8] Exec format error: './msame'",
])
def test_a_program_of_another_architecture_in_a_container_is_the_architecture_entrys(kb, line):
    # a member of the family that reads the loaders' architecture refusals (families_mindspore_docs): not a new entry
    assert "NATIVE_BINARY_WRONG_ARCHITECTURE" in [s.id for s in kb.explaining(line)]
