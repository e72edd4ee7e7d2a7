#ifndef ITERAGPU_MEASUREMENT_HPP
#define ITERAGPU_MEASUREMENT_HPP

// Measurement as a library call, with no LibTorch and no Boost (target
// iteragpu::iteragpu): iteragpu::measure() over an integrator's policy
// objects (protocol.hpp, policies/), the environment report, the synthetic
// network's description and its measurement through a GPU runtime. The
// LibTorch adapters are in iteragpu/torch/ (target iteragpu::torch).
#include "iteragpu/device.hpp"
#include "iteragpu/environment.hpp"
#include "iteragpu/gpu_runtime.hpp"
#include "iteragpu/policies/backend.hpp"
#include "iteragpu/policies/dtype.hpp"
#include "iteragpu/policies/memory_counter.hpp"
#include "iteragpu/policies/workload.hpp"
#include "iteragpu/protocol.hpp"
#include "iteragpu/synthetic_measurement.hpp"
#include "iteragpu/synthetic_model.hpp"

#endif  // ITERAGPU_MEASUREMENT_HPP
