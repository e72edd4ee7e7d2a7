// An integrator's predict-only sweep through the library, with no GPU, no
// process started and no command-line layer: a plan of four shapes of the
// synthetic network, each point predicted by the simulated caching
// allocator, one record per point kept in a new folder, then the folder
// read back and its report written (summary.csv, plot.svg, index.html).
//   sweep_predict NEW_DIR
// Prints one line per point: its index, shape, outcome and predicted peak
// reserved bytes. Exit 0 when every point has its record, 2 for a NEW_DIR
// that cannot be made, 1 for a file that cannot be written or read back.
#include <cstddef>
#include <filesystem>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <iteragpu/io.hpp>
#include <iteragpu/memory/device.hpp>
#include <iteragpu/report/sweep_errors.hpp>
#include <iteragpu/sweep/files/folder.hpp>
#include <iteragpu/sweep/files/report_files.hpp>
#include <iteragpu/sweep/points.hpp>
#include <iteragpu/sweep/prediction_runner.hpp>
#include <iteragpu/sweep/scheduler.hpp>

namespace {

namespace sw = iteragpu::sweep;

// A progress observer that says nothing: the records are printed once the
// folder is read back.
struct quiet_progress {
  void started(const sw::sweep_point& /*point*/, iteragpu::memory::device_index /*device*/) {}
  void finished(const sw::point_record& /*record*/) {}
};

}  // namespace

int main(int argc, char** argv) {
  const std::span<char*> words(argv, static_cast<std::size_t>(argc));
  if (words.size() != 2) {
    std::cerr << "usage: sweep_predict NEW_DIR\n";
    return 2;
  }
  const std::filesystem::path folder = words[1];

  // The plan: batch 1 and 2, context 16 and 32, width 64, float32.
  sw::sweep_axes axes;
  axes.batch = {1, 2};
  axes.context = {16, 32};
  auto plan = sw::make_plan(axes);
  if (!plan.has_value()) {
    std::cerr << "sweep_predict: " << iteragpu::report::words_of(plan.error()) << '\n';
    return 1;
  }

  // The folder and its points.tsv.
  auto made = sw::check_new_folder(folder);
  if (made.has_value()) {
    made = sw::create_new_folder(folder);
  }
  if (!made.has_value()) {
    std::cerr << "sweep_predict: " << iteragpu::report::words_of(made.error()) << '\n';
    return 2;
  }
  if (auto written = iteragpu::write_new_file(folder / sw::points_file, sw::points_tsv(*plan)); !written.has_value()) {
    std::cerr << "sweep_predict: " << iteragpu::describe(written.error()) << '\n';
    return 1;
  }

  // Every point predicted: no device limit and no host rule, so that none
  // is skipped; the stop request is the default one (never stop).
  sw::sweep_settings settings;
  settings.kind = sw::record_kind::prediction;
  settings.workspaces = iteragpu::memory::prediction::h200_pytorch_2_11;
  settings.outside_allocator = iteragpu::memory::prediction::h200_pytorch_2_11_outside_allocator;
  sw::prediction_runner<> runner(std::nullopt, std::nullopt);
  sw::folder_sink sink(folder, plan->size());
  quiet_progress progress;
  const auto ran = sw::run_points(*plan, {}, settings, runner, sink, progress);
  if (!ran.has_value()) {
    std::cerr << "sweep_predict: a record could not be kept: " << iteragpu::report::words_of(ran.error()) << '\n';
    return 1;
  }

  // The folder read back, as `collect` would, and its report.
  auto loaded = sw::load_folder(folder);
  if (!loaded.has_value()) {
    std::cerr << "sweep_predict: " << iteragpu::report::words_of(loaded.error()) << '\n';
    return 1;
  }
  for (const auto& record : loaded->records) {
    if (!record) {
      std::cerr << "sweep_predict: a point has no record\n";
      return 1;
    }
    std::cout << "point " << record->point.index << ": " << sw::describe(record->point) << ", "
              << sw::name_of(record->outcome) << ", predicted peak reserved "
              << (record->prediction ? std::to_string(record->prediction->peak_reserved_bytes) : std::string("none"))
              << " bytes\n";
  }
  auto report = sw::write_report({*loaded}, folder, "sweep_predict");
  if (!report.has_value()) {
    std::cerr << "sweep_predict: " << iteragpu::describe(report.error()) << '\n';
    return 1;
  }
  for (const auto& path : *report) {
    std::cout << "wrote " << path.string() << '\n';
  }
  return 0;
}
