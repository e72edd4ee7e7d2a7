#ifndef ITERAGPU_REPORT_IMPL_ALLOC_CONF_ERRORS_IPP
#define ITERAGPU_REPORT_IMPL_ALLOC_CONF_ERRORS_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/report/alloc_conf_errors.hpp"

// The bodies of the functions that <iteragpu/report/alloc_conf_errors.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE std::string describe(const memory::prediction::alloc_conf_error& e) {
  using code = memory::prediction::alloc_conf_errc;
  // The user's words are escaped as every message escapes them: no control
  // character or invalid UTF-8 reaches the terminal.
  const std::string item = e.key.empty() ? std::string{"the text"} : quoted(e.key);
  const std::string found = e.value.empty() ? std::string{"nothing"} : quoted(e.value);
  switch (e.code) {
    case code::unknown_key:
      return "PYTORCH_CUDA_ALLOC_CONF: unknown key " + item +
             "; accepted: max_split_size_mb, max_non_split_rounding_mb, roundup_power2_divisions, "
             "garbage_collection_threshold, expandable_segments, backend, release_lock_on_cudamalloc, "
             "pinned_use_cuda_host_register, pinned_num_register_threads, pinned_use_background_threads, "
             "pinned_reserve_segment_size_mb, pinned_free_catch_all, graph_capture_record_stream_reuse";
    case code::missing_separator:
      return "PYTORCH_CUDA_ALLOC_CONF: after " + item + " found " + found +
             " where ':' (after a key), ',' (between items) or ']' (closing a list) belongs; accepted: key:value,key:value";
    case code::missing_value:
      return "PYTORCH_CUDA_ALLOC_CONF: " + item + " has no value (found " + found + ")";
    case code::not_a_number:
      return "PYTORCH_CUDA_ALLOC_CONF: " + item + " takes a number, not " + found +
             " (decimal digits; a fraction such as 0.8 for garbage_collection_threshold)";
    case code::too_small:
      return "PYTORCH_CUDA_ALLOC_CONF: " + item + " is " + found + " MiB; accepted: 20 or more";
    case code::not_a_fraction:
      return "PYTORCH_CUDA_ALLOC_CONF: " + item + " is " + found + "; accepted: a fraction above 0 and below 1";
    case code::not_a_power_of_two:
      return "PYTORCH_CUDA_ALLOC_CONF: " + item + " has " + found +
             "; accepted: a power of two (1, 2, 4, 8, ...; 0 also for a division in a [bound:divisions] list)";
    case code::too_many_threads:
      return "PYTORCH_CUDA_ALLOC_CONF: " + item + " is " + found + "; accepted: a power of two up to 128";
    case code::not_positive:
      return "PYTORCH_CUDA_ALLOC_CONF: " + item + " is " + found + "; accepted: 1 or more";
    case code::not_a_boolean:
      return "PYTORCH_CUDA_ALLOC_CONF: " + item + " is " + found + "; accepted: True or False";
    case code::unknown_backend:
      return "PYTORCH_CUDA_ALLOC_CONF: backend " + found + " is unknown; accepted: native or cudaMallocAsync";
    case code::other_backend:
      return "PYTORCH_CUDA_ALLOC_CONF: backend " + found +
             " is another allocator, which the simulation does not model; accepted: native";
    case code::not_modelled:
      return "PYTORCH_CUDA_ALLOC_CONF: " + item +
             " shapes reserved memory but the simulation does not model it (for per_process_memory_fraction, "
             "give the capacity instead)";
  }
  return "PYTORCH_CUDA_ALLOC_CONF: refused";
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_ALLOC_CONF_ERRORS_IPP
