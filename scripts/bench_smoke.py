#!/usr/bin/env python
"""Benchmark: `ascend-doctor smoke` vs a bare MindSpore script doing the same work, in the same run.

    python scripts/bench_smoke.py [--repeat 3] [--no-ranks]

Single device: the bare script imports MindSpore, sets the CPU and GRAPH mode,
checks a MatMul against NumPy, trains the same tiny net for the same steps in
GRAPH mode, checks held-out accuracy, trains again in PYNATIVE mode, and
round-trips the net through MindIR. `ascend-doctor smoke` (device auto-detected,
so the probes count too) does that plus its per-stage bookkeeping, a child
process and the report. Target: <= 1.25x.

Two ranks: a bare msrun script that inits the cluster, checks AllReduce and
AllGather and times the same AllReduce for bandwidth, vs `ascend-doctor smoke
--ranks 2`. Both go through MindSpore's msrun with this Python. Target: <= 1.3x.

Runs alternate (bare, ours, bare, ours ...) so machine load hits both alike;
the medians are compared.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from ascend_doctor.smoke import __main__ as child  # noqa: E402  (the sizes the smoke uses)

BARE_TRAIN = f"""
import os, sys, tempfile
import numpy as np
import mindspore as ms
from mindspore import nn

ms.set_device("CPU")
ms.set_context(mode=ms.GRAPH_MODE)
a = np.arange(12, dtype=np.float32).reshape(3, 4) / 7.0
b = np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(4, 2)
assert np.allclose(ms.ops.matmul(ms.Tensor(a), ms.Tensor(b)).asnumpy(), a @ b, rtol=1e-4, atol=1e-5)

rng = np.random.default_rng(20240531)
w = rng.standard_normal({child.FEATURES})
x = rng.standard_normal(({child.TRAIN_SAMPLES} + {child.TEST_SAMPLES}, {child.FEATURES})).astype(np.float32)
y = (x @ w > 0).astype(np.int32)
xtr, ytr, xte, yte = x[:{child.TRAIN_SAMPLES}], y[:{child.TRAIN_SAMPLES}], x[{child.TRAIN_SAMPLES}:], y[{child.TRAIN_SAMPLES}:]
bx = [ms.Tensor(xtr[i:i + {child.BATCH}]) for i in range(0, {child.TRAIN_SAMPLES}, {child.BATCH})]
by = [ms.Tensor(ytr[i:i + {child.BATCH}]) for i in range(0, {child.TRAIN_SAMPLES}, {child.BATCH})]

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense({child.FEATURES}, {child.HIDDEN})
        self.act = nn.ReLU()
        self.fc2 = nn.Dense({child.HIDDEN}, {child.CLASSES})

    def construct(self, x):
        return self.fc2(self.act(self.fc1(x)))

def train(steps):
    ms.set_seed(7)
    net = Net()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), nn.Adam(net.trainable_params(), learning_rate={child.LEARNING_RATE}))
    step.set_train()
    losses = [float(step(bx[i % len(bx)], by[i % len(by)]).asnumpy()) for i in range(steps)]
    acc = float((net(ms.Tensor(xte)).asnumpy().argmax(1) == yte).mean())
    return net, losses, acc

steps = int(sys.argv[1])
net, losses, acc = train(steps)
assert losses[-1] < losses[0] and acc >= {child.ACCURACY_BAR}, (losses[0], losses[-1], acc)
ms.set_context(mode=ms.PYNATIVE_MODE)
train(steps)
ms.set_context(mode=ms.GRAPH_MODE)
net.set_train(False)
d = tempfile.mkdtemp()
sample = ms.Tensor(xte[:{child.BATCH}])
ms.export(net, sample, file_name=os.path.join(d, "net"), file_format="MINDIR")
got = nn.GraphCell(ms.load(os.path.join(d, "net.mindir")))(sample).asnumpy()
assert np.allclose(got, net(sample).asnumpy(), atol=1e-4)
print("ok", losses[0], losses[-1], acc)
"""

BARE_COLLECTIVES = """
import os, sys, time
import numpy as np
import mindspore as ms
from mindspore import ops
from mindspore.communication import init, get_rank, get_group_size

ms.set_device("CPU")
init()
if os.environ.get("MS_ROLE") == "MS_WORKER":
    rank, size = get_rank(), get_group_size()
    allreduce = ops.AllReduce()
    assert np.allclose(allreduce(ms.Tensor(np.full((8,), rank + 1, np.float32))).asnumpy(), size * (size + 1) / 2)
    g = ops.AllGather()(ms.Tensor(np.full((2,), rank, np.float32))).asnumpy()
    assert np.array_equal(g, np.repeat(np.arange(size, dtype=np.float32), 2))
    big = ms.Tensor(np.ones((int(sys.argv[1]) // 4,), np.float32))
    allreduce(big).asnumpy()
    t = time.perf_counter()
    for _ in range(5):
        out = allreduce(big)
    out.asnumpy()
    print("ok", rank, (time.perf_counter() - t) / 5)
"""


def timed(argv, env=None, cwd=None):
    t = time.monotonic()
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd)
    secs = time.monotonic() - t
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr.decode("utf-8", "replace")[-3000:])
        raise SystemExit(f"bench: {' '.join(argv[:4])} ... failed with exit {proc.returncode}")
    return secs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--no-ranks", action="store_true", help="skip the 2-rank comparison")
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("ASCEND_DOCTOR_SMOKE_FAULT", None)
    work = tempfile.mkdtemp(prefix="bench-smoke-")
    bare_train = os.path.join(work, "bare_train.py")
    bare_coll = os.path.join(work, "bare_collectives.py")
    with open(bare_train, "w") as fh:
        fh.write(BARE_TRAIN)
    with open(bare_coll, "w") as fh:
        fh.write(BARE_COLLECTIVES)

    rows = []
    bare, ours = [], []
    for _ in range(args.repeat):
        bare.append(timed([sys.executable, bare_train, str(args.steps)], env, work))
        ours.append(timed([sys.executable, "-m", "ascend_doctor", "smoke", "--steps", str(args.steps),
                           "--format", "json"], env, work))
    rows.append(("smoke (1 process, CPU)", bare, ours, 1.25))

    if not args.no_ranks:
        from ascend_doctor.smoke.distributed import BANDWIDTH_BYTES

        bare, ours = [], []
        port = 19400
        for i in range(args.repeat):
            port += 2
            msrun = [sys.executable, "-m", "mindspore.parallel.cluster.run", "--worker_num", "2",
                     "--local_worker_num", "2", "--master_port", str(port), "--log_dir",
                     os.path.join(work, f"logs{i}"), "--join", "True"]
            bare.append(timed(msrun + [bare_coll, str(BANDWIDTH_BYTES["cpu"])], env, work))
            ours.append(timed([sys.executable, "-m", "ascend_doctor", "smoke", "--ranks", "2", "--master-port",
                               str(port + 1), "--format", "json"], env, work))
        rows.append(("smoke --ranks 2 (msrun, CPU)", bare, ours, 1.3))

    print(f"{'benchmark':<30} {'bare s (median)':>16} {'ascend-doctor s':>16} {'ratio':>7} {'target':>7}"
          f" {'ratio of best runs':>19}")
    worst = 0.0
    for name, b, o, target in rows:
        ratio = statistics.median(o) / statistics.median(b)
        worst = max(worst, ratio / target)
        print(f"{name:<30} {statistics.median(b):>16.2f} {statistics.median(o):>16.2f} {ratio:>6.2f}x "
              f"{'<=' + str(target) + 'x':>7} {min(o) / min(b):>18.2f}x")
        print(f"{'':<30} runs bare={[round(x, 2) for x in b]} ours={[round(x, 2) for x in o]}")
    return 0 if worst <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
