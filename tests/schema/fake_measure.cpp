// iteragpu_fake_measure [--fake-time-scale X] [--fake-driver V] MEASURE-FLAGS...
//
// `mesure_memoire measure` over a runtime that measures nothing, so that the
// tests (and whoever refreshes tests/data/measurements/) get real schema-2
// files on a machine without a GPU. Its rows are the prediction's bytes
// (so the file's prediction is exact), with made-up times and GPU states:
// every warm_forward time is a base time x the scale x a small fixed
// jitter, repeat 3 is taken under sw_power_cap, and the power draw of
// model_load is unreadable. The environment says it is a fake.
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iostream>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <cli/gpu_commands.hpp>
#include <iteragpu/memory/prediction/outside_allocator.hpp>
#include <iteragpu/memory/prediction/synthetic_prediction.hpp>
#include <iteragpu/memory/prediction/workspace.hpp>
#include <iteragpu/memory/torchscript_measurement.hpp>

namespace {

// Relative deviations of the warm_forward repeats, in turn: within
// -0.3 % and +0.4 % of the base, so that `--repeats auto` converges at its
// tenth repeat with the default --max-noise of 1 %.
constexpr std::array<double, 7> jitter{0.0, 0.002, -0.003, 0.001, -0.001, 0.004, -0.002};

constexpr std::uint64_t sw_power_cap = 0x4;
constexpr std::uint64_t gpu_idle = 0x1;

struct fake_runtime {
  double time_scale{1.0};
  std::string driver{"580.00.00"};

  [[nodiscard]] iteragpu::memory::environment_report environment(iteragpu::memory::device_index d) const {
    iteragpu::memory::environment_report r;
    r.compiler = "fake runtime of tests/schema/fake_measure.cpp (nothing was measured)";
    r.cxx_standard = __cplusplus;
    r.libtorch_available = true;
    r.libtorch_version = "2.11.0";
    r.build = iteragpu::memory::runtime_build{iteragpu::memory::gpu_platform::cuda, "13.0"};
    r.gpus.push_back(
        iteragpu::memory::gpu_description{iteragpu::memory::device_index{0}, "fake GPU", "9.0", 150'109'880'320});
    r.device.requested = d;
    r.device.available = d.value == 0;
    if (r.device.available) {
      r.device.name = "fake GPU";
      r.device.capability = "9.0";
      r.device.free_memory_bytes = 149'557'477'376;
      r.device.total_memory_bytes = 150'109'880'320;
    } else {
      r.device.reason = iteragpu::memory::device_name(d) + " is not visible; visible GPUs: cuda:0 (fake GPU)";
    }
    iteragpu::memory::management_report m;
    m.driver_version = driver;
    m.nvml_version = "13." + driver;
    m.gpus.push_back(
        iteragpu::memory::gpu_facts{iteragpu::memory::enablement::enabled, iteragpu::memory::enablement::disabled,
                                    iteragpu::memory::enablement::enabled, iteragpu::memory::milliwatts{700'000},
                                    iteragpu::memory::megahertz{1980}, iteragpu::memory::megahertz{3201}});
    r.management = std::move(m);
    return r;
  }

  [[nodiscard]] static std::optional<iteragpu::memory::prediction::blas_workspaces> blas_workspaces() {
    return iteragpu::memory::prediction::h200_pytorch_2_11;
  }

  [[nodiscard]] static std::vector<iteragpu::memory::allocator_setting> allocator_settings() {
    return {{"expandable_segments", "False"}, {"max_split_size_mb", "unlimited"}};
  }

  [[nodiscard]] iteragpu::result<iteragpu::memory::measurement, iteragpu::memory::measure_error> measure_synthetic(
      const iteragpu::memory::synthetic_run& run) const {
    // The base warm pass: the network's 16 b c w^2 operations at 700 TFLOP/s,
    // plus 30 us of launches.
    const double operations = 16.0 * static_cast<double>(run.shape.batch) * static_cast<double>(run.shape.context) *
                              static_cast<double>(run.shape.width) * static_cast<double>(run.shape.width);
    const double base = (operations / 700e12 + 30e-6) * time_scale;
    // Predicted warm_forward rows are all alike: one is predicted, and
    // repeated as many times as the run asks.
    const iteragpu::memory::protocol_plan plan{run.plan.warmup, 1, std::nullopt};
    auto predicted = iteragpu::memory::prediction::predict_synthetic(
        run.shape, run.dtype, iteragpu::memory::prediction::h200_pytorch_2_11, plan);
    if (!predicted) {
      return iteragpu::unexpected{
          iteragpu::memory::measure_error{iteragpu::memory::phase_kind::model_load, predicted.error().message}};
    }
    const iteragpu::memory::phase_row warm = predicted->back();
    predicted->pop_back();
    iteragpu::memory::measurement m;
    for (auto& row : *predicted) {
      row.gpu_seconds =
          base * (row.phase == iteragpu::memory::phase_kind::warmup ? static_cast<double>(run.plan.warmup) : 20.0);
      m.phases.push_back(finished(row));
    }
    std::vector<double> series;
    double elapsed = 0.0;
    while (run.plan.until ? !m.stopped_by : series.size() < run.plan.repeats) {
      iteragpu::memory::phase_row row = warm;
      row.repeat = series.size();
      row.gpu_seconds = base * (1.0 + jitter[series.size() % jitter.size()]);
      m.phases.push_back(finished(row));
      series.push_back(row.gpu_seconds);
      elapsed += m.phases.back().seconds;
      if (run.plan.until) {
        m.stopped_by = run.plan.until->decide(series, std::chrono::duration<double>(elapsed));
      }
    }
    return m;
  }

  // A TorchScript module's rows: those of the small synthetic network stand
  // in for them (the module file is checked by the command line, never loaded).
  [[nodiscard]] iteragpu::result<iteragpu::memory::measurement, iteragpu::memory::torchscript_run_error>
  measure_torchscript(const iteragpu::memory::torchscript_run& run) const {
    auto rows = measure_synthetic(
        iteragpu::memory::synthetic_run{run.device, {1, 16, 64}, iteragpu::memory::element_type::float32, run.plan});
    if (!rows) {
      return iteragpu::unexpected{iteragpu::memory::torchscript_run_error{
          iteragpu::memory::torchscript_run_errc::phase_failed, rows.error().phase, rows.error().message}};
    }
    return std::move(*rows);
  }

 private:
  // The row with its wall time, device memory and GPU state.
  [[nodiscard]] static iteragpu::memory::phase_row finished(iteragpu::memory::phase_row row) {
    row.seconds = row.gpu_seconds + 6e-6;
    const std::uint64_t outside = iteragpu::memory::prediction::h200_pytorch_2_11_outside_allocator.value;
    row.baseline_device_used_bytes = row.baseline_reserved_bytes + outside;
    row.end_device_used_bytes = row.end_reserved_bytes + outside;
    row.state_at_end = state_of(row);
    return row;
  }

  [[nodiscard]] static iteragpu::memory::gpu_state state_of(const iteragpu::memory::phase_row& row) {
    const bool warm = row.phase == iteragpu::memory::phase_kind::warm_forward;
    iteragpu::memory::gpu_state s{
        iteragpu::memory::megahertz{1980}, iteragpu::memory::megahertz{3201},
        iteragpu::memory::milliwatts{warm ? 412'000U : 121'000U}, iteragpu::memory::degrees_celsius{warm ? 47U : 38U},
        iteragpu::memory::clock_event_reasons{warm ? (row.repeat == 3U ? sw_power_cap : 0U) : gpu_idle}};
    if (row.phase == iteragpu::memory::phase_kind::model_load) {
      s.power_draw = iteragpu::unexpected{iteragpu::memory::reading_error{
          .code = iteragpu::memory::reading_errc::not_available, .detail = "NVML: not supported"}};
    }
    return s;
  }
};
static_assert(iteragpu::memory::synthetic_runtime<fake_runtime> && iteragpu::memory::torchscript_runtime<fake_runtime>);

// The value of a --fake-* flag, which must come first.
bool take_flag(std::vector<std::string>& args, std::string_view flag, std::string& value) {
  if (args.size() < 2 || args.front() != flag) {
    return false;
  }
  value = args[1];
  args.erase(args.begin(), args.begin() + 2);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::span<char*> words(argv, static_cast<std::size_t>(argc));
    std::vector<std::string> args(std::next(words.begin()), words.end());
    fake_runtime runtime;
    std::string value;
    for (bool more = true; more;) {
      more = false;
      if (take_flag(args, "--fake-time-scale", value)) {
        runtime.time_scale = std::stod(value);
        more = true;
      }
      if (take_flag(args, "--fake-driver", value)) {
        runtime.driver = value;
        more = true;
      }
    }
    return iteragpu::cli::run_measure(runtime, args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "iteragpu_fake_measure: " << e.what() << '\n';
    return 1;
  }
}
