#!/usr/bin/env python3
"""Runs the code cells of examples/mesure-memoire.ipynb from top to bottom, in one
namespace and without a Jupyter server, with the measurement parameters taken from
the command line. Python standard library only; the measurement cells need PyTorch.

    python3 tests/notebook/run_notebook.py --output mesures-petit-essai.json \\
        --device cuda:0 --batch 1 --context 16 --width 64 --dtype float32 --warmup 1 --repeats 2

Exit codes are the program's: 0 success, 1 internal error, 2 bad input / no PyTorch /
no reachable GPU (one line on stderr, nothing on stdout, no file), 3 a phase failed.
What the cells print is held back and shown only when every cell succeeded.
"""
import argparse
import contextlib
import io
import json
import os
import re
import sys
import traceback

DEFAULT_NOTEBOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                                "examples", "mesure-memoire.ipynb")

# Flag -> the name the notebook's parameters cell gives that value.
PARAMETERS = {
    "device": "DEVICE",
    "batch": "BATCH",
    "context": "CONTEXT",
    "width": "WIDTH",
    "dtype": "DTYPE",
    "warmup": "WARMUP",
    "repeats": "REPEATS",
    "output": "OUTPUT",
}

EXIT_INTERNAL, EXIT_USAGE, EXIT_MEASUREMENT = 1, 2, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write(f"run_notebook: {message} (see --help)\n")
        sys.exit(EXIT_USAGE)


def _whole_number(text):
    # Digits only, like the program: int() would also take "+1", " 1" and other scripts' digits.
    if not re.fullmatch(r"[0-9]+", text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number in digits")
    return int(text)


def _arguments(argv):
    parser = _Parser(prog="run_notebook.py", allow_abbrev=False,
                     description="Run the notebook's code cells in order, as a script.")
    parser.add_argument("--notebook", default=DEFAULT_NOTEBOOK, help="the notebook (default: %(default)s)")
    parser.add_argument("--output", required=True, help="the new JSON file to write (never overwritten)")
    parser.add_argument("--device", help="an explicit CUDA device such as cuda:0")
    for name in ("batch", "context", "width", "warmup", "repeats"):
        parser.add_argument(f"--{name}", type=_whole_number, help="a whole number in digits")
    parser.add_argument("--dtype", help="float32, float16 or bfloat16")
    return parser.parse_args(argv)


def _code_cells(path):
    with open(path, encoding="utf-8") as stream:
        notebook = json.load(stream)
    code = [(index, cell) for index, cell in enumerate(notebook["cells"]) if cell["cell_type"] == "code"]
    if not code or "parameters" not in code[0][1].get("metadata", {}).get("tags", []):
        raise ValueError("the first code cell is not tagged 'parameters'")
    return [(f"<cell {index} {cell.get('id', '')}>",
             cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])) for index, cell in code]


def main(argv):
    options = _arguments(argv)
    try:
        cells = _code_cells(options.notebook)
    except (OSError, ValueError, KeyError) as error:
        sys.stderr.write(f"run_notebook: --notebook: '{options.notebook}' is not a readable notebook ({error})\n")
        return EXIT_USAGE
    namespace = {"__name__": "__notebook__"}
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            for number, (name, source) in enumerate(cells):
                exec(compile(source, name, "exec"), namespace)
                if number == 0:
                    for flag, variable in PARAMETERS.items():
                        if variable not in namespace:
                            raise RuntimeError(f"the parameters cell defines no {variable}")
                        value = getattr(options, flag)
                        if value is not None:
                            namespace[variable] = value
    except Exception as error:
        refused = namespace.get("MeasurementRefused")
        failed = namespace.get("MeasurementFailed")
        if refused is not None and isinstance(error, refused):
            sys.stderr.write(f"run_notebook: {error}\n")
            return EXIT_USAGE
        if failed is not None and isinstance(error, failed):
            sys.stderr.write(f"run_notebook: {error}\n")
            return EXIT_MEASUREMENT
        sys.stderr.write(printed.getvalue())
        traceback.print_exc()
        return EXIT_INTERNAL
    sys.stdout.write(printed.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
