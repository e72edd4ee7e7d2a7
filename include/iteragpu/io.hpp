#ifndef ITERAGPU_IO_HPP
#define ITERAGPU_IO_HPP

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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
enum class new_file_error {
  folder_missing,   ///< the destination's folder does not exist
  not_a_folder,     ///< the destination's parent is not a folder
  already_exists,   ///< a file (or anything else) already has that name
  is_empty_name,    ///< no file name at all
  name_too_long,    ///< longer than the file system takes
  system_error,     ///< creating, writing or linking failed: the step and the errno value say which and why
  name_taken,       ///< another process took the name while this one worked: the content is kept under `kept`
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

/// Why a new file cannot be written: what is wrong and the figures that
/// say it (report::describe() puts it in words).
struct new_file_problem {
  new_file_error kind{new_file_error::system_error};  ///< what is wrong
  std::filesystem::path file{};                       ///< the new file, as given
  new_file_step step{new_file_step::creating};        ///< for system_error: the step refused
  int error{0};                                       ///< for system_error: the errno value
  std::uint64_t name_bytes{0};                        ///< for name_too_long: the bytes of the file name
  std::uint64_t longest_name{0};                      ///< for name_too_long: the file system's limit
  std::filesystem::path kept{};  ///< for name_taken: the new name of our own the content is under
  /// Equal when every member is equal.
  friend bool operator==(const new_file_problem&, const new_file_problem&) = default;
};

/// Why a file could not be read.
enum class read_error {
  cannot_open,          ///< it does not exist or may not be read
  not_a_regular_file,   ///< a FIFO, a device, a socket or a folder: never read, never waited on
  too_large,            ///< more than the limit
  cannot_read,          ///< reading failed part-way
};

/// What follows a file's quoted name in a message about `e`; `limit` is the
/// reader's size limit in words ("16 MiB").
[[nodiscard]] inline std::string describe(read_error e, std::string_view limit) {
  switch (e) {
    case read_error::not_a_regular_file:
      return " is not a regular file";
    case read_error::too_large:
      return " is larger than " + std::string(limit);
    case read_error::cannot_open:
    case read_error::cannot_read:
      break;
  }
  return " cannot be read";
}

/// The whole content of a regular file of at most `limit` bytes. The file
/// is opened without blocking and refused unless it is a regular file, so a
/// FIFO (whose open waits for a writer) or a device never holds the program.
/// Reading stops as soon as more than `limit` bytes have come, whatever size
/// the file system reports (files of /proc report 0), so memory stays within
/// the limit and one block. Blocks are of 64 KiB, a size every file accepts
/// (/proc's pagemap takes only multiples of 8).
[[nodiscard]] inline result<std::string, read_error> read_file_within(const std::filesystem::path& file,
                                                                      std::size_t limit) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg,hicpp-vararg,hicpp-signed-bitwise)
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return unexpected{read_error::cannot_open};
  }
  // The type is that of the file opened, not of a name that may change
  // meanwhile. A regular file reads the same with O_NONBLOCK (it never
  // blocks), so the flag stays.
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    ::close(fd);
    return unexpected{read_error::cannot_read};
  }
  if ((status.st_mode & S_IFMT) != S_IFREG) {
    ::close(fd);
    return unexpected{read_error::not_a_regular_file};
  }
  std::string text;
  constexpr std::size_t block = std::size_t{1} << 16U;
  std::optional<read_error> failure{};
  while (!failure) {
    const std::size_t before = text.size();
    text.resize(before + block);
    const auto n = ::read(fd, &text[before], text.size() - before);
    if (n < 0) {
      text.resize(before);
      if (errno != EINTR) {
        failure = read_error::cannot_read;
      }
      continue;
    }
    text.resize(before + static_cast<std::size_t>(n));
    if (n == 0) {
      break;
    }
    if (text.size() > limit) {
      failure = read_error::too_large;
    }
  }
  ::close(fd);
  if (failure) {
    return unexpected{*failure};
  }
  text.shrink_to_fit();
  return text;
}

/// The whole content of a file, or nullopt when it cannot be opened or
/// read; for files the program itself controls (tests, data it ships).
[[nodiscard]] inline std::optional<std::string> read_whole_file(const std::filesystem::path& file) {
  auto text = read_file_within(file, std::size_t{1} << 40U);
  if (!text) {
    return std::nullopt;
  }
  return std::move(*text);
}

/// The folder `file` is in: its parent, or "." for a bare file name.
[[nodiscard]] inline std::filesystem::path folder_of(const std::filesystem::path& file) {
  const auto parent = file.parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

namespace detail {

[[nodiscard]] inline new_file_problem already_exists(const std::filesystem::path& file) {
  return new_file_problem{.kind = new_file_error::already_exists, .file = file};
}

[[nodiscard]] inline new_file_problem system_problem(const std::filesystem::path& file, new_file_step step,
                                                     int error) {
  return new_file_problem{.kind = new_file_error::system_error, .file = file, .step = step, .error = error};
}

// A per-process counter for temporary names; the process id tells
// processes apart.
[[nodiscard]] inline unsigned next_temporary_serial() noexcept {
  static std::atomic<unsigned> serial{0};
  return serial.fetch_add(1);
}

}  // namespace detail

/// Checks, before any work is done, that the name and folder of `file` are
/// fit for a new file now (what reserve() checks before it creates anything).
[[nodiscard]] inline std::optional<new_file_problem> check_new_file(const std::filesystem::path& file) {
  if (file.empty() || file.filename().empty() || file.filename() == "." || file.filename() == "..") {
    return new_file_problem{.kind = new_file_error::is_empty_name, .file = file};
  }
  std::error_code ec;
  const auto folder = folder_of(file);
  const auto folder_status = std::filesystem::status(folder, ec);
  if (!std::filesystem::exists(folder_status)) {
    return new_file_problem{.kind = new_file_error::folder_missing, .file = file};
  }
  if (!std::filesystem::is_directory(folder_status)) {
    return new_file_problem{.kind = new_file_error::not_a_folder, .file = file};
  }
  if (std::filesystem::exists(std::filesystem::symlink_status(file, ec))) {
    return detail::already_exists(file);
  }
  errno = 0;
  const long longest = ::pathconf(folder.c_str(), _PC_NAME_MAX);
  if (longest > 0 && file.filename().string().size() > static_cast<std::size_t>(longest)) {
    return new_file_problem{.kind = new_file_error::name_too_long,
                            .file = file,
                            .name_bytes = file.filename().string().size(),
                            .longest_name = static_cast<std::uint64_t>(longest)};
  }
  return std::nullopt;
}

/// A new file being written: reserved first, committed with its content at
/// the end. Destroyed without commit(), it leaves nothing behind. Movable,
/// not copyable.
class new_file {
 public:
  /// Checks the destination and creates the temporary beside it (mode 0666,
  /// so that the umask gives the result the usual permissions of a new
  /// file), and checks that a hard link can be made in that folder.
  [[nodiscard]] static result<new_file, new_file_problem> reserve(const std::filesystem::path& file) {
    if (auto problem = check_new_file(file)) {
      return unexpected{std::move(*problem)};
    }
    const auto folder = folder_of(file);
    new_file f;
    f.final_ = file;
    for (int attempt = 0; attempt < 100 && f.fd_ < 0; ++attempt) {
      f.temporary_ = folder / (".iteragpu-" + to_decimal_string(static_cast<std::uint64_t>(::getpid())) + "-" +
                               to_decimal_string(detail::next_temporary_serial()) + ".partial");
      f.fd_ = ::open(f.temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,  // NOLINT(cppcoreguidelines-pro-type-vararg,hicpp-vararg)
                     0666);
      if (f.fd_ < 0 && errno != EEXIST) {
        return unexpected{detail::system_problem(file, new_file_step::creating, errno)};
      }
    }
    if (f.fd_ < 0) {
      return unexpected{detail::system_problem(file, new_file_step::creating, EEXIST)};
    }
    // The final step is a hard link: try one now, to a second name of ours.
    const auto probe = std::filesystem::path(f.temporary_.string() + "-link");
    if (::link(f.temporary_.c_str(), probe.c_str()) != 0) {
      return unexpected{detail::system_problem(file, new_file_step::linking_test, errno)};
    }
    ::unlink(probe.c_str());
    return f;
  }

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
  [[nodiscard]] result<void, new_file_problem> commit(std::string_view content) && {
    if (fd_ < 0) {
      return unexpected{detail::system_problem(final_, new_file_step::writing, EBADF)};
    }
    std::size_t written = 0;
    while (written < content.size()) {
      const auto n = ::write(fd_, content.data() + written, content.size() - written);
      if (n < 0) {
        if (errno == EINTR) {
          continue;
        }
        return fail(new_file_step::writing, errno);
      }
      written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd_) != 0) {
      return fail(new_file_step::flushing, errno);
    }
    const int closed = ::close(std::exchange(fd_, -1));
    if (closed != 0) {
      return fail(new_file_step::closing, errno);
    }
    if (::link(temporary_.c_str(), final_.c_str()) != 0) {
      const int error = errno;
      if (error == EEXIST) {
        return keep_beside();
      }
      discard();
      return unexpected{detail::system_problem(final_, new_file_step::linking_into_place, error)};
    }
    discard();
    return {};
  }

 private:
  new_file() = default;

  // The final name was taken while the work ran: the content, complete on
  // disk, is linked to a new name of our own beside it
  // (<stem>.kept-<pid>-<n><extension>) rather than thrown away.
  [[nodiscard]] result<void, new_file_problem> keep_beside() {
    const auto stem = final_.stem().string();
    const auto extension = final_.extension().string();
    const auto pid = to_decimal_string(static_cast<std::uint64_t>(::getpid()));
    for (std::uint64_t n = 1; n <= 100; ++n) {
      std::string name = stem;
      name.append(".kept-").append(pid).append("-").append(to_decimal_string(n)).append(extension);
      const auto kept = folder_of(final_) / name;
      if (::link(temporary_.c_str(), kept.c_str()) == 0) {
        discard();
        return unexpected{new_file_problem{.kind = new_file_error::name_taken, .file = final_, .kept = kept}};
      }
      if (errno != EEXIST) {
        break;
      }
    }
    discard();
    return unexpected{detail::already_exists(final_)};
  }

  [[nodiscard]] result<void, new_file_problem> fail(new_file_step step, int error) {
    discard();
    return unexpected{detail::system_problem(final_, step, error)};
  }

  // Closes and removes the temporary, if any.
  void discard() noexcept {
    if (fd_ >= 0) {
      ::close(std::exchange(fd_, -1));
    }
    if (!temporary_.empty()) {
      ::unlink(temporary_.c_str());
      temporary_.clear();
    }
  }

  std::filesystem::path final_;
  std::filesystem::path temporary_;
  int fd_{-1};
};

/// Writes `content` to the new file `file` in one call.
[[nodiscard]] inline result<void, new_file_problem> write_new_file(const std::filesystem::path& file,
                                                                   std::string_view content) {
  auto reserved = new_file::reserve(file);
  if (!reserved) {
    return unexpected{std::move(reserved).error()};
  }
  return std::move(*reserved).commit(content);
}

}  // namespace iteragpu

#endif  // ITERAGPU_IO_HPP
