// The rest of the library's constexpr surface, pinned at compile time with
// g++ 12 and clang 14 alike: text, units and their order, the error model,
// checked arithmetic, dtypes, devices, phases, catalog rules and the
// descriptions of every error. (estimate_static, money_static and
// parse_static hold the arithmetic of their own headers.)
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

#include <iteragpu/checked.hpp>
#include <iteragpu/memory/device.hpp>
#include <iteragpu/memory/estimate.hpp>
#include <iteragpu/memory/policies/dtype.hpp>
#include <iteragpu/memory/protocol.hpp>
#include <iteragpu/pricing/catalog.hpp>
#include <iteragpu/pricing/money.hpp>
#include <iteragpu/pricing/package.hpp>
#include <iteragpu/result.hpp>
#include <iteragpu/text.hpp>
#include <iteragpu/units.hpp>

namespace {

using iteragpu::byte_count;
using iteragpu::exact_decimal;
using iteragpu::result;
using iteragpu::unexpected;

constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();
constexpr std::int64_t i64_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t i64_min = std::numeric_limits<std::int64_t>::min();
constexpr exact_decimal decimal(std::string_view text) { return exact_decimal::parse(text).value(); }

// ---- text.hpp ----
static_assert(iteragpu::decimal_text(0) == "0");
static_assert(iteragpu::decimal_text(7) == "7");
static_assert(iteragpu::decimal_text(1'000'000) == "1000000");
static_assert(iteragpu::decimal_text(u64_max) == iteragpu::largest_u64_text);
static_assert(iteragpu::decimal_text(u64_max).size() == iteragpu::max_decimal_digits);
// size_text: PyTorch's units, two decimals rounded half up, carried into the next unit.
static_assert(iteragpu::size_text(0) == "0 bytes");
static_assert(iteragpu::size_text(1) == "1 byte");
static_assert(iteragpu::size_text(1023) == "1023 bytes");
static_assert(iteragpu::size_text(1024) == "1.00 KiB");
static_assert(iteragpu::size_text(1536) == "1.50 KiB");
static_assert(iteragpu::size_text(1029) == "1.00 KiB");          // 1.0048... rounds down
static_assert(iteragpu::size_text(1030) == "1.01 KiB");          // 1.0058... rounds up
static_assert(iteragpu::size_text(102'760'448) == "98.00 MiB");  // PyTorch's "98.00 MiB"
static_assert(iteragpu::size_text(809'500'672) == "772.00 MiB");
static_assert(iteragpu::size_text(1'048'575) == "1.00 MiB");      // 1023.999 KiB carries into MiB
static_assert(iteragpu::size_text(2'147'483'647) == "2.00 GiB");  // 1.9999... GiB carries
static_assert(iteragpu::size_text(18'295'288'832) == "17.04 GiB");
static_assert(iteragpu::size_text(u64_max) == "17179869184.00 GiB");
static_assert(iteragpu::size_text(u64_max).size() <= iteragpu::max_size_text);
constexpr iteragpu::fixed_text<4> abc() {
  iteragpu::fixed_text<4> t;
  t.push_back('a');
  t.append("bc");
  return t;
}
static_assert(abc() == "abc" && abc().size() == 3 && abc().view() == std::string_view("abc"));
// Display text: valid UTF-8 with no control and no bidirectional control.
static_assert(iteragpu::check_display_text("NVIDIA H200").has_value());
static_assert(iteragpu::check_display_text("Überprüfung, 東京, 🙂").has_value());
static_assert(iteragpu::check_display_text("a\nb").error().offset == 1);
static_assert(iteragpu::check_display_text("a\nb").error().code == iteragpu::display_text_errc::control);
static_assert(iteragpu::check_display_text("ab\x7F").error().code == iteragpu::display_text_errc::control);
// A literal split in two ends a \x escape; kept on one line with its NOLINT.
// clang-format off
// U+009B (C2 9B), a C1 control that terminals take for ESC [.
static_assert(iteragpu::check_display_text("x\xC2\x9B" "2J").error().code == iteragpu::display_text_errc::control);
// U+202E (E2 80 AE), RIGHT-TO-LEFT OVERRIDE, and U+2066 (E2 81 A6), LEFT-TO-RIGHT ISOLATE.
// The literals hold the controls on purpose (NOLINT: this is what is tested).
static_assert(iteragpu::check_display_text("12\xE2\x80\xAE" "34").error().code ==  // NOLINT(misc-misleading-bidirectional)
              iteragpu::display_text_errc::bidi_control);
static_assert(iteragpu::check_display_text("12\xE2\x81\xA6").error().offset == 2);  // NOLINT(misc-misleading-bidirectional)
// clang-format on
// Invalid UTF-8: a lone continuation byte, 0xFF, an overlong '/', a
// surrogate (U+D800), past U+10FFFF, and a sequence cut short.
static_assert(iteragpu::check_display_text("\x80").error().code == iteragpu::display_text_errc::invalid_utf8);
static_assert(iteragpu::check_display_text("name \xFF").error().offset == 5);
static_assert(iteragpu::check_display_text("\xC0\xAF").error().code == iteragpu::display_text_errc::invalid_utf8);
static_assert(iteragpu::check_display_text("\xED\xA0\x80").error().code == iteragpu::display_text_errc::invalid_utf8);
static_assert(iteragpu::check_display_text("\xF4\x90\x80\x80").error().code ==
              iteragpu::display_text_errc::invalid_utf8);
static_assert(iteragpu::check_display_text("ab\xE2\x80").error().offset == 2);
static_assert(iteragpu::describe(iteragpu::display_text_errc::bidi_control) ==
              std::string_view("a bidirectional control character"));

// ---- units.hpp: exact decimals in numeric order, GiB to bytes ----
static_assert(decimal("17.04") < decimal("80"));
static_assert(decimal("17.04") > decimal("17.039999"));
static_assert(decimal("17.04") == decimal("17.040"));
static_assert(decimal("0.5") < decimal("1"));
static_assert(decimal("0.1") > decimal("0.09999999999999999999999999999999999999"));
static_assert(decimal("18446744073709551615") > decimal("18446744073709551614.9"));
static_assert((decimal("2.5") <=> decimal("2.50")) == 0);
static_assert(exact_decimal::from_integer(4).whole() == 4 && exact_decimal::from_integer(4).fraction_digits() == 0);
static_assert(decimal("13.03851604461669921875").fraction_digits() == 20);
static_assert(decimal("13.03851604461669921875").text() == "13.03851604461669921875");
// An estimate compared with a card's memory: 7e9 parameters of 16 bits plus
// 4 GiB is 17.0385... GiB, less than an H200's 150,109,880,320 bytes.
static_assert(iteragpu::memory::estimate_memory(iteragpu::memory::parameter_count{7'000'000'000},
                                                iteragpu::memory::storage_bits{16}, exact_decimal::from_integer(4))
                  ->total_gib < iteragpu::to_gib(byte_count{150'109'880'320}));
static_assert(iteragpu::to_gib(byte_count{150'109'880'320}).text() == "139.80072021484375");
static_assert(iteragpu::to_gb(byte_count{150'109'880'320}).text() == "150.10988032");
// GiB to bytes rounds up to a whole byte: 17.03851604461669921875 GiB is
// exactly 18,294,967,296 bytes; 2^-31 GiB is half a byte, so one byte.
static_assert(iteragpu::gib_to_bytes_rounded_up(decimal("17.03851604461669921875"))->value == 18'294'967'296U);
static_assert(iteragpu::gib_to_bytes_rounded_up(decimal("1"))->value == 1'073'741'824U);
static_assert(iteragpu::gib_to_bytes_rounded_up(decimal("0.0000000004656612873077392578125"))->value == 1U);
static_assert(iteragpu::gib_to_bytes_rounded_up(decimal("0.1"))->value == 107'374'183U);  // 107374182.4 -> up
static_assert(iteragpu::gib_to_bytes_rounded_up(decimal("0"))->value == 0U);
static_assert(iteragpu::gib_to_bytes_rounded_up(decimal("17179869183.999999999068677425384521484375"))->value ==
              u64_max);
static_assert(!iteragpu::gib_to_bytes_rounded_up(decimal("17179869184")).has_value());
static_assert(!decimal("1").times_power_of_two_rounded_up(61).has_value());
static_assert(decimal("0.5").times_power_of_two_rounded_up(1) == 1U);
static_assert(decimal("0.3").times_power_of_two_rounded_up(1) == 1U);  // 0.6 -> 1
static_assert(decimal("1.25").times_power_of_two_rounded_up(2) == 5U);
// A capacity rounds down: 139.8 GiB is 150,109,106,995.2 bytes.
static_assert(iteragpu::gib_to_bytes_rounded_down(decimal("139.8"))->value == 150'109'106'995U);
static_assert(iteragpu::gib_to_bytes_rounded_up(decimal("139.8"))->value == 150'109'106'996U);
static_assert(iteragpu::gib_to_bytes_rounded_down(decimal("1"))->value == 1'073'741'824U);
static_assert(decimal("0.3").times_power_of_two_rounded_down(1) == 0U);
static_assert(!decimal("1").times_power_of_two_rounded_down(61).has_value());

// ---- result.hpp ----
enum class fault { odd };
constexpr result<int, fault> half(int x) {
  if (x % 2 != 0) {
    return unexpected{fault::odd};
  }
  return x / 2;
}
static_assert(half(8).has_value() && static_cast<bool>(half(8)) && *half(8) == 4 && half(8).value() == 4);
static_assert(!half(3).has_value() && half(3).error() == fault::odd);
static_assert(half(3).value_or(-1) == -1 && half(8).value_or(-1) == 4);
static_assert(result<int, fault>(unexpected{fault::odd}) == half(5));
// The value and the error may be of one type.
constexpr result<int, int> same(bool ok) {
  if (ok) {
    return 1;
  }
  return unexpected{2};
}
static_assert(*same(true) == 1 && same(false).error() == 2);
constexpr result<void, fault> check(bool ok) {
  if (ok) {
    return {};
  }
  return unexpected{fault::odd};
}
static_assert(check(true).has_value() && !check(false) && check(false).error() == fault::odd);
// cppcheck does not see the members used through result's operator->.
struct pair_of {
  int a;  // cppcheck-suppress unusedStructMember
  int b;  // cppcheck-suppress unusedStructMember
};
constexpr int sum_of(const result<pair_of, fault>& r) { return r->a + r->b; }
static_assert(sum_of(pair_of{2, 3}) == 5);
static_assert(unexpected{7}.error() == 7);

// ---- checked.hpp ----
static_assert(iteragpu::checked_add<std::uint64_t>(u64_max - 1, 1) == u64_max);
static_assert(!iteragpu::checked_add<std::uint64_t>(u64_max, 1).has_value());
static_assert(iteragpu::checked_mul<std::uint64_t>(u64_max / 2, 2) == u64_max - 1);
static_assert(!iteragpu::checked_mul<std::uint64_t>(u64_max / 2 + 1, 2).has_value());
static_assert(iteragpu::checked_mul<std::uint64_t>(0, u64_max) == 0U);
static_assert(iteragpu::checked_sub<std::uint64_t>(u64_max, u64_max) == 0U);
static_assert(!iteragpu::checked_sub<std::uint64_t>(0, 1).has_value());
// Signed: each limit reached exactly, and one step past it refused.
static_assert(iteragpu::checked_add<std::int64_t>(i64_max - 1, 1) == i64_max);
static_assert(!iteragpu::checked_add<std::int64_t>(i64_max, 1).has_value());
static_assert(!iteragpu::checked_add<std::int64_t>(i64_min, -1).has_value());
static_assert(iteragpu::checked_sub<std::int64_t>(-1, i64_max) == i64_min);
static_assert(!iteragpu::checked_sub<std::int64_t>(0, i64_min).has_value());
static_assert(iteragpu::checked_mul<std::int64_t>(i64_min / 2, 2) == i64_min);
static_assert(!iteragpu::checked_mul<std::int64_t>(i64_min, -1).has_value());
static_assert(iteragpu::checked_mul<std::int64_t>(-3, -4) == 12);
static_assert(iteragpu::checked_mul<std::int64_t>(-3, 4) == -12);
static_assert(iteragpu::narrow<std::int8_t>(127) == 127);
static_assert(iteragpu::narrow<std::uint64_t>(std::int64_t{5}) == 5U);
static_assert(!iteragpu::narrow<std::int8_t>(128).has_value());
static_assert(!iteragpu::narrow<std::uint64_t>(std::int64_t{-1}).has_value());
static_assert(iteragpu::narrow<std::int64_t>(std::uint64_t{1} << 63U) == std::nullopt);

// ---- policies/dtype.hpp ----
static_assert(iteragpu::memory::parse_element_type("bfloat16") == iteragpu::memory::element_type::bfloat16);
static_assert(!iteragpu::memory::parse_element_type("fp16").has_value());
static_assert(iteragpu::memory::name_of(iteragpu::memory::element_type::float16) == std::string_view("float16"));
static_assert(iteragpu::memory::bytes_per_element(iteragpu::memory::element_type::float32) == 4);
static_assert(iteragpu::memory::bytes_per_element(iteragpu::memory::element_type::bfloat16) == 2);
static_assert(iteragpu::memory::with_dtype(iteragpu::memory::element_type::float16,
                                           []<iteragpu::memory::dtype_policy D>() { return D::bytes_per_element; }) ==
              2);

// ---- device.hpp, protocol.hpp ----
static_assert(iteragpu::memory::parse_device("cuda:3")->value == 3);
static_assert(iteragpu::memory::parse_device("cuda:127")->value == 127);
static_assert(!iteragpu::memory::parse_device("cuda:128").has_value() &&
              !iteragpu::memory::parse_device("cpu").has_value());
static_assert(iteragpu::memory::name_of(iteragpu::memory::phase_kind::warm_forward) ==
              std::string_view("warm_forward"));

// ---- catalog.hpp ----
static_assert(iteragpu::pricing::duration_index(iteragpu::pricing::package_days{7}) == 1U);
static_assert(!iteragpu::pricing::duration_index(iteragpu::pricing::package_days{5}).has_value());
static_assert(iteragpu::pricing::is_leap_year(2024) && !iteragpu::pricing::is_leap_year(2100) &&
              iteragpu::pricing::is_leap_year(2000));
static_assert(iteragpu::pricing::is_iso_date("2024-02-29") && !iteragpu::pricing::is_iso_date("2026-02-29"));
static_assert(!iteragpu::pricing::is_iso_date("2026-13-01") && !iteragpu::pricing::is_iso_date("2026-9-24"));
static_assert(iteragpu::pricing::is_gpu_id("h100-sxm") && !iteragpu::pricing::is_gpu_id("-h100") &&
              !iteragpu::pricing::is_gpu_id("H100") && !iteragpu::pricing::is_gpu_id(""));
static_assert(iteragpu::pricing::duration_named("30")->value == 30U);
static_assert(!iteragpu::pricing::duration_named("030").has_value() && !iteragpu::pricing::duration_named("0") &&
              !iteragpu::pricing::duration_named("5") && !iteragpu::pricing::duration_named(""));

// ---- every error is described ----
static_assert(iteragpu::pricing::describe(iteragpu::pricing::money_errc::division_by_zero) ==
              std::string_view("a division by zero"));
static_assert(iteragpu::memory::describe(iteragpu::memory::estimate_errc::zero_bits).starts_with("the storage width"));
static_assert(iteragpu::pricing::describe(iteragpu::pricing::package_errc::unknown_gpu) ==
              std::string_view("the GPU is not in the catalog"));

// Money: the parts not pinned in money_static.cpp.
static_assert(try_add(iteragpu::pricing::money::from_cents(1U), iteragpu::pricing::money::from_cents(2U))->cents() ==
              3U);
static_assert((iteragpu::pricing::money::from_cents(1U) + iteragpu::pricing::money::from_cents(2U)).cents() == 3U);

}  // namespace
