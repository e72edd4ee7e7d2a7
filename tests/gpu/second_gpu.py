#!/usr/bin/env python3
"""Two-GPU checks of mesure_memoire (CTest label `gpu`; skipped, visibly,
where fewer than two GPUs can be measured).

- `environment` lists every GPU and `--device cuda:1` describes the second;
- `measure --device cuda:1` gives the same allocator bytes, row for row, as
  `measure --device cuda:0` for the same configuration;
- while cuda:1 is measured, the vendor's tool (nvidia-smi) never shows this
  process on GPU 0: no CUDA context and no memory there;
- `--device cuda:N` past the last GPU exits 2 and names the GPUs that exist.

usage: second_gpu.py PATH/TO/mesure_memoire WORK_FOLDER   (standard library only)
"""
import json
import os
import shutil
import subprocess
import sys
import time

BYTE_KEYS = ["baseline_allocated_bytes", "baseline_reserved_bytes", "end_allocated_bytes",
             "end_reserved_bytes", "peak_allocated_bytes", "peak_reserved_bytes"]
CONFIG = ["--batch", "8", "--context", "4096", "--width", "8192", "--dtype", "bfloat16", "--warmup", "3",
          "--repeats", "20"]


def fail(message):
    print(f"second_gpu: FAILED: {message}")
    sys.exit(1)


def run(program, *args):
    return subprocess.run([program, *args], capture_output=True, text=True)


def smi(*query):
    out = subprocess.run(["nvidia-smi", *query, "--format=csv,noheader,nounits"], capture_output=True, text=True)
    return [line.split(", ") for line in out.stdout.strip().splitlines() if line.strip()]


def main():
    program, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = run(program, "environment", "--device", "cuda:1")
    if env.returncode != 0:
        fail(f"environment exited {env.returncode}: {env.stderr}")
    report = json.loads(env.stdout)
    gpus = report["gpus"]
    if len(gpus) < 2:
        print(f"ITERAGPU-SKIP: {len(gpus)} GPU(s) visible; these checks need two")
        return
    if not report["device"]["available"] or report["device"]["name"] != gpus[1]["name"]:
        fail(f"cuda:1 is not described: {report['device']}")
    if [g["index"] for g in gpus] != list(range(len(gpus))):
        fail(f"gpus are not listed by index: {gpus}")

    records = {}
    for device in ("cuda:0", "cuda:1"):
        out = os.path.join(work, f"{device.replace(':', '-')}.json")
        p = subprocess.Popen([program, "measure", "--device", device, *CONFIG, "--output", out],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        seen = {}
        if device == "cuda:1" and shutil.which("nvidia-smi"):
            uuid_to_index = {uuid: int(index) for index, uuid in smi("--query-gpu=index,uuid")}
            while p.poll() is None:
                for pid, uuid, used in smi("--query-compute-apps=pid,gpu_uuid,used_memory"):
                    if int(pid) == p.pid:
                        index = uuid_to_index.get(uuid, -1)
                        seen[index] = max(seen.get(index, 0), int(used))
                time.sleep(0.1)
        _, err = p.communicate()
        if p.returncode != 0:
            fail(f"measure on {device} exited {p.returncode}: {err}")
        with open(out) as f:
            records[device] = json.load(f)
        if device == "cuda:1":
            print(f"nvidia-smi, this process while measuring cuda:1: MiB used per GPU index {seen}")
            if 0 in seen:
                fail(f"the measurement of cuda:1 holds {seen[0]} MiB on GPU 0 (a CUDA context there)")
            if 1 not in seen:
                print("note: nvidia-smi never listed the process on GPU 1 (sampling too slow?)")

    a, b = records["cuda:0"]["phases"], records["cuda:1"]["phases"]
    if len(a) != len(b):
        fail("different row counts")
    for ra, rb in zip(a, b):
        for k in BYTE_KEYS:
            if ra[k] != rb[k]:
                fail(f"{ra['phase']} {ra['repeat']}: {k} {ra[k]} on cuda:0, {rb[k]} on cuda:1")
    print(f"allocator bytes identical on cuda:0 and cuda:1 in all {len(a)} rows")

    past = f"cuda:{len(gpus)}"
    p = run(program, "measure", "--device", past, "--output", os.path.join(work, "past.json"))
    names = ", ".join(f"cuda:{g['index']} ({g['name']})" for g in gpus)
    if p.returncode != 2 or f"visible GPUs: {names}" not in p.stderr or os.path.exists(os.path.join(work, "past.json")):
        fail(f"{past}: exit {p.returncode}, stderr {p.stderr!r}")
    print(f"{past} refused: {p.stderr.strip()}")


if __name__ == "__main__":
    main()
