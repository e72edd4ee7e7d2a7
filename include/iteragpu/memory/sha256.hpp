#ifndef ITERAGPU_MEMORY_SHA256_HPP
#define ITERAGPU_MEMORY_SHA256_HPP

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

/// \file
/// SHA-256 (FIPS 180-4), fed piece by piece, so that a measurement names the
/// exact model file it measured. Torch-free and free of I/O: the command line
/// reads the file and feeds its bytes.
namespace iteragpu::memory {

/// A SHA-256 digest: 32 bytes.
using sha256_digest = std::array<std::uint8_t, 32>;

/// The hash of a byte stream given in pieces of any size.
class sha256_hasher {
 public:
  /// Adds bytes to the message.
  constexpr void update(std::span<const std::uint8_t> bytes) noexcept {
    for (const auto b : bytes) {
      block_[filled_++] = b;
      if (filled_ == block_.size()) {
        compress();
        filled_ = 0;
      }
    }
    length_ += bytes.size();
  }

  /// Adds the characters of `text` as bytes.
  constexpr void update(std::string_view text) noexcept {
    for (const char c : text) {
      const std::array<std::uint8_t, 1> one{static_cast<std::uint8_t>(c)};
      update(one);
    }
  }

  /// The digest of everything added: padding, the length in bits, the final
  /// blocks. The hasher is spent afterwards.
  [[nodiscard]] constexpr sha256_digest finish() noexcept {
    const std::uint64_t bits = length_ * 8U;
    block_[filled_++] = 0x80U;
    if (filled_ > block_.size() - length_bytes) {
      while (filled_ < block_.size()) {
        block_[filled_++] = 0;
      }
      compress();
      filled_ = 0;
    }
    while (filled_ < block_.size() - length_bytes) {
      block_[filled_++] = 0;
    }
    for (std::size_t i = 0; i < length_bytes; ++i) {
      block_[block_.size() - 1 - i] = static_cast<std::uint8_t>((bits >> (8U * i)) & 0xffU);
    }
    compress();
    sha256_digest digest{};
    for (std::size_t i = 0; i < state_.size(); ++i) {
      for (std::size_t j = 0; j < 4; ++j) {
        digest[4 * i + j] = static_cast<std::uint8_t>((state_[i] >> (24U - 8U * j)) & 0xffU);
      }
    }
    return digest;
  }

 private:
  static constexpr std::size_t length_bytes = 8;
  // The first 32 bits of the fractional parts of the cube roots of the
  // first 64 primes (FIPS 180-4, 4.2.2).
  static constexpr std::array<std::uint32_t, 64> round_constants{
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
      0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
      0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
      0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
      0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
      0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

  constexpr void compress() noexcept {
    std::array<std::uint32_t, 64> w{};
    for (std::size_t i = 0; i < 16; ++i) {
      w[i] = (std::uint32_t{block_[4 * i]} << 24U) | (std::uint32_t{block_[4 * i + 1]} << 16U) |
             (std::uint32_t{block_[4 * i + 2]} << 8U) | std::uint32_t{block_[4 * i + 3]};
    }
    for (std::size_t i = 16; i < 64; ++i) {
      const std::uint32_t s0 = std::rotr(w[i - 15], 7) ^ std::rotr(w[i - 15], 18) ^ (w[i - 15] >> 3U);
      const std::uint32_t s1 = std::rotr(w[i - 2], 17) ^ std::rotr(w[i - 2], 19) ^ (w[i - 2] >> 10U);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    auto v = state_;
    for (std::size_t i = 0; i < 64; ++i) {
      const std::uint32_t e = v[4];
      const std::uint32_t a = v[0];
      const std::uint32_t t1 = v[7] + (std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25)) +
                               ((e & v[5]) ^ (~e & v[6])) + round_constants[i] + w[i];
      const std::uint32_t t2 =
          (std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22)) + ((a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]));
      v[7] = v[6];
      v[6] = v[5];
      v[5] = v[4];
      v[4] = v[3] + t1;
      v[3] = v[2];
      v[2] = v[1];
      v[1] = v[0];
      v[0] = t1 + t2;
    }
    for (std::size_t i = 0; i < state_.size(); ++i) {
      state_[i] += v[i];
    }
  }

  // The first 32 bits of the fractional parts of the square roots of the
  // first 8 primes (FIPS 180-4, 5.3.3).
  std::array<std::uint32_t, 8> state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<std::uint8_t, 64> block_{};
  std::size_t filled_{0};
  std::uint64_t length_{0};
};

/// The digest of `text`'s bytes.
[[nodiscard]] constexpr sha256_digest sha256(std::string_view text) noexcept {
  sha256_hasher hasher;
  hasher.update(text);
  return hasher.finish();
}

/// The digest in lower-case hexadecimal, 64 characters.
[[nodiscard]] std::string to_hex(const sha256_digest& digest);

}  // namespace iteragpu::memory

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/impl/sha256.ipp"
#endif

#endif  // ITERAGPU_MEMORY_SHA256_HPP
