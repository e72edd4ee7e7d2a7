// Every flag of every command appears in that command's --help, and the
// completion script offers it: the help and the completion are written from
// the same option descriptions the parser uses.
#include <filesystem>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <cli/programs.hpp>

#include "run_command.hpp"

namespace cli = iteragpu::cli;

BOOST_AUTO_TEST_SUITE(help_and_completion)

BOOST_AUTO_TEST_CASE(every_flag_of_every_command_is_in_its_help_and_its_completion) {
  std::vector<cli::command_flags> all = cli::mesure_memoire_commands();
  const auto forfaits = cli::calcul_forfaits_commands();
  all.insert(all.end(), forfaits.begin(), forfaits.end());
  const std::string mesure_script = cli::bash_completion("mesure_memoire", cli::mesure_memoire_commands());
  const std::string forfaits_script = cli::bash_completion("calcul_forfaits", forfaits);
  std::size_t flags = 0;
  for (const auto& c : all) {
    std::ostringstream help;
    help << c.description();
    for (const auto& flag : cli::long_flags(c.description())) {
      BOOST_TEST(help.str().find(flag) != std::string::npos, c.name << " " << flag);
      const auto& script = c.name.empty() ? forfaits_script : mesure_script;
      BOOST_TEST(script.find(flag) != std::string::npos, c.name << " " << flag);
      ++flags;
    }
  }
  BOOST_TEST(flags > 30U);
}

BOOST_AUTO_TEST_CASE(the_help_of_each_command_is_what_its_runner_prints) {
  const auto help_of = [](auto run, const char* word) {
    std::ostringstream out;
    std::ostringstream err;
    const std::vector<std::string> args{word};
    BOOST_TEST(run(args, out, err) == 0);
    return out.str();
  };
  // A usage line, then the description the parser uses.
  std::ostringstream estimate;
  estimate << cli::estimate_description() << '\n';
  const std::string estimate_help = help_of(cli::run_estimate, "--help");
  BOOST_TEST(estimate_help ==
             "usage: mesure_memoire estimate --parameters N --bits N [--reserve-gib X] [--json]\n" + estimate.str());
  BOOST_TEST(help_of(cli::run_estimate, "-h") == estimate_help);
  std::ostringstream plan;
  plan << cli::plan_description() << '\n';
  const std::string plan_help = help_of(cli::run_plan, "-h");
  BOOST_TEST(plan_help.starts_with("usage: mesure_memoire plan [--batch N] "));
  BOOST_TEST(plan_help.substr(plan_help.find('\n') + 1) == plan.str());
}

BOOST_AUTO_TEST_SUITE_END()
