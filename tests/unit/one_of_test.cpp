// iteragpu::one_of: one value of one of a few types, the others unreadable.
#include <iteragpu/one_of.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

#include <boost/test/unit_test.hpp>

namespace {

struct file_name {
  std::string text;
  friend bool operator==(const file_name&, const file_name&) = default;
};

struct place {
  std::uint64_t line{};
  std::uint64_t column{};
  friend bool operator==(const place&, const place&) = default;
};

using where = iteragpu::one_of<std::monostate, file_name, place>;

// Alternatives are named by their type, once each, and must be default-constructible.
struct no_default {
  explicit no_default(int) {}
};
static_assert(where::alternative<place>);
static_assert(!where::alternative<int>);
static_assert(!std::is_constructible_v<where, int>);
static_assert(!iteragpu::one_of<int, place, int>::alternative<int>);
template <class... Ts>
concept a_one_of = requires { typename iteragpu::one_of<Ts...>; };
static_assert(!a_one_of<no_default>);
static_assert(!a_one_of<>);

// Usable in a constant expression, so its reads are checked at compile time.
constexpr bool line_read_back() {
  iteragpu::one_of<std::monostate, place> at = place{3, 7};
  const auto* p = at.get_if<place>();
  return at.index() == 1 && p != nullptr && p->line == 3 && p->column == 7 && at.get_if<std::monostate>() == nullptr;
}
static_assert(line_read_back());

}  // namespace

BOOST_AUTO_TEST_SUITE(one_of_type)

BOOST_AUTO_TEST_CASE(holds_its_first_alternative_empty_by_default) {
  const where nothing;
  BOOST_TEST(nothing.index() == 0U);
  BOOST_TEST(nothing.holds<std::monostate>());
  BOOST_TEST(!nothing.holds<file_name>());
  BOOST_TEST(nothing.get_if<file_name>() == nullptr);
  BOOST_TEST(nothing.get_if<place>() == nullptr);
}

BOOST_AUTO_TEST_CASE(only_the_alternative_held_can_be_read) {
  where w = file_name{"a.csv"};
  BOOST_TEST(w.index() == 1U);
  BOOST_TEST_REQUIRE(w.get_if<file_name>() != nullptr);
  BOOST_TEST(w.get_if<file_name>()->text == "a.csv");
  BOOST_TEST(w.get_if<place>() == nullptr);
  BOOST_TEST(w.get_if<std::monostate>() == nullptr);
  // Read and changed in place through the pointer.
  w.get_if<file_name>()->text = "b.csv";
  BOOST_TEST(w.get_if<file_name>()->text == "b.csv");
}

BOOST_AUTO_TEST_CASE(assigning_empties_what_was_held) {
  where w = file_name{"a.csv"};
  BOOST_TEST(w.holds<file_name>());
  w = place{2, 5};
  BOOST_TEST(w.index() == 2U);
  BOOST_TEST(w.get_if<file_name>() == nullptr);
  BOOST_TEST_REQUIRE(w.get_if<place>() != nullptr);
  BOOST_TEST(w.get_if<place>()->column == 5U);
  // Back to a file name: the old one is not there any more.
  w = file_name{};
  BOOST_TEST(w.get_if<file_name>()->text.empty());
  // So a value that went through other alternatives equals one built directly.
  where direct = place{2, 5};
  where travelled = file_name{"x"};
  BOOST_TEST(!(travelled == direct));
  travelled = place{2, 5};
  BOOST_TEST((travelled == direct));
}

BOOST_AUTO_TEST_CASE(equal_for_the_same_alternative_with_equal_values) {
  BOOST_TEST((where{place{1, 2}} == where{place{1, 2}}));
  BOOST_TEST(!(where{place{1, 2}} == where{place{1, 3}}));
  BOOST_TEST(!(where{place{}} == where{file_name{}}));
  BOOST_TEST(!(where{} == where{file_name{}}));
  BOOST_TEST((where{} == where{std::monostate{}}));
}

BOOST_AUTO_TEST_CASE(copied_and_moved_with_its_alternative) {
  const where original = file_name{"kept.json"};
  where copy = original;
  BOOST_TEST((copy == original));
  where moved = std::move(copy);
  BOOST_TEST(moved.holds<file_name>());
  BOOST_TEST(moved.get_if<file_name>()->text == "kept.json");
  where target = place{9, 9};
  BOOST_TEST(target.get_if<place>()->line == 9U);
  target = original;
  BOOST_TEST((target == original));
  BOOST_TEST(target.get_if<place>() == nullptr);
}

BOOST_AUTO_TEST_CASE(data_of_reads_the_alternative_held_or_an_empty_one) {
  const where at = place{4, 7};
  BOOST_TEST(iteragpu::data_of<place>(at).column == 7U);
  // Another alternative is held: the words read an empty one, never a side that is not there.
  BOOST_TEST(iteragpu::data_of<file_name>(at).text.empty());
}

BOOST_AUTO_TEST_SUITE_END()
