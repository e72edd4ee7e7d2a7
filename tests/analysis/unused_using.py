#!/usr/bin/env python3
"""tests/analysis/unused_using.py FILE...: the using-declarations
(`using ns::name;`) and namespace aliases (`namespace x = ns;`) of each
FILE that the rest of that file never names. It stands in for clang-tidy's
misc-unused-using-decls and misc-unused-alias-decls on the per-header tests
that run.sh analyses together (tests/analysis/together.py): those checks
look at the main file only, and running clang-tidy once more on each test
for them alone cost a third of the analysis. A name counts as used wherever
it appears as a word outside comments, so it misses a use only a comment
makes. Prints `FILE:LINE:1: error: ... [check]` per finding, exits 1 on any."""
import re
import sys

USING = re.compile(r"^\s*using\s+(?!namespace\b)([A-Za-z_][\w:]*::)([A-Za-z_]\w*)\s*;")
ALIAS = re.compile(r"^\s*namespace\s+([A-Za-z_]\w*)\s*=\s*[\w:]+\s*;")


def without_comments(text):
    """The text with // and /* */ comments blanked, string literals kept."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r'//[^\n]*', "", text)


def findings(path):
    source = open(path, encoding="utf-8").read()
    lines = without_comments(source).split("\n")
    found = []
    for number, line in enumerate(lines, 1):
        for pattern, check, what in ((USING, "misc-unused-using-decls", "using decl"),
                                     (ALIAS, "misc-unused-alias-decls", "namespace alias")):
            m = pattern.match(line)
            if not m:
                continue
            name = m.group(m.lastindex)
            rest = "\n".join(lines[:number - 1] + lines[number:])
            if not re.search(r"\b%s\b" % re.escape(name), rest):
                found.append("%s:%d:1: error: %s '%s' is unused [%s]" % (path, number, what, name, check))
    return found


def main(paths):
    all_found = [f for p in paths for f in findings(p)]
    for f in all_found:
        print(f)
    return 1 if all_found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
