#ifndef ITERAGPU_MEMORY_FILES_IMPL_MEMORY_NEED_FILE_IPP
#define ITERAGPU_MEMORY_FILES_IMPL_MEMORY_NEED_FILE_IPP

#include <boost/json.hpp>

#include "iteragpu/config.hpp"
#include "iteragpu/memory/files/memory_need_file.hpp"

// The bodies of the functions that <iteragpu/memory/files/memory_need_file.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE result<memory_need_record, memory_need_error> read_memory_need(
    const boost::json::object& document) {
  const auto* need = document.if_contains("memory_need");
  if (need == nullptr) {
    return unexpected{memory_need_error{memory_need_errc::missing, {}}};
  }
  if (need->is_null()) {
    return unexpected{memory_need_error{memory_need_errc::null, {}}};
  }
  const auto* o = need->if_object();
  if (o == nullptr) {
    return unexpected{memory_need_error{memory_need_errc::not_an_object, {}}};
  }
  const auto* bytes = o->if_contains("bytes");
  if (bytes == nullptr) {
    return unexpected{memory_need_error{memory_need_errc::bytes_missing, {}}};
  }
  const auto count = json_byte_count(*bytes);
  if (!count) {
    return unexpected{memory_need_error{memory_need_errc::bytes_not_bytes, boost::json::serialize(*bytes)}};
  }
  memory_need_record record{*count, std::nullopt};
  if (const auto* said = o->if_contains("source"); said != nullptr && said->is_string()) {
    record.source = std::string(said->get_string());
  }
  return record;
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_FILES_IMPL_MEMORY_NEED_FILE_IPP
