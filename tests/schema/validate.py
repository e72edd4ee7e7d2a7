#!/usr/bin/python3
"""validate.py SCHEMA FILE...: checks each JSON file against a JSON Schema
(draft 2020-12) of data/schema/, with Debian's python3-jsonschema. A FILE of
'-' is read from standard input. Exits 0 when every file is valid; prints
each violation (file, JSON path, message) and exits 1 otherwise; exits 2
when a file or the schema cannot be read."""
import glob
import json
import os
import sys
import warnings

try:
    import jsonschema
except ImportError:
    sys.exit("validate.py: the jsonschema module is missing (Debian: apt-get install python3-jsonschema)")


def load(path):
    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"validate.py: {path}: {e}", file=sys.stderr)
        sys.exit(2)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    schema = load(sys.argv[1])
    jsonschema.Draft202012Validator.check_schema(schema)
    # The schemas refer to each other by $id: every schema of the folder is
    # known locally, so nothing is ever fetched.
    store = {}
    for path in glob.glob(os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), "*.schema.json")):
        other = load(path)
        store[other["$id"]] = other
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
    validator = jsonschema.Draft202012Validator(schema, resolver=resolver,
                                                format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    failed = False
    for path in sys.argv[2:]:
        for error in sorted(validator.iter_errors(load(path)), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in error.absolute_path) or "(top)"
            print(f"{path}: {where}: {error.message}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
