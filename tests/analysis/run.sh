#!/usr/bin/env bash
# tests/analysis/run.sh BUILD_DIR: clang-tidy 14 and cppcheck 2.10 on every
# header and source that needs no LibTorch, read from the compile database
# of BUILD_DIR, a tree configured with clang 14 and ITERAGPU_WITH_TORCH=OFF
# (the `clang` preset; clang cannot parse the LibTorch 1.13 headers in C++20
# mode, and in such a tree nothing includes them). The headers are analysed
# through the generated TU tests/headers/all_headers.cpp, which includes
# every torch-free header, with the strict root .clang-tidy; sources get the
# .clang-tidy nearest to them. Before the real run, a self-test plants a
# finding in a scratch copy of a header and requires both tools to catch
# it. Exits non-zero on any finding. Prints the counts it covered.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:?usage: tests/analysis/run.sh BUILD_DIR}
build=$(cd "$build" && pwd)
jobs=${ITERAGPU_ANALYSIS_JOBS:-$(nproc)}
tidy=${CLANG_TIDY:-clang-tidy-14}
cppcheck=${CPPCHECK:-cppcheck}
cxx=${CLANG_CXX:-clang++-14}
db="$build/compile_commands.json"
work="$build/analysis"
[ -f "$db" ] || { echo "analysis: $db missing (configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"

# The TUs to analyse: every entry of the compile database except the
# compile-fail halves (they must not compile) and the per-header TUs (the
# same headers are analysed once through all_headers.cpp).
python3 - "$db" "$root" > "$work/files" <<'PY' || exit 1
import json, os, sys
db, root = sys.argv[1], sys.argv[2]
seen = []
for entry in json.load(open(db)):
    path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    rel = os.path.relpath(path, root)
    # The umbrella checks include the same headers again: analysed once,
    # through all_headers.cpp.
    # The compiled-once libraries' TUs hold nothing but src_*.hpp, whose
    # headers all_headers.cpp analyses.
    compiled_once = os.path.basename(path) in ("iteragpu_compiled.cpp", "iteragpu_json_compiled.cpp")
    # The ODR test's two TUs include every header, as all_headers.cpp does,
    # and src*_test.cpp every body: the same code again, plus a few lines.
    again = os.path.basename(path) in ("odr_first.cpp", "odr_second.cpp", "src_test.cpp", "src_core_test.cpp",
                                       "src_json_test.cpp")
    if path.endswith(".fail.cpp") or "/self_contained/" in path or "/umbrellas/" in path or compiled_once or again \
            or path in seen:
        continue
    seen.append(path)
for path in sorted(seen):
    print(path)
PY
mapfile -t files < "$work/files"

# The torch-free headers, and those the analysed TUs actually include: the
# run fails when a header is missing from them.
# The bodies in impl/*.ipp count as headers; src.hpp (a separately compiled
# program's TUs of bodies, with src_core.hpp and src_json.hpp) include
# nothing but other headers.
find "$root/include/iteragpu" \( -name '*.hpp' -o -name '*.ipp' \) ! -path '*/iteragpu/torch/*' \
  ! -path "$root/include/iteragpu/src.hpp" ! -path "$root/include/iteragpu/src_core.hpp" \
  ! -path "$root/include/iteragpu/src_json.hpp" | sort > "$work/headers.expected"
python3 - "$root/tests/analysis" "$db" "$cxx" "$jobs" "${files[@]}" > "$work/headers.reached" <<'PY' || exit 1
import concurrent.futures, json, os, subprocess, sys
sys.path.insert(0, sys.argv[1])
from compile_db import bare_command
db, cxx, jobs, files = sys.argv[2], sys.argv[3], int(sys.argv[4]), set(sys.argv[5:])
commands = {}
for e in json.load(open(db)):
    path = os.path.normpath(os.path.join(e["directory"], e["file"]))
    if path in files and path not in commands:
        commands[path] = e
def deps(e):
    out = [cxx] + bare_command(e)[1:]
    r = subprocess.run(out + ["-MM", "-MF", "-"], cwd=e["directory"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("analysis: cannot list the includes of " + e["file"] + "\n" + r.stderr)
    return r.stdout.replace("\\\n", " ").split()
with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
    reached = set()
    for d in pool.map(deps, commands.values()):
        reached.update(os.path.normpath(p) for p in d if p.endswith((".hpp", ".ipp")) and "/include/iteragpu/" in p)
for p in sorted(reached):
    print(p)
PY
missing=$(comm -23 "$work/headers.expected" "$work/headers.reached")
if [ -n "$missing" ]; then
  echo "analysis: torch-free headers that no analysed TU includes:" >&2
  echo "$missing" >&2
  exit 1
fi
n_headers=$(wc -l < "$work/headers.expected")
n_sources=${#files[@]}

# clang-tidy on one job of $work/tidy.jobs: `file TU`, a TU of the
# compile database; `together TU CONFIG FILTER`, per-header tests analysed
# together (tests/analysis/together.py), with the configuration and header
# filter of the tests themselves (their main-file checks are
# tests/analysis/unused_using.py's, below). Generated TUs
# under the build tree get the root configuration, the others the
# .clang-tidy nearest to them.
tidy_one() {
  local kind file extra=() p="$build" started=$SECONDS rc=0
  # The static analyzer in its shallow mode everywhere (fewer paths and less
  # inlining per function): all_headers.cpp, the longest TU, in 131 s instead
  # of 350 s, mesure_memoire.cpp in 31 s instead of 47 s; a planted null
  # dereference is still caught (the self-test below runs the same mode).
  local shallow=(--extra-arg=-Xclang --extra-arg=-analyzer-config --extra-arg=-Xclang --extra-arg=mode=shallow)
  read -r kind file rest <<< "$1"
  # The static analyzer skips functions defined in headers unless asked:
  # all_headers.cpp is nothing but headers. Every other TU is analysed with
  # the library's bodies compiled once (declarations only, as the asan
  # preset builds them): the bodies are analysed once, through
  # all_headers.cpp, and each program's or test's own code costs its own
  # time only (about half of it before).
  case $kind:$file in
    together:*)
      read -r config filter <<< "$rest"
      p="$work/together"
      extra=(--config-file="$config" --header-filter="$filter" --extra-arg=-DITERAGPU_SEPARATE_COMPILATION) ;;
    file:"$build"/*)
      extra=(--config-file="$root/.clang-tidy" --extra-arg=-Xclang --extra-arg=-analyzer-opt-analyze-headers) ;;
    *) extra=(--extra-arg=-DITERAGPU_SEPARATE_COMPILATION) ;;
  esac
  extra+=("${shallow[@]}")
  # A TU that takes 20 minutes is stuck, not slow (the longest takes about 3).
  timeout -k 10 1200 "$tidy" -p "$p" --quiet "${extra[@]}" "$file" 2>/dev/null || rc=$?
  [ "$rc" -eq 124 ] && echo "clang-tidy: $file: stopped after 1200 s"
  echo "$((SECONDS - started)) s  $kind ${file#"$root"/}" >> "$work/tidy.times"
  return $rc
}
export -f tidy_one
export tidy build root work

# Self-test: a scratch copy of a header with a null dereference planted in
# it must fail both tools, and the unplanted copy must pass them.
self_test() {
  local scratch="$work/self-test" header=iteragpu/checked.hpp planted_line
  mkdir -p "$scratch/include/iteragpu/detail"
  cp "$root/.clang-tidy" "$scratch/"
  cp "$root/include/$header" "$scratch/include/$header"
  printf '#include <%s>\nint main() { return 0; }\n' "$header" > "$scratch/tu.cpp"
  python3 -c 'import json,sys; d=sys.argv[1]; print(json.dumps([{"directory": d, "file": d + "/tu.cpp",
    "command": sys.argv[2] + " -std=c++20 -I" + d + "/include -c " + d + "/tu.cpp -o /dev/null"}]))' \
    "$scratch" "$cxx" > "$scratch/compile_commands.json"
  local tidy_args=(-p "$scratch" --quiet --config-file="$root/.clang-tidy" --extra-arg=-Xclang
    --extra-arg=-analyzer-opt-analyze-headers --extra-arg=-Xclang --extra-arg=-analyzer-config --extra-arg=-Xclang
    --extra-arg=mode=shallow "$scratch/tu.cpp")
  local cppcheck_args=(--std=c++20 --language=c++ --enable=warning,style,performance,portability --error-exitcode=1
    --quiet --suppressions-list="$root/tests/analysis/cppcheck-suppressions.txt" "-I$scratch/include" "$scratch/tu.cpp"
    --template='{file}:{line}:{column}: {severity} [{id}] {message}')
  if ! "$tidy" "${tidy_args[@]}" > "$scratch/clean.tidy" 2>&1 || ! "$cppcheck" "${cppcheck_args[@]}" > "$scratch/clean.cppcheck" 2>&1; then
    echo "analysis self-test: the unplanted copy of $header fails:" >&2
    cat "$scratch/clean.tidy" "$scratch/clean.cppcheck" >&2
    return 1
  fi
  planted_line=$(($(grep -n '^}  // namespace iteragpu$' "$scratch/include/$header" | cut -d: -f1) + 0))
  sed -i "${planted_line}i inline int planted_finding(bool read) { int* p = nullptr; if (read) { return *p; } return 0; }" \
    "$scratch/include/$header"
  local where="$scratch/include/$header:$planted_line:"
  if "$tidy" "${tidy_args[@]}" > "$scratch/planted.tidy" 2>&1 || ! grep -q "^$where.*clang-analyzer-core.NullDereference" "$scratch/planted.tidy"; then
    echo "analysis self-test: clang-tidy missed the null dereference planted at $where" >&2
    cat "$scratch/planted.tidy" >&2
    return 1
  fi
  if "$cppcheck" "${cppcheck_args[@]}" > "$scratch/planted.cppcheck" 2>&1 || ! grep -q "^$where.*\[nullPointer\]" "$scratch/planted.cppcheck"; then
    echo "analysis self-test: cppcheck missed the null dereference planted at $where" >&2
    cat "$scratch/planted.cppcheck" >&2
    return 1
  fi
  # The main-file checks' script: an unused using-declaration and alias
  # planted in a scratch copy of a test are found, the test itself is clean.
  local test_file="$root/tests/unit/checked_test.cpp"
  sed '0,/^BOOST_AUTO_TEST_SUITE/s//using iteragpu::planted_name;\nnamespace planted_alias = iteragpu;\n&/' "$test_file" \
    > "$scratch/planted_test.cpp"
  if ! python3 "$root/tests/analysis/unused_using.py" "$test_file" > /dev/null ||
      [ "$(python3 "$root/tests/analysis/unused_using.py" "$scratch/planted_test.cpp" | grep -c -E 'planted_(name|alias)')" != 2 ]; then
    echo "analysis self-test: unused_using.py missed the using-declaration or alias planted in a copy of $test_file" >&2
    return 1
  fi
  echo "analysis self-test: the finding planted in a scratch copy of $header was caught by clang-tidy and cppcheck," \
    "the unused using-declaration and alias planted in a test by unused_using.py"
}

status=0
start=$SECONDS
self_test || status=1

# clang-tidy, in parallel; findings are gathered and shown once each.
checks_root=$(cd "$root" && "$tidy" --list-checks | grep -c '^    ')
checks_tests=$(cd "$root/tests" && "$tidy" --list-checks | grep -c '^    ')
checks_examples=$(cd "$root/examples" && "$tidy" --list-checks | grep -c '^    ')
tidy_start=$SECONDS
# The per-header tests that share one compile command are analysed
# together, a few generated TUs instead of one each; each also runs alone
# under the checks that report in the main file only.
python3 "$root/tests/analysis/together.py" "$db" "$root" "$work/together" "$jobs" "$cxx" "$tidy" "${files[@]}" \
  > "$work/together.jobs" || exit 1
n_together=$(grep -c '^together ' "$work/together.jobs")
n_grouped=$(grep -c '^main_file ' "$work/together.jobs")
# The longest jobs first (a generated TU, then a TU of its own, then a
# test under the main-file checks), so that the last ones to finish are short.
grouped=$(sed -n 's/^main_file \([^ ]*\) .*/\1/p' "$work/together.jobs")
{
  grep '^together ' "$work/together.jobs"
  for file in "${files[@]}"; do
    grep -qxF "$file" <<< "$grouped" || echo "file $file"
  done
} > "$work/tidy.jobs"
tr '\n' '\0' < "$work/tidy.jobs" | xargs -0 -P "$jobs" -I{} bash -c 'tidy_one "$1" > "$2/$(echo "$1" | md5sum | cut -c1-16).tidy" || echo "$1" >> "$2/tidy.failed"' _ {} "$work"
# The checks that look at the main file only, on each grouped test: a
# script of their rule (tests/analysis/unused_using.py) instead of one more
# clang-tidy run per test (about 3 s each, a third of the analysis).
mapfile -t grouped_files <<< "$grouped"
if [ -n "$grouped" ] && ! python3 "$root/tests/analysis/unused_using.py" "${grouped_files[@]}" > "$work/main_file.tidy"; then
  echo "main-file checks (tests/analysis/unused_using.py)" >> "$work/tidy.failed"
fi
grep -h -E '^[^ ].*: (warning|error): .*\[[a-z0-9.,-]+\]$' "$work"/*.tidy 2>/dev/null | sort -u > "$work/tidy.findings"
n_tidy=$(wc -l < "$work/tidy.findings")
if [ -s "$work/tidy.failed" ]; then
  echo "clang-tidy: findings or errors in these TUs:"
  sed 's/^/  /' "$work/tidy.failed"
  cat "$work/tidy.findings"
  [ "$n_tidy" -eq 0 ] && cat "$work"/*.tidy
  status=1
fi
echo "clang-tidy: slowest TUs:"
sort -rn "$work/tidy.times" | head -5 | sed 's/^/  /'
echo "clang-tidy $("$tidy" --version | grep -o 'version [0-9.]*'): ${n_headers} headers (through all_headers.cpp) and ${n_sources} TUs analysed" \
     "(${n_grouped} per-header tests in ${n_together} generated TUs, their main-file checks by unused_using.py)," \
     "${checks_root} checks enabled (${checks_tests} in tests/, ${checks_examples} in examples/), ${n_tidy} findings, $((SECONDS - tidy_start)) s"

# cppcheck on the same TUs.
cppcheck_start=$SECONDS
printf '%s\n' "${files[@]}" > "$work/cppcheck.files"
# cppcheck 2.10's template simplifier has crashed on this code before (a
# condition `a < x : a > y` read as a template's brackets): a run that does
# not end in 15 minutes (it takes about 2) fails instead of holding the suite.
if ! timeout -k 10 900 "$cppcheck" --std=c++20 --language=c++ --enable=warning,style,performance,portability --library=boost \
    --inline-suppr --error-exitcode=1 --quiet -j "$jobs" --project="$db" \
    --suppressions-list="$root/tests/analysis/cppcheck-suppressions.txt" \
    $(sed 's/^/--file-filter=/' "$work/cppcheck.files") \
    --template='{file}:{line}:{column}: {severity} [{id}] {message}' > "$work/cppcheck.out" 2>&1; then
  cat "$work/cppcheck.out"
  grep -q . "$work/cppcheck.out" || echo "cppcheck: no finding printed: it crashed or was stopped after 900 s"
  status=1
fi
n_cppcheck=$(grep -c -E '^[^ ].*: (error|warning|style|performance|portability|information) \[' "$work/cppcheck.out")
echo "cppcheck $("$cppcheck" --version | grep -o '[0-9.]*$'): the same ${n_sources} TUs and ${n_headers} headers," \
     "checks warning, style, performance, portability; ${n_cppcheck} findings, $((SECONDS - cppcheck_start)) s"
echo "analysis: $((SECONDS - start)) s in all"
exit $status
