#ifndef ITERAGPU_MEMORY_PREDICTION_DETAIL_DEVICE_ADDRESSES_HPP
#define ITERAGPU_MEMORY_PREDICTION_DETAIL_DEVICE_ADDRESSES_HPP

#include <cstdint>
#include <map>
#include <optional>

// Where the CUDA driver puts a new segment (cudaMalloc's virtual address), as
// the oracle's traces show it on an H100 (driver 580, PyTorch 2.11): the
// caching allocator chooses between free blocks of one size by address, so
// a replay that places segments elsewhere than the driver can choose
// another block.
//
// What the traces show: the driver reserves address space in chunks of
// whole 32 MiB, each new chunk just below the lowest one held, the segment
// at the chunk's start; a later segment that fits in the unused part of a
// chunk goes there (the newest chunk with room first; in it, the smallest
// gap that fits, the lowest on a tie); the range of a chunk whose segments
// are all freed is given back, and a later chunk goes at the top of the
// highest such range that is larger than it. Of the 855 reservations of
// the 30 generated sequences' traces past their first four (which land in
// ranges the CUDA context already used), 836 land where this says.
namespace iteragpu::memory::prediction::detail {

class device_address_space {
 public:
  // The address space a segment may use: [lowest, top).
  static constexpr std::uint64_t lowest = std::uint64_t{2} << 20U;
  static constexpr std::uint64_t top = std::uint64_t{1} << 47U;
  // The driver's chunk of address space: 32 MiB.
  static constexpr std::uint64_t chunk_granularity = std::uint64_t{32} << 20U;

  // Where a new segment of `bytes` (cudaMalloc) goes; nothing when no room is left.
  [[nodiscard]] std::optional<std::uint64_t> place(std::uint64_t bytes) const;

  // Where an address range of `bytes` (cuMemAddressReserve, an expandable
  // segment's) goes: just below the lowest chunk, of its own size.
  [[nodiscard]] std::optional<std::uint64_t> place_reservation(std::uint64_t bytes) const;

  // A segment of `bytes` now lies at `address` (placed by place(), or where
  // a recorded trace shows it); `whole_chunk`: a cudaMalloc, whose chunk is
  // whole 32 MiB, else a reservation of its own size.
  void take(std::uint64_t address, std::uint64_t bytes, bool whole_chunk = true);

  // The segment at `address` is given back to the driver.
  void give_back(std::uint64_t address);

 private:
  struct chunk {
    std::uint64_t end{0};
    std::uint64_t made{0};                          // the order in which chunks were reserved
    std::map<std::uint64_t, std::uint64_t> held{};  // segment address -> its bytes
    std::uint64_t largest_gap{0};                   // its largest unused part
  };

  // The smallest gap of `c` (starting at `start`) that holds `bytes`.
  [[nodiscard]] static std::optional<std::uint64_t> gap_in(std::uint64_t start, const chunk& c, std::uint64_t bytes);
  // Keeps the largest gap of `c` (starting at `start`) in it, after a change.
  static void measure(std::uint64_t start, chunk& c);
  [[nodiscard]] std::map<std::uint64_t, chunk>::iterator chunk_holding(std::uint64_t address);
  void reserve(std::uint64_t start, std::uint64_t end);

  std::map<std::uint64_t, chunk> chunks_;
  std::map<std::uint64_t, std::uint64_t> by_age_;      // made -> start: the newest chunk last
  std::map<std::uint64_t, std::uint64_t> given_back_;  // start -> end of ranges whose chunks were given back
  std::uint64_t made_{0};
};

}  // namespace iteragpu::memory::prediction::detail

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/memory/prediction/detail/impl/device_addresses.ipp"
#endif

#endif  // ITERAGPU_MEMORY_PREDICTION_DETAIL_DEVICE_ADDRESSES_HPP
