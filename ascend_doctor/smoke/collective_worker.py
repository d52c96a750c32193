"""One rank of the distributed smoke, started by `msrun` (which runs it as a plain script).

Each rank writes marker files in the results directory so the parent can tell,
while it waits, which ranks started and which finished joining the cluster:

    arrived_<node>.json   the process started (before init)
    joined_<rank>.json    communication.init() returned (all ranks connected)
    result_<rank>.json    the collectives' results, checked on this rank

AllReduce(SUM) of rank+1 must give size*(size+1)/2 everywhere; AllGather of
[rank, rank] must give [0,0,1,1,...]. A larger AllReduce is timed for a
bus-bandwidth estimate (2*(n-1)/n * bytes / time, as nccl-tests counts it).

Only the standard library and MindSpore are imported. The test-only fault hook
ASCEND_DOCTOR_SMOKE_FAULT=nojoin:<node> makes that process sleep after it
arrives, before communication.init(), so it never joins.
"""

import json
import os
import sys
import time

T0 = time.monotonic()


def _write(directory, name, obj):
    tmp = os.path.join(directory, f".{name}.tmp")
    with open(tmp, "w") as fh:
        json.dump(obj, fh)
    os.replace(tmp, os.path.join(directory, name))


def main(argv):
    outdir, device = argv[0], argv[1]
    bw_bytes = int(argv[2]) if len(argv) > 2 else 4 << 20
    node = os.environ.get("MS_NODE_ID", os.environ.get("RANK_ID", "?"))
    role = os.environ.get("MS_ROLE", "MS_WORKER")
    faults = [f.strip() for f in os.environ.get("ASCEND_DOCTOR_SMOKE_FAULT", "").split(",")]
    if role == "MS_WORKER":
        _write(outdir, f"arrived_{node}.json", {"node": node, "pid": os.getpid(), "host": os.uname()[1]})
    if role == "MS_WORKER" and f"nojoin:{node}" in faults:
        sys.stderr.write(f"smoke fault hook: rank process {node} started but never joins the cluster\n")
        sys.stderr.flush()
        while True:
            time.sleep(3600)

    import mindspore as ms  # first: a worker started by another `python` fails here, naming MindSpore
    import numpy as np  # a MindSpore dependency
    from mindspore import ops
    from mindspore.communication import get_group_size, get_rank, init

    target = {"cpu": "CPU", "gpu": "GPU", "ascend": "Ascend"}[device]
    ms.set_device(target)
    t_init = time.monotonic()
    init()
    init_ms = (time.monotonic() - t_init) * 1000
    if role != "MS_WORKER":  # the scheduler process only serves the cluster
        return 0
    rank, size = get_rank(), get_group_size()
    _write(outdir, f"joined_{rank}.json", {"rank": rank, "size": size, "init_ms": init_ms, "node": node})

    result = {"rank": rank, "size": size, "init_ms": init_ms, "checks": {}}
    allreduce = ops.AllReduce()
    got = allreduce(ms.Tensor(np.full((8,), rank + 1, np.float32))).asnumpy()
    want = np.full((8,), size * (size + 1) / 2, np.float32)
    result["checks"]["allreduce_sum"] = {"ok": bool(np.allclose(got, want)), "got": got[:4].tolist(),
                                         "expected": want[:4].tolist()}
    gathered = ops.AllGather()(ms.Tensor(np.full((2,), rank, np.float32))).asnumpy()
    want_g = np.repeat(np.arange(size, dtype=np.float32), 2)
    result["checks"]["allgather"] = {"ok": bool(np.array_equal(gathered, want_g)), "got": gathered.tolist(),
                                     "expected": want_g.tolist()}

    big = ms.Tensor(np.ones((bw_bytes // 4,), np.float32))
    allreduce(big).asnumpy()  # warm-up: the first call sets up buffers
    iters = 5
    t = time.perf_counter()
    for _ in range(iters):
        out = allreduce(big)
    out.asnumpy()
    secs = (time.perf_counter() - t) / iters
    result["bandwidth"] = {"bytes": bw_bytes, "allreduce_ms": secs * 1000,
                           "busbw_gbps": (2 * (size - 1) / size * bw_bytes / secs / 1e9) if size > 1 else None}
    result["total_ms"] = (time.monotonic() - T0) * 1000
    _write(outdir, f"result_{rank}.json", result)
    return 0 if all(c["ok"] for c in result["checks"].values()) else 4


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
