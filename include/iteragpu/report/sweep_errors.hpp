#ifndef ITERAGPU_REPORT_SWEEP_ERRORS_HPP
#define ITERAGPU_REPORT_SWEEP_ERRORS_HPP

#include <string>
#include <string_view>
#include <system_error>
#include <variant>

#include "iteragpu/io.hpp"
#include "iteragpu/json_keys.hpp"
#include "iteragpu/report/compare.hpp"
#include "iteragpu/sweep/files/folder_error.hpp"
#include "iteragpu/sweep/files/record.hpp"
#include "iteragpu/sweep/lists.hpp"
#include "iteragpu/sweep/new_folder.hpp"
#include "iteragpu/sweep/outcome.hpp"
#include "iteragpu/sweep/points.hpp"
#include "iteragpu/sweep/process.hpp"
#include "iteragpu/sweep/scheduler.hpp"
#include "iteragpu/text.hpp"

/// \file
/// Words for the errors of the sweep (iteragpu/sweep/): each a phrase that
/// names the input at fault and what is accepted, one line, for the command
/// line to put after the flag or file it concerns.
namespace iteragpu::report {

/// A refused list, as `'8..12': 12 is not 8 times a power of two` or `'half'
/// is not float32, float16 or bfloat16`: a fault inside a range is preceded
/// by the range.
[[nodiscard]] std::string words_of(const sweep::list_error& e);

/// Lists that make no plan, as `the lists make no point; expected 1 to
/// 100000` or `the lists make more than 100000 points; expected 1 to 100000`.
[[nodiscard]] std::string words_of(sweep::plan_errc e);

/// A refused points.tsv, naming its line: `line 3: the index '7' is not 1`.
[[nodiscard]] std::string words_of(const sweep::points_file_error& e);

/// A point that cannot be predicted (sweep::reason_of(), the words its
/// record keeps).
[[nodiscard]] inline std::string words_of(const sweep::point_prediction_error& e) { return sweep::reason_of(e); }

/// A child process that could not be started, as `cannot start 'P': No such
/// file or directory`.
[[nodiscard]] std::string words_of(const sweep::spawn_error& e);

/// Why a new sweep folder cannot be made, in words: the folder F already
/// exists (nothing is overwritten), the parent folder P does not exist, or F
/// cannot be created (with the system's reason). `hint` is added inside the
/// parentheses of the first: the caller's advice, such as how its program
/// continues a sweep.
[[nodiscard]] std::string words_of(const sweep::new_folder_error& p, std::string_view hint = {});

/// A JSON file of the sweep that cannot be read, naming it: `'F' is not
/// JSON: REASON`, `'F': the key at '/a' is given twice in its object;
/// expected each key once`, or the file followed by io.hpp's describe().
[[nodiscard]] std::string words_of(const sweep::files::json_file_error& e);

/// A `measure` result file that gives no figures: why it cannot be read,
/// or why it is not a measurement (describe(), as compare says it: `the
/// document has no "phases"; expected ...`), the documents named in
/// `names`' words.
[[nodiscard]] inline std::string words_of(const sweep::files::point_measurement_error& e,
                                          const document_names& names = {}) {
  return e.file ? words_of(*e.file) : describe(e.figures, names);
}

/// A device `environment` cannot measure: the reason it gave (escaped), or
/// `it reports no free memory`.
[[nodiscard]] inline std::string words_of(const sweep::files::device_reading_error& e) {
  return e.reason ? escaped(*e.reason) : std::string("it reports no free memory");
}

/// A refused record: `its FIELD is missing or invalid`, or `its point is
/// not point N of points.tsv (batch B, context C, width W, DTYPE)`.
[[nodiscard]] std::string words_of(const sweep::files::record_error& e);

/// A sweep folder that cannot be read back, naming the file: `'D/points.tsv'
/// does not exist; expected the folder of a sweep (its points.tsv)`, `'F':
/// line 3: ...`, or a record's words after its name.
[[nodiscard]] std::string words_of(const sweep::folder_error& e);

/// `'FILE' cannot be written: ...`, or a prediction file found with other content.
[[nodiscard]] std::string words_of(const sweep::record_keep_error& e);

/// A measurement file without its record that cannot be read, or whose
/// record cannot be kept; the documents named in `names`' words.
[[nodiscard]] std::string words_of(const sweep::orphan_error& e, const document_names& names = {});

/// A runner that broke its contract.
[[nodiscard]] inline std::string words_of(const sweep::unknown_point_error& e) {
  return "the runner reported point " + to_decimal_string(e.index) + ", which was not running";
}

/// Why run_points() stopped: the sink's error in its own words (a words_of()
/// found for it), or the runner's fault.
template <class SinkError>
[[nodiscard]] std::string words_of(const sweep::sweep_error<SinkError>& stop) {
  return std::visit([](const auto& cause) { return words_of(cause); }, stop);
}

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/sweep_errors.ipp"
#endif

#endif  // ITERAGPU_REPORT_SWEEP_ERRORS_HPP
