#!/usr/bin/env python3
"""Writes the snapshots of tests/data/extrapolate/ (the JSON form of
torch.cuda.memory._snapshot(), events only): one small training-like program
at batch sizes 1, 2, 3 and 4 (a quadratic request is confirmed by a fourth
size), the same with a workspace whose size follows no function of the
batch, and the program at 2 with one request more (a scratch buffer on
another stream).
Run from anywhere; the files are committed."""
import json
import os

MIB = 1 << 20
HERE = os.path.dirname(os.path.abspath(__file__))


def program(n, workspace=None, extra=False):
    events = []
    address = [0x7F0000000000]
    live = {}

    def alloc(name, size, stream=0):
        live[name] = (address[0], size, stream)
        events.append({"action": "alloc", "addr": address[0], "size": size, "stream": stream})
        address[0] += (size + 0xFFFFF) // 0x100000 * 0x100000 + 0x100000

    def free(name):
        a, size, stream = live.pop(name)
        for action in ("free_requested", "free_completed"):
            events.append({"action": action, "addr": a, "size": size, "stream": stream})

    alloc("weights", 8 * MIB)
    for _ in range(2):
        alloc("a1", 4 * MIB * n)
        alloc("a2", MIB * n + 512)
        if extra:
            alloc("extra", 4096, stream=7)
            free("extra")
        if workspace is not None:
            alloc("workspace", workspace)
            free("workspace")
        free("a2")
        alloc("a3", 2 * MIB * n * n)
        free("a1")
        free("a3")
    return {"segments": [], "device_traces": [events]}


def write(name, document):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as out:
        json.dump(document, out, indent=None)
        out.write("\n")


for n in (1, 2, 3, 4):
    write(f"affine.b{n}.json", program(n))
write("workspace.b1.json", program(1, workspace=3 * MIB))
write("workspace.b2.json", program(2, workspace=17 * MIB))
write("workspace.b3.json", program(3, workspace=5 * MIB))
write("workspace.b4.json", program(4, workspace=10 * MIB))
write("extra.b2.json", program(2, extra=True))
