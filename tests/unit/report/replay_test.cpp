// The replay's words: trace actions by the names PyTorch records, and byte
// counts with their size.
#include <iteragpu/report/replay.hpp>

#include <boost/json.hpp>  // the headers declare the JSON types only when the bodies are compiled once
#include <boost/test/unit_test.hpp>

namespace report = iteragpu::report;
namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(replay_words)

BOOST_AUTO_TEST_CASE(actions_by_their_recorded_names_and_bytes_with_their_size) {
  BOOST_TEST(report::action_name(mem::trace_action::alloc) == "alloc");
  BOOST_TEST(report::action_name(mem::trace_action::free_completed) == "free_completed");
  BOOST_TEST(report::action_name(mem::trace_action::segment_alloc) == "segment_alloc");
  // Under 1024 bytes, the count alone; from 1024 on, with its size as text_test reads it.
  BOOST_TEST(report::detail::replay_text::bytes_text(iteragpu::byte_count{1000}) ==
             iteragpu::bytes_and_size_text(1000));
  BOOST_TEST(report::detail::replay_text::bytes_text(iteragpu::byte_count{2'097'152}) ==
             iteragpu::bytes_and_size_text(2'097'152));
  // The event's JSON names its action.
  const auto e = report::detail::replay_text::event_json(mem::trace_event{mem::trace_action::oom, 12345, 1'000'000, 0});
  BOOST_TEST(e.as_object().at("action").as_string() == "oom");
}

BOOST_AUTO_TEST_SUITE_END()
