#ifndef ITERAGPU_SWEEP_PROGRESS_HPP
#define ITERAGPU_SWEEP_PROGRESS_HPP

#include <chrono>
#include <cstddef>
#include <cstdint>
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
[[nodiscard]] std::string format_duration(double seconds);

/// One line about a point's outcome, labelled so that a prediction never
/// reads as a measurement: the peak reserved of a measured or predicted
/// point, the reason of a skip, the outcome and reason of a failure.
[[nodiscard]] std::string outcome_text(const point_record& r);

/// `text` cut to `columns` bytes, never inside a UTF-8 sequence.
[[nodiscard]] std::string fit_to(std::string text, std::size_t columns);

/// "[######--------------] 3/10": `done` of `total` points as a bar of
/// `width` cells (full when `total` is 0).
[[nodiscard]] std::string bar_text(std::size_t done, std::size_t total, std::size_t width);

/// The remaining time, from the mean time per finished point so far:
/// "~1m02s", "?" before a point has finished, "0s" once every one has.
[[nodiscard]] std::string remaining_text(double elapsed, std::size_t done, std::size_t total);

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
  void started(const sweep_point& p, device_index d);

  /// Counts the point of `r` as done: on a terminal the bar shows it as the
  /// last; elsewhere one line with its outcome, the elapsed and the remaining
  /// time.
  void finished(const point_record& r);

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

  void draw(const std::string& tail);

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

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/sweep/impl/progress.ipp"
#endif

#endif  // ITERAGPU_SWEEP_PROGRESS_HPP
