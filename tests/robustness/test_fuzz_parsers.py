"""Property tests for every parser of untrusted input: no input makes one raise; each parse gives a
value or a reported error.

CI runs them with the "ci" hypothesis profile (tests/conftest.py); `scripts/fuzz.py --examples N`
runs the same properties with a larger budget and prints examples tried and crashes per parser.
Each property counts its examples in EXAMPLES so the script can report them.
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import tempfile

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ascend_doctor.host import Host, CommandResult, FileMissing, PythonInfo, SnapshotError, SnapshotHost

EXAMPLES: "collections.Counter[str]" = collections.Counter()
FUZZ = settings(deadline=None, suppress_health_check=list(HealthCheck))

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(os.path.dirname(HERE), "fixtures")


def _read(path):
    with open(path, encoding="utf-8", errors="replace") as fh:
        return fh.read()


def _samples(*rel):
    out = []
    for r in rel:
        p = os.path.join(FIXTURES, r)
        if os.path.isfile(p):
            out.append(_read(p))
    return out or ["Version=1.0\n"]


def _recorded(fixture, argv0):
    """stdout of a recorded command in a fixture snapshot (real samples to mutate)."""
    path = os.path.join(FIXTURES, fixture, "commands.json")
    if not os.path.isfile(path):
        return []
    with open(path) as fh:
        return [c.get("stdout") or "" for c in json.load(fh) if c.get("argv", [""])[0].endswith(argv0)]


# Text the parsers meet: arbitrary Unicode, arbitrary bytes decoded as the hosts decode them, and
# real samples cut and spliced with junk.
def _decoded(b: bytes) -> str:
    text = b.decode("utf-8", errors="replace")
    return text[1:] if text.startswith("\ufeff") else text


raw_text = st.one_of(st.text(max_size=400), st.binary(max_size=400).map(_decoded),
                     st.sampled_from(["", "\r\n", "\ufeff", "\x00" * 8, "=" * 50, "[" * 300, "|" * 200]))


def mutated(samples):
    """A real sample, cut, with junk spliced in and line endings changed."""
    @st.composite
    def build(draw):
        text = draw(st.sampled_from(samples))
        cut = draw(st.integers(0, len(text)))
        pos = draw(st.integers(0, cut))
        junk = draw(raw_text)
        text = text[:pos] + junk + text[pos:cut]
        if draw(st.booleans()):
            text = text.replace("\n", "\r\n")
        return text
    return st.one_of(raw_text, build())


VERSION_INFO = _samples("a2_healthy/root/usr/local/Ascend/driver/version.info",
                        "a2_healthy/root/usr/local/Ascend/firmware/version.info",
                        "a2_healthy/root/usr/local/Ascend/ascend-toolkit/8.0.RC3/compiler/version.info",
                        "a2_healthy/root/etc/ascend_install.info",
                        "a2_healthy/root/usr/local/Ascend/ascend-toolkit/8.0.RC3/aarch64-linux/ascend_toolkit_install.info",
                        "a2_healthy/root/usr/local/Ascend/ascend-toolkit/8.0.RC3/version.cfg")
NPU_SMI = _recorded("a2_healthy", "npu-smi") + _recorded("a3_node", "npu-smi") + _recorded("infer_310p", "npu-smi")
NVIDIA_SMI = _recorded("gpu_node", "nvidia-smi") + _recorded("gpu_driver_mismatch", "nvidia-smi") or ["NVIDIA-SMI 1"]
HCCN_CONF = _samples("distributed_910b_node/root/etc/hccn.conf")
RANK_TABLES = _samples("distributed_910b_node/root/user/config/hccl.json", "cluster/rank_table_2servers.json")
METADATA = _samples("cpu_only/root/opt/conda/envs/ms/lib/python3.9/site-packages/mindspore-1.10.1.dist-info/METADATA")
FIB_TRIE = _samples("cluster/proc_net_fib_trie")
LOGS = _samples("smoke/msrun_nojoin_scheduler.log", "smoke/msrun_nojoin_worker_0.log",
                "smoke/graph_compile_typeerror_stderr.txt")
# Lines the knowledge base recognises (its documented examples), so mutations hit real signatures.
with open(os.path.join(os.path.dirname(FIXTURES), "..", "data", "knowledge_base.json"), encoding="utf-8") as _fh:
    LOGS.append("\n".join(ex for sig in json.load(_fh)["signatures"] for ex in sig.get("examples", [])[:1]))


# -- versions --------------------------------------------------------------------------------

version_text = st.one_of(raw_text, st.lists(st.one_of(st.integers(0, 10 ** 6).map(str), st.sampled_from(
    ["RC1", "rc3", "alpha001", "beta1", "T11", "B070", "SPC001", "post1", "dev", ""])), max_size=8).map(".".join))


@FUZZ
@given(version_text, version_text)
def test_fuzz_version_strings(a, b):
    from ascend_doctor import versions as v

    EXAMPLES["version strings"] += 1
    pa = v.parse_version(a)
    assert isinstance(pa.valid, bool)
    assert v.compare_versions(a, b) == -v.compare_versions(b, a)
    v.major_minor(a), v.python_major_minor(a), v.parse_range_list(a), v.innerversion_code(a)
    v.parse_innerversion_list(a), v.innerversion_listed(a, b), v.release_matches(a, b)
    assert v.vendor_in_range(a, a, b) in (True, False)
    v.vendor_firmware_too_old(a)


# -- key=value files, through the probes -----------------------------------------------------

class MemoryHost(Host):
    """Files and command output from memory: the probes' view of a machine, built per example."""

    kind = "snapshot"
    label = "fuzz"

    def __init__(self, files=None, commands=None, env=None):
        self.files = dict(files or {})
        self.commands = dict(commands or {})
        self._env = dict(env or {})

    def read_text(self, path, max_bytes=1 << 20):
        if path not in self.files:
            raise FileMissing(f"{path}: no such file")
        return self.files[path]

    def exists(self, path):
        return path in self.files or self.is_dir(path)

    def is_file(self, path):
        return path in self.files

    def is_dir(self, path):
        prefix = path.rstrip("/") + "/"
        return any(p.startswith(prefix) for p in self.files)

    def listdir(self, path):
        prefix = path.rstrip("/") + "/"
        names = {p[len(prefix):].split("/")[0] for p in self.files if p.startswith(prefix)}
        if not names:
            raise FileMissing(f"{path}: no such directory")
        return sorted(names)

    def realpath(self, path):
        return path

    @property
    def env(self):
        return self._env

    @property
    def python(self):
        return PythonInfo("3.9.2", "/usr/bin/python3", site_packages=["/sp"])

    def machine(self):
        return {"hostname": "fuzz", "arch": "aarch64"}

    def disk_usage(self, path):
        return None

    def which(self, name):
        return None

    def run(self, argv, timeout=10.0):
        out = self.commands.get(tuple(argv))
        if out is None:
            return CommandResult(list(argv), None, error="not-recorded")
        return CommandResult(list(argv), 0, out)


ASCEND = "/usr/local/Ascend"
TOOLKIT = ASCEND + "/ascend-toolkit/latest"


@FUZZ
@given(mutated(VERSION_INFO), mutated(VERSION_INFO), mutated(VERSION_INFO), mutated(VERSION_INFO))
def test_fuzz_version_info_install_info_version_cfg(driver, install, toolkit_info, cfg):
    from ascend_doctor.probes import ascend_driver, cann
    from ascend_doctor.probes.kv import looks_binary, parse_bracket_list, parse_key_values, parse_version_cfg

    EXAMPLES["version.info / *_install.info / version.cfg"] += 1
    for text in (driver, install, toolkit_info, cfg):
        parse_key_values(text, lower_keys=True), parse_bracket_list(text), parse_version_cfg(text), looks_binary(text)
    host = MemoryHost({
        "/etc/ascend_install.info": install,
        ASCEND + "/driver/version.info": driver,
        ASCEND + "/firmware/version.info": driver,
        TOOLKIT + "/aarch64-linux/ascend_toolkit_install.info": toolkit_info,
        TOOLKIT + "/version.cfg": cfg,
        TOOLKIT + "/compiler/version.info": driver,
    }, env={"ASCEND_HOME_PATH": TOOLKIT})
    drv = ascend_driver.probe_driver(host, None)
    # a value or a reported error (the driver file may sit under another prefix install.info names)
    assert drv.version is not None or drv.errors or not drv.installed
    fw = ascend_driver.probe_firmware(host, None)
    assert fw.version is not None or fw.errors or not fw.installed
    facts = cann.probe_cann(host, None)
    for inst in facts.installs:
        assert inst.compiler_version is not None or inst.errors or "compiler" not in inst.components


# -- npu-smi ---------------------------------------------------------------------------------

@FUZZ
@given(mutated(NPU_SMI or ["+---+"]))
def test_fuzz_npu_smi_tables(text):
    from ascend_doctor.probes.npu_smi import parse_npu_smi_info, probe_npu
    from ascend_doctor.probes import ProbeOptions

    EXAMPLES["npu-smi tables"] += 1
    devices, banner, layout, procs, idle, errors = parse_npu_smi_info(text)
    assert devices or banner or errors or not text.strip() or not any(c in text for c in "|+")
    facts = probe_npu(MemoryHost(commands={("npu-smi", "info"): text}), ProbeOptions(timeout=1))
    assert facts.devices or facts.errors or facts.tool_version or not text.strip()


# -- nvidia-smi and the other CUDA outputs ---------------------------------------------------

@FUZZ
@given(mutated(NVIDIA_SMI), raw_text)
def test_fuzz_nvidia_smi_banners_and_cuda_files(text, other):
    from ascend_doctor.probes import cuda

    EXAMPLES["nvidia-smi banners, query, nvcc, cuDNN, version.json"] += 1
    parsed = cuda.parse_nvidia_smi_banner(text)
    assert parsed is None or isinstance(parsed[0], str)
    gpus, errors = cuda.parse_nvidia_smi_query(text)
    assert all(isinstance(g["index"], str) for g in gpus) and isinstance(errors, list)
    for t in (text, other):
        cuda.parse_proc_driver_version(t), cuda.parse_nvcc_release(t), cuda.parse_cudnn_header(t)
        cuda.parse_cuda_version_json(t)
    facts = cuda.probe_cuda(MemoryHost(commands={("nvidia-smi",): text}), None)
    assert facts.driver_version or facts.nvidia_smi_unusable or facts.errors


# -- hccn ------------------------------------------------------------------------------------

@FUZZ
@given(mutated(HCCN_CONF), raw_text)
def test_fuzz_hccn_conf_and_tool_output(conf, out):
    from ascend_doctor.probes import hccn

    EXAMPLES["hccn.conf / hccn_tool output"] += 1
    parsed, errors = hccn.parse_hccn_conf(conf)
    assert parsed or errors or not conf.strip() or all(
        not l.strip() or l.strip().startswith("#") for l in conf.splitlines())
    hccn.parse_hccn_ip(out), hccn.parse_hccn_link(out), hccn.parse_hccn_net_health(out)
    hccn.probe_hccn(MemoryHost({"/etc/hccn.conf": conf}), None)


def _port_outputs(*snapshots):
    """The hccn_tool port outputs of the network snapshots (built from hccn_tool.md samples): each form once."""
    out = {}
    for snap in snapshots:
        with open(os.path.join(FIXTURES, "network", snap, "commands.json")) as fh:
            for rec in json.load(fh):
                if rec["argv"][0].endswith("hccn_tool") and rec["stdout"]:
                    out.setdefault((rec["argv"][3], rec["stdout"].split("\n", 1)[0][:12]), rec["stdout"])
    return sorted(out.values())


PORT_OUTPUTS = _port_outputs("healthy", "healthy_older_driver", "link_down", "optical_absent", "peers_a")


@FUZZ
@given(mutated(PORT_OUTPUTS))
def test_fuzz_hccn_port_outputs(out):
    """Every port parser takes any cut or spliced output without raising, and gives its type or None."""
    from ascend_doctor.probes import hccn

    EXAMPLES["hccn_tool port outputs"] += 1
    for _flag, _attr, parse, _expected in hccn.QUERIES[1:]:
        parse(out)
    stat = hccn.parse_link_stat(out)
    assert stat is None or isinstance(stat.up_count, int)
    opt = hccn.parse_optical(out)
    assert opt is None or all(isinstance(v, float) for v in list(opt.tx_power.values()) + list(opt.rx_power.values()))
    assert hccn.parse_ping(out) is None or all(isinstance(n, int) for n in hccn.parse_ping(out))


# -- rank tables -----------------------------------------------------------------------------

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=False),
                      st.text(max_size=20))
json_value = st.recursive(json_leaf, lambda c: st.one_of(st.lists(c, max_size=4),
                                                         st.dictionaries(st.text(max_size=12), c, max_size=4)),
                          max_leaves=20)


@st.composite
def mutated_json(draw, samples):
    doc = json.loads(draw(st.sampled_from(samples)))
    for _ in range(draw(st.integers(0, 4))):
        node = doc
        for _ in range(draw(st.integers(0, 3))):
            if isinstance(node, dict) and node:
                node = node[draw(st.sampled_from(sorted(node)))]
            elif isinstance(node, list) and node:
                node = node[draw(st.integers(0, len(node) - 1))]
        if isinstance(node, dict) and node:
            node[draw(st.sampled_from(sorted(node)))] = draw(json_value)
        elif isinstance(node, list) and node:
            node[draw(st.integers(0, len(node) - 1))] = draw(json_value)
    return json.dumps(doc)


@FUZZ
@given(st.one_of(mutated(RANK_TABLES), mutated_json(RANK_TABLES)))
@example('{"version": "1.0", "server_list": [{"server_id": "192.0.2.10", "device": true}]}')  # found by fuzzing
@example("null")  # found by fuzzing: valid JSON, no table, and no problem was reported
def test_fuzz_rank_tables(text):
    from ascend_doctor.rank_table import summarise_rank_table, validate_rank_table_text

    EXAMPLES["rank tables"] += 1
    table = validate_rank_table_text(text)
    assert table.problems or table.format  # a verdict on a table, or the reasons it is not one
    errors = []
    summary = summarise_rank_table(text, "hccl.json", errors)
    assert summary["servers"] or errors or summary.get("servers_listed") is not None


# -- snapshot manifests ----------------------------------------------------------------------

MANIFEST = {"format": "ascend-doctor-snapshot/1", "hostname": "n1",
            "python": {"version": "3.9.2", "executable": "/usr/bin/python3", "site_packages": ["/sp"]},
            "machine": {"disks": {"/": {"total_mb": 1, "free_mb": 1}}}}
_snap_dir = tempfile.mkdtemp(prefix="ascend-doctor-fuzz-")


@FUZZ
@given(st.one_of(mutated_json([json.dumps(MANIFEST)]), mutated([json.dumps(MANIFEST)])),
       st.one_of(st.just(None), mutated_json(['{"PATH": "/usr/bin", "RANK_ID": "0"}']), raw_text),
       st.one_of(st.just(None), mutated_json(['[{"argv": ["npu-smi", "info"], "rc": 0, "stdout": "x"}]']), raw_text))
@example(json.dumps(dict(MANIFEST, python=True)), None, None)  # found by fuzzing
@example(json.dumps(dict(MANIFEST, machine=True)), None, None)
@example(json.dumps(dict(MANIFEST, machine={"disks": {"/": None}})), None, None)
@example(json.dumps(dict(MANIFEST, python={"site_packages": {"a": 1}})), None, None)
def test_fuzz_snapshot_manifests(manifest, env, commands):
    EXAMPLES["snapshot manifests"] += 1
    shutil.rmtree(_snap_dir, ignore_errors=True)
    os.makedirs(os.path.join(_snap_dir, "root"))
    for name, text in (("manifest.json", manifest), ("env.json", env), ("commands.json", commands)):
        if text is not None:
            with open(os.path.join(_snap_dir, name), "w", encoding="utf-8", errors="surrogatepass") as fh:
                fh.write(text)
    try:
        host = SnapshotHost(_snap_dir)
    except SnapshotError as exc:
        assert str(exc)  # refused, with a reason
        return
    host.python, host.machine(), host.env, host.disk_usage("/x"), host.which("npu-smi")
    host.run(["npu-smi", "info"])


# -- JSON reports from other nodes (aggregate, baseline) --------------------------------------

REPORT = json.dumps({"schema": "ascend-doctor.report/1", "tool": {"name": "ascend-doctor"}, "host": {"name": "n"},
                     "facts": {"driver": {"installed": True, "version": "24.1.rc3"}, "npu": {"devices": []},
                               "cann": {"installs": []}, "mindspore": {"version": "2.6.0"},
                               "extra": {"launch": {"name": "n-rank0", "rank": 0, "world_size": 2,
                                                    "variables": {"HCCL_CONNECT_TIMEOUT": "600"},
                                                    "addresses": ["192.0.2.1"]}}},
                     "findings": [{"id": "a.b", "status": "fail", "title": "t", "summary": "s", "fix": ["x"]}],
                     "summary": {}})


@FUZZ
@given(mutated_json([REPORT]))
@example(REPORT.replace('"fix": ["x"]', '"fix": true'))  # found by fuzzing
@example(REPORT.replace('"launch": {', '"launch": [{').replace('"192.0.2.1"]}}}', '"192.0.2.1"]}]}}'))
@example(REPORT.replace('"installs": []', '"installs": [1]'))
def test_fuzz_reports_from_other_nodes(text):
    from ascend_doctor.aggregate import summarise_report
    from ascend_doctor.baseline import Baseline, BaselineError

    EXAMPLES["JSON reports (aggregate, baseline)"] += 1
    data = json.loads(text)
    try:
        summarise_report(data, "node.json")
    except ValueError as exc:
        assert str(exc)
    try:
        Baseline.from_report(data, "base.json").drift_from({"Driver": "1"})
    except BaselineError as exc:
        assert str(exc)


# -- launch environment, HCCL variables, /proc/net/fib_trie, MindSpore metadata ----------------

env_values = st.one_of(st.text(max_size=30), st.sampled_from(["0", "-1", "65536", "1e9", "60000-60100", "a,b", ""]))


@FUZZ
@given(st.dictionaries(st.sampled_from(["RANK_ID", "RANK_SIZE", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID",
                                        "HCCL_CONNECT_TIMEOUT", "HCCL_EXEC_TIMEOUT", "HCCL_IF_IP",
                                        "HCCL_SOCKET_IFNAME", "HCCL_IF_BASE_PORT", "HCCL_NPU_SOCKET_PORT_RANGE",
                                        "HCCL_ALGO", "HCCL_BUFFSIZE", "HCCL_OP_RETRY_ENABLE", "HCCL_OP_RETRY_PARAMS",
                                        "HCCL_DFS_CONFIG", "HCCL_WHITELIST_FILE", "HCCL_CONECT_TIMEOUT",
                                        "MS_ROLE", "POD_IP"]), env_values, max_size=8),
       mutated(FIB_TRIE), mutated(METADATA))
def test_fuzz_launch_env_hccl_vars_fib_trie_metadata(env, fib, metadata):
    from ascend_doctor.hccl_env import name_issues, parse_port_ranges, validate_hccl_env
    from ascend_doctor.probes import launch, mindspore_pkg

    EXAMPLES["launch env, HCCL variables, fib_trie, METADATA"] += 1
    validate_hccl_env(env), name_issues(env)
    for value in env.values():
        parse_port_ranges(value)
    facts = launch.probe_launch(MemoryHost({"/proc/net/fib_trie": fib}, env=env), None)
    assert facts.name and isinstance(facts.errors, list)
    launch.parse_local_addresses(fib), launch.safe_node_name(fib)
    meta = mindspore_pkg.parse_metadata(metadata)
    assert isinstance(meta, dict)
    mindspore_pkg.parse_wheel_tags(metadata), mindspore_pkg.parse_checker_list(metadata, "AscendEnvChecker")


# -- log lines -------------------------------------------------------------------------------

@FUZZ
@given(mutated(LOGS))
def test_fuzz_log_lines(text):
    from ascend_doctor.smoke.classify import useful_stderr_lines
    from ascend_doctor.smoke.distributed import registered_ranks
    from ascend_doctor.smoke.runner import parse_line

    EXAMPLES["log lines (smoke stderr, msrun logs, child protocol, triage)"] += 1
    lines = useful_stderr_lines(text, keep=text.splitlines()[:2])
    assert len(lines) <= 12 + 2
    registered_ranks(text)
    for line in text.splitlines()[:50]:
        msg = parse_line(line)
        assert msg is None or "event" in msg
    # triage: the knowledge base's signatures over the same lines, and the whole-file scanner
    from ascend_doctor.kb.load import load_knowledge_base
    from ascend_doctor.triage import triage_paths

    global _KB
    if _KB is None:
        _KB = load_knowledge_base()
    for sig, line in _KB.match_lines(text.splitlines()[:200]):
        assert sig.id and isinstance(line, str)
    path = os.path.join(_snap_dir, "worker_0.log")
    os.makedirs(_snap_dir, exist_ok=True)
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
        fh.write(text)
    result = triage_paths([path], _KB)
    assert result is not None
    # the same lines as a CANN process log: the HCCL evidence parser and the root-cause rules run on them
    plog = os.path.join(_snap_dir, "plog-4242_20240712102133512.log")
    os.replace(path, plog)
    result = triage_paths([plog], _KB)
    assert result.root_cause is None or isinstance(result.root_cause["devices"], list)


_KB = None


ALL_PROPERTIES = [
    test_fuzz_version_strings,
    test_fuzz_version_info_install_info_version_cfg,
    test_fuzz_npu_smi_tables,
    test_fuzz_nvidia_smi_banners_and_cuda_files,
    test_fuzz_hccn_conf_and_tool_output,
    test_fuzz_hccn_port_outputs,
    test_fuzz_rank_tables,
    test_fuzz_snapshot_manifests,
    test_fuzz_reports_from_other_nodes,
    test_fuzz_launch_env_hccl_vars_fib_trie_metadata,
    test_fuzz_log_lines,
]
