#include <iteragpu/memory/measured_need.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
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
using iteragpu::memory::measurement_field_errc;
using iteragpu::memory::measurement_from_json;
using iteragpu::memory::measurement_read_errc;

// tests/data/fits/measurement-v2-outside.json, the file on which the three
// definitions the programs used to have disagree. Its samples (device used
// / reserved, then used less reserved; warmup and warm_forward read no
// device memory):
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

iteragpu::memory::measured_run run_of(const boost::json::value& document) {
  auto run = measurement_from_json(document);
  BOOST_REQUIRE_MESSAGE(run.has_value(), "refused: " << boost::json::serialize(document));
  return std::move(run).value();
}

iteragpu::memory::measurement_read_error refusal(const boost::json::value& document) {
  auto run = measurement_from_json(document);
  BOOST_REQUIRE_MESSAGE(!run.has_value(), "accepted: " << boost::json::serialize(document));
  return std::move(run).error();
}

// The same rows as the file, as `measure` holds them before writing.
std::vector<iteragpu::memory::phase_row> rows_as_measured() {
  using iteragpu::memory::phase_kind;
  std::vector<iteragpu::memory::phase_row> rows(3);
  const std::array<phase_kind, 3> kinds{phase_kind::model_load, phase_kind::inputs, phase_kind::cold_forward};
  const std::array<std::array<std::uint64_t, 5>, 3> figures{
      {{700, 0, 1000, 600, 600}, {1000, 600, 2000, 1800, 1800}, {2000, 1800, 2000, 1500, 1900}}};
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
              iteragpu::memory::measured_need_errc::past_64_bits));
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
             "measurement (schema_version 2): the largest peak_reserved_bytes of its 5 rows, 1900 bytes, plus the "
             "memory outside the allocator, 700 bytes: the largest device used less reserved at the baseline and end "
             "of every row (device used 700 less reserved 0), floored at 0");
  // The typed value, read once by the one reader, and the need derived from it.
  const auto run = run_of(boost::json::parse(text));
  BOOST_TEST(run.schema_version == 2);
  BOOST_TEST(run.phases.size() == 5U);
  BOOST_TEST(iteragpu::memory::peak_reserved_bytes(run.phases) == 1900U);
  BOOST_TEST((iteragpu::memory::device_samples(run.phases) == iteragpu::memory::device_samples(rows)));
  BOOST_TEST(*iteragpu::memory::memory_outside_allocator(run.phases) == 700U);
  const auto need = iteragpu::memory::need_of_measurement(run);
  BOOST_REQUIRE(need.has_value());
  BOOST_TEST(need->bytes == 2600U);
  BOOST_TEST((*need->outside_sample == device_sample{700, 0}));
}

BOOST_AUTO_TEST_CASE(a_sweep_record_counts_what_fits_counts) {
  // The sweep reads a point's `measure` result through the same reader.
  auto doc = boost::json::parse(text_of(disagreeing));
  const auto figures = iteragpu::sweep::files::measured_from(doc);
  BOOST_REQUIRE(figures.has_value());
  BOOST_REQUIRE(figures->outside_allocator_bytes.has_value());
  BOOST_TEST(*figures->outside_allocator_bytes == 700U);
  BOOST_TEST(figures->peak_reserved_bytes == 1900U);
  // A device-used value that is not a byte count: the sweep and
  // `calcul_forfaits --fits` refuse the file, and say the same place.
  doc.at("phases").as_array().at(1).as_object()["end_device_used_bytes"] = -5;
  const auto refused = iteragpu::sweep::files::measured_from(doc);
  BOOST_REQUIRE(!refused.has_value());
  BOOST_TEST((refused.error().code == measurement_read_errc::bad_field));
  const auto* field = refused.error().what.get_if<iteragpu::memory::measurement_field_error>();
  BOOST_REQUIRE(field != nullptr);
  BOOST_TEST((field->code == measurement_field_errc::wrong_value));
  BOOST_TEST(field->path == "phases[1].end_device_used_bytes");
  const auto* value = field->what.get_if<iteragpu::memory::rejected_value>();
  BOOST_REQUIRE(value != nullptr);
  BOOST_TEST(value->found == "-5");
  BOOST_TEST(value->expected == "null or a byte count, an integer of 0 or more");
  BOOST_TEST((refusal(doc) == refused.error()));
  const auto fits = iteragpu::report::need_from_json(boost::json::serialize(doc));
  BOOST_REQUIRE(!fits.has_value());
  BOOST_TEST(fits.error().found ==
             "a measurement that cannot be read: phases[1].end_device_used_bytes is the number -5; expected null or "
             "a byte count, an integer of 0 or more");
}

BOOST_AUTO_TEST_CASE(files_measure_wrote_give_fits_the_need_they_record) {
  // The schema-2 files of tests/data/measurements, written by `measure`
  // over a fake runtime: read back by the one reader, each gives the
  // memory outside the allocator and the need that it records.
  for (const char* name : {"fake-rate-bfloat16.json", "fake-rate-float16.json", "fake-small-float32-auto.json",
                           "fake-small-float32-faster-other-driver.json", "fake-small-float32-repeats20.json",
                           "fake-small-float32-slower.json"}) {
    BOOST_TEST_CONTEXT(name) {
      const auto text = text_of(std::string(ITERAGPU_TEST_SOURCE_DIR "/data/measurements/") + name);
      const auto document = boost::json::parse(text);
      const auto& recorded = document.as_object();
      const auto run = run_of(document);
      BOOST_TEST(*iteragpu::memory::memory_outside_allocator(run.phases) ==
                 recorded.at("memory_outside_allocator_bytes").to_number<std::uint64_t>());
      const auto fits = iteragpu::report::need_from_json(text);
      BOOST_REQUIRE(fits.has_value());
      BOOST_TEST(fits->bytes.value == recorded.at("memory_need").at("bytes").to_number<std::uint64_t>());
    }
  }
}

BOOST_AUTO_TEST_CASE(a_schema_1_file_has_no_device_sample) {
  const auto run = run_of(boost::json::parse(text_of(ITERAGPU_TEST_SOURCE_DIR "/data/fits/measurement-v1.json")));
  BOOST_TEST(run.schema_version == 1);
  BOOST_TEST(iteragpu::memory::device_samples(run.phases).empty());
  const auto need = iteragpu::memory::need_of_measurement(run);
  BOOST_REQUIRE(need.has_value());
  BOOST_TEST(need->bytes == 1'434'451'968U);
  BOOST_TEST(need->peak_reserved_bytes == 1'434'451'968U);
  BOOST_TEST(!need->outside_sample.has_value());
}

BOOST_AUTO_TEST_CASE(a_refused_file_says_what_and_where) {
  auto e = refusal(boost::json::parse(R"([1])"));
  BOOST_TEST((e.code == measurement_read_errc::top_level));
  BOOST_TEST((e.what == iteragpu::memory::measurement_read_data{iteragpu::memory::found_value{"[1]"}}));
  e = refusal(boost::json::parse(R"({"phases":[]})"));
  BOOST_TEST((e.code == measurement_read_errc::no_schema_version));
  e = refusal(boost::json::parse(R"({"schema_version":3})"));
  BOOST_TEST((e.code == measurement_read_errc::unknown_schema_version));
  BOOST_TEST((e.what == iteragpu::memory::measurement_read_data{iteragpu::memory::found_value{"3"}}));
  auto doc = boost::json::parse(text_of(disagreeing));
  doc.at("phases").as_array().at(0).as_object().erase("peak_reserved_bytes");
  e = refusal(doc);
  BOOST_TEST((e.code == measurement_read_errc::bad_field));
  BOOST_TEST(
      (e.what == iteragpu::memory::measurement_read_data{iteragpu::memory::measurement_field_error{
                     measurement_field_errc::missing, "phases[0]",
                     iteragpu::memory::missing_key{"peak_reserved_bytes", "a byte count, an integer of 0 or more"}}}));
  doc.at("phases").as_array().at(0).as_object()["peak_reserved_bytes"] = 1.5;
  e = refusal(doc);
  BOOST_TEST((e.what == iteragpu::memory::measurement_read_data{iteragpu::memory::measurement_field_error{
                            measurement_field_errc::wrong_value, "phases[0].peak_reserved_bytes",
                            iteragpu::memory::rejected_value{"1.5E0", "a byte count, an integer of 0 or more"}}}));
  doc.at("phases").as_array().at(0).as_object()["peak_reserved_bytes"] = 600;
  BOOST_TEST(run_of(doc).phases.size() == 5U);
  // The second row written as warmup: inputs was expected there.
  auto swapped = doc;
  swapped.at("phases").as_array().at(1).as_object()["phase"] = "warmup";
  e = refusal(swapped);
  BOOST_TEST(
      (e.what == iteragpu::memory::measurement_read_data{iteragpu::memory::measurement_field_error{
                     measurement_field_errc::wrong_row, "phases[1]",
                     iteragpu::memory::misplaced_row{"warmup", "null", iteragpu::memory::phase_kind::inputs, {}}}}));
  // Three rows: no warm_forward row.
  auto short_run = doc;
  short_run.at("phases").as_array().resize(3);
  e = refusal(short_run);
  BOOST_TEST((e.what == iteragpu::memory::measurement_read_data{iteragpu::memory::measurement_field_error{
                            measurement_field_errc::too_few_rows, "phases", iteragpu::memory::row_count{3}}}));
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
  BOOST_TEST((read(R"({})").error().code == memory_need_errc::missing));
  BOOST_TEST((read(R"({"memory_need":null})").error().code == memory_need_errc::null));
  BOOST_TEST((read(R"({"memory_need":[1]})").error().code == memory_need_errc::not_an_object));
  BOOST_TEST((read(R"({"memory_need":{}})").error().code == memory_need_errc::bytes_missing));
  const auto negative = read(R"({"memory_need":{"bytes":-1}})");
  BOOST_TEST((negative.error().code == memory_need_errc::bytes_not_bytes));
  BOOST_TEST(negative.error().value == "-1");
}

BOOST_AUTO_TEST_SUITE_END()
