#ifndef ITERAGPU_CORE_HPP
#define ITERAGPU_CORE_HPP

/// \file
/// The common ground of both domains, arithmetic and text only, with no
/// dependency (target iteragpu::iteragpu): the error model (result.hpp,
/// and error_code.hpp for interfaces that carry a std::error_code),
/// text rules (text.hpp), byte counts and exact decimals (units.hpp),
/// checked arithmetic (checked.hpp), the strict reading of an unsigned
/// integer (parse.hpp), the memory need
/// both domains speak of (memory_need.hpp) and the version. The domains gather
/// themselves: pricing.hpp, memory.hpp, sweep.hpp; iteragpu.hpp gathers all.
#include "iteragpu/checked.hpp"
#include "iteragpu/error_code.hpp"
#include "iteragpu/memory_need.hpp"
#include "iteragpu/parse.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"
#include "iteragpu/version.hpp"

#endif  // ITERAGPU_CORE_HPP
