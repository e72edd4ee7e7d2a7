#!/usr/bin/env python3
"""bench/estimate_startup.py WITH_TORCH WITHOUT_TORCH [--runs N]

Times `mesure_memoire estimate` (a command that needs no GPU) in a build with
LibTorch against a build without it, alternating the two, and prints the
median wall time of each and their ratio (goal: within 2x: the LibTorch
build must not load LibTorch for it), and lists the LibTorch libraries
`ldd` finds linked into mesure_memoire (there must be none: only its module
loads LibTorch).
"""
import argparse
import statistics
import subprocess
import sys
import time

ARGS = ["estimate", "--parameters", "7000000000", "--bits", "16", "--reserve-gib", "4"]


def once(program):
    started = time.perf_counter()
    done = subprocess.run([program] + ARGS, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"estimate_startup: {program} exited {done.returncode}: {done.stderr.decode(errors='replace')}")
    return elapsed


def torch_libraries(program):
    listed = subprocess.run(["ldd", program], capture_output=True, text=True, check=False).stdout
    return [line.split()[0] for line in listed.splitlines() if "libtorch" in line or "libc10" in line]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[2])
    parser.add_argument("with_torch")
    parser.add_argument("without_torch")
    parser.add_argument("--runs", type=int, default=21)
    options = parser.parse_args()
    with_torch, without_torch = [], []
    for _ in range(options.runs):
        with_torch.append(once(options.with_torch))
        without_torch.append(once(options.without_torch))
    a, b = statistics.median(with_torch), statistics.median(without_torch)
    print(f"estimate, median of {options.runs} runs each, alternating:")
    print(f"  build with LibTorch     {a * 1000:8.2f} ms  (min {min(with_torch) * 1000:.2f}, max {max(with_torch) * 1000:.2f})")
    print(f"  build without LibTorch  {b * 1000:8.2f} ms  (min {min(without_torch) * 1000:.2f}, max {max(without_torch) * 1000:.2f})")
    print(f"  ratio {a / b:.2f} (goal: at most 2)")
    linked = torch_libraries(options.with_torch)
    print(f"  LibTorch libraries linked into {options.with_torch}: {', '.join(linked) if linked else 'none'}")
    return 0 if a / b <= 2 and not linked else 1


if __name__ == "__main__":
    sys.exit(main())
