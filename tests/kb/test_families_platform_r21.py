"""data/kb/families_platform_r21.json: the platform under training jobs (round 21): TLS certificates issued for another
name, expired or refused by Python 3.13's strict X.509 checks, the NVIDIA device plugin without NVML, device plugins
that cannot register with kubelet, Slurm's GRES device files and counts, Click's usage errors, Open MPI's missing
components and failed start-up. Each entry reads members its examples do not show, says the member in its title, stays
quiet on ordinary lines and on every clean corpus excerpt; the entries of other parts this part extended read their new
members (flock's and conda's lock lines, the toml package's decode error, bash's `$1: unbound variable`, OpenSSL's
verify errors of an untrusted chain) and give the new entries their lines."""

import os

import pytest

from tests.helpers.corpus import clean_excerpt_hits
from tests.helpers.kb_parts import english_kb, explained_title, family_overlaps, part_ids

IDS = part_ids("families_platform_r21")
EXTENDED = ["TLS_CERTIFICATE_NOT_TRUSTED", "FILE_LOCK_NOT_ACQUIRED", "TOML_FILE_SYNTAX_ERROR", "SHELL_UNBOUND_VARIABLE",
            "PY_OPERAND_TYPES_DO_NOT_COMBINE", "NVIDIA_CONTAINER_CLI_FAILED", "SSH_CONNECTION_FAILED"]
FAMILY = IDS + EXTENDED + ["TLS_CONNECTION_CUT_OFF", "TLS_REFUSED_BY_SECURITY_LEVEL", "TLS_WRONG_VERSION_NUMBER_PROXY",
                           "CUDA_DRIVER_LIBRARY_NOT_FOUND", "CUDA_DRIVER_LIBRARY_MISMATCH", "NVML_CONTAINER_LOST_GPU_ACCESS",
                           "MINDX_DP_KUBELET_SOCKET_MISSING", "K8S_SCHEDULING_INSUFFICIENT_RESOURCE",
                           "K8S_NPU_RESOURCE_UNAVAILABLE", "SLURM_ALLOCATION_REJECTED", "PKG_MANAGER_LOCKED",
                           "OS_ERRNO_REPORTED", "MPIRUN_EXECUTABLE_NOT_FOUND", "SHELL_SCRIPT_SYNTAX_ERROR",
                           "OS_FILE_NOT_FOUND", "YAML_SYNTAX_ERROR",
                           "PY_MODULE_NOT_INSTALLED"]
WRAPPERS = {"MPI_RUNTIME_INIT_FAILED"}
WARNINGS = {"SYSTEMD_UNIT_CHANGED_NOT_RELOADED", "SYSCTL_KEY_NOT_WRITABLE"}


@pytest.fixture(scope="module")
def kb():
    return english_kb()


def test_the_part_is_loaded_as_specific_entries_without_peer_ids(kb):
    assert len(IDS) >= 9 and "TLS_CERTIFICATE_NAME_MISMATCH" in IDS and "SLURM_NODE_GRES_COUNT_TOO_LOW" in IDS
    for sid in IDS:
        sig = kb.signature(sid)
        assert os.path.basename(sig.origin) == "families_platform_r21.json" and not sig.ascend_fd
        assert sig.kind == ("wrapper" if sid in WRAPPERS else "root"), sid
        assert not sig.fallback and sig.severity == ("warn" if sid in WARNINGS else "fail"), sid


@pytest.mark.parametrize("line, sig_id, said", [
    # TLS: a certificate for another name, in every printer's form
    ("urllib.error.URLError: <urlopen error [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: IP address "
     "mismatch, certificate is not valid for '10.20.0.5'. (_ssl.c:1131)>", "TLS_CERTIFICATE_NAME_MISMATCH", "(`10.20.0.5`)"),
    ("requests.exceptions.SSLError: HTTPSConnectionPool(host='10.1.1.1', port=443): Max retries exceeded with url: / "
     "(Caused by SSLError(CertificateError(\"hostname '10.1.1.1' doesn't match 'mirror.example.com'\")))",
     "TLS_CERTIFICATE_NAME_MISMATCH", "it names 'mirror.example.com'"),
    ("fatal: unable to access 'https://gitlab.local/x.git/': SSL: certificate subject name (gitlab.internal) does not "
     "match target host name 'gitlab.local'", "TLS_CERTIFICATE_NAME_MISMATCH", "(`gitlab.local`); it names gitlab.internal"),
    ("curl: (51) SSL: certificate subject name 'anja.haxx.se' does not match target host name 'cool.haxx.se'",
     "TLS_CERTIFICATE_NAME_MISMATCH", "(`cool.haxx.se`)"),
    ("tls: failed to verify certificate: x509: cannot validate certificate for 10.0.0.8 because it doesn't contain any IP "
     "SANs", "TLS_CERTIFICATE_NAME_MISMATCH", "(`10.0.0.8`)"),
    ("x509: certificate is not valid for any names, but wanted to match registry.local", "TLS_CERTIFICATE_NAME_MISMATCH",
     "(`registry.local`)"),
    ("verify error:num=62:hostname mismatch", "TLS_CERTIFICATE_NAME_MISMATCH", "not issued for the name"),
    ("    ERROR: certificate common name ‘right.example’ doesn't match requested host name ‘localhost’.",
     "TLS_CERTIFICATE_NAME_MISMATCH", "(`localhost`); it names right.example"),
    ("The certificate's owner does not match hostname ‘10.0.0.9’", "TLS_CERTIFICATE_NAME_MISMATCH", "(`10.0.0.9`)"),
    # TLS: expired or not yet valid
    ("fatal: unable to access 'https://github.com/a/b.git/': SSL certificate problem: certificate is not yet valid",
     "TLS_CERTIFICATE_EXPIRED", "(`certificate is not yet valid`)"),
    ("x509: certificate has expired or is not yet valid: current time 2024-01-01T00:00:00Z is after "
     "2023-12-01T00:00:00Z", "TLS_CERTIFICATE_EXPIRED", "current time 2024-01-01T00:00:00Z is after"),
    ("verify error:num=10:certificate has expired", "TLS_CERTIFICATE_EXPIRED", "(`certificate has expired`)"),
    ("ERROR: The certificate of ‘mirrors.example.com’ has expired.", "TLS_CERTIFICATE_EXPIRED", "(`has expired`)"),
    ("  Issued certificate has expired.", "TLS_CERTIFICATE_EXPIRED", "validity period"),
    # TLS: Python 3.13's strict checks; an untrusted chain stays the trust entry's
    ("ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: Basic Constraints of CA "
     "cert not marked critical (_ssl.c:1020)", "TLS_CERT_REJECTED_BY_STRICT_X509_CHECK",
     "`Basic Constraints of CA cert not marked critical`"),
    ("requests.exceptions.SSLError: HTTPSConnectionPool(host='pypi.corp', port=443): Max retries exceeded with url: "
     "/simple/ (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify "
     "failed: Missing Authority Key Identifier (_ssl.c:1028)')))", "TLS_CERT_REJECTED_BY_STRICT_X509_CHECK",
     "`Missing Authority Key Identifier`"),
    ("verify error:num=20:unable to get local issuer certificate", "TLS_CERTIFICATE_NOT_TRUSTED",
     "unable to get local issuer certificate"),
    ("verify error:num=18:self-signed certificate", "TLS_CERTIFICATE_NOT_TRUSTED", "self-signed certificate"),
    # device plugins
    ("2020/05/06 10:11:12 Failed to initialize NVML: could not load NVML library.", "K8S_GPU_DEVICE_PLUGIN_NVML_INIT_FAILED",
     "(`could not load NVML library`)"),
    ("W1207 01:33:45.123470       1 factory.go:110] nvml init failed: ERROR_DRIVER_NOT_LOADED",
     "K8S_GPU_DEVICE_PLUGIN_NVML_INIT_FAILED", "(`ERROR_DRIVER_NOT_LOADED`)"),
    ("E1207 01:33:45.123460       1 factory.go:100] If this is a GPU node, did you set the docker default runtime to "
     "`nvidia`?", "K8S_GPU_DEVICE_PLUGIN_NVML_INIT_FAILED", "Container Toolkit"),
    ("2019/01/01 00:00:00 Could not contact Kubelet, retrying. Did you enable the device plugin feature gate?",
     "K8S_DEVICE_PLUGIN_REGISTRATION_FAILED", "contact Kubelet"),
    ("E1207 01:40:02.000001       1 server.go:138] Could not start device plugin for 'nvidia.com/gpu': listen unix "
     "/var/lib/kubelet/device-plugins/nvidia-gpu.sock: bind: read-only file system",
     "K8S_DEVICE_PLUGIN_REGISTRATION_FAILED", "(`nvidia.com/gpu`)"),
    ("[ERROR] 2026/12/07 01:40:03.000 1 server/server.go:135 connect to kubelet failed, err: context deadline exceeded",
     "K8S_DEVICE_PLUGIN_REGISTRATION_FAILED", "could not connect to kubelet: context deadline exceeded"),
    # Slurm's GRES
    ("[2019-05-01T10:00:00.000] error: Setting node gpu01 state to INVAL with reason:gres/gpu count reported lower than "
     "configured (2 < 4)", "SLURM_NODE_GRES_COUNT_TOO_LOW", "`gres/gpu` on the node than are configured for it (2 < 4)"),
    ("gpu-07      gres/gpu:h100 count too low (0 < 8)      slurm 2026-12-07T01:41:00", "SLURM_NODE_GRES_COUNT_TOO_LOW",
     "`gres/gpu:h100`"),
    ("slurmd: error: Waiting for gres.conf file /dev/nvidia3", "SLURM_GRES_DEVICE_FILE_MISSING", "`/dev/nvidia3`"),
    ("[2026-12-07T01:42:20.001] fatal: can't stat gres.conf file /dev/davinci7: Permission denied",
     "SLURM_GRES_DEVICE_FILE_MISSING", "`/dev/davinci7`: Permission denied"),
    # locks
    ("flock: timeout while waiting to get lock", "FILE_LOCK_NOT_ACQUIRED", "could not be acquired"),
    ("conda.exceptions.LockError: Failed to acquire lock.", "FILE_LOCK_NOT_ACQUIRED", "another process holds it"),
    # Click, TOML, the shell
    ("Error: no such option: --num-gpu", "CLICK_CLI_USAGE_ERROR", "(no such option `--num-gpu`)"),
    ("Error: No such command 'strat'.", "CLICK_CLI_USAGE_ERROR", "No such command `'strat'`"),
    ("Error: Missing argument 'MODEL'.", "CLICK_CLI_USAGE_ERROR", "Missing argument"),
    ("toml.decoder.TomlDecodeError: Key name found without value. Reached end of line. (line 2 column 5 char 10)",
     "TOML_FILE_SYNTAX_ERROR", "(line 2)"),
    ("./train.sh: line 12: $2: unbound variable", "SHELL_UNBOUND_VARIABLE", "(`$2`)"),
    # extensions, sockets, containers under WSL
    ("ImportError: dynamic module does not define module export function (PyInit__C)", "PY_EXTENSION_NO_INIT_FUNCTION",
     "`_C` but found no init function for it (`PyInit__C`)"),
    ("ImportError: dynamic module does not define init function (initfoo)", "PY_EXTENSION_NO_INIT_FUNCTION", "(`initfoo`)"),
    ("ray.exceptions.RaySystemError: System error: AF_UNIX path length cannot exceed 107 bytes",
     "UNIX_SOCKET_PATH_TOO_LONG", "(107 bytes)"),
    ("OSError: AF_UNIX path length cannot exceed 103 bytes: '/var/folders/xy/T/ray/session_1/sockets/plasma_store'",
     "UNIX_SOCKET_PATH_TOO_LONG", "`/var/folders/xy/T/ray/session_1/sockets/plasma_store`"),
    ("nvidia-container-cli: initialization error: WSL environment detected but no adapters were found: unknown.",
     "NVIDIA_CONTAINER_CLI_FAILED", "no GPU adapter is exposed to it"),
    # GPUs in Kubernetes, setuptools' pkg_resources, Slurm's MPI plugins, YAML's reader, systemd, sysctl
    ("  Warning  FailedScheduling  1m  default-scheduler  0/6 nodes are available: 2 Insufficient cpu, 4 Insufficient "
     "nvidia.com/gpu.", "K8S_GPU_RESOURCE_UNAVAILABLE", "(`nvidia.com/gpu`): 4 node(s)"),
    ("  Warning  OutOfnvidia.com/gpu  10s  kubelet  Node didn't have enough resource: nvidia.com/gpu, requested: 8, used: 0, "
     "capacity: 0", "K8S_GPU_RESOURCE_UNAVAILABLE", "requested 8, available 0"),
    ("AttributeError: module 'pkg_resources' has no attribute 'packaging'", "SETUPTOOLS_PKG_RESOURCES_REMOVED",
     "setuptools 70 removed"),
    ("ModuleNotFoundError: No module named 'pkg_resources'", "SETUPTOOLS_PKG_RESOURCES_REMOVED", "setuptools 82 removed"),
    ("srun: error: cannot find mpi plugin for mpi/pmix", "SLURM_MPI_PLUGIN_NOT_AVAILABLE", "(`mpi/pmix`)"),
    ("slurmd: error: Couldn't load specified plugin name for mpi/pmix_v4: Plugin init() callback failed",
     "SLURM_MPI_PLUGIN_NOT_AVAILABLE", "(`mpi/pmix_v4`): Plugin init() callback failed"),
    ("srun: error: \"--mpi=pmix\" -- long invalid MPI type, --mpi=list for acceptable types.",
     "SLURM_MPI_PLUGIN_NOT_AVAILABLE", "(`pmix`)"),
    ("yaml.reader.ReaderError: unacceptable character #x00e9: invalid continuation byte", "YAML_FILE_UNACCEPTABLE_CHARACTER",
     "`#x00e9`: invalid continuation byte"),
    ("Warning: The unit file, source configuration file or drop-ins of ray-head.service changed on disk. Run 'systemctl "
     "--user daemon-reload' to reload units.", "SYSTEMD_UNIT_CHANGED_NOT_RELOADED", "`ray-head.service`"),
    ("sysctl: permission denied on key \"net.core.somaxconn\"", "SYSCTL_KEY_NOT_WRITABLE", "`net.core.somaxconn`"),
    ("It looks like pmix_init failed for some reason; your parallel process is", "MPI_RUNTIME_INIT_FAILED", "`pmix_init`"),
    # ssh, glibc's overflow checks
    ("sign_and_send_pubkey: no mutual signature supported", "SSH_NO_MUTUAL_SIGNATURE_ALGORITHM", "`ssh-rsa`"),
    ("Connection closed by 10.0.0.2 port 22", "SSH_CONNECTION_FAILED", "`10.0.0.2` (port 22) failed: Connection closed"),
    ("*** stack smashing detected ***: ./train_bin terminated", "NATIVE_BUFFER_OVERFLOW_DETECTED",
     "(stack smashing detected, in `./train_bin`)"),
    ("*** buffer overflow detected ***: terminated", "NATIVE_BUFFER_OVERFLOW_DETECTED", "(buffer overflow detected)"),
    # NVML under WSL
    ("Failed to properly shut down NVML: GPU access blocked by the operating system", "NVML_GPU_ACCESS_BLOCKED_BY_OS",
     "the operating system blocks access"),
    # f-strings of Python 3.12, FUSE
    ("    SyntaxError: f-string expression part cannot include a backslash",
     "PY_FSTRING_BACKSLASH_NEEDS_PY312", "only from 3.12"),
    ("fusermount3: fuse device /dev/fuse not found. Kernel module not loaded?", "FUSE_DEVICE_NOT_AVAILABLE", "(`/dev/fuse`)"),
    ("fusermount: failed to open /dev/fuse: Permission denied", "FUSE_DEVICE_NOT_AVAILABLE", "(`/dev/fuse`): Permission denied"),
    # Open MPI
    ("No components were able to be opened in the btl framework.", "MPI_COMPONENT_NOT_FOUND", "`btl` framework"),
    ("It looks like opal_init failed for some reason; your parallel process is", "MPI_RUNTIME_INIT_FAILED", "`opal_init`"),
])
def test_family_entries_read_other_members_and_say_them(kb, line, sig_id, said):
    title = explained_title(kb, line, sig_id, among=FAMILY)
    assert said in title, title


@pytest.mark.parametrize("line", [
    "verify return:1", "subject=CN = right.example", "* subjectAltName: host \"right.example\" matched cert's \"right.example\"",
    "X509v3 Subject Alternative Name: DNS:right.example", "hostname = socket.gethostname()",
    "notAfter=Dec  7 01:32:36 2026 GMT", "WARNING: certificate expires in 7 days", "Verify return code: 0 (ok)",
    "ctx.verify_flags &= ~ssl.VERIFY_X509_STRICT", "X509v3 Basic Constraints: critical",
    "I1207 01:33:45.123456       1 main.go:279] Retrieving plugins.", "Loading NVML",
    "I1207 factory.go:107] Detected NVML platform: found NVML library", "No devices found. Waiting indefinitely.",
    "I1207 01:40:02 server.go:169] Registered device plugin for 'nvidia.com/gpu' with Kubelet",
    "[INFO] 2026/12/07 01:40:03.000 1 server/server.go:57 register Ascend910 to kubelet success.",
    "NodeName=gpu-07 Gres=gpu:8 State=IDLE", "gres/gpu count changed on node gpu-07 to 8",
    "slurmd: gres.conf file /dev/nvidia3 now exists", "Name=gpu Type=a100 File=/dev/nvidia[0-3]",
    "flock -n /tmp/train.lock python train.py", "Lock 140245 acquired on /tmp/x.lock",
    "Usage: ray start [OPTIONS]", "Try 'ray start --help' for help.", "  --num-gpus INTEGER  the number of GPUs",
    "Framework: pml", "MCA pml: ucx (MCA v2.1.0, API v2.0.0, Component v4.1.5)", "MPI_Init completed on rank 0",
    "set -euo pipefail", "echo ${MODEL_PATH:-/models}", "lr: 5.0e-4", "PYBIND11_MODULE(my_ext, m) {",
    "export TMPDIR=/tmp", "nvidia-container-cli: info: WSL environment detected", "    nvidia.com/gpu:     8",
    "  Normal   Scheduled  10s  default-scheduler  Successfully assigned default/job-0 to gpu-07", "import pkg_resources",
    "MPI plugin types are...", "specific pmix plugin versions available: pmix_v5", "srun --mpi=pmix ./train",
    "  in \"nul.yaml\", position 7", "systemctl daemon-reload", "vm.swappiness = 10", "sysctl -w net.core.somaxconn=4096",
    "debug1: Authentication succeeded (publickey).", "Connection to 10.0.0.2 closed.", "-fstack-protector-strong",
    "Connection closed by authenticating user root 10.0.0.2 port 22 [preauth]", "print(f\"{sep.join(lines)}\")",
    "crw-rw-rw- 1 root root 10, 229 Dec  7 01:00 /dev/fuse", "/usr/lib/wsl/lib/nvidia-smi",
])
def test_family_entries_stay_quiet_on_ordinary_lines(kb, line):
    assert [s.id for s in kb.match_line(line) if s.id in IDS + EXTENDED] == []


def test_family_entries_stay_quiet_on_every_clean_excerpt(kb):
    assert clean_excerpt_hits(kb, IDS + EXTENDED) == []


def test_one_line_is_one_problem_of_the_family(kb):
    assert family_overlaps(kb, FAMILY) == []


def test_the_lines_other_entries_read_stay_theirs(kb):
    # nvidia-smi's own NVML failures keep their entries; the Ascend plugin's missing socket keeps its entry
    explained_title(kb, "Failed to initialize NVML: Driver/library version mismatch", "CUDA_DRIVER_LIBRARY_MISMATCH",
                    among=FAMILY)
    line = "[ERROR] 2026/12/07 01:40:03.000 1 server/server.go:62 register to kubelet failed, err: check kubelet socket file path failed"
    explained_title(kb, line, "MINDX_DP_KUBELET_SOCKET_MISSING", among=FAMILY)
    # a YAML number without a dot stays the operand entry's, whose cause says so
    line = "TypeError: '<=' not supported between instances of 'float' and 'str'"
    explained_title(kb, line, "PY_OPERAND_TYPES_DO_NOT_COMBINE", among=FAMILY)
    assert "5e-4" in kb.signature("PY_OPERAND_TYPES_DO_NOT_COMBINE").cause
