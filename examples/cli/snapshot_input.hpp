#ifndef ITERAGPU_CLI_SNAPSHOT_INPUT_HPP
#define ITERAGPU_CLI_SNAPSHOT_INPUT_HPP

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

#include "cli/card_capacity.hpp"
#include "cli/common.hpp"
#include "cli/flags.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The input `replay` and `extrapolate` read the same way: --alloc-conf,
/// which may repeat and whose value may look like a flag, and the
/// capacities a trace is replayed under: bytes (--capacity-bytes), GiB
/// (--capacity-gib), a fraction of the device's memory as PyTorch computes
/// it (--memory-fraction), or a card (--card-gib; --gpu is a catalog card),
/// less the memory outside the allocator (--outside-bytes).
namespace iteragpu::cli {

/// --alloc-conf may repeat and its value may be "" or start with '-': its
/// values are taken out of `args` first, the other words returned.
/// `description` tells a flag that follows from a value.
[[nodiscard]] inline std::vector<std::string> take_alloc_confs(std::span<const std::string> args,
                                                               const po::options_description& description,
                                                               std::vector<std::string>& confs) {
  std::vector<std::string> rest;
  constexpr std::string_view inline_form = "--alloc-conf=";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word.starts_with(inline_form)) {
      confs.push_back(word.substr(inline_form.size()));
    } else if (word != "--alloc-conf") {
      rest.push_back(word);
    } else if (i + 1 == args.size()) {
      throw usage_error("--alloc-conf needs a value; expected a setting such as expandable_segments:True");
    } else if (const auto next = flag_named_by(description, args[i + 1])) {
      throw usage_error("--alloc-conf needs a value; got the flag " + *next);
    } else {
      confs.push_back(args[++i]);
    }
  }
  return rest;
}

/// How a capacity was given.
enum class capacity_given {
  bytes,     ///< --capacity-bytes N
  gib,       ///< --capacity-gib X
  fraction,  ///< --memory-fraction F, of --device-memory-bytes
  card_gib,  ///< --card-gib X: a card's memory less the memory outside the allocator
};

/// One capacity flag as typed, resolved once the device's memory and the
/// memory outside the allocator are known (resolve_capacity()).
struct capacity_flag {
  capacity_given kind{capacity_given::bytes};  ///< which flag
  std::string text;                            ///< its value as typed
};

/// What --capacity-gib accepts, as messages say it.
inline constexpr std::string_view accepted_capacity_gib =
    "a decimal of GiB of at least one byte and under 2^64 bytes, such as 80 or 0.5 (no sign, no exponent)";
/// What --memory-fraction accepts, as messages say it.
inline constexpr std::string_view accepted_memory_fraction =
    "a decimal above 0 and at most 1, such as 0.25: the fraction torch.cuda.set_per_process_memory_fraction takes";

/// The capacity flags of `values` (each may repeat), by flag.
[[nodiscard]] inline std::vector<capacity_flag> capacity_flags(const po::variables_map& values) {
  std::vector<capacity_flag> found;
  const auto take = [&](const char* flag, capacity_given kind) {
    if (given(values, flag)) {
      for (const auto& text : values[flag].as<std::vector<std::string>>()) {
        found.push_back({kind, text});
      }
    }
  };
  take("capacity-bytes", capacity_given::bytes);
  take("capacity-gib", capacity_given::gib);
  take("memory-fraction", capacity_given::fraction);
  take("card-gib", capacity_given::card_gib);
  return found;
}

namespace detail::snapshot_input {

// A decimal of GiB as bytes rounded down, of at least one byte.
[[nodiscard]] inline byte_count gib_flag(std::string_view flag, const std::string& text, std::string_view accepted) {
  const auto bytes = gib_to_bytes_rounded_down(decimal_flag(flag, text, accepted));
  if (!bytes || bytes->value == 0) {
    throw usage_error("--" + std::string(flag) + ": " + quoted(text) +
                      (bytes ? " is below one byte" : " passes 2^64 bytes") + "; expected " + std::string(accepted));
  }
  return *bytes;
}

// The limit PyTorch's allocator takes for set_per_process_memory_fraction(F)
// on a device of `memory` bytes: (size_t)(F * total) computed in double,
// which is one byte under F·total for some fractions and cards.
[[nodiscard]] inline byte_count fraction_of(const std::string& text, byte_count memory) {
  const auto exact = decimal_flag("memory-fraction", text, accepted_memory_fraction);
  const auto zero = exact_decimal::from_integer(0);
  const auto one = exact_decimal::from_integer(1);
  if (!(zero < exact) || one < exact) {
    throw usage_error("--memory-fraction: " + quoted(text) + " is outside (0, 1]; expected " +
                      std::string(accepted_memory_fraction));
  }
  // The text is a plain decimal: strtod reads it as Python reads the float.
  const double fraction = std::strtod(text.c_str(), nullptr);
  return byte_count{static_cast<std::uint64_t>(fraction * static_cast<double>(memory.value))};
}

}  // namespace detail::snapshot_input

/// The capacity of one flag: --memory-fraction needs the device's memory
/// (--device-memory-bytes); --card-gib takes off the memory outside the
/// allocator, refused when it leaves nothing.
[[nodiscard]] inline card_capacity resolve_capacity(const capacity_flag& f, std::optional<byte_count> device_memory,
                                                    byte_count outside) {
  namespace d = detail::snapshot_input;
  switch (f.kind) {
    case capacity_given::bytes:
      return {byte_count{integer_flag("capacity-bytes", f.text, 1, accepted_positive)}, std::nullopt, device_memory,
              "--capacity-bytes " + f.text};
    case capacity_given::gib: {
      const auto bytes = d::gib_flag("capacity-gib", f.text, accepted_capacity_gib);
      return {bytes, std::nullopt, device_memory,
              "--capacity-gib " + f.text + ", " + to_decimal_string(bytes.value) + " bytes (rounded down)"};
    }
    case capacity_given::fraction: {
      if (!device_memory) {
        throw usage_error("--memory-fraction " + quoted(f.text) +
                          ": a fraction of the device's memory, which no flag gives; expected --device-memory-bytes "
                          "N too (the device's totalGlobalMem, 85017493504 on an H100 80GB HBM3)");
      }
      const auto bytes = d::fraction_of(f.text, *device_memory);
      return {bytes, std::nullopt, device_memory,
              "--memory-fraction " + f.text + " of " + to_decimal_string(device_memory->value) + " bytes, " +
                  to_decimal_string(bytes.value) +
                  " bytes as set_per_process_memory_fraction computes it ((size_t)(F x total) in double)"};
    }
    case capacity_given::card_gib: {
      const auto memory = d::gib_flag("card-gib", f.text, accepted_card_gib);
      return capacity_left(memory, outside, std::nullopt, "a card of " + f.text + " GiB as its runtime reports it");
    }
  }
  return {};
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_SNAPSHOT_INPUT_HPP
