#!/usr/bin/python3
"""expect_invalid.py VALIDATE SCHEMA... -- FILE...: checks that validate.py
refuses every FILE against every SCHEMA: exit 1 with a violation of that
file printed, or exit 2 because the file is not JSON. Any other outcome (the
file is valid, or validate.py failed in some other way) is reported and
makes this exit 1."""
import subprocess
import sys


def main():
    if "--" not in sys.argv[2:]:
        print(__doc__, file=sys.stderr)
        return 2
    split = sys.argv.index("--", 2)
    validate, schemas, files = sys.argv[1], sys.argv[2:split], sys.argv[split + 1:]
    if not schemas or not files:
        print(__doc__, file=sys.stderr)
        return 2
    failed = False
    for schema in schemas:
        for path in files:
            p = subprocess.run([sys.executable, validate, schema, path], capture_output=True, text=True)
            violation = p.returncode == 1 and any(line.startswith(path + ": ") for line in p.stdout.splitlines())
            unreadable = p.returncode == 2 and p.stderr.startswith("validate.py: " + path + ": ")
            if violation or unreadable:
                print(f"refused, as expected: {path} against {schema}")
            else:
                print(f"NOT refused as expected: {path} against {schema} (exit {p.returncode})\n{p.stdout}{p.stderr}")
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
