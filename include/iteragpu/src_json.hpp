#ifndef ITERAGPU_SRC_JSON_HPP
#define ITERAGPU_SRC_JSON_HPP

/// \file
/// The bodies of the functions that need Boost.JSON (the reports, the
/// file readers), compiled once: every such header that has bodies. With
/// src_core.hpp in the same or another translation unit, as for
/// src_core.hpp; CMake's `iteragpu::json_compiled` is that translation unit,
/// built (see config.hpp).

#ifndef ITERAGPU_SEPARATE_COMPILATION
#error "<iteragpu/src_json.hpp> is for ITERAGPU_SEPARATE_COMPILATION; header-only use needs no source file"
#endif

#define ITERAGPU_SOURCE_JSON

#include "iteragpu/json_keys.hpp"
#include "iteragpu/memory/files/measurement_file.hpp"
#include "iteragpu/memory/files/memory_need_file.hpp"
#include "iteragpu/memory/files/pickle.hpp"
#include "iteragpu/memory/files/snapshot.hpp"
#include "iteragpu/memory/files/snapshot_file.hpp"
#include "iteragpu/report/alloc_conf_errors.hpp"
#include "iteragpu/report/catalog.hpp"
#include "iteragpu/report/compare.hpp"
#include "iteragpu/report/environment.hpp"
#include "iteragpu/report/estimate.hpp"
#include "iteragpu/report/fit.hpp"
#include "iteragpu/report/gpu_state.hpp"
#include "iteragpu/report/measure_failure.hpp"
#include "iteragpu/report/measurement.hpp"
#include "iteragpu/report/memory_need.hpp"
#include "iteragpu/report/need_input.hpp"
#include "iteragpu/report/plan.hpp"
#include "iteragpu/report/quote.hpp"
#include "iteragpu/report/replay.hpp"
#include "iteragpu/report/snapshot_errors.hpp"
#include "iteragpu/report/statistics.hpp"
#include "iteragpu/report/sweep_errors.hpp"
#include "iteragpu/report/torchscript.hpp"
#include "iteragpu/sweep/files/folder.hpp"
#include "iteragpu/sweep/files/record.hpp"
#include "iteragpu/sweep/files/report_files.hpp"

#endif  // ITERAGPU_SRC_JSON_HPP
