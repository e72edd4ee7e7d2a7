// The sweep's lists, its plan in a stable order, and points.tsv read back.
#include <iteragpu/sweep/points.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <iteragpu/report/sweep_errors.hpp>
#include <iteragpu/sweep/lists.hpp>

namespace sw = iteragpu::sweep;
using iteragpu::report::words_of;
using iteragpu::memory::element_type;

namespace {

std::vector<std::uint64_t> sizes(std::string_view text) {
  const auto parsed = sw::parse_size_list(text);
  BOOST_TEST_REQUIRE(parsed.has_value(),
                     "refused: " << (parsed.has_value() ? std::string() : words_of(parsed.error())));
  return *parsed;
}

std::string refusal(std::string_view text) {
  const auto parsed = sw::parse_size_list(text);
  BOOST_TEST_REQUIRE(!parsed.has_value());
  return words_of(parsed.error());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sweep_plan)

BOOST_AUTO_TEST_CASE(a_doubling_range_lists_every_power_of_two_step_from_start_to_end) {
  // 64 x 2^k for k = 0..7 ends on 8192.
  BOOST_TEST(sizes("64..8192") == (std::vector<std::uint64_t>{64, 128, 256, 512, 1024, 2048, 4096, 8192}),
             boost::test_tools::per_element());
  BOOST_TEST(sizes("8..512") == (std::vector<std::uint64_t>{8, 16, 32, 64, 128, 256, 512}),
             boost::test_tools::per_element());
  // A range of one value, and a start that is not a power of two: 3, 6, 12.
  BOOST_TEST(sizes("5..5") == (std::vector<std::uint64_t>{5}), boost::test_tools::per_element());
  BOOST_TEST(sizes("3..12") == (std::vector<std::uint64_t>{3, 6, 12}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(values_and_ranges_mix_and_come_out_smallest_first) {
  BOOST_TEST(sizes("4096") == (std::vector<std::uint64_t>{4096}), boost::test_tools::per_element());
  BOOST_TEST(sizes("24,1,3") == (std::vector<std::uint64_t>{1, 3, 24}), boost::test_tools::per_element());
  BOOST_TEST(sizes("1000,16..64,7") == (std::vector<std::uint64_t>{7, 16, 32, 64, 1000}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_largest_range_that_fits_64_bits_is_accepted) {
  // 2^62..2^63: two values; the doubling past 2^63 is never formed.
  const auto v = sizes("4611686018427387904..9223372036854775808");
  BOOST_TEST(v == (std::vector<std::uint64_t>{4611686018427387904ULL, 9223372036854775808ULL}),
             boost::test_tools::per_element());
  // 1..2^63 is 64 values.
  BOOST_TEST(sizes("1..9223372036854775808").size() == 64U);
}

BOOST_AUTO_TEST_CASE(every_malformed_list_is_refused_with_the_item_at_fault) {
  BOOST_TEST(refusal("") == "an empty list");
  BOOST_TEST(refusal("8,,16") == "'8,,16' has an empty item");
  BOOST_TEST(refusal("8,") == "'8,' has an empty item");
  BOOST_TEST(refusal(",8") == "',8' has an empty item");
  BOOST_TEST(refusal("8x") == "'8x' is not a positive integer in digits");
  BOOST_TEST(refusal("-8") == "'-8' is not a positive integer in digits");
  BOOST_TEST(refusal(" 8") == "' 8' is not a positive integer in digits");
  BOOST_TEST(refusal("0") == "'0' is not positive");
  BOOST_TEST(refusal("0..8") == "'0..8': '0' is not positive");
  BOOST_TEST(refusal("18446744073709551616") == "'18446744073709551616' does not fit in 64 bits");
  BOOST_TEST(refusal("..8") == "'..8': a range with a missing end");
  BOOST_TEST(refusal("8..") == "'8..': a range with a missing end");
  BOOST_TEST(refusal("8...16") == "'8...16': '.16' is not a positive integer in digits");
  BOOST_TEST(refusal("512..8") == "'512..8': the start is larger than the end");
  // 64, 128 and then 256 > 100: the range must end on its end.
  BOOST_TEST(refusal("64..100") == "'64..100': 100 is not 64 times a power of two");
  // 2^63 + 1 is odd: 1..it would double past 64 bits before reaching it.
  BOOST_TEST(refusal("1..9223372036854775809") ==
             "'1..9223372036854775809': 9223372036854775809 is not 1 times a power of two");
  BOOST_TEST(refusal("16,8..32") == "16 is given twice");
  BOOST_TEST(refusal("4,4") == "4 is given twice");
  BOOST_TEST(refusal("a\nb") == "'a\\x0Ab' is not a positive integer in digits");
}

BOOST_AUTO_TEST_CASE(dtypes_come_fewest_bytes_first_and_once_each) {
  const auto d = sw::parse_dtype_list("float32,bfloat16,float16");
  BOOST_TEST_REQUIRE(d.has_value());
  // bfloat16 and float16 (2 bytes) keep their order, float32 (4) goes last.
  BOOST_TEST((*d == std::vector<element_type>{element_type::bfloat16, element_type::float16, element_type::float32}));
  BOOST_TEST(words_of(sw::parse_dtype_list("half").error()) == "'half' is not float32, float16 or bfloat16");
  BOOST_TEST(words_of(sw::parse_dtype_list("float32,float32").error()) == "'float32' is given twice");
  BOOST_TEST(words_of(sw::parse_dtype_list("").error()) == "an empty list");
  BOOST_TEST(words_of(sw::parse_dtype_list("float16,").error()) == "'float16,' has an empty item");
}

BOOST_AUTO_TEST_CASE(repeats_are_a_positive_count_or_auto) {
  BOOST_TEST(sw::parse_repeats("auto")->text() == "auto");
  BOOST_TEST(!sw::parse_repeats("auto")->count.has_value());
  BOOST_TEST(*sw::parse_repeats("7")->count == 7U);
  BOOST_TEST(words_of(sw::parse_repeats("0").error()) == "'0' is not a positive integer up to 10000, or auto");
  BOOST_TEST(words_of(sw::parse_repeats("Auto").error()) == "'Auto' is not a positive integer up to 10000, or auto");
}

BOOST_AUTO_TEST_CASE(repeats_stop_at_the_pass_limit) {
  BOOST_TEST(iteragpu::memory::pass_limit == 10'000U);
  BOOST_TEST(*sw::parse_repeats("10000")->count == 10'000U);
  BOOST_TEST(words_of(sw::parse_repeats("10001").error()) == "'10001' is not a positive integer up to 10000, or auto");
  BOOST_TEST(words_of(sw::parse_repeats("18446744073709551615").error()) ==
             "'18446744073709551615' is not a positive integer up to 10000, or auto");
}

BOOST_AUTO_TEST_CASE(the_plan_is_the_product_with_batch_innermost_and_dtype_outermost) {
  sw::sweep_axes axes;
  axes.batch = {1, 2};
  axes.context = {16};
  axes.width = {64, 128};
  axes.dtype = {element_type::float16, element_type::float32};
  axes.warmup = 3;
  axes.repeats = sw::repeat_setting{5};
  const auto plan = sw::make_plan(axes);
  BOOST_TEST_REQUIRE(plan.has_value());
  BOOST_TEST_REQUIRE(plan->size() == 8U);
  // (dtype, width, batch) in order: f16 64 1, f16 64 2, f16 128 1, f16 128 2, f32 ...
  const std::vector<std::uint64_t> batch{1, 2, 1, 2, 1, 2, 1, 2};
  const std::vector<std::uint64_t> width{64, 64, 128, 128, 64, 64, 128, 128};
  for (std::size_t i = 0; i < plan->size(); ++i) {
    const auto& p = (*plan)[i];
    BOOST_TEST(p.index == i);
    BOOST_TEST(p.shape.batch == batch[i]);
    BOOST_TEST(p.shape.context == 16U);
    BOOST_TEST(p.shape.width == width[i]);
    BOOST_TEST((p.dtype == (i < 4 ? element_type::float16 : element_type::float32)));
    BOOST_TEST(p.warmup == 3U);
    BOOST_TEST(*p.repeats.count == 5U);
  }
}

BOOST_AUTO_TEST_CASE(every_point_comes_after_the_points_no_larger_than_it) {
  sw::sweep_axes axes;
  axes.batch = {1, 4, 16};
  axes.context = {2, 8};
  axes.width = {32, 64};
  axes.dtype = {element_type::bfloat16, element_type::float32};
  const auto plan = sw::make_plan(axes);
  BOOST_TEST_REQUIRE(plan.has_value());
  for (const auto& later : *plan) {
    for (const auto& earlier : *plan) {
      if (later.index != earlier.index && later.shape.batch >= earlier.shape.batch &&
          later.shape.context >= earlier.shape.context && later.shape.width >= earlier.shape.width &&
          iteragpu::memory::bytes_per_element(later.dtype) >= iteragpu::memory::bytes_per_element(earlier.dtype)) {
        BOOST_TEST(later.index > earlier.index);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_plan_of_more_than_100000_points_is_refused) {
  sw::sweep_axes axes;
  axes.batch.assign(1000, 1);
  axes.context.assign(100, 1);
  BOOST_TEST(sw::make_plan(axes).has_value());  // exactly 100 000
  axes.width = {1, 2};
  BOOST_TEST(words_of(sw::make_plan(axes).error()) == "the lists make more than 100000 points; expected 1 to 100000");
}

BOOST_AUTO_TEST_CASE(file_names_take_four_digits_or_as_many_as_the_last_index_needs) {
  BOOST_TEST(sw::record_name(7, 20) == "point-0007.json");
  BOOST_TEST(sw::measurement_name(7, 20) == "point-0007.measurement.json");
  BOOST_TEST(sw::prediction_name(0, 1) == "point-0000.prediction.json");
  BOOST_TEST(sw::record_name(9999, 10000) == "point-9999.json");
  BOOST_TEST(sw::record_name(42, 10001) == "point-00042.json");
}

BOOST_AUTO_TEST_CASE(points_tsv_reads_back_as_the_same_plan) {
  sw::sweep_axes axes;
  axes.batch = {8, 16};
  axes.width = {1024};
  axes.dtype = {element_type::bfloat16};
  axes.repeats = sw::repeat_setting{};
  const auto plan = sw::make_plan(axes);
  BOOST_TEST_REQUIRE(plan.has_value());
  const std::string text = sw::points_tsv(*plan);
  BOOST_TEST(text == "index\tbatch\tcontext\twidth\tdtype\twarmup\trepeats\tresult\n"
                     "0\t8\t16\t1024\tbfloat16\t1\tauto\tpoint-0000.json\n"
                     "1\t16\t16\t1024\tbfloat16\t1\tauto\tpoint-0001.json\n");
  const auto back = sw::parse_points_tsv(text);
  BOOST_TEST_REQUIRE(back.has_value());
  BOOST_TEST((*back == *plan));
}

BOOST_AUTO_TEST_CASE(a_damaged_points_tsv_is_refused_with_its_line) {
  const std::string header = "index\tbatch\tcontext\twidth\tdtype\twarmup\trepeats\tresult\n";
  const auto error = [](const std::string& text) {
    const auto parsed = sw::parse_points_tsv(text);
    BOOST_TEST_REQUIRE(!parsed.has_value());
    return words_of(parsed.error());
  };
  BOOST_TEST(
      error("") ==
      "line 1 is not the header 'index\\x09batch\\x09context\\x09width\\x09dtype\\x09warmup\\x09repeats\\x09result'");
  BOOST_TEST(error(header) == "the plan has no point");
  BOOST_TEST(error(header + "0\t8\t16\t64\tfloat32\t1\t2\tpoint-0000.json") ==
             "line 2 has no line end; the file is cut short");
  BOOST_TEST(error(header + "1\t8\t16\t64\tfloat32\t1\t2\tpoint-0000.json\n") == "line 2: the index '1' is not 0");
  BOOST_TEST(error(header + "0\t8\t16\t64\tfloat32\t1\t2\n") == "line 2: expected 8 tab-separated fields, found 7");
  BOOST_TEST(
      error(header + "0\t0\t16\t64\tfloat32\t1\t2\tpoint-0000.json\n").starts_with("line 2: a value is not valid"));
  BOOST_TEST(error(header + "0\t8\t16\t64\thalf\t1\t2\tpoint-0000.json\n").starts_with("line 2: a value is not valid"));
  BOOST_TEST(error(header + "0\t8\t16\t64\tfloat32\t1\t2\t../etc/passwd\n") ==
             "line 2: the result '../etc/passwd' is not 'point-0000.json'");
  BOOST_TEST(
      error(header + "0\t8\t16\t64\tfloat32\t1\t2\tpoint-0000.json\n1\t8\t16\t64\tfloat32\t0\t2\tpoint-0001.json\n") ==
      "line 3: warmup and repeats differ from line 2's; a plan has one of each");
  // Counts of passes past the limit every command has.
  BOOST_TEST(error(header + "0\t8\t16\t64\tfloat32\t10001\t2\tpoint-0000.json\n") ==
             "line 2: a value is not valid (batch, context and width positive integers, dtype float32, float16 or "
             "bfloat16, warmup 0 to 10000, repeats 1 to 10000 or auto)");
  BOOST_TEST(error(header + "0\t8\t16\t64\tfloat32\t1\t18446744073709551615\tpoint-0000.json\n")
                 .starts_with("line 2: a value is not valid"));
  BOOST_TEST(sw::parse_points_tsv(header + "0\t8\t16\t64\tfloat32\t10000\t10000\tpoint-0000.json\n").has_value());
}

BOOST_AUTO_TEST_CASE(a_points_tsv_of_more_than_100000_points_is_refused_as_the_command_line_is) {
  sw::sweep_axes axes;
  axes.batch.resize(1000);
  axes.context.resize(100);
  for (std::size_t i = 0; i < 1000; ++i) {
    axes.batch[i] = i + 1;
  }
  for (std::size_t i = 0; i < 100; ++i) {
    axes.context[i] = i + 1;
  }
  const auto plan = sw::make_plan(axes);
  BOOST_TEST_REQUIRE(plan.has_value());
  BOOST_TEST_REQUIRE(plan->size() == sw::max_points);
  std::string text = sw::points_tsv(*plan);
  BOOST_TEST(sw::parse_points_tsv(text).has_value());
  // One line more, numbered and named as the next point of a larger plan
  // (whose names take six digits: the names of every line are rewritten).
  std::vector<sw::sweep_point> larger = *plan;
  larger.push_back(sw::sweep_point{sw::max_points, iteragpu::memory::synthetic_shape{1, 1, 1}, element_type::float32, 1,
                                   sw::repeat_setting{2}});
  text = sw::points_tsv(larger);
  BOOST_TEST(words_of(sw::parse_points_tsv(text).error()) == "the plan has 100001 points; expected 1 to 100000");
}

BOOST_AUTO_TEST_CASE(messages_name_a_point_by_its_shape_and_type) {
  const sw::sweep_point p{3, {8, 4096, 8192}, element_type::bfloat16, 1, sw::repeat_setting{}};
  BOOST_TEST(sw::describe(p) == "batch 8, context 4096, width 8192, bfloat16");
}

BOOST_AUTO_TEST_CASE(a_refused_list_carries_the_item_and_the_range_it_is_in) {
  const auto range = sw::parse_size_list("4,8..12");
  BOOST_TEST_REQUIRE(!range.has_value());
  BOOST_TEST((range.error() == sw::list_error{sw::list_errc::not_doubling, "", "8..12", 8, 12}));
  const auto end = sw::parse_size_list("8..x");
  BOOST_TEST_REQUIRE(!end.has_value());
  BOOST_TEST((end.error() == sw::list_error{sw::list_errc::not_a_number, "x", "8..x", 0, 0}));
  const auto twice = sw::parse_dtype_list("bfloat16,bfloat16");
  BOOST_TEST_REQUIRE(!twice.has_value());
  BOOST_TEST((twice.error() == sw::list_error{sw::list_errc::dtype_given_twice, "bfloat16", "", 0, 0}));
}

BOOST_AUTO_TEST_CASE(a_refused_points_tsv_carries_its_line_and_the_field_at_fault) {
  const std::string header = "index\tbatch\tcontext\twidth\tdtype\twarmup\trepeats\tresult\n";
  const auto bad_index = sw::parse_points_tsv(header + "3\t8\t16\t64\tfloat32\t1\t2\tpoint-0000.json\n");
  BOOST_TEST_REQUIRE(!bad_index.has_value());
  BOOST_TEST((bad_index.error() == sw::points_file_error{sw::points_file_errc::bad_index, 2, 0, "3", ""}));
  BOOST_TEST((sw::make_plan(sw::sweep_axes{{}, {16}, {64}, {element_type::float32}, 1, {}}).error() ==
              sw::plan_errc::no_point));
}

BOOST_AUTO_TEST_SUITE_END()
