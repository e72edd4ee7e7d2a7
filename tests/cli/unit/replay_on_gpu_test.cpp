// replay --on-gpu with no GPU: the requests made of a trace (as the oracle
// makes them), the process of their own whose PYTORCH_CUDA_ALLOC_CONF is set
// before the module is loaded (a stand-in module, tests/cli/fake_real_allocator.cpp),
// the comparison with the simulation and its exit codes. The GPU side is
// checked by gpu.replay_on_gpu_matches_the_simulation.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cli/replay_on_gpu.hpp>

namespace {

using iteragpu::cli::real_allocator_figures;
using iteragpu::cli::real_allocator_request;
using iteragpu::memory::trace_action;
using iteragpu::memory::trace_event;

constexpr std::uint64_t MiB = std::uint64_t{1} << 20U;

iteragpu::cli::real_allocator_access stand_in() { return {{ITERAGPU_TEST_FAKE_REAL_ALLOCATOR}, "CUDA (stand-in)"}; }

std::string program_trace() {
  return std::string(ITERAGPU_TEST_SOURCE_DIR) + "/data/oracle/programs/traces/mlp_infer.oracle.pickle";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(replay_on_gpu)

// Each alloc with its size on its stream (numbered in order of appearance),
// each free_completed of a block an alloc made (a free of an unknown block
// is skipped), an emptyCache before the request that follows a release, and
// at the end after a last one.
BOOST_AUTO_TEST_CASE(the_requests_are_those_the_oracle_makes) {
  const std::vector<trace_event> events{
      {trace_action::segment_alloc, 1000, 2 * MiB, 7}, {trace_action::alloc, 1000, 700, 7},
      {trace_action::alloc, 5000, 3 * MiB, 9},         {trace_action::segment_free, 9000, 2 * MiB, 7},
      {trace_action::free_requested, 1000, 700, 7},    {trace_action::free_completed, 1000, 700, 7},
      {trace_action::free_completed, 4242, 1, 7},      {trace_action::alloc, 1000, 10, 7},
      {trace_action::segment_unmap, 9000, 2 * MiB, 9}};
  const std::vector<real_allocator_request> expected{
      {.kind = real_allocator_request::alloc, .stream = 0, .size = 700, .block = 0, .event = 1},
      {.kind = real_allocator_request::alloc, .stream = 1, .size = 3 * MiB, .block = 1, .event = 2},
      {.kind = real_allocator_request::empty_cache},
      {.kind = real_allocator_request::free, .block = 0},
      {.kind = real_allocator_request::alloc, .stream = 0, .size = 10, .block = 2, .event = 7},
      {.kind = real_allocator_request::empty_cache}};
  BOOST_TEST((iteragpu::cli::real_allocator_requests_of(events) == expected));
}

// The fields are compared in the order they are printed: the peaks, the
// retries, the verdict, then the refused request.
BOOST_AUTO_TEST_CASE(the_first_difference_is_named_in_the_order_of_the_fields) {
  const iteragpu::cli::allocator_answer base{100, 200, 1, true, 42, 512};
  auto other = base;
  BOOST_TEST(iteragpu::cli::first_difference(base, other).empty());
  other.refused_size = 1024;
  BOOST_TEST(iteragpu::cli::first_difference(base, other) == "failed_request");
  other.refused_event.reset();
  BOOST_TEST(iteragpu::cli::first_difference(base, other) == "oom");
  other.alloc_retries = 2;
  BOOST_TEST(iteragpu::cli::first_difference(base, other) == "alloc_retries");
  other.peak_reserved = 1;
  BOOST_TEST(iteragpu::cli::first_difference(base, other) == "peak_reserved_bytes");
  other.peak_allocated = 1;
  BOOST_TEST(iteragpu::cli::first_difference(base, other) == "peak_allocated_bytes");
}

// The requests run in a process of their own, whose PYTORCH_CUDA_ALLOC_CONF
// is the setting's when the module is loaded; this process's is left alone.
BOOST_AUTO_TEST_CASE(the_requests_run_in_a_process_of_their_own_under_the_setting) {
  ::unsetenv("PYTORCH_CUDA_ALLOC_CONF");  // NOLINT(concurrency-mt-unsafe)
  const std::vector<real_allocator_request> requests{
      {.kind = real_allocator_request::alloc, .size = 3 * MiB, .block = 0, .event = 4},
      {.kind = real_allocator_request::free, .block = 0},
      {.kind = real_allocator_request::alloc, .size = 1, .block = 1, .event = 9}};
  const auto figures = iteragpu::cli::run_real_allocator(requests, "expandable_segments:True", 0, stand_in());
  BOOST_TEST(figures.status == real_allocator_figures::done);
  BOOST_TEST(iteragpu::cli::message_of(figures) == "stand-in, PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True");
  BOOST_TEST(figures.peak_allocated == 4 * MiB);
  BOOST_TEST(std::getenv("PYTORCH_CUDA_ALLOC_CONF") == nullptr);  // NOLINT(concurrency-mt-unsafe)
  const auto defaults = iteragpu::cli::run_real_allocator(requests, "", 0, stand_in());
  BOOST_TEST(iteragpu::cli::message_of(defaults) == "stand-in, PYTORCH_CUDA_ALLOC_CONF=(unset)");
  // Under a capacity of 5 MiB the second allocation (the second request, event 9) is refused.
  const std::vector<real_allocator_request> two{
      {.kind = real_allocator_request::alloc, .size = 3 * MiB, .block = 0, .event = 4},
      {.kind = real_allocator_request::alloc, .size = 1, .block = 1, .event = 9}};
  const auto capped = iteragpu::cli::run_real_allocator(two, "", 5 * MiB, stand_in());
  BOOST_TEST(capped.refused == 1U);
  BOOST_TEST(capped.refused_request == 1U);
  BOOST_TEST(capped.refused_event == 9U);
}

// Without the module the GPU cannot be reached: the status says so.
BOOST_AUTO_TEST_CASE(without_the_module_pytorchs_allocator_is_unavailable) {
  const auto figures = iteragpu::cli::run_real_allocator({}, "", 0, {{"/nonexistent/mesure_memoire_torch.so"}, "none"});
  BOOST_TEST(figures.status == real_allocator_figures::unavailable);
  BOOST_TEST(iteragpu::cli::message_of(figures) == "this build has no LibTorch with CUDA (its GPU runtime: none)");
}

// A trace compared against the stand-in (which is no allocator): both sides
// printed, the first difference named, exit 6; as JSON, one object.
BOOST_AUTO_TEST_CASE(a_difference_is_printed_with_both_sides_and_exits_6) {
  iteragpu::cli::replay_command_options options;
  options.file = program_trace();
  options.alloc_confs = {"", "max_split_size_mb:64"};
  std::ostringstream text;
  BOOST_TEST(iteragpu::cli::run_replay_on_gpu(options, text, {}, stand_in()) == iteragpu::cli::exit_on_gpu_differs);
  BOOST_TEST(text.str().find("PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:64\n") != std::string::npos);
  BOOST_TEST(text.str().find("  first difference: peak_allocated_bytes") != std::string::npos);
  options.json = true;
  options.capacity = iteragpu::byte_count{64 * MiB};
  std::ostringstream json;
  BOOST_TEST(iteragpu::cli::run_replay_on_gpu(options, json, {}, stand_in()) == iteragpu::cli::exit_on_gpu_differs);
  const auto document = boost::json::parse(json.str()).as_object();
  BOOST_TEST(document.at("kind").as_string() == "replay_on_gpu");
  BOOST_TEST(document.at("identical").as_bool() == false);
  const auto& first = document.at("settings").as_array().at(0).as_object();
  BOOST_TEST(first.at("capacity_bytes").as_int64() == std::int64_t{64 * MiB});
  BOOST_TEST(first.at("pytorch_cuda_alloc_conf").as_string() == "");
}

// A trace that starts late cannot be made again from its first request.
BOOST_AUTO_TEST_CASE(a_trace_that_starts_late_is_refused) {
  iteragpu::memory::snapshot snapshot;
  snapshot.devices.push_back({{{trace_action::free_completed, 1000, 700, 0}}, {}});
  iteragpu::cli::replay_command_options options;
  options.file = "late.pickle";
  std::string device;
  BOOST_CHECK_THROW(
      static_cast<void>(iteragpu::cli::compare_on_gpu(options, snapshot, snapshot.devices.front(), stand_in(), device)),
      iteragpu::cli::usage_error);
}

BOOST_AUTO_TEST_SUITE_END()
