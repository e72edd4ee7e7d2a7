#ifndef ITERAGPU_REPORT_NEW_FILE_HPP
#define ITERAGPU_REPORT_NEW_FILE_HPP

#include <string>
#include <string_view>
#include <system_error>

#include "iteragpu/io.hpp"
#include "iteragpu/text.hpp"

/// \file
/// Why a new file cannot be written, in words (io.hpp's new_file_error).
namespace iteragpu::report {

/// The step the system refused, as a message says it.
[[nodiscard]] constexpr std::string_view name_of(new_file_step step) noexcept {
  switch (step) {
    case new_file_step::creating:
      return "creating a file in its folder";
    case new_file_step::linking_test:
      return "making a hard link in its folder";
    case new_file_step::writing:
      return "writing";
    case new_file_step::flushing:
      return "flushing to disk";
    case new_file_step::closing:
      return "closing";
    case new_file_step::linking_into_place:
      return "linking into place";
  }
  return "an unknown step";
}

/// One line that names the file (quoted and escaped), what is wrong and
/// what is expected.
[[nodiscard]] std::string describe(const new_file_error& p);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/new_file.ipp"
#endif

#endif  // ITERAGPU_REPORT_NEW_FILE_HPP
