#!/usr/bin/env python3
"""skipped_tests.py JUNIT [ALLOWED...]: prints, space-separated, the tests
that ctest's JUnit report (ctest --output-junit) shows as skipped, except
those named in ALLOWED (the GPU-labelled tests) and those whose output says
they were left out by ITERAGPU_LEAVE_OUT. Exit 0 with those names (none:
an empty line), 2 when the report cannot be read."""
import sys
import xml.etree.ElementTree as ElementTree


def main():
    if len(sys.argv) < 2:
        print("usage: skipped_tests.py JUNIT [ALLOWED...]", file=sys.stderr)
        return 2
    allowed = set(sys.argv[2:])
    try:
        root = ElementTree.parse(sys.argv[1]).getroot()
    except (OSError, ElementTree.ParseError) as e:
        print(f"skipped_tests.py: {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    bad = []
    for case in root.iter("testcase"):
        skipped = case.get("status") in ("skipped", "notrun", "disabled") or case.find("skipped") is not None
        output = "".join(e.text or "" for e in case.iter("system-out"))
        if skipped and case.get("name") not in allowed and "left out by ITERAGPU_LEAVE_OUT" not in output:
            bad.append(case.get("name"))
    print(" ".join(bad))
    return 0


if __name__ == "__main__":
    sys.exit(main())
