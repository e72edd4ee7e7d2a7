#ifndef ITERAGPU_TESTS_FUZZ_INPUT_HPP
#define ITERAGPU_TESTS_FUZZ_INPUT_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// Shared by the harnesses: the fuzzer's bytes as text or as words, and a
// property check that stops the run (a crash libFuzzer records) when the
// code under test breaks a promise.
namespace fuzz {

[[nodiscard]] inline std::string as_text(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  return {bytes.begin(), bytes.end()};
}

// Command-line words separated by NUL bytes, the one byte an argv word
// cannot hold (newlines and every other byte can); two NULs in a row make an
// empty word.
[[nodiscard]] inline std::vector<std::string> as_words(std::string_view text) {
  std::vector<std::string> words;
  if (text.empty()) {
    return words;
  }
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = text.find('\0', start);
    words.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) {
      return words;
    }
    start = end + 1;
  }
}

inline void require(bool holds, const char* promise) {
  if (!holds) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg): no iostream in the abort path
    std::fprintf(stderr, "fuzz property broken: %s\n", promise);
    std::abort();
  }
}

[[nodiscard]] inline bool is_one_line(const std::string& text) {
  return !text.empty() && text.back() == '\n' && text.find('\n') == text.size() - 1;
}

}  // namespace fuzz

#endif  // ITERAGPU_TESTS_FUZZ_INPUT_HPP
