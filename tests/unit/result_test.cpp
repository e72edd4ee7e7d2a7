// iteragpu::result: a value or an error, compared and read as std::expected.
#include <iteragpu/result.hpp>

#include <string>
#include <utility>

#include <boost/test/unit_test.hpp>

namespace {

enum class problem { empty, odd };

// Half of an even number; an odd or zero one is refused with its reason.
iteragpu::result<int, problem> half(int n) {
  if (n == 0) {
    return iteragpu::unexpected{problem::empty};
  }
  if (n % 2 != 0) {
    return iteragpu::unexpected{problem::odd};
  }
  return n / 2;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(result_type)

BOOST_AUTO_TEST_CASE(a_value_or_an_error_and_nothing_else) {
  const auto ok = half(10);
  BOOST_TEST_REQUIRE(ok.has_value());
  BOOST_TEST(*ok == 5);
  BOOST_TEST(ok.value_or(-1) == 5);
  const auto bad = half(7);
  BOOST_TEST(!bad.has_value());
  BOOST_TEST((bad.error() == problem::odd));
  BOOST_TEST(bad.value_or(-1) == -1);
  BOOST_TEST((half(0).error() == problem::empty));
  // Equal results: same side and same content.
  BOOST_TEST((half(10) == half(10)));
  BOOST_TEST(!(half(10) == half(12)));
  BOOST_TEST(!(half(7) == half(0)));
}

BOOST_AUTO_TEST_CASE(a_result_holding_a_string_copies_and_moves_its_value) {
  iteragpu::result<std::string, problem> text = std::string("twelve bytes");
  const auto copy = text;
  BOOST_TEST(copy->size() == 12U);
  const auto moved = std::move(text);
  BOOST_TEST(*moved == "twelve bytes");
  const iteragpu::result<void, problem> nothing;
  BOOST_TEST(nothing.has_value());
  const iteragpu::result<void, problem> failed = iteragpu::unexpected{problem::odd};
  BOOST_TEST((failed.error() == problem::odd));
}

BOOST_AUTO_TEST_SUITE_END()
