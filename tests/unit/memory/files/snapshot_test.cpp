// The typed snapshot reader: a snapshot's dict becomes typed events,
// segments and settings; a malformed one is refused with the path of the
// fault.
#include "iteragpu/memory/files/snapshot.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "iteragpu/report/replay.hpp"

namespace {

using iteragpu::memory::block_state;
using iteragpu::memory::snapshot_errc;
using iteragpu::memory::snapshot_error;
using iteragpu::memory::snapshot_from;
using iteragpu::memory::trace_action;
using iteragpu::memory::trace_event;

}  // namespace

BOOST_AUTO_TEST_SUITE(snapshot_reader)

BOOST_AUTO_TEST_CASE(a_snapshot_dict_becomes_typed_events_segments_and_settings) {
  const auto document = boost::json::parse(R"({
    "segments": [{"device": 0, "address": 139637976727552, "total_size": 2097152, "stream": 0,
                  "segment_type": "small", "is_expandable": false,
                  "blocks": [{"size": 1024, "requested_size": 1000, "state": "active_allocated"},
                             {"size": 2096128, "requested_size": 0, "state": "inactive"}]}],
    "device_traces": [[{"action": "segment_alloc", "addr": 139637976727552, "size": 2097152, "stream": 0},
                       {"action": "alloc", "addr": 139637976727552, "size": 1000, "stream": 0, "frames": []},
                       {"action": "oom", "device_free": 12345, "size": 1000000, "stream": 0},
                       {"action": "user_defined", "stream": 0}]],
    "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True", "max_split_size": -1,
                           "garbage_collection_threshold": 0.0, "expandable_segments": true,
                           "roundup_power2_divisions": {"1": 0, "2": 4}}
  })");
  const auto s = snapshot_from(document);
  BOOST_TEST_REQUIRE(s.has_value());
  BOOST_TEST_REQUIRE(s->devices.size() == 1U);
  const auto& events = s->devices[0].events;
  BOOST_TEST_REQUIRE(events.size() == 4U);
  BOOST_TEST((events[1] == trace_event{trace_action::alloc, 139637976727552U, 1000, 0}));
  BOOST_TEST((events[2] == trace_event{trace_action::oom, 12345, 1000000, 0}));
  BOOST_TEST((events[3].action == trace_action::other));
  BOOST_TEST_REQUIRE(s->devices[0].segments.size() == 1U);
  const auto& segment = s->devices[0].segments[0];
  BOOST_TEST(segment.small_pool);
  BOOST_TEST_REQUIRE(segment.blocks.size() == 2U);
  // Blocks without an address follow each other from the segment's.
  BOOST_TEST(segment.blocks[1].address == 139637976727552U + 1024U);
  BOOST_TEST((segment.blocks[1].state == block_state::inactive));
  BOOST_TEST_REQUIRE(s->settings.has_value());
  BOOST_TEST(s->settings->expandable_segments);
  BOOST_TEST(!s->settings->max_split_size.has_value());
  BOOST_TEST(s->settings->roundup_power2_divisions.size() == 2U);
  BOOST_TEST(s->settings->alloc_conf == "expandable_segments:True");
}

BOOST_AUTO_TEST_CASE(a_malformed_snapshot_is_refused_with_the_path_of_the_fault) {
  const auto refused = [](const char* text) { return snapshot_from(boost::json::parse(text)).error(); };
  BOOST_TEST((refused("[]") == snapshot_error{snapshot_errc::not_an_object, ""}));
  BOOST_TEST((refused("{}") == snapshot_error{snapshot_errc::missing_field, "device_traces"}));
  BOOST_TEST((refused(R"({"device_traces": [[{"action": "alloc", "addr": 1, "size": -5}]]})") ==
              snapshot_error{snapshot_errc::out_of_range, "device_traces[0][0].size"}));
  // An action PyTorch does not write is refused where it stands, never skipped.
  BOOST_TEST((refused(R"({"device_traces": [[{"action": "alloc", "addr": 1, "size": 5, "stream": 0},
                                              {"action": "allocate", "addr": 2, "size": 5, "stream": 0}]]})") ==
              snapshot_error{snapshot_errc::unknown_value, "device_traces[0][1].action"}));
  BOOST_TEST((refused(R"({"device_traces": [[{"action": "al\u001bloc", "addr": 2, "size": 5, "stream": 0}]]})") ==
              snapshot_error{snapshot_errc::unknown_value, "device_traces[0][0].action"}));
  BOOST_TEST((refused(R"({"device_traces": [[{"action": "alloc", "addr": "x", "size": 5}]]})") ==
              snapshot_error{snapshot_errc::wrong_type, "device_traces[0][0].addr"}));
  BOOST_TEST((refused(R"({"device_traces": [[{"addr": 1}]]})") ==
              snapshot_error{snapshot_errc::missing_field, "device_traces[0][0].action"}));
  BOOST_TEST((refused(R"({"device_traces": [], "segments": [{"device": 0, "address": 1, "total_size": 2,
                "blocks": [{"size": 2, "state": "weird"}]}]})") ==
              snapshot_error{snapshot_errc::unknown_value, "segments[0].blocks[0].state"}));
}

BOOST_AUTO_TEST_CASE(recorded_settings_pytorch_never_writes_are_refused_with_their_place) {
  const auto refused = [](boost::json::value settings) {
    boost::json::object document{{"device_traces", boost::json::array{}}, {"allocator_settings", std::move(settings)}};
    const auto s = snapshot_from(document);
    BOOST_TEST_REQUIRE(!s.has_value());
    return s.error();
  };
  const auto out_of_range = [](const char* place) {
    return snapshot_error{snapshot_errc::out_of_range, std::string("allocator_settings.") + place};
  };
  BOOST_TEST(
      (refused(boost::json::object{{"garbage_collection_threshold", std::numeric_limits<double>::quiet_NaN()}}) ==
       out_of_range("garbage_collection_threshold")));
  BOOST_TEST((refused(boost::json::object{{"garbage_collection_threshold", -0.5}}) ==
              out_of_range("garbage_collection_threshold")));
  BOOST_TEST((refused(boost::json::object{{"garbage_collection_threshold", 1.0}}) ==
              out_of_range("garbage_collection_threshold")));
  BOOST_TEST((refused(boost::json::object{{"max_split_size", 0}}) == out_of_range("max_split_size")));
  BOOST_TEST((refused(boost::json::object{{"max_split_size", -2}}) == out_of_range("max_split_size")));
  BOOST_TEST((refused(boost::json::object{{"max_split_size", (std::uint64_t{20} << 20U) - 1}}) ==
              out_of_range("max_split_size")));
  BOOST_TEST((refused(boost::json::parse(R"({"roundup_power2_divisions": {"1": 0, "2": 3}})")) ==
              out_of_range("roundup_power2_divisions.2")));
  BOOST_TEST((refused(boost::json::parse(R"({"roundup_power2_divisions": {"1": 18446744073709551615}})")) ==
              out_of_range("roundup_power2_divisions.1")));
  // What PyTorch writes is read: the smallest split limit, a threshold below 1.
  boost::json::object document{{"device_traces", boost::json::array{}},
                               {"allocator_settings", boost::json::object{{"max_split_size", std::uint64_t{20} << 20U},
                                                                          {"garbage_collection_threshold", 0.99}}}};
  const auto s = snapshot_from(document);
  BOOST_TEST_REQUIRE(s.has_value());
  BOOST_TEST((s->settings->max_split_size == std::optional<std::uint64_t>(std::uint64_t{20} << 20U)));
  BOOST_TEST(iteragpu::report::describe(out_of_range("max_split_size")) ==
             "allocator_settings.max_split_size is a setting PyTorch never records (max_split_size: -1 for no "
             "limit, or 20 MiB or more; garbage_collection_threshold: 0 up to below 1; roundup_power2_divisions: 0 "
             "or a power of two)");
}

BOOST_AUTO_TEST_SUITE_END()
