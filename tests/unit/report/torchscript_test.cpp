// A TorchScript measurement's inputs in words and as JSON: each spec as it
// was written, in order.
#include <iteragpu/report/torchscript.hpp>

#include <vector>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

namespace mem = iteragpu::memory;

BOOST_AUTO_TEST_SUITE(torchscript_words)

BOOST_AUTO_TEST_CASE(inputs_are_listed_as_written) {
  const std::vector<mem::input_spec> inputs{mem::parse_input_spec("8x512:int64").value(),
                                            mem::parse_input_spec("8x512:bfloat16").value()};
  BOOST_TEST(iteragpu::report::inputs_text(inputs) == "8x512:int64 8x512:bfloat16");
  BOOST_TEST(iteragpu::report::inputs_text({}).empty());
  mem::torchscript_run run;
  run.inputs = inputs;
  run.file_name = "model.pt";
  const auto o = iteragpu::report::workload_json(run);
  const auto& listed = o.at("inputs").as_array();
  BOOST_TEST_REQUIRE(listed.size() == 2U);
  BOOST_TEST(listed.at(1).as_string() == "8x512:bfloat16");
}

BOOST_AUTO_TEST_SUITE_END()
