#ifndef ITERAGPU_CLI_DOCUMENTS_HPP
#define ITERAGPU_CLI_DOCUMENTS_HPP

#include <string_view>

#include "iteragpu/report/compare.hpp"

/// \file
/// The documents the programs print or write, named by the command that
/// writes each: the words the library's messages take from the programs.
namespace iteragpu::cli {

/// A measurement file and the documents it may be taken for.
inline constexpr report::document_names program_documents{
    .measurement = "a measurement, the JSON file mesure_memoire measure --output writes (schema_version 1 or 2)",
    .plan = "the prediction mesure_memoire plan --json prints",
    .estimate = "the weight estimate mesure_memoire estimate --json prints",
    .quote = "the package quote calcul_forfaits --json prints",
    .environment = "the report mesure_memoire environment prints",
    .plan_output = "plan --json",
    .estimate_output = "estimate --json",
    .replay_output = "replay --json",
    .extrapolation_output = "extrapolate --json",
    .size = "--size N",
    .extrapolation_at = "run mesure_memoire extrapolate with --to",
    .replay_for_a_need = "run `replay SNAPSHOT --smallest-capacity --json` for the least capacity each setting needs, "
                         "and give --fits that file",
};

/// What a TorchScript module's record says in place of a prediction.
inline constexpr std::string_view no_torchscript_prediction =
    "no prediction for a TorchScript module; replay its --memory-snapshot with `mesure_memoire replay`";

/// The documents calcul_forfaits --fits reads a need from, as messages list them.
inline constexpr std::string_view need_documents_accepted =
    "the JSON of `mesure_memoire estimate --json`, `mesure_memoire plan --json`, `mesure_memoire replay --json` or "
    "`mesure_memoire extrapolate --json` (with --size), or a measurement file of `mesure_memoire measure --output` "
    "(schema_version 1 or 2)";

}  // namespace iteragpu::cli

#endif  // ITERAGPU_CLI_DOCUMENTS_HPP
