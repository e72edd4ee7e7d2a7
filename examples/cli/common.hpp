#ifndef ITERAGPU_CLI_COMMON_HPP
#define ITERAGPU_CLI_COMMON_HPP

#include "cli/arguments.hpp"
#include "cli/outcome.hpp"
#include "cli/values.hpp"

/// \file
/// Shared pieces of the example programs' command lines, gathered: exit
/// codes and usage errors (outcome.hpp), one Boost.Program_options style for
/// every command (arguments.hpp) and strict value parsing (values.hpp).

#endif  // ITERAGPU_CLI_COMMON_HPP
