"""Contextual advice: each tip appears only where the machine makes it relevant."""

from tests.helpers import fixture_path, run_json
from tests.helpers.i18n_asserts import assert_msg, deferred

from ascend_doctor.probes.environment import env_facts
from ascend_doctor.checks import CheckContext, all_checks
from ascend_doctor.facts import Facts, NpuDevice

ADVICE = {s.id: s for s in all_checks() if s.id.startswith("advice.")}


def _advise(facts, options=None, env=None):
    facts.env = env_facts(env or {})
    ctx = CheckContext(facts=facts, options=options or {})
    out = {}
    for cid, spec in ADVICE.items():
        result = deferred(spec.func, ctx)  # as doctor.evaluate runs it: its words are message ids
        if result is not None:
            out[cid] = result
    return out


def _npus(name, soc, n=8, cpus=192):
    f = Facts()
    f.npu.devices = [NpuDevice(npu_id=i, name=name) for i in range(n)]
    f.npu.soc_family = soc
    f.system.cpu_count = cpus
    return f


def test_every_advice_check_names_its_pitfalls():
    assert set(ADVICE) == {"advice.mixed_precision", "advice.data_pipeline", "advice.graph_kernel",
                           "advice.int8_fp16_device", "advice.fp16_peak_vs_throughput", "advice.gpu_vs_ascend"}
    assert ADVICE["advice.int8_fp16_device"].pitfalls == ["P11", "P10"]
    assert ADVICE["advice.mixed_precision"].pitfalls == ["P04"]


def test_310p_inference_node_gets_precision_warning_not_training_tips():
    got = _advise(_npus("310P3", "310P", n=2, cpus=64))
    f = got["advice.int8_fp16_device"]
    assert f.status == "warn" and f.pitfall == "P11"
    assert "310P3" in f.summary and "FP16" in f.summary
    assert "--soc_version=Ascend310P3" in f.fix[0] and "--precision_mode=force_fp32" in f.fix[0]
    assert "0.5%" in f.fix[1]
    assert "advice.mixed_precision" not in got and "advice.graph_kernel" not in got


def test_910b_training_node_gets_amp_and_fusion_only():
    facts = _npus("910B3", "910B")
    facts.mindspore.version = "2.10.0"
    got = _advise(facts)
    assert set(got) == {"advice.mixed_precision", "advice.graph_kernel"}
    amp = got["advice.mixed_precision"]
    assert amp.status == "pass" and amp.pitfall == "P04"
    assert any('level="O2"' in line for line in amp.fix)
    assert any('"jit_level": "O1"' in line for line in got["advice.graph_kernel"].fix)


def test_graph_kernel_advice_follows_version_and_existing_flags():
    facts = _npus("910ProB", "910")
    facts.mindspore.version = "1.10.1"
    assert "enable_graph_kernel=True" in _advise(facts)["advice.graph_kernel"].fix[0]
    f = _advise(facts, env={"MS_DEV_GRAPH_KERNEL_FLAGS": "--opt_level=2"})["advice.graph_kernel"]
    assert "already set" in f.summary and f.fix == []


def test_data_pipeline_only_when_cores_are_short():
    got = _advise(_npus("910B3", "910B", n=8, cpus=16))
    f = got["advice.data_pipeline"]
    assert f.status == "warn" and f.pitfall == "P05"
    assert "num_parallel_workers=2" in f.fix[0]
    assert_msg(f.summary, "{cpus} CPU cores for {devices} device(s) ({per_device} per device, fewer than {minimum}): "
               "decoding and augmentation in dataset.map() will likely keep the devices waiting for data.",
               cpus=16, devices=8, per_device=2.0)
    assert "advice.data_pipeline" not in _advise(_npus("910B3", "910B", n=8, cpus=192))


def test_fp16_peak_advice_only_in_performance_context():
    facts = _npus("910B3", "910B")
    assert "advice.fp16_peak_vs_throughput" not in _advise(facts)
    f = _advise(facts, options={"smoke": "train"})["advice.fp16_peak_vs_throughput"]
    assert f.pitfall == "P12" and "step time" in f.summary


def test_gpu_node_fixture_gets_p20_and_cpu_box_gets_no_advice():
    proc, data = run_json("check", "--bundle", fixture_path("gpu_node"), "--only", "advice")
    ids = {f["id"]: f for f in data["findings"]}
    assert ids["advice.gpu_vs_ascend"]["pitfall"] == "P20" and ids["advice.gpu_vs_ascend"]["status"] == "pass"
    assert "advice.int8_fp16_device" not in ids and "advice.data_pipeline" not in ids  # 32 cores, 1 GPU
    assert proc.returncode == 0
    proc, data = run_json("check", "--bundle", fixture_path("cpu_only"), "--only", "advice")
    assert data["findings"] == [] and proc.returncode == 0
