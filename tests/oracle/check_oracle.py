#!/usr/bin/env python3
"""Replays every trace of the oracle corpus under every condition the oracle
ran, and compares the replay with PyTorch's own allocator:

    python3 check_oracle.py MESURE_MEMOIRE FOLDER [--table] [--known FILE] [--ops OPS_REPLAY]

FOLDER holds traces/*.pickle and oracle.json (written by corpus.py on a
GPU): for each trace and condition ("CONF" or "CONF@cap=BYTES") the oracle's
peak allocated and reserved bytes, its retries, whether a request was
refused and which. The replay (`replay TRACE --json --alloc-conf CONF
--capacity-bytes BYTES`) must give the same five figures. A condition the
oracle could not run (an error) is reported and not compared.

--ops OPS_REPLAY: a trace of oracle.json that has no pickle under traces/
but whose requests are a generated sequence (random-S, made again here by
oracle.py's generate(S), which is deterministic) is made by OPS_REPLAY
(tests/oracle/ops_replay.cpp: the same requests to the simulated
allocator, emptyCache where the sequence has one), since a trace cannot
say where an emptyCache that released nothing stood. The refused request
is then compared by its index among the requests and its size. The
capacity given to either side is the one the oracle's allocator computed
(`capacity_bytes`: set_per_process_memory_fraction's fraction of the
device's memory, rounded down), which may differ by a byte from the
condition's.

--known FILE: a JSON object {"trace|condition": "reason"} of differences
that are understood and named in the README; such a difference is printed
as KNOWN and does not fail, and a known difference that no longer differs
fails (the list must be kept true). Exit 0 when every other comparison is
identical, 1 otherwise.
"""
import json
import os
import subprocess
import sys
import tempfile


def replay(program, snapshot, conf, capacity, device_memory):
    args = [program, "replay", snapshot, "--json", "--device-memory-bytes", str(device_memory)]
    if conf:
        args += ["--alloc-conf", conf]
    if capacity is not None:
        args += ["--capacity-bytes", str(capacity)]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode not in (0, 4):
        return None, f"exit {p.returncode}: {p.stderr.strip()[:300]}"
    return json.loads(p.stdout), None


def figures_of_oracle(r, by_request=False):
    refused = r.get("refused")
    where = None
    if refused:
        where = (refused["request"], refused["size"]) if by_request else refused["event"]
    return (r["peak_allocated_bytes"], r["peak_reserved_bytes"], r["alloc_retries"], r["oom"], where)


def figures_of_replay(out):
    s = out["settings"][0]
    failed = s.get("failed_request")
    where = failed["event"] if failed else None
    return (s["peak_allocated_bytes"], s["peak_reserved_bytes"], s["alloc_retries"], s["oom"], where)


def replay_ops(ops_program, ops_file, conf, capacity, as_recorded):
    args = [ops_program, ops_file] + (["--as-recorded"] if as_recorded else [])
    if conf:
        args += ["--alloc-conf", conf]
    if capacity is not None:
        args += ["--capacity-bytes", str(capacity)]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        return None, f"exit {p.returncode}: {p.stderr.strip()[:300]}"
    r = json.loads(p.stdout)
    refused = r["refused"]
    return (r["peak_allocated_bytes"], r["peak_reserved_bytes"], r["alloc_retries"], r["oom"],
            (refused["request"], refused["size"]) if refused else None), None


def comparisons(program, folder, ops_program=None, known=None):
    """Every comparison of FOLDER: a list of dicts with the trace, the
    condition, the status (OK, DIFF, KNOWN, FAIL or SKIP), a note, and the
    figures of both sides (oracle, replay) where both ran."""
    known = known or {}
    scratch = tempfile.mkdtemp(prefix="check-oracle-")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from oracle import generate
    with open(os.path.join(folder, "oracle.json")) as f:
        oracle = json.load(f)
    rows = []
    for trace, conditions in sorted(oracle.items()):
        snapshot = os.path.join(folder, "traces", trace + ".pickle")
        ops_file = None
        if not os.path.exists(snapshot):
            if not ops_program or not trace.startswith("random-"):
                continue
            ops_file = os.path.join(scratch, trace + ".json")
            with open(ops_file, "w") as f:
                json.dump(generate(int(trace[len("random-"):])), f)
        for condition, r in sorted(conditions.items()):
            if condition == "recorded":
                continue
            row = {"trace": trace, "condition": condition, "results": conditions}
            key = f"{trace}|{condition}"
            if "error" in r:
                rows.append(dict(row, status="SKIP",
                                 note="the oracle could not run: " + r["error"].splitlines()[-1][:120]))
                continue
            conf, _, cap = condition.partition("@cap=")
            capacity = r.get("capacity_bytes") if cap else None
            if ops_file:
                # The oracle read the requests back from its own trace of
                # them under the defaults, except for the run that recorded it.
                got, error = replay_ops(ops_program, ops_file, conf, capacity, True)
            else:
                out, error = replay(program, snapshot, conf, capacity, r["total_memory"])
                got = figures_of_replay(out) if out else None
            if error:
                rows.append(dict(row, status="FAIL", note=error))
                continue
            want = figures_of_oracle(r, ops_file is not None)
            same = want == got
            if key in known:
                status = "FAIL" if same else "KNOWN"
                note = "listed as known but now identical" if same else known[key]
            else:
                status = "OK" if same else "DIFF"
                note = "" if same else "oracle " + str(want) + " replay " + str(got)
            rows.append(dict(row, status=status, note=note, oracle=want, replay=got))
    return rows


def main():
    words = [w for w in sys.argv[1:] if not w.startswith("--")]
    table = "--table" in sys.argv
    known = {}
    if "--known" in sys.argv:
        with open(sys.argv[sys.argv.index("--known") + 1]) as f:
            known = json.load(f)
        words = [w for w in words if w != sys.argv[sys.argv.index("--known") + 1]]
    if len(words) < 2:
        raise SystemExit("usage: check_oracle.py MESURE_MEMOIRE FOLDER [--table] [--known FILE]")
    ops_program = None
    if "--ops" in sys.argv:
        ops_program = sys.argv[sys.argv.index("--ops") + 1]
        words = [w for w in words if w != ops_program]
    program, folder = words[0], words[1]
    rows = comparisons(program, folder, ops_program, known)
    failures = sum(1 for r in rows if r["status"] in ("FAIL", "DIFF"))
    if table:
        print("| trace | condition | result |")
        print("| --- | --- | --- |")
        for r in rows:
            print(f"| {r['trace']} | {r['condition'] or 'defaults'} | {r['status']} {r['note']} |")
    else:
        for r in rows:
            print(f"{r['status']:5} {r['trace']} [{r['condition'] or 'defaults'}] {r['note']}")
    compared = sum(1 for r in rows if r["status"] != "SKIP")
    identical = sum(1 for r in rows if r["status"] == "OK")
    print(f"{compared} comparisons, {identical} identical, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
