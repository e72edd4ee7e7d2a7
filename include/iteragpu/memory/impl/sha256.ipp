#ifndef ITERAGPU_MEMORY_IMPL_SHA256_IPP
#define ITERAGPU_MEMORY_IMPL_SHA256_IPP

#include "iteragpu/config.hpp"
#include "iteragpu/memory/sha256.hpp"

// The bodies of the functions that <iteragpu/memory/sha256.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu::memory {

[[nodiscard]] ITERAGPU_INLINE std::string to_hex(const sha256_digest& digest) {
  constexpr std::string_view digits = "0123456789abcdef";
  std::string text;
  text.reserve(2 * digest.size());
  for (const auto b : digest) {
    text += digits[b >> 4U];
    text += digits[b & 0x0fU];
  }
  return text;
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_IMPL_SHA256_IPP
