// The sweep's logic with a fake point runner that returns chosen outcomes:
// the order of the points, the skip rules, the out-of-memory cut-off, the
// devices run concurrently, the interruption, and a sink that fails.
#include <iteragpu/sweep/scheduler.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <boost/test/unit_test.hpp>

namespace sw = iteragpu::sweep;
using iteragpu::memory::device_index;
using iteragpu::result;
using iteragpu::unexpected;

namespace {

struct scripted {
  std::optional<int> exit_code{0};
  std::optional<int> signal;
  std::optional<std::string> stderr_line;
  bool result_readable{true};
};

// Points run until wait_any() ends them, first started first; each ends as
// `script` says (exit 0 with figures made from its index by default).
struct fake_runner {
  std::map<std::size_t, scripted> script;
  std::optional<std::uint64_t> host;
  std::uint64_t free_bytes{std::uint64_t{1} << 50U};
  std::vector<int> unreadable_devices;
  std::optional<std::size_t> interrupt_at_start;  // interrupted once this many points have started
  std::optional<std::size_t> misreport;           // wait_any() reports this index for the first point to end

  std::vector<std::pair<std::size_t, int>> started;  // (point, device)
  std::size_t most_running{0};
  std::size_t device_reads{0};
  bool stopped{false};
  std::vector<std::pair<std::size_t, int>> running;  // (point, device), first started first

  [[nodiscard]] std::optional<std::uint64_t> host_available() const { return host; }

  [[nodiscard]] result<sw::device_reading, sw::runner_error> read_device(device_index d) {
    ++device_reads;
    if (std::find(unreadable_devices.begin(), unreadable_devices.end(), d.value) != unreadable_devices.end()) {
      return unexpected{sw::runner_error{"`environment` exited 2: no GPU"}};
    }
    return sw::device_reading{"Fake GPU " + std::to_string(d.value), free_bytes, free_bytes + 1000};
  }

  [[nodiscard]] result<void, sw::runner_error> start(const sw::sweep_point& p, device_index d) {
    for (const auto& r : running) {
      BOOST_TEST(r.second != d.value, "two points at once on cuda:" << d.value);
    }
    started.emplace_back(p.index, d.value);
    running.emplace_back(p.index, d.value);
    most_running = std::max(most_running, running.size());
    return {};
  }

  [[nodiscard]] std::optional<sw::finished_run> wait_any() {
    if (interrupted() || running.empty()) {
      return std::nullopt;
    }
    const std::size_t index = running.front().first;
    running.erase(running.begin());
    const scripted s = script.count(index) != 0 ? script.at(index) : scripted{};
    sw::finished_run run;
    run.index = misreport ? std::exchange(misreport, std::nullopt).value() : index;
    run.process = sw::process_figures{s.exit_code, s.signal, s.stderr_line, 1.5};
    if (s.exit_code == 0 && s.result_readable) {
      run.measured = sw::measured_figures{1000 + index, 2000 + index, std::nullopt, std::nullopt,
                                          std::nullopt, 1.0,          "Fake GPU",   std::nullopt};
    } else if (s.exit_code == 0) {
      run.problem = "its result 'x.json' could not be read: it has no phase rows";
    }
    return run;
  }

  void stop_all() {
    stopped = true;
    running.clear();
  }

  [[nodiscard]] bool interrupted() const { return interrupt_at_start && started.size() >= *interrupt_at_start; }
};

struct keeping_sink {
  std::vector<sw::point_record> kept;
  std::optional<std::size_t> fail_at;  // the nth record (0-based) cannot be written

  [[nodiscard]] result<void, std::string> keep(const sw::point_record& r) {
    if (fail_at && kept.size() == *fail_at) {
      return unexpected{std::string("cannot write 'point-0001.json': No space left on device")};
    }
    kept.push_back(r);
    return {};
  }

  [[nodiscard]] const sw::point_record& at(std::size_t index) const {
    const auto it = std::find_if(kept.begin(), kept.end(), [&](const auto& r) { return r.point.index == index; });
    BOOST_TEST_REQUIRE((it != kept.end()), "no record for point " << index);
    return *it;
  }
};

struct counting_progress {
  std::size_t starts{0};
  std::size_t finishes{0};
  void started(const sw::sweep_point& /*p*/, device_index /*d*/) { ++starts; }
  void finished(const sw::point_record& /*r*/) { ++finishes; }
};

static_assert(sw::point_runner<fake_runner>);
static_assert(sw::record_sink<keeping_sink>);
static_assert(sw::progress_observer<counting_progress>);

std::vector<sw::sweep_point> plan(std::vector<std::uint64_t> batch, std::vector<std::uint64_t> width = {64},
                                  std::vector<std::uint64_t> context = {16}) {
  sw::sweep_axes axes;
  axes.batch = std::move(batch);
  axes.width = std::move(width);
  axes.context = std::move(context);
  return *sw::make_plan(axes);
}

struct sweep_fixture {
  fake_runner runner;
  keeping_sink sink;
  counting_progress progress;
  // The figures of an H200 with PyTorch 2.11, as the program takes them.
  sw::sweep_settings settings{.workspaces = iteragpu::memory::prediction::h200_pytorch_2_11,
                              .outside_allocator = iteragpu::memory::prediction::h200_pytorch_2_11_outside_allocator};

  sw::sweep_summary run(const std::vector<sw::sweep_point>& points, std::vector<sw::point_record> failures = {}) {
    const auto ran = sw::run_points(points, std::move(failures), settings, runner, sink, progress);
    BOOST_TEST_REQUIRE(ran.has_value());
    return *ran;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(sweep_scheduler)

BOOST_FIXTURE_TEST_CASE(every_point_that_fits_runs_once_in_plan_order, sweep_fixture) {
  const auto points = plan({1, 2, 4, 8});
  const auto summary = run(points);
  BOOST_TEST(!summary.interrupted);
  BOOST_TEST(summary.recorded == 4U);
  BOOST_TEST_REQUIRE(sink.kept.size() == 4U);
  for (std::size_t i = 0; i < 4; ++i) {
    const auto& r = sink.kept[i];
    BOOST_TEST(r.point.index == i);
    BOOST_TEST((r.outcome == sw::outcome_kind::measured));
    BOOST_TEST((r.kind == sw::record_kind::measurement));
    BOOST_TEST(r.device->value == 0);
    BOOST_TEST(r.measured->peak_reserved_bytes == 2000 + i);
    BOOST_TEST(r.process->wall_seconds == 1.5);
    BOOST_TEST(*r.gpu_name == "Fake GPU 0");
    BOOST_TEST(r.prediction.has_value());
    BOOST_TEST(r.outside_allocator_bytes == iteragpu::memory::prediction::h200_pytorch_2_11_outside_allocator.value);
    BOOST_TEST(r.reason.empty());
  }
  BOOST_TEST(runner.started.size() == 4U);
  BOOST_TEST(runner.most_running == 1U);
  BOOST_TEST(progress.starts == 4U);
  BOOST_TEST(progress.finishes == 4U);
  BOOST_TEST(runner.device_reads == 4U);  // the device is read again before each point
}

BOOST_FIXTURE_TEST_CASE(a_point_predicted_past_the_free_memory_is_skipped_and_never_started, sweep_fixture) {
  const auto points = plan({1, 4096}, {1024}, {1024});
  // Point 1: batch 4096 x context 1024 x width 1024 float32 needs gigabytes;
  // point 0 fits in 1 GiB with the default memory outside the allocator.
  runner.free_bytes = std::uint64_t{1} << 30U;
  run(points);
  BOOST_TEST((sink.at(0).outcome == sw::outcome_kind::measured));
  const auto& skipped = sink.at(1);
  BOOST_TEST((skipped.outcome == sw::outcome_kind::skipped_device_memory));
  const std::uint64_t outside = iteragpu::memory::prediction::h200_pytorch_2_11_outside_allocator.value;
  BOOST_TEST(outside == 718'077'952U);
  const std::uint64_t need = skipped.prediction->peak_reserved_bytes + outside;
  BOOST_TEST(skipped.reason ==
             "skipped: predicted " + std::to_string(need) + " bytes > free 1073741824 bytes (peak reserved " +
                 std::to_string(skipped.prediction->peak_reserved_bytes) + " + outside the allocator 718077952)");
  BOOST_TEST(*skipped.device_free_bytes == std::uint64_t{1} << 30U);
  BOOST_TEST(!skipped.process.has_value());
  BOOST_TEST(runner.started.size() == 1U);
}

BOOST_FIXTURE_TEST_CASE(the_outside_figure_of_the_settings_enters_the_fit, sweep_fixture) {
  const auto points = plan({1});
  const auto predicted = sw::predict_point(points[0], settings.workspaces);
  // Exactly enough free memory with 1000 bytes outside; one byte short with 1001.
  runner.free_bytes = predicted->peak_reserved_bytes + 1000;
  settings.outside_allocator = iteragpu::byte_count{1000};
  run(points);
  settings.outside_allocator = iteragpu::byte_count{1001};
  run(points);
  BOOST_TEST((sink.kept[0].outcome == sw::outcome_kind::measured));
  BOOST_TEST((sink.kept[1].outcome == sw::outcome_kind::skipped_device_memory));
}

BOOST_FIXTURE_TEST_CASE(a_point_whose_cpu_build_exceeds_the_host_is_skipped_before_the_device_is_read, sweep_fixture) {
  // width 65536 float32 builds 137,440,264,192 bytes on the CPU.
  const auto points = plan({1}, {1024, 65536}, {1024});
  runner.host = 100'000'000'000U;
  run(points);
  BOOST_TEST((sink.at(0).outcome == sw::outcome_kind::measured));
  BOOST_TEST((sink.at(1).outcome == sw::outcome_kind::skipped_host_memory));
  BOOST_TEST(sink.at(1).reason ==
             "skipped: predicted host 137440264192 bytes > available 100000000000 bytes (float32 build on the CPU "
             "137440264192 + converted copy 0)");
  BOOST_TEST(runner.device_reads == 1U);
}

BOOST_FIXTURE_TEST_CASE(an_exit_3_skips_every_larger_point_and_spares_the_others, sweep_fixture) {
  // batch {1, 2, 4} x width {64, 128}: 0 (1,64) 1 (2,64) 2 (4,64) 3 (1,128) 4 (2,128) 5 (4,128).
  const auto points = plan({1, 2, 4}, {64, 128});
  runner.script[1] = scripted{3, std::nullopt, "failed during phase cold_forward: CUDA out of memory. Tried"};
  run(points);
  BOOST_TEST((sink.at(1).outcome == sw::outcome_kind::out_of_memory));
  BOOST_TEST(sink.at(1).reason == "exit 3: failed during phase cold_forward: CUDA out of memory. Tried");
  BOOST_TEST((sink.at(0).outcome == sw::outcome_kind::measured));
  BOOST_TEST((sink.at(3).outcome == sw::outcome_kind::measured));  // batch 1 < 2
  for (const std::size_t larger : {2U, 4U, 5U}) {
    BOOST_TEST((sink.at(larger).outcome == sw::outcome_kind::skipped_after_failure));
    BOOST_TEST(sink.at(larger).reason.starts_with("skipped: point 1 (batch 2, context 16, width 64, float32) ended"));
    BOOST_TEST(sink.at(larger).prediction.has_value());  // drawn at its prediction
  }
  BOOST_TEST(runner.started.size() == 3U);
}

BOOST_FIXTURE_TEST_CASE(an_exit_3_for_another_reason_cuts_off_too_and_says_so, sweep_fixture) {
  const auto points = plan({1, 2});
  runner.script[0] = scripted{3, std::nullopt, "failed during phase warmup: an illegal memory access"};
  run(points);
  BOOST_TEST((sink.at(0).outcome == sw::outcome_kind::failed_while_measuring));
  BOOST_TEST((sink.at(1).outcome == sw::outcome_kind::skipped_after_failure));
}

BOOST_FIXTURE_TEST_CASE(earlier_failures_cut_off_the_points_of_a_resumed_sweep, sweep_fixture) {
  const auto points = plan({1, 2, 4});
  sw::point_record earlier;
  earlier.point = points[1];
  earlier.outcome = sw::outcome_kind::out_of_memory;
  run({points[0], points[2]}, {earlier});
  BOOST_TEST((sink.at(0).outcome == sw::outcome_kind::measured));
  BOOST_TEST((sink.at(2).outcome == sw::outcome_kind::skipped_after_failure));
}

BOOST_FIXTURE_TEST_CASE(any_other_failure_is_recorded_with_its_exit_and_first_line_and_the_sweep_goes_on,
                        sweep_fixture) {
  const auto points = plan({1, 2, 4, 8});
  runner.script[0] = scripted{1, std::nullopt, "mesure_memoire: internal error:\tbad"};
  runner.script[1] = scripted{std::nullopt, 9, std::nullopt};
  runner.script[2] = scripted{0, std::nullopt, std::nullopt, false};
  runner.script[3] = scripted{std::nullopt, std::nullopt, std::nullopt};  // reaped elsewhere: no status
  run(points);
  BOOST_TEST((sink.at(0).outcome == sw::outcome_kind::failed));
  BOOST_TEST(sink.at(0).reason == "exit 1: mesure_memoire: internal error:\\x09bad");  // one line, escaped
  BOOST_TEST(*sink.at(0).process->exit_code == 1);
  BOOST_TEST(sink.at(1).reason == "ended by signal 9");
  BOOST_TEST(*sink.at(1).process->signal == 9);
  BOOST_TEST(sink.at(2).reason == "exit 0, but its result 'x.json' could not be read: it has no phase rows");
  BOOST_TEST((sink.at(3).outcome == sw::outcome_kind::failed));
  BOOST_TEST(sink.at(3).reason == "ended without a readable exit status");
}

BOOST_FIXTURE_TEST_CASE(a_device_that_cannot_be_read_fails_its_point_without_starting_it, sweep_fixture) {
  runner.unreadable_devices = {0};
  run(plan({1}));
  BOOST_TEST((sink.at(0).outcome == sw::outcome_kind::failed));
  BOOST_TEST(sink.at(0).reason == "the device could not be read: `environment` exited 2: no GPU");
  BOOST_TEST(runner.started.empty());
}

BOOST_FIXTURE_TEST_CASE(a_shape_that_cannot_be_predicted_is_skipped, sweep_fixture) {
  run(plan({1}, {std::uint64_t{1} << 40U}));
  BOOST_TEST((sink.at(0).outcome == sw::outcome_kind::skipped_unpredictable));
  BOOST_TEST(sink.at(0).reason == "skipped: the model or its activations would take more than 2^63-1 bytes");
  BOOST_TEST(!sink.at(0).prediction.has_value());
}

BOOST_FIXTURE_TEST_CASE(several_devices_run_one_point_each_at_the_same_time, sweep_fixture) {
  settings.devices = {device_index{0}, device_index{1}};
  run(plan({1, 2, 4, 8, 16}));
  BOOST_TEST(sink.kept.size() == 5U);
  BOOST_TEST(runner.most_running == 2U);  // and never two on one device (checked in start())
  // First started first ended: 0 on cuda:0, 1 on cuda:1, then each freed device takes the next point.
  const std::vector<std::pair<std::size_t, int>> expected{{0, 0}, {1, 1}, {2, 0}, {3, 1}, {4, 0}};
  BOOST_TEST((runner.started == expected));
  for (const auto& r : sink.kept) {
    BOOST_TEST(r.device->value == (r.point.index % 2 == 0 ? 0 : 1));
    BOOST_TEST(*r.gpu_name == (r.point.index % 2 == 0 ? "Fake GPU 0" : "Fake GPU 1"));
  }
}

BOOST_FIXTURE_TEST_CASE(the_host_bytes_of_runningpoints_are_not_available_to_the_next, sweep_fixture) {
  // Two devices, two equal points of width 16384 float32: each builds
  // (8 x 16384^2 + 5 x 16384) x 4 = 8,590,262,272 bytes on the CPU. With
  // 1.5 times that available, the second cannot start beside the first.
  settings.devices = {device_index{0}, device_index{1}};
  const auto points = plan({1, 2}, {16384});
  runner.host = 12'885'393'408U;
  run(points);
  BOOST_TEST((sink.at(0).outcome == sw::outcome_kind::measured));
  BOOST_TEST((sink.at(1).outcome == sw::outcome_kind::skipped_host_memory));
  BOOST_TEST(*sink.at(1).host_available_bytes == 12'885'393'408U - 8'590'262'272U);
}

BOOST_FIXTURE_TEST_CASE(an_interruption_stops_the_runningpoints_and_records_nothing_more, sweep_fixture) {
  settings.devices = {device_index{0}, device_index{1}};
  runner.interrupt_at_start = 2;
  const auto summary = run(plan({1, 2, 4, 8}));
  BOOST_TEST(summary.interrupted);
  BOOST_TEST(summary.recorded == 0U);
  BOOST_TEST(sink.kept.empty());
  BOOST_TEST(runner.stopped);
  BOOST_TEST(runner.started.size() == 2U);
}

BOOST_FIXTURE_TEST_CASE(an_interruption_keeps_what_finished_before_it, sweep_fixture) {
  runner.interrupt_at_start = 3;  // one device: points 0 and 1 end, 2 starts, then the signal
  const auto summary = run(plan({1, 2, 4, 8}));
  BOOST_TEST(summary.interrupted);
  BOOST_TEST(summary.recorded == 2U);
  BOOST_TEST(sink.kept.size() == 2U);
  BOOST_TEST(runner.stopped);
}

BOOST_FIXTURE_TEST_CASE(a_runner_that_reports_a_point_not_running_stops_the_sweep, sweep_fixture) {
  runner.misreport = 7;
  const auto ran = sw::run_points(plan({1, 2, 4}), {}, settings, runner, sink, progress);
  BOOST_TEST_REQUIRE(!ran.has_value());
  BOOST_TEST_REQUIRE(std::holds_alternative<sw::unknown_point_error>(ran.error()));
  BOOST_TEST(std::get<sw::unknown_point_error>(ran.error()).index == 7U);
  BOOST_TEST(sink.kept.empty());
  BOOST_TEST(runner.stopped);
}

BOOST_FIXTURE_TEST_CASE(a_record_that_cannot_be_kept_stops_the_sweep_with_the_reason, sweep_fixture) {
  sink.fail_at = 1;
  const auto ran = sw::run_points(plan({1, 2, 4}), {}, settings, runner, sink, progress);
  BOOST_TEST_REQUIRE(!ran.has_value());
  // The sink's own error comes back as it gave it, whatever its type.
  BOOST_TEST_REQUIRE(std::holds_alternative<std::string>(ran.error()));
  BOOST_TEST(std::get<std::string>(ran.error()) == "cannot write 'point-0001.json': No space left on device");
  BOOST_TEST(runner.stopped);
  BOOST_TEST(runner.started.size() == 2U);
}

BOOST_FIXTURE_TEST_CASE(predictions_run_no_process_and_are_labelled_as_such, sweep_fixture) {
  settings.kind = sw::record_kind::prediction;
  run(plan({1, 2}));
  for (const auto& r : sink.kept) {
    BOOST_TEST((r.kind == sw::record_kind::prediction));
    BOOST_TEST((r.outcome == sw::outcome_kind::predicted));
    BOOST_TEST(!r.process.has_value());
    BOOST_TEST(!r.measured.has_value());
    BOOST_TEST(!r.device.has_value());
  }
}

BOOST_AUTO_TEST_SUITE_END()
