#!/usr/bin/env python3
"""Ground truth of the extrapolation on a CUDA machine (PyTorch 2.3 or later):

    python3 tests/oracle/sizes.py OUTDIR [--programs a,b] [--budget-gib G]
        [--trace-sizes 1,2,...] [--traces-only] [--resume truth.json]
        [--deadline SECONDS]

For each program (programs.py), each run a fresh process (forked from this
one, which imports torch but never touches CUDA: every run creates its own
CUDA context, so its allocator starts empty) under PyTorch's default
allocator settings:
  - traces recorded from the first allocation at each size of
    --trace-sizes (default 1, 2, 3, 4, 16): OUTDIR/PROGRAM.bN.pickle, with
    the run's own peaks;
  - a ladder of sizes (1, 2, 4, 8, ...) without a capacity, up to the first
    size whose peak reserved passes 32 GiB: max_memory_allocated,
    max_memory_reserved, num_alloc_retries;
  - the largest size that completes under 16, 24 and 32 GiB
    (set_per_process_memory_fraction of capacity / total memory, whose
    limit PyTorch computes in double: `capacity_bytes` is that limit), by
    binary search of real runs between the ladder's sizes, the answer
    checked at N (completes) and N+1 (runs out of memory).
The TorchScript programs' modules are saved first in OUTDIR/modules/.
Writes OUTDIR/truth.json as it goes. Runs go in parallel, as many as the
device's memory holds with each run's capacity counted (--budget-gib,
default 120). --deadline: no run starts after that many seconds; what is
done is written, and --resume carries on from it.
"""
import json
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import programs as programs_module  # noqa: E402
from forking import run_forked  # noqa: E402

PROGRAMS = ["encoder_train", "conv_bn_train", "decoder_bf16_train", "mlp_infer", "lstm_train", "scripted_infer",
            "embed_train", "ts_encoder_train", "ts_lstm_train"]
TRACE_SIZES = [1, 2, 3, 4, 16]
GIB = 1 << 30
CAPACITIES = [16 * GIB, 24 * GIB, 32 * GIB]
LADDER_LIMIT = 32 * GIB


def child(name, n, capacity, snapshot):
    import torch
    total = torch.cuda.get_device_properties(0).total_memory
    allowed = None
    if capacity:
        torch.cuda.set_per_process_memory_fraction(capacity / total, 0)
        allowed = int(capacity / total * float(total))
    if snapshot:
        torch.cuda.memory._record_memory_history(enabled="all", context=None, stacks="python")
    oom = False
    started = time.monotonic()
    try:
        step, steps = programs_module.build(name, torch, n)
        for i in range(steps):
            step(i)
        torch.cuda.synchronize()
    except torch.OutOfMemoryError:
        oom = True
    except RuntimeError as e:  # a TorchScript module raises PyTorch's out-of-memory error as its own
        if "out of memory" not in str(e):
            raise
        oom = True
    stats = torch.cuda.memory_stats()
    if snapshot:
        torch.cuda.memory._dump_snapshot(snapshot)
    return {"size": n, "capacity_bytes": allowed, "oom": oom,
            "peak_allocated_bytes": torch.cuda.max_memory_allocated(),
            "peak_reserved_bytes": torch.cuda.max_memory_reserved(),
            "alloc_retries": stats.get("num_alloc_retries", 0), "ooms": stats.get("num_ooms", 0),
            "seconds": round(time.monotonic() - started, 3), "total_memory": total}


class Budget:
    def __init__(self, total):
        self.total = total
        self.left = total
        self.cv = threading.Condition()

    def run(self, cost, fn):
        cost = min(cost, self.total)
        with self.cv:
            self.cv.wait_for(lambda: self.left >= cost)
            self.left -= cost
        try:
            return fn()
        finally:
            with self.cv:
                self.left += cost
                self.cv.notify_all()


def flag(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    programs = flag("--programs", ",".join(PROGRAMS)).split(",")
    trace_sizes = [int(x) for x in flag("--trace-sizes", ",".join(map(str, TRACE_SIZES))).split(",")]
    budget_bytes = int(flag("--budget-gib", "120")) * GIB
    budget = Budget(budget_bytes)
    deadline = time.monotonic() + float(flag("--deadline", "1e9"))
    os.environ.pop("PYTORCH_CUDA_ALLOC_CONF", None)
    import torch  # never touches CUDA here: each run forks and makes its own context
    modules = os.path.join(out, "modules")
    programs_module.MODULE_DIR = modules
    for p in programs:
        if p in programs_module.TORCHSCRIPT and not os.path.exists(os.path.join(modules, p + ".pt")):
            os.makedirs(modules, exist_ok=True)
            programs_module.save_module(p, torch, os.path.join(modules, p + ".pt"))
    lock = threading.Lock()
    truth = {p: {"traces": {}, "ladder": [], "largest": {}, "runs": []} for p in programs}
    if "--resume" in sys.argv:  # an earlier truth.json: what it holds is kept
        with open(flag("--resume")) as f:
            earlier = json.load(f)
        for p in programs:
            if p in earlier:
                truth[p].update({k: earlier[p][k] for k in ("traces", "ladder", "runs") if k in earlier[p]})
                truth[p]["largest"] = {c: r for c, r in earlier[p].get("largest", {}).items()}

    def save():
        with lock:
            with open(os.path.join(out, "truth.json"), "w") as f:
                json.dump(truth, f, indent=1, sort_keys=True)

    class Late(Exception):
        pass

    def run(p, n, capacity=None, snapshot=None, cost=None):
        if time.monotonic() > deadline:
            raise Late()
        r = budget.run(cost or (capacity or 4 * GIB) + GIB,
                       lambda: run_forked(child, p, n, capacity or 0, snapshot))
        if "error" in r:
            r = {"size": n, "capacity_bytes": capacity, "error": r["error"]}
        with lock:
            truth[p]["runs"].append(r)
        return r

    def expected_cost(p, n):
        # the ladder's peak at the next size up, else a guess
        done = [r for r in truth[p]["ladder"] if "peak_reserved_bytes" in r and r["size"] >= n]
        if done:
            return min(LADDER_LIMIT, done[0]["peak_reserved_bytes"]) + 2 * GIB
        return (4 if n <= 16 else 12 if n <= 64 else 24) * GIB

    pool = ThreadPoolExecutor(16)

    def trace(job):
        p, n = job
        if str(n) in truth[p]["traces"]:
            return
        try:
            r = run(p, n, snapshot=os.path.join(out, f"{p}.b{n}.pickle"), cost=expected_cost(p, n))
        except Late:
            return
        with lock:
            truth[p]["traces"][str(n)] = r
    list(pool.map(trace, [(p, n) for n in trace_sizes for p in programs]))
    save()
    print("traces recorded", flush=True)
    if "--traces-only" in sys.argv:
        return

    def program(p):
        try:
            ladder_and_largest(p)
        except Late:
            print(p, "stopped at the deadline", flush=True)
        save()

    def ladder_and_largest(p):
        n = 1
        cost = 4 * GIB
        done = truth[p]["ladder"]
        if done:
            last = done[-1]
            if last.get("oom") or last.get("error") or last["peak_reserved_bytes"] > LADDER_LIMIT:
                n = 1 << 17  # the earlier ladder reached its end
            else:
                n = last["size"] * 2
                cost = min(LADDER_LIMIT + 2 * GIB, int(2.5 * last["peak_reserved_bytes"]) + 2 * GIB)
        while n <= 1 << 16:
            # a ladder step costs what its size is expected to need: the last
            # step's peak grown with the size, never more than the ladder's cap
            r = run(p, n, LADDER_LIMIT + GIB, cost=cost)
            truth[p]["ladder"].append(r)
            if r.get("oom") or r.get("error") or r["peak_reserved_bytes"] > LADDER_LIMIT:
                break
            cost = min(LADDER_LIMIT + 2 * GIB, int(2.5 * r["peak_reserved_bytes"]) + 2 * GIB)
            n *= 2
        save()
        ladder = truth[p]["ladder"]

        def largest(capacity):
            fits = {}

            def ok(m):
                if m not in fits:
                    r = run(p, m, capacity)
                    fits[m] = (not r.get("oom")) and "error" not in r
                return fits[m]
            # Bounds from the ladder's uncapped runs: a size whose peak
            # reserved stays within the capacity completes under it (no
            # request is refused), a size whose peak allocated passes it
            # cannot. Only the search between them runs under the capacity.
            lo = 0
            hi = None
            for r in ladder:
                if "peak_reserved_bytes" not in r or r.get("oom"):
                    continue
                if r["peak_reserved_bytes"] <= capacity:
                    lo = max(lo, r["size"])
                if r["peak_allocated_bytes"] > capacity and (hi is None or r["size"] < hi):
                    hi = r["size"]
            m = max(lo, 1)
            while hi is None:
                if ok(m):
                    lo = m
                    m *= 2
                    if m > 1 << 17:
                        return {"size": None, "note": "fits past 131072"}
                else:
                    hi = m
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if ok(mid):
                    lo = mid
                else:
                    hi = mid
            # the answer and its neighbour, each a real run under the capacity
            return {"size": lo, "checked": {str(k): v for k, v in sorted(fits.items())},
                    "neighbours": [ok(lo) if lo else None, ok(lo + 1)]}

        def search(c):
            if str(c) in truth[p]["largest"]:
                return
            r = largest(c)
            with lock:
                truth[p]["largest"][str(c)] = r
            save()
        with ThreadPoolExecutor(len(CAPACITIES)) as caps:
            for f in [caps.submit(search, c) for c in CAPACITIES]:
                f.result()
        print(p, "done", flush=True)

    with ThreadPoolExecutor(len(programs)) as each:
        list(each.map(program, programs))
    save()


if __name__ == "__main__":
    main()
