#!/usr/bin/env python3
"""Records the allocator traces the replay tests read, with their ground truth.

Run on a CUDA machine with PyTorch (2.3 or later):

    python3 tests/data/traces/record.py OUTDIR

For each model it starts fresh processes (one per run, so that every run
begins at the process's first allocation):

  recorded      default settings, the trace recorded from the first
                allocation (_record_memory_history(context=None)), dumped
                with _dump_snapshot
  <setting>     the same steps under PYTORCH_CUDA_ALLOC_CONF=<setting>
                (expandable_segments:True, max_split_size_mb:64,
                roundup_power2_divisions:4), trace dumped too
  cap-0.95,     the same steps under set_per_process_memory_fraction, with
  cap-1.05      a capacity of 0.95 and 1.05 times the recorded peak
                allocated bytes

and writes OUTDIR/<model>.<run>.pickle and OUTDIR/ground-truth.json: per
run the peaks (max_memory_allocated / max_memory_reserved), the retries and
out-of-memory counts of memory_stats(), whether an OutOfMemoryError was
raised, and the capacity in bytes as the allocator computes it from the
fraction.  One more run, <model>.wrapped, records the transformer with a
ring buffer too small for its trace (the beginning is lost).
"""
import json
import os
import subprocess
import sys

MODELS = ["transformer_train", "conv_train", "mlp_infer", "lm_bf16_train"]
SETTINGS = ["expandable_segments:True", "max_split_size_mb:64", "roundup_power2_divisions:4"]
CAPS = [0.95, 1.05]


def build(name, torch):
    nn = torch.nn
    torch.manual_seed(0)
    dev = "cuda"
    if name == "transformer_train":
        layer = nn.TransformerEncoderLayer(d_model=256, nhead=8, dim_feedforward=1024, batch_first=True)
        model = nn.TransformerEncoder(layer, num_layers=3, enable_nested_tensor=False).to(dev)
        opt = torch.optim.Adam(model.parameters(), lr=1e-4)
        def step(i):
            x = torch.randn(16, 128, 256, device=dev)
            loss = model(x).float().pow(2).mean()
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step, 3
    if name == "conv_train":
        def block(cin, cout, stride):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())
        model = nn.Sequential(block(3, 32, 2), block(32, 64, 2), block(64, 64, 1), block(64, 128, 2),
                              block(128, 128, 1), block(128, 256, 2), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                              nn.Linear(256, 100)).to(dev)
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        def step(i):
            x = torch.randn(32, 3, 128, 128, device=dev)
            y = torch.randint(0, 100, (32,), device=dev)
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step, 3
    if name == "mlp_infer":
        model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 4096), nn.GELU(),
                              nn.Linear(4096, 1024)).to(dev)
        batches = [1, 8, 64, 512, 2048, 96, 4096, 3]
        def step(i):
            with torch.inference_mode():
                x = torch.randn(batches[i], 1024, device=dev)
                model(x).sum().item()
        return step, len(batches)
    if name == "lm_bf16_train":
        vocab, d, ctx = 8000, 256, 128
        class LM(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(vocab, d)
                layer = nn.TransformerEncoderLayer(d_model=d, nhead=4, dim_feedforward=4 * d, batch_first=True)
                self.body = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
                self.head = nn.Linear(d, vocab)
            def forward(self, t):
                mask = nn.Transformer.generate_square_subsequent_mask(t.shape[1], device=t.device)
                return self.head(self.body(self.emb(t), mask=mask, is_causal=True))
        model = LM().to(dev)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        def step(i):
            t = torch.randint(0, vocab, (8, ctx + 1), device=dev)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                logits = model(t[:, :-1])
                loss = nn.functional.cross_entropy(logits.float().reshape(-1, vocab), t[:, 1:].reshape(-1))
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step, 3
    raise SystemExit("unknown model " + name)


def child(name, fraction, snapshot, max_entries):
    import torch
    if max_entries:
        torch.cuda.memory._record_memory_history(enabled="all", context=None, stacks="python", max_entries=max_entries)
    else:
        torch.cuda.memory._record_memory_history(enabled="all", context=None, stacks="python")
    total = torch.cuda.get_device_properties(0).total_memory
    capacity = None
    if fraction is not None:
        torch.cuda.set_per_process_memory_fraction(fraction, 0)
        capacity = int(fraction * float(total))
    oom = False
    message = None
    try:
        step, steps = build(name, torch)
        for i in range(steps):
            step(i)
        torch.cuda.synchronize()
    except torch.OutOfMemoryError as e:
        oom = True
        message = str(e).splitlines()[0]
    stats = torch.cuda.memory_stats()
    if snapshot:
        torch.cuda.memory._dump_snapshot(snapshot)
    events = torch.cuda.memory._snapshot()["device_traces"][0]
    print(json.dumps({
        "peak_allocated_bytes": torch.cuda.max_memory_allocated(),
        "peak_reserved_bytes": torch.cuda.max_memory_reserved(),
        "alloc_retries": stats.get("num_alloc_retries", 0),
        "num_ooms": stats.get("num_ooms", 0),
        "oom_raised": oom,
        "oom_message": message,
        "capacity_bytes": capacity,
        "fraction": fraction,
        "alloc_conf": os.environ.get("PYTORCH_CUDA_ALLOC_CONF", ""),
        "total_memory": total,
        "events": len(events),
        "torch": torch.__version__,
    }))


def run(name, out, tag, conf=None, fraction=None, max_entries=None):
    env = dict(os.environ)
    env.pop("PYTORCH_CUDA_ALLOC_CONF", None)
    if conf:
        env["PYTORCH_CUDA_ALLOC_CONF"] = conf
    snap = os.path.join(out, f"{name}.{tag}.pickle")
    args = [sys.executable, __file__, "--child", name, repr(fraction), snap, str(max_entries or 0)]
    p = subprocess.run(args, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        return {"error": p.stderr[-2000:]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        fraction = None if sys.argv[3] == "None" else float(sys.argv[3])
        child(sys.argv[2], fraction, sys.argv[4], int(sys.argv[5]))
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    models = sys.argv[2:] or MODELS
    truth = {}
    for name in models:
        runs = {"recorded": run(name, out, "recorded")}
        for conf in SETTINGS:
            runs[conf] = run(name, out, conf.replace(":", "-"), conf=conf)
        base = runs["recorded"]
        if "peak_allocated_bytes" in base:
            total = base["total_memory"]
            for c in CAPS:
                fraction = c * base["peak_allocated_bytes"] / total
                runs[f"cap-{c}"] = run(name, out, f"cap-{c}", fraction=fraction)
        truth[name] = runs
        print(name, json.dumps(runs, indent=1), flush=True)
    truth["transformer_train.wrapped"] = run("transformer_train", out, "wrapped", max_entries=2000)
    with open(os.path.join(out, "ground-truth.json"), "w") as f:
        json.dump(truth, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
