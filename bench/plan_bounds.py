#!/usr/bin/env python3
"""Bounded work of `plan` and of a predict-only sweep at the largest counts
they accept (10,000 warm-up passes and 10,000 repeats, the limit of every
command): the wall time and the peak resident memory of each process,
median of --runs runs, against the same command at the default counts.

usage: bench/plan_bounds.py PATH/TO/mesure_memoire [--runs N]

Each command runs in a process of its own; its peak memory is the
ru_maxrss that os.wait4 reports for it (started by posix_spawn). A predict-only sweep writes its
folder under a scratch directory that is removed afterwards.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

SHAPE = ["--batch", "8", "--context", "4096", "--width", "8192", "--dtype", "bfloat16"]
LARGEST = ["--warmup", "10000", "--repeats", "10000"]


def measure(argv):
    """(seconds, peak resident KiB, exit status) of one process."""
    # posix_spawn (a vfork, not a fork): the child's peak memory is its own,
    # not the copy of this interpreter's pages that a fork would count.
    devnull = os.open(os.devnull, os.O_WRONLY)
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - start
    os.close(devnull)
    return seconds, usage.ru_maxrss, os.waitstatus_to_exitcode(status)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("program")
    p.add_argument("--runs", type=int, default=5)
    a = p.parse_args()
    if not os.access(a.program, os.X_OK):
        print(f"plan_bounds.py: {a.program!r} is not an executable program", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="iteragpu-bench-") as scratch:
        cases = [
            ("plan, default counts", [a.program, "plan", *SHAPE]),
            ("plan, largest counts", [a.program, "plan", *SHAPE, *LARGEST]),
            ("sweep --predict-only, 4 points, default counts",
             [a.program, "sweep", "--predict-only", "--batch", "1,8", "--context", "4096", "--width", "4096,8192",
              "--dtype", "bfloat16", "--output-dir", os.path.join(scratch, "default-{run}")]),
            ("sweep --predict-only, 4 points, largest counts",
             [a.program, "sweep", "--predict-only", "--batch", "1,8", "--context", "4096", "--width", "4096,8192",
              "--dtype", "bfloat16", *LARGEST, "--output-dir", os.path.join(scratch, "largest-{run}")]),
        ]
        print(f"{'command':<50} {'median s':>9} {'max s':>7} {'peak RSS MiB':>13}")
        failed = False
        for name, argv in cases:
            times, peaks = [], []
            for run in range(a.runs):
                seconds, peak_kib, code = measure([x.replace("{run}", str(run)) for x in argv])
                if code != 0:
                    print(f"{name}: exit status {code}", file=sys.stderr)
                    failed = True
                times.append(seconds)
                peaks.append(peak_kib)
            print(f"{name:<50} {statistics.median(times):>9.3f} {max(times):>7.3f} {max(peaks) / 1024:>13.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
