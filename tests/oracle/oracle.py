#!/usr/bin/env python3
"""The differential oracle of `replay`: a trace's requests made, in order, to
PyTorch's own CUDA caching allocator.

    python3 oracle.py run OPS.json|SNAPSHOT.pickle [--capacity-bytes N]
                          [--record OUT.pickle] [--result OUT.json]
    python3 oracle.py generate SEED OUT.json [--boundaries]

`run` reads the requests (an ops file written by `generate`, or the
`device_traces[0]` of a PyTorch memory snapshot: each `alloc` with its
requested size and stream, each `free_completed` of a block an earlier
`alloc` made, and an emptyCache before a request wherever the recorded
trace released segments since the previous request) and makes them with
torch.cuda.caching_allocator_alloc / caching_allocator_delete on the
request's stream (the trace's streams mapped, in order of appearance, to the
default stream and then to new streams), torch.cuda.empty_cache() where an
emptyCache stands. Nothing else runs in between: no kernel, no program that
adapts its requests. PYTORCH_CUDA_ALLOC_CONF is the caller's environment;
--capacity-bytes sets torch.cuda.set_per_process_memory_fraction to
capacity / total memory. It prints (and with --result writes) one JSON
object: the peaks (max_memory_allocated, max_memory_reserved), the retries
(num_alloc_retries), the out-of-memory count, the first refused request
(its index among the requests, its event index in the snapshot, its size)
and the capacity the allocator computed. The run stops at the first
refused request, as a replay does. With --record the oracle's own memory
history is dumped: a real trace of these requests under these settings.

`generate` writes a randomised request sequence (sizes from 1 byte to GiBs
around the allocator's boundaries: 512 bytes, 1 MiB, 10 MiB, 2 MiB steps;
frees in random order; emptyCache at random; one or two streams). With
--boundaries it writes the second kind (generate_boundaries): sizes within
a few bytes of every rounding boundary (512 bytes, 1, 2, 10 and 20 MiB, and
the max_split_size values 64 and 256 MiB the corpus runs), frees in random,
last-in-first-out or first-in-first-out order, one to four streams. Both are
deterministic by seed: the first kind's sequences are those of the H200
corpus (tests/data/oracle/oracle.json) and must stay as they are.

`run_here` is `run` for a process forked from one that imported torch but
never touched CUDA (corpus.py's runner): it sets PYTORCH_CUDA_ALLOC_CONF
before the first CUDA call, both in the environment and through PyTorch's
own setter, since the allocator's configuration may have been read when
torch was imported.

The snapshot is read with a restricted unpickler: plain data only, no
global is ever looked up.
"""
import json
import pickle
import random
import sys


class _PlainData(pickle.Unpickler):
    def find_class(self, module, name):  # noqa: D401 - refuse every global
        raise pickle.UnpicklingError(f"refused global {module}.{name}")


def ops_from_snapshot(path):
    with open(path, "rb") as f:
        snap = _PlainData(f).load()
    traces = snap["device_traces"]
    events = traces[0] if traces else []
    ops = []
    live = {}
    next_id = 0
    released = False
    for index, e in enumerate(events):
        action = e["action"]
        if action in ("segment_free", "segment_unmap"):
            released = True
            continue
        if action not in ("alloc", "free_completed"):
            continue
        if released:
            ops.append(["e"])
            released = False
        if action == "alloc":
            live[e["addr"]] = next_id
            ops.append(["a", next_id, int(e["size"]), int(e["stream"]), index])
            next_id += 1
        else:
            block = live.pop(e["addr"], None)
            if block is not None:
                ops.append(["f", block])
    if released:
        ops.append(["e"])
    return ops


def generate(seed):
    rng = random.Random(seed)
    boundaries = [512, 1 << 20, 10 << 20, 2 << 20, 20 << 20, 64 << 20, 256 << 20]

    def size():
        r = rng.random()
        if r < 0.3:
            b = rng.choice(boundaries)
            return max(1, b + rng.randint(-1024, 1024))
        if r < 0.55:
            return rng.randint(1, 1 << 20)
        if r < 0.9:
            return rng.randint(1 << 20, 64 << 20)
        if r < 0.98:
            return rng.randint(64 << 20, 512 << 20)
        return rng.randint(512 << 20, 2 << 30)

    streams = [0] if rng.random() < 0.8 else [0, 1]
    count = rng.randint(100, 1500)
    budget = rng.choice([256 << 20, 1 << 30, 4 << 30])
    ops = []
    live = {}
    live_bytes = 0
    next_id = 0
    for _ in range(count):
        r = rng.random()
        if r < 0.01:
            ops.append(["e"])
        elif live and (r < 0.45 or live_bytes > budget):
            block = rng.choice(list(live))
            live_bytes -= live.pop(block)
            ops.append(["f", block])
        else:
            s = size()
            ops.append(["a", next_id, s, rng.choice(streams), None])
            live[next_id] = s
            live_bytes += s
            next_id += 1
    return {"seed": seed, "ops": ops}


def generate_boundaries(seed):
    """The second kind of sequence: sizes at the rounding boundaries, frees in
    one of several orders, up to four streams (see the module's text)."""
    rng = random.Random(1_000_003 * seed + 49)
    boundaries = [512, 1 << 20, 2 << 20, 10 << 20, 20 << 20, 64 << 20, 256 << 20]
    offsets = [-512, -1, 0, 1, 511, 512]

    def size():
        r = rng.random()
        if r < 0.55:
            b = rng.choice(boundaries)
            o = rng.choice(offsets) if rng.random() < 0.7 else rng.randint(-4096, 4096)
            return max(1, b + o)
        if r < 0.7:
            return rng.randint(1, 1 << 20)
        if r < 0.93:
            return rng.randint(1 << 20, 64 << 20)
        return rng.randint(64 << 20, 600 << 20)

    streams = rng.choice([1, 1, 2, 2, 3, 4])
    order = rng.choice(["random", "lifo", "fifo", "mixed"])
    count = rng.randint(300, 1200)
    budget = rng.choice([512 << 20, 2 << 30, 4 << 30])
    ops = []
    live = []
    sizes = {}
    live_bytes = 0
    next_id = 0
    for _ in range(count):
        r = rng.random()
        if r < 0.015:
            ops.append(["e"])
        elif live and (r < 0.45 or live_bytes > budget):
            how = order if order != "mixed" else rng.choice(["random", "random", "lifo", "fifo"])
            at = {"random": rng.randrange(len(live)), "lifo": len(live) - 1, "fifo": 0}[how]
            block = live.pop(at)
            live_bytes -= sizes.pop(block)
            ops.append(["f", block])
        else:
            s = size()
            ops.append(["a", next_id, s, rng.randrange(streams), None])
            live.append(next_id)
            sizes[next_id] = s
            live_bytes += s
            next_id += 1
    return {"seed": seed, "kind": "boundaries", "streams": streams, "free_order": order, "ops": ops}


def most_live_bytes(ops):
    """The most bytes the requests hold at once, each rounded up to 512."""
    live = {}
    now = most = 0
    for op in ops:
        if op[0] == "a":
            live[op[1]] = (op[2] + 511) // 512 * 512
            now += live[op[1]]
            most = max(most, now)
        elif op[0] == "f":
            now -= live.pop(op[1], 0)
    return most


def apply_settings(torch, conf):
    """PYTORCH_CUDA_ALLOC_CONF = conf for this process, before its first CUDA call."""
    import os
    os.environ.pop("PYTORCH_ALLOC_CONF", None)
    if conf:
        os.environ["PYTORCH_CUDA_ALLOC_CONF"] = conf
    else:
        os.environ.pop("PYTORCH_CUDA_ALLOC_CONF", None)
    if not conf:
        return
    setter = getattr(torch._C, "_accelerator_setAllocatorSettings", None)
    if setter is None:
        setter = torch.cuda.memory._set_allocator_settings
    setter(conf)


def run_here(ops, conf, capacity, record, result_path):
    """`run` in a forked process that has not touched CUDA (see the module's text)."""
    import torch
    if torch.cuda.is_initialized():
        raise RuntimeError("CUDA was initialised before the fork: the allocator's settings cannot be set")
    apply_settings(torch, conf)
    run(ops, capacity, record, result_path, conf)


def run(ops, capacity, record, result_path, conf=None):
    import torch

    total = torch.cuda.get_device_properties(0).total_memory
    allowed = None
    if capacity is not None:
        fraction = capacity / total
        torch.cuda.set_per_process_memory_fraction(fraction, 0)
        allowed = int(fraction * float(total))
    if record:
        torch.cuda.memory._record_memory_history(enabled="all", context=None, stacks="python")
    stream_of = {}

    def stream(recorded):
        if recorded not in stream_of:
            stream_of[recorded] = torch.cuda.default_stream() if not stream_of else torch.cuda.Stream()
        return stream_of[recorded]

    blocks = {}
    refused = None
    requests = 0
    for op in ops:
        if op[0] == "e":
            torch.cuda.empty_cache()
            continue
        if op[0] == "f":
            ptr = blocks.pop(op[1], None)
            if ptr:
                torch.cuda.caching_allocator_delete(ptr)
            requests += 1
            continue
        _, block, size, recorded_stream, event = op
        s = stream(recorded_stream)
        try:
            blocks[block] = torch.cuda.caching_allocator_alloc(size, 0, s)
        except torch.OutOfMemoryError as error:
            refused = {"request": requests, "event": event, "size": size,
                       "message": str(error).splitlines()[0]}
            break
        requests += 1
    torch.cuda.synchronize()
    stats = torch.cuda.memory_stats()
    maps = None
    if record:
        snapshot = torch.cuda.memory._snapshot()
        traces = snapshot.get("device_traces") or [[]]
        maps = sum(1 for e in traces[0] if e.get("action") == "segment_map")
    out = {
        "peak_allocated_bytes": torch.cuda.max_memory_allocated(),
        "peak_reserved_bytes": torch.cuda.max_memory_reserved(),
        "alloc_retries": stats.get("num_alloc_retries", 0),
        "ooms": stats.get("num_ooms", 0),
        "oom": refused is not None,
        "refused": refused,
        "requests": requests,
        "capacity_bytes": allowed,
        "total_memory": total,
        "torch": torch.__version__,
        # What the allocator was built with: shows that the settings took.
        "max_split_size": stats.get("max_split_size"),
    }
    if maps is not None:
        out["segment_maps"] = maps
    if conf is not None:
        out["conf"] = conf
    if record:
        torch.cuda.memory._dump_snapshot(record)
    text = json.dumps(out, sort_keys=True)
    if result_path:
        with open(result_path, "x") as f:
            f.write(text + "\n")
    print(text)


def main(argv):
    if len(argv) >= 4 and argv[1] == "generate":
        maker = generate_boundaries if "--boundaries" in argv[4:] else generate
        with open(argv[3], "x") as f:
            json.dump(maker(int(argv[2])), f)
        return 0
    if len(argv) >= 3 and argv[1] == "run":
        source = argv[2]
        capacity = record = result = None
        rest = argv[3:]
        while rest:
            flag, value, rest = rest[0], rest[1], rest[2:]
            if flag == "--capacity-bytes":
                capacity = int(value)
            elif flag == "--record":
                record = value
            elif flag == "--result":
                result = value
            else:
                raise SystemExit(f"oracle.py: unknown flag {flag!r}")
        if source.endswith(".json"):
            with open(source) as f:
                ops = json.load(f)["ops"]
        else:
            ops = ops_from_snapshot(source)
        run(ops, capacity, record, result)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
