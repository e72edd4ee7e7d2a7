#ifndef ITERAGPU_PRICING_MEMORY_RULE_HPP
#define ITERAGPU_PRICING_MEMORY_RULE_HPP

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

#include "iteragpu/checked.hpp"
#include "iteragpu/pricing/catalog.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The memory rule: how much of a GPU sold as N "GB" a program can count on.
/// A vendor's figure is neither the bytes a runtime reports nor one unit
/// (NVIDIA's "80 GB" H100 reports 79.2 GiB, its "141 GB" H200 139.8 GiB, its
/// "288 GB" B300 267.7 GiB); the runtime's total leaves out what the driver
/// and firmware reserve, and ECC on GDDR boards takes a further 1/16. The
/// rule, its records and their sources are in data/README.md, section
/// "Memory per GPU: nominal figures and what the runtime reports".
namespace iteragpu::pricing {

/// The total memory of one GPU as its runtime reports it (CUDA's
/// cudaMemGetInfo total, which is cudaDeviceProp::totalGlobalMem; HIP's for
/// AMD), as a closed band: `low` is what a program can count on, `high` the
/// most that was seen.
struct memory_band {
  byte_count low;   ///< what a program can count on
  byte_count high;  ///< the most that was seen
  friend constexpr bool operator==(const memory_band&, const memory_band&) = default;
};

/// Where a band comes from.
enum class band_basis {
  records,  ///< public records of this model's runtime total
  nominal,  ///< no record of the model: the generic rule on its nominal figure
};

/// The band of one catalog GPU, and where it comes from.
struct runtime_memory {
  memory_band band;                       ///< the band
  band_basis basis{band_basis::nominal};  ///< records or the nominal rule
  friend constexpr bool operator==(const runtime_memory&, const runtime_memory&) = default;
};

/// The least and the most runtime total found in public records for one
/// catalog GPU sold with `nominal` GB (data/README.md lists each record).
struct memory_records {
  std::string_view gpu;  ///< the GPU's id in the shipped catalog
  memory_gb nominal;     ///< its nominal memory, as the catalog states it
  byte_count lowest;     ///< the least total on record
  byte_count highest;    ///< the most total on record
};

/// `Count` mebibytes as bytes. The totals on record are kept in the unit
/// their source printed, so that each entry can be checked against its
/// source by eye; the count is a template argument, so that a value past
/// 64 bits does not compile.
template <std::uint64_t Count>
  requires(Count <= std::numeric_limits<std::uint64_t>::max() / mebibyte)
[[nodiscard]] consteval byte_count mebibytes() noexcept {
  return byte_count{Count * mebibyte};
}

/// `Count` hundredths of a GiB as bytes, rounded down to the byte: a total
/// as PyTorch's out-of-memory message prints it. A count whose bytes pass
/// 64 bits does not compile.
template <std::uint64_t Count>
  requires(Count <= std::numeric_limits<std::uint64_t>::max() / gibibyte)
[[nodiscard]] consteval byte_count gib_hundredths() noexcept {
  return byte_count{Count * gibibyte / 100U};
}

/// The runtime totals on record, one row per GPU of the shipped catalog that
/// has any (all but l40). Sources and drivers: data/README.md.
inline constexpr std::array<memory_records, 15> memory_on_record{{
    {"b300", memory_gb{288}, gib_hundredths<26769>(), gib_hundredths<26769>()},
    {"b200", memory_gb{180}, gib_hundredths<17835>(), mebibytes<182642>()},
    {"h200", memory_gb{141}, byte_count{150'021'734'400}, mebibytes<143156>()},
    {"h100-sxm", memory_gb{80}, mebibytes<81082>(), gib_hundredths<7921>()},
    {"h100-nvl", memory_gb{94}, byte_count{99'861'594'112}, gib_hundredths<9309>()},
    {"h100-pcie", memory_gb{80}, mebibytes<81008>(), mebibytes<81008>()},
    {"a100-80gb", memory_gb{80}, byte_count{84'987'740'160}, mebibytes<81251>()},
    {"a100-40gb", memory_gb{40}, mebibytes<40326>(), mebibytes<40536>()},
    {"mi300x", memory_gb{192}, gib_hundredths<19169>(), mebibytes<196592>()},
    {"rtx-pro-6000", memory_gb{96}, mebibytes<97250>(), mebibytes<97250>()},
    {"l40s", memory_gb{48}, gib_hundredths<4439>(), byte_count{47'803'596'800}},
    {"a6000", memory_gb{48}, byte_count{47'834'660'864}, mebibytes<48676>()},
    {"rtx-5090", memory_gb{32}, byte_count{33'677'180'928}, byte_count{33'680'457'728}},
    {"rtx-4090", memory_gb{24}, byte_count{25'386'352'640}, mebibytes<24563>()},
    {"l4", memory_gb{24}, gib_hundredths<2203>(), gib_hundredths<2203>()},
}};

/// A model with records: from 1 % below the least total on record (rounded
/// down to the byte), since another driver release or ECC setting can reserve
/// more than any record shows, up to the most on record.
[[nodiscard]] constexpr memory_band band_of(const memory_records& records) noexcept {
  const std::uint64_t lowest = records.lowest.value;
  const std::uint64_t margin = lowest / 100U + (lowest % 100U != 0U ? 1U : 0U);
  return memory_band{byte_count{lowest - margin}, records.highest};
}

/// A model without records: from 99 % of the nominal figure read as decimal
/// GB (10^9 bytes) to the nominal figure read as GiB (2^30 bytes). Every
/// record of data/README.md lies inside it but the L4's, below it (hence its
/// row). Nothing when the high end passes 64 bits.
[[nodiscard]] constexpr std::optional<memory_band> nominal_band(memory_gb nominal) noexcept {
  const auto high = checked_mul<std::uint64_t>(nominal.value, gibibyte);
  if (!high) {
    return std::nullopt;
  }
  // 990'000'000 < 2^30, so the low end fits wherever the high end does.
  return memory_band{byte_count{nominal.value * 990'000'000U}, byte_count{*high}};
}

/// The band for one catalog GPU: its records when the id and the nominal
/// figure both match a row of memory_on_record (a catalog that gives a known
/// id another figure is describing another board), the generic rule
/// otherwise. Nothing only when the generic band would pass 64 bits.
[[nodiscard]] constexpr std::optional<runtime_memory> runtime_memory_of(std::string_view gpu,
                                                                        memory_gb nominal) noexcept {
  for (const auto& records : memory_on_record) {
    if (records.gpu == gpu && records.nominal == nominal) {
      return runtime_memory{band_of(records), band_basis::records};
    }
  }
  const auto band = nominal_band(nominal);
  if (!band) {
    return std::nullopt;
  }
  return runtime_memory{*band, band_basis::nominal};
}

/// Where a need falls in a band.
enum class fit_verdict {
  fits,          ///< the need is at most the band's low end
  tight,         ///< above the low end, at most the high end: it depends on the board
  does_not_fit,  ///< above the high end
};

/// The verdict as outputs print it: "fits", "tight" or "does not fit".
[[nodiscard]] constexpr std::string_view verdict_name(fit_verdict verdict) noexcept {
  switch (verdict) {
    case fit_verdict::fits:
      return "fits";
    case fit_verdict::tight:
      return "tight";
    case fit_verdict::does_not_fit:
      return "does not fit";
  }
  return "unknown verdict";
}

/// A need against a band. Headroom and shortfall are both measured against
/// the band's LOW end, the memory a program can count on: one of the two is
/// zero, both when the need is exactly the low end.
struct memory_fit {
  fit_verdict verdict{fit_verdict::does_not_fit};  ///< fits, tight or does not fit
  byte_count headroom;                             ///< low - need, when the need is at most low
  byte_count shortfall;                            ///< need - low, when the need is above low
  friend constexpr bool operator==(const memory_fit&, const memory_fit&) = default;
};

/// Places `need` in `band` (see memory_fit).
[[nodiscard]] constexpr memory_fit assess_fit(byte_count need, const memory_band& band) noexcept {
  if (need <= band.low) {
    return memory_fit{fit_verdict::fits, byte_count{band.low.value - need.value}, byte_count{0}};
  }
  const fit_verdict verdict = need <= band.high ? fit_verdict::tight : fit_verdict::does_not_fit;
  return memory_fit{verdict, byte_count{0}, byte_count{need.value - band.low.value}};
}

/// The rule in one line, printed with every fit result.
inline constexpr std::string_view memory_rule_statement =
    "Memory rule (data/README.md): a need fits a GPU when it is at most the least total that GPU's runtime "
    "reported in public records of the model, less 1 %; it is tight up to the most on record and does not fit "
    "above; a model without records gets 99 % of its nominal GB (10^9 B) to its nominal read as GiB (2^30 B); "
    "headroom is counted from the low end.";

}  // namespace iteragpu::pricing

#endif  // ITERAGPU_PRICING_MEMORY_RULE_HPP
