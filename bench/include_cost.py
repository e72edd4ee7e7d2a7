#!/usr/bin/env python3
"""The cost of including iteragpu's headers, as compiler time.

Compiles one-line translation units with -fsyntax-only (so only the parsing
and the instantiation a header causes are counted, never code generation or
linking) and prints, for each, the median compiler CPU time (user + sys of
the compiler process) over the runs, then the three ratios docs/library.md states:

  protocol  <iteragpu/memory/protocol.hpp> / standard headers   at most 1.5
  core      <iteragpu/core.hpp>            / standard headers   at most 1.5
  memory    <iteragpu/memory.hpp>          / <boost/json.hpp>   at most 1.5
  umbrella  <iteragpu/iteragpu.hpp>        / <boost/json.hpp>   at most 2.0
  umbrella_inline  the same, header-only   / <boost/json.hpp>   at most 4.0

where "standard headers" is a translation unit that includes <string>
<vector> <chrono> <variant> <concepts> <optional>. The umbrella is measured
as <boost/json.hpp> is used by default: declarations only, the function
bodies compiled once elsewhere (ITERAGPU_SEPARATE_COMPILATION; Boost.JSON's
are in its library). Header-only, where every translation unit compiles the
bodies too, it is umbrella_inline; protocol, core and memory are measured
header-only. The translation units are
compiled in turn, round after round, so that a slower machine moment weighs
on every figure alike; the ratio is that of the medians. CPU time rather
than wall time, so that other processes on the machine weigh less.

Exit status: 0 when every ratio named by --check is within its bound (all
of them for a bare --check, none without it), 1 when one is not, 2 for bad
arguments or a translation unit that does not compile. With ratios named
after --check, only the translation units those ratios divide are compiled
and printed (the ctest's `--check core memory` leaves out the umbrellas).

    python3 bench/include_cost.py                  # g++, 5 runs, figures only
    python3 bench/include_cost.py --check          # and every bound checked
    python3 bench/include_cost.py --runs 3 --warmup 0 --check core   # the ctest
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

STANDARD = ["string", "vector", "chrono", "variant", "concepts", "optional"]

SEPARATE = ["-DITERAGPU_SEPARATE_COMPILATION"]

# name -> (headers the translation unit includes, its own compiler arguments)
UNITS = {
    "standard": ([f"<{h}>" for h in STANDARD], []),
    "protocol": (["<iteragpu/memory/protocol.hpp>"], []),
    "core": (["<iteragpu/core.hpp>"], []),
    "memory": (["<iteragpu/memory.hpp>"], []),
    "boost_json": (["<boost/json.hpp>"], []),
    "umbrella": (["<iteragpu/iteragpu.hpp>"], SEPARATE),
    "umbrella_inline": (["<iteragpu/iteragpu.hpp>"], []),
}

# ratio name -> (numerator, denominator, bound; None: printed, not held to one)
RATIOS = {
    "protocol": ("protocol", "standard", 1.5),
    "core": ("core", "standard", 1.5),
    "memory": ("memory", "boost_json", 1.5),
    "umbrella": ("umbrella", "boost_json", 2.0),
    "umbrella_inline": ("umbrella_inline", "boost_json", 4.0),
}
BOUNDED = sorted(name for name, (_, _, bound) in RATIOS.items() if bound is not None)


def compile_seconds(command: list[str]) -> tuple[float, float]:
    """Run one compiler command; return (cpu seconds, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.stderr.write(done.stdout.decode(errors="replace"))
        raise RuntimeError(f"does not compile: {' '.join(command)}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--compiler", default=os.environ.get("CXX", "g++"))
    parser.add_argument("--include", default=os.path.join(here, "..", "include"),
                        help="iteragpu's include folder (default: the checkout's)")
    parser.add_argument("--flag", action="append", default=[],
                        help="one more compiler argument (an -I for Boost), repeatable")
    parser.add_argument("--runs", type=int, default=5, help="counted rounds (default 5)")
    parser.add_argument("--warmup", type=int, default=1,
                        help="rounds not counted, first (default 1)")
    parser.add_argument("--check", nargs="*", choices=BOUNDED, metavar="RATIO",
                        help="exit 1 when one of these ratios (all when none is named) passes its bound")
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0:
        sys.stderr.write(f"include_cost: --runs {args.runs} --warmup {args.warmup}: "
                         "at least 1 counted run and 0 or more warm-up rounds are accepted\n")
        return 2
    checked = set(BOUNDED if args.check == [] else args.check or [])
    # Named ratios: their units only; otherwise every unit, every ratio.
    named = bool(args.check)
    units = {name: unit for name, unit in UNITS.items()
             if not named or any(name in RATIOS[r][:2] for r in checked)}
    ratios = {name: ratio for name, ratio in RATIOS.items() if not named or name in checked}

    with tempfile.TemporaryDirectory(prefix="iteragpu-include-cost-") as folder:
        commands = {}
        for name, (headers, own) in units.items():
            path = os.path.join(folder, f"{name}.cpp")
            with open(path, "w", encoding="utf-8") as out:
                out.writelines(f"#include {h}\n" for h in headers)
            commands[name] = [args.compiler, "-std=c++20", "-O0", "-fsyntax-only",
                              f"-I{os.path.abspath(args.include)}", *args.flag, *own, path]
        cpu = {name: [] for name in units}
        try:
            for _ in range(args.warmup):  # not counted: warms the file cache
                for name in units:
                    compile_seconds(commands[name])
            for _ in range(args.runs):
                for name in units:
                    cpu[name].append(compile_seconds(commands[name])[0])
        except RuntimeError as error:
            sys.stderr.write(f"include_cost: {error}\n")
            return 2

    median = {name: statistics.median(times) for name, times in cpu.items()}
    print(f"compiler CPU seconds, median of {args.runs} ({args.compiler} -std=c++20 -O0 -fsyntax-only)")
    for name, (headers, own) in units.items():
        print(f"  {name:<15} {median[name]:6.2f} s  (min {min(cpu[name]):.2f}, "
              f"max {max(cpu[name]):.2f})  {' '.join(headers + own)}")
    within = True
    print("ratios")
    for name, (top, bottom, bound) in ratios.items():
        ratio = median[top] / median[bottom]
        if bound is None:
            print(f"  {name:<15} {ratio:5.2f}  ({top} / {bottom}, no bound)")
            continue
        ok = ratio <= bound
        if name in checked:
            within = within and ok
        print(f"  {name:<15} {ratio:5.2f}  ({top} / {bottom}, at most {bound})"
              f"{'' if ok else '  above the bound'}{'  (checked)' if name in checked else ''}")
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main())
