#ifndef ITERAGPU_MEMORY_PREDICTION_IMPL_ALLOCATOR_SETTINGS_IPP
#define ITERAGPU_MEMORY_PREDICTION_IMPL_ALLOCATOR_SETTINGS_IPP

#include <charconv>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/prediction/allocator_settings.hpp"

// The bodies of the functions that <iteragpu/memory/prediction/allocator_settings.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory::prediction::detail {

[[nodiscard]] ITERAGPU_INLINE std::vector<std::string> alloc_conf_tokens(std::string_view text) {
  std::vector<std::string> tokens;
  std::string word;
  for (const char c : text) {
    if (c == ',' || c == ':' || c == '[' || c == ']') {
      if (!word.empty()) {
        tokens.push_back(std::move(word));
        word.clear();
      }
      tokens.emplace_back(1, c);
    } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') {
      word += c;
    }
  }
  if (!word.empty()) {
    tokens.push_back(std::move(word));
  }
  return tokens;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> decimal_digits(std::string_view text) noexcept {
  if (text.empty() || text.front() < '0' || text.front() > '9') {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<double> decimal_fraction(std::string_view text) noexcept {
  if (text.empty() || ((text.front() < '0' || text.front() > '9') && text.front() != '.')) {
    return std::nullopt;
  }
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed);
  if (error != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

[[nodiscard]] ITERAGPU_INLINE result<allocator_settings, alloc_conf_error> alloc_conf_reader::read() {
  allocator_settings settings;
  for (; at_ < tokens_.size(); ++at_) {
    key_ = tokens_[at_];
    if (auto outcome = item(settings); !outcome.has_value()) {
      return unexpected{outcome.error()};
    }
    if (at_ + 1 < tokens_.size()) {
      ++at_;
      if (tokens_[at_] != ",") {
        return fail(alloc_conf_errc::missing_separator, tokens_[at_]);
      }
    }
  }
  return settings;
}

[[nodiscard]] ITERAGPU_INLINE result<std::string, alloc_conf_error> alloc_conf_reader::value(bool list_may_open) {
  ++at_;
  if (at_ >= tokens_.size()) {
    return fail(alloc_conf_errc::missing_separator, "");
  }
  if (tokens_[at_] != ":") {
    return fail(alloc_conf_errc::missing_separator, tokens_[at_]);
  }
  ++at_;
  if (at_ >= tokens_.size()) {
    return fail(alloc_conf_errc::missing_value, "");
  }
  if (is_separator(tokens_[at_]) && !(list_may_open && tokens_[at_] == "[")) {
    return fail(alloc_conf_errc::missing_value, tokens_[at_]);
  }
  return tokens_[at_];
}

[[nodiscard]] ITERAGPU_INLINE result<std::uint64_t, alloc_conf_error> alloc_conf_reader::number() {
  auto text = value();
  if (!text.has_value()) {
    return unexpected{text.error()};
  }
  const auto n = decimal_digits(*text);
  if (!n) {
    return fail(alloc_conf_errc::not_a_number, *text);
  }
  return *n;
}

[[nodiscard]] ITERAGPU_INLINE result<bool, alloc_conf_error> alloc_conf_reader::boolean() {
  auto text = value();
  if (!text.has_value()) {
    return unexpected{text.error()};
  }
  if (*text == "True" || *text == "False") {
    return *text == "True";
  }
  return fail(alloc_conf_errc::not_a_boolean, *text);
}

[[nodiscard]] ITERAGPU_INLINE result<byte_count, alloc_conf_error> alloc_conf_reader::mebibytes_at_least_20() {
  const auto n = number();
  if (!n.has_value()) {
    return unexpected{n.error()};
  }
  if (*n < smallest_split_limit_mib) {
    return fail(alloc_conf_errc::too_small, tokens_[at_]);
  }
  constexpr std::uint64_t mib = std::uint64_t{1} << 20U;
  constexpr std::uint64_t most = UINT64_MAX / mib;
  return byte_count{(*n < most ? *n : most) * mib};
}

[[nodiscard]] ITERAGPU_INLINE alloc_conf_reader::step alloc_conf_reader::item(allocator_settings& settings) {
  if (key_ == "max_split_size_mb") {
    const auto limit = mebibytes_at_least_20();
    if (!limit.has_value()) {
      return unexpected{limit.error()};
    }
    settings.max_split_size = *limit;
    return {};
  }
  if (key_ == "max_non_split_rounding_mb") {
    const auto limit = mebibytes_at_least_20();
    if (!limit.has_value()) {
      return unexpected{limit.error()};
    }
    settings.max_non_split_rounding = *limit;
    return {};
  }
  if (key_ == "garbage_collection_threshold") {
    auto text = value();
    if (!text.has_value()) {
      return unexpected{text.error()};
    }
    const auto fraction = decimal_fraction(*text);
    if (!fraction) {
      return fail(alloc_conf_errc::not_a_number, *text);
    }
    if (!(*fraction > 0.0 && *fraction < 1.0)) {
      return fail(alloc_conf_errc::not_a_fraction, *text);
    }
    settings.garbage_collection_threshold = *fraction;
    return {};
  }
  if (key_ == "roundup_power2_divisions") {
    return divisions(settings.roundup_power2_divisions);
  }
  if (key_ == "expandable_segments") {
    const auto flag = boolean();
    if (!flag.has_value()) {
      return unexpected{flag.error()};
    }
    settings.expandable_segments = *flag;
    return {};
  }
  if (key_ == "backend") {
    auto text = value();
    if (!text.has_value()) {
      return unexpected{text.error()};
    }
    if (*text == "native") {
      return {};
    }
    return fail(*text == "cudaMallocAsync" ? alloc_conf_errc::other_backend : alloc_conf_errc::unknown_backend, *text);
  }
  return ignored_item();
}

[[nodiscard]] ITERAGPU_INLINE alloc_conf_reader::step alloc_conf_reader::ignored_item() {
  if (key_ == "release_lock_on_cudamalloc" || key_ == "release_lock_on_hipmalloc" ||
      key_ == "pinned_use_cuda_host_register" || key_ == "pinned_use_hip_host_register" ||
      key_ == "pinned_use_background_threads" || key_ == "pinned_free_catch_all" ||
      key_ == "graph_capture_record_stream_reuse") {
    const auto flag = boolean();
    return flag.has_value() ? step{} : step{unexpected{flag.error()}};
  }
  if (key_ == "pinned_num_register_threads") {
    const auto n = number();
    if (!n.has_value()) {
      return unexpected{n.error()};
    }
    if (!std::has_single_bit(*n)) {
      return fail(alloc_conf_errc::not_a_power_of_two, tokens_[at_]);
    }
    if (*n > most_register_threads) {
      return fail(alloc_conf_errc::too_many_threads, tokens_[at_]);
    }
    return {};
  }
  if (key_ == "pinned_reserve_segment_size_mb") {
    const auto n = number();
    if (!n.has_value()) {
      return unexpected{n.error()};
    }
    return *n > 0 ? step{} : step{fail(alloc_conf_errc::not_positive, tokens_[at_])};
  }
  if (key_ == "large_segment_size_mb" || key_ == "per_process_memory_fraction" ||
      key_ == "expandable_segments_reserve") {
    return fail(alloc_conf_errc::not_modelled, "");
  }
  return fail(alloc_conf_errc::unknown_key, "");
}

[[nodiscard]] ITERAGPU_INLINE alloc_conf_reader::step alloc_conf_reader::divisions(
    std::array<std::uint64_t, roundup_power2_buckets>& buckets) {
  auto text = value(true);
  if (!text.has_value()) {
    return unexpected{text.error()};
  }
  if (*text != "[") {
    const auto n = decimal_digits(*text);
    if (!n) {
      return fail(alloc_conf_errc::not_a_number, *text);
    }
    if (!std::has_single_bit(*n)) {
      return fail(alloc_conf_errc::not_a_power_of_two, *text);
    }
    buckets.fill(*n);
    return {};
  }
  return division_list(buckets);
}

[[nodiscard]] ITERAGPU_INLINE alloc_conf_reader::step alloc_conf_reader::division_list(
    std::array<std::uint64_t, roundup_power2_buckets>& buckets) {
  bool first = true;
  std::size_t last_bucket = 0;
  for (;;) {
    ++at_;
    if (at_ >= tokens_.size()) {
      return fail(alloc_conf_errc::missing_separator, "");
    }
    if (tokens_[at_] == "]") {
      return {};
    }
    if (auto entry = division_entry(buckets, first, last_bucket); !entry.has_value()) {
      return entry;
    }
    if (at_ + 1 < tokens_.size() && tokens_[at_ + 1] == "]") {
      continue;
    }
    ++at_;
    if (at_ >= tokens_.size() || tokens_[at_] != ",") {
      return fail(alloc_conf_errc::missing_separator, at_ < tokens_.size() ? tokens_[at_] : "");
    }
  }
}

[[nodiscard]] ITERAGPU_INLINE alloc_conf_reader::step alloc_conf_reader::division_entry(
    std::array<std::uint64_t, roundup_power2_buckets>& buckets, bool& first, std::size_t& last_bucket) {
  const std::string bound = tokens_[at_];
  if (is_separator(bound)) {
    return fail(alloc_conf_errc::missing_value, bound);
  }
  const auto n = number();
  if (!n.has_value()) {
    return unexpected{n.error()};
  }
  if (*n != 0 && !std::has_single_bit(*n)) {
    return fail(alloc_conf_errc::not_a_power_of_two, tokens_[at_]);
  }
  if (bound == ">") {
    for (std::size_t b = last_bucket + 1; b < buckets.size(); ++b) {
      buckets.at(b) = *n;
    }
    return {};
  }
  const auto bound_mib = decimal_digits(bound);
  if (!bound_mib) {
    return fail(alloc_conf_errc::not_a_number, bound);
  }
  if (!std::has_single_bit(*bound_mib)) {
    return fail(alloc_conf_errc::not_a_power_of_two, bound);
  }
  const auto log_bound = static_cast<std::size_t>(std::bit_width(*bound_mib)) - 1;
  const std::size_t bucket = log_bound < buckets.size() ? log_bound : buckets.size() - 1;
  if (first) {
    for (std::size_t b = 0; b < bucket; ++b) {
      buckets.at(b) = *n;
    }
    first = false;
  }
  buckets.at(bucket) = *n;
  last_bucket = bucket;
  return {};
}

}  // namespace iteragpu::memory::prediction::detail

#endif  // ITERAGPU_MEMORY_PREDICTION_IMPL_ALLOCATOR_SETTINGS_IPP
