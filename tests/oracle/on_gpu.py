#!/usr/bin/env python3
"""`replay --on-gpu` over a corpus: each trace under each condition the
oracle ran, PyTorch's own allocator on this machine's GPU beside the
simulation; any difference fails.

    python3 on_gpu.py MESURE_MEMOIRE FOLDER [--jobs J] [--memory-gib G] [--deadline SECONDS]
                      [--known FILE] [--results OUT.json] [--only NAMES]

FOLDER holds traces/*.pickle and oracle.json (corpus.py's layout): the
conditions are oracle.json's ("CONF" or "CONF@cap=BYTES", the capacity the
oracle's allocator computed). Each condition is one `replay TRACE --on-gpu
--json` (a process of PyTorch's own per setting), J at a time (4 by
default), and no more at once than the peaks the oracle reserved (plus
1 GiB each) fit in G GiB (20 by default): a run that shares the card must
not find it full. Without a
GPU, or in a build whose LibTorch has no CUDA, the first one exits 2 and
this prints "ITERAGPU-SKIP:" and exits 0 (CTest reports the test skipped).
--deadline stops starting comparisons after that many seconds (those not
run are counted, not failed). --known FILE: {"trace|condition": "reason"},
as check_oracle.py reads it. Exit 0 when every comparison run is identical
(or known), 1 otherwise.
"""
import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

GiB = 1 << 30


def flag(name, default=None):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def command(program, trace, condition):
    conf, _, cap = condition.partition("@cap=")
    args = [program, "replay", trace, "--on-gpu", "--json"]
    if conf:
        args += ["--alloc-conf", conf]
    if cap:
        args += ["--capacity-bytes", cap]
    return args


def main():
    words = [w for w in sys.argv[1:] if not w.startswith("--")]
    values = {flag(n) for n in ("--jobs", "--memory-gib", "--deadline", "--known", "--results", "--only") if flag(n)}
    words = [w for w in words if w not in values]
    if len(words) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    program, folder = words
    started = time.time()
    jobs = int(flag("--jobs", "4"))
    budget = float(flag("--memory-gib", "20")) * GiB
    deadline = started + float(flag("--deadline", "1e9"))
    known = {}
    if flag("--known"):
        with open(flag("--known")) as f:
            known = json.load(f)
    only = flag("--only").split(",") if flag("--only") else None
    with open(os.path.join(folder, "oracle.json")) as f:
        oracle = json.load(f)
    tasks = []
    for trace, conditions in sorted(oracle.items()):
        path = os.path.join(folder, "traces", trace + ".pickle")
        if not os.path.exists(path) or (only and trace not in only):
            continue
        for condition, r in sorted(conditions.items()):
            if condition == "recorded" or "error" in r:
                continue
            capacity = r.get("capacity_bytes")
            key = condition if capacity is None else condition.partition("@cap=")[0] + f"@cap={capacity}"
            need = min(r.get("peak_reserved_bytes") or GiB, capacity or 1 << 62) + GiB
            tasks.append((trace, condition, command(program, path, key), need))
    if not tasks:
        print("on_gpu: no trace with a pickle in " + folder)
        return 1
    first = subprocess.run(tasks[0][2], capture_output=True, text=True)
    if first.returncode == 2:
        print("ITERAGPU-SKIP: replay --on-gpu cannot reach a GPU here: " + first.stderr.strip()[:300])
        return 0

    held = [0]
    room = threading.Condition()

    def run(task):
        trace, condition, args, need = task
        need = min(need, budget)
        with room:
            room.wait_for(lambda: held[0] + need <= budget or time.time() > deadline, timeout=deadline - time.time())
            if time.time() > deadline:
                return trace, condition, None, "not run: the deadline had passed"
            held[0] += need
        try:
            p = first if task is tasks[0] else subprocess.run(args, capture_output=True, text=True)
        finally:
            with room:
                held[0] -= need
                room.notify_all()
        if p.returncode not in (0, 6):
            return trace, condition, None, f"exit {p.returncode}: {p.stderr.strip()[:300]}"
        return trace, condition, json.loads(p.stdout), None

    rows = []
    failures = identical = compared = skipped = 0
    with ThreadPoolExecutor(jobs) as pool:
        for trace, condition, out, error in pool.map(run, tasks):
            key = f"{trace}|{condition}"
            if error and error.startswith("not run"):
                skipped += 1
                rows.append({"trace": trace, "condition": condition, "status": "NOT RUN"})
                continue
            compared += 1
            if error:
                failures += 1
                print(f"FAIL  {trace} [{condition or 'defaults'}] {error}", flush=True)
                rows.append({"trace": trace, "condition": condition, "status": "FAIL", "error": error})
                continue
            setting = out["settings"][0]
            same = setting["first_difference"] is None
            status = ("FAIL" if same else "KNOWN") if key in known else ("OK" if same else "DIFF")
            failures += status in ("FAIL", "DIFF")
            identical += same
            note = "" if same else (f"first difference {setting['first_difference']}: simulation "
                                    f"{json.dumps(setting['simulation'])} PyTorch {json.dumps(setting['pytorch'])}")
            print(f"{status:5} {trace} [{condition or 'defaults'}] {note}", flush=True)
            rows.append({"trace": trace, "condition": condition, "status": status, "device": out["device"],
                         "setting": setting})
    if flag("--results"):
        with open(flag("--results"), "w") as f:
            json.dump(rows, f, indent=1)
    print(f"{compared} comparisons on the GPU, {identical} identical, {failures} failed, {skipped} not run "
          f"({time.time() - started:.0f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
