#ifndef ITERAGPU_REPORT_TORCHSCRIPT_HPP
#define ITERAGPU_REPORT_TORCHSCRIPT_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/fwd.hpp>

#include "iteragpu/memory/input_spec.hpp"
#include "iteragpu/memory/torchscript_archive.hpp"
#include "iteragpu/memory/torchscript_measurement.hpp"
#include "iteragpu/report/measurement.hpp"
#include "iteragpu/text.hpp"

/// \file
/// A TorchScript module's measurement as JSON (data/schema/measurement.schema.json,
/// `workload.kind` "torchscript") and as text, and the words for what is
/// wrong with an input spec or a file that is not a TorchScript archive.
namespace iteragpu::report {

/// What stands where the synthetic network's prediction stands: nothing
/// predicts an arbitrary module. A program says instead how it replays the
/// module's memory snapshot.
inline constexpr std::string_view no_torchscript_prediction =
    "no prediction for a TorchScript module; replay its memory snapshot for one";

/// What an input spec looks like, as messages say it.
inline constexpr std::string_view accepted_input_spec =
    "SIZExSIZE...:DTYPE with positive sizes, e.g. 8x512:int64 or 16x3x224x224:float32; dtypes float32, float16, "
    "bfloat16, float64, int64, int32, int16, int8, uint8";

/// What is wrong with an input spec, in words (the offset is a 0-based column).
[[nodiscard]] std::string describe(const memory::input_spec_error& e);

/// Why a file is not a TorchScript archive (or, for `format`
/// aoti_package, not an AOTInductor package), in words.
[[nodiscard]] std::string describe(const memory::archive_error& e,
                                   memory::model_format format = memory::model_format::torchscript);

/// The inputs as written, joined by spaces.
[[nodiscard]] std::string inputs_text(const std::vector<memory::input_spec>& inputs);

/// The workload object: kind "torchscript" (or "aoti_package"), the file's name and SHA-256, the inputs,
/// train, input_high.
[[nodiscard]] boost::json::object workload_json(const memory::torchscript_run& run);

/// The record as JSON; `output_name` is the result file's name, without its
/// folder; `no_prediction` the note that stands for the prediction.
[[nodiscard]] boost::json::object to_json(const memory::torchscript_record& m, std::string_view output_name,
                                          std::string_view no_prediction = no_torchscript_prediction);

/// The measurement for people: the module, the rows, the GPU's state, the statistics, the memory
/// outside the allocator, and in place of a prediction the line that says there is none (`no_prediction`).
void write_text(std::ostream& out, const memory::torchscript_record& m,
                std::string_view no_prediction = no_torchscript_prediction);

}  // namespace iteragpu::report

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_JSON)
#include "iteragpu/report/impl/torchscript.ipp"
#endif

#endif  // ITERAGPU_REPORT_TORCHSCRIPT_HPP
