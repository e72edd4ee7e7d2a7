#!/usr/bin/env python3
"""Builds the oracle corpus on a CUDA machine (PyTorch 2.3 or later):

    python3 tests/oracle/corpus.py OUTDIR [--random K] [--jobs J]

1. Records each program of PROGRAMS in a fresh process under PyTorch's
   default allocator settings, from its first allocation
   (_record_memory_history(context=None)): OUTDIR/traces/NAME.pickle, with
   the program's own peaks and retries in OUTDIR/programs.json. The oracle
   then makes the same requests under the defaults and records its own
   trace: OUTDIR/traces/NAME.oracle.pickle, the corpus trace of the program
   (the same requests; the segment addresses of an oracle process, as in
   every oracle run below).
2. Generates K randomised request sequences (oracle.py generate) and runs
   each through the oracle with the defaults, recording the oracle's own
   trace: OUTDIR/traces/random-SEED.pickle.
3. Runs every trace through the oracle (a fresh process per run) under each
   condition: the defaults, expandable_segments, two max_split_size_mb, both
   forms of roundup_power2_divisions, and with the defaults capacities of
   1.05x, 1.0x and 0.97x the peak allocated bytes, and
   garbage_collection_threshold:0.6 at 1.05x (the random sequences: the
   defaults and three conditions drawn at random).
Writes OUTDIR/oracle.json: {trace: {condition: oracle result}}, the trace
named by its file's stem; "recorded" is the run that recorded it.
A condition is "CONF" or "CONF@cap=BYTES".
"""
import json
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = [("encoder_train", 8), ("conv_bn_train", 16), ("decoder_bf16_train", 4), ("mlp_infer", 4),
            ("lstm_train", 16), ("scripted_infer", 8), ("vgg_train", 16), ("shapes_loop", 16),
            ("two_streams", 4), ("empty_cache_infer", 2)]
SETTINGS = ["", "expandable_segments:True", "max_split_size_mb:64", "max_split_size_mb:256",
            "roundup_power2_divisions:4", "roundup_power2_divisions:[256:1,512:2,1024:4,>:8]"]
CAPS = [1.05, 1.0, 0.97]


def child(name, n, snapshot):
    import torch
    sys.path.insert(0, HERE)
    from programs import build
    torch.cuda.memory._record_memory_history(enabled="all", context=None, stacks="python")
    step, steps = build(name, torch, n)
    for i in range(steps):
        step(i)
    torch.cuda.synchronize()
    stats = torch.cuda.memory_stats()
    torch.cuda.memory._dump_snapshot(snapshot)
    print(json.dumps({"peak_allocated_bytes": torch.cuda.max_memory_allocated(),
                      "peak_reserved_bytes": torch.cuda.max_memory_reserved(),
                      "alloc_retries": stats.get("num_alloc_retries", 0), "size": n,
                      "torch": torch.__version__}))


def sh(args, conf=""):
    env = dict(os.environ)
    env.pop("PYTORCH_CUDA_ALLOC_CONF", None)
    if conf:
        env["PYTORCH_CUDA_ALLOC_CONF"] = conf
    p = subprocess.run(args, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        return {"error": p.stderr[-1500:]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def oracle(source, conf="", capacity=None, record=None):
    args = [sys.executable, os.path.join(HERE, "oracle.py"), "run", source]
    if capacity is not None:
        args += ["--capacity-bytes", str(capacity)]
    if record:
        args += ["--record", record]
    return sh(args, conf)


def main():
    if sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), sys.argv[4])
        return
    out = sys.argv[1]
    k = int(sys.argv[sys.argv.index("--random") + 1]) if "--random" in sys.argv else 100
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 12
    only = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else None
    traces = os.path.join(out, "traces")
    gen = os.path.join(out, "generated")
    os.makedirs(traces, exist_ok=True)
    os.makedirs(gen, exist_ok=True)
    pool = ThreadPoolExecutor(jobs)
    programs = [(n, s) for n, s in PROGRAMS if only is None or n in only]
    recorded = dict(zip([n for n, _ in programs], pool.map(
        lambda p: sh([sys.executable, __file__, "--child", p[0], str(p[1]), os.path.join(traces, p[0] + ".pickle")]),
        programs)))
    with open(os.path.join(out, "programs.json"), "w") as f:
        json.dump(recorded, f, indent=1, sort_keys=True)
    print("programs recorded", flush=True)
    seeds = list(range(1, k + 1))
    for seed in seeds:
        subprocess.run([sys.executable, os.path.join(HERE, "oracle.py"), "generate", str(seed),
                        os.path.join(gen, f"{seed}.json")], check=True)
    base = dict(zip(seeds, pool.map(
        lambda s: oracle(os.path.join(gen, f"{s}.json"), record=os.path.join(traces, f"random-{s}.pickle")), seeds)))
    print("random sequences recorded", flush=True)
    # Each program's requests made again by the oracle under the defaults,
    # its own trace recorded: the corpus trace of that program (the oracle's
    # runs under every condition run in the same kind of process).
    made = [n for n, _ in programs if os.path.exists(os.path.join(traces, n + ".pickle"))]
    again = dict(zip(made, pool.map(
        lambda n: oracle(os.path.join(traces, n + ".pickle"), record=os.path.join(traces, n + ".oracle.pickle")),
        made)))
    names = [n + ".oracle" for n in made if os.path.exists(os.path.join(traces, n + ".oracle.pickle"))]
    names += [f"random-{s}" for s in seeds if os.path.exists(os.path.join(traces, f"random-{s}.pickle"))]
    results = {n: {} for n in names}
    for n in made:
        if n + ".oracle" in results:
            results[n + ".oracle"]["recorded"] = again[n]
    for s in seeds:
        if f"random-{s}" in results:
            results[f"random-{s}"]["recorded"] = base[s]
    # Phase A: settings without a capacity (programs: all; random: the defaults).
    tasks = []
    for n in names:
        for conf in (SETTINGS if not n.startswith("random-") else SETTINGS[:1]):
            tasks.append((n, conf, None))

    def go(t):
        n, conf, cap = t
        key = conf + ("" if cap is None else f"@cap={cap}")
        return n, key, oracle(os.path.join(traces, n + ".pickle"), conf, cap)
    for n, key, r in pool.map(go, tasks):
        results[n][key] = r
    with open(os.path.join(out, "oracle.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    print("settings done", flush=True)
    # Phase B: capacities from the oracle's own peak allocated under the defaults.
    tasks = []
    rng = random.Random(7)
    for n in names:
        peak = results[n].get("", {}).get("peak_allocated_bytes")
        if not peak:
            continue
        conds = [("", int(c * peak)) for c in CAPS] + [("garbage_collection_threshold:0.6", int(1.05 * peak))]
        if n.startswith("random-"):
            others = [(c, None) for c in SETTINGS[1:]] + conds
            conds = rng.sample(others, 3)
        tasks += [(n, conf, cap) for conf, cap in conds]
    for n, key, r in pool.map(go, tasks):
        results[n][key] = r
    with open(os.path.join(out, "oracle.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    print("oracle done", len(tasks), flush=True)


if __name__ == "__main__":
    main()
