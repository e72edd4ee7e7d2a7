// parse_catalog on any text: it returns a catalog or an error whose message
// is one line naming the file, a line and a column; it never throws. An
// accepted catalog is not empty, and each of its rows can be found again
// by its GPU and duration.
#include <cstddef>
#include <cstdint>
#include <string>

#include <iteragpu/catalog.hpp>

#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = fuzz::as_text(data, size);
  const auto parsed = iteragpu::parse_catalog(text, "fuzz.csv");
  if (!parsed) {
    const std::string message = parsed.error().message();
    fuzz::require(message.starts_with("fuzz.csv:"), "the message starts with the file name");
    fuzz::require(message.find('\n') == std::string::npos && message.find('\r') == std::string::npos,
                  "the message is one line");
    fuzz::require(parsed.error().position.line >= 1 && parsed.error().position.column >= 1,
                  "the error has a line and a column");
    return 0;
  }
  const auto& prices = parsed.value();
  fuzz::require(!prices.rows.empty(), "an accepted catalog has rows");
  for (const auto& row : prices.rows) {
    fuzz::require(prices.find(row.gpu, row.days) != nullptr, "every row is found by GPU and duration");
  }
  return 0;
}
