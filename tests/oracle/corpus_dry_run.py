#!/usr/bin/env python3
"""corpus.py's runner on a machine with no GPU, over a stand-in for torch
(fake_torch/): the probe, a fork per run, every condition of every
generated sequence, the run traces, and the deadline. It proves nothing
about PyTorch, only that the corpus will be made as corpus.py says.

    python3 corpus_dry_run.py
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def corpus(out, *extra):
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, "fake_torch"))
    env.pop("PYTORCH_CUDA_ALLOC_CONF", None)
    args = [sys.executable, os.path.join(HERE, "corpus.py"), out, "--random", "2", "--only", "none", "--jobs", "2"]
    p = subprocess.run(args + list(extra), env=env, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise SystemExit(f"corpus.py exited {p.returncode}: {p.stdout[-2000:]} {p.stderr[-2000:]}")
    with open(os.path.join(out, "oracle.json")) as f:
        return json.load(f)


def main():
    scratch = tempfile.mkdtemp(prefix="corpus-dry-run-")
    oracle = corpus(os.path.join(scratch, "full"))
    with open(os.path.join(scratch, "full", "corpus.json")) as f:
        made = json.load(f)
    # 6 settings, 9 capacities, 3 with the threshold, 2 within 1 % of the need, and the run that recorded it.
    conditions = {trace: len(runs) for trace, runs in oracle.items()}
    errors = [r for runs in oracle.values() for r in runs.values() if "error" in r]
    traces = sorted(os.listdir(os.path.join(scratch, "full", "runs", "gen-1")))
    checks = [
        (made["runner"] == "fork", f"the runner is {made['runner']}, not fork"),
        (conditions == {"gen-1": 21, "gen-2": 21}, f"conditions per trace: {conditions}"),
        (not errors, f"errors: {errors[:2]}"),
        (len(traces) == 20, f"{len(traces)} run traces for gen-1"),
        (all(r.get("conf") == c.partition("@cap=")[0] for c, r in oracle["gen-1"].items() if c != "recorded"),
         "a run's settings are not its condition's"),
        (oracle["gen-1"]["max_split_size_mb:64"]["max_split_size"] == 64 << 20, "max_split_size_mb:64 did not take"),
        (oracle["gen-1"]["expandable_segments:True"]["segment_maps"] > 0, "expandable_segments:True did not take"),
    ]
    late = corpus(os.path.join(scratch, "late"), "--deadline", "0")
    checks.append((all("not run" in r.get("error", "") for runs in late.values() for r in runs.values()),
                   "runs started after the deadline"))
    failed = [why for ok, why in checks if not ok]
    for why in failed:
        print("corpus dry run: " + why)
    if failed:
        return 1
    print(f"corpus dry run: {sum(conditions.values())} runs in {made['seconds']} s, every condition, forked: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
