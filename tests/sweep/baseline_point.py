#!/usr/bin/env python3
"""A point program for `mesure_memoire sweep --point-program` that runs each
point with the Python baseline instead of `mesure_memoire measure`, so that
the same sweep can be run both ways and the per-point process overhead
compared (summary.csv's process_overhead_seconds):

    mesure_memoire sweep --device cuda:0 --point-program tests/sweep/baseline_point.py \\
        --output-dir sweep-python --batch 8..512 --context 4096 --width 8192 --dtype bfloat16

`measure FLAGS` runs a fresh `python3 bench/pytorch_baseline.py FLAGS` (the
same flags; it writes the same phase rows, and no statistics object, so the
sweep takes the medians from the rows); `environment --device cuda:N`
prints the device's name, free and total memory as `mesure_memoire
environment` does, read with PyTorch in a process of its own. Needs a
python3 whose torch sees the GPU."""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BASELINE = os.path.join(HERE, "..", "..", "bench", "pytorch_baseline.py")


def environment(args):
    device = args[args.index("--device") + 1] if "--device" in args else "cuda:0"
    match = re.fullmatch(r"cuda:(\d+)", device)
    if not match:
        print(f"baseline_point.py: --device: '{device}' is not accepted", file=sys.stderr)
        return 2
    report = {"requested": device, "available": False, "reason": None, "name": None, "capability": None,
              "free_memory_bytes": None, "total_memory_bytes": None}
    try:
        import torch
        index = int(match.group(1))
        if not torch.cuda.is_available() or index >= torch.cuda.device_count():
            report["reason"] = f"{device} is not visible to this python3's torch"
        else:
            free, total = torch.cuda.mem_get_info(index)
            props = torch.cuda.get_device_properties(index)
            report.update(available=True, name=props.name, capability=f"{props.major}.{props.minor}",
                          free_memory_bytes=free, total_memory_bytes=total)
    except ImportError:
        report["reason"] = "this python3 has no torch"
    print(json.dumps({"library": {"name": "pytorch baseline", "version": None}, "device": report}))
    return 0


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("environment", "measure"):
        print("usage: baseline_point.py environment|measure FLAGS", file=sys.stderr)
        return 2
    if sys.argv[1] == "environment":
        return environment(sys.argv[2:])
    os.execv(sys.executable, [sys.executable, BASELINE, *sys.argv[2:]])
    return 1


if __name__ == "__main__":
    sys.exit(main())
