#!/usr/bin/env python3
"""fake_side.py: stands in for both sides of bench/compare.py with no GPU.

As the C++ program:  fake_side.py measure --device D --batch B ... --output F
As the Python side:  fake_side.py .../pytorch_baseline.py --device D ... --output F
(compare.py runs `--python` with the baseline's path as first word.)

Writes a record with the rows compare.py reads: every warm_forward pass takes
the configuration's 16 b c w^2 operations at 700 TFLOP/s (C++) or 705
TFLOP/s (Python). The C++ side's second run of each GPU-rate configuration
(batch 4 or 8) is throttled: 1.5 times slower. Runs are counted in a file
beside the output."""
import argparse
import json
import os
import sys


def main():
    side = "C++" if sys.argv[1] == "measure" else "Python"
    p = argparse.ArgumentParser()
    for flag in ("--device", "--dtype", "--output"):
        p.add_argument(flag, required=True)
    for flag in ("--batch", "--context", "--width", "--warmup", "--repeats"):
        p.add_argument(flag, type=int, required=True)
    a = p.parse_args(sys.argv[2:])
    operations = 16 * a.batch * a.context * a.width ** 2
    seconds = operations / (700e12 if side == "C++" else 705e12)
    if side == "C++" and a.batch in (4, 8):
        counter = os.path.join(os.path.dirname(a.output), f"fake-rate-runs-{a.batch}")
        runs = int(open(counter).read()) + 1 if os.path.exists(counter) else 1
        with open(counter, "w") as f:
            f.write(str(runs))
        if runs == 2:
            seconds *= 1.5
    row = {k: 0 for k in ("baseline_allocated_bytes", "baseline_reserved_bytes", "end_allocated_bytes",
                          "end_reserved_bytes", "peak_allocated_bytes", "peak_reserved_bytes")}
    phases = [dict(row, phase=ph, repeat=None, seconds=0.01, gpu_seconds=0.01)
              for ph in ("model_load", "inputs", "cold_forward", "warmup")]
    phases += [dict(row, phase="warm_forward", repeat=r, seconds=seconds + 5e-6, gpu_seconds=seconds)
               for r in range(a.repeats)]
    environment = ({"device": {"name": "fake GPU"}, "libtorch": {"version": "fake"}} if side == "C++"
                   else {"library": {"version": "fake torch"}})
    with open(a.output, "w") as f:
        json.dump({"schema_version": 1, "environment": environment, "phases": phases}, f)


if __name__ == "__main__":
    main()
