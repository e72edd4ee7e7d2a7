#!/usr/bin/env python3
"""Builds the oracle corpus on a CUDA machine (PyTorch 2.3 or later):

    python3 tests/oracle/corpus.py OUTDIR [--random K] [--jobs J] [--only NAMES]
                                          [--deadline SECONDS] [--no-run-traces]

1. Records each program of PROGRAMS in a fresh process under PyTorch's
   default allocator settings, from its first allocation
   (_record_memory_history(context=None)): OUTDIR/traces/NAME.pickle, with
   the program's own peaks and retries in OUTDIR/programs.json. The oracle
   then makes the same requests under the defaults and records its own
   trace: OUTDIR/traces/NAME.oracle.pickle, the corpus trace of the program
   (the same requests; the segment addresses of an oracle process, as in
   every oracle run below).
2. Generates K request sequences (oracle.py generate_boundaries: sizes at
   every rounding boundary, frees out of order, up to four streams) into
   OUTDIR/generated/gen-SEED.json and runs each through the oracle under the
   defaults, recording the oracle's own trace: OUTDIR/traces/gen-SEED.pickle,
   the corpus trace of that sequence.
3. Runs every corpus trace through the oracle under each condition of
   CONDITIONS: the defaults, expandable_segments, max_split_size_mb 64 and
   256, both forms of roundup_power2_divisions; capacities of 1.05x, 1.0x
   and 0.97x the peak allocated bytes under the defaults, under expandable
   segments and under max_split_size_mb:64 (each setting's own peak);
   garbage_collection_threshold:0.6 at 1.05x and 0.97x the defaults' peak,
   and with max_split_size_mb:256 at 1.05x; for the generated sequences also
   capacities within 1 % of their need (0.995x and 1.005x the peak reserved
   under the defaults). With the run traces on (the default) each run
   records its own trace, OUTDIR/runs/TRACE/N.pickle, so that a difference
   can be followed block by block.

Every oracle run is a process of its own, with a fresh CUDA context: this
process imports torch but never touches CUDA, and forks one child per run
(from its main thread); the child sets PYTORCH_CUDA_ALLOC_CONF before its
first CUDA call (oracle.run_here), makes the requests, writes its result to
a file and exits. A probe run first checks that settings set this way take
(max_split_size_mb:64 must show in the allocator's max_split_size and
expandable_segments:True must map its memory); where they do not, every
run is a new python3 process instead (slower). Runs go J at a time, fewer
when the GPU memory they may need together would pass 85 % of the card.
--deadline stops starting runs after that many seconds (those not run are
recorded as errors). Programs are recorded as new python3 processes.

Writes OUTDIR/oracle.json: {trace: {condition: oracle result}}, the trace
named by its file's stem; "recorded" is the run that recorded it. A
condition is "CONF" or "CONF@cap=BYTES". OUTDIR/corpus.json says how the
corpus was made (the conditions, the runner, the times).
"""
import json
import os
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import oracle  # noqa: E402

PROGRAMS = [("encoder_train", 8), ("conv_bn_train", 16), ("decoder_bf16_train", 4), ("mlp_infer", 4),
            ("lstm_train", 16), ("scripted_infer", 8), ("vgg_train", 16), ("shapes_loop", 16),
            ("two_streams", 4), ("empty_cache_infer", 2), ("compiled_train", 8), ("checkpoint_train", 8),
            ("copy_compute_streams", 4), ("empty_cache_loop", 64)]
EXPANDABLE = "expandable_segments:True"
SPLIT_64 = "max_split_size_mb:64"
SPLIT_256 = "max_split_size_mb:256"
SETTINGS = ["", EXPANDABLE, SPLIT_64, SPLIT_256, "roundup_power2_divisions:4",
            "roundup_power2_divisions:[256:1,512:2,1024:4,>:8]"]
CAPS = [1.05, 1.0, 0.97]
# (setting, factor of that setting's own peak allocated bytes)
CAPACITY_CONDITIONS = ([(c, f) for c in ("", EXPANDABLE, SPLIT_64) for f in CAPS] +
                       [("garbage_collection_threshold:0.6", 1.05), ("garbage_collection_threshold:0.6", 0.97),
                        ("max_split_size_mb:256,garbage_collection_threshold:0.6", 1.05)])
# (setting, factor of the defaults' peak reserved bytes): within 1 % of the need
NEED_CONDITIONS = [("", 0.995), ("", 1.005)]
MiB = 1 << 20


def child(name, n, snapshot):
    import torch
    from programs import build
    torch.cuda.memory._record_memory_history(enabled="all", context=None, stacks="python")
    step, steps = build(name, torch, n)
    for i in range(steps):
        step(i)
    torch.cuda.synchronize()
    stats = torch.cuda.memory_stats()
    torch.cuda.memory._dump_snapshot(snapshot)
    print(json.dumps({"peak_allocated_bytes": torch.cuda.max_memory_allocated(),
                      "peak_reserved_bytes": torch.cuda.max_memory_reserved(),
                      "alloc_retries": stats.get("num_alloc_retries", 0), "size": n,
                      "total_memory": torch.cuda.get_device_properties(0).total_memory,
                      "torch": torch.__version__}))


def clean_env():
    env = dict(os.environ)
    env.pop("PYTORCH_CUDA_ALLOC_CONF", None)
    env.pop("PYTORCH_ALLOC_CONF", None)
    return env


def key_of(conf, cap):
    return conf + ("" if cap is None else f"@cap={cap}")


class Runner:
    """Oracle runs, each a child process: forked (this process never touches
    CUDA) or, where the probe says settings do not take in a fork, a new
    python3 process. At most `jobs` at a time, and no more than `budget`
    bytes of GPU memory that the running ones may need."""

    def __init__(self, out, jobs, budget, deadline, fork):
        self.out, self.jobs, self.budget, self.deadline, self.fork = out, jobs, budget, deadline, fork
        self.scratch = os.path.join(out, "scratch")
        os.makedirs(self.scratch, exist_ok=True)
        self.ops = {}
        self.count = 0
        self.running = {}  # pid or Popen -> (task, started, need)
        self.programs = {}  # Popen -> (name, started)

    def ops_of(self, source):
        if source not in self.ops:
            if source.endswith(".json"):
                with open(source) as f:
                    self.ops[source] = json.load(f)["ops"]
            else:
                self.ops[source] = oracle.ops_from_snapshot(source)
        return self.ops[source]

    def start(self, task):
        self.count += 1
        n = self.count
        result = os.path.join(self.scratch, f"{n}.json")
        log = os.path.join(self.scratch, f"{n}.log")
        task["result_file"], task["log_file"] = result, log
        ops = self.ops_of(task["source"])
        if not self.fork:
            args = [sys.executable, os.path.join(HERE, "oracle.py"), "run", task["source"], "--result", result]
            if task["capacity"] is not None:
                args += ["--capacity-bytes", str(task["capacity"])]
            if task.get("record"):
                args += ["--record", task["record"]]
            env = clean_env()
            if task["conf"]:
                env["PYTORCH_CUDA_ALLOC_CONF"] = task["conf"]
            with open(log, "w") as f:
                return subprocess.Popen(args, env=env, stdout=f, stderr=subprocess.STDOUT)
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(fd, 1)
                os.dup2(fd, 2)
                oracle.run_here(ops, task["conf"], task["capacity"], task.get("record"), result)
            except BaseException:  # noqa: BLE001 - the child reports everything, then exits
                traceback.print_exc()
                code = 3
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        return pid

    @staticmethod
    def finished(handle):
        if isinstance(handle, int):
            pid, _ = os.waitpid(handle, os.WNOHANG)
            return pid != 0
        return handle.poll() is not None

    @staticmethod
    def kill(handle):
        try:
            if isinstance(handle, int):
                os.kill(handle, 9)
                os.waitpid(handle, 0)
            else:
                handle.kill()
                handle.wait()
        except (OSError, ProcessLookupError):
            pass

    def collect(self, task):
        try:
            with open(task["result_file"]) as f:
                return json.load(f)
        except (OSError, ValueError):
            try:
                with open(task["log_file"]) as f:
                    return {"error": f.read()[-1500:] or "no result"}
            except OSError:
                return {"error": "no result"}

    def start_program(self, name, n):
        snapshot = os.path.join(self.out, "traces", name + ".pickle")
        log = open(os.path.join(self.out, "logs", name + ".log"), "w")
        env = clean_env()
        env["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
        answer = os.path.join(self.out, "logs", name + ".json")
        with open(answer, "w") as result:
            p = subprocess.Popen([sys.executable, __file__, "--child", name, str(n), snapshot], env=env,
                                 stdout=result, stderr=log)
        self.programs[p] = (name, time.time(), log, answer)

    def poll_programs(self):
        done = []
        for p, (name, started, log, answer) in list(self.programs.items()):
            if p.poll() is None:
                if time.time() - started > 240:
                    self.kill(p)
                else:
                    continue
            with open(answer) as f:
                out = f.read()
            log.close()
            del self.programs[p]
            lines = out.strip().splitlines()
            try:
                done.append((name, json.loads(lines[-1]) if p.returncode == 0 else {"error": f"exit {p.returncode}"}))
            except (ValueError, IndexError):
                done.append((name, {"error": "no result"}))
        return done

    def step(self, pending, on_done):
        """Starts what fits, collects what ended; pending: list of tasks, each
        with its `need` in bytes. Returns when something changed."""
        now = time.time()
        used = sum(need for _, _, need in self.running.values())
        while pending and len(self.running) < self.jobs:
            task = pending[0]
            if now > self.deadline:
                pending.pop(0)
                on_done(task, {"error": "not run: the corpus's deadline had passed"})
                continue
            need = task["need"]
            if self.running and used + need > self.budget:
                break
            pending.pop(0)
            handle = self.start(task)
            self.running[handle] = (task, now, need)
            used += need
        for handle, (task, started, _) in list(self.running.items()):
            if self.finished(handle):
                del self.running[handle]
                on_done(task, self.collect(task))
            elif time.time() - started > task.get("timeout", 120):
                self.kill(handle)
                del self.running[handle]
                on_done(task, {"error": "killed: the run took more than its time"})
        time.sleep(0.005)


def probe(runner, out):
    """Whether settings set in a forked child take (see the module's text)."""
    ops = [["a", 0, 1000, 0, 0], ["a", 1, 200 * MiB, 0, 1]]
    path = os.path.join(out, "generated", "probe.json")
    with open(path, "w") as f:
        json.dump({"ops": ops}, f)
    results = {}
    tasks = [{"source": path, "conf": conf, "capacity": None, "need": 1 << 30,
              "record": os.path.join(runner.scratch, f"probe{i}.pickle"), "name": conf}
             for i, conf in enumerate([SPLIT_64, EXPANDABLE, ""])]
    pending = list(tasks)
    deadline, runner.deadline = runner.deadline, float("inf")  # the probe runs whatever the deadline
    while pending or runner.running:
        runner.step(pending, lambda t, r: results.__setitem__(t["name"], r))
    runner.deadline = deadline
    ok = (results[SPLIT_64].get("max_split_size") == 64 * MiB and results[EXPANDABLE].get("segment_maps", 0) > 0
          and results[""].get("segment_maps", 1) == 0)
    return ok, results


def main():
    if sys.argv[1] == "--child":
        child(sys.argv[2], int(sys.argv[3]), sys.argv[4])
        return 0
    started = time.time()
    out = sys.argv[1]
    k = int(sys.argv[sys.argv.index("--random") + 1]) if "--random" in sys.argv else 60
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 12
    only = sys.argv[sys.argv.index("--only") + 1].split(",") if "--only" in sys.argv else None
    deadline = started + (float(sys.argv[sys.argv.index("--deadline") + 1]) if "--deadline" in sys.argv else 1e9)
    run_traces = "--no-run-traces" not in sys.argv
    for folder in ("traces", "generated", "logs", "runs"):
        os.makedirs(os.path.join(out, folder), exist_ok=True)
    os.environ.pop("PYTORCH_CUDA_ALLOC_CONF", None)
    os.environ.pop("PYTORCH_ALLOC_CONF", None)
    import torch
    assert not torch.cuda.is_initialized()
    runner = Runner(out, jobs, 1 << 62, deadline, fork=True)
    fork_ok, probed = probe(runner, out)
    if not fork_ok:
        runner.fork = False
    total = next((r["total_memory"] for r in probed.values() if "total_memory" in r), None)
    if total is None:
        print("corpus: the probe could not run: " + json.dumps(probed)[:2000], flush=True)
        return 1
    runner.budget = int(0.85 * total) - jobs * 600 * MiB
    print(f"corpus: probe done at {time.time() - started:.0f} s: runner {'fork' if runner.fork else 'python3'}, "
          f"total memory {total}", flush=True)

    programs = [(n, s) for n, s in PROGRAMS if only is None or n in only]
    for name, size in programs:
        runner.start_program(name, size)
    recorded = {}
    seeds = list(range(1, k + 1))
    for seed in seeds:
        with open(os.path.join(out, "generated", f"gen-{seed}.json"), "w") as f:
            json.dump(oracle.generate_boundaries(seed), f)

    results = {}
    pending = []
    run_number = {}

    def record_path(trace):
        if not run_traces:
            return None
        folder = os.path.join(out, "runs", trace)
        os.makedirs(folder, exist_ok=True)
        run_number[trace] = run_number.get(trace, 0) + 1
        return os.path.join(folder, f"{run_number[trace]}.pickle")

    def need_of(ops, cap=None):
        need = int(1.5 * oracle.most_live_bytes(ops)) + 256 * MiB
        return need if cap is None else min(need, int(1.1 * cap) + 64 * MiB)

    def add_phase_a(trace):
        source = os.path.join(out, "traces", trace + ".pickle")
        ops = runner.ops_of(source)
        for conf in SETTINGS:
            path = record_path(trace)
            pending.append({"trace": trace, "phase": "A", "source": source, "conf": conf, "capacity": None,
                            "need": need_of(ops), "record": path})

    def add_phase_b(trace, finished_conf):
        source = os.path.join(out, "traces", trace + ".pickle")
        ops = runner.ops_of(source)
        base = results[trace].get(finished_conf, {})
        peak = base.get("peak_allocated_bytes")
        if not peak:
            return
        conds = [(c, int(f * peak)) for c, f in CAPACITY_CONDITIONS
                 if (c if c in ("", EXPANDABLE, SPLIT_64) else "") == finished_conf]
        if finished_conf == "" and trace.startswith("gen-") and base.get("peak_reserved_bytes"):
            conds += [(c, int(f * base["peak_reserved_bytes"])) for c, f in NEED_CONDITIONS]
        for conf, cap in conds:
            pending.append({"trace": trace, "phase": "B", "source": source, "conf": conf, "capacity": cap,
                            "need": need_of(ops, cap), "record": record_path(trace)})

    def on_done(task, result):
        trace = task["trace"]
        if task.get("record") and os.path.exists(task["record"]):
            result["trace_file"] = os.path.relpath(task["record"], out)
        if task["phase"] == "0":
            results.setdefault(trace, {})["recorded"] = result
            if "error" not in result:
                add_phase_a(trace)
            return
        results[trace][key_of(task["conf"], task["capacity"])] = result
        if task["phase"] == "A" and "error" not in result:
            add_phase_b(trace, task["conf"])

    # The generated sequences first: they need no program.
    for seed in seeds:
        source = os.path.join(out, "generated", f"gen-{seed}.json")
        ops = runner.ops_of(source)
        pending.append({"trace": f"gen-{seed}", "phase": "0", "source": source, "conf": "", "capacity": None,
                        "need": need_of(ops), "record": os.path.join(out, "traces", f"gen-{seed}.pickle")})
    last_note = 0
    while pending or runner.running or runner.programs:
        for name, result in runner.poll_programs():
            recorded[name] = result
            source = os.path.join(out, "traces", name + ".pickle")
            if "error" in result or not os.path.exists(source):
                print(f"corpus: program {name} failed: {result}", flush=True)
                continue
            ops = runner.ops_of(source)
            pending.insert(0, {"trace": name + ".oracle", "phase": "0", "source": source, "conf": "",
                               "capacity": None, "need": need_of(ops),
                               "record": os.path.join(out, "traces", name + ".oracle.pickle")})
        runner.step(pending, on_done)
        if time.time() - last_note > 30:
            last_note = time.time()
            done = sum(len(v) for v in results.values())
            print(f"corpus: {time.time() - started:.0f} s: {done} runs done, {len(pending)} waiting, "
                  f"{len(runner.running)} running, {len(runner.programs)} programs recording", flush=True)
            # What is done so far, should this process be stopped from outside.
            with open(os.path.join(out, "oracle.json"), "w") as f:
                json.dump(results, f, indent=1, sort_keys=True)
            with open(os.path.join(out, "programs.json"), "w") as f:
                json.dump(recorded, f, indent=1, sort_keys=True)
    with open(os.path.join(out, "programs.json"), "w") as f:
        json.dump(recorded, f, indent=1, sort_keys=True)
    with open(os.path.join(out, "oracle.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    errors = sum(1 for v in results.values() for r in v.values() if "error" in r)
    with open(os.path.join(out, "corpus.json"), "w") as f:
        json.dump({"programs": programs, "generated": len(seeds), "settings": SETTINGS,
                   "capacity_conditions": CAPACITY_CONDITIONS, "need_conditions": NEED_CONDITIONS,
                   "runner": "fork" if runner.fork else "python3", "probe": probed, "jobs": jobs,
                   "seconds": round(time.time() - started, 1), "runs": runner.count, "errors": errors,
                   "torch": torch.__version__}, f, indent=1)
    print(f"corpus done: {runner.count} oracle runs, {errors} errors, {time.time() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
