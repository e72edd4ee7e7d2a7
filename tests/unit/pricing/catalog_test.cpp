#include <iteragpu/pricing/catalog.hpp>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/io.hpp>
#include <iteragpu/pricing/catalog_errors.hpp>

namespace {

using iteragpu::pricing::catalog_error;
using iteragpu::pricing::package_days;
using iteragpu::pricing::parse_catalog;

const std::string header =
    "provider,currency,snapshot_date,gpu,name,memory_gb_per_gpu,gpus_per_lot,days,lot_price_cents";

// One GPU with its three rows, on lines 2 to 4 after the header.
const std::string one_gpu = header + "\n"
                                     "acme,USD,2026-09-24,b200,NVIDIA B200,180,2,3,72000\n"
                                     "acme,USD,2026-09-24,b200,NVIDIA B200,180,2,7,168000\n"
                                     "acme,USD,2026-09-24,b200,NVIDIA B200,180,2,30,720000\n";

std::string read_file(const std::string& path) {
  auto text = iteragpu::read_whole_file(path);
  BOOST_REQUIRE_MESSAGE(text.has_value(), "cannot read " + path);
  return std::move(*text);
}

// one_gpu with the text `from` replaced by `to` (once; it must be there).
std::string edited(std::string_view from, std::string_view to, std::string text = one_gpu) {
  const auto at = text.find(from);
  BOOST_REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  return text;
}

catalog_error refused(const std::string& text) {
  const auto parsed = parse_catalog(text, "c.csv");
  BOOST_REQUIRE_MESSAGE(!parsed, "the catalog was accepted:\n" + text);
  return parsed.error();
}

struct refusal {
  std::string text;
  std::size_t line;
  std::size_t column;
  std::string message;
};

void check(const refusal& r) {
  const auto e = refused(r.text);
  BOOST_TEST(e.file == "c.csv");
  BOOST_TEST((e.position == iteragpu::pricing::text_position{r.line, r.column}), r.message);
  BOOST_TEST(iteragpu::pricing::describe(e) == r.message);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(catalog_reading)

BOOST_AUTO_TEST_CASE(shipped_catalog_has_15_gpus_by_3_durations) {
  const auto parsed = parse_catalog(read_file(ITERAGPU_TEST_DATA_DIR "/tarifs-forfaits.csv"), "tarifs-forfaits.csv");
  BOOST_REQUIRE_MESSAGE(parsed.has_value(), (parsed ? std::string() : iteragpu::pricing::describe(parsed.error())));
  const auto& c = *parsed;
  BOOST_TEST(c.package_count() == 48U);
  BOOST_TEST(c.offers().size() == 16U);
  BOOST_TEST(c.snapshot().provider == "illustrative");
  BOOST_TEST(c.illustrative());
  BOOST_TEST(c.snapshot().currency == "USD");
  BOOST_TEST(c.snapshot().date == "2026-09-24");
  // Each GPU's three rows follow each other, 3, 7 then 30 days, from line 2.
  std::size_t line = 2;
  for (const auto& offer : c.offers()) {
    BOOST_TEST(offer.lines[0] == line, offer.id);
    BOOST_TEST(offer.lines[1] == line + 1, offer.id);
    BOOST_TEST(offer.lines[2] == line + 2, offer.id);
    line += 3;
    BOOST_TEST(offer.gpus_per_lot.value == (offer.id == "b200" ? 2U : 1U), offer.id);
    BOOST_TEST(c.find(offer.id) == &offer);
  }
}

// data/README.md: lot price = gpus_per_lot x the low end of the public range
// in cents per GPU-hour x 24 x days, no discount. The low ends and the
// memory sizes are those of the anchors' table.
BOOST_AUTO_TEST_CASE(shipped_prices_follow_the_written_rule) {
  struct source {
    std::uint64_t cents_per_gpu_hour;
    std::uint64_t memory_gb;
  };
  const std::map<std::string, source> low_end{
      {"b300", {600, 288}},    {"b200", {500, 180}},        {"h200", {345, 141}},     {"h100-sxm", {258, 80}},
      {"h100-nvl", {259, 94}}, {"h100-pcie", {199, 80}},    {"a100-80gb", {139, 80}}, {"a100-40gb", {100, 40}},
      {"mi300x", {259, 192}},  {"rtx-pro-6000", {145, 96}}, {"l40s", {94, 48}},       {"l40", {100, 48}},
      {"a6000", {50, 48}},     {"rtx-5090", {76, 32}},      {"rtx-4090", {29, 24}},   {"l4", {50, 24}},
  };
  const auto c = parse_catalog(read_file(ITERAGPU_TEST_DATA_DIR "/tarifs-forfaits.csv"), "t.csv").value();
  for (const auto& offer : c.offers()) {
    const auto found = low_end.find(offer.id);
    BOOST_REQUIRE_MESSAGE(found != low_end.end(), "unexpected GPU " + offer.id);
    for (const auto days : iteragpu::pricing::package_durations) {
      const auto expected = offer.gpus_per_lot.value * found->second.cents_per_gpu_hour * 24U * days.value;
      BOOST_TEST(offer.lot_price(days)->cents() == expected, offer.id << " " << days.value << " days");
    }
    BOOST_TEST(offer.memory_per_gpu.value == found->second.memory_gb, offer.id);
  }
  BOOST_TEST(c.find("b200")->lot_price(package_days{7})->cents() == 168000U);
}

BOOST_AUTO_TEST_CASE(offers_keep_their_values_and_lines) {
  const auto c = parse_catalog(one_gpu, "c.csv").value();
  BOOST_TEST(c.file() == "c.csv");
  BOOST_TEST(!c.illustrative());
  BOOST_REQUIRE_EQUAL(c.offers().size(), 1U);
  BOOST_TEST(c.package_count() == 3U);
  const auto& offer = c.offers()[0];
  BOOST_TEST(offer.id == "b200");
  BOOST_TEST(offer.name == "NVIDIA B200");
  BOOST_TEST(offer.memory_per_gpu.value == 180U);
  BOOST_TEST(offer.gpus_per_lot.value == 2U);
  BOOST_TEST(offer.lot_price(package_days{3})->cents() == 72000U);
  BOOST_TEST(offer.lot_price(package_days{7})->cents() == 168000U);
  BOOST_TEST(offer.lot_price(package_days{30})->cents() == 720000U);
  BOOST_TEST(!offer.lot_price(package_days{5}).has_value());
  BOOST_TEST(offer.lines[1] == 3U);
  BOOST_TEST(offer.lines[2] == 4U);
  BOOST_TEST(c.find("b200") == &offer);
  BOOST_TEST(c.find("h200") == nullptr);
  BOOST_TEST(c.find("") == nullptr);
}

BOOST_AUTO_TEST_CASE(crlf_quotes_and_a_missing_final_line_end_are_read) {
  std::string crlf;
  for (const char ch : one_gpu) {
    crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  }
  BOOST_TEST(parse_catalog(crlf, "c.csv").value().package_count() == 3U);
  BOOST_TEST(parse_catalog(one_gpu.substr(0, one_gpu.size() - 1), "c.csv").value().package_count() == 3U);
  BOOST_TEST(parse_catalog(one_gpu + "\n", "c.csv").value().package_count() == 3U);
  BOOST_TEST(parse_catalog(one_gpu + "\r\n\r\n", "c.csv").value().package_count() == 3U);

  std::string quoted = one_gpu;
  for (auto at = quoted.find("NVIDIA B200"); at != std::string::npos; at = quoted.find("NVIDIA B200", at + 30)) {
    quoted.replace(at, 11, R"("NVIDIA B200, ""SXM""")");
  }
  const auto c = parse_catalog(quoted, "c.csv").value();
  BOOST_TEST(c.offers()[0].name == "NVIDIA B200, \"SXM\"");

  // Any field may be quoted, numbers included.
  const auto numbers = parse_catalog(edited(",2,7,168000\n", ",\"2\",\"7\",\"168000\"\n"), "c.csv").value();
  BOOST_TEST(numbers.offers()[0].lot_price(package_days{7})->cents() == 168000U);
}

BOOST_AUTO_TEST_CASE(the_largest_price_that_fits_is_read) {
  const auto c = parse_catalog(edited(",720000\n", ",18446744073709551615\n"), "c.csv").value();
  BOOST_TEST(c.offers()[0].lot_price(package_days{30})->cents() == UINT64_MAX);
}

BOOST_AUTO_TEST_CASE(a_name_may_not_hold_a_line_break_even_in_quotes) {
  // RFC 4180 allows the break inside quotes; a name that prints on two lines
  // would break every table, so the catalog refuses it where the name starts.
  check({edited("NVIDIA B200,180,2,7", "\"NVIDIA\nB200\",180,2,7"), 3, 26,
         "c.csv:3:26: name 'NVIDIA\\x0AB200'; expected a name: printable, non-empty, no space at either end"});
  check({edited("NVIDIA B200,180,2,7", "\"NVIDIA\r\nB200\",180,2,7"), 3, 26,
         "c.csv:3:26: name 'NVIDIA\\x0D\\x0AB200'; expected a name: printable, non-empty, no space at either end"});
}

BOOST_AUTO_TEST_CASE(every_rule_is_reported_at_its_line_and_column) {
  const std::string h = "provider,currency,snapshot_date,gpu,name,memory_gb_per_gpu,gpus_per_lot,days,lot_price_cents";
  const std::vector<refusal> cases{
      {"", 1, 1, "c.csv:1:1: an empty file; expected the header " + h},
      {"\n\n", 1, 1, "c.csv:1:1: only empty lines; expected the header " + h},
      {"\xEF\xBB\xBF" + one_gpu, 1, 1,
       "c.csv:1:1: a UTF-8 byte order mark; expected the header " + h +
           " at the very start of the file (UTF-8 without byte order mark)"},
      {edited("snapshot_date", "snapshot"), 1, 19,
       "c.csv:1:19: header field 3 'snapshot'; expected 'snapshot_date' (the header " + h + ")"},
      {edited("provider,", "Provider,"), 1, 1,
       "c.csv:1:1: header field 1 'Provider'; expected 'provider' (the header " + h + ")"},
      {edited(",lot_price_cents", ""), 1, 77, "c.csv:1:77: a header of 8 fields; expected 9 fields: the header " + h},
      {edited("lot_price_cents", "lot_price_cents,note"), 1, 94,
       "c.csv:1:94: a header of 10 fields; expected 9 fields: the header " + h},
      {header + "\n", 2, 1,
       "c.csv:2:1: no price rows after the header; expected at least one GPU with rows for 3, 7 and 30 days"},
      {edited(",2,7,168000", ",2,7"), 3, 45, "c.csv:3:45: a row of 8 fields; expected 9 fields (" + h + ")"},
      {edited(",2,7,168000", ",2,7,168000,x"), 3, 53, "c.csv:3:53: a row of 10 fields; expected 9 fields (" + h + ")"},
      {edited("168000\n", "168000\n\n"), 4, 1, "c.csv:4:1: an empty line; expected a row of 9 fields (" + h + ")"},
      {edited("acme,USD,2026-09-24,b200,NVIDIA B200,180,2,7", ",USD,2026-09-24,b200,NVIDIA B200,180,2,7"), 3, 1,
       "c.csv:3:1: provider ''; expected a provider name: printable, non-empty, no space at either end"},
      {edited("acme,USD,2026-09-24,b200,NVIDIA B200,180,2,7", "other,USD,2026-09-24,b200,NVIDIA B200,180,2,7"), 3, 1,
       "c.csv:3:1: provider 'other'; expected 'acme' as on line 2 (one provider per catalog)"},
      {edited("acme,USD,2026-09-24,b200,NVIDIA B200,180,2,7", "acme,EUR,2026-09-24,b200,NVIDIA B200,180,2,7"), 3, 6,
       "c.csv:3:6: currency 'EUR'; expected USD (prices are US cents; there is no currency conversion)"},
      {edited("acme,USD,2026-09-24,b200,NVIDIA B200,180,2,3", "acme,usd,2026-09-24,b200,NVIDIA B200,180,2,3"), 2, 6,
       "c.csv:2:6: currency 'usd'; expected USD (prices are US cents; there is no currency conversion)"},
      {edited("2026-09-24,b200,NVIDIA B200,180,2,3", "2026-9-24,b200,NVIDIA B200,180,2,3"), 2, 10,
       "c.csv:2:10: snapshot_date '2026-9-24'; expected an ISO 8601 calendar date YYYY-MM-DD"},
      {edited("2026-09-24,b200,NVIDIA B200,180,2,3", "2026-02-29,b200,NVIDIA B200,180,2,3"), 2, 10,
       "c.csv:2:10: snapshot_date '2026-02-29'; expected an ISO 8601 calendar date YYYY-MM-DD"},
      {edited("2026-09-24,b200,NVIDIA B200,180,2,30", "2026-09-25,b200,NVIDIA B200,180,2,30"), 4, 10,
       "c.csv:4:10: snapshot_date '2026-09-25'; expected '2026-09-24' as on line 2 (one snapshot per catalog)"},
      {edited("b200,NVIDIA B200,180,2,3", "B200,NVIDIA B200,180,2,3"), 2, 21,
       "c.csv:2:21: gpu 'B200'; expected a GPU id of lower-case letters, digits and '-', not starting with '-'"},
      {edited("b200,NVIDIA B200,180,2,3", "-b200,NVIDIA B200,180,2,3"), 2, 21,
       "c.csv:2:21: gpu '-b200'; expected a GPU id of lower-case letters, digits and '-', not starting with '-'"},
      {edited("b200,NVIDIA B200,180,2,3", "b_200,NVIDIA B200,180,2,3"), 2, 21,
       "c.csv:2:21: gpu 'b_200'; expected a GPU id of lower-case letters, digits and '-', not starting with '-'"},
      {edited("b200,NVIDIA B200,180,2,3", ",NVIDIA B200,180,2,3"), 2, 21,
       "c.csv:2:21: gpu ''; expected a GPU id of lower-case letters, digits and '-', not starting with '-'"},
      {edited("NVIDIA B200,180,2,3", ",180,2,3"), 2, 26,
       "c.csv:2:26: name ''; expected a name: printable, non-empty, no space at either end"},
      {edited("NVIDIA B200,180,2,3", "\"\",180,2,3"), 2, 26,
       "c.csv:2:26: name ''; expected a name: printable, non-empty, no space at either end"},
      {edited("NVIDIA B200,180,2,3", " NVIDIA B200,180,2,3"), 2, 26,
       "c.csv:2:26: name ' NVIDIA B200'; expected a name: printable, non-empty, no space at either end"},
      {edited("NVIDIA B200,180,2,3", "\"NVIDIA\tB200\",180,2,3"), 2, 26,
       "c.csv:2:26: name 'NVIDIA\\x09B200'; expected a name: printable, non-empty, no space at either end"},
      {edited(",180,2,3,", ",0,2,3,"), 2, 38,
       "c.csv:2:38: memory_gb_per_gpu '0'; expected a positive whole number in digits (no sign, point or space, 1 to "
       "18446744073709551615) of GB per GPU"},
      {edited(",180,2,3,", ",180.5,2,3,"), 2, 38,
       "c.csv:2:38: memory_gb_per_gpu '180.5'; expected a positive whole number in digits (no sign, point or space, 1 "
       "to 18446744073709551615) of GB per GPU"},
      {edited(",180,2,3,", ",180,0,3,"), 2, 42,
       "c.csv:2:42: gpus_per_lot '0'; expected a positive whole number in digits (no sign, point or space, 1 to "
       "18446744073709551615) of GPUs in one lot"},
      {edited(",180,2,3,", ",180,-2,3,"), 2, 42,
       "c.csv:2:42: gpus_per_lot '-2'; expected a positive whole number in digits (no sign, point or space, 1 to "
       "18446744073709551615) of GPUs in one lot"},
      {edited(",180,2,7,", ",180,1,7,"), 3, 42,
       "c.csv:3:42: gpus_per_lot '1' for b200; expected 2 as on line 2 (the same on a GPU's three rows)"},
      {edited(",180,2,30,", ",141,2,30,"), 4, 38,
       "c.csv:4:38: memory_gb_per_gpu '141' for b200; expected 180 as on line 2 (the same on a GPU's three rows)"},
      {edited(",2,7,", ",2,5,"), 3, 44, "c.csv:3:44: days '5'; expected 3, 7 or 30 (days of a package)"},
      {edited(",2,7,", ",2,07,"), 3, 44, "c.csv:3:44: days '07'; expected 3, 7 or 30 (days of a package)"},
      {edited(",2,30,", ",2,7,"), 4, 44,
       "c.csv:4:44: a second b200 row for 7 days; expected one row per GPU and duration (the first is on line 3)"},
      {edited("acme,USD,2026-09-24,b200,NVIDIA B200,180,2,30,720000\n", ""), 2, 21,
       "c.csv:2:21: b200 with rows for 3 and 7 days only; expected one row each for 3, 7 and 30 days per GPU"},
      {edited(",72000\n", ",0\n"), 2, 46,
       "c.csv:2:46: lot_price_cents '0'; expected a positive whole number in digits (no sign, point or space, 1 to "
       "18446744073709551615) of US cents"},
      {edited(",72000\n", ",+72000\n"), 2, 46,
       "c.csv:2:46: lot_price_cents '+72000'; expected a positive whole number in digits (no sign, point or space, 1 "
       "to 18446744073709551615) of US cents"},
      {edited(",72000\n", ",-72000\n"), 2, 46,
       "c.csv:2:46: lot_price_cents '-72000'; expected a positive whole number in digits (no sign, point or space, 1 "
       "to 18446744073709551615) of US cents"},
      {edited(",72000\n", ",720.00\n"), 2, 46,
       "c.csv:2:46: lot_price_cents '720.00'; expected a positive whole number in digits (no sign, point or space, 1 "
       "to 18446744073709551615) of US cents"},
      {edited(",72000\n", ", 72000\n"), 2, 46,
       "c.csv:2:46: lot_price_cents ' 72000'; expected a positive whole number in digits (no sign, point or space, 1 "
       "to 18446744073709551615) of US cents"},
      {edited(",72000\n", ",\n"), 2, 46,
       "c.csv:2:46: lot_price_cents ''; expected a positive whole number in digits (no sign, point or space, 1 to "
       "18446744073709551615) of US cents"},
      {edited(",72000\n", ",18446744073709551616\n"), 2, 46,
       "c.csv:2:46: lot_price_cents '18446744073709551616'; expected a price that fits 64 bits (at most "
       "18446744073709551615 cents)"},
  };
  for (const auto& c : cases) {
    check(c);
  }
}

BOOST_AUTO_TEST_CASE(csv_syntax_errors_are_reported_at_their_character) {
  const std::vector<refusal> cases{
      {edited("NVIDIA B200,180,2,3", "NVIDIA \"B200\",180,2,3"), 2, 33,
       "c.csv:2:33: a quote inside an unquoted field; expected a field either wholly in quotes (\"...\", with \"\" for a "
       "quote) or without any quote"},
      {edited("NVIDIA B200,180,2,3", "\"NVIDIA\" B200,180,2,3"), 2, 34,
       "c.csv:2:34: ' ' after a closing quote; expected a comma or a line end after the closing quote (\"\" for a quote "
       "inside quotes)"},
      {edited("NVIDIA B200,180,2,30", "\"NVIDIA B200,180,2,30"), 4, 26,
       "c.csv:4:26: a quoted field that is never closed; expected a closing quote before the end of the file"},
      {edited("168000\n", "168000\r"), 3, 52,
       "c.csv:3:52: a carriage return (CR) not followed by a line feed; expected LF or CRLF line ends"},
      {edited("NVIDIA B200,180,2,3", "NVIDIA\rB200,180,2,3"), 2, 32,
       "c.csv:2:32: a carriage return (CR) not followed by a line feed; expected LF or CRLF line ends"},
  };
  for (const auto& c : cases) {
    check(c);
  }
}

BOOST_AUTO_TEST_CASE(messages_show_odd_bytes_escaped_and_long_values_shortened) {
  const auto e = refused(edited(",72000\n", std::string(",7\x01\xFF") + std::string(80, '9') + "\n"));
  // The error keeps the field as read; its words escape and shorten it.
  BOOST_TEST((e.code == iteragpu::pricing::catalog_errc::price));
  BOOST_TEST((e.what == iteragpu::pricing::catalog_error_data{
                            iteragpu::pricing::catalog_field{8, std::string("7\x01\xFF") + std::string(80, '9')}}));
  const std::string found = iteragpu::pricing::found_words(e);
  BOOST_TEST(found.find("'7\\x01\\xFF9") != std::string::npos, found);
  BOOST_TEST(found.find("...'") != std::string::npos, found);
  BOOST_TEST(iteragpu::pricing::describe(e).find('\n') == std::string::npos);
  BOOST_TEST(iteragpu::pricing::describe(e).size() < 300U);
}

// Text a catalog keeps and prints again is valid UTF-8 without control or
// bidirectional control characters: invalid UTF-8 would make --json emit
// what JSON parsers reject, C1 controls and bidi overrides act on the
// terminal (U+202E can reverse how the price columns display). The message
// points at the offending character.
BOOST_AUTO_TEST_CASE(text_that_is_not_displayable_text_is_refused_where_it_is) {
  const std::string name_rule = "a name of valid UTF-8 without control or bidirectional control characters";
  // One case a row; a literal split in two ends a \x escape.
  // clang-format off
  const std::vector<refusal> cases{
      {edited("NVIDIA B200", "NVIDIA \xFF" "200"), 2, 33,
       "c.csv:2:33: a byte that is not valid UTF-8 in name 'NVIDIA \\xFF200'; expected " + name_rule},
      {edited("acme,USD,2026-09-24,b200,NVIDIA B200,180,2,3,", "ac\xFEme,USD,2026-09-24,b200,NVIDIA B200,180,2,3,"), 2,
       3,
       "c.csv:2:3: a byte that is not valid UTF-8 in provider 'ac\\xFEme'; expected a provider name of valid UTF-8 "
       "without control or bidirectional control characters"},
      {edited("NVIDIA B200", "NVIDIA\xC2\x9B" "B200"), 2, 32,
       "c.csv:2:32: a control character in name 'NVIDIA\\u009BB200'; expected " + name_rule},
      // The literals hold bidirectional controls on purpose: they are what is refused.
      {edited("NVIDIA B200", "NVIDIA \xE2\x80\xAE" "0028"), 2, 33,  // NOLINT(misc-misleading-bidirectional)
       "c.csv:2:33: a bidirectional control character in name 'NVIDIA \\u202E0028'; expected " + name_rule},
      {edited("NVIDIA B200", "B200 \xE2\x81\xA6x"), 2, 31,  // NOLINT(misc-misleading-bidirectional)
       "c.csv:2:31: a bidirectional control character in name 'B200 \\u2066x'; expected " + name_rule},
      // In quotes, the column counts the opening quote and the doubled quote.
      {edited("NVIDIA B200", "\"N\"\"V\xFF\""), 2, 31,
       "c.csv:2:31: a byte that is not valid UTF-8 in name 'N\"V\\xFF'; expected " + name_rule},
  };
  // clang-format on
  for (const auto& c : cases) {
    check(c);
  }
}

BOOST_AUTO_TEST_CASE(names_in_any_script_are_kept_as_they_are) {
  const std::string name = "GPU \xC3\x9C"
                           "berprüfung 東京";
  std::string text = one_gpu;
  for (auto at = text.find("NVIDIA B200"); at != std::string::npos; at = text.find("NVIDIA B200", at + name.size())) {
    text.replace(at, 11, name);
  }
  const auto c = parse_catalog(text, "c.csv").value();
  BOOST_TEST(c.offers()[0].name == name);
}

BOOST_AUTO_TEST_CASE(a_gpu_has_one_name) {
  const auto e = refused(edited("NVIDIA B200,180,2,7", "NVIDIA B200 SXM,180,2,7"));
  BOOST_TEST(iteragpu::pricing::describe(e) ==
             "c.csv:3:26: name 'NVIDIA B200 SXM' for b200; expected 'NVIDIA B200' as on line 2 (the same "
             "on a GPU's three rows)");
  // The error carries the figures its words are made of.
  BOOST_TEST((e.code == iteragpu::pricing::catalog_errc::other_name));
  const auto* other = e.what.get_if<iteragpu::pricing::other_text>();
  BOOST_TEST_REQUIRE(other != nullptr);
  BOOST_TEST(other->field.column == 4U);
  BOOST_TEST(other->field.found == "NVIDIA B200 SXM");
  BOOST_TEST(other->gpu == "b200");
  BOOST_TEST(other->agreed == "NVIDIA B200");
  BOOST_TEST(other->line == 2U);
  BOOST_TEST(iteragpu::pricing::field_of(e) == &other->field);
}

// Each refusal holds the data its code names, and nothing else.
BOOST_AUTO_TEST_CASE(a_refusal_carries_the_data_of_its_code_and_no_other) {
  namespace pr = iteragpu::pricing;
  using data = pr::catalog_error_data;
  // The 7-day row says 4 GPUs per lot where line 2 said 2.
  const auto lot = refused(edited("NVIDIA B200,180,2,7", "NVIDIA B200,180,4,7"));
  BOOST_TEST((lot.code == pr::catalog_errc::other_gpus_per_lot));
  BOOST_TEST((lot.what == data{pr::other_figure{pr::catalog_field{6, "4"}, "b200", 2, 2}}));
  // A second 3-day row in place of the 30-day one: the first is on line 2.
  const auto twice = refused(edited("180,2,30,720000", "180,2,3,720000"));
  BOOST_TEST((twice.what == data{pr::second_row{pr::catalog_field{7, "3"}, "b200", 2}}));
  // No 30-day row at all.
  const auto missing = refused(edited("acme,USD,2026-09-24,b200,NVIDIA B200,180,2,30,720000\n", ""));
  BOOST_TEST((missing.what == data{pr::missing_rows{"b200", {package_days{3}, package_days{7}}}}));
  BOOST_TEST(pr::field_of(missing) == nullptr);
  // A row of 8 fields; a quote followed by x; an inner empty line.
  BOOST_TEST((refused(edited(",72000\n", "\n")).what == data{pr::field_count{8}}));
  BOOST_TEST(
      (refused(edited("NVIDIA B200,180,2,3", "\"NVIDIA B200\"x,180,2,3")).what == data{pr::stray_character{"x"}}));
  BOOST_TEST(refused(edited("acme,USD,2026-09-24,b200,NVIDIA B200,180,2,7,",
                            "\nacme,USD,2026-09-24,b200,NVIDIA B200,180,2,7,"))
                 .what.holds<std::monostate>());
  // A byte that is not UTF-8 in the name: the field and the character's fault.
  const auto byte = refused(edited("NVIDIA B200,180,2,3", "NVIDIA \xFF,180,2,3"));
  BOOST_TEST((byte.what ==
              data{pr::bad_character{pr::catalog_field{4, "NVIDIA \xFF"}, iteragpu::display_text_errc::invalid_utf8}}));
}

// Empty lines are ignored at the end only; however many there are, they
// take no memory (the reader keeps one record at a time).
BOOST_AUTO_TEST_CASE(any_number_of_trailing_empty_lines_is_ignored_and_an_inner_one_is_refused) {
  BOOST_TEST(parse_catalog(one_gpu + std::string(1'000'000, '\n'), "c.csv").value().package_count() == 3U);
  const auto e = refused(
      edited("acme,USD,2026-09-24,b200,NVIDIA B200,180,2,7,", "\n\nacme,USD,2026-09-24,b200,NVIDIA B200,180,2,7,"));
  BOOST_TEST(iteragpu::pricing::describe(e) == "c.csv:3:1: an empty line; expected a row of 9 fields (" + header + ")");
}

BOOST_AUTO_TEST_CASE(several_gpus_are_listed_in_file_order) {
  const auto two = one_gpu + "acme,USD,2026-09-24,l4,NVIDIA L4,24,1,30,8000\n"
                             "acme,USD,2026-09-24,l4,NVIDIA L4,24,1,3,1000\n"
                             "acme,USD,2026-09-24,l4,NVIDIA L4,24,1,7,2000\n";
  const auto c = parse_catalog(two, "c.csv").value();
  BOOST_REQUIRE_EQUAL(c.offers().size(), 2U);
  BOOST_TEST(c.offers()[0].id == "b200");
  BOOST_TEST(c.offers()[1].id == "l4");
  // Rows of a GPU may come in any order of durations.
  BOOST_TEST(c.find("l4")->lines[0] == 6U);
  BOOST_TEST(c.find("l4")->lot_price(package_days{3})->cents() == 1000U);
  // Rows of one GPU need not be next to each other.
  const auto mixed = header + "\n"
                              "acme,USD,2026-09-24,l4,NVIDIA L4,24,1,3,1000\n"
                              "acme,USD,2026-09-24,b200,NVIDIA B200,180,2,3,72000\n"
                              "acme,USD,2026-09-24,l4,NVIDIA L4,24,1,7,2000\n"
                              "acme,USD,2026-09-24,b200,NVIDIA B200,180,2,7,168000\n"
                              "acme,USD,2026-09-24,b200,NVIDIA B200,180,2,30,720000\n";
  const auto e = refused(mixed);
  BOOST_TEST(iteragpu::pricing::describe(e) ==
             "c.csv:2:21: l4 with rows for 3 and 7 days only; expected one row each for 3, 7 and 30 days per GPU");
}

BOOST_AUTO_TEST_SUITE_END()

// A catalog of 100,002 rows (33,334 GPUs of three packages, 4.9 MB, well
// within the 16 MiB a catalog may have) is read whole. Its time is bounded
// generously by the CTest test that runs this suite alone (a few seconds
// allowed; bench/catalog_load measures it).
namespace {

// GPU ids g0 ... g33333, three rows each, the 30-day row first so that no
// GPU's rows arrive in the order of the durations.
std::string large_catalog(std::size_t gpus) {
  std::string text(iteragpu::pricing::catalog_header);
  text += '\n';
  for (std::size_t g = 0; g < gpus; ++g) {
    std::string row_start = "acme,USD,2026-09-24,g";
    row_start.append(std::to_string(g)).append(",GPU number ").append(std::to_string(g)).append(",80,1,");
    text.append(row_start)
        .append("30,9000\n")
        .append(row_start)
        .append("3,1000\n")
        .append(row_start)
        .append("7,2000\n");
  }
  return text;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(catalog_at_scale)

BOOST_AUTO_TEST_CASE(a_catalog_of_100002_rows_is_read_and_every_gpu_found) {
  const std::string text = large_catalog(33'334);
  BOOST_TEST(text.size() < std::size_t{16} << 20U);
  const auto parsed = iteragpu::pricing::parse_catalog(text, "large.csv");
  BOOST_REQUIRE_MESSAGE(parsed.has_value(), (parsed ? std::string() : iteragpu::pricing::describe(parsed.error())));
  BOOST_TEST(parsed->package_count() == 100'002U);
  BOOST_TEST(parsed->offers().size() == 33'334U);
  const auto* last = parsed->find("g33333");
  BOOST_REQUIRE(last != nullptr);
  BOOST_TEST(last->lines[0] == 100'002U);  // its 3-day row, the second of its three
  BOOST_TEST(last->lot_price(iteragpu::pricing::package_days{30})->cents() == 9000U);
  BOOST_TEST(parsed->find("g33334") == nullptr);
}

BOOST_AUTO_TEST_CASE(a_duplicate_near_the_end_of_a_large_catalog_is_found) {
  std::string text = large_catalog(33'334);
  text += "acme,USD,2026-09-24,g5,GPU number 5,80,1,7,2000\n";
  const auto parsed = iteragpu::pricing::parse_catalog(text, "large.csv");
  BOOST_REQUIRE(!parsed.has_value());
  BOOST_TEST(iteragpu::pricing::describe(parsed.error()) ==
             "large.csv:100004:42: a second g5 row for 7 days; expected one row per GPU and duration (the first is "
             "on line 19)");
}

BOOST_AUTO_TEST_SUITE_END()
