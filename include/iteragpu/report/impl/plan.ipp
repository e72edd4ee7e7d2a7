#ifndef ITERAGPU_REPORT_IMPL_PLAN_IPP
#define ITERAGPU_REPORT_IMPL_PLAN_IPP

#include <iomanip>
#include <ostream>

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/report/plan.hpp"

// The bodies of the functions that <iteragpu/report/plan.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::report {

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const memory::prediction::fit_check& f) {
  return {{"memory_bytes", f.memory.value},
          {"memory_gib", to_gib(f.memory).to_string()},
          {"fits", f.fits},
          {"headroom_bytes", f.headroom_bytes ? boost::json::value(*f.headroom_bytes) : boost::json::value(nullptr)},
          {"failed_phase", f.failed_phase ? boost::json::value(name_of(*f.failed_phase)) : boost::json::value(nullptr)},
          {"message", f.message}};
}

[[nodiscard]] ITERAGPU_INLINE boost::json::object to_json(const plan_outcome& p) {
  boost::json::object o;
  o["kind"] = "plan";
  o["schema_version"] = plan_schema_version;
  o["prediction"] = true;
  o["configuration"] = {{"batch", p.request.shape.batch},    {"context", p.request.shape.context},
                        {"width", p.request.shape.width},    {"dtype", name_of(p.request.dtype)},
                        {"warmup", p.request.passes.warmup}, {"repeats", p.request.passes.repeats}};
  o["workspaces"] = workspaces_json(p.request.workspaces);
  o["memory_outside_allocator_bytes"] = p.request.outside_allocator.value;
  boost::json::array rows;
  for (const auto& row : p.rows) {
    rows.push_back(byte_fields_json(row));
  }
  o["phases"] = std::move(rows);
  o["peak_reserved_bytes"] = memory::prediction::peak_reserved(p.rows);
  o["memory_need"] = to_json(memory::prediction::need_of(p.rows, p.request.outside_allocator));
  o["fit"] = p.fit ? boost::json::value(to_json(*p.fit)) : boost::json::value(nullptr);
  if (p.largest) {
    o["largest"] = {
        {"dimension", name_of(p.largest->dimension)}, {"value", p.largest->value}, {"next", to_json(p.largest->next)}};
  } else {
    o["largest"] = nullptr;
  }
  boost::json::array not_modelled;
  for (const auto item : memory::prediction::not_modelled) {
    not_modelled.emplace_back(item);
  }
  o["not_modelled"] = std::move(not_modelled);
  o["notes"] = boost::json::array{prediction_note};
  return o;
}

ITERAGPU_INLINE void write_fit(std::ostream& out, const memory::prediction::fit_check& f,
                               const std::optional<exact_decimal>& typed_gib) {
  out << (typed_gib ? *typed_gib : to_gib(f.memory)).to_string() << " GiB (" << bytes_text(f.memory.value) << "): ";
  if (f.fits) {
    out << "fits, " << bytes_and_size_text(*f.headroom_bytes) << " of headroom\n";
  } else {
    out << "does not fit";
    if (f.failed_phase) {
      out << " (out of memory in phase " << name_of(*f.failed_phase) << ")";
    }
    out << ": " << escaped(f.message) << '\n';
  }
}

ITERAGPU_INLINE void write_text(std::ostream& out, const plan_outcome& p) {
  const auto& r = p.request;
  out << "Plan: " << r.shape.batch << " x " << r.shape.context << " x " << r.shape.width << " " << name_of(r.dtype)
      << ", warmup " << r.passes.warmup << ", repeats " << r.passes.repeats << " (PREDICTED, not measured)\n";
  out << std::left << std::setw(14) << "phase" << std::right << std::setw(7) << "repeat" << std::setw(15)
      << "base_alloc" << std::setw(15) << "base_reserved" << std::setw(15) << "end_alloc" << std::setw(15)
      << "end_reserved" << std::setw(15) << "peak_alloc" << std::setw(15) << "peak_reserved" << '\n';
  for (const auto& row : p.rows) {
    out << std::left << std::setw(14) << name_of(row.phase) << std::right << std::setw(7)
        << (row.repeat ? to_decimal_string(*row.repeat) : std::string("-")) << std::setw(15)
        << row.baseline_allocated_bytes << std::setw(15) << row.baseline_reserved_bytes << std::setw(15)
        << row.end_allocated_bytes << std::setw(15) << row.end_reserved_bytes << std::setw(15)
        << row.peak_allocated_bytes << std::setw(15) << row.peak_reserved_bytes << '\n';
  }
  out << "workspaces assumed: cuBLAS " << r.workspaces.cublas.value << " + cuBLASLt " << r.workspaces.cublaslt.value
      << " bytes\n";
  if (const auto need = memory::prediction::need_of(p.rows, r.outside_allocator)) {
    out << "need: " << need->bytes.value << " bytes = " << to_gib(need->bytes).to_string() << " GiB (peak reserved "
        << memory::prediction::peak_reserved(p.rows) << " + " << r.outside_allocator.value
        << " outside the allocator: CUDA context and libraries)\n";
  }
  if (p.fit) {
    out << "fits ";
    write_fit(out, *p.fit, p.memory_gib);
  }
  if (p.largest) {
    out << "largest " << name_of(p.largest->dimension) << " that fits: " << p.largest->value << "; "
        << name_of(p.largest->dimension) << " " << p.largest->value + 1 << " on ";
    write_fit(out, p.largest->next, p.memory_gib);
  }
  out << "not modelled (a run with any of these set may differ):";
  const char* separator = " ";
  for (const auto item : memory::prediction::not_modelled) {
    out << separator << item;
    separator = ", ";
  }
  out << '\n';
}

}  // namespace iteragpu::report

#endif  // ITERAGPU_REPORT_IMPL_PLAN_IPP
