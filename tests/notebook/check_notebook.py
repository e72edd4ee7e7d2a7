#!/usr/bin/env python3
"""No-GPU checks of examples/mesure-memoire.ipynb, one per CTest test:

    check_notebook.py CHECK --notebook PATH [--program mesure_memoire] [--version X.Y.Z] [--work DIR]

Python standard library only. The notebook's cells are run here with PyTorch
blocked, so a cell that needs it cannot pass by accident.
"""
import argparse
import ast
import json
import os
import re
import shutil
import stat
import subprocess
import sys

# `import torch` raises ImportError from here on, even where PyTorch is installed.
sys.modules["torch"] = None

SKIP = 77  # CTest's SKIP_RETURN_CODE for checks that only apply on some hosts
RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_notebook.py")
NO_TORCH_TAGS = ("parameters", "estimate", "protocol")
STANDARD_MODULES = {"json", "os", "platform", "re", "tempfile", "time"}
PHASE_ROW_KEYS = ["phase", "repeat", "seconds", "gpu_seconds", "baseline_allocated_bytes", "baseline_reserved_bytes",
                  "end_allocated_bytes", "end_reserved_bytes", "peak_allocated_bytes", "peak_reserved_bytes"]


class CheckFailed(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)


def load(path):
    with open(path, encoding="utf-8") as stream:
        return json.load(stream)


def source_of(cell):
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def tags_of(cell):
    return cell.get("metadata", {}).get("tags", [])


def cells_tagged(notebook, *tags):
    """Concatenated source of the code cells carrying one of `tags`, in notebook order."""
    chosen = [source_of(c) for c in notebook["cells"] if c["cell_type"] == "code" and set(tags_of(c)) & set(tags)]
    expect(chosen, f"no code cell is tagged {' or '.join(tags)}")
    return "\n\n".join(chosen)


def run_cells(notebook, *tags):
    """A fresh namespace holding what the cells tagged `tags` define, and what they printed."""
    namespace = {"__name__": "__notebook__"}
    printed = subprocess.run([sys.executable, "-I", "-S", "-c",
                              "import sys\nsys.modules['torch'] = None\n" + cells_tagged(notebook, *tags)],
                             capture_output=True, text=True)
    expect(printed.returncode == 0, f"cells {tags} fail on their own:\n{printed.stderr}")
    exec(compile(cells_tagged(notebook, *tags), "<cells>", "exec"), namespace)
    return namespace, printed.stdout


# ---------------------------------------------------------------- structure

def check_structure(options):
    notebook = load(options.notebook)
    expect(notebook.get("nbformat") == 4, f"nbformat is {notebook.get('nbformat')!r}, not 4")
    minor = notebook.get("nbformat_minor")
    expect(isinstance(minor, int) and minor >= 4, f"nbformat_minor is {minor!r}")
    kernel = notebook.get("metadata", {}).get("kernelspec", {})
    expect(kernel.get("name") == "python3" and kernel.get("language") == "python",
           f"the kernelspec is not Python 3: {kernel}")
    expect(set(notebook) == {"cells", "metadata", "nbformat", "nbformat_minor"},
           f"unexpected top-level keys {sorted(notebook)}")
    ids = []
    code_tags = []
    for number, cell in enumerate(notebook["cells"]):
        where = f"cell {number}"
        expect(cell.get("cell_type") in ("code", "markdown"), f"{where}: cell_type {cell.get('cell_type')!r}")
        source = cell.get("source")
        expect(isinstance(source, str) or (isinstance(source, list) and all(isinstance(s, str) for s in source)),
               f"{where}: source is neither text nor a list of text")
        expect(isinstance(cell.get("metadata"), dict), f"{where}: metadata is not an object")
        if minor >= 5:
            expect(isinstance(cell.get("id"), str) and re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", cell["id"]),
                   f"{where}: id {cell.get('id')!r} is not a valid nbformat 4.5 cell id")
            ids.append(cell["id"])
        if cell["cell_type"] == "code":
            expect(cell.get("outputs") == [], f"{where} ({cell.get('id')}): outputs are not empty")
            expect("execution_count" in cell and cell["execution_count"] is None,
                   f"{where} ({cell.get('id')}): execution_count is {cell.get('execution_count')!r}, not null")
            compile(source_of(cell), where, "exec")
            code_tags.append(tags_of(cell))
        else:
            expect("outputs" not in cell and "execution_count" not in cell,
                   f"{where}: a markdown cell carries outputs or an execution count")
            expect("attachments" not in cell, f"{where}: a markdown cell carries attachments")
    expect(len(ids) == len(set(ids)), "cell ids are not unique")
    expect(code_tags and code_tags[0] == ["parameters"], "the first code cell is not tagged 'parameters' alone")
    expect(sum("parameters" in t for t in code_tags) == 1, "more than one cell is tagged 'parameters'")
    for tag in ("estimate", "protocol", "measure", "run"):
        expect(any(tag in t for t in code_tags), f"no code cell is tagged '{tag}'")

    namespace, _ = run_cells(notebook, "parameters", "estimate", "protocol")
    expect(namespace["NOTEBOOK_LIBRARY"] == {"name": "iteragpu notebook", "version": options.version},
           f"NOTEBOOK_LIBRARY is {namespace['NOTEBOOK_LIBRARY']}, the project is at {options.version}")

    # The plain-words explanations the protocol asks for.
    prose = "\n".join(source_of(c) for c in notebook["cells"] if c["cell_type"] == "markdown")
    for phrase in ("`model_load`", "`inputs`", "`cold_forward`", "`warmup`", "`warm_forward`",
                   "**never add them**", "**never subtract them**", "cuBLAS workspace", "not** a cold start",
                   "torch.inference_mode()", "not isolated kernel", "nvidia-smi", "**new file only**",
                   "does **not** include"):
        expect(phrase in prose, f"the markdown cells do not say {phrase!r}")


def check_imports(options):
    notebook = load(options.notebook)
    for cell in (c for c in notebook["cells"] if c["cell_type"] == "code"):
        for node in ast.walk(ast.parse(source_of(cell))):
            if isinstance(node, ast.Import):
                modules = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                expect(node.level == 0, f"cell {cell['id']}: relative import")
                modules = [node.module.split(".")[0]]
            else:
                continue
            for module in modules:
                allowed = STANDARD_MODULES | ({"torch"} if "measure" in tags_of(cell) else set())
                expect(module in allowed, f"cell {cell['id']} imports {module!r}; allowed there: {sorted(allowed)}")
    for tag in NO_TORCH_TAGS:
        expect("torch" not in cells_tagged(notebook, tag), f"a cell tagged '{tag}' mentions torch")


# ---------------------------------------------------------------- estimate

# (parameters, bits, reserve or None for the default) as the program takes them.
GOOD_ESTIMATES = [
    ("7000000000", "16", "4"),  # the seed
    ("1", "1", None),
    ("1", "1", "0"),
    ("7000000000", "4", "0"),
    ("1000", "12", "0.5"),
    ("123456789", "65", "1.25"),
    ("18446744073709551615", "8", "0"),
    ("1", "18446744073709551615", "0"),
    ("70000000000", "16", "2.000"),
    ("1073741824", "8", "0"),
    ("3", "32", "0.1"),
    ("1", "1", "0.0000000000000000000000000000000000000001"),
    ("1", "8", "12345678901234567890.0987654321098765432109876543210987654321"),
    ("536870912", "8", "18446744073709551614.5"),  # total exactly 2^64 - 1 GiB
    ("007", "016", "007.50"),
    ("405000000000", "4", "8"),
]

# (parameters, bits, reserve, the input the program names, whether its message must match word for word)
BAD_ESTIMATES = [
    ("0", "16", "0", "parameters", True),
    ("7", "0", "0", "bits", True),
    ("-1", "16", "0", "parameters", True),
    ("+7", "16", "0", "parameters", True),
    (" 7", "16", "0", "parameters", True),
    ("1e9", "16", "0", "parameters", True),
    ("7.0", "16", "0", "parameters", True),
    ("\uff17", "16", "0", "parameters", True),  # a fullwidth digit seven
    ("18446744073709551616", "16", "0", "parameters", True),
    ("99999999999999999999x", "16", "0", "parameters", True),
    ("7", "16x", "0", "bits", True),
    ("", "16", "0", "parameters", False),  # the option parser refuses an empty value in its own words
    ("9223372036854775808", "16", "0", "parameters", True),  # weight bytes past 64 bits
    ("7", "16", "-1", "reserve-gib", True),
    ("7", "16", "1e3", "reserve-gib", True),
    ("7", "16", ".5", "reserve-gib", True),
    ("7", "16", "5.", "reserve-gib", True),
    ("7", "16", "1.5.2", "reserve-gib", True),
    ("7", "16", "+1", "reserve-gib", True),
    ("7", "16", "1,5", "reserve-gib", True),
    ("7", "16", "0." + "1" * 41, "reserve-gib", True),
    ("7", "16", "18446744073709551616", "reserve-gib", True),
    ("1073741824", "8", "18446744073709551615", "reserve-gib", True),  # total past 64 bits
    ("536870912", "8", "18446744073709551615.5", "reserve-gib", True),  # the carry passes 64 bits
]


def program_estimate(program, parameters, bits, reserve):
    args = [program, "estimate", f"--parameters={parameters}", f"--bits={bits}", "--json"]
    if reserve is not None:
        args.append(f"--reserve-gib={reserve}")
    return subprocess.run(args, capture_output=True, text=True)


def check_estimate_matches(options):
    notebook = load(options.notebook)
    namespace, printed = run_cells(notebook, "parameters", "estimate")
    seed = program_estimate(options.program, "7000000000", "16", "4")
    expect(seed.returncode == 0, f"the program fails on the seed: {seed.stderr}")
    expect(json.loads(printed) == json.loads(seed.stdout),
           f"the estimate cells print\n{printed}\nthe program prints\n{seed.stdout}")
    expect(len(GOOD_ESTIMATES) >= 10, "the table of estimates is too short")
    for parameters, bits, reserve in GOOD_ESTIMATES:
        program = program_estimate(options.program, parameters, bits, reserve)
        case = f"{parameters} x {bits} bits, reserve {reserve}"
        expect(program.returncode == 0 and program.stderr == "", f"{case}: the program fails: {program.stderr}")
        arguments = (parameters, bits) if reserve is None else (parameters, bits, reserve)
        ours = namespace["estimate_json"](*arguments)
        expect(ours + "\n" == program.stdout, f"{case}:\n notebook {ours}\n program  {program.stdout}")
        # The notebook also takes Python ints for the counts.
        expect(namespace["estimate_json"](int(parameters), int(bits), *arguments[2:]) == ours,
               f"{case}: int arguments give another result")
    # Values worked out by hand, so that both sides agreeing is not all that is checked.
    seed_result = namespace["estimate"](7_000_000_000, 16, "4")
    expect((seed_result["weight_gib"], seed_result["weight_gb"], seed_result["total_gib"])
           == ("13.03851604461669921875", "14", "17.03851604461669921875"), f"seed: {seed_result}")
    expect([namespace["estimate"](1, b)["bytes_per_parameter"] for b in (1, 4, 8, 9, 12, 16, 65)]
           == [1, 1, 1, 2, 2, 2, 9], "bits are not rounded up to whole bytes")


def check_estimate_rejects(options):
    notebook = load(options.notebook)
    namespace, _ = run_cells(notebook, "parameters", "estimate")
    for parameters, bits, reserve, flag, same_words in BAD_ESTIMATES:
        case = f"{parameters!r} x {bits!r} bits, reserve {reserve!r}"
        program = program_estimate(options.program, parameters, bits, reserve)
        expect(program.returncode == 2 and program.stdout == "", f"{case}: the program accepts it: {program}")
        expect(re.fullmatch(r"[^\n]+\n", program.stderr), f"{case}: the program's stderr is not one line")
        try:
            namespace["estimate"](parameters, bits, reserve)
        except ValueError as error:
            ours = str(error)
        else:
            raise CheckFailed(f"{case}: the notebook accepts it")
        name = flag.replace("-", "_")
        expect(ours.startswith(f"{name}: "), f"{case}: the notebook's message does not name {name}: {ours}")
        expect(f"--{flag}" in program.stderr, f"{case}: the program does not name --{flag}: {program.stderr}")
        if same_words:
            theirs = program.stderr.rstrip("\n").split(f"--{flag}: ", 1)[1]
            expect(ours == f"{name}: {theirs}", f"{case}:\n notebook {ours}\n program  {program.stderr}")
    # Inputs only Python can give: no float may slip in as an exact decimal.
    for arguments, name in (((7, 16, 1.5), "reserve_gib"), ((7.0, 16), "parameters"), ((True, 16), "parameters"),
                            ((7, None), "bits")):
        try:
            namespace["estimate"](*arguments)
        except ValueError as error:
            expect(str(error).startswith(f"{name}: "), f"{arguments}: {error}")
        else:
            raise CheckFailed(f"{arguments}: the notebook accepts it")


# ---------------------------------------------------------------- protocol

def refused(namespace, call, name):
    try:
        call()
    except namespace["MeasurementRefused"] as error:
        expect(str(error).startswith(f"{name}: ") and "\n" not in str(error), f"refusal does not name {name}: {error}")
        return str(error)
    raise CheckFailed(f"accepted where {name} should be refused")


def check_protocol(options):
    notebook = load(options.notebook)
    namespace, _ = run_cells(notebook, "parameters", "estimate", "protocol")
    work = fresh_folder(options.work)
    output = os.path.join(work, "mesures-petit-essai.json")
    configure = namespace["measurement_configuration"]
    good = dict(device="cuda:0", batch=1, context=16, width=64, dtype="float32", warmup=1, repeats=2, output=output)

    configuration = configure(**good)
    expect(list(configuration.items()) == [("device", "cuda:0"), ("batch", 1), ("context", 16), ("width", 64),
                                           ("hidden", 256), ("dtype", "float32"), ("warmup", 1), ("repeats", 2),
                                           ("output", "mesures-petit-essai.json")], f"configuration {configuration}")
    expect(configure(**{**good, "warmup": 0, "device": "cuda:12"})["warmup"] == 0, "warmup 0 is refused")
    for name, value in (("device", "cpu"), ("device", "cuda"), ("device", "cuda:-1"), ("device", "CUDA:0"),
                        ("device", "cuda:0 "), ("device", "cuda:x"), ("device", "mps"), ("device", 0),
                        ("batch", 0), ("batch", True), ("batch", 1.0), ("batch", "1"), ("context", 0),
                        ("width", 0), ("width", -64), ("dtype", "float64"), ("dtype", "int8"), ("warmup", -1),
                        ("repeats", 0), ("output", os.path.join(work, "missing", "m.json")),
                        ("output", work + os.sep), ("output", "")):
        refused(namespace, lambda: configure(**{**good, name: value}), name)
    expect("CPU" in refused(namespace, lambda: configure(**{**good, "device": "cpu"}), "device"),
           "the CPU refusal does not say why")

    expect(namespace["synthetic_model_record"](64, "float32") == {
        "layers": ["Linear(64 -> 256)", "GELU", "Linear(256 -> 64)"], "width": 64, "hidden": 256,
        "parameters": 33088, "parameter_bytes": 132352, "dtype": "float32"}, "synthetic model of width 64")
    big = namespace["synthetic_model_record"](1024, "bfloat16")
    expect((big["parameters"], big["parameter_bytes"]) == (8 * 1024 * 1024 + 5 * 1024, 2 * 8393728),
           f"synthetic model of width 1024: {big}")

    row = namespace["phase_row"]("warm_forward", 1, 0.25, 0.125, (512, 2097152), (1024, 2097152), (1536, 4194304))
    expect(list(row) == PHASE_ROW_KEYS, f"phase row keys {list(row)}")
    expect(list(row.values()) == ["warm_forward", 1, 0.25, 0.125, 512, 2097152, 1024, 2097152, 1536, 4194304],
           f"phase row values {row}")
    expect(list(namespace["PHASES"]) == ["model_load", "inputs", "cold_forward", "warmup", "warm_forward"],
           f"phases {namespace['PHASES']}")
    table = namespace["phase_table"]([row, namespace["phase_row"]("model_load", None, 1.5, 1.25, (0, 0),
                                                                  (132352, 2097152), (132352, 2097152))])
    lines = table.split("\n")
    expect(len(lines) == 3 and lines[0].split()[0] == "phase" and lines[1].split()[:2] == ["warm_forward", "1"]
           and lines[2].split()[:3] == ["model_load", "1.500000", "1.250000"], f"phase table:\n{table}")

    # A new file, complete, readable by the group, and no temporary left behind.
    record = {"schema_version": 1, "phases": [row]}
    previous = os.umask(0o022)
    try:
        namespace["write_new_file"](output, record)
    finally:
        os.umask(previous)
    expect(load(output) == record, "the written file does not hold the record")
    expect(stat.S_IMODE(os.stat(output).st_mode) == 0o644, f"mode {oct(os.stat(output).st_mode)} under umask 022")
    expect(os.listdir(work) == ["mesures-petit-essai.json"], f"the folder holds {os.listdir(work)}")
    with open(output, "rb") as stream:
        before = stream.read()
    refused(namespace, lambda: namespace["write_new_file"](output, {"other": True}), "output")
    with open(output, "rb") as stream:
        expect(stream.read() == before, "an existing file was overwritten")
    expect(os.listdir(work) == ["mesures-petit-essai.json"], f"the folder holds {os.listdir(work)}")
    refused(namespace, lambda: configure(**good), "output")


# ---------------------------------------------------------------- runner

def fresh_folder(path):
    expect(path, "--work is required for this check")
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def run_runner(*arguments):
    return subprocess.run([sys.executable, RUNNER, *arguments], capture_output=True, text=True)


def cuda_is_usable():
    probe = subprocess.run([sys.executable, "-c", "import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)"],
                           capture_output=True)
    return probe.returncode == 0


def expect_refusal(result, pattern, work, left):
    expect(result.returncode == 2, f"exit {result.returncode}, expected 2; stderr: {result.stderr}")
    expect(result.stdout == "", f"stdout is not empty: {result.stdout}")
    expect(re.fullmatch(r"run_notebook: [^\n]+\n", result.stderr), f"stderr is not one line: {result.stderr}")
    expect(re.search(pattern, result.stderr), f"stderr does not match /{pattern}/: {result.stderr}")
    expect(sorted(os.listdir(work)) == sorted(left), f"the folder holds {os.listdir(work)}, expected {left}")


def check_runner_refusals(options):
    work = fresh_folder(options.work)
    output = os.path.join(work, "m.json")
    notebook = ["--notebook", options.notebook]
    expect_refusal(run_runner(*notebook, "--output", output, "--device", "cpu"),
                   r"device: 'cpu' is not accepted.*never runs on the CPU", work, [])
    expect_refusal(run_runner(*notebook, "--output", output, "--batch", "0"), r"batch: 0 is too small", work, [])
    expect_refusal(run_runner(*notebook, "--output", output, "--width", "1.5"),
                   r"--width: '1\.5' is not a whole number", work, [])
    expect_refusal(run_runner(*notebook, "--output", output, "--dtype", "float64"), r"dtype: 'float64'", work, [])
    expect_refusal(run_runner(*notebook, "--output", output, "--repeat", "2"), r"unrecognized arguments: --repeat",
                   work, [])
    expect_refusal(run_runner(*notebook), r"required: --output", work, [])
    with open(output, "w", encoding="utf-8") as stream:
        stream.write("kept\n")
    expect_refusal(run_runner(*notebook, "--output", output), r"already exists", work, ["m.json"])
    with open(output, encoding="utf-8") as stream:
        expect(stream.read() == "kept\n", "an existing file was changed")


def check_runner_without_cuda(options):
    if cuda_is_usable():
        print("PyTorch sees a CUDA device here: the refusal cannot be shown")
        return SKIP
    work = fresh_folder(options.work)
    expect_refusal(run_runner("--notebook", options.notebook, "--output", os.path.join(work, "m.json")),
                   r"PyTorch cannot be imported|cuda:0 is not reachable", work, [])
    return 0


def check_runner_small_trial(options):
    if not cuda_is_usable():
        print("no PyTorch with a usable CUDA device here")
        return SKIP
    work = fresh_folder(options.work)
    output = os.path.join(work, "mesures-petit-essai.json")
    result = run_runner("--notebook", options.notebook, "--output", output, "--device", "cuda:0", "--batch", "1",
                        "--context", "16", "--width", "64", "--dtype", "float32", "--warmup", "1", "--repeats", "2")
    expect(result.returncode == 0, f"exit {result.returncode}: {result.stderr}")
    record = load(output)
    expect(list(record) == ["schema_version", "environment", "configuration", "synthetic_model", "phases"],
           f"top-level keys {list(record)}")
    expect(record["configuration"]["output"] == "mesures-petit-essai.json", "the output keeps a folder")
    phases = record["phases"]
    expect([(p["phase"], p["repeat"]) for p in phases] == [("model_load", None), ("inputs", None),
                                                           ("cold_forward", None), ("warmup", None),
                                                           ("warm_forward", 0), ("warm_forward", 1)],
           f"phases {[(p['phase'], p['repeat']) for p in phases]}")
    for p in phases:
        expect(list(p) == PHASE_ROW_KEYS, f"row keys {list(p)}")
        expect(p["seconds"] > 0 and p["gpu_seconds"] >= 0, f"times {p}")
        for moment in ("baseline", "end", "peak"):
            expect(p[f"{moment}_allocated_bytes"] <= p[f"{moment}_reserved_bytes"], f"{moment} allocated > reserved")
        expect(p["peak_allocated_bytes"] >= max(p["baseline_allocated_bytes"], p["end_allocated_bytes"]), f"peak {p}")
    expect(phases[0]["end_allocated_bytes"] - phases[0]["baseline_allocated_bytes"]
           >= record["synthetic_model"]["parameter_bytes"], "model_load allocates less than the weights")
    print(result.stdout)
    return 0


CHECKS = {
    "structure": check_structure,
    "imports": check_imports,
    "estimate_matches_program": check_estimate_matches,
    "estimate_rejects_like_program": check_estimate_rejects,
    "protocol": check_protocol,
    "runner_refusals": check_runner_refusals,
    "runner_without_cuda": check_runner_without_cuda,
    "runner_small_trial": check_runner_small_trial,
}


def main(argv):
    parser = argparse.ArgumentParser(allow_abbrev=False)
    parser.add_argument("check", choices=sorted(CHECKS))
    parser.add_argument("--notebook", required=True)
    parser.add_argument("--program")
    parser.add_argument("--version")
    parser.add_argument("--work")
    options = parser.parse_args(argv)
    try:
        status = CHECKS[options.check](options) or 0
    except CheckFailed as failure:
        print(f"FAILED {options.check}: {failure}", file=sys.stderr)
        return 1
    if status == 0:
        print(f"passed {options.check}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
