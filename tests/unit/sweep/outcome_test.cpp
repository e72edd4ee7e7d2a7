// The rules that decide, before a point runs, that it cannot fit: the
// prediction against the device's free memory, the float32 build against
// the host's available memory, and the cut-off after an exit 3.
#include <iteragpu/sweep/outcome.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <unistd.h>

#include <boost/test/unit_test.hpp>

#include <iteragpu/report/sweep_errors.hpp>

#include <iteragpu/memory/prediction/workspace.hpp>
#include <iteragpu/sweep/files/folder.hpp>

namespace sw = iteragpu::sweep;
using iteragpu::byte_count;
using iteragpu::memory::element_type;

namespace {

sw::sweep_point point(std::size_t index, std::uint64_t batch, std::uint64_t context, std::uint64_t width,
                      element_type dtype = element_type::float32) {
  return sw::sweep_point{index, {batch, context, width}, dtype, 1, sw::repeat_setting{2}};
}

sw::point_record ended_with(const sw::sweep_point& p, sw::outcome_kind outcome) {
  sw::point_record r;
  r.point = p;
  r.outcome = outcome;
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sweep_rules)

BOOST_AUTO_TEST_CASE(the_host_need_is_the_float32_build_plus_one_converted_weight) {
  // width 65536: parameters 2 x 4w x w + 4w + w = 34,359,738,368 + 327,680
  // = 34,360,066,048; x 4 bytes = 137,440,264,192 (the 137 GB of the issue).
  const auto f32 = sw::predict_host_need({1, 1024, 65536}, element_type::float32);
  BOOST_TEST_REQUIRE(f32.has_value());
  BOOST_TEST(f32->float32_build == 137'440'264'192U);
  BOOST_TEST(f32->converted_copy == 0U);
  BOOST_TEST(f32->total == 137'440'264'192U);
  // bfloat16 converts W1 [4w, w] on the CPU: 4 x 65536^2 x 2 = 34,359,738,368.
  const auto bf16 = sw::predict_host_need({1, 1024, 65536}, element_type::bfloat16);
  BOOST_TEST_REQUIRE(bf16.has_value());
  BOOST_TEST(bf16->converted_copy == 34'359'738'368U);
  BOOST_TEST(bf16->total == 171'800'002'560U);
  // width 8192: (8 x 8192^2 + 5 x 8192) x 4 = 2,147,647,488; copy 536,870,912.
  const auto small = sw::predict_host_need({8, 4096, 8192}, element_type::float16);
  BOOST_TEST(small->total == 2'684'518'400U);
  // Batch and context take no host memory: the input is drawn on the GPU.
  BOOST_TEST(sw::predict_host_need({512, 65536, 8192}, element_type::float16)->total == 2'684'518'400U);
}

BOOST_AUTO_TEST_CASE(a_model_past_int64_has_no_host_need) {
  BOOST_TEST(!sw::predict_host_need({1, 1, std::uint64_t{1} << 31U}, element_type::float32).has_value());
}

BOOST_AUTO_TEST_CASE(a_point_is_predicted_by_the_simulated_allocator) {
  // The H200 reference configuration (issue "Explainable memory"): the
  // cold_forward peaks are the point's largest, 5,940,264,960 allocated and
  // 5,941,231,616 reserved with the default workspaces.
  const auto p = point(0, 8, 4096, 8192, element_type::bfloat16);
  const auto predicted = sw::predict_point(p, iteragpu::memory::prediction::h200_pytorch_2_11);
  BOOST_TEST_REQUIRE(predicted.has_value());
  BOOST_TEST(predicted->peak_allocated_bytes == 5'940'264'960U);
  BOOST_TEST(predicted->peak_reserved_bytes == 5'941'231'616U);
  BOOST_TEST(predicted->host.total == 2'684'518'400U);
  BOOST_TEST(predicted->rows.size() == 6U);  // 4 phases + 2 repeats
  // With --repeats auto the peaks are those of any count: warm passes allocate alike.
  auto automatic = p;
  automatic.repeats = sw::repeat_setting{};
  const auto a = sw::predict_point(automatic, iteragpu::memory::prediction::h200_pytorch_2_11);
  BOOST_TEST(a->peak_reserved_bytes == predicted->peak_reserved_bytes);
  BOOST_TEST(a->rows.size() == 5U);
}

BOOST_AUTO_TEST_CASE(a_shape_past_what_can_be_indexed_cannot_be_predicted) {
  const auto predicted =
      sw::predict_point(point(0, 1, 1, std::uint64_t{1} << 40U), iteragpu::memory::prediction::h200_pytorch_2_11);
  BOOST_TEST_REQUIRE(!predicted.has_value());
  BOOST_TEST(iteragpu::report::words_of(predicted.error()) ==
             "the model or its activations would take more than 2^63-1 bytes");
}

BOOST_AUTO_TEST_CASE(a_point_fits_when_peak_reserved_plus_outside_is_at_most_the_free_memory) {
  sw::point_prediction p;
  p.peak_reserved_bytes = 100;
  BOOST_TEST(!sw::device_skip_reason(p, byte_count{50}, 150).has_value());
  BOOST_TEST(*sw::device_skip_reason(p, byte_count{50}, 149) ==
             "skipped: predicted 150 bytes > free 149 bytes (peak reserved 100 + outside the allocator 50)");
  p.peak_reserved_bytes = std::numeric_limits<std::uint64_t>::max();
  BOOST_TEST(sw::device_skip_reason(p, byte_count{1}, std::numeric_limits<std::uint64_t>::max())
                 ->starts_with("skipped: predicted more than 2^64 bytes > free 18446744073709551615 bytes"));
}

BOOST_AUTO_TEST_CASE(a_point_whose_build_exceeds_the_hosts_available_memory_is_skipped) {
  const sw::host_need need{137'440'264'192U, 34'359'738'368U, 171'800'002'560U};
  BOOST_TEST(!sw::host_skip_reason(need, 171'800'002'560U).has_value());
  BOOST_TEST(*sw::host_skip_reason(need, 135'000'000'000U) ==
             "skipped: predicted host 171800002560 bytes > available 135000000000 bytes (float32 build on the CPU "
             "137440264192 + converted copy 34359738368)");
}

BOOST_AUTO_TEST_CASE(at_least_as_large_compares_every_axis_and_bytes_per_element) {
  const auto base = point(0, 8, 16, 64, element_type::float16);
  BOOST_TEST(sw::at_least_as_large(point(1, 8, 16, 64, element_type::float16), base));
  BOOST_TEST(sw::at_least_as_large(point(1, 16, 16, 64, element_type::bfloat16), base));  // 2 bytes each
  BOOST_TEST(sw::at_least_as_large(point(1, 8, 32, 128, element_type::float32), base));
  BOOST_TEST(!sw::at_least_as_large(point(1, 4, 1024, 1024, element_type::float32), base));  // smaller batch
  BOOST_TEST(!sw::at_least_as_large(point(1, 8, 8, 64, element_type::float16), base));
  BOOST_TEST(!sw::at_least_as_large(point(1, 8, 16, 32, element_type::float32), base));
  // An equal point is as large: it would fail the same way.
  BOOST_TEST(sw::at_least_as_large(point(1, 8, 16, 64), point(0, 8, 16, 64)));
}

BOOST_AUTO_TEST_CASE(only_an_exit_3_cuts_off_the_larger_points) {
  const auto small = point(2, 8, 16, 64);
  std::vector<sw::point_record> failures{ended_with(point(1, 4, 16, 64), sw::outcome_kind::failed),
                                         ended_with(point(3, 16, 16, 64), sw::outcome_kind::out_of_memory)};
  // 8 < 16: not cut off; the exit-1 failure of batch 4 cuts nothing.
  BOOST_TEST(!sw::cut_off_reason(small, failures).has_value());
  BOOST_TEST(*sw::cut_off_reason(point(4, 32, 16, 64), failures) ==
             "skipped: point 3 (batch 16, context 16, width 64, float32) ended with out_of_memory and this point is at "
             "least as large in batch, context, width and bytes per element");
  failures.push_back(ended_with(point(0, 2, 16, 64), sw::outcome_kind::failed_while_measuring));
  BOOST_TEST(sw::cut_off_reason(small, failures)->starts_with("skipped: point 0 (batch 2,"));
}

BOOST_AUTO_TEST_CASE(exit_3_is_out_of_memory_when_its_message_says_so) {
  BOOST_TEST((sw::exit_3_outcome("failed during phase cold_forward: CUDA out of memory. Tried to allocate 2.00 GiB") ==
              sw::outcome_kind::out_of_memory));
  BOOST_TEST((sw::exit_3_outcome("HIP OUT OF MEMORY") == sw::outcome_kind::out_of_memory));
  BOOST_TEST((sw::exit_3_outcome("failed during phase warmup: an illegal memory access was encountered") ==
              sw::outcome_kind::failed_while_measuring));
  BOOST_TEST((sw::exit_3_outcome("") == sw::outcome_kind::failed_while_measuring));
}

BOOST_AUTO_TEST_CASE(every_outcome_has_a_name_that_reads_back) {
  for (const auto& [kind, name] : sw::outcome_names) {
    BOOST_TEST(sw::name_of(kind) == name);
    BOOST_TEST((sw::parse_outcome(name) == kind));
  }
  BOOST_TEST(!sw::parse_outcome("skipped").has_value());
  BOOST_TEST(sw::is_skip(sw::outcome_kind::skipped_host_memory));
  BOOST_TEST(!sw::is_skip(sw::outcome_kind::out_of_memory));
}

BOOST_AUTO_TEST_CASE(mem_available_is_read_in_bytes_from_meminfo) {
  const std::string meminfo =
      "MemTotal:       24608456 kB\nMemFree:        22001234 kB\nMemAvailable:   23500000 kB\nBuffers: 1 kB\n";
  BOOST_TEST(*sw::parse_mem_available(meminfo) == 23'500'000ULL * 1024ULL);
  BOOST_TEST(!sw::parse_mem_available("MemTotal: 1 kB\n").has_value());
  BOOST_TEST(!sw::parse_mem_available("MemAvailable: 12 MB\n").has_value());
  BOOST_TEST(!sw::parse_mem_available("MemAvailable: x kB\n").has_value());
  // 2^54 kB is 2^64 bytes: past 64 bits.
  BOOST_TEST(!sw::parse_mem_available("MemAvailable: 18014398509481984 kB\n").has_value());
  BOOST_TEST(*sw::parse_mem_available("MemAvailable: 0 kB") == 0U);
}

BOOST_AUTO_TEST_CASE(mem_available_of_this_host_is_read_from_proc) {
  const auto here = sw::read_mem_available();
  BOOST_TEST_REQUIRE(here.has_value());
  BOOST_TEST(*here > 0U);
  const auto file = std::filesystem::temp_directory_path() / "iteragpu-sweep-meminfo-test";
  std::filesystem::remove(file);
  {
    std::ofstream out(file);
    out << "MemAvailable:   1000 kB\n";
  }
  BOOST_TEST(*sw::read_mem_available(file) == 1'024'000U);
  std::filesystem::remove(file);
  BOOST_TEST(!sw::read_mem_available(file).has_value());
}

// The folder's sink keeps a record as new files and says which file it
// could not write and why, as data: the words are the report layer's.
BOOST_AUTO_TEST_CASE(a_record_that_cannot_be_kept_names_its_file) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("iteragpu-keep-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directory(dir);
  auto r = ended_with(point(0, 1, 16, 64), sw::outcome_kind::predicted);
  r.kind = sw::record_kind::prediction;
  r.prediction = *sw::predict_point(r.point, iteragpu::memory::prediction::h200_pytorch_2_11);
  const sw::folder_sink sink(dir, 1);

  // A prediction file left with other content is kept, and named.
  const fs::path prediction = dir / sw::prediction_name(0, 1);
  {
    std::ofstream(prediction) << "{}\n";
  }
  const auto other = sink.keep(r);
  BOOST_TEST_REQUIRE(!other.has_value());
  BOOST_TEST((other.error().file == prediction));
  BOOST_TEST(!other.error().written.has_value());
  BOOST_TEST(iteragpu::report::words_of(other.error()) ==
             "'" + prediction.string() + "' exists with other content; nothing is overwritten");

  // A record whose name is taken: the new-file problem, worded by its describe().
  fs::remove(prediction);
  const fs::path record = dir / sw::record_name(0, 1);
  {
    std::ofstream(record) << "precious";
  }
  const auto taken = sink.keep(r);
  BOOST_TEST_REQUIRE(!taken.has_value());
  BOOST_TEST((taken.error().file == record));
  BOOST_TEST_REQUIRE(taken.error().written.has_value());
  BOOST_TEST((taken.error().written->code == iteragpu::new_file_errc::already_exists));
  BOOST_TEST(iteragpu::report::words_of(taken.error()) ==
             "'" + record.string() + "' already exists; expected a new file name (nothing is overwritten)");
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
