#!/usr/bin/env python3
"""The CPU time of `mesure_memoire extrapolate --largest` over the whole
shipped catalog, on five programs of the committed truth (tests/data/sizes/:
traces at 1, 2, 3, 4 and the powers of two to 512).

    python3 bench/extrapolate_catalog.py MESURE_MEMOIRE [--runs K]

Prints, per program, the median over K runs (default 5) of the CPU seconds
(user + system) of the whole command: reading eleven snapshots, matching and
fitting, the search under each of the catalog's GPUs and the verdict of
every card at every size found. The goal: under one second each.
"""
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = [1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512]
PROGRAMS = ["encoder_train", "decoder_bf16_train", "lstm_train", "conv_bn_train", "ts_encoder_train"]


def cpu_seconds(args):
    before = os.times()
    p = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = os.times()
    if p.returncode != 0:
        raise SystemExit(f"{args[1]} exited {p.returncode}: {p.stderr.strip()[:300]}")
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def main(argv):
    program = argv[1]
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 5
    folder = os.path.join(HERE, "..", "tests", "data", "sizes")
    worst = 0.0
    for name in PROGRAMS:
        files = [os.path.join(folder, f"{name}.b{n}.pickle") for n in SIZES]
        args = [program, "extrapolate", *files, "--sizes", ",".join(map(str, SIZES)), "--largest", "--json"]
        median = statistics.median(cpu_seconds(args) for _ in range(runs))
        worst = max(worst, median)
        print(f"{name}: {median:.3f} s of CPU (median of {runs}) for --largest over the whole catalog", flush=True)
    print(f"slowest: {worst:.3f} s; goal: under 1 s each: {'met' if worst < 1.0 else 'NOT met'}")
    return 0 if worst < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
