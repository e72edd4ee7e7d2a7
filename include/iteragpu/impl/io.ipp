#ifndef ITERAGPU_IMPL_IO_IPP
#define ITERAGPU_IMPL_IO_IPP

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iteragpu/config.hpp"
#include "iteragpu/io.hpp"

// The bodies of the functions that <iteragpu/io.hpp> declares: included by it
// (header-only use), or compiled once through <iteragpu/src.hpp>.

namespace iteragpu {

[[nodiscard]] ITERAGPU_INLINE std::string describe(read_errc e, std::string_view limit) {
  switch (e) {
    case read_errc::not_a_regular_file:
      return " is not a regular file";
    case read_errc::too_large:
      return " is larger than " + std::string(limit);
    case read_errc::cannot_open:
    case read_errc::cannot_read:
      break;
  }
  return " cannot be read";
}

[[nodiscard]] ITERAGPU_INLINE result<std::string, read_errc> read_file_within(const std::filesystem::path& file,
                                                                              std::size_t limit) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg,hicpp-vararg,hicpp-signed-bitwise)
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return unexpected{read_errc::cannot_open};
  }
  // The type is that of the file opened, not of a name that may change
  // meanwhile. A regular file reads the same with O_NONBLOCK (it never
  // blocks), so the flag stays.
  struct stat status{};
  if (::fstat(fd, &status) != 0) {
    ::close(fd);
    return unexpected{read_errc::cannot_read};
  }
  if ((status.st_mode & S_IFMT) != S_IFREG) {
    ::close(fd);
    return unexpected{read_errc::not_a_regular_file};
  }
  // A size already over the limit is refused before a byte is read; a size
  // under it (files of /proc report 0) is still checked while reading.
  if (status.st_size > 0 && static_cast<std::uint64_t>(status.st_size) > std::uint64_t{limit}) {
    ::close(fd);
    return unexpected{read_errc::too_large};
  }
  std::string text;
  constexpr std::size_t block = std::size_t{1} << 16U;
  std::optional<read_errc> failure{};
  while (!failure) {
    const std::size_t before = text.size();
    text.resize(before + block);
    const auto n = ::read(fd, &text[before], text.size() - before);
    if (n < 0) {
      text.resize(before);
      if (errno != EINTR) {
        failure = read_errc::cannot_read;
      }
      continue;
    }
    text.resize(before + static_cast<std::size_t>(n));
    if (n == 0) {
      break;
    }
    if (text.size() > limit) {
      failure = read_errc::too_large;
    }
  }
  ::close(fd);
  if (failure) {
    return unexpected{*failure};
  }
  text.shrink_to_fit();
  return text;
}

[[nodiscard]] ITERAGPU_INLINE std::optional<std::string> read_whole_file(const std::filesystem::path& file) {
  auto text = read_file_within(file, std::size_t{1} << 40U);
  if (!text) {
    return std::nullopt;
  }
  return std::move(*text);
}

[[nodiscard]] ITERAGPU_INLINE std::filesystem::path folder_of(const std::filesystem::path& file) {
  const auto parent = file.parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

}  // namespace iteragpu

namespace iteragpu::detail {

[[nodiscard]] ITERAGPU_INLINE new_file_error system_problem(const std::filesystem::path& file, new_file_step step,
                                                            int error) {
  return new_file_error{.code = new_file_errc::system_error, .file = file, .what = refused_step{step, error}};
}

[[nodiscard]] ITERAGPU_INLINE unsigned next_temporary_serial() noexcept {
  static std::atomic<unsigned> serial{0};
  return serial.fetch_add(1);
}

}  // namespace iteragpu::detail

namespace iteragpu {

[[nodiscard]] ITERAGPU_INLINE result<void, new_file_error> check_new_file(const std::filesystem::path& file) {
  if (file.empty() || file.filename().empty() || file.filename() == "." || file.filename() == "..") {
    return unexpected{new_file_error{.code = new_file_errc::is_empty_name, .file = file}};
  }
  std::error_code ec;
  const auto folder = folder_of(file);
  const auto folder_status = std::filesystem::status(folder, ec);
  if (!std::filesystem::exists(folder_status)) {
    return unexpected{new_file_error{.code = new_file_errc::folder_missing, .file = file}};
  }
  if (!std::filesystem::is_directory(folder_status)) {
    return unexpected{new_file_error{.code = new_file_errc::not_a_folder, .file = file}};
  }
  if (std::filesystem::exists(std::filesystem::symlink_status(file, ec))) {
    return unexpected{detail::already_exists(file)};
  }
  errno = 0;
  const long longest = ::pathconf(folder.c_str(), _PC_NAME_MAX);
  if (longest > 0 && file.filename().string().size() > static_cast<std::size_t>(longest)) {
    return unexpected{
        new_file_error{.code = new_file_errc::name_too_long,
                       .file = file,
                       .what = name_length{file.filename().string().size(), static_cast<std::uint64_t>(longest)}}};
  }
  return {};
}

[[nodiscard]] ITERAGPU_INLINE result<new_file, new_file_error> new_file::reserve(const std::filesystem::path& file) {
  if (auto fit = check_new_file(file); !fit) {
    return unexpected{std::move(fit).error()};
  }
  const auto folder = folder_of(file);
  new_file f;
  f.final_ = file;
  for (int attempt = 0; attempt < 100 && f.fd_ < 0; ++attempt) {
    f.temporary_ = folder / (".iteragpu-" + to_decimal_string(static_cast<std::uint64_t>(::getpid())) + "-" +
                             to_decimal_string(detail::next_temporary_serial()) + ".partial");
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg,hicpp-vararg)
    f.fd_ = ::open(f.temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
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

[[nodiscard]] ITERAGPU_INLINE result<void, new_file_error> new_file::commit(std::string_view content) && {
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

[[nodiscard]] ITERAGPU_INLINE result<void, new_file_error> new_file::keep_beside() {
  const auto stem = final_.stem().string();
  const auto extension = final_.extension().string();
  const auto pid = to_decimal_string(static_cast<std::uint64_t>(::getpid()));
  for (std::uint64_t n = 1; n <= 100; ++n) {
    std::string name = stem;
    name.append(".kept-").append(pid).append("-").append(to_decimal_string(n)).append(extension);
    const auto kept = folder_of(final_) / name;
    if (::link(temporary_.c_str(), kept.c_str()) == 0) {
      discard();
      return unexpected{new_file_error{.code = new_file_errc::name_taken, .file = final_, .what = kept_file{kept}}};
    }
    if (errno != EEXIST) {
      break;
    }
  }
  discard();
  return unexpected{detail::already_exists(final_)};
}

[[nodiscard]] ITERAGPU_INLINE result<void, new_file_error> new_file::fail(new_file_step step, int error) {
  discard();
  return unexpected{detail::system_problem(final_, step, error)};
}

ITERAGPU_INLINE void new_file::discard() noexcept {
  if (fd_ >= 0) {
    ::close(std::exchange(fd_, -1));
  }
  if (!temporary_.empty()) {
    ::unlink(temporary_.c_str());
    temporary_.clear();
  }
}

[[nodiscard]] ITERAGPU_INLINE std::string describe(const new_file_error& e) {
  const std::string file = quoted(e.file.string());
  switch (e.code) {
    case new_file_errc::folder_missing:
      return "folder " + quoted(folder_of(e.file).string()) + " does not exist; expected an existing folder";
    case new_file_errc::not_a_folder:
      return quoted(folder_of(e.file).string()) + " is not a folder";
    case new_file_errc::already_exists:
      return file + " already exists; expected a new file name (nothing is overwritten)";
    case new_file_errc::is_empty_name:
      return file + " names no file; expected a path to a new file";
    case new_file_errc::name_too_long: {
      const auto name = data_of<name_length>(e.what);
      return "the file name of " + file + " has " + to_decimal_string(name.bytes) + " bytes; expected at most " +
             to_decimal_string(name.longest) + " on that file system";
    }
    case new_file_errc::system_error: {
      const auto refused = data_of<refused_step>(e.what);
      return "cannot write " + file + ": " + std::string(name_of(refused.step)) + ": " +
             std::generic_category().message(refused.error);
    }
    case new_file_errc::name_taken:
      return file + " was taken by another process while this one worked; the result is kept as " +
             quoted(data_of<kept_file>(e.what).path.string());
  }
  return "cannot write " + file;
}

[[nodiscard]] ITERAGPU_INLINE result<void, new_file_error> write_new_file(const std::filesystem::path& file,
                                                                          std::string_view content) {
  auto reserved = new_file::reserve(file);
  if (!reserved) {
    return unexpected{std::move(reserved).error()};
  }
  return std::move(*reserved).commit(content);
}

}  // namespace iteragpu

#endif  // ITERAGPU_IMPL_IO_IPP
