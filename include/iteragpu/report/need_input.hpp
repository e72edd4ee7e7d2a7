#ifndef ITERAGPU_REPORT_NEED_INPUT_HPP
#define ITERAGPU_REPORT_NEED_INPUT_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include <boost/json/fwd.hpp>

#include "iteragpu/json_keys.hpp"
#include "iteragpu/memory/files/measurement_file.hpp"
#include "iteragpu/memory/files/memory_need_file.hpp"
#include "iteragpu/memory_need.hpp"
#include "iteragpu/report/compare.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/text.hpp"
#include "iteragpu/units.hpp"

/// \file
/// A memory need read back from the JSON of a weight estimate, a plan
/// (recognised by "kind": "plan"), a replay ("kind": "replay"), an
/// extrapolation ("kind": "extrapolation") or a measurement file
/// (schema_version 1 or 2). It lives with the reports because it reads
/// their JSON.
namespace iteragpu::report {

/// Why a document gives no need: what it holds, in words (text from the
/// document escaped).
struct need_input_error {
  std::string found;  ///< what the document holds instead of a need
  friend bool operator==(const need_input_error&, const need_input_error&) = default;
};

namespace detail {

using need_read = result<memory_need, need_input_error>;

[[nodiscard]] inline unexpected<need_input_error> not_a_need(std::string found) {
  return unexpected{need_input_error{std::move(found)}};
}

// The `memory_need` object of an estimate, a plan or a replay: its bytes.
// The source says in our words which document (`what`) and which figure
// (`figure`), then quotes the source the document gives; `when_null` says
// why the document may have no need (memory_need null).
[[nodiscard]] need_read need_of_document(const boost::json::object& o, std::string_view what, std::string_view figure,
                                         std::string_view when_null = "the need passes 64 bits of bytes");

// The words for a measurement file refused by its one reader
// (memory::measurement_from_json()), as need_from_json() says them: the
// words compare gives (report::describe()), the documents named in
// `names`' words.
[[nodiscard]] need_input_error measurement_refusal(const memory::measurement_read_error& e,
                                                   const document_names& names);

// A measurement's need, read by the one reader of a measurement file
// (memory::need_of_measurement(), memory/measured_need.hpp): its largest
// peak_reserved_bytes plus, where the file records the device's used
// memory (schema 2), the memory outside the allocator: the largest device
// used less reserved at the baseline and end of every row, floored at 0.
[[nodiscard]] need_read need_of_measurement(const boost::json::value& document, const document_names& names);

// The need of a replay (its JSON, "kind": "replay"): its least need, with
// the setting it was reached under and how to run with it.
[[nodiscard]] need_read need_of_replay(const boost::json::object& o, const document_names& names);

// The need of an extrapolation (its JSON, "kind": "extrapolation") at
// `size` (see need_from_json()).
[[nodiscard]] need_read need_of_extrapolation(const boost::json::object& o, std::optional<std::uint64_t> size,
                                              const document_names& names);

}  // namespace detail

/// The need a document states or implies. An estimate is an object with
/// weight_bytes, total_gib and memory_need and no kind; a plan has "kind":
/// "plan"; a measurement has schema_version 1 or 2. Anything else, and
/// malformed JSON, is an error that says what was found.
/// An extrapolation ("kind": "extrapolation") needs `size`: its need is
/// judged GPU by GPU (memory_need::per_gpu), from the verdicts of its
/// `cards` at that size under the recorded settings: a card that holds it
/// needs its replay's most peak reserved plus the memory outside the
/// allocator the extrapolation assumed; `size` with any other document is
/// an error. Messages and sources name the plan, the estimate,
/// the replay, the measurement and the size in `names`' words (a program
/// gives its commands and flags there; the library's own words name none).
[[nodiscard]] result<memory_need, need_input_error> need_from_json(std::string_view text,
                                                                   std::optional<std::uint64_t> size = std::nullopt,
                                                                   const document_names& names = {});

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/need_input.ipp"
#endif

#endif  // ITERAGPU_REPORT_NEED_INPUT_HPP
