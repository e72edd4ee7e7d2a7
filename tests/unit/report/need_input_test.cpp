#include <iteragpu/report/need_input.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "text_checks.hpp"

#include <iteragpu/io.hpp>
#include <iteragpu/memory/files/measurement_file.hpp>

namespace {

using iteragpu::report::need_from_json;

const std::string fixtures = ITERAGPU_TEST_SOURCE_DIR "/data/fits/";

std::string fixture(const std::string& name) {
  const auto text = iteragpu::read_whole_file(fixtures + name);
  BOOST_REQUIRE_MESSAGE(text.has_value(), "cannot read " + fixtures + name);
  return *text;
}

iteragpu::memory_need need_of(std::string_view text) {
  auto need = need_from_json(text);
  BOOST_REQUIRE_MESSAGE(need.has_value(), (need ? std::string() : need.error().found));
  return std::move(need).value();
}

std::string refusal(std::string_view text) {
  const auto need = need_from_json(text);
  BOOST_REQUIRE_MESSAGE(!need.has_value(), "accepted: " << text);
  return need.error().found;
}

// measurement-v2.json (six rows) with the memory figures of its rows
// replaced: the rows given, each {peak_reserved, end_reserved,
// end_device_used or -1 for null}, then rows that read no device memory
// and reserve nothing.
struct v2_row {
  std::uint64_t peak;
  std::uint64_t end_reserved;
  std::int64_t used;
};

std::string measurement_v2(const std::vector<v2_row>& given) {
  auto document = boost::json::parse(fixture("measurement-v2.json"));
  auto& rows = document.at("phases").as_array();
  BOOST_REQUIRE(given.size() <= rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto& row = rows[i].as_object();
    const v2_row r = i < given.size() ? given[i] : v2_row{0, 0, -1};
    row["peak_reserved_bytes"] = r.peak;
    row["end_reserved_bytes"] = r.end_reserved;
    row["baseline_device_used_bytes"] = nullptr;
    if (r.used < 0) {
      row["end_device_used_bytes"] = nullptr;
    } else {
      row["end_device_used_bytes"] = r.used;
    }
  }
  return boost::json::serialize(document);
}

// measurement-v2.json changed by `change`, as text.
template <class Change>
std::string changed_v2(Change change) {
  auto document = boost::json::parse(fixture("measurement-v2.json"));
  change(document.as_object());
  return boost::json::serialize(document);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(need_from_json_documents)

BOOST_AUTO_TEST_CASE(an_estimate_gives_its_memory_need_bytes) {
  // 7e9 parameters of 2 bytes + 4 GiB: 14000000000 + 4294967296 bytes.
  const auto need = need_of(fixture("estimate-7b.json"));
  BOOST_TEST(need.bytes.value == 18'294'967'296U);
  BOOST_TEST(need.source.starts_with("an estimate: its memory_need.bytes, the estimate's total (weights + reserve)"));
  BOOST_TEST(contains(need.source, "the file says 'estimate: weights + reserve"));
}

BOOST_AUTO_TEST_CASE(a_plan_gives_its_memory_need_bytes) {
  // 1434451968 bytes of peak reserved + 552402944 outside the allocator.
  const auto need = need_of(fixture("plan.json"));
  BOOST_TEST(need.bytes.value == 1'986'854'912U);
  BOOST_TEST(need.source.starts_with(
      "a plan: its memory_need.bytes, the predicted peak reserved plus the memory outside the allocator"));
}

BOOST_AUTO_TEST_CASE(a_schema_1_measurement_gives_its_largest_peak_and_says_what_is_missing) {
  const auto need = need_of(fixture("measurement-v1.json"));
  BOOST_TEST(need.bytes.value == 1'434'451'968U);  // the warm_forward rows' peak_reserved_bytes
  BOOST_TEST(need.source ==
             "measurement (schema_version 1): the largest peak_reserved_bytes of its 6 rows, 1434451968 bytes; the "
             "memory outside the allocator (CUDA context, libraries) was not recorded and is not included");
}

BOOST_AUTO_TEST_CASE(a_schema_2_measurement_adds_the_memory_outside_the_allocator) {
  // The largest device used less reserved of the twelve samples: 2025848832
  // less 1432354816 = 593494016, first at the end of cold_forward (the
  // context alone gives 552402944 at model_load's baseline).
  // 1434451968 + 593494016 = 2027945984.
  const auto need = need_of(fixture("measurement-v2.json"));
  BOOST_TEST(need.bytes.value == 2'027'945'984U);
  BOOST_TEST(need.source ==
             "measurement (schema_version 2): the largest peak_reserved_bytes of its 6 rows, 1434451968 bytes, plus "
             "the memory outside the allocator, 593494016 bytes: the largest device used less reserved at the baseline "
             "and end of every row (device used 2025848832 less reserved 1432354816), floored at 0");
  const auto unrecorded = need_of(fixture("measurement-v2-not-recorded.json"));
  BOOST_TEST(unrecorded.bytes.value == 1'434'451'968U);
  BOOST_TEST(contains(unrecorded.source, "was not recorded and is not included"));
}

BOOST_AUTO_TEST_CASE(a_measurement_of_the_users_own_module_gives_its_need) {
  // `measure --torchscript` writes the same rows and statistics with a
  // workload in place of the synthetic network's shape: its need is read
  // as a synthetic run's (compare alone refuses it, by name).
  const std::string module = changed_v2([](boost::json::object& o) {
    auto& configuration = o["configuration"].as_object();
    for (const auto* key : {"batch", "context", "width", "dtype"}) {
      configuration.erase(key);
    }
    o["workload"] = boost::json::parse(R"({"kind":"torchscript","file":"m.pt","sha256":"00","inputs":["2x8:float32"],)"
                                       R"("train":false,"input_high":1})");
    o["synthetic_model"] = nullptr;
  });
  const auto need = need_of(module);
  const auto synthetic = need_of(fixture("measurement-v2.json"));
  BOOST_TEST(need.bytes.value == 2'027'945'984U);
  BOOST_TEST(need.source == synthetic.source);
  const auto run = iteragpu::memory::measurement_from_json(boost::json::parse(module));
  BOOST_REQUIRE(run.has_value());
  BOOST_TEST(!run->synthetic);
  BOOST_TEST(run->configuration.device == "cuda:0");
  BOOST_TEST(run->configuration.batch == 0U);
  BOOST_TEST(iteragpu::memory::measurement_from_json(boost::json::parse(fixture("measurement-v2.json")))->synthetic);
  BOOST_TEST((iteragpu::memory::measurement_from_text(module).error().code ==
              iteragpu::memory::measurement_read_errc::torchscript));
}

BOOST_AUTO_TEST_CASE(the_memory_outside_the_allocator_is_the_largest_difference_of_any_row) {
  // Row 1's difference (800 - 100 = 700) is the largest, though row 2 has
  // the largest device use (900 - 600 = 300): 1000 + 700.
  BOOST_TEST(need_of(measurement_v2({{1000, 100, 800}, {500, 600, 900}, {10, 10, -1}})).bytes.value == 1700U);
  // Device use below the allocator's reserve (another reading moment):
  // floored at 0, so the need is the peak alone.
  BOOST_TEST(need_of(measurement_v2({{1000, 700, 600}})).bytes.value == 1000U);
  // Equal device use: the larger difference.
  BOOST_TEST(need_of(measurement_v2({{1000, 700, 900}, {1000, 100, 900}})).bytes.value == 1800U);
  // Peak plus outside past 64 bits.
  BOOST_TEST(contains(refusal(measurement_v2({{UINT64_MAX, 0, 1}})), "passes 64 bits of bytes"));
  BOOST_TEST(need_of(measurement_v2({{UINT64_MAX - 1, 0, 1}})).bytes.value == UINT64_MAX);
}

BOOST_AUTO_TEST_CASE(an_extrapolation_gives_each_card_its_own_need_at_the_size_asked) {
  // extrapolation.json at 64: every card judged, each fitting with the upper
  // end's peak reserved, 9273606144 bytes, plus the 718077952 outside.
  const auto text = fixture("extrapolation.json");
  const auto need = need_from_json(text, 64);
  BOOST_REQUIRE(need.has_value());
  BOOST_TEST(need->bytes.value == 9'273'606'144U + 718'077'952U);
  BOOST_TEST(need->outside.value == 718'077'952U);
  BOOST_REQUIRE(need->per_gpu.size() == 16U);
  BOOST_TEST(need->per_gpu[2].gpu == "h200");
  BOOST_TEST(need->per_gpu[2].capacity.value == 147'803'439'104U);
  BOOST_TEST(need->per_gpu[2].need.value().value == 9'273'606'144U + 718'077'952U);
  // The band a catalog gives that card: judged there only where it is the
  // band the verdict was made under (its low end less the memory outside).
  const iteragpu::byte_count h200_low{147'803'439'104U + 718'077'952U};
  BOOST_TEST(iteragpu::need_on(*need, "h200", h200_low).value().value == 9'991'684'096U);
  BOOST_TEST(!iteragpu::need_on(*need, "h200", iteragpu::byte_count{h200_low.value + 1}).has_value());
  BOOST_TEST(!iteragpu::need_on(*need, "no-such-gpu", h200_low).has_value());
  // A card that does not fit has no need; it is judged, not listed.
  const std::string one = R"({"kind": "extrapolation", "assumptions": {"outside_allocator_bytes": 10},)"
                          R"( "cards": [{"gpu": "x", "capacity_bytes": 100, "sizes": [{"size": 8, "alloc_conf": "",)"
                          R"( "fits": false, "peak_reserved_bytes": 90, "oom": true, "exact": true}]}]})";
  const auto judged = need_from_json(one, 8);
  BOOST_REQUIRE(judged.has_value());
  BOOST_REQUIRE(judged->per_gpu.size() == 1U);
  BOOST_TEST(!judged->per_gpu[0].need.has_value());
  BOOST_TEST(!iteragpu::need_on(*judged, "x", iteragpu::byte_count{110}).has_value());
  // fits and oom must say the same thing twice.
  std::string contrary = one;
  contrary.replace(contrary.find("\"fits\": false"), 13, "\"fits\": true");
  BOOST_TEST(need_from_json(contrary, 8).error().found ==
             "an extrapolation whose cards[0] at size 8 says fits true and oom true (expected one true, the other "
             "false)");
  BOOST_TEST(need_from_json(text, 9).error().found ==
             "an extrapolation with no card judged at size 9 under the recorded settings (an extrapolation that "
             "judges the cards at size 9)");
  BOOST_TEST(need_from_json(text).error().found ==
             "an extrapolation, which gives a need only at one size (expected a size)");
  BOOST_TEST(need_from_json(fixture("plan.json"), 8).error().found ==
             "a document that is not an extrapolation, which a size does not go with");
  // The JSON of an earlier version, without cards, is refused with what to do.
  const std::string older = R"({"kind": "extrapolation", "predictions": []})";
  BOOST_TEST(contains(need_from_json(older, 8).error().found, "without its assumptions object and cards array"));
}

BOOST_AUTO_TEST_CASE(documents_of_another_kind_are_refused_with_what_they_are) {
  BOOST_TEST(refusal(fixture("kind-sweep.json")) == "JSON of kind 'sweep'");
  BOOST_TEST(refusal(R"({"kind":7})") == "JSON of kind '7'");
  BOOST_TEST(refusal(fixture("schema-version-3.json")) == "a measurement of schema_version '3'");
  BOOST_TEST(refusal(R"({"schema_version":"1","phases":[]})") == "a measurement of schema_version '\"1\"'");
  BOOST_TEST(refusal(fixture("quote.json")) == "a JSON object that is neither an estimate, a plan nor a measurement");
  BOOST_TEST(refusal(fixture("array.json")) == "JSON that is not an object");
  BOOST_TEST(refusal("17.04") == "JSON that is not an object");
  BOOST_TEST(refusal("{}") == "a JSON object that is neither an estimate, a plan nor a measurement");
}

BOOST_AUTO_TEST_CASE(malformed_json_is_refused) {
  BOOST_TEST(refusal(fixture("truncated.json")).starts_with("not valid JSON ("));
  BOOST_TEST(refusal("").starts_with("not valid JSON ("));
  BOOST_TEST(refusal(R"({"kind":"plan",})").starts_with("not valid JSON ("));  // trailing comma
  BOOST_TEST(refusal("{\"kind\":\"plan\"} trailing").starts_with("not valid JSON ("));
  BOOST_TEST(refusal("{\"kind\":\"\xff\"}").starts_with("not valid JSON ("));  // invalid UTF-8
}

BOOST_AUTO_TEST_CASE(needs_that_are_not_byte_counts_are_refused) {
  BOOST_TEST(refusal(fixture("estimate-need-null.json")) ==
             "an estimate whose memory_need is null (the need passes 64 bits of bytes)");
  BOOST_TEST(refusal(fixture("negative-peak.json")) ==
             "a measurement that cannot be read: phases[1].peak_reserved_bytes is the number -1; expected a byte "
             "count, an integer of 0 or more");
  BOOST_TEST(contains(refusal(R"({"kind":"plan","memory_need":{"bytes":1.5}})"), "memory_need.bytes '1.5E0'"));
  BOOST_TEST(contains(refusal(R"({"kind":"plan","memory_need":{"bytes":1e3}})"), "memory_need.bytes '1E3'"));
  BOOST_TEST(contains(refusal(R"({"kind":"plan","memory_need":{"bytes":"12"}})"), "memory_need.bytes '\"12\"'"));
  BOOST_TEST(contains(refusal(R"({"kind":"plan","memory_need":{"bytes":18446744073709551616}})"), "memory_need.bytes"));
  BOOST_TEST(refusal(R"({"kind":"plan","memory_need":{}})") == "a plan with memory_need.bytes missing");
  BOOST_TEST(refusal(R"({"kind":"plan"})") == "a plan without memory_need");
  // A replay has no need when every setting ran out of memory: the search says what each needs.
  BOOST_TEST(refusal(R"({"kind":"replay","memory_need":null})") ==
             "a replay whose memory_need is null (every setting replayed ran out of memory, or fits no "
             "capacity; a replay for the smallest capacity gives the least capacity each setting needs)");
  BOOST_TEST(refusal(R"({"kind":"plan","memory_need":[1]})") == "a plan whose memory_need is not an object");
  BOOST_TEST(need_of(R"({"kind":"plan","memory_need":{"bytes":18446744073709551615}})").bytes.value == UINT64_MAX);
  BOOST_TEST(need_of(R"({"kind":"plan","memory_need":{"bytes":0}})").bytes.value == 0U);
}

BOOST_AUTO_TEST_CASE(measurements_that_compare_refuses_are_refused_in_its_words) {
  // The one reader of a measurement file: what compare refuses gives no
  // need, and the words say where and what is accepted there.
  const std::string head = "a measurement that cannot be read: ";
  BOOST_TEST(refusal(changed_v2([](boost::json::object& o) { o["phases"] = boost::json::array{}; })) ==
             head + "phases has 0 rows; expected model_load, inputs, cold_forward, warmup and at least one "
                    "warm_forward row");
  BOOST_TEST(refusal(R"({"schema_version":1,"phases":[{"peak_reserved_bytes":7}]})") ==
             head + "the document has no \"configuration\"; expected an object");
  BOOST_TEST(refusal(changed_v2([](boost::json::object& o) { o["phases"].as_array()[0] = 1; })) ==
             head + "phases[0] is the number 1; expected an object");
  BOOST_TEST(refusal(changed_v2([](boost::json::object& o) {
               o["phases"].as_array()[0].as_object().erase("peak_reserved_bytes");
             })) == head + "phases[0] has no \"peak_reserved_bytes\"; expected a byte count, an integer of 0 or more");
  BOOST_TEST(refusal(changed_v2([](boost::json::object& o) {
               o["phases"].as_array()[2].as_object()["end_device_used_bytes"] = -5;
             })) == head + "phases[2].end_device_used_bytes is the number -5; expected null or a byte count, an "
                           "integer of 0 or more");
  BOOST_TEST(refusal(changed_v2([](boost::json::object& o) {
               o["phases"].as_array()[5].as_object().erase("seconds");
             })) == head + "phases[5] has no \"seconds\"; expected a finite number of seconds, 0 or more");
  BOOST_TEST(refusal(changed_v2([](boost::json::object& o) {
               o["statistics"].as_object()["warm_forward"].as_object()["seconds"].as_object()["count"] = 3;
             })) == head + "statistics.warm_forward.seconds.count is 3 but phases has 2 warm_forward rows; expected "
                           "the two equal");
  // A schema-2 file that does not record the device's memory at all (no
  // device-used key) is read, and its need is its peak.
  const auto silent = need_of(changed_v2([](boost::json::object& o) {
    for (auto& row : o["phases"].as_array()) {
      row.as_object().erase("baseline_device_used_bytes");
      row.as_object().erase("end_device_used_bytes");
    }
  }));
  BOOST_TEST(silent.bytes.value == 1'434'451'968U);
  BOOST_TEST(contains(silent.source, "was not recorded and is not included"));
}

BOOST_AUTO_TEST_SUITE_END()
