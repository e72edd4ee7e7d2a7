// The sweep's interruption flag (examples/cli/sweep_process_state.hpp):
// SIGINT and SIGTERM under the guard, and a child's wait that gives up once
// the sweep is interrupted.
#include <cli/sweep_process_state.hpp>

#include <csignal>

#include <signal.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>

#include <iteragpu/sweep/process.hpp>

namespace sw = iteragpu::sweep;
namespace cli = iteragpu::cli;

BOOST_AUTO_TEST_SUITE(sweep_process)

BOOST_AUTO_TEST_CASE(sigint_under_the_guard_sets_the_flag_and_the_previous_handler_comes_back) {
  struct sigaction before{};
  sigaction(SIGINT, nullptr, &before);
  {
    const cli::interrupt_guard guard;
    BOOST_TEST(!cli::interrupt_requested());
    // Sent to this process, a signal is handled before kill() returns.
    ::kill(::getpid(), SIGINT);
    BOOST_TEST(cli::interrupt_requested());
    BOOST_TEST(cli::interrupted_exit_code() == 130);
    // A wait gives up at once when the sweep is interrupted.
    auto c = sw::child_process::spawn("/bin/sleep", {"30"}, false);
    BOOST_TEST_REQUIRE(c.has_value());
    BOOST_TEST(!c->wait_unless_stopped(cli::signal_stop{}).has_value());
  }
  struct sigaction after{};
  sigaction(SIGINT, nullptr, &after);
  BOOST_TEST((after.sa_handler == before.sa_handler));
  {
    const cli::interrupt_guard guard;  // a new guard starts uninterrupted
    BOOST_TEST(!cli::interrupt_requested());
    ::kill(::getpid(), SIGTERM);
    BOOST_TEST(cli::interrupted_exit_code() == 143);
  }
}

BOOST_AUTO_TEST_SUITE_END()
