# Sourced by scripts/run and scripts/test: installs the Debian packages that
# are missing and configures/builds a preset. Everything it prints goes to
# stderr, so that a program's stdout stays clean for pipes.

iteragpu_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

iteragpu_say() { printf 'iteragpu: %s\n' "$*" >&2; }

# The packages the build needs. Boost is the versioned 1.81 set: the
# unversioned libboost-*-dev packages conflict with it and are never used.
iteragpu_build_packages=(
  g++ cmake ninja-build
  libboost1.81-dev libboost-program-options1.81-dev libboost-json1.81-dev libboost-test1.81-dev
  libtorch-dev
)

# The test tools, installed by scripts/test only: clang 14 with its
# sanitizer and libFuzzer runtimes (libclang-rt-14-dev), clang-tidy 14,
# cppcheck, and python3 for the analysis script's compile-database reading.
iteragpu_test_packages=(
  clang-14 clang-tidy-14 libclang-rt-14-dev cppcheck python3
)

# iteragpu_ensure_packages PACKAGE...: installs those not installed yet.
iteragpu_ensure_packages() {
  local missing=() p
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
      missing+=("$p")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { iteragpu_say "missing packages (${missing[*]}) and neither root nor sudo"; return 1; }
    sudo=(sudo)
  fi
  iteragpu_say "installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq >&2 || return 1
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || return 1
}

# iteragpu_build PRESET: configures once, then builds incrementally.
iteragpu_build() {
  local preset=$1
  (
    cd "$iteragpu_root" || exit 1
    if [ ! -f "build/$preset/build.ninja" ]; then
      iteragpu_say "configuring preset $preset"
      cmake --preset "$preset" >&2 || exit 1
    fi
    cmake --build --preset "$preset" >&2
  )
}
