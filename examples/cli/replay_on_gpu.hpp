#ifndef ITERAGPU_CLI_REPLAY_ON_GPU_HPP
#define ITERAGPU_CLI_REPLAY_ON_GPU_HPP

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json.hpp>

#include "cli/common.hpp"
#include "cli/real_allocator.hpp"
#include "cli/replay_command.hpp"
#include "cli/replay_flags.hpp"
#include "iteragpu/memory/prediction/allocator_settings.hpp"
#include "iteragpu/memory/replay.hpp"
#include "iteragpu/memory/replay_study.hpp"
#include "iteragpu/report/replay.hpp"
#include "iteragpu/text.hpp"

/// \file
/// `mesure_memoire replay SNAPSHOT --on-gpu`: the trace's requests made to
/// PyTorch's own caching allocator on the GPU (a process per setting, see
/// real_allocator.hpp) and replayed through the simulation under the same
/// settings and the capacity PyTorch's allocator computed, the two side by
/// side with the first difference named.
namespace iteragpu::cli {

/// `replay --on-gpu` found a difference between PyTorch's allocator and the simulation.
inline constexpr int exit_on_gpu_differs = 6;

/// The figures both sides report.
struct allocator_answer {
  std::uint64_t peak_allocated{0};             ///< bytes
  std::uint64_t peak_reserved{0};              ///< bytes
  std::uint64_t alloc_retries{0};              ///< num_alloc_retries
  bool verdict{true};                          ///< false: no verdict (the program died past the trace's end)
  std::optional<std::uint64_t> refused_event;  ///< the event of the refused request, if one was
  std::uint64_t refused_size{0};               ///< its bytes asked for
  /// Equal when every member is equal.
  friend bool operator==(const allocator_answer&, const allocator_answer&) = default;
};

/// The first field in which `a` and `b` differ, as the JSON names it; empty when none.
[[nodiscard]] inline std::string first_difference(const allocator_answer& a, const allocator_answer& b) {
  if (a.peak_allocated != b.peak_allocated) {
    return "peak_allocated_bytes";
  }
  if (a.peak_reserved != b.peak_reserved) {
    return "peak_reserved_bytes";
  }
  if (a.alloc_retries != b.alloc_retries) {
    return "alloc_retries";
  }
  if (a.verdict != b.verdict || a.refused_event.has_value() != b.refused_event.has_value()) {
    return "oom";
  }
  if (a.refused_event != b.refused_event || a.refused_size != b.refused_size) {
    return "failed_request";
  }
  return {};
}

namespace detail::on_gpu {

[[nodiscard]] inline allocator_answer answer_of(const memory::replay_outcome& o) {
  allocator_answer a{o.peak_allocated.value, o.peak_reserved.value, o.alloc_retries, !o.past_recorded_death, {}, 0};
  if (o.oom) {
    a.refused_event = o.oom->event;
    a.refused_size = o.oom->size.value;
  }
  return a;
}

[[nodiscard]] inline allocator_answer answer_of(const real_allocator_figures& f) {
  allocator_answer a{f.peak_allocated, f.peak_reserved, f.alloc_retries, true, {}, 0};
  if (f.refused != 0) {
    a.refused_event = f.refused_event;
    a.refused_size = f.refused_size;
  }
  return a;
}

[[nodiscard]] inline std::string verdict_text(const allocator_answer& a) {
  if (!a.verdict) {
    return "no verdict (granted where the program died)";
  }
  return a.refused_event ? "out of memory at event " + to_decimal_string(*a.refused_event) + " (" +
                               bytes_and_size_text(a.refused_size) + " asked)"
                         : std::string("fits");
}

[[nodiscard]] inline boost::json::object json_of(const allocator_answer& a) {
  boost::json::object o{{"peak_allocated_bytes", a.peak_allocated},
                        {"peak_reserved_bytes", a.peak_reserved},
                        {"alloc_retries", a.alloc_retries},
                        {"oom", a.refused_event.has_value()},
                        {"verdict", a.verdict}};
  o["failed_request"] =
      a.refused_event ? boost::json::value(boost::json::object{{"event", *a.refused_event}, {"size", a.refused_size}})
                      : boost::json::value(nullptr);
  return o;
}

inline void write_row(std::ostream& out, std::string_view name, const std::string& simulated, const std::string& real) {
  constexpr std::size_t name_width = 16;
  constexpr std::size_t value_width = 40;
  out << "  " << name << std::string(name.size() < name_width ? name_width - name.size() : 1, ' ') << simulated
      << std::string(simulated.size() < value_width ? value_width - simulated.size() : 1, ' ') << real << '\n';
}

}  // namespace detail::on_gpu

namespace detail::on_gpu {

[[nodiscard]] inline real_allocator_figures unavailable(std::string_view why) {
  real_allocator_figures f{};
  f.status = real_allocator_figures::unavailable;
  why.substr(0, f.message.size() - 1).copy(f.message.data(), f.message.size() - 1);
  return f;
}

}  // namespace detail::on_gpu

/// One setting compared.
struct on_gpu_comparison {
  std::string alloc_conf;                 ///< as given ("" the recorded settings)
  std::string conf_text;                  ///< PYTORCH_CUDA_ALLOC_CONF as set for PyTorch
  std::optional<std::uint64_t> capacity;  ///< the allowance PyTorch computed, when a capacity was asked
  allocator_answer simulated;             ///< the simulation's figures
  allocator_answer real;                  ///< PyTorch's
  std::string difference;                 ///< the first field that differs; empty when identical
};

/// Compares each setting of `options` (a trace recorded from the process's
/// first allocation): PyTorch's allocator first, then the simulation with
/// the capacity it computed and, unless given, the card's memory it read.
/// A usage_error when the GPU cannot be reached (no CUDA LibTorch, no GPU)
/// or the input is refused.
[[nodiscard]] inline std::vector<on_gpu_comparison> compare_on_gpu(const replay_command_options& options,
                                                                   const memory::snapshot& snapshot,
                                                                   const memory::device_trace& trace,
                                                                   const real_allocator_access& access,
                                                                   std::string& device) {
  if (!memory::check_beginning(trace.events) || memory::unexplained_segment(trace)) {
    throw usage_error("--on-gpu: " + iteragpu::quoted(options.file) +
                      " starts late (recording began after its first allocation, or the ring buffer wrapped); "
                      "expected a trace recorded from the process's first allocation");
  }
  const auto recorded = memory::settings_of(snapshot.settings);
  const std::string recorded_text = snapshot.settings ? snapshot.settings->alloc_conf : std::string();
  std::vector<memory::setting_request> settings;
  if (options.alloc_confs.empty()) {
    settings.push_back({"", recorded});
  }
  for (const auto& text : options.alloc_confs) {
    settings.push_back({text, settings_of_flag(text).value_or(recorded)});
  }
  const auto requests = real_allocator_requests_of(trace.events);
  std::vector<on_gpu_comparison> compared;
  for (const auto& setting : settings) {
    on_gpu_comparison c;
    c.alloc_conf = setting.alloc_conf;
    c.conf_text = setting.alloc_conf.empty() ? recorded_text : setting.alloc_conf;
    const auto figures =
        access.modules.empty()
            ? detail::on_gpu::unavailable("this build has no LibTorch (its GPU runtime: " + access.build_runtime + ")")
            : run_real_allocator(requests, c.conf_text, options.capacity ? options.capacity->value : 0, access);
    if (figures.status != real_allocator_figures::done) {
      throw usage_error("--on-gpu: " + message_of(figures) + "; expected a build against a LibTorch with CUDA " +
                        "and a GPU it can reach");
    }
    device = message_of(figures);
    memory::study_request request;
    request.settings.push_back(setting);
    if (options.capacity) {
      c.capacity = figures.capacity;
      request.capacity = byte_count{figures.capacity};
    }
    request.device_memory =
        options.device_memory ? options.device_memory : std::optional{byte_count{figures.total_memory}};
    const auto study = memory::run_study(trace, recorded, request);
    if (!study) {
      throw usage_error(iteragpu::quoted(options.file) + ": " + report::describe(study.error()));
    }
    c.simulated = detail::on_gpu::answer_of(study->settings.front().outcome);
    c.real = detail::on_gpu::answer_of(figures);
    c.difference = first_difference(c.simulated, c.real);
    compared.push_back(std::move(c));
  }
  return compared;
}

/// The comparison as text: a block per setting, the simulation's column and PyTorch's.
inline void write_on_gpu_text(std::ostream& out, std::string_view device, std::span<const on_gpu_comparison> compared) {
  namespace d = detail::on_gpu;
  out << "PyTorch's own caching allocator (" << device
      << "), a process per setting, against the simulation under the same settings and capacity:\n";
  for (const auto& c : compared) {
    out << "PYTORCH_CUDA_ALLOC_CONF=" << c.conf_text << (c.alloc_conf.empty() ? " (the recorded settings)" : "")
        << (c.capacity ? ", capacity " + bytes_and_size_text(*c.capacity) : std::string()) << '\n';
    d::write_row(out, "", "simulation", "PyTorch");
    d::write_row(out, "peak allocated", bytes_and_size_text(c.simulated.peak_allocated),
                 bytes_and_size_text(c.real.peak_allocated));
    d::write_row(out, "peak reserved", bytes_and_size_text(c.simulated.peak_reserved),
                 bytes_and_size_text(c.real.peak_reserved));
    d::write_row(out, "retries", to_decimal_string(c.simulated.alloc_retries), to_decimal_string(c.real.alloc_retries));
    d::write_row(out, "verdict", d::verdict_text(c.simulated), d::verdict_text(c.real));
    out << (c.difference.empty() ? std::string("  identical") : "  first difference: " + c.difference) << '\n';
  }
}

/// The comparison as one JSON object (data/schema/replay_on_gpu.schema.json).
[[nodiscard]] inline boost::json::object on_gpu_json(std::string_view file, std::string_view device,
                                                     std::span<const on_gpu_comparison> compared) {
  boost::json::array settings;
  bool identical = true;
  for (const auto& c : compared) {
    identical = identical && c.difference.empty();
    settings.push_back(boost::json::object{
        {"alloc_conf", c.alloc_conf},
        {"pytorch_cuda_alloc_conf", c.conf_text},
        {"capacity_bytes", c.capacity ? boost::json::value(*c.capacity) : boost::json::value(nullptr)},
        {"simulation", detail::on_gpu::json_of(c.simulated)},
        {"pytorch", detail::on_gpu::json_of(c.real)},
        {"first_difference", c.difference.empty() ? boost::json::value(nullptr) : boost::json::value(c.difference)}});
  }
  return boost::json::object{
      {"kind", "replay_on_gpu"}, {"file", file}, {"device", device}, {"identical", identical}, {"settings", settings}};
}

/// `mesure_memoire replay SNAPSHOT --on-gpu`: exit 0 when PyTorch's
/// allocator and the simulation agree under every setting, 6 when one
/// differs (both are printed), 2 for bad input or no GPU to reach.
[[nodiscard]] inline int run_replay_on_gpu(const replay_command_options& given, std::ostream& out,
                                           std::span<const std::filesystem::path> default_catalogs,
                                           const real_allocator_access& access) {
  if (given.gpus.size() > 1) {
    throw usage_error("--on-gpu compares one capacity at a time; expected one --gpu at most");
  }
  const auto cards = card_capacities_of(given, default_catalogs);
  const auto card = cards.empty() ? std::nullopt : std::optional<card_capacity>(cards.front());
  replay_command_options options = given;
  if (card) {
    options.capacity = card->bytes;
    options.device_memory = card->device_memory;
  }
  for (const auto& text : options.alloc_confs) {
    static_cast<void>(settings_of_flag(text));
  }
  const auto snapshot = read_snapshot_file(options.file);
  const auto& trace = trace_of(snapshot, options);
  std::string device;
  const auto compared = compare_on_gpu(options, snapshot, trace, access, device);
  if (options.json) {
    out << boost::json::serialize(
               on_gpu_json(std::filesystem::path(options.file).filename().string(), device, compared))
        << '\n';
  } else {
    write_on_gpu_text(out, device, compared);
  }
  for (const auto& c : compared) {
    if (!c.difference.empty()) {
      return exit_on_gpu_differs;
    }
  }
  return exit_success;
}

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_REPLAY_ON_GPU_HPP
