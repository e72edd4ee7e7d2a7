// ITERAGPU_INLINE: `inline` in header-only use (this test executable), empty
// where the bodies are compiled once (ITERAGPU_SEPARATE_COMPILATION).
#include <iteragpu/config.hpp>

#include <string_view>

#include <boost/test/unit_test.hpp>

// Stringizing a macro's expansion needs the preprocessor.
#define ITERAGPU_TEST_TEXT_OF(...) #__VA_ARGS__                         // NOLINT(cppcoreguidelines-macro-usage)
#define ITERAGPU_TEST_EXPANDED(...) ITERAGPU_TEST_TEXT_OF(__VA_ARGS__)  // NOLINT(cppcoreguidelines-macro-usage)

BOOST_AUTO_TEST_SUITE(config)

BOOST_AUTO_TEST_CASE(iteragpu_inline_follows_the_compilation_mode) {
  constexpr std::string_view expansion = ITERAGPU_TEST_EXPANDED(ITERAGPU_INLINE);
#ifdef ITERAGPU_SEPARATE_COMPILATION
  BOOST_TEST(expansion.empty());
#else
  BOOST_TEST(expansion == "inline");
#endif
}

BOOST_AUTO_TEST_SUITE_END()
