#!/usr/bin/env python3
"""The README's table of the replay against PyTorch's own allocator, made
from the committed results: each corpus's traces under each condition,
replayed now (check_oracle.comparisons) and compared with what the oracle
found.

    python3 readme_table.py MESURE_MEMOIRE OPS_REPLAY ROOT [--write]

ROOT is the repository. The table stands in README.md between the lines
`<!-- oracle table: made by tests/oracle/readme_table.py -->` and
`<!-- end of the oracle table -->`. Exit 0 when the README's table is the
one the results give, 1 otherwise (the difference is printed); --write puts
it there instead.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_oracle import comparisons  # noqa: E402

BEGIN = "<!-- oracle table: made by tests/oracle/readme_table.py -->"
END = "<!-- end of the oracle table -->"
# Each committed corpus: its folder under tests/data/oracle, how the table
# names it, whether its sequences are made from their seeds (ops_replay).
CORPORA = [("programs", "{n} programs (H100)", False), ("", "{n} generated sequences (H200)", True)]
SHORT = {"": "defaults", "expandable_segments:True": "expandable", "max_split_size_mb:64": "max_split 64",
         "max_split_size_mb:256": "max_split 256", "roundup_power2_divisions:4": "roundup 4",
         "roundup_power2_divisions:[256:1,512:2,1024:4,>:8]": "roundup list",
         "garbage_collection_threshold:0.6": "gc 0.6",
         "max_split_size_mb:256,garbage_collection_threshold:0.6": "max_split 256, gc 0.6"}
FACTORS = [1.05, 1.0, 0.97]
NEED_FACTORS = [0.995, 1.005]


def short(conf):
    return SHORT.get(conf, f"`{conf}`")


def label(results, condition):
    """The condition as the table names it: the setting, and a capacity as
    the factor of the peak it was drawn from."""
    conf, _, cap = condition.partition("@cap=")
    if not cap:
        return short(conf)
    cap = int(cap)
    base = results.get(conf) or results.get("") or {}
    defaults = results.get("") or {}
    for f in FACTORS:
        for source in (base, defaults):
            if source.get("peak_allocated_bytes") and int(f * source["peak_allocated_bytes"]) == cap:
                return f"{short(conf)}, capacity {f}x"
    for f in NEED_FACTORS:
        if defaults.get("peak_reserved_bytes") and int(f * defaults["peak_reserved_bytes"]) == cap:
            return f"{short(conf)}, capacity {f}x the need"
    return f"{short(conf)}, another capacity"


def order(name):
    keys = list(SHORT.values())
    capacities = [""] + [f" {f}x" for f in FACTORS] + [f" {f}x the need" for f in NEED_FACTORS]
    setting, _, capacity = name.partition(", capacity")
    return (keys.index(setting) if setting in keys else len(keys),
            capacities.index(capacity) if capacity in capacities else len(capacities), name)


def table(program, ops, root):
    lines = ["| traces | condition | identical | not yet identical |", "| --- | --- | --- | --- |"]
    verdicts = verdicts_same = 0
    for folder, name, from_seeds in CORPORA:
        path = os.path.join(root, "tests", "data", "oracle", folder)
        with open(os.path.join(path, "known.json")) as f:
            known = json.load(f)
        rows = comparisons(program, path, ops if from_seeds else None, known)
        rows = [r for r in rows if r["status"] != "SKIP"]
        group = name.format(n=len({r["trace"] for r in rows}))
        by_label = {}
        for r in rows:
            by_label.setdefault(label(r["results"], r["condition"]), []).append(r)
            if "@cap=" in r["condition"] and "oracle" in r:
                verdicts += 1
                verdicts_same += r["oracle"][3:] == r["replay"][3:]
        for condition in sorted(by_label, key=order):
            runs = by_label[condition]
            same = [r for r in runs if r["status"] == "OK"]
            others = sorted({r["trace"] for r in runs if r["status"] != "OK"})
            lines.append(f"| {group} | {condition} | {len(same)} of {len(runs)} | "
                         f"{', '.join(others) if others else 'none'} |")
    lines.append(f"| every run under a capacity | the verdict and the refused request | "
                 f"{verdicts_same} of {verdicts} | {'none' if verdicts == verdicts_same else verdicts - verdicts_same} |")
    return "\n".join(lines)


def main(argv):
    words = [w for w in argv[1:] if not w.startswith("--")]
    if len(words) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    program, ops, root = words
    made = table(program, ops, root)
    readme = os.path.join(root, "README.md")
    with open(readme) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        print(f"readme_table: README.md lacks the lines {BEGIN} and {END}")
        return 1
    head, rest = text.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    if "--write" in argv:
        with open(readme, "w") as f:
            f.write(head + BEGIN + "\n" + made + "\n" + END + tail)
        print("readme_table: README.md written")
        return 0
    if old.strip() != made.strip():
        print("readme_table: README.md's table is not the one the committed results give; it should be:")
        print(made)
        return 1
    print(f"readme_table: README.md's table is the one the committed results give ({made.count(chr(10)) - 1} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
