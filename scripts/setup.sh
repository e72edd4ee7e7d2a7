# shellcheck shell=bash
# Sourced by scripts/run and scripts/test. It decides, then acts:
#   - which LibTorch to build against (iteragpu_select_libtorch): the one
#     inside python3's PyTorch when that is built for a GPU (preset `gpu`),
#     else the system's (preset `default`); ITERAGPU_LIBTORCH overrides;
#   - what this machine lacks for the build or the tests
#     (iteragpu_missing_needs) and which packages of its distribution provide
#     it (iteragpu_packages); a need already met installs nothing;
#   - where Boost comes from: the system, or Debian's packages unpacked from
#     .debs/ on a machine without a package registry.
# ITERAGPU_DRY_RUN=1 prints what would be done and stops before installing,
# configuring, building or running anything. Everything printed goes to
# stderr, so that a program's stdout stays clean for pipes.

iteragpu_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

iteragpu_say() { printf 'iteragpu: %s\n' "$*" >&2; }
iteragpu_dry_run() { [ "${ITERAGPU_DRY_RUN:-0}" = 1 ]; }

# iteragpu_version_at_least HAVE WANT: true when version HAVE >= WANT.
iteragpu_version_at_least() {
  [ -n "$1" ] && [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

# --- The distribution -------------------------------------------------------

# iteragpu_os_detect: sets iteragpu_os (debian-12, ubuntu-22.04, ubuntu-24.04
# or other) and iteragpu_os_name from ITERAGPU_OS_RELEASE, /etc/os-release by
# default. The file is parsed, never sourced.
iteragpu_os_detect() {
  local file=${ITERAGPU_OS_RELEASE:-/etc/os-release} key value id="" version="" pretty="this system"
  if [ ! -r "$file" ]; then
    pretty="this system ($file unreadable)"
  else
    while IFS='=' read -r key value; do
      value=${value#[\"\']}
      value=${value%[\"\']}
      case "$key" in
        ID) id=$value ;;
        VERSION_ID) version=$value ;;
        PRETTY_NAME) pretty=$value ;;
      esac
    done <"$file"
  fi
  case "$id:$version" in
    debian:12) iteragpu_os=debian-12 iteragpu_os_name="Debian 12" ;;
    ubuntu:22.04) iteragpu_os=ubuntu-22.04 iteragpu_os_name="Ubuntu 22.04" ;;
    ubuntu:24.04) iteragpu_os=ubuntu-24.04 iteragpu_os_name="Ubuntu 24.04" ;;
    *)
      iteragpu_os=other
      iteragpu_os_name=$pretty
      ;;
  esac
}

# --- What the build and the tests need ---------------------------------------

# Needs are named: cxx (g++ >= 12), cmake (>= 3.25), ninja, boost (>= 1.81
# with json, program_options, unit_test_framework), libtorch (the system's,
# optional), and for the tests clang (clang++-14), clang-rt (its libFuzzer
# runtime), clang-tidy (14), clang-format (19, which checks the layout of the
# C++ sources), cppcheck, python3, jsonschema (the system
# python3's module, which validates the JSON outputs against data/schema/),
# slurm (slurmctld, slurmd, sbatch and munged, for the test that runs a sweep
# as a job array on a single-node cluster), rsvg (rsvg-convert, which
# renders the sweep's plot), chromium (headless, which renders its page),
# fonts (DejaVu, so that both render text) and doxygen (>= 1.9.4, which
# builds the API reference with warnings as errors).
iteragpu_need_text() {
  case "$1" in
    cxx) printf 'g++ >= 12' ;;
    cmake) printf 'cmake >= 3.25' ;;
    boost) printf 'Boost >= 1.81 (json, program_options, unit_test_framework)' ;;
    clang) printf 'clang++-14' ;;
    clang-rt) printf 'the libFuzzer runtime of clang 14' ;;
    clang-tidy) printf 'clang-tidy-14' ;;
    clang-format) printf 'clang-format-19' ;;
    jsonschema) printf "python3's jsonschema module" ;;
    slurm) printf 'Slurm (slurmctld, slurmd, sbatch) and munge' ;;
    rsvg) printf 'rsvg-convert' ;;
    fonts) printf 'the DejaVu fonts' ;;
    doxygen) printf 'Doxygen >= 1.9.4' ;;
    *) printf '%s' "$1" ;;
  esac
}

# iteragpu_have_jsonschema: the system python3 (tests/schema/validate.py
# runs /usr/bin/python3 where it exists) can import jsonschema.
iteragpu_have_jsonschema() {
  local python=/usr/bin/python3
  [ -x "$python" ] || python=$(command -v python3) || return 1
  "$python" -c 'import jsonschema' >/dev/null 2>&1
}

# iteragpu_have_doxygen: a doxygen on PATH that is 1.9.4 or newer (the
# version docs/CMakeLists.txt asks for).
iteragpu_have_doxygen() {
  command -v doxygen >/dev/null 2>&1 &&
    iteragpu_version_at_least "$(doxygen --version 2>/dev/null | awk 'NR == 1 { print $1 }')" 1.9.4
}

# iteragpu_find_cxx: prints the first of g++, g++-14, g++-13, g++-12 on PATH
# that is version 12 or newer. A CXX set by the user is taken as it is.
iteragpu_find_cxx() {
  if [ -n "${CXX:-}" ]; then
    printf '%s\n' "$CXX"
    return 0
  fi
  local candidate
  for candidate in g++ g++-14 g++-13 g++-12; do
    command -v "$candidate" >/dev/null 2>&1 || continue
    if iteragpu_version_at_least "$("$candidate" -dumpfullversion 2>/dev/null)" 12; then
      printf '%s\n' "$candidate"
      return 0
    fi
  done
  return 1
}

iteragpu_have_cmake() {
  command -v cmake >/dev/null 2>&1 &&
    iteragpu_version_at_least "$(cmake --version 2>/dev/null | sed -n '1s/^cmake version //p')" 3.25
}

# The places looked in for CMake package files, in the order CMake itself
# uses for these: CMAKE_PREFIX_PATH from the environment, then /usr/local, /usr.
iteragpu_prefixes() {
  local entry
  local IFS=:
  for entry in ${CMAKE_PREFIX_PATH:-}; do
    [ -n "$entry" ] && printf '%s\n' "$entry"
  done
  printf '%s\n' /usr/local /usr
}

# iteragpu_find_boost: prints the CMake folder of the first Boost >= 1.81
# that has the json, program_options and unit_test_framework components.
iteragpu_find_boost() {
  local prefix dir version
  while read -r prefix; do
    while read -r dir; do
      [ -f "$dir/BoostConfig.cmake" ] || continue
      version=${dir##*/Boost-}
      iteragpu_version_at_least "$version" 1.81 || continue
      [ -d "${dir%/*}/boost_json-$version" ] && [ -d "${dir%/*}/boost_program_options-$version" ] &&
        [ -d "${dir%/*}/boost_unit_test_framework-$version" ] || continue
      printf '%s\n' "$dir"
      return 0
    done < <(printf '%s\n' "$prefix"/lib/cmake/Boost-* "$prefix"/lib/*/cmake/Boost-* "$prefix"/lib64/cmake/Boost-* |
      sort -rV)
  done < <(iteragpu_prefixes)
  return 1
}

# iteragpu_torch_config_in PREFIX: prints the folder holding TorchConfig.cmake
# in a CMake prefix (python3's torch.utils.cmake_prefix_path, an unpacked
# LibTorch, /usr).
iteragpu_torch_config_in() {
  local dir
  for dir in "$1/Torch" "$1/share/cmake/Torch" "$1/lib/cmake/Torch" "$1"/lib/*/cmake/Torch; do
    if [ -f "$dir/TorchConfig.cmake" ]; then
      printf '%s\n' "$dir"
      return 0
    fi
  done
  return 1
}

iteragpu_find_system_torch() {
  local prefix
  while read -r prefix; do
    iteragpu_torch_config_in "$prefix" && return 0
  done < <(iteragpu_prefixes)
  return 1
}

# iteragpu_describe_torch CONFIG_DIR: "LibTorch 1.13.0 (package libtorch-dev),
# CPU only" for a packaged LibTorch, "LibTorch 2.4.0 at DIR, CUDA" for
# another. The version is LibTorch's own (its TorchConfigVersion.cmake), the
# one CMake finds and `mesure_memoire --version` prints: Debian's
# libtorch-dev 1.13.1 calls itself 1.13.0 there and in its headers.
iteragpu_describe_torch() {
  local dir=$1 what version gpu="CPU only" lib owner
  version=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' "$dir/TorchConfigVersion.cmake" 2>/dev/null)
  what="LibTorch ${version:-of unknown version}"
  owner=$(dpkg-query -S "$dir/TorchConfig.cmake" 2>/dev/null | sed -n '1s/:.*//p')
  if [ -n "$owner" ]; then
    what+=" (package $owner)"
  else
    what+=" at $dir"
  fi
  # The libraries sit two levels up (Debian: lib/<arch>/cmake/Torch) or in
  # ../../../lib (an unpacked LibTorch: share/cmake/Torch).
  for lib in "$dir/../.." "$dir/../../../lib"; do
    if compgen -G "$lib/libtorch_cuda*.so" >/dev/null || compgen -G "$lib/libc10_cuda*.so" >/dev/null; then
      gpu=CUDA
    elif compgen -G "$lib/libtorch_hip*.so" >/dev/null || compgen -G "$lib/libc10_hip*.so" >/dev/null; then
      gpu=ROCm
    fi
  done
  printf '%s, %s' "$what" "$gpu"
}

# iteragpu_have_fuzzer_runtime: clang 14's libFuzzer runtime, which the
# clang preset links into the fuzz harnesses.
iteragpu_have_fuzzer_runtime() {
  local resource
  resource=$(clang++-14 -print-resource-dir 2>/dev/null) &&
    [ -f "$resource/lib/linux/libclang_rt.fuzzer-$(uname -m).a" ]
}

# iteragpu_boost_debs: true when .debs/ holds Debian's Boost packages.
iteragpu_boost_debs() {
  compgen -G "$iteragpu_root/.debs/libboost-json*.deb" >/dev/null &&
    compgen -G "$iteragpu_root/.debs/libboost-program-options*.deb" >/dev/null &&
    compgen -G "$iteragpu_root/.debs/libboost-test*.deb" >/dev/null
}

# iteragpu_missing_needs build|test: prints the needs this machine does not
# meet, space-separated. For build, boost counts as met when .debs/ can
# provide it, and libtorch is a need only when the system LibTorch was chosen.
iteragpu_missing_needs() {
  local missing=()
  case "$1" in
    build)
      iteragpu_find_cxx >/dev/null || missing+=(cxx)
      iteragpu_have_cmake || missing+=(cmake)
      command -v ninja >/dev/null 2>&1 || missing+=(ninja)
      iteragpu_find_boost >/dev/null || iteragpu_boost_debs || missing+=(boost)
      if [ "${iteragpu_libtorch_kind:-}" = system ] && ! iteragpu_find_system_torch >/dev/null; then
        missing+=(libtorch)
      fi
      ;;
    test)
      command -v clang++-14 >/dev/null 2>&1 || missing+=(clang)
      iteragpu_have_fuzzer_runtime || missing+=(clang-rt)
      command -v clang-tidy-14 >/dev/null 2>&1 || missing+=(clang-tidy)
      command -v clang-format-19 >/dev/null 2>&1 || missing+=(clang-format)
      command -v cppcheck >/dev/null 2>&1 || missing+=(cppcheck)
      command -v python3 >/dev/null 2>&1 || missing+=(python3)
      iteragpu_have_jsonschema || missing+=(jsonschema)
      iteragpu_left_out slurm ||
        { command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged; } >/dev/null 2>&1 ||
        missing+=(slurm)
      command -v rsvg-convert >/dev/null 2>&1 || missing+=(rsvg)
      iteragpu_left_out browser || command -v chromium >/dev/null 2>&1 || missing+=(chromium)
      [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts)
      iteragpu_have_doxygen || missing+=(doxygen)
      ;;
  esac
  printf '%s\n' "${missing[*]}"
}

# iteragpu_left_out WORD: whether ITERAGPU_LEAVE_OUT (words separated by
# spaces or commas) names WORD: `browser` leaves out chromium and the test of
# the sweep's page that needs it, `slurm` leaves out Slurm and munge and the
# job-array test. Those tests then say they were left out (a visible skip).
iteragpu_left_out() {
  [[ " ${ITERAGPU_LEAVE_OUT:-} " =~ [[:space:],]$1[[:space:],] ]]
}

# iteragpu_need_purpose NEED: what a need is for, as the announcement says it.
iteragpu_need_purpose() {
  case "$1" in
    cxx | cmake | ninja | boost | libtorch) printf 'the toolchain' ;;
    clang | clang-rt) printf 'the fuzzers and the clang build' ;;
    clang-tidy | cppcheck) printf 'static analysis' ;;
    clang-format) printf 'the format check' ;;
    python3) printf 'the scripted tests' ;;
    jsonschema) printf 'the JSON schema tests' ;;
    slurm) printf 'the Slurm job-array test (leave out: ITERAGPU_LEAVE_OUT=slurm)' ;;
    rsvg) printf 'the plot rendering test' ;;
    chromium) printf 'the page rendering test (leave out: ITERAGPU_LEAVE_OUT=browser)' ;;
    fonts) printf 'text in the rendered plot and page' ;;
    doxygen) printf 'the API reference' ;;
    *) printf '%s' "$1" ;;
  esac
}

# iteragpu_announce GROUP NEED...: says, before anything is installed, which
# packages each need brings and what for, under GROUP.
iteragpu_announce() {
  local group=$1 need packages
  shift
  [ $# -eq 0 ] && return 0
  iteragpu_say "to install, $group:"
  for need in "$@"; do
    packages=$(iteragpu_packages "$need" 2>/dev/null) || packages="(not packaged here: by hand)"
    [ -n "$packages" ] && iteragpu_say "  $packages: $(iteragpu_need_purpose "$need")"
  done
}

# iteragpu_packages NEED...: prints, space-separated, the packages of this
# distribution that provide the needs. Where the distribution cannot provide
# a need, prints one line saying what to install by hand and returns 1. The
# system LibTorch is optional: where none is packaged, a line says so and
# the build goes on without it.
#   Debian 12: Boost is the versioned 1.81 set (the unversioned libboost-*-dev
#     packages conflict with it); libtorch-dev 1.13.1 (LibTorch 1.13.0 by its
#     own version), CPU only.
#   Ubuntu 24.04: Boost 1.83 (versioned set), cmake 3.28, g++ 13; no
#     libtorch-dev at all.
#   Ubuntu 22.04: g++-12 (g++ is 11); cmake 3.22 and Boost 1.74 (no
#     Boost.JSON) are too old; libtorch-dev 1.8.1 is older than the 1.13 this
#     project is built against, so it is not used; doxygen 1.9.1 is older
#     than the 1.9.4 the API reference needs, so that step is skipped; its
#     newest clang-format is 15, and the format check, which needs 19, is
#     skipped too.
iteragpu_packages() {
  iteragpu_os_detect
  local need packages=() by_hand="" lacks=""
  for need in "$@"; do
    case "$iteragpu_os:$need" in
      other:libtorch) iteragpu_say "$iteragpu_os_name: no LibTorch found; building without it" ;;
      other:*) by_hand+="${by_hand:+, }$(iteragpu_need_text "$need")" ;;
      debian-12:cxx | ubuntu-24.04:cxx) packages+=(g++) ;;
      ubuntu-22.04:cxx) packages+=(g++-12) ;;
      debian-12:cmake | ubuntu-24.04:cmake) packages+=(cmake) ;;
      ubuntu-22.04:cmake)
        lacks+="${lacks:+ and no }CMake >= 3.25 (it has 3.22)"
        by_hand+="${by_hand:+, }$(iteragpu_need_text cmake)"
        ;;
      *:ninja) packages+=(ninja-build) ;;
      debian-12:boost)
        packages+=(libboost1.81-dev libboost-program-options1.81-dev libboost-json1.81-dev libboost-test1.81-dev)
        ;;
      ubuntu-24.04:boost)
        packages+=(libboost1.83-dev libboost-program-options1.83-dev libboost-json1.83-dev libboost-test1.83-dev)
        ;;
      ubuntu-22.04:boost)
        lacks+="${lacks:+ and no }Boost >= 1.81 with Boost.JSON (it has 1.74)"
        by_hand+="${by_hand:+, }$(iteragpu_need_text boost)"
        ;;
      debian-12:libtorch) packages+=(libtorch-dev) ;;
      ubuntu-24.04:libtorch) iteragpu_say "Ubuntu 24.04 packages no libtorch-dev; building without LibTorch" ;;
      ubuntu-22.04:libtorch)
        iteragpu_say "Ubuntu 22.04's libtorch-dev 1.8.1 is older than the 1.13 this project needs; building without LibTorch"
        ;;
      *:clang) packages+=(clang-14) ;;
      ubuntu-22.04:clang-rt) packages+=(libclang-common-14-dev) ;;
      *:clang-rt) packages+=(libclang-rt-14-dev) ;;
      *:clang-tidy) packages+=(clang-tidy-14) ;;
      ubuntu-22.04:clang-format)
        iteragpu_say "Ubuntu 22.04 packages clang-format 15 at most, older than the 19 the format check needs; its step will be skipped"
        ;;
      *:clang-format) packages+=(clang-format-19) ;;
      *:cppcheck) packages+=(cppcheck) ;;
      *:python3) packages+=(python3) ;;
      *:jsonschema) packages+=(python3-jsonschema) ;;
      *:slurm) packages+=(slurm-wlm munge) ;;
      *:rsvg) packages+=(librsvg2-bin) ;;
      debian-12:chromium) packages+=(chromium) ;;
      ubuntu-*:chromium) iteragpu_say "Ubuntu's chromium is a snap, which a build machine may not run; the page test is skipped without it" ;;
      *:fonts) packages+=(fonts-dejavu-core) ;;
      ubuntu-22.04:doxygen)
        iteragpu_say "Ubuntu 22.04's doxygen 1.9.1 is older than the 1.9.4 the API reference needs; its step will be skipped"
        ;;
      *:doxygen) packages+=(doxygen) ;;
      *) iteragpu_say "internal error: unknown need '$need'"; return 1 ;;
    esac
  done
  if [ -n "$by_hand" ]; then
    if [ "$iteragpu_os" = other ]; then
      iteragpu_say "$iteragpu_os_name is not a system these scripts install packages on (Debian 12, Ubuntu 22.04, Ubuntu 24.04); install by hand: $by_hand"
    else
      iteragpu_say "$iteragpu_os_name packages no $lacks; install by hand: $by_hand"
    fi
    return 1
  fi
  printf '%s\n' "${packages[*]}"
}

# iteragpu_install PACKAGE...: installs them through apt-get, as root or
# with sudo.
iteragpu_install() {
  [ $# -eq 0 ] && return 0
  command -v apt-get >/dev/null 2>&1 || { iteragpu_say "no apt-get to install $*"; return 1; }
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { iteragpu_say "cannot install $* without root or sudo"; return 1; }
    sudo=(sudo)
  fi
  iteragpu_say "installing $*"
  "${sudo[@]}" apt-get update -qq >&2 &&
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@" >&2
}

# --- Which LibTorch -----------------------------------------------------------

# iteragpu_probe_python_torch: reads python3's PyTorch into iteragpu_py_status
# (no-python, absent, broken or present) and iteragpu_py_version, _cuda,
# _hip, _prefix, _cxx11_abi, _error. Importing torch takes seconds, so the
# answer is kept in build/ and reused while python3 and torch are the same
# files.
iteragpu_probe_python_torch() {
  iteragpu_py_status=no-python iteragpu_py_version="" iteragpu_py_cuda="" iteragpu_py_hip=""
  iteragpu_py_prefix="" iteragpu_py_cxx11_abi="" iteragpu_py_error=""
  command -v python3 >/dev/null 2>&1 || return 0
  local key value
  while IFS='=' read -r key value; do
    case "$key" in
      status) iteragpu_py_status=$value ;;
      version) iteragpu_py_version=$value ;;
      cuda) iteragpu_py_cuda=$value ;;
      hip) iteragpu_py_hip=$value ;;
      prefix) iteragpu_py_prefix=$value ;;
      cxx11_abi) iteragpu_py_cxx11_abi=$value ;;
      error) iteragpu_py_error=$value ;;
    esac
  done < <(python3 - "$iteragpu_root/build/python-torch.txt" 2>/dev/null <<'PY'
import importlib.util, os, sys
cache = sys.argv[1]
spec = importlib.util.find_spec("torch")
if spec is None or spec.origin is None:
    print("status=absent")
    sys.exit(0)
key = "key=%s|%s|%d" % (sys.executable, spec.origin, os.stat(spec.origin).st_mtime_ns)
try:
    with open(cache) as f:
        lines = f.read().splitlines()
    if lines and lines[0] == key:
        print("\n".join(lines[1:]))
        sys.exit(0)
except OSError:
    pass
try:
    import torch, torch.utils
    hip = getattr(torch.version, "hip", None)
    out = ["status=present", "version=" + torch.__version__, "cuda=" + (torch.version.cuda or ""),
           "hip=" + (hip or ""), "prefix=" + torch.utils.cmake_prefix_path,
           "cxx11_abi=" + ("1" if torch.compiled_with_cxx11_abi() else "0")]
except Exception as error:
    out = ["status=broken", "error=" + (type(error).__name__ + ": " + str(error)).replace("\n", " ")]
print("\n".join(out))
try:
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    with open(cache + ".new", "w") as f:
        f.write("\n".join([key] + out) + "\n")
    os.replace(cache + ".new", cache)
except OSError:
    pass
PY
  )
}

# iteragpu_select_libtorch: chooses the LibTorch and so the preset. Sets
# iteragpu_preset (default or gpu), iteragpu_libtorch_kind (python, path or
# system), iteragpu_torch_prefix and iteragpu_torch_args (CMake arguments of
# the gpu preset), and iteragpu_libtorch_reason (why, for the message).
# Returns 2, with one line, when ITERAGPU_LIBTORCH is not a value it accepts.
iteragpu_select_libtorch() {
  local choice=${ITERAGPU_LIBTORCH:-} config
  iteragpu_preset=default iteragpu_libtorch_kind=system iteragpu_torch_prefix="" iteragpu_torch_args=()
  iteragpu_libtorch_reason=""
  case "$choice" in
    "" | system | python) ;;
    */*)
      local path
      path=$(cd "$choice" 2>/dev/null && pwd) && config=$(iteragpu_torch_config_in "$path") || {
        iteragpu_say "ITERAGPU_LIBTORCH is '$choice', a path without TorchConfig.cmake (looked in Torch/, share/cmake/Torch/, lib/cmake/Torch/); expected system, python or the CMake prefix of a LibTorch"
        return 2
      }
      iteragpu_preset=gpu iteragpu_libtorch_kind=path iteragpu_torch_prefix=$path
      iteragpu_libtorch_reason="using the LibTorch that ITERAGPU_LIBTORCH names ($(iteragpu_describe_torch "$config"))"
      return 0
      ;;
    *)
      iteragpu_say "ITERAGPU_LIBTORCH is '$choice'; expected system, python or the path of a LibTorch CMake prefix"
      return 2
      ;;
  esac
  if [ "$choice" = system ]; then
    iteragpu_libtorch_reason="ITERAGPU_LIBTORCH=system"
    return 0
  fi

  iteragpu_probe_python_torch
  local version=${iteragpu_py_version%%+*}
  local gpu=""
  if [ -n "$iteragpu_py_cuda" ]; then
    gpu="CUDA $iteragpu_py_cuda"
  elif [ -n "$iteragpu_py_hip" ]; then
    gpu="ROCm, HIP $iteragpu_py_hip"
  fi
  local why=""
  case "$iteragpu_py_status" in
    no-python) why="there is no python3 on PATH" ;;
    absent) why="python3 has no PyTorch" ;;
    broken) why="python3 cannot import torch ($iteragpu_py_error)" ;;
    present)
      if [ -z "$gpu" ]; then
        why="python3's PyTorch $version is built without CUDA"
      elif [ "$iteragpu_py_cxx11_abi" = 0 ] && [ "$choice" != python ]; then
        why="python3's PyTorch $version ($gpu) uses the pre-C++11 ABI of libstdc++, which the packaged Boost libraries cannot be linked with"
      fi
      ;;
  esac
  if [ -n "$why" ]; then
    if [ "$choice" = python ] && [ "$iteragpu_py_status" != present ]; then
      iteragpu_say "ITERAGPU_LIBTORCH=python, but $why"
      return 2
    fi
    if [ "$choice" != python ]; then
      iteragpu_libtorch_reason=$why
      return 0
    fi
  fi

  iteragpu_preset=gpu iteragpu_libtorch_kind=python iteragpu_torch_prefix=$iteragpu_py_prefix
  config=$(iteragpu_torch_config_in "$iteragpu_torch_prefix") || {
    iteragpu_say "python3's PyTorch $version reports the CMake prefix $iteragpu_torch_prefix, which has no Torch/TorchConfig.cmake"
    return 2
  }
  # TorchConfig puts -D_GLIBCXX_USE_CXX11_ABI on its torch target; only a
  # config without it needs the flag from here.
  if ! grep -q _GLIBCXX_USE_CXX11_ABI "$config/TorchConfig.cmake"; then
    iteragpu_torch_args=("-DCMAKE_CXX_FLAGS=-D_GLIBCXX_USE_CXX11_ABI=${iteragpu_py_cxx11_abi:-1}")
  fi
  local what="the LibTorch of python3's PyTorch $version (${gpu:-CPU only}) at $iteragpu_torch_prefix"
  if [ "$choice" = python ]; then
    iteragpu_libtorch_reason="using $what: ITERAGPU_LIBTORCH=python"
    if [ "$iteragpu_py_cxx11_abi" = 0 ]; then
      iteragpu_libtorch_reason+=" (its pre-C++11 ABI may not link with the packaged Boost)"
    fi
  elif [ -n "$iteragpu_py_cuda" ]; then
    iteragpu_libtorch_reason="using $what: it is built for CUDA GPUs"
  else
    iteragpu_libtorch_reason="using $what: it is built for ROCm GPUs (untried: no ROCm machine was available to this project)"
  fi
}

# iteragpu_announce_libtorch: the one line saying which LibTorch and why.
iteragpu_announce_libtorch() {
  if [ "$iteragpu_libtorch_kind" != system ]; then
    iteragpu_say "$iteragpu_libtorch_reason"
    return 0
  fi
  local config
  if config=$(iteragpu_find_system_torch); then
    iteragpu_say "using the system LibTorch ($(iteragpu_describe_torch "$config")): $iteragpu_libtorch_reason"
  elif iteragpu_dry_run && [ "$iteragpu_os" = debian-12 ]; then
    iteragpu_say "using the system LibTorch (libtorch-dev, not installed yet): $iteragpu_libtorch_reason"
  else
    iteragpu_say "no LibTorch ($iteragpu_libtorch_reason, and none is installed): measure and environment will report that this build cannot reach a GPU"
  fi
}

# --- Boost from .debs/ --------------------------------------------------------

# iteragpu_use_boost_debs: unpacks .debs/ into build/boost-debs (once) and
# points CMake and the loader there. Boost_DIR must be explicit: a host's
# own, newer Boost config would win otherwise.
iteragpu_use_boost_debs() {
  local root="$iteragpu_root/build/boost-debs" deb config
  if iteragpu_dry_run; then
    iteragpu_say "dry run: would unpack Boost from .debs/ into $root"
    return 0
  fi
  if ! compgen -G "$root/usr/lib/*/cmake/Boost-*/BoostConfig.cmake" >/dev/null; then
    iteragpu_say "unpacking Boost from .debs/ into $root"
    mkdir -p "$root" || return 1
    for deb in "$iteragpu_root"/.debs/*.deb; do
      dpkg -x "$deb" "$root" || { iteragpu_say "cannot unpack $deb"; return 1; }
    done
  fi
  config=$(compgen -G "$root/usr/lib/*/cmake/Boost-*" | sort -rV | head -n 1)
  iteragpu_boost_args=("-DBoost_DIR=$config")
  local libdir=${config%/cmake/*}
  export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

# --- Putting it together --------------------------------------------------------

# iteragpu_prepare build|test: chooses the LibTorch, installs what the build
# (and for test, the test tools) lacks, sets up Boost, and says which
# LibTorch. Returns 2 on a bad ITERAGPU_LIBTORCH, 1 when the build's needs
# cannot be met. Test tools that cannot be installed are left missing: the
# steps that need them say so when skipped.
# shellcheck disable=SC2086 # needs and packages are lists of words
iteragpu_prepare() {
  local mode=$1 needs packages
  iteragpu_boost_args=()
  iteragpu_select_libtorch || return $?
  iteragpu_os_detect
  needs=$(iteragpu_missing_needs build)
  packages=$(iteragpu_packages $needs) || return 1
  iteragpu_announce "for the build (the toolchain)" $needs
  if iteragpu_dry_run; then
    iteragpu_say "dry run: $iteragpu_os_name; would install: ${packages:-nothing}"
  elif ! iteragpu_install $packages; then
    iteragpu_say "could not install $packages; install them by hand"
    return 1
  fi
  if [ "$mode" = test ]; then
    needs=$(iteragpu_missing_needs test)
    iteragpu_announce "for the tests only" $needs
    if ! packages=$(iteragpu_packages $needs); then
      iteragpu_say "the quality steps that need those tools will be skipped"
    elif iteragpu_dry_run; then
      iteragpu_say "dry run: would install for the tests: ${packages:-nothing}"
    elif ! iteragpu_install $packages; then
      iteragpu_say "could not install $packages: the test steps that need them will be skipped"
    fi
  fi
  local cxx
  if cxx=$(iteragpu_find_cxx) && [ "$cxx" != g++ ]; then
    export CXX=$cxx
  fi
  if ! iteragpu_find_boost >/dev/null && iteragpu_boost_debs; then
    iteragpu_use_boost_debs || return 1
  fi
  iteragpu_announce_libtorch
  if iteragpu_dry_run; then
    iteragpu_say "dry run: preset $iteragpu_preset (build/$iteragpu_preset)"
  fi
  return 0
}

# iteragpu_build PRESET [TARGET]: configures when the build folder is new or
# was configured with other choices, then builds TARGET (all of the preset
# by default).
iteragpu_build() {
  local preset=$1 target=${2:-} dir="$iteragpu_root/build/$1"
  local args=("${iteragpu_boost_args[@]}") build=(cmake --build --preset "$preset")
  [ "$preset" = gpu ] && args+=("${iteragpu_torch_args[@]}")
  [ -n "$target" ] && build+=(--target "$target")
  # What the configuration depends on beyond the preset itself: when it
  # changes, the folder is configured again from scratch.
  local fingerprint="args=${args[*]} cxx=${CXX:-}"
  case "$preset" in
    gpu) fingerprint+=" torch=$iteragpu_torch_prefix" ;;
    default) fingerprint+=" torch=$(iteragpu_find_system_torch)" ;;
  esac
  local configure=()
  if [ ! -f "$dir/build.ninja" ] || [ "$(cat "$dir/iteragpu-configure.txt" 2>/dev/null)" != "$fingerprint" ]; then
    configure=(cmake --preset "$preset" "${args[@]}")
    [ -f "$dir/CMakeCache.txt" ] && configure+=(--fresh)
  fi
  if iteragpu_dry_run; then
    local env=""
    [ "$preset" = gpu ] && env="ITERAGPU_TORCH_PREFIX=$iteragpu_torch_prefix "
    [ ${#configure[@]} -gt 0 ] && iteragpu_say "dry run: would configure: $env${configure[*]}"
    iteragpu_say "dry run: would build: ${build[*]}"
    return 0
  fi
  (
    cd "$iteragpu_root" || exit 1
    export ITERAGPU_TORCH_PREFIX=$iteragpu_torch_prefix
    if [ ${#configure[@]} -gt 0 ]; then
      iteragpu_say "configuring preset $preset"
      "${configure[@]}" >&2 || exit 1
      printf '%s\n' "$fingerprint" >"$dir/iteragpu-configure.txt"
    fi
    "${build[@]}" >&2
  )
}
