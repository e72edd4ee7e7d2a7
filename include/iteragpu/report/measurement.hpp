#ifndef ITERAGPU_REPORT_MEASUREMENT_HPP
#define ITERAGPU_REPORT_MEASUREMENT_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/fwd.hpp>

#include "iteragpu/memory/environment.hpp"
#include "iteragpu/memory/policies/dtype.hpp"
#include "iteragpu/memory/prediction/caching_allocator.hpp"
#include "iteragpu/memory/prediction/check.hpp"
#include "iteragpu/memory/protocol.hpp"
#include "iteragpu/memory/synthetic_measurement.hpp"
#include "iteragpu/memory/synthetic_model.hpp"
#include "iteragpu/report/environment.hpp"
#include "iteragpu/report/memory_need.hpp"
#include "iteragpu/report/statistics.hpp"
#include "iteragpu/text.hpp"

/// \file
/// A measurement record as JSON (data/schema/measurement.schema.json, schema 2) and as text.
namespace iteragpu::report {

/// 1: environment, configuration, synthetic_model, phases. 2 adds per row the
/// device's used memory and the GPU's state, and the statistics, the
/// prediction, the allocator's settings, the memory outside the allocator
/// and the memory need.
inline constexpr std::int64_t measurement_schema_version = 2;

/// What the device-used columns hold, as the JSON notes it.
inline constexpr std::string_view device_used_note =
    "baseline_device_used_bytes and end_device_used_bytes are the device's used memory (total minus free, as the "
    "runtime reports it for the whole GPU): this process's CUDA context and libraries and other processes are in "
    "it, unlike the allocator's counters";

/// The number, or JSON null (the second parameter only sets this overload apart from
/// environment.hpp's).
[[nodiscard]] boost::json::value optional_json(const std::optional<std::uint64_t>& v, std::nullptr_t);

/// A row's phase, repeat and six byte fields: a predicted row as the JSON holds it.
[[nodiscard]] boost::json::object byte_fields_json(const phase_row& row);

/// A measured row as the JSON holds it: phase, repeat, times, byte fields, device use and GPU state.
[[nodiscard]] boost::json::object to_json(const phase_row& row);

/// {"cublas_bytes", "cublaslt_bytes"}.
[[nodiscard]] boost::json::object workspaces_json(const memory::prediction::blas_workspaces& w);

/// The prediction beside the measurement: the workspaces assumed, the predicted rows (or why none)
/// and the differences of each measured row.
[[nodiscard]] boost::json::object to_json(const memory::prediction::prediction_check& check);

/// The plan's warm-up, repeats and stopping rule, added to a configuration object.
void add_plan(boost::json::object& configuration, const protocol_plan& plan);

/// The statistics object of a record: the warm_forward summaries, their methods and why the repeats stopped.
[[nodiscard]] boost::json::object statistics_json(const memory::warm_statistics& statistics,
                                                  const std::optional<memory::stop_reason>& stopped_by);

/// The allocator's settings as an object of name -> value, or null.
[[nodiscard]] boost::json::value allocator_settings_json(
    const std::optional<std::vector<memory::allocator_setting>>& settings);

/// `output_name` is the result file's name, without its folder: no path of
/// the user's is recorded.
[[nodiscard]] boost::json::object to_json(const memory::measurement_record& m, std::string_view output_name);

/// The phase rows as an aligned table for people.
void write_phase_table(std::ostream& out, const std::vector<phase_row>& rows);

/// The GPU's state at the end of each phase, when the backend sampled it.
void write_state_table(std::ostream& out, const std::vector<phase_row>& rows);

/// The prediction in one line: exact in every row, or the rows and fields
/// that differ with measured minus predicted.
void write_prediction_line(std::ostream& out, const memory::prediction::prediction_check& check,
                           const std::vector<phase_row>& rows);

/// What every measurement prints, whatever its workload: the rows, the GPU's state, the statistics
/// of the warm passes (and why the repeats stopped) and the memory outside the allocator.
void write_measured(std::ostream& out, const std::vector<phase_row>& phases,
                    const std::optional<memory::stop_reason>& stopped_by, const memory::warm_statistics& statistics);

/// The measurement for people: the rows, the GPU's state, the statistics, the memory outside the
/// allocator and the prediction in one line.
void write_text(std::ostream& out, const memory::measurement_record& m);

/// Why recording the allocator's history failed, as the programs print it: LibTorch's own
/// message (its first line), whichever step failed.
[[nodiscard]] inline std::string describe(const memory::memory_history_error& e) { return e.libtorch_message; }

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/measurement.ipp"
#endif

#endif  // ITERAGPU_REPORT_MEASUREMENT_HPP
