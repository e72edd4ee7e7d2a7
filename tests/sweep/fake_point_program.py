#!/usr/bin/python3
"""A stand-in for `mesure_memoire` in the sweep's tests (--point-program):
`environment --device D` and `measure ... --output FILE`, with the exit codes
and the files of the real program, and behaviour chosen by a JSON file named
in ITERAGPU_FAKE_POINT_CONFIG:

  gpu_names        {"cuda:0": "Fake GPU A", ...}     default "Fake GPU"
  free_bytes       free memory `environment` reports (default 100 GiB)
  total_bytes      total memory (default 140 GiB)
  unavailable      true: `environment` reports the device unavailable
  oom_above_bytes  `measure` exits 3 (CUDA out of memory) when the point's
                   activations, batch x context x width x 4 x dtype bytes,
                   exceed it
  fail_batch       `measure` exits 1 with a message for this batch
  sleep_batch      `measure` reserves its output as the real one does (a
                   .iteragpu-PID-0.partial in the output's folder), then
  sleep_seconds    sleeps this long before writing
  every_seconds    every `measure` sleeps this long (to see points overlap)
  schema           1 (default) or 2 (rows with device-used bytes and a
                   statistics object)
  log              a file to which each process appends one line:
                   "start|end PID DEVICE BATCH TIME"

The figures it writes are made up from the shape; only their flow through
the sweep is under test."""
import json
import os
import signal
import sys
import time

DTYPE_BYTES = {"float32": 4, "float16": 2, "bfloat16": 2}


def config():
    path = os.environ.get("ITERAGPU_FAKE_POINT_CONFIG")
    if not path:
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def flags(words):
    out = {}
    for i in range(0, len(words) - 1, 2):
        out[words[i].lstrip("-")] = words[i + 1]
    return out


def log(c, what, device, batch):
    if "log" in c:
        with open(c["log"], "a", encoding="utf-8") as f:
            f.write(f"{what} {os.getpid()} {device} {batch} {time.monotonic():.6f}\n")


def environment(c, f):
    device = f.get("device", "cuda:0")
    name = c.get("gpu_names", {}).get(device, "Fake GPU")
    if c.get("unavailable"):
        doc = {"device": {"requested": device, "available": False, "reason": "fake: no GPU here",
                          "name": None, "free_memory_bytes": None, "total_memory_bytes": None}}
    else:
        doc = {"device": {"requested": device, "available": True, "reason": None, "name": name,
                          "capability": "9.0", "free_memory_bytes": c.get("free_bytes", 100 << 30),
                          "total_memory_bytes": c.get("total_bytes", 140 << 30)},
               "library": {"name": "fake", "version": "0.0.0"}}
    print(json.dumps(doc))
    return 0


def measure(c, f):
    device = f["device"]
    batch, context, width = int(f["batch"]), int(f["context"]), int(f["width"])
    dtype = f["dtype"]
    warmup = int(f["warmup"])
    repeats = 3 if f["repeats"] == "auto" else int(f["repeats"])
    output = f["output"]
    log(c, "start", device, batch)
    if os.path.lexists(output):
        print(f"mesure_memoire measure: --output: '{output}' already exists", file=sys.stderr)
        return 2
    partial = os.path.join(os.path.dirname(output) or ".", f".iteragpu-{os.getpid()}-0.partial")
    open(partial, "w").close()
    try:
        if c.get("sleep_batch") == batch:
            time.sleep(c.get("sleep_seconds", 30))
        time.sleep(c.get("every_seconds", 0))
        activations = batch * context * width * 4 * DTYPE_BYTES[dtype]
        if activations > c.get("oom_above_bytes", 1 << 62):
            print("mesure_memoire measure: failed during phase cold_forward: CUDA out of memory. Tried to allocate "
                  f"{activations} bytes; no file was written", file=sys.stderr)
            print("a second line that the sweep must not keep", file=sys.stderr)
            return 3
        if c.get("fail_batch") == batch:
            print("mesure_memoire measure: fake failure\tfor this batch", file=sys.stderr)
            return 1
        weights = 8 * width * width * DTYPE_BYTES[dtype]
        rows = []
        names = ["model_load", "inputs", "cold_forward", "warmup"] + ["warm_forward"] * repeats
        for i, phase in enumerate(names):
            peak = weights + (activations if phase != "model_load" else 0)
            row = {"phase": phase, "repeat": i - 4 if phase == "warm_forward" else None,
                   "seconds": 0.001 * (i + 1), "gpu_seconds": 0.0005 * (i + 1),
                   "baseline_allocated_bytes": 0, "baseline_reserved_bytes": 0,
                   "end_allocated_bytes": weights, "end_reserved_bytes": weights + 2048,
                   "peak_allocated_bytes": peak, "peak_reserved_bytes": peak + 4096}
            if c.get("schema", 1) == 2:
                row["baseline_device_used_bytes"] = 500_000_000
                row["end_device_used_bytes"] = 500_000_000 + weights + 2048 + 40_000_000
            rows.append(row)
        doc = {"schema_version": c.get("schema", 1),
               "environment": {"device": {"name": c.get("gpu_names", {}).get(device, "Fake GPU"),
                                          "total_memory_bytes": c.get("total_bytes", 140 << 30)}},
               "configuration": {"device": device, "batch": batch, "context": context, "width": width,
                                 "dtype": dtype, "warmup": warmup, "repeats": repeats},
               "phases": rows}
        if c.get("schema", 1) == 2:
            doc["statistics"] = {"warm_forward": {
                "seconds": {"count": repeats, "median": 0.0042, "median_ci": {"lower": 0.004, "upper": 0.0045}},
                "gpu_seconds": {"count": repeats, "median": 0.0021, "median_ci": None}},
                "repeats_with_gpu_state": 0, "repeats_under_throttling": 0}
        with open(partial, "w", encoding="utf-8") as out:
            json.dump(doc, out)
        os.link(partial, output)
        print("wrote " + output)
        return 0
    finally:
        os.unlink(partial)
        log(c, "end", device, batch)


def main():
    # Killed by Ctrl-C like a C++ program, without running `finally`: the
    # partial file stays for the sweep to remove.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    c = config()
    if len(sys.argv) < 2:
        return 2
    f = flags(sys.argv[2:])
    if sys.argv[1] == "environment":
        return environment(c, f)
    if sys.argv[1] == "measure":
        return measure(c, f)
    return 2


if __name__ == "__main__":
    sys.exit(main())
