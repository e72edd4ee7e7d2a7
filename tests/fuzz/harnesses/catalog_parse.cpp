// parse_catalog on any text: it returns a catalog or an error whose message
// is one line of displayable text (valid UTF-8, no control or bidirectional
// control character, whatever bytes the input held) naming the file, a line
// and a column; it never throws. An accepted catalog is not empty, each of
// its GPUs is found again by its id with a price for every duration, and its
// texts follow the display rule.
#include <cstddef>
#include <cstdint>
#include <string>

#include <iteragpu/pricing/catalog.hpp>
#include <iteragpu/pricing/catalog_errors.hpp>
#include <iteragpu/text.hpp>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::as_text(data, size);
  const auto parsed = iteragpu::pricing::parse_catalog(text, "fuzz.csv");
  if (!parsed) {
    const std::string message = iteragpu::pricing::describe(parsed.error());
    fuzz::require(message.starts_with("fuzz.csv:"), "the message starts with the file name");
    fuzz::require(iteragpu::check_display_text(message).has_value(),
                  "the message is one line of displayable UTF-8 (no control, no bidirectional control)");
    fuzz::require(parsed.error().position.line >= 1 && parsed.error().position.column >= 1,
                  "the error has a line and a column");
    return 0;
  }
  const auto& prices = *parsed;
  fuzz::require(!prices.offers().empty(), "an accepted catalog has GPUs");
  fuzz::require(iteragpu::check_display_text(prices.snapshot().provider).has_value(),
                "the provider follows the display rule");
  for (const auto& offer : prices.offers()) {
    fuzz::require(prices.find(offer.id) == &offer, "every GPU is found by its id");
    fuzz::require(iteragpu::check_display_text(offer.name).has_value(), "every name follows the display rule");
    for (const auto days : iteragpu::pricing::package_durations) {
      fuzz::require(offer.lot_price(days).has_value() && offer.lot_price(days)->cents() > 0,
                    "every GPU has a positive price for every duration");
    }
  }
  return 0;
}
