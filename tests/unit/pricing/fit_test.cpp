#include <iteragpu/pricing/fit.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/io.hpp>
#include <iteragpu/pricing/catalog.hpp>
#include <iteragpu/pricing/catalog_errors.hpp>

namespace {

using iteragpu::pricing::accepted_results;
using iteragpu::byte_count;
using iteragpu::pricing::fit_verdict;
using iteragpu::pricing::gpu_count;
using iteragpu::pricing::gpu_hours;
using iteragpu::memory_need;
using iteragpu::pricing::package_days;
using iteragpu::pricing::package_search;
using iteragpu::pricing::search_errc;

const std::string fixtures = ITERAGPU_TEST_SOURCE_DIR "/data/fits/";

iteragpu::pricing::catalog catalog_from_text(std::string_view text) {
  auto parsed = iteragpu::pricing::parse_catalog(text, "inline.csv");
  BOOST_REQUIRE_MESSAGE(parsed.has_value(), (parsed ? std::string() : iteragpu::pricing::describe(parsed.error())));
  return std::move(parsed).value();
}

iteragpu::pricing::catalog catalog_file(const std::string& name) {
  const auto text = iteragpu::read_whole_file(fixtures + name);
  BOOST_REQUIRE_MESSAGE(text.has_value(), "cannot read " + fixtures + name);
  return catalog_from_text(*text);
}

package_search needing(std::uint64_t bytes) {
  package_search s;
  s.need = memory_need{byte_count{bytes}, "a test need"};
  return s;
}

// One line of a list, as the tests write what they expect.
struct row {
  std::string gpu;
  std::uint64_t days;
  std::uint64_t lots;
  std::uint64_t total_cents;
  friend bool operator==(const row&, const row&) = default;
};

std::ostream& operator<<(std::ostream& out, const row& r) {
  return out << r.gpu << " " << r.days << "d x" << r.lots << " = " << r.total_cents;
}

std::vector<row> rows_of(const iteragpu::pricing::package_list& list) {
  std::vector<row> rows;
  for (const auto& m : list.matches) {
    rows.push_back({m.offer.id, m.days.value, m.lots.value, m.total_price.cents()});
  }
  return rows;
}

iteragpu::pricing::package_list search(const iteragpu::pricing::catalog& c, const package_search& s) {
  auto list = iteragpu::pricing::find_packages(c, s);
  BOOST_REQUIRE_MESSAGE(list.has_value(), (list ? std::string() : std::string(describe(list.error().code))));
  return std::move(list).value();
}

}  // namespace

// catalog-ties.csv holds p40, q48, r80 (4 GPUs a lot), s24 and u16 (one
// price for every duration); none is on record, so the generic band of
// the memory rule applies: from N x 990000000 to N x 2^30 bytes.
//   p40  39600000000 .. 42949672960    q48  47520000000 .. 51539607552
//   r80  79200000000 .. 85899345920    s24  23760000000 .. 25769803776
//   u16  15840000000 .. 17179869184
BOOST_AUTO_TEST_SUITE(package_search_in_a_catalog)

BOOST_AUTO_TEST_CASE(equal_prices_put_fits_before_tight_then_the_catalog_order) {
  const auto c = catalog_file("catalog-ties.csv");
  // 40e9 bytes: tight on p40 (above 39.6e9, below 42.9e9), fits q48 and
  // r80, does not fit s24 and u16. The three 3-day lots cost 30.00 each.
  const auto list = search(c, needing(40'000'000'000));
  const std::vector<row> expected{{"q48", 3, 1, 3000},   {"r80", 3, 1, 3000},   {"p40", 3, 1, 3000},
                                  {"q48", 7, 1, 6800},   {"p40", 7, 1, 7000},   {"r80", 7, 1, 20000},
                                  {"p40", 30, 1, 27000}, {"q48", 30, 1, 30000}, {"r80", 30, 1, 80000}};
  BOOST_TEST(rows_of(list) == expected, boost::test_tools::per_element());
  const auto& tight = list.matches[2];
  BOOST_TEST((tight.fit->verdict == fit_verdict::tight));
  BOOST_TEST(tight.fit->shortfall.value == 400'000'000U);  // 40e9 - 39.6e9
  BOOST_TEST(tight.fit->headroom.value == 0U);
  BOOST_TEST(list.matches[0].fit->headroom.value == 7'520'000'000U);  // 47.52e9 - 40e9
  BOOST_TEST(list.matches[1].total_gpus.value == 4U);                 // one lot of r80 is 4 GPUs
  BOOST_TEST(list.matches[1].provided.value == 288U);                 // 4 x 3 x 24
}

BOOST_AUTO_TEST_CASE(equal_prices_of_one_gpu_put_the_shorter_duration_first) {
  const auto c = catalog_file("catalog-ties.csv");
  // u16 costs 5.00 for 3, 7 and 30 days; 15e9 bytes fits it (its low end
  // is 15.84e9) and every larger GPU, all dearer.
  const auto s = needing(15'000'000'000);
  const auto list = search(c, s);
  BOOST_REQUIRE_GE(list.matches.size(), 3U);
  const auto all = rows_of(list);
  const std::vector<row> first(all.begin(), all.begin() + 3);
  const std::vector<row> expected{{"u16", 3, 1, 500}, {"u16", 7, 1, 500}, {"u16", 30, 1, 500}};
  BOOST_TEST(first == expected, boost::test_tools::per_element());
  // 500 cents for 30 x 24 GPU-hours: 0.69444... -> 0.6944.
  BOOST_TEST(list.matches[2].price_per_gpu_hour.to_string() == "0.6944");
}

BOOST_AUTO_TEST_CASE(a_need_exactly_at_the_low_end_fits_with_no_headroom) {
  const auto c = catalog_file("catalog-ties.csv");
  auto s = needing(39'600'000'000);  // p40's low end, 40 x 990000000
  s.days = package_days{7};
  const auto list = search(c, s);
  const std::vector<row> expected{{"q48", 7, 1, 6800}, {"p40", 7, 1, 7000}, {"r80", 7, 1, 20000}};
  BOOST_TEST(rows_of(list) == expected, boost::test_tools::per_element());
  BOOST_TEST((list.matches[1].fit->verdict == fit_verdict::fits));
  BOOST_TEST(list.matches[1].fit->headroom.value == 0U);
  BOOST_TEST(list.matches[1].fit->shortfall.value == 0U);

  // One byte more is tight, one byte short of the low end.
  s.need->bytes = byte_count{39'600'000'001};
  const auto above = search(c, s);
  BOOST_TEST((above.matches[1].fit->verdict == fit_verdict::tight));
  BOOST_TEST(above.matches[1].fit->shortfall.value == 1U);
}

BOOST_AUTO_TEST_CASE(a_need_exactly_at_the_high_end_is_tight_and_one_byte_more_leaves_the_gpu_out) {
  const auto c = catalog_file("catalog-ties.csv");
  auto s = needing(42'949'672'960);  // p40's high end, 40 x 2^30
  s.days = package_days{3};
  const auto at = search(c, s);
  const std::vector<row> expected{{"q48", 3, 1, 3000}, {"r80", 3, 1, 3000}, {"p40", 3, 1, 3000}};
  BOOST_TEST(rows_of(at) == expected, boost::test_tools::per_element());
  BOOST_TEST(at.matches[2].fit->shortfall.value == 3'349'672'960U);  // 42949672960 - 39600000000
  s.need->bytes = byte_count{42'949'672'961};
  const std::vector<row> without_p40{{"q48", 3, 1, 3000}, {"r80", 3, 1, 3000}};
  BOOST_TEST(rows_of(search(c, s)) == without_p40, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_need_of_zero_fits_every_gpu_with_its_whole_low_end_as_headroom) {
  const auto c = catalog_file("catalog-ties.csv");
  auto s = needing(0);
  s.days = package_days{3};
  const auto list = search(c, s);
  const std::vector<row> expected{
      {"u16", 3, 1, 500}, {"s24", 3, 1, 1000}, {"p40", 3, 1, 3000}, {"q48", 3, 1, 3000}, {"r80", 3, 1, 3000}};
  BOOST_TEST(rows_of(list) == expected, boost::test_tools::per_element());
  BOOST_TEST(list.matches[0].fit->headroom.value == 15'840'000'000U);
  BOOST_TEST(list.matches[4].fit->headroom.value == 79'200'000'000U);
  for (const auto& m : list.matches) {
    BOOST_TEST((m.fit->verdict == fit_verdict::fits));
    BOOST_TEST(m.memory.has_value());
  }
}

BOOST_AUTO_TEST_CASE(a_need_past_every_gpu_gives_an_empty_list) {
  const auto c = catalog_file("catalog-ties.csv");
  BOOST_TEST(search(c, needing(85'899'345'921)).matches.empty());  // r80's high end + 1
  BOOST_TEST(search(c, needing(UINT64_MAX)).matches.empty());
  BOOST_TEST(search(c, needing(85'899'345'920)).matches.size() == 3U);  // r80 tight, its three durations
}

BOOST_AUTO_TEST_CASE(gpus_not_a_multiple_of_the_lot_round_the_lots_up) {
  const auto c = catalog_file("catalog-ties.csv");
  auto s = needing(0);
  s.days = package_days{30};
  s.gpus = gpu_count{5};
  const auto list = search(c, s);
  // 5 GPUs: 5 lots of the 1-GPU packages; r80 sells 4 a lot, so 2 lots, 8 GPUs.
  const std::vector<row> expected{{"u16", 30, 5, 2500},
                                  {"s24", 30, 5, 45000},
                                  {"p40", 30, 5, 135000},
                                  {"q48", 30, 5, 150000},
                                  {"r80", 30, 2, 160000}};
  BOOST_TEST(rows_of(list) == expected, boost::test_tools::per_element());
  const auto& r80 = list.matches[4];
  BOOST_TEST(r80.total_gpus.value == 8U);
  BOOST_TEST(r80.provided.value == 5760U);                                  // 2 x 4 x 30 x 24
  BOOST_TEST(r80.price_per_gpu_hour.to_string() == "27.7778");              // 160000 / 5760 = 27.777...
  BOOST_TEST(list.matches[3].price_per_gpu_hour.to_string() == "41.6667");  // 150000 / 3600
  BOOST_TEST(!r80.unused.has_value());

  // 4 GPUs fill one r80 lot, which then costs less than 4 lots of p40.
  s.gpus = gpu_count{4};
  const std::vector<row> four{{"u16", 30, 4, 2000},
                              {"s24", 30, 4, 36000},
                              {"r80", 30, 1, 80000},
                              {"p40", 30, 4, 108000},
                              {"q48", 30, 4, 120000}};
  BOOST_TEST(rows_of(search(c, s)) == four, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(gpu_hours_take_the_fewest_lots_that_provide_them) {
  const auto c = catalog_file("catalog-ties.csv");
  auto s = needing(40'000'000'000);
  s.days = package_days{7};
  s.hours = gpu_hours{1000};
  const auto list = search(c, s);
  // A 7-day lot gives 168 GPU-hours a GPU: p40 and q48 need 6 lots (1008
  // h); r80, 672 h a lot, needs 2 (1344 h).
  const std::vector<row> expected{{"r80", 7, 2, 40000}, {"q48", 7, 6, 40800}, {"p40", 7, 6, 42000}};
  BOOST_TEST(rows_of(list) == expected, boost::test_tools::per_element());
  BOOST_TEST(list.matches[0].provided.value == 1344U);
  BOOST_TEST(list.matches[0].unused->value == 344U);
  BOOST_TEST(list.matches[0].price_per_gpu_hour.to_string() == "29.7619");  // 40000 / 1344 = 29.76190...
  BOOST_TEST(list.matches[1].unused->value == 8U);
  BOOST_TEST(list.matches[1].price_per_gpu_hour.to_string() == "40.4762");  // 40800 / 1008 = 40.47619...
  BOOST_TEST(list.matches[2].price_per_gpu_hour.to_string() == "41.6667");  // 42000 / 1008 = 41.6666...

  // With 7 GPUs asked as well, the lots are the larger of the two counts.
  s.gpus = gpu_count{7};
  const std::vector<row> seven{{"r80", 7, 2, 40000}, {"q48", 7, 7, 47600}, {"p40", 7, 7, 49000}};
  const auto with_gpus = search(c, s);
  BOOST_TEST(rows_of(with_gpus) == seven, boost::test_tools::per_element());
  BOOST_TEST(with_gpus.matches[1].unused->value == 176U);  // 7 x 168 - 1000
}

BOOST_AUTO_TEST_CASE(gpu_hours_without_a_need_list_every_gpu_and_no_memory) {
  const auto c = catalog_file("catalog-ties.csv");
  package_search s;
  s.hours = gpu_hours{73};  // one hour past a 3-day lot of one GPU
  s.days = package_days{3};
  const auto list = search(c, s);
  const std::vector<row> expected{
      {"u16", 3, 2, 1000}, {"s24", 3, 2, 2000}, {"r80", 3, 1, 3000}, {"p40", 3, 2, 6000}, {"q48", 3, 2, 6000}};
  BOOST_TEST(rows_of(list) == expected, boost::test_tools::per_element());
  for (const auto& m : list.matches) {
    BOOST_TEST(!m.fit.has_value());
    BOOST_TEST(!m.memory.has_value());
  }
  BOOST_TEST(list.matches[2].unused->value == 215U);  // 288 - 73
}

BOOST_AUTO_TEST_CASE(accepted_results_give_a_unit_cost_per_listed_package) {
  const auto c = catalog_file("catalog-ties.csv");
  auto s = needing(40'000'000'000);
  s.days = package_days{3};
  s.accepted = accepted_results{7};
  const auto list = search(c, s);
  BOOST_REQUIRE_EQUAL(list.matches.size(), 3U);
  for (const auto& m : list.matches) {
    BOOST_TEST(m.unit_cost->to_string() == "428.5714");  // 3000 / 7 = 428.571428...
  }
  BOOST_TEST(!search(c, needing(0)).matches[0].unit_cost.has_value());
}

BOOST_AUTO_TEST_CASE(gpu_hours_up_to_64_bits_are_exact) {
  const auto c = catalog_file("catalog-tiny.csv");  // t1: 1 GPU a lot, 0.01, 0.02, 0.05 USD
  package_search s;
  // 2^64 - 16 is a multiple of 72, 168 and 720 (2^64 leaves 16 on each).
  s.hours = gpu_hours{18'446'744'073'709'551'600U};
  const auto list = search(c, s);
  const std::vector<row> expected{{"t1", 30, 25'620'477'880'152'155U, 128'102'389'400'760'775U},
                                  {"t1", 7, 109'802'048'057'794'950U, 219'604'096'115'589'900U},
                                  {"t1", 3, 256'204'778'801'521'550U, 256'204'778'801'521'550U}};
  BOOST_TEST(rows_of(list) == expected, boost::test_tools::per_element());
  for (const auto& m : list.matches) {
    BOOST_TEST(m.provided.value == 18'446'744'073'709'551'600U);
    BOOST_TEST(m.unused->value == 0U);
  }
  // 5/720, 2/168, 1/72 cents a GPU-hour.
  BOOST_TEST(list.matches[0].price_per_gpu_hour.to_string() == "0.0069");
  BOOST_TEST(list.matches[1].price_per_gpu_hour.to_string() == "0.0119");
  BOOST_TEST(list.matches[2].price_per_gpu_hour.to_string() == "0.0139");
}

BOOST_AUTO_TEST_CASE(gpu_hours_past_64_bits_are_an_error_naming_the_package) {
  const auto c = catalog_file("catalog-tiny.csv");
  package_search s;
  s.hours = gpu_hours{18'446'744'073'709'551'601U};  // 3 days: ceil(H / 72) lots give 2^64 + 56 h
  const auto list = iteragpu::pricing::find_packages(c, s);
  BOOST_REQUIRE(!list.has_value());
  BOOST_TEST((list.error().code == search_errc::gpu_hours_overflow));
  BOOST_TEST(list.error().offer->id == "t1");
  BOOST_TEST(list.error().days->value == 3U);
  BOOST_TEST(list.error().lots->value == 256'204'778'801'521'551U);
}

BOOST_AUTO_TEST_CASE(gpus_and_prices_past_64_bits_are_errors_naming_the_package) {
  const auto c = catalog_file("catalog-ties.csv");
  auto s = needing(60'000'000'000);  // r80 only
  s.gpus = gpu_count{UINT64_MAX};    // ceil(/4) = 2^62 lots, 2^64 GPUs
  auto r = iteragpu::pricing::find_packages(c, s);
  BOOST_REQUIRE(!r.has_value());
  BOOST_TEST((r.error().code == search_errc::total_gpus_overflow));
  BOOST_TEST(r.error().offer->id == "r80");
  BOOST_TEST(r.error().lots->value == 4'611'686'018'427'387'904U);

  // 2^57 GPUs: 2^57 x 72 h fits 64 bits, 2^57 x 3000 cents does not; p40
  // is the first candidate in the catalog's order.
  s = needing(20'000'000'000);
  s.gpus = gpu_count{std::uint64_t{1} << 57U};
  r = iteragpu::pricing::find_packages(c, s);
  BOOST_REQUIRE(!r.has_value());
  BOOST_TEST((r.error().code == search_errc::total_price_overflow));
  BOOST_TEST(r.error().offer->id == "p40");
  BOOST_TEST(r.error().days->value == 3U);
}

BOOST_AUTO_TEST_CASE(a_nominal_figure_past_the_rule_is_an_error_only_with_a_need) {
  const auto c = catalog_file("catalog-huge-memory.csv");  // big: 17179869184 GB, x 2^30 = 2^64 bytes
  const auto r = iteragpu::pricing::find_packages(c, needing(1));
  BOOST_REQUIRE(!r.has_value());
  BOOST_TEST((r.error().code == search_errc::memory_band_overflow));
  BOOST_TEST(r.error().offer->id == "big");
  package_search by_time;
  by_time.hours = gpu_hours{1};
  BOOST_TEST(search(c, by_time).matches.size() == 6U);
}

BOOST_AUTO_TEST_CASE(zero_counts_and_unknown_durations_are_refused) {
  const auto c = catalog_file("catalog-ties.csv");
  auto s = needing(0);
  s.gpus = gpu_count{0};
  BOOST_TEST((iteragpu::pricing::find_packages(c, s).error().code == search_errc::zero_gpus));
  s = needing(0);
  s.hours = gpu_hours{0};
  BOOST_TEST((iteragpu::pricing::find_packages(c, s).error().code == search_errc::zero_gpu_hours));
  s = needing(0);
  s.accepted = accepted_results{0};
  BOOST_TEST((iteragpu::pricing::find_packages(c, s).error().code == search_errc::zero_accepted_results));
  s = needing(0);
  s.days = package_days{5};
  BOOST_TEST((iteragpu::pricing::find_packages(c, s).error().code == search_errc::unknown_duration));
}

BOOST_AUTO_TEST_SUITE_END()

// catalog-durations.csv: d1 (2 GPUs a lot, 72.00 / 151.20 / 576.00), d2
// (10.00 / 24.00 / 90.00), e32 (32 GPUs a lot, 3 / 7 / 90 cents) and z1
// (every lot at the largest price).
BOOST_AUTO_TEST_SUITE(durations_compared)

struct duration_line {
  std::uint64_t days;
  std::string per_gpu_day;
  std::string saving;
  std::string percent;
  friend bool operator==(const duration_line&, const duration_line&) = default;
};

std::ostream& operator<<(std::ostream& out, const duration_line& l) {
  return out << l.days << ": " << l.per_gpu_day << " " << l.saving << " " << l.percent;
}

std::vector<duration_line> lines_of(const iteragpu::pricing::durations_comparison& c) {
  std::vector<duration_line> lines;
  for (const auto& r : c.rows) {
    lines.push_back({r.days.value, r.price_per_gpu_day.to_string(),
                     iteragpu::pricing::signed_text(r.saving.dearer, r.saving.per_gpu_day),
                     iteragpu::pricing::percent_text(r.saving)});
  }
  return lines;
}

iteragpu::pricing::durations_comparison compared(const iteragpu::pricing::catalog& c, std::string_view gpu,
                                                 std::optional<accepted_results> accepted = std::nullopt) {
  auto r = iteragpu::pricing::compare_durations(c, gpu, accepted);
  BOOST_REQUIRE_MESSAGE(r.has_value(), (r ? std::string() : std::string(describe(r.error().code))));
  return r.value();
}

BOOST_AUTO_TEST_CASE(longer_packages_cheaper_per_gpu_day_show_their_saving) {
  const auto c = catalog_file("catalog-durations.csv");
  // d1: 7200 / 6, 15120 / 14, 57600 / 60 cents a GPU-day = 1200, 1080, 960:
  // 120 and 240 saved a GPU-day, 10 % and 20 %.
  const std::vector<duration_line> expected{
      {3, "1200.0000", "0.0000", "0.00"}, {7, "1080.0000", "120.0000", "10.00"}, {30, "960.0000", "240.0000", "20.00"}};
  const auto d1 = compared(c, "d1");
  BOOST_TEST(lines_of(d1) == expected, boost::test_tools::per_element());
  BOOST_TEST(d1.rows[1].gpu_days == 14U);
  BOOST_TEST(!d1.rows[1].saving.dearer);
}

BOOST_AUTO_TEST_CASE(a_dearer_duration_shows_a_negative_saving_rounded_once) {
  const auto c = catalog_file("catalog-durations.csv");
  // d2: 1000/3 = 333.333..., 2400/7 = 342.857142..., 9000/30 = 300. The
  // 7-day saving is (1000 x 7 - 2400 x 3) / 21 = -200/21 = -9.523809...
  // (not 333.3333 - 342.8571 = -9.5238 by luck: both round the same way
  // here) and -200/7000 = -2.857 %; the 30-day one 3000/90 = 33.333... and
  // 3000/30000 = 10 %.
  const std::vector<duration_line> expected{
      {3, "333.3333", "0.0000", "0.00"}, {7, "342.8571", "-9.5238", "-2.86"}, {30, "300.0000", "33.3333", "10.00"}};
  const auto d2 = compared(c, "d2");
  BOOST_TEST(lines_of(d2) == expected, boost::test_tools::per_element());
  BOOST_TEST(d2.rows[1].saving.dearer);
}

BOOST_AUTO_TEST_CASE(halves_round_to_even_and_ratios_past_one_print_whole) {
  const auto c = catalog_file("catalog-durations.csv");
  // e32: 3/96 = 7/224 = 1/32 = 0.03125 -> 0.0312; 90/960 = 0.09375 -> 0.0938.
  // 30 days: (3 x 30 - 90 x 3) / (32 x 3 x 30) = -180/2880 = -0.0625, and
  // -180/90 = -200 %.
  const std::vector<duration_line> expected{
      {3, "0.0312", "0.0000", "0.00"}, {7, "0.0312", "0.0000", "0.00"}, {30, "0.0938", "-0.0625", "-200.00"}};
  BOOST_TEST(lines_of(compared(c, "e32")) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(accepted_results_divide_each_lot_price) {
  const auto c = catalog_file("catalog-durations.csv");
  const auto d2 = compared(c, "d2", accepted_results{3});
  BOOST_TEST(d2.rows[0].unit_cost->to_string() == "333.3333");   // 1000 / 3
  BOOST_TEST(d2.rows[1].unit_cost->to_string() == "800.0000");   // 2400 / 3
  BOOST_TEST(d2.rows[2].unit_cost->to_string() == "3000.0000");  // 9000 / 3
  BOOST_TEST(!compared(c, "d2").rows[0].unit_cost.has_value());
}

BOOST_AUTO_TEST_CASE(results_hold_values_that_outlive_the_catalog_and_compare_by_value) {
  std::optional<iteragpu::pricing::durations_comparison> kept;
  std::optional<iteragpu::pricing::package_list> list;
  {
    const auto c = catalog_file("catalog-durations.csv");
    kept = compared(c, "d2", accepted_results{3});
    package_search s;
    s.hours = gpu_hours{72};
    list = search(c, s);
  }
  // Read after the catalog is gone: the offer and the snapshot are copies.
  BOOST_TEST(kept->offer.id == "d2");
  BOOST_TEST(kept->rows[2].unit_cost->to_string() == "3000.0000");
  BOOST_TEST(!list->matches.empty());
  BOOST_TEST(list->snapshot.currency == "USD");
  // Another catalog read from the same file gives equal results.
  const auto again = catalog_file("catalog-durations.csv");
  BOOST_TEST((compared(again, "d2", accepted_results{3}) == *kept));
  BOOST_TEST(!(compared(again, "d2", accepted_results{4}) == *kept));
  package_search s;
  s.hours = gpu_hours{72};
  BOOST_TEST((search(again, s) == *list));
  // And so do the errors: the offer at fault travels by value.
  const auto z1 = iteragpu::pricing::compare_durations(again, "z1", std::nullopt).error();
  BOOST_TEST((z1.offer == *again.find("z1")));
  BOOST_TEST(
      (z1 == iteragpu::pricing::compare_durations(catalog_file("catalog-durations.csv"), "z1", std::nullopt).error()));
}

BOOST_AUTO_TEST_CASE(an_unknown_gpu_and_products_past_64_bits_are_errors) {
  const auto c = catalog_file("catalog-durations.csv");
  BOOST_TEST((iteragpu::pricing::compare_durations(c, "d3", std::nullopt).error().code == search_errc::unknown_gpu));
  // z1: P_s x 3 already passes 64 bits on the first row.
  const auto z1 = iteragpu::pricing::compare_durations(c, "z1", std::nullopt);
  BOOST_REQUIRE(!z1.has_value());
  BOOST_TEST((z1.error().code == search_errc::comparison_overflow));
  BOOST_TEST(z1.error().offer->id == "z1");
  BOOST_TEST(z1.error().days->value == 3U);
  BOOST_TEST((iteragpu::pricing::compare_durations(c, "d1", accepted_results{0}).error().code ==
              search_errc::zero_accepted_results));
}

BOOST_AUTO_TEST_CASE(percent_text_moves_the_point_without_losing_digits) {
  iteragpu::pricing::duration_saving s;
  s.ratio = *iteragpu::pricing::try_divide(iteragpu::pricing::money::from_cents(1U), 3U);  // 0.3333
  BOOST_TEST(iteragpu::pricing::percent_text(s) == "33.33");
  s.ratio = *iteragpu::pricing::try_divide(iteragpu::pricing::money::from_cents(UINT64_MAX), 1U);
  BOOST_TEST(iteragpu::pricing::percent_text(s) == "1844674407370955161500.00");
  s.ratio =
      *iteragpu::pricing::try_divide(iteragpu::pricing::money::from_cents(1U), 20000U);  // 0.00005 -> 0.0000 (even)
  s.dearer = true;
  BOOST_TEST(iteragpu::pricing::percent_text(s) == "0.00");  // no sign on a ratio that rounds to zero
  s.ratio = *iteragpu::pricing::try_divide(iteragpu::pricing::money::from_cents(3U), 20000U);  // 0.00015 -> 0.0002
  BOOST_TEST(iteragpu::pricing::percent_text(s) == "-0.02");
}

BOOST_AUTO_TEST_SUITE_END()
