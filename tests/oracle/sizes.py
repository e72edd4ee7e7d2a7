#!/usr/bin/env python3
"""Ground truth of the extrapolation on a CUDA machine (PyTorch 2.3 or later):

    python3 tests/oracle/sizes.py OUTDIR [--programs a,b] [--budget-gib G]

For each program (programs.py), each run a fresh process under PyTorch's
default allocator settings:
  - traces recorded from the first allocation at sizes 1, 2, 3, 4 and 16:
    OUTDIR/PROGRAM.bN.pickle;
  - a ladder of sizes (1, 2, 4, 8, ...) without a capacity, up to the first
    size whose peak reserved passes 32 GiB: max_memory_allocated,
    max_memory_reserved, num_alloc_retries;
  - the largest size that completes under 16, 24 and 32 GiB
    (set_per_process_memory_fraction of capacity / total memory), by
    binary search of real runs between the ladder's sizes, the answer
    checked at N (completes) and N+1 (runs out of memory).
Writes OUTDIR/truth.json. Runs go in parallel, as many as the device's
memory holds with each run's capacity counted (--budget-gib, default 120).
"""
import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = ["encoder_train", "conv_bn_train", "decoder_bf16_train", "mlp_infer", "lstm_train", "scripted_infer"]
TRACE_SIZES = [1, 2, 3, 4, 16]
GIB = 1 << 30
CAPACITIES = [16 * GIB, 24 * GIB, 32 * GIB]
LADDER_LIMIT = 32 * GIB


def child(name, n, capacity, snapshot):
    import torch
    sys.path.insert(0, HERE)
    from programs import build
    total = torch.cuda.get_device_properties(0).total_memory
    allowed = None
    if capacity:
        torch.cuda.set_per_process_memory_fraction(capacity / total, 0)
        allowed = int(capacity / total * float(total))
    if snapshot:
        torch.cuda.memory._record_memory_history(enabled="all", context=None, stacks="python")
    oom = False
    try:
        step, steps = build(name, torch, n)
        for i in range(steps):
            step(i)
        torch.cuda.synchronize()
    except torch.OutOfMemoryError:
        oom = True
    stats = torch.cuda.memory_stats()
    if snapshot:
        torch.cuda.memory._dump_snapshot(snapshot)
    print(json.dumps({"size": n, "capacity_bytes": allowed, "oom": oom,
                      "peak_allocated_bytes": torch.cuda.max_memory_allocated(),
                      "peak_reserved_bytes": torch.cuda.max_memory_reserved(),
                      "alloc_retries": stats.get("num_alloc_retries", 0), "ooms": stats.get("num_ooms", 0)}))


class Budget:
    def __init__(self, total):
        self.left = total
        self.cv = threading.Condition()

    def run(self, cost, fn):
        with self.cv:
            self.cv.wait_for(lambda: self.left >= cost)
            self.left -= cost
        try:
            return fn()
        finally:
            with self.cv:
                self.left += cost
                self.cv.notify_all()


def main():
    if sys.argv[1] == "--child":
        cap = None if sys.argv[4] == "0" else int(sys.argv[4])
        child(sys.argv[2], int(sys.argv[3]), cap, sys.argv[5] if len(sys.argv) > 5 else None)
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    programs = sys.argv[sys.argv.index("--programs") + 1].split(",") if "--programs" in sys.argv else PROGRAMS
    budget = Budget(int(sys.argv[sys.argv.index("--budget-gib") + 1]) * GIB if "--budget-gib" in sys.argv
                    else 120 * GIB)
    lock = threading.Lock()
    truth = {p: {"traces": {}, "ladder": [], "largest": {}, "runs": []} for p in programs}
    if "--resume" in sys.argv:  # an earlier truth.json: its traces and ladder runs are kept
        with open(sys.argv[sys.argv.index("--resume") + 1]) as f:
            earlier = json.load(f)
        for p in programs:
            if p in earlier:
                truth[p].update({k: earlier[p][k] for k in ("traces", "ladder", "runs")})
                truth[p]["largest"] = {c: r for c, r in earlier[p].get("largest", {}).items()}

    def run(p, n, capacity=None, snapshot=None, cost=None):
        args = [sys.executable, __file__, "--child", p, str(n), str(capacity or 0)] + ([snapshot] if snapshot else [])
        env = dict(os.environ)
        env.pop("PYTORCH_CUDA_ALLOC_CONF", None)

        def go():
            q = subprocess.run(args, env=env, capture_output=True, text=True)
            if q.returncode != 0:
                return {"size": n, "capacity_bytes": capacity, "error": q.stderr[-800:]}
            return json.loads(q.stdout.strip().splitlines()[-1])
        r = budget.run(cost or (capacity or 4 * GIB) + GIB, go)
        with lock:
            truth[p]["runs"].append(r)
        return r

    def program(p):
        for n in TRACE_SIZES:
            if str(n) in truth[p]["traces"]:
                continue
            truth[p]["traces"][str(n)] = run(p, n, snapshot=os.path.join(out, f"{p}.b{n}.pickle"))
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
        with lock:  # the ladder kept even if the searches are cut short
            with open(os.path.join(out, "truth.json"), "w") as f:
                json.dump(truth, f, indent=1, sort_keys=True)
        def search(c):
            if str(c) in truth[p]["largest"]:
                return
            r = largest(c)
            with lock:
                truth[p]["largest"][str(c)] = r
                with open(os.path.join(out, "truth.json"), "w") as f:
                    json.dump(truth, f, indent=1, sort_keys=True)
        with ThreadPoolExecutor(len(CAPACITIES)) as caps:
            list(caps.map(search, CAPACITIES))
        with lock:
            with open(os.path.join(out, "truth.json"), "w") as f:
                json.dump(truth, f, indent=1, sort_keys=True)
        print(p, "done", flush=True)

    with ThreadPoolExecutor(len(programs)) as pool:
        list(pool.map(program, programs))
    with open(os.path.join(out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
