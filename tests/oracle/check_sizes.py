#!/usr/bin/env python3
"""Checks `extrapolate` against the ground truth written by sizes.py:

    python3 check_sizes.py MESURE_MEMOIRE FOLDER [--sizes 1,2,...] [--known FILE]
                           [--table] [--readme FILE]

FOLDER holds truth.json and PROGRAM.bN.pickle (traces recorded at each size
N of --sizes, default 1, 2, 3, 4 and the powers of two to 512, each by a
fresh process under PyTorch's defaults). For each program the traces are
extrapolated:
  - to every size of the ladder that completed without a retry (uncapped):
    peak allocated and peak reserved must equal the measured ones to the
    byte where the prediction is exact; where it is a range, the measured
    peak reserved must lie in it, and for a program of TOLERANT (cuDNN
    convolution workspaces, data-dependent sizes) the range must be no
    wider than 10 % of the measured value;
  - to the largest size under each capacity of the truth (16, 24, 32 GiB,
    as PyTorch computes the limit of set_per_process_memory_fraction): it
    must equal the size found by real runs (N completes, N+1 does not); for
    a program of TOLERANT, be within 5 % of it and never above.
A safety check has no exception: no size at which a real run under a
capacity ran out of memory is predicted to fit that capacity.
For a TorchScript program whose traces `measure --torchscript` recorded too
(PROGRAM.measure.bN.pickle), those must ask for the very bytes of the
Python runs' traces, in the same order (PyTorch frees some of them at
other moments in measure's passes: the real-run figures are the Python
runs').
--known FILE: {"PROGRAM|QUESTION": "reason"}: comparisons that differ for a
stated reason: printed KNOWN, not failed; a listed one that no longer
differs fails (the list is kept true). --table prints the comparisons as
Markdown; --readme FILE checks that FILE holds the summary table this run
prints (between its markers). Exit 0 when every other comparison holds.
"""
import json
import os
import pickle
import subprocess
import sys

SIZES = [1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512]
H100_TOTAL = 85017493504  # the recording card of the committed truth
# Programs whose requests no exact function can give: cuDNN convolution
# workspaces chosen per shape, or sizes that depend on the data (the
# embedding backward's sort over random token ids).
TOLERANT = {"conv_bn_train": "cuDNN convolution workspaces", "embed_train": "sizes that depend on the token ids"}
BEGIN = "<!-- check_sizes: begin -->"
END = "<!-- check_sizes: end -->"


class _PlainData(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refused global {module}.{name}")


def allocations(path):
    with open(path, "rb") as f:
        events = _PlainData(f).load()["device_traces"][0]
    return [(e["size"], e["stream"]) for e in events if e["action"] == "alloc"]


def extrapolate(program, folder, name, extra):
    files = [os.path.join(folder, f"{name}.b{n}.pickle") for n in SIZES]
    args = [program, "extrapolate", *files, "--sizes", ",".join(map(str, SIZES)), "--json", *extra]
    started = os.times()
    p = subprocess.run(args, capture_output=True, text=True)
    ended = os.times()
    took = (ended.children_user - started.children_user) + (ended.children_system - started.children_system)
    if p.returncode != 0:
        raise SystemExit(f"{name}: extrapolate exited {p.returncode}: {p.stderr.strip()[:300]}")
    return json.loads(p.stdout), took


def verdict(ok, known, key):
    if key in known:
        return "KNOWN" if not ok else "DIFF"  # a listed difference that no longer differs fails
    return "OK" if ok else "DIFF"


def gib(b):
    return f"{b / (1 << 30):.2f}"


def main(argv):
    global SIZES
    program, folder = argv[1], argv[2]
    if "--sizes" in argv:
        SIZES = [int(x) for x in argv[argv.index("--sizes") + 1].split(",")]
    known = {}
    if "--known" in argv:
        with open(argv[argv.index("--known") + 1]) as f:
            known = json.load(f)
    with open(os.path.join(folder, "truth.json")) as f:
        truth = json.load(f)
    unsafe = 0
    failed = 0
    rows = []
    summary = []
    for name in sorted(truth):
        t = truth[name]
        tolerant = name in TOLERANT
        for n in SIZES:
            measured = os.path.join(folder, f"{name}.measure.b{n}.pickle")
            if os.path.exists(measured):
                same = allocations(measured) == allocations(os.path.join(folder, f"{name}.b{n}.pickle"))
                state = verdict(same, known, f"{name}|measure --torchscript at {n}")
                failed += state == "DIFF"
                rows.append((name, f"allocations of measure --torchscript at {n}", "", "", state))
        ladder = [r for r in t["ladder"] if "peak_reserved_bytes" in r and not r.get("oom") and r["alloc_retries"] == 0]
        caps = sorted(int(c) for c in t["largest"])
        total = next((r["total_memory"] for r in t["runs"] if "total_memory" in r), H100_TOTAL)
        # the limit PyTorch sets for a fraction capacity / total, computed in double
        allowed = {c: int(c / total * float(total)) for c in caps}
        out, took = extrapolate(program, folder, name, ["--to", ",".join(str(r["size"]) for r in ladder)])
        extra = ["--largest"]
        for c in caps:
            extra += ["--capacity-bytes", str(allowed[c])]
        largest, took_largest = extrapolate(program, folder, name, extra)
        took += took_largest
        exact_sizes = 0
        for r in ladder:
            pred = [p for p in out["predictions"] if p["size"] == r["size"] and p["capacity_bytes"] is None][0]
            measured = r["peak_reserved_bytes"]
            if pred["exact"]:
                ok = (pred["peak_allocated_bytes"], pred["peak_reserved_bytes"]) == \
                    (r["peak_allocated_bytes"], measured)
                shown = str(pred["peak_reserved_bytes"])
            else:
                low, high = pred["peak_reserved_bytes"], pred["upper"]["peak_reserved_bytes"]
                ok = low <= measured <= high and (not tolerant or (high - low) * 10 <= measured)
                shown = f"{low} to {high}"
            exact_sizes += ok and pred["exact"]
            state = verdict(ok, known, f"{name}|size {r['size']}")
            failed += state == "DIFF"
            rows.append((name, f"size {r['size']}", shown, str(measured), state))
            if state == "DIFF":
                print(f"{name} size {r['size']}: predicted {pred['peak_allocated_bytes']}/{shown}"
                      f" measured {r['peak_allocated_bytes']}/{measured}")
        answers = []
        for c in caps:
            found = t["largest"][str(c)]
            pred = [x for x in largest["largest"] if x["capacity_bytes"] == allowed[c]][0]
            neighbours = found.get("neighbours") == [True, False]
            if tolerant:
                ok = neighbours and pred["size"] is not None and found["size"] * 0.95 <= pred["size"] <= found["size"]
            else:
                ok = neighbours and pred["size"] == found.get("size")
            state = verdict(ok, known, f"{name}|largest under {c >> 30} GiB")
            failed += state == "DIFF"
            rows.append((name, f"largest under {c >> 30} GiB", str(pred["size"]), str(found.get("size")), state))
            answers.append(f"{pred['size']} / {found.get('size')}")
            for m, fits in found.get("checked", {}).items():
                if not fits and pred["size"] is not None and pred["size"] >= int(m):
                    unsafe += 1
                    print(f"{name}: predicted to fit {c} bytes at {pred['size']}, but a real run at {m} ran out")
            if state == "DIFF":
                print(f"{name} under {c}: predicted {pred['size']} found {found.get('size')}"
                      f" (neighbours {found.get('neighbours')})")
        trials = sum(len(t["largest"][str(c)].get("checked", {})) for c in caps)
        seconds = [r.get("seconds") for r in t["runs"] if r.get("capacity_bytes") and r.get("seconds")]
        step = sum(seconds) / len(seconds) if seconds else None
        model = out["model"]["kinds"]
        unexplained = model["unexplained"]
        summary.append((name, TOLERANT.get(name, ""), f"{unexplained} of {out['model']['requests']}",
                        f"{exact_sizes} of {len(ladder)}", " ; ".join(answers),
                        f"{took:.2f} s / {trials} runs" + (f" x {step:.1f} s" if step else "")))
        print(f"{name}: {unexplained} unexplained request(s) of {out['model']['requests']}; {took:.2f} s of CPU for"
              f" the ladder and the largest sizes; the real search ran {trials} trials", flush=True)
    if "--table" in argv:
        print("| program | question | predicted | measured | |")
        print("|---|---|---|---|---|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
    table = ["| program | requests no exact function gives | unexplained requests | ladder sizes predicted "
             "exactly | largest under 16 ; 24 ; 32 GiB, predicted / found by real runs | CPU seconds / the real "
             "search's runs x their mean time |", "| --- | --- | --- | --- | --- | --- |"]
    for s in summary:
        table.append("| " + " | ".join(x if x else "none" for x in s) + " |")
    print("\n".join(table))
    if "--readme" in argv:
        with open(argv[argv.index("--readme") + 1]) as f:
            text = f.read()
        inside = text[text.find(BEGIN) + len(BEGIN):text.find(END)].strip() if BEGIN in text else ""
        # the CPU seconds vary from run to run: compared without them
        strip = [line.rsplit("|", 2)[0] for line in inside.splitlines()]
        if strip != [line.rsplit("|", 2)[0] for line in table]:
            print(f"the table between {BEGIN} and {END} differs from this run's (without its last column)")
            failed += 1
    identical = sum(r[4] == "OK" for r in rows)
    print(f"{len(rows)} comparisons, {identical} identical, {failed} failed; {unsafe} size(s) predicted to fit"
          " where a real run ran out of memory")
    return 1 if failed or unsafe else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
