#!/usr/bin/env python3
"""Checks `extrapolate` against the ground truth written by sizes.py:

    python3 check_sizes.py MESURE_MEMOIRE FOLDER [--table] [--known FILE]

FOLDER holds truth.json and PROGRAM.bN.pickle (traces at sizes 1, 2, 3, 4
and 16, each recorded by a fresh process under PyTorch's defaults). For each
program, the traces at 1 to 4 are extrapolated:
  - to every size of the ladder that completed without a retry (uncapped):
    peak allocated and peak reserved must equal the measured ones to the
    byte where every request is explained, and lie in the stated range
    otherwise;
  - to the largest size under each capacity of the truth (16, 24, 32 GiB):
    it must equal the size found by real runs (N completes, N+1 does not);
  - to size 16, request by request against the trace recorded at 16 (the
    extrapolation's own error, apart from the simulation's).
Besides, a safety check that has no exception: no size at which a real run
under a capacity ran out of memory is predicted to fit that capacity (the
predicted largest size is below every size that failed).
--known FILE: {"PROGRAM|QUESTION": "reason"}, comparisons that differ for a
reason named in docs/extrapolate.md: printed as KNOWN and not failed; a
listed one that no longer differs fails (the list is kept true). Exit 0 when
every other comparison holds, 1 otherwise. --table prints the comparisons
as a Markdown table.
"""
import json
import os
import subprocess
import sys
import time

SIZES = [1, 2, 3, 4]
H100_TOTAL = 85017493504  # the recording card of the committed truth


def extrapolate(program, folder, name, extra):
    files = [os.path.join(folder, f"{name}.b{n}.pickle") for n in SIZES]
    args = [program, "extrapolate", *files, "--sizes", ",".join(map(str, SIZES)), "--json", *extra]
    if os.environ.get("CHECK_SIZES_VERBOSE"):
        print(" ".join(args))
    t = time.monotonic()
    p = subprocess.run(args, capture_output=True, text=True)
    took = time.monotonic() - t
    if p.returncode not in (0, 4):
        raise SystemExit(f"{name}: extrapolate exited {p.returncode}: {p.stderr.strip()[:300]}")
    return json.loads(p.stdout), took


def verdict(ok, known, key):
    if key in known:
        return "KNOWN" if not ok else "DIFF"  # a listed difference that no longer differs fails
    return "OK" if ok else "DIFF"


def main(argv):
    global SIZES
    program, folder = argv[1], argv[2]
    if "--sizes" in argv:
        SIZES = [int(x) for x in argv[argv.index("--sizes") + 1].split(",")]
    table = "--table" in argv
    known = {}
    if "--known" in argv:
        with open(argv[argv.index("--known") + 1]) as f:
            known = json.load(f)
    unsafe = 0
    with open(os.path.join(folder, "truth.json")) as f:
        truth = json.load(f)
    failed = 0
    compared = 0
    rows = []
    for name in sorted(truth):
        t = truth[name]
        ladder = [r for r in t["ladder"] if "peak_reserved_bytes" in r and not r.get("oom") and r["alloc_retries"] == 0]
        to = ",".join(str(r["size"]) for r in ladder)
        caps = sorted(int(c) for c in t["largest"])
        total = next((r["total_memory"] for r in t["runs"] if "total_memory" in r), H100_TOTAL)
        # the limit PyTorch sets for a fraction capacity / total, computed in double
        allowed = {c: int(c / total * float(total)) for c in caps}
        out, took = extrapolate(program, folder, name, ["--to", to])
        extra = ["--largest"]
        for c in caps:
            extra += ["--capacity-bytes", str(allowed[c])]
        largest, took_largest = extrapolate(program, folder, name, extra)
        took += took_largest
        unexplained = out["requests"]["unexplained"]
        for r in ladder:
            pred = [p for p in out["predictions"] if p["size"] == r["size"] and p["capacity_bytes"] is None][0]
            compared += 1
            if pred["exact"]:
                ok = (pred["peak_allocated_bytes"], pred["peak_reserved_bytes"]) == \
                    (r["peak_allocated_bytes"], r["peak_reserved_bytes"])
            else:
                ok = pred["peak_reserved_bytes"] <= r["peak_reserved_bytes"] <= pred["peak_reserved_bytes_upper"]
            question = f"size {r['size']}"
            state = verdict(ok, known, f"{name}|{question}")
            failed += state == "DIFF"
            rows.append((name, question, f"{pred['peak_reserved_bytes']}", f"{r['peak_reserved_bytes']}", state))
            if state == "DIFF":
                print(f"{name} size {r['size']}: predicted {pred['peak_allocated_bytes']}/{pred['peak_reserved_bytes']}"
                      f" measured {r['peak_allocated_bytes']}/{r['peak_reserved_bytes']}")
        for c in caps:
            found = t["largest"][str(c)]
            pred = [x for x in largest["largest"] if x["capacity_bytes"] == allowed[c]][0]
            compared += 1
            ok = found.get("size") is not None and pred["size"] == found["size"] \
                and found.get("neighbours") == [True, False]
            question = f"largest under {c >> 30} GiB"
            state = verdict(ok, known, f"{name}|{question}")
            failed += state == "DIFF"
            rows.append((name, question, str(pred["size"]), str(found.get("size")), state))
            for m, fits in found.get("checked", {}).items():
                if not fits and pred["size"] is not None and pred["size"] >= int(m):
                    unsafe += 1
                    print(f"{name}: predicted to fit {c} bytes at {pred['size']}, but a real run at {m} ran out")
            if state == "DIFF":
                print(f"{name} under {c}: predicted {pred['size']} found {found.get('size')}"
                      f" (neighbours {found.get('neighbours')})")
        trials = sum(len(t["largest"][str(c)].get("checked", {})) for c in caps)
        print(f"{name}: {len(unexplained)} unexplained request(s); {took:.2f} s of CPU for the ladder and the largest"
              f" sizes; the real search ran {trials} trials", flush=True)
    if table:
        print("| program | question | predicted | measured | |")
        print("|---|---|---|---|---|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
    identical = sum(r[4] == "OK" for r in rows)
    print(f"{compared} comparisons, {identical} identical, {failed} failed; {unsafe} size(s) predicted to fit"
          " where a real run ran out of memory")
    return 1 if failed or unsafe else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
