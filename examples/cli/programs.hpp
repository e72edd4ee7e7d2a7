#ifndef ITERAGPU_CLI_PROGRAMS_HPP
#define ITERAGPU_CLI_PROGRAMS_HPP

#include <array>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/calcul_forfaits_command.hpp"
#include "cli/collect_command.hpp"
#include "cli/common.hpp"
#include "cli/compare_command.hpp"
#include "cli/estimate_command.hpp"
#include "cli/extrapolate_flags.hpp"
#include "cli/gpu_commands.hpp"
#include "cli/plan_command.hpp"
#include "cli/replay_command.hpp"
#include "cli/sweep_command.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/version.hpp"

/// \file
/// The two programs' commands and flags in one place: the help, the
/// `--version` text and the bash completion are all written from it.
namespace iteragpu::cli {

/// A function that returns a command's flags with its help.
using description_function = po::options_description (*)();

/// One command of a program, as its help, `--version` and completion describe it.
struct command_flags {
  std::string_view name;             ///< empty for a program without subcommands
  std::string_view summary;          ///< one line for the program's help
  description_function description;  ///< its flags
};

/// mesure_memoire's subcommands, in the order its help lists them.
[[nodiscard]] inline std::vector<command_flags> mesure_memoire_commands() {
  return {
      {"estimate", "weight memory from a parameter count (no GPU)", &estimate_description},
      {"plan", "every phase of a measurement predicted to the byte (no GPU)", &plan_description},
      {"environment", "versions and visible GPUs, as JSON (a diagnostic)", &environment_description},
      {"measure", "memory and time of the synthetic network, phase by phase, on one GPU", &measure_description},
      {"compare", "two measurement files side by side: memory, time, environment (no GPU)", &compare_description},
      {"sweep", "measure over lists of shapes, a fresh process per point; or plan, or predict", &sweep_description},
      {"collect", "merge sweep folders into one summary, plot and page", &collect_description},
      {"replay", "a recorded PyTorch memory trace replayed under other allocator settings and capacities (no GPU)",
       &replay_description},
      {"extrapolate",
       "traces recorded at a few sizes extended to any size and replayed; the largest that fits (no GPU)",
       &extrapolate_description},
  };
}

/// calcul_forfaits, a program without subcommands, as one entry.
[[nodiscard]] inline std::vector<command_flags> calcul_forfaits_commands() {
  return {{"", "the whole price of a fixed-duration GPU package", &calcul_forfaits_description}};
}

/// What a build was made with, for --version: known at build time, so that
/// printing it loads no LibTorch.
struct build_facts {
  std::string_view libtorch;     ///< "2.11.0", or "none"
  std::string_view gpu_runtime;  ///< "CUDA 13.0", "HIP", or "none"
};

/// The `--version` text: the program, the library's version, the LibTorch and GPU runtime it was built
/// with.
inline void write_version(std::ostream& out, std::string_view program, const build_facts& facts) {
  out << program << " (" << library_name << ") " << library_version << '\n'
      << "LibTorch: " << facts.libtorch << '\n'
      << "GPU runtime: " << facts.gpu_runtime << '\n';
}

/// `--version` or `version` as the only word.
[[nodiscard]] inline bool version_requested(std::span<const std::string> args) {
  return args.size() == 1 && (args.front() == "--version" || args.front() == "version");
}

/// Every long flag of a description, as `--name`.
[[nodiscard]] inline std::vector<std::string> long_flags(const po::options_description& d) {
  std::vector<std::string> flags;
  for (const auto& option : d.options()) {
    flags.push_back("--" + option->long_name());
  }
  return flags;
}

/// A command's flags as its completion sorts them: those that take a value,
/// those offered only until given, those offered again (--input repeats).
struct flag_kinds {
  std::string valued;      ///< flags followed by a value, "--a|--b"
  std::string once;        ///< flags offered only while not given yet, "--a --b"
  std::string repeatable;  ///< flags offered even when given, "--input"
};

/// The kinds of the flags of `d` (see flag_kinds).
[[nodiscard]] inline flag_kinds kinds_of(const po::options_description& d) {
  flag_kinds k;
  for (const auto& option : d.options()) {
    const std::string flag = "--" + option->long_name();
    if (option->semantic()->max_tokens() > 0) {
      k.valued += (k.valued.empty() ? "" : "|") + flag;
    }
    std::string& list = option->semantic()->is_composing() ? k.repeatable : k.once;
    list += (list.empty() ? "" : " ") + flag;
  }
  return k;
}

/// What the completion offers after --alloc-conf: the PYTORCH_CUDA_ALLOC_CONF
/// keys that change what the replay does, the flags with their values.
inline constexpr std::array<std::string_view, 7> alloc_conf_completions{"backend:native",
                                                                        "expandable_segments:False",
                                                                        "expandable_segments:True",
                                                                        "garbage_collection_threshold:",
                                                                        "max_non_split_rounding_mb:",
                                                                        "max_split_size_mb:",
                                                                        "roundup_power2_divisions:"};

/// A bash completion script for `program`: its subcommands first (when it
/// has any), then the flags of the command being typed, less those already
/// given; after a flag, its value: file names (--output, --catalog, --fits,
/// --memory-snapshot, --torchscript, --point-program), folders
/// (--output-dir, --resume), the dtypes, the axes of --largest (not extrapolate's), the GPU ids
/// of --gpu (`gpu_ids`, or those of the --catalog file on the line), the
/// durations of --days (every GPU of a catalog has the same three), the keys of --alloc-conf
/// (alloc_conf_completions, after the last comma of a list; bash splits a
/// word at ':' by default, so the candidates are trimmed as the word is);
/// nothing after another flag that takes a value; file names for the
/// operands of compare and replay, folders for those of collect. No
/// compgen without a match fails the function (a shell under `set -e`
/// survives it). Written from the option descriptions, so a new flag
/// completes without editing it.
[[nodiscard]] inline std::string bash_completion(std::string_view program, std::span<const command_flags> commands,
                                                 std::span<const std::string> gpu_ids = {}) {
  const std::string function = "_iteragpu_" + std::string(program);
  std::string ids;
  for (const auto& id : gpu_ids) {
    ids += (ids.empty() ? "" : " ") + id;
  }
  std::string days;
  for (const auto d : pricing::package_durations) {
    days += (days.empty() ? "" : " ") + to_decimal_string(d.value);
  }
  std::string keys;
  for (const auto key : alloc_conf_completions) {
    keys += (keys.empty() ? "" : " ") + std::string(key);
  }
  std::string dtypes;
  for (const auto name : memory::dtype_names) {
    dtypes += (dtypes.empty() ? "" : " ") + std::string(name);
  }
  std::string script =
      "# bash completion for " + std::string(program) +
      ", written by the program's build from its option descriptions\n" + function + "() {\n" +
      "  local current=${COMP_WORDS[COMP_CWORD]} previous='' words='' repeatable='' valued='' given=' ' kept='' w i\n"
      "  [ \"$COMP_CWORD\" -gt 0 ] && previous=${COMP_WORDS[COMP_CWORD-1]}\n"
      "  for ((i = 1; i < COMP_CWORD; i++)); do given+=\"${COMP_WORDS[i]} \"; done\n"
      "  # --alloc-conf's value, read from the line: bash splits it at ':'.\n"
      "  local line=${COMP_LINE:0:COMP_POINT} token flag item\n"
      "  token=${line##*[[:space:]]}; line=${line%\"$token\"}; line=${line%\"${line##*[![:space:]]}\"}\n"
      "  flag=${line##*[[:space:]]}\n"
      "  if [ \"$flag\" = --alloc-conf ]; then\n"
      "    item=${token##*,}\n"
      "    COMPREPLY=($(compgen -P \"${token%\"$item\"}\" -W '" +
      keys +
      "' -- \"$item\" || :))\n"
      "    if [[ $COMP_WORDBREAKS == *:* && $token == *:* ]]; then\n"
      "      item=${token%\"${token##*:}\"}; COMPREPLY=(\"${COMPREPLY[@]#\"$item\"}\")\n"
      "    fi\n"
      "    compopt -o nospace 2>/dev/null || :; return\n"
      "  fi\n"
      "  case $previous in\n"
      "    --output|--catalog|--fits|--memory-snapshot|--torchscript|--point-program)\n"
      "      COMPREPLY=($(compgen -f -- \"$current\" || :)); return ;;\n"
      "    --output-dir|--resume) COMPREPLY=($(compgen -d -- \"$current\" || :)); return ;;\n"
      "    --dtype) COMPREPLY=($(compgen -W '" +
      dtypes +
      "' -- \"$current\" || :)); return ;;\n"
      "    # plan's and sweep's --largest name an axis; extrapolate's takes no value.\n"
      "    --largest) if [ \"${COMP_WORDS[1]}\" != extrapolate ]; then\n"
      "        COMPREPLY=($(compgen -W 'batch context width' -- \"$current\" || :)); return\n"
      "      fi ;;\n"
      "    --gpu)\n"
      "      w='" +
      ids +
      "'\n"
      "      for ((i = 1; i < COMP_CWORD - 1; i++)); do\n"
      "        if [ \"${COMP_WORDS[i]}\" = --catalog ] && [ -r \"${COMP_WORDS[i+1]}\" ]; then\n"
      "          w=$(awk -F, 'NR > 1 && $4 != \"\" {print $4}' \"${COMP_WORDS[i+1]}\" 2>/dev/null | sort -u)\n"
      "        fi\n"
      "      done\n"
      "      COMPREPLY=($(compgen -W \"$w\" -- \"$current\" || :)); return ;;\n"
      "    --days) COMPREPLY=($(compgen -W '" +
      days +
      "' -- \"$current\" || :)); return ;;\n"
      "  esac\n";
  const bool subcommands = !commands.empty() && !commands.front().name.empty();
  if (subcommands) {
    std::string names;
    for (const auto& c : commands) {
      names += (names.empty() ? "" : " ") + std::string(c.name);
    }
    script += "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n    words='" + names + " --help --version version'\n" +
              "  else\n    case ${COMP_WORDS[1]} in\n";
    for (const auto& c : commands) {
      const auto k = kinds_of(c.description());
      script += "      " + std::string(c.name) + ") words='" + k.once + " -h' repeatable='" + k.repeatable +
                "' valued='" + k.valued + "' ;;\n";
    }
    script += "    esac\n  fi\n";
  } else {
    const auto k = kinds_of(commands.front().description());
    script += "  words='" + k.once + " -h --version' repeatable='" + k.repeatable + "' valued='" + k.valued + "'\n";
  }
  script += "  # After another flag that takes a value: nothing to offer.\n"
            "  if [ -n \"$previous\" ] && [[ \"|$valued|\" == *\"|$previous|\"* ]]; then COMPREPLY=(); return; fi\n";
  if (subcommands) {
    script += "  if [ \"$COMP_CWORD\" -gt 1 ] && [[ $current != -* ]]; then\n"
              "    case ${COMP_WORDS[1]} in\n"
              "      compare|replay|extrapolate) COMPREPLY=($(compgen -f -- \"$current\" || :)); return ;;\n"
              "      collect) COMPREPLY=($(compgen -d -- \"$current\" || :)); return ;;\n"
              "    esac\n"
              "  fi\n";
  }
  script += "  for w in $words; do [[ $given == *\" $w \"* ]] || kept+=\"$w \"; done\n"
            "  COMPREPLY=($(compgen -W \"$kept$repeatable\" -- \"$current\" || :))\n}\ncomplete -o filenames -F " +
            function + " " + std::string(program) + "\n";
  return script;
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_PROGRAMS_HPP
