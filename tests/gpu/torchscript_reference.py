#!/usr/bin/env python3
"""The reference of `mesure_memoire measure --torchscript`, in Python/PyTorch.

Two commands:

  torchscript_reference.py export FOLDER
      writes FOLDER/encoder.pt (a small transformer encoder over token ids,
      torch.jit.script) and FOLDER/conv.pt (a small convolutional network,
      torch.jit.trace), and prints the --input flags of each as JSON.

  torchscript_reference.py export-aoti FOLDER
      writes FOLDER/encoder.pt2 and FOLDER/conv.pt2: the same two networks,
      exported with torch.export and compiled for cuda:0 into AOTInductor
      packages (torch._inductor.aoti_compile_and_package).

  torchscript_reference.py measure [--aoti] FILE --input SPEC [--input SPEC]...
                           [--train] [--input-high N] [--warmup N] [--repeats N]
      measures FILE.pt on cuda:0 in this fresh process with the phases of the
      C++ protocol (include/iteragpu/memory/protocol.hpp) and of its TorchScript
      workload (include/iteragpu/torch/torchscript_workload.hpp), in the same
      order of allocations, and prints the rows as JSON: phase, repeat and the
      six allocator fields. Values are not the C++ program's (the allocator's
      bytes depend on shapes, not values); the order of every allocation and
      release is.

Each phase synchronises, reads the baselines, resets the peaks, runs,
synchronises and reads the end values and peaks while the pass's output
still exists; the output is released before the next phase.
"""
import argparse
import faulthandler
import json
import os
import re
import sys

DTYPES = {"float32", "float16", "bfloat16", "float64", "int64", "int32", "int16", "int8", "uint8"}
INPUT_SEED = 1  # iteragpu::memory::input_seed


def parse_spec(text):
    m = re.fullmatch(r"([1-9][0-9]*(?:x[1-9][0-9]*)*):([a-z0-9]+)", text)
    if not m or m.group(2) not in DTYPES:
        sys.exit(f"torchscript_reference: --input {text!r} is not SIZExSIZE...:DTYPE")
    return [int(s) for s in m.group(1).split("x")], m.group(2)


def networks():
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self, width: int, heads: int):
            super().__init__()
            self.heads = heads
            self.qkv = nn.Linear(width, 3 * width)
            self.out = nn.Linear(width, width)
            self.norm1 = nn.LayerNorm(width)
            self.norm2 = nn.LayerNorm(width)
            self.up = nn.Linear(width, 4 * width)
            self.down = nn.Linear(4 * width, width)

        def forward(self, x):
            b, t, w = x.shape
            q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
            q = q.reshape(b, t, self.heads, w // self.heads).transpose(1, 2)
            k = k.reshape(b, t, self.heads, w // self.heads).transpose(1, 2)
            v = v.reshape(b, t, self.heads, w // self.heads).transpose(1, 2)
            scores = torch.softmax(q @ k.transpose(-2, -1) / float(w // self.heads) ** 0.5, dim=-1)
            x = x + self.out((scores @ v).transpose(1, 2).reshape(b, t, w))
            return x + self.down(torch.nn.functional.gelu(self.up(self.norm2(x))))

    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(1000, 256)
            self.blocks = nn.ModuleList([Block(256, 4), Block(256, 4)])
            self.head = nn.Linear(256, 1000)

        def forward(self, ids):
            x = self.embed(ids)
            for block in self.blocks:
                x = block(x)
            return {"logits": self.head(x), "hidden": x}

    class Conv(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 64, 3, stride=2),
                                          nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.classifier = nn.Linear(64, 10)

        def forward(self, images):
            return self.classifier(self.features(images))

    return Encoder, Conv


def export(folder):
    import torch
    Encoder, Conv = networks()
    torch.manual_seed(0)
    os.makedirs(folder, exist_ok=True)
    torch.jit.save(torch.jit.script(Encoder()), os.path.join(folder, "encoder.pt"))
    conv = Conv().eval()
    torch.jit.save(torch.jit.trace(conv, torch.randn(2, 3, 64, 64)), os.path.join(folder, "conv.pt"))
    print(json.dumps({"encoder.pt": ["--input", "8x128:int64", "--input-high", "1000"],
                      "conv.pt": ["--input", "16x3x64x64:float32"]}))


def export_aoti(folder):
    import torch
    Encoder, Conv = networks()
    torch.manual_seed(0)
    os.makedirs(folder, exist_ok=True)
    device = torch.device("cuda:0")
    examples = {"encoder.pt2": (Encoder(), (torch.randint(0, 1000, (8, 128), device=device),)),
                "conv.pt2": (Conv(), (torch.randn(16, 3, 64, 64, device=device),))}
    for name, (model, args) in examples.items():
        model = model.to(device).eval()
        with torch.no_grad():
            program = torch.export.export(model, args)
        torch._inductor.aoti_compile_and_package(program, package_path=os.path.join(folder, name))
    print(json.dumps({"encoder.pt2": ["--input", "8x128:int64", "--input-high", "1000"],
                      "conv.pt2": ["--input", "16x3x64x64:float32"]}))


def floating_tensors(value, found):
    # As collect_floating_tensors: a tensor, tuple and list elements, dict values, in order.
    import torch
    if isinstance(value, torch.Tensor):
        if value.is_floating_point():
            found.append(value)
    elif isinstance(value, (tuple, list)):
        for element in value:
            floating_tensors(element, found)
    elif isinstance(value, dict):
        for element in value.values():
            floating_tensors(element, found)


def measure(a):
    import torch

    specs = [parse_spec(text) for text in a.input]
    if not torch.cuda.is_available():
        print("torchscript_reference: cuda:0 is not available", file=sys.stderr)
        sys.exit(2)
    device = torch.device("cuda:0")
    torch.cuda.set_device(device)
    state = {"ran": False}

    def phase(name, repeat, operation):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize(device)
        base_alloc = torch.cuda.memory_allocated(device)
        base_reserved = torch.cuda.memory_reserved(device)
        torch.cuda.reset_peak_memory_stats(device)
        start.record()
        kept = operation()
        stop.record()
        torch.cuda.synchronize(device)
        row = {"phase": name, "repeat": repeat,
               "baseline_allocated_bytes": base_alloc, "baseline_reserved_bytes": base_reserved,
               "end_allocated_bytes": torch.cuda.memory_allocated(device),
               "end_reserved_bytes": torch.cuda.memory_reserved(device),
               "peak_allocated_bytes": torch.cuda.max_memory_allocated(device),
               "peak_reserved_bytes": torch.cuda.max_memory_reserved(device)}
        del kept  # the pass's output lives until after the end reading
        return row

    def load_model():
        if a.aoti:
            state["package"] = torch._inductor.aoti_load_package(a.file)
            return None
        module = torch.jit.load(a.file, map_location=device)
        module.train(a.train)
        state["module"] = module

    def make_inputs():
        g = torch.Generator(device).manual_seed(INPUT_SEED)
        inputs = []
        for shape, dtype in specs:
            t = getattr(torch, dtype)
            if t.is_floating_point:
                inputs.append(torch.randn(shape, generator=g, device=device, dtype=t))
            else:
                inputs.append(torch.randint(0, a.input_high, shape, generator=g, device=device, dtype=t))
        state["inputs"] = inputs

    def forward():
        if a.aoti:
            with torch.inference_mode():
                return state["package"](*state["inputs"])
        module = state["module"]
        if not a.train:
            with torch.inference_mode():
                return module(*state["inputs"])
        for p in module.parameters():
            p.grad = None
        output = module(*state["inputs"])
        floating = []
        floating_tensors(output, floating)
        loss = None
        for t in floating:
            loss = t.sum() if loss is None else loss + t.sum()
        loss.backward()
        return output

    def warmup():
        last = None
        for _ in range(a.warmup):
            last = None
            last = forward()
        return last

    rows = [phase("model_load", None, load_model), phase("inputs", None, make_inputs),
            phase("cold_forward", None, forward), phase("warmup", None, warmup)]
    rows += [phase("warm_forward", r, forward) for r in range(a.repeats)]
    print(json.dumps({"torch": torch.__version__, "phases": rows}), flush=True)
    if a.aoti:
        # The rows are out; the package's runner is not torn down at exit (a
        # loaded AOTInductor package can crash the interpreter's shutdown).
        sys.stderr.flush()
        os._exit(0)


def main():
    faulthandler.enable()
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="command", required=True)
    e = sub.add_parser("export")
    e.add_argument("folder")
    m = sub.add_parser("measure")
    m.add_argument("file")
    m.add_argument("--aoti", action="store_true")
    x = sub.add_parser("export-aoti")
    x.add_argument("folder")
    m.add_argument("--input", action="append", required=True)
    m.add_argument("--train", action="store_true")
    m.add_argument("--input-high", type=int, default=2)
    m.add_argument("--warmup", type=int, default=1)
    m.add_argument("--repeats", type=int, default=2)
    a = p.parse_args()
    if a.command == "export":
        export(a.folder)
    elif a.command == "export-aoti":
        export_aoti(a.folder)
    else:
        measure(a)


if __name__ == "__main__":
    main()
