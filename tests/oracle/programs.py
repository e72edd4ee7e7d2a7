"""The programs whose allocator traces the oracle corpus and the
extrapolation ground truth are recorded from (PyTorch, one CUDA device).

Each builder takes torch and an integer size n (the batch size, or for
`shapes_loop` the number of steps) and returns (step, steps): step(i) runs
the program's i-th step. Weights are seeded, so that a program asks for the
same bytes in every process.
"""


# The TorchScript modules (name -> (input shape after the size, dtype)): saved
# by save_module() before any process touches the GPU, run as `measure
# --torchscript FILE --input SPEC --train` runs them (scripted_training()).
TORCHSCRIPT = {"ts_encoder_train": ((256,), "int64"), "ts_lstm_train": ((128, 128), "float32")}
MODULE_DIR = None  # the folder of the saved modules, set by the caller


def save_module(name, torch, path):
    """Scripts and saves module `name` (seeded, on the CPU): what both the
    Python runs and `extrapolate --torchscript` load."""
    nn = torch.nn
    torch.manual_seed(0)
    if name == "ts_encoder_train":
        class Block(nn.Module):
            def __init__(self, d: int, heads: int):
                super().__init__()
                self.heads = heads
                self.ln1 = nn.LayerNorm(d)
                self.qkv = nn.Linear(d, 3 * d)
                self.proj = nn.Linear(d, d)
                self.ln2 = nn.LayerNorm(d)
                self.up = nn.Linear(d, 4 * d)
                self.down = nn.Linear(4 * d, d)

            def forward(self, x):
                b = x.size(0)
                t = x.size(1)
                d = x.size(2)
                parts = self.qkv(self.ln1(x)).chunk(3, -1)
                q = parts[0].reshape(b, t, self.heads, d // self.heads).transpose(1, 2)
                k = parts[1].reshape(b, t, self.heads, d // self.heads).transpose(1, 2)
                v = parts[2].reshape(b, t, self.heads, d // self.heads).transpose(1, 2)
                a = torch.nn.functional.scaled_dot_product_attention(q, k, v)
                x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
                return x + self.down(torch.nn.functional.gelu(self.up(self.ln2(x))))

        class TokenEncoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(8000, 256)
                self.blocks = nn.ModuleList([Block(256, 4), Block(256, 4)])
                self.out = nn.Linear(256, 256)

            def forward(self, tokens):
                x = self.emb(tokens)
                for block in self.blocks:
                    x = block(x)
                return self.out(x)
        module = TokenEncoder()
    elif name == "scripted_infer":  # the module scripted_infer runs, for `extrapolate --torchscript` (inference)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 64, 3, padding=1)
                self.fc = nn.Linear(64, 10)

            def forward(self, x):
                y = torch.relu(self.conv(x))
                return self.fc(y.mean(dim=(2, 3)))
        module = Net()
    elif name == "ts_lstm_train":
        class Recurrent(nn.Module):
            def __init__(self):
                super().__init__()
                self.lstm = nn.LSTM(128, 512, num_layers=2, batch_first=True)
                self.head = nn.Linear(512, 128)

            def forward(self, x):
                out, _ = self.lstm(x)
                return self.head(out)
        module = Recurrent()
    else:
        raise SystemExit("unknown module " + name)
    torch.jit.save(torch.jit.script(module), path)


def scripted_training(name, torch, n):
    """`mesure_memoire measure --torchscript FILE --input Bx...:DTYPE --train`
    in Python: the module loaded onto the GPU, one input from a generator
    seeded with 1 (floating: normal; integer: uniform in [0, 2)), then its
    four passes (cold, one warm-up, two repeats), each: gradients set to
    none, forward, backward of the output's sum."""
    import os
    dev = "cuda"
    module = torch.jit.load(os.path.join(MODULE_DIR, name + ".pt"), map_location=dev)
    module.train()
    shape, dtype = TORCHSCRIPT[name]
    generator = torch.Generator(device=dev)
    generator.manual_seed(1)
    if dtype == "int64":
        x = torch.randint(0, 2, (n, *shape), generator=generator, device=dev, dtype=torch.int64)
    else:
        x = torch.randn((n, *shape), generator=generator, device=dev, dtype=torch.float32)

    def step(i):
        for p in module.parameters():
            p.grad = None
        module(x).sum().backward()
    return step, 4


def build(name, torch, n):
    nn = torch.nn
    torch.manual_seed(0)
    dev = "cuda"
    if name == "encoder_train":  # transformer encoder training, fp32, AdamW
        layer = nn.TransformerEncoderLayer(d_model=512, nhead=8, dim_feedforward=2048, batch_first=True)
        model = nn.TransformerEncoder(layer, num_layers=4, enable_nested_tensor=False).to(dev)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)

        def step(i):
            x = torch.randn(n, 128, 512, device=dev)
            model(x).pow(2).mean().backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step, 2
    if name == "conv_bn_train":  # conv net with BatchNorm, SGD with momentum
        def block(cin, cout):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                                 nn.MaxPool2d(2))
        model = nn.Sequential(block(3, 32), block(32, 64), block(64, 128), block(128, 256), nn.AdaptiveAvgPool2d(1),
                              nn.Flatten(), nn.Linear(256, 100)).to(dev)
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

        def step(i):
            x = torch.randn(n, 3, 128, 128, device=dev)
            y = torch.randint(0, 100, (n,), device=dev)
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step, 2
    if name == "decoder_bf16_train":  # decoder-style LM step under bf16 autocast, AdamW
        vocab, d, ctx = 16000, 512, 256

        class LM(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(vocab, d)
                layer = nn.TransformerEncoderLayer(d_model=d, nhead=8, dim_feedforward=4 * d, batch_first=True,
                                                   norm_first=True)
                self.body = nn.TransformerEncoder(layer, num_layers=4, enable_nested_tensor=False)
                self.head = nn.Linear(d, vocab)

            def forward(self, t):
                mask = nn.Transformer.generate_square_subsequent_mask(t.shape[1], device=t.device)
                return self.head(self.body(self.emb(t), mask=mask, is_causal=True))
        model = LM().to(dev)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)

        def step(i):
            t = torch.randint(0, vocab, (n, ctx + 1), device=dev)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                logits = model(t[:, :-1])
                loss = nn.functional.cross_entropy(logits.float().reshape(-1, vocab), t[:, 1:].reshape(-1))
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step, 2
    if name == "mlp_infer":  # MLP inference
        model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 4096), nn.GELU(),
                              nn.Linear(4096, 1024)).to(dev)

        def step(i):
            with torch.inference_mode():
                model(torch.randn(n * 1024, 1024, device=dev)).sum().item()
        return step, 2
    if name == "lstm_train":  # LSTM training, Adam
        model = nn.LSTM(256, 1024, num_layers=2, batch_first=True).to(dev)
        head = nn.Linear(1024, 256).to(dev)
        opt = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=1e-3)

        def step(i):
            x = torch.randn(n, 256, 256, device=dev)
            out, _ = model(x)
            head(out).pow(2).mean().backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step, 2
    if name == "scripted_infer":  # a TorchScript module, inference
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 64, 3, padding=1)
                self.fc = nn.Linear(64, 10)

            def forward(self, x):
                y = torch.relu(self.conv(x))
                return self.fc(y.mean(dim=(2, 3)))
        model = torch.jit.script(Net().to(dev))

        def step(i):
            with torch.no_grad():
                model(torch.randn(n, 3, 224, 224, device=dev)).sum().item()
        return step, 2
    if name == "vgg_train":  # VGG-style blocks at 224x224, SGD with momentum
        def block(cin, cout, convs):
            layers = []
            for k in range(convs):
                layers += [nn.Conv2d(cin if k == 0 else cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU()]
            return nn.Sequential(*layers, nn.MaxPool2d(2))
        model = nn.Sequential(block(3, 64, 2), block(64, 128, 2), block(128, 256, 3), block(256, 512, 3),
                              block(512, 512, 3), nn.Flatten(), nn.Linear(512 * 7 * 7, 1000)).to(dev)
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

        def step(i):
            x = torch.randn(n, 3, 224, 224, device=dev)
            y = torch.randint(0, 1000, (n,), device=dev)
            nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step, 2
    if name == "shapes_loop":  # a long training loop whose shapes change every step
        model = nn.Sequential(nn.Linear(512, 2048), nn.GELU(), nn.Linear(2048, 512)).to(dev)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
        shapes = [(8, 100), (32, 17), (3, 512), (64, 64), (1, 2048), (16, 333), (48, 90), (5, 1000)]

        def step(i):
            b, t = shapes[i % len(shapes)]
            model(torch.randn(b, t, 512, device=dev)).pow(2).mean().backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step, n
    if name == "two_streams":  # work on a side stream beside the default one
        model = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 1024)).to(dev)
        side = torch.cuda.Stream()

        def step(i):
            with torch.no_grad():
                a = model(torch.randn(n * 32, 1024, device=dev))
                with torch.cuda.stream(side):
                    b = model(torch.randn(n * 48, 1024, device=dev))
                    b.sum().item()
                    del b
                a.sum().item()
                del a
        return step, 3
    if name == "empty_cache_infer":  # inference at varying batch with emptyCache between batches
        model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).to(dev)
        batches = [n, 8 * n, 64 * n, 3 * n, 512 * n, 96 * n]

        def step(i):
            with torch.inference_mode():
                model(torch.randn(batches[i], 1024, device=dev)).sum().item()
            torch.cuda.empty_cache()
        return step, len(batches)
    if name == "embed_train":  # token embedding whose backward changes kernel past 3072 indices (B*T), AdamW
        vocab, d, ctx = 32000, 256, 256
        model = nn.Sequential(nn.Embedding(vocab, d), nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.GELU(),
                              nn.Linear(4 * d, d)).to(dev)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)

        def step(i):
            t = torch.randint(0, vocab, (n, ctx), device=dev)
            model(t).pow(2).mean().backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step, 2
    if name in TORCHSCRIPT:  # a saved TorchScript module run as `mesure_memoire measure --torchscript --train` runs it
        return scripted_training(name, torch, n)
    if name == "compiled_train":  # a model under torch.compile (inductor's own buffers), AdamW
        model = nn.Sequential(nn.Linear(512, 2048), nn.GELU(), nn.LayerNorm(2048), nn.Linear(2048, 512)).to(dev)
        compiled = torch.compile(model, backend="inductor")
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4)

        def step(i):
            compiled(torch.randn(n, 256, 512, device=dev)).pow(2).mean().backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step, 3
    if name == "checkpoint_train":  # activation checkpointing (torch.utils.checkpoint, use_reentrant=False)
        import torch.utils.checkpoint as checkpoint
        blocks = nn.ModuleList(nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024))
                               for _ in range(4)).to(dev)
        opt = torch.optim.SGD(blocks.parameters(), lr=1e-3, momentum=0.9)

        def step(i):
            x = torch.randn(n, 128, 1024, device=dev, requires_grad=True)
            for b in blocks:
                x = checkpoint.checkpoint(b, x, use_reentrant=False)
            x.pow(2).mean().backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        return step, 2
    if name == "copy_compute_streams":  # a host-to-device copy on a side stream overlapping compute
        model = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 1024)).to(dev)
        copy = torch.cuda.Stream()
        host = [torch.randn(n * 256, 1024).pin_memory() for _ in range(2)]
        nxt = host[0].to(dev, non_blocking=True)

        def step(i):
            nonlocal nxt
            torch.cuda.current_stream().wait_stream(copy)  # this step's batch has arrived
            current = nxt
            current.record_stream(torch.cuda.current_stream())
            with torch.cuda.stream(copy):  # the next batch is copied while this one is computed
                nxt = host[(i + 1) % 2].to(dev, non_blocking=True)
            with torch.no_grad():
                model(current).sum().item()
            del current
        return step, 4
    if name == "empty_cache_loop":  # a long training loop with torch.cuda.empty_cache() inside
        model = nn.Sequential(nn.Linear(256, 1024), nn.GELU(), nn.Linear(1024, 256)).to(dev)
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        batches = [n, 3 * n, 2 * n, 5 * n]

        def step(i):
            model(torch.randn(batches[i % len(batches)], 64, 256, device=dev)).pow(2).mean().backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
            if i % 3 == 2:
                torch.cuda.empty_cache()
        return step, 40
    raise SystemExit("unknown program " + name)
