#ifndef ITERAGPU_REPORT_SWEEP_ERRORS_HPP
#define ITERAGPU_REPORT_SWEEP_ERRORS_HPP

#include <string>
#include <string_view>
#include <system_error>

#include "iteragpu/sweep/files/folder.hpp"
#include "iteragpu/text.hpp"

/// \file
/// Words for the errors of the sweep (iteragpu/sweep/): each a phrase that
/// names the input at fault and what is accepted, one line, for the command
/// line to put after the flag or file it concerns.
namespace iteragpu::report {

/// Why a new sweep folder cannot be made, as `'F' already exists; expected
/// a new folder (nothing is overwritten)`, `folder 'P' does not exist;
/// expected the new folder's parent to exist` or `cannot create 'F':
/// REASON`. `hint` is added inside the parentheses of the first (such as
/// "; --resume continues a sweep").
[[nodiscard]] inline std::string words_of(const sweep::new_folder_problem& p, std::string_view hint = {}) {
  switch (p.kind) {
    case sweep::new_folder_error::exists:
      return quoted(p.folder.string()) + " already exists; expected a new folder (nothing is overwritten" +
             std::string(hint) + ")";
    case sweep::new_folder_error::no_parent:
      return "folder " + quoted(p.folder.string()) + " does not exist; expected the new folder's parent to exist";
    case sweep::new_folder_error::cannot_create:
      break;
  }
  return "cannot create " + quoted(p.folder.string()) + ": " + std::generic_category().message(p.error_number);
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_SWEEP_ERRORS_HPP
