#ifndef ITERAGPU_IO_HPP
#define ITERAGPU_IO_HPP

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>

#include "iteragpu/one_of.hpp"
#include "iteragpu/result.hpp"
#include "iteragpu/text.hpp"

/// \file
/// Files: reading one within a size limit, and writing a result as a new
/// file only, complete or not at all.
///
/// A new file is first *reserved*: its name and folder are checked and a
/// temporary file is created in the same folder under a short name of our
/// own, so that everything that can fail about the destination (a missing
/// or read-only folder, a name too long, a file system without hard links)
/// fails before any work is done. The content is then written to the
/// temporary, flushed to disk and hard-linked to the final name: link()
/// fails when the name exists, so an existing file is never replaced, even
/// when two runs race for the same name. The temporary is removed in every
/// case. (POSIX; the folder's file system must support hard links.)
namespace iteragpu {

/// Why a new file cannot be written.
enum class new_file_errc {
  folder_missing,  ///< the destination's folder does not exist
  not_a_folder,    ///< the destination's parent is not a folder
  already_exists,  ///< a file (or anything else) already has that name
  is_empty_name,   ///< no file name at all
  name_too_long,   ///< longer than the file system takes
  system_error,    ///< creating, writing or linking failed: the step and the errno value say which and why
  name_taken,      ///< another process took the name while this one worked: the content is kept under `kept`
};

/// The step of writing a new file that the system refused (system_error).
enum class new_file_step : std::uint8_t {
  creating,            ///< creating the temporary file in the destination's folder
  linking_test,        ///< making a hard link in that folder, which the last step needs
  writing,             ///< writing the content
  flushing,            ///< flushing it to disk
  closing,             ///< closing the temporary file
  linking_into_place,  ///< linking the finished file to its name
};

/// system_error: the step the system refused, and why.
struct refused_step {
  new_file_step step{new_file_step::creating};  ///< the step
  int error{0};                                 ///< the errno value
  /// Equal when both members are.
  friend bool operator==(const refused_step&, const refused_step&) = default;
};

/// name_too_long: the file name's length and the file system's limit.
struct name_length {
  std::uint64_t bytes{0};    ///< the bytes of the file name
  std::uint64_t longest{0};  ///< the most the file system takes
  /// Equal when both members are.
  friend bool operator==(const name_length&, const name_length&) = default;
};

/// name_taken: the new name of our own the content is kept under.
struct kept_file {
  std::filesystem::path path;  ///< beside the name asked for
  /// Equal when the paths are.
  friend bool operator==(const kept_file&, const kept_file&) = default;
};

/// What a new_file_error carries beyond its code and file, one alternative
/// per shape: refused_step (system_error), name_length (name_too_long),
/// kept_file (name_taken), nothing (std::monostate) for the other codes.
using new_file_data = one_of<std::monostate, refused_step, name_length, kept_file>;

/// Why a new file cannot be written: what is wrong, the file, and in `what`
/// the figures the code names (describe() puts it in words).
struct new_file_error {
  new_file_errc code{new_file_errc::system_error};  ///< what is wrong
  std::filesystem::path file{};                     ///< the new file, as given
  new_file_data what{};                             ///< the data the code names
  friend bool operator==(const new_file_error&, const new_file_error&) = default;
};

/// The step the system refused, as a message says it.
[[nodiscard]] constexpr std::string_view name_of(new_file_step step) noexcept {
  switch (step) {
    case new_file_step::creating:
      return "creating a file in its folder";
    case new_file_step::linking_test:
      return "making a hard link in its folder";
    case new_file_step::writing:
      return "writing";
    case new_file_step::flushing:
      return "flushing to disk";
    case new_file_step::closing:
      return "closing";
    case new_file_step::linking_into_place:
      return "linking into place";
  }
  return "an unknown step";
}

/// Why a new file cannot be written, in one line that names the file
/// (quoted and escaped), what is wrong and what is expected.
[[nodiscard]] std::string describe(const new_file_error& e);

/// Why a file could not be read.
enum class read_errc {
  cannot_open,         ///< it does not exist or may not be read
  not_a_regular_file,  ///< a FIFO, a device, a socket or a folder: never read, never waited on
  too_large,           ///< more than the limit
  cannot_read,         ///< reading failed part-way
};

/// What follows a file's quoted name in a message about `e`; `limit` is the
/// reader's size limit in words ("16 MiB").
[[nodiscard]] std::string describe(read_errc e, std::string_view limit);

/// The whole content of a regular file of at most `limit` bytes. The file
/// is opened without blocking and refused unless it is a regular file, so a
/// FIFO (whose open waits for a writer) or a device never holds the program.
/// A file whose size is already over the limit is refused unread. Reading stops as soon as more than `limit` bytes have come, whatever size
/// the file system reports (files of /proc report 0), so memory stays within
/// the limit and one block. Blocks are of 64 KiB, a size every file accepts
/// (/proc's pagemap takes only multiples of 8).
[[nodiscard]] result<std::string, read_errc> read_file_within(const std::filesystem::path& file, std::size_t limit);

/// The whole content of a file, or nullopt when it cannot be opened or
/// read; for files the program itself controls (tests, data it ships).
[[nodiscard]] std::optional<std::string> read_whole_file(const std::filesystem::path& file);

/// The folder `file` is in: its parent, or "." for a bare file name.
[[nodiscard]] std::filesystem::path folder_of(const std::filesystem::path& file);

namespace detail {

[[nodiscard]] inline new_file_error already_exists(const std::filesystem::path& file) {
  return new_file_error{.code = new_file_errc::already_exists, .file = file};
}

[[nodiscard]] new_file_error system_problem(const std::filesystem::path& file, new_file_step step, int error);

// A per-process counter for temporary names; the process id tells
// processes apart.
[[nodiscard]] unsigned next_temporary_serial() noexcept;

}  // namespace detail

/// Checks, before any work is done, that the name and folder of `file` are
/// fit for a new file now (what reserve() checks before it creates anything):
/// a success, or why not.
[[nodiscard]] result<void, new_file_error> check_new_file(const std::filesystem::path& file);

/// A new file being written: reserved first, committed with its content at
/// the end. Destroyed without commit(), it leaves nothing behind. Movable,
/// not copyable.
class new_file {
 public:
  /// Checks the destination and creates the temporary beside it (mode 0666,
  /// so that the umask gives the result the usual permissions of a new
  /// file), and checks that a hard link can be made in that folder.
  [[nodiscard]] static result<new_file, new_file_error> reserve(const std::filesystem::path& file);

  new_file(const new_file&) = delete;
  new_file& operator=(const new_file&) = delete;
  /// Takes the other's temporary; the other holds nothing after.
  new_file(new_file&& other) noexcept
      : final_(std::move(other.final_)), temporary_(std::move(other.temporary_)), fd_(std::exchange(other.fd_, -1)) {
    other.temporary_.clear();
  }
  new_file& operator=(new_file&&) = delete;
  ~new_file() { discard(); }

  /// The final name.
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return final_; }

  /// Writes `content`, flushes it to disk and links it to the final name.
  /// On failure nothing is left at the final name and the temporary is gone;
  /// when another process took the final name meanwhile (name_taken), the
  /// content is kept under a new name of our own beside it, never discarded.
  [[nodiscard]] result<void, new_file_error> commit(std::string_view content) &&;

 private:
  new_file() = default;

  // The final name was taken while the work ran: the content, complete on
  // disk, is linked to a new name of our own beside it
  // (<stem>.kept-<pid>-<n><extension>) rather than lost.
  [[nodiscard]] result<void, new_file_error> keep_beside();

  [[nodiscard]] result<void, new_file_error> fail(new_file_step step, int error);

  // Closes and removes the temporary, if any.
  void discard() noexcept;

  std::filesystem::path final_;
  std::filesystem::path temporary_;
  int fd_{-1};
};

/// Writes `content` to the new file `file` in one call.
[[nodiscard]] result<void, new_file_error> write_new_file(const std::filesystem::path& file, std::string_view content);

}  // namespace iteragpu

#if !defined(ITERAGPU_SEPARATE_COMPILATION) || defined(ITERAGPU_SOURCE_CORE)
#include "iteragpu/impl/io.ipp"
#endif

#endif  // ITERAGPU_IO_HPP
