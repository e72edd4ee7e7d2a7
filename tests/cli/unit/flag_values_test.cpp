// A value that is one of the command's own flags is a forgotten value, not a
// value: every flag that takes a value, of every command, followed by
// another flag of that command, is refused with exit 2, one line naming
// both, nothing on stdout and nothing written.
#include <filesystem>
#include <functional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <cli/calcul_forfaits_command.hpp>
#include <cli/estimate_command.hpp>
#include <cli/gpu_commands.hpp>
#include <iteragpu/memory/gpu_runtime.hpp>

#include "run_command.hpp"

namespace {

namespace cli = iteragpu::cli;
namespace po = boost::program_options;

using runner = std::function<int(std::span<const std::string>, std::ostream&, std::ostream&)>;

struct command_under_test {
  const char* name;  // cppcheck-suppress unusedStructMember ; read in the test macros
  po::options_description description;
  runner run;
};

std::vector<command_under_test> commands() {
  const auto environment = [](std::span<const std::string> a, std::ostream& o, std::ostream& e) {
    iteragpu::memory::unavailable_runtime r{iteragpu::memory::built_without_libtorch};
    return cli::run_environment(r, a, o, e);
  };
  const auto measure = [](std::span<const std::string> a, std::ostream& o, std::ostream& e) {
    iteragpu::memory::unavailable_runtime r{iteragpu::memory::built_without_libtorch};
    return cli::run_measure(r, a, o, e);
  };
  const auto calcul_forfaits = [](std::span<const std::string> a, std::ostream& o, std::ostream& e) {
    const std::vector<std::filesystem::path> defaults{ITERAGPU_TEST_DATA_DIR "/tarifs-forfaits.csv"};
    return cli::run_calcul_forfaits(a, o, e, defaults);
  };
  return {{"estimate", cli::estimate_description(), cli::run_estimate},
          {"environment", cli::environment_description(), environment},
          {"measure", cli::measure_description(), measure},
          {"calcul_forfaits", cli::calcul_forfaits_description(), calcul_forfaits}};
}

std::vector<std::string> flags_of(const po::options_description& d, bool taking_a_value) {
  std::vector<std::string> flags;
  for (const auto& option : d.options()) {
    if ((option->semantic()->max_tokens() > 0) == taking_a_value) {
      flags.push_back("--" + option->long_name());
    }
  }
  return flags;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(flags_given_as_values)

BOOST_AUTO_TEST_CASE(every_value_flag_followed_by_another_flag_of_its_command_is_refused) {
  const auto folder = std::filesystem::temp_directory_path() / ("iteragpu-flags-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  std::filesystem::current_path(folder);
  std::size_t checked = 0;
  for (auto& c : commands()) {
    const auto value_flags = flags_of(c.description, true);
    BOOST_TEST(!value_flags.empty(), c.name);
    std::vector<std::string> all = value_flags;
    for (const auto& f : flags_of(c.description, false)) {
      all.push_back(f);
    }
    all.emplace_back("-h");
    for (const auto& flag : value_flags) {
      for (const auto& other : all) {
        if (other == flag || other == "-h" || other == "--help") {
          continue;  // a help flag anywhere asks for the help
        }
        for (const auto& next : {other, other + "=1"}) {
          const std::vector<std::string> args{flag, next};
          std::ostringstream out;
          std::ostringstream err;
          const int code = c.run(args, out, err);
          BOOST_TEST(code == 2, c.name << " " << flag << " " << next);
          BOOST_TEST(out.str().empty(), c.name << " " << flag << " " << next);
          BOOST_TEST(is_one_line(err.str()), err.str());
          // NOLINTNEXTLINE(performance-inefficient-string-concatenation)
          const std::string expected = flag + " needs a value; got the flag " + other;
          BOOST_TEST(err.str().find(expected) != std::string::npos, err.str());
          ++checked;
        }
      }
    }
  }
  // Nothing was written in the working folder (no file named after a flag).
  BOOST_TEST(std::filesystem::is_empty(folder));
  std::filesystem::current_path(std::filesystem::temp_directory_path());
  std::filesystem::remove_all(folder);
  BOOST_TEST(checked > 100U);
}

BOOST_AUTO_TEST_CASE(an_equals_sign_makes_a_flag_like_word_a_value_on_purpose) {
  const std::vector<std::string> args{"--output=--device", "--device", "cuda:0"};
  const auto values = cli::parse_arguments(cli::environment_description(), args);
  BOOST_TEST(values["output"].as<std::string>() == "--device");
  const std::vector<std::string> path_args{"--catalog", "./--list", "--list"};
  BOOST_TEST(cli::parse_calcul_forfaits_options(path_args).catalog_path.value() == "./--list");
}

BOOST_AUTO_TEST_CASE(the_messages_of_the_issue) {
  const auto r = run_command(
      [](std::span<const std::string> a, std::ostream& o, std::ostream& e) {
        iteragpu::memory::unavailable_runtime runtime{iteragpu::memory::built_without_libtorch};
        return cli::run_environment(runtime, a, o, e);
      },
      {"--output", "--device"});
  BOOST_TEST(r.err == "mesure_memoire environment: --output needs a value; got the flag --device\n");
  const auto e = run_command(cli::run_estimate, {"--parameters", "--bits", "16"});
  BOOST_TEST(e.err == "mesure_memoire estimate: --parameters needs a value; got the flag --bits\n");
  const std::vector<std::filesystem::path> defaults{ITERAGPU_TEST_DATA_DIR "/tarifs-forfaits.csv"};
  const auto q = run_command([&](std::span<const std::string> a, std::ostream& o,
                                 std::ostream& er) { return cli::run_calcul_forfaits(a, o, er, defaults); },
                             {"--gpu", "--json", "--days", "7", "--lots", "1"});
  BOOST_TEST(q.err == "calcul_forfaits: --gpu needs a value; got the flag --json\n");
}

BOOST_AUTO_TEST_SUITE_END()
