// The rules of `compare`, on values built here: the time verdict from two
// confidence intervals of the median, the memory of matched rows, the
// environment and configuration facts, and the one-line verdict. The
// intervals are worked out by hand in the comments.
#include <iteragpu/memory/compare.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/statistics.hpp>

namespace {

using iteragpu::memory::median_estimate;
using iteragpu::memory::time_basis;
using iteragpu::memory::time_verdict;

median_estimate estimate_of(const std::vector<double>& values) {
  const auto s = iteragpu::memory::summarize(values);
  BOOST_TEST_REQUIRE(s.has_value());
  return iteragpu::memory::median_estimate_of(*s);
}

// Ten values a, a + step, ..., a + 9 step. With n = 10 the interval of the
// median is [x(2), x(9)]: P(Binomial(10, 1/2) <= 1) = 11/1024 = 0.0107 is
// within 0.025 and P(<= 2) = 56/1024 = 0.0547 is not, so l = 2, u = 9.
std::vector<double> ten_from(double first, double step) {
  std::vector<double> v;
  v.reserve(10);
  for (int i = 0; i < 10; ++i) {
    v.push_back(first + step * i);
  }
  return v;
}

// A: 1.00 ... 1.09 ms, median (1.04 + 1.05) / 2 = 1.045, interval [1.01, 1.08].
const std::vector<double> reference = ten_from(1.00e-3, 0.01e-3);

iteragpu::memory::phase_row row(iteragpu::memory::phase_kind phase, std::optional<std::uint64_t> repeat,
                                std::uint64_t end_allocated) {
  iteragpu::memory::phase_row r;
  r.phase = phase;
  r.repeat = repeat;
  r.baseline_allocated_bytes = 100;
  r.baseline_reserved_bytes = 2097152;
  r.end_allocated_bytes = end_allocated;
  r.end_reserved_bytes = 2097152;
  r.peak_allocated_bytes = end_allocated;
  r.peak_reserved_bytes = 2097152;
  return r;
}

std::vector<iteragpu::memory::phase_row> protocol_rows(std::uint64_t warm_repeats) {
  using iteragpu::memory::phase_kind;
  std::vector<iteragpu::memory::phase_row> rows{
      row(phase_kind::model_load, std::nullopt, 132608), row(phase_kind::inputs, std::nullopt, 136704),
      row(phase_kind::cold_forward, std::nullopt, 34743808), row(phase_kind::warmup, std::nullopt, 34743808)};
  for (std::uint64_t r = 0; r < warm_repeats; ++r) {
    rows.push_back(row(phase_kind::warm_forward, r, 34743808));
  }
  return rows;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compare_rule)

BOOST_AUTO_TEST_CASE(the_interval_of_ten_values_is_the_second_and_ninth) {
  const auto a = estimate_of(reference);
  BOOST_TEST(a.count == 10U);
  BOOST_TEST(a.median == (1.04e-3 + 1.05e-3) / 2, boost::test_tools::tolerance(1e-12));
  BOOST_TEST_REQUIRE(a.ci.has_value());
  BOOST_TEST(a.ci->lower == reference[1]);
  BOOST_TEST(a.ci->upper == reference[8]);
}

BOOST_AUTO_TEST_CASE(an_interval_wholly_below_is_faster) {
  // B: 0.90 ... 0.99 ms, interval [0.91, 0.98] < 1.01. Median 0.945:
  // (0.945 - 1.045) / 1.045 = -0.0957.
  const auto c = iteragpu::memory::compare_times(estimate_of(reference), estimate_of(ten_from(0.90e-3, 0.01e-3)));
  BOOST_TEST((c.verdict == time_verdict::faster));
  BOOST_TEST((c.basis == time_basis::intervals_apart));
  BOOST_TEST_REQUIRE(c.relative_change.has_value());
  BOOST_TEST(*c.relative_change == -0.1 / 1.045, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(iteragpu::memory::describe(c) == "B's interval lies wholly below A's; B's median is -9.6 % from A's");
}

BOOST_AUTO_TEST_CASE(an_interval_wholly_above_is_slower) {
  // B: 1.10 ... 1.19 ms, interval [1.11, 1.18] > 1.08; median 1.145: +9.6 %.
  const auto c = iteragpu::memory::compare_times(estimate_of(reference), estimate_of(ten_from(1.10e-3, 0.01e-3)));
  BOOST_TEST((c.verdict == time_verdict::slower));
  BOOST_TEST((c.basis == time_basis::intervals_apart));
  BOOST_TEST(iteragpu::memory::describe(c) == "B's interval lies wholly above A's; B's median is +9.6 % from A's");
}

BOOST_AUTO_TEST_CASE(overlapping_intervals_with_close_medians_are_the_same) {
  // B: 1.005 ... 1.095 ms, interval [1.015, 1.085] overlaps [1.01, 1.08];
  // median 1.05: (1.05 - 1.045) / 1.045 = +0.48 %, within 2 %.
  const auto c = iteragpu::memory::compare_times(estimate_of(reference), estimate_of(ten_from(1.005e-3, 0.01e-3)));
  BOOST_TEST((c.verdict == time_verdict::same));
  BOOST_TEST((c.basis == time_basis::overlap_within_tolerance));
  BOOST_TEST(*c.relative_change == 0.005 / 1.045, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(iteragpu::memory::describe(c) == "the intervals overlap and the medians differ by +0.5 %, within 2.0 %");
  // The same values with a tolerance of 0.1 % are no longer the same.
  const auto strict = iteragpu::memory::compare_times(c.a, c.b, 0.001);
  BOOST_TEST((strict.verdict == time_verdict::ambiguous));
  BOOST_TEST((strict.basis == time_basis::overlap_beyond_tolerance));
}

BOOST_AUTO_TEST_CASE(overlapping_intervals_with_distant_medians_are_ambiguous) {
  // B: 1.00, 1.02, ..., 1.18 ms: interval [1.02, 1.16] overlaps [1.01, 1.08],
  // median (1.08 + 1.10) / 2 = 1.09: (1.09 - 1.045) / 1.045 = +4.3 % > 2 %.
  const auto c = iteragpu::memory::compare_times(estimate_of(reference), estimate_of(ten_from(1.00e-3, 0.02e-3)));
  BOOST_TEST((c.verdict == time_verdict::ambiguous));
  BOOST_TEST((c.basis == time_basis::overlap_beyond_tolerance));
  BOOST_TEST(iteragpu::memory::describe(c) ==
             "the intervals overlap but the medians differ by +4.3 %, more than 2.0 %");
}

BOOST_AUTO_TEST_CASE(intervals_that_touch_overlap) {
  // B: 0.93 ... 1.00 ms, then A's x(2) itself and 1.02: interval
  // [0.94, x(2) of A], whose upper end is A's lower end, so the two overlap;
  // median (0.97 + 0.98) / 2 = 0.975 is -6.7 % from 1.045.
  const auto a = estimate_of(reference);
  const auto b =
      estimate_of({0.93e-3, 0.94e-3, 0.95e-3, 0.96e-3, 0.97e-3, 0.98e-3, 0.99e-3, 1.00e-3, reference[1], 1.02e-3});
  BOOST_TEST_REQUIRE(b.ci.has_value());
  BOOST_TEST(b.ci->upper == a.ci->lower);
  const auto c = iteragpu::memory::compare_times(a, b);
  BOOST_TEST((c.verdict == time_verdict::ambiguous));
  BOOST_TEST((c.basis == time_basis::overlap_beyond_tolerance));
  BOOST_TEST(*c.relative_change == -0.07 / 1.045, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(five_repeats_or_fewer_give_no_interval_and_an_ambiguous_verdict) {
  // Even [min, max] of 5 values covers the median with 1 - 2/32 = 93.75 %:
  // no 95 % interval. B is far slower, yet the verdict cannot say so.
  const auto five = estimate_of({1.0e-3, 1.1e-3, 1.2e-3, 1.3e-3, 1.4e-3});
  BOOST_TEST(!five.ci.has_value());
  const auto c = iteragpu::memory::compare_times(estimate_of(reference), five);
  BOOST_TEST((c.verdict == time_verdict::ambiguous));
  BOOST_TEST((c.basis == time_basis::no_interval));
  BOOST_TEST(iteragpu::memory::describe(c) == "no confidence interval: B has 5 repeats, an interval needs 6 or more");
  const auto both = iteragpu::memory::compare_times(estimate_of({2.0e-3}), five);
  BOOST_TEST(iteragpu::memory::describe(both) ==
             "no confidence interval: A has 1 repeat and B has 5 repeats, an interval needs 6 or more");
  // Six values have one: [x(1), x(6)], since P(B <= 0) = 1/64 = 0.0156.
  const auto six = estimate_of({1.0e-3, 1.1e-3, 1.2e-3, 1.3e-3, 1.4e-3, 1.5e-3});
  BOOST_TEST_REQUIRE(six.ci.has_value());
  BOOST_TEST(six.ci->lower == 1.0e-3);
  BOOST_TEST(six.ci->upper == 1.5e-3);
}

BOOST_AUTO_TEST_CASE(a_median_of_zero_gives_no_relative_change) {
  const median_estimate zero{10, 0.0, median_estimate::interval{0.0, 1e-6}};
  const median_estimate small{10, 5e-7, median_estimate::interval{0.0, 1e-6}};
  const auto c = iteragpu::memory::compare_times(zero, small);
  BOOST_TEST((c.verdict == time_verdict::ambiguous));
  BOOST_TEST((c.basis == time_basis::no_reference));
  BOOST_TEST(!c.relative_change.has_value());
  // Two zero medians: no change at all.
  const auto same = iteragpu::memory::compare_times(zero, zero);
  BOOST_TEST((same.verdict == time_verdict::same));
  BOOST_TEST(*same.relative_change == 0.0);
}

BOOST_AUTO_TEST_CASE(percentages_carry_their_sign_and_one_decimal) {
  BOOST_TEST(iteragpu::memory::signed_percent(0.129) == "+12.9 %");
  BOOST_TEST(iteragpu::memory::signed_percent(-0.003) == "-0.3 %");
  BOOST_TEST(iteragpu::memory::signed_percent(0.0) == "+0.0 %");
  BOOST_TEST(iteragpu::memory::signed_percent(0.02) == "+2.0 %");
}

BOOST_AUTO_TEST_CASE(identical_rows_are_the_same_memory) {
  const auto m = iteragpu::memory::compare_memory(protocol_rows(3), protocol_rows(3));
  BOOST_TEST(m.same());
  BOOST_TEST(m.rows_compared == 7U);
  BOOST_TEST(m.rows_only_in_a == 0U);
  BOOST_TEST(m.rows_only_in_b == 0U);
  BOOST_TEST(iteragpu::memory::memory_summary(m) == "SAME (7 rows)");
}

BOOST_AUTO_TEST_CASE(warm_rows_only_one_run_has_are_counted_not_compared) {
  const auto m = iteragpu::memory::compare_memory(protocol_rows(2), protocol_rows(5));
  BOOST_TEST(m.same());
  BOOST_TEST(m.rows_compared == 6U);  // 4 phases + warm_forward 0 and 1
  BOOST_TEST(m.rows_only_in_b == 3U);
  BOOST_TEST(iteragpu::memory::memory_summary(m) == "SAME (6 rows; 3 warm_forward rows only in B)");
  const auto reversed = iteragpu::memory::compare_memory(protocol_rows(5), protocol_rows(4));
  BOOST_TEST(iteragpu::memory::memory_summary(reversed) == "SAME (8 rows; 1 warm_forward row only in A)");
}

BOOST_AUTO_TEST_CASE(a_differing_field_is_named_with_both_values) {
  auto b = protocol_rows(2);
  b[2].end_allocated_bytes = 34747904;  // cold_forward: +4096
  b[5].peak_reserved_bytes = 0;         // warm_forward 1: -2097152
  b[5].baseline_allocated_bytes = 101;  // and +1
  const auto m = iteragpu::memory::compare_memory(protocol_rows(2), b);
  BOOST_TEST(!m.same());
  BOOST_TEST_REQUIRE(m.different_rows.size() == 2U);
  const auto& cold = m.different_rows[0];
  BOOST_TEST((cold.phase == iteragpu::memory::phase_kind::cold_forward));
  BOOST_TEST(!cold.repeat.has_value());
  BOOST_TEST_REQUIRE(cold.fields.size() == 1U);
  BOOST_TEST(cold.fields[0].describe() == "end_allocated_bytes 34743808 -> 34747904 (+4096)");
  BOOST_TEST(*cold.fields[0].difference() == 4096);
  const auto& warm = m.different_rows[1];
  BOOST_TEST(iteragpu::memory::row_name(warm.phase, warm.repeat) == "warm_forward 1");
  BOOST_TEST_REQUIRE(warm.fields.size() == 2U);  // in the order of the JSON's fields
  BOOST_TEST(warm.fields[0].describe() == "baseline_allocated_bytes 100 -> 101 (+1)");
  BOOST_TEST(warm.fields[1].describe() == "peak_reserved_bytes 2097152 -> 0 (-2097152)");
  BOOST_TEST(*warm.fields[1].difference() == -2097152);
  BOOST_TEST(iteragpu::memory::memory_summary(m) == "DIFFERENT (2 of 6 rows)");
}

BOOST_AUTO_TEST_CASE(a_difference_past_64_bit_signed_is_not_forced_into_it) {
  constexpr std::uint64_t largest = std::numeric_limits<std::uint64_t>::max();
  const iteragpu::memory::byte_change up{0, 0, largest};
  BOOST_TEST(!up.difference().has_value());
  BOOST_TEST(up.describe() == "baseline_allocated_bytes 0 -> 18446744073709551615 (+18446744073709551615)");
  const iteragpu::memory::byte_change down{0, largest, 0};
  BOOST_TEST(!down.difference().has_value());
  // 2^63 - 1 is the largest that fits, either way.
  constexpr std::uint64_t fits = std::numeric_limits<std::int64_t>::max();
  const iteragpu::memory::byte_change largest_up{0, 0, fits};
  const iteragpu::memory::byte_change largest_down{0, fits, 0};
  BOOST_TEST(*largest_up.difference() == std::numeric_limits<std::int64_t>::max());
  BOOST_TEST(*largest_down.difference() == -std::numeric_limits<std::int64_t>::max());
}

BOOST_AUTO_TEST_CASE(the_driver_is_compared_only_when_both_runs_have_it) {
  iteragpu::memory::run_environment a{"iteragpu 0.1.0", "2.11.0", "13.0", "NVIDIA H200", std::nullopt};
  iteragpu::memory::run_environment b = a;
  b.driver = "580.95.05";
  const auto facts = iteragpu::memory::compare_environments(a, b);
  BOOST_TEST_REQUIRE(facts.size() == 5U);
  BOOST_TEST(facts[0].name == "library");
  BOOST_TEST((facts[0].status == iteragpu::memory::fact_status::same));
  BOOST_TEST(facts[4].name == "driver");
  BOOST_TEST((facts[4].status == iteragpu::memory::fact_status::not_compared));
  a.driver = "575.57.08";
  BOOST_TEST((iteragpu::memory::compare_environments(a, b)[4].status == iteragpu::memory::fact_status::different));
  // A build without LibTorch is not one with it.
  a.libtorch = std::nullopt;
  BOOST_TEST((iteragpu::memory::compare_environments(a, b)[1].status == iteragpu::memory::fact_status::different));
}

BOOST_AUTO_TEST_CASE(configurations_differ_in_the_work_not_in_the_repeats) {
  const iteragpu::memory::run_configuration a{"cuda:0", 4, 2048, 4096, "float16", 3, 20};
  iteragpu::memory::run_configuration b = a;
  b.repeats = std::nullopt;  // auto
  BOOST_TEST(iteragpu::memory::compare_configurations(a, b).empty());
  b.dtype = "bfloat16";
  b.batch = 8;
  const auto d = iteragpu::memory::compare_configurations(a, b);
  BOOST_TEST_REQUIRE(d.size() == 2U);
  BOOST_TEST(d[0].name == "batch");
  BOOST_TEST(d[0].a == "4");
  BOOST_TEST(d[0].b == "8");
  BOOST_TEST(d[1].name == "dtype");
  BOOST_TEST(d[1].b == "bfloat16");
}

BOOST_AUTO_TEST_CASE(the_verdict_line_sums_up_every_part) {
  iteragpu::memory::measured_run a;
  a.configuration = {"cuda:0", 1, 16, 64, "float32", 1, 10};
  a.environment = {"iteragpu 0.1.0", "2.11.0", "13.0", "NVIDIA H200", "580.95.05"};
  a.phases = protocol_rows(10);
  a.gpu_seconds = estimate_of(reference);
  a.seconds = a.gpu_seconds;
  iteragpu::memory::measured_run b = a;
  BOOST_TEST(iteragpu::memory::verdict_line(iteragpu::memory::compare_runs(a, b)) ==
             "B against A: memory SAME (14 rows), time SAME (gpu_seconds of warm_forward, median +0.0 %), "
             "environment same, configuration same");
  b.phases[2].end_allocated_bytes += 512;
  b.gpu_seconds = estimate_of(ten_from(0.90e-3, 0.01e-3));
  b.environment.driver = "575.57.08";
  b.configuration.dtype = "float16";
  const auto c = iteragpu::memory::compare_runs(a, b);
  BOOST_TEST(iteragpu::memory::verdict_line(c) ==
             "B against A: memory DIFFERENT (1 of 14 rows), time FASTER (gpu_seconds of warm_forward, median -9.6 %), "
             "environment differs in driver, configuration differs in dtype");
  // The wall-time series is judged too, but the line quotes gpu_seconds.
  BOOST_TEST((c.seconds.verdict == time_verdict::same));
  b.gpu_seconds = estimate_of({1.0e-3, 1.0e-3});
  BOOST_TEST(iteragpu::memory::verdict_line(iteragpu::memory::compare_runs(a, b))
                 .find("time AMBIGUOUS (gpu_seconds of warm_forward, no confidence interval: 5 repeats or fewer)") !=
             std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
