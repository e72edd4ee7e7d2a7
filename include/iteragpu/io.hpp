#ifndef ITERAGPU_IO_HPP
#define ITERAGPU_IO_HPP

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

// Writing a result file: a new file only, complete or not at all. The text
// goes to a temporary file in the destination's folder, is flushed to disk,
// then hard-linked to the final name. link() fails when the name exists, so
// an existing file is never replaced, even when two runs race for the same
// name; the temporary is removed in every case. (POSIX; the folder's file
// system must support hard links.)
namespace iteragpu {

enum class new_file_error {
  folder_missing,   // the destination's folder does not exist
  not_a_folder,     // the destination's parent is not a folder
  already_exists,   // a file (or anything else) already has that name
  is_empty_name,    // no file name at all
  system_error,     // creating, writing or linking failed; see the message
};

struct new_file_problem {
  new_file_error kind{new_file_error::system_error};
  std::string message;  // names the path and what is expected
};

// The whole content of a file, or nullopt when it cannot be opened or read.
// (Read in blocks: the istreambuf_iterator idiom trips GCC 12's
// -Wnull-dereference inside libstdc++ at -O2.)
[[nodiscard]] inline std::optional<std::string> read_whole_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in.is_open()) {
    return std::nullopt;
  }
  std::string text;
  std::vector<char> block(std::size_t{1} << 16U);
  while (in.read(block.data(), static_cast<std::streamsize>(block.size())) || in.gcount() > 0) {
    text.append(block.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) {
    return std::nullopt;
  }
  return text;
}

[[nodiscard]] inline std::filesystem::path folder_of(const std::filesystem::path& file) {
  const auto parent = file.parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

// Checks, before any work is done, that `file` could be created now.
[[nodiscard]] inline std::optional<new_file_problem> check_new_file(const std::filesystem::path& file) {
  if (file.empty() || file.filename().empty() || file.filename() == "." || file.filename() == "..") {
    return new_file_problem{new_file_error::is_empty_name,
                            "'" + file.string() + "' names no file; expected a path to a new file"};
  }
  std::error_code ec;
  const auto folder = folder_of(file);
  const auto folder_status = std::filesystem::status(folder, ec);
  if (!std::filesystem::exists(folder_status)) {
    return new_file_problem{new_file_error::folder_missing,
                            "folder '" + folder.string() + "' does not exist; expected an existing folder"};
  }
  if (!std::filesystem::is_directory(folder_status)) {
    return new_file_problem{new_file_error::not_a_folder, "'" + folder.string() + "' is not a folder"};
  }
  if (std::filesystem::exists(std::filesystem::symlink_status(file, ec))) {
    return new_file_problem{new_file_error::already_exists,
                            "'" + file.string() + "' already exists; expected a new file name (nothing is overwritten)"};
  }
  return std::nullopt;
}

// Writes `content` to the new file `file`; nullopt on success.
[[nodiscard]] inline std::optional<new_file_problem> write_new_file(const std::filesystem::path& file,
                                                                    std::string_view content) {
  if (auto problem = check_new_file(file)) {
    return problem;
  }
  const auto system_problem = [&](std::string_view step, int error) {
    return new_file_problem{new_file_error::system_error, "cannot write '" + file.string() + "': " +
                                                              std::string(step) + ": " +
                                                              std::generic_category().message(error)};
  };
  // The temporary is created with O_EXCL under a name of our own (the
  // process id and a per-process counter, retried while taken), with mode
  // 0666 so that the process's umask gives the result file the usual
  // permissions of a new file.
  static std::atomic<unsigned> serial{0};
  int fd = -1;
  std::string temporary;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temporary = (folder_of(file) / ("." + file.filename().string() + ".partial-" + std::to_string(::getpid()) +
                                    "-" + std::to_string(serial.fetch_add(1))))
                    .string();
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // NOLINT(cppcoreguidelines-pro-type-vararg,hicpp-vararg)
    if (fd < 0 && errno != EEXIST) {
      return system_problem("creating a temporary file", errno);
    }
  }
  if (fd < 0) {
    return system_problem("creating a temporary file", EEXIST);
  }
  const auto fail = [&](std::string_view step, int error) {
    ::close(fd);
    ::unlink(temporary.c_str());
    return system_problem(step, error);
  };
  std::size_t written = 0;
  while (written < content.size()) {
    const auto n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return fail("writing", errno);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    return fail("flushing to disk", errno);
  }
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return system_problem("closing", error);
  }
  if (::link(temporary.c_str(), file.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    if (error == EEXIST) {
      return new_file_problem{new_file_error::already_exists,
                              "'" + file.string() + "' already exists; expected a new file name (nothing is overwritten)"};
    }
    return system_problem("linking into place", error);
  }
  ::unlink(temporary.c_str());
  return std::nullopt;
}

}  // namespace iteragpu

#endif  // ITERAGPU_IO_HPP
