#!/usr/bin/env python3
"""One answer from a trace to a package: `extrapolate --largest`,
`extrapolate --to N --gpu C`, `calcul_forfaits --fits FILE --size N` and
`replay --gpu C` agree on every card of the shipped catalog.

    python3 extrapolate_agreement.py MESURE_MEMOIRE CALCUL_FORFAITS SIZES_FOLDER WORK

On the committed transformer encoder traces (tests/data/sizes/): for each
card, the largest size N that `--largest` finds is judged to fit by the
JSON's own verdicts, by `calcul_forfaits --fits ex.json --size N` (the card
is listed, its headroom the margin `--largest` printed) and by `--to N
--gpu C`; N+1 by none of them. At the largest size recorded (512), where
the prediction is the replay of the trace itself, `replay --gpu C` gives
the same verdict as the extrapolation. The text answer of `--largest` on
this transformer fits in 25 lines. Exit 0 when everything agrees; each
disagreement is a line.
"""
import json
import os
import subprocess
import sys

SIZES = [1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512]


def run(args):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(args[:2])} exited {p.returncode}: {p.stderr.strip()[:400]}")
    return p.stdout


def main(argv):
    mm, cf, folder, work = argv[1:5]
    os.makedirs(work, exist_ok=True)
    files = [os.path.join(folder, f"encoder_train.b{n}.pickle") for n in SIZES]
    base = [mm, "extrapolate", *files, "--sizes", ",".join(map(str, SIZES))]
    problems = []
    text = run(base + ["--largest"])
    lines = text.count("\n")
    if lines > 25:
        problems.append(f"the text answer of --largest is {lines} lines (at most 25)")
    ex = os.path.join(work, "ex.json")
    out = run(base + ["--largest", "--json"])
    with open(ex, "w") as f:
        f.write(out)
    answer = json.loads(out)
    verdicts = {(c["gpu"], r["size"]): r for c in answer["cards"] for r in c["sizes"] if r["alloc_conf"] == ""}
    cards = 0
    for largest in answer["largest"]:
        gpu, n = largest["gpu"], largest["size"]
        cards += 1
        if n is None or largest["at_limit"]:
            problems.append(f"{gpu}: no size found to check")
            continue
        for size, fits in ((n, True), (n + 1, False)):
            if verdicts.get((gpu, size), {}).get("fits") is not fits:
                problems.append(f"{gpu}: the JSON's verdict at {size} is not fits={fits}")
            priced = json.loads(run([cf, "--fits", ex, "--size", str(size), "--json"]))
            listed = [m for m in priced["packages"] if m["gpu"] == gpu]
            if bool(listed) is not fits:
                problems.append(f"{gpu}: calcul_forfaits --size {size} {'does not list' if fits else 'lists'} it")
            if fits and listed and listed[0]["fit"]["headroom_bytes"] != largest["margin_bytes"]:
                problems.append(f"{gpu}: headroom {listed[0]['fit']['headroom_bytes']} against the margin "
                                f"{largest['margin_bytes']} of --largest")
            asked = json.loads(run(base + ["--to", str(size), "--gpu", gpu, "--json"]))
            if asked["cards"][0]["sizes"][0]["fits"] is not fits:
                problems.append(f"{gpu}: --to {size} --gpu {gpu} says fits={not fits}")
    # At a size recorded, the prediction is the replay of that trace: replay --gpu agrees.
    recorded = json.loads(run(base + ["--to", "512", "--json"]))
    for card in recorded["cards"]:
        gpu = card["gpu"]
        replayed = json.loads(run([mm, "replay", files[-1], "--gpu", gpu, "--json"]))
        fits = not replayed["settings"][0]["oom"]
        if card["sizes"][0]["fits"] is not fits:
            problems.append(f"{gpu}: replay --gpu says fits={fits} at 512, the extrapolation the contrary")
    for p in problems:
        print(p)
    print(f"{cards} cards: --largest, --to --gpu, calcul_forfaits --fits --size and replay --gpu "
          f"{'agree' if not problems else 'disagree'}; the text answer is {lines} lines")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
