#include <iteragpu/pricing/package.hpp>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include <boost/test/unit_test.hpp>

#include <iteragpu/io.hpp>
#include <iteragpu/pricing/catalog.hpp>

namespace {

using iteragpu::pricing::accepted_results;
using iteragpu::pricing::lot_count;
using iteragpu::pricing::package_days;
using iteragpu::pricing::package_errc;
using iteragpu::pricing::package_request;
using iteragpu::pricing::quote_package;

iteragpu::pricing::catalog shipped() {
  const auto text = iteragpu::read_whole_file(ITERAGPU_TEST_DATA_DIR "/tarifs-forfaits.csv").value();
  return iteragpu::pricing::parse_catalog(text, "tarifs-forfaits.csv").value();
}

package_request request(const char* gpu, std::uint64_t days, std::uint64_t lots,
                        std::optional<std::uint64_t> accepted = std::nullopt) {
  package_request r{gpu, package_days{days}, lot_count{lots}, std::nullopt};
  if (accepted) {
    r.accepted = accepted_results{*accepted};
  }
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(package)

BOOST_AUTO_TEST_CASE(two_b200_lots_are_four_gpus_at_twice_the_lot_price) {
  const auto c = shipped();
  const auto lot = *c.find("b200")->lot_price(package_days{7});
  const auto q = quote_package(c, request("b200", 7, 2)).value();
  BOOST_TEST(q.offer.gpus_per_lot.value == 2U);
  BOOST_TEST(q.total_gpus.value == 4U);
  BOOST_TEST(q.lot_price.cents() == lot.cents());
  BOOST_TEST(q.total_price.cents() == 2 * lot.cents());
  BOOST_TEST(q.total_price.cents() == 336000U);
  BOOST_TEST(q.total_price.to_string() == "3360.00");
  BOOST_TEST(!q.accepted.has_value());
  BOOST_TEST(!q.unit_cost.has_value());
  // The quote holds what it quotes, by value: the catalog's snapshot and its GPU offer.
  BOOST_TEST((q.snapshot == c.snapshot()));
  BOOST_TEST((q.offer == *c.find("b200")));
  BOOST_TEST(q.snapshot.illustrative());
  BOOST_TEST(q.snapshot.provider == "illustrative");
  BOOST_TEST(q.snapshot.date == "2026-09-24");
  BOOST_TEST(q.offer.name == "NVIDIA B200");
  BOOST_TEST(q.offer.memory_per_gpu.value == 180U);
}

BOOST_AUTO_TEST_CASE(a_quote_outlives_its_catalog_and_compares_by_value) {
  std::optional<iteragpu::pricing::package_quote> kept;
  {
    const auto c = shipped();
    kept = quote_package(c, request("b200", 7, 2)).value();
  }
  // Read after the catalog is gone: nothing in the quote points into it.
  BOOST_TEST(kept->offer.id == "b200");
  BOOST_TEST(kept->snapshot.date == "2026-09-24");
  BOOST_TEST(kept->total_price.cents() == 336000U);
  // Two catalogs read from the same text give equal quotes, not distinct addresses.
  const auto first = shipped();
  const auto second = shipped();
  BOOST_TEST(
      (quote_package(first, request("b200", 7, 2)).value() == quote_package(second, request("b200", 7, 2)).value()));
  BOOST_TEST((quote_package(first, request("b200", 7, 2)).value() == *kept));
  BOOST_TEST(!(quote_package(first, request("b200", 7, 3)).value() == *kept));
  BOOST_TEST(!(quote_package(first, request("b200", 3, 2)).value() == *kept));
}

BOOST_AUTO_TEST_CASE(unit_cost_is_the_whole_price_over_accepted_results) {
  const auto c = shipped();
  const auto q = quote_package(c, request("b200", 7, 2, 3)).value();
  BOOST_TEST(q.accepted->value == 3U);
  BOOST_TEST(q.unit_cost->to_string() == "112000.0000");
  // 1 lot of h200 for 3 days (24840 cents) over 7 results: 3548.571428... cents.
  BOOST_TEST(quote_package(c, request("h200", 3, 1, 7)).value().unit_cost->to_string() == "3548.5714");
  // 20.88 USD over 32 results: 65.25 cents exactly.
  BOOST_TEST(quote_package(c, request("rtx-4090", 3, 1, 32)).value().unit_cost->to_string() == "65.2500");
}

BOOST_AUTO_TEST_CASE(unit_cost_ties_round_half_to_even) {
  // Lots of 1 and 3 cents over 32 results: 0.03125 and 0.09375 of a cent.
  const auto c = iteragpu::pricing::parse_catalog(
                     "provider,currency,snapshot_date,gpu,name,memory_gb_per_gpu,gpus_per_lot,days,lot_price_cents\n"
                     "test,USD,2026-01-31,tiny,Tiny,1,1,3,1\n"
                     "test,USD,2026-01-31,tiny,Tiny,1,1,7,3\n"
                     "test,USD,2026-01-31,tiny,Tiny,1,1,30,5\n",
                     "tiny.csv")
                     .value();
  BOOST_TEST(quote_package(c, request("tiny", 3, 1, 32)).value().unit_cost->to_string() == "0.0312");
  BOOST_TEST(quote_package(c, request("tiny", 7, 1, 32)).value().unit_cost->to_string() == "0.0938");
  BOOST_TEST(quote_package(c, request("tiny", 30, 1, 32)).value().unit_cost->to_string() == "0.1562");
  BOOST_TEST(!quote_package(c, request("tiny", 3, 1, 32)).value().snapshot.illustrative());
}

BOOST_AUTO_TEST_CASE(one_gpu_lots_count_one_gpu_each) {
  const auto q = quote_package(shipped(), request("h100-sxm", 30, 3)).value();
  BOOST_TEST(q.total_gpus.value == 3U);
  BOOST_TEST(q.total_price.cents() == 3U * 185760U);
}

BOOST_AUTO_TEST_CASE(refused_requests_say_why) {
  const auto c = shipped();
  BOOST_TEST((quote_package(c, request("b200", 7, 0)).error().code == package_errc::zero_lots));
  BOOST_TEST((quote_package(c, request("b200", 7, 1, 0)).error().code == package_errc::zero_accepted_results));
  BOOST_TEST((quote_package(c, request("b201", 7, 1)).error().code == package_errc::unknown_gpu));
  BOOST_TEST((quote_package(c, request("", 7, 1)).error().code == package_errc::unknown_gpu));
  BOOST_TEST((quote_package(c, request("b200", 5, 1)).error().code == package_errc::unknown_duration));
  BOOST_TEST((quote_package(c, request("b200", 0, 1)).error().code == package_errc::unknown_duration));
}

BOOST_AUTO_TEST_CASE(totals_past_64_bits_are_errors) {
  const auto c = shipped();
  const std::uint64_t u64_max = UINT64_MAX;
  // b200: 2 GPUs per lot, so the GPU count overflows first.
  BOOST_TEST((quote_package(c, request("b200", 7, u64_max / 2 + 1)).error().code == package_errc::total_gpus_overflow));
  // The largest count of 168000-cent lots that fits, and the next.
  const std::uint64_t most = u64_max / 168000U;
  BOOST_TEST(quote_package(c, request("b200", 7, most)).value().total_price.cents() == most * 168000U);
  BOOST_TEST((quote_package(c, request("b200", 7, most + 1)).error().code == package_errc::total_price_overflow));
  BOOST_TEST((quote_package(c, request("b300", 3, u64_max)).error().code == package_errc::total_price_overflow));
}

BOOST_AUTO_TEST_CASE(errors_carry_what_their_message_needs) {
  const auto c = shipped();
  const auto unknown = quote_package(c, request("b201", 7, 1)).error();
  BOOST_TEST(!unknown.offer.has_value());
  const auto days = quote_package(c, request("b200", 5, 1)).error();
  BOOST_TEST((days.offer == *c.find("b200")));
  BOOST_TEST((days == quote_package(shipped(), request("b200", 5, 1)).error()));
  const auto price = quote_package(c, request("b300", 3, UINT64_MAX)).error();
  BOOST_TEST(price.offer->lot_price(package_days{3})->cents() == 43200U);
}

BOOST_AUTO_TEST_CASE(errors_are_described) {
  BOOST_TEST(std::string(describe(package_errc::total_price_overflow)).find("64 bits") != std::string::npos);
  BOOST_TEST(std::string(describe(package_errc::unknown_gpu)).find("catalog") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
