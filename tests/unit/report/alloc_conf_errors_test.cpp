// The words of a PYTORCH_CUDA_ALLOC_CONF that cannot be read: the key and
// the value quoted, and what is accepted.
#include <iteragpu/report/alloc_conf_errors.hpp>

#include <boost/test/unit_test.hpp>

namespace report = iteragpu::report;
namespace pred = iteragpu::memory::prediction;

BOOST_AUTO_TEST_SUITE(alloc_conf_error_words)

BOOST_AUTO_TEST_CASE(the_key_and_value_are_quoted_and_nothing_is_named) {
  BOOST_TEST(report::describe(pred::alloc_conf_error{pred::alloc_conf_errc::missing_value, "max_split_size_mb", ""}) ==
             "PYTORCH_CUDA_ALLOC_CONF: 'max_split_size_mb' has no value (found nothing)");
  BOOST_TEST(
      report::describe(pred::alloc_conf_error{pred::alloc_conf_errc::not_a_number, "max_split_size_mb", "big"}) ==
      "PYTORCH_CUDA_ALLOC_CONF: 'max_split_size_mb' takes a number, not 'big' (decimal digits; a fraction such "
      "as 0.8 for garbage_collection_threshold)");
  // Without a key, the item is "the text".
  BOOST_TEST(report::describe(pred::alloc_conf_error{pred::alloc_conf_errc::missing_value, "", ""}) ==
             "PYTORCH_CUDA_ALLOC_CONF: the text has no value (found nothing)");
}

BOOST_AUTO_TEST_SUITE_END()
