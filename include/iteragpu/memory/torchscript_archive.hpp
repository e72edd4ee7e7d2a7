#ifndef ITERAGPU_MEMORY_TORCHSCRIPT_ARCHIVE_HPP
#define ITERAGPU_MEMORY_TORCHSCRIPT_ARCHIVE_HPP

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "iteragpu/result.hpp"
#include "iteragpu/units.hpp"

/// \file
/// Whether a file has the layout of a TorchScript archive, read cheaply and
/// without LibTorch: a zip file (PyTorch's serialisation writes one) whose
/// central directory names a `<folder>/data.pkl` (the module's state) and a
/// `<folder>/constants.pkl` (the code's constants; torch.save's archives of
/// weights have no such record). The library reads bytes it is given; the
/// command line reads them from the file, through the reader it passes to
/// check_torchscript_archive(): its first bytes, its last zip_tail_bytes,
/// then the central directory they locate.
namespace iteragpu::memory {

/// What keeps a file from being read as a TorchScript archive.
enum class archive_errc {
  not_a_zip,              ///< the file does not start with a zip local header (`PK\3\4`)
  no_end_record,          ///< no end-of-central-directory record in the last zip_tail_bytes
  bad_central_directory,  ///< the central directory lies outside the file, is past 64 MiB, or its entries are cut
  weights_only,           ///< a data.pkl without constants.pkl: torch.save's weights, not a module
  not_torchscript,        ///< a zip archive without a data.pkl record
  not_aoti_package,       ///< a zip archive with no `data/aotinductor/` entry: not an AOTInductor package
};

/// The problem, and the byte offset in the file where it was seen.
struct archive_error {
  archive_errc code{archive_errc::not_a_zip};  ///< what is wrong
  std::uint64_t offset{0};                     ///< where in the file
  /// Equal when both members are.
  friend bool operator==(const archive_error&, const archive_error&) = default;
};

/// How many bytes from the file's end hold the end-of-central-directory
/// record (22 bytes and a comment of at most 65535) and the zip64 locator
/// and record before it (20 + 56 bytes).
inline constexpr std::uint64_t zip_tail_bytes = 22 + 65'535 + 20 + 56;

/// The largest central directory read: 64 MiB, the entries of about a
/// million records (a module's tensors are one record each).
inline constexpr std::uint64_t largest_central_directory = 64 * mebibyte;

/// Where the central directory is, in bytes from the file's start.
struct central_directory_location {
  std::uint64_t offset{0};  ///< its first byte
  std::uint64_t size{0};    ///< its length
};

namespace detail {

inline constexpr std::uint32_t local_header_signature = 0x04034b50;
inline constexpr std::uint32_t central_header_signature = 0x02014b50;
inline constexpr std::uint32_t end_record_signature = 0x06054b50;
inline constexpr std::uint32_t zip64_locator_signature = 0x07064b50;
inline constexpr std::uint32_t zip64_end_record_signature = 0x06064b50;
inline constexpr std::size_t end_record_bytes = 22;
inline constexpr std::size_t zip64_locator_bytes = 20;
inline constexpr std::size_t zip64_end_record_bytes = 56;
inline constexpr std::size_t central_header_bytes = 46;

// Little-endian fields, as zip stores every number.
[[nodiscard]] constexpr std::uint64_t read_le(std::span<const std::uint8_t> bytes, std::size_t at,
                                              std::size_t width) noexcept {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    value |= std::uint64_t{bytes[at + i]} << (8U * i);
  }
  return value;
}

[[nodiscard]] constexpr bool has_signature(std::span<const std::uint8_t> bytes, std::size_t at,
                                           std::uint32_t signature) noexcept {
  return at + 4 <= bytes.size() && read_le(bytes, at, 4) == signature;
}

// Whether an entry's name is `record` or ends with `/record`.
[[nodiscard]] constexpr bool names_record(std::span<const std::uint8_t> name, std::string_view record) noexcept {
  if (name.size() < record.size()) {
    return false;
  }
  const std::size_t start = name.size() - record.size();
  for (std::size_t i = 0; i < record.size(); ++i) {
    if (name[start + i] != static_cast<std::uint8_t>(record[i])) {
      return false;
    }
  }
  return start == 0 || name[start - 1] == static_cast<std::uint8_t>('/');
}

}  // namespace detail

/// Whether the file's first bytes are a zip local file header.
[[nodiscard]] constexpr result<void, archive_error> check_zip_start(std::span<const std::uint8_t> head) noexcept {
  if (!detail::has_signature(head, 0, detail::local_header_signature)) {
    return unexpected{archive_error{archive_errc::not_a_zip, 0}};
  }
  return {};
}

/// The central directory, from the file's last bytes (`tail`, at most
/// zip_tail_bytes of a file of `file_size` bytes): the last
/// end-of-central-directory record, and the zip64 record when its locator
/// precedes it.
[[nodiscard]] constexpr result<central_directory_location, archive_error> find_central_directory(
    std::span<const std::uint8_t> tail, std::uint64_t file_size) noexcept {
  if (tail.size() > file_size || tail.size() < detail::end_record_bytes) {
    return unexpected{archive_error{archive_errc::no_end_record, file_size}};
  }
  const std::uint64_t tail_start = file_size - tail.size();
  std::size_t at = tail.size() - detail::end_record_bytes;
  while (!detail::has_signature(tail, at, detail::end_record_signature)) {
    if (at == 0) {
      return unexpected{archive_error{archive_errc::no_end_record, tail_start}};
    }
    --at;
  }
  central_directory_location where{detail::read_le(tail, at + 16, 4), detail::read_le(tail, at + 12, 4)};
  if (at >= detail::zip64_locator_bytes &&
      detail::has_signature(tail, at - detail::zip64_locator_bytes, detail::zip64_locator_signature)) {
    const std::uint64_t record = detail::read_le(tail, at - detail::zip64_locator_bytes + 8, 8);
    if (record < tail_start || record - tail_start + detail::zip64_end_record_bytes > tail.size() ||
        !detail::has_signature(tail, static_cast<std::size_t>(record - tail_start),
                               detail::zip64_end_record_signature)) {
      return unexpected{archive_error{archive_errc::bad_central_directory, record}};
    }
    const auto in_tail = static_cast<std::size_t>(record - tail_start);
    where = {detail::read_le(tail, in_tail + 48, 8), detail::read_le(tail, in_tail + 40, 8)};
  }
  if (where.offset > file_size || where.size > file_size - where.offset || where.size > largest_central_directory) {
    return unexpected{archive_error{archive_errc::bad_central_directory, tail_start + at}};
  }
  return where;
}

namespace detail {

// Calls `visit(name)` for the name of every entry of a central directory,
// or says where an entry is cut or lacks its signature.
template <class Visit>
[[nodiscard]] constexpr result<void, archive_error> for_each_entry(std::span<const std::uint8_t> central_directory,
                                                                   const central_directory_location& location,
                                                                   Visit visit) noexcept {
  std::size_t at = 0;
  while (at < central_directory.size()) {
    if (!has_signature(central_directory, at, central_header_signature) ||
        at + central_header_bytes > central_directory.size()) {
      return unexpected{archive_error{archive_errc::bad_central_directory, location.offset + at}};
    }
    const auto name_length = static_cast<std::size_t>(read_le(central_directory, at + 28, 2));
    const auto extra_length = static_cast<std::size_t>(read_le(central_directory, at + 30, 2));
    const auto comment_length = static_cast<std::size_t>(read_le(central_directory, at + 32, 2));
    const std::size_t name_at = at + central_header_bytes;
    if (name_at + name_length + extra_length + comment_length > central_directory.size()) {
      return unexpected{archive_error{archive_errc::bad_central_directory, location.offset + at}};
    }
    visit(central_directory.subspan(name_at, name_length));
    at = name_at + name_length + extra_length + comment_length;
  }
  return {};
}

// Whether an entry's name holds `part` anywhere.
[[nodiscard]] constexpr bool name_holds(std::span<const std::uint8_t> name, std::string_view part) noexcept {
  for (std::size_t start = 0; start + part.size() <= name.size(); ++start) {
    bool same = true;
    for (std::size_t i = 0; same && i < part.size(); ++i) {
      same = name[start + i] == static_cast<std::uint8_t>(part[i]);
    }
    if (same) {
      return true;
    }
  }
  return false;
}

}  // namespace detail

/// Whether the entries of a central directory (its bytes, read from
/// `location`) have TorchScript's layout: a `<folder>/data.pkl` and a
/// `<folder>/constants.pkl`.
[[nodiscard]] constexpr result<void, archive_error> check_torchscript_entries(
    std::span<const std::uint8_t> central_directory, const central_directory_location& location) noexcept {
  bool data = false;
  bool constants = false;
  auto walked = detail::for_each_entry(central_directory, location, [&](std::span<const std::uint8_t> name) {
    data = data || detail::names_record(name, "data.pkl");
    constants = constants || detail::names_record(name, "constants.pkl");
  });
  if (!walked) {
    return walked;
  }
  if (!data) {
    return unexpected{archive_error{archive_errc::not_torchscript, location.offset}};
  }
  if (!constants) {
    return unexpected{archive_error{archive_errc::weights_only, location.offset}};
  }
  return {};
}

/// Whether the entries of a central directory have the layout of an
/// AOTInductor package (the `.pt2` file that
/// torch._inductor.aoti_compile_and_package writes): an entry under a
/// `data/aotinductor/` folder, where the compiled model lies.
[[nodiscard]] constexpr result<void, archive_error> check_aoti_package_entries(
    std::span<const std::uint8_t> central_directory, const central_directory_location& location) noexcept {
  bool compiled = false;
  auto walked = detail::for_each_entry(central_directory, location, [&](std::span<const std::uint8_t> name) {
    compiled = compiled || detail::name_holds(name, "data/aotinductor/");
  });
  if (!walked) {
    return walked;
  }
  if (!compiled) {
    return unexpected{archive_error{archive_errc::not_aoti_package, location.offset}};
  }
  return {};
}

/// A reader of a file's bytes for check_torchscript_archive():
/// `read(offset, length)` gives the `length` bytes from `offset` (a vector or
/// a span). The reader does the I/O, and reports its own failures.
template <class Read>
concept archive_reader =
    std::invocable<Read&, std::uint64_t, std::uint64_t> &&
    std::convertible_to<std::invoke_result_t<Read&, std::uint64_t, std::uint64_t>, std::span<const std::uint8_t>>;

/// Whether a zip file of `file_size` bytes has the entries `check_entries`
/// asks for, read through `read` in three pieces: its first bytes
/// (check_zip_start), its last zip_tail_bytes (find_central_directory), then
/// the central directory they locate, given to `check_entries`.
template <archive_reader Read, class Entries>
[[nodiscard]] constexpr result<void, archive_error> check_zip_archive(Read&& read, std::uint64_t file_size,
                                                                      Entries check_entries) {
  if (auto start = check_zip_start(read(std::uint64_t{0}, std::min<std::uint64_t>(file_size, 4))); !start) {
    return start;
  }
  const std::uint64_t tail_length = std::min(file_size, zip_tail_bytes);
  const auto where = find_central_directory(read(file_size - tail_length, tail_length), file_size);
  if (!where) {
    return unexpected{where.error()};
  }
  return check_entries(read(where->offset, where->size), *where);
}

/// Whether a file of `file_size` bytes, read through `read`, has TorchScript's
/// layout (check_torchscript_entries).
template <archive_reader Read>
[[nodiscard]] constexpr result<void, archive_error> check_torchscript_archive(Read&& read, std::uint64_t file_size) {
  return check_zip_archive(std::forward<Read>(read), file_size, check_torchscript_entries);
}

/// Whether a file of `file_size` bytes, read through `read`, has the layout
/// of an AOTInductor package (check_aoti_package_entries).
template <archive_reader Read>
[[nodiscard]] constexpr result<void, archive_error> check_aoti_package(Read&& read, std::uint64_t file_size) {
  return check_zip_archive(std::forward<Read>(read), file_size, check_aoti_package_entries);
}

}  // namespace iteragpu::memory

#endif  // ITERAGPU_MEMORY_TORCHSCRIPT_ARCHIVE_HPP
