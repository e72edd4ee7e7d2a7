#!/usr/bin/env python3
"""The per-point process overhead of a sweep against the same points run
with the PyTorch baseline, each point a fresh `python3 pytorch_baseline.py`
process, as a sweep runs a fresh `mesure_memoire measure` per point.

The overhead of a point is its process's wall time (from the start of the
process to its exit) less the time of its measured phases: starting the
interpreter or the program, loading the libraries, describing the
environment, writing the result. For the sweep it is the summary's
`process_overhead_seconds`; for the baseline it is measured here the same
way.

usage: sweep_overhead.py --summary SWEEP_DIR/summary.csv [--summary ...]
                         --out NEW_FILE [--device cuda:N] [--budget SECONDS]

Every point of the summaries whose outcome is `measured` is run once with
the baseline, with the same batch, context, width, dtype, warmup and
repeats; no point is started once --budget seconds (default 600) are spent.
Prints one line per point and the medians; the raw figures go to NEW_FILE
(JSON). Python standard library only (the baseline itself needs PyTorch).
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pytorch_baseline.py")
KEYS = ("batch", "context", "width", "dtype", "warmup", "repeats")


def measured_points(paths):
    points = []
    for path in paths:
        with open(path, encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                if row.get("outcome") != "measured":
                    continue
                missing = [k for k in KEYS + ("process_overhead_seconds",) if not row.get(k)]
                if missing:
                    sys.exit(f"sweep_overhead: {path}: row {row.get('index')} lacks {', '.join(missing)}")
                point = {k: row[k] for k in KEYS}
                point["source"] = row.get("source") or os.path.basename(os.path.dirname(os.path.abspath(path)))
                point["sweep_overhead_seconds"] = float(row["process_overhead_seconds"])
                points.append(point)
    return points


def run_baseline(point, device, folder):
    output = os.path.join(folder, f"{point['source']}-{point['batch']}x{point['context']}x{point['width']}.json")
    command = [sys.executable, BASELINE, "--device", device, "--output", output]
    for k in KEYS:
        command += [f"--{k}", point[k]]
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        return {"exit_code": done.returncode, "error": first, "wall_seconds": wall}
    with open(output, encoding="utf-8") as f:
        phases = json.load(f)["phases"]
    phase_seconds = sum(p["seconds"] for p in phases)
    return {"exit_code": 0, "wall_seconds": wall, "phase_seconds": phase_seconds,
            "overhead_seconds": wall - phase_seconds}


def main():
    p = argparse.ArgumentParser(description="per-point process overhead: sweep against the PyTorch baseline")
    p.add_argument("--summary", action="append", required=True, help="a sweep's summary.csv (repeatable)")
    p.add_argument("--out", required=True, help="new JSON file for the raw figures")
    p.add_argument("--device", default="cuda:0")
    p.add_argument("--budget", type=float, default=600.0)
    a = p.parse_args()
    if os.path.lexists(a.out):
        sys.exit(f"sweep_overhead: --out {a.out} already exists (expected a new file)")
    points = measured_points(a.summary)
    if not points:
        sys.exit("sweep_overhead: no measured point in the summaries")
    started = time.monotonic()
    results = []
    with tempfile.TemporaryDirectory(prefix="sweep-overhead-") as folder:
        for point in points:
            if time.monotonic() - started > a.budget:
                print(f"budget of {a.budget:g} s spent: {len(points) - len(results)} point(s) not run")
                break
            figures = run_baseline(point, a.device, folder)
            results.append({**point, "baseline": figures})
            shape = f"{point['batch']}x{point['context']}x{point['width']} {point['dtype']}"
            if figures["exit_code"] != 0:
                print(f"{point['source']:>12} {shape:>24}: baseline exit {figures['exit_code']}: {figures['error']}")
                continue
            print(f"{point['source']:>12} {shape:>24}: overhead sweep {point['sweep_overhead_seconds']:.3f} s,"
                  f" baseline {figures['overhead_seconds']:.3f} s (wall {figures['wall_seconds']:.3f} s)")
    ours = [r["sweep_overhead_seconds"] for r in results if r["baseline"]["exit_code"] == 0]
    theirs = [r["baseline"]["overhead_seconds"] for r in results if r["baseline"]["exit_code"] == 0]
    summary = {"points": len(ours)}
    if ours:
        summary.update({"sweep_median_seconds": statistics.median(ours),
                        "baseline_median_seconds": statistics.median(theirs)})
        summary["ratio"] = summary["sweep_median_seconds"] / summary["baseline_median_seconds"]
        print(f"median overhead per point over {len(ours)} points: sweep {summary['sweep_median_seconds']:.3f} s,"
              f" baseline {summary['baseline_median_seconds']:.3f} s, ratio {summary['ratio']:.3f}")
    with open(a.out, "x", encoding="utf-8") as f:
        json.dump({"summary": summary, "points": results}, f, indent=1)
    return 0 if ours else 1


if __name__ == "__main__":
    sys.exit(main())
