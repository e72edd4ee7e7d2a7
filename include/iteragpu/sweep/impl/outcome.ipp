#ifndef ITERAGPU_SWEEP_IMPL_OUTCOME_IPP
#define ITERAGPU_SWEEP_IMPL_OUTCOME_IPP

#include <algorithm>

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/units.hpp"

// The bodies of the functions that <iteragpu/sweep/outcome.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE std::string_view name_of(outcome_kind k) noexcept {
  for (const auto& [kind, name] : outcome_names) {
    if (kind == k) {
      return name;
    }
  }
  return "failed";
}

[[nodiscard]] ITERAGPU_INLINE std::optional<outcome_kind> parse_outcome(std::string_view text) noexcept {
  for (const auto& [kind, name] : outcome_names) {
    if (name == text) {
      return kind;
    }
  }
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE bool is_skip(outcome_kind k) noexcept {
  return k == outcome_kind::skipped_device_memory || k == outcome_kind::skipped_host_memory ||
         k == outcome_kind::skipped_after_failure || k == outcome_kind::skipped_unpredictable;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<host_need> predict_host_need(const memory::synthetic_shape& shape,
                                                                         memory::element_type dtype) {
  const auto build = memory::summarize_model(shape, memory::element_type::float32);
  if (!build) {
    return std::nullopt;
  }
  host_need need{build->parameter_bytes, 0, build->parameter_bytes};
  if (dtype != memory::element_type::float32) {
    // [4w, w] elements, within int64 since the whole float32 model is.
    need.converted_copy = shape.width * memory::hidden_multiplier * shape.width * memory::bytes_per_element(dtype);
    const auto total = checked_add(need.float32_build, need.converted_copy);
    if (!total) {
      return std::nullopt;
    }
    need.total = *total;
  }
  return need;
}

[[nodiscard]] ITERAGPU_INLINE std::string reason_of(const point_prediction_error& e) {
  return e.failure ? e.failure->message : std::string("the model or its activations would take more than 2^63-1 bytes");
}

[[nodiscard]] ITERAGPU_INLINE result<point_prediction, point_prediction_error> predict_point(
    const sweep_point& p, const memory::prediction::blas_workspaces& w) {
  const auto host = predict_host_need(p.shape, p.dtype);
  if (!host) {
    return unexpected{point_prediction_error{}};
  }
  const protocol_plan plan{p.warmup, p.repeats.count.value_or(1)};
  auto rows = memory::prediction::predict_synthetic(p.shape, p.dtype, w, plan);
  if (!rows.has_value()) {
    return unexpected{point_prediction_error{rows.error()}};
  }
  point_prediction out;
  out.host = *host;
  for (const auto& row : *rows) {
    out.peak_allocated_bytes = std::max(out.peak_allocated_bytes, row.peak_allocated_bytes);
    out.peak_reserved_bytes = std::max(out.peak_reserved_bytes, row.peak_reserved_bytes);
  }
  out.rows = std::move(*rows);
  return out;
}

[[nodiscard]] ITERAGPU_INLINE std::string end_without_exit_text(std::optional<int> signal) {
  return signal ? "ended by signal " + std::to_string(*signal) : std::string("ended without a readable exit status");
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::string> device_skip_reason(const point_prediction& p,
                                                                            byte_count outside,
                                                                            std::uint64_t free_bytes) {
  const auto need = checked_add(p.peak_reserved_bytes, outside.value);
  if (need && *need <= free_bytes) {
    return std::nullopt;
  }
  return "skipped: predicted " + (need ? to_decimal_string(*need) : std::string("more than 2^64")) + " bytes > free " +
         to_decimal_string(free_bytes) + " bytes (peak reserved " + to_decimal_string(p.peak_reserved_bytes) +
         " + outside the allocator " + to_decimal_string(outside.value) + ")";
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::string> host_skip_reason(const host_need& need,
                                                                          std::uint64_t available) {
  if (need.total <= available) {
    return std::nullopt;
  }
  return "skipped: predicted host " + to_decimal_string(need.total) + " bytes > available " +
         to_decimal_string(available) + " bytes (float32 build on the CPU " + to_decimal_string(need.float32_build) +
         " + converted copy " + to_decimal_string(need.converted_copy) + ")";
}

[[nodiscard]] ITERAGPU_INLINE bool at_least_as_large(const sweep_point& larger, const sweep_point& smaller) noexcept {
  return larger.shape.batch >= smaller.shape.batch && larger.shape.context >= smaller.shape.context &&
         larger.shape.width >= smaller.shape.width &&
         memory::bytes_per_element(larger.dtype) >= bytes_per_element(smaller.dtype);
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::string> cut_off_reason(const sweep_point& p,
                                                                        const std::vector<point_record>& failures) {
  for (const auto& f : failures) {
    if (stops_larger_points(f.outcome) && at_least_as_large(p, f.point)) {
      return "skipped: point " + to_decimal_string(f.point.index) + " (" + describe(f.point) + ") ended with " +
             std::string(name_of(f.outcome)) +
             " and this point is at least as large in batch, context, width and bytes per element";
    }
  }
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE outcome_kind exit_3_outcome(std::string_view stderr_line) {
  std::string lower(stderr_line);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  return lower.find("out of memory") != std::string::npos ? outcome_kind::out_of_memory
                                                          : outcome_kind::failed_while_measuring;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> parse_mem_available(std::string_view meminfo) {
  constexpr std::string_view key = "MemAvailable:";
  std::size_t at = 0;
  while (at < meminfo.size()) {
    const std::size_t end = std::min(meminfo.find('\n', at), meminfo.size());
    std::string_view line = meminfo.substr(at, end - at);
    at = end + 1;
    if (!line.starts_with(key)) {
      continue;
    }
    line.remove_prefix(key.size());
    while (!line.empty() && line.front() == ' ') {
      line.remove_prefix(1);
    }
    if (!line.ends_with(" kB")) {
      return std::nullopt;
    }
    const auto kib = parse_unsigned(line.substr(0, line.size() - 3));
    const auto bytes = kib.has_value() ? checked_mul<std::uint64_t>(*kib, 1024) : std::nullopt;
    return bytes;
  }
  return std::nullopt;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::uint64_t> read_mem_available(const std::filesystem::path& meminfo) {
  const auto text = read_file_within(meminfo, std::size_t{mebibyte});
  return text.has_value() ? parse_mem_available(*text) : std::nullopt;
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_IMPL_OUTCOME_IPP
