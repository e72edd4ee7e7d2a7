#!/usr/bin/env python3
"""compare_overhead.py SUMMARY.csv [SUMMARY.csv...]: per sweep, the points
measured and the medians of their process wall time and overhead (wall
minus the sum of the phases' seconds), from summary.csv's
process_wall_seconds and process_overhead_seconds; then the ratio of each
median overhead to the first file's. Standard library only."""
import csv
import statistics
import sys


def medians(path):
    rows = [r for r in csv.DictReader(open(path, encoding="utf-8")) if r["outcome"] == "measured"]
    walls = [float(r["process_wall_seconds"]) for r in rows if r["process_wall_seconds"]]
    overheads = [float(r["process_overhead_seconds"]) for r in rows if r["process_overhead_seconds"]]
    if not overheads:
        sys.exit(f"compare_overhead.py: {path} has no measured point with a process overhead")
    return len(rows), statistics.median(walls), statistics.median(overheads), overheads


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    first = None
    print(f"{'summary':<48}{'points':>7}{'median wall (s)':>17}{'median overhead (s)':>21}{'ratio':>8}")
    for path in sys.argv[1:]:
        count, wall, overhead, each = medians(path)
        first = first if first is not None else overhead
        print(f"{path:<48}{count:>7}{wall:>17.3f}{overhead:>21.3f}{overhead / first:>8.2f}")
        print(f"    overheads: {', '.join(f'{v:.3f}' for v in each)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
