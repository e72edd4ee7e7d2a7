#ifndef ITERAGPU_REPORT_IMPL_STATISTICS_IPP
#define ITERAGPU_REPORT_IMPL_STATISTICS_IPP

#include <iomanip>
#include <ostream>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/report/statistics.hpp"

// The bodies of the functions that <iteragpu/report/statistics.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report::detail {

/// `value` applied to the reading, or JSON null when there is none.
template <class T, class Value>
[[nodiscard]] boost::json::value reading_json(const memory::gpu_reading<T>& r, Value value) {
  return r ? boost::json::value(value(*r)) : boost::json::value(nullptr);
}

}  // namespace iteragpu::report::detail

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE boost::json::value to_json(const std::optional<memory::sample_summary>& s) {
  if (!s) {
    return nullptr;
  }
  boost::json::object o{{"count", s->count},
                        {"min", s->min},
                        {"p10", s->p10},
                        {"p25", s->p25},
                        {"median", s->median},
                        {"p75", s->p75},
                        {"p90", s->p90},
                        {"max", s->max},
                        {"mean", s->mean},
                        {"standard_deviation", optional_number(s->standard_deviation)},
                        {"iqr_over_median", optional_number(s->iqr_over_median)}};
  o["noise"] = s->noise ? boost::json::value(name_of(*s->noise)) : boost::json::value(nullptr);
  if (s->median_ci) {
    o["median_ci"] = {{"level", memory::median_confidence_level},
                      {"lower", s->median_ci->lower},
                      {"upper", s->median_ci->upper},
                      {"lower_rank", s->median_ci->ranks.lower},
                      {"upper_rank", s->median_ci->ranks.upper}};
  } else {
    o["median_ci"] = nullptr;
  }
  return o;
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object noise_thresholds_json() {
  return {{"noisy_above", static_cast<double>(memory::noisy_above_percent) / 100.0},
          {"very_noisy_above", static_cast<double>(memory::very_noisy_above_percent) / 100.0}};
}

[[nodiscard]] ITERAGPU_INLINE boost::json::value to_json(const std::optional<memory::gpu_state>& state) {
  if (!state) {
    return nullptr;
  }
  boost::json::object o;
  o["sm_clock_mhz"] = detail::reading_json(state->sm_clock, [](memory::megahertz m) { return m.value; });
  o["memory_clock_mhz"] = detail::reading_json(state->memory_clock, [](memory::megahertz m) { return m.value; });
  o["power_draw_mw"] = detail::reading_json(state->power_draw, [](memory::milliwatts m) { return m.value; });
  o["temperature_c"] = detail::reading_json(state->temperature, [](memory::degrees_celsius c) { return c.value; });
  if (state->clock_events) {
    boost::json::array names;
    for (const auto& name : state->clock_events->names()) {
      names.emplace_back(name);
    }
    o["clock_event_reasons"] = std::move(names);
  } else {
    o["clock_event_reasons"] = nullptr;
  }
  boost::json::object unavailable;
  const auto note = [&](std::string_view key, const auto& reading) {
    if (!reading) {
      unavailable[key] = describe(reading.error());
    }
  };
  note("sm_clock_mhz", state->sm_clock);
  note("memory_clock_mhz", state->memory_clock);
  note("power_draw_mw", state->power_draw);
  note("temperature_c", state->temperature);
  note("clock_event_reasons", state->clock_events);
  o["unavailable"] = std::move(unavailable);
  return o;
}

ITERAGPU_INLINE void write_summary(std::ostream& out, std::string_view label,
                                   const std::optional<memory::sample_summary>& s) {
  out << "  " << label << ": ";
  if (!s) {
    out << "no sample\n";
    return;
  }
  const auto old_flags = out.flags();
  const auto old_precision = out.precision();
  out << std::scientific << std::setprecision(3) << "n=" << s->count << " median " << s->median << " s";
  if (s->median_ci) {
    out << " [95 % CI " << s->median_ci->lower << ", " << s->median_ci->upper << "]";
  } else {
    out << " [no 95 % CI with " << s->count << " samples]";
  }
  out << " min " << s->min << " max " << s->max;
  if (s->iqr_over_median) {
    out << std::fixed << std::setprecision(1) << " IQR/median " << *s->iqr_over_median * 100.0 << " % "
        << name_of(*s->noise);
  }
  out << '\n';
  out.flags(old_flags);
  out.precision(old_precision);
}

}  // namespace iteragpu::report

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE boost::json::value optional_number(const std::optional<double>& v) {
  return v ? boost::json::value(*v) : boost::json::value(nullptr);
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_STATISTICS_IPP
