#!/usr/bin/env python3
"""Replays the recorded traces of this folder and compares them with the runs.

    python3 check_replay.py MESURE_MEMOIRE [FOLDER] [--table]

For each model of FOLDER/ground-truth.json (written by record.py on a GPU):
  - the trace recorded under the default settings is replayed under those
    settings: its peaks must equal the run's max_memory_allocated and
    max_memory_reserved to the byte, and the self-check must pass;
  - the same trace is replayed under each other setting recorded
    (expandable_segments:True, max_split_size_mb:64,
    roundup_power2_divisions:4): its peaks are compared with the fresh run
    under that setting;
  - the same trace is replayed under the capacity of each capped run
    (set_per_process_memory_fraction of 0.95 and 1.05 times the peak
    allocated): the out-of-memory verdict is compared with the run's.
A model whose recorded program caught out-of-memory errors (cuDNN choosing
its workspace) is replayed too, but its differences under other settings and
capacities are reported as expected, not as failures: the program asks for
other bytes under pressure. Prints one line per comparison (--table: a
Markdown table); exit 0 when every exact comparison holds, 1 otherwise.
"""
import json
import os
import subprocess
import sys


def replay(program, device_memory, snapshot, conf=None, capacity=None):
    args = [program, "replay", snapshot, "--json", "--device-memory-bytes", str(device_memory)]
    if conf is not None:
        args += ["--alloc-conf", conf]
    if capacity is not None:
        args += ["--capacity-bytes", str(capacity)]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode not in (0, 4):
        raise SystemExit(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout), p.returncode


def main():
    words = [w for w in sys.argv[1:] if not w.startswith("--")]
    table = "--table" in sys.argv
    if not words:
        raise SystemExit("usage: check_replay.py MESURE_MEMOIRE [FOLDER] [--table]")
    program = words[0]
    folder = words[1] if len(words) > 1 else os.path.dirname(os.path.abspath(__file__))
    truth = json.load(open(os.path.join(folder, "ground-truth.json")))
    # The card the traces were recorded on (the H200): its memory sizes the
    # expandable segments of every replay.
    device_memory = next(run["total_memory"] for runs in truth.values() if isinstance(runs, dict)
                         for run in runs.values() if isinstance(run, dict) and "total_memory" in run)
    rows = []
    failures = 0
    for model, runs in sorted(truth.items()):
        if "recorded" not in runs:
            continue
        recorded = runs["recorded"]
        snapshot = os.path.join(folder, f"{model}.recorded.pickle")
        if not os.path.exists(snapshot):
            continue
        base, code = replay(program, device_memory, snapshot)
        caught = base["recorded_ooms"] > 0
        s = base["settings"][0]
        exact = (s["peak_allocated_bytes"] == recorded["peak_allocated_bytes"] and
                 s["peak_reserved_bytes"] == recorded["peak_reserved_bytes"] and code == 0)
        failures += not exact
        rows.append((model, "recorded", recorded["peak_allocated_bytes"], s["peak_allocated_bytes"],
                     recorded["peak_reserved_bytes"], s["peak_reserved_bytes"],
                     "self-check " + ("passed" if code == 0 else "FAILED"), exact))
        for conf, run in sorted(runs.items()):
            if conf in ("recorded",) or conf.startswith("cap-") or "peak_allocated_bytes" not in run:
                continue
            out, _ = replay(program, device_memory, snapshot, conf=conf)
            r = out["settings"][0]
            same = (r["peak_allocated_bytes"] == run["peak_allocated_bytes"] and
                    r["peak_reserved_bytes"] == run["peak_reserved_bytes"])
            if not same and not caught:
                failures += 1
            rows.append((model, conf, run["peak_allocated_bytes"], r["peak_allocated_bytes"],
                         run["peak_reserved_bytes"], r["peak_reserved_bytes"],
                         "" if same else ("caught OOMs: requests change" if caught else "DIFFERENT"), same))
        for conf, run in sorted(runs.items()):
            if not conf.startswith("cap-") or run.get("capacity_bytes") is None:
                continue
            out, _ = replay(program, device_memory, snapshot, capacity=run["capacity_bytes"])
            r = out["settings"][0]
            same = r["oom"] == run["oom_raised"]
            # A replay that stops at a scratch buffer (a library's workspace)
            # the real program survived by taking a smaller one: stated, not failed.
            scratch = r["oom"] and not run["oom_raised"] and r["failed_request"]["scratch"]
            if not same and not caught and not scratch:
                failures += 1
            rows.append((model, f"{conf} ({run['capacity_bytes']} B)", "oom" if run["oom_raised"] else "fits",
                         "oom" if r["oom"] else "fits", run["peak_reserved_bytes"], r["peak_reserved_bytes"],
                         f"retries {run['alloc_retries']} / {r['alloc_retries']}" +
                         ("" if same else (" caught OOMs" if caught else
                                           " replay stops at a scratch workspace the run did without" if scratch
                                           else " DIFFERENT")), same))
    # Each capped run's own trace, replayed at its own capacity: the verdict
    # (ran out of memory and died, or completed), the peaks and the retries
    # of the run. An oom event is the request the recorded allocator refused:
    # one the program died of ends the replay out of memory, one it caught is
    # refused again and the replay goes on.
    for model, runs in sorted(truth.items()):
        for conf, run in sorted(runs.items()) if isinstance(runs, dict) else []:
            path = os.path.join(folder, f"{model}.{conf}.pickle")
            if not conf.startswith("cap-") or run.get("capacity_bytes") is None or not os.path.exists(path):
                continue
            out, _ = replay(program, device_memory, path, capacity=run["capacity_bytes"])
            r = out["settings"][0]
            same = (r["oom"] == run["oom_raised"] and r["alloc_retries"] == run["alloc_retries"] and
                    r["peak_allocated_bytes"] == run["peak_allocated_bytes"] and
                    r["peak_reserved_bytes"] == run["peak_reserved_bytes"] and not r["no_verdict"])
            failures += not same
            rows.append((model, f"own trace of {conf} at {run['capacity_bytes']} B",
                         "oom" if run["oom_raised"] else "fits", "oom" if r["oom"] else "fits",
                         run["peak_reserved_bytes"], r["peak_reserved_bytes"],
                         f"retries {run['alloc_retries']} / {r['alloc_retries']}, allocated "
                         f"{run['peak_allocated_bytes']} / {r['peak_allocated_bytes']}", same))
    # Snapshots written by `measure --torchscript --memory-snapshot`: each
    # replays to the largest peaks its measurement's rows recorded.
    measured = os.path.join(folder, "measured")
    for name in sorted(os.listdir(measured)) if os.path.isdir(measured) else []:
        if not name.endswith(".json"):
            continue
        rows_of = json.load(open(os.path.join(measured, name)))["phases"]
        out, code = replay(program, device_memory, os.path.join(measured, name[:-5] + ".pickle"))
        r = out["settings"][0]
        allocated = max(row["peak_allocated_bytes"] for row in rows_of)
        reserved = max(row["peak_reserved_bytes"] for row in rows_of)
        same = r["peak_allocated_bytes"] == allocated and r["peak_reserved_bytes"] == reserved and code == 0
        failures += not same
        rows.append((name[:-5], "measure --torchscript", allocated, r["peak_allocated_bytes"], reserved,
                     r["peak_reserved_bytes"], "self-check " + ("passed" if code == 0 else "FAILED"), same))
    # The transformer recorded with a ring buffer of 2000 entries: the
    # replay starts from the state rebuilt from the snapshot's segments.
    wrapped = truth.get("transformer_train.wrapped")
    path = os.path.join(folder, "transformer_train.wrapped.pickle")
    if wrapped and os.path.exists(path):
        out, code = replay(program, device_memory, path)
        r = out["settings"][0]
        same = (out["starts_late"] and code == 0 and r["peak_allocated_bytes"] == wrapped["peak_allocated_bytes"] and
                r["peak_reserved_bytes"] == wrapped["peak_reserved_bytes"])
        failures += not same
        rows.append(("transformer_train", "ring buffer of 2000 (starts late)", wrapped["peak_allocated_bytes"],
                     r["peak_allocated_bytes"], wrapped["peak_reserved_bytes"], r["peak_reserved_bytes"],
                     f"rebuilt from {out['rebuilt_segments']} segments", same))
    if table:
        print("| model | setting | allocated (run) | allocated (replay) | reserved (run) | reserved (replay) | note |")
        print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
        for row in rows:
            print("| " + " | ".join(str(c) for c in row[:7]) + " |")
    else:
        for row in rows:
            print(("OK   " if row[7] else "DIFF ") + " ".join(str(c) for c in row[:7]))
    print(f"{len(rows)} comparisons, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
