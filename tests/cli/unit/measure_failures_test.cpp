// The programs put the flag that carried the input at fault before the
// library's words of a measurement that did not happen.
#include <cli/measure_failures.hpp>

#include <optional>
#include <sstream>

#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/input_spec.hpp>

namespace cli = iteragpu::cli;
namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(measure_failure_flags)

BOOST_AUTO_TEST_CASE(a_shape_too_large_names_the_shape_flags) {
  std::ostringstream err;
  const mem::synthetic_error large{mem::synthetic_errc::shape_too_large, "8 x 2^62 positions", std::nullopt};
  BOOST_TEST(cli::report_failure("mesure_memoire measure", large, err) == cli::exit_usage);
  BOOST_TEST(err.str() ==
             "mesure_memoire measure: --batch/--context/--width: 8 x 2^62 positions; expected smaller positive "
             "integers\n");
}

BOOST_AUTO_TEST_CASE(a_refusal_of_the_module_names_the_flag_that_carried_it) {
  mem::torchscript_run run;
  run.file_name = "model.pt";
  run.inputs.push_back(mem::parse_input_spec("8x512:int64").value());
  mem::torchscript_error wrong{mem::torchscript_errc::refused, {}, ""};
  wrong.error =
      mem::torchscript_run_error{mem::torchscript_run_errc::wrong_inputs, mem::phase_kind::model_load, "2 inputs"};
  BOOST_TEST(cli::flag_of(wrong, run) == "--input: ");
  wrong.error->code = mem::torchscript_run_errc::nothing_to_train;
  BOOST_TEST(cli::flag_of(wrong, run) == "--train: ");
  wrong.error->code = mem::torchscript_run_errc::not_loadable;
  BOOST_TEST(cli::flag_of(wrong, run) == "--torchscript: ");
  run.format = mem::model_format::aoti_package;
  BOOST_TEST(cli::flag_of(wrong, run) == "--aoti: ");
  // A phase that failed on the GPU is no flag's fault.
  wrong.error->code = mem::torchscript_run_errc::phase_failed;
  BOOST_TEST(cli::flag_of(wrong, run).empty());
  std::ostringstream err;
  wrong.error->code = mem::torchscript_run_errc::inputs_refused;
  BOOST_TEST(cli::report_failure("mesure_memoire measure", run, wrong, err) == cli::exit_usage);
  BOOST_TEST(err.str().starts_with("mesure_memoire measure: --input: forward of 'model.pt' refused the inputs"));
}

BOOST_AUTO_TEST_SUITE_END()
