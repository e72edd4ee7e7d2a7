// The memory rule, pinned at compile time. Expected bands are worked out by
// hand from the records of data/README.md: a record printed in MiB is
// N * 2^20 bytes, one printed in hundredths of GiB is floor(N * 2^30 / 100),
// and the low end is the least record less 1 % of it rounded up to the byte.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include <iteragpu/pricing/memory_rule.hpp>

namespace {

using iteragpu::pricing::assess_fit;
using iteragpu::pricing::band_basis;
using iteragpu::byte_count;
using iteragpu::pricing::fit_verdict;
using iteragpu::pricing::memory_band;
using iteragpu::pricing::memory_fit;
using iteragpu::pricing::memory_gb;
using iteragpu::pricing::memory_on_record;
using iteragpu::pricing::memory_rule_statement;
using iteragpu::pricing::nominal_band;
using iteragpu::pricing::runtime_memory_of;
using iteragpu::pricing::verdict_name;

constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();

constexpr memory_band band(std::string_view gpu, std::uint64_t gb) {
  return runtime_memory_of(gpu, memory_gb{gb}).value().band;
}
constexpr band_basis basis(std::string_view gpu, std::uint64_t gb) {
  return runtime_memory_of(gpu, memory_gb{gb}).value().basis;
}
constexpr memory_fit fit(std::uint64_t need, std::string_view gpu, std::uint64_t gb) {
  return assess_fit(byte_count{need}, band(gpu, gb));
}

// The units the records are kept in.
static_assert(iteragpu::pricing::mebibytes<1>() == byte_count{1'048'576});
static_assert(iteragpu::pricing::mebibytes<0>() == byte_count{0});
static_assert(iteragpu::pricing::mebibytes<(u64_max >> 20U)>() == byte_count{u64_max - 1'048'575});
static_assert(iteragpu::pricing::gib_hundredths<100>() == byte_count{1'073'741'824});
static_assert(iteragpu::pricing::gib_hundredths<1>() == byte_count{10'737'418});  // 10737418.24, rounded down
// A count past 64 bits in either unit does not compile.
template <std::uint64_t Count>
constexpr bool mebibytes_compile = requires { iteragpu::pricing::mebibytes<Count>(); };
template <std::uint64_t Count>
constexpr bool gib_hundredths_compile = requires { iteragpu::pricing::gib_hundredths<Count>(); };
static_assert(mebibytes_compile<(u64_max >> 20U)> && !mebibytes_compile<(u64_max >> 20U) + 1>);
static_assert(gib_hundredths_compile<(u64_max >> 30U)> && !gib_hundredths_compile<(u64_max >> 30U) + 1>);

// Every model of the shipped catalog with records, its band exactly.
// b300: lowest 267.69 GiB = floor(26769 * 2^30 / 100) = 287429948866; 1 % rounded up = 2874299489
static_assert(band("b300", 288) == memory_band{byte_count{284'555'649'377}, byte_count{287'429'948'866}});
// b200: lowest 178.35 GiB = 191501854310; 1 % = 1915018544; high 182642 MiB = 191514017792
static_assert(band("b200", 180) == memory_band{byte_count{189'586'835'766}, byte_count{191'514'017'792}});
// h200: lowest 150021734400 bytes; 1 % = 1500217344 exactly; high 143156 MiB = 150109945856
static_assert(band("h200", 141) == memory_band{byte_count{148'521'517'056}, byte_count{150'109'945'856}});
// h100-sxm: lowest 81082 MiB = 85020639232; 1 % = 850206392.32, rounded up 850206393;
// high 79.21 GiB = floor(7921 * 2^30 / 100) = 85051089879
static_assert(band("h100-sxm", 80) == memory_band{byte_count{84'170'432'839}, byte_count{85'051'089'879}});
// h100-nvl: lowest 99861594112 bytes; 1 % = 998615942 (rounded up); high 93.09 GiB = 99954626396
static_assert(band("h100-nvl", 94) == memory_band{byte_count{98'862'978'170}, byte_count{99'954'626'396}});
// h100-pcie: one record, 81008 MiB = 84943044608; 1 % = 849430447 (rounded up)
static_assert(band("h100-pcie", 80) == memory_band{byte_count{84'093'614'161}, byte_count{84'943'044'608}});
// a100-80gb: lowest 84987740160 bytes; 1 % = 849877402 (rounded up); high 81251 MiB = 85197848576
static_assert(band("a100-80gb", 80) == memory_band{byte_count{84'137'862'758}, byte_count{85'197'848'576}});
// a100-40gb: lowest 40326 MiB = 42284875776; 1 % = 422848758 (rounded up); high 40536 MiB = 42505076736
static_assert(band("a100-40gb", 40) == memory_band{byte_count{41'862'027'018}, byte_count{42'505'076'736}});
// mi300x: lowest 191.69 GiB = 205825570242; 1 % = 2058255703 (rounded up); high 196592 MiB = 206141652992
static_assert(band("mi300x", 192) == memory_band{byte_count{203'767'314'539}, byte_count{206'141'652'992}});
// rtx-pro-6000: one record, 97250 MiB = 101974016000; 1 % = 1019740160 exactly
static_assert(band("rtx-pro-6000", 96) == memory_band{byte_count{100'954'275'840}, byte_count{101'974'016'000}});
// l4: lowest 22.03 GiB = 23654532382; 1 % = 236545324 (rounded up); high the same record
static_assert(band("l4", 24) == memory_band{byte_count{23'417'987'058}, byte_count{23'654'532'382}});
// l40s: lowest 44.39 GiB = 47663399567; 1 % = 476633996 (rounded up); high 47803596800 bytes
static_assert(band("l40s", 48) == memory_band{byte_count{47'186'765'571}, byte_count{47'803'596'800}});
// a6000: lowest 47834660864 bytes (ECC on); 1 % = 478346609 (rounded up); high 48676 MiB = 51040485376 (ECC off)
static_assert(band("a6000", 48) == memory_band{byte_count{47'356'314'255}, byte_count{51'040'485'376}});
// rtx-5090: lowest 33677180928 bytes; 1 % = 336771810 (rounded up); high 33680457728 bytes
static_assert(band("rtx-5090", 32) == memory_band{byte_count{33'340'409'118}, byte_count{33'680'457'728}});
// rtx-4090: lowest 25386352640 bytes; 1 % = 253863526.4, rounded up 253863527; high 24563 MiB = 25756172288
static_assert(band("rtx-4090", 24) == memory_band{byte_count{25'132'489'113}, byte_count{25'756'172'288}});
static_assert(basis("h200", 141) == band_basis::records);

// l40 has no record: the generic rule, 48 * 990000000 to 48 * 2^30.
static_assert(band("l40", 48) == memory_band{byte_count{47'520'000'000}, byte_count{51'539'607'552}});
static_assert(basis("l40", 48) == band_basis::nominal);

// A known id with another nominal figure is another board: the generic rule.
static_assert(band("h100-sxm", 94) == memory_band{byte_count{93'060'000'000}, byte_count{100'931'731'456}});
static_assert(basis("h100-sxm", 94) == band_basis::nominal);
// Ids are matched exactly, case included.
static_assert(basis("H200", 141) == band_basis::nominal);
static_assert(basis("", 141) == band_basis::nominal);

// The table's own invariants: lowest <= highest, one row per id, and every
// record inside the generic band of its nominal figure (the generic rule
// covers every model that has records) but the L4's, whose 22.03 GiB lie
// below 99 % of its 24 x 10^9 bytes (data/README.md): the one model the
// generic rule would overstate, which is why it has a row.
constexpr bool records_are_consistent() {
  for (std::size_t i = 0; i < memory_on_record.size(); ++i) {
    const auto& row = memory_on_record[i];
    const auto generic = nominal_band(row.nominal).value();
    const bool below_generic = row.lowest < generic.low && row.gpu != "l4";
    if (row.lowest > row.highest || below_generic || row.highest > generic.high) {
      return false;
    }
    for (std::size_t j = i + 1; j < memory_on_record.size(); ++j) {
      if (memory_on_record[j].gpu == row.gpu) {
        return false;
      }
    }
  }
  return true;
}
static_assert(records_are_consistent());
static_assert(band("l4", 24).high < nominal_band(memory_gb{24}).value().low);

// The two figures. H200 "141 GB": CUDA reports 150109880320 bytes
// (139.8 GiB, measured for data/README.md); it lies inside the band, so a
// need of exactly that much is tight, 1588363264 bytes above the low end.
static_assert(fit(150'109'880'320, "h200", 141) ==
              memory_fit{fit_verdict::tight, byte_count{0}, byte_count{150'109'880'320 - 148'521'517'056}});
// H100 "80 GB": about 79.2 GiB = floor(79.2 * 2^30) = 85040352460 bytes, inside the band.
static_assert(fit(85'040'352'460, "h100-sxm", 80).verdict == fit_verdict::tight);
static_assert(fit(85'000'000'000, "h100-sxm", 80).verdict == fit_verdict::tight);  // "85.0 GB"

// At the low end exactly: fits with no headroom; one byte more is tight, one
// byte short.
static_assert(fit(148'521'517'056, "h200", 141) == memory_fit{fit_verdict::fits, byte_count{0}, byte_count{0}});
static_assert(fit(148'521'517'057, "h200", 141) == memory_fit{fit_verdict::tight, byte_count{0}, byte_count{1}});
static_assert(fit(148'521'517'055, "h200", 141) == memory_fit{fit_verdict::fits, byte_count{1}, byte_count{0}});
// At the high end exactly: still tight; one byte more does not fit.
static_assert(fit(150'109'945'856, "h200", 141).verdict == fit_verdict::tight);
static_assert(fit(150'109'945'857, "h200", 141) ==
              memory_fit{fit_verdict::does_not_fit, byte_count{0}, byte_count{150'109'945'857 - 148'521'517'056}});
// A one-record model: the band is 1 % wide below the record.
static_assert(fit(84'943'044'608, "h100-pcie", 80).verdict == fit_verdict::tight);
static_assert(fit(84'943'044'609, "h100-pcie", 80).verdict == fit_verdict::does_not_fit);

// A need of 0 fits everywhere with the whole low end as headroom.
static_assert(fit(0, "rtx-4090", 24) == memory_fit{fit_verdict::fits, byte_count{25'132'489'113}, byte_count{0}});
static_assert(fit(0, "l40", 48) == memory_fit{fit_verdict::fits, byte_count{47'520'000'000}, byte_count{0}});

// A need past every GPU: the largest high end on record is b300's
// 287429948866; one byte more, and the largest 64-bit need, fit nowhere.
constexpr bool fits_nowhere(std::uint64_t need) {
  for (const auto& row : memory_on_record) {
    if (fit(need, row.gpu, row.nominal.value).verdict != fit_verdict::does_not_fit) {
      return false;
    }
  }
  return fit(need, "l40", 48).verdict == fit_verdict::does_not_fit;
}
static_assert(fits_nowhere(287'429'948'867));
static_assert(fits_nowhere(u64_max));
static_assert(!fits_nowhere(287'429'948'866));
static_assert(fit(u64_max, "b300", 288).shortfall == byte_count{u64_max - 284'555'649'377});

// The generic rule's arithmetic and its 64-bit limit: 2^34 GB read as GiB is
// 2^64 bytes, one past the range; 2^34 - 1 is the largest figure with a band.
static_assert(nominal_band(memory_gb{1}).value() == memory_band{byte_count{990'000'000}, byte_count{1'073'741'824}});
static_assert(nominal_band(memory_gb{0}).value() == memory_band{byte_count{0}, byte_count{0}});
static_assert(nominal_band(memory_gb{17'179'869'183}).value() ==
              memory_band{byte_count{17'008'070'491'170'000'000U}, byte_count{18'446'744'072'635'809'792U}});
static_assert(!nominal_band(memory_gb{17'179'869'184}).has_value());
static_assert(!nominal_band(memory_gb{u64_max}).has_value());
static_assert(!runtime_memory_of("l40", memory_gb{17'179'869'184}).has_value());
static_assert(!runtime_memory_of("h200", memory_gb{u64_max}).has_value());

// A band given the wrong way round still answers without wrapping.
static_assert(assess_fit(byte_count{5}, memory_band{byte_count{10}, byte_count{3}}) ==
              memory_fit{fit_verdict::fits, byte_count{5}, byte_count{0}});
static_assert(assess_fit(byte_count{11}, memory_band{byte_count{10}, byte_count{3}}) ==
              memory_fit{fit_verdict::does_not_fit, byte_count{0}, byte_count{1}});

static_assert(verdict_name(fit_verdict::fits) == "fits");
static_assert(verdict_name(fit_verdict::tight) == "tight");
static_assert(verdict_name(fit_verdict::does_not_fit) == "does not fit");

// The statement names where the rule is written and stays on one line.
static_assert(memory_rule_statement.find("data/README.md") != std::string_view::npos);
static_assert(memory_rule_statement.find('\n') == std::string_view::npos);
static_assert(memory_rule_statement.starts_with("Memory rule"));

}  // namespace
