// The words of a new file that could not be written: the step, then the
// system's reason.
#include <iteragpu/report/new_file.hpp>

#include <cerrno>

#include <boost/test/unit_test.hpp>

namespace report = iteragpu::report;

BOOST_AUTO_TEST_SUITE(new_file_words)

BOOST_AUTO_TEST_CASE(steps_by_name_and_a_system_error_with_its_step) {
  BOOST_TEST(report::name_of(iteragpu::new_file_step::flushing) == "flushing to disk");
  BOOST_TEST(report::name_of(iteragpu::new_file_step::linking_into_place) == "linking into place");
  // ENOSPC is strerror's "No space left on device".
  BOOST_TEST(report::describe(
                 iteragpu::new_file_error{.code = iteragpu::new_file_errc::system_error,
                                          .file = "r.json",
                                          .what = iteragpu::refused_step{iteragpu::new_file_step::flushing, ENOSPC}}) ==
             "cannot write 'r.json': flushing to disk: No space left on device");
}

BOOST_AUTO_TEST_SUITE_END()
