#include <iteragpu/memory/measured_need.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <iteragpu/io.hpp>
#include <iteragpu/memory/files/measurement_file.hpp>
#include <iteragpu/memory/files/memory_need_file.hpp>
#include <iteragpu/memory/synthetic_measurement.hpp>
#include <iteragpu/report/need_input.hpp>
#include <iteragpu/sweep/files/record.hpp>

namespace {

using iteragpu::memory::device_sample;
using iteragpu::memory::measurement_file_errc;
using iteragpu::memory::read_measurement_file;

// tests/data/fits/measurement-v2-outside.json, the file on which the three
// definitions the programs used to have disagree. Its samples (device used
// / reserved, then used less reserved):
//   model_load    baseline  700 /    0 -> 700   end 1000 /  600 -> 400
//   inputs        baseline 1000 /  600 -> 400   end 2000 / 1800 -> 200
//   cold_forward  baseline 2000 / 1800 -> 200   end 2000 / 1500 -> 500
// The largest peak reserved is 1900 (cold_forward).
//   - the end of the first row of largest device use (the old `measure`):
//     inputs, 200, a need of 2100;
//   - the same, ties broken by the larger difference (the old
//     `calcul_forfaits --fits`): cold_forward, 500, a need of 2400;
//   - the largest difference at the baseline and end of every row (the
//     sweep, and now all of them): model_load's baseline, 700, a need of
//     1900 + 700 = 2600.
const std::string disagreeing = ITERAGPU_TEST_SOURCE_DIR "/data/fits/measurement-v2-outside.json";

std::string text_of(const std::string& path) {
  const auto text = iteragpu::read_whole_file(path);
  BOOST_REQUIRE_MESSAGE(text.has_value(), "cannot read " + path);
  return *text;
}

iteragpu::memory::measurement_file file_of(const std::string& text) {
  auto file = read_measurement_file(boost::json::parse(text));
  BOOST_REQUIRE(file.has_value());
  return std::move(file).value();
}

iteragpu::memory::measurement_file_error refusal(const std::string& text) {
  auto file = read_measurement_file(boost::json::parse(text));
  BOOST_REQUIRE(!file.has_value());
  return std::move(file).error();
}

// The same rows as the file, as `measure` holds them before writing.
std::vector<iteragpu::memory::phase_row> rows_as_measured() {
  using iteragpu::memory::phase_kind;
  std::vector<iteragpu::memory::phase_row> rows(3);
  const std::array<phase_kind, 3> kinds{phase_kind::model_load, phase_kind::inputs, phase_kind::cold_forward};
  const std::array<std::array<std::uint64_t, 5>, 3> figures{{{700, 0, 1000, 600, 600},
                                                             {1000, 600, 2000, 1800, 1800},
                                                             {2000, 1800, 2000, 1500, 1900}}};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].phase = kinds.at(i);
    rows[i].baseline_device_used_bytes = figures.at(i)[0];
    rows[i].baseline_reserved_bytes = figures.at(i)[1];
    rows[i].end_device_used_bytes = figures.at(i)[2];
    rows[i].end_reserved_bytes = figures.at(i)[3];
    rows[i].peak_reserved_bytes = figures.at(i)[4];
  }
  return rows;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(measured_need)

BOOST_AUTO_TEST_CASE(the_memory_outside_the_allocator_is_the_largest_difference_of_every_sample) {
  const std::vector<device_sample> samples{{700, 0}, {1000, 600}, {2000, 1800}, {2000, 1500}, {100, 300}};
  BOOST_TEST(*iteragpu::memory::memory_outside_allocator(samples) == 700U);
  // Used below reserved (read one after the other) is floored at 0.
  BOOST_TEST(*iteragpu::memory::memory_outside_allocator(std::vector<device_sample>{{100, 300}}) == 0U);
  BOOST_TEST(!iteragpu::memory::memory_outside_allocator(std::vector<device_sample>{}).has_value());
  const auto need = iteragpu::memory::need_of_measurement(1900, samples);
  BOOST_REQUIRE(need.has_value());
  BOOST_TEST(need->bytes == 2600U);
  BOOST_TEST((*need->outside_sample == device_sample{700, 0}));
  BOOST_TEST(iteragpu::memory::need_of_measurement(5, std::vector<device_sample>{})->bytes == 5U);
  BOOST_TEST((iteragpu::memory::need_of_measurement(UINT64_MAX, std::vector<device_sample>{{1, 0}}).error() ==
              iteragpu::memory::measured_need_error::past_64_bits));
}

BOOST_AUTO_TEST_CASE(measure_and_fits_agree_on_a_file_where_the_old_definitions_differ) {
  const auto text = text_of(disagreeing);
  // What `measure` writes: memory_outside_allocator_bytes and memory_need.
  const auto rows = rows_as_measured();
  BOOST_TEST(*iteragpu::memory::memory_outside_allocator(rows) == 700U);
  BOOST_TEST(iteragpu::memory::need_of(rows)->bytes.value == 2600U);
  // What `calcul_forfaits --fits` reads from the file.
  const auto fits = iteragpu::report::need_from_json(text);
  BOOST_REQUIRE(fits.has_value());
  BOOST_TEST(fits->bytes.value == 2600U);
  BOOST_TEST(fits->source ==
             "measurement (schema_version 2): the largest peak_reserved_bytes of its 3 rows, 1900 bytes, plus the "
             "memory outside the allocator, 700 bytes: the largest device used less reserved at the baseline and end "
             "of every row (device used 700 less reserved 0), floored at 0");
  // The typed value, read once.
  const auto file = file_of(text);
  BOOST_TEST(file.schema_version == 2);
  BOOST_TEST(file.phases.size() == 3U);
  BOOST_TEST(file.peak_reserved_bytes() == 1900U);
  BOOST_TEST((file.device_samples() == iteragpu::memory::device_samples(rows)));
  BOOST_TEST(*iteragpu::memory::memory_outside_allocator(file.device_samples()) == 700U);
}

BOOST_AUTO_TEST_CASE(a_sweep_record_counts_what_fits_counts) {
  // The sweep reads a point's `measure` result through compare's reader:
  // the same file, completed to a whole measurement (the fields compare
  // asks for, and a warmup and a warm_forward row that read no device
  // memory), gives the same 700.
  auto doc = boost::json::parse(text_of(disagreeing));
  auto& top = doc.as_object();
  auto& rows = top.at("phases").as_array();
  for (const auto* phase : {"warmup", "warm_forward"}) {
    boost::json::object row = rows.back().as_object();
    row["phase"] = phase;
    row["baseline_device_used_bytes"] = nullptr;
    row["end_device_used_bytes"] = nullptr;
    rows.emplace_back(std::move(row));
  }
  rows.back().as_object()["repeat"] = 0;
  for (auto& row : rows) {
    auto& o = row.as_object();
    o["seconds"] = 0.5;
    o["gpu_seconds"] = 0.25;
    o["baseline_allocated_bytes"] = 0;
    o["end_allocated_bytes"] = 0;
    o["peak_allocated_bytes"] = o.at("peak_reserved_bytes");
  }
  top["configuration"] = boost::json::parse(
      R"({"device":"cuda:0","batch":1,"context":8,"width":16,"dtype":"float32","warmup":1,"repeats":1})");
  top["environment"] = boost::json::object{};
  top["statistics"] = boost::json::parse(
      R"({"warm_forward":{"seconds":{"count":1,"median":0.5,"median_ci":null},)"
      R"("gpu_seconds":{"count":1,"median":0.25,"median_ci":null}},)"
      R"("repeats_with_gpu_state":0,"repeats_under_throttling":0})");
  const auto figures = iteragpu::sweep::files::measured_from(doc);
  BOOST_REQUIRE(figures.has_value());
  BOOST_REQUIRE(figures->outside_allocator_bytes.has_value());
  BOOST_TEST(*figures->outside_allocator_bytes == 700U);
  BOOST_TEST(figures->peak_reserved_bytes == 1900U);
  // A device-used value that is not a byte count: both readers refuse the
  // file, and say where.
  doc.at("phases").as_array().at(1).as_object()["end_device_used_bytes"] = -5;  // the object grew: look again
  const auto refused = iteragpu::sweep::files::measured_from(doc);
  BOOST_REQUIRE(!refused.has_value());
  BOOST_TEST(refused.error().field.path == "phases[1].end_device_used_bytes");
  BOOST_TEST(refused.error().field.found == "-5");
  const auto file = read_measurement_file(doc);
  BOOST_REQUIRE(!file.has_value());
  BOOST_TEST(file.error().row == 1U);
  BOOST_TEST(file.error().field == "end_device_used_bytes");
}

BOOST_AUTO_TEST_CASE(a_schema_1_file_has_no_device_sample) {
  const auto file = file_of(R"({"schema_version":1,"phases":[{"peak_reserved_bytes":7,"end_device_used_bytes":90}]})");
  BOOST_TEST(file.device_samples().empty());
  BOOST_TEST(file.need()->bytes == 7U);
  BOOST_TEST(!file.need()->outside_sample.has_value());
}

BOOST_AUTO_TEST_CASE(a_refused_file_says_which_row_key_and_value) {
  auto e = refusal(R"([1])");
  BOOST_TEST((e.kind == measurement_file_errc::not_an_object));
  e = refusal(R"({"phases":[]})");
  BOOST_TEST((e.kind == measurement_file_errc::no_schema_version));
  e = refusal(R"({"schema_version":3})");
  BOOST_TEST((e.kind == measurement_file_errc::unknown_schema_version));
  BOOST_TEST(e.value == "3");
  e = refusal(R"({"schema_version":2,"phases":[]})");
  BOOST_TEST((e.kind == measurement_file_errc::no_phases));
  BOOST_TEST(e.schema_version == 2);
  e = refusal(R"({"schema_version":2,"phases":[{"peak_reserved_bytes":1,"end_reserved_bytes":1,"end_device_used_bytes":null},4]})");
  BOOST_TEST((e.kind == measurement_file_errc::row_not_an_object));
  BOOST_TEST(e.row == 1U);
  e = refusal(R"({"schema_version":2,"phases":[{"peak_reserved_bytes":1,"end_reserved_bytes":1,"end_device_used_bytes":1,"baseline_device_used_bytes":5}]})");
  BOOST_TEST((e.kind == measurement_file_errc::field_missing));
  BOOST_TEST(e.field == "baseline_reserved_bytes");
  e = refusal(R"({"schema_version":2,"phases":[{"peak_reserved_bytes":1,"end_reserved_bytes":1,"end_device_used_bytes":1,"baseline_device_used_bytes":-5}]})");
  BOOST_TEST((e.kind == measurement_file_errc::field_not_bytes_or_null));
  BOOST_TEST(e.field == "baseline_device_used_bytes");
  BOOST_TEST(e.value == "-5");
  e = refusal(R"({"schema_version":1,"phases":[{"peak_reserved_bytes":1.5}]})");
  BOOST_TEST((e.kind == measurement_file_errc::field_not_bytes));
  BOOST_TEST(e.field == "peak_reserved_bytes");
  BOOST_TEST(e.row == 0U);
}

BOOST_AUTO_TEST_CASE(the_memory_need_of_an_estimate_or_a_plan_is_read_with_its_source) {
  using iteragpu::memory::memory_need_errc;
  using iteragpu::memory::read_memory_need;
  const auto read = [](const char* text) { return read_memory_need(boost::json::parse(text).as_object()); };
  const auto need = read(R"({"memory_need":{"bytes":18446744073709551615,"source":"plan: x"}})");
  BOOST_REQUIRE(need.has_value());
  BOOST_TEST(need->bytes == UINT64_MAX);
  BOOST_TEST((need->source == std::optional<std::string>("plan: x")));
  BOOST_TEST(!read(R"({"memory_need":{"bytes":0,"source":7}})")->source.has_value());
  BOOST_TEST((read(R"({})").error().kind == memory_need_errc::missing));
  BOOST_TEST((read(R"({"memory_need":null})").error().kind == memory_need_errc::null));
  BOOST_TEST((read(R"({"memory_need":[1]})").error().kind == memory_need_errc::not_an_object));
  BOOST_TEST((read(R"({"memory_need":{}})").error().kind == memory_need_errc::bytes_missing));
  const auto negative = read(R"({"memory_need":{"bytes":-1}})");
  BOOST_TEST((negative.error().kind == memory_need_errc::bytes_not_bytes));
  BOOST_TEST(negative.error().value == "-1");
}

BOOST_AUTO_TEST_SUITE_END()
