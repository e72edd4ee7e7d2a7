#!/usr/bin/env python3
"""The measurement protocol of `mesure_memoire measure`, in Python/PyTorch.

Kept in bench/ only as the baseline the benchmark compares the C++ program
against: the same model, the same seeds, the same phases in the same order,
the same allocator readings and the same row keys. It is not part of the
product (the notebook in examples/ is the self-contained Python route).

usage: pytorch_baseline.py --device cuda:N --batch B --context C --width W
                           --dtype float32|float16|bfloat16 --warmup N
                           --repeats N --output NEW_FILE
"""
import argparse
import json
import os
import re
import sys
import tempfile
import time

DTYPE_BYTES = {"float32": 4, "float16": 2, "bfloat16": 2}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", required=True)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--context", type=int, default=16)
    p.add_argument("--width", type=int, default=64)
    p.add_argument("--dtype", choices=sorted(DTYPE_BYTES), default="float32")
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--output", required=True)
    a = p.parse_args()
    m = re.fullmatch(r"cuda:(\d+)", a.device)
    if not m or a.batch < 1 or a.context < 1 or a.width < 1 or a.warmup < 0 or a.repeats < 1:
        sys.exit("pytorch_baseline: bad arguments")
    if os.path.lexists(a.output):
        sys.exit(f"pytorch_baseline: {a.output} already exists")

    import torch

    if not torch.cuda.is_available() or int(m.group(1)) >= torch.cuda.device_count():
        print(f"pytorch_baseline: {a.device} is not available", file=sys.stderr)
        sys.exit(2)
    device = torch.device(a.device)
    torch.cuda.set_device(device)
    dtype = getattr(torch, a.dtype)
    w, hidden = a.width, 4 * a.width
    state = {}

    def measure(phase, repeat, operation):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize(device)
        base_alloc = torch.cuda.memory_allocated(device)
        base_reserved = torch.cuda.memory_reserved(device)
        torch.cuda.reset_peak_memory_stats(device)
        t0 = time.perf_counter()
        start.record()
        kept = operation()
        stop.record()
        torch.cuda.synchronize(device)
        t1 = time.perf_counter()
        row = {
            "phase": phase,
            "repeat": repeat,
            "seconds": t1 - t0,
            "gpu_seconds": start.elapsed_time(stop) / 1000.0,
            "baseline_allocated_bytes": base_alloc,
            "baseline_reserved_bytes": base_reserved,
            "end_allocated_bytes": torch.cuda.memory_allocated(device),
            "end_reserved_bytes": torch.cuda.memory_reserved(device),
            "peak_allocated_bytes": torch.cuda.max_memory_allocated(device),
            "peak_reserved_bytes": torch.cuda.max_memory_reserved(device),
        }
        del kept  # the pass's output lives until after the end reading
        return row

    def load_model():
        # Only the CPU generator is seeded, as in the C++ program.
        torch.random.default_generator.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(w, hidden), torch.nn.GELU(), torch.nn.Linear(hidden, w))
        model.to(device, dtype)
        model.eval()
        state["model"] = model

    def make_inputs():
        g = torch.Generator(device).manual_seed(1)
        state["input"] = torch.randn([a.batch, a.context, w], generator=g, device=device, dtype=dtype)

    def forward():
        with torch.inference_mode():
            return state["model"](state["input"])

    def warmup():
        last = None
        for _ in range(a.warmup):
            last = None
            last = forward()
        return last

    rows = [measure("model_load", None, load_model), measure("inputs", None, make_inputs),
            measure("cold_forward", None, forward), measure("warmup", None, warmup)]
    rows += [measure("warm_forward", r, forward) for r in range(a.repeats)]

    props = torch.cuda.get_device_properties(device)
    parameters = 2 * w * hidden + hidden + w
    record = {
        "schema_version": 1,
        "environment": {"library": {"name": "pytorch baseline", "version": torch.__version__},
                        "cuda_build": torch.version.cuda, "device": {"name": props.name}},
        "configuration": {"device": a.device, "batch": a.batch, "context": a.context, "width": w,
                           "hidden": hidden, "dtype": a.dtype, "warmup": a.warmup, "repeats": a.repeats,
                           "output": os.path.basename(a.output)},
        "synthetic_model": {"layers": [f"Linear({w} -> {hidden})", "GELU", f"Linear({hidden} -> {w})"],
                            "width": w, "hidden": hidden, "parameters": parameters,
                            "parameter_bytes": parameters * DTYPE_BYTES[a.dtype], "dtype": a.dtype},
        "phases": rows,
    }
    folder = os.path.dirname(os.path.abspath(a.output))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".baseline-")
    with os.fdopen(fd, "w") as f:
        json.dump(record, f)
    try:
        os.link(tmp, a.output)
    finally:
        os.unlink(tmp)


if __name__ == "__main__":
    main()
