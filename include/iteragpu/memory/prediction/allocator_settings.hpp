#ifndef ITERAGPU_MEMORY_PREDICTION_ALLOCATOR_SETTINGS_HPP
#define ITERAGPU_MEMORY_PREDICTION_ALLOCATOR_SETTINGS_HPP

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "iteragpu/checked.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

/// \file
/// The settings of PyTorch's CUDA caching allocator that shape its reserved
/// memory, and a reader of the text of PYTORCH_CUDA_ALLOC_CONF (or
/// PYTORCH_ALLOC_CONF) that accepts and refuses what PyTorch does.
///
/// Source: c10/core/AllocatorConfig.{h,cpp} (ConfigTokenizer,
/// AcceleratorAllocatorConfig::parseArgs and its parse* functions,
/// roundup_power2_divisions) and c10/cuda/CUDAAllocatorConfig.{h,cpp}
/// (CUDAAllocatorConfig::parseArgs, getKeys) of pytorch/pytorch, main branch
/// as stored (the AllocatorConfig.cpp whose `>` bucket fills from the bucket
/// after the last one named; its test AllocatorConfigTest pins that).
///
/// Read as PyTorch reads it: the text is cut at `,` `:` `[` `]`, blanks are
/// dropped everywhere (also inside a word), each item is `key:value`, an
/// item may end with a comma, and a later item overrides an earlier one.
/// Keys that shape reserved memory and are modelled: max_split_size_mb,
/// max_non_split_rounding_mb, roundup_power2_divisions (`4` or
/// `[256:1,512:2,>:8]`), garbage_collection_threshold, expandable_segments,
/// backend:native. Keys PyTorch accepts that do not shape the reserved
/// memory of one device's default pools, accepted and ignored after their
/// value is checked as PyTorch checks it: release_lock_on_cudamalloc (when
/// cudaMalloc runs unlocked: threads, not sizes), pinned_use_cuda_host_register,
/// pinned_num_register_threads, pinned_use_background_threads,
/// pinned_reserve_segment_size_mb, pinned_free_catch_all (pinned host
/// memory, not the device's), graph_capture_record_stream_reuse (CUDA graph
/// capture only), and the `hip` spellings of the first two. Refused: an
/// unknown key, backend:cudaMallocAsync (another allocator), and the newer
/// keys that shape reserved memory which the simulation does not model:
/// large_segment_size_mb, per_process_memory_fraction (give the capacity to
/// the simulation instead), expandable_segments_reserve.
/// Stricter than PyTorch on the form: its tokenizer does not check that a
/// separator is the one expected, and std::stoull reads `40MB` as 40 and `-1`
/// as 2^64 - 1; here a number is decimal digits only and every separator is
/// checked.
namespace iteragpu::memory::prediction {

/// kRoundUpPowerOfTwoIntervals: the buckets of roundup_power2_divisions,
/// one per power of two from 1 MiB (2^20) to 32 GiB (2^35); a size below 1
/// MiB uses the first, a size of 32 GiB or more the last.
inline constexpr std::size_t roundup_power2_buckets = 16;
/// log2 of kRoundUpPowerOfTwoStart (1 MiB), the size of the first bucket.
inline constexpr unsigned roundup_power2_first_log2 = 20;
/// The smallest max_split_size_mb and max_non_split_rounding_mb PyTorch
/// accepts: kLargeBuffer / 1 MiB.
inline constexpr std::uint64_t smallest_split_limit_mib = 20;
/// pinned_max_register_threads(): the most pinned_num_register_threads accepts.
inline constexpr std::uint64_t most_register_threads = 128;

/// The settings that shape reserved memory, as CUDAAllocatorConfig keeps them.
struct allocator_settings {
  /// Blocks of this size or more are never split ("oversize"); none is
  /// PyTorch's SIZE_MAX (every block may be split).
  std::optional<byte_count> max_split_size{};
  /// How much larger than an oversize request a cached oversize block may be
  /// and still serve it (max_non_split_rounding_mb; 20 MiB by default).
  byte_count max_non_split_rounding{std::uint64_t{20} << 20U};
  /// The number of divisions per power of two, by bucket (see
  /// roundup_power2_buckets); 0 or 1 rounds to a multiple of 512 bytes.
  std::array<std::uint64_t, roundup_power2_buckets> roundup_power2_divisions{};
  /// A fraction in (0, 1) of the capacity above which cached blocks are
  /// freed before a new reservation; 0 when unset.
  double garbage_collection_threshold{0.0};
  /// One growing segment per stream and pool instead of a cudaMalloc per segment.
  bool expandable_segments{false};
  /// Equal when every member is equal.
  friend bool operator==(const allocator_settings&, const allocator_settings&) = default;

  /// The divisions for a request of `size` bytes (AcceleratorAllocatorConfig::roundup_power2_divisions(size)).
  [[nodiscard]] constexpr std::uint64_t divisions_for(std::uint64_t size) const noexcept {
    const auto log_size = static_cast<unsigned>(std::bit_width(size)) - 1U;  // size >= 512 when asked
    const unsigned bucket = log_size > roundup_power2_first_log2 ? log_size - roundup_power2_first_log2 : 0U;
    return roundup_power2_divisions.at(bucket < roundup_power2_buckets ? bucket : roundup_power2_buckets - 1);
  }
};

/// Why a PYTORCH_CUDA_ALLOC_CONF text was refused.
enum class alloc_conf_errc {
  unknown_key,         ///< a key PyTorch does not know
  missing_separator,   ///< a `:` after a key, a `,` between items or a `]` closing a list is missing
  missing_value,       ///< the text ends where a value was expected
  not_a_number,        ///< a number was expected (decimal digits; a fraction for the threshold)
  too_small,           ///< max_split_size_mb or max_non_split_rounding_mb below 20
  not_a_fraction,      ///< garbage_collection_threshold outside (0, 1)
  not_a_power_of_two,  ///< a division, a bucket bound or a thread count that is not a power of two
  too_many_threads,    ///< pinned_num_register_threads above 128
  not_positive,        ///< pinned_reserve_segment_size_mb of 0
  not_a_boolean,       ///< a flag other than `True` or `False`
  unknown_backend,     ///< backend other than native or cudaMallocAsync
  other_backend,       ///< backend:cudaMallocAsync: another allocator, not simulated
  not_modelled,        ///< a key that shapes reserved memory but is not simulated
};

/// A refused PYTORCH_CUDA_ALLOC_CONF text: why, the key, and the offending
/// value text (empty where there is none).
struct alloc_conf_error {
  alloc_conf_errc code{alloc_conf_errc::unknown_key};  ///< why
  std::string key;                                     ///< the key, as written (blanks dropped)
  std::string value;                                   ///< the offending text
  /// Equal when every member is equal.
  friend bool operator==(const alloc_conf_error&, const alloc_conf_error&) = default;
};

namespace detail {

// ConfigTokenizer: cut at , : [ ] (each its own token), blanks dropped.
[[nodiscard]] std::vector<std::string> alloc_conf_tokens(std::string_view text);

[[nodiscard]] inline bool is_separator(const std::string& token) noexcept {
  return token == "," || token == ":" || token == "[" || token == "]";
}

[[nodiscard]] std::optional<std::uint64_t> decimal_digits(std::string_view text) noexcept;

// A fraction as std::stod reads a plain one: digits, a point, digits.
[[nodiscard]] std::optional<double> decimal_fraction(std::string_view text) noexcept;

class alloc_conf_reader {
 public:
  explicit alloc_conf_reader(std::string_view text) : tokens_(alloc_conf_tokens(text)) {}

  [[nodiscard]] result<allocator_settings, alloc_conf_error> read();

 private:
  using step = result<void, alloc_conf_error>;

  [[nodiscard]] unexpected<alloc_conf_error> fail(alloc_conf_errc code, std::string value) const {
    return unexpected{alloc_conf_error{code, key_, std::move(value)}};
  }

  // checkToken(++i, ":") then the value token, which may not be a separator.
  [[nodiscard]] result<std::string, alloc_conf_error> value(bool list_may_open = false);

  [[nodiscard]] result<std::uint64_t, alloc_conf_error> number();

  [[nodiscard]] result<bool, alloc_conf_error> boolean();

  // parseMaxSplitSize / parseMaxNonSplitRoundingSize: at least 20 MiB,
  // clamped to SIZE_MAX / 1 MiB before the multiplication.
  [[nodiscard]] result<byte_count, alloc_conf_error> mebibytes_at_least_20();

  [[nodiscard]] step item(allocator_settings& settings);

  // The keys accepted and ignored, their values checked as PyTorch checks
  // them; the keys refused as not modelled; the others unknown.
  [[nodiscard]] step ignored_item();

  // parseRoundUpPower2Divisions: `n` (a power of two, every bucket), or a
  // list of `bound:n` (bound a power of two in MiB, its bucket log2(bound)
  // clamped to the last; n a power of two or 0), the first bound also
  // filling the buckets below it, and `>:n` filling every bucket after the
  // last bound named.
  [[nodiscard]] step divisions(std::array<std::uint64_t, roundup_power2_buckets>& buckets);

  [[nodiscard]] step division_list(std::array<std::uint64_t, roundup_power2_buckets>& buckets);

  // One `bound:n` of the list, the bound at the current token.
  [[nodiscard]] step division_entry(std::array<std::uint64_t, roundup_power2_buckets>& buckets, bool& first,
                                    std::size_t& last_bucket);

  std::vector<std::string> tokens_;
  std::size_t at_{0};
  std::string key_;
};

}  // namespace detail

/// The settings a PYTORCH_CUDA_ALLOC_CONF text sets, starting from PyTorch's
/// defaults (the empty text gives them), or why PyTorch would refuse the
/// text (or, for a few keys, why the simulation cannot follow it); see the
/// file's description for the keys.
[[nodiscard]] inline result<allocator_settings, alloc_conf_error> parse_alloc_conf(std::string_view text) {
  return detail::alloc_conf_reader{text}.read();
}

}  // namespace iteragpu::memory::prediction

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/prediction/impl/allocator_settings.ipp"
#endif

#endif  // ITERAGPU_MEMORY_PREDICTION_ALLOCATOR_SETTINGS_HPP
