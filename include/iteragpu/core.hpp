#ifndef ITERAGPU_CORE_HPP
#define ITERAGPU_CORE_HPP

/// \file
/// The common ground of both domains, arithmetic and text only, with no
/// dependency (target iteragpu::iteragpu): the error model (result.hpp,
/// and error_code.hpp for interfaces that carry a std::error_code; one_of.hpp
/// for the data of a reason that depends on its code),
/// text rules (text.hpp), byte counts and exact decimals (units.hpp),
/// checked arithmetic (checked.hpp), the strict reading of an unsigned
/// integer (parse.hpp), the memory need
/// both domains speak of (memory_need.hpp) and the version. The domains gather
/// themselves: pricing.hpp, memory.hpp, sweep.hpp; iteragpu.hpp gathers all.
#include "iteragpu/checked.hpp"      // IWYU pragma: export
#include "iteragpu/error_code.hpp"   // IWYU pragma: export
#include "iteragpu/memory_need.hpp"  // IWYU pragma: export
#include "iteragpu/one_of.hpp"       // IWYU pragma: export
#include "iteragpu/parse.hpp"        // IWYU pragma: export
#include "iteragpu/result.hpp"       // IWYU pragma: export
#include "iteragpu/text.hpp"         // IWYU pragma: export
#include "iteragpu/units.hpp"        // IWYU pragma: export
#include "iteragpu/version.hpp"      // IWYU pragma: export

#endif  // ITERAGPU_CORE_HPP
