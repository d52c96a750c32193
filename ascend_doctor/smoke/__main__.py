"""The smoke child: `python -m ascend_doctor.smoke --device cpu ...`.

Runs the stages in order and speaks JSON on stdout, one object a line:

    {"event": "start", "stage": "graph_compile"}
    {"event": "end", "stage": "graph_compile", "status": "pass", "ms": 412, ...numbers}

The parent (`runner.py`) arms a deadline on every "start" line, so a hang is
named by the stage that never ended. Everything else the process prints
(MindSpore's logs, library chatter on stdout) is sent to stderr, so stdout
carries the protocol only.

This module imports only the standard library until the `import` stage; it
never imports the rest of ascend_doctor, so it runs where the doctor's own
dependencies are broken.

Test-only fault hook: ASCEND_DOCTOR_SMOKE_FAULT, a comma-separated list of
  hang:<stage>         sleep forever when <stage> starts
  crash:<stage>        abort the process (SIGABRT) when <stage> starts
  raise:<stage>:<text> raise RuntimeError(<text>) when <stage> starts
  bad_grad             train with the gradient's sign flipped (a broken backward pass)
  missing_mindspore    `import mindspore` fails as it does when it is not installed
It exists so the tests can prove each failure is caught and named; nothing
else reads it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback

FAULT_ENV = "ASCEND_DOCTOR_SMOKE_FAULT"
STAGES = ("import", "device", "op_check", "graph_compile", "train", "verify",
          "pynative", "host_memory", "mindir", "atc")

# The synthetic task: two classes split by a random hyperplane in 16 dimensions.
# A working train step reaches >= 0.9 held-out accuracy within a few dozen steps;
# a broken gradient (wrong sign, zero, noise) stays near or below chance (0.5).
FEATURES, HIDDEN, CLASSES = 16, 32, 2
TRAIN_SAMPLES, TEST_SAMPLES, BATCH = 512, 256, 64
LEARNING_RATE = 0.03
LOSS_THRESHOLD = 0.35  # mean loss of the last steps must fall below this (chance is ln 2 = 0.69)
LOSS_DROP = 0.5  # ... and below half of the first step's loss
ACCURACY_BAR = 0.9
# GRAPH and PYNATIVE run the same float32 math from the same start; they agree closely.
AGREEMENT_RTOL, AGREEMENT_ATOL = 0.05, 1e-3
MINDIR_ATOL = 1e-4


class Protocol:
    """Writes the JSON lines on the real stdout; fd 1 is pointed at stderr for everyone else."""

    def __init__(self):
        self._out = os.fdopen(os.dup(1), "w", buffering=1)
        os.dup2(2, 1)
        sys.stdout = sys.stderr

    def send(self, obj):
        self._out.write(json.dumps(obj, default=float) + "\n")
        self._out.flush()


class StageFailed(Exception):
    """A stage ran and its result was wrong (not a crash): carries the numbers."""

    def __init__(self, message, **data):
        super().__init__(message)
        self.data = data


def parse_faults(text):
    faults = {}
    for item in filter(None, (s.strip() for s in (text or "").split(","))):
        kind, _, rest = item.partition(":")
        faults.setdefault(kind, []).append(rest)
    return faults


class Smoke:
    def __init__(self, args, proto, faults):
        self.args = args
        self.proto = proto
        self.faults = faults
        self.ms = None
        self.np = None
        self.state = {}

    # -- stage driver -------------------------------------------------------
    def run(self) -> int:
        order = [("import", self.stage_import), ("device", self.stage_device), ("op_check", self.stage_op_check),
                 ("graph_compile", self.stage_graph_compile), ("train", self.stage_train),
                 ("verify", self.stage_verify), ("pynative", self.stage_pynative),
                 ("host_memory", self.stage_host_memory), ("mindir", self.stage_mindir), ("atc", self.stage_atc)]
        for name, func in order:
            if not self.stage(name, func):
                return 3
        self.proto.send({"event": "done"})
        return 0

    def stage(self, name, func) -> bool:
        self.proto.send({"event": "start", "stage": name})
        self._inject(name)
        t0 = time.monotonic()
        try:
            data = func() or {}
            status = data.pop("status", "pass")
            error = None
        except StageFailed as exc:
            data, status, error = exc.data, "fail", str(exc)
        except BaseException as exc:  # report any failure of the stack as this stage's failure
            traceback.print_exc(file=sys.stderr)
            data, status = {}, "fail"
            error = f"{type(exc).__name__}: {exc}"
            data["traceback"] = [l.rstrip() for l in traceback.format_exception_only(type(exc), exc)][-1:]
            where = _where(exc)
            if where and not where.startswith(os.path.abspath(__file__)):  # our own frame says nothing
                data["where"] = where
            if name == "import":  # which Python could not import it (the parent tells whether it has a wheel)
                data["python"] = sys.version.split()[0]
        msg = {"event": "end", "stage": name, "status": status, "ms": int((time.monotonic() - t0) * 1000)}
        msg.update(data)
        if error:
            # MindSpore's messages carry pages of C++ stack; the parent wants the head.
            msg["error"] = "\n".join(error.splitlines()[:25])
        self.proto.send(msg)
        return status != "fail"

    def _inject(self, name):
        if name in self.faults.get("hang", []):
            sys.stderr.write(f"smoke fault hook: hanging in stage {name}\n")
            sys.stderr.flush()
            while True:
                time.sleep(3600)
        if name in self.faults.get("crash", []):
            sys.stderr.write(f"smoke fault hook: simulated crash in stage {name}\n")
            sys.stderr.flush()
            os.abort()
        for spec in self.faults.get("raise", []):
            stage, _, text = spec.partition(":")
            if stage == name:
                raise RuntimeError(text or f"smoke fault hook: error in stage {name}")

    # -- stages -------------------------------------------------------------
    def stage_import(self):
        if "missing_mindspore" in self.faults:
            raise ModuleNotFoundError("No module named 'mindspore'", name="mindspore")
        import mindspore as ms  # first: without MindSpore (which needs NumPy) the error names MindSpore
        import numpy as np

        self.np, self.ms = np, ms
        return {"version": getattr(ms, "__version__", None), "location": os.path.dirname(ms.__file__),
                "python": sys.version.split()[0]}

    def stage_device(self):
        ms = self.ms
        target = {"cpu": "CPU", "gpu": "GPU", "ascend": "Ascend"}[self.args.device]
        if hasattr(ms, "set_device"):  # 2.5+: the device is no longer a set_context key
            if self.args.device_id is None:
                ms.set_device(target)
            else:
                ms.set_device(target, self.args.device_id)
        else:
            kw = {"device_target": target}
            if self.args.device_id is not None:
                kw["device_id"] = self.args.device_id
            ms.set_context(**kw)
        ms.set_context(mode=ms.GRAPH_MODE)
        actual = ms.get_context("device_target")
        if actual != target:
            raise StageFailed(f"asked MindSpore for {target}, it runs on {actual}", target=target, actual=actual)
        return {"target": actual, "device_id": self.args.device_id}

    def stage_op_check(self):
        np, ms = self.np, self.ms
        a = np.arange(12, dtype=np.float32).reshape(3, 4) / 7.0
        b = np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(4, 2)
        got = ms.ops.matmul(ms.Tensor(a), ms.Tensor(b)).asnumpy()
        want = a @ b
        err = float(np.max(np.abs(got - want)))
        if got.shape != want.shape or not np.allclose(got, want, rtol=1e-4, atol=1e-5):
            raise StageFailed("MatMul on the device does not match NumPy", max_abs_error=err,
                              got=got.tolist(), expected=want.tolist())
        return {"op": "MatMul", "max_abs_error": err}

    def _dataset(self):
        np = self.np
        rng = np.random.default_rng(20240531)
        w = rng.standard_normal(FEATURES)
        x = rng.standard_normal((TRAIN_SAMPLES + TEST_SAMPLES, FEATURES)).astype(np.float32)
        y = (x @ w > 0).astype(np.int32)
        return x[:TRAIN_SAMPLES], y[:TRAIN_SAMPLES], x[TRAIN_SAMPLES:], y[TRAIN_SAMPLES:]

    def _build(self, initial=None):
        ms = self.ms
        nn = ms.nn

        class SmokeNet(nn.Cell):
            def __init__(self):
                super().__init__()
                self.fc1 = nn.Dense(FEATURES, HIDDEN)
                self.act = nn.ReLU()
                self.fc2 = nn.Dense(HIDDEN, CLASSES)

            def construct(self, x):
                return self.fc2(self.act(self.fc1(x)))

        net = SmokeNet()
        if initial is not None:
            ms.load_param_into_net(net, {k: ms.Parameter(ms.Tensor(v), name=k) for k, v in initial.items()})
        loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = nn.Adam(net.trainable_params(), learning_rate=LEARNING_RATE)
        # sens scales the loss's gradient: -1 is the test hook's broken backward pass.
        sens = -1.0 if "bad_grad" in self.faults else 1.0
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt, sens=sens)
        step.set_train()
        return net, step

    def _batch(self, i):
        k = i % len(self.state["tx"])
        return self.state["tx"][k], self.state["ty"][k]

    def stage_graph_compile(self):
        ms = self.ms
        ms.set_seed(7)
        xtr, ytr, xte, yte = self._dataset()
        self.state["test"] = (xte, yte)
        self.state["tx"] = [ms.Tensor(xtr[i:i + BATCH]) for i in range(0, TRAIN_SAMPLES, BATCH)]
        self.state["ty"] = [ms.Tensor(ytr[i:i + BATCH]) for i in range(0, TRAIN_SAMPLES, BATCH)]
        net, step = self._build()
        self.state["initial"] = {p.name: p.asnumpy().copy() for p in net.get_parameters()}
        x, y = self._batch(0)
        t0 = time.monotonic()
        loss = float(step(x, y).asnumpy())  # first call = compile (forward, backward, optimizer) + one step
        self.state.update(net=net, step=step, losses=[loss])
        return {"compile_and_first_step_ms": int((time.monotonic() - t0) * 1000), "loss": loss}

    def _rss_mb(self):
        try:
            import psutil

            return psutil.Process().memory_info().rss / 2 ** 20
        except ImportError:  # the parent reports memory as unknown then
            return None

    def _train(self, step, steps, first_index):
        losses, times = [], []
        for i in range(first_index, first_index + steps):
            x, y = self._batch(i)
            t0 = time.perf_counter()
            losses.append(float(step(x, y).asnumpy()))
            times.append((time.perf_counter() - t0) * 1000)
        return losses, times

    def stage_train(self):
        np = self.np
        rss0 = self._rss_mb()
        losses, times = self._train(self.state["step"], self.args.steps - 1, 1)
        rss1 = self._rss_mb()
        self.state["losses"].extend(losses)
        self.state["graph_step_ms"] = float(np.median(times)) if times else None
        self.state["rss"] = (rss0, rss1)
        # Whether the loss fell is judged in `verify`; this stage proves the steps run.
        return {"steps": self.args.steps, "step_ms_median": self.state["graph_step_ms"],
                "loss_first": self.state["losses"][0], "loss_last": self.state["losses"][-1]}

    def _accuracy(self, net):
        ms = self.ms
        xte, yte = self.state["test"]
        pred = net(ms.Tensor(xte)).asnumpy().argmax(axis=1)
        return float((pred == yte).mean())

    def stage_verify(self):
        np = self.np
        losses = self.state["losses"]
        tail = float(np.mean(losses[-5:]))
        acc = self._accuracy(self.state["net"])
        self.state["graph_accuracy"] = acc
        data = {"loss_first": losses[0], "loss_last_mean": tail, "loss_threshold": LOSS_THRESHOLD,
                "accuracy": acc, "accuracy_bar": ACCURACY_BAR, "steps": len(losses)}
        problems = []
        bad = [i for i, l in enumerate(losses) if not np.isfinite(l)]
        if bad:
            problems.append(f"the loss did not fall: it became NaN/Inf at step {bad[0] + 1}")
        elif not (tail < LOSS_THRESHOLD and tail < LOSS_DROP * losses[0]):
            problems.append(f"the loss did not fall: {losses[0]:.3f} at the first step, {tail:.3f} at the last (must be below "
                            f"{min(LOSS_THRESHOLD, LOSS_DROP * losses[0]):.3f})")
        if acc < ACCURACY_BAR:
            problems.append(f"held-out accuracy {acc:.2f} is below {ACCURACY_BAR}")
        if problems:
            raise StageFailed("; ".join(problems), **data)
        return data

    def stage_pynative(self):
        ms, np = self.ms, self.np
        if not self.args.pynative:
            return {"status": "skip", "reason": "--no-pynative"}
        ms.set_context(mode=ms.PYNATIVE_MODE)
        try:
            net, step = self._build(self.state["initial"])
            losses, times = self._train(step, self.args.steps, 0)
            acc = self._accuracy(net)
        finally:
            ms.set_context(mode=ms.GRAPH_MODE)
        graph_losses = self.state["losses"]
        # The first step includes PYNATIVE's own warm-up; compare steady-state step times.
        py_ms = float(np.median(times[1:] if len(times) > 1 else times))
        g_ms = self.state.get("graph_step_ms")
        data = {"loss_last_graph": graph_losses[-1], "loss_last_pynative": losses[-1],
                "accuracy_graph": self.state["graph_accuracy"], "accuracy_pynative": acc,
                "step_ms_graph": g_ms, "step_ms_pynative": py_ms,
                "pynative_over_graph": (py_ms / g_ms) if g_ms else None}
        diff = abs(losses[-1] - graph_losses[-1])
        if diff > AGREEMENT_ATOL + AGREEMENT_RTOL * abs(graph_losses[-1]) or abs(acc - data["accuracy_graph"]) > 0.05:
            raise StageFailed(f"GRAPH and PYNATIVE disagree after the same {len(losses)} steps: final loss "
                              f"{graph_losses[-1]:.4f} vs {losses[-1]:.4f}, accuracy "
                              f"{data['accuracy_graph']:.2f} vs {acc:.2f}", **data)
        return data

    def stage_host_memory(self):
        rss0, rss1 = self.state.get("rss", (None, None))
        if rss0 is None or rss1 is None:
            return {"status": "skip", "reason": "psutil is not importable in this Python"}
        steps = max(1, self.args.steps - 1)
        return {"rss_before_mb": round(rss0, 1), "rss_after_mb": round(rss1, 1),
                "growth_mb": round(rss1 - rss0, 2), "growth_kb_per_step": round((rss1 - rss0) * 1024 / steps, 1),
                "steps": steps}

    def stage_mindir(self):
        ms, np = self.ms, self.np
        net = self.state["net"]
        net.set_train(False)
        xte, _ = self.state["test"]
        sample = ms.Tensor(xte[:BATCH])
        base = os.path.join(self.args.workdir, "smoke_net")
        ms.export(net, sample, file_name=base, file_format="MINDIR")
        path = base + ".mindir"
        loaded = ms.nn.GraphCell(ms.load(path))
        want = net(sample).asnumpy()
        got = loaded(sample).asnumpy()
        err = float(np.max(np.abs(got - want)))
        data = {"file": path, "bytes": os.path.getsize(path), "max_abs_error": err}
        if got.shape != want.shape or err > MINDIR_ATOL:
            raise StageFailed(f"the reloaded MindIR gives different outputs (max abs error {err:.2e})", **data)
        self.state["mindir"] = path
        return data

    def stage_atc(self):
        if not self.args.atc:
            return {"status": "skip", "reason": "atc is not installed (CANN toolkit not on PATH)"}
        if not self.args.soc_version:
            return {"status": "skip", "reason": "no Ascend SoC detected to convert for"}
        import subprocess

        out = os.path.join(self.args.workdir, "smoke_net")
        argv = [self.args.atc, "--framework=1", f"--model={self.state['mindir']}", f"--output={out}",
                f"--soc_version={self.args.soc_version}"]
        try:
            proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=self.args.atc_timeout,
                                  cwd=self.args.workdir, start_new_session=True)
        except subprocess.TimeoutExpired:
            raise StageFailed(f"atc did not finish in {self.args.atc_timeout:g} s", argv=argv)
        text = proc.stdout.decode("utf-8", "replace")
        lines = text.splitlines()
        data = {"argv": argv, "rc": proc.returncode, "output_tail": lines[-15:],
                "unsupported_ops": _unsupported_ops(lines)}
        if proc.returncode != 0 or not os.path.exists(out + ".om"):
            sys.stderr.write(text)
            raise StageFailed(f"atc failed (exit {proc.returncode})", **data)
        data["om"] = out + ".om"
        return data


# Operator names in ATC's error texts (templates from error_signatures.md: ATC_E19010_NO_PARSER,
# ATC_E20001_OP_COMPILE_FAILED, OP_UNSUPPORTED_ON_SOC).
_ATC_OP_PATTERNS = (
    r"No parser is registered for Op \[[^,\]]+, optype \[([^\]]+)\]",
    r"Failed to compile Op \[([^\]]+)\]",
    r"Operator (\S+) compilation failed",
    r"op type (\w+) is not found in this op store",
)


def _unsupported_ops(lines):
    """Operator types/names ATC says it cannot parse, compile or find a kernel for, in order."""
    import re

    found = []
    for line in lines:
        for pat in _ATC_OP_PATTERNS:
            for m in re.finditer(pat, line):
                if m.group(1) not in found:
                    found.append(m.group(1))
    return found


def _where(exc):
    tb = traceback.extract_tb(exc.__traceback__)
    return f"{tb[-1].filename}:{tb[-1].lineno}" if tb else None


def build_parser():
    p = argparse.ArgumentParser(prog="python -m ascend_doctor.smoke",
                                description="ascend-doctor's smoke child (run by `ascend-doctor smoke`).")
    p.add_argument("--device", choices=["cpu", "gpu", "ascend"], default="cpu")
    p.add_argument("--device-id", type=int, default=None)
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--no-pynative", dest="pynative", action="store_false")
    p.add_argument("--workdir", default=".")
    p.add_argument("--atc", default=None, help="path of atc; the atc stage is skipped without it")
    p.add_argument("--soc-version", default=None)
    p.add_argument("--atc-timeout", type=float, default=120.0)
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    proto = Protocol()
    return Smoke(args, proto, parse_faults(os.environ.get(FAULT_ENV))).run()


if __name__ == "__main__":
    code = main()
    # Everything is reported; MindSpore's interpreter-exit teardown (destructors, thread
    # joins) takes most of a second and tells the parent nothing, so skip it.
    sys.stderr.flush()
    os._exit(code)
