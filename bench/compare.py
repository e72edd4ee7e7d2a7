#!/usr/bin/env python3
"""Runs `mesure_memoire measure` (C++) and bench/pytorch_baseline.py (Python)
on the same GPU in one invocation, alternating, and prints medians and ratios:

  1. process wall time of the seed's small trial (1x16x64 float32, warmup 1,
     repeats 2), from process start to result file;
  2. host overhead per warm_forward (phase wall time minus GPU event time),
     median over many repeats, at 1x16x64 and 2x128x1024 float32;
  3. GPU rate (TFLOP/s from CUDA events) at 4x2048x4096 float16 and
     8x4096x8192 bfloat16: at least three runs per side, alternating which
     side goes first; each run gives the median of its repeats, and the
     figure is the median of those run medians with their min and max, so
     that one run on a throttled or shared GPU cannot flip the verdict;
  4. allocator bytes of every phase, C++ against Python, same configuration.

usage: compare.py --cpp BUILD/examples/mesure_memoire --out NEW_FOLDER [--runs N] [--rate-runs N]
Raw figures go to NEW_FOLDER (results.json, rows.csv); nothing is committed.
Python standard library only (the baseline itself needs PyTorch).
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BASELINE = os.path.join(HERE, "pytorch_baseline.py")
BYTE_KEYS = ["baseline_allocated_bytes", "baseline_reserved_bytes", "end_allocated_bytes",
             "end_reserved_bytes", "peak_allocated_bytes", "peak_reserved_bytes"]
TARGETS = {"process": 0.25, "overhead_us": 20.0, "rate": 0.98}
# Fewer runs than this and one slow run is the median.
MIN_RATE_RUNS = 3


def config_args(c):
    return ["--batch", str(c["batch"]), "--context", str(c["context"]), "--width", str(c["width"]),
            "--dtype", c["dtype"], "--warmup", str(c["warmup"]), "--repeats", str(c["repeats"])]


def name(c):
    return f'{c["batch"]}x{c["context"]}x{c["width"]} {c["dtype"]}'


class Runner:
    def __init__(self, cpp, python, device, out):
        self.commands = {"C++": [cpp, "measure"], "Python": [python, BASELINE]}
        self.device, self.out, self.count = device, out, 0

    def run(self, impl, c):
        self.count += 1
        path = os.path.join(self.out, f"run-{self.count:03d}-{impl.replace('+', 'p').lower()}.json")
        cmd = self.commands[impl] + ["--device", self.device] + config_args(c) + ["--output", path]
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - t0
        if p.returncode != 0 or not os.path.exists(path):
            sys.exit(f"compare: {impl} failed on {name(c)} (exit {p.returncode}): {p.stderr.strip()}")
        with open(path) as f:
            return wall, json.load(f)


def warm_rows(record):
    return [r for r in record["phases"] if r["phase"] == "warm_forward"]


def flops(c):
    # Two matrix products of [b*c, w] x [w, 4w]: 2 * 2 * b*c*w*4w.
    return 16 * c["batch"] * c["context"] * c["width"] ** 2


def first_and_second(order, run):
    """The order of the two sides in run number `run` (0-based): as given for
    even runs, reversed for odd ones, so that neither side always runs on a
    GPU the other has just warmed."""
    return list(order) if run % 2 == 0 else list(order)[::-1]


def run_rate(c, record):
    """TFLOP/s of one run: the configuration's operations over the median
    gpu_seconds of its warm_forward rows."""
    return flops(c) / statistics.median(row["gpu_seconds"] for row in warm_rows(record)) / 1e12


def rate_figure(run_rates):
    """The GPU-rate figure of one side: the median of its run rates, with
    their min and max and the runs themselves, in the order they ran."""
    rates = list(run_rates)
    if len(rates) < MIN_RATE_RUNS:
        raise ValueError(f"a GPU-rate figure needs at least {MIN_RATE_RUNS} runs, got {len(rates)}")
    return {"median": statistics.median(rates), "min": min(rates), "max": max(rates), "runs": rates}


def rate_line(config_name, figures):
    """The table's line of one configuration: each side's median of run
    medians with its range, the ratio of the medians, and the target."""
    cpp, py = figures["C++"], figures["Python"]
    q = cpp["median"] / py["median"]
    label = f"3. GPU rate, {config_name}, median of {len(cpp['runs'])} runs"
    return (f"{label:<52}{cpp['median']:>6.1f} TFLOP/s{py['median']:>6.1f} TFLOP/s{q:>6.3f}  >= {TARGETS['rate']}: "
            f"{'met' if q >= TARGETS['rate'] else 'NOT met'}\n"
            f"{'   runs: min - max':<52}{cpp['min']:>6.1f} - {cpp['max']:.1f}  {py['min']:>6.1f} - {py['max']:.1f}")


def compare_bytes(cpp, py):
    """Per phase row: the byte keys that differ, with both values."""
    out = []
    for a, b in zip(cpp["phases"], py["phases"]):
        diffs = {k: (a[k], b[k]) for k in BYTE_KEYS if a[k] != b[k]}
        out.append((a["phase"], a["repeat"], diffs))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cpp", required=True, help="path to the built mesure_memoire")
    ap.add_argument("--out", required=True, help="a new folder for the raw figures")
    ap.add_argument("--python", default=sys.executable, help="the python3 that has PyTorch")
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--runs", type=int, default=5, help="runs of each program for the process time")
    ap.add_argument("--overhead-repeats", type=int, default=300)
    ap.add_argument("--rate-repeats", type=int, default=20)
    ap.add_argument("--rate-runs", type=int, default=MIN_RATE_RUNS,
                    help=f"runs of each program per GPU-rate configuration, at least {MIN_RATE_RUNS}")
    a = ap.parse_args()
    if a.rate_runs < MIN_RATE_RUNS:
        ap.error(f"--rate-runs {a.rate_runs}: expected at least {MIN_RATE_RUNS}, so that one slow run is not the median")
    if os.path.lexists(a.out):
        sys.exit(f"compare: --out {a.out} already exists; expected a new folder")
    os.makedirs(a.out)
    r = Runner(os.path.abspath(a.cpp), a.python, a.device, a.out)
    results = {"runs": []}
    order = ["C++", "Python"]

    def both(c, alternate):
        got = {}
        for impl in first_and_second(order, alternate):
            wall, rec = r.run(impl, c)
            got[impl] = (wall, rec)
            results["runs"].append({"impl": impl, "config": name(c), "process_seconds": wall, "record": rec})
        return got

    # 1. process wall time.
    small = dict(batch=1, context=16, width=64, dtype="float32", warmup=1, repeats=2)
    walls = {"C++": [], "Python": []}
    small_pair = None
    for i in range(a.runs):
        got = both(small, i)
        small_pair = small_pair or got
        for impl in walls:
            walls[impl].append(got[impl][0])
    # 2. host overhead per warm_forward.
    overhead = {}
    pairs = {name(small): small_pair}
    for c in (dict(batch=1, context=16, width=64, dtype="float32", warmup=10, repeats=a.overhead_repeats),
              dict(batch=2, context=128, width=1024, dtype="float32", warmup=10, repeats=a.overhead_repeats)):
        got = both(c, 0)
        pairs[name(c)] = got
        overhead[name(c)] = {impl: statistics.median(
            (row["seconds"] - row["gpu_seconds"]) * 1e6 for row in warm_rows(got[impl][1])) for impl in got}
        overhead[name(c)]["wall_us"] = {impl: statistics.median(row["seconds"] * 1e6 for row in warm_rows(got[impl][1]))
                                        for impl in got}
    # 3. GPU rate: a.rate_runs alternating runs per side and configuration.
    rate = {}
    for c in (dict(batch=4, context=2048, width=4096, dtype="float16", warmup=3, repeats=a.rate_repeats),
              dict(batch=8, context=4096, width=8192, dtype="bfloat16", warmup=3, repeats=a.rate_repeats)):
        rates = {impl: [] for impl in order}
        for i in range(a.rate_runs):
            got = both(c, i)
            pairs.setdefault(name(c), got)
            for impl in order:
                rates[impl].append(run_rate(c, got[impl][1]))
        rate[name(c)] = {impl: rate_figure(v) for impl, v in rates.items()}
    # 4. allocator bytes, every configuration measured above.
    byte_report = {n: compare_bytes(p["C++"][1], p["Python"][1]) for n, p in pairs.items()}

    # The table.
    lines = []
    med = {impl: statistics.median(v) for impl, v in walls.items()}
    ratio = med["C++"] / med["Python"]
    lines.append(f"GPU: {small_pair['C++'][1]['environment']['device']['name']}, "
                 f"LibTorch {small_pair['C++'][1]['environment']['libtorch']['version']} (C++) / "
                 f"PyTorch {small_pair['Python'][1]['environment']['library']['version']} (Python)")
    lines.append("")
    lines.append(f"{'measure':<52}{'C++':>12}{'Python':>12}{'ratio':>9}  target")
    lines.append(f"{'1. process wall, 1x16x64 float32 (median of %d)' % a.runs:<52}"
                 f"{med['C++']:>10.3f} s{med['Python']:>10.3f} s{ratio:>9.3f}  <= {TARGETS['process']:.2f}: "
                 f"{'met' if ratio <= TARGETS['process'] else 'NOT met'}")
    for n, o in overhead.items():
        lines.append(f"{'2. host overhead/pass, ' + n + ' (median)':<52}{o['C++']:>9.1f} us{o['Python']:>9.1f} us"
                     f"{o['C++'] / o['Python']:>9.3f}  C++ <= {TARGETS['overhead_us']:.0f} us: "
                     f"{'met' if o['C++'] <= TARGETS['overhead_us'] else 'NOT met'}")
        lines.append(f"{'   warm_forward wall, ' + n + ' (median)':<52}{o['wall_us']['C++']:>9.1f} us"
                     f"{o['wall_us']['Python']:>9.1f} us{o['wall_us']['C++'] / o['wall_us']['Python']:>9.3f}")
    for n, figures in rate.items():
        lines.append(rate_line(n, figures))
    lines.append("")
    lines.append("4. allocator bytes, C++ against Python, every phase row:")
    for n, rows in byte_report.items():
        differing = [(ph, rep, d) for ph, rep, d in rows if d]
        if not differing:
            lines.append(f"   {n}: identical in all {len(rows)} rows")
        # One line per phase kind: the warm_forward rows repeat one pattern.
        seen = {}
        for ph, rep, d in differing:
            seen.setdefault(ph, []).append((rep, d))
        for ph, items in seen.items():
            rep, d = items[0]
            what = ", ".join(f"{k} {c} vs {p} ({c - p:+d})" for k, (c, p) in d.items())
            more = f" (and {len(items) - 1} more rows)" if len(items) > 1 else ""
            lines.append(f"   {n}: {ph}{'' if rep is None else '#%d' % rep}: {what}{more}")
    non_model = [d for rows in byte_report.values() for ph, _, d in rows if d and ph != "model_load"]
    lines.append(f"   target (identical for inputs, cold_forward, warmup, warm_forward): "
                 f"{'met' if not non_model else 'NOT met'}")
    table = "\n".join(lines)
    print(table)

    results.update({"process_seconds": walls, "host_overhead_us": overhead, "tflops": rate,
                    "bytes": {n: [{"phase": ph, "repeat": rep, "differences": d} for ph, rep, d in rows]
                              for n, rows in byte_report.items()}, "table": table})
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    with open(os.path.join(a.out, "rows.csv"), "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["impl", "config", "process_seconds", "phase", "repeat", "seconds", "gpu_seconds"] + BYTE_KEYS)
        for run in results["runs"]:
            for row in run["record"]["phases"]:
                wr.writerow([run["impl"], run["config"], f'{run["process_seconds"]:.6f}', row["phase"], row["repeat"],
                             row["seconds"], row["gpu_seconds"]] + [row[k] for k in BYTE_KEYS])
    for run_file in os.listdir(a.out):
        if run_file.startswith("run-"):
            os.unlink(os.path.join(a.out, run_file))


if __name__ == "__main__":
    main()
