"""Advice for pitfalls nothing on the machine can prove (P04, P05, P06, P10, P11, P12, P20).

Each piece of advice is shown only when the facts make it relevant to this
machine (an accelerator that computes fp16, a 310-class inference chip, few CPU
cores per device ...); otherwise the check says nothing at all, so the report
never turns into a wall of generic tips. Advice is `pass` with the advice in the
summary and fix, or `warn` where the fact itself is a risk (a 310-class chip for
an FP32 model, too few cores to feed the devices).
"""

from __future__ import annotations

from ..findings import PASS, WARN
from ..i18n import _, sentences
from ..i18n_text import Bilingual
from . import check
from ._accelerators import (accelerator_count, device_phrase, gpu_present, is_310_class, npu_names, npu_present)
from ..versions import major_minor_numbers

# Below this many CPU cores per device, decoding and augmentation in map() usually cannot keep up.
MIN_CORES_PER_DEVICE = 4


def _training_accelerators(facts) -> bool:
    """A GPU, or an NPU that is not an inference-only 310-class chip."""
    return gpu_present(facts) or (npu_present(facts) and not is_310_class(facts))


def _advice(ctx, pitfall: str) -> str:
    """The knowledge base's advice for a pitfall: its English and Chinese, worded where shown."""
    p = ctx.kb.pitfall(pitfall)
    return Bilingual(p.text("en")[1], p.text("zh")[1])


def performance_context(ctx) -> bool:
    """The user asked about speed: a smoke training run or a comparison with a baseline."""
    o = ctx.options
    return bool(o.get("smoke") or o.get("baseline"))


@check("advice.mixed_precision", "Use mixed precision (amp level O2) on these accelerators", pitfalls=["P04"])
def advise_mixed_precision(ctx):
    facts = ctx.facts
    if not _training_accelerators(facts):
        return None
    return ctx.finding(PASS,
        summary=sentences(_("This machine has {devices}.").format(devices=device_phrase(facts)),
                          _("Ascend NPUs, and NVIDIA GPUs with Tensor Cores (V100 and newer), run fp16 (and bf16 where "
                            "the chip has it) matrix math several times faster than fp32, but MindSpore trains in fp32 "
                            "unless told otherwise."),
                          _advice(ctx, "P04")),
        evidence={"devices": device_phrase(facts)},
        fix=["from mindspore import amp",
             _('train_net = amp.build_train_network(net, optimizer, loss_fn, level="O2")   # fp16 compute, fp32 weights'),
             'or: model = mindspore.Model(net, loss_fn, optimizer, amp_level="O2")',
             _("compare loss curves of the first epochs with the fp32 run before switching for good")],
        pitfall="P04")


def _recommended_mindspore(ctx):
    """The MindSpore a fix of this report recommends when none is installed (mindspore.installed's choice, one
    place: advise_mindspore), so the advice speaks of the release the user will have."""
    from ._recommend import advise_mindspore

    inst = ctx.facts.cann.judged_install
    if inst is None:
        return None
    try:
        row = advise_mindspore(ctx.matrix, ctx.facts, inst.release, inst.compiler_version).release
    except Exception:  # no matrix: the advice for current releases
        return None
    return row["version"] if row else None


@check("advice.graph_kernel", "Try graph-kernel operator fusion for speed", pitfalls=["P06"])
def advise_graph_kernel(ctx):
    facts = ctx.facts
    if not _training_accelerators(facts):
        return None
    flags = ctx.facts.env.get("MS_DEV_GRAPH_KERNEL_FLAGS")
    if flags is not None:
        return ctx.finding(PASS,
                           summary=_("Graph-kernel flags are already set (MS_DEV_GRAPH_KERNEL_FLAGS={flags}).").format(
                               flags=repr(flags)),
                           evidence={"MS_DEV_GRAPH_KERNEL_FLAGS": flags}, pitfall="P06")
    version = ctx.facts.mindspore.version or _recommended_mindspore(ctx)
    ver = major_minor_numbers(version)
    if ver is None or ver >= (2, 3):
        lines = [_('mindspore.set_context(jit_config={"jit_level": "O1"})   # MindSpore 2.3+: O1 adds operator fusion'),
                 'or: mindspore.set_context(graph_kernel_flags="--opt_level=2")']
    else:
        lines = [_("mindspore.set_context(enable_graph_kernel=True)   # MindSpore 1.x-2.2, GRAPH_MODE"),
                 'or: mindspore.set_context(graph_kernel_flags="--opt_level=2")']
    return ctx.finding(PASS,
                       summary=sentences(_("On {devices} MindSpore can fuse small operators into bigger kernels in "
                                           "GRAPH_MODE; it is off by default.").format(devices=device_phrase(facts)),
                                         _advice(ctx, "P06")),
                       evidence={"devices": device_phrase(facts),
                                 "MindSpore": facts.mindspore.version or _("not installed")},
                       fix=lines + [_("measure step time with and without it: fusion helps most on many small ops")],
                       pitfall="P06")


@check("advice.data_pipeline", "Enough CPU cores to feed the devices", pitfalls=["P05"],
       warn="Too few CPU cores to feed the devices")
def advise_data_pipeline(ctx):
    facts = ctx.facts
    devices = accelerator_count(facts)
    cpus = facts.system.cpu_count
    if not devices or not cpus or cpus >= MIN_CORES_PER_DEVICE * devices:
        return None
    workers = max(1, cpus // devices)
    return ctx.finding(WARN,
        summary=sentences(_("{cpus} CPU cores for {devices} device(s) ({per_device} per device, fewer than "
                            "{minimum}): decoding and augmentation in dataset.map() will likely keep the devices "
                            "waiting for data.").format(cpus=cpus, devices=devices, per_device=f"{cpus / devices:.1f}",
                                                       minimum=MIN_CORES_PER_DEVICE),
                          _advice(ctx, "P05")),
        evidence={"cpu_count": cpus, "devices": device_phrase(facts)},
        fix=[f"dataset = dataset.map(operations=transforms, input_columns=\"image\", num_parallel_workers={workers})",
             _("mindspore.dataset.config.set_num_parallel_workers({workers})   # default for every op in this process")
             .format(workers=workers),
             _("decode and resize once ahead of time (e.g. to MindRecord) so each epoch only reads tensors"),
             _("watch the device utilisation during an epoch: low and spiky means the pipeline is the bottleneck")],
        pitfall="P05")


@check("advice.int8_fp16_device", "An FP16/INT8 inference chip (Ascend 310 class)", pitfalls=["P11", "P10"],
       warn="FP32 models may lose accuracy on this FP16/INT8 inference chip (Ascend 310 class)")
def advise_int8_fp16_device(ctx):
    facts = ctx.facts
    if not is_310_class(facts):
        return None
    names = npu_names(facts) or [facts.npu.soc_family or "310"]
    soc = names[0] if names[0].lower().startswith("ascend") else f"Ascend{names[0]}"
    return ctx.finding(WARN,
        summary=sentences(_("The NPUs here ({names}) are 310-class inference chips that compute in FP16 and INT8: a "
                            "model trained in FP32 loses accuracy if it is sensitive to FP16 rounding, and converting "
                            "it with ATC's default precision mode casts FP32 to FP16 (P10).").format(
                                names=", ".join(names)),
                          _advice(ctx, "P11"), _advice(ctx, "P10")),
        evidence={"devices": ", ".join(names), "soc_family": facts.npu.soc_family or "-"},
        fix=[_("atc --model=net.mindir --framework=1 --soc_version={soc} --output=net "
               "--precision_mode=force_fp32   # keeps FP32 where the chip allows, slower").format(soc=soc),
             _("run the FP32 model and the converted .om on the same validation set; accept at most ~0.5% accuracy "
               "drop"),
             _("for speed: quantise to INT8 with calibration data (AMCT) and check accuracy the same way"),
             _("models that stay too inaccurate: serve them on a 910-class device")],
        pitfall="P11")


@check("advice.fp16_peak_vs_throughput", "Judge throughput by measured step time, not FP16 peak", pitfalls=["P12"])
def advise_fp16_peak(ctx):
    facts = ctx.facts
    if not performance_context(ctx) or not accelerator_count(facts):
        return None
    return ctx.finding(PASS,
        summary=sentences(_("The FP16 peak TFLOPS of a datasheet is not what training reaches: mixed precision keeps "
                            "FP32 accumulation and master weights, and data loading and communication take their "
                            "share."), _advice(ctx, "P12")),
        evidence={"devices": device_phrase(facts)},
        fix=[_("samples_per_second = global_batch_size / measured_step_time_s   # from the smoke run, after warm-up"),
             _("compare that with a baseline measured on the same model, not with the peak figure")],
        pitfall="P12")


@check("advice.gpu_vs_ascend", "MindSpore on GPU is slower than on Ascend (expected)", pitfalls=["P20"])
def advise_gpu_vs_ascend(ctx):
    facts = ctx.facts
    ms = facts.mindspore
    if not (gpu_present(facts) and ms.installed and "gpu" in ms.backends):
        return None
    return ctx.finding(PASS,
        summary=sentences(_("MindSpore runs on this machine's NVIDIA GPUs, but it is developed and tuned for Ascend "
                            "first: expect lower speed than the same model on Ascend."), _advice(ctx, "P20")),
        evidence={"devices": device_phrase(facts), "MindSpore": f"{ms.dist_name} {ms.version}"},
        fix=[],
        pitfall="P20")
