#ifndef ITERAGPU_SWEEP_PROGRESS_HPP
#define ITERAGPU_SWEEP_PROGRESS_HPP

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "iteragpu/memory/device.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/sweep/summary.hpp"
#include "iteragpu/text.hpp"

/// \file
/// The sweep's progress on stderr: on a terminal, one bar redrawn in place
/// (point i of N, elapsed and remaining time, the last point's outcome);
/// elsewhere (a file, a pipe, a batch system's log), one plain line per
/// point.
namespace iteragpu::sweep {

/// "0s", "59s", "1m02s", "1h02m03s" (whole seconds, rounded); a negative or
/// non-finite time reads "0s".
[[nodiscard]] inline std::string format_duration(double seconds) {
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

/// One line about a point's outcome, labelled so that a prediction never
/// reads as a measurement: the peak reserved of a measured or predicted
/// point, the reason of a skip, the outcome and reason of a failure.
[[nodiscard]] inline std::string outcome_text(const point_record& r) {
  switch (r.outcome) {
    case outcome_kind::measured:
      return "measured, peak reserved " + to_decimal_string(r.measured ? r.measured->peak_reserved_bytes : 0) +
             " bytes (" + size_text(r.measured ? r.measured->peak_reserved_bytes : 0) + "), process " +
             seconds_text(r.process ? r.process->wall_seconds : 0);
    case outcome_kind::predicted:
      return "predicted (nothing measured), peak reserved " +
             to_decimal_string(r.prediction ? r.prediction->peak_reserved_bytes : 0) + " bytes (" +
             size_text(r.prediction ? r.prediction->peak_reserved_bytes : 0) + ")";
    default:
      // A skip's reason starts with "skipped:"; a failure's says what ended it.
      return is_skip(r.outcome) ? r.reason : std::string(name_of(r.outcome)) + ": " + r.reason;
  }
}

/// `text` cut to `columns` bytes, never inside a UTF-8 sequence.
[[nodiscard]] inline std::string fit_to(std::string text, std::size_t columns) {
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

/// "[######--------------] 3/10": `done` of `total` points as a bar of
/// `width` cells (full when `total` is 0).
[[nodiscard]] inline std::string bar_text(std::size_t done, std::size_t total, std::size_t width) {
  const std::size_t filled = total == 0 ? width : done * width / total;
  return "[" + std::string(filled, '#') + std::string(width - filled, '-') + "] " + to_decimal_string(done) + "/" +
         to_decimal_string(total);
}

/// The remaining time, from the mean time per finished point so far:
/// "~1m02s", "?" before a point has finished, "0s" once every one has.
[[nodiscard]] inline std::string remaining_text(double elapsed, std::size_t done, std::size_t total) {
  if (done == 0) {
    return "?";
  }
  if (done >= total) {
    return "0s";
  }
  return "~" + format_duration(elapsed / static_cast<double>(done) * static_cast<double>(total - done));
}

/// The sweep's progress on a stream (a progress_observer): on a terminal,
/// one bar redrawn in place; elsewhere, one line per finished point. The
/// stream must outlive it.
class progress_display {
 public:
  /// `terminal`: whether `out` is a terminal; `total`: the points this run
  /// will record; `columns`: the terminal's width, 20 at least (the bar never
  /// wraps); `predicting`: the points are predicted, nothing runs on a device.
  progress_display(std::ostream& out, bool terminal, std::size_t total, std::size_t columns = 80,
                   bool predicting = false)
      : out_(&out),
        terminal_(terminal),
        predicting_(predicting),
        total_(total),
        columns_(columns < 20 ? 20 : columns) {}

  /// On a terminal, redraws the bar with point `p` running on device `d`
  /// (or being predicted); elsewhere, writes nothing.
  void started(const sweep_point& p, device_index d) {
    if (terminal_) {
      draw(predicting_ ? "predicting point " + to_decimal_string(p.index) + " (" + describe(p) + ")"
                       : "running point " + to_decimal_string(p.index) + " on " + device_name(d) + " (" +
                             describe(p) + ")");
    }
  }

  /// Counts the point of `r` as done: on a terminal the bar shows it as the
  /// last; elsewhere one line with its outcome, the elapsed and the remaining
  /// time.
  void finished(const point_record& r) {
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

  /// Ends the bar's line, so that what follows starts on a line of its own
  /// (nothing when no bar was drawn).
  void close() {
    if (terminal_ && drawn_) {
      *out_ << '\n';
      out_->flush();
      drawn_ = false;
    }
  }

 private:
  [[nodiscard]] double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  void draw(const std::string& tail) {
    const double e = elapsed();
    const std::string line = bar_text(done_, total_, 20) + "  elapsed " + format_duration(e) + "  remaining " +
                             remaining_text(e, done_, total_) + "  " + tail;
    // Carriage return and "erase to the end of the line", then the bar.
    *out_ << "\r\x1b[K" << fit_to(line, columns_ - 1);
    out_->flush();
    drawn_ = true;
  }

  std::ostream* out_;
  bool terminal_;
  bool predicting_;
  std::size_t total_;
  std::size_t columns_;
  std::size_t done_{0};
  bool drawn_{false};
  std::chrono::steady_clock::time_point start_{std::chrono::steady_clock::now()};
};

}  // namespace iteragpu::sweep

#endif  // ITERAGPU_SWEEP_PROGRESS_HPP
