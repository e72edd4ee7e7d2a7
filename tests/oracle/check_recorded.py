#!/usr/bin/env python3
"""One answer under the recorded settings: each trace of the program corpus
replayed with no capacity and no other setting must pass its self-check and
give the peaks of the run that recorded it.

    python3 check_recorded.py MESURE_MEMOIRE FOLDER

FOLDER holds traces/*.pickle, programs.json (each program's own run: its
peaks, as corpus.py wrote them) and oracle.json (for NAME.oracle, the
oracle run that recorded it: "recorded"). Exit 0 when every trace passes and
gives those peaks, 1 otherwise.
"""
import glob
import json
import os
import subprocess
import sys


def main(argv):
    program, folder = argv[1], argv[2]
    with open(os.path.join(folder, "programs.json")) as f:
        runs = json.load(f)
    with open(os.path.join(folder, "oracle.json")) as f:
        oracle = json.load(f)
    same = 0
    traces = sorted(glob.glob(os.path.join(folder, "traces", "*.pickle")))
    for path in traces:
        name = os.path.basename(path)[:-len(".pickle")]
        run = runs[name] if name in runs else oracle[name]["recorded"]
        # The card's memory, where the run wrote it, sizes expandable segments.
        device = ["--device-memory-bytes", str(run["total_memory"])] if "total_memory" in run else []
        p = subprocess.run([program, "replay", path, "--json", *device], capture_output=True, text=True)
        if p.returncode != 0:
            print(f"{name}: replay exited {p.returncode}: {p.stderr.strip()[:300]}")
            continue
        out = json.loads(p.stdout)
        got = (out["self_check"]["passed"], out["settings"][0]["peak_allocated_bytes"],
               out["settings"][0]["peak_reserved_bytes"])
        want = (True, run["peak_allocated_bytes"], run["peak_reserved_bytes"])
        same += got == want
        print(f"{'OK  ' if got == want else 'DIFF'} {name}: replayed {got}, recorded run {want}")
    print(f"{len(traces)} traces, {same} with one answer equal to the recorded run")
    return 0 if traces and same == len(traces) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
