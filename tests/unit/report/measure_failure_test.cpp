// The one line a measurement that did not finish prints, after the
// command's name: the input or phase at fault, the runtime's words escaped,
// and that no file was written.
#include <iteragpu/report/measure_failure.hpp>

#include <initializer_list>
#include <optional>
#include <string>

#include <boost/test/unit_test.hpp>

#include <iteragpu/memory/input_spec.hpp>

namespace report = iteragpu::report;
using iteragpu::memory::phase_kind;

namespace {

iteragpu::memory::torchscript_run run_with(std::initializer_list<const char*> inputs) {
  iteragpu::memory::torchscript_run run;
  run.file_name = "model.pt";
  for (const char* text : inputs) {
    run.inputs.push_back(iteragpu::memory::parse_input_spec(text).value());
  }
  return run;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(measure_failure_words)

BOOST_AUTO_TEST_CASE(a_synthetic_failure_names_what_went_wrong_or_the_phase_and_no_flag) {
  const iteragpu::memory::synthetic_error large{iteragpu::memory::synthetic_errc::shape_too_large, "8 x 2^62 positions",
                                                std::nullopt};
  BOOST_TEST(report::describe(large) == "8 x 2^62 positions; expected smaller positive integers");
  const iteragpu::memory::synthetic_error absent{iteragpu::memory::synthetic_errc::device_unavailable, "no GPU runtime",
                                                 std::nullopt};
  BOOST_TEST(report::describe(absent) == "no GPU runtime; nothing was measured and no file was written");
  const iteragpu::memory::synthetic_error failed{iteragpu::memory::synthetic_errc::phase_failed, "out of\nmemory",
                                                 phase_kind::cold_forward};
  BOOST_TEST(report::describe(failed) == "failed during phase cold_forward: out of\\x0Amemory; no file was written");
}

BOOST_AUTO_TEST_CASE(a_refused_module_names_the_file_and_the_inputs_given) {
  iteragpu::memory::torchscript_error wrong{iteragpu::memory::torchscript_errc::refused, {}, ""};
  wrong.error = iteragpu::memory::torchscript_run_error{iteragpu::memory::torchscript_run_errc::wrong_inputs,
                                                        phase_kind::model_load, "2 inputs"};
  BOOST_TEST(report::describe(wrong, run_with({"8x512:int64"})) ==
             "forward of 'model.pt' expects 2 inputs; given 1 input (8x512:int64); no file was written");
  BOOST_TEST(report::describe(wrong, run_with({"8:int64", "4x2:float32"})) ==
             "forward of 'model.pt' expects 2 inputs; given 2 inputs (8:int64 4x2:float32); no file was "
             "written");
  iteragpu::memory::torchscript_error train{iteragpu::memory::torchscript_errc::refused, {}, ""};
  train.error = iteragpu::memory::torchscript_run_error{iteragpu::memory::torchscript_run_errc::nothing_to_train,
                                                        phase_kind::model_load, "no parameter requires a gradient"};
  BOOST_TEST(report::describe(train, run_with({})) ==
             "no parameter requires a gradient; expected a module with trainable parameters; no file was "
             "written");
}

BOOST_AUTO_TEST_SUITE_END()
