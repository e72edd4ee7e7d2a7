#ifndef ITERAGPU_REPORT_IMPL_SWEEP_ERRORS_IPP
#define ITERAGPU_REPORT_IMPL_SWEEP_ERRORS_IPP

#include <variant>

#include "iteragpu/config.hpp"
#include "iteragpu/report/detail/data_of.hpp"
#include "iteragpu/report/sweep_errors.hpp"

// The bodies of the functions that <iteragpu/report/sweep_errors.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string words_of(const sweep::list_error& e) {
  using k = sweep::list_errc;
  std::string words;
  switch (e.code) {
    case k::empty_list:
      words = "an empty list";
      break;
    case k::empty_item:
      words = quoted(e.text) + " has an empty item";
      break;
    case k::missing_range_end:
      words = "a range with a missing end";
      break;
    case k::too_large:
      words = quoted(e.text) + " does not fit in 64 bits";
      break;
    case k::not_a_number:
      words = quoted(e.text) + " is not a positive integer in digits";
      break;
    case k::not_positive:
      words = quoted(e.text) + " is not positive";
      break;
    case k::start_after_end:
      words = "the start is larger than the end";
      break;
    case k::not_doubling:
      words = to_decimal_string(e.last) + " is not " + to_decimal_string(e.first) + " times a power of two";
      break;
    case k::given_twice:
      words = e.text + " is given twice";
      break;
    case k::dtype_given_twice:
      words = quoted(e.text) + " is given twice";
      break;
    case k::unknown_dtype:
      words = quoted(e.text) + " is not float32, float16 or bfloat16";
      break;
    case k::bad_repeats:
      words = quoted(e.text) + " is not " + std::string(sweep::accepted_repeats);
      break;
  }
  return e.range.empty() ? words : quoted(e.range) + ": " + words;
}

[[nodiscard]] ITERAGPU_INLINE std::string words_of(sweep::plan_errc e) {
  const std::string limit = to_decimal_string(sweep::max_points);
  return "the lists make " +
         (e == sweep::plan_errc::no_point ? std::string("no point") : "more than " + limit + " points") +
         "; expected 1 to " + limit;
}

[[nodiscard]] ITERAGPU_INLINE std::string words_of(const sweep::points_file_error& e) {
  using k = sweep::points_file_errc;
  const std::string line = "line " + to_decimal_string(e.line);
  switch (e.code) {
    case k::cut_short:
      return line + " has no line end; the file is cut short";
    case k::bad_header:
      return "line 1 is not the header " + quoted(sweep::points_header);
    case k::no_point:
      return "the plan has no point";
    case k::too_many_points:
      return "the plan has " + to_decimal_string(e.count) + " points; expected 1 to " +
             to_decimal_string(sweep::max_points);
    case k::field_count:
      return line + ": expected 8 tab-separated fields, found " + to_decimal_string(e.count);
    case k::bad_index:
      return line + ": the index " + quoted_excerpt(e.text) + " is not " + to_decimal_string(e.count);
    case k::bad_value:
      return line + ": a value is not valid (batch, context and width positive integers, dtype float32, float16 or "
                    "bfloat16, warmup 0 to 10000, repeats 1 to 10000 or auto)";
    case k::passes_differ:
      return line + ": warmup and repeats differ from line 2's; a plan has one of each";
    case k::bad_result_name:
      break;
  }
  return line + ": the result " + quoted_excerpt(e.text) + " is not " + quoted(e.expected);
}

[[nodiscard]] ITERAGPU_INLINE std::string words_of(const sweep::spawn_error& e) {
  const std::string reason = std::generic_category().message(e.error_number);
  if (e.code == sweep::spawn_errc::no_memory_file) {
    return "cannot create a file in memory for its output: " + reason;
  }
  return "cannot start " + quoted(e.program) + ": " + reason;
}

[[nodiscard]] ITERAGPU_INLINE std::string words_of(const sweep::new_folder_error& p, std::string_view hint) {
  switch (p.code) {
    case sweep::new_folder_errc::exists:
      return quoted(p.folder.string()) + " already exists; expected a new folder (nothing is overwritten" +
             std::string(hint) + ")";
    case sweep::new_folder_errc::no_parent:
      return "folder " + quoted(p.folder.string()) + " does not exist; expected the new folder's parent to exist";
    case sweep::new_folder_errc::cannot_create:
      break;
  }
  return "cannot create " + quoted(p.folder.string()) + ": " + std::generic_category().message(p.error_number);
}

[[nodiscard]] ITERAGPU_INLINE std::string words_of(const sweep::files::json_file_error& e) {
  const std::string file = quoted(e.file.string());
  switch (e.code) {
    case sweep::files::json_file_errc::not_json:
      return file + " is not JSON: " + e.detail;
    case sweep::files::json_file_errc::duplicate_key:
      return file + ": " + duplicate_key_message(e.detail) + "; expected each key once";
    case sweep::files::json_file_errc::unreadable:
      break;
  }
  return file + describe(e.read, "64 MiB");
}

[[nodiscard]] ITERAGPU_INLINE std::string words_of(const sweep::files::record_error& e) {
  if (e.code == sweep::files::record_errc::other_point) {
    return "its point is not point " + to_decimal_string(e.expected.index) + " of points.tsv (" +
           sweep::describe(e.expected) + ")";
  }
  return "its " + e.field + " is missing or invalid";
}

[[nodiscard]] ITERAGPU_INLINE std::string words_of(const sweep::folder_error& e) {
  const std::string file = quoted(e.file.string());
  switch (e.code) {
    case sweep::folder_errc::points_unreadable:
      return file + describe(detail::data_of<read_errc>(e.why), "64 MiB") +
             "; expected the folder of a sweep (its points.tsv)";
    case sweep::folder_errc::points_invalid:
      return file + ": " + words_of(detail::data_of<sweep::points_file_error>(e.why));
    case sweep::folder_errc::record_unreadable: {
      const auto* json = e.why.get_if<sweep::files::json_file_error>();
      return json != nullptr ? words_of(*json) : file + " cannot be read";
    }
    case sweep::folder_errc::record_invalid:
      break;
  }
  return file + ": " + words_of(detail::data_of<sweep::files::record_error>(e.why));
}

[[nodiscard]] ITERAGPU_INLINE std::string words_of(const sweep::record_keep_error& e) {
  if (e.written) {
    return describe(*e.written);
  }
  return quoted(e.file.string()) + " exists with other content; nothing is overwritten";
}

[[nodiscard]] ITERAGPU_INLINE std::string words_of(const sweep::orphan_error& e, const document_names& names) {
  if (e.not_kept) {
    return words_of(*e.not_kept);
  }
  return quoted(e.file.string()) + " has no record and cannot be read: " +
         (e.unreadable ? words_of(*e.unreadable, names) : std::string("no reason given")) +
         "; move it away to measure the point again";
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_SWEEP_ERRORS_IPP
