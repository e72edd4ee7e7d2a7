#ifndef ITERAGPU_SWEEP_IMPL_PROGRESS_IPP
#define ITERAGPU_SWEEP_IMPL_PROGRESS_IPP

#include <cmath>
#include <ostream>

#include "iteragpu/config.hpp"
#include "iteragpu/sweep/progress.hpp"
#include "iteragpu/text.hpp"

// The bodies of the functions that <iteragpu/sweep/progress.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::sweep {

[[nodiscard]] ITERAGPU_INLINE std::string format_duration(double seconds) {
  const auto total = seconds > 0 && std::isfinite(seconds) ? static_cast<std::uint64_t>(std::llround(seconds)) : 0U;
  const std::uint64_t h = total / 3600;
  const std::uint64_t m = total / 60 % 60;
  const std::uint64_t s = total % 60;
  const auto two = [](std::uint64_t v) { return (v < 10 ? "0" : "") + to_decimal_string(v); };
  if (h > 0) {
    return to_decimal_string(h) + "h" + two(m) + "m" + two(s) + "s";
  }
  if (m > 0) {
    return to_decimal_string(m) + "m" + two(s) + "s";
  }
  return to_decimal_string(s) + "s";
}

[[nodiscard]] ITERAGPU_INLINE std::string outcome_text(const point_record& r) {
  switch (r.outcome) {
    case outcome_kind::measured:
      return "measured, peak reserved " + bytes_and_size_text(r.measured ? r.measured->peak_reserved_bytes : 0) +
             ", process " + seconds_text(r.process ? r.process->wall_seconds : 0);
    case outcome_kind::predicted:
      return "predicted (nothing measured), peak reserved " +
             bytes_and_size_text(r.prediction ? r.prediction->peak_reserved_bytes : 0);
    default:
      // A skip's reason starts with "skipped:"; a failure's says what ended it.
      return is_skip(r.outcome) ? r.reason : std::string(name_of(r.outcome)) + ": " + r.reason;
  }
}

[[nodiscard]] ITERAGPU_INLINE std::string fit_to(std::string text, std::size_t columns) {
  if (text.size() <= columns) {
    return text;
  }
  std::size_t cut = columns;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) {
    --cut;
  }
  text.resize(cut);
  return text;
}

[[nodiscard]] ITERAGPU_INLINE std::string bar_text(std::size_t done, std::size_t total, std::size_t width) {
  const std::size_t filled = total == 0 ? width : done * width / total;
  return "[" + std::string(filled, '#') + std::string(width - filled, '-') + "] " + to_decimal_string(done) + "/" +
         to_decimal_string(total);
}

[[nodiscard]] ITERAGPU_INLINE std::string remaining_text(double elapsed, std::size_t done, std::size_t total) {
  if (done == 0) {
    return "?";
  }
  if (done >= total) {
    return "0s";
  }
  return "~" + format_duration(elapsed / static_cast<double>(done) * static_cast<double>(total - done));
}

ITERAGPU_INLINE void progress_display::started(const sweep_point& p, device_index d) {
  if (terminal_) {
    draw(predicting_
             ? "predicting point " + to_decimal_string(p.index) + " (" + describe(p) + ")"
             : "running point " + to_decimal_string(p.index) + " on " + device_name(d) + " (" + describe(p) + ")");
  }
}

ITERAGPU_INLINE void progress_display::finished(const point_record& r) {
  ++done_;
  const std::string what = "point " + to_decimal_string(r.point.index) + " (" + describe(r.point) + ")" +
                           (r.device ? " on " + device_name(*r.device) : std::string()) + ": " + outcome_text(r);
  if (terminal_) {
    draw("last: " + what);
    return;
  }
  *out_ << "sweep: [" << done_ << "/" << total_ << "] " << what << "; elapsed " << format_duration(elapsed())
        << ", remaining " << remaining_text(elapsed(), done_, total_) << '\n';
  out_->flush();
}

ITERAGPU_INLINE void progress_display::draw(const std::string& tail) {
  const double e = elapsed();
  const std::string line = bar_text(done_, total_, 20) + "  elapsed " + format_duration(e) + "  remaining " +
                           remaining_text(e, done_, total_) + "  " + tail;
  // Carriage return and "erase to the end of the line", then the bar.
  *out_ << "\r\x1b[K" << fit_to(line, columns_ - 1);
  out_->flush();
  drawn_ = true;
}

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_IMPL_PROGRESS_IPP
