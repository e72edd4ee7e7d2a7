#ifndef ITERAGPU_CLI_GPU_COMMANDS_HPP
#define ITERAGPU_CLI_GPU_COMMANDS_HPP

#include "cli/environment_command.hpp"
#include "cli/flags.hpp"
#include "cli/measure_command.hpp"
#include "cli/output.hpp"

/// \file
/// `environment` and `measure`, written once over a GPU runtime object: the
/// program passes LibTorch's (iteragpu/torch/runtime.hpp) or, in a build
/// without LibTorch, iteragpu::memory::unavailable_runtime. Gathers the two commands
/// (environment_command.hpp, measure_command.hpp) and the measurement flags
/// that `plan` and `sweep` share with them (flags.hpp).

#endif  // ITERAGPU_CLI_GPU_COMMANDS_HPP
