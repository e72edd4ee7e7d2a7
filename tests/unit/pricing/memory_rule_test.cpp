#include <iteragpu/pricing/memory_rule.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include <boost/test/unit_test.hpp>

#include <iteragpu/io.hpp>
#include <iteragpu/pricing/catalog.hpp>
#include <iteragpu/pricing/catalog_errors.hpp>

namespace {

using iteragpu::pricing::assess_fit;
using iteragpu::pricing::band_basis;
using iteragpu::byte_count;
using iteragpu::pricing::fit_verdict;
using iteragpu::pricing::memory_gb;
using iteragpu::pricing::memory_on_record;
using iteragpu::pricing::runtime_memory_of;

iteragpu::pricing::catalog shipped_catalog() {
  const std::string path = ITERAGPU_TEST_DATA_DIR "/tarifs-forfaits.csv";
  auto text = iteragpu::read_whole_file(path);
  BOOST_REQUIRE_MESSAGE(text.has_value(), "cannot read " + path);
  auto parsed = iteragpu::pricing::parse_catalog(*text, "tarifs-forfaits.csv");
  BOOST_REQUIRE_MESSAGE(parsed.has_value(), (parsed ? std::string() : iteragpu::pricing::describe(parsed.error())));
  return std::move(parsed).value();
}

// The GPU ids of a catalog with their nominal figure.
std::set<std::pair<std::string, std::uint64_t>> gpus_of(const iteragpu::pricing::catalog& c) {
  std::set<std::pair<std::string, std::uint64_t>> gpus;
  for (const auto& offer : c.offers()) {
    gpus.emplace(offer.id, offer.memory_per_gpu.value);
  }
  return gpus;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(memory_rule)

BOOST_AUTO_TEST_CASE(every_gpu_of_the_shipped_catalog_gets_a_band_from_records_except_l40) {
  const auto gpus = gpus_of(shipped_catalog());
  BOOST_REQUIRE_EQUAL(gpus.size(), 16U);
  for (const auto& [id, gb] : gpus) {
    const auto memory = runtime_memory_of(id, memory_gb{gb});
    BOOST_REQUIRE_MESSAGE(memory.has_value(), "no band for " + id);
    BOOST_TEST((memory->basis == (id == "l40" ? band_basis::nominal : band_basis::records)), id);
    BOOST_TEST(memory->band.low.value > 0U, id);
    BOOST_TEST(memory->band.low.value <= memory->band.high.value, id);
  }
}

// The table and the catalog must not drift apart: a row whose id or nominal
// figure the catalog no longer has would silently stop applying.
BOOST_AUTO_TEST_CASE(every_row_on_record_is_a_gpu_of_the_shipped_catalog_with_its_figure) {
  const auto gpus = gpus_of(shipped_catalog());
  for (const auto& row : memory_on_record) {
    BOOST_TEST(gpus.count({std::string(row.gpu), row.nominal.value}) == 1U, row.gpu);
  }
}

// The issue's example need, 17.03851604461669921875 GiB = 18294967296 bytes,
// is below every low end: the smallest is rtx-4090's 25132489113, so every
// shipped GPU holds it, with 6837521817 bytes to spare on the 4090 and
// 47520000000 - 18294967296 = 29225032704 on the l40 (generic rule).
BOOST_AUTO_TEST_CASE(the_issue_example_need_fits_every_shipped_gpu) {
  const byte_count need{18'294'967'296};
  for (const auto& [id, gb] : gpus_of(shipped_catalog())) {
    const auto fit = assess_fit(need, runtime_memory_of(id, memory_gb{gb}).value().band);
    BOOST_TEST((fit.verdict == fit_verdict::fits), id);
    BOOST_TEST(fit.shortfall.value == 0U, id);
  }
  BOOST_TEST(assess_fit(need, runtime_memory_of("rtx-4090", memory_gb{24}).value().band).headroom.value ==
             6'837'521'817U);
  BOOST_TEST(assess_fit(need, runtime_memory_of("l40", memory_gb{48}).value().band).headroom.value == 29'225'032'704U);
}

// A catalog of one's own: an unknown id, and a known id sold with another
// figure, both fall back on the generic rule (99 % of GB to GiB).
BOOST_AUTO_TEST_CASE(gpus_without_records_get_the_generic_band) {
  const std::string own = std::string(iteragpu::pricing::catalog_header) +
                          "\n"
                          "acme,USD,2026-09-24,acme-x1,Acme X1,64,1,3,100\n"
                          "acme,USD,2026-09-24,acme-x1,Acme X1,64,1,7,200\n"
                          "acme,USD,2026-09-24,acme-x1,Acme X1,64,1,30,300\n"
                          "acme,USD,2026-09-24,h200,NVIDIA H200 NVL,144,1,3,100\n"
                          "acme,USD,2026-09-24,h200,NVIDIA H200 NVL,144,1,7,200\n"
                          "acme,USD,2026-09-24,h200,NVIDIA H200 NVL,144,1,30,300\n";
  const auto c = iteragpu::pricing::parse_catalog(own, "own.csv").value();
  const auto x1 = runtime_memory_of("acme-x1", c.offers().front().memory_per_gpu).value();
  BOOST_TEST((x1.basis == band_basis::nominal));
  BOOST_TEST(x1.band.low.value == 63'360'000'000U);   // 64 * 990000000
  BOOST_TEST(x1.band.high.value == 68'719'476'736U);  // 64 * 2^30
  const auto h200 = runtime_memory_of("h200", c.offers().back().memory_per_gpu).value();
  BOOST_TEST((h200.basis == band_basis::nominal));
  BOOST_TEST(h200.band.low.value == 142'560'000'000U);   // 144 * 990000000
  BOOST_TEST(h200.band.high.value == 154'618'822'656U);  // 144 * 2^30
}

BOOST_AUTO_TEST_CASE(a_nominal_figure_whose_band_passes_64_bits_has_none) {
  BOOST_TEST(!runtime_memory_of("acme-x1", memory_gb{17'179'869'184}).has_value());  // 2^34 GB = 2^64 bytes as GiB
  BOOST_TEST(runtime_memory_of("acme-x1", memory_gb{17'179'869'183}).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
