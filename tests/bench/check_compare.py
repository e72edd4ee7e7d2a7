#!/usr/bin/env python3
"""check_compare.py BENCH_COMPARE: checks the GPU-rate figure of
bench/compare.py with no GPU and no PyTorch: its arithmetic on made-up
numbers, then a whole run of the script over fake_side.py (both sides), whose
C++ side has one throttled run per GPU-rate configuration. Exits 0 when every
check holds, 1 naming the first that does not."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile


def load(path):
    spec = importlib.util.spec_from_file_location("bench_compare", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check(condition, what):
    if not condition:
        sys.exit(f"check_compare.py: FAILED: {what}")
    print(f"ok: {what}")


def record(gpu_seconds):
    """A measurement record with these warm_forward gpu_seconds (and rows of
    other phases that must not count)."""
    rows = [{"phase": p, "repeat": None, "gpu_seconds": 1.0} for p in ("model_load", "inputs", "cold_forward", "warmup")]
    rows += [{"phase": "warm_forward", "repeat": i, "gpu_seconds": s} for i, s in enumerate(gpu_seconds)]
    return {"phases": rows}


def main():
    c = load(sys.argv[1])
    f16 = dict(batch=4, context=2048, width=4096, dtype="float16", warmup=3, repeats=5)

    # 16 b c w^2 = 16 x 4 x 2048 x 4096^2 = 2,199,023,255,552 operations; at
    # a median of 3.2 ms that is 687.19... TFLOP/s. The 1.0 s of the other
    # phases and the slow 4th repeat move nothing.
    check(c.flops(f16) == 2_199_023_255_552, "flops of 4x2048x4096 is 16 b c w^2")
    rate = c.run_rate(f16, record([3.1e-3, 3.2e-3, 3.3e-3, 9.0e-3, 3.2e-3]))
    check(abs(rate - 2_199_023_255_552 / 3.2e-3 / 1e12) < 1e-9, f"a run's rate is flops / median gpu_seconds ({rate:.3f})")

    # One throttled run among three: the median of run medians ignores it.
    cpp = c.rate_figure([697.3, 520.0, 699.1])
    py = c.rate_figure([708.8, 705.2, 707.0])
    check(cpp == {"median": 697.3, "min": 520.0, "max": 699.1, "runs": [697.3, 520.0, 699.1]},
          "C++ figure: median 697.3 of 697.3, 520.0, 699.1, range 520.0 - 699.1, runs in order")
    check(py["median"] == 707.0, "Python figure: median 707.0 of 708.8, 705.2, 707.0")
    check(cpp["median"] / py["median"] >= c.TARGETS["rate"],
          f"ratio of medians 697.3 / 707.0 = {697.3 / 707.0:.4f} meets >= {c.TARGETS['rate']}")
    # Four runs: the median of an even count is the mean of the middle two.
    check(c.rate_figure([1.0, 4.0, 2.0, 3.0])["median"] == 2.5, "median of four runs is (2 + 3) / 2")

    # Fewer than three runs give no figure.
    for runs in ([], [700.0], [700.0, 520.0]):
        try:
            c.rate_figure(runs)
        except ValueError as e:
            check(str(e) == f"a GPU-rate figure needs at least 3 runs, got {len(runs)}", f"{len(runs)} run(s) refused")
        else:
            check(False, f"{len(runs)} run(s) refused")

    # The sides alternate which goes first.
    order = ["C++", "Python"]
    check([c.first_and_second(order, i) for i in range(4)] ==
          [["C++", "Python"], ["Python", "C++"], ["C++", "Python"], ["Python", "C++"]], "runs alternate the first side")
    check(order == ["C++", "Python"], "the order given is not changed")

    # The table: both medians, the ratio and the target, then each range.
    line = c.rate_line("4x2048x4096 float16", {"C++": cpp, "Python": py})
    first, second = line.split("\n")
    check(first == f"{'3. GPU rate, 4x2048x4096 float16, median of 3 runs':<52} 697.3 TFLOP/s 707.0 TFLOP/s 0.986  "
                   ">= 0.98: met", f"table line: {first!r}")
    check(second == f"{'   runs: min - max':<52} 520.0 - 699.1   705.2 - 708.8", f"range line: {second!r}")
    slow = c.rate_line("x", {"C++": c.rate_figure([500.0, 510.0, 505.0]), "Python": py})
    check(slow.split("\n")[0].endswith(">= 0.98: NOT met"), "a ratio below 0.98 is NOT met")

    # --rate-runs below 3 is refused before anything runs (exit 2, argparse).
    with tempfile.TemporaryDirectory() as folder:
        p = subprocess.run([sys.executable, sys.argv[1], "--cpp", "/nonexistent", "--out", folder + "/out",
                            "--rate-runs", "2"], capture_output=True, text=True)
        check(p.returncode == 2 and "--rate-runs 2: expected at least 3" in p.stderr,
              f"--rate-runs 2 refused (exit {p.returncode})")

    # A whole run over the fake sides: 700 TFLOP/s (C++) and 705 (Python),
    # the second C++ run of each rate configuration 1.5 times slower.
    fake = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_side.py")
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "out")
        p = subprocess.run([sys.executable, sys.argv[1], "--cpp", fake, "--python", fake, "--out", out, "--runs", "2",
                            "--overhead-repeats", "3", "--rate-repeats", "3"], capture_output=True, text=True)
        check(p.returncode == 0, f"compare.py over the fake sides exits 0 ({p.returncode}: {p.stderr.strip()})")
        with open(os.path.join(out, "results.json")) as f:
            results = json.load(f)
        for config in ("4x2048x4096 float16", "8x4096x8192 bfloat16"):
            cpp, py = results["tflops"][config]["C++"], results["tflops"][config]["Python"]
            check(len(cpp["runs"]) == 3 and len(py["runs"]) == 3, f"{config}: three runs per side")
            check(abs(cpp["median"] - 700.0) < 1e-6 and abs(cpp["min"] - 700.0 / 1.5) < 1e-6
                  and abs(cpp["max"] - 700.0) < 1e-6,
                  f"{config}: the throttled run is the C++ minimum, not its median ({cpp})")
            check(abs(py["median"] - 705.0) < 1e-6, f"{config}: Python median 705")
            order = [r["impl"] for r in results["runs"] if r["config"] == config]
            check(order == ["C++", "Python", "Python", "C++", "C++", "Python"], f"{config}: the first side alternates")
        check("3. GPU rate, 4x2048x4096 float16, median of 3 runs" in p.stdout and
              "0.993  >= 0.98: met" in p.stdout, "the table quotes the median of 3 runs and its ratio 700 / 705")
        check(len(results["runs"]) == 2 * 2 + 2 * 2 + 2 * 3 * 2, "20 runs in all: 2 x 2 process, 2 x 2 overhead, 2 x 3 x 2 rate")
    return 0


if __name__ == "__main__":
    sys.exit(main())
