#ifndef ITERAGPU_CLI_CARD_CAPACITY_HPP
#define ITERAGPU_CLI_CARD_CAPACITY_HPP

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/calcul_forfaits_files.hpp"
#include "cli/common.hpp"
#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/pricing/memory_rule.hpp"
#include "iteragpu/report/catalog.hpp"
#include "iteragpu/report/catalog_errors.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The capacity a card leaves to PyTorch's allocator, as `replay --gpu`,
/// `replay --card-gib` and `extrapolate --largest` judge it: the card's
/// memory less the memory outside the allocator (the CUDA context, the
/// libraries' handles), by the rule `calcul_forfaits --fits` judges a need
/// by, with the words that say how.
namespace iteragpu::cli {

/// A capacity and where it comes from.
struct card_capacity {
  byte_count bytes;                ///< the bytes the allocator may reserve
  std::optional<std::string> gpu;  ///< the catalog GPU, or none
  /// The device's memory (totalGlobalMem): the card's, or --device-memory-bytes; none when not given.
  std::optional<byte_count> device_memory{};
  std::string basis;  ///< how the capacity follows from the card, in words
};

/// The catalog `path` names, or the shipped one; a usage_error when it is refused.
[[nodiscard]] inline pricing::catalog card_catalog(const std::optional<std::string>& path,
                                                   std::span<const std::filesystem::path> default_catalogs) {
  calcul_forfaits_options choice_of;
  choice_of.catalog_path = path;
  const auto choice = choose_catalog(choice_of, default_catalogs);
  auto parsed = pricing::parse_catalog(read_catalog_text(choice.path), choice.label());
  if (!parsed) {
    throw usage_error("invalid catalog: " + report::describe(parsed.error()));
  }
  return std::move(*parsed);
}

/// `memory` less `outside`, with `what` naming the memory in the words; a
/// usage_error, naming the card's flag, when the memory outside the
/// allocator leaves nothing.
[[nodiscard]] inline card_capacity capacity_left(byte_count memory, byte_count outside, std::optional<std::string> gpu,
                                                 const std::string& what) {
  std::string basis = what + ", " + to_decimal_string(memory.value) +
                      " bytes, less the memory outside the allocator, " + to_decimal_string(outside.value) + " bytes";
  if (outside.value >= memory.value) {
    throw usage_error((gpu ? "--gpu " + *gpu : std::string("--card-gib")) + ": " + basis +
                      " leaves no byte to the allocator; expected a card with more memory, or a smaller "
                      "--outside-bytes");
  }
  return card_capacity{byte_count{memory.value - outside.value}, std::move(gpu), memory, std::move(basis)};
}

/// Every GPU of `catalog` (or the one `gpu` names: a usage_error when the
/// catalog has no such GPU) as a capacity: the low end of its memory under
/// the memory rule less `outside`.
[[nodiscard]] inline std::vector<card_capacity> catalog_capacities(const pricing::catalog& catalog,
                                                                   const std::optional<std::string>& gpu,
                                                                   byte_count outside) {
  if (gpu && catalog.find(*gpu) == nullptr) {
    throw usage_error("--gpu: " + quoted_excerpt(*gpu) +
                      " is not in the catalog; expected one of: " + report::gpu_ids(catalog));
  }
  std::vector<card_capacity> found;
  for (const auto& offer : catalog.offers()) {
    if (gpu && offer.id != *gpu) {
      continue;
    }
    const auto memory = pricing::runtime_memory_of(offer.id, offer.memory_per_gpu);
    if (!memory) {
      continue;
    }
    found.push_back(
        capacity_left(memory->band.low, outside, offer.id, "the low end of its memory under the memory rule"));
  }
  return found;
}

/// What --card-gib accepts, as messages say it.
inline constexpr std::string_view accepted_card_gib =
    "the GiB a card's runtime reports as its total memory, a decimal such as 24 or 79.19 (no sign, no exponent)";

/// A card whose runtime reports `bytes` of total memory, less `outside`.
[[nodiscard]] inline card_capacity card_gib_capacity(const std::string& text, byte_count bytes, byte_count outside) {
  return capacity_left(bytes, outside, std::nullopt, "a card of " + text + " GiB as its runtime reports it");
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_CARD_CAPACITY_HPP
