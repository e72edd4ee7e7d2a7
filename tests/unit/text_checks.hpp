#ifndef ITERAGPU_TESTS_TEXT_CHECKS_HPP
#define ITERAGPU_TESTS_TEXT_CHECKS_HPP

// What the tests ask of a text a program or a renderer printed.
#include <cstddef>
#include <string>
#include <string_view>

// Whether `part` occurs in `text`.
inline bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

// How many times `what` occurs in `text`, overlapping occurrences included.
inline std::size_t occurrences(std::string_view text, std::string_view what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

#endif  // ITERAGPU_TESTS_TEXT_CHECKS_HPP
